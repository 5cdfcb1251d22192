//! A pack's manifest (`languages/<id>/language.toml`) read into the model's
//! `LanguageInfo` (what every crate may read) and the extractor's `PackSpec` (queries and
//! rules only extraction uses). Strict: an unknown key or a value of the wrong type is an
//! error naming the line, so a typo cannot silently turn a rule off. The keys are
//! documented in `languages/README.md`.

use navegador_model::{ClientRule, LanguageInfo, ModuleRule, PathModule};
use toml_edit::{Document, Item, Table, Value};

use crate::registry::PackError;

/// What only the extractor reads from a manifest.
#[derive(Debug, Clone, Default)]
pub(crate) struct PackSpec {
    /// Tags query files, in order (relative to the pack folder).
    pub tags: Vec<String>,
    /// Locals query files, in order.
    pub locals: Vec<String>,
    /// A call of, or a value passed from, a local binding names no symbol: drop it.
    pub drop_local_uses: bool,
    /// A bare name no scope binds may be a member of the enclosing scope's own type.
    pub implicit_members: bool,
    pub types: TypeRules,
    pub export: ExportRule,
    /// `pragmas`: a file of this pack whose leading comment carries the pragma (`@flow`)
    /// is read by the other pack named (`flow`), in manifest order.
    pub pragmas: Vec<(String, String)>,
    /// `[syntax_notes]`: why a file of this extension may not parse (`mm`: Objective-C++,
    /// which no grammar reads), said with its syntax-error diagnostic.
    pub syntax_notes: Vec<(String, String)>,
    /// The rule files `clients` names (`"../javascript/clients.toml"`): `[[client]]` tables.
    pub clients_files: Vec<String>,
    /// The list files `builtins` names (`"builtins.txt"`, `"../javascript/builtins.txt"`):
    /// their names join the inline ones.
    pub builtins_files: Vec<String>,
    /// `[preprocess]`: what is blanked before parsing (`preprocess.rs`).
    pub preprocess: crate::preprocess::Preprocess,
    /// `[embed]`: a host pack (a component file) whose `@embed` nodes hold code another
    /// pack reads (`src/embed.rs`).
    pub embed: Option<Embed>,
}

/// `[embed]` of a host pack: which pack reads an `@embed` node's text, and what the file
/// itself is.
#[derive(Debug, Clone, Default)]
pub(crate) struct Embed {
    /// The pack (by id) of a block without `@embed.lang` (`javascript`).
    pub default: String,
    /// `@embed.lang` values to pack ids (`ts = "typescript"`); a value not here that is
    /// no pack's id is skipped with a diagnostic.
    pub map: Vec<(String, String)>,
    /// The file is a class-like of this kind (`component`), named by its stem: the
    /// module's default export, and the `from` of the host query's sites.
    pub component: Option<&'static str>,
}

/// What makes a definition visible outside its module (`export` of the manifest).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum ExportRule {
    /// The tags query marks exported definitions `@exported` (`public`, `pub`, `export`).
    #[default]
    Marked,
    /// Exported unless the tags query marks it `@hidden` (C `static`).
    UnlessHidden,
    /// A name starting with an upper-case letter (Go).
    Capitalized,
    /// A name not starting with `_`, or a `__dunder__` (Python).
    NoUnderscore,
}

