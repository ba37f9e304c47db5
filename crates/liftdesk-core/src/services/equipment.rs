//! Equipment: correcting its identity, finding it (number, building), and
//! what a partner's maintenance software reads of it (equipment to link, and
//! one equipment's data).

use crate::domain::id::{AgencyId, BuildingId, ClientId, EquipmentId};
use serde_json::{Map, Value, json};

use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Door, Principal};
use crate::services::search::search_term;
use crate::store::Conn;
use crate::store::Store;
use crate::store::Tx;
use crate::store::agencies::AgencyRow;
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::equipment::{self as equipment_store, BuildingRow, EquipmentRow, IdentityRow};
use crate::store::technical_fields;
use crate::text::fold;

/// Equipment types the service knows (the spec gives them as examples).
pub const EQUIPMENT_TYPES: [&str; 5] = [
    "ascenseur",
    "monte_charge",
    "monte_voiture",
    "elevateur",
    "porte_fermeture",
];

/// Maintenance contract codes: under contract, or not.
pub const MAINTENANCE_CONTRACTS: [&str; 2] = ["parc", "hors_parc"];

/// Longest equipment number.
pub const MAX_NUMBER_CHARS: usize = 60;
/// Longest text of the other identity fields.
pub const MAX_IDENTITY_CHARS: usize = 200;

/// Shaft widths measured at the pit, on the car roof and at the landings:
/// the smallest of them is the shaft's smallest dimension. The pit depth
/// (`gaine_profondeur_cuvette`) and the headroom (`gaine_reserve_tete`) are
/// vertical clearances, not a section of the shaft, and are not compared.
pub const SHAFT_WIDTH_CODES: [&str; 3] = [
    "gaine_largeur_cuvette",
    "gaine_largeur_toit_cabine",
    "gaine_largeur_paliers",
];

/// One identity field as sent: absent (None), erased (`Some(None)`: an
/// empty text or null) or set.
pub type FieldPatch = Option<Option<String>>;

/// A correction of the identity: only the given fields change.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IdentityPatch {
    pub number: FieldPatch,
    pub serial_number: FieldPatch,
    pub equipment_type: FieldPatch,
    pub subtype: FieldPatch,
    pub location: FieldPatch,
    pub maintenance_contract: FieldPatch,
    pub contract_number: FieldPatch,
    pub external_id: FieldPatch,
}

/// Trimmed; blank or null → None (erase); over `max` characters or a
/// control character → 422 (`domain::text::field`).
fn clean(name: &str, value: &Option<String>, max: usize) -> AppResult<Option<String>> {
    crate::domain::text::field(name, value.as_deref(), max).map_err(AppError::unprocessable)
}

fn one_of(name: &str, value: Option<String>, allowed: &[&str]) -> AppResult<Option<String>> {
    match value {
        Some(v) if !allowed.contains(&v.as_str()) => Err(AppError::unprocessable(
            crate::domain::text::not_allowed(name, &v, allowed),
        )),
        other => Ok(other),
    }
}

/// The identity fields, by their wire name (`PATCH /equipment/{id}/identity`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdentityField {
    Number,
    SerialNumber,
    Type,
    Subtype,
    Location,
    MaintenanceContract,
    ContractNumber,
    ExternalId,
}

impl IdentityField {
    pub const ALL: [IdentityField; 8] = [
        Self::Number,
        Self::SerialNumber,
        Self::Type,
        Self::Subtype,
        Self::Location,
        Self::MaintenanceContract,
        Self::ContractNumber,
        Self::ExternalId,
    ];

    /// The field's name on the wire.
    pub fn wire_name(self) -> &'static str {
        match self {
            Self::Number => "number",
            Self::SerialNumber => "serialNumber",
            Self::Type => "type",
            Self::Subtype => "subtype",
            Self::Location => "location",
            Self::MaintenanceContract => "maintenanceContract",
            Self::ContractNumber => "contractNumber",
            Self::ExternalId => "externalId",
        }
    }

    fn max_chars(self) -> usize {
        match self {
            Self::Number => MAX_NUMBER_CHARS,
            _ => MAX_IDENTITY_CHARS,
        }
    }

    /// The values allowed, for the fields that take a code.
    pub fn allowed(self) -> Option<&'static [&'static str]> {
        match self {
            Self::Type => Some(&EQUIPMENT_TYPES),
            Self::MaintenanceContract => Some(&MAINTENANCE_CONTRACTS),
            _ => None,
        }
    }

    /// The field's value in an identity.
    pub fn of(self, identity: &IdentityRow) -> &Option<String> {
        match self {
            Self::Number => &identity.number,
            Self::SerialNumber => &identity.serial_number,
            Self::Type => &identity.equipment_type,
            Self::Subtype => &identity.subtype,
            Self::Location => &identity.location,
            Self::MaintenanceContract => &identity.maintenance_contract,
            Self::ContractNumber => &identity.contract_number,
            Self::ExternalId => &identity.external_id,
        }
    }

    /// The field's value in an identity, to change it.
    pub fn of_mut(self, identity: &mut IdentityRow) -> &mut Option<String> {
        match self {
            Self::Number => &mut identity.number,
            Self::SerialNumber => &mut identity.serial_number,
            Self::Type => &mut identity.equipment_type,
            Self::Subtype => &mut identity.subtype,
            Self::Location => &mut identity.location,
            Self::MaintenanceContract => &mut identity.maintenance_contract,
            Self::ContractNumber => &mut identity.contract_number,
            Self::ExternalId => &mut identity.external_id,
        }
    }

    fn given(self, patch: &IdentityPatch) -> &FieldPatch {
        match self {
            Self::Number => &patch.number,
            Self::SerialNumber => &patch.serial_number,
            Self::Type => &patch.equipment_type,
            Self::Subtype => &patch.subtype,
            Self::Location => &patch.location,
            Self::MaintenanceContract => &patch.maintenance_contract,
            Self::ContractNumber => &patch.contract_number,
            Self::ExternalId => &patch.external_id,
        }
    }
}

