; PHP: types, members, functions, calls, attributes, `use` and `require`. The namespace
; is the module (`@module`); names are written with `\` (`A\B\C`), the separator.
; Vocabulary: ../README.md.

; ---- definitions ----------------------------------------------------------------------

(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
; `new class(…) extends Base { … }`: the class PHP names `class@anonymous`, where its members
; are (not the enclosing function's); no other file can name it
((anonymous_class "class" @name) @definition.class
  (#set! name "class@anonymous"))

; a function inside a class-like is a method (`__construct` the constructor, manifest)
(method_declaration name: (name) @name) @definition.function
(function_definition name: (name) @name) @definition.function

; one symbol per element: `public $a, $b;` is two properties, named without `$`
(property_declaration (property_element name: (variable_name (name) @name))) @definition.field
(const_declaration (const_element (name) @name)) @definition.constant
(enum_case name: (name) @name) @definition.field
; `define('NAME', …)` at the top level
((function_call_expression function: (name) @_define
   arguments: (arguments . (argument (string (string_content) @name)))) @definition.constant
  (#eq? @_define "define"))

; ---- heritage: `extends`, `implements`, trait `use` -----------------------------------

(class_declaration (base_clause [(name) (qualified_name)] @reference.inherits))
(interface_declaration (base_clause [(name) (qualified_name)] @reference.inherits))
(class_declaration (class_interface_clause [(name) (qualified_name)] @reference.implementation))
(anonymous_class (base_clause [(name) (qualified_name)] @reference.inherits))
(anonymous_class (class_interface_clause [(name) (qualified_name)] @reference.implementation))
(enum_declaration (class_interface_clause [(name) (qualified_name)] @reference.implementation))
; `use Macroable;` inside a class: the trait's members are the class's
(use_declaration [(name) (qualified_name)] @reference.inherits)

; ---- calls and uses -------------------------------------------------------------------

; `f()`, `A\f()`, `\f()` (receiver `\`: the global namespace)
((function_call_expression function: [(name) (qualified_name)] @name) @reference.call
  (#not-eq? @name "define"))
(member_call_expression object: (_) @receiver name: (name) @name) @reference.call
(nullsafe_member_call_expression object: (_) @receiver name: (name) @name) @reference.call
; `Foo::bar()`, `self::bar()`, `static::bar()`, `parent::bar()`
(scoped_call_expression scope: (_) @receiver name: (name) @name) @reference.call

; `new Foo`, `new \A\Foo(…)`; `new static` / `new self` name no class of their own
((object_creation_expression [(name) (qualified_name)] @name) @reference.new
  (#not-any-of? @name "static" "self" "parent"))

; ---- attributes (`#[Route('/x')]`) on declarations ---------------------------------------

(attribute_list (attribute_group (attribute [(name) (qualified_name)] @decorator.name parameters: (arguments) @decorator.args) @decorator))
(attribute_list (attribute_group (attribute [(name) (qualified_name)] @decorator.name !parameters) @decorator))

; ---- imports --------------------------------------------------------------------------

; `use A\B\C;` -> module A\B, name C; `use A\B\C as D;` -> alias D; `use function A\f;`
(namespace_use_declaration
  (namespace_use_clause . [(qualified_name prefix: (namespace_name) @import.module (name) @import.name)
                           (name) @import.module]
    alias: (name)? @import.alias) @import)
; `use A\{B, C as D};` -> one import per name, module A
(namespace_use_declaration (namespace_name) @import.module
  body: (namespace_use_group (namespace_use_clause . [(name) (qualified_name)] @import.name alias: (name)? @import.alias) @import))
; `require 'x.php'`, `include_once 'y.php'`: the path as written (`__DIR__ . '/x.php'`: hooks.rs)
[(require_expression (string (string_content) @import.module))
 (require_once_expression (string (string_content) @import.module))
 (include_expression (string (string_content) @import.module))
 (include_once_expression (string (string_content) @import.module))] @import

; ---- module and visibility --------------------------------------------------------------

(namespace_definition name: (namespace_name) @module)
; public unless `private` / `protected` (no modifier is public)
(anonymous_class) @hidden
((method_declaration (visibility_modifier) @_v) @hidden (#any-of? @_v "private" "protected"))
((property_declaration (visibility_modifier) @_v) @hidden (#any-of? @_v "private" "protected"))
((const_declaration (visibility_modifier) @_v) @hidden (#any-of? @_v "private" "protected"))
