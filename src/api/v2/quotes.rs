//! `/api/v2/quotes`: the draft quote, its read, and its life (send, accept,
//! refuse). The rules are in `services::quotes`.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use rmcp::schemars;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::invoices::{LineBody, VatView, author, rate_percent};
use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::{ApiJson, OptionalJson};
use crate::api::pdf::{PdfBinary, PdfResponse};
use crate::api::wire::{Created, Page, PageQuery, Paging, RecordKind};
use crate::auth::api_token::ApiCaller;
use crate::domain::invoice::{cents_to_euros, line_total_excl_cents};
use crate::domain::quote::{QuoteAction, QuoteOrigin, QuoteStatus};
use crate::error::{AppResult, ErrorBody};
use crate::services::documents::{self as documents, PdfFile};
use crate::services::quotes::{self as service, NewQuoteInput, QuoteDetail};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_quotes, create_quote))
        .routes(routes!(get_quote))
        .routes(routes!(get_quote_pdf))
        .routes(routes!(create_quote_invoice))
        .routes(routes!(send_quote))
        .routes(routes!(accept_quote))
        .routes(routes!(refuse_quote))
}

/// Statut d'un devis : `brouillon`, `envoye`, `accepte`, `refuse`.
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types)]
pub enum QuoteStatusCode {
    brouillon,
    envoye,
    accepte,
    refuse,
}

/// Origine d'un devis : `reserve` (réserve de contrôle technique), `panne`,
/// `technicien` (demande du technicien), `client` (demande du client).
#[derive(ToSchema)]
#[allow(dead_code, non_camel_case_types)]
pub enum QuoteOriginCode {
    reserve,
    panne,
    technicien,
    client,
}

/// Un nouveau devis, créé au statut `brouillon`.
#[derive(Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QuoteBody {
    /// Identifiant d'un équipement de l'agence (sinon 422).
    #[schema(min_length = 1)]
    #[schemars(length(min = 1))]
    pub equipment_id: String,
    /// Origine du devis : `reserve` (réserve de contrôle technique), `panne`,
    /// `technicien` (demande du technicien) ou `client` (demande du client) ;
    /// une valeur inconnue est refusée (422).
    #[schema(value_type = QuoteOriginCode)]
    #[schemars(extend("enum" = ["reserve", "panne", "technicien", "client"]))]
    pub origin: String,
    /// Objet du devis, en une phrase : 3 à 300 caractères, sans retour à la ligne.
    #[schema(
        min_length = 3,
        max_length = 300,
        pattern = "^[^\\r\\n]*\\S[^\\r\\n]*$"
    )]
    #[schemars(length(min = 3, max = 300))]
    pub object: String,
    /// Lignes du devis : au moins une, au plus 200.
    #[schema(min_items = 1, max_items = 200)]
    #[schemars(length(min = 1, max = 200))]
    pub rows: Vec<LineBody>,
}

/// L'équipement du devis.
#[derive(Serialize, ToSchema)]
pub struct QuoteEquipment {
    pub id: String,
    /// Numéro de l'équipement.
    #[schema(required = true)]
    pub number: Option<String>,
    pub link: String,
    pub url: String,
}

/// Une ligne de devis.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuoteRowView {
    /// Libellé.
    pub label: String,
    /// Quantité (jusqu'à trois décimales).
    pub quantity: f64,
    /// Prix unitaire HT, en euros.
    pub unit_price: f64,
    /// Taux de TVA, en pour cent (20, 10, 5.5, 2.1 ou 0).
    pub vat_rate: f64,
    /// Total HT de la ligne, en euros (quantité × prix unitaire, arrondi au centime).
    pub total_excl_tax: f64,
}

/// Un devis, tel que `GET /quotes/{id}` le lit.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuoteView {
    /// Identifiant du devis.
    pub id: String,
    /// Numéro du devis (`DV-2026-00012`), donné à la création.
    #[schema(required = true)]
    pub number: Option<String>,
    /// Statut.
    #[schema(value_type = QuoteStatusCode)]
    pub status: String,
    /// Statut en toutes lettres.
    pub status_label: String,
    /// Origine.
    #[schema(value_type = QuoteOriginCode)]
    pub origin: String,
    /// Origine en toutes lettres.
    pub origin_label: String,
    /// Objet du devis.
    pub object: String,
    /// Équipement concerné.
    pub equipment: QuoteEquipment,
    /// Lignes, dans leur ordre.
    pub rows: Vec<QuoteRowView>,
    /// Total HT, en euros.
    pub total_excl_tax: f64,
    /// TVA par taux, par taux croissant.
    pub vat_by_rate: Vec<VatView>,
    /// Total TTC, en euros.
    pub total_incl_tax: f64,
    /// Création (UTC, ISO 8601).
    pub created_at: String,
    /// Premier envoi au client (UTC, ISO 8601) ; null tant qu'il n'est pas envoyé.
    #[schema(required = true)]
    pub sent_at: Option<String>,
    /// Acceptation (UTC, ISO 8601) ; null sauf au statut `accepte`.
    #[schema(required = true)]
    pub accepted_at: Option<String>,
    /// Refus (UTC, ISO 8601) ; null sauf au statut `refuse`.
    #[schema(required = true)]
    pub refused_at: Option<String>,
    pub link: String,
    pub url: String,
}

