//! A counterexample's run on the program itself (not its slice): the statements, calls
//! and events its replay edges execute, each with its frame and depth. Reports read it
//! to name lines the slice does not have (`return` statements, code that does not
//! matter to the verdict but tells the story).

use crate::check::types::ReplayEdge;
use crate::ir::{Edge, MethodId, Program, Stmt, TerminalId};
use cfp_syntax::Span;
use petgraph::graph::EdgeIndex;

/// One statement (or call, or event) the run executed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Executed {
    /// The frame (method activation) it ran in, numbered in the order frames start.
    pub frame: usize,
    /// Its call depth.
    pub depth: usize,
    /// The method.
    pub method: MethodId,
    /// Where it is.
    pub span: Span,
    /// A `return` statement.
    pub leave: bool,
    /// An event of the word.
    pub event: bool,
    /// The event's terminal.
    pub terminal: Option<TerminalId>,
}

/// The run of `replay` on `program` as executed statements, in order; `None` when the
/// edges do not fit the program.
pub(crate) fn executed(program: &Program, replay: &[ReplayEdge]) -> Option<Vec<Executed>> {
    // (method, frame, the call edge it waits on, when it is not the top).
    let mut stack: Vec<(MethodId, usize, Option<EdgeIndex>)> = Vec::new();
    let mut frames = 0usize;
    let mut out = Vec::new();
    for step in replay {
        let method = MethodId(u32::try_from(step.method).ok()?);
        if stack.is_empty() {
            stack.push((method, frames, None));
            frames += 1;
        }
        let &(top, frame, _) = stack.last()?;
        if top != method {
            return None;
        }
        let cfa = program.method(method)?;
        let ix = EdgeIndex::new(step.edge);
        let edge = cfa.graph.edge_weight(ix)?;
        let depth = stack.len() - 1;
        let mut push = |span: Span, leave: bool, event: bool| {
            if span != Span::default() {
                out.push(Executed {
                    frame,
                    depth,
                    method,
                    span,
                    leave,
                    event,
                    terminal: None,
                });
            }
        };
        match edge {
            Edge::Block(stmts) => {
                for s in stmts {
                    push(s.span, matches!(s.node, Stmt::Leave), false);
                }
            }
            Edge::Api { span, terminal } => {
                // An event without a span still counts.
                out.push(Executed {
                    frame,
                    depth,
                    method,
                    span: *span,
                    leave: false,
                    event: true,
                    terminal: Some(*terminal),
                });
            }
            Edge::ApiCall { span, .. } => push(*span, false, false),
            Edge::Call { callee, span, .. } => {
                push(*span, false, false);
                if let Some(top) = stack.last_mut() {
                    top.2 = Some(ix);
                }
                stack.push((*callee, frames, None));
                frames += 1;
                let callee_cfa = program.method(*callee)?;
                if callee_cfa.entry != callee_cfa.exit {
                    continue;
                }
            }
        }
        // Returns: the edge ended its method; the caller's call edge may end the caller.
        let mut ended = match edge {
            Edge::Call { .. } => true,
            _ => {
                let (_, target) = cfa.graph.edge_endpoints(ix)?;
                cfa.is_exit(target)
            }
        };
        while ended {
            stack.pop();
            ended = match stack.last() {
                Some(&(m, _, Some(call))) => {
                    let c = program.method(m)?;
                    let (_, target) = c.graph.edge_endpoints(call)?;
                    c.is_exit(target)
                }
                _ => false,
            };
        }
    }
    Some(out)
}
