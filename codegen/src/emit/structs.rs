//! The IR's structs and newtypes, rendered from the IR alone (as `enums.rs` renders the
//! enums), so that a struct's shape has one source: the IR that the API diff, the
//! crosscheck and the decoders also read.
//!
//! Structs derive only `Serialize`: `crate::deserialize_struct!` (in `src/de/fields.rs`)
//! writes their decoder from the field list, one loop over the keys and a plain `match`,
//! instead of serde_derive's tree of generic visitors per struct that every user's
//! compile would pay for. Newtypes are `#[serde(transparent)]` with serde's derive and
//! `crate::decode_newtype!`, and convert to and from what they wrap.
//!
//! The output keeps the shape typify (which rendered them before the first release) gave
//! these types: field order, derives, conversions, the `Vec`/map default rule.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::tokens::{doc_attrs, type_tokens, Scope};
use crate::ir::{Api, Field, Kind, Struct, TypeDef, TypeExpr};

/// Renders every struct and newtype of the IR.
pub fn emit(api: &Api) -> TokenStream {
    let items = api.types.values().map(|def| match &def.kind {
        Kind::Struct(s) => structure(def, s),
        Kind::Newtype(inner) => newtype(def, inner),
        _ => TokenStream::new(),
    });
    quote!(#(#items)*)
}

/// The type's doc text, or its name in code when the spec has no description.
fn doc(def: &TypeDef) -> TokenStream {
    let text = def
        .doc
        .clone()
        .unwrap_or_else(|| format!("`{}`", def.rust_name));
    doc_attrs(Some(&text))
}

fn structure(def: &TypeDef, s: &Struct) -> TokenStream {
    let doc = doc(def);
    let name = format_ident!("{}", def.rust_name);
    let fields: Vec<Rendered> = s.fields.iter().map(Rendered::of).collect();
    // A struct whose every field may be missing has an obvious empty value.
    let default = fields
        .iter()
        .all(|f| f.missing == Missing::Default)
        .then(|| quote!(Default,));
    let declarations = fields.iter().map(|f| &f.declaration);
    let decoders = fields.iter().map(|f| {
        let ident = &f.ident;
        let wire = &f.wire;
        let missing = match f.missing {
            Missing::Required => format_ident!("required"),
            Missing::Default => format_ident!("default"),
        };
        quote!(#ident #wire #missing)
    });
    quote! {
        #doc
        #[derive(::serde::Serialize, Clone, Debug, #default PartialEq)]
        pub struct #name { #(#declarations,)* }
        crate::deserialize_struct!(#name { #(#decoders),* });
    }
}

/// What a missing property becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Missing {
    /// A decoding error.
    Required,
    /// `Default::default()`: `None`, an empty list or map.
    Default,
}

/// One struct field: its declaration and what its decoder needs.
struct Rendered {
    ident: syn::Ident,
    wire: String,
    missing: Missing,
    declaration: TokenStream,
}

impl Rendered {
    /// An optional property is an `Option` left out when `None`, except a list or a map,
    /// whose empty value stands for "absent" (and is left out when empty). A required
    /// property must be present, even when it may be `null`.
    fn of(field: &Field) -> Self {
        let ident = format_ident!("{}", field.rust_name);
        let ty = type_tokens(&field.ty, Scope::Types);
        let skip_none = quote!(#[serde(skip_serializing_if = "::std::option::Option::is_none")]);
        let (ty, attr, missing) = match (&field.ty, field.required) {
            // Required but nullable: the key must be there, and `null` is written.
            (_, true) => (ty, None, Missing::Required),
            (TypeExpr::Option(_), false) => (ty, Some(skip_none), Missing::Default),
            (TypeExpr::Vec(_), false) => (
                ty,
                Some(quote!(#[serde(default, skip_serializing_if = "::std::vec::Vec::is_empty")])),
                Missing::Default,
            ),
            (TypeExpr::Map(_), false) => (
                ty,
                Some(quote!(#[serde(
                    default,
                    skip_serializing_if = "::std::collections::BTreeMap::is_empty"
                )])),
                Missing::Default,
            ),
            (_, false) => (
                quote!(::std::option::Option<#ty>),
                Some(skip_none),
                Missing::Default,
            ),
        };
        let doc = doc_attrs(field.doc.as_deref());
        let wire = &field.wire_name;
        let rename = (field.rust_name != field.wire_name).then(|| quote!(#[serde(rename = #wire)]));
        Rendered {
            declaration: quote!(#doc #rename #attr pub #ident: #ty),
            ident,
            wire: field.wire_name.clone(),
            missing,
        }
    }
}

/// What a newtype wraps, as far as its conversions go.
enum Inner {
    /// Text: ordered and hashable, displayed and parsed as itself.
    Text,
    /// An integer: displayed and parsed as one.
    Integer,
    /// Anything else: only wrapped and unwrapped.
    Opaque,
}

impl Inner {
    fn of(ty: &TypeExpr) -> Self {
        match ty {
            TypeExpr::Prim("String") => Inner::Text,
            TypeExpr::Prim(p) if p.starts_with(['u', 'i']) => Inner::Integer,
            _ => Inner::Opaque,
        }
    }
}

fn newtype(def: &TypeDef, inner: &TypeExpr) -> TokenStream {
    let doc = doc(def);
    let name = format_ident!("{}", def.rust_name);
    let ty = type_tokens(inner, Scope::Types);
    let kind = Inner::of(inner);
    let ordered = matches!(kind, Inner::Text).then(|| quote!(Eq, Hash, Ord,));
    let partial_ord = matches!(kind, Inner::Text).then(|| quote!(, PartialOrd));
    let text = match kind {
        Inner::Text => quote! {
            impl ::std::fmt::Display for #name {
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                    self.0.fmt(f)
                }
            }
            impl ::std::str::FromStr for #name {
                type Err = ::std::convert::Infallible;
                fn from_str(value: &str) -> ::std::result::Result<Self, Self::Err> {
                    Ok(Self(value.to_string()))
                }
            }
        },
        Inner::Integer => quote! {
            impl ::std::fmt::Display for #name {
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                    self.0.fmt(f)
                }
            }
            impl ::std::str::FromStr for #name {
                type Err = <#ty as ::std::str::FromStr>::Err;
                fn from_str(value: &str) -> ::std::result::Result<Self, Self::Err> {
                    Ok(Self(value.parse()?))
                }
            }
            impl ::std::convert::TryFrom<&str> for #name {
                type Error = <#ty as ::std::str::FromStr>::Err;
                fn try_from(value: &str) -> ::std::result::Result<Self, Self::Error> {
                    value.parse()
                }
            }
            impl ::std::convert::TryFrom<String> for #name {
                type Error = <#ty as ::std::str::FromStr>::Err;
                fn try_from(value: String) -> ::std::result::Result<Self, Self::Error> {
                    value.parse()
                }
            }
        },
        Inner::Opaque => TokenStream::new(),
    };
    quote! {
        #doc
        #[derive(
            ::serde::Deserialize, ::serde::Serialize, Clone, Debug, #ordered PartialEq #partial_ord
        )]
        #[serde(transparent)]
        pub struct #name(pub #ty);
        crate::decode_newtype!(#name);
        impl ::std::ops::Deref for #name {
            type Target = #ty;
            fn deref(&self) -> &#ty {
                &self.0
            }
        }
        impl ::std::convert::From<#name> for #ty {
            fn from(value: #name) -> Self {
                value.0
            }
        }
        impl ::std::convert::From<#ty> for #name {
            fn from(value: #ty) -> Self {
                Self(value)
            }
        }
        #text
    }
}
