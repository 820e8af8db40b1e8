//! [`Action`]: what a transaction does, one variant per action of the protocol, with the
//! borsh encoding nearcore gives it (variant tags in nearcore's order, fields in its
//! struct order).
//!
//! nearcore 0.38's two actions, `DelegateV2` (tag 14: a meta-transaction whose nonce may
//! be a gas key's) and `UniversalStateInit` (tag 15), exist with the `nearcore_0_38_0`
//! feature (`latest`) only; other builds refuse their tags by name
//! ([`BorshErrorKind::NeedsFeature`](super::BorshErrorKind::NeedsFeature)). Their layouts
//! follow near-primitives 0.38 (`core/primitives/src/action/mod.rs`,
//! `action/delegate.rs`, `signable_message.rs`).

use std::collections::BTreeMap;

use super::borsh::{field, token, Borsh, BorshError, Reader, Writer};
use crate::primitives::CryptoHash;
use crate::primitives::NearGas;
use crate::primitives::PublicKey;
use crate::primitives::Signature;
use near_account_id::AccountId;
use near_token::NearToken;

/// One action of a transaction (nearcore's `Action`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Action {
    /// Creates the receiver account (a sub-account of the signer, or a top-level one
    /// through the registrar).
    CreateAccount,
    /// Deploys Wasm code to the receiver.
    DeployContract {
        /// The Wasm binary.
        code: Vec<u8>,
    },
    /// Calls a method of the receiver's contract.
    FunctionCall(Box<FunctionCall>),
    /// Sends tokens to the receiver.
    Transfer {
        /// The amount.
        deposit: NearToken,
    },
    /// Stakes the signer's tokens with a validator key (zero unstakes).
    Stake {
        /// The amount to have staked.
        stake: NearToken,
        /// The validator key.
        public_key: PublicKey,
    },
    /// Adds an access key to the receiver.
    AddKey {
        /// The key.
        public_key: PublicKey,
        /// Its nonce and permission.
        access_key: AccessKey,
    },
    /// Deletes an access key of the receiver.
    DeleteKey {
        /// The key.
        public_key: PublicKey,
    },
    /// Deletes the receiver, sending what it holds to the beneficiary.
    DeleteAccount {
        /// Who receives the balance.
        beneficiary_id: AccountId,
    },
    /// Actions signed by another account, relayed by the signer (NEP-366).
    Delegate(Box<SignedDelegateAction>),
    /// Deploys code every account may use, by its hash or by the deployer's account id.
    DeployGlobalContract {
        /// The Wasm binary.
        code: Vec<u8>,
        /// How users will name it.
        deploy_mode: GlobalContractDeployMode,
    },
    /// Makes the receiver use a global contract.
    UseGlobalContract {
        /// Which one.
        contract_identifier: GlobalContractIdentifier,
    },
    /// Initialises a deterministic account (its id derived from its initial state).
    DeterministicStateInit {
        /// The code and storage it starts with.
        state_init: DeterministicAccountStateInit,
        /// Tokens attached.
        deposit: NearToken,
    },
    /// Moves tokens into a gas key's balance.
    TransferToGasKey {
        /// The gas key.
        public_key: PublicKey,
        /// The amount.
        deposit: NearToken,
    },
    /// Moves tokens from a gas key's balance back to the account.
    WithdrawFromGasKey {
        /// The gas key.
        public_key: PublicKey,
        /// The amount.
        amount: NearToken,
    },
    /// Actions signed by another account, relayed by the signer, whose nonce may be one of
    /// a gas key's (nearcore 0.38's `DelegateV2`, so a gas key can sign a
    /// meta-transaction; feature `nearcore_0_38_0`).
    ///
    /// Nodes accept it at protocol versions 85 and 86 only: from 87 on (nearcore 0.38's
    /// stable protocol is 88) they refuse it (`ProtocolFeature::RejectDelegateV2`,
    /// near-primitives-core 0.38 `version.rs`), keeping the variant for a later payload
    /// version. It is encoded here so that blocks and views holding one read back.
    #[cfg(feature = "nearcore_0_38_0")]
    DelegateV2(Box<SignedDelegateActionV2>),
    /// Initialises a universal (`0u`) account, whose id is derived from its initial state
    /// (nearcore 0.38's `UniversalStateInit`; feature `nearcore_0_38_0`).
    #[cfg(feature = "nearcore_0_38_0")]
    UniversalStateInit {
        /// The borsh bytes of nearcore's `UniversalStateInit` (its `RawStateInit`), kept
        /// as given: the account id is hashed over exactly these bytes, and nodes check
        /// that they are the canonical encoding.
        state_init: Vec<u8>,
        /// Tokens attached.
        deposit: NearToken,
    },
}

