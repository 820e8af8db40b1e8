//! [`Signer`]: an account, the key it signs with, and the nonces it hands out.
//!
//! A signer reads its access key's nonce (and, in the same answer, a final block's hash)
//! once, then counts nonces up locally, so that many transactions sent at once get
//! consecutive nonces without a round trip each; one read at a time (concurrent first
//! sends wait for it), again after [`BLOCK_HASH_REUSE`] for a fresh block hash. A node's
//! `InvalidNonce` moves the count past the nonce it reports; `NonceTooLarge` (a count a
//! hostile node pushed too far), or a count run to `u64::MAX`, forgets it, so that no
//! node's answer wedges a signer: the next transaction reads the key again. Clones share
//! the count, so one signer should serve one account key on one chain.

use std::fmt;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

use crate::tx::{Credentials, CredentialsError, SecretKey, SignedTransaction};
use crate::{AccountId, CryptoHash, PublicKey};

/// How long a block hash read for signing is reused. Nodes accept a transaction for
/// `transaction_validity_period` blocks after its block (a day on mainnet), so minutes
/// are far inside; an `Expired` answer refreshes it anyway.
pub const BLOCK_HASH_REUSE: Duration = Duration::from_secs(60);

/// An account and the secret key it signs transactions with, with its nonce count.
///
/// ```
/// use near_rpc::Signer;
///
/// let signer = Signer::new(
///     "alice.near".parse()?,
///     "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse()?,
/// );
/// // Debug shows the account and public key, never the secret.
/// assert!(format!("{signer:?}").contains("ed25519:DcA2MzgpJbrUATQLLceocVckhhAqrkingax4oJ9kZ847"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Signer {
    account_id: AccountId,
    key: Arc<SecretKey>,
    public_key: PublicKey,
    state: Arc<Mutex<Option<Counter>>>,
    // Held while the key is read, so that concurrent sends read it once.
    reading: Arc<tokio::sync::Mutex<()>>,
    before_send: Option<Arc<BeforeSend>>,
}

/// What [`Signer::before_send`] runs.
type BeforeSend = dyn Fn(&SignedTransaction) -> Result<(), String> + Send + Sync;

/// What the signer knows of its key on chain.
#[derive(Debug, Clone, Copy)]
struct Counter {
    /// The nonce the next transaction gets.
    next_nonce: u64,
    /// A recent final block, and when it was read (none after an `Expired`).
    block: Option<(CryptoHash, Instant)>,
}

impl fmt::Debug for Signer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Signer")
            .field("account_id", &self.account_id)
            .field("public_key", &format_args!("{}", self.public_key))
            .finish_non_exhaustive()
    }
}

impl Signer {
    /// `account_id` signing with `key`.
    pub fn new(account_id: AccountId, key: SecretKey) -> Self {
        let public_key = key.public_key();
        Self {
            account_id,
            key: Arc::new(key),
            public_key,
            state: Arc::new(Mutex::new(None)),
            reading: Arc::new(tokio::sync::Mutex::new(())),
            before_send: None,
        }
    }

    /// Runs `hook` with every transaction this signer signs for [`Client::send`](
    /// super::Client::send) and the write shortcuts, after signing and before any byte
    /// of it is sent, re-signs included: where a wallet or a job queue persists the hash
    /// and bytes, so that a send whose future is dropped (a cancel, a deadline, a crash)
    /// leaves the transaction to look up or re-send. An `Err` sends nothing: the write
    /// fails with [`SendErrorKind::Usage`](super::SendErrorKind::Usage) naming the
    /// transaction, which was signed but never sent.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use near_rpc::Signer;
    ///
    /// let pending = Arc::new(Mutex::new(Vec::new()));
    /// let journal = pending.clone();
    /// let signer = Signer::new(
    ///     "alice.near".parse()?,
    ///     "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse()?,
    /// )
    /// .before_send(move |signed| {
    ///     journal.lock().unwrap().push(signed.to_base64());
    ///     Ok(())
    /// });
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn before_send(
        mut self,
        hook: impl Fn(&SignedTransaction) -> Result<(), String> + Send + Sync + 'static,
    ) -> Self {
        self.before_send = Some(Arc::new(hook));
        self
    }

    /// Runs the [`Signer::before_send`] hook, if any.
    pub(crate) fn run_before_send(&self, signed: &SignedTransaction) -> Result<(), String> {
        self.before_send
            .as_ref()
            .map_or(Ok(()), |hook| hook(signed))
    }

    /// A signer from credentials.
    pub fn from_credentials(credentials: Credentials) -> Self {
        Self::new(credentials.account_id, credentials.secret_key)
    }

