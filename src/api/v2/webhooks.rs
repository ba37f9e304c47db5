//! `/api/v2/webhooks…`: subscriptions to the agency's events, their
//! deliveries, and the state of the sync task that sends them.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::ApiJson;
use crate::api::wire::webhooks::*;
use crate::api::wire::{Page, PageQuery};
use crate::auth::api_token::ApiCaller;
use crate::error::{AppResult, ErrorBody};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_subscription, list_subscriptions))
        .routes(routes!(sync_status))
        .routes(routes!(send_test))
        .routes(routes!(list_deliveries))
        .routes(routes!(revoke_subscription))
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
