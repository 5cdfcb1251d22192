; R: functions (`f <- function(…)`, `f = function`, `"f" <- function`, `f <<- function`,
; `\(x)` lambdas), S4 classes, generics and methods (`setClass`, `setGeneric`,
; `setMethod("f", "T", function …)`: a method of T), reference classes (`setRefClass`: its
; `methods = list(m = function …)` are its methods), calls (`f()`, `pkg::f()`,
; `pkg:::f()`, `obj$m()`), functions passed to the apply family, imports
; (`library(pkg)`, `require(pkg)`, `source("x.R")`). Vocabulary: ../README.md.

; ---- definitions ----------------------------------------------------------------------

(binary_operator
  lhs: [(identifier) @name (string (string_content) @name)]
  operator: ["<-" "=" "<<-"]
  rhs: (function_definition)) @definition.function
(binary_operator
  lhs: (function_definition)
  operator: ["->" "->>"]
  rhs: (identifier) @name) @definition.function

; `setClass("T", …)`, `setRefClass("T", …)`, `setClassUnion("T", …)`: a class
((call function: (identifier) @_f
   arguments: (arguments . (argument value: (string (string_content) @name)))) @definition.class
  (#any-of? @_f "setClass" "setRefClass" "setClassUnion" "R6Class"))
; `Account <- setRefClass("Account", …)`: the generator is the class's (no second definition)
; a reference class's `methods = list(m = function …)`, an R6 class's `public = list(…)`
(call function: (identifier) @_f
  arguments: (arguments (argument
    name: (identifier) @_m
    value: (call function: (identifier) @_list
      arguments: (arguments (argument name: (identifier) @name value: (function_definition)) @definition.function))))
  (#any-of? @_f "setRefClass" "R6Class")
  (#any-of? @_m "methods" "public" "private" "active")
  (#eq? @_list "list"))
; `setGeneric("f", …)`: the generic function
((call function: (identifier) @_f
   arguments: (arguments . (argument value: (string (string_content) @name)))) @definition.function
  (#eq? @_f "setGeneric"))
; `setMethod("f", "T", function …)`, `setMethod("f", signature("T"), …)`: a method of T
((call function: (identifier) @_f
   arguments: (arguments . (argument value: (string (string_content) @name)) . (comma)
     . (argument value: (call function: (identifier) @_sig arguments: (arguments . (argument value: (string (string_content) @owner))))))) @definition.method
  (#any-of? @_f "setMethod" "setReplaceMethod")
  (#any-of? @_sig "signature" "c"))
((call function: (identifier) @_f
   arguments: (arguments . (argument value: (string (string_content) @name)) . (comma)
     . (argument value: (string (string_content) @owner)))) @definition.method
  (#any-of? @_f "setMethod" "setReplaceMethod"))

; ---- calls ----------------------------------------------------------------------------

((call function: (identifier) @name) @reference.call
  (#not-any-of? @name "library" "require" "requireNamespace" "source" "sys.source" "function"
    "setClass" "setRefClass" "setGeneric" "setMethod" "setReplaceMethod" "setClassUnion"))
; `pkg::f()`, `pkg:::f()`
(call function: (namespace_operator lhs: (identifier) @receiver rhs: (identifier) @name)) @reference.call
; `obj$m()`, `obj@m()`
(call function: (extract_operator lhs: (_) @receiver rhs: (identifier) @name)) @reference.call
; a function passed by name to the apply family: `lapply(xs, f)`, `do.call(f, args)`
((call function: (identifier) @_f
   arguments: (arguments (argument value: (identifier) @name @reference.value)))
  (#any-of? @_f "lapply" "sapply" "vapply" "mapply" "Map" "Reduce" "Filter" "Find" "Position"
    "do.call" "apply" "tapply" "outer" "Recall" "match.fun" "Vectorize" "on.exit"))

; ---- imports --------------------------------------------------------------------------

; `library(pkg)`, `require("pkg")`, `requireNamespace("pkg")`: a package (outside)
((call function: (identifier) @_f
   arguments: (arguments . (argument . value: [(identifier) @import.module (string (string_content) @import.module)]))) @import
  (#any-of? @_f "library" "require" "requireNamespace" "loadNamespace"))
; `source("x.R")`, `sys.source("x.R")`: a file by its path
((call function: (identifier) @_f
   arguments: (arguments . (argument . value: (string (string_content) @import.module)))) @import
  (#any-of? @_f "source" "sys.source"))
