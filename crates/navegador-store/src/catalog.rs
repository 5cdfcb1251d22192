//! The graph's catalog (schema v4): how many nodes carry each label, how many relationships
//! each type has (and how many distinct nodes they leave and enter), which property keys
//! occur on the nodes of each label and the relationships of each type, and how many
//! reference sites have no edge (`unresolved`, `external`). One table, `graph_counts`, kept
//! exact by triggers on `nodes`, `node_labels`, `edges` and `refs`, so every writer keeps
//! it right (ingest, Cypher, the knowledge layer) and a reader gets the planner's
//! statistics, the schema for query warnings and `db.labels()`, and counts without
//! scanning the graph. A full build's bulk load drops the triggers with the secondary
//! indexes and `fill` counts everything once.
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
//! SQLite has only row triggers; each updates its counter rows in place (a B-tree write).
//! A row's delete decrements `type_src` when no other relationship of the type leaves the
//! node (BEFORE the row goes), an insert increments it when none did (AFTER, the row
//! excluded). PostgreSQL's are statement triggers over transition tables: an ingest's batch
//! of thousands of rows changes each counter once (a row trigger there leaves a row
//! version per update that the next update walks, quadratic within a transaction). A
//! distinct count changes by "a row has the value now" minus "rows now, less the
//! statement's new rows, plus its old rows, were more than none". Both keep the same
//! numbers (the conformance suite and the PostgreSQL dump tests compare them).

use std::collections::BTreeMap;

use navegador_graph::{GraphStats, Schema};

use crate::db::{params, Db};
use crate::Result;

/// The `refs` statuses of sites that no edge stands for (what `ReferenceSite` nodes show).
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

fn in_list(items: &[&str]) -> String {
    items.iter().map(|s| format!("'{s}'")).collect::<Vec<_>>().join(", ")
}

fn sites() -> String {
    in_list(SITE_STATUSES)
}

// ------------------------------------------------------------------------------------
// SQLite

/// `INSERT ... SELECT` that adds `n` to a row (creating it).
fn sq_add(select: &str) -> String {
    format!(
        "INSERT INTO graph_counts(kind, name, key, n) {select} ON CONFLICT(kind, name, key) DO UPDATE SET n = n + excluded.n;\n"
    )
}

/// The property keys of the node row `x` (`new`, `old`, or a table alias bound by `from`):
/// its non-null columns and its JSON keys whose value is not null.
fn sq_node_keys(x: &str, from: &str, filter: &str) -> String {
    let cols: Vec<String> = NODE_COLS.iter().map(|(k, c)| format!("'{k}', {x}.{c}")).collect();
    let names: Vec<&str> = NODE_COLS.iter().map(|(k, _)| *k).collect();
    format!(
        "SELECT j.key AS key FROM {from} json_each(json_object({})) j WHERE {filter} j.type <> 'null'
         UNION ALL SELECT j.key FROM {from} json_each({x}.props) j WHERE {filter} j.type <> 'null' AND j.key NOT IN ({})",
        cols.join(", "),
        in_list(&names)
    )
}

fn sq_edge_keys(x: &str) -> String {
    let cols: Vec<String> = EDGE_COLS.iter().map(|(k, c)| format!("'{k}', {x}.{c}")).collect();
    let names: Vec<&str> = EDGE_COLS.iter().map(|(k, _)| *k).collect();
    format!(
        "SELECT j.key AS key FROM json_each(json_object({})) j WHERE j.type <> 'null'
         UNION ALL SELECT j.key FROM json_each({x}.props) j WHERE {x}.props IS NOT NULL AND j.type <> 'null' AND j.key NOT IN ({})",
        cols.join(", "),
        in_list(&names)
    )
}

/// The labels of the node row `x`: its first (`''` for none) and those in `node_labels`.
fn sq_labels(x: &str) -> String {
    format!("SELECT {x}.label AS l UNION SELECT label FROM node_labels WHERE node = {x}.id")
}

