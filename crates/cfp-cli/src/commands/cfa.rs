//! `cfp cfa PROGRAM --spec SPEC [--dot]`: the (instrumented) control-flow automata.

use std::path::PathBuf;

/// Arguments of `cfp cfa`.
pub struct CfaArgs {
    /// The program file.
    pub program: PathBuf,
    /// The spec file.
    pub spec: PathBuf,
    /// DOT instead of text.
    pub dot: bool,
    /// Entry method name.
    pub entry: Option<String>,
    /// Apply the wildcard instrumentation.
    pub instrument: bool,
}

/// Run `cfp cfa`.
pub fn run(_args: &CfaArgs) -> u8 {
    crate::EXIT_BAD_INPUT
}
