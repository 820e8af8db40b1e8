//! The chosen spec version's generated bindings (build.rs picks `generated/vX_Y_Z/`, or
//! writes them to `OUT_DIR`), included as modules. The public modules are composed above
//! them: `types.rs` adds the hand-written types, `methods.rs` the `RpcMethod` trait,
//! `schemas.rs` the `SchemaVisitor` trait.

// For the method docs' links (`super::envelope::UntypedCause`, written so that they
// resolve in the golden crates' layout too).
#[allow(unused_imports)]
use crate::envelope;

/// The generated types (`crate::types` adds the hand-written ones, `crate::replaced`).
#[allow(missing_docs, clippy::all)]
pub mod types {
    // The chosen spec version's bindings (build.rs: `generated/vX_Y_Z/`, or `OUT_DIR`).
    include!(concat!(env!("NEAR_RPC_GENERATED"), "/types.rs"));
    include!(concat!(env!("NEAR_RPC_GENERATED"), "/enums.rs"));
    include!(concat!(env!("NEAR_RPC_GENERATED"), "/flattened.rs"));
    include!(concat!(env!("NEAR_RPC_GENERATED"), "/aliases.rs"));

    /// The spec's per-method JSON-RPC envelopes (`JsonRpcRequest_for_*`,
    /// `JsonRpcResponse_for_*`, `ErrorWrapper_for_*`), each an alias of the generic
    /// [`Request`](crate::envelope::Request), [`Response`](crate::envelope::Response) or
    /// [`SpecErrorWrapper`] (the generic [`ErrorWrapper`](crate::envelope::ErrorWrapper)
    /// with the spec's request-validation and internal causes).
    pub mod envelope {
        use super::*;

        include!(concat!(env!("NEAR_RPC_GENERATED"), "/envelope.rs"));
    }
}

/// The spec's method markers (generated); [`crate::methods`] adds the trait they
/// implement and re-exports them.
#[allow(missing_docs)]
pub mod methods {
    include!(concat!(env!("NEAR_RPC_GENERATED"), "/methods.rs"));
}

/// Every schema of the spec by name (generated); [`crate::schemas`] adds
/// `SchemaVisitor` and re-exports it.
pub mod schemas {
    include!(concat!(env!("NEAR_RPC_GENERATED"), "/schemas.rs"));
}

pub mod spec {
    include!(concat!(env!("NEAR_RPC_GENERATED"), "/spec.rs"));
}
