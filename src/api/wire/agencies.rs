//! The JSON of `agencies` shared by the REST API v2 (`api::v2::agencies`, which keeps
//! only its handlers and their OpenAPI description), the MCP tools and the
//! web application: the bodies they accept, the records they answer with,
//! and the calls of the operations for a `Principal`, mapped to that JSON.

use serde::Serialize;
use utoipa::ToSchema;

use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::directory;
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
