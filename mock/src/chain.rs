//! The mock node's chain, authored here: its state (accounts, keys, contracts and
//! their storage), its blocks from height [`GENESIS_HEIGHT`] up to a head that advances
//! as blocks are produced, and the transactions submitted to it with their receipts and
//! outcomes (`runtime/` executes them). Every answer is built from this one model, so
//! answers agree with each other: the block `status` calls latest is the one `block`
//! returns at `optimistic`, an account's `block_height` is a block that exists, a
//! transaction is in the chunk of the block its outcome names, its receipts are the ones
//! `EXPERIMENTAL_receipt` finds.
//!
//! Block hashes, outcome roots and the block Merkle tree are computed as nearcore
//! computes them (`light_client.rs`), keys are real ed25519 keys from seeds derived from
//! a name, and the validator approves blocks with its own: light-client blocks and
//! execution proofs verify. The other hashes and signatures are deterministic bytes
//! derived from a name. The same chain comes back in every run.

use std::collections::{BTreeMap, HashMap};

use base64::Engine as _;
use near_rpc::tx::{Action, SecretKey, SignedTransaction};
use near_rpc::types::{ActionView, LightClientBlockLiteView};
use near_rpc::{AccountId, CryptoHash, NearGas, NearToken, PublicKey, Signature};
use serde_json::{json, Value};

use crate::contract::Contract;
use crate::fees;

/// The chain id.
pub const CHAIN_ID: &str = "mock";
/// The height of the genesis block.
pub const GENESIS_HEIGHT: u64 = 100;
/// The head right after start.
pub const INITIAL_HEAD: u64 = GENESIS_HEIGHT + 20;
/// The protocol version every block carries.
pub const PROTOCOL_VERSION: u64 = 73;
/// Blocks per epoch.
pub const EPOCH_LENGTH: u64 = 43_200;
/// Gas price, in yoctoNEAR per gas unit (`fees.rs`, with the other runtime parameters).
pub use crate::fees::GAS_PRICE;
/// The height the two finished transactions were included at.
pub const TX_HEIGHT: u64 = GENESIS_HEIGHT + 5;
/// The validator (the only block and chunk producer).
pub const VALIDATOR: &str = "validator.mock";
/// The contract account.
pub const CONTRACT: &str = "contract.mock";
/// nearcore's bound on nonces: below the height times this; a new key's nonce starts at
/// the height times this.
pub(crate) const NONCE_RANGE_MULTIPLIER: u64 = 1_000_000;

const GENESIS_TIME_NS: u64 = 1_700_000_000_000_000_000;
const BLOCK_TIME_NS: u64 = 1_000_000_000;
pub(crate) const NEAR: u128 = 1_000_000_000_000_000_000_000_000;

/// Deterministic bytes for `name` (a splitmix64 stream; no cryptographic meaning).
pub fn bytes_of<const N: usize>(name: &str) -> [u8; N] {
    let mut state = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let mut out = [0u8; N];
    for chunk in out.chunks_mut(8) {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        chunk.copy_from_slice(&z.to_le_bytes()[..chunk.len()]);
    }
    out
}

/// A deterministic hash for `name`.
pub fn hash(name: &str) -> CryptoHash {
    CryptoHash(bytes_of::<32>(name))
}

/// The secret key of the mock's account (or other party) `name`: an ed25519 key from a
/// seed derived from the name, so that tests can sign as `alice.mock`. Published on
/// purpose; it guards nothing.
pub fn secret_key(name: &str) -> SecretKey {
    SecretKey::ed25519_from_seed(&bytes_of::<32>(&format!("key {name}")))
}

/// The public key of [`secret_key`]`(name)`.
pub fn public_key(name: &str) -> PublicKey {
    secret_key(name).public_key()
}

/// The secret key of the gas key the mock gives account `account_id` when asked
/// ([`Chain::add_gas_key`]): like [`secret_key`], derived from the name, published on
/// purpose.
pub fn gas_key_secret(account_id: &str) -> SecretKey {
    secret_key(&format!("{account_id} gas key"))
}

fn signature(name: &str) -> Signature {
    Signature::ed25519(bytes_of::<64>(&format!("signature {name}")))
}

pub(crate) fn yocto(amount: u128) -> String {
    amount.to_string()
}

pub(crate) fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The two transactions every mock chain starts with, signed by alice.mock's key.
fn genesis_transactions(block_hash: CryptoHash) -> [SignedTransaction; 2] {
    let alice: AccountId = "alice.mock".parse().expect("a valid account id");
    let key = secret_key("alice.mock");
    let sign = |nonce: u64, receiver: &str, action: Action| {
        near_rpc::tx::Transaction::new(
            alice.clone(),
            key.public_key(),
            nonce,
            receiver.parse().expect("a valid account id"),
            block_hash,
            vec![action],
        )
        .sign(&key)
    };
    [
        sign(8, "bob.mock", Action::transfer(NearToken::from_near(1))),
        sign(
            9,
            CONTRACT,
            Action::function_call(
                "set_status",
                br#"{"text":"hi"}"#.to_vec(),
                NearGas::from_tgas(30),
                NearToken::from_yoctonear(0),
            ),
        ),
    ]
}

/// What an access key may sign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Permission {
    /// Anything.
    FullAccess,
    /// Calls without deposit of `methods` (any when empty) on `receiver`, paying fees
    /// from `allowance` (unlimited when `None`).
    FunctionCall {
        /// The contract it may call.
        receiver: String,
        /// The methods it may call (any when empty).
        methods: Vec<String>,
        /// What it may still spend on fees, in yoctoNEAR.
        allowance: Option<u128>,
    },
}

/// What makes an access key a gas key (nearcore's `GasKeyInfo` and the key's nonce
/// rows): a balance of its own that pays the gas of what it signs, and a nonce per
/// index (`nonce_index`), each checked and advanced on its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GasKey {
    /// Pays its transactions' gas, in yoctoNEAR.
    pub balance: u128,
    /// The nonce of each index; as many as the key's `num_nonces` (1 to
    /// [`MAX_GAS_KEY_NONCES`]).
    pub nonces: Vec<u64>,
}

/// The most nonce indexes a gas key may have (nearcore's
/// `AccessKeyPermission::MAX_NONCES_FOR_GAS_KEY`, `core/primitives-core/src/account.rs`).
pub const MAX_GAS_KEY_NONCES: u16 = 1024;

