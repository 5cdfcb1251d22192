//! The graph's catalog (schema v6): how many nodes carry each label, how many relationships
//! each type has (and how many distinct nodes they leave and enter), which property keys
//! occur on the nodes of each label and the relationships of each type, and how many
//! reference sites have no edge (`unresolved`, `external`). One table, `graph_counts`, so a
//! reader gets the planner's statistics, the schema for query warnings and `db.labels()`,
//! and counts without scanning the graph.
//!
//! Rows are `(kind, name, key, n)`:
//! - `nodes`, ``, `` — all nodes; `label`, L, `` — nodes carrying L;
//! - `node_key`, L, k — nodes carrying L (`''`: nodes without a label) that have property k;
//! - `type`, T, `` — relationships of type T; `type_src` / `type_dst`, T, `` — distinct
//!   start / end nodes of those;
//! - `edge_key`, T, k — relationships of type T that have property k;
//! - `site`, status, `` — reference sites of that status without an edge; `site_src`, ``,
//!   `` — distinct enclosing symbols of those.
//!
//! A row may fall to 0 and stay; readers and dumps skip those.
//!
//! No triggers: the writer keeps the counts. Every write of the store's own write path
//! (ingest, bulk or incremental, the live index, the knowledge layer, Cypher) tells the
//! connection's [`Delta`] what it adds or removes: an insert from the row it writes, a
//! delete or an update from the rows it reads first (`nodes`, `edges`, `sites` below, with
//! the statement's own filter). The deltas are summed in memory per counter and written at
//! commit, one upsert per counter that moved ([`flush`]); an ingest's thousands of small
//! statements touch no counter row. A distinct count (`type_src`, `type_dst`, `site_src`)
//! moves by "the end has such rows now" minus "it had before" (now, less the transaction's
//! net additions, more than none), read per touched end at commit; past
//! [`MAX_ENDS`] touched ends (a bulk load) those counts are taken again in one grouped
//! scan. `clear` counts everything again ([`fill`]).

use std::collections::{BTreeMap, HashMap};

use navegador_graph::{GraphStats, Schema};

use crate::db::{params, Db, Params};
use crate::Result;

/// The `refs` statuses of sites that no edge stands for (counted in the catalog).
pub(crate) const SITE_STATUSES: &[&str] = &["unresolved", "external"];

/// Node properties kept in columns (the rest is JSON in `props`), as `(key, column)`.
const NODE_COLS: &[(&str, &str)] = &[
    ("name", "name"),
    ("qualified_name", "qualified_name"),
    ("file_path", "file_path"),
    ("line_start", "line_start"),
    ("line_end", "line_end"),
];
/// Relationship properties kept in columns, as `(key, column)`.
const EDGE_COLS: &[(&str, &str)] = &[("resolution", "resolution"), ("line", "line"), ("column", "col")];

/// Touched ends (relationship ends, enclosing symbols of sites) kept per transaction;
/// beyond, the distinct counts are taken again at commit.
pub(crate) const MAX_ENDS: usize = 50_000;

fn in_list(items: &[&str]) -> String {
    items.iter().map(|s| format!("'{s}'")).collect::<Vec<_>>().join(", ")
}

fn sites() -> String {
    in_list(SITE_STATUSES)
}

/// What a transaction changed in the catalog, not written yet.
#[derive(Default)]
pub(crate) struct Delta {
    /// `kind \x1f name \x1f key` -> change.
    counts: HashMap<String, i64>,
    key: String,
    /// Relationship types, interned for `ends`.
    types: Vec<String>,
    type_ids: HashMap<String, u32>,
    /// (end is the target, type, node) -> net relationships added.
    ends: HashMap<(bool, u32, i64), i64>,
    /// Enclosing symbol -> net sites without an edge added.
    site_srcs: HashMap<i64, i64>,
    recount_ends: bool,
    recount_sites: bool,
}

impl Delta {
    pub(crate) fn is_empty(&self) -> bool {
        self.counts.is_empty() && self.ends.is_empty() && self.site_srcs.is_empty() && !self.recount_ends && !self.recount_sites
    }

