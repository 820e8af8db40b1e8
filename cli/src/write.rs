//! The write commands: `sign` and `sign-delegate` (offline), `send`, `transfer` and
//! `relay`. Their input is read here: the key file, ACTIONS_JSON in the spec's
//! `ActionView` form, and NEAR amounts. Every error names the input at fault and never
//! the secret key.

use std::path::Path;

use std::sync::{Arc, Mutex};

use near_rpc::client::{Secrets, SendError, SendErrorKind};
use near_rpc::tx::{
    Action, Credentials, DelegateAction, NonDelegateAction, NonceMode, SecretKey,
    SignedDelegateAction, SignedTransaction, Transaction, TransactionNonce, TransactionV1,
};
use near_rpc::types::{ActionView, FunctionArgs, RpcQueryError};
use near_rpc::{types::RpcTransactionResponse, AccountId, CryptoHash, NearToken, PublicKey};
use near_rpc::{Client, Signer};
use serde::Serialize;
use serde_json::{json, Value};

use crate::output::{describe, failure, one_line, print_json, write_stdout, Failure};
use crate::output::{EXIT_DECODE, EXIT_IO, EXIT_RPC, EXIT_TRANSPORT};

/// The credentials of `--key-file`. A path that is itself a key is refused without
/// being repeated.
pub fn key_file(path: &Path) -> Result<Credentials, Failure> {
    let text = path.to_string_lossy();
    if text.parse::<SecretKey>().is_ok()
        || text.starts_with("ed25519:")
        || text.starts_with("secp256k1:")
        || text.starts_with("ml-dsa-65:")
    {
        return Err(Failure::usage(
            "--key-file takes the path of a credential file, not a key",
        ));
    }
    Credentials::from_file(path).map_err(|e| Failure::usage(describe(&e)))
}

/// ACTIONS_JSON: a JSON array of actions in the spec's `ActionView` form
/// (`["CreateAccount", {"Transfer": {"deposit": "1000"}}]`). Deployments take the
/// code's base64 in `code` (a node's view shows its hash there instead).
pub fn actions(text: &str) -> Result<Vec<Action>, Failure> {
    let bad = |message: String| Failure::usage(format!("ACTIONS_JSON: {message}"));
    let value: Value =
        serde_json::from_str(text).map_err(|e| bad(format!("not valid JSON: {e}")))?;
    // serde_json kept the last of a repeated key; the first was meant as much.
    near_rpc::decode::check_unique_keys(text.as_bytes()).map_err(|e| bad(e.to_string()))?;
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
            action_with_inline_code(&view).map_err(|e| bad(format!("[{i}]: {e}")))
        })
        .collect()
}

