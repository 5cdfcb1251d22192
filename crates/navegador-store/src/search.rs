//! Ranked search over the graph. Identifiers are split into words (`CsrfViewMiddleware`
//! is csrf, view, middleware; `force_str` is force, str) both in the full-text index (the
//! `navegador_words` SQL function its triggers call, the same on both backends) and in
//! the query, so a query's words match the words of names, qualified names and
//! docstrings. Candidates come from the name indexes (exact, prefix) and the full-text
//! index (every word as a prefix term); they are ranked by what an agent looks for:
//! exact names first, then source before tests (unless the query is about tests), then
//! definitions before files and variables, then how well the name matches, then BM25.

use std::collections::HashMap;

use navegador_model::{is_test_path, Label};

use crate::db::{params, Db};
use crate::knowledge::SearchHit;
use crate::sqlite::{node_row, NodeRow};
use crate::Result;

/// The version of what `search_fts` holds; a writer that opens a graph indexed with an
/// older one rebuilds the index (`schema.rs::SEARCH_VERSION` is recorded in `meta`).
pub const SEARCH_VERSION: &str = "2";

/// `text` followed by its identifier words where splitting adds any
/// (`CsrfViewMiddleware` -> `CsrfViewMiddleware Csrf View Middleware`): the text the
/// full-text index keeps for names. A word boundary is a lower-case letter or digit
/// followed by an upper-case letter, or an upper-case letter followed by one that starts
/// a capitalised word (`HTTPServer` -> HTTP Server). Non-alphanumeric characters separate
/// words in the tokenizer already. PostgreSQL's `navegador_words` does the same.
pub fn identifier_words(text: &str) -> String {
    let split = camel_split(text);
    if split == text {
        text.to_string()
    } else {
        format!("{text} {split}")
    }
}

fn camel_split(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        if i > 0 && c.is_uppercase() {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                out.push(' ');
            }
        }
        out.push(c);
    }
    out
}

