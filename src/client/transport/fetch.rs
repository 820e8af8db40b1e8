//! What the HTTP transport does differently on wasm32, where reqwest sends through the
//! JS host's `fetch` (a browser's, or Node's) instead of hyper and rustls.
//!
//! - No redirect or retry settings: `fetch` follows redirects itself, before reqwest
//!   sees a response, so [`RedirectPolicy`](super::RedirectPolicy) cannot apply there.
//!   A redirect the host followed is still refused afterwards (the response's URL is not
//!   the one posted to), so no answer from another place is taken as the node's.
//! - No user agent: a browser sets its own, and a custom one would be one more header
//!   for the node's CORS preflight to allow.
//! - A failed `fetch` says only that it failed (a `TypeError`), never whether the
//!   request left: it is a broken connection, never "nothing sent", so a transaction is
//!   not signed again on its account.
//! - The body arrives whole from the host: the size limit is checked against the
//!   declared length before reading, and against the bytes after.

use reqwest::Url;

use super::{TransportError, TransportErrorKind};
use crate::client::redact::show_url;

/// reqwest's client as the transport uses it on wasm32.
pub(super) fn http_client_builder() -> reqwest::ClientBuilder {
    reqwest::Client::builder()
}

/// The kind of a reqwest failure on wasm32: a timeout (reqwest aborts the `fetch`), a
/// request that could not be built, or a `fetch` that failed somewhere between.
pub(super) fn wasm_error_kind(e: &reqwest::Error) -> TransportErrorKind {
    if e.is_timeout() {
        TransportErrorKind::Timeout
    } else if e.is_builder() {
        TransportErrorKind::Other
    } else {
        TransportErrorKind::Connection
    }
}

/// Reads the body, within `limit` bytes. `fail(Some(e))` makes a reqwest failure's
/// error, `fail(None)` the "too large" one.
pub(super) async fn read_body(
    response: reqwest::Response,
    limit: usize,
    fail: impl Fn(Option<reqwest::Error>) -> TransportError,
) -> Result<Vec<u8>, TransportError> {
    if response.content_length().is_some_and(|n| n > limit as u64) {
        return Err(fail(None));
    }
    let body = response.bytes().await.map_err(|e| fail(Some(e)))?;
    if body.len() > limit {
        return Err(fail(None));
    }
    Ok(body.to_vec())
}

/// A redirect `fetch` followed on its own: the response comes from elsewhere than
/// `posted`, and is refused as a redirect to where it came from.
pub(super) fn followed_redirect(
    posted: &Url,
    response: &reqwest::Response,
) -> Option<TransportErrorKind> {
    (response.url() != posted).then(|| TransportErrorKind::Redirect {
        status: response.status().as_u16(),
        location: show_url(response.url()),
    })
}
