//! Webhook subscriptions: who may subscribe, which addresses and events are
//! accepted, the secret shown once, the test `ping`, and revocation.

use crate::domain::id::{AccountId, AgencyId};
use serde_json::json;

use crate::auth::secret;
use std::sync::Arc;

use crate::principal::{Capability, Principal};
use crate::store::{Store, Tx};

use crate::error::{AppError, AppResult};
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::webhooks::{self as store, DeliveryRow, NewSubscription, SubscriptionRow};
use crate::store::{new_id, outbox};
use crate::webhooks::{EVENTS, WebhookSync, sender, signing};

/// Longest receiver address accepted.
pub const MAX_URL_CHARS: usize = 2000;

pub const NOT_FOUND: &str = "Abonnement webhook introuvable.";

/// An absolute `https://` address; `http://` only on a loopback address and
/// only when the server runs with `--insecure-webhooks`.
pub fn check_url(raw: &str, insecure_loopback: bool) -> AppResult<String> {
    let text = raw.trim();
    if text.is_empty() {
        return Err(AppError::unprocessable(
            "Le champ « url » est obligatoire : l'adresse https qui reçoit les événements.",
        ));
    }
    if text.chars().count() > MAX_URL_CHARS {
        return Err(AppError::unprocessable(format!(
            "L'adresse « url » dépasse {MAX_URL_CHARS} caractères."
        )));
    }
    let not_absolute = || {
        AppError::unprocessable(format!(
            "L'adresse « {text} » n'est pas une adresse absolue (https://hôte/chemin)."
        ))
    };
    let url = reqwest::Url::parse(text).map_err(|_| not_absolute())?;
    if url.host_str().is_none_or(str::is_empty) {
        return Err(not_absolute());
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(AppError::unprocessable(
            "L'adresse ne doit pas contenir d'identifiants (utilisateur:mot de passe@) : la signature authentifie les envois.",
        ));
    }
    if url.fragment().is_some() {
        return Err(AppError::unprocessable(
            "L'adresse ne doit pas contenir de fragment (#…).",
        ));
    }
    match url.scheme() {
        "https" => {}
        "http" if insecure_loopback && sender::is_loopback(&url) => {}
        "http" if sender::is_loopback(&url) => {
            return Err(AppError::unprocessable(
                "Une adresse http:// locale n'est acceptée que si le serveur est lancé avec --insecure-webhooks (ou LIFTDESK_INSECURE_WEBHOOKS=1) ; sinon l'adresse doit commencer par https://.",
            ));
        }
        _ => {
            return Err(AppError::unprocessable(
                "L'adresse doit commencer par https:// : les événements ne sont envoyés qu'en HTTPS.",
            ));
        }
    }
    Ok(url.to_string())
}

/// A non-empty subset of the events, each once, in the catalog's order.
pub fn check_events(events: &[String]) -> AppResult<Vec<String>> {
    if events.is_empty() {
        return Err(AppError::unprocessable(format!(
            "Le champ « events » doit contenir au moins un événement parmi : {}.",
            EVENTS.join(", ")
        )));
    }
    if let Some(unknown) = events.iter().find(|e| !EVENTS.contains(&e.as_str())) {
        return Err(AppError::unprocessable(format!(
            "Événement inconnu : « {unknown} ». Valeurs possibles : {}.",
            EVENTS.join(", ")
        )));
    }
    Ok(EVENTS
        .iter()
        .filter(|known| events.iter().any(|e| e == *known))
        .map(|e| (*e).to_owned())
        .collect())
}

pub struct NewSubscriptionInput<'a> {
    pub agency_id: &'a str,
    pub account_id: Option<&'a AccountId>,
    pub url: &'a str,
    pub events: &'a [String],
}

/// The new subscription's id and its signing secret (shown once).
#[derive(Debug, Clone)]
pub struct Subscribed {
    pub id: String,
    pub secret: String,
}

