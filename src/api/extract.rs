//! Query and path extractors whose refusals are the French error body
//! (axum's own rejections are plain English text).

use axum::extract::{FromRequestParts, Path, Query};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// Query parameters; a malformed query string is 400 with a French reason.
pub struct ApiQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiQuery<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Query::<T>::from_request_parts(parts, state)
            .await
            .map(|Query(value)| ApiQuery(value))
            .map_err(|rejection| {
                tracing::debug!(%rejection, "paramètres de requête refusés");
                ApiError::bad_request(format!(
                    "Paramètres de requête invalides : {}.",
                    french_query_reason(&rejection.body_text())
                ))
            })
    }
}

fn french_query_reason(text: &str) -> String {
    let quoted = |t: &str| -> Option<String> {
        let start = t.find('`')? + 1;
        let end = start + t[start..].find('`')?;
        Some(t[start..end].to_owned())
    };
    if text.contains("missing field") {
        return format!(
            "le paramètre « {} » est obligatoire",
            quoted(text).unwrap_or_default()
        );
    }
    if text.contains("unknown field") {
        return format!(
            "le paramètre « {} » n'est pas reconnu",
            quoted(text).unwrap_or_default()
        );
    }
    if text.contains("invalid") {
        return "une valeur n'a pas le format attendu".to_owned();
    }
    "la chaîne de requête n'a pas pu être lue".to_owned()
}

/// Path parameters; a malformed path is 400 with a French reason.
pub struct ApiPath<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiPath<T>
where
    S: Send + Sync,
    T: DeserializeOwned + Send,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Path::<T>::from_request_parts(parts, state)
            .await
            .map(|Path(value)| ApiPath(value))
            .map_err(|rejection| {
                tracing::debug!(%rejection, "chemin refusé");
                ApiError::bad_request("Le chemin de la requête est invalide.")
            })
    }
}
