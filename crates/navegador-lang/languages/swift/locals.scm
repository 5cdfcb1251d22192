; Swift: scopes and the names they bind, with their declared types, for the binder
; (src/binder.rs). Vocabulary: ../README.md.

; ---- scopes -----------------------------------------------------------------------------

[(function_declaration) (init_declaration) (deinit_declaration) (lambda_literal)
 (for_statement) (if_statement) (catch_block) (computed_property) (subscript_declaration)] @local.scope

; a type, extension or protocol: its properties are bound in the whole body and are
; members (`self.store.save()`); `Self` is its type
(class_declaration name: (_) @local.self) @local.scope.class
(protocol_declaration name: (_) @local.self) @local.scope.class

(type_parameter (type_identifier) @local.type_parameter)

; ---- properties ---------------------------------------------------------------------------

; `let x: Foo`, `let x = Foo()` (a capitalized call, an initializer by convention); anything
; else is bound, untyped
(class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @local.definition @local.member) (type_annotation) @local.type))
((class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @local.definition @local.member) value: (call_expression . (simple_identifier) @local.type)))
  (#match? @local.type "^[A-Z]"))
(class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @local.definition @local.member)))

(property_declaration name: (pattern bound_identifier: (simple_identifier) @local.definition) (type_annotation) @local.type)
((property_declaration name: (pattern bound_identifier: (simple_identifier) @local.definition) value: (call_expression . (simple_identifier) @local.type))
  (#match? @local.type "^[A-Z]"))
(property_declaration name: (pattern bound_identifier: (simple_identifier) @local.definition))
(if_statement bound_identifier: (simple_identifier) @local.definition)
(guard_statement bound_identifier: (simple_identifier) @local.definition)
(for_statement item: (pattern bound_identifier: (simple_identifier) @local.definition))

; ---- parameters ---------------------------------------------------------------------------

(parameter name: (simple_identifier) @local.definition . (_) @local.type)
(lambda_parameter name: (simple_identifier) @local.definition)
