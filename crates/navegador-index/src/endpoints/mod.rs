//! Endpoints as graph facts: HTTP/GraphQL endpoints and frontend routes, detected during
//! ingest and stored as `Endpoint` nodes with an `EXPOSES` edge to their handler.
//!
//! Two kinds of detectors:
//! - per file (`detect`): Spring, NestJS, Express, FastAPI, Flask, net/http, gin, chi,
//!   ASP.NET, Laravel, Rails (`config/routes.rb`), Sinatra, GraphQL schemas (root types'
//!   fields), gRPC services of `.proto` files (their rpcs). A pure
//!   function of one file's path, language, source and facts; run on the worker pool, cheap
//!   gates first (imports, annotations, a marker in the text) so most files never get a
//!   second parse. Their nodes belong to the file and go with it.
//! - derived (`derive`): React Router (`app/routes.ts` or `app/routes/` file routes) and
//!   Django (`urls.py` with `include()` chains) span several files; after each ingest that
//!   changed anything they are recomputed whole from the files table, the graph and the
//!   few config files they read, so incremental equals clean by construction.
//!
//! Handlers are linked last (`link`), for every endpoint, from what resolution left in the
//! graph: a symbol of the same file, a resolved reference site at the registration, or a
//! name bound by a resolved import, or, where a language's names are global (Ruby), the
//! one class of that name in the graph; a gRPC endpoint's, the server methods implementing
//! its rpc (`grpc.rs`).

mod aspnet;
mod clients;
mod django;
mod express;
mod go;
mod graphql;
mod grpc;
mod laravel;
mod mounts;
mod operations;
mod python;
mod rails;
mod react_router;
mod sinatra;
mod spring;
mod util;

use std::collections::HashMap;
use std::path::Path;

use navegador_model::{EdgeType, FileFacts, Label, Language, ModuleRule, Resolution, SymbolIdx};
use navegador_store::{IngestTx, NewNode, NodeRow, StoreError};
use serde_json::{json, Map, Value};

pub use clients::{normalize_template, ClientCall};
pub use react_router::route_path_of;
pub use util::normalize_path;

/// `Endpoint.kind`.
pub const REST: &str = "rest";
pub const GRAPHQL: &str = "graphql";
pub const ROUTE: &str = "route";
pub const GRPC: &str = "grpc";

/// Where an endpoint's handler is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handler {
    /// None known (an inline function, an expression we do not follow).
    None,
    /// A symbol of the same file's facts.
    Symbol(SymbolIdx),
    /// An expression naming it at the registration (`views.index`, `h.List`), resolved
    /// after resolution through the file's imports and reference sites.
    Expr { text: String, line: u32, column: u32 },
}

/// One endpoint a detector found in one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointFact {
    pub name: String,
    /// `rest`, `graphql`, `route` or `grpc`.
    pub kind: &'static str,
    pub method: Option<String>,
    /// Normalized `/a/b`; `None` for GraphQL.
    pub path: Option<String>,
    /// The `framework` enum value (`spring`, `react-router`, `express`): one a pack
    /// declares (`navegador_lang::Registry::frameworks`).
    pub framework: &'static str,
    /// 1-based line of the registration (annotation, decorator, call, export).
    pub line: u32,
    pub handler: Handler,
    /// The router value the path is relative to when another file may mount it (a
    /// blueprint, an `APIRouter`, an Express router, a gin group parameter): its key in
    /// this file (`router`, `Register(0)`) and its own prefix, already in `path`.
    pub router: Option<(String, String)>,
}

/// A router value mounted under another by this file's code, when the mounted one may be
/// defined elsewhere: `app.include_router(users.router, prefix="/users")`,
/// `app.use('/api', require('./api'))`, `users.Register(v1.Group("/users"))`. The mount
/// graph is resolved after every file, through the resolver's imports (`apply_mounts`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MountFact {
    /// The key of the mounting router's root in this file (`None`: an application, `/`).
    pub parent: Option<String>,
    /// The mounted value as written: `users.router`, `usersRouter`, `require('./users')`,
    /// `users.Register` (a function given the router as argument `arg`).
    pub child: String,
    pub arg: Option<u32>,
    /// The prefix from the parent's root to the child: the parent's local prefix and the
    /// mount's own.
    pub prefix: String,
    /// A value appended to `prefix`, named rather than written (`settings.API_V1_STR`):
    /// read from its definition's initializer through the file's imports.
    pub prefix_expr: Option<String>,
    /// The mount's prefix replaces the child's own (Flask's `url_prefix=`).
    pub replaces: bool,
    pub line: u32,
}

