//! Per-language specs: grammar, query file and the few hooks a query cannot express.

use navegador_model::{FileFacts, Language};
use tree_sitter::Node;

/// What the generic extractor needs to know about one language.
pub(crate) struct LangSpec {
    pub grammar: fn() -> tree_sitter::Language,
    pub query: &'static str,
    /// Separator of qualified names (`.` or `::`).
    pub sep: &'static str,
    /// Names that make a method a constructor.
    pub constructors: &'static [&'static str],
    /// The docstring of a definition node, if the language keeps it inside the node.
    pub inner_doc: fn(Node, &[u8]) -> Option<String>,
    /// Whether a definition is visible outside its module.
    pub exported: fn(Node, &str, &[u8]) -> bool,
    /// The module path declared in the file (Java `package`, Go `package`), if any.
    pub declared_module: fn(Node, &[u8]) -> Option<String>,
    /// A last per-language pass over the assembled facts, for what needs more than a
    /// query: receiver types of locals and parameters, export lists, and the like.
    pub post: fn(Node, &str, &mut FileFacts),
}

pub(crate) fn spec(lang: Language) -> &'static LangSpec {
    match lang {
        Language::Python => &PYTHON,
        Language::JavaScript => &JAVASCRIPT,
        Language::TypeScript => &TYPESCRIPT,
        Language::Tsx => &TSX,
        Language::Java => &JAVA,
        Language::Go => &GO,
        Language::Rust => &RUST,
        Language::C => &C,
    }
}

fn no_doc(_: Node, _: &[u8]) -> Option<String> {
    None
}
fn no_module(_: Node, _: &[u8]) -> Option<String> {
    None
}
fn no_post(_: Node, _: &str, _: &mut FileFacts) {}
fn text<'a>(n: Node, src: &'a [u8]) -> &'a str {
    std::str::from_utf8(&src[n.byte_range()]).unwrap_or("")
}

// ---- Python -------------------------------------------------------------------------

static PYTHON: LangSpec = LangSpec {
    grammar: || tree_sitter_python::LANGUAGE.into(),
    query: include_str!("../queries/python.scm"),
    sep: ".",
    constructors: &["__init__", "__new__"],
    inner_doc: python_doc,
    exported: |_, name, _| !name.starts_with('_') || (name.starts_with("__") && name.ends_with("__")),
    declared_module: no_module,
    post: no_post,
};

/// A Python docstring: the first statement of the body, when it is a string.
fn python_doc(node: Node, src: &[u8]) -> Option<String> {
    let def = if node.kind() == "decorated_definition" {
        node.child_by_field_name("definition")?
    } else {
        node
    };
    let body = def.child_by_field_name("body")?;
    let first = body.named_child(0)?;
    if first.kind() != "expression_statement" {
        return None;
    }
    let s = first.named_child(0)?;
    if s.kind() != "string" {
        return None;
    }
    let mut out = String::new();
    let mut c = s.walk();
    for part in s.named_children(&mut c) {
        if part.kind() == "string_content" {
            out.push_str(text(part, src));
        }
    }
    Some(clean_doc(&out))
}

// ---- JavaScript / TypeScript ---------------------------------------------------------

fn js_exported(node: Node, _: &str, _: &[u8]) -> bool {
    let mut cur = node.parent();
    // `export function f`, `export const f = ...`, `export default class`.
    for _ in 0..3 {
        match cur {
            Some(p) if p.kind() == "export_statement" => return true,
            Some(p) if matches!(p.kind(), "lexical_declaration" | "variable_declaration" | "variable_declarator") => cur = p.parent(),
            _ => return false,
        }
    }
    false
}

static JAVASCRIPT: LangSpec = LangSpec {
    grammar: || tree_sitter_javascript::LANGUAGE.into(),
    query: include_str!("../queries/javascript.scm"),
    sep: ".",
    constructors: &["constructor"],
    inner_doc: no_doc,
    exported: js_exported,
    declared_module: no_module,
    post: no_post,
};

static TYPESCRIPT: LangSpec = LangSpec {
    grammar: || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
    query: concat!(include_str!("../queries/javascript.scm"), "\n", include_str!("../queries/typescript.scm")),
    sep: ".",
    constructors: &["constructor"],
    inner_doc: no_doc,
    exported: js_exported,
    declared_module: no_module,
    post: no_post,
};

static TSX: LangSpec = LangSpec {
    grammar: || tree_sitter_typescript::LANGUAGE_TSX.into(),
    query: concat!(include_str!("../queries/javascript.scm"), "\n", include_str!("../queries/typescript.scm")),
    sep: ".",
    constructors: &["constructor"],
    inner_doc: no_doc,
    exported: js_exported,
    declared_module: no_module,
    post: no_post,
};

// ---- Java -----------------------------------------------------------------------------

fn has_modifier(node: Node, src: &[u8], word: &str) -> bool {
    let mut c = node.walk();
    let found = node
        .children(&mut c)
        .find(|ch| ch.kind() == "modifiers")
        .is_some_and(|m| text(m, src).split_whitespace().any(|w| w == word));
    found
}

