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
//! A row may fall to 0 and stay; readers and dumps skip those. Row triggers see one row at
//! a time: a delete decrements `type_src` when no other relationship of the type leaves the
//! node (BEFORE the row goes), an insert increments it when none did (SQLite: AFTER, the
//! row excluded; PostgreSQL: BEFORE, where a multi-row statement's earlier rows are
//! already visible), so both backends keep the same numbers.

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
// PostgreSQL: one plpgsql function per table, BEFORE row triggers.

/// Functions the PostgreSQL triggers call (created with the schema).
pub(crate) fn pg_functions() -> String {
    let s = sites();
    let node_cols: Vec<String> =
        NODE_COLS.iter().map(|(k, c)| format!("SELECT '{k}'::text WHERE r.{c} IS NOT NULL")).collect();
    let node_names: Vec<&str> = NODE_COLS.iter().map(|(k, _)| *k).collect();
    let edge_cols: Vec<String> =
        EDGE_COLS.iter().map(|(k, c)| format!("SELECT '{k}'::text WHERE r.{c} IS NOT NULL")).collect();
    let edge_names: Vec<&str> = EDGE_COLS.iter().map(|(k, _)| *k).collect();
    format!(
        r#"
CREATE OR REPLACE FUNCTION navegador_count(k text, nm text, ky text, d bigint) RETURNS void LANGUAGE sql AS $$
    INSERT INTO graph_counts(kind, name, key, n) VALUES (k, nm, ky, d)
    ON CONFLICT (kind, name, key) DO UPDATE SET n = graph_counts.n + excluded.n
$$;
CREATE OR REPLACE FUNCTION navegador_node_keys(r nodes) RETURNS SETOF text LANGUAGE sql STABLE AS $$
    {node_cols}
    UNION ALL SELECT j.key FROM jsonb_each(r.props) j WHERE jsonb_typeof(j.value) <> 'null' AND j.key NOT IN ({node_names})
$$;
CREATE OR REPLACE FUNCTION navegador_edge_keys(r edges) RETURNS SETOF text LANGUAGE sql STABLE AS $$
    {edge_cols}
    UNION ALL SELECT j.key FROM jsonb_each(coalesce(r.props, '{{}}'::jsonb)) j WHERE jsonb_typeof(j.value) <> 'null' AND j.key NOT IN ({edge_names})
$$;
CREATE OR REPLACE FUNCTION navegador_node_labels(r nodes) RETURNS SETOF text LANGUAGE sql STABLE AS $$
    SELECT r.label UNION SELECT label FROM node_labels WHERE node = r.id
$$;
CREATE OR REPLACE FUNCTION navegador_catalog_nodes() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM navegador_count('nodes', '', '', 1);
        IF NEW.label <> '' THEN PERFORM navegador_count('label', NEW.label, '', 1); END IF;
        PERFORM navegador_count('node_key', NEW.label, k, 1) FROM navegador_node_keys(NEW) k;
        RETURN NEW;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM navegador_count('nodes', '', '', -1);
        PERFORM navegador_count('label', l, '', -1) FROM navegador_node_labels(OLD) l WHERE l <> '';
        PERFORM navegador_count('node_key', l, k, -1) FROM navegador_node_labels(OLD) l, navegador_node_keys(OLD) k;
        RETURN OLD;
    END IF;
    IF OLD.label <> '' AND OLD.label <> NEW.label
       AND NOT EXISTS (SELECT 1 FROM node_labels WHERE node = OLD.id AND label = OLD.label) THEN
        PERFORM navegador_count('label', OLD.label, '', -1);
    END IF;
    IF NEW.label <> '' AND OLD.label <> NEW.label
       AND NOT EXISTS (SELECT 1 FROM node_labels WHERE node = NEW.id AND label = NEW.label) THEN
        PERFORM navegador_count('label', NEW.label, '', 1);
    END IF;
    PERFORM navegador_count('node_key', l, k, -1) FROM navegador_node_labels(OLD) l, navegador_node_keys(OLD) k;
    PERFORM navegador_count('node_key', l, k, 1) FROM navegador_node_labels(NEW) l, navegador_node_keys(NEW) k;
    RETURN NEW;
END $fn$;
CREATE OR REPLACE FUNCTION navegador_catalog_labels() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE r nodes;
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT * INTO r FROM nodes WHERE id = NEW.node;
        IF r.id IS NOT NULL AND r.label <> NEW.label
           AND NOT EXISTS (SELECT 1 FROM node_labels WHERE node = NEW.node AND label = NEW.label) THEN
            PERFORM navegador_count('label', NEW.label, '', 1);
            PERFORM navegador_count('node_key', NEW.label, k, 1) FROM navegador_node_keys(r) k;
        END IF;
        RETURN NEW;
    END IF;
    SELECT * INTO r FROM nodes WHERE id = OLD.node;
    IF r.id IS NOT NULL AND r.label <> OLD.label
       AND NOT EXISTS (SELECT 1 FROM node_labels WHERE node = OLD.node AND label = OLD.label AND rowid <> OLD.rowid) THEN
        PERFORM navegador_count('label', OLD.label, '', -1);
        PERFORM navegador_count('node_key', OLD.label, k, -1) FROM navegador_node_keys(r) k;
    END IF;
    RETURN OLD;
END $fn$;
CREATE OR REPLACE FUNCTION navegador_catalog_edges() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        PERFORM navegador_count('type', OLD.type, '', -1);
        IF TG_OP = 'DELETE' OR OLD.src <> NEW.src OR OLD.type <> NEW.type THEN
            IF NOT EXISTS (SELECT 1 FROM edges WHERE src = OLD.src AND type = OLD.type AND id <> OLD.id) THEN
                PERFORM navegador_count('type_src', OLD.type, '', -1);
            END IF;
        END IF;
        IF TG_OP = 'DELETE' OR OLD.dst <> NEW.dst OR OLD.type <> NEW.type THEN
            IF NOT EXISTS (SELECT 1 FROM edges WHERE dst = OLD.dst AND type = OLD.type AND id <> OLD.id) THEN
                PERFORM navegador_count('type_dst', OLD.type, '', -1);
            END IF;
        END IF;
        PERFORM navegador_count('edge_key', OLD.type, k, -1) FROM navegador_edge_keys(OLD) k;
        IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    END IF;
    PERFORM navegador_count('type', NEW.type, '', 1);
    IF TG_OP = 'INSERT' OR OLD.src <> NEW.src OR OLD.type <> NEW.type THEN
        IF NOT EXISTS (SELECT 1 FROM edges WHERE src = NEW.src AND type = NEW.type AND id <> NEW.id) THEN
            PERFORM navegador_count('type_src', NEW.type, '', 1);
        END IF;
    END IF;
    IF TG_OP = 'INSERT' OR OLD.dst <> NEW.dst OR OLD.type <> NEW.type THEN
        IF NOT EXISTS (SELECT 1 FROM edges WHERE dst = NEW.dst AND type = NEW.type AND id <> NEW.id) THEN
            PERFORM navegador_count('type_dst', NEW.type, '', 1);
        END IF;
    END IF;
    PERFORM navegador_count('edge_key', NEW.type, k, 1) FROM navegador_edge_keys(NEW) k;
    RETURN NEW;
END $fn$;
CREATE OR REPLACE FUNCTION navegador_catalog_refs() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE was boolean := TG_OP <> 'INSERT' AND OLD.status IN ({s});
        now_ boolean := TG_OP <> 'DELETE' AND NEW.status IN ({s});
BEGIN
    IF was THEN
        PERFORM navegador_count('site', OLD.status, '', -1);
        IF OLD.from_node IS NOT NULL AND NOT (now_ AND NEW.from_node IS NOT DISTINCT FROM OLD.from_node)
           AND NOT EXISTS (SELECT 1 FROM refs WHERE from_node = OLD.from_node AND status IN ({s}) AND id <> OLD.id) THEN
            PERFORM navegador_count('site_src', '', '', -1);
        END IF;
    END IF;
    IF now_ THEN
        PERFORM navegador_count('site', NEW.status, '', 1);
        IF NEW.from_node IS NOT NULL AND NOT (was AND NEW.from_node IS NOT DISTINCT FROM OLD.from_node)
           AND NOT EXISTS (SELECT 1 FROM refs WHERE from_node = NEW.from_node AND status IN ({s}) AND id <> NEW.id) THEN
            PERFORM navegador_count('site_src', '', '', 1);
        END IF;
    END IF;
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
END $fn$;
"#,
        node_cols = node_cols.join(" UNION ALL "),
        node_names = in_list(&node_names),
        edge_cols = edge_cols.join(" UNION ALL "),
        edge_names = in_list(&edge_names),
    )
}

