//! What changed in the generated Rust API between two spec versions, computed from their
//! IRs (not a text diff), with each change classified for semver.
//!
//! Classification, from the point of view of code using the bindings:
//! - **breaking**: a method, type, field or variant removed; a type renamed; a method's
//!   params/result/error type or a field's type changed (`T` ↔ `Option<T>` included); a
//!   required field added; a variant added to a closed enum; an enum opened or closed.
//! - **additive**: a method, type or optional field added; a variant added to an open
//!   enum (those are `#[non_exhaustive]`, and older bindings decode the variant as
//!   `Unknown`).
//! - **docs**: only the doc text changed.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use serde::Serialize;

use crate::ir::{self, Api, Kind, Payload, TypeExpr};

/// How a change affects users.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Code using the old API may stop compiling or decoding.
    Breaking,
    /// Something new; old code keeps working.
    Additive,
    /// Doc text only.
    Docs,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Breaking => "breaking",
            Self::Additive => "additive",
            Self::Docs => "docs",
        })
    }
}

/// One change.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Change {
    /// How it affects users.
    pub severity: Severity,
    /// What kind of item: `method`, `type`, `field` or `variant`.
    pub item: &'static str,
    /// The item, e.g. `RpcBlockRequest.finality` or `ActionView::DelegateV2`.
    pub name: String,
    /// What happened, in words.
    pub description: String,
}

/// All changes between two versions, sorted (so the output is deterministic).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ApiDiff {
    /// The old spec version.
    pub old_version: String,
    /// The new spec version.
    pub new_version: String,
    /// The changes.
    pub changes: Vec<Change>,
}

/// Compares two APIs.
pub fn diff(old: &Api, new: &Api) -> ApiDiff {
    let mut changes = Vec::new();
    diff_methods(old, new, &mut changes);
    diff_types(old, new, &mut changes);
    changes.sort();
    changes.dedup();
    ApiDiff {
        old_version: old.version.clone(),
        new_version: new.version.clone(),
        changes,
    }
}

pub(crate) fn change(
    severity: Severity,
    item: &'static str,
    name: impl Into<String>,
    description: impl Into<String>,
) -> Change {
    Change {
        severity,
        item,
        name: name.into(),
        description: description.into(),
    }
}

fn diff_methods(old: &Api, new: &Api, out: &mut Vec<Change>) {
    for (name, method) in &new.methods {
        let Some(before) = old.methods.get(name) else {
            out.push(change(Severity::Additive, "method", name, "method added"));
            continue;
        };
        for (part, a, b) in [
            ("params", &before.params, &method.params),
            ("result", &before.result, &method.result),
            ("error", &before.error, &method.error),
        ] {
            if a != b {
                let description = format!(
                    "{part} type changed from `{}` to `{}`",
                    render(a),
                    render(b)
                );
                out.push(change(Severity::Breaking, "method", name, description));
            }
        }
        if before.doc != method.doc {
            out.push(change(Severity::Docs, "method", name, "doc changed"));
        }
    }
    for name in old.methods.keys().filter(|n| !new.methods.contains_key(*n)) {
        out.push(change(Severity::Breaking, "method", name, "method removed"));
    }
}

