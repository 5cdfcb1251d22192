; Elixir: function clauses and anonymous functions are scopes; parameters and `=` matches
; bind names (a call of one, `f.(x)`, is no call of a definition). Vocabulary: ../README.md.

(source) @local.scope.hoisted
((call target: (identifier) @_kw) @local.scope (#any-of? @_kw "def" "defp" "defmacro" "defmacrop"))
(stab_clause) @local.scope
(stab_clause left: (arguments (identifier) @local.definition))
((call target: (identifier) @_kw (arguments . (call (arguments (identifier) @local.definition))))
  (#any-of? @_kw "def" "defp" "defmacro" "defmacrop"))
(binary_operator left: (identifier) @local.definition operator: "=")
