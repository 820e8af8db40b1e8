//! Cross-checking nearcore's two documents of one version: the IR built from the OpenAPI
//! document against the IR built from the OpenRPC one, reported in IR terms (methods,
//! types, fields, variants, and the constraints one of them loses).
//!
//! Each difference is classed like the semver diff ([`crate::diff`]), with the OpenAPI
//! bindings as the old API: **breaking** means bindings generated from the OpenRPC
//! document alone would break code written against the OpenAPI ones (something missing,
//! a type or requiredness that differs, a constraint lost); **additive** means the
//! OpenRPC document has something more; **docs** means only doc text differs.
//!
//! Methods' params are compared by what goes on the wire, not by type name: the OpenAPI
//! document names each params type (`RpcBlockRequest`) and states alternatives
//! ("exactly one of `block_id`, `finality`, `sync_checkpoint`"), while the OpenRPC one
//! lists the params by name, each required or not.

use std::collections::{BTreeMap, BTreeSet};

use crate::diff::{
    change, counts, diff_shape, markdown_groups, render, shape_of, text_lines, Change, Framing,
    Severity, Shape,
};
use crate::ir::{Api, Field, Kind, Payload, Tagging, TypeExpr};

/// The OpenAPI document is the old side: the API users of the bindings have.
const FRAMING: Framing = Framing::Documents("OpenAPI", "OpenRPC");

/// Every difference between the two documents of one version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crosscheck {
    /// The version both documents describe.
    pub version: String,
    /// The differences, sorted.
    pub changes: Vec<Change>,
}

/// Compares the IR of a version's OpenAPI document with that of its OpenRPC document.
pub fn crosscheck(openapi: &Api, openrpc: &Api) -> Crosscheck {
    let mut out = Vec::new();
    methods(openapi, openrpc, &mut out);
    types(openapi, openrpc, &mut out);
    out.sort();
    out.dedup();
    Crosscheck {
        version: openapi.version.clone(),
        changes: out,
    }
}

fn methods(openapi: &Api, openrpc: &Api, out: &mut Vec<Change>) {
    for name in openrpc.methods.keys() {
        if !openapi.methods.contains_key(name) {
            out.push(change(
                Severity::Additive,
                "method",
                name,
                "only in OpenRPC",
            ));
        }
    }
    let mut untyped = 0;
    for (name, a) in &openapi.methods {
        let Some(b) = openrpc.methods.get(name) else {
            out.push(change(
                Severity::Breaking,
                "method",
                name,
                "only in OpenAPI",
            ));
            continue;
        };
        params(
            name,
            &wire(openapi, &a.params),
            &wire(openrpc, &b.params),
            out,
        );
        if a.result != b.result {
            let same = shape_of_expr(openapi, &a.result) == shape_of_expr(openrpc, &b.result);
            out.push(change(
                Severity::Breaking,
                "method",
                name,
                format!(
                    "result is `{}` in OpenAPI, `{}` in OpenRPC{}",
                    render(&a.result),
                    render(&b.result),
                    if same { " (the same shape)" } else { "" }
                ),
            ));
        }
        if a.error_documented && !b.error_documented {
            untyped += 1;
        }
        if a.deprecated != b.deprecated {
            let which = if b.deprecated { "OpenRPC" } else { "OpenAPI" };
            out.push(change(
                Severity::Docs,
                "method",
                name,
                format!("deprecated only in {which}"),
            ));
        }
        if a.doc != b.doc {
            out.push(change(Severity::Docs, "method", name, "doc text differs"));
        }
    }
    if untyped > 0 {
        out.push(change(
            Severity::Breaking,
            "method",
            format!("({untyped} methods)"),
            "handler error types only in OpenAPI: the OpenRPC document has no error schemas, \
             so its bindings decode handler errors as `UntypedCause`",
        ));
    }
}

/// The shape of the named type an expression refers to, or the expression itself.
fn shape_of_expr(api: &Api, ty: &TypeExpr) -> Option<Shape> {
    match ty {
        TypeExpr::Named(name) => api.types.get(name).map(|def| shape_of(def).0),
        other => Some(Shape::Alias(render(other))),
    }
}

/// How a property is asked for in a method's params.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Need {
    Required,
    Optional,
    /// Required by some alternatives of a flattened enum (named), absent from the others.
    Alternative(String),
}

