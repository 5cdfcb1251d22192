; Go: package-level definitions, methods by receiver, embedding, calls, literals, imports.
; Capture vocabulary: queries/README.md. Receiver types of `x.M()` are read in the `post`
; hook (src/spec.rs).

(function_declaration name: (identifier) @name) @def.function

; `func (s *T) M()`: a method of T, which is declared elsewhere in the package.
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [(type_identifier) @class
             (pointer_type (type_identifier) @class)
             (generic_type type: (type_identifier) @class)
             (pointer_type (generic_type type: (type_identifier) @class))]))
  name: (field_identifier) @name) @def.method

; Types. A lone `type T …` spans its declaration (keyword and doc comment included); the
; inner pattern covers the members of a `type ( … )` group (the outer capture wins).
(type_declaration . (type_spec name: (type_identifier) @name type: (struct_type)) .) @def.struct
(type_declaration . (type_spec name: (type_identifier) @name type: (interface_type)) .) @def.interface
(type_spec name: (type_identifier) @name type: (struct_type)) @def.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @def.interface
(type_declaration . (type_spec name: (type_identifier) @name type: [(type_identifier) (qualified_type) (pointer_type) (slice_type) (map_type) (array_type) (function_type) (channel_type) (generic_type) (negated_type) (parenthesized_type)]) .) @def.type
(type_spec name: (type_identifier) @name type: [(type_identifier) (qualified_type) (pointer_type) (slice_type) (map_type) (array_type) (function_type) (channel_type) (generic_type) (negated_type) (parenthesized_type)]) @def.type
(type_declaration . (type_alias name: (type_identifier) @name) .) @def.type
(type_alias name: (type_identifier) @name) @def.type

(struct_type (field_declaration_list (field_declaration name: (field_identifier) @name) @def.field))
(interface_type (method_elem name: (field_identifier) @name) @def.function)

; embedding: `struct { Base; *Other; pkg.T }`, `interface { io.Reader }`
(struct_type (field_declaration_list (field_declaration !name type: (_) @inherits)))
(interface_type (type_elem . [(type_identifier) (qualified_type)] @inherits .))

; package-level var / const (locals are dropped by the extractor)
(source_file (var_declaration (var_spec name: (identifier) @name) @def.variable))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @def.variable)))
(source_file (const_declaration (const_spec name: (identifier) @name) @def.variable))

(call_expression function: (identifier) @call.name) @call
(call_expression function: (selector_expression operand: (_) @call.receiver field: (field_identifier) @call.name)) @call

; `T{…}`, `&pkg.T{…}`, `T[int]{…}`
(composite_literal type: [(type_identifier) (qualified_type)] @new.name) @new
(composite_literal type: (generic_type type: (_) @new.name)) @new

; function values passed as arguments (locals and parameters are filtered in `post`)
(call_expression arguments: (argument_list (identifier) @ref.value))
(call_expression arguments: (argument_list (selector_expression) @ref.value))

(import_spec !name path: (_) @import.module) @import
(import_spec name: (_) @import.alias path: (_) @import.module) @import
