//! The mock chain saved to a file and started from one (users' fixtures): accounts,
//! keys (gas keys with their balances and nonces), code and contract state,
//! transactions with their outcomes and receipts, what waits for the next block, and
//! the blocks' outcome order. Block hashes are not trusted from the file: they are
//! computed again on load and must equal the saved ones, so a chain started from a file
//! has the hashes it was saved with (and an edited history is refused, naming the
//! block); transactions, the pool and the blocks must agree.
//! Accounts and state may be edited freely: no hash covers them. Contracts are code;
//! register their Rust implementations ([`Chain::register`]) before or after loading.
//!
//! A saved chain may come from anyone (a fixture shared in a repository, a file in a
//! CI cache), so what it holds is checked before the chain is built, each refusal
//! naming the JSON path at fault (`accounts[2].id`) and, for a number, the limit:
//!
//! - **Size**: at most [`MAX_FILE_BYTES`]; a larger file (or a stream that goes on) is
//!   refused after reading one byte past the limit, never read whole. Loading takes
//!   time and memory in proportion to the file (no count in it sizes anything ahead).
//! - **Account ids** (every `id`, `signer`, `receiver`, `executor` and `predecessor`)
//!   are NEAR account ids by near-account-id's rules (nearcore's): 2 to 64 characters
//!   of `a-z`, `0-9` and inner `-_.`. No id from a file can name a path outside a
//!   folder (no `/`, no `..`, no NUL, no upper case), which
//!   [`MockNode::write_credentials`](crate::MockNode::write_credentials) relies on (and
//!   checks again). An account is listed once.
//! - **Numbers the runtime adds up** cannot overflow once the chain runs: the balances
//!   held (every `amount` and `locked`, and every gas key's `balance`) and in flight (each due receipt's deposits and,
//!   but for a refund, its prepaid gas at its `gas_price`) add up to at most
//!   `u128::MAX` yoctoNEAR, so no credit the runtime makes can pass it (every credit
//!   comes out of that total); a key's `nonce` (and each of a gas key's `nonces`, 1 to
//!   [`MAX_GAS_KEY_NONCES`] of them) is below
//!   `u64::MAX`, so the next one exists; each block's outcomes burn at most `u64::MAX` gas and `u128::MAX`
//!   yoctoNEAR in all, what its chunk header adds up. Heights need no limit: they count
//!   the blocks, which the size bounds. Storage costs cannot overflow (`u64` bytes at
//!   [`STORAGE_AMOUNT_PER_BYTE`](crate::fees::STORAGE_AMOUNT_PER_BYTE) fit in `u128`).
//!
//! [`Chain::from_state_json`] makes the same checks but the size: its caller has read
//! the JSON already.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use base64::Engine as _;
use near_rpc::tx::{Action, SignedTransaction};
use near_rpc::{CryptoHash, PublicKey};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::chain::Holding;
use crate::chain::{
    b64, Account, Chain, DueReceipt, GasKey, Key, Outcome, Pending, Permission, Transaction,
    GENESIS_HEIGHT, MAX_GAS_KEY_NONCES,
};

/// What the file's first member says, so that another file is refused by name.
const FORMAT: &str = "near-rpc-mock chain 1";

/// The largest saved chain [`Chain::load`] reads: 64 MiB, about 17,000 transfers as
/// [`Chain::save`] writes them. Loading one that large takes seconds and up to 22 times
/// its size in memory (BENCHMARKS.md). A chain saved larger is refused at load.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Why a state file cannot be read.
#[derive(Debug)]
pub struct StateError {
    /// What is wrong, and where (a JSON line and column, an account, a block height).
    pub message: String,
}

impl std::fmt::Display for StateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StateError {}

fn error(message: impl Into<String>) -> StateError {
    StateError {
        message: message.into(),
    }
}

