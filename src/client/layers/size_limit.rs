//! Request and response size limits. The response limit travels down in
//! [`RpcRequest::max_response_bytes`], so the HTTP transport stops reading as soon as a
//! body passes it (a body over the limit is never buffered whole); this layer checks it
//! again on the way up, for transports that ignore it.

use super::super::transport::{BoxTransport, HttpResponse, RpcRequest, Transport};
use super::super::transport::{TransportError, TransportErrorKind, TransportFuture};
use crate::client::redact::Secrets;

/// The default largest request body: nearcore's own default JSON payload limit (10 MiB).
pub const DEFAULT_MAX_REQUEST_BYTES: usize = 10 * 1024 * 1024;

/// The size-limit layer.
#[derive(Debug)]
pub struct SizeLimit {
    inner: BoxTransport,
    max_request_bytes: usize,
    max_response_bytes: usize,
}

impl SizeLimit {
    /// Limits what goes to and comes from `inner`.
    pub fn new(inner: BoxTransport, max_request_bytes: usize, max_response_bytes: usize) -> Self {
        Self {
            inner,
            max_request_bytes,
            max_response_bytes,
        }
    }

    async fn send_limited(&self, mut request: RpcRequest) -> Result<HttpResponse, TransportError> {
        let error = |kind| TransportError::new(self.inner.describe(), kind, "");
        if request.body.len() > self.max_request_bytes {
            return Err(error(TransportErrorKind::RequestTooLarge {
                size: request.body.len(),
                limit: self.max_request_bytes,
            }));
        }
        request.max_response_bytes = self.max_response_bytes;
        let response = self.inner.send(request).await?;
        if response.body.len() > self.max_response_bytes {
            return Err(error(TransportErrorKind::TooLarge {
                status: response.status,
                limit: self.max_response_bytes,
            }));
        }
        Ok(response)
    }
}

impl Transport for SizeLimit {
    fn send(&self, request: RpcRequest) -> TransportFuture<'_> {
        Box::pin(self.send_limited(request))
    }

    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn secrets(&self) -> Secrets {
        self.inner.secrets()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::test_support::{block_on, read, RESULT};
    use super::*;
    use crate::client::transport::{MockReply, MockTransport};

    #[test]
    fn oversized_requests_are_never_sent() {
        let mock = MockTransport::new("m", [MockReply::json(RESULT)]);
        let layer = SizeLimit::new(Arc::new(mock.clone()), 1, 1000);
        let error = block_on(layer.send(read())).unwrap_err();
        assert!(matches!(
            error.kind,
            TransportErrorKind::RequestTooLarge { size: 2, limit: 1 }
        ));
        assert!(mock.requests().is_empty());
    }

    #[test]
    fn the_limit_reaches_the_transport_and_is_checked_again() {
        let mock = MockTransport::new("m", [MockReply::json(RESULT)]);
        let layer = SizeLimit::new(Arc::new(mock.clone()), 1000, 10);
        let error = block_on(layer.send(read())).unwrap_err();
        assert!(matches!(
            error.kind,
            TransportErrorKind::TooLarge { limit: 10, .. }
        ));
        assert_eq!(mock.requests()[0].max_response_bytes, 10);

        // A transport that ignores the hint is caught on the way up.
        #[derive(Debug)]
        struct Careless;
        impl Transport for Careless {
            fn send(&self, _: RpcRequest) -> TransportFuture<'_> {
                Box::pin(async { Ok(HttpResponse::new("careless", 200, vec![b' '; 100])) })
            }
            fn describe(&self) -> String {
                "careless".into()
            }
        }
        let layer = SizeLimit::new(Arc::new(Careless), 1000, 10);
        let error = block_on(layer.send(read())).unwrap_err();
        assert!(matches!(
            error.kind,
            TransportErrorKind::TooLarge {
                status: 200,
                limit: 10
            }
        ));
    }
}
