; GraphQL: type, interface, enum, input, scalar, union and directive definitions and their
; extensions (`extend type Query`: a part of the one class Query), fields, arguments of
; directives, enum values; operations and fragments as functions, a fragment spread
; `...F` a call of fragment F; `implements A & B`. Vocabulary: ../README.md.

(object_type_definition (name) @name) @definition.class
(object_type_extension (name) @name) @definition.class
(interface_type_definition (name) @name) @definition.interface
(interface_type_extension (name) @name) @definition.interface
(enum_type_definition (name) @name) @definition.enum
(enum_type_extension (name) @name) @definition.enum
(input_object_type_definition (name) @name) @definition.record
(input_object_type_extension (name) @name) @definition.record
(union_type_definition (name) @name) @definition.union
(union_type_extension (name) @name) @definition.union
(scalar_type_definition (name) @name) @definition.type
(scalar_type_extension (name) @name) @definition.type
(directive_definition (name) @name) @definition.annotation

(field_definition (name) @name) @definition.field
(input_fields_definition (input_value_definition (name) @name) @definition.field)
(enum_value_definition (enum_value (name) @name)) @definition.field

(implements_interfaces (named_type (name) @reference.implementation))

; `query GetUser(…) {…}`, `fragment F on User {…}`; `...F` uses F
(operation_definition (name) @name) @definition.function
(fragment_definition (fragment_name (name) @name)) @definition.function
(fragment_spread (fragment_name (name) @name)) @reference.call

; a description string documents what follows it
(_ (description (string_value) @doc)) @doc.owner
