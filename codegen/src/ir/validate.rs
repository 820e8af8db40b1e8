//! The validation pass: names that would not compile or would collide.

use std::collections::BTreeSet;

use super::{Api, Kind};
use crate::Error;

/// Validation pass: names that would not compile or would collide.
pub(super) fn validate(api: &Api) -> Result<(), Error> {
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
