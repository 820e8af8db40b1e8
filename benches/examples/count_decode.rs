//! Decodes every benchmark payload of one method with one decoder, so that
//! `valgrind --tool=callgrind` can count the instructions: a measure that, unlike time,
//! does not move when the machine is busy (`instructions.sh` runs it for every pair).
//!
//! ```sh
//! cargo build --release --example count_decode
//! valgrind --tool=callgrind target/release/examples/count_decode genesis_config peer 100
//! ```
//!
//! Decoders: `near-rpc` (`RpcMethod::decode_response`, what the client uses),
//! `generic` (our types through serde, `decode::from_slice`, for information),
//! `peer` (near-openapi-types 0.8.0, `serde_json::from_slice` of its envelope type),
//! `openrpc` (near-openrpc-client 0.3.0 the way its client decodes: the body into a
//! `Value`, then `result` into the type), `value` (`serde_json::Value`) and `ignored`
//! (`serde::de::IgnoredAny`: serde_json reads every byte and builds nothing, the floor).

use near_rpc::methods::{self, RpcMethod};
use near_rpc_bench::{recorded, synthetic_tx_status, Payload};
use serde::de::{DeserializeOwned, IgnoredAny};

fn run(payloads: &[Payload], rounds: usize, decode: impl Fn(&[u8]) -> Result<(), String>) {
    for _ in 0..rounds {
        for payload in payloads {
            decode(&payload.body).unwrap_or_else(|e| panic!("{}: {e}", payload.name));
        }
    }
}

fn serde<T: DeserializeOwned>(body: &[u8]) -> Result<(), String> {
    let decoded: T = serde_json::from_slice(body).map_err(|e| e.to_string())?;
    std::hint::black_box(decoded);
    Ok(())
}

fn ours<M: RpcMethod>(body: &[u8]) -> Result<(), String> {
    let decoded = M::decode_response(body).map_err(|e| e.to_string())?;
    std::hint::black_box(decoded);
    Ok(())
}

/// Our types through serde (`decode::from_slice`), the path of a user who embeds them
/// in their own types.
fn generic<M: RpcMethod>(body: &[u8]) -> Result<(), String> {
    let decoded: near_rpc::methods::EnvelopeOf<M> =
        near_rpc::decode::from_slice(body).map_err(|e| e.to_string())?;
    std::hint::black_box(decoded);
    Ok(())
}

/// How near-openrpc-client's client decodes (`client.rs`, `call`): a `Value` first.
fn openrpc<T: DeserializeOwned>(body: &[u8]) -> Result<(), String> {
    let mut value: serde_json::Value = serde_json::from_slice(body).map_err(|e| e.to_string())?;
    let decoded: T = serde_json::from_value(value["result"].take()).map_err(|e| e.to_string())?;
    std::hint::black_box(decoded);
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(method), Some(decoder)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: count_decode tx_status|genesis_config|protocol_config near-rpc|generic|peer|openrpc|value|ignored [ROUNDS]");
        std::process::exit(2);
    };
    let rounds = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(100);
    use near_openapi_types as peer;
    use near_openrpc_client::types as openrpc_types;
    type Decode = fn(&[u8]) -> Result<(), String>;
    let (payloads, decoders): (Vec<Payload>, [(&str, Decode); 6]) = match method.as_str() {
        "tx_status" => {
            let mut payloads = recorded("EXPERIMENTAL_tx_status");
            payloads.push(synthetic_tx_status(400));
            (payloads, [
                ("near-rpc", ours::<methods::ExperimentalTxStatusMethod>),
                ("generic", generic::<methods::ExperimentalTxStatusMethod>),
                ("peer", serde::<peer::JsonRpcResponseForRpcTransactionResponseAndRpcTransactionError>),
                ("openrpc", openrpc::<openrpc_types::RpcTransactionResponse>),
                ("value", serde::<serde_json::Value>),
                ("ignored", serde::<IgnoredAny>),
            ])
        }
        "genesis_config" => {
            let mut payloads = recorded("genesis_config");
            payloads.extend(recorded("EXPERIMENTAL_genesis_config"));
            (payloads, [
                ("near-rpc", ours::<methods::GenesisConfigMethod>),
                ("generic", generic::<methods::GenesisConfigMethod>),
                ("peer", serde::<peer::JsonRpcResponseForGenesisConfigAndGenesisConfigError>),
                ("openrpc", openrpc::<openrpc_types::GenesisConfig>),
                ("value", serde::<serde_json::Value>),
                ("ignored", serde::<IgnoredAny>),
            ])
        }
        "protocol_config" => (recorded("EXPERIMENTAL_protocol_config"), [
            ("near-rpc", ours::<methods::ExperimentalProtocolConfigMethod>),
                ("generic", generic::<methods::ExperimentalProtocolConfigMethod>),
            ("peer", serde::<peer::JsonRpcResponseForRpcProtocolConfigResponseAndRpcProtocolConfigError>),
            ("openrpc", openrpc::<openrpc_types::RpcProtocolConfigResponse>),
            ("value", serde::<serde_json::Value>),
            ("ignored", serde::<IgnoredAny>),
        ]),
        other => {
            eprintln!("unknown method {other}");
            std::process::exit(2);
        }
    };
    // Every decoder counts the same bytes: a payload some decoder refuses is left out (and
    // said, on stderr), unless that decoder refuses them all: then it is the one left out
    // (exit code 3). These checks run in every run, so they cancel out of the counts.
    let refused = |decode: &Decode, payload: &Payload| decode(&payload.body).err();
    let usable: Vec<&(&str, Decode)> = decoders
        .iter()
        .filter(|(_, decode)| payloads.iter().any(|p| refused(decode, p).is_none()))
        .collect();
    let payloads: Vec<Payload> = payloads
        .into_iter()
        .filter(|payload| {
            usable.iter().all(|(name, decode)| match refused(decode, payload) {
                None => true,
                Some(e) => {
                    eprintln!("left out {}: {name} refuses it: {e}", payload.name);
                    false
                }
            })
        })
        .collect();
    let Some((_, decode)) = decoders.iter().find(|(name, _)| name == decoder) else {
        eprintln!("unknown decoder {decoder}");
        std::process::exit(2);
    };
    if !usable.iter().any(|(name, _)| name == decoder) {
        eprintln!("{decoder} refuses every payload of {method}");
        std::process::exit(3);
    }
    run(&payloads, rounds, decode);
}
