//! The write commands: `sign` (offline), `send` and `transfer`. Their input is read
//! here: the key file, ACTIONS_JSON in the spec's `ActionView` form, and NEAR amounts.
//! Every error names the input at fault and never the secret key.

use std::path::Path;

use near_rpc::client::{looks_like_secret, Client, SendError, Signer};
use near_rpc::tx::{Action, Credentials, SecretKey, Transaction};
use near_rpc::types::ActionView;
use near_rpc::{AccountId, CryptoHash, NearToken, RpcTransactionResponse};
use serde_json::{json, Value};

use crate::output::EXIT_TRANSPORT;
use crate::output::{failure, one_line, print_json, write_stdout, Failure, EXIT_RPC};

/// yoctoNEAR in one NEAR: 10^24.
const YOCTO_PER_NEAR: u128 = 1_000_000_000_000_000_000_000_000;

/// The credentials of `--key-file`. A path that is itself a key is refused without
/// being repeated.
pub fn key_file(path: &Path) -> Result<Credentials, Failure> {
    let text = path.to_string_lossy();
    if text.parse::<SecretKey>().is_ok()
        || text.starts_with("ed25519:")
        || text.starts_with("secp256k1:")
    {
        return Err(Failure::usage(
            "--key-file takes the path of a credential file, not a key",
        ));
    }
    Credentials::from_file(path).map_err(|e| Failure::usage(one_line(&e.to_string())))
}

/// ACTIONS_JSON: a JSON array of actions in the spec's `ActionView` form
/// (`["CreateAccount", {"Transfer": {"deposit": "1000"}}]`). Deployments take the
/// code's base64 in `code` (a node's view shows its hash there instead).
pub fn actions(text: &str) -> Result<Vec<Action>, Failure> {
    let bad = |message: String| Failure::usage(format!("ACTIONS_JSON: {message}"));
    let value: Value =
        serde_json::from_str(text).map_err(|e| bad(format!("not valid JSON: {e}")))?;
    let Value::Array(items) = value else {
        return Err(bad("not a JSON array of actions".to_owned()));
    };
    if items.is_empty() {
        return Err(bad("no actions".to_owned()));
    }
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            let view: ActionView = near_rpc::decode::from_value_strict(item)
                .map_err(|e| bad(format!("[{i}]: {e}")))?;
            action(&view).map_err(|e| bad(format!("[{i}]: {e}")))
        })
        .collect()
}

/// One action from its view, deployments reading `code` as the code itself.
fn action(view: &ActionView) -> Result<Action, String> {
    use near_rpc::tx::GlobalContractDeployMode as Mode;
    let code = |text: &str| {
        near_rpc::FunctionArgs(text.to_owned())
            .to_bytes()
            .map_err(|e| format!("`code`: {e}"))
    };
    Ok(match view {
        ActionView::DeployContract { code: text } => Action::DeployContract { code: code(text)? },
        ActionView::DeployGlobalContract { code: text } => Action::DeployGlobalContract {
            code: code(text)?,
            deploy_mode: Mode::CodeHash,
        },
        ActionView::DeployGlobalContractByAccountId { code: text } => {
            Action::DeployGlobalContract {
                code: code(text)?,
                deploy_mode: Mode::AccountId,
            }
        }
        view => Action::try_from(view).map_err(|e| e.to_string())?,
    })
}

/// An amount of NEAR as written (`1`, `1.5`, `0.001`: at most 24 decimals), or of
/// yoctoNEAR with `yocto`. Exact: no floating point.
pub fn amount(text: &str, yocto: bool) -> Result<NearToken, Failure> {
    // Not repeated when it may be a key pasted in the wrong place.
    let shown = if looks_like_secret(text) || text.contains(':') {
        "AMOUNT".to_owned()
    } else {
        format!("AMOUNT `{text}`")
    };
    let bad = |why: &str| Failure::usage(format!("{shown}: {why}"));
    let text = text.trim();
    if text.starts_with('-') {
        return Err(bad("an amount cannot be negative"));
    }
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty() || !digits(whole) || !digits(fraction) {
        return Err(bad(if yocto {
            "expected a whole number of yoctoNEAR"
        } else {
            "expected a number of NEAR such as 1, 1.5 or 0.001"
        }));
    }
    let too_large = || bad("too large: more than 2^128 yoctoNEAR");
    if yocto {
        if !fraction.is_empty() {
            return Err(bad("yoctoNEAR are whole"));
        }
        return whole
            .parse::<u128>()
            .map(NearToken::from_yoctonear)
            .map_err(|_| too_large());
    }
    if fraction.len() > 24 {
        return Err(bad("more than 24 decimals (a yoctoNEAR is 10^-24 NEAR)"));
    }
    let whole: u128 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| too_large())?
    };
    let fraction: u128 = format!("{fraction:0<24}")
        .parse()
        .map_err(|_| too_large())?;
    whole
        .checked_mul(YOCTO_PER_NEAR)
        .and_then(|w| w.checked_add(fraction))
        .map(NearToken::from_yoctonear)
        .ok_or_else(too_large)
}

