; Bash: functions (`f() {…}`, `function f {…}`), commands as calls (a command named by a
; plain word; `$cmd …` names nothing), `source`/`.` of a file as imports. Functions are
; global (shell.rs shares them across the files of the workspace). Vocabulary: ../README.md.

; ---- definitions ----------------------------------------------------------------------

(function_definition name: (word) @name) @definition.function

; `NAME=value` / `readonly NAME=…` / `export NAME=…` at the top of a file
(program (variable_assignment name: (variable_name) @name) @definition.variable)
(program (declaration_command (variable_assignment name: (variable_name) @name) @definition.variable))

; ---- calls ----------------------------------------------------------------------------

; a command: its name is a call (`ls` and `git` are programs outside: shell.rs)
((command name: (command_name (word) @name)) @reference.call
  (#not-any-of? @name "source" "."))
; a function passed by name: `trap cleanup EXIT`, `xargs -n1 f`, `complete -F _f cmd`
((command name: (command_name (word) @_cmd) argument: (word) @name @reference.value)
  (#any-of? @_cmd "trap" "complete")
  (#match? @name "^[A-Za-z_][A-Za-z0-9_]*$")
  (#not-match? @name "^[A-Z0-9_]+$"))

; ---- imports --------------------------------------------------------------------------

; `source lib/x.sh`, `. "$DIR/x.sh"`: the path as written (shell.rs drops a leading
; `$DIR/`-like expansion)
((command name: (command_name (word) @_src) . argument: [(word) (string) (raw_string) (concatenation)] @import.module) @import
  (#any-of? @_src "source" "."))
