//! `GET /api/v2/surveys` (paged list, search on number), `GET /surveys/{id}`
//! (the survey read: `type`, `id`, `link`, `url`, `fields`),
//! `GET /surveys/{id}/data` (the data read, components grouped by key) and
//! `POST /surveys/{id}/submit` (the technician submits the survey; the rules
//! are in `services::surveys`).

use axum::Json;
use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::OptionalJson;
use crate::api::wire::Page;
use crate::api::wire::surveys::*;
use crate::auth::api_token::ApiCaller;
use crate::error::{AppResult, ErrorBody};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_surveys))
        .routes(routes!(read_survey))
        .routes(routes!(survey_data))
        .routes(routes!(submit_survey))
}

/// Liste des relevés de l'agence.
///
/// Du plus récent au plus ancien (date de création puis identifiant,
/// décroissants) ; `q` garde les relevés dont le numéro contient le terme.
#[utoipa::path(
    get,
    path = "/surveys",
    tag = "Relevés",
    params(SurveyListQuery),
    responses(
        (status = 200, description = "Une page de relevés", body = Page<SurveyListEntry>,
            links(
                ("lireReleve" = (
                    operation_id = "read_survey",
                    parameters(("id" = "$response.body#/results/0/id")),
                    description = "Lire le premier relevé de la page"
                )),
                ("donneesReleve" = (
                    operation_id = "survey_data",
                    parameters(("id" = "$response.body#/results/0/id")),
                    description = "Les données du premier relevé de la page"
                )),
                ("soumettreReleve" = (
                    operation_id = "submit_survey",
                    parameters(("id" = "$response.body#/results/0/id")),
                    description = "Soumettre le premier relevé de la page"
                ))
            )
        ),
        (status = 422, description = "`limit` ou `page` hors des bornes", body = ErrorBody),
    )
)]
async fn list_surveys(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiQuery(query): ApiQuery<SurveyListQuery>,
) -> AppResult<Page<SurveyListEntry>> {
    survey_list(&state, &caller, query).await
}

/// Lire un relevé.
#[utoipa::path(
    get,
    path = "/surveys/{id}",
    tag = "Relevés",
    params(("id" = String, Path, description = "Identifiant du relevé")),
    responses(
        (status = 200, description = "Le relevé", body = SurveyRead,
            links(
                ("donneesReleve" = (
                    operation_id = "survey_data",
                    parameters(("id" = "$response.body#/id")),
                    description = "Les données de ce relevé"
                )),
                ("soumettreReleve" = (
                    operation_id = "submit_survey",
                    parameters(("id" = "$response.body#/id")),
                    description = "Soumettre ce relevé"
                ))
            )
        ),
        (status = 404, description = "Relevé introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn read_survey(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<SurveyRead>> {
    Ok(Json(survey_record(&state, &caller, id).await?))
}

/// Lire les données d'un relevé.
///
/// Les données sont celles que ce relevé a recueillies (pas les données
/// actuelles de l'équipement).
#[utoipa::path(
    get,
    path = "/surveys/{id}/data",
    tag = "Relevés",
    params(("id" = String, Path, description = "Identifiant du relevé")),
    responses(
        (status = 200, description = "Les données du relevé", body = SurveyData,
            links(
                ("noterEcart" = (
                    operation_id = "create_discrepancy",
                    request_body = json!({
                        "equipmentId": "$response.body#/equipment/id",
                        "surveyId": "$response.body#/id"
                    }),
                    description = "Noter un écart sur ce relevé"
                ))
            )
        ),
        (status = 404, description = "Relevé introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn survey_data(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<SurveyData>> {
    Ok(Json(survey_data_read(&state, &caller, id).await?))
}

// -- POST /surveys/{id}/submit ----------------------------------------------

/// Soumettre un relevé : le technicien remet les données relevées.
///
/// Le relevé (`a_realiser` ou `en_cours`) passe à `termine` ; les données
/// envoyées dans `values` s'ajoutent à celles déjà saisies sur le relevé, puis
/// toutes les données du relevé deviennent les données actuelles de
/// l'équipement ; l'événement `releve.termine` est envoyé aux abonnés. Réservé
/// aux comptes qui réalisent des relevés et aux administrateurs. Le corps
/// peut être omis.
#[utoipa::path(
    post,
    path = "/surveys/{id}/submit",
    tag = "Relevés",
    params(("id" = String, Path, description = "Identifiant du relevé")),
    request_body = Option<SubmitBody>,
    responses(
        (status = 200, description = "Relevé soumis", body = SurveySubmitted,
            links(
                ("lireReleve" = (
                    operation_id = "read_survey",
                    parameters(("id" = "$response.body#/id")),
                    description = "Lire le relevé soumis"
                )),
                ("donneesReleve" = (
                    operation_id = "survey_data",
                    parameters(("id" = "$response.body#/id")),
                    description = "Les données du relevé soumis"
                ))
            )
        ),
        (status = 403, description = "Agence hors du périmètre, ou compte qui ne réalise pas de relevés et n'est pas administrateur", body = ErrorBody),
        (status = 404, description = "Relevé introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Relevé déjà terminé ou annulé, `surveyedOn` invalide, dans le futur ou avant la demande, donnée inconnue ou valeur refusée, champ inconnu ou du mauvais type", body = ErrorBody),
    )
)]
async fn submit_survey(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
    OptionalJson(body): OptionalJson<SubmitBody>,
) -> AppResult<Json<SurveySubmitted>> {
    Ok(Json(
        survey_submission(&state, &caller, id, body.unwrap_or_default()).await?,
    ))
}
