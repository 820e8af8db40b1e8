//! The hand-written types that stand for spec schemas, listed once. The generator's
//! table (`near-rpc-codegen`'s `handwritten::REPLACEMENTS`) says which schema each
//! replaces and why; generated code names each at its one public path: the domain types
//! at the crate root ([`root`]), the others in `types` ([`types`]). The crate root,
//! `types` and what generated code compiles against (`__generated_root`) re-export these
//! lists, and a test holds [`NAMES`] equal to the generator's table.

/// Re-exports each type of a list in a module of its own, and lists every name, with the
/// path generated code names it by, in [`NAMES`].
macro_rules! replaced {
    ($(mod $module:ident at $at:literal { $($($segment:ident)::+),+ $(,)? })+) => {
        $(
            #[doc = concat!("The types generated code names at `", $at, "`, for glob re-exports.")]
            pub mod $module {
                $(pub use $($segment)::+;)+
            }
        )+

        /// Each type's name, as the generator's table names its schema, and the path
        /// generated code names it by.
        pub const NAMES: &[(&str, &str)] = &[
            $($((replaced!(@last $($segment)::+), concat!($at, replaced!(@last $($segment)::+))),)+)+
        ];
    };
    (@last $first:ident $(:: $rest:ident)*) => {
        replaced!(@last_of $first $($rest)*)
    };
    (@last_of $last:ident) => { stringify!($last) };
    (@last_of $skip:ident $($rest:ident)+) => { replaced!(@last_of $($rest)+) };
}

replaced! {
    mod root at "crate::" {
        near_account_id::AccountId,
        crate::primitives::CryptoHash,
        near_token::NearToken,
        crate::primitives::NearGas,
        crate::primitives::PublicKey,
        crate::primitives::Signature,
        crate::primitives::BlockId,
    }
    mod types at "crate::types::" {
        crate::primitives::SignedTransaction,
        crate::primitives::FunctionArgs,
        crate::de::tx_response::RpcTransactionResponse,
    }
}
