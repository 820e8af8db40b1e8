//! Shared machinery of the conformance suites (`tests/it/conformance_*.rs`):
//!
//! - the normalized schemas of a spec version, as the generator sees them;
//! - a seeded PRNG (no `rand`), so every run generates the same instances;
//! - an instance generator that walks a schema and covers every `oneOf`/`anyOf` arm,
//!   every enum value, optional properties present and absent, `null` for nullable,
//!   boundary integers and strings valid for the domain types. It can walk a later
//!   spec version alongside 1.2.6, and then also builds what the 1.2.6 bindings should
//!   re-encode (new fields dropped, new variants kept verbatim);
//! - a JSON-schema validator (boon, draft 7) over the normalized components;
//! - JSON comparison, and decoding that turns a panic into an error.
//!
//! The dispatch from schema name to generated Rust type is `dispatch.rs` beside this file.

#![allow(dead_code)]

/// Schema name to generated type (337 decoders, compiled once for the whole binary).
pub mod dispatch;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::panic::AssertUnwindSafe;
use std::path::Path;

use base64::Engine as _;
use near_rpc::decode::DecodeError;
use near_rpc_codegen::ir::{self, Api, Kind};
use serde_json::{json, Map, Value};

pub const BASE_VERSION: &str = "1.2.6";
pub const REF_PREFIX: &str = "#/components/schemas/";

// ---------------------------------------------------------------------------------------
// Spec loading
// ---------------------------------------------------------------------------------------

/// The normalized schemas of a spec version: our patches applied, OpenAPI `nullable`
/// rewritten to JSON schema, `additionalProperties: false` dropped (exactly what the
/// generator builds the bindings from).
pub fn normalized_schemas(shared: &Path, version: &str) -> Map<String, Value> {
    let mut spec = crate::common::load_shipped(shared, version);
    near_rpc_codegen::normalize::normalize(&mut spec)
        .unwrap_or_else(|e| panic!("spec {version}: {e}"));
    spec.schemas
}

/// Every method of a spec version as the generator read it (params, result and error
/// schemas, normalized).
pub fn method_sources(
    shared: &Path,
    version: &str,
) -> BTreeMap<String, near_rpc_codegen::load::MethodSource> {
    let mut spec = crate::common::load_shipped(shared, version);
    near_rpc_codegen::normalize::normalize(&mut spec)
        .unwrap_or_else(|e| panic!("spec {version}: {e}"));
    spec.methods
}

/// The IR of a spec version.
pub fn api(shared: &Path, version: &str) -> Api {
    crate::common::shipped_api(shared, version)
}

pub fn ref_name(schema: &Value) -> Option<&str> {
    schema.get("$ref")?.as_str()?.strip_prefix(REF_PREFIX)
}

fn alternatives(schema: &Value) -> Option<&Vec<Value>> {
    schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)
}

/// The part of `{"allOf": [part]}` with nothing beside it but docs.
fn single_all_of(schema: &Value) -> Option<&Value> {
    if ["properties", "oneOf", "anyOf", "required"]
        .iter()
        .any(|k| schema.get(*k).is_some())
    {
        return None;
    }
    match schema
        .get("allOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    {
        Some([single]) => Some(single),
        _ => None,
    }
}

fn types_of(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn is_null_schema(schema: &Value) -> bool {
    types_of(schema) == ["null"]
}

/// Escapes one JSON pointer token.
pub fn pointer_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

// ---------------------------------------------------------------------------------------
// PRNG
// ---------------------------------------------------------------------------------------

/// splitmix64: small, seeded, good enough to vary instances.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i128, hi: i128) -> i128 {
        let span = (hi - lo) as u128;
        if span == u128::MAX {
            return lo.wrapping_add(self.u128() as i128);
        }
        lo + (self.u128() % (span + 1)) as i128
    }

    pub fn u128(&mut self) -> u128 {
        (u128::from(self.next_u64()) << 64) | u128::from(self.next_u64())
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
}

/// A stable seed from a name (FNV-1a), so each schema's instances don't depend on the
/// order the schemas are visited in.
pub fn seed_of(name: &str, salt: u64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ salt;
    for b in name.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

// ---------------------------------------------------------------------------------------
// Domain values
// ---------------------------------------------------------------------------------------

/// Schemas whose Rust type is a hand-written string type that checks its content: the
/// spec only says `string`, so the generator must produce values of the domain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    AccountId,
    CryptoHash,
    PublicKey,
    Signature,
    NearToken,
}

impl Domain {
    pub fn of(schema_name: &str) -> Option<Domain> {
        Some(match schema_name {
            "AccountId" => Domain::AccountId,
            "CryptoHash" => Domain::CryptoHash,
            "PublicKey" => Domain::PublicKey,
            "Signature" => Domain::Signature,
            "NearToken" => Domain::NearToken,
            _ => return None,
        })
    }

    /// How many forms the generator cycles through.
    pub fn forms(self) -> usize {
        match self {
            Domain::AccountId => 7,
            Domain::CryptoHash => 3,
            Domain::PublicKey => 3,
            Domain::Signature => 2,
            Domain::NearToken => 4,
        }
    }

