//! `/api/v2/quotes`: the draft quote, its read, and its life (send, accept,
//! refuse). The rules are in `services::quotes`.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::{ApiJson, OptionalJson};
use crate::api::pdf::{PdfBinary, PdfResponse};
use crate::api::wire::mail::{self, MailWire, SendBody, SentDocument};
use crate::api::wire::quotes::*;
use crate::api::wire::{Created, Page, PageQuery};
use crate::auth::api_token::ApiCaller;
use crate::domain::id::QuoteId;
use crate::domain::quote::QuoteAction;
use crate::error::{AppResult, ErrorBody};
use crate::services::mailing::MailObject;
use crate::services::quotes::{self as service};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_quotes, create_quote))
        .routes(routes!(get_quote))
        .routes(routes!(get_quote_pdf))
        .routes(routes!(create_quote_invoice))
        .routes(routes!(send_quote))
        .routes(routes!(list_quote_mails))
        .routes(routes!(accept_quote))
        .routes(routes!(refuse_quote))
        .routes(routes!(renew_quote))
}

/// Crée un devis au statut `brouillon`, numéroté `DV-AAAA-NNNNN` dans l'agence.
///
/// Chaque ligne : `label` (obligatoire), `quantity` (> 0, trois décimales au
/// plus), `unitPrice` (euros HT, ≥ 0, deux décimales au plus), `vatRate`
/// (facultatif, 20 par défaut ; 20, 10, 5.5, 2.1 ou 0). Une ligne refusée est
/// nommée dans la raison (« Ligne 2 : … »).
#[utoipa::path(
    post,
    path = "/quotes",
    tag = "Devis",
    request_body = QuoteBody,
    responses(
        (status = 201, description = "Devis créé (brouillon)", body = Created,
            links(("GetQuote" = (operation_id = "get_quote", parameters(("id" = "$response.body#/id")))), ("SendQuote" = (operation_id = "send_quote", parameters(("id" = "$response.body#/id")))), ("AcceptQuote" = (operation_id = "accept_quote", parameters(("id" = "$response.body#/id")))), ("RefuseQuote" = (operation_id = "refuse_quote", parameters(("id" = "$response.body#/id")))))),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Saisie refusée : champ manquant, origine inconnue, équipement hors de l'agence, ligne invalide", body = ErrorBody),
    )
)]
async fn create_quote(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(body): ApiJson<QuoteBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    quote_create(&state, &caller, body).await.map(answer)
}

/// The 201 answer of a creation or a transition.
fn answer(created: Created) -> (StatusCode, Json<Created>) {
    (StatusCode::CREATED, Json(created))
}

