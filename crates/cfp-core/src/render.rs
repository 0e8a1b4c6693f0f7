//! Deterministic renderings of a [`Program`]'s CFAs (paper §5.1, Fig. 3): a text form,
//! one line per edge with its source line, and Graphviz DOT with one cluster per method.
//! Both feed golden snapshot tests, so their output depends only on the program.

use crate::ir::{AllocKind, Edge, Expr, GlobalKind, MethodCfa, Place, Program, Stmt, VarKind};
use cfp_syntax::ast::{BinaryOp, UnaryOp};
use cfp_syntax::{LineIndex, SourceSet, Span};
use std::fmt::Write as _;

fn prec(op: BinaryOp) -> u8 {
    use BinaryOp::*;
    match op {
        Or => 1,
        And => 2,
        BitOr => 3,
        BitXor => 4,
        BitAnd => 5,
        Eq | Ne => 6,
        Lt | Le | Gt | Ge => 7,
        Shl | Shr | UShr => 8,
        Add | Sub => 9,
        Mul | Div | Rem => 10,
    }
}

/// Renders expressions and statements of one method.
pub struct Printer<'p> {
    program: &'p Program,
    method: &'p MethodCfa,
}

impl<'p> Printer<'p> {
    /// A printer for `method` of `program`.
    pub fn new(program: &'p Program, method: &'p MethodCfa) -> Printer<'p> {
        Printer { program, method }
    }

    /// `e` in Java-like syntax.
    pub fn expr(&self, e: &Expr) -> String {
        self.expr_prec(e, 0)
    }

    fn expr_prec(&self, e: &Expr, ctx: u8) -> String {
        match e {
            Expr::Var(v) => self
                .method
                .var(*v)
                .map_or_else(|| format!("?v{}", v.0), |d| d.name.clone()),
            Expr::Global(g) => self
                .program
                .globals
                .get(g.index())
                .map_or_else(|| format!("?g{}", g.0), |d| d.name.clone()),
            Expr::Field { obj, field } => {
                let f = self
                    .program
                    .fields
                    .get(field.index())
                    .map_or("?", |d| d.name.as_str());
                format!("{}.{f}", self.expr_prec(obj, 12))
            }
            Expr::Int(i) => i.to_string(),
            Expr::Bool(b) => b.to_string(),
            Expr::Null => "null".into(),
            Expr::Unary { op, arg } => {
                let s = format!("{}{}", op.as_str(), self.expr_prec(arg, 11));
                let _ = UnaryOp::Not;
                wrap(s, 11 < ctx)
            }
            Expr::Binary { op, lhs, rhs } => {
                let p = prec(*op);
                let s = format!(
                    "{} {} {}",
                    self.expr_prec(lhs, p),
                    op.as_str(),
                    self.expr_prec(rhs, p + 1)
                );
                wrap(s, p < ctx)
            }
            Expr::Ite {
                cond,
                then_expr,
                else_expr,
            } => {
                let s = format!(
                    "{} ? {} : {}",
                    self.expr_prec(cond, 1),
                    self.expr_prec(then_expr, 1),
                    self.expr_prec(else_expr, 0)
                );
                wrap(s, ctx > 0)
            }
        }
    }

    /// A place.
    pub fn place(&self, p: &Place) -> String {
        match p {
            Place::Var(v) => self.expr(&Expr::Var(*v)),
            Place::Global(g) => self.expr(&Expr::Global(*g)),
            Place::Field { obj, field } => self.expr(&Expr::Field {
                obj: Box::new(obj.clone()),
                field: *field,
            }),
        }
    }

    /// A simple statement.
    pub fn stmt(&self, s: &Stmt) -> String {
        match s {
            Stmt::Assign { place, expr } => format!("{} := {}", self.place(place), self.expr(expr)),
            Stmt::Havoc(p) => format!("havoc {}", self.place(p)),
            Stmt::Approx(k) => format!("approx #{k}"),
            Stmt::Leave => "return".to_owned(),
            Stmt::Opaque { var, source } => {
                let from = match source {
                    crate::ir::OpaqueSource::Constant => String::new(),
                    crate::ir::OpaqueSource::Of(es) => es
                        .iter()
                        .map(|e| self.expr(e))
                        .collect::<Vec<_>>()
                        .join(", "),
                    crate::ir::OpaqueSource::Element(a) => format!("{}[*]", self.expr(a)),
                };
                format!("{} := opaque({from})", self.place(&Place::Var(*var)))
            }
            Stmt::Assume(e) => format!("assume {}", self.expr(e)),
            Stmt::Alloc { var, kind } => {
                let what = match kind {
                    AllocKind::Class(c) => self
                        .program
                        .classes
                        .get(c.index())
                        .map_or("?", |d| d.name.as_str())
                        .to_string(),
                    AllocKind::External(n) => format!("{n} (external)"),
                    AllocKind::Array => "array".into(),
                };
                format!("{} := new {what}", self.expr(&Expr::Var(*var)))
            }
        }
    }

    fn args(&self, args: &[Expr]) -> String {
        args.iter()
            .map(|a| self.expr(a))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// An edge label; block statements are joined with `sep`.
    pub fn edge(&self, e: &Edge, sep: &str) -> String {
        match e {
            Edge::Block(stmts) if stmts.is_empty() => "skip".into(),
            Edge::Block(stmts) => stmts
                .iter()
                .map(|s| self.stmt(&s.node))
                .collect::<Vec<_>>()
                .join(sep),
            Edge::Call {
                callee,
                args,
                result,
                unwind,
                ..
            } => {
                let name = self
                    .program
                    .method(*callee)
                    .map_or("?", |m| m.name.as_str());
                let res = result
                    .as_ref()
                    .map(|r| format!("{} := ", self.place(r)))
                    .unwrap_or_default();
                let how = if *unwind { " throws" } else { "" };
                format!("{res}call {name}({}){how}", self.args(args))
            }
            Edge::ApiCall {
                receiver,
                method,
                args,
                terminals,
                ..
            } => {
                let ts: Vec<String> = terminals
                    .iter()
                    .map(|t| {
                        self.program
                            .terminals
                            .get(t.index())
                            .map_or_else(|| "?".into(), ToString::to_string)
                    })
                    .collect();
                format!(
                    "api_call {}.{method}({}) {{{}}}",
                    self.expr_prec(receiver, 12),
                    self.args(args),
                    ts.join(", ")
                )
            }
            Edge::Api { terminal, .. } => {
                let t = self
                    .program
                    .terminals
                    .get(terminal.index())
                    .map_or_else(|| "?".into(), ToString::to_string);
                format!("emit {t}")
            }
        }
    }
}

