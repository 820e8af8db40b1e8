//! What the client's redaction costs a response, beside what decoding it costs, for
//! `valgrind --tool=callgrind` to count (`redact.sh` runs it): every response body passes
//! through `Secrets::scrub_bytes` when the client has a secret (an API key, a key in the
//! URL). A key shorter than 16 characters is searched for exactly; a longer one in any
//! ASCII case (the body lowercased 64 KiB at a time, then searched).
//!
//! ```sh
//! cargo build --release --example count_redact
//! valgrind --tool=callgrind target/release/examples/count_redact any-case 100
//! ```
//!
//! Modes, over the transaction-status payloads of `count_decode` (2 recorded and one of
//! 400 receipts): `copy` (the body copied into a buffer, what every mode does first),
//! `exact` (a 12-character key), `any-case` (a 32-character key), `decode` (near-rpc's
//! `decode_response`, after the same copy).

use near_rpc::client::Secrets;
use near_rpc::methods::{self, RpcMethod};
use near_rpc_bench::{recorded, synthetic_tx_status};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(mode) = args.get(1) else {
        eprintln!("usage: count_redact copy|exact|any-case|decode [ROUNDS]");
        std::process::exit(2);
    };
    let rounds = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(100);
    let mut payloads = recorded("EXPERIMENTAL_tx_status");
    payloads.push(synthetic_tx_status(400));
    // Keys that are not in the bodies: the common case, a provider that echoes nothing.
    let secrets = match mode.as_str() {
        "exact" => Secrets::new(["k3yQmX4tR7zW".to_owned()]),
        "any-case" => Secrets::new(["k3yQmX4tR7zW2pL8vN3c9a8f7e6d5c4b".to_owned()]),
        "copy" | "decode" => Secrets::default(),
        other => {
            eprintln!("unknown mode {other}");
            std::process::exit(2);
        }
    };
    let mut buffer = Vec::new();
    for _ in 0..rounds {
        for payload in &payloads {
            buffer.clear();
            buffer.extend_from_slice(&payload.body);
            if mode == "decode" {
                let decoded = methods::ExperimentalTxStatusMethod::decode_response(&buffer)
                    .unwrap_or_else(|e| panic!("{}: {e}", payload.name));
                std::hint::black_box(decoded);
            } else {
                secrets.scrub_bytes(&mut buffer);
                std::hint::black_box(&buffer);
            }
        }
    }
}
