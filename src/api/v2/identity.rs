//! `/api/v2/agency/identity`: the acting agency's legal identity, the
//! seller printed on its quotes, invoices and credit notes
//! (`wire::identity`, `services::identity`). Read by every caller of the
//! agency; replaced whole by its administrators.

use axum::Json;
use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::json::ApiJson;
use crate::api::wire::identity::*;
use crate::auth::api_token::ApiCaller;
use crate::domain::identity::IdentityInput;
use crate::error::{AppResult, ErrorBody};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_identity, put_identity))
}

/// L'identité de l'agence : raison sociale, forme, capital, RCS, SIRET (le SIREN en
/// découle), TVA intracommunautaire, adresses, coordonnées, banque, assureur, option de
/// TVA sur les débits ; ce qui manque pour émettre une facture (`missingToIssue`) et les
/// mentions légales encore absentes (`missingMentions`).
#[utoipa::path(
    get,
    path = "/agency/identity",
    tag = "Organisation",
    responses((status = 200, description = "L'identité de l'agence", body = IdentityAnswer))
)]
async fn get_identity(
    State(state): State<AppState>,
    caller: ApiCaller,
) -> AppResult<Json<IdentityAnswer>> {
    identity_read(&state, &caller).await.map(Json)
}

/// Remplace l'identité de l'agence (administrateurs de l'organisation ou de l'agence) :
/// chaque champ absent ou vide est effacé. SIRET vérifié (clé de Luhn), TVA
/// intracommunautaire vérifiée contre le SIREN, IBAN et BIC vérifiés.
#[utoipa::path(
    put,
    path = "/agency/identity",
    tag = "Organisation",
    request_body = IdentityWire,
    responses(
        (status = 200, description = "L'identité enregistrée", body = IdentityAnswer),
        (status = 400, description = "Corps illisible", body = ErrorBody),
        (status = 403, description = "Réservé à un administrateur de l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Champ invalide (SIRET, TVA, IBAN, BIC, e-mail…)", body = ErrorBody),
    )
)]
async fn put_identity(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(body): ApiJson<IdentityInput>,
) -> AppResult<Json<IdentityAnswer>> {
    identity_update(&state, &caller, body).await.map(Json)
}
