//! Plain structs decoded without serde_derive.
//!
//! serde_derive's `Deserialize` is a tree of generic visitors per struct (a field-name
//! enum with its own visitor, a by-name and a positional decoder) that rustc checks and
//! stores in the library's metadata for every struct, though the library never uses
//! them. This pass replaces the derive with `crate::deserialize_struct!`, which writes the
//! struct's native decoder (`near_rpc`'s `Decode`: one loop over the keys and a plain
//! `match` from field name to field) and a `Deserialize` that goes through it.
//!
//! Only structs this pass fully understands are rewritten: named fields, no generics, no
//! container `#[serde]` attributes, and field attributes limited to `rename`, a bare
//! `default` and `skip_serializing_if` (which only affects encoding). Anything else keeps
//! serde_derive.
//!
//! Every type also gets its native decoder (see `decode.rs`): `deserialize_struct!`
//! writes it for the structs rewritten here, `decode_newtype!` for newtypes, and
//! `decode_with_serde!` (through serde) for whatever else typify renders.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::punctuated::Punctuated;

use crate::error::Error;

/// Replaces `#[derive(Deserialize)]` on every struct of `file` this pass can handle with
/// a `deserialize_struct!` call after the struct.
pub fn replace_derives(file: &mut syn::File) -> Result<(), Error> {
    let mut items = Vec::with_capacity(file.items.len());
    for mut item in std::mem::take(&mut file.items) {
        let deserialize = match &mut item {
            syn::Item::Struct(item) => match plain_fields(item) {
                Some(fields) if remove_derive(&mut item.attrs, "Deserialize") => {
                    Some(deserialize_impl(&item.ident, &fields))
                }
                _ if derives(&item.attrs, "Deserialize") => Some(native_decode(
                    &item.ident,
                    matches!(&item.fields, syn::Fields::Unnamed(f) if f.unnamed.len() == 1)
                        && item.generics.params.is_empty(),
                )),
                _ => None,
            },
            syn::Item::Enum(item) if derives(&item.attrs, "Deserialize") => {
                Some(native_decode(&item.ident, false))
            }
            _ => None,
        };
        items.push(item);
        if let Some(tokens) = deserialize {
            // Right after its struct, where a reader looks for it.
            items.push(syn::parse2(tokens).map_err(|e| {
                Error::new(format!("a struct Deserialize impl is invalid Rust: {e}"))
            })?);
        }
    }
    file.items = items;
    Ok(())
}

/// How a missing field is filled in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Missing {
    /// An error: `missing field`.
    Error,
    /// `Default::default()` (`None` for an `Option`, serde's rule, or `#[serde(default)]`).
    Default,
}

struct PlainField {
    ident: syn::Ident,
    json_name: String,
    missing: Missing,
}

/// The fields of `item`, when it is a struct this pass can decode.
fn plain_fields(item: &syn::ItemStruct) -> Option<Vec<PlainField>> {
    let syn::Fields::Named(named) = &item.fields else {
        return None;
    };
    if !item.generics.params.is_empty() || item.attrs.iter().any(|a| a.path().is_ident("serde")) {
        return None;
    }
    named.named.iter().map(plain_field).collect()
}

fn plain_field(field: &syn::Field) -> Option<PlainField> {
    let ident = field.ident.clone()?;
    let mut json_name = ident.to_string().trim_start_matches("r#").to_owned();
    let mut missing = if is_option(&field.ty) {
        Missing::Default
    } else {
        Missing::Error
    };
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let metas = attr
            .parse_args_with(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
            .ok()?;
        for meta in metas {
            match &meta {
                syn::Meta::Path(p) if p.is_ident("default") => missing = Missing::Default,
                syn::Meta::NameValue(nv) if nv.path.is_ident("skip_serializing_if") => {}
                syn::Meta::NameValue(nv) if nv.path.is_ident("rename") => {
                    let syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(name),
                        ..
                    }) = &nv.value
                    else {
                        return None;
                    };
                    json_name = name.value();
                }
                _ => return None,
            }
        }
    }
    Some(PlainField {
        ident,
        json_name,
        missing,
    })
}