/// The triggers that keep `graph_counts` exact (SQLite).
pub(crate) fn sqlite_triggers() -> String {
    let s = sites();
    let mut t = String::new();
    // nodes
    t += "CREATE TRIGGER IF NOT EXISTS catalog_nodes_insert AFTER INSERT ON nodes BEGIN\n";
    t += &sq_add("SELECT 'nodes', '', '', 1 WHERE true");
    t += &sq_add("SELECT 'label', new.label, '', 1 WHERE new.label <> ''");
    t += &sq_add(&format!("SELECT 'node_key', new.label, k.key, 1 FROM ({}) k WHERE true", sq_node_keys("new", "", "")));
    t += "END;\n";
    // before the row goes, while its `node_labels` rows are still there
    t += "CREATE TRIGGER IF NOT EXISTS catalog_nodes_delete BEFORE DELETE ON nodes BEGIN\n";
    t += &sq_add("SELECT 'nodes', '', '', -1 WHERE true");
    t += &sq_add(&format!("SELECT 'label', l.l, '', -1 FROM ({}) l WHERE l.l <> ''", sq_labels("old")));
    t += &sq_add(&format!(
        "SELECT 'node_key', l.l, k.key, -1 FROM ({}) l, ({}) k WHERE true",
        sq_labels("old"),
        sq_node_keys("old", "", "")
    ));
    t += "END;\n";
    t += "CREATE TRIGGER IF NOT EXISTS catalog_nodes_update AFTER UPDATE OF label, name, qualified_name, file_path, line_start, line_end, props ON nodes BEGIN\n";
    // a first label that also is (or was) an extra label counts once
    t += &sq_add(
        "SELECT 'label', old.label, '', -1 WHERE old.label <> '' AND old.label <> new.label
           AND NOT EXISTS (SELECT 1 FROM node_labels WHERE node = old.id AND label = old.label)",
    );
    t += &sq_add(
        "SELECT 'label', new.label, '', 1 WHERE new.label <> '' AND old.label <> new.label
           AND NOT EXISTS (SELECT 1 FROM node_labels WHERE node = new.id AND label = new.label)",
    );
    t += &sq_add(&format!(
        "SELECT 'node_key', l.l, k.key, -1 FROM ({}) l, ({}) k WHERE true",
        sq_labels("old"),
        sq_node_keys("old", "", "")
    ));
    t += &sq_add(&format!(
        "SELECT 'node_key', l.l, k.key, 1 FROM ({}) l, ({}) k WHERE true",
        sq_labels("new"),
        sq_node_keys("new", "", "")
    ));
    t += "END;\n";
    // extra labels: counted when the node does not carry the label already
    t += "CREATE TRIGGER IF NOT EXISTS catalog_labels_insert AFTER INSERT ON node_labels
        WHEN NOT EXISTS (SELECT 1 FROM nodes WHERE id = new.node AND label = new.label)
         AND NOT EXISTS (SELECT 1 FROM node_labels WHERE node = new.node AND label = new.label AND rowid <> new.rowid) BEGIN\n";
    t += &sq_add("SELECT 'label', new.label, '', 1 WHERE true");
    t += &sq_add(&format!(
        "SELECT 'node_key', new.label, k.key, 1 FROM ({}) k WHERE true",
        sq_node_keys("n", "nodes n,", "n.id = new.node AND")
    ));
    t += "END;\n";
    // (a node's own delete counted its labels already: the node is gone by then)
    t += "CREATE TRIGGER IF NOT EXISTS catalog_labels_delete BEFORE DELETE ON node_labels
        WHEN EXISTS (SELECT 1 FROM nodes WHERE id = old.node AND label <> old.label)
         AND NOT EXISTS (SELECT 1 FROM node_labels WHERE node = old.node AND label = old.label AND rowid <> old.rowid) BEGIN\n";
    t += &sq_add("SELECT 'label', old.label, '', -1 WHERE true");
    t += &sq_add(&format!(
        "SELECT 'node_key', old.label, k.key, -1 FROM ({}) k WHERE true",
        sq_node_keys("n", "nodes n,", "n.id = old.node AND")
    ));
    t += "END;\n";
    // edges
    t += "CREATE TRIGGER IF NOT EXISTS catalog_edges_insert AFTER INSERT ON edges BEGIN\n";
    t += &sq_add("SELECT 'type', new.type, '', 1 WHERE true");
    for (kind, end) in [("type_src", "src"), ("type_dst", "dst")] {
        t += &sq_add(&format!(
            "SELECT '{kind}', new.type, '', 1 WHERE NOT EXISTS (SELECT 1 FROM edges WHERE {end} = new.{end} AND type = new.type AND id <> new.id)"
        ));
    }
    t += &sq_add(&format!("SELECT 'edge_key', new.type, k.key, 1 FROM ({}) k WHERE true", sq_edge_keys("new")));
    t += "END;\n";
    t += "CREATE TRIGGER IF NOT EXISTS catalog_edges_delete BEFORE DELETE ON edges BEGIN\n";
    t += &sq_add("SELECT 'type', old.type, '', -1 WHERE true");
    for (kind, end) in [("type_src", "src"), ("type_dst", "dst")] {
        t += &sq_add(&format!(
            "SELECT '{kind}', old.type, '', -1 WHERE NOT EXISTS (SELECT 1 FROM edges WHERE {end} = old.{end} AND type = old.type AND id <> old.id)"
        ));
    }
    t += &sq_add(&format!("SELECT 'edge_key', old.type, k.key, -1 FROM ({}) k WHERE true", sq_edge_keys("old")));
    t += "END;\n";
    t += "CREATE TRIGGER IF NOT EXISTS catalog_edges_update AFTER UPDATE OF src, dst, type, resolution, line, col, props ON edges BEGIN\n";
    t += &sq_add("SELECT 'type', old.type, '', -1 WHERE true");
    t += &sq_add("SELECT 'type', new.type, '', 1 WHERE true");
    for (kind, end) in [("type_src", "src"), ("type_dst", "dst")] {
        t += &sq_add(&format!(
            "SELECT '{kind}', old.type, '', -1 WHERE (old.{end} <> new.{end} OR old.type <> new.type)
               AND NOT EXISTS (SELECT 1 FROM edges WHERE {end} = old.{end} AND type = old.type)"
        ));
        t += &sq_add(&format!(
            "SELECT '{kind}', new.type, '', 1 WHERE (old.{end} <> new.{end} OR old.type <> new.type)
               AND NOT EXISTS (SELECT 1 FROM edges WHERE {end} = new.{end} AND type = new.type AND id <> new.id)"
        ));
    }
    t += &sq_add(&format!("SELECT 'edge_key', old.type, k.key, -1 FROM ({}) k WHERE true", sq_edge_keys("old")));
    t += &sq_add(&format!("SELECT 'edge_key', new.type, k.key, 1 FROM ({}) k WHERE true", sq_edge_keys("new")));
    t += "END;\n";
    // reference sites without an edge
    t += &format!("CREATE TRIGGER IF NOT EXISTS catalog_refs_insert AFTER INSERT ON refs WHEN new.status IN ({s}) BEGIN\n");
    t += &sq_add("SELECT 'site', new.status, '', 1 WHERE true");
    t += &sq_add(&format!(
        "SELECT 'site_src', '', '', 1 WHERE new.from_node IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM refs WHERE from_node = new.from_node AND status IN ({s}) AND id <> new.id)"
    ));
    t += "END;\n";
    t += &format!("CREATE TRIGGER IF NOT EXISTS catalog_refs_delete BEFORE DELETE ON refs WHEN old.status IN ({s}) BEGIN\n");
    t += &sq_add("SELECT 'site', old.status, '', -1 WHERE true");
    t += &sq_add(&format!(
        "SELECT 'site_src', '', '', -1 WHERE old.from_node IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM refs WHERE from_node = old.from_node AND status IN ({s}) AND id <> old.id)"
    ));
    t += "END;\n";
    t += &format!(
        "CREATE TRIGGER IF NOT EXISTS catalog_refs_update AFTER UPDATE OF status, from_node ON refs
        WHEN old.status IN ({s}) OR new.status IN ({s}) BEGIN\n"
    );
    t += &sq_add(&format!("SELECT 'site', old.status, '', -1 WHERE old.status IN ({s})"));
    t += &sq_add(&format!("SELECT 'site', new.status, '', 1 WHERE new.status IN ({s})"));
    t += &sq_add(&format!(
        "SELECT 'site_src', '', '', -1 WHERE old.status IN ({s}) AND old.from_node IS NOT NULL
           AND NOT (new.status IN ({s}) AND new.from_node IS old.from_node)
           AND NOT EXISTS (SELECT 1 FROM refs WHERE from_node = old.from_node AND status IN ({s}))"
    ));
    t += &sq_add(&format!(
        "SELECT 'site_src', '', '', 1 WHERE new.status IN ({s}) AND new.from_node IS NOT NULL
           AND NOT (old.status IN ({s}) AND old.from_node IS new.from_node)
           AND NOT EXISTS (SELECT 1 FROM refs WHERE from_node = new.from_node AND status IN ({s}) AND id <> new.id)"
    ));
    t += "END;\n";
    t
}

