//! The write path: sign a list of actions, send them, and find out what happened, never
//! taking success on less than the transaction's own outcome, and never signing one
//! intent anew unless the node that received it said it refused it and does not know it.
//! What each answer leads to, the exact guarantee and what survives a cancel are in
//! [`SendError`]'s docs, where users of the client find them.

use std::fmt;
use std::time::Duration;

use serde::Serialize;

// On wasm32 the waits below run on the JS host's timers (src/client/rt.rs).
#[cfg(target_arch = "wasm32")]
use super::rt as tokio;
use super::{Client, Error, Signer, TxRef};
use crate::methods;
use crate::primitives::CryptoHash;
use crate::replaced::root::AccountId;
use crate::tx::{Action, NonceMode, SignedTransaction, Transaction};
use crate::types::RpcTransactionResponse;
use crate::types::SpecErrorWrapper;
use crate::types::{
    Finality, InvalidTxError, RpcQueryError, RpcSendTransactionRequest, RpcTransactionError,
    TxExecutionStatus,
};

/// An event of the write path (feature `tracing`, as `layers/trace.rs`; without it,
/// nothing): DEBUG for each decision, WARN only for an anomaly that is not returned as
/// an error. Fields carry hashes, nonces, lanes, nonce and endpoint indexes, levels and
/// refusal names: never a key, a body or a node's message.
macro_rules! event {
    ($level:ident, $($rest:tt)*) => {
        #[cfg(feature = "tracing")]
        tracing::$level!($($rest)*);
    };
}

/// How many times one intent is signed anew, after `Expired` or `InvalidNonce` (so it
/// signs at most 1 + `MAX_RESIGNS` transactions).
pub const MAX_RESIGNS: u32 = 3;

/// How many of those re-signs may take a new nonce (after `InvalidNonce`): the bound on
/// how many transactions of one intent can execute, less one.
pub const MAX_NONCE_RESIGNS: u32 = 1;

/// How many times the outcome of a transaction whose send failed ambiguously is asked
/// for before giving up with [`SendErrorKind::Unresolved`].
pub const RESOLVE_ATTEMPTS: u32 = 5;

/// The first wait between those attempts; it doubles after each.
pub const RESOLVE_BACKOFF: Duration = Duration::from_secs(1);

/// A write that did not end in an outcome: what went wrong ([`SendError::kind`]) and
/// every transaction signed for the intent ([`SendError::transactions`]), so that one
/// that may still execute can be looked up or re-sent as it is.
///
/// # The write path
///
/// A transaction is identified by its hash. What the client does with each answer to a
/// send:
///
/// | answer | the transaction | the client |
/// |---|---|---|
/// | the outcome of that hash, at the level asked ([`Client::waiting_until`]) or a stricter one | executed, or is executing | returns it |
/// | a refusal of the transaction's own bytes (invalid signer or receiver id, bad signature, actions nearcore refuses, its size or version, a cost that overflows), or a request the node could not read | refused, and no later state changes that | [`SendErrorKind::Rejected`] |
/// | no connection, a TLS handshake that did not complete, a request over the size limit | never left this machine | [`SendErrorKind::Rejected`] |
/// | `Expired` | refused now: its block is too old | asks the node that refused it for that hash; only if it answers `UNKNOWN_TRANSACTION` naming exactly that hash, signs it again with the **same nonce** (and a gas key's same nonce index) and a fresh block hash, so at most one of the two can ever execute |
/// | `InvalidNonce` (the key's nonce, or a gas key's at the transaction's index, is at or past the transaction's) | refused now: its nonce is taken | the same question; only on the same answer, signs anew on the same key and index with the node's nonce + 1, at most [`MAX_NONCE_RESIGNS`] time per intent |
/// | `InvalidNonce` in strict nonce mode, the key's nonce + 1 below the transaction's | refused now: a transaction before it has not executed | the same question; [`SendErrorKind::Rejected`] only on the same answer (never signed anew), and the key (index) is read afresh next time |
/// | another refusal (balance, key, congestion, ...) | refused now | the same question; [`SendErrorKind::Rejected`] only on the same answer |
/// | anything else: no answer, a timeout, a broken connection, an HTTP or decoding error, the deadline, an answer without the outcome of that hash or below the level asked, an `UNKNOWN_TRANSACTION` about another hash | unknown: it may execute | asks any endpoint for its status by hash, re-sending the *same bytes* when a node has not seen them; [`SendErrorKind::Unresolved`] after [`RESOLVE_ATTEMPTS`] |
///
/// A signer over several keys or a gas key's nonce indexes ([`Signer::pool`],
/// [`Signer::gas_key`]) gives each intent one of them, in turn, for all its
/// transactions: every rule above holds per key and index, and each transaction names
/// its key and index ([`Transaction::public_key`], [`Transaction::nonce_index`]).
///
/// Why the question before signing anew: a refusal does not prove that the transaction
/// never ran. nearcore's `send_tx` re-validates a transaction it already accepted while
/// it waits for it (and says `InvalidNonce` once it has spent its own nonce), a transport
/// may deliver the same bytes twice, and another node may hold it. The question goes to
/// the node that refused, and to no other: with two honest providers, the second may not
/// have seen the transaction yet. Re-sending the same bytes is always safe: a transaction
/// executes at most once however often it arrives (its nonce is spent).
///
/// # The guarantee, exactly
///
/// One intent ([`Client::send`] and the write shortcuts) signs at most 1 +
/// [`MAX_RESIGNS`] transactions. Each signed after `Expired` keeps the nonce of the one
/// before; only one signed after `InvalidNonce` takes a new one. So at most
/// 1 + [`MAX_NONCE_RESIGNS`] = 2 of them can ever execute, and two only when the node
/// that received one of them said falsely, in two answers, that it refused it and that it
/// does not know its hash. No other answer of any node, no failure of any network, and
/// no cancellation makes a second one. What a lying node can still do: make a refusal
/// look final ([`SendErrorKind::Rejected`] for a transaction it forwarded anyway), or
/// invent an outcome for the hash (check outcomes with
/// [`Client::verified`](super::Client::verified) when that matters).
///
/// Signing the `InvalidNonce` re-sign in strict nonce mode was considered: it needs the
/// key's nonce to be exactly the one the node named, which the first transaction
/// executing can make true, so it does not close the gap; and not every network accepts
/// version-1 transactions.
///
/// # Cancellation
///
/// A future of [`Client::send`] dropped after its `send_tx` went out returns nothing to
/// look up. What must survive a cancel, a crash or a deadline has two ways to keep the
/// transaction before any byte of it is sent:
/// - [`Signer::before_send`]: a hook that receives every transaction the signer signs
///   (re-signs included) before it is sent, and can refuse to let it go;
/// - the two halves of a send: [`Client::prepare`] signs and returns the
///   [`SignedTransaction`] (its hash, and bytes to persist with
///   [`SignedTransaction::to_base64`]); [`Client::send_signed`] sends exactly those bytes
///   and resolves them, and can be called again with them at any time: it never signs.
///
/// Every [`SendError`] after signing carries every transaction signed for the intent
/// ([`SendError::transactions`]).
///
/// # Matching on it
///
/// ```no_run
/// # async fn run(client: near_rpc::Client, signer: near_rpc::Signer) {
/// use near_rpc::client::SendErrorKind;
/// use near_rpc::{ErrorReport, NearToken};
///
/// match client.transfer(&signer, "bob.near", NearToken::from_near(1)).await {
///     Ok(outcome) => println!("failed on chain: {}", outcome.is_failure()),
///     Err(e) => match e.kind() {
///         // It will not execute: sending the intent again is safe.
///         SendErrorKind::Rejected(_) => eprintln!("{}", ErrorReport(&e)),
///         // It may still execute: keep its bytes, re-send them or look up the hash.
///         SendErrorKind::Unresolved(_) => {
///             let signed = e.signed().expect("an unresolved send signed a transaction");
///             eprintln!("pending {}: {}", signed.hash(), signed.to_base64());
///         }
///         _ => eprintln!("{}", ErrorReport(&e)),
///     },
/// }
/// # }
/// ```
#[derive(Debug)]
pub struct SendError {
    signed: Vec<SignedTransaction>,
    kind: SendErrorKind,
}

