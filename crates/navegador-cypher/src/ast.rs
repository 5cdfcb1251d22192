//! The syntax tree produced by the parser. Clauses carry byte spans into the query text.

use navegador_graph::Value;

pub type Span = (usize, usize);

#[derive(Clone, Debug)]
pub struct Statement {
    pub explain: bool,
    pub query: Query,
}

/// Single queries joined by UNION (`union_all[i]` joins part i and i+1).
#[derive(Clone, Debug)]
pub struct Query {
    pub parts: Vec<SingleQuery>,
    pub union_all: Vec<bool>,
}

#[derive(Clone, Debug)]
pub struct SingleQuery {
    pub clauses: Vec<Clause>,
}

#[derive(Clone, Debug)]
pub enum Clause {
    Match {
        optional: bool,
        pattern: Vec<PatternPart>,
        where_: Option<Expr>,
        span: Span,
    },
    Unwind {
        expr: Expr,
        alias: String,
        span: Span,
    },
    With(Projection),
    Return(Projection),
    Create {
        pattern: Vec<PatternPart>,
        span: Span,
    },
    Merge {
        part: PatternPart,
        on_create: Vec<SetItem>,
        on_match: Vec<SetItem>,
        span: Span,
    },
    Set {
        items: Vec<SetItem>,
        span: Span,
    },
    Remove {
        items: Vec<RemoveItem>,
        span: Span,
    },
    Delete {
        detach: bool,
        exprs: Vec<Expr>,
        span: Span,
    },
    Call {
        name: String,
        args: Option<Vec<Expr>>,
        yields: Vec<(String, Option<String>)>,
        /// `YIELD ... WHERE`: keeps the records it holds for.
        where_: Option<Expr>,
        span: Span,
    },
    LoadCsv {
        span: Span,
    },
    Foreach {
        var: String,
        list: Expr,
        body: Vec<Clause>,
        span: Span,
    },
}

impl Clause {
    pub fn name(&self) -> &'static str {
        match self {
            Clause::Match { optional: true, .. } => "OPTIONAL MATCH",
            Clause::Match { .. } => "MATCH",
            Clause::Unwind { .. } => "UNWIND",
            Clause::With(_) => "WITH",
            Clause::Return(_) => "RETURN",
            Clause::Create { .. } => "CREATE",
            Clause::Merge { .. } => "MERGE",
            Clause::Set { .. } => "SET",
            Clause::Remove { .. } => "REMOVE",
            Clause::Delete { detach: true, .. } => "DETACH DELETE",
            Clause::Delete { .. } => "DELETE",
            Clause::Call { .. } => "CALL",
            Clause::LoadCsv { .. } => "LOAD CSV",
            Clause::Foreach { .. } => "FOREACH",
        }
    }

    pub fn is_write(&self) -> bool {
        matches!(
            self,
            Clause::Create { .. }
                | Clause::Merge { .. }
                | Clause::Set { .. }
                | Clause::Remove { .. }
                | Clause::Delete { .. }
                | Clause::Foreach { .. }
        )
    }
}

#[derive(Clone, Debug)]
pub struct ProjItem {
    pub expr: Expr,
    pub alias: Option<String>,
    /// The expression as written: the column name when there is no alias.
    pub text: String,
}

impl ProjItem {
    pub fn name(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.text)
    }
}

#[derive(Clone, Debug)]
pub struct Projection {
    pub distinct: bool,
    pub star: bool,
    pub items: Vec<ProjItem>,
    pub order: Vec<(Expr, bool)>,
    pub skip: Option<Expr>,
    pub limit: Option<Expr>,
    pub where_: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum SetItem {
    Prop {
        target: Expr,
        key: String,
        value: Expr,
    },
    Replace {
        var: String,
        value: Expr,
    },
    Merge {
        var: String,
        value: Expr,
    },
    Labels {
        var: String,
        labels: Vec<String>,
    },
}

#[derive(Clone, Debug)]
pub enum RemoveItem {
    Prop { target: Expr, key: String },
    Labels { var: String, labels: Vec<String> },
}

#[derive(Clone, Debug)]
pub struct PatternPart {
    pub var: Option<String>,
    pub start: NodePat,
    pub chain: Vec<(RelPat, NodePat)>,
    /// `shortestPath(...)` / `allShortestPaths(...)`; such parts always have a path
    /// variable (an internal one, starting with a space, when none was written).
    pub shortest: Shortest,
    pub span: Span,
}

impl PatternPart {
    pub fn nodes(&self) -> impl Iterator<Item = &NodePat> {
        std::iter::once(&self.start).chain(self.chain.iter().map(|(_, n)| n))
    }