/// A function call's method, arguments, gas and attached deposit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionCall {
    /// The method.
    pub method_name: String,
    /// The arguments, as the contract reads them (JSON for most contracts).
    pub args: Vec<u8>,
    /// Gas attached.
    pub gas: NearGas,
    /// Tokens attached.
    pub deposit: NearToken,
}

/// An access key: the nonce it starts at and what it may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessKey {
    /// The starting nonce (nodes replace it with a height-derived one on creation).
    pub nonce: u64,
    /// What the key may sign.
    pub permission: AccessKeyPermission,
}

impl AccessKey {
    /// A full-access key.
    pub fn full_access() -> Self {
        Self {
            nonce: 0,
            permission: AccessKeyPermission::FullAccess,
        }
    }

    /// A key that may only call `method_names` (any, when empty) on `receiver_id`,
    /// spending at most `allowance` on gas (unlimited when `None`).
    pub fn function_call(
        receiver_id: impl Into<String>,
        method_names: Vec<String>,
        allowance: Option<NearToken>,
    ) -> Self {
        Self {
            nonce: 0,
            permission: AccessKeyPermission::FunctionCall(FunctionCallPermission {
                allowance,
                receiver_id: receiver_id.into(),
                method_names,
            }),
        }
    }
}

/// What an access key may sign.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AccessKeyPermission {
    /// Function calls only, limited as the permission says.
    FunctionCall(FunctionCallPermission),
    /// Anything.
    FullAccess,
    /// A gas key (its own balance pays for gas) limited to function calls.
    GasKeyFunctionCall(GasKeyInfo, FunctionCallPermission),
    /// A gas key with full access.
    GasKeyFullAccess(GasKeyInfo),
}

/// The limits of a function-call access key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionCallPermission {
    /// What it may spend on gas, in all (`None`: unlimited).
    pub allowance: Option<NearToken>,
    /// The one contract it may call. A string, not an account id: nearcore keeps it as
    /// one.
    pub receiver_id: String,
    /// The methods it may call (empty: any).
    pub method_names: Vec<String>,
}

/// A gas key's balance and how many nonces it has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GasKeyInfo {
    /// Tokens that pay for its transactions' gas.
    pub balance: NearToken,
    /// Independent nonce sequences (transactions name one by `nonce_index`).
    pub num_nonces: u16,
}

/// How a global contract is named by its users.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GlobalContractDeployMode {
    /// By the code's hash: immutable.
    CodeHash,
    /// By the deployer's account id: the deployer may update it for every user.
    AccountId,
}

/// A global contract, by code hash or by the account that deployed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GlobalContractIdentifier {
    /// By the code's hash.
    CodeHash(CryptoHash),
    /// By the deploying account.
    AccountId(AccountId),
}

/// The initial state of a deterministic account.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeterministicAccountStateInit {
    /// Version 1: a global contract and storage entries.
    V1 {
        /// The contract.
        code: GlobalContractIdentifier,
        /// Storage keys and values.
        data: BTreeMap<Vec<u8>, Vec<u8>>,
    },
}

/// What an account signs for a relayer to submit (NEP-366): actions, the nonce and key
/// they are signed with, and the height after which they are void.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DelegateAction {
    /// The account the actions act for.
    pub sender_id: AccountId,
    /// Their receiver.
    pub receiver_id: AccountId,
    /// The actions (never a delegate action: nodes refuse nesting, and so does
    /// [`NonDelegateAction`]).
    pub actions: Vec<NonDelegateAction>,
    /// The nonce, checked against `public_key`'s access key.
    pub nonce: u64,
    /// The last block height at which it is valid.
    pub max_block_height: u64,
    /// The key that signs it.
    pub public_key: PublicKey,
}

/// An [`Action`] that is not a delegate action ([`Action::Delegate`], nor with the
/// `nearcore_0_38_0` feature `Action::DelegateV2`), as a [`DelegateAction`] holds
/// (nearcore's `NonDelegateAction`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NonDelegateAction(Action);

/// A delegate action where only other actions may go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NestedDelegateAction;

impl std::fmt::Display for NestedDelegateAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a delegate action cannot contain another delegate action")
    }
}

