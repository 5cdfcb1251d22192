; Svelte components (host pack: src/embed.rs reads the `@embed` blocks with the pack
; `[embed]` names). Vocabulary: ../README.md.

; <script>, <script context="module">: ./script.scm

; a component used in the markup (`<Button …>`, `<Icons.Close/>`): the component made
((start_tag (tag_name) @reference.new)
  (#match? @reference.new "^[A-Z]"))
((self_closing_tag (tag_name) @reference.new)
  (#match? @reference.new "^[A-Z]"))

; an event handler named by the script (`on:click={save}`, Svelte 5 `onclick={save}`)
((attribute
  (attribute_name) @_event
  (expression (svelte_raw_text) @reference.value))
  (#match? @_event "^on:?[a-z]")
  (#match? @reference.value "^[A-Za-z_$][A-Za-z0-9_$.]*$"))
