//! Setting (c): tokio-rustls. The server runs on a multi-threaded tokio runtime with the
//! default worker threads (one per core, as `#[tokio::main]` makes it): a task accepts on a
//! loopback listener and spawns a task per connection, which makes the handshake
//! (`TlsAcceptor`), reads the client's byte, answers one and shuts the stream down
//! (close_notify). The load: `--tasks` client tasks on a second runtime of this process (also
//! with the default workers), each connecting, making the handshake (`TlsConnector`), sending
//! a byte and reading the answer, one connection after another.
//!
//! Windows as in setting (b): `--seconds` after a warm-up of a fifth of that, the servers
//! alternated, `--rounds` each; the table gives the best rate and the median, and the
//! process's CPU time per handshake and the cores it kept busy (medians): both runtimes are in
//! this process, so that is the CPU of server and load together.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::runtime::Runtime;
use tokio_rustls::{TlsAcceptor, TlsConnector};

use super::setup::{Client, Server, server_name};
use super::stats::{Spread, process_cpu_time, spread};

/// One server's figures over its windows.
pub struct Row {
    /// The server's row name.
    pub name: &'static str,
    /// Handshakes per second.
    pub rate: Spread,
    /// This process's CPU µs per handshake (server and clients), the median window.
    pub cpu_us: f64,
    /// Cores this process kept busy, the median window.
    pub cores: f64,
}

/// One window's figures.
#[derive(Clone, Copy)]
struct Window {
    rate: f64,
    cpu_us: f64,
    cores: f64,
}

/// A multi-threaded runtime with tokio's defaults (a worker per core).
fn runtime() -> Result<Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("tokio runtime: {e}"))
}

/// The first error of a window.
type FirstError = Arc<std::sync::Mutex<Option<String>>>;

fn set(error: &FirstError, e: String) {
    error
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get_or_insert(e);
}

/// Reads one byte from `tls` and checks that it is `expected`, the byte `peer` sends.
async fn read_byte(
    tls: &mut (impl AsyncRead + Unpin),
    expected: u8,
    peer: &str,
) -> Result<(), String> {
    let mut byte = [0u8];
    tls.read_exact(&mut byte)
        .await
        .map_err(|e| format!("read: {e}"))?;
    if byte != [expected] {
        return Err(format!("read {byte:?} from the {peer}"));
    }
    Ok(())
}

/// One connection, server side.
async fn serve(acceptor: TlsAcceptor, stream: TcpStream) -> Result<(), String> {
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let mut tls = acceptor
        .accept(stream)
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    read_byte(&mut tls, b'c', "client").await?;
    tls.write_all(b"s").await.map_err(|e| e.to_string())?;
    tls.shutdown().await.map_err(|e| e.to_string())
}

/// One connection, client side, checked.
async fn connect(addr: std::net::SocketAddr, client: &Client) -> Result<(), String> {
    let tcp = TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    tcp.set_nodelay(true).map_err(|e| e.to_string())?;
    let (config, recorder) = client.connection_config();
    let mut tls = TlsConnector::from(config)
        .connect(server_name(), tcp)
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    tls.write_all(b"c").await.map_err(|e| e.to_string())?;
    tls.flush().await.map_err(|e| e.to_string())?;
    read_byte(&mut tls, b's', "server").await?;
    recorder.seen.check(tls.get_ref().1, client.scheme)?;
    // The server's close_notify: the end of the stream, then the client closes.
    let mut byte = [0u8];
    match tls.read(&mut byte).await {
        Ok(0) => Ok(()),
        Ok(_) => Err("more data after the answer".to_owned()),
        Err(e) => Err(format!("close: {e}")),
    }
}

/// One window of `server` under `tasks` client tasks: handshakes per second over `time`.
fn window(
    server: &Server,
    client: &Arc<Client>,
    tasks: usize,
    time: Duration,
) -> Result<Window, String> {
    let server_rt = runtime()?;
    let client_rt = runtime()?;
    let listener = server_rt
        .block_on(TcpListener::bind("127.0.0.1:0"))
        .map_err(|e| format!("listen: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let error = FirstError::default();
    let acceptor = TlsAcceptor::from(Arc::clone(&server.config));
    let server_error = Arc::clone(&error);
    server_rt.spawn(async move {
        loop {
            match listener.accept().await {
                Ok((stream, _)) => {
                    let (acceptor, error) = (acceptor.clone(), Arc::clone(&server_error));
                    tokio::spawn(async move {
                        if let Err(e) = serve(acceptor, stream).await {
                            set(&error, format!("server: {e}"));
                        }
                    });
                }
                Err(e) => {
                    set(&server_error, format!("accept: {e}"));
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            }
        }
    });
    let stop = Arc::new(AtomicBool::new(false));
    let count = Arc::new(AtomicU64::new(0));
    let handles: Vec<_> = (0..tasks)
        .map(|_| {
            let (client, stop, count, error) = (
                Arc::clone(client),
                Arc::clone(&stop),
                Arc::clone(&count),
                Arc::clone(&error),
            );
            client_rt.spawn(async move {
                while !stop.load(Relaxed) {
                    match connect(addr, &client).await {
                        Ok(()) => {
                            count.fetch_add(1, Relaxed);
                        }
                        Err(e) => {
                            set(&error, format!("client: {e}"));
                            stop.store(true, Relaxed);
                        }
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(time / 5);
    let (c0, p0, t0) = (count.load(Relaxed), process_cpu_time(), Instant::now());
    std::thread::sleep(time);
    let (c1, p1, t1) = (count.load(Relaxed), process_cpu_time(), Instant::now());
    stop.store(true, Relaxed);
    client_rt.block_on(async {
        for h in handles {
            let _ = h.await;
        }
    });
    drop(client_rt);
    server_rt.shutdown_timeout(Duration::from_secs(2));
    let error = error
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    match error {
        Some(e) => Err(e),
        None => Ok(Window {
            rate: (c1 - c0) as f64 / (t1 - t0).as_secs_f64(),
            cpu_us: (p1 - p0).as_secs_f64() * 1e6 / (c1 - c0).max(1) as f64,
            cores: (p1 - p0).as_secs_f64() / (t1 - t0).as_secs_f64(),
        }),
    }
}

/// Every server, `rounds` windows each, alternated.
pub fn run(
    servers: &[Server],
    client: &Arc<Client>,
    tasks: usize,
    time: Duration,
    rounds: usize,
) -> Result<Vec<Row>, String> {
    let mut windows: Vec<Vec<Window>> = vec![Vec::new(); servers.len()];
    let mut order: Vec<usize> = (0..servers.len()).collect();
    for _ in 0..rounds {
        for &i in &order {
            let w = window(&servers[i], client, tasks, time)
                .map_err(|e| format!("(c) {}: {e}", servers[i].name))?;
            windows[i].push(w);
        }
        order.rotate_left(1);
    }
    Ok(servers
        .iter()
        .zip(&windows)
        .map(|(s, w)| {
            let of = |f: fn(&Window) -> f64| w.iter().map(f).collect::<Vec<_>>();
            Row {
                name: s.name,
                rate: spread(&of(|w| w.rate)),
                cpu_us: spread(&of(|w| w.cpu_us)).median,
                cores: spread(&of(|w| w.cores)).median,
            }
        })
        .collect())
}
