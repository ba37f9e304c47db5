//! Breakdown calls: opened by a call center, assigned and moved through their
//! states by the agency. Every entry point (call-center API, REST API v2, web
//! UI, CLI) goes through these functions, so `appel.clos` is queued exactly
//! once whenever a call becomes `resolue`, wherever the change is made.

use crate::domain::id::{AgencyId, CallId, EquipmentId, TechnicianId};
use chrono::{DateTime, Duration, Utc};
use serde_json::json;

use crate::clock;
use crate::domain::call::{self, CallStatus, CallType, ReportInput};
use crate::domain::day;
use crate::error::{AppError, AppResult};
use crate::notices::{Notice, Notices};
use crate::principal::{Capability, Principal};
use crate::services::call_feed::{CallChange, CallEvent, CallFeed};
use crate::services::search::search_term;
use crate::services::technicians::{self as roster, TechnicianStatus};
use crate::services::visits::building_address;
use crate::store::audit::{self, AuditEntry};
use crate::store::calls::{
    self as store, CallListRow, CenterCallOpening, CenterCallRow, NewAgencyCall, NewCenterCall,
    StatusChange, StatusFilter,
};
use crate::store::equipment::EquipmentRow;
use crate::store::{Conn, Store, Tx, equipment, new_id, outbox, technicians};
use crate::text::fold;

/// `reference`: 1 to 120 characters.
pub const MAX_REFERENCE_CHARS: usize = 120;
/// `description`: 3 to 1000 characters.
pub const MIN_DESCRIPTION_CHARS: usize = 3;
pub const MAX_DESCRIPTION_CHARS: usize = 1000;
/// `appelant`: at most 120 characters.
pub const MAX_CALLER_CHARS: usize = 120;
/// `recuLe`: within the last 24 hours.
pub const RECEIVED_WINDOW_HOURS: i64 = 24;
/// `recuLe` may be this far in the future: the center's clock may run ahead.
pub const CLOCK_SKEW_MINUTES: i64 = 5;

/// A call as a call center sends it (`POST /api/partners/calls`).
#[derive(Debug, Clone, Default)]
pub struct CenterCallInput {
    pub reference: String,
    pub equipment: String,
    pub call_type: String,
    pub description: String,
    pub caller: Option<String>,
    pub received_at: Option<String>,
}

/// A call opened or found again.
#[derive(Debug, Clone)]
pub struct Opened {
    pub call: CenterCallRow,
    /// False when this center had already sent the reference.
    pub created: bool,
}

fn check_reference(raw: &str) -> AppResult<()> {
    let chars = raw.chars().count();
    if raw.trim().is_empty() || chars > MAX_REFERENCE_CHARS {
        return Err(AppError::unprocessable(format!(
            "Le champ « reference » doit compter de 1 à {MAX_REFERENCE_CHARS} caractères, espaces non compris aux extrémités (reçu : {chars} caractères)."
        )));
    }
    Ok(())
}

fn check_description(raw: &str) -> AppResult<String> {
    let chars = raw.chars().count();
    if raw.trim().is_empty() || !(MIN_DESCRIPTION_CHARS..=MAX_DESCRIPTION_CHARS).contains(&chars) {
        return Err(AppError::unprocessable(format!(
            "Le champ « description » doit compter de {MIN_DESCRIPTION_CHARS} à {MAX_DESCRIPTION_CHARS} caractères (reçu : {chars} caractères)."
        )));
    }
    Ok(raw.trim().to_owned())
}

fn check_caller(raw: Option<&str>) -> AppResult<Option<String>> {
    let Some(raw) = raw else {
        return Ok(None);
    };
    let chars = raw.chars().count();
    if chars > MAX_CALLER_CHARS {
        return Err(AppError::unprocessable(format!(
            "Le champ « appelant » doit compter au plus {MAX_CALLER_CHARS} caractères (reçu : {chars} caractères)."
        )));
    }
    let caller = raw.trim();
    Ok((!caller.is_empty()).then(|| caller.to_owned()))
}

fn check_type(raw: &str) -> AppResult<CallType> {
    CallType::parse(raw).ok_or_else(|| {
        AppError::unprocessable(format!(
            "Le champ « type » doit valoir {} (reçu : « {raw} »).",
            CallType::CODES.join(", ")
        ))
    })
}

/// ISO 8601 with a time-zone offset (`Z` or `+01:00`), seconds optional.
fn parse_instant(raw: &str) -> Option<DateTime<Utc>> {
    let text = raw.trim();
    let without_seconds = match text.strip_suffix(['Z', 'z']) {
        Some(head) => format!("{head}+00:00"),
        None => text.to_owned(),
    };
    DateTime::parse_from_rfc3339(text)
        .or_else(|_| DateTime::parse_from_str(&without_seconds, "%Y-%m-%dT%H:%M%:z"))
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// When the call was received at the center: within the last 24 hours, at
/// most [`CLOCK_SKEW_MINUTES`] ahead of our clock; `now` when absent.
pub fn check_received_at(raw: Option<&str>, now: DateTime<Utc>) -> AppResult<DateTime<Utc>> {
    let Some(raw) = raw else {
        return Ok(now);
    };
    let at = parse_instant(raw).ok_or_else(|| {
        AppError::unprocessable(format!(
            "Le champ « recuLe » doit être une date et heure ISO 8601 avec fuseau, par exemple « 2026-11-21T07:23:00Z » ou « 2026-11-21T08:23:00+01:00 » (reçu : « {raw} »)."
        ))
    })?;
    if at > now + Duration::minutes(CLOCK_SKEW_MINUTES) {
        return Err(AppError::unprocessable(
            "Le champ « recuLe » est dans le futur : l'heure de l'appel ne peut pas dépasser l'heure actuelle.",
        ));
    }
    if at < now - Duration::hours(RECEIVED_WINDOW_HOURS) {
        return Err(AppError::unprocessable(format!(
            "Le champ « recuLe » doit être dans les dernières {RECEIVED_WINDOW_HOURS} heures : un appel plus ancien se traite avec l'agence directement."
        )));
    }
    Ok(at)
}

/// How far the caller's call-center key was checked before the request
/// reached its service.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyCheck {
    /// Read live by this request: found, not revoked.
    Read,
    /// Found live by an earlier request of this server (the front door's
    /// hint, which spares every call a read of its own): not yet confirmed.
    /// The call's transaction confirms it (the insert runs only while the
    /// key is live), and any refusal confirms it first, so that a key
    /// revoked since is refused with 401 before anything else is said.
    Hinted,
}