/// What went wrong in a write.
#[derive(Debug)]
#[non_exhaustive]
pub enum SendErrorKind {
    /// The input was not usable (an account id that does not parse, arguments that do
    /// not serialize, a transaction another signer signed): nothing was sent.
    Usage {
        /// What was wrong.
        message: String,
    },
    /// Reading the signer's access key (its nonce and a block hash), or a gas key's
    /// nonces, failed: nothing more was signed (any transaction signed before was
    /// refused, and will not execute).
    AccessKey(Error<RpcQueryError>),
    /// The transaction signed last was refused, or certainly never left this machine:
    /// it will not execute, on the word of the node that received it. Sending the
    /// intent again is safe.
    Rejected(Error<RpcTransactionError>),
    /// The transaction signed last may have reached a node, and no node said what became
    /// of it. It may still execute: look it up by hash, or re-send its bytes
    /// ([`Client::send_signed`] executes it at most once), before anything else. The
    /// client did not sign it again.
    Unresolved(Error<RpcTransactionError>),
}

impl SendError {
    pub(crate) fn new(kind: SendErrorKind, signed: Vec<SignedTransaction>) -> Self {
        Self { signed, kind }
    }

    /// A usage error: nothing was signed.
    pub(crate) fn usage(message: String) -> Self {
        Self::new(SendErrorKind::Usage { message }, Vec::new())
    }

    /// What went wrong.
    pub fn kind(&self) -> &SendErrorKind {
        &self.kind
    }

    /// What went wrong, by value.
    pub fn into_kind(self) -> SendErrorKind {
        self.kind
    }

    /// The transaction signed last, when one was: the one the error is about.
    pub fn signed(&self) -> Option<&SignedTransaction> {
        self.signed.last()
    }

    /// Every transaction signed for the intent, in order. Only the last can still be
    /// pending (when [`SendError::is_unresolved`]); each before it was refused by the
    /// node that received it, which said it did not know it.
    pub fn transactions(&self) -> &[SignedTransaction] {
        &self.signed
    }

    /// The hash of the transaction signed last, when one was.
    pub fn hash(&self) -> Option<CryptoHash> {
        self.signed().map(SignedTransaction::hash)
    }

    /// Whether the transaction may still execute.
    pub fn is_unresolved(&self) -> bool {
        matches!(self.kind, SendErrorKind::Unresolved(_))
    }

    /// Whether the transaction was refused or never sent: it will not execute.
    pub fn is_rejected(&self) -> bool {
        matches!(self.kind, SendErrorKind::Rejected(_))
    }

