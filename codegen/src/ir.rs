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
//! 5. everything else (objects, newtypes, primitives) goes to typify.

use std::collections::{BTreeMap, BTreeSet};

use heck::{ToPascalCase, ToSnakeCase};
use serde_json::{Map, Value};

use crate::handwritten::{self, ENVELOPE_PREFIXES};
use crate::Error;

const REF_PREFIX: &str = "#/components/schemas/";

/// The whole generated API of one spec version.
#[derive(Debug, Clone)]
pub struct Api {
    /// `info.version` of the spec.
    pub version: String,
    /// sha256 of the spec document.
    pub sha256: String,
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
    /// How it is rendered.
    pub kind: Kind,
    /// The normalized schema (for typify, and for the API diff's struct fields).
    pub schema: Value,
}

/// How a type is rendered.
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
    /// An ordinary schema (struct, newtype, primitive alias) rendered by typify.
    Typify,
    /// An enum rendered by our emitter.
    Enum(Enum),
    /// Properties plus flattened alternatives, rendered by our emitter.
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
    /// `Option<T>`.
    Option(Box<TypeExpr>),
    /// Map from string keys.
    Map(Box<TypeExpr>),
    /// A tuple.
    Tuple(Vec<TypeExpr>),
    /// Any JSON.
    Value,
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
    /// Handler error type (the `cause` of a `HANDLER_ERROR`).
    pub error: TypeExpr,
    /// Whether the method submits a transaction: its params require a `SignedTransaction`
    /// property (`send_tx`, `broadcast_tx_*`). Transaction lookups (`tx`) accept one too,
    /// but as one alternative, never as a required property. The client never repeats
    /// such a call once it may have reached a node.
    pub submits_transaction: bool,
}

/// The Rust name of a schema, spelled the way typify spells it so both emitters agree.
pub fn rust_type_name(schema_name: &str) -> String {
    let cleaned = schema_name
        .replace('\'', "")
        .replace(|c: char| !(c.is_alphanumeric() || c == '_'), "-");
    cleaned.to_pascal_case()
}

/// The Rust name of a method's marker type: the wire name in PascalCase with a `Method`
/// suffix (`block` → `BlockMethod`), so that no marker shares a name with a data type
/// (`types::Block`, `types::GenesisConfig`, ...) and a glob import of both modules works.
pub fn method_marker_name(wire: &str) -> String {
    format!("{}Method", rust_type_name(wire))
}

/// The Rust name of a field, with keywords avoided.
pub fn rust_field_name(wire: &str) -> String {
    let name = wire.to_snake_case();
    match name.as_str() {
        "type" | "move" | "ref" | "self" | "match" | "mod" | "use" | "impl" | "fn" | "enum"
        | "struct" | "trait" | "where" | "loop" | "static" | "const" | "crate" | "super" => {
            format!("{name}_")
        }
        _ if name.starts_with(|c: char| c.is_ascii_digit()) => format!("_{name}"),
        _ => name,
    }
}

fn variant_name(wire: &str) -> String {
    let name = rust_type_name(wire);
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("V{name}")
    } else {
        name
    }
}

/// Builds the IR of a normalized spec.
pub fn build(
    version: &str,
    sha256: &str,
    document: &Value,
    schemas: &Map<String, Value>,
) -> Result<Api, Error> {
    let mut builder = Builder {
        schemas,
        types: BTreeMap::new(),
        param_schemas: BTreeSet::new(),
        open_roots: BTreeSet::new(),
    };
    let methods = builder.methods(document)?;
    builder.open_roots = reachable(schemas, builder.response_roots());
    for (name, schema) in schemas {
        builder.add_schema(name, schema)?;
    }
    let api = Api {
        version: version.to_owned(),
        sha256: sha256.to_owned(),
        types: builder.types,
        methods,
    };
    validate(&api)?;
    Ok(api)
}

struct Builder<'a> {
    schemas: &'a Map<String, Value>,
    types: BTreeMap<String, TypeDef>,
    /// Schemas used directly as a method's params.
    param_schemas: BTreeSet<String>,
    /// Schemas a response can contain.
    open_roots: BTreeSet<String>,
}