fn unb64(text: &str, what: &str) -> Result<Vec<u8>, StateError> {
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| error(format!("{what}: not base64: {e}")))
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    head: u64,
    accounts: Vec<AccountFile>,
    transactions: Vec<TransactionFile>,
    /// Signed transactions waiting for the next block, base64 of their borsh bytes.
    mempool: Vec<String>,
    due: Vec<ReceiptFile>,
    /// Per block from genesis: its hash and the ids of its outcomes, in order.
    blocks: Vec<BlockFile>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct AccountFile {
    id: String,
    amount: String,
    locked: String,
    keys: Vec<KeyFile>,
    code_base64: Option<String>,
    /// Contract state: base64 key to base64 value.
    state: BTreeMap<String, String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyFile {
    public_key: PublicKey,
    nonce: u64,
    /// `None`: full access.
    function_call: Option<FunctionCallFile>,
    /// A gas key's balance and nonces (absent for other keys, and in files saved
    /// before the mock had gas keys).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gas_key: Option<GasKeyFile>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GasKeyFile {
    balance: String,
    /// One per nonce index.
    nonces: Vec<u64>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FunctionCallFile {
    receiver: String,
    methods: Vec<String>,
    allowance: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TransactionFile {
    hash: CryptoHash,
    signer: String,
    receiver: String,
    /// Derived from the outcomes, kept so a reader of the file sees it; checked on load.
    height: Option<u64>,
    signed_view: Value,
    outcomes: Vec<OutcomeFile>,
    receipts: Vec<Value>,
    /// Derived from receipts and outcomes, kept like `height`; checked on load.
    unexecuted: usize,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct OutcomeFile {
    id: CryptoHash,
    height: u64,
    executor: String,
    status: Value,
    receipt_ids: Vec<CryptoHash>,
    gas_burnt: u64,
    tokens_burnt: String,
    logs: Vec<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReceiptFile {
    id: CryptoHash,
    tx: CryptoHash,
    at: u64,
    predecessor: String,
    receiver: String,
    signer: String,
    signer_key: PublicKey,
    gas_price: String,
    /// Base64 of each action's borsh bytes.
    actions: Vec<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BlockFile {
    hash: CryptoHash,
    outcomes: Vec<CryptoHash>,
    /// Its state changes (`EXPERIMENTAL_changes`), as nodes show them.
    #[serde(default)]
    changes: Vec<Value>,
}

/// The members a first pass reads: only `format` (the others are skipped, not kept).
#[derive(Deserialize)]
struct Probe {
    format: Option<Value>,
}

/// The file says it is a mock chain of this format.
fn check_format(format: Option<&Value>) -> Result<(), StateError> {
    if format.and_then(Value::as_str) == Some(FORMAT) {
        return Ok(());
    }
    Err(error(format!(
        "not a mock chain: `format` is not \"{FORMAT}\""
    )))
}

/// Checks that `id`, found at the JSON path `path`, is a NEAR account id.
fn account_id(id: &str, path: &str) -> Result<(), StateError> {
    id.parse::<near_rpc::AccountId>().map(drop).map_err(|e| {
        error(format!(
            "{path}: {} is not a NEAR account id: {e}",
            shown(id)
        ))
    })
}

/// A string from the file as an error shows it: quoted, escaped (a NUL or a control
/// character is visible, never written raw to a terminal), and cut short when long.
pub(crate) fn shown(text: &str) -> String {
    const MOST: usize = 80;
    match text.char_indices().nth(MOST) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?}... ({} bytes)", &text[..cut], text.len()),
    }
}

fn amount(text: &str, what: &str) -> Result<u128, StateError> {
    text.parse().map_err(|e| {
        error(format!(
            "{what}: `{text}` is not an amount in yoctoNEAR: {e}"
        ))
    })
}

impl Chain {
    /// The chain as JSON: what [`Chain::save`] writes.
    pub fn to_state_json(&self) -> Value {
        let file = File {
            format: FORMAT.into(),
            head: self.head,
            accounts: self.accounts.iter().map(account_file).collect(),
            transactions: self.transactions.iter().map(transaction_file).collect(),
            mempool: self
                .mempool
                .iter()
                .map(|p| b64(&p.signed.to_borsh()))
                .collect(),
            due: self.due.iter().map(receipt_file).collect(),
            blocks: self
                .blocks
                .iter()
                .map(|b| BlockFile {
                    hash: b.hash,
                    outcomes: b.leaves.iter().map(|(id, _)| *id).collect(),
                    changes: b.changes.clone(),
                })
                .collect(),
        };
        serde_json::to_value(file).unwrap_or(Value::Null)
    }

    /// Writes the chain to `path` (JSON).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(&self.to_state_json())
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        std::fs::write(path, text)
    }

    /// The chain saved at `path` by [`Chain::save`], with the status-message contract
    /// registered. The file may come from anyone: what it may hold is in this module's
    /// docs (at most [`MAX_FILE_BYTES`], account ids that are NEAR account ids, numbers
    /// the runtime cannot overflow); anything else is refused, naming where.
    pub fn load(path: &Path) -> Result<Self, StateError> {
        use std::io::Read as _;
        let cannot_read = |e: std::io::Error| error(format!("cannot read {}: {e}", path.display()));
        let too_large = || {
            error(format!(
                "{}: larger than {MAX_FILE_BYTES} bytes, the most a saved chain may be",
                path.display()
            ))
        };
        let file = std::fs::File::open(path).map_err(cannot_read)?;
        // A regular file says its size; a pipe or a device is read one byte past the
        // limit at most.
        if file
            .metadata()
            .is_ok_and(|m| m.is_file() && m.len() > MAX_FILE_BYTES)
        {
            return Err(too_large());
        }
        let mut bytes = Vec::new();
        file.take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(cannot_read)?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(too_large());
        }
        // Read straight into the file's shape (no JSON tree of it all first): a
        // first pass reads only `format`, so that another file is refused by name.
        let in_file = |e: StateError| error(format!("{}: {}", path.display(), e.message));
        let probe: Probe = serde_json::from_slice(&bytes)
            .map_err(|e| error(format!("{}: not JSON: {e}", path.display())))?;
        check_format(probe.format.as_ref()).map_err(in_file)?;
        let file: File =
            serde_json::from_slice(&bytes).map_err(|e| in_file(error(e.to_string())))?;
        drop(bytes);
        Self::from_file(file).map_err(in_file)
    }

    /// The chain [`Chain::to_state_json`] gave, checked as [`Chain::load`] checks a
    /// file (its size aside).
    pub fn from_state_json(value: Value) -> Result<Self, StateError> {
        check_format(value.get("format"))?;
        let file: File = serde_json::from_value(value).map_err(|e| error(e.to_string()))?;
        Self::from_file(file)
    }

    /// The chain a file of the right format holds, checked.
    fn from_file(file: File) -> Result<Self, StateError> {
        check_account_ids(&file)?;
        let mut chain = Chain::new();
        chain.accounts = file
            .accounts
            .into_iter()
            .enumerate()
            .map(|(i, account)| account_from(i, account))
            .collect::<Result<_, _>>()?;
        chain.transactions = file
            .transactions
            .into_iter()
            .map(transaction_from)
            .collect::<Result<_, _>>()?;
        let mut hashes = HashSet::new();
        if let Some((i, tx)) = chain
            .transactions
            .iter()
            .enumerate()
            .find(|(_, t)| !hashes.insert(t.hash))
        {
            return Err(error(format!(
                "transactions[{i}]: transaction {} is listed twice",
                tx.hash
            )));
        }
        chain.mempool = file
            .mempool
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let what = format!("mempool[{i}]");
                let signed = SignedTransaction::from_borsh(&unb64(text, &what)?)
                    .map_err(|e| error(format!("{what}: {e}")))?;
                Ok(Pending {
                    tx: signed.hash(),
                    signed,
                })
            })
            .collect::<Result<_, StateError>>()?;
        chain.due = file
            .due
            .into_iter()
            .map(receipt_from)
            .collect::<Result<_, _>>()?;
        // A transaction without an outcome is in no block: it waits in the pool.
        // (Looked up by hash: a long file is checked in linear time.)
        let mut waiting = HashSet::new();
        if let Some((i, twice)) = chain
            .mempool
            .iter()
            .enumerate()
            .find(|(_, p)| !waiting.insert(p.tx))
        {
            // Charged once, its second copy would be dropped, and the first with it.
            return Err(error(format!(
                "mempool[{i}]: transaction {} is listed twice",
                twice.tx
            )));
        }
        for tx in &chain.transactions {
            if tx.height().is_none() && !waiting.contains(&tx.hash) {
                return Err(error(format!(
                    "transaction {}: in no block and not in `mempool`",
                    tx.hash
                )));
            }
        }
        let unincluded: HashSet<CryptoHash> = chain
            .transactions
            .iter()
            .filter(|t| t.height().is_none())
            .map(|t| t.hash)
            .collect();
        if let Some(stray) = chain.mempool.iter().find(|p| !unincluded.contains(&p.tx)) {
            return Err(error(format!(
                "mempool: {} is not a transaction waiting for a block",
                stray.tx
            )));
        }
        // Blocks sealed again from the outcomes, in the saved order: the saved hashes
        // must come back.
        let outcomes: HashMap<CryptoHash, Outcome> = chain
            .transactions
            .iter()
            .flat_map(|t| t.outcomes.iter().map(|o| (o.id, o.clone())))
            .collect();
        check_holdings(&chain)?;
        chain.clear_blocks();
        let mut listed = HashSet::new();
        for (i, block) in file.blocks.iter().enumerate() {
            let height = GENESIS_HEIGHT + i as u64;
            check_burnt(i, height, block, &outcomes)?;
            for id in &block.outcomes {
                if !listed.insert(*id) {
                    return Err(error(format!(
                        "block {height}: outcome {id} is listed twice"
                    )));
                }
                let outcome = outcomes.get(id).ok_or_else(|| {
                    error(format!("block {height}: no transaction has outcome {id}"))
                })?;
                if outcome.height != height {
                    return Err(error(format!(
                        "block {height}: outcome {id} says it is at height {}",
                        outcome.height
                    )));
                }
                // As `add_leaf`, but an outcome that does not hash is the file's fault.
                let leaf = crate::light_client::leaf(outcome)
                    .map_err(|e| error(format!("block {height}: outcome {id}: {e}")))?;
                chain.producing.push((outcome.id, leaf));
            }
            chain.changing = block.changes.clone();
            chain.seal_block(height);
            let sealed = chain.block_hash(height);
            if sealed != block.hash {
                return Err(error(format!(
                    "block {height}: its outcomes hash to {sealed}, not the saved {}: the \
                     history was edited",
                    block.hash
                )));
            }
        }
        if let Some(unlisted) = outcomes.keys().find(|id| !listed.contains(*id)) {
            return Err(error(format!("outcome {unlisted} is in no block")));
        }
        if chain.blocks.is_empty() || file.head != GENESIS_HEIGHT + chain.blocks.len() as u64 - 1 {
            return Err(error(format!(
                "`head` {} does not match the {} blocks saved",
                file.head,
                chain.blocks.len()
            )));
        }
        chain.head = file.head;
        Ok(chain)
    }
}

