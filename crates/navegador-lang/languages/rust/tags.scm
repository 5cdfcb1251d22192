; Rust: modules, types, traits, impl blocks, functions, consts, fields, calls, struct
; literals, impl-for and supertraits, visibility. Capture vocabulary: ../README.md.
; `use` declarations (nested groups), `#[attributes]` and doc comments are read in
; hooks.rs (receiver types in locals.scm): a query cannot join nested `use` paths, and
; attributes and docs are siblings of an item, not inside it. Macro invocations are not
; calls and their arguments (token trees) are not read.

(mod_item name: (identifier) @name body: (declaration_list)) @definition.module

(struct_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(union_item name: (type_identifier) @name) @definition.union
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type

; functions; inside an impl or trait they become methods (also bodiless trait methods)
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function

; `impl T`, `impl<X> T<X>`, `impl Trait for a::T`: the methods belong to class T
(impl_item type: [(type_identifier) @name
                  (generic_type type: (type_identifier) @name)
                  (scoped_type_identifier name: (type_identifier) @name)
                  (generic_type type: (scoped_type_identifier name: (type_identifier) @name))]) @definition.impl
(impl_item trait: (_) @reference.implementation)

; `trait A: B + fmt::Debug`
(trait_item bounds: (trait_bounds [(type_identifier) (scoped_type_identifier) (generic_type)] @reference.inherits))

(const_item name: (identifier) @name) @definition.variable
(static_item name: (identifier) @name) @definition.variable

(struct_item body: (field_declaration_list (field_declaration name: (field_identifier) @name) @definition.field))
(union_item body: (field_declaration_list (field_declaration name: (field_identifier) @name) @definition.field))
(enum_variant_list (enum_variant name: (identifier) @name) @definition.field)

; `f()`, `a::b::f()`, `Self::f()`, `T::new()`, `x.m()`, `f::<T>()`
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (scoped_identifier path: (_) @receiver name: (identifier) @name)) @reference.call
(call_expression function: (field_expression value: (_) @receiver field: (field_identifier) @name)) @reference.call
(call_expression function: (generic_function function: (identifier) @name)) @reference.call
(call_expression function: (generic_function function: (scoped_identifier path: (_) @receiver name: (identifier) @name))) @reference.call
(call_expression function: (generic_function function: (field_expression value: (_) @receiver field: (field_identifier) @name))) @reference.call

; `T { .. }`
(struct_expression name: [(type_identifier) (scoped_type_identifier)] @name) @reference.new

; functions passed as values: `map(parse)`, `map(Self::parse)` (locals dropped by the binder: drop_local_uses)
(arguments [(identifier) (scoped_identifier)] @reference.value)

; `pub`, `pub(crate)`: visible outside the module (trait methods and enum variants inherit
; their container's visibility in the hook)
(_ (visibility_modifier)) @exported
