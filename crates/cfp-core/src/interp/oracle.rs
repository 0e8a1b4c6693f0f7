//! Oracles: where the interpreter's choices come from — a recorded path
//! ([`PathOracle`]), a replayed run ([`ReplayOracle`]) or random draws ([`RandomOracle`]).

use super::*;

/// Why the interpreter needs a value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ValueSource {
    /// The initial value of a global at the root's entry.
    GlobalInit(GlobalId),
    /// `havoc place` in `method`.
    Havoc {
        /// The method executing the havoc.
        method: MethodId,
        /// The havocked place (the object of a field place is not evaluated here).
        place: Place,
    },
    /// The initial content of `field` at address `obj` (read before any write).
    FieldInit {
        /// The field.
        field: FieldId,
        /// The object's address.
        obj: i64,
    },
    /// A variable of `method` read before any write.
    VarInit {
        /// The method.
        method: MethodId,
        /// The variable.
        var: VarId,
    },
}

/// A request for a value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValueQuery {
    /// What the value is for.
    pub source: ValueSource,
    /// Its sort (the answer must have the matching [`Value`] variant).
    pub sort: Sort,
    /// The addresses allocated so far (`1..=n`, in order), useful for references.
    pub allocated: i64,
    /// The next statement assumes the drawn reference is not `null`: an oracle that draws
    /// at random should not draw `null` (the run would only block there).
    pub non_null: bool,
    /// The value is a field of an object a `new` of the program allocated, read before any
    /// write: Java's default (`0`, `false`, `null`) is what a run would see (the encoding
    /// leaves it arbitrary, so any answer is sound).
    pub zeroed: bool,
}

/// A request to choose among several enabled edges of one location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EdgeQuery {
    /// The method.
    pub method: MethodId,
    /// The location.
    pub node: usize,
    /// The enabled outgoing edges (graph edge indices, in the CFA's edge order); at
    /// least two.
    pub enabled: Vec<usize>,
    /// Those of `enabled` that raise an exception (a library call that throws, a
    /// `throw`): a random oracle takes them less often, as most runs do not throw.
    pub throwing: Vec<usize>,
}

/// One answer of an oracle, as recorded in [`Run::decisions`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Decision {
    /// A value.
    Value(Value),
    /// The graph index of the chosen edge.
    Edge(usize),
}

/// Supplies every nondeterministic choice of a run. `None` ends the run with
/// [`InterpError::OracleExhausted`].
pub trait Oracle {
    /// A value of sort `q.sort` (a [`Value::Bool`] for [`Sort::Bool`], otherwise a
    /// [`Value::Int`]).
    fn value(&mut self, q: &ValueQuery) -> Option<Value>;
    /// The graph index of one of `q.enabled`.
    fn edge(&mut self, q: &EdgeQuery) -> Option<usize>;
    /// Called after every executed edge (whether or not a choice was needed); lets an
    /// oracle follow a path given edge by edge ([`PathOracle`]).
    fn observe(&mut self, _step: &Step) {}
    /// When a callee ends the other way than its call edge expected (it threw, or
    /// returned normally), whether the run may go on through the call's other edge (a
    /// path-following oracle says no: the run has left the path).
    fn adapt_returns(&self) -> bool {
        true
    }
    /// After a `havoc` of a reference: the allocation counter from then on, when the
    /// oracle knows it (library code may have allocated objects it did not return); by
    /// default the counter only grows past the returned reference.
    fn allocated_after_havoc(&mut self) -> Option<i64> {
        None
    }
    /// Whether a drawn value the next `assume` rejects may be drawn again (a random
    /// oracle); an oracle that answers from a model or a record says no.
    fn redraws(&self) -> bool {
        false
    }
}

/// A position in a path given as the sequence of executed edges `(method, edge index)`
/// (calls included, returns implicit): what an oracle that follows the path answers to
/// edge queries, and whether the run left it.
#[derive(Clone, Debug, Default)]
pub struct EdgeCursor {
    /// The path.
    pub edges: Vec<(MethodId, usize)>,
    /// How many of its edges were executed.
    pub next: usize,
    /// Set when an executed edge differed from the path.
    pub diverged: bool,
}

impl EdgeCursor {
    /// At the start of `edges`.
    pub fn new(edges: Vec<(MethodId, usize)>) -> EdgeCursor {
        EdgeCursor {
            edges,
            ..EdgeCursor::default()
        }
    }

    /// The path's next edge, when it is among the enabled ones of the query.
    pub fn edge(&self, q: &EdgeQuery) -> Option<usize> {
        match self.edges.get(self.next) {
            Some(&(m, e)) if m == q.method && q.enabled.contains(&e) => Some(e),
            _ => None,
        }
    }

