//! The pages' JSON API: each endpoint is one or a few of the MCP server's tools, called with
//! the page's arguments through [`NavegadorServer::call_json`], so the pages show exactly
//! what an agent is told, within the same budgets (lists are pages with true totals).
//!
//! | endpoint | tools |
//! |---|---|
//! | `search?q=&limit=` | `search` |
//! | `symbol?name=&file=&line=&type=` | `function` / `class` / `explain` (by the node's label) with source, `find_owners`, `get_rationale` |
//! | `neighbourhood?name=&file=&line=&type=&ambiguous=&limit=` | the same bundle tool |
//! | `tree?path=&depth=` | `code.inspect_tree`, and `query` for the indexed files under each folder (`counts`) |
//! | `file?path=` | `context` (the outline, imports, importers) |
//! | `endpoints?limit=` | `code.list_endpoints` |
//! | `knowledge` | `query` (the knowledge nodes, read-only Cypher), and each rule's check (`checks`, below) |
//! | `rules` | each rule's check: its `constraint` run through `query` read-only, as `navegador check` does |
//! | `impact?name=&file=&line=&depth=` / `impact?changes=1` | `blast_radius` with `get_rationale` and the rule checks (`rules`) / `changes` |
//! | `cypher` (POST `{cypher, params}`) | `query` (read-only unless the server is writable) |

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use navegador_mcp::NavegadorServer;
use serde_json::{json, Map, Value};

/// The query string's arguments, decoded.
#[derive(Debug, Default, Clone)]
pub struct Params(Vec<(String, String)>);

impl Params {
    pub fn parse(query: &str) -> Params {
        let decode = |s: &str| percent_encoding::percent_decode_str(&s.replace('+', " ")).decode_utf8_lossy().into_owned();
        Params(
            query
                .split('&')
                .filter(|kv| !kv.is_empty())
                .map(|kv| {
                    let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
                    (decode(k), decode(v))
                })
                .collect(),
        )
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.trim()).filter(|v| !v.is_empty())
    }

    fn flag(&self, key: &str) -> bool {
        self.get(key).is_some_and(|v| matches!(v, "1" | "true" | "yes" | "on"))
    }

    /// An integer argument; a malformed one is an error naming it.
    fn int(&self, key: &str) -> Result<Option<i64>, Value> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v.parse().map(Some).map_err(|_| json!({ "error": format!("`{key}` must be an integer, not `{v}`") })),
        }
    }

    fn required(&self, key: &str) -> Result<&str, Value> {
        self.get(key).ok_or_else(|| json!({ "error": format!("pass `{key}` in the query string") }))
    }

    /// `name`, `file`, `line` of a node, as the tools take them.
    fn node(&self) -> Result<Map<String, Value>, Value> {
        let mut args = Map::new();
        args.insert("name".into(), json!(self.required("name")?));
        if let Some(f) = self.get("file") {
            args.insert("file".into(), json!(f));
        }
        if let Some(l) = self.int("line")? {
            args.insert("line".into(), json!(l));
        }
        Ok(args)
    }
}

/// Most list entries a page asks one tool for (the tools clamp to their own bounds too).
const MAX_PAGE: i64 = 200;

/// The read-only Cypher of the knowledge page: every knowledge node, by kind.
pub const KNOWLEDGE_QUERY: &str = "MATCH (n) WHERE n:Decision OR n:Rule OR n:Concept OR n:Domain OR n:Person OR n:WikiPage \
     RETURN labels(n)[0] AS kind, n.name AS name, n.description AS description, n.status AS status, n.domain AS domain, \
     n.severity AS severity, n.date AS date ORDER BY kind, name LIMIT 1000";

/// The rules a check runs: those with a constraint.
pub const RULES_QUERY: &str =
    "MATCH (r:Rule) WHERE r.constraint IS NOT NULL RETURN r.name AS rule, r.severity AS severity, r.constraint AS constraint ORDER BY rule LIMIT 200";

/// The indexed files under each direct subfolder of `$prefix` (`''` for the root).
pub const FOLDER_COUNTS_QUERY: &str = "MATCH (f:File) WHERE f.path STARTS WITH $prefix \
     WITH split(substring(f.path, size($prefix)), '/') AS parts WHERE size(parts) > 1 \
     RETURN parts[0] AS folder, count(*) AS files";

/// Qualified names (else names) of the nodes in a query answer's value, first `max`.
fn node_names(v: &Value, out: &mut Vec<String>, max: usize) {
    if out.len() >= max {
        return;
    }
    match v {
        Value::Object(m) => {
            let props = m.get("properties").and_then(Value::as_object).unwrap_or(m);
            if m.contains_key("labels") {
                if let Some(n) = props.get("qualified_name").or(props.get("name")).and_then(Value::as_str) {
                    if !out.iter().any(|x| x == n) {
                        out.push(n.to_string());
                    }
                }
                return;
            }
            m.values().for_each(|x| node_names(x, out, max));
        }
        Value::Array(a) => a.iter().for_each(|x| node_names(x, out, max)),
        _ => {}
    }
}

