//! Tool arguments read as the REST API reads a body: a missing, mistyped or
//! unknown argument is a tool error with the REST API's French reason (422),
//! not a protocol error in English. Tools that take arguments declare their
//! schema with `input_schema = args::schema::<Args>()` and receive the raw
//! argument object.

use std::sync::Arc;

use rmcp::handler::server::common::{schema_for_empty_input, schema_for_input};
use rmcp::model::JsonObject;
use rmcp::schemars::JsonSchema;
use serde::de::DeserializeOwned;

use crate::api::json::parse_json;
use crate::error::{AppError, AppResult};

/// The input schema of a tool whose arguments are `T`.
pub(super) fn schema<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    schema_for_input::<T>().unwrap_or_else(|reason| {
        tracing::error!(%reason, "schéma d'arguments d'outil MCP invalide");
        schema_for_empty_input()
    })
}

/// The arguments as `T`, refused like a REST body (`api::json::parse_json`).
pub(super) fn parse<T: DeserializeOwned>(arguments: JsonObject) -> AppResult<T> {
    let bytes = serde_json::to_vec(&serde_json::Value::Object(arguments))
        .map_err(|err| AppError::Internal(err.into()))?;
    parse_json(&bytes)
}
