//! The share-link codec: the playground's state in a URL fragment (issue 6, DESIGN.md §5).
//!
//! A fragment is `v1.` followed by the base64url encoding (URL-safe alphabet, no padding) of
//! the raw DEFLATE compression of the state as compact JSON:
//!
//! ```text
//! #v1.<base64url(deflate_raw(json(ShareState)))>
//! ```
//!
//! This module is pure: no DOM, no JS, no I/O. It never interprets the program or the spec —
//! they come back as the exact strings that went in, and it is the UI's job to show them as
//! text. Every input, however hostile, yields either a [`Decoded`] or a [`ShareError`]; decoding
//! never panics and never allocates much beyond [`MAX_INFLATED`] (deflate bombs are refused while
//! streaming, see [`ShareError::TooLarge`]).
//!
//! # Versions and migration
//!
//! The text before the first `.` is the version. [`decode`] dispatches on it:
//!
//! * `v1` (the [`CURRENT_VERSION`]) is decoded directly into a [`ShareState`];
//! * any other `v<n>` is refused with [`ShareError::UnsupportedVersion`] (a link made by a newer
//!   playground, or a version that never existed).
//!
//! **Extension point.** When the layout changes incompatibly, bump [`CURRENT_VERSION`] to `2`,
//! keep the old layout as a private `V1State` struct, and add one function per old version,
//! `fn migrate_v1(old: V1State, warnings: &mut Vec<ShareWarning>) -> ShareState`, called from
//! the `match` in `decode_versioned`. A migration may push a [`ShareWarning`] when something
//! could not be carried over. Old versions are never removed: a link, once shared, must keep
//! opening. Compatible additions (a new optional field) do not need a new version: unknown
//! fields are ignored (and reported as [`ShareWarning::IgnoredFields`]) and missing optional
//! fields take their defaults.

use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine as _;
use miniz_oxide::inflate::stream::{inflate, InflateState};
use miniz_oxide::{DataFormat, MZError, MZFlush, MZStatus};
use serde::{Deserialize, Serialize};

/// The version that [`encode`] writes (`v1.`).
pub const CURRENT_VERSION: u32 = 1;

/// Fragments longer than this (in bytes, after an optional leading `#`) are refused with
/// [`ShareError::TooLong`] before any decoding work.
pub const MAX_FRAGMENT: usize = 64 * 1024;

/// Hard bound on the inflated JSON, in bytes: inflating stops with [`ShareError::TooLarge`] as
/// soon as the output would exceed it.
pub const MAX_INFLATED: usize = 1024 * 1024;

/// Fragments longer than this many characters still work but are flagged with
/// [`ShareWarning::LongLink`]: some chat tools, issue trackers and browsers truncate or reject
/// long URLs.
pub const WARN_FRAGMENT: usize = 2000;

/// DEFLATE level used by [`encode`] (miniz_oxide's best regular level). Fixed, so that the
/// output is deterministic.
const DEFLATE_LEVEL: u8 = 9;

/// Size of the streaming-inflate output chunk.
const INFLATE_CHUNK: usize = 32 * 1024;

/// At most this many characters of a hostile version prefix are echoed back in an error.
const MAX_VERSION_ECHO: usize = 16;

/// base64url without padding on encode; on decode, `=` padding is tolerated (some tools add it).
const B64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Everything a share link carries: enough to re-run the same check deterministically and land
/// on the same iteration.
///
/// Unknown fields are ignored when decoding (a link from a newer playground still opens), and
/// optional fields that are absent take their defaults.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ShareState {
    /// The Java program, verbatim (never interpreted by the codec).
    pub program: String,
    /// The specification grammar (`.cfg` text), verbatim.
    pub spec: String,
    /// Checker options that affect the run's outcome.
    #[serde(default, skip_serializing_if = "ShareOptions::is_default")]
    pub options: ShareOptions,
    /// The selected iteration (0-based step of the refinement loop) to show after the run;
    /// `None` shows the final one (the counterexample or the proof).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iteration: Option<u32>,
    /// How the page presents itself when embedded (`?embed`).
    #[serde(default, skip_serializing_if = "EmbedOptions::is_default")]
    pub embed: EmbedOptions,
}

