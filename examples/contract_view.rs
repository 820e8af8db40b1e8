//! Calls a contract's view method (`call_function`) with JSON args and reads typed
//! results: the status-message contract's `get_status`.
//!
//! ```sh
//! cargo run --example contract_view -- [RPC_URL] [CONTRACT]
//! ```

use near_rpc::Client;
use serde_json::json;

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

    // JSON args (any `Serialize` value), a JSON result read into a type; the contract's
    // logs come along.
    let args = json!({ "account_id": "bob.mock" });
    let result = client.call_function(&contract, "get_status", args).await?;
    let status: Option<String> = result.json()?;
    println!("bob.mock's status: {status:?} (logs: {:?})", result.logs);

    // `null` reads as `None`.
    let args = json!({ "account_id": "nobody.mock" });
    let status: Option<String> = client
        .call_function(&contract, "get_status", args)
        .await?
        .json()?;
    println!("nobody.mock's status: {status:?}");

    // The result as text.
    println!("as text: {}", result.text().unwrap_or("(not UTF-8)"));
    Ok(())
}
