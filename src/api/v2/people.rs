//! `/api/v2/people…`: the organization's accounts as their administrators
//! manage them (`wire::people`, `services::people`): the list, a new
//! account with its temporary password shown once, a change of role or
//! agencies, deactivation (its sessions and tokens end at once),
//! reactivation, a new temporary password. `GET /users` stays the
//! directory of the acting agency's staff.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::ApiPath;
use crate::api::json::ApiJson;
use crate::api::wire::people::*;
use crate::auth::api_token::ApiCaller;
use crate::domain::id::AccountId;
use crate::error::{AppError, AppResult, ErrorBody};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_people, create_person))
        .routes(routes!(edit_person))
        .routes(routes!(deactivate_person))
        .routes(routes!(reactivate_person))
        .routes(routes!(reset_person_password))
}

/// Les personnes de l'organisation que l'administrateur gère (un administrateur d'agence :
/// celles de ses agences), les agences qu'il peut donner, et s'il peut nommer des
/// administrateurs de l'organisation.
#[utoipa::path(
    get,
    path = "/people",
    tag = "Organisation",
    responses(
        (status = 200, description = "Les personnes", body = PeopleAnswer),
        (status = 403, description = "Réservé à un administrateur", body = ErrorBody),
    )
)]
async fn list_people(
    State(state): State<AppState>,
    caller: ApiCaller,
) -> AppResult<Json<PeopleAnswer>> {
    let me = caller
        .account
        .as_ref()
        .map(|a| a.id.clone())
        .ok_or_else(|| AppError::forbidden("Réservé au jeton d'un compte du personnel."))?;
    let scope = vec![caller.agency()?.clone()];
    people_managed(&state, &caller, &scope, &me).await.map(Json)
}

/// Crée un compte (nom, e-mail, fonction, rôle `org_admin`, `agency_admin` ou `member`,
/// agences, relevés, fiche technicien) ; la réponse porte le mot de passe provisoire,
/// montré cette fois seulement : la personne en choisit un à sa première connexion.
#[utoipa::path(
    post,
    path = "/people",
    tag = "Organisation",
    request_body = NewPersonBody,
    responses(
        (status = 201, description = "Compte créé, mot de passe provisoire", body = PersonWithPassword),
        (status = 400, description = "Corps illisible", body = ErrorBody),
        (status = 403, description = "Réservé à un administrateur", body = ErrorBody),
        (status = 404, description = "Agence introuvable parmi celles de l'administrateur", body = ErrorBody),
        (status = 409, description = "Adresse déjà utilisée", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Champ invalide, rôle ou agence refusés", body = ErrorBody),
    )
)]
async fn create_person(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(body): ApiJson<NewPersonBody>,
) -> AppResult<(StatusCode, Json<PersonWithPassword>)> {
    person_create(&state, &caller, body)
        .await
        .map(|created| (StatusCode::CREATED, Json(created)))
}

/// Change les champs donnés d'un compte (nom, fonction — vide l'efface —, rôle, agences,
/// relevés). Le dernier administrateur de l'organisation ne peut perdre ce rôle.
#[utoipa::path(
    patch,
    path = "/people/{id}",
    tag = "Organisation",
    params(("id" = String, Path, description = "Identifiant du compte")),
    request_body = EditPersonBody,
    responses(
        (status = 200, description = "Le compte", body = PersonWire),
        (status = 400, description = "Corps illisible", body = ErrorBody),
        (status = 403, description = "Réservé à un administrateur", body = ErrorBody),
        (status = 404, description = "Compte introuvable", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Changement refusé", body = ErrorBody),
    )
)]
async fn edit_person(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<AccountId>,
    ApiJson(body): ApiJson<EditPersonBody>,
) -> AppResult<Json<PersonWire>> {
    person_edit(&state, &caller, &id, body).await.map(Json)
}

/// Désactive un compte : ses sessions et ses jetons d'API cessent aussitôt ; son historique
/// reste.
#[utoipa::path(
    post,
    path = "/people/{id}/deactivate",
    tag = "Organisation",
    params(("id" = String, Path, description = "Identifiant du compte")),
    responses(
        (status = 200, description = "Le compte désactivé", body = PersonWire),
        (status = 403, description = "Réservé à un administrateur", body = ErrorBody),
        (status = 404, description = "Compte introuvable", body = ErrorBody),
        (status = 422, description = "Refusé (soi-même, dernier administrateur)", body = ErrorBody),
    )
)]
async fn deactivate_person(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<AccountId>,
) -> AppResult<Json<PersonWire>> {
    person_deactivate(&state, &caller, &id).await.map(Json)
}

/// Réactive un compte désactivé.
#[utoipa::path(
    post,
    path = "/people/{id}/reactivate",
    tag = "Organisation",
    params(("id" = String, Path, description = "Identifiant du compte")),
    responses(
        (status = 200, description = "Le compte réactivé", body = PersonWire),
        (status = 403, description = "Réservé à un administrateur", body = ErrorBody),
        (status = 404, description = "Compte introuvable", body = ErrorBody),
        (status = 422, description = "Refusé", body = ErrorBody),
    )
)]
async fn reactivate_person(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<AccountId>,
) -> AppResult<Json<PersonWire>> {
    person_reactivate(&state, &caller, &id).await.map(Json)
}

/// Donne un nouveau mot de passe provisoire, montré cette fois seulement ; les sessions du
/// compte cessent.
#[utoipa::path(
    post,
    path = "/people/{id}/password-reset",
    tag = "Organisation",
    params(("id" = String, Path, description = "Identifiant du compte")),
    responses(
        (status = 200, description = "Le compte et son mot de passe provisoire", body = PersonWithPassword),
        (status = 403, description = "Réservé à un administrateur", body = ErrorBody),
        (status = 404, description = "Compte introuvable", body = ErrorBody),
        (status = 422, description = "Refusé", body = ErrorBody),
    )
)]
async fn reset_person_password(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<AccountId>,
) -> AppResult<Json<PersonWithPassword>> {
    person_reset_password(&state, &caller, &id).await.map(Json)
}