/// A GraphQL resolver of a file: the root field it serves and its symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolverFact {
    /// QUERY / MUTATION / SUBSCRIPTION.
    pub method: String,
    pub field: String,
    pub qname: String,
    pub line: u32,
    /// The framework of the endpoint it defines when no schema declares the field.
    pub framework: &'static str,
    /// Code-first: without a schema field of its name it is the endpoint.
    pub defines: bool,
}

/// What one file's detectors found: endpoints, mounts, and the names its router values
/// are exported as (`module.exports = router`: `default` -> `router`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Detected {
    pub endpoints: Vec<EndpointFact>,
    pub mounts: Vec<MountFact>,
    pub exports: Vec<(String, String)>,
    /// The HTTP client calls of the file (`clients.rs`) and its GraphQL operations' root
    /// fields (`operations.rs`).
    pub clients: Vec<ClientCall>,
    /// The GraphQL documents the file binds to names: (name, [(operation type, field)]).
    pub documents: Vec<(String, Vec<(String, String)>)>,
    /// The GraphQL resolvers the file defines (`operations::Resolver`).
    pub resolvers: Vec<ResolverFact>,
}

impl Detected {
    pub fn is_empty(&self) -> bool {
        self.endpoints.is_empty()
            && self.mounts.is_empty()
            && self.exports.is_empty()
            && self.clients.is_empty()
            && self.documents.is_empty()
            && self.resolvers.is_empty()
    }
    /// The File node's properties that carry the mounts to the after-all-files pass.
    pub(crate) fn file_props(&self) -> Map<String, Value> {
        let mut p = Map::new();
        if !self.mounts.is_empty() {
            let ms: Vec<Value> = self
                .mounts
                .iter()
                .map(|m| {
                    json!({"parent": m.parent, "child": m.child, "arg": m.arg, "prefix": m.prefix, "prefix_expr": m.prefix_expr,
                        "replaces": m.replaces, "line": m.line})
                })
                .collect();
            p.insert("mounts".into(), Value::Array(ms));
        }
        if !self.exports.is_empty() {
            let ex: Map<String, Value> = self.exports.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
            p.insert("router_exports".into(), Value::Object(ex));
        }
        if !self.clients.is_empty() {
            p.insert("http_calls".into(), Value::Array(self.clients.iter().map(ClientCall::to_json).collect()));
        }
        if !self.documents.is_empty() {
            let docs: Map<String, Value> = self.documents.iter().map(|(n, fs)| (n.clone(), json!(fs))).collect();
            p.insert("graphql_documents".into(), Value::Object(docs));
        }
        if !self.resolvers.is_empty() {
            let rs: Vec<Value> = self
                .resolvers
                .iter()
                .map(|r| json!({"method": r.method, "field": r.field, "qname": r.qname, "line": r.line, "framework": r.framework, "defines": r.defines}))
                .collect();
            p.insert("graphql_resolvers".into(), Value::Array(rs));
        }
        p
    }
}

/// A per-file detector: (path, language, source, facts) -> the endpoints found.
type Detect = fn(&str, Language, &str, &FileFacts) -> Detected;