/// An access key of an account.
#[derive(Debug, Clone)]
pub struct Key {
    /// The key.
    pub public_key: PublicKey,
    /// Its nonce (a gas key's is 0, as nearcore keeps it: its nonces are per index).
    pub nonce: u64,
    /// What it may sign.
    pub permission: Permission,
    /// `Some` for a gas key: its balance and nonces.
    pub gas_key: Option<GasKey>,
}

impl Key {
    /// A full-access key with nonce `nonce`.
    pub fn full_access(public_key: PublicKey, nonce: u64) -> Self {
        Self {
            public_key,
            nonce,
            permission: Permission::FullAccess,
            gas_key: None,
        }
    }

    /// A gas key with `num_nonces` indexes, each at nonce `nonce`, and an empty
    /// balance, as nearcore's `AddKey` makes one (`runtime/runtime/src/access_keys.rs`).
    pub fn gas_key(
        public_key: PublicKey,
        permission: Permission,
        num_nonces: u16,
        nonce: u64,
    ) -> Self {
        Self {
            public_key,
            nonce: 0,
            permission,
            gas_key: Some(GasKey {
                balance: 0,
                nonces: vec![nonce; usize::from(num_nonces)],
            }),
        }
    }

    /// The bytes it takes in storage: its public key and its access key, borsh-encoded,
    /// and a record's overhead (nearcore's count).
    pub fn storage_bytes(&self) -> u64 {
        let public_key = 1 + self.public_key.as_bytes().len() as u64;
        let permission = match &self.permission {
            Permission::FullAccess => 1,
            Permission::FunctionCall {
                receiver,
                methods,
                allowance,
            } => {
                1 + if allowance.is_some() { 17 } else { 1 }
                    + 4
                    + receiver.len() as u64
                    + 4
                    + methods.iter().map(|m| 4 + m.len() as u64).sum::<u64>()
            }
        };
        let Some(gas_key) = &self.gas_key else {
            return public_key + 8 + permission + fees::NUM_EXTRA_BYTES_RECORD;
        };
        // A gas key's permission holds its info too (balance and `num_nonces`), and
        // each nonce is a record of its own: the public key and the index as its key,
        // the nonce as its value (nearcore's `gas_key_storage_cost`).
        let per_nonce = public_key + 2 + 8 + fees::NUM_EXTRA_BYTES_RECORD;
        public_key
            + 8
            + permission
            + 16
            + 2
            + fees::NUM_EXTRA_BYTES_RECORD
            + gas_key.nonces.len() as u64 * per_nonce
    }
}

/// An account.
#[derive(Debug, Clone)]
pub struct Account {
    /// Its id.
    pub id: String,
    /// Its balance, in yoctoNEAR.
    pub amount: u128,
    /// Its locked (staked) balance.
    pub locked: u128,
    /// Its access keys.
    pub keys: Vec<Key>,
    /// Its contract code, if any (see [`Contract::code`]).
    pub code: Option<Vec<u8>>,
    /// Its contract state.
    pub state: BTreeMap<Vec<u8>, Vec<u8>>,
}

impl Account {
    /// An account of `near` NEAR with one full-access key, [`public_key`]`(id)`.
    pub fn new(id: &str, near: u128) -> Self {
        Self {
            id: id.to_owned(),
            amount: near * NEAR,
            locked: 0,
            keys: vec![Key::full_access(public_key(id), 1)],
            code: None,
            state: BTreeMap::new(),
        }
    }

    /// The hash of its code (all zeros without code, as nearcore shows it).
    pub fn code_hash(&self) -> CryptoHash {
        self.code
            .as_deref()
            .map_or(CryptoHash([0; 32]), CryptoHash::hash_bytes)
    }

    /// The bytes of storage it uses, counted as nearcore counts them: the account
    /// record, its keys, its code and its state entries.
    pub fn storage_usage(&self) -> u64 {
        fees::NUM_BYTES_ACCOUNT
            + self.keys.iter().map(Key::storage_bytes).sum::<u64>()
            + self.code.as_ref().map_or(0, |c| c.len() as u64)
            + self
                .state
                .iter()
                .map(|(k, v)| (k.len() + v.len()) as u64 + fees::NUM_EXTRA_BYTES_RECORD)
                .sum::<u64>()
    }

    /// The balance its storage requires it to hold (none up to the zero-balance limit).
    pub fn storage_cost(&self) -> u128 {
        let usage = self.storage_usage();
        if usage <= fees::ZERO_BALANCE_ACCOUNT_STORAGE_LIMIT {
            0
        } else {
            u128::from(usage) * fees::STORAGE_AMOUNT_PER_BYTE
        }
    }

    /// Its key `public_key`.
    pub fn key(&self, public_key: &PublicKey) -> Option<&Key> {
        self.keys.iter().find(|k| &k.public_key == public_key)
    }
}

/// One execution outcome: of a transaction (its conversion to a receipt) or of a receipt.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The transaction hash or receipt id.
    pub id: CryptoHash,
    /// The height of the block it is in.
    pub height: u64,
    /// The account that executed it.
    pub executor: String,
    /// nearcore's `ExecutionStatusView` (`SuccessValue`, `SuccessReceiptId`, `Failure`).
    pub status: Value,
    /// The receipts it created.
    pub receipt_ids: Vec<CryptoHash>,
    /// Gas burnt.
    pub gas_burnt: u64,
    /// Tokens burnt (gas burnt at the gas price).
    pub tokens_burnt: u128,
    /// Logs.
    pub logs: Vec<String>,
}

impl Outcome {
    /// The outcome as nodes show it, without its `block_hash` (the block's hash depends
    /// on its outcomes, so the caller adds it).
    pub fn to_json(&self) -> Value {
        json!({
            "proof": [],
            "id": self.id.to_string(),
            "outcome": {
                "logs": self.logs,
                "receipt_ids": self.receipt_ids.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "gas_burnt": self.gas_burnt,
                "tokens_burnt": yocto(self.tokens_burnt),
                "executor_id": self.executor,
                "status": self.status,
                "metadata": {"version": 1, "gas_profile": null}
            }
        })
    }
}

/// A transaction the chain knows: submitted, included, executed.
#[derive(Debug, Clone)]
pub struct Transaction {
    /// Its hash.
    pub hash: CryptoHash,
    /// Who signed it.
    pub signer: String,
    /// Who received it.
    pub receiver: String,
    /// The signed transaction as nodes show it (`SignedTransactionView`).
    pub signed_view: Value,
    /// Its outcomes so far: the transaction's first, then its receipts' as executed.
    pub outcomes: Vec<Outcome>,
    /// Its receipts as nodes show them (`ReceiptView`), in the order they were created.
    pub receipts: Vec<Value>,
}

