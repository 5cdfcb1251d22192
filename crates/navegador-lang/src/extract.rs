//! The generic extractor: runs a language's query over its tree and folds the captures
//! into `FileFacts` (symbols with containers and qualified names, imports, reference sites).

use std::cell::RefCell;

use navegador_model::{
    Diagnostic, FileFacts, ImportFact, Label, Language, ModuleRule, RefFact, RefKind, Span, SymbolFact,
    SymbolIdx,
};
use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, Parser, Query, QueryCursor};

use crate::binder::{self, BindRules, Locals, ScopeKind};
use crate::registry::{registry, Pack, PackError};
use crate::manifest::ExportRule;
use crate::hooks::clean_doc;

/// Knobs of one extraction.
#[derive(Debug, Clone, Copy)]
pub struct ExtractOptions {
    /// Longest signature kept, in bytes.
    pub max_signature: usize,
}

impl Default for ExtractOptions {
    fn default() -> Self {
        ExtractOptions { max_signature: 240 }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Def(DefKind),
    Name,
    /// The owner type of a `@def.method` that is not inside it (a Go receiver type).
    Class,
    Call,
    CallReceiver,
    New,
    RefValue,
    Inherits,
    Implements,
    Decorator,
    DecoratorName,
    DecoratorArgs,
    Import,
    ImportModule,
    ImportName,
    ImportAlias,
    /// Locals query (`src/binder.rs`): a scope, its own type, a binding, a class member,
    /// the type of the match's bindings, a typed expression, a type parameter.
    LocalScope(ScopeKind),
    LocalSelf,
    LocalDef,
    LocalMember,
    /// A name a function-local import binds: local, but what it denotes is the resolver's.
    LocalImport,
    LocalType,
    LocalValue,
    LocalTypeParam,
    /// A definition node visible outside its module / hidden from it (`export.rule`).
    Exported,
    Hidden,
    /// The module the file declares (Java `package`).
    Module,
    /// A definition node whose doc this match gives: the text of its `@doc` nodes, or the
    /// comments above its `@doc.above` node.
    DocOwner,
    Doc,
    DocAbove,
    /// The class a variable is an instance of (`apps = Apps()`).
    InstanceOf,
    /// A host pack's block of embedded code (`src/embed.rs`) and the language it names.
    Embed,
    EmbedLang,
    Ignore,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DefKind {
    ClassLike(&'static str),
    Function,
    Method,
    Constructor,
    Variable,
    Field,
    Module,
    /// A container that is not a node of its own (Rust `impl`): names the type its
    /// methods belong to.
    Impl,
}

fn role_of(capture: &str) -> Role {
    let def = |k| Role::Def(k);
    match capture {
        "name" => Role::Name,
        "owner" => Role::Class,
        "reference.call" => Role::Call,
        "receiver" => Role::CallReceiver,
        "reference.new" => Role::New,
        "reference.value" => Role::RefValue,
        "reference.inherits" => Role::Inherits,
        "reference.implementation" => Role::Implements,
        "decorator" => Role::Decorator,
        "decorator.name" => Role::DecoratorName,
        "decorator.args" => Role::DecoratorArgs,
        "import" => Role::Import,
        "import.module" => Role::ImportModule,
        "import.name" => Role::ImportName,
        "import.alias" => Role::ImportAlias,
        "definition.function" => def(DefKind::Function),
        "definition.method" => def(DefKind::Method),
        "definition.constructor" => def(DefKind::Constructor),
        "definition.variable" | "definition.constant" => def(DefKind::Variable),
        "definition.field" => def(DefKind::Field),
        "definition.module" => def(DefKind::Module),
        "definition.impl" => def(DefKind::Impl),
        "definition.class" => def(DefKind::ClassLike("class")),
        "definition.interface" => def(DefKind::ClassLike("interface")),
        "definition.struct" => def(DefKind::ClassLike("struct")),
        "definition.enum" => def(DefKind::ClassLike("enum")),
        "definition.trait" => def(DefKind::ClassLike("trait")),
        "definition.record" => def(DefKind::ClassLike("record")),
        "definition.type" => def(DefKind::ClassLike("type")),
        "definition.union" => def(DefKind::ClassLike("union")),
        "definition.annotation" => def(DefKind::ClassLike("annotation")),
        "local.scope" => Role::LocalScope(ScopeKind::Ordered),
        "local.scope.hoisted" => Role::LocalScope(ScopeKind::Hoisted),
        "local.scope.class" => Role::LocalScope(ScopeKind::Class),
        "local.self" => Role::LocalSelf,
        "local.definition" => Role::LocalDef,
        "local.member" => Role::LocalMember,
        "local.import" => Role::LocalImport,
        "local.type" => Role::LocalType,
        "local.value" => Role::LocalValue,
        "local.type_parameter" => Role::LocalTypeParam,
        "exported" => Role::Exported,
        "hidden" => Role::Hidden,
        "module" => Role::Module,
        "doc.owner" => Role::DocOwner,
        "doc" => Role::Doc,
        "doc.above" => Role::DocAbove,
        "instance_of" => Role::InstanceOf,
        "embed" => Role::Embed,
        "embed.lang" => Role::EmbedLang,
        _ => Role::Ignore,
    }
}

/// A pack's queries compiled for its grammar, with the role of each capture.
pub(crate) struct Compiled {
    language: tree_sitter::Language,
    query: Query,
    roles: Vec<Role>,
    /// Per pattern: a locals pattern (its captures feed the binder).
    locals: Vec<bool>,
    /// Per pattern: the `(#set! local.type "…")` it carries.
    local_type: Vec<Option<String>>,
}

impl Compiled {
    /// Compiles the pack's query files as one query (one pass over the tree); an error
    /// names the file and line it is in.
    pub(crate) fn new(pack: &Pack) -> Result<Compiled, PackError> {
        let language = (pack.def.grammar)();
        let mut source = String::new();
        let mut starts = Vec::new();
        for (file, text) in &pack.query_files {
            starts.push((source.bytes().filter(|&b| b == b'\n').count(), file));
            source.push_str(text);
            source.push('\n');
        }
        let query = Query::new(&language, &source).map_err(|e| {
            let (first, file) = starts.iter().rev().find(|(row, _)| *row <= e.row).copied().unwrap_or((0, &pack.query_files[0].0));
            PackError { file: file.clone(), line: e.row - first + 1, message: format!("{:?} error at column {}: {}", e.kind, e.column + 1, e.message) }
        })?;
        let roles: Vec<Role> = query.capture_names().iter().map(|n| role_of(n)).collect();
        let is_local = |r: &Role| {
            matches!(r, Role::LocalScope(_) | Role::LocalSelf | Role::LocalDef | Role::LocalMember | Role::LocalImport | Role::LocalType | Role::LocalValue | Role::LocalTypeParam)
        };
        let mut locals = vec![false; query.pattern_count()];
        let mut local_type = vec![None; query.pattern_count()];
        for (i, (l, t)) in locals.iter_mut().zip(&mut local_type).enumerate() {
            let used = query.capture_quantifiers(i);
            *l = roles.iter().zip(used).any(|(r, q)| is_local(r) && *q != tree_sitter::CaptureQuantifier::Zero);
            *t = query.property_settings(i).iter().find(|p| &*p.key == "local.type").and_then(|p| p.value.as_deref().map(str::to_string));
        }
        Ok(Compiled { language, query, roles, locals, local_type })
    }
}

fn compiled(lang: Language) -> &'static Compiled {
    registry().pack(lang).compiled().unwrap_or_else(|e| panic!("a language pack is malformed: {e}"))
}

thread_local! {
    static PARSERS: RefCell<Vec<(Language, Parser)>> = const { RefCell::new(Vec::new()) };
}

pub(crate) fn span(n: Node) -> Span {
    let (s, e) = (n.start_position(), n.end_position());
    Span {
        start_byte: n.start_byte() as u32,
        end_byte: n.end_byte() as u32,
        start_line: s.row as u32 + 1,
        start_col: s.column as u32,
        end_line: e.row as u32 + 1,
        end_col: e.column as u32,
    }
}

fn text<'a>(n: Node, src: &'a str) -> &'a str {
    src.get(n.byte_range()).unwrap_or("")
}