const TRIGGERS: &[(&str, &str)] = &[
    ("catalog_nodes_insert", "nodes"),
    ("catalog_nodes_delete", "nodes"),
    ("catalog_nodes_update", "nodes"),
    ("catalog_labels_insert", "node_labels"),
    ("catalog_labels_delete", "node_labels"),
    ("catalog_edges_insert", "edges"),
    ("catalog_edges_delete", "edges"),
    ("catalog_edges_update", "edges"),
    ("catalog_refs_insert", "refs"),
    ("catalog_refs_delete", "refs"),
    ("catalog_refs_update", "refs"),
];

/// Drops the catalog's triggers (a bulk load; `fill` catches up).
pub(crate) fn drop_triggers(db: &Db) -> Result<()> {
    let sql: String = TRIGGERS
        .iter()
        .map(|(t, table)| {
            if db.is_pg() {
                format!("DROP TRIGGER IF EXISTS {t} ON {table};\n")
            } else {
                format!("DROP TRIGGER IF EXISTS {t};\n")
            }
        })
        .collect();
    db.execute_batch(&sql)
}

/// (Re)creates the catalog's triggers.
pub(crate) fn create_triggers(db: &Db) -> Result<()> {
    if db.is_pg() {
        db.execute_batch(&pg_triggers())
    } else {
        db.execute_batch(&sqlite_triggers())
    }
}

