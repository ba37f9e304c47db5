//! A tool's answer: the REST API's JSON as text (and as structured content
//! when it is an object), or the REST API's French refusal as a tool error.

use rmcp::model::{CallToolResult, ContentBlock};
use serde::Serialize;
use serde_json::json;

use crate::error::{AppError, AppResult};

/// What every tool returns.
pub type ToolAnswer = Result<CallToolResult, rmcp::ErrorData>;

/// The REST shape of `value`, or the refusal.
pub fn answer<T: Serialize>(outcome: AppResult<T>) -> ToolAnswer {
    match outcome {
        Ok(value) => Ok(success(&value)),
        Err(err) => Ok(refusal(err.refusal())),
    }
}

pub fn success<T: Serialize>(value: &T) -> CallToolResult {
    match serde_json::to_value(value) {
        Ok(value @ serde_json::Value::Object(_)) => CallToolResult::structured(value),
        // Structured content must be an object: a list is given as text.
        Ok(value) => CallToolResult::success(vec![ContentBlock::text(value.to_string())]),
        Err(err) => refusal(&AppError::Internal(anyhow::Error::from(err))),
    }
}

/// `{"error": "<raison en français>", "status": <code HTTP de l'API REST>}`
/// as a tool error; internal causes are logged, never sent.
pub fn refusal(err: &AppError) -> CallToolResult {
    if let AppError::Internal(cause) = err {
        tracing::error!(error = ?cause, "outil MCP en échec");
    }
    CallToolResult::structured_error(json!({
        "error": err.public_message(),
        "status": err.status().as_u16(),
    }))
}