impl Need {
    fn text(&self) -> String {
        match self {
            Need::Required => "required".into(),
            Need::Optional => "optional".into(),
            Need::Alternative(group) => format!("one of the alternatives of `{group}`"),
        }
    }
}

/// A method's params as they go on the wire: each property with its type and need, and
/// the groups of alternatives ("exactly one of").
#[derive(Debug, Default)]
struct Wire {
    fields: BTreeMap<String, (String, Need)>,
    groups: Vec<(String, Vec<Vec<String>>)>,
}

fn wire(api: &Api, ty: &TypeExpr) -> Wire {
    let mut wire = Wire::default();
    let TypeExpr::Named(name) = ty else {
        return wire;
    };
    let Some(def) = api.types.get(name) else {
        return wire;
    };
    match &def.kind {
        Kind::Struct(s) => add_fields(&s.fields, &mut wire),
        Kind::Flattened(f) => {
            add_fields(&f.fields, &mut wire);
            for (_, group) in &f.flattened {
                alternatives(api, group, &mut wire);
            }
        }
        Kind::Enum(_) => alternatives(api, name, &mut wire),
        _ => {}
    }
    wire
}

fn add_fields(fields: &[Field], wire: &mut Wire) {
    for field in fields {
        let need = if field.required {
            Need::Required
        } else {
            Need::Optional
        };
        wire.fields
            .insert(field.wire_name.clone(), (render(&field.ty), need));
    }
}

/// The variants of a flattened enum, as alternative sets of properties.
fn alternatives(api: &Api, group: &str, params: &mut Wire) {
    let Some(Kind::Enum(e)) = api.types.get(group).map(|d| &d.kind) else {
        return;
    };
    let need = Need::Alternative(group.to_owned());
    let mut sets = Vec::new();
    for variant in &e.variants {
        let mut keys = Vec::new();
        let payload_fields = |payload: &Payload| -> Vec<(String, String, bool)> {
            match payload {
                Payload::Struct(fields) => fields
                    .iter()
                    .map(|f| (f.wire_name.clone(), render(&f.ty), f.required))
                    .collect(),
                Payload::Newtype(inner) => wire(api, inner)
                    .fields
                    .into_iter()
                    .map(|(k, (ty, need))| (k, ty, need == Need::Required))
                    .collect(),
                Payload::Unit => Vec::new(),
            }
        };
        let fields = match &e.tagging {
            // `"latest"`, or `{"block_id": ..}`: the property is the variant's name.
            Tagging::External => {
                match &variant.payload {
                    Payload::Unit => keys.push(format!("\"{}\"", variant.wire)),
                    Payload::Newtype(ty) => {
                        keys.push(variant.wire.clone());
                        params
                            .fields
                            .insert(variant.wire.clone(), (render(ty), need.clone()));
                    }
                    Payload::Struct(_) => {
                        keys.push(variant.wire.clone());
                        params
                            .fields
                            .insert(variant.wire.clone(), ("{ .. }".into(), need.clone()));
                    }
                }
                Vec::new()
            }
            Tagging::Internal { tag } | Tagging::Adjacent { tag, .. } => {
                keys.push(format!("{tag}={}", variant.wire));
                params
                    .fields
                    .insert(tag.clone(), ("String".into(), need.clone()));
                payload_fields(&variant.payload)
            }
            Tagging::Shape | Tagging::Untagged => payload_fields(&variant.payload),
        };
        for (key, ty, required) in fields {
            if required {
                keys.push(key.clone());
            }
            let entry = params.fields.entry(key).or_insert((ty, need.clone()));
            if entry.1 != Need::Required {
                entry.1 = need.clone();
            }
        }
        sets.push(keys);
    }
    params.groups.push((group.to_owned(), sets));
}