/// One action from ACTIONS_JSON's view form, where a deployment's `code` is the code
/// itself (base64), inline: the one place this form differs from a node's view, whose
/// `code` is the code's hash ([`near_rpc::tx::action_from_view_with_code`] reads those).
fn action_with_inline_code(view: &ActionView) -> Result<Action, String> {
    use near_rpc::tx::GlobalContractDeployMode as Mode;
    // In a node's view `code` is the code's hash; in ACTIONS_JSON it is the code itself.
    let code = |text: &str| {
        near_rpc::types::FunctionArgs(text.to_owned())
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
/// yoctoNEAR with `yocto` ([`crate::args::amount`]); a usage error otherwise.
pub fn amount(text: &str, yocto: bool) -> Result<NearToken, Failure> {
    crate::args::amount(text, yocto).map_err(Failure::usage)
}

/// How `sign` numbers a transaction: its nonce, and for a version-1 transaction a gas
/// key's nonce index and the nonce mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nonce {
    /// The nonce.
    pub nonce: u64,
    /// A gas key's nonce index (`--nonce-index`).
    pub index: Option<u16>,
    /// The nonce mode (`--nonce-mode`).
    pub mode: Option<NonceMode>,
}

impl Nonce {
    /// The transaction: `TransactionV1` when a nonce index or a mode was given (the mode
    /// monotonic unless told), the ordinary `TransactionV0` otherwise.
    fn transaction(
        self,
        signer_id: AccountId,
        public_key: PublicKey,
        receiver_id: AccountId,
        block_hash: CryptoHash,
        actions: Vec<Action>,
    ) -> Transaction {
        if self.index.is_none() && self.mode.is_none() {
            return Transaction::new(
                signer_id,
                public_key,
                self.nonce,
                receiver_id,
                block_hash,
                actions,
            );
        }
        let nonce = match self.index {
            Some(nonce_index) => TransactionNonce::GasKeyNonce {
                nonce: self.nonce,
                nonce_index,
            },
            None => TransactionNonce::Nonce { nonce: self.nonce },
        };
        Transaction::V1(TransactionV1 {
            signer_id,
            public_key,
            nonce,
            receiver_id,
            block_hash,
            actions,
            nonce_mode: self.mode.unwrap_or_default(),
        })
    }
}

/// `sign`: the signed transaction's base64 and hash, as one JSON line.
pub fn sign(
    credentials: &Credentials,
    signer: Option<AccountId>,
    nonce: Nonce,
    block_hash: CryptoHash,
    receiver: AccountId,
    actions: Vec<Action>,
) -> Result<(), Failure> {
    let signer_id = signer_of(credentials, signer)?;
    let signed = nonce
        .transaction(
            signer_id,
            credentials.public_key(),
            receiver,
            block_hash,
            actions,
        )
        .sign(&credentials.secret_key);
    print_line(&Signed {
        signed_tx_base64: signed.to_base64(),
        hash: signed.hash().to_string(),
    })
}

/// What `sign` prints, in this order (a map would sort `hash` first).
#[derive(Serialize)]
struct Signed {
    /// The signed transaction, base64 of its borsh bytes.
    signed_tx_base64: String,
    /// Its hash.
    hash: String,
}

/// `sign-delegate`: the signed delegate action's base64 and the hash signed, as one JSON
/// line. A delegate action among `actions` is refused, naming it: one cannot hold
/// another.
pub fn sign_delegate(
    credentials: &Credentials,
    signer: Option<AccountId>,
    nonce: u64,
    max_block_height: u64,
    receiver: AccountId,
    actions: Vec<Action>,
) -> Result<(), Failure> {
    let sender_id = signer_of(credentials, signer)?;
    let actions = actions
        .into_iter()
        .enumerate()
        .map(|(i, action)| {
            NonDelegateAction::try_from(action)
                .map_err(|e| Failure::usage(format!("ACTIONS_JSON: [{i}]: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let delegate = DelegateAction {
        sender_id,
        receiver_id: receiver,
        actions,
        nonce,
        max_block_height,
        public_key: credentials.public_key(),
    };
    let hash = delegate.signable_hash();
    let signed = delegate.sign(&credentials.secret_key);
    print_line(&SignedDelegate {
        signed_delegate_action_base64: FunctionArgs::from_bytes(signed.to_borsh()).0,
        hash: hash.to_string(),
    })
}

/// What `sign-delegate` prints, in this order.
#[derive(Serialize)]
struct SignedDelegate {
    /// The signed delegate action, base64 of its borsh bytes.
    signed_delegate_action_base64: String,
    /// The hash its signature signs (NEP-461).
    hash: String,
}

/// A delegate action to relay, unless its signature does not verify: the relayer would
/// pay for a transaction whose delegate action fails on chain.
pub fn relayable(signed: &SignedDelegateAction) -> Result<(), Failure> {
    if signed.verify() {
        return Ok(());
    }
    let action = &signed.delegate_action;
    Err(Failure::usage(format!(
        "SIGNED_DELEGATE_BASE64: the signature is not {}'s over the delegate action of {} \
         (hash {}); nothing was sent",
        action.public_key,
        action.sender_id,
        action.signable_hash()
    )))
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

/// How `send` and `transfer` number their transaction: a gas key's nonce index
/// (`--nonce-index`) and a nonce mode (`--nonce-mode`). Neither: the ordinary version 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SendNonce {
    /// The gas key's nonce index; the key file's key is then a gas key.
    pub index: Option<u16>,
    /// The nonce mode of a version-1 transaction.
    pub mode: Option<NonceMode>,
}

/// What `send`, `transfer` and `relay` send: actions to a receiver, numbered as
/// [`SendNonce`] says.
pub struct Intent {
    /// The receiver.
    pub receiver: AccountId,
    /// The actions.
    pub actions: Vec<Action>,
    /// Which nonce, of which kind of key.
    pub nonce: SendNonce,
}

/// `send`, `transfer` and `relay`: signs and sends through the client's write path,
/// prints the typed outcome; a failure on chain is exit 3, with the failure on stderr.
/// Every failure after signing prints the transaction (`{"rejected"|"unresolved": HASH,
/// "signed_tx_base64": ...}`) on stdout first, and so does `stop` (Ctrl-C, SIGTERM)
/// arriving once a transaction was signed: it may be in flight.
pub async fn send(
    client: &Client,
    credentials: Credentials,
    intent: Intent,
    stop: impl std::future::Future<Output = ()>,
) -> Result<(), Failure> {
    let Intent {
        receiver,
        actions,
        nonce,
    } = intent;
    let key = KeyOf {
        account: credentials.account_id.clone(),
        public_key: credentials.public_key(),
        gas_key: nonce.index.is_some(),
    };
    // The transaction about to be sent, kept before any byte of it leaves.
    let in_flight: Arc<Mutex<Option<SignedTransaction>>> = Arc::default();
    let journal = in_flight.clone();
    let signer = signer(credentials, nonce)?.before_send(move |signed| {
        *journal.lock().unwrap_or_else(|p| p.into_inner()) = Some(signed.clone());
        Ok(())
    });
    // Through the signing client's builder: the same write path as `Client::send`, and
    // a delegate action that has expired is refused before the relayer signs anything.
    let transaction = actions.into_iter().fold(
        client.with_signer(signer).transaction(receiver),
        |transaction, action| transaction.action(action),
    );
    let outcome = tokio::select! {
        result = transaction.send() => {
            result.map_err(|e| send_failure(e, Some(&key)))?
        }
        () = stop => {
            let signed = in_flight.lock().unwrap_or_else(|p| p.into_inner()).take();
            return Err(stopped(signed.as_ref()));
        }
    };
    print_json(&outcome)?;
    on_chain_failure(&outcome)
}

/// The library's signer for the key file and `nonce`, so that every transaction goes
/// through [`Client::send`] and its rules (re-signs only as they allow, per nonce index):
/// a gas key's signer over the one index asked for, or the access key's, in the nonce
/// mode asked for (which makes it sign version 1).
fn signer(credentials: Credentials, nonce: SendNonce) -> Result<Signer, Failure> {
    let signer = match nonce.index {
        Some(index) => Signer::gas_key(credentials.account_id, credentials.secret_key, [index])
            .map_err(|e| Failure::usage(format!("--nonce-index {index}: {e}")))?,
        None => Signer::from_credentials(credentials),
    };
    Ok(match nonce.mode {
        Some(mode) => signer.nonce_mode(mode),
        None => signer,
    })
}

/// `send-tx`: sends a signed transaction as it is through the write path (never signing
/// anything), prints the outcome; failures as for `send`. `stop` (Ctrl-C, SIGTERM) prints
/// it as unresolved: it may be in flight.
pub async fn send_signed(
    client: &Client,
    signed: &SignedTransaction,
    stop: impl std::future::Future<Output = ()>,
) -> Result<(), Failure> {
    let outcome = tokio::select! {
        result = client.send_signed(signed) => result.map_err(|e| send_failure(e, None))?,
        () = stop => return Err(stopped(Some(signed))),
    };
    print_json(&outcome)?;
    on_chain_failure(&outcome)
}

/// Stopped by a signal: with a transaction signed, it may be in flight (exit 5, as
/// unresolved); before, nothing was sent (exit 1).
fn stopped(signed: Option<&SignedTransaction>) -> Failure {
    let Some(signed) = signed else {
        return Failure::new(EXIT_IO, "stopped before anything was signed or sent");
    };
    let _ = print_transaction("unresolved", signed);
    Failure::new(
        EXIT_TRANSPORT,
        format!(
            "stopped while transaction {} was being sent: {}",
            signed.hash(),
            look_up_hint(signed)
        ),
    )
}

/// How to find out what became of a transaction that may be in flight.
fn look_up_hint(signed: &SignedTransaction) -> String {
    format!(
        "look it up with `near-rpc tx-status --hash {} --sender {}` or re-send the same \
         bytes with `near-rpc send-tx --base64 ...` (printed on stdout) before sending it \
         again",
        signed.hash(),
        signed.transaction().signer_id()
    )
}

/// The transaction a failure is about, as one JSON line on stdout: `{STATE: HASH,
/// "signed_tx_base64": ...}`, in that order (a map would sort `signed_tx_base64` before
/// `unresolved`), so that a script can read it with the first line and find the state
/// at its start.
fn print_transaction(state: &str, signed: &SignedTransaction) -> Result<(), Failure> {
    let line = format!(
        "{{{}: {}, \"signed_tx_base64\": {}}}\n",
        json!(state),
        json!(signed.hash().to_string()),
        json!(signed.to_base64())
    );
    write_stdout(&line)
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

/// The key file's account and public key, for naming them when the node knows neither,
/// and whether it was to sign as a gas key (`--nonce-index`).
struct KeyOf {
    account: AccountId,
    public_key: PublicKey,
    gas_key: bool,
}

/// The node's word that the key (an access key, or a gas key for `--nonce-index`) or its
/// account does not exist.
fn unknown_key(error: &near_rpc::client::Error<RpcQueryError>) -> Option<&RpcQueryError> {
    error.handler_error().filter(|e| {
        matches!(
            e,
            RpcQueryError::UnknownAccessKey { .. }
                | RpcQueryError::UnknownGasKey { .. }
                | RpcQueryError::UnknownAccount { .. }
        )
    })
}

fn send_failure(error: SendError, key: Option<&KeyOf>) -> Failure {
    // The transaction the failure is about goes first, whatever the failure: with its
    // hash and bytes nothing signed is lost.
    if let Some(signed) = error.signed() {
        let state = if error.is_unresolved() {
            "unresolved"
        } else {
            "rejected"
        };
        if let Err(failure) = print_transaction(state, signed) {
            return failure;
        }
    }
    let reason = error
        .invalid_tx_error()
        .map(|r| one_line(&json!(r).to_string()));
    let hash = error.hash();
    let signed = error.signed().cloned();
    match error.into_kind() {
        SendErrorKind::Usage { message } => Failure::usage(message),
        // The key file names a key its account does not have (or an account the chain
        // does not have): the input is wrong, not the node.
        SendErrorKind::AccessKey(error) => match (key, unknown_key(&error)) {
            (
                Some(KeyOf {
                    account,
                    public_key,
                    gas_key,
                }),
                Some(unknown),
            ) => {
                let why = match unknown {
                    RpcQueryError::UnknownAccount { .. } => ": the account does not exist",
                    _ => "",
                };
                let kind = if *gas_key {
                    "a gas key (--nonce-index signs with one)"
                } else {
                    "an access key"
                };
                Failure::usage(format!(
                    "--key-file: {public_key} is not {kind} of {account}{why}"
                ))
            }
            _ => {
                let mut failure = failure(error);
                failure.message =
                    format!("cannot read the signer's access key: {}", failure.message);
                failure
            }
        },
        // Refused by the node (its typed error goes to stdout, as for any JSON-RPC
        // error) or never sent. A refusal is exit 3 whatever the HTTP status.
        SendErrorKind::Rejected(error) => {
            let refused = error.rpc_error().is_some();
            let mut failure = failure(error);
            let hash = hash.map_or_else(String::new, |h| format!(" {h}"));
            failure.message = match reason {
                Some(reason) => format!(
                    "transaction{hash} was refused: {reason}: {}",
                    failure.message
                ),
                None if refused => format!("transaction{hash} was refused: {}", failure.message),
                None => format!("transaction{hash} was never sent: {}", failure.message),
            };
            if refused {
                failure.code = EXIT_RPC;
            }
            failure
        }
        // It may still execute: say how to find out (its bytes are on stdout; re-running
        // the command would sign a second transaction).
        SendErrorKind::Unresolved(error) => {
            let hint = signed.as_ref().map(look_up_hint).unwrap_or_default();
            Failure::new(
                EXIT_TRANSPORT,
                format!(
                    "transaction{} may have been sent and its outcome is unknown: {}; {hint}",
                    hash.map_or_else(String::new, |h| format!(" {h}")),
                    describe(&error),
                ),
            )
        }
        // A kind a later library adds: what it may have done is unknown.
        _ => Failure::new(
            EXIT_TRANSPORT,
            "the write failed in a way this CLI does not know",
        ),
    }
}

/// What a failure of `sign`, `send` or `transfer` must never show, and its redaction.
///
/// The secrets are the key file's secret key (its text and its base58 data alone) and
/// every secret key in the command's own input (ACTIONS_JSON, AMOUNT, the key file's
/// path): a key pasted there by mistake would otherwise be quoted back by an error
/// (`unknown variant ...`). The message is also searched for anything else that is a
/// secret key in NEAR's text forms. A 32-byte ed25519 seed reads exactly like a public
/// key or a hash, so one is masked only when it is the key file's own key.
#[derive(Default)]
pub struct Redaction {
    /// Texts to mask.
    secrets: Vec<String>,
    /// Input that reads as a 32-byte ed25519 seed (or a public key, or a hash).
    seeds: Vec<String>,
}

impl Redaction {
    /// The secrets found in the command's input.
    pub fn of_inputs<'a>(inputs: impl IntoIterator<Item = &'a str>) -> Self {
        let mut redaction = Self::default();
        for candidate in inputs.into_iter().flat_map(key_candidates) {
            match classify(candidate) {
                Found::Secret => redaction.secrets.push(candidate.to_owned()),
                Found::Seed => redaction.seeds.push(candidate.to_owned()),
                Found::Nothing => {}
            }
        }
        redaction
    }

    /// Adds the key file's secret key, and any seed in the input that is its seed.
    pub fn add_key(&mut self, credentials: &Credentials) {
        let text = credentials.secret_key.to_secret_string();
        self.secrets.push(text.to_string());
        if let Some((_, data)) = text.split_once(':') {
            self.secrets.push(data.to_owned());
        }
        let key = &credentials.secret_key;
        for seed in std::mem::take(&mut self.seeds) {
            if seed.parse::<SecretKey>().is_ok_and(|s| &s == key) {
                self.secrets.push(seed);
            }
        }
    }

    /// The failure, its message scrubbed of every secret (each shown as `***`).
    pub fn apply(&self, mut failure: Failure) -> Failure {
        let known = Secrets::new(self.secrets.iter().cloned());
        let message = known.scrub(&failure.message).into_owned();
        let found: Vec<String> = key_candidates(&message)
            .filter(|c| is_secret_key(c))
            .map(str::to_owned)
            .collect();
        failure.message = Secrets::new(found).scrub(&message).into_owned();
        failure
    }
}

/// What a piece of input is.
enum Found {
    /// A secret key, or what can only be one (a long base58 run, maybe mistyped).
    Secret,
    /// A 32-byte ed25519 seed, which is also the form of a public key or a hash.
    Seed,
    /// Anything else.
    Nothing,
}

/// The longest text of an ed25519 or secp256k1 secret key: `secp256k1:` and 100
/// characters (the parser's cap).
const MAX_KEY_TEXT: usize = 110;

/// The base58 length of an ML-DSA-65 secret key (4032 bytes: about 5507 characters; the
/// parser reads up to 5600). Nothing public is that long: an ML-DSA-65 public key (1952
/// bytes) is about 2666 characters and a signature (3309 bytes) about 4519, so a run of
/// this length is a secret key in any build, even one that cannot read such keys.
const ML_DSA_SECRET_CHARS: std::ops::RangeInclusive<usize> = 5000..=5600;

/// A base58 run this long is 64 bytes or more: not a hash nor an ed25519 public key
/// (44 characters at most), so in a write command's input most likely a keypair.
const LONG_BASE58: usize = 80;

/// What a run of the input is: a secret (any secret key text, or a long base58 run), a
/// seed (ambiguous), or nothing.
fn classify(candidate: &str) -> Found {
    let data = candidate.rsplit_once(':').map_or(candidate, |(_, d)| d);
    if data.len() >= LONG_BASE58 && data.len() <= MAX_KEY_TEXT
        || ML_DSA_SECRET_CHARS.contains(&data.len())
    {
        return Found::Secret;
    }
    // A secp256k1 key's text shorter than its public key's (about 88 characters) is a
    // secret scalar, mistyped or not: no public value takes that form.
    if candidate.starts_with("secp256k1:") && !data.is_empty() && data.len() < LONG_BASE58 {
        return Found::Secret;
    }
    match candidate.parse::<SecretKey>() {
        Ok(key) if key.key_type() == near_rpc::KeyType::Ed25519 && data.len() <= 44 => Found::Seed,
        Ok(_) => Found::Secret,
        Err(_) => Found::Nothing,
    }
}

/// Whether `candidate` is a whole secret key in a form no public value takes: an ed25519
/// keypair whose halves match (a signature has the same length, not the match), a
/// secp256k1 scalar with its prefix (a secp256k1 public key is twice as long), or a run
/// as long as an ML-DSA-65 secret key's base58.
fn is_secret_key(candidate: &str) -> bool {
    let data = candidate.rsplit_once(':').map_or(candidate, |(_, d)| d);
    if ML_DSA_SECRET_CHARS.contains(&data.len()) {
        return true;
    }
    match candidate.parse::<SecretKey>() {
        Ok(key) if key.key_type() == near_rpc::KeyType::Ed25519 => data.len() > 44,
        Ok(_) => true,
        Err(_) => false,
    }
}

/// The runs of `text` that may be a secret key, with and without a `curve:` prefix:
/// its runs of letters, digits and `:`, and the part after the last `:` of each (an
/// `ml-dsa-65:` key's run is `65:` and its data, `-` ending a run).
fn key_candidates(text: &str) -> impl Iterator<Item = &str> {
    let longest = MAX_KEY_TEXT.max(*ML_DSA_SECRET_CHARS.end() + "65:".len());
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == ':'))
        .filter(move |run| run.len() >= 32 && run.len() <= longest)
        .flat_map(|run| {
            let data = run.rsplit_once(':').map(|(_, d)| d);
            std::iter::once(run).chain(data.filter(|d| d.len() >= 32))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use near_rpc::Signature;

    fn credentials(seed: u8) -> Credentials {
        Credentials {
            account_id: "alice.near".parse().unwrap(),
            secret_key: SecretKey::ed25519_from_seed(&[seed; 32]),
        }
    }

    fn redacted(redaction: &Redaction, message: &str) -> String {
        redaction.apply(Failure::usage(message)).message
    }

    #[test]
    fn the_key_files_secret_is_masked_in_every_form() {
        let credentials = credentials(7);
        let text = credentials.secret_key.to_secret_string().to_string();
        let data = text.split_once(':').unwrap().1.to_owned();
        let mut redaction = Redaction::of_inputs([]);
        redaction.add_key(&credentials);
        for shown in [&text, &data] {
            let message = redacted(&redaction, &format!("unknown variant `{shown}`"));
            assert_eq!(message, "unknown variant `***`");
        }
    }

    #[test]
    fn any_secret_key_in_a_message_is_masked_and_public_values_are_not() {
        let redaction = Redaction::of_inputs([]);
        let other = SecretKey::ed25519_from_seed(&[9; 32]);
        let keypair = other.to_secret_string().to_string();
        let keypair_data = keypair.split_once(':').unwrap().1.to_owned();
        let secp = SecretKey::secp256k1_from_bytes(&[5; 32])
            .unwrap()
            .to_secret_string()
            .to_string();
        for secret in [&keypair, &keypair_data, &secp] {
            let message = redacted(&redaction, &format!("at [0]: `{secret}`!"));
            assert_eq!(message, "at [0]: `***`!", "{secret}");
        }
        // A public key, a hash-like seed, a signature (a keypair's length, not its
        // match): what errors may name, left as they are.
        let public = other.public_key().to_string();
        let signature = Signature::ed25519([3; 64]).to_string();
        let seedlike = format!("ed25519:{}", &public["ed25519:".len()..]);
        for shown in [&public, &signature, &seedlike] {
            let message = format!("named {shown} here");
            assert_eq!(redacted(&redaction, &message), message);
        }
    }

    #[test]
    fn secrets_in_the_input_are_masked_even_mistyped() {
        let credentials = credentials(7);
        let own = credentials.secret_key.to_secret_string().to_string();
        let own_data = own.split_once(':').unwrap().1;
        let mistyped = format!("ed25519:0{}", &own_data[1..]);
        // The key file's key as its 32-byte seed is masked (it is the key file's);
        // another seed, which reads exactly like a public key, is not.
        let own_seed = format!("ed25519:{}", CryptoHash([7; 32]));
        let other_seed = format!("ed25519:{}", CryptoHash([1; 32]));
        let input = format!(r#"["{mistyped}", {{"x": "{other_seed}"}}, "{own}", "{own_seed}"]"#);
        let mut redaction = Redaction::of_inputs([input.as_str()]);
        redaction.add_key(&credentials);
        let message = redacted(
            &redaction,
            &format!("`{mistyped}`, `{other_seed}`, `{own}`, `{own_seed}`"),
        );
        assert_eq!(message, format!("`***`, `{other_seed}`, `***`, `***`"));
    }

    /// A base58 run of `chars` characters (hash texts end to end).
    fn base58_run(chars: usize) -> String {
        let mut run = String::new();
        let mut i = 0u8;
        while run.len() < chars {
            run.push_str(&CryptoHash([i; 32]).to_string().replace('1', "2"));
            i = i.wrapping_add(1);
        }
        run.truncate(chars);
        run
    }

    #[test]
    fn a_run_as_long_as_an_ml_dsa_secret_key_is_masked_and_its_public_values_are_not() {
        // The lengths of the base58 of an ML-DSA-65 secret key (4032 bytes), public key
        // (1952) and signature (3309).
        let secret = format!("ml-dsa-65:{}", base58_run(5507));
        let public = format!("ml-dsa-65:{}", base58_run(2666));
        let signature = format!("ml-dsa-65:{}", base58_run(4519));
        // In the input: masked wherever a message repeats it.
        let redaction = Redaction::of_inputs([format!(r#"["{secret}"]"#).as_str()]);
        let data = &secret["ml-dsa-65:".len()..];
        assert_eq!(
            redacted(&redaction, &format!("at [0]: `{secret}`")),
            "at [0]: `ml-dsa-***`"
        );
        assert_eq!(redacted(&redaction, &format!("`{data}`")), "`***`");
        // In a message only (a node's echo, say): masked too; public values are not.
        let redaction = Redaction::of_inputs([]);
        let message = redacted(
            &redaction,
            &format!("node: {secret}, {public}, {signature}"),
        );
        assert_eq!(message, format!("node: ml-dsa-***, {public}, {signature}"));
    }

    #[test]
    fn a_secret_echoed_json_escaped_is_masked() {
        let credentials = credentials(7);
        let text = credentials.secret_key.to_secret_string().to_string();
        let mut redaction = Redaction::of_inputs([]);
        redaction.add_key(&credentials);
        let every: String = text
            .chars()
            .map(|c| format!("\\u{:04x}", c as u32))
            .collect();
        let some = text.replacen('e', "\\u0065", 3).replace(':', "\\u003A");
        for shown in [every, some] {
            let message = redacted(&redaction, &format!(r#"node said: {{"key":"{shown}"}}"#));
            assert_eq!(message, r#"node said: {"key":"***"}"#);
        }
    }
}