/// The refusal of a call-center key that is no longer live.
pub const KEY_REFUSED: &str =
    "Authentification requise : clé de centre d'appels manquante, inconnue ou révoquée.";

/// `refusal`, unless the caller's key was only hinted at and is no longer
/// live: then 401, which comes before every other refusal.
fn confirmed_refusal(conn: &Conn, p: &Principal, key: KeyCheck, refusal: AppError) -> AppError {
    if key == KeyCheck::Read {
        return refusal;
    }
    let live = p
        .call_center_credential()
        .and_then(|id| Ok(crate::store::credentials::is_live(conn, id)?));
    match live {
        Ok(true) => refusal,
        Ok(false) => AppError::unauthorized(KEY_REFUSED),
        Err(err) => err,
    }
}

/// [`confirmed_refusal`] outside a transaction: for a refusal made before
/// the call's own (its body, at the front door or here).
pub async fn confirm_before_refusal(
    store: &Store,
    p: &Principal,
    key: KeyCheck,
    refusal: AppError,
) -> AppError {
    if key == KeyCheck::Read {
        return refusal;
    }
    let p = p.clone();
    store
        .read(move |conn| Ok::<_, AppError>(confirmed_refusal(conn, &p, key, refusal)))
        .await
        .unwrap_or_else(|err| err)
}

/// Opens the call, or returns the call this center already opened under
/// that reference (`created` false): the body is checked first, then the
/// UNIQUE index on (center, reference) decides, so concurrent requests
/// open one call (`Store::open_center_call`: on PostgreSQL together with
/// the calls arriving meanwhile). A new call goes to the board's live feed
/// and, as a notice, to the desktop shell. A key revoked since `key`'s
/// check is refused with 401 (`KeyCheck`).
pub async fn open_from_call_center(
    store: &Store,
    feed: &CallFeed,
    notices: &Notices,
    p: &Principal,
    call_center_id: &str,
    input: CenterCallInput,
    key: KeyCheck,
) -> AppResult<Opened> {
    let agency_id = p.agency_id()?.to_owned();
    let call = match center_call(p, call_center_id, &input, store.now()) {
        Ok(call) => call,
        Err(refusal) => return Err(confirm_before_refusal(store, p, key, refusal).await),
    };
    let call_type = call.call_type;
    let opening = store.open_center_call(call.clone()).await?;
    let (opened, equipment) = match settle_opening(&call, opening, key)? {
        Settled::Answered(opened) => opened,
        // Opened by a request that committed while this one's statement
        // ran: read once more.
        Settled::ReadAgain(equipment) => {
            store
                .read(move |conn| known_call(conn, &call, equipment))
                .await?
        }
    };
    if opened.created {
        notices.publish(Notice::CallReceived {
            agency_id: agency_id.clone().into_string(),
            id: opened.call.id.to_string(),
            reference: opened.call.reference.clone(),
            equipment,
            urgent: call_type.is_emergency(),
        });
        feed.publish(CallEvent {
            agency_id: agency_id.into_string(),
            change: CallChange::Ouvert,
            id: opened.call.id.to_string(),
            reference: opened.call.reference.clone(),
            statut: opened.call.status,
            call_type,
            urgence: call_type.is_emergency(),
        });
    }
    Ok(opened)
}

/// The call a center's request opens, checked at `now`, with its journal
/// entry's detail (the store adds the equipment found).
fn center_call(
    p: &Principal,
    call_center_id: &str,
    input: &CenterCallInput,
    now: DateTime<Utc>,
) -> AppResult<NewCenterCall> {
    let (call_type, description, caller, received_at) = check_center_call(p, input, now)?;
    let journal_detail = serde_json::Map::from_iter([
        ("reference".to_owned(), json!(input.reference)),
        ("callCenter".to_owned(), json!(call_center_id)),
        ("type".to_owned(), json!(call_type.as_str())),
        ("urgence".to_owned(), json!(call_type.is_emergency())),
    ]);
    Ok(NewCenterCall {
        id: CallId::new(new_id()),
        agency_id: p.agency_id()?.as_str().to_owned(),
        call_center_id: call_center_id.to_owned(),
        credential_id: p.call_center_credential()?.clone(),
        reference: input.reference.clone(),
        equipment_number: input.equipment.clone(),
        call_type,
        description,
        caller,
        received_at: clock::format_timestamp(received_at),
        now: clock::format_timestamp(now),
        actor: p.actor.clone(),
        journal_detail,
    })
}

/// A call center's call checked at `now`: its type, description, caller
/// and reception time.
fn check_center_call(
    p: &Principal,
    input: &CenterCallInput,
    now: DateTime<Utc>,
) -> AppResult<(CallType, String, Option<String>, DateTime<Utc>)> {
    p.agency_id()?;
    p.call_center_credential()?;
    p.require(Capability::Change)?;
    check_reference(&input.reference)?;
    check_call(
        &input.equipment,
        &input.call_type,
        &input.description,
        input.caller.as_deref(),
        input.received_at.as_deref(),
        now,
    )
}

/// What a call says, as a center or the agency gives it, checked at `now`:
/// the equipment's number given, its type, description, caller and
/// reception time.
fn check_call(
    equipment: &str,
    call_type: &str,
    description: &str,
    caller: Option<&str>,
    received_at: Option<&str>,
    now: DateTime<Utc>,
) -> AppResult<(CallType, String, Option<String>, DateTime<Utc>)> {
    if equipment.trim().is_empty() {
        return Err(AppError::unprocessable(
            "Le champ « equipement » est obligatoire : le numéro de l'appareil dans le parc de l'agence.",
        ));
    }
    let call_type = check_type(call_type)?;
    let description = check_description(description)?;
    let caller = check_caller(caller)?;
    let received_at = check_received_at(received_at, now)?;
    Ok((call_type, description, caller, received_at))
}

/// [`open_from_call_center`]'s step in `tx`, at its time: the call opened
/// (or found again) and its equipment as the shell's notice names it.
pub fn open_from_call_center_in(
    tx: &Tx,
    p: &Principal,
    call_center_id: &str,
    input: &CenterCallInput,
    key: KeyCheck,
) -> AppResult<(Opened, String)> {
    let call = center_call(p, call_center_id, input, tx.now())
        .map_err(|refusal| confirmed_refusal(tx, p, key, refusal))?;
    let opening = store::open_from_center(tx, &call)?;
    match settle_opening(&call, opening, key)? {
        Settled::Answered(opened) => Ok(opened),
        Settled::ReadAgain(equipment) => known_call(tx, &call, equipment),
    }
}