/// How the binder reads a node captured `@local.type` (`[types]` of the manifest).
#[derive(Debug, Clone, Default)]
pub(crate) struct TypeRules {
    /// Node kinds whose text names a type.
    pub names: Vec<String>,
    /// Node kinds that stand for a type inside them: (kind, field); no field is the first
    /// named child.
    pub inner: Vec<(String, Option<String>)>,
    /// Generic types that stand for their first argument (`Box<T>`).
    pub wrappers: Vec<String>,
    /// The node kind of a generic's argument list, where `wrappers` find their argument
    /// (`type_arguments` unless the manifest says otherwise).
    pub arguments: String,
    /// The type name that means the enclosing scope's own type (`Self`).
    pub self_name: Option<String>,
    /// Node kinds a `@local.definition` / `@local.member` is read through to the name it
    /// declares (C `pointer_declarator.declarator`): the first node not of these kinds is
    /// the name if it is a leaf (a function declarator declares no local).
    pub declarators: Vec<(String, Option<String>)>,
    /// Node kinds whose whole text is the name they bind although they have children
    /// (PHP `variable_name`: `$x`, as receivers write it).
    pub bindings: Vec<String>,
    /// The member access operator of receivers (`this.x`; PHP `$this->x`); default `.`.
    pub member: Option<String>,
    /// Node kinds of a value that is a name or a member path (`x`, `cs.conn`): a binding
    /// captured `@local.type` on one has the type of what the path names (`cc := cs.cc`).
    pub paths: Vec<String>,
    /// Node kinds of an array type, read as their `element` type and `[]` per dimension
    /// (`int[]`, `Foo[][]`): argument types that tell overloads apart. A receiver of an
    /// array type gets none.
    pub arrays: Vec<String>,
}

const TOP_KEYS: &[&str] = &[
    "name", "family", "extensions", "shebangs", "markers", "separator", "receiver", "constructors", "builtins",
    "relation_prefix", "skip_minified", "shared_globals", "open_classes", "tags", "locals", "drop_local_uses", "implicit_members", "export", "module", "types",
    "pragmas", "frameworks", "implied_by", "call_relation", "preprocess", "clients", "overloads",
    "embed", "syntax_notes",
];
const EMBED_KEYS: &[&str] = &["default", "map", "component"];
const OVERLOAD_KEYS: &[&str] = &["top", "primitives", "converts"];
const CLIENT_KEYS: &[&str] = &[
    "library", "calls", "imports", "url", "url_option", "method", "method_arg", "method_option", "factories", "base_option", "base_arg",
    "kind", "tags", "elements", "url_required",
];
const PREPROCESS_KEYS: &[&str] = &["replace", "blank", "blank_calls", "type_arguments", "undefined", "inline_conditionals", "macros", "reserved_attributes", "tagged_type_arguments", "statement_macros", "declaration_macros", "split_conditionals", "all_branches", "specifier_macros", "string_macros", "defined_attributes", "designators", "bare_labels", "list_macros", "directive_comments", "pp_numbers", "type_calls", "argument_shapes"];
const MODULE_KEYS: &[&str] = &["rule", "strip_prefix", "after", "index", "join", "root"];
const TYPE_KEYS: &[&str] = &["names", "inner", "wrappers", "arguments", "self", "declarators", "bindings", "member", "paths", "arrays"];

/// A pack file's TOML, or the error naming its line.
fn document(file: &str, text: &str) -> Result<Document<String>, PackError> {
    Document::parse(text.to_string()).map_err(|e| PackError {
        file: file.to_string(),
        line: e.span().map_or(1, |s| line_at(text, s.start)),
        message: format!("not valid TOML: {}", e.message()),
    })
}

