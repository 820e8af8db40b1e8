//! Writes with a signer configured once: [`SigningClient`] (from
//! [`Client::with_signer`]) and its builders for transfers, function calls,
//! multi-action transactions, and NEP-366 meta-transactions (a delegate action signed
//! for a relayer, and relayed by one). Beside them, the read they pair with: a view
//! call decoded into a type ([`Client::view_json`]).
//!
//! The builders only gather a receiver and actions: every one of them ends in the write
//! path of `send.rs` ([`Client::send`]'s, whose rules [`SendError`] documents), waiting
//! until the client's level or the one given with `wait_until`. A bad input (an account
//! id or key that does not parse, arguments that do not serialize) is kept and returned
//! as [`SendErrorKind::Usage`] naming it when the builder is sent, before anything is
//! read or signed.

use std::future::{Future, IntoFuture};
use std::ops::Deref;
use std::pin::Pin;

use serde::de::DeserializeOwned;

use super::{
    Client, ContractArgs, Error, Input, RawArgs, SendError, SendErrorKind, Signer, DEFAULT_CALL_GAS,
};
use crate::methods::{QueryMethod, RpcMethod};
use crate::primitives::NearGas;
use crate::primitives::PublicKey;
use crate::replaced::root::AccountId;
use crate::replaced::root::NearToken;
use crate::tx::{
    AccessKey, Action, DelegateAction, NonDelegateAction, SignedDelegateAction, SignedTransaction,
};
use crate::types::Finality;
use crate::types::{RpcQueryError, RpcTransactionResponse, TxExecutionStatus};

/// How many blocks past the final head a delegate action stays valid unless
/// [`DelegateBuilder::valid_for_blocks`] says otherwise: its `max_block_height` is the
/// head's height plus this. 200 blocks are a few minutes at mainnet's pace (a block
/// about every second or less), time enough for a relayer to receive and submit it;
/// short, because a delegate action handed out can be submitted by whoever holds it,
/// at any time until then.
pub const DEFAULT_DELEGATE_BLOCKS: u64 = 200;

/// What the futures of the builders are.
#[cfg(not(target_arch = "wasm32"))]
type SendFuture<T> = Pin<Box<dyn Future<Output = Result<T, SendError>> + Send>>;
#[cfg(target_arch = "wasm32")]
type SendFuture<T> = Pin<Box<dyn Future<Output = Result<T, SendError>>>>;

impl Client {
    /// Calls a view method of `contract` with `args` (any `Serialize` value as JSON,
    /// or [`RawArgs`]) at the client's block and reads its return value as JSON into
    /// `T`: [`Client::call_function`] and [`CallResult::json`](crate::types::CallResult::json)
    /// in one step, for when the logs and the block do not matter. A return value that
    /// is not a `T` is an [`ErrorKind::UnexpectedAnswer`](super::ErrorKind::UnexpectedAnswer)
    /// naming the method and the JSON path.
    ///
    /// ```no_run
    /// # async fn run(client: near_rpc::Client) -> Result<(), Box<dyn std::error::Error>> {
    /// use serde_json::json;
    ///
    /// let args = json!({ "account_id": "alice.near" });
    /// let balance: String = client.view_json("wrap.near", "ft_balance_of", args).await?;
    /// # Ok(()) }
    /// ```
    pub async fn view_json<T: DeserializeOwned>(
        &self,
        contract: impl Input<AccountId>,
        method: &str,
        args: impl ContractArgs,
    ) -> Result<T, Error<RpcQueryError>> {
        let contract: AccountId = contract
            .into_value("the contract account id")
            .map_err(|message| Error::encode(QueryMethod::NAME, message))?;
        let result = self.call_function(&contract, method, args).await?;
        result.json().map_err(|e| {
            Error::unexpected(
                QueryMethod::NAME,
                format!(
                    "the return value of {method} on {contract} (at block {}) is not the \
                     type asked for: {e}",
                    result.block_height
                ),
            )
        })
    }
}