    pub fn value(self, form: usize, rng: &mut Rng) -> String {
        let b58 = |bytes: Vec<u8>| bs58::encode(bytes).into_string();
        match (self, form) {
            (Domain::AccountId, 0) => random_account(rng),
            (Domain::AccountId, 1) => hex(&rng.bytes(32)), // NEAR-implicit
            (Domain::AccountId, 2) => format!("0x{}", hex(&rng.bytes(20))), // ETH-implicit
            (Domain::AccountId, 3) => "aa".into(),         // shortest
            (Domain::AccountId, 4) => {
                // longest (64), with every separator
                let mut s = String::from("a-b_c.d");
                while s.len() < 64 {
                    s.push(char::from(b'a' + rng.below(26) as u8));
                }
                s
            }
            (Domain::AccountId, 5) => "near".into(),
            (Domain::AccountId, _) => "alice.near".into(),
            (Domain::CryptoHash, 0) => b58(vec![0; 32]),
            (Domain::CryptoHash, 1) => b58(vec![0xff; 32]),
            (Domain::CryptoHash, _) => b58(rng.bytes(32)),
            (Domain::PublicKey, 0) => format!("ed25519:{}", b58(rng.bytes(32))),
            (Domain::PublicKey, 1) => format!("ed25519:{}", b58(vec![0; 32])),
            (Domain::PublicKey, _) => format!("secp256k1:{}", b58(rng.bytes(64))),
            (Domain::Signature, 0) => format!("ed25519:{}", b58(rng.bytes(64))),
            (Domain::Signature, _) => format!("secp256k1:{}", b58(rng.bytes(65))),
            (Domain::NearToken, 0) => "0".into(),
            (Domain::NearToken, 1) => u128::MAX.to_string(),
            (Domain::NearToken, 2) => "1".into(),
            (Domain::NearToken, _) => rng.u128().to_string(),
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A valid named account id: 1 to 3 parts of `[a-z0-9]`, joined by `.`, `-` or `_`.
fn random_account(rng: &mut Rng) -> String {
    const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut s = String::new();
    for i in 0..=rng.below(3) {
        if i > 0 {
            s.push(['.', '-', '_'][rng.below(3)]);
        }
        for _ in 0..=rng.below(6) {
            s.push(char::from(CHARS[rng.below(CHARS.len())]));
        }
    }
    if s.len() < 2 {
        s.push('0');
    }
    s
}

// ---------------------------------------------------------------------------------------
// Instance generator
// ---------------------------------------------------------------------------------------

/// Kinds of choice points; coverage is counted per (schema node, kind, option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Choice {
    /// Which `oneOf`/`anyOf` arm.
    Arm,
    /// Which `enum` value.
    Enum,
    /// `null` or a value, for `type: [T, "null"]`.
    Null,
    /// An optional property absent or present.
    Optional,
    /// Integer: minimum, maximum, random, small.
    Int,
    Bool,
    /// Number: 0, fraction, large.
    Number,
    /// String: empty, plain, with escapes and non-ASCII (or base64 of 0, few, many bytes).
    Str,
    /// Array or map: as few items as allowed, or more.
    Items,
    /// The form of a domain value (see [`Domain::value`]).
    Domain,
}

impl Choice {
    pub fn options_note(self) -> &'static str {
        match self {
            Choice::Arm => "arm",
            Choice::Enum => "enum value",
            Choice::Null => "0 = value, 1 = null",
            Choice::Optional => "0 = absent, 1 = present",
            Choice::Int => "0 = min, 1 = max, 2 = random, 3 = small",
            Choice::Bool => "0 = false, 1 = true",
            Choice::Number => "0 = zero, 1 = fraction, 2 = large",
            Choice::Str => "0 = empty, 1 = plain, 2 = escapes",
            Choice::Items => "0 = fewest, 1 = more",
            Choice::Domain => "domain form",
        }
    }
}

/// What a generated instance meets in the 1.2.6 schema when generated from a later one.
#[derive(Debug, Default, Clone)]
pub struct Notes {
    /// Values holding a variant 1.2.6 does not know, in an open enum.
    pub unknown_variants: Vec<Spot>,
    /// Fields 1.2.6 does not know.
    pub ignored_fields: Vec<Spot>,
    /// Changes the 1.2.6 bindings can't be expected to absorb (a required field removed,
    /// a type changed, a new variant of a closed enum), with where.
    pub breaking: Vec<String>,
}

/// A place in an instance: its JSON pointer, the enclosing named 1.2.6 schema, and the
/// variant's wire name or the field's name.
#[derive(Debug, Clone)]
pub struct Spot {
    pub pointer: String,
    pub owner: String,
    pub name: String,
}

/// The usage counts of every choice point met so far, keyed by the address of its schema
/// node (the schemas are never mutated while a generator lives).
pub type Usage = HashMap<(usize, Choice), Vec<u32>>;

pub const MAX_DEPTH: usize = 60;
/// Below this depth optional properties are left out and arrays are as short as allowed,
/// so that instances stay small; every node is also reached near the top from its own
/// named schema, so coverage does not suffer.
pub const SHALLOW: usize = 6;

pub struct Gen<'a> {
    schemas: &'a Map<String, Value>,
    /// For forward compatibility: the 1.2.6 schemas and IR walked alongside.
    old: Option<(&'a Map<String, Value>, &'a Api)>,
    pub rng: Rng,
    pub usage: Usage,
    path: Vec<String>,
    /// The named 1.2.6 schemas enclosing the current position (for open/closed lookups).
    owners: Vec<&'a str>,
    notes: Notes,
}

impl<'a> Gen<'a> {
    pub fn new(schemas: &'a Map<String, Value>, seed: u64) -> Self {
        Gen {
            schemas,
            old: None,
            rng: Rng::new(seed),
            usage: Usage::new(),
            path: Vec::new(),
            owners: Vec::new(),
            notes: Notes::default(),
        }
    }

    /// A generator of instances of `schemas` (a later version) that also tracks what the
    /// 1.2.6 bindings (`old`, `old_api`) know of them.
    pub fn with_old(
        schemas: &'a Map<String, Value>,
        old: &'a Map<String, Value>,
        old_api: &'a Api,
        seed: u64,
    ) -> Self {
        let mut g = Gen::new(schemas, seed);
        g.old = Some((old, old_api));
        g
    }

