//! Julia: a definition's head is written as a call (`function f(x)`, `f(x) = …`,
//! `macro m(ex)`), which is no call site: a site of the definition's own name between the
//! definition's start and the end of its name is dropped.

use navegador_model::{FileFacts, Label};
use tree_sitter::Node;

use crate::hooks::*;

pub(crate) static HOOKS: Hooks = Hooks {
    post: julia_post,
    prepare: no_prepare,
};

fn julia_post(_root: Node, _src: &str, facts: &mut FileFacts) {
    let heads: Vec<(&str, (u32, u32), (u32, u32))> = facts
        .symbols
        .iter()
        .filter(|s| matches!(s.label, Label::Function | Label::Method))
        .map(|s| (s.name.as_str(), (s.range.start_line, s.range.start_col), (s.name_range.end_line, s.name_range.end_col)))
        .collect();
    let mut heads_sorted = heads.clone();
    heads_sorted.sort_by_key(|h| h.1);
    let keep: Vec<bool> = facts
        .refs
        .iter()
        .map(|r| {
            let at = (r.line, r.column);
            !heads_sorted.iter().any(|&(name, start, end)| name == r.name && start <= at && at <= end)
        })
        .collect();
    let mut k = keep.iter();
    facts.refs.retain(|_| *k.next().unwrap());
}
