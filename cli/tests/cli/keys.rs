//! `rsatool keygen` and `pubkey` as a user runs them, plus the contract every command shares:
//! `--version`, `--help` with an example, one-line errors with exit 2, atomic output, mode
//! 0600 for private keys, `-` for stdin/stdout. `openssl` is the independent oracle where it is
//! installed (each check says so when it is skipped).

use std::fs;

use crate::common::{
    COMMANDS, assert_failure, assert_success, key, listing, openssl, public_key, rsatool,
    rsatool_fails, rsatool_in, rsatool_ok, s, scratch, scratch_with_openssl_key,
};

#[test]
fn version_names_the_tool_and_the_crate_version() {
    let out = rsatool(&["--version"]);
    assert_success(&out);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("rsatool {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn every_subcommand_help_ends_with_an_example() {
    let top = rsatool(&["--help"]);
    assert_success(&top);
    let top = String::from_utf8_lossy(&top.stdout).into_owned();
    for name in COMMANDS {
        assert!(
            top.contains(&format!("  {name} ")),
            "{name} listed in --help"
        );
        let out = rsatool(&[name, "--help"]);
        assert_success(&out);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let example_at = lines
            .iter()
            .rposition(|l| l.trim() == "Example:")
            .unwrap_or_else(|| panic!("{name} --help has no Example section:\n{text}"));
        let examples = &lines[example_at + 1..];
        assert!(!examples.is_empty(), "{name}: an example after the heading");
        for ex in examples {
            assert!(
                ex.trim().starts_with(&format!("rsatool {name}")),
                "{name}: {ex:?} is not an example command"
            );
        }
    }
}

#[test]
fn missing_and_unknown_arguments_are_one_line_and_exit_2() {
    for (args, needle) in [
        (&[][..], "no command"),
        (&["frobnicate"][..], "frobnicate"),
        (&["keygen"][..], "--bits"),
        // Without -o keygen writes to stdout; -o without its value is an error.
        (&["keygen", "--bits", "2048", "-o"][..], "--output"),
        (
            &["keygen", "--bits", "2048", "-o", "-", "--bogus"][..],
            "--bogus",
        ),
        (&["keygen", "--bits", "many", "-o", "-"][..], "many"),
        (
            &["keygen", "--bits", "2048", "--format", "xml", "-o", "-"][..],
            "xml",
        ),
        (&["pubkey"][..], "--key"),
        (&["pubkey", "-k"][..], "--key"),
    ] {
        let out = rsatool(args);
        assert_failure(&out, 2, &[needle]);
    }
}

#[test]
fn keygen_refuses_unsupported_sizes_and_parameters_leaving_no_file() {
    let dir = scratch();
    for (args, needle) in [
        (&["--bits", "512"][..], "512"),
        (&["--bits", "1023"][..], "1023"),
        (&["--bits", "2049"][..], "even"),
        (&["--bits", "16386"][..], "16386"),
        (&["--bits", "100000"][..], "100000"),
        (&["--bits", "2048", "--exponent", "4"][..], "exponent"),
        (&["--bits", "2048", "--exponent", "1"][..], "exponent"),
        (&["--bits", "2048", "--primes", "6"][..], "primes"),
        (&["--bits", "2048", "--primes", "1"][..], "primes"),
        (
            &["--bits", "2048", "--primes", "3", "--exponent", "3"][..],
            "65537",
        ),
    ] {
        let mut all = vec!["keygen"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["-o", "key.pem"]);
        rsatool_fails(dir.path(), &all, 2, &[needle]);
        assert!(
            listing(dir.path()).is_empty(),
            "{args:?} left {:?}",
            listing(dir.path())
        );
    }
}

#[cfg(unix)]
fn mode(path: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).expect("file").permissions().mode() & 0o777
}

#[test]
fn keygen_writes_pkcs8_pem_with_mode_0600_that_openssl_checks() {
    let path = key(2048);
    let pem = fs::read_to_string(path).expect("key file");
    assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"), "{pem}");
    assert!(pem.ends_with("-----END PRIVATE KEY-----\n"));
    #[cfg(unix)]
    assert_eq!(mode(path), 0o600);
    if let Some(out) = openssl(
        path.parent().expect("dir"),
        &["rsa", "-in", s(path), "-check", "-noout", "-text"],
        None,
    ) {
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Private-Key: (2048 bit, 2 primes)"), "{text}");
        assert!(text.contains("publicExponent: 65537 (0x10001)"), "{text}");
        assert!(text.contains("RSA key ok"), "{text}");
    }
}

