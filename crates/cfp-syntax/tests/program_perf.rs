//! The parser is linear: a generated 5,000-line program parses quickly even in the
//! debug profile (release is far below the 200 ms budget; see `cargo test --release`).

use cfp_syntax::parse_program;
use std::time::Instant;

fn big_program(lines: usize) -> String {
    let mut s = String::from("class Big {\n    static int counter = 0;\n");
    let mut n = 2;
    let mut m = 0;
    while n + 12 < lines {
        s.push_str(&format!(
            "    static int m{m}(Lock l, int x) {{\n        int y = x * 2 + (x - 1) / 3;\n        l.lock();\n        if (y > {m} && *) {{\n            counter += y;\n        }} else {{\n            y = m{prev}(l, y - 1);\n        }}\n        for (int i = 0; i < y; i++) {{ l.unlock(); l.lock(); }}\n        l.unlock();\n        return y;\n    }}\n",
            prev = m.max(1) - 1
        ));
        n += 12;
        m += 1;
    }
    s.push_str("}\n");
    s
}

#[test]
fn five_thousand_lines_parse_fast() {
    let text = big_program(5_000);
    assert!(text.lines().count() >= 4_990);
    let start = Instant::now();
    let parsed = parse_program(&text);
    let elapsed = start.elapsed();
    assert!(
        parsed.diagnostics.is_empty(),
        "{:?}",
        parsed.diagnostics.first()
    );
    assert!(parsed.tree.classes[0].members.len() > 400);
    // Generous bound for the unoptimised debug profile on a loaded 2-core machine.
    let budget_ms = if cfg!(debug_assertions) { 2_000 } else { 200 };
    assert!(
        elapsed.as_millis() < budget_ms,
        "parsing 5,000 lines took {elapsed:?}"
    );
    eprintln!("parsed {} lines in {elapsed:?}", text.lines().count());
}
