//! `GET /api/v2/calls/{id}`: a breakdown call as the agency sees it, and its
//! life: `POST /calls/{id}/assign` and `POST /calls/{id}/status` (the rules
//! are in `services::calls`). The
//! fields shared with the call-center API keep its French names
//! (`reference`, `statut`, `libelle`, `arriveLe`, `resoluLe`, `recuLe`,
//! `appelant`), so that one integration reads both the same way.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::ApiPath;
use crate::api::json::ApiJson;
use crate::api::v2::wire::{Created, RecordKind};
use crate::auth::api_token::ApiCaller;
use crate::domain::call::{CallStatus, CallType};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::services::calls::{self as service, AssignInput};
use crate::state::AppState;
use crate::store::audit::Actor;
use crate::store::calls::{self, CallRow};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(read_call))
        .routes(routes!(assign_call))
        .routes(routes!(change_call_status))
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

/// L'affectation d'un technicien à un appel.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AssignBody {
    /// Identifiant d'un technicien actif de l'agence (sinon 422).
    #[schema(min_length = 1)]
    pub technician_id: String,
    /// Nom du technicien, pour confirmation : s'il est donné et ne correspond
    /// pas au technicien désigné (casse et espaces aux extrémités ignorés), 422.
    #[serde(default)]
    pub technician: Option<String>,
}

/// Affecte (ou réaffecte) un technicien à l'appel.
///
/// Le statut ne change pas : l'appel passe « en route » quand le technicien
/// part (`POST /calls/{id}/status`). Un appel résolu ne s'affecte plus (422).
#[utoipa::path(
    post,
    path = "/calls/{id}/assign",
    tag = "Appels",
    params(("id" = String, Path, description = "Identifiant de l'appel")),
    request_body = AssignBody,
    responses(
        (status = 201, description = "Technicien affecté", body = Created,
            links(("ReadCall" = (operation_id = "read_call", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Appel introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Saisie refusée : technicien inconnu ou d'une autre agence, nom qui ne correspond pas, appel résolu", body = ErrorBody),
    )
)]
async fn assign_call(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<AssignBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    let agency = caller.require_agency()?;
    let input = AssignInput {
        technician_id: body.technician_id,
        technician_name: body.technician,
    };
    service::assign(
        &state.store,
        &agency.id,
        &id,
        input,
        Actor::ApiToken(caller.credential_id.clone()),
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(Created::new(RecordKind::Call, &state.base_url, &id)),
    ))
}

/// Le statut suivant d'un appel.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StatusBody {
    /// Statut visé ; la transition doit être permise depuis le statut actuel (sinon 422).
    #[schema(value_type = CallStatusCode)]
    pub statut: String,
}

/// Fait avancer l'appel dans ses statuts.
///
/// Transitions permises : `ouverte` → `en_route`, `sur_place` ou `resolue` ;
/// `en_route` → `ouverte`, `sur_place` ou `resolue` ; `sur_place` →
/// `a_l_arret` ou `resolue` ; `a_l_arret` → `sur_place` ou `resolue` ;
/// `resolue` est définitif. `en_route`, `sur_place` et `a_l_arret` demandent
/// un technicien affecté. La première arrivée sur place fixe `arriveLe`, le
/// passage à `resolue` fixe `resoluLe` et émet l'événement `appel.clos`.
#[utoipa::path(
    post,
    path = "/calls/{id}/status",
    tag = "Appels",
    params(("id" = String, Path, description = "Identifiant de l'appel")),
    request_body = StatusBody,
    responses(
        (status = 201, description = "Statut changé", body = Created,
            links(("ReadCall" = (operation_id = "read_call", parameters(("id" = "$response.body#/id")))))),
        (status = 404, description = "Appel introuvable dans l'agence", body = ErrorBody),
        (status = 413, description = "Corps trop volumineux", body = ErrorBody),
        (status = 422, description = "Transition refusée depuis le statut actuel, ou sans technicien affecté", body = ErrorBody),
    )
)]
async fn change_call_status(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<StatusBody>,
) -> AppResult<(StatusCode, Json<Created>)> {
    let agency = caller.require_agency()?;
    service::change_status(
        &state.store,
        &agency.id,
        &id,
        &body.statut,
        Actor::ApiToken(caller.credential_id.clone()),
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(Created::new(RecordKind::Call, &state.base_url, &id)),
    ))
}
