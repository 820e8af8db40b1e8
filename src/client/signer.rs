//! [`Signer`]: an account, the keys it signs with, and the nonces it hands out.
//!
//! A signer signs with one access key ([`Signer::new`]), a pool of access keys of one
//! account ([`Signer::pool`]), or a gas key's nonce indexes ([`Signer::gas_key`]). Each
//! key, and each nonce index of a gas key, is a *lane*: a nonce sequence of its own on
//! chain. Each intent takes the next lane in turn (so that concurrent sends spread over
//! them, as near-kit's `RotatingSigner` spreads over keys) and keeps it through every
//! re-sign.
//!
//! A lane reads its key's nonce (and, in the same answer, a final block's hash) once, then
//! counts nonces up locally, so that many transactions sent at once get consecutive nonces
//! without a round trip each; one read per key at a time (concurrent first sends wait for
//! it; a gas key's read fills every index), again after [`BLOCK_HASH_REUSE`] for a fresh
//! block hash. A node's `InvalidNonce` moves that lane's count past the nonce it reports;
//! `NonceTooLarge` (a count a hostile node pushed too far), or a count run to `u64::MAX`,
//! forgets it, so that no node's answer wedges a signer: the next transaction on the lane
//! reads the key again. Clones share the counts, so one signer should serve one account's
//! keys on one chain.

use std::collections::HashSet;
use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::rt::time::Instant;

use crate::primitives::CryptoHash;
use crate::primitives::PublicKey;
use crate::replaced::root::AccountId;
use crate::tx::{
    Action, Credentials, CredentialsError, NonceMode, SecretKey, SignedTransaction, Transaction,
    TransactionNonce, TransactionV1,
};

/// How long a block hash read for signing is reused. Nodes accept a transaction for
/// `transaction_validity_period` blocks after its block (a day on mainnet), so minutes
/// are far inside; an `Expired` answer refreshes it anyway.
pub const BLOCK_HASH_REUSE: Duration = Duration::from_secs(60);

/// An account and the secret key (or keys) it signs transactions with, with their nonce
/// counts.
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
///
/// What it signs: `TransactionV0` with an access key, unless a [`NonceMode`] is set
/// ([`Signer::nonce_mode`]): then `TransactionV1` with the key's plain nonce in that
/// mode. A gas key always signs `TransactionV1` with `GasKeyNonce { nonce, nonce_index }`
/// (monotonic unless set otherwise). Every transaction names its key and index, in
/// [`SendError::transactions`](super::SendError::transactions) and for
/// [`Signer::before_send`] alike.
#[derive(Clone)]
pub struct Signer {
    account_id: AccountId,
    keys: Arc<[SigningKey]>,
    lanes: Arc<[Lane]>,
    // The lane the next intent takes (modulo their number).
    turn: Arc<AtomicUsize>,
    nonce_mode: Option<NonceMode>,
    before_send: Option<Arc<BeforeSend>>,
}

/// What [`Signer::before_send`] runs.
type BeforeSend = dyn Fn(&SignedTransaction) -> Result<(), String> + Send + Sync;

/// One key of a signer.
struct SigningKey {
    secret: SecretKey,
    public: PublicKey,
    /// Whether it is a gas key (its nonces are per index, read with
    /// `view_gas_key_nonces`).
    gas_key: bool,
    // Held while the key is read, so that concurrent sends read it once.
    reading: tokio::sync::Mutex<()>,
}

/// One nonce sequence: a key, and for a gas key one of its nonce indexes.
struct Lane {
    /// Which of the signer's keys.
    key: usize,
    /// The gas key's nonce index (none for an access key).
    nonce_index: Option<u16>,
    state: Mutex<Option<Counter>>,
}

impl Lane {
    fn new(key: usize, nonce_index: Option<u16>) -> Self {
        Self {
            key,
            nonce_index,
            state: Mutex::new(None),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, Option<Counter>> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// What the signer knows of one lane's nonce on chain.
#[derive(Debug, Clone, Copy)]
struct Counter {
    /// The nonce the next transaction gets.
    next_nonce: u64,
    /// A recent final block, and when it was read (none after an `Expired`).
    block: Option<(CryptoHash, Instant)>,
}

/// Why a key pool or a gas key signer cannot be made.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SignerError {
    /// No key (for [`Signer::pool`]) or no nonce index (for [`Signer::gas_key`]) was
    /// given.
    Empty {
        /// What was empty: "keys" or "nonce indexes".
        what: &'static str,
    },
    /// The same key was given twice: two counts of one nonce would collide.
    DuplicateKey(PublicKey),
    /// The same nonce index was given twice.
    DuplicateNonceIndex(u16),
}

impl fmt::Display for SignerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty { what } => write!(f, "a signer needs at least one of its {what}"),
            Self::DuplicateKey(key) => write!(f, "the key {key} is given twice"),
            Self::DuplicateNonceIndex(index) => {
                write!(f, "the nonce index {index} is given twice")
            }
        }
    }
}

