//! Client overhead: a typed `Client::call` against a raw reqwest POST followed by
//! `serde_json::from_slice::<Value>`, both to the same keep-alive server on loopback,
//! side by side.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;

use criterion::{criterion_group, criterion_main, Criterion};
use near_rpc::types::RpcProtocolConfigRequest;
use near_rpc::{methods, Client, Finality};

/// A minimal HTTP/1.1 keep-alive server answering every request with `body`. It runs
/// until the benchmark process exits.
fn serve(body: Vec<u8>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let body = body.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().expect("clone"));
                let mut stream = stream;
                // One write per response, no Nagle: otherwise delayed ACKs add 40 ms to
                // every call and hide what is being measured.
                let _ = stream.set_nodelay(true);
                loop {
                    let mut length = 0usize;
                    let mut line = String::new();
                    // Headers, up to the blank line.
                    loop {
                        line.clear();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        let lower = line.to_ascii_lowercase();
                        if let Some(v) = lower.strip_prefix("content-length:") {
                            length = v.trim().parse().unwrap_or(0);
                        }
                        if line == "\r\n" {
                            break;
                        }
                    }
                    let mut request = vec![0u8; length];
                    if reader.read_exact(&mut request).is_err() {
                        return;
                    }
                    let body = echo_id(&body, &request);
                    let mut response = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
                        body.len()
                    )
                    .into_bytes();
                    response.extend_from_slice(&body);
                    if stream.write_all(&response).is_err() {
                        return;
                    }
                }
            });
        }
    });
    url
}

/// `body` with its `"@ID@"` placeholder replaced by the request's id (a short scan of
/// the small request; the response is spliced, not parsed).
fn echo_id(body: &[u8], request: &[u8]) -> Vec<u8> {
    let id = serde_json::from_slice::<serde_json::Value>(request)
        .ok()
        .and_then(|v| v.get("id").cloned())
        .unwrap_or(serde_json::Value::Null);
    let id = serde_json::to_vec(&id).expect("JSON");
    let placeholder = b"\"@ID@\"";
    match body.windows(placeholder.len()).position(|w| w == placeholder) {
        Some(at) => [&body[..at], &id[..], &body[at + placeholder.len()..]].concat(),
        None => body.to_vec(),
    }
}

fn client_overhead(c: &mut Criterion) {
    let payload = near_rpc_bench::recorded("EXPERIMENTAL_protocol_config")
        .into_iter()
        .max_by_key(|p| p.body.len())
        .expect("a recorded protocol config");
    // The client checks that the response's id is the request's: the server echoes it,
    // as nodes do, by filling the id into the recorded body.
    let mut template: serde_json::Value = serde_json::from_slice(&payload.body).expect("JSON");
    template["id"] = serde_json::Value::String("@ID@".into());
    let url = serve(serde_json::to_vec(&template).expect("JSON"));
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let client = Client::new(&url).expect("client");
    let raw = reqwest::Client::new();
    let params = || RpcProtocolConfigRequest {
        block_reference: Finality::Final.into(),
    };
    let request_body = serde_json::to_vec(&near_rpc::envelope::Request::new("EXPERIMENTAL_protocol_config", params())).unwrap();

    let mut group = c.benchmark_group("client overhead, EXPERIMENTAL_protocol_config over loopback");
    group.bench_function("near-rpc Client::call", |b| {
        b.iter(|| runtime.block_on(client.call::<methods::ExperimentalProtocolConfigMethod>(params())).unwrap())
    });
    group.bench_function("reqwest POST + from_slice::<Value>", |b| {
        b.iter(|| {
            runtime.block_on(async {
                let response = raw
                    .post(&url)
                    .header("content-type", "application/json")
                    .body(request_body.clone())
                    .send()
                    .await
                    .unwrap();
                let bytes = response.bytes().await.unwrap();
                serde_json::from_slice::<serde_json::Value>(&bytes).unwrap()
            })
        })
    });
    group.finish();
}

criterion_group!(benches, client_overhead);
criterion_main!(benches);
