//! The guide: near-rpc by what you do with it. Documentation only; these modules hold no
//! items.
//!
//! The crate's front page says what each module is and how to choose a spec version;
//! these pages are the tour, one per task, each pointing at the modules that do the work.
//!
//! | you want to | read |
//! |---|---|
//! | read from a node: accounts, contracts, blocks, any method | [`reading`] |
//! | send transactions (or sign them for a relayer), and know what happened to them | [`writing`] |
//! | handle failures: typed errors, retries, failover, limits | [`errors`] |
//! | use an API key, and keep keys out of logs | [`keys`] |
//! | check what a node answers instead of believing it | [`verification`] |
//! | decode response bodies yourself, or embed the types in your own | [`decoding`] |
//! | run the client in a browser or under Node (wasm32) | [`browser`] |
//! | test your code against a node that executes what it is sent | the mock node, crate [`near-rpc-mock`][mock] ([its README][mock-readme]) |
//! | write a library on near-rpc, or follow a newer nearcore | the crate docs, [Spec versions](crate#spec-versions) |
//! | call a node from the shell | the CLI, crate [`near-rpc-cli`][cli] (its README) |
//!
//! The [examples] are one small program per common task, each runnable offline against
//! the mock node.
//!
//! [mock]: https://docs.rs/near-rpc-mock
//! [mock-readme]: https://crates.io/crates/near-rpc-mock
//! [cli]: https://crates.io/crates/near-rpc-cli
//! [examples]: https://docs.rs/crate/near-rpc/latest/source/examples/README.md

pub mod browser;
pub mod decoding;
pub mod errors;
pub mod keys;
pub mod reading;
pub mod verification;
pub mod writing;