impl std::error::Error for NestedDelegateAction {}

/// An action of a transaction that nearcore could not read back: a delegate action
/// (`Delegate`, or `DelegateV2` with the `nearcore_0_38_0` feature) whose ed25519
/// signature nearcore's borsh decoding refuses (see [`Signature::borsh_readable`]). A node
/// cannot decode a transaction holding one, so it is refused before it is signed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnreadableAction {
    /// The action's index in the transaction's actions.
    pub index: usize,
    /// The action's name ([`Action::name`]: `Delegate`, `DelegateV2`).
    pub name: &'static str,
}

impl std::fmt::Display for UnreadableAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "action {} ({}): its ed25519 signature has a top bit of its last byte \
             set, which nearcore refuses to read (no valid signature has one)",
            self.index, self.name
        )
    }
}

impl std::error::Error for UnreadableAction {}

/// The first of `actions` nearcore could not read back, if any (see [`UnreadableAction`]).
///
/// Nesting needs no check here: a delegate action's actions are [`NonDelegateAction`]s,
/// which hold no delegate action of either version.
pub fn check_actions(actions: &[Action]) -> Result<(), UnreadableAction> {
    let unreadable = |action: &Action| match action {
        Action::Delegate(signed) => !signed.signature.borsh_readable(),
        #[cfg(feature = "nearcore_0_38_0")]
        Action::DelegateV2(signed) => !signed.signature.borsh_readable(),
        _ => false,
    };
    match actions.iter().position(unreadable) {
        Some(index) => Err(UnreadableAction {
            index,
            name: actions[index].name(),
        }),
        None => Ok(()),
    }
}

impl Action {
    /// Whether this is a delegate action (`Delegate`, or with the `nearcore_0_38_0`
    /// feature `DelegateV2`): one no delegate action may hold (nearcore's
    /// `Action::is_delegate`).
    pub fn is_delegate(&self) -> bool {
        match self {
            Action::Delegate(_) => true,
            #[cfg(feature = "nearcore_0_38_0")]
            Action::DelegateV2(_) => true,
            _ => false,
        }
    }
}

impl TryFrom<Action> for NonDelegateAction {
    type Error = NestedDelegateAction;

    fn try_from(action: Action) -> Result<Self, Self::Error> {
        if action.is_delegate() {
            Err(NestedDelegateAction)
        } else {
            Ok(Self(action))
        }
    }
}

impl NonDelegateAction {
    /// The action.
    pub fn action(&self) -> &Action {
        &self.0
    }

    /// The action, unwrapped.
    pub fn into_action(self) -> Action {
        self.0
    }
}

impl From<NonDelegateAction> for Action {
    fn from(action: NonDelegateAction) -> Self {
        action.0
    }
}

/// A [`DelegateAction`] with the sender's signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedDelegateAction {
    /// What was signed.
    pub delegate_action: DelegateAction,
    /// The signature of [`DelegateAction::signable_hash`].
    pub signature: Signature,
}

/// A [`DelegateAction`] whose nonce may be a gas key's, so that a gas key can sign a
/// meta-transaction (nearcore 0.38's `DelegateActionV2`; feature `nearcore_0_38_0`).
/// Nodes refuse a gas key's signature on a version-1 delegate action, and from protocol
/// version 87 on every `Action::DelegateV2` (see there).
#[cfg(feature = "nearcore_0_38_0")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DelegateActionV2 {
    /// The account the actions act for.
    pub sender_id: AccountId,
    /// Their receiver.
    pub receiver_id: AccountId,
    /// The actions (never a delegate action of either version).
    pub actions: Vec<NonDelegateAction>,
    /// The nonce: an access key's, or one of a gas key's with its index.
    pub nonce: super::TransactionNonce,
    /// The last block height at which it is valid.
    pub max_block_height: u64,
    /// The key that signs it (an access key or a gas key).
    pub public_key: PublicKey,
}

/// A [`DelegateActionV2`] with the sender's signature: what [`Action::DelegateV2`] holds
/// (nearcore 0.38's `VersionedSignedDelegateAction` with its one payload version, `V2`;
/// feature `nearcore_0_38_0`).
#[cfg(feature = "nearcore_0_38_0")]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedDelegateActionV2 {
    /// What was signed.
    pub delegate_action: DelegateActionV2,
    /// The signature of [`DelegateActionV2::signable_hash`].
    pub signature: Signature,
}

