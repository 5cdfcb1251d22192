; OCaml: modules (a class-like of kind `module`, hooks.rs: their functions are its members),
; module types, types, classes and methods, functions (`let f x = …`, `let f = fun …`,
; `let rec … and …`), values, `external`s; calls (`f x`, `M.f x`, `x |> f`, `f @@ x`,
; `obj#m`), `open M` and `module P = M`. Vocabulary: ../README.md.

; ---- definitions ----------------------------------------------------------------------

; any module binding: a structure, a functor, an application (`module S = Set.Make (Int)`),
; an alias (`module P = M`, also an import below), a declaration in a signature (`module
; X : S`)
(module_definition (module_binding (module_name) @name)) @definition.class
(module_type_definition (module_type_name) @name) @definition.interface
(type_definition (type_binding name: (type_constructor) @name) @definition.type)
(class_definition (class_binding (class_name) @name) @definition.class)
(method_definition (method_name) @name) @definition.method

; a function: a binding with parameters, or of a `fun` / `function`
(value_definition (let_binding pattern: (value_name) @name (parameter)) @definition.function)
(value_definition (let_binding pattern: (value_name) @name body: [(fun_expression) (function_expression)]) @definition.function)
(external (value_name) @name) @definition.function
; a `val` of a signature (`module type S = sig val f : t end`): a method of the interface
(value_specification (value_name) @name) @definition.function
(value_specification (parenthesized_operator (_) @name)) @definition.function
; an operator (`let ( ++ ) a b = …`, `let ( // ) = Filename.concat`): named by the operator
(value_definition (let_binding (parenthesized_operator (_) @name)) @definition.function)
; a module-level value (locals are dropped)
(value_definition (let_binding pattern: (value_name) @name) @definition.variable)

; docs: the comments above the `let`, `type`, `class` (`(** … *)`, hooks.rs cleans them)
(value_definition (let_binding) @doc.owner) @doc.above
(type_definition (type_binding) @doc.owner) @doc.above
(class_definition (class_binding) @doc.owner) @doc.above

; ---- calls ----------------------------------------------------------------------------

(application_expression function: (value_path . (value_name) @name)) @reference.call
(application_expression function: (value_path (module_path) @receiver (value_name) @name)) @reference.call
; `x |> f`, `f @@ x`
((infix_expression operator: (rel_operator) @_op right: (value_path . (value_name) @name)) @reference.call (#eq? @_op "|>"))
((infix_expression operator: (rel_operator) @_op right: (value_path (module_path) @receiver (value_name) @name)) @reference.call (#eq? @_op "|>"))
((infix_expression left: (value_path . (value_name) @name) operator: (concat_operator) @_op) @reference.call (#eq? @_op "@@"))
((infix_expression left: (value_path (module_path) @receiver (value_name) @name) operator: (concat_operator) @_op) @reference.call (#eq? @_op "@@"))
(method_invocation object: (_) @receiver method: (method_name) @name) @reference.call
; a function passed as an argument (`List.iter print_item xs`; locals are dropped)
(application_expression argument: (value_path . (value_name) @name) @reference.value)
(application_expression argument: (value_path (module_path) @receiver (value_name) @name) @reference.value)

; ---- imports --------------------------------------------------------------------------

; `open M`: M's names are the file's (a wildcard)
((open_module module: (module_path) @import.module) @import (#set! import.name "*"))
; `module P = Shop_price`: P names the module
(module_definition (module_binding (module_name) @import.alias body: (module_path) @import.module)) @import
