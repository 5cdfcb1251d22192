; JSX (JavaScript and TSX): rendering a component, handlers passed as props.
; Capture vocabulary: ../README.md.

; rendering a component is calling it (lower-case tags are HTML)
((jsx_self_closing_element name: [(identifier) (member_expression)] @name) @reference.call
  (#match? @name "^([A-Z]|[a-z_$][A-Za-z0-9_$]*\\.)"))
((jsx_opening_element name: [(identifier) (member_expression)] @name) @reference.call
  (#match? @name "^([A-Z]|[a-z_$][A-Za-z0-9_$]*\\.)"))
; handlers passed as props: `onClick={handle}`, `onClick={this.handle}`, `onClose={props.onClose}`
((jsx_attribute (property_identifier) @_a (jsx_expression [(identifier) (member_expression)] @reference.value))
  (#match? @_a "^on[A-Z]"))
