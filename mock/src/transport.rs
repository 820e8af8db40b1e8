//! The node as a near-rpc [`Transport`]: the same handler as the HTTP server, with the
//! wire-level shapes turned into what the HTTP transport would have reported.

use near_rpc::client::transport::{
    HeaderMap, HeaderName, HttpResponse, RpcRequest, Transport, TransportError, TransportErrorKind,
    TransportFuture,
};

use crate::node::MockNode;
use crate::wire::RawRequest;
use crate::wire::Shape;

impl Transport for MockNode {
    fn send(&self, request: RpcRequest) -> TransportFuture<'_> {
        Box::pin(async move {
            let reply = self
                .handle(RawRequest {
                    http_method: String::new(),
                    path: "/".into(),
                    headers: Vec::new(),
                    body: request.body.to_vec(),
                })
                .await;
            if !reply.delay.is_zero() {
                tokio::time::sleep(reply.delay).await;
            }
            let fail = |kind, message: &str| Err(TransportError::new("mock", kind, message));
            match reply.shape {
                Shape::Drop => return fail(TransportErrorKind::Connection, "connection closed"),
                Shape::Truncated => {
                    return fail(TransportErrorKind::Connection, "the body was cut short")
                }
                Shape::Raw => return fail(TransportErrorKind::Connection, "not an HTTP response"),
                Shape::Endless => {
                    let limit = request.max_response_bytes;
                    let kind = TransportErrorKind::TooLarge { status: 200, limit };
                    return fail(kind, "");
                }
                Shape::Normal | Shape::KeepId => {}
            }
            if reply.body.len() > request.max_response_bytes {
                let kind = TransportErrorKind::TooLarge {
                    status: reply.status,
                    limit: request.max_response_bytes,
                };
                return fail(kind, "");
            }
            let mut headers = HeaderMap::new();
            for (name, value) in &reply.headers {
                // A header HTTP could not carry would not have reached a client either.
                if let (Ok(name), Ok(value)) =
                    (HeaderName::from_bytes(name.as_bytes()), value.parse())
                {
                    headers.append(name, value);
                }
            }
            Ok(HttpResponse {
                endpoint: "mock".into(),
                endpoint_index: 0,
                status: reply.status,
                headers,
                body: reply.body,
            })
        })
    }

    fn describe(&self) -> String {
        "mock".into()
    }
}
