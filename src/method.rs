//! The trait every generated method stub implements.

use serde::de::DeserializeOwned;
use serde::Serialize;

/// One JSON-RPC method of the NEAR API: its name and the types of its params, result and
/// handler error.
///
/// Each method of the spec has a marker type in [`crate::methods`] implementing this
/// trait, so one generic call serves all of them:
///
/// ```
/// use near_rpc::{methods, RpcMethod};
///
/// fn describe<M: RpcMethod>() -> &'static str {
///     M::NAME
/// }
/// assert_eq!(describe::<methods::ExperimentalTxStatus>(), "EXPERIMENTAL_tx_status");
/// ```
pub trait RpcMethod {
    /// The JSON-RPC method name, e.g. `"block"`.
    const NAME: &'static str;
    /// The `params` of a request.
    type Params: Serialize + DeserializeOwned;
    /// The `result` of a successful response.
    type Result: Serialize + DeserializeOwned;
    /// The `cause` of a `HANDLER_ERROR` response.
    type Error: Serialize + DeserializeOwned;
}
