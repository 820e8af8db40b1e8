//! The HTTP transport: one endpoint over reqwest (rustls), with the API key, the URL
//! style, the redirect policy and the per-attempt timeout. On wasm32 each attempt is one
//! call of the JS host's `fetch` instead (`fetch.rs`), which follows no redirect.
//!
//! Redirects are followed here, not by reqwest, because reqwest keeps custom credential
//! headers (`x-api-key`) on a redirect within the same host. This transport follows a
//! redirect only as its [`RedirectPolicy`] allows, never sends a credential header after
//! one, and never sends `Referer`.

use std::sync::Arc;
use std::time::Duration;

#[cfg(not(target_arch = "wasm32"))]
use reqwest::header::{HeaderValue, CONTENT_TYPE, LOCATION};
use reqwest::Url;

use super::TransportFuture;
use super::{HttpResponse, RpcRequest, Transport, TransportError, TransportErrorKind};
use crate::client::endpoint::{ApiKey, Endpoint};
#[cfg(not(target_arch = "wasm32"))]
use crate::client::redact::show_url;
use crate::client::redact::{url_secrets, Secrets};
use crate::client::BuildError;

/// The default time one attempt may take.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// At most this many redirects are followed in one attempt.
pub const MAX_REDIRECTS: usize = 5;

/// Where the request is posted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PathStyle {
    /// The standard JSON-RPC POST to the base URL.
    #[default]
    JsonRpc,
    /// POST to `{base_url}/{method}`, as the spec's `paths` describe (some gateways route
    /// by path).
    MethodInPath,
}

/// Which redirects are followed. A followed redirect never carries the API-key header
/// (the key in a URL path stays with the URL it was given in), and no `Referer` is ever
/// sent. The request is posted again as it was, whatever the 3xx status (a JSON-RPC call
/// turned into a GET would mean nothing). A refused redirect is a
/// [`TransportErrorKind::Redirect`] naming the status and the redacted target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RedirectPolicy {
    /// Follow none.
    None,
    /// Follow redirects within the endpoint's origin (scheme, host and port) only.
    #[default]
    SameOrigin,
    /// Follow redirects to any http(s) origin, except from https down to http.
    Any,
}

impl RedirectPolicy {
    // On wasm32 the host's `fetch` is told to follow none: every redirect is refused.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    fn allows(self, from: &Url, to: &Url) -> bool {
        match self {
            Self::None => false,
            Self::SameOrigin => from.origin() == to.origin(),
            Self::Any => matches!(
                (from.scheme(), to.scheme()),
                ("https", "https") | ("http", "http" | "https")
            ),
        }
    }
}

/// One node reached over HTTP.
#[derive(Clone)]
pub struct HttpTransport {
    // On wasm32 the exchange goes through the host's `fetch` directly (`fetch.rs`).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    http: reqwest::Client,
    endpoint: Endpoint,
    api_key: Option<ApiKey>,
    path_style: PathStyle,
    redirects: RedirectPolicy,
    timeout: Duration,
    label: Arc<str>,
}

impl std::fmt::Debug for HttpTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpTransport")
            .field("endpoint", &self.endpoint)
            .field("api_key", &self.api_key)
            .field("path_style", &self.path_style)
            .field("redirects", &self.redirects)
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// The reqwest client every [`HttpTransport`] of a [`Client`](crate::Client)
/// shares.
pub(crate) fn http_client() -> Result<reqwest::Client, BuildError> {
    http_client_builder()
        .build()
        // reqwest's builder errors carry no URL; strip it anyway.
        .map_err(|e| BuildError::Http(e.without_url().to_string()))
}

#[cfg(target_arch = "wasm32")]
use super::fetch::{self, http_client_builder};

/// What [`http_client`] sets: redirects and `Referer` off (this transport decides), no
/// retries inside reqwest, our user agent.
#[cfg(not(target_arch = "wasm32"))]
fn http_client_builder() -> reqwest::ClientBuilder {
    reqwest::Client::builder()
        .user_agent(concat!("near-rpc/", env!("CARGO_PKG_VERSION")))
        .redirect(reqwest::redirect::Policy::none())
        .referer(false)
        // reqwest's default retries an HTTP/2 request refused by GOAWAY or
        // REFUSED_STREAM (reqwest src/retry.rs, `is_retryable_error`): bytes already
        // sent, and the error of its last try alone comes back, so a refused reconnect
        // would read as nothing sent. The retry layer retries, knowing what was sent.
        .retry(reqwest::retry::never())
}

impl HttpTransport {
    /// A transport to `endpoint` with its own connection pool and the defaults.
    pub fn new(endpoint: Endpoint) -> Result<Self, BuildError> {
        Ok(Self::with_client(http_client()?, endpoint))
    }

