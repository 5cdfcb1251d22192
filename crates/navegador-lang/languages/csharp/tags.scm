; C#: types (classes, interfaces, structs, enums, records, delegates), members (methods,
; constructors, destructors, properties, indexers, events, fields, enum members), nested
; namespaces, calls, `new`, base types, attributes, `using` directives. The first
; namespace is the module. Capture vocabulary: ../README.md; the rest in hooks.rs.

; ---- definitions ----------------------------------------------------------------------

(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(struct_declaration name: (identifier) @name) @definition.struct
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.record
(delegate_declaration name: (identifier) @name) @definition.type
; a namespace inside the file's namespace
(declaration_list (namespace_declaration name: (_) @name) @definition.module)

(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
; `~T()`: hooks.rs names it `~T`
(destructor_declaration name: (identifier) @name) @definition.method
(local_function_statement name: (identifier) @name) @definition.function
; `public static T operator +(…)`, `this[int i]`: hooks.rs names them
(operator_declaration operator: _ @name) @definition.method
(conversion_operator_declaration type: (_) @name) @definition.method
(indexer_declaration "this" @name) @definition.method

; properties, events and fields: one symbol per declarator (hooks.rs: kind=property/event)
(property_declaration name: (identifier) @name) @definition.field
(event_declaration name: (identifier) @name) @definition.field
(event_field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
(enum_member_declaration name: (identifier) @name) @definition.field
; a record's positional parameters are its properties
(record_declaration (parameter_list (parameter name: (identifier) @name) @definition.field))

; ---- base types -------------------------------------------------------------------------

; `class A : B, IC`: .NET names interfaces `I…`, so those are implemented, the other one is
; the base class; an interface's bases are inherited, a struct's or record struct's are
; implemented
((class_declaration (base_list [(identifier) (qualified_name) (generic_name)] @reference.implementation))
  (#match? @reference.implementation "^([A-Za-z_][A-Za-z0-9_]*\\.)*I[A-Z]"))
((class_declaration (base_list [(identifier) (qualified_name) (generic_name)] @reference.inherits))
  (#not-match? @reference.inherits "^([A-Za-z_][A-Za-z0-9_]*\\.)*I[A-Z]"))
((record_declaration (base_list [(identifier) (qualified_name) (generic_name)] @reference.implementation))
  (#match? @reference.implementation "^([A-Za-z_][A-Za-z0-9_]*\\.)*I[A-Z]"))
((record_declaration (base_list [(identifier) (qualified_name) (generic_name) (primary_constructor_base_type)] @reference.inherits))
  (#not-match? @reference.inherits "^([A-Za-z_][A-Za-z0-9_]*\\.)*I[A-Z]"))
(interface_declaration (base_list [(identifier) (qualified_name) (generic_name)] @reference.inherits))
(struct_declaration (base_list [(identifier) (qualified_name) (generic_name)] @reference.implementation))

; ---- calls and uses ---------------------------------------------------------------------

(invocation_expression function: (identifier) @name) @reference.call
(invocation_expression function: (generic_name (identifier) @name)) @reference.call
(invocation_expression function: (member_access_expression expression: (_) @receiver name: [(identifier) @name (generic_name (identifier) @name)])) @reference.call
; `a?.M()`
(invocation_expression function: (conditional_access_expression (_) @receiver (member_binding_expression name: [(identifier) @name (generic_name (identifier) @name)]))) @reference.call

(object_creation_expression type: [(identifier) (qualified_name) (generic_name)] @name) @reference.new

; method groups passed as values: `list.ForEach(Handle)`, `Run(this.OnDone)` (locals and
; parameters are dropped by the binder)
(argument_list (argument (identifier) @reference.value))
((argument_list (argument (member_access_expression expression: _ @receiver name: (identifier) @reference.value)))
  (#any-of? @receiver "this" "base"))
; `x.Changed += OnChanged`
(assignment_expression operator: "+=" right: (identifier) @reference.value)

; ---- attributes (on declarations, not on parameters) -------------------------------------

(_ (attribute_list (attribute name: (_) @decorator.name (attribute_argument_list)? @decorator.args) @decorator))

; ---- using directives ---------------------------------------------------------------------

; `using A.B;`, `using static A.B.C;`, `global using A.B;` -> module A.B, name * (a namespace's
; types, a type's static members); `using X = A.B.C;` -> module A.B, name C, alias X
((using_directive !name [(identifier) (qualified_name)] @import.module) @import (#set! import.name "*"))
(using_directive name: (identifier) @import.alias (qualified_name qualifier: (_) @import.module name: (_) @import.name)) @import

; ---- module and visibility ----------------------------------------------------------------

(compilation_unit (namespace_declaration name: (_) @module))
(compilation_unit (file_scoped_namespace_declaration name: (_) @module))
; `public` (and `protected`, visible to subclasses elsewhere), members of interfaces, enum
; members
((_ (modifier) @_m) @exported (#any-of? @_m "public" "protected"))
(interface_declaration body: (declaration_list (_) @exported))
(enum_member_declaration) @exported
