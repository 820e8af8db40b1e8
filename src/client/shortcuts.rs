//! Typed shortcuts for the methods used most, each a thin layer over [`Client::call`].
//!
//! They are written once, in [`shortcuts!`], which defines each as an async method of
//! [`Client`] and (feature `blocking`) as a blocking method of
//! [`BlockingClient`](super::blocking::BlockingClient) that drives the async one: the
//! two clients cannot drift apart.

use super::{Client, Error};
use crate::methods;
use crate::types::{
    BlockReference, GenesisConfig, GenesisConfigError, RpcProtocolConfigError,
    RpcProtocolConfigRequest, RpcProtocolConfigResponse, RpcTransactionError,
    RpcTransactionStatusRequest, RpcTransactionStatusRequestKind, SignedTransaction,
    TxExecutionStatus,
};
use crate::{AccountId, CryptoHash, RpcTransactionResponse};

/// Which transaction to look up: by hash and sender, or by the signed transaction itself
/// (base64 of its borsh encoding).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TxRef {
    /// By hash and signer.
    Hash {
        /// The transaction hash.
        tx_hash: CryptoHash,
        /// The account that signed it.
        sender_account_id: AccountId,
    },
    /// By the signed transaction, base64-encoded.
    Signed(String),
}

impl From<(CryptoHash, AccountId)> for TxRef {
    fn from((tx_hash, sender_account_id): (CryptoHash, AccountId)) -> Self {
        Self::Hash {
            tx_hash,
            sender_account_id,
        }
    }
}

impl TxRef {
    /// The request for `tx` / `EXPERIMENTAL_tx_status`.
    pub fn request(self, wait_until: TxExecutionStatus) -> RpcTransactionStatusRequest {
        let kind = match self {
            Self::Hash {
                tx_hash,
                sender_account_id,
            } => RpcTransactionStatusRequestKind::TxHashSenderAccountId {
                tx_hash,
                sender_account_id,
            },
            Self::Signed(base64) => RpcTransactionStatusRequestKind::SignedTxBase64 {
                signed_tx_base64: SignedTransaction(base64),
            },
        };
        RpcTransactionStatusRequest {
            wait_until: Some(wait_until),
            kind,
        }
    }
}

/// What `wait_until` defaults to, as in nearcore: executed, not necessarily final.
pub const DEFAULT_WAIT_UNTIL: TxExecutionStatus = TxExecutionStatus::ExecutedOptimistic;

/// Defines each shortcut as an async method of `Client` and a blocking method of
/// `BlockingClient` that runs the async one to completion.
macro_rules! shortcuts {
    ($(
        $(#[$meta:meta])*
        pub fn $name:ident(&$self:ident $(, $arg:ident: $ty:ty)* $(,)?) -> $ret:ty $body:block
    )*) => {
        impl Client {
            $(
                $(#[$meta])*
                pub async fn $name(&$self $(, $arg: $ty)*) -> $ret $body
            )*
        }

        #[cfg(feature = "blocking")]
        impl super::blocking::BlockingClient {
            $(
                #[doc = concat!("Blocking [`Client::", stringify!($name), "`].")]
                pub fn $name(&self $(, $arg: $ty)*) -> $ret {
                    self.block_on(self.client().$name($($arg),*))
                }
            )*
        }

        /// The names of every shortcut, as both clients have them.
        pub const SHORTCUTS: &[&str] = &[$(stringify!($name)),*];
    };
}

shortcuts! {
    /// `EXPERIMENTAL_tx_status`: the transaction's status and, once executed, its outcome
    /// with receipts. Waits until `wait_until` (default [`DEFAULT_WAIT_UNTIL`]).
    pub fn tx_status(
        &self,
        tx: impl Into<TxRef>,
        wait_until: Option<TxExecutionStatus>,
    ) -> Result<RpcTransactionResponse, Error<RpcTransactionError>> {
        let request = tx.into().request(wait_until.unwrap_or(DEFAULT_WAIT_UNTIL));
        self.call::<methods::ExperimentalTxStatusMethod>(request).await
    }

    /// `tx`: like [`Client::tx_status`], with the outcome but without receipts.
    pub fn tx(
        &self,
        tx: impl Into<TxRef>,
        wait_until: Option<TxExecutionStatus>,
    ) -> Result<RpcTransactionResponse, Error<RpcTransactionError>> {
        let request = tx.into().request(wait_until.unwrap_or(DEFAULT_WAIT_UNTIL));
        self.call::<methods::TxMethod>(request).await
    }

    /// `genesis_config`: the chain's genesis configuration.
    pub fn genesis_config(&self) -> Result<GenesisConfig, Error<GenesisConfigError>> {
        self.call::<methods::GenesisConfigMethod>(()).await
    }

    /// `EXPERIMENTAL_genesis_config`: the same, under its older name.
    pub fn experimental_genesis_config(
        &self,
    ) -> Result<GenesisConfig, Error<GenesisConfigError>> {
        self.call::<methods::ExperimentalGenesisConfigMethod>(()).await
    }

    /// `EXPERIMENTAL_protocol_config` at a block: by finality, by height or hash, or at
    /// genesis (`SyncCheckpoint::Genesis`).
    ///
    /// ```no_run
    /// # async fn run(client: near_rpc::client::Client) -> Result<(), Box<dyn std::error::Error>> {
    /// use near_rpc::types::{Finality, SyncCheckpoint};
    /// use near_rpc::BlockId;
    ///
    /// let latest = client.protocol_config_at(Finality::Final).await?;
    /// let at_height = client.protocol_config_at(BlockId::Height(100_000_000)).await?;
    /// let at_genesis = client.protocol_config_at(SyncCheckpoint::Genesis).await?;
    /// # Ok(()) }
    /// ```
    pub fn protocol_config_at(
        &self,
        block: impl Into<BlockReference>,
    ) -> Result<RpcProtocolConfigResponse, Error<RpcProtocolConfigError>> {
        let request = RpcProtocolConfigRequest {
            block_reference: block.into(),
        };
        self.call::<methods::ExperimentalProtocolConfigMethod>(request).await
    }
}
