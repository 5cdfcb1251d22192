//! JavaScript (and, through `post`, TypeScript): what its queries cannot say — `export`
//! lists and `module.exports`, default exports, method kinds, `async` arrows, and the
//! scope of a call wrapping a component (`memo(() => …)`).

use navegador_model::{FileFacts, Label, SymbolIdx};
use tree_sitter::Node;

use crate::hooks::*;

/// JS/TS after assembly: method kinds (getter, setter, static), names exported by an export
/// list or `module.exports`, and the receiver types of calls on typed or `new`-initialized
/// locals, parameters and `this.` fields.
pub(crate) fn post(root: Node, src: &str, facts: &mut FileFacts) {
    let b = src.as_bytes();
    mark_default_export(root, b, facts);
    for sig in facts.symbols.iter_mut().filter_map(|s| s.signature.as_mut()) {
        // `@Component({…}) class C`: decorators are facts of their own, not the signature.
        if sig.starts_with('@') {
            *sig = strip_annotations(sig).to_string();
        }
    }
    // `const f = async () => …`, `export default async () => …`, `h = async () => …` in a
    // class: `async` is after the name.
    for sym in facts.symbols.iter_mut().filter(|s| matches!(s.label, Label::Function | Label::Method) && !s.is_async) {
        let f = def_node(root, sym)
            .filter(|d| matches!(d.kind(), "variable_declarator" | "export_statement" | "field_definition" | "public_field_definition"))
            .and_then(|d| d.child_by_field_name("value"));
        let f = f.map(|v| match v.kind() {
            "call_expression" => v.child_by_field_name("arguments").and_then(|a| a.named_child(0)).unwrap_or(v),
            _ => v,
        });
        if let Some(f) = f {
            let mut c = f.walk();
            sym.is_async = f.children(&mut c).any(|ch| ch.kind() == "async");
        }
    }
    for sym in facts.symbols.iter_mut().filter(|s| s.kind == Some("method")) {
        let Some(def) = def_node(root, sym).filter(|d| d.kind() == "method_definition") else { continue };
        let mut c = def.walk();
        for ch in def.children(&mut c).take_while(|ch| ch.start_byte() < sym.name_range.start_byte as usize) {
            match ch.kind() {
                "get" => sym.kind = Some("getter"),
                "set" => sym.kind = Some("setter"),
                "static" => sym.kind = Some("static"),
                _ => {}
            }
        }
    }

    // `const C = memo((props) => …)`: the call of `memo` runs in the enclosing scope, not in C.
    for i in 0..facts.symbols.len() {
        let sym = &facts.symbols[i];
        let Some(call) = def_node(root, sym)
            .filter(|d| sym.label == Label::Function && d.kind() == "variable_declarator")
            .and_then(|d| d.child_by_field_name("value"))
            .filter(|v| v.kind() == "call_expression")
        else {
            continue;
        };
        let Some(inner) = call.child_by_field_name("arguments").and_then(|a| a.named_child(0)) else { continue };
        let start = inner.start_position();
        let parent = sym.parent;
        for r in facts.refs.iter_mut().filter(|r| r.from == Some(i as SymbolIdx)) {
            if ((r.line - 1) as usize, r.column as usize) < (start.row, start.column) {
                r.from = parent;
            }
        }
    }

    let mut exported: Vec<&str> = Vec::new();
    let mut c = root.walk();
    for st in root.named_children(&mut c) {
        match st.kind() {
            // `export { a, b as c };` and `export default a;` (no `from`: those are re-exports)
            "export_statement" if st.child_by_field_name("source").is_none() => {
                if let Some(v) = st.child_by_field_name("value").filter(|v| v.kind() == "identifier") {
                    exported.push(text(v, b));
                }
                let mut c2 = st.walk();
                for clause in st.named_children(&mut c2).filter(|n| n.kind() == "export_clause") {
                    let mut c3 = clause.walk();
                    for spec in clause.named_children(&mut c3) {
                        if let Some(n) = spec.child_by_field_name("name") {
                            exported.push(text(n, b));
                        }
                    }
                }
            }
            // `module.exports = X`, `module.exports = { a, b: c }`, `exports.x = y`
            "expression_statement" => {
                let Some(a) = st.named_child(0).filter(|a| a.kind() == "assignment_expression") else { continue };
                let (Some(l), Some(r)) = (a.child_by_field_name("left"), a.child_by_field_name("right")) else { continue };
                let lt = text(l, b);
                if !(lt == "module.exports" || lt.starts_with("module.exports.") || lt.starts_with("exports.")) {
                    continue;
                }
                match r.kind() {
                    "identifier" => exported.push(text(r, b)),
                    "object" => {
                        let mut c2 = r.walk();
                        for p in r.named_children(&mut c2) {
                            match p.kind() {
                                "shorthand_property_identifier" => exported.push(text(p, b)),
                                "pair" => {
                                    if let Some(v) = p.child_by_field_name("value").filter(|v| v.kind() == "identifier") {
                                        exported.push(text(v, b));
                                    }
                                }
                                _ => {}
                            }
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    for sym in facts.symbols.iter_mut().filter(|s| s.parent.is_none()) {
        if exported.contains(&sym.name.as_str()) {
            sym.is_exported = true;
        }
    }
    // Members of an exported class are exported unless `#private`, `private` or `protected`.
    for i in 0..facts.symbols.len() {
        let Some(p) = facts.symbols[i].parent else { continue };
        let (parent, sym) = (&facts.symbols[p as usize], &facts.symbols[i]);
        if parent.label != Label::Class || !parent.is_exported || sym.name.starts_with('#') {
            continue;
        }
        let hidden = def_node(root, sym).is_some_and(|d| {
            let mut c = d.walk();
            let hidden = d
                .children(&mut c)
                .any(|ch| ch.kind() == "accessibility_modifier" && text(ch, b) != "public");
            hidden
        });
        facts.symbols[i].is_exported = !hidden;
    }

}

pub(crate) static HOOKS: Hooks = Hooks {
    post,
    prepare: no_prepare,
};

/// `export default class C`, `export default function f`, `export default C;`: marks the
/// symbol that `import x from` binds.
fn mark_default_export(root: Node, b: &[u8], facts: &mut FileFacts) {
    let mut c = root.walk();
    for stmt in root.named_children(&mut c).filter(|n| n.kind() == "export_statement") {
        let mut c2 = stmt.walk();
        if !stmt.children(&mut c2).any(|ch| ch.kind() == "default") {
            continue;
        }
        let target = if let Some(decl) = stmt.child_by_field_name("declaration") {
            decl.child_by_field_name("name").map(|n| (n.start_byte() as u32, None))
        } else {
            stmt.child_by_field_name("value")
                .filter(|v| v.kind() == "identifier")
                .map(|v| (0, Some(text(v, b).to_string())))
        };
        let anonymous = stmt.start_byte() as u32;
        for s in facts.symbols.iter_mut().filter(|s| s.parent.is_none()) {
            let hit = match &target {
                Some((at, None)) => s.name_range.start_byte == *at,
                Some((_, Some(name))) => &s.name == name && s.label != Label::Variable,
                None => s.name == "default" && s.range.start_byte >= anonymous && s.range.end_byte <= stmt.end_byte() as u32,
            };
            if hit {
                s.is_default_export = true;
            }
        }
    }
}
