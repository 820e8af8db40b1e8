//! The write shortcuts: a list of actions, and the common ones (transfer, function call,
//! account creation, keys, gas key balances, deployment, deletion), each signed by a
//! [`Signer`] and sent through the write path of [`super::super::send`], so none can
//! spend twice.
//!
//! Each waits until the client's level ([`Client::waiting_until`], default
//! [`DEFAULT_WAIT_UNTIL`](super::DEFAULT_WAIT_UNTIL)) and returns the typed outcome; a
//! transaction that fails on chain is an `Ok` whose `is_failure()` is true, as with
//! `send_tx`.

use super::{Client, ContractArgs, Input};
use crate::client::{SendError, Signer};
use crate::primitives::NearGas;
use crate::primitives::PublicKey;
use crate::replaced::root::AccountId;
use crate::replaced::root::NearToken;
use crate::tx::{AccessKey, Action};
use crate::types::RpcTransactionResponse;

/// The gas [`Client::function_call`] attaches (what near-api-rs attaches too); unused gas
/// is refunded.
pub const DEFAULT_CALL_GAS: NearGas = NearGas::from_tgas(100);

fn usage<T>(value: impl Input<T>, what: &str) -> Result<T, SendError> {
    value.into_value(what).map_err(SendError::usage)
}

