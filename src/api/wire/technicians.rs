//! The JSON of `technicians` shared by the REST API v2 (`api::v2::technicians`, which keeps
//! only its handlers and their OpenAPI description), the MCP tools and the
//! web application: the bodies they accept, the records they answer with,
//! and the calls of the operations for a `Principal`, mapped to that JSON.

use rmcp::schemars;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::clock;
use crate::domain::id::TechnicianId;
use crate::error::AppResult;
use crate::principal::{Capability, Principal};
use crate::services::technicians::{self, self as tech_service, TechnicianStatus};
use crate::state::AppState;

// Exactly the spec's Technician table.
/// Un technicien de l'agence.
#[derive(Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct TechnicianView {
    /// Identifiant du technicien.
    pub id: String,
    /// Nom.
    #[schema(required = true)]
    pub name: Option<String>,
    /// Secteurs, séparés par des virgules.
    #[schema(required = true)]
    pub sectors: Option<String>,
    /// Appels en cours affectés au technicien (statuts `ouverte`, `en_route`, `sur_place`, `a_l_arret`).
    #[schema(minimum = 0)]
    pub open_calls: i64,
    /// D'astreinte en ce moment.
    pub on_call: bool,
    /// Dernier jour (AAAA-MM-JJ) de l'absence en cours ; null s'il n'est pas absent aujourd'hui.
    #[schema(required = true, format = Date)]
    pub absent_until: Option<String>,
    /// Fin du repos de sécurité après une astreinte (horodatage UTC ISO 8601, par exemple `2026-03-09T19:00:00.000Z`) ; null hors repos.
    #[schema(required = true, format = DateTime)]
    pub off_until: Option<String>,
}

impl From<TechnicianStatus> for TechnicianView {
    fn from(status: TechnicianStatus) -> Self {
        Self {
            id: status.id,
            name: Some(status.name),
            sectors: status.sectors,
            open_calls: status.open_calls,
            on_call: status.on_call,
            absent_until: status.absent_until.map(crate::domain::day::iso),
            off_until: status.off_until.map(clock::format_timestamp),
        }
    }
}

/// The acting agency's technicians (shared with the MCP tool `techniciens`).
pub async fn technician_list(
    state: &AppState,
    caller: &Principal,
) -> AppResult<Vec<TechnicianView>> {
    let agency_id = caller.agency()?.id.clone();
    let now = state.now();
    let today = clock::paris_local(now).date();
    let roster = technicians::roster_cached(&state.store, &agency_id, now, today).await?;
    Ok(roster.into_iter().map(TechnicianView::from).collect())
}

// -- The technicians' records, as their administrators manage them ---------

/// La fiche d'un technicien, telle que l'écran la modifie.
#[derive(Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TechnicianRecordWire {
    pub id: String,
    pub name: String,
    pub phone: Option<String>,
    pub sectors: Vec<String>,
    /// Visites par jour au plus (propositions du planning).
    pub daily_capacity: i64,
    /// Repos de sécurité après une astreinte, en heures.
    pub rest_hours: i64,
    /// Au planning, aux propositions et aux astreintes.
    pub active: bool,
    /// Le compte du personnel qu'il est, s'il en a un.
    pub account_id: Option<String>,
}

impl From<crate::store::technicians::TechnicianRow> for TechnicianRecordWire {
    fn from(row: crate::store::technicians::TechnicianRow) -> Self {
        Self {
            id: row.id.to_string(),
            name: row.name,
            phone: row.phone,
            // As typed (the planning's matching folds them itself).
            sectors: row
                .sectors
                .as_deref()
                .unwrap_or_default()
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect(),
            daily_capacity: row.daily_capacity,
            rest_hours: row.rest_hours,
            active: row.active,
            account_id: row.account_id.map(|id| id.to_string()),
        }
    }
}

#[derive(Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TechnicianRecords {
    pub technicians: Vec<TechnicianRecordWire>,
    /// La session peut ajouter, modifier et retirer des techniciens.
    pub can_edit: bool,
}

/// Un nouveau technicien.
#[derive(Deserialize, ToSchema, TS, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewTechnicianBody {
    pub name: Option<String>,
    pub phone: Option<String>,
    #[serde(default)]
    pub sectors: Vec<String>,
    pub daily_capacity: Option<i64>,
}

/// Ce qui change d'un technicien : seuls les champs donnés ; `phone` vide
/// l'efface.
#[derive(Deserialize, ToSchema, TS, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EditTechnicianBody {
    pub name: Option<String>,
    pub phone: Option<String>,
    pub sectors: Option<Vec<String>>,
    pub daily_capacity: Option<i64>,
    pub rest_hours: Option<i64>,
}

/// The agency's technicians, active or not, as their administrators manage
/// them.
pub async fn technician_records(state: &AppState, p: &Principal) -> AppResult<TechnicianRecords> {
    let rows = tech_service::records(&state.store, p).await?;
    Ok(TechnicianRecords {
        technicians: rows.into_iter().map(Into::into).collect(),
        can_edit: p.can(Capability::Administer("")),
    })
}

/// One technician of the agency, active or not.
pub async fn technician_record(
    state: &AppState,
    p: &Principal,
    id: &TechnicianId,
) -> AppResult<TechnicianRecordWire> {
    Ok(tech_service::record(&state.store, p, id).await?.into())
}

/// A new technician of the agency (administrators).
pub async fn technician_create(
    state: &AppState,
    p: &Principal,
    body: NewTechnicianBody,
) -> AppResult<TechnicianRecordWire> {
    let input = crate::domain::technician::TechnicianInput {
        name: body.name,
        phone: body.phone,
        sectors: body.sectors,
        daily_capacity: body.daily_capacity,
    };
    let id = tech_service::create(&state.store, p, input).await?;
    technician_record(state, p, &id).await
}

/// Changes the fields given of a technician (administrators).
pub async fn technician_edit(
    state: &AppState,
    p: &Principal,
    id: &TechnicianId,
    body: EditTechnicianBody,
) -> AppResult<TechnicianRecordWire> {
    let change = tech_service::TechnicianEdit {
        record: crate::domain::technician::TechnicianPatch {
            name: body.name,
            phone: body
                .phone
                .map(|phone| Some(phone).filter(|p| !p.trim().is_empty())),
            sectors: body.sectors,
            daily_capacity: body.daily_capacity,
        },
        rest_hours: body.rest_hours,
    };
    tech_service::edit(&state.store, p, id, change).await?;
    technician_record(state, p, id).await
}

/// Takes a technician off the planning (`false`) or puts him back (`true`).
pub async fn technician_set_active(
    state: &AppState,
    p: &Principal,
    id: &TechnicianId,
    active: bool,
) -> AppResult<TechnicianRecordWire> {
    tech_service::set_active(&state.store, p, id, active).await?;
    technician_record(state, p, id).await
}
