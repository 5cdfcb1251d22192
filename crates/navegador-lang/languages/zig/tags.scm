; Zig (tree-sitter-zig): containers (`const S = struct {…}`, enums, unions, opaques,
; error sets), functions (methods inside a container), fields, top-level constants and
; variables; calls with receivers; `@import` as imports; `pub` exported. Vocabulary: ../README.md.

; ---- definitions ----------------------------------------------------------------------

(variable_declaration (identifier) @name (struct_declaration)) @definition.struct
(variable_declaration (identifier) @name (enum_declaration)) @definition.enum
(variable_declaration (identifier) @name (union_declaration)) @definition.union
(variable_declaration (identifier) @name [(opaque_declaration) (error_set_declaration)]) @definition.type

(function_declaration name: (identifier) @name) @definition.function

; fields of a container, public to every importer (not the `_` the manifest's `[preprocess]`
; gives an empty container, `struct{_}`, which stands where the source has its `{`)
([(struct_declaration (container_field name: (identifier) @name) @definition.field)
  (union_declaration (container_field name: (identifier) @name) @definition.field)
  (enum_declaration (container_field name: (identifier) @name) @definition.field)]
  (#not-eq? @name "{"))
(container_field) @exported

; other constants and variables of a file or a container (an `@import` is an import)
((source_file (variable_declaration (identifier) @name . (_) @_v) @definition.variable)
  (#not-match? @_v "^@import"))
((struct_declaration (variable_declaration (identifier) @name . (_) @_v) @definition.variable)
  (#not-match? @_v "^@import"))

; ---- calls ------------------------------------------------------------------------------

; `f(…)`, `a.f(…)`, `std.ArrayList(T)` (a generic type is a call too); `@builtin(…)` is not
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression object: (_) @receiver member: (identifier) @name)) @reference.call

; ---- imports ------------------------------------------------------------------------------

; `const m = @import("m.zig")`: binds the file as `m`
((variable_declaration (identifier) @import.alias
   (builtin_function (builtin_identifier) @_b (arguments . (string (string_content) @import.module)))) @import
  (#eq? @_b "@import"))
; `const T = @import("m.zig").T`: the name `T` of the file
((variable_declaration (identifier) @import.alias
   (field_expression object: (builtin_function (builtin_identifier) @_b (arguments . (string (string_content) @import.module)))
                     member: (identifier) @import.name)) @import
  (#eq? @_b "@import"))

; ---- visibility ---------------------------------------------------------------------------

(variable_declaration "pub") @exported
(function_declaration "pub") @exported
