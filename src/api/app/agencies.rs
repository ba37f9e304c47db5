//! `/app/api/agencies…`: the « Agence › Agences » screen, the agencies of
//! the organization as their administrators manage them, through
//! `services::agencies`: the list, a new agency (with its identity when
//! given), a new name, archive and restore. An organization administrator
//! creates, archives and restores; an agency's own administrator renames
//! it.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, patch, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::api::app::agency::IdentityWire;
use crate::api::extract::ApiPath;
use crate::api::json::ApiJson;
use crate::auth::staff_session::StaffSession;
use crate::domain::id::AgencyId;
use crate::domain::identity::IdentityInput;
use crate::error::AppResult;
use crate::services::agencies::{self as service, AgencyEntry, Stopped};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/agencies", get(list).post(create))
        .route("/agencies/{id}", patch(rename))
        .route("/agencies/{id}/archive", post(archive))
        .route("/agencies/{id}/restore", post(restore))
}

/// Une agence de l'organisation.
#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AgencyEntryWire {
    id: String,
    name: String,
    /// Date et heure (UTC) de sa création.
    created_at: String,
    /// Date et heure (UTC) de son archivage ; absente tant qu'elle travaille.
    archived_at: Option<String>,
    /// Ce qui manque à son identité pour émettre une facture (`siret`, `address`).
    missing_to_issue: Vec<String>,
    /// C'est l'agence où la session agit.
    current: bool,
    /// La session peut la renommer.
    can_rename: bool,
    /// La session peut l'archiver ou la réactiver.
    can_archive: bool,
}

fn wire(entry: AgencyEntry, current: Option<&AgencyId>) -> AgencyEntryWire {
    let agency = entry.record.agency;
    AgencyEntryWire {
        current: current == Some(&agency.id),
        id: agency.id.to_string(),
        name: agency.name,
        created_at: entry.record.created_at,
        archived_at: entry.record.archived_at,
        missing_to_issue: entry
            .missing_to_issue
            .into_iter()
            .map(str::to_owned)
            .collect(),
        can_rename: entry.can_rename,
        can_archive: entry.can_archive,
    }
}

#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AgenciesAnswer {
    /// Les agences en activité d'abord, puis les archivées.
    agencies: Vec<AgencyEntryWire>,
    /// La session peut créer une agence.
    can_create: bool,
}

async fn list(
    State(state): State<AppState>,
    session: StaffSession,
) -> AppResult<Json<AgenciesAnswer>> {
    let current = session.require_agency()?.id.clone();
    let p = session.principal();
    let entries = service::list(&state.store, &p).await?;
    Ok(Json(AgenciesAnswer {
        can_create: service::can_create(&p),
        agencies: entries
            .into_iter()
            .map(|e| wire(e, Some(&current)))
            .collect(),
    }))
}

/// Une nouvelle agence, et son identité si elle est déjà connue.
#[derive(Deserialize, TS, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct NewAgencyBody {
    name: String,
    #[ts(as = "Option<IdentityWire>", optional)]
    identity: Option<IdentityInput>,
}

async fn create(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<NewAgencyBody>,
) -> AppResult<(StatusCode, Json<AgencyEntryWire>)> {
    let current = session.require_agency()?.id.clone();
    let entry = service::create(
        &state.store,
        &session.principal(),
        &body.name,
        body.identity,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(wire(entry, Some(&current)))))
}

/// Le nouveau nom de l'agence.
#[derive(Deserialize, TS, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RenameBody {
    name: String,
}

async fn rename(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<AgencyId>,
    ApiJson(body): ApiJson<RenameBody>,
) -> AppResult<Json<AgencyEntryWire>> {
    let current = session.require_agency()?.id.clone();
    let entry = service::rename(&state.store, &session.principal(), id, &body.name).await?;
    Ok(Json(wire(entry, Some(&current))))
}

/// Ce que l'archivage a arrêté.
#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StoppedWire {
    /// Clés de centre d'appels révoquées.
    call_center_keys: usize,
    /// Clés partenaires retirées de l'agence (révoquées si elles ne servaient qu'elle).
    partner_keys: usize,
    /// Abonnements webhook révoqués (leurs envois en attente abandonnés).
    webhook_subscriptions: usize,
}

#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ArchiveAnswer {
    agency: AgencyEntryWire,
    stopped: StoppedWire,
}

async fn archive(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<AgencyId>,
) -> AppResult<Json<ArchiveAnswer>> {
    let current = session.require_agency()?.id.clone();
    let (entry, stopped) = service::archive(&state.store, &session.principal(), id).await?;
    let Stopped {
        call_center_keys,
        partner_keys,
        webhook_subscriptions,
    } = stopped;
    Ok(Json(ArchiveAnswer {
        agency: wire(entry, Some(&current)),
        stopped: StoppedWire {
            call_center_keys,
            partner_keys,
            webhook_subscriptions,
        },
    }))
}

async fn restore(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<AgencyId>,
) -> AppResult<Json<AgencyEntryWire>> {
    let current = session.require_agency()?.id.clone();
    let entry = service::restore(&state.store, &session.principal(), id).await?;
    Ok(Json(wire(entry, Some(&current))))
}