    pub fn reseed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// An instance of the named schema, what 1.2.6 should re-encode of it (with no 1.2.6
    /// schema alongside: the instance itself), and notes.
    pub fn instance(&mut self, name: &str) -> (Value, Value, Notes) {
        self.path.clear();
        self.owners.clear();
        self.notes = Notes::default();
        let schemas = self.schemas;
        let schema = schemas
            .get(name)
            .unwrap_or_else(|| panic!("no schema {name}"));
        let (v, e) = if let Some(d) = Domain::of(name) {
            let v = Value::String(self.domain(d, schema));
            (v.clone(), v)
        } else {
            let old = self
                .old
                .and_then(|(old, _)| old.get_key_value(name))
                .map(|(k, v)| (k.as_str(), v));
            match old {
                Some((owner, o)) => {
                    self.owners.push(owner);
                    let r = self.gen_resolved(schema, Some(o), 0);
                    self.owners.pop();
                    r
                }
                None => self.gen_resolved(schema, None, 0),
            }
        };
        (v, e, std::mem::take(&mut self.notes))
    }

    fn pointer(&self) -> String {
        self.path
            .iter()
            .map(|t| format!("/{}", pointer_token(t)))
            .collect()
    }

    /// Picks the least used option of a choice point (ties broken at random).
    pub fn choose(&mut self, node: &Value, kind: Choice, n: usize) -> usize {
        let counts = self
            .usage
            .entry((node as *const Value as usize, kind))
            .or_insert_with(|| vec![0; n]);
        if counts.len() < n {
            counts.resize(n, 0);
        }
        let min = *counts.iter().min().unwrap_or(&0);
        let least: Vec<usize> = (0..n).filter(|&i| counts[i] == min).collect();
        let pick = least[(self.rng.next_u64() % least.len() as u64) as usize];
        counts[pick] += 1;
        pick
    }

    fn domain(&mut self, d: Domain, node: &Value) -> String {
        let form = self.choose(node, Choice::Domain, d.forms());
        d.value(form, &mut self.rng)
    }

    /// Follows `$ref`s and single-part `allOf`s of a 1.2.6 schema; the last name passed.
    fn resolve_old(&self, mut old: &'a Value) -> (&'a Value, Option<&'a str>) {
        let Some((schemas, _)) = self.old else {
            return (old, None);
        };
        let mut owner = None;
        for _ in 0..16 {
            if let Some(name) = ref_name(old) {
                match schemas.get_key_value(name) {
                    Some((k, v)) => {
                        owner = Some(k.as_str());
                        old = v;
                    }
                    None => break,
                }
            } else if let Some(single) = single_all_of(old) {
                old = single;
            } else {
                break;
            }
        }
        (old, owner)
    }

    /// One value of `schema` (a node of `self.schemas`) and its expected re-encoding.
    fn gen(&mut self, schema: &'a Value, old: Option<&'a Value>, depth: usize) -> (Value, Value) {
        assert!(
            depth < MAX_DEPTH,
            "schema nesting deeper than {MAX_DEPTH} at {}",
            self.pointer()
        );
        if let Some(name) = ref_name(schema) {
            let target = self
                .schemas
                .get(name)
                .unwrap_or_else(|| panic!("$ref to missing schema {name}"));
            if let Some(d) = Domain::of(name) {
                let v = Value::String(self.domain(d, target));
                if let Some(o) = old {
                    self.check_old_type(o, &v);
                }
                return (v.clone(), v);
            }
            return self.gen(target, old, depth + 1);
        }
        if let Some(single) = single_all_of(schema) {
            return self.gen(single, old, depth);
        }
        let (old, owner) = match old {
            Some(o) => {
                let (o, owner) = self.resolve_old(o);
                (Some(o), owner)
            }
            None => (None, None),
        };
        if let Some(owner) = owner {
            self.owners.push(owner);
        }
        let r = self.gen_resolved(schema, old, depth);
        if owner.is_some() {
            self.owners.pop();
        }
        r
    }

