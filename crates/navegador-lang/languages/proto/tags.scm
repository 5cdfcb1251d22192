; Protocol Buffers: the package (the file's module), messages (nested ones inside theirs),
; enums and their values, fields, services and their rpcs (methods; each a gRPC endpoint,
; navegador-index endpoints/grpc.rs), `import` (a path). Kinds are `message`, `service`,
; `rpc` (hooks.rs). A field's or an rpc's type names a message, which is no call: such
; uses are not recorded. Vocabulary: ../README.md.

(package (full_ident) @module)

(message (message_name (identifier) @name)) @definition.class
(enum (enum_name (identifier) @name)) @definition.enum
(service (service_name (identifier) @name)) @definition.interface
(rpc (rpc_name (identifier) @name)) @definition.function

(field (identifier) @name) @definition.field
(map_field (identifier) @name) @definition.field
(oneof_field (identifier) @name) @definition.field
(enum_field (identifier) @name) @definition.constant


; `import "google/protobuf/timestamp.proto";` (also `import public`, `import weak`): the
; imported file's definitions are the importer's, as an `#include`'s
(import path: (string) @import.module) @import