    fn add(&mut self, kind: &str, name: &str, key: &str, d: i64) {
        self.key.clear();
        self.key.push_str(kind);
        self.key.push('\x1f');
        self.key.push_str(name);
        self.key.push('\x1f');
        self.key.push_str(key);
        match self.counts.get_mut(self.key.as_str()) {
            Some(n) => *n += d,
            None => {
                self.counts.insert(self.key.clone(), d);
            }
        }
    }

    /// A node with these labels (the first `''` when it has none) and property keys.
    pub(crate) fn node<'a>(&mut self, labels: &[&str], keys: impl Iterator<Item = &'a str> + Clone, sign: i64) {
        self.add("nodes", "", "", sign);
        for (i, l) in labels.iter().enumerate() {
            if labels[..i].contains(l) {
                continue;
            }
            if !l.is_empty() {
                self.add("label", l, "", sign);
            }
            for k in keys.clone() {
                self.add("node_key", l, k, sign);
            }
        }
    }

    /// A relationship with these property keys.
    pub(crate) fn edge<'a>(&mut self, ty: &str, src: i64, dst: i64, keys: impl Iterator<Item = &'a str>, sign: i64) {
        self.add("type", ty, "", sign);
        for k in keys {
            self.add("edge_key", ty, k, sign);
        }
        if self.recount_ends {
            return;
        }
        let t = match self.type_ids.get(ty) {
            Some(t) => *t,
            None => {
                let t = self.types.len() as u32;
                self.types.push(ty.to_string());
                self.type_ids.insert(ty.to_string(), t);
                t
            }
        };
        *self.ends.entry((false, t, src)).or_default() += sign;
        *self.ends.entry((true, t, dst)).or_default() += sign;
        if self.ends.len() > MAX_ENDS {
            self.ends.clear();
            self.recount_ends = true;
        }
    }

    /// A reference site of `status` (counted when no edge stands for it).
    pub(crate) fn site(&mut self, status: &str, from_node: Option<i64>, sign: i64) {
        if !SITE_STATUSES.contains(&status) {
            return;
        }
        self.add("site", status, "", sign);
        if let (Some(f), false) = (from_node, self.recount_sites) {
            *self.site_srcs.entry(f).or_default() += sign;
            if self.site_srcs.len() > MAX_ENDS {
                self.site_srcs.clear();
                self.recount_sites = true;
            }
        }
    }
}

/// The property keys of a row: its non-null columns (`mask` bit i for column i) and the
/// keys of its JSON object whose value is not null.
fn row_keys(cols: &[(&str, &str)], mask: i64, props: Option<&str>) -> Vec<String> {
    let mut keys: Vec<String> =
        cols.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, (k, _))| k.to_string()).collect();
    if let Some(Ok(serde_json::Value::Object(m))) = props.map(serde_json::from_str::<serde_json::Value>) {
        keys.extend(m.into_iter().filter(|(k, v)| !v.is_null() && !cols.iter().any(|(c, _)| c == k)).map(|(k, _)| k));
    }
    keys
}

/// `(CASE WHEN c0 IS NULL THEN 0 ELSE 1 END) + ...`: which columns of a row are set.
fn mask_sql(cols: &[(&str, &str)]) -> String {
    cols.iter().enumerate().map(|(i, (_, c))| format!("(CASE WHEN {c} IS NULL THEN 0 ELSE {} END)", 1 << i)).collect::<Vec<_>>().join(" + ")
}

/// Counts (`sign` 1) or uncounts (-1) the nodes matching `filter` (over `nodes`, unaliased):
/// before a statement deletes them, or around one that changes them.
pub(crate) fn nodes(db: &Db, filter: &str, p: Params<'_>, sign: i64) -> Result<()> {
    let extra = if db.is_pg() {
        "(SELECT string_agg(label, chr(31)) FROM node_labels WHERE node = nodes.id)"
    } else {
        "(SELECT group_concat(label, char(31)) FROM node_labels WHERE node = nodes.id)"
    };
    let sql = format!("SELECT label, {}, props, {extra} FROM nodes WHERE {filter}", mask_sql(NODE_COLS));
    let mut rows: Vec<(String, i64, Option<String>, Option<String>)> = Vec::new();
    db.prepare_cached(&sql)?.for_each(p, |r| {
        rows.push((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?));
        Ok(())
    })?;
    let mut d = db.catalog().borrow_mut();
    for (label, mask, props, extra) in rows {
        let keys = row_keys(NODE_COLS, mask, props.as_deref());
        let mut labels = vec![label.as_str()];
        labels.extend(extra.as_deref().unwrap_or("").split('\x1f').filter(|l| !l.is_empty()));
        d.node(&labels, keys.iter().map(String::as_str), sign);
    }
    Ok(())
}