/// A [`Client`] with a [`Signer`]: the writes sign with it, the reads are the client's
/// (through `Deref`). Cheap to clone; clones share connections and the signer's nonce
/// count.
///
/// ```no_run
/// # async fn run(client: near_rpc::Client, signer: near_rpc::Signer) -> Result<(), Box<dyn std::error::Error>> {
/// use near_rpc::{NearGas, NearToken};
/// use serde_json::json;
///
/// let alice = client.with_signer(signer);
/// alice.transfer("bob.near", NearToken::from_near(1)).await?;
/// alice
///     .call("counter.near", "add")
///     .args(json!({ "by": 2 }))
///     .gas(NearGas::from_tgas(30))
///     .await?;
/// let balance = alice.view_account("alice.near").await?.amount;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct SigningClient {
    client: Client,
    signer: Signer,
}

impl Deref for SigningClient {
    type Target = Client;

    fn deref(&self) -> &Client {
        &self.client
    }
}

impl SigningClient {
    pub(super) fn new(client: Client, signer: Signer) -> Self {
        Self { client, signer }
    }

    /// The client, without the signer.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The signer.
    pub fn signer(&self) -> &Signer {
        &self.signer
    }

    /// The account that signs.
    pub fn account_id(&self) -> &AccountId {
        self.signer.account_id()
    }

    /// The same, with writes waiting until `level` ([`Client::waiting_until`]).
    pub fn waiting_until(&self, level: TxExecutionStatus) -> Self {
        Self::new(self.client.waiting_until(level), self.signer.clone())
    }

    /// A transaction to `receiver`, without actions yet: add them, then `.await` it (or
    /// [`TransactionBuilder::send`]).
    ///
    /// ```no_run
    /// # async fn run(alice: near_rpc::client::SigningClient, public_key: near_rpc::PublicKey) -> Result<(), Box<dyn std::error::Error>> {
    /// use near_rpc::NearToken;
    /// use serde_json::json;
    ///
    /// let code = std::fs::read("contract.wasm")?;
    /// let outcome = alice
    ///     .transaction("sub.alice.near")
    ///     .create_account()
    ///     .transfer(NearToken::from_near(5))
    ///     .add_full_access_key(public_key)
    ///     .deploy(code)
    ///     .call("init", json!({ "owner": "alice.near" }))
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn transaction(&self, receiver: impl Input<AccountId>) -> TransactionBuilder {
        let mut builder = TransactionBuilder {
            client: self.client.clone(),
            signer: self.signer.clone(),
            receiver: None,
            actions: Vec::new(),
            error: None,
        };
        match receiver.into_value("the receiver") {
            Ok(receiver) => builder.receiver = Some(receiver),
            Err(e) => builder.error = Some(e),
        }
        builder
    }

    /// Sends `amount` to `receiver`, when awaited.
    ///
    /// ```no_run
    /// # async fn run(alice: near_rpc::client::SigningClient) -> Result<(), Box<dyn std::error::Error>> {
    /// use near_rpc::NearToken;
    ///
    /// let outcome = alice.transfer("bob.near", NearToken::from_near(1)).await?;
    /// println!("failed on chain: {}", outcome.is_failure());
    /// # Ok(()) }
    /// ```
    pub fn transfer(
        &self,
        receiver: impl Input<AccountId>,
        amount: NearToken,
    ) -> TransactionBuilder {
        self.transaction(receiver).transfer(amount)
    }

    /// A call of `method` on `contract`, with no arguments, [`DEFAULT_CALL_GAS`] and no
    /// deposit until set; `.await` it (or [`CallBuilder::send`]).
    ///
    /// ```no_run
    /// # async fn run(alice: near_rpc::client::SigningClient) -> Result<(), Box<dyn std::error::Error>> {
    /// use near_rpc::{NearGas, NearToken};
    /// use serde_json::json;
    ///
    /// let outcome = alice
    ///     .call("token.near", "ft_transfer")
    ///     .args(json!({ "receiver_id": "bob.near", "amount": "100" }))
    ///     .deposit(NearToken::from_yoctonear(1))
    ///     .gas(NearGas::from_tgas(30))
    ///     .await?;
    /// println!("returned {:?}", outcome.success_value());
    /// # Ok(()) }
    /// ```
    pub fn call(&self, contract: impl Input<AccountId>, method: &str) -> CallBuilder {
        CallBuilder {
            transaction: self.transaction(contract),
            method: method.to_owned(),
            args: Ok(Vec::new()),
            gas: DEFAULT_CALL_GAS,
            deposit: NearToken::from_yoctonear(0),
        }
    }

