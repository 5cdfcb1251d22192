; Scala (tree-sitter-scala): packages, classes, case classes, objects, traits, enums, type
; aliases, defs, vals and vars; calls with receivers, `new`, bases, annotations. Imports
; and chained `package` clauses are in hooks.rs (the grammar gives a path as a flat list
; of identifiers). Receiver types come from the binder (locals.scm). Vocabulary: ../README.md.

; ---- definitions ----------------------------------------------------------------------

(class_definition name: (identifier) @name) @definition.class
; `object X`: a singleton is a class (a companion object shares its class's name)
(object_definition name: (identifier) @name) @definition.class
(trait_definition name: (identifier) @name) @definition.trait
(enum_definition name: (identifier) @name) @definition.enum
(type_definition name: (type_identifier) @name) @definition.type

; `def f(…) = …` and an abstract `def f(…): T`; in a class, object or trait, a method
(function_definition name: (identifier) @name) @definition.function
(function_declaration name: (identifier) @name) @definition.function

; vals and vars of a file, an object, a class or a trait body (a block's are locals);
; `val a, b = …` gives one per name; enum cases; constructor parameters are fields
(compilation_unit [(val_definition pattern: (identifier) @name) (var_definition pattern: (identifier) @name)] @definition.variable)
(compilation_unit [(val_definition pattern: (identifiers (identifier) @name)) (var_definition pattern: (identifiers (identifier) @name))] @definition.variable)
(template_body [(val_definition pattern: (identifier) @name) (var_definition pattern: (identifier) @name)
                (val_declaration name: (identifier) @name) (var_declaration name: (identifier) @name)] @definition.field)
(template_body [(val_definition pattern: (identifiers (identifier) @name)) (var_definition pattern: (identifiers (identifier) @name))] @definition.field)
(template_body (given_definition name: (identifier) @name) @definition.field)
(compilation_unit (given_definition name: (identifier) @name) @definition.variable)
(class_parameter name: (identifier) @name) @definition.field
(simple_enum_case name: (identifier) @name) @definition.field
(full_enum_case name: (identifier) @name) @definition.field

; ---- heritage -------------------------------------------------------------------------

; `extends A(…) with B with C`: the first is the base, the mixed-in traits are implemented
(extends_clause . type: [(type_identifier) @reference.inherits
                         (generic_type type: (type_identifier) @reference.inherits)
                         (stable_type_identifier (type_identifier) @reference.inherits .)])
(extends_clause ["with" ","] . type: [(type_identifier) @reference.implementation
                                      (generic_type type: (type_identifier) @reference.implementation)
                                      (stable_type_identifier (type_identifier) @reference.implementation .)])

; ---- calls and uses -------------------------------------------------------------------

; `f(…)`, `Foo(…)` (a case class's `apply`), `a.f(…)`, `f[T](…)`, `a.f[T](…)`, `f { … }`
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression value: (_) @receiver field: (identifier) @name)) @reference.call
(call_expression function: (generic_function function: (identifier) @name)) @reference.call
(call_expression function: (generic_function function: (field_expression value: (_) @receiver field: (identifier) @name))) @reference.call
; `new Foo(…)`, `new a.Foo`, `new Foo[T]`
(instance_expression [(type_identifier) @name
                      (generic_type type: (type_identifier) @name)
                      (stable_type_identifier (type_identifier) @name .)]) @reference.new
; eta-expanded methods passed as values: `xs.map(f _)`, `xs.foreach(this.log)`
(postfix_expression . (identifier) @name . (operator_identifier) @_u (#eq? @_u "_")) @reference.value
(arguments (field_expression value: (identifier) @receiver field: (identifier) @name (#eq? @receiver "this")) @reference.value)

; ---- annotations (on declarations) ----------------------------------------------------

(annotation name: (_) @decorator.name arguments: (arguments) @decorator.args) @decorator
(annotation name: (_) @decorator.name !arguments) @decorator

; ---- module, visibility ---------------------------------------------------------------

(compilation_unit (package_clause name: (package_identifier) @module))
; public by default: `private`, `private[pkg]` and `protected` members are not
(_ (modifiers (access_modifier))) @hidden
