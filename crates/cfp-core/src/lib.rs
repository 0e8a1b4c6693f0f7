//! cfp-core
