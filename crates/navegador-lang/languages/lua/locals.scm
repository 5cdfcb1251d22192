; Lua: a file is hoisted (its functions call each other in any order); a function's
; parameters and `local`s shadow them, and a call of one names no symbol
; (`drop_local_uses`). Vocabulary: ../README.md.

(chunk) @local.scope.hoisted
[(function_declaration) (function_definition) (do_statement) (while_statement) (repeat_statement) (for_statement) (if_statement)] @local.scope

(parameters name: (identifier) @local.definition)
(for_generic_clause (variable_list name: (identifier) @local.definition))
(for_numeric_clause name: (identifier) @local.definition)
(variable_declaration (assignment_statement (variable_list name: (identifier) @local.definition)))
(variable_declaration (variable_list name: (identifier) @local.definition))
