//! The HTTP transport's one exchange on wasm32: a POST through the JS host's own `fetch`
//! (a browser's, or Node's), called here rather than through reqwest so that the host
//! follows no redirect.
//!
//! - `redirect: "manual"`: a `fetch` left to follow a redirect would send the request,
//!   the API-key header with it, to wherever the server pointed (the Fetch standard drops
//!   only `Authorization` on a cross-origin redirect), before the page could refuse the
//!   answer. Every redirect is refused instead, sending nothing more: a browser shows the
//!   page neither the status nor the target (an "opaque redirect"); Node shows both.
//! - `referrerPolicy: "no-referrer"`: the page's address is not sent, as the native
//!   transport sends no `Referer`.
//! - No user agent: a browser sets its own, and a custom one would be one more header for
//!   the node's CORS preflight to allow.
//! - A failed `fetch` says only that it failed (a `TypeError`), never whether the request
//!   left: it is a broken connection, never "nothing sent", so a transaction is not
//!   signed again on its account.
//! - The attempt's timeout aborts the `fetch` (an `AbortController`), and so does
//!   dropping the future: a cancelled call leaves nothing running in the host.
//! - The body arrives whole from the host: the size limit is checked against the
//!   declared length before reading, and against the bytes after.

use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue, CONTENT_LENGTH};
use reqwest::Url;
use wasm_bindgen::{JsCast as _, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortController, Headers, ReferrerPolicy, Request, RequestInit, RequestRedirect, Response,
    ResponseType,
};

use super::TransportErrorKind;
use crate::client::redact::show_url;
use crate::client::rt::time;

/// reqwest's client as the transport holds it on wasm32 (it sends nothing there: see
/// [`post`]).
pub(super) fn http_client_builder() -> reqwest::ClientBuilder {
    reqwest::Client::builder()
}

/// An answer: its status, the headers the host lets the page read, and its body.
pub(super) struct Fetched {
    pub(super) status: u16,
    pub(super) headers: HeaderMap,
    pub(super) body: Vec<u8>,
}

/// Why an exchange failed: the kind, and what the host said (never the URL).
pub(super) type Failure = (TransportErrorKind, String);

/// Aborts its `fetch` when dropped: at the timeout, when the caller drops the call, and
/// (doing nothing then) after the body was read.
struct AbortOnDrop(AbortController);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// POSTs `body` to `url` with `key` (the API-key header) through the host's `fetch`,
/// within `timeout`, reading at most `limit` bytes of the answer.
pub(super) async fn post(
    url: &Url,
    key: Option<(&HeaderName, &HeaderValue)>,
    body: &[u8],
    timeout: Duration,
    limit: usize,
) -> Result<Fetched, Failure> {
    let controller =
        AbortController::new().map_err(|_| other("the JS host has no AbortController"))?;
    let abort = AbortOnDrop(controller);
    let exchange = exchange(url, key, body, limit, &abort.0);
    let fetched = time::timeout(timeout, exchange).await;
    drop(abort);
    fetched.unwrap_or_else(|_| Err((TransportErrorKind::Timeout, String::new())))
}