/// The per-file detectors, each with the frameworks it finds: it runs on a file whose
/// pack declares one of them (`frameworks` in `language.toml`), so which language runs
/// which detector is the registry's data. React Router and Django are derived across
/// files (`derive_and_link`).
const DETECTORS: &[(&[&str], Detect)] = &[
    (&["spring"], |_, _, src, facts| spring::detect_all(src, facts)),
    (&["fastapi", "flask"], |_, _, src, facts| python::detect(src, facts)),
    (&["nestjs"], |_, _, src, facts| express::detect_nest(src, facts)),
    (&["express"], |_, lang, src, facts| express::detect_express(lang, src, facts)),
    (&["net-http", "gin", "chi"], |_, _, src, facts| go::detect(src, facts)),
    (&["aspnet"], |_, _, src, facts| aspnet::detect(src, facts).into()),
    (&["laravel"], |_, lang, src, facts| laravel::detect(lang, src, facts).into()),
    (&["rails"], |path, lang, src, facts| rails::detect(lang, path, src, facts).into()),
    (&["sinatra"], |_, lang, src, facts| sinatra::detect(lang, src, facts).into()),
    (&["graphql"], |_, _, src, facts| graphql::detect(src, facts).into()),
    (&["grpc"], |_, _, _, facts| grpc::detect(facts).into()),
];

/// The per-file detectors that apply to this file, run in order (each gates cheaply first:
/// imports, annotations, a marker in the text).
pub fn detect(path: &str, lang: Language, src: &str, facts: &FileFacts) -> Detected {
    let declared = &lang.info().frameworks;
    let mut out = Detected::default();
    for (frameworks, run) in DETECTORS {
        if frameworks.iter().any(|f| declared.iter().any(|d| d == f)) {
            let d = run(path, lang, src, facts);
            out.endpoints.extend(d.endpoints);
            out.mounts.extend(d.mounts);
            out.exports.extend(d.exports);
            out.clients.extend(d.clients);
        }
    }
    out.endpoints.sort_by(|a, b| (a.line, &a.path, &a.method, &a.name).cmp(&(b.line, &b.path, &b.method, &b.name)));
    out.endpoints.dedup();
    out.mounts.sort_by(|a, b| (a.line, &a.child).cmp(&(b.line, &b.child)));
    out.mounts.dedup();
    out.exports.sort();
    out.exports.dedup();
    let calls = clients::detect(lang, src, facts, &out.endpoints);
    out.clients.extend(calls);
    let ops = operations::detect(lang, src, facts);
    out.clients.extend(ops.sites);
    out.documents = ops.documents.into_iter().map(|(n, fs)| (n, fs.into_iter().map(|(o, f)| (o.to_string(), f)).collect())).collect();
    out.resolvers = operations::resolvers(src, facts)
        .into_iter()
        .map(|r| {
            let s = &facts.symbols[r.symbol as usize];
            ResolverFact { method: r.op.to_string(), field: r.field, qname: s.qualified_name.clone(), line: s.range.start_line, framework: r.framework, defines: r.defines }
        })
        .collect();
    out
}

/// Endpoints only (the detectors that mount nothing).
impl From<Vec<EndpointFact>> for Detected {
    fn from(endpoints: Vec<EndpointFact>) -> Detected {
        Detected { endpoints, ..Default::default() }
    }
}

/// The `Endpoint.language` of a file: the graph's language names (`.tsx` is typescript).
pub(crate) fn language_of(path: &str) -> Option<&'static str> {
    navegador_lang::registry().for_path(path).map(|l| l.as_str())
}

fn props_of(e: &EndpointFact, file: &str, language: &str, handler: Map<String, Value>, derived: bool) -> Map<String, Value> {
    let mut p = Map::new();
    if navegador_model::is_test_path(file) {
        // A route a test registers is not the application's: kept, marked, listed on request.
        p.insert("test".into(), json!(true));
    }
    p.insert("kind".into(), json!(e.kind));
    p.insert("method".into(), e.method.as_ref().map_or(Value::Null, |m| json!(m)));
    p.insert("path".into(), e.path.as_ref().map_or(Value::Null, |m| json!(m)));
    p.insert("framework".into(), json!(e.framework));
    p.insert("language".into(), json!(language));
    if derived {
        p.insert("derived".into(), json!(true));
    }
    if let Some((key, own)) = &e.router {
        p.insert("router".into(), json!(key));
        p.insert("router_prefix".into(), json!(own));
        p.insert("local_path".into(), e.path.as_ref().map_or(Value::Null, |m| json!(m)));
    }
    p.extend(handler);
    p
}

