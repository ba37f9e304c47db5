//! `/api/v2/contract-billing`: « Facturer les contrats » for a window of
//! days — the preview (`GET …/preview`), the drafts created in one
//! transaction (`POST …/drafts`, idempotent) and their issue in batches
//! (`POST …/issue`). The rules are in `services::contract_billing`.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::ApiQuery;
use crate::api::json::ApiJson;
use crate::api::wire::PageQuery;
use crate::api::wire::contract_billing::*;
use crate::auth::api_token::ApiCaller;
use crate::error::{AppResult, ErrorBody};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(preview_contract_billing))
        .routes(routes!(create_contract_billing_drafts))
        .routes(routes!(issue_contract_billing))
}

/// La fenêtre, le filtre et la pagination de l'aperçu.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BillingPreviewQuery {
    /// Premier jour à facturer (AAAA-MM-JJ).
    #[param(value_type = String, format = Date)]
    pub from: Option<String>,
    /// Dernier jour à facturer (AAAA-MM-JJ), au plus 366 jours après le
    /// premier.
    #[param(value_type = String, format = Date)]
    pub to: Option<String>,
    /// Seulement les lignes de cet état.
    #[param(inline, value_type = Option<BillingStateCode>)]
    pub state: Option<String>,
    /// Lignes par page, de 1 à 200 (50 par défaut).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 200)]
    pub limit: Option<String>,
    /// Page demandée, à partir de 1.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 4294967295_i64)]
    pub page: Option<String>,
}

/// L'aperçu de « Facturer les contrats » pour les jours `from` à `to` :
/// chaque période d'un contrat en vigueur (ou terminé depuis) facturée à
/// partir d'un de ces jours, son montant (premières et dernières périodes
/// au prorata de leurs jours, prix révisés avec leur formule
/// P = P0 × (I / I0)), les lignes de la facture et son état (`a_creer`,
/// `deja_facture` avec la facture, `indice_manquant`, `terme_non_echu`,
/// `client_archive`) ; les comptes et totaux de toute la facturation dans
/// `summary`. Rien n'est écrit.
#[utoipa::path(
    get,
    path = "/contract-billing/preview",
    tag = "Contrats",
    params(BillingPreviewQuery),
    responses(
        (status = 200, description = "L'aperçu", body = BillingPreview),
        (status = 422, description = "Jour manquant, invalide, fenêtre inversée ou de plus de 366 jours, état inconnu, `limit` ou `page` hors bornes", body = ErrorBody),
    )
)]
async fn preview_contract_billing(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiQuery(query): ApiQuery<BillingPreviewQuery>,
) -> AppResult<Json<BillingPreview>> {
    billing_preview(
        &state,
        &caller,
        PreviewQuery {
            from: query.from.unwrap_or_default(),
            to: query.to.unwrap_or_default(),
            state: query.state,
            paging: PageQuery {
                limit: query.limit,
                page: query.page,
            },
        },
    )
    .await
    .map(Json)
}

/// Crée, en une transaction, la facture en brouillon de chaque ligne
/// `a_creer` de l'aperçu : une par contrat et par période, au client du
/// contrat, avec ses appareils et ses lignes (le prorata et la formule de
/// révision dans leur libellé). Jamais deux fois la même période : relancée,
/// la création ne crée que ce qui manque (`created` 0 quand tout est déjà
/// facturé).
#[utoipa::path(
    post,
    path = "/contract-billing/drafts",
    tag = "Contrats",
    request_body = BillingWindowBody,
    responses(
        (status = 201, description = "Brouillons créés", body = DraftsView),
        (status = 409, description = "Une période a été facturée entre-temps", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Jour invalide ou fenêtre refusée", body = ErrorBody),
    )
)]
async fn create_contract_billing_drafts(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(body): ApiJson<BillingWindowBody>,
) -> AppResult<(StatusCode, Json<DraftsView>)> {
    billing_drafts(&state, &caller, body)
        .await
        .map(|drafts| (StatusCode::CREATED, Json(drafts)))
}

/// Émet le lot suivant des brouillons de la facturation (au plus `limit`,
/// 50 par défaut), par numéro de contrat puis période : chaque facture
/// reçoit son numéro. Un brouillon refusé (identité de l'agence
/// incomplète…) reste un brouillon et est rendu avec sa raison. `remaining`
/// dit ce qu'il reste à émettre : l'écran appelle tant qu'il reste des
/// brouillons et qu'un lot en émet, et montre la progression.
#[utoipa::path(
    post,
    path = "/contract-billing/issue",
    tag = "Contrats",
    request_body = IssueBatchBody,
    responses(
        (status = 200, description = "Le lot émis", body = IssueBatchView),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Jour invalide, fenêtre refusée ou `limit` hors bornes", body = ErrorBody),
    )
)]
async fn issue_contract_billing(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(body): ApiJson<IssueBatchBody>,
) -> AppResult<Json<IssueBatchView>> {
    billing_issue(&state, &caller, body).await.map(Json)
}
