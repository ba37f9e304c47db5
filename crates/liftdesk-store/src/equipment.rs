//! Equipment and its surveyed technical data.

use crate::Conn;
use crate::Tx;
use crate::sql::{OptionalExtension, Value, params, params_from_iter};
use liftdesk_domain::id::{AgencyId, BuildingId, ClientId, EquipmentId, SurveyId};

use super::StoreResult;
use liftdesk_domain::building::AccessRecord;
use liftdesk_domain::knowledge;

/// Catalog fields that apply to an equipment of type `?1` (NULL `applies_to`: every type).
const APPLIES_TO_TYPE: &str =
    "(f.applies_to IS NULL OR (',' || f.applies_to || ',') LIKE ('%,' || ?1 || ',%'))";

/// The knowledge rate (`taux_connaissance`) of an equipment of the agency:
/// surveyed catalog fields over the catalog fields that apply to its type, in
/// percent. None when the equipment is not in that agency.
pub fn knowledge_rate(
    conn: &Conn,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
) -> StoreResult<Option<f64>> {
    let equipment_id = equipment_id.as_str();
    let agency_id = agency_id.as_str();
    let equipment_type: Option<Option<String>> = conn
        .query_row_cached(
            "SELECT type FROM equipment WHERE id = ?1 AND agency_id = ?2",
            [equipment_id, agency_id],
            |r| r.get(0),
        )
        .optional()?;
    let Some(equipment_type) = equipment_type else {
        return Ok(None);
    };
    let equipment_type = equipment_type.unwrap_or_default();
    let catalog: i64 = conn.query_row_cached(
        &format!("SELECT COUNT(*) FROM technical_fields f WHERE {APPLIES_TO_TYPE}"),
        [&equipment_type],
        |r| r.get(0),
    )?;
    let surveyed: i64 = conn.query_row_cached(
        &format!(
            "SELECT COUNT(*) FROM equipment_values v JOIN technical_fields f ON f.code = v.field_code
             WHERE v.equipment_id = ?2 AND {APPLIES_TO_TYPE}"
        ),
        [&equipment_type, equipment_id],
        |r| r.get(0),
    )?;
    // COUNT(*) is never negative.
    let as_count = |n: i64| usize::try_from(n).unwrap_or(0);
    Ok(Some(knowledge::knowledge_rate(
        as_count(surveyed),
        as_count(catalog),
    )))
}

/// The identity of an equipment: the fields `PATCH /equipment/{id}/identity` corrects.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IdentityRow {
    pub number: Option<String>,
    pub serial_number: Option<String>,
    pub equipment_type: Option<String>,
    pub subtype: Option<String>,
    pub location: Option<String>,
    pub maintenance_contract: Option<String>,
    pub contract_number: Option<String>,
    pub external_id: Option<String>,
}

/// An equipment of an agency with its building, as the APIs show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EquipmentRow {
    pub id: EquipmentId,
    pub agency_id: String,
    pub building_id: Option<BuildingId>,
    pub client_id: Option<ClientId>,
    pub identity: IdentityRow,
    pub building: Option<BuildingRow>,
    /// When it was archived (it left the park); None while in the park.
    pub archived_at: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildingRow {
    pub id: BuildingId,
    pub name: Option<String>,
    pub address: String,
    pub address_complement: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
}

pub(crate) const EQUIPMENT_COLUMNS: &str =
    "e.id, e.agency_id, e.building_id, e.client_id, e.number, e.serial_number, e.type,
     e.subtype, e.location, e.maintenance_contract, e.contract_number, e.external_id,
     b.id, b.name, b.address, b.address_complement, b.postal_code, b.city, e.archived_at";

/// How many columns [`EQUIPMENT_COLUMNS`] has: a query reading more after
/// them starts there.
pub(crate) const EQUIPMENT_COLUMN_COUNT: usize = 19;

pub(crate) const EQUIPMENT_FROM: &str = "equipment e LEFT JOIN buildings b ON b.id = e.building_id";

pub(crate) fn equipment_from_row(r: &crate::sql::Row<'_>) -> crate::StoreResult<EquipmentRow> {
    let building_id: Option<BuildingId> = r.get(12)?;
    let building = match building_id {
        Some(id) => Some(BuildingRow {
            id,
            name: r.get(13)?,
            address: r.get(14)?,
            address_complement: r.get(15)?,
            postal_code: r.get(16)?,
            city: r.get(17)?,
        }),
        None => None,
    };
    Ok(EquipmentRow {
        id: r.get(0)?,
        agency_id: r.get(1)?,
        building_id: r.get(2)?,
        client_id: r.get(3)?,
        identity: IdentityRow {
            number: r.get(4)?,
            serial_number: r.get(5)?,
            equipment_type: r.get(6)?,
            subtype: r.get(7)?,
            location: r.get(8)?,
            maintenance_contract: r.get(9)?,
            contract_number: r.get(10)?,
            external_id: r.get(11)?,
        },
        building,
        archived_at: r.get(18)?,
    })
}

/// An equipment of the agency (None when unknown or in another agency).
pub fn get(
    conn: &Conn,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
) -> StoreResult<Option<EquipmentRow>> {
    let equipment_id = equipment_id.as_str();
    let agency_id = agency_id.as_str();
    conn.query_row_cached(
        &format!(
            "SELECT {EQUIPMENT_COLUMNS} FROM {EQUIPMENT_FROM} WHERE e.id = ?1 AND e.agency_id = ?2"
        ),
        [equipment_id, agency_id],
        equipment_from_row,
    )
    .optional()
}

