//! Block production: each block takes the submitted transactions in nonce order per
//! key, charges and includes them (their outcomes), executes the receipts due at its
//! height, and records how the state changed (`EXPERIMENTAL_changes`; a gas key's
//! nonces as `gas_key_nonce_update`s).

use near_rpc::CryptoHash;
use serde_json::{json, Value};

use super::validate::Charged;
use super::MAX_WAIT_BLOCKS;
use crate::chain::{Account, Chain, DueReceipt, Key, Level, Outcome, Pending, GAS_PRICE};

impl Chain {
    /// Produces `n` blocks.
    pub fn advance(&mut self, n: u64) {
        for _ in 0..n {
            self.produce_block();
        }
    }

    /// Produces blocks until the transaction `hash` reaches `level` (at most
    /// [`MAX_WAIT_BLOCKS`]); whether it did.
    pub fn wait_for(&mut self, hash: &CryptoHash, level: Level) -> bool {
        for _ in 0..=MAX_WAIT_BLOCKS {
            match self.transaction(hash) {
                Some(tx) if self.level(tx) >= level => return true,
                Some(_) => self.produce_block(),
                None => return false,
            }
        }
        false
    }

    /// The next block: the submitted transactions in it, then the receipts due.
    fn produce_block(&mut self) {
        let height = self.head + 1;
        self.head = height;
        let mut pool = std::mem::take(&mut self.mempool);
        // A key's transactions in nonce order, as nodes take them from the pool.
        pool.sort_by(|a, b| {
            let (a, b) = (a.signed.transaction(), b.signed.transaction());
            (a.signer_id(), a.public_key().to_string(), a.nonce()).cmp(&(
                b.signer_id(),
                b.public_key().to_string(),
                b.nonce(),
            ))
        });
        // Every transaction first, then the receipts to their own signers (nearcore's
        // local receipts), then those that came from earlier blocks.
        let mut local = Vec::new();
        for pending in pool {
            let before = self.accounts.clone();
            let cause =
                json!({"type": "transaction_processing", "tx_hash": pending.tx.to_string()});
            match self.charge(&pending.signed, true) {
                Ok(charged) => {
                    self.note_changes(&before, cause);
                    local.extend(self.include(pending, charged, height));
                }
                // No longer valid (its nonce taken, its balance spent): dropped.
                Err(_) => self.transactions.retain(|t| t.hash != pending.tx),
            }
        }
        let (due, later): (Vec<_>, Vec<_>) = std::mem::take(&mut self.due)
            .into_iter()
            .partition(|r| r.at <= height);
        self.due = later;
        for receipt in local.into_iter().chain(due) {
            let before = self.accounts.clone();
            let cause =
                json!({"type": "receipt_processing", "receipt_hash": receipt.id.to_string()});
            self.execute(receipt, height);
            self.note_changes(&before, cause);
        }
        self.seal_block(height);
    }

    /// A transaction joins the block at `height`: its outcome, and its receipt, which is
    /// returned when it is to the signer itself (a local receipt, executed in this
    /// block), else due at the next.
    fn include(&mut self, pending: Pending, charged: Charged, height: u64) -> Option<DueReceipt> {
        let tx = pending.signed.transaction();
        let index = self
            .transactions
            .iter()
            .position(|t| t.hash == pending.tx)?;
        let send_gas = charged.send_gas;
        if let Some(error) = charged.deposit_failed {
            // A gas key's transaction whose deposits the account lacked: its gas is
            // burnt, it fails, and no receipt is made.
            self.record(
                pending.tx,
                Outcome {
                    id: pending.tx,
                    height,
                    executor: tx.signer_id().to_string(),
                    status: json!({"Failure": {"InvalidTxError": error}}),
                    receipt_ids: Vec::new(),
                    gas_burnt: send_gas,
                    tokens_burnt: u128::from(send_gas) * GAS_PRICE,
                    logs: Vec::new(),
                },
            );
            return None;
        }
        let receipt_id = self.transactions[index].receipt_id(0);
        let sir = tx.signer_id() == tx.receiver_id();
        let receipt = DueReceipt {
            id: receipt_id,
            tx: pending.tx,
            at: if sir { height } else { height + 1 },
            predecessor: tx.signer_id().to_string(),
            receiver: tx.receiver_id().to_string(),
            signer: tx.signer_id().to_string(),
            signer_key: tx.public_key().clone(),
            gas_price: GAS_PRICE,
            actions: tx.actions().to_vec(),
        };
        self.record(
            pending.tx,
            Outcome {
                id: pending.tx,
                height,
                executor: receipt.signer.clone(),
                status: json!({"SuccessReceiptId": receipt_id.to_string()}),
                receipt_ids: vec![receipt_id],
                gas_burnt: send_gas,
                tokens_burnt: u128::from(send_gas) * GAS_PRICE,
                logs: Vec::new(),
            },
        );
        self.schedule(receipt, height)
    }