/// Checker options carried by a link.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ShareOptions {
    /// Bound on refinement iterations; `None` uses the playground's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_iterations: Option<u32>,
}

impl ShareOptions {
    fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

/// Presentation options for embed mode (an iframe with minimal chrome).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct EmbedOptions {
    /// The editors are read-only.
    #[serde(default, skip_serializing_if = "is_false")]
    pub read_only: bool,
    /// Start the animation at this iteration (0-based) instead of the first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_at: Option<u32>,
    /// Start playing the run as soon as the page loads.
    #[serde(default, skip_serializing_if = "is_false")]
    pub autoplay: bool,
}

impl EmbedOptions {
    fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A successfully decoded link: the state, plus non-fatal remarks to show the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The decoded (and, for old versions, migrated) state.
    pub state: ShareState,
    /// Non-fatal remarks, e.g. fields this version does not know.
    pub warnings: Vec<ShareWarning>,
}

/// A non-fatal remark about a link.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShareWarning {
    /// The fragment is longer than [`WARN_FRAGMENT`] characters.
    #[error("this link is long ({chars} characters); some sites and chat tools may truncate it")]
    LongLink {
        /// Length of the fragment in characters.
        chars: usize,
    },
    /// The link contains settings this version of the playground does not know; they were
    /// ignored. The paths are dotted (`embed.theme`).
    #[error("this link was probably made by a newer version of the playground; ignored settings: {}", .0.join(", "))]
    IgnoredFields(Vec<String>),
}

/// Why a fragment could not be decoded. The messages are meant for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShareError {
    /// The fragment is empty (nothing after `#`).
    #[error("the link contains no shared state")]
    Empty,
    /// The fragment does not start with a version such as `v1.`.
    #[error("this is not a playground share link (it should start with `#v1.`)")]
    MissingVersion,
    /// The version prefix is not one this playground can read.
    #[error("this link uses format version `{0}`, which this playground cannot read; it may have been made by a newer version")]
    UnsupportedVersion(String),
    /// The fragment is longer than [`MAX_FRAGMENT`] bytes.
    #[error("this link is too long ({len} characters; the limit is {max})")]
    TooLong {
        /// Length of the fragment in bytes.
        len: usize,
        /// The limit, [`MAX_FRAGMENT`].
        max: usize,
    },
    /// The payload is not valid base64url.
    #[error("this link is damaged (not valid base64url: {0}); it may have been truncated or altered when copied")]
    MalformedBase64(String),
    /// The payload is not a valid DEFLATE stream (corrupt or truncated).
    #[error(
        "this link is damaged (the compressed data is {0}); it may have been truncated when copied"
    )]
    CorruptDeflate(String),
    /// The payload inflates to more than [`MAX_INFLATED`] bytes.
    #[error("this link expands to more than {max} bytes and was refused")]
    TooLarge {
        /// The limit, [`MAX_INFLATED`].
        max: usize,
    },
    /// The inflated payload is not a valid state (bad JSON or wrong shape).
    #[error("this link's content is invalid at line {line}, column {column}: {message}")]
    InvalidJson {
        /// 1-based line of the error in the inflated JSON.
        line: usize,
        /// 1-based column of the error in the inflated JSON.
        column: usize,
        /// What serde_json reported.
        message: String,
    },
}

/// An encoded fragment together with its warnings; see [`encode_checked`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoded {
    /// The fragment, without `#` (see [`encode`]).
    pub fragment: String,
    /// Warnings about the fragment, e.g. [`ShareWarning::LongLink`].
    pub warnings: Vec<ShareWarning>,
}

impl Encoded {
    /// Whether the fragment is longer than [`WARN_FRAGMENT`] characters.
    pub fn is_long(&self) -> bool {
        self.warnings
            .iter()
            .any(|w| matches!(w, ShareWarning::LongLink { .. }))
    }
}

/// Encodes `state` as a fragment (without the leading `#`): `v1.` + base64url (no padding) of
/// the raw DEFLATE of its compact JSON. Deterministic: the same state always gives the same
/// string.
pub fn encode(state: &ShareState) -> String {
    // Serializing plain strings, integers and booleans cannot fail; fall back to an empty
    // payload rather than panic if it ever did.
    let json = serde_json::to_vec(state).unwrap_or_default();
    let deflated = miniz_oxide::deflate::compress_to_vec(&json, DEFLATE_LEVEL);
    let mut out = format!("v{CURRENT_VERSION}.");
    B64.encode_string(deflated, &mut out);
    out
}

