//! Tokenizer: turns query text into tokens with byte spans. Keywords stay identifiers;
//! the parser matches them case-insensitively.

use crate::error::{syntax, Result};

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    /// A back-quoted identifier: never a keyword.
    Quoted(String),
    Int(String),
    Float(f64),
    Str(String),
    Param(String),
    Sym(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub start: usize,
    pub end: usize,
}

const SYMS: [&str; 29] = [
    "..", "<>", "<=", ">=", "=~", "+=", "!=", "(", ")", "[", "]", "{", "}", ",", ".", ":", "|",
    ";", "+", "-", "*", "/", "%", "^", "=", "<", ">", "&", "!",
];

pub fn lex(text: &str) -> Result<Vec<Token>> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if text[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if text[i..].starts_with("/*") {
            match text[i + 2..].find("*/") {
                Some(e) => i = i + 2 + e + 2,
                None => {
                    return Err(syntax(
                        text,
                        i,
                        "UnexpectedSyntax",
                        "unterminated comment, expected '*/'".into(),
                    ))
                }
            }
            continue;
        }
        let start = i;
        if c.is_ascii_digit()
            || (c == b'.'
                && b.get(i + 1).is_some_and(|d| d.is_ascii_digit())
                && !prev_is_value(&out, i))
        {
            let (tok, end) = number(text, i)?;
            out.push(Token { tok, start, end });
            i = end;
            continue;
        }
        if c == b'\'' || c == b'"' {
            let (s, end) = string(text, i)?;
            out.push(Token {
                tok: Tok::Str(s),
                start,
                end,
            });
            i = end;
            continue;
        }
        if c == b'`' {
            let mut s = String::new();
            let mut j = i + 1;
            loop {
                match text[j..].find('`') {
                    None => {
                        return Err(syntax(
                            text,
                            i,
                            "UnexpectedSyntax",
                            "unterminated quoted identifier, expected '`'".into(),
                        ))
                    }
                    Some(e) => {
                        s.push_str(&text[j..j + e]);
                        j += e + 1;
                        if b.get(j) == Some(&b'`') {
                            s.push('`');
                            j += 1;
                        } else {
                            break;
                        }
                    }
                }
            }
            out.push(Token {
                tok: Tok::Quoted(s),
                start,
                end: j,
            });
            i = j;
            continue;
        }
        if c == b'$' {
            let j = i + 1;
            if b.get(j) == Some(&b'`') {
                let e = text[j + 1..].find('`').ok_or_else(|| {
                    syntax(
                        text,
                        i,
                        "UnexpectedSyntax",
                        "unterminated parameter name".into(),
                    )
                })?;
                out.push(Token {
                    tok: Tok::Param(text[j + 1..j + 1 + e].to_string()),
                    start,
                    end: j + e + 2,
                });
                i = j + e + 2;
                continue;
            }
            let mut e = j;
            for (k, ch) in text[j..].char_indices() {
                if !(ch.is_alphanumeric() || ch == '_') {
                    break;
                }
                e = j + k + ch.len_utf8();
            }
            if e == j {
                return Err(syntax(
                    text,
                    j,
                    "UnexpectedSyntax",
                    "expected a parameter name after '$'".into(),
                ));
            }
            out.push(Token {
                tok: Tok::Param(text[j..e].to_string()),
                start,
                end: e,
            });
            i = e;
            continue;
        }
        let e = ident_end(text, i);
        if e > i {
            out.push(Token {
                tok: Tok::Ident(text[i..e].to_string()),
                start,
                end: e,
            });
            i = e;
            continue;
        }
        if let Some(s) = SYMS.iter().find(|s| text[i..].starts_with(**s)) {
            out.push(Token {
                tok: Tok::Sym(s),
                start,
                end: i + s.len(),
            });
            i += s.len();
            continue;
        }
        let ch = text[i..].chars().next().unwrap_or(' ');
        if matches!(
            ch,
            '\u{2010}'
                ..='\u{2015}' | '\u{2212}' | '\u{fe58}' | '\u{fe63}' | '\u{ff0d}' | '\u{00ad}'
        ) {
            return Err(syntax(
                text,
                i,
                "InvalidUnicodeCharacter",
                format!("invalid character '{ch}', expected '-'"),
            ));
        }
        return Err(syntax(
            text,
            i,
            "UnexpectedSyntax",
            format!("unexpected character '{ch}'"),
        ));
    }
    out.push(Token {
        tok: Tok::Eof,
        start: text.len(),
        end: text.len(),
    });
    Ok(out)
}