/// One identity value checked by the field's rules: trimmed, blank or null
/// → None (erase), at most its length, no control character, a code among
/// the allowed ones (422 naming the field otherwise).
pub fn identity_value(field: IdentityField, value: &Option<String>) -> AppResult<Option<String>> {
    identity_value_named(field, field.wire_name(), value)
}

/// [`identity_value`], the refusal naming the field `name` (the import
/// names it by its French label, as the file's reader knows it).
pub fn identity_value_named(
    field: IdentityField,
    name: &str,
    value: &Option<String>,
) -> AppResult<Option<String>> {
    let value = clean(name, value, field.max_chars())?;
    match field.allowed() {
        Some(allowed) => one_of(name, value, allowed),
        None => Ok(value),
    }
}

/// Corrects the identity of an equipment of the agency: only the given fields
/// change, an empty text (or null) erases. `type` must be a known equipment
/// type, `maintenanceContract` `parc` or `hors_parc`, no text may hold a
/// control character (422); a number already used by another equipment of
/// the agency (spaces and case ignored) is refused (422). External identifiers
/// are not unique (the schema does not make them so): a lookup by external
/// identifier takes the oldest equipment. One audit entry lists the changed
/// fields (before and after); nothing is written when nothing changes. 404
/// when the equipment is not in the agency.
pub fn correct_identity(
    tx: &Tx,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
    patch: &IdentityPatch,
    actor: &Actor,
) -> AppResult<EquipmentRow> {
    let equipment = equipment_store::get(tx, agency_id, equipment_id)?
        .ok_or_else(|| AppError::not_found("Équipement introuvable."))?;
    let before = equipment.identity.clone();
    let mut after = before.clone();
    for field in IdentityField::ALL {
        if let Some(value) = field.given(patch) {
            *field.of_mut(&mut after) = identity_value(field, value)?;
        }
    }

    if let Some(number) = after.number.as_deref()
        && after.number != before.number
    {
        check_number_free(tx, agency_id, number, equipment_id)?;
    }
    let changes = identity_changes(&before, &after);
    if changes.is_empty() {
        return Ok(equipment);
    }
    equipment_store::update_identity(tx, equipment_id, &after)?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor,
            action: "correction_identite",
            object_type: "equipment",
            object_id: Some(equipment_id.as_str()),
            detail: Some(json!({ "changes": changes })),
        },
    )?;
    equipment_store::get(tx, agency_id, equipment_id)?
        .ok_or_else(|| AppError::not_found("Équipement introuvable."))
}

/// An equipment number no other equipment of the agency has (spaces and
/// case ignored): 422 otherwise.
pub fn check_number_free(
    conn: &Conn,
    agency_id: &AgencyId,
    number: &str,
    equipment_id: &EquipmentId,
) -> AppResult<()> {
    match equipment_store::number_used_by_other(conn, agency_id, number, equipment_id)? {
        Some(other) => Err(AppError::unprocessable(format!(
            "Le numéro « {number} » est déjà utilisé par un autre équipement de l'agence (« {other} ») : les espaces et la casse ne distinguent pas deux numéros."
        ))),
        None => Ok(()),
    }
}

/// `{wire name: {"before", "after"}}` for each field that changed.
fn identity_changes(before: &IdentityRow, after: &IdentityRow) -> Map<String, Value> {
    let pairs = [
        ("number", &before.number, &after.number),
        ("serialNumber", &before.serial_number, &after.serial_number),
        ("type", &before.equipment_type, &after.equipment_type),
        ("subtype", &before.subtype, &after.subtype),
        ("location", &before.location, &after.location),
        (
            "maintenanceContract",
            &before.maintenance_contract,
            &after.maintenance_contract,
        ),
        (
            "contractNumber",
            &before.contract_number,
            &after.contract_number,
        ),
        ("externalId", &before.external_id, &after.external_id),
    ];
    pairs
        .into_iter()
        .filter(|(_, old, new)| old != new)
        .map(|(name, old, new)| (name.to_owned(), json!({ "before": old, "after": new })))
        .collect()
}

