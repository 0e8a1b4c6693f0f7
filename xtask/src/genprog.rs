//! A generator of large, valid programs for benchmarks: many classes of lock-using
//! methods with loops, conditionals, fields and calls between them.

use std::fmt::Write as _;

/// A deterministic program of roughly `lines` lines that uses `Lock`.
pub fn generate(lines: usize) -> String {
    let mut out = String::from("import java.util.concurrent.locks.ReentrantLock;\n\n");
    let methods_per_class = 10;
    let lines_per_method = 14;
    // Enough classes to reach at least `lines` lines (each class is 4 + 10 × 14 lines).
    let per_class = methods_per_class * lines_per_method + 4;
    let classes = lines.div_ceil(per_class).max(1);
    for c in 0..classes {
        let _ = writeln!(out, "class Worker{c} {{");
        let _ = writeln!(out, "    int count = 0;");
        let _ = writeln!(out, "    ReentrantLock lock = new ReentrantLock();");
        for m in 0..methods_per_class {
            let next = (m + 1) % methods_per_class;
            let _ = writeln!(out, "    void work{m}(int n, ReentrantLock l) {{");
            let _ = writeln!(out, "        for (int i = 0; i < n; i++) {{");
            let _ = writeln!(out, "            l.lock();");
            let _ = writeln!(out, "            try {{");
            let _ = writeln!(out, "                if (count > {m} && i % 2 == 0) {{");
            let _ = writeln!(out, "                    count = count + i * 2 - 1;");
            let _ = writeln!(out, "                }} else if (*) {{");
            let _ = writeln!(out, "                    work{next}(n - 1, l);");
            let _ = writeln!(out, "                }}");
            let _ = writeln!(out, "            }} finally {{");
            let _ = writeln!(out, "                l.unlock();");
            let _ = writeln!(out, "            }}");
            let _ = writeln!(out, "        }}");
            let _ = writeln!(out, "    }}");
        }
        let _ = writeln!(out, "}}");
    }
    out.push_str("class Main {\n    public static void main(String[] args) {\n");
    for c in 0..classes.min(50) {
        let _ = writeln!(
            out,
            "        new Worker{c}().work0(3, new ReentrantLock());"
        );
    }
    out.push_str("    }\n}\n");
    out
}
