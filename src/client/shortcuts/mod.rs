//! Typed shortcuts for the common calls, each a thin layer over [`Client::call`], which
//! stays the way to reach every method.
//!
//! They are written once, in [`shortcuts!`], which defines each as an async method of
//! [`Client`] and (feature `blocking`) as a blocking method of
//! [`BlockingClient`](super::blocking::BlockingClient) that drives the async one: the
//! two clients cannot drift apart.
//!
//! The write shortcuts (`send`, `transfer`, `function_call`, ...) are in `writes.rs`.
//!
//! Views (`view_*`, `call_function`, `changes`) read at the client's block, latest final
//! unless set with [`Client::at`]; they return the value with the block it was read at
//! ([`AtBlock`]). A `query` answer that carries an error inside its `result` (old nodes
//! do that) is an [`ErrorKind::Rpc`](super::ErrorKind::Rpc) with the typed cause, never an `Ok`.

mod input;
mod node_info;
mod values;

pub use input::Input;
pub use node_info::NodeInfo;
pub use values::{AtBlock, ChunkRef, ContractArgs, Epoch, GasPrice, RawArgs};
pub use writes::{DEFAULT_CALL_GAS, WRITE_SHORTCUTS};

use super::{Client, Error};
use crate::methods;
use crate::methods::RpcMethod;
use crate::primitives::BlockId;
use crate::primitives::CryptoHash;
use crate::primitives::PublicKey;
use crate::replaced::root::AccountId;
use crate::types::RpcTransactionResponse;
use crate::types::{
    AccessKeyList, AccessKeyView, AccountView, BlockReference, CallResult, ContractCodeView,
    FunctionArgs, GasKeyNoncesView, GenesisConfig, GenesisConfigError, RpcBlockError,
    RpcBlockRequest, RpcBlockResponse, RpcChunkError, RpcChunkRequest, RpcChunkResponse,
    RpcGasPriceError, RpcGasPriceRequest, RpcLightClientExecutionProofRequest,
    RpcLightClientExecutionProofRequestKind, RpcLightClientExecutionProofResponse,
    RpcLightClientProofError, RpcNetworkInfoError, RpcNetworkInfoResponse, RpcProtocolConfigError,
    RpcProtocolConfigRequest, RpcProtocolConfigResponse, RpcQueryError, RpcQueryRequest,
    RpcQueryRequestKind, RpcQueryResponseKind, RpcSendTransactionRequest, RpcStateChangesError,
    RpcStateChangesInBlockByTypeRequest, RpcStateChangesInBlockByTypeRequestKind,
    RpcStateChangesInBlockResponse, RpcStatusError, RpcStatusResponse, RpcTransactionError,
    RpcTransactionStatusRequest, RpcTransactionStatusRequestKind, RpcValidatorError,
    RpcValidatorRequest, RpcValidatorResponse, SignedTransaction, StoreKey, TxExecutionStatus,
    ViewStateResult,
};

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
    ($names:ident; $(
        $(#[$meta:meta])*
        pub async fn $name:ident(&$self:ident $(, $arg:ident: $ty:ty)* $(,)?) -> $ret:ty $body:block
    )*) => {
        impl Client {
            $(
                $(#[$meta])*
                pub async fn $name(&$self $(, $arg: $ty)*) -> $ret $body
            )*
        }

        #[cfg(feature = "blocking")]
        impl $crate::client::blocking::BlockingClient {
            $(
                #[doc = concat!("Blocking [`Client::", stringify!($name), "`].")]
                pub fn $name(&self $(, $arg: $ty)*) -> $ret {
                    self.block_on(self.client().$name($($arg),*))
                }
            )*
        }

        /// The names of these shortcuts, as both clients have them.
        pub const $names: &[&str] = &[$(stringify!($name)),*];
    };
}

/// Wraps a doc example's body in an async fn taking `client`.
macro_rules! example {
    ($($body:literal)*) => {
        concat!(
            "```no_run\n",
            "# async fn run(client: near_rpc::client::Client) -> Result<(), Box<dyn std::error::Error>> {\n",
            $($body, "\n",)*
            "# Ok(()) }\n",
            "```"
        )
    };
}

// After the macros, which it uses.
mod writes;

// The shortcuts only nearcore 0.38's bindings have.
#[cfg(near_rpc_spec_ge = "nearcore_0_38_0")]
shortcuts! { PAGED_SHORTCUTS;
    /// `query` `view_access_key_list`, one page (nodes of nearcore 0.38): at most
    /// `limit` keys after the cursor `after_key` (the `last_key` of the page before;
    /// `None`: from the first). The answer's `last_key` is the next page's cursor,
    /// `None` on the last page. [`Client::view_access_key_list`] reads them all.
    #[doc = example!(
        "let page = client.view_access_key_page(\"alice.near\", None, Some(100)).await?;"
        "if let Some(next) = page.value.last_key.clone() {"
        "    let more = client.view_access_key_page(\"alice.near\", Some(next), Some(100)).await?;"
        "}"
    )]
    pub async fn view_access_key_page(
        &self,
        account: impl Input<AccountId>,
        after_key: Option<crate::types::PublicKeyHandle>,
        limit: Option<u32>,
    ) -> Result<AtBlock<AccessKeyList>, Error<RpcQueryError>> {
        let account_id = self.input(account, "the account id")?;
        self.access_key_page(account_id, after_key, limit).await
    }
}

