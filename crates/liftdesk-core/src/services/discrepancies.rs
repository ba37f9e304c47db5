//! Recording a discrepancy (écart) found on an equipment during a survey.

use crate::domain::id::{AccountId, AgencyId, EquipmentId, SurveyId};
use serde_json::json;

use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::store::Store;
use crate::store::Tx;
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::discrepancies::{self, NewDiscrepancy};
use crate::store::surveys;
use crate::store::{equipment, technical_fields};

/// Bounds of a finding ("one or two sentences"), in characters.
pub const FINDING_MIN_CHARS: usize = 3;
pub const FINDING_MAX_CHARS: usize = 2000;

/// Component keys of the catalog as shipped (`V2__technical_catalog.sql`),
/// for the published schema; `create` checks the catalog itself.
pub const CATALOG_COMPONENTS: [&str; 5] =
    ["shaft", "car_door", "landing_door", "machine", "controller"];

/// The component key that stands for the equipment itself (as in the
/// `components` of a survey's data); stored as no component.
pub const WHOLE_EQUIPMENT: &str = "equipment";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewDiscrepancyInput {
    pub equipment_id: String,
    pub survey_id: String,
    /// None (or `equipment`) for the whole equipment.
    pub component: Option<String>,
    pub finding: String,
}

/// Records the discrepancy in the agency and returns its id. An equipment or
/// a survey not found in the agency is 404 (the spec's "object not found in
/// the token's agencies"), and so is a survey not found among the
/// equipment's surveys (a survey of another equipment).
/// `component` must be a component key of the catalog (or `equipment`);
/// `finding` at most 2000 characters as sent and at least 3 once trimmed.
/// One audit entry.
pub fn create(
    tx: &Tx,
    agency_id: &AgencyId,
    account_id: Option<&AccountId>,
    input: &NewDiscrepancyInput,
    actor: &Actor,
) -> AppResult<String> {
    let equipment_id = &EquipmentId::new(input.equipment_id.trim());
    let survey_id = &SurveyId::new(input.survey_id.trim());
    let Some(equipment) = equipment::get(tx, agency_id, equipment_id)? else {
        return Err(AppError::unprocessable(format!(
            "L'équipement « {equipment_id} » est introuvable dans cette agence."
        )));
    };
    let Some(survey) = surveys::get(tx, agency_id, survey_id)? else {
        return Err(AppError::unprocessable(format!(
            "Le relevé « {survey_id} » est introuvable dans cette agence."
        )));
    };
    let survey_name = survey
        .number
        .clone()
        .unwrap_or_else(|| survey.id.to_string());
    if survey.equipment_id != equipment.id {
        return Err(AppError::unprocessable(format!(
            "Le relevé « {survey_name} » n'est pas un relevé de cet équipement : indiquez un relevé de l'équipement."
        )));
    }
    let component = match input.component.as_deref().map(str::trim) {
        None | Some(WHOLE_EQUIPMENT) => None,
        Some(key) => {
            let mut keys: Vec<String> = technical_fields::all(tx)?
                .into_iter()
                .filter_map(|f| f.component)
                .collect();
            keys.sort_unstable();
            keys.dedup();
            if !keys.iter().any(|k| k == key) {
                return Err(AppError::unprocessable(format!(
                    "Le composant « {key} » n'est pas reconnu : valeurs possibles : {}, ou « {WHOLE_EQUIPMENT} » (ou rien) pour l'équipement entier.",
                    keys.iter()
                        .map(|k| format!("« {k} »"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            Some(key.to_owned())
        }
    };
    if input.finding.chars().count() > FINDING_MAX_CHARS {
        return Err(AppError::unprocessable(format!(
            "Le champ « finding » ne doit pas dépasser {FINDING_MAX_CHARS} caractères."
        )));
    }
    let finding = input.finding.trim();
    if finding.chars().count() < FINDING_MIN_CHARS {
        return Err(AppError::unprocessable(format!(
            "Le champ « finding » doit contenir au moins {FINDING_MIN_CHARS} caractères : décrivez l'écart constaté."
        )));
    }
    let id = discrepancies::insert(
        tx,
        &NewDiscrepancy {
            agency_id: agency_id.as_str(),
            equipment_id: &equipment.id,
            survey_id: &survey.id,
            component: component.as_deref(),
            finding,
            created_by: account_id,
        },
    )?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor,
            action: "creation",
            object_type: "discrepancy",
            object_id: Some(&id),
            detail: Some(json!({
                "equipment": equipment.id,
                "survey": survey.id,
                "component": component,
                "finding": finding,
            })),
        },
    )?;
    Ok(id)
}

/// Records a discrepancy in the principal's agency, reported by its account;
/// returns its id.
pub async fn report(store: &Store, p: &Principal, input: NewDiscrepancyInput) -> AppResult<String> {
    p.require(Capability::Change)?;
    let (agency_id, account_id, actor) = (
        p.agency_id()?.to_owned(),
        p.account.as_ref().map(|a| a.id.clone()),
        p.actor.clone(),
    );
    store
        .write(move |tx| create(tx, &agency_id, account_id.as_ref(), &input, &actor))
        .await
}
