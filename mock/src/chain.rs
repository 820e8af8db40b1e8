//! The mock node's chain, authored here: one shard, blocks from height
//! [`GENESIS_HEIGHT`] up to a head that advances on request, four accounts with keys, a
//! contract with canned view methods, and two finished transactions (one success, one
//! failure) with their receipts. Every answer is built from this one model, so answers
//! agree with each other: the block `status` calls latest is the one `block` returns at
//! `optimistic`, an account's `block_height` is a block that exists, a transaction's
//! receipts are the ones `EXPERIMENTAL_receipt` finds.
//!
//! Block hashes, outcome roots and the block Merkle tree are computed as nearcore
//! computes them (`light_client.rs`), keys are real ed25519 keys from seeds derived from
//! a name, and the validator approves blocks with its own: light-client blocks and
//! execution proofs verify. The other hashes and signatures are deterministic bytes
//! derived from a name. The same chain comes back in every run.

use base64::Engine as _;
use near_rpc::tx::{SecretKey, SignedTransaction};
use near_rpc::types::{ActionView, SignedTransactionView};
use near_rpc::{CryptoHash, PublicKey, Signature};
use serde_json::{json, Value};

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
/// Gas price, in yoctoNEAR per gas unit.
pub const GAS_PRICE: u128 = 100_000_000;
/// The height the two finished transactions were included at.
pub const TX_HEIGHT: u64 = GENESIS_HEIGHT + 5;
/// The validator (the only block and chunk producer).
pub const VALIDATOR: &str = "validator.mock";
/// The contract account.
pub const CONTRACT: &str = "contract.mock";

const GENESIS_TIME_NS: u64 = 1_700_000_000_000_000_000;
const BLOCK_TIME_NS: u64 = 1_000_000_000;
const NEAR: u128 = 1_000_000_000_000_000_000_000_000;
/// A tiny WebAssembly module header: the contract's code.
const CODE: &[u8] = b"\0asm\x01\0\0\0";

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

fn signature(name: &str) -> Signature {
    Signature::ed25519(bytes_of::<64>(&format!("signature {name}")))
}

fn yocto(amount: u128) -> String {
    amount.to_string()
}

pub(crate) fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// An access key of an account.
#[derive(Debug, Clone)]
pub struct Key {
    /// The key.
    pub public_key: PublicKey,
    /// Its nonce.
    pub nonce: u64,
    /// `None`: full access; `Some((receiver, methods, allowance))`: function calls only.
    pub function_call: Option<(String, Vec<String>, Option<u128>)>,
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
    /// Bytes of storage it uses.
    pub storage_usage: u64,
    /// Its access keys.
    pub keys: Vec<Key>,
    /// Whether the contract code is deployed on it.
    pub has_code: bool,
    /// Its contract state, as (key, value) bytes.
    pub state: Vec<(Vec<u8>, Vec<u8>)>,
}

impl Account {
    fn new(id: &str, near: u128) -> Self {
        Self {
            id: id.to_owned(),
            amount: near * NEAR,
            locked: 0,
            storage_usage: 182,
            keys: vec![Key {
                public_key: public_key(id),
                nonce: 1,
                function_call: None,
            }],
            has_code: false,
            state: Vec::new(),
        }
    }

    /// The hash of its code (all zeros without code, as nearcore shows it).
    pub fn code_hash(&self) -> CryptoHash {
        if self.has_code {
            hash("code")
        } else {
            CryptoHash([0; 32])
        }
    }
}

/// A transaction the chain knows, with its outcome.
#[derive(Debug, Clone)]
pub struct Transaction {
    /// Its hash.
    pub hash: CryptoHash,
    /// Who signed it.
    pub signer: String,
    /// Who received it.
    pub receiver: String,
    /// The height of the block it was included in.
    pub height: u64,
    /// Its actions, as nearcore's `ActionView`s.
    pub actions: Vec<Value>,
    /// `Ok(return value)` or `Err(ActionError kind)`.
    pub result: Result<Vec<u8>, Value>,
    /// The signed transaction as nodes show it, when it was submitted as a real one
    /// (else a view is made up from the fields above).
    pub signed_view: Option<Value>,
}

impl Transaction {
    /// The id of its `n`-th receipt (0: the action receipt, 1: the refund).
    pub fn receipt_id(&self, n: usize) -> CryptoHash {
        hash(&format!("receipt {n} of {}", self.hash))
    }
}