/// The equipment of the agency whose number matches, ignoring spaces and
/// case (the `number_key` column, unique per agency).
pub fn find_by_number(
    conn: &Conn,
    agency_id: &AgencyId,
    number: &str,
) -> StoreResult<Option<EquipmentRow>> {
    let agency_id = agency_id.as_str();
    conn.prepare_cached(&format!(
        "SELECT {EQUIPMENT_COLUMNS} FROM {EQUIPMENT_FROM}
                 WHERE e.agency_id = ?1 AND e.number_key = ?2"
    ))?
    .query_row([agency_id, &number_key(number)], equipment_from_row)
    .optional()
}

/// The equipment of the agency with that identifier in the partner's
/// software (the first one created, should two share it).
pub fn find_by_external_id(
    conn: &Conn,
    agency_id: &AgencyId,
    external_id: &str,
) -> StoreResult<Option<EquipmentRow>> {
    let agency_id = agency_id.as_str();
    conn.prepare_cached(&format!(
        "SELECT {EQUIPMENT_COLUMNS} FROM {EQUIPMENT_FROM}
                 WHERE e.agency_id = ?1 AND e.external_id = ?2 ORDER BY e.created_at, e.id LIMIT 1"
    ))?
    .query_row([agency_id, external_id], equipment_from_row)
    .optional()
}

