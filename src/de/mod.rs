//! Decoding support behind the generated types, one concern per file. Generated code
//! reaches it through `near_rpc::__private` (see `src/private.rs`); the rest of the
//! crate uses it directly.

pub mod fields;
pub mod locate;
pub mod mode;
pub mod native;
pub mod open_enum;
pub mod paths;
pub mod via_native;
