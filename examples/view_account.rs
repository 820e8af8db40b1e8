//! Reads an account's balance and storage (`view_account`), now and at an older block.
//!
//! ```sh
//! cargo run --example view_account -- [RPC_URL] [ACCOUNT]
//! ```

use near_rpc::Client;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .unwrap_or_else(|| "https://rpc.mainnet.near.org".into());
    let account_id = std::env::args()
        .nth(2)
        .unwrap_or_else(|| "alice.mock".into());
    let client = Client::new(&url)?;

    // Views read at the latest final block; the answer says which block that was.
    let account = client.view_account(&account_id).await?;
    println!(
        "{account_id} at block {}: {} ({} locked), {} bytes of storage",
        account.block_height, account.amount, account.locked, account.storage_usage
    );

    // `at` reads at another block: a height, a hash or a finality.
    let earlier = account.block_height - 5;
    let then = client.at(earlier).view_account(&account_id).await?;
    println!("at block {}: {}", then.block_height, then.amount);
    Ok(())
}
