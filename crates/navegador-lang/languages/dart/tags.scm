; Dart: classes, mixins (kind trait), enums (entries as fields), extension types,
; `extension E on T` (its members are T's: an impl), typedefs, top-level functions,
; getters, setters and variables, methods, getters and setters of a body, constructors
; (`T(…)`, named `T.name(…)`, `factory`, `const`), fields; calls (`f()`, `a.f()`, `a?.f()`,
; cascades `a..f()` with `a` as the receiver), `new T()` / `const T()`, functions passed
; as arguments, `extends` / `with` (bases) / `implements`, annotations, imports,
; exports and parts (a library's names: wildcards), `package:` URIs. Vocabulary:
; ../README.md.

; ---- definitions ----------------------------------------------------------------------

(class_declaration name: (identifier) @name) @definition.class
(mixin_declaration name: (identifier) @name) @definition.trait
(enum_declaration name: (identifier) @name) @definition.enum
(extension_type_declaration name: (extension_type_name (identifier) @name)) @definition.class
(extension_type_declaration name: (identifier) @name) @definition.class
(extension_declaration class: (type . (type_identifier) @name)) @definition.impl
(type_alias . (type_identifier) @name) @definition.type
(enum_entry name: (identifier) @name) @definition.field

(function_declaration signature: (function_signature name: (identifier) @name)) @definition.function
(getter_declaration signature: (getter_signature name: (identifier) @name)) @definition.function
(setter_declaration signature: (setter_signature name: (identifier) @name)) @definition.function
(external_function_declaration signature: (function_signature name: (identifier) @name)) @definition.function

(top_level_variable_declaration (static_final_declaration_list (static_final_declaration name: (identifier) @name))) @definition.variable
(top_level_variable_declaration (initialized_identifier_list (initialized_identifier name: (identifier) @name))) @definition.variable

; members
(method_declaration signature: (method_signature [(function_signature name: (identifier) @name)
                                                  (getter_signature name: (identifier) @name)
                                                  (setter_signature name: (identifier) @name)])) @definition.method
(method_declaration signature: (method_signature (operator_signature operator: _ @name))) @definition.method
; abstract members and external ones (a signature without a body)
(member_declaration (declaration [(function_signature name: (identifier) @name)
                                  (getter_signature name: (identifier) @name)
                                  (setter_signature name: (identifier) @name)]) @definition.method)
; constructors: `T(…)` is `T`, `T.named(…)` is `named`
(constructor_signature name: (identifier) @name . parameters: (formal_parameter_list)) @definition.constructor
(constructor_signature name: (identifier) . name: (identifier) @name) @definition.constructor
(constant_constructor_signature name: (identifier) @name . parameters: (formal_parameter_list)) @definition.constructor
(constant_constructor_signature name: (identifier) . name: (identifier) @name) @definition.constructor
(factory_constructor_signature name: (identifier) @name . parameters: (formal_parameter_list)) @definition.constructor
(factory_constructor_signature name: (identifier) . name: (identifier) @name) @definition.constructor
(redirecting_factory_constructor_signature name: (identifier) @name . parameters: (formal_parameter_list)) @definition.constructor
(redirecting_factory_constructor_signature name: (identifier) . name: (identifier) @name) @definition.constructor
; fields
(member_declaration (declaration (initialized_identifier_list (initialized_identifier name: (identifier) @name))) @definition.field)
(member_declaration (declaration (static_final_declaration_list (static_final_declaration name: (identifier) @name))) @definition.field)

; ---- references -----------------------------------------------------------------------

(call_expression function: (identifier) @name) @reference.call
(call_expression function: [(member_expression object: (_) @receiver property: (identifier) @name)
                            (null_aware_member_expression object: (_) @receiver property: (identifier) @name)]) @reference.call
; `a..f()..g()`: calls of `a`
(cascade . (_) @receiver (cascade_section (cascade_call_expression property: (identifier) @name) @reference.call))
(new_expression type: (type . (type_identifier) @name)) @reference.new
(const_object_expression type: (type . (type_identifier) @name)) @reference.new
; a function passed by name: `xs.forEach(print)`
(arguments (identifier) @name @reference.value)

(superclass type: (type . (type_identifier) @reference.inherits))
(superclass (mixins (type . (type_identifier) @reference.inherits)))
(mixin_declaration (type . (type_identifier) @reference.inherits))
(interfaces (type . (type_identifier) @reference.implementation))

(annotation name: (identifier) @decorator.name arguments: (arguments)? @decorator.args) @decorator

; ---- imports --------------------------------------------------------------------------

; `import 'x.dart' as p;` binds the library as `p`; without a prefix its names
(import_specification !alias uri: (configurable_uri (uri (string_literal (_ [(template_chars_single_single) (template_chars_double_single)] @import.module))))
  (#set! import.name "*")) @import
(import_specification uri: (configurable_uri (uri (string_literal (_ [(template_chars_single_single) (template_chars_double_single)] @import.module)))) alias: (identifier) @import.alias) @import
; `export 'x.dart';`: its names are this library's too
(library_export uri: (configurable_uri (uri (string_literal (_ [(template_chars_single_single) (template_chars_double_single)] @import.module))))
  (#set! import.name "*")) @import
; `part 'x.dart';` and `part of 'lib.dart';`: one library over several files
(part_directive uri: (uri (string_literal (_ [(template_chars_single_single) (template_chars_double_single)] @import.module)))
  (#set! import.name "*")) @import
(part_of_directive (uri (string_literal (_ [(template_chars_single_single) (template_chars_double_single)] @import.module)))
  (#set! import.name "*")) @import