/// The agency named by the `agency` parameter of the external operations:
/// absent or blank, the acting agency; else an agency of the caller's scope
/// given by its identifier (UUID) or by its V1 identifier (the identifier
/// the partner's software knows it by). Any other value is an agency outside
/// the scope: 403, as for `X-Service-Agency`.
pub fn external_agency(
    scope: &[AgencyRow],
    acting: Option<&AgencyRow>,
    requested: Option<&str>,
) -> AppResult<AgencyRow> {
    let requested = requested.map(str::trim).filter(|r| !r.is_empty());
    let Some(requested) = requested else {
        return acting.cloned().ok_or_else(|| {
            AppError::bad_request(
                "Indiquez l'agence avec le paramètre « agency » ou l'en-tête X-Service-Agency.",
            )
        });
    };
    let by_uuid = uuid::Uuid::parse_str(requested)
        .ok()
        .map(|id| id.hyphenated().to_string());
    scope
        .iter()
        .find(|a| {
            by_uuid.as_deref() == Some(a.id.as_str()) || a.v1_id.as_deref() == Some(requested)
        })
        .cloned()
        .ok_or_else(|| AppError::forbidden(Door::Rest.outside_scope()))
}

/// One page of the agency's equipment (`limit` rows from `offset`) whose
/// number, building name, address, address complement, postal code and city
/// hold every word of `search` (accents and case ignored), by number; and how
/// many match across all pages. No search: every equipment. `active_only`
/// leaves the archived ones out (a picker offers only what can be chosen).
pub fn search(
    conn: &Conn,
    agency_id: &AgencyId,
    search: Option<&str>,
    active_only: bool,
    limit: u32,
    offset: u64,
) -> AppResult<(i64, Vec<EquipmentRow>)> {
    let words: Vec<String> = search
        .map(|s| fold(s).split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    Ok(equipment_store::search(
        conn,
        agency_id,
        &words,
        active_only,
        limit,
        offset,
    )?)
}

/// The smallest shaft width measured on an equipment.
#[derive(Debug, Clone, PartialEq)]
pub struct ShaftDimension {
    pub code: String,
    pub label: String,
    /// The number as surveyed.
    pub value: Value,
    pub unit: Option<String>,
}

/// What `GET /external/equipment/data` shows of an equipment.
#[derive(Debug, Clone, PartialEq)]
pub struct ExternalData {
    pub equipment: EquipmentRow,
    pub knowledge_rate: f64,
    pub smallest_shaft_dimension: Option<ShaftDimension>,
    /// Every datum surveyed on the equipment, by catalog code, in catalog
    /// order; a datum never surveyed is absent.
    pub data: Vec<(String, Value)>,
}

/// The equipment of the agency found by its number (spaces and case ignored)
/// or, as the alternative, by its identifier in the partner's software (used
/// when no number is given or the number matches nothing). Neither given designates nothing: 404 with a reason
/// saying what to send (both parameters are optional in the description, so
/// a call without them is well formed). None when nothing matches.
pub fn external_data(
    conn: &Conn,
    agency_id: &AgencyId,
    number: Option<&str>,
    external_id: Option<&str>,
) -> AppResult<Option<ExternalData>> {
    let number = number.map(str::trim).filter(|n| !n.is_empty());
    let external_id = external_id.map(str::trim).filter(|n| !n.is_empty());
    if number.is_none() && external_id.is_none() {
        return Err(AppError::not_found(
            "Aucun équipement désigné : indiquez son numéro (« number ») ou son identifiant externe (« externalId »).",
        ));
    }
    // `externalId` is the alternative: used when no number is given, or when
    // the number matches nothing.
    let by_number = match number {
        Some(number) => equipment_store::find_by_number(conn, agency_id, number)?,
        None => None,
    };
    let found = match (by_number, external_id) {
        (Some(found), _) => Some(found),
        (None, Some(external_id)) => {
            equipment_store::find_by_external_id(conn, agency_id, external_id)?
        }
        (None, None) => None,
    };
    let Some(equipment) = found else {
        return Ok(None);
    };
    let catalog = technical_fields::all(conn)?;
    let data: Vec<(String, Value)> = equipment_store::values(conn, &equipment.id)?
        .into_iter()
        .map(|(code, text)| {
            let value = serde_json::from_str(&text).unwrap_or(Value::Null);
            (code, value)
        })
        .collect();
    let smallest_shaft_dimension = data
        .iter()
        .filter(|(code, _)| SHAFT_WIDTH_CODES.contains(&code.as_str()))
        .filter_map(|(code, value)| value.as_f64().map(|v| (code, v, value)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(code, _, value)| {
            let field = catalog.iter().find(|f| f.code == *code);
            ShaftDimension {
                code: code.clone(),
                label: field.map(|f| f.label.clone()).unwrap_or_default(),
                value: value.clone(),
                unit: field.and_then(|f| f.unit.clone()),
            }
        });
    let knowledge_rate =
        equipment_store::knowledge_rate(conn, agency_id, &equipment.id)?.unwrap_or(0.0);
    Ok(Some(ExternalData {
        equipment,
        knowledge_rate,
        smallest_shaft_dimension,
        data,
    }))
}

/// The equipment designated by its `number` or `external_id` in the agency
/// `agency` names (see [`external_agency`]; else the principal's), with its
/// data and that agency.
pub async fn external_data_for(
    store: &Store,
    p: &Principal,
    agency: Option<&str>,
    number: Option<String>,
    external_id: Option<String>,
) -> AppResult<(ExternalData, AgencyRow)> {
    let agency = external_agency(&p.scope, p.agency.as_ref(), agency)?;
    let agency_id = agency.id.clone();
    let found = store
        .read(move |conn| {
            external_data(conn, &agency_id, number.as_deref(), external_id.as_deref())
        })
        .await?
        .ok_or_else(|| AppError::not_found("Aucun équipement de l'agence ne correspond."))?;
    Ok((found, agency))
}

/// One page of the principal's agency's equipment matching `search` (see
/// [`search`]; trimmed, 400 beyond [`MAX_SEARCH_CHARS`](crate::services::search::MAX_SEARCH_CHARS) characters), and
/// how many match across all pages.
pub async fn search_page(
    store: &Store,
    p: &Principal,
    search_text: Option<&str>,
    limit: u32,
    offset: u64,
) -> AppResult<(i64, Vec<EquipmentRow>)> {
    let search_text = search_term(search_text)?;
    let agency_id = p.agency_id()?.to_owned();
    store
        .read(move |conn| {
            search(
                conn,
                &agency_id,
                search_text.as_deref(),
                false,
                limit,
                offset,
            )
        })
        .await
}

/// Corrects the identity of an equipment of the principal's agency (see
/// [`correct_identity`]).
pub async fn correct_identity_for(
    store: &Store,
    p: &Principal,
    equipment_id: &EquipmentId,
    patch: IdentityPatch,
) -> AppResult<EquipmentRow> {
    p.require(Capability::Change)?;
    let (agency_id, actor, id) = (
        p.agency_id()?.to_owned(),
        p.actor.clone(),
        equipment_id.to_owned(),
    );
    store
        .write(move |tx| correct_identity(tx, &agency_id, &id, &patch, &actor))
        .await
}

/// The equipment of the agency `agency` names (else the principal's, see
/// [`external_agency`]) that have no external identifier yet, and that agency.
pub async fn without_external_id_for(
    store: &Store,
    p: &Principal,
    agency: Option<&str>,
) -> AppResult<(Vec<EquipmentRow>, AgencyRow)> {
    let agency = external_agency(&p.scope, p.agency.as_ref(), agency)?;
    let agency_id = agency.id.clone();
    let rows = store
        .read(move |conn| equipment_store::without_external_id(conn, &agency_id))
        .await?;
    Ok((rows, agency))
}

// -- The equipment screen ---------------------------------------------------

/// Rows of each history list on the equipment's page.
pub const RECENT_ROWS: u32 = 10;
/// Calls read for downtime and repeat breakdowns (a safety bound).
pub const MAX_CALLS_READ: u32 = 2000;
/// Visits and calls in the logbook, each (the latest ones when there are more).
pub const MAX_LOGBOOK_ROWS: u32 = 2000;

/// What an equipment's page shows, read in one transaction.
#[derive(Debug)]
pub struct EquipmentPageData {
    pub equipment: EquipmentRow,
    /// The client's public identifier and name.
    pub client: Option<(String, String)>,
    pub catalog: Vec<technical_fields::CatalogField>,
    pub values: Vec<equipment_store::ValueRow>,
    pub knowledge_rate: f64,
    /// The calls of the downtime window (`domain::downtime`), oldest first.
    pub year_calls: Vec<crate::store::calls::EquipmentCallRow>,
    pub visits: (i64, Vec<crate::store::visits::EquipmentVisitRow>),
    pub calls: (i64, Vec<crate::store::calls::EquipmentCallRow>),
    pub surveys: (i64, Vec<crate::store::surveys::EquipmentSurveyRow>),
    pub quotes: (i64, Vec<crate::store::quotes::EquipmentQuoteRow>),
    /// When it was read, by the store's clock.
    pub now: chrono::DateTime<chrono::Utc>,
}

fn client_of(
    conn: &Conn,
    agency_id: &AgencyId,
    equipment: &EquipmentRow,
) -> AppResult<Option<(String, String)>> {
    Ok(match &equipment.client_id {
        Some(client_id) => equipment_store::client_ref_and_name(conn, agency_id, client_id)?,
        None => None,
    })
}

fn equipment_not_found() -> AppError {
    AppError::not_found("Équipement introuvable.")
}

/// The page of an equipment of the principal's agency (404 otherwise).
pub async fn page_data(
    store: &Store,
    p: &Principal,
    id: &EquipmentId,
) -> AppResult<EquipmentPageData> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), id.to_owned());
    let now = store.now();
    store
        .read(move |conn| {
            let equipment =
                equipment_store::get(conn, &agency_id, &id)?.ok_or_else(equipment_not_found)?;
            let since = crate::clock::format_timestamp(
                now - chrono::Duration::days(crate::domain::downtime::DOWNTIME_WINDOW_DAYS),
            );
            Ok(EquipmentPageData {
                client: client_of(conn, &agency_id, &equipment)?,
                catalog: technical_fields::all(conn)?,
                values: equipment_store::values_detailed(conn, &id)?,
                knowledge_rate: equipment_store::knowledge_rate(conn, &agency_id, &id)?
                    .unwrap_or(0.0),
                year_calls: crate::store::calls::of_equipment_since(
                    conn,
                    &agency_id,
                    &id,
                    &since,
                    MAX_CALLS_READ,
                )?,
                visits: crate::store::visits::recent_of_equipment(
                    conn,
                    &agency_id,
                    &id,
                    RECENT_ROWS,
                )?,
                calls: crate::store::calls::recent_of_equipment(
                    conn,
                    &agency_id,
                    &id,
                    RECENT_ROWS,
                )?,
                surveys: crate::store::surveys::recent_of_equipment(
                    conn,
                    &agency_id,
                    &id,
                    RECENT_ROWS,
                )?,
                quotes: crate::store::quotes::recent_of_equipment(
                    conn,
                    &agency_id,
                    &id,
                    RECENT_ROWS,
                )?,
                equipment,
                now,
            })
        })
        .await
}