pub(crate) fn parse(id: &str, file: &str, text: &str) -> Result<(LanguageInfo, PackSpec), PackError> {
    let doc = document(file, text)?;
    let r = Reader { file, text };
    let top = doc.as_table();
    r.known(top, TOP_KEYS)?;
    let name = r.string(top, "name")?.unwrap_or_else(|| id.to_string());
    let module = match top.get("module") {
        None => ModuleRule::None,
        Some(item) => {
            let t = item.as_table().ok_or_else(|| r.error(item, "`module` must be a table ([module])"))?;
            r.known(t, MODULE_KEYS)?;
            let rule = r.string(t, "rule")?.ok_or_else(|| r.error(item, "[module] needs a `rule`"))?;
            let path_keys = ["strip_prefix", "after", "index", "join", "root"];
            if rule != "path" {
                if let Some(k) = path_keys.iter().find(|k| t.contains_key(k)) {
                    return Err(r.error(&t[*k], &format!("`{k}` only applies to rule = \"path\"")));
                }
            }
            match rule.as_str() {
                "path" => ModuleRule::Path(PathModule {
                    strip_prefix: r.string(t, "strip_prefix")?,
                    after: r.string(t, "after")?,
                    index: r.strings(t, "index")?,
                    join: r.string(t, "join")?.unwrap_or_else(|| "/".to_string()),
                    root: r.string(t, "root")?,
                }),
                "declared" => ModuleRule::Declared,
                "directory" => ModuleRule::Directory,
                "none" => ModuleRule::None,
                other => {
                    return Err(r.error(&t["rule"], &format!("unknown module rule `{other}` (path, declared, directory, none)")))
                }
            }
        }
    };
    let info = LanguageInfo {
        id: id.to_string(),
        relation_prefix: r.string(top, "relation_prefix")?.unwrap_or_else(|| name.clone()),
        name,
        family: r.string(top, "family")?.ok_or_else(|| PackError { file: file.into(), line: 1, message: "needs a `family`".into() })?,
        extensions: r.strings(top, "extensions")?,
        shebangs: r.strings(top, "shebangs")?,
        markers: r.strings(top, "markers")?,
        separator: r.string(top, "separator")?.unwrap_or_else(|| ".".to_string()),
        module,
        receiver: r.string(top, "receiver")?,
        constructors: r.strings(top, "constructors")?,
        // `builtins = "builtins.txt"` (a list file), or a list of names and list files (an
        // entry ending in `.txt`; a name is an identifier, so it never does)
        builtins: match top.get("builtins").and_then(Item::as_str) {
            Some(_) => Vec::new(),
            None => r.strings(top, "builtins")?.into_iter().filter(|b| !b.ends_with(".txt")).collect(),
        },
        skip_minified: r.bool(top, "skip_minified")?.unwrap_or(false),
        shared_globals: r.bool(top, "shared_globals")?.unwrap_or(false),
        open_classes: r.bool(top, "open_classes")?.unwrap_or(false),
        frameworks: r.strings(top, "frameworks")?,
        implied_by: r.strings(top, "implied_by")?,
        call_relation: r.string(top, "call_relation")?,
        clients: Vec::new(),
        overloads: match top.get("overloads") {
            None => None,
            Some(item) => {
                let t = item.as_table().ok_or_else(|| r.error(item, "`overloads` must be a table ([overloads])"))?;
                r.known(t, OVERLOAD_KEYS)?;
                let mut converts = Vec::new();
                if let Some(c) = t.get("converts") {
                    let ct = c.as_table_like().ok_or_else(|| r.error(c, "`converts` must be a table (`int = [\"long\", \"Integer\"]`)"))?;
                    for (k, v) in ct.iter() {
                        let arr = v.as_array().ok_or_else(|| r.error(v, &format!("`converts.{k}` must be a list of type names")))?;
                        let to = arr
                            .iter()
                            .map(|x| x.as_str().map(str::to_string).ok_or_else(|| r.value_error(x, &format!("`converts.{k}` must be a list of type names"))))
                            .collect::<Result<Vec<_>, _>>()?;
                        converts.push((k.to_string(), to));
                    }
                }
                Some(navegador_model::Overloads { top: r.string(t, "top")?, converts, primitives: r.strings(t, "primitives")? })
            }
        },
    };
    if let Some(f) = info.implied_by.iter().find(|f| !info.frameworks.contains(f)) {
        return Err(r.error(&top["implied_by"], &format!("`implied_by` names `{f}`, which `frameworks` does not list")));
    }
    if let Some(e) = info.extensions.iter().find(|e| e.starts_with('.') || e.contains('/')) {
        return Err(r.error(&top["extensions"], &format!("extension `{e}` is written without its dot")));
    }
    let types = match top.get("types") {
        None => TypeRules::default(),
        Some(item) => {
            let t = item.as_table().ok_or_else(|| r.error(item, "`types` must be a table ([types])"))?;
            r.known(t, TYPE_KEYS)?;
            let steps = |key: &str| -> Result<Vec<(String, Option<String>)>, PackError> {
                Ok(r.strings(t, key)?
                    .into_iter()
                    .map(|k| match k.split_once('.') {
                        Some((kind, field)) => (kind.to_string(), Some(field.to_string())),
                        None => (k, None),
                    })
                    .collect())
            };
            TypeRules {
                names: r.strings(t, "names")?,
                inner: steps("inner")?,
                declarators: steps("declarators")?,
                wrappers: r.strings(t, "wrappers")?,
                arguments: r.string(t, "arguments")?.unwrap_or_else(|| "type_arguments".to_string()),
                self_name: r.string(t, "self")?,
                bindings: r.strings(t, "bindings")?,
                member: r.string(t, "member")?,
                paths: r.strings(t, "paths")?,
                arrays: r.strings(t, "arrays")?,
            }
        }
    };
    let export = match r.string(top, "export")?.as_deref() {
        None | Some("marked") => ExportRule::Marked,
        Some("unless-hidden") => ExportRule::UnlessHidden,
        Some("capitalized") => ExportRule::Capitalized,
        Some("no-underscore") => ExportRule::NoUnderscore,
        Some(other) => {
            return Err(r.error(&top["export"], &format!("unknown export rule `{other}` (marked, unless-hidden, capitalized, no-underscore)")))
        }
    };
    let embed = match top.get("embed") {
        None => None,
        Some(item) => {
            let t = item.as_table().ok_or_else(|| r.error(item, "`embed` must be a table ([embed])"))?;
            r.known(t, EMBED_KEYS)?;
            let default = r.string(t, "default")?.ok_or_else(|| r.error(item, "[embed] needs a `default` pack (`default = \"javascript\"`)"))?;
            let mut map = Vec::new();
            if let Some(m) = t.get("map") {
                let mt = m.as_table_like().ok_or_else(|| r.error(m, "`map` must be a table (`map = { ts = \"typescript\" }`)"))?;
                for (k, v) in mt.iter() {
                    let pack = v.as_str().ok_or_else(|| r.error(v, &format!("`map.{k}` must name a pack (a string)")))?;
                    map.push((k.to_string(), pack.to_string()));
                }
            }
            // (a `kind` is static: the registry lives as long as the program)
            Some(Embed { default, map, component: r.string(t, "component")?.map(|k| &*Box::leak(k.into_boxed_str())) })
        }
    };
    let spec = PackSpec {
        embed,
        builtins_files: match top.get("builtins").and_then(Item::as_str) {
            Some(file) => vec![file.to_string()],
            None => r.strings(top, "builtins")?.into_iter().filter(|b| b.ends_with(".txt")).collect(),
        },
        export,
        pragmas: r.string_table(top, "pragmas", "`pragmas` must be a table (`[pragmas]`, \"@flow\" = \"flow\")", |k| {
            format!("pragma `{k}` must name a pack (a string)")
        })?,
        syntax_notes: r.string_table(top, "syntax_notes", "`syntax_notes` must be a table (`[syntax_notes]`, mm = \"why\")", |k| {
            format!("syntax note `{k}` must be a string")
        })?,
        clients_files: r.strings(top, "clients")?,
        tags: r.strings(top, "tags")?,
        locals: r.strings(top, "locals")?,
        drop_local_uses: r.bool(top, "drop_local_uses")?.unwrap_or(false),
        implicit_members: r.bool(top, "implicit_members")?.unwrap_or(false),
        types,
        preprocess: match top.get("preprocess") {
            None => Default::default(),
            Some(item) => {
                let t = item.as_table().ok_or_else(|| r.error(item, "`preprocess` must be a table ([preprocess])"))?;
                r.known(t, PREPROCESS_KEYS)?;
                crate::preprocess::Preprocess {
                    blank: r.strings(t, "blank")?,
                    blank_calls: r.strings(t, "blank_calls")?,
                    type_arguments: r.strings(t, "type_arguments")?,
                    replace: match t.get("replace") {
                        None => Vec::new(),
                        Some(item) => r
                            .strings(t, "replace")?
                            .iter()
                            .map(|rule| crate::preprocess::Replace::parse(rule).map_err(|m| r.error(item, &format!("replace `{rule}`: {m}"))))
                            .collect::<Result<_, _>>()?,
                    },
                    undefined: r.strings(t, "undefined")?,
                    inline_conditionals: r.bool(t, "inline_conditionals")?.unwrap_or(false),
                    macros: r.bool(t, "macros")?.unwrap_or(false),
                    reserved_attributes: r.bool(t, "reserved_attributes")?.unwrap_or(false),
                    tagged_type_arguments: r.bool(t, "tagged_type_arguments")?.unwrap_or(false),
                    statement_macros: r.bool(t, "statement_macros")?.unwrap_or(false),
                    declaration_macros: r.bool(t, "declaration_macros")?.unwrap_or(false),
                    split_conditionals: r.bool(t, "split_conditionals")?.unwrap_or(false),
                    all_branches: r.bool(t, "all_branches")?.unwrap_or(false),
                    specifier_macros: r.bool(t, "specifier_macros")?.unwrap_or(false),
                    string_macros: r.bool(t, "string_macros")?.unwrap_or(false),
                    defined_attributes: r.bool(t, "defined_attributes")?.unwrap_or(false),
                    designators: r.strings(t, "designators")?,
                    bare_labels: r.bool(t, "bare_labels")?.unwrap_or(false),
                    list_macros: r.bool(t, "list_macros")?.unwrap_or(false),
                    directive_comments: r.bool(t, "directive_comments")?.unwrap_or(false),
                    pp_numbers: r.bool(t, "pp_numbers")?.unwrap_or(false),
                    type_calls: r.strings(t, "type_calls")?,
                    argument_shapes: r.bool(t, "argument_shapes")?.unwrap_or(false),
                }
            }
        },
    };
    if !spec.locals.is_empty() && spec.types.names.is_empty() {
        return Err(PackError { file: file.into(), line: line_of_key(text, "locals"), message: "a locals query needs [types] names to read its types".into() });
    }
    if spec.tags.is_empty() {
        return Err(PackError { file: file.into(), line: 1, message: "needs a tags query (`tags = [\"tags.scm\"]`)".into() });
    }
    Ok((info, spec))
}