/// The `number_key` of `number`, as the generated column computes it
/// (`lower(replace(replace(number, ' ', ''), char(9), ''))`: `lower` of
/// both engines changes ASCII letters only). Given as a plain parameter, so
/// that PostgreSQL's generic plan finds it in the unique index (it does not
/// for the same expression of a parameter).
pub(crate) fn number_key(number: &str) -> String {
    number
        .chars()
        .filter(|c| !matches!(c, ' ' | '\t'))
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Another equipment of the agency whose number has the same key as `number`
/// (spaces and case ignored): its number, if any.
pub fn number_used_by_other(
    conn: &Conn,
    agency_id: &AgencyId,
    number: &str,
    equipment_id: &EquipmentId,
) -> StoreResult<Option<String>> {
    let equipment_id = equipment_id.as_str();
    let agency_id = agency_id.as_str();
    conn.prepare_cached(
        "SELECT number FROM equipment
                 WHERE agency_id = ?1 AND number_key = ?2 AND id <> ?3",
    )?
    .query_row(
        [agency_id, number_key(number).as_str(), equipment_id],
        |r| r.get(0),
    )
    .optional()
}

/// Writes the whole identity of an equipment.
pub fn update_identity(
    tx: &Tx,
    equipment_id: &EquipmentId,
    identity: &IdentityRow,
) -> StoreResult<()> {
    let equipment_id = equipment_id.as_str();
    tx.prepare_cached(
        "UPDATE equipment SET number = ?2, serial_number = ?3, type = ?4, subtype = ?5, location = ?6,
                maintenance_contract = ?7, contract_number = ?8, external_id = ?9, updated_at = ?10
         WHERE id = ?1",
    )?
    .execute(params![
            equipment_id,
            identity.number,
            identity.serial_number,
            identity.equipment_type,
            identity.subtype,
            identity.location,
            identity.maintenance_contract,
            identity.contract_number,
            identity.external_id,
            tx.now_text(),
        ])?;
    Ok(())
}

/// Sets the maintenance contract (`parc`, `hors_parc` or NULL).
pub fn set_maintenance_contract(
    tx: &Tx,
    equipment_id: &EquipmentId,
    contract: Option<&str>,
) -> StoreResult<()> {
    let equipment_id = equipment_id.as_str();
    tx.execute_cached(
        "UPDATE equipment SET maintenance_contract = ?2, updated_at = ?3 WHERE id = ?1",
        params![equipment_id, contract, tx.now_text()],
    )?;
    Ok(())
}

/// Marks the equipment as changed (its technical data were written).
pub fn touch(tx: &Tx, equipment_id: &EquipmentId) -> StoreResult<()> {
    let equipment_id = equipment_id.as_str();
    tx.execute_cached(
        "UPDATE equipment SET updated_at = ?2 WHERE id = ?1",
        params![equipment_id, tx.now_text()],
    )?;
    Ok(())
}

/// The current technical data of an equipment: (field code, JSON text), in
/// catalog order.
pub fn values(conn: &Conn, equipment_id: &EquipmentId) -> StoreResult<Vec<(String, String)>> {
    let equipment_id = equipment_id.as_str();
    let mut stmt = conn.prepare_cached(
        "SELECT v.field_code, v.value FROM equipment_values v
         JOIN technical_fields f ON f.code = v.field_code
         WHERE v.equipment_id = ?1 ORDER BY f.position, f.code",
    )?;
    let rows = stmt.query_map([equipment_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect::<Result<_, _>>()
}

/// Records a datum entered outside any survey (`survey_id` NULL), now.
pub fn set_value(
    tx: &Tx,
    equipment_id: &EquipmentId,
    field_code: &str,
    json_value: &str,
) -> StoreResult<()> {
    let equipment_id = equipment_id.as_str();
    tx.prepare_cached(
        "INSERT INTO equipment_values (equipment_id, field_code, value, survey_id, surveyed_at)
         VALUES (?1, ?2, ?3, NULL, ?4)
         ON CONFLICT (equipment_id, field_code)
         DO UPDATE SET value = excluded.value, survey_id = NULL, surveyed_at = excluded.surveyed_at",
    )?
    .execute(params![equipment_id, field_code, json_value, tx.now_text()])?;
    Ok(())
}

/// Copies every datum a survey collected into the equipment's current data,
/// as recorded by that survey at `surveyed_at` (a datum already there is
/// replaced; the others are kept). Returns the number of data copied.
pub fn record_survey_values(
    tx: &Tx,
    equipment_id: &EquipmentId,
    survey_id: &SurveyId,
    surveyed_at: &str,
) -> StoreResult<usize> {
    let survey_id = survey_id.as_str();
    let equipment_id = equipment_id.as_str();
    tx.execute_cached(
        "INSERT INTO equipment_values (equipment_id, field_code, value, survey_id, surveyed_at)
         SELECT ?1, field_code, value, survey_id, ?3 FROM survey_values WHERE survey_id = ?2
         ON CONFLICT (equipment_id, field_code)
         DO UPDATE SET value = excluded.value, survey_id = excluded.survey_id,
                       surveyed_at = excluded.surveyed_at",
        params![equipment_id, survey_id, surveyed_at],
    )
}

/// Erases a datum: it is then "never surveyed" again.
pub fn delete_value(tx: &Tx, equipment_id: &EquipmentId, field_code: &str) -> StoreResult<()> {
    let equipment_id = equipment_id.as_str();
    tx.execute_cached(
        "DELETE FROM equipment_values WHERE equipment_id = ?1 AND field_code = ?2",
        params![equipment_id, field_code],
    )?;
    Ok(())
}

/// The building's name, address, address complement, postal code and city.
pub fn update_building(tx: &Tx, building: &BuildingRow) -> StoreResult<()> {
    tx.prepare_cached(
        "UPDATE buildings SET name = ?2, address = ?3, address_complement = ?4, postal_code = ?5,
             city = ?6, updated_at = ?7
         WHERE id = ?1",
    )?
    .execute(params![
        building.id,
        building.name,
        building.address,
        building.address_complement,
        building.postal_code,
        building.city,
        tx.now_text()
    ])?;
    Ok(())
}

/// Every building of the agency, oldest first.
pub fn buildings_of_agency(conn: &Conn, agency_id: &AgencyId) -> StoreResult<Vec<BuildingRow>> {
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare(
        "SELECT id, name, address, address_complement, postal_code, city FROM buildings
         WHERE agency_id = ?1 ORDER BY created_at, id",
    )?;
    let rows = stmt.query_map([agency_id], |r| {
        Ok(BuildingRow {
            id: r.get(0)?,
            name: r.get(1)?,
            address: r.get(2)?,
            address_complement: r.get(3)?,
            postal_code: r.get(4)?,
            city: r.get(5)?,
        })
    })?;
    rows.collect::<Result<_, _>>()
}

/// The building `id` of the agency (None when unknown or in another agency).
pub fn building(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &BuildingId,
) -> StoreResult<Option<BuildingRow>> {
    conn.query_row_cached(
        "SELECT id, name, address, address_complement, postal_code, city FROM buildings
         WHERE id = ?1 AND agency_id = ?2",
        params![id, agency_id],
        |r| {
            Ok(BuildingRow {
                id: r.get(0)?,
                name: r.get(1)?,
                address: r.get(2)?,
                address_complement: r.get(3)?,
                postal_code: r.get(4)?,
                city: r.get(5)?,
            })
        },
    )
    .optional()
}

/// A new building of the agency (the equipment are attached separately).
pub fn insert_building(
    tx: &Tx,
    agency_id: &AgencyId,
    client_id: Option<&ClientId>,
    building: &BuildingRow,
) -> StoreResult<()> {
    let agency_id = agency_id.as_str();
    let now = tx.now_text();
    tx.prepare_cached(
        "INSERT INTO buildings (id, agency_id, client_id, name, address, address_complement,
             postal_code, city, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",
    )?
    .execute(params![
        building.id,
        agency_id,
        client_id,
        building.name,
        building.address,
        building.address_complement,
        building.postal_code,
        building.city,
        now
    ])?;
    Ok(())
}

/// A new equipment of the agency with its whole identity, building and
/// client (ids given).
pub fn insert(
    tx: &Tx,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
    identity: &IdentityRow,
    building_id: Option<&BuildingId>,
    client_id: Option<&ClientId>,
) -> StoreResult<()> {
    let equipment_id = equipment_id.as_str();
    let agency_id = agency_id.as_str();
    let now = tx.now_text();
    tx.prepare_cached(
        "INSERT INTO equipment (id, agency_id, building_id, client_id, number, serial_number, type,
             subtype, location, maintenance_contract, contract_number, external_id, created_at,
             updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13)",
    )?
    .execute(params![
        equipment_id,
        agency_id,
        building_id,
        client_id,
        identity.number,
        identity.serial_number,
        identity.equipment_type,
        identity.subtype,
        identity.location,
        identity.maintenance_contract,
        identity.contract_number,
        identity.external_id,
        now
    ])?;
    Ok(())
}

/// Attaches the equipment to a building of its agency.
pub fn set_building(
    tx: &Tx,
    equipment_id: &EquipmentId,
    building_id: &BuildingId,
) -> StoreResult<()> {
    let equipment_id = equipment_id.as_str();
    tx.prepare_cached("UPDATE equipment SET building_id = ?2, updated_at = ?3 WHERE id = ?1")?
        .execute(params![equipment_id, building_id, tx.now_text()])?;
    Ok(())
}

/// A new building of the agency for an equipment that had none, attached to it.
pub fn create_building_for(
    tx: &Tx,
    agency_id: &AgencyId,
    equipment: &EquipmentRow,
    building: &BuildingRow,
) -> StoreResult<()> {
    let agency_id = agency_id.as_str();
    let now = tx.now_text();
    tx.execute_cached(
        "INSERT INTO buildings (id, agency_id, client_id, name, address, address_complement, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
        params![
            building.id,
            agency_id,
            equipment.client_id,
            building.name,
            building.address,
            building.address_complement,
            now
        ],
    )?;
    tx.execute_cached(
        "UPDATE equipment SET building_id = ?2, updated_at = ?3 WHERE id = ?1",
        params![equipment.id, building.id, now],
    )?;
    Ok(())
}

/// Equipment of the agency under contract (`parc`), numbered, without an
/// identifier in the partner's software, by number.
pub fn without_external_id(conn: &Conn, agency_id: &AgencyId) -> StoreResult<Vec<EquipmentRow>> {
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {EQUIPMENT_COLUMNS} FROM {EQUIPMENT_FROM}
         WHERE e.agency_id = ?1 AND e.maintenance_contract = 'parc'
           AND e.number IS NOT NULL AND e.external_id IS NULL
         ORDER BY e.number_key, e.id"
    ))?;
    let rows = stmt.query_map([agency_id], equipment_from_row)?;
    rows.collect::<Result<_, _>>()
}

