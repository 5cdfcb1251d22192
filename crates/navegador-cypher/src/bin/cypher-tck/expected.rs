//! Canonical text of TCK values: expected table cells are parsed and re-rendered, and
//! actual engine values are rendered the same way, so comparison is string equality.

use navegador_graph::{Edge, Node, Value};
use std::sync::Arc;

pub fn render(v: &Value, sort_lists: bool) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => float(*f),
        Value::String(s) => format!("'{s}'"),
        Value::List(l) => {
            let mut items: Vec<String> = l.iter().map(|x| render(x, sort_lists)).collect();
            if sort_lists {
                items.sort();
            }
            format!("[{}]", items.join(", "))
        }
        Value::Map(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{k}: {}", render(v, sort_lists)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Node(n) => node(n, sort_lists),
        Value::Relationship(e) => rel(e, sort_lists),
        Value::Path(p) => {
            let mut s = String::from("<");
            s.push_str(&node(&p.nodes[0], sort_lists));
            for (i, e) in p.edges.iter().enumerate() {
                let prev = p.nodes[i].id;
                if e.src == prev {
                    s.push_str(&format!("-{}->", rel(e, sort_lists)));
                } else {
                    s.push_str(&format!("<-{}-", rel(e, sort_lists)));
                }
                s.push_str(&node(&p.nodes[i + 1], sort_lists));
            }
            s.push('>');
            s
        }
    }
}

fn float(f: f64) -> String {
    if f.is_nan() {
        "NaN".into()
    } else if f.is_infinite() {
        if f > 0.0 {
            "Inf".into()
        } else {
            "-Inf".into()
        }
    } else if f == 0.0 {
        "0.0".into()
    } else {
        format!("{f:?}")
    }
}

