; Python: definitions, calls, inheritance, decorators, imports.
; Capture vocabulary: ../README.md.

(class_definition name: (identifier) @name) @definition.class
(decorated_definition definition: (class_definition name: (identifier) @name)) @definition.class

(function_definition name: (identifier) @name) @definition.function
(decorated_definition definition: (function_definition name: (identifier) @name)) @definition.function

; module-level and class-level assignments (locals are dropped by the extractor)
; assigned a call (`apps = Apps()`), the variable records the callee: the resolver types it by
; the callee when that is a class of the file
(module (expression_statement (assignment left: (identifier) @name right: (call function: [(identifier) (attribute)] @instance_of)?) @definition.variable))
(class_definition body: (block (expression_statement (assignment left: (identifier) @name right: (call function: [(identifier) (attribute)] @instance_of)?) @definition.field)))

; function values: `f = lambda …` (kind `lambda`) at module or class level; at module level
; `_ = lazy(gettext, str)`, `x = partial(f, …)`, `g = wraps(f)(h)` — a call whose first argument
; names a function (kind `call`: not a class's constructor, a builtin that makes a value, a
; dunder or a CONSTANT). A name captured as a function and a variable is a function.
((module (expression_statement (assignment left: (identifier) @name right: (lambda)) @definition.function))
  (#set! definition.kind "lambda"))
(class_definition body: (block (expression_statement (assignment left: (identifier) @name right: (lambda)) @definition.function)))
((module (expression_statement (assignment left: (identifier) @name
   right: (call function: [(identifier) (attribute)] @_f arguments: (argument_list . [(identifier) (attribute)] @_arg))) @definition.function))
  (#not-match? @_f "(^|[.])[A-Z][A-Za-z0-9_]*$")
  (#not-match? @_arg "(^|[.])(__[a-z_]+__|[A-Z][A-Z0-9_]*)$")
  (#not-any-of? @_f "getattr" "list" "dict" "set" "frozenset" "tuple" "sorted" "reversed" "len" "str" "bytes" "int" "float" "bool" "type" "iter" "next" "open" "object" "vars" "id" "repr" "hash" "min" "max" "sum" "any" "all" "enumerate" "zip" "map" "filter" "isinstance" "issubclass" "copy" "deepcopy" "copy.copy" "copy.deepcopy")
  (#set! definition.kind "call"))

(class_definition superclasses: (argument_list [(identifier) (attribute)] @reference.inherits))

(call function: (identifier) @name) @reference.call
(call function: (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.call

; callbacks: a function passed by name as an argument
(call arguments: (argument_list (identifier) @reference.value))
(call arguments: (argument_list (keyword_argument value: (identifier) @reference.value)))

(decorator [(identifier) (attribute)] @decorator.name) @decorator
(decorator (call function: (_) @decorator.name arguments: (argument_list) @decorator.args)) @decorator

(import_statement name: (dotted_name) @import.module) @import
(import_statement name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.module name: (dotted_name) @import.name) @import
(import_from_statement module_name: (_) @import.module name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.module (wildcard_import) @import.name) @import

; docstrings: a string that is the first statement of the body
(function_definition body: (block . (expression_statement . (string (string_content)* @doc)))) @doc.owner
(class_definition body: (block . (expression_statement . (string (string_content)* @doc)))) @doc.owner
(decorated_definition definition: [(function_definition body: (block . (expression_statement . (string (string_content)* @doc))))
                                   (class_definition body: (block . (expression_statement . (string (string_content)* @doc))))]) @doc.owner
