//! Decodes one input in every way the library offers, for every method, catching panics.

use std::collections::hash_map::DefaultHasher;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use near_rpc::decode::{self, DecodeError};
use near_rpc::envelope::Response;
use near_rpc::types::SpecErrorWrapper;
use near_rpc::methods::{self, MethodVisitor, RpcMethod};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// One way of decoding an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// A whole response: `Response<M::Result, SpecErrorWrapper<M::Error>>` via
    /// `decode::from_slice`.
    Response,
    /// A bare `M::Result` via `decode::from_slice`.
    Result,
    /// `M::Params` via `decode::from_value_strict`, after parsing as a `Value`.
    ParamsStrict,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Response, Mode::Result, Mode::ParamsStrict];

    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::Response => "response",
            Mode::Result => "result",
            Mode::ParamsStrict => "params-strict",
        })
    }
}

/// Something that went wrong other than a decoding error.
#[derive(Debug)]
pub struct Finding {
    pub method: &'static str,
    pub mode: Mode,
    pub message: String,
}

impl Finding {
    /// Identifies the finding without the input-specific parts of its message.
    pub fn key(&self) -> u64 {
        let mut h = DefaultHasher::new();
        (self.method, self.mode).hash(&mut h);
        normalize(self.message.lines().next().unwrap_or(""), &mut h);
        h.finish()
    }
}

/// What decoding one input found.
#[derive(Default)]
pub struct Report {
    /// Decode calls made.
    pub calls: u64,
    /// Calls that decoded successfully.
    pub oks: u64,
    /// Panics caught (each one also fails its call).
    pub panics: Vec<Finding>,
    /// Successful decodes whose value did not serialize, or whose serialization did not
    /// decode again (not a crash, but a bug worth reporting).
    pub roundtrips: Vec<Finding>,
    /// One hash per call of (method, mode, outcome with the input's own values blanked
    /// out): how far decoding got and why it stopped. New ones make an input interesting.
    pub signature: Vec<u64>,
    /// Every call, in order, with its time and heap use.
    pub log: Vec<Call>,
    /// Whether the input parsed as JSON (so the params were decoded too).
    pub is_json: bool,
}

/// One decode call.
#[derive(Clone, Copy, Debug)]
pub struct Call {
    pub method: &'static str,
    pub mode: Mode,
    pub elapsed: Duration,
    /// The heap high-water mark during the call, above the live heap when it started.
    pub heap: usize,
    /// The live heap at the high-water mark, in absolute terms.
    pub heap_peak: usize,
}

impl Report {
    pub fn clear(&mut self) {
        self.calls = 0;
        self.oks = 0;
        self.panics.clear();
        self.roundtrips.clear();
        self.signature.clear();
        self.log.clear();
        self.is_json = false;
    }

    pub fn slowest(&self) -> Option<Call> {
        self.log.iter().copied().max_by_key(|c| c.elapsed)
    }
}

/// Decodes `input` for every method of `methods::ALL` in every [`Mode`]; `value` is the
/// input parsed as JSON, if it is JSON.
pub fn exercise(input: &[u8], value: Option<&Value>, report: &mut Report) {
    report.is_json = value.is_some();
    for name in methods::ALL {
        let visited = methods::visit(
            name,
            Visit {
                input,
                value,
                report: &mut *report,
            },
        );
        assert!(
            visited.is_some(),
            "methods::ALL lists {name}, visit must know it"
        );
    }
    if let Some(value) = value {
        verify_calls(value, report);
    }
}

/// The verifier (`near_rpc::verify`) on whatever decodes as a proof or a light-client
/// block: it must never panic. A proof is checked against a root of zeros and against
/// its own block hash; a whole block becomes a head (trusting its own hash) and is
/// checked as its own successor, once as it is (refused at the height) and once a height
/// higher. For that second call the head is also given the block's `next_bps` as its own
/// epoch's producers: a head from `from_block` knows only the next epoch's, and the
/// block is of its own epoch, so without them the check stops at the producers. With
/// them it goes on to the block hash, the approvals' signatures and the stake (the
/// approvals sign another message, so it ends at a signature or the stake).
fn verify_calls(value: &Value, report: &mut Report) {
    use near_rpc::verify;
    let caught = catch_unwind(AssertUnwindSafe(|| {
        if let Ok(proof) = verify::execution_proof_from_json(value.clone()) {
            let _ = verify::verify_execution_proof(&proof, &Default::default());
            if let Ok(hash) = verify::block_hash(&proof.block_header_lite) {
                let _ = verify::verify_execution_proof(&proof, &hash).map_err(|e| e.to_string());
            }
        }
        if let Ok(block) = verify::light_client_block_from_json(value.clone()) {
            let header = match (&block.inner_lite, block.inner_rest_hash, block.prev_block_hash) {
                (Some(inner_lite), Some(inner_rest_hash), Some(prev_block_hash)) => {
                    near_rpc::types::LightClientBlockLiteView {
                        inner_lite: inner_lite.clone(),
                        inner_rest_hash,
                        prev_block_hash,
                    }
                }
                _ => return,
            };
            let Ok(hash) = verify::block_hash(&header) else { return };
            let Ok(head) = verify::LightClientHead::from_block(&block, &hash) else { return };
            let _ = head.validate(&block).map_err(|e| e.to_string());
            let mut higher = block.clone();
            if let Some(inner) = higher.inner_lite.as_mut() {
                inner.height = inner.height.wrapping_add(1);
            }
            // `from_block` succeeded, so `next_bps` is there.
            let producers = block.next_bps.clone().unwrap_or_default();
            let head = head.with_current_producers(producers);
            let _ = head.validate(&higher).map_err(|e| e.to_string());
            let _ = verify::LightClientHead::from_json(head.to_json());
        }
    }));
    report.calls += 1;
    if caught.is_err() {
        report.panics.push(Finding {
            method: "verify",
            mode: Mode::Result,
            message: crate::guard::take_panic(),
        });
    }
}