fn wrap(s: String, yes: bool) -> String {
    if yes {
        format!("({s})")
    } else {
        s
    }
}

/// Line labels of spans: `Lnn` or `Lnn-mm`, a file's own lines; prefixed with the file's
/// name (`app/A.java:L12`) when the program has several files of its own, and always for
/// the files the tool added (`<model:rwlock>:L5`, `<harness:…>:L3`).
struct SpanLines<'a> {
    sources: &'a SourceSet,
    indexes: Vec<LineIndex>,
    several: bool,
}

impl<'a> SpanLines<'a> {
    fn new(sources: &'a SourceSet) -> Self {
        let indexes = (0..sources.files().len())
            .map(|i| LineIndex::new(sources.file_text(i)))
            .collect();
        let own = (0..sources.files().len())
            .filter(|&i| !sources.is_generated(i))
            .count();
        SpanLines {
            sources,
            indexes,
            several: own > 1,
        }
    }

    /// The label of `span`; `-` for synthetic code.
    fn of(&self, span: Span) -> String {
        if span == Span::default() {
            return "-".into();
        }
        let Some(i) = self.sources.file_of(span.start as usize) else {
            return "-".into();
        };
        let text = self.sources.file_text(i);
        // A span merged across files (the root's static initialisers) is labelled by
        // where it starts.
        let last = (span.end as usize)
            .saturating_sub(1)
            .max(span.start as usize);
        let span = if self.sources.file_of(last) == Some(i) {
            span
        } else {
            Span::new(span.start as usize, span.start as usize + 1)
        };
        let local = self.sources.local_span(i, span);
        let index = &self.indexes[i];
        let a = index.line_col(text, local.start as usize).line;
        let b = index
            .line_col(
                text,
                (local.end as usize)
                    .saturating_sub(1)
                    .max(local.start as usize),
            )
            .line;
        let range = if a == b {
            format!("L{a}")
        } else {
            format!("L{a}-{b}")
        };
        if self.several || self.sources.is_generated(i) {
            format!("{}:{range}", self.sources.files()[i].name)
        } else {
            range
        }
    }
}

fn method_header(p: &Program, m: &MethodCfa) -> String {
    let params: Vec<String> = m
        .params
        .iter()
        .filter_map(|v| m.var(*v))
        .map(|v| format!("{}: {}", v.name, v.sort.as_str()))
        .collect();
    let ret = m
        .ret
        .and_then(|r| m.var(r))
        .map_or("void", |v| v.sort.as_str());
    let mut tags = Vec::new();
    if m.id == p.root {
        tags.push("root");
    }
    if m.id == p.entry {
        tags.push("entry");
    }
    if m.is_static && m.id != p.root {
        tags.push("static");
    }
    if m.is_abstract {
        tags.push("abstract");
    }
    let tags = if tags.is_empty() {
        String::new()
    } else {
        format!(" [{}]", tags.join(", "))
    };
    format!("method {}({}) -> {ret}{tags}", m.name, params.join(", "))
}

/// The text rendering of every method's CFA. `text` is the program source the spans
/// point into.
pub fn render_text(program: &Program, text: &str) -> String {
    render_text_in(program, &SourceSet::single("", text))
}