/// What a call's opening answers ([`settle_opening`]).
enum Settled {
    /// The call opened or found again, and its equipment as the shell's
    /// notice names it.
    Answered((Opened, String)),
    /// Nothing opened while the key is live, and no call seen under that
    /// reference: one opened by a request that committed meanwhile, to
    /// read again ([`known_call`]); its equipment as the notice names it.
    ReadAgain(String),
}

/// What `opening` of `call` answers: the call opened; else the equipment's
/// refusal (missing or archived), the call this center already opened
/// under that reference, or 401 for a key revoked since it was read (the
/// insert runs only while it is live). Every refusal of a key only hinted
/// at (`KeyCheck`) is 401 once the key is found revoked.
fn settle_opening(
    call: &NewCenterCall,
    opening: CenterCallOpening,
    key: KeyCheck,
) -> AppResult<Settled> {
    let key_refused = key == KeyCheck::Hinted && !opening.key_live;
    let equipment =
        usable_equipment(opening.equipment, &call.equipment_number).map_err(|refusal| {
            if key_refused {
                AppError::unauthorized(KEY_REFUSED)
            } else {
                refusal
            }
        })?;
    // A key read live by this request answers for the reference it sent
    // before; a hinted one only once confirmed.
    if key_refused {
        return Err(AppError::unauthorized(KEY_REFUSED));
    }
    match opening.call {
        Some(found) => Ok(Settled::Answered((
            Opened {
                call: found,
                created: opening.created,
            },
            equipment_label(&equipment),
        ))),
        None if opening.key_live => Ok(Settled::ReadAgain(equipment_label(&equipment))),
        // No call under that reference: the key's revocation stopped the
        // insert.
        None => Err(AppError::unauthorized(KEY_REFUSED)),
    }
}

/// The call this center opened under `call`'s reference, found again; 401
/// when there is none (the key's revocation stopped the insert).
fn known_call(conn: &Conn, call: &NewCenterCall, equipment: String) -> AppResult<(Opened, String)> {
    let agency = AgencyId::new(call.agency_id.as_str());
    let known =
        store::get_by_center_reference(conn, &agency, &call.call_center_id, &call.reference)?
            .ok_or_else(|| AppError::unauthorized(KEY_REFUSED))?;
    Ok((
        Opened {
            call: known,
            created: false,
        },
        equipment,
    ))
}

/// The equipment of the agency's park a call names by its number: 422
/// naming the field otherwise, or for an archived one.
fn equipment_of_call(tx: &Tx, agency: &AgencyId, number: &str) -> AppResult<EquipmentRow> {
    usable_equipment(equipment::find_by_number(tx, agency, number)?, number)
}

/// [`equipment_of_call`] of the equipment `found` under `number`.
fn usable_equipment(found: Option<EquipmentRow>, number: &str) -> AppResult<EquipmentRow> {
    let row = found.ok_or_else(|| {
        AppError::unprocessable(format!(
            "Le champ « equipement » ne correspond à aucun appareil du parc de l'agence : « {number} »."
        ))
    })?;
    if row.archived_at.is_some() {
        return Err(crate::services::equipment::archived_refusal(
            row.identity.number.as_deref(),
        ));
    }
    Ok(row)
}

/// The equipment chosen by id on the screen, if any.
fn chosen_equipment(input: &AgencyCallInput) -> Option<&str> {
    input
        .equipment_id
        .as_deref()
        .map(str::trim)
        .filter(|id| !id.is_empty())
}

/// The equipment of the agency's park chosen by its id: 422 for an unknown
/// (or another agency's) one, or an archived one.
fn chosen_equipment_of_call(tx: &Tx, agency: &AgencyId, id: &str) -> AppResult<EquipmentRow> {
    let row = equipment::get(tx, agency, &EquipmentId::new(id))?.ok_or_else(|| {
        AppError::unprocessable(format!(
            "Le champ « equipmentId » ne correspond à aucun appareil du parc de l'agence : « {id} »."
        ))
    })?;
    if row.archived_at.is_some() {
        return Err(crate::services::equipment::archived_refusal(
            row.identity.number.as_deref(),
        ));
    }
    Ok(row)
}

/// « ASC-42 — Résidence Les Tilleuls, 12 rue des Lilas, 69003 Lyon » for
/// the shell's notice; the number alone when the building is unknown.
fn equipment_label(equipment: &EquipmentRow) -> String {
    let number = equipment.identity.number.clone().unwrap_or_default();
    let Some(building) = &equipment.building else {
        return number;
    };
    let address = building_address(
        Some(building.address.as_str()),
        building.postal_code.as_deref(),
        building.city.as_deref(),
    );
    let place: Vec<&str> = [building.name.as_deref(), address.as_deref()]
        .into_iter()
        .flatten()
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect();
    if place.is_empty() {
        number
    } else {
        format!("{number} — {}", place.join(", "))
    }
}

/// A call taken by phone at the agency: the call-center body without the
/// reference, which the agency numbers itself (`AG-<year>-<n>`).
#[derive(Debug, Clone, Default)]
pub struct AgencyCallInput {
    /// The equipment's number in the park (what a caller reads on the lift).
    pub equipment: String,
    /// The equipment chosen on the screen, by id: it wins over the number
    /// (an equipment with no number yet can be called about).
    pub equipment_id: Option<String>,
    pub call_type: String,
    pub description: String,
    pub caller: Option<String>,
    pub received_at: Option<String>,
}

/// A call opened at the agency: its id and generated reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenedAtAgency {
    pub id: String,
    pub reference: String,
}

/// Opens a call taken at the agency by the staff member `account_id`, with
/// the call-center API's rules on the same fields (equipment of the
/// agency's park by number, type, description, caller, time of the call);
/// no call center (`call_center_id` NULL), reference `AG-<year>-<n>` (the
/// next number of the year in the agency).
pub async fn open_at_agency(
    store: &Store,
    feed: &CallFeed,
    p: &Principal,
    input: AgencyCallInput,
) -> AppResult<OpenedAtAgency> {
    let agency_id = p.agency_id()?.to_owned();
    let call_type = check_agency_call(p, &input, store.now())?.0;
    let writer = p.clone();
    let opened = store
        .write(move |tx| open_at_agency_in(tx, &writer, &input))
        .await?;
    feed.publish(CallEvent {
        agency_id: agency_id.into_string(),
        change: CallChange::Ouvert,
        id: opened.id.clone(),
        reference: opened.reference.clone(),
        statut: CallStatus::Ouverte,
        call_type,
        urgence: call_type.is_emergency(),
    });
    Ok(opened)
}

