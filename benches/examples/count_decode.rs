//! Decodes every benchmark payload of one method with one decoder, so that
//! `valgrind --tool=callgrind` can count the instructions: a measure that, unlike time,
//! does not move when the machine is busy (`instructions.sh` runs it for every pair).
//!
//! ```sh
//! cargo build --release --example count_decode
//! valgrind --tool=callgrind target/release/examples/count_decode genesis_config peer 100
//! ```

use near_rpc::{methods, ErrorWrapper, Response, RpcMethod};
use near_rpc_bench::{recorded, synthetic_tx_status, Payload};
use serde::de::DeserializeOwned;

type Ours<M> = Response<<M as RpcMethod>::Result, ErrorWrapper<<M as RpcMethod>::Error>>;

fn run<T: DeserializeOwned>(payloads: &[Payload], rounds: usize) {
    for _ in 0..rounds {
        for payload in payloads {
            let decoded: T = serde_json::from_slice(&payload.body)
                .unwrap_or_else(|e| panic!("{}: {e}", payload.name));
            std::hint::black_box(decoded);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(method), Some(decoder)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: count_decode tx_status|genesis_config|protocol_config near-rpc|peer|value [ROUNDS]");
        std::process::exit(2);
    };
    let rounds = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(100);
    use near_openapi_types as peer;
    match method.as_str() {
        "tx_status" => {
            let mut payloads = recorded("EXPERIMENTAL_tx_status");
            payloads.push(synthetic_tx_status(400));
            match decoder.as_str() {
                "near-rpc" => run::<Ours<methods::ExperimentalTxStatusMethod>>(&payloads, rounds),
                "peer" => run::<peer::JsonRpcResponseForRpcTransactionResponseAndRpcTransactionError>(&payloads, rounds),
                _ => run::<serde_json::Value>(&payloads, rounds),
            }
        }
        "genesis_config" => {
            let mut payloads = recorded("genesis_config");
            payloads.extend(recorded("EXPERIMENTAL_genesis_config"));
            match decoder.as_str() {
                "near-rpc" => run::<Ours<methods::GenesisConfigMethod>>(&payloads, rounds),
                "peer" => run::<peer::JsonRpcResponseForGenesisConfigAndGenesisConfigError>(&payloads, rounds),
                _ => run::<serde_json::Value>(&payloads, rounds),
            }
        }
        "protocol_config" => {
            let payloads = recorded("EXPERIMENTAL_protocol_config");
            match decoder.as_str() {
                "near-rpc" => run::<Ours<methods::ExperimentalProtocolConfigMethod>>(&payloads, rounds),
                "peer" => run::<peer::JsonRpcResponseForRpcProtocolConfigResponseAndRpcProtocolConfigError>(&payloads, rounds),
                _ => run::<serde_json::Value>(&payloads, rounds),
            }
        }
        other => {
            eprintln!("unknown method {other}");
            std::process::exit(2);
        }
    }
}