// ------------------------------------------------------------------------------------
// PostgreSQL: statement-level triggers over transition tables. An ingest sends rows in
// batches of thousands (`db::Batch`), so a statement's counts go in one grouped upsert per
// counter row: a row-level trigger updating the same counter once per row would leave a
// chain of row versions that every later update walks (quadratic within a transaction).

/// Adds the `(kind, name, key, d)` rows of `deltas` to `graph_counts`, summed per counter.
fn pg_apply(deltas: &str) -> String {
    format!(
        "INSERT INTO graph_counts(kind, name, key, n)
         SELECT kind, name, key, sum(d)::bigint FROM ({deltas}) x(kind, name, key, d)
         GROUP BY kind, name, key HAVING sum(d) <> 0
         ON CONFLICT (kind, name, key) DO UPDATE SET n = graph_counts.n + excluded.n;\n"
    )
}

/// A lateral set `k(key)` of the property keys of the row `r` of a node (or edge) table.
fn pg_keys(r: &str, cols: &[(&str, &str)]) -> String {
    let mut parts: Vec<String> = cols.iter().map(|(k, c)| format!("SELECT '{k}'::text WHERE {r}.{c} IS NOT NULL")).collect();
    let names: Vec<&str> = cols.iter().map(|(k, _)| *k).collect();
    parts.push(format!(
        "SELECT j.key FROM jsonb_each({r}.props) j WHERE jsonb_typeof(j.value) <> 'null' AND j.key NOT IN ({})",
        in_list(&names)
    ));
    format!("CROSS JOIN LATERAL ({}) k(key)", parts.join(" UNION ALL "))
}

