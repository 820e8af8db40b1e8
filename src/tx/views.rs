//! Conversions between the codec's types and the generated JSON views
//! ([`ActionView`], [`SignedTransactionView`], and the delegate action's
//! [`NonDelegateAction`](types::NonDelegateAction)), so that what a user builds reads
//! back as a node shows it (`nonce_mode` only when not the default, as nearcore), and
//! what a node shows can be re-encoded and its hash checked.
//!
//! The views lose one thing: nodes show a deployed contract's code as the base64 of its
//! sha256 (`DeployContract`, `DeployGlobalContract*`), so those views convert to an
//! [`Action`] only when the code is given back ([`ViewError::CodeOnlyHashed`]).

use std::collections::BTreeMap;
use std::fmt;

use base64::Engine as _;

use super::action::{
    AccessKey, AccessKeyPermission, Action, DelegateAction, DeterministicAccountStateInit,
    FunctionCall, FunctionCallPermission, GasKeyInfo, GlobalContractDeployMode,
    GlobalContractIdentifier, NonDelegateAction, SignedDelegateAction,
};
#[cfg(feature = "nearcore_0_38_0")]
use super::action::{DelegateActionV2, SignedDelegateActionV2};
use super::transaction::{
    NonceMode, SignedTransaction, Transaction, TransactionNonce, TransactionV1,
};
use crate::generated::types::{
    self, AccessKeyPermissionView, AccessKeyView, ActionView, SignedTransactionView,
};
use crate::primitives::CryptoHash;
use crate::primitives::FunctionArgs;

/// Why a view does not convert to the codec's type.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ViewError {
    /// A variant these bindings don't know (the view's `Unknown`), or one the codec has
    /// no encoding for in this build (`DelegateV2` and `UniversalStateInit` without the
    /// `nearcore_0_38_0` feature).
    Unsupported {
        /// Where (`actions[2]`).
        at: String,
        /// The variant, as far as it is known.
        what: String,
    },
    /// A view of deployed code carries the code's hash, not the code.
    CodeOnlyHashed {
        /// Where.
        at: String,
    },
    /// A base64 field that is not base64.
    Base64 {
        /// Where.
        at: String,
        /// Why.
        why: String,
    },
    /// A delegate action inside a delegate action.
    NestedDelegate {
        /// Where.
        at: String,
    },
    /// A delegate action's ed25519 signature that nearcore's borsh decoding refuses (see
    /// [`Signature::borsh_readable`](crate::Signature::borsh_readable)): a transaction
    /// holding it could not be read by any node.
    UnreadableSignature {
        /// Where (`actions[0].Delegate.signature`).
        at: String,
    },
    /// The view's signature is empty (`"ed25519:"`): there is no transaction to sign.
    EmptySignature,
    /// The view's `hash` is not the hash of the transaction it shows with the block hash
    /// given (the wrong block hash, or a view that does not show the whole transaction).
    HashMismatch {
        /// The view's hash.
        shown: CryptoHash,
        /// The hash of the transaction's borsh bytes.
        computed: CryptoHash,
    },
}

impl fmt::Display for ViewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unsupported { at, what } => {
                write!(f, "{at}: {what} has no encoding in these bindings")
            }
            Self::CodeOnlyHashed { at } => write!(
                f,
                "{at}: the view carries the code's hash, not the code, so it cannot be re-encoded"
            ),
            Self::Base64 { at, why } => write!(f, "{at}: not base64: {why}"),
            Self::NestedDelegate { at } => {
                write!(f, "{at}: a delegate action inside a delegate action")
            }
            Self::UnreadableSignature { at } => write!(
                f,
                "{at}: an ed25519 signature with a top bit of its last byte set, which \
                 nearcore refuses to read (no valid signature has one)"
            ),
            Self::EmptySignature => f.write_str("the view's signature is empty"),
            Self::HashMismatch { shown, computed } => write!(
                f,
                "the view's hash {shown} is not the transaction's hash {computed}"
            ),
        }
    }
}

impl std::error::Error for ViewError {}

fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn unbase64(text: &str, at: &str) -> Result<Vec<u8>, ViewError> {
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| ViewError::Base64 {
            at: at.to_owned(),
            why: e.to_string(),
        })
}

/// How nodes show deployed code: the base64 of its sha256.
fn code_hash_view(code: &[u8]) -> String {
    base64(&CryptoHash::hash_bytes(code).0)
}

