//! [`Transaction`] and [`SignedTransaction`]: nearcore's two transaction versions, their
//! borsh encodings, hash and signature.
//!
//! Version 0 is the ordinary transaction every node accepts, encoded with no version
//! byte. Version 1 carries a [`TransactionNonce`] (a gas key's `nonce_index`) and a
//! [`NonceMode`], and starts with the byte `1`. nearcore tells them apart by the second
//! byte: version 0 starts with the signer id's `u32` length, whose second byte is 0 for
//! every valid account id (at most 64 bytes), while version 1's second byte is the low
//! byte of that length, never 0.

use super::action::Action;
use super::borsh::{self, field, Borsh, BorshError, Reader, Writer};
use super::SecretKey;
use crate::primitives::CryptoHash;
use crate::primitives::PublicKey;
use crate::primitives::Signature;
use near_account_id::AccountId;

/// A transaction: who signs it with which key and nonce, what it does to whom, and the
/// recent block it is valid after.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Transaction {
    /// The ordinary transaction (nearcore's `TransactionV0`).
    V0(TransactionV0),
    /// With a gas key's nonce index and a nonce mode (nearcore's `TransactionV1`).
    V1(TransactionV1),
}

/// nearcore's `TransactionV0`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransactionV0 {
    /// The account that signs (and pays).
    pub signer_id: AccountId,
    /// The access key that signs.
    pub public_key: PublicKey,
    /// One more than the access key's nonce (or any higher).
    pub nonce: u64,
    /// The account the actions apply to.
    pub receiver_id: AccountId,
    /// A recent block; the transaction expires `transaction_validity_period` blocks after.
    pub block_hash: CryptoHash,
    /// What it does.
    pub actions: Vec<Action>,
}

/// nearcore's `TransactionV1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransactionV1 {
    /// The account that signs (and pays).
    pub signer_id: AccountId,
    /// The access key (or gas key) that signs.
    pub public_key: PublicKey,
    /// The nonce, with a gas key's nonce index.
    pub nonce: TransactionNonce,
    /// The account the actions apply to.
    pub receiver_id: AccountId,
    /// A recent block.
    pub block_hash: CryptoHash,
    /// What it does.
    pub actions: Vec<Action>,
    /// How the nonce is checked against the key's.
    pub nonce_mode: NonceMode,
}

/// A version-1 transaction's nonce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransactionNonce {
    /// An access key's nonce.
    Nonce {
        /// The nonce.
        nonce: u64,
    },
    /// One of a gas key's nonces.
    GasKeyNonce {
        /// The nonce.
        nonce: u64,
        /// Which of the key's nonce sequences.
        nonce_index: u16,
    },
}

impl TransactionNonce {
    /// The nonce.
    pub fn nonce(self) -> u64 {
        match self {
            Self::Nonce { nonce } | Self::GasKeyNonce { nonce, .. } => nonce,
        }
    }

    /// A gas key's nonce index.
    pub fn nonce_index(self) -> Option<u16> {
        match self {
            Self::Nonce { .. } => None,
            Self::GasKeyNonce { nonce_index, .. } => Some(nonce_index),
        }
    }
}

/// How a version-1 transaction's nonce is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NonceMode {
    /// Any nonce above the key's.
    #[default]
    Monotonic,
    /// Exactly one above the key's.
    Strict,
}

impl Transaction {
    /// An ordinary (version 0) transaction.
    pub fn new(
        signer_id: AccountId,
        public_key: PublicKey,
        nonce: u64,
        receiver_id: AccountId,
        block_hash: CryptoHash,
        actions: Vec<Action>,
    ) -> Self {
        Self::V0(TransactionV0 {
            signer_id,
            public_key,
            nonce,
            receiver_id,
            block_hash,
            actions,
        })
    }

    /// The signer.
    pub fn signer_id(&self) -> &AccountId {
        match self {
            Self::V0(tx) => &tx.signer_id,
            Self::V1(tx) => &tx.signer_id,
        }
    }

    /// The signing key.
    pub fn public_key(&self) -> &PublicKey {
        match self {
            Self::V0(tx) => &tx.public_key,
            Self::V1(tx) => &tx.public_key,
        }
    }

    /// The nonce.
    pub fn nonce(&self) -> u64 {
        match self {
            Self::V0(tx) => tx.nonce,
            Self::V1(tx) => tx.nonce.nonce(),
        }
    }