impl Builder<'_> {
    fn response_roots(&self) -> Vec<String> {
        self.schemas
            .keys()
            .filter(|n| n.starts_with("JsonRpcResponse_for_"))
            .cloned()
            .collect()
    }

    fn methods(&mut self, document: &Value) -> Result<BTreeMap<String, Method>, Error> {
        let mut methods = BTreeMap::new();
        let paths = document["paths"].as_object().into_iter().flatten();
        for (path, item) in paths {
            let op = &item["post"];
            let name = op["operationId"]
                .as_str()
                .unwrap_or_else(|| path.trim_start_matches('/'))
                .to_owned();
            let at = |what: &str| Error::new(format!("method {name}: {what}"));
            let request = ref_name(
                op.pointer("/requestBody/content/application~1json/schema")
                    .ok_or_else(|| at("no request schema"))?,
            )
            .ok_or_else(|| at("request schema is not a $ref"))?;
            let response = ref_name(
                op.pointer("/responses/200/content/application~1json/schema")
                    .ok_or_else(|| at("no 200 response schema"))?,
            )
            .ok_or_else(|| at("response schema is not a $ref"))?;
            let params_schema = self
                .schema(request)?
                .pointer("/properties/params")
                .ok_or_else(|| at("request has no params"))?
                .clone();
            let params_schema = &params_schema;
            if let Some(params) = ref_name(params_schema) {
                self.param_schemas.insert(params.to_owned());
            }
            let (result, error) = self.response_parts(response)?;
            let submits_transaction = self.requires_signed_transaction(params_schema);
            let method = Method {
                submits_transaction,
                rust_name: method_marker_name(&name),
                doc: op["description"].as_str().map(clean_doc),
                params: self.type_expr(params_schema, &format!("{name}Params"))?,
                result: self.type_expr(&result, &format!("{name}Result"))?,
                error: self.type_expr(&error, &format!("{name}Error"))?,
                name: name.clone(),
            };
            methods.insert(name, method);
        }
        Ok(methods)
    }

    /// Whether a params schema (or the schema it refers to) lists a property of type
    /// `SignedTransaction` as required.
    fn requires_signed_transaction(&self, params: &Value) -> bool {
        let schema = match ref_name(params) {
            Some(name) => match self.schemas.get(name) {
                Some(schema) => schema,
                None => return false,
            },
            None => params,
        };
        let required = schema["required"].as_array().into_iter().flatten();
        required.filter_map(Value::as_str).any(|field| {
            let property = &schema["properties"][field];
            let refs =
                std::iter::once(property).chain(property["allOf"].as_array().into_iter().flatten());
            refs.filter_map(ref_name)
                .any(|name| name == "SignedTransaction")
        })
    }

    /// The result schema and the handler-error schema of a `JsonRpcResponse_for_*`.
    fn response_parts(&self, response: &str) -> Result<(Value, Value), Error> {
        let arms = alternatives(self.schema(response)?).unwrap_or_default();
        let arm_prop = |key: &str| {
            arms.iter()
                .find_map(|arm| arm.pointer(&format!("/properties/{key}")).cloned())
                .ok_or_else(|| Error::new(format!("{response}: no `{key}` arm")))
        };
        let result = arm_prop("result")?;
        let wrapper = ref_name(&arm_prop("error")?)
            .ok_or_else(|| Error::new(format!("{response}: error is not a $ref")))?
            .to_owned();
        Ok((result, self.handler_cause(&wrapper)?))
    }

    /// The `cause` schema of the `HANDLER_ERROR` arm of an `ErrorWrapper_for_*`.
    fn handler_cause(&self, wrapper: &str) -> Result<Value, Error> {
        alternatives(self.schema(wrapper)?)
            .unwrap_or_default()
            .iter()
            .find(|arm| single_tag(arm, "name").as_deref() == Some("HANDLER_ERROR"))
            .and_then(|arm| arm.pointer("/properties/cause").cloned())
            .ok_or_else(|| Error::new(format!("{wrapper}: no HANDLER_ERROR arm")))
    }

    fn schema(&self, name: &str) -> Result<&Value, Error> {
        self.schemas
            .get(name)
            .ok_or_else(|| Error::new(format!("$ref to unknown schema {name}")))
    }

    fn insert(&mut self, def: TypeDef) -> Result<(), Error> {
        if self.types.contains_key(&def.rust_name) {
            return Err(Error::new(format!(
                "two types would be named {}",
                def.rust_name
            )));
        }
        self.types.insert(def.rust_name.clone(), def);
        Ok(())
    }

    fn add_schema(&mut self, name: &str, schema: &Value) -> Result<(), Error> {
        let rust_name = rust_type_name(name);
        let doc = doc_of(schema);
        let def = |kind| TypeDef {
            rust_name: rust_name.clone(),
            schema_name: Some(name.to_owned()),
            doc: doc.clone(),
            kind,
            schema: schema.clone(),
        };
        if let Some(r) = handwritten::replacement(name) {
            return self.insert(def(Kind::HandWritten {
                rust_path: r.rust_path.to_owned(),
            }));
        }
        if ENVELOPE_PREFIXES.iter().any(|p| name.starts_with(p)) {
            let target = self.envelope_target(name, schema)?;
            return self.insert(def(Kind::Alias { target }));
        }
        // `params: null` methods: the unit type serializes as `null`.
        if is_null(schema) {
            return self.insert(def(Kind::Alias {
                target: TypeExpr::Unit,
            }));
        }
        let open = self.open_roots.contains(name);
        let has_props = schema.get("properties").is_some();
        // A plain string enum is an enum with one arm listing the strings, so that the open
        // rule applies to it like to any other enum.
        let arms =
            alternatives(schema).or_else(|| is_string_enum(schema).then(|| vec![schema.clone()]));
        match arms {
            Some(arms) if has_props || self.param_schemas.contains(name) => {
                let flattened = self.flattened(&rust_name, schema, &arms, open)?;
                self.insert(def(Kind::Flattened(flattened)))
            }
            Some(arms) if !is_nullable_wrapper(&arms) => {
                let e = self.enumeration(&rust_name, &arms, open)?;
                self.insert(def(Kind::Enum(e)))
            }
            _ => self.insert(def(Kind::Typify)),
        }
    }

    fn envelope_target(&mut self, name: &str, schema: &Value) -> Result<TypeExpr, Error> {
        if name.starts_with("JsonRpcRequest_for_") {
            let params = schema
                .pointer("/properties/params")
                .ok_or_else(|| Error::new(format!("{name}: no params")))?;
            let params = self.type_expr(params, &format!("{name}Params"))?;
            Ok(TypeExpr::Generic("crate::Request".into(), vec![params]))
        } else if name.starts_with("JsonRpcResponse_for_") {
            let (result, error) = self.response_parts(name)?;
            let result = self.type_expr(&result, &format!("{name}Result"))?;
            let error = self.type_expr(&error, &format!("{name}Error"))?;
            let wrapper = TypeExpr::Generic("crate::ErrorWrapper".into(), vec![error]);
            Ok(TypeExpr::Generic(
                "crate::Response".into(),
                vec![result, wrapper],
            ))
        } else {
            let cause = self.handler_cause(name)?;
            let cause = self.type_expr(&cause, &format!("{name}Cause"))?;
            Ok(TypeExpr::Generic("crate::ErrorWrapper".into(), vec![cause]))
        }
    }

    /// Properties plus flattened alternatives.
    fn flattened(
        &mut self,
        rust_name: &str,
        schema: &Value,
        arms: &[Value],
        open: bool,
    ) -> Result<Flattened, Error> {
        let fields = self.fields(rust_name, schema)?;
        let mut flattened = Vec::new();
        let parts = match product_factors(arms) {
            Some((left, right)) => vec![left, right],
            None => vec![arms.to_vec()],
        };
        for part in parts {
            if let Some(existing) = self.named_enum_with_arms(&part) {
                flattened.push((rust_field_name(&existing), existing));
                continue;
            }
            // Two synthesized factors (specs before a named BlockReference existed) are
            // told apart by number.
            let suffix = match flattened
                .iter()
                .filter(|(f, _)| f.starts_with("kind"))
                .count()
            {
                0 => String::new(),
                n => (n + 1).to_string(),
            };
            let enum_name = format!("{rust_name}Kind{suffix}");
            let e = self.enumeration(&enum_name, &part, open)?;
            self.insert(TypeDef {
                rust_name: enum_name.clone(),
                schema_name: None,
                doc: Some(format!(
                    "The alternatives of [`{rust_name}`], flattened into it on the wire."
                )),
                kind: Kind::Enum(e),
                schema: Value::Array(part),
            })?;
            flattened.push((format!("kind{suffix}"), enum_name));
        }
        Ok(Flattened { fields, flattened })
    }

    /// A schema (other than a params schema) whose alternatives equal `arms`: flattened
    /// alternatives reuse it, so that e.g. every block-reference request shares
    /// `BlockReference`.
    fn named_enum_with_arms(&self, arms: &[Value]) -> Option<String> {
        let wanted: Vec<Value> = arms.iter().map(strip_docs).collect();
        self.schemas
            .iter()
            .filter(|(name, s)| {
                s.get("properties").is_none() && !self.param_schemas.contains(name.as_str())
            })
            .find(|(_, s)| {
                alternatives(s)
                    .is_some_and(|a| a.iter().map(strip_docs).collect::<Vec<_>>() == wanted)
            })
            .map(|(name, _)| rust_type_name(name))
    }

    fn enumeration(&mut self, owner: &str, arms: &[Value], open: bool) -> Result<Enum, Error> {
        let (tagging, variants) = if let Some(tag) = discriminator(arms) {
            self.tagged_variants(owner, arms, &tag)?
        } else if arms.iter().all(is_external_arm) {
            (Tagging::External, self.external_variants(owner, arms)?)
        } else if arms.iter().all(|arm| self.is_object_schema(arm)) {
            (Tagging::Shape, self.shape_variants(owner, arms)?)
        } else {
            // A string that is a hash or an account id: only trying each in turn tells.
            // Such a union can't tell a new variant from a broken one, so it is closed.
            let variants = self.untagged_variants(owner, arms)?;
            return Ok(Enum {
                tagging: Tagging::Untagged,
                variants,
                open: false,
            });
        };
        Ok(Enum {
            tagging,
            variants,
            open,
        })
    }

    /// `"Name"` and `{"Name": payload}` arms.
    fn external_variants(&mut self, owner: &str, arms: &[Value]) -> Result<Vec<Variant>, Error> {
        let mut variants = Vec::new();
        for arm in arms {
            if let Some(values) = arm.get("enum").and_then(Value::as_array) {
                for value in values {
                    let wire = value.as_str().unwrap_or_default().to_owned();
                    variants.push(Variant {
                        rust_name: variant_name(&wire),
                        wire,
                        required_keys: Vec::new(),
                        // A plain string enum lists many values under one description:
                        // that text documents the type, not each variant.
                        doc: if values.len() == 1 { doc_of(arm) } else { None },
                        payload: Payload::Unit,
                    });
                }
                continue;
            }
            let (wire, inner) = arm["properties"]
                .as_object()
                .and_then(|p| p.iter().next())
                .ok_or_else(|| Error::new(format!("{owner}: empty externally tagged arm")))?;
            let rust_name = variant_name(wire);
            let payload = self.payload(&format!("{owner}{rust_name}"), inner)?;
            variants.push(Variant {
                rust_name,
                wire: wire.clone(),
                required_keys: Vec::new(),
                doc: doc_of(arm).or_else(|| doc_of(inner)),
                payload,
            });
        }
        Ok(variants)
    }

    /// Arms that share a single-valued string property `tag`.
    fn tagged_variants(
        &mut self,
        owner: &str,
        arms: &[Value],
        tag: &str,
    ) -> Result<(Tagging, Vec<Variant>), Error> {
        let others: Vec<Vec<&String>> = arms
            .iter()
            .map(|arm| {
                arm["properties"]
                    .as_object()
                    .map(|p| p.keys().filter(|k| *k != tag).collect())
                    .unwrap_or_default()
            })
            .collect();
        let content_names: BTreeSet<&String> = others.iter().flatten().copied().collect();
        // `{"name": .., "info": {..}}`: one shared property holding an object is the
        // variant's payload (adjacent tagging); a shared scalar such as `account_id` is a
        // field of each variant (internal tagging).
        let adjacent = others.iter().all(|o| o.len() <= 1)
            && content_names.len() == 1
            && arms.iter().all(|arm| arm.get("allOf").is_none())
            && arms.iter().zip(&others).all(|(arm, other)| {
                other.first().is_none_or(|content| {
                    self.is_object_schema(&arm["properties"][content.as_str()])
                })
            });
        let tagging = match (adjacent, content_names.iter().next()) {
            (true, Some(content)) => Tagging::Adjacent {
                tag: tag.to_owned(),
                content: (*content).clone(),
            },
            _ => Tagging::Internal {
                tag: tag.to_owned(),
            },
        };
        let mut variants = Vec::new();
        for arm in arms {
            let wire = single_tag(arm, tag).unwrap_or_default();
            let rust_name = variant_name(&wire);
            let hoist = format!("{owner}{rust_name}");
            let payload = match &tagging {
                Tagging::Adjacent { content, .. } => match arm.pointer(&format!(
                    "/properties/{}",
                    content.replace('~', "~0").replace('/', "~1")
                )) {
                    Some(inner) => self.payload(&hoist, inner)?,
                    None => Payload::Unit,
                },
                _ => {
                    if let Some(base) = arm.get("allOf").and_then(|a| a.get(0)) {
                        Payload::Newtype(self.type_expr(base, &hoist)?)
                    } else {
                        let mut rest = arm.clone();
                        if let Some(p) = rest.get_mut("properties").and_then(Value::as_object_mut) {
                            p.remove(tag);
                        }
                        let fields = self.fields(&hoist, &rest)?;
                        if fields.is_empty() {
                            Payload::Unit
                        } else {
                            Payload::Struct(fields)
                        }
                    }
                }
            };
            variants.push(Variant {
                rust_name,
                wire,
                required_keys: Vec::new(),
                doc: doc_of(arm),
                payload,
            });
        }
        Ok((tagging, variants))
    }

    /// An object schema, inline or behind one `$ref`.
    fn is_object_schema(&self, schema: &Value) -> bool {
        let schema = ref_name(schema)
            .and_then(|name| self.schemas.get(name))
            .unwrap_or(schema);
        schema.get("type").and_then(Value::as_str) == Some("object")
            || schema.get("properties").is_some()
    }

    /// Arms told apart only by which properties they require.
    fn shape_variants(&mut self, owner: &str, arms: &[Value]) -> Result<Vec<Variant>, Error> {
        let mut variants = Vec::new();
        for arm in arms {
            let target = match ref_name(arm) {
                Some(name) => self.schema(name)?.clone(),
                None => arm.clone(),
            };
            let required_keys: Vec<String> = target["required"]
                .as_array()
                .map(|r| {
                    r.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default();
            let rust_name = match (ref_name(arm), arm.get("title").and_then(Value::as_str)) {
                (Some(name), _) => rust_type_name(name),
                (None, Some(title)) => variant_name(title),
                (None, None) => variant_name(&required_keys.join("_")),
            };
            let payload = match ref_name(arm) {
                Some(_) => Payload::Newtype(self.type_expr(arm, owner)?),
                None => Payload::Struct(self.fields(&format!("{owner}{rust_name}"), arm)?),
            };
            if required_keys.is_empty() {
                return Err(Error::new(format!(
                    "{owner}: untagged arm {rust_name} requires no property, so it can't be told apart"
                )));
            }
            variants.push(Variant {
                rust_name,
                wire: String::new(),
                required_keys,
                doc: doc_of(arm),
                payload,
            });
        }
        Ok(variants)
    }

    /// Arms tried in order (at least one is not an object).
    fn untagged_variants(&mut self, owner: &str, arms: &[Value]) -> Result<Vec<Variant>, Error> {
        let mut variants = Vec::new();
        for arm in arms {
            let rust_name = match (ref_name(arm), arm.get("title").and_then(Value::as_str)) {
                (Some(name), _) => rust_type_name(name),
                (None, Some(title)) => variant_name(title),
                (None, None) => variant_name(arm["type"].as_str().unwrap_or("value")),
            };
            let hoist = format!("{owner}{rust_name}");
            variants.push(Variant {
                payload: Payload::Newtype(self.type_expr(arm, &hoist)?),
                rust_name,
                wire: String::new(),
                required_keys: Vec::new(),
                doc: doc_of(arm),
            });
        }
        Ok(variants)
    }

    /// The payload of an externally or adjacently tagged variant.
    fn payload(&mut self, hoist: &str, inner: &Value) -> Result<Payload, Error> {
        if inner.get("properties").is_some() && alternatives(inner).is_none() {
            Ok(Payload::Struct(self.fields(hoist, inner)?))
        } else {
            Ok(Payload::Newtype(self.type_expr(inner, hoist)?))
        }
    }

    fn fields(&mut self, owner: &str, schema: &Value) -> Result<Vec<Field>, Error> {
        let required: BTreeSet<&str> = schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut fields = Vec::new();
        for (wire, prop) in schema["properties"].as_object().into_iter().flatten() {
            let rust_name = rust_field_name(wire);
            let hoist = format!("{owner}{}", rust_type_name(wire));
            fields.push(Field {
                ty: self.type_expr(prop, &hoist)?,
                required: required.contains(wire.as_str()),
                doc: doc_of(prop),
                wire_name: wire.clone(),
                rust_name,
            });
        }
        Ok(fields)
    }

    /// The Rust type of a schema in field position. An inline object with properties is
    /// hoisted into a named struct (`hoist`) that typify renders.
    fn type_expr(&mut self, schema: &Value, hoist: &str) -> Result<TypeExpr, Error> {
        if let Some(name) = ref_name(schema) {
            self.schema(name)?;
            return Ok(match handwritten::replacement(name) {
                Some(r) => TypeExpr::Named(r.rust_path.to_owned()),
                None => TypeExpr::Named(rust_type_name(name)),
            });
        }
        if let Some(arms) = alternatives(schema) {
            if is_nullable_wrapper(&arms) {
                let inner = arms
                    .iter()
                    .find(|a| !is_null(a))
                    .cloned()
                    .unwrap_or_default();
                return Ok(TypeExpr::Option(Box::new(self.type_expr(&inner, hoist)?)));
            }
            return Err(Error::new(format!(
                "{hoist}: inline oneOf/anyOf is not supported; give it a name with a patch"
            )));
        }
        if let Some([single]) = schema
            .get("allOf")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
        {
            return self.type_expr(single, hoist);
        }
        if let Some(Value::Array(types)) = schema.get("type") {
            let non_null: Vec<&Value> = types.iter().filter(|t| *t != "null").collect();
            let mut inner = schema.clone();
            inner["type"] = non_null
                .first()
                .map(|t| (*t).clone())
                .unwrap_or(Value::Null);
            let inner = self.type_expr(&inner, hoist)?;
            return Ok(if non_null.len() < types.len() {
                TypeExpr::Option(Box::new(inner))
            } else {
                inner
            });
        }
        let format = schema.get("format").and_then(Value::as_str);
        Ok(match schema.get("type").and_then(Value::as_str) {
            Some("string") if schema.get("enum").is_some() => {
                return Err(Error::new(format!("{hoist}: inline string enum")))
            }
            Some("string") => TypeExpr::Prim("String"),
            Some("boolean") => TypeExpr::Prim("bool"),
            Some("number") => TypeExpr::Prim("f64"),
            Some("integer") => TypeExpr::Prim(integer_type(format)),
            Some("null") => TypeExpr::Unit,
            Some("array") => match schema.get("items") {
                Some(Value::Array(items)) => TypeExpr::Tuple(
                    items
                        .iter()
                        .map(|i| self.type_expr(i, hoist))
                        .collect::<Result<_, _>>()?,
                ),
                Some(item) => TypeExpr::Vec(Box::new(self.type_expr(item, hoist)?)),
                None => TypeExpr::Vec(Box::new(TypeExpr::Value)),
            },
            Some("object") | None => {
                match (schema.get("properties"), schema.get("additionalProperties")) {
                    (Some(_), _) => {
                        self.insert(TypeDef {
                            rust_name: hoist.to_owned(),
                            schema_name: None,
                            doc: doc_of(schema),
                            kind: Kind::Typify,
                            schema: schema.clone(),
                        })?;
                        TypeExpr::Named(hoist.to_owned())
                    }
                    (None, Some(value)) if value.is_object() => {
                        TypeExpr::Map(Box::new(self.type_expr(value, hoist)?))
                    }
                    _ => TypeExpr::Value,
                }
            }
            Some(other) => return Err(Error::new(format!("{hoist}: unknown type {other}"))),
        })
    }
}

fn integer_type(format: Option<&str>) -> &'static str {
    match format {
        Some("uint8") => "u8",
        Some("uint16") => "u16",
        Some("uint32") => "u32",
        Some("int8") => "i8",
        Some("int16") => "i16",
        Some("int32") => "i32",
        Some("int64") => "i64",
        _ => "u64",
    }
}

