//! `sign-message` and `verify-message`: NEP-413 signed messages, how wallets prove to a
//! dApp who holds an account's key without a transaction (`near_rpc::tx::MessagePayload`,
//! `SignedMessage`).
//!
//! Signing is offline. Verifying checks the signature of the payload given, offline; with
//! `--check-key` it also reads the key from the node (`view_access_key`) and requires it
//! to be a full-access key of the account, as NEP-413 asks of a dApp. Neither can check
//! that the nonce is fresh: that is in the recipient's own records.

use near_rpc::tx::{Credentials, MessagePayload, SignedMessage};
use near_rpc::types::{AccessKeyPermissionView, RpcQueryError};
use near_rpc::{AccountId, Client, CryptoHash, PublicKey};
use serde::Serialize;
use serde_json::json;

use crate::output::{failure, write_stdout, Failure, EXIT_DECODE, EXIT_UNVERIFIED};

/// What `sign-message` prints, in this order: NEP-413's `SignedMessage` in the
/// snake_case names command-line tools print (wallets' camelCase is read back too).
#[derive(Serialize)]
struct Printed<'a> {
    /// The key file's account.
    account_id: &'a AccountId,
    /// Its key.
    public_key: &'a PublicKey,
    /// The signature's raw bytes, standard base64 (as wallets give it).
    signature: String,
}

/// `sign-message`: the key file's account signs `payload`; one JSON line
/// `{"account_id", "public_key", "signature"}`.
pub fn sign(credentials: &Credentials, payload: &MessagePayload) -> Result<(), Failure> {
    let signed = payload.sign(credentials.account_id.clone(), &credentials.secret_key);
    print_line(&Printed {
        account_id: &signed.account_id,
        public_key: &signed.public_key,
        signature: signed.signature_base64(),
    })
}

/// Who signed, as `verify-message` is given it: the JSON `sign-message` printed (or a
/// wallet's `{"accountId", "publicKey", "signature"}`), or its three values.
pub fn signed_message(
    signed: Option<&str>,
    account_id: Option<AccountId>,
    public_key: Option<PublicKey>,
    signature: Option<&str>,
) -> Result<SignedMessage, Failure> {
    if let Some(text) = signed {
        let bad = |why: String| Failure::usage(format!("--signed: {why}"));
        // serde_json would keep the last of a repeated key: the first was meant as much.
        near_rpc::decode::check_unique_keys(text.as_bytes()).map_err(|e| bad(e.to_string()))?;
        return serde_json::from_str(text).map_err(|e| bad(e.to_string()));
    }
    // Parsing requires the three together; their absence here is a usage error all the
    // same rather than a panic.
    let (Some(account_id), Some(public_key), Some(signature)) = (account_id, public_key, signature)
    else {
        return Err(Failure::usage(
            "give --signed JSON, or --account-id, --public-key and --signature",
        ));
    };
    // The library's reading of NEP-413's JSON: standard base64 (or NEAR's `curve:base58`
    // text), of the public key's curve and length.
    serde_json::from_value(json!({
        "account_id": account_id,
        "public_key": public_key,
        "signature": signature,
    }))
    .map_err(|e| Failure::usage(format!("--signature: {e}")))
}

/// `verify-message`: whether `signed` is its key's signature of `payload`, and with
/// `client` (`--check-key`) whether that key is a full-access key of its account on the
/// node. Prints `{"valid": true}` (with the block the key was read at, when it was) or
/// `{"valid": false}`, exit 6, the reason on stderr.
pub async fn verify(
    signed: &SignedMessage,
    payload: &MessagePayload,
    client: Option<&Client>,
) -> Result<(), Failure> {
    if !signed.verify(payload) {
        return invalid(format!(
            "the signature is not {}'s over this NEP-413 payload (message, recipient, nonce \
             and callback URL, hash {})",
            signed.public_key,
            payload.hash()
        ));
    }
    let Some(client) = client else {
        return print_line(&json!({"valid": true}));
    };
    let (account, key) = (&signed.account_id, &signed.public_key);
    let read = match client.view_access_key(account.clone(), key.clone()).await {
        Ok(read) => read,
        Err(error) => {
            return match error.handler_error() {
                Some(RpcQueryError::UnknownAccessKey { .. }) => {
                    invalid(format!("{key} is not a key of {account}"))
                }
                Some(RpcQueryError::UnknownAccount { .. }) => {
                    invalid(format!("the account {account} does not exist"))
                }
                _ => Err(failure(error)),
            };
        }
    };
    let at = |block_height: u64, block_hash: CryptoHash| {
        format!("at block {block_height} ({block_hash})")
    };
    match &read.value.permission {
        AccessKeyPermissionView::FullAccess => print_line(&json!({
            "valid": true,
            "block_height": read.block_height,
            "block_hash": read.block_hash.to_string(),
        })),
        other => {
            let kind = match other {
                AccessKeyPermissionView::FunctionCall { .. } => "a function-call key",
                AccessKeyPermissionView::GasKeyFunctionCall { .. } => "a gas key (function call)",
                AccessKeyPermissionView::GasKeyFullAccess { .. } => "a gas key",
                _ => "a key of a kind this tool does not know",
            };
            invalid(format!(
                "{key} is {kind} of {account} {}, not a full-access key (NEP-413 signs \
                 with full-access keys)",
                at(read.block_height, read.block_hash)
            ))
        }
    }
}

/// Not valid: `{"valid": false}` on stdout, the reason on stderr, exit 6.
fn invalid(reason: String) -> Result<(), Failure> {
    print_line(&json!({"valid": false}))?;
    Err(Failure::new(EXIT_UNVERIFIED, reason))
}

/// One JSON line on stdout.
fn print_line(value: &impl Serialize) -> Result<(), Failure> {
    let line = serde_json::to_string(value).map_err(|e| {
        Failure::new(
            EXIT_DECODE,
            format!("cannot encode the output line as JSON: {e}"),
        )
    })?;
    write_stdout(&format!("{line}\n"))
}
