//! Redaction: every secret of every transport below (API keys, key-looking URL parts) is
//! masked in everything that comes back up: bodies, headers, error messages, redirect
//! targets, endpoint names. A server that echoes a key (in an HTML error page, a
//! JSON-RPC message, a header; as it is or JSON-escaped) cannot make the client print it.

use reqwest::header::HeaderValue;

use super::super::transport::{BoxTransport, HttpResponse, RpcRequest, Transport};
use super::super::transport::{TransportError, TransportErrorKind, TransportFuture};
use crate::client::redact::Secrets;

/// The redaction layer; it sits at the top of the stack.
#[derive(Debug)]
pub struct Redact {
    inner: BoxTransport,
    secrets: Secrets,
}

impl Redact {
    /// Masks the secrets of `inner` (as [`Transport::secrets`] lists them).
    pub fn new(inner: BoxTransport) -> Self {
        let secrets = inner.secrets();
        Self { inner, secrets }
    }

    async fn send_redacted(&self, request: RpcRequest) -> Result<HttpResponse, TransportError> {
        let outcome = self.inner.send(request).await;
        if self.secrets.is_empty() {
            return outcome;
        }
        match outcome {
            Ok(mut response) => {
                self.scrub_response(&mut response);
                Ok(response)
            }
            Err(mut error) => {
                self.scrub_error(&mut error);
                Err(error)
            }
        }
    }

    fn scrub_response(&self, response: &mut HttpResponse) {
        let secrets = &self.secrets;
        self.scrub_label(&mut response.endpoint);
        secrets.scrub_bytes(&mut response.body);
        for value in response.headers.values_mut() {
            let mut bytes = value.as_bytes().to_vec();
            secrets.scrub_bytes(&mut bytes);
            if bytes != value.as_bytes() {
                // `***` is a valid header value wherever the secret was.
                if let Ok(scrubbed) = HeaderValue::from_bytes(&bytes) {
                    *value = scrubbed;
                }
            }
        }
    }

    fn scrub_error(&self, error: &mut TransportError) {
        self.scrub_label(&mut error.endpoint);
        self.secrets.scrub_string(&mut error.message);
        match &mut error.kind {
            TransportErrorKind::Redirect { location, .. } => self.secrets.scrub_string(location),
            TransportErrorKind::AllEndpointsFailed(attempts) => {
                for attempt in attempts {
                    self.scrub_label(&mut attempt.endpoint);
                    match &mut attempt.outcome {
                        Ok(response) => self.scrub_response(response),
                        Err(error) => self.scrub_error(error),
                    }
                }
            }
            _ => {}
        }
    }

    fn scrub_label(&self, label: &mut std::sync::Arc<str>) {
        if let std::borrow::Cow::Owned(scrubbed) = self.secrets.scrub(label) {
            *label = scrubbed.into();
        }
    }
}

impl Transport for Redact {
    fn send(&self, request: RpcRequest) -> TransportFuture<'_> {
        Box::pin(self.send_redacted(request))
    }

    fn describe(&self) -> String {
        self.secrets.scrub(&self.inner.describe()).into_owned()
    }

    fn secrets(&self) -> Secrets {
        self.secrets.clone()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::test_support::{block_on, read};
    use super::super::Fallback;
    use super::*;
    use crate::client::transport::{MockReply, MockTransport};

    const KEY: &str = "sk-live-4242abcd";

    #[test]
    fn echoed_keys_are_masked_everywhere() {
        let echo = format!("<html>bad key {KEY}</html>");
        let mock = MockTransport::new(
            &format!("mock {KEY}"),
            [MockReply::status(401, echo.as_bytes()).header("x-echo", &format!("key={KEY}"))],
        )
        .with_secret(KEY);
        let response = block_on(Redact::new(Arc::new(mock)).send(read())).unwrap();
        let shown = format!("{response:?} {}", String::from_utf8_lossy(&response.body));
        assert!(!shown.contains(KEY), "{shown}");
        assert_eq!(response.body, b"<html>bad key ***</html>");
        assert_eq!(response.headers["x-echo"], "key=***");
        assert_eq!(response.endpoint.as_ref(), "mock ***");
    }

    /// A key echoed JSON-escaped (every character `\uXXXX`, or only some, `-` as is) is
    /// masked whole in bodies and headers alike.
    #[test]
    fn keys_echoed_json_escaped_are_masked() {
        let every: String = KEY
            .chars()
            .map(|c| format!("\\u{:04X}", c as u32))
            .collect();
        let some = KEY.replace('s', "\\u0073").replace('4', "\\u0034");
        let body = format!(r#"{{"error":"bad key {every}","key":"{some}"}}"#);
        let mock = MockTransport::new(
            "mock",
            [MockReply::status(401, body.as_bytes()).header("x-echo", &format!("key={some}"))],
        )
        .with_secret(KEY);
        let response = block_on(Redact::new(Arc::new(mock)).send(read())).unwrap();
        assert_eq!(response.body, br#"{"error":"bad key ***","key":"***"}"#);
        assert_eq!(response.headers["x-echo"], "key=***");
    }

    #[test]
    fn errors_of_every_endpoint_are_masked() {
        let first = MockTransport::new(
            "first",
            [MockReply::error(TransportErrorKind::Redirect {
                status: 307,
                location: format!("https://{KEY}.example"),
            })],
        )
        .with_secret(KEY);
        let second = MockTransport::new(
            "second",
            [MockReply::status(503, format!("busy, {KEY}").as_bytes())],
        );
        let stack = Fallback::new(vec![Arc::new(first), Arc::new(second)]);
        let error = block_on(Redact::new(Arc::new(stack)).send(read())).unwrap_err();
        let shown = format!("{error} {error:?}");
        assert!(!shown.contains(KEY), "{shown}");
        let TransportErrorKind::AllEndpointsFailed(attempts) = &error.kind else {
            panic!("{error}")
        };
        assert_eq!(attempts[1].outcome.as_ref().unwrap().body, b"busy, ***");
    }
}