impl Transaction {
    /// The height of the block it was included in (its own outcome's; `None`: it waits
    /// for the next).
    pub fn height(&self) -> Option<u64> {
        self.outcomes.first().map(|o| o.height)
    }

    /// Receipts created and not yet executed: each executed one has an outcome after
    /// the transaction's own.
    pub(crate) fn unexecuted(&self) -> usize {
        self.receipts
            .len()
            .saturating_sub(self.outcomes.len().saturating_sub(1))
    }

    /// The id of its `n`-th receipt.
    pub fn receipt_id(&self, n: usize) -> CryptoHash {
        hash(&format!("receipt {n} of {}", self.hash))
    }

    /// The outcome of `id`, if it has one yet.
    pub fn outcome(&self, id: &CryptoHash) -> Option<&Outcome> {
        self.outcomes.iter().find(|o| o.id == *id)
    }

    /// Its status as `tx` shows it (`FinalExecutionStatus`): the outcome of the receipt
    /// its result comes from, following `SuccessReceiptId`s; `NotStarted` before
    /// inclusion and `Started` while that receipt waits.
    pub fn status(&self) -> Value {
        let Some(mut outcome) = self.outcomes.first() else {
            return json!("NotStarted");
        };
        // Each step goes to another outcome; a loaded chain whose outcomes name each
        // other in a circle is cut at their count.
        for _ in 0..=self.outcomes.len() {
            match outcome
                .status
                .get("SuccessReceiptId")
                .and_then(Value::as_str)
            {
                Some(id) => match id.parse().ok().and_then(|id| self.outcome(&id)) {
                    Some(next) => outcome = next,
                    None => return json!("Started"),
                },
                None => return outcome.status.clone(),
            }
        }
        json!("Started")
    }
}

/// How far a transaction has gone (nearcore's `TxExecutionStatus`), in nearcore's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Not in a block yet.
    None,
    /// In a block that is not final.
    Included,
    /// Every receipt executed; not final.
    ExecutedOptimistic,
    /// In a final block; receipts still running.
    IncludedFinal,
    /// In a final block, every receipt executed.
    Executed,
    /// Every outcome in a final block.
    Final,
}

impl Level {
    /// The level `wait_until` names.
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "NONE" => Self::None,
            "INCLUDED" => Self::Included,
            "EXECUTED_OPTIMISTIC" => Self::ExecutedOptimistic,
            "INCLUDED_FINAL" => Self::IncludedFinal,
            "EXECUTED" => Self::Executed,
            "FINAL" => Self::Final,
            _ => return None,
        })
    }

    /// Its name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Self::None => "NONE",
            Self::Included => "INCLUDED",
            Self::ExecutedOptimistic => "EXECUTED_OPTIMISTIC",
            Self::IncludedFinal => "INCLUDED_FINAL",
            Self::Executed => "EXECUTED",
            Self::Final => "FINAL",
        }
    }
}

/// The signer and predecessor of refunds.
pub(crate) const SYSTEM: &str = "system";

/// A transaction checked, waiting for the next block.
#[derive(Debug, Clone)]
pub(crate) struct Pending {
    pub(crate) tx: CryptoHash,
    pub(crate) signed: SignedTransaction,
}

/// A receipt created, to execute at its height.
#[derive(Debug, Clone)]
pub(crate) struct DueReceipt {
    pub(crate) id: CryptoHash,
    pub(crate) tx: CryptoHash,
    pub(crate) at: u64,
    pub(crate) predecessor: String,
    pub(crate) receiver: String,
    pub(crate) signer: String,
    pub(crate) signer_key: PublicKey,
    pub(crate) gas_price: u128,
    pub(crate) actions: Vec<Action>,
}

impl DueReceipt {
    pub(crate) fn is_refund(&self) -> bool {
        self.predecessor == SYSTEM
    }

    /// The receipt as nodes show it (`ReceiptView`).
    pub(crate) fn view(&self) -> Value {
        let actions: Vec<Value> = self
            .actions
            .iter()
            .map(|a| serde_json::to_value(ActionView::from(a)).unwrap_or(Value::Null))
            .collect();
        json!({
            "predecessor_id": self.predecessor,
            "receiver_id": self.receiver,
            "receipt_id": self.id.to_string(),
            "receipt": {"Action": {
                "signer_id": self.signer,
                "signer_public_key": self.signer_key.to_string(),
                "gas_price": yocto(self.gas_price),
                "output_data_receivers": [],
                "input_data_ids": [],
                "actions": actions,
                "is_promise_yield": false
            }},
            "priority": 0
        })
    }
}

/// A produced block as a light client sees it: its header parts, its hash, and the
/// outcomes in it (ids and Merkle leaves, in order).
#[derive(Debug, Clone)]
pub(crate) struct SealedBlock {
    pub(crate) hash: CryptoHash,
    pub(crate) lite: LightClientBlockLiteView,
    pub(crate) leaves: Vec<(CryptoHash, CryptoHash)>,
    /// The state changes of the block, as nearcore's `StateChangeWithCauseView`s.
    pub(crate) changes: Vec<Value>,
}

/// The whole chain state.
#[derive(Debug, Clone)]
pub struct Chain {
    /// The latest block height (blocks are produced by [`Chain::advance`] and by
    /// requests that wait for a transaction).
    pub(crate) head: u64,
    /// Every account.
    pub accounts: Vec<Account>,
    /// Every transaction submitted, in order.
    pub transactions: Vec<Transaction>,
    /// Contracts by code hash.
    pub(crate) contracts: HashMap<CryptoHash, Contract>,
    /// Transactions checked, for the next block.
    pub(crate) mempool: Vec<Pending>,
    /// Receipts created, for the block at their height.
    pub(crate) due: Vec<DueReceipt>,
    /// The blocks produced, from genesis.
    pub(crate) blocks: Vec<SealedBlock>,
    /// The block Merkle tree over `blocks`.
    pub(crate) block_tree: crate::block_tree::BlockTree,
    /// Outcome leaves of the block being produced.
    pub(crate) producing: Vec<(CryptoHash, CryptoHash)>,
    /// State changes of the block being produced.
    pub(crate) changing: Vec<Value>,
}

impl Default for Chain {
    fn default() -> Self {
        Self::new()
    }
}

