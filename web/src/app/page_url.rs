//! What the page's own URL asks for: the query parameters of embed mode and replay, and
//! the URLs the share panel builds (ARCHITECTURE.md).
//!
//! ```text
//! index.html?embed&readonly&start=2&autoplay&record=runs/lock.json&mode=replay#v1.…
//! ```
//!
//! * `embed` — minimal chrome for an iframe; `readonly`, `start=K` (1-based iteration),
//!   `autoplay` override the link's own embed options;
//! * `record=PATH` — a `cfp check --record` file to replay, a relative path on the page's
//!   own origin (anything else is refused: a link must not make the page fetch from
//!   elsewhere);
//! * `mode=live|replay` — force a mode (default: live when the page is cross-origin isolated,
//!   replay otherwise);
//! * `nosw` — do not install the service worker that enables live mode on static hosts
//!   (read by `index.html`).
//!
//! Pure functions; the DOM side (reading `location`) is in `mod.rs`.

/// A mode asked for with `mode=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForcedMode {
    /// Run with live Z3 (needs cross-origin isolation).
    Live,
    /// Replay the recording even when live Z3 is available.
    Replay,
}

/// The query parameters the page understands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageParams {
    /// Embed mode (`?embed`).
    pub embed: bool,
    /// `readonly` (overrides the link's `embed.read_only`).
    pub read_only: Option<bool>,
    /// `start=K` (overrides the link's `embed.start_at`).
    pub start_at: Option<u32>,
    /// `autoplay` (overrides the link's `embed.autoplay`).
    pub autoplay: Option<bool>,
    /// `record=PATH`, validated as a same-origin relative path.
    pub record: Option<String>,
    /// `mode=live|replay`.
    pub mode: Option<ForcedMode>,
    /// Problems with the parameters, as messages for the page.
    pub problems: Vec<String>,
}

/// Longest `record=` path accepted.
const MAX_RECORD_PATH: usize = 512;

/// Parses `location.search` (with or without the leading `?`). Unknown parameters are
/// ignored; bad values are reported in [`PageParams::problems`] and otherwise ignored.
pub fn parse_query(search: &str) -> PageParams {
    let mut p = PageParams::default();
    let search = search.strip_prefix('?').unwrap_or(search);
    for pair in search.split('&').filter(|s| !s.is_empty()) {
        let (key, value) = match pair.split_once('=') {
            Some((k, v)) => (percent_decode(k), Some(percent_decode(v))),
            None => (percent_decode(pair), None),
        };
        let flag = || match value.as_deref() {
            None | Some("") | Some("1") | Some("true") | Some("yes") => Some(true),
            Some("0") | Some("false") | Some("no") => Some(false),
            Some(_) => None,
        };
        match key.as_str() {
            "embed" => p.embed = flag().unwrap_or(true),
            "readonly" | "read-only" => p.read_only = flag(),
            "autoplay" => p.autoplay = flag(),
            "start" => match value.as_deref().map(str::parse::<u32>) {
                Some(Ok(k)) if k >= 1 => p.start_at = Some(k),
                _ => p
                    .problems
                    .push("`start=` needs an iteration number (1, 2, …); ignored".into()),
            },
            "mode" => match value.as_deref() {
                Some("live") => p.mode = Some(ForcedMode::Live),
                Some("replay") => p.mode = Some(ForcedMode::Replay),
                _ => p
                    .problems
                    .push("`mode=` must be `live` or `replay`; ignored".into()),
            },
            "record" => match value.as_deref().map(check_record_path) {
                Some(Ok(path)) => p.record = Some(path),
                Some(Err(why)) => p.problems.push(format!("`record=` refused: {why}")),
                None => p
                    .problems
                    .push("`record=` needs the path of a recording".into()),
            },
            _ => {}
        }
    }
    p
}

