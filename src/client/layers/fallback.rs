//! Failover: the endpoints in order, moving on when one fails.
//!
//! Independent of retries: with no retries at all, a dead first endpoint still moves the
//! call to the second. An endpoint is skipped when it fails to connect, times out, answers
//! with a page that is not JSON-RPC (a proxy's HTML), HTTP 404, 429 or 5xx, or the node's
//! `INTERNAL_ERROR`/`TIMEOUT_ERROR`. A permanent JSON-RPC error (bad params, unknown
//! account) is an answer, and is returned, not failed over.
//!
//! A transaction moves on only while it certainly reached no node (a connect or TLS
//! handshake failure): once bytes may have been sent, sending it elsewhere could submit
//! it twice.
//!
//! A request pinned to an endpoint ([`RpcRequest::pinned_endpoint`]) goes there alone:
//! the write path asks the node that refused a transaction, and no other, whether it
//! knows it. Every outcome is marked with the position of the endpoint it came from.

use std::sync::Arc;

use super::super::transport::{Attempt, BoxTransport, HttpResponse, RpcRequest, Transport};
use super::super::transport::{TransportError, TransportErrorKind, TransportFuture};
use super::{verdict, Verdict};
use crate::client::redact::Secrets;

/// The failover layer over several transports.
#[derive(Debug)]
pub struct Fallback {
    transports: Vec<BoxTransport>,
    label: Arc<str>,
}

impl Fallback {
    /// Tries `transports` in order.
    pub fn new(transports: Vec<BoxTransport>) -> Self {
        let label = transports
            .iter()
            .map(|t| t.describe())
            .collect::<Vec<_>>()
            .join(", ")
            .into();
        Self { transports, label }
    }

    async fn send_in_order(&self, request: RpcRequest) -> Result<HttpResponse, TransportError> {
        if let Some(index) = request.pinned_endpoint {
            return self.send_to(index, request).await;
        }
        let mut attempts = Vec::new();
        for (index, transport) in self.transports.iter().enumerate() {
            let outcome = with_index(transport.send(request.clone()).await, index);
            let Verdict::Failure { nothing_sent, .. } = verdict(&outcome) else {
                return outcome;
            };
            attempts.push(Attempt {
                endpoint: transport.describe().into(),
                outcome,
            });
            let deadline_passed = request.time_left().is_some_and(|left| left.is_zero());
            if (request.submits_transaction && !nothing_sent) || deadline_passed {
                break;
            }
            if index + 1 < self.transports.len() {
                if let Some(last) = attempts.last() {
                    super::trace::failing_over(&request, index, &last.outcome);
                }
            }
        }
        if attempts.len() == 1 {
            if let Some(only) = attempts.pop() {
                return only.outcome;
            }
        }
        Err(TransportError::new(
            self.label.clone(),
            TransportErrorKind::AllEndpointsFailed(attempts),
            "",
        ))
    }

    /// The one endpoint a pinned request names, and no other whatever it answers.
    async fn send_to(
        &self,
        index: usize,
        request: RpcRequest,
    ) -> Result<HttpResponse, TransportError> {
        match self.transports.get(index) {
            Some(transport) => with_index(transport.send(request).await, index),
            None => Err(TransportError::new(
                self.label.clone(),
                TransportErrorKind::Other,
                format!(
                    "no endpoint {index}: the client has {}",
                    self.transports.len()
                ),
            )),
        }
    }
}

/// The outcome, marked with the position of the endpoint it came from.
fn with_index(
    mut outcome: Result<HttpResponse, TransportError>,
    index: usize,
) -> Result<HttpResponse, TransportError> {
    match &mut outcome {
        Ok(response) => response.endpoint_index = index,
        Err(error) => error.endpoint_index = index,
    }
    outcome
}