fn props(m: &std::collections::BTreeMap<String, Value>, sort_lists: bool) -> String {
    if m.is_empty() {
        String::new()
    } else {
        format!(
            " {{{}}}",
            m.iter()
                .map(|(k, v)| format!("{k}: {}", render(v, sort_lists)))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

fn node(n: &Node, sort_lists: bool) -> String {
    let mut labels = n.labels.clone();
    labels.sort();
    let l: String = labels.iter().map(|l| format!(":{l}")).collect();
    let p = props(&n.props, sort_lists);
    format!(
        "({}{})",
        l,
        if l.is_empty() {
            p.trim_start().to_string()
        } else {
            p
        }
    )
}

fn rel(e: &Edge, sort_lists: bool) -> String {
    format!("[:{}{}]", e.rel_type, props(&e.props, sort_lists))
}

/// Parses an expected cell into a `Value` (nodes and relationships get id 0).
pub fn parse(s: &str) -> Result<Value, String> {
    let mut p = P {
        s: s.as_bytes(),
        i: 0,
        text: s,
    };
    let v = p.value()?;
    p.ws();
    if p.i != p.s.len() {
        return Err(format!("trailing input in expected value `{s}`"));
    }
    Ok(v)
}

struct P<'a> {
    s: &'a [u8],
    i: usize,
    text: &'a str,
}

impl P<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> u8 {
        self.ws();
        self.s.get(self.i).copied().unwrap_or(0)
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == c {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!(
                "expected '{}' at {} in `{}`",
                c as char, self.i, self.text
            ))
        }
    }
    fn ident(&mut self) -> String {
        self.ws();
        if self.s.get(self.i) == Some(&b'`') {
            let st = self.i + 1;
            let mut j = st;
            while j < self.s.len() && self.s[j] != b'`' {
                j += 1;
            }
            self.i = (j + 1).min(self.s.len());
            return self.text[st..j.min(self.s.len())].to_string();
        }
        let st = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric()
                || self.s[self.i] == b'_'
                || self.s[self.i] >= 0x80)
        {
            self.i += 1;
        }
        self.text[st..self.i].to_string()
    }
    fn props(&mut self) -> Result<std::collections::BTreeMap<String, Value>, String> {
        let mut m = std::collections::BTreeMap::new();
        if self.peek() != b'{' {
            return Ok(m);
        }
        self.expect(b'{')?;
        if self.eat(b'}') {
            return Ok(m);
        }
        loop {
            let k = self.ident();
            self.expect(b':')?;
            let v = self.value()?;
            m.insert(k, v);
            if self.eat(b'}') {
                break;
            }
            self.expect(b',')?;
        }
        Ok(m)
    }
    fn node(&mut self) -> Result<Node, String> {
        self.expect(b'(')?;
        let mut labels = Vec::new();
        while self.eat(b':') {
            labels.push(self.ident());
        }
        let props = self.props()?;
        self.expect(b')')?;
        Ok(Node {
            id: navegador_graph::NodeId(0),
            labels,
            props,
        })
    }
    fn rel(&mut self) -> Result<Edge, String> {
        self.expect(b'[')?;
        self.expect(b':')?;
        let t = self.ident();
        let props = self.props()?;
        self.expect(b']')?;
        Ok(Edge {
            id: navegador_graph::EdgeId(0),
            src: navegador_graph::NodeId(0),
            dst: navegador_graph::NodeId(0),
            rel_type: t,
            props,
        })
    }
    fn value(&mut self) -> Result<Value, String> {
        match self.peek() {
            b'\'' | b'"' => {
                let q = self.s[self.i];
                self.i += 1;
                let mut out = String::new();
                let rest = &self.text[self.i..];
                let mut it = rest.char_indices();
                while let Some((k, c)) = it.next() {
                    if c == '\\' {
                        if let Some((_, n)) = it.next() {
                            match n {
                                'n' => out.push('\n'),
                                't' => out.push('\t'),
                                _ => out.push(n),
                            }
                        }
                    } else if c as u32 == q as u32 {
                        self.i += k + 1;
                        return Ok(Value::String(out));
                    } else {
                        out.push(c);
                    }
                }
                Err(format!("unterminated string in `{}`", self.text))
            }
            b'[' => {
                // A relationship `[:T]` or a list.
                let save = self.i;
                self.i += 1;
                if self.peek() == b':' {
                    self.i = save;
                    return Ok(Value::Relationship(Arc::new(self.rel()?)));
                }
                let mut l = Vec::new();
                if self.eat(b']') {
                    return Ok(Value::List(l));
                }
                loop {
                    l.push(self.value()?);
                    if self.eat(b']') {
                        break;
                    }
                    self.expect(b',')?;
                }
                Ok(Value::List(l))
            }
            b'{' => Ok(Value::Map(self.props()?)),
            b'(' => Ok(Value::Node(Arc::new(self.node()?))),
            b'<' => {
                self.i += 1;
                let mut nodes = vec![self.node()?];
                let mut edges = Vec::new();
                loop {
                    if self.eat(b'>') {
                        break;
                    }
                    let left = self.eat(b'<');
                    self.expect(b'-')?;
                    let mut e = self.rel()?;
                    self.expect(b'-')?;
                    let right = self.eat(b'>');
                    let n = self.node()?;
                    let k = nodes.len() as i64;
                    // Encode direction through ids so `render` sees it.
                    let (prev, next) = (navegador_graph::NodeId(k - 1), navegador_graph::NodeId(k));
                    if left && !right {
                        e.src = next;
                        e.dst = prev;
                    } else {
                        e.src = prev;
                        e.dst = next;
                    }
                    let mut n = n;
                    n.id = next;
                    edges.push(e);
                    nodes.push(n);
                }
                nodes[0].id = navegador_graph::NodeId(0);
                Ok(Value::Path(Arc::new(navegador_graph::Path {
                    nodes,
                    edges,
                })))
            }
            _ => {
                let st = self.i;
                while self.i < self.s.len()
                    && !matches!(self.s[self.i], b',' | b']' | b'}' | b')')
                    && !self.s[self.i].is_ascii_whitespace()
                {
                    self.i += 1;
                }
                let tok = &self.text[st..self.i];
                match tok {
                    "null" => Ok(Value::Null),
                    "true" => Ok(Value::Bool(true)),
                    "false" => Ok(Value::Bool(false)),
                    "NaN" => Ok(Value::Float(f64::NAN)),
                    "Inf" | "Infinity" => Ok(Value::Float(f64::INFINITY)),
                    "-Inf" | "-Infinity" => Ok(Value::Float(f64::NEG_INFINITY)),
                    _ => {
                        if let Ok(i) = tok.parse::<i64>() {
                            Ok(Value::Int(i))
                        } else if let Ok(f) = tok.parse::<f64>() {
                            Ok(Value::Float(f))
                        } else {
                            Err(format!("cannot parse expected value `{tok}`"))
                        }
                    }
                }
            }
        }
    }
}
