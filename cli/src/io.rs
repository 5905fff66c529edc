//! Files as the key tool reads and writes them: `-` for stdin/stdout, keys detected as PEM or
//! DER and private or public, and safe output: regular files replaced atomically (a temporary
//! file in the same folder, written, synced, then renamed over the target; removed on any
//! error), symlinks followed, devices and FIFOs written directly (see [`write_output`]).
//!
//! Every error names the file (`stdin` / `stdout` for `-`) and says what is wrong, as one line
//! for `rsatool: ...`.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use rsa::{HashAlg, KeyAlgorithm, RsaPrivateKey, RsaPublicKey};
use zeroize::Zeroizing;

use crate::exit::Failure;
use crate::pass::PassSource;

/// Keys and inputs larger than this are refused before they are read into memory: a 16384-bit
/// key in PEM is under 13 KiB, so a key file of a megabyte is not a key.
const MAX_KEY_FILE: u64 = 1 << 20;

/// How a path argument is shown in messages: the path, or `stdin` / `stdout` for `-`.
pub fn input_name(spec: &Path) -> String {
    if is_std(spec) {
        "stdin".to_owned()
    } else {
        spec.display().to_string()
    }
}

fn output_name(spec: &Path) -> String {
    if is_std(spec) {
        "stdout".to_owned()
    } else {
        spec.display().to_string()
    }
}

/// Whether the argument is `-` (stdin or stdout).
pub fn is_std(spec: &Path) -> bool {
    spec.as_os_str() == "-"
}

/// `name: what` as a failure with exit code 2.
fn file_error(name: &str, e: &io::Error) -> Failure {
    Failure::error(format!("{name}: {}", describe(e)))
}

/// An I/O error in a few words, for `rsatool: NAME: ...`.
pub fn describe(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        io::ErrorKind::IsADirectory => "is a directory".to_owned(),
        io::ErrorKind::StorageFull => "no space left on device".to_owned(),
        _ => os_message(e),
    }
}

/// The system's wording of an error, first letter in lower case, without Rust's
/// " (os error N)" suffix.
fn os_message(e: &io::Error) -> String {
    let text = e.to_string();
    let text = match text.find(" (os error ") {
        Some(i) => &text[..i],
        None => &text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => "I/O error".to_owned(),
    }
}

fn open_input(spec: &Path) -> Result<Box<dyn Read>, Failure> {
    if is_std(spec) {
        return Ok(Box::new(io::stdin().lock()));
    }
    let file = File::open(spec).map_err(|e| file_error(&input_name(spec), &e))?;
    let meta = file
        .metadata()
        .map_err(|e| file_error(&input_name(spec), &e))?;
    if meta.is_dir() {
        return Err(Failure::error(format!(
            "{}: is a directory",
            spec.display()
        )));
    }
    Ok(Box::new(file))
}

/// Reads a path, or stdin for `-`, but at most `cap + 1` bytes: the caller refuses anything
/// longer than `cap` (a message, signature or ciphertext longer than the key cannot be
/// right, and a huge input is not read into memory to find that out). Wiped when dropped,
/// since it may be a secret message.
///
/// # Errors
///
/// One line naming the file: missing, unreadable, a directory.
pub fn read_input(spec: &Path, cap: usize) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let mut data = Zeroizing::new(Vec::new());
    open_input(spec)?
        .take(u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1))
        .read_to_end(&mut data)
        .map_err(|e| file_error(&input_name(spec), &e))?;
    Ok(data)
}

/// The digest of a path's contents (or stdin's), read in blocks, so that a large input is
/// never held in memory.
///
/// # Errors
///
/// As [`read_input`].
pub fn hash_input(spec: &Path, hash: HashAlg) -> Result<Vec<u8>, Failure> {
    let mut input = open_input(spec)?;
    let mut hasher = hash.hasher();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => hasher.update(buf.get(..n).unwrap_or_default()),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(file_error(&input_name(spec), &e)),
        }
    }
    Ok(hasher.finalize())
}

/// The bytes of a key file, as [`read_private_key`] reads them (for commands that look at the
/// file before choosing how to read it).
///
/// # Errors
///
/// As [`read_private_key`], for the file itself.
pub fn read_key_bytes(spec: &Path) -> Result<Zeroizing<Vec<u8>>, Failure> {
    read_key_file(spec)
}

