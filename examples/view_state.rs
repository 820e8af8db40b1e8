//! Reads a contract's storage (`view_state`), all of it or the keys with a prefix.
//!
//! ```sh
//! cargo run --example view_state -- [RPC_URL] [CONTRACT] [KEY_PREFIX]
//! ```

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use near_rpc::Client;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .unwrap_or_else(|| "https://rpc.mainnet.near.org".into());
    let contract = std::env::args()
        .nth(2)
        .unwrap_or_else(|| "contract.mock".into());
    let prefix = std::env::args().nth(3).unwrap_or_default();
    let client = Client::new(&url)?;

    // Keys and values are base64 on the wire.
    let state = client.view_state(&contract, prefix.as_bytes()).await?;
    println!(
        "{} entries of {contract} at block {}",
        state.values.len(),
        state.block_height
    );
    for item in &state.values {
        let key = STANDARD.decode(item.key.as_str())?;
        let value = STANDARD.decode(item.value.as_str())?;
        println!(
            "  {} = {}",
            String::from_utf8_lossy(&key),
            String::from_utf8_lossy(&value)
        );
    }
    Ok(())
}