#[test]
fn keygen_pkcs1_der_exponent_and_multi_prime_keys_pass_openssl_check() {
    let dir = scratch();
    let d = dir.path();
    rsatool_ok(
        d,
        &[
            "keygen",
            "--bits",
            "1024",
            "--pkcs1",
            "--format",
            "der",
            "--exponent",
            "3",
            "-o",
            "k1.der",
        ],
    );
    let der = fs::read(d.join("k1.der")).expect("DER key");
    assert_eq!(der.first(), Some(&0x30), "DER starts with a SEQUENCE");
    rsatool_ok(
        d,
        &[
            "keygen", "--bits", "2048", "--primes", "3", "--pkcs1", "-o", "k3.pem",
        ],
    );
    let pem = fs::read_to_string(d.join("k3.pem")).expect("key");
    assert!(
        pem.starts_with("-----BEGIN RSA PRIVATE KEY-----\n"),
        "{pem}"
    );
    #[cfg(unix)]
    {
        assert_eq!(mode(&d.join("k1.der")), 0o600);
        assert_eq!(mode(&d.join("k3.pem")), 0o600);
    }
    if let Some(out) = openssl(
        d,
        &[
            "rsa", "-inform", "DER", "-in", "k1.der", "-check", "-noout", "-text",
        ],
        None,
    ) {
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Private-Key: (1024 bit, 2 primes)"), "{text}");
        assert!(text.contains("publicExponent: 3 (0x3)"), "{text}");
        assert!(text.contains("RSA key ok"), "{text}");
    }
    if let Some(out) = openssl(
        d,
        &["rsa", "-in", "k3.pem", "-check", "-noout", "-text"],
        None,
    ) {
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Private-Key: (2048 bit, 3 primes)"), "{text}");
        assert!(text.contains("RSA key ok"), "{text}");
    }
}

#[test]
fn keygen_to_stdout_and_no_spinner_when_stderr_is_not_a_terminal() {
    let out = rsatool(&["keygen", "--bits", "4096", "-o", "-"]);
    assert_success(&out); // stderr empty: no spinner on a pipe
    let pem = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"), "{pem}");
    let dir = scratch();
    if let Some(o) = openssl(
        dir.path(),
        &["pkey", "-check", "-noout", "-text"],
        Some(&out.stdout),
    ) {
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains("Private-Key: (4096 bit, 2 primes)"), "{text}");
    }
}

#[test]
fn pubkey_output_equals_openssl_in_every_format() {
    let k = key(2048);
    let d = k.parent().expect("dir");
    // Default: SubjectPublicKeyInfo PEM on stdout.
    let spki_pem = rsatool(&["pubkey", "-k", s(k)]);
    assert_success(&spki_pem);
    assert!(spki_pem.stdout.starts_with(b"-----BEGIN PUBLIC KEY-----\n"));
    let pkcs1_pem = rsatool(&["pubkey", "-k", s(k), "--pkcs1", "-o", "-"]);
    assert_success(&pkcs1_pem);
    assert!(
        pkcs1_pem
            .stdout
            .starts_with(b"-----BEGIN RSA PUBLIC KEY-----\n")
    );
    let spki_der = rsatool(&["pubkey", "-k", s(k), "--format", "der"]);
    assert_success(&spki_der);
    let pkcs1_der = rsatool(&["pubkey", "-k", s(k), "--format", "der", "--pkcs1"]);
    assert_success(&pkcs1_der);
    for (ours, theirs) in [
        (&spki_pem, &["pkey", "-in", s(k), "-pubout"][..]),
        (&pkcs1_pem, &["rsa", "-in", s(k), "-RSAPublicKey_out"][..]),
        (
            &spki_der,
            &["pkey", "-in", s(k), "-pubout", "-outform", "DER"][..],
        ),
        (
            &pkcs1_der,
            &["rsa", "-in", s(k), "-RSAPublicKey_out", "-outform", "DER"][..],
        ),
    ] {
        if let Some(o) = openssl(d, theirs, None) {
            assert_eq!(ours.stdout, o.stdout, "openssl {theirs:?}");
        }
    }
}