// ---- borsh ----

/// The tag of [`Action::Delegate`].
const ACTION_DELEGATE: u8 = 8;

/// The tag of `Action::DelegateV2` (nearcore 0.38).
const ACTION_DELEGATE_V2: u8 = 14;

/// How many action tags this build reads: nearcore 0.38's two (`DelegateV2`,
/// `UniversalStateInit`) only with `nearcore_0_38_0`.
#[cfg(feature = "nearcore_0_38_0")]
const ACTION_TAGS: u8 = 16;
#[cfg(not(feature = "nearcore_0_38_0"))]
const ACTION_TAGS: u8 = 14;

/// The variant names, by tag (nearcore's `Action` order), the last two read only with
/// `nearcore_0_38_0` (other builds name them when they refuse them).
const ACTION_NAMES: [&str; 16] = [
    "CreateAccount",
    "DeployContract",
    "FunctionCall",
    "Transfer",
    "Stake",
    "AddKey",
    "DeleteKey",
    "DeleteAccount",
    "Delegate",
    "DeployGlobalContract",
    "UseGlobalContract",
    "DeterministicStateInit",
    "TransferToGasKey",
    "WithdrawFromGasKey",
    "DelegateV2",
    "UniversalStateInit",
];

impl Action {
    /// The variant's name, as nearcore's `Action` enum spells it (the JSON views split
    /// two of them: `DeployGlobalContractByAccountId`, `UseGlobalContractByAccountId`).
    pub fn name(&self) -> &'static str {
        ACTION_NAMES[usize::from(self.tag())]
    }

    fn tag(&self) -> u8 {
        match self {
            Action::CreateAccount => 0,
            Action::DeployContract { .. } => 1,
            Action::FunctionCall(_) => 2,
            Action::Transfer { .. } => 3,
            Action::Stake { .. } => 4,
            Action::AddKey { .. } => 5,
            Action::DeleteKey { .. } => 6,
            Action::DeleteAccount { .. } => 7,
            Action::Delegate(_) => 8,
            Action::DeployGlobalContract { .. } => 9,
            Action::UseGlobalContract { .. } => 10,
            Action::DeterministicStateInit { .. } => 11,
            Action::TransferToGasKey { .. } => 12,
            Action::WithdrawFromGasKey { .. } => 13,
            #[cfg(feature = "nearcore_0_38_0")]
            Action::DelegateV2(_) => ACTION_DELEGATE_V2,
            #[cfg(feature = "nearcore_0_38_0")]
            Action::UniversalStateInit { .. } => 15,
        }
    }

    /// A transfer of `deposit`.
    pub fn transfer(deposit: NearToken) -> Self {
        Action::Transfer { deposit }
    }

    /// A call of `method_name` with `args` (as the contract reads them), `gas` and
    /// `deposit`.
    pub fn function_call(
        method_name: impl Into<String>,
        args: impl Into<Vec<u8>>,
        gas: NearGas,
        deposit: NearToken,
    ) -> Self {
        Action::FunctionCall(Box::new(FunctionCall {
            method_name: method_name.into(),
            args: args.into(),
            gas,
            deposit,
        }))
    }
}