/// Each rule's check, run now: its constraint through the `query` tool (read-only, the
/// server's timeout and row limit), rows being violations as for `navegador check`.
/// `status` is `pass`, `violated` or `error`; `violations` counts the rows (at least, when
/// `truncated`); `names` are the first nodes the violations name.
async fn rule_checks(server: &NavegadorServer) -> Answer {
    let mut args = Map::new();
    args.insert("cypher".into(), json!(RULES_QUERY));
    let rules = tool(server, "query", args).await?;
    let mut out = Vec::new();
    for r in rules["items"].as_array().into_iter().flatten() {
        let mut args = Map::new();
        args.insert("cypher".into(), r["constraint"].clone());
        let mut check = json!({ "rule": r["rule"], "severity": r["severity"].as_str().unwrap_or("warning") });
        match tool(server, "query", args).await {
            Ok(v) => {
                let n = v["count"].as_u64().unwrap_or(0);
                let mut names = Vec::new();
                node_names(&v["items"], &mut names, 20);
                check["status"] = json!(if n == 0 { "pass" } else { "violated" });
                check["violations"] = json!(n);
                check["truncated"] = v["truncated"].clone();
                check["names"] = json!(names);
            }
            Err((_, e)) => {
                check["status"] = json!("error");
                check["error"] = e.get("error").cloned().unwrap_or(e);
            }
        }
        out.push(check);
    }
    Ok(json!({ "items": out, "checked_at": checked_at() }))
}

/// Now, as `YYYY-MM-DDTHH:MM:SSZ` (when the checks ran).
fn checked_at() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem / 60 % 60, rem % 60)
}

/// Answers one endpoint.
pub async fn answer(server: &NavegadorServer, endpoint: &str, p: &Params, body: &Bytes) -> Response {
    match route(server, endpoint, p, body).await {
        Ok(v) => json(StatusCode::OK, &v),
        Err((status, v)) => json(status, &v),
    }
}

type Answer = Result<Value, (StatusCode, Value)>;

fn bad(v: Value) -> (StatusCode, Value) {
    (StatusCode::BAD_REQUEST, v)
}

async fn tool(server: &NavegadorServer, name: &str, args: Map<String, Value>) -> Answer {
    server.call_json(name, args).await.map_err(|e| (StatusCode::UNPROCESSABLE_ENTITY, e))
}

fn limit(p: &Params, default: i64) -> Result<i64, (StatusCode, Value)> {
    Ok(p.int("limit").map_err(bad)?.unwrap_or(default).clamp(1, MAX_PAGE))
}

