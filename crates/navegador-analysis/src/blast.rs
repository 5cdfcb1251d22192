//! Blast radius: what could break if a node changes. Its dependents are the nodes that
//! reach it through incoming CALLS, REFERENCES, IMPORTS, INHERITS, IMPLEMENTS and EXPOSES,
//! transitively to a depth, nearest first, each with the path that reaches it and its
//! owners. Unresolved call sites that use a name of the traversed region are counted, so
//! an empty answer never claims more than the graph could see.

use std::collections::{HashMap, HashSet, VecDeque};

use navegador_store::{NodeRow, Store};

use crate::bundle::site;
use crate::lookup::{context_node, display_name, resolve};
use crate::types::{BlastRadius, Dependent, Hop};
use crate::{clamp_depth, Limits, Result};

const DEPENDENCY_EDGES: &[&str] = &["CALLS", "REFERENCES", "IMPORTS", "INHERITS", "IMPLEMENTS", "EXPOSES"];

/// The dependents of the node `name` means, to `depth` hops. A class or a file counts
/// with its members: a change to a method of a class is a change to the class.
pub fn blast_radius(store: &Store, name: &str, file: Option<&str>, depth: u32, limits: &Limits) -> Result<BlastRadius> {
    let target = resolve(store, name, file, &[], "node")?;
    let mut notes = Vec::new();
    let depth = clamp_depth(depth, limits.max_depth, &mut notes);
    let mut rows: HashMap<i64, NodeRow> = HashMap::from([(target.id, target.clone())]);
    // Hop to each reached node: (previous node, edge type).
    let mut parent: HashMap<i64, Option<(i64, String)>> = HashMap::from([(target.id, None)]);
    let mut region: Vec<i64> = vec![target.id];
    let mut queue: VecDeque<(i64, u32)> = VecDeque::from([(target.id, 0)]);
    if matches!(target.label.as_str(), "Class" | "File" | "Module") {
        let members = if target.label == "File" {
            store.nodes_in_file(target.file_path.as_deref().unwrap_or(""))?
        } else {
            let mut v = Vec::new();
            for e in store.edges_of(target.id, true, Some("CONTAINS"))? {
                v.extend(store.node(e.dst)?);
            }
            v
        };
        for m in members {
            if matches!(m.label.as_str(), "Function" | "Method" | "Class" | "Variable") && !parent.contains_key(&m.id) {
                parent.insert(m.id, Some((target.id, "CONTAINS".into())));
                queue.push_back((m.id, 0));
                region.push(m.id);
                rows.insert(m.id, m);
            }
        }
    }
    let mut dependents: Vec<(i64, u32)> = Vec::new();
    let mut capped = false;
    while let Some((id, d)) = queue.pop_front() {
        if d >= depth {
            continue;
        }
        // Visit sources in content order, so paths do not depend on ingest order.
        let mut incoming = Vec::new();
        for e in store.edges_of(id, false, None)? {
            if DEPENDENCY_EDGES.contains(&e.edge_type.as_str()) {
                if let Some(src) = store.node(e.src)? {
                    incoming.push((e, src));
                }
            }
        }
        incoming.sort_by(|(ea, a), (eb, b)| {
            (&a.file_path, a.line_start, &a.qualified_name, &ea.edge_type).cmp(&(&b.file_path, b.line_start, &b.qualified_name, &eb.edge_type))
        });
        for (e, src) in incoming {
            if parent.contains_key(&e.src) {
                continue;
            }
            if src.label == "Import" {
                // An import is where a file depends on the node: continue from that file,
                // at the same distance.
                parent.insert(src.id, Some((id, e.edge_type.clone())));
                rows.insert(src.id, src.clone());
                for ie in store.edges_of(src.id, false, Some("IMPORTS"))? {
                    if parent.contains_key(&ie.src) {
                        continue;
                    }
                    let Some(f) = store.node(ie.src)? else { continue };
                    parent.insert(f.id, Some((src.id, "IMPORTS".into())));
                    rows.insert(f.id, f);
                    dependents.push((ie.src, d + 1));
                    region.push(ie.src);
                    queue.push_back((ie.src, d + 1));
                }
                continue;
            }
            parent.insert(src.id, Some((id, e.edge_type.clone())));
            rows.insert(src.id, src);
            dependents.push((e.src, d + 1));
            region.push(e.src);
            queue.push_back((e.src, d + 1));
        }
        if dependents.len() > limits.max_nodes * 4 {
            capped = true;
            break;
        }
    }
    dependents.sort_by_key(|&(id, d)| (d, rows[&id].file_path.clone(), rows[&id].line_start, rows[&id].qualified_name.clone(), id));
    let total = dependents.len();
    let truncated = capped || total > limits.max_nodes;
    if truncated {
        notes.push(format!("{total}{} dependents found, the nearest {} listed; lower depth or pick a narrower target", if capped { "+" } else { "" }, limits.max_nodes.min(total)));
    }
    let mut owners_of_file: HashMap<String, Vec<String>> = HashMap::new();
    let mut items = Vec::new();
    for &(id, d) in dependents.iter().take(limits.max_nodes) {
        let r = &rows[&id];
        let mut node = context_node(r);
        node.relation = Some("dependent".into());
        node.distance = Some(d);
        let mut path = Vec::new();
        let mut cur = Some(id);
        while let Some(c) = cur {
            let hop = parent.get(&c).cloned().flatten();
            path.push(Hop { id: c, name: display_name(&rows[&c]), via: hop.as_ref().map(|(_, t)| t.clone()) });
            cur = hop.map(|(p, _)| p);
        }
        path.reverse();
        let owners = owners(store, r, &mut owners_of_file)?;
        items.push(Dependent { node, path, owners });
    }
    // Unresolved sites that use a name of the region may be dependents the graph missed.
    let mut names: Vec<String> = Vec::new();
    let mut seen_names = HashSet::new();
    for id in &region {
        let r = &rows[id];
        if matches!(r.label.as_str(), "Function" | "Method" | "Class") {
            if let Some(n) = &r.name {
                if seen_names.insert(n.clone()) {
                    names.push(n.clone());
                }
            }
        }
    }
    const MAX_NAMES: usize = 200;
    if names.len() > MAX_NAMES {
        notes.push(format!("unresolved sites checked for the first {MAX_NAMES} of {} names in the region", names.len()));
        names.truncate(MAX_NAMES);
    }
    let mut unresolved_count = 0;
    let mut unresolved = Vec::new();
    for n in &names {
        let sites = store.sites_named(n, "unresolved")?;
        unresolved_count += sites.len();
        for s in sites {
            if unresolved.len() < limits.max_sites {
                let from = s.from_node.and_then(|id| store.node(id).ok().flatten()).map(|r| display_name(&r));
                unresolved.push(site(s, from));
            }
        }
    }
    if unresolved_count > 0 {
        notes.push(format!(
            "{unresolved_count} unresolved call sites use a name of the traversed region: they may be dependents the graph could not see"
        ));
    }
    Ok(BlastRadius { target: context_node(&target), items, total, truncated, depth, unresolved_count, unresolved, notes })
}

/// People and domains assigned to a node or to its file.
fn owners(store: &Store, r: &NodeRow, by_file: &mut HashMap<String, Vec<String>>) -> Result<Vec<String>> {
    let mut out = direct_owners(store, r.id)?;
    if let Some(f) = &r.file_path {
        if r.label != "File" {
            if !by_file.contains_key(f) {
                let v = match store.file_node(f)? {
                    Some(fr) => direct_owners(store, fr.id)?,
                    None => Vec::new(),
                };
                by_file.insert(f.clone(), v);
            }
            for o in &by_file[f] {
                if !out.contains(o) {
                    out.push(o.clone());
                }
            }
        }
    }
    Ok(out)
}

fn direct_owners(store: &Store, id: i64) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for t in ["ASSIGNED_TO", "BELONGS_TO"] {
        for e in store.edges_of(id, true, Some(t))? {
            if let Some(n) = store.node(e.dst)? {
                out.push(display_name(&n));
            }
        }
    }
    Ok(out)
}