impl Chain {
    /// The chain as it starts: four accounts (`alice.mock` with a full-access and a
    /// function-call key, `bob.mock`, `contract.mock` running the status-message
    /// contract, `validator.mock` staking), blocks from [`GENESIS_HEIGHT`] to
    /// [`INITIAL_HEAD`], and two transactions at [`TX_HEIGHT`], executed: a 1 NEAR
    /// transfer from alice to bob ([`Chain::genesis_transfer`]) and a `set_status` call
    /// that fails ([`Chain::genesis_failed_call`]).
    pub fn new() -> Self {
        let mut alice = Account::new("alice.mock", 100);
        alice.keys[0].nonce = 7;
        alice.keys.push(Key {
            public_key: public_key("alice.mock function call"),
            nonce: 3,
            permission: Permission::FunctionCall {
                receiver: CONTRACT.to_owned(),
                methods: vec!["set_status".to_owned()],
                allowance: Some(NEAR / 4),
            },
            gas_key: None,
        });
        let bob = Account::new("bob.mock", 25);
        let status_message = crate::contract::status_message();
        let mut contract = Account::new(CONTRACT, 50);
        contract.code = Some(status_message.code());
        contract
            .state
            .insert(b"bob.mock".to_vec(), b"hello from bob".to_vec());
        contract
            .state
            .insert(b"validator.mock".to_vec(), b"validating".to_vec());
        let mut validator = Account::new(VALIDATOR, 1_000);
        validator.amount -= 500 * NEAR;
        validator.locked = 500 * NEAR;
        let mut chain = Self {
            head: GENESIS_HEIGHT,
            accounts: vec![alice, bob, contract, validator],
            transactions: Vec::new(),
            contracts: HashMap::new(),
            mempool: Vec::new(),
            due: Vec::new(),
            blocks: Vec::new(),
            block_tree: Default::default(),
            producing: Vec::new(),
            changing: Vec::new(),
        };
        chain.register(status_message);
        chain.seal_block(GENESIS_HEIGHT);
        chain.advance(TX_HEIGHT - GENESIS_HEIGHT - 1);
        let block_hash = chain.block_hash(GENESIS_HEIGHT);
        for genesis_tx in genesis_transactions(block_hash) {
            if let Err(e) = chain.submit(&genesis_tx.to_borsh()) {
                panic!("the mock's genesis transaction is refused: {e:?}");
            }
        }
        chain.advance(INITIAL_HEAD - chain.head);
        chain
    }

    /// The latest block height.
    pub fn head(&self) -> u64 {
        self.head
    }

    /// The hash of the 1 NEAR transfer from alice.mock to bob.mock at [`TX_HEIGHT`].
    pub fn genesis_transfer(&self) -> CryptoHash {
        self.transactions[0].hash
    }

    /// The hash of the failed `set_status` call (no `message`) at [`TX_HEIGHT`].
    pub fn genesis_failed_call(&self) -> CryptoHash {
        self.transactions[1].hash
    }

    /// Registers a contract: code deployed with [`Contract::code`] runs it. Replaces a
    /// contract of the same name.
    pub fn register(&mut self, contract: Contract) {
        self.contracts.insert(contract.code_hash(), contract);
    }

    /// Registers `contract` and deploys it on `account_id` directly (no transaction),
    /// creating the account with 10 NEAR and a full-access key [`public_key`]`(id)` if it
    /// does not exist.
    pub fn deploy(&mut self, account_id: &str, contract: Contract) {
        let code = contract.code();
        self.register(contract);
        match self.accounts.iter_mut().find(|a| a.id == account_id) {
            Some(account) => account.code = Some(code),
            None => {
                let mut account = Account::new(account_id, 10);
                account.code = Some(code);
                self.accounts.push(account);
            }
        }
    }

    /// The contract deployed on `account`, if its code is one registered.
    pub fn contract_of(&self, account: &Account) -> Option<&Contract> {
        self.contracts.get(&account.code_hash())
    }

    /// Signs a transaction from `signer` to `receiver` as a client would: with the
    /// mock's key of the signer ([`secret_key`]`(signer)`), the key's next nonce (after
    /// what waits for the next block) and the head's hash. Submit its
    /// [`to_borsh`](SignedTransaction::to_borsh) bytes.
    ///
    /// # Panics
    ///
    /// When `signer` or `receiver` is not a valid account id, or the key's nonce is
    /// already `u64::MAX`: a helper for tests, whose inputs are the test's own.
    pub fn sign(&self, signer: &str, receiver: &str, actions: Vec<Action>) -> SignedTransaction {
        let key = secret_key(signer);
        let public_key = key.public_key();
        let nonce = self
            .account(signer)
            .and_then(|a| a.key(&public_key))
            .map_or(0, |k| k.nonce)
            .checked_add(1 + self.pending_with(&public_key, signer) as u64)
            .unwrap_or_else(|| panic!("{signer}'s key has no nonce left"));
        let parse = |id: &str| -> AccountId {
            id.parse()
                .unwrap_or_else(|e| panic!("`{id}` is not an account id: {e}"))
        };
        near_rpc::tx::Transaction::new(
            parse(signer),
            public_key,
            nonce,
            parse(receiver),
            self.block_hash(self.head),
            actions,
        )
        .sign(&key)
    }

    /// The accounts whose full-access key is the mock's key for their name, with it: the
    /// accounts a client can sign for ([`secret_key`]).
    pub fn signers(&self) -> Vec<(String, SecretKey)> {
        self.accounts
            .iter()
            .filter_map(|account| {
                let key = secret_key(&account.id);
                let public_key = key.public_key();
                account
                    .key(&public_key)
                    .filter(|k| k.permission == Permission::FullAccess && k.gas_key.is_none())
                    .map(|_| (account.id.clone(), key))
            })
            .collect()
    }

