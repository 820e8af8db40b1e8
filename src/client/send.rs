//! The write path: sign a list of actions, send them, and find out what happened, never
//! signing one intent twice once it may have reached a node.
//!
//! A transaction is identified by its hash. What the client does with each answer to a
//! send:
//!
//! | answer | the transaction | the client |
//! |---|---|---|
//! | an outcome (success or failure on chain) | executed, or is executing | returns it |
//! | `InvalidNonce` | refused now: its nonce is taken (maybe by itself) | asks `tx_status` for it; only if the node does not know it, signs anew with the node's nonce + 1 (at most [`MAX_RESIGNS`] times) |
//! | `Expired` | refused now: its block is too old | the same, with a fresh block hash |
//! | another invalid transaction (balance, key, signature...) | refused now | asks `tx_status` for it; [`SendError::Rejected`] only if the node does not know it |
//! | a request validation error; no connection, a failed TLS handshake, a request over the limit | never processed | [`SendError::Rejected`] |
//! | anything else: a timeout (`TIMEOUT_ERROR` or the transport's), a broken connection, an HTTP or decoding error, the deadline | unknown: it may execute | asks `tx_status` by hash, re-sending the *same* bytes when the node has not seen them; [`SendError::Unresolved`] after [`RESOLVE_ATTEMPTS`] |
//!
//! Why the lookup before re-signing or giving up: a refusal does not prove that the
//! transaction never ran. nearcore's `send_tx` re-validates a transaction it already
//! accepted while it waits for it (and says `InvalidNonce` once it has spent its own
//! nonce), a transport may deliver the same bytes twice (`RetryPolicy::retry_writes`, a
//! transport of your own), and another node may hold it. So an intent is signed anew
//! only when the node answers `UNKNOWN_TRANSACTION` for the refused one; any other
//! answer resolves it as below. Re-sending the same bytes is always safe: a transaction
//! executes at most once however often it arrives (its nonce is spent).

use std::fmt;
use std::time::Duration;

use serde::Serialize;

use super::{Client, Error, Signer};
use crate::tx::{Action, SignedTransaction, Transaction};
use crate::types::{
    Finality, InvalidTxError, RpcQueryError, RpcSendTransactionRequest, RpcTransactionError,
    TxExecutionStatus,
};
use crate::{methods, AccountId, CryptoHash, ErrorWrapper, RpcTransactionResponse};

/// How many times one intent is signed anew after `InvalidNonce` or `Expired`.
pub const MAX_RESIGNS: u32 = 3;

/// How many times the outcome of a transaction whose send failed ambiguously is asked
/// for before giving up with [`SendError::Unresolved`].
pub const RESOLVE_ATTEMPTS: u32 = 5;

/// The first wait between those attempts; it doubles after each.
pub const RESOLVE_BACKOFF: Duration = Duration::from_secs(1);

/// Why a transaction was not sent, or what became of it is unknown.
#[derive(Debug)]
#[non_exhaustive]
pub enum SendError {
    /// The input was not usable (an account id that does not parse, arguments that do
    /// not serialize): nothing was signed.
    Usage {
        /// What was wrong.
        message: String,
    },
    /// Reading the signer's access key (its nonce and a block hash) failed: nothing was
    /// signed.
    AccessKey(Box<Error<RpcQueryError>>),
    /// The transaction was refused, or certainly never reached a node: it will not
    /// execute. Sending the intent again is safe.
    Rejected {
        /// The hash of the transaction refused (the last one signed).
        hash: CryptoHash,
        /// The node's answer, or why nothing was sent.
        error: Box<Error<RpcTransactionError>>,
    },
    /// The transaction may have reached a node, and no node said what became of it. It
    /// may still execute: look it up by `hash` (or re-send `signed`, which executes at
    /// most once) before doing anything else. The client never signs it again.
    Unresolved {
        /// The transaction's hash.
        hash: CryptoHash,
        /// The transaction as signed, for re-sending as it is.
        signed: Box<SignedTransaction>,
        /// The last failure.
        error: Box<Error<RpcTransactionError>>,
    },
}

