//! `near-rpc-fuzz`: a mutation fuzzer for near-rpc's decoders that runs on the stable
//! toolchain. See ../FUZZING.md.
//!
//! It seeds a corpus from the recorded bodies in `<shared>/fixtures` (read at run time,
//! never copied) and a few hand-written documents, mutates them with a seeded PRNG, and
//! decodes every input as the response, the bare result and the strict params of each of
//! the 38 methods, under `catch_unwind`. Panics, slow inputs, hangs (a watchdog), stack
//! overflows and runaway allocations (an abort handler and a heap cap) are findings; their
//! inputs are saved under `fuzz/findings/`.

mod exercise;
mod guard;
mod json;
mod mutate;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

use exercise::{exercise, Finding, Report};
use json::J;
use mutate::{Dict, Rng};

#[global_allocator]
static ALLOC: guard::CountingAlloc = guard::CountingAlloc;

const USAGE: &str = "\
near-rpc-fuzz [options]              fuzz until --seconds or --max-inputs
near-rpc-fuzz --replay FILE...       decode the given files once and report

  --seconds N        stop after N seconds (default 600)
  --max-inputs N     stop after N inputs, seeds included (default: no limit)
  --seed N           PRNG seed (default 1); the same seed gives the same inputs
  --shared DIR       upstream data, with fixtures/ and spec/ (default $NEAR_RPC_SHARED,
                     else ../shared beside the checkout)
  --findings DIR     where inputs of findings go (default fuzz/findings)
  --slow-ms N        report inputs whose decoding takes longer (default 1000)
  --hang-secs N      the watchdog stops the run on an input taking longer (default 10)
  --heap-cap-mb N    allocations past this much live heap abort the run (default 2048)
  --stack-kb N       stack of the decoding thread (default 2048, a spawned thread's default)
  --progress-secs N  progress line interval (default 30)";

struct Options {
    seconds: u64,
    max_inputs: u64,
    seed: u64,
    shared: PathBuf,
    findings: PathBuf,
    slow: Duration,
    hang: Duration,
    heap_cap_mb: usize,
    stack_kb: usize,
    progress: Duration,
    replay: Vec<PathBuf>,
}

fn parse_args() -> Result<Options, String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut o = Options {
        seconds: 600,
        max_inputs: u64::MAX,
        seed: 1,
        shared: std::env::var_os("NEAR_RPC_SHARED")
            .map(PathBuf::from)
            .unwrap_or_else(|| manifest.join("../../shared")),
        findings: manifest.join("findings"),
        slow: Duration::from_millis(1000),
        hang: Duration::from_secs(10),
        heap_cap_mb: 2048,
        stack_kb: 2048,
        progress: Duration::from_secs(30),
        replay: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--replay" {
            o.replay.extend(args.by_ref().map(PathBuf::from));
            if o.replay.is_empty() {
                return Err("--replay needs files".into());
            }
            break;
        }
        if arg == "-h" || arg == "--help" {
            return Err(String::new());
        }
        let value = args.next().ok_or_else(|| format!("{arg} needs a value"))?;
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{arg}: not a number: {value}"))
        };
        match arg.as_str() {
            "--seconds" => o.seconds = number()?,
            "--max-inputs" => o.max_inputs = number()?,
            "--seed" => o.seed = number()?,
            "--shared" => o.shared = PathBuf::from(&value),
            "--findings" => o.findings = PathBuf::from(&value),
            "--slow-ms" => o.slow = Duration::from_millis(number()?),
            "--hang-secs" => o.hang = Duration::from_secs(number()?),
            "--heap-cap-mb" => o.heap_cap_mb = number()? as usize,
            "--stack-kb" => o.stack_kb = number()? as usize,
            "--progress-secs" => o.progress = Duration::from_secs(number()?.max(1)),
            _ => return Err(format!("unknown option {arg}")),
        }
    }
    Ok(o)
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("error: {e}\n");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = std::fs::create_dir_all(&options.findings) {
        eprintln!("error: creating {}: {e}", options.findings.display());
        return ExitCode::from(2);
    }
    guard::install_panic_hook();
    guard::install_abort_handler(&options.findings.join("abort-in-flight.json"));
    guard::set_heap_cap(options.heap_cap_mb << 20);

    let options = Arc::new(options);
    let worker = {
        let options = Arc::clone(&options);
        std::thread::Builder::new()
            .name("decode".into())
            .stack_size(options.stack_kb << 10)
            .spawn(move || {
                if options.replay.is_empty() {
                    fuzz(&options)
                } else {
                    replay(&options)
                }
            })
            .expect("spawning the decoding thread")
    };
    // This thread is the watchdog.
    while !worker.is_finished() {
        std::thread::sleep(Duration::from_millis(100));
        let Some(stuck) = guard::call_running_for() else {
            continue;
        };
        if stuck > options.hang && !DONE.load(Relaxed) {
            let input = guard::in_flight_copy();
            let path = options.findings.join("hang.json");
            let saved = std::fs::write(&path, &input).is_ok();
            eprintln!(
                "HANG: one decode call of an input of {} bytes has run for {:.1} s; {}",
                input.len(),
                stuck.as_secs_f64(),
                if saved {
                    format!("saved to {}", path.display())
                } else {
                    "could not save it".to_owned()
                }
            );
            return ExitCode::from(3);
        }
    }
    match worker.join() {
        Ok(code) => ExitCode::from(code),
        Err(_) => {
            eprintln!("the decoding thread panicked outside catch_unwind");
            ExitCode::from(4)
        }
    }
}

