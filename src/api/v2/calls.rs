//! `GET /api/v2/calls/{id}`: a breakdown call as the agency sees it. The
//! fields shared with the call-center API keep its French names
//! (`reference`, `statut`, `libelle`, `arriveLe`, `resoluLe`, `recuLe`,
//! `appelant`), so that one integration reads both the same way.

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::ApiPath;
use crate::api::v2::wire::RecordKind;
use crate::auth::api_token::ApiCaller;
use crate::domain::call::{CallStatus, CallType};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::state::AppState;
use crate::store::calls::{self, CallRow};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(read_call))
}

const NOT_FOUND: &str = "Appel introuvable.";

/// Statut d'un appel.
#[derive(Serialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub enum CallStatusCode {
    /// Reçu, personne n'est encore parti.
    Ouverte,
    /// Le technicien affecté se rend sur place.
    EnRoute,
    /// Le technicien est sur place.
    SurPlace,
    /// Le technicien a laissé l'appareil à l'arrêt (pièce à commander, réparation lourde).
    ALArret,
    /// Remis en service.
    Resolue,
}

impl From<CallStatus> for CallStatusCode {
    fn from(status: CallStatus) -> Self {
        match status {
            CallStatus::Ouverte => Self::Ouverte,
            CallStatus::EnRoute => Self::EnRoute,
            CallStatus::SurPlace => Self::SurPlace,
            CallStatus::ALArret => Self::ALArret,
            CallStatus::Resolue => Self::Resolue,
        }
    }
}

/// Ce que l'appelant a signalé.
#[derive(Serialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub enum CallTypeCode {
    /// Personne bloquée dans la cabine (urgence).
    PersonneBloquee,
    /// Panne.
    Panne,
    /// Vandalisme.
    Vandalisme,
    /// Bruit anormal.
    Bruit,
}

impl From<CallType> for CallTypeCode {
    fn from(call_type: CallType) -> Self {
        match call_type {
            CallType::PersonneBloquee => Self::PersonneBloquee,
            CallType::Panne => Self::Panne,
            CallType::Vandalisme => Self::Vandalisme,
            CallType::Bruit => Self::Bruit,
        }
    }
}

/// L'équipement concerné.
#[derive(Serialize, ToSchema)]
pub struct CallEquipment {
    /// Identifiant de l'équipement.
    pub id: String,
    /// Numéro de l'équipement.
    #[schema(required = true)]
    pub number: Option<String>,
    /// Chemin de l'équipement dans le service.
    pub link: String,
    /// Adresse complète de l'équipement.
    pub url: String,
}

/// Un technicien ou un centre d'appels : identifiant et nom.
#[derive(Serialize, ToSchema)]
pub struct NamedRef {
    pub id: String,
    pub name: String,
}

/// Un appel de panne, tel que l'agence le voit.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CallRead {
    /// Identifiant de l'appel.
    pub id: String,
    /// Référence donnée par le centre d'appels (ou par l'agence).
    pub reference: String,
    /// Statut de l'appel.
    pub statut: CallStatusCode,
    /// Le statut en clair.
    #[schema(example = "Technicien en route")]
    pub libelle: String,
    /// Arrivée du technicien, UTC ISO 8601 ; null avant l'arrivée.
    #[schema(required = true, format = DateTime)]
    pub arrive_le: Option<String>,
    /// Remise en service, UTC ISO 8601 ; null tant que l'appel n'est pas résolu.
    #[schema(required = true, format = DateTime)]
    pub resolu_le: Option<String>,
    /// Heure de l'appel au centre, UTC ISO 8601.
    #[schema(format = DateTime)]
    pub recu_le: String,
    /// Ce que l'appelant a signalé.
    #[serde(rename = "type")]
    pub call_type: CallTypeCode,
    /// Urgence : une personne est bloquée (`personne_bloquee`).
    pub urgence: bool,
    /// Ce que l'appelant a rapporté.
    pub description: String,
    /// Qui a appelé ; null si non renseigné.
    #[schema(required = true)]
    pub appelant: Option<String>,
    /// L'équipement en panne.
    pub equipment: CallEquipment,
    /// Technicien affecté ; null tant que personne n'est affecté.
    #[schema(required = true)]
    pub technician: Option<NamedRef>,
    /// Centre d'appels qui a transmis l'appel ; null pour un appel pris à l'agence.
    #[schema(required = true)]
    pub center: Option<NamedRef>,
    /// Chemin de l'appel dans le service.
    pub link: String,
    /// Adresse complète de l'appel, à ouvrir dans un navigateur.
    pub url: String,
}

impl CallRead {
    fn new(row: CallRow, base_url: &str) -> AppResult<Self> {
        let status = CallStatus::parse(&row.status).ok_or_else(|| {
            AppError::Internal(anyhow::anyhow!(
                "statut d'appel inconnu en base : {}",
                row.status
            ))
        })?;
        let call_type = CallType::parse(&row.call_type).ok_or_else(|| {
            AppError::Internal(anyhow::anyhow!(
                "type d'appel inconnu en base : {}",
                row.call_type
            ))
        })?;
        let equipment = RecordKind::Equipment;
        let pair = |id: Option<String>, name: Option<String>| {
            id.map(|id| NamedRef {
                id,
                name: name.unwrap_or_default(),
            })
        };
        Ok(Self {
            link: RecordKind::Call.link(&row.id),
            url: RecordKind::Call.url(base_url, &row.id),
            reference: row.reference,
            statut: status.into(),
            libelle: status.label().to_owned(),
            arrive_le: row.arrived_at,
            resolu_le: row.resolved_at,
            recu_le: row.received_at,
            call_type: call_type.into(),
            urgence: call_type.is_emergency(),
            description: row.description,
            appelant: row.caller,
            equipment: CallEquipment {
                link: equipment.link(&row.equipment_id),
                url: equipment.url(base_url, &row.equipment_id),
                id: row.equipment_id,
                number: row.equipment_number,
            },
            technician: pair(row.technician_id, row.technician_name),
            center: pair(row.center_id, row.center_name),
            id: row.id,
        })
    }
}

/// Un appel de panne de l'agence.
///
/// Les champs communs avec l'API des centres d'appels gardent leurs noms français
/// (`reference`, `statut`, `libelle`, `arriveLe`, `resoluLe`, `recuLe`, `appelant`).
#[utoipa::path(
    get,
    path = "/calls/{id}",
    tag = "Appels",
    params(("id" = String, Path, description = "Identifiant de l'appel")),
    responses(
        (status = 200, description = "L'appel", body = CallRead),
        (status = 404, description = "Appel introuvable dans l'agence", body = ErrorBody),
    )
)]
async fn read_call(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
) -> AppResult<Json<CallRead>> {
    let agency_id = caller.require_agency()?.id.clone();
    let row = state
        .store
        .read(move |conn| calls::get_in_agency(conn, &agency_id, &id))
        .await?
        .ok_or_else(|| AppError::not_found(NOT_FOUND))?;
    Ok(Json(CallRead::new(row, &state.base_url)?))
}