impl Transport for Fallback {
    fn send(&self, request: RpcRequest) -> TransportFuture<'_> {
        Box::pin(self.send_in_order(request))
    }

    fn describe(&self) -> String {
        self.label.to_string()
    }

    fn secrets(&self) -> Secrets {
        self.transports
            .iter()
            .fold(Secrets::default(), |all, t| all.union(&t.secrets()))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{block_on, read, write, RESULT};
    use super::*;
    use crate::client::transport::{MockReply, MockTransport};

    fn fallback(mocks: &[&MockTransport]) -> Fallback {
        Fallback::new(
            mocks
                .iter()
                .map(|m| Arc::new((*m).clone()) as BoxTransport)
                .collect(),
        )
    }

    fn counts(mocks: &[&MockTransport]) -> Vec<usize> {
        mocks.iter().map(|m| m.requests().len()).collect()
    }

    #[test]
    fn every_kind_of_endpoint_failure_moves_on() {
        let failures = [
            MockReply::error(TransportErrorKind::Connect),
            MockReply::error(TransportErrorKind::Tls),
            MockReply::error(TransportErrorKind::Timeout),
            MockReply::status(200, "<html>proxy error</html>"),
            MockReply::status(404, "not found"),
            MockReply::status(429, "slow down"),
            MockReply::status(500, "oops"),
            MockReply::status(503, r#"{"jsonrpc":"2.0","id":"1","result":{}}"#),
            MockReply::json(
                r#"{"jsonrpc":"2.0","id":"1","error":{"name":"INTERNAL_ERROR","cause":{"name":"INTERNAL_ERROR"}}}"#,
            ),
            MockReply::error(TransportErrorKind::Redirect {
                status: 302,
                location: "https://elsewhere".into(),
            }),
        ];
        for failure in failures {
            let first = MockTransport::new("first", [failure.clone()]);
            let second = MockTransport::new("second", [MockReply::json(RESULT)]);
            let outcome = block_on(fallback(&[&first, &second]).send(read()));
            assert_eq!(outcome.unwrap().endpoint.as_ref(), "second", "{failure:?}");
            assert_eq!(counts(&[&first, &second]), [1, 1]);
        }
    }

    #[test]
    fn permanent_json_rpc_errors_are_answers() {
        for status in [200, 400, 422] {
            let unknown = r#"{"jsonrpc":"2.0","id":"1","error":{"name":"HANDLER_ERROR","cause":{"name":"UNKNOWN_ACCOUNT"}}}"#;
            let first = MockTransport::new("first", [MockReply::status(status, unknown)]);
            let second = MockTransport::new("second", [MockReply::json(RESULT)]);
            let outcome = block_on(fallback(&[&first, &second]).send(read()));
            assert_eq!(outcome.unwrap().endpoint.as_ref(), "first");
            assert_eq!(counts(&[&first, &second]), [1, 0]);
        }
    }

    #[test]
    fn all_failing_lists_each_endpoint() {
        let a = MockTransport::new("a", [MockReply::error(TransportErrorKind::Connect)]);
        let b = MockTransport::new("b", [MockReply::status(502, "bad gateway")]);
        let c = MockTransport::new("c", [MockReply::status(200, "<html></html>")]);
        let error = block_on(fallback(&[&a, &b, &c]).send(read())).unwrap_err();
        let TransportErrorKind::AllEndpointsFailed(attempts) = &error.kind else {
            panic!("{error}")
        };
        let endpoints: Vec<&str> = attempts.iter().map(|a| a.endpoint.as_ref()).collect();
        assert_eq!(endpoints, ["a", "b", "c"]);
        assert!(attempts[0].outcome.is_err());
        assert_eq!(attempts[1].outcome.as_ref().unwrap().status, 502);
        assert_eq!(
            verdict(&Err(error)),
            Verdict::Failure {
                retryable: true,
                nothing_sent: false
            }
        );
    }

    #[test]
    fn transactions_move_on_only_while_nothing_was_sent() {
        let a = MockTransport::new("a", [MockReply::error(TransportErrorKind::Connect)]);
        let b = MockTransport::new("b", [MockReply::json(RESULT)]);
        let outcome = block_on(fallback(&[&a, &b]).send(write()));
        assert_eq!(outcome.unwrap().endpoint.as_ref(), "b");

        for sent in [
            MockReply::error(TransportErrorKind::Timeout),
            MockReply::error(TransportErrorKind::Connection),
            MockReply::status(503, "busy"),
            MockReply::status(200, "<html></html>"),
        ] {
            let a = MockTransport::new("a", [MockReply::error(TransportErrorKind::Connect)]);
            let b = MockTransport::new("b", [sent.clone()]);
            let c = MockTransport::new("c", [MockReply::json(RESULT)]);
            let outcome = block_on(fallback(&[&a, &b, &c]).send(write()));
            assert!(
                matches!(&outcome, Err(e) if matches!(&e.kind, TransportErrorKind::AllEndpointsFailed(a) if a.len() == 2)),
                "{sent:?}: {outcome:?}"
            );
            assert_eq!(counts(&[&a, &b, &c]), [1, 1, 0], "{sent:?}");
        }
    }

    /// A pinned request goes to its endpoint alone, whatever it answers, and every
    /// outcome names the position of the endpoint it came from (labels may repeat).
    #[test]
    fn a_pinned_request_goes_to_its_endpoint_alone() {
        let a = MockTransport::new("same", [MockReply::json(RESULT)]);
        let b = MockTransport::new("same", [MockReply::status(503, "busy")]);
        let c = MockTransport::new("same", [MockReply::json(RESULT)]);
        let mut pinned = read();
        pinned.pinned_endpoint = Some(1);
        let outcome = block_on(fallback(&[&a, &b, &c]).send(pinned.clone())).unwrap();
        assert_eq!((outcome.status, outcome.endpoint_index), (503, 1));
        assert_eq!(counts(&[&a, &b, &c]), [0, 1, 0]);

        let a = MockTransport::new("a", [MockReply::error(TransportErrorKind::Connect)]);
        let b = MockTransport::new("b", [MockReply::error(TransportErrorKind::Connect)]);
        let error = block_on(fallback(&[&a, &b]).send(pinned.clone())).unwrap_err();
        assert!(matches!(error.kind, TransportErrorKind::Connect), "{error}");
        assert_eq!(error.endpoint_index, 1);
        assert_eq!(counts(&[&a, &b]), [0, 1]);

        pinned.pinned_endpoint = Some(2);
        let error = block_on(fallback(&[&a, &b]).send(pinned)).unwrap_err();
        assert!(error.message.contains("no endpoint 2"), "{error}");
        assert_eq!(counts(&[&a, &b]), [0, 1]);

        // Unpinned, the answer names the endpoint that gave it.
        let a = MockTransport::new("x", [MockReply::status(503, "busy")]);
        let b = MockTransport::new("x", [MockReply::json(RESULT)]);
        let outcome = block_on(fallback(&[&a, &b]).send(read())).unwrap();
        assert_eq!(outcome.endpoint_index, 1);
    }
}
