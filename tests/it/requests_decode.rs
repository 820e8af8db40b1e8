//! Requests decode from the JSON users and docs write (the CLI's `call` checks params
//! this way), including flattened alternatives side by side.

use near_rpc::types::{
    BlockReference, RpcQueryRequest, RpcQueryRequestKind, RpcTransactionStatusRequest,
    RpcTransactionStatusRequestKind, RpcViewAccountRequest,
};
use near_rpc::Finality;
use serde_json::{json, Value};

fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(value: Value) -> T {
    let decoded: T =
        near_rpc::decode::from_value(value.clone()).unwrap_or_else(|e| panic!("{value}: {e}"));
    assert_eq!(serde_json::to_value(&decoded).unwrap(), value);
    decoded
}

#[test]
fn query_request_with_two_flattened_enums() {
    let q: RpcQueryRequest = round_trip(json!({
        "request_type": "view_account", "finality": "final", "account_id": "alice.near"}));
    assert_eq!(q.block_reference, BlockReference::Finality(Finality::Final));
    assert!(matches!(q.kind, RpcQueryRequestKind::ViewAccount { .. }));
    let q: RpcQueryRequest = round_trip(json!({
        "request_type": "call_function", "block_id": 17, "account_id": "a.near",
        "method_name": "get", "args_base64": "e30="}));
    assert_eq!(q.block_reference, BlockReference::BlockId(17u64.into()));
}

#[test]
fn view_request_with_fields_and_a_block_reference() {
    let r: RpcViewAccountRequest =
        round_trip(json!({"account_id": "alice.near", "sync_checkpoint": "genesis"}));
    assert!(matches!(
        r.block_reference,
        BlockReference::SyncCheckpoint(_)
    ));
    let err =
        near_rpc::decode::from_value::<RpcViewAccountRequest>(json!({"account_id": "alice.near"}))
            .unwrap_err();
    assert!(err.to_string().contains("block_id"), "{err}");
}

#[test]
fn tx_status_request_by_hash_or_signed_transaction() {
    let r: RpcTransactionStatusRequest = round_trip(json!({
        "tx_hash": "11111111111111111111111111111111", "sender_account_id": "a.near",
        "wait_until": "FINAL"}));
    assert!(matches!(
        r.kind,
        RpcTransactionStatusRequestKind::TxHashSenderAccountId { .. }
    ));
    let r: RpcTransactionStatusRequest = round_trip(json!({"signed_tx_base64": "AAAA"}));
    assert!(matches!(
        r.kind,
        RpcTransactionStatusRequestKind::SignedTxBase64 { .. }
    ));
    let err = near_rpc::decode::from_value::<RpcTransactionStatusRequest>(
        json!({"tx_hash": "11111111111111111111111111111111", "sender_account_id": "NOT VALID"}),
    )
    .unwrap_err();
    assert_eq!(err.path(), "sender_account_id", "{err}");
}

#[test]
fn a_flattened_enum_sees_only_the_keys_its_struct_does_not_take() {
    // A block reference a newer node might add, beside the struct's own field: kept in
    // the catch-all without that field, so that re-encoding gives the object back.
    let r: RpcViewAccountRequest =
        round_trip(json!({"account_id": "alice.near", "epoch_ref": {"id": 1}}));
    assert_eq!(
        r.block_reference,
        BlockReference::Unknown(json!({"epoch_ref": {"id": 1}}))
    );
    // The same object from a user is refused, naming the variant.
    let err = near_rpc::decode::from_value_strict::<RpcViewAccountRequest>(
        json!({"account_id": "alice.near", "epoch_ref": {"id": 1}}),
    )
    .unwrap_err();
    assert!(
        err.message().contains("unknown variant `epoch_ref`"),
        "{err}"
    );
    // Through serde's stream too (the type's `Deserialize` decodes natively).
    let r: RpcViewAccountRequest =
        serde_json::from_str(r#"{"epoch_ref": {"id": 1}, "account_id": "alice.near"}"#).unwrap();
    assert_eq!(
        r.block_reference,
        BlockReference::Unknown(json!({"epoch_ref": {"id": 1}}))
    );
}
