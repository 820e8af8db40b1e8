//! The IR's structs and newtypes ([`Kind::rendered_by_typify`]), rendered by typify
//! (pinned; see the crate docs) from their schemas, with every schema that another
//! emitter or a hand-written type covers replaced by that type's name.

use proc_macro2::TokenStream;
use quote::ToTokens;
use schemars::schema::Schema;
use typify::{TypeSpace, TypeSpaceSettings};

use crate::error::Error;
use crate::ir::{Api, Kind};

/// Renders every struct and newtype of the IR.
pub fn emit(api: &Api) -> Result<TokenStream, Error> {
    let mut settings = TypeSpaceSettings::default();
    settings
        .with_struct_builder(false)
        .with_derive("PartialEq".to_owned())
        .with_map_type("::std::collections::BTreeMap");
    for def in api.types.values() {
        let replacement = match &def.kind {
            kind if kind.rendered_by_typify() => continue,
            Kind::HandWritten { rust_path } => rust_path.clone(),
            // An absolute path, since typify also names types inside its `defaults` module.
            _ => format!("crate::types::{}", def.rust_name),
        };
        settings.with_replacement(&def.rust_name, replacement, std::iter::empty());
    }
    let mut space = TypeSpace::new(&settings);
    let mut definitions = Vec::new();
    for def in api.types.values() {
        // Typify resolves `$ref`s by schema name, so every spec schema is defined, even
        // those it replaces; hoisted types are defined under their Rust name.
        let key = def
            .schema_name
            .clone()
            .unwrap_or_else(|| def.rust_name.clone());
        if def.schema_name.is_none() && !def.kind.rendered_by_typify() {
            continue;
        }
        let schema: Schema = serde_json::from_value(def.schema.clone())
            .map_err(|e| Error::new(format!("schema {key} is not a JSON schema: {e}")))?;
        definitions.push((key, schema));
    }
    space
        .add_ref_types(definitions)
        .map_err(|e| Error::new(format!("typify: {e}")))?;
    let file: syn::File = syn::parse2(space.to_stream())
        .map_err(|e| Error::new(format!("typify produced invalid Rust: {e}")))?;
    agrees_with_ir(api, &file)?;
    let mut file = prune(file);
    super::struct_de::replace_derives(&mut file)?;
    Ok(file.into_token_stream())
}

/// Typify renders from schemas, the rest of the generator reads the IR: every struct
/// and newtype of the IR must come out of typify under its name, a struct with the
/// IR's fields, so that the two never describe different types.
fn agrees_with_ir(api: &Api, file: &syn::File) -> Result<(), Error> {
    let rendered: std::collections::BTreeMap<String, &syn::ItemStruct> = file
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(s) => Some((s.ident.to_string(), s)),
            _ => None,
        })
        .collect();
    for (name, def) in &api.types {
        let expected: Option<Vec<&str>> = match &def.kind {
            Kind::Struct(s) => Some(s.fields.iter().map(|f| f.rust_name.as_str()).collect()),
            Kind::Newtype(_) => None,
            _ => continue,
        };
        let item = rendered
            .get(name)
            .ok_or_else(|| Error::new(format!("typify did not render {name}, which the IR has")))?;
        let fields: Vec<String> = match &item.fields {
            syn::Fields::Named(named) => named
                .named
                .iter()
                .filter_map(|f| f.ident.as_ref().map(|i| i.to_string()))
                .collect(),
            _ => Vec::new(),
        };
        let matches = match &expected {
            Some(expected) => {
                let mut a: Vec<&str> = fields.iter().map(String::as_str).collect();
                let mut b = expected.clone();
                a.sort_unstable();
                b.sort_unstable();
                a == b
            }
            None => matches!(item.fields, syn::Fields::Unnamed(_)),
        };
        if !matches {
            return Err(Error::new(format!(
                "typify and the IR disagree on {name}: typify has {fields:?}, the IR {}",
                match expected {
                    Some(expected) => format!("{expected:?}"),
                    None => "a newtype".to_owned(),
                }
            )));
        }
    }
    Ok(())
}

/// Drops what typify adds that the bindings don't need: `impl From<&T> for T` (a clone
/// in disguise, one per type, paid for in every user's compile time).
/// Also drops typify's `error` module when nothing refers to it.
fn prune(mut file: syn::File) -> syn::File {
    file.items.retain(|item| !is_from_ref_clone(item));
    let uses_error_mod = file.items.iter().any(|item| {
        !is_mod(item, "error") && item.to_token_stream().to_string().contains("error ::")
    });
    if !uses_error_mod {
        file.items.retain(|item| !is_mod(item, "error"));
    }
    file
}

fn is_mod(item: &syn::Item, name: &str) -> bool {
    matches!(item, syn::Item::Mod(m) if m.ident == name)
}

fn is_from_ref_clone(item: &syn::Item) -> bool {
    let syn::Item::Impl(imp) = item else {
        return false;
    };
    let Some((_, trait_path, _)) = &imp.trait_ else {
        return false;
    };
    let is_from = trait_path
        .segments
        .last()
        .is_some_and(|s| s.ident == "From");
    let self_ty = imp.self_ty.to_token_stream().to_string();
    let trait_text = trait_path.to_token_stream().to_string();
    is_from && trait_text.contains(&format!("& {self_ty} >"))
}
