//! Native decoders (`near_rpc`'s `Decode`, read from one concrete JSON reader) for the
//! types our emitter renders: enums of every tagging, and structs with flattened enums.
//! Plain structs get theirs from `deserialize_struct!`, newtypes from `decode_newtype!`
//! (see `structs.rs`).
//!
//! Each decoder asks the runtime which variant comes next (`external_variant`,
//! `adjacent_variant`, ...: the tagging rules and the catch-all live there, once), then
//! decodes that variant's payload in place: no buffering, and a failure's path grows by
//! the segment serde's derived decoders would report for it (the variant's key for an
//! externally tagged payload, the content key for an adjacently tagged one, nothing for
//! the rest).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ir::{Enum, Field, Flattened, Payload, Tagging, TypeExpr};

/// The runtime's path, spelled out: a `use` would escape the rerooting of `crate::`
/// paths that golden crates rely on.
fn native() -> TokenStream {
    quote!(crate::__private::native)
}

/// `field "json" required|default`, as `decode_fields!` takes them.
fn field_list(fields: &[Field]) -> TokenStream {
    let fields = fields.iter().map(|f| {
        let ident = format_ident!("{}", f.rust_name);
        let json = &f.wire_name;
        let missing = if f.required && !matches!(f.ty, TypeExpr::Option(_)) {
            format_ident!("required")
        } else {
            format_ident!("default")
        };
        quote!(#ident #json #missing)
    });
    quote!(#(#fields),*)
}

/// The `impl Decode` around a body that has `r` in scope and `n` for the runtime.
fn decode_impl(name: &syn::Ident, body: TokenStream) -> TokenStream {
    quote! {
        impl crate::__private::native::Decode for #name {
            fn decode(
                r: &mut crate::__private::native::Reader<'_>,
            ) -> ::std::result::Result<Self, crate::__private::native::Error> {
                #body
            }
        }
    }
}

/// Decodes a variant's payload from where the reader is, into `Self`. `wrap` adds the
/// path segment a payload failure gets.
fn payload(name: &syn::Ident, v: &crate::ir::Variant, wrap: Option<&str>) -> TokenStream {
    let n = native();
    let variant = format_ident!("{}", v.rust_name);
    let in_key = match wrap {
        Some(key) => quote!(.map_err(|e: #n::Error| e.in_key(#key))),
        None => quote!(),
    };
    match &v.payload {
        Payload::Unit => quote!({
            r.skip()?;
            Self::#variant
        }),
        Payload::Newtype(_) => quote!(Self::#variant(#n::Decode::decode(r) #in_key ?)),
        Payload::Struct(fields) => {
            let attempt = struct_variant(name, v, fields);
            quote!(#attempt #in_key ?)
        }
    }
}

/// A struct variant's fields from the object that comes next, as a `Result`.
fn struct_variant(name: &syn::Ident, v: &crate::ir::Variant, fields: &[Field]) -> TokenStream {
    let n = native();
    let variant = format_ident!("{}", v.rust_name);
    let fields = field_list(fields);
    let expected = format!("struct variant {name}::{}", v.rust_name);
    quote! {
        (|r: &mut #n::Reader<'_>| -> ::std::result::Result<Self, #n::Error> {
            ::std::result::Result::Ok(crate::decode_fields!(r, #expected, Self::#variant { #fields }))
        })(r)
    }
}

/// `index => payload,` for every variant.
fn payload_arms(
    name: &syn::Ident,
    e: &Enum,
    wrap: impl Fn(&crate::ir::Variant) -> Option<&str>,
) -> Vec<TokenStream> {
    e.variants
        .iter()
        .enumerate()
        .map(|(index, v)| {
            let payload = payload(name, v, wrap(v));
            quote!(#index => #payload,)
        })
        .collect()
}

/// The arm for an index no variant has (never taken: the runtime returns indexes of
/// the names it was given).
fn no_such_variant() -> TokenStream {
    quote!(_ => return ::std::result::Result::Err(r.data_error("no such variant")),)
}

/// What the catch-all arm returns: the kept value for an open enum; for a closed one
/// the runtime has already failed.
fn unknown_arm(e: &Enum, pattern: TokenStream) -> TokenStream {
    if e.open {
        let unknown = format_ident!("{}", e.unknown_variant());
        quote!(#pattern(value) => ::std::result::Result::Ok(Self::#unknown(value)),)
    } else {
        quote!(#pattern(_) => ::std::result::Result::Err(r.data_error("unknown variant")),)
    }
}

/// `impl Decode` for an enum.
pub fn enumeration(name: &syn::Ident, e: &Enum) -> TokenStream {
    let n = native();
    let open = e.open;
    let known = e.variants.iter().map(|v| &v.wire);
    let known = quote!(const KNOWN: &[&str] = &[#(#known),*];);
    let units = e.bare_names();
    let units = quote!(const UNITS: &[&str] = &[#(#units),*];);
    let none = no_such_variant();
    let body = match &e.tagging {
        Tagging::External => {
            let type_name = name.to_string();
            let names: Vec<TokenStream> = e
                .variants
                .iter()
                .enumerate()
                .filter(|(_, v)| matches!(v.payload, Payload::Unit))
                .map(|(index, v)| {
                    let variant = format_ident!("{}", v.rust_name);
                    quote!(#index => ::std::result::Result::Ok(Self::#variant),)
                })
                .collect();
            let not_a_unit =
                quote!(::std::result::Result::Err(#n::not_a_unit(r, #type_name, KNOWN, index)));
            // Without unit variants every bare name is an error.
            let name_arm = if names.is_empty() {
                not_a_unit
            } else {
                quote!(match index { #(#names)* _ => #not_a_unit, })
            };
            let payloads = payload_arms(name, e, |v| Some(v.wire.as_str()));
            let unknown = unknown_arm(e, quote!(#n::External::Unknown));
            quote! {
                #known
                #units
                match #n::external_variant(r, KNOWN, UNITS, #open)? {
                    #n::External::Name(index) => #name_arm,
                    #n::External::Payload(index) => {
                        let value = match index {
                            #(#payloads)*
                            #none
                        };
                        #n::end_external(r, index, KNOWN)?;
                        ::std::result::Result::Ok(value)
                    }
                    #unknown
                }
            }
        }
        Tagging::Adjacent { tag, content } => {
            let payloads = e.variants.iter().enumerate().map(|(index, v)| {
                let variant = format_ident!("{}", v.rust_name);
                if matches!(v.payload, Payload::Unit) {
                    return quote!(#index => Self::#variant,);
                }
                let payload = payload(name, v, Some(content));
                // An optional payload may be left out (nearcore 0.38's `TIMEOUT_ERROR`
                // cause, which older nodes do not send): then it is `None`.
                if matches!(v.payload, Payload::Newtype(TypeExpr::Option(_))) {
                    return quote! {
                        #index => match content {
                            ::std::option::Option::None => Self::#variant(::std::option::Option::None),
                            ::std::option::Option::Some(at) => {
                                r.rewind(at);
                                #payload
                            }
                        },
                    };
                }
                quote! {
                    #index => {
                        let ::std::option::Option::Some(at) = content else {
                            return ::std::result::Result::Err(#n::missing_field(r, #content));
                        };
                        r.rewind(at);
                        #payload
                    }
                }
            });
            let unknown = unknown_arm(e, quote!(#n::Adjacent::Unknown));
            quote! {
                #known
                #units
                match #n::adjacent_variant(r, #tag, #content, KNOWN, UNITS, #open)? {
                    #n::Adjacent::Known { index, content, end } => {
                        let value = match index {
                            #(#payloads)*
                            #none
                        };
                        r.rewind(end);
                        ::std::result::Result::Ok(value)
                    }
                    #unknown
                }
            }
        }
        Tagging::Internal { tag } => {
            let payloads = payload_arms(name, e, |_| None);
            let unknown = unknown_arm(e, quote!(#n::Tagged::Unknown));
            quote! {
                #known
                match #n::internal_variant(r, #tag, KNOWN, #open)? {
                    #n::Tagged::Known(index) => ::std::result::Result::Ok(match index {
                        #(#payloads)*
                        #none
                    }),
                    #unknown
                }
            }
        }
        Tagging::Shape => {
            let shapes = e.variants.iter().map(|v| {
                let keys = &v.required_keys;
                quote!(&[#(#keys),*])
            });
            let payloads = payload_arms(name, e, |_| None);
            let unknown = unknown_arm(e, quote!(#n::Tagged::Unknown));
            let type_name = name.to_string();
            quote! {
                const SHAPES: &[&[&str]] = &[#(#shapes),*];
                match #n::shape_variant(r, #type_name, SHAPES, #open)? {
                    #n::Tagged::Known(index) => ::std::result::Result::Ok(match index {
                        #(#payloads)*
                        #none
                    }),
                    #unknown
                }
            }
        }
        Tagging::Untagged => {
            // serde's rule: the first variant that decodes.
            let attempts = e.variants.iter().map(|v| {
                let variant = format_ident!("{}", v.rust_name);
                let attempt = match &v.payload {
                    Payload::Unit => quote! {
                        r.null().and_then(|null| if null {
                            ::std::result::Result::Ok(Self::#variant)
                        } else {
                            ::std::result::Result::Err(r.data_error("expected null"))
                        })
                    },
                    Payload::Newtype(_) => quote!(#n::Decode::decode(r).map(Self::#variant)),
                    Payload::Struct(fields) => struct_variant(name, v, fields),
                };
                quote! {
                    match #attempt {
                        ::std::result::Result::Ok(value) => return ::std::result::Result::Ok(value),
                        ::std::result::Result::Err(_) => r.rewind(start),
                    }
                }
            });
            let fallback = if e.open {
                let unknown = format_ident!("{}", e.unknown_variant());
                quote!(r.value().map(Self::#unknown))
            } else {
                let type_name = name.to_string();
                quote!(::std::result::Result::Err(#n::untagged_failed(r, #type_name)))
            };
            quote! {
                r.peek()?;
                let start = r.position();
                #(#attempts)*
                #fallback
            }
        }
    };
    decode_impl(name, body)
}

/// `impl Decode` for a struct with flattened enums: its own fields from the object, then
/// each enum from the same object, read again from its start.
pub fn flattened(name: &syn::Ident, f: &Flattened) -> TokenStream {
    let fields = field_list(&f.fields);
    let flat = f
        .flattened
        .iter()
        .map(|(field, _)| format_ident!("{}", field));
    let expected = format!("struct {name}");
    decode_impl(
        name,
        quote! {
            r.peek()?;
            let start = r.position();
            ::std::result::Result::Ok(crate::decode_fields!(r, #expected, Self { #fields } flattened from start { #(#flat),* }))
        },
    )
}
