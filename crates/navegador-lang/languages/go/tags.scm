; Go: package-level definitions, methods by receiver, embedding, calls, literals, imports.
; Capture vocabulary: ../README.md. Receiver types of `x.M()` come from locals.scm.

(function_declaration name: (identifier) @name) @definition.function

; `func (s *T) M()`: a method of T, which is declared elsewhere in the package.
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @owner
             (pointer_type (type_identifier) @owner)
             (generic_type type: (type_identifier) @owner)
             (pointer_type (generic_type type: (type_identifier) @owner))]))
  name: (field_identifier) @name) @definition.method

; Types. A lone `type T …` spans its declaration (keyword and doc comment included); the
; inner pattern covers the members of a `type ( … )` group (the outer capture wins).
(type_declaration . (type_spec name: (type_identifier) @name type: (struct_type)) .) @definition.struct
(type_declaration . (type_spec name: (type_identifier) @name type: (interface_type)) .) @definition.interface
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_declaration . (type_spec name: (type_identifier) @name type: [(type_identifier) (qualified_type) (pointer_type) (slice_type) (map_type) (array_type) (function_type) (channel_type) (generic_type) (negated_type) (parenthesized_type)]) .) @definition.type
(type_spec name: (type_identifier) @name type: [(type_identifier) (qualified_type) (pointer_type) (slice_type) (map_type) (array_type) (function_type) (channel_type) (generic_type) (negated_type) (parenthesized_type)]) @definition.type
(type_declaration . (type_alias name: (type_identifier) @name) .) @definition.type
(type_alias name: (type_identifier) @name) @definition.type

(struct_type (field_declaration_list (field_declaration name: (field_identifier) @name) @definition.field))
(interface_type (method_elem name: (field_identifier) @name) @definition.function)

; embedding: `struct { Base; *Other; pkg.T }`, `interface { io.Reader }`
(struct_type (field_declaration_list (field_declaration !name type: (_) @reference.inherits)))
(interface_type (type_elem . [(type_identifier) (qualified_type)] @reference.inherits .))

; package-level var / const (locals are dropped by the extractor)
(source_file (var_declaration (var_spec name: (identifier) @name) @definition.variable))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @definition.variable)))
(source_file (const_declaration (const_spec name: (identifier) @name) @definition.variable))

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (selector_expression operand: (_) @receiver field: (field_identifier) @name)) @reference.call

; `T{…}`, `&pkg.T{…}`, `T[int]{…}`
(composite_literal type: [(type_identifier) (qualified_type)] @name) @reference.new
(composite_literal type: (generic_type type: (_) @name)) @reference.new

; function values passed as arguments (locals and parameters are dropped by the binder: drop_local_uses)
(call_expression arguments: (argument_list (identifier) @reference.value))
(call_expression arguments: (argument_list (selector_expression) @reference.value))

(import_spec !name path: (_) @import.module) @import
(import_spec name: (_) @import.alias path: (_) @import.module) @import

; `// doc` above a lone `var x = 1` / `const X = 1` documents it (in a `( … )` group the
; comment is above the spec itself)
(var_declaration . (var_spec) @doc.owner . (comment)* .) @doc.above
(const_declaration . (const_spec) @doc.owner . (comment)* .) @doc.above
