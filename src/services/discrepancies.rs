//! Recording a discrepancy (écart) found on an equipment during a survey.

use rusqlite::Transaction;
use serde_json::json;

use crate::error::{AppError, AppResult};
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::discrepancies::{self, NewDiscrepancy};
use crate::store::surveys::{self, SurveyStatus};
use crate::store::{equipment, technical_fields};

/// Bounds of a finding ("one or two sentences"), in characters.
pub const FINDING_MIN_CHARS: usize = 3;
pub const FINDING_MAX_CHARS: usize = 2000;

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

/// Records the discrepancy in the agency and returns its id. The equipment
/// and the survey are creation inputs: unknown in the agency, or a survey of
/// another equipment, or a cancelled survey, is refused with 422 (not 404).
/// `component` must be a component key of the catalog; `finding` 3 to 2000
/// characters once trimmed. One audit entry.
pub fn create(
    tx: &Transaction,
    agency_id: &str,
    account_id: Option<&str>,
    input: &NewDiscrepancyInput,
    actor: &Actor,
) -> AppResult<String> {
    let equipment_id = input.equipment_id.trim();
    let survey_id = input.survey_id.trim();
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
    let survey_name = survey.number.clone().unwrap_or_else(|| survey.id.clone());
    if survey.equipment_id != equipment.id {
        return Err(AppError::unprocessable(format!(
            "Le relevé « {survey_name} » ne concerne pas cet équipement : indiquez un relevé de l'équipement."
        )));
    }
    if survey.status == Some(SurveyStatus::Annule) {
        return Err(AppError::unprocessable(format!(
            "Le relevé « {survey_name} » est annulé : aucun écart ne peut y être ajouté."
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
    let finding = input.finding.trim();
    let length = finding.chars().count();
    if length < FINDING_MIN_CHARS {
        return Err(AppError::unprocessable(format!(
            "Le champ « finding » doit contenir au moins {FINDING_MIN_CHARS} caractères : décrivez l'écart constaté."
        )));
    }
    if length > FINDING_MAX_CHARS {
        return Err(AppError::unprocessable(format!(
            "Le champ « finding » ne doit pas dépasser {FINDING_MAX_CHARS} caractères."
        )));
    }
    let id = discrepancies::insert(
        tx,
        &NewDiscrepancy {
            agency_id,
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
            agency_id: Some(agency_id),
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
