//! Technical data of an equipment under the partner workflow API's names
//! (`charge_utile`, `vitesse`, `adresse`, `contrat_entretien`…), validated
//! against the catalog (`technical_fields`: value type, allowed values, the
//! equipment types a field applies to). One definition for every entry
//! point: `PATCH /api/v2/equipment/{id}` and the partner workflow API's
//! `/update_equipment_data` and `/get_equipment_data` use `parse_update`,
//! `apply` and `read`.
//!
//! Besides the catalog's partner fields, four names are not catalog data:
//! `adresse`, `complement_adresse`, `nom_immeuble` (the equipment's building)
//! and `contrat_entretien` (the equipment's maintenance contract);
//! `taux_connaissance` is computed and read-only.

use crate::domain::id::{AgencyId, BuildingId, EquipmentId};
use serde_json::{Map, Value, json};

use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::store::Conn;
use crate::store::Store;
use crate::store::Tx;
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::equipment::{self as equipment_store, BuildingRow, EquipmentRow};
use crate::store::technical_fields::{self, CatalogField, ValueType};

pub const ADDRESS: &str = "adresse";
pub const ADDRESS_COMPLEMENT: &str = "complement_adresse";
pub const BUILDING_NAME: &str = "nom_immeuble";
pub const CONTRACT: &str = "contrat_entretien";
pub const KNOWLEDGE_RATE: &str = "taux_connaissance";

/// `contrat_entretien` values and the `maintenance_contract` code each stands for.
pub const CONTRACT_VALUES: [(&str, &str); 2] = [("Parc", "parc"), ("Hors parc", "hors_parc")];

/// Longest text accepted for a datum, an address or a building name.
pub const MAX_TEXT_CHARS: usize = 500;
/// Largest whole number accepted for an integer datum (levels, persons…).
pub const MAX_INTEGER: i64 = 1_000_000;

/// What to do with one datum.
#[derive(Debug, Clone, PartialEq)]
pub enum Change<T> {
    Set(T),
    /// `null` (or a blank text): the datum becomes "never surveyed" again.
    Erase,
}

/// A validated change of technical data, ready to apply.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TechnicalUpdate {
    /// Catalog data, with the (normalized) JSON value to store.
    pub values: Vec<(CatalogField, Change<Value>)>,
    pub address: Option<Change<String>>,
    pub address_complement: Option<Change<String>>,
    pub building_name: Option<Change<String>>,
    /// The `maintenance_contract` code (`parc`, `hors_parc`).
    pub contract: Option<Change<&'static str>>,
}

impl TechnicalUpdate {
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
            && self.address.is_none()
            && self.address_complement.is_none()
            && self.building_name.is_none()
            && self.contract.is_none()
    }
}

/// The names `parse_update` accepts, in catalog order then the building and
/// contract names (for error messages and documentation).
pub fn writable_names(catalog: &[CatalogField]) -> Vec<String> {
    let mut names: Vec<String> = catalog
        .iter()
        .filter_map(|f| f.partner_key.clone())
        .collect();
    names.extend(
        [ADDRESS, ADDRESS_COMPLEMENT, BUILDING_NAME, CONTRACT]
            .into_iter()
            .map(str::to_owned),
    );
    names
}

use crate::domain::text::quoted_list;

