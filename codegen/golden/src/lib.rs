//! Compiles the golden outputs of `near-rpc-codegen` (`expected/<name>/`, checked by
//! `codegen/tests/golden.rs`) under `deny(warnings)`, each in its own module with the
//! hand-written `near-rpc` items it refers to, and tests how the generated types decode.

#![deny(warnings)]

/// One golden API under `crate::<name>`, laid out like `near-rpc`'s own root.
macro_rules! golden {
    ($name:ident) => {
        #[allow(missing_docs)]
        pub mod $name {
            pub use near_rpc::__generated_root::*;

            pub mod types {
                pub use near_rpc::__generated_root::in_types::*;

                include!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/expected/",
                    stringify!($name),
                    "/types.rs"
                ));
                include!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/expected/",
                    stringify!($name),
                    "/enums.rs"
                ));
                include!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/expected/",
                    stringify!($name),
                    "/flattened.rs"
                ));
                include!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/expected/",
                    stringify!($name),
                    "/aliases.rs"
                ));

                pub mod envelope {
                    #[allow(unused_imports)]
                    use super::*;

                    include!(concat!(
                        env!("CARGO_MANIFEST_DIR"),
                        "/expected/",
                        stringify!($name),
                        "/envelope.rs"
                    ));
                }
            }

            pub mod methods {
                pub use near_rpc::__generated_root::in_methods::*;

                include!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/expected/",
                    stringify!($name),
                    "/methods.rs"
                ));
            }

            pub mod schemas {
                pub use near_rpc::__generated_root::in_schemas::*;

                include!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/expected/",
                    stringify!($name),
                    "/schemas.rs"
                ));
            }

            pub mod spec {
                include!(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/expected/",
                    stringify!($name),
                    "/spec.rs"
                ));
            }
        }
    };
}

golden!(enums);
golden!(flattened);
golden!(merged);
golden!(nullable);
golden!(openrpc);
golden!(structs);

#[cfg(test)]
mod tests {
    use serde::de::DeserializeOwned;
    use serde::Serialize;
    use serde_json::{json, Value};

    fn decode<T: DeserializeOwned>(value: Value) -> Result<T, String> {
        near_rpc::decode::from_value(value).map_err(|e| e.to_string())
    }

    fn round_trip<T: DeserializeOwned + Serialize + std::fmt::Debug>(value: Value) -> T {
        let decoded: T = decode(value.clone()).unwrap_or_else(|e| panic!("{value}: {e}"));
        assert_eq!(serde_json::to_value(&decoded).unwrap(), value);
        decoded
    }

    mod structs {
        use super::*;
        use crate::structs::types::{Thing, ThingError, ThingRequest};

        #[test]
        fn fields_keep_formats_tuples_maps_and_options() {
            let thing: Thing = round_trip(json!({
                "owner": "alice.near", "height": u64::MAX, "small": 255,
                "pair": [7, "bob.near"], "created": "2022-11-15T13:45:53.062613669Z",
                "by_shard": {"0": "a"}, "weights": {"x": u64::MAX},
                "parent": "11111111111111111111111111111111", "tags": ["t"],
                "mode": "slow", "nested": {"depth": 3}
            }));
            assert_eq!(thing.height, u64::MAX);
            assert_eq!(thing.pair.1.as_str(), "bob.near");
            assert!(thing.parent.is_some());
            // An omitted field with a spec default stays None: the node's default applies.
            let minimal: Thing = round_trip(json!({
                "owner": "a.near", "height": 1, "pair": [1, "b.near"], "created": "t"
            }));
            assert_eq!(minimal.mode, None);
        }

        #[test]
        fn domain_types_validate() {
            let err = decode::<Thing>(json!({
                "owner": "NOT VALID", "height": 1, "pair": [1, "b.near"], "created": "t"
            }))
            .unwrap_err();
            assert!(err.contains("owner"), "{err}");
            let err = decode::<ThingRequest>(json!({"id": "not-base58-0OIl"})).unwrap_err();
            assert!(err.contains("id"), "{err}");
        }

        #[test]
        fn unknown_fields_are_ignored() {
            let request: ThingRequest =
                decode(json!({"id": "11111111111111111111111111111111", "new": 1})).unwrap();
            assert_eq!(request.limit, None);
        }

        #[test]
        fn adjacently_tagged_errors() {
            let e: ThingError = round_trip(
                json!({"name": "NO_THING", "info": {"id": "11111111111111111111111111111111"}}),
            );
            assert!(matches!(e, ThingError::NoThing { .. }));
            let e: ThingError = round_trip(json!({"name": "BUSY"}));
            assert_eq!(e, ThingError::Busy);
            let e: ThingError = round_trip(json!({"name": "NEW_KIND", "info": {"x": 1}}));
            assert!(matches!(e, ThingError::Unknown(_)));
            let err =
                decode::<ThingError>(json!({"name": "NO_THING", "info": {"id": 5}})).unwrap_err();
            assert!(
                err.contains("id"),
                "a known tag with a bad payload is an error: {err}"
            );
        }
    }

