//! Which Rust shape each schema becomes, in the order of the decisions in the module
//! docs: hand-written, envelope alias, flattened struct, enum (and how its variants are
//! told apart on the wire), struct or newtype.

use super::schema::*;
use super::*;
use crate::handwritten;
use crate::naming::*;

impl Builder<'_> {
    pub(super) fn schema(&self, name: &str) -> Result<&Value, Error> {
        self.schemas
            .get(name)
            .ok_or_else(|| Error::new(format!("$ref to unknown schema {name}")))
    }

    pub(super) fn insert(&mut self, def: TypeDef) -> Result<(), Error> {
        if self.types.contains_key(&def.rust_name) {
            return Err(Error::new(format!(
                "two types would be named {}",
                def.rust_name
            )));
        }
        self.types.insert(def.rust_name.clone(), def);
        Ok(())
    }

    pub(super) fn add_schema(&mut self, name: &str, schema: &Value) -> Result<(), Error> {
        let rust_name = rust_type_name(name);
        let doc = doc_of(schema);
        let def = |kind| TypeDef {
            rust_name: rust_name.clone(),
            schema_name: Some(name.to_owned()),
            doc: doc.clone(),
            kind,
        };
        if let Some(r) = handwritten::replacement(name) {
            return self.insert(def(Kind::HandWritten {
                rust_path: r.rust_path.to_owned(),
            }));
        }
        if let Some(envelope) = self.envelopes.get(name) {
            let target = self.envelope_target(name, envelope)?;
            return self.insert(def(Kind::Alias { target }));
        }
        // `params: null` methods: the unit type serializes as `null`.
        if is_null(schema) {
            return self.insert(def(Kind::Alias {
                target: TypeExpr::Unit,
            }));
        }
        let open = self.open_roots.contains(name);
        if let Some(parts) = self.all_of_alternatives(schema) {
            let flattened = self.flattened_parts(&rust_name, schema, parts, open)?;
            return self.insert(def(Kind::Flattened(flattened)));
        }
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
            _ => {
                let kind = self.struct_or_newtype(&rust_name, schema)?;
                self.insert(def(kind))
            }
        }
    }

    /// The alias target of an envelope schema: the hand-written generic envelope
    /// applied to the method's types (the error object through the generated
    /// [`SPEC_ERROR_WRAPPER`], which names the spec's other causes).
    pub(super) fn envelope_target(
        &mut self,
        name: &str,
        envelope: &Envelope,
    ) -> Result<TypeExpr, Error> {
        Ok(match envelope {
            Envelope::Request { params } => {
                let params = self.type_expr(params, &format!("{name}Params"))?;
                TypeExpr::Generic("crate::envelope::Request".into(), vec![params])
            }
            Envelope::Response { result, error } => {
                let result = self.type_expr(result, &format!("{name}Result"))?;
                let error = self.type_expr(error, &format!("{name}Error"))?;
                let wrapper = TypeExpr::Generic(SPEC_ERROR_WRAPPER.into(), vec![error]);
                TypeExpr::Generic("crate::envelope::Response".into(), vec![result, wrapper])
            }
            Envelope::ErrorWrapper { cause } => {
                let cause = self.type_expr(cause, &format!("{name}Cause"))?;
                TypeExpr::Generic(SPEC_ERROR_WRAPPER.into(), vec![cause])
            }
        })
    }

    /// A struct (an object with properties) or a newtype (a string, a number, a map, ...).
    /// An inline object of a property is hoisted into a struct of its own,
    /// `{Owner}{Property}` (see `type_expr`).
    pub(super) fn struct_or_newtype(
        &mut self,
        rust_name: &str,
        schema: &Value,
    ) -> Result<Kind, Error> {
        if schema.get("properties").is_none() {
            return Ok(Kind::Newtype(self.type_expr(schema, rust_name)?));
        }
        Ok(Kind::Struct(Struct {
            fields: self.fields(rust_name, schema)?,
        }))
    }

    /// Properties plus flattened alternatives.
    pub(super) fn flattened(
        &mut self,
        rust_name: &str,
        schema: &Value,
        arms: &[Value],
        open: bool,
    ) -> Result<Flattened, Error> {
        let parts = match product_factors(arms) {
            Some((left, right)) => vec![left, right],
            None => vec![arms.to_vec()],
        };
        self.flattened_parts(rust_name, schema, parts, open)
    }

    /// `allOf` of two or more sets of alternatives (inline, or references to enums) and
    /// no properties: a struct of one flattened enum per set, like a cross product
    /// (`RpcQueryRequest` in 1.0.0; the OpenRPC document's
    /// `RpcStateChangesInBlockByTypeRequest`, `BlockReference` and
    /// `StateChangesRequestView`).
    pub(super) fn all_of_alternatives(&self, schema: &Value) -> Option<Vec<Vec<Value>>> {
        if schema.get("properties").is_some() {
            return None;
        }
        let parts = schema.get("allOf")?.as_array()?;
        if parts.len() < 2 {
            return None;
        }
        parts
            .iter()
            .map(|part| match ref_name(part) {
                Some(name) => {
                    let target = self.schemas.get(name)?;
                    target.get("properties").is_none().then_some(())?;
                    alternatives(target)
                }
                None => alternatives(part),
            })
            .collect()
    }

    /// Properties plus one flattened enum per set of alternatives.
    pub(super) fn flattened_parts(
        &mut self,
        rust_name: &str,
        schema: &Value,
        parts: Vec<Vec<Value>>,
        open: bool,
    ) -> Result<Flattened, Error> {
        let fields = self.fields(rust_name, schema)?;
        let mut flattened = Vec::new();
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
            })?;
            flattened.push((format!("kind{suffix}"), enum_name));
        }
        Ok(Flattened { fields, flattened })
    }

    /// A schema (other than a params schema) whose alternatives equal `arms`: flattened
    /// alternatives reuse it, so that e.g. every block-reference request shares
    /// `BlockReference`.
    pub(super) fn named_enum_with_arms(&self, arms: &[Value]) -> Option<String> {
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

    pub(super) fn enumeration(
        &mut self,
        owner: &str,
        arms: &[Value],
        open: bool,
    ) -> Result<Enum, Error> {
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
    pub(super) fn external_variants(
        &mut self,
        owner: &str,
        arms: &[Value],
    ) -> Result<Vec<Variant>, Error> {
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
    pub(super) fn tagged_variants(
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

    /// An object schema, inline or behind one `$ref`, or a union of them that may be
    /// null (`anyOf: [Cause, null]`: nearcore 0.38's optional `TIMEOUT_ERROR` cause).
    pub(super) fn is_object_schema(&self, schema: &Value) -> bool {
        let schema = ref_name(schema)
            .and_then(|name| self.schemas.get(name))
            .unwrap_or(schema);
        if schema.get("type").and_then(Value::as_str) == Some("object")
            || schema.get("properties").is_some()
        {
            return true;
        }
        ["anyOf", "oneOf"].iter().any(|key| {
            schema
                .get(*key)
                .and_then(Value::as_array)
                .is_some_and(|arms| {
                    let objects: Vec<&Value> = arms.iter().filter(|a| !is_null(a)).collect();
                    !objects.is_empty() && objects.iter().all(|a| self.is_object_schema(a))
                })
        })
    }

    /// Arms told apart only by which properties they require.
    pub(super) fn shape_variants(
        &mut self,
        owner: &str,
        arms: &[Value],
    ) -> Result<Vec<Variant>, Error> {
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
    pub(super) fn untagged_variants(
        &mut self,
        owner: &str,
        arms: &[Value],
    ) -> Result<Vec<Variant>, Error> {
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
    pub(super) fn payload(&mut self, hoist: &str, inner: &Value) -> Result<Payload, Error> {
        if inner.get("properties").is_some() && alternatives(inner).is_none() {
            Ok(Payload::Struct(self.fields(hoist, inner)?))
        } else {
            Ok(Payload::Newtype(self.type_expr(inner, hoist)?))
        }
    }

    pub(super) fn fields(&mut self, owner: &str, schema: &Value) -> Result<Vec<Field>, Error> {
        let required: BTreeSet<&str> = schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut fields = Vec::new();
        for (wire, prop) in schema["properties"].as_object().into_iter().flatten() {
            let rust_name = rust_field_name(wire);
            let hoist = hoisted_name(owner, wire);
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
}
