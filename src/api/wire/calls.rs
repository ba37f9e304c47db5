//! The JSON of `calls` shared by the REST API v2 (`api::v2::calls`, which keeps
//! only its handlers and their OpenAPI description), the MCP tools and the
//! web application: the bodies they accept, the records they answer with,
//! and the calls of the operations for a `Principal`, mapped to that JSON.

use crate::domain::id::CallId;
use crate::domain::id::TechnicianId;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use crate::api::wire::{Created, Page, PageQuery, Paging, RecordKind};
use crate::domain::call::{CallStatus, CallType};
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::calls::{self as service, AssignInput, CallListItem, ListInput};
use crate::state::AppState;
use crate::store::calls::CallRow;

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
#[derive(Serialize, ToSchema, TS)]
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
#[derive(Serialize, ToSchema, TS)]
pub struct NamedRef {
    pub id: String,
    pub name: String,
}

/// Un appel de panne, tel que l'agence le voit.
#[derive(Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct CallRead {
    /// Identifiant de l'appel.
    pub id: String,
    /// Référence donnée par le centre d'appels (ou par l'agence).
    pub reference: String,
    /// Statut de l'appel.
    #[ts(type = "CallStatus")]
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
    #[ts(type = "CallType")]
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
    pub fn new(row: CallRow, base_url: &str) -> Self {
        let (status, call_type) = (row.status, row.call_type);
        let equipment = RecordKind::Equipment;
        let pair = |id: Option<String>, name: Option<String>| {
            id.map(|id| NamedRef {
                id,
                name: name.unwrap_or_default(),
            })
        };
        Self {
            link: RecordKind::Call.link(row.id.as_str()),
            url: RecordKind::Call.url(base_url, row.id.as_str()),
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
                link: equipment.link(row.equipment_id.as_str()),
                url: equipment.url(base_url, row.equipment_id.as_str()),
                id: row.equipment_id.into_string(),
                number: row.equipment_number,
            },
            technician: pair(
                row.technician_id.map(TechnicianId::into_string),
                row.technician_name,
            ),
            center: pair(row.center_id, row.center_name),
            id: row.id.into_string(),
        }
    }
}

/// Filtre de statut de la liste des appels : un statut, ou `ouverts`.
#[derive(Serialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub enum CallStatusFilterCode {
    /// Tous les appels non résolus : `ouverte`, `en_route`, `sur_place` et `a_l_arret`.
    Ouverts,
    /// Reçus, personne n'est encore parti.
    Ouverte,
    /// Le technicien affecté se rend sur place.
    EnRoute,
    /// Le technicien est sur place.
    SurPlace,
    /// Appareil laissé à l'arrêt.
    ALArret,
    /// Remis en service.
    Resolue,
}

/// Filtres, recherche et pagination de la liste des appels.
#[derive(Debug, Clone, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CallListQuery {
    /// Statut : `ouverte`, `en_route`, `sur_place`, `a_l_arret`, `resolue`, ou `ouverts`
    /// pour tous les appels non résolus ; absent : tous les appels (autre valeur : 422).
    #[param(inline, value_type = Option<CallStatusFilterCode>)]
    pub status: Option<String>,
    /// Recherche, accents et casse ignorés : chaque mot doit se trouver dans la référence,
    /// le numéro de l'équipement, le nom de l'immeuble, son adresse (rue, code postal,
    /// ville) ou l'appelant (100 caractères au plus, sinon 400).
    #[param(max_length = 100)]
    pub q: Option<String>,
    /// Identifiant d'un équipement : ses appels seulement (un identifiant inconnu ne
    /// trouve rien).
    pub equipment: Option<String>,
    /// Lignes par page, de 1 à 200 (50 par défaut).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 200)]
    pub limit: Option<String>,
    /// Page demandée, à partir de 1.
    #[param(value_type = Option<i64>, minimum = 1, maximum = 4294967295_i64)]
    pub page: Option<String>,
}

