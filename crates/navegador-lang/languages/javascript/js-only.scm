; Patterns only the JavaScript grammar accepts (TypeScript names these nodes differently:
; public_field_definition, extends_clause in typescript/tags.scm).
; Capture vocabulary: ../README.md.

; class fields; an arrow function in a field (`handle = () => …`) is a method
(field_definition property: [(property_identifier) (private_property_identifier)] @name) @definition.field
(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @definition.function

(class_heritage . [(identifier) (member_expression)] @reference.inherits)