struct RawDef {
    kind: DefKind,
    name: String,
    range: Span,
    name_range: Span,
    doc: Option<String>,
    signature: Option<String>,
    type_annotation: Option<String>,
    is_async: bool,
    is_exported: bool,
    /// The `@owner` of a method declared outside its type (Go receivers).
    owner: Option<String>,
    /// The `@instance_of` of a variable.
    instance_of: Option<String>,
    /// The `kind` a pattern sets (`(#set! definition.kind "lambda")`): how a function value
    /// was made, or what a method is (`getter`).
    made: Option<&'static str>,
    /// The definition node's id (for `@exported`, `@doc.owner`).
    node: usize,
}

/// What the tags query marks beside definitions, by definition node id.
#[derive(Default)]
struct Marks {
    exported: std::collections::HashSet<usize>,
    hidden: std::collections::HashSet<usize>,
    module: Option<String>,
    docs: std::collections::HashMap<usize, String>,
}

enum SiteKind {
    Ref(RefKind),
    Decorator { args: Option<String> },
}

struct RawSite {
    kind: SiteKind,
    name: String,
    receiver: Option<String>,
    at: Span,
    /// Where the name is (a decorator's, after the `@`).
    name_at: Span,
    /// The number of arguments of a call with an argument list.
    arity: Option<u32>,
}

/// Parses `src` with the language's grammar on this thread's cached parser (for detectors
/// that read a tree beyond what the query captures, e.g. endpoint registrations).
pub fn parse(lang: Language, src: &str) -> Option<tree_sitter::Tree> {
    // The same text the extractor parses: the language's `prepare` rewrite (same length, so
    // byte ranges fit the original) keeps grammar gaps from breaking the tree.
    let prepared = prepare(registry().pack(lang), src);
    parse_text(lang, prepared.as_deref().unwrap_or(src))
}

/// The text the grammar parses for `src`: the pack's `prepare` hook, then its
/// `[preprocess]` rules (both keep the length); `None` when it is `src` as is. For tools
/// that show what a pack's rewrite did (`examples/syntax_errors.rs`).
pub fn prepared(lang: Language, src: &str) -> Option<String> {
    prepare(registry().pack(lang), src)
}

/// Compiles the language's pack queries now (once per process, as the first `extract`
/// would): a caller that knows which languages it will extract starts this on another
/// thread while it waits for something else.
pub fn warm_up(lang: Language) {
    let _ = compiled(lang);
}

/// The text the grammar parses: the pack's `prepare` hook, then its `[preprocess]` rules
/// (both keep the length); `None` when it is `src` as is.
fn prepare(pack: &crate::registry::Pack, src: &str) -> Option<String> {
    let hooked = (pack.def.hooks.prepare)(src);
    match pack.spec.preprocess.apply(hooked.as_deref().unwrap_or(src)) {
        Some(p) => Some(p),
        None => hooked,
    }
}