impl std::error::Error for SignerError {}

impl fmt::Debug for Signer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("Signer");
        s.field("account_id", &self.account_id);
        if let [key] = &self.keys[..] {
            s.field("public_key", &format_args!("{}", key.public));
        } else {
            let keys: Vec<String> = self.keys.iter().map(|k| k.public.to_string()).collect();
            s.field("public_keys", &keys);
        }
        let indexes: Vec<u16> = self.lanes.iter().filter_map(|l| l.nonce_index).collect();
        if !indexes.is_empty() {
            s.field("nonce_indexes", &indexes);
        }
        if let Some(mode) = self.nonce_mode {
            s.field("nonce_mode", &mode);
        }
        s.finish_non_exhaustive()
    }
}

impl Signer {
    /// `account_id` signing with `key`.
    pub fn new(account_id: AccountId, key: SecretKey) -> Self {
        let public = key.public_key();
        Self::with_lanes(
            account_id,
            vec![SigningKey::new(key, public, false)],
            vec![Lane::new(0, None)],
        )
    }

    /// `account_id` signing with a pool of its access keys: each intent takes the next
    /// key in turn (and keeps it through its re-signs), so that concurrent sends do not
    /// queue on one nonce sequence. Each key's nonce is counted on its own, exactly as
    /// [`Signer::new`] counts one key's.
    ///
    /// ```
    /// use near_rpc::Signer;
    /// use near_rpc::tx::SecretKey;
    ///
    /// let keys: Vec<SecretKey> = vec![
    ///     "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse()?,
    ///     SecretKey::ed25519_from_seed(&[7; 32]),
    /// ];
    /// let signer = Signer::pool("alice.near".parse()?, keys)?;
    /// assert_eq!(signer.lanes().count(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pool(
        account_id: AccountId,
        keys: impl IntoIterator<Item = SecretKey>,
    ) -> Result<Self, SignerError> {
        let mut seen = HashSet::new();
        let mut signing = Vec::new();
        for key in keys {
            let public = key.public_key();
            if !seen.insert(public.clone()) {
                return Err(SignerError::DuplicateKey(public));
            }
            signing.push(SigningKey::new(key, public, false));
        }
        if signing.is_empty() {
            return Err(SignerError::Empty { what: "keys" });
        }
        let lanes = (0..signing.len()).map(|key| Lane::new(key, None)).collect();
        Ok(Self::with_lanes(account_id, signing, lanes))
    }

    /// `account_id` signing with a gas key, over the given nonce indexes (`0..n` for all
    /// of a key added with `num_nonces: n`; a subset leaves the others to another
    /// program): `TransactionV1` with `GasKeyNonce { nonce, nonce_index }`, monotonic
    /// unless [`Signer::nonce_mode`] says otherwise. Each intent takes the next index in
    /// turn and keeps it through its re-signs; each index's nonce (read with
    /// `view_gas_key_nonces`) is counted on its own.
    ///
    /// ```
    /// use near_rpc::Signer;
    ///
    /// let signer = Signer::gas_key(
    ///     "alice.near".parse()?,
    ///     "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse()?,
    ///     0..8,
    /// )?;
    /// assert_eq!(signer.lanes().count(), 8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn gas_key(
        account_id: AccountId,
        key: SecretKey,
        nonce_indexes: impl IntoIterator<Item = u16>,
    ) -> Result<Self, SignerError> {
        let mut seen = HashSet::new();
        let mut lanes = Vec::new();
        for index in nonce_indexes {
            if !seen.insert(index) {
                return Err(SignerError::DuplicateNonceIndex(index));
            }
            lanes.push(Lane::new(0, Some(index)));
        }
        if lanes.is_empty() {
            return Err(SignerError::Empty {
                what: "nonce indexes",
            });
        }
        let public = key.public_key();
        Ok(Self::with_lanes(
            account_id,
            vec![SigningKey::new(key, public, true)],
            lanes,
        ))
    }

    fn with_lanes(account_id: AccountId, keys: Vec<SigningKey>, lanes: Vec<Lane>) -> Self {
        Self {
            account_id,
            keys: keys.into(),
            lanes: lanes.into(),
            turn: Arc::new(AtomicUsize::new(0)),
            nonce_mode: None,
            before_send: None,
        }
    }

    /// Signs `TransactionV1` with `mode`. [`NonceMode::Strict`] makes a node accept a
    /// transaction only at exactly the key's nonce + 1 (nearcore's `verify_nonce`, in
    /// `runtime/runtime/src/verifier.rs`). Set on access keys, it signs version 1 (which
    /// nodes accept from protocol version 85 on) where they would sign version 0.
    ///
    /// Strict mode and concurrency do not mix on one lane: a transaction that overtakes
    /// the one before it is refused (`InvalidNonce`, with the key's nonce below the one
    /// before it); that send fails with
    /// [`SendErrorKind::Rejected`](super::SendErrorKind::Rejected), unsigned again, and
    /// the lane reads its key afresh. Spread concurrent strict sends over a pool or a gas
    /// key's indexes.
    ///
    /// ```
    /// use near_rpc::tx::NonceMode;
    /// use near_rpc::Signer;
    ///
    /// let signer = Signer::new(
    ///     "alice.near".parse()?,
    ///     "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse()?,
    /// )
    /// .nonce_mode(NonceMode::Strict);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn nonce_mode(mut self, mode: NonceMode) -> Self {
        self.nonce_mode = Some(mode);
        self
    }

    /// Runs `hook` with every transaction this signer signs for [`Client::send`](
    /// super::Client::send) and the write shortcuts, after signing and before any byte
    /// of it is sent, re-signs included: where a wallet or a job queue persists the hash
    /// and bytes, so that a send whose future is dropped (a cancel, a deadline, a crash)
    /// leaves the transaction to look up or re-send. An `Err` sends nothing: the write
    /// fails with [`SendErrorKind::Usage`](super::SendErrorKind::Usage) naming the
    /// transaction, which was signed but never sent. The transaction names the key (and
    /// a gas key's nonce index) that signed it.
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

    /// The public key of the signing key (of a pool: its first key).
    pub fn public_key(&self) -> &PublicKey {
        &self.keys[0].public
    }

    /// The signing key (of a pool: its first key).
    pub fn secret_key(&self) -> &SecretKey {
        &self.keys[0].secret
    }

    /// Each nonce sequence the signer spreads its intents over, in turn order: a key,
    /// and for a gas key the nonce index.
    pub fn lanes(&self) -> impl Iterator<Item = (&PublicKey, Option<u16>)> + '_ {
        self.lanes
            .iter()
            .map(|lane| (&self.keys[lane.key].public, lane.nonce_index))
    }

    /// Forgets the nonce counts and block hashes of every lane: the next transaction on
    /// each reads its key from the node again. What to do when another program has used
    /// the keys; after [`Client::send_signed`](super::Client::send_signed) is refused with
    /// `InvalidNonce` or `NonceTooLarge`, [`Signer::reset_lane`] forgets only the lane
    /// that signed it.
    pub fn reset(&self) {
        for lane in self.lanes.iter() {
            *lane.state() = None;
        }
    }

    /// Forgets the nonce count of the lane of `public_key` and `nonce_index` (`None` for
    /// an access key; [`SignedTransaction::transaction`] names both): the next
    /// transaction on it reads the key again. `false` when the signer has no such lane.
    pub fn reset_lane(&self, public_key: &PublicKey, nonce_index: Option<u16>) -> bool {
        match self.lane_of(public_key, nonce_index) {
            Some(lane) => {
                self.forget(lane);
                true
            }
            None => false,
        }
    }

    // ---- for the write path: a lane is an index into `lanes` ----

    /// The lane the next intent takes: each in turn.
    pub(crate) fn next_lane(&self) -> usize {
        self.turn.fetch_add(1, Ordering::Relaxed) % self.lanes.len()
    }

    /// The lane of `public_key` and `nonce_index`, if the signer has it.
    pub(crate) fn lane_of(
        &self,
        public_key: &PublicKey,
        nonce_index: Option<u16>,
    ) -> Option<usize> {
        self.lanes.iter().position(|lane| {
            lane.nonce_index == nonce_index && self.keys[lane.key].public == *public_key
        })
    }

    /// The public key of `lane`, and whether it is a gas key.
    pub(crate) fn lane_key(&self, lane: usize) -> (&PublicKey, bool) {
        let key = &self.keys[self.lanes[lane].key];
        (&key.public, key.gas_key)
    }

    /// The nonce index of `lane` (a gas key's).
    pub(crate) fn nonce_index(&self, lane: usize) -> Option<u16> {
        self.lanes[lane].nonce_index
    }

    /// The lane and index, as a message names them: "the access key K" or "nonce index
    /// I of the gas key K".
    pub(crate) fn describe_lane(&self, lane: usize) -> String {
        let (public, _) = self.lane_key(lane);
        match self.nonce_index(lane) {
            Some(index) => format!("nonce index {index} of the gas key {public}"),
            None => format!("the access key {public}"),
        }
    }

    /// The lock held while `lane`'s key is read (one per key: a gas key's read fills
    /// every index).
    pub(crate) fn reading(&self, lane: usize) -> &tokio::sync::Mutex<()> {
        &self.keys[self.lanes[lane].key].reading
    }

    /// Signs `actions` to `receiver` on `lane` with `nonce` and `block_hash`: version 0,
    /// or version 1 for a gas key or a nonce mode set.
    pub(crate) fn sign(
        &self,
        lane: usize,
        nonce: u64,
        receiver: AccountId,
        block_hash: CryptoHash,
        actions: Vec<Action>,
    ) -> SignedTransaction {
        let key = &self.keys[self.lanes[lane].key];
        let nonce = match self.lanes[lane].nonce_index {
            Some(nonce_index) => TransactionNonce::GasKeyNonce { nonce, nonce_index },
            None => TransactionNonce::Nonce { nonce },
        };
        let transaction = match (nonce, self.nonce_mode) {
            (TransactionNonce::Nonce { nonce }, None) => Transaction::new(
                self.account_id.clone(),
                key.public.clone(),
                nonce,
                receiver,
                block_hash,
                actions,
            ),
            (nonce, mode) => Transaction::V1(TransactionV1 {
                signer_id: self.account_id.clone(),
                public_key: key.public.clone(),
                nonce,
                receiver_id: receiver,
                block_hash,
                actions,
                nonce_mode: mode.unwrap_or_default(),
            }),
        };
        transaction.sign(&key.secret)
    }

    /// The secret key of `lane`.
    pub(crate) fn lane_secret(&self, lane: usize) -> &SecretKey {
        &self.keys[self.lanes[lane].key].secret
    }

    /// The next nonce and a block hash to sign with on `lane`, if a recent enough read is
    /// known. A count at `u64::MAX` has no nonce after the one it would hand out; only a
    /// node's answer can have pushed it there, so it is forgotten and the key read afresh.
    pub(crate) fn take_nonce(&self, lane: usize) -> Option<(u64, CryptoHash)> {
        let mut state = self.lanes[lane].state();
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

    /// Records what the node said of `lane` (its nonce and a final block's hash) and
    /// takes the next nonce, in one step. The count only moves forward, so nonces handed
    /// out meanwhile are never handed out again, unless it ran to `u64::MAX` (pushed
    /// there by a node's `InvalidNonce`): then the key just read rules. `None` when the
    /// key's nonce is `u64::MAX`: it can sign nothing more.
    pub(crate) fn observe_and_take(
        &self,
        lane: usize,
        key_nonce: u64,
        block_hash: CryptoHash,
    ) -> Option<(u64, CryptoHash)> {
        let mut state = self.lanes[lane].state();
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

    /// Records what the node said of `lane` (its nonce and a final block's hash) without
    /// taking a nonce: the count moves forward, never back, and the block is the new one.
    pub(crate) fn observe(&self, lane: usize, key_nonce: u64, block_hash: CryptoHash) {
        let mut state = self.lanes[lane].state();
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

    /// Records a gas key's nonces (one per index, as `view_gas_key_nonces` lists them)
    /// for every lane of that key but `except` (which its reader records itself): their
    /// counts move forward, never back.
    pub(crate) fn observe_gas_nonces(&self, except: usize, nonces: &[u64], block_hash: CryptoHash) {
        let key = self.lanes[except].key;
        for (lane, entry) in self.lanes.iter().enumerate() {
            let known = entry
                .nonce_index
                .and_then(|index| nonces.get(usize::from(index)));
            if let (true, true, Some(&nonce)) = (lane != except, entry.key == key, known) {
                self.observe(lane, nonce, block_hash);
            }
        }
    }

    /// Moves `lane`'s count past `key_nonce` (a node's `InvalidNonce`), keeping the
    /// block. A `key_nonce` of `u64::MAX` leaves no nonce to count to: the count is
    /// forgotten, and the next transaction reads the key (which says whether it really
    /// is there).
    pub(crate) fn observe_nonce(&self, lane: usize, key_nonce: u64) {
        let mut state = self.lanes[lane].state();
        match key_nonce.checked_add(1) {
            Some(next) => {
                if let Some(counter) = state.as_mut() {
                    counter.next_nonce = counter.next_nonce.max(next);
                }
            }
            None => *state = None,
        }
    }

    /// Forgets `lane`'s block hash (a node's `Expired`): its next transaction reads a new
    /// one.
    pub(crate) fn forget_block(&self, lane: usize) {
        if let Some(counter) = self.lanes[lane].state().as_mut() {
            counter.block = None;
        }
    }

    /// Forgets everything of `lane` (a node's `NonceTooLarge`: the count went past what
    /// the chain allows, pushed by a node's answer; or a strict-mode transaction refused
    /// for a gap): its next transaction reads the key afresh.
    pub(crate) fn forget(&self, lane: usize) {
        *self.lanes[lane].state() = None;
    }
}

impl SigningKey {
    fn new(secret: SecretKey, public: PublicKey, gas_key: bool) -> Self {
        Self {
            secret,
            public,
            gas_key,
            reading: tokio::sync::Mutex::new(()),
        }
    }
}
