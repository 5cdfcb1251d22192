; Rust: scopes and the names they bind, with their declared types, for the binder
; (src/binder.rs). Vocabulary: ../README.md.

; ---- scopes -----------------------------------------------------------------------------

[(function_item) (closure_expression) (block) (if_expression) (while_expression)
 (for_expression) (match_arm)] @local.scope

; in an `impl` or a trait, `self` and `Self` are its type
(impl_item type: (_) @local.self) @local.scope.class
(trait_item name: (_) @local.self) @local.scope.class
; a struct's or union's fields are members (`self.conn.send()` reads conn's type)
(struct_item name: (type_identifier) @local.self) @local.scope.class
(union_item name: (type_identifier) @local.self) @local.scope.class
(field_declaration name: (field_identifier) @local.member type: (_) @local.type)

; ---- bindings ---------------------------------------------------------------------------

(parameter pattern: (identifier) @local.definition type: (_) @local.type)
((self_parameter (self) @local.definition) (#set! local.type "Self"))

; `let x: T`, `let x = T::new(…)` / `T::<U>::new(…)` / `a::T::f(…)`, `T { … }`, `&T { … }`
(let_declaration pattern: (identifier) @local.definition type: (_) @local.type)
((let_declaration pattern: (identifier) @local.definition !type
  value: [(call_expression function: (scoped_identifier path: (_) @local.type))
          (call_expression function: (generic_function function: (scoped_identifier path: (_) @local.type)))
          (reference_expression value: (call_expression function: (scoped_identifier path: (_) @local.type)))
          (reference_expression value: (call_expression function: (generic_function function: (scoped_identifier path: (_) @local.type))))])
  (#match? @local.type "(^|::)[A-Z][A-Za-z0-9_]*(::<.*>|<.*>)?$"))
(let_declaration pattern: (identifier) @local.definition !type
  value: [(struct_expression name: (_) @local.type)
          (reference_expression value: (struct_expression name: (_) @local.type))
          (reference_expression value: (reference_expression value: (struct_expression name: (_) @local.type)))])

; every other name a pattern binds, untyped: `let (a, b)`, `Some(x)`, `|x|`, `for x in`
(let_declaration pattern: (identifier) @local.definition)
(for_expression pattern: (identifier) @local.definition)
(let_condition pattern: (identifier) @local.definition)
(match_pattern (identifier) @local.definition)
(closure_parameters (identifier) @local.definition)
(tuple_pattern (identifier) @local.definition)
(tuple_struct_pattern type: (_) (identifier) @local.definition)
(slice_pattern (identifier) @local.definition)
(field_pattern pattern: (identifier) @local.definition)
[(ref_pattern (identifier) @local.definition)
 (mut_pattern (identifier) @local.definition)
 (captured_pattern (identifier) @local.definition)
 (reference_pattern (identifier) @local.definition)
 (or_pattern (identifier) @local.definition)]