/// Parses `text` as is, with this thread's parser for the language.
fn parse_text(lang: Language, src: &str) -> Option<tree_sitter::Tree> {
    let c = compiled(lang);
    PARSERS.with(|cell| {
        let mut parsers = cell.borrow_mut();
        let idx = match parsers.iter().position(|(l, _)| *l == lang) {
            Some(i) => i,
            None => {
                let mut p = Parser::new();
                p.set_language(&c.language).expect("grammar matches the tree-sitter version");
                parsers.push((lang, p));
                parsers.len() - 1
            }
        };
        parsers[idx].1.parse(src, None)
    })
}

/// Extracts the facts of one file. Never fails: what cannot be read becomes a diagnostic.
/// A host pack's file (`[embed]`: a component) is read by `src/embed.rs`.
pub fn extract(path: &str, src: &str, lang: Language, opts: &ExtractOptions) -> FileFacts {
    match &registry().pack(lang).spec.embed {
        Some(embed) => crate::embed::extract(path, src, lang, embed, opts),
        None => extract_one(path, src, lang, opts, &mut Vec::new()),
    }
}

/// One pass of a pack's query over `src`; the `@embed` blocks it marks go to `blocks`.
pub(crate) fn extract_one(path: &str, src: &str, lang: Language, opts: &ExtractOptions, blocks: &mut Vec<crate::embed::Block>) -> FileFacts {
    let c = compiled(lang);
    let pack = registry().pack(lang);
    let s = pack.def.hooks;
    // The grammar parses the prepared text; names, signatures and docs are read from the
    // original, which has the same length, so the tree's byte ranges fit both.
    let prepared = prepare(pack, src);
    let mut facts = FileFacts {
        path: path.to_string(),
        language: lang,
        module: None,
        line_count: src.lines().count() as u32,
        symbols: Vec::new(),
        imports: Vec::new(),
        refs: Vec::new(),
        diagnostics: Vec::new(),
    };
    let tree = parse_text(lang, prepared.as_deref().unwrap_or(src));
    let Some(tree) = tree else {
        facts.diagnostics.push(Diagnostic { line: 0, message: "parser gave up".into() });
        return facts;
    };
    let root = tree.root_node();
    if root.has_error() {
        // (why this extension may not parse, when the pack says: `.mm` is Objective-C++)
        let ext = path.rsplit('/').next().and_then(|f| f.rsplit_once('.')).map(|(_, e)| e);
        let note = pack.spec.syntax_notes.iter().find(|(e, _)| Some(e.as_str()) == ext);
        facts.diagnostics.push(Diagnostic {
            line: first_error_line(root),
            message: match note {
                Some((_, why)) => format!("syntax error; facts outside the damaged region are kept ({why})"),
                None => "syntax error; facts outside the damaged region are kept".into(),
            },
        });
    }
    let mut defs: Vec<RawDef> = Vec::new();
    let mut marks = Marks::default();
    let mut sites: Vec<RawSite> = Vec::new();
    let mut locals = Locals::default();
    let types = &pack.spec.types;
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(&c.query, root, src.as_bytes());
    while let Some(m) = matches.next() {
        if c.locals[m.pattern_index] {
            local_match(m, c, types, src.as_bytes(), &mut locals);
            continue;
        }
        let mut primary: Option<(Role, Node)> = None;
        let (mut name, mut recv, mut args, mut owner) = (None, None, None, None);
        let (mut imod, mut iname, mut ialias) = (None, None, None);
        let (mut doc, mut above, mut instance_of) = (Vec::new(), None, None);
        let mut embed_lang = None;
        for cap in m.captures() {
            let role = c.roles[cap.index as usize];
            match role {
                Role::EmbedLang => embed_lang = Some(cap.node),
                Role::Doc => doc.push(cap.node),
                Role::DocAbove => above = Some(cap.node),
                Role::InstanceOf => instance_of = Some(cap.node),
                Role::Name | Role::DecoratorName => name = Some(cap.node),
                Role::CallReceiver => recv = Some(cap.node),
                Role::Class => owner = Some(cap.node),
                Role::DecoratorArgs => args = Some(cap.node),
                Role::ImportModule => imod = Some(cap.node),
                Role::ImportName => iname = Some(cap.node),
                Role::ImportAlias => ialias = Some(cap.node),
                Role::Ignore => {}
                _ => {
                    if primary.is_none() {
                        primary = Some((role, cap.node));
                    }
                }
            }
        }
        // `(#set! import.name "default")`: a name no node spells (ES default imports).
        let setting = |key: &str| {
            c.query.property_settings(m.pattern_index).iter().find_map(|p| (&*p.key == key).then(|| p.value.as_deref().map(str::to_string)).flatten())
        };
        let set_name = setting("import.name");
        // `(#set! name "class@anonymous")`: a definition's name no node spells (its `@name`
        // node still gives the name range)
        let def_name = setting("name");
        let Some((role, node)) = primary else { continue };
        match role {
            Role::Embed => {
                let lang = embed_lang.map(|n| unquote(text(n, src)).trim().to_string());
                match blocks.iter_mut().find(|b| b.start == node.start_byte()) {
                    Some(b) => b.lang = b.lang.take().or(lang),
                    None => blocks.push(crate::embed::Block { start: node.start_byte(), end: node.end_byte(), line: span(node).start_line, lang }),
                }
            }
            Role::Def(kind) => {
                let Some(name_node) = name else { continue };
                // an operator method (`def <=>`, `def []`) is no generic: its name stays
                let raw = text(name_node, src);
                let name = def_name.unwrap_or_else(|| Some(strip_generics(raw)).filter(|n| !n.is_empty()).unwrap_or(raw.trim()).to_string());
                if name.is_empty() {
                    continue;
                }
                let mut def = raw_def(kind, node, name_node, name, src, opts);
                def.owner = owner.map(|o| strip_generics(text(o, src)).to_string()).filter(|o| !o.is_empty());
                def.instance_of = instance_of.map(|n| text(n, src).to_string());
                def.made = c.query.property_settings(m.pattern_index).iter().find_map(|p| {
                    let v = (&*p.key == "definition.kind").then_some(p.value.as_deref()).flatten()?;
                    FUNCTION_VALUE_KINDS.iter().chain(METHOD_KINDS).copied().find(|k| *k == v)
                });
                defs.push(def);
            }
            Role::Exported => {
                marks.exported.insert(node.id());
            }
            Role::Hidden => {
                marks.hidden.insert(node.id());
            }
            Role::Module => {
                marks.module.get_or_insert_with(|| text(node, src).to_string());
            }
            Role::DocOwner => {
                let d = match above {
                    Some(a) => leading_comment(a, src),
                    None => Some(clean_doc(&doc.iter().map(|n| text(*n, src)).collect::<String>())),
                };
                if let Some(d) = d {
                    marks.docs.entry(node.id()).or_insert(d);
                }
            }
            Role::Call | Role::New | Role::RefValue | Role::Inherits | Role::Implements => {
                let kind = match role {
                    Role::Call => RefKind::Call,
                    Role::New => RefKind::New,
                    Role::RefValue => RefKind::Reference,
                    Role::Inherits => RefKind::Inherits,
                    _ => RefKind::Implements,
                };
                let target = name.unwrap_or(node);
                // `(#set! reference.case "pascal")`: a markup tag names its component in
                // kebab case (`<my-button>` is `MyButton`)
                let pascal = (setting("reference.case").as_deref() == Some("pascal")).then(|| pascal_case(text(target, src)));
                let (receiver, name) = split_path(strip_generics(pascal.as_deref().unwrap_or(text(target, src))));
                let receiver = recv.map(|r| text(r, src).to_string()).or(receiver);
                if name.is_empty() || !is_identifier(&name) {
                    continue;
                }
                let arity = matches!(kind, RefKind::Call | RefKind::New).then(|| arity(node)).flatten();
                sites.push(RawSite { kind: SiteKind::Ref(kind), name, receiver, at: span(target), name_at: span(target), arity });
            }
            Role::Decorator => {
                let n = name.unwrap_or(node);
                let dname = text(n, src).trim_start_matches('@').to_string();
                sites.push(RawSite {
                    kind: SiteKind::Decorator { args: args.map(|a| squash(text(a, src), 200)) },
                    name: dname,
                    receiver: None,
                    at: span(node),
                    name_at: span(n),
                    arity: None,
                });
            }
            Role::Import => {
                let Some(module_node) = imod.or(iname) else { continue };
                let module = unquote(text(module_node, src)).to_string();
                let name = if imod.is_some() { iname.map(|n| text(n, src).to_string()).or(set_name) } else { None };
                let p = span(node).start_line;
                facts.imports.push(ImportFact {
                    module,
                    name,
                    alias: ialias.map(|a| text(a, src).to_string()),
                    line: p,
                    column: node.start_position().column as u32,
                });
            }
            _ => {}
        }
    }
    let module = match &lang.info().module {
        ModuleRule::Declared => marks.module.take().unwrap_or_default(),
        _ => module_path_for(lang, path),
    };
    facts.module = (!module.is_empty()).then_some(module);
    for d in &mut defs {
        // (several names may share one definition node: `var a, b T`)
        if let Some(doc) = marks.docs.get(&d.node) {
            d.doc = Some(doc.clone());
        }
        d.is_exported = match pack.spec.export {
            ExportRule::Marked => marks.exported.contains(&d.node),
            ExportRule::UnlessHidden => !marks.hidden.contains(&d.node),
            ExportRule::Capitalized => d.name.chars().next().is_some_and(char::is_uppercase),
            ExportRule::NoUnderscore => !d.name.starts_with('_') || (d.name.starts_with("__") && d.name.ends_with("__")),
        };
    }
    assemble(&mut facts, defs, sites, lang.info());
    (s.post)(root, src, &mut facts);
    let rules = BindRules { types, receiver: lang.info().receiver.as_deref(), drop_local_uses: pack.spec.drop_local_uses, implicit_members: pack.spec.implicit_members, arg_types: lang.info().overloads.is_some() };
    binder::bind(root, src, &mut facts, locals, &rules);
    facts.imports.sort_by(|a, b| (a.line, a.column, &a.module, &a.name).cmp(&(b.line, b.column, &b.module, &b.name)));
    facts.imports.dedup();
    facts
}