/// What an equipment's maintenance logbook holds, read in one transaction.
#[derive(Debug)]
pub struct LogbookData {
    pub equipment: EquipmentRow,
    pub client: Option<(String, String)>,
    /// The visits carried out, at most [`MAX_LOGBOOK_ROWS`].
    pub visits: Vec<crate::store::visits::EquipmentVisitRow>,
    /// Every call since the beginning, at most [`MAX_LOGBOOK_ROWS`].
    pub calls: Vec<crate::store::calls::EquipmentCallRow>,
    pub now: chrono::DateTime<chrono::Utc>,
}

/// The logbook of an equipment of the principal's agency (404 otherwise).
pub async fn logbook_data(
    store: &Store,
    p: &Principal,
    id: &EquipmentId,
) -> AppResult<LogbookData> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), id.to_owned());
    let now = store.now();
    store
        .read(move |conn| {
            let equipment =
                equipment_store::get(conn, &agency_id, &id)?.ok_or_else(equipment_not_found)?;
            Ok(LogbookData {
                client: client_of(conn, &agency_id, &equipment)?,
                visits: crate::store::visits::carried_out_of_equipment(
                    conn,
                    &agency_id,
                    &id,
                    MAX_LOGBOOK_ROWS,
                )?,
                // "" sorts before any timestamp.
                calls: crate::store::calls::of_equipment_since(
                    conn,
                    &agency_id,
                    &id,
                    "",
                    MAX_LOGBOOK_ROWS,
                )?,
                equipment,
                now,
            })
        })
        .await
}