    /// Relays `signed` as this client's signer, the relayer (NEP-366): a transaction
    /// to the delegate action's sender holding [`Action::Delegate`], which the relayer
    /// signs and pays the gas of; `.await` it. It is sent through the write path like
    /// every write. A delegate action whose signature is not its key's, or whose
    /// `max_block_height` is below the final head when it is sent, is refused as a
    /// [`SendErrorKind::Usage`] before anything is signed (the relayer would pay for a
    /// transaction that fails). One that expires while in flight still fails on chain.
    ///
    /// ```no_run
    /// # async fn run(relayer: near_rpc::client::SigningClient, base64: &str) -> Result<(), Box<dyn std::error::Error>> {
    /// use near_rpc::tx::SignedDelegateAction;
    ///
    /// let delegate = SignedDelegateAction::from_base64(base64)?;
    /// let outcome = relayer.relay(delegate).await?;
    /// # Ok(()) }
    /// ```
    pub fn relay(&self, signed: SignedDelegateAction) -> TransactionBuilder {
        let mut builder = self.transaction(&signed.delegate_action.sender_id);
        if !signed.verify() {
            builder.fail(format!(
                "the delegate action of {} is not signed by its key {}: a relayer would pay \
                 for a transaction that fails",
                signed.delegate_action.sender_id, signed.delegate_action.public_key
            ));
        }
        builder.action(Action::Delegate(Box::new(signed)))
    }
}

/// A transaction being built by a [`SigningClient`]: a receiver and actions, in order.
/// `.await` sends it ([`TransactionBuilder::send`]); [`TransactionBuilder::prepare`]
/// signs it without sending; [`TransactionBuilder::delegate`] signs its actions for a
/// relayer instead.
#[derive(Debug, Clone)]
#[must_use = "a transaction is sent only when awaited or sent"]
pub struct TransactionBuilder {
    client: Client,
    signer: Signer,
    receiver: Option<AccountId>,
    actions: Vec<Action>,
    // The first bad input, returned when the builder is sent.
    error: Option<String>,
}

impl TransactionBuilder {
    /// Keeps the first error only: it names what went wrong first.
    fn fail(&mut self, message: String) {
        self.error.get_or_insert(message);
    }

    /// `value`, or the error it gives, named with the action it is for.
    fn input<T>(&mut self, value: impl Input<T>, what: &str) -> Option<T> {
        let index = self.actions.len();
        value
            .into_value(what)
            .map_err(|e| self.fail(format!("action {index}: {e}")))
            .ok()
    }

    /// Adds `action`.
    pub fn action(mut self, action: Action) -> Self {
        self.actions.push(action);
        self
    }

    /// Creates the receiver (a sub-account of the signer).
    pub fn create_account(self) -> Self {
        self.action(Action::CreateAccount)
    }

    /// Sends `amount` to the receiver.
    pub fn transfer(self, amount: NearToken) -> Self {
        self.action(Action::transfer(amount))
    }

    /// Adds `public_key` to the receiver with `access_key`'s permission
    /// ([`AccessKey::full_access`], [`AccessKey::function_call`]).
    pub fn add_key(mut self, public_key: impl Input<PublicKey>, access_key: AccessKey) -> Self {
        match self.input(public_key, "the public key") {
            Some(public_key) => self.action(Action::AddKey {
                public_key,
                access_key,
            }),
            None => self,
        }
    }

    /// Adds `public_key` to the receiver with full access.
    pub fn add_full_access_key(self, public_key: impl Input<PublicKey>) -> Self {
        self.add_key(public_key, AccessKey::full_access())
    }

    /// Deletes `public_key` from the receiver.
    pub fn delete_key(mut self, public_key: impl Input<PublicKey>) -> Self {
        match self.input(public_key, "the public key") {
            Some(public_key) => self.action(Action::DeleteKey { public_key }),
            None => self,
        }
    }