static JAVA: LangSpec = LangSpec {
    grammar: || tree_sitter_java::LANGUAGE.into(),
    query: include_str!("../queries/java.scm"),
    sep: ".",
    constructors: &[],
    inner_doc: no_doc,
    exported: |n, _, src| has_modifier(n, src, "public"),
    declared_module: |root, src| {
        let mut c = root.walk();
        let pkg = root.named_children(&mut c).find(|n| n.kind() == "package_declaration")?;
        let mut c2 = pkg.walk();
        let name = pkg
            .named_children(&mut c2)
            .find(|n| matches!(n.kind(), "scoped_identifier" | "identifier"))?;
        Some(text(name, src).to_string())
    },
    post: no_post,
};

// ---- Go -------------------------------------------------------------------------------

static GO: LangSpec = LangSpec {
    grammar: || tree_sitter_go::LANGUAGE.into(),
    query: include_str!("../queries/go.scm"),
    sep: ".",
    constructors: &[],
    inner_doc: no_doc,
    exported: |_, name, _| name.chars().next().is_some_and(char::is_uppercase),
    declared_module: |root, src| {
        let mut c = root.walk();
        let pkg = root.named_children(&mut c).find(|n| n.kind() == "package_clause")?;
        let mut c2 = pkg.walk();
        let name = pkg.named_children(&mut c2).find(|n| n.kind() == "package_identifier")?;
        Some(text(name, src).to_string())
    },
    post: no_post,
};

// ---- Rust -----------------------------------------------------------------------------

static RUST: LangSpec = LangSpec {
    grammar: || tree_sitter_rust::LANGUAGE.into(),
    query: include_str!("../queries/rust.scm"),
    sep: "::",
    constructors: &[],
    inner_doc: no_doc,
    exported: |n, _, _| {
        let mut c = n.walk();
        let public = n.children(&mut c).any(|ch| ch.kind() == "visibility_modifier");
        public
    },
    declared_module: no_module,
    post: no_post,
};

// ---- C --------------------------------------------------------------------------------

static C: LangSpec = LangSpec {
    grammar: || tree_sitter_c::LANGUAGE.into(),
    query: include_str!("../queries/c.scm"),
    sep: "::",
    constructors: &[],
    inner_doc: no_doc,
    exported: |n, _, src| {
        let mut c = n.walk();
        let is_static = n
            .children(&mut c)
            .any(|ch| ch.kind() == "storage_class_specifier" && text(ch, src) == "static");
        !is_static
    },
    declared_module: no_module,
    post: no_post,
};

/// Strips comment markers and common indentation from a doc comment or docstring.
pub(crate) fn clean_doc(raw: &str) -> String {
    let lines: Vec<&str> = raw
        .lines()
        .map(|l| {
            let t = l.trim();
            let t = t
                .strip_prefix("/**")
                .or_else(|| t.strip_prefix("/*!"))
                .or_else(|| t.strip_prefix("/*"))
                .or_else(|| t.strip_prefix("///"))
                .or_else(|| t.strip_prefix("//!"))
                .or_else(|| t.strip_prefix("//"))
                .or_else(|| t.strip_prefix("#"))
                .unwrap_or(t);
            let t = t.strip_suffix("*/").unwrap_or(t);
            let t = t.strip_prefix('*').unwrap_or(t);
            t.strip_prefix(' ').unwrap_or(t).trim_end()
        })
        .collect();
    let start = lines.iter().position(|l| !l.is_empty()).unwrap_or(lines.len());
    let end = lines.iter().rposition(|l| !l.is_empty()).map_or(start, |e| e + 1);
    lines[start..end].join("\n")
}

/// The module path a file's location implies, before any declaration in the file.
///
/// Python `pkg/sub/mod.py` -> `pkg.sub.mod` (`__init__.py` names its package, a leading
/// `src/` is dropped); Rust `src/a/b.rs` -> `crate::a::b`; JS/TS and C use the path
/// without extension (their imports are paths).
pub fn module_path_for(lang: Language, path: &str) -> String {
    let stem = path.rsplit_once('.').map_or(path, |(s, _)| s);
    match lang {
        Language::Python => {
            let stem = stem.strip_prefix("src/").unwrap_or(stem);
            let stem = stem.strip_suffix("/__init__").unwrap_or(stem);
            let stem = if stem == "__init__" { "" } else { stem };
            stem.replace('/', ".")
        }
        Language::Rust => {
            let mut parts: Vec<&str> = stem.split('/').collect();
            if let Some(i) = parts.iter().position(|p| *p == "src") {
                parts.drain(..=i);
            }
            if matches!(parts.last(), Some(&"lib") | Some(&"main") | Some(&"mod")) {
                parts.pop();
            }
            let mut out = String::from("crate");
            for p in parts {
                out.push_str("::");
                out.push_str(p);
            }
            out
        }
        Language::Go => path.rsplit_once('/').map_or("", |(d, _)| d).to_string(),
        _ => stem.to_string(),
    }
}