    mod enums {
        use super::*;
        use crate::enums::types::{ActRequest, ActResult, Action, Cause, Kind, Speed, Status};

        #[test]
        fn open_enums_keep_unknown_variants() {
            let result: ActResult = round_trip(json!({
                "actions": ["CreateAccount", {"Transfer": {"deposit": "1"}}, {"Stake": "Done"},
                            {"Pair": ["a", 1]}, {"DelegateV2": {"x": [1]}}, "Brand new"],
                "cause": {"type": "transaction_processing", "tx_hash": "h"},
                "status": "Archived",
                "kind": "Unknown"
            }));
            assert_eq!(result.actions[0], Action::CreateAccount);
            assert_eq!(
                result.actions[4],
                Action::Unknown(json!({"DelegateV2": {"x": [1]}}))
            );
            assert_eq!(result.actions[5], Action::Unknown(json!("Brand new")));
            assert_eq!(result.status, Status::Unknown(json!("Archived")));
            assert_eq!(
                result.cause,
                Cause::TransactionProcessing {
                    tx_hash: "h".into()
                }
            );
            // The protocol's own `Unknown` keeps its name; the catch-all is `Other`.
            assert_eq!(result.kind, Kind::Unknown);
            let other: Kind = round_trip(json!("Later"));
            assert_eq!(other, Kind::Other(json!("Later")));
        }

        #[test]
        fn known_tags_with_bad_payloads_are_errors_with_paths() {
            let err = decode::<ActResult>(json!({
                "actions": [{"Transfer": {"deposit": 1}}],
                "cause": {"type": "initial_state"}, "status": "Done", "kind": "Known"
            }))
            .unwrap_err();
            assert!(
                err.contains("actions[0]") && err.contains("deposit"),
                "{err}"
            );
            let err = decode::<Action>(json!({"Transfer": {}, "Stake": "Done"})).unwrap_err();
            assert!(err.contains("only one of the fields"), "{err}");
        }

        #[test]
        fn request_only_enums_are_closed() {
            let request: ActRequest = round_trip(json!({"speed": "FAST_AS_LIGHT"}));
            assert_eq!(request.speed, Speed::FastAsLight);
            assert!(decode::<ActRequest>(json!({"speed": "warp"})).is_err());
        }
    }

    mod flattened {
        use super::*;
        use crate::flattened::types::{
            AccountView, BlockReference, ByBlockRequest, ChunkRequest, Finality, LookupRequest,
            LookupRequestKind, QueryRequest, QueryRequestKind, ShapeResponse, ShapeResponseKind,
        };

        #[test]
        fn block_references_are_shared_and_flattened() {
            let r: ByBlockRequest = round_trip(json!({"account_id": "a", "finality": "final"}));
            assert_eq!(r.block_reference, BlockReference::Finality(Finality::Final));
            let r: ByBlockRequest = round_trip(json!({"account_id": "a", "block_id": 9}));
            assert_eq!(r.block_reference, BlockReference::BlockId(9));
        }

        #[test]
        fn cross_products_become_two_flattened_enums() {
            let q: QueryRequest = round_trip(
                json!({"request_type": "view_code", "account_id": "a", "finality": "optimistic"}),
            );
            assert_eq!(
                q.block_reference,
                BlockReference::Finality(Finality::Optimistic)
            );
            assert_eq!(
                q.kind,
                QueryRequestKind::ViewCode {
                    account_id: "a".into()
                }
            );
        }

        #[test]
        fn shapes_pick_the_variant_by_its_fields() {
            let c: ChunkRequest = round_trip(json!({"chunk_id": "c"}));
            assert_eq!(
                c,
                ChunkRequest::ChunkHash {
                    chunk_id: "c".into()
                }
            );
            let err = decode::<ChunkRequest>(json!({"block_id": 1})).unwrap_err();
            assert!(err.contains("{block_id, shard_id} or {chunk_id}"), "{err}");
            let err = decode::<ChunkRequest>(json!({"block_id": "x", "shard_id": 0})).unwrap_err();
            assert!(
                err.contains("block_id"),
                "a bad field is named, not 'no variant': {err}"
            );

            let l: LookupRequest = round_trip(json!({"tx_hash": "h", "sender_account_id": "s"}));
            assert!(matches!(
                l.kind,
                LookupRequestKind::TxHashSenderAccountId { .. }
            ));
            assert_eq!(l.wait, None);

            let s: ShapeResponse = round_trip(json!({"block_height": 1, "amount": "5"}));
            assert_eq!(
                s.kind,
                ShapeResponseKind::AccountView(AccountView { amount: "5".into() })
            );
            let s: ShapeResponse = round_trip(json!({"block_height": 1, "values": []}));
            assert_eq!(s.kind, ShapeResponseKind::Unknown(json!({"values": []})));
        }
    }

