//! Setting (b): blocking loopback TCP. A server of N threads shares one `std::net` listener on
//! 127.0.0.1; each thread accepts a connection, makes the handshake (rustls's `StreamOwned`),
//! reads the client's byte, answers one, sends close_notify, closes, and accepts the next.
//! The load: `--clients` threads of this process (the same number for every N, so only the
//! server changes), each connecting, making the handshake, sending a byte and reading the
//! answer, one connection after another.
//!
//! A window runs for `--seconds` after a warm-up of a fifth of that; the rate is the
//! handshakes completed inside the window over its length. Each connection's CPU time on
//! each side (the thread's CPU clock around the server's and the client's work on it, kernel
//! time included) is added up too, for the CPU per handshake of the server and of the load.
//! The windows of the servers alternate, `--rounds` of them each; the table gives the best
//! rate and the median, and the median CPU per handshake.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rustls::{ServerConnection, StreamOwned};

use super::setup::{Client, Server};
use super::stats::{Spread, process_cpu_time, spread, thread_cpu_time};

/// One server thread count: each server's figures over the windows.
pub struct Row {
    /// Server threads.
    pub threads: usize,
    /// Each server's row name and figures, in the servers' order.
    pub cells: Vec<(&'static str, Cell)>,
}

/// One server's figures at one thread count.
#[derive(Clone, Copy)]
pub struct Cell {
    /// Handshakes per second.
    pub rate: Spread,
    /// CPU µs per handshake of the server's threads (their connections' time on their CPU
    /// clocks, kernel time included), the median window.
    pub server_us: f64,
    /// The same of the client threads.
    pub client_us: f64,
    /// Cores this process kept busy (its CPU time over the window's), the median window.
    pub cores: f64,
}

/// One window's figures.
#[derive(Clone, Copy)]
struct Window {
    rate: f64,
    server_us: f64,
    client_us: f64,
    cores: f64,
}

/// A counter of handshakes and the CPU nanoseconds of the connections on each side.
#[derive(Default)]
struct Counters {
    handshakes: AtomicU64,
    server_ns: AtomicU64,
    client_ns: AtomicU64,
}

impl Counters {
    fn sample(&self) -> (u64, u64, u64, Duration, Instant) {
        (
            self.handshakes.load(Relaxed),
            self.server_ns.load(Relaxed),
            self.client_ns.load(Relaxed),
            process_cpu_time(),
            Instant::now(),
        )
    }
}

/// Adds the thread CPU time of `f` to `ns`.
fn cpu_timed<T>(ns: &AtomicU64, f: impl FnOnce() -> T) -> T {
    let t = thread_cpu_time();
    let r = f();
    let spent = thread_cpu_time().saturating_sub(t);
    ns.fetch_add(u64::try_from(spent.as_nanos()).unwrap_or(u64::MAX), Relaxed);
    r
}

/// The first error of a window, which ends it without a figure.
#[derive(Default)]
struct FirstError(Mutex<Option<String>>);

impl FirstError {
    fn set(&self, e: String) {
        let mut slot = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        slot.get_or_insert(e);
    }

    fn take(&self) -> Option<String> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }
}

/// One connection, server side.
fn serve(stream: TcpStream, server: &Server) -> Result<(), String> {
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let conn =
        ServerConnection::new(std::sync::Arc::clone(&server.config)).map_err(|e| e.to_string())?;
    let mut tls = StreamOwned::new(conn, stream);
    let mut byte = [0u8];
    tls.read_exact(&mut byte)
        .map_err(|e| format!("handshake or read: {e}"))?;
    if byte != *b"c" {
        return Err(format!("read {byte:?} from the client"));
    }
    tls.write_all(b"s").map_err(|e| e.to_string())?;
    tls.conn.send_close_notify();
    tls.flush().map_err(|e| e.to_string())
}

