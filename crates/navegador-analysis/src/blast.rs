//! Blast radius: what could break if a node changes. Its dependents are the nodes that
//! reach it through incoming CALLS, REFERENCES, IMPORTS, INHERITS, IMPLEMENTS, EXPOSES,
//! HTTP_CALLS (a client function requesting an endpoint: across services) and decorator
//! applications, transitively to a depth. The answer groups them by distance and
//! relation, lists the ones in source code nearest first (one page), puts test code apart
//! (per file), collapses files that depend only by importing into per-module counts, and
//! names the owners of the affected code. Ambiguous edges are counted, not followed, and
//! unresolved call sites that use a name of the traversed region are counted, so an empty
//! answer never claims more than the graph could see.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use navegador_model::is_test_path;
use navegador_store::{NodeRow, SiteRow, Store};

use crate::bundle::{family_of, site};
use crate::decorators::applications;
use crate::lookup::{context_node, display_name, related_node, resolve};
use crate::page::{page_notes, Page};
use crate::types::{BlastRadius, Dependent, DependentGroup, Hop, OwnerCount, PlaceCount};
use crate::{clamp_depth, AnalysisError, Limits, Options, Result, Target};

const DEPENDENCY_EDGES: &[&str] = &["CALLS", "REFERENCES", "IMPORTS", "INHERITS", "IMPLEMENTS", "EXPOSES", "HTTP_CALLS", "GRAPHQL_CALLS"];
/// How a dependent depends, by the relationship that reached it (in answer order).
const RELATIONS: &[(&str, &str)] = &[
    ("CALLS", "caller"),
    ("INHERITS", "subclass"),
    ("IMPLEMENTS", "implementation"),
    ("REFERENCES", "reference"),
    ("DECORATES", "decorated"),
    ("EXPOSES", "endpoint"),
    ("HTTP_CALLS", "http_caller"),
    ("GRAPHQL_CALLS", "graphql_caller"),
    ("IMPORTS", "importer"),
];

fn relation_of(edge_type: &str) -> &'static str {
    RELATIONS.iter().find(|(t, _)| *t == edge_type).map_or("reference", |(_, r)| r)
}

/// A node the traversal reached.
struct Reached {
    row: NodeRow,
    distance: u32,
    /// The node it depends on, the relationship and its resolution (`None` for the
    /// target and its members).
    parent: Option<(i64, String, Option<String>)>,
    /// A file reached only by importing (or importing an importer).
    import_only: bool,
}

