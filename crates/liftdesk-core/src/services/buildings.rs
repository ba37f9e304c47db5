//! The agency's buildings as the screens use them (`/app/api/buildings…`):
//! found by any word of their name, address or client, created with their
//! access instructions in one transaction, read with their client and how a
//! technician gets in (digicode, key box, Vigik), those instructions
//! changed. The rules of each field are the domain's (`domain::building`);
//! the writes and their audit entries are `services::equipment`'s
//! (`create_building_in`, `set_building_access_in`), which the demo and the
//! imports use too.

use crate::domain::building::{AccessInput, BuildingInput};
use crate::domain::id::BuildingId;
use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::services::equipment::{create_building_in, set_building_access_in};
use crate::services::search::search_term;
use crate::store::Store;
use crate::store::equipment::{self as store, BuildingEntry};

/// Most buildings one search answers.
pub const MAX_RESULTS: u32 = 50;

fn not_found() -> AppError {
    AppError::not_found("Immeuble introuvable.")
}

/// The agency's buildings matching every word of `q` (all of them when
/// blank), by address, at most [`MAX_RESULTS`]; and how many match.
pub async fn search(
    store_handle: &Store,
    p: &Principal,
    q: Option<&str>,
) -> AppResult<(i64, Vec<BuildingEntry>)> {
    let agency_id = p.agency_id()?.to_owned();
    let words: Vec<String> = search_term(q)?
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    Ok(store_handle
        .read(move |conn| store::search_buildings(conn, &agency_id, &words, MAX_RESULTS))
        .await?)
}

/// The building `id` of the principal's agency (404 otherwise).
pub async fn get(store_handle: &Store, p: &Principal, id: BuildingId) -> AppResult<BuildingEntry> {
    let agency_id = p.agency_id()?.to_owned();
    store_handle
        .read(move |conn| store::building_entry(conn, &agency_id, &id))
        .await?
        .ok_or_else(not_found)
}

/// A new building of the principal's agency, of the client `client_ref`
/// when given, with its access instructions when given: one transaction,
/// two audit entries (`immeuble.creation`, `immeuble.acces`).
pub async fn create(
    store_handle: &Store,
    p: &Principal,
    input: BuildingInput,
    client_ref: Option<String>,
    access: Option<AccessInput>,
) -> AppResult<BuildingEntry> {
    p.agency_id()?;
    p.require(Capability::Change)?;
    let p = p.clone();
    store_handle
        .write(move |tx| {
            let building = create_building_in(tx, &p, &input, client_ref.as_deref())?;
            if let Some(access) = &access {
                set_building_access_in(tx, &p, &building.id, access)?;
            }
            store::building_entry(tx, p.agency_id()?, &building.id)?.ok_or_else(not_found)
        })
        .await
}

/// Replaces the access instructions of the building `id` of the
/// principal's agency (404 otherwise).
pub async fn set_access(
    store_handle: &Store,
    p: &Principal,
    id: BuildingId,
    access: AccessInput,
) -> AppResult<BuildingEntry> {
    p.agency_id()?;
    p.require(Capability::Change)?;
    let p = p.clone();
    store_handle
        .write(move |tx| {
            set_building_access_in(tx, &p, &id, &access)?;
            store::building_entry(tx, p.agency_id()?, &id)?.ok_or_else(not_found)
        })
        .await
}
