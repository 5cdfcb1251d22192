; Python: scopes, the names they bind and their types, for the binder (src/binder.rs).
; A binding is typed by its annotation, by a constructor call (`x = Foo()`, `x = list()`)
; or by a literal (`x = []` is a `list`, `", "` a `str`): the builtin types are in
; builtins.txt, so their methods are `external` and never a project method of that name.
; Vocabulary: ../README.md.

; ---- scopes -----------------------------------------------------------------------------

(module) @local.scope.hoisted
(class_definition name: (identifier) @local.self body: (block) @local.scope.class)
[(function_definition) (lambda)] @local.scope
[(list_comprehension) (set_comprehension) (dictionary_comprehension) (generator_expression)] @local.scope

; ---- parameters ---------------------------------------------------------------------------

((parameters (identifier) @local.definition) (#not-any-of? @local.definition "self" "cls"))
(lambda_parameters (identifier) @local.definition)
(typed_parameter (identifier) @local.definition type: (type) @local.type)
(typed_parameter (identifier) @local.definition)
(default_parameter name: (identifier) @local.definition)
(typed_default_parameter name: (identifier) @local.definition type: (type) @local.type)
(typed_default_parameter name: (identifier) @local.definition)
((list_splat_pattern (identifier) @local.definition) (#set! local.type "tuple"))
((dictionary_splat_pattern (identifier) @local.definition) (#set! local.type "dict"))
((typed_parameter (list_splat_pattern (identifier) @local.definition)) (#set! local.type "tuple"))
((typed_parameter (dictionary_splat_pattern (identifier) @local.definition)) (#set! local.type "dict"))

; ---- assignments ----------------------------------------------------------------------------

; `x: T = …`; `x = Foo()` (a class: CapWords) or a builtin constructor; `x = []`, `x = ""`
(assignment left: (identifier) @local.definition type: (type) @local.type)
(assignment left: (identifier) @local.definition !type
  right: (call function: [(identifier) (attribute attribute: (identifier))] @local.type)
  (#match? @local.type "(^|[.])[A-Z][A-Za-z0-9_]*$"))
(assignment left: (identifier) @local.definition !type
  right: (call function: (identifier) @local.type)
  (#any-of? @local.type "list" "dict" "set" "frozenset" "tuple" "str" "bytes" "bytearray" "int" "float" "object"))
((assignment left: (identifier) @local.definition !type right: [(list) (list_comprehension)]) (#set! local.type "list"))
((assignment left: (identifier) @local.definition !type right: [(dictionary) (dictionary_comprehension)]) (#set! local.type "dict"))
((assignment left: (identifier) @local.definition !type right: [(set) (set_comprehension)]) (#set! local.type "set"))
((assignment left: (identifier) @local.definition !type right: (tuple)) (#set! local.type "tuple"))
((assignment left: (identifier) @local.definition !type right: [(string) (concatenated_string)]) (#set! local.type "str"))
((assignment left: (identifier) @local.definition !type right: (integer)) (#set! local.type "int"))
((assignment left: (identifier) @local.definition !type right: (float)) (#set! local.type "float"))
; any other assignment binds the name, type unknown (it shadows outer bindings)
(assignment left: (identifier) @local.definition)
(assignment left: (pattern_list (identifier) @local.definition))
(assignment left: (tuple_pattern (identifier) @local.definition))
(augmented_assignment left: (identifier) @local.definition)
(named_expression name: (identifier) @local.definition)

; `self.x = Foo()` / `self.x = []` in a method: a member of the class
((assignment left: (attribute object: (identifier) @_self attribute: (identifier) @local.member)
   right: (call function: [(identifier) (attribute attribute: (identifier))] @local.type))
  (#eq? @_self "self") (#match? @local.type "(^|[.])[A-Z][A-Za-z0-9_]*$"))
((assignment left: (attribute object: (identifier) @_self attribute: (identifier) @local.member)
   right: (call function: (identifier) @local.type))
  (#eq? @_self "self") (#any-of? @local.type "list" "dict" "set" "frozenset" "tuple" "str" "bytes" "bytearray"))
((assignment left: (attribute object: (identifier) @_self attribute: (identifier) @local.member) right: [(list) (list_comprehension)])
  (#eq? @_self "self") (#set! local.type "list"))
((assignment left: (attribute object: (identifier) @_self attribute: (identifier) @local.member) right: [(dictionary) (dictionary_comprehension)])
  (#eq? @_self "self") (#set! local.type "dict"))
((assignment left: (attribute object: (identifier) @_self attribute: (identifier) @local.member) right: [(set) (set_comprehension)])
  (#eq? @_self "self") (#set! local.type "set"))
((assignment left: (attribute object: (identifier) @_self attribute: (identifier) @local.member) type: (type) @local.type)
  (#eq? @_self "self"))

; ---- other bindings -------------------------------------------------------------------------

(for_statement left: (identifier) @local.definition)
(for_statement left: (pattern_list (identifier) @local.definition))
(for_statement left: (tuple_pattern (identifier) @local.definition))
(for_in_clause left: (identifier) @local.definition)
(for_in_clause left: (pattern_list (identifier) @local.definition))
(for_in_clause left: (tuple_pattern (identifier) @local.definition))
(as_pattern_target (identifier) @local.definition)
(except_clause (as_pattern alias: (as_pattern_target (identifier) @local.definition)))

; an import binds its name in its scope: in a function, a local that is no local use (what
; it denotes is the resolver's: the import nearest before the site)
(import_from_statement name: (dotted_name . (identifier) @local.import .))
(import_from_statement name: (aliased_import alias: (identifier) @local.import))
(import_statement name: (aliased_import alias: (identifier) @local.import))

; ---- typed expressions ----------------------------------------------------------------------

; `", ".join(x)`, `[].append`, `{}.get`: a literal receiver has its builtin type
((attribute object: [(string) (concatenated_string)] @local.value) (#set! local.type "str"))
((attribute object: [(list) (list_comprehension)] @local.value) (#set! local.type "list"))
((attribute object: [(dictionary) (dictionary_comprehension)] @local.value) (#set! local.type "dict"))
((attribute object: [(set) (set_comprehension)] @local.value) (#set! local.type "set"))
((attribute object: (tuple) @local.value) (#set! local.type "tuple"))
((attribute object: (integer) @local.value) (#set! local.type "int"))
((attribute object: (float) @local.value) (#set! local.type "float"))
; `Foo().m()`, `list(x).m()`
((attribute object: (call function: [(identifier) (attribute attribute: (identifier))] @local.type) @local.value)
  (#match? @local.type "(^|[.])[A-Z][A-Za-z0-9_]*$"))
((attribute object: (call function: (identifier) @local.type) @local.value)
  (#any-of? @local.type "list" "dict" "set" "frozenset" "tuple" "str" "bytes" "bytearray" "int" "float"))