/// A call taken at the agency checked at `now`: its type, description,
/// caller and reception time.
fn check_agency_call(
    p: &Principal,
    input: &AgencyCallInput,
    now: DateTime<Utc>,
) -> AppResult<(CallType, String, Option<String>, DateTime<Utc>)> {
    p.agency_id()?;
    p.account()?;
    p.require(Capability::Change)?;
    let named = match chosen_equipment(input) {
        Some(id) => id,
        None if input.equipment.trim().is_empty() => {
            return Err(AppError::unprocessable(
                "Indiquez l'appareil de l'appel : choisissez-le (« equipmentId ») ou donnez son numéro dans le parc (« equipement »).",
            ));
        }
        None => &input.equipment,
    };
    check_call(
        named,
        &input.call_type,
        &input.description,
        input.caller.as_deref(),
        input.received_at.as_deref(),
        now,
    )
}

/// [`open_at_agency`]'s step in `tx`, at its time.
pub fn open_at_agency_in(
    tx: &Tx,
    p: &Principal,
    input: &AgencyCallInput,
) -> AppResult<OpenedAtAgency> {
    let now = tx.now();
    let (call_type, description, caller, received_at) = check_agency_call(p, input, now)?;
    let agency = p.agency_id()?;
    let account = &p.account()?.id;
    let equipment = match chosen_equipment(input) {
        Some(id) => chosen_equipment_of_call(tx, agency, id)?,
        None => equipment_of_call(tx, agency, &input.equipment)?,
    };
    let year = clock::paris_local(received_at).format("%Y").to_string();
    let reference = store::next_agency_reference(tx, agency, &year)?;
    let id = CallId::new(new_id());
    store::insert_at_agency(
        tx,
        &NewAgencyCall {
            id: &id,
            agency_id: agency.as_str(),
            created_by: account,
            reference: &reference,
            equipment_id: &equipment.id,
            call_type,
            description: &description,
            caller: caller.as_deref(),
            received_at: &clock::format_timestamp(received_at),
            now: &clock::format_timestamp(now),
        },
    )?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency.as_str()),
            actor: &p.actor,
            action: "ouverture",
            object_type: "call",
            object_id: Some(id.as_str()),
            detail: Some(json!({
                "reference": reference,
                "equipment": equipment.id,
                "type": call_type.as_str(),
                "urgence": call_type.is_emergency(),
            })),
        },
    )?;
    Ok(OpenedAtAgency {
        id: id.into_string(),
        reference,
    })
}

/// The call `reference` opened by this center (None for another center's).
/// The call `call_center_id` sent under `reference`, in the key's agency.
pub async fn track(
    store: &Store,
    p: &Principal,
    call_center_id: &str,
    reference: &str,
) -> AppResult<Option<CenterCallRow>> {
    let agency_id = p.agency_id()?.to_owned();
    let (center, reference) = (call_center_id.to_owned(), reference.to_owned());
    Ok(store
        .read(move |conn| store::get_by_center_reference(conn, &agency_id, &center, &reference))
        .await?)
}

fn not_found() -> AppError {
    AppError::not_found("Appel introuvable.")
}

/// An assignment as asked: the technician, and optionally his name as the
/// dispatcher read it, for confirmation.
#[derive(Debug, Clone, Default)]
pub struct AssignInput {
    pub technician_id: String,
    pub technician_name: Option<String>,
}

/// Assigns (or reassigns) an active technician of the agency. The status does
/// not change (`domain::call::can_assign`). A confirmation name that is not
/// the technician's is refused: the dispatcher meant someone else.
pub async fn assign(
    store: &Store,
    feed: &CallFeed,
    p: &Principal,
    call_id: &CallId,
    input: AssignInput,
) -> AppResult<()> {
    p.agency_id()?;
    p.require(Capability::Change)?;
    let (writer, call_id) = (p.clone(), call_id.to_owned());
    let event = store
        .write(move |tx| assign_in(tx, &writer, &call_id, &input))
        .await?;
    feed.publish(event);
    Ok(())
}

/// [`assign`]'s step in `tx`, at its time: the board's event to publish.
pub fn assign_in(
    tx: &Tx,
    p: &Principal,
    call_id: &CallId,
    input: &AssignInput,
) -> AppResult<CallEvent> {
    let agency_id = p.agency_id()?;
    p.require(Capability::Change)?;
    if input.technician_id.trim().is_empty() {
        return Err(AppError::unprocessable(
            "Le champ « technicianId » est obligatoire.",
        ));
    }
    let row = store::get_in_agency(tx, agency_id, call_id)?.ok_or_else(not_found)?;
    let status = row.status;
    call::can_assign(status).map_err(|err| AppError::unprocessable(err.to_string()))?;
    let technician_id = TechnicianId::new(input.technician_id.as_str());
    let name =
        technicians::active_name_in_agency(tx, agency_id, &technician_id)?.ok_or_else(|| {
            AppError::unprocessable(format!(
                "Technicien introuvable dans cette agence : « {} ».",
                input.technician_id
            ))
        })?;
    if let Some(given) = input.technician_name.as_deref()
        && !given.trim().is_empty()
        && given.trim().to_lowercase() != name.trim().to_lowercase()
    {
        return Err(AppError::unprocessable(format!(
            "Le champ « technician » (« {} ») ne correspond pas au technicien désigné par « technicianId » : « {name} ».",
            given.trim()
        )));
    }
    let now = tx.now();
    let team = roster::roster(tx, agency_id, now, clock::paris_local(now).date())?;
    if let Some(member) = team.iter().find(|t| t.id == input.technician_id)
        && let Some(reason) = unavailability(member)
    {
        return Err(AppError::unprocessable(reason));
    }
    store::set_technician(tx, call_id, &technician_id, &clock::format_timestamp(now))?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor: &p.actor,
            action: "affectation",
            object_type: "call",
            object_id: Some(call_id.as_str()),
            detail: Some(json!({
                "technician": input.technician_id,
                "previousTechnician": row.technician_id,
                "status": status.as_str(),
            })),
        },
    )?;
    Ok(CallEvent {
        agency_id: agency_id.to_owned().into_string(),
        change: CallChange::Affecte,
        id: call_id.to_string(),
        reference: row.reference,
        statut: row.status,
        urgence: row.call_type.is_emergency(),
        call_type: row.call_type,
    })
}

