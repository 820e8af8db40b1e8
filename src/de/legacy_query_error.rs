//! Query errors that old nodes report inside a successful `result`
//! (`{"error": "account x does not exist while viewing", "logs": [], ...}`), typed as the
//! [`RpcQueryError`] a current node would send, so that a `query` answer carrying an
//! error is never mistaken for a success.
//!
//! nearcore wrote these texts in `chain/jsonrpc` before typed errors existed; recognised
//! are the missing account, access key and contract code, and a failed contract call
//! (its `FunctionCallError` is read back from Rust's `Debug` text). Any other text
//! becomes [`RpcQueryError::Unknown`] holding `{"error": text}`.

use serde_json::{Map, Value};

use crate::generated::types::{
    FunctionCallError, RpcQueryError, RpcQueryResponse, RpcQueryResponseKind,
};
use crate::primitives::CryptoHash;
use crate::primitives::PublicKey;
use near_account_id::AccountId;

impl RpcQueryResponse {
    /// The error a legacy node reported inside `result`, typed, with the node's text.
    /// `None` when the answer is a view.
    pub fn legacy_error(&self) -> Option<(RpcQueryError, &str)> {
        let RpcQueryResponseKind::LegacyError { error, .. } = &self.kind else {
            return None;
        };
        Some((
            legacy_cause(error, self.block_height, self.block_hash),
            error,
        ))
    }
}

fn legacy_cause(text: &str, block_height: u64, block_hash: CryptoHash) -> RpcQueryError {
    let between = |prefix: &str, suffix: &str| {
        text.strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(suffix))
    };
    const MISSING: &str = " does not exist while viewing";
    if let Some(account) = between("account ", MISSING).and_then(|a| a.parse::<AccountId>().ok()) {
        return RpcQueryError::UnknownAccount {
            block_hash,
            block_height,
            requested_account_id: account,
        };
    }
    if let Some(key) = between("access key ", MISSING).and_then(|k| k.parse::<PublicKey>().ok()) {
        return RpcQueryError::UnknownAccessKey {
            block_hash,
            block_height,
            public_key: key,
        };
    }
    if let Some(account) =
        between("contract code of account ", MISSING).and_then(|a| a.parse::<AccountId>().ok())
    {
        return RpcQueryError::NoContractCode {
            block_hash,
            block_height,
            contract_account_id: account,
        };
    }
    if let Some(vm_error) = text.strip_prefix("wasm execution failed with error: ") {
        return RpcQueryError::ContractExecutionError {
            block_hash,
            block_height,
            error: function_call_error(vm_error),
            vm_error: vm_error.to_owned(),
        };
    }
    let mut raw = Map::new();
    raw.insert("error".into(), Value::String(text.to_owned()));
    RpcQueryError::Unknown(Value::Object(raw))
}

/// `FunctionCallError(HostError(GuestPanic { panic_msg: "x" }))` read as the JSON nearcore
/// would send for it; text that is not such a value is kept as `ExecutionError(text)`.
fn function_call_error(text: &str) -> FunctionCallError {
    let parsed = DebugText::new(text).whole().and_then(|value| match value {
        Value::Object(mut map) if map.len() == 1 => map.remove("FunctionCallError"),
        _ => None,
    });
    parsed
        .and_then(|json| serde_json::to_vec(&json).ok())
        .and_then(|bytes| crate::de::native::from_slice(&bytes).ok())
        .unwrap_or_else(|| FunctionCallError::ExecutionError(text.to_owned()))
}

/// A reader of Rust's derived `Debug` output, as serde's externally tagged JSON:
/// `A` → `"A"`, `A(x)` → `{"A": x}`, `A(x, y)` → `{"A": [x, y]}`,
/// `A { f: x }` → `{"A": {"f": x}}`, `Some(x)` → `x`, `None` → `null`.
struct DebugText<'a> {
    text: &'a str,
}

impl<'a> DebugText<'a> {
    fn new(text: &'a str) -> Self {
        Self { text }
    }

    fn whole(mut self) -> Option<Value> {
        let value = self.value()?;
        self.text.trim().is_empty().then_some(value)
    }

    fn eat(&mut self, token: char) -> bool {
        self.text = self.text.trim_start();
        match self.text.strip_prefix(token) {
            Some(rest) => {
                self.text = rest;
                true
            }
            None => false,
        }
    }

