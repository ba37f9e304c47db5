//! The one error type of the HTTP APIs and the domain: it becomes the JSON
//! body `{"error": "<raison en français>"}` with the documented status.
//! Internal causes are logged, never sent.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// 400: malformed request.
    #[error("{0}")]
    BadRequest(String),
    /// 401: credential missing, unknown or revoked.
    #[error("{0}")]
    Unauthorized(String),
    /// 403: outside the caller's scope or rights.
    #[error("{0}")]
    Forbidden(String),
    /// 404: object not found in the caller's scope.
    #[error("{0}")]
    NotFound(String),
    /// 409: conflicts with what is stored (e.g. an email already in use).
    #[error("{0}")]
    Conflict(String),
    /// 413: body over the documented limit.
    #[error("{0}")]
    PayloadTooLarge(String),
    /// 422: input refused.
    #[error("{0}")]
    Unprocessable(String),
    /// 429: too many calls; retry after that many seconds.
    #[error("Trop de requêtes : réessayez dans {retry_after_secs} s.")]
    TooManyRequests { retry_after_secs: u64 },
    /// 500: the cause is logged, the caller reads a generic French message.
    #[error("erreur interne : {0}")]
    Internal(#[from] anyhow::Error),
}

pub type AppResult<T> = Result<T, AppError>;

impl AppError {
    pub fn bad_request(msg: impl Into<String>) -> Self {
        Self::BadRequest(msg.into())
    }
    pub fn unauthorized(msg: impl Into<String>) -> Self {
        Self::Unauthorized(msg.into())
    }
    pub fn forbidden(msg: impl Into<String>) -> Self {
        Self::Forbidden(msg.into())
    }
    pub fn not_found(msg: impl Into<String>) -> Self {
        Self::NotFound(msg.into())
    }
    pub fn conflict(msg: impl Into<String>) -> Self {
        Self::Conflict(msg.into())
    }
    pub fn unprocessable(msg: impl Into<String>) -> Self {
        Self::Unprocessable(msg.into())
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The French reason shown to the caller (never an internal cause).
    pub fn public_message(&self) -> String {
        match self {
            Self::Internal(_) => "Erreur interne du serveur. Réessayez plus tard.".to_owned(),
            other => other.to_string(),
        }
    }
}

/// The one place a storage failure becomes a status: a conflict no operation
/// expected is a 409 in general words (the operation that expects one says
/// it in its own, `StoreError::on_constraint`); anything else is the
/// server's fault, logged and answered 500.
impl From<StoreError> for AppError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Conflict { .. } => Self::Conflict(
                "Cette modification entre en conflit avec une donnée déjà enregistrée.".to_owned(),
            ),
            other => Self::Internal(anyhow::Error::new(other).context("base de données")),
        }
    }
}

/// `{"error": "<raison en français>"}`: the body of every refusal.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// La raison, en français.
    pub error: String,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        if let Self::Internal(cause) = &self {
            tracing::error!(error = ?cause, "requête en échec");
        }
        let status = self.status();
        let mut response = (
            status,
            axum::Json(ErrorBody {
                error: self.public_message(),
            }),
        )
            .into_response();
        if let Self::TooManyRequests { retry_after_secs } = self
            && let Ok(value) = HeaderValue::from_str(&retry_after_secs.to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
        response
    }
}
