//! Schemas that the generator does not render: each maps to a hand-written type in the
//! `near-rpc` crate, for the reason given. The table is the single source of this
//! decision; the IR builder, the emitters and the docs read it.

/// A spec schema replaced by a hand-written Rust type.
#[derive(Debug, Clone, Copy)]
pub struct Replacement {
    /// Schema name in `components.schemas`.
    pub schema: &'static str,
    /// Path of the hand-written type, as generated code names it.
    pub rust_path: &'static str,
    /// Why the schema is not generated.
    pub reason: &'static str,
}

/// Every hand-written replacement.
pub const REPLACEMENTS: &[Replacement] = &[
    Replacement {
        schema: "AccountId",
        rust_path: "crate::AccountId",
        reason: "validated account id from `near-account-id`; the spec only says `string`",
    },
    Replacement {
        schema: "CryptoHash",
        rust_path: "crate::CryptoHash",
        reason: "32 bytes in base58 with Display/FromStr; the spec only says `string`",
    },
    Replacement {
        schema: "NearToken",
        rust_path: "crate::NearToken",
        reason: "yoctoNEAR amount (u128, a string on the wire) from `near-token`",
    },
    Replacement {
        schema: "NearGas",
        rust_path: "crate::NearGas",
        reason: "gas amount, an integer on the wire, wrapping `near-gas` for its units",
    },
    Replacement {
        schema: "PublicKey",
        rust_path: "crate::PublicKey",
        reason: "curve-prefixed key (`ed25519:...`), checked for curve and length",
    },
    Replacement {
        schema: "Signature",
        rust_path: "crate::Signature",
        reason: "curve-prefixed signature, checked for curve and length",
    },
    Replacement {
        schema: "BlockId",
        rust_path: "crate::BlockId",
        reason: "height or hash told apart by JSON type, with a clear error for anything else",
    },
    Replacement {
        schema: "SignedTransaction",
        rust_path: "crate::types::SignedTransaction",
        reason: "base64 checked when encoded and decoded, so that text that is not base64 is \
                 refused before it is sent; the spec only says `string`",
    },
    Replacement {
        schema: "FunctionArgs",
        rust_path: "crate::types::FunctionArgs",
        reason: "base64 checked when encoded and decoded, with `from_bytes`/`to_bytes`; the \
                 spec only says `string`",
    },
    Replacement {
        schema: "RpcTransactionResponse",
        rust_path: "crate::types::RpcTransactionResponse",
        reason: "`final_execution_status` plus an optional outcome; the spec's `anyOf` with an \
                 empty arm would let a broken outcome decode silently as \"no outcome\"",
    },
];

/// The replacement for a schema, if it has one.
pub fn replacement(schema: &str) -> Option<&'static Replacement> {
    REPLACEMENTS.iter().find(|r| r.schema == schema)
}

/// Prefixes of the per-method envelope schemas; they become aliases of the hand-written
/// generic envelope (`crate::envelope::{Request, Response, ErrorWrapper}`), so that
/// 38 requests, 38 responses and their error wrappers share one implementation.
pub const ENVELOPE_PREFIXES: [&str; 3] = [REQUEST_PREFIX, RESPONSE_PREFIX, ERROR_WRAPPER_PREFIX];

/// Prefix of the per-method request envelope schemas.
pub const REQUEST_PREFIX: &str = "JsonRpcRequest_for_";
/// Prefix of the per-method response envelope schemas.
pub const RESPONSE_PREFIX: &str = "JsonRpcResponse_for_";
/// Prefix of the per-method error-object schemas.
pub const ERROR_WRAPPER_PREFIX: &str = "ErrorWrapper_for_";

/// The schema of the `cause` of a `REQUEST_VALIDATION_ERROR`, the same in every
/// `ErrorWrapper_for_*` of nearcore's OpenAPI document.
pub const REQUEST_VALIDATION_CAUSE: &str = "RpcRequestValidationErrorKind";
/// The schema of the `cause` of an `INTERNAL_ERROR`, likewise.
pub const INTERNAL_CAUSE: &str = "InternalError";

/// Whether a spec schema is one of the per-method envelope schemas.
pub fn is_envelope(schema: &str) -> bool {
    ENVELOPE_PREFIXES.iter().any(|p| schema.starts_with(p))
}
