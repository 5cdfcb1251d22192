//! A stable, line-per-fact text rendering of `FileFacts`: what golden tests compare and
//! what `navegador parse FILE` prints.

use std::fmt::Write;

use navegador_model::FileFacts;

pub fn render_facts(f: &FileFacts) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "module {}", f.module.as_deref().unwrap_or("-"));
    for s in &f.symbols {
        let depth = {
            let mut d = 0;
            let mut p = s.parent;
            while let Some(i) = p {
                d += 1;
                p = f.symbols[i as usize].parent;
            }
            d
        };
        let _ = write!(out, "{}{} {}", "  ".repeat(depth), s.label, s.qualified_name);
        if let Some(k) = s.kind {
            let _ = write!(out, " kind={k}");
        }
        let _ = write!(out, " L{}-{}", s.range.start_line, s.range.end_line);
        if let Some(c) = &s.class_name {
            let _ = write!(out, " class={c}");
        }
        if s.is_async {
            out.push_str(" async");
        }
        if s.is_exported {
            out.push_str(" exported");
        }
        if s.is_default_export {
            out.push_str(" default");
        }
        if let Some(t) = &s.type_annotation {
            let _ = write!(out, " type={t:?}");
        }
        for (name, args, _) in &s.decorators {
            let _ = write!(out, " @{name}");
            if let Some(a) = args {
                out.push_str(a);
            }
        }
        if let Some(sig) = &s.signature {
            let _ = write!(out, " sig={sig:?}");
        }
        if let Some(d) = &s.docstring {
            let first = d.lines().next().unwrap_or("");
            let _ = write!(out, " doc={first:?}");
        }
        out.push('\n');
    }
    for i in &f.imports {
        let _ = write!(out, "import {}", i.module);
        if let Some(n) = &i.name {
            let _ = write!(out, " name={n}");
        }
        if let Some(a) = &i.alias {
            let _ = write!(out, " as={a}");
        }
        let _ = writeln!(out, " L{}", i.line);
    }
    for r in &f.refs {
        let from = r.from.map_or("<file>", |i| f.symbols[i as usize].qualified_name.as_str());
        let _ = write!(out, "{} {} -> ", r.kind.as_str(), from);
        if let Some(recv) = &r.receiver {
            let _ = write!(out, "{recv}.");
        }
        let _ = write!(out, "{} L{}:{}", r.name, r.line, r.column);
        if let Some(t) = &r.receiver_type {
            let _ = write!(out, " recv_type={t}");
        }
        out.push('\n');
    }
    for d in &f.diagnostics {
        let _ = writeln!(out, "diagnostic L{}: {}", d.line, d.message);
    }
    out
}
