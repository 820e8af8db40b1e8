//! Peak heap memory of one client call whose response is close to the 32 MiB limit, and
//! of one over it, measured with a counting global allocator.
//!
//! The response is `EXPERIMENTAL_view_code` with a large `code_base64`, served from
//! loopback with a `content-length` and chunked (no length: the buffer grows). For each,
//! the peak is reported as a multiple of the body size; the baseline is a raw reqwest
//! POST whose body is read whole and parsed into `serde_json::Value`.
//!
//! ```sh
//! cd benches && cargo run --release --example peak_memory
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};

use near_rpc::types::RpcViewCodeRequest;
use near_rpc::{methods, Client, Finality};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = CURRENT.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A realloc may move: count the new block before the old one is freed.
        let now = CURRENT.fetch_add(new_size, Ordering::Relaxed) + new_size;
        PEAK.fetch_max(now, Ordering::Relaxed);
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Serves `body` to every request, with a content-length or chunked.
fn serve(body: Vec<u8>, chunked: bool) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            let mut stream = stream;
            let mut length = 0;
            let mut line = String::new();
            loop {
                line.clear();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                if line == "\r\n" {
                    break;
                }
            }
            let mut request = vec![0; length];
            let _ = reader.read_exact(&mut request);
            if chunked {
                let head = "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n";
                let _ = stream.write_all(head.as_bytes());
                for chunk in body.chunks(16 * 1024) {
                    let _ = stream.write_all(format!("{:x}\r\n", chunk.len()).as_bytes());
                    let _ = stream.write_all(chunk);
                    let _ = stream.write_all(b"\r\n");
                }
                let _ = stream.write_all(b"0\r\n\r\n");
            } else {
                let head = format!(
                    "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body);
            }
        }
    });
    url
}

fn view_code_body(code_len: usize) -> Vec<u8> {
    format!(
        r#"{{"jsonrpc":"2.0","id":"1","result":{{"block_hash":"11111111111111111111111111111111","block_height":1,"hash":"11111111111111111111111111111111","code_base64":"{}"}}}}"#,
        "A".repeat(code_len)
    )
    .into_bytes()
}

/// The peak heap above what was in use before `f` ran.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = CURRENT.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed) - before)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let limit = near_rpc::client::transport::DEFAULT_MAX_RESPONSE_BYTES;
    let mib = |n: usize| n as f64 / (1024.0 * 1024.0);
    let request = || RpcViewCodeRequest {
        account_id: "alice.near".parse().unwrap(),
        block_reference: Finality::Final.into(),
    };
    println!("| response | body | near-rpc peak | × body | reqwest + Value peak | × body |");
    println!("|---|---|---|---|---|---|");
    for (name, code_len) in [("at the limit", limit - 300), ("over the limit", limit + 1)] {
        let body = view_code_body(code_len);
        let size = body.len();
        for chunked in [false, true] {
            let url = serve(body.clone(), chunked);
            let client = Client::new(&url).expect("client");
            let (outcome, ours) = peak_of(|| {
                runtime.block_on(client.call::<methods::ExperimentalViewCodeMethod>(request()))
            });
            let ok = match &outcome {
                Ok(view) => view.code_base64.len() == code_len,
                Err(e) => e.to_string().contains("larger than"),
            };
            assert!(ok, "{name}: {:?}", outcome.as_ref().map(|_| ()));
            drop(outcome);
            let http = reqwest::Client::new();
            let (value, raw) = peak_of(|| {
                runtime.block_on(async {
                    let response = http.post(&url).body("{}").send().await.expect("send");
                    let bytes = response.bytes().await.expect("body");
                    serde_json::from_slice::<serde_json::Value>(&bytes).expect("JSON")
                })
            });
            drop(value);
            let style = if chunked { "chunked" } else { "content-length" };
            println!(
                "| {name}, {style} | {:.1} MiB | {:.1} MiB | {:.2} | {:.1} MiB | {:.2} |",
                mib(size),
                mib(ours),
                ours as f64 / size as f64,
                mib(raw),
                raw as f64 / size as f64
            );
        }
    }
}