    /// Deploys `code` (Wasm) to the receiver.
    pub fn deploy(self, code: impl Into<Vec<u8>>) -> Self {
        self.action(Action::DeployContract { code: code.into() })
    }

    /// Calls `method` of the receiver's contract with `args` (any `Serialize` value as
    /// JSON, or [`RawArgs`]), [`DEFAULT_CALL_GAS`] and no deposit.
    pub fn call(self, method: &str, args: impl ContractArgs) -> Self {
        self.call_with(method, args, DEFAULT_CALL_GAS, NearToken::from_yoctonear(0))
    }

    /// Calls `method` of the receiver's contract with `args`, `gas` and `deposit`.
    pub fn call_with(
        mut self,
        method: &str,
        args: impl ContractArgs,
        gas: NearGas,
        deposit: NearToken,
    ) -> Self {
        match args.into_bytes() {
            Ok(args) => self.action(Action::function_call(method, args, gas, deposit)),
            Err(e) => {
                let index = self.actions.len();
                self.fail(format!("action {index} (call of {method}): {e}"));
                self
            }
        }
    }

    /// Stakes `amount` with the validator key `public_key` (zero unstakes).
    pub fn stake(mut self, amount: NearToken, public_key: impl Input<PublicKey>) -> Self {
        match self.input(public_key, "the validator key") {
            Some(public_key) => self.action(Action::Stake {
                stake: amount,
                public_key,
            }),
            None => self,
        }
    }

    /// Deletes the receiver, sending its balance to `beneficiary`.
    pub fn delete_account(mut self, beneficiary: impl Input<AccountId>) -> Self {
        match self.input(beneficiary, "the beneficiary") {
            Some(beneficiary_id) => self.action(Action::DeleteAccount { beneficiary_id }),
            None => self,
        }
    }

    /// Waits until `level` instead of the client's level ([`Client::waiting_until`]).
    pub fn wait_until(mut self, level: TxExecutionStatus) -> Self {
        self.client = self.client.waiting_until(level);
        self
    }

    /// The actions so far.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The receiver, the actions and what sends them, or the first bad input.
    fn into_parts(self) -> Result<(Client, Signer, AccountId, Vec<Action>), SendError> {
        if let Some(message) = self.error {
            return Err(SendError::usage(message));
        }
        let receiver = self
            .receiver
            .ok_or_else(|| SendError::usage("no receiver".to_owned()))?;
        if self.actions.is_empty() {
            return Err(SendError::usage(format!(
                "the transaction to {receiver} has no actions"
            )));
        }
        Ok((self.client, self.signer, receiver, self.actions))
    }

    /// Signs and sends the transaction through the write path ([`Client::send`]): the
    /// outcome at the level asked, or a [`SendError`] saying what happened. A delegate
    /// action among the actions that has expired is refused first
    /// ([`SigningClient::relay`]).
    pub async fn send(self) -> Result<RpcTransactionResponse, SendError> {
        let (client, signer, receiver, actions) = self.into_parts()?;
        unexpired(&client, &signer, &actions).await?;
        client.sign_and_send(&signer, receiver, actions).await
    }

    /// Signs the transaction without sending it ([`Client::prepare`]): keep it, then
    /// [`Client::send_signed`]. An expired delegate action is refused as by `send`.
    pub async fn prepare(self) -> Result<SignedTransaction, SendError> {
        let (client, signer, receiver, actions) = self.into_parts()?;
        unexpired(&client, &signer, &actions).await?;
        client.prepare(&signer, receiver, actions).await
    }

