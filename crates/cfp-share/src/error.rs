//! The warnings and errors of the codec; their messages are meant for the user.

#[cfg(doc)] // for the doc links
use crate::codec::{MAX_FRAGMENT, MAX_INFLATED, WARN_FRAGMENT};

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