fn params(method: &str, a: &Wire, b: &Wire, out: &mut Vec<Change>) {
    let item = |key: &str| format!("{method}({key})");
    for (key, (ty, need)) in &b.fields {
        match a.fields.get(key) {
            None => out.push(change(
                if *need == Need::Required {
                    Severity::Breaking
                } else {
                    Severity::Additive
                },
                "param",
                item(key),
                format!("only in OpenRPC ({}): `{ty}`", need.text()),
            )),
            Some((a_ty, a_need)) => {
                if a_ty != ty {
                    out.push(change(
                        Severity::Breaking,
                        "param",
                        item(key),
                        format!("`{a_ty}` in OpenAPI, `{ty}` in OpenRPC"),
                    ));
                }
                // Alternatives that became optional fields are the constraint below.
                let lost_alternative =
                    matches!(a_need, Need::Alternative(_)) && *need == Need::Optional;
                if a_need != need && !lost_alternative {
                    out.push(change(
                        Severity::Breaking,
                        "param",
                        item(key),
                        format!("{} in OpenAPI, {} in OpenRPC", a_need.text(), need.text()),
                    ));
                }
            }
        }
    }
    for (key, (ty, need)) in &a.fields {
        if !b.fields.contains_key(key) {
            out.push(change(
                Severity::Breaking,
                "param",
                item(key),
                format!("only in OpenAPI ({}): `{ty}`", need.text()),
            ));
        }
    }
    for (group, sets) in &a.groups {
        if b.groups.iter().any(|(g, s)| g == group && s == sets) {
            continue;
        }
        let sets: Vec<String> = sets
            .iter()
            .map(|keys| format!("{{{}}}", keys.join(", ")))
            .collect();
        out.push(change(
            Severity::Breaking,
            "constraint",
            format!("{method}(..)"),
            format!(
                "OpenAPI takes exactly one of {} (`{group}`); OpenRPC does not say so",
                sets.join(" or ")
            ),
        ));
    }
}

fn types(openapi: &Api, openrpc: &Api, out: &mut Vec<Change>) {
    // Params types are compared above, by what goes on the wire; the envelope aliases
    // exist only in OpenAPI, which states each method's whole request and response.
    let skipped = |api: &Api| -> BTreeSet<String> {
        let mut names: BTreeSet<String> = api
            .methods
            .values()
            .filter_map(|m| match &m.params {
                TypeExpr::Named(name) => Some(name.clone()),
                _ => None,
            })
            .collect();
        let envelopes = api.types.iter().filter(|(_, def)| def.is_envelope());
        names.extend(envelopes.map(|(name, _)| name.clone()));
        names
    };
    let (skip_a, skip_b) = (skipped(openapi), skipped(openrpc));
    let envelopes = openapi.types.values().filter(|d| d.is_envelope()).count();
    if envelopes > 0 {
        out.push(change(
            Severity::Breaking,
            "type",
            format!("({envelopes} envelope aliases)"),
            "only in OpenAPI: `JsonRpcRequest_for_*`, `JsonRpcResponse_for_*` and \
             `ErrorWrapper_for_*` (the OpenRPC document states params and results, not \
             whole requests and responses)",
        ));
    }
    for (name, def) in &openapi.types {
        if skip_a.contains(name) {
            continue;
        }
        let Some(other) = openrpc.types.get(name) else {
            out.push(change(Severity::Breaking, "type", name, "only in OpenAPI"));
            continue;
        };
        let ((a, a_docs), (b, b_docs)) = (shape_of(def), shape_of(other));
        diff_shape(FRAMING, name, &a, &b, out);
        if a_docs != b_docs {
            out.push(change(Severity::Docs, "type", name, "doc text differs"));
        }
    }
    for name in openrpc.types.keys() {
        if !openapi.types.contains_key(name) && !skip_b.contains(name) {
            out.push(change(Severity::Additive, "type", name, "only in OpenRPC"));
        }
    }
}

impl Crosscheck {
    /// The one-line summary.
    pub fn summary(&self) -> String {
        let (breaking, additive, docs) = counts(&self.changes);
        format!(
            "OpenAPI vs OpenRPC {}: {breaking} breaking, {additive} additive, {docs} doc-only \
             differences",
            self.version
        )
    }

    /// Plain text: the summary, then one line per difference.
    pub fn to_text(&self) -> String {
        text_lines(&self.summary(), &self.changes, 10)
    }

    /// Markdown: the summary, then the differences grouped by class.
    pub fn to_markdown(&self) -> String {
        let groups = markdown_groups(
            &self.changes,
            "###",
            [
                (
                    Severity::Breaking,
                    "Breaking: the OpenRPC document alone loses it",
                ),
                (
                    Severity::Additive,
                    "Additive: only the OpenRPC document has it",
                ),
                (Severity::Docs, "Docs: only the text differs"),
            ],
        );
        format!("{}.\n{groups}", self.summary())
    }
}
