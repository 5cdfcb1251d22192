//! Hand-written recursive-descent parser with precedence climbing for expressions.
//!
//! Every error names what was expected and where; nesting deeper than `MAX_DEPTH`
//! is an error rather than a stack overflow.

use std::collections::HashSet;

use navegador_graph::Value;

use crate::ast::*;
use crate::error::{syntax, CypherError, Result};
use crate::eval::{Guard, Stop};
use crate::memory;
use crate::lexer::{lex, Tok, Token};

const MAX_DEPTH: usize = 100;
/// Extra nesting charged for a pattern evaluated inside an expression.
const PATTERN_COST: usize = 3;
/// Longest pattern chain (relationships in one pattern part).
const MAX_CHAIN: usize = 100;

/// Parses a whole statement (`[EXPLAIN] query [;]`).
pub fn parse(text: &str) -> Result<Statement> {
    parse_on_own_thread(text, None).0
}

/// `parse` within a query's budgets: stops with `Timeout` or `Cancelled` when its clock
/// says so, and the tree, built on the parser's thread, counts as memory the query holds.
pub fn parse_within(text: &str, guard: &Guard) -> Result<Statement> {
    let (stmt, kept) = parse_on_own_thread(text, Some(&guard.stop));
    let stmt = stmt?;
    guard.adopt(kept)?;
    Ok(stmt)
}

/// The statement and the bytes the parser's thread allocated and did not free (the tree).
fn parse_on_own_thread(text: &str, stop: Option<&Stop>) -> (Result<Statement>, i64) {
    // Recursive descent in debug builds uses large frames; a dedicated thread with a
    // big stack keeps `MAX_DEPTH` safe whatever stack the caller runs on.
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(PARSER_STACK)
            .spawn_scoped(s, || {
                let before = memory::thread_allocated();
                let stmt = parse_on_this_thread(text, stop);
                (stmt, memory::thread_allocated() - before)
            })
            .map_err(|e| CypherError::Unsupported(format!("cannot start the parser thread: {e}")))
            .and_then(|h| h.join().map_err(|_| CypherError::Unsupported("the parser panicked".into())))
            .unwrap_or_else(|e| (Err(e), 0))
    })
}

const PARSER_STACK: usize = 64 << 20;

/// Nesting steps between two looks at the deadline.
const POLL_EVERY: u32 = 256;

fn parse_on_this_thread(text: &str, stop: Option<&Stop>) -> Result<Statement> {
    if let Some(s) = stop {
        s.check()?;
    }
    let toks = lex(text)?;
    let mut p = Parser {
        text,
        toks,
        pos: 0,
        depth: 0,
        failed: HashSet::new(),
        stop,
        polls: 0,
    };
    let explain = p.eat_kw("EXPLAIN") || p.eat_kw("PROFILE");
    let query = p.query()?;
    p.eat_sym(";");
    if !matches!(p.peek(), Tok::Eof) {
        return Err(p.expected("a clause, UNION or the end of the query"));
    }
    Ok(Statement { explain, query })
}

struct Parser<'a> {
    text: &'a str,
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    /// Token positions where a speculative pattern parse already failed, so
    /// backtracking stays polynomial.
    failed: HashSet<(usize, u8)>,
    stop: Option<&'a Stop>,
    polls: u32,
}

const CLAUSE_KWS: [&str; 14] = [
    "MATCH", "OPTIONAL", "UNWIND", "WITH", "RETURN", "CREATE", "MERGE", "SET", "REMOVE", "DELETE",
    "DETACH", "CALL", "LOAD", "FOREACH",
];

