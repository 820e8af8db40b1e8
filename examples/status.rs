//! Checks a node: `health`, `status` (chain, version, sync) and `network_info` (peers).
//!
//! ```sh
//! cargo run --example status -- [RPC_URL]
//! ```

use near_rpc::Client;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .unwrap_or_else(|| "https://rpc.mainnet.near.org".into());
    let client = Client::new(&url)?;

    // `Ok` when healthy; an unhealthy node answers an error.
    client.health().await?;
    println!("healthy");

    let status = client.status().await?;
    println!(
        "chain {}, protocol {}, nearcore {}",
        status.chain_id, status.protocol_version, status.version.version
    );
    let sync = &status.sync_info;
    println!(
        "latest block {} at {} (syncing: {})",
        sync.latest_block_height, sync.latest_block_time, sync.syncing
    );

    let network = client.network_info().await?;
    println!(
        "{} active peers (at most {})",
        network.num_active_peers, network.peer_max_count
    );
    Ok(())
}
