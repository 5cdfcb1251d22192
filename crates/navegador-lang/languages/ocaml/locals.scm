; OCaml scopes for the binder: the file's and a module's names are hoisted; parameters,
; `let … in` bindings and match patterns are locals of their function or expression.
(compilation_unit) @local.scope.hoisted
(structure) @local.scope.hoisted
; a function's parameters (a `let x = … in` binding is its expression's)
(let_binding (parameter)) @local.scope
(fun_expression) @local.scope
(match_case) @local.scope
(let_expression) @local.scope

(parameter pattern: (value_pattern) @local.definition)
(parameter (label_name) @local.definition)
(match_case pattern: (value_pattern) @local.definition)
(cons_pattern [(value_pattern) @local.definition])
(tuple_pattern (value_pattern) @local.definition)
(let_expression (value_definition (let_binding pattern: (value_name) @local.definition)))