/// Every equipment of the agency, by number (`number_key`; the unnumbered
/// last), then id.
pub fn of_agency(conn: &Conn, agency_id: &AgencyId) -> StoreResult<Vec<EquipmentRow>> {
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {EQUIPMENT_COLUMNS} FROM {EQUIPMENT_FROM}
         WHERE e.agency_id = ?1
         ORDER BY e.number_key IS NULL, e.number_key, e.id"
    ))?;
    let rows = stmt.query_map([agency_id], equipment_from_row)?;
    rows.collect::<Result<_, _>>()
}

/// What the equipment search looks into, folded by the SQL function `FOLD`
/// (the same folding as `text::fold`): number, building name, address,
/// complement, postal code and city, separated by spaces.
const SEARCHED_TEXT: &str = "FOLD(coalesce(e.number, '') || CASE WHEN b.id IS NULL THEN ''
     ELSE ' ' || coalesce(b.name, '') || ' ' || b.address || ' ' || coalesce(b.address_complement, '')
          || ' ' || coalesce(b.postal_code, '') || ' ' || coalesce(b.city, '') END)";

/// One page of the agency's equipment (`limit` rows from `offset`) whose
/// searched text holds every one of `words` (already folded, no spaces), by
/// number; and how many match across all pages. The words are matched in
/// SQL as the agency's rows are read, so only the page is built in Rust;
/// the total comes with the page (a window count), read apart only when the
/// page is past the end.
pub fn search(
    conn: &Conn,
    agency_id: &AgencyId,
    words: &[String],
    active_only: bool,
    limit: u32,
    offset: u64,
) -> StoreResult<(i64, Vec<EquipmentRow>)> {
    let agency_id = agency_id.as_str();
    let mut condition = String::from("e.agency_id = ?");
    if active_only {
        condition.push_str(" AND e.archived_at IS NULL");
    }
    for _ in words {
        condition.push_str(&format!(" AND instr({SEARCHED_TEXT}, ?) > 0"));
    }
    let mut values: Vec<crate::sql::Value> = vec![crate::sql::Value::Text(agency_id.to_owned())];
    values.extend(words.iter().cloned().map(crate::sql::Value::Text));
    let mut page_values = values.clone();
    page_values.push(crate::sql::Value::Integer(i64::from(limit)));
    page_values.push(crate::sql::Value::Integer(
        i64::try_from(offset).unwrap_or(i64::MAX),
    ));
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {EQUIPMENT_COLUMNS}, COUNT(*) OVER () FROM {EQUIPMENT_FROM}
         WHERE {condition}
         ORDER BY e.number_key IS NULL, e.number_key, e.id
         LIMIT ? OFFSET ?"
    ))?;
    let mut total = None;
    let rows = stmt
        .query_map(crate::sql::params_from_iter(page_values.iter()), |r| {
            Ok((
                equipment_from_row(r)?,
                r.get::<i64>(EQUIPMENT_COLUMN_COUNT)?,
            ))
        })?
        .map(|row| {
            row.map(|(equipment, count)| {
                total = Some(count);
                equipment
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let total = match total {
        Some(total) => total,
        None => conn
            .prepare_cached(&format!(
                "SELECT COUNT(*) FROM {EQUIPMENT_FROM} WHERE {condition}"
            ))?
            .query_row(crate::sql::params_from_iter(values.iter()), |r| r.get(0))?,
    };
    Ok((total, rows))
}

// -- Partner workflow API ----------------------------------------------------

/// A new equipment of the agency known only by its number (and client):
/// `/create_survey` adds unknown numbers to the park. Its id.
pub fn insert_numbered(
    tx: &Tx,
    agency_id: &AgencyId,
    number: &str,
    client_id: Option<&ClientId>,
) -> StoreResult<EquipmentId> {
    let agency_id = agency_id.as_str();
    let id = EquipmentId::new(crate::new_id());
    let now = tx.now_text();
    tx.execute_cached(
        "INSERT INTO equipment (id, agency_id, client_id, number, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?5)",
        params![id, agency_id, client_id, number, now],
    )?;
    Ok(id)
}

/// Sets the managing client of an equipment.
pub fn set_client(tx: &Tx, equipment_id: &EquipmentId, client_id: &ClientId) -> StoreResult<()> {
    let equipment_id = equipment_id.as_str();
    tx.prepare_cached("UPDATE equipment SET client_id = ?2, updated_at = ?3 WHERE id = ?1")?
        .execute(params![equipment_id, client_id, tx.now_text()])?;
    Ok(())
}

/// A building of the agency as its screen shows it: the building, its
/// client (public identifier and name), its access instructions and how
/// many equipment it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildingEntry {
    pub building: BuildingRow,
    pub client: Option<(String, String)>,
    pub access: AccessRecord,
    pub equipment_count: i64,
}

const BUILDING_ENTRY_SELECT: &str =
    "SELECT b.id, b.name, b.address, b.address_complement, b.postal_code, b.city,
            c.client_ref, c.nom, b.access_instructions, b.access_other, b.digicode, b.key_box,
            (SELECT COUNT(*) FROM equipment e WHERE e.building_id = b.id)
       FROM buildings b LEFT JOIN clients c ON c.id = b.client_id";

fn building_entry_from(r: &crate::sql::Row<'_>) -> StoreResult<BuildingEntry> {
    let client_ref: Option<String> = r.get(6)?;
    let client_name: Option<String> = r.get(7)?;
    Ok(BuildingEntry {
        building: BuildingRow {
            id: r.get(0)?,
            name: r.get(1)?,
            address: r.get(2)?,
            address_complement: r.get(3)?,
            postal_code: r.get(4)?,
            city: r.get(5)?,
        },
        client: client_ref.zip(client_name),
        access: AccessRecord {
            instructions: r.get(8)?,
            other: r.get(9)?,
            digicode: r.get(10)?,
            key_box: r.get(11)?,
        },
        equipment_count: r.get(12)?,
    })
}

/// The building `id` of the agency with its client, access and count.
pub fn building_entry(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &BuildingId,
) -> StoreResult<Option<BuildingEntry>> {
    conn.query_row_cached(
        &format!("{BUILDING_ENTRY_SELECT} WHERE b.id = ?1 AND b.agency_id = ?2"),
        params![id, agency_id.as_str()],
        building_entry_from,
    )
    .optional()
}

/// The agency's buildings whose name, address, postal code, city or
/// client's name contains every word of `words` (folded), in French order
/// of address; at most `limit`, and how many match in all.
pub fn search_buildings(
    conn: &Conn,
    agency_id: &AgencyId,
    words: &[String],
    limit: u32,
) -> StoreResult<(i64, Vec<BuildingEntry>)> {
    const WORD: &str = "instr(FOLD(coalesce(b.name, '') || ' ' || b.address || ' ' || coalesce(b.postal_code, '') || ' ' || coalesce(b.city, '') || ' ' || coalesce(c.nom, '')), ?) > 0";
    let mut conditions = vec!["b.agency_id = ?".to_owned()];
    let mut values = vec![Value::Text(agency_id.as_str().to_owned())];
    for word in words {
        conditions.push(WORD.to_owned());
        values.push(Value::Text(crate::text::fold(word)));
    }
    let where_clause = conditions.join(" AND ");
    let total: i64 = conn.query_row_cached(
        &format!(
            "SELECT COUNT(*) FROM buildings b LEFT JOIN clients c ON c.id = b.client_id WHERE {where_clause}"
        ),
        params_from_iter(values.iter()),
        |r| r.get(0),
    )?;
    values.push(Value::Integer(i64::from(limit)));
    let mut stmt = conn.prepare_cached(&format!(
        "{BUILDING_ENTRY_SELECT} WHERE {where_clause}
          ORDER BY b.address COLLATE {collation}, b.id LIMIT ?",
        collation = crate::text::FRENCH_COLLATION
    ))?;
    let rows = stmt
        .query_map(params_from_iter(values.iter()), building_entry_from)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok((total, rows))
}

/// Sets the access instructions of a building (checked by
/// `domain::building::check_access`).
pub fn set_access(tx: &Tx, building_id: &BuildingId, access: &AccessRecord) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE buildings SET access_instructions = ?2, access_other = ?3, digicode = ?4,
             key_box = ?5, updated_at = ?6
         WHERE id = ?1",
        params![
            building_id,
            access.instructions,
            access.other,
            access.digicode,
            access.key_box,
            tx.now_text()
        ],
    )?;
    Ok(())
}