// ---- to the views ----

impl From<&Action> for ActionView {
    fn from(action: &Action) -> Self {
        match action {
            Action::CreateAccount => ActionView::CreateAccount,
            Action::DeployContract { code } => ActionView::DeployContract {
                code: code_hash_view(code),
            },
            Action::FunctionCall(call) => ActionView::FunctionCall {
                args: FunctionArgs::from_bytes(&call.args),
                deposit: call.deposit,
                gas: call.gas,
                method_name: call.method_name.clone(),
            },
            Action::Transfer { deposit } => ActionView::Transfer { deposit: *deposit },
            Action::Stake { stake, public_key } => ActionView::Stake {
                public_key: public_key.clone(),
                stake: *stake,
            },
            Action::AddKey {
                public_key,
                access_key,
            } => ActionView::AddKey {
                access_key: access_key.into(),
                public_key: public_key.clone(),
            },
            Action::DeleteKey { public_key } => ActionView::DeleteKey {
                public_key: public_key.clone(),
            },
            Action::DeleteAccount { beneficiary_id } => ActionView::DeleteAccount {
                beneficiary_id: beneficiary_id.clone(),
            },
            Action::Delegate(signed) => ActionView::Delegate {
                delegate_action: (&signed.delegate_action).into(),
                signature: signed.signature.clone(),
            },
            Action::DeployGlobalContract { code, deploy_mode } => match deploy_mode {
                GlobalContractDeployMode::CodeHash => ActionView::DeployGlobalContract {
                    code: code_hash_view(code),
                },
                GlobalContractDeployMode::AccountId => {
                    ActionView::DeployGlobalContractByAccountId {
                        code: code_hash_view(code),
                    }
                }
            },
            Action::UseGlobalContract {
                contract_identifier,
            } => match contract_identifier {
                GlobalContractIdentifier::CodeHash(code_hash) => ActionView::UseGlobalContract {
                    code_hash: *code_hash,
                },
                GlobalContractIdentifier::AccountId(account_id) => {
                    ActionView::UseGlobalContractByAccountId {
                        account_id: account_id.clone(),
                    }
                }
            },
            Action::DeterministicStateInit {
                state_init: DeterministicAccountStateInit::V1 { code, data },
                deposit,
            } => ActionView::DeterministicStateInit {
                code: match code {
                    GlobalContractIdentifier::CodeHash(hash) => {
                        types::GlobalContractIdentifierView::Hash(*hash)
                    }
                    GlobalContractIdentifier::AccountId(account) => {
                        types::GlobalContractIdentifierView::AccountId(account.clone())
                    }
                },
                data: data.iter().map(|(k, v)| (base64(k), base64(v))).collect(),
                deposit: *deposit,
            },
            Action::TransferToGasKey {
                public_key,
                deposit,
            } => ActionView::TransferToGasKey {
                deposit: *deposit,
                public_key: public_key.clone(),
            },
            Action::WithdrawFromGasKey { public_key, amount } => ActionView::WithdrawFromGasKey {
                amount: *amount,
                public_key: public_key.clone(),
            },
            #[cfg(feature = "nearcore_0_38_0")]
            Action::DelegateV2(signed) => ActionView::DelegateV2 {
                delegate_action: types::VersionedDelegateActionPayload::V2(
                    (&signed.delegate_action).into(),
                ),
                signature: signed.signature.clone(),
            },
            #[cfg(feature = "nearcore_0_38_0")]
            Action::UniversalStateInit {
                state_init,
                deposit,
            } => ActionView::UniversalStateInit {
                deposit: *deposit,
                state_init: types::RawStateInit(base64(state_init)),
            },
        }
    }
}

impl From<&AccessKey> for AccessKeyView {
    fn from(key: &AccessKey) -> Self {
        let permission = match &key.permission {
            AccessKeyPermission::FullAccess => AccessKeyPermissionView::FullAccess,
            AccessKeyPermission::FunctionCall(p) => AccessKeyPermissionView::FunctionCall {
                allowance: p.allowance,
                method_names: p.method_names.clone(),
                receiver_id: p.receiver_id.clone(),
            },
            AccessKeyPermission::GasKeyFunctionCall(info, p) => {
                AccessKeyPermissionView::GasKeyFunctionCall {
                    allowance: p.allowance,
                    balance: info.balance,
                    method_names: p.method_names.clone(),
                    num_nonces: info.num_nonces,
                    receiver_id: p.receiver_id.clone(),
                }
            }
            AccessKeyPermission::GasKeyFullAccess(info) => {
                AccessKeyPermissionView::GasKeyFullAccess {
                    balance: info.balance,
                    num_nonces: info.num_nonces,
                }
            }
        };
        AccessKeyView {
            nonce: key.nonce,
            permission,
        }
    }
}