/// The whole chain state.
#[derive(Debug, Clone)]
pub struct Chain {
    /// The latest block height.
    pub head: u64,
    /// Every account.
    pub accounts: Vec<Account>,
    /// Every transaction with an outcome.
    pub transactions: Vec<Transaction>,
}

impl Default for Chain {
    fn default() -> Self {
        Self::new()
    }
}

impl Chain {
    /// The chain as it starts.
    pub fn new() -> Self {
        let mut alice = Account::new("alice.mock", 100);
        alice.keys[0].nonce = 7;
        alice.keys.push(Key {
            public_key: public_key("alice.mock function call"),
            nonce: 3,
            function_call: Some((
                CONTRACT.to_owned(),
                vec!["set_greeting".to_owned()],
                Some(NEAR / 4),
            )),
        });
        let bob = Account::new("bob.mock", 25);
        let mut contract = Account::new(CONTRACT, 50);
        contract.has_code = true;
        contract.storage_usage = 24_000;
        contract.state = vec![
            (b"greeting".to_vec(), b"hello".to_vec()),
            (b"counter".to_vec(), b"42".to_vec()),
        ];
        let mut validator = Account::new(VALIDATOR, 1_000);
        validator.locked = 500 * NEAR;
        let transfer = Transaction {
            hash: hash("transfer alice to bob"),
            signer: "alice.mock".into(),
            receiver: "bob.mock".into(),
            height: TX_HEIGHT,
            actions: vec![json!({"Transfer": {"deposit": yocto(NEAR)}})],
            result: Ok(Vec::new()),
            signed_view: None,
        };
        let failed_call = Transaction {
            hash: hash("failed call"),
            signer: "alice.mock".into(),
            receiver: CONTRACT.into(),
            height: TX_HEIGHT,
            actions: vec![json!({"FunctionCall": {
                "method_name": "set_greeting",
                "args": b64(br#"{"greeting":""}"#),
                "gas": 30_000_000_000_000u64,
                "deposit": "0"
            }})],
            result: Err(json!({"FunctionCallError": {
                "ExecutionError": "Smart contract panicked: the greeting is empty"
            }})),
            signed_view: None,
        };
        Self {
            head: INITIAL_HEAD,
            accounts: vec![alice, bob, contract, validator],
            transactions: vec![transfer, failed_call],
        }
    }

    /// The account called `id`.
    pub fn account(&self, id: &str) -> Option<&Account> {
        self.accounts.iter().find(|a| a.id == id)
    }

    /// The transaction with hash `hash`.
    pub fn transaction(&self, hash: &CryptoHash) -> Option<&Transaction> {
        self.transactions.iter().find(|t| t.hash == *hash)
    }

    /// The transaction and index of receipt `id`.
    pub fn receipt(&self, id: &CryptoHash) -> Option<(&Transaction, usize)> {
        self.transactions
            .iter()
            .find_map(|t| (0..2).find(|&n| t.receipt_id(n) == *id).map(|n| (t, n)))
    }

    /// The hash the mock gives a submitted signed transaction (it does not decode it).
    pub fn submitted_hash(signed_tx: &[u8]) -> CryptoHash {
        hash(&format!("submitted {}", b64(signed_tx)))
    }

    /// Records a submitted transaction and returns it. The mock does not execute it:
    /// a signed transaction that decodes keeps its hash, signer, receiver and actions,
    /// moves its key's nonce up to its own, and succeeds; bytes that are no transaction
    /// succeed as a 1 NEAR transfer from alice.mock to bob.mock. Either is included at
    /// the head.
    pub fn submit(&mut self, signed_tx: &[u8]) -> Transaction {
        let decoded = SignedTransaction::from_borsh(signed_tx).ok();
        let hash = decoded
            .as_ref()
            .map_or_else(|| Self::submitted_hash(signed_tx), SignedTransaction::hash);
        if let Some(known) = self.transaction(&hash) {
            return known.clone();
        }
        let tx = match decoded {
            Some(signed) => {
                let inner = signed.transaction();
                let signer = inner.signer_id().to_string();
                if let Some(account) = self.accounts.iter_mut().find(|a| a.id == signer) {
                    if let Some(key) = account
                        .keys
                        .iter_mut()
                        .find(|k| &k.public_key == inner.public_key())
                    {
                        key.nonce = key.nonce.max(inner.nonce());
                    }
                }
                let view = SignedTransactionView::from(&signed);
                Transaction {
                    hash,
                    signer,
                    receiver: inner.receiver_id().to_string(),
                    height: self.head,
                    actions: inner
                        .actions()
                        .iter()
                        .map(|a| serde_json::to_value(ActionView::from(a)).unwrap_or_default())
                        .collect(),
                    result: Ok(Vec::new()),
                    signed_view: serde_json::to_value(view).ok(),
                }
            }
            None => Transaction {
                hash,
                signer: "alice.mock".into(),
                receiver: "bob.mock".into(),
                height: self.head,
                actions: vec![json!({"Transfer": {"deposit": yocto(NEAR)}})],
                result: Ok(Vec::new()),
                signed_view: None,
            },
        };
        self.transactions.push(tx.clone());
        tx
    }

    // --- blocks --------------------------------------------------------------------

    /// The hash of the block at `height`: its light-client header's, as nearcore hashes
    /// it (a submitted transaction changes the outcome root, so the hash, of the block it
    /// joins).
    pub fn block_hash(&self, height: u64) -> CryptoHash {
        let height = height.max(GENESIS_HEIGHT);
        self.block_hashes(height)[(height - GENESIS_HEIGHT) as usize]
    }

    /// The height of the block with hash `hash`, if it exists.
    pub fn height_of(&self, hash: &CryptoHash) -> Option<u64> {
        self.block_hashes(self.head)
            .iter()
            .position(|h| h == hash)
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
        GENESIS_TIME_NS + (height - GENESIS_HEIGHT) * BLOCK_TIME_NS
    }

    fn epoch_id(&self) -> CryptoHash {
        CryptoHash([0; 32])
    }

    /// The chunk header of the block at `height`.
    pub fn chunk_header(&self, height: u64) -> Value {
        let prev = self.block_hash(height.saturating_sub(1).max(GENESIS_HEIGHT));
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
            "gas_used": if height == TX_HEIGHT { 4_174_947_687_500u64 } else { 0 },
            "gas_limit": 1_000_000_000_000_000u64,
            "balance_burnt": "0",
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
            "validators": [{"account_id": VALIDATOR}],
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
            "transaction_validity_period": 86_400,
            "protocol_reward_rate": [1, 10],
            "max_inflation_rate": [1, 20],
            "total_supply": yocto(2_000 * NEAR),
            "num_blocks_per_year": 31_536_000,
            "protocol_treasury_account": "treasury.mock",
            "fishermen_threshold": yocto(10 * NEAR),
            "minimum_stake_divisor": 10,
            "shard_layout": {"V0": {"num_shards": 1, "version": 0}}
        })
    }

    /// `EXPERIMENTAL_protocol_config`: the genesis parameters, less what only genesis has
    /// (its validators and supply, per-shard seats, the shard layout).
    pub fn protocol_config(&self) -> Value {
        let mut config = self.genesis_config();
        if let Some(fields) = config.as_object_mut() {
            for genesis_only in [
                "validators",
                "total_supply",
                "num_block_producer_seats_per_shard",
                "avg_hidden_validator_seats_per_shard",
                "dynamic_resharding",
                "protocol_upgrade_stake_threshold",
                "shard_layout",
            ] {
                fields.remove(genesis_only);
            }
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

    /// An outcome as nodes show it, without its `block_hash` (`light_client.rs` hashes
    /// outcomes before blocks have hashes).
    pub(crate) fn outcome_body(
        &self,
        id: CryptoHash,
        executor: &str,
        status: Value,
        receipt_ids: Vec<CryptoHash>,
        gas: u64,
    ) -> Value {
        json!({
            "proof": [],
            "id": id.to_string(),
            "outcome": {
                "logs": [],
                "receipt_ids": receipt_ids.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "gas_burnt": gas,
                "tokens_burnt": yocto(u128::from(gas) * GAS_PRICE),
                "executor_id": executor,
                "status": status,
                "metadata": {"version": 1, "gas_profile": null}
            }
        })
    }

    /// The receipt views of `tx` (the action receipt and the refund).
    pub fn receipts(&self, tx: &Transaction) -> Vec<Value> {
        let signer_key = match &tx.signed_view {
            Some(view) => view["public_key"].clone(),
            None => json!(public_key(&tx.signer).to_string()),
        };
        let receipt =
            |predecessor: &str, receiver: &str, n: usize, gas_price: u128, actions: Value| {
                json!({
                    "predecessor_id": predecessor,
                    "receiver_id": receiver,
                    "receipt_id": tx.receipt_id(n).to_string(),
                    "receipt": {"Action": {
                        "signer_id": tx.signer,
                        "signer_public_key": signer_key.clone(),
                        "gas_price": yocto(gas_price),
                        "output_data_receivers": [],
                        "input_data_ids": [],
                        "actions": actions,
                        "is_promise_yield": false
                    }},
                    "priority": 0
                })
            };
        let refund = json!([{"Transfer": {"deposit": "1234000000000000000000"}}]);
        vec![
            receipt(&tx.signer, &tx.receiver, 0, GAS_PRICE, json!(tx.actions)),
            receipt("system", &tx.signer, 1, 0, refund),
        ]
    }

    /// The status answer for `tx` at `wait_until`: only the level for `NONE` and
    /// `INCLUDED`, the outcome (with receipts when `with_receipts`) from there on.
    pub fn transaction_status(
        &self,
        tx: &Transaction,
        wait_until: &str,
        with_receipts: bool,
    ) -> Value {
        if matches!(wait_until, "NONE" | "INCLUDED") {
            return json!({"final_execution_status": wait_until});
        }
        let status = match &tx.result {
            Ok(value) => json!({"SuccessValue": b64(value)}),
            Err(kind) => json!({"Failure": {"ActionError": {"index": 0, "kind": kind}}}),
        };
        let transaction = tx.signed_view.clone().unwrap_or_else(|| {
            json!({
                "signer_id": tx.signer,
                "public_key": public_key(&tx.signer).to_string(),
                "nonce": 8,
                "receiver_id": tx.receiver,
                "actions": tx.actions,
                "priority_fee": 0,
                "signature": signature(&tx.hash.to_string()).to_string(),
                "hash": tx.hash.to_string()
            })
        });
        let mut outcomes: Vec<Value> = self
            .outcomes(tx)
            .into_iter()
            .map(|(height, mut outcome)| {
                outcome["block_hash"] = json!(self.block_hash(height).to_string());
                outcome
            })
            .collect();
        let transaction_outcome = outcomes.remove(0);
        let mut answer = json!({
            "final_execution_status": wait_until,
            "status": status,
            "transaction": transaction,
            "transaction_outcome": transaction_outcome,
            "receipts_outcome": outcomes
        });
        if with_receipts {
            answer["receipts"] = Value::Array(self.receipts(tx));
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
            "storage_usage": account.storage_usage,
            "storage_paid_at": 0
        })
    }

    /// The access-key view of `key`.
    pub fn access_key_view(&self, key: &Key) -> Value {
        let permission = match &key.function_call {
            None => json!("FullAccess"),
            Some((receiver, methods, allowance)) => json!({"FunctionCall": {
                "allowance": allowance.map(yocto),
                "receiver_id": receiver,
                "method_names": methods
            }}),
        };
        json!({"nonce": key.nonce, "permission": permission})
    }

    /// The contract's code, base64.
    pub fn code_base64(&self) -> String {
        b64(CODE)
    }

    /// The contract's state whose keys start with `prefix`.
    pub fn state(&self, account: &Account, prefix: &[u8]) -> Value {
        let values: Vec<Value> = account
            .state
            .iter()
            .filter(|(k, _)| k.starts_with(prefix))
            .map(|(k, v)| json!({"key": b64(k), "value": b64(v)}))
            .collect();
        json!({"values": values})
    }

    /// A view call on the contract: `Ok((result bytes, logs))`, or the VM error as text
    /// and as nearcore's `FunctionCallError`.
    pub fn view_call(
        &self,
        method: &str,
        args: &[u8],
    ) -> Result<(Vec<u8>, Vec<String>), (String, Value)> {
        match method {
            "get_greeting" => Ok((br#""hello""#.to_vec(), vec![])),
            "get_counter" => Ok((b"42".to_vec(), vec![])),
            "get_status" => Ok((
                br#"{"paused":false,"version":"1.0.0"}"#.to_vec(),
                vec!["viewed status".to_owned()],
            )),
            // Echoes its JSON args back, so a test can check what it sent.
            "echo" => Ok((args.to_vec(), vec![format!("echo of {} bytes", args.len())])),
            _ => Err((
                format!("wasm execution failed with error: MethodResolveError(MethodNotFound) for `{method}`"),
                json!({"MethodResolveError": "MethodNotFound"}),
            )),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_hashes_are_stable() {
        assert_eq!(rfc3339(GENESIS_TIME_NS), "2023-11-14T22:13:20.000000000Z");
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000000000Z");
        assert_eq!(hash("x"), hash("x"));
        assert_ne!(hash("x"), hash("y"));
        let chain = Chain::new();
        assert_eq!(chain.height_of(&chain.block_hash(105)), Some(105));
        assert_eq!(chain.height_at("final"), Some(INITIAL_HEAD - 2));
    }
}