    /// A transport to `endpoint` sharing `http`'s connections. `http` should not follow
    /// redirects itself, or the redirect policy cannot apply.
    pub(crate) fn with_client(http: reqwest::Client, endpoint: Endpoint) -> Self {
        let label = endpoint.to_string().into();
        Self {
            http,
            endpoint,
            api_key: None,
            path_style: PathStyle::default(),
            redirects: RedirectPolicy::default(),
            timeout: DEFAULT_TIMEOUT,
            label,
        }
    }

    /// Sends `key` with every request (but never after a redirect).
    pub fn api_key(mut self, key: ApiKey) -> Self {
        self.api_key = Some(key);
        self
    }

    /// Where requests are posted.
    pub fn path_style(mut self, style: PathStyle) -> Self {
        self.path_style = style;
        self
    }

    /// Which redirects are followed (default [`RedirectPolicy::SameOrigin`]).
    pub fn redirects(mut self, policy: RedirectPolicy) -> Self {
        self.redirects = policy;
        self
    }

    /// The time one attempt may take (default [`DEFAULT_TIMEOUT`]).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    fn error(&self, kind: TransportErrorKind, message: impl Into<String>) -> TransportError {
        TransportError::new(self.label.clone(), kind, message)
    }

    /// The kind of a reqwest failure. `Connect` and `Tls` mean nothing was sent (a
    /// transaction may be signed again), so only a failure of reqwest's connector is one:
    ///
    /// - `is_connect` is a hyper-util error of kind `Connect` in the chain (reqwest
    ///   0.13.5 src/error.rs). hyper-util 0.1.21 (src/client/legacy/client.rs) gives that
    ///   kind only to the connector's own error (`connect_to`: `e!(Connect, src)`) and
    ///   to a failed pool checkout (`one_connection_for`, `connection_for`): before a
    ///   connection has the request. The connector (reqwest src/connect.rs,
    ///   `connect_with_maybe_proxy`) resolves the name, connects (or tunnels through a
    ///   proxy) and runs the TLS handshake to its end (tokio-rustls
    ///   src/common/handshake.rs; no early data: reqwest allows it for HTTP/3 only).
    /// - The HTTP/1 or HTTP/2 handshake and all after it, writing the request and
    ///   reading the answer (a TLS alert or close_notify, a record that does not
    ///   decrypt, a reset, EOF, GOAWAY, RST_STREAM), is kind `SendRequest` or
    ///   `Canceled`: `Connection` here, even with rustls's error in the chain.
    /// - hyper-util resends by itself only a request hyper handed back unwritten, on a
    ///   reused connection (`send_request`, `retry_canceled_requests`; hyper 1.12
    ///   src/proto/h1/dispatch.rs: "the message was never even started"), so a connect
    ///   error after it still means nothing left. reqwest's own retries resend written
    ///   requests, and are off ([`http_client_builder`]).
    ///
    /// A timeout is `Timeout` wherever it struck: it proves nothing.
    #[cfg(not(target_arch = "wasm32"))]
    fn reqwest_error(&self, e: reqwest::Error) -> TransportError {
        let kind = if e.is_timeout() {
            TransportErrorKind::Timeout
        } else if e.is_connect() {
            if tls_handshake_failed(&e) {
                TransportErrorKind::Tls
            } else {
                TransportErrorKind::Connect
            }
        } else if e.is_builder() {
            TransportErrorKind::Other
        } else {
            TransportErrorKind::Connection
        };
        // Without the URL, which may hold a key.
        self.error(kind, error_chain(&e.without_url()))
    }

    /// One attempt: the POST, and the redirects the policy allows (natively, reqwest
    /// follows none itself).
    #[cfg(not(target_arch = "wasm32"))]
    async fn send_request(&self, request: RpcRequest) -> Result<HttpResponse, TransportError> {
        let method = (self.path_style == PathStyle::MethodInPath).then_some(request.method);
        let first = self.endpoint.url_for(method);
        let mut url = first.clone();
        let mut redirects = 0;
        loop {
            let mut timeout = self.timeout;
            if let Some(left) = request.time_left() {
                timeout = timeout.min(left);
            }
            if timeout.is_zero() {
                return Err(self.error(TransportErrorKind::Timeout, "no time left"));
            }
            let mut builder = self
                .http
                .post(url.clone())
                .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
                .timeout(timeout)
                .body(request.body.clone());
            // After a redirect, the key stays behind: the new URL was the server's choice.
            if redirects == 0 {
                if let Some(key) = &self.api_key {
                    builder = key.apply(builder);
                }
            }
            let response = builder.send().await.map_err(|e| self.reqwest_error(e))?;
            let status = response.status().as_u16();
            let location = response
                .status()
                .is_redirection()
                .then(|| response.headers().get(LOCATION))
                .flatten();
            if let Some(location) = location {
                let target = location.to_str().ok().and_then(|l| url.join(l).ok());
                let Some(target) = target else {
                    return Err(self.error(
                        TransportErrorKind::Redirect {
                            status,
                            location: "(not a URL)".into(),
                        },
                        "",
                    ));
                };
                if !self.redirects.allows(&first, &target) || redirects >= MAX_REDIRECTS {
                    let why = if redirects >= MAX_REDIRECTS {
                        format!("more than {MAX_REDIRECTS} redirects")
                    } else {
                        format!("the redirect policy is {:?}", self.redirects)
                    };
                    let location = show_url(&target);
                    return Err(self.error(TransportErrorKind::Redirect { status, location }, why));
                }
                redirects += 1;
                url = target;
                // Credentials in the URL stay behind too: `join` keeps the user-info of
                // the URL it resolves against, and reqwest would send it as Basic auth.
                // (Clearing fails only for URLs that cannot have one.)
                let _ = url.set_username("");
                let _ = url.set_password(None);
                continue;
            }
            let headers = response.headers().clone();
            let body = self
                .read_body(response, status, request.max_response_bytes)
                .await?;
            return Ok(HttpResponse {
                endpoint: self.label.clone(),
                endpoint_index: 0,
                status,
                headers,
                body,
            });
        }
    }

    /// One attempt on wasm32: one POST through the JS host's `fetch`
    /// ([`fetch::post`]), which follows no redirect: every one is refused, whatever the
    /// policy.
    #[cfg(target_arch = "wasm32")]
    async fn send_request(&self, request: RpcRequest) -> Result<HttpResponse, TransportError> {
        let method = (self.path_style == PathStyle::MethodInPath).then_some(request.method);
        let url = self.endpoint.url_for(method);
        let mut timeout = self.timeout;
        if let Some(left) = request.time_left() {
            timeout = timeout.min(left);
        }
        if timeout.is_zero() {
            return Err(self.error(TransportErrorKind::Timeout, "no time left"));
        }
        let key = self.api_key.as_ref().map(ApiKey::header_pair);
        let limit = request.max_response_bytes;
        match fetch::post(&url, key, &request.body, timeout, limit).await {
            Ok(fetched) => Ok(HttpResponse {
                endpoint: self.label.clone(),
                endpoint_index: 0,
                status: fetched.status,
                headers: fetched.headers,
                body: fetched.body,
            }),
            Err((kind, message)) => Err(self.error(kind, message)),
        }
    }

    /// Reads the body chunk by chunk, failing as soon as it passes `limit`: a body over
    /// the limit is never buffered whole. A declared length over the limit fails before
    /// any of the body is read; a declared length within it sizes the buffer once.
    #[cfg(not(target_arch = "wasm32"))]
    async fn read_body(
        &self,
        mut response: reqwest::Response,
        status: u16,
        limit: usize,
    ) -> Result<Vec<u8>, TransportError> {
        let too_large = || self.error(TransportErrorKind::TooLarge { status, limit }, "");
        let declared = response.content_length();
        if declared.is_some_and(|n| n > limit as u64) {
            return Err(too_large());
        }
        let mut body: Vec<u8> = Vec::with_capacity(declared.map_or(0, |n| n as usize));
        while let Some(chunk) = response.chunk().await.map_err(|e| self.reqwest_error(e))? {
            let needed = body.len() + chunk.len();
            if needed > limit {
                return Err(too_large());
            }
            // Doubling, but never past the limit: a body at the limit costs at most its
            // size plus the half it grew from while growing, not twice its size.
            if needed > body.capacity() {
                let grown = needed.max(body.capacity().saturating_mul(2).min(limit));
                body.reserve_exact(grown - body.len());
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body)
    }
}

