; JavaScript (ES modules, CommonJS): the part every JS/TS grammar accepts. The TypeScript
; and TSX packs run it after their own tags.scm; JSX patterns are in jsx.scm (JavaScript,
; TSX) and those only the JavaScript grammar accepts in js-only.scm.
; Capture vocabulary: ../README.md.

; ---- definitions ----------------------------------------------------------------------

(class_declaration name: (_) @name) @definition.class
; `export default class extends B {}`: an anonymous default export is named `default`.
(export_statement "default" @name value: (class !name)) @definition.class
; `const C = class extends B {}`
(variable_declarator name: (identifier) @name value: (class)) @definition.class
; `@dec export class C {}`: the export statement holds the decorators, so it is the range.
(export_statement decorator: (decorator) declaration: (class_declaration name: (_) @name)) @definition.class

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
; `export default function () {}`: an anonymous default export is named `default`.
(export_statement "default" @name value: [(function_expression !name) (arrow_function)]) @definition.function
(export_statement "default" value: (function_expression name: (identifier) @name)) @definition.function

; `const f = () => …`, `const f = function () {}`, anywhere (nested ones nest).
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function

; a component wrapped by React: `const Button = memo((props) => …)`, `forwardRef(…)`
((variable_declarator
  name: (identifier) @name
  value: (call_expression function: (_) @_w arguments: (arguments . [(arrow_function) (function_expression)]))) @definition.function
  (#match? @_w "^(React\\.)?(memo|forwardRef)$"))

; `exports.f = function () {}`, `module.exports.f = () => …`
(program (expression_statement (assignment_expression
  left: (member_expression
    object: [(identifier) @_e (member_expression object: (identifier) @_m property: (property_identifier) @_e)]
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression)]) @definition.function)
  (#eq? @_e "exports"))

; `C.prototype.m = function () {}`: a method of C
(expression_statement (assignment_expression
  left: (member_expression object: (member_expression object: (identifier) @name property: (property_identifier) @_p))
  right: [(function_expression) (arrow_function)]) @definition.impl
  (#eq? @_p "prototype"))
(assignment_expression
  left: (member_expression object: (member_expression property: (property_identifier) @_p) property: (property_identifier) @name)
  right: [(function_expression) (arrow_function)] @definition.function
  (#eq? @_p "prototype"))

(method_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.function

; an object's member whose value is a function, as the method shorthand is:
; `{ isMounted: function (c) {…}, useState: (s) => … }`
(pair key: [(property_identifier) (string (string_fragment))] @name value: [(function_expression) (arrow_function) (generator_function)]) @definition.function

; a named function or class expression passed, returned, wrapped in parentheses or made
; by an arrow: `createErrorClass((_super) => function AjaxErrorImpl() {…})`, `return
; function piped() {…}`, `f(function* gen() {…})`, `return class Impl extends B {}`. Its
; name is what stack traces and the function itself use. (As a variable's value, the
; variable names it: `const f = function g() {}` is `f`, above.)
; (`memo(function Badge() {})` is the variable's, above)
((call_expression function: (_) @_w
  arguments: (arguments [(function_expression name: (identifier) @name) (generator_function name: (identifier) @name)] @definition.function))
  (#not-match? @_w "^(React\\.)?(memo|forwardRef)$"))
(new_expression arguments: (arguments [(function_expression name: (identifier) @name) (generator_function name: (identifier) @name)] @definition.function))
(arrow_function body: [(function_expression name: (identifier) @name) (generator_function name: (identifier) @name)] @definition.function)
(return_statement [(function_expression name: (identifier) @name) (generator_function name: (identifier) @name)] @definition.function)
(parenthesized_expression [(function_expression name: (identifier) @name) (generator_function name: (identifier) @name)] @definition.function)
(arguments (class name: (_) @name) @definition.class)
(arrow_function body: (class name: (_) @name) @definition.class)
(return_statement (class name: (_) @name) @definition.class)

; module-level `const`/`let`/`var` (not functions, not `require` bindings: those are imports)
((program (lexical_declaration (variable_declarator name: (identifier) @name value: (_)? @_v) @definition.variable))
  (#not-match? @_v "^(require|import)\\s*\\("))
((program (variable_declaration (variable_declarator name: (identifier) @name value: (_)? @_v) @definition.variable))
  (#not-match? @_v "^(require|import)\\s*\\("))
(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)))
(program (export_statement declaration: (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)))


; ---- calls and uses -------------------------------------------------------------------

((call_expression function: (identifier) @name) @reference.call
  (#not-eq? @name "require"))
(call_expression
  function: (member_expression
    object: (_) @receiver
    property: [(property_identifier) (private_property_identifier)] @name)) @reference.call

(new_expression constructor: [(identifier) (member_expression)] @name) @reference.new

; `await this.http.get<T>(…)`: the TypeScript grammar calls the await expression
(call_expression function: (await_expression (member_expression
    object: (_) @receiver
    property: [(property_identifier) (private_property_identifier)] @name))) @reference.call

; callbacks: a function passed by name as an argument, or a method of `this`/`super` or of
; a capitalized namespace (`Utils.parse`); `user.id` is data, not a callback
(arguments (identifier) @reference.value)
(arguments (member_expression object: [(this) (super)] property: [(property_identifier) (private_property_identifier)]) @reference.value)
((arguments (member_expression object: (identifier) @_o property: (property_identifier)) @reference.value)
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
; `require('m')` as an argument (`app.use('/api', require('./api'))`) loads the module too
(arguments (call_expression function: (identifier) @_r arguments: (arguments . (string (string_fragment) @import.module) .)) @import
  (#eq? @_r "require"))

; ---- exports ----------------------------------------------------------------------------

; `export function f`, `export const f = …`, `export default …`, CommonJS `exports.f = …`
; (export lists and `module.exports = {…}` are read in the hook)
(export_statement) @exported
(export_statement declaration: (_) @exported)
(export_statement declaration: (_ (variable_declarator) @exported))
(export_statement declaration: (_ (variable_declarator (_) @exported)))
(program (expression_statement (assignment_expression) @exported))
