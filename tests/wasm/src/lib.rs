//! A minimal dApp's use of near-rpc, compiled to wasm32: read an account, send a
//! transfer signed in the wasm; read with an API key through a server that redirects, and
//! from one that never answers. checks.mjs calls these against `near-rpc mock` (and
//! provider.mjs), under Node (run.mjs) and in a page of headless Chromium (index.html);
//! scripts/wasm.sh runs both.

use std::time::Duration;

use near_rpc::client::layers::RetryPolicy;
use near_rpc::client::ApiKey;
use near_rpc::types::TxExecutionStatus;
use near_rpc::{Client, ErrorReport, NearToken, Signer};
use wasm_bindgen::prelude::*;

/// The error's text, as JS sees it.
fn js(error: impl std::fmt::Display) -> JsError {
    JsError::new(&error.to_string())
}

/// `account`'s balance at the final block, in yoctoNEAR.
#[wasm_bindgen]
pub async fn balance(url: String, account: String) -> Result<String, JsError> {
    let client = Client::new(&url).map_err(js)?;
    let view = client.view_account(&account).await.map_err(js)?;
    Ok(view.amount.as_yoctonear().to_string())
}

/// Sends `yocto` yoctoNEAR from `account` (whose key is `secret_key`, near-cli's
/// `ed25519:...` text) to `receiver`, waiting until final; the transaction's hash.
#[wasm_bindgen]
pub async fn transfer(
    url: String,
    account: String,
    secret_key: String,
    receiver: String,
    yocto: String,
) -> Result<String, JsError> {
    let signer = Signer::new(
        account.parse().map_err(js)?,
        secret_key.parse().map_err(js)?,
    );
    let amount = NearToken::from_yoctonear(yocto.parse().map_err(js)?);
    let client = Client::new(&url)
        .map_err(js)?
        .waiting_until(TxExecutionStatus::Final);
    let outcome = client
        .transfer(&signer, &receiver, amount)
        .await
        .map_err(js)?;
    if outcome.is_failure() {
        return Err(JsError::new("the transfer failed on chain"));
    }
    let outcome = outcome
        .outcome
        .ok_or_else(|| JsError::new("the answer holds no outcome"))?;
    Ok(outcome.transaction_outcome().id.to_string())
}

/// `account`'s balance read through `url` with `api_key` sent as `x-api-key` (a hosted
/// provider's way): checks.mjs points it at a server that redirects, and expects the
/// error, with the key sent to no one else.
#[wasm_bindgen]
pub async fn balance_with_key(
    url: String,
    account: String,
    api_key: String,
) -> Result<String, JsError> {
    let client = Client::builder()
        .endpoint(&url)
        .map_err(js)?
        .api_key(ApiKey::x_api_key(&api_key).map_err(js)?)
        .build()
        .map_err(js)?;
    reported_balance(&client, &account).await
}

/// `account`'s balance read through `url`, one attempt of at most `millis` ms and no
/// retry: checks.mjs points it at a server that never answers, and expects the timeout,
/// with the request aborted.
#[wasm_bindgen]
pub async fn balance_within(url: String, account: String, millis: u32) -> Result<String, JsError> {
    let client = Client::builder()
        .endpoint(&url)
        .map_err(js)?
        .timeout(Duration::from_millis(millis.into()))
        .retry(RetryPolicy::none())
        .build()
        .map_err(js)?;
    reported_balance(&client, &account).await
}

/// `account`'s balance through `client`; an error with its whole chain (the transport's
/// reason is the cause of the call's error).
async fn reported_balance(client: &Client, account: &str) -> Result<String, JsError> {
    let view = client
        .view_account(account)
        .await
        .map_err(|e| js(ErrorReport(&e)))?;
    Ok(view.amount.as_yoctonear().to_string())
}
