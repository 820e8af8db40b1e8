//! Floods a mock server (`near-rpc mock`, or the `serve` example) with the largest
//! requests it accepts: `COUNT` bodies of exactly
//! [`ServerOptions::MAX_BODY_BYTES`] from `CONNECTIONS` concurrent clients, each sending
//! every other request on a new connection and the rest on one kept alive, then a
//! count of the answers by status. The peak memory of the server it floods is what
//! BENCHMARKS.md reports (`scripts/mock-memory.sh` runs both):
//!
//! ```sh
//! cargo run --release -p near-rpc-mock --example flood -- URL [COUNT] [CONNECTIONS] [KIND]
//! ```
//!
//! `KIND` is the body: `string` (default; a `send_tx` whose base64 is one 16 MiB
//! string, which the node parses and decodes before refusing it), `strings` (a `query`
//! whose params are 262,135 strings of 60 bytes: as many values as a body may hold,
//! each its own allocation once parsed) or `values` (`[0,0,...]`, refused before it is
//! parsed).

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Instant;

use near_rpc_mock::ServerOptions;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let url = args
        .next()
        .ok_or("usage: flood URL [COUNT] [CONNECTIONS] [KIND]")?;
    let count: usize = args.next().map_or(Ok(200), |a| a.parse())?;
    let connections: usize = args.next().map_or(Ok(1), |a| a.parse())?;
    let kind = args.next().unwrap_or_else(|| "string".to_owned());
    let address = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let body = body(&kind)?;
    assert_eq!(body.len(), ServerOptions::MAX_BODY_BYTES);
    let body = std::sync::Arc::new(body);
    let started = Instant::now();
    let workers: Vec<_> = (0..connections)
        .map(|worker| {
            let (address, body) = (address.clone(), body.clone());
            // Requests spread evenly; the first workers take the remainder.
            let share = count / connections + usize::from(worker < count % connections);
            std::thread::spawn(move || flood(&address, &body, share))
        })
        .collect();
    let mut statuses = BTreeMap::new();
    for worker in workers {
        for (status, n) in worker.join().map_err(|_| "a worker panicked")?? {
            *statuses.entry(status).or_insert(0) += n;
        }
    }
    println!(
        "{count} bodies of {} bytes ({kind}) from {connections} connections in {:.1} s; answers by status: {statuses:?}",
        body.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// A body of exactly the largest accepted size.
fn body(kind: &str) -> Result<Vec<u8>, String> {
    let size = ServerOptions::MAX_BODY_BYTES;
    let (open, close, fill): (&str, &str, &dyn Fn(usize) -> String) = match kind {
        "string" => (
            r#"{"jsonrpc":"2.0","id":1,"method":"send_tx","params":{"wait_until":"NONE","signed_tx_base64":""#,
            r#""}}"#,
            &|n| "A".repeat(n),
        ),
        "strings" => (
            r#"{"jsonrpc":"2.0","id":1,"method":"query","params":["#,
            "]}",
            &|n| {
                // As many strings of 60 bytes as the bound leaves beside the envelope's
                // nine (the body, the params, four members, three commas), the first
                // padded to the size.
                let values = ServerOptions::MAX_JSON_VALUES - 9;
                let each = format!("\"{}\",", "s".repeat(60));
                let mut text = each.repeat(values);
                text.pop();
                let pad = n.saturating_sub(text.len());
                text.insert_str(1, &"s".repeat(pad));
                text
            },
        ),
        "values" => (
            r#"{"jsonrpc":"2.0","id":1,"method":"query","params":["#,
            "]}",
            &|n| {
                // A leading space makes up an even length.
                let mut text = " ".repeat(1 - n % 2);
                text.push_str(&"0,".repeat((n - 1) / 2));
                text.push('0');
                text
            },
        ),
        other => return Err(format!("KIND is string, strings or values, not {other}")),
    };
    let mut body = String::with_capacity(size);
    body.push_str(open);
    body.push_str(&fill(size - open.len() - close.len()));
    body.push_str(close);
    if body.len() != size {
        return Err(format!("the {kind} body came out at {} bytes", body.len()));
    }
    Ok(body.into_bytes())
}

/// Sends `count` requests, every other one on a new connection; answers by status.
fn flood(address: &str, body: &[u8], count: usize) -> Result<BTreeMap<u16, usize>, String> {
    let mut statuses = BTreeMap::new();
    let mut kept: Option<TcpStream> = None;
    for n in 0..count {
        let fresh = n % 2 == 1;
        let mut stream = match (fresh, kept.take()) {
            (false, Some(stream)) => stream,
            _ => TcpStream::connect(address).map_err(|e| format!("connect: {e}"))?,
        };
        let head = format!(
            "POST / HTTP/1.1\r\nhost: {address}\r\ncontent-type: application/json\r\nconnection: {}\r\ncontent-length: {}\r\n\r\n",
            if fresh { "close" } else { "keep-alive" },
            body.len()
        );
        stream
            .write_all(head.as_bytes())
            .and_then(|()| stream.write_all(body))
            .map_err(|e| format!("send: {e}"))?;
        let (status, open) = answer(&mut stream)?;
        *statuses.entry(status).or_insert(0) += 1;
        if !fresh && open {
            kept = Some(stream);
        }
    }
    Ok(statuses)
}

/// Reads one answer; its status, and whether the connection stays open.
fn answer(stream: &mut TcpStream) -> Result<(u16, bool), String> {
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        if let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&bytes[..end]).to_ascii_lowercase();
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length: "))
                .and_then(|n| n.parse().ok())
                .ok_or("an answer without a content-length")?;
            if bytes.len() >= end + 4 + length {
                let status = head
                    .split(' ')
                    .nth(1)
                    .and_then(|s| s.parse().ok())
                    .ok_or("an answer without a status")?;
                return Ok((status, head.contains("connection: keep-alive")));
            }
        }
        let n = stream.read(&mut chunk).map_err(|e| format!("read: {e}"))?;
        if n == 0 {
            return Err("the server closed before its answer ended".to_owned());
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
}