    /// Gives `account_id` the mock's gas key for it ([`gas_key_secret`]) directly (no
    /// transaction): full access, `num_nonces` indexes at the nonce a key added now
    /// starts from, and `balance` yoctoNEAR moved to it from the account's balance.
    /// Refused, with what is wrong, when the account does not exist or already has
    /// that key, `num_nonces` is not 1 to [`MAX_GAS_KEY_NONCES`], or the balance is
    /// short. Returns the key.
    pub fn add_gas_key(
        &mut self,
        account_id: &str,
        num_nonces: u16,
        balance: u128,
    ) -> Result<PublicKey, String> {
        if num_nonces == 0 || num_nonces > MAX_GAS_KEY_NONCES {
            return Err(format!(
                "a gas key has 1 to {MAX_GAS_KEY_NONCES} nonces, not {num_nonces}"
            ));
        }
        let public_key = gas_key_secret(account_id).public_key();
        let nonce = self.head.saturating_mul(NONCE_RANGE_MULTIPLIER);
        let Some(account) = self.account_mut(account_id) else {
            return Err(format!("no account {account_id}"));
        };
        if account.key(&public_key).is_some() {
            return Err(format!("{account_id} already has the key {public_key}"));
        }
        let Some(left) = account.amount.checked_sub(balance) else {
            return Err(format!(
                "{account_id} holds {} yoctoNEAR, less than the {balance} asked for its gas key",
                account.amount
            ));
        };
        account.amount = left;
        let mut key = Key::gas_key(
            public_key.clone(),
            Permission::FullAccess,
            num_nonces,
            nonce,
        );
        if let Some(gas) = &mut key.gas_key {
            gas.balance = balance;
        }
        account.keys.push(key);
        Ok(public_key)
    }

    /// The accounts holding the mock's gas key for their name ([`gas_key_secret`]),
    /// with it: the gas keys a client can sign with.
    pub fn gas_key_signers(&self) -> Vec<(String, SecretKey)> {
        self.accounts
            .iter()
            .filter_map(|account| {
                let key = gas_key_secret(&account.id);
                account
                    .key(&key.public_key())
                    .filter(|k| k.gas_key.is_some())
                    .map(|_| (account.id.clone(), key))
            })
            .collect()
    }

    /// The account called `id`.
    pub fn account(&self, id: &str) -> Option<&Account> {
        self.accounts.iter().find(|a| a.id == id)
    }

    pub(crate) fn account_mut(&mut self, id: &str) -> Option<&mut Account> {
        self.accounts.iter_mut().find(|a| a.id == id)
    }

    /// The transaction with hash `hash`.
    pub fn transaction(&self, hash: &CryptoHash) -> Option<&Transaction> {
        self.transactions.iter().find(|t| t.hash == *hash)
    }

    /// The transaction and index of receipt `id` (among [`Transaction::receipts`]).
    pub fn receipt(&self, id: &CryptoHash) -> Option<(&Transaction, usize)> {
        self.transactions.iter().find_map(|t| {
            (0..t.receipts.len())
                .find(|&n| t.receipt_id(n) == *id)
                .map(|n| (t, n))
        })
    }

    /// How far `tx` has gone at the head.
    pub fn level(&self, tx: &Transaction) -> Level {
        let Some(included) = tx.height() else {
            return Level::None;
        };
        let final_height = self.head.saturating_sub(2);
        let executed = tx.unexecuted() == 0;
        let included_final = included <= final_height;
        match (executed, included_final) {
            (false, false) => Level::Included,
            (false, true) => Level::IncludedFinal,
            (true, false) => Level::ExecutedOptimistic,
            (true, true) if tx.outcomes.iter().all(|o| o.height <= final_height) => Level::Final,
            (true, true) => Level::Executed,
        }
    }

    // --- blocks --------------------------------------------------------------------

    /// The hash of the block at `height` (a produced one; genesis for lower heights, the
    /// head for higher): its light-client header's, as nearcore hashes it.
    pub fn block_hash(&self, height: u64) -> CryptoHash {
        self.sealed(height).hash
    }

    /// The height of the block with hash `hash`, if it exists.
    pub fn height_of(&self, hash: &CryptoHash) -> Option<u64> {
        self.blocks
            .iter()
            .position(|b| b.hash == *hash)
            .map(|i| GENESIS_HEIGHT + i as u64)
    }

    /// The height a finality names: `optimistic` is the head, `near-final` one below,
    /// `final` two below.
    pub fn height_at(&self, finality: &str) -> Option<u64> {
        let below = match finality {
            "optimistic" => 0,
            "near-final" => 1,
            "final" => 2,
            _ => return None,
        };
        Some(self.head.saturating_sub(below).max(GENESIS_HEIGHT))
    }

    pub(crate) fn timestamp(&self, height: u64) -> u64 {
        // Heights count blocks: far below where this would overflow.
        (height - GENESIS_HEIGHT)
            .saturating_mul(BLOCK_TIME_NS)
            .saturating_add(GENESIS_TIME_NS)
    }

    fn epoch_id(&self) -> CryptoHash {
        CryptoHash([0; 32])
    }

    /// The outcome of the transaction or receipt `id`.
    pub fn outcome(&self, id: &CryptoHash) -> Option<&Outcome> {
        self.transactions
            .iter()
            .flat_map(|t| &t.outcomes)
            .find(|o| o.id == *id)
    }

    /// The outcomes in the block at `height`.
    pub fn outcomes_in(&self, height: u64) -> impl Iterator<Item = &Outcome> {
        self.transactions
            .iter()
            .flat_map(|t| &t.outcomes)
            .filter(move |o| o.height == height)
    }

    /// The chunk header of the block at `height`.
    pub fn chunk_header(&self, height: u64) -> Value {
        let prev = self.block_hash(height.saturating_sub(1).max(GENESIS_HEIGHT));
        // A saved chain's blocks are checked at load to add up within these types.
        let (gas_used, balance_burnt) =
            self.outcomes_in(height)
                .fold((0u64, 0u128), |(gas, tokens), o| {
                    (
                        gas.saturating_add(o.gas_burnt),
                        tokens.saturating_add(o.tokens_burnt),
                    )
                });
        json!({
            "chunk_hash": hash(&format!("chunk {height}")).to_string(),
            "prev_block_hash": prev.to_string(),
            "outcome_root": hash(&format!("outcome root {height}")).to_string(),
            "prev_state_root": hash(&format!("state root {}", height.saturating_sub(1))).to_string(),
            "encoded_merkle_root": hash(&format!("encoded {height}")).to_string(),
            "encoded_length": 8,
            "height_created": height,
            "height_included": height,
            "shard_id": 0,
            "gas_used": gas_used,
            "gas_limit": 1_000_000_000_000_000u64,
            "balance_burnt": yocto(balance_burnt),
            // Fields nodes still send, fixed at zero since fees stopped paying them.
            "rent_paid": "0",
            "validator_reward": "0",
            "congestion_info": {
                "allowed_shard": 0,
                "buffered_receipts_gas": "0",
                "delayed_receipts_gas": "0",
                "receipt_bytes": 0
            },
            "bandwidth_requests": null,
            "outgoing_receipts_root": hash(&format!("receipts root {height}")).to_string(),
            "tx_root": hash(&format!("tx root {height}")).to_string(),
            "validator_proposals": [],
            "signature": signature(&format!("chunk {height}")).to_string()
        })
    }

