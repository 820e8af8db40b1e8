//! Creates a sub-account of the signer, funds it and gives it a full-access key, then
//! adds a function-call key to the signer's own account: multi-action transactions
//! built with `transaction(receiver)`. The signer is read from the environment
//! (`NEAR_ACCOUNT_ID`, `NEAR_PRIVATE_KEY`) and configured once.
//!
//! ```sh
//! NEAR_ACCOUNT_ID=alice.near NEAR_PRIVATE_KEY=ed25519:... \
//!     cargo run --example create_account -- RPC_URL [NEW_ACCOUNT] [PUBLIC_KEY]
//! ```

use near_rpc::{tx::AccessKey, Client, NearToken, Signer};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // No default node: a write spends real tokens, so the node is always named.
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .ok_or("give the node's URL (a write spends real tokens; no default)")?;
    let alice = Client::new(&url)?.with_signer(Signer::from_env()?);
    let new_account = std::env::args()
        .nth(2)
        .unwrap_or_else(|| format!("sub.{}", alice.account_id()));
    // The new account's key (by default one whose secret is published: use your own).
    let public_key: near_rpc::PublicKey = std::env::args()
        .nth(3)
        .unwrap_or_else(|| "ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW".into())
        .parse()?;

    let outcome = alice
        .transaction(&new_account)
        .create_account()
        .transfer(NearToken::from_near(1))
        .add_full_access_key(&public_key)
        .await?;
    println!(
        "created {new_account} with 1 NEAR and key {public_key}: failed: {}",
        outcome.is_failure()
    );

    // A key that may only call `vote` on app.mock, spending at most 0.25 NEAR on gas.
    let limited = AccessKey::function_call(
        "app.mock",
        vec!["vote".into()],
        Some(NearToken::from_millinear(250)),
    );
    let outcome = alice
        .transaction(alice.account_id())
        .add_key(&public_key, limited)
        .await?;
    println!("function-call key added: failed: {}", outcome.is_failure());
    Ok(())
}
