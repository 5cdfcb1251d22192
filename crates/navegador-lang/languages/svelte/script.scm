; The `<script>` blocks of a single-file component, JavaScript unless `lang` says otherwise
; (src/embed.rs reads each `@embed` with the pack the host's `[embed]` names); Svelte's and
; Vue's grammars name these nodes alike, so both host packs read this file.

(script_element (raw_text) @embed)
(script_element
  (start_tag
    (attribute
      (attribute_name) @_attr
      [(quoted_attribute_value (attribute_value) @embed.lang) (attribute_value) @embed.lang]))
  (raw_text) @embed
  (#eq? @_attr "lang"))