static DONE: AtomicBool = AtomicBool::new(false);

/// Decodes one input every way, recording it as in flight for the watchdog and the abort
/// handler. Returns the time it took and the heap high-water mark above the live heap
/// before it.
fn decode_one(input: &[u8], report: &mut Report) -> (Duration, usize) {
    report.clear();
    guard::set_in_flight(input);
    let base = guard::call_started();
    let start = Instant::now();
    let value = std::panic::catch_unwind(|| serde_json::from_slice::<serde_json::Value>(input))
        .ok()
        .and_then(Result::ok);
    let mut peak = guard::call_finished();
    exercise(input, value.as_ref(), report);
    drop(value);
    let elapsed = start.elapsed();
    peak = report
        .log
        .iter()
        .map(|c| c.heap_peak)
        .fold(peak, usize::max);
    guard::clear_in_flight();
    (elapsed, peak.saturating_sub(base))
}

/// The corpus: seeds first (never evicted), then inputs that reached a new outcome.
struct Corpus {
    entries: Vec<Vec<u8>>,
    seeds: usize,
}

const CORPUS_CAP: usize = 4_000;
const CORPUS_ENTRY_MAX: usize = 64 << 10;
const SIGNATURES_CAP: usize = 2_000_000;

fn load_seeds(options: &Options, dict: &mut Dict, rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    collect_json_files(&options.shared.join("fixtures"), &mut files);
    files.sort();
    let mut seeds: Vec<Vec<u8>> = HAND_WRITTEN.iter().map(|s| s.as_bytes().to_vec()).collect();
    let fixture_count = files.len();
    for file in files {
        let Ok(bytes) = std::fs::read(&file) else {
            continue;
        };
        if let Some(doc) = J::parse(&bytes) {
            dict.learn(&doc, rng);
            // The result, error and params alone are seeds too, for the bare-result and
            // params modes.
            if let J::Obj(entries) = &doc {
                for (key, value) in entries {
                    if matches!(key.as_str(), "result" | "error" | "params") {
                        seeds.push(value.to_bytes());
                    }
                }
            }
        }
        seeds.push(bytes);
    }
    // Light-client proofs and blocks for the verifier: the proofs' files, and the first
    // two blocks of each chain (a head and its successor).
    let light_client = options.shared.join("light-client");
    let mut extra = Vec::new();
    collect_json_files(&light_client, &mut extra);
    extra.sort();
    for file in extra {
        if let Ok(bytes) = std::fs::read(&file) {
            seeds.push(bytes);
        }
    }
    if let Ok(entries) = std::fs::read_dir(light_client.join("next_light_client_block")) {
        let mut chains: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        chains.sort();
        for chain in chains.iter().filter(|p| p.extension().is_some_and(|e| e == "jsonl")) {
            if let Ok(text) = std::fs::read_to_string(chain) {
                seeds.extend(text.lines().take(2).map(|l| l.as_bytes().to_vec()));
            }
        }
    }
    for seed in &seeds[..HAND_WRITTEN.len()] {
        if let Some(doc) = J::parse(seed) {
            dict.learn(&doc, rng);
        }
    }
    let spec_dir = options.shared.join("spec");
    let mut specs = Vec::new();
    collect_json_files(&spec_dir, &mut specs);
    specs.sort();
    // Every spec version: names a newer or older node would send are the unknown variants
    // and fields this version must tolerate.
    let mut learned = 0;
    for spec in &specs {
        if let Ok(value) = std::fs::read(spec)
            .map_err(|e| e.to_string())
            .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
        {
            dict.learn_spec(&value);
            learned += 1;
        }
    }
    println!(
        "dictionary: enum values and property names of {learned} specs under {}",
        spec_dir.display()
    );
    dict.finish();
    println!(
        "seeds: {} fixture files under {}, {} seeds in all (with hand-written ones and the \
         result/error/params members); dictionary: {} keys, {} strings, {} donor values",
        fixture_count,
        options.shared.join("fixtures").display(),
        seeds.len(),
        dict.keys.len(),
        dict.strings.len(),
        dict.donors.len()
    );
    seeds
}