    /// The block at `height` (which must exist).
    pub fn block(&self, height: u64) -> Value {
        let prev = self.block_hash(height.saturating_sub(1).max(GENESIS_HEIGHT));
        // The fields the light-client header has are its.
        let lite = self.lite_at(height).inner_lite;
        let final_height = height.saturating_sub(2).max(GENESIS_HEIGHT);
        let timestamp = self.timestamp(height);
        json!({
            "author": VALIDATOR,
            "header": {
                "height": height,
                "prev_height": height.saturating_sub(1).max(GENESIS_HEIGHT),
                "epoch_id": self.epoch_id().to_string(),
                "next_epoch_id": lite.next_epoch_id.to_string(),
                "hash": self.block_hash(height).to_string(),
                "prev_hash": prev.to_string(),
                "prev_state_root": hash(&format!("state root {}", height.saturating_sub(1))).to_string(),
                "chunk_receipts_root": hash(&format!("receipts root {height}")).to_string(),
                "chunk_headers_root": hash(&format!("chunk headers {height}")).to_string(),
                "chunk_tx_root": hash(&format!("tx root {height}")).to_string(),
                "outcome_root": lite.outcome_root.to_string(),
                "chunks_included": 1,
                "challenges_root": CryptoHash([0; 32]).to_string(),
                "timestamp": timestamp,
                "timestamp_nanosec": timestamp.to_string(),
                "random_value": hash(&format!("random {height}")).to_string(),
                "validator_proposals": [],
                "chunk_mask": [true],
                "gas_price": yocto(GAS_PRICE),
                "block_ordinal": height - GENESIS_HEIGHT + 1,
                "total_supply": yocto(2_000 * NEAR),
                "challenges_result": [],
                "last_final_block": self.block_hash(final_height).to_string(),
                "last_ds_final_block": self.block_hash(height.saturating_sub(1).max(GENESIS_HEIGHT)).to_string(),
                "next_bp_hash": lite.next_bp_hash.to_string(),
                "block_merkle_root": lite.block_merkle_root.to_string(),
                "epoch_sync_data_hash": null,
                "approvals": [signature(&format!("approval {height}")).to_string()],
                "block_body_hash": hash(&format!("block body {height}")).to_string(),
                // One chunk, endorsed by the one validator.
                "chunk_endorsements": [[1]],
                "rent_paid": "0",
                "validator_reward": "0",
                "signature": signature(&format!("block {height}")).to_string(),
                "latest_protocol_version": PROTOCOL_VERSION
            },
            "chunks": [self.chunk_header(height)]
        })
    }

    // --- chain-wide answers ----------------------------------------------------------

    /// `status`.
    pub fn status(&self) -> Value {
        let head = self.head;
        json!({
            "version": {"version": "2.6.0-mock", "build": "near-rpc-mock", "commit": "0000000", "rustc_version": "1.85.0"},
            "chain_id": CHAIN_ID,
            "protocol_version": PROTOCOL_VERSION,
            "latest_protocol_version": PROTOCOL_VERSION,
            "rpc_addr": "127.0.0.1:3030",
            "validators": [{"account_id": VALIDATOR, "is_slashed": false}],
            "sync_info": {
                "latest_block_hash": self.block_hash(head).to_string(),
                "latest_block_height": head,
                "latest_state_root": hash(&format!("state root {head}")).to_string(),
                "latest_block_time": rfc3339(self.timestamp(head)),
                "syncing": false,
                "earliest_block_hash": self.block_hash(GENESIS_HEIGHT).to_string(),
                "earliest_block_height": GENESIS_HEIGHT,
                "earliest_block_time": rfc3339(GENESIS_TIME_NS),
                "epoch_id": self.epoch_id().to_string(),
                "epoch_start_height": GENESIS_HEIGHT
            },
            "validator_account_id": VALIDATOR,
            "validator_public_key": public_key(VALIDATOR).to_string(),
            "node_public_key": public_key("node").to_string(),
            "node_key": null,
            "uptime_sec": (head - GENESIS_HEIGHT) as i64,
            "genesis_hash": self.block_hash(GENESIS_HEIGHT).to_string(),
            "detailed_debug_status": null
        })
    }

    fn validator_stake(&self) -> Value {
        json!({
            "account_id": VALIDATOR,
            "public_key": public_key(VALIDATOR).to_string(),
            "stake": yocto(500 * NEAR),
            "validator_stake_struct_version": "V1"
        })
    }

    /// `validators`.
    pub fn validators(&self) -> Value {
        let produced = self.head - GENESIS_HEIGHT;
        json!({
            "current_validators": [{
                "account_id": VALIDATOR,
                "public_key": public_key(VALIDATOR).to_string(),
                "is_slashed": false,
                "stake": yocto(500 * NEAR),
                "shards": [0],
                "num_produced_blocks": produced,
                "num_expected_blocks": produced,
                "num_produced_chunks": produced,
                "num_expected_chunks": produced
            }],
            "next_validators": [{
                "account_id": VALIDATOR,
                "public_key": public_key(VALIDATOR).to_string(),
                "stake": yocto(500 * NEAR),
                "shards": [0]
            }],
            "current_fishermen": [],
            "next_fishermen": [],
            "current_proposals": [],
            "prev_epoch_kickout": [],
            "epoch_start_height": GENESIS_HEIGHT,
            "epoch_height": 1
        })
    }

    /// `EXPERIMENTAL_validators_ordered`.
    pub fn validators_ordered(&self) -> Value {
        json!([self.validator_stake()])
    }

    /// `network_info`.
    pub fn network_info(&self) -> Value {
        let peer = public_key("peer").to_string();
        json!({
            "active_peers": [{"id": peer, "addr": "127.0.0.1:24567", "account_id": VALIDATOR}],
            "num_active_peers": 1,
            "peer_max_count": 40,
            "sent_bytes_per_sec": 1_024,
            "received_bytes_per_sec": 2_048,
            "known_producers": [{"account_id": VALIDATOR, "peer_id": peer, "addr": "127.0.0.1:24567"}]
        })
    }

