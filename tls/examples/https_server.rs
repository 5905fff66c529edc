//! An HTTPS server on localhost whose RSA key signs its handshakes through rsatool-rustls.
//!
//! ```text
//! cargo run --release -p rsatool-rustls --example https_server -- \
//!     --cert CERT.pem --key KEY.pem --addr 127.0.0.1:8443 [--coalesce]
//! curl --cacert CA.pem https://localhost:8443/
//! ```
//!
//! `--cert` is a PEM file of the certificate chain (the server's certificate first), `--key`
//! its private key in PEM (`PRIVATE KEY` or `RSA PRIVATE KEY`; an EC key goes to ring's key
//! provider). `--addr` defaults to 127.0.0.1:8443; a port of 0 takes a free one. The server
//! prints `listening on ADDRESS` once it accepts connections, answers each GET with a short
//! page that names the TLS version and cipher suite, and runs until it is stopped. Blocking
//! `std::net`, one thread per connection. `--coalesce` loads the key with
//! [`RsaKeyProvider::coalescing`]: handshakes on more threads than cores then sign together.
//! Bad arguments or files: one line on stderr, exit status 2.
//!
//! The base provider here is ring (a dev-dependency of this crate, so that the example builds
//! without aws-lc-sys). For aws-lc-rs, depend on rustls with its `aws_lc_rs` feature (its
//! default) and write `rustls::crypto::aws_lc_rs::default_provider()` in `server_config`
//! instead of ring's; nothing else changes.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use rsatool_rustls::RsaKeyProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{ServerConfig, ServerConnection, StreamOwned};

const USAGE: &str = "usage: https_server --cert CERT.pem --key KEY.pem [--addr HOST:PORT] \
                     [--coalesce] [--help]";

/// The command line.
struct Args {
    cert: String,
    key: String,
    addr: String,
    coalesce: bool,
}

fn parse_args() -> Result<Option<Args>, String> {
    let (mut cert, mut key, mut addr, mut coalesce) = (None, None, None, false);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--cert" => cert = Some(value("--cert")?),
            "--key" => key = Some(value("--key")?),
            "--addr" => addr = Some(value("--addr")?),
            "--coalesce" => coalesce = true,
            "--help" | "-h" => return Ok(None),
            other => return Err(format!("unknown argument {other:?} ({USAGE})")),
        }
    }
    Ok(Some(Args {
        cert: cert.ok_or(format!("--cert is required ({USAGE})"))?,
        key: key.ok_or(format!("--key is required ({USAGE})"))?,
        addr: addr.unwrap_or_else(|| "127.0.0.1:8443".into()),
        coalesce,
    }))
}

/// ring with this crate's key provider and RSA verification; the certificate and key loaded.
fn server_config(args: &Args) -> Result<ServerConfig, String> {
    let certs = CertificateDer::pem_file_iter(&args.cert)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("cannot read certificates from {}: {e}", args.cert))?;
    if certs.is_empty() {
        return Err(format!("no CERTIFICATE in {}", args.cert));
    }
    let key = PrivateKeyDer::from_pem_file(&args.key)
        .map_err(|e| format!("cannot read a private key from {}: {e}", args.key))?;
    let keys = match args.coalesce {
        true => RsaKeyProvider::new().coalescing(),
        false => RsaKeyProvider::new(),
    };
    // ring is deprecated in rustls for lacking post-quantum key exchange; it stands here for
    // any base provider (see the module documentation for aws-lc-rs).
    #[allow(deprecated)]
    let base = rustls::crypto::ring::default_provider();
    let provider = rsatool_rustls::provider(base, keys);
    ServerConfig::builder_with_provider(Arc::new(provider))
        .with_safe_default_protocol_versions()
        .and_then(|builder| builder.with_no_client_auth().with_single_cert(certs, key))
        .map_err(|e| format!("{} and {}: {e}", args.cert, args.key))
}

/// One connection: the handshake, one request, one answer, close_notify.
fn serve(config: Arc<ServerConfig>, tcp: TcpStream) -> Result<(), String> {
    tcp.set_read_timeout(Some(Duration::from_secs(10)))
        .and_then(|()| tcp.set_write_timeout(Some(Duration::from_secs(10))))
        .map_err(|e| e.to_string())?;
    let conn = ServerConnection::new(config).map_err(|e| e.to_string())?;
    let mut tls = BufReader::new(StreamOwned::new(conn, tcp));

    // The request line, then headers up to the empty line (at most 100 lines of 8 KiB).
    let mut request_line = String::new();
    tls.by_ref()
        .take(8192)
        .read_line(&mut request_line)
        .map_err(|e| format!("reading the request: {e}"))?;
    for _ in 0..100 {
        let mut line = String::new();
        let n = tls
            .by_ref()
            .take(8192)
            .read_line(&mut line)
            .map_err(|e| format!("reading the headers: {e}"))?;
        if n == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }

    let tls = tls.get_mut();
    let (status, body) = if request_line.starts_with("GET ") {
        let version = tls.conn.protocol_version().map(|v| format!("{v:?}"));
        let suite = tls
            .conn
            .negotiated_cipher_suite()
            .map(|s| format!("{:?}", s.suite()));
        let body = format!(
            "<!doctype html>\n<title>rsatool-rustls</title>\n<p>Hello from rsatool-rustls: \
             {} with {}, the handshake signed by rsatool's RSA.</p>\n",
            version.as_deref().unwrap_or("?"),
            suite.as_deref().unwrap_or("?"),
        );
        ("200 OK", body)
    } else {
        ("405 Method Not Allowed", "GET only\n".to_string())
    };
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    tls.write_all(response.as_bytes())
        .map_err(|e| format!("writing the answer: {e}"))?;
    tls.conn.send_close_notify();
    tls.flush().map_err(|e| format!("closing: {e}"))
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(Some(args)) => args,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => return fail(&e),
    };
    let config = match server_config(&args) {
        Ok(config) => Arc::new(config),
        Err(e) => return fail(&e),
    };
    let listener = match TcpListener::bind(&args.addr) {
        Ok(listener) => listener,
        Err(e) => return fail(&format!("cannot listen on {}: {e}", args.addr)),
    };
    match listener.local_addr() {
        Ok(addr) => println!("listening on {addr}"),
        Err(e) => return fail(&format!("cannot read the bound address: {e}")),
    }
    // Stdout may be a pipe that a script reads the address from.
    let _ = std::io::stdout().flush();
    for tcp in listener.incoming() {
        match tcp {
            Ok(tcp) => {
                let config = Arc::clone(&config);
                std::thread::spawn(move || {
                    let peer = tcp.peer_addr().map_or("?".into(), |a| a.to_string());
                    if let Err(e) = serve(config, tcp) {
                        eprintln!("https_server: {peer}: {e}");
                    }
                });
            }
            Err(e) => eprintln!("https_server: accept: {e}"),
        }
    }
    ExitCode::SUCCESS
}

/// One line on stderr, exit status 2.
fn fail(message: &str) -> ExitCode {
    eprintln!("https_server: {message}");
    ExitCode::from(2)
}