/// [`nodes`] for relationships (over `edges`, unaliased).
pub(crate) fn edges(db: &Db, filter: &str, p: Params<'_>, sign: i64) -> Result<()> {
    let sql = format!("SELECT type, src, dst, {}, props FROM edges WHERE {filter}", mask_sql(EDGE_COLS));
    let mut rows: Vec<(String, i64, i64, i64, Option<String>)> = Vec::new();
    db.prepare_cached(&sql)?.for_each(p, |r| {
        rows.push((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?));
        Ok(())
    })?;
    let mut d = db.catalog().borrow_mut();
    for (ty, src, dst, mask, props) in rows {
        let keys = row_keys(EDGE_COLS, mask, props.as_deref());
        d.edge(&ty, src, dst, keys.iter().map(String::as_str), sign);
    }
    Ok(())
}

/// [`nodes`] for reference sites (over `refs`, unaliased).
pub(crate) fn sites_of(db: &Db, filter: &str, p: Params<'_>, sign: i64) -> Result<()> {
    let sql = format!("SELECT status, from_node FROM refs WHERE status IN ({}) AND ({filter})", sites());
    let mut rows: Vec<(String, Option<i64>)> = Vec::new();
    db.prepare_cached(&sql)?.for_each(p, |r| {
        rows.push((r.get(0)?, r.get(1)?));
        Ok(())
    })?;
    let mut d = db.catalog().borrow_mut();
    for (status, from) in rows {
        d.site(&status, from, sign);
    }
    Ok(())
}

/// The property keys of a relationship the ingest writes (its columns only).
pub(crate) fn ingest_edge_keys(resolution: bool, site: bool) -> impl Iterator<Item = &'static str> {
    [("resolution", resolution), ("line", site), ("column", site)].into_iter().filter(|(_, on)| *on).map(|(k, _)| k)
}

/// The property keys of a node the ingest writes.
pub(crate) fn ingest_node_keys<'a>(
    cols: [bool; 5],
    props: &'a serde_json::Map<String, serde_json::Value>,
) -> impl Iterator<Item = &'a str> + Clone {
    NODE_COLS
        .iter()
        .zip(cols)
        .filter(|(_, on)| *on)
        .map(|((k, _), _)| *k)
        .chain(props.iter().filter(|(k, v)| !v.is_null() && !NODE_COLS.iter().any(|(c, _)| c == k)).map(|(k, _)| k.as_str()))
}