fn collect_json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// Small documents for shapes the fixtures may lack.
const HAND_WRITTEN: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"result":null}"#,
    r#"{"jsonrpc":"2.0","id":"x","result":{}}"#,
    r#"{"jsonrpc":"2.0","id":0,"result":[]}"#,
    r#"{"jsonrpc":"2.0","id":null,"error":{"name":"REQUEST_VALIDATION_ERROR","cause":{"name":"PARSE_ERROR","info":{"error_message":"x"}},"code":-32700,"message":"Parse error","data":"x"}}"#,
    r#"{"jsonrpc":"2.0","id":"a","error":{"name":"HANDLER_ERROR","cause":{"name":"UNKNOWN_BLOCK","info":{}},"code":-32000,"message":"Server error","data":"DB Not Found"}}"#,
    r#"{"jsonrpc":"2.0","id":"a","error":{"name":"INTERNAL_ERROR","cause":{"name":"INTERNAL_ERROR","info":{"error_message":"x"}},"code":-32000,"message":"Server error"}}"#,
    r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"Server error","data":{"TxExecutionError":{"ActionError":{"index":0,"kind":{"AccountDoesNotExist":{"account_id":"a.near"}}}}}}}"#,
    r#"{"jsonrpc":"2.0","id":7,"result":{"final_execution_status":"NONE"}}"#,
    r#"{"final_execution_status":"FINAL","status":{"SuccessValue":""},"transaction":{},"transaction_outcome":{},"receipts_outcome":[]}"#,
    r#"{"finality":"final"}"#,
    r#"{"block_id":1}"#,
    r#"{"block_id":"11111111111111111111111111111111"}"#,
    r#"{"sync_checkpoint":"genesis"}"#,
    r#"{"request_type":"view_account","account_id":"a.near","finality":"final"}"#,
    r#"{"request_type":"call_function","account_id":"a.near","method_name":"m","args_base64":"","block_id":1}"#,
    r#"{"changes_type":"account_changes","account_ids":["a.near"],"finality":"final"}"#,
    r#"{"signed_tx_base64":"AAAA","wait_until":"EXECUTED"}"#,
    r#"{"tx_hash":"11111111111111111111111111111111","sender_account_id":"a.near","wait_until":"FINAL"}"#,
    r#"{"type":"transaction","transaction_hash":"11111111111111111111111111111111","sender_id":"a.near","light_client_head":"11111111111111111111111111111111"}"#,
    r#"[null]"#,
    r#"null"#,
    r#"{}"#,
    r#""""#,
    r#"0"#,
];

