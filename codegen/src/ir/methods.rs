//! Each method of the spec: its params, result and handler error types, and whether it
//! submits a transaction (the client never repeats those).

use super::naming::*;
use super::schema::*;
use super::*;

impl Builder<'_> {
    pub(super) fn response_roots(&self) -> Vec<String> {
        self.schemas
            .keys()
            .filter(|n| n.starts_with("JsonRpcResponse_for_"))
            .cloned()
            .collect()
    }

    pub(super) fn methods(&mut self, document: &Value) -> Result<BTreeMap<String, Method>, Error> {
        let mut methods = BTreeMap::new();
        let paths = document["paths"].as_object().into_iter().flatten();
        for (path, item) in paths {
            let op = &item["post"];
            let name = op["operationId"]
                .as_str()
                .unwrap_or_else(|| path.trim_start_matches('/'))
                .to_owned();
            let at = |what: &str| Error::new(format!("method {name}: {what}"));
            let request = ref_name(
                op.pointer("/requestBody/content/application~1json/schema")
                    .ok_or_else(|| at("no request schema"))?,
            )
            .ok_or_else(|| at("request schema is not a $ref"))?;
            let response = ref_name(
                op.pointer("/responses/200/content/application~1json/schema")
                    .ok_or_else(|| at("no 200 response schema"))?,
            )
            .ok_or_else(|| at("response schema is not a $ref"))?;
            let params_schema = self
                .schema(request)?
                .pointer("/properties/params")
                .ok_or_else(|| at("request has no params"))?
                .clone();
            let params_schema = &params_schema;
            if let Some(params) = ref_name(params_schema) {
                self.param_schemas.insert(params.to_owned());
            }
            let (result, error) = self.response_parts(response)?;
            let submits_transaction = self.requires_signed_transaction(params_schema);
            let method = Method {
                submits_transaction,
                rust_name: method_marker_name(&name),
                doc: op["description"].as_str().map(clean_doc),
                params: self.type_expr(params_schema, &format!("{name}Params"))?,
                result: self.type_expr(&result, &format!("{name}Result"))?,
                error: self.type_expr(&error, &format!("{name}Error"))?,
                name: name.clone(),
            };
            methods.insert(name, method);
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

    /// The result schema and the handler-error schema of a `JsonRpcResponse_for_*`.
    pub(super) fn response_parts(&self, response: &str) -> Result<(Value, Value), Error> {
        let arms = alternatives(self.schema(response)?).unwrap_or_default();
        let arm_prop = |key: &str| {
            arms.iter()
                .find_map(|arm| arm.pointer(&format!("/properties/{key}")).cloned())
                .ok_or_else(|| Error::new(format!("{response}: no `{key}` arm")))
        };
        let result = arm_prop("result")?;
        let wrapper = ref_name(&arm_prop("error")?)
            .ok_or_else(|| Error::new(format!("{response}: error is not a $ref")))?
            .to_owned();
        Ok((result, self.handler_cause(&wrapper)?))
    }

    /// The `cause` schema of the `HANDLER_ERROR` arm of an `ErrorWrapper_for_*`.
    pub(super) fn handler_cause(&self, wrapper: &str) -> Result<Value, Error> {
        alternatives(self.schema(wrapper)?)
            .unwrap_or_default()
            .iter()
            .find(|arm| single_tag(arm, "name").as_deref() == Some("HANDLER_ERROR"))
            .and_then(|arm| arm.pointer("/properties/cause").cloned())
            .ok_or_else(|| Error::new(format!("{wrapper}: no HANDLER_ERROR arm")))
    }
}
