//! `/api/v2/invoices`: the paged list (the spec's invoice rows), the read,
//! and the life of invoices and credit notes (draft, issue, send, payment,
//! credit note). The rules are in `services::invoices`.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::{ApiJson, OptionalJson};
use crate::api::pdf::{PdfBinary, PdfResponse, XmlResponse, XmlText};
use crate::api::wire::invoices::*;
use crate::api::wire::mail::{self, MailWire, SendBody, SentDocument};
use crate::api::wire::{Created, Page, PageQuery};
use crate::auth::api_token::ApiCaller;
use crate::domain::id::InvoiceId;
use crate::error::{AppResult, ErrorBody};
use crate::services::invoices::ListInput;
use crate::services::mailing::MailObject;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_invoices, create_invoice))
        .routes(routes!(get_invoice, update_invoice))
        .routes(routes!(get_invoice_pdf))
        .routes(routes!(get_invoice_facturx))
        .routes(routes!(issue_invoice))
        .routes(routes!(send_invoice))
        .routes(routes!(list_invoice_mails))
        .routes(routes!(record_invoice_payment))
        .routes(routes!(create_credit_note))
}

// ---------------------------------------------------------------------------
// Shared wire shapes (also used by quotes)
// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// List
// ---------------------------------------------------------------------------

/// Filtres et pagination de la liste des factures.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct InvoiceQuery {
    /// Client facturé : son identifiant `client_id` (celui de l'API partenaire).
    pub client: Option<String>,
    /// Statut : `brouillon`, `emise`, `envoyee` ou `payee` (autre valeur : 422).
    #[param(inline, value_type = Option<InvoiceStatusCode>)]
    pub status: Option<String>,
    /// Créées à partir de ce jour inclus (AAAA-MM-JJ).
    #[param(value_type = Option<String>, format = Date)]
    pub since: Option<String>,
    /// Créées jusqu'à ce jour inclus (AAAA-MM-JJ).
    #[param(value_type = Option<String>, format = Date)]
    pub until: Option<String>,
    /// Lignes par page, de 1 à 200 (50 par défaut).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 200)]
    pub limit: Option<String>,
    /// Page demandée, à partir de 1.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 4294967295_i64)]
    pub page: Option<String>,
}

/// Factures et avoirs de l'agence, des plus récents aux plus anciens (jour
/// de création, puis identifiant), filtrés et paginés.
#[utoipa::path(
    get,
    path = "/invoices",
    tag = "Factures",
    params(InvoiceQuery),
    responses(
        (status = 200, description = "Une page de factures", body = Page<InvoiceRowView>,
            links(("GetInvoice" = (operation_id = "get_invoice", parameters(("id" = "$response.body#/results/0/id")))), ("IssueInvoice" = (operation_id = "issue_invoice", parameters(("id" = "$response.body#/results/0/id")))), ("SendInvoice" = (operation_id = "send_invoice", parameters(("id" = "$response.body#/results/0/id")))), ("RecordPayment" = (operation_id = "record_invoice_payment", parameters(("id" = "$response.body#/results/0/id")))), ("CreateCreditNote" = (operation_id = "create_credit_note", parameters(("id" = "$response.body#/results/0/id")))))),
        (status = 422, description = "Filtre ou pagination hors limites : statut inconnu, `since` postérieur à `until`, `limit` ou `page` hors bornes", body = ErrorBody),
    )
)]
async fn list_invoices(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiQuery(query): ApiQuery<InvoiceQuery>,
) -> AppResult<Page<InvoiceRowView>> {
    let filter = ListInput {
        client: query.client,
        statuses: query.status.into_iter().collect(),
        since: query.since,
        until: query.until,
        overdue: false,
        ..ListInput::default()
    };
    let paging = PageQuery {
        limit: query.limit,
        page: query.page,
    };
    invoice_list(&state, &caller, filter, paging).await
}

// ---------------------------------------------------------------------------
// Read
// ---------------------------------------------------------------------------

