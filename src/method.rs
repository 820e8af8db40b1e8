//! The trait every generated method stub implements.

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::de::native::Decode;

/// One JSON-RPC method of the NEAR API: its name and the types of its params, result and
/// handler error.
///
/// Each method of the spec has a marker type in [`crate::methods`] implementing this
/// trait, so one generic call serves all of them:
///
/// ```
/// use near_rpc::methods::{self, RpcMethod};
///
/// fn describe<M: RpcMethod>() -> &'static str {
///     M::NAME
/// }
/// assert_eq!(describe::<methods::ExperimentalTxStatusMethod>(), "EXPERIMENTAL_tx_status");
/// ```
pub trait RpcMethod {
    /// The JSON-RPC method name, e.g. `"block"`.
    const NAME: &'static str;
    /// Whether the method submits a transaction (`send_tx`, `broadcast_tx_*`): sending
    /// it twice could submit it twice, so the client never retries or fails it over once
    /// bytes may have reached a node. Generated from the spec: the params require a
    /// signed transaction.
    const SUBMITS_TRANSACTION: bool;
    /// The `params` of a request. Decodable by the crate's decoder too, for input a user
    /// wrote ([`decode::from_value_strict`](crate::decode::from_value_strict)).
    type Params: Serialize + DeserializeOwned + std::fmt::Debug + Decode;
    /// The `result` of a successful response. Decoded by the crate's decoder
    /// ([`Decode`]): every generated type has it, and a type of your own gets it from
    /// its serde `Deserialize` with [`decode_with_serde!`](crate::decode_with_serde).
    type Result: Serialize + DeserializeOwned + std::fmt::Debug + Decode;
    /// The `cause` of a `HANDLER_ERROR` response (decoded like the result).
    type Error: Serialize + DeserializeOwned + std::fmt::Debug + Decode;

    /// Decodes a whole response body to this method, reporting the JSON path of a
    /// failure (as [`decode::from_slice`](crate::decode::from_slice) does).
    ///
    /// This is the way to decode that is cheapest to compile and to run: for the methods
    /// in [`crate::methods`] it is compiled once, inside near-rpc, so a crate calling it
    /// compiles no decoding code of its own, and it reads the body once, whereas
    /// `from_slice::<T>` in a user's crate compiles serde's visitors for the envelope
    /// there and transcribes the payload before decoding it. The client decodes through
    /// it.
    ///
    /// ```
    /// use near_rpc::methods::{GasPriceMethod, RpcMethod};
    ///
    /// let body = br#"{"jsonrpc":"2.0","id":"1","result":{"gas_price":"100000000"}}"#;
    /// let response = GasPriceMethod::decode_response(body).unwrap();
    /// assert_eq!(response.payload.unwrap().gas_price.as_yoctonear(), 100_000_000);
    ///
    /// let err = GasPriceMethod::decode_response(br#"{"jsonrpc":"2.0","id":"1","result":{"gas_price":7}}"#)
    ///     .unwrap_err();
    /// assert_eq!(err.path(), "result.gas_price");
    /// ```
    fn decode_response(body: &[u8]) -> Result<EnvelopeOf<Self>, crate::de::decode::DecodeError>
    where
        Self: Sized,
    {
        crate::de::native::from_slice(body)
    }

    /// Encodes a request for this method with the given id (a string, as nodes echo it).
    /// Like [`RpcMethod::decode_response`], compiled inside near-rpc for the methods in
    /// [`crate::methods`].
    fn encode_request(id: u64, params: &Self::Params) -> Result<Vec<u8>, serde_json::Error>
    where
        Self: Sized,
    {
        encode_request(Self::NAME, id, params)
    }
}

/// A request body for `method`, with the id as a string (nodes echo it as sent).
pub fn encode_request<P: Serialize>(
    method: &'static str,
    id: u64,
    params: &P,
) -> Result<Vec<u8>, serde_json::Error> {
    serde_json::to_vec(&crate::envelope::Request::new(method, params).with_id(id.to_string()))
}

/// A whole decoded response to method `M`: the echoed id, and the result or the error
/// (what [`RpcMethod::decode_response`] returns).
pub type EnvelopeOf<M> =
    crate::envelope::Response<ResponseOf<M>, crate::generated::types::SpecErrorWrapper<ErrorOf<M>>>;

/// Something to do with a method chosen by name at run time (see
/// [`methods::visit`](crate::methods::visit)).
///
/// ```
/// use near_rpc::methods::{self, MethodVisitor, RpcMethod};
///
/// struct Name;
/// impl MethodVisitor for Name {
///     type Output = &'static str;
///     fn visit<M: RpcMethod>(self) -> &'static str {
///         M::NAME
///     }
/// }
/// assert_eq!(methods::visit("block", Name), Some("block"));
/// assert_eq!(methods::visit("no_such_method", Name), None);
/// ```
pub trait MethodVisitor {
    /// What the visit returns.
    type Output;
    /// Called with the chosen method.
    fn visit<M: RpcMethod>(self) -> Self::Output;
}

/// The params type of method `M`: `ParamsOf<methods::BlockMethod>` is `RpcBlockRequest`.
pub type ParamsOf<M> = <M as RpcMethod>::Params;
/// The result type of method `M`: `ResponseOf<methods::BlockMethod>` is
/// `RpcBlockResponse`.
pub type ResponseOf<M> = <M as RpcMethod>::Result;
/// The handler error (the `cause` of a `HANDLER_ERROR`) of method `M`:
/// `ErrorOf<methods::QueryMethod>` is `RpcQueryError`.
pub type ErrorOf<M> = <M as RpcMethod>::Error;

/// Something to do with a schema's Rust type chosen by the schema's name at run time (see
/// [`schemas::visit`](crate::schemas::visit)): decoding a body by schema name, say.
///
/// ```
/// use near_rpc::schemas::{self, SchemaVisitor};
///
/// struct Decodes<'a>(&'a str);
/// impl SchemaVisitor for Decodes<'_> {
///     type Output = bool;
///     fn visit<T: serde::de::DeserializeOwned + serde::Serialize>(self) -> bool {
///         serde_json::from_str::<T>(self.0).is_ok()
///     }
/// }
/// assert_eq!(schemas::visit("Finality", Decodes(r#""final""#)), Some(true));
/// assert_eq!(schemas::visit("NoSuchSchema", Decodes("1")), None);
/// ```
pub trait SchemaVisitor {
    /// What the visit returns.
    type Output;
    /// Called with the schema's Rust type.
    fn visit<T: DeserializeOwned + Serialize>(self) -> Self::Output;
}