async fn route(server: &NavegadorServer, endpoint: &str, p: &Params, body: &Bytes) -> Answer {
    match endpoint {
        "search" => {
            let q = p.required("q").map_err(bad)?;
            let mut args = Map::new();
            args.insert("query".into(), json!(q));
            args.insert("limit".into(), json!(limit(p, 30)?));
            if p.flag("all") {
                args.insert("all".into(), json!(true));
            }
            tool(server, "search", args).await
        }
        "symbol" => {
            let node = p.node().map_err(bad)?;
            let mut who = Map::new();
            who.insert("name".into(), node["name"].clone());
            if let Some(f) = node.get("file") {
                who.insert("file".into(), f.clone());
            }
            let (node, owners, rationale) = tokio::join!(
                neighbourhood(server, node, p.get("type"), limit(p, 25)?, false, true),
                tool(server, "find_owners", who.clone()),
                tool(server, "get_rationale", who)
            );
            let node = node?;
            // Owners and rules are extras: their failure is shown in place, not the page's.
            let extra = |r: Answer| r.unwrap_or_else(|(_, e)| e);
            Ok(json!({ "node": node, "owners": extra(owners), "rationale": extra(rationale) }))
        }
        "neighbourhood" => {
            let node = p.node().map_err(bad)?;
            neighbourhood(server, node, p.get("type"), limit(p, 40)?, p.flag("ambiguous"), false).await
        }
        "tree" => {
            let mut args = Map::new();
            if let Some(path) = p.get("path") {
                args.insert("path".into(), json!(path));
            }
            args.insert("max_depth".into(), json!(p.int("depth").map_err(bad)?.unwrap_or(1).clamp(0, 20)));
            let prefix = p.get("path").map(|x| format!("{}/", x.trim_matches('/'))).filter(|x| x != "/" && x != "./").unwrap_or_default();
            let mut count = Map::new();
            count.insert("cypher".into(), json!(FOLDER_COUNTS_QUERY));
            count.insert("params".into(), json!({ "prefix": prefix }));
            let (tree, counts) = tokio::join!(tool(server, "code.inspect_tree", args), tool(server, "query", count));
            let mut tree = tree?;
            // The counts are an extra: without them the tree is still the tree.
            if let Ok(c) = counts {
                let by: Map<String, Value> =
                    c["items"].as_array().into_iter().flatten().filter_map(|r| Some((r["folder"].as_str()?.to_string(), r["files"].clone()))).collect();
                tree["counts"] = json!({ "indexed_files": by, "truncated": c["truncated"] });
            }
            Ok(tree)
        }
        "file" => {
            let mut args = Map::new();
            args.insert("file".into(), json!(p.required("path").map_err(bad)?));
            args.insert("limit".into(), json!(limit(p, MAX_PAGE)?));
            tool(server, "context", args).await
        }
        "endpoints" => {
            let mut args = Map::new();
            args.insert("limit".into(), json!(limit(p, MAX_PAGE)?));
            if let Some(path) = p.get("path") {
                args.insert("path".into(), json!(path));
            }
            tool(server, "code.list_endpoints", args).await
        }
        "knowledge" => {
            let mut args = Map::new();
            args.insert("cypher".into(), json!(KNOWLEDGE_QUERY));
            let (mut known, checks) = tokio::join!(tool(server, "query", args), rule_checks(server));
            if let Ok(k) = known.as_mut() {
                k["checks"] = checks.unwrap_or_else(|(_, e)| e);
            }
            known
        }
        "rules" => rule_checks(server).await,
        "impact" => {
            if p.flag("changes") {
                let mut args = Map::new();
                args.insert("limit".into(), json!(limit(p, 50)?));
                return tool(server, "changes", args).await;
            }
            let mut args = p.node().map_err(bad)?;
            let mut who = Map::new();
            who.insert("name".into(), args["name"].clone());
            if let Some(f) = args.get("file") {
                who.insert("file".into(), f.clone());
            }
            args.insert("depth".into(), json!(p.int("depth").map_err(bad)?.unwrap_or(3)));
            args.insert("limit".into(), json!(limit(p, 50)?));
            let (blast, rationale, checks) = tokio::join!(tool(server, "blast_radius", args), tool(server, "get_rationale", who), rule_checks(server));
            let mut blast = blast?;
            // Each rule's check, with whether it governs the symbol and whether its violations
            // name the symbol or a dependent listed.
            let governing: Vec<String> = rationale
                .ok()
                .and_then(|r| r["items"].as_array().map(|a| a.iter().filter_map(|i| i["name"].as_str().map(str::to_string)).collect()))
                .unwrap_or_default();
            let mut listed: Vec<&str> = blast["items"].as_array().into_iter().flatten().filter_map(|d| d["qualified_name"].as_str().or(d["name"].as_str())).collect();
            listed.extend(blast["target"]["qualified_name"].as_str().or(blast["target"]["name"].as_str()));
            let listed: Vec<String> = listed.into_iter().map(str::to_string).collect();
            let rules = match checks {
                Ok(mut c) => {
                    for r in c["items"].as_array_mut().into_iter().flatten() {
                        let name = r["rule"].as_str().unwrap_or("").to_string();
                        r["governs"] = json!(governing.contains(&name));
                        let names: Vec<String> = r["names"].as_array().into_iter().flatten().filter_map(|n| n.as_str().map(str::to_string)).collect();
                        r["touches"] = json!(names.iter().any(|n| listed.contains(n)));
                    }
                    c
                }
                Err((_, e)) => e,
            };
            blast["rules"] = rules;
            Ok(blast)
        }
        "cypher" => {
            let ask: Value = serde_json::from_slice(body)
                .map_err(|e| bad(json!({ "error": format!("POST a JSON object {{\"cypher\": \"...\", \"params\": {{}}}}: {e}") })))?;
            let Some(cypher) = ask.get("cypher").and_then(Value::as_str).filter(|c| !c.trim().is_empty()) else {
                return Err(bad(json!({ "error": "`cypher` must be a non-empty string" })));
            };
            let mut args = Map::new();
            args.insert("cypher".into(), json!(cypher));
            if let Some(params) = ask.get("params").filter(|v| v.is_object()) {
                args.insert("params".into(), params.clone());
            }
            tool(server, "query", args).await
        }
        "info" => {
            let o = server.options();
            Ok(json!({
                "version": env!("CARGO_PKG_VERSION"),
                "read_only": o.read_only,
                "workspace": o.workspace_root.file_name().map(|n| n.to_string_lossy().into_owned()),
            }))
        }
        other => Err((
            StatusCode::NOT_FOUND,
            json!({ "error": format!("no API endpoint `{other}`; there are search, symbol, neighbourhood, tree, file, endpoints, knowledge, rules, impact, cypher, info") }),
        )),
    }
}

