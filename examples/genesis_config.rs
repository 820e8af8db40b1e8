//! Prints a few fields of the chain's genesis configuration.
//!
//! ```sh
//! cargo run --example genesis_config -- [RPC_URL]
//! ```

use near_rpc::Client;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .unwrap_or_else(|| "https://rpc.mainnet.near.org".into());
    let genesis = Client::new(&url)?.genesis_config().await?;
    println!(
        "chain {} started at {}",
        genesis.chain_id, genesis.genesis_time
    );
    println!("genesis protocol version {}", genesis.protocol_version);
    println!("epoch length {} blocks", genesis.epoch_length);
    Ok(())
}
