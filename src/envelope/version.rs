//! The `"jsonrpc": "2.0"` member shared by requests and responses: the version written.
//! Reading it is the envelope decoder's (`src/de/native/envelope.rs`).

/// The only protocol version accepted and written.
pub(crate) const VERSION: &str = "2.0";
