//! The enums (named variants, open enums with a catch-all, untagged enums told apart by
//! their required properties), structs with flattened alternatives, and aliases (the
//! envelope, `null`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::tokens::{doc_attrs, field_tokens, type_tokens, Scope};
use crate::ir::{Enum, Flattened, Kind, Payload, Tagging, TypeDef, Variant};

/// Renders every type the IR gives to this emitter.
pub fn emit<'a>(types: impl Iterator<Item = &'a TypeDef>) -> TokenStream {
    let items = types.map(|def| {
        let doc = doc_attrs(def.doc.as_deref());
        let name = format_ident!("{}", def.rust_name);
        match &def.kind {
            Kind::Enum(e) => enumeration(&doc, &name, e),
            Kind::Flattened(f) => flattened(&doc, &name, f),
            Kind::Alias { target } => {
                let target = type_tokens(target, Scope::Types);
                quote! { #doc pub type #name = #target; }
            }
            Kind::HandWritten { .. } | Kind::Struct(_) | Kind::Newtype(_) => TokenStream::new(),
        }
    });
    quote!(#(#items)*)
}

const DERIVES: &str = "Clone, Debug, PartialEq";

fn derives() -> TokenStream {
    DERIVES.parse().unwrap_or_default()
}

fn flattened(doc: &TokenStream, name: &syn::Ident, f: &Flattened) -> TokenStream {
    let derives = derives();
    let decode = super::decode::flattened(name, f);
    let fields = field_tokens(&f.fields, Scope::Types, true);
    let flat = f.flattened.iter().map(|(field, ty)| {
        let field = format_ident!("{}", field);
        let ty = format_ident!("{}", ty);
        let doc = format!(" The alternatives of this type; see [`{ty}`].");
        quote! { #[doc = #doc] #[serde(flatten)] pub #field: #ty }
    });
    quote! {
        #doc
        #[derive(#derives, ::serde::Serialize)]
        pub struct #name {
            #(#fields,)*
            #(#flat,)*
        }
        crate::deserialize_via_native!(#name);
        #decode
    }
}

fn enumeration(doc: &TokenStream, name: &syn::Ident, e: &Enum) -> TokenStream {
    let derives = derives();
    let decode = super::decode::enumeration(name, e);
    let variants = e.variants.iter().map(|v| variant(v, &e.tagging));
    let unknown = format_ident!("{}", e.unknown_variant());
    let unknown_variant = e.open.then(|| {
        quote! {
            /// A variant this version of the bindings does not know (sent by a newer
            /// node), kept as the raw JSON.
            #[serde(skip)]
            #unknown(::serde_json::Value),
        }
    });
    let tag_attr = match &e.tagging {
        Tagging::External => quote!(),
        Tagging::Internal { tag } => quote!(#[serde(tag = #tag)]),
        Tagging::Adjacent { tag, content } => quote!(#[serde(tag = #tag, content = #content)]),
        Tagging::Shape | Tagging::Untagged => quote!(#[serde(untagged)]),
    };
    // Decoding is the native decoder's (`decode.rs`), for serde too
    // (`deserialize_via_native!`): serde derives only `Serialize`.
    if e.tagging == Tagging::Shape {
        // Untagged serialization writes the raw JSON of the catch-all as it is.
        let unknown_variant = e.open.then(|| {
            quote! {
                /// A shape this version of the bindings does not know, kept as the raw JSON.
                #unknown(::serde_json::Value),
            }
        });
        let non_exhaustive = e.open.then(|| quote!(#[non_exhaustive]));
        return quote! {
            #doc
            #[derive(#derives, ::serde::Serialize)]
            #tag_attr
            #non_exhaustive
            pub enum #name { #(#variants,)* #unknown_variant }
            crate::deserialize_via_native!(#name);
            #decode
        };
    }
    if !e.open {
        return quote! {
            #doc
            #[derive(#derives, ::serde::Serialize)]
            #tag_attr
            pub enum #name { #(#variants,)* }
            crate::deserialize_via_native!(#name);
            #decode
        };
    }
    // Open enums: serde derives an inherent `serialize` function for the known variants
    // (`remote = "Self"`), and `serialize_open_enum!` wraps it so that the catch-all
    // writes its raw JSON.
    quote! {
        #doc
        #[derive(#derives, ::serde::Serialize)]
        #[serde(remote = "Self")]
        #tag_attr
        #[non_exhaustive]
        pub enum #name { #(#variants,)* #unknown_variant }
        crate::serialize_open_enum!(#name, #unknown);
        crate::deserialize_via_native!(#name);
        #decode
    }
}

fn variant(v: &Variant, tagging: &Tagging) -> TokenStream {
    let doc = doc_attrs(v.doc.as_deref());
    let name = format_ident!("{}", v.rust_name);
    let wire = &v.wire;
    let rename = (!matches!(tagging, Tagging::Shape | Tagging::Untagged) && v.rust_name != v.wire)
        .then(|| quote!(#[serde(rename = #wire)]));
    let payload = match &v.payload {
        Payload::Unit => quote!(),
        Payload::Newtype(ty) => {
            let ty = type_tokens(ty, Scope::Types);
            quote!((#ty))
        }
        Payload::Struct(fields) => {
            let fields = field_tokens(fields, Scope::Types, false);
            quote!({ #(#fields,)* })
        }
    };
    quote! { #doc #rename #name #payload }
}