    fn gen_resolved(
        &mut self,
        schema: &'a Value,
        old: Option<&'a Value>,
        depth: usize,
    ) -> (Value, Value) {
        if ref_name(schema).is_some() || single_all_of(schema).is_some() {
            // A named schema that is only a `$ref` (an alias) or a single `allOf`.
            return self.gen(schema, old, depth);
        }
        if let Some(values) = schema.get("enum").and_then(Value::as_array) {
            let v = values[self.choose(schema, Choice::Enum, values.len())].clone();
            if let Some(o) = old {
                if let Some(known) = old_enum_values(o) {
                    if !known.contains(&v) {
                        self.new_variant(v.as_str().unwrap_or_default());
                    }
                } else {
                    self.check_old_type(o, &v);
                }
            }
            return (v.clone(), v);
        }
        let mut types = types_of(schema);
        if types.len() > 1 && types.contains(&"null") {
            if self.choose(schema, Choice::Null, 2) == 1 {
                if let Some(o) = old {
                    self.check_old_type(o, &Value::Null);
                }
                return (Value::Null, Value::Null);
            }
            types.retain(|t| *t != "null");
        }
        if let Some(arms) = alternatives(schema) {
            let i = self.choose(schema, Choice::Arm, arms.len());
            let arm = &arms[i];
            let (v, e) = match old.map(|o| match_arm(o, arm)) {
                Some(ArmMatch::New) => {
                    let before = self.notes.breaking.len();
                    let (v, _) = self.gen(arm, None, depth + 1);
                    self.notes.breaking.truncate(before);
                    self.new_variant(&arm_wire(arm));
                    (v.clone(), v)
                }
                Some(ArmMatch::Old(o)) => self.gen(arm, Some(o), depth + 1),
                Some(ArmMatch::Parent) => self.gen(arm, old, depth + 1),
                None => self.gen(arm, None, depth + 1),
            };
            if schema.get("properties").is_some() {
                let (pv, pe) = self.object(schema, old, depth);
                return (merge(pv, v), merge(pe, e));
            }
            return (v, e);
        }
        if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
            let old_parts = old.and_then(|o| o.get("allOf")).and_then(Value::as_array);
            let (mut v, mut e) = (json!({}), json!({}));
            for (i, part) in parts.iter().enumerate() {
                let old_part = match old_parts {
                    Some(op) => op.get(i),
                    None => old,
                };
                let (pv, pe) = self.gen(part, old_part, depth + 1);
                v = merge(v, pv);
                e = merge(e, pe);
            }
            if schema.get("properties").is_some() {
                let (pv, pe) = self.object(schema, old, depth);
                return (merge(v, pv), merge(e, pe));
            }
            return (v, e);
        }
        let ty = types.first().copied().or_else(|| {
            (schema.get("properties").is_some() || schema.get("additionalProperties").is_some())
                .then_some("object")
        });
        let v = match ty {
            Some("object") => return self.object(schema, old, depth),
            Some("array") => return self.array(schema, old, depth),
            Some("string") => Value::String(self.string(schema)),
            Some("integer") => self.integer(schema),
            Some("number") => self.number(schema),
            Some("boolean") => Value::Bool(self.choose(schema, Choice::Bool, 2) == 1),
            Some("null") => Value::Null,
            // `{}`: any JSON; an empty object also merges with sibling properties.
            None => json!({}),
            Some(other) => panic!("unknown type {other} at {}", self.pointer()),
        };
        if let Some(o) = old {
            self.check_old_type(o, &v);
        }
        (v.clone(), v)
    }

    fn object(
        &mut self,
        schema: &'a Value,
        old: Option<&'a Value>,
        depth: usize,
    ) -> (Value, Value) {
        let required: BTreeSet<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let old_props = old
            .and_then(|o| o.get("properties"))
            .and_then(Value::as_object);
        let (mut v, mut e) = (Map::new(), Map::new());
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            for (key, prop) in props {
                let present = required.contains(key.as_str())
                    || (depth <= SHALLOW && self.choose(prop, Choice::Optional, 2) == 1);
                if !present {
                    continue;
                }
                self.path.push(key.clone());
                if key == "jsonrpc" {
                    // The spec says `string`; JSON-RPC 2.0 (and our envelope) says "2.0".
                    v.insert(key.clone(), json!("2.0"));
                    e.insert(key.clone(), json!("2.0"));
                } else {
                    match (old, old_props.and_then(|p| p.get(key))) {
                        (Some(_), None) if old_props.is_some() => {
                            let before = self.notes.breaking.len();
                            let (x, _) = self.gen(prop, None, depth + 1);
                            self.notes.breaking.truncate(before);
                            let spot = self.spot(key);
                            self.notes.ignored_fields.push(spot);
                            v.insert(key.clone(), x);
                        }
                        (_, old_prop) => {
                            let (x, y) = self.gen(prop, old_prop, depth + 1);
                            v.insert(key.clone(), x);
                            e.insert(key.clone(), y);
                        }
                    }
                }
                self.path.pop();
            }
        } else if let Some(values) = schema.get("additionalProperties").filter(|a| a.is_object()) {
            let old_values = old.and_then(|o| o.get("additionalProperties"));
            let n = if depth <= SHALLOW && self.choose(schema, Choice::Items, 2) == 1 {
                1 + self.rng.below(2)
            } else {
                0
            };
            for i in 0..n {
                let key = format!("key{i}");
                self.path.push(key.clone());
                let (x, y) = self.gen(values, old_values, depth + 1);
                self.path.pop();
                v.insert(key.clone(), x);
                e.insert(key, y);
            }
        }
        if let Some(o) = old {
            let old_required = o.get("required").and_then(Value::as_array);
            for r in old_required.into_iter().flatten().filter_map(Value::as_str) {
                let own = old_props.is_some_and(|p| p.contains_key(r));
                if own && !v.contains_key(r) {
                    let at = self.pointer();
                    self.notes
                        .breaking
                        .push(format!("{at}: `{r}` is required in 1.2.6 but absent"));
                }
            }
        }
        (Value::Object(v), Value::Object(e))
    }

    fn array(&mut self, schema: &'a Value, old: Option<&'a Value>, depth: usize) -> (Value, Value) {
        let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = schema
            .get("maxItems")
            .and_then(Value::as_u64)
            .map_or(usize::MAX, |m| m as usize);
        let old_items = old.and_then(|o| o.get("items"));
        match schema.get("items") {
            Some(Value::Array(tuple)) => {
                let (mut v, mut e) = (Vec::new(), Vec::new());
                for (i, item) in tuple.iter().enumerate() {
                    self.path.push(i.to_string());
                    let old_item = old_items.and_then(|o| o.get(i));
                    let (x, y) = self.gen(item, old_item, depth + 1);
                    self.path.pop();
                    v.push(x);
                    e.push(y);
                }
                (Value::Array(v), Value::Array(e))
            }
            Some(item) => {
                let n = if max > min
                    && depth <= SHALLOW
                    && self.choose(schema, Choice::Items, 2) == 1
                {
                    (min + 1 + self.rng.below(2)).min(max)
                } else {
                    min
                };
                let (mut v, mut e) = (Vec::new(), Vec::new());
                for i in 0..n {
                    self.path.push(i.to_string());
                    let (x, y) = self.gen(item, old_items, depth + 1);
                    self.path.pop();
                    v.push(x);
                    e.push(y);
                }
                (Value::Array(v), Value::Array(e))
            }
            None => (json!([]), json!([])),
        }
    }

    fn string(&mut self, schema: &Value) -> String {
        let format = schema.get("format").and_then(Value::as_str);
        let form = self.choose(schema, Choice::Str, 3);
        if matches!(format, Some("bytes" | "byte")) {
            let n = [0, 1 + self.rng.below(8), 32 + self.rng.below(40)][form];
            return base64::engine::general_purpose::STANDARD.encode(self.rng.bytes(n));
        }
        match form {
            0 => String::new(),
            1 => {
                let n = 1 + self.rng.below(16);
                (0..n)
                    .map(|_| {
                        char::from(b"abcdefghijklmnopqrstuvwxyz0123456789_-"[self.rng.below(38)])
                    })
                    .collect()
            }
            _ => "q\"uote\\ back\nline \u{e9}\u{1F600} \u{0}".to_owned(),
        }
    }

    fn integer(&mut self, schema: &Value) -> Value {
        let (lo, hi) = int_range(schema);
        let n = match self.choose(schema, Choice::Int, 4) {
            0 => lo,
            1 => hi,
            2 => self.rng.range(lo, hi),
            _ => (lo + self.rng.below(1000) as i128).min(hi),
        };
        int_value(n)
    }

    fn number(&mut self, schema: &Value) -> Value {
        match self.choose(schema, Choice::Number, 3) {
            0 => json!(0.0),
            1 => json!(0.5),
            _ => json!(123_456_789.25),
        }
    }

    fn spot(&self, name: &str) -> Spot {
        Spot {
            pointer: self.pointer(),
            owner: self.owners.last().copied().unwrap_or("?").to_owned(),
            name: name.to_owned(),
        }
    }

    /// A variant the 1.2.6 schema doesn't have, at the current position.
    fn new_variant(&mut self, label: &str) {
        let at = self.pointer();
        let owner = self.owners.last().copied().unwrap_or("?");
        let open = self.old.is_some_and(|(_, api)| is_open(api, owner));
        if open {
            let spot = self.spot(label);
            self.notes.unknown_variants.push(spot);
        } else {
            self.notes.breaking.push(format!(
                "{at}: new variant {label} of {owner}, which is closed in 1.2.6"
            ));
        }
    }

    /// Records a type change: the 1.2.6 schema does not allow the JSON type of `v`.
    fn check_old_type(&mut self, old: &Value, v: &Value) {
        let types = types_of(old);
        if types.is_empty() {
            return;
        }
        let fits = match v {
            Value::Null => types.contains(&"null"),
            Value::Bool(_) => types.contains(&"boolean"),
            Value::Number(n) => {
                types.contains(&"number")
                    || (types.contains(&"integer") && {
                        let (lo, hi) = int_range(old);
                        let x = n
                            .as_u64()
                            .map(i128::from)
                            .or_else(|| n.as_i64().map(i128::from));
                        x.is_some_and(|x| x >= lo && x <= hi)
                    })
            }
            Value::String(_) => types.contains(&"string"),
            Value::Array(_) => types.contains(&"array"),
            Value::Object(_) => types.contains(&"object"),
        };
        if !fits {
            let at = self.pointer();
            self.notes
                .breaking
                .push(format!("{at}: {v} does not fit the 1.2.6 type {types:?}"));
        }
    }
}