/// The comparable form of a type: its shape, without docs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Named fields (wire name → field), plus flattened enums.
    Struct(BTreeMap<String, FieldShape>),
    /// Variants (Rust name → payload), and whether the enum is open.
    Enum(BTreeMap<String, String>, bool),
    /// Anything else, described by its target type.
    Alias(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FieldShape {
    pub(crate) ty: String,
    pub(crate) required: bool,
}

/// Per-item docs of a type, for doc-only changes: (type doc, field/variant → doc).
pub(crate) type Docs = (Option<String>, BTreeMap<String, Option<String>>);

pub(crate) fn shape_of(def: &ir::TypeDef) -> (Shape, Docs) {
    let mut docs = BTreeMap::new();
    let shape = match &def.kind {
        Kind::Enum(e) => {
            let variants = e
                .variants
                .iter()
                .map(|v| {
                    docs.insert(v.rust_name.clone(), v.doc.clone());
                    (v.rust_name.clone(), payload_text(&v.payload))
                })
                .collect();
            Shape::Enum(variants, e.open)
        }
        Kind::Flattened(f) => {
            let mut fields = fields_shape(&f.fields, &mut docs);
            for (field, ty) in &f.flattened {
                let shape = FieldShape {
                    ty: format!("flatten {ty}"),
                    required: true,
                };
                fields.insert(field.clone(), shape);
            }
            Shape::Struct(fields)
        }
        Kind::Struct(s) => Shape::Struct(fields_shape(&s.fields, &mut docs)),
        Kind::Newtype(inner) => Shape::Alias(render(inner)),
        Kind::Alias { target } => Shape::Alias(render(target)),
        Kind::HandWritten { rust_path } => Shape::Alias(rust_path.clone()),
    };
    (shape, (def.doc.clone(), docs))
}

fn fields_shape(
    fields: &[ir::Field],
    docs: &mut BTreeMap<String, Option<String>>,
) -> BTreeMap<String, FieldShape> {
    fields
        .iter()
        .map(|f| {
            docs.insert(f.wire_name.clone(), f.doc.clone());
            let shape = FieldShape {
                ty: render(&f.ty),
                required: f.required,
            };
            (f.wire_name.clone(), shape)
        })
        .collect()
}

fn payload_text(payload: &Payload) -> String {
    match payload {
        Payload::Unit => String::new(),
        Payload::Newtype(ty) => format!("({})", render(ty)),
        Payload::Struct(fields) => {
            let fields: Vec<String> = fields
                .iter()
                .map(|f| {
                    let ty = render(&f.ty);
                    let optional = !f.required && !matches!(f.ty, TypeExpr::Option(_));
                    if optional {
                        format!("{}: Option<{ty}>", f.wire_name)
                    } else {
                        format!("{}: {ty}", f.wire_name)
                    }
                })
                .collect();
            format!(" {{ {} }}", fields.join(", "))
        }
    }
}

fn diff_types(old: &Api, new: &Api, out: &mut Vec<Change>) {
    let shapes = |api: &Api| -> BTreeMap<String, (Shape, Docs)> {
        api.types
            .iter()
            .map(|(name, def)| (name.clone(), shape_of(def)))
            .collect()
    };
    let (before, after) = (shapes(old), shapes(new));
    let removed: Vec<&String> = before.keys().filter(|n| !after.contains_key(*n)).collect();
    let added: Vec<&String> = after.keys().filter(|n| !before.contains_key(*n)).collect();
    // A removed type whose shape reappears under a new name was renamed. Any two string
    // newtypes have the same shape, so for those the doc text must match too.
    let mut renamed_to: BTreeMap<&String, &String> = BTreeMap::new();
    for old_name in &removed {
        let (old_shape, old_docs) = &before[*old_name];
        let target = added.iter().find(|new_name| {
            let (new_shape, new_docs) = &after[**new_name];
            let trivial = matches!(old_shape, Shape::Alias(_));
            !renamed_to.values().any(|taken| taken == *new_name)
                && new_shape == old_shape
                && (!trivial || new_docs.0 == old_docs.0)
        });
        if let Some(new_name) = target {
            renamed_to.insert(old_name, new_name);
        }
    }
    for old_name in &removed {
        match renamed_to.get(old_name) {
            Some(new_name) => out.push(change(
                Severity::Breaking,
                "type",
                *old_name,
                format!("renamed to `{new_name}`"),
            )),
            None => out.push(change(
                Severity::Breaking,
                "type",
                *old_name,
                "type removed",
            )),
        }
    }
    for new_name in added
        .iter()
        .filter(|n| !renamed_to.values().any(|taken| taken == *n))
    {
        out.push(change(Severity::Additive, "type", *new_name, "type added"));
    }
    for (name, (shape, docs)) in &after {
        if let Some((old_shape, old_docs)) = before.get(name) {
            diff_shape(Framing::Versions, name, old_shape, shape, out);
            diff_docs(name, old_docs, docs, out);
        }
    }
}

/// How a comparison names what it finds: between two versions (`diff`: "field
/// added", "type changed from `a` to `b`") or between two documents of one version
/// (`crosscheck`: "only in OpenRPC", "`a` in OpenAPI, `b` in OpenRPC"). The classes are
/// the same either way, with the old side as the API users have.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Framing {
    /// Old and new version.
    Versions,
    /// Two documents, named as given (old, new).
    Documents(&'static str, &'static str),
}