impl Borsh for Action {
    fn encode(&self, w: &mut Writer) {
        w.u8(self.tag());
        match self {
            Action::CreateAccount => {}
            Action::DeployContract { code } => w.bytes(code),
            Action::FunctionCall(call) => {
                w.string(&call.method_name);
                w.bytes(&call.args);
                w.u64(call.gas.as_gas());
                w.u128(call.deposit.as_yoctonear());
            }
            Action::Transfer { deposit } => w.u128(deposit.as_yoctonear()),
            Action::Stake { stake, public_key } => {
                w.u128(stake.as_yoctonear());
                public_key.encode(w);
            }
            Action::AddKey {
                public_key,
                access_key,
            } => {
                public_key.encode(w);
                access_key.encode(w);
            }
            Action::DeleteKey { public_key } => public_key.encode(w),
            Action::DeleteAccount { beneficiary_id } => beneficiary_id.encode(w),
            Action::Delegate(signed) => signed.encode(w),
            Action::DeployGlobalContract { code, deploy_mode } => {
                w.bytes(code);
                w.u8(match deploy_mode {
                    GlobalContractDeployMode::CodeHash => 0,
                    GlobalContractDeployMode::AccountId => 1,
                });
            }
            Action::UseGlobalContract {
                contract_identifier,
            } => contract_identifier.encode(w),
            Action::DeterministicStateInit {
                state_init,
                deposit,
            } => {
                state_init.encode(w);
                w.u128(deposit.as_yoctonear());
            }
            Action::TransferToGasKey {
                public_key,
                deposit,
            } => {
                public_key.encode(w);
                w.u128(deposit.as_yoctonear());
            }
            Action::WithdrawFromGasKey { public_key, amount } => {
                public_key.encode(w);
                w.u128(amount.as_yoctonear());
            }
            #[cfg(feature = "nearcore_0_38_0")]
            Action::DelegateV2(signed) => signed.encode(w),
            #[cfg(feature = "nearcore_0_38_0")]
            Action::UniversalStateInit {
                state_init,
                deposit,
            } => {
                w.bytes(state_init);
                w.u128(deposit.as_yoctonear());
            }
        }
    }

    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError> {
        // A later protocol's action is refused by its name, not as an unknown tag.
        if let Some(tag) = r.peek_u8().filter(|&tag| tag >= ACTION_TAGS) {
            if let Some(variant) = ACTION_NAMES.get(usize::from(tag)) {
                return Err(r.error(super::BorshErrorKind::NeedsFeature {
                    of: "Action",
                    tag,
                    variant,
                    feature: "nearcore_0_38_0 (latest)",
                }));
            }
        }
        let tag = r.tag("Action", ACTION_TAGS)?;
        let name = ACTION_NAMES[usize::from(tag)];
        let action = (|| {
            Ok(match tag {
                0 => Action::CreateAccount,
                1 => Action::DeployContract {
                    code: field(r, "code", |r| r.bytes())?,
                },
                2 => Action::FunctionCall(Box::new(FunctionCall {
                    method_name: field(r, "method_name", |r| r.string())?,
                    args: field(r, "args", |r| r.bytes())?,
                    gas: NearGas::from_gas(field(r, "gas", |r| r.u64())?),
                    deposit: field(r, "deposit", token)?,
                })),
                3 => Action::Transfer {
                    deposit: field(r, "deposit", token)?,
                },
                4 => Action::Stake {
                    stake: field(r, "stake", token)?,
                    public_key: field(r, "public_key", PublicKey::decode)?,
                },
                5 => Action::AddKey {
                    public_key: field(r, "public_key", PublicKey::decode)?,
                    access_key: field(r, "access_key", AccessKey::decode)?,
                },
                6 => Action::DeleteKey {
                    public_key: field(r, "public_key", PublicKey::decode)?,
                },
                7 => Action::DeleteAccount {
                    beneficiary_id: field(r, "beneficiary_id", AccountId::decode)?,
                },
                8 => Action::Delegate(Box::new(SignedDelegateAction::decode(r)?)),
                9 => Action::DeployGlobalContract {
                    code: field(r, "code", |r| r.bytes())?,
                    deploy_mode: field(r, "deploy_mode", |r| {
                        Ok(match r.tag("GlobalContractDeployMode", 2)? {
                            0 => GlobalContractDeployMode::CodeHash,
                            _ => GlobalContractDeployMode::AccountId,
                        })
                    })?,
                },
                10 => Action::UseGlobalContract {
                    contract_identifier: field(
                        r,
                        "contract_identifier",
                        GlobalContractIdentifier::decode,
                    )?,
                },
                11 => Action::DeterministicStateInit {
                    state_init: field(r, "state_init", DeterministicAccountStateInit::decode)?,
                    deposit: field(r, "deposit", token)?,
                },
                12 => Action::TransferToGasKey {
                    public_key: field(r, "public_key", PublicKey::decode)?,
                    deposit: field(r, "deposit", token)?,
                },
                #[cfg(feature = "nearcore_0_38_0")]
                ACTION_DELEGATE_V2 => {
                    Action::DelegateV2(Box::new(SignedDelegateActionV2::decode(r)?))
                }
                #[cfg(feature = "nearcore_0_38_0")]
                15 => Action::UniversalStateInit {
                    state_init: field(r, "state_init", |r| r.bytes())?,
                    deposit: field(r, "deposit", token)?,
                },
                _ => Action::WithdrawFromGasKey {
                    public_key: field(r, "public_key", PublicKey::decode)?,
                    amount: field(r, "amount", token)?,
                },
            })
        })();
        action.map_err(|e: BorshError| e.in_field(name))
    }
}

