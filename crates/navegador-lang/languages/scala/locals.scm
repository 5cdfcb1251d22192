; Scala: scopes and the names they bind, with their declared types, for the binder
; (src/binder.rs). Vocabulary: ../README.md.

; ---- scopes -----------------------------------------------------------------------------

[(function_definition) (block) (lambda_expression) (for_expression) (case_clause) (catch_clause)] @local.scope

; a class, object or trait: its constructor parameters and vals are bound in the whole body
; and are members (`this.repo.find()`, `repo.find()`)
(class_definition name: (identifier) @local.self) @local.scope.class
(object_definition name: (identifier) @local.self) @local.scope.class
(trait_definition name: (identifier) @local.self) @local.scope.class

(type_parameters name: (identifier) @local.type_parameter)

; ---- members ----------------------------------------------------------------------------

(class_parameter name: (identifier) @local.definition @local.member type: (_) @local.type)
(template_body [(val_definition pattern: (identifier) @local.definition @local.member type: (_) @local.type)
                (var_definition pattern: (identifier) @local.definition @local.member type: (_) @local.type)])
(template_body [(val_definition pattern: (identifier) @local.definition @local.member value: (instance_expression . (_) @local.type))
                (var_definition pattern: (identifier) @local.definition @local.member value: (instance_expression . (_) @local.type))])
((template_body [(val_definition pattern: (identifier) @local.definition @local.member value: (call_expression function: (identifier) @local.type))
                 (var_definition pattern: (identifier) @local.definition @local.member value: (call_expression function: (identifier) @local.type))])
  (#match? @local.type "^[A-Z]"))
(template_body [(val_definition pattern: (identifier) @local.definition @local.member)
                (var_definition pattern: (identifier) @local.definition @local.member)])

; ---- locals and parameters ----------------------------------------------------------------

[(val_definition pattern: (identifier) @local.definition type: (_) @local.type)
 (var_definition pattern: (identifier) @local.definition type: (_) @local.type)]
[(val_definition pattern: (identifier) @local.definition value: (instance_expression . (_) @local.type))
 (var_definition pattern: (identifier) @local.definition value: (instance_expression . (_) @local.type))]
(([(val_definition pattern: (identifier) @local.definition value: (call_expression function: (identifier) @local.type))
   (var_definition pattern: (identifier) @local.definition value: (call_expression function: (identifier) @local.type))])
  (#match? @local.type "^[A-Z]"))
[(val_definition pattern: (identifier) @local.definition) (var_definition pattern: (identifier) @local.definition)]
(val_definition pattern: (identifiers (identifier) @local.definition))
(parameter name: (identifier) @local.definition type: (_) @local.type)
(parameter name: (identifier) @local.definition)
(lambda_expression parameters: (bindings (binding name: (identifier) @local.definition)))
(lambda_expression parameters: (identifier) @local.definition)
(enumerator (identifier) @local.definition)
(case_clause pattern: (identifier) @local.definition)
(typed_pattern pattern: (identifier) @local.definition type: (_) @local.type)

; `new Foo().m()`, `Foo(…).m()`
(instance_expression . (_) @local.type) @local.value
((call_expression function: (identifier) @local.type) @local.value
  (#match? @local.type "^[A-Z]"))
