//! What loading a saved chain costs at the size limit
//! ([`near_rpc_mock::state_file::MAX_FILE_BYTES`]): `write` makes a chain file of one
//! shape as close to the limit as it goes, `load` loads one and prints the time and the
//! process's peak memory (run apart, so that the peak is the load's alone). The figures
//! in BENCHMARKS.md come from here:
//!
//! ```sh
//! cargo run --release -p near-rpc-mock --example saved_chain -- write SHAPE FILE
//! cargo run --release -p near-rpc-mock --example saved_chain -- load FILE
//! ```
//!
//! Shapes: `transfers` (a chain that ran: transfers from alice to bob, 50 a block),
//! `blocks` (empty blocks only: the most blocks a file can hold), `values` (one block's
//! `changes` full of empty arrays: the most JSON values a file can hold).

use std::path::Path;
use std::time::Instant;

use near_rpc::tx::Action;
use near_rpc::NearToken;
use near_rpc_mock::chain::Chain;
use near_rpc_mock::state_file::MAX_FILE_BYTES;
use near_rpc_mock::MockNode;
use serde_json::Value;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["write", shape, file] => write(shape, Path::new(file)),
        ["load", file] => load(Path::new(file)),
        _ => Err("usage: saved_chain write transfers|blocks|values FILE | load FILE".into()),
    }
}

/// Writes a chain of `shape` of at most `MAX_FILE_BYTES` to `file`.
fn write(shape: &str, file: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let limit = MAX_FILE_BYTES as usize;
    let text = match shape {
        // Grown by steps to near the limit (the size of one step measured first), then
        // until the next step would pass it.
        "transfers" | "blocks" => {
            let step = |chain: &mut Chain| -> Result<(), String> {
                if shape == "transfers" {
                    for _ in 0..50 {
                        let signed = chain.sign(
                            "alice.mock",
                            "bob.mock",
                            vec![Action::transfer(NearToken::from_yoctonear(1))],
                        );
                        chain
                            .submit(&signed.to_borsh())
                            .map_err(|e| format!("{e:?}"))?;
                    }
                    chain.advance(2);
                } else {
                    chain.advance(10_000);
                }
                Ok(())
            };
            let size = |chain: &Chain| chain.to_state_json().to_string().len();
            let mut chain = Chain::new();
            let empty = size(&chain);
            step(&mut chain)?;
            let per_step = size(&chain) - empty;
            for _ in 1..(limit - empty) / per_step * 99 / 100 {
                step(&mut chain)?;
            }
            let mut text = chain.to_state_json().to_string();
            loop {
                let mut next = chain.clone();
                step(&mut next)?;
                let next_text = next.to_state_json().to_string();
                if next_text.len() > limit {
                    break text;
                }
                (chain, text) = (next, next_text);
            }
        }
        "values" => {
            let mut state = Chain::new().to_state_json();
            let room = limit - state.to_string().len() - 2;
            state["blocks"][0]["changes"] = Value::Array(vec![Value::Array(Vec::new()); room / 3]);
            state.to_string()
        }
        other => return Err(format!("unknown shape {other}").into()),
    };
    std::fs::write(file, &text)?;
    println!("{shape}: {} bytes", text.len());
    Ok(())
}

/// Loads `file`; the time, what it holds, and the peak memory.
fn load(file: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let started = Instant::now();
    let node = MockNode::load(file)?;
    let elapsed = started.elapsed();
    let (head, transactions) = node.with_chain(|c| (c.head(), c.transactions.len()));
    println!(
        "loaded {} bytes in {:.2} s: head {head}, {transactions} transactions",
        std::fs::metadata(file)?.len(),
        elapsed.as_secs_f64()
    );
    if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
        for line in status.lines().filter(|l| l.starts_with("VmHWM")) {
            println!("{line}");
        }
    }
    Ok(())
}