/// Reads a key file, at most [`MAX_KEY_FILE`] bytes, wiped when dropped.
fn read_key_file(spec: &Path) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let name = input_name(spec);
    let mut data = Zeroizing::new(Vec::new());
    open_input(spec)?
        .take(MAX_KEY_FILE + 1)
        .read_to_end(&mut data)
        .map_err(|e| file_error(&name, &e))?;
    if data.is_empty() {
        return Err(Failure::error(format!("{name}: empty file, not a key")));
    }
    if data.len() as u64 > MAX_KEY_FILE {
        return Err(Failure::error(format!(
            "{name}: larger than 1 MiB, not a PEM or DER RSA key"
        )));
    }
    Ok(data)
}

/// The message for a key that did not decode or validate.
fn key_error(name: &str, e: &rsa::Error) -> Failure {
    Failure::error(match e {
        rsa::Error::Encoding(what) => format!("{name}: not a PEM or DER RSA key ({what})"),
        rsa::Error::InvalidKey(what) => format!("{name}: not a usable RSA key: {what}"),
        rsa::Error::Unsupported(what) => format!("{name}: unsupported: {what}"),
        rsa::Error::BadPassword => {
            format!("{name}: wrong password (or a damaged encrypted key): it does not decrypt")
        }
        other => format!("{name}: {other}"),
    })
}

/// A key as read from a file: the key and what its AlgorithmIdentifier allows.
pub struct Loaded<K> {
    /// The key.
    pub key: K,
    /// `rsaEncryption`, or an RSA-PSS key with its restrictions.
    pub algorithm: KeyAlgorithm,
}

/// Runs `decode` without a password, and if the key turns out encrypted, again with the
/// password from `passin` (or a prompt). The outer error: no password could be had.
fn with_password<T>(
    name: &str,
    passin: Option<&PassSource>,
    decode: impl Fn(Option<&[u8]>) -> rsa::Result<T>,
) -> Result<rsa::Result<T>, Failure> {
    match decode(None) {
        Err(rsa::Error::NeedPassword) => {
            let password = crate::pass::password(passin, "--passin", name, false)?;
            Ok(decode(Some(&password)))
        }
        other => Ok(other),
    }
}

/// Reads a private key: PKCS #8 (plain or encrypted) or PKCS #1 (plain or OpenSSL's legacy
/// encryption), PEM or DER, detected, then validated. An encrypted key takes its password
/// from `passin`, or a no-echo prompt on a terminal.
///
/// # Errors
///
/// One line naming the file: unreadable, empty, not a key, a public key, an invalid key, a
/// wrong password.
pub fn read_private_key(
    spec: &Path,
    passin: Option<&PassSource>,
) -> Result<Loaded<RsaPrivateKey>, Failure> {
    if is_std(spec) && matches!(passin, Some(PassSource::Stdin)) {
        return Err(Failure::error(
            "--key - and --passin stdin cannot both read stdin",
        ));
    }
    let name = input_name(spec);
    let data = read_key_file(spec)?;
    let decoded = with_password(&name, passin, |pw| rsa::decode_private_key_with(&data, pw))?;
    let (parts, algorithm) = match decoded {
        Ok(decoded) => decoded,
        Err(e) => {
            if rsa::decode_public_key(&data).is_ok() {
                return Err(Failure::error(format!(
                    "{name}: a public key, but this command needs a private key"
                )));
            }
            return Err(key_error(&name, &e));
        }
    };
    let key = RsaPrivateKey::from_parts(&parts).map_err(|e| key_error(&name, &e))?;
    Ok(Loaded { key, algorithm })
}