    /// A signer from a near-cli credential file (see [`Credentials::from_file`]).
    pub fn from_file(path: impl AsRef<Path>) -> Result<Self, CredentialsError> {
        Credentials::from_file(path).map(Self::from_credentials)
    }

    /// A signer from `NEAR_ACCOUNT_ID` and `NEAR_PRIVATE_KEY` (see
    /// [`Credentials::from_env`]).
    pub fn from_env() -> Result<Self, CredentialsError> {
        Credentials::from_env().map(Self::from_credentials)
    }

    /// The account.
    pub fn account_id(&self) -> &AccountId {
        &self.account_id
    }

    /// The public key of the signing key.
    pub fn public_key(&self) -> &PublicKey {
        &self.public_key
    }

    /// The signing key.
    pub fn secret_key(&self) -> &SecretKey {
        &self.key
    }

    /// The lock held while the key is read.
    pub(crate) fn reading(&self) -> &tokio::sync::Mutex<()> {
        &self.reading
    }

    /// The next nonce and a block hash to sign with, if a recent enough read is known.
    /// A count at `u64::MAX` has no nonce after the one it would hand out; only a node's
    /// answer can have pushed it there, so it is forgotten and the key read afresh.
    pub(crate) fn take_nonce(&self) -> Option<(u64, CryptoHash)> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let counter = state.as_mut()?;
        let (block_hash, read_at) = counter.block?;
        if read_at.elapsed() > BLOCK_HASH_REUSE {
            return None;
        }
        let nonce = counter.next_nonce;
        match nonce.checked_add(1) {
            Some(next) => {
                counter.next_nonce = next;
                Some((nonce, block_hash))
            }
            None => {
                *state = None;
                None
            }
        }
    }

    /// Records what the node said (the key's nonce and a final block's hash) and takes
    /// the next nonce, in one step. The count only moves forward, so nonces handed out
    /// meanwhile are never handed out again, unless it ran to `u64::MAX` (pushed there
    /// by a node's `InvalidNonce`): then the key just read rules. `None` when the key's
    /// nonce is `u64::MAX`: it can sign nothing more.
    pub(crate) fn observe_and_take(
        &self,
        key_nonce: u64,
        block_hash: CryptoHash,
    ) -> Option<(u64, CryptoHash)> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let next = key_nonce.checked_add(1)?;
        let nonce = match *state {
            Some(counter) if counter.next_nonce != u64::MAX => counter.next_nonce.max(next),
            _ => next,
        };
        // After a nonce of `u64::MAX` nothing is counted: the next send reads the key.
        *state = nonce.checked_add(1).map(|after| Counter {
            next_nonce: after,
            block: Some((block_hash, Instant::now())),
        });
        Some((nonce, block_hash))
    }

    /// Records what the node said (the key's nonce and a final block's hash) without
    /// taking a nonce: the count moves forward, never back, and the block is the new one.
    pub(crate) fn observe(&self, key_nonce: u64, block_hash: CryptoHash) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let Some(next) = key_nonce.checked_add(1) else {
            // Nothing can follow `u64::MAX`: the next transaction reads the key again.
            *state = None;
            return;
        };
        let next_nonce = match *state {
            Some(counter) if counter.next_nonce != u64::MAX => counter.next_nonce.max(next),
            _ => next,
        };
        *state = Some(Counter {
            next_nonce,
            block: Some((block_hash, Instant::now())),
        });
    }

    /// Forgets the nonce count and block hash: the next transaction reads the key from
    /// the node again. What to do after [`Client::send_signed`](super::Client::send_signed)
    /// is refused with `InvalidNonce` or `NonceTooLarge` (the count is off), or when
    /// another program has used the key.
    pub fn reset(&self) {
        self.forget();
    }

    /// Moves the count past `key_nonce` (a node's `InvalidNonce`), keeping the block. A
    /// `key_nonce` of `u64::MAX` leaves no nonce to count to: the count is forgotten, and
    /// the next transaction reads the key (which says whether it really is there).
    pub(crate) fn observe_nonce(&self, key_nonce: u64) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        match key_nonce.checked_add(1) {
            Some(next) => {
                if let Some(counter) = state.as_mut() {
                    counter.next_nonce = counter.next_nonce.max(next);
                }
            }
            None => *state = None,
        }
    }

    /// Forgets the block hash (a node's `Expired`): the next transaction reads a new one.
    pub(crate) fn forget_block(&self) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(counter) = state.as_mut() {
            counter.block = None;
        }
    }

    /// Forgets everything (a node's `NonceTooLarge`: the count went past what the chain
    /// allows, pushed by a node's answer): the next transaction reads the key afresh.
    pub(crate) fn forget(&self) {
        *self.state.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }
}