/// The delegate action as nodes show it: its inner actions in their serde form (full
/// code in base64, not its hash).
impl From<&DelegateAction> for types::DelegateAction {
    fn from(action: &DelegateAction) -> Self {
        types::DelegateAction {
            actions: action
                .actions
                .iter()
                .map(|a| non_delegate_view(a.action()))
                .collect(),
            max_block_height: action.max_block_height,
            nonce: action.nonce,
            public_key: action.public_key.clone(),
            receiver_id: action.receiver_id.clone(),
            sender_id: action.sender_id.clone(),
        }
    }
}

/// The version-2 delegate action as nodes show it (inside `"V2"`): its nonce as
/// `{"Nonce": ..}` or `{"GasKeyNonce": ..}`, its actions in their serde form.
#[cfg(feature = "nearcore_0_38_0")]
impl From<&DelegateActionV2> for types::DelegateActionV2 {
    fn from(action: &DelegateActionV2) -> Self {
        types::DelegateActionV2 {
            actions: action
                .actions
                .iter()
                .map(|a| non_delegate_view(a.action()))
                .collect(),
            max_block_height: action.max_block_height,
            nonce: match action.nonce {
                TransactionNonce::Nonce { nonce } => types::TransactionNonce::Nonce { nonce },
                TransactionNonce::GasKeyNonce { nonce, nonce_index } => {
                    types::TransactionNonce::GasKeyNonce { nonce, nonce_index }
                }
            },
            public_key: action.public_key.clone(),
            receiver_id: action.receiver_id.clone(),
            sender_id: action.sender_id.clone(),
        }
    }
}

fn permission_json(permission: &AccessKeyPermission) -> types::AccessKeyPermission {
    let function_call = |p: &FunctionCallPermission| types::FunctionCallPermission {
        allowance: p.allowance,
        method_names: p.method_names.clone(),
        receiver_id: p.receiver_id.clone(),
    };
    let gas_key = |info: &GasKeyInfo| types::GasKeyInfo {
        balance: info.balance,
        num_nonces: info.num_nonces,
    };
    match permission {
        AccessKeyPermission::FullAccess => types::AccessKeyPermission::FullAccess,
        AccessKeyPermission::FunctionCall(p) => {
            types::AccessKeyPermission::FunctionCall(function_call(p))
        }
        AccessKeyPermission::GasKeyFunctionCall(info, p) => {
            types::AccessKeyPermission::GasKeyFunctionCall((gas_key(info), function_call(p)))
        }
        AccessKeyPermission::GasKeyFullAccess(info) => {
            types::AccessKeyPermission::GasKeyFullAccess(gas_key(info))
        }
    }
}

fn identifier_json(id: &GlobalContractIdentifier) -> types::GlobalContractIdentifier {
    match id {
        GlobalContractIdentifier::CodeHash(hash) => types::GlobalContractIdentifier::Hash(*hash),
        GlobalContractIdentifier::AccountId(account) => {
            types::GlobalContractIdentifier::AccountId(account.clone())
        }
    }
}