/// Why a technician cannot take a call now (absent today, or in the safety
/// rest after standby duty), in French; None when he can.
pub fn unavailability(member: &TechnicianStatus) -> Option<String> {
    if let Some(until) = member.absent_until {
        return Some(format!(
            "{} est absent jusqu'au {} inclus : choisissez un autre technicien.",
            member.name,
            day::french(until)
        ));
    }
    member.off_until.map(|until| {
        let local = clock::paris_local(until);
        format!(
            "{} est en repos de sécurité après son astreinte jusqu'au {} à {} : choisissez un autre technicien.",
            member.name,
            day::french(local.date()),
            local.format("%Hh%M")
        )
    })
}

/// The technicians a call may be given to, and those it may not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TechnicianChoices {
    /// Available now: on standby first, then by name.
    pub available: Vec<TechnicianStatus>,
    /// Absent or resting, with the reason.
    pub unavailable: Vec<(TechnicianStatus, String)>,
}

/// The agency's active technicians split by availability at `now`.
pub fn technician_choices(
    conn: &crate::store::Conn,
    agency_id: &AgencyId,
    now: DateTime<Utc>,
) -> AppResult<TechnicianChoices> {
    let team = roster::roster(conn, agency_id, now, clock::paris_local(now).date())?;
    let mut available = Vec::new();
    let mut unavailable = Vec::new();
    for member in team {
        match unavailability(&member) {
            Some(reason) => unavailable.push((member, reason)),
            None => available.push(member),
        }
    }
    // Stable: the roster's order by name is kept within each group.
    available.sort_by_key(|member| !member.on_call);
    Ok(TechnicianChoices {
        available,
        unavailable,
    })
}

/// Where a status change comes from, and so what closing asks.
#[derive(Debug, Clone)]
pub enum Closing {
    /// The agency's screens: closing (`resolue`) requires the intervention
    /// report (`domain::call::check_report`: cause, work done, time back in
    /// service), given here or not; another change takes none.
    FromScreens(Option<ReportInput>),
    /// The call centers', partners', REST API's and MCP's changes: they
    /// close without a report (the contract has none).
    External,
}

impl Closing {
    /// The report to check for a change to `to`: required from the screens
    /// on closing (an absent one is checked as empty, so refused).
    fn report_for(self, to: CallStatus) -> Option<ReportInput> {
        match self {
            Closing::External => None,
            Closing::FromScreens(report) if to == CallStatus::Resolue => {
                Some(report.unwrap_or_default())
            }
            Closing::FromScreens(report) => report,
        }
    }
}

/// Moves the call to `target` as `domain::call::transition` allows, with its
/// effects in the same transaction: `arriveLe` and `resoluLe` set once, and
/// `appel.clos` queued in the outbox on becoming `resolue`; a closing from
/// the screens writes its report ([`Closing`]).
pub async fn change_status(
    store: &Store,
    feed: &CallFeed,
    p: &Principal,
    call_id: &CallId,
    target: &str,
    closing: Closing,
) -> AppResult<()> {
    p.agency_id()?;
    p.require(Capability::Change)?;
    let to = check_status(target)?;
    let report = closing.report_for(to);
    let (writer, call_id) = (p.clone(), call_id.to_owned());
    let event = store
        .write(move |tx| change_status_with_report_in(tx, &writer, &call_id, to, report.as_ref()))
        .await?;
    feed.publish(event);
    Ok(())
}

/// The status `target` names: 422 listing the statuses otherwise.
pub fn check_status(target: &str) -> AppResult<CallStatus> {
    CallStatus::parse(target).ok_or_else(|| {
        AppError::unprocessable(format!(
            "Le champ « statut » doit valoir {} (reçu : « {target} »).",
            CallStatus::CODES.join(", ")
        ))
    })
}

/// [`change_status`]'s step in `tx`, at its time, without a report: the
/// board's event to publish.
pub fn change_status_in(
    tx: &Tx,
    p: &Principal,
    call_id: &CallId,
    to: CallStatus,
) -> AppResult<CallEvent> {
    change_status_with_report_in(tx, p, call_id, to, None)
}

/// [`change_status`]'s step in `tx`, at its time: the board's event to
/// publish. A report is written only on closing (refused otherwise).
pub fn change_status_with_report_in(
    tx: &Tx,
    p: &Principal,
    call_id: &CallId,
    to: CallStatus,
    report: Option<&ReportInput>,
) -> AppResult<CallEvent> {
    let agency_id = p.agency_id()?;
    p.require(Capability::Change)?;
    let row = store::get_in_agency(tx, agency_id, call_id)?.ok_or_else(not_found)?;
    let from = row.status;
    let refused =
        |err: crate::domain::error::TransitionError| AppError::unprocessable(err.to_string());
    let change = call::transition(from, to).map_err(refused)?;
    change
        .check_technician(row.technician_id.is_some())
        .map_err(refused)?;
    let now = tx.now();
    let report = match report {
        None => None,
        Some(_) if to != CallStatus::Resolue => {
            return Err(AppError::unprocessable(
                "Un rapport d'intervention ne s'écrit qu'à la clôture de l'appel (statut « Résolu »).",
            ));
        }
        Some(input) => {
            let received = crate::domain::time::parse_timestamp(&row.received_at)
                .ok_or_else(|| anyhow::anyhow!("réception illisible de l'appel {call_id}"))?;
            Some(call::check_report(input, received, now).map_err(AppError::unprocessable)?)
        }
    };
    let applied = store::set_status(
        tx,
        &StatusChange {
            id: call_id,
            from,
            to,
            arrived: change.sets_arrived_at,
            resolved: change.sets_resolved_at,
            en_route: to == CallStatus::EnRoute,
            stopped: to == CallStatus::ALArret,
            now: &clock::format_timestamp(now),
        },
    )?;
    if !applied {
        return Err(anyhow::anyhow!("statut de l'appel {call_id} changé entre-temps").into());
    }
    if let Some(report) = &report {
        store::set_report(
            tx,
            call_id,
            &store::CallReport {
                cause: report.cause.clone(),
                work: report.work.clone(),
                parts: report.parts.clone(),
                back_in_service_at: Some(clock::format_timestamp(report.back_in_service_at)),
            },
        )?;
    }
    let event = if change.emits_closed_event {
        outbox::record_event_at(
            tx,
            agency_id,
            call::CLOSED_EVENT,
            call_id.as_str(),
            &row.equipment_id,
            to.as_str(),
            now,
        )?
    } else {
        None
    };
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor: &p.actor,
            action: "changement_statut",
            object_type: "call",
            object_id: Some(call_id.as_str()),
            detail: Some(json!({
                "reference": row.reference,
                "from": from.as_str(),
                "to": to.as_str(),
                "event": event,
                "report": report.as_ref().map(|r| json!({
                    "cause": r.cause, "work": r.work, "parts": r.parts,
                    "backInServiceAt": clock::format_timestamp(r.back_in_service_at),
                })),
            })),
        },
    )?;
    Ok(CallEvent {
        agency_id: agency_id.to_owned().into_string(),
        change: CallChange::Statut,
        id: call_id.to_string(),
        reference: row.reference,
        statut: to,
        urgence: row.call_type.is_emergency(),
        call_type: row.call_type,
    })
}

