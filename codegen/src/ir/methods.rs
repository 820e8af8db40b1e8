//! Each method of the spec: its params, result and handler error types, and whether it
//! submits a transaction (the client never repeats those).

use super::schema::*;
use super::*;
use crate::naming::*;

impl Builder<'_> {
    pub(super) fn methods(
        &mut self,
        sources: &BTreeMap<String, MethodSource>,
    ) -> Result<BTreeMap<String, Method>, Error> {
        let mut methods = BTreeMap::new();
        for (name, source) in sources {
            if let Some(params) = ref_name(&source.params) {
                self.param_schemas.insert(params.to_owned());
            }
            let error = match &source.error {
                Some(error) => self.type_expr(error, &format!("{name}Error"))?,
                None => TypeExpr::Named(UNTYPED_CAUSE.to_owned()),
            };
            let method = Method {
                submits_transaction: self.requires_signed_transaction(&source.params),
                rust_name: method_marker_name(name),
                doc: source.doc.as_deref().map(clean_doc),
                params: self.type_expr(&source.params, &format!("{name}Params"))?,
                result: self.type_expr(&source.result, &format!("{name}Result"))?,
                error,
                error_documented: source.error.is_some(),
                deprecated: source.deprecated,
                name: name.clone(),
            };
            methods.insert(name.clone(), method);
        }
        Ok(methods)
    }

    /// Whether a params schema (or the schema it refers to) lists a property of type
    /// `SignedTransaction` as required.
    pub(super) fn requires_signed_transaction(&self, params: &Value) -> bool {
        let schema = match ref_name(params) {
            Some(name) => match self.schemas.get(name) {
                Some(schema) => schema,
                None => return false,
            },
            None => params,
        };
        let required = schema["required"].as_array().into_iter().flatten();
        required.filter_map(Value::as_str).any(|field| {
            let property = &schema["properties"][field];
            let refs =
                std::iter::once(property).chain(property["allOf"].as_array().into_iter().flatten());
            refs.filter_map(ref_name)
                .any(|name| name == "SignedTransaction")
        })
    }
}
