; Haskell: the module header, type signatures and equations (one definition per name:
; hooks.rs folds a signature and its equations), data / newtype / type synonyms / type
; families (class-likes of kind `type`) with their constructors and record fields, type
; classes (interfaces; their signatures and defaults are methods), instances (`instance
; Show T`: its methods are T's, and T implements Show), imports, applications as calls
; (`f x`, `M.f x`, ``x `f` y``, a constructor `C x`) and functions passed as arguments.
; Pattern variables, `where` and `let` bindings are locals (hooks.rs drops their uses).
; Vocabulary: ../README.md.

(header module: (module) @module)

; top-level functions: a signature, then its equations (`f x = …`, `a <+> b = …`, `main = …`)
(declarations (signature name: (variable) @name) @definition.function)
(declarations (signature name: (prefix_id (operator) @name)) @definition.function)
(declarations (signature names: (binding_list (variable) @name)) @definition.function)
(declarations (function name: (variable) @name) @definition.function)
(declarations (function name: (prefix_id (operator) @name)) @definition.function)
(declarations (function (infix operator: (operator) @name)) @definition.function)
(declarations (function (infix operator: (infix_id (variable) @name))) @definition.function)
(declarations (bind name: (variable) @name) @definition.function)

; types
(data_type name: (name) @name) @definition.type
(newtype name: (name) @name) @definition.type
(type_synonym name: (name) @name) @definition.type
(type_family name: (name) @name) @definition.type
(data_constructor constructor: (prefix name: (constructor) @name @definition.constructor))
(data_constructor constructor: (record name: (constructor) @name @definition.constructor))
(data_constructor constructor: (infix operator: (constructor_operator) @name @definition.constructor))
(newtype_constructor name: (constructor) @name @definition.constructor)
(gadt_constructor name: (constructor) @name @definition.constructor)
; a record field is a selector function (`citationId :: Citation -> Text`): a method of kind
; `getter` of its type, which a bare name sees as a function of the module (resolve/haskell.rs)
((field name: (field_name (variable) @name)) @definition.method (#set! definition.kind "getter"))

; type classes and their methods (signatures, default equations)
(class name: (name) @name) @definition.interface
(class_declarations (signature name: (variable) @name) @definition.function)
(class_declarations (signature name: (prefix_id (operator) @name)) @definition.function)
(class_declarations (function name: (variable) @name) @definition.function)
(class_declarations (bind name: (variable) @name) @definition.function)

; `instance Show Cart where …`, `instance Show a => Show (Tree a)`: the methods are the
; type's; the type implements the class
(instance patterns: (type_patterns . (name) @name)) @definition.impl
(instance patterns: (type_patterns . (parens (apply constructor: (name) @name)))) @definition.impl
(instance patterns: (type_patterns . (parens (apply constructor: (apply constructor: (name) @name))))) @definition.impl
(instance name: (name) @reference.implementation)
(instance name: (qualified id: (name) @reference.implementation))
(instance_declarations (function name: (variable) @name) @definition.function)
(instance_declarations (function name: (prefix_id (operator) @name)) @definition.function)
(instance_declarations (function (infix operator: (operator) @name)) @definition.function)
(instance_declarations (bind name: (variable) @name) @definition.function)

; calls: the function of an application (`f x y` is one site, at the innermost apply)
(apply function: (variable) @name) @reference.call
(apply function: (qualified module: (module) @receiver id: (variable) @name)) @reference.call
(apply function: (constructor) @name) @reference.call
(apply function: (qualified module: (module) @receiver id: (constructor) @name)) @reference.call
(infix operator: (infix_id (variable) @name)) @reference.call
(infix operator: (infix_id (qualified module: (module) @receiver id: (variable) @name))) @reference.call
; a function passed to another (`map price xs`)
(apply argument: (variable) @name @reference.value)
(apply argument: (qualified module: (module) @receiver id: (variable) @name) @reference.value)

; imports: `import A.B` (and `hiding (…)`) reads every name of A.B; `import A.B (f, T(..))`
; binds the names listed; `as M` binds M to the module, and so does `import qualified A.B`
; (bound as `A.B`)
((import module: (module) @import.module !names) @import
  (#not-match? @import "\\bqualified\\b") (#set! import.name "*"))
((import module: (module) @import.module names: (import_list)) @import
  (#not-match? @import "\\bqualified\\b") (#match? @import "\\bhiding\\b") (#set! import.name "*"))
((import module: (module) @import.module names: (import_list (import_name variable: (variable) @import.name))) @import
  (#not-match? @import "\\b(qualified|hiding)\\b"))
((import module: (module) @import.module names: (import_list (import_name type: (name) @import.name))) @import
  (#not-match? @import "\\b(qualified|hiding)\\b"))
((import module: (module) @import.module names: (import_list (import_name operator: (prefix_id (operator) @import.name)))) @import
  (#not-match? @import "\\b(qualified|hiding)\\b"))
(import module: (module) @import.module alias: (module) @import.alias) @import
((import module: (module) @import.module @import.alias !alias) @import (#match? @import "\\bqualified\\b"))

; haddock comments (`-- |`) above a definition
((haddock) @doc . [(signature) (data_type) (newtype) (type_synonym) (class) (function) (bind)] @doc.owner)