impl Framing {
    /// `what` is only on the new side; `detail` follows.
    fn added(self, what: &str, detail: &str) -> String {
        match self {
            Framing::Versions => format!("{what} added{detail}"),
            Framing::Documents(_, new) => format!("only in {new}{detail}"),
        }
    }

    /// `what` is only on the old side; `detail` follows.
    fn removed(self, what: &str, detail: &str) -> String {
        match self {
            Framing::Versions => format!("{what} removed{detail}"),
            Framing::Documents(old, _) => format!("only in {old}{detail}"),
        }
    }

    /// `what` is `before` on the old side and `after` on the new one.
    fn changed(self, what: &str, before: &str, after: &str) -> String {
        match self {
            Framing::Versions => format!("{what} from {before} to {after}"),
            Framing::Documents(old, new) => format!("{before} in {old}, {after} in {new}"),
        }
    }

    /// What the old side's `ty` (required or not) says, in the documents' framing.
    fn detail(self, required: bool, ty: &str) -> String {
        match self {
            Framing::Versions => String::new(),
            Framing::Documents(..) => format!(" ({}): `{ty}`", required_text(required)),
        }
    }
}

fn required_text(required: bool) -> &'static str {
    if required {
        "required"
    } else {
        "optional"
    }
}

pub(crate) fn diff_shape(
    framing: Framing,
    name: &str,
    old: &Shape,
    new: &Shape,
    out: &mut Vec<Change>,
) {
    match (old, new) {
        (Shape::Struct(a), Shape::Struct(b)) => {
            for (field, after) in b {
                let item = format!("{name}.{field}");
                let Some(before) = a.get(field) else {
                    let (severity, what) = if after.required {
                        (Severity::Breaking, "required field")
                    } else {
                        (Severity::Additive, "optional field")
                    };
                    let detail = match framing {
                        Framing::Versions => format!(": `{}`", after.ty),
                        Framing::Documents(..) => framing.detail(after.required, &after.ty),
                    };
                    out.push(change(
                        severity,
                        "field",
                        item,
                        framing.added(what, &detail),
                    ));
                    continue;
                };
                if before.ty != after.ty {
                    let (a, b) = (format!("`{}`", before.ty), format!("`{}`", after.ty));
                    let description = framing.changed("type changed", &a, &b);
                    out.push(change(
                        Severity::Breaking,
                        "field",
                        item.clone(),
                        description,
                    ));
                }
                if before.required != after.required {
                    let (a, b) = (
                        required_text(before.required),
                        required_text(after.required),
                    );
                    let description = framing.changed("changed", a, b);
                    out.push(change(Severity::Breaking, "field", item, description));
                }
            }
            for (field, before) in a.iter().filter(|(f, _)| !b.contains_key(*f)) {
                let detail = framing.detail(before.required, &before.ty);
                out.push(change(
                    Severity::Breaking,
                    "field",
                    format!("{name}.{field}"),
                    framing.removed("field", &detail),
                ));
            }
        }
        (Shape::Enum(a, was_open), Shape::Enum(b, is_open)) => {
            for (variant, payload) in b {
                let item = format!("{name}::{variant}");
                match a.get(variant) {
                    None if *was_open && *is_open => out.push(change(
                        Severity::Additive,
                        "variant",
                        item,
                        framing.added("variant", " (older bindings decode it as Unknown)"),
                    )),
                    None => out.push(change(
                        Severity::Breaking,
                        "variant",
                        item,
                        framing.added(
                            "variant",
                            match framing {
                                Framing::Versions => " to a closed enum",
                                Framing::Documents(..) => " (a closed enum)",
                            },
                        ),
                    )),
                    Some(before) if before != payload => {
                        let (a, b) = (
                            format!("`{}`", before.trim()),
                            format!("`{}`", payload.trim()),
                        );
                        let description = framing.changed("payload changed", &a, &b);
                        out.push(change(Severity::Breaking, "variant", item, description))
                    }
                    Some(_) => {}
                }
            }
            for variant in a.keys().filter(|v| !b.contains_key(*v)) {
                out.push(change(
                    Severity::Breaking,
                    "variant",
                    format!("{name}::{variant}"),
                    framing.removed("variant", ""),
                ));
            }
            if was_open != is_open {
                let description = match framing {
                    Framing::Versions if *is_open => {
                        "became open (gained an Unknown variant)".to_owned()
                    }
                    Framing::Versions => "became closed".to_owned(),
                    Framing::Documents(..) => {
                        let open = |o: bool| if o { "open" } else { "closed" };
                        framing.changed("", open(*was_open), open(*is_open))
                    }
                };
                out.push(change(Severity::Breaking, "type", name, description));
            }
        }
        (a, b) if a != b => {
            let description = framing.changed("changed", &describe(a), &describe(b));
            out.push(change(Severity::Breaking, "type", name, description));
        }
        _ => {}
    }
}

