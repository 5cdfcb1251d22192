; Java: scopes and the names they bind, with their declared types, for the binder
; (src/binder.rs). Vocabulary: ../README.md.

; ---- scopes -----------------------------------------------------------------------------

[(block) (constructor_body) (switch_block_statement_group) (for_statement)
 (enhanced_for_statement) (try_with_resources_statement) (catch_clause) (lambda_expression)
 (method_declaration) (constructor_declaration)] @local.scope

; a class: its fields (and a record's components) are bound in the whole body and are
; members (`this.repo.find()`)
(class_declaration name: (identifier) @local.self) @local.scope.class
(interface_declaration name: (identifier) @local.self) @local.scope.class
(enum_declaration name: (identifier) @local.self) @local.scope.class
(record_declaration name: (identifier) @local.self) @local.scope.class
(object_creation_expression (class_body) @local.scope.class)

(type_parameter (type_identifier) @local.type_parameter)

; ---- fields -----------------------------------------------------------------------------

((field_declaration type: (_) @local.type declarator: (variable_declarator !dimensions name: (identifier) @local.definition @local.member))
  (#not-eq? @local.type "var"))
(field_declaration declarator: (variable_declarator name: (identifier) @local.definition @local.member))
(constant_declaration type: (_) @local.type declarator: (variable_declarator !dimensions name: (identifier) @local.definition @local.member))
(constant_declaration declarator: (variable_declarator name: (identifier) @local.definition @local.member))
(record_declaration parameters: (formal_parameters (formal_parameter type: (_) @local.type name: (identifier) @local.definition @local.member)))

; ---- locals and parameters --------------------------------------------------------------

; `Foo x`, `var x = new Foo()`; an array (`Foo x[]`), a primitive or a `var` of anything
; else is bound, untyped
((local_variable_declaration type: (_) @local.type declarator: (variable_declarator !dimensions name: (identifier) @local.definition))
  (#not-eq? @local.type "var"))
((local_variable_declaration type: (type_identifier) @_var
   declarator: (variable_declarator !dimensions name: (identifier) @local.definition value: (object_creation_expression type: (_) @local.type)))
  (#eq? @_var "var"))
(variable_declarator name: (identifier) @local.definition)

(enhanced_for_statement type: (_) @local.type name: (identifier) @local.definition)
((resource type: (_) @local.type name: (identifier) @local.definition) (#not-eq? @local.type "var"))
((resource type: (type_identifier) @_var name: (identifier) @local.definition value: (object_creation_expression type: (_) @local.type))
  (#eq? @_var "var"))
(resource name: (identifier) @local.definition)
; `catch (E e)`; `catch (A | B e)`: e is neither A nor B
(catch_formal_parameter (catch_type . (_) @local.type .) name: (identifier) @local.definition)
(catch_formal_parameter name: (identifier) @local.definition)
(formal_parameter type: (_) @local.type name: (identifier) @local.definition)
(lambda_expression parameters: (identifier) @local.definition)
(inferred_parameters (identifier) @local.definition)

; `new Foo().m()`
(object_creation_expression type: (_) @local.type) @local.value
; `((List<?>) o).listIterator()`: a cast's value has the type cast to
(parenthesized_expression . (cast_expression type: (_) @local.type) .) @local.value

; literals have their types (arguments that tell overloads apart: `checkIndex(0, n)`);
; `10L` is a long, `1.5f` a float
((string_literal) @local.value (#set! local.type "String"))
((character_literal) @local.value (#set! local.type "char"))
([(true) (false)] @local.value (#set! local.type "boolean"))
((class_literal) @local.value (#set! local.type "Class"))
(([(decimal_integer_literal) (hex_integer_literal) (octal_integer_literal) (binary_integer_literal)] @local.value)
  (#match? @local.value "[lL]$") (#set! local.type "long"))
(([(decimal_integer_literal) (hex_integer_literal) (octal_integer_literal) (binary_integer_literal)] @local.value)
  (#not-match? @local.value "[lL]$") (#set! local.type "int"))
(((decimal_floating_point_literal) @local.value) (#match? @local.value "[fF]$") (#set! local.type "float"))
(((decimal_floating_point_literal) @local.value) (#not-match? @local.value "[fF]$") (#set! local.type "double"))
; `f((int) x)`: a cast passed as an argument
(cast_expression type: (_) @local.type) @local.value
