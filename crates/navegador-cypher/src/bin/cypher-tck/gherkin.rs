//! A small Gherkin reader: features, backgrounds, scenarios, outlines with examples,
//! doc strings and tables. Enough for the openCypher TCK.

#[derive(Clone, Debug)]
pub struct Step {
    pub text: String,
    pub doc: Option<String>,
    pub table: Vec<Vec<String>>,
}

#[derive(Clone, Debug)]
pub struct Scenario {
    pub name: String,
    pub steps: Vec<Step>,
}

/// A scenario being read: name, steps, example tables, whether it is an outline.
type Pending = (String, Vec<Step>, Vec<Vec<Vec<String>>>, bool);

pub fn parse_feature(text: &str) -> Vec<Scenario> {
    let lines: Vec<&str> = text.lines().collect();
    let mut background: Vec<Step> = Vec::new();
    let mut out = Vec::new();
    // (name, steps, examples, is_outline)
    let mut cur: Option<Pending> = None;
    let mut in_background = false;
    let mut in_examples = false;
    let mut i = 0;
    let flush = |cur: &mut Option<Pending>, out: &mut Vec<Scenario>, bg: &[Step]| {
        if let Some((name, steps, examples, outline)) = cur.take() {
            let mut all = bg.to_vec();
            all.extend(steps);
            if outline {
                for table in examples {
                    let Some((head, rows)) = table.split_first() else {
                        continue;
                    };
                    for (k, row) in rows.iter().enumerate() {
                        let sub = |s: &str| {
                            let mut s = s.to_string();
                            for (h, v) in head.iter().zip(row) {
                                s = s.replace(&format!("<{h}>"), v);
                            }
                            s
                        };
                        let steps = all
                            .iter()
                            .map(|st| Step {
                                text: sub(&st.text),
                                doc: st.doc.as_deref().map(sub),
                                table: st
                                    .table
                                    .iter()
                                    .map(|r| r.iter().map(|c| sub(c)).collect())
                                    .collect(),
                            })
                            .collect();
                        out.push(Scenario {
                            name: format!("{name} #{}", k + 1),
                            steps,
                        });
                    }
                }
            } else {
                out.push(Scenario { name, steps: all });
            }
        }
    };
    while i < lines.len() {
        let line = lines[i].trim();
        i += 1;
        if line.is_empty()
            || line.starts_with('#')
            || line.starts_with('@')
            || line.starts_with("Feature:")
        {
            continue;
        }
        if line.starts_with("Background:") {
            in_background = true;
            continue;
        }
        if let Some(rest) = line
            .strip_prefix("Scenario Outline:")
            .or_else(|| line.strip_prefix("Scenario Template:"))
        {
            flush(&mut cur, &mut out, &background);
            cur = Some((rest.trim().to_string(), vec![], vec![], true));
            in_background = false;
            in_examples = false;
            continue;
        }
        if let Some(rest) = line.strip_prefix("Scenario:") {
            flush(&mut cur, &mut out, &background);
            cur = Some((rest.trim().to_string(), vec![], vec![], false));
            in_background = false;
            in_examples = false;
            continue;
        }
        if line.starts_with("Examples:") {
            in_examples = true;
            if let Some(c) = cur.as_mut() {
                c.2.push(vec![]);
            }
            continue;
        }
        if line.starts_with('|') {
            let row = split_row(line);
            if in_examples {
                if let Some(c) = cur.as_mut() {
                    if let Some(t) = c.2.last_mut() {
                        t.push(row);
                    }
                }
            } else {
                let steps = if in_background {
                    Some(&mut background)
                } else {
                    cur.as_mut().map(|c| &mut c.1)
                };
                if let Some(st) = steps.and_then(|s| s.last_mut()) {
                    st.table.push(row);
                }
            }
            continue;
        }
        if line.starts_with("\"\"\"") {
            let mut doc = Vec::new();
            while i < lines.len() && !lines[i].trim().starts_with("\"\"\"") {
                doc.push(lines[i].trim_end());
                i += 1;
            }
            i += 1;
            let indent = doc
                .iter()
                .filter(|l| !l.trim().is_empty())
                .map(|l| l.len() - l.trim_start().len())
                .min()
                .unwrap_or(0);
            let text = doc
                .iter()
                .map(|l| {
                    if l.len() >= indent {
                        &l[indent..]
                    } else {
                        l.trim()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n");
            let steps = if in_background {
                Some(&mut background)
            } else {
                cur.as_mut().map(|c| &mut c.1)
            };
            if let Some(st) = steps.and_then(|s| s.last_mut()) {
                st.doc = Some(text);
            }
            continue;
        }
        for kw in ["Given ", "When ", "Then ", "And ", "But "] {
            if let Some(rest) = line.strip_prefix(kw) {
                let step = Step {
                    text: rest.trim().to_string(),
                    doc: None,
                    table: vec![],
                };
                if in_background {
                    background.push(step);
                } else if let Some(c) = cur.as_mut() {
                    c.1.push(step);
                }
                break;
            }
        }
    }
    flush(&mut cur, &mut out, &background);
    out
}

fn split_row(line: &str) -> Vec<String> {
    // Cells are separated by unescaped '|'.
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut cells = Vec::new();
    let mut cur = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && matches!(chars.peek(), Some('|' | '\\' | 'n')) {
            let n = chars.next().unwrap_or('|');
            cur.push(if n == 'n' { '\n' } else { n });
        } else if c == '|' {
            cells.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(c);
        }
    }
    cells.push(cur.trim().to_string());
    cells
}