fn expr_props(text: &str, line: u32, column: u32) -> Map<String, Value> {
    let mut h = Map::new();
    h.insert("handler_expr".into(), json!(text));
    h.insert("handler_line".into(), json!(line));
    h.insert("handler_column".into(), json!(column));
    h
}

fn symbol_props(qualified_name: &str, line: u32) -> Map<String, Value> {
    let mut h = Map::new();
    h.insert("handler_qname".into(), json!(qualified_name));
    h.insert("handler_line".into(), json!(line));
    h
}

/// Writes the endpoints one file's detectors found (the nodes belong to the file).
pub(crate) fn write_file_endpoints(tx: &IngestTx<'_>, file: &str, facts: &FileFacts, found: &[EndpointFact]) -> Result<u64, StoreError> {
    let language = facts.language.as_str();
    for e in found {
        let handler = match &e.handler {
            Handler::None => Map::new(),
            Handler::Symbol(i) => match facts.symbols.get(*i as usize) {
                Some(s) => symbol_props(&s.qualified_name, s.range.start_line),
                None => Map::new(),
            },
            Handler::Expr { text, line, column } => expr_props(text, *line, *column),
        };
        tx.insert_node(&NewNode {
            label: Some(Label::Endpoint),
            name: &e.name,
            file_path: Some(file),
            line_start: Some(e.line),
            line_end: Some(e.line),
            props: props_of(e, file, language, handler, false),
            ..Default::default()
        })?;
    }
    Ok(found.len() as u64)
}

/// An endpoint derived from several files, written into `file`.
pub(crate) struct Derived {
    pub file: String,
    pub fact: EndpointFact,
    /// For `Handler::Symbol`-like links found in the graph: (qualified name, line).
    pub symbol: Option<(String, u32)>,
}

/// Whether a changed file can change React Router's routes: its config, its route files
/// and their exports all live under an `app/` directory.
fn feeds_react_router(path: &str) -> bool {
    path.starts_with("app/") || path.contains("/app/")
}

/// Whether a changed file can change Django's URL patterns: only URLconfs are read (a view's
/// file matters to the handler link, which is always redone).
fn feeds_django(path: &str) -> bool {
    path == "urls.py" || path.ends_with("/urls.py")
}