/// `my-button` as `MyButton`; a name without `-` as is.
fn pascal_case(name: &str) -> String {
    if !name.contains('-') {
        return name.to_string();
    }
    name.split('-').filter(|p| !p.is_empty()).map(|p| {
        let mut c = p.chars();
        c.next().map(|f| f.to_uppercase().chain(c).collect::<String>()).unwrap_or_default()
    }).collect()
}

/// One match of the locals query, into what the binder collects.
fn local_match<'t>(m: &tree_sitter::QueryMatch<'_, 't>, c: &Compiled, types: &crate::manifest::TypeRules, src: &[u8], out: &mut Locals<'t>) {
    let (mut scope, mut own, mut value) = (None, None, None);
    let mut defs: Vec<(Node<'t>, bool, bool)> = Vec::new();
    let mut imported: Vec<Node<'t>> = Vec::new();
    let mut tys: Vec<(usize, Option<String>)> = Vec::new();
    for cap in m.captures() {
        let n = cap.node;
        match c.roles[cap.index as usize] {
            Role::LocalScope(k) => scope = Some((n, k)),
            Role::LocalSelf => own = binder::read_type(n, types, src),
            Role::LocalDef | Role::LocalMember => {
                let member = c.roles[cap.index as usize] == Role::LocalMember;
                let Some(n) = binder::declared_name(n, types) else { continue };
                match defs.iter_mut().find(|d| d.0.id() == n.id()) {
                    Some(d) => {
                        d.1 |= !member;
                        d.2 |= member;
                    }
                    None => defs.push((n, !member, member)),
                }
            }
            Role::LocalImport => imported.push(n),
            Role::LocalType => tys.push((n.start_byte(), binder::read_type(n, types, src).or_else(|| binder::read_path(n, types, src)))),
            Role::LocalValue => value = Some(n),
            Role::LocalTypeParam => out.type_parameter(n),
            _ => {}
        }
    }
    if let Some((n, k)) = scope {
        out.scope(n, k, own);
    }
    tys.sort_by_key(|(at, _)| *at);
    let mut tys: Vec<Option<String>> = tys.into_iter().map(|(_, t)| t).collect();
    if tys.is_empty() {
        if let Some(t) = &c.local_type[m.pattern_index] {
            tys.push(Some(t.clone()));
        }
    }
    if let Some(v) = value {
        out.value(v, tys.first().cloned().flatten());
    }
    for n in imported {
        out.import(n);
    }
    if !defs.is_empty() {
        defs.sort_by_key(|d| d.0.start_byte());
        out.definitions(&defs, &tys);
    }
}

fn raw_def(
    kind: DefKind,
    node: Node,
    name_node: Node,
    name: String,
    src: &str,
    opts: &ExtractOptions,
) -> RawDef {
    let head = src.get(node.start_byte()..name_node.start_byte()).unwrap_or("");
    let type_annotation = node
        .child_by_field_name("type")
        .map(|t| squash(text(t, src), 120));
    // JS/TS class members keep their decorators as preceding siblings: the range takes them in.
    let mut range = span(node);
    let mut prev = node.prev_named_sibling();
    while let Some(d) = prev.filter(|p| p.kind() == "decorator") {
        let s = span(d);
        (range.start_byte, range.start_line, range.start_col) = (s.start_byte, s.start_line, s.start_col);
        prev = d.prev_named_sibling();
    }
    RawDef {
        kind,
        range,
        name_range: span(name_node),
        doc: leading_comment(node, src),
        signature: signature(node, src, opts.max_signature),
        type_annotation,
        is_async: head.split(|c: char| !c.is_alphanumeric()).any(|w| w == "async"),
        is_exported: false,
        name,
        owner: None,
        instance_of: None,
        made: None,
        node: node.id(),
    }
}

/// The `kind`s a tags pattern may give a function value with `(#set! definition.kind …)`:
/// how it was made (docs/graph-model.md). Another value is no kind.
pub(crate) const FUNCTION_VALUE_KINDS: &[&str] = &["lambda", "arrow", "function", "call"];

/// The `kind`s a tags pattern may give a method with `(#set! definition.kind …)` besides
/// `method` and `constructor` (docs/graph-model.md): a Haskell record field is a `getter`,
/// its selector function.
pub(crate) const METHOD_KINDS: &[&str] = &["static", "getter", "setter"];

/// Folds raw captures into symbols with containers, qualified names and reference sites.
fn assemble(facts: &mut FileFacts, mut defs: Vec<RawDef>, mut sites: Vec<RawSite>, info: &navegador_model::LanguageInfo) {
    // A name captured as both a function and a variable (`const f = () => …`) is a function.
    let is_var = |d: &RawDef| matches!(d.kind, DefKind::Variable | DefKind::Field);
    defs.sort_by(|a, b| {
        (a.range.start_byte, std::cmp::Reverse(a.range.end_byte), is_var(a))
            .cmp(&(b.range.start_byte, std::cmp::Reverse(b.range.end_byte), is_var(b)))
    });
    // Two patterns may capture one definition (a decorated and a plain function): keep the
    // outer capture, whose range includes decorators and modifiers.
    // (A function value's `kind` may come from either.)
    let mut made: std::collections::HashMap<u32, &'static str> = std::collections::HashMap::new();
    for d in &defs {
        if let Some(k) = d.made {
            made.entry(d.name_range.start_byte).or_insert(k);
        }
    }
    let mut seen = std::collections::HashSet::new();
    defs.retain(|d| seen.insert(d.name_range.start_byte));
    for d in &mut defs {
        if d.kind == DefKind::Function && d.made.is_none() {
            d.made = made.get(&d.name_range.start_byte).copied();
        }
    }

    // Parents by a sweep over a stack of open definitions.
    let mut parent: Vec<Option<usize>> = Vec::with_capacity(defs.len());
    let mut stack: Vec<usize> = Vec::new();
    for (i, d) in defs.iter().enumerate() {
        while let Some(&top) = stack.last() {
            // Equal ranges are siblings, not nesting: `a, b int`, `int a, b;`.
            if defs[top].range.contains(&d.range) && defs[top].range != d.range {
                break;
            }
            stack.pop();
        }
        parent.push(stack.last().copied());
        stack.push(i);
    }

    // Labels: a function directly inside a class-like or impl is a method; a variable
    // inside a function is a local and is not a node.
    let is_classy = |k: DefKind| matches!(k, DefKind::ClassLike(_) | DefKind::Impl);
    let mut keep = vec![true; defs.len()];
    let mut label: Vec<(Label, Option<&'static str>)> = Vec::with_capacity(defs.len());
    for (i, d) in defs.iter().enumerate() {
        let p = parent[i].map(|p| defs[p].kind);
        let in_class = p.is_some_and(is_classy);
        let ctor = info.constructors.iter().any(|c| *c == d.name);
        let method_kind = d.made.filter(|k| METHOD_KINDS.contains(k));
        let l = match d.kind {
            DefKind::ClassLike(k) => (Label::Class, Some(k)),
            DefKind::Module => (Label::Module, None),
            DefKind::Impl => (Label::Class, None),
            DefKind::Constructor => (Label::Method, Some("constructor")),
            DefKind::Method | DefKind::Function if in_class => {
                (Label::Method, Some(if ctor { "constructor" } else { method_kind.unwrap_or("method") }))
            }
            DefKind::Method => (Label::Method, Some(method_kind.unwrap_or("method"))),
            DefKind::Function => (Label::Function, d.made.filter(|k| FUNCTION_VALUE_KINDS.contains(k))),
            DefKind::Variable | DefKind::Field => (Label::Variable, None),
        };
        if matches!(d.kind, DefKind::Variable | DefKind::Field)
            && p.is_some_and(|k| matches!(k, DefKind::Function | DefKind::Method | DefKind::Constructor))
        {
            keep[i] = false;
        }
        if d.kind == DefKind::Impl {
            keep[i] = false;
        }
        label.push(l);
    }
    // A kept definition inside a dropped one (a local's initializer) is dropped too.
    for i in 0..defs.len() {
        if let Some(p) = parent[i] {
            if !keep[p] && defs[p].kind != DefKind::Impl {
                keep[i] = false;
            }
        }
    }

    // Symbol indices of kept definitions; an impl block maps to the class of that name.
    let module = facts.module.clone().unwrap_or_default();
    // Outside any type: at the top of the file or directly in a namespace.
    let outside = |i: usize| parent[i].is_none_or(|p| defs[p].kind == DefKind::Module);
    let mut idx: Vec<Option<SymbolIdx>> = vec![None; defs.len()];
    let mut qnames: Vec<String> = vec![String::new(); defs.len()];
    for i in 0..defs.len() {
        let d = &defs[i];
        let prefix = match parent[i] {
            Some(p) => qnames[p].clone(),
            None => module.clone(),
        };
        // A method declared outside its type (`func (s *T) m()`, C++ `void T::m()` at the
        // top or in a namespace) is named under the type.
        let prefix = match &d.owner {
            Some(o) if outside(i) && prefix.is_empty() => o.clone(),
            Some(o) if outside(i) => format!("{prefix}{}{o}", info.separator),
            _ => prefix,
        };
        qnames[i] = if prefix.is_empty() { d.name.clone() } else { format!("{prefix}{}{}", info.separator, d.name) };
        if d.kind == DefKind::Impl {
            // Methods of `impl T` belong to the class T of this file, if it is here.
            idx[i] = facts
                .symbols
                .iter()
                .position(|sym| sym.label == Label::Class && sym.name == d.name)
                .map(|p| p as SymbolIdx);
            continue;
        }
        if !keep[i] {
            continue;
        }
        let (lab, kind) = label[i];
        let parent_idx = parent[i].and_then(|p| idx[p]);
        let class_name = match (lab, parent[i]) {
            (Label::Method, Some(p)) if is_classy(defs[p].kind) => Some(defs[p].name.clone()),
            (Label::Method, _) if outside(i) => d.owner.clone(),
            (Label::Variable, _) => d.instance_of.clone(),
            _ => None,
        };
        idx[i] = Some(facts.symbols.len() as SymbolIdx);
        facts.symbols.push(SymbolFact {
            label: lab,
            kind,
            name: d.name.clone(),
            qualified_name: qnames[i].clone(),
            parent: parent_idx,
            range: d.range,
            name_range: d.name_range,
            docstring: d.doc.clone(),
            signature: if matches!(lab, Label::Function | Label::Method | Label::Class) { d.signature.clone() } else { None },
            class_name,
            type_annotation: d.type_annotation.clone(),
            is_async: d.is_async,
            is_exported: d.is_exported,
            is_default_export: false,
            decorators: Vec::new(),
        });
    }
    // An owner type declared below its methods (`impl T` or `func (T) m()` above `type T`):
    // now that every class of the file is known, hang the methods under it. (A class of
    // the same container: the top of the file, or the namespace the method is defined in.)
    let class_at = |facts: &FileFacts, name: &str, container: Option<SymbolIdx>| {
        facts
            .symbols
            .iter()
            .position(|sym| sym.label == Label::Class && sym.parent == container && sym.name == name)
            .map(|p| p as SymbolIdx)
    };
    for i in 0..defs.len() {
        if defs[i].kind == DefKind::Impl && idx[i].is_none() {
            idx[i] = class_at(facts, &defs[i].name, None);
        }
    }
    for i in 0..defs.len() {
        let Some(sym) = idx[i] else { continue };
        let container = parent[i].filter(|&p| defs[p].kind == DefKind::Module).and_then(|p| idx[p]);
        if defs[i].kind == DefKind::Impl || facts.symbols[sym as usize].parent != container {
            continue;
        }
        let owner = match parent[i] {
            Some(p) if defs[p].kind == DefKind::Impl => idx[p],
            _ if outside(i) => defs[i].owner.as_deref().and_then(|o| class_at(facts, o, container)),
            _ => None,
        };
        if owner.is_some() || container.is_none() {
            facts.symbols[sym as usize].parent = owner.or(container);
        }
    }

    // A factory decorator `@d(...)` is one use of `d`, by the decorated definition: the
    // call the query also sees in it (ending where the decorator's name ends) is dropped.
    let factories: std::collections::HashSet<u32> = sites
        .iter()
        .filter(|s| matches!(s.kind, SiteKind::Decorator { args: Some(_) }))
        .map(|s| s.name_at.end_byte)
        .collect();
    sites.retain(|s| !(matches!(s.kind, SiteKind::Ref(RefKind::Call)) && factories.contains(&s.at.end_byte)));

    // Reference sites: the innermost enclosing definition by another stack sweep.
    sites.sort_by_key(|s| s.at.start_byte);
    let mut stack: Vec<usize> = Vec::new();
    let mut di = 0;
    for site in sites {
        while di < defs.len() && defs[di].range.start_byte <= site.at.start_byte {
            while let Some(&top) = stack.last() {
                if defs[top].range.contains(&defs[di].range) {
                    break;
                }
                stack.pop();
            }
            stack.push(di);
            di += 1;
        }
        while let Some(&top) = stack.last() {
            if defs[top].range.contains(&site.at) {
                break;
            }
            stack.pop();
        }
        // A site before a definition's name (its decorators, modifiers, base list of a
        // Python class is after the name) belongs to the enclosing scope.
        let mut inner = stack.last().copied();
        let mut owner_for_decorator = inner;
        while let Some(i) = inner {
            if site.at.start_byte < defs[i].name_range.start_byte {
                inner = parent[i];
            } else {
                break;
            }
        }
        match site.kind {
            SiteKind::Decorator { args } => {
                // The decorated definition is the innermost one whose head holds the site.
                while let Some(i) = owner_for_decorator {
                    if site.at.start_byte < defs[i].name_range.start_byte {
                        break;
                    }
                    owner_for_decorator = parent[i];
                }
                if let Some(sym) = owner_for_decorator.and_then(|i| idx[i]) {
                    // The application is also a use of the decorator (`app.route` -> `route`
                    // on `app`), resolved like any reference.
                    let (receiver, name) = split_path(strip_generics(&site.name));
                    if !name.is_empty() && is_identifier(&name) {
                        facts.refs.push(RefFact {
                            kind: RefKind::Decorator,
                            from: Some(sym),
                            name,
                            receiver: receiver.filter(|r| !r.is_empty()),
                            receiver_type: None,
                            arity: None,
                            arg_types: None,
                            line: site.name_at.start_line,
                            column: site.name_at.start_col,
                        });
                    }
                    facts.symbols[sym as usize].decorators.push((site.name, args, site.at.start_line));
                }
            }
            SiteKind::Ref(kind) => {
                let want_class = matches!(kind, RefKind::Inherits | RefKind::Implements);
                // `impl Trait for T`: the trait comes before the impl's name (T) and still
                // belongs to it; when T is declared in another file the site has no `from`
                // and names T in `receiver_type`.
                let in_impl = stack.last().copied().filter(|&i| want_class && defs[i].kind == DefKind::Impl);
                let mut cur = in_impl.or(inner);
                let from = loop {
                    let Some(i) = cur else { break None };
                    let l = label[i].0;
                    let ok = if want_class {
                        l == Label::Class
                    } else {
                        matches!(l, Label::Function | Label::Method)
                    };
                    if ok && idx[i].is_some() {
                        break idx[i];
                    }
                    if !want_class && matches!(l, Label::Class) {
                        break None;
                    }
                    cur = parent[i];
                };
                if want_class && from.is_none() && in_impl.is_none() {
                    continue;
                }
                let mut receiver_type = in_impl.filter(|_| from.is_none()).map(|i| defs[i].name.clone());
                if kind == RefKind::New && site.name == "super" && site.receiver.is_none() {
                    // `super(…)`: the superclass as the class's head names it, so the site is
                    // re-resolved when a definition of that name changes.
                    let mut c = inner;
                    while let Some(i) = c.filter(|&i| label[i].0 != Label::Class) {
                        c = parent[i];
                    }
                    let class = c.and_then(|i| idx[i]);
                    receiver_type = facts.refs.iter().find(|f| f.kind == RefKind::Inherits && f.from.is_some() && f.from == class).map(|f| f.name.clone());
                }
                facts.refs.push(RefFact {
                    kind,
                    from,
                    name: site.name,
                    receiver: site.receiver.filter(|r| !r.is_empty()),
                    receiver_type,
                    arity: site.arity,
                    arg_types: None,
                    line: site.at.start_line,
                    column: site.at.start_col,
                });
            }
        }
    }
}

/// The number of arguments of a call node: the named children of its `arguments` field
/// (comments aside), when it has one.
fn arity(call: Node) -> Option<u32> {
    let args = call.child_by_field_name("arguments")?;
    let mut c = args.walk();
    let n = args.named_children(&mut c).filter(|a| !a.is_extra()).count();
    Some(n as u32)
}

fn first_error_line(root: Node) -> u32 {
    let mut c = root.walk();
    loop {
        let n = c.node();
        if n.is_error() || n.is_missing() {
            return n.start_position().row as u32 + 1;
        }
        let descended = n.has_error() && c.goto_first_child();
        if descended {
            continue;
        }
        loop {
            if c.goto_next_sibling() {
                break;
            }
            if !c.goto_parent() {
                return root.start_position().row as u32 + 1;
            }
        }
    }
}

/// The module path a file's location implies (`module.rule` of the manifest; a `declared`
/// rule gives the unnamed module here, before any declaration in the file is read).
pub fn module_path_for(lang: Language, path: &str) -> String {
    match &lang.info().module {
        ModuleRule::Path(rule) => rule.apply(path),
        ModuleRule::Directory => path.rsplit_once('/').map_or("", |(d, _)| d).to_string(),
        ModuleRule::Declared | ModuleRule::None => String::new(),
    }
}

/// Doc comments directly above a definition (or above the export / declaration that wraps it).
pub(crate) fn leading_comment(node: Node, src: &str) -> Option<String> {
    let mut n = node;
    while let Some(p) = n.parent() {
        if p.start_byte() == n.start_byte()
            || matches!(p.kind(), "export_statement" | "decorated_definition" | "lexical_declaration" | "variable_declaration")
        {
            if p.kind() == "program" || p.kind() == "source_file" || p.kind() == "translation_unit" || p.kind() == "module" {
                break;
            }
            n = p;
        } else {
            break;
        }
    }
    let mut parts = Vec::new();
    let mut expect_row = n.start_position().row;
    let mut cur = n.prev_sibling();
    while let Some(p) = cur.filter(|p| p.kind() == "decorator") {
        expect_row = p.start_position().row;
        cur = p.prev_sibling();
    }
    while let Some(p) = cur {
        if !p.kind().contains("comment") || p.end_position().row + 1 < expect_row {
            break;
        }
        // `int a; // about a` is about the line it ends, not the definition below.
        if p.prev_sibling().is_some_and(|q| !q.kind().contains("comment") && q.end_position().row == p.start_position().row) {
            break;
        }
        parts.push(text(p, src));
        expect_row = p.start_position().row;
        cur = p.prev_sibling();
    }
    if parts.is_empty() {
        return None;
    }
    parts.reverse();
    let doc = clean_doc(&parts.join("\n"));
    (!doc.is_empty()).then_some(doc)
}

fn signature(node: Node, src: &str, max: usize) -> Option<String> {
    let def = match node.kind() {
        "decorated_definition" => node.child_by_field_name("definition").unwrap_or(node),
        "export_statement" => node.child_by_field_name("declaration").or_else(|| node.child_by_field_name("value")).unwrap_or(node),
        _ => node,
    };
    // `const f = (a) => …`, `exports.f = function (a) {}`: the head ends where the function's body starts.
    let body = def.child_by_field_name("body").or_else(|| {
        let value = match def.kind() {
            "variable_declarator" | "field_definition" | "public_field_definition" => def.child_by_field_name("value"),
            "assignment_expression" => def.child_by_field_name("right"),
            _ => None,
        };
        // `memo((props) => …)`: the wrapped function's body
        let value = value.map(|v| match v.kind() {
            "call_expression" => v.child_by_field_name("arguments").and_then(|a| a.named_child(0)).unwrap_or(v),
            _ => v,
        });
        value.and_then(|v| v.child_by_field_name("body"))
    });
    let end = body.map_or_else(|| def.end_byte().min(def.start_byte() + max * 2), |b| b.start_byte());
    let head = src.get(def.start_byte()..end)?;
    // Comments between the head and the body are not part of the signature.
    let head: String = head
        .lines()
        .map(|l| match l.find(" #").or_else(|| l.find("//")) {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join(" ");
    let sig = squash(head.trim_end().trim_end_matches(['{', ':', ' ']).trim_end_matches("=>").trim_end(), max);
    (!sig.is_empty()).then_some(sig)
}

/// Collapses whitespace runs and caps the length at a char boundary.
fn squash(s: &str, max: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max));
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
        if out.len() >= max {
            let mut cut = max;
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
            out.push('…');
            break;
        }
    }
    out
}

fn unquote(s: &str) -> &str {
    s.trim_matches(|c| c == '"' || c == '\'' || c == '`' || c == '<' || c == '>')
}

/// `List<String>` -> `List`, `Foo[int]` -> `Foo`.
fn strip_generics(s: &str) -> &str {
    let cut = s.find(['<', '[', '(']).unwrap_or(s.len());
    s[..cut].trim()
}

/// `a.b.c` -> (Some("a.b"), "c"); also `a::b::c`, `a->c` and PHP's `A\B\c` (a fully
/// qualified `\c` keeps `\` as its receiver: the global namespace).
fn split_path(s: &str) -> (Option<String>, String) {
    let s = s.trim();
    let candidates = [
        s.rfind("::").map(|i| (i, 2)),
        s.rfind("->").map(|i| (i, 2)),
        s.rfind('.').map(|i| (i, 1)),
        s.rfind('\\').map(|i| (i, 1)),
    ];
    match candidates.into_iter().flatten().max_by_key(|(i, _)| *i) {
        Some((0, 1)) if s.starts_with('\\') => (Some("\\".to_string()), s[1..].trim().to_string()),
        Some((i, w)) => (Some(s[..i].to_string()), s[i + w..].trim().to_string()),
        None => (None, s.to_string()),
    }
}

fn is_identifier(s: &str) -> bool {
    // `#` for JS private names (`this.#render()`); Ruby's `empty?` and `save!`
    let s = s.strip_suffix(['?', '!']).unwrap_or(s);
    s.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '#')
}