/// Reads a public key (SubjectPublicKeyInfo or PKCS #1), the key of an X.509 certificate, or
/// the public half of a private key (validated as [`read_private_key`] does, so that a broken
/// private key is refused here too), PEM or DER, detected, then validated.
///
/// # Errors
///
/// One line naming the file: unreadable, empty, not a key, an invalid key.
pub fn read_public_key(
    spec: &Path,
    passin: Option<&PassSource>,
) -> Result<Loaded<RsaPublicKey>, Failure> {
    if is_std(spec) && matches!(passin, Some(PassSource::Stdin)) {
        return Err(Failure::error(
            "--key - and --passin stdin cannot both read stdin",
        ));
    }
    let name = input_name(spec);
    let data = read_key_file(spec)?;
    let mut password = None;
    let decoded = match rsa::decode_public_key_with(&data, None) {
        Err(rsa::Error::NeedPassword) => {
            let pw = password.insert(crate::pass::password(passin, "--passin", &name, false)?);
            rsa::decode_public_key_with(&data, Some(pw))
        }
        other => other,
    };
    let (parts, algorithm) = decoded.map_err(|e| key_error(&name, &e))?;
    // A private key's public half: the private key must be a valid one.
    if let Ok((private, _)) =
        rsa::decode_private_key_with(&data, password.as_deref().map(|p| &p[..]))
    {
        RsaPrivateKey::from_parts(&private).map_err(|e| key_error(&name, &e))?;
    }
    let key = RsaPublicKey::from_parts(&parts).map_err(|e| key_error(&name, &e))?;
    Ok(Loaded { key, algorithm })
}

/// Whether an output file holds a secret (a private key, a decrypted message): created with
/// mode 0600 if so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Secrecy {
    /// Readable by the owner only (mode 0600 from the `open`).
    Secret,
    /// Mode 0666 less the umask, as any new file.
    Public,
}

/// Writes `data` to the path, or to stdout for `-`.
///
/// What the path is decides how:
///
/// - a regular file, or a path that does not exist yet: written atomically, as a temporary
///   file in the same folder (a unique name starting with `.`), synced to disk, then renamed
///   over the target, so a reader sees the old file or the whole new one, never a part; the
///   temporary file is removed on any error. An existing file keeps its mode (for a
///   [`Secrecy::Secret`] output, less any bits beyond 0600); a new one gets 0600 for a secret
///   and 0666 less the umask otherwise;
/// - a symlink: followed (through any chain of links), and its final target written as
///   above, so the link stays a link;
/// - anything else (a character or block device, a FIFO, a socket) and the pseudo-files of
///   `/proc` and `/sys`: opened and written directly, as `openssl -out` does, since renaming
///   over them would replace the device with a file (or, for a FIFO, never reach its
///   reader). Write errors are reported (`/dev/full`: no space left on device).
///
/// # Errors
///
/// One line naming the file on any I/O error.
pub fn write_output(spec: &Path, data: &[u8], secrecy: Secrecy) -> Result<(), Failure> {
    if is_std(spec) {
        let mut out = io::stdout().lock();
        return out.write_all(data).and_then(|()| out.flush()).or_else(|e| {
            if e.kind() == io::ErrorKind::BrokenPipe {
                Ok(())
            } else {
                Err(file_error(&output_name(spec), &e))
            }
        });
    }
    let name = output_name(spec);
    let target = follow_symlinks(spec).map_err(|e| file_error(&name, &e))?;
    let existing = match fs::metadata(&target) {
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(file_error(&name, &e)),
    };
    let mode = match &existing {
        Some(meta) if meta.is_dir() => {
            return Err(Failure::error(format!("{name}: is a directory")));
        }
        Some(meta) if !meta.is_file() || is_pseudo_file(&target) => {
            return write_direct(&target, data).map_err(|e| file_error(&name, &e));
        }
        Some(meta) => Some(kept_mode(meta, secrecy)),
        None => None,
    };
    let mut temp = TempFile::create(&target, secrecy).map_err(|e| {
        if e.kind() == io::ErrorKind::NotFound {
            Failure::error(format!(
                "{name}: cannot create it: its folder does not exist"
            ))
        } else {
            file_error(&name, &e)
        }
    })?;
    if let Some(mode) = mode {
        set_mode(&temp.file, mode).map_err(|e| file_error(&name, &e))?;
    }
    temp.file
        .write_all(data)
        .and_then(|()| temp.file.sync_all())
        .map_err(|e| file_error(&name, &e))?;
    temp.persist(&target).map_err(|e| file_error(&name, &e))
}

/// Links followed before a path is given up as a loop (Linux's `MAXSYMLINKS`).
const MAX_SYMLINKS: usize = 40;

