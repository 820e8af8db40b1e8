//! Reads a chunk (`chunk`) by block height and shard, then by its hash, and lists its
//! transactions.
//!
//! ```sh
//! cargo run --example chunk -- [RPC_URL] [BLOCK_HEIGHT]
//! ```

use near_rpc::{Client, Finality};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .unwrap_or_else(|| "https://rpc.mainnet.near.org".into());
    let client = Client::new(&url)?;
    let height = match std::env::args().nth(2) {
        Some(height) => height.parse()?,
        None => client.block(Finality::Final).await?.header.height,
    };

    // Shard 0 of the block at `height`.
    let chunk = client.chunk((height, 0)).await?;
    println!(
        "chunk {} of block {height}: {} transactions, {} receipts",
        chunk.header.chunk_hash,
        chunk.transactions.len(),
        chunk.receipts.len()
    );
    for tx in &chunk.transactions {
        println!("  {} {} -> {}", tx.hash, tx.signer_id, tx.receiver_id);
    }

    // The same chunk by its hash.
    let again = client.chunk(chunk.header.chunk_hash).await?;
    println!("by hash: included at {}", again.header.height_included);
    Ok(())
}