/// Recomputes the multi-file endpoints (React Router, Django) whose inputs are among
/// `changed` (all when `None`), then every `EXPOSES` edge. Both are diffed against what is
/// stored, so an ingest that changes nothing of theirs writes nothing. Returns (endpoints
/// written, edges written).
pub(crate) fn derive_and_link(tx: &IngestTx<'_>, root: &Path, changed: Option<&[String]>) -> Result<(u64, u64), StoreError> {
    let started = std::time::Instant::now();
    let any = |f: fn(&str) -> bool| changed.is_none_or(|c| c.iter().any(|p| f(p)));
    let (rr, dj) = (any(feeds_react_router), any(feeds_django));
    let files = if rr || dj { tx.files()? } else { Vec::new() };
    let mut derived = Vec::new();
    if rr {
        derived.extend(react_router::derive(tx, root, &files)?);
    }
    if dj {
        derived.extend(django::derive(root, &files));
    }
    // code-first GraphQL endpoints: from every file's resolvers and the schemas' fields,
    // redone on every ingest (one read of the files carrying resolvers)
    let endpoints = tx.endpoint_nodes()?;
    derived.extend(code_first(tx, &endpoints)?);
    let redone = |p: &Map<String, Value>| {
        if p.get("code_first").and_then(Value::as_bool) == Some(true) {
            return true;
        }
        match p.get("framework").and_then(Value::as_str) {
            Some("react-router") => rr,
            Some("django") => dj,
            _ => false,
        }
    };
    tracing::info!(elapsed = ?started.elapsed(), endpoints = derived.len(), "endpoints derived");
    // Stored derived endpoints by (file, line, name), each with its properties.
    let mut stored: HashMap<(String, u32, String), Vec<(i64, Map<String, Value>)>> = HashMap::new();
    for e in endpoints {
        if e.props.get("derived").and_then(Value::as_bool) == Some(true) && redone(&e.props) {
            let key = (e.file_path.clone().unwrap_or_default(), e.line_start.unwrap_or(0), e.name.clone().unwrap_or_default());
            stored.entry(key).or_default().push((e.id, e.props));
        }
    }
    let mut n = 0;
    for d in &derived {
        let Some(language) = language_of(&d.file) else {
            continue;
        };
        let handler = match (&d.symbol, &d.fact.handler) {
            (Some((q, l)), _) => symbol_props(q, *l),
            (None, Handler::Expr { text, line, column }) => expr_props(text, *line, *column),
            _ => Map::new(),
        };
        let mut props = props_of(&d.fact, &d.file, language, handler, true);
        if d.fact.kind == GRAPHQL {
            props.insert("code_first".into(), json!(true));
        }
        let key = (d.file.clone(), d.fact.line, d.fact.name.clone());
        if let Some(same) = stored.get_mut(&key) {
            if let Some(i) = same.iter().position(|(_, p)| *p == props) {
                same.swap_remove(i);
                continue;
            }
        }
        tx.insert_node(&NewNode {
            label: Some(Label::Endpoint),
            name: &d.fact.name,
            file_path: Some(&d.file),
            line_start: Some(d.fact.line),
            line_end: Some(d.fact.line),
            props,
            ..Default::default()
        })?;
        n += 1;
    }
    let gone: Vec<i64> = stored.into_values().flatten().map(|(id, _)| id).collect();
    tx.delete_endpoints(&gone)?;
    tracing::info!(elapsed = ?started.elapsed(), written = n, removed = gone.len(), "derived endpoints stored");
    let moved = mounts::apply(tx, root)?;
    tracing::info!(elapsed = ?started.elapsed(), moved, "endpoint mounts applied");
    let edges = link(tx)?;
    tracing::info!(elapsed = ?started.elapsed(), edges, "endpoint handlers linked");
    let calls = clients::link(tx, root)?;
    tracing::info!(elapsed = ?started.elapsed(), edges = calls.edges, sites = calls.sites, unmatched = calls.unmatched, "http client calls linked");
    Ok((n, edges + calls.edges))
}

/// Brings every `EXPOSES` edge in line with the endpoints' handler properties and the
/// current graph (so it follows every re-resolution). Returns the edges written.
fn link(tx: &IngestTx<'_>) -> Result<u64, StoreError> {
    let mut have: HashMap<(i64, i64), Option<String>> = HashMap::new();
    for (src, dst, res) in tx.exposes_edges()? {
        have.insert((src, dst), res);
    }
    let mut cache = Cache::default();
    let mut edges = 0;
    let resolvers = graphql_resolvers(tx)?;
    for e in tx.endpoint_nodes()? {
        let mut handlers: Vec<(i64, Resolution)> = match e.props.get("kind").and_then(Value::as_str) {
            Some(GRPC) => grpc::handlers(tx, &mut cache, &e)?,
            _ => handler_of(tx, &mut cache, &e)?.into_iter().collect(),
        };
        // a schema's field: each resolver of its name serves it (a code-first endpoint is its
        // own resolver's)
        if e.props.get("kind").and_then(Value::as_str) == Some(GRAPHQL) && e.props.get("code_first").is_none() {
            let method = e.props.get("method").and_then(Value::as_str).unwrap_or_default();
            let field = e.props.get("path").and_then(Value::as_str).unwrap_or_default();
            for (file, qname, line) in resolvers.get(&(method.to_string(), operations::field_key(field))).into_iter().flatten() {
                let syms = cache.symbols(tx, file)?;
                let hits: Vec<&Sym> = syms.iter().filter(|(s, _)| s.qualified_name == *qname && HANDLER_LABELS.contains(&s.label)).collect();
                if let Some((s, _)) = hits.iter().find(|(_, l)| l == line).or(hits.first()) {
                    if !handlers.iter().any(|(d, _)| *d == s.id) {
                        // by the field's name: the resolver serves the schema's field
                        handlers.push((s.id, Resolution::Inferred));
                    }
                }
            }
        }
        for (dst, res) in handlers {
            match have.remove(&(e.id, dst)) {
                Some(Some(r)) if r == res.as_str() => continue,
                Some(_) => tx.delete_exposes(e.id, dst)?,
                None => {}
            }
            tx.insert_edge(e.id, dst, EdgeType::Exposes, Some(res), e.line_start.map(|l| (l, 0)), None)?;
            edges += 1;
        }
    }
    for (src, dst) in have.into_keys() {
        tx.delete_exposes(src, dst)?;
    }
    Ok(edges)
}