fn describe(shape: &Shape) -> String {
    match shape {
        Shape::Struct(_) => "a struct".into(),
        Shape::Enum(..) => "an enum".into(),
        Shape::Alias(target) => format!("`{target}`"),
    }
}

pub(crate) fn diff_docs(name: &str, old: &Docs, new: &Docs, out: &mut Vec<Change>) {
    if old.0 != new.0 {
        out.push(change(Severity::Docs, "type", name, "doc changed"));
    }
    for (item, doc) in &new.1 {
        if old.1.get(item).is_some_and(|before| before != doc) {
            out.push(change(
                Severity::Docs,
                "field",
                format!("{name}.{item}"),
                "doc changed",
            ));
        }
    }
}

/// A type expression as Rust-like text.
pub fn render(ty: &TypeExpr) -> String {
    match ty {
        TypeExpr::Named(name) => short(name),
        TypeExpr::Prim(p) => (*p).to_owned(),
        TypeExpr::Vec(inner) => format!("Vec<{}>", render(inner)),
        TypeExpr::Array(inner, len) => format!("[{}; {len}]", render(inner)),
        TypeExpr::Option(inner) => format!("Option<{}>", render(inner)),
        TypeExpr::Map(inner) => format!("Map<String, {}>", render(inner)),
        TypeExpr::Tuple(items) => format!(
            "({})",
            items.iter().map(render).collect::<Vec<_>>().join(", ")
        ),
        TypeExpr::Value => "Value".into(),
        TypeExpr::Object => "Map<String, Value>".into(),
        TypeExpr::Unit => "()".into(),
        TypeExpr::Generic(name, args) => {
            format!(
                "{}<{}>",
                short(name),
                args.iter().map(render).collect::<Vec<_>>().join(", ")
            )
        }
    }
}

fn short(path: &str) -> String {
    path.rsplit("::").next().unwrap_or(path).to_owned()
}

/// Changes per severity: (breaking, additive, docs).
pub(crate) fn counts(changes: &[Change]) -> (usize, usize, usize) {
    let count = |s| changes.iter().filter(|c| c.severity == s).count();
    (
        count(Severity::Breaking),
        count(Severity::Additive),
        count(Severity::Docs),
    )
}

