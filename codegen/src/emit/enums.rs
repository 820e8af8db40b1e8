//! Our emitter for the shapes typify renders badly: enums (named variants, open enums
//! with a catch-all, untagged enums told apart by their required properties), structs
//! with flattened alternatives, and aliases (the envelope, `null`).

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
        #[derive(#derives, ::serde::Serialize, ::serde::Deserialize)]
        pub struct #name {
            #(#fields,)*
            #(#flat,)*
        }
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
    if e.tagging == Tagging::Shape {
        // Untagged serialization writes the raw JSON of the catch-all as it is.
        let unknown_variant = e.open.then(|| {
            quote! {
                /// A shape this version of the bindings does not know, kept as the raw JSON.
                #unknown(::serde_json::Value),
            }
        });
        let deserialize = shape_deserialize(name, e);
        let non_exhaustive = e.open.then(|| quote!(#[non_exhaustive]));
        return quote! {
            #doc
            #[derive(#derives, ::serde::Serialize)]
            #tag_attr
            #non_exhaustive
            pub enum #name { #(#variants,)* #unknown_variant }
            #deserialize
            #decode
        };
    }
    if !e.open {
        return quote! {
            #doc
            #[derive(#derives, ::serde::Serialize, ::serde::Deserialize)]
            #tag_attr
            pub enum #name { #(#variants,)* }
            #decode
        };
    }
    // Open enums: serde derives inherent `serialize`/`deserialize` functions for the known
    // variants (`remote = "Self"`), and `open_enum!` wraps them so that an unknown tag
    // lands in the catch-all while a known tag with a bad payload stays an error.
    let tagging = match &e.tagging {
        Tagging::External => quote!(External),
        Tagging::Internal { tag } => quote!(Field(#tag)),
        Tagging::Adjacent { tag, content } => quote!(Adjacent(#tag, #content)),
        Tagging::Shape | Tagging::Untagged => unreachable!("handled above"),
    };
    let known = e.variants.iter().map(|v| &v.wire);
    let units = e.bare_names();
    quote! {
        #doc
        #[derive(#derives, ::serde::Serialize, ::serde::Deserialize)]
        #[serde(remote = "Self")]
        #tag_attr
        #[non_exhaustive]
        pub enum #name { #(#variants,)* #unknown_variant }
        crate::open_enum!(#name, #tagging, [#(#known),*], [#(#units),*], #unknown);
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

/// Untagged enums pick their variant by required properties before decoding it, so a
/// bad field is reported with its path instead of serde's "did not match any variant".
fn shape_deserialize(name: &syn::Ident, e: &Enum) -> TokenStream {
    let shapes = e.variants.iter().map(|v| {
        let keys = &v.required_keys;
        quote!(&[#(#keys),*])
    });
    let arms = e.variants.iter().enumerate().map(|(index, v)| {
        let variant = format_ident!("{}", v.rust_name);
        match &v.payload {
            Payload::Unit => quote!(#index => ::std::result::Result::Ok(#name::#variant),),
            Payload::Newtype(_) => quote! {
                #index => crate::__private::decode(value).map(#name::#variant),
            },
            Payload::Struct(fields) => {
                let field_defs = field_tokens(fields, Scope::Types, false);
                let idents: Vec<_> = fields
                    .iter()
                    .map(|f| format_ident!("{}", f.rust_name))
                    .collect();
                quote! {
                    #index => {
                        #[derive(::serde::Deserialize)]
                        struct Arm { #(#field_defs,)* }
                        crate::__private::decode(value)
                            .map(|arm: Arm| #name::#variant { #(#idents: arm.#idents,)* })
                    }
                }
            }
        }
    });
    let fallback = if e.open {
        let unknown = format_ident!("{}", e.unknown_variant());
        quote!(_ => ::std::result::Result::Ok(#name::#unknown(value.clone())),)
    } else {
        quote!(_ => ::std::result::Result::Err(::serde::de::Error::custom(crate::__private::no_shape_matched(SHAPES))),)
    };
    let type_name = name.to_string();
    quote! {
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                const SHAPES: &[&[&str]] = &[#(#shapes),*];
                crate::__private::deserialize_shape(deserializer, #type_name, SHAPES, |index, value| {
                    match index {
                        #(#arms)*
                        #fallback
                    }
                })
            }
        }
    }
}