/// Like [`encode`], and also reports whether the result is long (see [`share_warnings`]).
pub fn encode_checked(state: &ShareState) -> Encoded {
    let fragment = encode(state);
    let warnings = share_warnings(&fragment);
    Encoded { fragment, warnings }
}

/// Warnings about a fragment or URL that do not prevent it from working: currently
/// [`ShareWarning::LongLink`] above [`WARN_FRAGMENT`] characters (a leading `#` is not counted).
pub fn share_warnings(fragment: &str) -> Vec<ShareWarning> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let chars = fragment.chars().count();
    if chars > WARN_FRAGMENT {
        vec![ShareWarning::LongLink { chars }]
    } else {
        Vec::new()
    }
}

/// Decodes a fragment made by [`encode`] (or by an older version of it), with or without a
/// leading `#`.
///
/// Never panics. Limits: [`MAX_FRAGMENT`] on the input, [`MAX_INFLATED`] on the inflated JSON.
pub fn decode(fragment: &str) -> Result<Decoded, ShareError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    if fragment.len() > MAX_FRAGMENT {
        return Err(ShareError::TooLong {
            len: fragment.len(),
            max: MAX_FRAGMENT,
        });
    }
    if fragment.is_empty() {
        return Err(ShareError::Empty);
    }
    let Some((prefix, payload)) = fragment.split_once('.') else {
        return Err(ShareError::MissingVersion);
    };
    let version = parse_version(prefix)?;
    let mut decoded = decode_versioned(version, payload)?;
    let mut warnings = share_warnings(fragment);
    warnings.append(&mut decoded.warnings);
    decoded.warnings = warnings;
    Ok(decoded)
}

/// Parses `v<n>`; anything else is not a share link.
fn parse_version(prefix: &str) -> Result<u32, ShareError> {
    let digits = prefix.strip_prefix('v').ok_or(ShareError::MissingVersion)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ShareError::MissingVersion);
    }
    // Leading zeros or absurdly large numbers are still "some version we do not know".
    match digits.parse::<u32>() {
        Ok(n) if !digits.starts_with('0') => Ok(n),
        _ => Err(unsupported(prefix)),
    }
}

fn unsupported(prefix: &str) -> ShareError {
    let mut shown: String = prefix.chars().take(MAX_VERSION_ECHO).collect();
    if prefix.chars().count() > MAX_VERSION_ECHO {
        shown.push('…');
    }
    ShareError::UnsupportedVersion(shown)
}

/// The version dispatch and migration point (see the module docs): each supported version
/// decodes its own layout, and old layouts are migrated to [`ShareState`] by a `migrate_v<n>`
/// function. There are no old versions yet.
fn decode_versioned(version: u32, payload: &str) -> Result<Decoded, ShareError> {
    match version {
        1 => decode_v1(payload),
        // Future: `1 => decode_v1_layout(payload).map(migrate_v1)`, `2 => decode_v2(payload)`.
        n => Err(unsupported(&format!("v{n}"))),
    }
}

