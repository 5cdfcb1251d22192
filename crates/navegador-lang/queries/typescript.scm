; TypeScript and TSX: the type-level declarations and TypeScript's class heritage. Runs
; before the shared part of javascript.scm (see the head of that file).
; Capture vocabulary: queries/README.md.

(abstract_class_declaration name: (_) @name) @def.class
(export_statement decorator: (decorator) declaration: (abstract_class_declaration name: (_) @name)) @def.class
(interface_declaration name: (_) @name) @def.interface
(enum_declaration name: (_) @name) @def.enum
(type_alias_declaration name: (_) @name) @def.type
(internal_module name: (_) @name) @def.module

; bodiless members: abstract methods, interface methods, overload signatures
(abstract_method_signature name: (_) @name) @def.method
(method_signature name: (_) @name) @def.method
(function_signature name: (identifier) @name) @def.function

; class fields, interface properties and enum members
(public_field_definition name: [(property_identifier) (private_property_identifier)] @name) @def.field
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @def.function
(property_signature name: (property_identifier) @name) @def.field
(enum_body name: (property_identifier) @name @def.field)
(enum_body (enum_assignment name: (property_identifier) @name) @def.field)

(class_heritage (extends_clause value: (_) @inherits))
(class_heritage (implements_clause [(type_identifier) (nested_type_identifier) (generic_type)] @implements))
; an interface extending interfaces inherits from them
(interface_declaration (extends_type_clause type: (_) @inherits))

; `import fs = require('fs')` binds the module, like CommonJS `const fs = require('fs')`
(import_statement (import_require_clause (identifier) @import.alias source: (string (string_fragment) @import.module))) @import