/// The `oneOf` or `anyOf` alternatives of a schema.
pub fn alternatives(schema: &Value) -> Option<Vec<Value>> {
    ["oneOf", "anyOf"]
        .iter()
        .find_map(|k| schema.get(*k).and_then(Value::as_array).cloned())
}

/// The target schema name of a `$ref`.
pub fn ref_name(schema: &Value) -> Option<&str> {
    schema.get("$ref")?.as_str()?.strip_prefix(REF_PREFIX)
}

fn is_string_enum(schema: &Value) -> bool {
    schema
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|values| values.iter().all(Value::is_string))
}

fn is_null(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null")
}

/// `anyOf: [X, null]`: an optional X, not an enum.
fn is_nullable_wrapper(arms: &[Value]) -> bool {
    arms.len() == 2 && arms.iter().filter(|a| is_null(a)).count() == 1
}

/// A string constant (`{"type": "string", "enum": [...]}`) or an object with exactly one
/// property (`{"Name": payload}`).
fn is_external_arm(arm: &Value) -> bool {
    if arm.get("enum").is_some() {
        return true;
    }
    let props = arm["properties"].as_object();
    let required = arm["required"].as_array();
    matches!((props, required), (Some(p), Some(r)) if p.len() == 1 && r.len() == 1)
}