    /// A gas key's nonce index (version 1 only).
    pub fn nonce_index(&self) -> Option<u16> {
        match self {
            Self::V0(_) => None,
            Self::V1(tx) => tx.nonce.nonce_index(),
        }
    }

    /// The receiver.
    pub fn receiver_id(&self) -> &AccountId {
        match self {
            Self::V0(tx) => &tx.receiver_id,
            Self::V1(tx) => &tx.receiver_id,
        }
    }

    /// The block it is valid after.
    pub fn block_hash(&self) -> &CryptoHash {
        match self {
            Self::V0(tx) => &tx.block_hash,
            Self::V1(tx) => &tx.block_hash,
        }
    }

    /// The actions.
    pub fn actions(&self) -> &[Action] {
        match self {
            Self::V0(tx) => &tx.actions,
            Self::V1(tx) => &tx.actions,
        }
    }

    /// The borsh bytes, as nodes hash and sign them.
    pub fn to_borsh(&self) -> Vec<u8> {
        borsh::to_vec(self)
    }

    /// A transaction from its borsh bytes, all of them.
    pub fn from_borsh(bytes: &[u8]) -> Result<Self, BorshError> {
        borsh::from_slice(bytes)
    }

    /// The transaction hash: sha256 of the borsh bytes.
    pub fn hash(&self) -> CryptoHash {
        CryptoHash::hash_bytes(&self.to_borsh())
    }

    /// Signs the hash with `key`. The key should be the transaction's `public_key`'s;
    /// [`SignedTransaction::verify`] checks. The actions are not checked: for actions
    /// from elsewhere (a delegate action a user relays), [`Transaction::try_sign`].
    pub fn sign(self, key: &SecretKey) -> SignedTransaction {
        let signature = key.sign(&self.hash().0);
        SignedTransaction::new(self, signature)
    }

    /// Whether a node could read every action back (see
    /// [`UnreadableAction`](super::UnreadableAction)): the error names the first that
    /// it could not.
    pub fn check(&self) -> Result<(), super::UnreadableAction> {
        super::check_actions(self.actions())
    }

    /// [`Transaction::sign`], after [`Transaction::check`]: a transaction no node could
    /// decode is not signed.
    pub fn try_sign(self, key: &SecretKey) -> Result<SignedTransaction, super::UnreadableAction> {
        self.check()?;
        Ok(self.sign(key))
    }
}

impl Borsh for Transaction {
    fn encode(&self, w: &mut Writer) {
        match self {
            Self::V0(tx) => {
                tx.signer_id.encode(w);
                tx.public_key.encode(w);
                w.u64(tx.nonce);
                tx.receiver_id.encode(w);
                tx.block_hash.encode(w);
                w.seq(&tx.actions, |w, a| a.encode(w));
            }
            Self::V1(tx) => {
                w.u8(1);
                tx.signer_id.encode(w);
                tx.public_key.encode(w);
                tx.nonce.encode(w);
                tx.receiver_id.encode(w);
                tx.block_hash.encode(w);
                w.seq(&tx.actions, |w, a| a.encode(w));
                w.u8(match tx.nonce_mode {
                    NonceMode::Monotonic => 0,
                    NonceMode::Strict => 1,
                });
            }
        }
    }

    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError> {
        let start = r.offset();
        let head = r.array::<2>()?;
        if head[1] == 0 {
            // Version 0: the two bytes were the start of the signer id's length.
            r.rewind(start);
            return decode_v0(r).map(Self::V0);
        }
        // Version 1 begins with its version byte; anything else has no decoder.
        if head[0] != 1 {
            r.rewind(start);
            return Err(r.error(super::borsh::BorshErrorKind::UnknownTag {
                of: "Transaction version",
                tag: head[0],
            }));
        }
        r.rewind(start + 1);
        decode_v1(r).map(Self::V1)
    }
}

/// nearcore's `TransactionNonce`: tag 0 and the nonce, or tag 1, the nonce and the
/// index (a version-1 transaction's nonce, and a `DelegateActionV2`'s).
impl Borsh for TransactionNonce {
    fn encode(&self, w: &mut Writer) {
        match *self {
            TransactionNonce::Nonce { nonce } => {
                w.u8(0);
                w.u64(nonce);
            }
            TransactionNonce::GasKeyNonce { nonce, nonce_index } => {
                w.u8(1);
                w.u64(nonce);
                w.u16(nonce_index);
            }
        }
    }
    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError> {
        Ok(match r.tag("TransactionNonce", 2)? {
            0 => TransactionNonce::Nonce { nonce: r.u64()? },
            _ => TransactionNonce::GasKeyNonce {
                nonce: r.u64()?,
                nonce_index: r.u16()?,
            },
        })
    }
}

