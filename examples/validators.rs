//! Lists the current epoch's validators by stake (`validators`).
//!
//! ```sh
//! cargo run --example validators -- [RPC_URL]
//! ```

use near_rpc::{client::Epoch, Client};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .unwrap_or_else(|| "https://rpc.mainnet.near.org".into());
    let client = Client::new(&url)?;

    // `Epoch::Id(..)` or a block (`Epoch::OfBlock(..)`) name other epochs.
    let validators = client.validators(Epoch::Latest).await?;
    println!(
        "epoch {} from block {}: {} validators",
        validators.epoch_height,
        validators.epoch_start_height,
        validators.current_validators.len()
    );
    let mut current = validators.current_validators;
    current.sort_by_key(|v| std::cmp::Reverse(v.stake));
    for validator in current.iter().take(10) {
        println!(
            "  {} stakes {}, produced {} of {} blocks",
            validator.account_id,
            validator.stake,
            validator.num_produced_blocks,
            validator.num_expected_blocks
        );
    }
    Ok(())
}
