; Objective-C, after ../c/locals.scm: classes are scopes whose properties and instance
; variables are members (`self.items`, `_last`), method parameters are typed by their
; declared class, `[Cart alloc]` / `[Cart new]` is a Cart. Vocabulary: ../README.md.

(class_interface . (identifier) @local.self) @local.scope.class
(class_implementation . (identifier) @local.self) @local.scope.class
(method_definition) @local.scope

(property_declaration (struct_declaration (type_identifier) @local.type (struct_declarator) @local.member))
(instance_variable (struct_declaration (type_identifier) @local.type (struct_declarator) @local.member))
(method_parameter (method_type (type_name . (_) @local.type)) (identifier) @local.definition)

((message_expression receiver: (identifier) @local.type method: (identifier) @_m) @local.value
  (#any-of? @_m "alloc" "new"))
