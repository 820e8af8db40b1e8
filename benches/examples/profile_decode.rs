//! Decodes the large synthetic transaction status repeatedly, for a profiler
//! (`valgrind --tool=callgrind target/release/examples/profile_decode`).

use near_rpc::envelope::Response;
use near_rpc::types::SpecErrorWrapper;
use near_rpc::methods::{self, RpcMethod};

type M = methods::ExperimentalTxStatusMethod;

fn main() {
    let payload = near_rpc_bench::synthetic_tx_status(400);
    let rounds: usize = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(3);
    for _ in 0..rounds {
        let r: Response<<M as RpcMethod>::Result, SpecErrorWrapper<<M as RpcMethod>::Error>> =
            serde_json::from_slice(&payload.body).expect("decodes");
        std::hint::black_box(r);
    }
}