    /// `genesis_config`.
    pub fn genesis_config(&self) -> Value {
        json!({
            "protocol_version": PROTOCOL_VERSION,
            "genesis_time": rfc3339(GENESIS_TIME_NS),
            "chain_id": CHAIN_ID,
            "genesis_height": GENESIS_HEIGHT,
            "num_block_producer_seats": 1,
            "num_block_producer_seats_per_shard": [1],
            "avg_hidden_validator_seats_per_shard": [0],
            "dynamic_resharding": false,
            "protocol_upgrade_stake_threshold": [4, 5],
            "epoch_length": EPOCH_LENGTH,
            "gas_limit": 1_000_000_000_000_000u64,
            "min_gas_price": yocto(GAS_PRICE),
            "max_gas_price": yocto(10_000_000_000_000_000_000_000),
            "block_producer_kickout_threshold": 80,
            "chunk_producer_kickout_threshold": 80,
            "online_min_threshold": [9, 10],
            "online_max_threshold": [99, 100],
            "gas_price_adjustment_rate": [1, 100],
            "validators": [{
                "account_id": VALIDATOR,
                "public_key": public_key(VALIDATOR).to_string(),
                "amount": yocto(500 * NEAR)
            }],
            "transaction_validity_period": fees::TRANSACTION_VALIDITY_PERIOD,
            "protocol_reward_rate": [1, 10],
            "max_inflation_rate": [1, 20],
            "total_supply": yocto(2_000 * NEAR),
            "num_blocks_per_year": 31_536_000,
            "protocol_treasury_account": "treasury.mock",
            "fishermen_threshold": yocto(10 * NEAR),
            "minimum_stake_divisor": 10,
            "shard_layout": {"V0": {"num_shards": 1, "version": 0}},
            "minimum_stake_ratio": [1, 6_250],
            "minimum_validators_per_shard": 1,
            "max_kickout_stake_perc": 100,
            "chunk_validator_only_kickout_threshold": 80,
            "chunk_producer_assignment_changes_limit": 5,
            "num_chunk_producer_seats": 1,
            "num_chunk_validator_seats": 1,
            "num_chunk_only_producer_seats": 0,
            "target_validator_mandates_per_shard": 68,
            "shuffle_shard_assignment_for_chunk_producers": false,
            "protocol_upgrade_num_epochs": 2,
            "use_production_config": false
        })
    }

    /// `EXPERIMENTAL_protocol_config`: the genesis parameters, less what only genesis has
    /// (its validators and supply, its production flag), with the runtime's fees
    /// (`fees.rs`).
    pub fn protocol_config(&self) -> Value {
        let mut config = self.genesis_config();
        if let Some(fields) = config.as_object_mut() {
            for genesis_only in ["validators", "total_supply", "use_production_config"] {
                fields.remove(genesis_only);
            }
            fields.insert("runtime_config".into(), fees::runtime_config());
        }
        config
    }

    /// `client_config`: the few settings a mock has.
    pub fn client_config(&self) -> Value {
        json!({
            "chain_id": CHAIN_ID,
            "archive": false,
            "epoch_length": EPOCH_LENGTH,
            "num_block_producer_seats": 1,
            "rpc_addr": "127.0.0.1:3030",
            "version": {"version": "2.6.0-mock", "build": "near-rpc-mock", "commit": "0000000"}
        })
    }

    // --- transactions ------------------------------------------------------------------

    /// The status answer for `tx` at the level it has reached: only the level before
    /// `INCLUDED_FINAL` (as nodes answer), the outcomes so far from there on (with the
    /// receipts when `with_receipts`).
    pub fn transaction_status(&self, tx: &Transaction, with_receipts: bool) -> Value {
        let level = self.level(tx);
        if matches!(level, Level::None | Level::Included) {
            return json!({"final_execution_status": level.name()});
        }
        let mut outcomes: Vec<Value> = tx
            .outcomes
            .iter()
            .map(|outcome| {
                let mut view = outcome.to_json();
                view["block_hash"] = json!(self.block_hash(outcome.height).to_string());
                view
            })
            .collect();
        if outcomes.is_empty() {
            return json!({"final_execution_status": level.name()});
        }
        let transaction_outcome = outcomes.remove(0);
        let mut answer = json!({
            "final_execution_status": level.name(),
            "status": tx.status(),
            "transaction": tx.signed_view,
            "transaction_outcome": transaction_outcome,
            "receipts_outcome": outcomes
        });
        if with_receipts {
            answer["receipts"] = json!(tx.receipts);
        }
        answer
    }

    // --- accounts and contracts --------------------------------------------------------

    /// The account view of `account`.
    pub fn account_view(&self, account: &Account) -> Value {
        json!({
            "amount": yocto(account.amount),
            "locked": yocto(account.locked),
            "code_hash": account.code_hash().to_string(),
            "storage_usage": account.storage_usage(),
            "storage_paid_at": 0
        })
    }

    /// The access-key view of `key`; a gas key's permission is `GasKeyFullAccess` or
    /// `GasKeyFunctionCall`, with its balance and `num_nonces` (nearcore's
    /// `AccessKeyPermissionView`).
    pub fn access_key_view(&self, key: &Key) -> Value {
        let permission = match (&key.permission, &key.gas_key) {
            (Permission::FullAccess, None) => json!("FullAccess"),
            (
                Permission::FunctionCall {
                    receiver,
                    methods,
                    allowance,
                },
                None,
            ) => json!({"FunctionCall": {
                "allowance": allowance.map(yocto),
                "receiver_id": receiver,
                "method_names": methods
            }}),
            (Permission::FullAccess, Some(gas)) => json!({"GasKeyFullAccess": {
                "balance": yocto(gas.balance),
                "num_nonces": gas.nonces.len()
            }}),
            (
                Permission::FunctionCall {
                    receiver,
                    methods,
                    allowance,
                },
                Some(gas),
            ) => json!({"GasKeyFunctionCall": {
                "allowance": allowance.map(yocto),
                "balance": yocto(gas.balance),
                "method_names": methods,
                "num_nonces": gas.nonces.len(),
                "receiver_id": receiver
            }}),
        };
        json!({"nonce": key.nonce, "permission": permission})
    }

