//! The HTTP edge of a refusal: an operation refuses with `AppError` (crate
//! `liftdesk-core`, re-exported here); the HTTP front doors answer it as
//! `ApiError`, the JSON body `{"error": "<raison en français>"}` with its
//! documented status (and `Retry-After` for a 429). A storage failure
//! (`StoreError`) reaches here through `AppError`'s one mapping. Internal
//! causes are logged, never sent.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

pub use liftdesk_core::error::AppError;

use crate::store::StoreError;

/// A refusal as the HTTP front doors answer it.
#[derive(Debug)]
pub struct ApiError(pub AppError);

/// What a handler (and any helper of a front door) returns.
pub type AppResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn bad_request(msg: impl Into<String>) -> Self {
        Self(AppError::bad_request(msg))
    }
    pub fn unauthorized(msg: impl Into<String>) -> Self {
        Self(AppError::unauthorized(msg))
    }
    pub fn forbidden(msg: impl Into<String>) -> Self {
        Self(AppError::forbidden(msg))
    }
    pub fn not_found(msg: impl Into<String>) -> Self {
        Self(AppError::not_found(msg))
    }
    pub fn conflict(msg: impl Into<String>) -> Self {
        Self(AppError::conflict(msg))
    }
    pub fn unprocessable(msg: impl Into<String>) -> Self {
        Self(AppError::unprocessable(msg))
    }
    pub fn payload_too_large(msg: impl Into<String>) -> Self {
        Self(AppError::PayloadTooLarge(msg.into()))
    }

    /// The refusal, as the operations see it.
    pub fn refusal(&self) -> &AppError {
        &self.0
    }

    pub fn status(&self) -> StatusCode {
        status_of(&self.0)
    }

    /// The French reason shown to the caller (never an internal cause).
    pub fn public_message(&self) -> String {
        self.0.public_message()
    }
}

/// The HTTP status of a refusal.
pub fn status_of(err: &AppError) -> StatusCode {
    StatusCode::from_u16(err.status().as_u16()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for ApiError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

impl From<AppError> for ApiError {
    fn from(err: AppError) -> Self {
        Self(err)
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        Self(AppError::from(err))
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(err: anyhow::Error) -> Self {
        Self(AppError::Internal(err))
    }
}

/// `{"error": "<raison en français>"}`: the body of every refusal.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// La raison, en français.
    pub error: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.public_message(),
        };
        refusal_response(&self.0, body)
    }
}

/// A refusal answered over HTTP in a front door's own envelope `body`: its
/// status, `Retry-After` for a 429, the internal cause logged (never sent).
pub fn refusal_response(err: &AppError, body: impl Serialize) -> Response {
    if let AppError::Internal(cause) = err {
        tracing::error!(error = ?cause, "requête en échec");
    }
    let mut response = (status_of(err), axum::Json(body)).into_response();
    if let AppError::TooManyRequests { retry_after_secs } = err
        && let Ok(value) = HeaderValue::from_str(&retry_after_secs.to_string())
    {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}