async fn exchange(
    url: &Url,
    key: Option<(&HeaderName, &HeaderValue)>,
    body: &[u8],
    limit: usize,
    controller: &AbortController,
) -> Result<Fetched, Failure> {
    let request = request(url, key, body, controller)?;
    let global = js_sys::global();
    let fetch = js_sys::Reflect::get(&global, &JsValue::from_str("fetch"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or_else(|| other("the JS host has no fetch"))?;
    // From here on the request may have left: every failure is a broken connection.
    let broken = |e: JsValue| (TransportErrorKind::Connection, js_message(&e));
    let promise = fetch
        .call1(&global, &request)
        .and_then(|p| p.dyn_into::<js_sys::Promise>())
        .map_err(broken)?;
    let response: Response = JsFuture::from(promise)
        .await
        .and_then(|r| r.dyn_into::<Response>())
        .map_err(broken)?;
    if let Some(kind) = redirect(url, &response) {
        return Err((kind, "redirects are not followed on wasm32".into()));
    }
    let status = response.status();
    let headers = headers(&response);
    let too_large = || {
        (
            TransportErrorKind::TooLarge { status, limit },
            String::new(),
        )
    };
    let declared = headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    let buffer = response.array_buffer().map_err(broken)?;
    let buffer = JsFuture::from(buffer).await.map_err(broken)?;
    let bytes = js_sys::Uint8Array::new(&buffer);
    if bytes.length() as usize > limit {
        return Err(too_large());
    }
    Ok(Fetched {
        status,
        headers,
        body: bytes.to_vec(),
    })
}

/// The request: a JSON POST that follows no redirect and sends no referrer.
fn request(
    url: &Url,
    key: Option<(&HeaderName, &HeaderValue)>,
    body: &[u8],
    controller: &AbortController,
) -> Result<Request, Failure> {
    let refused = |what: &str| other(&format!("the JS host refused the request's {what}"));
    let headers = Headers::new().map_err(|_| refused("headers"))?;
    headers
        .set("content-type", "application/json")
        .map_err(|_| refused("content type"))?;
    if let Some((name, value)) = key {
        let value = value.to_str().map_err(|_| refused("API-key header"))?;
        headers
            .set(name.as_str(), value)
            .map_err(|_| refused("API-key header"))?;
    }
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_body(&js_sys::Uint8Array::from(body));
    init.set_redirect(RequestRedirect::Manual);
    init.set_referrer_policy(ReferrerPolicy::NoReferrer);
    init.set_signal(Some(&controller.signal()));
    // A host refuses a URL with a user name or password (fetch cannot send them); its
    // message would quote the URL, so it is not repeated.
    Request::new_with_str_and_init(url.as_str(), &init)
        .map_err(|_| refused("URL (a user name or password in it cannot be fetched)"))
}

/// A redirect answer, refused: a browser's opaque one (status and target hidden from
/// the page), or a 3xx with a `Location` (Node shows both).
fn redirect(url: &Url, response: &Response) -> Option<TransportErrorKind> {
    if response.type_() == ResponseType::Opaqueredirect {
        return Some(TransportErrorKind::Redirect {
            status: response.status(),
            location: "(not shown to the page)".into(),
        });
    }
    let status = response.status();
    if !(300..400).contains(&status) {
        return None;
    }
    let location = response.headers().get("location").ok().flatten()?;
    let location = url
        .join(&location)
        .map_or_else(|_| "(not a URL)".into(), |target| show_url(&target));
    Some(TransportErrorKind::Redirect { status, location })
}

/// The response's headers the host lets the page read (a browser: the CORS-safelisted
/// ones and those the node exposes), as a [`HeaderMap`]; names or values that are not
/// valid HTTP are skipped.
fn headers(response: &Response) -> HeaderMap {
    let mut map = HeaderMap::new();
    let Ok(Some(entries)) = js_sys::try_iter(response.headers().as_ref()) else {
        return map;
    };
    for entry in entries.flatten() {
        let pair = js_sys::Array::from(&entry);
        let (Some(name), Some(value)) = (pair.get(0).as_string(), pair.get(1).as_string()) else {
            continue;
        };
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(&value),
        ) {
            map.append(name, value);
        }
    }
    map
}

/// What a JS error says: its message, and its cause's (Node's `fetch failed` keeps the
/// reason there).
fn js_message(e: &JsValue) -> String {
    let Some(error) = e.dyn_ref::<js_sys::Error>() else {
        return e
            .as_string()
            .unwrap_or_else(|| "the JS host's fetch failed".into());
    };
    let mut text = String::from(error.message());
    if let Some(cause) = error.cause().dyn_ref::<js_sys::Error>() {
        text.push_str(": ");
        text.push_str(&String::from(cause.message()));
    }
    text
}

fn other(message: &str) -> Failure {
    (TransportErrorKind::Other, message.to_owned())
}