/// The agency's equipment in the park (not archived) whose number starts with `key_prefix` (compared as
/// `number_key`: spaces and tabs removed, ASCII lower case), by number: the
/// first `limit` and how many in all. Reads the unique index on
/// (agency_id, number_key) as a range, so it stays fast on a large park.
pub fn by_number_prefix(
    conn: &Conn,
    agency_id: &AgencyId,
    key_prefix: &str,
    limit: u32,
) -> StoreResult<(i64, Vec<EquipmentRow>)> {
    let agency_id = agency_id.as_str();
    let upper = format!("{key_prefix}\u{10FFFF}");
    let total: i64 = conn.query_row_cached(
        "SELECT count(*) FROM equipment
         WHERE agency_id = ?1 AND number_key >= ?2 AND number_key < ?3 AND archived_at IS NULL",
        crate::sql::params![agency_id, key_prefix, upper],
        |r| r.get(0),
    )?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {EQUIPMENT_COLUMNS} FROM {EQUIPMENT_FROM}
         WHERE e.agency_id = ?1 AND e.number_key >= ?2 AND e.number_key < ?3
           AND e.archived_at IS NULL
         ORDER BY e.number_key, e.id LIMIT ?4"
    ))?;
    let rows = stmt.query_map(
        crate::sql::params![agency_id, key_prefix, upper, i64::from(limit)],
        equipment_from_row,
    )?;
    Ok((total, rows.collect::<Result<_, _>>()?))
}

