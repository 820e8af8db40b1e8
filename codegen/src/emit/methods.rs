//! The method stubs: one marker type per JSON-RPC method implementing the hand-written
//! `RpcMethod` trait (name, params, result, error).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::tokens::{doc_attrs, type_tokens, Scope};
use crate::ir::Method;

/// Renders the marker types and the list of all method names.
pub fn emit<'a>(methods: impl Iterator<Item = &'a Method> + Clone) -> TokenStream {
    let names = methods.clone().map(|m| &m.name);
    // With no method, `visitor` would be an unused parameter.
    let visitor = if methods.clone().next().is_some() {
        format_ident!("visitor")
    } else {
        format_ident!("_visitor")
    };
    let visit_arms = methods.clone().map(|m| {
        let name = &m.name;
        let marker = format_ident!("{}", m.rust_name);
        quote!(#name => ::std::option::Option::Some(visitor.visit::<#marker>()),)
    });
    // `decode_response` and `encode_request` are written out (not left to the trait's
    // defaults, which are generic) and never inlined, so that decoding is compiled here,
    // once, and not in every crate that calls a method.
    let items = methods.map(|m| {
        let doc = doc_attrs(m.doc.as_deref());
        let marker = format_ident!("{}", m.rust_name);
        let name = &m.name;
        let params = type_tokens(&m.params, Scope::Outside);
        let result = type_tokens(&m.result, Scope::Outside);
        let error = type_tokens(&m.error, Scope::Outside);
        let submits = m.submits_transaction;
        let method_doc = format!(" The `{name}` method.");
        let mut notes = Vec::new();
        if m.deprecated {
            notes.push(" **Deprecated** in nearcore's spec.".to_owned());
        }
        if !m.error_documented {
            notes.push(
                " The spec has no error schema for this method: its handler errors decode as \
                 [`UntypedCause`](super::envelope::UntypedCause), their name and info kept as JSON."
                    .to_owned(),
            );
        }
        let notes = notes.iter().map(|note| quote!(#[doc = ""] #[doc = #note]));
        quote! {
            #[doc = #method_doc]
            #[doc = ""]
            #doc
            #(#notes)*
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            pub struct #marker;

            impl crate::methods::RpcMethod for #marker {
                const NAME: &'static str = #name;
                const SUBMITS_TRANSACTION: bool = #submits;
                type Params = #params;
                type Result = #result;
                type Error = #error;

                #[inline(never)]
                fn decode_response(body: &[u8]) -> crate::__private::Decoded<Self> {
                    crate::__private::native::from_slice(body)
                }

                #[inline(never)]
                fn encode_request(id: u64, params: &Self::Params) -> crate::__private::Encoded {
                    crate::__private::encode_request(Self::NAME, id, params)
                }
            }
        }
    });
    quote! {
        /// The JSON-RPC names of every method in the spec, sorted.
        pub const ALL: &[&str] = &[#(#names),*];

        /// Calls `visitor` with the marker type of the method called `name`, or returns
        /// `None` for a name the spec does not have.
        pub fn visit<V: crate::methods::MethodVisitor>(name: &str, #visitor: V) -> ::std::option::Option<V::Output> {
            match name {
                #(#visit_arms)*
                _ => ::std::option::Option::None,
            }
        }
        #(#items)*
    }
}
