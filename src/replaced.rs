//! The hand-written types that stand for spec schemas, listed once. The generator's
//! table (`near-rpc-codegen`'s `handwritten::REPLACEMENTS`) says which schema each
//! replaces and why; generated code names them at the crate root. The root, `types` and
//! the root generated code compiles against (`__generated_root`) all re-export
//! [`all`], and a test holds it equal to the generator's.

/// Re-exports each type in [`all`] and lists its name in [`NAMES`].
macro_rules! replaced {
    ($($($segment:ident)::+),+ $(,)?) => {
        /// The types, for glob re-exports.
        pub mod all {
            $(pub use $($segment)::+;)+
        }

        /// The names of the types re-exported here, as the generator's table names
        /// their schemas.
        #[doc(hidden)]
        pub const NAMES: &[&str] = &[$(replaced!(@last $($segment)::+)),+];
    };
    (@last $first:ident $(:: $rest:ident)*) => {
        replaced!(@last_of $first $($rest)*)
    };
    (@last_of $last:ident) => { stringify!($last) };
    (@last_of $skip:ident $($rest:ident)+) => { replaced!(@last_of $($rest)+) };
}

replaced! {
    near_account_id::AccountId,
    crate::primitives::CryptoHash,
    near_token::NearToken,
    crate::primitives::NearGas,
    crate::primitives::PublicKey,
    crate::primitives::Signature,
    crate::primitives::BlockId,
    crate::primitives::SignedTransaction,
    crate::primitives::FunctionArgs,
    crate::de::tx_response::RpcTransactionResponse,
}
