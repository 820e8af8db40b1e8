//! Calls a contract's change method: JSON args, the default gas (100 Tgas) or gas and a
//! deposit of your choosing, and the method's return value, with the call builder of a
//! client whose signer (read from the environment: `NEAR_ACCOUNT_ID`,
//! `NEAR_PRIVATE_KEY`) is configured once.
//!
//! ```sh
//! NEAR_ACCOUNT_ID=alice.near NEAR_PRIVATE_KEY=ed25519:... \
//!     cargo run --example function_call -- RPC_URL [CONTRACT]
//! ```

use near_rpc::{Client, NearGas, NearToken, Signer};
use serde_json::json;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // No default node: a write spends real tokens, so the node is always named.
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .ok_or("give the node's URL (a write spends real tokens; no default)")?;
    let contract = std::env::args()
        .nth(2)
        .unwrap_or_else(|| "contract.mock".into());
    let alice = Client::new(&url)?.with_signer(Signer::from_env()?);

    let args = json!({ "message": "hello from near-rpc" });
    let outcome = alice.call(&contract, "set_status").args(args).await?;
    println!(
        "set_status on {contract}: failed: {}, returned {:?}",
        outcome.is_failure(),
        outcome.success_value().transpose()?
    );

    // With gas and a deposit of one yoctoNEAR (what NEP-141 transfers require).
    let outcome = alice
        .call(&contract, "set_status")
        .args(json!({ "message": "paid for" }))
        .gas(NearGas::from_tgas(30))
        .deposit(NearToken::from_yoctonear(1))
        .await?;
    println!("with a deposit: failed: {}", outcome.is_failure());

    // What the contract stored, read back by a view call (the reads are the client's).
    let args = json!({ "account_id": alice.account_id() });
    let status: Option<String> = alice.view_json(&contract, "get_status", args).await?;
    println!("{}'s status: {status:?}", alice.account_id());
    Ok(())
}
