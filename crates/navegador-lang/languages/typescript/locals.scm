; TypeScript and TSX: declared types of variables, parameters and fields, `as` casts,
; constructor parameter properties, type parameters; after ../javascript/locals.scm.
; A declared type wins over the initializer (`const x: Base = new Impl()` is a Base).
; Vocabulary: ../README.md.

[(abstract_class_declaration) (interface_declaration)] @local.scope
(abstract_class_declaration name: (_) @local.self body: (class_body) @local.scope.class)

(type_parameter name: (type_identifier) @local.type_parameter)

; `const x: T`, `const x = new C()`, `= await new C()`, `= y as T`, `= y satisfies T`
(variable_declarator name: (identifier) @local.definition type: (type_annotation) @local.type)
(variable_declarator name: (identifier) @local.definition !type
  value: [(new_expression constructor: [(identifier) (member_expression)] @local.type)
          (await_expression (new_expression constructor: [(identifier) (member_expression)] @local.type))
          (as_expression (_) (_) @local.type)
          (satisfies_expression (_) (_) @local.type)])

(required_parameter pattern: (identifier) @local.definition type: (type_annotation) @local.type)
(optional_parameter pattern: (identifier) @local.definition type: (type_annotation) @local.type)
[(required_parameter pattern: (identifier) @local.definition)
 (optional_parameter pattern: (identifier) @local.definition)]
(catch_clause parameter: (identifier) @local.definition type: (type_annotation) @local.type)

; fields: `repo: Repo`, `repo = new Repo()`; and the constructor's parameters
; (`constructor(private repo: Repo)`)
(public_field_definition name: [(property_identifier) (private_property_identifier)] @local.member type: (type_annotation) @local.type)
(public_field_definition name: [(property_identifier) (private_property_identifier)] @local.member !type
  value: [(new_expression constructor: [(identifier) (member_expression)] @local.type)
          (await_expression (new_expression constructor: [(identifier) (member_expression)] @local.type))
          (as_expression (_) (_) @local.type)
          (satisfies_expression (_) (_) @local.type)])
(public_field_definition name: [(property_identifier) (private_property_identifier)] @local.member)
((method_definition name: (property_identifier) @_ctor
   parameters: (formal_parameters [(required_parameter pattern: (identifier) @local.member type: (type_annotation) @local.type)
                                   (optional_parameter pattern: (identifier) @local.member type: (type_annotation) @local.type)]))
  (#eq? @_ctor "constructor"))
((method_definition name: (property_identifier) @_ctor
   parameters: (formal_parameters [(required_parameter pattern: (identifier) @local.member)
                                   (optional_parameter pattern: (identifier) @local.member)]))
  (#eq? @_ctor "constructor"))

; what else declares type parameters: they are visible inside it alone
[(type_alias_declaration) (function_signature) (method_signature) (abstract_method_signature)
 (call_signature) (construct_signature) (function_type) (constructor_type)] @local.scope