/// The endpoints code-first GraphQL servers define: each resolver that declares its root
/// field (`ResolverFact::defines`) when no schema of the graph has a field of that operation
/// type and name (compared as `operations::field_key`); then the schema's endpoint is the
/// one, the resolver linked to it (`link`). Written into the resolver's file, handled by it.
fn code_first(tx: &IngestTx<'_>, endpoints: &[NodeRow]) -> Result<Vec<Derived>, StoreError> {
    let declared: std::collections::HashSet<(String, String)> = endpoints
        .iter()
        .filter(|e| e.props.get("kind").and_then(Value::as_str) == Some(GRAPHQL) && e.props.get("code_first").is_none())
        .filter_map(|e| {
            let s = |k: &str| e.props.get(k).and_then(Value::as_str).map(str::to_string);
            Some((s("method")?, operations::field_key(&s("path")?)))
        })
        .collect();
    let frameworks = navegador_lang::registry().frameworks();
    let mut out = Vec::new();
    for (_, file, props) in tx.files_with_prop("graphql_resolvers")? {
        for r in props.get("graphql_resolvers").and_then(Value::as_array).into_iter().flatten() {
            if r.get("defines").and_then(Value::as_bool) != Some(true) {
                continue;
            }
            let s = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
            let (method, field, qname) = (s("method"), s("field"), s("qname"));
            if field.is_empty() || declared.contains(&(method.clone(), operations::field_key(&field))) {
                continue;
            }
            let fw = s("framework");
            let framework = frameworks.iter().map(|(f, _)| *f).find(|f| *f == fw).unwrap_or("graphql");
            let line = r.get("line").and_then(Value::as_u64).unwrap_or(0) as u32;
            out.push(Derived {
                file: file.clone(),
                fact: EndpointFact { name: field.clone(), kind: GRAPHQL, method: Some(method), path: Some(field), framework, line, handler: Handler::None, router: None },
                symbol: Some((qname, line)),
            });
        }
    }
    Ok(out)
}

/// The GraphQL resolvers of the graph's files, by (operation type, `field_key` of the
/// field): (file, qualified name, line).
fn graphql_resolvers(tx: &IngestTx<'_>) -> Result<HashMap<(String, String), Vec<(String, String, u32)>>, StoreError> {
    let mut out: HashMap<(String, String), Vec<(String, String, u32)>> = HashMap::new();
    for (_, file, props) in tx.files_with_prop("graphql_resolvers")? {
        for r in props.get("graphql_resolvers").and_then(Value::as_array).into_iter().flatten() {
            let s = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
            let line = r.get("line").and_then(Value::as_u64).unwrap_or(0) as u32;
            out.entry((s("method"), operations::field_key(&s("field")))).or_default().push((file.clone(), s("qname"), line));
        }
    }
    Ok(out)
}

type Sym = (navegador_store::SymbolRow, u32);
type Import = (i64, String, Option<String>, Option<String>);
type RefTarget = (u32, String, i64, String);

/// Per-file reads of one link pass.
#[derive(Default)]
struct Cache {
    symbols: HashMap<String, Vec<Sym>>,
    imports: HashMap<String, Vec<Import>>,
    refs: HashMap<String, Vec<RefTarget>>,
    targets: HashMap<i64, Vec<NodeRow>>,
    bases: HashMap<String, Vec<(i64, String)>>,
}

