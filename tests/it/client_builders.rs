//! The signer-configured client (`Client::with_signer`) and its builders (transfers,
//! calls, multi-action transactions) and NEP-366 meta-transactions (a delegate action
//! signed by the user, relayed by a relayer), against the mock node, which executes
//! them: what each builds, that each ends in the write path (its wait level, its
//! resolution by hash after a lost answer), and that bad input is named before anything
//! is sent. Time is tokio's paused clock: no test sleeps.

#![cfg(feature = "client")]

use std::time::Duration;

use near_rpc::client::{SendErrorKind, SigningClient, DEFAULT_CALL_GAS, DEFAULT_DELEGATE_BLOCKS};
use near_rpc::tx::{AccessKey, Action, SignedDelegateAction, SignedTransaction};
use near_rpc::types::TxExecutionStatus;
use near_rpc::{Finality, NearGas, NearToken};
use near_rpc_mock::{Fault, FaultRule, MockNode};
use serde_json::json;

/// A mock node producing blocks without waiting, and a client of it signing as
/// `account`.
fn node_and(account: &str) -> (MockNode, SigningClient) {
    let node = MockNode::new();
    node.set_block_time(Duration::ZERO);
    let signer = node.signer(account).expect("the mock's account");
    let client = node.client().waiting_until(TxExecutionStatus::Final);
    (node, client.with_signer(signer))
}

/// The transactions the node was sent (`send_tx`), decoded.
fn sent(node: &MockNode) -> Vec<SignedTransaction> {
    node.requests_for("send_tx")
        .iter()
        .map(|r| {
            let base64 = r.params()["signed_tx_base64"].as_str().unwrap().to_owned();
            SignedTransaction::from_base64(&base64).expect("a signed transaction")
        })
        .collect()
}

fn balance(node: &MockNode, account: &str) -> u128 {
    node.with_chain(|chain| chain.account(account).expect("the account").amount)
}

fn key_nonce(node: &MockNode, signing: &SigningClient) -> u64 {
    let public_key = signing.signer().public_key().clone();
    node.with_chain(|chain| {
        chain
            .account(signing.account_id().as_str())
            .and_then(|account| account.key(&public_key))
            .expect("the signer's key")
            .nonce
    })
}

const ONE_NEAR: u128 = 10u128.pow(24);

#[tokio::test(start_paused = true)]
async fn with_signer_transfers_with_the_account_id_as_text_or_account_id() {
    let (node, alice) = node_and("alice.mock");
    let bob_before = balance(&node, "bob.mock");
    let outcome = alice
        .transfer("bob.mock", NearToken::from_near(1))
        .await
        .unwrap();
    assert!(!outcome.is_failure());
    let bob: near_rpc::AccountId = "bob.mock".parse().unwrap();
    alice.transfer(&bob, NearToken::from_near(2)).await.unwrap();
    assert_eq!(balance(&node, "bob.mock"), bob_before + 3 * ONE_NEAR);
    // Both through the write path: signed by alice's key, consecutive nonces, each
    // one transfer to bob.
    let sent = sent(&node);
    assert_eq!(sent.len(), 2);
    for (signed, near) in sent.iter().zip([1, 2]) {
        let tx = signed.transaction();
        assert_eq!(tx.signer_id(), alice.account_id());
        assert_eq!(tx.public_key(), alice.signer().public_key());
        assert_eq!(tx.receiver_id(), &bob);
        assert_eq!(tx.actions(), [Action::transfer(NearToken::from_near(near))]);
    }
    assert_eq!(
        sent[1].transaction().nonce(),
        sent[0].transaction().nonce() + 1
    );
    // Debug shows the account and public key, never the secret key.
    let secret = near_rpc_mock::chain::secret_key("alice.mock").to_secret_string();
    let shown = format!("{alice:?}");
    assert!(
        shown.contains("alice.mock") && !shown.contains(secret.as_str()),
        "{shown}"
    );
    // The reads are the client's.
    let account = alice.view_account("bob.mock").await.unwrap();
    assert_eq!(account.amount.as_yoctonear(), bob_before + 3 * ONE_NEAR);
}

