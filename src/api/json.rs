//! `ApiJson<T>`: a JSON body whose refusals are the French error body:
//! wrong Content-Type or malformed JSON → 400, a body over the limit → 413,
//! a well-formed body with a missing or mistyped field → 422.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::header::CONTENT_TYPE;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

pub struct ApiJson<T>(pub T);

const NOT_JSON: &str =
    "Le corps de la requête doit être du JSON, avec l'en-tête Content-Type: application/json.";

/// Whether the request declares a JSON body (`application/json` or `+json`).
fn declares_json(req: &Request) -> bool {
    req.headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| {
            let mime = mime.trim().to_ascii_lowercase();
            mime == "application/json"
                || (mime.starts_with("application/") && mime.ends_with("+json"))
        })
}

/// The body's bytes, with 413 past the limit and 400 when unreadable.
async fn body_bytes<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, ApiError> {
    body_bytes_or(req, state, || {
        ApiError::payload_too_large(format!(
            "Le corps de la requête dépasse la taille maximale acceptée ({} Kio).",
            super::MAX_BODY_BYTES / 1024
        ))
    })
    .await
}

/// The body's bytes, with `too_large` past the route's limit and 400 when
/// unreadable.
async fn body_bytes_or<S: Send + Sync>(
    req: Request,
    state: &S,
    too_large: impl FnOnce() -> ApiError,
) -> Result<Bytes, ApiError> {
    Bytes::from_request(req, state).await.map_err(|rejection| {
        if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
            too_large()
        } else {
            ApiError::bad_request("Le corps de la requête n'a pas pu être lu.")
        }
    })
}

/// A JSON body read by the rules of `ApiJson`, for a route that sets its
/// own body limit (`DefaultBodyLimit` on the route): `too_large` is its 413.
pub async fn json_body_with_limit<S, T>(
    req: Request,
    state: &S,
    too_large: impl FnOnce() -> ApiError,
) -> Result<T, ApiError>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    if !declares_json(&req) {
        return Err(ApiError::bad_request(NOT_JSON));
    }
    let bytes = body_bytes_or(req, state, too_large).await?;
    parse_json(&bytes)
}

impl<S, T> FromRequest<S> for ApiJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !declares_json(&req) {
            return Err(ApiError::bad_request(NOT_JSON));
        }
        let bytes = body_bytes(req, state).await?;
        parse_json(&bytes).map(ApiJson)
    }
}

/// A JSON body that may be left out (transitions whose fields are all
/// optional): no body, an empty one or JSON `null` is `None`; otherwise the
/// rules of `ApiJson` (JSON Content-Type, 400 malformed, 413, 422).
pub struct OptionalJson<T>(pub Option<T>);

impl<S, T> FromRequest<S> for OptionalJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let declared = declares_json(&req);
        let bytes = body_bytes(req, state).await?;
        let text = bytes.trim_ascii();
        if text.is_empty() || text == b"null" {
            return Ok(OptionalJson(None));
        }
        if !declared {
            return Err(ApiError::bad_request(NOT_JSON));
        }
        parse_json(&bytes).map(|value| OptionalJson(Some(value)))
    }
}

/// Parses a JSON body into `T`, with French reasons naming the field.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    // Every body of these APIs is an object; serde would also accept an
    // array for a struct, so refuse anything else up front as malformed.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiError::bad_request(
            "Le corps de la requête doit être un objet JSON.",
        ));
    }
    // JSON is UTF-8; serde checks it only in the strings it reads, so a
    // broken byte after a refused field would pass for a 422.
    if std::str::from_utf8(bytes).is_err() {
        return Err(ApiError::bad_request(
            "Le corps de la requête n'est pas un JSON valide.",
        ));
    }
    // Syntax first: a malformed body is 400 even when a field is also missing.
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes)
        .map_err(|_| ApiError::bad_request("Le corps de la requête n'est pas un JSON valide."))?;
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        let message = inner.to_string();
        match inner.classify() {
            serde_json::error::Category::Data => {
                ApiError::unprocessable(data_error_message(&path, &message))
            }
            // The text is well-formed (checked above), yet serde_json calls
            // some refusals of a value syntax: a choice sent as another JSON
            // type (`"target": false`), a number out of range (`1e999`).
            // The field is what is wrong; only a body nested too deep to be
            // read stays malformed.
            serde_json::error::Category::Syntax
                if !(path.is_empty() || path == "." || message.starts_with("recursion limit")) =>
            {
                ApiError::unprocessable(if message.starts_with("number out of range") {
                    format!("Le champ « {path} » a une valeur incorrecte.")
                } else {
                    format!("Le champ « {path} » n'a pas le type attendu.")
                })
            }
            _ => ApiError::bad_request("Le corps de la requête n'est pas un JSON valide."),
        }
    })?;
    // Anything after the JSON value makes the body malformed.
    deserializer
        .end()
        .map_err(|_| ApiError::bad_request("Le corps de la requête n'est pas un JSON valide."))?;
    Ok(value)
}