/// The `[[client]]` rules of a clients file (`ClientRule`): strict like the manifest.
pub(crate) fn parse_clients(file: &str, text: &str) -> Result<Vec<ClientRule>, PackError> {
    let doc = document(file, text)?;
    let r = Reader { file, text };
    r.known(doc.as_table(), &["client"])?;
    let Some(item) = doc.get("client") else { return Ok(Vec::new()) };
    let tables = item.as_array_of_tables().ok_or_else(|| r.error(item, "`client` must be tables ([[client]])"))?;
    let mut out = Vec::new();
    for t in tables.iter() {
        r.known(t, CLIENT_KEYS)?;
        let index = |key: &str| -> Result<Option<u32>, PackError> {
            match t.get(key) {
                None => Ok(None),
                Some(item) => item.as_integer().and_then(|i| u32::try_from(i).ok()).map(Some).ok_or_else(|| r.error(item, &format!("`{key}` must be an argument index (0, 1, …)"))),
            }
        };
        let rule = ClientRule {
            library: r.string(t, "library")?.ok_or_else(|| PackError { file: file.into(), line: 1, message: "a [[client]] needs a `library`".into() })?,
            calls: r.strings(t, "calls")?,
            imports: r.strings(t, "imports")?,
            url: index("url")?.unwrap_or(0),
            url_option: r.string(t, "url_option")?,
            method: r.string(t, "method")?,
            method_arg: index("method_arg")?,
            method_option: r.string(t, "method_option")?,
            factories: r.strings(t, "factories")?,
            base_option: r.string(t, "base_option")?,
            base_arg: index("base_arg")?,
            kind: r.string(t, "kind")?,
            tags: r.strings(t, "tags")?,
            elements: r.strings(t, "elements")?,
            url_required: r.bool(t, "url_required")?.unwrap_or(false),
        };
        if let Some(k) = rule.kind.as_deref().filter(|k| *k != "graphql" && *k != "http") {
            return Err(PackError { file: file.into(), line: line_of_value(text, k), message: format!("client `{}`: `kind` must be \"http\" or \"graphql\", not `{k}`", rule.library) });
        }
        if rule.calls.is_empty() && rule.tags.is_empty() && rule.elements.is_empty() {
            return Err(PackError { file: file.into(), line: line_of_value(text, &rule.library), message: format!("client `{}` lists no `calls` (nor `tags`, `elements`)", rule.library) });
        }
        out.push(rule);
    }
    Ok(out)
}

