//! A minimal dApp's use of near-rpc, compiled to wasm32: read an account, send a
//! transfer signed in the wasm. checks.mjs calls these against `near-rpc mock`, under
//! Node (run.mjs) and in a page of headless Chromium (index.html); scripts/wasm.sh runs
//! both.

use near_rpc::types::TxExecutionStatus;
use near_rpc::{Client, NearToken, Signer};
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
