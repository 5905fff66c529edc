//! Password sources as OpenSSL spells them (`openssl-passphrase-options(1)`): `pass:TEXT`,
//! `env:VAR`, `file:PATH` (its first line), `fd:N` (its first line), `stdin` (the first line
//! of standard input); without one, a no-echo prompt on the terminal (`rpassword`), or an
//! error when there is no terminal. Passwords are wiped when dropped and never printed.

use std::io::{BufRead, IsTerminal};

use zeroize::Zeroizing;

use crate::exit::Failure;

/// Where a password comes from (`--passin` / `--passout`). `Debug` hides `pass:` text.
#[derive(Clone)]
pub enum PassSource {
    /// `pass:TEXT`.
    Text(Zeroizing<String>),
    /// `env:VAR`.
    Env(String),
    /// `file:PATH`.
    File(std::path::PathBuf),
    /// `fd:N`.
    Fd(i32),
    /// `stdin`.
    Stdin,
}

impl std::fmt::Debug for PassSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PassSource::Text(_) => f.write_str("pass:(hidden)"),
            PassSource::Env(v) => write!(f, "env:{v}"),
            PassSource::File(p) => write!(f, "file:{}", p.display()),
            PassSource::Fd(n) => write!(f, "fd:{n}"),
            PassSource::Stdin => f.write_str("stdin"),
        }
    }
}

/// Parses `--passin` / `--passout`.
pub fn parse_pass_source(s: &str) -> Result<PassSource, String> {
    if let Some(text) = s.strip_prefix("pass:") {
        Ok(PassSource::Text(Zeroizing::new(text.to_owned())))
    } else if let Some(var) = s.strip_prefix("env:") {
        Ok(PassSource::Env(var.to_owned()))
    } else if let Some(path) = s.strip_prefix("file:") {
        Ok(PassSource::File(path.into()))
    } else if let Some(fd) = s.strip_prefix("fd:") {
        fd.parse()
            .map(PassSource::Fd)
            .map_err(|_| format!("fd:{fd}: not a file descriptor number"))
    } else if s == "stdin" {
        Ok(PassSource::Stdin)
    } else {
        Err("give pass:TEXT, env:VAR, file:PATH, fd:N or stdin".to_owned())
    }
}

/// Refuses `--passin stdin` (or `--passout stdin`) when another argument reads stdin too.
///
/// # Errors
///
/// When `source` is `stdin` and any of `others` is `-`.
pub fn one_stdin(
    option: &str,
    source: Option<&PassSource>,
    others: &[(&str, &std::path::Path)],
) -> Result<(), Failure> {
    if !matches!(source, Some(PassSource::Stdin)) {
        return Ok(());
    }
    match others.iter().find(|(_, p)| crate::io::is_std(p)) {
        Some((name, _)) => Err(Failure::error(format!(
            "{option} stdin and {name} - cannot both read stdin"
        ))),
        None => Ok(()),
    }
}

/// `inputs` and, when the password source is a file, that file too (as `OPTION file:`), for
/// [`crate::io::distinct`]: an output must not overwrite a password file either.
pub fn with_file<'a>(
    inputs: &[(&'a str, &'a std::path::Path)],
    option: &'a str,
    source: Option<&'a PassSource>,
) -> Vec<(&'a str, &'a std::path::Path)> {
    let mut all = inputs.to_vec();
    if let Some(PassSource::File(path)) = source {
        all.push((option, path.as_path()));
    }
    all
}

/// The longest password read from a file, descriptor or stdin.
const MAX_PASSWORD: u64 = 1024;

/// The first line of a reader, without its line ending.
fn first_line(reader: impl std::io::Read, what: &str) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let mut line = Zeroizing::new(Vec::new());
    std::io::BufReader::new(reader.take(MAX_PASSWORD))
        .read_until(b'\n', &mut line)
        .map_err(|e| Failure::error(format!("{what}: cannot read the password: {e}")))?;
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    if line.is_empty() {
        return Err(Failure::error(format!("{what}: empty password")));
    }
    Ok(line)
}

