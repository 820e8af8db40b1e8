//! A blocking client (feature `blocking`): the async [`Client`] driven by a private
//! single-threaded tokio runtime. Don't use it inside an async runtime.
//!
//! Its shortcuts are generated from the same definitions as the async client's (see
//! `shortcuts.rs`), so every async shortcut has its blocking twin. Writes with a signer
//! configured once ([`BlockingClient::with_signer`]) wrap the async builders: the same
//! write path, with a blocking `.send()`.

use std::future::Future;
use std::ops::Deref;
use std::sync::Arc;

use super::{
    BuildError, CallBuilder, Client, ClientBuilder, ContractArgs, Error, Input, SendError, Signer,
    SigningClient, TransactionBuilder,
};
use crate::methods::RpcMethod;
use crate::primitives::NearGas;
use crate::replaced::root::AccountId;
use crate::replaced::root::NearToken;
use crate::tx::{Action, SignedTransaction};
use crate::types::RpcTransactionResponse;
use crate::types::TxExecutionStatus;

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

    /// This client with `signer` for its writes: the blocking twin of
    /// [`Client::with_signer`].
    ///
    /// ```no_run
    /// # fn run(client: near_rpc::client::blocking::BlockingClient, signer: near_rpc::Signer) -> Result<(), Box<dyn std::error::Error>> {
    /// use near_rpc::{NearGas, NearToken};
    /// use serde_json::json;
    ///
    /// let alice = client.with_signer(signer);
    /// alice.transfer("bob.near", NearToken::from_near(1)).send()?;
    /// alice
    ///     .call("counter.near", "add")
    ///     .args(json!({ "by": 2 }))
    ///     .gas(NearGas::from_tgas(30))
    ///     .send()?;
    /// # Ok(()) }
    /// ```
    pub fn with_signer(&self, signer: Signer) -> BlockingSigningClient {
        BlockingSigningClient {
            signing: self.client.with_signer(signer),
            client: self.clone(),
        }
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

/// A [`BlockingClient`] with a [`Signer`] ([`BlockingClient::with_signer`]): the blocking
/// twin of [`SigningClient`]. Reads are the blocking client's (through `Deref`).
#[derive(Debug, Clone)]
pub struct BlockingSigningClient {
    client: BlockingClient,
    signing: SigningClient,
}

impl Deref for BlockingSigningClient {
    type Target = BlockingClient;

    fn deref(&self) -> &BlockingClient {
        &self.client
    }
}

impl BlockingSigningClient {
    /// The async signing client underneath.
    pub fn signing_client(&self) -> &SigningClient {
        &self.signing
    }

    /// The signer.
    pub fn signer(&self) -> &Signer {
        self.signing.signer()
    }

    /// A transaction to `receiver`, without actions yet; see [`SigningClient::transaction`].
    pub fn transaction(&self, receiver: impl Input<AccountId>) -> BlockingTransactionBuilder {
        BlockingTransactionBuilder {
            builder: self.signing.transaction(receiver),
            client: self.client.clone(),
        }
    }

    /// Sends `amount` to `receiver` when sent; see [`SigningClient::transfer`].
    pub fn transfer(
        &self,
        receiver: impl Input<AccountId>,
        amount: NearToken,
    ) -> BlockingTransactionBuilder {
        self.transaction(receiver).transfer(amount)
    }

    /// A call of `method` on `contract`; see [`SigningClient::call`].
    pub fn call(&self, contract: impl Input<AccountId>, method: &str) -> BlockingCallBuilder {
        BlockingCallBuilder {
            builder: self.signing.call(contract, method),
            client: self.client.clone(),
        }
    }
}

/// A transaction being built by a [`BlockingSigningClient`]; [`send`](Self::send) it.
/// The blocking twin of [`TransactionBuilder`], whose every action it can take
/// ([`map`](Self::map)).
#[derive(Debug, Clone)]
#[must_use = "a transaction is sent only when sent"]
pub struct BlockingTransactionBuilder {
    builder: TransactionBuilder,
    client: BlockingClient,
}

impl BlockingTransactionBuilder {
    /// The async builder changed by `f`: any of [`TransactionBuilder`]'s actions
    /// (`|tx| tx.create_account().add_full_access_key(key)`).
    pub fn map(mut self, f: impl FnOnce(TransactionBuilder) -> TransactionBuilder) -> Self {
        self.builder = f(self.builder);
        self
    }

    /// Adds `action`.
    pub fn action(self, action: Action) -> Self {
        self.map(|tx| tx.action(action))
    }

    /// Sends `amount` to the receiver.
    pub fn transfer(self, amount: NearToken) -> Self {
        self.map(|tx| tx.transfer(amount))
    }

    /// Calls `method` of the receiver's contract; see [`TransactionBuilder::call`].
    pub fn call(self, method: &str, args: impl ContractArgs) -> Self {
        self.map(|tx| tx.call(method, args))
    }

    /// Waits until `level` instead of the client's level.
    pub fn wait_until(self, level: TxExecutionStatus) -> Self {
        self.map(|tx| tx.wait_until(level))
    }

    /// Signs and sends it through the write path; see [`TransactionBuilder::send`].
    pub fn send(self) -> Result<RpcTransactionResponse, SendError> {
        self.client.block_on(self.builder.send())
    }

    /// Signs it without sending it; see [`TransactionBuilder::prepare`].
    pub fn prepare(self) -> Result<SignedTransaction, SendError> {
        self.client.block_on(self.builder.prepare())
    }
}

/// A function call being built by [`BlockingSigningClient::call`]; [`send`](Self::send)
/// it. The blocking twin of [`CallBuilder`].
#[derive(Debug, Clone)]
#[must_use = "a call is sent only when sent"]
pub struct BlockingCallBuilder {
    builder: CallBuilder,
    client: BlockingClient,
}

impl BlockingCallBuilder {
    /// The arguments; see [`CallBuilder::args`].
    pub fn args(mut self, args: impl ContractArgs) -> Self {
        self.builder = self.builder.args(args);
        self
    }

    /// The arguments as bytes, sent as they are.
    pub fn args_raw(mut self, args: impl Into<Vec<u8>>) -> Self {
        self.builder = self.builder.args_raw(args);
        self
    }

    /// The gas attached (default [`DEFAULT_CALL_GAS`](super::DEFAULT_CALL_GAS)).
    pub fn gas(mut self, gas: NearGas) -> Self {
        self.builder = self.builder.gas(gas);
        self
    }

    /// The deposit attached (default none).
    pub fn deposit(mut self, deposit: NearToken) -> Self {
        self.builder = self.builder.deposit(deposit);
        self
    }

    /// Waits until `level` instead of the client's level.
    pub fn wait_until(mut self, level: TxExecutionStatus) -> Self {
        self.builder = self.builder.wait_until(level);
        self
    }

    /// Signs and sends the call through the write path; see [`CallBuilder::send`].
    pub fn send(self) -> Result<RpcTransactionResponse, SendError> {
        self.client.block_on(self.builder.send())
    }
}