/// A lateral set `l(l)` of the labels of the node row `r`: its first and its extra ones.
fn pg_labels(r: &str) -> String {
    format!("CROSS JOIN LATERAL (SELECT {r}.label UNION SELECT label FROM node_labels WHERE node = {r}.id) l(l)")
}

/// The change in "distinct values of `col` (per `group`, `''` when none) among the rows of
/// `table` matching `filter`", from the statement's old rows `o` and new rows `n`: a value
/// counts after the statement when a row has it now, and counted before when its rows
/// now, less the new ones, plus the old ones, were more than none. Rows now are read
/// through an index, at most one more than the statement's new rows.
fn pg_distinct(kind: &str, table: &str, col: &str, group: Option<&str>, filter: &str) -> String {
    let (gsel, geq) = match group {
        Some(g) => (format!(", {g} AS g"), format!(" AND t.{g} = c.g")),
        None => (", ''::text AS g".to_string(), String::new()),
    };
    format!(
        "SELECT '{kind}', c.g, '', (w.now > 0)::int - ((w.now - c.cn + c.co) > 0)::int
         FROM (SELECT v, g, sum(cn) AS cn, sum(co) AS co FROM (
                 SELECT {col} AS v{gsel}, 1 AS cn, 0 AS co FROM n WHERE {col} IS NOT NULL AND {filter}
                 UNION ALL SELECT {col}{gsel}, 0, 1 FROM o WHERE {col} IS NOT NULL AND {filter}) x
               GROUP BY v, g) c
         CROSS JOIN LATERAL (SELECT count(*) AS now FROM (
             SELECT 1 FROM {table} t WHERE t.{col} = c.v{geq} AND {filter_t} LIMIT c.cn + 1) z) w",
        filter_t = filter.replace("status", "t.status"),
    )
}

/// One plpgsql function per table; `o` and `n` are the statement's old and new rows (an
/// empty set where the event has none).
fn pg_function(name: &str, table: &str, body: &str) -> String {
    let with = |o: &str, n: &str| {
        format!("WITH o AS (SELECT * FROM {o}), n AS (SELECT * FROM {n})\n")
    };
    let none = format!("{table} WHERE false");
    format!(
        "CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    IF TG_OP = 'INSERT' THEN
        {ins}
    ELSIF TG_OP = 'DELETE' THEN
        {del}
    ELSE
        {upd}
    END IF;
    RETURN NULL;
END $fn$;\n",
        ins = with(&none, "nn") + body,
        del = with("oo", &none) + body,
        upd = with("oo", "nn") + body,
    )
}