    /// Signs these actions as a delegate action for a relayer (NEP-366) instead of
    /// sending them: `.await` the builder for the [`SignedDelegateAction`], and hand
    /// its [`to_base64`](SignedDelegateAction::to_base64) to the relayer, which submits
    /// it ([`SigningClient::relay`]) and pays the gas.
    ///
    /// ```no_run
    /// # async fn run(alice: near_rpc::client::SigningClient) -> Result<(), Box<dyn std::error::Error>> {
    /// use near_rpc::NearToken;
    ///
    /// let signed = alice
    ///     .transfer("bob.near", NearToken::from_near(1))
    ///     .delegate()
    ///     .valid_for_blocks(100)
    ///     .await?;
    /// let for_the_relayer = signed.to_base64();
    /// # Ok(()) }
    /// ```
    pub fn delegate(self) -> DelegateBuilder {
        DelegateBuilder {
            transaction: self,
            blocks: DEFAULT_DELEGATE_BLOCKS,
        }
    }
}

/// Refuses a delegate action among `actions` whose `max_block_height` is below the head:
/// nearcore's runtime fails it as `DelegateActionExpired` (runtime/runtime/src/actions.rs,
/// `apply_delegate_action`) after the relayer paid for the transaction. The head is the
/// height of the signer's access key read at the final block (one read, and only when
/// there is a delegate action); nothing is signed before.
async fn unexpired(client: &Client, signer: &Signer, actions: &[Action]) -> Result<(), SendError> {
    let delegates = actions
        .iter()
        .enumerate()
        .filter_map(|(index, action)| match action {
            Action::Delegate(signed) => Some((
                index,
                &signed.delegate_action.sender_id,
                signed.delegate_action.max_block_height,
            )),
            #[cfg(feature = "nearcore_0_38_0")]
            Action::DelegateV2(signed) => Some((
                index,
                &signed.delegate_action.sender_id,
                signed.delegate_action.max_block_height,
            )),
            _ => None,
        });
    let delegates: Vec<(usize, &AccountId, u64)> = delegates.collect();
    if delegates.is_empty() {
        return Ok(());
    }
    let head = client
        .at(Finality::Final)
        .view_access_key(signer.account_id(), signer.public_key())
        .await
        .map_err(|e| SendError::new(SendErrorKind::AccessKey(e), Vec::new()))?
        .block_height;
    match delegates
        .into_iter()
        .find(|(_, _, max_block_height)| *max_block_height < head)
    {
        Some((index, sender_id, max_block_height)) => Err(SendError::usage(format!(
            "action {index}: the delegate action of {sender_id} is valid up to block \
             {max_block_height} (its max_block_height), and the final head is at block \
             {head}: it has expired, and a relayer would pay for a transaction that fails; \
             nothing was signed"
        ))),
        None => Ok(()),
    }
}

impl IntoFuture for TransactionBuilder {
    type Output = Result<RpcTransactionResponse, SendError>;
    type IntoFuture = SendFuture<RpcTransactionResponse>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}

/// A function call being built by [`SigningClient::call`]: `.await` sends it
/// ([`CallBuilder::send`]).
#[derive(Debug, Clone)]
#[must_use = "a call is sent only when awaited or sent"]
pub struct CallBuilder {
    transaction: TransactionBuilder,
    method: String,
    args: Result<Vec<u8>, String>,
    gas: NearGas,
    deposit: NearToken,
}

impl CallBuilder {
    /// The arguments: any `Serialize` value, sent as JSON, or [`RawArgs`], sent as
    /// they are.
    pub fn args(mut self, args: impl ContractArgs) -> Self {
        self.args = args.into_bytes();
        self
    }

    /// The arguments as bytes, sent as they are (borsh, or anything not JSON).
    pub fn args_raw(self, args: impl Into<Vec<u8>>) -> Self {
        self.args(RawArgs(args.into()))
    }

    /// The gas attached (default [`DEFAULT_CALL_GAS`]; unused gas is refunded).
    pub fn gas(mut self, gas: NearGas) -> Self {
        self.gas = gas;
        self
    }

    /// The deposit attached (default none).
    pub fn deposit(mut self, deposit: NearToken) -> Self {
        self.deposit = deposit;
        self
    }

    /// Waits until `level` instead of the client's level ([`Client::waiting_until`]).
    pub fn wait_until(mut self, level: TxExecutionStatus) -> Self {
        self.transaction = self.transaction.wait_until(level);
        self
    }