// nearcore 0.38's spice light-client proofs. Nodes without spice (all of mainnet when
// these bindings were made) answer them with an error; `crate::verify` does not check
// them (its docs say what that would take).
#[cfg(near_rpc_spec_ge = "nearcore_0_38_0")]
shortcuts! { SPICE_PROOF_SHORTCUTS;
    /// `EXPERIMENTAL_light_client_execution_outcome_proof` (nodes of nearcore 0.38): a
    /// transaction's or receipt's outcome with its proof against the light client's
    /// head, for chains with spice.
    #[doc = example!(
        "use near_rpc::types::RpcLightClientExecutionOutcomeProofRequestKind as Of;"
        "let of = Of::Transaction { sender_id: \"alice.near\".parse()?, transaction_hash: \"9FtHUFBQsZ2MG77K3x3MJ9wjX3UT8zE1TczCrhZEcG8U\".parse()? };"
        "let proof = client.light_client_execution_outcome_proof(of, \"3tM2JZ8hQsZ2tQq6YkeF8W8jB4TMaBHHhDqgAQxGPB2p\".parse()?).await?;"
    )]
    pub async fn light_client_execution_outcome_proof(
        &self,
        of: crate::types::RpcLightClientExecutionOutcomeProofRequestKind,
        light_client_head: CryptoHash,
    ) -> Result<crate::types::RpcLightClientExecutionOutcomeProofResponse, Error<RpcLightClientProofError>> {
        let request = crate::types::RpcLightClientExecutionOutcomeProofRequest {
            light_client_head,
            kind: of,
        };
        self.call::<methods::ExperimentalLightClientExecutionOutcomeProofMethod>(request).await
    }

    /// `EXPERIMENTAL_light_client_chunk_execution_proof` (nodes of nearcore 0.38): the
    /// proof of a chunk's execution roots against the light client's head.
    #[doc = example!(
        "use near_rpc::types::{ShardId, SpiceChunkId};"
        "let chunk = SpiceChunkId { block_hash: \"3tM2JZ8hQsZ2tQq6YkeF8W8jB4TMaBHHhDqgAQxGPB2p\".parse()?, shard_id: ShardId(0) };"
        "let proof = client.light_client_chunk_execution_proof(chunk, \"3tM2JZ8hQsZ2tQq6YkeF8W8jB4TMaBHHhDqgAQxGPB2p\".parse()?).await?;"
    )]
    pub async fn light_client_chunk_execution_proof(
        &self,
        chunk_id: crate::types::SpiceChunkId,
        light_client_head: CryptoHash,
    ) -> Result<crate::types::RpcLightClientChunkExecutionProofResponse, Error<RpcLightClientProofError>> {
        let request = crate::types::RpcLightClientChunkExecutionProofRequest {
            chunk_id,
            light_client_head,
        };
        self.call::<methods::ExperimentalLightClientChunkExecutionProofMethod>(request).await
    }

    /// `EXPERIMENTAL_light_client_state_proof` (nodes of nearcore 0.38): an account, its
    /// code, a storage key or an access key (`target`) after a chunk, with the proof of
    /// the chunk's execution against the light client's head.
    #[doc = example!(
        "use near_rpc::types::{ShardId, SpiceChunkId, StateProofTarget};"
        "let chunk = SpiceChunkId { block_hash: \"3tM2JZ8hQsZ2tQq6YkeF8W8jB4TMaBHHhDqgAQxGPB2p\".parse()?, shard_id: ShardId(0) };"
        "let target = StateProofTarget::Account { account_id: \"alice.near\".parse()? };"
        "let proof = client.light_client_state_proof(chunk, target, \"3tM2JZ8hQsZ2tQq6YkeF8W8jB4TMaBHHhDqgAQxGPB2p\".parse()?).await?;"
    )]
    pub async fn light_client_state_proof(
        &self,
        chunk_id: crate::types::SpiceChunkId,
        target: crate::types::StateProofTarget,
        light_client_head: CryptoHash,
    ) -> Result<crate::types::RpcLightClientStateProofResponse, Error<RpcLightClientProofError>> {
        let request = crate::types::RpcLightClientStateProofRequest {
            chunk_id,
            light_client_head,
            target,
        };
        self.call::<methods::ExperimentalLightClientStateProofMethod>(request).await
    }
}