/// Functions the PostgreSQL triggers call (created with the schema).
pub(crate) fn pg_functions() -> String {
    let s = sites();
    let mut f = String::new();
    // nodes: the first label here; extra labels are counted by the `node_labels` triggers
    // (a node's extra labels go before it does: `nodes_labels_delete` is a BEFORE trigger)
    f += &pg_function(
        "navegador_catalog_nodes",
        "nodes",
        &pg_apply(&format!(
            "SELECT 'nodes', '', '', count(*) FROM n UNION ALL SELECT 'nodes', '', '', -count(*) FROM o
             UNION ALL SELECT 'label', n.label, '', 1 FROM n LEFT JOIN o ON o.id = n.id
                 WHERE n.label <> '' AND (o.id IS NULL OR (o.label <> n.label
                       AND NOT EXISTS (SELECT 1 FROM node_labels x WHERE x.node = n.id AND x.label = n.label)))
             UNION ALL SELECT 'label', o.label, '', -1 FROM o LEFT JOIN n ON n.id = o.id
                 WHERE o.label <> '' AND (n.id IS NULL OR (o.label <> n.label
                       AND NOT EXISTS (SELECT 1 FROM node_labels x WHERE x.node = o.id AND x.label = o.label)))
             UNION ALL SELECT 'node_key', l.l, k.key, 1 FROM n {ln} {kn}
             UNION ALL SELECT 'node_key', l.l, k.key, -1 FROM o {lo} {ko}",
            ln = pg_labels("n"),
            kn = pg_keys("n", NODE_COLS),
            lo = pg_labels("o"),
            ko = pg_keys("o", NODE_COLS),
        )),
    );
    // extra labels: counted when the node exists and does not carry the label already
    f += &pg_function(
        "navegador_catalog_labels",
        "node_labels",
        &pg_apply(&format!(
            "WITH c AS (
                SELECT p.node, p.label, (w.now > 0)::int - ((w.now - p.cn + p.co) > 0)::int AS d
                FROM (SELECT node, label, sum(cn) AS cn, sum(co) AS co FROM (
                        SELECT node, label, 1 AS cn, 0 AS co FROM n UNION ALL SELECT node, label, 0, 1 FROM o) x
                      GROUP BY node, label) p
                JOIN nodes m ON m.id = p.node AND m.label <> p.label
                CROSS JOIN LATERAL (SELECT count(*) AS now FROM (
                    SELECT 1 FROM node_labels t WHERE t.node = p.node AND t.label = p.label LIMIT p.cn + 1) z) w)
             SELECT 'label', c.label, '', c.d FROM c
             UNION ALL SELECT 'node_key', c.label, k.key, c.d FROM c JOIN nodes r ON r.id = c.node {keys}",
            keys = pg_keys("r", NODE_COLS),
        )),
    );
    let ekeys_n = pg_keys("n", EDGE_COLS);
    let ekeys_o = pg_keys("o", EDGE_COLS);
    f += &pg_function(
        "navegador_catalog_edges",
        "edges",
        &pg_apply(&format!(
            "SELECT 'type', type, '', count(*) FROM n GROUP BY type
             UNION ALL SELECT 'type', type, '', -count(*) FROM o GROUP BY type
             UNION ALL SELECT 'edge_key', n.type, k.key, 1 FROM n {ekeys_n}
             UNION ALL SELECT 'edge_key', o.type, k.key, -1 FROM o {ekeys_o}
             UNION ALL {src}
             UNION ALL {dst}",
            src = pg_distinct("type_src", "edges", "src", Some("type"), "true"),
            dst = pg_distinct("type_dst", "edges", "dst", Some("type"), "true"),
        )),
    );
    f += &pg_function(
        "navegador_catalog_refs",
        "refs",
        &pg_apply(&format!(
            "SELECT 'site', status, '', count(*) FROM n WHERE status IN ({s}) GROUP BY status
             UNION ALL SELECT 'site', status, '', -count(*) FROM o WHERE status IN ({s}) GROUP BY status
             UNION ALL {src}",
            src = pg_distinct("site_src", "refs", "from_node", None, &format!("status IN ({s})")),
        )),
    );
    f
}

/// The PostgreSQL triggers (the same names as SQLite's, on the same tables), one per event
/// as transition tables require.
fn pg_triggers() -> String {
    let t = |name: &str, when: &str, table: &str, func: &str| {
        let refs = match when {
            "INSERT" => "NEW TABLE AS nn",
            "DELETE" => "OLD TABLE AS oo",
            _ => "OLD TABLE AS oo NEW TABLE AS nn",
        };
        format!(
            "CREATE OR REPLACE TRIGGER {name} AFTER {when} ON {table} REFERENCING {refs} FOR EACH STATEMENT EXECUTE FUNCTION {func}();\n"
        )
    };
    TRIGGERS
        .iter()
        .map(|(name, table)| {
            let when = name.rsplit('_').next().unwrap().to_uppercase();
            let func = match *table {
                "node_labels" => "navegador_catalog_labels".to_string(),
                _ => format!("navegador_catalog_{table}"),
            };
            t(name, &when, table, &func)
        })
        .collect()
}

// ------------------------------------------------------------------------------------
// Filling and reading

/// Counts everything from scratch (after a bulk load, or a clear): the same numbers the
/// triggers keep, in a few grouped scans.
pub(crate) fn fill(db: &Db) -> Result<()> {
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
