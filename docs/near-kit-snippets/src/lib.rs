//! near-kit 0.17's side of the comparison in `docs/comparison.md`: each snippet is the
//! body between its markers, shown dedented there; near-rpc's `tests/it/examples.rs`
//! checks that the document shows these, with their line counts. Compiled (`cargo
//! check`, by `.ci/run`), not run: they read mainnet.

#![allow(dead_code)]

use std::error::Error;

async fn view_account() -> Result<(), Box<dyn Error>> {
    // snippet: view_account
    use near_kit::*;

    let near = Near::mainnet().build();
    let account = near.account("alice.near").await?;
    println!("{}", account.amount);
    // end
    Ok(())
}

async fn call_function() -> Result<(), Box<dyn Error>> {
    // snippet: call_function
    use near_kit::*;
    use serde_json::json;

    let near = Near::mainnet().build();
    let args = json!({ "account_id": "alice.near" });
    let balance: String = near.view("wrap.near", "ft_balance_of").args(args).await?;
    println!("{balance}");
    // end
    Ok(())
}

async fn tx_status() -> Result<(), Box<dyn Error>> {
    // snippet: tx_status
    use near_kit::*;

    let near = Near::mainnet().build();
    let tx_hash = "6zgh2u9DqHHiXzdy9ouTP7oGky2T4nugqzqt9wJZwNFm".parse()?;
    let status = near.tx_status(&tx_hash, "alice.near");
    let result = status.wait_until::<ExecutedOptimistic>().await?;
    println!("failed: {}", result.is_failure());
    // end
    Ok(())
}

async fn send_tx(signed_tx: Vec<u8>) -> Result<(), Box<dyn Error>> {
    // snippet: send_tx
    use near_kit::*;

    let near = Near::mainnet().build();
    let signed = SignedTransaction::from_bytes(&signed_tx)?;
    let result = near.send(&signed).await?;
    println!("failed: {}", result.is_failure());
    // end
    Ok(())
}

async fn transfer(secret_key: near_kit::SecretKey) -> Result<(), Box<dyn Error>> {
    // snippet: transfer
    use near_kit::*;

    let signer = InMemorySigner::from_secret_key("alice.near", secret_key)?;
    let near = Near::mainnet().signer(signer).build();
    let result = near.transfer("bob.near", NearToken::from_near(1)).await?;
    println!("failed: {}", result.is_failure());
    // end
    Ok(())
}

async fn function_call(secret_key: near_kit::SecretKey) -> Result<(), Box<dyn Error>> {
    // snippet: function_call
    use near_kit::*;

    let signer = InMemorySigner::from_secret_key("alice.near", secret_key)?;
    let near = Near::mainnet().signer(signer).build();
    let result = near.call("counter.near", "increment").await?;
    println!("failed: {}", result.is_failure());
    // end
    Ok(())
}

async fn create_account(
    secret_key: near_kit::SecretKey,
    public_key: near_kit::PublicKey,
) -> Result<(), Box<dyn Error>> {
    // snippet: create_account
    use near_kit::*;

    let signer = InMemorySigner::from_secret_key("alice.near", secret_key)?;
    let near = Near::mainnet().signer(signer).build();
    let result = near
        .transaction("sub.alice.near")
        .create_account()
        .transfer(NearToken::from_near(1))
        .add_full_access_key(public_key)
        .await?;
    println!("failed: {}", result.is_failure());
    // end
    Ok(())
}

async fn block() -> Result<(), Box<dyn Error>> {
    // snippet: block
    use near_kit::*;

    let near = Near::mainnet().build();
    let block = near.rpc().block(BlockReference::final_()).await?;
    println!("{} {}", block.header.height, block.header.hash);
    // end
    Ok(())
}

async fn gas_price() -> Result<(), Box<dyn Error>> {
    // snippet: gas_price
    use near_kit::*;

    let near = Near::mainnet().build();
    let price = near.rpc().gas_price(None).await?;
    println!("{}", price.gas_price);
    // end
    Ok(())
}