fn fuzz(options: &Options) -> u8 {
    let run_start = Instant::now();
    let deadline = run_start + Duration::from_secs(options.seconds);
    let mut rng = Rng::new(options.seed);
    let mut dict = Dict::default();
    let seeds = load_seeds(options, &mut dict, &mut rng);
    if seeds.len() <= HAND_WRITTEN.len() {
        eprintln!(
            "warning: no fixtures under {} (set --shared or NEAR_RPC_SHARED); fuzzing from \
             the hand-written seeds only",
            options.shared.join("fixtures").display()
        );
    }
    let mut corpus = Corpus {
        seeds: seeds.len(),
        entries: seeds,
    };
    let mut stats = Stats::default();
    let mut signatures: HashSet<u64> = HashSet::new();
    let mut report = Report::default();
    let setup_rss = guard::proc_status_kib("VmRSS").unwrap_or(0);
    println!(
        "seed {}, up to {} s / {} inputs, slow > {} ms, hang > {} s, heap cap {} MiB, \
         stack {} KiB; RSS after set-up {} MiB",
        options.seed,
        options.seconds,
        if options.max_inputs == u64::MAX {
            "unlimited".to_owned()
        } else {
            options.max_inputs.to_string()
        },
        options.slow.as_millis(),
        options.hang.as_secs(),
        options.heap_cap_mb,
        options.stack_kb,
        setup_rss / 1024
    );
    let mut next_progress = run_start + options.progress;
    let mut seed_oks = 0;
    let mut index = 0usize;
    loop {
        let now = Instant::now();
        if now >= deadline || stats.inputs >= options.max_inputs {
            break;
        }
        if now >= next_progress {
            next_progress += options.progress;
            stats.progress(run_start, &corpus, signatures.len());
        }
        // The seeds as they are first, then mutants.
        let input = if index < corpus.seeds {
            corpus.entries[index].clone()
        } else {
            let base = rng.below(corpus.entries.len());
            let other = rng.below(corpus.entries.len());
            mutate::mutate(
                &corpus.entries[base],
                &corpus.entries[other],
                &dict,
                &mut rng,
            )
        };
        let is_seed = index < corpus.seeds;
        index += 1;
        let (elapsed, heap) = decode_one(&input, &mut report);
        if is_seed {
            seed_oks += usize::from(report.oks > 0);
        }
        stats.record(&input, elapsed, heap, &report, options);
        // Keep inputs that reached an outcome no earlier input did.
        let mut novel = false;
        for s in &report.signature {
            if signatures.len() < SIGNATURES_CAP && signatures.insert(*s) {
                novel = true;
            }
        }
        // Only JSON joins the corpus: byte-level mutations of it reach the parser's error
        // paths anyway, and a corpus of broken documents would rarely decode deeply.
        if novel && !is_seed && report.is_json && input.len() <= CORPUS_ENTRY_MAX {
            stats.corpus_additions += 1;
            if corpus.entries.len() < CORPUS_CAP {
                corpus.entries.push(input);
            } else {
                let slot = corpus.seeds + rng.below(CORPUS_CAP - corpus.seeds);
                corpus.entries[slot] = input;
            }
        }
        if index == corpus.seeds {
            println!(
                "seeds decoded: {seed_oks} of {} decode in at least one way",
                corpus.seeds
            );
        }
    }
    DONE.store(true, Relaxed);
    stats.finish(run_start, &corpus, signatures.len(), setup_rss)
}

#[derive(Default)]
struct Stats {
    inputs: u64,
    bytes: u64,
    max_len: usize,
    json_inputs: u64,
    calls: u64,
    oks: u64,
    panics: u64,
    roundtrips: u64,
    /// Distinct findings (panics and round-trip failures), each saved once.
    distinct: HashMap<u64, PathBuf>,
    distinct_panics: u64,
    /// Inputs with a decode call slower than the threshold.
    slow: u64,
    /// The slowest and heaviest calls of each mode.
    per_mode: [ModeStats; 3],
    /// The slowest inputs (all their calls): time, size.
    slowest_inputs: Vec<(Duration, usize)>,
    /// The largest heap high-water mark of one input: bytes, input size.
    max_heap: (usize, usize),
    /// The largest heap high-water mark relative to the input size (inputs of 1 KiB or
    /// more): ratio, bytes, input size.
    max_heap_ratio: (f64, usize, usize),
    corpus_additions: u64,
}