/// Writes a transaction's [`Delta`] (the connection's, taken): the distinct counts first
/// (they read the tables as they are now), then one upsert per counter that moved.
pub(crate) fn flush(db: &Db) -> Result<()> {
    let mut d = std::mem::take(&mut *db.catalog().borrow_mut());
    if d.is_empty() {
        return Ok(());
    }
    let pg = db.is_pg();
    let mut absolute: Vec<(String, String, i64)> = Vec::new();
    if d.recount_ends {
        let mut st = db.prepare("SELECT type, count(DISTINCT src), count(DISTINCT dst) FROM edges GROUP BY type")?;
        st.for_each(params![], |r| {
            let t: String = r.get(0)?;
            absolute.push(("type_src".into(), t.clone(), r.get(1)?));
            absolute.push(("type_dst".into(), t, r.get(2)?));
            Ok(())
        })?;
    } else {
        let ends: Vec<((bool, u32, i64), i64)> = d.ends.iter().filter(|(_, n)| **n != 0).map(|(k, n)| (*k, *n)).collect();
        for target in [false, true] {
            let col = if target { "dst" } else { "src" };
            let touched: Vec<&((bool, u32, i64), i64)> = ends.iter().filter(|((t, _, _), _)| *t == target).collect();
            let now = end_counts(db, pg, &format!("edges WHERE {col} = ?1 AND type = ?2"), &touched, &d.types)?;
            for (((_, t, _), net), now) in touched.iter().zip(now) {
                let moved = (now > 0) as i64 - ((now - net) > 0) as i64;
                if moved != 0 {
                    let kind = if target { "type_dst" } else { "type_src" };
                    let name = d.types[*t as usize].clone();
                    d.add(kind, &name, "", moved);
                }
            }
        }
    }
    if d.recount_sites {
        let n: i64 = db.query_row(
            &format!("SELECT count(DISTINCT from_node) FROM refs WHERE status IN ({}) AND from_node IS NOT NULL", sites()),
            params![],
            |r| r.get(0),
        )?;
        absolute.push(("site_src".into(), String::new(), n));
    } else {
        let touched: Vec<((bool, u32, i64), i64)> =
            d.site_srcs.iter().filter(|(_, n)| **n != 0).map(|(f, n)| ((false, 0, *f), *n)).collect();
        let refs: Vec<&((bool, u32, i64), i64)> = touched.iter().collect();
        let now = end_counts(db, pg, &format!("refs WHERE from_node = ?1 AND status IN ({})", sites()), &refs, &[])?;
        for ((_, net), now) in refs.iter().zip(now) {
            let moved = (now > 0) as i64 - ((now - net) > 0) as i64;
            if moved != 0 {
                d.add("site_src", "", "", moved);
            }
        }
    }
    let mut add = db.prepare_cached(
        "INSERT INTO graph_counts(kind, name, key, n) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(kind, name, key) DO UPDATE SET n = graph_counts.n + excluded.n",
    )?;
    let recounted = |kind: &str| (d.recount_ends && (kind == "type_src" || kind == "type_dst")) || (d.recount_sites && kind == "site_src");
    for (k, n) in &d.counts {
        let mut parts = k.split('\x1f');
        let (kind, name, key) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        if *n != 0 && !recounted(kind) {
            add.execute(params![kind, name, key, n])?;
        }
    }
    drop(add);
    if !absolute.is_empty() {
        if d.recount_ends {
            db.execute("DELETE FROM graph_counts WHERE kind IN ('type_src', 'type_dst')", params![])?;
        }
        if d.recount_sites {
            db.execute("DELETE FROM graph_counts WHERE kind = 'site_src'", params![])?;
        }
        let mut set = db.prepare_cached("INSERT INTO graph_counts(kind, name, key, n) VALUES (?1, ?2, ?3, ?4)")?;
        for (kind, name, n) in absolute {
            set.execute(params![kind, name, "", n])?;
        }
    }
    Ok(())
}

/// How many rows of `from` (`?1` the end, `?2` the type when `types` is not empty) each
/// touched end has now, counting no further than what tells "none" from "some before"
/// (`net` + 1). PostgreSQL: one statement per list of ends, not a round trip each.
fn end_counts(db: &Db, pg: bool, from: &str, ends: &[&((bool, u32, i64), i64)], types: &[String]) -> Result<Vec<i64>> {
    let limit = |net: i64| net.max(0) + 1;
    if !pg {
        let sql = format!("SELECT count(*) FROM (SELECT 1 FROM {from} LIMIT ?3)");
        let sql = if types.is_empty() { sql.replace("?3", "?2") } else { sql };
        let mut st = db.prepare_cached(&sql)?;
        let mut out = Vec::with_capacity(ends.len());
        for ((_, t, node), net) in ends {
            let n: i64 = if types.is_empty() {
                st.query_row(params![node, limit(*net)], |r| r.get(0))?
            } else {
                st.query_row(params![node, types[*t as usize].as_str(), limit(*net)], |r| r.get(0))?
            };
            out.push(n);
        }
        return Ok(out);
    }
    let mut out = Vec::with_capacity(ends.len());
    for chunk in ends.chunks(10_000) {
        let list: Vec<serde_json::Value> = chunk
            .iter()
            .map(|((_, t, node), net)| {
                let ty = types.get(*t as usize).cloned().unwrap_or_default();
                serde_json::json!([node, ty, limit(*net)])
            })
            .collect();
        let inner = from.replace("?1", "(x.value->>0)::bigint").replace("?2", "(x.value->>1)");
        let sql = format!(
            "SELECT (SELECT count(*) FROM (SELECT 1 FROM {inner} LIMIT (x.value->>2)::bigint) z)
             FROM json_array_elements(CAST(?1 AS json)) WITH ORDINALITY AS x(value, i) ORDER BY x.i"
        );
        let mut st = db.prepare(&sql)?;
        st.for_each(params![serde_json::Value::Array(list).to_string()], |r| {
            out.push(r.get(0)?);
            Ok(())
        })?;
    }
    Ok(out)
}

