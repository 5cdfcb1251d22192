; R: a file is hoisted (its functions call each other in any order); a function's
; parameters and the names it assigns with `<-` / `=` shadow them, and a call of one
; names no symbol (`drop_local_uses`); `<<-` assigns outside. Vocabulary: ../README.md.

(program) @local.scope.hoisted
(function_definition) @local.scope

(parameter name: (identifier) @local.definition)
(function_definition body: (braced_expression (binary_operator lhs: (identifier) @local.definition operator: ["<-" "="])))
(for_statement variable: (identifier) @local.definition)
