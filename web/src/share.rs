//! The share-link codec, now the `cfp-share` crate (shared with the `cfp share` command); this
//! module keeps the `crate::share::…` paths of the web crate.

pub use cfp_share::*;
