//! `/api/v2/webhooks…`: subscriptions to the agency's events, their
//! deliveries, and the state of the sync task that sends them.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::ApiJson;
use crate::api::wire::{Page, PageQuery, Paging};
use crate::auth::api_token::ApiCaller;
use crate::clock;
use crate::error::{ApiError, AppError, AppResult, ErrorBody};
use crate::services::webhooks::{self as service, NOT_FOUND, NewSubscriptionInput};
use crate::state::AppState;
use crate::store::webhooks::{self as store, DeliveryRow, SubscriptionRow};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_subscription, list_subscriptions))
        .routes(routes!(sync_status))
        .routes(routes!(send_test))
        .routes(routes!(list_deliveries))
        .routes(routes!(revoke_subscription))
}

/// Un événement auquel s'abonner.
#[derive(Serialize, ToSchema)]
#[allow(dead_code)] // Only its schema is used: the values are checked by the service.
pub enum WebhookEvent {
    /// Un appel de panne passe `resolue`.
    #[serde(rename = "appel.clos")]
    AppelClos,
    /// Un technicien soumet un relevé.
    #[serde(rename = "releve.termine")]
    ReleveTermine,
    /// Un devis est accepté.
    #[serde(rename = "devis.accepte")]
    DevisAccepte,
}

/// Un abonnement aux événements de l'agence.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SubscriptionBody {
    /// Adresse https qui reçoit les événements (http:// seulement sur une adresse locale, serveur lancé avec `--insecure-webhooks`).
    #[schema(min_length = 1, max_length = 2000)]
    pub url: String,
    /// Événements voulus, au moins un.
    #[schema(value_type = Vec<WebhookEvent>, min_items = 1)]
    pub events: Vec<String>,
}

/// L'abonnement créé et son secret de signature, montré cette fois seulement.
#[derive(Debug, Serialize, ToSchema)]
pub struct Subscribed {
    pub id: String,
    /// Secret de signature (`whsec_` + 32 caractères) : il ne sera plus jamais affiché.
    pub secret: String,
    /// Toujours `true`.
    pub ok: bool,
}

/// S'abonner aux événements de l'agence (administrateur).
///
/// Chaque événement est envoyé en POST, signé par l'en-tête
/// `X-Service-Signature: t=<secondes>,v1=<HMAC-SHA256 hexadécimal de
/// "<secondes>.<corps>">` calculé avec le secret, et identifié par
/// `X-Service-Livraison`.
#[utoipa::path(
    post,
    path = "/webhooks",
    tag = "Webhooks",
    request_body = SubscriptionBody,
    responses(
        (status = 201, description = "Abonnement créé ; le secret n'est montré qu'ici", body = Subscribed,
            links(
                ("SendTest" = (operation_id = "send_test", parameters(("id" = "$response.body#/id")))),
                ("ListDeliveries" = (operation_id = "list_deliveries", parameters(("id" = "$response.body#/id")))),
                ("RevokeSubscription" = (operation_id = "revoke_subscription", parameters(("id" = "$response.body#/id")))),
            )),
        (status = 403, description = "Réservé à un administrateur, ou agence hors du périmètre", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Adresse refusée (pas https, pas absolue) ou événement inconnu", body = ErrorBody),
    )
)]
async fn create_subscription(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiJson(body): ApiJson<SubscriptionBody>,
) -> AppResult<(StatusCode, Json<Subscribed>)> {
    let subscribed = subscription_create(&state, &caller, body).await?;
    Ok((StatusCode::CREATED, Json(subscribed)))
}

/// Subscribes an address to events of the acting agency (administrator).
pub async fn subscription_create(
    state: &AppState,
    caller: &ApiCaller,
    body: SubscriptionBody,
) -> AppResult<Subscribed> {
    let agency_id = caller.require_agency()?.id.clone();
    service::require_admin(&caller.account, "Créer un abonnement webhook")?;
    let account_id = caller.account.id.clone();
    let actor = caller.actor.clone();
    let sync = state.webhooks.clone();
    let subscribed = state
        .store
        .write(move |tx| {
            service::subscribe(
                tx,
                &sync,
                &NewSubscriptionInput {
                    agency_id: &agency_id,
                    account_id: Some(&account_id),
                    url: &body.url,
                    events: &body.events,
                },
                &actor,
            )
        })
        .await?;
    Ok(Subscribed {
        id: subscribed.id,
        secret: subscribed.secret,
        ok: true,
    })
}

/// Un abonnement actif (son secret n'est jamais relu).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionWire {
    pub id: String,
    pub url: String,
    #[schema(value_type = Vec<WebhookEvent>)]
    pub events: Vec<String>,
    /// Création, horodatage UTC ISO 8601.
    pub created_at: String,
}

impl From<SubscriptionRow> for SubscriptionWire {
    fn from(row: SubscriptionRow) -> Self {
        Self {
            id: row.id,
            url: row.url,
            events: row.events,
            created_at: row.created_at,
        }
    }
}

