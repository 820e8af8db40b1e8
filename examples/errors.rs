//! Tells errors apart: a node's typed handler errors (`Error::handler_error`), usage
//! errors caught before sending, and the rest; prints one with each of its causes once
//! (`ErrorReport`).
//!
//! ```sh
//! cargo run --example errors -- [RPC_URL] [MISSING_ACCOUNT] [CONTRACT]
//! ```

use near_rpc::{types::RpcQueryError, Client, ErrorReport};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .unwrap_or_else(|| "https://rpc.mainnet.near.org".into());
    let missing = std::env::args()
        .nth(2)
        .unwrap_or_else(|| "nobody.mock".into());
    let contract = std::env::args()
        .nth(3)
        .unwrap_or_else(|| "contract.mock".into());
    let client = Client::new(&url)?;

    // An account that does not exist: the node's `UNKNOWN_ACCOUNT`, typed.
    match client.view_account(&missing).await {
        Ok(account) => println!("{missing} exists: {}", account.amount),
        Err(e) => match e.handler_error() {
            Some(RpcQueryError::UnknownAccount {
                requested_account_id,
                block_height,
                ..
            }) => println!("no account {requested_account_id} at block {block_height}"),
            _ => return Err(e.into()),
        },
    }

    // A contract method that does not exist: `CONTRACT_EXECUTION_ERROR`.
    match client.call_function(&contract, "no_such_method", ()).await {
        Ok(_) => println!("no_such_method answered"),
        Err(e) => match e.handler_error() {
            Some(RpcQueryError::ContractExecutionError { vm_error, .. }) => {
                println!("the contract failed: {vm_error}")
            }
            _ => return Err(e.into()),
        },
    }

    // An invalid account id never reaches the node.
    if let Err(e) = client.view_account("Not An Account!").await {
        println!("usage error: {}: {}", e.is_usage(), ErrorReport(&e));
    }
    Ok(())
}
