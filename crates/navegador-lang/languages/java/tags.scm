; Java: types, members, calls, annotations, imports, the package (the module) and
; visibility; receiver types of calls come from locals.scm.
; Capture vocabulary: ../README.md.

; ---- definitions ----------------------------------------------------------------------

(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.record
(annotation_type_declaration name: (identifier) @name) @definition.annotation

(method_declaration name: (identifier) @name) @definition.method
(annotation_type_element_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(compact_constructor_declaration name: (identifier) @name) @definition.constructor

; one symbol per declarator: `private Foo a, b;` is two fields
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field
(enum_constant name: (identifier) @name) @definition.field
; record components are fields
(record_declaration parameters: (formal_parameters (formal_parameter name: (identifier) @name) @definition.field))

; ---- heritage -------------------------------------------------------------------------

(class_declaration superclass: (superclass [(type_identifier) (scoped_type_identifier) (generic_type)] @reference.inherits))
(class_declaration interfaces: (super_interfaces (type_list [(type_identifier) (scoped_type_identifier) (generic_type)] @reference.implementation)))
(enum_declaration interfaces: (super_interfaces (type_list [(type_identifier) (scoped_type_identifier) (generic_type)] @reference.implementation)))
(record_declaration interfaces: (super_interfaces (type_list [(type_identifier) (scoped_type_identifier) (generic_type)] @reference.implementation)))
; an interface extending interfaces inherits from them
(interface_declaration (extends_interfaces (type_list [(type_identifier) (scoped_type_identifier) (generic_type)] @reference.inherits)))

; ---- calls and uses -------------------------------------------------------------------

(method_invocation !object name: (identifier) @name) @reference.call
(method_invocation object: (_) @receiver name: (identifier) @name) @reference.call

(object_creation_expression type: [(type_identifier) (scoped_type_identifier) (generic_type)] @name) @reference.new
; `super(…)` / `this(…)` in a constructor: a constructor call of the superclass / the class
(explicit_constructor_invocation constructor: [(super) (this)] @name) @reference.new

; method references passed as values: `this::handle`, `Foo::parse`, `x::go`
(method_reference (_) @receiver . (identifier) @name) @reference.value

; ---- annotations (on declarations, not on parameters or types) -------------------------

(class_declaration (modifiers (marker_annotation name: (_) @decorator.name) @decorator))
(class_declaration (modifiers (annotation name: (_) @decorator.name arguments: (annotation_argument_list) @decorator.args) @decorator))
(interface_declaration (modifiers (marker_annotation name: (_) @decorator.name) @decorator))
(interface_declaration (modifiers (annotation name: (_) @decorator.name arguments: (annotation_argument_list) @decorator.args) @decorator))
(enum_declaration (modifiers (marker_annotation name: (_) @decorator.name) @decorator))
(enum_declaration (modifiers (annotation name: (_) @decorator.name arguments: (annotation_argument_list) @decorator.args) @decorator))
(record_declaration (modifiers (marker_annotation name: (_) @decorator.name) @decorator))
(record_declaration (modifiers (annotation name: (_) @decorator.name arguments: (annotation_argument_list) @decorator.args) @decorator))
(annotation_type_declaration (modifiers (marker_annotation name: (_) @decorator.name) @decorator))
(annotation_type_declaration (modifiers (annotation name: (_) @decorator.name arguments: (annotation_argument_list) @decorator.args) @decorator))
(method_declaration (modifiers (marker_annotation name: (_) @decorator.name) @decorator))
(method_declaration (modifiers (annotation name: (_) @decorator.name arguments: (annotation_argument_list) @decorator.args) @decorator))
(constructor_declaration (modifiers (marker_annotation name: (_) @decorator.name) @decorator))
(constructor_declaration (modifiers (annotation name: (_) @decorator.name arguments: (annotation_argument_list) @decorator.args) @decorator))
(compact_constructor_declaration (modifiers (marker_annotation name: (_) @decorator.name) @decorator))
(compact_constructor_declaration (modifiers (annotation name: (_) @decorator.name arguments: (annotation_argument_list) @decorator.args) @decorator))
(field_declaration (modifiers (marker_annotation name: (_) @decorator.name) @decorator))
(field_declaration (modifiers (annotation name: (_) @decorator.name arguments: (annotation_argument_list) @decorator.args) @decorator))
(constant_declaration (modifiers (marker_annotation name: (_) @decorator.name) @decorator))
(constant_declaration (modifiers (annotation name: (_) @decorator.name arguments: (annotation_argument_list) @decorator.args) @decorator))
(annotation_type_element_declaration (modifiers (marker_annotation name: (_) @decorator.name) @decorator))
(annotation_type_element_declaration (modifiers (annotation name: (_) @decorator.name arguments: (annotation_argument_list) @decorator.args) @decorator))

; ---- imports --------------------------------------------------------------------------

; `import a.b.C;` -> module a.b, name C; `import static a.b.C.m;` -> module a.b.C, name m
(import_declaration (scoped_identifier scope: (_) @import.module name: (identifier) @import.name) .) @import
; `import a.b.*;` -> module a.b, name *
(import_declaration (scoped_identifier) @import.module (asterisk) @import.name) @import

; ---- module and visibility --------------------------------------------------------------

(package_declaration [(scoped_identifier) (identifier)] @module)
; `public`, members of interfaces and annotation types, enum constants
(_ (modifiers "public")) @exported
(enum_constant) @exported
(interface_body (_) @exported)
(annotation_type_body (_) @exported)