/// The path a chain of symlinks ends at (the path itself if it is no link); a relative link
/// is taken relative to the link's folder. The end need not exist (a dangling link's target
/// is where a new file goes).
fn follow_symlinks(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_SYMLINKS {
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&path)?;
                path = match path.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            Ok(_) => return Ok(path),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(path),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Whether a regular file is a kernel pseudo-file (`/proc`, `/sys`), which cannot be
/// replaced and has no folder a temporary file could be made in.
fn is_pseudo_file(path: &Path) -> bool {
    fs::canonicalize(path).is_ok_and(|p| p.starts_with("/proc") || p.starts_with("/sys"))
}

/// Writes to a device, FIFO or pseudo-file in place (no create, no rename).
fn write_direct(path: &Path, data: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).open(path)?;
    file.write_all(data)?;
    file.flush()
}

/// The mode an existing file keeps when it is replaced: its own, but for a secret without
/// any bit beyond 0600 (owner read and write).
#[cfg(unix)]
fn kept_mode(meta: &fs::Metadata, secrecy: Secrecy) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    let mode = meta.permissions().mode() & 0o7777;
    match secrecy {
        Secrecy::Secret => mode & 0o600,
        Secrecy::Public => mode,
    }
}

#[cfg(not(unix))]
fn kept_mode(_meta: &fs::Metadata, _secrecy: Secrecy) -> u32 {
    0
}

#[cfg(unix)]
fn set_mode(file: &File, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_mode(_file: &File, _mode: u32) -> io::Result<()> {
    Ok(())
}

/// A temporary file beside the target, removed on drop unless renamed into place.
struct TempFile {
    path: PathBuf,
    file: File,
    done: bool,
}

/// Makes temporary names unique within this process; the process id makes them unique
/// between processes.
static COUNTER: AtomicU32 = AtomicU32::new(0);

impl TempFile {
    fn create(target: &Path, secrecy: Secrecy) -> io::Result<TempFile> {
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let base = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "output".to_owned());
        let pid = std::process::id();
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.subsec_nanos())
                .unwrap_or(0);
            let path = dir.join(format!(".{base}.rsatool-{pid}-{n}-{nanos:08x}.tmp"));
            let mut opts = OpenOptions::new();
            opts.write(true).create_new(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                opts.mode(match secrecy {
                    Secrecy::Secret => 0o600,
                    Secrecy::Public => 0o666,
                });
            }
            #[cfg(not(unix))]
            let _ = secrecy;
            match opts.open(&path) {
                Ok(file) => {
                    return Ok(TempFile {
                        path,
                        file,
                        done: false,
                    });
                }
                // Another process chose the same name: try the next one.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < u32::MAX => {}
                Err(e) => return Err(e),
            }
        }
    }

    fn persist(mut self, target: &Path) -> io::Result<()> {
        fs::rename(&self.path, target)?;
        self.done = true;
        // The rename is durable once the folder is synced; a folder that cannot be opened
        // for that (some file systems) leaves the file written all the same.
        if let Some(dir) = target.parent() {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.done {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Refuses two arguments that both read stdin.
///
/// # Errors
///
/// When both are `-`.
pub fn one_stdin(a: (&str, &Path), b: (&str, &Path)) -> Result<(), Failure> {
    if is_std(a.1) && is_std(b.1) {
        return Err(Failure::error(format!(
            "{} and {} cannot both read stdin ('-')",
            a.0, b.0
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.bin");
        fs::write(&target, b"old").unwrap();
        write_output(&target, b"new contents", Secrecy::Secret).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new contents");
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "only the target is left");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&target).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn temporary_file_is_removed_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.bin");
        let temp = TempFile::create(&target, Secrecy::Public).unwrap();
        assert!(temp.path.exists());
        let path = temp.path.clone();
        drop(temp);
        assert!(!path.exists());
        assert!(!target.exists());
    }

    #[test]
    fn write_into_a_missing_folder_fails_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("no/such/dir/out.bin");
        let err = write_output(&target, b"x", Secrecy::Public).unwrap_err();
        assert!(err.to_string().contains("out.bin"), "{err}");
    }
}