    /// The failed `send_tx` or status lookup, when the error is about a transaction.
    pub fn transaction_error(&self) -> Option<&Error<RpcTransactionError>> {
        match &self.kind {
            SendErrorKind::Rejected(error) | SendErrorKind::Unresolved(error) => Some(error),
            _ => None,
        }
    }

    /// The node's reason for refusing the transaction (`NotEnoughBalance`, ...), when it
    /// gave one.
    pub fn invalid_tx_error(&self) -> Option<InvalidTxError> {
        invalid_tx_error(self.transaction_error()?.rpc_error()?)
    }
}

impl fmt::Display for SendError {
    /// This level's failure in one line; the call that failed is [`source`](
    /// std::error::Error::source).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hash = self.hash().map_or_else(String::new, |h| format!(" {h}"));
        match &self.kind {
            SendErrorKind::Usage { message } => {
                write!(f, "cannot send the transaction: {message}")
            }
            SendErrorKind::AccessKey(_) => f.write_str("cannot read the signer's access key"),
            SendErrorKind::Rejected(error) if error.nothing_sent() => {
                write!(f, "transaction{hash} was never sent")
            }
            SendErrorKind::Rejected(_) => {
                write!(f, "transaction{hash} was refused")?;
                match self.invalid_tx_error() {
                    Some(reason) => write!(f, ": {}", serde_json::json!(reason)),
                    None => Ok(()),
                }
            }
            SendErrorKind::Unresolved(_) => write!(
                f,
                "transaction{hash} may have been sent and its outcome is unknown (look it up \
                 by hash or re-send the same bytes before sending it again; it was not \
                 signed again)"
            ),
        }
    }
}

impl std::error::Error for SendError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            SendErrorKind::AccessKey(error) => Some(error),
            SendErrorKind::Rejected(error) | SendErrorKind::Unresolved(error) => Some(error),
            SendErrorKind::Usage { .. } => None,
        }
    }
}

/// The node's `InvalidTxError`, wherever it put it: in the cause's `info` (as itself or
/// inside `TxExecutionError`), or in the legacy `data` (nearcore: `{"TxExecutionError":
/// {"InvalidTxError": ...}}`).
pub(crate) fn invalid_tx_error(
    error: &SpecErrorWrapper<RpcTransactionError>,
) -> Option<InvalidTxError> {
    let from = |value: &serde_json::Value| -> Option<InvalidTxError> {
        let inner = value
            .get("TxExecutionError")
            .and_then(|v| v.get("InvalidTxError"))
            .unwrap_or(value);
        match crate::de::decode::from_value::<InvalidTxError>(inner.clone()) {
            Ok(InvalidTxError::Unknown(_)) | Err(_) => None,
            Ok(known) => Some(known),
        }
    };
    let info = match &error.cause {
        crate::envelope::ErrorCause::Handler(RpcTransactionError::InvalidTransaction(info)) => {
            from(&serde_json::Value::Object(info.clone()))
        }
        _ => None,
    };
    info.or_else(|| error.data.as_ref().and_then(from))
}

/// What a node's refusal says of the transaction.
#[derive(Debug, Clone, Copy)]
enum Refusal {
    /// Its nonce is taken: the key's nonce is this (at or past the transaction's).
    InvalidNonce(u64),
    /// Its block hash is too old.
    Expired,
    /// Its nonce is past what the chain allows now (the count is off).
    NonceTooLarge,
    /// (Strict mode.) Its nonce is past the key's + 1: a transaction before it has not
    /// executed (yet), so it cannot now; nothing is signed anew.
    NonceGap,
    /// A property of its own bytes that no later state changes.
    Intrinsic,
    /// What the chain holds now (balance, the key, congestion, ...).
    State,
}

impl Refusal {
    /// Its name, as recorded in events.
    #[cfg(feature = "tracing")]
    fn name(self) -> &'static str {
        match self {
            Self::InvalidNonce(_) => "InvalidNonce",
            Self::Expired => "Expired",
            Self::NonceTooLarge => "NonceTooLarge",
            Self::NonceGap => "NonceGap",
            Self::Intrinsic => "intrinsic",
            Self::State => "state",
        }
    }
}

/// What an answer to a send means for the transaction.
enum Fate {
    /// Never processed: nothing left this machine, or the node could not read the
    /// request.
    NotProcessed,
    /// Refused, for this reason.
    Refused(Refusal),
    /// It may have reached a node and may execute.
    Unknown,
}