/// Une facture ou un avoir de l'agence, avec ses lignes, sa TVA par taux et
/// les pièces liées (facture créditée, avoirs, devis).
#[utoipa::path(
    get,
    path = "/invoices/{id}",
    tag = "Factures",
    params(("id" = String, Path, description = "Identifiant de la facture ou de l'avoir")),
    responses(
        (status = 200, description = "La facture ou l'avoir", body = InvoiceView,
            links(("IssueInvoice" = (operation_id = "issue_invoice", parameters(("id" = "$response.body#/id")))), ("SendInvoice" = (operation_id = "send_invoice", parameters(("id" = "$response.body#/id")))), ("RecordPayment" = (operation_id = "record_invoice_payment", parameters(("id" = "$response.body#/id")))), ("CreateCreditNote" = (operation_id = "create_credit_note", parameters(("id" = "$response.body#/id")))),
                ("GetCreditedInvoice" = (operation_id = "get_invoice", parameters(("id" = "$response.body#/creditedInvoice/id")))),
                ("GetQuote" = (operation_id = "get_quote", parameters(("id" = "$response.body#/quote/id")))),
                ("GetInvoicePdf" = (operation_id = "get_invoice_pdf", parameters(("id" = "$response.body#/id")))),
                ("CreateInvoiceForClient" = (operation_id = "create_invoice", request_body = json!({"clientId": "$response.body#/client"}))))),
        (status = 404, description = "Facture introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn get_invoice(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<InvoiceId>,
) -> AppResult<Json<InvoiceView>> {
    invoice_read(&state, &caller, &id).await.map(Json)
}

/// Le document PDF d'une facture ou d'un avoir de l'agence, avec les mentions
/// légales d'une facture française : vendeur et acheteur (SIREN), numéro,
/// dates d'émission et d'échéance, lignes, TVA par taux, totaux HT et TTC,
/// conditions de paiement, pénalités de retard et indemnité forfaitaire de
/// recouvrement. Un brouillon n'a pas de numéro : il porte la mention
/// « Brouillon — sans valeur de facture ». Fichier `FA-2026-000012.pdf`,
/// `AV-….pdf`, ou `brouillon-<id>.pdf`, affiché dans le navigateur
/// (`Content-Disposition: inline`).
#[utoipa::path(
    get,
    path = "/invoices/{id}/pdf",
    tag = "Factures",
    params(("id" = String, Path, description = "Identifiant de la facture ou de l'avoir")),
    responses(
        (status = 200, description = "Le document PDF", content_type = "application/pdf", body = PdfBinary,
            headers(("Content-Disposition" = String, description = "`inline; filename=\"FA-2026-000012.pdf\"` (brouillon : `brouillon-<id>.pdf`)"))),
        (status = 404, description = "Facture introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn get_invoice_pdf(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<InvoiceId>,
) -> AppResult<PdfResponse> {
    invoice_pdf_file(&state, &caller, &id)
        .await
        .map(PdfResponse)
}

/// La facture structurée d'une facture ou d'un avoir émis : XML CII
/// (UN/CEFACT D16B), profil Factur-X EN 16931 avec les règles françaises de
/// la réforme (BR-FR), celui que porte le PDF (`factur-x.xml`), à transmettre
/// à la plateforme agréée de l'agence. Fichier `FA-2026-000012.xml`
/// (`Content-Disposition: attachment`). Un brouillon n'en a pas (409).
#[utoipa::path(
    get,
    path = "/invoices/{id}/facturx.xml",
    tag = "Factures",
    params(("id" = String, Path, description = "Identifiant de la facture ou de l'avoir")),
    responses(
        (status = 200, description = "La facture structurée (Factur-X, EN 16931)", content_type = "application/xml", body = XmlText,
            headers(("Content-Disposition" = String, description = "`attachment; filename=\"FA-2026-000012.xml\"`"))),
        (status = 404, description = "Facture introuvable dans l'agence", body = ErrorBody),
        (status = 409, description = "Brouillon : pas de facture électronique avant l'émission", body = ErrorBody),
    )
)]
async fn get_invoice_facturx(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<InvoiceId>,
) -> AppResult<XmlResponse> {
    invoice_facturx_file(&state, &caller, &id)
        .await
        .map(XmlResponse)
}

// ---------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------

