; Go: scopes and the names they bind, with their declared types, for the binder
; (src/binder.rs); what a receiver's type is read from. Vocabulary: ../README.md.

; ---- scopes -----------------------------------------------------------------------------

[(function_declaration) (method_declaration) (func_literal)] @local.scope
[(block) (if_statement) (for_statement) (expression_switch_statement) (type_switch_statement)
 (expression_case) (type_case) (default_case) (communication_case)] @local.scope

; a struct type: its fields are members (`s.mux.Handle()` reads mux's type)
(type_spec name: (type_identifier) @local.self type: (struct_type)) @local.scope.class
(field_declaration name: (field_identifier) @local.member type: (_) @local.type)

; ---- bindings ---------------------------------------------------------------------------

; parameters and the method receiver: `func (s *Server) M(w http.ResponseWriter)`
(parameter_declaration name: (identifier) @local.definition type: (_) @local.type)
(variadic_parameter_declaration name: (identifier) @local.definition type: (_) @local.type)

; `var x T`, `var a, b = T{}, &U{}` (values pair with names in order)
(var_spec name: (identifier) @local.definition type: (_) @local.type)
(var_spec name: (identifier)+ @local.definition !type value: (expression_list (_)+ @local.type))
(var_spec name: (identifier) @local.definition)
(const_spec name: (identifier) @local.definition type: (_) @local.type)
(const_spec name: (identifier) @local.definition)

; `x := T{…}`, `a, b := T{}, U{}`; `x, err := f()` binds untyped names
(short_var_declaration left: (expression_list (identifier)+ @local.definition) right: (expression_list (_)+ @local.type))
(range_clause left: (expression_list (identifier) @local.definition))
; `case v := <-ch:`, `switch x := v.(type)` (the alias's type differs per case: unknown)
(receive_statement left: (expression_list (identifier) @local.definition))
(type_switch_statement alias: (expression_list (identifier) @local.definition))
