//! `PartnerCaller`: a partner workflow API request authenticated by the
//! header `x-api-key`, authorized only on the agencies attributed to the key.
//! Its refusals keep the workflow API's envelope:
//! `{"status": "error", "message": "<raison en français>"}`.

use crate::domain::id::AgencyId;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::auth::{secret, touch_if_stale};
use crate::error::{ApiError, AppError, refusal_response};
use crate::principal::{Door, Principal};
use crate::services::credentials;
use crate::state::AppState;
use crate::store::audit::Actor;

pub const API_KEY_HEADER: &str = "x-api-key";
pub const UNAUTHORIZED_MESSAGE: &str = "Clé d'API partenaire manquante, inconnue ou révoquée.";

/// The extractor of the partner workflow API: the `Principal` of a partner
/// key (`Door::Partner`), its scope the agencies the key is attributed to;
/// each call names its agency, checked by [`PartnerCaller::in_agency`].
#[derive(Debug, Clone)]
pub struct PartnerCaller {
    pub principal: Principal,
    /// The partner's name, as the key was created with.
    pub partner_name: String,
}

impl PartnerCaller {
    /// The principal acting in `agency_id`, if the key is attributed to it:
    /// 403 otherwise, so nothing is executed for an agency the partner may
    /// not reach.
    pub fn in_agency(&self, agency_id: &str) -> Result<Principal, WorkflowError> {
        Ok(self.principal.in_agency(&AgencyId::new(agency_id))?)
    }

    /// 403 unless the key is attributed to `agency_id` (see [`Self::in_agency`]).
    pub fn authorize_agency(&self, agency_id: &str) -> Result<(), WorkflowError> {
        self.in_agency(agency_id).map(|_| ())
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
        let (matched, scope) = credentials::partner_key_holder(&state.store, &fingerprint)
            .await
            .map_err(WorkflowError::from)?
            .ok_or_else(unauthorized)?;
        touch_if_stale(
            state,
            &matched.credential_id,
            None,
            matched.last_used_at.as_deref(),
        );
        Ok(PartnerCaller {
            principal: Principal {
                actor: Actor::PartnerKey(matched.credential_id),
                account: None,
                agency: None,
                scope,
                door: Door::Partner,
            },
            partner_name: matched.partner_name,
        })
    }
}