/// The extremes of one decoding mode, each with the input size and the method.
#[derive(Default)]
struct ModeStats {
    slowest: (Duration, usize, &'static str),
    heaviest: (usize, usize, &'static str),
    /// Heap relative to the input size (inputs of 1 KiB or more): ratio, heap, size, method.
    max_ratio: (f64, usize, usize, &'static str),
}

fn top<T>(list: &mut Vec<T>, item: T, key: impl Fn(&T) -> Duration) {
    list.push(item);
    list.sort_by_key(|x| std::cmp::Reverse(key(x)));
    list.truncate(5);
}

impl Stats {
    fn record(
        &mut self,
        input: &[u8],
        elapsed: Duration,
        heap: usize,
        report: &Report,
        options: &Options,
    ) {
        self.inputs += 1;
        self.bytes += input.len() as u64;
        self.max_len = self.max_len.max(input.len());
        self.calls += report.calls;
        self.oks += report.oks;
        if report.is_json {
            self.json_inputs += 1;
        }
        if heap > self.max_heap.0 {
            self.max_heap = (heap, input.len());
        }
        if input.len() >= 1024 {
            let ratio = heap as f64 / input.len() as f64;
            if ratio > self.max_heap_ratio.0 {
                self.max_heap_ratio = (ratio, heap, input.len());
            }
        }
        top(&mut self.slowest_inputs, (elapsed, input.len()), |x| x.0);
        for call in &report.log {
            let m = &mut self.per_mode[call.mode.index()];
            if call.elapsed > m.slowest.0 {
                m.slowest = (call.elapsed, input.len(), call.method);
                let _ = std::fs::write(
                    options.findings.join(format!("slowest-{}.json", call.mode)),
                    input,
                );
            }
            if call.heap > m.heaviest.0 {
                m.heaviest = (call.heap, input.len(), call.method);
            }
            let ratio = call.heap as f64 / input.len() as f64;
            if input.len() >= 1024 && ratio > m.max_ratio.0 {
                m.max_ratio = (ratio, call.heap, input.len(), call.method);
                let _ = std::fs::write(
                    options
                        .findings
                        .join(format!("heaviest-{}.json", call.mode)),
                    input,
                );
            }
        }
        if let Some(call) = report.slowest() {
            if call.elapsed > options.slow {
                self.slow += 1;
                let path = options.findings.join(format!("slow-{}.json", self.slow));
                if self.slow <= 20 {
                    let _ = std::fs::write(&path, input);
                }
                println!(
                    "SLOW: {} {} took {:.3} s on {} bytes; saved to {}",
                    call.method,
                    call.mode,
                    call.elapsed.as_secs_f64(),
                    input.len(),
                    path.display()
                );
            }
        }
        for (kind, findings) in [("panic", &report.panics), ("roundtrip", &report.roundtrips)] {
            for finding in findings {
                if kind == "panic" {
                    self.panics += 1;
                } else {
                    self.roundtrips += 1;
                }
                self.save_finding(kind, finding, input, options);
            }
        }
    }

    fn save_finding(&mut self, kind: &str, finding: &Finding, input: &[u8], options: &Options) {
        let key = finding.key();
        if self.distinct.contains_key(&key) {
            return;
        }
        let n = self.distinct.len() + 1;
        if kind == "panic" {
            self.distinct_panics += 1;
        }
        let path = options.findings.join(format!(
            "{kind}-{n}-{}-{}.json",
            finding.method, finding.mode
        ));
        let _ = std::fs::write(&path, input);
        let _ = std::fs::write(
            path.with_extension("txt"),
            format!("{} {}\n{}\n", finding.method, finding.mode, finding.message),
        );
        println!(
            "{}: {} {} ({} bytes, saved to {}):\n{}",
            kind.to_uppercase(),
            finding.method,
            finding.mode,
            input.len(),
            path.display(),
            finding
                .message
                .lines()
                .take(12)
                .map(|line| match line.char_indices().nth(400) {
                    Some((cut, _)) => format!("{}...", &line[..cut]),
                    None => line.to_owned(),
                })
                .collect::<Vec<_>>()
                .join("\n")
        );
        self.distinct.insert(key, path);
    }

    fn progress(&self, start: Instant, corpus: &Corpus, signatures: usize) {
        let secs = start.elapsed().as_secs_f64();
        println!(
            "[{:>5.0} s] {} inputs ({:.0}/s), corpus {}, outcomes {}, panics {}, slow {}, \
             RSS {} MiB, heap {} MiB",
            secs,
            self.inputs,
            self.inputs as f64 / secs,
            corpus.entries.len(),
            signatures,
            self.panics,
            self.slow,
            guard::proc_status_kib("VmRSS").unwrap_or(0) / 1024,
            guard::heap_live() >> 20
        );
    }

    fn finish(&self, start: Instant, corpus: &Corpus, signatures: usize, setup_rss: u64) -> u8 {
        let secs = start.elapsed().as_secs_f64();
        let mib = |bytes: usize| bytes as f64 / (1 << 20) as f64;
        let rss = |field| {
            guard::proc_status_kib(field)
                .map_or("?".to_owned(), |k| format!("{:.1} MiB", k as f64 / 1024.0))
        };
        println!("== done");
        println!(
            "inputs: {} in {:.1} s ({:.0}/s), {} of them valid JSON; {:.1} MiB decoded, \
             largest input {} bytes",
            self.inputs,
            secs,
            self.inputs as f64 / secs,
            self.json_inputs,
            mib(self.bytes as usize),
            self.max_len
        );
        println!(
            "decode calls: {} ({:.0}/s), {} succeeded; corpus {} ({} seeds, {} additions), \
             distinct outcomes {}",
            self.calls,
            self.calls as f64 / secs,
            self.oks,
            corpus.entries.len(),
            corpus.seeds,
            self.corpus_additions,
            signatures
        );
        println!(
            "panics: {} ({} distinct)",
            self.panics, self.distinct_panics
        );
        println!(
            "round-trip failures (not crashes): {} ({} distinct)",
            self.roundtrips,
            self.distinct.len() as u64 - self.distinct_panics
        );
        println!("hangs: 0 (the watchdog would have stopped the run)");
        println!("inputs with a slow decode call: {}", self.slow);
        for mode in exercise::Mode::ALL {
            let m = &self.per_mode[mode.index()];
            println!(
                "  {mode}: slowest call {:.1} ms ({} on {} bytes); most heap {:.1} MiB ({} on \
                 {} bytes); most heap per input byte {:.0}x ({:.2} MiB, {} on {} bytes)",
                m.slowest.0.as_secs_f64() * 1e3,
                m.slowest.2,
                m.slowest.1,
                mib(m.heaviest.0),
                m.heaviest.2,
                m.heaviest.1,
                m.max_ratio.0,
                mib(m.max_ratio.1),
                m.max_ratio.3,
                m.max_ratio.2
            );
        }
        for (t, len) in &self.slowest_inputs {
            println!(
                "  slowest input (all {} calls): {:.1} ms for {} bytes",
                3 * near_rpc::methods::ALL.len(),
                t.as_secs_f64() * 1e3,
                len
            );
        }
        println!(
            "heap per input: max {:.1} MiB (input of {} bytes); max {:.1}x the input size \
             ({:.2} MiB for {} bytes, over inputs of 1 KiB or more)",
            mib(self.max_heap.0),
            self.max_heap.1,
            self.max_heap_ratio.0,
            mib(self.max_heap_ratio.1),
            self.max_heap_ratio.2
        );
        println!(
            "memory: RSS after set-up {:.1} MiB, at the end {}, peak (VmHWM) {}",
            setup_rss as f64 / 1024.0,
            rss("VmRSS"),
            rss("VmHWM")
        );
        u8::from(self.panics > 0 || self.slow > 0)
    }
}

fn replay(options: &Options) -> u8 {
    let mut report = Report::default();
    let mut failed = false;
    for path in &options.replay {
        let input = match std::fs::read(path) {
            Ok(input) => input,
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                failed = true;
                continue;
            }
        };
        let (elapsed, heap) = decode_one(&input, &mut report);
        println!(
            "{}: {} bytes, {} calls, {} ok, {} panics, {} round-trip failures, {:.1} ms, \
             heap {:.1} MiB",
            path.display(),
            input.len(),
            report.calls,
            report.oks,
            report.panics.len(),
            report.roundtrips.len(),
            elapsed.as_secs_f64() * 1e3,
            heap as f64 / (1 << 20) as f64
        );
        let mut log = report.log.clone();
        log.sort_by_key(|c| std::cmp::Reverse(c.elapsed));
        for c in log.iter().take(3) {
            println!(
                "  slowest: {:.1} ms {} {}",
                c.elapsed.as_secs_f64() * 1e3,
                c.method,
                c.mode
            );
        }
        log.sort_by_key(|c| std::cmp::Reverse(c.heap));
        for c in log.iter().take(3) {
            println!(
                "  heaviest: {:.2} MiB {} {}",
                c.heap as f64 / (1 << 20) as f64,
                c.method,
                c.mode
            );
        }
        for f in report.panics.iter().chain(&report.roundtrips) {
            println!("  {} {}: {}", f.method, f.mode, f.message);
        }
        failed |=
            !report.panics.is_empty() || report.slowest().is_some_and(|c| c.elapsed > options.slow);
    }
    DONE.store(true, Relaxed);
    u8::from(failed)
}
