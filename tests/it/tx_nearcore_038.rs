//! nearcore 0.38's two actions in the codec: `DelegateV2` (tag 14, a meta-transaction
//! whose nonce may be a gas key's) and `UniversalStateInit` (tag 15), with the
//! `nearcore_0_38_0` feature (`latest`); refused by name in every other build.
//!
//! No public suite has vectors for them: the layouts below are written out from
//! near-primitives 0.38's source (`core/primitives/src/action/mod.rs`, `Action` tags;
//! `action/delegate.rs`, `DelegateActionV2` and `VersionedDelegateActionPayload`;
//! `signable_message.rs`, the NEP-461 prefix `2^30 + 611`), so that a change is seen.
//! `tests/nearcore-readback` checks the same against nearcore's own crates.

#![cfg(feature = "tx")]

use near_rpc::tx::{Action, BorshErrorKind, SignedTransaction};

fn hex(text: &str) -> Vec<u8> {
    let text: String = text.split_whitespace().collect();
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

/// Without the feature, tags 14 and 15 are refused by their names and the feature that
/// reads them, wherever they are; a tag past nearcore's is still unknown.
#[cfg(not(feature = "nearcore_0_38_0"))]
#[test]
fn tx_without_latest_the_0_38_actions_are_refused_by_name() {
    use near_rpc::tx::{SecretKey, Transaction};
    use near_rpc::{CryptoHash, NearToken};

    for (tag, variant) in [(14u8, "DelegateV2"), (15, "UniversalStateInit")] {
        let err = Action::from_borsh(&[tag, 0, 0, 0, 0]).unwrap_err();
        assert_eq!(
            err.kind,
            BorshErrorKind::NeedsFeature {
                of: "Action",
                tag,
                variant,
                feature: "nearcore_0_38_0 (latest)"
            }
        );
        assert_eq!(
            err.to_string(),
            format!(
                "Action tag {tag} is {variant}, which needs the nearcore_0_38_0 (latest) \
                 feature (at byte 0)"
            )
        );
    }
    // In a transaction, at its place.
    let key: SecretKey = "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse().unwrap();
    let signed = Transaction::new(
        "alice.near".parse().unwrap(),
        key.public_key(),
        9,
        "bob.near".parse().unwrap(),
        CryptoHash::default(),
        vec![Action::transfer(NearToken::from_yoctonear(1))],
    )
    .sign(&key);
    let mut bytes = signed.to_borsh();
    let tag_at = 4 + 10 + 33 + 8 + 4 + 8 + 32 + 4;
    assert_eq!(bytes[tag_at], 3, "the transfer's tag");
    bytes[tag_at] = 15;
    let err = SignedTransaction::from_borsh(&bytes).unwrap_err();
    assert_eq!(err.path, "transaction.actions[0]");
    assert_eq!(err.offset, tag_at);
    assert!(err.to_string().contains("UniversalStateInit"), "{err}");
    // Inside a delegate action too (nearcore's DELEGATE_ACTION_HEX with its CreateAccount
    // replaced by tag 14).
    let mut nested = hex("08030000006161610300000062626201000000");
    nested.push(14);
    let err = Action::from_borsh(&nested).unwrap_err();
    assert_eq!(err.path, "Delegate.delegate_action.actions[0]");
    assert!(err.to_string().contains("DelegateV2"), "{err}");
    // Past nearcore 0.38's tags: unknown, as before.
    let err = Action::from_borsh(&[16]).unwrap_err();
    assert_eq!(
        err.kind,
        BorshErrorKind::UnknownTag {
            of: "Action",
            tag: 16
        }
    );
    // A node's view of one converts to no action, naming it.
    let view: near_rpc::types::ActionView = near_rpc::decode::from_value(serde_json::json!({
        "UniversalStateInit": {"deposit": "1", "state_init": "AQID"}
    }))
    .unwrap();
    let err = Action::try_from(&view).unwrap_err();
    assert_eq!(
        err,
        near_rpc::tx::ViewError::Unsupported {
            at: "action".into(),
            what: "UniversalStateInit".into()
        }
    );
}

#[cfg(feature = "nearcore_0_38_0")]
mod latest {
    use super::*;
    use near_rpc::tx::{
        DelegateAction, DelegateActionV2, NonDelegateAction, SecretKey, SignedDelegateActionV2,
        Transaction, TransactionNonce, TransactionV1, ViewError,
    };
    use near_rpc::types::{ActionView, SignedTransactionView};
    use near_rpc::{CryptoHash, NearToken, PublicKey, Signature};

    fn signer() -> SecretKey {
        "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse().unwrap()
    }

    /// nearcore's `DELEGATE_ACTION_HEX` fields (`aaa` to `bbb`, one `CreateAccount`, the
    /// empty ed25519 key), as a version-2 delegate action with `nonce`.
    fn aaa_to_bbb(nonce: TransactionNonce) -> DelegateActionV2 {
        DelegateActionV2 {
            sender_id: "aaa".parse().unwrap(),
            receiver_id: "bbb".parse().unwrap(),
            actions: vec![NonDelegateAction::try_from(Action::CreateAccount).unwrap()],
            nonce,
            max_block_height: 2,
            public_key: PublicKey::ed25519([0; 32]),
        }
    }

    fn universal(state_init: &[u8], deposit: u128) -> Action {
        Action::UniversalStateInit {
            state_init: state_init.to_vec(),
            deposit: NearToken::from_yoctonear(deposit),
        }
    }

    /// A signed version-2 delegate action over a gas key's nonce, holding a transfer and a
    /// universal state init.
    fn gas_key_delegate() -> SignedDelegateActionV2 {
        let key = signer();
        DelegateActionV2 {
            sender_id: "alice.near".parse().unwrap(),
            receiver_id: "app.near".parse().unwrap(),
            actions: [
                Action::transfer(NearToken::from_near(1)),
                universal(&[0, 1, 2, 3], 5),
            ]
            .into_iter()
            .map(|a| NonDelegateAction::try_from(a).unwrap())
            .collect(),
            nonce: TransactionNonce::GasKeyNonce {
                nonce: 41,
                nonce_index: 3,
            },
            max_block_height: 1_000,
            public_key: key.public_key(),
        }
        .sign(&key)
    }

    #[test]
    fn tx_layouts_of_the_0_38_actions() {
        let zeros = |n: usize| "00".repeat(n);
        // Tag 14, the payload's version tag (V2 = 0), then DelegateActionV2's fields in
        // order; the nonce is a TransactionNonce (tag 1: nonce, u16 index).
        let gas_key = Action::DelegateV2(Box::new(SignedDelegateActionV2 {
            delegate_action: aaa_to_bbb(TransactionNonce::GasKeyNonce {
                nonce: 1,
                nonce_index: 3,
            }),
            signature: Signature::ed25519([0; 64]),
        }));
        let expected = format!(
            "0e 00 03000000616161 03000000626262 0100000000 \
             01 0100000000000000 0300 0200000000000000 00{} 00{}",
            zeros(32),
            zeros(64)
        );
        assert_eq!(gas_key.to_borsh(), hex(&expected));
        assert_eq!(Action::from_borsh(&hex(&expected)).unwrap(), gas_key);
        // An access key's nonce: tag 0 and the nonce alone.
        let access_key = Action::DelegateV2(Box::new(SignedDelegateActionV2 {
            delegate_action: aaa_to_bbb(TransactionNonce::Nonce { nonce: 1 }),
            signature: Signature::ed25519([0; 64]),
        }));
        let expected = format!(
            "0e 00 03000000616161 03000000626262 0100000000 \
             00 0100000000000000 0200000000000000 00{} 00{}",
            zeros(32),
            zeros(64)
        );
        assert_eq!(access_key.to_borsh(), hex(&expected));
        // Tag 15: the RawStateInit's bytes length-prefixed, then the deposit.
        let state_init = universal(&[1, 2, 3], 123);
        let expected = "0f 03000000010203 7b000000000000000000000000000000";
        assert_eq!(state_init.to_borsh(), hex(expected));
        assert_eq!(Action::from_borsh(&hex(expected)).unwrap(), state_init);
        assert_eq!(gas_key.name(), "DelegateV2");
        assert_eq!(state_init.name(), "UniversalStateInit");
        assert!(gas_key.is_delegate() && !state_init.is_delegate());
    }

    /// What a version-2 delegate action's sender signs: sha256 of the NEP-461 prefix
    /// `2^30 + 611` (little-endian) and the payload's bytes, version tag included. Neither
    /// version's signature verifies for the other, nor for another nonce index.
    #[test]
    fn tx_delegate_v2_hash_sign_and_verify() {
        let key = signer();
        let signed = gas_key_delegate();
        let payload = &signed.delegate_action;
        assert_eq!(
            payload.signable_hash(),
            CryptoHash::hash_bytes(&[hex("63020040"), payload.to_borsh()].concat())
        );
        assert_eq!(payload.to_borsh()[0], 0, "the V2 payload tag");
        assert!(signed.verify());
        assert_eq!(
            signed.signature,
            key.sign(&payload.signable_hash().0),
            "ed25519 is deterministic"
        );
        // Bound to the nonce index.
        let mut other_index = signed.clone();
        other_index.delegate_action.nonce = TransactionNonce::GasKeyNonce {
            nonce: 41,
            nonce_index: 4,
        };
        assert!(!other_index.verify());
        // Another key's signature does not verify.
        let stranger = SecretKey::ed25519_from_seed(&[5; 32]);
        let forged = SignedDelegateActionV2 {
            signature: stranger.sign(&payload.signable_hash().0),
            ..signed.clone()
        };
        assert!(!forged.verify());
        // The V1 domain (2^30 + 366) over the same bytes does not verify as V2, and the
        // V1 delegate action of the same fields has another hash.
        let v1_domain = CryptoHash::hash_bytes(&[hex("6e010040"), payload.to_borsh()].concat());
        let forged = SignedDelegateActionV2 {
            signature: key.sign(&v1_domain.0),
            ..signed.clone()
        };
        assert!(!forged.verify());
        let v1 = DelegateAction {
            sender_id: payload.sender_id.clone(),
            receiver_id: payload.receiver_id.clone(),
            actions: payload.actions.clone(),
            nonce: 41,
            max_block_height: payload.max_block_height,
            public_key: payload.public_key.clone(),
        };
        assert_ne!(v1.signable_hash(), payload.signable_hash());
        let v1_signed = v1.sign(&key);
        let forged = SignedDelegateActionV2 {
            signature: v1_signed.signature,
            ..signed.clone()
        };
        assert!(!forged.verify());
        // The text a relayer receives reads back; truncated or extended, it is refused.
        assert_eq!(
            SignedDelegateActionV2::from_base64(&signed.to_base64()).unwrap(),
            signed
        );
        let bytes = signed.to_borsh();
        for end in 0..bytes.len() {
            assert!(SignedDelegateActionV2::from_borsh(&bytes[..end]).is_err());
        }
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(
            SignedDelegateActionV2::from_borsh(&long).unwrap_err().kind,
            BorshErrorKind::TrailingBytes { count: 1 }
        );
    }

    /// A payload version nearcore 0.38 does not have, and delegate actions nested either
    /// way, are refused with where.
    #[test]
    fn tx_delegate_v2_refusals() {
        let signed = gas_key_delegate();
        let mut bytes = Action::DelegateV2(Box::new(signed.clone())).to_borsh();
        bytes[1] = 1;
        let err = Action::from_borsh(&bytes).unwrap_err();
        assert_eq!(
            err.kind,
            BorshErrorKind::UnknownTag {
                of: "VersionedDelegateActionPayload",
                tag: 1
            }
        );
        assert_eq!(err.path, "DelegateV2.delegate_action");
        assert_eq!(err.offset, 1);
        // Nesting: a delegate action of either version in one of either version.
        let v2_signed = Action::DelegateV2(Box::new(signed.clone()));
        let v1_signed = Action::Delegate(Box::new(
            DelegateAction {
                sender_id: "aaa".parse().unwrap(),
                receiver_id: "bbb".parse().unwrap(),
                actions: vec![],
                nonce: 1,
                max_block_height: 2,
                public_key: signer().public_key(),
            }
            .sign(&signer()),
        ));
        for inner in [&v1_signed, &v2_signed] {
            assert!(NonDelegateAction::try_from(inner.clone()).is_err());
        }
        // The bytes, made by hand: nearcore's DELEGATE_ACTION_HEX start with one action,
        // and its version-2 counterpart.
        for (outer, path) in [
            (
                "08030000006161610300000062626201000000",
                "Delegate.delegate_action",
            ),
            (
                "0e00030000006161610300000062626201000000",
                "DelegateV2.delegate_action.V2",
            ),
        ] {
            for inner in [&v1_signed, &v2_signed] {
                let bytes = [hex(outer), inner.to_borsh()].concat();
                let err = Action::from_borsh(&bytes).unwrap_err();
                assert_eq!(
                    err.kind,
                    BorshErrorKind::Invalid(
                        "a delegate action cannot contain another delegate action".into()
                    )
                );
                assert_eq!(err.path, format!("{path}.actions[0]"));
                assert_eq!(err.offset, hex(outer).len());
            }
        }
        // Nested 100 000 deep: refused at the second, on a small stack.
        let err =
            crate::tx_codec::nested_100_000_deep(&hex("0e00030000006161610300000062626201000000"));
        assert!(err.to_string().contains("cannot contain another"), "{err}");
    }

    /// A version-2 delegate action whose ed25519 signature nearcore cannot read is refused
    /// before signing (`check_actions`), naming it, and so is its view.
    #[test]
    fn tx_delegate_v2_unreadable_signature() {
        let key = signer();
        let mut signed = gas_key_delegate();
        let mut bytes = [7u8; 64];
        bytes[63] = 0b1000_0000;
        signed.signature = Signature::ed25519(bytes);
        let actions = vec![Action::CreateAccount, Action::DelegateV2(Box::new(signed))];
        assert_eq!(
            near_rpc::tx::check_actions(&actions),
            Err(near_rpc::tx::UnreadableAction {
                index: 1,
                name: "DelegateV2"
            })
        );
        let transaction = Transaction::new(
            "relayer.near".parse().unwrap(),
            key.public_key(),
            9,
            "alice.near".parse().unwrap(),
            CryptoHash::default(),
            actions.clone(),
        );
        let err = transaction.try_sign(&key).unwrap_err();
        assert!(
            err.to_string().starts_with("action 1 (DelegateV2): "),
            "{err}"
        );
        let view = ActionView::from(&actions[1]);
        assert_eq!(
            Action::try_from(&view).unwrap_err(),
            ViewError::UnreadableSignature {
                at: "action.DelegateV2.signature".into()
            }
        );
        // A readable one passes.
        let fine = vec![Action::DelegateV2(Box::new(gas_key_delegate()))];
        assert_eq!(near_rpc::tx::check_actions(&fine), Ok(()));
    }

    /// The views show them as nearcore's `ActionView` does (the payload under `"V2"`, the
    /// nonce as `{"GasKeyNonce": ..}`, the state init in base64), read back from that JSON
    /// to the same action, and refuse what does not convert, naming where.
    #[test]
    fn tx_views_of_the_0_38_actions() {
        let delegate = Action::DelegateV2(Box::new(gas_key_delegate()));
        let view = ActionView::from(&delegate);
        let json = serde_json::to_value(&view).unwrap();
        let payload = &json["DelegateV2"]["delegate_action"]["V2"];
        assert_eq!(
            payload["nonce"],
            serde_json::json!({"GasKeyNonce": {"nonce": 41, "nonce_index": 3}}),
            "{json}"
        );
        assert_eq!(payload["sender_id"], "alice.near");
        assert_eq!(
            payload["actions"][1],
            serde_json::json!({"UniversalStateInit": {"deposit": "5", "state_init": "AAECAw=="}})
        );
        let decoded: ActionView = near_rpc::decode::from_value(json.clone()).unwrap();
        assert_eq!(decoded, view);
        assert_eq!(Action::try_from(&decoded).unwrap(), delegate);
        let access_key = Action::DelegateV2(Box::new(
            aaa_to_bbb(TransactionNonce::Nonce { nonce: 7 }).sign(&signer()),
        ));
        let json = serde_json::to_value(ActionView::from(&access_key)).unwrap();
        assert_eq!(
            json["DelegateV2"]["delegate_action"]["V2"]["nonce"],
            serde_json::json!({"Nonce": {"nonce": 7}})
        );
        let decoded: ActionView = near_rpc::decode::from_value(json).unwrap();
        assert_eq!(Action::try_from(&decoded).unwrap(), access_key);

        let state_init = universal(&[1, 2, 3], 123);
        let json = serde_json::to_value(ActionView::from(&state_init)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"UniversalStateInit": {"deposit": "123", "state_init": "AQID"}})
        );
        let decoded: ActionView = near_rpc::decode::from_value(json).unwrap();
        assert_eq!(Action::try_from(&decoded).unwrap(), state_init);

        // Not base64, at the top and inside a delegate action.
        let bad: ActionView = near_rpc::decode::from_value(serde_json::json!({
            "UniversalStateInit": {"deposit": "1", "state_init": "not base64!"}
        }))
        .unwrap();
        assert!(matches!(
            Action::try_from(&bad),
            Err(ViewError::Base64 { at, .. }) if at == "action.UniversalStateInit.state_init"
        ));
        let mut json = serde_json::to_value(ActionView::from(&delegate)).unwrap();
        json["DelegateV2"]["delegate_action"]["V2"]["actions"][1]["UniversalStateInit"]
            ["state_init"] = "%%".into();
        let bad: ActionView = near_rpc::decode::from_value(json).unwrap();
        assert!(matches!(
            Action::try_from(&bad),
            Err(ViewError::Base64 { at, .. })
                if at == "action.DelegateV2.delegate_action.V2.actions[1].UniversalStateInit.state_init"
        ));
        // A payload version these bindings do not know.
        let mut json = serde_json::to_value(ActionView::from(&delegate)).unwrap();
        let v2 = json["DelegateV2"]["delegate_action"]["V2"].take();
        json["DelegateV2"]["delegate_action"] = serde_json::json!({ "V3": v2 });
        let unknown: ActionView = near_rpc::decode::from_value(json).unwrap();
        assert_eq!(
            Action::try_from(&unknown).unwrap_err(),
            ViewError::Unsupported {
                at: "action.DelegateV2.delegate_action".into(),
                what: "V3".into()
            }
        );
    }

    /// Both in a signed transaction of each version: the bytes read back, and the view a
    /// node would show reads back to the same signed transaction (its hash checked).
    #[test]
    fn tx_transactions_holding_the_0_38_actions() {
        let key = signer();
        let actions = vec![
            Action::DelegateV2(Box::new(gas_key_delegate())),
            universal(b"\x00state", u128::MAX),
        ];
        let v0 = Transaction::new(
            "relayer.near".parse().unwrap(),
            key.public_key(),
            9,
            "alice.near".parse().unwrap(),
            CryptoHash([3; 32]),
            actions.clone(),
        );
        let v1 = Transaction::V1(TransactionV1 {
            signer_id: "relayer.near".parse().unwrap(),
            public_key: key.public_key(),
            nonce: TransactionNonce::GasKeyNonce {
                nonce: 9,
                nonce_index: 65_535,
            },
            receiver_id: "alice.near".parse().unwrap(),
            block_hash: CryptoHash([3; 32]),
            actions,
            nonce_mode: near_rpc::tx::NonceMode::Strict,
        });
        for transaction in [v0, v1] {
            let signed = transaction.try_sign(&key).unwrap();
            assert!(signed.verify());
            assert_eq!(
                SignedTransaction::from_borsh(&signed.to_borsh()).unwrap(),
                signed
            );
            let view = SignedTransactionView::from(&signed);
            let json = serde_json::to_value(&view).unwrap();
            let view: SignedTransactionView = near_rpc::decode::from_value(json).unwrap();
            assert_eq!(
                SignedTransaction::from_view(&view, CryptoHash([3; 32])).unwrap(),
                signed
            );
        }
    }
}