// ------------------------------------------------------------------------------------
// Filling and reading

/// Counts everything from scratch (after a clear): the same numbers the writers keep, in a
/// few grouped scans; what the transaction counted before is dropped.
pub(crate) fn fill(db: &Db) -> Result<()> {
    db.send_pending()?;
    *db.catalog().borrow_mut() = Delta::default();
    let pg = db.is_pg();
    let s = sites();
    db.execute_batch("DELETE FROM graph_counts")?;
    let mut rows: Vec<(String, String, String, i64)> = Vec::new();
    let collect = |sql: &str, rows: &mut Vec<(String, String, String, i64)>| -> Result<()> {
        let mut st = db.prepare(sql)?;
        st.for_each(params![], |r| {
            rows.push((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?));
            Ok(())
        })
    };
    collect("SELECT 'nodes', '', '', count(*) FROM nodes", &mut rows)?;
    collect(
        "SELECT 'label', label, '', count(*) FROM (SELECT id, label FROM nodes WHERE label <> '' UNION SELECT node, label FROM node_labels) l GROUP BY label",
        &mut rows,
    )?;
    // Column keys per label in one pass; the extra labels' nodes joined in.
    let counts: Vec<String> = NODE_COLS.iter().map(|(_, c)| format!("count(n.{c})")).collect();
    let per_label = |from: &str, label: &str, rows: &mut Vec<(String, String, String, i64)>| -> Result<()> {
        let sql = format!("SELECT {label}, {} FROM {from} GROUP BY {label}", counts.join(", "));
        let mut st = db.prepare(&sql)?;
        st.for_each(params![], |r| {
            let l: String = r.get(0)?;
            for (i, (k, _)) in NODE_COLS.iter().enumerate() {
                rows.push(("node_key".into(), l.clone(), k.to_string(), r.get(1 + i)?));
            }
            Ok(())
        })
    };
    let extras = "(SELECT DISTINCT node, label FROM node_labels) x JOIN nodes n ON n.id = x.node AND n.label <> x.label";
    per_label("nodes n", "n.label", &mut rows)?;
    per_label(extras, "x.label", &mut rows)?;
    let names: Vec<&str> = NODE_COLS.iter().map(|(k, _)| *k).collect();
    let json_keys = |from: &str, label: &str| {
        if pg {
            format!(
                "SELECT 'node_key', {label}, j.key, count(*) FROM {from}, jsonb_each(n.props) j
                 WHERE jsonb_typeof(j.value) <> 'null' AND j.key NOT IN ({}) GROUP BY {label}, j.key",
                in_list(&names)
            )
        } else {
            format!(
                "SELECT 'node_key', {label}, j.key, count(*) FROM {from}, json_each(n.props) j
                 WHERE j.type <> 'null' AND j.key NOT IN ({}) GROUP BY {label}, j.key",
                in_list(&names)
            )
        }
    };
    collect(&json_keys("nodes n", "n.label"), &mut rows)?;
    collect(&json_keys(extras, "x.label"), &mut rows)?;
    // Relationships: counts, distinct ends and column keys per type in one pass.
    {
        let counts: Vec<String> = EDGE_COLS.iter().map(|(_, c)| format!("count({c})")).collect();
        let sql = format!(
            "SELECT type, count(*), count(DISTINCT src), count(DISTINCT dst), {} FROM edges GROUP BY type",
            counts.join(", ")
        );
        let mut st = db.prepare(&sql)?;
        st.for_each(params![], |r| {
            let t: String = r.get(0)?;
            rows.push(("type".into(), t.clone(), String::new(), r.get(1)?));
            rows.push(("type_src".into(), t.clone(), String::new(), r.get(2)?));
            rows.push(("type_dst".into(), t.clone(), String::new(), r.get(3)?));
            for (i, (k, _)) in EDGE_COLS.iter().enumerate() {
                rows.push(("edge_key".into(), t.clone(), k.to_string(), r.get(4 + i)?));
            }
            Ok(())
        })?;
    }
    let enames: Vec<&str> = EDGE_COLS.iter().map(|(k, _)| *k).collect();
    let edge_json = if pg {
        format!(
            "SELECT 'edge_key', e.type, j.key, count(*) FROM edges e, jsonb_each(e.props) j
             WHERE e.props IS NOT NULL AND jsonb_typeof(j.value) <> 'null' AND j.key NOT IN ({}) GROUP BY e.type, j.key",
            in_list(&enames)
        )
    } else {
        format!(
            "SELECT 'edge_key', e.type, j.key, count(*) FROM edges e, json_each(e.props) j
             WHERE e.props IS NOT NULL AND j.type <> 'null' AND j.key NOT IN ({}) GROUP BY e.type, j.key",
            in_list(&enames)
        )
    };
    collect(&edge_json, &mut rows)?;
    collect(&format!("SELECT 'site', status, '', count(*) FROM refs WHERE status IN ({s}) GROUP BY status"), &mut rows)?;
    collect(
        &format!(
            "SELECT 'site_src', '', '', count(DISTINCT from_node) FROM refs WHERE status IN ({s}) AND from_node IS NOT NULL"
        ),
        &mut rows,
    )?;
    let mut ins = db.prepare("INSERT INTO graph_counts(kind, name, key, n) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT(kind, name, key) DO UPDATE SET n = graph_counts.n + excluded.n")?;
    for (kind, name, key, n) in rows {
        if n != 0 {
            ins.execute(params![kind, name, key, n])?;
        }
    }
    Ok(())
}

