//! A generator of small programs (20–80 lines) that are valid Java and programs of cfp's
//! language, deterministic from a seed. Each program combines two to four *features*
//! ([`features`]): class initialisation (late, never, superclass and subclass, a nested
//! enum, another class's static field, an inherited static field), inheritance and
//! dispatch, enums with constructors and `switch`, overloads (int, long, Integer, Object,
//! char, program classes, varargs), exceptions (program exception classes, catch of a
//! supertype, multi-catch, nested try, rethrow, `finally` with `return` or `break`,
//! try-with-resources, the library's `Lib.io()`/`Lib.risky()` — only inside a `try` that
//! catches them or a method declaring `IOException`), lambdas, anonymous and local
//! classes (passed to program methods, stored in fields, capturing locals and `this`,
//! given to the library's `Lib.run`/`Lib.later`), loops and recursion bounded by inputs,
//! `native` methods where the JVM never calls them, and lock/unlock (or save/restore)
//! calls on one or two objects — with a bug (a missing or extra call) in about a third
//! of the features. Every nondeterministic value is an `Input.readInt()` or
//! `Input.readBool()`.

mod features;

use std::fmt::Write as _;

/// A protocol the generated programs use: its spec, the API class and its opening and
/// closing calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proto {
    /// The `// spec:` header.
    pub spec: &'static str,
    /// The class of the two objects `Main.L1` and `Main.L2`.
    pub class: &'static str,
    /// The call that opens (`lock`, `save`).
    pub open: &'static str,
    /// The call that closes (`unlock`, `restore`).
    pub close: &'static str,
}

/// The lock protocol (most programs).
pub const LOCK: Proto = Proto {
    spec: "lock.cfg",
    class: "ReentrantLock",
    open: "lock",
    close: "unlock",
};

/// The Canvas protocol (saves may stay open).
pub const CANVAS: Proto = Proto {
    spec: "canvas.cfg",
    class: "Canvas",
    open: "save",
    close: "restore",
};

/// A deterministic generator (splitmix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1B5_4A32)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// What one feature adds to a program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Feature {
    /// Top-level classes (each a whole declaration).
    pub classes: Vec<String>,
    /// Members of `Main`.
    pub members: Vec<String>,
    /// Statements of `main` (one block of lines).
    pub stmts: String,
}

/// Replace the template's placeholders: `$K` the feature's number, `$T` the API class,
/// `$O`/`$C` the opening and closing calls, `$L`/`$M` the two API objects.
pub fn fill(template: &str, k: usize, p: &Proto) -> String {
    template
        .replace("$K", &k.to_string())
        .replace("$T", p.class)
        .replace("$O", p.open)
        .replace("$C", p.close)
        .replace("$L", "Main.L1")
        .replace("$M", "Main.L2")
}

fn indent(text: &str, by: usize) -> String {
    let pad = " ".repeat(by);
    text.lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("{pad}{l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names of the features, in the catalogue's order.
pub fn feature_names() -> Vec<&'static str> {
    features::CATALOGUE.iter().map(|(n, _)| *n).collect()
}

/// The program of `seed`.
pub fn generate(seed: u64) -> String {
    generate_with(seed, &[])
}

/// The program of `seed` made of features named in `only` (one of them, chosen by the
/// seed; every feature when `only` is empty: two to four of them). Unknown names are
/// ignored.
pub fn generate_with(seed: u64, only: &[&str]) -> String {
    let mut rng = Rng::new(seed);
    let proto = if rng.chance(20) { CANVAS } else { LOCK };
    let allowed: Vec<usize> = (0..features::CATALOGUE.len())
        .filter(|&i| only.is_empty() || only.contains(&features::CATALOGUE[i].0))
        .collect();
    let count = if only.is_empty() { 2 + rng.below(3) } else { 1 };
    let mut picked: Vec<usize> = Vec::new();
    while picked.len() < count.min(allowed.len()) {
        let i = allowed[rng.below(allowed.len())];
        if !picked.contains(&i) {
            picked.push(i);
        }
    }
    let mut names = Vec::new();
    let mut classes = Vec::new();
    let mut members = Vec::new();
    let mut stmts = Vec::new();
    for (k, &i) in picked.iter().enumerate() {
        let (name, make) = features::CATALOGUE[i];
        let bug = rng.chance(35);
        let f = make(&mut rng, k + 1, &proto, bug);
        names.push(if bug {
            format!("{name} (bug)")
        } else {
            name.to_string()
        });
        classes.extend(f.classes);
        members.extend(f.members);
        if !f.stmts.is_empty() {
            stmts.push(f.stmts);
        }
    }
    let mut main = String::from("class Main {\n");
    let _ = writeln!(main, "    static {0} L1 = new {0}();", proto.class);
    let _ = writeln!(main, "    static {0} L2 = new {0}();", proto.class);
    for m in &members {
        let _ = writeln!(main, "\n{}", indent(m, 4));
    }
    main.push_str("\n    public static void main(String[] args) {\n");
    main.push_str(&indent(&stmts.join("\n"), 8));
    main.push_str("\n    }\n}\n");
    let main_first = rng.chance(50);
    let mut out = format!(
        "// spec: {}\n// expect: any\n// generated by cfp-oracle from seed {seed}: {}\n",
        proto.spec,
        names.join(", ")
    );
    if main_first {
        out.push_str(&main);
    }
    for c in &classes {
        out.push_str(c);
        if !c.ends_with('\n') {
            out.push('\n');
        }
    }
    if !main_first {
        out.push_str(&main);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_program() {
        assert_eq!(generate(7), generate(7));
        assert_ne!(generate(7), generate(8));
    }

    #[test]
    fn programs_are_small_and_have_headers() {
        for seed in 0..200 {
            let p = generate(seed);
            let lines = p.lines().count();
            assert!(
                (15..=100).contains(&lines),
                "seed {seed}: {lines} lines\n{p}"
            );
            assert!(p.starts_with("// spec: "), "{p}");
            assert!(p.contains("// expect: any"), "{p}");
            assert!(!p.contains('$'), "seed {seed}: a placeholder is left\n{p}");
        }
    }

    /// Every generated program is a program of cfp's language: no syntax error other than
    /// the constructs cfp reports as unsupported (cfp then rejects it, exit 3).
    #[test]
    fn generated_programs_parse_with_cfps_parser() {
        for seed in 0..300 {
            let p = generate(seed);
            let parsed = cfp_syntax::parse_program(&p);
            let errors: Vec<String> = parsed
                .diagnostics
                .iter()
                .filter(|d| d.severity == cfp_syntax::Severity::Error && d.code != "unsupported")
                .map(|d| format!("{}: {}", d.code, d.message))
                .collect();
            assert!(errors.is_empty(), "seed {seed}: {errors:?}\n{p}");
        }
    }

    #[test]
    fn one_feature_alone() {
        let p = generate_with(3, &["recursion"]);
        assert!(p.contains("from seed 3: recursion"), "{p}");
        assert!(p.contains("rec1("), "{p}");
        assert_eq!(generate_with(3, &["recursion"]), p);
    }

    #[test]
    fn every_feature_appears_over_many_seeds() {
        let text: String = (0..400).map(generate).collect();
        for (name, _) in features::CATALOGUE {
            assert!(text.contains(name), "{name} never generated");
        }
    }
}
