//! Reading from a node: a client, a shortcut per common call, and
//! [`Client::call`](crate::Client::call) for every method.
//!
//! ```no_run
//! use near_rpc::client::layers::RetryPolicy;
//! use near_rpc::client::ApiKey;
//! use near_rpc::types::TxExecutionStatus;
//! use near_rpc::{Client, Finality};
//!
//! async fn example() -> Result<(), Box<dyn std::error::Error>> {
//!     let client = Client::builder()
//!         .endpoint("https://rpc.mainnet.near.org")? // several: failover in order
//!         .api_key(ApiKey::x_api_key("...")?) // or a key in the URL path
//!         .retry(RetryPolicy::default()) // transactions only when nothing was sent
//!         .build()?;
//!     let config = client.protocol_config_at(Finality::Final).await?;
//!     println!("protocol version {:?}", config.protocol_version);
//!
//!     let hash = "6zgh2u9DqHHiXzdy9ouTP7oGky2T4nugqzqt9wJZwNFm".parse()?;
//!     let tx = client
//!         .tx_status((hash, "alice.near".parse()?), Some(TxExecutionStatus::Final))
//!         .await?;
//!     if let Some(failure) = tx.first_failure() {
//!         println!("failed: {failure:?}");
//!     }
//!     Ok(())
//! }
//! ```
//!
//! [`Client::new(url)`](crate::Client::new) is the one-endpoint form;
//! [`Client::builder`](crate::Client::builder) adds endpoints, keys
//! ([`keys`](super::keys)), limits and the retry policy ([`errors`](super::errors)).
//!
//! # The shortcuts
//!
//! A shortcut per common task, typed in and out, each a thin layer over the generic
//! [`Client::call::<M>(params)`](crate::Client::call), which stays the way to reach all 40
//! methods ([`methods`](crate::methods); markers are named after the method with a
//! `Method` suffix, `BlockMethod`, `ExperimentalTxStatusMethod`, and
//! [`ParamsOf<M>`](crate::methods::ParamsOf)/[`ResponseOf<M>`](crate::methods::ResponseOf)/
//! [`ErrorOf<M>`](crate::methods::ErrorOf) name their types):
//!
//! - accounts and keys: `view_account`, `view_access_key`, `view_access_key_list`,
//!   `view_code`, `view_state` (`view_state_with_proof`); contracts: `call_function`
//!   (args: any `Serialize`, sent as JSON, or [`RawArgs`](crate::client::RawArgs); read
//!   the result with `.json::<T>()`, `.text()`, `.bytes()`, and `logs`); `query` for any
//!   other request. They read at the latest final block unless
//!   [`client.at(Finality::Optimistic | height | hash)`](crate::Client::at) says
//!   otherwise, and return the view with the block it was read at
//!   ([`AtBlock`](crate::client::AtBlock)).
//!   Account ids, keys and hashes are given as values or text; bad text is a usage error
//!   naming the parameter, and nothing is sent.
//! - chain: `block(at)`, `chunk((block, shard) | chunk_hash)`, `gas_price(None | block)`
//!   (a [`GasPrice`](crate::client::GasPrice), shown in yoctoNEAR per gas), `status`,
//!   `network_info`, `health`, `validators(Epoch::Latest | Epoch::Id(..) | block)`,
//!   `light_client_proof`, `changes`; `genesis_config`, `protocol_config_at(finality |
//!   height | hash | SyncCheckpoint::Genesis)` (with accessors such as
//!   `protocol_version()` for the fields the spec leaves optional and every node fills).
//! - the node: `node_info()` puts the node's version, build and protocol version beside
//!   the bindings' spec version, and lists what its `status` answer has that the bindings
//!   don't know (`has_unrecognized()`, `verdict()`).
//! - transactions: `send_tx(signed bytes or base64, wait_until)`, `broadcast_tx_async`,
//!   `broadcast_tx_commit`, `tx_status`/`tx`. Input that is not base64 is refused before
//!   sending.
//! - writes, signed by a [`Signer`](crate::Signer): `send(actions)`, `transfer`,
//!   `function_call`, `create_account`, `add_key`, `delete_key`, `deploy`,
//!   `delete_account` ([`writing`](super::writing)).
//!
//! [`SHORTCUTS`](crate::client::SHORTCUTS) and
//! [`WRITE_SHORTCUTS`](crate::client::WRITE_SHORTCUTS) list them. With nearcore 0.38's
//! bindings (feature `nearcore_0_38_0`, the `latest`), `view_access_key_list` reads every
//! page at the first one's block, `view_access_key_page` reads one, and
//! `light_client_execution_outcome_proof`, `light_client_chunk_execution_proof` and
//! `light_client_state_proof` call its three new proof methods.
//!
//! # Errors inside a result
//!
//! A `query` answer that carries an error inside its `result` (old nodes: `{"error":
//! "account x does not exist while viewing", ...}`) is an error, never an `Ok`: the
//! shortcuts type it as the `RpcQueryError` a current node would send
//! (`UNKNOWN_ACCOUNT`, `UNKNOWN_ACCESS_KEY`, `NO_CONTRACT_CODE`,
//! `CONTRACT_EXECUTION_ERROR` with its `FunctionCallError`).
//! [`err.handler_error()`](crate::client::Error::handler_error) returns the method's
//! typed cause, and the message names it: `UNKNOWN_ACCOUNT: account alice.near does not
//! exist while viewing`. The rest of what a failed call returns is in
//! [`errors`](super::errors).
//!
//! # Old blocks: archival endpoints
//!
//! A regular node keeps a few epochs of blocks (about two and a half days on mainnet);
//! older reads fail with `GARBAGE_COLLECTED_BLOCK` or `UNKNOWN_BLOCK`. An archival node
//! keeps them all. Give the client one or more, and exactly those reads go to them:
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let client = near_rpc::Client::builder()
//!     .endpoint("https://rpc.mainnet.near.org")?
//!     .archival("https://archival-rpc.mainnet.near.org")?
//!     .build()?;
//! // Asked of the regular node first; it no longer keeps the block: the archival node.
//! let old = client.block(9_820_210).await?;
//! # Ok(()) }
//! ```
//!
//! A read goes to the archival endpoints after a regular node answers
//! `GARBAGE_COLLECTED_BLOCK`, or `UNKNOWN_BLOCK` for a block by hash or for a height below
//! its `status`'s `earliest_block_height` (a height above its head stays unknown, without
//! asking further); a `chunk` by hash answered `UNKNOWN_CHUNK`, and a transaction status
//! answered `UNKNOWN_TRANSACTION` (statuses are collected with their blocks) go too, the
//! latter replaced only by an archival answer that is a result. Transactions never go to
//! them. The archival endpoints are retried and failed over among themselves, in order;
//! an API key or a rate budget given right after `.archival(url)` is that endpoint's.
//! [`Archival`](crate::client::layers::Archival) has the rules. The mock node plays a
//! regular node with `MockNode::keep_blocks(n)` (`near-rpc mock --keep-blocks N`), and
//! the CLI takes `--archival-url URL`.
//!
//! # Blocking code
//!
//! The blocking client (feature `blocking`,
//! [`ClientBuilder::build_blocking`](crate::client::ClientBuilder)) gets every shortcut
//! from the same definitions (a test calls each on both clients). It runs a runtime of
//! its own: don't use it inside an async one.
//!
//! # Examples
//!
//! One program per common task, in [`examples/`][examples]: accounts and keys, contract
//! views, state, blocks, chunks, the gas price, the node's status, validators,
//! transactions, transfers, function calls, account creation, errors, configurations and
//! the blocking client. What they read by default is on the mock node's chain, so each
//! runs offline against it.
//!
//! [examples]: https://docs.rs/crate/near-rpc/latest/source/examples/README.md
