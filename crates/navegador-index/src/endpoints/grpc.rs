//! gRPC services declared in Protocol Buffers: each `rpc` of a `service` is an endpoint of
//! kind `grpc`, `method` the rpc's name and `path` its wire name, `/package.Service/Method`
//! (`/shop.v1.Cart/Add`; `/Service/Method` without a package). Read from the proto pack's
//! facts (services are class-likes of kind `service`, rpcs their methods).
//!
//! Its handlers are the server methods that implement the rpc, found by the names gRPC's code
//! generators give a service's server base, in whichever language the server is: a class or
//! struct whose base (`extends`, an embedded field, a `:` base list) is `<S>ImplBase` or
//! `<S>CoroutineImplBase` (Java, Kotlin), `Unimplemented<S>Server` or `<S>Server` (Go),
//! `<S>Servicer` (Python), `<S>Base` (C#), and whose method of the rpc's name, compared
//! without case and `_` (`addItem`, `AddItem`, `add_item`), implements it (`handlers`).

use navegador_model::{FileFacts, Label, Resolution};
use navegador_store::{IngestTx, NodeRow, StoreError};
use serde_json::Value;

use super::{Cache, EndpointFact, Handler, GRPC};

pub(super) fn detect(facts: &FileFacts) -> Vec<EndpointFact> {
    let mut out = Vec::new();
    for m in &facts.symbols {
        let Some(svc) = m.parent.map(|p| &facts.symbols[p as usize]) else { continue };
        if m.label != Label::Method || svc.label != Label::Class || svc.kind != Some("service") {
            continue;
        }
        let service = facts.module.as_deref().filter(|p| !p.is_empty()).map_or(svc.name.clone(), |p| format!("{p}.{}", svc.name));
        let path = format!("/{service}/{}", m.name);
        out.push(EndpointFact {
            name: path.clone(),
            kind: GRPC,
            method: Some(m.name.clone()),
            path: Some(path),
            framework: "grpc",
            line: m.range.start_line,
            handler: Handler::None,
            router: None,
        });
    }
    out
}

/// The names generated server bases of service `s` have.
fn server_bases(s: &str) -> [String; 6] {
    [format!("{s}ImplBase"), format!("{s}CoroutineImplBase"), format!("Unimplemented{s}Server"), format!("{s}Server"), format!("{s}Servicer"), format!("{s}Base")]
}

/// A method name as the generators spell an rpc in each language, folded: `addItem`,
/// `AddItem`, `add_item` are `additem`.
fn folded(name: &str) -> String {
    name.chars().filter(|c| *c != '_').flat_map(char::to_lowercase).collect()
}

/// The server methods implementing a `grpc` endpoint (`/pkg.S/M`): the methods named `M` of
/// the classes whose base is one of `S`'s generated server bases.
pub(super) fn handlers(tx: &IngestTx<'_>, cache: &mut Cache, e: &NodeRow) -> Result<Vec<(i64, Resolution)>, StoreError> {
    let Some((service, method)) = e.props.get("path").and_then(Value::as_str).and_then(|p| p.strip_prefix('/')?.split_once('/')) else {
        return Ok(Vec::new());
    };
    let service = service.rsplit('.').next().unwrap_or(service);
    let want = folded(method);
    let mut out = Vec::new();
    for (class, file) in cache.bases(tx, &server_bases(service))? {
        for (s, _) in cache.symbols(tx, &file)? {
            if s.parent == Some(class) && matches!(s.label, Label::Method | Label::Function) && folded(&s.name) == want {
                out.push((s.id, Resolution::Inferred));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}