/// One page of the park of the principal's agency, filtered, and its total.
pub async fn park(
    store: &Store,
    p: &Principal,
    filter: equipment_store::ParkFilter,
    limit: u32,
    offset: u64,
) -> AppResult<(i64, Vec<equipment_store::ParkRow>)> {
    let agency_id = p.agency_id()?.to_owned();
    Ok(store
        .read(move |conn| equipment_store::park_page(conn, &agency_id, &filter, limit, offset))
        .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agency(id: &str, v1: Option<&str>) -> AgencyRow {
        AgencyRow {
            id: AgencyId::new(id),
            name: id.to_owned(),
            organization_id: crate::domain::id::OrganizationId::new("o"),
            organization_name: "O".to_owned(),
            v1_id: v1.map(str::to_owned),
        }
    }

    #[test]
    fn the_agency_parameter_reads_a_uuid_or_a_v1_identifier_within_the_scope() {
        let a = agency("0190a0a0-0000-7000-8000-000000000001", None);
        let b = agency("0190a0a0-0000-7000-8000-000000000002", Some("V1-42"));
        let scope = vec![a.clone(), b.clone()];
        let pick = |acting: Option<&AgencyRow>, requested: Option<&str>| {
            external_agency(&scope, acting, requested).map_err(|e| e.status().as_u16())
        };
        assert_eq!(pick(Some(&a), None), Ok(a.clone()));
        assert_eq!(pick(Some(&a), Some("  ")), Ok(a.clone()));
        assert_eq!(pick(Some(&a), Some("V1-42")), Ok(b.clone()));
        assert_eq!(
            pick(Some(&a), Some(&b.id.as_str().to_uppercase())),
            Ok(b.clone())
        );
        assert_eq!(pick(Some(&a), Some("v1-42")), Err(403));
        assert_eq!(
            pick(Some(&a), Some("0190a0a0-0000-7000-8000-000000000009")),
            Err(403)
        );
        assert_eq!(pick(None, None), Err(400));
    }

    #[test]
    fn identity_values_are_trimmed_bounded_and_checked() {
        assert_eq!(clean("n", &Some("  ".to_owned()), 5).ok(), Some(None));
        assert_eq!(clean("n", &None, 5).ok(), Some(None));
        assert_eq!(
            clean("n", &Some(" ab ".to_owned()), 5).ok(),
            Some(Some("ab".to_owned()))
        );
        assert!(clean("n", &Some("abcdef".to_owned()), 5).is_err());
        assert!(clean("n", &Some("a\u{0}b".to_owned()), 5).is_err());
        assert!(one_of("type", Some("fusée".to_owned()), &EQUIPMENT_TYPES).is_err());
        assert_eq!(one_of("type", None, &EQUIPMENT_TYPES).ok(), Some(None));
    }
}

/// Adds a building to the principal's agency: the address checked by
/// `domain::building::check` (422 naming the field), belonging to the client
/// of the agency `client_ref` names, if given (see `client_of_agency`). One
/// audit entry `immeuble.creation`. Returns the building.
pub async fn create_building(
    store: &Store,
    p: &Principal,
    input: crate::domain::building::BuildingInput,
    client_ref: Option<String>,
) -> AppResult<BuildingRow> {
    p.agency_id()?;
    p.require(Capability::Change)?;
    crate::domain::building::check(&input).map_err(AppError::unprocessable)?;
    let p = p.clone();
    store
        .write(move |tx| create_building_in(tx, &p, &input, client_ref.as_deref()))
        .await
}

/// [`create_building`]'s step in `tx`, at its time.
pub fn create_building_in(
    tx: &Tx,
    p: &Principal,
    input: &crate::domain::building::BuildingInput,
    client_ref: Option<&str>,
) -> AppResult<BuildingRow> {
    let agency_id = p.agency_id()?;
    p.require(Capability::Change)?;
    let checked = crate::domain::building::check(input).map_err(AppError::unprocessable)?;
    let client_id = client_of_agency(tx, agency_id, client_ref)?;
    let building = BuildingRow {
        id: BuildingId::new(crate::store::new_id()),
        name: checked.name,
        address: checked.address,
        address_complement: checked.address_complement,
        postal_code: checked.postal_code,
        city: checked.city,
    };
    equipment_store::insert_building(tx, agency_id, client_id.as_ref(), &building)?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor: &p.actor,
            action: "immeuble.creation",
            object_type: "building",
            object_id: Some(building.id.as_str()),
            detail: Some(json!({
                "name": building.name,
                "address": building.address,
                "addressComplement": building.address_complement,
                "postalCode": building.postal_code,
                "city": building.city,
                "clientId": client_id,
            })),
        },
    )?;
    Ok(building)
}

