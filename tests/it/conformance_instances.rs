//! Schema-derived instances: for every schema of the bindings' spec (1.2.6 by default; the
//! chosen version with a version feature), instances generated from
//! its normalized schema (every arm, every enum value, optional properties present and
//! absent, `null` for nullable, boundary integers, valid domain strings) must decode with
//! the generated Rust type, re-encode to the same JSON, and the re-encoding must pass the
//! schema (JSON-schema draft 7, with range checks for the integer formats and base64
//! checks for `format: bytes`).

use crate::common;
use crate::conformance;
use crate::conformance::dispatch;

use std::collections::{BTreeMap, BTreeSet};

use conformance::{Gen, Universe, Validator};

/// The spec of the bindings under test.
const BASE_VERSION: &str = near_rpc::SPEC_VERSION;
use serde_json::Value;

/// Instances per schema, on top of one per arm or enum value of its root.
const INSTANCES: usize = 6;
/// A generated instance that fails its own schema (a `oneOf` whose arms overlap once
/// `additionalProperties: false` is dropped) is drawn again, up to this many times.
const REDRAWS: usize = 8;

/// Known failures: (schema, what). Each is reported in the final reply; the test prints
/// them and keeps passing while they fail the same way, and fails once they are fixed
/// so the entry gets removed.
const KNOWN_FAILURES: &[(&str, &str)] = &[];

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn dispatch_list_matches_the_spec() {
    let shared = common::shared_dir();
    let schemas = conformance::normalized_schemas(&shared, BASE_VERSION);
    let listed: BTreeSet<&str> = near_rpc::schemas::ALL.iter().copied().collect();
    let spec: BTreeSet<&str> = schemas.keys().map(String::as_str).collect();
    assert_eq!(
        listed, spec,
        "near_rpc::schemas::ALL is not the spec's schemas"
    );
    println!(
        "dispatch list: {} schemas, all with a Rust type",
        listed.len()
    );
    if BASE_VERSION == "1.2.6" {
        // 337 from the OpenAPI document, and the params of the two methods only the
        // OpenRPC document has.
        assert_eq!(listed.len(), 339);
    }
}

#[derive(Default)]
struct Counts {
    instances: usize,
    decoded: usize,
    valid: usize,
    identical: usize,
    redraws: usize,
    /// Empty optional arrays that re-encoding leaves out (same meaning, not the same text).
    empty_arrays_dropped: usize,
}

struct Run<'a> {
    gen: Gen<'a>,
    validator: &'a Validator,
    counts: Counts,
    failures: BTreeMap<String, Vec<String>>,
    unproducible: Vec<String>,
}

impl Run<'_> {
    /// Generates instance `k` of `name` and checks it; false if no valid instance came.
    fn check(&mut self, name: &str, k: usize) {
        self.gen.reseed(conformance::seed_of(name, k as u64));
        let mut drawn = None;
        let mut last_error = String::new();
        for _ in 0..REDRAWS {
            let (instance, _, _) = self.gen.instance(name);
            match self.validator.validate(name, &instance) {
                Ok(()) => {
                    drawn = Some(instance);
                    break;
                }
                Err(e) => {
                    self.counts.redraws += 1;
                    last_error = format!("{}: {e}", conformance::short(&instance));
                }
            }
        }
        let Some(instance) = drawn else {
            self.unproducible.push(format!("{name}: {last_error}"));
            return;
        };
        self.counts.instances += 1;
        let outcome = dispatch::round_trip(name, instance.clone())
            .unwrap_or_else(|| panic!("{name} is not in SCHEMA_TYPES"));
        let mut fail = |what: String| self.failures.entry(name.to_owned()).or_default().push(what);
        let encoded = match outcome {
            Ok(encoded) => encoded,
            Err(e) => return fail(format!("{e} <- {}", conformance::short(&instance))),
        };
        self.counts.decoded += 1;
        if let Err(e) = self.validator.validate(name, &encoded) {
            return fail(format!(
                "re-encoding fails the schema: {e} <- {}",
                conformance::short(&encoded)
            ));
        }
        self.counts.valid += 1;
        if let Some(d) = conformance::first_difference(&instance, &encoded, "") {
            return fail(format!("round trip differs at {d}"));
        }
        self.counts.identical += 1;
        let mut dropped = Vec::new();
        conformance::dropped_empty_arrays(&instance, &encoded, "", &mut dropped);
        self.counts.empty_arrays_dropped += dropped.len();
    }
}