/// Validates a JSON object of technical data named as in the partner API.
/// Unknown names, the read-only `taux_connaissance`, values of the wrong type
/// and values outside the catalog's allowed lists are refused (422) with a
/// French reason naming the field. `null` erases a datum; a blank text too.
pub fn parse_update(
    catalog: &[CatalogField],
    body: &Map<String, Value>,
) -> AppResult<TechnicalUpdate> {
    let mut update = TechnicalUpdate::default();
    for (name, value) in body {
        if name == KNOWLEDGE_RATE {
            return Err(AppError::unprocessable(
                "Le champ « taux_connaissance » est en lecture seule : il est calculé à partir des données relevées.",
            ));
        }
        if let Some(field) = catalog
            .iter()
            .find(|f| f.partner_key.as_deref() == Some(name.as_str()))
        {
            let change = validate_value(field, name, value)?;
            update.values.push((field.clone(), change));
            continue;
        }
        match name.as_str() {
            ADDRESS => {
                let change = text_change(name, value)?;
                if change == Change::Erase {
                    return Err(AppError::unprocessable(
                        "Le champ « adresse » ne peut pas être effacé : un immeuble a toujours une adresse.",
                    ));
                }
                update.address = Some(change);
            }
            ADDRESS_COMPLEMENT => update.address_complement = Some(text_change(name, value)?),
            BUILDING_NAME => update.building_name = Some(text_change(name, value)?),
            CONTRACT => {
                update.contract = Some(match text_change(name, value)? {
                    Change::Erase => Change::Erase,
                    Change::Set(text) => Change::Set(
                        CONTRACT_VALUES
                            .iter()
                            .find(|(label, _)| *label == text)
                            .map(|(_, code)| *code)
                            .ok_or_else(|| {
                                AppError::unprocessable(format!(
                                    "La valeur « {text} » du champ « contrat_entretien » n'est pas autorisée : valeurs possibles : « Parc », « Hors parc »."
                                ))
                            })?,
                    ),
                });
            }
            _ => {
                return Err(AppError::unprocessable(format!(
                    "Le champ « {name} » n'est pas reconnu : champs possibles : {}.",
                    writable_names(catalog).join(", ")
                )));
            }
        }
    }
    Ok(update)
}

