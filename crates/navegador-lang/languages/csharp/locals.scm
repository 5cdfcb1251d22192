; C#: scopes and the names they bind, with their declared types, for the binder
; (src/binder.rs). Vocabulary: ../README.md.

; ---- scopes -----------------------------------------------------------------------------

[(block) (method_declaration) (constructor_declaration) (local_function_statement) (lambda_expression)
 (for_statement) (foreach_statement) (catch_clause) (using_statement) (switch_section)
 (accessor_declaration) (arrow_expression_clause)] @local.scope

; a type: its fields and properties are bound in its whole body and are members
; (`this.store.Flush()`, `store.Flush()`)
(class_declaration name: (identifier) @local.self) @local.scope.class
(struct_declaration name: (identifier) @local.self) @local.scope.class
(interface_declaration name: (identifier) @local.self) @local.scope.class
(record_declaration name: (identifier) @local.self) @local.scope.class

(type_parameter name: (identifier) @local.type_parameter)

; ---- members ----------------------------------------------------------------------------

(field_declaration (variable_declaration type: (_) @local.type (variable_declarator name: (identifier) @local.definition @local.member)))
(property_declaration type: (_) @local.type name: (identifier) @local.definition @local.member)
(record_declaration (parameter_list (parameter type: (_) @local.type name: (identifier) @local.definition @local.member)))

; ---- locals and parameters --------------------------------------------------------------

(parameter type: (_) @local.type name: (identifier) @local.definition)
(parameter name: (identifier) @local.definition)
; `Foo x = …`, `var x = new Foo()`; `var` of anything else is bound, untyped
(local_declaration_statement (variable_declaration type: (_) @local.type (variable_declarator name: (identifier) @local.definition)))
(variable_declaration type: (implicit_type) (variable_declarator name: (identifier) @local.definition (object_creation_expression type: (_) @local.type)))
(variable_declaration (variable_declarator name: (identifier) @local.definition))
(foreach_statement type: (_) @local.type left: (identifier) @local.definition)
(catch_declaration type: (_) @local.type name: (identifier) @local.definition)
(declaration_expression type: (_) @local.type name: (identifier) @local.definition)
(lambda_expression parameters: (implicit_parameter) @local.definition)

; `new Foo().M()`
(object_creation_expression type: (_) @local.type) @local.value
