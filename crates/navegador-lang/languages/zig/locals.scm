; Zig: scopes and the names they bind, with their declared types, for the binder
; (src/binder.rs). Vocabulary: ../README.md.

(source_file) @local.scope.hoisted
[(function_declaration) (block) (for_statement) (while_statement) (if_statement) (test_declaration)] @local.scope

; a container: its declarations call each other bare (`log()` inside `Cart`)
(variable_declaration (identifier) @local.self [(struct_declaration) (union_declaration) (enum_declaration)] @local.scope.class)

(container_field name: (identifier) @local.definition @local.member type: (_) @local.type)
(container_field name: (identifier) @local.definition @local.member)

(parameter name: (identifier) @local.definition type: (_) @local.type)
(parameter name: (identifier) @local.definition)
(block (variable_declaration (identifier) @local.definition type: (_) @local.type))
(block (variable_declaration (identifier) @local.definition))
(payload (identifier) @local.definition)
