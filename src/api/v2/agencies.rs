//! `GET /api/v2/agencies`: the agencies the token can read, with their
//! organization and, for an agency carried over from V1, its V1 identifier.

use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::api_token::ApiCaller;
use crate::services::directory;
use crate::state::AppState;
use crate::store::agencies::AgencyRow;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_agencies))
}

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
            id: row.id,
            name: row.name,
            organization: OrganizationRef {
                id: row.organization_id,
                name: row.organization_name,
            },
            v1_id: row.v1_id,
        }
    }
}

/// Les agences que le jeton peut lire, avec leur organisation et leur identifiant V1.
///
/// Pour le compte de service de l'opérateur sans agence demandée : les agences de toutes
/// les organisations clientes ; avec `X-Service-Agency` : celles de l'organisation de
/// cette agence. Pour tout autre compte : les agences où il travaille (toutes celles de
/// son organisation pour un administrateur de l'organisation).
#[utoipa::path(
    get,
    path = "/agencies",
    tag = "Organisation",
    responses((status = 200, description = "Les agences lisibles", body = AgencyList))
)]
async fn list_agencies(caller: ApiCaller) -> Json<AgencyList> {
    Json(agency_list(&caller))
}

/// The agencies the caller can read (shared with the MCP tool `agences`).
pub fn agency_list(caller: &ApiCaller) -> AgencyList {
    let mut agencies =
        directory::readable_agencies(caller.account.role, caller.agency.as_ref(), &caller.scope);
    agencies.sort_by(|a, b| {
        (&a.organization_name, &a.organization_id, &a.name, &a.id).cmp(&(
            &b.organization_name,
            &b.organization_id,
            &b.name,
            &b.id,
        ))
    });
    AgencyList {
        agencies: agencies.into_iter().map(AgencyEntry::from).collect(),
    }
}
