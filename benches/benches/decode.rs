//! Decode throughput: near-rpc against near-openapi-types 0.8.0 (the progenitor-generated
//! peer) and `serde_json::Value`, on the same bytes, side by side.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use near_rpc::envelope::Response;
use near_rpc::types::SpecErrorWrapper;
use near_rpc::methods::{self, RpcMethod};
use near_rpc_bench::{recorded, synthetic_tx_status, Payload};
use serde::de::DeserializeOwned;

type Ours<M> = Response<<M as RpcMethod>::Result, SpecErrorWrapper<<M as RpcMethod>::Error>>;

fn compare<M: RpcMethod, Peer: DeserializeOwned>(c: &mut Criterion, group: &str, payloads: &[Payload]) {
    let mut group = c.benchmark_group(group);
    for payload in payloads {
        // Every decoder must accept the payload, or the comparison means nothing.
        serde_json::from_slice::<Ours<M>>(&payload.body).unwrap_or_else(|e| panic!("near-rpc, {}: {e}", payload.name));
        serde_json::from_slice::<Peer>(&payload.body).unwrap_or_else(|e| panic!("peer, {}: {e}", payload.name));
        group.throughput(Throughput::Bytes(payload.body.len() as u64));
        let body = payload.body.as_slice();
        group.bench_with_input(BenchmarkId::new("near-rpc", &payload.name), body, |b, body| {
            b.iter(|| serde_json::from_slice::<Ours<M>>(body).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("near-rpc-with-paths", &payload.name), body, |b, body| {
            b.iter(|| near_rpc::decode::from_slice::<Ours<M>>(body).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("near-openapi-types", &payload.name), body, |b, body| {
            b.iter(|| serde_json::from_slice::<Peer>(body).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("serde_json-Value", &payload.name), body, |b, body| {
            b.iter(|| serde_json::from_slice::<serde_json::Value>(body).unwrap())
        });
    }
    group.finish();
}

fn tx_status(c: &mut Criterion) {
    let mut payloads = recorded("EXPERIMENTAL_tx_status");
    payloads.push(synthetic_tx_status(400));
    compare::<methods::ExperimentalTxStatusMethod, near_openapi_types::JsonRpcResponseForRpcTransactionResponseAndRpcTransactionError>(
        c,
        "EXPERIMENTAL_tx_status",
        &payloads,
    );
}

fn genesis_config(c: &mut Criterion) {
    let mut payloads = recorded("genesis_config");
    payloads.extend(recorded("EXPERIMENTAL_genesis_config"));
    compare::<methods::GenesisConfigMethod, near_openapi_types::JsonRpcResponseForGenesisConfigAndGenesisConfigError>(
        c,
        "genesis_config",
        &payloads,
    );
}

fn protocol_config(c: &mut Criterion) {
    compare::<methods::ExperimentalProtocolConfigMethod, near_openapi_types::JsonRpcResponseForRpcProtocolConfigResponseAndRpcProtocolConfigError>(
        c,
        "EXPERIMENTAL_protocol_config",
        &recorded("EXPERIMENTAL_protocol_config"),
    );
}

criterion_group!(benches, tx_status, genesis_config, protocol_config);
criterion_main!(benches);
