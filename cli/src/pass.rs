//! Password sources as OpenSSL spells them (`openssl-passphrase-options(1)`): `pass:TEXT`,
//! `env:VAR`, `file:PATH` (its first line), `fd:N` (its first line), `stdin` (the first line
//! of standard input, asked without echo when that is a terminal); without one, a no-echo
//! prompt on the terminal (`rpassword`), or an error when there is no terminal. Passwords are
//! wiped when dropped and never printed. As OpenSSL takes them: a password from a source
//! (`pass:`, `env:`, `file:`, `fd:`, piped `stdin`) is taken as given, any length, empty
//! included, to read a key or to write one; one typed at the prompt to write a key needs
//! [`MIN_NEW_PASSWORD`] bytes and is asked twice.

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
    match others.iter().find(|(_, p)| crate::file_args::is_std(p)) {
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

/// The shortest password typed at the prompt for a new encrypted key, in bytes: OpenSSL's
/// prompt asks for at least 4 characters (`PW_MIN_LENGTH` of its apps). A password from a
/// source (`pass:`, `env:`, `file:`, `fd:`, piped `stdin`) is not held to it, as in OpenSSL.
pub const MIN_NEW_PASSWORD: usize = 4;

/// The first line of a reader, without its line ending: an empty line is an empty password;
/// nothing at all (an empty file) is an error, as in OpenSSL.
/// `reader` is buffered by the caller: stdin's own buffer keeps what follows the line, for
/// `--passin stdin --passout stdin` (the first line, then the second, as in OpenSSL).
fn first_line(reader: impl BufRead, what: &str) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let mut line = Zeroizing::new(Vec::new());
    let read = reader
        .take(MAX_PASSWORD)
        .read_until(b'\n', &mut line)
        .map_err(|e| Failure::error(format!("{what}: cannot read the password: {e}")))?;
    if read == 0 {
        return Err(Failure::error(format!(
            "{what}: no password: nothing to read (an empty password is an empty line)"
        )));
    }
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    Ok(line)
}

impl PassSource {
    /// The password as the source gives it (possibly empty). `option` (`--passin`) names the
    /// source in messages. `stdin` on a terminal is asked for without echo, as the prompt.
    ///
    /// # Errors
    ///
    /// One line: a missing variable, an unreadable or empty file.
    fn read(&self, option: &str) -> Result<Zeroizing<Vec<u8>>, Failure> {
        match self {
            PassSource::Text(t) => Ok(Zeroizing::new(t.as_bytes().to_vec())),
            PassSource::Env(var) => std::env::var_os(var)
                .map(|v| Zeroizing::new(v.as_encoded_bytes().to_vec()))
                .ok_or_else(|| {
                    Failure::error(format!("{option} env:{var}: no such environment variable"))
                }),
            PassSource::File(path) => {
                let what = format!("{option} file:{}", path.display());
                let file = std::fs::File::open(path).map_err(|e| {
                    Failure::error(format!("{what}: {}", crate::file_args::describe(&e)))
                })?;
                first_line(std::io::BufReader::new(file), &what)
            }
            PassSource::Fd(fd) => read_fd(*fd, option),
            PassSource::Stdin => first_line(std::io::stdin().lock(), &format!("{option} stdin")),
        }
    }

    /// Whether this source is a terminal to prompt on: `stdin` when standard input is one.
    fn is_terminal(&self) -> bool {
        matches!(self, PassSource::Stdin) && std::io::stdin().is_terminal()
    }
}

#[cfg(unix)]
fn read_fd(fd: i32, option: &str) -> Result<Zeroizing<Vec<u8>>, Failure> {
    // /dev/fd/N opens the descriptor the caller passed without taking ownership of it.
    let what = format!("{option} fd:{fd}");
    let file = std::fs::File::open(format!("/dev/fd/{fd}"))
        .map_err(|e| Failure::error(format!("{what}: {}", crate::file_args::describe(&e))))?;
    first_line(std::io::BufReader::new(file), &what)
}

#[cfg(not(unix))]
fn read_fd(fd: i32, option: &str) -> Result<Zeroizing<Vec<u8>>, Failure> {
    Err(Failure::error(format!(
        "{option} fd:{fd}: file descriptors are not supported on this system"
    )))
}

// The rules, as OpenSSL applies them: a password from a source (pass:,
// env:, file:, fd:, piped stdin) is taken as given, any length, empty included, to read a key
// and to write one (`openssl genpkey -aes256 -pass pass:kg` writes a key, and a script that
// works with openssl must work with rsatool); a password to *read* a key is taken as given
// from the prompt too (a key may have been encrypted with anything); only a password typed
// at the prompt to *write* a key must have MIN_NEW_PASSWORD bytes (the minimum belongs to
// OpenSSL's prompt), and it is asked twice. `password_to_read` and `new_password` are the only
// ways the commands get a password.

/// The password of an encrypted key being read: from `source`, or else a no-echo prompt on
/// the terminal naming `name`. Empty passwords are accepted from every source.
///
/// # Errors
///
/// As the source fails (a missing variable, an unreadable file); without a source and
/// without a terminal, an error saying which option to give.
pub fn password_to_read(
    source: Option<&PassSource>,
    option: &str,
    name: &str,
) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let prompt = format!("Enter pass phrase for {name}: ");
    match source {
        Some(src) if !src.is_terminal() => src.read(option),
        // `stdin` on a terminal: the prompt, whatever stderr is (it goes to the terminal).
        Some(_) => ask(&prompt),
        None => {
            terminal(option, name)?;
            ask(&prompt)
        }
    }
}

