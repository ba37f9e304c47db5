//! `GET /app/api/search?q=`: the header's search field (`/` or Ctrl+K),
//! through `services::search::header`: lifts, clients, invoices and credit
//! notes, quotes and calls of the session's agency, a few of each, each with
//! the address of its page in the application. Every staff member.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::api::extract::ApiQuery;
use crate::auth::staff_session::StaffSession;
use crate::error::AppResult;
use crate::services::search as service;
use crate::state::AppState;
use crate::store::search::NumberHit;

pub fn router() -> Router<AppState> {
    Router::new().route("/search", get(search))
}

/// Un résultat : ce qu'il est, en clair, et l'adresse de sa page.
#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SearchHit {
    id: String,
    /// Le numéro, le nom ou la référence.
    title: String,
    /// L'adresse, le client, l'objet…
    subtitle: Option<String>,
    /// La page dans l'application (`/equipements/<id>`…).
    link: String,
}

/// Les résultats d'un genre.
#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SearchGroup {
    /// `equipment`, `clients`, `invoices`, `quotes`, `calls`.
    kind: String,
    label: String,
    hits: Vec<SearchHit>,
}

#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SearchAnswer {
    /// Les genres qui ont des résultats, dans cet ordre : équipements,
    /// clients, factures et avoirs, devis, appels.
    groups: Vec<SearchGroup>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct SearchQuery {
    q: Option<String>,
}

fn numbered(hits: Vec<NumberHit>, path: &str) -> Vec<SearchHit> {
    hits.into_iter()
        .map(|hit| SearchHit {
            link: format!("{path}/{}", hit.id),
            id: hit.id,
            title: hit.number,
            subtitle: hit.detail,
        })
        .collect()
}

async fn search(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<SearchQuery>,
) -> AppResult<Json<SearchAnswer>> {
    session.require_agency()?;
    let found = service::header(&state.store, &session.principal(), query.q.as_deref()).await?;
    let equipment = found
        .equipment
        .into_iter()
        .map(|e| SearchHit {
            link: format!("/equipements/{}", e.id),
            title: e
                .identity
                .number
                .clone()
                .unwrap_or_else(|| "Sans numéro".to_owned()),
            subtitle: e.building.map(|b| {
                [b.name, Some(b.address), b.postal_code, b.city]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join(", ")
            }),
            id: e.id.into_string(),
        })
        .collect();
    let clients = found
        .clients
        .into_iter()
        .map(|c| SearchHit {
            link: super::page_path("/clients", &c.client_ref),
            title: c.nom,
            subtitle: Some(match (&c.siren, c.supprime) {
                (Some(siren), false) => format!("{} · SIREN {siren}", c.client_ref),
                (Some(siren), true) => format!("{} · SIREN {siren} · archivé", c.client_ref),
                (None, false) => c.client_ref.clone(),
                (None, true) => format!("{} · archivé", c.client_ref),
            }),
            id: c.client_ref,
        })
        .collect();
    let groups = [
        ("equipment", "Équipements", equipment),
        ("clients", "Clients", clients),
        (
            "invoices",
            "Factures et avoirs",
            numbered(found.invoices, "/factures"),
        ),
        ("quotes", "Devis", numbered(found.quotes, "/devis")),
        ("calls", "Appels", numbered(found.calls, "/appels")),
    ]
    .into_iter()
    .filter(|(_, _, hits)| !hits.is_empty())
    .map(|(kind, label, hits)| SearchGroup {
        kind: kind.to_owned(),
        label: label.to_owned(),
        hits,
    })
    .collect();
    Ok(Json(SearchAnswer { groups }))
}
