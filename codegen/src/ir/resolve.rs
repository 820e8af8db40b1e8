//! Schemas and references to Rust type expressions: `$ref`s to named types, inline
//! alternatives hoisted to named enums, integer formats to Rust integers, maps, arrays and
//! tuples.

use super::schema::*;
use super::*;
use crate::handwritten;
use crate::naming::*;

impl Builder<'_> {
    /// The Rust type of a schema in field position. An inline object with properties is
    /// hoisted into a named struct (`hoist`).
    pub(super) fn type_expr(&mut self, schema: &Value, hoist: &str) -> Result<TypeExpr, Error> {
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
                Some(item) => {
                    let item = Box::new(self.type_expr(item, hoist)?);
                    let bound = |key| schema.get(key).and_then(Value::as_u64);
                    match (bound("minItems"), bound("maxItems")) {
                        // serde's impls for arrays stop at 32 elements.
                        (Some(min), Some(max)) if min == max && (1..=32).contains(&min) => {
                            TypeExpr::Array(item, min as usize)
                        }
                        _ => TypeExpr::Vec(item),
                    }
                }
                None => TypeExpr::Vec(Box::new(TypeExpr::Value)),
            },
            Some("object") | None => {
                match (schema.get("properties"), schema.get("additionalProperties")) {
                    (Some(_), _) => {
                        let kind = self.struct_or_newtype(hoist, schema)?;
                        self.insert(TypeDef {
                            rust_name: hoist.to_owned(),
                            schema_name: None,
                            doc: doc_of(schema),
                            kind,
                        })?;
                        TypeExpr::Named(hoist.to_owned())
                    }
                    (None, Some(value)) if value.is_object() => {
                        TypeExpr::Map(Box::new(self.type_expr(value, hoist)?))
                    }
                    // `"type": "object"` and nothing of its properties: any object.
                    _ if schema.get("type").and_then(Value::as_str) == Some("object") => {
                        TypeExpr::Object
                    }
                    _ => TypeExpr::Value,
                }
            }
            Some(other) => return Err(Error::new(format!("{hoist}: unknown type {other}"))),
        })
    }
}