/// Creates a subscription; the secret is stored sealed (see `secret_box`).
pub fn subscribe(
    tx: &Tx,
    sync: &WebhookSync,
    input: &NewSubscriptionInput<'_>,
    actor: &Actor,
) -> AppResult<Subscribed> {
    let url = check_url(input.url, sync.settings().insecure_loopback)?;
    let events = check_events(input.events)?;
    let id = new_id();
    let secret_text = secret::generate(signing::SECRET_PREFIX)?;
    let sealed = sync.seal_secret(&id, &secret_text)?;
    let now = tx.now_text();
    store::insert_subscription(
        tx,
        &NewSubscription {
            id: &id,
            agency_id: input.agency_id,
            url: &url,
            events: &events,
            secret_enc: &sealed,
            created_by: input.account_id,
            created_at: &now,
        },
    )?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(input.agency_id),
            actor,
            action: "creation",
            object_type: "webhook_subscription",
            object_id: Some(&id),
            detail: Some(json!({ "url": url, "events": events })),
        },
    )?;
    Ok(Subscribed {
        id,
        secret: secret_text,
    })
}

/// A live subscription of the agency, else 404.
pub fn live(
    conn: &crate::store::Conn,
    agency_id: &AgencyId,
    id: &str,
) -> AppResult<SubscriptionRow> {
    store::get_subscription(conn, agency_id, id)?
        .filter(|sub| sub.revoked_at.is_none())
        .ok_or_else(|| AppError::not_found(NOT_FOUND))
}

/// Queues a `ping` for the subscription; returns the delivery's id.
pub fn queue_ping(tx: &Tx, agency_id: &AgencyId, id: &str, actor: &Actor) -> AppResult<String> {
    live(tx, agency_id, id)?;
    let delivery_id = outbox::record_ping(tx, agency_id, id, tx.now())?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor,
            action: "test",
            object_type: "webhook_subscription",
            object_id: Some(id),
            detail: Some(json!({ "delivery": delivery_id })),
        },
    )?;
    Ok(delivery_id)
}

/// Revokes the subscription; its pending deliveries are abandoned. Returns
/// how many.
pub fn revoke(tx: &Tx, agency_id: &AgencyId, id: &str, actor: &Actor) -> AppResult<usize> {
    let abandoned = store::revoke_subscription(tx, agency_id, id, &tx.now_text())?
        .ok_or_else(|| AppError::not_found(NOT_FOUND))?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor,
            action: "revocation",
            object_type: "webhook_subscription",
            object_id: Some(id),
            detail: Some(json!({ "abandonedDeliveries": abandoned })),
        },
    )?;
    Ok(abandoned)
}

// -- Operations for a principal ---------------------------------------------
//
// Reading is open to every account of the agency; subscribing, testing and
// revoking are an administrator's.

/// Subscribes `url` to `events` of the principal's agency; the secret is in
/// the answer only.
pub async fn subscribe_for(
    store: &Store,
    sync: &Arc<WebhookSync>,
    p: &Principal,
    url: String,
    events: Vec<String>,
) -> AppResult<Subscribed> {
    let agency_id = p.agency_id()?.to_owned();
    p.require(Capability::Administer("Créer un abonnement webhook"))?;
    let (account_id, actor, sync) = (p.account()?.id.clone(), p.actor.clone(), Arc::clone(sync));
    store
        .write(move |tx| {
            subscribe(
                tx,
                &sync,
                &NewSubscriptionInput {
                    agency_id: agency_id.as_str(),
                    account_id: Some(&account_id),
                    url: &url,
                    events: &events,
                },
                &actor,
            )
        })
        .await
}

/// The live subscriptions of the principal's agency, oldest first.
pub async fn subscriptions(store: &Store, p: &Principal) -> AppResult<Vec<SubscriptionRow>> {
    let agency_id = p.agency_id()?.to_owned();
    Ok(store
        .read(move |conn| store::live_subscriptions(conn, &agency_id))
        .await?)
}