/// The 1-based line of the first place `value` is written as a string in `text`.
pub(crate) fn line_of_value(text: &str, value: &str) -> usize {
    text.find(&format!("\"{value}\"")).map_or(1, |at| line_at(text, at))
}

fn line_of_key(text: &str, key: &str) -> usize {
    text.lines().position(|l| l.trim_start().starts_with(key)).map_or(1, |i| i + 1)
}

fn line_at(text: &str, byte: usize) -> usize {
    text[..byte.min(text.len())].bytes().filter(|&b| b == b'\n').count() + 1
}

struct Reader<'a> {
    file: &'a str,
    text: &'a str,
}

impl Reader<'_> {
    fn error(&self, item: &Item, message: &str) -> PackError {
        let line = item.span().map_or(1, |s| line_at(self.text, s.start));
        PackError { file: self.file.to_string(), line, message: message.to_string() }
    }

    fn value_error(&self, v: &Value, message: &str) -> PackError {
        let line = v.span().map_or(1, |s| line_at(self.text, s.start));
        PackError { file: self.file.to_string(), line, message: message.to_string() }
    }

    fn known(&self, t: &Table, keys: &[&str]) -> Result<(), PackError> {
        for (k, item) in t.iter() {
            if !keys.contains(&k) {
                let line = t.key(k).and_then(|k| k.span()).or_else(|| item.span()).map_or(1, |s| line_at(self.text, s.start));
                return Err(PackError { file: self.file.to_string(), line, message: format!("unknown key `{k}` (known: {})", keys.join(", ")) });
            }
        }
        Ok(())
    }

    fn string(&self, t: &Table, key: &str) -> Result<Option<String>, PackError> {
        match t.get(key) {
            None => Ok(None),
            Some(item) => match item.as_str() {
                Some(s) => Ok(Some(s.to_string())),
                None => Err(self.error(item, &format!("`{key}` must be a string"))),
            },
        }
    }

    fn strings(&self, t: &Table, key: &str) -> Result<Vec<String>, PackError> {
        let Some(item) = t.get(key) else { return Ok(Vec::new()) };
        let arr = item.as_array().ok_or_else(|| self.error(item, &format!("`{key}` must be a list of strings")))?;
        arr.iter()
            .map(|v| v.as_str().map(str::to_string).ok_or_else(|| self.value_error(v, &format!("`{key}` must be a list of strings"))))
            .collect()
    }

    /// A table of string values (`[pragmas]`, `[syntax_notes]`) as (key, value) pairs, in
    /// order; none when absent.
    fn string_table(&self, t: &Table, key: &str, not_a_table: &str, not_a_string: impl Fn(&str) -> String) -> Result<Vec<(String, String)>, PackError> {
        let Some(item) = t.get(key) else { return Ok(Vec::new()) };
        let table = item.as_table_like().ok_or_else(|| self.error(item, not_a_table))?;
        table
            .iter()
            .map(|(k, v)| Ok((k.to_string(), v.as_str().ok_or_else(|| self.error(v, &not_a_string(k)))?.to_string())))
            .collect()
    }

    fn bool(&self, t: &Table, key: &str) -> Result<Option<bool>, PackError> {
        match t.get(key) {
            None => Ok(None),
            Some(item) => item.as_bool().map(Some).ok_or_else(|| self.error(item, &format!("`{key}` must be true or false"))),
        }
    }
}