/// The bundle tool that lists a node's neighbourhood by relation: `function` for code that
/// runs (callers, callees to depth 1), `class` for types (bases, subclasses, members),
/// `explain` for any other node.
fn bundle_tool(label: &str) -> &'static str {
    match label {
        "Function" | "Method" => "function",
        "Class" => "class",
        _ => "explain",
    }
}

/// A node's bundle. Without its label (a typed-in name) `search` finds the one node of that
/// exact name (`exact_hit`), else `explain` says what the name is; then the label's own
/// tool answers for exactly that node (`file` and `line`).
async fn neighbourhood(
    server: &NavegadorServer,
    mut args: Map<String, Value>,
    label: Option<&str>,
    limit: i64,
    ambiguous: bool,
    source: bool,
) -> Answer {
    if ambiguous {
        args.insert("include_ambiguous".into(), json!(true));
    }
    if source {
        args.insert("include_source".into(), json!(true));
    }
    args.insert("limit".into(), json!(limit));
    let found = match label {
        Some(_) => None,
        None => exact_hit(server, &args).await,
    };
    if let Some(hit) = &found {
        for (k, v) in [("file", &hit["file_path"]), ("line", &hit["line_start"])] {
            if !v.is_null() {
                args.insert(k.into(), v.clone());
            }
        }
    }
    let label = label.or(found.as_ref().and_then(|h| h["type"].as_str()));
    let tool_name = match label {
        Some(l) => bundle_tool(l),
        None => {
            let mut probe = args.clone();
            probe.insert("limit".into(), json!(1));
            probe.remove("include_source");
            let found = tool(server, "explain", probe).await?;
            let t = &found["target"];
            let name = bundle_tool(t["type"].as_str().unwrap_or(""));
            if name == "explain" {
                return tool(server, "explain", args).await;
            }
            if let Some(q) = t["qualified_name"].as_str().or(t["name"].as_str()) {
                args.insert("name".into(), json!(q));
            }
            for (k, v) in [("file", &t["file_path"]), ("line", &t["line_start"])] {
                if !v.is_null() {
                    args.insert(k.into(), v.clone());
                }
            }
            name
        }
    };
    tool(server, tool_name, args).await
}

/// The one node a typed-in name is, when `search` finds exactly one exact match for it (by
/// qualified name, else by name; in `file` and at `line` when given): the cheap way to learn
/// its label (search reads the name index; `explain` would build a whole bundle to say
/// it). `None` when the name is not exact or not unique: `explain` then says what it is,
/// with candidates.
async fn exact_hit(server: &NavegadorServer, node: &Map<String, Value>) -> Option<Value> {
    let name = node.get("name")?.as_str()?;
    let mut args = Map::new();
    args.insert("query".into(), json!(name));
    args.insert("limit".into(), json!(10));
    let r = tool(server, "search", args).await.ok()?;
    let fits = |h: &&Value, key: &str| {
        h[key].as_str() == Some(name)
            && node.get("file").is_none_or(|f| h["file_path"] == *f)
            && node.get("line").is_none_or(|l| h["line_start"] == *l)
            && h["type"].is_string()
    };
    let items = r["items"].as_array()?;
    for key in ["qualified_name", "name"] {
        let hits: Vec<&Value> = items.iter().filter(|h| fits(h, key)).collect();
        match hits.len() {
            0 => continue,
            1 => return Some(hits[0].clone()),
            _ => return None,
        }
    }
    None
}

pub(crate) fn json(status: StatusCode, v: &Value) -> Response {
    let mut r = Response::new(Body::from(serde_json::to_vec(v).unwrap_or_default()));
    *r.status_mut() = status;
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_decode_like_a_browser_encodes() {
        let p = Params::parse("q=a+b%2Ec&name=app.models.User.rename&line=11&empty=&flag=1&bad=x");
        assert_eq!(p.get("q"), Some("a b.c"));
        assert_eq!(p.get("name"), Some("app.models.User.rename"));
        assert_eq!(p.int("line").unwrap(), Some(11));
        assert_eq!(p.get("empty"), None);
        assert!(p.flag("flag") && !p.flag("missing"));
        assert!(p.int("bad").unwrap_err()["error"].as_str().unwrap().contains("`bad` must be an integer"));
        assert!(p.node().is_ok());
        assert!(Params::parse("").node().unwrap_err()["error"].as_str().unwrap().contains("`name`"));
    }

    #[test]
    fn each_label_has_its_bundle_tool() {
        assert_eq!(bundle_tool("Method"), "function");
        assert_eq!(bundle_tool("Function"), "function");
        assert_eq!(bundle_tool("Class"), "class");
        assert_eq!(bundle_tool("Decision"), "explain");
    }
}
