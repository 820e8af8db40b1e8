//! Reads the latest final block (`block`), then its parent by hash.
//!
//! ```sh
//! cargo run --example block -- [RPC_URL]
//! ```

use near_rpc::{client::GasPrice, Client, Finality};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .unwrap_or_else(|| "https://rpc.mainnet.near.org".into());
    let client = Client::new(&url)?;

    // By finality; a height (`client.block(120)`) or a hash work the same way.
    let block = client.block(Finality::Final).await?;
    let header = &block.header;
    println!(
        "final block {} {} by {}",
        header.height, header.hash, block.author
    );
    println!(
        "{} chunks, gas price {}",
        block.chunks.len(),
        GasPrice::from(header.gas_price)
    );

    let parent = client.block(header.prev_hash).await?;
    println!("parent {} {}", parent.header.height, parent.header.hash);
    Ok(())
}