/// The range of an integer schema, from its format and bounds.
pub fn int_range(schema: &Value) -> (i128, i128) {
    let format = schema.get("format").and_then(Value::as_str);
    let min = schema.get("minimum").and_then(Value::as_f64);
    let max = schema.get("maximum").and_then(Value::as_f64);
    let (mut lo, mut hi): (i128, i128) = match format {
        Some("uint8") => (0, u8::MAX.into()),
        Some("uint16") => (0, u16::MAX.into()),
        Some("uint32") => (0, u32::MAX.into()),
        Some("uint64") => (0, u64::MAX.into()),
        Some("int8") => (i8::MIN.into(), i8::MAX.into()),
        Some("int16") => (i16::MIN.into(), i16::MAX.into()),
        Some("int32") => (i32::MIN.into(), i32::MAX.into()),
        Some("int64") => (i64::MIN.into(), i64::MAX.into()),
        _ if min.is_some_and(|m| m >= 0.0) => (0, u64::MAX.into()),
        _ => (i64::MIN.into(), i64::MAX.into()),
    };
    if let Some(m) = min {
        lo = lo.max(m.ceil() as i128);
    }
    if let Some(m) = max {
        hi = hi.min(m.floor() as i128);
    }
    (lo, hi)
}

fn int_value(n: i128) -> Value {
    match u64::try_from(n) {
        Ok(u) => Value::from(u),
        Err(_) => Value::from(i64::try_from(n).expect("integer within i64")),
    }
}

/// Objects merge (later members win); anything else replaces an empty object.
fn merge(a: Value, b: Value) -> Value {
    match (a, b) {
        (Value::Object(mut x), Value::Object(y)) => {
            x.extend(y);
            Value::Object(x)
        }
        (Value::Object(x), b) if x.is_empty() => b,
        (a, Value::Object(y)) if y.is_empty() => a,
        (_, b) => b,
    }
}

/// The string values an enum schema of 1.2.6 knows: its `enum`, or the union of the
/// `enum`s of its alternatives (unit variants of an externally tagged enum).
fn old_enum_values(old: &Value) -> Option<Vec<Value>> {
    if let Some(values) = old.get("enum").and_then(Value::as_array) {
        return Some(values.clone());
    }
    let arms = alternatives(old)?;
    let values: Vec<Value> = arms
        .iter()
        .filter_map(|a| a.get("enum").and_then(Value::as_array))
        .flatten()
        .cloned()
        .collect();
    (!values.is_empty()).then_some(values)
}