/// The PostgreSQL triggers (the same names as SQLite's, on the same tables).
fn pg_triggers() -> String {
    let t = |name: &str, when: &str, table: &str, func: &str| {
        format!("CREATE OR REPLACE TRIGGER {name} BEFORE {when} ON {table} FOR EACH ROW EXECUTE FUNCTION {func}();\n")
    };
    [
        t("catalog_nodes_insert", "INSERT", "nodes", "navegador_catalog_nodes"),
        t("catalog_nodes_delete", "DELETE", "nodes", "navegador_catalog_nodes"),
        t(
            "catalog_nodes_update",
            "UPDATE OF label, name, qualified_name, file_path, line_start, line_end, props",
            "nodes",
            "navegador_catalog_nodes",
        ),
        t("catalog_labels_insert", "INSERT", "node_labels", "navegador_catalog_labels"),
        t("catalog_labels_delete", "DELETE", "node_labels", "navegador_catalog_labels"),
        t("catalog_edges_insert", "INSERT", "edges", "navegador_catalog_edges"),
        t("catalog_edges_delete", "DELETE", "edges", "navegador_catalog_edges"),
        t(
            "catalog_edges_update",
            "UPDATE OF src, dst, type, resolution, line, col, props",
            "edges",
            "navegador_catalog_edges",
        ),
        t("catalog_refs_insert", "INSERT", "refs", "navegador_catalog_refs"),
        t("catalog_refs_delete", "DELETE", "refs", "navegador_catalog_refs"),
        t("catalog_refs_update", "UPDATE OF status, from_node", "refs", "navegador_catalog_refs"),
    ]
    .concat()
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