fn fate(error: &Error<RpcTransactionError>, signed: &SignedTransaction) -> Fate {
    if error.nothing_sent() {
        return Fate::NotProcessed;
    }
    let Some(rpc) = error.rpc_error() else {
        return Fate::Unknown;
    };
    let reason = match &rpc.cause {
        crate::envelope::ErrorCause::RequestValidation(_) => return Fate::NotProcessed,
        crate::envelope::ErrorCause::Handler(RpcTransactionError::InvalidTransaction(_))
        | crate::envelope::ErrorCause::Missing => invalid_tx_error(rpc),
        // A timeout, a routed or untracked transaction, an internal error: the node may
        // hold it.
        _ => return Fate::Unknown,
    };
    let nonce = signed.transaction().nonce();
    let strict = matches!(
        signed.transaction(),
        Transaction::V1(tx) if tx.nonce_mode == NonceMode::Strict
    );
    Fate::Refused(match reason {
        // nearcore's `verify_nonce` (runtime/runtime/src/verifier.rs) refuses a nonce at
        // or below the key's (for a gas key: its nonce at the transaction's own index,
        // which the error does not repeat); anything else names another transaction, or
        // is no refusal of this one.
        Some(InvalidTxError::InvalidNonce { ak_nonce, tx_nonce })
            if tx_nonce == nonce && ak_nonce >= tx_nonce =>
        {
            Refusal::InvalidNonce(ak_nonce)
        }
        // In strict mode it also refuses a nonce past the key's + 1: a gap, which the
        // transactions before it may still fill.
        Some(InvalidTxError::InvalidNonce { ak_nonce, tx_nonce })
            if strict
                && tx_nonce == nonce
                && ak_nonce.checked_add(1).is_some_and(|n| n < tx_nonce) =>
        {
            Refusal::NonceGap
        }
        Some(InvalidTxError::InvalidNonce {
            ak_nonce: _ak_nonce,
            tx_nonce: _tx_nonce,
        }) => {
            // Not a refusal of this transaction: another's nonce, or a key's nonce
            // below this one's that cannot refuse it. Resolved by hash.
            event!(
                warn,
                hash = %signed.hash(),
                nonce,
                tx_nonce = _tx_nonce,
                ak_nonce = _ak_nonce,
                "near_rpc: an InvalidNonce that cannot be about this transaction: resolving by hash"
            );
            return Fate::Unknown;
        }
        Some(InvalidTxError::Expired) => Refusal::Expired,
        Some(InvalidTxError::NonceTooLarge { .. }) => Refusal::NonceTooLarge,
        // nearcore's `validate_transaction` and `verify_and_charge_transaction`: these
        // read only the transaction (and the protocol's limits).
        Some(
            InvalidTxError::InvalidSignerId { .. }
            | InvalidTxError::InvalidReceiverId { .. }
            | InvalidTxError::InvalidSignature
            | InvalidTxError::ActionsValidation(_)
            | InvalidTxError::TransactionSizeExceeded { .. }
            | InvalidTxError::InvalidTransactionVersion
            | InvalidTxError::CostOverflow,
        ) => Refusal::Intrinsic,
        Some(_) => Refusal::State,
        // A legacy error without a readable reason: refused only if it says so.
        None if matches!(rpc.cause, crate::envelope::ErrorCause::Handler(_)) => Refusal::State,
        None => return Fate::Unknown,
    })
}

/// Whether a timeout says the node never observed the transaction (`NOT_OBSERVED`: the
/// cause nodes of nearcore 0.38 give a timeout; before it, a timeout says nothing), so
/// sending the same bytes again is what it takes.
fn never_observed(error: &Error<RpcTransactionError>) -> bool {
    #[cfg(near_rpc_spec_ge = "nearcore_0_38_0")]
    if let Some(rpc) = error.rpc_error() {
        if let crate::envelope::ErrorCause::Handler(RpcTransactionError::TimeoutError(Some(
            crate::types::TimeoutErrorCause::NotObserved,
        ))) = &rpc.cause
        {
            return true;
        }
    }
    let _ = error;
    false
}

/// Whether a `tx_status` error says the node does not know the transaction (any hash:
/// enough to re-send the same bytes, never to sign anew).
fn unknown_transaction<E: Serialize>(error: &Error<E>) -> bool {
    error
        .rpc_error()
        .and_then(|e| e.cause_name())
        .is_some_and(|name| name == "UNKNOWN_TRANSACTION")
}

/// Whether the level a node reports is the level asked for or a stricter one. The
/// levels are partly ordered: `INCLUDED_FINAL` does not say the transaction executed,
/// and `EXECUTED_OPTIMISTIC` does not say its block is final.
fn reaches(got: &TxExecutionStatus, asked: &TxExecutionStatus) -> bool {
    use TxExecutionStatus as S;
    match asked {
        S::None => !matches!(got, S::Unknown(_)),
        S::Included => matches!(
            got,
            S::Included | S::ExecutedOptimistic | S::IncludedFinal | S::Executed | S::Final
        ),
        S::ExecutedOptimistic => matches!(got, S::ExecutedOptimistic | S::Executed | S::Final),
        S::IncludedFinal => matches!(got, S::IncludedFinal | S::Executed | S::Final),
        S::Executed => matches!(got, S::Executed | S::Final),
        S::Final => matches!(got, S::Final),
        S::Unknown(_) => got == asked,
    }
}

/// Whether a node answers the level with the outcome (below it, it answers before
/// execution, with the level alone).
fn has_outcome(level: &TxExecutionStatus) -> bool {
    !matches!(
        level,
        TxExecutionStatus::None | TxExecutionStatus::Included | TxExecutionStatus::IncludedFinal
    )
}

/// The answer, if it settles the transaction: the level asked or a stricter one, with
/// the outcome of this hash where the level has one, and no outcome of another. Anything
/// less is an error, to be resolved by hash.
fn settled<M: crate::methods::RpcMethod>(
    response: RpcTransactionResponse,
    hash: CryptoHash,
    asked: &TxExecutionStatus,
) -> Result<RpcTransactionResponse, Error<RpcTransactionError>> {
    let unexpected = |message: String| Err(Error::unexpected(M::NAME, message));
    if let Some(outcome) = &response.outcome {
        let (id, named) = (outcome.transaction_outcome().id, outcome.transaction().hash);
        if id != hash || named != hash {
            let other = if id != hash { id } else { named };
            event!(
                warn,
                method = M::NAME,
                hash = %hash,
                named = %other,
                "near_rpc: an answer with the outcome of another transaction: resolving by hash"
            );
            return unexpected(format!("the outcome of transaction {other}, not of {hash}"));
        }
    }
    let got = &response.final_execution_status;
    if !reaches(got, asked) {
        return unexpected(format!(
            "transaction {hash} is at {}, not yet at {}",
            serde_json::json!(got),
            serde_json::json!(asked)
        ));
    }
    if response.outcome.is_none() && has_outcome(asked) {
        return unexpected(format!(
            "the answer about transaction {hash} carries no outcome"
        ));
    }
    Ok(response)
}

