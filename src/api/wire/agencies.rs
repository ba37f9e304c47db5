//! The JSON of `agencies` shared by the REST API v2 (`api::v2::agencies`, which keeps
//! only its handlers and their OpenAPI description), the MCP tools and the
//! web application: the bodies they accept, the records they answer with,
//! and the calls of the operations for a `Principal`, mapped to that JSON.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::api::wire::identity::IdentityWire;
use crate::domain::id::AgencyId;
use crate::domain::identity::IdentityInput;
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::agencies::{self as managed, AgencyEntry as ManagedAgency, Stopped};
use crate::services::directory;
use crate::state::AppState;
use crate::store::agencies::AgencyRow;

/// Les agences que le jeton peut lire.
#[derive(Serialize, ToSchema)]
pub struct AgencyList {
    /// Triées par organisation, puis par nom d'agence.
    pub agencies: Vec<AgencyEntry>,
}

/// Une agence, avec son organisation.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgencyEntry {
    /// Identifiant de l'agence.
    #[schema(format = Uuid)]
    pub id: String,
    /// Nom de l'agence.
    pub name: String,
    /// Organisation (entreprise cliente) dont l'agence fait partie.
    pub organization: OrganizationRef,
    /// Identifiant de l'agence dans la version 1, pour une agence reprise de la V1 ; sinon null.
    #[schema(required = true)]
    pub v1_id: Option<String>,
}

/// Une organisation : identifiant et nom.
#[derive(Serialize, ToSchema)]
pub struct OrganizationRef {
    #[schema(format = Uuid)]
    pub id: String,
    pub name: String,
}

impl From<AgencyRow> for AgencyEntry {
    fn from(row: AgencyRow) -> Self {
        Self {
            id: row.id.into_string(),
            name: row.name,
            organization: OrganizationRef {
                id: row.organization_id.into_string(),
                name: row.organization_name,
            },
            v1_id: row.v1_id,
        }
    }
}

/// The agencies the caller can read (shared with the MCP tool `agences`).
pub fn agency_list(caller: &Principal) -> AppResult<AgencyList> {
    let mut agencies = directory::readable_agencies(
        caller.account()?.role,
        caller.agency.as_ref(),
        &caller.scope,
    );
    agencies.sort_by(|a, b| {
        (&a.organization_name, &a.organization_id, &a.name, &a.id).cmp(&(
            &b.organization_name,
            &b.organization_id,
            &b.name,
            &b.id,
        ))
    });
    Ok(AgencyList {
        agencies: agencies.into_iter().map(AgencyEntry::from).collect(),
    })
}

// -- The organization's agencies, as their administrators manage them ---------

/// Une agence de l'organisation.
#[derive(Serialize, TS, ToSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct AgencyEntryWire {
    pub id: String,
    pub name: String,
    /// Date et heure (UTC) de sa création.
    pub created_at: String,
    /// Date et heure (UTC) de son archivage ; absente tant qu'elle travaille.
    pub archived_at: Option<String>,
    /// Ce qui manque à son identité pour émettre une facture (`siret`, `address`).
    pub missing_to_issue: Vec<String>,
    /// C'est l'agence où la session agit.
    pub current: bool,
    /// La session peut la renommer.
    pub can_rename: bool,
    /// La session peut l'archiver ou la réactiver.
    pub can_archive: bool,
}

fn wire(entry: ManagedAgency, current: Option<&AgencyId>) -> AgencyEntryWire {
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

#[derive(Serialize, TS, ToSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct AgenciesAnswer {
    /// Les agences en activité d'abord, puis les archivées.
    pub agencies: Vec<AgencyEntryWire>,
    /// La session peut créer une agence.
    pub can_create: bool,
}

/// Une nouvelle agence, et son identité si elle est déjà connue.
#[derive(Deserialize, TS, ToSchema, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewAgencyBody {
    pub name: String,
    #[ts(as = "Option<IdentityWire>", optional)]
    #[schema(value_type = Option<IdentityWire>)]
    pub identity: Option<IdentityInput>,
}

/// Le nouveau nom de l'agence.
#[derive(Deserialize, TS, ToSchema, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RenameBody {
    pub name: String,
}

/// Ce que l'archivage a arrêté.
#[derive(Serialize, TS, ToSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct StoppedWire {
    /// Clés de centre d'appels révoquées.
    pub call_center_keys: usize,
    /// Clés partenaires retirées de l'agence (révoquées si elles ne servaient qu'elle).
    pub partner_keys: usize,
    /// Abonnements webhook révoqués (leurs envois en attente abandonnés).
    pub webhook_subscriptions: usize,
}

#[derive(Serialize, TS, ToSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct ArchiveAnswer {
    pub agency: AgencyEntryWire,
    pub stopped: StoppedWire,
}

/// The organization's agencies as their administrators manage them.
pub async fn agencies_managed(state: &AppState, p: &Principal) -> AppResult<AgenciesAnswer> {
    let current = p.agency_id()?.clone();
    let entries = managed::list(&state.store, p).await?;
    Ok(AgenciesAnswer {
        can_create: managed::can_create(p),
        agencies: entries
            .into_iter()
            .map(|e| wire(e, Some(&current)))
            .collect(),
    })
}

/// A new agency of the organization (organization administrators).
pub async fn agency_create(
    state: &AppState,
    p: &Principal,
    body: NewAgencyBody,
) -> AppResult<AgencyEntryWire> {
    let current = p.agency_id()?.clone();
    let entry = managed::create(&state.store, p, &body.name, body.identity).await?;
    Ok(wire(entry, Some(&current)))
}

/// A new name for an agency.
pub async fn agency_rename(
    state: &AppState,
    p: &Principal,
    id: AgencyId,
    body: RenameBody,
) -> AppResult<AgencyEntryWire> {
    let current = p.agency_id()?.clone();
    let entry = managed::rename(&state.store, p, id, &body.name).await?;
    Ok(wire(entry, Some(&current)))
}

/// Archives an agency, and what that stopped.
pub async fn agency_archive(
    state: &AppState,
    p: &Principal,
    id: AgencyId,
) -> AppResult<ArchiveAnswer> {
    let current = p.agency_id()?.clone();
    let (entry, stopped) = managed::archive(&state.store, p, id).await?;
    let Stopped {
        call_center_keys,
        partner_keys,
        webhook_subscriptions,
    } = stopped;
    Ok(ArchiveAnswer {
        agency: wire(entry, Some(&current)),
        stopped: StoppedWire {
            call_center_keys,
            partner_keys,
            webhook_subscriptions,
        },
    })
}

/// Puts an archived agency back to work.
pub async fn agency_restore(
    state: &AppState,
    p: &Principal,
    id: AgencyId,
) -> AppResult<AgencyEntryWire> {
    let current = p.agency_id()?.clone();
    let entry = managed::restore(&state.store, p, id).await?;
    Ok(wire(entry, Some(&current)))
}
