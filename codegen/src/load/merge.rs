//! Merging the OpenAPI and the OpenRPC document of one version.
//!
//! - Methods come from either: the OpenAPI document's as it states them (with their error
//!   types, which only it has), plus those only the OpenRPC document has, which keep the
//!   generic error. A method either document marks deprecated is deprecated.
//! - A schema both documents have comes from the OpenAPI document (`crosscheck` reports
//!   where the two disagree). A schema only the OpenRPC document has is added when a
//!   method taken from it needs it, so nothing unused joins the bindings.

use super::Spec;
use crate::ir::collect_refs;
use crate::Error;

/// The OpenAPI spec with what only the OpenRPC one of the same version adds.
pub(super) fn merge(mut openapi: Spec, openrpc: Spec) -> Result<Spec, Error> {
    if openapi.version != openrpc.version {
        return Err(Error::new(format!(
            "the OpenAPI document is version {} and the OpenRPC one {}",
            openapi.version, openrpc.version
        )));
    }
    let mut needed = Vec::new();
    for (name, method) in openrpc.methods {
        match openapi.methods.get_mut(&name) {
            Some(known) => known.deprecated |= method.deprecated,
            None => {
                for schema in [&method.params, &method.result] {
                    collect_refs(schema, &mut needed);
                }
                let mut roots = Vec::new();
                collect_refs(&method.result, &mut roots);
                openapi.response_roots.extend(roots);
                openapi.methods.insert(name, method);
            }
        }
    }
    while let Some(name) = needed.pop() {
        if openapi.schemas.contains_key(&name) {
            continue;
        }
        let schema = openrpc.schemas.get(&name).ok_or_else(|| {
            Error::new(format!(
                "the OpenRPC document refers to {name}, which it lacks"
            ))
        })?;
        collect_refs(schema, &mut needed);
        openapi.schemas.insert(name, schema.clone());
    }
    openapi.documents.extend(openrpc.documents);
    Ok(openapi)
}
