//! One module per subcommand: its arguments (clap) and what it runs.

pub mod acvp;
pub mod args;
pub mod completions;
pub mod decrypt;
pub mod encrypt;
pub mod kat;
pub mod key;
pub mod keygen;
pub mod man;
pub mod metime;
pub mod mulsqr;
pub mod prime;
pub mod primegen;
pub mod pubkey;
pub mod sign;
pub mod speed;
pub mod speedtest;
pub mod verify;