/// [`render_text`] for a program of several files: edges are labelled with each file's
/// own lines.
pub fn render_text_in(program: &Program, sources: &SourceSet) -> String {
    let lines = SpanLines::new(sources);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "program ({})",
        if program.instrumented {
            "instrumented"
        } else {
            "lowered"
        }
    );
    if !program.globals.is_empty() {
        let gs: Vec<String> = program
            .globals
            .iter()
            .map(|g| format!("{}: {}", g.name, g.sort.as_str()))
            .collect();
        let _ = writeln!(out, "globals: {}", gs.join(", "));
    }
    if !program.fields.is_empty() {
        let fs: Vec<String> = program
            .fields
            .iter()
            .map(|f| {
                format!(
                    "{}: {}",
                    f.qualified_name(&program.classes),
                    f.sort.as_str()
                )
            })
            .collect();
        let _ = writeln!(out, "fields: {}", fs.join(", "));
    }
    let _ = program
        .globals
        .iter()
        .filter(|g| matches!(g.kind, GlobalKind::Wildcard(_)))
        .count();
    for a in &program.approximations {
        let _ = writeln!(
            out,
            "approximation {} {}: {}",
            lines.of(a.span),
            a.code,
            a.message
        );
    }
    for m in &program.methods {
        out.push('\n');
        let _ = writeln!(out, "{}", method_header(program, m));
        let locals: Vec<String> = m
            .vars
            .iter()
            .filter(|v| v.kind != VarKind::Param)
            .map(|v| format!("{}: {}", v.name, v.sort.as_str()))
            .collect();
        if !locals.is_empty() {
            let _ = writeln!(out, "  locals: {}", locals.join(", "));
        }
        let throws = m
            .throw_exit
            .map(|t| format!(", throws at n{}", t.index()))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  entry n{}, exit n{}{throws}",
            m.entry.index(),
            m.exit.index()
        );
        let pr = Printer::new(program, m);
        for (a, b, e) in m.edges() {
            let _ = writeln!(
                out,
                "  n{} -> n{}  {}: {}",
                a.index(),
                b.index(),
                lines.of(e.span()),
                pr.edge(e, "; ")
            );
        }
    }
    out
}

fn dot_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\l"),
            _ => o.push(c),
        }
    }
    o
}

/// Graphviz DOT: one cluster per method, nodes named `m<method>_n<node>`.
pub fn render_dot(program: &Program, text: &str) -> String {
    render_dot_in(program, &SourceSet::single("", text))
}

/// [`render_dot`] for a program of several files (see [`render_text_in`]).
pub fn render_dot_in(program: &Program, sources: &SourceSet) -> String {
    let lines = SpanLines::new(sources);
    let mut out = String::new();
    out.push_str("digraph program {\n");
    out.push_str("  node [shape=circle, fontsize=10, fontname=\"monospace\"];\n");
    out.push_str("  edge [fontsize=9, fontname=\"monospace\"];\n");
    for m in &program.methods {
        let mid = m.id.0;
        let _ = writeln!(out, "  subgraph cluster_m{mid} {{");
        let _ = writeln!(out, "    label=\"{}\";", dot_escape(&m.name));
        for n in m.graph.node_indices() {
            let shape = if n == m.entry {
                ", shape=doublecircle"
            } else if n == m.exit {
                ", shape=doubleoctagon"
            } else if Some(n) == m.throw_exit {
                ", shape=octagon"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "    m{mid}_n{} [label=\"n{}\"{shape}];",
                n.index(),
                n.index()
            );
        }
        let pr = Printer::new(program, m);
        for (a, b, e) in m.edges() {
            let label = format!("{}: {}\n", lines.of(e.span()), pr.edge(e, "\n"));
            let _ = writeln!(
                out,
                "    m{mid}_n{} -> m{mid}_n{} [label=\"{}\"];",
                a.index(),
                b.index(),
                dot_escape(&label)
            );
        }
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::{render_dot, render_text};
    use crate::instrument;
    use crate::testutil::lower_ok;

    const SRC: &str = "class Main {\n  static void m(Res r) {\n    if (r != null) r.close();\n  }\n  public static void main(String[] a) { m(new Res()); }\n}\n";
    const SPEC: &str = "wildcard $1 : Res;\nS -> $1.close() S | ε;\n";

    #[test]
    fn dot_has_one_cluster_per_method_and_stable_names() {
        let p = instrument(&lower_ok(SRC, SPEC));
        let dot = render_dot(&p, SRC);
        assert_eq!(dot.matches("subgraph cluster_m").count(), p.methods.len());
        assert!(dot.starts_with("digraph program {\n") && dot.ends_with("}\n"));
        assert_eq!(dot, render_dot(&instrument(&lower_ok(SRC, SPEC)), SRC));
        insta::assert_snapshot!(dot);
    }

    #[test]
    fn text_shows_source_lines_and_nested_operators() {
        let src = "class Main {\n  public static void main(String[] a) {\n    int x = 1;\n    int y = (x + 2) * 3 - (x - (1 - x));\n    boolean b = !(x > 1) && (y == 2 || x < 0);\n  }\n}\n";
        let p = lower_ok(src, SPEC);
        let text = render_text(&p, src);
        assert!(text.contains("y := (x + 2) * 3 - (x - (1 - x))"), "{text}");
        assert!(text.contains("b := x <= 1 && (y == 2 || x < 0)"), "{text}");
        assert!(text.contains("n0 -> n1  L3-5: x := 1;"), "{text}");
    }
}
