//! One module per subcommand.

pub mod cfa;
pub mod check;
pub mod include;
pub mod models;
pub mod parse;
pub mod share;
pub mod specs;
