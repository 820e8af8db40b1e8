//! The same decoding as `near-rpc-fuzz`, as a libFuzzer target for `cargo fuzz` (nightly):
//!
//! ```sh
//! cargo +nightly fuzz run decode --features libfuzzer fuzz/corpus/decode ../shared/fixtures
//! ```
//!
//! libfuzzer-sys's panic hook aborts on every panic, caught or not, so a panic in any
//! decode is a crash here, with its input saved under `fuzz/artifacts/decode/`.

#![no_main]

#[allow(dead_code)]
#[path = "../src/exercise.rs"]
mod exercise;
#[allow(dead_code)]
#[path = "../src/guard.rs"]
mod guard;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let value = serde_json::from_slice::<serde_json::Value>(data).ok();
    let mut report = exercise::Report::default();
    exercise::exercise(data, value.as_ref(), &mut report);
    if let Some(finding) = report.roundtrips.first() {
        panic!("{} {}: {}", finding.method, finding.mode, finding.message);
    }
});