shortcuts! { SHORTCUTS;
    /// `query` `view_account`: the account's balance, locked stake, storage and code hash.
    #[doc = example!(
        "let account = client.view_account(\"alice.near\").await?;"
        "println!(\"{} at block {}\", account.amount, account.block_height);"
    )]
    pub async fn view_account(
        &self,
        account: impl Input<AccountId>,
    ) -> Result<AtBlock<AccountView>, Error<RpcQueryError>> {
        let account_id = self.input(account, "the account id")?;
        let view = self.view(RpcQueryRequestKind::ViewAccount { account_id }).await?;
        view_as(view, |kind| match kind {
            RpcQueryResponseKind::AccountView(view) => Some(view),
            _ => None,
        })
    }

    /// `query` `view_access_key`: one access key's nonce and permission.
    #[doc = example!(
        "let key = client.view_access_key(\"alice.near\", \"ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW\").await?;"
        "println!(\"next nonce {}\", key.nonce + 1);"
    )]
    pub async fn view_access_key(
        &self,
        account: impl Input<AccountId>,
        public_key: impl Input<PublicKey>,
    ) -> Result<AtBlock<AccessKeyView>, Error<RpcQueryError>> {
        let account_id = self.input(account, "the account id")?;
        let public_key = self.input(public_key, "the public key")?;
        let kind = RpcQueryRequestKind::ViewAccessKey { account_id, public_key };
        view_as(self.view(kind).await?, |kind| match kind {
            RpcQueryResponseKind::AccessKeyView(view) => Some(view),
            _ => None,
        })
    }

    /// `query` `view_gas_key_nonces`: a gas key's nonces, one per nonce index (a
    /// transaction at index `i` takes a nonce above `nonces[i]`).
    #[doc = example!(
        "let gas_key = client.view_gas_key_nonces(\"alice.near\", \"ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW\").await?;"
        "for (index, nonce) in gas_key.nonces.iter().enumerate() { println!(\"index {index}: next nonce {}\", nonce + 1); }"
    )]
    pub async fn view_gas_key_nonces(
        &self,
        account: impl Input<AccountId>,
        public_key: impl Input<PublicKey>,
    ) -> Result<AtBlock<GasKeyNoncesView>, Error<RpcQueryError>> {
        let account_id = self.input(account, "the account id")?;
        let public_key = self.input(public_key, "the public key")?;
        let kind = RpcQueryRequestKind::ViewGasKeyNonces { account_id, public_key };
        view_as(self.view(kind).await?, |kind| match kind {
            RpcQueryResponseKind::GasKeyNoncesView(view) => Some(view),
            _ => None,
        })
    }

    /// `query` `view_access_key_list`: every access key of the account. Nodes of
    /// nearcore 0.38 answer in pages: with those bindings, every page is read, at the
    /// block of the first, and the keys come back together (`last_key` empty).
    #[doc = example!(
        "let keys = client.view_access_key_list(\"alice.near\").await?;"
        "for key in &keys.keys { println!(\"{}\", key.public_key); }"
    )]
    pub async fn view_access_key_list(
        &self,
        account: impl Input<AccountId>,
    ) -> Result<AtBlock<AccessKeyList>, Error<RpcQueryError>> {
        let account_id = self.input(account, "the account id")?;
        self.access_key_list(account_id).await
    }

    /// `query` `view_code`: the contract's code (base64) and its hash.
    #[doc = example!(
        "let code = client.view_code(\"contract.near\").await?;"
        "println!(\"code hash {}\", code.hash);"
    )]
    pub async fn view_code(
        &self,
        account: impl Input<AccountId>,
    ) -> Result<AtBlock<ContractCodeView>, Error<RpcQueryError>> {
        let account_id = self.input(account, "the account id")?;
        view_as(self.view(RpcQueryRequestKind::ViewCode { account_id }).await?, |kind| match kind {
            RpcQueryResponseKind::ContractCodeView(code) => Some(code),
            _ => None,
        })
    }

    /// `query` `view_state`: the contract's storage entries whose keys start with `prefix`
    /// (empty: all of them; nodes refuse states over 50 kB with `TOO_LARGE_CONTRACT_STATE`).
    #[doc = example!(
        "let state = client.view_state(\"contract.near\", b\"STATE\").await?;"
        "println!(\"{} entries\", state.values.len());"
    )]
    pub async fn view_state(
        &self,
        account: impl Input<AccountId>,
        prefix: impl AsRef<[u8]>,
    ) -> Result<AtBlock<ViewStateResult>, Error<RpcQueryError>> {
        let account_id = self.input(account, "the account id")?;
        self.view_state_inner(account_id, prefix.as_ref(), false).await
    }

    /// Like [`Client::view_state`], with the trie proof of the entries (`proof`).
    #[doc = example!(
        "let state = client.view_state_with_proof(\"contract.near\", b\"\").await?;"
        "println!(\"{} proof nodes\", state.proof.len());"
    )]
    pub async fn view_state_with_proof(
        &self,
        account: impl Input<AccountId>,
        prefix: impl AsRef<[u8]>,
    ) -> Result<AtBlock<ViewStateResult>, Error<RpcQueryError>> {
        let account_id = self.input(account, "the account id")?;
        self.view_state_inner(account_id, prefix.as_ref(), true).await
    }

    /// `query` `call_function`: calls a view method of a contract. `args` is any
    /// `Serialize` value, sent as JSON (`()` for none), or [`RawArgs`]. Read the result
    /// with [`CallResult::json`], [`CallResult::text`] or [`CallResult::bytes`]; the
    /// contract's logs are in `logs`. A method that panics or does not exist is an
    /// error (`CONTRACT_EXECUTION_ERROR`).
    #[doc = example!(
        "use serde_json::json;"
        "let result = client.call_function(\"wrap.near\", \"ft_balance_of\", json!({\"account_id\": \"alice.near\"})).await?;"
        "let balance: String = result.json()?;"
    )]
    pub async fn call_function(
        &self,
        contract: impl Input<AccountId>,
        method: &str,
        args: impl ContractArgs,
    ) -> Result<AtBlock<CallResult>, Error<RpcQueryError>> {
        let account_id = self.input(contract, "the contract account id")?;
        let args = args.into_bytes().map_err(|message| Error::encode(methods::QueryMethod::NAME, message))?;
        let kind = RpcQueryRequestKind::CallFunction {
            account_id,
            method_name: method.to_owned(),
            args_base64: FunctionArgs::from_bytes(args),
        };
        view_as(self.view(kind).await?, |kind| match kind {
            RpcQueryResponseKind::CallResult(result) => Some(result),
            _ => None,
        })
    }

    /// `query` with any request: the answer's kind at its block, with errors a legacy
    /// node put inside `result` turned into [`ErrorKind::Rpc`](super::ErrorKind::Rpc) (unlike
    /// `call::<methods::QueryMethod>`, which returns the bindings' raw
    /// [`RpcQueryResponseKind::LegacyError`]).
    #[doc = example!(
        "use near_rpc::types::{Finality, RpcQueryRequest, RpcQueryRequestKind};"
        "let request = RpcQueryRequest {"
        "    block_reference: Finality::Optimistic.into(),"
        "    kind: RpcQueryRequestKind::ViewAccount { account_id: \"alice.near\".parse()? },"
        "};"
        "let answer = client.query(request).await?;"
    )]
    pub async fn query(
        &self,
        request: RpcQueryRequest,
    ) -> Result<AtBlock<RpcQueryResponseKind>, Error<RpcQueryError>> {
        self.query_typed(request).await
    }

    /// `block`: the block at a finality, height or hash.
    #[doc = example!(
        "use near_rpc::types::Finality;"
        "let block = client.block(Finality::Final).await?;"
        "println!(\"{} {}\", block.header.height, block.header.hash);"
        "let older = client.block(100_000_000).await?;"
    )]
    pub async fn block(
        &self,
        at: impl Into<BlockReference>,
    ) -> Result<RpcBlockResponse, Error<RpcBlockError>> {
        self.call::<methods::BlockMethod>(RpcBlockRequest { block_reference: at.into() }).await
    }

    /// `chunk`: by block and shard (`(height_or_hash, shard)`) or by chunk hash.
    #[doc = example!(
        "let chunk = client.chunk((100_000_000, 0)).await?;"
        "println!(\"{} transactions\", chunk.transactions.len());"
    )]
    pub async fn chunk(
        &self,
        chunk: impl Into<ChunkRef>,
    ) -> Result<RpcChunkResponse, Error<RpcChunkError>> {
        let request = RpcChunkRequest { kind: chunk.into().into() };
        self.call::<methods::ChunkMethod>(request).await
    }

    /// `gas_price`: at a block, or (`None`) at the latest one.
    #[doc = example!(
        "let price = client.gas_price(None).await?;"
        "println!(\"{price}\"); // 100000000 yoctoNEAR/gas"
    )]
    pub async fn gas_price(
        &self,
        at: impl Into<Option<BlockId>>,
    ) -> Result<GasPrice, Error<RpcGasPriceError>> {
        let request = RpcGasPriceRequest { block_id: at.into() };
        let response = self.call::<methods::GasPriceMethod>(request).await?;
        Ok(GasPrice::from(response.gas_price))
    }

    /// `status`: the node's version, chain, sync state and validators.
    #[doc = example!(
        "let status = client.status().await?;"
        "println!(\"{} at {}\", status.chain_id, status.sync_info.latest_block_height);"
    )]
    pub async fn status(&self) -> Result<RpcStatusResponse, Error<RpcStatusError>> {
        self.call::<methods::StatusMethod>(()).await
    }

    /// The node's version and protocol (from `status`) next to the bindings' spec
    /// version, with a verdict on whether the node's answer has things the bindings
    /// don't know.
    #[doc = example!(
        "let info = client.node_info().await?;"
        "println!(\"{info}\");"
        "if info.has_unrecognized() { eprintln!(\"{}\", info.unrecognized); }"
    )]
    pub async fn node_info(&self) -> Result<NodeInfo, Error<RpcStatusError>> {
        let answer = self.call_answered::<methods::StatusMethod>(()).await?;
        Ok(NodeInfo::new(answer.result, &answer.body))
    }

    /// `network_info`: the node's peers and traffic.
    #[doc = example!(
        "let network = client.network_info().await?;"
        "println!(\"{} peers\", network.num_active_peers);"
    )]
    pub async fn network_info(&self) -> Result<RpcNetworkInfoResponse, Error<RpcNetworkInfoError>> {
        self.call::<methods::NetworkInfoMethod>(()).await
    }

    /// `health`: `Ok` when the node is healthy (it answers an error otherwise).
    #[doc = example!("client.health().await?;")]
    pub async fn health(&self) -> Result<(), Error<RpcStatusError>> {
        self.call::<methods::HealthMethod>(()).await.map(drop)
    }

    /// `validators`: the validators of the latest epoch, of an epoch by id, or of the
    /// epoch a block ends.
    #[doc = example!(
        "use near_rpc::client::Epoch;"
        "let validators = client.validators(Epoch::Latest).await?;"
        "println!(\"{} validators\", validators.current_validators.len());"
    )]
    pub async fn validators(
        &self,
        epoch: impl Into<Epoch>,
    ) -> Result<RpcValidatorResponse, Error<RpcValidatorError>> {
        let request = RpcValidatorRequest { kind: epoch.into().into() };
        self.call::<methods::ValidatorsMethod>(request).await
    }

    /// `light_client_proof`: the proof of a transaction's or receipt's outcome against
    /// a light client's head.
    #[doc = example!(
        "use near_rpc::types::RpcLightClientExecutionProofRequestKind as Of;"
        "let tx = Of::Transaction { sender_id: \"alice.near\".parse()?, transaction_hash: \"9FtHUFBQsZ2MG77K3x3MJ9wjX3UT8zE1TczCrhZEcG8U\".parse()? };"
        "let proof = client.light_client_proof(tx, \"3tM2JZ8hQsZ2tQq6YkeF8W8jB4TMaBHHhDqgAQxGPB2p\".parse()?).await?;"
    )]
    pub async fn light_client_proof(
        &self,
        of: RpcLightClientExecutionProofRequestKind,
        light_client_head: CryptoHash,
    ) -> Result<RpcLightClientExecutionProofResponse, Error<RpcLightClientProofError>> {
        let request = RpcLightClientExecutionProofRequest { light_client_head, kind: of };
        self.call::<methods::LightClientProofMethod>(request).await
    }

    /// `changes`: what changed in the client's block (see [`Client::at`]) for the
    /// accounts, keys or storage keys `kind` names.
    #[doc = example!(
        "use near_rpc::types::RpcStateChangesInBlockByTypeRequestKind as Kind;"
        "let kind = Kind::AccountChanges { account_ids: vec![\"alice.near\".parse()?] };"
        "let changes = client.changes(kind).await?;"
        "println!(\"{} changes\", changes.changes.len());"
    )]
    pub async fn changes(
        &self,
        kind: RpcStateChangesInBlockByTypeRequestKind,
    ) -> Result<RpcStateChangesInBlockResponse, Error<RpcStateChangesError>> {
        let request = RpcStateChangesInBlockByTypeRequest {
            block_reference: self.read_at.clone(),
            kind,
        };
        self.call::<methods::ChangesMethod>(request).await
    }

    /// `send_tx`: submits a signed transaction (its borsh bytes, or their base64) and
    /// waits until `wait_until` (default [`DEFAULT_WAIT_UNTIL`]). Text that is not base64
    /// is refused before anything is sent; the call is never repeated once it may have
    /// reached a node. This is the method alone: its answer is the node's, whatever it
    /// holds. [`Client::send_signed`] sends a [`SignedTransaction`](crate::tx::SignedTransaction)
    /// through the write path instead (success only on its own outcome, anything less
    /// resolved by hash).
    #[doc = example!(
        "# let signed_tx_bytes: Vec<u8> = vec![];"
        "let outcome = client.send_tx(signed_tx_bytes, None).await?;"
        "println!(\"failed: {}\", outcome.is_failure());"
    )]
    pub async fn send_tx(
        &self,
        tx: impl Into<SignedTransaction>,
        wait_until: Option<TxExecutionStatus>,
    ) -> Result<RpcTransactionResponse, Error<RpcTransactionError>> {
        let request = RpcSendTransactionRequest {
            signed_tx_base64: tx.into(),
            wait_until: Some(wait_until.unwrap_or(DEFAULT_WAIT_UNTIL)),
        };
        self.call::<methods::SendTxMethod>(request).await
    }

    /// `broadcast_tx_async`: submits a signed transaction without waiting; the answer
    /// is its hash.
    #[doc = example!(
        "# let signed_tx_base64 = String::new();"
        "let hash = client.broadcast_tx_async(signed_tx_base64).await?;"
    )]
    pub async fn broadcast_tx_async(
        &self,
        tx: impl Into<SignedTransaction>,
    ) -> Result<CryptoHash, Error<RpcTransactionError>> {
        let request = RpcSendTransactionRequest { signed_tx_base64: tx.into(), wait_until: None };
        self.call::<methods::BroadcastTxAsyncMethod>(request).await
    }

    /// `broadcast_tx_commit`: submits a signed transaction and waits for its outcome.
    #[doc = example!(
        "# let signed_tx_bytes: Vec<u8> = vec![];"
        "let outcome = client.broadcast_tx_commit(signed_tx_bytes).await?;"
    )]
    pub async fn broadcast_tx_commit(
        &self,
        tx: impl Into<SignedTransaction>,
    ) -> Result<RpcTransactionResponse, Error<RpcTransactionError>> {
        let request = RpcSendTransactionRequest { signed_tx_base64: tx.into(), wait_until: None };
        self.call::<methods::BroadcastTxCommitMethod>(request).await
    }

    /// `EXPERIMENTAL_tx_status`: the transaction's status and, once executed, its outcome
    /// with receipts. Waits until `wait_until` (default [`DEFAULT_WAIT_UNTIL`]).
    #[doc = example!(
        "use near_rpc::CryptoHash;"
        "let hash: CryptoHash = \"9FtHUFBQsZ2MG77K3x3MJ9wjX3UT8zE1TczCrhZEcG8U\".parse()?;"
        "let status = client.tx_status((hash, \"alice.near\".parse()?), None).await?;"
        "println!(\"failed: {}\", status.is_failure());"
    )]
    pub async fn tx_status(
        &self,
        tx: impl Into<TxRef>,
        wait_until: Option<TxExecutionStatus>,
    ) -> Result<RpcTransactionResponse, Error<RpcTransactionError>> {
        let request = tx.into().request(wait_until.unwrap_or(DEFAULT_WAIT_UNTIL));
        self.call::<methods::ExperimentalTxStatusMethod>(request).await
    }

    /// `tx`: like [`Client::tx_status`], with the outcome but without receipts.
    #[doc = example!(
        "use near_rpc::CryptoHash;"
        "let hash: CryptoHash = \"9FtHUFBQsZ2MG77K3x3MJ9wjX3UT8zE1TczCrhZEcG8U\".parse()?;"
        "let status = client.tx((hash, \"alice.near\".parse()?), None).await?;"
    )]
    pub async fn tx(
        &self,
        tx: impl Into<TxRef>,
        wait_until: Option<TxExecutionStatus>,
    ) -> Result<RpcTransactionResponse, Error<RpcTransactionError>> {
        let request = tx.into().request(wait_until.unwrap_or(DEFAULT_WAIT_UNTIL));
        self.call::<methods::TxMethod>(request).await
    }

    /// `genesis_config`: the chain's genesis configuration.
    #[doc = example!(
        "let genesis = client.genesis_config().await?;"
        "println!(\"{} from {}\", genesis.chain_id, genesis.genesis_time);"
    )]
    pub async fn genesis_config(&self) -> Result<GenesisConfig, Error<GenesisConfigError>> {
        self.call::<methods::GenesisConfigMethod>(()).await
    }

    /// `EXPERIMENTAL_genesis_config`: the same, under its older name.
    #[doc = example!("let genesis = client.experimental_genesis_config().await?;")]
    pub async fn experimental_genesis_config(
        &self,
    ) -> Result<GenesisConfig, Error<GenesisConfigError>> {
        self.call::<methods::ExperimentalGenesisConfigMethod>(()).await
    }

    /// `EXPERIMENTAL_protocol_config` at a block: by finality, by height or hash, or at
    /// genesis (`SyncCheckpoint::Genesis`). The accessors (`protocol_version()`,
    /// `storage_amount_per_byte()`, ...) read fields every node fills without `Option`
    /// chains.
    #[doc = example!(
        "use near_rpc::types::{Finality, SyncCheckpoint};"
        "let latest = client.protocol_config_at(Finality::Final).await?;"
        "let at_height = client.protocol_config_at(100_000_000).await?;"
        "let at_genesis = client.protocol_config_at(SyncCheckpoint::Genesis).await?;"
        "println!(\"protocol {}\", latest.protocol_version()?);"
    )]
    pub async fn protocol_config_at(
        &self,
        block: impl Into<BlockReference>,
    ) -> Result<RpcProtocolConfigResponse, Error<RpcProtocolConfigError>> {
        let request = RpcProtocolConfigRequest {
            block_reference: block.into(),
        };
        self.call::<methods::ExperimentalProtocolConfigMethod>(request).await
    }
}