#[test]
fn pubkey_reads_every_key_format_pem_and_der_and_stdin() {
    let dir = scratch();
    let d = dir.path();
    let k = key(2048);
    let expected = rsatool(&["pubkey", "-k", s(k)]).stdout;
    // The private key in every container, through our own keygen's formats and openssl's.
    let pem = fs::read(k).expect("key");
    let mut inputs: Vec<(String, Vec<u8>)> = vec![("pkcs8 pem".into(), pem.clone())];
    for (name, args) in [
        ("pkcs8 der", &["pkey", "-outform", "DER"][..]),
        ("pkcs1 pem", &["rsa", "-traditional"][..]),
        ("pkcs1 der", &["rsa", "-traditional", "-outform", "DER"][..]),
        ("spki pem", &["pkey", "-pubout"][..]),
        ("spki der", &["pkey", "-pubout", "-outform", "DER"][..]),
        ("rsa public pem", &["rsa", "-RSAPublicKey_out"][..]),
        (
            "rsa public der",
            &["rsa", "-RSAPublicKey_out", "-outform", "DER"][..],
        ),
    ] {
        if let Some(o) = openssl(d, args, Some(&pem)) {
            inputs.push((name.into(), o.stdout));
        }
    }
    for (name, bytes) in &inputs {
        let file = d.join("in.key");
        fs::write(&file, bytes).expect("write");
        let from_file = rsatool_in(d, &["pubkey", "-k", "in.key"], None);
        assert_success(&from_file);
        assert_eq!(from_file.stdout, expected, "{name} from a file");
        let from_stdin = rsatool_in(d, &["pubkey", "-k", "-", "-o", "out.pem"], Some(bytes));
        assert_success(&from_stdin);
        assert_eq!(
            fs::read(d.join("out.pem")).expect("out"),
            expected,
            "{name} from stdin"
        );
    }
    // Our own public output reads back as the same key.
    let again = rsatool(&["pubkey", "-k", s(public_key(2048))]);
    assert_success(&again);
    assert_eq!(again.stdout, expected);
}

#[test]
fn pubkey_reads_a_key_openssl_generated() {
    let Some(dir) = scratch_with_openssl_key(2048, &[], "ossl.pem") else {
        return;
    };
    let d = dir.path();
    let ours = rsatool_in(d, &["pubkey", "-k", "ossl.pem"], None);
    assert_success(&ours);
    let theirs = openssl(d, &["pkey", "-in", "ossl.pem", "-pubout"], None).expect("openssl");
    assert_eq!(ours.stdout, theirs.stdout);
}

/// Bad key files: (file name, content, words the error line must contain).
fn bad_keys() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let pem = fs::read(key(2048)).expect("key");
    let der_public = {
        let o = rsatool(&["pubkey", "-k", s(key(2048)), "--format", "der"]);
        o.stdout
    };
    vec![
        ("empty.pem", Vec::new(), "empty"),
        (
            "half.pem",
            pem[..pem.len() >> 1].to_vec(),
            "not a PEM or DER RSA key",
        ),
        (
            "cut.der",
            der_public[..der_public.len() - 7].to_vec(),
            "not a PEM or DER RSA key",
        ),
        (
            "notes.txt",
            b"just some text\n".to_vec(),
            "not a PEM or DER RSA key",
        ),
        (
            "seq.der",
            vec![0x30, 0x03, 0x02, 0x01, 0x05],
            "not a PEM or DER RSA key",
        ),
        (
            "cert.pem",
            b"-----BEGIN CERTIFICATE-----\nMAMCAQU=\n-----END CERTIFICATE-----\n".to_vec(),
            "not a PEM or DER RSA key",
        ),
    ]
}