impl SendError {
    /// The hash of the transaction signed last, when one was.
    pub fn hash(&self) -> Option<CryptoHash> {
        match self {
            Self::Rejected { hash, .. } | Self::Unresolved { hash, .. } => Some(*hash),
            Self::Usage { .. } | Self::AccessKey(_) => None,
        }
    }

    /// Whether the transaction may still execute.
    pub fn is_unresolved(&self) -> bool {
        matches!(self, Self::Unresolved { .. })
    }

    /// The node's reason for refusing the transaction (`NotEnoughBalance`, ...), when it
    /// gave one.
    pub fn invalid_tx_error(&self) -> Option<InvalidTxError> {
        match self {
            Self::Rejected { error, .. } | Self::Unresolved { error, .. } => {
                invalid_tx_error(error.rpc_error()?)
            }
            _ => None,
        }
    }
}

impl fmt::Display for SendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Usage { message } => write!(f, "cannot send the transaction: {message}"),
            Self::AccessKey(error) => write!(f, "cannot read the signer's access key: {error}"),
            Self::Rejected { hash, error } => {
                write!(f, "transaction {hash} was refused, or never sent: ")?;
                match invalid_tx_error(error.rpc_error().map_or(&EMPTY, |e| e)) {
                    Some(reason) => write!(f, "{} ({error})", serde_json::json!(reason)),
                    None => write!(f, "{error}"),
                }
            }
            Self::Unresolved { hash, error, .. } => write!(
                f,
                "transaction {hash} may have been sent and its outcome is unknown (look it up \
                 by hash before sending it again; it was not signed twice): {error}"
            ),
        }
    }
}

impl std::error::Error for SendError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::AccessKey(error) => Some(&**error),
            Self::Rejected { error, .. } | Self::Unresolved { error, .. } => Some(&**error),
            Self::Usage { .. } => None,
        }
    }
}

/// An error object with nothing in it, for errors without one.
static EMPTY: ErrorWrapper<RpcTransactionError> = ErrorWrapper {
    cause: crate::ErrorCause::Missing,
    code: None,
    message: None,
    data: None,
};

/// The node's `InvalidTxError`, wherever it put it: in the cause's `info` (as itself or
/// inside `TxExecutionError`), or in the legacy `data` (nearcore: `{"TxExecutionError":
/// {"InvalidTxError": ...}}`).
pub(crate) fn invalid_tx_error(
    error: &ErrorWrapper<RpcTransactionError>,
) -> Option<InvalidTxError> {
    let from = |value: &serde_json::Value| -> Option<InvalidTxError> {
        let inner = value
            .get("TxExecutionError")
            .and_then(|v| v.get("InvalidTxError"))
            .unwrap_or(value);
        match crate::decode::from_value::<InvalidTxError>(inner.clone()) {
            Ok(InvalidTxError::Unknown(_)) | Err(_) => None,
            Ok(known) => Some(known),
        }
    };
    let info = match &error.cause {
        crate::ErrorCause::Handler(RpcTransactionError::InvalidTransaction(info)) => {
            from(&serde_json::Value::Object(info.clone()))
        }
        _ => None,
    };
    info.or_else(|| error.data.as_ref().and_then(from))
}

/// What an answer to a send means for the transaction.
enum Fate {
    /// Refused: its nonce is taken; the key's nonce is this.
    InvalidNonce(u64),
    /// Refused: its block hash is too old.
    Expired,
    /// Refused: its nonce is past what the chain allows now (the count is off).
    NonceTooLarge,
    /// Refused for another reason (balance, key, signature, ...).
    Invalid,
    /// Never processed: not sent, or a request the node could not read.
    NotProcessed,
    /// It may have reached a node and may execute.
    Unknown,
}