fn account_file(account: &Account) -> AccountFile {
    AccountFile {
        id: account.id.clone(),
        amount: account.amount.to_string(),
        locked: account.locked.to_string(),
        keys: account
            .keys
            .iter()
            .map(|k| KeyFile {
                public_key: k.public_key.clone(),
                nonce: k.nonce,
                function_call: match &k.permission {
                    Permission::FullAccess => None,
                    Permission::FunctionCall {
                        receiver,
                        methods,
                        allowance,
                    } => Some(FunctionCallFile {
                        receiver: receiver.clone(),
                        methods: methods.clone(),
                        allowance: allowance.map(|a| a.to_string()),
                    }),
                },
                gas_key: k.gas_key.as_ref().map(|g| GasKeyFile {
                    balance: g.balance.to_string(),
                    nonces: g.nonces.clone(),
                }),
            })
            .collect(),
        code_base64: account.code.as_deref().map(b64),
        state: account
            .state
            .iter()
            .map(|(k, v)| (b64(k), b64(v)))
            .collect(),
    }
}

/// Every account id in the file is a NEAR account id, and every account is listed once.
fn check_account_ids(file: &File) -> Result<(), StateError> {
    let mut seen = HashMap::new();
    for (i, account) in file.accounts.iter().enumerate() {
        account_id(&account.id, &format!("accounts[{i}].id"))?;
        if let Some(first) = seen.insert(account.id.as_str(), i) {
            return Err(error(format!(
                "accounts[{i}].id: {} is listed twice (also accounts[{first}])",
                account.id
            )));
        }
    }
    for (i, tx) in file.transactions.iter().enumerate() {
        account_id(&tx.signer, &format!("transactions[{i}].signer"))?;
        account_id(&tx.receiver, &format!("transactions[{i}].receiver"))?;
        for (j, outcome) in tx.outcomes.iter().enumerate() {
            account_id(
                &outcome.executor,
                &format!("transactions[{i}].outcomes[{j}].executor"),
            )?;
        }
    }
    for (i, receipt) in file.due.iter().enumerate() {
        for (field, id) in [
            ("predecessor", &receipt.predecessor),
            ("receiver", &receipt.receiver),
            ("signer", &receipt.signer),
        ] {
            account_id(id, &format!("due[{i}].{field}"))?;
        }
    }
    Ok(())
}