/// serde_derive's own test: the last path segment is `Option`.
fn is_option(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Option"))
}

/// Whether `attrs` derive `name`.
fn derives(attrs: &[syn::Attribute], name: &str) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("derive"))
        .any(|attr| {
            attr.parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
                .is_ok_and(|paths| {
                    paths
                        .iter()
                        .any(|p| p.segments.last().is_some_and(|s| s.ident == name))
                })
        })
}

/// The native decoder of a type that keeps serde_derive's `Deserialize`: a newtype
/// decodes its inner value (serde_json reads a newtype struct as its content, with or
/// without `transparent`); anything else this pass does not understand decodes through
/// serde.
fn native_decode(name: &syn::Ident, newtype: bool) -> TokenStream {
    if newtype {
        quote!(crate::decode_newtype!(#name);)
    } else {
        quote!(crate::decode_with_serde!(#name);)
    }
}

/// Drops `name` from the `#[derive(..)]` lists in `attrs`; says whether it was there.
fn remove_derive(attrs: &mut [syn::Attribute], name: &str) -> bool {
    let mut removed = false;
    for attr in attrs.iter_mut().filter(|a| a.path().is_ident("derive")) {
        let Ok(paths) =
            attr.parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
        else {
            continue;
        };
        let kept: Vec<&syn::Path> = paths
            .iter()
            .filter(|p| p.segments.last().is_none_or(|s| s.ident != name))
            .collect();
        if kept.len() < paths.len() {
            removed = true;
            *attr = syn::parse_quote!(#[derive(#(#kept),*)]);
        }
    }
    removed
}

/// `crate::deserialize_struct!` (in `src/private.rs`) writes the impl, so that the
/// generated file lists only the fields.
fn deserialize_impl(name: &syn::Ident, fields: &[PlainField]) -> TokenStream {
    let fields = fields.iter().map(|f| {
        let ident = &f.ident;
        let json = &f.json_name;
        let missing = match f.missing {
            Missing::Error => format_ident!("required"),
            Missing::Default => format_ident!("default"),
        };
        quote!(#ident #json #missing)
    });
    quote! {
        crate::deserialize_struct!(#name { #(#fields),* });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    fn rewrite(source: &str) -> String {
        let mut file: syn::File = syn::parse_str(source).expect("parses");
        replace_derives(&mut file).expect("rewrites");
        file.into_token_stream().to_string()
    }

    #[test]
    fn plain_structs_get_an_impl() {
        let out = rewrite(
            r#"
            #[derive(Clone, ::serde::Deserialize, ::serde::Serialize)]
            pub struct S {
                pub a: u64,
                #[serde(rename = "type")]
                pub kind: String,
                #[serde(default, skip_serializing_if = "Vec::is_empty")]
                pub list: Vec<u8>,
                #[serde(skip_serializing_if = "Option::is_none")]
                pub opt: Option<u8>,
            }
            "#,
        );
        assert!(
            out.contains("derive (Clone , :: serde :: Serialize)"),
            "{out}"
        );
        assert!(
            out.contains(
                "crate :: deserialize_struct ! (S { a \"a\" required , \
                 kind \"type\" required , list \"list\" default , \
                 opt \"opt\" default })"
            ),
            "{out}"
        );
    }

    #[test]
    fn anything_else_keeps_serde_derive() {
        for source in [
            "#[derive(::serde::Deserialize)] #[serde(transparent)] pub struct S { a: u8 }",
            "#[derive(::serde::Deserialize)] pub struct S { #[serde(flatten)] a: u8 }",
            "#[derive(::serde::Deserialize)] pub struct S(u8);",
            "#[derive(::serde::Deserialize)] pub struct S<T> { a: T }",
        ] {
            let out = rewrite(source);
            assert!(out.contains(":: serde :: Deserialize"), "{out}");
            assert!(!out.contains("deserialize_struct"), "{out}");
        }
    }
}
