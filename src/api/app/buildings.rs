//! `/app/api/buildings…`: the agency's buildings on the screens, through
//! `services::buildings`: found as you type (name, address, city, client),
//! created with their client and access instructions, read, and how a
//! technician gets in changed (digicode, key box, Vigik). Every staff
//! member of the agency (the service operator only reads).

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::api::extract::{ApiPath, ApiQuery};
use crate::api::json::ApiJson;
use crate::auth::staff_session::StaffSession;
use crate::domain::building::{ACCESS_VALUES, AccessInput, BuildingInput};
use crate::domain::id::BuildingId;
use crate::error::AppResult;
use crate::services::buildings as service;
use crate::state::AppState;
use crate::store::equipment::BuildingEntry;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/buildings", get(search).post(create))
        .route("/buildings/{id}", get(read))
        .route("/buildings/{id}/access", put(set_access))
}

/// Le client d'un immeuble : son identifiant partenaire et son nom.
#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BuildingClient {
    id: String,
    name: String,
}

/// Comment entrer dans l'immeuble.
#[derive(Serialize, Deserialize, TS, Debug, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct AccessWire {
    /// Parmi « Sans », « Digicode », « Coffre à clé », « Vigik », « Autre ».
    #[serde(default)]
    instructions: Vec<String>,
    /// Précisions, obligatoires avec « Autre ».
    #[serde(default)]
    other: Option<String>,
    #[serde(default)]
    digicode: Option<String>,
    /// Où se trouve le coffre à clé.
    #[serde(default)]
    key_box: Option<String>,
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
#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BuildingView {
    id: String,
    name: Option<String>,
    address: String,
    address_complement: Option<String>,
    postal_code: Option<String>,
    city: Option<String>,
    client: Option<BuildingClient>,
    access: AccessWire,
    /// Nombre d'équipements de l'immeuble.
    equipment_count: i64,
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

#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BuildingsAnswer {
    /// Combien d'immeubles correspondent en tout.
    total: i64,
    /// Les 50 premiers, par adresse.
    results: Vec<BuildingView>,
    /// Les consignes d'accès possibles.
    access_values: Vec<String>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct SearchQuery {
    q: Option<String>,
}

async fn search(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(query): ApiQuery<SearchQuery>,
) -> AppResult<Json<BuildingsAnswer>> {
    session.require_agency()?;
    let (total, rows) =
        service::search(&state.store, &session.principal(), query.q.as_deref()).await?;
    Ok(Json(BuildingsAnswer {
        total,
        results: rows.into_iter().map(Into::into).collect(),
        access_values: ACCESS_VALUES.iter().map(|v| (*v).to_owned()).collect(),
    }))
}

/// Un nouvel immeuble, son client (identifiant partenaire) et ses consignes
/// d'accès s'ils sont connus.
#[derive(Deserialize, TS, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct NewBuildingBody {
    #[ts(optional)]
    name: Option<String>,
    address: Option<String>,
    #[ts(optional)]
    address_complement: Option<String>,
    #[ts(optional)]
    postal_code: Option<String>,
    #[ts(optional)]
    city: Option<String>,
    #[ts(optional)]
    client_id: Option<String>,
    #[ts(optional)]
    access: Option<AccessWire>,
}

async fn create(
    State(state): State<AppState>,
    session: StaffSession,
    ApiJson(body): ApiJson<NewBuildingBody>,
) -> AppResult<(StatusCode, Json<BuildingView>)> {
    session.require_agency()?;
    let input = BuildingInput {
        name: body.name,
        address: body.address,
        address_complement: body.address_complement,
        postal_code: body.postal_code,
        city: body.city,
    };
    let entry = service::create(
        &state.store,
        &session.principal(),
        input,
        body.client_id,
        body.access.map(Into::into),
    )
    .await?;
    Ok((StatusCode::CREATED, Json(entry.into())))
}

async fn read(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<BuildingId>,
) -> AppResult<Json<BuildingView>> {
    session.require_agency()?;
    let entry = service::get(&state.store, &session.principal(), id).await?;
    Ok(Json(entry.into()))
}

async fn set_access(
    State(state): State<AppState>,
    session: StaffSession,
    ApiPath(id): ApiPath<BuildingId>,
    ApiJson(body): ApiJson<AccessWire>,
) -> AppResult<Json<BuildingView>> {
    session.require_agency()?;
    let entry = service::set_access(&state.store, &session.principal(), id, body.into()).await?;
    Ok(Json(entry.into()))
}