/// The actions, unless one is a delegate action whose signature no node could decode
/// ([`crate::tx::check_actions`]), or a second delegate action (nearcore refuses a
/// transaction with two: `DelegateActionMustBeOnlyOne`): a usage error, before anything
/// is read or signed.
fn check_actions(actions: &[Action]) -> Result<(), SendError> {
    crate::tx::check_actions(actions).map_err(|e| SendError::usage(e.to_string()))?;
    let mut delegates = actions.iter().enumerate().filter(|(_, a)| a.is_delegate());
    if let (Some((first, _)), Some((second, _))) = (delegates.next(), delegates.next()) {
        return Err(SendError::usage(format!(
            "actions {first} and {second} are both delegate actions; a transaction may \
             hold one (nearcore refuses more: DelegateActionMustBeOnlyOne)"
        )));
    }
    Ok(())
}

/// `outcome` settles `signed`: the level it reached, recorded, from the answer to `by`.
fn settled_event(
    signed: &SignedTransaction,
    outcome: RpcTransactionResponse,
    by: &str,
) -> Delivery {
    event!(
        debug,
        hash = %signed.hash(),
        level = ?outcome.final_execution_status,
        by,
        "near_rpc: settled"
    );
    let _ = (signed, by);
    Delivery::Settled(Box::new(outcome))
}

/// What became of one signed transaction sent.
enum Delivery {
    /// It settled: its outcome (boxed: the other answers are small).
    Settled(Box<RpcTransactionResponse>),
    /// Refused, and the node that refused it does not know its hash: it will not
    /// execute, and the intent may be signed anew if the reason allows.
    Refused(Refusal, Error<RpcTransactionError>),
    /// Refused for good, never sent, or unresolved.
    Failed(SendErrorKind),
}

impl Client {
    /// Signs `actions` from `signer` to `receiver` and sends them: the write path behind
    /// [`Client::send`] and the other write shortcuts. The intent takes the signer's next
    /// lane (a key, or a gas key's nonce index) and keeps it through every re-sign, so
    /// that what one lane's node says moves only that lane's count.
    pub(crate) async fn sign_and_send(
        &self,
        signer: &Signer,
        receiver: AccountId,
        actions: Vec<Action>,
    ) -> Result<RpcTransactionResponse, SendError> {
        // A delegate action no node could decode, or a second one, is refused before
        // anything is read.
        check_actions(&actions)?;
        let mut signed_all: Vec<SignedTransaction> = Vec::new();
        let fail = |kind, signed| Err(SendError::new(kind, signed));
        let lane = signer.next_lane();
        let (mut nonce, mut block_hash) = match self.nonce_for(signer, lane).await {
            Ok(next) => next,
            Err(kind) => return fail(kind, signed_all),
        };
        let (mut resigns, mut nonce_resigns) = (0, 0);
        loop {
            let signed = signer.sign(lane, nonce, receiver.clone(), block_hash, actions.clone());
            event!(
                debug,
                hash = %signed.hash(),
                nonce,
                lane,
                nonce_index = signer.nonce_index(lane),
                resign = resigns,
                "near_rpc: signed"
            );
            if let Err(why) = signer.run_before_send(&signed) {
                let message = format!(
                    "nothing was sent: the before_send hook refused transaction {}: {why}",
                    signed.hash()
                );
                signed_all.push(signed);
                return fail(SendErrorKind::Usage { message }, signed_all);
            }
            let delivery = self.deliver(&signed).await;
            signed_all.push(signed);
            let (refusal, error) = match delivery {
                Delivery::Settled(outcome) => return Ok(*outcome),
                Delivery::Failed(kind) => return fail(kind, signed_all),
                Delivery::Refused(refusal, error) => (refusal, error),
            };
            #[cfg(feature = "tracing")]
            let refused = signed_all.last().map(SignedTransaction::hash);
            // Every refusal that is not signed anew is final; the event says why.
            let final_refusal = |_why: &str| {
                event!(
                    debug,
                    hash = refused.map(tracing::field::display),
                    refusal = refusal.name(),
                    lane,
                    nonce_index = signer.nonce_index(lane),
                    resigns,
                    nonce_resigns,
                    why = _why,
                    "near_rpc: refused: not signed again"
                );
            };
            let next = match refusal {
                // The same nonce (and index) on a fresh block: at most one of the two
                // can execute.
                Refusal::Expired if resigns < MAX_RESIGNS => {
                    signer.forget_block(lane);
                    match self.fresh_block(signer, lane).await {
                        // The block said to be too old is still the final one: signing
                        // again would only make the same transaction.
                        Ok(block) if block == block_hash => {
                            final_refusal("its block is still the final one");
                            return fail(SendErrorKind::Rejected(error), signed_all);
                        }
                        next => {
                            if next.is_ok() {
                                event!(
                                    debug,
                                    hash = refused.map(tracing::field::display),
                                    nonce,
                                    lane,
                                    nonce_index = signer.nonce_index(lane),
                                    "near_rpc: Expired: signing again with the same nonce on a fresh block"
                                );
                            }
                            next.map(|block| (nonce, block))
                        }
                    }
                }
                Refusal::InvalidNonce(key_nonce)
                    if resigns < MAX_RESIGNS && nonce_resigns < MAX_NONCE_RESIGNS =>
                {
                    nonce_resigns += 1;
                    signer.observe_nonce(lane, key_nonce);
                    let next = self.nonce_for(signer, lane).await;
                    if let Ok((_new_nonce, _)) = &next {
                        event!(
                            debug,
                            hash = refused.map(tracing::field::display),
                            nonce,
                            key_nonce,
                            new_nonce = *_new_nonce,
                            lane,
                            nonce_index = signer.nonce_index(lane),
                            "near_rpc: InvalidNonce: signing again with a new nonce"
                        );
                    }
                    next
                }
                Refusal::InvalidNonce(key_nonce) => {
                    final_refusal("no re-sign with a new nonce is left");
                    signer.observe_nonce(lane, key_nonce);
                    return fail(SendErrorKind::Rejected(error), signed_all);
                }
                // The count is off (pushed too far, or ahead of a strict key): the
                // lane's next transaction reads the key afresh.
                Refusal::NonceTooLarge | Refusal::NonceGap => {
                    final_refusal("the lane's count is off: its key is read afresh");
                    signer.forget(lane);
                    return fail(SendErrorKind::Rejected(error), signed_all);
                }
                Refusal::Expired => {
                    final_refusal("no re-sign is left");
                    return fail(SendErrorKind::Rejected(error), signed_all);
                }
                _ => {
                    final_refusal("the reason does not allow a re-sign");
                    return fail(SendErrorKind::Rejected(error), signed_all);
                }
            };
            (nonce, block_hash) = match next {
                Ok(next) => next,
                Err(kind) => return fail(kind, signed_all),
            };
            resigns += 1;
        }
    }