fn quote_view(detail: QuoteDetail, base_url: &str) -> QuoteView {
    let QuoteDetail {
        quote,
        rows,
        totals,
    } = detail;
    let status = QuoteStatus::parse(&quote.status);
    let origin = QuoteOrigin::parse(&quote.origin);
    QuoteView {
        number: quote.number,
        status_label: status.map(|s| s.label()).unwrap_or_default().to_owned(),
        status: quote.status,
        origin_label: origin.map(|o| o.label()).unwrap_or_default().to_owned(),
        origin: quote.origin,
        object: quote.object,
        equipment: QuoteEquipment {
            link: RecordKind::Equipment.link(&quote.equipment_id),
            url: RecordKind::Equipment.url(base_url, &quote.equipment_id),
            id: quote.equipment_id,
            number: quote.equipment_number,
        },
        rows: rows
            .into_iter()
            .map(|r| QuoteRowView {
                total_excl_tax: cents_to_euros(line_total_excl_cents(
                    r.quantity_milli,
                    r.unit_price_cents,
                )),
                label: r.label,
                quantity: r.quantity_milli as f64 / 1000.0,
                unit_price: cents_to_euros(r.unit_price_cents),
                vat_rate: rate_percent(r.vat_rate_bp),
            })
            .collect(),
        total_excl_tax: cents_to_euros(totals.excl_tax_cents),
        vat_by_rate: totals.vat_by_rate.iter().map(VatView::from).collect(),
        total_incl_tax: cents_to_euros(totals.incl_tax_cents),
        created_at: quote.created_at,
        sent_at: quote.sent_at,
        accepted_at: quote.accepted_at,
        refused_at: quote.refused_at,
        link: RecordKind::Quote.link(&quote.id),
        url: RecordKind::Quote.url(base_url, &quote.id),
        id: quote.id,
    }
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

/// A draft quote: `POST /quotes` and the MCP tool `creer_devis`.
pub async fn quote_create(
    state: &AppState,
    caller: &ApiCaller,
    body: QuoteBody,
) -> AppResult<Created> {
    let agency = caller.require_agency()?;
    let input = NewQuoteInput {
        equipment_id: body.equipment_id,
        origin: body.origin,
        object: body.object,
        rows: body.rows.into_iter().map(Into::into).collect(),
    };
    let id = service::create(&state.store, &agency.id, input, author(caller)).await?;
    Ok(Created::new(RecordKind::Quote, &state.base_url, &id))
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

/// A quote of the agency: `GET /quotes/{id}` and the MCP tool `devis`.
pub async fn quote_read(state: &AppState, caller: &ApiCaller, id: &str) -> AppResult<QuoteView> {
    let agency = caller.require_agency()?;
    let detail = service::get(&state.store, &agency.id, id).await?;
    Ok(quote_view(detail, &state.base_url))
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

/// The PDF of a quote of the caller's agency: `GET /quotes/{id}/pdf` and
/// `GET /app/api/quotes/{id}/pdf`.
pub async fn quote_pdf_file(state: &AppState, caller: &ApiCaller, id: &str) -> AppResult<PdfFile> {
    let agency = caller.require_agency()?;
    Ok(documents::quote_pdf(&state.store, &agency.id, id).await?)
}

/// A quote's transition: `POST /quotes/{id}/send|accept|refuse` and the MCP
/// tools `envoyer_devis`, `accepter_devis`, `refuser_devis`.
pub async fn quote_act(
    state: &AppState,
    caller: &ApiCaller,
    id: &str,
    action: QuoteAction,
) -> AppResult<Created> {
    let agency = caller.require_agency()?;
    service::act(&state.store, &agency.id, id, action, author(caller)).await?;
    Ok(Created::new(RecordKind::Quote, &state.base_url, id))
}

/// Envoie le devis au client (`brouillon` → `envoye`) ; un devis déjà envoyé
/// peut l'être de nouveau (relance, statut inchangé).
#[utoipa::path(
    post,
    path = "/quotes/{id}/send",
    tag = "Devis",
    params(("id" = String, Path, description = "Identifiant du devis")),
    responses(
        (status = 201, description = "Devis envoyé", body = Created,
            links(("GetQuote" = (operation_id = "get_quote", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Devis introuvable dans l'agence", body = ErrorBody),
        (status = 422, description = "Transition refusée par le statut du devis", body = ErrorBody),
    )
)]
async fn send_quote(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<(StatusCode, Json<Created>)> {
    quote_act(&state, &caller, &id, QuoteAction::Send)
        .await
        .map(answer)
}

/// Enregistre l'acceptation du client (`brouillon` ou `envoye` → `accepte`)
/// et émet l'événement `devis.accepte`.
#[utoipa::path(
    post,
    path = "/quotes/{id}/accept",
    tag = "Devis",
    params(("id" = String, Path, description = "Identifiant du devis")),
    responses(
        (status = 201, description = "Devis accepté", body = Created,
            links(("GetQuote" = (operation_id = "get_quote", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Devis introuvable dans l'agence", body = ErrorBody),
        (status = 422, description = "Transition refusée par le statut du devis", body = ErrorBody),
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

/// Une pièce liée à un devis : la facture qui en est issue.
#[derive(Serialize, ToSchema)]
pub struct QuoteInvoiceRef {
    pub id: String,
    /// Numéro ; null tant que la facture est un brouillon.
    #[schema(required = true)]
    pub number: Option<String>,
    pub link: String,
    pub url: String,
}

/// Une ligne de la liste des devis.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuoteListEntry {
    pub id: String,
    #[schema(required = true)]
    pub number: Option<String>,
    #[schema(value_type = QuoteStatusCode)]
    pub status: String,
    pub status_label: String,
    #[schema(value_type = QuoteOriginCode)]
    pub origin: String,
    pub origin_label: String,
    pub object: String,
    pub equipment: QuoteEquipment,
    /// Total HT, en euros.
    pub total_excl_tax: f64,
    /// Total TTC, en euros.
    pub total_incl_tax: f64,
    pub created_at: String,
    /// La facture issue du devis ; null tant qu'il n'est pas facturé.
    #[schema(required = true)]
    pub invoice: Option<QuoteInvoiceRef>,
    pub link: String,
    pub url: String,
}

fn invoice_ref(base_url: &str, id: String, number: Option<String>) -> QuoteInvoiceRef {
    QuoteInvoiceRef {
        link: RecordKind::Invoice.link(&id),
        url: RecordKind::Invoice.url(base_url, &id),
        id,
        number,
    }
}

/// One page of the agency's quotes, newest first.
pub async fn quote_list(
    state: &AppState,
    caller: &ApiCaller,
    filter: service::ListInput,
    paging: PageQuery,
) -> AppResult<Page<QuoteListEntry>> {
    let agency = caller.require_agency()?;
    let paging = Paging::from_query(&paging)?;
    let filter = service::check_filter(filter)?;
    let (total, items) = service::list(
        &state.store,
        &agency.id,
        filter,
        paging.limit,
        paging.offset(),
    )
    .await?;
    let base_url = &state.base_url;
    Ok(Page {
        total,
        page: paging.page,
        limit: paging.limit,
        results: items
            .into_iter()
            .map(|item| {
                let service::QuoteListItem { row, totals } = item;
                let quote = row.quote;
                let status = QuoteStatus::parse(&quote.status);
                let origin = QuoteOrigin::parse(&quote.origin);
                QuoteListEntry {
                    number: quote.number,
                    status_label: status.map(|s| s.label()).unwrap_or_default().to_owned(),
                    status: quote.status,
                    origin_label: origin.map(|o| o.label()).unwrap_or_default().to_owned(),
                    origin: quote.origin,
                    object: quote.object,
                    equipment: QuoteEquipment {
                        link: RecordKind::Equipment.link(&quote.equipment_id),
                        url: RecordKind::Equipment.url(base_url, &quote.equipment_id),
                        id: quote.equipment_id,
                        number: quote.equipment_number,
                    },
                    total_excl_tax: cents_to_euros(totals.excl_tax_cents),
                    total_incl_tax: cents_to_euros(totals.incl_tax_cents),
                    created_at: quote.created_at,
                    invoice: row
                        .invoice_id
                        .map(|id| invoice_ref(base_url, id, row.invoice_number)),
                    link: RecordKind::Quote.link(&quote.id),
                    url: RecordKind::Quote.url(base_url, &quote.id),
                    id: quote.id,
                }
            })
            .collect(),
    })
}

/// The invoice made from the quote `id` (the quote must be the agency's).
pub async fn quote_invoice_read(
    state: &AppState,
    caller: &ApiCaller,
    id: &str,
) -> AppResult<Option<QuoteInvoiceRef>> {
    caller.require_agency()?;
    Ok(service::invoice_of(&state.store, id)
        .await?
        .map(|(id, number)| invoice_ref(&state.base_url, id, number)))
}

/// Le client à facturer quand un devis accepté devient sa facture.
#[derive(Deserialize, ToSchema, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QuoteInvoiceBody {
    /// Client facturé (`client_id` de l'API partenaire) ; absent : le client
    /// de l'équipement du devis (ou de son immeuble).
    pub client_id: Option<String>,
}

/// Turns an accepted quote into its draft invoice (once); the answer names
/// the invoice.
pub async fn quote_invoice(
    state: &AppState,
    caller: &ApiCaller,
    id: &str,
    body: Option<QuoteInvoiceBody>,
) -> AppResult<Created> {
    let agency = caller.require_agency()?;
    let client = body.and_then(|b| b.client_id);
    let invoice_id = crate::services::invoices::invoice_quote(
        &state.store,
        &agency.id,
        id,
        client,
        author(caller),
    )
    .await?;
    Ok(Created::new(
        RecordKind::Invoice,
        &state.base_url,
        &invoice_id,
    ))
}
