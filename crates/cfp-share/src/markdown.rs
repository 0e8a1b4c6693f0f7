//! Markdown links to share links.

/// A Markdown link `[title](url)`. The title's `\ [ ] ( ) < > `` ` characters are
/// backslash-escaped and line breaks become spaces, so any title stays one link; in the URL,
/// spaces, parentheses and angle brackets are percent-encoded (share links never contain them,
/// but a base URL might).
pub fn markdown_link(url: &str, title: &str) -> String {
    let mut out = String::with_capacity(url.len() + title.len() + 8);
    out.push('[');
    for c in title.chars() {
        match c {
            '\\' | '[' | ']' | '(' | ')' | '<' | '>' | '`' => {
                out.push('\\');
                out.push(c);
            }
            '\r' | '\n' => out.push(' '),
            _ => out.push(c),
        }
    }
    out.push_str("](");
    for c in url.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            '\r' | '\n' => {}
            _ => out.push(c),
        }
    }
    out.push(')');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_link_escapes_title() {
        assert_eq!(
            markdown_link("https://x.org/#v1.ab", "Lock (correct) [demo]"),
            r"[Lock \(correct\) \[demo\]](https://x.org/#v1.ab)"
        );
        assert_eq!(
            markdown_link("https://x.org/a b(c)", "a\\b\n<c>`"),
            r"[a\\b \<c\>\`](https://x.org/a%20b%28c%29)"
        );
    }
}
