//! The validation pass: names that would not compile or would collide, and references
//! that name no type.

use std::collections::BTreeSet;

use super::{Api, Kind, Payload, TypeExpr};
use crate::error::Error;

/// Validation pass: names that would not compile or would collide, and references that
/// name no type.
pub(super) fn validate(api: &Api) -> Result<(), Error> {
    resolved(api)?;
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

/// Every named type the IR refers to is one of its types or a hand-written path.
fn resolved(api: &Api) -> Result<(), Error> {
    let check = |owner: &str, ty: &TypeExpr| -> Result<(), Error> {
        let mut named = Vec::new();
        collect_named(ty, &mut named);
        match named
            .into_iter()
            .find(|n| !n.starts_with("crate::") && !api.types.contains_key(*n))
        {
            Some(missing) => Err(Error::new(format!(
                "{owner} refers to {missing}, which is no type of the API"
            ))),
            None => Ok(()),
        }
    };
    for method in api.methods.values() {
        for ty in [&method.params, &method.result, &method.error] {
            check(&method.name, ty)?;
        }
    }
    for (name, def) in &api.types {
        let fields = match &def.kind {
            Kind::Struct(s) => s.fields.iter().collect(),
            Kind::Flattened(f) => {
                for (_, ty) in &f.flattened {
                    check(name, &TypeExpr::Named(ty.clone()))?;
                }
                f.fields.iter().collect()
            }
            Kind::Enum(e) => {
                let mut fields = Vec::new();
                for v in &e.variants {
                    match &v.payload {
                        Payload::Newtype(ty) => check(name, ty)?,
                        Payload::Struct(f) => fields.extend(f),
                        Payload::Unit => {}
                    }
                }
                fields
            }
            Kind::Newtype(ty) | Kind::Alias { target: ty } => {
                check(name, ty)?;
                Vec::new()
            }
            Kind::HandWritten { .. } => Vec::new(),
        };
        for field in fields {
            check(&format!("{name}.{}", field.wire_name), &field.ty)?;
        }
    }
    Ok(())
}

/// Every named type in a type expression.
pub(super) fn collect_named<'a>(ty: &'a TypeExpr, out: &mut Vec<&'a str>) {
    match ty {
        TypeExpr::Named(name) => out.push(name),
        TypeExpr::Vec(inner)
        | TypeExpr::Array(inner, _)
        | TypeExpr::Option(inner)
        | TypeExpr::Map(inner) => collect_named(inner, out),
        TypeExpr::Tuple(items) | TypeExpr::Generic(_, items) => {
            items.iter().for_each(|i| collect_named(i, out))
        }
        TypeExpr::Prim(_) | TypeExpr::Value | TypeExpr::Object | TypeExpr::Unit => {}
    }
}
