//! The partner workflow API's operations (`/api/1.1/wf`): validation with
//! French messages, then the store; every write in one transaction with its
//! audit entry (`Actor::PartnerKey`). The agency is checked by the caller
//! (`PartnerCaller::authorize_agency`) before anything here runs.

use crate::domain::id::{AgencyId, DealId};
use serde_json::{Map, Value, json};

use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::services::technical_data;
use crate::store::Conn;
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::deals::{self, DealFilter};
use crate::store::equipment as equipment_store;
use crate::store::{Store, Tx};

pub use crate::domain::deal::{DEAL_CATEGORIES, DEAL_TYPES};

pub const EQUIPMENT_NOT_FOUND: &str = "Équipement introuvable dans cette agence.";

/// Moves a deal of the principal's agency to another category (« Gagnée »,
/// « Perdue »…, [`DEAL_CATEGORIES`]): 422 naming the field for another
/// value, 404 for a deal outside the agency. One audit entry
/// `deal.category`.
pub fn set_deal_category_in(
    tx: &Tx,
    p: &Principal,
    deal_id: &DealId,
    category: &str,
) -> AppResult<()> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?;
    check_allowed("opportunity_category", category, &DEAL_CATEGORIES)?;
    if !deals::set_category(tx, agency_id, deal_id, category)? {
        return Err(AppError::not_found("Affaire introuvable."));
    }
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor: &p.actor,
            action: "deal.category",
            object_type: "deal",
            object_id: Some(deal_id.as_str()),
            detail: Some(json!({ "category": category })),
        },
    )?;
    Ok(())
}

/// The principal moves a deal to a category (see [`set_deal_category_in`]).
pub async fn set_deal_category(
    store: &Store,
    p: &Principal,
    deal_id: &DealId,
    category: &str,
) -> AppResult<()> {
    p.agency_id()?;
    let (p, deal_id, category) = (p.clone(), deal_id.to_owned(), category.to_owned());
    store
        .write(move |tx| set_deal_category_in(tx, &p, &deal_id, &category))
        .await
}

/// A value that must be one of `allowed`: 422 naming the field otherwise.
pub fn check_allowed(field: &str, value: &str, allowed: &[&str]) -> AppResult<()> {
    if allowed.contains(&value) {
        Ok(())
    } else {
        Err(not_allowed(field, value, allowed))
    }
}

/// The refusal of `value`, none of the `allowed` values of `field`.
pub fn not_allowed(field: &str, value: &str, allowed: &[&str]) -> AppError {
    AppError::unprocessable(crate::domain::text::not_allowed(field, value, allowed))
}

/// A required, non-blank text: 422 naming the field otherwise.
pub fn required_text(field: &str, value: &str) -> AppResult<String> {
    let trimmed = value.trim();
    if trimmed.is_empty() {
        return Err(AppError::unprocessable(format!(
            "Le champ « {field} » est obligatoire."
        )));
    }
    Ok(trimmed.to_owned())
}

/// `/get_equipment_data`: the available technical data, with `taux_connaissance`.
pub fn equipment_data(
    conn: &Conn,
    agency_id: &AgencyId,
    equipment_number: &str,
) -> AppResult<Map<String, Value>> {
    let number = required_text("equipment_number", equipment_number)?;
    let equipment = equipment_store::find_by_number(conn, agency_id, &number)?
        .ok_or_else(|| AppError::not_found(EQUIPMENT_NOT_FOUND))?;
    technical_data::read(conn, agency_id, &equipment.id)?
        .ok_or_else(|| AppError::not_found(EQUIPMENT_NOT_FOUND))
}

/// `/update_equipment_data`: `fields` holds only technical data names
/// (`agency_id` and `equipment_number` taken out); validated against the
/// catalog, `taux_connaissance` refused, applied with its audit entry.
pub fn update_equipment_data(
    tx: &Tx,
    agency_id: &AgencyId,
    equipment_number: &str,
    fields: &Map<String, Value>,
    actor: &Actor,
) -> AppResult<()> {
    let number = required_text("equipment_number", equipment_number)?;
    let equipment = equipment_store::find_by_number(tx, agency_id, &number)?
        .ok_or_else(|| AppError::not_found(EQUIPMENT_NOT_FOUND))?;
    technical_data::update_from_json(tx, agency_id, &equipment.id, fields, actor)?;
    Ok(())
}

/// The filters of `/get_opportunities_stats`, as received.
#[derive(Debug, Clone, Default)]
pub struct StatsInput {
    pub from: Option<String>,
    pub to: Option<String>,
    pub opportunity_type: Option<String>,
    pub opportunity_category: Option<String>,
}

fn date_of(field: &str, value: Option<String>) -> AppResult<Option<String>> {
    let Some(text) = value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    let date = crate::domain::day::read(&text).ok_or_else(|| {
        AppError::unprocessable(format!(
            "Le champ « {field} » doit être une date au format AAAA-MM-JJ."
        ))
    })?;
    Ok(Some(crate::domain::day::iso(date)))
}

/// `/get_opportunities_stats`: deals of that one agency, creation day within
/// `from`..=`to`, of that type and category (each filter optional).
pub fn opportunities_count(conn: &Conn, agency_id: &AgencyId, input: StatsInput) -> AppResult<i64> {
    let from = date_of("from", input.from)?;
    let to = date_of("to", input.to)?;
    if let (Some(from), Some(to)) = (&from, &to)
        && from > to
    {
        return Err(AppError::unprocessable(
            "La date « from » doit précéder ou égaler la date « to ».",
        ));
    }
    let non_blank = |v: Option<String>| v.filter(|v| !v.trim().is_empty());
    let type_affaire = non_blank(input.opportunity_type);
    if let Some(value) = &type_affaire {
        check_allowed("opportunity_type", value, &DEAL_TYPES)?;
    }
    let category = non_blank(input.opportunity_category);
    if let Some(value) = &category {
        check_allowed("opportunity_category", value, &DEAL_CATEGORIES)?;
    }
    Ok(deals::count(
        conn,
        agency_id,
        &DealFilter {
            from,
            to,
            type_affaire,
            category,
        },
    )?)
}

// -- Operations for a principal (the partner workflow API) -----------------
//
// The principal acts in one agency (`Principal::in_agency`, checked by the
// front door before the body is read further).

/// `/get_equipment_data` in the principal's agency.
pub async fn equipment_data_for(
    store: &Store,
    p: &Principal,
    equipment_number: &str,
) -> AppResult<Map<String, Value>> {
    let (agency_id, number) = (p.agency_id()?.to_owned(), equipment_number.to_owned());
    store
        .read(move |conn| equipment_data(conn, &agency_id, &number))
        .await
}

/// `/update_equipment_data` in the principal's agency.
pub async fn update_equipment_data_for(
    store: &Store,
    p: &Principal,
    equipment_number: &str,
    fields: Map<String, Value>,
) -> AppResult<()> {
    p.require(Capability::Change)?;
    let (agency_id, actor) = (p.agency_id()?.to_owned(), p.actor.clone());
    let number = equipment_number.to_owned();
    store
        .write(move |tx| update_equipment_data(tx, &agency_id, &number, &fields, &actor))
        .await
}

/// `/get_stats`: the opportunities of the principal's agency.
pub async fn opportunities_count_for(
    store: &Store,
    p: &Principal,
    input: StatsInput,
) -> AppResult<i64> {
    let agency_id = p.agency_id()?.to_owned();
    store
        .read(move |conn| opportunities_count(conn, &agency_id, input))
        .await
}
