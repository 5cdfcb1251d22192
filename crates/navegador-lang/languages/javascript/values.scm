; JavaScript, TypeScript and TSX: function values made by a call at module level —
; `export const map = dual(2, (self, f) => …)`, `const h = curry(function (a, b) {…})` — a
; call given a function literal is a function (kind `call`), so calls of it resolve and it
; can be asked about. A name captured as a function and a variable is a function.
; Vocabulary: ../README.md.

((program (lexical_declaration (variable_declarator name: (identifier) @name
   value: (call_expression arguments: (arguments [(arrow_function) (function_expression)]))) @definition.function))
  (#set! definition.kind "call"))
((program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name
   value: (call_expression arguments: (arguments [(arrow_function) (function_expression)]))) @definition.function)))
  (#set! definition.kind "call"))