#[tokio::test(start_paused = true)]
async fn the_call_builder_sets_args_gas_and_deposit_and_the_wait_level() {
    let (node, alice) = node_and("alice.mock");
    let outcome = alice
        .call("contract.mock", "set_status")
        .args(json!({ "message": "built" }))
        .gas(NearGas::from_tgas(30))
        .deposit(NearToken::from_yoctonear(7))
        .wait_until(TxExecutionStatus::ExecutedOptimistic)
        .await
        .unwrap();
    assert!(!outcome.is_failure(), "{outcome:?}");
    let status = alice
        .call_function(
            "contract.mock",
            "get_status",
            json!({ "account_id": "alice.mock" }),
        )
        .await
        .unwrap();
    assert_eq!(
        status.json::<Option<String>>().unwrap().as_deref(),
        Some("built")
    );
    let sent = sent(&node);
    let [Action::FunctionCall(call)] = sent[0].transaction().actions() else {
        panic!("one function call: {:?}", sent[0].transaction().actions());
    };
    assert_eq!(call.method_name, "set_status");
    assert_eq!(call.args, br#"{"message":"built"}"#);
    assert_eq!(call.gas, NearGas::from_tgas(30));
    assert_eq!(call.deposit, NearToken::from_yoctonear(7));
    // The builder's level, not the client's (FINAL).
    let asked = &node.requests_for("send_tx")[0].params()["wait_until"];
    assert_eq!(asked, "EXECUTED_OPTIMISTIC");
    // Defaults, and bytes sent as they are.
    alice
        .call("contract.mock", "set_status")
        .args_raw(br#"{"message":"raw"}"#.to_vec())
        .await
        .unwrap();
    let sent = self::sent(&node);
    let [Action::FunctionCall(call)] = sent[1].transaction().actions() else {
        panic!("one function call");
    };
    assert_eq!(call.args, br#"{"message":"raw"}"#);
    assert_eq!(
        (call.gas, call.deposit.as_yoctonear()),
        (DEFAULT_CALL_GAS, 0)
    );
    assert_eq!(
        node.requests_for("send_tx")[1].params()["wait_until"],
        "FINAL"
    );
}

#[tokio::test(start_paused = true)]
async fn a_multi_action_transaction_creates_a_funded_account_with_a_key() {
    let (node, alice) = node_and("alice.mock");
    let new_key = near_rpc_mock::chain::secret_key("sub.alice.mock").public_key();
    let app_key = near_rpc_mock::chain::secret_key("app").public_key();
    let outcome = alice
        .transaction("sub.alice.mock")
        .create_account()
        .transfer(NearToken::from_near(5))
        .add_full_access_key(&new_key)
        .add_key(
            app_key.to_string(),
            AccessKey::function_call("contract.mock", vec!["set_status".into()], None),
        )
        .await
        .unwrap();
    assert!(!outcome.is_failure(), "{outcome:?}");
    assert_eq!(balance(&node, "sub.alice.mock"), 5 * ONE_NEAR);
    let keys = alice.view_access_key_list("sub.alice.mock").await.unwrap();
    let mut listed: Vec<String> = keys.keys.iter().map(|k| k.public_key.to_string()).collect();
    listed.sort();
    let mut expected = vec![new_key.to_string(), app_key.to_string()];
    expected.sort();
    assert_eq!(listed, expected);
    let sent = sent(&node);
    let names: Vec<&str> = sent[0]
        .transaction()
        .actions()
        .iter()
        .map(Action::name)
        .collect();
    assert_eq!(names, ["CreateAccount", "Transfer", "AddKey", "AddKey"]);
    // The new account signs with the key just added.
    let sub = alice.client().with_signer(near_rpc::Signer::new(
        "sub.alice.mock".parse().unwrap(),
        near_rpc_mock::chain::secret_key("sub.alice.mock"),
    ));
    sub.transaction("sub.alice.mock")
        .delete_account("alice.mock")
        .await
        .unwrap();
    assert!(node.with_chain(|chain| chain.account("sub.alice.mock").is_none()));
}

#[tokio::test(start_paused = true)]
async fn bad_input_is_named_and_nothing_is_read_or_sent() {
    let (node, alice) = node_and("alice.mock");
    let before = node.requests().len();
    let usage = |e: near_rpc::client::SendError| match e.kind() {
        SendErrorKind::Usage { message } => message.clone(),
        other => panic!("not a usage error: {other:?}"),
    };
    let e = alice
        .transfer("Bob Near", NearToken::from_near(1))
        .await
        .unwrap_err();
    assert!(
        usage(e).starts_with("the receiver `Bob Near` is not valid"),
        "receiver"
    );
    let e = alice
        .transaction("bob.mock")
        .transfer(NearToken::from_near(1))
        .add_full_access_key("bob.mock")
        .delete_key("also not a key")
        .await
        .unwrap_err();
    let message = usage(e);
    // The first bad input, with the action it was for.
    assert!(
        message.starts_with("action 1: the public key `bob.mock` is not valid"),
        "{message}"
    );
    let e = alice.transaction("bob.mock").await.unwrap_err();
    assert_eq!(usage(e), "the transaction to bob.mock has no actions");
    // Arguments that cannot be JSON (a map with keys that are not strings).
    let args: std::collections::BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into();
    let e = alice
        .call("contract.mock", "set_status")
        .args(args)
        .await
        .unwrap_err();
    let message = usage(e);
    assert!(
        message.starts_with("the call of set_status: the args cannot be written as JSON"),
        "{message}"
    );
    assert_eq!(node.requests().len(), before, "nothing was read or sent");
    assert!(sent(&node).is_empty());
}

/// NEP-366 end to end: alice signs a delegate transfer to bob, hands it over as base64,
/// the relayer relays it; bob's balance rises by the amount, alice's does not move (the
/// relayer paid the gas, and the deposit), and alice's key took the delegate's nonce.
#[tokio::test(start_paused = true)]
async fn a_relayed_delegate_transfer_costs_the_sender_no_gas() {
    let (node, alice) = node_and("alice.mock");
    let relayer = alice
        .client()
        .with_signer(node.signer("validator.mock").unwrap());
    let (alice_before, bob_before, relayer_before) = (
        balance(&node, "alice.mock"),
        balance(&node, "bob.mock"),
        balance(&node, "validator.mock"),
    );
    let alice_nonce = key_nonce(&node, &alice);
    let final_before = alice.block(Finality::Final).await.unwrap().header.height;

    let signed = alice
        .transfer("bob.mock", NearToken::from_near(2))
        .delegate()
        .await
        .unwrap();
    let for_relayer = signed.to_base64();
    assert!(
        sent(&node).is_empty(),
        "signing a delegate action sends nothing"
    );
    let delegate = &signed.delegate_action;
    assert_eq!(delegate.sender_id, "alice.mock");
    assert_eq!(delegate.receiver_id, "bob.mock");
    assert_eq!(delegate.nonce, alice_nonce + 1);
    assert_eq!(&delegate.public_key, alice.signer().public_key());
    // The final head's height when it was signed, plus the default margin.
    let head = node.with_chain(|chain| chain.head());
    let counted_from = delegate.max_block_height - DEFAULT_DELEGATE_BLOCKS;
    assert!(
        (final_before..=head).contains(&counted_from),
        "max_block_height {} is not a final height in {final_before}..={head} + \
         {DEFAULT_DELEGATE_BLOCKS}",
        delegate.max_block_height
    );
    assert!(signed.verify());

    let received = SignedDelegateAction::from_base64(&for_relayer).unwrap();
    assert_eq!(received, signed);
    let outcome = relayer.relay(received).await.unwrap();
    assert!(!outcome.is_failure(), "{outcome:?}");

    let sent = sent(&node);
    assert_eq!(sent.len(), 1);
    let tx = sent[0].transaction();
    assert_eq!(tx.signer_id(), "validator.mock");
    assert_eq!(tx.receiver_id(), "alice.mock", "to the delegate's sender");
    assert_eq!(tx.actions(), [Action::Delegate(Box::new(signed.clone()))]);

    assert_eq!(balance(&node, "bob.mock"), bob_before + 2 * ONE_NEAR);
    // nearcore charges the relayer the deposits of the delegated actions too
    // (runtime/src/config.rs, `total_deposit` counts a delegate action's): alice's
    // balance does not move at all.
    assert_eq!(
        balance(&node, "alice.mock"),
        alice_before,
        "alice paid no gas (and the relayer the deposit)"
    );
    assert!(
        balance(&node, "validator.mock") < relayer_before - 2 * ONE_NEAR,
        "the relayer paid the deposit and the gas"
    );
    assert_eq!(key_nonce(&node, &alice), alice_nonce + 1);
}

/// The delegate action's nonce is counted with the signer's own count: two signed in a
/// row, then a transaction, get consecutive nonces; the margin is the caller's.
#[tokio::test(start_paused = true)]
async fn delegate_nonces_are_counted_with_the_signers_transactions() {
    let (node, alice) = node_and("alice.mock");
    let key = key_nonce(&node, &alice);
    let final_before = alice.block(Finality::Final).await.unwrap().header.height;
    let first = alice
        .call("contract.mock", "set_status")
        .args(json!({ "message": "relayed" }))
        .into_transaction()
        .delegate()
        .valid_for_blocks(5)
        .await
        .unwrap();
    let second = alice
        .transfer("bob.mock", NearToken::from_yoctonear(1))
        .delegate()
        .await
        .unwrap();
    assert_eq!(first.delegate_action.nonce, key + 1);
    assert_eq!(second.delegate_action.nonce, key + 2);
    // The caller's margin, and the default, over the final head.
    let head = node.with_chain(|chain| chain.head());
    let heights = final_before..=head;
    assert!(heights.contains(&(first.delegate_action.max_block_height - 5)));
    assert!(heights.contains(&(second.delegate_action.max_block_height - DEFAULT_DELEGATE_BLOCKS)));
    alice
        .transfer("bob.mock", NearToken::from_yoctonear(1))
        .await
        .unwrap();
    assert_eq!(sent(&node)[0].transaction().nonce(), key + 3);
    // The first, relayed after the key moved past it, is refused on chain.
    let relayer = alice.client().with_signer(node.signer("bob.mock").unwrap());
    let outcome = relayer.relay(first).await.unwrap();
    assert!(outcome.is_failure(), "a spent nonce: {outcome:?}");
}

#[tokio::test(start_paused = true)]
async fn delegate_and_relay_refuse_what_a_node_would_and_name_it() {
    let (node, alice) = node_and("alice.mock");
    let inner = alice
        .transfer("bob.mock", NearToken::from_yoctonear(1))
        .delegate()
        .await
        .unwrap();
    let before = node.requests().len();
    // A delegate action inside one.
    let e = alice
        .transaction("bob.mock")
        .transfer(NearToken::from_yoctonear(1))
        .action(Action::Delegate(Box::new(inner.clone())))
        .delegate()
        .await
        .unwrap_err();
    assert!(
        matches!(e.kind(), SendErrorKind::Usage { message } if message.starts_with("action 1: ")),
        "{e}"
    );
    // A delegate action whose signature is not its key's: the relayer sends nothing.
    let mut tampered = inner;
    tampered.delegate_action.receiver_id = "validator.mock".parse().unwrap();
    let relayer = alice.client().with_signer(node.signer("bob.mock").unwrap());
    let e = relayer.relay(tampered).await.unwrap_err();
    assert!(
        matches!(e.kind(), SendErrorKind::Usage { message }
            if message.starts_with("the delegate action of alice.mock is not signed by its key")),
        "{e}"
    );
    assert_eq!(node.requests().len(), before);
    // A key that cannot be read: nothing is signed, and the error says which read.
    node.inject(
        FaultRule::new(Fault::HtmlPage { status: 404 })
            .for_method("query")
            .times(1),
    );
    let e = alice
        .transfer("bob.mock", NearToken::from_yoctonear(1))
        .delegate()
        .await
        .unwrap_err();
    assert!(matches!(e.kind(), SendErrorKind::AccessKey(_)), "{e}");
    assert!(e.transactions().is_empty());
    // A margin past the largest height.
    let e = alice
        .transfer("bob.mock", NearToken::from_yoctonear(1))
        .delegate()
        .valid_for_blocks(u64::MAX)
        .await
        .unwrap_err();
    assert!(
        matches!(e.kind(), SendErrorKind::Usage { message } if message.contains("past the largest height")),
        "{e}"
    );
}

/// A relay whose answer is lost is resolved by its hash, as every write: the same bytes,
/// never a second transaction, and the transfer executes once.
#[tokio::test(start_paused = true)]
async fn a_relay_whose_answer_is_lost_is_resolved_by_hash_not_signed_again() {
    let (node, alice) = node_and("alice.mock");
    let relayer = alice
        .client()
        .with_signer(node.signer("validator.mock").unwrap());
    let bob_before = balance(&node, "bob.mock");
    let signed = alice
        .transfer("bob.mock", NearToken::from_near(1))
        .delegate()
        .await
        .unwrap();
    node.inject(
        FaultRule::new(Fault::DropConnection)
            .for_method("send_tx")
            .times(1),
    );
    let outcome = relayer.relay(signed).await.unwrap();
    assert!(!outcome.is_failure());
    let sent = sent(&node);
    assert!(!sent.is_empty());
    assert!(
        sent.iter().all(|s| s.hash() == sent[0].hash()),
        "only the same bytes are re-sent"
    );
    let outcome_id = outcome.outcome.as_ref().map(|o| o.transaction_outcome().id);
    assert_eq!(outcome_id, Some(sent[0].hash()));
    assert!(!node.requests_for("EXPERIMENTAL_tx_status").is_empty());
    assert_eq!(balance(&node, "bob.mock"), bob_before + ONE_NEAR);
}

#[tokio::test(start_paused = true)]
async fn a_prepared_builder_is_signed_not_sent_and_sends_later() {
    let (node, alice) = node_and("alice.mock");
    let signed = alice
        .transfer("bob.mock", NearToken::from_near(1))
        .prepare()
        .await
        .unwrap();
    assert!(sent(&node).is_empty());
    let outcome = alice.send_signed(&signed).await.unwrap();
    assert!(!outcome.is_failure());
    assert_eq!(sent(&node), [signed]);
}

#[tokio::test(start_paused = true)]
async fn view_json_reads_a_return_value_into_a_type_and_names_a_mismatch() {
    let (_node, alice) = node_and("alice.mock");
    let args = json!({ "account_id": "bob.mock" });
    let status: Option<String> = alice
        .view_json("contract.mock", "get_status", &args)
        .await
        .unwrap();
    assert_eq!(status.as_deref(), Some("hello from bob"));
    let e = alice
        .view_json::<u64>("contract.mock", "get_status", &args)
        .await
        .unwrap_err();
    assert!(
        matches!(
            e.kind(),
            near_rpc::client::ErrorKind::UnexpectedAnswer { .. }
        ),
        "{e}"
    );
    let shown = e.to_string();
    assert!(
        shown.contains("the return value of get_status on contract.mock (at block "),
        "{shown}"
    );
    let e = alice
        .view_json::<u64>("Contract Mock", "get_status", &args)
        .await
        .unwrap_err();
    assert!(e.is_usage(), "{e}");
    assert!(
        e.to_string()
            .contains("the contract account id `Contract Mock`"),
        "{e}"
    );
}

/// On a scripted node: the delegate action's nonce is the key's nonce (read at the final
/// block) + 1 and its `max_block_height` that read's height + the margin, and signing
/// sends nothing but that one read.
#[tokio::test(start_paused = true)]
async fn a_delegate_action_takes_the_keys_nonce_and_the_final_heads_height() {
    use near_rpc::client::transport::{MockReply, MockTransport};

    let block_hash = near_rpc::CryptoHash::hash_bytes(b"block 5000");
    let key = json!({"jsonrpc": "2.0", "id": "1", "result": {
        "nonce": 41, "permission": "FullAccess", "block_height": 5000,
        "block_hash": block_hash.to_string()
    }});
    let node = MockTransport::new("scripted", [MockReply::json(key.to_string())]);
    let signer = near_rpc::Signer::new(
        "alice.near".parse().unwrap(),
        near_rpc_mock::chain::secret_key("alice.near"),
    );
    let alice = near_rpc::Client::with_transport(node.clone()).with_signer(signer);
    let signed = alice
        .transaction("bob.near")
        .transfer(NearToken::from_near(1))
        .call("ping", ())
        .delegate()
        .valid_for_blocks(30)
        .await
        .unwrap();
    let delegate = &signed.delegate_action;
    assert_eq!((delegate.nonce, delegate.max_block_height), (42, 5030));
    assert_eq!(delegate.sender_id, "alice.near");
    assert_eq!(delegate.receiver_id, "bob.near");
    let actions: Vec<&str> = delegate.actions.iter().map(|a| a.action().name()).collect();
    assert_eq!(actions, ["Transfer", "FunctionCall"]);
    assert!(signed.verify());
    let requests = node.requests();
    assert_eq!(requests.len(), 1, "one key read, nothing sent");
    let params: serde_json::Value = serde_json::from_slice(&requests[0].body).unwrap();
    assert_eq!(params["method"], "query");
    assert_eq!(params["params"]["request_type"], "view_access_key");
    assert_eq!(params["params"]["finality"], "final");
    assert_eq!(params["params"]["account_id"], "alice.near");
}

/// A delegate action whose `max_block_height` is below the head the relayer reads is
/// refused before the relayer signs anything, naming both heights; one valid up to the
/// head itself goes on to be signed and sent.
#[tokio::test(start_paused = true)]
async fn relay_refuses_an_expired_delegate_action_before_signing() {
    use near_rpc::client::transport::{MockReply, MockTransport, TransportErrorKind};
    use near_rpc::tx::DelegateAction;

    let key = |height: u64| {
        let block_hash = near_rpc::CryptoHash::hash_bytes(format!("block {height}").as_bytes());
        MockReply::json(
            json!({"jsonrpc": "2.0", "id": "1", "result": {
                "nonce": 7, "permission": "FullAccess", "block_height": height,
                "block_hash": block_hash.to_string()
            }})
            .to_string(),
        )
    };
    let delegate = |max_block_height: u64| {
        let secret = near_rpc_mock::chain::secret_key("alice.near");
        DelegateAction {
            sender_id: "alice.near".parse().unwrap(),
            receiver_id: "bob.near".parse().unwrap(),
            actions: vec![Action::transfer(NearToken::from_near(1))
                .try_into()
                .unwrap()],
            nonce: 3,
            max_block_height,
            public_key: secret.public_key(),
        }
        .sign(&secret)
    };
    let relayer_signer = near_rpc::Signer::new(
        "relayer.near".parse().unwrap(),
        near_rpc_mock::chain::secret_key("relayer.near"),
    );

    let node = MockTransport::new("scripted", [key(5000)]);
    let relayer =
        near_rpc::Client::with_transport(node.clone()).with_signer(relayer_signer.clone());
    let e = relayer.relay(delegate(4999)).await.unwrap_err();
    assert!(
        matches!(e.kind(), SendErrorKind::Usage { message }
            if message.starts_with("action 0: the delegate action of alice.near")
                && message.contains("up to block 4999")
                && message.contains("head is at block 5000")),
        "{e}"
    );
    assert!(e.transactions().is_empty(), "nothing signed");
    let requests = node.requests();
    assert_eq!(requests.len(), 1, "one key read, nothing sent");
    let params: serde_json::Value = serde_json::from_slice(&requests[0].body).unwrap();
    assert_eq!(params["params"]["request_type"], "view_access_key");
    assert_eq!(params["params"]["finality"], "final");
    assert_eq!(params["params"]["account_id"], "relayer.near");

    // Valid up to the head: the check passes, the relayer signs (a send that never
    // connects is rejected with the one transaction it signed).
    let node = MockTransport::new(
        "scripted",
        [
            key(5000),
            key(5000),
            MockReply::error(TransportErrorKind::Connect),
        ],
    );
    let relayer = near_rpc::Client::with_transport(node.clone()).with_signer(relayer_signer);
    let e = relayer.relay(delegate(5000)).await.unwrap_err();
    assert!(e.is_rejected(), "{e}");
    assert_eq!(e.transactions().len(), 1);
    let methods: Vec<&str> = node.requests().iter().map(|r| r.method).collect();
    // The key read for the check, the write path's own, then the send (retried: a
    // connection that never opened sent nothing).
    assert_eq!(methods[..3], ["query", "query", "send_tx"]);
    assert!(methods[3..].iter().all(|m| *m == "send_tx"), "{methods:?}");
}
