//! Loopback servers for the client tests: the mock node (`near-rpc-mock`) answering a
//! script of replies in order (the last repeats), on a thread of its own so that async
//! and blocking tests can both use it. Every request is recorded.

#![allow(dead_code)]

pub use near_rpc_mock::{unused_url as refused_url, HttpReply as Reply, Recorded};
use near_rpc_mock::{BackgroundServer, MockNode};

/// A scripted server; it stops when dropped.
pub struct TestServer(BackgroundServer);

impl TestServer {
    /// Starts serving `replies` in order; after the last, the last one repeats.
    pub fn start(replies: Vec<Reply>) -> Self {
        Self(MockNode::start_scripted(replies))
    }

    /// The base URL, with an optional path (where an API key may go).
    pub fn url(&self, path: &str) -> String {
        self.0.url_with(path)
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.0.requests()
    }
}
