// JSX attributes named by a word JavaScript reserves (Vue 2 and Preact render functions,
// label `for`, react-transition-group's `in`): tree-sitter-javascript 0.25 reads none of
// them; the pack's `[preprocess]` capitalizes each in place, names read as written.
import { Transition } from 'react-transition-group';

export function Avatar({ icon, onPick }) {
  return (<i class={icon} on-click={onPick} />);
}

export function Field({ id, label }) {
  return (
    <label for={id} class="form-label">
      {label}
    </label>
  );
}

export function Fade({ show, children }) {
  return <Transition in={show} timeout={200} default = {true}>{children}</Transition>;
}

export class Options {
  // a class field and a property named by a reserved word read as before
  default = 'light';
  reset(o) {
    o.for = null;
    return "class=x";
  }
}
