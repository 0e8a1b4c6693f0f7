//! A generator of realistic lock-using programs with known verdicts: varied
//! method shapes as real code has them, correct, or with exactly one injected bug.
//!
//! `cargo xtask gen-program --realistic LINES [--seed S] [--bug]` prints a program of
//! about LINES lines for `tests/specs/lock.cfg` (ReentrantLock, properly nested
//! `lock`/`unlock` per object). Its shapes:
//!
//! * `try { … } finally { l.unlock(); }` around work, with early returns inside;
//! * acquire/release helper pairs (`void acquire(ReentrantLock l) { l.lock(); }`);
//! * loops that lock and unlock in every iteration;
//! * conditionals on external input (`Input.readInt()`, `*`);
//! * bounded recursion that locks around its recursive call;
//! * flag-guarded unlock (`boolean held = false; if (…) { l.lock(); held = true; } … if
//!   (held) l.unlock();`);
//! * aliases (`ReentrantLock m = this.lock; m.lock(); … this.lock.unlock();`);
//! * calls that pass the lock to another class, which locks and unlocks it;
//! * lock-free utility classes with arithmetic loops (`for (int i = 0; i < b % 4; i++)`),
//!   called between `lock()` and `unlock()`.
//!
//! With `--bug`, one method (chosen by the seed) gets one of: an early return between
//! `lock()` and `unlock()` without `finally`, an unlock on a path where the lock is not held,
//! or a lock in a loop whose unlock is after the loop. `--bug KIND` picks the kind, among
//! those three (`early-return`, `unheld-unlock`, `unlock-after-loop`) and four more
//! ([`Bug`]): `double-lock` (a second `lock()` under an input condition inside a locked
//! region, next to the arithmetic helpers), `callee-missing-unlock` (the release helper
//! returns early on some values), `loop-early-return` (a return inside a loop between the
//! iteration's `lock()` and `unlock()`) and `catch-path` (an exception thrown between
//! `lock()` and `unlock()`, caught without unlocking). Every method is called from `main`
//! under an external condition, so the bug is reachable and its word is outside the spec;
//! without `--bug` every completed execution is balanced. The output is deterministic in
//! (LINES, seed, bug).

use std::fmt::Write as _;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The method shapes of a lock-using class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    TryFinally,
    HelperPair,
    Loop,
    Recursion,
    FlagGuarded,
    Alias,
    PassAcross,
    Conditional,
}

const SHAPES: [Shape; 8] = [
    Shape::TryFinally,
    Shape::HelperPair,
    Shape::Loop,
    Shape::Recursion,
    Shape::FlagGuarded,
    Shape::Alias,
    Shape::PassAcross,
    Shape::Conditional,
];

/// The kinds of injected bugs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bug {
    /// A return between `lock()` and `unlock()`, without `finally`.
    EarlyReturn,
    /// An unlock on a path where the lock is not held.
    UnheldUnlock,
    /// A lock in a loop whose unlock is after the loop.
    UnlockAfterLoop,
    /// Inside a locked region, next to the arithmetic helpers: a second `lock()` under an
    /// input condition.
    DoubleLock,
    /// The release helper returns early without unlocking on some values.
    CalleeMissingUnlock,
    /// A return inside a loop between the iteration's `lock()` and `unlock()`.
    LoopEarlyReturn,
    /// An exception thrown between `lock()` and `unlock()`, caught without unlocking.
    CatchPath,
}

impl Bug {
    /// Every kind, in the order `--bug` names them.
    pub const ALL: [Bug; 7] = [
        Bug::EarlyReturn,
        Bug::UnheldUnlock,
        Bug::UnlockAfterLoop,
        Bug::DoubleLock,
        Bug::CalleeMissingUnlock,
        Bug::LoopEarlyReturn,
        Bug::CatchPath,
    ];

    /// The kind's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Bug::EarlyReturn => "early-return",
            Bug::UnheldUnlock => "unheld-unlock",
            Bug::UnlockAfterLoop => "unlock-after-loop",
            Bug::DoubleLock => "double-lock",
            Bug::CalleeMissingUnlock => "callee-missing-unlock",
            Bug::LoopEarlyReturn => "loop-early-return",
            Bug::CatchPath => "catch-path",
        }
    }

    /// The kind named `name`.
    pub fn from_name(name: &str) -> Option<Bug> {
        Bug::ALL.into_iter().find(|b| b.name() == name)
    }
}