impl Cache {
    fn symbols(&mut self, tx: &IngestTx<'_>, file: &str) -> Result<&[Sym], StoreError> {
        if !self.symbols.contains_key(file) {
            self.symbols.insert(file.to_string(), tx.symbols_in_file(file)?);
        }
        Ok(&self.symbols[file])
    }
    fn imports(&mut self, tx: &IngestTx<'_>, file: &str) -> Result<Vec<Import>, StoreError> {
        if !self.imports.contains_key(file) {
            self.imports.insert(file.to_string(), tx.imports_in_file(file)?);
        }
        Ok(self.imports[file].clone())
    }
    fn refs(&mut self, tx: &IngestTx<'_>, file: &str) -> Result<&[RefTarget], StoreError> {
        if !self.refs.contains_key(file) {
            self.refs.insert(file.to_string(), tx.ref_targets_in_file(file)?);
        }
        Ok(&self.refs[file])
    }
    /// The classes with a base of one of these names, anywhere: (class id, file).
    fn bases(&mut self, tx: &IngestTx<'_>, names: &[String]) -> Result<Vec<(i64, String)>, StoreError> {
        let mut out = Vec::new();
        for n in names {
            if !self.bases.contains_key(n) {
                self.bases.insert(n.clone(), tx.classes_with_base(n)?);
            }
            out.extend(self.bases[n].iter().cloned());
        }
        out.sort();
        out.dedup();
        Ok(out)
    }
    fn targets(&mut self, tx: &IngestTx<'_>, import: i64) -> Result<Vec<NodeRow>, StoreError> {
        if !self.targets.contains_key(&import) {
            self.targets.insert(import, tx.import_targets(import)?);
        }
        Ok(self.targets[&import].clone())
    }
}

const HANDLER_LABELS: [Label; 3] = [Label::Function, Label::Method, Label::Class];