/// Extra instances per schema while some of its choice points still miss an option.
const TOP_UP: usize = 400;

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn every_schema_round_trips_and_validates() {
    let shared = common::shared_dir();
    let schemas = conformance::normalized_schemas(&shared, BASE_VERSION);
    let validator = Validator::new(&schemas, BASE_VERSION);
    let universe = Universe::of(&schemas);
    let mut run = Run {
        gen: Gen::new(&schemas, 0),
        validator: &validator,
        counts: Counts::default(),
        failures: BTreeMap::new(),
        unproducible: Vec::new(),
    };
    for (name, schema) in &schemas {
        let width = ["oneOf", "anyOf", "enum"]
            .iter()
            .filter_map(|k| schema.get(*k).and_then(Value::as_array))
            .map(Vec::len)
            .max()
            .unwrap_or(0);
        let mut k = 0;
        while k < INSTANCES + width
            || (k < INSTANCES + width + TOP_UP && universe.pending(name, &run.gen.usage) > 0)
        {
            run.check(name, k);
            k += 1;
        }
    }
    let Run {
        gen,
        counts: total,
        failures,
        unproducible,
        ..
    } = run;
    let uncovered = universe.uncovered(&gen.usage);
    println!(
        "schema instances: {} schemas, {} instances, {} decoded, {} re-encodings valid, {} identical; {} redraws",
        schemas.len(),
        total.instances,
        total.decoded,
        total.valid,
        total.identical,
        total.redraws
    );
    println!(
        "empty optional arrays/maps left out by re-encoding (`default: []`/`{{}}`, same meaning): {}",
        total.empty_arrays_dropped
    );
    println!(
        "coverage: {} choice points, {} options, {} never chosen",
        universe.points.len(),
        universe.options(),
        uncovered.len()
    );
    for u in &uncovered {
        println!("  never chosen: {u}");
    }
    let failed: usize = failures.values().map(Vec::len).sum();
    println!(
        "mismatches: {failed} in {} schemas; instances the generator could not make valid: {}",
        failures.len(),
        unproducible.len()
    );
    for u in &unproducible {
        println!("  unproducible: {u}");
    }
    let known: BTreeSet<&str> = KNOWN_FAILURES.iter().map(|(s, _)| *s).collect();
    let mut unexpected = Vec::new();
    for (name, list) in &failures {
        let known_failure = known.contains(name.as_str());
        let tag = if known_failure {
            "KNOWN FAILURE"
        } else {
            "FAILURE"
        };
        println!("  {tag} {name}: {} of its instances", list.len());
        for f in list.iter().take(3) {
            println!("    {f}");
        }
        if !known_failure {
            unexpected.push(format!("{name}: {}", list[0]));
        }
    }
    let fixed: Vec<_> = known
        .iter()
        .filter(|k| !failures.contains_key(**k))
        .collect();
    assert!(
        total.instances > 2000,
        "too few instances: {}",
        total.instances
    );
    assert!(
        uncovered.is_empty(),
        "{} options never generated",
        uncovered.len()
    );
    assert!(
        unproducible.is_empty(),
        "{} instances could not be made valid",
        unproducible.len()
    );
    assert!(
        unexpected.is_empty(),
        "unexpected mismatches:\n{}",
        unexpected.join("\n")
    );
    assert!(
        fixed.is_empty(),
        "known failures that now pass (remove them): {fixed:?}"
    );
}

