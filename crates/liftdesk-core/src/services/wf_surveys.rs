//! Surveys of the partner workflow API: `/create_survey` (a deal and a
//! survey per equipment) and `/open_app` (the survey of an equipment for a
//! mobile user). One transaction per call, with its audit entry.

use crate::domain::id::{AccountId, AgencyId, BuildingId, ClientId, DealId, EquipmentId, SurveyId};
use chrono::Datelike;
use serde_json::json;

use crate::clock;
use crate::domain::building::{self, AccessInput, AccessNames};
use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::services::clients::{self, ClientInput};
use crate::services::workflow::{DEAL_TYPES, check_allowed, required_text};
use crate::store::accounts;
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::deals::{self, NewDeal};
use crate::store::equipment::{self as equipment_store, BuildingRow};
use crate::store::surveys;
use crate::store::{Store, Tx};

pub use crate::domain::deal::INVENTORY_TYPES;

#[derive(Debug, Clone, Default)]
pub struct SurveyEquipmentInput {
    pub equipment_number: Option<String>,
    pub adresse: Option<String>,
    pub complement_adresse: Option<String>,
    pub consignes_acces: Option<Vec<String>>,
    pub consignes_acces_autre: Option<String>,
    pub digicode: Option<String>,
    pub coffre_a_cles: Option<String>,
    pub client_id: Option<String>,
    pub client_nom: Option<String>,
    pub client_telephone: Option<String>,
    pub client_adresse: Option<String>,
    pub client_siret: Option<String>,
    pub client_siren: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct CreateSurveyInput {
    pub type_affaire: Option<String>,
    pub type_etat_des_lieux: Option<Vec<String>>,
    pub solliciteur_email: String,
    pub releveur_email: String,
    pub equipments: Vec<SurveyEquipmentInput>,
    pub external_opportunity_id: Option<String>,
}

fn non_blank(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

fn check_email(field: &str, value: &str) -> AppResult<String> {
    let value = required_text(field, value)?;
    if !crate::services::accounts::is_email(&value) {
        return Err(AppError::unprocessable(format!(
            "Le champ « {field} » n'est pas une adresse e-mail valide."
        )));
    }
    Ok(value)
}

/// The active account of the agency that performs surveys, by email.
fn surveyor(tx: &Tx, agency_id: &AgencyId, field: &str, email: &str) -> AppResult<AccountId> {
    let email = check_email(field, email)?;
    accounts::active_surveyor_of_agency(tx, agency_id, &email)?.ok_or_else(|| {
        AppError::unprocessable(format!(
            "Le champ « {field} » ne correspond à aucun compte mobile actif de cette agence (compte qui réalise des relevés)."
        ))
    })
}

/// The open survey of the equipment, else a new one `a_realiser`; the user
/// becomes its surveyor. Returns (survey id, created).
fn survey_for(
    tx: &Tx,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
    surveyor_id: &AccountId,
    reason: Option<&str>,
) -> AppResult<(SurveyId, bool)> {
    if let Some((survey_id, current)) = surveys::open_for_equipment(tx, agency_id, equipment_id)? {
        if current.as_ref() != Some(surveyor_id) {
            surveys::set_surveyor(tx, &survey_id, surveyor_id)?;
        }
        return Ok((survey_id, false));
    }
    let number = surveys::next_number(tx, agency_id, clock::paris_local(tx.now()).date().year())?;
    let id = surveys::insert_to_do(
        tx,
        agency_id,
        equipment_id,
        &number,
        Some(surveyor_id),
        reason,
    )?;
    Ok((id, true))
}

/// `/create_survey`: validates everything, creates or reuses the deal (by
/// `external_opportunity_id`), creates unknown equipment in the park and a
/// survey per equipment linked to the deal. Returns the deal's id.
pub fn create_survey(
    tx: &Tx,
    agency_id: &AgencyId,
    input: CreateSurveyInput,
    actor: &Actor,
) -> AppResult<DealId> {
    let type_affaire = non_blank(input.type_affaire);
    let inventory: Vec<String> = input.type_etat_des_lieux.unwrap_or_default();
    if type_affaire.is_none() && inventory.is_empty() {
        return Err(AppError::unprocessable(
            "Le champ « type_affaire » ou le champ « type_etat_des_lieux » est obligatoire.",
        ));
    }
    if let Some(value) = &type_affaire {
        check_allowed("type_affaire", value, &DEAL_TYPES)?;
    }
    for value in &inventory {
        check_allowed("type_etat_des_lieux", value, &INVENTORY_TYPES)?;
    }
    let requester = check_email("solliciteur_email", &input.solliciteur_email)?;
    let surveyor_id = surveyor(tx, agency_id, "releveur_email", &input.releveur_email)?;
    if input.equipments.is_empty() {
        return Err(AppError::unprocessable(
            "Le champ « equipments » doit contenir au moins un équipement.",
        ));
    }
    let external_id = non_blank(input.external_opportunity_id);
    let reason = type_affaire.clone().or_else(|| inventory.first().cloned());
    let mut deal_client: Option<ClientId> = None;
    let mut planned = Vec::new();
    for (index, equipment) in input.equipments.into_iter().enumerate() {
        let field = |name: &str| format!("equipments[{index}].{name}");
        let number = required_text(
            &field("equipment_number"),
            equipment.equipment_number.as_deref().unwrap_or_default(),
        )?;
        let address = required_text(
            &field("adresse"),
            equipment.adresse.as_deref().unwrap_or_default(),
        )?;
        let access = building::check_access(
            &AccessInput {
                instructions: equipment.consignes_acces.unwrap_or_default(),
                other: equipment.consignes_acces_autre,
                digicode: equipment.digicode,
                key_box: equipment.coffre_a_cles,
            },
            &AccessNames {
                instructions: &field("consignes_acces"),
                other: &field("consignes_acces_autre"),
            },
        )
        .map_err(AppError::unprocessable)?;
        // The managing client, created or updated from the client_* fields.
        let client_ref = non_blank(equipment.client_id);
        let client_nom = non_blank(equipment.client_nom);
        let client = if client_ref.is_some() || client_nom.is_some() {
            let edit = |v: Option<String>| non_blank(v).map(Some);
            let id = clients::update_client(
                tx,
                agency_id,
                ClientInput {
                    client_id: client_ref,
                    nom: client_nom,
                    telephone: edit(equipment.client_telephone),
                    adresse: edit(equipment.client_adresse),
                    siren: edit(equipment.client_siren),
                    siret: edit(equipment.client_siret),
                    ..ClientInput::default()
                },
                actor,
            )
            .map_err(|err| match err {
                AppError::Unprocessable(message) => {
                    AppError::unprocessable(format!("{} : {message}", field("client")))
                }
                other => other,
            })?;
            Some(id)
        } else {
            None
        };
        if deal_client.is_none() {
            deal_client.clone_from(&client);
        }
        let (equipment_id, created) = match equipment_store::find_by_number(tx, agency_id, &number)?
        {
            Some(found) => {
                if let Some(client) = &client
                    && found.client_id.as_ref() != Some(client)
                {
                    equipment_store::set_client(tx, &found.id, client)?;
                }
                (found.id, false)
            }
            None => (
                equipment_store::insert_numbered(tx, agency_id, &number, client.as_ref())?,
                true,
            ),
        };
        let row = equipment_store::get(tx, agency_id, &equipment_id)?
            .ok_or_else(|| AppError::not_found("Équipement introuvable."))?;
        let building_id = match &row.building {
            Some(building) => building.id.clone(),
            None => {
                let building = BuildingRow {
                    id: BuildingId::new(crate::store::new_id()),
                    name: None,
                    address: address.clone(),
                    address_complement: non_blank(equipment.complement_adresse.clone()),
                    postal_code: None,
                    city: None,
                };
                equipment_store::create_building_for(tx, agency_id, &row, &building)?;
                building.id
            }
        };
        equipment_store::set_access(tx, &building_id, &access)?;
        planned.push((equipment_id, number, created));
    }
    let (deal_id, reused) = match external_id
        .as_deref()
        .map(|ext| deals::find_by_external_id(tx, agency_id, ext))
        .transpose()?
        .flatten()
    {
        Some(id) => (id, true),
        None => {
            let inventory_json = json!(inventory).to_string();
            let id = deals::insert(
                tx,
                &NewDeal {
                    agency_id: agency_id.as_str(),
                    type_affaire: type_affaire.as_deref(),
                    types_etat_des_lieux: &inventory_json,
                    external_opportunity_id: external_id.as_deref(),
                    requester_email: &requester,
                    surveyor_account_id: &surveyor_id,
                    client_id: deal_client.as_ref(),
                },
            )?;
            (id, false)
        }
    };
    let mut survey_ids = Vec::new();
    for (equipment_id, _, _) in &planned {
        let (survey_id, _) =
            survey_for(tx, agency_id, equipment_id, &surveyor_id, reason.as_deref())?;
        surveys::link_deal(tx, &survey_id, &deal_id)?;
        survey_ids.push(survey_id);
    }
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor,
            action: if reused {
                "deal.add_surveys"
            } else {
                "deal.create"
            },
            object_type: "deal",
            object_id: Some(deal_id.as_str()),
            detail: Some(json!({
                "external_opportunity_id": external_id,
                "surveys": survey_ids,
                "created_equipment": planned
                    .iter()
                    .filter(|(_, _, created)| *created)
                    .map(|(_, number, _)| number)
                    .collect::<Vec<_>>(),
            })),
        },
    )?;
    Ok(deal_id)
}