    /// Signs `actions` from `signer` to `receiver` and returns the transaction without
    /// sending it: the signer's next lane and its next nonce, a recent final block hash.
    /// Persist it ([`SignedTransaction::to_base64`]) before [`Client::send_signed`], and
    /// a cancelled or crashed send loses nothing: its hash names it, its bytes can be
    /// sent again.
    ///
    /// ```no_run
    /// # async fn run(client: near_rpc::Client, signer: near_rpc::Signer) -> Result<(), Box<dyn std::error::Error>> {
    /// use near_rpc::tx::{Action, SignedTransaction};
    /// use near_rpc::NearToken;
    ///
    /// let actions = vec![Action::transfer(NearToken::from_near(1))];
    /// let signed = client.prepare(&signer, "bob.near", actions).await?;
    /// std::fs::write("pending.tx", signed.to_base64())?; // before anything is sent
    /// let outcome = client.send_signed(&signed).await?;
    /// // After a crash: the same bytes again execute at most once.
    /// let again = SignedTransaction::from_base64(&std::fs::read_to_string("pending.tx")?)?;
    /// let outcome = client.send_signed(&again).await?;
    /// # Ok(()) }
    /// ```
    pub async fn prepare(
        &self,
        signer: &Signer,
        receiver: impl super::Input<AccountId>,
        actions: Vec<Action>,
    ) -> Result<SignedTransaction, SendError> {
        let receiver = receiver
            .into_value("the receiver")
            .map_err(SendError::usage)?;
        check_actions(&actions)?;
        let lane = signer.next_lane();
        let (nonce, block_hash) = self
            .nonce_for(signer, lane)
            .await
            .map_err(|kind| SendError::new(kind, Vec::new()))?;
        Ok(signer.sign(lane, nonce, receiver, block_hash, actions))
    }