fn fate(error: &Error<RpcTransactionError>) -> Fate {
    if error.nothing_sent() {
        return Fate::NotProcessed;
    }
    let Some(rpc) = error.rpc_error() else {
        return Fate::Unknown;
    };
    match &rpc.cause {
        crate::ErrorCause::RequestValidation(_) => Fate::NotProcessed,
        crate::ErrorCause::Handler(RpcTransactionError::InvalidTransaction(_))
        | crate::ErrorCause::Missing => match invalid_tx_error(rpc) {
            Some(InvalidTxError::InvalidNonce { ak_nonce, .. }) => Fate::InvalidNonce(ak_nonce),
            Some(InvalidTxError::Expired) => Fate::Expired,
            Some(InvalidTxError::NonceTooLarge { .. }) => Fate::NonceTooLarge,
            Some(_) => Fate::Invalid,
            // A legacy error without a readable reason: refused only if it says so.
            None if matches!(rpc.cause, crate::ErrorCause::Handler(_)) => Fate::Invalid,
            None => Fate::Unknown,
        },
        // A timeout, a routed or untracked transaction, an internal error: the node may
        // hold it.
        _ => Fate::Unknown,
    }
}

/// Whether a timeout says the node never observed the transaction (`NOT_OBSERVED`: the
/// cause nodes of nearcore 0.38 give a timeout; before it, a timeout says nothing), so
/// sending the same bytes again is what it takes.
fn never_observed(error: &Error<RpcTransactionError>) -> bool {
    #[cfg(near_rpc_spec_ge = "nearcore_0_38_0")]
    if let Some(rpc) = error.rpc_error() {
        if let crate::ErrorCause::Handler(RpcTransactionError::TimeoutError(Some(
            crate::types::TimeoutErrorCause::NotObserved,
        ))) = &rpc.cause
        {
            return true;
        }
    }
    let _ = error;
    false
}

/// Whether a `tx_status` error says the node does not know the transaction.
fn unknown_transaction<E: Serialize>(error: &Error<E>) -> bool {
    error
        .rpc_error()
        .and_then(|e| e.cause_name())
        .is_some_and(|name| name == "UNKNOWN_TRANSACTION")
}

/// The outcome, unless it names another transaction (a node answering for the wrong
/// one): that says nothing of this one.
fn own_outcome<M: crate::RpcMethod>(
    response: RpcTransactionResponse,
    hash: CryptoHash,
) -> Result<RpcTransactionResponse, Error<RpcTransactionError>> {
    match &response.outcome {
        Some(outcome) if outcome.transaction_outcome().id != hash => Err(Error::unexpected(
            M::NAME,
            format!(
                "the outcome of transaction {}, not of {hash}",
                outcome.transaction_outcome().id
            ),
        )),
        _ => Ok(response),
    }
}

impl Client {
    /// Signs `actions` from `signer` to `receiver` and sends them: the write path behind
    /// [`Client::send`] and the other write shortcuts.
    pub(crate) async fn sign_and_send(
        &self,
        signer: &Signer,
        receiver: AccountId,
        actions: Vec<Action>,
    ) -> Result<RpcTransactionResponse, SendError> {
        let mut resigns = 0;
        loop {
            let (nonce, block_hash) = self.nonce_for(signer).await?;
            let signed = Transaction::new(
                signer.account_id().clone(),
                signer.public_key().clone(),
                nonce,
                receiver.clone(),
                block_hash,
                actions.clone(),
            )
            .sign(signer.secret_key());
            let hash = signed.hash();
            let error = match self.submit(&signed).await {
                Ok(outcome) => return Ok(outcome),
                Err(error) => error,
            };
            let rejected = |error| SendError::Rejected {
                hash,
                error: Box::new(error),
            };
            match fate(&error) {
                Fate::NotProcessed => return Err(rejected(error)),
                Fate::Unknown => return self.resolve(signed, signer, error).await,
                // A refusal, but nearcore's `send_tx` re-validates a transaction it
                // already accepted while it waits (its own spent nonce or balance then
                // fails): only a node that does not know it has really refused it.
                refused => {
                    if !self.unknown_to_node(hash, signer).await {
                        return self.resolve(signed, signer, error).await;
                    }
                    match refused {
                        Fate::InvalidNonce(key_nonce) if resigns < MAX_RESIGNS => {
                            signer.observe_nonce(key_nonce)
                        }
                        Fate::Expired if resigns < MAX_RESIGNS => signer.forget_block(),
                        Fate::NonceTooLarge => {
                            signer.forget();
                            return Err(rejected(error));
                        }
                        _ => return Err(rejected(error)),
                    }
                }
            }
            resigns += 1;
        }
    }

