//! One module per subcommand: its arguments (clap) and what it runs.

pub mod args;
pub mod mulsqr;
pub mod speed;
