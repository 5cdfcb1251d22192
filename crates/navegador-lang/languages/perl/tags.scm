; Perl: packages (a class-like of kind `package`: `package A::B;` until the next package
; statement or the end of the file, `package A::B { … }` its block; hooks.rs), subs (the
; methods of the package they are written in, functions before any package), calls
; (`f()`, `f $x`, `&f(…)`, `A::B::f()`, `A::B->new`, `$obj->m()`), `use`/`require`,
; inheritance (`use parent`/`use base`, `@ISA = (…)`: hooks.rs). Vocabulary: ../README.md.

; ---- definitions ----------------------------------------------------------------------

(package_statement name: (package) @name) @definition.class
(subroutine_declaration_statement name: (bareword) @name) @definition.function
; `my sub f { … }` is private to its scope
(subroutine_declaration_statement "my") @hidden

; ---- heritage -------------------------------------------------------------------------

; `use parent`/`use base` and `@ISA = (…)` name a package's bases: hooks.rs reads them (a
; `package A;` statement's extent is known only there)

; ---- calls ----------------------------------------------------------------------------

; `f(…)`, `A::B::f(…)` (the path is the receiver), `&f(…)`; `f $x` without parentheses
(function_call_expression function: (function) @name) @reference.call
(ambiguous_function_call_expression function: (function) @name) @reference.call
(function_call_expression function: (function (varname) @name)) @reference.call
; `A::B->new(…)`, `$obj->m(…)`, `$self->m`, `$class->SUPER::new(…)`
(method_call_expression invocant: (_) @receiver method: (method) @name) @reference.call
; `\&f`: a sub passed as a value
(refgen_expression (function (varname) @name) @reference.value)

; ---- imports --------------------------------------------------------------------------

; `use A::B;`, `use A::B qw(f g);` (pragmas are in builtins and lead nowhere), `require A::B;`,
; `require "a/b.pl";`
((use_statement module: (package) @import.module) @import
  (#not-any-of? @import.module "strict" "warnings" "utf8" "vars" "constant" "parent" "base" "lib" "feature" "integer" "overload" "bytes" "locale" "subs" "version" "bigint" "bignum" "less" "sort" "open" "if" "fields" "mro" "re" "experimental"))
(require_expression (bareword) @import.module) @import
(require_expression [(string_literal (string_content) @import.module) (interpolated_string_literal (string_content) @import.module)]) @import