fn handler_of(tx: &IngestTx<'_>, cache: &mut Cache, e: &NodeRow) -> Result<Option<(i64, Resolution)>, StoreError> {
    let Some(file) = e.file_path.as_deref() else {
        return Ok(None);
    };
    let line = e.props.get("handler_line").and_then(Value::as_u64).unwrap_or(0) as u32;
    if let Some(q) = e.props.get("handler_qname").and_then(Value::as_str) {
        let syms = cache.symbols(tx, file)?;
        let hits: Vec<&Sym> = syms.iter().filter(|(s, _)| s.qualified_name == q && HANDLER_LABELS.contains(&s.label)).collect();
        let best = hits.iter().find(|(_, l)| *l == line).or(hits.first());
        return Ok(best.map(|(s, _)| (s.id, Resolution::Exact)));
    }
    let Some(expr) = e.props.get("handler_expr").and_then(Value::as_str) else {
        return Ok(None);
    };
    let segs: Vec<&str> = expr.split('.').filter(|s| !s.is_empty()).collect();
    let Some(last) = segs.last().copied() else {
        return Ok(None);
    };
    // 1. What resolution made of a reference site at the registration.
    let mut targets: Vec<(i64, String)> =
        cache.refs(tx, file)?.iter().filter(|(l, n, _, _)| *l == line && n == last).map(|(_, _, d, r)| (*d, r.clone())).collect();
    targets.dedup_by_key(|t| t.0);
    if let [(dst, res)] = targets.as_slice() {
        let res = Resolution::parse(res).unwrap_or(Resolution::Inferred);
        if res != Resolution::Ambiguous {
            return Ok(Some((*dst, res)));
        }
    }
    // 2. A definition of this file.
    {
        let syms = cache.symbols(tx, file)?;
        let top = |name: &str| syms.iter().map(|(s, _)| s).find(|s| s.parent.is_none() && s.name == name && HANDLER_LABELS.contains(&s.label));
        match segs.as_slice() {
            [one] => {
                if let Some(s) = top(one) {
                    return Ok(Some((s.id, Resolution::Exact)));
                }
            }
            [a, b] => {
                if let Some(c) = top(a).filter(|s| s.label == Label::Class) {
                    if let Some((m, _)) = syms.iter().find(|(s, _)| s.parent == Some(c.id) && s.name == *b) {
                        return Ok(Some((m.id, Resolution::Exact)));
                    }
                }
            }
            _ => {}
        }
    }
    // 3. A name bound by a resolved import of this file.
    let first = segs[0];
    for (id, module, imported, alias) in cache.imports(tx, file)? {
        let local = alias.clone().or_else(|| imported.clone().filter(|n| n != "*")).unwrap_or_else(|| {
            // `import "a/b/pkg"` (Go) binds `pkg`; `import views` (Python) binds `views`.
            let m = module.trim_end_matches('/');
            if m.contains('/') {
                m.rsplit('/').next().unwrap_or(m).to_string()
            } else {
                m.split('.').next().unwrap_or(m).to_string()
            }
        });
        if local != first {
            continue;
        }
        for t in cache.targets(tx, id)? {
            let want = segs.get(1).copied();
            let Some(tf) = t.file_path.as_deref() else {
                continue;
            };
            match (t.label.as_str(), want) {
                ("Function" | "Method" | "Class", None) => return Ok(Some((t.id, Resolution::Exact))),
                ("Class", Some(m)) if segs.len() == 2 => {
                    if let Some((s, _)) = cache.symbols(tx, tf)?.iter().find(|(s, _)| s.parent == Some(t.id) && s.name == m) {
                        return Ok(Some((s.id, Resolution::Exact)));
                    }
                }
                ("File", Some(m)) => {
                    let in_file = cache.symbols(tx, tf)?;
                    let hit = in_file.iter().map(|(s, _)| s).find(|s| s.parent.is_none() && s.name == m && HANDLER_LABELS.contains(&s.label));
                    let hit = match (hit, segs.get(2)) {
                        (Some(c), Some(meth)) if c.label == Label::Class => {
                            in_file.iter().map(|(s, _)| s).find(|s| s.parent == Some(c.id) && s.name == *meth)
                        }
                        (h, None) => h,
                        _ => None,
                    };
                    if let Some(s) = hit {
                        return Ok(Some((s.id, Resolution::Exact)));
                    }
                }
                _ => {}
            }
        }
    }
    // 4. Where a language's names are global (no module: Ruby constants), the class the
    // expression names wherever it is defined (Rails' `users#show` is
    // `UsersController.show`, in app/controllers/), when one class has that name.
    let global = e.props.get("language").and_then(Value::as_str).and_then(|l| navegador_lang::registry().by_name(l));
    if global.is_some_and(|l| l.info().module == ModuleRule::None) {
        let (class, method) = match segs.as_slice() {
            [c] => (*c, None),
            [c, m] => (*c, Some(*m)),
            _ => return Ok(None),
        };
        if let [(id, tf)] = tx.classes_named(class)?.as_slice() {
            let Some(m) = method else {
                return Ok(Some((*id, Resolution::Exact)));
            };
            if let Some((s, _)) = cache.symbols(tx, tf)?.iter().find(|(s, _)| s.parent == Some(*id) && s.name == m) {
                return Ok(Some((s.id, Resolution::Exact)));
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The frameworks found across files, after ingest (`derive_and_link`).
    const DERIVED: &[&str] = &["react-router", "django"];

    /// Packs and detectors agree: a framework a pack declares has a detector, and a
    /// detector finds frameworks some pack declares (else it would never run).
    #[test]
    fn every_declared_framework_has_a_detector() {
        let declared: Vec<&str> = navegador_lang::registry().frameworks().into_iter().map(|(f, _)| f).collect();
        for f in &declared {
            let found = DETECTORS.iter().any(|(fs, _)| fs.contains(f)) || DERIVED.contains(f);
            assert!(found, "a pack declares framework `{f}`, which no detector of endpoints/ finds");
        }
        for f in DETECTORS.iter().flat_map(|(fs, _)| fs.iter()).chain(DERIVED) {
            assert!(declared.contains(f), "framework `{f}` has a detector but no pack declares it");
        }
    }
}