/// A `record=` value must be a relative path on this origin: no scheme, no `//host`, no
/// backslashes or control characters.
pub fn check_record_path(path: &str) -> Result<String, &'static str> {
    if path.is_empty() {
        return Err("the path is empty");
    }
    if path.len() > MAX_RECORD_PATH {
        return Err("the path is too long");
    }
    if path.starts_with("//") || path.contains('\\') {
        return Err("only paths on this site are allowed");
    }
    if path.chars().any(char::is_control) {
        return Err("the path contains control characters");
    }
    // A scheme is `letters:` before any `/`, `?` or `#`.
    let head = path.split(['/', '?', '#']).next().unwrap_or_default();
    if head.contains(':') {
        return Err("only paths on this site are allowed");
    }
    Ok(path.to_owned())
}

/// Decodes `%XX` escapes and `+` (as space). Invalid escapes are kept as they are; invalid
/// UTF-8 becomes U+FFFD.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(v) => {
                        out.push(v);
                        i += 3;
                    }
                    None => {
                        out.push(b'%');
                        i += 1;
                    }
                }
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The playground link for a fragment: `base#fragment` (`base` is the page's address
/// without query or fragment).
pub fn playground_url(base: &str, fragment: &str) -> String {
    format!("{base}#{fragment}")
}

/// The embed link for a fragment: `base?embed#fragment`.
pub fn embed_url(base: &str, fragment: &str) -> String {
    format!("{base}?embed#{fragment}")
}

/// The HTML snippet documentation authors paste to embed a run: an iframe of the embed
/// link. `url` and `title` are escaped for an attribute value.
pub fn embed_snippet(url: &str, title: &str) -> String {
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"560\" style=\"border:1px solid #ccc;border-radius:6px\" loading=\"lazy\" allow=\"cross-origin-isolated; clipboard-write\"></iframe>",
        escape_attr(url),
        escape_attr(title)
    )
}

/// Escapes `& " ' < >` for an HTML attribute value.
pub fn escape_attr(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embed_flags_and_overrides() {
        let p = parse_query("?embed&readonly&start=3&autoplay=0&mode=replay");
        assert!(p.embed);
        assert_eq!(p.read_only, Some(true));
        assert_eq!(p.start_at, Some(3));
        assert_eq!(p.autoplay, Some(false));
        assert_eq!(p.mode, Some(ForcedMode::Replay));
        assert!(p.problems.is_empty());
        assert_eq!(parse_query(""), PageParams::default());
        assert!(!parse_query("?embed=0").embed);
    }

    #[test]
    fn bad_values_are_reported_not_fatal() {
        let p = parse_query("start=zero&mode=fast&start=0");
        assert_eq!(p.start_at, None);
        assert_eq!(p.mode, None);
        assert_eq!(p.problems.len(), 3);
    }

    #[test]
    fn record_paths_stay_on_this_origin() {
        assert_eq!(
            parse_query("record=runs%2Flock.record.json")
                .record
                .as_deref(),
            Some("runs/lock.record.json")
        );
        assert!(check_record_path("/recordings/a.json").is_ok());
        assert!(check_record_path("../a.json").is_ok());
        for bad in [
            "https://evil.example/a.json",
            "//evil.example/a.json",
            "javascript:alert(1)",
            "data:application/json,{}",
            "\\\\evil\\a",
            "a\n.json",
            "",
        ] {
            assert!(check_record_path(bad).is_err(), "{bad}");
        }
        let p = parse_query("record=javascript%3Aalert(1)");
        assert_eq!(p.record, None);
        assert_eq!(p.problems.len(), 1);
    }

    #[test]
    fn percent_decoding_is_total() {
        assert_eq!(percent_decode("a%20b+c"), "a b c");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
        assert_eq!(percent_decode("%ff"), "\u{fffd}");
    }

    #[test]
    fn snippet_escapes_attributes() {
        let s = embed_snippet("https://x/?a=1&embed#v1.abc", "a \"quoted\" <title>");
        assert!(s.contains("src=\"https://x/?a=1&amp;embed#v1.abc\""));
        assert!(s.contains("title=\"a &quot;quoted&quot; &lt;title&gt;\""));
        assert_eq!(
            embed_url("https://x/cfplay/", "v1.abc"),
            "https://x/cfplay/?embed#v1.abc"
        );
        assert_eq!(playground_url("https://x/", "v1.a"), "https://x/#v1.a");
    }
}