/// An equipment's place in the maintenance plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanRow {
    pub id: EquipmentId,
    pub number: Option<String>,
    pub equipment_type: Option<String>,
    pub maintenance_contract: Option<String>,
    pub visit_interval_days: i64,
    /// `YYYY-MM-DD`, or the creation day when no start was recorded.
    pub plan_start_on: String,
    pub building_id: Option<BuildingId>,
    pub building: Option<String>,
    pub address: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
    /// `YYYY-MM-DD` of the latest done visit.
    pub last_done_on: Option<String>,
    /// `YYYY-MM-DD` of a visit not done yet (planned or in progress).
    pub open_visit_on: Option<String>,
    /// It left the park: no new visit.
    pub archived: bool,
}

const PLAN_COLUMNS: &str = "e.id, e.number, e.type, e.maintenance_contract, e.visit_interval_days,
     coalesce(e.plan_start_on, substr(e.created_at, 1, 10)), b.name, b.address, b.postal_code, b.city,
     (SELECT max(v.done_on) FROM visits v WHERE v.equipment_id = e.id AND v.status = 'faite'),
     (SELECT min(v.planned_for) FROM visits v
      WHERE v.equipment_id = e.id AND v.status IN ('planifiee', 'en_cours')),
     e.archived_at IS NOT NULL, e.building_id";

fn plan_from_row(r: &crate::sql::Row<'_>) -> crate::StoreResult<PlanRow> {
    Ok(PlanRow {
        id: r.get(0)?,
        number: r.get(1)?,
        equipment_type: r.get(2)?,
        maintenance_contract: r.get(3)?,
        visit_interval_days: r.get(4)?,
        plan_start_on: r.get(5)?,
        building_id: r.get(13)?,
        building: r.get(6)?,
        address: r.get(7)?,
        postal_code: r.get(8)?,
        city: r.get(9)?,
        last_done_on: r.get(10)?,
        open_visit_on: r.get(11)?,
        archived: r.get(12)?,
    })
}

/// One equipment of the agency with its plan (None when not of the agency).
pub fn plan_of(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &EquipmentId,
) -> StoreResult<Option<PlanRow>> {
    let id = id.as_str();
    let agency_id = agency_id.as_str();
    conn.query_row_cached(
        &format!(
            "SELECT {PLAN_COLUMNS} FROM equipment e LEFT JOIN buildings b ON b.id = e.building_id
                 WHERE e.id = ?1 AND e.agency_id = ?2"
        ),
        [id, agency_id],
        plan_from_row,
    )
    .optional()
}

/// The agency's equipment under maintenance contract (`parc`, not archived) whose plan
/// started by `until`, with their last done and next open visit.
pub fn in_plan(conn: &Conn, agency_id: &AgencyId, until: &str) -> StoreResult<Vec<PlanRow>> {
    let agency_id = agency_id.as_str();
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {PLAN_COLUMNS} FROM equipment e LEFT JOIN buildings b ON b.id = e.building_id
         WHERE e.agency_id = ?1 AND e.maintenance_contract = 'parc' AND e.archived_at IS NULL
           AND coalesce(e.plan_start_on, substr(e.created_at, 1, 10)) <= ?2"
    ))?;
    let rows = stmt.query_map([agency_id, until], plan_from_row)?;
    rows.collect::<Result<_, _>>()
}

/// Archives (`Some(at)`) or puts back in the park (`None`) an equipment.
pub fn set_archived(tx: &Tx, id: &EquipmentId, at: Option<&str>) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE equipment SET archived_at = ?2, updated_at = ?3 WHERE id = ?1",
        crate::sql::params![id.as_str(), at, tx.now_text()],
    )?;
    Ok(())
}

