//! The one refusal type of the operations: what was refused and why, in
//! French. Every front door answers it the same way: the HTTP APIs as the
//! JSON body `{"error": "<raison en français>"}` with the status of
//! [`AppError::status`] (the root crate's `error`), MCP as a tool error.
//! Internal causes are logged, never shown.

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

/// A refusal's status, in HTTP's numbering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Status(u16);

impl Status {
    pub fn as_u16(self) -> u16 {
        self.0
    }
}

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
    /// 422 naming the field: « Champ « field » : reason ».
    pub fn field(field: &str, reason: impl std::fmt::Display) -> Self {
        Self::Unprocessable(format!("Champ « {field} » : {reason}"))
    }

    /// The documented status of this refusal (every API family of the
    /// contract uses HTTP's numbering; the front doors turn it into their
    /// own wire form).
    pub fn status(&self) -> Status {
        Status(match self {
            Self::BadRequest(_) => 400,
            Self::Unauthorized(_) => 401,
            Self::Forbidden(_) => 403,
            Self::NotFound(_) => 404,
            Self::Conflict(_) => 409,
            Self::PayloadTooLarge(_) => 413,
            Self::Unprocessable(_) => 422,
            Self::TooManyRequests { .. } => 429,
            Self::Internal(_) => 500,
        })
    }

    /// The French reason shown to the caller (never an internal cause).
    pub fn public_message(&self) -> String {
        match self {
            Self::Internal(_) => "Erreur interne du serveur. Réessayez plus tard.".to_owned(),
            other => other.to_string(),
        }
    }
}

/// A refused quote row or invoice line: the sentence names the line (422).
impl From<crate::domain::lines::LineError> for AppError {
    fn from(err: crate::domain::lines::LineError) -> Self {
        Self::unprocessable(err.to_string())
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
