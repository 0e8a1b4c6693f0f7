//! cfplay's share links and record files (ARCHITECTURE.md): the playground's state in a
//! URL fragment, and the document `cfp check --record` writes.
//!
//! * [`state`]: what a link carries ([`ShareState`], [`Recording`]);
//! * [`codec`]: [`encode`] / [`decode`] of the `#v1.` fragment, with its limits and warnings;
//! * [`error`]: [`ShareError`] and [`ShareWarning`];
//! * [`record`]: the record file ([`RecordFile`]) and its link ([`RecordFile::share_state`]);
//! * [`replay`]: the rules a recorded run follows ([`Recording::validate`]), for the page's
//!   replay and `cfp share` alike;
//! * [`markdown`]: [`markdown_link`] for READMEs and issues.
//!
//! # Share links
//!
//! A fragment is `v1.` followed by the base64url encoding (URL-safe alphabet, no padding) of
//! the raw DEFLATE compression of the state as compact JSON:
//!
//! ```text
//! #v1.<base64url(deflate_raw(json(ShareState)))>
//! ```
//!
//! This crate is pure: no DOM, no JS, no I/O (the CLI and the web crate both use it; it
//! reads recordings as the core's own event and result types). It
//! never interprets the program or the spec — they come back as the exact strings that went
//! in, and it is the UI's job to show them as text. Every input, however hostile, yields
//! either a [`Decoded`] or a [`ShareError`]; decoding never panics and never allocates much
//! beyond [`MAX_INFLATED`] (deflate bombs are refused while streaming, see
//! [`ShareError::TooLarge`]).
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
//! the `match` in `codec::decode_versioned`. A migration may push a [`ShareWarning`] when something
//! could not be carried over. Old versions are never removed: a link, once shared, must keep
//! opening. Compatible additions (a new optional field) do not need a new version: unknown
//! fields are ignored (and reported as [`ShareWarning::IgnoredFields`]) and missing optional
//! fields take their defaults.

pub mod codec;
pub mod error;
pub mod markdown;
pub mod record;
pub mod replay;
pub mod state;

pub use codec::{
    decode, encode, encode_checked, share_warnings, Decoded, Encoded, CURRENT_VERSION,
    MAX_FRAGMENT, MAX_INFLATED, WARN_FRAGMENT,
};
pub use error::{ShareError, ShareWarning};
pub use markdown::markdown_link;
pub use record::{RecordError, RecordFile, RecordOptions, RecordedFile, RECORD_VERSION};
pub use replay::{ReplayError, ValidRecording};
pub use state::{EmbedOptions, Recording, ShareOptions, ShareState};