    mod nullable {
        use super::*;
        use crate::nullable::methods::HealthMethod;
        use crate::nullable::types::{HealthError, Maybe};
        use near_rpc::methods::RpcMethod;

        #[test]
        fn null_params_and_results() {
            assert_eq!(
                decode::<<HealthMethod as RpcMethod>::Params>(json!(null)),
                Ok(())
            );
            assert!(decode::<<HealthMethod as RpcMethod>::Params>(json!({})).is_err());
            let request = near_rpc::envelope::Request::new(HealthMethod::NAME, ());
            let body = serde_json::to_value(&request).unwrap();
            assert_eq!(body["params"], json!(null));
            assert_eq!(body["method"], json!("health"));
        }

        #[test]
        fn nullable_fields_are_options() {
            let m: Maybe = round_trip(json!({"count": null, "items": null}));
            assert_eq!((m.count, m.items, m.other), (None, None, None));
            // Required and nullable: `null` is fine, a missing key is not.
            let err = decode::<Maybe>(json!({"count": null})).unwrap_err();
            assert!(err.contains("items"), "{err}");
            let e: HealthError = round_trip(json!({"name": "NODE_IS_SYNCING", "info": {"maybe": {
                "count": 4, "items": ["a"], "other": "red"}}}));
            assert!(matches!(e, HealthError::NodeIsSyncing { .. }));
        }
    }

    mod openrpc {
        use super::*;
        use crate::openrpc::methods::{LookupMethod, PingMethod};
        use crate::openrpc::types::{LookupParams, ThingState};
        use near_rpc::methods::RpcMethod;

        const HASH: &str = "11111111111111111111111111111111";

        #[test]
        fn by_name_params_become_a_struct_with_optional_fields() {
            let params: LookupParams = round_trip(json!({"thing_id": HASH}));
            assert_eq!((params.finality, params.block_id), (None, None));
            let err = decode::<LookupParams>(json!({"finality": "final"})).unwrap_err();
            assert!(
                err.contains("thing_id"),
                "a required param is required: {err}"
            );
            let params: LookupParams =
                round_trip(json!({"thing_id": HASH, "block_id": 7, "finality": "final"}));
            assert_eq!(params.block_id, Some(near_rpc::BlockId::Height(7)));
            let body = LookupMethod::encode_request(1, &params);
            let sent: Value = serde_json::from_slice(&body.unwrap()).unwrap();
            assert_eq!(sent["method"], "lookup");
            assert_eq!(sent["params"]["thing_id"], HASH);
            // No params: `null`, as the OpenAPI document says for such methods.
            assert_eq!(
                decode::<<PingMethod as RpcMethod>::Params>(json!(null)),
                Ok(())
            );
        }

        #[test]
        fn const_arms_and_titled_arms_make_an_open_enum() {
            let state: ThingState = round_trip(json!("Idle"));
            assert_eq!(state, ThingState::Idle);
            let state: ThingState = round_trip(json!({"Busy": {"until": 9}}));
            assert_eq!(state, ThingState::Busy { until: 9 });
            let state: ThingState = round_trip(json!("Exploded"));
            assert_eq!(state, ThingState::Unknown(json!("Exploded")));
        }

        #[test]
        fn handler_errors_without_a_schema_are_kept_whole() {
            let body = br#"{"jsonrpc":"2.0","id":1,"error":{"name":"HANDLER_ERROR",
                "cause":{"name":"UNKNOWN_THING","info":{"thing_id":"h"}},
                "code":-32000,"message":"Server error"}}"#;
            let response = LookupMethod::decode_response(body).unwrap();
            let error = response.payload.unwrap_err();
            let near_rpc::envelope::ErrorCause::Handler(cause) = &error.cause else {
                panic!("a handler error: {error:?}");
            };
            assert_eq!(cause.name(), Some("UNKNOWN_THING"));
            assert_eq!(cause.info().unwrap()["thing_id"], "h");
        }
    }

    mod merged {
        use super::*;
        use crate::merged::methods::{CountThingsMethod, GetThingMethod, ALL};
        use crate::merged::types::ThingError;
        use near_rpc::methods::RpcMethod;

        const HASH: &str = "11111111111111111111111111111111";

        #[test]
        fn methods_come_from_either_document_and_errors_from_openapi() {
            assert_eq!(ALL, ["count_things", "get_thing"]);
            let e: <GetThingMethod as RpcMethod>::Error =
                round_trip(json!({"name": "NO_THING", "info": {"id": HASH}}));
            assert!(matches!(e, ThingError::NoThing { .. }));
            let e: <CountThingsMethod as RpcMethod>::Error =
                round_trip(json!({"name": "NO_OWNER", "info": null}));
            assert_eq!(e.name(), Some("NO_OWNER"));
            let params: <CountThingsMethod as RpcMethod>::Params = round_trip(json!({}));
            assert_eq!(params.owner, None);
        }
    }
}
