//! One module per subcommand.

pub mod cfa;
pub mod parse;