/// `/open_app`: the user must be an active mobile account of the agency; the
/// equipment's open survey is reused or one is created, and the user becomes
/// its surveyor.
pub fn open_app(
    tx: &Tx,
    agency_id: &AgencyId,
    equipment_number: &str,
    user_email: &str,
    actor: &Actor,
) -> AppResult<()> {
    let number = required_text("equipment_number", equipment_number)?;
    let user = surveyor(tx, agency_id, "user_email", user_email)?;
    let equipment = equipment_store::find_by_number(tx, agency_id, &number)?
        .ok_or_else(|| AppError::not_found(crate::services::workflow::EQUIPMENT_NOT_FOUND))?;
    let (survey_id, created) = survey_for(tx, agency_id, &equipment.id, &user, None)?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor,
            action: if created {
                "survey.create"
            } else {
                "survey.assign"
            },
            object_type: "survey",
            object_id: Some(survey_id.as_str()),
            detail: Some(json!({ "surveyor": user, "via": "open_app" })),
        },
    )?;
    Ok(())
}

// -- Operations for a principal (the partner workflow API) -----------------

/// `/create_survey` in the principal's agency; returns the deal's id.
pub async fn create_survey_for(
    store: &Store,
    p: &Principal,
    input: CreateSurveyInput,
) -> AppResult<DealId> {
    p.require(Capability::Change)?;
    let (agency_id, actor) = (p.agency_id()?.to_owned(), p.actor.clone());
    store
        .write(move |tx| create_survey(tx, &agency_id, input, &actor))
        .await
}

/// `/open_app` in the principal's agency.
pub async fn open_app_for(
    store: &Store,
    p: &Principal,
    equipment_number: &str,
    user_email: &str,
) -> AppResult<()> {
    p.require(Capability::Change)?;
    let (agency_id, actor) = (p.agency_id()?.to_owned(), p.actor.clone());
    let (number, email) = (equipment_number.to_owned(), user_email.to_owned());
    store
        .write(move |tx| open_app(tx, &agency_id, &number, &email, &actor))
        .await
}
