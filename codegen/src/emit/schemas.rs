//! Every schema of the spec by name, with its Rust type: `schemas::ALL` and
//! `schemas::visit`, which hands the type to a hand-written `SchemaVisitor` (the way
//! `methods::visit` does for methods). Tests decode every schema through it, and a
//! caller can decode a body by schema name.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::{Api, Kind};

/// Renders `ALL` and `visit` for the types that have a schema.
pub fn emit(api: &Api) -> TokenStream {
    let mut entries: Vec<(String, TokenStream)> = api
        .types
        .values()
        .filter_map(|def| {
            let schema = def.schema_name.clone()?;
            let path: syn::Path = match &def.kind {
                // The hand-written type's own path (rerooted with the rest); the
                // generated types by a path relative to this module, beside `types`.
                Kind::HandWritten { rust_path } => syn::parse_str(rust_path).ok()?,
                _ if def.is_envelope() => {
                    syn::parse_str(&format!("super::types::envelope::{}", def.rust_name)).ok()?
                }
                _ => syn::parse_str(&format!("super::types::{}", def.rust_name)).ok()?,
            };
            Some((schema, quote!(#path)))
        })
        .collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let names = entries.iter().map(|(name, _)| name);
    let visitor = if entries.is_empty() {
        quote!(_visitor)
    } else {
        quote!(visitor)
    };
    let arms = entries.iter().map(
        |(name, path)| quote!(#name => ::std::option::Option::Some(visitor.visit::<#path>()),),
    );
    quote! {
        /// The name of every schema in the spec, sorted.
        pub const ALL: &[&str] = &[#(#names),*];

        /// Calls `visitor` with the Rust type of the schema called `name`, or returns
        /// `None` for a name the spec does not have.
        pub fn visit<V: crate::schemas::SchemaVisitor>(name: &str, #visitor: V) -> ::std::option::Option<V::Output> {
            match name {
                #(#arms)*
                _ => ::std::option::Option::None,
            }
        }
    }
}
