; C++: scopes and the names they bind, with their declared types, for the binder
; (src/binder.rs). Vocabulary: ../README.md.

; ---- scopes -----------------------------------------------------------------------------

[(function_definition) (compound_statement) (for_statement) (for_range_loop) (lambda_expression)
 (catch_clause) (if_statement) (while_statement)] @local.scope

; a class: its fields are bound in its whole body (methods defined there see them) and are
; members (`this->cache_.get()`); `this` is the class
(class_specifier name: (_) @local.self body: (field_declaration_list)) @local.scope.class
(struct_specifier name: (_) @local.self body: (field_declaration_list)) @local.scope.class
(union_specifier name: (_) @local.self body: (field_declaration_list)) @local.scope.class
; a method defined out of line (`void Store::put() {…}`): `this` is a Store, and bare names
; may be its members (`implicit_members` in language.toml)
(function_definition declarator: (function_declarator declarator: (qualified_identifier scope: (_) @local.self))) @local.scope
(function_definition declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier scope: (_) @local.self)))) @local.scope
(function_definition declarator: [(pointer_declarator declarator: (function_declarator declarator: (qualified_identifier scope: (_) @local.self)))
                                  (reference_declarator (function_declarator declarator: (qualified_identifier scope: (_) @local.self)))]) @local.scope

(field_declaration type: (_) @local.type declarator: (_) @local.definition @local.member)

(template_parameter_list (type_parameter_declaration (type_identifier) @local.type_parameter))

; ---- bindings ---------------------------------------------------------------------------

; parameters and locals: each declarator of a declaration, read through pointers,
; references, arrays and initializers (`declarators` in language.toml), has the
; declaration's type (`const Cache &c` is a Cache); a prototype binds nothing
(parameter_declaration type: (_) @local.type declarator: (_) @local.definition)
(optional_parameter_declaration type: (_) @local.type declarator: (_) @local.definition)
(declaration type: (_) @local.type declarator: (_) @local.definition)
; `auto x = new T(…)`, `auto p = std::make_unique<T>(…)` / `make_shared<T>`
(declaration type: (placeholder_type_specifier) declarator: (init_declarator declarator: (_) @local.definition value: (new_expression type: (_) @local.type)))
((declaration type: (placeholder_type_specifier)
   declarator: (init_declarator declarator: (_) @local.definition
     value: (call_expression function: (qualified_identifier name: (template_function name: (identifier) @_f arguments: (template_argument_list . (type_descriptor type: (_) @local.type)))))))
  (#match? @_f "^make_(unique|shared)$"))
(for_range_loop type: (_) @local.type declarator: (_) @local.definition)
(catch_clause parameters: (parameter_list (parameter_declaration type: (_) @local.type declarator: (_) @local.definition)))
(lambda_capture_specifier (identifier) @local.definition)

; `new T(…)->m()` is rare; `T(…).m()` and `T{…}.m()` are T's
(new_expression type: (_) @local.type) @local.value
