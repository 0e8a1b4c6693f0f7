//! Deterministic property test of the program parser: on any input, `parse_program`
//! does not panic, terminates, and reports diagnostics whose spans lie within the text,
//! on char boundaries, in source order.
//!
//! The number of cases is `CFP_FUZZ_CASES` (default 100,000), split between random
//! bytes, random token soups, and token/character mutations of valid programs.

mod fuzz_rng;
use cfp_syntax::lexer::{lex, TokenKind};
use cfp_syntax::{dump_program, parse_program, LineIndex};
use fuzz_rng::Rng;

const VOCAB: &[&str] = &[
    "class",
    "interface",
    "enum",
    "extends",
    "implements",
    "public",
    "private",
    "static",
    "final",
    "abstract",
    "void",
    "int",
    "long",
    "boolean",
    "char",
    "double",
    "var",
    "new",
    "this",
    "super",
    "null",
    "true",
    "false",
    "if",
    "else",
    "while",
    "do",
    "for",
    "break",
    "continue",
    "return",
    "throw",
    "try",
    "catch",
    "finally",
    "switch",
    "case",
    "default",
    "synchronized",
    "assert",
    "instanceof",
    "package",
    "import",
    "record",
    "x",
    "y",
    "Lock",
    "List",
    "String",
    "main",
    "lock",
    "unlock",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    ".",
    "...",
    "@",
    "::",
    "=",
    ">",
    "<",
    "!",
    "~",
    "?",
    ":",
    "->",
    "==",
    ">=",
    "<=",
    "!=",
    "&&",
    "||",
    "++",
    "--",
    "+",
    "-",
    "*",
    "/",
    "&",
    "|",
    "^",
    "%",
    "<<",
    ">>",
    ">>>",
    "+=",
    "-=",
    "*=",
    "/=",
    "&=",
    "|=",
    "^=",
    "%=",
    "<<=",
    ">>=",
    ">>>=",
    "0",
    "1",
    "42L",
    "0x1F",
    "3.14",
    "1e5f",
    "\"s\"",
    "'c'",
    "'\\n'",
    "\"\\u0041\"",
    "\"unterminated",
    "'",
    "/*",
    "*/",
    "//",
    "#",
    "\\",
    "é",
    "\u{1F600}",
    "2147483648",
    "0b",
    "\"\"\"",
];

const SEEDS: &[&str] = &[
    r#"import java.util.concurrent.locks.ReentrantLock;
class Main {
    static ReentrantLock l = new ReentrantLock();
    public static void main(String[] args) {
        int n = Input.readInt();
        for (int i = 0; i < n; i++) {
            l.lock();
            if (*) { foo(l); } else { l.unlock(); continue; }
            l.unlock();
        }
    }
    static void foo(ReentrantLock k) { k.unlock(); return; }
}"#,
    r#"class WakeLock {
    private int count = 0;
    boolean isHeld() { return count > 0; }
    void acquire() { count++; }
    void release() { if (count > 0) count -= 1; }
}
class App extends Base implements Runnable {
    WakeLock w;
    App(WakeLock w) { super(); this.w = w; }
    public void run() {
        try { w.acquire(); work(); } catch (IllegalStateException | NullPointerException e) { log("x"); } finally { w.release(); }
        while (w.isHeld()) { w.release(); }
    }
}"#,
    r#"class Canvas2 {
    int[] a = {1, 2, 3}; long big = 0xFFFF_FFFFL; char c = '\u0041';
    Map<String, List<Integer>> m = new HashMap<>();
    void draw(Canvas c, int depth) {
        c.save();
        switch (depth) { case 0: case 1: c.restore(); break; default: draw(c, depth - 1); c.restore(); }
        int x = depth > 3 ? (int) depth * 2 : -depth >>> 1;
        label: do { x <<= 1; if (x > 100) break label; } while (x != 0 && !(x < -5));
        Object o = (Object) c; boolean b = o instanceof Canvas;
        for (String s : names) { s.length(); }
        int[][] grid = new int[3][];
    }
}"#,
    r#"class Closures {
    static <T> void each(List<T> xs, Consumer<T>... fs) throws IOException, E { }
    native int peek();
    void m(Lock l) {
        Runnable r = () -> { l.lock(); l.unlock(); };
        BiFunction<Integer, Integer, Integer> add = (a, b) -> a + b;
        Function<String, Integer> len = (var s) -> s.length();
        Supplier<List<String>> mk = ArrayList<String>::new;
        IntFunction<int[]> arr = int[]::new;
        each(xs, System.out::println, this::use, super::toString);
        Object o = new Object() { int n; { n = 1; } public String toString() { return "o" + n; } };
        class Local extends Base { Local(int x) { super(x); } void run() { r.run(); } }
        try (Reader rd = open(); final var w = rd.writer(); existing) { new Local(1).run(); } finally { l.unlock(); }
        switch (k) { case 1, 2 -> f(); case 3 -> { g(); } default -> throw new E(); }
    }
}
enum Op { PLUS { int apply(int a, int b) { return a + b; } }, MINUS; int apply(int a, int b) { return 0; } }"#,
];

