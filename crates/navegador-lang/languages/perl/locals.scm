; Perl: the scalars a file, sub or block binds (`my $x`, `our $x`, `my ($a, $b)`), for the
; binder (src/binder.rs): `my $cart = Shop::Cart->new(…)` types `$cart` by the package whose
; constructor made it (the manifest's `constructors`); any other declaration binds the name
; untyped. Scalars are bound as written (`$cart`, `[types] bindings`). Vocabulary:
; ../README.md.

[(source_file) (subroutine_declaration_statement) (block)] @local.scope

((assignment_expression
   left: (variable_declaration variable: (scalar) @local.definition)
   right: (method_call_expression invocant: [(bareword) (package)] @local.type method: (method) @_new))
  (#eq? @_new "new"))
(variable_declaration variable: (scalar) @local.definition)
(variable_declaration variables: (scalar) @local.definition)

; `Shop::Cart->new(…)->add(…)`
((method_call_expression invocant: [(bareword) (package)] @local.type method: (method) @_new) @local.value
  (#eq? @_new "new"))
