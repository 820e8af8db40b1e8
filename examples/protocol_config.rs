//! Compares the protocol config now with the one at genesis (`EXPERIMENTAL_protocol_config`).
//!
//! ```sh
//! cargo run --example protocol_config -- [RPC_URL]
//! ```

use near_rpc::{types::SyncCheckpoint, Client, Finality};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .unwrap_or_else(|| "https://rpc.mainnet.near.org".into());
    let client = Client::new(&url)?;
    let now = client.protocol_config_at(Finality::Final).await?;
    let genesis = client.protocol_config_at(SyncCheckpoint::Genesis).await?;
    // The accessors read the fields every node fills (the spec makes them all optional).
    println!(
        "chain {}: protocol version {} (genesis: {})",
        now.chain_id()?,
        now.protocol_version()?,
        genesis.protocol_version()?
    );
    println!("epoch length {} blocks", now.epoch_length()?);
    // A missing field is an error naming it (`MissingField`), not a panic.
    match now.storage_amount_per_byte() {
        Ok(per_byte) => println!("storage costs {per_byte} per byte"),
        Err(missing) => println!("{missing}"),
    }
    Ok(())
}