    /// Calls `f` on every expression in the pattern (property maps), recursively.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        for n in self.nodes() {
            n.props.iter().for_each(|e| e.walk(f));
        }
        for (r, _) in &self.chain {
            r.props.iter().for_each(|e| e.walk(f));
        }
    }
}

impl Query {
    /// Calls `f` on every expression of the query, recursively (see `Expr::walk`).
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        for p in &self.parts {
            p.walk(f);
        }
    }
}

impl SingleQuery {
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        for c in &self.clauses {
            c.walk(f);
        }
    }
}

impl Clause {
    /// Calls `f` on each expression the clause evaluates itself (property maps of its
    /// patterns included, FOREACH bodies not), without descending into them.
    pub fn exprs<'c>(&'c self, f: &mut dyn FnMut(&'c Expr)) {
        let props = |p: &'c PatternPart, f: &mut dyn FnMut(&'c Expr)| {
            for n in p.nodes() {
                n.props.iter().for_each(&mut *f);
            }
            for (r, _) in &p.chain {
                r.props.iter().for_each(&mut *f);
            }
        };
        let set = |items: &'c [SetItem], f: &mut dyn FnMut(&'c Expr)| {
            for it in items {
                match it {
                    SetItem::Prop { target, value, .. } => {
                        f(target);
                        f(value);
                    }
                    SetItem::Replace { value, .. } | SetItem::Merge { value, .. } => f(value),
                    SetItem::Labels { .. } => {}
                }
            }
        };
        match self {
            Clause::Match {
                pattern, where_, ..
            } => {
                pattern.iter().for_each(|p| props(p, f));
                where_.iter().for_each(&mut *f);
            }
            Clause::Unwind { expr, .. } => f(expr),
            Clause::With(p) | Clause::Return(p) => {
                p.items.iter().for_each(|i| f(&i.expr));
                p.order.iter().for_each(|(e, _)| f(e));
                p.skip.iter().chain(&p.limit).chain(&p.where_).for_each(f);
            }
            Clause::Create { pattern, .. } => pattern.iter().for_each(|p| props(p, f)),
            Clause::Merge {
                part,
                on_create,
                on_match,
                ..
            } => {
                props(part, f);
                set(on_create, f);
                set(on_match, f);
            }
            Clause::Set { items, .. } => set(items, f),
            Clause::Remove { items, .. } => {
                for it in items {
                    if let RemoveItem::Prop { target, .. } = it {
                        f(target);
                    }
                }
            }
            Clause::Delete { exprs, .. } => exprs.iter().for_each(f),
            Clause::Call { args, .. } => args.iter().flatten().for_each(f),
            Clause::LoadCsv { .. } => {}
            Clause::Foreach { list, .. } => f(list),
        }
    }

    /// Calls `f` on every expression of the clause, recursively (see `Expr::walk`).
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        self.exprs(&mut |e| e.walk(f));
        if let Clause::Foreach { body, .. } = self {
            body.iter().for_each(|c| c.walk(f));
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortest {
    No,
    One,
    All,
}

#[derive(Clone, Debug)]
pub struct NodePat {
    pub var: Option<String>,
    /// Conjunction of disjunctions: `:A|B:C` is `[[A, B], [C]]`.
    pub labels: Vec<Vec<String>>,
    pub props: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Right,
    Left,
    Both,
}

#[derive(Clone, Debug)]
pub struct RelPat {
    pub var: Option<String>,
    pub types: Vec<String>,
    pub dir: Dir,
    /// Variable length `*min..max`; `None` means exactly one hop.
    pub range: Option<(Option<u64>, Option<u64>)>,
    pub props: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    Xor,
    And,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
    In,
    StartsWith,
    EndsWith,
    Contains,
    Regex,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Not,
    Neg,
    Plus,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quant {
    All,
    Any,
    None,
    Single,
}

#[derive(Clone, Debug)]
pub enum MapItem {
    Prop(String),
    Var(String),
    Lit(String, Expr),
    All,
}

#[derive(Clone, Debug)]
pub enum Expr {
    Lit(Value),
    Param(String),
    Var(String),
    Prop(Box<Expr>, String),
    List(Vec<Expr>),
    Map(Vec<(String, Expr)>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a < b <= c` is `a < b AND b <= c`.
    Compare(Box<Expr>, Vec<(CmpOp, Expr)>),
    IsNull(Box<Expr>, bool),
    Index(Box<Expr>, Box<Expr>),
    Slice(Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>),
    Func {
        name: String,
        distinct: bool,
        args: Vec<Expr>,
    },
    CountStar,
    Case {
        subject: Option<Box<Expr>>,
        whens: Vec<(Expr, Expr)>,
        else_: Option<Box<Expr>>,
    },
    ListComp {
        var: String,
        list: Box<Expr>,
        pred: Option<Box<Expr>>,
        proj: Option<Box<Expr>>,
    },
    PatternComp {
        part: Box<PatternPart>,
        pred: Option<Box<Expr>>,
        proj: Box<Expr>,
    },
    Quantifier {
        kind: Quant,
        var: String,
        list: Box<Expr>,
        pred: Box<Expr>,
    },
    Reduce {
        acc: String,
        init: Box<Expr>,
        var: String,
        list: Box<Expr>,
        expr: Box<Expr>,
    },
    Exists {
        pattern: Vec<PatternPart>,
        where_: Option<Box<Expr>>,
    },
    /// `EXISTS { MATCH ... WITH ... RETURN ... }`: a correlated read-only subquery.
    ExistsQuery(Box<SingleQuery>),
    /// `COUNT { ... }`: the number of rows a correlated read-only subquery returns.
    CountQuery(Box<SingleQuery>),
    PatternPred(Box<PatternPart>),
    MapProj(String, Vec<MapItem>),
    HasLabels(Box<Expr>, Vec<Vec<String>>),
}

pub const AGGREGATES: [&str; 10] = [
    "count",
    "sum",
    "avg",
    "min",
    "max",
    "collect",
    "stdev",
    "stdevp",
    "percentilecont",
    "percentiledisc",
];

impl Expr {
    pub fn is_aggregate_call(&self) -> bool {
        match self {
            Expr::CountStar => true,
            Expr::Func { name, .. } => AGGREGATES.contains(&name.to_ascii_lowercase().as_str()),
            _ => false,
        }
    }

    /// Calls `f` on each direct sub-expression (not into nested pattern bodies' scopes).
    pub fn children<'e>(&'e self, f: &mut dyn FnMut(&'e Expr)) {
        match self {
            Expr::Lit(_) | Expr::Param(_) | Expr::Var(_) | Expr::CountStar => {}
            Expr::Prop(e, _) | Expr::Unary(_, e) | Expr::IsNull(e, _) | Expr::HasLabels(e, _) => {
                f(e)
            }
            Expr::List(v) => v.iter().for_each(f),
            Expr::Map(v) => v.iter().for_each(|(_, e)| f(e)),
            Expr::Binary(_, a, b) | Expr::Index(a, b) => {
                f(a);
                f(b)
            }
            Expr::Compare(a, rest) => {
                f(a);
                rest.iter().for_each(|(_, e)| f(e))
            }
            Expr::Slice(a, b, c) => {
                f(a);
                b.iter().for_each(|e| f(e));
                c.iter().for_each(|e| f(e));
            }
            Expr::Func { args, .. } => args.iter().for_each(f),
            Expr::Case {
                subject,
                whens,
                else_,
            } => {
                subject.iter().for_each(|e| f(e));
                whens.iter().for_each(|(a, b)| {
                    f(a);
                    f(b)
                });
                else_.iter().for_each(|e| f(e));
            }
            Expr::ListComp {
                list, pred, proj, ..
            } => {
                f(list);
                pred.iter().for_each(|e| f(e));
                proj.iter().for_each(|e| f(e));
            }
            Expr::PatternComp { pred, proj, .. } => {
                pred.iter().for_each(|e| f(e));
                f(proj)
            }
            Expr::Quantifier { list, pred, .. } => {
                f(list);
                f(pred)
            }
            Expr::Reduce {
                init, list, expr, ..
            } => {
                f(init);
                f(list);
                f(expr)
            }
            Expr::Exists { where_, .. } => where_.iter().for_each(|e| f(e)),
            Expr::PatternPred(_) | Expr::ExistsQuery(_) | Expr::CountQuery(_) => {}
            Expr::MapProj(_, items) => items.iter().for_each(|i| {
                if let MapItem::Lit(_, e) = i {
                    f(e)
                }
            }),
        }
    }

    /// Calls `f` on this expression and on every one inside it, including the property
    /// maps of patterns and the clauses of subqueries.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match self {
            Expr::PatternPred(p) | Expr::PatternComp { part: p, .. } => p.walk(f),
            Expr::Exists { pattern, .. } => pattern.iter().for_each(|p| p.walk(f)),
            Expr::ExistsQuery(q) | Expr::CountQuery(q) => q.walk(f),
            _ => {}
        }
        self.children(&mut |c| c.walk(f));
    }

    pub fn contains_aggregate(&self) -> bool {
        if self.is_aggregate_call() {
            return true;
        }
        let mut found = false;
        self.children(&mut |e| found |= e.contains_aggregate());
        found
    }
}