impl Client {
    /// A client that reads views (`view_*`, `call_function`, `changes`) at `block`
    /// instead of the latest final block. Shares this client's connections.
    ///
    /// ```no_run
    /// # async fn run(client: near_rpc::Client) -> Result<(), Box<dyn std::error::Error>> {
    /// use near_rpc::Finality;
    ///
    /// let optimistic = client.at(Finality::Optimistic).view_account("alice.near").await?;
    /// let then = client.at(100_000_000).view_account("alice.near").await?;
    /// # Ok(()) }
    /// ```
    pub fn at(&self, block: impl Into<BlockReference>) -> Client {
        let mut client = self.clone();
        client.read_at = block.into();
        client
    }

    /// A client whose writes wait until `level` (default [`DEFAULT_WAIT_UNTIL`]): `NONE`
    /// returns once the transaction is accepted, `FINAL` once every receipt is final.
    /// Shares this client's connections.
    ///
    /// ```no_run
    /// # async fn run(client: near_rpc::Client, signer: near_rpc::Signer) -> Result<(), Box<dyn std::error::Error>> {
    /// use near_rpc::{types::TxExecutionStatus, NearToken};
    ///
    /// let outcome = client
    ///     .waiting_until(TxExecutionStatus::Final)
    ///     .transfer(&signer, "bob.near", NearToken::from_near(1))
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn waiting_until(&self, level: TxExecutionStatus) -> Client {
        let mut client = self.clone();
        client.wait_until = level;
        client
    }

