; JavaScript grammar only: parameters, `const x = new C()` and class fields (TypeScript
; reads them with their declared types in typescript/locals.scm). Vocabulary: ../README.md.

(formal_parameters (identifier) @local.definition)
(formal_parameters (assignment_pattern left: (identifier) @local.definition))

(variable_declarator name: (identifier) @local.definition
  value: [(new_expression constructor: [(identifier) (member_expression)] @local.type)
          (await_expression (new_expression constructor: [(identifier) (member_expression)] @local.type))])

(field_definition property: [(property_identifier) (private_property_identifier)] @local.member
  value: [(new_expression constructor: [(identifier) (member_expression)] @local.type)
          (await_expression (new_expression constructor: [(identifier) (member_expression)] @local.type))])
(field_definition property: [(property_identifier) (private_property_identifier)] @local.member)
