; JavaScript, TypeScript and TSX (every JS/TS grammar accepts these): scopes and the names
; they bind, for the binder (src/binder.rs). Declared types are in typescript/locals.scm;
; here a binding is typed only by `new C()`. Vocabulary: ../README.md.

; ---- scopes -----------------------------------------------------------------------------

; module-level bindings are visible from functions declared above them
(program) @local.scope.hoisted
[(statement_block) (class_static_block) (switch_case) (switch_default) (for_statement)
 (for_in_statement) (catch_clause)] @local.scope
[(function_declaration) (function_expression) (arrow_function) (method_definition)
 (generator_function_declaration) (generator_function)] @local.scope

; a class body holds the members `this.x` reaches; the declaration holds its type parameters
(class_declaration name: (_) @local.self body: (class_body) @local.scope.class)
(class body: (class_body) @local.scope.class)
(class name: (_) @local.self body: (class_body) @local.scope.class)
[(class_declaration) (class)] @local.scope

; ---- bindings ---------------------------------------------------------------------------

(variable_declarator name: (identifier) @local.definition)
(for_in_statement left: (identifier) @local.definition)
(catch_clause parameter: (identifier) @local.definition)
(arrow_function parameter: (identifier) @local.definition)

; `this.x = new C()` in the constructor
((method_definition name: (property_identifier) @_ctor
   body: (statement_block (expression_statement (assignment_expression
     left: (member_expression object: (this) property: (_) @local.member)
     right: (new_expression constructor: (_) @local.type)))))
  (#eq? @_ctor "constructor"))

; `new C().m()`
(new_expression constructor: [(identifier) (member_expression)] @local.type) @local.value

; ---- literals: their builtin types (javascript/builtins.txt), whose methods are `external`

; `", ".split()`, `[].push()`, `({}).hasOwnProperty()`, `` `a`.trim() ``
((member_expression object: [(string) (template_string)] @local.value) (#set! local.type "String"))
((member_expression object: (array) @local.value) (#set! local.type "Array"))
((member_expression object: (object) @local.value) (#set! local.type "Object"))
((member_expression object: (parenthesized_expression (object)) @local.value) (#set! local.type "Object"))
((member_expression object: (number) @local.value) (#set! local.type "Number"))
((member_expression object: (regex) @local.value) (#set! local.type "RegExp"))
; `const xs = []`, `let s = ""` (a declared type wins: typescript/locals.scm; an object
; literal may hold the project's functions, so it stays untyped)
((variable_declarator name: (identifier) @local.definition value: [(string) (template_string)]) (#set! local.type "String"))
((variable_declarator name: (identifier) @local.definition value: (array)) (#set! local.type "Array"))
((variable_declarator name: (identifier) @local.definition value: (number)) (#set! local.type "Number"))
((variable_declarator name: (identifier) @local.definition value: (regex)) (#set! local.type "RegExp"))
