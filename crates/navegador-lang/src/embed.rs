//! Host packs (`[embed]`: Svelte and Vue single-file components): the host grammar's tags
//! query marks the blocks of embedded code (`@embed`, with `@embed.lang` the attribute
//! naming their language) and the markup's own sites (components used as tags, event
//! handlers); each block's text is read by the pack `[embed]` names, in place — the rest
//! of the file blanked to spaces, newlines kept, so every byte offset and line is the
//! component file's — and its facts join the file's: one module, the file's path. The
//! component itself (`component = "component"`) is a class-like named by the file stem,
//! the module's default export, and the `from` of the markup's sites.

use navegador_model::{Diagnostic, FileFacts, Label, Language, Span, SymbolFact};

use crate::extract::{extract_one, module_path_for, ExtractOptions};
use crate::manifest::Embed;
use crate::registry::registry;

/// A block of embedded code the host query marked: its byte range, first line and the
/// language its `@embed.lang` names (none: the `[embed]` default).
#[derive(Debug, Clone)]
pub(crate) struct Block {
    pub start: usize,
    pub end: usize,
    pub line: u32,
    pub lang: Option<String>,
}

/// The facts of a host pack's file: the markup's sites, each block's facts in place, and
/// the component.
pub(crate) fn extract(path: &str, src: &str, lang: Language, embed: &Embed, opts: &ExtractOptions) -> FileFacts {
    let mut blocks = Vec::new();
    let mut host = extract_one(path, src, lang, opts, &mut blocks);
    let host_refs = std::mem::take(&mut host.refs);
    let mut facts = FileFacts { symbols: Vec::new(), ..host };
    if let Some(kind) = embed.component {
        facts.symbols.push(component(path, src, kind, facts.module.as_deref(), lang));
    }
    let own = (!facts.symbols.is_empty()).then_some(0);
    // the markup's sites are the component's
    facts.refs.extend(host_refs.into_iter().map(|mut r| {
        r.from = r.from.or(own);
        r
    }));
    // blocks by the pack that reads them, in the order they first appear
    let mut groups: Vec<(Language, Vec<(usize, usize)>)> = Vec::new();
    blocks.sort_by_key(|b| b.start);
    for b in &blocks {
        let Some(reader) = reader(embed, b.lang.as_deref()) else {
            facts.diagnostics.push(Diagnostic {
                line: b.line,
                message: format!("block in `{}`, which no pack reads: skipped", b.lang.as_deref().unwrap_or("")),
            });
            continue;
        };
        match groups.iter_mut().find(|(l, _)| *l == reader) {
            Some((_, ranges)) => ranges.push((b.start, b.end)),
            None => groups.push((reader, vec![(b.start, b.end)])),
        }
    }
    let module = facts.module.clone().unwrap_or_default();
    for (reader, ranges) in groups {
        let text = blanked(src, &ranges);
        let sub = extract_one(path, &text, reader, opts, &mut Vec::new());
        let sub_module = module_path_for(reader, path);
        let offset = facts.symbols.len() as u32;
        for mut s in sub.symbols {
            s.parent = s.parent.map(|p| p + offset);
            // the component is the module's default export
            s.is_default_export &= own.is_none();
            if sub_module != module {
                if let Some(rest) = s.qualified_name.strip_prefix(&sub_module) {
                    s.qualified_name = format!("{module}{rest}");
                }
            }
            facts.symbols.push(s);
        }
        facts.refs.extend(sub.refs.into_iter().map(|mut r| {
            r.from = r.from.map(|f| f + offset);
            r
        }));
        facts.imports.extend(sub.imports);
        facts.diagnostics.extend(sub.diagnostics);
    }
    facts.imports.sort_by(|a, b| (a.line, a.column, &a.module, &a.name).cmp(&(b.line, b.column, &b.module, &b.name)));
    facts.imports.dedup();
    facts.diagnostics.sort_by_key(|d| d.line);
    facts
}

/// The pack that reads a block in `lang` (none: the default): `map`, else a pack of that id
/// that reads code.
fn reader(embed: &Embed, lang: Option<&str>) -> Option<Language> {
    let id = match lang {
        None => embed.default.as_str(),
        Some(l) => embed.map.iter().find(|(k, _)| k == l).map_or(l, |(_, id)| id.as_str()),
    };
    registry().by_id(id).filter(|l| registry().pack(*l).spec.embed.is_none())
}

/// `src` with everything outside `ranges` blanked (newlines kept): the same length, lines
/// and columns, so the embedded pack's positions are the file's.
fn blanked(src: &str, ranges: &[(usize, usize)]) -> String {
    let mut out = src.as_bytes().to_vec();
    let mut at = 0;
    for &(s, e) in ranges.iter().chain(std::iter::once(&(src.len(), src.len()))) {
        for b in &mut out[at..s.max(at)] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
        at = at.max(e);
    }
    String::from_utf8(out).expect("whole characters were blanked to ASCII spaces")
}

/// The component the file is: a class-like of `kind` named by the file's stem, the whole
/// file its range.
fn component(path: &str, src: &str, kind: &'static str, module: Option<&str>, lang: Language) -> SymbolFact {
    let file = path.rsplit('/').next().unwrap_or(path);
    let name = file.split_once('.').map_or(file, |(stem, _)| stem).to_string();
    let lines = src.split('\n').count() as u32;
    let last = src.rsplit('\n').next().unwrap_or("").len() as u32;
    let range = Span { start_byte: 0, end_byte: src.len() as u32, start_line: 1, start_col: 0, end_line: lines, end_col: last };
    let name_range = Span { end_byte: 0, end_line: 1, end_col: 0, ..range };
    let sep = &lang.info().separator;
    SymbolFact {
        label: Label::Class,
        kind: Some(kind),
        qualified_name: match module {
            Some(m) if !m.is_empty() => format!("{m}{sep}{name}"),
            _ => name.clone(),
        },
        name,
        parent: None,
        range,
        name_range,
        docstring: None,
        signature: None,
        class_name: None,
        type_annotation: None,
        is_async: false,
        is_exported: true,
        is_default_export: true,
        decorators: Vec::new(),
    }
}
