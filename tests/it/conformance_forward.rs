//! Forward compatibility per spec version: instances generated from the schemas of
//! 1.2.7 to 1.2.11 (every schema that 1.2.6 also has) must decode with the 1.2.6 types.
//! A variant 1.2.6 does not know must land in the open enum's `Unknown`/`Other` and come
//! back byte-identical; a field 1.2.6 does not know is ignored; everything 1.2.6 knows
//! re-encodes unchanged (the instance minus the unknown fields).
//!
//! The generator walks the 1.2.6 schema alongside the later one, so it knows which parts
//! are new. Where the later spec makes a change the 1.2.6 types cannot absorb (a field
//! that 1.2.6 requires is gone, a value no longer fits the 1.2.6 type, a new variant of
//! an enum that 1.2.6 only ever sends and keeps closed), the instance is counted apart:
//! it must then fail with a clear `DecodeError` or decode, never panic.

use crate::common;
use crate::conformance;
use crate::conformance::dispatch;

use std::collections::{BTreeMap, BTreeSet};

use conformance::{Failure, Gen, Universe, Validator, BASE_VERSION};
use near_rpc_codegen::diff::{self, Severity};
use serde_json::Value;

const LATER_VERSIONS: [&str; 5] = ["1.2.7", "1.2.8", "1.2.9", "1.2.10", "1.2.11"];
/// Instances per schema, on top of one per arm or enum value of its root, and more while
/// some structural choice of the later schema (arm, enum value, optional property, null)
/// was never made.
const INSTANCES: usize = 3;
const TOP_UP: usize = 600;
const REDRAWS: usize = 8;

/// Known failures: (version, schema). Empty: none are known.
const KNOWN_FAILURES: &[(&str, &str)] = &[];

