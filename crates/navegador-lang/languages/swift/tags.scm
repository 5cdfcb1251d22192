; Swift (tree-sitter-swift): types, protocols, extensions, members, calls, attributes,
; imports. Names are qualified within the module (`Thing.draw`); receiver types come from
; the binder (locals.scm). Capture vocabulary: ../README.md.

; ---- definitions ----------------------------------------------------------------------

(class_declaration declaration_kind: "class" name: (type_identifier) @name) @definition.class
(class_declaration declaration_kind: "actor" name: (type_identifier) @name) @definition.class
(class_declaration declaration_kind: "struct" name: (type_identifier) @name) @definition.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name) @definition.enum
(protocol_declaration name: (type_identifier) @name) @definition.interface
; `extension Thing { … }` is no node: its members are Thing's (in this file or another)
(class_declaration declaration_kind: "extension" name: (_) @name) @definition.impl
(typealias_declaration name: (type_identifier) @name) @definition.type

; functions; inside a type or extension they are methods
(function_declaration name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.method
(init_declaration "init" @name) @definition.constructor
(deinit_declaration "deinit" @name) @definition.method

; properties: top-level and in a type body (locals are dropped); one symbol per enum case
(property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field
(protocol_property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field
(enum_entry name: (simple_identifier) @name) @definition.field

; ---- heritage and conformance ---------------------------------------------------------

; a class's first supertype is its superclass when it has one (Swift writes it first), the
; rest are protocols it conforms to; a struct, enum, actor or extension only conforms; a
; protocol inherits the protocols it lists
(class_declaration declaration_kind: "class" name: (_) . (inheritance_specifier inherits_from: (_) @reference.inherits))
(class_declaration declaration_kind: "class" name: (_) . (type_parameters) . (inheritance_specifier inherits_from: (_) @reference.inherits))
(class_declaration declaration_kind: "class" (inheritance_specifier) . (inheritance_specifier inherits_from: (_) @reference.implementation))
(class_declaration declaration_kind: ["struct" "enum" "actor" "extension"] (inheritance_specifier inherits_from: (_) @reference.implementation))
(protocol_declaration (inheritance_specifier inherits_from: (_) @reference.inherits))

; ---- calls ----------------------------------------------------------------------------

; `f()`, `Thing()` (an initializer call looks like any call), `a.f()`, `a?.f()`, `f { … }`;
; a subscript (`items[id]`) is no call
((call_expression . (simple_identifier) @name . (call_suffix) @_args) @reference.call
  (#not-match? @_args "^\\["))
((call_expression . (navigation_expression target: (_) @receiver suffix: (navigation_suffix suffix: (simple_identifier) @name)) . (call_suffix) @_args) @reference.call
  (#not-match? @_args "^\\["))

; ---- attributes (on declarations) -----------------------------------------------------

(modifiers (attribute (user_type) @decorator.name) @decorator)

; ---- imports --------------------------------------------------------------------------

; `import Foundation` -> module Foundation, name `*` (a module's names are all visible);
; `import struct UIKit.CGFloat` -> module UIKit, name CGFloat
((import_declaration (identifier . (simple_identifier) @import.module .)) @import
  (#set! import.name "*"))
(import_declaration (identifier (simple_identifier) @import.module . (simple_identifier) @import.name .)) @import

; ---- visibility -----------------------------------------------------------------------

; `public` and `open` are visible outside the module; so are the members of a public
; protocol or extension and the cases of a public enum
(_ (modifiers (visibility_modifier) @_v) (#any-of? @_v "public" "open")) @exported
(class_declaration (modifiers (visibility_modifier) @_v) declaration_kind: "extension" body: (class_body (_) @exported) (#any-of? @_v "public" "open"))
(protocol_declaration (modifiers (visibility_modifier) @_v) body: (protocol_body (_) @exported) (#any-of? @_v "public" "open"))
(class_declaration (modifiers (visibility_modifier) @_v) body: (enum_class_body (enum_entry) @exported) (#any-of? @_v "public" "open"))
