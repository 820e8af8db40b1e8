//! Forward compatibility: what a newer node sends must decode with the 1.2.6 bindings.
//!
//! Enums a response can carry are open (an unknown variant is kept as raw JSON), unknown
//! struct fields are ignored, and neither rule may hide a broken payload of a known
//! variant. The later spec versions in `../shared/spec` (1.2.7 to 1.2.11) are the
//! evidence: every variant they add to an enum of 1.2.6 must land in its catch-all.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::path::Path;

use near_rpc::envelope::{ErrorCause, ErrorWrapper};
use near_rpc::types::{self, ActionView, ReceiptEnumView, RpcTransactionError};
use near_rpc::types::{RpcTransactionResponse, TransactionOutcome};
use near_rpc_codegen::ir::{Kind, Tagging};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Map, Value};

/// The crate's `decode`, except that `from_value` also decodes natively (the way
/// `RpcMethod::decode_response` and the client do) and checks that both ways agree: the
/// same value, or failures at the same path (the native one may be longer, inside an
/// internally tagged enum). Every rule below thereby holds for both.
mod decode {
    use near_rpc::__private::native::{self, Decode};
    pub use near_rpc::decode::*;

    pub fn from_value<T: serde::de::DeserializeOwned + Decode + std::fmt::Debug>(
        value: serde_json::Value,
    ) -> Result<T, DecodeError> {
        let bytes = serde_json::to_vec(&value).expect("encodes");
        let natively = native::from_slice::<T>(&bytes);
        let serde = near_rpc::decode::from_value::<T>(value);
        match (&natively, &serde) {
            (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "decoded differently"),
            (Err(a), Err(b)) => assert!(
                a.path().starts_with(b.path()),
                "native fails at {a}, serde at {b}"
            ),
            _ => panic!("native: {natively:?}, serde: {serde:?}"),
        }
        serde
    }
}

type TxResponse = near_rpc::envelope::Response<
    RpcTransactionResponse,
    near_rpc::types::SpecErrorWrapper<RpcTransactionError>,
>;

const BASE_VERSION: &str = "1.2.6";
const LATER_VERSIONS: [&str; 5] = ["1.2.7", "1.2.8", "1.2.9", "1.2.10", "1.2.11"];

/// New variants of 1.2.7 to 1.2.11 that their release notes name.
const RELEASE_NOTES: [(&str, &str); 6] = [
    ("RpcReceiptToTxError", "BUDGET_EXCEEDED"),
    ("RpcReceiptToTxError", "OUTCOMES_NOT_STORED"),
    ("InvalidAccessKeyError", "DelegateActionRequiresNonGasKey"),
    ("InvalidAccessKeyError", "DelegateActionRequiresGasKey"),
    ("ActionErrorKind", "DelegateActionInvalidNonceIndex"),
    ("ActionView", "DelegateV2"),
];

/// `1.2.10` → 10.
fn patch_of(version: &str) -> u32 {
    version
        .rsplit('.')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or(0)
}

