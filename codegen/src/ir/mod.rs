//! Stage 3: the intermediate representation of the generated API.
//!
//! The IR says, for every schema, which Rust shape it becomes and who renders it, and for
//! every method, its params, result and error types. The emitters only render what the IR
//! decided; the API diff (`near-rpc-codegen diff`) compares two IRs.
//!
//! Decisions, in the order [`build`] takes them for each schema:
//! 1. a schema listed in [`crate::handwritten`] maps to a hand-written type;
//! 2. the per-method envelope schemas become aliases of the hand-written generics, and
//!    `null` schemas aliases of `()`;
//! 3. properties mixed with `oneOf`/`anyOf` (and a method's params that are a bare
//!    `oneOf`) become a struct with the alternatives as a flattened, named enum;
//! 4. other `oneOf`/`anyOf` schemas become enums (see [`Tagging`] for how the wire format
//!    is recognised and [`Enum::open`] for which enums keep unknown variants);
//! 5. everything else is a struct (objects with properties) or a newtype (strings,
//!    numbers, maps).
//!
//! Every type's shape comes from here alone: the emitters render the IR and read no
//! schema (before the first release, typify rendered the structs from the schemas: a second
//! model, checked against this one by field names only).
//!
//! The module, by concern: [`naming`] (what each item is called in Rust), `methods` (each
//! method's params, result and error), `shapes` (which Rust shape each schema becomes:
//! the decisions above), `resolve` (schemas and references to Rust type expressions),
//! `schema` (reading JSON schemas: alternatives, tags, references, docs, reachability)
//! and `validate` (names that would not compile or would collide).

mod methods;
mod resolve;
mod schema;
mod shapes;
mod validate;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::error::Error;
use crate::load::{Document, Envelope, MethodSource, Spec};

pub use crate::json_schema::{alternatives, collect_refs, ref_name};
pub use crate::naming::{self, method_marker_name, rust_field_name, rust_type_name};

/// The whole generated API of one spec version.
#[derive(Debug, Clone)]
pub struct Api {
    /// nearcore's API version (`1.2.6`).
    pub version: String,
    /// The documents it was generated from, OpenAPI first.
    pub documents: Vec<Document>,
    /// Every type, by Rust name.
    pub types: BTreeMap<String, TypeDef>,
    /// Every method, by JSON-RPC method name.
    pub methods: BTreeMap<String, Method>,
}

/// One named type of the generated API.
#[derive(Debug, Clone)]
pub struct TypeDef {
    /// Rust name of the type.
    pub rust_name: String,
    /// The spec schema it comes from (`None` for enums synthesized from a flattened schema).
    pub schema_name: Option<String>,
    /// Doc text.
    pub doc: Option<String>,
    /// What it is.
    pub kind: Kind,
}

/// What a type is, fully typed: every field, variant and target is a [`TypeExpr`] with
/// references resolved to Rust names.
#[derive(Debug, Clone)]
pub enum Kind {
    /// A hand-written type in `near-rpc` (see [`crate::handwritten`]).
    HandWritten {
        /// Path of the type.
        rust_path: String,
    },
    /// An alias: of a hand-written generic envelope type, or `()` for a `null` schema.
    Alias {
        /// The aliased type.
        target: TypeExpr,
    },
    /// A struct with named fields.
    Struct(Struct),
    /// A tuple struct around one value: a string, a number, a map, ...
    Newtype(TypeExpr),
    /// An enum.
    Enum(Enum),
    /// Properties plus flattened alternatives.
    Flattened(Flattened),
}

/// An enum and how it is written on the wire.
#[derive(Debug, Clone)]
pub struct Enum {
    /// Wire format.
    pub tagging: Tagging,
    /// Variants in spec order.
    pub variants: Vec<Variant>,
    /// Open enums keep variants this version does not know in a catch-all variant that
    /// holds the raw JSON. The rule: an enum is open when a response can contain it (it
    /// is reachable from a method's result or error type), because nodes add variants
    /// with protocol upgrades; an enum only ever sent by the client is closed.
    pub open: bool,
}

