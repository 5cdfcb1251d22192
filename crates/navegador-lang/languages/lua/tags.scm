; Lua: functions (`function f`, `local function f`, `function M.f`, `f = function`),
; methods (`function T:m`, owned by T), calls (`f()`, `m.f()`, `obj:m()`), `require`.
; A module is a file; `function M.f` in it is its function `f` (the table `M` is what the
; file returns, lua.rs binds `local m = require "x"` to the file). Vocabulary: ../README.md.

; ---- definitions ----------------------------------------------------------------------

; `local function f` is private to the file
(function_declaration name: (identifier) @name) @definition.function
(function_declaration "local") @hidden
; `function M.f()`, `function a.b.f()`: a function of the module table
(function_declaration name: (dot_index_expression field: (identifier) @name)) @definition.function
; `function T:m()`: a method of T (self is T)
(function_declaration name: (method_index_expression table: (_) @owner method: (identifier) @name)) @definition.method

; `f = function() end`, `M.f = function() end`, `local f = function() end`
(variable_declaration (assignment_statement (variable_list . name: (identifier) @name) (expression_list . value: (function_definition)))) @definition.function
(variable_declaration (assignment_statement (expression_list . value: (function_definition)))) @hidden
(assignment_statement (variable_list . name: [(identifier) @name (dot_index_expression field: (identifier) @name)]) (expression_list . value: (function_definition))) @definition.function
; `{ __index = function() end, f = function() end }`: a function field of a table
(field name: (identifier) @name value: (function_definition)) @definition.function

; ---- calls ----------------------------------------------------------------------------

((function_call name: (identifier) @name) @reference.call
  (#not-any-of? @name "require"))
(function_call name: (dot_index_expression table: (_) @receiver field: (identifier) @name)) @reference.call
(function_call name: (method_index_expression table: (_) @receiver method: (identifier) @name)) @reference.call
; a function passed as a value: `pcall(f, …)`, `table.sort(t, cmp)`
((arguments (identifier) @name @reference.value)
  (#not-eq? @name "self"))

; ---- imports --------------------------------------------------------------------------

; `local m = require("a.b")`, `local m = require "a.b"`: binds the module as `m`
(variable_declaration (assignment_statement
  (variable_list . name: (identifier) @import.alias)
  (expression_list . value: (function_call name: (identifier) @_req
    arguments: (arguments . (string content: (string_content) @import.module)))))
  (#eq? @_req "require")) @import
; a bare `require "a.b"`, for its side effects
((chunk (function_call name: (identifier) @_req arguments: (arguments . (string content: (string_content) @import.module))) @import)
  (#eq? @_req "require"))
((block (function_call name: (identifier) @_req arguments: (arguments . (string content: (string_content) @import.module))) @import)
  (#eq? @_req "require"))
