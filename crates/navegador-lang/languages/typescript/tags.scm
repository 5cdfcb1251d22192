; TypeScript and TSX: the type-level declarations and TypeScript's class heritage. Runs
; before ../javascript/tags.scm (language.toml lists the files in order).
; Capture vocabulary: ../README.md.

(abstract_class_declaration name: (_) @name) @definition.class
(export_statement decorator: (decorator) declaration: (abstract_class_declaration name: (_) @name)) @definition.class
(interface_declaration name: (_) @name) @definition.interface
(enum_declaration name: (_) @name) @definition.enum
(type_alias_declaration name: (_) @name) @definition.type
(internal_module name: (_) @name) @definition.module

; bodiless members: abstract methods, interface methods, overload signatures
(abstract_method_signature name: (_) @name) @definition.method
(method_signature name: (_) @name) @definition.method
(function_signature name: (identifier) @name) @definition.function

; class fields, interface properties and enum members
(public_field_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.field
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @definition.function
(property_signature name: (property_identifier) @name) @definition.field
(enum_body name: (property_identifier) @name @definition.field)
(enum_body (enum_assignment name: (property_identifier) @name) @definition.field)

(class_heritage (extends_clause value: (_) @reference.inherits))
(class_heritage (implements_clause [(type_identifier) (nested_type_identifier) (generic_type)] @reference.implementation))
; an interface extending interfaces inherits from them
(interface_declaration (extends_type_clause type: (_) @reference.inherits))

; `import fs = require('fs')` binds the module, like CommonJS `const fs = require('fs')`
(import_statement (import_require_clause (identifier) @import.alias source: (string (string_fragment) @import.module))) @import