/// What still runs on an equipment: calls not resolved, visits in
/// progress.
pub fn open_work(conn: &Conn, id: &EquipmentId) -> StoreResult<(i64, i64)> {
    conn.query_row_cached(
        "SELECT (SELECT COUNT(*) FROM calls WHERE equipment_id = ?1 AND status <> 'resolue'),
                (SELECT COUNT(*) FROM visits WHERE equipment_id = ?1 AND status = 'en_cours')",
        [id.as_str()],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// Removes the equipment's visits planned and not started (nothing was
/// done); returns each one's id and day.
pub fn remove_planned_visits(tx: &Tx, id: &EquipmentId) -> StoreResult<Vec<(String, String)>> {
    let planned: Vec<(String, String)> = tx
        .prepare_cached(
            "SELECT id, planned_for FROM visits WHERE equipment_id = ?1 AND status = 'planifiee' ORDER BY planned_for, id",
        )?
        .query_map([id.as_str()], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    tx.execute_cached(
        "DELETE FROM visits WHERE equipment_id = ?1 AND status = 'planifiee'",
        [id.as_str()],
    )?;
    Ok(planned)
}

/// Changes the days between two visits of the plan.
pub fn set_visit_interval(tx: &Tx, id: &EquipmentId, days: i64, now: &str) -> StoreResult<()> {
    let id = id.as_str();
    tx.execute_cached(
        "UPDATE equipment SET visit_interval_days = ?2, updated_at = ?3 WHERE id = ?1",
        crate::sql::params![id, days, now],
    )?;
    Ok(())
}

/// Changes the first day of the plan (`YYYY-MM-DD`).
pub fn set_plan_start(tx: &Tx, id: &EquipmentId, start: &str) -> StoreResult<()> {
    tx.execute_cached(
        "UPDATE equipment SET plan_start_on = ?2, updated_at = ?3 WHERE id = ?1",
        crate::sql::params![id.as_str(), start, tx.now_text()],
    )?;
    Ok(())
}

// -- The Equipment screen: park and equipment page ---------------------------

/// How many catalog fields apply to the type of the row `e`, as a SQL
/// `CASE` on its type built from the catalog (a few dozen rows): the same
/// count as `knowledge_rate`'s (a field applies to every type when its
/// `applies_to` is NULL, else to the types listed), without a subquery per row.
fn catalog_count_of_e(conn: &Conn) -> StoreResult<String> {
    let mut stmt = conn.prepare_cached("SELECT applies_to FROM technical_fields")?;
    let lists: Vec<Option<String>> = stmt
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let everywhere = lists.iter().filter(|l| l.is_none()).count();
    let mut per_type: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for list in lists.iter().flatten() {
        let mut seen: Vec<&str> = Vec::new();
        for kind in list.split(',').filter(|k| !k.is_empty()) {
            if !seen.contains(&kind) {
                seen.push(kind);
                *per_type.entry(kind.to_owned()).or_insert(everywhere) += 1;
            }
        }
    }
    let mut case = String::from("(CASE coalesce(e.type, '')");
    for (kind, count) in &per_type {
        case.push_str(&format!(
            " WHEN '{}' THEN {count}",
            kind.replace('\'', "''")
        ));
    }
    case.push_str(&format!(" ELSE {everywhere} END)"));
    Ok(case)
}

/// Surveyed catalog fields that apply to the type of the row `e`.
const KNOWLEDGE_SURVEYED_OF_E: &str = "(SELECT COUNT(*) FROM equipment_values v
     JOIN technical_fields f ON f.code = v.field_code
     WHERE v.equipment_id = e.id AND (f.applies_to IS NULL
           OR (',' || f.applies_to || ',') LIKE ('%,' || coalesce(e.type, '') || ',%')))";

/// The knowledge rate of the row `e` in tenths of a percent, rounded half up
/// as `domain::knowledge::knowledge_rate` does, computed in SQL (so that the
/// park can be filtered by it without reading the park into Rust).
fn knowledge_tenths_of_e(conn: &Conn) -> StoreResult<String> {
    let c = catalog_count_of_e(conn)?;
    let s = KNOWLEDGE_SURVEYED_OF_E;
    Ok(format!(
        "(CASE WHEN {c} = 0 THEN 0 ELSE (min({s}, {c}) * 2000 + {c}) / (2 * {c}) END)"
    ))
}

/// What the park is filtered by (every filter optional, all combined).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParkFilter {
    /// Folded words, each to be found in the number, building name or address.
    pub words: Vec<String>,
    /// An equipment type code.
    pub equipment_type: Option<String>,
    /// A client of the agency, by its public identifier (`client_ref`).
    pub client_ref: Option<String>,
    /// A building of the agency, by its id (the building's page).
    pub building_id: Option<String>,
    /// `parc`, `hors_parc`, or `aucun` (no contract recorded).
    pub contract: Option<String>,
    /// Knowledge rate band, `[low, high)` in tenths of a percent.
    pub knowledge_tenths: Option<(i64, Option<i64>)>,
    /// `Some(false)`: the park (not archived); `Some(true)`: the archived
    /// ones; `None`: both.
    pub archived: Option<bool>,
}

/// A row of the park: the equipment, its client (public identifier
/// `client_ref` and name), its knowledge rate in tenths of a percent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParkRow {
    pub equipment: EquipmentRow,
    pub client: Option<(String, String)>,
    pub knowledge_tenths: i64,
}

