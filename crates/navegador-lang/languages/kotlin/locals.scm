; Kotlin: scopes and the names they bind, with their declared types, for the binder
; (src/binder.rs). Vocabulary: ../README.md.

; ---- scopes -----------------------------------------------------------------------------

[(function_declaration) (secondary_constructor) (anonymous_initializer) (block)
 (lambda_literal) (for_statement) (catch_block) (getter) (setter)] @local.scope

; a class or object: its properties and `val`/`var` constructor parameters are bound in the
; whole body and are members (`this.repo.find()`); a companion object's are its class's
(class_declaration name: (identifier) @local.self) @local.scope.class
(object_declaration name: (identifier) @local.self) @local.scope.class
(object_literal) @local.scope.class

(type_parameter (identifier) @local.type_parameter)

; ---- properties ---------------------------------------------------------------------------

; `val x: Foo`, `val x = Foo()` (a capitalized call, a constructor by convention); anything
; else is bound, untyped
(class_body (property_declaration (variable_declaration (identifier) @local.definition @local.member (_) @local.type)))
((class_body (property_declaration (variable_declaration (identifier) @local.definition @local.member .) (call_expression . (identifier) @local.type)))
  (#match? @local.type "^[A-Z]"))
(class_body (property_declaration (variable_declaration (identifier) @local.definition @local.member)))
(class_parameter (identifier) @local.definition @local.member (_) @local.type)

(variable_declaration (identifier) @local.definition (_) @local.type)
((property_declaration (variable_declaration (identifier) @local.definition .) (call_expression . (identifier) @local.type))
  (#match? @local.type "^[A-Z]"))
(variable_declaration (identifier) @local.definition)

; ---- parameters ---------------------------------------------------------------------------

(parameter (identifier) @local.definition (_) @local.type)
(catch_block (identifier) @local.definition (_) @local.type)

; `Foo().m()`
((call_expression . (identifier) @local.type) @local.value
  (#match? @local.type "^[A-Z]"))