/// Decodes a `v1` payload (the part after `v1.`).
fn decode_v1(payload: &str) -> Result<Decoded, ShareError> {
    let json = unpack(payload)?;
    let state: ShareState = serde_json::from_slice(&json).map_err(|e| ShareError::InvalidJson {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let mut warnings = Vec::new();
    let ignored = unknown_fields(&json);
    if !ignored.is_empty() {
        warnings.push(ShareWarning::IgnoredFields(ignored));
    }
    Ok(Decoded { state, warnings })
}

/// base64url-decodes and inflates a payload, bounded by [`MAX_INFLATED`].
fn unpack(payload: &str) -> Result<Vec<u8>, ShareError> {
    let deflated = B64
        .decode(payload)
        .map_err(|e| ShareError::MalformedBase64(e.to_string()))?;
    inflate_bounded(&deflated, MAX_INFLATED)
}

/// Inflates raw DEFLATE `input`, streaming through a fixed-size buffer, and refuses with
/// [`ShareError::TooLarge`] as soon as the output would exceed `max` bytes — so the memory used
/// never exceeds `max` plus one chunk, whatever the input claims.
fn inflate_bounded(input: &[u8], max: usize) -> Result<Vec<u8>, ShareError> {
    let mut state = InflateState::new_boxed(DataFormat::Raw);
    let mut chunk = vec![0u8; INFLATE_CHUNK];
    let mut out = Vec::new();
    let mut rest = input;
    loop {
        let r = inflate(&mut state, rest, &mut chunk, MZFlush::None);
        rest = rest.get(r.bytes_consumed..).unwrap_or_default();
        let written = chunk.get(..r.bytes_written).unwrap_or_default();
        if out.len() + written.len() > max {
            return Err(ShareError::TooLarge { max });
        }
        out.extend_from_slice(written);
        match r.status {
            Ok(MZStatus::StreamEnd) => break,
            Ok(_) => {
                if r.bytes_consumed == 0 && r.bytes_written == 0 {
                    // No progress: the stream ended early.
                    return Err(ShareError::CorruptDeflate("truncated".into()));
                }
            }
            Err(MZError::Buf) => return Err(ShareError::CorruptDeflate("truncated".into())),
            Err(_) => return Err(ShareError::CorruptDeflate("corrupt".into())),
        }
    }
    if !rest.is_empty() {
        return Err(ShareError::CorruptDeflate(
            "followed by unexpected extra data".into(),
        ));
    }
    Ok(out)
}

/// Dotted paths of the fields in `json` that [`ShareState`] does not know (for
/// [`ShareWarning::IgnoredFields`]). Best effort: returns nothing if `json` does not parse.
fn unknown_fields(json: &[u8]) -> Vec<String> {
    use serde::de::IgnoredAny;
    use std::collections::BTreeMap;
    const TOP: &[&str] = &["program", "spec", "options", "iteration", "embed"];
    const OPTIONS: &[&str] = &["max_iterations"];
    const EMBED: &[&str] = &["read_only", "start_at", "autoplay"];
    /// The keys of the two nested objects that have known fields; other values are skipped.
    #[derive(Deserialize)]
    struct Nested {
        #[serde(default)]
        options: BTreeMap<String, IgnoredAny>,
        #[serde(default)]
        embed: BTreeMap<String, IgnoredAny>,
    }
    // `IgnoredAny` skips values without building them (and without deep recursion), unlike
    // `serde_json::Value` or `#[serde(flatten)]`.
    let Ok(top) = serde_json::from_slice::<BTreeMap<String, IgnoredAny>>(json) else {
        return Vec::new();
    };
    let mut out: Vec<String> = top
        .keys()
        .filter(|k| !TOP.contains(&k.as_str()))
        .cloned()
        .collect();
    if let Ok(nested) = serde_json::from_slice::<Nested>(json) {
        for (prefix, map, known) in [
            ("options", &nested.options, OPTIONS),
            ("embed", &nested.embed, EMBED),
        ] {
            out.extend(
                map.keys()
                    .filter(|k| !known.contains(&k.as_str()))
                    .map(|k| format!("{prefix}.{k}")),
            );
        }
    }
    out.sort();
    out
}

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
    use std::path::PathBuf;
    use std::time::{Duration, Instant};

    fn examples_dir() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../static/examples")
    }

    #[derive(Deserialize)]
    struct GalleryEntry {
        program: String,
        spec: String,
    }

    fn gallery() -> Vec<ShareState> {
        let dir = examples_dir();
        let index = std::fs::read_to_string(dir.join("index.json")).expect("index.json");
        let entries: Vec<GalleryEntry> = serde_json::from_str(&index).expect("index.json parses");
        entries
            .iter()
            .map(|e| ShareState {
                program: std::fs::read_to_string(dir.join(&e.program)).expect("program"),
                spec: std::fs::read_to_string(dir.join(&e.spec)).expect("spec"),
                ..ShareState::default()
            })
            .collect()
    }

    fn full_state() -> ShareState {
        ShareState {
            program: "class A { void m() { l.lock(); } }".into(),
            spec: "S -> lock unlock S | ε".into(),
            options: ShareOptions {
                max_iterations: Some(40),
            },
            iteration: Some(3),
            embed: EmbedOptions {
                read_only: true,
                start_at: Some(2),
                autoplay: true,
            },
        }
    }

    /// Builds a fragment from arbitrary JSON bytes, as a hostile link maker would.
    fn fragment_of(json: &[u8]) -> String {
        format!(
            "v1.{}",
            B64.encode(miniz_oxide::deflate::compress_to_vec(json, 9))
        )
    }

    #[test]
    fn gallery_round_trips() {
        let states = gallery();
        assert_eq!(states.len(), 12);
        for (i, s) in states.into_iter().enumerate() {
            let mut s = s;
            s.iteration = Some(i as u32);
            if i % 2 == 0 {
                s.options.max_iterations = Some(10 + i as u32);
                s.embed.read_only = true;
                s.embed.start_at = Some(1);
            }
            let frag = encode(&s);
            assert!(frag.starts_with("v1."));
            assert!(frag[3..]
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
            let d = decode(&frag).expect("decodes");
            assert_eq!(d.state, s);
            assert!(d.warnings.is_empty(), "{:?}", d.warnings);
            // With a leading '#', as read from `location.hash`.
            assert_eq!(decode(&format!("#{frag}")).expect("decodes").state, s);
        }
    }

    #[test]
    fn full_state_round_trips_and_defaults_are_omitted() {
        let s = full_state();
        assert_eq!(decode(&encode(&s)).expect("decodes").state, s);
        let minimal = ShareState {
            program: "p".into(),
            spec: "s".into(),
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_string(&minimal).expect("json"),
            r#"{"program":"p","spec":"s"}"#
        );
        assert_eq!(decode(&encode(&minimal)).expect("decodes").state, minimal);
    }

    #[test]
    fn encoding_is_deterministic() {
        for s in gallery().into_iter().chain([full_state()]) {
            let a = encode(&s);
            let b = encode(&s.clone());
            assert_eq!(a, b);
        }
    }

    #[test]
    fn leading_hash_is_optional() {
        let f = encode(&full_state());
        assert_eq!(decode(&f), decode(&format!("#{f}")));
        assert!(decode(&f).is_ok());
    }

    #[test]
    fn hostile_markup_survives_as_plain_text() {
        let s = ShareState {
            program: "<script>alert(1)</script>\"'&<img src=x onerror=alert(2)>\u{0}\u{202e}"
                .into(),
            spec: "</textarea><script>document.cookie</script>".into(),
            ..Default::default()
        };
        let d = decode(&encode(&s)).expect("decodes");
        assert_eq!(d.state, s);
    }

    #[test]
    fn deflate_bomb_is_refused_quickly() {
        let zeros = vec![0u8; 50 * 1024 * 1024];
        let bomb = miniz_oxide::deflate::compress_to_vec(&zeros, 9);
        drop(zeros);
        let start = Instant::now();
        assert_eq!(
            inflate_bounded(&bomb, MAX_INFLATED),
            Err(ShareError::TooLarge { max: MAX_INFLATED })
        );
        // The same bomb through the public entry point: refused as too long or too large.
        let frag = format!("v1.{}", B64.encode(&bomb));
        assert!(matches!(
            decode(&frag),
            Err(ShareError::TooLong { .. } | ShareError::TooLarge { .. })
        ));
        // A bomb that fits in a fragment reaches the inflater and is refused there.
        let smaller = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 20 * 1024 * 1024], 9);
        let frag = format!("v1.{}", B64.encode(&smaller));
        assert!(frag.len() <= MAX_FRAGMENT, "{}", frag.len());
        assert_eq!(
            decode(&frag),
            Err(ShareError::TooLarge { max: MAX_INFLATED })
        );
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn too_long_fragment_is_refused() {
        let f = format!("v1.{}", "A".repeat(MAX_FRAGMENT));
        assert!(matches!(decode(&f), Err(ShareError::TooLong { .. })));
        assert!(matches!(
            decode(&format!("#{f}")),
            Err(ShareError::TooLong { .. })
        ));
    }

    #[test]
    fn long_links_are_flagged() {
        // Incompressible program text, so the fragment is long.
        let mut rng = Rng(42);
        let program: String = (0..4000)
            .map(|_| char::from(b'!' + (rng.next() % 90) as u8))
            .collect();
        let s = ShareState {
            program,
            spec: "S -> a".into(),
            ..Default::default()
        };
        let e = encode_checked(&s);
        assert!(e.fragment.len() > WARN_FRAGMENT);
        assert!(e.is_long());
        let d = decode(&e.fragment).expect("decodes");
        assert_eq!(d.state, s);
        assert!(matches!(d.warnings[..], [ShareWarning::LongLink { .. }]));
        let short = encode_checked(&full_state());
        assert!(!short.is_long());
        assert!(share_warnings(&format!("#{}", "x".repeat(WARN_FRAGMENT))).is_empty());
        assert_eq!(share_warnings(&"x".repeat(WARN_FRAGMENT + 1)).len(), 1);
    }

    #[test]
    fn unknown_versions_are_refused() {
        let payload = encode(&full_state());
        let body = &payload[3..];
        assert_eq!(
            decode(&format!("v2.{body}")),
            Err(ShareError::UnsupportedVersion("v2".into()))
        );
        assert_eq!(
            decode(&format!("#v999.{body}")),
            Err(ShareError::UnsupportedVersion("v999".into()))
        );
        assert!(matches!(
            decode(&format!("v01.{body}")),
            Err(ShareError::UnsupportedVersion(_))
        ));
        assert!(matches!(
            decode(&format!("v99999999999999999999999.{body}")),
            Err(ShareError::UnsupportedVersion(v)) if v.chars().count() <= MAX_VERSION_ECHO + 1
        ));
        assert_eq!(
            decode(&format!("x1.{body}")),
            Err(ShareError::MissingVersion)
        );
        assert_eq!(decode(body), Err(ShareError::MissingVersion));
        assert_eq!(decode("v.abc"), Err(ShareError::MissingVersion));
        assert_eq!(decode(""), Err(ShareError::Empty));
        assert_eq!(decode("#"), Err(ShareError::Empty));
    }

    #[test]
    fn malformed_inputs_give_clear_errors() {
        let f = encode(&full_state());
        // Bad base64.
        assert!(matches!(
            decode("v1.@@@@"),
            Err(ShareError::MalformedBase64(_))
        ));
        assert!(matches!(
            decode("v1.ab+/"),
            Err(ShareError::MalformedBase64(_))
        ));
        // Truncated.
        let cut = &f[..f.len() / 2];
        assert!(matches!(
            decode(cut),
            Err(ShareError::CorruptDeflate(_) | ShareError::MalformedBase64(_))
        ));
        // Empty payload.
        assert!(matches!(decode("v1."), Err(ShareError::CorruptDeflate(_))));
        // Garbage that is valid base64.
        assert!(matches!(
            decode("v1.____________"),
            Err(ShareError::CorruptDeflate(_))
        ));
        // Valid deflate, not JSON: error with a position.
        match decode(&fragment_of(b"{\"program\": \"x\",\n  oops}")) {
            Err(ShareError::InvalidJson { line, column, .. }) => {
                assert_eq!(line, 2);
                assert!(column > 0);
            }
            other => panic!("{other:?}"),
        }
        // Valid JSON, wrong shape.
        assert!(matches!(
            decode(&fragment_of(br#"{"program": 3, "spec": ""}"#)),
            Err(ShareError::InvalidJson { .. })
        ));
        assert!(matches!(
            decode(&fragment_of(br#"{"spec": ""}"#)),
            Err(ShareError::InvalidJson { .. })
        ));
        // Invalid UTF-8 and deep nesting.
        assert!(matches!(
            decode(&fragment_of(b"{\"program\": \"\xff\", \"spec\": \"\"}")),
            Err(ShareError::InvalidJson { .. })
        ));
        let deep = format!(
            "{{\"program\":\"\",\"spec\":\"\",\"x\":{}{}}}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        // Deeply nested unknown values are skipped without recursion trouble.
        match decode(&fragment_of(deep.as_bytes())) {
            Ok(d) => assert_eq!(
                d.warnings,
                vec![ShareWarning::IgnoredFields(vec!["x".into()])]
            ),
            Err(e) => assert!(matches!(e, ShareError::InvalidJson { .. }), "{e:?}"),
        }
        let deep_known = format!(
            "{{\"program\":{}\"\"{}}}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert!(matches!(
            decode(&fragment_of(deep_known.as_bytes())),
            Err(ShareError::InvalidJson { .. })
        ));
        // Trailing data after the deflate stream.
        assert!(matches!(
            decode(&format!("{f}AAAA")),
            Err(ShareError::CorruptDeflate(_) | ShareError::MalformedBase64(_))
        ));
        // Every error has a non-empty message.
        for e in [
            ShareError::Empty,
            ShareError::MissingVersion,
            ShareError::UnsupportedVersion("v2".into()),
            ShareError::TooLong { len: 1, max: 0 },
            ShareError::MalformedBase64("x".into()),
            ShareError::CorruptDeflate("corrupt".into()),
            ShareError::TooLarge { max: 1 },
        ] {
            assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn unknown_fields_are_ignored_with_a_warning() {
        let json = br#"{"program":"p","spec":"s","theme":"dark","embed":{"autoplay":true,"chrome":0},"options":{"max_iterations":5}}"#;
        let d = decode(&fragment_of(json)).expect("decodes");
        assert_eq!(d.state.program, "p");
        assert!(d.state.embed.autoplay);
        assert_eq!(d.state.options.max_iterations, Some(5));
        assert_eq!(
            d.warnings,
            vec![ShareWarning::IgnoredFields(vec![
                "embed.chrome".into(),
                "theme".into()
            ])]
        );
    }

    #[test]
    fn encoder_output_has_no_trailing_bytes() {
        for s in gallery() {
            let f = encode(&s);
            let raw = B64.decode(&f[3..]).expect("b64");
            assert!(inflate_bounded(&raw, MAX_INFLATED).is_ok());
        }
    }

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

    /// xorshift64*: a tiny deterministic RNG for the fuzz test.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            let mut x = self.0;
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            self.0 = x;
            x.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
    }

    #[test]
    fn fuzz_never_panics() {
        const ALPHABET: &[u8] =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=#v+/% <>";
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let valid: Vec<String> = gallery()
            .iter()
            .take(3)
            .map(encode)
            .chain([encode(&full_state())])
            .collect();
        let start = Instant::now();
        for case in 0..20_000u32 {
            let input: String = match case % 5 {
                // Random bytes (lossily made UTF-8).
                0 => {
                    let n = (rng.next() % 200) as usize;
                    let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                    String::from_utf8_lossy(&bytes).into_owned()
                }
                // Random base64-ish text after a version prefix.
                1 => {
                    let n = (rng.next() % 300) as usize;
                    let body: String = (0..n)
                        .map(|_| {
                            char::from(ALPHABET[(rng.next() % ALPHABET.len() as u64) as usize])
                        })
                        .collect();
                    format!("v1.{body}")
                }
                // Mutations of valid links: flip, insert, delete characters; truncate.
                2 | 3 => {
                    let mut b = valid[(rng.next() % valid.len() as u64) as usize]
                        .clone()
                        .into_bytes();
                    for _ in 0..=(rng.next() % 4) {
                        let i = (rng.next() % b.len().max(1) as u64) as usize;
                        let c = ALPHABET[(rng.next() % ALPHABET.len() as u64) as usize];
                        match rng.next() % 4 {
                            0 if i < b.len() => b[i] = c,
                            1 => b.insert(i.min(b.len()), c),
                            2 if i < b.len() => {
                                b.remove(i);
                            }
                            _ => b.truncate(i),
                        }
                    }
                    String::from_utf8_lossy(&b).into_owned()
                }
                // Valid deflate of random bytes: must fail as JSON, not panic.
                _ => {
                    let n = (rng.next() % 200) as usize;
                    let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                    fragment_of(&bytes)
                }
            };
            let result = std::panic::catch_unwind(|| decode(&input));
            assert!(result.is_ok(), "panic on case {case}: {input:?}");
        }
        assert!(start.elapsed() < Duration::from_secs(60));
    }
}
