//! Small token helpers shared by the emitters.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ir::{Field, TypeExpr};

/// Where the rendered code lives, which decides how generated type names are spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Inside `crate::types`: generated types by bare name.
    Types,
    /// Elsewhere: generated types as `crate::types::Name`.
    Outside,
}

/// Renders a type expression.
pub fn type_tokens(ty: &TypeExpr, scope: Scope) -> TokenStream {
    match ty {
        TypeExpr::Named(name) if name.contains("::") => path(name),
        TypeExpr::Named(name) => {
            let ident = format_ident!("{}", name);
            match scope {
                Scope::Types => quote!(#ident),
                Scope::Outside => quote!(crate::types::#ident),
            }
        }
        TypeExpr::Prim(p) => path(p),
        TypeExpr::Vec(inner) => {
            let inner = type_tokens(inner, scope);
            quote!(::std::vec::Vec<#inner>)
        }
        TypeExpr::Array(inner, len) => {
            let inner = type_tokens(inner, scope);
            quote!([#inner; #len])
        }
        TypeExpr::Option(inner) => {
            let inner = type_tokens(inner, scope);
            quote!(::std::option::Option<#inner>)
        }
        TypeExpr::Map(inner) => {
            let inner = type_tokens(inner, scope);
            quote!(::std::collections::BTreeMap<::std::string::String, #inner>)
        }
        TypeExpr::Tuple(items) => {
            let items = items.iter().map(|i| type_tokens(i, scope));
            quote!((#(#items,)*))
        }
        TypeExpr::Value => quote!(::serde_json::Value),
        TypeExpr::Object => quote!(::serde_json::Map<::std::string::String, ::serde_json::Value>),
        TypeExpr::Unit => quote!(()),
        TypeExpr::Generic(name, args) => {
            let name = path(name);
            let args = args.iter().map(|a| type_tokens(a, scope));
            quote!(#name<#(#args),*>)
        }
    }
}

fn path(text: &str) -> TokenStream {
    let text = if text == "String" {
        "::std::string::String"
    } else {
        text
    };
    // The paths come from our own tables and the IR; a parse failure is a generator bug.
    syn::parse_str::<syn::Path>(text)
        .map(|p| quote!(#p))
        .unwrap_or_else(|e| panic!("invalid Rust path {text:?}: {e}"))
}

/// `#[doc = "..."]` attributes, one per line, so that prettyplease prints `///` lines.
pub fn doc_attrs(doc: Option<&str>) -> TokenStream {
    let Some(doc) = doc else {
        return TokenStream::new();
    };
    let lines = doc.lines().map(|line| {
        let line = if line.is_empty() {
            String::new()
        } else {
            format!(" {line}")
        };
        quote!(#[doc = #line])
    });
    quote!(#(#lines)*)
}

/// Named fields of a struct or struct variant. Optional fields become `Option<T>` that
/// are left out when `None`; `pub_` makes them public (struct fields, not variant fields).
pub fn field_tokens(fields: &[Field], scope: Scope, pub_: bool) -> Vec<TokenStream> {
    fields
        .iter()
        .map(|f| {
            let doc = doc_attrs(f.doc.as_deref());
            let ident = format_ident!("{}", f.rust_name);
            let wire = &f.wire_name;
            let rename = (f.rust_name != f.wire_name).then(|| quote!(#[serde(rename = #wire)]));
            let vis = pub_.then(|| quote!(pub));
            let ty = type_tokens(&f.ty, scope);
            let already_optional = matches!(f.ty, TypeExpr::Option(_));
            let (ty, optional) = match (f.required, already_optional) {
                (true, false) => (ty, None),
                (true, true) => (ty, None),
                (false, true) => (
                    ty,
                    Some(quote!(#[serde(default, skip_serializing_if = "::std::option::Option::is_none")])),
                ),
                (false, false) => (
                    quote!(::std::option::Option<#ty>),
                    Some(quote!(#[serde(default, skip_serializing_if = "::std::option::Option::is_none")])),
                ),
            };
            quote! {
                #doc
                #rename
                #optional
                #vis #ident: #ty
            }
        })
        .collect()
}
