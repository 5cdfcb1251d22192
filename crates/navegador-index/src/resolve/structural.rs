//! Structural interfaces (Go): a type implements an interface when its method set covers
//! the interface's, with nothing in the source saying so. The `IMPLEMENTS` edges are
//! derived from the table once every site is resolved (embedding is `INHERITS`, resolved
//! with the other bases), from the whole table each time, so a full and an incremental
//! ingest derive the same ones.
//!
//! A type's method set is its methods and those promoted from what it embeds, at any
//! depth (the shallower one wins); an interface's is its own and its embedded
//! interfaces'. Receivers are not told apart: the edge says that `T` or `*T` implements
//! (Go's method set of `*T` holds both kinds). Methods match by name and, where both
//! signatures say, by arity. An interface that embeds one outside the workspace, or has
//! no methods (every type satisfies it), gets no edges; one with an unexported method is
//! implemented only in its own package.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use navegador_model::Label;

use super::table::Table;

/// A method set: name -> (arity where the signature says it, exported).
type Methods<'a> = HashMap<&'a str, (Option<(u32, Option<u32>)>, bool)>;

fn is_interface(t: &Table, i: usize) -> bool {
    t.syms[i].kind.as_deref() == Some("interface")
}

/// The method set of the type at slot `ty`: own methods first, then what its bases
/// promote.
fn method_set(t: &Table, ty: usize) -> Methods<'_> {
    let mut out = Methods::default();
    let mut seen: HashSet<i64> = HashSet::default();
    let mut level = vec![ty];
    while !level.is_empty() {
        let mut next = Vec::new();
        for i in level {
            let id = t.syms[i].id;
            if !seen.insert(id) {
                continue;
            }
            for c in t.own_members(i) {
                let m = &t.syms[c];
                if m.label == Label::Method {
                    out.entry(m.name.as_str()).or_insert((t.sym_arity[c], m.is_exported));
                }
            }
            next.extend(t.bases.get(&id).into_iter().flatten().filter_map(|b| t.by_id.get(b).copied()));
        }
        level = next;
    }
    out
}

/// The (type, interface) node ids of every structural implementation, sorted.
pub(crate) fn implements(t: &Table) -> Vec<(i64, i64)> {
    let (mut ifaces, mut types) = (Vec::new(), Vec::new());
    for (i, s) in t.syms.iter().enumerate() {
        // (A patched table keeps the slots of removed definitions: not live.)
        if s.label != Label::Class || !t.sym_rules[i].structural_interfaces || t.by_id.get(&s.id) != Some(&i) {
            continue;
        }
        if is_interface(t, i) {
            ifaces.push(i);
        } else {
            types.push(i);
        }
    }
    let sets: Vec<(usize, Methods<'_>)> =
        types.into_iter().map(|i| (i, method_set(t, i))).filter(|(_, m)| !m.is_empty()).collect();
    let mut by_method: HashMap<&str, Vec<usize>> = HashMap::default();
    for (k, (_, m)) in sets.iter().enumerate() {
        for name in m.keys() {
            by_method.entry(name).or_default().push(k);
        }
    }
    let mut out = Vec::new();
    for iface in ifaces {
        let id = t.syms[iface].id;
        let wanted = method_set(t, iface);
        if wanted.is_empty() || t.outside.contains(&id) {
            continue;
        }
        let private = wanted.values().any(|&(_, exported)| !exported);
        let home = t.module_key(&t.syms[iface].file_path);
        // The types that have the interface's rarest method are the only candidates.
        let Some(cands) = wanted.keys().map(|n| by_method.get(n)).min_by_key(|c| c.map_or(0, Vec::len)).flatten() else {
            continue;
        };
        for &k in cands {
            let (ty, have) = &sets[k];
            let s = &t.syms[*ty];
            if t.sym_fam[*ty] != t.sym_fam[iface]
                || (private && t.module_key(&s.file_path) != home)
                || t.bases.get(&s.id).is_some_and(|b| b.contains(&id))
            {
                continue;
            }
            let covers = wanted.iter().all(|(name, (arity, _))| {
                have.get(name).is_some_and(|(a, _)| arity.is_none() || a.is_none() || a == arity)
            });
            if covers {
                out.push((s.id, id));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
