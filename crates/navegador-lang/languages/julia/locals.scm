; Julia: a file and a module are hoisted (their functions call each other in any order); a
; function's parameters and the names it assigns shadow them, and a call of one names no
; symbol (`drop_local_uses`). Vocabulary: ../README.md.

(source_file) @local.scope.hoisted
(module_definition) @local.scope.hoisted
[(function_definition) (macro_definition) (let_statement) (for_statement) (do_clause) (arrow_function_expression)] @local.scope

(signature (call_expression (argument_list [(identifier) @local.definition (typed_expression . (identifier) @local.definition)])))
(signature (where_expression (call_expression (argument_list [(identifier) @local.definition (typed_expression . (identifier) @local.definition)]))))
(function_definition (assignment . (identifier) @local.definition))
(for_binding . (identifier) @local.definition)
(arrow_function_expression . (identifier) @local.definition)
(let_binding . (identifier) @local.definition)