/// What the accounts hold and the due receipts can still credit adds up within
/// `u128::MAX` (see the module docs): no credit the runtime makes can overflow.
fn check_holdings(chain: &Chain) -> Result<(), StateError> {
    let at = match chain.holdings() {
        Ok(_) => return Ok(()),
        Err(Holding::Amount(i)) => format!("accounts[{i}].amount"),
        Err(Holding::Locked(i)) => format!("accounts[{i}].locked"),
        Err(Holding::Due(i)) => format!("due[{i}]"),
        Err(Holding::GasKey(i, j)) => format!("accounts[{i}].keys[{j}].gas_key.balance"),
    };
    Err(error(format!(
        "{at}: the balances held (`amount`, `locked`, gas keys' `balance`) and in flight (due receipts' \
         deposits and prepaid gas at their `gas_price`) add up past {} yoctoNEAR \
         (u128::MAX) here; the runtime could not credit them",
        u128::MAX
    )))
}

/// The outcomes a block lists burn, in all, what its chunk header can show: at most
/// `u64::MAX` gas and `u128::MAX` yoctoNEAR.
fn check_burnt(
    index: usize,
    height: u64,
    block: &BlockFile,
    outcomes: &HashMap<CryptoHash, Outcome>,
) -> Result<(), StateError> {
    let (mut gas, mut tokens) = (Some(0u64), Some(0u128));
    for outcome in block.outcomes.iter().filter_map(|id| outcomes.get(id)) {
        gas = gas.and_then(|g| g.checked_add(outcome.gas_burnt));
        tokens = tokens.and_then(|t| t.checked_add(outcome.tokens_burnt));
    }
    let past = match (gas, tokens) {
        (None, _) => format!("{} gas (u64::MAX)", u64::MAX),
        (_, None) => format!("{} yoctoNEAR (u128::MAX)", u128::MAX),
        _ => return Ok(()),
    };
    Err(error(format!(
        "blocks[{index}] (height {height}): its outcomes burn more than {past} in all, \
         more than its chunk header can add up"
    )))
}

