//! Load on the mock node over HTTP: `CALLS` reads (`view_account`, `block`, `status` in
//! turn) from `CLIENTS` concurrent near-rpc clients, each with its own connection pool
//! (keep-alive), then the requests per second and the process's peak memory. The
//! figures in BENCHMARKS.md come from here:
//!
//! ```sh
//! cargo run --release -p near-rpc-mock --example load -- [CALLS] [CLIENTS]
//! ```

use std::time::Instant;

use near_rpc::{Client, Finality};
use near_rpc_mock::MockNode;

#[tokio::main(flavor = "multi_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let calls: usize = args.next().map_or(Ok(10_000), |a| a.parse())?;
    let clients: usize = args.next().map_or(Ok(64), |a| a.parse())?;
    let server = MockNode::start().await;
    let url = server.url().to_owned();
    let started = Instant::now();
    let mut tasks = Vec::new();
    for client_index in 0..clients {
        let client = Client::new(&url)?;
        // Calls spread evenly; the first clients take the remainder.
        let share = calls / clients + usize::from(client_index < calls % clients);
        tasks.push(tokio::spawn(async move {
            for call in 0..share {
                let outcome = match call % 3 {
                    0 => client
                        .view_account("alice.mock")
                        .await
                        .map(drop)
                        .map_err(|e| e.to_string()),
                    1 => client
                        .block(Finality::Final)
                        .await
                        .map(drop)
                        .map_err(|e| e.to_string()),
                    _ => client.status().await.map(drop).map_err(|e| e.to_string()),
                };
                outcome?;
            }
            Ok::<usize, String>(share)
        }));
    }
    let mut done = 0;
    for task in tasks {
        done += task.await??;
    }
    let elapsed = started.elapsed();
    let requests = server.requests().len();
    println!(
        "{done} calls from {clients} clients in {:.2} s: {:.0} requests/s; {requests} requests received",
        elapsed.as_secs_f64(),
        done as f64 / elapsed.as_secs_f64()
    );
    if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
        for line in status
            .lines()
            .filter(|l| l.starts_with("VmHWM") || l.starts_with("VmRSS"))
        {
            println!("{line}");
        }
    }
    Ok(())
}