impl Borsh for AccessKey {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.nonce);
        match &self.permission {
            AccessKeyPermission::FunctionCall(permission) => {
                w.u8(0);
                permission.encode(w);
            }
            AccessKeyPermission::FullAccess => w.u8(1),
            AccessKeyPermission::GasKeyFunctionCall(info, permission) => {
                w.u8(2);
                info.encode(w);
                permission.encode(w);
            }
            AccessKeyPermission::GasKeyFullAccess(info) => {
                w.u8(3);
                info.encode(w);
            }
        }
    }
    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError> {
        let nonce = field(r, "nonce", |r| r.u64())?;
        let permission = field(r, "permission", |r| {
            Ok(match r.tag("AccessKeyPermission", 4)? {
                0 => AccessKeyPermission::FunctionCall(field(
                    r,
                    "FunctionCall",
                    FunctionCallPermission::decode,
                )?),
                1 => AccessKeyPermission::FullAccess,
                2 => field(r, "GasKeyFunctionCall", |r| {
                    Ok(AccessKeyPermission::GasKeyFunctionCall(
                        GasKeyInfo::decode(r)?,
                        FunctionCallPermission::decode(r)?,
                    ))
                })?,
                _ => AccessKeyPermission::GasKeyFullAccess(field(
                    r,
                    "GasKeyFullAccess",
                    GasKeyInfo::decode,
                )?),
            })
        })?;
        Ok(Self { nonce, permission })
    }
}

impl Borsh for FunctionCallPermission {
    fn encode(&self, w: &mut Writer) {
        w.option(self.allowance.as_ref(), |w, a| w.u128(a.as_yoctonear()));
        w.string(&self.receiver_id);
        w.seq(&self.method_names, |w, m| w.string(m));
    }
    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError> {
        Ok(Self {
            allowance: field(r, "allowance", |r| r.option(token))?,
            receiver_id: field(r, "receiver_id", |r| r.string())?,
            method_names: field(r, "method_names", |r| r.seq(|r| r.string()))?,
        })
    }
}

impl Borsh for GasKeyInfo {
    fn encode(&self, w: &mut Writer) {
        w.u128(self.balance.as_yoctonear());
        w.u16(self.num_nonces);
    }
    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError> {
        Ok(Self {
            balance: field(r, "balance", token)?,
            num_nonces: field(r, "num_nonces", |r| r.u16())?,
        })
    }
}

impl Borsh for GlobalContractIdentifier {
    fn encode(&self, w: &mut Writer) {
        match self {
            Self::CodeHash(hash) => {
                w.u8(0);
                hash.encode(w);
            }
            Self::AccountId(account) => {
                w.u8(1);
                account.encode(w);
            }
        }
    }
    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError> {
        Ok(match r.tag("GlobalContractIdentifier", 2)? {
            0 => Self::CodeHash(field(r, "CodeHash", CryptoHash::decode)?),
            _ => Self::AccountId(field(r, "AccountId", AccountId::decode)?),
        })
    }
}

impl Borsh for DeterministicAccountStateInit {
    fn encode(&self, w: &mut Writer) {
        match self {
            Self::V1 { code, data } => {
                w.u8(0);
                code.encode(w);
                w.len(data.len());
                for (key, value) in data {
                    w.bytes(key);
                    w.bytes(value);
                }
            }
        }
    }
    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError> {
        r.tag("DeterministicAccountStateInit", 1)?;
        field(r, "V1", |r| {
            let code = field(r, "code", GlobalContractIdentifier::decode)?;
            let data = field(r, "data", |r| {
                let mut data = BTreeMap::new();
                let mut last: Option<Vec<u8>> = None;
                r.seq(|r| {
                    let start = r.offset();
                    let key = r.bytes()?;
                    // borsh writes a map sorted by key, once each; anything else is
                    // another encoding of the same map, which nodes refuse.
                    if last.as_ref().is_some_and(|last| *last >= key) {
                        let mut err = r.invalid("map keys not in strictly increasing order");
                        err.offset = start;
                        return Err(err);
                    }
                    let value = r.bytes()?;
                    last = Some(key.clone());
                    data.insert(key, value);
                    Ok(())
                })?;
                Ok(data)
            })?;
            Ok(Self::V1 { code, data })
        })
    }
}

