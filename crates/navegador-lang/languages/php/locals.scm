; PHP: scopes and the names they bind with their declared types, for the binder
; (src/binder.rs): typed parameters, properties (also promoted constructor parameters),
; `$x = new Foo()`. Variables are bound as written (`$x`, `[types] bindings`), members
; by name (`$this->items`). Vocabulary: ../README.md.

; ---- scopes -----------------------------------------------------------------------------

; a script's top level binds too (`$app = new App(); $app->run();`)
[(program) (method_declaration) (function_definition) (anonymous_function) (arrow_function)] @local.scope

(class_declaration name: (name) @local.self) @local.scope.class
(trait_declaration name: (name) @local.self) @local.scope.class
(enum_declaration name: (name) @local.self) @local.scope.class
(interface_declaration name: (name) @local.self) @local.scope.class
(anonymous_class body: (declaration_list) @local.scope.class)

; ---- members ----------------------------------------------------------------------------

(property_declaration type: (_) @local.type (property_element name: (variable_name (name) @local.member)))
(property_declaration (property_element name: (variable_name (name) @local.member)))
; `__construct(private Request $request)`: a property, and a parameter of the constructor
(property_promotion_parameter type: (_) @local.type name: (variable_name (name) @local.member))
(property_promotion_parameter type: (_) @local.type name: (variable_name) @local.definition)
(property_promotion_parameter name: (variable_name) @local.definition)

; ---- parameters and variables -----------------------------------------------------------

(simple_parameter type: (_) @local.type name: (variable_name) @local.definition)
(simple_parameter name: (variable_name) @local.definition)
(variadic_parameter name: (variable_name) @local.definition)
; `$x = new Foo()`; any other assignment binds `$x`, untyped
(assignment_expression left: (variable_name) @local.definition right: (object_creation_expression [(name) (qualified_name)] @local.type))
(assignment_expression left: (variable_name) @local.definition)
(foreach_statement (pair (variable_name) @local.definition))
(foreach_statement . (_) . (variable_name) @local.definition)
(catch_clause type: (type_list . (named_type) @local.type .) name: (variable_name) @local.definition)
(anonymous_function_use_clause (variable_name) @local.definition)

; `(new Foo)->m()`
(object_creation_expression [(name) (qualified_name)] @local.type) @local.value