/// Sets how a technician gets into a building of the principal's agency:
/// its access instructions checked by `domain::building::check_access`
/// (« accessInstructions », « accessOther » in the refusals), each text
/// bounded as a field a person types. One audit entry `immeuble.acces`.
/// 404 for a building outside the agency.
pub fn set_building_access_in(
    tx: &Tx,
    p: &Principal,
    building_id: &BuildingId,
    input: &crate::domain::building::AccessInput,
) -> AppResult<()> {
    use crate::domain::building::{AccessNames, MAX_TEXT_CHARS, check_access};
    let agency_id = p.agency_id()?;
    p.require(Capability::Change)?;
    for (name, value) in [
        ("accessOther", &input.other),
        ("digicode", &input.digicode),
        ("keyBox", &input.key_box),
    ] {
        crate::domain::text::field(name, value.as_deref(), MAX_TEXT_CHARS)
            .map_err(AppError::unprocessable)?;
    }
    let access = check_access(
        input,
        &AccessNames {
            instructions: "accessInstructions",
            other: "accessOther",
        },
    )
    .map_err(AppError::unprocessable)?;
    equipment_store::building(tx, agency_id, building_id)?
        .ok_or_else(|| AppError::not_found("Immeuble introuvable."))?;
    equipment_store::set_access(tx, building_id, &access)?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor: &p.actor,
            action: "immeuble.acces",
            object_type: "building",
            object_id: Some(building_id.as_str()),
            detail: Some(json!({
                "accessInstructions": access.instructions,
                "accessOther": access.other,
                "digicode": access.digicode.is_some(),
                "keyBox": access.key_box.is_some(),
            })),
        },
    )?;
    Ok(())
}

/// A new equipment as given: its identity (wire names of
/// `PATCH /equipment/{id}/identity`), its building and its client (by the
/// reference the APIs name it with, « clientId », as invoices do).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NewEquipment {
    pub identity: IdentityRow,
    pub building_id: Option<String>,
    pub client_ref: Option<String>,
}