/// The password for a key being written encrypted (`what`: "the new key"): from `source`,
/// taken as given (any length, empty included, as OpenSSL takes `-passout pass:`), or else
/// (and for `stdin` on a terminal) asked twice without echo on the terminal, where it needs
/// at least [`MIN_NEW_PASSWORD`] bytes, as OpenSSL's prompt does.
///
/// # Errors
///
/// As the source fails; a typed password that is too short; two typed entries that differ;
/// no source and no terminal.
pub fn new_password(
    source: Option<&PassSource>,
    option: &str,
    what: &str,
) -> Result<Zeroizing<Vec<u8>>, Failure> {
    match source {
        Some(src) if !src.is_terminal() => src.read(option),
        Some(_) => ask_new(ask, option, what),
        None => {
            terminal(option, what)?;
            ask_new(ask, option, what)
        }
    }
}

/// Refuses a password typed at the prompt that is too short for a new key.
fn check_new(password: &[u8], option: &str) -> Result<(), Failure> {
    if password.len() < MIN_NEW_PASSWORD {
        return Err(Failure::error(format!(
            "{option}: the typed password is too short to encrypt a key with ({} bytes; at \
             least {MIN_NEW_PASSWORD} at the prompt, as OpenSSL asks; pass:, env:, file:, fd: \
             and piped stdin take any)",
            password.len()
        )));
    }
    Ok(())
}

/// A new password asked twice through `ask` (the terminal, or a test's script): the first
/// entry checked by [`check_new`] before the second is asked; a mismatch is refused.
fn ask_new(
    mut ask: impl FnMut(&str) -> Result<Zeroizing<Vec<u8>>, Failure>,
    option: &str,
    what: &str,
) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let first = ask(&format!("Enter pass phrase for {what}: "))?;
    check_new(&first, option)?;
    let second = ask(&format!("Verifying - Enter pass phrase for {what}: "))?;
    if second != first {
        return Err(Failure::error(format!(
            "{option}: the two pass phrases do not match; nothing was written"
        )));
    }
    Ok(first)
}

/// Refuses to prompt where there is no terminal to prompt on.
fn terminal(option: &str, what: &str) -> Result<(), Failure> {
    if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
        return Ok(());
    }
    Err(Failure::error(format!(
        "{what}: a password is needed and there is no terminal to ask on; give {option} \
         (pass:, env:, file:, fd: or stdin)"
    )))
}

/// One no-echo line from the terminal (`rpassword`), after `prompt`.
fn ask(prompt: &str) -> Result<Zeroizing<Vec<u8>>, Failure> {
    rpassword::prompt_password(prompt)
        .map(|p| Zeroizing::new(p.into_bytes()))
        .map_err(|e| Failure::error(format!("cannot read the password: {e}")))
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

    /// A script of terminal entries for [`ask_new`], with the prompts it was shown.
    fn script<'a>(
        answers: &'a [&'a str],
        shown: &'a mut Vec<String>,
    ) -> impl FnMut(&str) -> Result<Zeroizing<Vec<u8>>, Failure> + 'a {
        let mut next = answers.iter();
        move |prompt| {
            shown.push(prompt.to_owned());
            Ok(Zeroizing::new(
                next.next().expect("asked too often").as_bytes().to_vec(),
            ))
        }
    }

    #[test]
    fn a_typed_new_password_is_asked_twice_and_a_mismatch_is_refused() {
        let mut shown = Vec::new();
        let got = ask_new(
            script(&["horse", "horse"], &mut shown),
            "--passout",
            "the new key",
        );
        assert_eq!(got.expect("same twice").as_slice(), b"horse");
        assert_eq!(
            shown,
            [
                "Enter pass phrase for the new key: ",
                "Verifying - Enter pass phrase for the new key: "
            ]
        );
        let mut shown = Vec::new();
        let err = ask_new(script(&["horse", "house"], &mut shown), "--passout", "k")
            .expect_err("a mismatch");
        assert!(err.to_string().contains("do not match"), "{err}");
        assert!(matches!(err, Failure::Error(_)), "exit 2");
    }

    #[test]
    fn a_short_typed_password_is_refused_before_the_confirmation() {
        for short in ["", "abc"] {
            let mut shown = Vec::new();
            let err =
                ask_new(script(&[short], &mut shown), "--passout", "k").expect_err("too short");
            assert_eq!(shown.len(), 1, "not asked again");
            assert_eq!(
                err.to_string(),
                check_new(short.as_bytes(), "--passout")
                    .expect_err("the same rule")
                    .to_string()
            );
        }
        assert!(check_new(b"abcd", "--passout").is_ok());
    }

    #[test]
    fn a_new_password_from_a_source_is_taken_as_given_any_length() {
        for given in ["", "k", "kg", "abc"] {
            let source = PassSource::Text(Zeroizing::new(given.to_owned()));
            let got = new_password(Some(&source), "--passout", "k").expect("taken as given");
            assert_eq!(got.as_slice(), given.as_bytes());
        }
    }

    #[test]
    fn an_empty_line_is_an_empty_password_and_nothing_is_an_error() {
        assert_eq!(first_line(&b"\n"[..], "t").expect("empty line").len(), 0);
        assert_eq!(
            first_line(&b"pw\r\nmore"[..], "t")
                .expect("line")
                .as_slice(),
            b"pw"
        );
        assert!(first_line(&b""[..], "t").is_err());
    }
}
