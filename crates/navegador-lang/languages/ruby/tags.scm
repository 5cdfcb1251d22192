; Ruby: classes and modules (a module is a class-like of kind `module`, hooks.rs),
; methods (`def self.x` and `class << self` ones are `static`, hooks.rs), constants, calls,
; mixins, `require`. Qualified names follow the nesting (`ActiveSupport::Cache::Store`).
; Vocabulary: ../README.md.

; ---- definitions ----------------------------------------------------------------------

; `class A::B` is class B under A (its owner when it is not nested in another definition)
(class name: (constant) @name) @definition.class
(class name: (scope_resolution scope: (_) @owner name: (constant) @name)) @definition.class
(class name: (scope_resolution !scope name: (constant) @name)) @definition.class
(module name: (constant) @name) @definition.class
(module name: (scope_resolution scope: (_) @owner name: (constant) @name)) @definition.class
(module name: (scope_resolution !scope name: (constant) @name)) @definition.class

; a `def` in a class or module is a method (`initialize` the constructor, manifest)
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.method

; `attr_reader :name` defines the method `name` (hooks.rs: the name without its `:`, kind
; getter; `attr_writer` setter, `attr_accessor` both, named once)
((call !receiver method: (identifier) @_attr arguments: (argument_list (simple_symbol) @name)) @definition.method
  (#any-of? @_attr "attr_reader" "attr_writer" "attr_accessor"))

; `VERSION = "1.0"` in a class, module or file
(assignment left: (constant) @name) @definition.constant

; ---- heritage: the superclass, and mixins --------------------------------------------

(class superclass: (superclass [(constant) (scope_resolution)] @reference.inherits))
; `include M`, `prepend M`, `extend M` in a class or module body: M's methods are its own
((call !receiver method: (identifier) @_mixin arguments: (argument_list [(constant) (scope_resolution)] @reference.inherits))
  (#any-of? @_mixin "include" "prepend" "extend"))

; ---- calls ----------------------------------------------------------------------------

((call receiver: (_) @receiver method: [(identifier) (constant)] @name) @reference.call
  (#not-eq? @name "new"))
(call !receiver method: [(identifier) (constant)] @name) @reference.call
; `Foo.new(…)`, `A::Foo.new`
((call receiver: [(constant) (scope_resolution)] @name method: (identifier) @_new) @reference.new
  (#eq? @_new "new"))
; a bare name that no assignment or parameter binds is a call of a method of `self`
; (the binder drops locals: `drop_local_uses`)
(body_statement (identifier) @name @reference.call)
(block_body (identifier) @name @reference.call)
(then (identifier) @name @reference.call)
(else (identifier) @name @reference.call)
(argument_list (identifier) @name @reference.call)
(call receiver: (identifier) @name @reference.call)
(assignment right: (identifier) @name @reference.call)
(binary [(identifier) @name @reference.call])
(pair value: (identifier) @name @reference.call)
(if condition: (identifier) @name @reference.call)
(unless condition: (identifier) @name @reference.call)
(parenthesized_statements (identifier) @name @reference.call)
(element_reference object: (identifier) @name @reference.call)

; a method passed as a block: `map(&:to_s)` names no method of this file; `&method(:x)` is a call

; ---- imports --------------------------------------------------------------------------

; `require "a/b"` (a load-path name), `require_relative "x"` (a path from this file's
; directory: hooks.rs writes it `./x`), `load "x.rb"`
((call !receiver method: (identifier) @_req arguments: (argument_list . (string . (string_content) @import.module .) .)) @import
  (#any-of? @_req "require" "require_relative" "load"))
