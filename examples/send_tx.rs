//! Submits a transaction signed elsewhere (`send_tx`) and waits for it to be final. To
//! sign with near-rpc, see the `transfer` example or `Client::send`.
//!
//! ```sh
//! cargo run --example send_tx -- RPC_URL SIGNED_TX_BASE64
//! ```

use near_rpc::{types::TxExecutionStatus, Client, ErrorReport};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .unwrap_or_else(|| "https://rpc.mainnet.near.org".into());
    // The base64 of a borsh-encoded SignedTransaction from your signer (`near-rpc sign`
    // makes one).
    let signed_tx = std::env::args()
        .nth(2)
        .ok_or("give the signed transaction's base64 (`near-rpc sign` prints one)")?;
    let client = Client::new(&url)?;

    // Text that is not base64 is refused before anything is sent.
    let refused = client.send_tx("not base64!".to_owned(), None).await;
    if let Err(e) = refused {
        println!(
            "refused (usage error: {}): {}",
            e.is_usage(),
            ErrorReport(&e)
        );
    }

    // Bytes (`Vec<u8>`) or their base64 (`String`).
    let sent = client
        .send_tx(signed_tx, Some(TxExecutionStatus::Final))
        .await?;
    println!("reached {:?}", sent.final_execution_status);
    if let Some(outcome) = &sent.outcome {
        let tx = outcome.transaction_outcome();
        println!("transaction {} by {}", tx.id, tx.outcome.executor_id);
    }
    println!("failed: {}", sent.is_failure());
    Ok(())
}