/// The harness itself: the generator produces the boundary values the suite claims, and
/// the validator, the decoder dispatch and the comparison each catch a bad value.
#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn harness_catches_bad_values() {
    use serde_json::json;
    let shared = common::shared_dir();
    let schemas = conformance::normalized_schemas(&shared, BASE_VERSION);
    let validator = Validator::new(&schemas, BASE_VERSION);
    let mut gen = Gen::new(&schemas, 7);

    // Boundaries and domain forms show up in generated instances.
    let mut seen = String::new();
    for k in 0..40 {
        gen.reseed(k);
        for name in [
            "AccountView",
            "BlockHeaderView",
            "AccessKeyView",
            "SignedTransactionView",
        ] {
            seen.push_str(&gen.instance(name).0.to_string());
        }
    }
    for needle in [
        "\"340282366920938463463374607431768211455\"", // u128::MAX yoctoNEAR
        "18446744073709551615",                        // u64::MAX
        "\"11111111111111111111111111111111\"",        // CryptoHash of 32 zero bytes
        "\"ed25519:",
        "\"secp256k1:",
        ":null",
    ] {
        assert!(seen.contains(needle), "no {needle} in generated instances");
    }

    // The validator checks types, integer formats and base64.
    let account = gen.instance("AccountView").0;
    validator
        .validate("AccountView", &account)
        .expect("generated AccountView is valid");
    let mut bad = account.clone();
    bad["storage_usage"] = json!(-1);
    assert!(
        validator.validate("AccountView", &bad).is_err(),
        "negative uint64 accepted"
    );
    bad["storage_usage"] = json!(1.5);
    assert!(
        validator.validate("AccountView", &bad).is_err(),
        "fraction accepted"
    );
    assert!(validator
        .validate("ActionErrorKind", &json!({"ActorNoPermission": {}}))
        .is_err());
    assert!(validator
        .validate("FunctionArgs", &json!("not base64!"))
        .is_err());
    assert!(validator.validate("FunctionArgs", &json!("aGk=")).is_ok());

    // Decoding with the generated type rejects what the domain types reject.
    for (schema, value) in [
        ("CryptoHash", json!("0OIl")),
        ("AccountId", json!("Alice.near")),
        ("PublicKey", json!("ed25519:abc")),
        ("NearToken", json!("-1")),
        ("AccountView", bad),
    ] {
        let result = dispatch::round_trip(schema, value.clone()).expect("listed");
        assert!(
            matches!(result, Err(conformance::Failure::Decode(_))),
            "{schema} {value}: {result:?}"
        );
    }
    assert!(dispatch::round_trip("NoSuchSchema", json!(null)).is_none());

    // The comparison sees changed, dropped and added values, but not null vs absent.
    let a = json!({"x": 1, "y": [1, 2], "z": null});
    assert_eq!(
        conformance::first_difference(&a, &json!({"x": 1, "y": [1, 2]}), ""),
        None
    );
    assert_eq!(
        conformance::first_difference(&a, &json!({"x": 1.0, "y": [1, 2]}), ""),
        None
    );
    assert!(conformance::first_difference(&a, &json!({"x": 2, "y": [1, 2]}), "").is_some());
    assert!(conformance::first_difference(&a, &json!({"y": [1, 2]}), "").is_some());
    assert!(conformance::first_difference(&a, &json!({"x": 1, "y": [1, 2], "w": 0}), "").is_some());
    assert!(conformance::first_difference(&a, &json!({"x": 1, "y": [2, 1]}), "").is_some());
    println!("harness: boundaries generated; validator, decoder and comparison catch bad values");
}

/// What the bindings keep whole in a response of a method they decode.
struct KeptWhole(Vec<u8>);

impl near_rpc::methods::MethodVisitor for KeptWhole {
    type Output = Result<Vec<String>, String>;
    fn visit<M: near_rpc::methods::RpcMethod>(self) -> Self::Output {
        near_rpc::decode::from_slice_reporting::<
            near_rpc::envelope::Response<M::Result, near_rpc::types::SpecErrorWrapper<M::Error>>,
        >(&self.0)
        .map(|(_, unrecognized)| unrecognized.variants)
        .map_err(|e| e.to_string())
    }
}

/// Every method's responses, generated from the spec of the bindings (the document
/// derived from nearcore 0.38 with `latest`): results and errors alike decode typed, with
/// no variant kept whole, so no handler-error cause (`TIMEOUT_ERROR`'s included) is left
/// as JSON.
#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn every_response_decodes_with_nothing_kept_whole() {
    let shared = common::shared_dir();
    let schemas = conformance::normalized_schemas(&shared, BASE_VERSION);
    let document: Value =
        serde_json::from_slice(&std::fs::read(common::spec_path(&shared, BASE_VERSION)).unwrap())
            .unwrap();
    let mut gen = Gen::new(&schemas, 11);
    let (mut decoded, mut errors) = (0, 0);
    let mut failures = Vec::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        let method = path.trim_start_matches('/');
        let envelope = item["post"]["responses"]["200"]["content"]["application/json"]["schema"]
            ["$ref"]
            .as_str()
            .and_then(|r| r.rsplit('/').next())
            .unwrap();
        for k in 0..INSTANCES * 4 {
            gen.reseed(conformance::seed_of(method, k as u64));
            let (instance, _, _) = gen.instance(envelope);
            errors += usize::from(instance.get("error").is_some());
            let bytes = serde_json::to_vec(&instance).unwrap();
            match near_rpc::methods::visit(method, KeptWhole(bytes)) {
                Some(Ok(kept)) if kept.is_empty() => decoded += 1,
                Some(Ok(kept)) => {
                    failures.push(format!("{method}: kept whole at {kept:?}: {instance}"))
                }
                Some(Err(e)) => failures.push(format!("{method}: {e}: {instance}")),
                None => failures.push(format!("{method}: not in methods::ALL")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        errors > 0 && decoded > errors,
        "{decoded} decoded, {errors} of them errors"
    );
    println!("{decoded} generated responses decoded typed ({errors} errors)");
}
