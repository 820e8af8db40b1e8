//! Calls a contract's view methods (`call_function`) with JSON args and reads typed results.
//!
//! ```sh
//! cargo run --example contract_view -- [RPC_URL] [CONTRACT]
//! ```

use near_rpc::client::Client;
use serde::Deserialize;
use serde_json::json;

/// What `get_status` returns.
#[derive(Debug, Deserialize)]
struct Status {
    version: String,
    paused: bool,
}

/// What `echo` returns: the args it was given.
#[derive(Debug, Deserialize)]
struct Greeting {
    greeting: String,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .unwrap_or_else(|| "https://rpc.mainnet.near.org".into());
    let contract = std::env::args()
        .nth(2)
        .unwrap_or_else(|| "contract.mock".into());
    let client = Client::new(&url)?;

    // No args (`()`), a JSON result read into a struct; the contract's logs come along.
    let result = client.call_function(&contract, "get_status", ()).await?;
    let status: Status = result.json()?;
    println!(
        "version {}, paused: {} (logs: {:?})",
        status.version, status.paused, result.logs
    );

    // JSON args: any `Serialize` value.
    let args = json!({ "greeting": "hello from near-rpc" });
    let echoed: Greeting = client
        .call_function(&contract, "echo", args)
        .await?
        .json()?;
    println!("echo: {}", echoed.greeting);

    // A result as text.
    let greeting = client.call_function(&contract, "get_greeting", ()).await?;
    println!(
        "get_greeting returned {}",
        greeting.text().unwrap_or("(not UTF-8)")
    );
    Ok(())
}
