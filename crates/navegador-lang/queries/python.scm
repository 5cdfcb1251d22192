; Python: definitions, calls, inheritance, decorators, imports.
; Capture vocabulary: queries/README.md.

(class_definition name: (identifier) @name) @def.class
(decorated_definition definition: (class_definition name: (identifier) @name)) @def.class

(function_definition name: (identifier) @name) @def.function
(decorated_definition definition: (function_definition name: (identifier) @name)) @def.function

; module-level and class-level assignments (locals are dropped by the extractor)
(module (expression_statement (assignment left: (identifier) @name) @def.variable))
(class_definition body: (block (expression_statement (assignment left: (identifier) @name) @def.field)))

(class_definition superclasses: (argument_list [(identifier) (attribute)] @inherits))

(call function: (identifier) @call.name) @call
(call function: (attribute object: (_) @call.receiver attribute: (identifier) @call.name)) @call

; callbacks: a function passed by name as an argument
(call arguments: (argument_list (identifier) @ref.value))
(call arguments: (argument_list (keyword_argument value: (identifier) @ref.value)))

(decorator [(identifier) (attribute)] @decorator.name) @decorator
(decorator (call function: (_) @decorator.name arguments: (argument_list) @decorator.args)) @decorator

(import_statement name: (dotted_name) @import.module) @import
(import_statement name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.module name: (dotted_name) @import.name) @import
(import_from_statement module_name: (_) @import.module name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.module (wildcard_import) @import.name) @import