#[test]
fn pubkey_refuses_bad_key_files_in_one_line_and_leaves_no_output() {
    let dir = scratch();
    let d = dir.path();
    for (name, content, needle) in bad_keys() {
        fs::write(d.join(name), &content).expect("write");
        rsatool_fails(
            d,
            &["pubkey", "-k", name, "-o", "pub.pem"],
            2,
            &[name, needle],
        );
        assert!(!d.join("pub.pem").exists(), "{name}: no output file");
        fs::remove_file(d.join(name)).expect("remove");
        assert!(listing(d).is_empty(), "{name}: left {:?}", listing(d));
        // The same bytes on stdin are named "stdin".
        let out = rsatool_in(d, &["pubkey", "-k", "-"], Some(&content));
        assert_failure(&out, 2, &["stdin", needle]);
    }
    rsatool_fails(
        d,
        &["pubkey", "-k", "missing.pem"],
        2,
        &["missing.pem", "no such file"],
    );
    rsatool_fails(d, &["pubkey", "-k", "."], 2, &["directory"]);
}

#[test]
fn a_failed_command_does_not_clobber_an_existing_output_file() {
    let dir = scratch();
    let d = dir.path();
    fs::write(d.join("out.pem"), b"precious").expect("write");
    fs::write(d.join("bad.pem"), b"not a key").expect("write");
    rsatool_fails(
        d,
        &["pubkey", "-k", "bad.pem", "-o", "out.pem"],
        2,
        &["bad.pem"],
    );
    let out = rsatool_in(d, &["keygen", "--bits", "512", "-o", "out.pem"], None);
    assert_failure(&out, 2, &["512"]);
    assert_eq!(fs::read(d.join("out.pem")).expect("out"), b"precious");
    assert_eq!(listing(d), ["bad.pem", "out.pem"]);
    // Writing into a folder that does not exist names the file and leaves nothing.
    let out = rsatool_in(
        d,
        &["pubkey", "-k", s(key(2048)), "-o", "no/such/pub.pem"],
        None,
    );
    assert_failure(&out, 2, &["no/such/pub.pem"]);
    assert_eq!(listing(d), ["bad.pem", "out.pem"]);
}

#[test]
fn a_successful_write_replaces_the_file_atomically_and_keeps_the_folder_clean() {
    let dir = scratch();
    let d = dir.path();
    fs::write(d.join("key.pem"), b"old").expect("write");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(d.join("key.pem"), fs::Permissions::from_mode(0o644)).expect("chmod");
    }
    rsatool_ok(d, &["keygen", "--bits", "1024", "-o", "key.pem"]);
    assert!(
        fs::read(d.join("key.pem"))
            .expect("key")
            .starts_with(b"-----BEGIN PRIVATE KEY-----")
    );
    #[cfg(unix)]
    assert_eq!(mode(&d.join("key.pem")), 0o600, "a new file, created 0600");
    rsatool_ok(d, &["pubkey", "-k", "key.pem", "-o", "pub.pem"]);
    assert_eq!(listing(d), ["key.pem", "pub.pem"]);
}

/// Runs `rsatool args` under util-linux `script`, which gives it a terminal; `None` (with a
/// note) where `script` is missing.
fn on_a_terminal(dir: &std::path::Path, args: &str) -> Option<std::process::Output> {
    let cmd = format!("'{}' {args}", env!("CARGO_BIN_EXE_rsatool"));
    let out = std::process::Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .current_dir(dir)
        .output();
    match out {
        Ok(o) if o.status.success() => Some(o),
        _ => {
            eprintln!("note: util-linux script is not usable here; the terminal check is skipped");
            None
        }
    }
}

#[test]
fn keygen_shows_a_spinner_on_a_terminal_from_4096_bits_only() {
    let dir = scratch();
    let d = dir.path();
    let Some(big) = on_a_terminal(d, "keygen --bits 4096 -o big.pem") else {
        return;
    };
    let text = String::from_utf8_lossy(&big.stdout);
    assert!(text.contains("generating a 4096-bit RSA key"), "{text:?}");
    assert!(
        fs::read(d.join("big.pem"))
            .expect("key")
            .starts_with(b"-----BEGIN PRIVATE KEY-----")
    );
    let small = on_a_terminal(d, "keygen --bits 2048 -o small.pem").expect("script ran before");
    let text = String::from_utf8_lossy(&small.stdout);
    assert!(
        !text.contains("generating"),
        "no spinner below 4096 bits: {text:?}"
    );
    assert!(d.join("small.pem").exists());
}

