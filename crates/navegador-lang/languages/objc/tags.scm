; Objective-C, after ../c/tags.scm (the grammar extends C's): classes, their class
; extensions and categories (parts of one class: `open_classes`), protocols, methods named
; by their selector (`initWithName:style:`, hooks.rs), properties and instance variables,
; message sends `[obj sel:arg]` as calls of the selector, `#import`. Vocabulary: ../README.md.

; `@interface C : Base <P>`, `@interface C ()`, `@interface C (Extras)`, `@implementation C`
(class_interface . (identifier) @name) @definition.class
(class_implementation . (identifier) @name) @definition.class
(protocol_declaration . (identifier) @name) @definition.interface

(class_interface superclass: (identifier) @reference.inherits)
(class_interface (parameterized_arguments (type_name (type_identifier) @reference.implementation)))
(class_interface (protocol_reference_list (identifier) @reference.implementation))
(protocol_declaration (protocol_reference_list (identifier) @reference.implementation))

; methods: the name is the selector's first part; hooks.rs names the whole selector
(method_definition . (method_type) . (identifier) @name) @definition.method
(method_definition . (identifier) @name) @definition.method
(method_declaration . (method_type) . (identifier) @name) @definition.method
(method_declaration . (identifier) @name) @definition.method

; `@property (…) NSArray *items;`, instance variables `{ Item *_last; }`
(property_declaration (struct_declaration (struct_declarator [(identifier) @name (pointer_declarator declarator: (identifier) @name) (block_pointer_declarator declarator: (identifier) @name)]))) @definition.field
(instance_variable (struct_declaration (struct_declarator [(identifier) @name (pointer_declarator declarator: (identifier) @name)]))) @definition.field

; `[obj sel:arg more:arg]`: a call of `sel:more:` (hooks.rs), `[Cart shared]` of the class's
(message_expression receiver: (_) @receiver . method: (identifier) @name) @reference.call
; `@selector(onTap:)` is the method used as a value
(selector_expression . (_) @reference.value)

; `#import "Cart.h"`, `#import <UIKit/UIKit.h>`, `@import UIKit;`
(preproc_include path: [(string_literal) (system_lib_string)] @import.module) @import
(module_import path: (_) @import.module) @import