    /// Records, for the block being produced, how the state differs from `before`, as
    /// nearcore reports it (`EXPERIMENTAL_changes`): accounts, keys, data and code
    /// updated or deleted, with their cause.
    fn note_changes(&mut self, before: &[Account], cause: Value) {
        let mut changes = Vec::new();
        let mut change = |kind: &str, body: Value| {
            changes.push(json!({"cause": cause, "type": kind, "change": body}));
        };
        let find = |accounts: &[Account], id: &str| accounts.iter().position(|a| a.id == id);
        let mut ids: Vec<&str> = before.iter().map(|a| a.id.as_str()).collect();
        ids.extend(self.accounts.iter().map(|a| a.id.as_str()));
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            let old = find(before, id).map(|i| &before[i]);
            let new = find(&self.accounts, id).map(|i| &self.accounts[i]);
            let Some(new) = new else {
                if let Some(old) = old {
                    change("account_deletion", json!({"account_id": id}));
                    for key in &old.keys {
                        let key = key.public_key.to_string();
                        change(
                            "access_key_deletion",
                            json!({"account_id": id, "public_key": key}),
                        );
                    }
                    for k in old.state.keys() {
                        change(
                            "data_deletion",
                            json!({"account_id": id, "key_base64": crate::chain::b64(k)}),
                        );
                    }
                    if old.code.is_some() {
                        change("contract_code_deletion", json!({"account_id": id}));
                    }
                }
                continue;
            };
            let unchanged = old.is_some_and(|o| {
                o.amount == new.amount
                    && o.locked == new.locked
                    && o.code == new.code
                    && o.storage_usage() == new.storage_usage()
            });
            if !unchanged {
                let mut view = self.account_view(new);
                view["account_id"] = json!(id);
                change("account_update", view);
            }
            for key in &new.keys {
                let was = old.and_then(|o| o.key(&key.public_key));
                let balance = |k: &Key| k.gas_key.as_ref().map(|g| g.balance);
                if was.is_none_or(|w| {
                    w.nonce != key.nonce
                        || w.permission != key.permission
                        || balance(w) != balance(key)
                }) {
                    change(
                        "access_key_update",
                        json!({
                            "account_id": id,
                            "public_key": key.public_key.to_string(),
                            "access_key": self.access_key_view(key)
                        }),
                    );
                }
                // A gas key's nonces are records of their own: each one set is a
                // `gas_key_nonce_update` (nearcore's `StateChangeValue`).
                let Some(gas) = &key.gas_key else { continue };
                let before = was.and_then(|w| w.gas_key.as_ref());
                for (index, nonce) in gas.nonces.iter().enumerate() {
                    if before.and_then(|b| b.nonces.get(index)) != Some(nonce) {
                        change(
                            "gas_key_nonce_update",
                            json!({
                                "account_id": id,
                                "public_key": key.public_key.to_string(),
                                "index": index,
                                "nonce": nonce
                            }),
                        );
                    }
                }
            }
            for key in old.map(|o| o.keys.as_slice()).unwrap_or_default() {
                if new.key(&key.public_key).is_none() {
                    let key = key.public_key.to_string();
                    change(
                        "access_key_deletion",
                        json!({"account_id": id, "public_key": key}),
                    );
                }
            }
            for (k, v) in &new.state {
                if old.and_then(|o| o.state.get(k)) != Some(v) {
                    change(
                        "data_update",
                        json!({
                            "account_id": id,
                            "key_base64": crate::chain::b64(k),
                            "value_base64": crate::chain::b64(v)
                        }),
                    );
                }
            }
            for k in old
                .map(|o| o.state.keys().collect::<Vec<_>>())
                .unwrap_or_default()
            {
                if !new.state.contains_key(k) {
                    change(
                        "data_deletion",
                        json!({"account_id": id, "key_base64": crate::chain::b64(k)}),
                    );
                }
            }
            if new.code.is_some() && old.is_none_or(|o| o.code != new.code) {
                let code = new.code.as_deref().map(crate::chain::b64);
                change(
                    "contract_code_update",
                    json!({"account_id": id, "code_base64": code}),
                );
            }
        }
        self.changing.extend(changes);
    }

    /// Adds a receipt to its transaction; returns it if it is due in this block, else
    /// keeps it for its block.
    pub(super) fn schedule(&mut self, receipt: DueReceipt, height: u64) -> Option<DueReceipt> {
        if let Some(tx) = self.transactions.iter_mut().find(|t| t.hash == receipt.tx) {
            tx.receipts.push(receipt.view());
        }
        if receipt.at <= height {
            return Some(receipt);
        }
        self.due.push(receipt);
        None
    }

    /// Records an outcome of transaction `tx` in the block being produced.
    pub(super) fn record(&mut self, tx: CryptoHash, outcome: Outcome) {
        self.add_leaf(&outcome);
        if let Some(tx) = self.transactions.iter_mut().find(|t| t.hash == tx) {
            tx.outcomes.push(outcome);
        }
    }
}
