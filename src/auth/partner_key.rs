//! `PartnerCaller`: a partner workflow API request authenticated by the
//! header `x-api-key`, authorized only on the agencies attributed to the key.
//! Its refusals keep the workflow API's envelope:
//! `{"status": "error", "message": "<raison en français>"}`.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::auth::{secret, touch_if_stale};
use crate::error::{ApiError, AppError, AppResult, refusal_response};
use crate::state::AppState;
use crate::store::credentials;

pub const API_KEY_HEADER: &str = "x-api-key";
pub const UNAUTHORIZED_MESSAGE: &str = "Clé d'API partenaire manquante, inconnue ou révoquée.";
pub const AGENCY_NOT_AUTHORIZED_MESSAGE: &str =
    "Cette agence n'est pas attribuée à cette clé partenaire.";

#[derive(Debug, Clone)]
pub struct PartnerCaller {
    pub credential_id: String,
    pub partner_name: String,
    pub agency_ids: Vec<String>,
}

impl PartnerCaller {
    /// The `agency_id` of a call, if attributed to the key: 403 otherwise, so
    /// nothing is executed for an agency the partner may not reach.
    pub fn authorize_agency(&self, agency_id: &str) -> Result<(), WorkflowError> {
        if self.agency_ids.iter().any(|id| id == agency_id) {
            Ok(())
        } else {
            Err(WorkflowError(AppError::forbidden(
                AGENCY_NOT_AUTHORIZED_MESSAGE,
            )))
        }
    }
}

/// An `AppError` answered in the workflow API's envelope, with its status.
#[derive(Debug)]
pub struct WorkflowError(pub AppError);

impl From<AppError> for WorkflowError {
    fn from(err: AppError) -> Self {
        Self(err)
    }
}

impl From<ApiError> for WorkflowError {
    fn from(err: ApiError) -> Self {
        Self(err.0)
    }
}

#[derive(Serialize)]
struct WorkflowErrorBody {
    status: &'static str,
    message: String,
}

impl IntoResponse for WorkflowError {
    fn into_response(self) -> Response {
        let body = WorkflowErrorBody {
            status: "error",
            message: self.0.public_message(),
        };
        refusal_response(&self.0, body)
    }
}

impl FromRequestParts<AppState> for PartnerCaller {
    type Rejection = WorkflowError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let unauthorized = || WorkflowError(AppError::unauthorized(UNAUTHORIZED_MESSAGE));
        let key = parts
            .headers
            .get(API_KEY_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
            .filter(|k| secret::has_shape(k, secret::PARTNER_KEY_PREFIX))
            .ok_or_else(unauthorized)?;
        let fingerprint = secret::fingerprint(key);
        let matched = state
            .store
            .read(move |conn| -> AppResult<_> {
                Ok(credentials::find_live_partner_key(conn, &fingerprint)?)
            })
            .await
            .map_err(WorkflowError::from)?
            .ok_or_else(unauthorized)?;
        touch_if_stale(
            state,
            &matched.credential_id,
            matched.last_used_at.as_deref(),
        );
        Ok(PartnerCaller {
            credential_id: matched.credential_id,
            partner_name: matched.partner_name,
            agency_ids: matched.agency_ids,
        })
    }
}