/// How an arm of a later schema relates to the 1.2.6 alternatives.
enum ArmMatch<'a> {
    /// The same arm in 1.2.6.
    Old(&'a Value),
    /// 1.2.6 has no alternatives here, or the arm is a string enum: walk on with the
    /// 1.2.6 schema itself (its values are checked there).
    Parent,
    /// A variant 1.2.6 does not have.
    New,
}

fn match_arm<'a>(old: &'a Value, arm: &Value) -> ArmMatch<'a> {
    let Some(old_arms) = alternatives(old) else {
        return ArmMatch::Parent;
    };
    if arm.get("enum").is_some() {
        return ArmMatch::Parent;
    }
    // The strongest identity the new arm has decides; weaker ones would match anything.
    for key in [
        arm_tag,
        arm_ref,
        arm_single_key,
        arm_title,
        arm_required,
        arm_type,
    ] {
        if let Some(k) = key(arm) {
            return match old_arms
                .iter()
                .find(|o| key(o).as_deref() == Some(k.as_str()))
            {
                Some(o) => ArmMatch::Old(o),
                None => ArmMatch::New,
            };
        }
    }
    // No identity at all (such as `{}`, "anything"): the same schema in 1.2.6, or new.
    match old_arms.iter().find(|o| *o == arm) {
        Some(o) => ArmMatch::Old(o),
        None => ArmMatch::New,
    }
}

fn arm_tag(arm: &Value) -> Option<String> {
    let props = arm.get("properties")?.as_object()?;
    let required: Vec<&str> = arm
        .get("required")?
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let tags: Vec<String> = props
        .iter()
        .filter(|(k, _)| required.contains(&k.as_str()))
        .filter_map(|(k, p)| match p.get("enum")?.as_array()?.as_slice() {
            [Value::String(v)] => Some(format!("{k}={v}")),
            _ => None,
        })
        .collect();
    (!tags.is_empty()).then(|| tags.join(","))
}

fn arm_ref(arm: &Value) -> Option<String> {
    ref_name(arm).map(str::to_owned)
}

fn arm_single_key(arm: &Value) -> Option<String> {
    let props = arm.get("properties")?.as_object()?;
    let required = arm.get("required")?.as_array()?;
    match (props.len(), required.as_slice()) {
        (1, [Value::String(k)]) if props.contains_key(k) => Some(k.clone()),
        _ => None,
    }
}

fn arm_title(arm: &Value) -> Option<String> {
    arm.get("title")?.as_str().map(str::to_owned)
}

fn arm_required(arm: &Value) -> Option<String> {
    let mut r: Vec<&str> = arm
        .get("required")?
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    r.sort_unstable();
    Some(r.join(","))
}

fn arm_type(arm: &Value) -> Option<String> {
    let t = types_of(arm);
    (!t.is_empty()).then(|| t.join(","))
}

/// The wire name of an arm: its tag value, its single key, or another identity.
fn arm_wire(arm: &Value) -> String {
    if let Some(tag) = arm_tag(arm) {
        return tag
            .split(',')
            .next()
            .and_then(|t| t.split_once('='))
            .map_or(tag.clone(), |(_, v)| v.to_owned());
    }
    [arm_single_key, arm_ref, arm_title, arm_required, arm_type]
        .iter()
        .find_map(|k| k(arm))
        .unwrap_or_else(|| "?".into())
}