/// Which bug a generated program gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Injected {
    /// None: every completed execution is balanced.
    None,
    /// One of the first three kinds, chosen by the seed.
    Seeded,
    /// This kind.
    Kind(Bug),
}

/// One generated method: its name, its text, whether it takes an `int` argument.
struct Method {
    name: String,
    text: String,
}

/// Writes the methods of one lock-using class.
struct ClassGen<'a> {
    rng: &'a mut Rng,
    class: String,
    util: String,
    peer: Option<String>,
}

impl ClassGen<'_> {
    /// The body of `shape`, as method `name`; `bug` injects a bug into it.
    fn method(&mut self, shape: Shape, name: &str, bug: Option<Bug>) -> Method {
        let util = self.util.clone();
        let k = self.rng.below(5) + 2;
        let mut t = String::new();
        let w = &mut t;
        match (shape, bug) {
            (_, Some(Bug::EarlyReturn)) => {
                let _ = writeln!(w, "    int {name}(int n) {{");
                let _ = writeln!(w, "        lock.lock();");
                let _ = writeln!(w, "        int r = {util}.mix(n, {k});");
                let _ = writeln!(w, "        if (r > {}) {{", k * 3);
                let _ = writeln!(w, "            return r;");
                let _ = writeln!(w, "        }}");
                let _ = writeln!(w, "        count = count + r;");
                let _ = writeln!(w, "        lock.unlock();");
                let _ = writeln!(w, "        return count;");
                let _ = writeln!(w, "    }}");
            }
            (_, Some(Bug::UnheldUnlock)) => {
                let _ = writeln!(w, "    int {name}(int n) {{");
                let _ = writeln!(w, "        boolean held = false;");
                let _ = writeln!(w, "        if (n > {k}) {{");
                let _ = writeln!(w, "            lock.lock();");
                let _ = writeln!(w, "            held = true;");
                let _ = writeln!(w, "        }}");
                let _ = writeln!(w, "        count = {util}.sum(count, n);");
                let _ = writeln!(w, "        if (held || n < 0) {{");
                let _ = writeln!(w, "            lock.unlock();");
                let _ = writeln!(w, "        }}");
                let _ = writeln!(w, "        return count;");
                let _ = writeln!(w, "    }}");
            }
            (_, Some(Bug::UnlockAfterLoop)) => {
                let _ = writeln!(w, "    int {name}(int n) {{");
                let _ = writeln!(w, "        for (int i = 0; i < n; i++) {{");
                let _ = writeln!(w, "            lock.lock();");
                let _ = writeln!(w, "            count = count + {util}.mix(i, {k});");
                let _ = writeln!(w, "        }}");
                let _ = writeln!(w, "        if (n > 0) {{");
                let _ = writeln!(w, "            lock.unlock();");
                let _ = writeln!(w, "        }}");
                let _ = writeln!(w, "        return count;");
                let _ = writeln!(w, "    }}");
            }
            (_, Some(Bug::DoubleLock)) => {
                let _ = writeln!(w, "    int {name}(int n) {{");
                let _ = writeln!(w, "        lock.lock();");
                let _ = writeln!(w, "        int r = {util}.mix(n, {k});");
                let _ = writeln!(w, "        if (Input.readBool()) {{");
                let _ = writeln!(w, "            lock.lock();");
                let _ = writeln!(w, "        }}");
                let _ = writeln!(w, "        count = {util}.sum(count, r);");
                let _ = writeln!(w, "        lock.unlock();");
                let _ = writeln!(w, "        return count;");
                let _ = writeln!(w, "    }}");
            }
            (_, Some(Bug::CalleeMissingUnlock)) => {
                let _ = writeln!(w, "    void release_{name}(ReentrantLock l, int r) {{");
                let _ = writeln!(w, "        if (r > {}) {{", k * 3);
                let _ = writeln!(w, "            return;");
                let _ = writeln!(w, "        }}");
                let _ = writeln!(w, "        l.unlock();");
                let _ = writeln!(w, "    }}");
                let _ = writeln!(w);
                let _ = writeln!(w, "    int {name}(int n) {{");
                let _ = writeln!(w, "        lock.lock();");
                let _ = writeln!(w, "        int r = {util}.mix(n, {k});");
                let _ = writeln!(w, "        count = count + r;");
                let _ = writeln!(w, "        release_{name}(lock, r);");
                let _ = writeln!(w, "        return count;");
                let _ = writeln!(w, "    }}");
            }
            (_, Some(Bug::LoopEarlyReturn)) => {
                let _ = writeln!(w, "    int {name}(int n) {{");
                let _ = writeln!(w, "        int total = 0;");
                let _ = writeln!(w, "        for (int i = 0; i < n; i++) {{");
                let _ = writeln!(w, "            lock.lock();");
                let _ = writeln!(w, "            total = total + {util}.sum(i, n);");
                let _ = writeln!(w, "            if (total > {}) {{", k * 2);
                let _ = writeln!(w, "                return total;");
                let _ = writeln!(w, "            }}");
                let _ = writeln!(w, "            lock.unlock();");
                let _ = writeln!(w, "        }}");
                let _ = writeln!(w, "        return total;");
                let _ = writeln!(w, "    }}");
            }
            (_, Some(Bug::CatchPath)) => {
                let _ = writeln!(w, "    int {name}(int n) {{");
                let _ = writeln!(w, "        lock.lock();");
                let _ = writeln!(w, "        try {{");
                let _ = writeln!(w, "            count = {util}.mix(count, n);");
                let _ = writeln!(w, "            if (n > {k}) {{");
                let _ = writeln!(w, "                throw new IllegalStateException();");
                let _ = writeln!(w, "            }}");
                let _ = writeln!(w, "            lock.unlock();");
                let _ = writeln!(w, "        }} catch (IllegalStateException e) {{");
                let _ = writeln!(w, "            count = 0;");
                let _ = writeln!(w, "        }}");
                let _ = writeln!(w, "        return count;");
                let _ = writeln!(w, "    }}");
            }
            (Shape::TryFinally, None) => {
                let _ = writeln!(w, "    int {name}(int n) {{");
                let _ = writeln!(w, "        lock.lock();");
                let _ = writeln!(w, "        try {{");
                let _ = writeln!(w, "            if (n < 0) {{");
                let _ = writeln!(w, "                return 0;");
                let _ = writeln!(w, "            }}");
                let _ = writeln!(w, "            count = count + {util}.mix(n, {k});");
                let _ = writeln!(w, "            return count;");
                let _ = writeln!(w, "        }} finally {{");
                let _ = writeln!(w, "            lock.unlock();");
                let _ = writeln!(w, "        }}");
                let _ = writeln!(w, "    }}");
            }
            (Shape::HelperPair, None) => {
                let _ = writeln!(w, "    void acquire_{name}(ReentrantLock l) {{");
                let _ = writeln!(w, "        l.lock();");
                let _ = writeln!(w, "    }}");
                let _ = writeln!(w);
                let _ = writeln!(w, "    void release_{name}(ReentrantLock l) {{");
                let _ = writeln!(w, "        l.unlock();");
                let _ = writeln!(w, "    }}");
                let _ = writeln!(w);
                let _ = writeln!(w, "    int {name}(int n) {{");
                let _ = writeln!(w, "        acquire_{name}(lock);");
                let _ = writeln!(w, "        count = {util}.sum(count, n * {k});");
                let _ = writeln!(w, "        release_{name}(lock);");
                let _ = writeln!(w, "        return count;");
                let _ = writeln!(w, "    }}");
            }
            (Shape::Loop, None) => {
                let _ = writeln!(w, "    int {name}(int n) {{");
                let _ = writeln!(w, "        int total = 0;");
                let _ = writeln!(w, "        for (int i = 0; i < n; i++) {{");
                let _ = writeln!(w, "            lock.lock();");
                let _ = writeln!(w, "            total = total + {util}.mix(i, {k});");
                let _ = writeln!(w, "            lock.unlock();");
                let _ = writeln!(w, "        }}");
                let _ = writeln!(w, "        return total;");
                let _ = writeln!(w, "    }}");
            }
            (Shape::Recursion, None) => {
                let _ = writeln!(w, "    int {name}(int depth) {{");
                let _ = writeln!(w, "        if (depth <= 0) {{");
                let _ = writeln!(w, "            return 0;");
                let _ = writeln!(w, "        }}");
                let _ = writeln!(w, "        lock.lock();");
                let _ = writeln!(w, "        int r = {name}(depth - 1) + {k};");
                let _ = writeln!(w, "        lock.unlock();");
                let _ = writeln!(w, "        return r;");
                let _ = writeln!(w, "    }}");
            }
            (Shape::FlagGuarded, None) => {
                let _ = writeln!(w, "    int {name}(int n) {{");
                let _ = writeln!(w, "        boolean held = false;");
                let _ = writeln!(w, "        if (n > {k}) {{");
                let _ = writeln!(w, "            lock.lock();");
                let _ = writeln!(w, "            held = true;");
                let _ = writeln!(w, "        }}");
                let _ = writeln!(w, "        count = {util}.sum(count, n);");
                let _ = writeln!(w, "        if (held) {{");
                let _ = writeln!(w, "            lock.unlock();");
                let _ = writeln!(w, "        }}");
                let _ = writeln!(w, "        return count;");
                let _ = writeln!(w, "    }}");
            }
            (Shape::Alias, None) => {
                let _ = writeln!(w, "    int {name}(int n) {{");
                let _ = writeln!(w, "        ReentrantLock mine = lock;");
                let _ = writeln!(w, "        mine.lock();");
                let _ = writeln!(w, "        if (Input.readBool()) {{");
                let _ = writeln!(w, "            count = count - n;");
                let _ = writeln!(w, "        }}");
                let _ = writeln!(w, "        lock.unlock();");
                let _ = writeln!(w, "        return count;");
                let _ = writeln!(w, "    }}");
            }
            (Shape::PassAcross, None) => match self.peer.clone() {
                Some(peer) => {
                    let _ = writeln!(w, "    int {name}(int n) {{");
                    let _ = writeln!(w, "        {peer}.guarded(lock, n);");
                    let _ = writeln!(w, "        return count;");
                    let _ = writeln!(w, "    }}");
                }
                None => return self.method(Shape::Conditional, name, None),
            },
            (Shape::Conditional, None) => {
                let _ = writeln!(w, "    int {name}(int n) {{");
                let _ = writeln!(w, "        if (n % 2 == 0) {{");
                let _ = writeln!(w, "            lock.lock();");
                let _ = writeln!(w, "            count = count + {k};");
                let _ = writeln!(w, "            lock.unlock();");
                let _ = writeln!(w, "        }} else if (*) {{");
                let _ = writeln!(w, "            count = {util}.mix(count, n);");
                let _ = writeln!(w, "        }}");
                let _ = writeln!(w, "        return count;");
                let _ = writeln!(w, "    }}");
            }
        }
        Method {
            name: name.to_string(),
            text: t,
        }
    }
}

