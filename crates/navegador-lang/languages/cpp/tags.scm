; C++: namespaces, classes/structs/unions/enums (templates too), functions and methods
; (inline, declared in a class, defined out of line as `T::m`), fields, globals, typedefs and
; aliases, calls (free, member, qualified), `new`, base classes, `#include` and `using`,
; attributes. Capture vocabulary: ../README.md. What the queries cannot say is in
; hooks.rs (kinds of methods, access sections, qualified out-of-line names).

; ---- namespaces and types -------------------------------------------------------------

; `namespace a {…}`, `namespace a::b {…}` (an anonymous namespace holds file-local names)
(namespace_definition name: (_) @name) @definition.module

(class_specifier name: (_) @name body: (field_declaration_list)) @definition.class
(struct_specifier name: (_) @name body: (field_declaration_list)) @definition.struct
(union_specifier name: (_) @name body: (field_declaration_list)) @definition.union
(enum_specifier name: (_) @name body: (enumerator_list)) @definition.enum

; `typedef struct {…} T;`
(type_definition type: (struct_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (class_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.class
(type_definition type: (union_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.union
(type_definition type: (enum_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.enum
; other typedefs and `using T = …;`
(type_definition type: [(primitive_type) (type_identifier) (sized_type_specifier) (qualified_identifier) (template_type)
                        (struct_specifier !body) (class_specifier !body) (union_specifier !body) (enum_specifier !body)]
  declarator: (type_identifier) @name) @definition.type
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name)) @definition.type
(type_definition declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type

; ---- functions and methods ------------------------------------------------------------

; definitions: `int f(…) {…}`, `T *f(…)`, `T &f(…)`, `~T()`, `operator==`; inside a class
; they are methods
(function_definition declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name)))) @definition.function
(function_definition declarator: (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name))) @definition.function
; `operator bool() const {…}`
(function_definition declarator: (operator_cast type: (_) @name)) @definition.function

; out of line: `void T::m(…) {…}`, `T::T()`, `T::~T()`, `a::T::m`, `T<U>::m` — a method of
; T (the innermost scope; hooks.rs names it by the whole path)
(function_definition declarator: (function_declarator declarator: (qualified_identifier scope: (_) @owner name: [(identifier) (destructor_name) (operator_name)] @name))) @definition.method
(function_definition declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier scope: (_) @owner name: [(identifier) (destructor_name) (operator_name)] @name)))) @definition.method
(function_definition declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: (qualified_identifier scope: (_) @owner name: [(identifier) (destructor_name) (operator_name)] @name))))) @definition.method
(function_definition declarator: [(pointer_declarator declarator: (function_declarator declarator: (qualified_identifier scope: (_) @owner name: [(identifier) (operator_name)] @name)))
                                  (reference_declarator (function_declarator declarator: (qualified_identifier scope: (_) @owner name: [(identifier) (operator_name)] @name)))]) @definition.method
(function_definition declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: (qualified_identifier name: (qualified_identifier scope: (_) @owner name: [(identifier) (destructor_name) (operator_name)] @name)))))) @definition.method

; declarations (prototypes; in a class, method declarations): the hook marks them
; kind=declaration, as C's (inside a function, `T x(y);` is a local, the most vexing
; parse: the hook drops it)
(declaration declarator: (function_declarator declarator: [(identifier) (destructor_name) (operator_name)] @name)) @definition.function
(declaration declarator: [(pointer_declarator declarator: (function_declarator declarator: [(identifier) (operator_name)] @name))
                          (reference_declarator (function_declarator declarator: [(identifier) (operator_name)] @name))]) @definition.function
(declaration declarator: (operator_cast type: (_) @name)) @definition.function
(field_declaration declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)) @definition.function
(field_declaration declarator: [(pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name))
                                (reference_declarator (function_declarator declarator: [(field_identifier) (operator_name)] @name))
                                (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name)))]) @definition.function

; ---- fields, constants, globals -------------------------------------------------------

(field_declaration declarator: [(field_identifier) @name
                                (pointer_declarator declarator: (field_identifier) @name)
                                (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
                                (reference_declarator (field_identifier) @name)
                                (array_declarator declarator: (field_identifier) @name)
                                (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))]) @definition.field
(enumerator name: (identifier) @name) @definition.field

; globals and namespace-level constants (locals inside functions are dropped)
(declaration
  type: [(primitive_type) (type_identifier) (sized_type_specifier) (qualified_identifier) (template_type)
         (placeholder_type_specifier) (struct_specifier !body) (class_specifier !body) (enum_specifier !body)]
  declarator: [(identifier) @name
               (init_declarator declarator: (identifier) @name)
               (pointer_declarator declarator: (identifier) @name)
               (reference_declarator (identifier) @name)
               (array_declarator declarator: (identifier) @name)
               (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
               (init_declarator declarator: (reference_declarator (identifier) @name))
               (init_declarator declarator: (array_declarator declarator: (identifier) @name))]) @definition.variable

; ---- heritage --------------------------------------------------------------------------

(class_specifier (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @reference.inherits))
(struct_specifier (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @reference.inherits))

; ---- calls and uses ---------------------------------------------------------------------

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (template_function name: (identifier) @name)) @reference.call
; `x.m()`, `p->m()`, `x.template get<T>()`
(call_expression function: (field_expression argument: (_) @receiver field: [(field_identifier) @name (template_method name: (field_identifier) @name)])) @reference.call
; `a::b::f()`; with template arguments in the path (`T<U>::f()`, `std::make_unique<T>()`) the
; receiver is the scope next to the name
((call_expression function: (qualified_identifier) @name) @reference.call (#not-match? @name "<"))
((call_expression function: (qualified_identifier scope: (_) @receiver name: [(identifier) @name (template_function name: (identifier) @name)]) @_q) @reference.call
  (#match? @_q "<"))
((call_expression function: (qualified_identifier name: (qualified_identifier scope: (_) @receiver name: [(identifier) @name (template_function name: (identifier) @name)])) @_q) @reference.call
  (#match? @_q "<"))

(new_expression type: (_) @name) @reference.new

; functions passed as values: `std::thread(run)`, `register(&handler)` (locals and
; parameters are dropped by the binder)
(call_expression arguments: (argument_list (identifier) @reference.value))
(call_expression arguments: (argument_list (pointer_expression argument: (identifier) @reference.value)))
(initializer_pair value: (identifier) @reference.value)

; ---- attributes -----------------------------------------------------------------------

(attribute_declaration (attribute name: (_) @decorator.name) @decorator)

; ---- includes and using ---------------------------------------------------------------

(preproc_include path: [(string_literal) (system_lib_string)] @import.module) @import
; `using namespace a::b;` -> module a::b, name *; `using a::b::C;` -> module a::b, name C
; (split in hooks.rs)
((using_declaration "namespace" [(identifier) (qualified_identifier)] @import.module) @import (#set! import.name "*"))
((using_declaration . [(identifier) (qualified_identifier)] @import.module) @import (#not-match? @import "^using\\s+namespace"))

; ---- visibility -----------------------------------------------------------------------

; `static` and an anonymous namespace are file-local (private class members: hooks.rs)
((_ (storage_class_specifier) @_s) @hidden (#eq? @_s "static"))
(namespace_definition !name body: (declaration_list (_) @hidden))
