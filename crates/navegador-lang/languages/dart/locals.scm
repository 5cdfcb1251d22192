; Dart: a library is hoisted; a class body holds its members (`this`); a function's
; parameters and locals are typed by their declared types, or by `var x = T(…)` (a
; capitalized call), and a call of one names no symbol. Vocabulary: ../README.md.

(source_file) @local.scope.hoisted
(class_declaration name: (identifier) @local.self body: (class_body) @local.scope.class)
(mixin_declaration name: (identifier) @local.self body: (class_body) @local.scope.class)
(enum_declaration name: (identifier) @local.self body: (enum_body) @local.scope.class)
[(function_body) (block) (function_expression) (for_statement)] @local.scope

(formal_parameter (type . (type_identifier) @local.type) name: (identifier) @local.definition)
(formal_parameter !type name: (identifier) @local.definition)
(initialized_variable_declaration (type . (type_identifier) @local.type) name: (identifier) @local.definition)
(initialized_variable_declaration name: (identifier) @local.definition value: (call_expression function: (identifier) @local.type (#match? @local.type "^[A-Z]")))
(initialized_variable_declaration name: (identifier) @local.definition value: (cascade . (call_expression function: (identifier) @local.type (#match? @local.type "^[A-Z]"))))
(initialized_variable_declaration name: (identifier) @local.definition)
(for_statement name: (identifier) @local.definition)
; fields are members of the class
(class_body (member_declaration (declaration (type . (type_identifier) @local.type) (initialized_identifier_list (initialized_identifier name: (identifier) @local.member)))))
; `Cart()..add(x)` and `Cart().add(x)`: a value of type Cart
((call_expression function: (identifier) @local.type) @local.value (#match? @local.type "^[A-Z]"))
(new_expression type: (type . (type_identifier) @local.type)) @local.value
(const_object_expression type: (type . (type_identifier) @local.type)) @local.value