    /// `signed` again, with the same signer, key, nonce (and nonce index and mode),
    /// receiver and actions on a fresh final block hash: what an `Expired` refusal of a
    /// [`Client::send_signed`] calls for. Keeping the nonce means at most one of the two
    /// can ever execute. The signer must be the one that signed it.
    pub async fn renew(
        &self,
        signer: &Signer,
        signed: &SignedTransaction,
    ) -> Result<SignedTransaction, SendError> {
        let transaction = signed.transaction();
        let lane = match signer.lane_of(transaction.public_key(), transaction.nonce_index()) {
            Some(lane) if transaction.signer_id() == signer.account_id() => lane,
            _ => {
                let index = transaction
                    .nonce_index()
                    .map_or_else(String::new, |i| format!(" at nonce index {i}"));
                return Err(SendError::usage(format!(
                    "transaction {} was signed by {} with {}{index}, not by the signer ({} \
                     with {})",
                    signed.hash(),
                    transaction.signer_id(),
                    transaction.public_key(),
                    signer.account_id(),
                    signer
                        .lanes()
                        .map(|(key, index)| match index {
                            Some(i) => format!("{key} at nonce index {i}"),
                            None => key.to_string(),
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        };
        check_actions(transaction.actions())?;
        let block_hash = self
            .fresh_block(signer, lane)
            .await
            .map_err(|kind| SendError::new(kind, vec![signed.clone()]))?;
        let mut renewed = transaction.clone();
        match &mut renewed {
            Transaction::V0(tx) => tx.block_hash = block_hash,
            Transaction::V1(tx) => tx.block_hash = block_hash,
        }
        Ok(renewed.sign(signer.lane_secret(lane)))
    }

    /// Sends `signed` as it is and finds out what became of it, waiting until the
    /// client's level ([`Client::waiting_until`]): the outcome of its hash, or an error
    /// that carries it. It never signs anything, so calling it again with the same
    /// transaction (after a cancel, a crash, an [`SendErrorKind::Unresolved`]) is always
    /// safe: a transaction executes at most once. After a refusal, [`Client::renew`]
    /// (`Expired`) or [`Client::prepare`] make the next one; after `InvalidNonce` or
    /// `NonceTooLarge`, [`Signer::reset_lane`] (of the key and nonce index the
    /// transaction names) or [`Signer::reset`] first.
    pub async fn send_signed(
        &self,
        signed: &SignedTransaction,
    ) -> Result<RpcTransactionResponse, SendError> {
        let kind = match self.deliver(signed).await {
            Delivery::Settled(outcome) => return Ok(*outcome),
            Delivery::Refused(_, error) => SendErrorKind::Rejected(error),
            Delivery::Failed(kind) => kind,
        };
        Err(SendError::new(kind, vec![signed.clone()]))
    }

    /// Sends `signed` once and reads the answer: settled, refused for good, refused now
    /// (on the word of the node that refused it, about that hash), or resolved by hash.
    async fn deliver(&self, signed: &SignedTransaction) -> Delivery {
        let error = match self.submit(signed).await {
            Ok(outcome) => return settled_event(signed, outcome, "send_tx"),
            Err(error) => error,
        };
        match fate(&error, signed) {
            Fate::NotProcessed => {
                event!(
                    debug,
                    hash = %signed.hash(),
                    "near_rpc: never processed: rejected, not resolved"
                );
                Delivery::Failed(SendErrorKind::Rejected(error))
            }
            Fate::Refused(Refusal::Intrinsic) => {
                event!(
                    debug,
                    hash = %signed.hash(),
                    refusal = "intrinsic",
                    "near_rpc: refused for its own bytes: rejected"
                );
                Delivery::Failed(SendErrorKind::Rejected(error))
            }
            Fate::Refused(refusal) => match error.endpoint_index() {
                Some(index) if self.unknown_to(index, signed).await => {
                    event!(
                        debug,
                        hash = %signed.hash(),
                        refusal = refusal.name(),
                        endpoint_index = index,
                        "near_rpc: refused, and UNKNOWN to the node that refused it: believed"
                    );
                    Delivery::Refused(refusal, error)
                }
                _index => {
                    event!(
                        debug,
                        hash = %signed.hash(),
                        refusal = refusal.name(),
                        endpoint_index = _index,
                        "near_rpc: refused, but the node did not say it does not know it: \
                         resolving by hash"
                    );
                    self.resolve(signed, error).await
                }
            },
            Fate::Unknown => {
                event!(
                    debug,
                    hash = %signed.hash(),
                    endpoint_index = error.endpoint_index(),
                    "near_rpc: the send's fate is unknown: resolving by hash"
                );
                self.resolve(signed, error).await
            }
        }
    }

    /// Whether the endpoint at `index` says it does not know exactly `signed`'s hash
    /// (`UNKNOWN_TRANSACTION` naming it, to `tx_status` without waiting): only then may
    /// its intent be signed anew.
    async fn unknown_to(&self, index: usize, signed: &SignedTransaction) -> bool {
        let hash = signed.hash();
        let sender = signed.transaction().signer_id().clone();
        let request = TxRef::from((hash, sender)).request(TxExecutionStatus::None);
        let status = self
            .call_pinned::<methods::ExperimentalTxStatusMethod>(request, index)
            .await;
        match status.as_ref().map_err(Error::handler_error) {
            Err(Some(RpcTransactionError::UnknownTransaction {
                requested_transaction_hash,
            })) if *requested_transaction_hash != hash => {
                event!(
                    warn,
                    hash = %hash,
                    named = %requested_transaction_hash,
                    endpoint_index = index,
                    "near_rpc: UNKNOWN_TRANSACTION naming another hash: not believed"
                );
                false
            }
            Err(Some(RpcTransactionError::UnknownTransaction { .. })) => true,
            _ => false,
        }
    }

    /// The nonce and block hash for the next transaction on the signer's `lane`: counted
    /// locally when the lane has read its key recently, else read from the key at the
    /// final block.
    async fn nonce_for(
        &self,
        signer: &Signer,
        lane: usize,
    ) -> Result<(u64, CryptoHash), SendErrorKind> {
        if let Some(next) = signer.take_nonce(lane) {
            return Ok(next);
        }
        // One read per key at a time: whoever waited here finds the count filled.
        let _reading = signer.reading(lane).lock().await;
        if let Some(next) = signer.take_nonce(lane) {
            return Ok(next);
        }
        let (key_nonce, block_hash) = self.read_key(signer, lane).await?;
        signer
            .observe_and_take(lane, key_nonce, block_hash)
            .ok_or_else(|| SendErrorKind::Usage {
                // Only a key read at `u64::MAX` gets here (a count a node pushed to the
                // end is dropped for the key's own nonce).
                message: format!(
                    "{} of {} is at nonce {key_nonce} (u64::MAX), the largest a nonce can \
                     be: it can sign no more transactions; add another key to the account",
                    signer.describe_lane(lane),
                    signer.account_id(),
                ),
            })
    }

    /// A fresh final block hash to sign with on `lane` (the key's nonce read with it
    /// moves the lane's count forward, never back).
    async fn fresh_block(&self, signer: &Signer, lane: usize) -> Result<CryptoHash, SendErrorKind> {
        let (key_nonce, block_hash) = self.read_key(signer, lane).await?;
        signer.observe(lane, key_nonce, block_hash);
        Ok(block_hash)
    }

    /// The nonce of the signer's `lane` at the final block, and the block's hash: an
    /// access key's nonce, or a gas key's at the lane's index (whose read records the
    /// other indexes' nonces too).
    async fn read_key(
        &self,
        signer: &Signer,
        lane: usize,
    ) -> Result<(u64, CryptoHash), SendErrorKind> {
        let (public_key, gas_key) = signer.lane_key(lane);
        let final_block = self.at(Finality::Final);
        let Some(index) = signer.nonce_index(lane).filter(|_| gas_key) else {
            let key = final_block
                .view_access_key(signer.account_id(), public_key)
                .await
                .map_err(SendErrorKind::AccessKey)?;
            return Ok((key.value.nonce, key.block_hash));
        };
        let read = final_block
            .view_gas_key_nonces(signer.account_id(), public_key)
            .await
            .map_err(SendErrorKind::AccessKey)?;
        let nonces = &read.value.nonces;
        signer.observe_gas_nonces(lane, nonces, read.block_hash);
        match nonces.get(usize::from(index)) {
            Some(&nonce) => Ok((nonce, read.block_hash)),
            None => Err(SendErrorKind::Usage {
                message: format!(
                    "the node lists {} nonce(s) for the gas key {public_key} of {} (at block \
                     {}): the signer's nonce index {index} is not among them",
                    nonces.len(),
                    signer.account_id(),
                    read.block_hash,
                ),
            }),
        }
    }

    /// One `send_tx` of the signed bytes, waiting as the client is set to; settled only
    /// by the outcome of their hash at that level.
    async fn submit(
        &self,
        signed: &SignedTransaction,
    ) -> Result<RpcTransactionResponse, Error<RpcTransactionError>> {
        let request = RpcSendTransactionRequest {
            signed_tx_base64: signed.into(),
            wait_until: Some(self.wait_until.clone()),
        };
        let response = self.call::<methods::SendTxMethod>(request).await?;
        settled::<methods::SendTxMethod>(response, signed.hash(), &self.wait_until)
    }

    /// Finds out what became of a transaction whose send failed ambiguously: its status
    /// by hash (from any endpoint), the same bytes again when a node has not seen them,
    /// with waits between. It never signs.
    async fn resolve(
        &self,
        signed: &SignedTransaction,
        mut error: Error<RpcTransactionError>,
    ) -> Delivery {
        let hash = signed.hash();
        let sender = signed.transaction().signer_id();
        let mut wait = RESOLVE_BACKOFF;
        for attempt in 0..RESOLVE_ATTEMPTS {
            if attempt > 0 {
                tokio::time::sleep(wait).await;
                wait = wait.saturating_mul(2);
            }
            event!(
                debug,
                hash = %hash,
                attempt = attempt + 1,
                "near_rpc: resolving by hash"
            );
            let status = self
                .tx_status((hash, sender.clone()), Some(self.wait_until.clone()))
                .await
                .and_then(|response| {
                    settled::<methods::ExperimentalTxStatusMethod>(response, hash, &self.wait_until)
                });
            error = match status {
                Ok(outcome) => return settled_event(signed, outcome, "tx_status"),
                Err(e) if unknown_transaction(&e) || never_observed(&e) => {
                    event!(
                        debug,
                        hash = %hash,
                        attempt = attempt + 1,
                        "near_rpc: the node has not seen it: sending the same bytes again"
                    );
                    match self.submit(signed).await {
                        Ok(outcome) => return settled_event(signed, outcome, "send_tx"),
                        Err(e) => e,
                    }
                }
                Err(e) => e,
            };
        }
        event!(
            debug,
            hash = %hash,
            attempts = RESOLVE_ATTEMPTS,
            "near_rpc: unresolved: not signed again"
        );
        Delivery::Failed(SendErrorKind::Unresolved(error))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TxExecutionStatus as S;

    /// The levels' order as nearcore documents `TxExecutionStatus`: each implies the
    /// ones it lists, `INCLUDED_FINAL` and `EXECUTED_OPTIMISTIC` neither implies the
    /// other.
    #[test]
    fn a_level_is_reached_by_itself_and_the_stricter_ones_only() {
        let all = [
            S::None,
            S::Included,
            S::ExecutedOptimistic,
            S::IncludedFinal,
            S::Executed,
            S::Final,
        ];
        let implied = |got: &S| -> Vec<S> {
            match got {
                S::None => vec![S::None],
                S::Included => vec![S::None, S::Included],
                S::ExecutedOptimistic => vec![S::None, S::Included, S::ExecutedOptimistic],
                S::IncludedFinal => vec![S::None, S::Included, S::IncludedFinal],
                S::Executed => vec![
                    S::None,
                    S::Included,
                    S::ExecutedOptimistic,
                    S::IncludedFinal,
                    S::Executed,
                ],
                _ => all.to_vec(),
            }
        };
        for got in &all {
            for asked in &all {
                assert_eq!(
                    reaches(got, asked),
                    implied(got).contains(asked),
                    "{got:?} for {asked:?}"
                );
            }
        }
        let unknown = S::Unknown(serde_json::json!("LATER"));
        assert!(!reaches(&unknown, &S::None));
        assert!(reaches(&unknown, &unknown));
    }
}
