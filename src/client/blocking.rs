//! A blocking client (feature `blocking`): the async [`Client`] driven by a private
//! single-threaded tokio runtime. Don't use it inside an async runtime.

use super::{BuildError, Client, ClientBuilder, Error, TxRef};
use crate::types::{
    BlockReference, GenesisConfig, GenesisConfigError, RpcProtocolConfigError,
    RpcProtocolConfigResponse, RpcTransactionError, TxExecutionStatus,
};
use crate::{RpcMethod, RpcTransactionResponse};

/// A blocking NEAR JSON-RPC client with the same behaviour as [`Client`].
#[derive(Debug)]
pub struct BlockingClient {
    client: Client,
    runtime: tokio::runtime::Runtime,
}

impl ClientBuilder {
    /// Builds a [`BlockingClient`].
    pub fn build_blocking(self) -> Result<BlockingClient, BuildError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| BuildError::Http(format!("cannot start a runtime: {e}")))?;
        Ok(BlockingClient {
            client: self.build()?,
            runtime,
        })
    }
}

impl BlockingClient {
    /// See [`Client::call`].
    pub fn call<M: RpcMethod>(&self, params: M::Params) -> Result<M::Result, Error<M::Error>> {
        self.runtime.block_on(self.client.call::<M>(params))
    }

    /// See [`Client::tx_status`].
    pub fn tx_status(
        &self,
        tx: impl Into<TxRef>,
        wait_until: Option<TxExecutionStatus>,
    ) -> Result<RpcTransactionResponse, Error<RpcTransactionError>> {
        self.runtime.block_on(self.client.tx_status(tx, wait_until))
    }

    /// See [`Client::tx`].
    pub fn tx(
        &self,
        tx: impl Into<TxRef>,
        wait_until: Option<TxExecutionStatus>,
    ) -> Result<RpcTransactionResponse, Error<RpcTransactionError>> {
        self.runtime.block_on(self.client.tx(tx, wait_until))
    }

    /// See [`Client::genesis_config`].
    pub fn genesis_config(&self) -> Result<GenesisConfig, Error<GenesisConfigError>> {
        self.runtime.block_on(self.client.genesis_config())
    }

    /// See [`Client::protocol_config_at`].
    pub fn protocol_config_at(
        &self,
        block: impl Into<BlockReference>,
    ) -> Result<RpcProtocolConfigResponse, Error<RpcProtocolConfigError>> {
        self.runtime.block_on(self.client.protocol_config_at(block))
    }
}