/// Adds an equipment to the principal's agency: a number no other equipment
/// of the agency has (spaces and case ignored), every identity field checked
/// as a correction checks it, a building and a client of the agency when
/// given (422 naming the field otherwise). One audit entry
/// `equipement.creation`. Returns the equipment as the APIs show it.
pub async fn create(store: &Store, p: &Principal, input: NewEquipment) -> AppResult<EquipmentRow> {
    create_with_interval(store, p, input, None).await
}

/// Every identity field of a new equipment checked, its number required.
fn checked_identity(given: &IdentityRow) -> AppResult<IdentityRow> {
    let mut identity = IdentityRow::default();
    for field in IdentityField::ALL {
        *field.of_mut(&mut identity) = identity_value(field, field.of(given))?;
    }
    if identity.number.is_none() {
        return Err(AppError::unprocessable(
            "Le champ « number » est obligatoire.",
        ));
    }
    Ok(identity)
}

/// [`create`]'s step in `tx`, at its time.
pub fn create_in(tx: &Tx, p: &Principal, input: &NewEquipment) -> AppResult<EquipmentRow> {
    let agency_id = p.agency_id()?;
    p.require(Capability::Change)?;
    let identity = checked_identity(&input.identity)?;
    let id = EquipmentId::new(crate::store::new_id());
    if let Some(number) = identity.number.as_deref() {
        check_number_free(tx, agency_id, number, &id)?;
    }
    let client_id = client_of_agency(tx, agency_id, input.client_ref.as_deref())?;
    let building_id = match non_blank(input.building_id.as_deref()) {
        None => None,
        Some(building) => Some(
            equipment_store::building(tx, agency_id, &BuildingId::new(building))?
                .ok_or_else(|| {
                    AppError::unprocessable(format!(
                        "Le champ « buildingId » ne désigne aucun immeuble de l'agence : « {building} »."
                    ))
                })?
                .id,
        ),
    };
    equipment_store::insert(
        tx,
        agency_id,
        &id,
        &identity,
        building_id.as_ref(),
        client_id.as_ref(),
    )?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor: &p.actor,
            action: "equipement.creation",
            object_type: "equipment",
            object_id: Some(id.as_str()),
            detail: Some(json!({
                "number": identity.number,
                "type": identity.equipment_type,
                "maintenanceContract": identity.maintenance_contract,
                "buildingId": building_id,
                "clientId": client_id,
            })),
        },
    )?;
    equipment_store::get(tx, agency_id, &id)?
        .ok_or_else(|| AppError::not_found("Équipement introuvable."))
}