impl<'a> Parser<'a> {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].tok
    }

    fn start(&self) -> usize {
        self.toks[self.pos].start
    }

    fn prev_end(&self) -> usize {
        if self.pos == 0 {
            0
        } else {
            self.toks[self.pos - 1].end
        }
    }

    fn advance(&mut self) -> Tok {
        let t = self.toks[self.pos].tok.clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn is_kw_at(&self, k: usize, kw: &str) -> bool {
        matches!(self.peek_at(k), Tok::Ident(s) if s.eq_ignore_ascii_case(kw))
    }

    fn is_kw(&self, kw: &str) -> bool {
        self.is_kw_at(0, kw)
    }

    fn eat_kw(&mut self, kw: &str) -> bool {
        if self.is_kw(kw) {
            self.advance();
            true
        } else {
            false
        }
    }

    fn expect_kw(&mut self, kw: &str) -> Result<()> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            Err(self.expected(kw))
        }
    }

    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(x) if *x == s)
    }

    fn is_sym_at(&self, k: usize, s: &str) -> bool {
        matches!(self.peek_at(k), Tok::Sym(x) if *x == s)
    }

    fn eat_sym(&mut self, s: &str) -> bool {
        if self.is_sym(s) {
            self.advance();
            true
        } else {
            false
        }
    }

    fn expect_sym(&mut self, s: &str) -> Result<()> {
        if self.eat_sym(s) {
            Ok(())
        } else {
            Err(self.expected(&format!("'{s}'")))
        }
    }

    fn describe(&self) -> String {
        match self.peek() {
            Tok::Ident(s) => format!("'{s}'"),
            Tok::Quoted(s) => format!("`{s}`"),
            Tok::Int(s) => format!("number {s}"),
            Tok::Float(f) => format!("number {f}"),
            Tok::Str(s) => format!("string '{s}'"),
            Tok::Param(s) => format!("parameter ${s}"),
            Tok::Sym(s) => format!("'{s}'"),
            Tok::Eof => "the end of the query".to_string(),
        }
    }

    fn expected(&self, what: &str) -> CypherError {
        syntax(
            self.text,
            self.start(),
            "UnexpectedSyntax",
            format!("expected {what}, found {}", self.describe()),
        )
    }

    fn err_at(&self, offset: usize, code: &'static str, msg: String) -> CypherError {
        syntax(self.text, offset, code, msg)
    }

    fn enter(&mut self) -> Result<()> {
        self.polls = self.polls.wrapping_add(1);
        if self.polls & (POLL_EVERY - 1) == 0 {
            if let Some(s) = self.stop {
                s.check()?;
            }
        }
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err_at(
                self.start(),
                "NestingTooDeep",
                format!("expression nested deeper than {MAX_DEPTH} levels"),
            ));
        }
        Ok(())
    }

    /// A symbolic name: identifier (keywords allowed) or back-quoted name.
    fn name(&mut self, what: &str) -> Result<String> {
        match self.peek().clone() {
            Tok::Ident(s) | Tok::Quoted(s) => {
                self.advance();
                Ok(s)
            }
            _ => Err(self.expected(what)),
        }
    }

    fn is_name(&self) -> bool {
        matches!(self.peek(), Tok::Ident(_) | Tok::Quoted(_))
    }

    /// A name that binds a variable: back-quoted, or an identifier that is not a
    /// reserved word. openCypher reserves them, and an expression could not read such a
    /// variable back, so the binding is where it is refused.
    fn variable(&mut self, what: &str) -> Result<String> {
        if let Tok::Ident(s) = self.peek() {
            if reserved_for_variables(&s.to_ascii_uppercase()) {
                return Err(self.err_at(
                    self.start(),
                    "ReservedKeyword",
                    format!(
                        "`{s}` is a reserved word and cannot name a variable; pick another name or quote it in backticks"
                    ),
                ));
            }
        }
        self.name(what)
    }

    /// Whether the token at `k` can name a variable (see `variable`).
    fn is_variable_at(&self, k: usize) -> bool {
        match self.peek_at(k) {
            Tok::Quoted(_) => true,
            Tok::Ident(s) => !reserved_for_variables(&s.to_ascii_uppercase()),
            _ => false,
        }
    }

    // ---------------------------------------------------------------- queries

    fn query(&mut self) -> Result<Query> {
        let mut parts = vec![self.single_query()?];
        let mut union_all = Vec::new();
        while self.eat_kw("UNION") {
            union_all.push(self.eat_kw("ALL"));
            parts.push(self.single_query()?);
        }
        Ok(Query { parts, union_all })
    }

    fn single_query(&mut self) -> Result<SingleQuery> {
        let mut clauses = Vec::new();
        while let Some(c) = self.clause()? {
            clauses.push(c);
        }
        if clauses.is_empty() {
            return Err(self.expected("a clause (MATCH, RETURN, CREATE, ...)"));
        }
        Ok(SingleQuery { clauses })
    }

    fn clause(&mut self) -> Result<Option<Clause>> {
        let start = self.start();
        let is_clause = CLAUSE_KWS.iter().any(|k| self.is_kw(k));
        if !is_clause {
            return Ok(None);
        }
        let c = if self.eat_kw("OPTIONAL") {
            self.expect_kw("MATCH")?;
            self.match_rest(true, start)?
        } else if self.eat_kw("MATCH") {
            self.match_rest(false, start)?
        } else if self.eat_kw("UNWIND") {
            let expr = self.expr()?;
            self.expect_kw("AS")?;
            let alias = self.variable("a variable name")?;
            Clause::Unwind {
                expr,
                alias,
                span: (start, self.prev_end()),
            }
        } else if self.eat_kw("WITH") {
            Clause::With(self.projection(true, start)?)
        } else if self.eat_kw("RETURN") {
            Clause::Return(self.projection(false, start)?)
        } else if self.eat_kw("CREATE") {
            let pattern = self.pattern()?;
            Clause::Create {
                pattern,
                span: (start, self.prev_end()),
            }
        } else if self.eat_kw("MERGE") {
            let part = self.pattern_part()?;
            let mut on_create = Vec::new();
            let mut on_match = Vec::new();
            while self.is_kw("ON") {
                self.advance();
                if self.eat_kw("CREATE") {
                    self.expect_kw("SET")?;
                    on_create.extend(self.set_items()?);
                } else if self.eat_kw("MATCH") {
                    self.expect_kw("SET")?;
                    on_match.extend(self.set_items()?);
                } else {
                    return Err(self.expected("CREATE or MATCH after ON"));
                }
            }
            Clause::Merge {
                part,
                on_create,
                on_match,
                span: (start, self.prev_end()),
            }
        } else if self.eat_kw("SET") {
            let items = self.set_items()?;
            Clause::Set {
                items,
                span: (start, self.prev_end()),
            }
        } else if self.eat_kw("REMOVE") {
            let mut items = Vec::new();
            loop {
                let target = self.postfix_no_labels()?;
                if self.is_sym(":") {
                    let Expr::Var(var) = target else {
                        return Err(self.expected("a variable before labels"));
                    };
                    let labels = self.label_list()?;
                    items.push(RemoveItem::Labels { var, labels });
                } else if let Expr::Prop(t, key) = target {
                    items.push(RemoveItem::Prop { target: *t, key });
                } else {
                    return Err(self.expected("a property or labels to remove"));
                }
                if !self.eat_sym(",") {
                    break;
                }
            }
            Clause::Remove {
                items,
                span: (start, self.prev_end()),
            }
        } else if self.is_kw("DETACH") || self.is_kw("DELETE") {
            let detach = self.eat_kw("DETACH");
            self.expect_kw("DELETE")?;
            let mut exprs = vec![self.expr()?];
            while self.eat_sym(",") {
                exprs.push(self.expr()?);
            }
            Clause::Delete {
                detach,
                exprs,
                span: (start, self.prev_end()),
            }
        } else if self.eat_kw("CALL") {
            if self.is_sym("{") {
                return Err(self.err_at(
                    start,
                    "UnsupportedClause",
                    "CALL { } subqueries are not supported".into(),
                ));
            }
            let mut name = self.name("a procedure name")?;
            while self.eat_sym(".") {
                name.push('.');
                name.push_str(&self.name("a procedure name")?);
            }
            let args = if self.eat_sym("(") {
                let mut args = Vec::new();
                if !self.eat_sym(")") {
                    loop {
                        args.push(self.expr()?);
                        if self.eat_sym(")") {
                            break;
                        }
                        self.expect_sym(",")?;
                    }
                }
                Some(args)
            } else {
                None
            };
            let mut yields = Vec::new();
            let mut where_ = None;
            if self.eat_kw("YIELD") && !self.eat_sym("*") {
                {
                    loop {
                        let f = self.name("a field name")?;
                        let a = if self.eat_kw("AS") {
                            Some(self.variable("a variable name")?)
                        } else {
                            None
                        };
                        yields.push((f, a));
                        if !self.eat_sym(",") {
                            break;
                        }
                    }
                    if self.is_kw("WHERE") {
                        self.advance();
                        where_ = Some(self.expr()?);
                    }
                }
            }
            Clause::Call {
                name,
                args,
                yields,
                where_,
                span: (start, self.prev_end()),
            }
        } else if self.eat_kw("LOAD") {
            self.expect_kw("CSV")?;
            if self.eat_kw("WITH") {
                self.expect_kw("HEADERS")?;
            }
            self.expect_kw("FROM")?;
            self.expr()?;
            self.expect_kw("AS")?;
            self.variable("a variable name")?;
            if self.eat_kw("FIELDTERMINATOR") {
                self.expr()?;
            }
            Clause::LoadCsv {
                span: (start, self.prev_end()),
            }
        } else if self.eat_kw("FOREACH") {
            self.expect_sym("(")?;
            let var = self.variable("a variable name")?;
            self.expect_kw("IN")?;
            let list = self.expr()?;
            self.expect_sym("|")?;
            let mut body = Vec::new();
            while let Some(c) = self.clause()? {
                body.push(c);
            }
            self.expect_sym(")")?;
            Clause::Foreach {
                var,
                list,
                body,
                span: (start, self.prev_end()),
            }
        } else {
            return Ok(None);
        };
        Ok(Some(c))
    }

    fn match_rest(&mut self, optional: bool, start: usize) -> Result<Clause> {
        let pattern = self.pattern()?;
        let where_ = if self.eat_kw("WHERE") {
            Some(self.expr()?)
        } else {
            None
        };
        Ok(Clause::Match {
            optional,
            pattern,
            where_,
            span: (start, self.prev_end()),
        })
    }

    fn projection(&mut self, is_with: bool, start: usize) -> Result<Projection> {
        let distinct = self.eat_kw("DISTINCT");
        let mut star = false;
        let mut items = Vec::new();
        if self.eat_sym("*") {
            star = true;
            if !self.eat_sym(",") {
                return self.projection_tail(is_with, start, distinct, star, items);
            }
        }
        loop {
            let s = self.start();
            let expr = self.expr()?;
            let text = self.text[s..self.prev_end()].to_string();
            let alias = if self.eat_kw("AS") {
                Some(self.variable("an alias")?)
            } else {
                None
            };
            items.push(ProjItem { expr, alias, text });
            if !self.eat_sym(",") {
                break;
            }
        }
        self.projection_tail(is_with, start, distinct, star, items)
    }

    fn projection_tail(
        &mut self,
        is_with: bool,
        start: usize,
        distinct: bool,
        star: bool,
        items: Vec<ProjItem>,
    ) -> Result<Projection> {
        let mut order = Vec::new();
        if self.eat_kw("ORDER") {
            self.expect_kw("BY")?;
            loop {
                let e = self.expr()?;
                let asc = if self.eat_kw("DESC") || self.eat_kw("DESCENDING") {
                    false
                } else {
                    let _ = self.eat_kw("ASC") || self.eat_kw("ASCENDING");
                    true
                };
                order.push((e, asc));
                if !self.eat_sym(",") {
                    break;
                }
            }
        }
        let skip = if self.eat_kw("SKIP") {
            Some(self.expr()?)
        } else {
            None
        };
        let limit = if self.eat_kw("LIMIT") {
            Some(self.expr()?)
        } else {
            None
        };
        let where_ = if is_with && self.eat_kw("WHERE") {
            Some(self.expr()?)
        } else {
            None
        };
        Ok(Projection {
            distinct,
            star,
            items,
            order,
            skip,
            limit,
            where_,
            span: (start, self.prev_end()),
        })
    }

    fn set_items(&mut self) -> Result<Vec<SetItem>> {
        let mut items = Vec::new();
        loop {
            let target = self.postfix_no_labels()?;
            if self.is_sym(":") {
                let Expr::Var(var) = target else {
                    return Err(self.expected("a variable before labels"));
                };
                let labels = self.label_list()?;
                items.push(SetItem::Labels { var, labels });
            } else if self.eat_sym("=") {
                let value = self.expr()?;
                match target {
                    Expr::Prop(t, key) => items.push(SetItem::Prop {
                        target: *t,
                        key,
                        value,
                    }),
                    Expr::Var(var) => items.push(SetItem::Replace { var, value }),
                    _ => return Err(self.expected("a property or variable to set")),
                }
            } else if self.eat_sym("+=") {
                let value = self.expr()?;
                let Expr::Var(var) = target else {
                    return Err(self.expected("a variable before '+='"));
                };
                items.push(SetItem::Merge { var, value });
            } else {
                return Err(self.expected("'=', '+=' or labels"));
            }
            if !self.eat_sym(",") {
                break;
            }
        }
        Ok(items)
    }

    /// `:A:B` (no disjunction) for SET/REMOVE.
    fn label_list(&mut self) -> Result<Vec<String>> {
        let mut labels = Vec::new();
        while self.eat_sym(":") {
            labels.push(self.name("a label name")?);
        }
        Ok(labels)
    }

    // ---------------------------------------------------------------- patterns

    fn pattern(&mut self) -> Result<Vec<PatternPart>> {
        let mut parts = vec![self.pattern_part()?];
        while self.eat_sym(",") {
            parts.push(self.pattern_part()?);
        }
        Ok(parts)
    }

    fn pattern_part(&mut self) -> Result<PatternPart> {
        let start = self.start();
        let var = if self.is_name() && self.is_sym_at(1, "=") {
            let v = self.variable("a path variable")?;
            self.advance();
            Some(v)
        } else {
            None
        };
        if self.is_kw("shortestPath") || self.is_kw("allShortestPaths") {
            let kind = if self.is_kw("shortestPath") {
                Shortest::One
            } else {
                Shortest::All
            };
            self.advance();
            self.expect_sym("(")?;
            let var = var.or_else(|| Some(format!(" shortest{start}")));
            let mut p = self.pattern_element(var, start)?;
            self.expect_sym(")")?;
            if p.chain.len() != 1 {
                return Err(self.err_at(
                    start,
                    "UnexpectedSyntax",
                    "shortestPath expects a single relationship pattern".into(),
                ));
            }
            p.shortest = kind;
            return Ok(p);
        }
        self.pattern_element(var, start)
    }

    fn pattern_element(&mut self, var: Option<String>, start: usize) -> Result<PatternPart> {
        self.enter()?;
        let first = self.node_pat()?;
        let mut chain = Vec::new();
        while self.is_sym("-") || (self.is_sym("<") && self.is_sym_at(1, "-")) {
            if chain.len() >= MAX_CHAIN {
                return Err(self.err_at(
                    self.start(),
                    "PatternTooLong",
                    format!("pattern longer than {MAX_CHAIN} relationships"),
                ));
            }
            let rel = self.rel_pat()?;
            let node = self.node_pat()?;
            chain.push((rel, node));
        }
        self.depth -= 1;
        Ok(PatternPart {
            var,
            start: first,
            chain,
            shortest: Shortest::No,
            span: (start, self.prev_end()),
        })
    }

    fn node_pat(&mut self) -> Result<NodePat> {
        let start = self.start();
        self.expect_sym("(")?;
        let var = if self.is_name() {
            Some(self.variable("a variable")?)
        } else {
            None
        };
        let labels = self.label_expr()?;
        let props = self.pattern_props()?;
        self.expect_sym(")")?;
        Ok(NodePat {
            var,
            labels,
            props,
            span: (start, self.prev_end()),
        })
    }

    /// `:A|B:C` as a conjunction of disjunctions.
    fn label_expr(&mut self) -> Result<Vec<Vec<String>>> {
        let mut groups = Vec::new();
        while self.eat_sym(":") {
            let mut g = vec![self.name("a label name")?];
            while self.eat_sym("|") {
                self.eat_sym(":");
                g.push(self.name("a label name")?);
            }
            groups.push(g);
        }
        Ok(groups)
    }

    fn pattern_props(&mut self) -> Result<Option<Expr>> {
        if self.is_sym("{") {
            Ok(Some(self.map_literal()?))
        } else if let Tok::Param(p) = self.peek().clone() {
            self.advance();
            Ok(Some(Expr::Param(p)))
        } else {
            Ok(None)
        }
    }

    fn rel_pat(&mut self) -> Result<RelPat> {
        let start = self.start();
        let left = self.eat_sym("<");
        self.expect_sym("-")?;
        let mut var = None;
        let mut types = Vec::new();
        let mut range = None;
        let mut props = None;
        if self.eat_sym("[") {
            if self.is_name() {
                var = Some(self.variable("a variable")?);
            }
            if self.eat_sym(":") {
                types.push(self.name("a relationship type")?);
                while self.eat_sym("|") {
                    self.eat_sym(":");
                    types.push(self.name("a relationship type")?);
                }
            }
            if self.eat_sym("*") {
                let lo = self.opt_uint()?;
                if self.eat_sym("..") {
                    let hi = self.opt_uint()?;
                    range = Some((lo, hi));
                } else {
                    range = Some((lo, lo));
                }
            }
            props = self.pattern_props()?;
            self.expect_sym("]")?;
        }
        self.expect_sym("-")?;
        let right = self.eat_sym(">");
        let dir = match (left, right) {
            (true, false) => Dir::Left,
            (false, true) => Dir::Right,
            _ => Dir::Both,
        };
        Ok(RelPat {
            var,
            types,
            dir,
            range,
            props,
            span: (start, self.prev_end()),
        })
    }

    fn opt_uint(&mut self) -> Result<Option<u64>> {
        if let Tok::Int(s) = self.peek().clone() {
            let at = self.start();
            self.advance();
            let v = parse_int(&s)
                .ok_or_else(|| self.err_at(at, "IntegerOverflow", "integer is too large".into()))?;
            Ok(Some(v as u64))
        } else {
            Ok(None)
        }
    }

    // ---------------------------------------------------------------- expressions

    pub fn expr(&mut self) -> Result<Expr> {
        self.enter()?;
        let r = self.or_expr();
        self.depth -= 1;
        r
    }

    fn or_expr(&mut self) -> Result<Expr> {
        let mut l = self.xor_expr()?;
        let d0 = self.depth;
        while self.eat_kw("OR") {
            self.enter()?;
            let r = self.xor_expr()?;
            l = Expr::Binary(BinOp::Or, Box::new(l), Box::new(r));
        }
        self.depth = d0;
        Ok(l)
    }

    fn xor_expr(&mut self) -> Result<Expr> {
        let mut l = self.and_expr()?;
        let d0 = self.depth;
        while self.eat_kw("XOR") {
            self.enter()?;
            let r = self.and_expr()?;
            l = Expr::Binary(BinOp::Xor, Box::new(l), Box::new(r));
        }
        self.depth = d0;
        Ok(l)
    }

    fn and_expr(&mut self) -> Result<Expr> {
        let mut l = self.not_expr()?;
        let d0 = self.depth;
        while self.eat_kw("AND") {
            self.enter()?;
            let r = self.not_expr()?;
            l = Expr::Binary(BinOp::And, Box::new(l), Box::new(r));
        }
        self.depth = d0;
        Ok(l)
    }

    fn not_expr(&mut self) -> Result<Expr> {
        if self.eat_kw("NOT") {
            self.enter()?;
            let e = self.not_expr()?;
            self.depth -= 1;
            return Ok(Expr::Unary(UnOp::Not, Box::new(e)));
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Expr> {
        let first = self.predicate_expr()?;
        let mut rest = Vec::new();
        loop {
            let op = match self.peek() {
                Tok::Sym("=") => CmpOp::Eq,
                Tok::Sym("<>") | Tok::Sym("!=") => CmpOp::Ne,
                Tok::Sym("<") => CmpOp::Lt,
                Tok::Sym("<=") => CmpOp::Le,
                Tok::Sym(">") => CmpOp::Gt,
                Tok::Sym(">=") => CmpOp::Ge,
                _ => break,
            };
            self.advance();
            rest.push((op, self.predicate_expr()?));
        }
        Ok(if rest.is_empty() {
            first
        } else {
            Expr::Compare(Box::new(first), rest)
        })
    }

    /// IN, STARTS WITH, ENDS WITH, CONTAINS, =~, IS [NOT] NULL.
    fn predicate_expr(&mut self) -> Result<Expr> {
        let mut l = self.add_expr()?;
        let d0 = self.depth;
        loop {
            self.enter()?;
            let op = if self.is_kw("IN") {
                BinOp::In
            } else if self.is_kw("STARTS") && self.is_kw_at(1, "WITH") {
                self.advance();
                BinOp::StartsWith
            } else if self.is_kw("ENDS") && self.is_kw_at(1, "WITH") {
                self.advance();
                BinOp::EndsWith
            } else if self.is_kw("CONTAINS") {
                BinOp::Contains
            } else if self.is_sym("=~") {
                BinOp::Regex
            } else if self.is_kw("IS") {
                self.advance();
                let neg = self.eat_kw("NOT");
                self.expect_kw("NULL")?;
                l = Expr::IsNull(Box::new(l), neg);
                continue;
            } else {
                break;
            };
            self.advance();
            let r = self.add_expr()?;
            l = Expr::Binary(op, Box::new(l), Box::new(r));
        }
        self.depth = d0;
        Ok(l)
    }

    fn add_expr(&mut self) -> Result<Expr> {
        let mut l = self.mul_expr()?;
        let d0 = self.depth;
        loop {
            self.enter()?;
            let op = if self.is_sym("+") {
                BinOp::Add
            } else if self.is_sym("-") {
                BinOp::Sub
            } else {
                break;
            };
            self.advance();
            let r = self.mul_expr()?;
            l = Expr::Binary(op, Box::new(l), Box::new(r));
        }
        self.depth = d0;
        Ok(l)
    }

    fn mul_expr(&mut self) -> Result<Expr> {
        let mut l = self.pow_expr()?;
        let d0 = self.depth;
        loop {
            self.enter()?;
            let op = match self.peek() {
                Tok::Sym("*") => BinOp::Mul,
                Tok::Sym("/") => BinOp::Div,
                Tok::Sym("%") => BinOp::Mod,
                _ => break,
            };
            self.advance();
            let r = self.pow_expr()?;
            l = Expr::Binary(op, Box::new(l), Box::new(r));
        }
        self.depth = d0;
        Ok(l)
    }

    fn pow_expr(&mut self) -> Result<Expr> {
        let mut l = self.unary_expr()?;
        let d0 = self.depth;
        while self.eat_sym("^") {
            self.enter()?;
            let r = self.unary_expr()?;
            l = Expr::Binary(BinOp::Pow, Box::new(l), Box::new(r));
        }
        self.depth = d0;
        Ok(l)
    }

    fn unary_expr(&mut self) -> Result<Expr> {
        if self.is_sym("-") || self.is_sym("+") {
            let neg = self.is_sym("-");
            self.advance();
            // `-9223372036854775808` is representable only when the sign is part of the literal.
            if neg {
                if let Tok::Int(s) = self.peek().clone() {
                    if !self.is_postfix_next(1) {
                        let at = self.start();
                        self.advance();
                        let v = parse_int(&format!("-{s}")).ok_or_else(|| {
                            self.err_at(
                                at,
                                "IntegerOverflow",
                                format!("integer literal -{s} is too large"),
                            )
                        })?;
                        return Ok(Expr::Lit(Value::Int(v)));
                    }
                }
            }
            self.enter()?;
            let e = self.unary_expr()?;
            self.depth -= 1;
            return Ok(Expr::Unary(
                if neg { UnOp::Neg } else { UnOp::Plus },
                Box::new(e),
            ));
        }
        self.postfix()
    }

    fn is_postfix_next(&self, k: usize) -> bool {
        self.is_sym_at(k, ".") || self.is_sym_at(k, "[") || self.is_sym_at(k, "^")
    }

    fn postfix(&mut self) -> Result<Expr> {
        let mut e = self.postfix_no_labels()?;
        if self.is_sym(":") {
            let labels = self.label_expr()?;
            e = Expr::HasLabels(Box::new(e), labels);
        }
        Ok(e)
    }

    fn postfix_no_labels(&mut self) -> Result<Expr> {
        let mut e = self.atom()?;
        let d0 = self.depth;
        loop {
            self.enter()?;
            if self.is_sym(".") {
                self.advance();
                let key = self.name("a property name")?;
                e = Expr::Prop(Box::new(e), key);
            } else if self.is_sym("[") {
                self.advance();
                if self.eat_sym("..") {
                    let hi = if self.is_sym("]") {
                        None
                    } else {
                        Some(Box::new(self.expr()?))
                    };
                    self.expect_sym("]")?;
                    e = Expr::Slice(Box::new(e), None, hi);
                    continue;
                }
                let idx = self.expr()?;
                if self.eat_sym("..") {
                    let hi = if self.is_sym("]") {
                        None
                    } else {
                        Some(Box::new(self.expr()?))
                    };
                    self.expect_sym("]")?;
                    e = Expr::Slice(Box::new(e), Some(Box::new(idx)), hi);
                } else {
                    self.expect_sym("]")?;
                    e = Expr::Index(Box::new(e), Box::new(idx));
                }
            } else {
                break;
            }
        }
        self.depth = d0;
        Ok(e)
    }

    fn atom(&mut self) -> Result<Expr> {
        let at = self.start();
        match self.peek().clone() {
            Tok::Int(s) => {
                self.advance();
                let v = parse_int(&s).ok_or_else(|| {
                    self.err_at(
                        at,
                        "IntegerOverflow",
                        format!("integer literal {s} is too large"),
                    )
                })?;
                Ok(Expr::Lit(Value::Int(v)))
            }
            Tok::Float(f) => {
                self.advance();
                Ok(Expr::Lit(Value::Float(f)))
            }
            Tok::Str(s) => {
                self.advance();
                Ok(Expr::Lit(Value::String(s)))
            }
            Tok::Param(p) => {
                self.advance();
                Ok(Expr::Param(p))
            }
            Tok::Sym("{") => self.map_literal(),
            Tok::Sym("[") => self.list_or_comprehension(),
            Tok::Sym("(") => {
                // A parenthesised pattern with a relationship is a pattern predicate.
                let save = self.pos;
                let depth = self.depth;
                if !self.failed.contains(&(save, 0)) {
                    if let Ok(p) = self.pattern_element(None, at) {
                        if !p.chain.is_empty() {
                            return Ok(Expr::PatternPred(Box::new(p)));
                        }
                    }
                    self.failed.insert((save, 0));
                }
                self.pos = save;
                self.depth = depth;
                self.advance();
                let e = self.expr()?;
                self.expect_sym(")")?;
                Ok(e)
            }
            Tok::Quoted(s) => {
                self.advance();
                self.after_name(s)
            }
            Tok::Ident(s) => {
                let up = s.to_ascii_uppercase();
                match up.as_str() {
                    "TRUE" => {
                        self.advance();
                        Ok(Expr::Lit(Value::Bool(true)))
                    }
                    "FALSE" => {
                        self.advance();
                        Ok(Expr::Lit(Value::Bool(false)))
                    }
                    "NULL" => {
                        self.advance();
                        Ok(Expr::Lit(Value::Null))
                    }
                    "CASE" => self.case_expr(),
                    "COUNT"
                        if self.is_sym_at(1, "(")
                            && self.is_sym_at(2, "*")
                            && self.is_sym_at(3, ")") =>
                    {
                        self.pos += 4;
                        Ok(Expr::CountStar)
                    }
                    "EXISTS" if self.is_sym_at(1, "{") => self.exists_subquery(),
                    "COUNT" if self.is_sym_at(1, "{") => self.count_subquery(),
                    "ALL" | "ANY" | "NONE" | "SINGLE"
                        if self.is_sym_at(1, "(")
                            && self.is_variable_at(2)
                            && self.is_kw_at(3, "IN") =>
                    {
                        self.advance();
                        self.advance();
                        let var = self.variable("a variable")?;
                        self.expect_kw("IN")?;
                        let list = self.expr()?;
                        let pred = if self.eat_kw("WHERE") {
                            self.expr()?
                        } else {
                            return Err(self.expected("WHERE"));
                        };
                        self.expect_sym(")")?;
                        let kind = match up.as_str() {
                            "ALL" => Quant::All,
                            "ANY" => Quant::Any,
                            "NONE" => Quant::None,
                            _ => Quant::Single,
                        };
                        Ok(Expr::Quantifier {
                            kind,
                            var,
                            list: Box::new(list),
                            pred: Box::new(pred),
                        })
                    }
                    "REDUCE" if self.is_sym_at(1, "(") => {
                        self.advance();
                        self.advance();
                        let acc = self.variable("an accumulator variable")?;
                        self.expect_sym("=")?;
                        let init = self.expr()?;
                        self.expect_sym(",")?;
                        let var = self.variable("a variable")?;
                        self.expect_kw("IN")?;
                        let list = self.expr()?;
                        self.expect_sym("|")?;
                        let expr = self.expr()?;
                        self.expect_sym(")")?;
                        Ok(Expr::Reduce {
                            acc,
                            init: Box::new(init),
                            var,
                            list: Box::new(list),
                            expr: Box::new(expr),
                        })
                    }
                    _ => {
                        if is_reserved(&up) {
                            return Err(self.expected("an expression"));
                        }
                        self.advance();
                        self.after_name(s)
                    }
                }
            }
            _ => Err(self.expected("an expression")),
        }
    }

    fn is_name_at(&self, k: usize) -> bool {
        matches!(self.peek_at(k), Tok::Ident(_) | Tok::Quoted(_))
    }

    /// After an identifier: function call, map projection or variable.
    fn after_name(&mut self, first: String) -> Result<Expr> {
        // Namespaced function: a.b.c(
        let mut k = 0;
        while self.is_sym_at(k, ".") && self.is_name_at(k + 1) {
            k += 2;
        }
        if self.is_sym_at(k, "(") {
            let mut name = first;
            while self.eat_sym(".") {
                name.push('.');
                name.push_str(&self.name("a function name")?);
            }
            self.expect_sym("(")?;
            let distinct = self.eat_kw("DISTINCT");
            let mut args = Vec::new();
            if !self.eat_sym(")") {
                loop {
                    args.push(self.expr()?);
                    if self.eat_sym(")") {
                        break;
                    }
                    self.expect_sym(",")?;
                }
            }
            return Ok(Expr::Func {
                name,
                distinct,
                args,
            });
        }
        if self.is_sym("{") {
            self.advance();
            let mut items = Vec::new();
            if !self.eat_sym("}") {
                loop {
                    if self.eat_sym(".") {
                        if self.eat_sym("*") {
                            items.push(MapItem::All);
                        } else {
                            items.push(MapItem::Prop(self.name("a property name")?));
                        }
                    } else {
                        let key = self.name("a property selector or key")?;
                        if self.eat_sym(":") {
                            items.push(MapItem::Lit(key, self.expr()?));
                        } else {
                            items.push(MapItem::Var(key));
                        }
                    }
                    if self.eat_sym("}") {
                        break;
                    }
                    self.expect_sym(",")?;
                }
            }
            return Ok(Expr::MapProj(first, items));
        }
        Ok(Expr::Var(first))
    }

    fn map_literal(&mut self) -> Result<Expr> {
        self.expect_sym("{")?;
        let mut items = Vec::new();
        if self.eat_sym("}") {
            return Ok(Expr::Map(items));
        }
        loop {
            let key = self.name("a property key")?;
            self.expect_sym(":")?;
            items.push((key, self.expr()?));
            if self.eat_sym("}") {
                break;
            }
            self.expect_sym(",")?;
        }
        Ok(Expr::Map(items))
    }

    fn list_or_comprehension(&mut self) -> Result<Expr> {
        let at = self.start();
        self.expect_sym("[")?;
        // List comprehension: [x IN list WHERE .. | ..]
        if self.is_variable_at(0) && self.is_kw_at(1, "IN") {
            let var = self.variable("a variable")?;
            self.advance();
            let list = self.expr()?;
            let pred = if self.eat_kw("WHERE") {
                Some(Box::new(self.expr()?))
            } else {
                None
            };
            let proj = if self.eat_sym("|") {
                Some(Box::new(self.expr()?))
            } else {
                None
            };
            self.expect_sym("]")?;
            return Ok(Expr::ListComp {
                var,
                list: Box::new(list),
                pred,
                proj,
            });
        }
        // Pattern comprehension: [p = (a)-->(b) WHERE .. | expr]
        if (self.is_sym("(") || (self.is_name() && self.is_sym_at(1, "=")))
            && !self.failed.contains(&(self.pos, 1))
        {
            let save = self.pos;
            let depth = self.depth;
            if let Ok(part) = self.pattern_part() {
                if !part.chain.is_empty() && (self.is_kw("WHERE") || self.is_sym("|")) {
                    // Matching inside an expression costs several stack frames per level.
                    self.depth += PATTERN_COST;
                    let pred = if self.eat_kw("WHERE") {
                        Some(Box::new(self.expr()?))
                    } else {
                        None
                    };
                    self.expect_sym("|")?;
                    let proj = self.expr()?;
                    self.depth -= PATTERN_COST;
                    self.expect_sym("]")?;
                    return Ok(Expr::PatternComp {
                        part: Box::new(part),
                        pred,
                        proj: Box::new(proj),
                    });
                }
            }
            self.failed.insert((save, 1));
            self.pos = save;
            self.depth = depth;
        }
        let _ = at;
        let mut items = Vec::new();
        if self.eat_sym("]") {
            return Ok(Expr::List(items));
        }
        loop {
            items.push(self.expr()?);
            if self.eat_sym("]") {
                break;
            }
            self.expect_sym(",")?;
        }
        Ok(Expr::List(items))
    }

    fn case_expr(&mut self) -> Result<Expr> {
        self.expect_kw("CASE")?;
        let subject = if self.is_kw("WHEN") {
            None
        } else {
            Some(Box::new(self.expr()?))
        };
        let mut whens = Vec::new();
        while self.eat_kw("WHEN") {
            let w = self.expr()?;
            self.expect_kw("THEN")?;
            let t = self.expr()?;
            whens.push((w, t));
        }
        if whens.is_empty() {
            return Err(self.expected("WHEN"));
        }
        let else_ = if self.eat_kw("ELSE") {
            Some(Box::new(self.expr()?))
        } else {
            None
        };
        self.expect_kw("END")?;
        Ok(Expr::Case {
            subject,
            whens,
            else_,
        })
    }

    fn count_subquery(&mut self) -> Result<Expr> {
        self.expect_kw("COUNT")?;
        let at = self.start();
        self.expect_sym("{")?;
        self.enter()?;
        self.depth += PATTERN_COST;
        let mut q = if CLAUSE_KWS.iter().any(|k| self.is_kw(k)) {
            self.single_query()?
        } else {
            let start = self.start();
            let pattern = self.pattern()?;
            let where_ = if self.eat_kw("WHERE") {
                Some(self.expr()?)
            } else {
                None
            };
            SingleQuery {
                clauses: vec![Clause::Match {
                    optional: false,
                    pattern,
                    where_,
                    span: (start, self.prev_end()),
                }],
            }
        };
        self.expect_sym("}")?;
        self.depth -= 1 + PATTERN_COST;
        if let Some(c) = q
            .clauses
            .iter()
            .find(|c| c.is_write() || matches!(c, Clause::Call { .. } | Clause::LoadCsv { .. }))
        {
            return Err(self.err_at(
                at,
                "InvalidClauseComposition",
                format!("COUNT subqueries cannot contain {}", c.name()),
            ));
        }
        if !matches!(q.clauses.last(), Some(Clause::Return(_))) {
            // Count the rows the body produces.
            q.clauses.push(Clause::Return(Projection {
                distinct: false,
                star: false,
                items: vec![ProjItem {
                    expr: Expr::Lit(Value::Int(1)),
                    alias: Some(" row".into()),
                    text: String::new(),
                }],
                order: vec![],
                skip: None,
                limit: None,
                where_: None,
                span: (at, at),
            }));
        }
        Ok(Expr::CountQuery(Box::new(q)))
    }

    fn exists_subquery(&mut self) -> Result<Expr> {
        self.expect_kw("EXISTS")?;
        self.expect_sym("{")?;
        self.enter()?;
        self.depth += PATTERN_COST;
        // Either a bare pattern or a read-only subquery starting with a clause.
        if CLAUSE_KWS.iter().any(|k| self.is_kw(k)) {
            let at = self.start();
            let q = self.single_query()?;
            self.expect_sym("}")?;
            self.depth -= 1 + PATTERN_COST;
            if let Some(c) = q
                .clauses
                .iter()
                .find(|c| c.is_write() || matches!(c, Clause::Call { .. } | Clause::LoadCsv { .. }))
            {
                return Err(self.err_at(
                    at,
                    "InvalidClauseComposition",
                    format!("EXISTS subqueries cannot contain {}", c.name()),
                ));
            }
            if let [Clause::Match {
                optional: false,
                pattern,
                where_,
                ..
            }] = q.clauses.as_slice()
            {
                return Ok(Expr::Exists {
                    pattern: pattern.clone(),
                    where_: where_.clone().map(Box::new),
                });
            }
            return Ok(Expr::ExistsQuery(Box::new(q)));
        }
        let pattern = self.pattern()?;
        let where_ = if self.eat_kw("WHERE") {
            Some(Box::new(self.expr()?))
        } else {
            None
        };
        self.expect_sym("}")?;
        self.depth -= 1 + PATTERN_COST;
        Ok(Expr::Exists { pattern, where_ })
    }
}

fn is_reserved(up: &str) -> bool {
    matches!(
        up,
        "MATCH"
            | "RETURN"
            | "WITH"
            | "WHERE"
            | "CREATE"
            | "DELETE"
            | "SET"
            | "REMOVE"
            | "MERGE"
            | "UNWIND"
            | "UNION"
            | "ORDER"
            | "SKIP"
            | "LIMIT"
            | "AND"
            | "OR"
            | "XOR"
            | "NOT"
            | "IN"
            | "AS"
            | "WHEN"
            | "THEN"
            | "ELSE"
            | "END"
            | "OPTIONAL"
            | "DETACH"
            | "DISTINCT"
            | "IS"
    )
}

/// Words an expression reads as something else than a variable (`is_reserved`, the
/// literals and CASE): none of them may name one.
fn reserved_for_variables(up: &str) -> bool {
    is_reserved(up) || matches!(up, "TRUE" | "FALSE" | "NULL" | "CASE")
}

fn parse_int(s: &str) -> Option<i64> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let (radix, digits) = if let Some(h) = body.strip_prefix("0x") {
        (16, h)
    } else if let Some(o) = body.strip_prefix("0o") {
        (8, o)
    } else {
        (10, body)
    };
    let v = i128::from_str_radix(digits, radix).ok()?;
    let v = if neg { -v } else { v };
    i64::try_from(v).ok()
}