fn decode_v0(r: &mut Reader<'_>) -> Result<TransactionV0, BorshError> {
    Ok(TransactionV0 {
        signer_id: field(r, "signer_id", AccountId::decode)?,
        public_key: field(r, "public_key", PublicKey::decode)?,
        nonce: field(r, "nonce", |r| r.u64())?,
        receiver_id: field(r, "receiver_id", AccountId::decode)?,
        block_hash: field(r, "block_hash", CryptoHash::decode)?,
        actions: field(r, "actions", |r| r.seq(Action::decode))?,
    })
}

fn decode_v1(r: &mut Reader<'_>) -> Result<TransactionV1, BorshError> {
    Ok(TransactionV1 {
        signer_id: field(r, "signer_id", AccountId::decode)?,
        public_key: field(r, "public_key", PublicKey::decode)?,
        nonce: field(r, "nonce", TransactionNonce::decode)?,
        receiver_id: field(r, "receiver_id", AccountId::decode)?,
        block_hash: field(r, "block_hash", CryptoHash::decode)?,
        actions: field(r, "actions", |r| r.seq(Action::decode))?,
        nonce_mode: field(r, "nonce_mode", |r| {
            Ok(match r.tag("NonceMode", 2)? {
                0 => NonceMode::Monotonic,
                _ => NonceMode::Strict,
            })
        })?,
    })
}

/// A transaction with its signature: what `send_tx` takes, as borsh bytes or their
/// base64.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedTransaction {
    transaction: Transaction,
    signature: Signature,
    // Computed once: the hash identifies the transaction everywhere after signing.
    hash: CryptoHash,
}

impl SignedTransaction {
    /// A transaction with a signature made elsewhere.
    pub fn new(transaction: Transaction, signature: Signature) -> Self {
        let hash = transaction.hash();
        Self {
            transaction,
            signature,
            hash,
        }
    }

    /// The transaction.
    pub fn transaction(&self) -> &Transaction {
        &self.transaction
    }

    /// The signature.
    pub fn signature(&self) -> &Signature {
        &self.signature
    }

    /// The transaction hash (of the unsigned transaction's bytes, as nodes name it).
    pub fn hash(&self) -> CryptoHash {
        self.hash
    }

    /// Whether the signature is the transaction's `public_key`'s signature of its hash.
    pub fn verify(&self) -> bool {
        super::verify(self.transaction.public_key(), &self.hash.0, &self.signature)
    }

    /// The borsh bytes `send_tx` takes.
    pub fn to_borsh(&self) -> Vec<u8> {
        borsh::to_vec(self)
    }

    /// The base64 of the borsh bytes, as `signed_tx_base64`.
    pub fn to_base64(&self) -> String {
        borsh::to_base64(self)
    }

    /// A signed transaction from its borsh bytes, all of them. The signature is not
    /// checked ([`SignedTransaction::verify`] does).
    pub fn from_borsh(bytes: &[u8]) -> Result<Self, BorshError> {
        borsh::from_slice(bytes)
    }

    /// A signed transaction from the base64 of its borsh bytes.
    pub fn from_base64(text: &str) -> Result<Self, BorshError> {
        borsh::from_base64(text)
    }

    /// The transaction and signature.
    pub fn into_parts(self) -> (Transaction, Signature) {
        (self.transaction, self.signature)
    }
}

impl Borsh for SignedTransaction {
    fn encode(&self, w: &mut Writer) {
        self.transaction.encode(w);
        self.signature.encode(w);
    }

    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError> {
        let transaction = field(r, "transaction", Transaction::decode)?;
        let signature = field(r, "signature", Signature::decode)?;
        Ok(Self::new(transaction, signature))
    }
}

impl From<&SignedTransaction> for crate::primitives::SignedTransaction {
    fn from(signed: &SignedTransaction) -> Self {
        Self(signed.to_base64())
    }
}

impl From<SignedTransaction> for crate::primitives::SignedTransaction {
    fn from(signed: SignedTransaction) -> Self {
        Self(signed.to_base64())
    }
}