/// A lock-free utility class with arithmetic loops.
fn utility(name: &str, rng: &mut Rng) -> String {
    let a = rng.below(7) + 2;
    let b = rng.below(3) + 3;
    let mut t = String::new();
    let w = &mut t;
    let _ = writeln!(w, "class {name} {{");
    let _ = writeln!(w, "    static int mix(int a, int b) {{");
    let _ = writeln!(w, "        int acc = a;");
    let _ = writeln!(w, "        for (int i = 0; i < b % {b}; i++) {{");
    let _ = writeln!(w, "            acc = acc * 2 + i - {a};");
    let _ = writeln!(w, "        }}");
    let _ = writeln!(w, "        return acc;");
    let _ = writeln!(w, "    }}");
    let _ = writeln!(w);
    let _ = writeln!(w, "    static int sum(int x, int y) {{");
    let _ = writeln!(w, "        int s = 0;");
    let _ = writeln!(w, "        while (s < y && s < {}) {{", a * 10);
    let _ = writeln!(w, "            s = s + x % {b} + 1;");
    let _ = writeln!(w, "        }}");
    let _ = writeln!(w, "        return s;");
    let _ = writeln!(w, "    }}");
    let _ = writeln!(w, "}}");
    t
}

/// The class other classes pass their lock to.
fn peer(name: &str) -> String {
    format!(
        "class {name} {{\n    static void guarded(ReentrantLock l, int n) {{\n        l.lock();\n        try {{\n            if (n > 100) {{\n                return;\n            }}\n        }} finally {{\n            l.unlock();\n        }}\n    }}\n}}\n"
    )
}