/// The single string value of property `tag` in an arm, if the arm requires it.
fn single_tag(arm: &Value, tag: &str) -> Option<String> {
    let prop = arm.get("properties")?.get(tag)?;
    let values = prop.get("enum")?.as_array()?;
    let required = arm["required"].as_array()?.iter().any(|r| r == tag);
    match values.as_slice() {
        [Value::String(s)] if required => Some(s.clone()),
        _ => None,
    }
}

/// A property that every arm requires with one distinct string value: the tag.
fn discriminator(arms: &[Value]) -> Option<String> {
    let first = arms.first()?.get("properties")?.as_object()?;
    first
        .keys()
        .find(|key| {
            let tags: Vec<Option<String>> = arms.iter().map(|a| single_tag(a, key)).collect();
            let distinct: BTreeSet<&String> = tags.iter().flatten().collect();
            tags.iter().all(Option::is_some) && distinct.len() == arms.len()
        })
        .cloned()
}

/// Arms of the form `allOf: [A_i, B_j]` covering every pair: the two factor sets.
fn product_factors(arms: &[Value]) -> Option<(Vec<Value>, Vec<Value>)> {
    let mut left: Vec<Value> = Vec::new();
    let mut right: Vec<Value> = Vec::new();
    for arm in arms {
        match arm
            .get("allOf")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
        {
            Some([a, b]) if a.get("properties").is_some() && b.get("properties").is_some() => {
                let (a, b) = (strip_docs(a), strip_docs(b));
                if !left.contains(&a) {
                    left.push(a);
                }
                if !right.contains(&b) {
                    right.push(b);
                }
            }
            _ => return None,
        }
    }
    (left.len() * right.len() == arms.len()).then_some((left, right))
}

