//! Requests for all 38 methods: typed params built from generated instances of each
//! method's params schema, wrapped with `Request::new(M::NAME, params)`, must serialize
//! to a body that passes the method's `JsonRpcRequest_for_<method>` schema and carries
//! the params unchanged.

use crate::common;
use crate::conformance;

use std::collections::BTreeSet;

use conformance::{Gen, Universe, Validator, BASE_VERSION};
use near_rpc::decode;
use near_rpc::envelope::Request;
use near_rpc::methods::{self, MethodVisitor, RpcMethod};
use serde_json::Value;

/// Instances per method, on top of one per arm or enum value of the params schema, and
/// more while some choice point of the params schema misses an option.
const INSTANCES: usize = 8;
const TOP_UP: usize = 800;

/// What building a request from one params instance gave.
struct Built {
    /// The serialized request, or why there is none.
    request: Result<Value, String>,
    /// Whether strict decoding (the one used for user input) accepts the instance.
    strict: Result<(), String>,
}

struct BuildRequests(Vec<Value>);

impl MethodVisitor for BuildRequests {
    type Output = Vec<Built>;
    fn visit<M: RpcMethod>(self) -> Vec<Built> {
        self.0
            .into_iter()
            .map(|instance| {
                let strict = decode::from_value_strict::<M::Params>(instance.clone())
                    .map(|_| ())
                    .map_err(|e| e.to_string());
                let request = decode::from_value::<M::Params>(instance)
                    .map_err(|e| format!("params decode: {e}"))
                    .and_then(|params| {
                        serde_json::to_value(Request::new(M::NAME, params))
                            .map_err(|e| format!("encode: {e}"))
                    });
                Built { request, strict }
            })
            .collect()
    }
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn requests_for_every_method_pass_their_schema() {
    let shared = common::shared_dir();
    let schemas = conformance::normalized_schemas(&shared, BASE_VERSION);
    let validator = Validator::new(&schemas, BASE_VERSION);
    let universe = Universe::of(&schemas);
    let mut gen = Gen::new(&schemas, 1);

    // The methods as the generator read them: the OpenAPI document's, plus those only the
    // OpenRPC document has (1.2.6 merges both), whose params it names `…Params`.
    let sources = conformance::method_sources(&shared, BASE_VERSION);
    let spec_methods: BTreeSet<&str> = sources.keys().map(String::as_str).collect();
    let ours: BTreeSet<&str> = methods::ALL.iter().copied().collect();
    // Built for another version, the bindings lack what only 1.2.6's OpenRPC adds.
    if near_rpc::SPEC_VERSION == BASE_VERSION {
        assert_eq!(spec_methods, ours, "methods::ALL vs the spec's methods");
    } else {
        // Another version's bindings: its own document's methods (checked against
        // 1.2.6's schemas below where 1.2.6 has them).
        let built = common::shipped_api(&shared, near_rpc::SPEC_VERSION);
        let built: BTreeSet<&str> = built.methods.keys().map(String::as_str).collect();
        assert_eq!(ours, built, "methods::ALL vs the spec's methods");
    }
    let with_envelope = schemas
        .keys()
        .filter(|k| k.starts_with("JsonRpcRequest_for_"))
        .count();
    assert_eq!(with_envelope, 38);
    assert!(ours.len() >= 38);

    let mut failures = Vec::new();
    let (mut total, mut valid, mut strict_ok) = (0, 0, 0);
    println!("method: instances / requests valid / params kept / strict decode accepts");
    // The methods 1.2.6 has (a newer version's own are not in its schemas).
    for method in methods::ALL.iter().filter(|m| sources.contains_key(**m)) {
        // The whole request is checked against the OpenAPI envelope where there is one;
        // an OpenRPC-only method's params against its params schema.
        let request_schema =
            Some(format!("JsonRpcRequest_for_{method}")).filter(|name| schemas.contains_key(name));
        let params_schema = conformance::ref_name(&sources[*method].params)
            .unwrap_or_else(|| panic!("{method}: params is not a $ref"))
            .to_owned();
        let width = ["oneOf", "anyOf", "enum"]
            .iter()
            .filter_map(|k| schemas[&params_schema].get(*k).and_then(Value::as_array))
            .map(Vec::len)
            .max()
            .unwrap_or(0);
        let mut instances = Vec::new();
        while instances.len() < INSTANCES + width
            || (instances.len() < INSTANCES + width + TOP_UP
                && universe.pending(&params_schema, &gen.usage) > 0)
        {
            gen.reseed(conformance::seed_of(method, instances.len() as u64));
            let (instance, _, _) = gen.instance(&params_schema);
            validator
                .validate(&params_schema, &instance)
                .unwrap_or_else(|e| panic!("generated {params_schema} is invalid: {e}"));
            instances.push(instance);
        }
        for u in universe.uncovered_in(&params_schema, &gen.usage) {
            failures.push(format!("{method}: never generated: {u}"));
        }
        let built = methods::visit(method, BuildRequests(instances.clone()))
            .unwrap_or_else(|| panic!("methods::visit does not know {method}"));
        let (mut m_valid, mut m_kept, mut m_strict) = (0, 0, 0);
        for (instance, built) in instances.iter().zip(built) {
            total += 1;
            match &built.strict {
                Ok(()) => m_strict += 1,
                Err(e) => failures.push(format!(
                    "{method}: strict decoding rejects a valid instance: {e} <- {}",
                    conformance::short(instance)
                )),
            }
            let request = match built.request {
                Ok(request) => request,
                Err(e) => {
                    failures.push(format!("{method}: {e} <- {}", conformance::short(instance)));
                    continue;
                }
            };
            let checked = match &request_schema {
                Some(envelope) => validator.validate(envelope, &request),
                None => validator.validate(&params_schema, &request["params"]),
            };
            match checked {
                Ok(()) => m_valid += 1,
                Err(e) => failures.push(format!(
                    "{method}: request fails {}: {e} <- {}",
                    request_schema.as_deref().unwrap_or(&params_schema),
                    conformance::short(&request)
                )),
            }
            assert_eq!(request["method"], Value::from(*method));
            assert_eq!(request["jsonrpc"], "2.0");
            match conformance::first_difference(instance, &request["params"], "/params") {
                None => m_kept += 1,
                Some(d) => failures.push(format!("{method}: params changed at {d}")),
            }
        }
        println!(
            "  {method}: {} / {m_valid} / {m_kept} / {m_strict}",
            instances.len()
        );
        valid += m_valid;
        strict_ok += m_strict;
    }
    println!(
        "requests: {} methods, {total} requests, {valid} valid, {strict_ok} accepted by strict decoding, {} failures",
        ours.len(),
        failures.len()
    );
    for f in &failures {
        println!("  FAILURE {f}");
    }
    assert!(total >= 38 * INSTANCES, "too few requests: {total}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