impl PassSource {
    /// The password. `option` (`--passin`) names the source in messages.
    ///
    /// # Errors
    ///
    /// One line: a missing variable, an unreadable or empty file.
    pub fn read(&self, option: &str) -> Result<Zeroizing<Vec<u8>>, Failure> {
        match self {
            PassSource::Text(t) => Ok(Zeroizing::new(t.as_bytes().to_vec())),
            PassSource::Env(var) => std::env::var_os(var)
                .map(|v| Zeroizing::new(v.as_encoded_bytes().to_vec()))
                .ok_or_else(|| {
                    Failure::error(format!("{option} env:{var}: no such environment variable"))
                }),
            PassSource::File(path) => {
                let what = format!("{option} file:{}", path.display());
                let file = std::fs::File::open(path)
                    .map_err(|e| Failure::error(format!("{what}: {}", crate::io::describe(&e))))?;
                first_line(file, &what)
            }
            PassSource::Fd(fd) => read_fd(*fd, option),
            PassSource::Stdin => first_line(std::io::stdin().lock(), &format!("{option} stdin")),
        }
    }
}

#[cfg(unix)]
fn read_fd(fd: i32, option: &str) -> Result<Zeroizing<Vec<u8>>, Failure> {
    // /dev/fd/N opens the descriptor the caller passed without taking ownership of it.
    let what = format!("{option} fd:{fd}");
    let file = std::fs::File::open(format!("/dev/fd/{fd}"))
        .map_err(|e| Failure::error(format!("{what}: {}", crate::io::describe(&e))))?;
    first_line(file, &what)
}

#[cfg(not(unix))]
fn read_fd(fd: i32, option: &str) -> Result<Zeroizing<Vec<u8>>, Failure> {
    Err(Failure::error(format!(
        "{option} fd:{fd}: file descriptors are not supported on this system"
    )))
}

/// The password from `source`, or else a no-echo prompt on the terminal (`prompt` shown);
/// `confirm` asks twice (for a new password) and refuses a mismatch.
///
/// # Errors
///
/// As [`PassSource::read`]; without a source and without a terminal, an error saying which
/// option to give.
pub fn password(
    source: Option<&PassSource>,
    option: &str,
    prompt: &str,
    confirm: bool,
) -> Result<Zeroizing<Vec<u8>>, Failure> {
    if let Some(source) = source {
        return source.read(option);
    }
    if !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
        return Err(Failure::error(format!(
            "{prompt}: a password is needed and there is no terminal to ask on; give \
             {option} (pass:, env:, file:, fd: or stdin)"
        )));
    }
    let ask = |text: &str| {
        rpassword::prompt_password(text)
            .map(|p| Zeroizing::new(p.into_bytes()))
            .map_err(|e| Failure::error(format!("cannot read the password: {e}")))
    };
    let first = ask(&format!("Enter pass phrase for {prompt}: "))?;
    if first.is_empty() {
        return Err(Failure::error("empty password"));
    }
    if confirm && ask(&format!("Verifying - enter pass phrase for {prompt}: "))? != first {
        return Err(Failure::error("the passwords do not match"));
    }
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_parse_and_bad_ones_are_refused() {
        assert!(matches!(parse_pass_source("pass:x"), Ok(PassSource::Text(t)) if *t == "x"));
        assert!(matches!(parse_pass_source("env:P"), Ok(PassSource::Env(v)) if v == "P"));
        assert!(matches!(parse_pass_source("fd:3"), Ok(PassSource::Fd(3))));
        assert!(matches!(parse_pass_source("stdin"), Ok(PassSource::Stdin)));
        for bad in ["x", "fd:x", "password", ""] {
            assert!(parse_pass_source(bad).is_err(), "{bad}");
        }
        let shown = format!("{:?}", parse_pass_source("pass:secret").unwrap());
        assert!(!shown.contains("secret"), "{shown}");
    }
}
