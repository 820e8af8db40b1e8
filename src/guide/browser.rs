//! # In the browser and under Node (wasm32)
//!
//! The client builds for `wasm32-unknown-unknown` with its default features: reads,
//! signed writes through the same write path, verification. The same code as on a
//! server; only the transport and the timers differ, and no future needs `Send` there.
//!
//! ```text
//! rustup target add wasm32-unknown-unknown
//! cargo build --target wasm32-unknown-unknown --release   # your dApp crate
//! wasm-bindgen --target web (or nodejs) target/wasm32-unknown-unknown/release/app.wasm --out-dir pkg
//! ```
//!
//! A dApp's function, exported with `wasm-bindgen`, is ordinary near-rpc:
//!
//! ```text
//! #[wasm_bindgen]
//! pub async fn balance(url: String, account: String) -> Result<String, JsError> {
//!     let client = near_rpc::Client::new(&url).map_err(|e| JsError::new(&e.to_string()))?;
//!     let view = client.view_account(&account).await.map_err(|e| JsError::new(&e.to_string()))?;
//!     Ok(view.amount.as_yoctonear().to_string())
//! }
//! ```
//!
//! What differs on wasm32, and why:
//!
//! - Requests go through the host's `fetch`, told to follow no redirect
//!   (`redirect: "manual"`): a redirect is refused, whatever the
//!   [`RedirectPolicy`](crate::client::transport::RedirectPolicy), and nothing is sent
//!   where it points (a `fetch` left to follow would carry a header API key there: the
//!   Fetch standard drops only `Authorization` on a cross-origin redirect). A browser
//!   hides such an answer's status and target from the page, so the error shows neither
//!   (the status is 0); Node shows both. No `Referer` is sent either.
//! - A response's size limit is checked against its declared length before it is read
//!   and against its bytes after (`fetch` hands the body over whole), not while
//!   reading.
//! - A failed `fetch` is a broken connection, never "nothing sent": the write path
//!   resolves such a transaction by hash and never signs it anew because of one.
//! - Timers (retries' backoff, rate budgets, the deadline) are the host's `setTimeout`.
//!
//! Testing a dApp: `near-rpc mock --allow-origin http://localhost:5173` lets a page of
//! that origin call the mock (it answers the browser's CORS preflight); Node's `fetch`
//! sends no `Origin` and needs no option. `scripts/wasm.sh` in the repository builds a
//! small dApp, and runs it against the mock under Node and in headless Chromium.
