//! Calls a contract's change method: JSON args, the default gas (100 Tgas) or gas and a
//! deposit of your choosing, and the method's return value. The signer is read from the
//! environment (`NEAR_ACCOUNT_ID`, `NEAR_PRIVATE_KEY`).
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
    let signer = Signer::from_env()?;
    let client = Client::new(&url)?;

    let args = json!({ "message": "hello from near-rpc" });
    let outcome = client
        .function_call(&signer, &contract, "set_status", args)
        .await?;
    println!(
        "set_status on {contract}: failed: {}, returned {:?}",
        outcome.is_failure(),
        outcome.success_value().transpose()?
    );

    // With gas and a deposit of one yoctoNEAR (what NEP-141 transfers require).
    let args = json!({ "message": "paid for" });
    let gas = NearGas::from_tgas(30);
    let deposit = NearToken::from_yoctonear(1);
    let outcome = client
        .function_call_with(&signer, &contract, "set_status", args, gas, deposit)
        .await?;
    println!("with a deposit: failed: {}", outcome.is_failure());

    // What the contract stored, read back by a view call.
    let args = json!({ "account_id": signer.account_id() });
    let status: Option<String> = client
        .call_function(&contract, "get_status", args)
        .await?
        .json()?;
    println!("{}'s status: {status:?}", signer.account_id());
    Ok(())
}