    /// An edge was executed.
    pub fn observe(&mut self, step: &Step) {
        if self.edges.get(self.next) != Some(&(step.method, step.edge)) {
            self.diverged = true;
        }
        self.next += 1;
    }

    /// True when every edge of the path was executed.
    pub fn done(&self) -> bool {
        self.next == self.edges.len()
    }
}

/// Follows a path given as the complete sequence of executed edges `(method, edge
/// index)` — e.g. a checker's nested path, calls included, returns implicit — plus the
/// havoc/initial values in the order the interpreter asks for them. Edge queries are
/// answered with the path's next edge; a run that leaves the path gets `None`
/// ([`InterpError::OracleExhausted`]).
#[derive(Clone, Debug, Default)]
pub struct PathOracle {
    /// The path and how far the run followed it.
    pub path: EdgeCursor,
    values: Vec<Value>,
    next_value: usize,
}

impl PathOracle {
    /// Follow `edges`, answering value queries from `values`.
    pub fn new(edges: Vec<(MethodId, usize)>, values: Vec<Value>) -> PathOracle {
        PathOracle {
            path: EdgeCursor::new(edges),
            values,
            next_value: 0,
        }
    }

    /// True when every edge of the path was executed and every value used.
    pub fn exhausted(&self) -> bool {
        self.path.done() && self.next_value == self.values.len()
    }
}

impl Oracle for PathOracle {
    fn value(&mut self, q: &ValueQuery) -> Option<Value> {
        let v = *self.values.get(self.next_value)?;
        if !sort_matches(q.sort, v) {
            return None;
        }
        self.next_value += 1;
        Some(v)
    }

    fn edge(&mut self, q: &EdgeQuery) -> Option<usize> {
        self.path.edge(q)
    }

    fn observe(&mut self, step: &Step) {
        self.path.observe(step);
    }

    fn adapt_returns(&self) -> bool {
        false
    }
}

/// Follows a recorded list of decisions (e.g. [`Run::decisions`], or a checker's
/// counterexample turned into values and branch choices).
#[derive(Clone, Debug, Default)]
pub struct ReplayOracle {
    decisions: Vec<Decision>,
    next: usize,
}

impl ReplayOracle {
    /// Replay `decisions` in order.
    pub fn new(decisions: Vec<Decision>) -> ReplayOracle {
        ReplayOracle { decisions, next: 0 }
    }

    /// How many decisions were used so far.
    pub fn used(&self) -> usize {
        self.next
    }
}

impl Oracle for ReplayOracle {
    fn value(&mut self, q: &ValueQuery) -> Option<Value> {
        match self.decisions.get(self.next)? {
            Decision::Value(v) if sort_matches(q.sort, *v) => {
                self.next += 1;
                Some(*v)
            }
            _ => None,
        }
    }

    fn edge(&mut self, q: &EdgeQuery) -> Option<usize> {
        match self.decisions.get(self.next)? {
            Decision::Edge(e) if q.enabled.contains(e) => {
                self.next += 1;
                Some(*e)
            }
            _ => None,
        }
    }
}

pub(super) fn sort_matches(sort: Sort, v: Value) -> bool {
    matches!(
        (sort, v),
        (Sort::Bool, Value::Bool(_)) | (Sort::Int | Sort::Ref, Value::Int(_))
    )
}

/// Pseudo-random choices (xorshift64*), for testing: integers in `-2..=5` (0 and 1 are
/// favoured), references `null` (one time in five) or an address in `1..=allocated + 6`
/// (so that a wildcard chosen at the start can name an object allocated later), booleans
/// and edges uniform.
#[derive(Clone, Debug)]
pub struct RandomOracle {
    state: u64,
}

impl RandomOracle {
    /// A generator seeded with `seed` (any value, 0 included).
    pub fn new(seed: u64) -> RandomOracle {
        RandomOracle {
            state: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03,
        }
    }

    /// The next raw pseudo-random number.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        (self.next_u64() >> 11) % n.max(1)
    }
}

impl Oracle for RandomOracle {
    fn value(&mut self, q: &ValueQuery) -> Option<Value> {
        Some(match q.sort {
            Sort::Bool => Value::Bool(self.below(2) == 1),
            Sort::Int => {
                const INTS: [i64; 10] = [0, 0, 1, 1, 2, 3, -1, 5, -2, 4];
                Value::Int(INTS[self.below(INTS.len() as u64) as usize])
            }
            Sort::Ref => {
                if self.below(5) == 0 {
                    Value::Int(0)
                } else {
                    let hi = q.allocated.max(0) as u64 + 6;
                    Value::Int(1 + self.below(hi) as i64)
                }
            }
        })
    }

    fn edge(&mut self, q: &EdgeQuery) -> Option<usize> {
        let i = self.below(q.enabled.len() as u64) as usize;
        q.enabled.get(i).copied()
    }
}