/// Check the invariants on one input.
fn check(text: &str) {
    let parsed = parse_program(text);
    let mut last = 0u32;
    for d in &parsed.diagnostics {
        let (s, e) = (d.span.start as usize, d.span.end as usize);
        assert!(
            s <= e && e <= text.len(),
            "span {s}..{e} out of text (len {}): {text:?}",
            text.len()
        );
        assert!(
            text.is_char_boundary(s) && text.is_char_boundary(e),
            "span {s}..{e} not on char boundaries: {text:?}"
        );
        assert!(d.span.start >= last, "diagnostics out of order: {text:?}");
        last = d.span.start;
        assert!(!d.message.is_empty() && !d.code.is_empty());
    }
    // The dump and the renderer must cope with whatever tree came out.
    let _ = dump_program(&parsed.tree, text);
    if let Some(d) = parsed.diagnostics.first() {
        let idx = LineIndex::new(text);
        let _ = d.render("f.java", text, &idx);
    }
}

const ASCII: &[u8] = b" \n\t(){}[];,.=<>!~?:+-*/&|^%@'\"\\0123456789abcxyzLl_$eE#";

fn random_bytes(rng: &mut Rng) -> String {
    let len = rng.below(120);
    let bytes: Vec<u8> = (0..len)
        .map(|_| {
            // Bias towards ASCII Java-ish characters.
            if rng.below(4) == 0 {
                rng.next() as u8
            } else {
                ASCII[rng.below(ASCII.len())]
            }
        })
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn token_soup(rng: &mut Rng) -> String {
    let mut s = String::new();
    if rng.below(2) == 0 {
        s.push_str("class A { void m() { ");
    }
    for _ in 0..rng.below(60) {
        s.push_str(rng.pick(VOCAB));
        s.push_str(match rng.below(6) {
            0 => "",
            1 => "\n",
            _ => " ",
        });
    }
    s
}

/// Token-level mutation of a valid program (delete, duplicate, swap, insert).
fn mutate_tokens(rng: &mut Rng, seed: &str) -> String {
    let lexed = lex(seed);
    let mut toks: Vec<&str> = lexed
        .tokens
        .iter()
        .filter(|t| t.kind != TokenKind::Eof)
        .map(|t| &seed[t.span.start as usize..t.span.end as usize])
        .collect();
    for _ in 0..1 + rng.below(4) {
        if toks.is_empty() {
            break;
        }
        let i = rng.below(toks.len());
        match rng.below(4) {
            0 => {
                toks.remove(i);
            }
            1 => {
                let t = toks[i];
                toks.insert(i, t);
            }
            2 => {
                let j = rng.below(toks.len());
                toks.swap(i, j);
            }
            _ => toks.insert(i, rng.pick(VOCAB)),
        }
    }
    toks.join(" ")
}

/// Character-level mutation of a valid program.
fn mutate_chars(rng: &mut Rng, seed: &str) -> String {
    let mut chars: Vec<char> = seed.chars().collect();
    for _ in 0..1 + rng.below(3) {
        let i = rng.below(chars.len() + 1);
        match rng.below(3) {
            0 if i < chars.len() => {
                chars.remove(i);
            }
            1 => chars.insert(
                i,
                ['"', '\'', '/', '*', '{', '}', '(', ';', '\\', '<', '>'][rng.below(11)],
            ),
            _ => {
                if i < chars.len() {
                    chars.truncate(i);
                }
            }
        }
    }
    chars.into_iter().collect()
}

#[test]
fn parser_survives_random_inputs() {
    let cases: usize = std::env::var("CFP_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    for seed in SEEDS {
        let p = parse_program(seed);
        assert!(
            p.diagnostics.is_empty(),
            "seed program has errors: {:?}",
            p.diagnostics
        );
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..cases {
        let text = match case % 5 {
            0 => random_bytes(&mut rng),
            1 | 2 => token_soup(&mut rng),
            3 => {
                let seed = SEEDS[rng.below(SEEDS.len())];
                mutate_tokens(&mut rng, seed)
            }
            _ => {
                let seed = SEEDS[rng.below(SEEDS.len())];
                mutate_chars(&mut rng, seed)
            }
        };
        check(&text);
    }
}