    /// The block views are read at ([`Client::at`]; latest final by default).
    pub fn reads_at(&self) -> &BlockReference {
        &self.read_at
    }

    fn input<T, E>(&self, value: impl Input<T>, what: &str) -> Result<T, Error<E>> {
        value
            .into_value(what)
            .map_err(|message| Error::encode(methods::QueryMethod::NAME, message))
    }

    /// A `query` at the client's block.
    async fn view(
        &self,
        kind: RpcQueryRequestKind,
    ) -> Result<AtBlock<RpcQueryResponseKind>, Error<RpcQueryError>> {
        let request = RpcQueryRequest {
            block_reference: self.read_at.clone(),
            kind,
        };
        self.query_typed(request).await
    }

    /// The whole access key list (one request: nodes before nearcore 0.38 do not page).
    #[cfg(not(near_rpc_spec_ge = "nearcore_0_38_0"))]
    async fn access_key_list(
        &self,
        account_id: AccountId,
    ) -> Result<AtBlock<AccessKeyList>, Error<RpcQueryError>> {
        let kind = RpcQueryRequestKind::ViewAccessKeyList { account_id };
        view_as(self.view(kind).await?, |kind| match kind {
            RpcQueryResponseKind::AccessKeyList(list) => Some(list),
            _ => None,
        })
    }