shortcuts! { WRITE_SHORTCUTS;
    /// Signs `actions` from `signer` to `receiver` and sends them: the signer's next nonce
    /// and a recent final block hash (read once, then counted locally), `send_tx`, and the
    /// outcome. A failed send is never signed again once it may have reached a node
    /// ([`SendError`] says which happened). A delegate action whose signature no node
    /// could decode ([`UnreadableAction`](crate::tx::UnreadableAction)) is a
    /// [`SendErrorKind::Usage`](crate::client::SendErrorKind::Usage), before anything is
    /// read or sent (as for every write).
    #[doc = example!(
        "# let signer: near_rpc::client::Signer = todo!();"
        "use near_rpc::tx::Action;"
        "use near_rpc::NearToken;"
        "let actions = vec![Action::transfer(NearToken::from_near(1))];"
        "let outcome = client.send(&signer, \"bob.near\", actions).await?;"
        "println!(\"failed: {}\", outcome.is_failure());"
    )]
    pub async fn send(
        &self,
        signer: &Signer,
        receiver: impl Input<AccountId>,
        actions: Vec<Action>,
    ) -> Result<RpcTransactionResponse, SendError> {
        let receiver = usage(receiver, "the receiver")?;
        self.sign_and_send(signer, receiver, actions).await
    }

    /// Sends `amount` from the signer to `receiver`.
    #[doc = example!(
        "# let signer: near_rpc::client::Signer = todo!();"
        "use near_rpc::NearToken;"
        "let outcome = client.transfer(&signer, \"bob.near\", NearToken::from_near(1)).await?;"
    )]
    pub async fn transfer(
        &self,
        signer: &Signer,
        receiver: impl Input<AccountId>,
        amount: NearToken,
    ) -> Result<RpcTransactionResponse, SendError> {
        let receiver = usage(receiver, "the receiver")?;
        self.sign_and_send(signer, receiver, vec![Action::transfer(amount)]).await
    }

    /// Calls a change method of a contract with [`DEFAULT_CALL_GAS`] and no deposit.
    /// `args` is any `Serialize` value, sent as JSON (`()` for none), or
    /// [`RawArgs`](super::RawArgs), as [`Client::call_function`] takes them. Read the
    /// method's return value with `outcome.success_value()`.
    #[doc = example!(
        "# let signer: near_rpc::client::Signer = todo!();"
        "use serde_json::json;"
        "let outcome = client.function_call(&signer, \"counter.near\", \"increment\", json!({})).await?;"
    )]
    pub async fn function_call(
        &self,
        signer: &Signer,
        contract: impl Input<AccountId>,
        method: &str,
        args: impl ContractArgs,
    ) -> Result<RpcTransactionResponse, SendError> {
        let contract = usage(contract, "the contract account id")?;
        let args = args.into_bytes().map_err(SendError::usage)?;
        let call = Action::function_call(method, args, DEFAULT_CALL_GAS, NearToken::from_yoctonear(0));
        self.sign_and_send(signer, contract, vec![call]).await
    }

    /// Like [`Client::function_call`], with the gas and deposit given.
    #[doc = example!(
        "# let signer: near_rpc::client::Signer = todo!();"
        "use near_rpc::{NearGas, NearToken};"
        "use serde_json::json;"
        "let args = json!({\"receiver_id\": \"bob.near\", \"amount\": \"100\"});"
        "let deposit = NearToken::from_yoctonear(1);"
        "let outcome = client"
        "    .function_call_with(&signer, \"token.near\", \"ft_transfer\", args, NearGas::from_tgas(30), deposit)"
        "    .await?;"
    )]
    pub async fn function_call_with(
        &self,
        signer: &Signer,
        contract: impl Input<AccountId>,
        method: &str,
        args: impl ContractArgs,
        gas: NearGas,
        deposit: NearToken,
    ) -> Result<RpcTransactionResponse, SendError> {
        let contract = usage(contract, "the contract account id")?;
        let args = args.into_bytes().map_err(SendError::usage)?;
        let call = Action::function_call(method, args, gas, deposit);
        self.sign_and_send(signer, contract, vec![call]).await
    }

    /// Creates `new_account` (a sub-account of the signer, `sub.alice.near` for
    /// `alice.near`), funds it with `balance` and gives it `public_key` with full access.
    /// A top-level account is created by the network's registrar contract instead
    /// (`function_call` on `near` or `testnet`, method `create_account`).
    #[doc = example!(
        "# let signer: near_rpc::client::Signer = todo!();"
        "use near_rpc::NearToken;"
        "let key = \"ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW\";"
        "let outcome = client.create_account(&signer, \"sub.alice.near\", key, NearToken::from_near(1)).await?;"
    )]
    pub async fn create_account(
        &self,
        signer: &Signer,
        new_account: impl Input<AccountId>,
        public_key: impl Input<PublicKey>,
        balance: NearToken,
    ) -> Result<RpcTransactionResponse, SendError> {
        let new_account = usage(new_account, "the new account id")?;
        let public_key = usage(public_key, "the new account's public key")?;
        let actions = vec![
            Action::CreateAccount,
            Action::transfer(balance),
            Action::AddKey { public_key, access_key: AccessKey::full_access() },
        ];
        self.sign_and_send(signer, new_account, actions).await
    }

    /// Adds `public_key` to the signer's account with `access_key`'s permission
    /// ([`AccessKey::full_access`], [`AccessKey::function_call`]).
    #[doc = example!(
        "# let signer: near_rpc::client::Signer = todo!();"
        "use near_rpc::tx::AccessKey;"
        "let key = \"ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW\";"
        "let access = AccessKey::function_call(\"app.near\", vec![\"vote\".into()], None);"
        "let outcome = client.add_key(&signer, key, access).await?;"
    )]
    pub async fn add_key(
        &self,
        signer: &Signer,
        public_key: impl Input<PublicKey>,
        access_key: AccessKey,
    ) -> Result<RpcTransactionResponse, SendError> {
        let public_key = usage(public_key, "the public key")?;
        let account = signer.account_id().clone();
        self.sign_and_send(signer, account, vec![Action::AddKey { public_key, access_key }]).await
    }

    /// Deletes `public_key` from the signer's account.
    #[doc = example!(
        "# let signer: near_rpc::client::Signer = todo!();"
        "let outcome = client.delete_key(&signer, \"ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW\").await?;"
    )]
    pub async fn delete_key(
        &self,
        signer: &Signer,
        public_key: impl Input<PublicKey>,
    ) -> Result<RpcTransactionResponse, SendError> {
        let public_key = usage(public_key, "the public key")?;
        let account = signer.account_id().clone();
        self.sign_and_send(signer, account, vec![Action::DeleteKey { public_key }]).await
    }

    /// Deploys `code` (Wasm) to the signer's account.
    #[doc = example!(
        "# let signer: near_rpc::client::Signer = todo!();"
        "let code = std::fs::read(\"contract.wasm\")?;"
        "let outcome = client.deploy(&signer, code).await?;"
    )]
    pub async fn deploy(
        &self,
        signer: &Signer,
        code: Vec<u8>,
    ) -> Result<RpcTransactionResponse, SendError> {
        let account = signer.account_id().clone();
        self.sign_and_send(signer, account, vec![Action::DeployContract { code }]).await
    }

    /// Deletes the signer's account, sending its balance to `beneficiary`.
    #[doc = example!(
        "# let signer: near_rpc::client::Signer = todo!();"
        "let outcome = client.delete_account(&signer, \"alice.near\").await?;"
    )]
    pub async fn delete_account(
        &self,
        signer: &Signer,
        beneficiary: impl Input<AccountId>,
    ) -> Result<RpcTransactionResponse, SendError> {
        let beneficiary_id = usage(beneficiary, "the beneficiary")?;
        let account = signer.account_id().clone();
        self.sign_and_send(signer, account, vec![Action::DeleteAccount { beneficiary_id }]).await
    }
    /// Moves `amount` from the signer's account into the balance of its gas key
    /// `public_key`, which pays its transactions' gas (`TransferToGasKey`).
    #[doc = example!(
        "# let signer: near_rpc::client::Signer = todo!();"
        "use near_rpc::NearToken;"
        "let key = \"ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW\";"
        "let outcome = client.transfer_to_gas_key(&signer, key, NearToken::from_near(1)).await?;"
    )]
    pub async fn transfer_to_gas_key(
        &self,
        signer: &Signer,
        public_key: impl Input<PublicKey>,
        amount: NearToken,
    ) -> Result<RpcTransactionResponse, SendError> {
        let public_key = usage(public_key, "the gas key")?;
        let account = signer.account_id().clone();
        let action = Action::TransferToGasKey { public_key, deposit: amount };
        self.sign_and_send(signer, account, vec![action]).await
    }

    /// Moves `amount` from the balance of the signer's gas key `public_key` back to the
    /// account (`WithdrawFromGasKey`).
    #[doc = example!(
        "# let signer: near_rpc::client::Signer = todo!();"
        "use near_rpc::NearToken;"
        "let key = \"ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW\";"
        "let outcome = client.withdraw_from_gas_key(&signer, key, NearToken::from_near(1)).await?;"
    )]
    pub async fn withdraw_from_gas_key(
        &self,
        signer: &Signer,
        public_key: impl Input<PublicKey>,
        amount: NearToken,
    ) -> Result<RpcTransactionResponse, SendError> {
        let public_key = usage(public_key, "the gas key")?;
        let account = signer.account_id().clone();
        let action = Action::WithdrawFromGasKey { public_key, amount };
        self.sign_and_send(signer, account, vec![action]).await
    }
}
