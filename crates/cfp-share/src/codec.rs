//! The fragment codec: `v1.` + base64url(raw DEFLATE(compact JSON of [`ShareState`])), with
//! bounded inflating and the version dispatch (see the crate docs for the migration path).

use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine as _;
use miniz_oxide::inflate::stream::{inflate, InflateState};
use miniz_oxide::{DataFormat, MZError, MZFlush, MZStatus};
use serde::Deserialize;

use crate::error::{ShareError, ShareWarning};
use crate::state::ShareState;

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

/// A successfully decoded link: the state, plus non-fatal remarks to show the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The decoded (and, for old versions, migrated) state.
    pub state: ShareState,
    /// Non-fatal remarks, e.g. fields this version does not know.
    pub warnings: Vec<ShareWarning>,
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
    let state: ShareState =
        cfp_core::deep_json::from_slice(&json).map_err(|e| ShareError::InvalidJson {
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
    const TOP: &[&str] = &["program", "spec", "options", "iteration", "embed", "record"];
    const OPTIONS: &[&str] = &["max_iterations", "entry", "harness"];
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
    if let Ok(nested) = cfp_core::deep_json::from_slice::<Nested>(json) {
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

#[cfg(test)]
mod tests;