    /// The whole access key list, page after page at the block of the first. A node
    /// that hands out the same cursor twice, or more than [`MAX_KEY_PAGES`] pages, is
    /// answered with an error rather than followed forever.
    #[cfg(near_rpc_spec_ge = "nearcore_0_38_0")]
    async fn access_key_list(
        &self,
        account_id: AccountId,
    ) -> Result<AtBlock<AccessKeyList>, Error<RpcQueryError>> {
        let mut first = self.access_key_page(account_id.clone(), None, None).await?;
        let at = self.at(BlockReference::from(first.block_hash));
        let mut seen = std::collections::HashSet::new();
        while let Some(cursor) = first.value.last_key.take() {
            // The first page was one; each cursor seen is one more.
            if !seen.insert(cursor.clone()) || seen.len() >= MAX_KEY_PAGES {
                return Err(Error::unexpected(
                    methods::QueryMethod::NAME,
                    format!(
                        "the access key list of {account_id} did not end: the node handed \
                         out the cursor {cursor:?} again, or more than {MAX_KEY_PAGES} pages"
                    ),
                ));
            }
            let page = at
                .access_key_page(account_id.clone(), Some(cursor), None)
                .await?;
            first.value.keys.extend(page.value.keys);
            first.value.last_key = page.value.last_key;
        }
        Ok(first)
    }

