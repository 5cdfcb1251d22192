; Ruby: the names a method or block binds (parameters, assignments), so a bare name is
; told a local from a call of a method (`drop_local_uses`), and `x = Foo.new` types `x`.
; A `def` does not see the names around it; the binder's scopes nest, so a file-level
; local shadows a bare call of that name in a method below it (rare).
; Vocabulary: ../README.md.

[(method) (singleton_method) (lambda) (block) (do_block)] @local.scope

(method_parameters (identifier) @local.definition)
(lambda_parameters (identifier) @local.definition)
(block_parameters (identifier) @local.definition)
(destructured_parameter (identifier) @local.definition)
(optional_parameter name: (identifier) @local.definition)
(keyword_parameter name: (identifier) @local.definition)
(splat_parameter name: (identifier) @local.definition)
(hash_splat_parameter name: (identifier) @local.definition)
(block_parameter name: (identifier) @local.definition)

((assignment left: (identifier) @local.definition right: (call receiver: [(constant) (scope_resolution)] @local.type method: (identifier) @_new))
  (#eq? @_new "new"))
(assignment left: (identifier) @local.definition)
(operator_assignment left: (identifier) @local.definition)
(left_assignment_list (identifier) @local.definition)
(rest_assignment (identifier) @local.definition)
(destructured_left_assignment (identifier) @local.definition)
(exception_variable (identifier) @local.definition)
(for pattern: (identifier) @local.definition)

; `Foo.new.run`
((call receiver: [(constant) (scope_resolution)] @local.type method: (identifier) @_new) @local.value
  (#eq? @_new "new"))