/// Validates the data a survey collected: a JSON object keyed by catalog
/// code (`GET /technical-fields`'s `code`; the partner API's technical names
/// are the same codes), each value checked by [`validate_value`] exactly as
/// for `parse_update`. `taux_connaissance` (computed), the building's
/// `adresse`, `complement_adresse`, `nom_immeuble` and `contrat_entretien`
/// are not data a survey records (422, pointing to `PATCH
/// /equipment/{id}`); any other unknown name is 422 listing the codes.
pub fn parse_survey_values(
    catalog: &[CatalogField],
    body: &Map<String, Value>,
) -> AppResult<Vec<(CatalogField, Change<Value>)>> {
    let mut values = Vec::with_capacity(body.len());
    for (name, value) in body {
        if name == KNOWLEDGE_RATE {
            return Err(AppError::unprocessable(
                "Le champ « taux_connaissance » est en lecture seule : il est calculé à partir des données relevées.",
            ));
        }
        if let Some(field) = catalog
            .iter()
            .find(|f| f.code == *name || f.partner_key.as_deref() == Some(name.as_str()))
        {
            let change = validate_value(field, name, value)?;
            values.push((field.clone(), change));
            continue;
        }
        if [ADDRESS, ADDRESS_COMPLEMENT, BUILDING_NAME, CONTRACT].contains(&name.as_str()) {
            return Err(AppError::unprocessable(format!(
                "Le champ « {name} » n'est pas une donnée relevée : il se corrige sur l'équipement (PATCH /equipment/{{id}})."
            )));
        }
        return Err(AppError::unprocessable(format!(
            "Le champ « {name} » n'est pas une donnée technique du catalogue : codes possibles : {}.",
            catalog
                .iter()
                .map(|f| f.code.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(values)
}

/// A text (address, building name, contract): trimmed; blank or null
/// erases; at most `MAX_TEXT_CHARS` characters.
pub fn text_change(name: &str, value: &Value) -> AppResult<Change<String>> {
    match value {
        Value::Null => Ok(Change::Erase),
        Value::String(text) => {
            let text = text.trim();
            if text.is_empty() {
                Ok(Change::Erase)
            } else if text.chars().count() > MAX_TEXT_CHARS {
                Err(AppError::unprocessable(format!(
                    "Le champ « {name} » ne doit pas dépasser {MAX_TEXT_CHARS} caractères."
                )))
            } else {
                Ok(Change::Set(text.to_owned()))
            }
        }
        _ => Err(AppError::unprocessable(format!(
            "Le champ « {name} » doit être un texte."
        ))),
    }
}

/// Checks one datum against its catalog entry and returns the JSON value to
/// store: numbers must be non-negative, integers whole from 0 to 1 000 000
/// (`3.0` is stored as `3`), texts at most 500 characters (blank erases), choices exactly one of
/// the allowed values, multi a list of distinct allowed values (empty
/// erases). `name` is the name the caller used, for the messages.
pub fn validate_value(field: &CatalogField, name: &str, value: &Value) -> AppResult<Change<Value>> {
    if value.is_null() {
        return Ok(Change::Erase);
    }
    let refuse = |expected: &str| {
        AppError::unprocessable(format!("Le champ « {name} » doit être {expected}."))
    };
    let not_allowed = |text: &str| {
        AppError::unprocessable(crate::domain::text::not_allowed(name, text, &field.choices))
    };
    match field.value_type {
        ValueType::Number => {
            let number = value
                .as_f64()
                .ok_or_else(|| refuse("un nombre positif ou nul"))?;
            if !number.is_finite() || number < 0.0 {
                return Err(refuse("un nombre positif ou nul"));
            }
            // 630.0 and 630 are the same load: a whole number is stored whole.
            if value.is_f64() && number.fract() == 0.0 && number <= 9.0e15 {
                return Ok(Change::Set(json!(number as i64)));
            }
            Ok(Change::Set(value.clone()))
        }
        ValueType::Integer => {
            let expected = format!("un nombre entier compris entre 0 et {MAX_INTEGER}");
            let number = value.as_f64().ok_or_else(|| refuse(&expected))?;
            // JSON writers often send 3.0 for 3: a whole number is accepted.
            if !number.is_finite()
                || number.fract() != 0.0
                || !(0.0..=MAX_INTEGER as f64).contains(&number)
            {
                return Err(refuse(&expected));
            }
            Ok(Change::Set(json!(number as i64)))
        }
        ValueType::Boolean => match value {
            Value::Bool(b) => Ok(Change::Set(Value::Bool(*b))),
            _ => Err(refuse("vrai ou faux (true ou false)")),
        },
        ValueType::Text => match text_change(name, value)? {
            Change::Erase => Ok(Change::Erase),
            Change::Set(text) => Ok(Change::Set(Value::String(text))),
        },
        ValueType::Choice => {
            let Value::String(text) = value else {
                return Err(refuse(&format!(
                    "un texte parmi {}",
                    quoted_list(&field.choices)
                )));
            };
            let text = text.trim();
            if text.is_empty() {
                return Ok(Change::Erase);
            }
            if !field.choices.iter().any(|c| c == text) {
                return Err(not_allowed(text));
            }
            Ok(Change::Set(Value::String(text.to_owned())))
        }
        ValueType::Multi => {
            let Value::Array(items) = value else {
                return Err(refuse(&format!(
                    "une liste de valeurs parmi {}",
                    quoted_list(&field.choices)
                )));
            };
            let mut chosen: Vec<String> = Vec::new();
            for item in items {
                let Value::String(text) = item else {
                    return Err(refuse(&format!(
                        "une liste de valeurs parmi {}",
                        quoted_list(&field.choices)
                    )));
                };
                let text = text.trim();
                if !field.choices.iter().any(|c| c == text) {
                    return Err(not_allowed(text));
                }
                if !chosen.iter().any(|c| c == text) {
                    chosen.push(text.to_owned());
                }
            }
            if chosen.is_empty() {
                Ok(Change::Erase)
            } else {
                Ok(Change::Set(json!(chosen)))
            }
        }
    }
}

fn parse_json_text(text: &str) -> Value {
    // The table's CHECK (json_valid) guarantees valid JSON.
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// The equipment's technical data as the partner workflow API shows them:
/// the partner fields that have a value (a datum never surveyed is absent),
/// the building's `adresse`, `complement_adresse`, `nom_immeuble`, the
/// `contrat_entretien` when known, and always `taux_connaissance`.
/// None when the equipment is not in that agency.
pub fn read(
    conn: &Conn,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
) -> AppResult<Option<Map<String, Value>>> {
    let Some(equipment) = equipment_store::get(conn, agency_id, equipment_id)? else {
        return Ok(None);
    };
    let catalog = technical_fields::all(conn)?;
    let stored = equipment_store::values(conn, equipment_id)?;
    let mut data = Map::new();
    for field in &catalog {
        let Some(partner_key) = &field.partner_key else {
            continue;
        };
        if let Some((_, text)) = stored.iter().find(|(code, _)| *code == field.code) {
            data.insert(partner_key.clone(), parse_json_text(text));
        }
    }
    if let Some(building) = &equipment.building {
        data.insert(ADDRESS.to_owned(), json!(building.address));
        if let Some(complement) = &building.address_complement {
            data.insert(ADDRESS_COMPLEMENT.to_owned(), json!(complement));
        }
        if let Some(name) = &building.name {
            data.insert(BUILDING_NAME.to_owned(), json!(name));
        }
    }
    if let Some(label) = equipment
        .identity
        .maintenance_contract
        .as_deref()
        .and_then(contract_label)
    {
        data.insert(CONTRACT.to_owned(), json!(label));
    }
    let rate = equipment_store::knowledge_rate(conn, agency_id, equipment_id)?.unwrap_or(0.0);
    data.insert(KNOWLEDGE_RATE.to_owned(), json!(rate));
    Ok(Some(data))
}

/// A catalogue choice as people read it: the stored `Electrique` is written
/// « Électrique » (the screens' `choiceLabel` says the same); the others as
/// they are.
pub fn choice_label(value: &str) -> &str {
    match value {
        "Electrique" => "Électrique",
        other => other,
    }
}

/// `Parc` / `Hors parc` for a `maintenance_contract` code.
pub fn contract_label(code: &str) -> Option<&'static str> {
    CONTRACT_VALUES
        .iter()
        .find(|(_, c)| *c == code)
        .map(|(label, _)| *label)
}

/// Applies a validated update to an equipment of the agency, in the caller's
/// transaction, with one audit entry listing each changed datum (before and
/// after), and returns the data as `read` shows them. 404 when the equipment
/// is not in the agency; 422 for a building detail on an equipment without
/// building when no `adresse` is given. The catalog's `applies_to` is not
/// enforced here: it says which data count in the knowledge rate and which
/// `GET /technical-fields` offers, and data recorded before a change of type
/// stay recorded too.
pub fn apply(
    tx: &Tx,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
    update: &TechnicalUpdate,
    actor: &Actor,
) -> AppResult<Map<String, Value>> {
    let equipment = equipment_store::get(tx, agency_id, equipment_id)?
        .ok_or_else(|| AppError::not_found("Équipement introuvable."))?;
    let mut changes = Map::new();

    let stored = equipment_store::values(tx, equipment_id)?;
    for (field, change) in &update.values {
        let before = stored
            .iter()
            .find(|(code, _)| *code == field.code)
            .map(|(_, text)| parse_json_text(text));
        let after = match change {
            Change::Set(value) => Some(value.clone()),
            Change::Erase => None,
        };
        if before == after {
            continue;
        }
        match &after {
            Some(value) => {
                equipment_store::set_value(tx, equipment_id, &field.code, &value.to_string())?
            }
            None => equipment_store::delete_value(tx, equipment_id, &field.code)?,
        }
        let name = field
            .partner_key
            .clone()
            .unwrap_or_else(|| field.code.clone());
        changes.insert(name, json!({ "before": before, "after": after }));
    }

    apply_building(tx, agency_id, &equipment, update, &mut changes)?;

    if let Some(change) = &update.contract {
        let after = match change {
            Change::Set(code) => Some(*code),
            Change::Erase => None,
        };
        let before = equipment.identity.maintenance_contract.as_deref();
        if before != after {
            equipment_store::set_maintenance_contract(tx, equipment_id, after)?;
            changes.insert(
                CONTRACT.to_owned(),
                json!({
                    "before": before.and_then(contract_label),
                    "after": after.and_then(contract_label),
                }),
            );
        }
    }

    if !changes.is_empty() {
        equipment_store::touch(tx, equipment_id)?;
        audit::record(
            tx,
            AuditEntry {
                agency_id: Some(agency_id.as_str()),
                actor,
                action: "donnees_techniques",
                object_type: "equipment",
                object_id: Some(equipment_id.as_str()),
                detail: Some(json!({ "changes": changes })),
            },
        )?;
    }
    read(tx, agency_id, equipment_id)?.ok_or_else(|| AppError::not_found("Équipement introuvable."))
}

/// `parse_update` then `apply`, for a JSON object as received: 404 first when
/// the equipment is not in the agency, then the refusals of the body (422).
pub fn update_from_json(
    tx: &Tx,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
    body: &Map<String, Value>,
    actor: &Actor,
) -> AppResult<Map<String, Value>> {
    if equipment_store::get(tx, agency_id, equipment_id)?.is_none() {
        return Err(AppError::not_found("Équipement introuvable."));
    }
    let catalog = technical_fields::all(tx)?;
    let update = parse_update(&catalog, body)?;
    apply(tx, agency_id, equipment_id, &update, actor)
}

/// `update_from_json` for the web application's Equipment screen, which
/// edits every catalog datum, not only the partner API's: a name is either
/// what `parse_update` accepts or the catalog code of a datum without a
/// partner name, checked by the same `validate_value`. 404 first when the
/// equipment is not in the agency, then the refusals (422).
pub fn update_by_code(
    tx: &Tx,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
    body: &Map<String, Value>,
    actor: &Actor,
) -> AppResult<Map<String, Value>> {
    if equipment_store::get(tx, agency_id, equipment_id)?.is_none() {
        return Err(AppError::not_found("Équipement introuvable."));
    }
    let catalog = technical_fields::all(tx)?;
    let mut named = Map::new();
    let mut by_code = Vec::new();
    for (name, value) in body {
        match catalog
            .iter()
            .find(|f| f.partner_key.is_none() && f.code == *name)
        {
            Some(field) => by_code.push((field.clone(), validate_value(field, name, value)?)),
            None => {
                named.insert(name.clone(), value.clone());
            }
        }
    }
    let mut update = parse_update(&catalog, &named)?;
    update.values.extend(by_code);
    apply(tx, agency_id, equipment_id, &update, actor)
}

fn apply_building(
    tx: &Tx,
    agency_id: &AgencyId,
    equipment: &EquipmentRow,
    update: &TechnicalUpdate,
    changes: &mut Map<String, Value>,
) -> AppResult<()> {
    if update.address.is_none()
        && update.address_complement.is_none()
        && update.building_name.is_none()
    {
        return Ok(());
    }
    let set_text = |change: &Option<Change<String>>, current: Option<String>| match change {
        None => current,
        Some(Change::Set(text)) => Some(text.clone()),
        Some(Change::Erase) => None,
    };
    let (before, is_new) = match &equipment.building {
        Some(building) => (building.clone(), false),
        None => {
            let wants_something = matches!(update.address, Some(Change::Set(_)))
                || matches!(update.address_complement, Some(Change::Set(_)))
                || matches!(update.building_name, Some(Change::Set(_)));
            if !wants_something {
                // Erasing details of a building that does not exist: nothing to do.
                return Ok(());
            }
            if !matches!(update.address, Some(Change::Set(_))) {
                return Err(AppError::unprocessable(
                    "Cet équipement n'est rattaché à aucun immeuble : indiquez aussi « adresse » pour le créer.",
                ));
            }
            (
                BuildingRow {
                    id: BuildingId::new(crate::store::new_id()),
                    name: None,
                    address: String::new(),
                    address_complement: None,
                    postal_code: None,
                    city: None,
                },
                true,
            )
        }
    };
    let after = BuildingRow {
        address: set_text(&update.address, Some(before.address.clone())).unwrap_or_default(),
        address_complement: set_text(
            &update.address_complement,
            before.address_complement.clone(),
        ),
        name: set_text(&update.building_name, before.name.clone()),
        ..before.clone()
    };
    if after == before {
        return Ok(());
    }
    if is_new {
        equipment_store::create_building_for(tx, agency_id, equipment, &after)?;
        changes.insert(
            "immeuble".to_owned(),
            json!({ "before": null, "after": after.id }),
        );
    } else {
        equipment_store::update_building(tx, &after)?;
    }
    let pairs = [
        (
            ADDRESS,
            Some(before.address.clone()).filter(|_| !is_new),
            Some(after.address.clone()),
        ),
        (
            ADDRESS_COMPLEMENT,
            before.address_complement.clone(),
            after.address_complement.clone(),
        ),
        (BUILDING_NAME, before.name.clone(), after.name.clone()),
    ];
    for (name, old, new) in pairs {
        if old != new {
            changes.insert(name.to_owned(), json!({ "before": old, "after": new }));
        }
    }
    Ok(())
}

/// One entry of `GET /technical-fields`.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldMatch {
    pub field: CatalogField,
    /// The value surveyed on the equipment, if any.
    pub value: Option<Value>,
}

pub use crate::text::fold;

fn words(text: &str) -> Vec<String> {
    fold(text)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Catalog fields that apply to an equipment of the agency and match the
/// searched term: every word of `query` must begin a word of the field's
/// label, code or search words (accents and case ignored). Label matches
/// come first, then the others, each in catalog order. None when the
/// equipment is not in the agency; an empty list when nothing matches.
pub fn search_fields(
    conn: &Conn,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
    query: &str,
) -> AppResult<Option<Vec<FieldMatch>>> {
    let Some(equipment) = equipment_store::get(conn, agency_id, equipment_id)? else {
        return Ok(None);
    };
    let wanted = words(query);
    let catalog = technical_fields::all(conn)?;
    let stored = equipment_store::values(conn, equipment_id)?;
    let matches_all = |haystack: &[String]| {
        !wanted.is_empty()
            && wanted
                .iter()
                .all(|w| haystack.iter().any(|h| h.starts_with(w.as_str())))
    };
    let mut by_label = Vec::new();
    let mut by_other = Vec::new();
    for field in catalog {
        if !field.applies_to_type(equipment.identity.equipment_type.as_deref()) {
            continue;
        }
        let label_words = words(&field.label);
        let mut all_words = label_words.clone();
        all_words.extend(words(&field.code));
        all_words.extend(words(&field.synonyms));
        let bucket = if matches_all(&label_words) {
            &mut by_label
        } else if matches_all(&all_words) {
            &mut by_other
        } else {
            continue;
        };
        let value = stored
            .iter()
            .find(|(code, _)| *code == field.code)
            .map(|(_, text)| parse_json_text(text));
        bucket.push(FieldMatch { field, value });
    }
    by_label.extend(by_other);
    Ok(Some(by_label))
}

/// The technical-data catalogue, in its order, for a member of an agency
/// (the screens name a datum by its label wherever a code was stored: the
/// journal's changes, an import's fields).
pub async fn catalog_for(store: &Store, p: &Principal) -> AppResult<Vec<CatalogField>> {
    p.agency_id()?;
    Ok(store.read(technical_fields::all).await?)
}

/// Longest term accepted by the technical fields search.
pub const MAX_QUERY_CHARS: usize = 200;

/// The technical fields of an equipment of the principal's agency matching
/// `term` (400 beyond [`MAX_QUERY_CHARS`] characters, 404 for an equipment
/// outside the agency).
pub async fn search_for(
    store: &Store,
    p: &Principal,
    equipment_id: &EquipmentId,
    term: &str,
) -> AppResult<Vec<FieldMatch>> {
    if term.chars().count() > MAX_QUERY_CHARS {
        return Err(AppError::bad_request(format!(
            "Le paramètre « q » ne doit pas dépasser {MAX_QUERY_CHARS} caractères."
        )));
    }
    let agency_id = p.agency_id()?.to_owned();
    let (equipment_id, term) = (equipment_id.to_owned(), term.to_owned());
    store
        .read(move |conn| search_fields(conn, &agency_id, &equipment_id, &term))
        .await?
        .ok_or_else(|| AppError::not_found("Équipement introuvable."))
}

/// How a JSON object of technical data names its fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldNames {
    /// The REST API's names (see [`update_from_json`]).
    Api,
    /// Every catalog datum by its code (the web application's form, see
    /// [`update_by_code`]).
    Code,
}

/// Writes the technical data of an equipment of the principal's agency from
/// a JSON object whose fields are named as `names` says; answers the data
/// as stored.
pub async fn update_for(
    store: &Store,
    p: &Principal,
    equipment_id: &EquipmentId,
    body: Map<String, Value>,
    names: FieldNames,
) -> AppResult<Map<String, Value>> {
    p.require(Capability::Change)?;
    let (agency_id, actor, id) = (
        p.agency_id()?.to_owned(),
        p.actor.clone(),
        equipment_id.to_owned(),
    );
    store
        .write(move |tx| match names {
            FieldNames::Api => update_from_json(tx, &agency_id, &id, &body, &actor),
            FieldNames::Code => update_by_code(tx, &agency_id, &id, &body, &actor),
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(code: &str, value_type: ValueType, choices: &[&str]) -> CatalogField {
        CatalogField {
            code: code.to_owned(),
            label: code.to_owned(),
            unit: None,
            component: None,
            value_type,
            choices: choices.iter().map(|c| (*c).to_owned()).collect(),
            synonyms: String::new(),
            v1_table: "appareil".to_owned(),
            v1_field: code.to_owned(),
            partner_key: Some(code.to_owned()),
            applies_to: Some(vec!["ascenseur".to_owned()]),
            position: 1,
        }
    }

    fn status(result: AppResult<Change<Value>>) -> Result<Change<Value>, u16> {
        result.map_err(|e| e.status().as_u16())
    }

    #[test]
    fn values_are_checked_against_their_catalog_type() {
        let number = field("vitesse", ValueType::Number, &[]);
        assert_eq!(
            status(validate_value(&number, "vitesse", &json!(1.6))),
            Ok(Change::Set(json!(1.6)))
        );
        assert_eq!(
            status(validate_value(&number, "vitesse", &json!(-1))),
            Err(422)
        );
        assert_eq!(
            status(validate_value(&number, "vitesse", &json!("1.6"))),
            Err(422)
        );
        assert_eq!(
            status(validate_value(&number, "vitesse", &Value::Null)),
            Ok(Change::Erase)
        );

        let integer = field("nombre_niveaux", ValueType::Integer, &[]);
        assert_eq!(
            status(validate_value(&integer, "n", &json!(7.0))),
            Ok(Change::Set(json!(7)))
        );
        assert_eq!(status(validate_value(&integer, "n", &json!(7.5))), Err(422));
        assert_eq!(
            status(validate_value(&integer, "n", &json!(u64::MAX))),
            Err(422)
        );
        assert_eq!(
            status(validate_value(&integer, "n", &json!(true))),
            Err(422)
        );

        let choice = field(
            "type_entrainement",
            ValueType::Choice,
            &["Electrique", "Hydraulique"],
        );
        assert_eq!(
            status(validate_value(&choice, "t", &json!(" Hydraulique "))),
            Ok(Change::Set(json!("Hydraulique")))
        );
        assert_eq!(
            status(validate_value(&choice, "t", &json!("electrique"))),
            Err(422)
        );
        assert_eq!(
            status(validate_value(&choice, "t", &json!(""))),
            Ok(Change::Erase)
        );

        let multi = field("m", ValueType::Multi, &["A", "B"]);
        assert_eq!(
            status(validate_value(&multi, "m", &json!(["B", "A", "B"]))),
            Ok(Change::Set(json!(["B", "A"])))
        );
        assert_eq!(status(validate_value(&multi, "m", &json!(["C"]))), Err(422));
        assert_eq!(
            status(validate_value(&multi, "m", &json!([]))),
            Ok(Change::Erase)
        );

        let boolean = field("b", ValueType::Boolean, &[]);
        assert_eq!(
            status(validate_value(&boolean, "b", &json!(false))),
            Ok(Change::Set(json!(false)))
        );
        assert_eq!(
            status(validate_value(&boolean, "b", &json!("oui"))),
            Err(422)
        );

        let text = field("marque", ValueType::Text, &[]);
        assert_eq!(
            status(validate_value(&text, "marque", &json!(" Otis "))),
            Ok(Change::Set(json!("Otis")))
        );
        assert_eq!(
            status(validate_value(&text, "marque", &json!("x".repeat(501)))),
            Err(422)
        );
    }

    #[test]
    fn the_partner_names_are_the_only_ones_accepted() {
        let catalog = vec![field("vitesse", ValueType::Number, &[])];
        let parse = |body: Value| {
            parse_update(&catalog, body.as_object().expect("object"))
                .map_err(|e| e.public_message())
        };
        let update =
            parse(json!({"vitesse": 1, "contrat_entretien": "Hors parc", "adresse": " 3 rue X "}))
                .expect("valid");
        assert_eq!(update.contract, Some(Change::Set("hors_parc")));
        assert_eq!(update.address, Some(Change::Set("3 rue X".to_owned())));
        assert!(
            parse(json!({"taux_connaissance": 50}))
                .unwrap_err()
                .contains("lecture seule")
        );
        assert!(
            parse(json!({"inconnu": 1}))
                .unwrap_err()
                .contains("« inconnu »")
        );
        assert!(
            parse(json!({"contrat_entretien": "parc"}))
                .unwrap_err()
                .contains("« Parc »")
        );
        assert!(parse(json!({"adresse": null})).is_err());
        assert!(parse(json!({})).expect("empty").is_empty());
    }

    #[test]
    fn survey_values_are_catalog_codes_checked_like_the_patch() {
        let mut shaft = field("gaine_largeur_cuvette", ValueType::Number, &[]);
        shaft.partner_key = None;
        let catalog = vec![field("vitesse", ValueType::Number, &[]), shaft];
        let parse = |body: Value| {
            parse_survey_values(&catalog, body.as_object().expect("object"))
                .map_err(|e| (e.status().as_u16(), e.public_message()))
        };
        let values = parse(json!({"vitesse": 1.0, "gaine_largeur_cuvette": null})).expect("valid");
        let change_of = |code: &str| {
            values
                .iter()
                .find(|(f, _)| f.code == code)
                .map(|(_, c)| c.clone())
        };
        assert_eq!(values.len(), 2);
        assert_eq!(change_of("vitesse"), Some(Change::Set(json!(1))));
        assert_eq!(change_of("gaine_largeur_cuvette"), Some(Change::Erase));
        let (status, message) = parse(json!({"vitesse": "1"})).unwrap_err();
        assert_eq!(status, 422);
        assert_eq!(
            message,
            "Le champ « vitesse » doit être un nombre positif ou nul."
        );
        let (_, message) = parse(json!({"inconnu": 1})).unwrap_err();
        assert_eq!(
            message,
            "Le champ « inconnu » n'est pas une donnée technique du catalogue : codes possibles : vitesse, gaine_largeur_cuvette."
        );
        assert!(
            parse(json!({"adresse": "3 rue X"}))
                .unwrap_err()
                .1
                .contains("PATCH /equipment/{id}")
        );
        assert!(
            parse(json!({"taux_connaissance": 1}))
                .unwrap_err()
                .1
                .contains("lecture seule")
        );
        assert!(parse(json!({})).expect("empty").is_empty());
    }

    #[test]
    fn folding_ignores_accents_and_case() {
        assert_eq!(fold("Manœuvre ÉLECTRIQUE à"), "manoeuvre electrique a");
        assert_eq!(words("Type d'entraînement"), ["type", "d", "entrainement"]);
    }
}