    /// One page of the access key list.
    #[cfg(near_rpc_spec_ge = "nearcore_0_38_0")]
    async fn access_key_page(
        &self,
        account_id: AccountId,
        after_key: Option<crate::types::PublicKeyHandle>,
        limit: Option<u32>,
    ) -> Result<AtBlock<AccessKeyList>, Error<RpcQueryError>> {
        let kind = RpcQueryRequestKind::ViewAccessKeyList {
            account_id,
            after_key,
            limit,
        };
        view_as(self.view(kind).await?, |kind| match kind {
            RpcQueryResponseKind::AccessKeyList(list) => Some(list),
            _ => None,
        })
    }

    async fn view_state_inner(
        &self,
        account_id: AccountId,
        prefix: &[u8],
        include_proof: bool,
    ) -> Result<AtBlock<ViewStateResult>, Error<RpcQueryError>> {
        let kind = RpcQueryRequestKind::ViewState {
            account_id,
            after_key_base64: None,
            limit: None,
            include_proof: include_proof.then_some(true),
            prefix_base64: StoreKey(FunctionArgs::from_bytes(prefix).0),
        };
        view_as(self.view(kind).await?, |kind| match kind {
            RpcQueryResponseKind::ViewStateResult(state) => Some(state),
            _ => None,
        })
    }

