; C: functions and prototypes, struct/union/enum and typedefs, globals, fields, calls,
; function pointers passed as arguments, #include, `static`. Capture vocabulary: ../README.md.
; Declarations are not anchored to the translation unit, so that what sits inside an
; include guard (`#ifndef X_H`) is seen; declarations inside functions are locals, which
; the extractor drops. Macros (`#define`) are not recorded.

; definitions: `int f(…) {…}`, `char *f(…) {…}`, `char **f(…) {…}`
(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function

; prototypes: a Function too; the `post` hook marks it kind=declaration
(declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(declaration declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function

; `struct s {…}` (a use without a body is not a definition)
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.union
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.enum

; `typedef struct {…} Name;`: the typedef is the struct
(type_definition type: (struct_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (union_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.union
(type_definition type: (enum_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.enum
; `typedef struct s {…} s_t;`: `struct s` is defined above; the alias spans its name only,
; so that the struct is not nested in it
(type_definition type: [(struct_specifier name: (_) body: (_)) (union_specifier name: (_) body: (_)) (enum_specifier name: (_) body: (_))] declarator: (type_identifier) @name @definition.type)
; other typedefs: `typedef int id_t;`, `typedef struct s s_t;`, `typedef struct s *s_p;`,
; `typedef int (*cmp_fn)(…);`
(type_definition type: [(primitive_type) (type_identifier) (sized_type_specifier) (struct_specifier !body) (union_specifier !body) (enum_specifier !body)] declarator: (type_identifier) @name) @definition.type
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name)) @definition.type
(type_definition declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))) @definition.type
(type_definition declarator: (function_declarator declarator: (type_identifier) @name)) @definition.type

; globals: `int n;`, `int n = 1;`, `char *p;`, `int a[3];`, and two levels of `*` and `[]`:
; `char **pp;`, `static const char *names[] = {…};`, `int grid[3][4];`
; (locals are dropped)
(declaration
  type: [(primitive_type) (type_identifier) (sized_type_specifier) (macro_type_specifier)
         (struct_specifier !body) (union_specifier !body) (enum_specifier !body)]
  declarator: [(identifier) @name
               (init_declarator declarator: (identifier) @name)
               (pointer_declarator declarator: (identifier) @name)
               (array_declarator declarator: (identifier) @name)
               (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
               (init_declarator declarator: (array_declarator declarator: (identifier) @name))
               (pointer_declarator declarator: [(pointer_declarator declarator: (identifier) @name)
                                                (array_declarator declarator: (identifier) @name)])
               (array_declarator declarator: (array_declarator declarator: (identifier) @name))
               (init_declarator declarator: (pointer_declarator declarator: [(pointer_declarator declarator: (identifier) @name)
                                                                             (array_declarator declarator: (identifier) @name)]))
               (init_declarator declarator: (array_declarator declarator: (array_declarator declarator: (identifier) @name)))]) @definition.variable
; `struct s {…} v = …;`: the variable spans its declarator, so that struct s is not inside it
(declaration
  type: [(struct_specifier body: (_)) (union_specifier body: (_)) (enum_specifier body: (_))]
  declarator: [(identifier) @name @definition.variable
               (init_declarator declarator: (identifier) @name) @definition.variable
               (pointer_declarator declarator: (identifier) @name) @definition.variable
               (init_declarator declarator: (pointer_declarator declarator: (identifier) @name)) @definition.variable])

; fields, including function-pointer fields, and enum constants
(field_declaration declarator: [(field_identifier) @name
                                (pointer_declarator declarator: (field_identifier) @name)
                                (array_declarator declarator: (field_identifier) @name)
                                (pointer_declarator declarator: [(pointer_declarator declarator: (field_identifier) @name)
                                                                 (array_declarator declarator: (field_identifier) @name)])
                                (array_declarator declarator: (array_declarator declarator: (field_identifier) @name))
                                (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))]) @definition.field
(enumerator name: (identifier) @name) @definition.field

(call_expression function: (identifier) @name) @reference.call
; `ops->open(…)`, `s.cb(…)`: a call through a function-pointer field
(call_expression function: (field_expression argument: (_) @receiver field: (field_identifier) @name)) @reference.call

; function pointers passed as arguments: `qsort(…, cmp)`, `register(&handler)` (locals and
; parameters are dropped by the binder: drop_local_uses)
(call_expression arguments: (argument_list (identifier) @reference.value))
(call_expression arguments: (argument_list (pointer_expression argument: (identifier) @reference.value)))
; stored in a designated initializer: `{ .open = file_open }`
(initializer_pair value: (identifier) @reference.value)
; and assigned to a field: `s->on_evict = evict_noop`
(assignment_expression left: (field_expression) right: (identifier) @reference.value)

(preproc_include path: [(string_literal) (system_lib_string)] @import.module) @import

; `static` is file-local
((_ (storage_class_specifier) @_s) @hidden (#eq? @_s "static"))