/// Whether a '.' at `i` continues the previous token (property access) rather than
/// starting a number like `.5`.
fn prev_is_value(out: &[Token], i: usize) -> bool {
    out.last().is_some_and(|t| {
        t.end == i
            && matches!(
                t.tok,
                Tok::Ident(_) | Tok::Quoted(_) | Tok::Sym(")" | "]" | "}") | Tok::Param(_)
            )
    })
}

fn ident_end(text: &str, i: usize) -> usize {
    let mut j = i;
    for (k, ch) in text[i..].char_indices() {
        let ok = if k == 0 {
            ch.is_alphabetic() || ch == '_'
        } else {
            ch.is_alphanumeric() || ch == '_'
        };
        if !ok {
            break;
        }
        j = i + k + ch.len_utf8();
    }
    j
}

fn number(text: &str, i: usize) -> Result<(Tok, usize)> {
    let b = text.as_bytes();
    let bad = |at: usize| {
        syntax(
            text,
            at,
            "InvalidNumberLiteral",
            "invalid number literal".into(),
        )
    };
    if text[i..].starts_with("0x") || text[i..].starts_with("0o") {
        let mut e = i + 2;
        while e < b.len() && (b[e].is_ascii_alphanumeric() || b[e] == b'_') {
            e += 1;
        }
        let body = &text[i + 2..e];
        let radix = if text[i..].starts_with("0x") { 16 } else { 8 };
        if body.is_empty() || !body.chars().all(|c| c.is_digit(radix)) {
            return Err(bad(i));
        }
        return Ok((Tok::Int(text[i..e].to_string()), e));
    }
    let mut j = i;
    while j < b.len() && b[j].is_ascii_digit() {
        j += 1;
    }
    let mut float = false;
    if j < b.len() && b[j] == b'.' && b.get(j + 1).is_some_and(|d| d.is_ascii_digit()) {
        float = true;
        j += 1;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
    }
    if j < b.len() && (b[j] == b'e' || b[j] == b'E') {
        let mut k = j + 1;
        if k < b.len() && (b[k] == b'-' || b[k] == b'+') {
            k += 1;
        }
        if k < b.len() && b[k].is_ascii_digit() {
            float = true;
            j = k;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
        } else {
            return Err(bad(i));
        }
    }
    if ident_end(text, j) > j {
        return Err(bad(i));
    }
    let s = &text[i..j];
    if float {
        let v: f64 = s.parse().map_err(|_| bad(i))?;
        if v.is_infinite() {
            return Err(syntax(
                text,
                i,
                "FloatingPointOverflow",
                "float literal is too large".into(),
            ));
        }
        Ok((Tok::Float(v), j))
    } else {
        Ok((Tok::Int(s.to_string()), j))
    }
}

fn string(text: &str, i: usize) -> Result<(String, usize)> {
    let quote = text.as_bytes()[i] as char;
    let mut s = String::new();
    let mut it = text[i + 1..].char_indices();
    while let Some((k, ch)) = it.next() {
        if ch == quote {
            return Ok((s, i + 1 + k + 1));
        }
        if ch == '\\' {
            let Some((_, e)) = it.next() else { break };
            match e {
                'n' => s.push('\n'),
                't' => s.push('\t'),
                'r' => s.push('\r'),
                'b' => s.push('\u{8}'),
                'f' => s.push('\u{c}'),
                '\\' | '\'' | '"' => s.push(e),
                'u' | 'U' => {
                    let n = if e == 'u' { 4 } else { 8 };
                    let hex: String = it.by_ref().take(n).map(|(_, c)| c).collect();
                    match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                        Some(c) if hex.len() == n => s.push(c),
                        _ => {
                            return Err(syntax(
                                text,
                                i + 1 + k,
                                "UnexpectedSyntax",
                                "invalid unicode escape".into(),
                            ))
                        }
                    }
                }
                _ => {
                    s.push('\\');
                    s.push(e);
                }
            }
        } else {
            s.push(ch);
        }
    }
    Err(syntax(
        text,
        i,
        "UnexpectedSyntax",
        format!("unterminated string literal, expected {quote}"),
    ))
}
