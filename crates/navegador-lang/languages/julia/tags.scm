; Julia: modules, functions (`function f(…) … end`, `f(x) = …`, `f(x) where T = …`,
; `function M.f(…)` extending M's function, operators `Base.:+`), macros, structs
; (`mutable` too; their fields and inner constructors), abstract and primitive types,
; constants and module-level variables, `g = x -> …`; calls (`f(x)`, `M.f(x)`, `f.(x)`,
; `x |> f`, `@m x`), functions passed to `map`-like calls, supertypes (`<:`), docstrings,
; `using` / `import` (`M`, `M: f, g`, `.M`, `..M`), `include("x.jl")`. A method of a
; function is one definition of the function's name (several: multiple dispatch).
; Vocabulary: ../README.md.

; ---- definitions ----------------------------------------------------------------------

; the module a file is (its top-level `module M`), or a module inside another
(source_file (module_definition name: (identifier) @module))
(module_definition (module_definition name: (identifier) @name) @definition.module)

; `function f(…)`, `function f(…) where T`, `function f(…)::T`, `function M.f(…)`
(function_definition (signature [(call_expression . [(identifier) @name (field_expression (_) [(identifier) (quote_expression)] @name .)])
                                 (where_expression . [(call_expression . [(identifier) @name (field_expression (_) [(identifier) (quote_expression)] @name .)])
                                                      (typed_expression . (call_expression . (identifier) @name))])
                                 (typed_expression . (call_expression . [(identifier) @name (field_expression (_) (identifier) @name .)]))])) @definition.function
; `f(x) = …`, `f(x) where T = …`, `f(x)::T = …`, `M.f(x) = …`
(assignment . [(call_expression . [(identifier) @name (field_expression (_) [(identifier) (quote_expression)] @name .)])
               (where_expression . [(call_expression . [(identifier) @name (field_expression (_) (identifier) @name .)])
                                    (typed_expression . (call_expression . (identifier) @name))])
               (typed_expression . (call_expression . [(identifier) @name (field_expression (_) (identifier) @name .)]))]
  (operator) @_eq (#eq? @_eq "=")) @definition.function
; `g = x -> …`, `const g = (a, b) -> …`
((assignment . (identifier) @name (operator) (arrow_function_expression)) @definition.function
  (#set! definition.kind "arrow"))
(macro_definition (signature (call_expression . (identifier) @name))) @definition.function

(struct_definition (type_head [(identifier) @name
                               (parametrized_type_expression . (identifier) @name)
                               (binary_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])) @definition.struct
(abstract_definition (type_head [(identifier) @name
                                 (parametrized_type_expression . (identifier) @name)
                                 (binary_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])) @definition.type
(primitive_definition (type_head [(identifier) @name (binary_expression . (identifier) @name)])) @definition.type
; fields
(struct_definition (typed_expression . (identifier) @name) @definition.field)
(struct_definition (identifier) @name @definition.field)
; supertypes
(struct_definition (type_head (binary_expression (_) (operator) [(identifier) @reference.inherits (parametrized_type_expression . (identifier) @reference.inherits)] .)))
(abstract_definition (type_head (binary_expression (_) (operator) [(identifier) @reference.inherits (parametrized_type_expression . (identifier) @reference.inherits)] .)))

(const_statement (assignment . (identifier) @name)) @definition.constant
(source_file (assignment . (identifier) @name) @definition.variable)
(module_definition (assignment . (identifier) @name) @definition.variable)

; a docstring before a definition
((string_literal (content) @doc) . [(function_definition) (struct_definition) (abstract_definition) (macro_definition) (module_definition) (assignment) (const_statement)] @doc.owner)

; ---- calls ----------------------------------------------------------------------------

((call_expression . (identifier) @name) @reference.call
  (#not-any-of? @name "include"))
(call_expression . (field_expression value: (_) @receiver (identifier) @name .)) @reference.call
(broadcast_call_expression . (identifier) @name) @reference.call
(broadcast_call_expression . (field_expression value: (_) @receiver (identifier) @name .)) @reference.call
; `x |> f`
((binary_expression (_) (operator) @_op . (identifier) @name) @reference.call
  (#eq? @_op "|>"))
; `@m x`, `@M.m x`
(macrocall_expression (macro_identifier . (identifier) @name)) @reference.call
; a function passed by name to a higher-order function: `map(f, xs)`
((call_expression . (identifier) @_f (argument_list . (identifier) @name @reference.value))
  (#any-of? @_f "map" "map!" "filter" "filter!" "foreach" "reduce" "mapreduce" "mapfoldl" "foldl" "foldr"
    "any" "all" "count" "findfirst" "findlast" "findall" "sum" "prod" "maximum" "minimum" "broadcast"
    "broadcast!" "invokelatest" "pmap" "asyncmap" "sort" "sort!" "get!" "open" "cd" "redirect_stdout"))

; ---- imports --------------------------------------------------------------------------

; `using M`, `using A.B`: every name M exports
((using_statement [(identifier) (import_path) (scoped_identifier)] @import.module)
  (#set! import.name "*")) @import
; `import M`, `import A.B`: binds M (B)
(import_statement [(identifier) (import_path) (scoped_identifier)] @import.module) @import
; `using M: f, g`, `import M: f`: binds f and g
(_ (selected_import . [(identifier) (import_path) (scoped_identifier)] @import.module [(identifier) (operator) (macro_identifier)] @import.name)) @import
; `include("x.jl")`: a file of this module
((call_expression . (identifier) @_f (argument_list . (string_literal (content) @import.module))) @import
  (#eq? @_f "include"))