fn account_from(index: usize, file: AccountFile) -> Result<Account, StateError> {
    let what = format!("account {}", file.id);
    let keys = file
        .keys
        .into_iter()
        .enumerate()
        .map(|(j, k)| {
            if k.nonce == u64::MAX {
                return Err(error(format!(
                    "accounts[{index}].keys[{j}].nonce: {} leaves no next nonce (at most {})",
                    k.nonce,
                    u64::MAX - 1
                )));
            }
            let permission = match k.function_call {
                None => Permission::FullAccess,
                Some(f) => Permission::FunctionCall {
                    receiver: f.receiver,
                    methods: f.methods,
                    allowance: f
                        .allowance
                        .map(|a| amount(&a, &format!("{what}: allowance")))
                        .transpose()?,
                },
            };
            let gas_key = k
                .gas_key
                .map(|g| gas_key_from(index, j, &what, g))
                .transpose()?;
            Ok(Key {
                public_key: k.public_key,
                nonce: k.nonce,
                permission,
                gas_key,
            })
        })
        .collect::<Result<_, StateError>>()?;
    let state = file
        .state
        .iter()
        .map(|(k, v)| {
            Ok((
                unb64(k, &format!("{what}: state key"))?,
                unb64(v, &format!("{what}: state value"))?,
            ))
        })
        .collect::<Result<_, StateError>>()?;
    Ok(Account {
        amount: amount(&file.amount, &format!("{what}: amount"))?,
        locked: amount(&file.locked, &format!("{what}: locked"))?,
        keys,
        code: file
            .code_base64
            .map(|c| unb64(&c, &format!("{what}: code")))
            .transpose()?,
        state,
        id: file.id,
    })
}

/// A gas key of `accounts[index].keys[j]`: 1 to [`MAX_GAS_KEY_NONCES`] nonces, each
/// with a next one; its balance counts in the chain's holdings (checked after).
fn gas_key_from(
    index: usize,
    j: usize,
    what: &str,
    file: GasKeyFile,
) -> Result<GasKey, StateError> {
    let at = format!("accounts[{index}].keys[{j}].gas_key");
    let count = file.nonces.len();
    if count == 0 || count > usize::from(MAX_GAS_KEY_NONCES) {
        return Err(error(format!(
            "{at}.nonces: a gas key has 1 to {MAX_GAS_KEY_NONCES} nonces, not {count}"
        )));
    }
    if let Some(i) = file.nonces.iter().position(|n| *n == u64::MAX) {
        return Err(error(format!(
            "{at}.nonces[{i}]: {} leaves no next nonce (at most {})",
            u64::MAX,
            u64::MAX - 1
        )));
    }
    Ok(GasKey {
        balance: amount(&file.balance, &format!("{what}: gas key balance"))?,
        nonces: file.nonces,
    })
}

