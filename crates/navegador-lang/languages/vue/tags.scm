; Vue single-file components (host pack: src/embed.rs reads the `@embed` blocks with the
; pack `[embed]` names). Vocabulary: ../README.md.

; <script>, <script setup>: ../svelte/script.scm

; a component used in the template (`<MyButton>`, `<my-button>`: kebab case names it
; `MyButton`): the component made
((start_tag (tag_name) @reference.new)
  (#match? @reference.new "^[A-Z]|-")
  (#set! reference.case "pascal"))
((self_closing_tag (tag_name) @reference.new)
  (#match? @reference.new "^[A-Z]|-")
  (#set! reference.case "pascal"))

; an event handler named by the script (`@click="save"`, `v-on:click="save"`)
((directive_attribute
  "@"
  (quoted_attribute_value (attribute_value) @reference.value))
  (#match? @reference.value "^[A-Za-z_$][A-Za-z0-9_$.]*$"))
((directive_attribute
  (directive_name) @_on
  (quoted_attribute_value (attribute_value) @reference.value))
  (#eq? @_on "v-on")
  (#match? @reference.value "^[A-Za-z_$][A-Za-z0-9_$.]*$"))