/// `sign`: the signed transaction's base64 and hash, as one JSON line.
pub fn sign(
    credentials: &Credentials,
    signer: Option<AccountId>,
    nonce: u64,
    block_hash: CryptoHash,
    receiver: AccountId,
    actions: Vec<Action>,
) -> Result<(), Failure> {
    let signer_id = signer_of(credentials, signer)?;
    let signed = Transaction::new(
        signer_id,
        credentials.public_key(),
        nonce,
        receiver,
        block_hash,
        actions,
    )
    .sign(&credentials.secret_key);
    let line = json!({
        "signed_tx_base64": signed.to_base64(),
        "hash": signed.hash().to_string(),
    });
    write_stdout(&format!("{line}\n"))
}

/// The signer: `--signer` when given, which must be the key file's account.
fn signer_of(credentials: &Credentials, signer: Option<AccountId>) -> Result<AccountId, Failure> {
    match signer {
        Some(signer) if signer != credentials.account_id => Err(Failure::usage(format!(
            "--signer {signer}: the key file is for {}",
            credentials.account_id
        ))),
        _ => Ok(credentials.account_id.clone()),
    }
}

/// `send` and `transfer`: signs and sends through the client's write path, prints the
/// typed outcome; a failure on chain is exit 3, with the failure on stderr.
pub async fn send(
    client: &Client,
    credentials: Credentials,
    receiver: AccountId,
    actions: Vec<Action>,
) -> Result<(), Failure> {
    let signer = Signer::from_credentials(credentials);
    let outcome = client
        .send(&signer, receiver, actions)
        .await
        .map_err(send_failure)?;
    print_json(&outcome)?;
    on_chain_failure(&outcome)
}

fn on_chain_failure(outcome: &RpcTransactionResponse) -> Result<(), Failure> {
    match outcome.first_failure() {
        Some(error) => Err(Failure::new(
            EXIT_RPC,
            format!(
                "the transaction failed on chain: {}",
                one_line(&json!(error).to_string())
            ),
        )),
        None => Ok(()),
    }
}

fn send_failure(error: SendError) -> Failure {
    let reason = error
        .invalid_tx_error()
        .map(|r| one_line(&json!(r).to_string()));
    match error {
        SendError::Usage { message } => Failure::usage(message),
        SendError::AccessKey(error) => {
            let mut failure = failure(*error);
            failure.message = format!("cannot read the signer's access key: {}", failure.message);
            failure
        }
        // Refused by the node (its typed error goes to stdout, as for any JSON-RPC
        // error) or never sent.
        SendError::Rejected { hash, error } => {
            let mut failure = failure(*error);
            failure.message = match reason {
                Some(reason) => format!(
                    "transaction {hash} was refused: {reason}: {}",
                    failure.message
                ),
                None => format!("transaction {hash} was not accepted: {}", failure.message),
            };
            failure
        }
        // It may still execute: say how to find out, and give the bytes to re-send as
        // they are (re-running the command would sign a second transaction).
        SendError::Unresolved {
            hash,
            signed,
            error,
        } => {
            let _ = print_json(&json!({
                "unresolved": hash.to_string(),
                "signed_tx_base64": signed.to_base64(),
            }));
            Failure::new(
                EXIT_TRANSPORT,
                format!(
                    "transaction {hash} may have been sent and its outcome is unknown: {}; \
                     look it up with `near-rpc tx-status --hash {hash} --sender {}` or \
                     re-send the same bytes with `near-rpc send-tx --base64 ...` (printed \
                     on stdout) before sending it again",
                    one_line(&error.to_string()),
                    signed.transaction().signer_id()
                ),
            )
        }
        other => Failure::new(EXIT_TRANSPORT, one_line(&other.to_string())),
    }
}