/// Whether the 1.2.6 type of a named schema keeps unknown variants.
pub fn is_open(api: &Api, schema_name: &str) -> bool {
    let enum_open =
        |rust: &str| matches!(api.types.get(rust).map(|d| &d.kind), Some(Kind::Enum(e)) if e.open);
    match api
        .types
        .get(&ir::rust_type_name(schema_name))
        .map(|d| &d.kind)
    {
        Some(Kind::Enum(e)) => e.open,
        Some(Kind::Flattened(f)) => f.flattened.iter().any(|(_, e)| enum_open(e)),
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------
// Coverage
// ---------------------------------------------------------------------------------------

/// Every choice point of every schema: (schema name, JSON pointer, kind, option count).
#[derive(Debug, Default)]
pub struct Universe {
    pub points: BTreeMap<(usize, Choice), (String, String, usize)>,
}

impl Universe {
    pub fn of(schemas: &Map<String, Value>) -> Self {
        let mut u = Universe::default();
        for (name, schema) in schemas {
            if let Some(d) = Domain::of(name) {
                u.add(schema, Choice::Domain, d.forms(), name, "");
                continue;
            }
            u.walk(schema, name, String::new());
        }
        u
    }

    fn add(&mut self, node: &Value, kind: Choice, n: usize, name: &str, at: &str) {
        if n > 1 {
            self.points.insert(
                (node as *const Value as usize, kind),
                (name.to_owned(), at.to_owned(), n),
            );
        }
    }

    /// Mirrors the order of decisions in [`Gen::gen_resolved`].
    fn walk(&mut self, s: &Value, name: &str, at: String) {
        if ref_name(s).is_some() {
            return;
        }
        if let Some(single) = single_all_of(s) {
            return self.walk(single, name, format!("{at}/allOf/0"));
        }
        if let Some(values) = s.get("enum").and_then(Value::as_array) {
            return self.add(s, Choice::Enum, values.len(), name, &at);
        }
        let mut types = types_of(s);
        if types.len() > 1 && types.contains(&"null") {
            self.add(s, Choice::Null, 2, name, &at);
            types.retain(|t| *t != "null");
        }
        let has_props = s.get("properties").is_some();
        if let Some(arms) = alternatives(s) {
            let key = if s.get("oneOf").is_some() {
                "oneOf"
            } else {
                "anyOf"
            };
            self.add(s, Choice::Arm, arms.len(), name, &at);
            for (i, arm) in arms.iter().enumerate() {
                self.walk(arm, name, format!("{at}/{key}/{i}"));
            }
            if has_props {
                self.walk_object(s, name, &at);
            }
            return;
        }
        if let Some(parts) = s.get("allOf").and_then(Value::as_array) {
            for (i, part) in parts.iter().enumerate() {
                self.walk(part, name, format!("{at}/allOf/{i}"));
            }
            if has_props {
                self.walk_object(s, name, &at);
            }
            return;
        }
        let ty = types
            .first()
            .copied()
            .or_else(|| (has_props || s.get("additionalProperties").is_some()).then_some("object"));
        match ty {
            Some("object") => self.walk_object(s, name, &at),
            Some("array") => match s.get("items") {
                Some(Value::Array(tuple)) => {
                    for (i, item) in tuple.iter().enumerate() {
                        self.walk(item, name, format!("{at}/items/{i}"));
                    }
                }
                Some(item) => {
                    let min = s.get("minItems").and_then(Value::as_u64).unwrap_or(0);
                    let max = s
                        .get("maxItems")
                        .and_then(Value::as_u64)
                        .unwrap_or(u64::MAX);
                    if max > min {
                        self.add(s, Choice::Items, 2, name, &at);
                    }
                    self.walk(item, name, format!("{at}/items"));
                }
                None => {}
            },
            Some("string") => self.add(s, Choice::Str, 3, name, &at),
            Some("integer") => {
                let (lo, hi) = int_range(s);
                if hi > lo {
                    self.add(s, Choice::Int, 4, name, &at);
                }
            }
            Some("number") => self.add(s, Choice::Number, 3, name, &at),
            Some("boolean") => self.add(s, Choice::Bool, 2, name, &at),
            _ => {}
        }
    }

    fn walk_object(&mut self, s: &Value, name: &str, at: &str) {
        let required: BTreeSet<&str> = s
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(props) = s.get("properties").and_then(Value::as_object) {
            for (key, prop) in props {
                let here = format!("{at}/properties/{}", pointer_token(key));
                if !required.contains(key.as_str()) {
                    self.add(prop, Choice::Optional, 2, name, &here);
                }
                if key != "jsonrpc" {
                    self.walk(prop, name, here);
                }
            }
        } else if let Some(values) = s.get("additionalProperties").filter(|a| a.is_object()) {
            self.add(s, Choice::Items, 2, name, at);
            self.walk(values, name, format!("{at}/additionalProperties"));
        }
    }

    /// The options never chosen: "schema#pointer kind option".
    pub fn uncovered(&self, usage: &Usage) -> Vec<String> {
        self.uncovered_where(usage, |_, _| true)
    }

    /// The options of the named schema's own choice points never chosen.
    pub fn uncovered_in(&self, schema: &str, usage: &Usage) -> Vec<String> {
        self.uncovered_where(usage, |name, _| name == schema)
    }

    /// Like [`Universe::uncovered_in`], for the structural choices only (arms, enum
    /// values, optional properties, `null`, collection sizes), not leaf values.
    pub fn uncovered_structure_in(&self, schema: &str, usage: &Usage) -> Vec<String> {
        self.uncovered_where(usage, |name, kind| {
            name == schema
                && matches!(
                    kind,
                    Choice::Arm | Choice::Enum | Choice::Optional | Choice::Null | Choice::Items
                )
        })
    }

    fn uncovered_where(&self, usage: &Usage, keep: impl Fn(&str, Choice) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        for (key, (name, at, n)) in self.points.iter().filter(|(k, (n, _, _))| keep(n, k.1)) {
            let counts = usage.get(key);
            for i in 0..*n {
                if counts.and_then(|c| c.get(i)).copied().unwrap_or(0) == 0 {
                    out.push(format!(
                        "{name}#{at} {:?} option {i} ({})",
                        key.1,
                        key.1.options_note()
                    ));
                }
            }
        }
        out
    }

    /// How many options of the named schema's own choice points were never chosen.
    pub fn pending(&self, name: &str, usage: &Usage) -> usize {
        self.points
            .iter()
            .filter(|(_, (n, _, _))| n == name)
            .map(|(key, (_, _, n))| {
                let counts = usage.get(key);
                (0..*n)
                    .filter(|&i| counts.and_then(|c| c.get(i)).copied().unwrap_or(0) == 0)
                    .count()
            })
            .sum()
    }

    pub fn options(&self) -> usize {
        self.points.values().map(|(_, _, n)| n).sum()
    }
}

// ---------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------

/// A draft-7 validator for every schema of a spec version, over one document holding the
/// normalized components, so `#/components/schemas/...` references resolve locally.
pub struct Validator {
    schemas: boon::Schemas,
    index: BTreeMap<String, boon::SchemaIndex>,
    url: String,
}

fn int_format(name: &str, v: &Value) -> Result<(), Box<dyn std::error::Error>> {
    let Value::Number(n) = v else { return Ok(()) };
    let (lo, hi) = int_range(&json!({ "format": name }));
    let x = n
        .as_u64()
        .map(i128::from)
        .or_else(|| n.as_i64().map(i128::from));
    match x {
        Some(x) if x >= lo && x <= hi => Ok(()),
        _ => Err(format!("{n} is not a {name}").into()),
    }
}

macro_rules! int_formats {
    ($($name:literal => $f:ident),* $(,)?) => {
        $(fn $f(v: &Value) -> Result<(), Box<dyn std::error::Error>> { int_format($name, v) })*
        const INT_FORMATS: &[(&str, fn(&Value) -> Result<(), Box<dyn std::error::Error>>)] =
            &[$(($name, $f)),*];
    };
}

int_formats! {
    "uint8" => fmt_uint8, "uint16" => fmt_uint16, "uint32" => fmt_uint32, "uint64" => fmt_uint64,
    "int8" => fmt_int8, "int16" => fmt_int16, "int32" => fmt_int32, "int64" => fmt_int64,
}

fn base64_format(v: &Value) -> Result<(), Box<dyn std::error::Error>> {
    let Value::String(s) = v else { return Ok(()) };
    base64::engine::general_purpose::STANDARD
        .decode(s)
        .map(|_| ())
        .map_err(|e| format!("not base64: {e}").into())
}

impl Validator {
    pub fn new(components: &Map<String, Value>, version: &str) -> Self {
        let url = format!("urn:near-rpc:openapi-{version}");
        let mut compiler = boon::Compiler::new();
        compiler.set_default_draft(boon::Draft::V7);
        compiler.enable_format_assertions();
        for (name, func) in INT_FORMATS {
            compiler.register_format(boon::Format { name, func: *func });
        }
        for name in ["bytes", "byte"] {
            compiler.register_format(boon::Format {
                name,
                func: base64_format,
            });
        }
        let document = json!({ "components": { "schemas": components } });
        compiler
            .add_resource(&url, document)
            .unwrap_or_else(|e| panic!("{url}: {e}"));
        let mut schemas = boon::Schemas::new();
        let mut index = BTreeMap::new();
        for name in components.keys() {
            let loc = format!("{url}#/components/schemas/{name}");
            let i = compiler
                .compile(&loc, &mut schemas)
                .unwrap_or_else(|e| panic!("compiling {loc}: {e:#}"));
            index.insert(name.clone(), i);
        }
        Validator {
            schemas,
            index,
            url,
        }
    }

    /// Validates `value` against the named schema; the first lines of the error.
    pub fn validate(&self, name: &str, value: &Value) -> Result<(), String> {
        let i = *self
            .index
            .get(name)
            .unwrap_or_else(|| panic!("no schema {name}"));
        self.schemas.validate(value, i).map_err(|e| {
            let text = format!("{e:#}").replace(&self.url, "");
            let mut lines: Vec<&str> = text.lines().take(8).collect();
            if text.lines().count() > 8 {
                lines.push("...");
            }
            lines.join(" | ")
        })
    }
}

// ---------------------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------------------

/// The first difference between what should come back and what came back, or `None`.
/// A member that is `null` counts as absent (an `Option` that is `None` is not written),
/// and numbers compare by value (`0` and `0.0`). An empty array or map that re-encoding
/// leaves out is not a difference either: optional arrays and maps are collections that
/// skip serializing when empty (the spec's `default: []`/`{}`), and a required one missing
/// would fail the schema check; see [`dropped_empty_arrays`] to count them.
pub fn first_difference(expected: &Value, actual: &Value, path: &str) -> Option<String> {
    match (expected, actual) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                let sub = format!("{path}/{}", pointer_token(k));
                match y.get(k) {
                    Some(w) => {
                        if let Some(d) = first_difference(v, w, &sub) {
                            return Some(d);
                        }
                    }
                    None if v.is_null() || is_empty_collection(v) => {}
                    None => return Some(format!("{sub}: {} was dropped", short(v))),
                }
            }
            y.iter()
                .find(|(k, w)| !x.contains_key(*k) && !w.is_null())
                .map(|(k, w)| format!("{path}/{}: {} was added", pointer_token(k), short(w)))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| first_difference(v, w, &format!("{path}/{i}"))),
        (Value::Number(x), Value::Number(y)) => {
            let same = match (x.as_u64(), y.as_u64(), x.as_i64(), y.as_i64()) {
                (Some(a), Some(b), _, _) => a == b,
                (_, _, Some(a), Some(b)) => a == b,
                _ => x.as_f64() == y.as_f64(),
            };
            (!same).then(|| format!("{path}: {x} became {y}"))
        }
        _ if expected == actual => None,
        _ => Some(format!(
            "{path}: {} became {}",
            short(expected),
            short(actual)
        )),
    }
}