/// A program of about `lines` lines (see the module doc); with `bug`, one of the first
/// three kinds chosen by the seed.
pub fn generate(lines: usize, seed: u64, bug: bool) -> String {
    generate_with(
        lines,
        seed,
        if bug {
            Injected::Seeded
        } else {
            Injected::None
        },
    )
}

/// A program of about `lines` lines with the bug `injected`.
pub fn generate_with(lines: usize, seed: u64, injected: Injected) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::from("import java.util.concurrent.locks.ReentrantLock;\n\n");
    // Fixed parts: two utility classes, the peer, main (about 60 lines).
    let utils = ["MathUtil", "Checksum"];
    for u in utils {
        out.push_str(&utility(u, &mut rng));
        out.push('\n');
    }
    out.push_str(&peer("Pool"));
    out.push('\n');
    // Lock-using classes of 3–6 methods until the program is long enough.
    let mut classes: Vec<(String, Vec<Method>)> = Vec::new();
    let budget = lines.saturating_sub(out.lines().count() + 12);
    let mut used = 0;
    let mut c = 0;
    while used < budget || classes.is_empty() {
        let name = format!("Service{c}");
        let mut gen = ClassGen {
            rng: &mut rng,
            class: name.clone(),
            util: utils[c % utils.len()].to_string(),
            peer: Some("Pool".to_string()),
        };
        let count = gen.rng.below(4) + 3;
        let mut methods = Vec::new();
        for m in 0..count {
            let shape = SHAPES[(c * 3 + m + gen.rng.below(SHAPES.len())) % SHAPES.len()];
            methods.push(gen.method(shape, &format!("op{m}"), None));
        }
        let _ = &gen.class;
        used += 6 + methods
            .iter()
            .map(|m| m.text.lines().count() + 1)
            .sum::<usize>();
        classes.push((name, methods));
        c += 1;
    }
    if injected != Injected::None {
        let ci = rng.below(classes.len());
        let mi = rng.below(classes[ci].1.len());
        let seeded = [Bug::EarlyReturn, Bug::UnheldUnlock, Bug::UnlockAfterLoop][rng.below(3)];
        let kind = match injected {
            Injected::Kind(k) => k,
            _ => seeded,
        };
        let mut gen = ClassGen {
            rng: &mut rng,
            class: classes[ci].0.clone(),
            util: utils[ci % utils.len()].to_string(),
            peer: None,
        };
        let name = classes[ci].1[mi].name.clone();
        classes[ci].1[mi] = gen.method(Shape::Conditional, &name, Some(kind));
    }
    for (name, methods) in &classes {
        let _ = writeln!(out, "class {name} {{");
        let _ = writeln!(out, "    ReentrantLock lock = new ReentrantLock();");
        let _ = writeln!(out, "    int count = 0;");
        for m in methods {
            out.push('\n');
            out.push_str(&m.text);
        }
        let _ = writeln!(out, "}}\n");
    }
    out.push_str("class Main {\n    public static void main(String[] args) {\n");
    for (i, (name, methods)) in classes.iter().enumerate() {
        let _ = writeln!(out, "        {name} s{i} = new {name}();");
        for m in methods {
            let _ = writeln!(
                out,
                "        if (Input.readBool()) {{ s{i}.{}(Input.readInt()); }}",
                m.name
            );
        }
    }
    out.push_str("    }\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::generate;

    #[test]
    fn programs_are_deterministic_sized_and_differ_with_a_bug() {
        let a = generate(300, 3, false);
        assert_eq!(a, generate(300, 3, false));
        let n = a.lines().count();
        assert!((280..=400).contains(&n), "{n} lines");
        let b = generate(300, 3, true);
        assert_ne!(a, b);
        for kind in super::Bug::ALL {
            let c = super::generate_with(300, 3, super::Injected::Kind(kind));
            assert_ne!(a, c, "{}", kind.name());
            assert_eq!(super::Bug::from_name(kind.name()), Some(kind));
        }
        assert!(generate(150, 1, false).lines().count() >= 140);
    }
}
