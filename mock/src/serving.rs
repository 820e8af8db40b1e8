//! The mock node served over HTTP: [`MockServer`] and [`BackgroundServer`], and the
//! [`MockNode`] methods that start them. The HTTP server itself (`server.rs`) answers
//! through a handler and knows nothing of the node; the node (`node.rs`) knows nothing
//! of sockets: this file puts the two together.

use std::io;
use std::sync::Arc;

use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::node::MockNode;
use crate::server::{listen_until, Handler, ServerOptions};
use crate::wire::HttpReply;

impl MockNode {
    /// Starts a node with the default chain on `127.0.0.1` at an ephemeral port.
    pub async fn start() -> MockServer {
        match Self::new().serve(0).await {
            Ok(server) => server,
            // Binding port 0 on loopback fails only when the machine has no loopback.
            Err(e) => panic!("cannot listen on 127.0.0.1: {e}"),
        }
    }

    /// Serves this node on `127.0.0.1:port` (0: any free port) until the returned
    /// server is dropped or stopped ([`MockServer::stop`]), with the default
    /// [`ServerOptions`].
    pub async fn serve(&self, port: u16) -> std::io::Result<MockServer> {
        self.serve_with(ServerOptions::new().port(port)).await
    }

    /// Serves this node as `options` say (port, allowed origins, limits) until the
    /// returned server is dropped or stopped.
    pub async fn serve_with(&self, options: ServerOptions) -> std::io::Result<MockServer> {
        serve(self.clone(), options).await
    }

    /// Serves this node on `127.0.0.1:port` from a thread of its own, so that blocking
    /// code and other processes can call it; it stops when the returned server is
    /// dropped. Needs no runtime.
    pub fn serve_in_background(&self, port: u16) -> std::io::Result<BackgroundServer> {
        self.serve_in_background_with(ServerOptions::new().port(port))
    }

    /// Serves this node as `options` say from a thread of its own (see
    /// [`MockNode::serve_in_background`]).
    pub fn serve_in_background_with(
        &self,
        options: ServerOptions,
    ) -> std::io::Result<BackgroundServer> {
        serve_in_background(self.clone(), options)
    }

    /// A node with the default chain serving from a thread of its own at an ephemeral
    /// port (see [`MockNode::serve_in_background`]).
    pub fn start_in_background() -> BackgroundServer {
        match Self::new().serve_in_background(0) {
            Ok(server) => server,
            Err(e) => panic!("cannot listen on 127.0.0.1: {e}"),
        }
    }

    /// A node answering `replies` in order whatever is asked (see [`MockNode::script`]),
    /// served from a thread of its own at an ephemeral port.
    pub fn start_scripted(replies: Vec<HttpReply>) -> BackgroundServer {
        let node = Self::new();
        node.script(replies);
        match node.serve_in_background(0) {
            Ok(server) => server,
            Err(e) => panic!("cannot listen on 127.0.0.1: {e}"),
        }
    }
}

/// A running mock server. Dereferences to its [`MockNode`].
///
/// It stops when dropped: the listener closes, and so does every open connection,
/// kept-alive ones included, as the runtime cancels their tasks (moments later, as
/// dropping cannot wait). [`MockServer::stop`] returns once all of that is done.
#[derive(Debug)]
pub struct MockServer {
    node: MockNode,
    url: String,
    accept: JoinHandle<()>,
    stop: Option<oneshot::Sender<()>>,
}

impl MockServer {
    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The node behind it.
    pub fn node(&self) -> &MockNode {
        &self.node
    }

    /// Stops the server and waits until it has: the listener is closed and every
    /// connection has ended (a request being answered is cut off), so that nothing
    /// answers at its URL any more, not even a client's pooled connection.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        // Ends once the accept task has closed its connections; an error only says it
        // had already ended.
        let _ = (&mut self.accept).await;
    }
}

impl std::ops::Deref for MockServer {
    type Target = MockNode;

    fn deref(&self) -> &MockNode {
        &self.node
    }
}

impl Drop for MockServer {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

/// A mock server on a thread of its own, with its own runtime: for blocking tests and
/// for tests that run another process against it. It stops when dropped.
#[derive(Debug)]
pub struct BackgroundServer {
    node: MockNode,
    url: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl BackgroundServer {
    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The URL with `path` after it (where an API key may go).
    pub fn url_with(&self, path: &str) -> String {
        format!("{}{path}", self.url)
    }
}

impl std::ops::Deref for BackgroundServer {
    type Target = MockNode;

    fn deref(&self) -> &MockNode {
        &self.node
    }
}

impl Drop for BackgroundServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn serve_in_background(node: MockNode, options: ServerOptions) -> io::Result<BackgroundServer> {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (ready, url) = std::sync::mpsc::channel::<io::Result<String>>();
    let served = node.clone();
    let thread = std::thread::spawn(move || {
        let runtime = match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime,
            Err(e) => {
                let _ = ready.send(Err(e));
                return;
            }
        };
        runtime.block_on(async move {
            match serve(served, options).await {
                Ok(server) => {
                    let _ = ready.send(Ok(server.url().to_owned()));
                    // Until the handle is dropped (or dropped without a word).
                    let _ = stopped.await;
                    server.stop().await;
                }
                Err(e) => {
                    let _ = ready.send(Err(e));
                }
            }
        });
    });
    let url = url
        .recv()
        .map_err(|_| io::Error::other("the server thread ended before listening"))??;
    Ok(BackgroundServer {
        node,
        url,
        stop: Some(stop),
        thread: Some(thread),
    })
}

async fn serve(node: MockNode, options: ServerOptions) -> io::Result<MockServer> {
    let handler = node.clone();
    let handler: Handler = Arc::new(move |request| {
        let node = handler.clone();
        Box::pin(async move { node.handle(request).await })
    });
    let (stop, stopped) = oneshot::channel();
    let (url, accept) = listen_until(handler, options, async move {
        // A sender dropped without a word stops the server too.
        let _ = stopped.await;
    })
    .await?;
    Ok(MockServer {
        node,
        url,
        accept,
        stop: Some(stop),
    })
}