/// Queues a `ping` to the subscription `id` of the principal's agency and
/// makes its first attempt now; answers the delivery as it then stands.
pub async fn test_ping(
    store: &Store,
    sync: &Arc<WebhookSync>,
    p: &Principal,
    id: &str,
) -> AppResult<DeliveryRow> {
    let agency_id = p.agency_id()?.to_owned();
    p.require(Capability::Administer("Envoyer un test"))?;
    let (actor, id) = (p.actor.clone(), id.to_owned());
    let delivery_id = store
        .write(move |tx| queue_ping(tx, &agency_id, &id, &actor))
        .await?;
    sync.deliver_now(&delivery_id).await?;
    store
        .read(move |conn| store::get_delivery(conn, &delivery_id))
        .await?
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("livraison de test disparue")))
}

/// One page of the deliveries of the subscription `id` of the principal's
/// agency (404 otherwise), newest first, and their total.
pub async fn deliveries(
    store: &Store,
    p: &Principal,
    id: &str,
    limit: u32,
    offset: u64,
) -> AppResult<(i64, Vec<DeliveryRow>)> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), id.to_owned());
    store
        .read(move |conn| -> AppResult<_> {
            store::get_subscription(conn, &agency_id, &id)?
                .ok_or_else(|| AppError::not_found(NOT_FOUND))?;
            Ok(store::list_deliveries(conn, &id, limit, offset)?)
        })
        .await
}

/// Revokes the subscription `id` of the principal's agency; answers how
/// many pending deliveries were abandoned.
pub async fn revoke_for(store: &Store, p: &Principal, id: &str) -> AppResult<usize> {
    let agency_id = p.agency_id()?.to_owned();
    p.require(Capability::Administer("Révoquer un abonnement webhook"))?;
    let (actor, id) = (p.actor.clone(), id.to_owned());
    store
        .write(move |tx| revoke(tx, &agency_id, &id, &actor))
        .await
}

/// How many deliveries of the principal's agency wait, and the next attempt.
pub async fn pending(store: &Store, p: &Principal) -> AppResult<(i64, Option<String>)> {
    let agency_id = p.agency_id()?.to_owned();
    Ok(store
        .read(move |conn| store::pending_summary(conn, Some(agency_id.as_str())))
        .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url_status(raw: &str, insecure: bool) -> Result<String, u16> {
        check_url(raw, insecure).map_err(|e| e.status().as_u16())
    }

    #[test]
    fn only_https_or_an_allowed_loopback_http() {
        assert_eq!(
            url_status("https://hooks.example.org/liftdesk", false),
            Ok("https://hooks.example.org/liftdesk".to_owned())
        );
        assert_eq!(url_status("http://hooks.example.org/", false), Err(422));
        assert_eq!(url_status("http://hooks.example.org/", true), Err(422));
        assert_eq!(url_status("http://127.0.0.1:9000/h", false), Err(422));
        assert_eq!(
            url_status("http://127.0.0.1:9000/h", true),
            Ok("http://127.0.0.1:9000/h".to_owned())
        );
        for bad in [
            "",
            "  ",
            "/relative",
            "hooks.example.org",
            "ftp://x.org/",
            "https://u:p@x.org/",
            "https://x.org/#f",
        ] {
            assert_eq!(url_status(bad, true), Err(422), "{bad:?}");
        }
    }

    #[test]
    fn events_are_a_nonempty_known_subset() {
        let list = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            check_events(&list(&["devis.accepte", "appel.clos", "appel.clos"])).ok(),
            Some(list(&["appel.clos", "devis.accepte"]))
        );
        assert!(check_events(&[]).is_err());
        assert!(check_events(&list(&["ping"])).is_err());
        assert!(check_events(&list(&["appel.ouvert"])).is_err());
    }
}