fn non_delegate_view(action: &Action) -> types::NonDelegateAction {
    use types::NonDelegateAction as N;
    match action {
        Action::CreateAccount => N::CreateAccount(types::CreateAccountAction(Default::default())),
        Action::DeployContract { code } => {
            N::DeployContract(types::DeployContractAction { code: base64(code) })
        }
        Action::FunctionCall(call) => N::FunctionCall(types::FunctionCallAction {
            args: base64(&call.args),
            deposit: call.deposit,
            gas: call.gas,
            method_name: call.method_name.clone(),
        }),
        Action::Transfer { deposit } => N::Transfer(types::TransferAction { deposit: *deposit }),
        Action::Stake { stake, public_key } => N::Stake(types::StakeAction {
            public_key: public_key.clone(),
            stake: *stake,
        }),
        Action::AddKey {
            public_key,
            access_key,
        } => N::AddKey(types::AddKeyAction {
            access_key: types::AccessKey {
                nonce: access_key.nonce,
                permission: permission_json(&access_key.permission),
            },
            public_key: public_key.clone(),
        }),
        Action::DeleteKey { public_key } => N::DeleteKey(types::DeleteKeyAction {
            public_key: public_key.clone(),
        }),
        Action::DeleteAccount { beneficiary_id } => N::DeleteAccount(types::DeleteAccountAction {
            beneficiary_id: beneficiary_id.clone(),
        }),
        Action::DeployGlobalContract { code, deploy_mode } => {
            N::DeployGlobalContract(types::DeployGlobalContractAction {
                code: base64(code),
                deploy_mode: match deploy_mode {
                    GlobalContractDeployMode::CodeHash => types::GlobalContractDeployMode::CodeHash,
                    GlobalContractDeployMode::AccountId => {
                        types::GlobalContractDeployMode::AccountId
                    }
                },
            })
        }
        Action::UseGlobalContract {
            contract_identifier,
        } => N::UseGlobalContract(types::UseGlobalContractAction {
            contract_identifier: identifier_json(contract_identifier),
        }),
        Action::DeterministicStateInit {
            state_init: DeterministicAccountStateInit::V1 { code, data },
            deposit,
        } => N::DeterministicStateInit(types::DeterministicStateInitAction {
            deposit: *deposit,
            state_init: types::DeterministicAccountStateInit::V1(
                types::DeterministicAccountStateInitV1 {
                    code: identifier_json(code),
                    data: data.iter().map(|(k, v)| (base64(k), base64(v))).collect(),
                },
            ),
        }),
        Action::TransferToGasKey {
            public_key,
            deposit,
        } => N::TransferToGasKey(types::TransferToGasKeyAction {
            deposit: *deposit,
            public_key: public_key.clone(),
        }),
        Action::WithdrawFromGasKey { public_key, amount } => {
            N::WithdrawFromGasKey(types::WithdrawFromGasKeyAction {
                amount: *amount,
                public_key: public_key.clone(),
            })
        }
        #[cfg(feature = "nearcore_0_38_0")]
        Action::UniversalStateInit {
            state_init,
            deposit,
        } => N::UniversalStateInit(types::UniversalStateInitAction {
            deposit: *deposit,
            state_init: types::RawStateInit(base64(state_init)),
        }),
        // A delegate action never holds one (NonDelegateAction refuses it).
        Action::Delegate(_) => unreachable!("NonDelegateAction holds no delegate action"),
        #[cfg(feature = "nearcore_0_38_0")]
        Action::DelegateV2(_) => unreachable!("NonDelegateAction holds no delegate action"),
    }
}

impl From<&SignedTransaction> for SignedTransactionView {
    fn from(signed: &SignedTransaction) -> Self {
        let tx = signed.transaction();
        let (nonce_index, nonce_mode) = match tx {
            Transaction::V0(_) => (None, None),
            // As nearcore shows it: `nonce_mode` only when it is not the default.
            Transaction::V1(v1) => (
                v1.nonce.nonce_index(),
                match v1.nonce_mode {
                    NonceMode::Monotonic => None,
                    NonceMode::Strict => Some(types::NonceMode::Strict),
                },
            ),
        };
        SignedTransactionView {
            actions: tx.actions().iter().map(ActionView::from).collect(),
            hash: signed.hash(),
            nonce: tx.nonce(),
            nonce_index,
            nonce_mode,
            priority_fee: Some(0),
            public_key: tx.public_key().clone(),
            receiver_id: tx.receiver_id().clone(),
            signature: signed.signature().clone(),
            signer_id: tx.signer_id().clone(),
        }
    }
}

// ---- from the views ----

impl TryFrom<&ActionView> for Action {
    type Error = ViewError;

    /// The action a view shows. Deployments fail with [`ViewError::CodeOnlyHashed`]:
    /// use [`action_from_view_with_code`] where the code is known.
    fn try_from(view: &ActionView) -> Result<Self, ViewError> {
        action_from_view(view, "action", None)
    }
}