// -- History ----------------------------------------------------------------

/// A step of a call's life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Received (by the call center or at the agency).
    Received,
    /// A technician was assigned.
    Assigned,
    /// The status became this one.
    Status(CallStatus),
}

/// Who made a change, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActorName {
    /// `centre`, `personnel`, `jeton`, `partenaire`, `cli`, `systeme`.
    pub kind: &'static str,
    pub name: String,
}

/// One step of a call's timeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryEntry {
    /// UTC timestamp.
    pub at: String,
    pub step: Step,
    /// The technician assigned (assignment steps).
    pub technician: Option<String>,
    /// Who did it; None when the log does not say (calls older than the log).
    pub by: Option<ActorName>,
}

fn actor_name(row: &audit::AuditRow) -> ActorName {
    let name = row.actor_name.clone().unwrap_or_default();
    match row.actor_kind.as_str() {
        "account" => ActorName {
            kind: "personnel",
            name,
        },
        "api_token" => ActorName {
            kind: "jeton",
            name: match &row.actor_owner {
                Some(owner) => format!("Jeton d'API « {name} » de {owner}"),
                None => format!("Jeton d'API « {name} »"),
            },
        },
        "call_center_key" => ActorName {
            kind: "centre",
            name: row.actor_owner.clone().unwrap_or(name),
        },
        "partner_key" => ActorName {
            kind: "partenaire",
            name,
        },
        "cli" => ActorName {
            kind: "cli",
            name: "Ligne de commande".to_owned(),
        },
        _ => ActorName {
            kind: "systeme",
            name: "Liftdesk".to_owned(),
        },
    }
}

/// The timeline of a call of the agency, oldest first: its reception, each
/// assignment and status change with who made it (the audit log), and, for
/// a step the log does not hold (calls recorded before it, the large
/// demo's bulk rows), the time the call row keeps, without an author.
pub fn history(
    conn: &crate::store::Conn,
    agency_id: &AgencyId,
    row: &store::CallRow,
) -> AppResult<Vec<HistoryEntry>> {
    let log = audit::of_object(conn, agency_id, "call", row.id.as_str())?;
    let stamps = store::stamps(conn, &row.id)?;
    let opener = log.iter().find(|e| e.action == "ouverture").map(actor_name);
    let received_by = match (&row.center_name, opener) {
        (Some(center), _) => Some(ActorName {
            kind: "centre",
            name: center.clone(),
        }),
        (None, Some(actor)) => Some(actor),
        (None, None) => stamps.created_by.clone().map(|name| ActorName {
            kind: "personnel",
            name,
        }),
    };
    let mut entries = vec![HistoryEntry {
        at: row.received_at.clone(),
        step: Step::Received,
        technician: None,
        by: received_by,
    }];
    let detail_of = |entry: &audit::AuditRow, key: &str| -> Option<String> {
        let detail: serde_json::Value = serde_json::from_str(entry.detail.as_deref()?).ok()?;
        detail.get(key)?.as_str().map(str::to_owned)
    };
    let mut logged_assignment = false;
    let mut logged_statuses = Vec::new();
    for entry in &log {
        match entry.action.as_str() {
            "affectation" => {
                logged_assignment = true;
                let technician = match detail_of(entry, "technician") {
                    Some(id) => {
                        technicians::name_in_agency(conn, agency_id, &TechnicianId::new(id))?
                    }
                    None => None,
                };
                entries.push(HistoryEntry {
                    at: entry.at.clone(),
                    step: Step::Assigned,
                    technician,
                    by: Some(actor_name(entry)),
                });
            }
            "changement_statut" => {
                if let Some(to) = detail_of(entry, "to")
                    .as_deref()
                    .and_then(CallStatus::parse)
                {
                    logged_statuses.push(to);
                    entries.push(HistoryEntry {
                        at: entry.at.clone(),
                        step: Step::Status(to),
                        technician: None,
                        by: Some(actor_name(entry)),
                    });
                }
            }
            _ => {}
        }
    }
    if !logged_assignment && let Some(at) = &stamps.assigned_at {
        entries.push(HistoryEntry {
            at: at.clone(),
            step: Step::Assigned,
            technician: row.technician_name.clone(),
            by: None,
        });
    }
    for (status, at) in [
        (CallStatus::EnRoute, &stamps.en_route_at),
        (CallStatus::SurPlace, &row.arrived_at),
        (CallStatus::ALArret, &stamps.stopped_at),
        (CallStatus::Resolue, &row.resolved_at),
    ] {
        if let Some(at) = at
            && !logged_statuses.contains(&status)
        {
            entries.push(HistoryEntry {
                at: at.clone(),
                step: Step::Status(status),
                technician: None,
                by: None,
            });
        }
    }
    // Stable: steps logged at the same instant keep the log's order.
    entries.sort_by(|a, b| a.at.cmp(&b.at));
    Ok(entries)
}

// -- Listing ----------------------------------------------------------------

/// `status` value that keeps every call not resolved yet.
pub const NOT_RESOLVED: &str = "ouverts";

/// A list of calls as asked (`GET /calls`): raw query values.
#[derive(Debug, Clone, Default)]
pub struct ListInput {
    pub status: Option<String>,
    pub q: Option<String>,
    pub equipment: Option<String>,
}

/// A checked list request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallQuery {
    pub filter: store::ListFilter,
    /// Folded words of `q`: each must be found in a call's reference,
    /// equipment number, building name, address or caller.
    pub words: Vec<String>,
}

/// A call as listed, with its building's address in one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallListItem {
    pub row: CallListRow,
    pub address: Option<String>,
}

/// Checks the list's filters: an unknown status is 422 (like an unknown
/// invoice status), a search over [`MAX_SEARCH_CHARS`](crate::services::search::MAX_SEARCH_CHARS) is 400 (like the
/// surveys' search); a blank search searches nothing.
pub fn check_list(input: ListInput) -> AppResult<CallQuery> {
    let status = match input.status.as_deref() {
        None => StatusFilter::Any,
        Some(NOT_RESOLVED) => StatusFilter::NotResolved,
        Some(raw) => StatusFilter::Is(
            CallStatus::parse(raw)
                .ok_or_else(|| {
                    AppError::unprocessable(format!(
                        "Statut d'appel inconnu : « {raw} ». Valeurs possibles : {}, ou {NOT_RESOLVED} (tous sauf resolue).",
                        CallStatus::CODES.join(", ")
                    ))
                })?
                .as_str()
                .to_owned(),
        ),
    };
    let search = search_term(input.q.as_deref())?.unwrap_or_default();
    Ok(CallQuery {
        filter: store::ListFilter {
            status,
            equipment_id: input.equipment.map(EquipmentId::new),
            resolved_since: None,
            oldest_first: false,
        },
        words: fold(&search)
            .split_whitespace()
            .map(str::to_owned)
            .collect(),
    })
}