/// Une ligne de la liste des appels : l'appel, son équipement, l'immeuble et le technicien.
#[derive(Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct CallListEntry {
    /// Identifiant de l'appel (à lire avec `GET /calls/{id}`).
    pub id: String,
    /// Référence donnée par le centre d'appels (ou par l'agence).
    pub reference: String,
    /// Statut de l'appel.
    #[ts(type = "CallStatus")]
    pub statut: CallStatusCode,
    /// Le statut en clair.
    #[schema(example = "Ouverte")]
    pub libelle: String,
    /// Ce que l'appelant a signalé.
    #[serde(rename = "type")]
    #[ts(type = "CallType")]
    pub call_type: CallTypeCode,
    /// Urgence : une personne est bloquée (`personne_bloquee`).
    pub urgence: bool,
    /// Heure de l'appel au centre, UTC ISO 8601.
    #[schema(format = DateTime)]
    pub recu_le: String,
    /// Qui a appelé ; null si non renseigné.
    #[schema(required = true)]
    pub appelant: Option<String>,
    /// L'équipement en panne.
    pub equipment: CallEquipment,
    /// Nom de l'immeuble de l'équipement ; null s'il n'en a pas.
    #[schema(required = true)]
    pub building: Option<String>,
    /// Identifiant de l'immeuble de l'équipement ; null s'il n'en a pas.
    #[schema(required = true)]
    pub building_id: Option<String>,
    /// Adresse de l'immeuble (rue, puis code postal et ville) ; null sans immeuble.
    #[schema(required = true)]
    pub address: Option<String>,
    /// Technicien affecté ; null tant que personne n'est affecté.
    #[schema(required = true)]
    pub technician: Option<NamedRef>,
    /// Chemin de l'appel dans le service.
    pub link: String,
    /// Adresse complète de l'appel, à ouvrir dans un navigateur.
    pub url: String,
}

impl CallListEntry {
    pub fn new(item: CallListItem, base_url: &str) -> Self {
        let row = item.row;
        let (status, call_type) = (row.status, row.call_type);
        let equipment = RecordKind::Equipment;
        Self {
            link: RecordKind::Call.link(row.id.as_str()),
            url: RecordKind::Call.url(base_url, row.id.as_str()),
            reference: row.reference,
            statut: status.into(),
            libelle: status.label().to_owned(),
            call_type: call_type.into(),
            urgence: call_type.is_emergency(),
            recu_le: row.received_at,
            appelant: row.caller,
            equipment: CallEquipment {
                link: equipment.link(row.equipment_id.as_str()),
                url: equipment.url(base_url, row.equipment_id.as_str()),
                id: row.equipment_id.into_string(),
                number: row.equipment_number,
            },
            building: row.building_name,
            building_id: row.building_id,
            address: item.address,
            technician: row.technician_id.map(|id| NamedRef {
                id: id.into_string(),
                name: row.technician_name.unwrap_or_default(),
            }),
            id: row.id.into_string(),
        }
    }
}

/// One page of the acting agency's calls.
pub async fn call_list(
    state: &AppState,
    caller: &Principal,
    query: CallListQuery,
) -> AppResult<Page<CallListEntry>> {
    let paging = Paging::from_query(&PageQuery {
        limit: query.limit,
        page: query.page,
    })?;
    let checked = service::check_list(ListInput {
        status: query.status,
        q: query.q,
        equipment: query.equipment,
    })?;
    let (total, items) =
        service::list(&state.store, caller, checked, paging.limit, paging.offset()).await?;
    Ok(Page {
        total,
        page: paging.page,
        limit: paging.limit,
        results: items
            .into_iter()
            .map(|item| CallListEntry::new(item, &state.base_url))
            .collect(),
    })
}

/// The call `id` of the acting agency (404 otherwise).
pub async fn call_read(state: &AppState, caller: &Principal, id: String) -> AppResult<CallRead> {
    let row = service::read(&state.store, caller, &CallId::new(id.as_str())).await?;
    Ok(CallRead::new(row, &state.base_url))
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

/// Assigns the technician of `body` to the call `id` of the acting agency.
pub async fn assign(
    state: &AppState,
    caller: &Principal,
    id: String,
    body: AssignBody,
) -> AppResult<Created> {
    let input = AssignInput {
        technician_id: body.technician_id,
        technician_name: body.technician,
    };
    service::assign(
        &state.store,
        &state.call_feed,
        caller,
        &CallId::new(id.as_str()),
        input,
    )
    .await?;
    Ok(Created::new(RecordKind::Call, &state.base_url, &id))
}

/// Le statut suivant d'un appel.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StatusBody {
    /// Statut visé ; la transition doit être permise depuis le statut actuel (sinon 422).
    #[schema(value_type = CallStatusCode)]
    pub statut: String,
}

/// Moves the call `id` of the acting agency to the status of `body`; where
/// it comes from says whether closing needs a report
/// (`services::calls::Closing`).
pub async fn change_status(
    state: &AppState,
    caller: &Principal,
    id: String,
    body: StatusBody,
    closing: service::Closing,
) -> AppResult<Created> {
    service::change_status(
        &state.store,
        &state.call_feed,
        caller,
        &CallId::new(id.as_str()),
        &body.statut,
        closing,
    )
    .await?;
    Ok(Created::new(RecordKind::Call, &state.base_url, &id))
}