/// [`Action::try_from`], with the code of a deployment (checked against the hash the
/// view shows).
pub fn action_from_view_with_code(view: &ActionView, code: &[u8]) -> Result<Action, ViewError> {
    action_from_view(view, "action", Some(code))
}

fn action_from_view(view: &ActionView, at: &str, code: Option<&[u8]>) -> Result<Action, ViewError> {
    let deployed = |shown: &str| -> Result<Vec<u8>, ViewError> {
        match code {
            Some(code) if code_hash_view(code) == shown => Ok(code.to_vec()),
            _ => Err(ViewError::CodeOnlyHashed { at: at.to_owned() }),
        }
    };
    Ok(match view {
        ActionView::CreateAccount => Action::CreateAccount,
        ActionView::DeployContract { code } => Action::DeployContract {
            code: deployed(code)?,
        },
        ActionView::FunctionCall {
            args,
            deposit,
            gas,
            method_name,
        } => Action::FunctionCall(Box::new(FunctionCall {
            method_name: method_name.clone(),
            args: unbase64(args, &format!("{at}.FunctionCall.args"))?,
            gas: *gas,
            deposit: *deposit,
        })),
        ActionView::Transfer { deposit } => Action::Transfer { deposit: *deposit },
        ActionView::Stake { public_key, stake } => Action::Stake {
            stake: *stake,
            public_key: public_key.clone(),
        },
        ActionView::AddKey {
            access_key,
            public_key,
        } => Action::AddKey {
            public_key: public_key.clone(),
            access_key: access_key_from_view(access_key, &format!("{at}.AddKey.access_key"))?,
        },
        ActionView::DeleteKey { public_key } => Action::DeleteKey {
            public_key: public_key.clone(),
        },
        ActionView::DeleteAccount { beneficiary_id } => Action::DeleteAccount {
            beneficiary_id: beneficiary_id.clone(),
        },
        ActionView::Delegate {
            delegate_action,
            signature,
        } => {
            if !signature.borsh_readable() {
                return Err(ViewError::UnreadableSignature {
                    at: format!("{at}.Delegate.signature"),
                });
            }
            Action::Delegate(Box::new(SignedDelegateAction {
                delegate_action: delegate_from_view(delegate_action, &format!("{at}.Delegate"))?,
                signature: signature.clone(),
            }))
        }
        ActionView::DeployGlobalContract { code } => Action::DeployGlobalContract {
            code: deployed(code)?,
            deploy_mode: GlobalContractDeployMode::CodeHash,
        },
        ActionView::DeployGlobalContractByAccountId { code } => Action::DeployGlobalContract {
            code: deployed(code)?,
            deploy_mode: GlobalContractDeployMode::AccountId,
        },
        ActionView::UseGlobalContract { code_hash } => Action::UseGlobalContract {
            contract_identifier: GlobalContractIdentifier::CodeHash(*code_hash),
        },
        ActionView::UseGlobalContractByAccountId { account_id } => Action::UseGlobalContract {
            contract_identifier: GlobalContractIdentifier::AccountId(account_id.clone()),
        },
        ActionView::DeterministicStateInit {
            code,
            data,
            deposit,
        } => {
            let at = format!("{at}.DeterministicStateInit");
            let code = match code {
                types::GlobalContractIdentifierView::Hash(hash) => {
                    GlobalContractIdentifier::CodeHash(*hash)
                }
                types::GlobalContractIdentifierView::AccountId(account) => {
                    GlobalContractIdentifier::AccountId(account.clone())
                }
                other => {
                    return Err(ViewError::Unsupported {
                        at: format!("{at}.code"),
                        what: format!("{other:?}"),
                    })
                }
            };
            Action::DeterministicStateInit {
                state_init: DeterministicAccountStateInit::V1 {
                    code,
                    data: state_data(data, &format!("{at}.data"))?,
                },
                deposit: *deposit,
            }
        }
        ActionView::TransferToGasKey {
            deposit,
            public_key,
        } => Action::TransferToGasKey {
            public_key: public_key.clone(),
            deposit: *deposit,
        },
        ActionView::WithdrawFromGasKey { amount, public_key } => Action::WithdrawFromGasKey {
            public_key: public_key.clone(),
            amount: *amount,
        },
        #[cfg(feature = "nearcore_0_38_0")]
        ActionView::DelegateV2 {
            delegate_action,
            signature,
        } => {
            if !signature.borsh_readable() {
                return Err(ViewError::UnreadableSignature {
                    at: format!("{at}.DelegateV2.signature"),
                });
            }
            let at = format!("{at}.DelegateV2.delegate_action");
            let delegate_action = match delegate_action {
                types::VersionedDelegateActionPayload::V2(v2) => {
                    delegate_v2_from_view(v2, &format!("{at}.V2"))?
                }
                other => return Err(unsupported(&at, other)),
            };
            Action::DelegateV2(Box::new(SignedDelegateActionV2 {
                delegate_action,
                signature: signature.clone(),
            }))
        }
        #[cfg(feature = "nearcore_0_38_0")]
        ActionView::UniversalStateInit {
            deposit,
            state_init,
        } => Action::UniversalStateInit {
            state_init: unbase64(state_init, &format!("{at}.UniversalStateInit.state_init"))?,
            deposit: *deposit,
        },
        other => return Err(unsupported(at, other)),
    })
}