#[derive(Default, Debug)]
struct Counts {
    instances: usize,
    decoded: usize,
    unknown_kept: usize,
    fields_ignored: usize,
    breaking: usize,
    breaking_rejected: usize,
    mismatches: usize,
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn later_versions_decode_with_the_126_types() {
    let shared = common::shared_dir();
    let base = conformance::normalized_schemas(&shared, BASE_VERSION);
    let base_api = conformance::api(&shared, BASE_VERSION);
    let known: BTreeSet<(&str, &str)> = KNOWN_FAILURES.iter().copied().collect();
    let mut unexpected = Vec::new();
    let mut known_seen = BTreeSet::new();
    for version in LATER_VERSIONS {
        let later = conformance::normalized_schemas(&shared, version);
        let later_api = conformance::api(&shared, version);
        let validator = Validator::new(&later, version);
        let universe = Universe::of(&later);
        let mut gen = Gen::with_old(&later, &base, &base_api, 2);
        let mut counts = Counts::default();
        let mut failures: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut breaking_kinds: BTreeSet<String> = BTreeSet::new();
        // (1.2.6 schema, variant wire name) and (1.2.6 schema, field) met in instances.
        let mut variants_kept: BTreeSet<(String, String)> = BTreeSet::new();
        let mut fields_seen: BTreeSet<(String, String)> = BTreeSet::new();
        let shared_names: Vec<&String> = later.keys().filter(|n| base.contains_key(*n)).collect();
        for name in &shared_names {
            let name = name.as_str();
            let width = ["oneOf", "anyOf", "enum"]
                .iter()
                .filter_map(|k| later[name].get(*k).and_then(Value::as_array))
                .map(Vec::len)
                .max()
                .unwrap_or(0);
            let mut k = 0;
            while k < INSTANCES + width
                || (k < INSTANCES + width + TOP_UP
                    && !universe.uncovered_structure_in(name, &gen.usage).is_empty())
            {
                gen.reseed(conformance::seed_of(name, 1000 + k as u64));
                k += 1;
                let mut drawn = None;
                for _ in 0..REDRAWS {
                    let candidate = gen.instance(name);
                    if validator.validate(name, &candidate.0).is_ok() {
                        drawn = Some(candidate);
                        break;
                    }
                }
                let (instance, expected, notes) =
                    drawn.unwrap_or_else(|| panic!("{version} {name}: no valid instance"));
                counts.instances += 1;
                let outcome = dispatch::round_trip(name, instance.clone())
                    .unwrap_or_else(|| panic!("{name} is not in SCHEMA_TYPES"));
                if !notes.breaking.is_empty() {
                    counts.breaking += 1;
                    for b in &notes.breaking {
                        // "pointer: what" -> what, without instance-specific values.
                        let what = b.split_once(": ").map_or(b.as_str(), |(_, w)| w);
                        breaking_kinds.insert(format!("{name}: {}", strip_values(what)));
                    }
                    match outcome {
                        Ok(_) => counts.decoded += 1,
                        Err(Failure::Decode(e)) if !e.message().is_empty() => {
                            counts.breaking_rejected += 1
                        }
                        Err(e) => failures
                            .entry(name.to_owned())
                            .or_default()
                            .push(format!("spec-breaking instance failed unclearly: {e}")),
                    }
                    continue;
                }
                let encoded = match outcome {
                    Ok(encoded) => encoded,
                    Err(e) => {
                        failures
                            .entry(name.to_owned())
                            .or_default()
                            .push(format!("{e} <- {}", conformance::short(&instance)));
                        continue;
                    }
                };
                counts.decoded += 1;
                counts.fields_ignored += notes.ignored_fields.len();
                for spot in &notes.ignored_fields {
                    fields_seen.insert((spot.owner.clone(), spot.name.clone()));
                }
                if let Some(d) = conformance::first_difference(&expected, &encoded, "") {
                    failures.entry(name.to_owned()).or_default().push(format!(
                        "re-encoding differs from the instance minus unknown fields at {d} <- {}",
                        conformance::short(&instance)
                    ));
                    continue;
                }
                let mut kept_ok = true;
                for spot in &notes.unknown_variants {
                    let inside = |p: &str| p.starts_with(&format!("{}/", spot.pointer));
                    if notes.ignored_fields.iter().any(|f| inside(&f.pointer)) {
                        continue;
                    }
                    let sent = instance.pointer(&spot.pointer).map(Value::to_string);
                    let back = encoded.pointer(&spot.pointer).map(Value::to_string);
                    if sent.is_some() && sent == back {
                        counts.unknown_kept += 1;
                        variants_kept.insert((spot.owner.clone(), spot.name.clone()));
                    } else {
                        kept_ok = false;
                        failures.entry(name.to_owned()).or_default().push(format!(
                            "unknown variant {} at {} came back as {back:?}, sent {sent:?}",
                            spot.name, spot.pointer
                        ));
                    }
                }
                if !kept_ok {
                    continue;
                }
            }
        }
        for name in shared_names {
            // Leaf values (integer bounds, string forms) are covered against 1.2.6 in
            // conformance_instances.rs; here every arm, enum value, optional property and
            // `null` of the later schema must have been generated.
            for u in universe.uncovered_structure_in(name, &gen.usage) {
                failures
                    .entry(name.clone())
                    .or_default()
                    .push(format!("never generated: {u}"));
            }
        }

        // Cross-check with the API diff: every variant it says 1.2.6 decodes as Unknown,
        // and every field it says was added, must have been met in the instances above.
        let api_diff = diff::diff(&base_api, &later_api);
        for change in &api_diff.changes {
            let seen = match (change.severity, change.item) {
                (Severity::Additive, "variant") => {
                    let (ty, variant) = change.name.split_once("::").unwrap_or_default();
                    variants_kept.iter().any(|(owner, wire)| {
                        near_rpc_codegen::ir::rust_type_name(owner) == ty
                            && near_rpc_codegen::ir::rust_type_name(wire) == variant
                    })
                }
                (Severity::Additive, "field") => {
                    let (ty, field) = change.name.split_once('.').unwrap_or_default();
                    fields_seen.iter().any(|(owner, key)| {
                        ty.starts_with(&near_rpc_codegen::ir::rust_type_name(owner))
                            && near_rpc_codegen::ir::rust_field_name(key) == field
                    })
                }
                _ => continue,
            };
            if !seen {
                failures
                    .entry("(api diff)".into())
                    .or_default()
                    .push(format!(
                        "{} {}: never met in an instance",
                        change.item, change.name
                    ));
            }
        }

        counts.mismatches = failures.values().map(Vec::len).sum();
        println!(
            "{version}: {} schemas shared with 1.2.6, {} instances, {} decoded, {} unknown variants kept \
             ({} distinct), {} fields ignored ({} distinct), {} hit a spec-breaking change ({} rejected \
             with a DecodeError), {} mismatches",
            later.keys().filter(|n| base.contains_key(*n)).count(),
            counts.instances,
            counts.decoded,
            counts.unknown_kept,
            variants_kept.len(),
            counts.fields_ignored,
            fields_seen.len(),
            counts.breaking,
            counts.breaking_rejected,
            counts.mismatches
        );
        for kind in &breaking_kinds {
            println!("  spec-breaking: {kind}");
        }
        for (name, list) in &failures {
            let is_known = known.contains(&(version, name.as_str()));
            let tag = if is_known { "KNOWN FAILURE" } else { "FAILURE" };
            println!("  {tag} {version} {name}: {}", list.len());
            for f in list.iter().take(3) {
                println!("    {f}");
            }
            if is_known {
                known_seen.insert((version, name.clone()));
            } else {
                unexpected.push(format!("{version} {name}: {}", list[0]));
            }
        }
        assert!(counts.instances > 1000, "{version}: too few instances");
    }
    let fixed: Vec<_> = known
        .iter()
        .filter(|(v, n)| !known_seen.contains(&(*v, (*n).to_owned())))
        .collect();
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
    assert!(
        fixed.is_empty(),
        "known failures that now pass (remove them): {fixed:?}"
    );
}

/// A breaking note without the instance's values (so that notes group by kind).
fn strip_values(what: &str) -> String {
    match what.split_once(" does not fit") {
        Some((_, rest)) => format!("a value that does not fit{rest}"),
        None => what.to_owned(),
    }
}

/// The walker on a small synthetic pair of versions: a new field is ignored, a removed
/// required field, a value that no longer fits and a new variant of a closed enum are
/// breaking, and what 1.2.6 should re-encode leaves the new field out.
#[test]
fn walker_classifies_synthetic_changes() {
    use serde_json::json;
    let mut old = json!({
        "S": {"type": "object", "required": ["a", "b", "e"], "properties": {
            "a": {"type": "integer", "format": "uint8", "minimum": 0},
            "b": {"type": "string"},
            "e": {"$ref": "#/components/schemas/E"}}},
        "E": {"type": "string", "enum": ["X", "Y"]}
    });
    let mut new = json!({
        "S": {"type": "object", "required": ["a", "c", "e"], "properties": {
            "a": {"type": "integer", "format": "uint16", "minimum": 0},
            "c": {"type": "string"},
            "e": {"$ref": "#/components/schemas/E"}}},
        "E": {"type": "string", "enum": ["X", "Y", "Z"]}
    });
    for doc in [&mut old, &mut new] {
        for schema in doc.as_object_mut().unwrap().values_mut() {
            near_rpc_codegen::normalize::normalize_schema(schema);
        }
    }
    let old = old.as_object().unwrap().clone();
    let new = new.as_object().unwrap().clone();
    let spec = near_rpc_codegen::load::Spec {
        version: "0".into(),
        documents: Vec::new(),
        schemas: old.clone(),
        methods: Default::default(),
        response_roots: Default::default(),
        envelopes: Default::default(),
    };
    let old_api = near_rpc_codegen::ir::build(&spec).expect("IR");
    let mut gen = Gen::with_old(&new, &old, &old_api, 3);
    let (mut ignored, mut removed, mut no_fit, mut closed) = (0, 0, 0, 0);
    for k in 0..24 {
        gen.reseed(k);
        let (instance, expected, notes) = gen.instance("S");
        assert!(instance.get("c").is_some() && expected.get("c").is_none());
        assert_eq!(expected.get("a"), instance.get("a"));
        ignored += notes
            .ignored_fields
            .iter()
            .filter(|f| f.name == "c")
            .count();
        for b in &notes.breaking {
            removed += usize::from(b.contains("`b` is required in 1.2.6 but absent"));
            no_fit += usize::from(b.contains("does not fit"));
            closed += usize::from(b.contains("new variant Z of E, which is closed"));
        }
    }
    println!(
        "synthetic: {ignored} ignored, {removed} removed, {no_fit} not fitting, {closed} closed"
    );
    assert_eq!((ignored, removed), (24, 24));
    assert!(no_fit > 0 && closed > 0, "{no_fit} {closed}");
}