impl Borsh for DelegateAction {
    fn encode(&self, w: &mut Writer) {
        self.sender_id.encode(w);
        self.receiver_id.encode(w);
        w.seq(&self.actions, |w, a| a.0.encode(w));
        w.u64(self.nonce);
        w.u64(self.max_block_height);
        self.public_key.encode(w);
    }
    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError> {
        Ok(Self {
            sender_id: field(r, "sender_id", AccountId::decode)?,
            receiver_id: field(r, "receiver_id", AccountId::decode)?,
            actions: field(r, "actions", non_delegate_actions)?,
            nonce: field(r, "nonce", |r| r.u64())?,
            max_block_height: field(r, "max_block_height", |r| r.u64())?,
            public_key: field(r, "public_key", PublicKey::decode)?,
        })
    }
}

/// A delegate action's actions: none may be a delegate action of either version.
fn non_delegate_actions(r: &mut Reader<'_>) -> Result<Vec<NonDelegateAction>, BorshError> {
    r.seq(|r| {
        // Refused by its tag, before anything inside it is read: decoding it first would
        // let nested delegates recurse as deep as the input goes.
        let tag = r.peek_u8();
        if tag == Some(ACTION_DELEGATE)
            || (cfg!(feature = "nearcore_0_38_0") && tag == Some(ACTION_DELEGATE_V2))
        {
            return Err(r.invalid(NestedDelegateAction.to_string()));
        }
        Action::decode(r).map(NonDelegateAction)
    })
}

impl Borsh for SignedDelegateAction {
    fn encode(&self, w: &mut Writer) {
        self.delegate_action.encode(w);
        self.signature.encode(w);
    }
    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError> {
        Ok(Self {
            delegate_action: field(r, "delegate_action", DelegateAction::decode)?,
            signature: field(r, "signature", Signature::decode)?,
        })
    }
}

/// NEP-461's prefix of a signed delegate action: `2^30 + 366` (NEP-366), so that its
/// bytes can never be read as a transaction's.
const DELEGATE_ACTION_DISCRIMINANT: u32 = (1 << 30) + 366;

/// NEP-461's prefix of a version-2 delegate action: `2^30 + 611` (NEP-611, gas keys;
/// near-primitives 0.38 `signable_message.rs`, `SignableMessageType::DelegateActionV2`),
/// so that neither version's signature verifies for the other.
#[cfg(feature = "nearcore_0_38_0")]
const DELEGATE_ACTION_V2_DISCRIMINANT: u32 = (1 << 30) + 611;

/// The borsh tag of the `V2` payload of nearcore 0.38's `VersionedDelegateActionPayload`,
/// written before a [`DelegateActionV2`] wherever it is encoded or signed.
#[cfg(feature = "nearcore_0_38_0")]
const DELEGATE_PAYLOAD_V2: u8 = 0;

/// Encoded as nearcore's `VersionedDelegateActionPayload::V2`: the payload's version tag,
/// then the fields in order (`action/delegate.rs`).
#[cfg(feature = "nearcore_0_38_0")]
impl Borsh for DelegateActionV2 {
    fn encode(&self, w: &mut Writer) {
        w.u8(DELEGATE_PAYLOAD_V2);
        self.sender_id.encode(w);
        self.receiver_id.encode(w);
        w.seq(&self.actions, |w, a| a.0.encode(w));
        self.nonce.encode(w);
        w.u64(self.max_block_height);
        self.public_key.encode(w);
    }
    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError> {
        r.tag("VersionedDelegateActionPayload", DELEGATE_PAYLOAD_V2 + 1)?;
        field(r, "V2", |r| {
            Ok(Self {
                sender_id: field(r, "sender_id", AccountId::decode)?,
                receiver_id: field(r, "receiver_id", AccountId::decode)?,
                actions: field(r, "actions", non_delegate_actions)?,
                nonce: field(r, "nonce", super::TransactionNonce::decode)?,
                max_block_height: field(r, "max_block_height", |r| r.u64())?,
                public_key: field(r, "public_key", PublicKey::decode)?,
            })
        })
    }
}

#[cfg(feature = "nearcore_0_38_0")]
impl Borsh for SignedDelegateActionV2 {
    fn encode(&self, w: &mut Writer) {
        self.delegate_action.encode(w);
        self.signature.encode(w);
    }
    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError> {
        Ok(Self {
            delegate_action: field(r, "delegate_action", DelegateActionV2::decode)?,
            signature: field(r, "signature", Signature::decode)?,
        })
    }
}

