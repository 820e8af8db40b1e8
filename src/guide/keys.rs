//! Keys and redaction: API keys go only where they were given, and no key, API or
//! secret, is ever shown.
//!
//! # API keys
//!
//! A key can sit in the URL path (`https://rpc.example.org/<KEY>`), a query parameter
//! (`?apiKey=<KEY>`) or a header ([`ApiKey::x_api_key`][x-api-key],
//! [`ApiKey::bearer`][bearer], [`ApiKey::header`][header]).
//!
//! ```no_run
//! use near_rpc::client::ApiKey;
//! use near_rpc::Client;
//!
//! # fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let client = Client::builder()
//!     .endpoint("https://rpc.provider.example")?
//!     .api_key(ApiKey::x_api_key(&std::env::var("RPC_KEY")?)?) // this endpoint only
//!     .endpoint("https://rpc.mainnet.near.org")? // failover: gets no key
//!     .build()?;
//! # Ok(()) }
//! ```
//!
//! - A header key goes only to the endpoint it was added after
//!   (`.endpoint(url)?.api_key(key)`), never to a failover endpoint, and never after a
//!   redirect (in a browser or under Node no redirect is followed at all: see
//!   [`browser`](super::browser)).
//! - Redirects are followed only within the endpoint's origin by default
//!   ([`RedirectPolicy::SameOrigin`][same-origin]; `None` and `Any` exist; https never
//!   goes down to http); a followed redirect carries no credential header and no
//!   user-info, and no `Referer` is ever sent. A refused redirect is
//!   `ErrorKind::Transport` with `TransportErrorKind::Redirect`, the status and the
//!   target shown as its origin only.
//! - Endpoints print as their origin (`https://rpc.example.org/***`), with a
//!   key-looking label of the host masked too (`https://***.rpc.example.org`: a key
//!   pasted into the host name).
//! - URLs that are not http(s), have no host, carry a fragment, or have something
//!   key-looking where the host should be are refused when the client is built, with an
//!   error that does not repeat the URL. The CLI never repeats a key-looking argument in
//!   a usage error.
//!
//! # Redaction
//!
//! Every secret value (header keys, key-looking path segments and query values,
//! user-info) is masked as `***` ([`MASK`][mask]) wherever it appears in what comes back:
//! an HTML page that echoes it, a JSON-RPC error message, a header, a response id. The
//! `Redact` layer, the outermost ([`errors`](super::errors#the-layers)), does it for every
//! call. Secrets of 16 characters or more are matched in any ASCII case (an echo in
//! another case, a host label URL parsing lowercased); shorter ones exactly, so that a
//! base64 or base58 payload differing only in case stays whole. `tests/it/client_hostile.rs`
//! checks every place a key can be given × every place a server can echo it × one or two
//! endpoints, in Display, Debug and `source()` chains.
//!
//! # Secret keys
//!
//! [`SecretKey`][secret-key] parses `ed25519:` keys as near-cli writes them (the 64-byte
//! keypair, checked against its public half, or the 32-byte seed) and `secp256k1:` keys;
//! it signs (secp256k1 recoverable and low-s, as nearcore) and never appears in Display,
//! Debug, errors or logs; it is wiped from memory when dropped.
//! [`Credentials`][credentials] reads near-cli's files (`private_key`, or nearcore's
//! `secret_key`) and the environment (`NEAR_ACCOUNT_ID`, `NEAR_PRIVATE_KEY`); a
//! [`Signer`][signer] is made from either (`Signer::from_file`, `Signer::from_env`) or
//! from an account and a key (`Signer::new`), and shows only the account and the public
//! key.
//!
//! [x-api-key]: crate::client::ApiKey::x_api_key
//! [bearer]: crate::client::ApiKey::bearer
//! [header]: crate::client::ApiKey::header
//! [same-origin]: crate::client::transport::RedirectPolicy::SameOrigin
//! [mask]: crate::client::MASK
//! [secret-key]: crate::tx::SecretKey
//! [credentials]: crate::tx::Credentials
//! [signer]: crate::Signer
