; JavaScript (ES modules, CommonJS, JSX).
; TypeScript runs typescript.scm followed by this file up to the `JSX` section line below;
; TSX runs it up to the `JavaScript grammar only` line (src/spec.rs cuts at those lines,
; keep them verbatim). So patterns above a section line must be valid in those grammars.
; Capture vocabulary: queries/README.md.

; ---- definitions ----------------------------------------------------------------------

(class_declaration name: (_) @name) @def.class
; `export default class extends B {}`: an anonymous default export is named `default`.
(export_statement "default" @name value: (class !name)) @def.class
; `const C = class extends B {}`
(variable_declarator name: (identifier) @name value: (class)) @def.class
; `@dec export class C {}`: the export statement holds the decorators, so it is the range.
(export_statement decorator: (decorator) declaration: (class_declaration name: (_) @name)) @def.class

(function_declaration name: (identifier) @name) @def.function
(generator_function_declaration name: (identifier) @name) @def.function
; `export default function () {}`: an anonymous default export is named `default`.
(export_statement "default" @name value: [(function_expression !name) (arrow_function)]) @def.function
(export_statement "default" value: (function_expression name: (identifier) @name)) @def.function

; `const f = () => …`, `const f = function () {}`, anywhere (nested ones nest).
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @def.function

; a component wrapped by React: `const Button = memo((props) => …)`, `forwardRef(…)`
((variable_declarator
  name: (identifier) @name
  value: (call_expression function: (_) @_w arguments: (arguments . [(arrow_function) (function_expression)]))) @def.function
  (#match? @_w "^(React\\.)?(memo|forwardRef)$"))

; `exports.f = function () {}`, `module.exports.f = () => …`
(program (expression_statement (assignment_expression
  left: (member_expression
    object: [(identifier) @_e (member_expression object: (identifier) @_m property: (property_identifier) @_e)]
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression)]) @def.function)
  (#eq? @_e "exports"))

; `C.prototype.m = function () {}`: a method of C
(expression_statement (assignment_expression
  left: (member_expression object: (member_expression object: (identifier) @name property: (property_identifier) @_p))
  right: [(function_expression) (arrow_function)]) @def.impl
  (#eq? @_p "prototype"))
(assignment_expression
  left: (member_expression object: (member_expression property: (property_identifier) @_p) property: (property_identifier) @name)
  right: [(function_expression) (arrow_function)] @def.function
  (#eq? @_p "prototype"))

(method_definition name: [(property_identifier) (private_property_identifier)] @name) @def.function

; module-level `const`/`let`/`var` (not functions, not `require` bindings: those are imports)
((program (lexical_declaration (variable_declarator name: (identifier) @name value: (_)? @_v) @def.variable))
  (#not-match? @_v "^(require|import)\\s*\\("))
((program (variable_declaration (variable_declarator name: (identifier) @name value: (_)? @_v) @def.variable))
  (#not-match? @_v "^(require|import)\\s*\\("))
(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @def.variable)))
(program (export_statement declaration: (variable_declaration (variable_declarator name: (identifier) @name) @def.variable)))


; ---- calls and uses -------------------------------------------------------------------

((call_expression function: (identifier) @call.name) @call
  (#not-eq? @call.name "require"))
(call_expression
  function: (member_expression
    object: (_) @call.receiver
    property: [(property_identifier) (private_property_identifier)] @call.name)) @call

(new_expression constructor: [(identifier) (member_expression)] @new.name) @new

; `await this.http.get<T>(…)`: the TypeScript grammar calls the await expression
(call_expression function: (await_expression (member_expression
    object: (_) @call.receiver
    property: [(property_identifier) (private_property_identifier)] @call.name))) @call

; callbacks: a function passed by name as an argument, or a method of `this`/`super` or of
; a capitalized namespace (`Utils.parse`); `user.id` is data, not a callback
(arguments (identifier) @ref.value)
(arguments (member_expression object: [(this) (super)] property: [(property_identifier) (private_property_identifier)]) @ref.value)
((arguments (member_expression object: (identifier) @_o property: (property_identifier)) @ref.value)
  (#match? @_o "^[A-Z]"))

(decorator [(identifier) (member_expression)] @decorator.name) @decorator
(decorator (call_expression function: (_) @decorator.name arguments: (arguments) @decorator.args)) @decorator

; ---- imports --------------------------------------------------------------------------

; `import x from 'm'` binds the default export
(import_statement (import_clause (identifier) @import.alias) source: (string (string_fragment) @import.module)
  (#set! import.name "default")) @import
(import_statement (import_clause (named_imports (import_specifier name: _ @import.name alias: (_)? @import.alias)))
  source: (string (string_fragment) @import.module)) @import
(import_statement (import_clause (namespace_import "*" @import.name (identifier) @import.alias))
  source: (string (string_fragment) @import.module)) @import
; side-effect import: `import 'm'`
(import_statement . "import" . source: (string (string_fragment) @import.module)) @import

; re-exports are imports too, marked by an alias equal to the exported name (see README)
(export_statement (export_clause (export_specifier name: _ @import.name alias: _ @import.alias))
  source: (string (string_fragment) @import.module)) @import
(export_statement (export_clause (export_specifier !alias name: _ @import.name @import.alias))
  source: (string (string_fragment) @import.module)) @import
(export_statement "*" @import.name source: (string (string_fragment) @import.module)) @import
(export_statement (namespace_export "*" @import.name (_) @import.alias) source: (string (string_fragment) @import.module)) @import

; CommonJS: `const x = require('m')` binds the module, `const {a, b: c} = require('m')` names
(variable_declarator name: (identifier) @import.alias
  value: (call_expression function: (identifier) @_r arguments: (arguments . (string (string_fragment) @import.module) .))
  (#eq? @_r "require")) @import
(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @import.name)
  value: (call_expression function: (identifier) @_r arguments: (arguments . (string (string_fragment) @import.module) .))
  (#eq? @_r "require")) @import
(variable_declarator
  name: (object_pattern (pair_pattern key: (_) @import.name value: (identifier) @import.alias))
  value: (call_expression function: (identifier) @_r arguments: (arguments . (string (string_fragment) @import.module) .))
  (#eq? @_r "require")) @import
; bare `require('m')` and dynamic `import('m')`
(expression_statement (call_expression function: (identifier) @_r arguments: (arguments . (string (string_fragment) @import.module) .))
  (#eq? @_r "require")) @import
(call_expression function: (import) arguments: (arguments . (string (string_fragment) @import.module))) @import

; ---- JSX (also TSX) ----

; rendering a component is calling it (lower-case tags are HTML)
((jsx_self_closing_element name: [(identifier) (member_expression)] @call.name) @call
  (#match? @call.name "^([A-Z]|[a-z_$][A-Za-z0-9_$]*\\.)"))
((jsx_opening_element name: [(identifier) (member_expression)] @call.name) @call
  (#match? @call.name "^([A-Z]|[a-z_$][A-Za-z0-9_$]*\\.)"))
; handlers passed as props: `onClick={handle}`, `onClick={this.handle}`, `onClose={props.onClose}`
((jsx_attribute (property_identifier) @_a (jsx_expression [(identifier) (member_expression)] @ref.value))
  (#match? @_a "^on[A-Z]"))

; ---- JavaScript grammar only ----

; class fields; an arrow function in a field (`handle = () => …`) is a method
(field_definition property: [(property_identifier) (private_property_identifier)] @name) @def.field
(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @def.function

(class_heritage . [(identifier) (member_expression)] @inherits)