fn read_json(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

// ---------------------------------------------------------------------------------------
// a. Which enums are open
// ---------------------------------------------------------------------------------------

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn open_rule_covers_the_protocol_enums() {
    let shared = common::shared_dir();
    let api = common::shipped_api(&shared, BASE_VERSION);
    let enums: BTreeMap<&str, &near_rpc_codegen::ir::Enum> = api
        .types
        .iter()
        .filter_map(|(name, def)| match &def.kind {
            Kind::Enum(e) => Some((name.as_str(), e)),
            _ => None,
        })
        .collect();

    let mut must_be_open: Vec<&str> = vec![
        "ActionView",
        "NonDelegateAction",
        "ReceiptEnumView",
        "ActionErrorKind",
        "InvalidTxError",
        "ExecutionStatusView",
        "InvalidAccessKeyError",
        "TxExecutionError",
        "FinalExecutionStatus",
    ];
    let rpc_errors: Vec<&str> = enums
        .keys()
        .copied()
        .filter(|name| name.starts_with("Rpc") && name.ends_with("Error"))
        .collect();
    // The spec has one handler error per method family; a filter that matched none
    // (e.g. because the IR renamed them) would make the check below vacuous.
    assert!(
        rpc_errors.len() >= 20,
        "only {} Rpc*Error enums in the IR: {rpc_errors:?}",
        rpc_errors.len()
    );
    must_be_open.extend(&rpc_errors);

    let mut problems = Vec::new();
    for name in &must_be_open {
        match enums.get(name) {
            None => problems.push(format!("{name}: not an enum in the IR")),
            Some(e) if !e.open => problems.push(format!("{name}: closed")),
            Some(_) => {}
        }
    }
    // Request-only enums stay closed: a client never has to accept what it sends.
    for name in ["RpcQueryRequestKind", "RpcTransactionStatusRequestKind"] {
        match enums.get(name) {
            None => problems.push(format!("{name}: not an enum in the IR")),
            Some(e) if e.open => problems.push(format!("{name}: open, but only sent by clients")),
            Some(_) => {}
        }
    }
    // Every open enum with a tag is in the dispatch list of the next test, so that a
    // variant a later spec adds to it is checked there.
    for (name, e) in &enums {
        if e.open && e.tagging != Tagging::Shape && !DISPATCHED.contains(name) {
            problems.push(format!(
                "{name}: open but missing from DISPATCHED in tests/forward_compat.rs"
            ));
        }
    }
    // And those of the bindings built, when they are another version's.
    if near_rpc::SPEC_VERSION != BASE_VERSION {
        let built = common::shipped_api(&shared, near_rpc::SPEC_VERSION);
        for (name, def) in &built.types {
            let Kind::Enum(e) = &def.kind else { continue };
            if e.open && e.tagging != Tagging::Shape && !DISPATCHED.contains(&name.as_str()) {
                problems.push(format!(
                    "{name} ({}): open but missing from DISPATCHED in tests/forward_compat.rs",
                    near_rpc::SPEC_VERSION
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---------------------------------------------------------------------------------------
// b. Variants added by later spec versions
// ---------------------------------------------------------------------------------------

/// One variant of an enum schema: its tag and the schema of the value carrying it.
struct Tagged<'a> {
    tag: String,
    /// The `oneOf` arm (or the whole schema, for a plain string enum).
    arm: &'a Value,
    /// The variant is a bare string (`"Name"`), not an object.
    bare: bool,
}

/// The variants of an enum schema whose every alternative carries a tag: a string
/// enum, a single-key object (`{"Name": payload}`), or an object whose `name`/`type`
/// property is fixed by `enum: [tag]`. `None` for anything else (structs, untagged
/// alternatives), whose additions aren't variants with a name.
fn variant_tags(schema: &Value) -> Option<Vec<Tagged<'_>>> {
    let strings = |arm: &Value| -> Option<Vec<String>> {
        arm.get("enum")?
            .as_array()?
            .iter()
            .map(|v| v.as_str().map(str::to_owned))
            .collect()
    };
    let Some(arms) = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)
    else {
        let tags = strings(schema)?;
        return Some(
            tags.into_iter()
                .map(|tag| Tagged {
                    tag,
                    arm: schema,
                    bare: true,
                })
                .collect(),
        );
    };
    let mut out = Vec::new();
    for arm in arms {
        if arm.get("$ref").is_some() {
            return None;
        }
        if let Some(tags) = strings(arm) {
            out.extend(tags.into_iter().map(|tag| Tagged {
                tag,
                arm,
                bare: true,
            }));
            continue;
        }
        let properties = arm.get("properties").and_then(Value::as_object)?;
        let fixed = ["name", "type"].iter().find_map(|field| {
            let values = properties.get(*field)?.get("enum")?.as_array()?;
            match values.as_slice() {
                [Value::String(tag)] => Some(tag.clone()),
                _ => None,
            }
        });
        let tag = match fixed {
            Some(tag) => tag,
            None if properties.len() == 1 => properties.keys().next()?.clone(),
            None => return None,
        };
        out.push(Tagged {
            tag,
            arm,
            bare: false,
        });
    }
    Some(out)
}

/// Deeper than any real schema nests; past it a value is `null` (only a schema whose
/// required properties form a cycle could get there).
const MAX_DEPTH: usize = 40;

/// A minimal instance of `schema`: required properties only, `"x"` for strings, `0` for
/// numbers, `false`, `[]`, the first `enum` value, the first `oneOf`/`anyOf` arm, `null`
/// where allowed. `$ref`s resolve against `schemas` (the same spec version's).
fn instance(schemas: &Map<String, Value>, schema: &Value, depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return Value::Null;
    }
    let next = |s: &Value| instance(schemas, s, depth + 1);
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let name = reference
            .strip_prefix("#/components/schemas/")
            .unwrap_or_else(|| panic!("unexpected $ref {reference}"));
        let target = schemas
            .get(name)
            .unwrap_or_else(|| panic!("$ref to missing schema {name}"));
        return next(target);
    }
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|v| v.first())
    {
        return first.clone();
    }
    if schema.get("nullable") == Some(&Value::Bool(true)) {
        return Value::Null;
    }
    if let Some(arms) = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)
    {
        let null_arm = arms.iter().any(|a| {
            a.get("type") == Some(&json!("null")) || a.get("nullable") == Some(&json!(true))
        });
        if null_arm || arms.is_empty() {
            return Value::Null;
        }
        return next(&arms[0]);
    }
    if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
        let mut built = parts.iter().map(next);
        let Some(first) = built.next() else {
            return Value::Null;
        };
        // Several parts: each is an object schema; the instance has all their members.
        return built.fold(first, |acc, part| match (acc, part) {
            (Value::Object(mut a), Value::Object(b)) => {
                a.extend(b);
                Value::Object(a)
            }
            (acc, _) => acc,
        });
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ if schema.get("properties").is_some() => vec!["object"],
        _ => vec![],
    };
    if types.contains(&"null") {
        return Value::Null;
    }
    match types.first().copied() {
        Some("object") => {
            let properties = schema.get("properties").and_then(Value::as_object);
            let required = schema.get("required").and_then(Value::as_array);
            let mut object = Map::new();
            for key in required.into_iter().flatten().filter_map(Value::as_str) {
                let property = properties.and_then(|p| p.get(key)).unwrap_or(&Value::Null);
                object.insert(key.to_owned(), next(property));
            }
            Value::Object(object)
        }
        Some("array") => {
            let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
            match schema.get("items") {
                Some(Value::Array(tuple)) => {
                    Value::Array(tuple.iter().take(min).map(next).collect())
                }
                Some(item) => Value::Array((0..min).map(|_| next(item)).collect()),
                None => Value::Array(vec![]),
            }
        }
        Some("string") => json!("x"),
        Some("integer") | Some("number") => json!(0),
        Some("boolean") => json!(false),
        // `{}` accepts anything.
        _ => Value::Null,
    }
}