/// Les abonnements actifs de l'agence, du plus ancien au plus récent.
#[utoipa::path(
    get,
    path = "/webhooks",
    tag = "Webhooks",
    responses((status = 200, description = "Abonnements actifs", body = Vec<SubscriptionWire>))
)]
async fn list_subscriptions(
    State(state): State<AppState>,
    caller: ApiCaller,
) -> AppResult<Json<Vec<SubscriptionWire>>> {
    Ok(Json(subscription_list(&state, &caller).await?))
}

/// The live subscriptions of the acting agency, oldest first.
pub async fn subscription_list(
    state: &AppState,
    caller: &ApiCaller,
) -> AppResult<Vec<SubscriptionWire>> {
    let agency_id = caller.require_agency()?.id.clone();
    let rows = state
        .store
        .read(move |conn| store::live_subscriptions(conn, &agency_id))
        .await?;
    Ok(rows.into_iter().map(SubscriptionWire::from).collect())
}

/// Statut d'une livraison.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)] // Only its schema is used: rows carry the stored code.
pub enum DeliveryStatus {
    /// En file, jamais essayée.
    EnAttente,
    /// Le destinataire a répondu 2xx.
    Livree,
    /// Le dernier essai a échoué ; un nouvel essai est prévu.
    Echec,
    /// Essais épuisés, ou abonnement révoqué.
    Abandonnee,
}

/// Une livraison : un événement pour un abonnement.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryWire {
    /// Identifiant de la livraison : l'en-tête `X-Service-Livraison`, le même à chaque essai.
    pub id: String,
    /// `appel.clos`, `releve.termine`, `devis.accepte` ou `ping`.
    pub event: String,
    /// L'objet concerné (appel, relevé, devis ; l'abonnement pour `ping`).
    pub object_id: String,
    /// `en_attente` (jamais essayée), `livree`, `echec` (nouvel essai prévu) ou `abandonnee`.
    #[schema(value_type = DeliveryStatus)]
    pub status: String,
    /// Essais faits.
    pub attempts: i64,
    /// Statut HTTP de la dernière réponse du destinataire.
    #[schema(required = true)]
    pub last_http_status: Option<i64>,
    /// La dernière erreur, en français.
    #[schema(required = true)]
    pub last_error: Option<String>,
    /// Prochain essai (UTC), null si livrée ou abandonnée.
    #[schema(required = true)]
    pub next_attempt_at: Option<String>,
    /// L'instant de l'événement (`occurredAt` du corps envoyé).
    pub occurred_at: String,
    pub created_at: String,
    pub updated_at: String,
    #[schema(required = true)]
    pub delivered_at: Option<String>,
}

impl From<DeliveryRow> for DeliveryWire {
    fn from(row: DeliveryRow) -> Self {
        Self {
            id: row.id,
            event: row.event,
            object_id: row.object_id,
            status: row.status,
            attempts: row.attempts,
            last_http_status: row.last_http_status,
            last_error: row.last_error,
            next_attempt_at: row.next_attempt_at,
            occurred_at: row.occurred_at,
            created_at: row.created_at,
            updated_at: row.updated_at,
            delivered_at: row.delivered_at,
        }
    }
}

/// L'envoi de test et son résultat.
#[derive(Debug, Serialize, ToSchema)]
pub struct TestSent {
    /// Toujours `true` : le `ping` est en file ; son résultat est dans `delivery`.
    pub ok: bool,
    pub delivery: DeliveryWire,
}

/// Envoie tout de suite un événement `ping` à l'adresse abonnée (administrateur).
///
/// Corps envoyé : `{"event":"ping","id":<abonnement>,"agency":<agence>,"equipment":null,"status":"actif","occurredAt":…}`,
/// signé comme tout événement. La réponse donne le résultat du premier essai ;
/// en cas d'échec, la livraison est réessayée selon le calendrier habituel.
/// Hors ligne, elle attend le retour du réseau.
#[utoipa::path(
    post,
    path = "/webhooks/{id}/test",
    tag = "Webhooks",
    params(("id" = String, Path, description = "Identifiant de l'abonnement")),
    responses(
        (status = 201, description = "Ping mis en file et essayé", body = TestSent),
        (status = 403, description = "Réservé à un administrateur", body = ErrorBody),
        (status = 404, description = "Abonnement introuvable (ou révoqué) dans l'agence", body = ErrorBody),
    )
)]
async fn send_test(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<(StatusCode, Json<TestSent>)> {
    let sent = test_send(&state, &caller, id).await?;
    Ok((StatusCode::CREATED, Json(sent)))
}

/// Queues a `ping` to the subscription `id` and makes its first attempt now
/// (administrator).
pub async fn test_send(state: &AppState, caller: &ApiCaller, id: String) -> AppResult<TestSent> {
    let agency_id = caller.require_agency()?.id.clone();
    service::require_admin(&caller.account, "Envoyer un test")?;
    let actor = caller.actor.clone();
    let delivery_id = state
        .store
        .write(move |tx| service::queue_ping(tx, &agency_id, &id, &actor))
        .await?;
    state.webhooks.deliver_now(&delivery_id).await?;
    let row = state
        .store
        .read(move |conn| store::get_delivery(conn, &delivery_id))
        .await?
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("livraison de test disparue")))?;
    Ok(TestSent {
        ok: true,
        delivery: row.into(),
    })
}