    /// The call as a transaction of one action, to add more actions to, to
    /// [`prepare`](TransactionBuilder::prepare) or to
    /// [`delegate`](TransactionBuilder::delegate).
    pub fn into_transaction(self) -> TransactionBuilder {
        let Self {
            transaction,
            method,
            args,
            gas,
            deposit,
        } = self;
        match args {
            Ok(bytes) => transaction.call_with(&method, RawArgs(bytes), gas, deposit),
            Err(e) => {
                let mut transaction = transaction;
                transaction.fail(format!("the call of {method}: {e}"));
                transaction
            }
        }
    }

    /// Signs and sends the call through the write path ([`Client::send`]); read the
    /// method's return value with `outcome.success_value()`.
    pub async fn send(self) -> Result<RpcTransactionResponse, SendError> {
        self.into_transaction().send().await
    }
}

impl IntoFuture for CallBuilder {
    type Output = Result<RpcTransactionResponse, SendError>;
    type IntoFuture = SendFuture<RpcTransactionResponse>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send())
    }
}

/// A delegate action being signed for a relayer ([`TransactionBuilder::delegate`]):
/// `.await` it for the [`SignedDelegateAction`] ([`DelegateBuilder::sign`]).
#[derive(Debug, Clone)]
#[must_use = "a delegate action is signed only when awaited or signed"]
pub struct DelegateBuilder {
    transaction: TransactionBuilder,
    blocks: u64,
}

impl DelegateBuilder {
    /// How many blocks past the final head it stays valid (default
    /// [`DEFAULT_DELEGATE_BLOCKS`]).
    pub fn valid_for_blocks(mut self, blocks: u64) -> Self {
        self.blocks = blocks;
        self
    }

    /// Signs the delegate action: the signer's access key read at the final block
    /// gives its nonce (the key's nonce + 1, counted with the signer's own count, as
    /// for a transaction: the delegate action spends that nonce when it executes) and
    /// the head its `max_block_height` is counted from. Nothing is sent. A delegate
    /// action among the actions (nodes refuse nesting) is a [`SendErrorKind::Usage`].
    pub async fn sign(self) -> Result<SignedDelegateAction, SendError> {
        let blocks = self.blocks;
        let (client, signer, receiver_id, actions) = self.transaction.into_parts()?;
        let actions = actions
            .into_iter()
            .enumerate()
            .map(|(index, action)| {
                NonDelegateAction::try_from(action)
                    .map_err(|e| SendError::usage(format!("action {index}: {e}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        // A delegate action's nonce is an access key's (nearcore refuses one signed by a
        // gas key: `DelegateActionRequiresNonGasKey`); a pool gives its next key.
        let lane = signer.next_lane();
        let (public_key, gas_key) = signer.lane_key(lane);
        if gas_key {
            return Err(SendError::usage(format!(
                "a delegate action is signed by an access key, and {} is a gas key",
                signer.describe_lane(lane)
            )));
        }
        let public_key = public_key.clone();
        let key = client
            .at(Finality::Final)
            .view_access_key(signer.account_id(), &public_key)
            .await
            .map_err(|e| SendError::new(SendErrorKind::AccessKey(e), Vec::new()))?;
        let max_block_height = key.block_height.checked_add(blocks).ok_or_else(|| {
            SendError::usage(format!(
                "the head's height {} plus {blocks} blocks is past the largest height",
                key.block_height
            ))
        })?;
        let (nonce, _) = signer
            .observe_and_take(lane, key.value.nonce, key.block_hash)
            .ok_or_else(|| {
                SendError::usage(format!(
                    "the access key {public_key} of {} is at nonce {} (u64::MAX), the \
                     largest a nonce can be: it can sign no more",
                    signer.account_id(),
                    key.value.nonce
                ))
            })?;
        let delegate = DelegateAction {
            sender_id: signer.account_id().clone(),
            receiver_id,
            actions,
            nonce,
            max_block_height,
            public_key,
        };
        Ok(delegate.sign(signer.lane_secret(lane)))
    }
}

impl IntoFuture for DelegateBuilder {
    type Output = Result<SignedDelegateAction, SendError>;
    type IntoFuture = SendFuture<SignedDelegateAction>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.sign())
    }
}