/// Translates serde's English data errors into French, naming the field.
fn data_error_message(path: &str, serde_message: &str) -> String {
    let quoted = |text: &str| -> Option<String> {
        let start = text.find('`')? + 1;
        let end = start + text[start..].find('`')?;
        Some(text[start..end].to_owned())
    };
    let field_path = |name: &str| {
        if path.is_empty() || path == "." {
            name.to_owned()
        } else {
            format!("{path}.{name}")
        }
    };
    if serde_message.starts_with("missing field") {
        let name = quoted(serde_message).unwrap_or_default();
        return format!("Le champ « {} » est obligatoire.", field_path(&name));
    }
    if serde_message.starts_with("unknown field") {
        // Here the path already ends with the unknown field itself.
        let name = if path.is_empty() || path == "." {
            quoted(serde_message).unwrap_or_default()
        } else {
            path.to_owned()
        };
        return format!("Le champ « {name} » n'est pas reconnu.");
    }
    let shown = if path.is_empty() || path == "." {
        "corps de la requête".to_owned()
    } else {
        path.to_owned()
    };
    if serde_message.starts_with("invalid type") {
        return format!("Le champ « {shown} » n'a pas le type attendu.");
    }
    if serde_message.starts_with("unknown variant") {
        return format!(
            "La valeur du champ « {shown} » ne fait pas partie des valeurs autorisées."
        );
    }
    format!("Le champ « {shown} » a une valeur incorrecte.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Sample {
        email: String,
        count: i64,
    }

    fn message(body: &str) -> (u16, String) {
        match parse_json::<Sample>(body.as_bytes()) {
            Ok(_) => (200, String::new()),
            Err(err) => (err.status().as_u16(), err.public_message()),
        }
    }

    #[test]
    fn refusals_are_french_and_name_the_field() {
        assert_eq!(
            message(r#"{"count": 1}"#),
            (422, "Le champ « email » est obligatoire.".into())
        );
        assert_eq!(
            message(r#"{"email": "a", "count": "x"}"#),
            (422, "Le champ « count » n'a pas le type attendu.".into())
        );
        assert_eq!(
            message(r#"{"email": "a", "count": 1, "x": 1}"#),
            (422, "Le champ « x » n'est pas reconnu.".into())
        );
        assert_eq!(
            message(r#"[1]"#),
            (
                400,
                "Le corps de la requête doit être un objet JSON.".into()
            )
        );
        assert_eq!(message(r#""texte""#).0, 400);
        assert_eq!(message(r#"{"email": "#).0, 400);
        assert_eq!(message(r#"{"email": "a", "count": 1} trailing"#).0, 400);
        assert_eq!(message(r#"{} trailing"#).0, 400);
        assert_eq!(message(r#"{"count": "#).0, 400);
        assert_eq!(message(r#"{"email": "a", "count": 1}"#).0, 200);
        assert_eq!(
            message(r#"{"email": "a", "count": 1e999}"#),
            (422, "Le champ « count » a une valeur incorrecte.".into())
        );
        // Invalid UTF-8 is malformed, wherever it stands.
        let broken = |bytes: &[u8]| match parse_json::<Sample>(bytes) {
            Ok(_) => 200,
            Err(err) => err.status().as_u16(),
        };
        assert_eq!(broken(b"{\"x\": 1, \"email\": \"\xff\"}"), 400);
        assert_eq!(
            broken(b"{\"email\": \"a\", \"count\": 1, \"\xc3\": 1}"),
            400
        );
    }

    #[derive(Deserialize, Debug)]
    #[serde(rename_all = "snake_case")]
    #[allow(dead_code)]
    enum Kind {
        Clients,
        Contacts,
    }

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct WithChoice {
        target: Kind,
    }

    #[test]
    fn a_choice_of_another_json_type_is_a_422_naming_it() {
        let refusal = |body: &str| match parse_json::<WithChoice>(body.as_bytes()) {
            Ok(_) => (200, String::new()),
            Err(err) => (err.status().as_u16(), err.public_message()),
        };
        let mistyped = (
            422,
            "Le champ « target » n'a pas le type attendu.".to_owned(),
        );
        for body in [
            r#"{"target": false}"#,
            r#"{"target": {}}"#,
            r#"{"target": [1]}"#,
            r#"{"target": 3}"#,
            r#"{"target": null}"#,
        ] {
            assert_eq!(refusal(body), mistyped, "{body}");
        }
        assert_eq!(
            refusal(r#"{"target": "x"}"#),
            (
                422,
                "La valeur du champ « target » ne fait pas partie des valeurs autorisées.".into()
            )
        );
        assert_eq!(refusal(r#"{"target": "clients"}"#).0, 200);
        // Depth is read only where a value is wanted: a choice sent as a
        // deep array is mistyped at once, an ignored field is skipped.
        let deep = format!("{{\"target\": {}{}}}", "[".repeat(200), "]".repeat(200));
        assert_eq!(refusal(&deep).0, 422);
        let deep_map = format!(
            "{{\"target\": \"clients\", \"x\": {}{}}}",
            "[".repeat(200),
            "]".repeat(200)
        );
        assert_eq!(refusal(&deep_map).0, 200);
    }
}
