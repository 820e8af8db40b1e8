//! [`NodeInfo`]: which node answers, next to which spec the bindings were generated from,
//! and whether the node says things the bindings don't know.

use std::fmt;

use crate::de::decode::{self, Unrecognized};
use crate::envelope::Response;
use crate::generated::spec::SPEC_VERSION;
use crate::methods::RpcMethod;
use crate::methods::StatusMethod;
use crate::types::RpcStatusResponse;
use crate::types::SpecErrorWrapper;

/// The node's version and protocol, and the bindings' spec version, from `status`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeInfo {
    /// The node's nearcore version (`2.7.0`).
    pub node_version: String,
    /// Its build (`crates-0.28.0`, a git describe).
    pub build: String,
    /// Its commit, when the node says.
    pub commit: Option<String>,
    /// The protocol version the chain runs.
    pub protocol_version: u32,
    /// The newest protocol version the node supports.
    pub latest_protocol_version: u32,
    /// The chain (`mainnet`, `testnet`, ...).
    pub chain_id: String,
    /// The nearcore OpenAPI spec version the bindings were generated from.
    pub bindings_spec: &'static str,
    /// What the node's `status` answer had that the bindings don't know.
    pub unrecognized: Unrecognized,
}

impl NodeInfo {
    pub(super) fn new(status: RpcStatusResponse, body: &[u8]) -> Self {
        type StatusResponse = Response<
            <StatusMethod as RpcMethod>::Result,
            SpecErrorWrapper<<StatusMethod as RpcMethod>::Error>,
        >;
        // The body decoded once already; this pass only lists what it did not know.
        let unrecognized = decode::from_slice_reporting::<StatusResponse>(body)
            .map(|(_, unrecognized)| unrecognized)
            .unwrap_or_default();
        Self {
            node_version: status.version.version,
            build: status.version.build,
            commit: status.version.commit,
            protocol_version: status.protocol_version,
            latest_protocol_version: status.latest_protocol_version,
            chain_id: status.chain_id,
            bindings_spec: SPEC_VERSION,
            unrecognized,
        }
    }

    /// Whether the node's `status` had variants or fields the bindings don't know: the
    /// node is newer than the spec this crate was generated from, or sends what the spec
    /// leaves out. (The spec names no node or protocol version to compare with, so the
    /// answer itself is the evidence.)
    pub fn has_unrecognized(&self) -> bool {
        !self.unrecognized.is_empty()
    }

    /// One line on whether the bindings keep up with the node.
    pub fn verdict(&self) -> String {
        let spec = self.bindings_spec;
        if self.has_unrecognized() {
            let count = self.unrecognized.variants.len() + self.unrecognized.fields.len();
            format!(
                "the bindings (spec {spec}) don't know {count} field(s) or variant(s) of the \
                 node's status: a newer node, or what the spec leaves out \
                 (`unrecognized` lists them)"
            )
        } else {
            format!("the bindings (spec {spec}) know everything in the node's status")
        }
    }
}

impl fmt::Display for NodeInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} node {} (build {}), protocol {} (supports up to {}); {}",
            self.chain_id,
            self.node_version,
            self.build,
            self.protocol_version,
            self.latest_protocol_version,
            self.verdict()
        )
    }
}