/// A summary line, then one line per change (`item` padded to `item_width`).
pub(crate) fn text_lines(summary: &str, changes: &[Change], item_width: usize) -> String {
    let mut text = format!("{summary}\n");
    for c in changes {
        let _ = writeln!(
            text,
            "{:<9} {:<item_width$} {}: {}",
            c.severity, c.item, c.name, c.description
        );
    }
    text
}

/// The changes as markdown lists, one per severity under its heading (empty ones left
/// out).
pub(crate) fn markdown_groups(
    changes: &[Change],
    level: &str,
    headings: [(Severity, &str); 3],
) -> String {
    let mut md = String::new();
    for (severity, heading) in headings {
        let items: Vec<&Change> = changes.iter().filter(|c| c.severity == severity).collect();
        if items.is_empty() {
            continue;
        }
        let _ = write!(md, "\n{level} {heading}\n\n");
        for c in items {
            let _ = writeln!(md, "- {} `{}`: {}", c.item, c.name, c.description);
        }
    }
    md
}

/// How every generated block of the CHANGELOG opens ([`ApiDiff::to_changelog`]): what
/// `bump` and the test of the shipped blocks look for.
pub const CHANGELOG_BLOCK: &str = "<details><summary>Generated bindings: ";

/// The groups of a diff's markdown, in order.
const SEVERITY_HEADINGS: [(Severity, &str); 3] = [
    (Severity::Breaking, "Breaking"),
    (Severity::Additive, "Added"),
    (Severity::Docs, "Documentation"),
];

impl ApiDiff {
    /// Count of changes per severity.
    pub fn counts(&self) -> (usize, usize, usize) {
        counts(&self.changes)
    }

    /// The one-line summary.
    pub fn summary(&self) -> String {
        format!(
            "{} → {}: {}",
            self.old_version,
            self.new_version,
            self.counts_text()
        )
    }

    fn counts_text(&self) -> String {
        let (breaking, additive, docs) = self.counts();
        let plural = if docs == 1 { "" } else { "s" };
        format!("{breaking} breaking, {additive} additive, {docs} doc-only change{plural}")
    }

    /// Plain text: the summary, then one line per change.
    pub fn to_text(&self) -> String {
        text_lines(&self.summary(), &self.changes, 8)
    }

    /// Markdown for a CHANGELOG section.
    pub fn to_markdown(&self) -> String {
        let mut md = format!(
            "## Spec {} → {}\n\n{}.\n",
            self.old_version,
            self.new_version,
            self.counts_text()
        );
        md.push_str(&markdown_groups(&self.changes, "###", SEVERITY_HEADINGS));
        md
    }

    /// The CHANGELOG's block for this diff: collapsed (`<details>`) under the release
    /// that ships the new version, below the release's own `### Added`, `### Changed` and
    /// `### Fixed`, so its groups are a heading level further down (`####`). The summary
    /// line names the versions and the counts.
    pub fn to_changelog(&self) -> String {
        let (breaking, additive, docs) = self.counts();
        let mut md = format!(
            "{CHANGELOG_BLOCK}spec {} → {} ({breaking} breaking, {additive} additive, \
             {docs} doc-only)</summary>\n",
            self.old_version, self.new_version,
        );
        md.push_str(&markdown_groups(&self.changes, "####", SEVERITY_HEADINGS));
        md.push_str("\n</details>\n");
        md
    }

    /// JSON: the versions, the counts and every change.
    pub fn to_json(&self) -> String {
        let (breaking, additive, docs) = self.counts();
        let value = serde_json::json!({
            "old_version": self.old_version,
            "new_version": self.new_version,
            "summary": {"breaking": breaking, "additive": additive, "docs": docs},
            "changes": self.changes,
        });
        serde_json::to_string_pretty(&value).unwrap_or_default()
    }
}
