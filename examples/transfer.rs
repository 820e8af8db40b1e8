//! Sends NEAR: the signer is read from the environment (`NEAR_ACCOUNT_ID` and
//! `NEAR_PRIVATE_KEY`, as a near-cli key's `ed25519:...` text) and configured once
//! (`with_signer`), the nonce and a recent block hash from the node; the transaction is
//! signed, sent, and waited for until final.
//!
//! ```sh
//! NEAR_ACCOUNT_ID=alice.near NEAR_PRIVATE_KEY=ed25519:... \
//!     cargo run --example transfer -- RPC_URL [RECEIVER] [AMOUNT_IN_YOCTONEAR]
//! ```

use near_rpc::{types::TxExecutionStatus, Client, NearToken, Signer};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // No default node: a write spends real tokens, so the node is always named.
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .ok_or("give the node's URL (a write spends real tokens; no default)")?;
    let receiver = std::env::args().nth(2).unwrap_or_else(|| "bob.mock".into());
    let amount = match std::env::args().nth(3) {
        Some(yocto) => NearToken::from_yoctonear(yocto.parse()?),
        None => NearToken::from_near(1),
    };
    let client = Client::new(&url)?.waiting_until(TxExecutionStatus::Final);
    let alice = client.with_signer(Signer::from_env()?);

    let outcome = alice.transfer(&receiver, amount).await?;
    println!(
        "sent {amount} from {} to {receiver}: reached {:?}, failed: {}",
        alice.account_id(),
        outcome.final_execution_status,
        outcome.is_failure()
    );
    if let Some(outcome) = &outcome.outcome {
        println!("transaction {}", outcome.transaction_outcome().id);
    }

    // Several at once: consecutive nonces, no second read of the key.
    let (a, b) = tokio::join!(
        alice
            .transfer(&receiver, NearToken::from_yoctonear(1))
            .send(),
        alice
            .transfer(&receiver, NearToken::from_yoctonear(2))
            .send(),
    );
    let nonce = |o: &near_rpc::types::RpcTransactionResponse| {
        o.outcome.as_ref().map(|o| match o {
            near_rpc::types::TransactionOutcome::WithReceipts(o) => o.transaction.nonce,
            near_rpc::types::TransactionOutcome::WithoutReceipts(o) => o.transaction.nonce,
        })
    };
    println!("two more, nonces {:?} and {:?}", nonce(&a?), nonce(&b?));
    Ok(())
}
