//! Tool arguments that are a REST body: `Checked<T>` reads them exactly as
//! the REST API reads its JSON body (`api::json::parse_json`: the same
//! French 422 for a missing, unknown or mistyped field), so that such a
//! refusal is a tool error like every other refusal, not a protocol error.
//! Its input schema is `T`'s.

use std::borrow::Cow;

use rmcp::schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use crate::api::json::parse_json;
use crate::error::{ApiError, AppResult};

/// The REST body `T` read from the tool's arguments, or the REST API's refusal.
/// Flattened into a tool's arguments, it receives every argument the tool
/// does not name itself (a path parameter such as `id`).
#[derive(Debug)]
pub struct Checked<T>(AppResult<T>);

impl<T> Checked<T> {
    pub fn into_result(self) -> AppResult<T> {
        self.0
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Checked<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let object = Map::<String, Value>::deserialize(deserializer)?;
        let parsed = serde_json::to_vec(&Value::Object(object))
            .map_err(|err| ApiError::from(anyhow::Error::from(err)))
            .and_then(|bytes| parse_json::<T>(&bytes));
        Ok(Self(parsed))
    }
}

impl<T: JsonSchema> JsonSchema for Checked<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        T::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use rmcp::schemars;

    use super::*;

    #[derive(Debug, Deserialize, JsonSchema, PartialEq)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct Body {
        equipment_id: String,
        #[serde(default)]
        note: Option<String>,
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    struct WithPath {
        id: String,
        #[serde(flatten)]
        body: Checked<Body>,
    }

    fn refusal<T: std::fmt::Debug>(outcome: AppResult<T>) -> (u16, String) {
        let err = outcome.expect_err("refused");
        (err.status().as_u16(), err.public_message())
    }

    #[test]
    fn a_body_is_read_as_the_rest_api_reads_it() {
        let read = |v: Value| serde_json::from_value::<Checked<Body>>(v).expect("object");
        assert_eq!(
            read(serde_json::json!({"equipmentId": "e"}))
                .into_result()
                .ok(),
            Some(Body {
                equipment_id: "e".into(),
                note: None
            })
        );
        assert_eq!(
            refusal(read(serde_json::json!({})).into_result()),
            (422, "Le champ « equipmentId » est obligatoire.".to_owned())
        );
        assert_eq!(
            refusal(read(serde_json::json!({"equipmentId": "e", "x": 1})).into_result()),
            (422, "Le champ « x » n'est pas reconnu.".to_owned())
        );
    }

    #[test]
    fn a_path_parameter_is_left_out_of_the_body_and_the_schema_is_the_body_s() {
        let args: WithPath =
            serde_json::from_value(serde_json::json!({"id": "r1", "equipmentId": "e"}))
                .expect("args");
        assert_eq!(args.id, "r1");
        assert!(args.body.into_result().is_ok());
        let args: WithPath =
            serde_json::from_value(serde_json::json!({"id": "r1", "equipmentId": 3}))
                .expect("args");
        assert_eq!(
            refusal(args.body.into_result()),
            (
                422,
                "Le champ « equipmentId » n'a pas le type attendu.".to_owned()
            )
        );
        let schema = serde_json::to_value(schemars::schema_for!(WithPath)).expect("schema");
        let properties = schema["properties"].as_object().expect("properties");
        let mut names: Vec<&str> = properties.keys().map(String::as_str).collect();
        names.sort_unstable();
        assert_eq!(names, ["equipmentId", "id", "note"], "{schema}");
        assert_eq!(schema["type"], "object");
    }
}
