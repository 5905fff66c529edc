//! Errors as the command line reports them: one line on stderr and an exit code.
//!
//! Exit codes (ARCHITECTURE.md, "Command line"): 0 success; 1 a signature found invalid, a
//! ciphertext rejected, or a number found composite; 2 any other error (bad arguments,
//! unreadable input, I/O).

use std::fmt;
use std::process::ExitCode;

/// A failed command: what to print and how to exit.
#[derive(Debug)]
pub enum Failure {
    /// The answer is "no" (invalid signature, rejected ciphertext, composite): exit 1, with the
    /// message on stderr, or `None` when the command already printed its answer on stdout.
    Negative(Option<String>),
    /// Anything else that went wrong: exit 2.
    Error(String),
    /// Errors already printed on stderr, a line each (several inputs failed): exit 2.
    Reported,
}

impl Failure {
    /// A usage or I/O error with this message.
    pub fn error(msg: impl Into<String>) -> Self {
        Failure::Error(msg.into())
    }

    /// Whether there is anything to print on stderr.
    pub fn has_message(&self) -> bool {
        !matches!(self, Failure::Negative(None) | Failure::Reported)
    }

    /// The process exit code for this failure.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            Failure::Negative(_) => ExitCode::from(1),
            Failure::Error(_) | Failure::Reported => ExitCode::from(2),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Negative(m) => f.write_str(m.as_deref().unwrap_or("")),
            Failure::Error(m) => f.write_str(m),
            Failure::Reported => Ok(()),
        }
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Error(format!("I/O error: {e}"))
    }
}

/// `Result` of a subcommand.
pub type CmdResult = Result<(), Failure>;
