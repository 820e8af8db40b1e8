//! The same calls from blocking code, with `BlockingClient` (feature `blocking`).
//!
//! ```sh
//! cargo run --example blocking --features blocking -- [RPC_URL] [ACCOUNT]
//! ```

fn main() -> Result<(), Box<dyn std::error::Error>> {
    use near_rpc::{Client, Finality};

    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .unwrap_or_else(|| "https://rpc.mainnet.near.org".into());
    let account_id = std::env::args()
        .nth(2)
        .unwrap_or_else(|| "alice.mock".into());
    // Every async shortcut has a blocking twin; don't use it inside an async runtime.
    let client = Client::builder().endpoint(&url)?.build_blocking()?;

    let block = client.block(Finality::Final)?;
    println!("final block {}", block.header.height);
    let account = client.view_account(&account_id)?;
    println!("{account_id}: {}", account.amount);
    let earlier = client
        .at(block.header.height - 1)
        .view_account(&account_id)?;
    println!("read at block {}", earlier.block_height);
    println!("gas price {}", client.gas_price(None)?);
    Ok(())
}