/// Un devis de l'agence, avec ses lignes et ses totaux HT, TVA et TTC.
#[utoipa::path(
    get,
    path = "/quotes/{id}",
    tag = "Devis",
    params(("id" = String, Path, description = "Identifiant du devis")),
    responses(
        (status = 200, description = "Le devis", body = QuoteView,
            links(("SendQuote" = (operation_id = "send_quote", parameters(("id" = "$response.body#/id")))), ("AcceptQuote" = (operation_id = "accept_quote", parameters(("id" = "$response.body#/id")))), ("RefuseQuote" = (operation_id = "refuse_quote", parameters(("id" = "$response.body#/id")))),
                ("GetQuotePdf" = (operation_id = "get_quote_pdf", parameters(("id" = "$response.body#/id")))),
                ("CreateQuoteForEquipment" = (operation_id = "create_quote", request_body = json!({"equipmentId": "$response.body#/equipment/id"}))))),
        (status = 404, description = "Devis introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn get_quote(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<QuoteView>> {
    quote_read(&state, &caller, &id).await.map(Json)
}

/// Le document PDF d'un devis de l'agence : l'agence (SIRET, SIREN) et le
/// client de l'appareil, numéro, date, objet, lignes, TVA par taux, totaux
/// HT et TTC, et un cadre « Bon pour accord ». Fichier `<numéro>.pdf`,
/// affiché dans le navigateur (`Content-Disposition: inline`).
#[utoipa::path(
    get,
    path = "/quotes/{id}/pdf",
    tag = "Devis",
    params(("id" = String, Path, description = "Identifiant du devis")),
    responses(
        (status = 200, description = "Le document PDF", content_type = "application/pdf", body = PdfBinary,
            headers(("Content-Disposition" = String, description = "`inline; filename=\"DV-2026-00012.pdf\"`"))),
        (status = 404, description = "Devis introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn get_quote_pdf(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<PdfResponse> {
    quote_pdf_file(&state, &caller, &id).await.map(PdfResponse)
}

/// Envoie le devis au client (`brouillon` → `envoye`) ; un devis déjà envoyé
/// peut l'être de nouveau (relance, statut inchangé). Avec `contactIds`, le
/// devis part par e-mail, son PDF joint, aux contacts choisis du client de
/// l'appareil, depuis l'adresse de l'agence (message écrit dans la même
/// transaction, essayé aussitôt : `mail` dans la réponse). Sans corps ni
/// contacts, seul le statut change.
#[utoipa::path(
    post,
    path = "/quotes/{id}/send",
    tag = "Devis",
    params(("id" = String, Path, description = "Identifiant du devis")),
    request_body = Option<SendBody>,
    responses(
        (status = 201, description = "Devis envoyé (et message écrit, après son premier essai)", body = SentDocument,
            links(("GetQuote" = (operation_id = "get_quote", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Devis introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Transition refusée par le statut du devis ; contact d'un autre client ou sans adresse ; adresse e-mail de l'agence ou serveur d'envoi non réglés", body = ErrorBody),
    )
)]
async fn send_quote(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
    OptionalJson(body): OptionalJson<SendBody>,
) -> AppResult<(StatusCode, Json<SentDocument>)> {
    mail::quote_send(&state, &caller, &id, body)
        .await
        .map(|sent| (StatusCode::CREATED, Json(sent)))
}

/// Les messages du devis envoyés par e-mail, du plus récent au plus ancien.
#[utoipa::path(
    get,
    path = "/quotes/{id}/mails",
    tag = "Devis",
    params(("id" = String, Path, description = "Identifiant du devis")),
    responses(
        (status = 200, description = "Messages du devis", body = Vec<MailWire>),
        (status = 404, description = "Devis introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn list_quote_mails(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<Vec<MailWire>>> {
    mail::mails(&state, &caller, MailObject::Quote(QuoteId::new(id)))
        .await
        .map(Json)
}

/// Enregistre l'acceptation du client (`brouillon` ou `envoye` → `accepte`)
/// et émet l'événement `devis.accepte`. Un devis dont la validité est
/// passée (`expired`) est refusé (422) : il se renouvelle d'abord
/// (`POST /quotes/{id}/renew`).
#[utoipa::path(
    post,
    path = "/quotes/{id}/accept",
    tag = "Devis",
    params(("id" = String, Path, description = "Identifiant du devis")),
    responses(
        (status = 201, description = "Devis accepté", body = Created,
            links(("GetQuote" = (operation_id = "get_quote", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Devis introuvable dans l'agence", body = ErrorBody),
        (status = 422, description = "Transition refusée par le statut du devis, ou devis expiré", body = ErrorBody),
    )
)]
async fn accept_quote(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<(StatusCode, Json<Created>)> {
    quote_act(&state, &caller, &id, QuoteAction::Accept)
        .await
        .map(answer)
}

/// Enregistre le refus du client (`brouillon` ou `envoye` → `refuse`).
#[utoipa::path(
    post,
    path = "/quotes/{id}/refuse",
    tag = "Devis",
    params(("id" = String, Path, description = "Identifiant du devis")),
    responses(
        (status = 201, description = "Devis refusé", body = Created,
            links(("GetQuote" = (operation_id = "get_quote", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Devis introuvable dans l'agence", body = ErrorBody),
        (status = 422, description = "Transition refusée par le statut du devis", body = ErrorBody),
    )
)]
async fn refuse_quote(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<(StatusCode, Json<Created>)> {
    quote_act(&state, &caller, &id, QuoteAction::Refuse)
        .await
        .map(answer)
}

/// Renouvelle la validité d'un devis en attente de réponse (`brouillon` ou
/// `envoye`) : son dernier jour de validité (`validUntil`) devient
/// aujourd'hui + 30 jours ; le statut ne change pas.
#[utoipa::path(
    post,
    path = "/quotes/{id}/renew",
    tag = "Devis",
    params(("id" = String, Path, description = "Identifiant du devis")),
    responses(
        (status = 201, description = "Validité renouvelée", body = Created,
            links(("GetQuote" = (operation_id = "get_quote", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Devis introuvable dans l'agence", body = ErrorBody),
        (status = 422, description = "Devis déjà accepté ou refusé", body = ErrorBody),
    )
)]
async fn renew_quote(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<(StatusCode, Json<Created>)> {
    quote_act(&state, &caller, &id, QuoteAction::Renew)
        .await
        .map(answer)
}

// ---------------------------------------------------------------------------
// The list and the invoice of a quote (shared with the web application)
// ---------------------------------------------------------------------------

/// Filtres et pagination de la liste des devis.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct QuoteQuery {
    /// Statut : `brouillon`, `envoye`, `accepte` ou `refuse` (autre valeur : 422).
    #[param(inline, value_type = Option<QuoteStatusCode>)]
    pub status: Option<String>,
    /// Un fragment du numéro de l'équipement, sans tenir compte de la casse
    /// (100 caractères au plus).
    #[param(max_length = 100)]
    pub equipment: Option<String>,
    /// Lignes par page, de 1 à 200 (50 par défaut).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 200)]
    pub limit: Option<String>,
    /// Page demandée, à partir de 1.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 4294967295_i64)]
    pub page: Option<String>,
}

/// Les devis de l'agence, des plus récents aux plus anciens, filtrés par
/// statut et par numéro d'équipement, paginés ; chacun avec ses totaux et la
/// facture qui en est issue.
#[utoipa::path(
    get,
    path = "/quotes",
    tag = "Devis",
    params(QuoteQuery),
    responses(
        (status = 200, description = "Une page de devis", body = Page<QuoteListEntry>,
            links(("GetQuote" = (operation_id = "get_quote", parameters(("id" = "$response.body#/results/0/id")))))),
        (status = 400, description = "Recherche d'équipement trop longue", body = ErrorBody),
        (status = 422, description = "Statut inconnu, `limit` ou `page` hors bornes", body = ErrorBody),
    )
)]
async fn list_quotes(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiQuery(query): ApiQuery<QuoteQuery>,
) -> AppResult<Page<QuoteListEntry>> {
    let filter = service::ListInput {
        status: query.status,
        equipment: query.equipment,
        client: None,
    };
    let paging = PageQuery {
        limit: query.limit,
        page: query.page,
    };
    quote_list(&state, &caller, filter, paging).await
}

/// Fait d'un devis accepté sa facture, en brouillon : les lignes du devis
/// reprises, au client `clientId` ou, sans lui, au client de l'équipement du
/// devis (ou de son immeuble). Une seule fois par devis. La réponse désigne
/// la facture.
#[utoipa::path(
    post,
    path = "/quotes/{id}/invoice",
    tag = "Devis",
    params(("id" = String, Path, description = "Identifiant du devis")),
    request_body = Option<QuoteInvoiceBody>,
    responses(
        (status = 201, description = "Facture créée (brouillon)", body = Created,
            links(("GetInvoice" = (operation_id = "get_invoice", parameters(("id" = "$response.body#/id")))), ("UpdateInvoice" = (operation_id = "update_invoice", parameters(("id" = "$response.body#/id")))), ("IssueInvoice" = (operation_id = "issue_invoice", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Devis introuvable dans l'agence", body = ErrorBody),
        (status = 409, description = "Devis déjà facturé", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Devis non accepté, client introuvable ou archivé, équipement sans client et `clientId` absent", body = ErrorBody),
    )
)]
async fn create_quote_invoice(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
    OptionalJson(body): OptionalJson<QuoteInvoiceBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    quote_invoice(&state, &caller, &id, body).await.map(answer)
}
