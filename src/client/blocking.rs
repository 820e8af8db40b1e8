//! A blocking client (feature `blocking`): the async [`Client`] driven by a private
//! single-threaded tokio runtime. Don't use it inside an async runtime.
//!
//! Its shortcuts are generated from the same definitions as the async client's (see
//! `shortcuts.rs`), so every async shortcut has its blocking twin.

use std::future::Future;
use std::sync::Arc;

use super::{BuildError, Client, ClientBuilder, Error, Input, SendError, Signer};
use crate::tx::{Action, SignedTransaction};
use crate::{methods::RpcMethod, types::RpcTransactionResponse, AccountId};

/// A blocking NEAR JSON-RPC client with the same behaviour as [`Client`].
#[derive(Debug, Clone)]
pub struct BlockingClient {
    client: Client,
    runtime: Arc<tokio::runtime::Runtime>,
}

impl ClientBuilder {
    /// Builds a [`BlockingClient`].
    pub fn build_blocking(self) -> Result<BlockingClient, BuildError> {
        BlockingClient::new(self.build()?)
    }
}

impl BlockingClient {
    /// Drives `client` from blocking code.
    pub fn new(client: Client) -> Result<Self, BuildError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| BuildError::Http(format!("cannot start a runtime: {e}")))?;
        Ok(Self {
            client,
            runtime: Arc::new(runtime),
        })
    }

    /// A client that reads views at `block`; see [`Client::at`].
    pub fn at(&self, block: impl Into<crate::types::BlockReference>) -> Self {
        Self {
            client: self.client.at(block),
            runtime: Arc::clone(&self.runtime),
        }
    }

    /// A client whose writes wait until `level`; see [`Client::waiting_until`].
    pub fn waiting_until(&self, level: crate::types::TxExecutionStatus) -> Self {
        Self {
            client: self.client.waiting_until(level),
            runtime: Arc::clone(&self.runtime),
        }
    }

    /// The async client underneath.
    pub fn client(&self) -> &Client {
        &self.client
    }

    pub(super) fn block_on<F: Future>(&self, future: F) -> F::Output {
        self.runtime.block_on(future)
    }

    /// See [`Client::call`].
    pub fn call<M: RpcMethod>(&self, params: M::Params) -> Result<M::Result, Error<M::Error>> {
        self.block_on(self.client.call::<M>(params))
    }

    /// See [`Client::prepare`].
    pub fn prepare(
        &self,
        signer: &Signer,
        receiver: impl Input<AccountId>,
        actions: Vec<Action>,
    ) -> Result<SignedTransaction, SendError> {
        self.block_on(self.client.prepare(signer, receiver, actions))
    }

    /// See [`Client::send_signed`].
    pub fn send_signed(
        &self,
        signed: &SignedTransaction,
    ) -> Result<RpcTransactionResponse, SendError> {
        self.block_on(self.client.send_signed(signed))
    }

    /// See [`Client::renew`].
    pub fn renew(
        &self,
        signer: &Signer,
        signed: &SignedTransaction,
    ) -> Result<SignedTransaction, SendError> {
        self.block_on(self.client.renew(signer, signed))
    }
}
