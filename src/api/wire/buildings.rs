//! Buildings on the wire: the views and bodies shared by the web
//! application (`/app/api/buildings…`), the REST API v2
//! (`/api/v2/buildings…`) and the MCP tools (`immeubles`, `immeuble`,
//! `creer_immeuble`), and the operations they call (`services::buildings`).

use rmcp::schemars;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::domain::building::{ACCESS_VALUES, AccessInput, BuildingInput};
use crate::domain::id::BuildingId;
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::buildings as service;
use crate::state::AppState;
use crate::store::equipment::BuildingEntry;

/// Le client d'un immeuble : son identifiant partenaire et son nom.
#[derive(Serialize, TS, ToSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct BuildingClient {
    pub id: String,
    pub name: String,
}

/// Comment entrer dans l'immeuble.
#[derive(Serialize, Deserialize, TS, ToSchema, schemars::JsonSchema, Debug, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AccessWire {
    /// Parmi « Sans », « Digicode », « Coffre à clé », « Vigik », « Autre ».
    #[serde(default)]
    pub instructions: Vec<String>,
    /// Précisions, obligatoires avec « Autre ».
    #[serde(default)]
    pub other: Option<String>,
    #[serde(default)]
    pub digicode: Option<String>,
    /// Où se trouve le coffre à clé.
    #[serde(default)]
    pub key_box: Option<String>,
}

impl From<AccessWire> for AccessInput {
    fn from(wire: AccessWire) -> Self {
        AccessInput {
            instructions: wire.instructions,
            other: wire.other,
            digicode: wire.digicode,
            key_box: wire.key_box,
        }
    }
}

/// Un immeuble de l'agence.
#[derive(Serialize, TS, ToSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct BuildingView {
    pub id: String,
    pub name: Option<String>,
    pub address: String,
    pub address_complement: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
    pub client: Option<BuildingClient>,
    pub access: AccessWire,
    /// Nombre d'équipements de l'immeuble.
    pub equipment_count: i64,
}

impl From<BuildingEntry> for BuildingView {
    fn from(entry: BuildingEntry) -> Self {
        let b = entry.building;
        Self {
            id: b.id.into_string(),
            name: b.name,
            address: b.address,
            address_complement: b.address_complement,
            postal_code: b.postal_code,
            city: b.city,
            client: entry.client.map(|(id, name)| BuildingClient { id, name }),
            access: AccessWire {
                instructions: serde_json::from_str(&entry.access.instructions).unwrap_or_default(),
                other: entry.access.other,
                digicode: entry.access.digicode,
                key_box: entry.access.key_box,
            },
            equipment_count: entry.equipment_count,
        }
    }
}

#[derive(Serialize, TS, ToSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct BuildingsAnswer {
    /// Combien d'immeubles correspondent en tout.
    pub total: i64,
    /// Les 50 premiers, par adresse.
    pub results: Vec<BuildingView>,
    /// Les consignes d'accès possibles.
    pub access_values: Vec<String>,
}

/// Un nouvel immeuble, son client (identifiant partenaire) et ses consignes
/// d'accès s'ils sont connus.
#[derive(Deserialize, TS, ToSchema, schemars::JsonSchema, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewBuildingBody {
    #[ts(optional)]
    pub name: Option<String>,
    pub address: Option<String>,
    #[ts(optional)]
    pub address_complement: Option<String>,
    #[ts(optional)]
    pub postal_code: Option<String>,
    #[ts(optional)]
    pub city: Option<String>,
    #[ts(optional)]
    pub client_id: Option<String>,
    #[ts(optional)]
    pub access: Option<AccessWire>,
}

impl NewBuildingBody {
    fn input(&self) -> BuildingInput {
        BuildingInput {
            name: self.name.clone(),
            address: self.address.clone(),
            address_complement: self.address_complement.clone(),
            postal_code: self.postal_code.clone(),
            city: self.city.clone(),
        }
    }
}

/// The buildings matching `q` (name, address, city, client), 50 at most.
pub async fn building_search(
    state: &AppState,
    p: &Principal,
    q: Option<&str>,
) -> AppResult<BuildingsAnswer> {
    let (total, rows) = service::search(&state.store, p, q).await?;
    Ok(BuildingsAnswer {
        total,
        results: rows.into_iter().map(Into::into).collect(),
        access_values: ACCESS_VALUES.iter().map(|v| (*v).to_owned()).collect(),
    })
}

/// Creates a building of the agency.
pub async fn building_create(
    state: &AppState,
    p: &Principal,
    body: NewBuildingBody,
) -> AppResult<BuildingView> {
    let input = body.input();
    let entry = service::create(
        &state.store,
        p,
        input,
        body.client_id,
        body.access.map(Into::into),
    )
    .await?;
    Ok(entry.into())
}

/// A building of the agency (404 otherwise).
pub async fn building_read(
    state: &AppState,
    p: &Principal,
    id: BuildingId,
) -> AppResult<BuildingView> {
    Ok(service::get(&state.store, p, id).await?.into())
}

/// Changes how a technician gets into the building.
pub async fn building_access(
    state: &AppState,
    p: &Principal,
    id: BuildingId,
    body: AccessWire,
) -> AppResult<BuildingView> {
    Ok(service::set_access(&state.store, p, id, body.into())
        .await?
        .into())
}