/// The catalog's non-zero rows, sorted.
pub(crate) fn rows(db: &Db) -> Result<Vec<(String, String, String, i64)>> {
    let mut st = db.prepare_cached("SELECT kind, name, key, n FROM graph_counts WHERE n <> 0 ORDER BY kind, name, key")?;
    let mut out = Vec::new();
    st.for_each(params![], |r| {
        out.push((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?));
        Ok(())
    })?;
    Ok(out)
}

/// The catalog as the graph traits report it.
pub(crate) fn read(db: &Db, extra: &dyn Fn(&mut GraphStats, &mut Schema, &Counts)) -> Result<(GraphStats, Schema)> {
    // inside a write transaction: what it changed so far is written first
    if !db.catalog().borrow().is_empty() || db.is_pg() {
        db.send_pending()?;
        flush(db)?;
    }
    let c = Counts::from_rows(rows(db)?);
    let mut st = GraphStats { node_count: c.get("nodes", "", "") as u64, ..Default::default() };
    let mut sc = Schema::default();
    for ((kind, name, key), n) in &c.0 {
        let n = *n as u64;
        match kind.as_str() {
            "label" => {
                st.label_counts.insert(name.clone(), n);
            }
            "type" => {
                st.edge_counts.insert(name.clone(), n);
                let f = n as f64;
                st.avg_out_degree.insert(name.clone(), f / c.get("type_src", name, "").max(1) as f64);
                st.avg_in_degree.insert(name.clone(), f / c.get("type_dst", name, "").max(1) as f64);
            }
            "node_key" => sc.label_property_keys.entry(name.clone()).or_default().push(key.clone()),
            "edge_key" => sc.type_property_keys.entry(name.clone()).or_default().push(key.clone()),
            _ => {}
        }
    }
    extra(&mut st, &mut sc, &c);
    sc.labels = st.label_counts.keys().cloned().collect();
    sc.rel_types = st.edge_counts.keys().cloned().collect();
    let union = |m: &BTreeMap<String, Vec<String>>| {
        let mut all: Vec<String> = m.values().flatten().cloned().collect();
        all.sort();
        all.dedup();
        all
    };
    sc.node_property_keys = union(&sc.label_property_keys);
    sc.edge_property_keys = union(&sc.type_property_keys);
    Ok((st, sc))
}

/// The catalog's non-zero rows by `(kind, name, key)`.
pub(crate) struct Counts(BTreeMap<(String, String, String), i64>);

impl Counts {
    fn from_rows(rows: Vec<(String, String, String, i64)>) -> Counts {
        Counts(rows.into_iter().filter(|r| r.3 > 0).map(|(k, n, key, c)| ((k, n, key), c)).collect())
    }

    pub(crate) fn get(&self, kind: &str, name: &str, key: &str) -> i64 {
        self.0.get(&(kind.to_string(), name.to_string(), key.to_string())).copied().unwrap_or(0)
    }

}
