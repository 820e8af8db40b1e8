//! Looks up a transaction with `EXPERIMENTAL_tx_status` and prints what happened.
//!
//! ```sh
//! cargo run --example tx_status -- [RPC_URL] [TX_HASH] [SENDER_ACCOUNT]
//! ```

use near_rpc::{types::TxExecutionStatus, Client, CryptoHash};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let url = args
        .next()
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .unwrap_or_else(|| "https://rpc.mainnet.near.org".into());
    // By default, the mock node's transfer from alice.mock to bob.mock.
    let hash: CryptoHash = args
        .next()
        .as_deref()
        .unwrap_or("DGdWGPRbbmh53HuLYnWmFXhh5VAbGXC6qGVYLW1eVNES")
        .parse()?;
    let sender = args.next().unwrap_or_else(|| "alice.mock".into());
    let client = Client::new(&url)?;

    let response = client
        .tx_status((hash, sender.parse()?), Some(TxExecutionStatus::Final))
        .await?;
    println!("reached: {:?}", response.final_execution_status);
    if let Some(failure) = response.first_failure() {
        println!("failed: {failure:?}");
    } else if let Some(value) = response.success_value() {
        println!("returned {} bytes", value?.len());
    }
    for (receipt, outcome) in response.receipts_with_outcomes() {
        let burnt = outcome
            .map(|o| o.outcome.gas_burnt.as_gas())
            .unwrap_or_default();
        println!(
            "receipt {} -> {}: {burnt} gas",
            receipt.receipt_id, receipt.receiver_id
        );
    }
    Ok(())
}