/// The words of a query or a name, lower-case: split on anything not alphanumeric, then
/// on case changes.
pub fn words(text: &str) -> Vec<String> {
    camel_split(text)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Labels ranked as definitions (what a search is usually for); files come next, then
/// variables.
fn kind_rank(label: &str) -> u8 {
    match label {
        "Variable" => 2,
        "File" => 1,
        _ => 0,
    }
}

const NODE_COLS: &str = "id, label, name, qualified_name, file_path, line_start, line_end, props";
/// The same columns with `props` left out (`'{}'`): candidates are ranked without their
/// properties, which are read for the page only.
const RANK_COLS: &str = "id, label, name, qualified_name, file_path, line_start, line_end, '{}'";

/// The best `want` hits for `query` among `labels` (all searchable labels when empty).
///
/// Short prefixes match tens of thousands of names and hundreds of thousands of words on a
/// large graph, so the candidates are gathered with bounds that do not change the page:
/// prefix matches are ordered on the name index alone (covering: no row is read until the
/// shortest names are known) and read a batch at a time; the full-text query runs only when
/// the name matches do not already fill the page with hits it cannot outrank (a text match
/// ranks after every exact name, and after every source definition whose name starts with
/// the query and is shorter in bytes than any prefix match left out is in characters).
pub(crate) fn search(conn: &Db, query: &str, labels: &[Label], want: usize, exclude_tests: bool) -> Result<Vec<SearchHit>> {
    let query = query.trim();
    if query.is_empty() || want == 0 {
        return Ok(Vec::new());
    }
    let label_filter = if labels.is_empty() {
        "label NOT IN ('Import', 'Decorator', 'Repository')".to_string()
    } else {
        format!("label IN ({})", labels.iter().map(|l| format!("'{}'", l.as_str())).collect::<Vec<_>>().join(", "))
    };
    // `+label`: the name index (case-insensitive, also serving LIKE prefixes) must drive
    // the lookup, not the label index.
    let name_filter = format!("+{label_filter}");
    // Enough candidates that the ranking, not the index order, decides the page.
    let pool = (want * 10).clamp(300, 3000);
    let mut hits: Vec<SearchHit> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let sql = format!("SELECT {RANK_COLS} FROM nodes WHERE name = ?1 COLLATE NOCASE AND {name_filter} ORDER BY label, file_path, line_start, id LIMIT ?2");
    let mut st = conn.prepare_cached(&sql)?;
    for r in st.query_map(params![query.to_string(), pool as i64], node_row)? {
        let n = r?;
        if seen.insert(n.id) {
            hits.push(SearchHit { node: n, tier: 0, score: 0.0 });
        }
    }
    let (prefix, prefix_cut) = prefix_matches(conn, query, &name_filter, pool)?;
    for n in prefix {
        if seen.insert(n.id) {
            hits.push(SearchHit { node: n, tier: 2, score: 0.0 });
        }
    }
    let qwords = words(query);
    let about_tests = qwords.iter().any(|w| matches!(w.as_str(), "test" | "tests" | "spec" | "specs"));
    let in_tests = |h: &SearchHit| h.node.file_path.as_deref().is_some_and(is_test_path);
    promote(&mut hits, &qwords);
    let lower = query.to_lowercase();
    let starts = |h: &SearchHit| h.node.name.as_deref().is_some_and(|n| n.to_lowercase().starts_with(&lower));
    // Hits no text match can outrank (see above): when they fill the page, the text index
    // is not asked.
    let unbeatable = hits
        .iter()
        .filter(|h| !(exclude_tests && in_tests(h)))
        .filter(|h| {
            h.tier == 0
                || (h.tier == 1
                    && !(!about_tests && in_tests(h))
                    && kind_rank(&h.node.label) == 0
                    && starts(h)
                    && prefix_cut.is_none_or(|longer| h.node.name.as_deref().map_or(0, str::len) < longer))
        })
        .count();
    // Each word of the query as a quoted prefix term: no FTS syntax leaks through.
    if !qwords.is_empty() && unbeatable < want {
        // SQLite: FTS5 with BM25 (lower is better). PostgreSQL: a tsquery of prefix
        // terms ranked by ts_rank over the weighted tsvector, negated to sort alike.
        let (sql, terms) = if conn.is_pg() {
            (
                format!(
                    "SELECT n.id, n.label, n.name, n.qualified_name, n.file_path, n.line_start, n.line_end, '{{}}',
                            CAST(-ts_rank('{{0.1, 0.2, 0.5, 1.0}}', f.doc, q) AS DOUBLE PRECISION) AS score
                     FROM search_fts f JOIN nodes n ON n.id = f.rowid, to_tsquery('simple', ?1) q
                     WHERE f.doc @@ q AND n.{label_filter}
                     ORDER BY score, n.id LIMIT ?2"
                ),
                qwords.iter().map(|w| format!("{w}:*")).collect::<Vec<_>>().join(" & "),
            )
        } else {
            (
                format!(
                    "SELECT n.id, n.label, n.name, n.qualified_name, n.file_path, n.line_start, n.line_end, '{{}}',
                            bm25(search_fts, 10.0, 5.0, 1.0) AS score
                     FROM search_fts JOIN nodes n ON n.id = search_fts.rowid
                     WHERE search_fts MATCH ?1 AND n.{label_filter}
                     ORDER BY score, n.id LIMIT ?2"
                ),
                qwords.iter().map(|w| format!("\"{w}\"*")).collect::<Vec<_>>().join(" "),
            )
        };
        let mut st = conn.prepare_cached(&sql)?;
        let rows = st.query_map(params![terms, pool as i64], |r| Ok((node_row(r)?, r.get::<f64>(8)?)))?;
        let from = hits.len();
        for r in rows {
            let (n, score) = r?;
            if seen.insert(n.id) {
                hits.push(SearchHit { node: n, tier: 3, score });
            }
        }
        promote(&mut hits[from..], &qwords);
    }
    if exclude_tests {
        hits.retain(|h| !in_tests(h));
    }
    // Among text matches: names holding more of the query's words, public before private
    // (`_x`), and outer before nested (a module's class before its methods). Each hit's
    // key is computed once.
    let name_hits = |h: &SearchHit| {
        let nw = words(h.node.name.as_deref().unwrap_or(""));
        qwords.iter().filter(|q| nw.iter().any(|w| w.starts_with(q.as_str()))).count()
    };
    let depth = |h: &SearchHit| {
        let q = h.node.qualified_name.as_deref().unwrap_or("");
        q.matches(['.', ':', '#', '/']).count()
    };
    let key = |h: &SearchHit| {
        let text = h.tier == 3;
        (
            h.tier != 0,
            !about_tests && in_tests(h),
            kind_rank(&h.node.label),
            h.tier,
            // among name matches, names that start with the query, then the closest
            // (shortest) name first
            !text && !starts(h),
            if text { 0 } else { h.node.name.as_deref().map_or(0, str::len) },
            std::cmp::Reverse(if text { name_hits(h) } else { 0 }),
            text && h.node.name.as_deref().is_some_and(|n| n.starts_with('_')),
            if text { depth(h) } else { 0 },
        )
    };
    let mut keyed: Vec<_> = hits.into_iter().map(|h| (key(&h), h)).collect();
    keyed.sort_by(|(ka, a), (kb, b)| {
        ka.cmp(kb)
            .then(a.score.total_cmp(&b.score))
            .then_with(|| (&a.node.file_path, a.node.line_start, a.node.id).cmp(&(&b.node.file_path, b.node.line_start, b.node.id)))
    });
    keyed.truncate(want);
    let mut hits: Vec<SearchHit> = keyed.into_iter().map(|(_, h)| h).collect();
    // The page's properties.
    if !hits.is_empty() {
        let ids = hits.iter().map(|h| h.node.id.to_string()).collect::<Vec<_>>().join(", ");
        let mut props = std::collections::HashMap::new();
        let mut st = conn.prepare_cached(&format!("SELECT {NODE_COLS} FROM nodes WHERE id IN ({ids})"))?;
        for r in st.query_map(params![], node_row)? {
            let n = r?;
            props.insert(n.id, n.props);
        }
        for h in hits.iter_mut() {
            if let Some(p) = props.remove(&h.node.id) {
                h.node.props = p;
            }
        }
    }
    Ok(hits)
}

/// A match whose name holds every word of the query (each as a prefix) ranks as a name
/// match (tier 1).
fn promote(hits: &mut [SearchHit], qwords: &[String]) {
    for h in hits.iter_mut().filter(|h| h.tier > 1) {
        let name_words = words(h.node.name.as_deref().unwrap_or(""));
        if qwords.iter().all(|q| name_words.iter().any(|w| w.starts_with(q.as_str()))) {
            h.tier = 1;
        }
    }
}

/// The `pool` shortest names starting with `query` (case-insensitive), among rows passing
/// `filter`, with every other name as long as the last of them (so the pool ends at a
/// length), sorted by length, name, file, line; and, when longer names also match, the
/// length in characters that every name left out reaches. Names are ordered on the index
/// alone; rows are read a batch at a time until the pool is full.
fn prefix_matches(conn: &Db, query: &str, filter: &str, pool: usize) -> Result<(Vec<NodeRow>, Option<usize>)> {
    let like = format!("{}%", query.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"));
    let mut order = conn.prepare_cached("SELECT id, name FROM nodes WHERE name LIKE ?1 ESCAPE '\\' ORDER BY length(name), name, id LIMIT ?2 OFFSET ?3")?;
    let mut out: Vec<NodeRow> = Vec::new();
    let mut offset = 0usize;
    let batch = pool * 2;
    // The length of the name that filled the pool, and whether a longer one was seen.
    let mut full: Option<usize> = None;
    let mut longer = false;
    while !longer {
        let ids: Vec<(i64, String)> = order.query_map(params![like.clone(), batch as i64, offset as i64], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<Result<_>>()?;
        offset += ids.len();
        if !ids.is_empty() {
            let list = ids.iter().map(|(id, _)| id.to_string()).collect::<Vec<_>>().join(", ");
            let mut st = conn.prepare_cached(&format!("SELECT {RANK_COLS} FROM nodes WHERE id IN ({list}) AND {filter}"))?;
            let mut rows: HashMap<i64, NodeRow> = HashMap::new();
            for r in st.query_map(params![], node_row)? {
                let n = r?;
                rows.insert(n.id, n);
            }
            for (id, name) in &ids {
                let len = name.chars().count();
                if full.is_some_and(|f| len > f) {
                    longer = true;
                    break;
                }
                if let Some(n) = rows.remove(id) {
                    out.push(n);
                    if out.len() == pool {
                        full = Some(len);
                    }
                }
            }
        }
        if ids.len() < batch {
            break;
        }
    }
    let len = |n: &NodeRow| n.name.as_deref().map_or(0, |s| s.chars().count());
    out.sort_by(|a, b| (len(a), &a.name, &a.file_path, a.line_start, a.id).cmp(&(len(b), &b.name, &b.file_path, b.line_start, b.id)));
    Ok((out, full.filter(|_| longer).map(|f| f + 1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_into_words() {
        let cases = [
            ("CsrfViewMiddleware", "CsrfViewMiddleware Csrf View Middleware"),
            ("PBKDF2PasswordHasher", "PBKDF2PasswordHasher PBKDF2 Password Hasher"),
            ("HTTPServer", "HTTPServer HTTP Server"),
            ("getHTTPResponse", "getHTTPResponse get HTTP Response"),
            ("force_str", "force_str"),
            ("utf8Decode", "utf8Decode utf8 Decode"),
            ("django.middleware.csrf", "django.middleware.csrf"),
        ];
        for (text, want) in cases {
            assert_eq!(identifier_words(text), want, "{text}");
        }
        assert_eq!(words("password hasher"), ["password", "hasher"]);
        assert_eq!(words("csrfToken"), ["csrf", "token"]);
        assert_eq!(words("BasePasswordHasher"), ["base", "password", "hasher"]);
    }
}
