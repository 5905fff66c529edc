//! Setting (a): one thread, in memory. A client connection and a server connection pump their
//! bytes through two buffers on one thread; only the server's calls are timed
//! (`ServerConnection::new`, `read_tls`, `process_new_packets`, `write_tls`), on the thread's
//! CPU clock (`CLOCK_THREAD_CPUTIME_ID`), so the figure is handshakes per second of the
//! server's CPU time. The client's calls are timed apart, for the report: on a loopback
//! machine the client shares the cores with the server.
//!
//! Each round runs one window per server, the servers in turn (the first one rotating from
//! round to round); a window is as many handshakes as fit in `--seconds` of wall time. The
//! table gives each server's best window and the median of its windows.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rustls::ServerConnection;

use super::setup::{Client, Server};
use super::stats::{Spread, spread, thread_cpu_time};

/// One server's figures.
pub struct Row {
    /// The server's row name.
    pub name: &'static str,
    /// Handshakes per second of server CPU time, over the windows.
    pub rate: Spread,
    /// Server µs per handshake in the best window.
    pub server_us: f64,
    /// Client µs per handshake, the median window.
    pub client_us: f64,
    /// The cipher suite negotiated.
    pub suite: String,
}

/// Time spent by each side.
#[derive(Default)]
struct Spent {
    server: Duration,
    client: Duration,
}

/// Adds the thread CPU time `f` takes to `to`.
fn timed<T>(to: &mut Duration, f: impl FnOnce() -> T) -> T {
    let t = thread_cpu_time();
    let r = f();
    *to += thread_cpu_time().saturating_sub(t);
    r
}

/// One full handshake between `client` and `server`, checked; the sides' times added to
/// `spent`. Returns the cipher suite negotiated.
fn handshake(
    server: &Server,
    client: &Client,
    bufs: &mut [Vec<u8>; 2],
    spent: &mut Spent,
) -> Result<String, String> {
    let (mut c, recorder) = timed(&mut spent.client, || client.connection())?;
    let mut s = timed(&mut spent.server, || {
        ServerConnection::new(Arc::clone(&server.config))
    })
    .map_err(|e| e.to_string())?;
    let [to_server, to_client] = bufs;
    for _ in 0..8 {
        to_server.clear();
        timed(&mut spent.client, || {
            while c.wants_write() {
                c.write_tls(to_server)?;
            }
            Ok::<_, std::io::Error>(())
        })
        .map_err(|e| format!("client write: {e}"))?;
        to_client.clear();
        timed(&mut spent.server, || {
            let mut rest = &to_server[..];
            while !rest.is_empty() {
                s.read_tls(&mut rest).map_err(|e| e.to_string())?;
                s.process_new_packets().map_err(|e| e.to_string())?;
            }
            while s.wants_write() {
                s.write_tls(to_client).map_err(|e| e.to_string())?;
            }
            Ok::<_, String>(())
        })
        .map_err(|e| format!("server: {e}"))?;
        timed(&mut spent.client, || {
            let mut rest = &to_client[..];
            while !rest.is_empty() {
                c.read_tls(&mut rest).map_err(|e| e.to_string())?;
                c.process_new_packets().map_err(|e| e.to_string())?;
            }
            Ok::<_, String>(())
        })
        .map_err(|e| format!("client: {e}"))?;
        if !c.is_handshaking() && !s.is_handshaking() {
            recorder.seen.check(&c, client.scheme)?;
            return Ok(c
                .negotiated_cipher_suite()
                .map_or_else(|| "?".to_owned(), |s| format!("{:?}", s.suite())));
        }
    }
    Err("the handshake stalled".to_owned())
}

/// One window of `time`: handshakes per second of server time, server and client µs per
/// handshake.
fn window(server: &Server, client: &Client, time: Duration) -> Result<(f64, f64, f64), String> {
    let mut bufs = [Vec::with_capacity(8192), Vec::with_capacity(8192)];
    let mut spent = Spent::default();
    let mut count = 0u32;
    let start = Instant::now();
    while start.elapsed() < time {
        handshake(server, client, &mut bufs, &mut spent)?;
        count += 1;
    }
    let n = f64::from(count);
    Ok((
        n / spent.server.as_secs_f64(),
        spent.server.as_secs_f64() * 1e6 / n,
        spent.client.as_secs_f64() * 1e6 / n,
    ))
}

/// A first handshake with each server, checked, outside any window (a server's first
/// signature may also choose the exponentiation engine's shape for its size); the cipher
/// suites negotiated.
pub fn check_each(servers: &[Server], client: &Client) -> Result<Vec<String>, String> {
    let mut spent = Spent::default();
    let mut bufs = [Vec::new(), Vec::new()];
    servers
        .iter()
        .map(|server| {
            handshake(server, client, &mut bufs, &mut spent)
                .map_err(|e| format!("{}: {e}", server.name))
        })
        .collect()
}

/// Every server's rows: `rounds` windows of `time` each, alternated.
pub fn run(
    servers: &[Server],
    client: &Client,
    time: Duration,
    rounds: usize,
) -> Result<Vec<Row>, String> {
    let suites = check_each(servers, client)?;
    let mut windows: Vec<Vec<(f64, f64, f64)>> = vec![Vec::new(); servers.len()];
    let mut order: Vec<usize> = (0..servers.len()).collect();
    for _ in 0..rounds {
        for &i in &order {
            let w = window(&servers[i], client, time)
                .map_err(|e| format!("{}: {e}", servers[i].name))?;
            windows[i].push(w);
        }
        order.rotate_left(1);
    }
    Ok(servers
        .iter()
        .zip(windows)
        .zip(suites)
        .map(|((server, w), suite)| {
            let rates: Vec<f64> = w.iter().map(|x| x.0).collect();
            let best = w
                .iter()
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .copied()
                .unwrap_or_default();
            let client_us: Vec<f64> = w.iter().map(|x| x.2).collect();
            Row {
                name: server.name,
                rate: spread(&rates),
                server_us: best.1,
                client_us: spread(&client_us).median,
                suite,
            }
        })
        .collect())
}