fn transaction_file(tx: &Transaction) -> TransactionFile {
    TransactionFile {
        hash: tx.hash,
        signer: tx.signer.clone(),
        receiver: tx.receiver.clone(),
        height: tx.height(),
        signed_view: tx.signed_view.clone(),
        outcomes: tx
            .outcomes
            .iter()
            .map(|o| OutcomeFile {
                id: o.id,
                height: o.height,
                executor: o.executor.clone(),
                status: o.status.clone(),
                receipt_ids: o.receipt_ids.clone(),
                gas_burnt: o.gas_burnt,
                tokens_burnt: o.tokens_burnt.to_string(),
                logs: o.logs.clone(),
            })
            .collect(),
        receipts: tx.receipts.clone(),
        unexecuted: tx.unexecuted(),
    }
}

fn transaction_from(file: TransactionFile) -> Result<Transaction, StateError> {
    let what = format!("transaction {}", file.hash);
    let (height, unexecuted) = (file.height, file.unexecuted);
    let tx = Transaction {
        outcomes: file
            .outcomes
            .into_iter()
            .map(|o| {
                Ok(Outcome {
                    tokens_burnt: amount(&o.tokens_burnt, &format!("{what}: tokens_burnt"))?,
                    id: o.id,
                    height: o.height,
                    executor: o.executor,
                    status: o.status,
                    receipt_ids: o.receipt_ids,
                    gas_burnt: o.gas_burnt,
                    logs: o.logs,
                })
            })
            .collect::<Result<_, StateError>>()?,
        hash: file.hash,
        signer: file.signer,
        receiver: file.receiver,
        signed_view: file.signed_view,
        receipts: file.receipts,
    };
    // The transaction's own outcome first, then its receipts' (each at most once): what
    // `height()` and `unexecuted()` read.
    if let Some(first) = tx.outcomes.first() {
        if first.id != tx.hash {
            return Err(error(format!(
                "{what}: its first outcome is {}, not the transaction's own",
                first.id
            )));
        }
    }
    let receipt_ids: HashSet<CryptoHash> =
        (0..tx.receipts.len()).map(|n| tx.receipt_id(n)).collect();
    let mut seen = HashSet::new();
    for outcome in tx.outcomes.iter().skip(1) {
        if !receipt_ids.contains(&outcome.id) || !seen.insert(outcome.id) {
            return Err(error(format!(
                "{what}: outcome {} is not of one of its receipts, once",
                outcome.id
            )));
        }
    }
    for (field, saved, derived) in [
        (
            "height",
            format!("{height:?}"),
            format!("{:?}", tx.height()),
        ),
        (
            "unexecuted",
            unexecuted.to_string(),
            tx.unexecuted().to_string(),
        ),
    ] {
        if saved != derived {
            return Err(error(format!(
                "{what}: `{field}` is {saved}, but its outcomes and receipts say {derived}"
            )));
        }
    }
    Ok(tx)
}

fn receipt_file(receipt: &DueReceipt) -> ReceiptFile {
    ReceiptFile {
        id: receipt.id,
        tx: receipt.tx,
        at: receipt.at,
        predecessor: receipt.predecessor.clone(),
        receiver: receipt.receiver.clone(),
        signer: receipt.signer.clone(),
        signer_key: receipt.signer_key.clone(),
        gas_price: receipt.gas_price.to_string(),
        actions: receipt.actions.iter().map(|a| b64(&a.to_borsh())).collect(),
    }
}

fn receipt_from(file: ReceiptFile) -> Result<DueReceipt, StateError> {
    let what = format!("receipt {}", file.id);
    Ok(DueReceipt {
        gas_price: amount(&file.gas_price, &format!("{what}: gas_price"))?,
        actions: file
            .actions
            .iter()
            .enumerate()
            .map(|(i, a)| {
                Action::from_borsh(&unb64(a, &format!("{what}: action {i}"))?)
                    .map_err(|e| error(format!("{what}: action {i}: {e}")))
            })
            .collect::<Result<_, _>>()?,
        id: file.id,
        tx: file.tx,
        at: file.at,
        predecessor: file.predecessor,
        receiver: file.receiver,
        signer: file.signer,
        signer_key: file.signer_key,
    })
}