    async fn query_typed(
        &self,
        request: RpcQueryRequest,
    ) -> Result<AtBlock<RpcQueryResponseKind>, Error<RpcQueryError>> {
        let answer = self.call_answered::<methods::QueryMethod>(request).await?;
        if let Some((cause, text)) = answer.result.legacy_error() {
            return Err(answer.handler_error(cause, text));
        }
        let response = answer.result;
        Ok(AtBlock {
            value: response.kind,
            block_height: response.block_height,
            block_hash: response.block_hash,
        })
    }
}

/// The most pages of access keys [`Client::view_access_key_list`] reads.
#[cfg(near_rpc_spec_ge = "nearcore_0_38_0")]
pub const MAX_KEY_PAGES: usize = 10_000;

/// The view a `query` shortcut asked for, or a decoding error naming what came instead.
fn view_as<T>(
    answer: AtBlock<RpcQueryResponseKind>,
    pick: impl FnOnce(RpcQueryResponseKind) -> Option<T>,
) -> Result<AtBlock<T>, Error<RpcQueryError>> {
    let AtBlock {
        value,
        block_height,
        block_hash,
    } = answer;
    let answered = kind_name(&value);
    match pick(value) {
        Some(value) => Ok(AtBlock {
            value,
            block_height,
            block_hash,
        }),
        None => Err(Error::unexpected(
            methods::QueryMethod::NAME,
            format!("the node answered with {answered}"),
        )),
    }
}

fn kind_name(kind: &RpcQueryResponseKind) -> &'static str {
    match kind {
        RpcQueryResponseKind::AccountView(_) => "an account",
        RpcQueryResponseKind::ContractCodeView(_) => "contract code",
        RpcQueryResponseKind::ViewStateResult(_) => "contract state",
        RpcQueryResponseKind::CallResult(_) => "a call result",
        RpcQueryResponseKind::AccessKeyView(_) => "an access key",
        RpcQueryResponseKind::AccessKeyList(_) => "an access key list",
        RpcQueryResponseKind::GasKeyNoncesView(_) => "gas key nonces",
        RpcQueryResponseKind::LegacyError { .. } => "an error",
        _ => "an unknown shape",
    }
}
