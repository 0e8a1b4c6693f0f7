//! What a run is made of and ends with: values, limits, executed steps, the heap, the
//! run itself and why it stopped.

use super::*;

/// A concrete value. References are `Int` addresses (`null` = 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Value {
    /// An integer or a reference.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

impl Value {
    /// The integer (or address); `None` for a boolean.
    pub fn as_int(self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(i),
            Value::Bool(_) => None,
        }
    }

    /// The boolean; `None` for an integer.
    pub fn as_bool(self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(b),
            Value::Int(_) => None,
        }
    }
}

/// Bounds of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Maximal number of executed edges.
    pub max_steps: usize,
    /// Maximal call depth (the root is depth 0).
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: 10_000,
            max_depth: 200,
        }
    }
}

/// One executed edge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// The method whose edge it is.
    pub method: MethodId,
    /// The edge's graph index.
    pub edge: usize,
    /// Its source location.
    pub from: usize,
    /// Its target location.
    pub to: usize,
    /// Call depth (the root is 0).
    pub depth: usize,
    /// The edge's source span.
    pub span: Span,
    /// The terminal it emitted, for an [`Edge::Api`].
    pub emitted: Option<TerminalId>,
}

/// The heap: one map per field array (cells never written nor read are absent) and the
/// allocation counter.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Heap {
    /// `fields[f][addr]`.
    pub fields: Vec<BTreeMap<i64, Value>>,
    /// Number of objects allocated so far (their addresses are `1..=allocated`).
    pub allocated: i64,
}

/// A (possibly partial) execution.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Run {
    /// Executed edges in order.
    pub steps: Vec<Step>,
    /// The emitted terminals.
    pub terminals: Vec<TerminalId>,
    /// The emitted word (terminal names as the spec spells them, e.g. `$1.lock()`).
    pub word: Vec<String>,
    /// The heap at the end.
    pub heap: Heap,
    /// Global values at the end.
    pub globals: Vec<Option<Value>>,
    /// Every oracle answer, in order ([`ReplayOracle::new`] reproduces the run).
    pub decisions: Vec<Decision>,
    /// True when the root method returned.
    pub completed: bool,
    /// The approximated constructs the run went through ([`Stmt::Approx`]), in order.
    pub approximations: Vec<u32>,
    /// The `assume`s that read a value the analysis does not track (one held by an
    /// opaque variable, [`crate::ir::VarKind::Opaque`], or computed from one): the run
    /// took its path because of such a value.
    pub opaque_decisions: Vec<Span>,
    /// Every comparison of an address with a spec wildcard's global by an executed
    /// `assume` (the instrumentation's guards), in order: the objects the run made API
    /// calls on, and where (what a wildcard could name to make the run emit them).
    pub wildcard_targets: Vec<WildcardTarget>,
    /// Some arithmetic on values that fit an `int` gave another result than Java's 32-bit
    /// `int` arithmetic would (an overflow, a shift by 32 or more, `>>>` of a negative
    /// value): the program model has one integer type, so the run is then only what a
    /// `long` computation would do.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub width_dependent: bool,
}

impl Run {
    /// The word as `&str`s (for `cfp_grammar::earley::word_in`).
    pub fn word_refs(&self) -> Vec<&str> {
        self.word.iter().map(String::as_str).collect()
    }
}

/// Why a run did not complete. The variants that stop a run carry the partial run.
#[derive(Debug, thiserror::Error)]
pub enum InterpError {
    /// An `assume` was false, no edge was enabled, or an operation was undefined.
    #[error("run blocked in method {} at {:?}: {reason}", method.0, span)]
    Blocked {
        /// The method.
        method: MethodId,
        /// The span of the blocking statement or edge.
        span: Span,
        /// What blocked.
        reason: String,
        /// The run so far.
        partial: Box<Run>,
    },
    /// The root method ended by throwing: an exception nothing catches.
    #[error("run ended by an uncaught exception thrown in method {} at {:?}", method.0, span)]
    Uncaught {
        /// The method where the exception was thrown (or the root's, when unknown).
        method: MethodId,
        /// Where it was thrown: the span of the edge that set `%exc`.
        span: Span,
        /// The exception's class, when its `%type` names one.
        exception: Option<String>,
        /// The run so far.
        partial: Box<Run>,
    },
    /// The step limit was reached.
    #[error("step limit {0} reached")]
    StepLimit(usize, Box<Run>),
    /// The call-depth limit was reached.
    #[error("call depth limit {0} reached")]
    DepthLimit(usize, Box<Run>),
    /// The oracle gave no (or an ill-sorted) answer.
    #[error("the oracle gave no usable answer")]
    OracleExhausted(Box<Run>),
    /// The program refers to something that does not exist.
    #[error("bad id: {0}")]
    BadId(String),
}

impl InterpError {
    /// The partial run, when the error stopped a run.
    pub fn partial(&self) -> Option<&Run> {
        match self {
            InterpError::Blocked { partial, .. }
            | InterpError::Uncaught { partial, .. }
            | InterpError::StepLimit(_, partial)
            | InterpError::DepthLimit(_, partial)
            | InterpError::OracleExhausted(partial) => Some(partial),
            InterpError::BadId(_) => None,
        }
    }

    /// True for [`InterpError::Blocked`].
    pub fn is_blocked(&self) -> bool {
        matches!(self, InterpError::Blocked { .. })
    }
}