impl Transport for HttpTransport {
    fn send(&self, request: RpcRequest) -> TransportFuture<'_> {
        Box::pin(self.send_request(request))
    }

    fn describe(&self) -> String {
        self.label.to_string()
    }

    fn secrets(&self) -> Secrets {
        let mut values = url_secrets(self.endpoint.url());
        if let Some(key) = &self.api_key {
            values.extend(key.secret_values());
        }
        Secrets::new(values)
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// Whether a connector's failure is the TLS handshake's: rustls's own error somewhere in
/// the error's sources (maybe inside nested `io::Error`s, whose `source()` skips the
/// error they wrap), or tokio-rustls's words for a handshake cut short ("tls handshake
/// eof"). Asked only of connect errors: after the handshake, a TLS error is a broken
/// connection like any other.
fn tls_handshake_failed(e: &reqwest::Error) -> bool {
    fn check(e: &(dyn std::error::Error + 'static)) -> bool {
        if e.is::<rustls::Error>() || e.to_string().contains("tls handshake") {
            return true;
        }
        if let Some(inner) = e
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            if check(inner) {
                return true;
            }
        }
        e.source().is_some_and(check)
    }
    check(e)
}

/// The error and its sources in one line.
#[cfg(not(target_arch = "wasm32"))]
fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let s_text = s.to_string();
        if !text.contains(&s_text) {
            text.push_str(": ");
            text.push_str(&s_text);
        }
        source = s.source();
    }
    text
}

#[cfg(test)]
mod tests;