/// [`ViewError::Unsupported`] for a variant these bindings do not encode.
fn unsupported(at: &str, variant: &impl serde::Serialize) -> ViewError {
    ViewError::Unsupported {
        at: at.to_owned(),
        what: variant_name(&serde_json::to_value(variant).unwrap_or_default()),
    }
}

/// The name an unknown variant arrived with (`"Name"` or `{"Name": ...}`).
fn variant_name(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(name) => name.clone(),
        serde_json::Value::Object(map) if map.len() == 1 => {
            map.keys().next().cloned().unwrap_or_default()
        }
        _ => "an unknown variant".to_owned(),
    }
}

fn state_data(
    data: &BTreeMap<String, String>,
    at: &str,
) -> Result<BTreeMap<Vec<u8>, Vec<u8>>, ViewError> {
    data.iter()
        .map(|(k, v)| Ok((unbase64(k, at)?, unbase64(v, &format!("{at}.{k}"))?)))
        .collect()
}

fn access_key_from_view(view: &AccessKeyView, at: &str) -> Result<AccessKey, ViewError> {
    let function_call = |allowance: &Option<near_token::NearToken>,
                         method_names: &Vec<String>,
                         receiver_id: &String| FunctionCallPermission {
        allowance: *allowance,
        receiver_id: receiver_id.clone(),
        method_names: method_names.clone(),
    };
    let permission = match &view.permission {
        AccessKeyPermissionView::FullAccess => AccessKeyPermission::FullAccess,
        AccessKeyPermissionView::FunctionCall {
            allowance,
            method_names,
            receiver_id,
        } => AccessKeyPermission::FunctionCall(function_call(allowance, method_names, receiver_id)),
        AccessKeyPermissionView::GasKeyFunctionCall {
            allowance,
            balance,
            method_names,
            num_nonces,
            receiver_id,
        } => AccessKeyPermission::GasKeyFunctionCall(
            GasKeyInfo {
                balance: *balance,
                num_nonces: *num_nonces,
            },
            function_call(allowance, method_names, receiver_id),
        ),
        AccessKeyPermissionView::GasKeyFullAccess {
            balance,
            num_nonces,
        } => AccessKeyPermission::GasKeyFullAccess(GasKeyInfo {
            balance: *balance,
            num_nonces: *num_nonces,
        }),
        other => return Err(unsupported(&format!("{at}.permission"), other)),
    };
    Ok(AccessKey {
        nonce: view.nonce,
        permission,
    })
}

fn delegate_from_view(view: &types::DelegateAction, at: &str) -> Result<DelegateAction, ViewError> {
    let actions = view
        .actions
        .iter()
        .enumerate()
        .map(|(i, a)| non_delegate_from_json(a, &format!("{at}.actions[{i}]")))
        .collect::<Result<_, _>>()?;
    Ok(DelegateAction {
        sender_id: view.sender_id.clone(),
        receiver_id: view.receiver_id.clone(),
        actions,
        nonce: view.nonce,
        max_block_height: view.max_block_height,
        public_key: view.public_key.clone(),
    })
}