/// The dependents of the node `target` means, to `opts.depth` hops. A class or a file
/// counts with its members: a change to a method of a class is a change to the class.
pub fn blast_radius(store: &Store, target: &Target<'_>, opts: &Options, limits: &Limits) -> Result<BlastRadius> {
    let found = resolve(store, target, &[], "node")?;
    let target = found.row;
    let mut notes = found.notes;
    let depth = clamp_depth(opts.depth, limits.max_depth, &mut notes);
    let page = Page::new(opts, limits, &mut notes);
    if let Some(r) = opts.relation.as_deref() {
        if r != "unresolved" && !RELATIONS.iter().any(|(_, x)| *x == r) {
            let all: Vec<&str> = RELATIONS.iter().map(|(_, x)| *x).collect();
            return Err(AnalysisError::BadArgument(format!(
                "unknown relation `{r}` for `blast_radius`; one of {}, unresolved",
                all.join(", ")
            )));
        }
    }
    let decorator_names: HashSet<String> = store.decorator_names()?.into_iter().collect();
    let mut reached: HashMap<i64, Reached> = HashMap::new();
    reached.insert(target.id, Reached { row: target.clone(), distance: 0, parent: None, import_only: false });
    let mut region: Vec<i64> = vec![target.id];
    let mut queue: VecDeque<i64> = VecDeque::from([target.id]);
    if matches!(target.label.as_str(), "Class" | "File" | "Module") {
        let members = if target.label == "File" {
            store.nodes_in_file(target.file_path.as_deref().unwrap_or(""))?
        } else {
            let ids: Vec<i64> = store.edges_of(target.id, true, Some("CONTAINS"))?.iter().map(|e| e.dst).collect();
            store.nodes_by_ids(&ids)?
        };
        for m in members {
            if matches!(m.label.as_str(), "Function" | "Method" | "Class" | "Variable") && !reached.contains_key(&m.id) {
                queue.push_back(m.id);
                region.push(m.id);
                reached.insert(m.id, Reached { row: m, distance: 0, parent: Some((target.id, "CONTAINS".into(), None)), import_only: false });
            }
        }
    }
    let mut dependents: Vec<i64> = Vec::new();
    let mut ambiguous = 0usize;
    let mut capped = false;
    let excluded = |r: &NodeRow| opts.exclude_tests && r.file_path.as_deref().is_some_and(is_test_path);
    'bfs: while let Some(id) = queue.pop_front() {
        let (d, import_only) = (reached[&id].distance, reached[&id].import_only);
        if d >= depth {
            continue;
        }
        // (edge type, resolution, dependent) in content order, so paths do not depend on
        // ingest order.
        let mut incoming: Vec<(String, Option<String>, NodeRow)> = Vec::new();
        let edges: Vec<_> = store.edges_of(id, false, None)?.into_iter().filter(|e| DEPENDENCY_EDGES.contains(&e.edge_type.as_str())).collect();
        let srcs: HashMap<i64, NodeRow> =
            store.nodes_by_ids(&edges.iter().map(|e| e.src).collect::<Vec<_>>())?.into_iter().map(|n| (n.id, n)).collect();
        for e in edges {
            if !opts.min_resolution.admits(e.resolution.as_deref()) {
                ambiguous += 1;
                continue;
            }
            if let Some(src) = srcs.get(&e.src) {
                incoming.push((e.edge_type, e.resolution, src.clone()));
            }
        }
        // Decorator applications are REFERENCES edges from the decorated symbol, shown
        // as `decorated`.
        let row = &reached[&id].row;
        if row.name.as_deref().is_some_and(|n| decorator_names.contains(n)) {
            let decorated: HashSet<i64> = applications(store, row)?.into_iter().map(|a| a.decorated.id).collect();
            for (t, _, src) in incoming.iter_mut() {
                if t == "REFERENCES" && decorated.contains(&src.id) {
                    *t = "DECORATES".into();
                }
            }
        }
        incoming.sort_by(|(ta, _, a), (tb, _, b)| {
            (&a.file_path, a.line_start, &a.qualified_name, ta).cmp(&(&b.file_path, b.line_start, &b.qualified_name, tb))
        });
        for (edge_type, resolution, src) in incoming {
            if reached.contains_key(&src.id) || excluded(&src) {
                continue;
            }
            if src.label == "Import" {
                // An import is where a file depends on the node: continue from that file,
                // which depends only by importing.
                let hop = Some((id, edge_type.clone(), resolution.clone()));
                for ie in store.edges_of(src.id, false, Some("IMPORTS"))? {
                    if reached.contains_key(&ie.src) {
                        continue;
                    }
                    let Some(f) = store.node(ie.src)? else { continue };
                    if excluded(&f) {
                        continue;
                    }
                    reached.insert(f.id, Reached { row: f, distance: d + 1, parent: hop.clone(), import_only: true });
                    dependents.push(ie.src);
                    region.push(ie.src);
                    queue.push_back(ie.src);
                }
                continue;
            }
            let via_import = edge_type == "IMPORTS";
            let sid = src.id;
            reached.insert(sid, Reached { row: src, distance: d + 1, parent: Some((id, edge_type, resolution)), import_only: import_only || via_import });
            dependents.push(sid);
            region.push(sid);
            queue.push_back(sid);
            if dependents.len() >= limits.max_nodes {
                capped = true;
                break 'bfs;
            }
        }
    }
    let relation = |id: i64| reached[&id].parent.as_ref().map_or("reference", |(_, t, _)| relation_of(t));
    let rank = |r: &str| RELATIONS.iter().position(|(_, x)| *x == r).unwrap_or(usize::MAX);
    dependents.sort_by_key(|&id| {
        let r = &reached[&id];
        (r.distance, rank(relation(id)), r.row.file_path.clone(), r.row.line_start, r.row.qualified_name.clone(), id)
    });
    let total = dependents.len();
    // Counts by distance and relation, over every dependent.
    let mut groups: BTreeMap<(u32, usize, &str), usize> = BTreeMap::new();
    for &id in &dependents {
        let r = relation(id);
        *groups.entry((reached[&id].distance, rank(r), r)).or_default() += 1;
    }
    let groups: Vec<DependentGroup> =
        groups.into_iter().map(|((distance, _, relation), count)| DependentGroup { distance, relation: relation.to_string(), count }).collect();
    // Tests apart, import-only reach per module, the rest listed.
    let is_test = |id: i64| reached[&id].row.file_path.as_deref().is_some_and(is_test_path);
    let mut tests: BTreeMap<String, (usize, u32)> = BTreeMap::new();
    let mut imports: BTreeMap<String, (usize, u32)> = BTreeMap::new();
    let mut listed: Vec<i64> = Vec::new();
    for &id in &dependents {
        let r = &reached[&id];
        let file = r.row.file_path.clone().unwrap_or_default();
        if is_test(id) {
            let t = tests.entry(file).or_insert((0, r.distance));
            t.0 += 1;
        } else if r.import_only && !opts.include_imports {
            let dir = file.rsplit_once('/').map_or(".", |(d, _)| d).to_string();
            let m = imports.entry(dir).or_insert((0, r.distance));
            m.0 += 1;
            m.1 = m.1.min(r.distance);
        } else {
            listed.push(id);
        }
    }
    let places = |m: BTreeMap<String, (usize, u32)>| {
        let mut v: Vec<PlaceCount> = m.into_iter().map(|(place, (count, distance))| PlaceCount { place, count, distance }).collect();
        v.sort_by(|a, b| (a.distance, std::cmp::Reverse(a.count), &a.place).cmp(&(b.distance, std::cmp::Reverse(b.count), &b.place)));
        v
    };
    let (tests, imports) = (places(tests), places(imports));
    let tests_total: usize = tests.iter().map(|t| t.count).sum();
    let imports_total: usize = imports.iter().map(|t| t.count).sum();
    // Owners: of every dependent (by file, and directly for the listed ones).
    let mut owners_of_file: HashMap<String, Vec<String>> = HashMap::new();
    let mut owner_counts: HashMap<String, usize> = HashMap::new();
    for &id in &dependents {
        if let Some(f) = reached[&id].row.file_path.clone() {
            for o in file_owners(store, &f, &mut owners_of_file)? {
                *owner_counts.entry(o).or_default() += 1;
            }
        }
    }
    let only = opts.relation.as_deref();
    let shown: Vec<i64> = listed.iter().copied().filter(|&id| only.is_none_or(|o| o == relation(id))).collect();
    let mut items = Vec::new();
    for &id in &shown[page.range(shown.len())] {
        let r = &reached[&id];
        let mut node = related_node(&r.row, target.props.get("language").and_then(|v| v.as_str()));
        node.relation = Some(relation(id).to_string());
        node.distance = Some(r.distance);
        let (pid, via, res) = r.parent.clone().unwrap_or((target.id, String::new(), None));
        if res.as_deref() == Some("ambiguous") {
            node.resolution = Some("ambiguous".into());
        }
        let depends_on = Hop { id: pid, name: display_name(&reached[&pid].row), via: Some(via), resolution: res };
        let path = opts.paths.then(|| {
            let mut path = Vec::new();
            let mut cur = Some(id);
            while let Some(c) = cur {
                let hop = reached.get(&c).and_then(|x| x.parent.clone());
                path.push(Hop {
                    id: c,
                    name: display_name(&reached[&c].row),
                    via: hop.as_ref().map(|(_, t, _)| t.clone()),
                    resolution: hop.as_ref().and_then(|(_, _, r)| r.clone()),
                });
                cur = hop.map(|(p, _, _)| p).filter(|p| reached.contains_key(p) && *p != c);
            }
            path.reverse();
            path
        });
        let mut owners = direct_owners(store, id)?;
        if let Some(f) = &r.row.file_path {
            for o in file_owners(store, f, &mut owners_of_file)? {
                if !owners.contains(&o) {
                    owners.push(o);
                }
            }
        }
        for o in &owners {
            owner_counts.entry(o.clone()).or_insert(1);
        }
        items.push(Dependent { node, depends_on, path, owners });
    }
    let mut owners: Vec<OwnerCount> = owner_counts.into_iter().map(|(name, dependents)| OwnerCount { name, dependents }).collect();
    owners.sort_by(|a, b| (std::cmp::Reverse(a.dependents), &a.name).cmp(&(std::cmp::Reverse(b.dependents), &b.name)));
    owners.truncate(page.limit.max(10));
    // Unresolved sites, in the target's language, that use a name of the region: they
    // may be dependents the graph missed.
    let family = target.file_path.as_deref().and_then(family_of);
    let mut names: Vec<String> = Vec::new();
    let mut seen_names = HashSet::new();
    for id in &region {
        let r = &reached[id].row;
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
    let mut sites: Vec<SiteRow> = Vec::new();
    let mut other_language = 0;
    for n in &names {
        for s in store.sites_named(n, "unresolved")? {
            if family.is_some() && family_of(&s.file_path) != family {
                other_language += 1;
            } else {
                sites.push(s);
            }
        }
    }
    let unresolved_count = sites.len();
    let unresolved = if only.is_none_or(|o| o == "unresolved") {
        sites[page.range(sites.len())]
            .iter()
            .cloned()
            .map(|s| {
                let from = s.from_node.and_then(|id| store.node(id).ok().flatten()).map(|r| display_name(&r));
                site(s, from)
            })
            .collect()
    } else {
        Vec::new()
    };
    // What was left out and how to get it.
    let mut lists: Vec<(&str, usize)> = Vec::new();
    if only.is_none_or(|o| o != "unresolved") {
        lists.push(("items", shown.len()));
        if only.is_none() {
            lists.push(("tests", tests.len()));
            lists.push(("imports", imports.len()));
        }
    }
    if only.is_none_or(|o| o == "unresolved") {
        lists.push(("unresolved", unresolved_count));
    }
    let next_offset = page_notes(&page, &lists, "relation", &mut notes);
    let (tests, imports) = if only.is_none() {
        (tests[page.range(tests.len())].to_vec(), imports[page.range(imports.len())].to_vec())
    } else {
        (Vec::new(), Vec::new())
    };
    if tests_total > 0 {
        notes.push(format!(
            "{tests_total} dependents in test code, counted per file in `tests`{}",
            if opts.exclude_tests { "" } else { " (exclude_tests=true leaves test code out of the traversal)" }
        ));
    }
    if imports_total > 0 {
        notes.push(format!(
            "{imports_total} files depend only by importing (directly or through other imports), counted per directory in `imports`; include_imports=true lists them"
        ));
    }
    if ambiguous > 0 {
        notes.push(format!(
            "{ambiguous} ambiguous edges not followed (calls whose name matches several definitions, e.g. a method called on a receiver of unknown type); pass include_ambiguous=true to follow them, marked"
        ));
    }
    if capped {
        notes.push(format!("traversal stopped at {} dependents: totals are lower bounds; lower depth or pick a narrower target", limits.max_nodes));
    }
    if unresolved_count > 0 {
        notes.push(format!(
            "{unresolved_count} unresolved call sites use a name of the traversed region: they may be dependents the graph could not see"
        ));
    }
    if other_language > 0 {
        notes.push(format!("{other_language} unresolved sites in other languages with those names left out"));
    }
    Ok(BlastRadius {
        target: context_node(&target),
        items,
        total,
        groups,
        tests,
        tests_total,
        imports,
        imports_total,
        owners,
        truncated: capped,
        depth,
        limit: page.limit,
        offset: page.offset,
        next_offset,
        ambiguous_count: ambiguous,
        unresolved_count,
        unresolved,
        notes,
    })
}

/// People and domains assigned to a file (cached per file).
fn file_owners(store: &Store, file: &str, by_file: &mut HashMap<String, Vec<String>>) -> Result<Vec<String>> {
    if !by_file.contains_key(file) {
        let v = match store.file_node(file)? {
            Some(fr) => direct_owners(store, fr.id)?,
            None => Vec::new(),
        };
        by_file.insert(file.to_string(), v);
    }
    Ok(by_file[file].clone())
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