/// One connection, client side, checked.
fn connect(addr: SocketAddr, client: &Client) -> Result<(), String> {
    let stream = TcpStream::connect(addr).map_err(|e| format!("connect: {e}"))?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let (conn, recorder) = client.connection()?;
    let mut tls = StreamOwned::new(conn, stream);
    tls.write_all(b"c")
        .and_then(|()| tls.flush())
        .map_err(|e| format!("handshake or write: {e}"))?;
    let mut byte = [0u8];
    tls.read_exact(&mut byte)
        .map_err(|e| format!("read: {e}"))?;
    if byte != *b"s" {
        return Err(format!("read {byte:?} from the server"));
    }
    recorder.seen.check(&tls.conn, client.scheme)?;
    // The server's close_notify: the end of the stream, then the client closes.
    match tls.read(&mut byte) {
        Ok(0) => Ok(()),
        Ok(_) => Err("more data after the answer".to_owned()),
        Err(e) => Err(format!("close: {e}")),
    }
}

/// One window: `server` on `threads` threads, `clients` client threads, handshakes per
/// second over `time` after a warm-up of a fifth of it.
fn window(
    server: &Server,
    client: &Client,
    threads: usize,
    clients: usize,
    time: Duration,
) -> Result<Window, String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("listen: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let stop_servers = AtomicBool::new(false);
    let stop_clients = AtomicBool::new(false);
    let counters = Counters::default();
    let error = FirstError::default();
    let window = std::thread::scope(|s| {
        let servers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    while let Ok((stream, _)) = listener.accept() {
                        if stop_servers.load(Relaxed) {
                            return;
                        }
                        if let Err(e) = cpu_timed(&counters.server_ns, || serve(stream, server)) {
                            error.set(format!("server: {e}"));
                        }
                    }
                    error.set("server: accept failed".to_owned());
                })
            })
            .collect();
        let clients: Vec<_> = (0..clients)
            .map(|_| {
                s.spawn(|| {
                    while !stop_clients.load(Relaxed) {
                        match cpu_timed(&counters.client_ns, || connect(addr, client)) {
                            Ok(()) => {
                                counters.handshakes.fetch_add(1, Relaxed);
                            }
                            Err(e) => {
                                error.set(format!("client: {e}"));
                                stop_clients.store(true, Relaxed);
                            }
                        }
                    }
                })
            })
            .collect();
        std::thread::sleep(time / 5);
        let (h0, s0, c0, p0, t0) = counters.sample();
        std::thread::sleep(time);
        let (h1, s1, c1, p1, t1) = counters.sample();
        stop_clients.store(true, Relaxed);
        for c in clients {
            let _ = c.join();
        }
        // Each server thread takes one of these connections, sees the flag and returns.
        stop_servers.store(true, Relaxed);
        for _ in 0..threads {
            let _ = TcpStream::connect(addr);
        }
        for t in servers {
            let _ = t.join();
        }
        let n = (h1 - h0).max(1) as f64;
        Window {
            rate: (h1 - h0) as f64 / (t1 - t0).as_secs_f64(),
            server_us: (s1 - s0) as f64 / 1e3 / n,
            client_us: (c1 - c0) as f64 / 1e3 / n,
            cores: (p1 - p0).as_secs_f64() / (t1 - t0).as_secs_f64(),
        }
    });
    match error.take() {
        Some(e) => Err(e),
        None => Ok(window),
    }
}

/// Every server at every thread count of `threads`, `rounds` windows each, the servers
/// alternated within each thread count.
pub fn run(
    servers: &[Server],
    client: &Client,
    threads: &[usize],
    clients: usize,
    time: Duration,
    rounds: usize,
) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for &n in threads {
        eprintln!("handshakes: (b) {n} server threads ...");
        let mut windows: Vec<Vec<Window>> = vec![Vec::new(); servers.len()];
        let mut order: Vec<usize> = (0..servers.len()).collect();
        for _ in 0..rounds {
            for &i in &order {
                let w = window(&servers[i], client, n, clients, time)
                    .map_err(|e| format!("(b) {} on {n} threads: {e}", servers[i].name))?;
                windows[i].push(w);
            }
            order.rotate_left(1);
        }
        rows.push(Row {
            threads: n,
            cells: servers
                .iter()
                .zip(&windows)
                .map(|(s, w)| {
                    let of = |f: fn(&Window) -> f64| w.iter().map(f).collect::<Vec<_>>();
                    let cell = Cell {
                        rate: spread(&of(|w| w.rate)),
                        server_us: spread(&of(|w| w.server_us)).median,
                        client_us: spread(&of(|w| w.client_us)).median,
                        cores: spread(&of(|w| w.cores)).median,
                    };
                    (s.name, cell)
                })
                .collect(),
        });
    }
    Ok(rows)
}