/// The pids of `rsatool` processes among the children of `pid` (from /proc).
fn rsatool_children(pid: u32) -> Vec<u32> {
    let children =
        fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap_or_default();
    children
        .split_whitespace()
        .filter_map(|c| c.parse::<u32>().ok())
        .filter(|c| {
            fs::read_to_string(format!("/proc/{c}/comm")).is_ok_and(|comm| comm.trim() == "rsatool")
        })
        .collect()
}

#[test]
fn ctrl_c_during_keygen_leaves_the_terminal_on_a_new_line() {
    // The spinner's line must not be left without its newline.
    let dir = scratch();
    let d = dir.path();
    let cmd = format!(
        "'{}' keygen --bits 16384 -o big.pem",
        env!("CARGO_BIN_EXE_rsatool")
    );
    let Ok(child) = std::process::Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .current_dir(d)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .spawn()
    else {
        eprintln!("note: util-linux script is not usable here; the Ctrl-C check is skipped");
        return;
    };
    // Wait for the spinner, then interrupt the key generation (by its pid, as a terminal's
    // Ctrl-C would).
    let mut interrupted = false;
    for _ in 0..100 {
        std::thread::sleep(std::time::Duration::from_millis(50));
        let pids = rsatool_children(child.id());
        if let Some(pid) = pids.first() {
            std::thread::sleep(std::time::Duration::from_millis(500));
            let status = std::process::Command::new("kill")
                .args(["-INT", &pid.to_string()])
                .status()
                .expect("kill runs");
            interrupted = status.success();
            break;
        }
    }
    let out = child.wait_with_output().expect("script ends");
    if !interrupted {
        eprintln!("note: could not find the rsatool process under script; skipped");
        return;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("generating a 16384-bit RSA key"), "{text:?}");
    assert!(
        text.ends_with('\n'),
        "the last line is ended: {:?}",
        &text[text.len().saturating_sub(120)..]
    );
    assert!(
        text.contains("rsatool: interrupted"),
        "{:?}",
        &text[text.len().saturating_sub(120)..]
    );
    assert!(!d.join("big.pem").exists(), "no key file");
}

#[test]
fn a_key_below_1024_bits_is_refused_naming_its_size() {
    let Some(dir) = scratch_with_openssl_key(512, &[], "small.pem") else {
        return;
    };
    let d = dir.path();
    for cmd in [
        &["pubkey", "-k", "small.pem"][..],
        &[
            "sign",
            "-k",
            "small.pem",
            "--scheme",
            "pss",
            "-i",
            "small.pem",
        ][..],
    ] {
        rsatool_fails(d, cmd, 2, &["small.pem", "512 bits", "1024"]);
    }
}

// `%` below picks positions in a test file: public values, no timing concern.
#[allow(clippy::integer_division_remainder_used)]
#[test]
fn mutated_key_files_give_exit_0_or_one_error_line_never_a_crash() {
    // Private keys in DER and PEM with bytes flipped, cut or inserted, through pubkey (which
    // takes any key) and sign (which validates the private key). A mutation may leave a valid
    // key (a changed public modulus is still a public key), so exit 0 is allowed; anything
    // else must be exit 2 with one line.
    let dir = scratch();
    let d = dir.path();
    let pem = fs::read(key(1024)).expect("key");
    let der = rsatool(&["pubkey", "-k", s(key(1024)), "--format", "der"]).stdout;
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |bound: usize| {
        // xorshift64*.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let r = state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33;
        usize::try_from(r).expect("fits") % bound.max(1)
    };
    fs::write(d.join("msg"), b"m").expect("write");
    for round in 0..60 {
        let base = if round & 1 == 0 { &pem } else { &der };
        let mut bytes = base.clone();
        match next(3) {
            0 => {
                for _ in 0..=next(4) {
                    let i = next(bytes.len());
                    bytes[i] ^= 1 << next(8);
                }
            }
            1 => bytes.truncate(next(bytes.len())),
            _ => {
                let i = next(bytes.len());
                bytes.insert(i, u8::try_from(next(256)).expect("byte"));
            }
        }
        fs::write(d.join("k"), &bytes).expect("write");
        for args in [
            &["pubkey", "-k", "k"][..],
            &["sign", "-k", "k", "--scheme", "pss", "-i", "msg"][..],
        ] {
            let out = rsatool_in(d, args, None);
            if out.status.code() != Some(0) {
                assert_failure(&out, 2, &["k: "]);
            }
        }
    }
}
