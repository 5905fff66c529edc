//! Files as the key tool reads and writes them: `-` for stdin/stdout, keys detected as PEM or
//! DER and private or public, and safe output: an output that is an input refused
//! ([`distinct`]); new files created atomically (a temporary file in the same folder, written,
//! synced, then renamed into place; removed on any error); existing files rewritten in place,
//! keeping owner, mode and links, read-only ones only with `--force`; symlinks followed;
//! devices, FIFOs and pipes written directly (see [`write_file`]).
//!
//! Every error names the file (`stdin` / `stdout` for `-`) and says what is wrong, as one line
//! for `rsatool: ...`.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use rsatool_rsa::{HashAlg, KeyAlgorithm, RsaPrivateKey, RsaPublicKey};
use zeroize::Zeroizing;

use crate::exit::Failure;
use crate::file_args::{describe, is_std};
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

/// `name: what` as a failure with exit code 2.
fn file_error(name: &str, e: &io::Error) -> Failure {
    Failure::error(format!("{name}: {}", describe(e)))
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

/// The bytes of a key file, as [`read_key`] reads them (for commands that look at the
/// file before choosing how to read it).
///
/// # Errors
///
/// As [`read_key`], for the file itself.
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
fn key_error(name: &str, e: &rsatool_rsa::Error) -> Failure {
    Failure::error(match e {
        rsatool_rsa::Error::Encoding(what) => format!("{name}: not a PEM or DER RSA key ({what})"),
        rsatool_rsa::Error::InvalidKey(what) => format!("{name}: not a usable RSA key: {what}"),
        rsatool_rsa::Error::Unsupported(what) => format!("{name}: unsupported: {what}"),
        rsatool_rsa::Error::BadPassword => {
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
    decode: impl Fn(Option<&[u8]>) -> rsatool_rsa::Result<T>,
) -> Result<rsatool_rsa::Result<T>, Failure> {
    match decode(None) {
        Err(rsatool_rsa::Error::NeedPassword) => {
            let password = crate::pass::password_to_read(passin, "--passin", name)?;
            Ok(decode(Some(&password)))
        }
        other => Ok(other),
    }
}

/// Refuses `--key -` together with `--passin stdin`: both would read stdin.
///
/// # Errors
///
/// When both read stdin.
pub fn key_and_passin(spec: &Path, passin: Option<&PassSource>) -> Result<(), Failure> {
    if is_std(spec) && matches!(passin, Some(PassSource::Stdin)) {
        return Err(Failure::error(
            "--key - and --passin stdin cannot both read stdin",
        ));
    }
    Ok(())
}

/// How a key is decoded from the bytes of its file: [`private_key_from`] or
/// [`public_key_from`].
pub type KeyDecoder<K> = fn(&str, &[u8], Option<&PassSource>) -> Result<Loaded<K>, Failure>;

/// Reads the key file `spec` (`-` for stdin) and decodes it with `decode`, which takes the
/// password of an encrypted key from `passin`.
///
/// # Errors
///
/// One line naming the file: unreadable, or as `decode` says; or `spec` and `passin` both
/// stdin.
pub fn read_key<K>(
    spec: &Path,
    passin: Option<&PassSource>,
    decode: KeyDecoder<K>,
) -> Result<Loaded<K>, Failure> {
    key_and_passin(spec, passin)?;
    let data = read_key_file(spec)?;
    decode(&input_name(spec), &data, passin)
}

/// A private key from the bytes of its file (`name` for messages): PKCS #8 (plain or
/// encrypted) or PKCS #1 (plain or OpenSSL's legacy encryption), PEM or DER, detected, then
/// validated. An encrypted key takes its password from `passin`, or a no-echo prompt on a
/// terminal. Given the bytes, a command can look at the key before choosing what to do and
/// still read stdin once.
///
/// # Errors
///
/// One line naming the file: empty, not a key, a public key, an invalid key, a wrong password,
/// a certificate beside the key that is another key's.
pub fn private_key_from(
    name: &str,
    data: &[u8],
    passin: Option<&PassSource>,
) -> Result<Loaded<RsaPrivateKey>, Failure> {
    let decoded = with_password(name, passin, |pw| {
        rsatool_rsa::decode_private_key_with(data, pw)
    })?;
    let (parts, algorithm) = match decoded {
        Ok(decoded) => decoded,
        Err(e) => {
            if rsatool_rsa::decode_public_key(data).is_ok() {
                return Err(Failure::error(format!(
                    "{name}: a public key, but this command needs a private key"
                )));
            }
            return Err(key_error(name, &e));
        }
    };
    if let Some(other) = mismatch(data, &parts.n, &parts.e) {
        return Err(Failure::error(format!("{name}: {other}")));
    }
    let key = RsaPrivateKey::from_parts(&parts).map_err(|e| key_error(name, &e))?;
    Ok(Loaded { key, algorithm })
}

/// Big-endian bytes without leading zeros, to compare integers encoded two ways.
fn trimmed(bytes: &[u8]) -> &[u8] {
    let zeros = bytes.iter().take_while(|&&b| b == 0).count();
    bytes.get(zeros..).unwrap_or_default()
}

/// When a file holds a private key (of modulus `n`, exponent `e`) and a certificate or public
/// key of another key, what to say: the private-key commands would take the key and the
/// public-key ones the certificate, so signing and verifying with one file would disagree.
/// `None` when the file has no other key or it is the same one.
pub fn mismatch(data: &[u8], n: &[u8], e: &[u8]) -> Option<String> {
    let (public, _) = rsatool_rsa::decode_public_key_with(data, None).ok()?;
    if trimmed(&public.n) == trimmed(n) && trimmed(&public.e) == trimmed(e) {
        return None;
    }
    let what = if data
        .windows(27)
        .any(|w| w == b"-----BEGIN CERTIFICATE-----")
    {
        "certificate"
    } else {
        "public key"
    };
    Some(format!(
        "the {what} and the private key in this file do not match (they are two different \
         keys); keep them in separate files, or put the matching {what} beside the key"
    ))
}

/// A public key from the bytes of its file (`name` for messages): SubjectPublicKeyInfo or
/// PKCS #1, the key of an X.509 certificate, or the public half of a private key (validated
/// as [`private_key_from`] does, so that a broken private key is refused here too), PEM or
/// DER, detected, then validated.
///
/// # Errors
///
/// One line naming the file: empty, not a key, an invalid key, a certificate beside a private
/// key that is another key's.
pub fn public_key_from(
    name: &str,
    data: &[u8],
    passin: Option<&PassSource>,
) -> Result<Loaded<RsaPublicKey>, Failure> {
    let mut password = None;
    let decoded = match rsatool_rsa::decode_public_key_with(data, None) {
        Err(rsatool_rsa::Error::NeedPassword) => {
            let pw = password.insert(crate::pass::password_to_read(passin, "--passin", name)?);
            rsatool_rsa::decode_public_key_with(data, Some(pw))
        }
        other => other,
    };
    let (parts, algorithm) = decoded.map_err(|e| key_error(name, &e))?;
    // A private key's public half: the private key must be a valid one, and the key a
    // certificate beside it holds must be its own.
    if let Ok((private, _)) =
        rsatool_rsa::decode_private_key_with(data, password.as_deref().map(|p| &p[..]))
    {
        if let Some(other) = mismatch(data, &private.n, &private.e) {
            return Err(Failure::error(format!("{name}: {other}")));
        }
        RsaPrivateKey::from_parts(&private).map_err(|e| key_error(name, &e))?;
    }
    let key = RsaPublicKey::from_parts(&parts).map_err(|e| key_error(name, &e))?;
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

/// Writes `data` to the path, or to stdout for `-`, without `--force`: a read-only file is
/// refused (see [`write_file`]).
///
/// # Errors
///
/// As [`write_file`].
pub fn write_output(spec: &Path, data: &[u8], secrecy: Secrecy) -> Result<(), Failure> {
    write_file(spec, data, secrecy, false)
}

/// Writes `data` to the path, or to stdout for `-`. Everything is computed before this is
/// called, so nothing is written unless the whole output is ready.
///
/// What the path is decides how:
///
/// - a path that does not exist yet (or a dangling symlink's target): created atomically, as
///   a temporary file in the same folder (a unique name starting with `.`), synced to disk,
///   then renamed into place, so a reader never sees a part; the temporary file is removed on
///   any error. Its mode is 0600 for a [`Secrecy::Secret`] and 0666 less the umask otherwise;
/// - an existing regular file (through any symlinks): written in place, into the same
///   inode, as `openssl -out` does, so it keeps its owner, group, mode and hard links (for a
///   secret, its mode first loses any bit beyond 0600). Its old contents are read first and
///   put back if the write fails, so a failed command does not leave a part. A file without
///   any write permission bit is refused unless `force`;
/// - `/dev/stdout` and `/dev/stderr` (and `/dev/fd/1`, `/dev/fd/2`): the process's own
///   stdout or stderr, whatever they are;
/// - anything else (a character or block device, a FIFO, a pipe such as `>(cmd)`'s
///   `/dev/fd/63`, a socket) and the pseudo-files of `/proc` and `/sys`: opened and written
///   directly. Write errors are reported (`/dev/full`: no space left on device).
///
/// # Errors
///
/// One line naming the file on any I/O error, or a read-only file without `force`.
pub fn write_file(spec: &Path, data: &[u8], secrecy: Secrecy, force: bool) -> Result<(), Failure> {
    let name = output_name(spec);
    let std_stream = if is_std(spec) {
        Some(1)
    } else {
        match spec.to_str() {
            Some("/dev/stdout" | "/dev/fd/1" | "/proc/self/fd/1") => Some(1),
            Some("/dev/stderr" | "/dev/fd/2" | "/proc/self/fd/2") => Some(2),
            _ => None,
        }
    };
    if let Some(fd) = std_stream {
        let written = if fd == 1 {
            let mut out = io::stdout().lock();
            out.write_all(data).and_then(|()| out.flush())
        } else {
            let mut err = io::stderr().lock();
            err.write_all(data).and_then(|()| err.flush())
        };
        return written.or_else(|e| {
            if e.kind() == io::ErrorKind::BrokenPipe {
                Ok(())
            } else {
                Err(file_error(&name, &e))
            }
        });
    }
    // The kernel follows the links (the magic ones of /proc/self/fd included).
    match fs::metadata(spec) {
        Ok(meta) if meta.is_dir() => Err(Failure::error(format!("{name}: is a directory"))),
        Ok(meta) if !meta.is_file() || is_pseudo_file(spec) => {
            write_direct(spec, data).map_err(|e| file_error(&name, &e))
        }
        Ok(meta) => write_in_place(spec, &name, &meta, data, secrecy, force),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let target = follow_symlinks(spec).map_err(|e| file_error(&name, &e))?;
            write_new(&target, &name, data, secrecy)
        }
        Err(e) => Err(file_error(&name, &e)),
    }
}

/// A new file: a temporary file beside it, written, synced and renamed into place.
fn write_new(target: &Path, name: &str, data: &[u8], secrecy: Secrecy) -> Result<(), Failure> {
    let mut temp = TempFile::create(target, secrecy).map_err(|e| {
        if e.kind() == io::ErrorKind::NotFound {
            Failure::error(format!(
                "{name}: cannot create it: its folder does not exist"
            ))
        } else {
            file_error(name, &e)
        }
    })?;
    temp.file
        .write_all(data)
        .and_then(|()| temp.file.sync_all())
        .map_err(|e| file_error(name, &e))?;
    temp.persist(target).map_err(|e| file_error(name, &e))
}

/// Old contents larger than this are not kept for putting back after a failed write (an
/// output of the key tool is a few kilobytes; a huge file overwritten by one is unusual).
const MAX_BACKUP: u64 = 16 << 20;

/// An existing regular file: written into its own inode (owner, group, links kept), its old
/// contents put back if the write fails.
fn write_in_place(
    spec: &Path,
    name: &str,
    meta: &fs::Metadata,
    data: &[u8],
    secrecy: Secrecy,
    force: bool,
) -> Result<(), Failure> {
    let mode = file_mode(meta);
    let read_only = mode & 0o222 == 0;
    if read_only && !force {
        return Err(Failure::error(format!(
            "{name}: the file is read-only (mode {mode:04o}); give --force to overwrite it \
             (it keeps its mode, owner and links), or choose another output"
        )));
    }
    let wanted = kept_mode(meta, secrecy);
    let open_rw = || OpenOptions::new().read(true).write(true).open(spec);
    let (mut file, restore) = match open_rw() {
        Ok(file) => (file, None),
        // A read-only file of ours and --force: owner write allowed for the time of the write.
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied && force && read_only => {
            let ro = File::open(spec).map_err(|e| file_error(name, &e))?;
            set_mode(&ro, mode | 0o200).map_err(|e| file_error(name, &e))?;
            match open_rw() {
                Ok(file) => (file, Some(ro)),
                Err(e) => {
                    let _ = set_mode(&ro, mode);
                    return Err(file_error(name, &e));
                }
            }
        }
        Err(e) => return Err(file_error(name, &e)),
    };
    // A secret never sits in a file wider than 0600, not even for the time of the write.
    if wanted != mode {
        set_mode(&file, wanted).map_err(|e| file_error(name, &e))?;
    }
    let mut old = Zeroizing::new(Vec::new());
    let kept = (&file)
        .take(MAX_BACKUP + 1)
        .read_to_end(&mut old)
        .is_ok_and(|n| n as u64 <= MAX_BACKUP);
    let rewrite = |file: &mut File, bytes: &[u8]| -> io::Result<()> {
        file.seek(SeekFrom::Start(0))?;
        file.write_all(bytes)?;
        file.set_len(bytes.len() as u64)?;
        file.sync_all()
    };
    let result = rewrite(&mut file, data);
    if result.is_err() && kept {
        let _ = rewrite(&mut file, &old);
    }
    if let Some(ro) = restore {
        let _ = set_mode(&ro, wanted);
    }
    result.map_err(|e| file_error(name, &e))
}

/// What identifies a file: its device and inode.
#[cfg(unix)]
fn identity(meta: &fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    meta.is_file().then(|| (meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn identity(_meta: &fs::Metadata) -> Option<(u64, u64)> {
    None
}

/// The regular file a path (or `-`: stdin for an input, stdout for an output) names, if it
/// names one that exists.
fn file_identity(spec: &Path, output: bool) -> Option<(u64, u64)> {
    #[cfg(unix)]
    if is_std(spec) {
        use std::os::fd::AsFd;
        let fd = if output {
            io::stdout().as_fd().try_clone_to_owned()
        } else {
            io::stdin().as_fd().try_clone_to_owned()
        };
        return identity(&File::from(fd.ok()?).metadata().ok()?);
    }
    identity(&fs::metadata(spec).ok()?)
}

/// Refuses an output that names the same file as an input (the same device and inode,
/// whatever links or paths lead there, `-` included), before anything is read or written:
/// writing it would destroy the input.
///
/// # Errors
///
/// The first such pair, with the options that name them.
pub fn distinct(inputs: &[(&str, &Path)], outputs: &[(&str, &Path)]) -> Result<(), Failure> {
    for (out_opt, out) in outputs {
        let Some(out_id) = file_identity(out, true) else {
            continue;
        };
        for (in_opt, input) in inputs {
            if file_identity(input, false) == Some(out_id) {
                return Err(Failure::error(format!(
                    "{}: {out_opt} names the same file as {in_opt} {}; writing it would \
                     destroy the input: choose another output",
                    output_name(out),
                    input_name(input),
                )));
            }
        }
    }
    Ok(())
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

/// The permission bits of a file.
#[cfg(unix)]
fn file_mode(meta: &fs::Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o7777
}

#[cfg(not(unix))]
fn file_mode(meta: &fs::Metadata) -> u32 {
    if meta.permissions().readonly() {
        0o444
    } else {
        0o666
    }
}

/// The mode an existing file keeps when it is rewritten: its own, but for a secret without
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

/// What is wrong with an input of `len` bytes where a `bits`-bit key's `what` (signatures,
/// ciphertexts) are `size` bytes: "255 bytes, but a 2048-bit key's signatures are 256 bytes",
/// "more than 256 bytes, ...".
pub fn wrong_length(len: usize, size: usize, bits: usize, what: &str) -> String {
    let more = if len > size { "more than " } else { "" };
    format!(
        "{more}{} bytes, but a {bits}-bit key's {what} are {size} bytes",
        len.min(size)
    )
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
