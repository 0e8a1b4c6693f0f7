//! One module per subcommand.

pub mod cfa;
pub mod include;
pub mod parse;