    fn ident(&mut self) -> Option<&'a str> {
        self.text = self.text.trim_start();
        let end = self
            .text
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(self.text.len());
        let (ident, rest) = self.text.split_at(end);
        self.text = rest;
        (!ident.is_empty()).then_some(ident)
    }

    fn value(&mut self) -> Option<Value> {
        self.text = self.text.trim_start();
        if self.eat('"') {
            return self.string();
        }
        if self.eat('[') {
            return self.list(']').map(Value::Array);
        }
        let ident = self.ident()?;
        if let Ok(number) = ident.parse::<u64>() {
            return Some(number.into());
        }
        if self.eat('(') {
            let mut items = self.list(')')?;
            return Some(match (ident, items.len()) {
                ("Some", 1) => items.remove(0),
                (_, 1) => tagged(ident, items.remove(0)),
                _ => tagged(ident, Value::Array(items)),
            });
        }
        if self.eat('{') {
            let mut fields = Map::new();
            while !self.eat('}') {
                let name = self.ident()?;
                if !self.eat(':') {
                    return None;
                }
                fields.insert(name.to_owned(), self.value()?);
                self.eat(',');
            }
            return Some(tagged(ident, Value::Object(fields)));
        }
        Some(match ident {
            "None" => Value::Null,
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => Value::String(ident.to_owned()),
        })
    }

    fn list(&mut self, close: char) -> Option<Vec<Value>> {
        let mut items = Vec::new();
        while !self.eat(close) {
            items.push(self.value()?);
            if !self.eat(',') && !self.text.trim_start().starts_with(close) {
                return None;
            }
        }
        Some(items)
    }

    /// The rest of a string literal whose opening quote was read.
    fn string(&mut self) -> Option<Value> {
        let mut out = String::new();
        let mut chars = self.text.char_indices();
        while let Some((at, c)) = chars.next() {
            match c {
                '"' => {
                    self.text = &self.text[at + 1..];
                    return Some(Value::String(out));
                }
                '\\' => match chars.next()?.1 {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    '0' => out.push('\0'),
                    other => out.push(other),
                },
                c => out.push(c),
            }
        }
        None
    }
}

fn tagged(tag: &str, value: Value) -> Value {
    let mut map = Map::new();
    map.insert(tag.to_owned(), value);
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generated::types::{HostError, MethodResolveError};

    fn hash() -> CryptoHash {
        CryptoHash([7; 32])
    }

    #[test]
    fn missing_account_key_and_code_are_typed() {
        let cause = legacy_cause("account alice.near does not exist while viewing", 5, hash());
        assert!(matches!(
            cause,
            RpcQueryError::UnknownAccount { ref requested_account_id, block_height: 5, .. }
                if requested_account_id == "alice.near"
        ));
        let key = "ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW";
        let cause = legacy_cause(
            &format!("access key {key} does not exist while viewing"),
            5,
            hash(),
        );
        assert!(matches!(
            cause,
            RpcQueryError::UnknownAccessKey { ref public_key, .. } if public_key.to_string() == key
        ));
        let cause = legacy_cause(
            "contract code of account bob.near does not exist while viewing",
            5,
            hash(),
        );
        assert!(matches!(cause, RpcQueryError::NoContractCode { .. }));
    }

    #[test]
    fn failed_calls_keep_their_function_call_error() {
        let cause = legacy_cause(
            "wasm execution failed with error: FunctionCallError(MethodResolveError(MethodNotFound))",
            5,
            hash(),
        );
        let RpcQueryError::ContractExecutionError {
            error, vm_error, ..
        } = cause
        else {
            panic!("{cause:?}")
        };
        assert_eq!(
            error,
            FunctionCallError::MethodResolveError(MethodResolveError::MethodNotFound)
        );
        assert!(vm_error.starts_with("FunctionCallError("));
        let panicked = r#"FunctionCallError(HostError(GuestPanic { panic_msg: "no \"x\" here" }))"#;
        assert_eq!(
            function_call_error(panicked),
            FunctionCallError::HostError(HostError::GuestPanic {
                panic_msg: "no \"x\" here".into()
            })
        );
        // Text that is not a Debug value is kept whole.
        for odd in [
            "FunctionCallError(",
            "something else",
            "FunctionCallError(A) trailing",
        ] {
            assert_eq!(
                function_call_error(odd),
                FunctionCallError::ExecutionError(odd.into())
            );
        }
    }

    #[test]
    fn unrecognised_text_is_unknown_with_the_text() {
        let cause = legacy_cause("the node is on fire", 5, hash());
        assert_eq!(
            cause,
            RpcQueryError::Unknown(serde_json::json!({"error": "the node is on fire"}))
        );
        // A name that does not parse as an account is not guessed at.
        let cause = legacy_cause(
            "account Not An Account does not exist while viewing",
            5,
            hash(),
        );
        assert!(matches!(cause, RpcQueryError::Unknown(_)));
    }
}