/// A schema without `title`/`description`, for structural comparison.
fn strip_docs(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| *k != "title" && *k != "description")
                .map(|(k, v)| (k.clone(), strip_docs(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn doc_of(schema: &Value) -> Option<String> {
    schema
        .get("description")
        .and_then(Value::as_str)
        .filter(|d| !d.trim().is_empty())
        .map(str::to_owned)
}

fn clean_doc(text: &str) -> String {
    crate::normalize::clean_description(text)
}

/// Every schema reachable through `$ref`s from `roots`.
fn reachable(schemas: &Map<String, Value>, roots: Vec<String>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = roots;
    while let Some(name) = stack.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        if let Some(schema) = schemas.get(&name) {
            collect_refs(schema, &mut stack);
        }
    }
    seen
}

fn collect_refs(schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(name) = ref_name(schema) {
                out.push(name.to_owned());
            }
            map.values().for_each(|v| collect_refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

/// Validation pass: names that would not compile or would collide.
fn validate(api: &Api) -> Result<(), Error> {
    for method in api.methods.values() {
        if api
            .types
            .values()
            .any(|def| def.rust_name == method.rust_name)
        {
            return Err(Error::new(format!(
                "method {}: its marker {} would share a name with a type",
                method.name, method.rust_name
            )));
        }
    }
    for def in api.types.values() {
        if let Kind::Enum(e) = &def.kind {
            let mut seen = BTreeSet::new();
            for v in &e.variants {
                if !seen.insert(&v.rust_name) {
                    return Err(Error::new(format!(
                        "{}: two variants would be named {}",
                        def.rust_name, v.rust_name
                    )));
                }
                if v.rust_name.starts_with("Variant") {
                    return Err(Error::new(format!(
                        "{}: variant {} has no meaningful name",
                        def.rust_name, v.rust_name
                    )));
                }
            }
        }
    }
    Ok(())
}
