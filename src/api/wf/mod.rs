//! The partner workflow API (`{app_url}/api/1.1/wf`), opened by a partner
//! key (`x-api-key`) and authorized only on the agencies attributed to it.
//! Every answer keeps the API's envelope: `{"status": "success",
//! "response": …}` with 200, or `{"status": "error", "message": "…"}` with
//! the refusal's status (401 key, 403 agency, 400 malformed body, 404
//! unknown equipment, 422 refused value). Its contract is the spec's
//! "Partner workflow API" and `docs/partner-workflow-api.md`. One file per
//! resource group.

pub mod clients;
pub mod equipment_data;
pub mod sheet;
pub mod stats;
pub mod surveys;

use axum::extract::{FromRequest, Request};
use axum::response::{IntoResponse, Response};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::api::json::ApiJson;
use crate::auth::partner_key::WorkflowError;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .merge(clients::router())
        .merge(equipment_data::router())
        .merge(sheet::router())
        .merge(stats::router())
        .merge(surveys::router())
}

/// A JSON body of the workflow API: the refusals of `ApiJson` (400
/// malformed, 413 too large, 422 missing or mistyped field), answered in the
/// workflow envelope.
pub struct WfJson<T>(pub T);

impl<S, T> FromRequest<S> for WfJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = WorkflowError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let ApiJson(value) = ApiJson::<T>::from_request(req, state)
            .await
            .map_err(WorkflowError::from)?;
        Ok(WfJson(value))
    }
}

/// The success envelope: 200 `{"status": "success", "response": …}`.
pub fn success(response: Value) -> Response {
    Json(json!({ "status": "success", "response": response })).into_response()
}

pub type WfResult = Result<Response, WorkflowError>;
