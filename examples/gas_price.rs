//! Reads the gas price (`gas_price`) now and at a block, and what some gas costs at it.
//!
//! ```sh
//! cargo run --example gas_price -- [RPC_URL]
//! ```

use near_rpc::{BlockId, Client, Finality};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .unwrap_or_else(|| "https://rpc.mainnet.near.org".into());
    let client = Client::new(&url)?;

    // `None`: at the latest block. Shown per gas unit, in yoctoNEAR.
    let price = client.gas_price(None).await?;
    println!("gas price: {price}");
    println!("300 Tgas cost at most {}", price.cost(300_000_000_000_000));

    // At a block, by height or hash.
    let height = client.block(Finality::Final).await?.header.height;
    let then = client.gas_price(BlockId::from(height)).await?;
    println!("at block {height}: {then}");
    Ok(())
}
