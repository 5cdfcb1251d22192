//! Ranked search over the graph. Identifiers are split into words (`CsrfViewMiddleware`
//! is csrf, view, middleware; `force_str` is force, str) both in the full-text index (the
//! `navegador_words` SQL function its triggers call, the same on both backends) and in
//! the query, so a query's words match the words of names, qualified names and
//! docstrings. Candidates come from the name indexes (exact, prefix) and the full-text
//! index (every word as a prefix term); they are ranked by what an agent looks for:
//! exact names first, then source before tests (unless the query is about tests), then
//! definitions before files and variables, then how well the name matches, then BM25.

use navegador_model::{is_test_path, Label};

use crate::db::{params, Db};
use crate::knowledge::SearchHit;
use crate::sqlite::node_row;
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

/// The best `want` hits for `query` among `labels` (all searchable labels when empty).
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
    let like = format!("{}%", query.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"));
    for (tier, sql) in [
        (0u8, format!("SELECT {NODE_COLS} FROM nodes WHERE name = ?1 COLLATE NOCASE AND {name_filter} ORDER BY label, file_path, line_start, id LIMIT ?2")),
        (2u8, format!("SELECT {NODE_COLS} FROM nodes WHERE name LIKE ?1 ESCAPE '\\' AND {name_filter} ORDER BY length(name), name, file_path, line_start, id LIMIT ?2")),
    ] {
        let arg = if tier == 0 { query.to_string() } else { like.clone() };
        let mut st = conn.prepare_cached(&sql)?;
        for r in st.query_map(params![arg, pool as i64], node_row)? {
            let n = r?;
            if seen.insert(n.id) {
                hits.push(SearchHit { node: n, tier, score: 0.0 });
            }
        }
    }
    // Each word of the query as a quoted prefix term: no FTS syntax leaks through.
    let qwords = words(query);
    if !qwords.is_empty() {
        // SQLite: FTS5 with BM25 (lower is better). PostgreSQL: a tsquery of prefix
        // terms ranked by ts_rank over the weighted tsvector, negated to sort alike.
        let (sql, terms) = if conn.is_pg() {
            (
                format!(
                    "SELECT n.id, n.label, n.name, n.qualified_name, n.file_path, n.line_start, n.line_end, n.props,
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
                    "SELECT n.id, n.label, n.name, n.qualified_name, n.file_path, n.line_start, n.line_end, n.props,
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
        for r in rows {
            let (n, score) = r?;
            if seen.insert(n.id) {
                hits.push(SearchHit { node: n, tier: 3, score });
            }
        }
    }
    // A text match whose name holds every word of the query ranks as a name match.
    for h in hits.iter_mut().filter(|h| h.tier > 1) {
        let name_words = words(h.node.name.as_deref().unwrap_or(""));
        if qwords.iter().all(|q| name_words.iter().any(|w| w.starts_with(q.as_str()))) {
            h.tier = 1;
        }
    }
    let about_tests = qwords.iter().any(|w| matches!(w.as_str(), "test" | "tests" | "spec" | "specs"));
    let in_tests = |h: &SearchHit| h.node.file_path.as_deref().is_some_and(is_test_path);
    if exclude_tests {
        hits.retain(|h| !in_tests(h));
    }
    // Among text matches: names holding more of the query's words, public before private
    // (`_x`), and outer before nested (a module's class before its methods).
    let name_hits = |h: &SearchHit| {
        let nw = words(h.node.name.as_deref().unwrap_or(""));
        qwords.iter().filter(|q| nw.iter().any(|w| w.starts_with(q.as_str()))).count()
    };
    let depth = |h: &SearchHit| {
        let q = h.node.qualified_name.as_deref().unwrap_or("");
        q.matches(['.', ':', '#', '/']).count()
    };
    let lower = query.to_lowercase();
    hits.sort_by(|a, b| {
        let key = |h: &SearchHit| {
            let text = h.tier == 3;
            (
                h.tier != 0,
                !about_tests && in_tests(h),
                kind_rank(&h.node.label),
                h.tier,
                // among name matches, names that start with the query, then the closest
                // (shortest) name first
                !text && !h.node.name.as_deref().is_some_and(|n| n.to_lowercase().starts_with(&lower)),
                if text { 0 } else { h.node.name.as_deref().map_or(0, str::len) },
                std::cmp::Reverse(if text { name_hits(h) } else { 0 }),
                text && h.node.name.as_deref().is_some_and(|n| n.starts_with('_')),
                if text { depth(h) } else { 0 },
            )
        };
        key(a)
            .cmp(&key(b))
            .then(a.score.total_cmp(&b.score))
            .then_with(|| (&a.node.file_path, a.node.line_start, a.node.id).cmp(&(&b.node.file_path, b.node.line_start, b.node.id)))
    });
    hits.truncate(want);
    Ok(hits)
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