struct Visit<'a> {
    input: &'a [u8],
    value: Option<&'a Value>,
    report: &'a mut Report,
}

impl MethodVisitor for Visit<'_> {
    type Output = ();

    fn visit<M: RpcMethod>(self) {
        type Whole<M> = Response<<M as RpcMethod>::Result, SpecErrorWrapper<<M as RpcMethod>::Error>>;
        let Visit {
            input,
            value,
            report,
        } = self;
        run::<Whole<M>>(
            M::NAME,
            Mode::Response,
            report,
            || decode::from_slice(input),
            decode::from_slice,
        );
        run::<M::Result>(
            M::NAME,
            Mode::Result,
            report,
            || decode::from_slice(input),
            decode::from_slice,
        );
        if let Some(value) = value {
            run::<M::Params>(
                M::NAME,
                Mode::ParamsStrict,
                report,
                || decode::from_value_strict(value.clone()),
                |bytes| {
                    let value: Value = serde_json::from_slice(bytes)
                        .map_err(|e| DecodeError::new("", e.to_string()))?;
                    decode::from_value_strict(value)
                },
            );
        }
    }
}

/// The outcome of one call, panics aside.
enum Outcome {
    Ok { roundtrip: Option<String> },
    Err(DecodeError),
}

fn run<T: Serialize + DeserializeOwned>(
    method: &'static str,
    mode: Mode,
    report: &mut Report,
    first: impl FnOnce() -> Result<T, DecodeError>,
    again: impl FnOnce(&[u8]) -> Result<T, DecodeError>,
) {
    let base = crate::guard::call_started();
    let start = Instant::now();
    let caught = catch_unwind(AssertUnwindSafe(|| match first() {
        Ok(decoded) => {
            // decode(serialize(v)) must succeed and serialize to the same text.
            let roundtrip = match serde_json::to_vec(&decoded) {
                Ok(bytes) => match again(&bytes).map(|v| serde_json::to_vec(&v)) {
                    Ok(Ok(bytes2)) if same_json(&bytes, &bytes2) => None,
                    Ok(Ok(bytes2)) => Some(format!(
                        "serialization not stable\nfirst: {}\nthen:  {}",
                        String::from_utf8_lossy(&bytes),
                        String::from_utf8_lossy(&bytes2)
                    )),
                    Ok(Err(e)) => Some(format!("serializing the re-decoded value failed: {e}")),
                    Err(e) => Some(format!("re-decoding the serialized value failed: {e}")),
                },
                Err(e) => Some(format!("serializing the decoded value failed: {e}")),
            };
            Outcome::Ok { roundtrip }
        }
        Err(e) => {
            // Display runs the path-joining code too.
            let _ = e.to_string();
            Outcome::Err(e)
        }
    }));
    let elapsed = start.elapsed();
    let heap_peak = crate::guard::call_finished();
    report.log.push(Call {
        method,
        mode,
        elapsed,
        heap: heap_peak.saturating_sub(base),
        heap_peak,
    });
    report.calls += 1;
    let mut h = DefaultHasher::new();
    (method, mode).hash(&mut h);
    match caught {
        Ok(Outcome::Ok { roundtrip }) => {
            report.oks += 1;
            "ok".hash(&mut h);
            if let Some(message) = roundtrip {
                report.roundtrips.push(Finding {
                    method,
                    mode,
                    message,
                });
            }
        }
        Ok(Outcome::Err(e)) => {
            normalize(e.path(), &mut h);
            normalize(e.message(), &mut h);
        }
        Err(_) => {
            "panic".hash(&mut h);
            report.panics.push(Finding {
                method,
                mode,
                message: crate::guard::take_panic(),
            });
        }
    }
    report.signature.push(h.finish());
}

/// Whether two serializations are the same JSON, up to float rounding: serde_json (without
/// its `float_roundtrip` feature, which near-rpc does not enable) may parse a float's
/// shortest text to a neighbouring `f64`, so a float can move by an ulp per round trip.
fn same_json(a: &[u8], b: &[u8]) -> bool {
    if a == b {
        return true;
    }
    match (
        serde_json::from_slice::<Value>(a),
        serde_json::from_slice::<Value>(b),
    ) {
        (Ok(a), Ok(b)) => same_value(&a, &b),
        _ => false,
    }
}

fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            match (x.as_f64(), y.as_f64()) {
                (Some(x), Some(y)) => {
                    x == y || (x - y).abs() <= 4.0 * f64::EPSILON * x.abs().max(y.abs())
                }
                _ => false,
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_value(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w)))
        }
        _ => a == b,
    }
}

/// Hashes `text` without what varies with the input: digits (indices, positions, line and
/// column) and the contents of double-quoted strings; at most 120 characters.
fn normalize(text: &str, h: &mut impl Hasher) {
    let mut quoted = false;
    for c in text.chars().take(120) {
        if c == '"' {
            quoted = !quoted;
            c.hash(h);
        } else if !quoted && !c.is_ascii_digit() {
            c.hash(h);
        }
    }
}
