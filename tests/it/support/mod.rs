//! Loopback servers for the client tests: the mock node (`near-rpc-mock`) answering a
//! script of replies in order (the last repeats), on a thread of its own so that async
//! and blocking tests can both use it. Every request is recorded.

#![allow(dead_code)]

use near_rpc_mock::{BackgroundServer, MockNode};
pub use near_rpc_mock::{HttpReply as Reply, Recorded};

/// A scripted server; it stops when dropped.
pub struct TestServer {
    server: BackgroundServer,
}

impl TestServer {
    /// Starts serving `replies` in order; after the last, the last one repeats.
    pub fn start(replies: Vec<Reply>) -> Self {
        assert!(!replies.is_empty(), "a script needs a reply");
        let node = MockNode::new();
        node.script(replies);
        let server = node.serve_in_background(0).expect("listen on loopback");
        Self { server }
    }

    /// The base URL, with an optional path (where an API key may go).
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server.url())
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.server.requests()
    }
}

/// A loopback URL where nothing listens (connection refused).
pub fn refused_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}
