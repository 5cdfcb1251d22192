; Kotlin (tree-sitter-kotlin-ng): types, members, extension functions, calls, annotations,
; imports. The package is the module; receiver types come from the binder (locals.scm).
; Capture vocabulary: ../README.md.

; ---- definitions ----------------------------------------------------------------------

; `enum class`, `annotation class` first: a class declaration matched twice keeps the first
; capture of its name
((class_declaration (modifiers (class_modifier) @_m) "class" name: (identifier) @name) @definition.enum
  (#eq? @_m "enum"))
((class_declaration (modifiers (class_modifier) @_m) "class" name: (identifier) @name) @definition.annotation
  (#eq? @_m "annotation"))
(class_declaration "interface" name: (identifier) @name) @definition.interface
(class_declaration "class" name: (identifier) @name) @definition.class
; `object X`: a singleton is a class; so is a companion object, `Companion` unless named
; (hooks.rs names it; its members are `Foo.Companion.create`, kind static)
(object_declaration name: (identifier) @name) @definition.class
(companion_object name: (identifier) @name) @definition.class
(companion_object !name "companion" @name) @definition.class
(type_alias type: (identifier) @name) @definition.type

; functions; inside a class (or object, or companion object) they are methods. An extension
; function (`fun String.shout()`) is a function of its package, imported by its name.
(function_declaration name: (identifier) @name) @definition.function
; secondary constructors, and a primary constructor that spells its keyword
(secondary_constructor "constructor" @name) @definition.constructor
(primary_constructor "constructor" @name) @definition.constructor

; properties: top-level, in a class body, `val`/`var` constructor parameters; one symbol
; per name of `val (a, b) = …`
(source_file (property_declaration (variable_declaration (identifier) @name)) @definition.variable)
(source_file (property_declaration (multi_variable_declaration (variable_declaration (identifier) @name))) @definition.variable)
(class_body (property_declaration (variable_declaration (identifier) @name)) @definition.field)
(class_parameter ["val" "var"] (identifier) @name) @definition.field
(enum_entry (identifier) @name) @definition.field

; ---- heritage -------------------------------------------------------------------------

; a class's supertype called with arguments is its superclass; one without is an interface
; (`Base by delegate` too); an interface's supertypes are interfaces it extends
(class_declaration "class" (delegation_specifiers (delegation_specifier (constructor_invocation (user_type) @reference.inherits))))
(class_declaration "class" (delegation_specifiers (delegation_specifier (user_type) @reference.implementation)))
(class_declaration "class" (delegation_specifiers (delegation_specifier (explicit_delegation (user_type) @reference.implementation))))
(class_declaration "interface" (delegation_specifiers (delegation_specifier (user_type) @reference.inherits)))
(object_declaration (delegation_specifiers (delegation_specifier (constructor_invocation (user_type) @reference.inherits))))
(object_declaration (delegation_specifiers (delegation_specifier (user_type) @reference.implementation)))

; ---- calls and uses -------------------------------------------------------------------

; `f()`, `Foo()` (a constructor call looks like any call), `a.f()`, `a?.f()`, `f { … }`
(call_expression . (identifier) @name) @reference.call
(call_expression . (navigation_expression (_) @receiver . ["." "?."] . (identifier) @name .)) @reference.call
; callable references passed as values: `::handle`, `Foo::parse`, `this::go`
(callable_reference . "::" . (identifier) @name) @reference.value
(navigation_expression (_) @receiver . "::" . (identifier) @name .) @reference.value

; ---- annotations (on declarations) ----------------------------------------------------

(modifiers (annotation (user_type) @decorator.name) @decorator)
(modifiers (annotation (constructor_invocation (user_type) @decorator.name (value_arguments) @decorator.args)) @decorator)

; ---- imports --------------------------------------------------------------------------

; in hooks.rs (the grammar gives `a.b.C` as one flat list): `import a.b.C` -> module a.b,
; name C; `import a.b.*` -> name *; `import a.b.C as D` -> alias D

; ---- module, visibility, docs ---------------------------------------------------------

(package_header (qualified_identifier) @module)
; public by default: `private` and `protected` are not visible outside the package
(_ (modifiers (visibility_modifier) @_v) (#any-of? @_v "private" "protected")) @hidden