/// Crée une facture au statut `brouillon`, sans numéro : le numéro est donné
/// à l'émission. Sans `lines`, les lignes du devis accepté `quoteId` sont reprises.
#[utoipa::path(
    post,
    path = "/invoices",
    tag = "Factures",
    request_body = InvoiceBody,
    responses(
        (status = 201, description = "Facture créée (brouillon)", body = Created,
            links(("GetInvoice" = (operation_id = "get_invoice", parameters(("id" = "$response.body#/id")))), ("IssueInvoice" = (operation_id = "issue_invoice", parameters(("id" = "$response.body#/id")))))),
        (status = 409, description = "Devis déjà facturé : sans `lines`, ses lignes ne sont reprises qu'une fois", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Saisie refusée : client hors de l'agence ou archivé, devis non accepté, ligne invalide", body = ErrorBody),
    )
)]
async fn create_invoice(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(body): ApiJson<InvoiceBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    invoice_create(&state, &caller, body).await.map(answer)
}

/// The 201 answer of a creation or a transition.
fn answer(created: Created) -> (StatusCode, Json<Created>) {
    (StatusCode::CREATED, Json(created))
}

/// Émet la pièce (`brouillon` → `emise`) : numéro suivant de la série de
/// l'agence, de la nature et de l'année (`FA-2026-000042`, `AV-2026-000007`,
/// `FA-PO-2026-000042` dans la série de l'agence),
/// sans trou ; date d'émission aujourd'hui (jour de Paris), échéance à 30 jours ;
/// acheteur figé.
#[utoipa::path(
    post,
    path = "/invoices/{id}/issue",
    tag = "Factures",
    params(("id" = String, Path, description = "Identifiant de la facture ou de l'avoir")),
    responses(
        (status = 201, description = "Pièce émise", body = Created,
            links(("GetInvoice" = (operation_id = "get_invoice", parameters(("id" = "$response.body#/id")))), ("SendInvoice" = (operation_id = "send_invoice", parameters(("id" = "$response.body#/id")))), ("RecordPayment" = (operation_id = "record_invoice_payment", parameters(("id" = "$response.body#/id")))), ("CreateCreditNote" = (operation_id = "create_credit_note", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Facture introuvable dans l'agence", body = ErrorBody),
        (status = 422, description = "Transition refusée par le statut, avoir dépassant le reste à créditer, ou SIRET, adresse de l'agence ou, pour une pièce qui facture de la TVA, numéro de TVA intracommunautaire non renseignés (aucun numéro n'est pris)", body = ErrorBody),
    )
)]
async fn issue_invoice(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<InvoiceId>,
) -> AppResult<(StatusCode, Json<Created>)> {
    invoice_issue(&state, &caller, &id).await.map(answer)
}

/// Envoie la pièce au client (`emise` → `envoyee`) ; une pièce déjà envoyée
/// peut l'être de nouveau (relance, statut inchangé). Avec `contactIds`, la
/// pièce part par e-mail, son PDF joint, aux contacts choisis du client,
/// depuis l'adresse de l'agence : le message est écrit dans la même
/// transaction que le changement de statut, essayé aussitôt (`mail` dans la
/// réponse), puis de nouveau en cas d'échec. Sans corps ni contacts, l'envoi
/// est fait par un autre moyen : seul le statut change.
#[utoipa::path(
    post,
    path = "/invoices/{id}/send",
    tag = "Factures",
    params(("id" = String, Path, description = "Identifiant de la facture ou de l'avoir")),
    request_body = Option<SendBody>,
    responses(
        (status = 201, description = "Pièce envoyée (et message écrit, après son premier essai)", body = SentDocument,
            links(("GetInvoice" = (operation_id = "get_invoice", parameters(("id" = "$response.body#/id")))), ("RecordPayment" = (operation_id = "record_invoice_payment", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Facture introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Transition refusée par le statut ; contact d'un autre client ou sans adresse ; adresse e-mail de l'agence ou serveur d'envoi non réglés", body = ErrorBody),
    )
)]
async fn send_invoice(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<InvoiceId>,
    OptionalJson(body): OptionalJson<SendBody>,
) -> AppResult<(StatusCode, Json<SentDocument>)> {
    mail::invoice_send(&state, &caller, &id, body)
        .await
        .map(|sent| (StatusCode::CREATED, Json(sent)))
}

/// Les messages de la pièce envoyés par e-mail, du plus récent au plus
/// ancien, avec leur statut (`en_attente`, `envoye`, `echec`, `abandonne`).
#[utoipa::path(
    get,
    path = "/invoices/{id}/mails",
    tag = "Factures",
    params(("id" = String, Path, description = "Identifiant de la facture ou de l'avoir")),
    responses(
        (status = 200, description = "Messages de la pièce", body = Vec<MailWire>),
        (status = 404, description = "Facture introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn list_invoice_mails(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<InvoiceId>,
) -> AppResult<Json<Vec<MailWire>>> {
    mail::mails(&state, &caller, MailObject::Invoice(id))
        .await
        .map(Json)
}

/// Enregistre un règlement, complet ou partiel (pour un avoir : un
/// remboursement). Le corps et chacun de ses champs sont facultatifs : sans
/// `amount`, tout le reste à payer (total TTC − avoirs émis − règlements déjà
/// reçus) est réglé. La pièce passe à `payee` quand il ne reste rien à payer,
/// `paidOn` prenant le jour du dernier règlement ; un règlement partiel la
/// laisse à son statut. Le reste à payer et les règlements se lisent dans
/// `GET /invoices/{id}` (`balance`, `payments`).
#[utoipa::path(
    post,
    path = "/invoices/{id}/payment",
    tag = "Factures",
    params(("id" = String, Path, description = "Identifiant de la facture ou de l'avoir")),
    request_body = Option<PaymentBody>,
    responses(
        (status = 201, description = "Règlement enregistré", body = Created,
            links(("GetInvoice" = (operation_id = "get_invoice", parameters(("id" = "$response.body#/id")))), ("CreateCreditNote" = (operation_id = "create_credit_note", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Facture introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Règlement refusé : brouillon ou pièce soldée, montant au-delà du reste à payer (le message le donne), date, mode ou référence invalide", body = ErrorBody),
    )
)]
async fn record_invoice_payment(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<InvoiceId>,
    OptionalJson(body): OptionalJson<PaymentBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    invoice_payment(&state, &caller, &id, body)
        .await
        .map(answer)
}

/// Établit un avoir sur une facture émise, pour tout ce qui reste à créditer
/// ou pour les lignes données, et l'émet aussitôt avec son numéro
/// `AV-AAAA-NNNNNN`. Réservé aux administrateurs. La réponse porte l'avoir.
#[utoipa::path(
    post,
    path = "/invoices/{id}/credit-notes",
    tag = "Factures",
    params(("id" = String, Path, description = "Identifiant de la facture à créditer")),
    request_body = Option<CreditNoteBody>,
    responses(
        (status = 201, description = "Avoir créé et émis", body = Created,
            links(("GetInvoice" = (operation_id = "get_invoice", parameters(("id" = "$response.body#/id")))), ("SendInvoice" = (operation_id = "send_invoice", parameters(("id" = "$response.body#/id")))), ("RecordPayment" = (operation_id = "record_invoice_payment", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Facture introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Avoir refusé : facture brouillon, avoir, déjà entièrement créditée, montant au-delà du reste, ligne invalide, ou SIRET, adresse de l'agence ou, pour une pièce qui facture de la TVA, numéro de TVA intracommunautaire non renseignés", body = ErrorBody),
    )
)]
async fn create_credit_note(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<InvoiceId>,
    OptionalJson(body): OptionalJson<CreditNoteBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    credit_note_create(&state, &caller, &id, body)
        .await
        .map(answer)
}

/// Modifie une facture en brouillon : seuls les champs donnés changent
/// (`clientId` : le client facturé, l'acheteur le suit ; `lines` : toutes les
/// lignes, totaux recalculés). Une pièce émise est figée (409) ; un avoir ne
/// se modifie pas (409).
#[utoipa::path(
    patch,
    path = "/invoices/{id}",
    tag = "Factures",
    params(("id" = String, Path, description = "Identifiant de la facture")),
    request_body = InvoiceDraftBody,
    responses(
        (status = 200, description = "Brouillon modifié", body = Created,
            links(("GetInvoice" = (operation_id = "get_invoice", parameters(("id" = "$response.body#/id")))), ("IssueInvoice" = (operation_id = "issue_invoice", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Facture introuvable dans l'agence", body = ErrorBody),
        (status = 409, description = "Pièce émise (figée) ou avoir", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Rien à modifier, client hors de l'agence ou archivé, ligne invalide", body = ErrorBody),
    )
)]
async fn update_invoice(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<InvoiceId>,
    ApiJson(body): ApiJson<InvoiceDraftBody>,
) -> AppResult<Json<Created>> {
    invoice_update(&state, &caller, &id, body).await.map(Json)
}
