//! Compares the protocol config now with the one at genesis.
//!
//! ```sh
//! cargo run --example protocol_config -- [RPC_URL]
//! ```

use near_rpc::client::Client;
use near_rpc::types::{Finality, SyncCheckpoint};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "https://rpc.mainnet.near.org".into());
    let client = Client::new(&url)?;
    let now = client.protocol_config_at(Finality::Final).await?;
    let genesis = client.protocol_config_at(SyncCheckpoint::Genesis).await?;
    println!(
        "protocol version {:?} (genesis: {:?})",
        now.protocol_version, genesis.protocol_version
    );
    if let Some(per_byte) = now.runtime_config.and_then(|r| r.storage_amount_per_byte) {
        println!("storage costs {per_byte} per byte");
    }
    Ok(())
}