/// Whether every searched word is in the call's reference, equipment number
/// (also with its spaces removed: `asc10174` finds « ASC 10174 »), building
/// name, address or caller, accents and case ignored.
fn matches(item: &CallListItem, words: &[String]) -> bool {
    let row = &item.row;
    let compact_number = row
        .equipment_number
        .as_deref()
        .map(|n| n.split_whitespace().collect::<String>());
    let haystack = [
        Some(row.reference.as_str()),
        row.equipment_number.as_deref(),
        compact_number.as_deref(),
        row.building_name.as_deref(),
        item.address.as_deref(),
        row.caller.as_deref(),
    ]
    .into_iter()
    .flatten()
    .map(fold)
    .collect::<Vec<_>>()
    .join("\n");
    words.iter().all(|word| haystack.contains(word.as_str()))
}

fn list_item(row: CallListRow) -> CallListItem {
    let address = building_address(
        row.address.as_deref(),
        row.postal_code.as_deref(),
        row.city.as_deref(),
    );
    CallListItem { row, address }
}

/// One page of the agency's calls and how many match in all: trapped persons
/// not yet freed first, then the newest. Without search the page is read by
/// SQL; a search compares folded text, so it reads the filtered calls and
/// pages them here.
pub async fn list(
    store: &Store,
    p: &Principal,
    query: CallQuery,
    limit: u32,
    offset: u64,
) -> AppResult<(i64, Vec<CallListItem>)> {
    let agency_id = p.agency_id()?.to_owned();
    store
        .read(move |conn| {
            if query.words.is_empty() {
                let (total, rows) =
                    store::list_page(conn, &agency_id, &query.filter, limit, offset)?;
                return Ok((total, rows.into_iter().map(list_item).collect()));
            }
            let found: Vec<CallListItem> = store::list_all(conn, &agency_id, &query.filter)?
                .into_iter()
                .map(list_item)
                .filter(|item| matches(item, &query.words))
                .collect();
            let total = i64::try_from(found.len()).unwrap_or(i64::MAX);
            let skip = usize::try_from(offset).unwrap_or(usize::MAX);
            let page = found
                .into_iter()
                .skip(skip)
                .take(usize::try_from(limit).unwrap_or(usize::MAX))
                .collect();
            Ok((total, page))
        })
        .await
}

/// The call `id` of the principal's agency (404 otherwise).
pub async fn read(
    store: &Store,
    p: &Principal,
    id: &CallId,
) -> AppResult<crate::store::calls::CallRow> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), id.to_owned());
    store
        .read(move |conn| crate::store::calls::get_in_agency(conn, &agency_id, &id))
        .await?
        .ok_or_else(not_found)
}

/// A call of the agency as its screen reads it: the call, its history, the
/// technicians who could take it now, and its equipment.
#[derive(Debug)]
pub struct CallDetail {
    pub call: crate::store::calls::CallRow,
    pub history: Vec<HistoryEntry>,
    pub choices: TechnicianChoices,
    pub equipment: Option<EquipmentRow>,
}

/// The call `id` of the principal's agency with its history, the technician
/// choices and its equipment, read in one transaction (404 otherwise).
pub async fn detail(store: &Store, p: &Principal, id: &CallId) -> AppResult<CallDetail> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), id.to_owned());
    let now = store.now();
    store
        .read(move |conn| -> AppResult<_> {
            let call = store::get_in_agency(conn, &agency_id, &id)?.ok_or_else(not_found)?;
            Ok(CallDetail {
                history: history(conn, &agency_id, &call)?,
                choices: technician_choices(conn, &agency_id, now)?,
                equipment: equipment::get(conn, &agency_id, &call.equipment_id)?,
                call,
            })
        })
        .await
}

/// The equipment of the principal's agency a call may be taken for: by
/// number first (an index range, instant on a large park); when no number
/// starts so, the words searched in the number, building name and address.
/// At most `limit`, and how many match; 400 beyond [`MAX_SEARCH_CHARS`](crate::services::search::MAX_SEARCH_CHARS).
pub async fn equipment_choices(
    store: &Store,
    p: &Principal,
    search: Option<&str>,
    limit: u32,
) -> AppResult<(i64, Vec<EquipmentRow>)> {
    let agency_id = p.agency_id()?.to_owned();
    let search = search_term(search)?.unwrap_or_default();
    let key: String = search
        .chars()
        .filter(|c| *c != ' ' && *c != '\t')
        .collect::<String>()
        .to_ascii_lowercase();
    store
        .read(move |conn| {
            let by_number = equipment::by_number_prefix(conn, &agency_id, &key, limit)?;
            if by_number.0 > 0 || search.is_empty() {
                return Ok(by_number);
            }
            crate::services::equipment::search(conn, &agency_id, Some(&search), true, limit, 0)
        })
        .await
}

/// Takes a trapped-person alert into account: it leaves every screen's
/// banner. Once (a second acknowledgement changes nothing); refused for a
/// call that is not a trapped person or is resolved.
pub async fn acknowledge(
    store: &Store,
    feed: &CallFeed,
    p: &Principal,
    call_id: &CallId,
) -> AppResult<()> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?.to_owned();
    let (p, call_id) = (p.clone(), call_id.to_owned());
    let event = store
        .write(move |tx| -> AppResult<Option<CallEvent>> {
            let row = store::get_in_agency(tx, &agency_id, &call_id)?.ok_or_else(not_found)?;
            call::check_acknowledgeable(row.call_type, row.status)
                .map_err(AppError::unprocessable)?;
            let account = p.account.as_ref().map(|a| a.id.as_str().to_owned());
            let at = clock::format_timestamp(tx.now());
            if !store::acknowledge(tx, &call_id, account.as_deref(), &at)? {
                return Ok(None);
            }
            audit::record(
                tx,
                AuditEntry {
                    agency_id: Some(agency_id.as_str()),
                    actor: &p.actor,
                    action: "prise_en_compte",
                    object_type: "call",
                    object_id: Some(call_id.as_str()),
                    detail: Some(json!({ "reference": row.reference })),
                },
            )?;
            Ok(Some(CallEvent {
                agency_id: agency_id.into_string(),
                change: CallChange::PriseEnCompte,
                id: call_id.to_string(),
                reference: row.reference,
                statut: row.status,
                urgence: row.call_type.is_emergency(),
                call_type: row.call_type,
            }))
        })
        .await?;
    // The other workstations drop the banner at once.
    if let Some(event) = event {
        feed.publish(event);
    }
    Ok(())
}