#[cfg(feature = "nearcore_0_38_0")]
fn delegate_v2_from_view(
    view: &types::DelegateActionV2,
    at: &str,
) -> Result<DelegateActionV2, ViewError> {
    let actions = view
        .actions
        .iter()
        .enumerate()
        .map(|(i, a)| non_delegate_from_json(a, &format!("{at}.actions[{i}]")))
        .collect::<Result<_, _>>()?;
    let nonce = match &view.nonce {
        types::TransactionNonce::Nonce { nonce } => TransactionNonce::Nonce { nonce: *nonce },
        types::TransactionNonce::GasKeyNonce { nonce, nonce_index } => {
            TransactionNonce::GasKeyNonce {
                nonce: *nonce,
                nonce_index: *nonce_index,
            }
        }
        other => return Err(unsupported(&format!("{at}.nonce"), other)),
    };
    Ok(DelegateActionV2 {
        sender_id: view.sender_id.clone(),
        receiver_id: view.receiver_id.clone(),
        actions,
        nonce,
        max_block_height: view.max_block_height,
        public_key: view.public_key.clone(),
    })
}

fn permission_from_json(
    p: &types::AccessKeyPermission,
    at: &str,
) -> Result<AccessKeyPermission, ViewError> {
    let function_call = |p: &types::FunctionCallPermission| FunctionCallPermission {
        allowance: p.allowance,
        receiver_id: p.receiver_id.clone(),
        method_names: p.method_names.clone(),
    };
    let gas_key = |info: &types::GasKeyInfo| GasKeyInfo {
        balance: info.balance,
        num_nonces: info.num_nonces,
    };
    Ok(match p {
        types::AccessKeyPermission::FullAccess => AccessKeyPermission::FullAccess,
        types::AccessKeyPermission::FunctionCall(p) => {
            AccessKeyPermission::FunctionCall(function_call(p))
        }
        types::AccessKeyPermission::GasKeyFunctionCall((info, p)) => {
            AccessKeyPermission::GasKeyFunctionCall(gas_key(info), function_call(p))
        }
        types::AccessKeyPermission::GasKeyFullAccess(info) => {
            AccessKeyPermission::GasKeyFullAccess(gas_key(info))
        }
        other => return Err(unsupported(at, other)),
    })
}

fn identifier_from_json(
    id: &types::GlobalContractIdentifier,
    at: &str,
) -> Result<GlobalContractIdentifier, ViewError> {
    Ok(match id {
        types::GlobalContractIdentifier::Hash(hash) => GlobalContractIdentifier::CodeHash(*hash),
        types::GlobalContractIdentifier::AccountId(account) => {
            GlobalContractIdentifier::AccountId(account.clone())
        }
        other => return Err(unsupported(at, other)),
    })
}

