//! Contracts on the mock chain, written in Rust: a [`Contract`] is a set of methods, each
//! a closure over a [`Call`] (signer, predecessor, attached deposit, arguments, the
//! contract's state, logs). The mock runs no Wasm: a contract is deployed as a few bytes
//! of code that name it ([`Contract::code`]), and a call runs the Rust method registered
//! for that code. Promises (cross-contract calls) are not supported.
//!
//! `contract.mock` runs NEAR's canonical status-message contract ([`status_message`]).

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Arc;

use near_rpc::{CryptoHash, NearToken};
use serde_json::Value;

/// What one method does with a call: `Ok(return value)` or `Err(panic message)`.
pub type MethodResult = Result<Vec<u8>, String>;

/// A method of a contract.
pub(crate) type Method = Arc<dyn Fn(&mut Call<'_>) -> MethodResult + Send + Sync>;

/// A contract: a name (which makes its code) and its methods.
#[derive(Clone)]
pub struct Contract {
    name: String,
    methods: HashMap<String, Method>,
}

impl fmt::Debug for Contract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut methods: Vec<&String> = self.methods.keys().collect();
        methods.sort();
        f.debug_struct("Contract")
            .field("name", &self.name)
            .field("methods", &methods)
            .finish()
    }
}

impl Contract {
    /// A contract without methods yet. Its `name` makes its code, so two contracts with
    /// the same name are the same contract to the chain.
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            methods: HashMap::new(),
        }
    }

    /// Adds a method. A view call (`query` `call_function`) may run it too, and fails if
    /// it writes state, as nearcore's views do.
    pub fn method(
        mut self,
        name: &str,
        method: impl Fn(&mut Call<'_>) -> MethodResult + Send + Sync + 'static,
    ) -> Self {
        self.methods.insert(name.to_owned(), Arc::new(method));
        self
    }

    /// The contract's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The code that deploys it: a Wasm header and a custom section naming the contract.
    /// Deploy these bytes (a `DeployContract` action, or
    /// [`Chain::deploy`](crate::Chain::deploy)) to run it.
    pub fn code(&self) -> Vec<u8> {
        let mut code = b"\0asm\x01\0\0\0".to_vec();
        let name = format!("near-rpc-mock contract {}", self.name);
        // A custom section (id 0): its size, the name's length, the name.
        let section_name = b"name";
        let payload_len = 1 + section_name.len() + name.len();
        code.push(0);
        leb128(&mut code, payload_len as u64);
        leb128(&mut code, section_name.len() as u64);
        code.extend_from_slice(section_name);
        code.extend_from_slice(name.as_bytes());
        code
    }

    /// The hash of [`Contract::code`].
    pub fn code_hash(&self) -> CryptoHash {
        CryptoHash::hash_bytes(&self.code())
    }

    pub(crate) fn get(&self, method: &str) -> Option<Method> {
        self.methods.get(method).cloned()
    }
}

fn leb128(out: &mut Vec<u8>, mut n: u64) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// One call of a contract method: who called, with what, and the contract's state.
#[derive(Debug)]
pub struct Call<'a> {
    pub(crate) contract: &'a str,
    pub(crate) signer: &'a str,
    pub(crate) predecessor: &'a str,
    pub(crate) deposit: u128,
    pub(crate) args: &'a [u8],
    pub(crate) view: bool,
    pub(crate) state: &'a mut BTreeMap<Vec<u8>, Vec<u8>>,
    pub(crate) logs: Vec<String>,
    pub(crate) wrote_in_view: bool,
    pub(crate) bytes_written: u64,
}

impl Call<'_> {
    /// The contract's account.
    pub fn current_account(&self) -> &str {
        self.contract
    }

    /// Who signed the transaction (in a view, the contract itself).
    pub fn signer(&self) -> &str {
        self.signer
    }

    /// Who called (the signer for a call from a transaction).
    pub fn predecessor(&self) -> &str {
        self.predecessor
    }

    /// The tokens attached (zero in a view).
    pub fn attached_deposit(&self) -> NearToken {
        NearToken::from_yoctonear(self.deposit)
    }

    /// Whether this is a view call, which may not change state.
    pub fn is_view(&self) -> bool {
        self.view
    }

    /// The arguments, as sent.
    pub fn args(&self) -> &[u8] {
        self.args
    }

    /// The arguments read as JSON; a panic message naming the problem if they are not.
    pub fn json_args(&self) -> Result<Value, String> {
        serde_json::from_slice(self.args)
            .map_err(|e| format!("Failed to deserialize input from JSON.: {e}"))
    }

    /// A value of the contract's state.
    pub fn read(&self, key: &[u8]) -> Option<&[u8]> {
        self.state.get(key).map(Vec::as_slice)
    }

    /// Writes a value of the contract's state (refused in a view: the call fails with
    /// nearcore's `ProhibitedInView`).
    pub fn write(&mut self, key: &[u8], value: &[u8]) {
        if self.view {
            self.wrote_in_view = true;
            return;
        }
        self.bytes_written += (key.len() + value.len()) as u64;
        self.state.insert(key.to_vec(), value.to_vec());
    }

    /// Removes a value of the contract's state (refused in a view, as [`Call::write`]).
    pub fn remove(&mut self, key: &[u8]) {
        if self.view {
            self.wrote_in_view = true;
            return;
        }
        self.state.remove(key);
    }

    /// Logs a line (the outcome's `logs`, or the view's).
    pub fn log(&mut self, line: impl Into<String>) {
        self.logs.push(line.into());
    }
}

/// NEAR's canonical status-message contract: `set_status({"message": string})` stores
/// the message under the signer's account id; `get_status({"account_id": string})`
/// returns it as a JSON string, or `null`.
pub fn status_message() -> Contract {
    Contract::new("status-message")
        .method("set_status", |call| {
            let args = call.json_args()?;
            let message = args["message"]
                .as_str()
                .ok_or("Failed to deserialize input from JSON.: missing field `message`")?
                .to_owned();
            let key = call.signer().as_bytes().to_vec();
            call.log(format!(
                "{} set_status with message {message}",
                call.signer()
            ));
            call.write(&key, message.as_bytes());
            Ok(Vec::new())
        })
        .method("get_status", |call| {
            let args = call.json_args()?;
            let account = args["account_id"]
                .as_str()
                .ok_or("Failed to deserialize input from JSON.: missing field `account_id`")?;
            let status = call
                .read(account.as_bytes())
                .map(|m| Value::String(String::from_utf8_lossy(m).into_owned()))
                .unwrap_or(Value::Null);
            call.log(format!("get_status for account_id {account}"));
            Ok(status.to_string().into_bytes())
        })
}