fn non_blank(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

/// The client of the agency whose reference is `client_ref` (« clientId »,
/// as the invoices and the partner API name it): its id; None when not
/// given; 422 naming the field when the agency has no such client, or when
/// it is archived.
fn client_of_agency(
    conn: &Conn,
    agency_id: &AgencyId,
    client_ref: Option<&str>,
) -> AppResult<Option<ClientId>> {
    let Some(client_ref) = non_blank(client_ref) else {
        return Ok(None);
    };
    let client =
        crate::store::clients::find_by_ref(conn, agency_id, client_ref)?.ok_or_else(|| {
            AppError::unprocessable(format!(
                "Le champ « clientId » ne désigne aucun client de l'agence : « {client_ref} »."
            ))
        })?;
    if client.supprime {
        return Err(AppError::unprocessable(format!(
            "Le client « {} » est archivé : on ne lui rattache plus d'immeuble ni d'équipement.",
            client.nom
        )));
    }
    Ok(Some(client.id))
}

/// Moves the equipment `id` of the principal's agency to the client
/// `client_ref` of the agency (a new syndic, a new owner): its history
/// (visits, calls, quotes, invoices already made) stays as it was, what
/// comes next is the new client's. The same client again changes nothing.
/// One audit entry `equipement.client` with the clients before and after.
/// 404 for another agency's equipment; 422 for a client unknown in the
/// agency, archived, or none given.
pub async fn move_to_client(
    store: &Store,
    p: &Principal,
    id: EquipmentId,
    client_ref: String,
) -> AppResult<EquipmentRow> {
    p.agency_id()?;
    p.require(Capability::Change)?;
    let p = p.clone();
    store
        .write(move |tx| {
            let agency_id = p.agency_id()?;
            let equipment =
                equipment_store::get(tx, agency_id, &id)?.ok_or_else(equipment_not_found)?;
            let Some(client_id) = client_of_agency(tx, agency_id, Some(&client_ref))? else {
                return Err(AppError::unprocessable(
                    "Le champ « clientId » est obligatoire.",
                ));
            };
            if equipment.client_id.as_ref() != Some(&client_id) {
                let before = client_of(tx, agency_id, &equipment)?;
                equipment_store::set_client(tx, &id, &client_id)?;
                audit::record(
                    tx,
                    AuditEntry {
                        agency_id: Some(agency_id.as_str()),
                        actor: &p.actor,
                        action: "equipement.client",
                        object_type: "equipment",
                        object_id: Some(id.as_str()),
                        detail: Some(json!({
                            "before": before.map(|(reference, _)| reference),
                            "after": client_ref.trim(),
                        })),
                    },
                )?;
            }
            equipment_store::get(tx, agency_id, &id)?.ok_or_else(equipment_not_found)
        })
        .await
}

/// [`create`], and the days between two of its visits when given (an
/// administrator's choice, as `planning::set_interval`: a member naming it
/// is refused, nothing created), in one transaction.
pub async fn create_with_interval(
    store: &Store,
    p: &Principal,
    input: NewEquipment,
    visit_interval_days: Option<i64>,
) -> AppResult<EquipmentRow> {
    p.agency_id()?;
    p.require(Capability::Change)?;
    checked_identity(&input.identity)?;
    let p = p.clone();
    store
        .write(move |tx| {
            let row = create_in(tx, &p, &input)?;
            if let Some(days) = visit_interval_days {
                crate::services::planning::set_interval_in(tx, &p, &row.id, days, tx.now())?;
            }
            Ok(row)
        })
        .await
}

/// Takes the equipment `id` of the principal's agency out of the park
/// (administrators): it leaves the park list, the maintenance plan and the
/// park's knowledge rate, takes no new call or visit, and keeps its
/// history; its visits planned and not started are called off (each with
/// its audit entry `annulation`). Refused (422) while a call on it is not
/// resolved or a visit is in progress; 409 when already archived. One
/// audit entry `equipement.archivage`.
pub async fn archive(store: &Store, p: &Principal, id: EquipmentId) -> AppResult<EquipmentRow> {
    p.agency_id()?;
    p.require(Capability::Change)?;
    p.require(Capability::Administer("Archiver un équipement"))?;
    let p = p.clone();
    store
        .write(move |tx| {
            let agency_id = p.agency_id()?;
            let equipment =
                equipment_store::get(tx, agency_id, &id)?.ok_or_else(equipment_not_found)?;
            let number = equipment.identity.number.clone().unwrap_or_default();
            if equipment.archived_at.is_some() {
                return Err(AppError::conflict(format!(
                    "L'équipement « {number} » est déjà archivé."
                )));
            }
            let (calls, visits) = equipment_store::open_work(tx, &id)?;
            if calls > 0 || visits > 0 {
                let mut open = Vec::new();
                if calls > 0 {
                    open.push(format!(
                        "{calls} appel{} en cours",
                        if calls > 1 { "s" } else { "" }
                    ));
                }
                if visits > 0 {
                    open.push(format!(
                        "{visits} visite{} en cours",
                        if visits > 1 { "s" } else { "" }
                    ));
                }
                return Err(AppError::unprocessable(format!(
                    "L'équipement « {number} » a encore {} : résolvez les appels et terminez les visites avant de l'archiver.",
                    open.join(" et ")
                )));
            }
            let called_off = equipment_store::remove_planned_visits(tx, &id)?;
            for (visit_id, planned_for) in &called_off {
                p.record(
                    tx,
                    "visit",
                    visit_id,
                    "annulation",
                    json!({ "plannedFor": planned_for, "equipmentId": id, "reason": "équipement archivé" }),
                )?;
            }
            equipment_store::set_archived(tx, &id, Some(&tx.now_text()))?;
            p.record(
                tx,
                "equipment",
                id.as_str(),
                "equipement.archivage",
                json!({ "number": number, "plannedVisitsCalledOff": called_off.len() }),
            )?;
            equipment_store::get(tx, agency_id, &id)?.ok_or_else(equipment_not_found)
        })
        .await
}

/// Puts an archived equipment of the principal's agency back in the park
/// (administrators); 409 when it is not archived. One audit entry
/// `equipement.reactivation`.
pub async fn restore(store: &Store, p: &Principal, id: EquipmentId) -> AppResult<EquipmentRow> {
    p.agency_id()?;
    p.require(Capability::Change)?;
    p.require(Capability::Administer(
        "Remettre un équipement dans le parc",
    ))?;
    let p = p.clone();
    store
        .write(move |tx| {
            let agency_id = p.agency_id()?;
            let equipment =
                equipment_store::get(tx, agency_id, &id)?.ok_or_else(equipment_not_found)?;
            let number = equipment.identity.number.clone().unwrap_or_default();
            if equipment.archived_at.is_none() {
                return Err(AppError::conflict(format!(
                    "L'équipement « {number} » n'est pas archivé."
                )));
            }
            equipment_store::set_archived(tx, &id, None)?;
            p.record(
                tx,
                "equipment",
                id.as_str(),
                "equipement.reactivation",
                json!({ "number": number }),
            )?;
            equipment_store::get(tx, agency_id, &id)?.ok_or_else(equipment_not_found)
        })
        .await
}

/// The refusal of new work (a call, a visit) on an archived equipment.
pub fn archived_refusal(number: Option<&str>) -> AppError {
    AppError::unprocessable(format!(
        "L'équipement « {} » est archivé : il ne fait plus partie du parc de l'agence (un administrateur peut l'y remettre depuis sa fiche).",
        number.unwrap_or_default()
    ))
}