#[cfg(feature = "nearcore_0_38_0")]
impl DelegateActionV2 {
    /// The borsh bytes, as nearcore's `VersionedDelegateActionPayload` (with its version
    /// tag).
    pub fn to_borsh(&self) -> Vec<u8> {
        super::borsh::to_vec(self)
    }

    /// What the sender signs: sha256 of the NEP-461 prefix `2^30 + 611` and the borsh
    /// bytes (nearcore's `VersionedDelegateActionPayload::get_nep461_hash`).
    pub fn signable_hash(&self) -> CryptoHash {
        let mut w = Writer::default();
        w.u32(DELEGATE_ACTION_V2_DISCRIMINANT);
        self.encode(&mut w);
        CryptoHash::hash_bytes(&w.into_bytes())
    }

    /// Signs it with `key` (the key of `public_key`: an access key, or the gas key whose
    /// nonce it carries), for a relayer to submit.
    pub fn sign(self, key: &super::SecretKey) -> SignedDelegateActionV2 {
        let signature = key.sign(&self.signable_hash().0);
        SignedDelegateActionV2 {
            delegate_action: self,
            signature,
        }
    }
}

#[cfg(feature = "nearcore_0_38_0")]
impl SignedDelegateActionV2 {
    /// Whether the signature is `public_key`'s over [`DelegateActionV2::signable_hash`].
    pub fn verify(&self) -> bool {
        super::verify(
            &self.delegate_action.public_key,
            &self.delegate_action.signable_hash().0,
            &self.signature,
        )
    }

    /// The borsh bytes (what a relayer receives).
    pub fn to_borsh(&self) -> Vec<u8> {
        super::borsh::to_vec(self)
    }

    /// A signed version-2 delegate action from its borsh bytes, all of them.
    pub fn from_borsh(bytes: &[u8]) -> Result<Self, BorshError> {
        super::borsh::from_slice(bytes)
    }

    /// The base64 of the borsh bytes: the text a relayer receives.
    pub fn to_base64(&self) -> String {
        super::borsh::to_base64(self)
    }

    /// A signed version-2 delegate action from the base64 of its borsh bytes.
    pub fn from_base64(text: &str) -> Result<Self, BorshError> {
        super::borsh::from_base64(text)
    }
}

impl DelegateAction {
    /// The borsh bytes.
    pub fn to_borsh(&self) -> Vec<u8> {
        super::borsh::to_vec(self)
    }

    /// What the sender signs: sha256 of the NEP-461 prefix and the borsh bytes.
    pub fn signable_hash(&self) -> CryptoHash {
        let mut w = Writer::default();
        w.u32(DELEGATE_ACTION_DISCRIMINANT);
        self.encode(&mut w);
        CryptoHash::hash_bytes(&w.into_bytes())
    }

    /// Signs it with `key` (the key of `public_key`), for a relayer to submit.
    pub fn sign(self, key: &super::SecretKey) -> SignedDelegateAction {
        let signature = key.sign(&self.signable_hash().0);
        SignedDelegateAction {
            delegate_action: self,
            signature,
        }
    }
}

impl SignedDelegateAction {
    /// Whether the signature is `public_key`'s over [`DelegateAction::signable_hash`].
    pub fn verify(&self) -> bool {
        super::verify(
            &self.delegate_action.public_key,
            &self.delegate_action.signable_hash().0,
            &self.signature,
        )
    }

    /// The borsh bytes (what a relayer receives).
    pub fn to_borsh(&self) -> Vec<u8> {
        super::borsh::to_vec(self)
    }

    /// A signed delegate action from its borsh bytes, all of them.
    pub fn from_borsh(bytes: &[u8]) -> Result<Self, BorshError> {
        super::borsh::from_slice(bytes)
    }

    /// The base64 of the borsh bytes: the text a relayer receives.
    pub fn to_base64(&self) -> String {
        super::borsh::to_base64(self)
    }

    /// A signed delegate action from the base64 of its borsh bytes.
    pub fn from_base64(text: &str) -> Result<Self, BorshError> {
        super::borsh::from_base64(text)
    }
}

impl Action {
    /// The borsh bytes of this one action.
    pub fn to_borsh(&self) -> Vec<u8> {
        super::borsh::to_vec(self)
    }

    /// One action from its borsh bytes, all of them.
    pub fn from_borsh(bytes: &[u8]) -> Result<Self, BorshError> {
        super::borsh::from_slice(bytes)
    }
}