/// Decodes `instance` as `T` and checks that it is kept, unchanged, in the catch-all.
fn check_kept<T: DeserializeOwned + Serialize + Debug + near_rpc::__private::native::Decode>(
    instance: &Value,
    catch_all: fn(&T) -> Option<&Value>,
) -> Result<(), String> {
    let decoded: T = decode::from_value(instance.clone()).map_err(|e| format!("failed: {e}"))?;
    match catch_all(&decoded) {
        Some(kept) if kept == instance => {}
        Some(kept) => return Err(format!("kept {kept}, not the instance")),
        None => return Err(format!("decoded as a known variant: {decoded:?}")),
    }
    let encoded = serde_json::to_value(&decoded).map_err(|e| format!("encoding: {e}"))?;
    if &encoded != instance {
        return Err(format!("re-encoded as {encoded}"));
    }
    Ok(())
}

/// `(schema name, Rust type, catch-all variant)` for every open enum with a tag: those
/// of 1.2.6, then those only nearcore 0.38's bindings have.
macro_rules! dispatch_table {
    ($($ty:ident => $catch_all:ident),* $(,)?; nearcore_0_38_0: $($new:ident => $new_catch_all:ident),* $(,)?) => {
        /// The open enums `check_new_variant` can decode, by schema name.
        const DISPATCHED: &[&str] = &[
            $(stringify!($ty),)*
            $(#[cfg(near_rpc_spec_ge = "nearcore_0_38_0")] stringify!($new),)*
        ];

        /// Runs `check_kept` with the bindings' type of `schema`; `None` if it isn't listed.
        fn check_new_variant(schema: &str, instance: &Value) -> Option<Result<(), String>> {
            match schema {
                $(stringify!($ty) => Some(check_kept::<types::$ty>(instance, |v| match v {
                    types::$ty::$catch_all(raw) => Some(raw),
                    #[allow(unreachable_patterns)]
                    _ => None,
                })),)*
                $(#[cfg(near_rpc_spec_ge = "nearcore_0_38_0")]
                stringify!($new) => Some(check_kept::<types::$new>(instance, |v| match v {
                    types::$new::$new_catch_all(raw) => Some(raw),
                    #[allow(unreachable_patterns)]
                    _ => None,
                })),)*
                _ => None,
            }
        }
    };
}

dispatch_table! {
    AccessKeyPermission => Unknown,
    AccessKeyPermissionView => Unknown,
    ActionErrorKind => Unknown,
    ActionView => Unknown,
    ActionsValidationError => Unknown,
    BandwidthRequests => Unknown,
    BlockReference => Unknown,
    CompilationError => Unknown,
    DepositCostFailureReason => Unknown,
    DeterministicAccountStateInit => Unknown,
    Direction => Unknown,
    ExecutionStatusView => Other,
    ExternalStorageLocation => Unknown,
    FinalExecutionStatus => Unknown,
    Finality => Unknown,
    FunctionCallError => Unknown,
    GlobalContractDeployMode => Unknown,
    GlobalContractIdentifier => Unknown,
    GlobalContractIdentifierView => Unknown,
    HostError => Unknown,
    InternalError => Unknown,
    InvalidAccessKeyError => Unknown,
    InvalidTxError => Unknown,
    LogSummaryStyle => Unknown,
    MethodResolveError => Unknown,
    MissingTrieValueContext => Unknown,
    NonDelegateAction => Unknown,
    NonceMode => Unknown,
    PrepareError => Unknown,
    ProtocolVersionCheckConfig => Unknown,
    ReceiptEnumView => Unknown,
    ReceiptValidationError => Unknown,
    RpcBlockError => Unknown,
    RpcCallFunctionError => Unknown,
    RpcChunkError => Unknown,
    RpcClientConfigError => Unknown,
    RpcGasPriceError => Unknown,
    RpcLightClientNextBlockError => Unknown,
    RpcLightClientProofError => Unknown,
    RpcMaintenanceWindowsError => Unknown,
    RpcNetworkInfoError => Unknown,
    RpcProtocolConfigError => Unknown,
    RpcQueryError => Unknown,
    RpcReceiptError => Unknown,
    RpcReceiptToTxError => Unknown,
    RpcRequestValidationErrorKind => Unknown,
    RpcSplitStorageInfoError => Unknown,
    RpcStateChangesError => Unknown,
    RpcStatusError => Unknown,
    RpcTransactionError => Unknown,
    RpcValidatorError => Unknown,
    RpcViewAccessKeyError => Unknown,
    RpcViewAccessKeyListError => Unknown,
    RpcViewAccountError => Unknown,
    RpcViewCodeError => Unknown,
    RpcViewStateError => Unknown,
    ShardLayout => Unknown,
    StateChangeCauseView => Unknown,
    StateChangeKindView => Unknown,
    StateChangeWithCauseViewKind => Unknown,
    StorageError => Unknown,
    StorageGetMode => Unknown,
    SyncCheckpoint => Unknown,
    SyncConfig => Unknown,
    TrackedShardsConfig => Unknown,
    TxExecutionError => Unknown,
    TxExecutionStatus => Unknown,
    ValidatorKickoutReason => Unknown,
    ValidatorStakeView => Unknown,
    VmKind => Unknown,
    WasmTrap => Unknown;
    nearcore_0_38_0:
    AccountContractView => Unknown,
    AccountState => Unknown,
    ChunkExecutionRoots => Unknown,
    TimeoutErrorCause => Unknown,
    TransactionNonce => Unknown,
    VersionedDelegateActionPayload => Unknown,
}

fn component_schemas(doc: &Value) -> &Map<String, Value> {
    doc.pointer("/components/schemas")
        .and_then(Value::as_object)
        .expect("spec has components.schemas")
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn later_versions_variants_decode_as_unknown() {
    let shared = common::shared_dir();
    // The versions after the one these bindings were built for (none after the latest).
    let built = near_rpc::SPEC_VERSION;
    let later: Vec<&str> = LATER_VERSIONS
        .into_iter()
        .filter(|v| patch_of(v) > patch_of(built))
        .collect();
    println!("bindings {built}: checking the new variants of {later:?}");
    let base_doc = read_json(&common::spec_path(&shared, built));
    let base = component_schemas(&base_doc);
    let mut failures = Vec::new();
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    for version in later {
        let doc = read_json(&common::spec_path(&shared, version));
        let later = component_schemas(&doc);
        let (mut found, mut kept) = (0, 0);
        for (name, schema) in later {
            let Some(old) = base.get(name).and_then(variant_tags) else {
                continue;
            };
            let Some(new) = variant_tags(schema) else {
                continue;
            };
            let old: BTreeSet<String> = old.into_iter().map(|t| t.tag).collect();
            for variant in new.iter().filter(|t| !old.contains(&t.tag)) {
                found += 1;
                seen.insert((name.clone(), variant.tag.clone()));
                let value = if variant.bare {
                    Value::String(variant.tag.clone())
                } else {
                    instance(later, variant.arm, 0)
                };
                match check_new_variant(name, &value) {
                    Some(Ok(())) => kept += 1,
                    Some(Err(e)) => {
                        failures.push(format!("{version} {name}::{} {value}: {e}", variant.tag))
                    }
                    None => failures.push(format!(
                        "{version} {name}::{}: {name} is not in the dispatch list of \
                         tests/forward_compat.rs (add it, or explain why it is closed)",
                        variant.tag
                    )),
                }
            }
        }
        println!("{version}: {found} new variants, {kept} kept as Unknown");
    }
    // The variants the release notes name must have been found, or the tag detection
    // is broken and the loop above checked nothing.
    let named = if built == BASE_VERSION {
        &RELEASE_NOTES[..]
    } else {
        &[][..]
    };
    for &(schema, tag) in named {
        assert!(
            seen.contains(&(schema.to_owned(), tag.to_owned())),
            "{schema}::{tag} was not detected as new; detected: {seen:?}"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn instance_builder_follows_the_schema() {
    let schemas = json!({
        "Leaf": {"type": "object", "properties": {"n": {"type": "integer"}, "s": {"type": "string"}},
                 "required": ["n", "s"]},
        "Loop": {"type": "object", "properties": {"next": {"$ref": "#/components/schemas/Loop"}},
                 "required": ["next"]}
    });
    let schemas = schemas.as_object().unwrap();
    let arm = json!({"type": "object", "properties": {"V": {"type": "object", "properties": {
        "leaf": {"$ref": "#/components/schemas/Leaf"},
        "opt": {"type": "string"},
        "maybe": {"type": "string", "nullable": true},
        "list": {"type": "array", "items": {"type": "integer"}},
        "flag": {"type": "boolean"},
        "kind": {"enum": ["a", "b"]},
        "either": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
        "both": {"allOf": [{"$ref": "#/components/schemas/Leaf"}]}
    }, "required": ["leaf", "maybe", "list", "flag", "kind", "either", "both"]}}, "required": ["V"]});
    assert_eq!(
        instance(schemas, &arm, 0),
        json!({"V": {"leaf": {"n": 0, "s": "x"}, "maybe": null, "list": [], "flag": false,
                     "kind": "a", "either": 0, "both": {"n": 0, "s": "x"}}})
    );
    // A cycle of required properties ends in null instead of overflowing the stack.
    let looped = instance(schemas, &json!({"$ref": "#/components/schemas/Loop"}), 0);
    assert!(looped.pointer("/next/next/next").is_some());
    let tags: Vec<String> = variant_tags(&json!({"oneOf": [
        {"enum": ["A", "B"], "type": "string"},
        {"type": "object", "properties": {"C": {"type": "object"}}, "required": ["C"]},
        {"type": "object", "properties": {"name": {"enum": ["D"]}, "info": {"type": "object"}}}
    ]}))
    .unwrap()
    .into_iter()
    .map(|t| t.tag)
    .collect();
    assert_eq!(tags, ["A", "B", "C", "D"]);
    assert!(variant_tags(&json!({"oneOf": [{"$ref": "#/components/schemas/Leaf"}]})).is_none());
}

// ---------------------------------------------------------------------------------------
// c, d. Inside a real response
// ---------------------------------------------------------------------------------------

/// A recorded `EXPERIMENTAL_tx_status` response that decodes as it is and has an
/// `Action` receipt with actions, and the index of that receipt.
fn response_with_action_receipt(shared: &Path) -> (String, Value, usize) {
    let dir = shared.join("fixtures/EXPERIMENTAL_tx_status");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    paths.sort();
    for path in paths {
        let body = read_json(&path);
        let Some(receipts) = body.pointer("/result/receipts").and_then(Value::as_array) else {
            continue;
        };
        let Some(index) = receipts.iter().position(|r| {
            r.pointer("/receipt/Action/actions")
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty())
        }) else {
            continue;
        };
        // Old bodies (without final_execution_status) don't fit 1.2.6; skip those.
        if decode::from_value::<TxResponse>(body.clone()).is_ok() {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            return (name, body, index);
        }
    }
    panic!(
        "no decodable EXPERIMENTAL_tx_status response with an Action receipt in {}",
        dir.display()
    );
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn unknown_variant_inside_a_real_response() {
    let shared = common::shared_dir();
    let (name, mut body, index) = response_with_action_receipt(&shared);
    let new_action = json!({"FutureActionV9": {"foo": 1}});
    let pointer = format!("/result/receipts/{index}/receipt/Action/actions/0");
    *body.pointer_mut(&pointer).unwrap() = new_action.clone();

    let response: TxResponse = decode::from_value(body.clone())
        .unwrap_or_else(|e| panic!("{name} with a FutureActionV9 action: {e}"));
    let Ok(RpcTransactionResponse {
        outcome: Some(TransactionOutcome::WithReceipts(outcome)),
        ..
    }) = &response.payload
    else {
        panic!(
            "{name}: expected a result with receipts, got {:?}",
            response.payload
        );
    };
    let ReceiptEnumView::Action { actions, .. } = &outcome.receipts[index].receipt else {
        panic!("{name}: receipt {index} is not an Action receipt");
    };
    assert_eq!(actions[0], ActionView::Unknown(new_action));

    let encoded = serde_json::to_value(&response).unwrap();
    let receipt = format!("/result/receipts/{index}");
    assert_eq!(
        encoded.pointer(&receipt),
        body.pointer(&receipt),
        "{name}: receipt {index} re-encodes differently"
    );
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn known_tag_with_broken_payload_is_an_error_with_a_path() {
    // Inline: an Action receipt whose FunctionCall has a gas that isn't a number.
    let receipt = json!({
        "predecessor_id": "alice.near",
        "receiver_id": "bob.near",
        "receipt_id": "11111111111111111111111111111111",
        "receipt": {"Action": {
            "signer_id": "alice.near",
            "signer_public_key": "ed25519:11111111111111111111111111111111",
            "gas_price": "0",
            "output_data_receivers": [],
            "input_data_ids": [],
            "actions": [
                {"Transfer": {"deposit": "1"}},
                {"FunctionCall": {"method_name": "go", "args": "", "gas": "lots", "deposit": "0"}}
            ]
        }}
    });
    let mut fixed = receipt.clone();
    fixed["receipt"]["Action"]["actions"][1]["FunctionCall"]["gas"] = json!(30_000_000_000_000u64);
    decode::from_value::<types::ReceiptView>(fixed)
        .expect("the receipt decodes with a numeric gas");
    let err = decode::from_value::<types::ReceiptView>(receipt).unwrap_err();
    assert_eq!(
        err.path(),
        "receipt.Action.actions[1].FunctionCall.gas",
        "{err}"
    );

    // The same inside a real response: the error names the path from `result`.
    {
        let shared = common::shared_dir();
        let (name, mut body, index) = response_with_action_receipt(&shared);
        let pointer = format!("/result/receipts/{index}/receipt/Action/actions/0");
        *body.pointer_mut(&pointer).unwrap() = json!({"FunctionCall": {
            "method_name": "go", "args": "", "gas": "lots", "deposit": "0"}});
        let err = decode::from_value::<TxResponse>(body).unwrap_err();
        assert_eq!(
            err.path(),
            format!("result.receipts[{index}].receipt.Action.actions[0].FunctionCall.gas"),
            "{name}: {err}"
        );
    }

    // A known external tag with a payload of the wrong shape is an error, not Unknown.
    let err = decode::from_value::<ActionView>(json!({"Transfer": {"deposit": []}})).unwrap_err();
    assert!(err.to_string().contains("deposit"), "{err}");
}

/// The same rule for an adjacently tagged error enum (`{"name": ..., "info": ...}`): the
/// error must name the bad field inside `info`, not only the variant.
#[test]
fn adjacent_tag_with_broken_payload_names_the_field() {
    let body = |hash: &str| {
        json!({"jsonrpc": "2.0", "id": 1, "error": {
            "name": "HANDLER_ERROR",
            "cause": {"name": "REQUEST_ROUTED", "info": {"transaction_hash": hash}},
            "code": -32000, "message": "Server error"}})
    };
    let ok: TxResponse = decode::from_value(body("11111111111111111111111111111111")).unwrap();
    let Err(ErrorWrapper {
        cause: ErrorCause::Handler(RpcTransactionError::RequestRouted { .. }),
        ..
    }) = ok.payload
    else {
        panic!(
            "REQUEST_ROUTED with a good hash decoded as {:?}",
            ok.payload
        );
    };
    let err = decode::from_value::<TxResponse>(body("not base58: 0OIl")).unwrap_err();
    assert_eq!(err.path(), "error.cause.info.transaction_hash", "{err}");
    // Decoded on its own, without the error envelope.
    let err = decode::from_value::<types::RpcReceiptToTxError>(json!({
        "name": "DEPTH_EXCEEDED",
        "info": {"receipt_id": "11111111111111111111111111111111", "limit": "ten"}}))
    .unwrap_err();
    assert_eq!(err.path(), "info.limit", "{err}");
}

// ---------------------------------------------------------------------------------------
// e. New struct fields
// ---------------------------------------------------------------------------------------

#[test]
fn new_struct_fields_are_ignored() {
    let account = json!({
        "amount": "1000000000000000000000000",
        "locked": "0",
        "code_hash": "11111111111111111111111111111111",
        "storage_usage": 182,
        "storage_paid_at": 0,
        "a_field_from_the_future": {"nested": [1, 2, 3]}
    });
    let view: types::AccountView = decode::from_value(account.clone()).expect("AccountView");
    assert_eq!(view.amount, near_rpc::NearToken::from_near(1));
    assert_eq!(view.locked, near_rpc::NearToken::from_yoctonear(0));
    assert_eq!(view.storage_usage, 182);
    assert_eq!(view.storage_paid_at, Some(0));
    assert_eq!(
        view.code_hash.to_string(),
        "11111111111111111111111111111111"
    );
    assert_eq!(view.global_contract_hash, None);
    // The unknown field is dropped on re-encoding; everything else is kept.
    let mut expected = account;
    expected
        .as_object_mut()
        .unwrap()
        .remove("a_field_from_the_future");
    assert_eq!(serde_json::to_value(&view).unwrap(), expected);

    // The same inside a `query` response, with a new field at the envelope and result level.
    let body = json!({"jsonrpc": "2.0", "id": "q", "a_new_envelope_field": true, "result": {
        "amount": "5", "locked": "0", "code_hash": "11111111111111111111111111111111",
        "storage_usage": 1, "block_height": 7,
        "block_hash": "11111111111111111111111111111111", "new_in_2030": "yes"}});
    type M = near_rpc::methods::QueryMethod;
    let response: near_rpc::envelope::Response<
        <M as near_rpc::methods::RpcMethod>::Result,
        near_rpc::types::SpecErrorWrapper<<M as near_rpc::methods::RpcMethod>::Error>,
    > = decode::from_value(body).expect("query response with new fields");
    let result = response.payload.expect("a result");
    assert_eq!(result.block_height, 7);
    let types::RpcQueryResponseKind::AccountView(view) = result.kind else {
        panic!("expected an AccountView, got {:?}", result.kind);
    };
    assert_eq!(view.amount, near_rpc::NearToken::from_yoctonear(5));
}

/// A variant that is a bare name in the spec, sent by a newer node with a payload
/// (`{"Name": {..}}`, `{"name": "NAME", "info": {..}}`), decodes into the catch-all with
/// the whole value, for every such variant of every open enum, whatever its tagging; an
/// empty payload still decodes as the known variant.
#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn bare_names_grown_with_a_payload_are_kept() {
    let shared = common::shared_dir();
    // The bare names of the bindings built (nearcore 0.38 gives `TIMEOUT_ERROR` a cause).
    let api = common::shipped_api(&shared, near_rpc::SPEC_VERSION);
    let grown = json!({"added_by_a_newer_node": [1, "two"]});
    let (mut checked, mut failures) = (BTreeMap::new(), Vec::new());
    for def in api.types.values() {
        let Kind::Enum(e) = &def.kind else { continue };
        if !e.open {
            continue;
        }
        // The dispatch list is by Rust name (`VMKind` is `VmKind`).
        let schema = def.rust_name.as_str();
        let units = e
            .variants
            .iter()
            .filter(|v| matches!(v.payload, near_rpc_codegen::ir::Payload::Unit));
        for variant in units {
            let wire = &variant.wire;
            let (with_payload, empties) = match &e.tagging {
                Tagging::External => (
                    json!({ wire: grown }),
                    vec![json!(wire), json!({ wire: null }), json!({ wire: {} })],
                ),
                Tagging::Adjacent { tag, content } => (
                    json!({ tag: wire, content: grown }),
                    vec![json!({ tag: wire }), json!({ tag: wire, content: {} })],
                ),
                // Fields beside an internal tag are new fields: ignored (tested below).
                _ => continue,
            };
            *checked
                .entry(
                    format!("{:?}", e.tagging)
                        .split(' ')
                        .next()
                        .unwrap()
                        .to_owned(),
                )
                .or_insert(0) += 1;
            match check_new_variant(schema, &with_payload) {
                Some(Ok(())) => {}
                Some(Err(err)) => failures.push(format!("{schema} {with_payload}: {err}")),
                None => failures.push(format!("{schema} is not in the dispatch list")),
            }
            for empty in empties {
                match check_new_variant(schema, &empty) {
                    Some(Err(err)) if err.starts_with("decoded as a known variant") => {}
                    other => failures.push(format!("{schema} {empty}: {other:?}")),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Both taggings that carry a payload apart from the tag were exercised.
    assert!(
        checked.get("External").is_some_and(|n| *n > 50),
        "{checked:?}"
    );
    assert!(
        checked.get("Adjacent").is_some_and(|n| *n >= 5),
        "{checked:?}"
    );
}

/// The same grown variant deep inside a real response body, decoded as a stream and from
/// a `Value`; strict decoding (user input) refuses it, naming the variant.
#[test]
fn a_grown_bare_name_inside_a_response_decodes() {
    let body = json!({
        "jsonrpc": "2.0", "id": 1,
        "error": {"name": "HANDLER_ERROR",
                  "cause": {"name": "NO_SYNCED_BLOCKS", "info": {"since": 12}}}
    });
    type QueryResponse = near_rpc::envelope::Response<
        types::RpcQueryResponse,
        near_rpc::types::SpecErrorWrapper<types::RpcQueryError>,
    >;
    let streamed: QueryResponse = decode::from_slice(body.to_string().as_bytes()).unwrap();
    let buffered: QueryResponse = decode::from_value(body.clone()).unwrap();
    for response in [streamed, buffered] {
        let Err(error) = response.payload else {
            panic!("an error")
        };
        let ErrorCause::Handler(types::RpcQueryError::Unknown(raw)) = error.cause else {
            panic!("{:?}", error.cause)
        };
        assert_eq!(raw, body["error"]["cause"]);
    }
    let kind = json!({"FunctionCallError": {"WasmUnknownError": {"trap": "new"}}});
    let streamed: types::ActionErrorKind = decode::from_slice(kind.to_string().as_bytes()).unwrap();
    let types::ActionErrorKind::FunctionCallError(types::FunctionCallError::Unknown(raw)) =
        streamed
    else {
        panic!("{streamed:?}")
    };
    assert_eq!(raw, kind["FunctionCallError"]);
    let err =
        decode::from_value_strict::<types::FunctionCallError>(kind["FunctionCallError"].clone())
            .unwrap_err();
    assert!(
        err.to_string()
            .contains("`WasmUnknownError` is a bare name in the spec"),
        "{err}"
    );

    // Internally tagged: fields beside the tag are new fields, ignored like any other.
    let cause: types::StateChangeCauseView =
        decode::from_value(json!({"type": "migration", "shard": 3})).unwrap();
    assert_eq!(cause, types::StateChangeCauseView::Migration);
}

/// Decodes a response of `method`: its re-encoding, and what the bindings did not
/// recognise.
struct Report<'a>(&'a [u8]);

impl near_rpc::methods::MethodVisitor for Report<'_> {
    type Output = Result<(Value, decode::Unrecognized), decode::DecodeError>;
    fn visit<M: near_rpc::methods::RpcMethod>(self) -> Self::Output {
        decode::from_slice_reporting::<
            near_rpc::envelope::Response<M::Result, near_rpc::types::SpecErrorWrapper<M::Error>>,
        >(self.0)
        .map(|(decoded, unrecognized)| (serde_json::to_value(decoded).unwrap(), unrecognized))
    }
}

/// Removes the field at a reported path (`a.b[0].c`).
fn remove_at(value: &mut Value, path: &str) {
    let (parent, key) = path.rsplit_once('.').unwrap_or(("", path));
    let mut node = value;
    for part in parent.split('.').filter(|p| !p.is_empty()) {
        let (name, indexes) = part.split_once('[').unwrap_or((part, ""));
        node = &mut node[name];
        for index in indexes.split('[').filter(|i| !i.is_empty()) {
            node = &mut node[index.trim_end_matches(']').parse::<usize>().unwrap()];
        }
    }
    node.as_object_mut().unwrap().remove(key);
}

/// Every field reported as ignored in a recorded response really was: without it the
/// body decodes to the same value (a false alarm would be a field the types read). Known
/// variants are never reported. The same body grown by a newer node reports exactly
/// what grew, with its path.
#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn unrecognized_parts_are_reported_with_their_path() {
    let shared = common::shared_dir();
    let (mut checked, mut ignored) = (0, 0);
    let mut alarms = Vec::new();
    for fixture in common::fixtures(&shared) {
        if fixture.kind != "response" || !fixture.schema_ok {
            continue;
        }
        let bytes = std::fs::read(&fixture.path).unwrap();
        let Some(report) = near_rpc::methods::visit(&fixture.method, Report(&bytes)) else {
            continue;
        };
        let name = format!("{}/{}", fixture.method, fixture.name);
        let (decoded, report) = report.unwrap_or_else(|e| panic!("{name}: {e}"));
        checked += 1;
        if !report.variants.is_empty() {
            alarms.push(format!("{name}: variants {:?}", report.variants));
        }
        let mut trimmed: Value = serde_json::from_slice(&bytes).unwrap();
        for path in &report.fields {
            remove_at(&mut trimmed, path);
        }
        ignored += report.fields.len();
        let trimmed = serde_json::to_vec(&trimmed).unwrap();
        let (again, _) = near_rpc::methods::visit(&fixture.method, Report(&trimmed))
            .unwrap()
            .unwrap();
        if again != decoded {
            alarms.push(format!(
                "{name}: {:?} were read, not ignored",
                report.fields
            ));
        }
    }
    assert!(alarms.is_empty(), "{}", alarms.join("\n"));
    assert!(checked > 50, "only {checked} recorded responses checked");
    // Older bodies carry fields 1.2.6 dropped (genesis and protocol configs).
    assert!(ignored > 10, "only {ignored} ignored fields found");

    // A transaction outcome from a newer node: a new top-level field, a new field deep
    // in a receipt, a new status variant, and a bare name grown with a payload.
    let path = shared.join("fixtures/EXPERIMENTAL_tx_status/neardocs-1.json");
    let mut body = read_json(&path);
    let (_, before) = near_rpc::methods::visit(
        "EXPERIMENTAL_tx_status",
        Report(&serde_json::to_vec(&body).unwrap()),
    )
    .unwrap()
    .unwrap();
    assert!(before.is_empty(), "{before:?}");
    body["result"]["gas_refunds"] = json!({"total": "5"});
    body["result"]["receipts_outcome"][0]["outcome"]["executor_shard"] = json!(3);
    body["result"]["receipts_outcome"][0]["outcome"]["status"] = json!({"Deferred": {"until": 9}});
    body["result"]["transaction_outcome"]["outcome"]["status"] = json!({"Failure": {"ActionError": {"index": 0, "kind": {"FunctionCallError": {"WasmUnknownError": {"trap": 1}}}}}});
    let bytes = serde_json::to_vec(&body).unwrap();
    let (_, report) = near_rpc::methods::visit("EXPERIMENTAL_tx_status", Report(&bytes))
        .unwrap()
        .unwrap();
    assert_eq!(
        report.variants,
        [
            "result.receipts_outcome[0].outcome.status",
            "result.transaction_outcome.outcome.status.Failure.ActionError.kind.FunctionCallError"
        ]
    );
    assert_eq!(
        report.fields,
        [
            "result.gas_refunds",
            "result.receipts_outcome[0].outcome.executor_shard"
        ]
    );
    let shown = report.to_string();
    assert!(
        shown.contains("ignored field at result.gas_refunds"),
        "{shown}"
    );
}

// nearcore 0.38 gives `TIMEOUT_ERROR` a typed cause; older nodes send none.
near_rpc::if_spec_ge_nearcore_0_38_0! {
    /// With nearcore 0.38's bindings, a timeout's cause is typed, whether a newer node
    /// sends one or an older node leaves it out.
    #[test]
    fn a_timeout_cause_is_typed_and_optional() {
        use near_rpc::types::{RpcTransactionError, TimeoutErrorCause};
        let read = |error: Value| -> RpcTransactionError { decode::from_value(error).unwrap() };
        assert_eq!(read(json!({"name": "TIMEOUT_ERROR"})), RpcTransactionError::TimeoutError(None));
        assert_eq!(
            read(json!({"name": "TIMEOUT_ERROR", "info": null})),
            RpcTransactionError::TimeoutError(None)
        );
        assert_eq!(
            read(json!({"name": "TIMEOUT_ERROR", "info": {"cause": "NOT_OBSERVED"}})),
            RpcTransactionError::TimeoutError(Some(TimeoutErrorCause::NotObserved))
        );
        let RpcTransactionError::TimeoutError(Some(TimeoutErrorCause::DoesNotTrackShard { shard_id })) =
            read(json!({"name": "TIMEOUT_ERROR", "info": {"cause": "DOES_NOT_TRACK_SHARD", "shard_id": 3}}))
        else {
            panic!("not the typed cause");
        };
        assert_eq!(serde_json::to_value(shard_id).unwrap(), json!(3));
        // A cause a newer node adds is kept whole.
        let newer = read(json!({"name": "TIMEOUT_ERROR", "info": {"cause": "QUEUED", "at": 9}}));
        assert!(matches!(newer, RpcTransactionError::TimeoutError(Some(TimeoutErrorCause::Unknown(_)))), "{newer:?}");
    }
}