impl Enum {
    /// The wire names of the variants that are bare names in the spec, which a newer node
    /// may send with a payload (kept whole in the catch-all then). Not for an internally
    /// tagged enum: a variant's payload is fields beside the tag, and new ones are ignored
    /// like any new field.
    pub fn bare_names(&self) -> Vec<&str> {
        if matches!(self.tagging, Tagging::Internal { .. }) {
            return Vec::new();
        }
        self.variants
            .iter()
            .filter(|v| matches!(v.payload, Payload::Unit))
            .map(|v| v.wire.as_str())
            .collect()
    }

    /// Name of the catch-all variant of an open enum: `Unknown`, or `Other` when the
    /// protocol itself has a variant called `Unknown`.
    pub fn unknown_variant(&self) -> &'static str {
        if self.variants.iter().any(|v| v.rust_name == "Unknown") {
            "Other"
        } else {
            "Unknown"
        }
    }
}

/// How the variant of an enum is told apart on the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tagging {
    /// `"Name"` or `{"Name": payload}` (serde's default; also plain string enums).
    External,
    /// `{"tag": "Name", ...fields}`.
    Internal {
        /// The tag property.
        tag: String,
    },
    /// `{"tag": "Name", "content": payload}`.
    Adjacent {
        /// The tag property.
        tag: String,
        /// The payload property.
        content: String,
    },
    /// No tag: the variant is the one whose required properties are present.
    Shape,
    /// No tag, and not all objects: each variant is tried in order (serde's `untagged`).
    Untagged,
}

/// One enum variant.
#[derive(Debug, Clone)]
pub struct Variant {
    /// Rust name.
    pub rust_name: String,
    /// Tag value on the wire (empty for [`Tagging::Shape`]).
    pub wire: String,
    /// Properties that must be present for a [`Tagging::Shape`] variant.
    pub required_keys: Vec<String>,
    /// Doc text.
    pub doc: Option<String>,
    /// What the variant carries.
    pub payload: Payload,
}

/// What a variant carries.
#[derive(Debug, Clone)]
pub enum Payload {
    /// Nothing.
    Unit,
    /// One value.
    Newtype(TypeExpr),
    /// Named fields.
    Struct(Vec<Field>),
}

/// A struct field or struct-variant field.
#[derive(Debug, Clone)]
pub struct Field {
    /// Property name on the wire.
    pub wire_name: String,
    /// Rust field name.
    pub rust_name: String,
    /// Field type, not counting the `Option` of an optional field.
    pub ty: TypeExpr,
    /// Whether the property is required.
    pub required: bool,
    /// Doc text.
    pub doc: Option<String>,
}

/// A struct with named fields.
#[derive(Debug, Clone)]
pub struct Struct {
    /// The fields, in the schema's property order.
    pub fields: Vec<Field>,
}

impl TypeDef {
    /// Whether it is the alias of one of a method's envelope schemas
    /// (`JsonRpcResponse_for_*`, ...).
    pub fn is_envelope(&self) -> bool {
        self.schema_name
            .as_deref()
            .is_some_and(crate::handwritten::is_envelope)
    }
}

/// A struct whose alternatives are flattened enums.
#[derive(Debug, Clone)]
pub struct Flattened {
    /// The ordinary properties.
    pub fields: Vec<Field>,
    /// The flattened enum fields: (Rust field name, enum type name).
    pub flattened: Vec<(String, String)>,
}

/// A Rust type expression.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum TypeExpr {
    /// A named type (a path for hand-written types).
    Named(String),
    /// A primitive (`String`, `u64`, `bool`, ...).
    Prim(&'static str),
    /// `Vec<T>`.
    Vec(Box<TypeExpr>),
    /// `[T; N]`: an array whose length the schema fixes (`minItems` = `maxItems`).
    Array(Box<TypeExpr>, usize),
    /// `Option<T>`.
    Option(Box<TypeExpr>),
    /// Map from string keys.
    Map(Box<TypeExpr>),
    /// A tuple.
    Tuple(Vec<TypeExpr>),
    /// Any JSON.
    Value,
    /// Any JSON object (an `object` schema that says nothing of its properties).
    Object,
    /// JSON `null`.
    Unit,
    /// A hand-written generic applied to arguments.
    Generic(String, Vec<TypeExpr>),
}

