//! The JSON of `webhooks` shared by the REST API v2 (`api::v2::webhooks`, which keeps
//! only its handlers and their OpenAPI description), the MCP tools and the
//! web application: the bodies they accept, the records they answer with,
//! and the calls of the operations for a `Principal`, mapped to that JSON.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::api::wire::{Page, PageQuery, Paging};
use crate::clock;
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::webhooks::{self as service};
use crate::state::AppState;
use crate::store::webhooks::{DeliveryRow, SubscriptionRow};

/// The OpenAPI schema `WebhookEvent`: the codes of `domain::event::WebhookEvent`
/// (the values themselves are checked by the service).
pub struct WebhookEvent;

impl utoipa::PartialSchema for WebhookEvent {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some("Un événement auquel s'abonner."))
            .enum_values(Some(crate::domain::event::WebhookEvent::CODES))
            .into()
    }
}

impl ToSchema for WebhookEvent {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("WebhookEvent")
    }
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
#[derive(Debug, Serialize, ToSchema, TS)]
pub struct Subscribed {
    pub id: String,
    /// Secret de signature (`whsec_` + 32 caractères) : il ne sera plus jamais affiché.
    pub secret: String,
    /// Toujours `true`.
    pub ok: bool,
}

/// Subscribes an address to events of the acting agency (administrator).
pub async fn subscription_create(
    state: &AppState,
    caller: &Principal,
    body: SubscriptionBody,
) -> AppResult<Subscribed> {
    let subscribed =
        service::subscribe_for(&state.store, &state.webhooks, caller, body.url, body.events)
            .await?;
    Ok(Subscribed {
        id: subscribed.id,
        secret: subscribed.secret,
        ok: true,
    })
}

/// Un abonnement actif (son secret n'est jamais relu).
#[derive(Debug, Serialize, ToSchema, TS)]
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

/// The live subscriptions of the acting agency, oldest first.
pub async fn subscription_list(
    state: &AppState,
    caller: &Principal,
) -> AppResult<Vec<SubscriptionWire>> {
    let rows = service::subscriptions(&state.store, caller).await?;
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
#[derive(Debug, Serialize, ToSchema, TS)]
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
    #[ts(type = "DeliveryStatus")]
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
            status: row.status.as_str().to_owned(),
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
#[derive(Debug, Serialize, ToSchema, TS)]
pub struct TestSent {
    /// Toujours `true` : le `ping` est en file ; son résultat est dans `delivery`.
    pub ok: bool,
    pub delivery: DeliveryWire,
}

/// Queues a `ping` to the subscription `id` and makes its first attempt now
/// (administrator).
pub async fn test_send(state: &AppState, caller: &Principal, id: String) -> AppResult<TestSent> {
    let row = service::test_ping(&state.store, &state.webhooks, caller, &id).await?;
    Ok(TestSent {
        ok: true,
        delivery: row.into(),
    })
}

/// The deliveries of the subscription `id` of the acting agency (revoked
/// ones included), newest first, paged.
pub async fn delivery_list(
    state: &AppState,
    caller: &Principal,
    id: String,
    query: &PageQuery,
) -> AppResult<Page<DeliveryWire>> {
    caller.agency()?;
    let paging = Paging::from_query(query)?;
    let (total, rows) =
        service::deliveries(&state.store, caller, &id, paging.limit, paging.offset()).await?;
    Ok(Page {
        total,
        page: paging.page,
        limit: paging.limit,
        results: rows.into_iter().map(DeliveryWire::from).collect(),
    })
}

/// L'abonnement révoqué.
#[derive(Debug, Serialize, ToSchema, TS)]
#[ts(rename = "WebhookRevoked")]
pub struct Revoked {
    pub id: String,
    /// Toujours `true`.
    pub ok: bool,
    /// Livraisons en attente abandonnées par la révocation.
    pub abandoned: usize,
}

/// Revokes the subscription `id` of the acting agency (administrator); its
/// pending deliveries are abandoned.
pub async fn subscription_revoke(
    state: &AppState,
    caller: &Principal,
    id: String,
) -> AppResult<Revoked> {
    let abandoned = service::revoke_for(&state.store, caller, &id).await?;
    Ok(Revoked {
        id,
        ok: true,
        abandoned,
    })
}

/// L'état de l'envoi des webhooks.
#[derive(Debug, Serialize, ToSchema, TS)]
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

/// The sync task's state for the acting agency.
pub async fn status_read(state: &AppState, caller: &Principal) -> AppResult<SyncStatusWire> {
    let (pending, next_attempt_at) = service::pending(&state.store, caller).await?;
    let status = state.webhooks.status();
    Ok(SyncStatusWire {
        online: status.online,
        checked_at: status.checked_at.map(clock::format_timestamp),
        pending,
        next_attempt_at,
    })
}