fn park_conditions(
    agency_id: &str,
    filter: &ParkFilter,
    tenths: &str,
) -> (String, Vec<crate::sql::Value>) {
    use crate::sql::Value;
    let mut condition = String::from("e.agency_id = ?");
    let mut values = vec![Value::Text(agency_id.to_owned())];
    for word in &filter.words {
        condition.push_str(&format!(" AND instr({SEARCHED_TEXT}, ?) > 0"));
        values.push(Value::Text(word.clone()));
    }
    if let Some(kind) = &filter.equipment_type {
        condition.push_str(" AND e.type = ?");
        values.push(Value::Text(kind.clone()));
    }
    if let Some(client) = &filter.client_ref {
        condition.push_str(
            " AND e.client_id IN (SELECT cf.id FROM clients cf WHERE cf.agency_id = e.agency_id AND cf.client_ref = ?)",
        );
        values.push(Value::Text(client.clone()));
    }
    if let Some(building) = &filter.building_id {
        condition.push_str(" AND e.building_id = ?");
        values.push(Value::Text(building.clone()));
    }
    match filter.contract.as_deref() {
        None => {}
        Some("aucun") => condition.push_str(" AND e.maintenance_contract IS NULL"),
        Some(code) => {
            condition.push_str(" AND e.maintenance_contract = ?");
            values.push(Value::Text(code.to_owned()));
        }
    }
    match filter.archived {
        None => {}
        Some(false) => condition.push_str(" AND e.archived_at IS NULL"),
        Some(true) => condition.push_str(" AND e.archived_at IS NOT NULL"),
    }
    if let Some((low, high)) = filter.knowledge_tenths {
        // One evaluation per row: tenths are whole, [low, high) is BETWEEN low AND high - 1.
        condition.push_str(&format!(" AND {tenths} BETWEEN ? AND ?"));
        values.push(Value::Integer(low));
        values.push(Value::Integer(high.map_or(i64::MAX, |h| h - 1)));
    }
    (condition, values)
}

/// One page of the agency's park kept by `filter` (`limit` rows from
/// `offset`), by number (the unnumbered last), and how many equipment it
/// keeps in all. Every filter is applied in SQL; the page's rows are chosen
/// first, then joined to their building and client and given their rate.
pub fn park_page(
    conn: &Conn,
    agency_id: &AgencyId,
    filter: &ParkFilter,
    limit: u32,
    offset: u64,
) -> StoreResult<(i64, Vec<ParkRow>)> {
    let agency_id = agency_id.as_str();
    use crate::sql::Value;
    let tenths = knowledge_tenths_of_e(conn)?;
    let (condition, values) = park_conditions(agency_id, filter, &tenths);
    let mut page_values = values.clone();
    page_values.push(Value::Integer(i64::from(limit)));
    page_values.push(Value::Integer(i64::try_from(offset).unwrap_or(i64::MAX)));
    let mut stmt = conn.prepare_cached(&format!(
        "WITH page AS (
             SELECT e.id AS page_id, COUNT(*) OVER () AS total FROM {EQUIPMENT_FROM}
             WHERE {condition}
             ORDER BY e.number_key IS NULL, e.number_key, e.id
             LIMIT ? OFFSET ?)
         SELECT {EQUIPMENT_COLUMNS}, cl.client_ref, cl.nom, {tenths}, page.total
         FROM page JOIN equipment e ON e.id = page.page_id
         LEFT JOIN buildings b ON b.id = e.building_id
         LEFT JOIN clients cl ON cl.id = e.client_id
         ORDER BY e.number_key IS NULL, e.number_key, e.id"
    ))?;
    let mut total = None;
    let rows = stmt
        .query_map(crate::sql::params_from_iter(page_values.iter()), |r| {
            Ok((
                ParkRow {
                    equipment: equipment_from_row(r)?,
                    client: match (
                        r.get::<Option<String>>(EQUIPMENT_COLUMN_COUNT)?,
                        r.get::<Option<String>>(EQUIPMENT_COLUMN_COUNT + 1)?,
                    ) {
                        (Some(id), Some(name)) => Some((id, name)),
                        _ => None,
                    },
                    knowledge_tenths: r.get(EQUIPMENT_COLUMN_COUNT + 2)?,
                },
                r.get::<i64>(EQUIPMENT_COLUMN_COUNT + 3)?,
            ))
        })?
        .map(|row| {
            row.map(|(park, count)| {
                total = Some(count);
                park
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let total = match total {
        Some(total) => total,
        None => conn
            .prepare_cached(&format!(
                "SELECT COUNT(*) FROM {EQUIPMENT_FROM} WHERE {condition}"
            ))?
            .query_row(crate::sql::params_from_iter(values.iter()), |r| r.get(0))?,
    };
    Ok((total, rows))
}

/// The public identifier (`client_ref`) and name of a client of the agency
/// by its internal id (None when unknown).
pub fn client_ref_and_name(
    conn: &Conn,
    agency_id: &AgencyId,
    client_id: &ClientId,
) -> StoreResult<Option<(String, String)>> {
    conn.query_row_cached(
        "SELECT client_ref, nom FROM clients WHERE id = ?1 AND agency_id = ?2",
        params![client_id, agency_id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()
}

/// A current datum of an equipment with when and by which survey it was recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueRow {
    pub field_code: String,
    /// JSON text.
    pub value: String,
    pub surveyed_at: String,
    pub survey_number: Option<String>,
}

/// The current technical data of an equipment with their origin, in catalog order.
pub fn values_detailed(conn: &Conn, equipment_id: &EquipmentId) -> StoreResult<Vec<ValueRow>> {
    let equipment_id = equipment_id.as_str();
    let mut stmt = conn.prepare_cached(
        "SELECT v.field_code, v.value, v.surveyed_at, s.number FROM equipment_values v
         JOIN technical_fields f ON f.code = v.field_code
         LEFT JOIN surveys s ON s.id = v.survey_id
         WHERE v.equipment_id = ?1 ORDER BY f.position, f.code",
    )?;
    let rows = stmt.query_map([equipment_id], |r| {
        Ok(ValueRow {
            field_code: r.get(0)?,
            value: r.get(1)?,
            surveyed_at: r.get(2)?,
            survey_number: r.get(3)?,
        })
    })?;
    rows.collect::<Result<_, _>>()
}
