; Erlang: the module, functions (one per name and arity: the clauses of one function are
; one definition, hooks.rs), records, types, calls (local, `m:f()`, `fun f/1`,
; `fun m:f/1`), `-import` and `-include`. Vocabulary: ../README.md.

; ---- the module -----------------------------------------------------------------------

(module_attribute name: (atom) @module)
(module_attribute name: (atom) @name) @definition.module

; ---- definitions ----------------------------------------------------------------------

; each clause is a `fun_decl`; hooks.rs merges a function's clauses (`f(0) -> …; f(N) -> ….`)
(fun_decl clause: (function_clause name: (atom) @name)) @definition.function
(record_decl name: (atom) @name) @definition.record
(type_alias name: (type_name name: (atom) @name)) @definition.type
(opaque name: (type_name name: (atom) @name)) @definition.type

; ---- calls ----------------------------------------------------------------------------

(call expr: (atom) @name) @reference.call
; `m:f(…)`: the same name as a receiverless call of its inner `call`, which hooks.rs drops
(remote module: (remote_module module: [(atom) (var)] @receiver) fun: (call expr: (atom) @name)) @reference.call
; `fun f/1`, `fun m:f/1`: a function passed as a value
(internal_fun fun: (atom) @name) @reference.value
(external_fun module: (module name: (atom) @receiver) fun: (atom) @name) @reference.value

; ---- imports --------------------------------------------------------------------------

; `-import(lists, [map/2])`: one import per function
(import_attribute module: (atom) @import.module funs: (fa fun: (atom) @import.name)) @import
; `-include("x.hrl")`, `-include_lib("app/include/x.hrl")`: the header's definitions are
; the file's (a wildcard)
((pp_include file: (string) @import.module) @import (#set! import.name "*"))
((pp_include_lib file: (string) @import.module) @import (#set! import.name "*"))
