; Elixir: modules (`defmodule`, `defprotocol`, `defimpl`: class-likes, hooks.rs), functions
; and macros (`def`, `defp`, `defmacro`, `defguard`, `defdelegate`: one per name and arity,
; the clauses of one are one definition, hooks.rs), `@type`s; calls (local `f(x)`, remote
; `Mod.f(x)`, `:erl.f(x)`, pipes `x |> f()`), captures `&f/1`; `alias`, `import`, `require`,
; `use` as imports. Vocabulary: ../README.md.

; ---- definitions ----------------------------------------------------------------------

((call target: (identifier) @_kw (arguments . (alias) @name)) @definition.class
  (#any-of? @_kw "defmodule" "defprotocol"))
; `defimpl P, for: T`: the module `P.T` (hooks.rs), an implementation of P
((call target: (identifier) @_kw (arguments . (alias) @name)) @definition.class
  (#eq? @_kw "defimpl"))
((call target: (identifier) @_kw (arguments . (alias) @reference.implementation))
  (#eq? @_kw "defimpl"))

; `def f(x)`, `def f(x) when …`, `def f`, `def a <<< b` (an operator)
((call target: (identifier) @_kw
   (arguments . [
     (call target: (identifier) @name)
     (binary_operator left: (call target: (identifier) @name) operator: "when")
     (identifier) @name
     (binary_operator left: (identifier) @name operator: "when")
   ])) @definition.function
  (#any-of? @_kw "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate" "defn" "defnp"))

; `@type t :: …`, `@typep`, `@opaque`
((unary_operator operator: "@"
   operand: (call target: (identifier) @_kw
     (arguments . (binary_operator left: [(identifier) @name (call target: (identifier) @name)] operator: "::")))) @definition.type
  (#any-of? @_kw "type" "typep" "opaque"))

; ---- calls ----------------------------------------------------------------------------

; a local call; special forms, definitions and directives are not calls (module attributes
; `@doc "…"` and definition heads are dropped by hooks.rs)
((call target: (identifier) @name) @reference.call
  (#not-match? @name "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defn|defnp|defmodule|defprotocol|defimpl|defstruct|defexception|defoverridable|defrecord|defrecordp|alias|import|require|use|case|cond|if|unless|with|for|fn|receive|try|quote|unquote|unquote_splicing|super|__aliases__|__block__)$"))
; `Mod.f(x)`, `:lists.map(x)` (the atom's `:` dropped, hooks.rs), `mod.f(x)`
; (`cart.items`, without parentheses, reads a field of a map)
(call target: (dot left: [(alias) (atom)] @receiver right: (identifier) @name)) @reference.call
(call target: (dot left: (identifier) @receiver right: (identifier) @name) (arguments)) @reference.call
; `x |> f` (without parentheses: `x |> f()` is a call already)
(binary_operator operator: "|>" right: (identifier) @name @reference.call)
; `&f/1`, `&Mod.f/2`: a function passed as a value
(unary_operator operator: "&" operand: (binary_operator left: (identifier) @name operator: "/") @reference.value)
(unary_operator operator: "&" operand: (binary_operator left: (call target: (dot left: (alias) @receiver right: (identifier) @name)) operator: "/") @reference.value)

; ---- imports --------------------------------------------------------------------------

; `alias`, `import`, `require`, `use` are read by hooks.rs: `alias A.B` binds B (module `A`,
; name `B`), `alias A.B, as: C` binds C, `alias A.{B, C}` binds both; `import A.B` reads A.B's
; functions as bare names (name `*`); `require`/`use` name the module and bind nothing
