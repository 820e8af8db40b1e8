//! Payloads for the benchmarks: real recorded responses from the shared data (read at
//! run time, never copied), and a large synthetic transaction status made from one.

use std::path::PathBuf;

use serde_json::Value;

/// The shared data directory (`NEAR_RPC_SHARED`, default `../shared` beside the repo).
pub fn shared_dir() -> PathBuf {
    std::env::var_os("NEAR_RPC_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared")))
}

/// A named response body.
pub struct Payload {
    /// Where it comes from.
    pub name: String,
    /// The bytes.
    pub body: Vec<u8>,
}

/// The recorded responses of `method` that pass the 1.2.6 schema and carry a result.
pub fn recorded(method: &str) -> Vec<Payload> {
    let shared = shared_dir();
    let tsv = std::fs::read_to_string(shared.join("fixtures/SOURCES.tsv"))
        .unwrap_or_else(|e| panic!("{}: {e} (set NEAR_RPC_SHARED)", shared.display()));
    tsv.lines()
        .filter(|l| l.contains("\tresponse\t") && l.contains("schema check: ok"))
        .filter_map(|l| l.split('\t').next())
        .filter(|file| file.starts_with(&format!("{method}/")))
        .filter_map(|file| {
            let body = std::fs::read(shared.join("fixtures").join(file)).ok()?;
            let value: Value = serde_json::from_slice(&body).ok()?;
            value.get("result")?;
            // Compact, as nodes send it.
            let body = serde_json::to_vec(&value).ok()?;
            Some(Payload { name: file.to_owned(), body })
        })
        .collect()
}

/// A transaction status with `receipts` receipts and outcomes, built by repeating those
/// of the recorded `EXPERIMENTAL_tx_status` response that has the most.
pub fn synthetic_tx_status(receipts: usize) -> Payload {
    let base = recorded("EXPERIMENTAL_tx_status")
        .into_iter()
        .map(|p| serde_json::from_slice::<Value>(&p.body).expect("JSON"))
        .max_by_key(|v| v["result"]["receipts"].as_array().map_or(0, Vec::len))
        .expect("a recorded EXPERIMENTAL_tx_status response");
    let mut value = base;
    for key in ["receipts", "receipts_outcome"] {
        let items = value["result"][key].as_array().cloned().unwrap_or_default();
        let repeated: Vec<Value> = items.iter().cycle().take(receipts).cloned().collect();
        value["result"][key] = Value::Array(repeated);
    }
    Payload {
        name: format!("synthetic, {receipts} receipts"),
        body: serde_json::to_vec(&value).expect("serializes"),
    }
}