fn is_empty_collection(v: &Value) -> bool {
    v.as_array().is_some_and(Vec::is_empty) || v.as_object().is_some_and(Map::is_empty)
}

/// Pointers of the empty arrays and maps in `expected` that `actual` leaves out.
pub fn dropped_empty_arrays(expected: &Value, actual: &Value, path: &str, out: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                let sub = format!("{path}/{}", pointer_token(k));
                match y.get(k) {
                    Some(w) => dropped_empty_arrays(v, w, &sub, out),
                    None if is_empty_collection(v) => out.push(sub),
                    None => {}
                }
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                dropped_empty_arrays(v, w, &format!("{path}/{i}"), out);
            }
        }
        _ => {}
    }
}

pub fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 120 {
        let cut = (0..=120)
            .rev()
            .find(|&i| s.is_char_boundary(i))
            .unwrap_or(0);
        format!("{}...", &s[..cut])
    } else {
        s
    }
}

// ---------------------------------------------------------------------------------------
// Decoding with the generated types
// ---------------------------------------------------------------------------------------

/// Why a value did not come back.
#[derive(Debug)]
pub enum Failure {
    Decode(DecodeError),
    Encode(String),
    Panic(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Decode(e) => write!(f, "decode: {e}"),
            Failure::Encode(e) => write!(f, "encode: {e}"),
            Failure::Panic(e) => write!(f, "PANIC: {e}"),
        }
    }
}

/// Runs `f`, turning a panic into an error (so one panic can't hide the other results).
pub fn no_panic<T>(f: impl FnOnce() -> Result<T, Failure>) -> Result<T, Failure> {
    match std::panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => Err(Failure::Panic(
            payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_else(|| "non-string panic".into()),
        )),
    }
}