    /// Whether the node says it does not know the transaction (`UNKNOWN_TRANSACTION` to
    /// `tx_status` without waiting): only then may its intent be signed anew.
    async fn unknown_to_node(&self, hash: CryptoHash, signer: &Signer) -> bool {
        let status = self
            .tx_status(
                (hash, signer.account_id().clone()),
                Some(TxExecutionStatus::None),
            )
            .await;
        matches!(status, Err(e) if unknown_transaction(&e) || never_observed(&e))
    }

    /// The nonce and block hash for the signer's next transaction: counted locally when
    /// the signer has read its key recently, else read from the key at the final block.
    async fn nonce_for(&self, signer: &Signer) -> Result<(u64, CryptoHash), SendError> {
        if let Some(next) = signer.take_nonce() {
            return Ok(next);
        }
        // One read at a time: whoever waited here finds the count filled.
        let _reading = signer.reading().lock().await;
        if let Some(next) = signer.take_nonce() {
            return Ok(next);
        }
        let key = self
            .at(Finality::Final)
            .view_access_key(signer.account_id(), signer.public_key())
            .await
            .map_err(|e| SendError::AccessKey(Box::new(e)))?;
        signer
            .observe_and_take(key.value.nonce, key.block_hash)
            .ok_or_else(|| SendError::Usage {
                // Only a key read at `u64::MAX` gets here (a count a node pushed to the
                // end is dropped for the key's own nonce).
                message: format!(
                    "the access key {} of {} is at nonce {} (u64::MAX), the largest a nonce \
                     can be: it can sign no more transactions; add another key to the account",
                    signer.public_key(),
                    signer.account_id(),
                    key.value.nonce
                ),
            })
    }

    /// One `send_tx` of the signed bytes, waiting as the client is set to.
    async fn submit(
        &self,
        signed: &SignedTransaction,
    ) -> Result<RpcTransactionResponse, Error<RpcTransactionError>> {
        let request = RpcSendTransactionRequest {
            signed_tx_base64: signed.into(),
            wait_until: Some(self.wait_until.clone()),
        };
        let outcome = self.call::<methods::SendTxMethod>(request).await?;
        own_outcome::<methods::SendTxMethod>(outcome, signed.hash())
    }

    /// Finds out what became of a transaction whose send failed ambiguously: its status
    /// by hash, the same bytes again when the node has not seen them, with waits between.
    async fn resolve(
        &self,
        signed: SignedTransaction,
        signer: &Signer,
        mut error: Error<RpcTransactionError>,
    ) -> Result<RpcTransactionResponse, SendError> {
        let hash = signed.hash();
        let mut wait = RESOLVE_BACKOFF;
        for attempt in 0..RESOLVE_ATTEMPTS {
            if attempt > 0 {
                tokio::time::sleep(wait).await;
                wait = wait.saturating_mul(2);
            }
            let status = self
                .tx_status(
                    (hash, signer.account_id().clone()),
                    Some(self.wait_until.clone()),
                )
                .await
                .and_then(|o| own_outcome::<methods::ExperimentalTxStatusMethod>(o, hash));
            error = match status {
                Ok(outcome) => return Ok(outcome),
                Err(e) if unknown_transaction(&e) || never_observed(&e) => {
                    match self.submit(&signed).await {
                        Ok(outcome) => return Ok(outcome),
                        Err(e) => e,
                    }
                }
                Err(e) => e,
            };
        }
        Err(SendError::Unresolved {
            hash,
            signed: Box::new(signed),
            error: Box::new(error),
        })
    }
}