    /// `sandbox_patch_state`: nearcore's state records (`Account`, `AccessKey`,
    /// `Contract`, `Data`) written into the state as they are, an account made for a
    /// record that names one not there yet. Checked whole before anything changes; the
    /// error names the record at fault. Refused when the balances would add up past
    /// `u128::MAX` yoctoNEAR (see `Chain::holdings` in `runtime/mod.rs`), and a nonce of
    /// `u64::MAX`, after which there is none: what the runtime adds to them could not
    /// fit.
    pub fn patch_state(&mut self, records: &Value) -> Result<(), String> {
        let Some(records) = records.as_array() else {
            return Err("`records` must be an array of state records".into());
        };
        let mut patched = self.clone();
        for (i, record) in records.iter().enumerate() {
            patched
                .patch_record(record)
                .map_err(|e| format!("records[{i}]: {e}"))?;
        }
        if let Err(at) = patched.holdings() {
            let at = match at {
                Holding::Amount(i) => {
                    format!("{}'s amount", patched.accounts[i].id)
                }
                Holding::Locked(i) => {
                    format!("{}'s locked", patched.accounts[i].id)
                }
                Holding::Due(i) => format!("due receipt {}", patched.due[i].id),
                Holding::GasKey(i, j) => {
                    let account = &patched.accounts[i];
                    format!("{}'s gas key {}", account.id, account.keys[j].public_key)
                }
            };
            return Err(format!(
                "records: the balances would add up past {} yoctoNEAR (u128::MAX), at {at}; \
                 the runtime could not credit them",
                u128::MAX
            ));
        }
        self.accounts = patched.accounts;
        Ok(())
    }

    fn patch_record(&mut self, record: &Value) -> Result<(), String> {
        let (kind, body) = record
            .as_object()
            .and_then(|o| o.iter().next())
            .ok_or("a record is an object with one member: Account, AccessKey, Contract or Data")?;
        let id = body["account_id"]
            .as_str()
            .ok_or("missing `account_id`")?
            .parse::<AccountId>()
            .map_err(|e| format!("`account_id`: {e}"))?
            .to_string();
        let text = |v: &Value, what: &str| -> Result<String, String> {
            v.as_str()
                .map(str::to_owned)
                .ok_or(format!("missing `{what}`"))
        };
        let amount = |v: &Value, what: &str| -> Result<u128, String> {
            text(v, what)?.parse().map_err(|e| format!("`{what}`: {e}"))
        };
        let bytes = |v: &Value, what: &str| -> Result<Vec<u8>, String> {
            base64::engine::general_purpose::STANDARD
                .decode(text(v, what)?)
                .map_err(|e| format!("`{what}`: not base64: {e}"))
        };
        if self.account(&id).is_none() {
            self.accounts.push(Account {
                keys: Vec::new(),
                ..Account::new(&id, 0)
            });
        }
        let account = self.account_mut(&id).ok_or("the account is gone")?;
        match kind.as_str() {
            "Account" => {
                account.amount = amount(&body["account"]["amount"], "account.amount")?;
                account.locked = amount(&body["account"]["locked"], "account.locked")?;
            }
            "Contract" => account.code = Some(bytes(&body["code"], "code")?),
            "Data" => {
                let key = bytes(&body["data_key"], "data_key")?;
                let value = bytes(&body["value"], "value")?;
                account.state.insert(key, value);
            }
            "AccessKey" => {
                let public_key: PublicKey = text(&body["public_key"], "public_key")?
                    .parse()
                    .map_err(|e| format!("`public_key`: {e}"))?;
                let access_key = &body["access_key"];
                let nonce = access_key["nonce"]
                    .as_u64()
                    .ok_or("missing `access_key.nonce`")?;
                if nonce == u64::MAX {
                    return Err(format!(
                        "`access_key.nonce` {nonce} leaves no next nonce (at most {})",
                        u64::MAX - 1
                    ));
                }
                let permission = match &access_key["permission"] {
                    Value::String(s) if s == "FullAccess" => Permission::FullAccess,
                    Value::Object(o) if o.contains_key("FunctionCall") => {
                        let call = &o["FunctionCall"];
                        Permission::FunctionCall {
                            receiver: text(&call["receiver_id"], "receiver_id")?,
                            methods: serde_json::from_value(call["method_names"].clone())
                                .map_err(|e| format!("`method_names`: {e}"))?,
                            allowance: match &call["allowance"] {
                                Value::Null => None,
                                v => Some(amount(v, "allowance")?),
                            },
                        }
                    }
                    other => return Err(format!("unknown permission {other}")),
                };
                account.keys.retain(|k| k.public_key != public_key);
                account.keys.push(Key {
                    public_key,
                    nonce,
                    permission,
                    gas_key: None,
                });
            }
            other => return Err(format!("unknown record `{other}`")),
        }
        Ok(())
    }

    /// The contract state of `account` whose keys start with `prefix`.
    pub fn state(&self, account: &Account, prefix: &[u8]) -> Value {
        let values: Vec<Value> = account
            .state
            .iter()
            .filter(|(k, _)| k.starts_with(prefix))
            .map(|(k, v)| json!({"key": b64(k), "value": b64(v)}))
            .collect();
        // Nodes send `proof` (empty unless asked for) beside the values.
        json!({"values": values, "proof": []})
    }

    // --- light client ------------------------------------------------------------------

    /// The light-client header of the block at `height`.
    pub fn block_header_lite(&self, height: u64) -> Value {
        json!(self.lite_at(height))
    }
}

/// Nanoseconds since the epoch as RFC 3339 (UTC, nanoseconds).
fn rfc3339(nanos: u64) -> String {
    let secs = nanos / 1_000_000_000;
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:09}Z",
        rest / 3_600,
        rest % 3_600 / 60,
        rest % 60,
        nanos % 1_000_000_000
    )
}

/// Where the yoctoNEAR a chain holds first add up past `u128::MAX` (`Chain::holdings`, in `runtime/mod.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Holding {
    /// The `amount` of the account at this index.
    Amount(usize),
    /// Its `locked`.
    Locked(usize),
    /// What the due receipt at this index can still credit.
    Due(usize),
    /// The balance of the gas key at this index (`keys[1]`) of the account at this one.
    GasKey(usize, usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_hashes_are_stable() {
        assert_eq!(rfc3339(GENESIS_TIME_NS), "2023-11-14T22:13:20.000000000Z");
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000000000Z");
        // Pinned (FNV-1a of the name seeding splitmix64): a change would move every hash
        // of the mock chain, and the saved chains and recordings that name them.
        assert_eq!(
            hash("x").to_string(),
            "Ae6EXuXberA9UFeYo6yLGESWF9hYVVpXaz3wK3Gmv4oL"
        );
        assert_ne!(hash("x"), hash("y"));
        let chain = Chain::new();
        assert_eq!(chain.height_of(&chain.block_hash(105)), Some(105));
        assert_eq!(chain.height_at("final"), Some(INITIAL_HEAD - 2));
    }
}
