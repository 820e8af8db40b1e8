//! Lists an account's access keys (`view_access_key_list`) and reads one (`view_access_key`).
//!
//! ```sh
//! cargo run --example access_keys -- [RPC_URL] [ACCOUNT]
//! ```

use near_rpc::types::AccessKeyPermissionView as Permission;
use near_rpc::Client;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("NEAR_RPC_URL").ok())
        .unwrap_or_else(|| "https://rpc.mainnet.near.org".into());
    let account_id = std::env::args()
        .nth(2)
        .unwrap_or_else(|| "alice.mock".into());
    let client = Client::new(&url)?;

    let list = client.view_access_key_list(&account_id).await?;
    println!("{account_id} has {} access keys", list.keys.len());
    for key in &list.keys {
        let permission = match &key.access_key.permission {
            Permission::FullAccess => "full access".to_owned(),
            Permission::FunctionCall {
                receiver_id,
                method_names,
                ..
            } => format!("may call {method_names:?} on {receiver_id}"),
            other => format!("{other:?}"),
        };
        println!("  {}: {permission}", key.public_key.as_str());
    }

    // One key by its public key: its nonce is what the next transaction must exceed.
    if let Some(first) = list.keys.first() {
        let key = client
            .view_access_key(&account_id, first.public_key.as_str())
            .await?;
        println!(
            "next nonce for {}: {}",
            first.public_key.as_str(),
            key.nonce + 1
        );
    }
    Ok(())
}
