//! `GET /api/v2/contacts/creation` (the contact creation descriptor) and
//! `POST /api/v2/contacts` (the creation it describes). Both read the one
//! table of a contact's fields, `services::contacts::FIELDS`: the descriptor
//! lists it, the published schema of `champs` is written from it, and the
//! creation validates against it.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::json::ApiJson;
use crate::api::wire::Created;
use crate::api::wire::contacts::*;
use crate::auth::api_token::ApiCaller;
use crate::error::{AppResult, ErrorBody};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(contact_creation_descriptor))
        .routes(routes!(create_contact))
}

// ---------------------------------------------------------------------------
// The descriptor
// ---------------------------------------------------------------------------

/// Décrit la création d'un contact : l'objet parent (un client de l'agence,
/// obligatoire) et les champs à remplir, avec leur type et, pour un choix,
/// les valeurs autorisées. `POST /contacts` suit exactement ce descripteur.
#[utoipa::path(
    get,
    path = "/contacts/creation",
    tag = "Clients",
    responses(
        (status = 200, description = "Le descripteur de création d'un contact", body = CreationDescriptor),
    )
)]
async fn contact_creation_descriptor(_caller: ApiCaller) -> Json<CreationDescriptor> {
    Json(contact_descriptor())
}

// ---------------------------------------------------------------------------
// The creation
// ---------------------------------------------------------------------------

/// Crée un contact sur un client de l'agence.
///
/// `parentId` : l'identifiant `client_id` du client (l'`id` d'une ligne de
/// `GET /clients`) ; `champs` : les champs du descripteur
/// `GET /contacts/creation`, par leur `id`. Un parent absent, inconnu dans
/// l'agence ou archivé, un champ obligatoire manquant, une adresse e-mail
/// invalide, une valeur hors de la liste d'un choix, un champ inconnu ou
/// d'un autre type : 422, avec la raison en français nommant le champ par son
/// libellé. Un client a au plus un contact d'un même nom (accents et casse
/// ignorés), comme l'API partenaire les reconnaît.
#[utoipa::path(
    post,
    path = "/contacts",
    tag = "Clients",
    request_body(content = ContactBody, description = "Le client et les champs du contact"),
    responses(
        (status = 201, description = "Contact créé", body = Created),
        (status = 413, description = "Corps de requête trop volumineux", body = ErrorBody),
        (status = 422, description = "Saisie refusée : client absent, inconnu dans l'agence ou archivé ; champ obligatoire manquant, inconnu, d'un autre type ou de valeur refusée ; contact du même nom déjà présent", body = ErrorBody),
    )
)]
async fn create_contact(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(body): ApiJson<ContactBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    Ok((
        StatusCode::CREATED,
        Json(contact_creation(&state, &caller, body).await?),
    ))
}
