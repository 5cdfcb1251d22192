; C: scopes and the names they bind, with their declared types, for the binder
; (src/binder.rs). Vocabulary: ../README.md.

; ---- scopes -----------------------------------------------------------------------------

[(function_definition) (compound_statement) (for_statement)] @local.scope

; a struct's or union's fields are members (`s.ops.open()` reads ops' type); a typedef of
; an anonymous one names it
(struct_specifier name: (type_identifier) @local.self body: (field_declaration_list)) @local.scope.class
(union_specifier name: (type_identifier) @local.self body: (field_declaration_list)) @local.scope.class
(type_definition type: [(struct_specifier !name body: (_)) (union_specifier !name body: (_))] declarator: (type_identifier) @local.self) @local.scope.class
(field_declaration type: (_) @local.type declarator: (_) @local.member)

; ---- bindings ---------------------------------------------------------------------------

; parameters and locals: each declarator of a declaration, read through pointers, arrays
; and initializers (`declarators` in language.toml), has the declaration's type (`struct
; conn *c` is a `conn`); a prototype (a function declarator) binds nothing
(parameter_declaration type: (_) @local.type declarator: (_) @local.definition)
(declaration type: (_) @local.type declarator: (_) @local.definition)