/// The agency's trapped-person alerts still to acknowledge.
pub async fn alerts(store: &Store, p: &Principal) -> AppResult<Vec<store::AlertRow>> {
    let agency_id = p.agency_id()?.to_owned();
    Ok(store
        .read(move |conn| store::alerts(conn, &agency_id))
        .await?)
}

/// How many notices one read gives at most, oldest first (a desktop back
/// after an absence gets the rest on its next reads).
const NOTICES_PER_READ: i64 = 20;

/// The notices of the calls call centers opened in the agency after the
/// journal's position `after`, and the position to read from next. Without
/// `after`: none, and the current position (where a desktop connecting to
/// the agency's server starts). The same [`Notice::CallReceived`] as the
/// embedded server's, read from the database, so every server of a shared
/// database gives the same ones whichever opened the call.
pub async fn notices_after(
    store: &Store,
    p: &Principal,
    after: Option<i64>,
) -> AppResult<(i64, Vec<Notice>)> {
    let agency_id = p.agency_id()?.to_owned();
    let Some(after) = after else {
        // Under the agency's lock: no write of the agency is half-way, so
        // every later entry of it comes after this position (the journal's
        // positions of different agencies may commit out of order).
        return store
            .write_for_agency(agency_id.as_str().to_owned(), |tx| {
                Ok((audit::last_seq(tx)?, Vec::new()))
            })
            .await;
    };
    store
        .read(move |conn| -> AppResult<(i64, Vec<Notice>)> {
            let openings = audit::center_openings_after(conn, &agency_id, after, NOTICES_PER_READ)?;
            let next = openings.last().map_or(after, |last| last.seq);
            let mut notices = Vec::with_capacity(openings.len());
            for opening in openings {
                let equipment_id = EquipmentId::new(opening.equipment_id);
                let label = equipment::get(conn, &agency_id, &equipment_id)?
                    .map(|row| equipment_label(&row))
                    .unwrap_or_default();
                let urgent =
                    CallType::parse(&opening.call_type).is_some_and(CallType::is_emergency);
                notices.push(Notice::CallReceived {
                    agency_id: agency_id.clone().into_string(),
                    id: opening.call_id,
                    reference: opening.reference,
                    equipment: label,
                    urgent,
                });
            }
            Ok((next, notices))
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(reference: &str, number: Option<&str>, building: Option<&str>) -> CallListItem {
        list_item(CallListRow {
            id: CallId::new("c"),
            reference: reference.into(),
            status: CallStatus::Ouverte,
            call_type: CallType::Panne,
            caller: Some("Mme Benali".into()),
            received_at: "2026-11-21T07:00:00.000Z".into(),
            equipment_id: EquipmentId::new("e"),
            equipment_number: number.map(str::to_owned),
            building_id: building.map(|_| "b".to_owned()),
            building_name: building.map(str::to_owned),
            address: Some("3 rue Émile Zola".into()),
            postal_code: Some("92300".into()),
            city: Some("Levallois-Perret".into()),
            technician_id: None,
            technician_name: None,
        })
    }

    fn search(q: &str) -> Vec<String> {
        check_list(ListInput {
            q: Some(q.into()),
            ..ListInput::default()
        })
        .unwrap()
        .words
    }

    #[test]
    fn list_search_folds_and_needs_every_word() {
        let item = listed("CC-42", Some("ASC 10174"), Some("Résidence Les Tilleuls"));
        assert_eq!(
            item.address.as_deref(),
            Some("3 rue Émile Zola, 92300 Levallois-Perret")
        );
        for q in [
            "tilleuls",
            "RÉSIDENCE les",
            "emile zola",
            "asc10174",
            "asc 10174",
            "cc-42",
            "benali 92300",
        ] {
            assert!(matches(&item, &search(q)), "{q}");
        }
        for q in ["acacias", "tilleuls acacias", "panne"] {
            assert!(!matches(&item, &search(q)), "{q}");
        }
        assert!(search("   ").is_empty());
        let bare = listed("CC-43", None, None);
        assert!(matches(&bare, &search("cc-43")));
        assert!(!matches(&bare, &search("tilleuls")));
    }

    #[test]
    fn list_status_filter() {
        let status = |raw: Option<&str>| {
            check_list(ListInput {
                status: raw.map(str::to_owned),
                ..ListInput::default()
            })
            .map(|q| q.filter.status)
            .map_err(|e| e.status().as_u16())
        };
        assert_eq!(status(None), Ok(StatusFilter::Any));
        assert_eq!(status(Some("ouverts")), Ok(StatusFilter::NotResolved));
        assert_eq!(
            status(Some("a_l_arret")),
            Ok(StatusFilter::Is("a_l_arret".into()))
        );
        assert_eq!(status(Some("fermee")), Err(422));
        assert_eq!(status(Some("")), Err(422));
        let long = check_list(ListInput {
            q: Some("x".repeat(101)),
            ..ListInput::default()
        });
        assert_eq!(long.map_err(|e| e.status().as_u16()).err(), Some(400));
    }

    #[test]
    fn received_at_bounds() {
        let now = clock::parse_timestamp("2026-11-21T08:00:00.000Z").unwrap();
        assert_eq!(check_received_at(None, now).unwrap(), now);
        let ok = |text: &str| check_received_at(Some(text), now).is_ok();
        assert!(ok("2026-11-20T08:01:00Z"));
        assert!(ok("2026-11-20T08:00:00Z"));
        assert!(!ok("2026-11-20T07:59:00Z"));
        assert!(ok("2026-11-21T09:04:00+01:00"));
        assert!(ok("2026-11-21T08:05:00Z"));
        assert!(!ok("2026-11-21T08:06:00Z"));
        assert!(ok("2026-11-21T08:30+01:00"));
        assert!(!ok("2026-11-21T07:30:00"));
        assert!(!ok("hier"));
        assert_eq!(
            check_received_at(Some("2026-11-21T08:30:00+01:00"), now).unwrap(),
            clock::parse_timestamp("2026-11-21T07:30:00Z").unwrap()
        );
    }
}