/// One JSON-RPC method.
#[derive(Debug, Clone)]
pub struct Method {
    /// JSON-RPC method name.
    pub name: String,
    /// Rust name of the method's marker type.
    pub rust_name: String,
    /// Doc text.
    pub doc: Option<String>,
    /// Params type.
    pub params: TypeExpr,
    /// Result type.
    pub result: TypeExpr,
    /// Handler error type (the `cause` of a `HANDLER_ERROR`); [`UNTYPED_CAUSE`] when
    /// the spec has no error schema for the method.
    pub error: TypeExpr,
    /// Whether the spec has an error schema for the method (OpenRPC documents have none).
    pub error_documented: bool,
    /// Whether the spec marks the method deprecated.
    pub deprecated: bool,
    /// Whether the method submits a transaction: its params require a `SignedTransaction`
    /// property (`send_tx`, `broadcast_tx_*`). Transaction lookups (`tx`) accept one too,
    /// but as one alternative, never as a required property. The client never repeats
    /// such a call once it may have reached a node.
    pub submits_transaction: bool,
}

/// The hand-written type of a handler error the spec has no schema for: the cause's
/// name and info, kept as JSON.
pub const UNTYPED_CAUSE: &str = "crate::envelope::UntypedCause";

/// The generated alias of the hand-written `ErrorWrapper` with this spec's
/// request-validation and internal causes: every method's error object (`emit`
/// writes it into `aliases.rs`).
pub const SPEC_ERROR_WRAPPER: &str = "crate::types::SpecErrorWrapper";

impl Api {
    /// What the documents this API comes from leave out, in words for the person
    /// generating it (`generate` prints it; the generated docs say it too).
    pub fn gaps(&self) -> Vec<String> {
        let untyped: Vec<&str> = self
            .methods
            .values()
            .filter(|m| !m.error_documented)
            .map(|m| m.name.as_str())
            .collect();
        if untyped.is_empty() {
            return Vec::new();
        }
        if untyped.len() == self.methods.len() {
            return vec![format!(
                "the spec has no error schemas (OpenRPC documents have none), so the handler \
                 errors of all {} methods decode as near_rpc::envelope::UntypedCause (name and \
                 info as JSON); give the OpenAPI document of the same version too for typed \
                 errors",
                untyped.len()
            )];
        }
        vec![format!(
            "{} of {} methods have no error schema in the spec, so their handler errors \
             decode as near_rpc::envelope::UntypedCause (name and info as JSON): {}",
            untyped.len(),
            self.methods.len(),
            untyped.join(", ")
        )]
    }
}

/// Builds the IR of a normalized spec.
pub fn build(spec: &Spec) -> Result<Api, Error> {
    let mut builder = Builder {
        schemas: &spec.schemas,
        envelopes: &spec.envelopes,
        types: BTreeMap::new(),
        param_schemas: BTreeSet::new(),
        open_roots: BTreeSet::new(),
    };
    let methods = builder.methods(&spec.methods)?;
    builder.open_roots =
        schema::reachable(&spec.schemas, spec.response_roots.iter().cloned().collect());
    for (name, schema) in &spec.schemas {
        builder.add_schema(name, schema)?;
    }
    let api = Api {
        version: spec.version.clone(),
        documents: spec.documents.clone(),
        types: builder.types,
        methods,
    };
    validate::validate(&api)?;
    Ok(api)
}

/// One `build` in progress; its methods live in the child module of their concern.
struct Builder<'a> {
    schemas: &'a Map<String, Value>,
    /// The envelope schemas, as loading read them.
    envelopes: &'a BTreeMap<String, Envelope>,
    types: BTreeMap<String, TypeDef>,
    /// Schemas used directly as a method's params.
    param_schemas: BTreeSet<String>,
    /// Schemas a response can contain.
    open_roots: BTreeSet<String>,
}