fn non_delegate_from_json(
    action: &types::NonDelegateAction,
    at: &str,
) -> Result<NonDelegateAction, ViewError> {
    use types::NonDelegateAction as N;
    let action = match action {
        N::CreateAccount(_) => Action::CreateAccount,
        N::DeployContract(a) => Action::DeployContract {
            code: unbase64(&a.code, &format!("{at}.DeployContract.code"))?,
        },
        N::FunctionCall(a) => Action::FunctionCall(Box::new(FunctionCall {
            method_name: a.method_name.clone(),
            args: unbase64(&a.args, &format!("{at}.FunctionCall.args"))?,
            gas: a.gas,
            deposit: a.deposit,
        })),
        N::Transfer(a) => Action::Transfer { deposit: a.deposit },
        N::Stake(a) => Action::Stake {
            stake: a.stake,
            public_key: a.public_key.clone(),
        },
        N::AddKey(a) => Action::AddKey {
            public_key: a.public_key.clone(),
            access_key: AccessKey {
                nonce: a.access_key.nonce,
                permission: permission_from_json(
                    &a.access_key.permission,
                    &format!("{at}.AddKey.access_key.permission"),
                )?,
            },
        },
        N::DeleteKey(a) => Action::DeleteKey {
            public_key: a.public_key.clone(),
        },
        N::DeleteAccount(a) => Action::DeleteAccount {
            beneficiary_id: a.beneficiary_id.clone(),
        },
        N::DeployGlobalContract(a) => Action::DeployGlobalContract {
            code: unbase64(&a.code, &format!("{at}.DeployGlobalContract.code"))?,
            deploy_mode: match &a.deploy_mode {
                types::GlobalContractDeployMode::CodeHash => GlobalContractDeployMode::CodeHash,
                types::GlobalContractDeployMode::AccountId => GlobalContractDeployMode::AccountId,
                other => {
                    return Err(unsupported(
                        &format!("{at}.DeployGlobalContract.deploy_mode"),
                        other,
                    ))
                }
            },
        },
        N::UseGlobalContract(a) => Action::UseGlobalContract {
            contract_identifier: identifier_from_json(
                &a.contract_identifier,
                &format!("{at}.UseGlobalContract.contract_identifier"),
            )?,
        },
        N::DeterministicStateInit(a) => {
            let at = format!("{at}.DeterministicStateInit.state_init");
            match &a.state_init {
                types::DeterministicAccountStateInit::V1(v1) => Action::DeterministicStateInit {
                    state_init: DeterministicAccountStateInit::V1 {
                        code: identifier_from_json(&v1.code, &format!("{at}.V1.code"))?,
                        data: state_data(&v1.data, &format!("{at}.V1.data"))?,
                    },
                    deposit: a.deposit,
                },
                other => {
                    return Err(ViewError::Unsupported {
                        at,
                        what: variant_name(&serde_json::to_value(other).unwrap_or_default()),
                    })
                }
            }
        }
        N::TransferToGasKey(a) => Action::TransferToGasKey {
            public_key: a.public_key.clone(),
            deposit: a.deposit,
        },
        N::WithdrawFromGasKey(a) => Action::WithdrawFromGasKey {
            public_key: a.public_key.clone(),
            amount: a.amount,
        },
        #[cfg(feature = "nearcore_0_38_0")]
        N::UniversalStateInit(a) => Action::UniversalStateInit {
            state_init: unbase64(
                &a.state_init,
                &format!("{at}.UniversalStateInit.state_init"),
            )?,
            deposit: a.deposit,
        },
        other => return Err(unsupported(at, other)),
    };
    NonDelegateAction::try_from(action).map_err(|_| ViewError::NestedDelegate { at: at.to_owned() })
}

impl SignedTransaction {
    /// The signed transaction a view shows. Views leave out the block hash the
    /// transaction was signed against, so it is given here; the result is refused
    /// unless its hash is the view's `hash`, which checks both that block hash and the
    /// encoding against the node's.
    ///
    /// A view with `nonce_index` or `nonce_mode` is a version-1 transaction. One with
    /// neither may be either version (nodes leave out the default nonce mode): the
    /// version whose hash is the view's is taken.
    pub fn from_view(
        view: &SignedTransactionView,
        block_hash: CryptoHash,
    ) -> Result<Self, ViewError> {
        if view.signature.is_empty() {
            return Err(ViewError::EmptySignature);
        }
        let actions = view
            .actions
            .iter()
            .enumerate()
            .map(|(i, a)| action_from_view(a, &format!("actions[{i}]"), None))
            .collect::<Result<Vec<_>, _>>()?;
        let nonce_mode = match &view.nonce_mode {
            None | Some(types::NonceMode::Monotonic) => NonceMode::Monotonic,
            Some(types::NonceMode::Strict) => NonceMode::Strict,
            Some(other) => return Err(unsupported("nonce_mode", other)),
        };
        let v1 = Transaction::V1(TransactionV1 {
            signer_id: view.signer_id.clone(),
            public_key: view.public_key.clone(),
            nonce: match view.nonce_index {
                None => TransactionNonce::Nonce { nonce: view.nonce },
                Some(nonce_index) => TransactionNonce::GasKeyNonce {
                    nonce: view.nonce,
                    nonce_index,
                },
            },
            receiver_id: view.receiver_id.clone(),
            block_hash,
            actions: actions.clone(),
            nonce_mode,
        });
        let mut candidates = vec![v1];
        if view.nonce_index.is_none() && view.nonce_mode.is_none() {
            candidates.insert(
                0,
                Transaction::new(
                    view.signer_id.clone(),
                    view.public_key.clone(),
                    view.nonce,
                    view.receiver_id.clone(),
                    block_hash,
                    actions,
                ),
            );
        }
        let mut computed = view.hash;
        for transaction in candidates {
            let signed = SignedTransaction::new(transaction, view.signature.clone());
            if signed.hash() == view.hash {
                return Ok(signed);
            }
            if computed == view.hash {
                computed = signed.hash();
            }
        }
        Err(ViewError::HashMismatch {
            shown: view.hash,
            computed,
        })
    }
}