/// Les dernières livraisons de l'abonnement, des plus récentes aux plus anciennes.
///
/// Restent lisibles après révocation de l'abonnement (historique).
#[utoipa::path(
    get,
    path = "/webhooks/{id}/deliveries",
    tag = "Webhooks",
    params(("id" = String, Path, description = "Identifiant de l'abonnement"), PageQuery),
    responses(
        (status = 200, description = "Livraisons, paginées", body = Page<DeliveryWire>),
        (status = 404, description = "Abonnement introuvable dans l'agence", body = ErrorBody),
        (status = 422, description = "`limit` ou `page` hors limites", body = ErrorBody),
    )
)]
async fn list_deliveries(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
    ApiQuery(query): ApiQuery<PageQuery>,
) -> AppResult<Page<DeliveryWire>> {
    delivery_list(&state, &caller, id, &query).await
}

/// The deliveries of the subscription `id` of the acting agency (revoked
/// ones included), newest first, paged.
pub async fn delivery_list(
    state: &AppState,
    caller: &ApiCaller,
    id: String,
    query: &PageQuery,
) -> AppResult<Page<DeliveryWire>> {
    let agency_id = caller.require_agency()?.id.clone();
    let paging = Paging::from_query(query)?;
    let (total, rows) = state
        .store
        .read(move |conn| -> AppResult<_> {
            store::get_subscription(conn, &agency_id, &id)?
                .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
            Ok(store::list_deliveries(
                conn,
                &id,
                paging.limit,
                paging.offset(),
            )?)
        })
        .await?;
    Ok(Page {
        total,
        page: paging.page,
        limit: paging.limit,
        results: rows.into_iter().map(DeliveryWire::from).collect(),
    })
}

/// L'abonnement révoqué.
#[derive(Debug, Serialize, ToSchema)]
pub struct Revoked {
    pub id: String,
    /// Toujours `true`.
    pub ok: bool,
    /// Livraisons en attente abandonnées par la révocation.
    pub abandoned: usize,
}

/// Supprime l'abonnement (administrateur) : plus rien ne lui est envoyé, ses
/// livraisons en attente sont abandonnées (statut `abandonnee`).
#[utoipa::path(
    post,
    path = "/webhooks/{id}/revoke",
    tag = "Webhooks",
    params(("id" = String, Path, description = "Identifiant de l'abonnement")),
    responses(
        (status = 200, description = "Abonnement révoqué", body = Revoked),
        (status = 403, description = "Réservé à un administrateur", body = ErrorBody),
        (status = 404, description = "Abonnement introuvable (ou déjà révoqué) dans l'agence", body = ErrorBody),
    )
)]
async fn revoke_subscription(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<Revoked>> {
    Ok(Json(subscription_revoke(&state, &caller, id).await?))
}

/// Revokes the subscription `id` of the acting agency (administrator); its
/// pending deliveries are abandoned.
pub async fn subscription_revoke(
    state: &AppState,
    caller: &ApiCaller,
    id: String,
) -> AppResult<Revoked> {
    let agency_id = caller.require_agency()?.id.clone();
    service::require_admin(&caller.account, "Révoquer un abonnement webhook")?;
    let actor = caller.actor.clone();
    let revoked_id = id.clone();
    let abandoned = state
        .store
        .write(move |tx| service::revoke(tx, &agency_id, &id, &actor))
        .await?;
    Ok(Revoked {
        id: revoked_id,
        ok: true,
        abandoned,
    })
}

/// L'état de l'envoi des webhooks.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SyncStatusWire {
    /// Le poste est-il en ligne (d'après la sonde de connectivité) ?
    pub online: bool,
    /// Dernière vérification (UTC), null si pas encore faite.
    #[schema(required = true)]
    pub checked_at: Option<String>,
    /// Livraisons de l'agence en attente d'envoi ou de nouvel essai.
    pub pending: i64,
    /// Prochain essai prévu pour l'agence (UTC), null s'il n'y a rien en attente.
    #[schema(required = true)]
    pub next_attempt_at: Option<String>,
}

/// L'état de l'envoi : en ligne ou non, livraisons en attente, prochain essai.
#[utoipa::path(
    get,
    path = "/webhooks/status",
    tag = "Webhooks",
    responses((status = 200, description = "État de l'envoi", body = SyncStatusWire))
)]
async fn sync_status(
    State(state): State<AppState>,
    caller: ApiCaller,
) -> AppResult<Json<SyncStatusWire>> {
    Ok(Json(status_read(&state, &caller).await?))
}

/// The sync task's state for the acting agency.
pub async fn status_read(state: &AppState, caller: &ApiCaller) -> AppResult<SyncStatusWire> {
    let agency_id = caller.require_agency()?.id.clone();
    let (pending, next_attempt_at) = state
        .store
        .read(move |conn| store::pending_summary(conn, Some(&agency_id)))
        .await?;
    let status = state.webhooks.status();
    Ok(SyncStatusWire {
        online: status.online,
        checked_at: status.checked_at.map(clock::format_timestamp),
        pending,
        next_attempt_at,
    })
}
