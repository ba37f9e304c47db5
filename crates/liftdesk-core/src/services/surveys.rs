//! A survey's submission: the technician hands in the data collected on site.
//! In one transaction the data are recorded on the survey and copied to the
//! equipment's current data, the survey becomes `termine`, `releve.termine`
//! is queued in the outbox and the audit log records who did it. Every entry
//! point (REST API v2, web UI, later the mobile app and MCP) calls [`submit`],
//! so the event is queued once, wherever the survey is submitted.

use crate::domain::id::{AgencyId, SurveyId};
use chrono::{DateTime, NaiveDate, Utc};
use serde_json::{Map, Value, json};

use crate::clock;
use crate::domain::day::{self, DayError};
use crate::domain::survey::{self as domain, SurveyStatus};
use crate::error::{AppError, AppResult};
use crate::principal::{self, Capability, Principal};
use crate::services::search::search_term;
use crate::services::technical_data::{self, Change};
use crate::store::accounts::AccountRow;
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::discrepancies::DiscrepancyRow;
use crate::store::surveys::{
    self as survey_store, DealRow, Submission, SurveyListRow, SurveyRow, SurveySummaryRow,
};
use crate::store::technical_fields::CatalogField;
use crate::store::{Store, Tx};
use crate::store::{equipment as equipment_store, outbox, technical_fields};

pub const NOT_FOUND: &str = "Relevé introuvable.";

/// What the technician hands in; everything is optional.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SubmitInput {
    /// The day the survey was made, `YYYY-MM-DD`; default today in Paris.
    pub surveyed_on: Option<String>,
    /// Data collected, keyed by catalog code (see
    /// `technical_data::parse_survey_values`); `null` removes a datum from
    /// the survey's data.
    pub values: Option<Map<String, Value>>,
}

/// A submitted survey.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submitted {
    pub id: String,
    pub status: SurveyStatus,
    /// The outbox row of `releve.termine`.
    pub event_id: Option<String>,
}

/// Whether `account` may submit a survey in `status` now: the capability `SubmitSurvey`
/// then the state machine (`domain::survey::submit`), the checks and reasons
/// of [`submit`], for a screen that offers the submission only when it would
/// be accepted (and says why not otherwise).
pub fn check_submittable(account: &AccountRow, status: SurveyStatus) -> AppResult<()> {
    principal::check(account, Capability::SubmitSurvey)?;
    domain::submit(status).map_err(|refusal| AppError::unprocessable(refusal.message()))?;
    Ok(())
}

/// The Paris day a survey was asked for (its `created_at`): `surveyedOn`
/// may not precede it. None when the stored timestamp does not read.
pub fn requested_on(created_at: &str) -> Option<NaiveDate> {
    clock::parse_timestamp(created_at).map(|created| clock::paris_local(created).date())
}

/// The day the survey was made: `raw` written exactly `YYYY-MM-DD`, not after
/// `today` (Paris) and not before `requested_on` (the Paris day the survey
/// was asked for); `today` when absent.
pub fn check_surveyed_on(
    raw: Option<&str>,
    today: NaiveDate,
    requested_on: Option<NaiveDate>,
) -> AppResult<NaiveDate> {
    let Some(raw) = raw else {
        return Ok(today);
    };
    let day = day::parse(raw).map_err(|error| {
        AppError::unprocessable(match error {
            DayError::Malformed => format!(
                "Le champ « surveyedOn » doit être une date AAAA-MM-JJ, par exemple 2026-03-09 (reçu : « {raw} »)."
            ),
            DayError::Impossible => {
                format!("Le champ « surveyedOn » n'est pas une date qui existe : « {raw} ».")
            }
        })
    })?;
    if day > today {
        return Err(AppError::unprocessable(format!(
            "Le champ « surveyedOn » ne peut pas être dans le futur (aujourd'hui : {}).",
            day::french(today)
        )));
    }
    if let Some(requested_on) = requested_on
        && day < requested_on
    {
        return Err(AppError::unprocessable(format!(
            "Le champ « surveyedOn » ne peut pas précéder la demande du relevé, faite le {}.",
            day::french(requested_on)
        )));
    }
    Ok(day)
}

fn json_of(text: &str) -> Value {
    // The tables' CHECK (json_valid) guarantees valid JSON.
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// Submits a survey of the agency: 403 for an account that may not
/// (`check_can_submit`), 404 when the survey is not in the agency, 422 when
/// its status refuses it (`domain::survey::submit`), for a bad `surveyedOn`
/// or a refused datum — checked in that order, before anything is written.
/// Then, in the caller's transaction: the given data are recorded on the
/// survey (`null` removes one), every datum of the survey is copied to the
/// equipment (`survey_id` and `surveyed_at` = now), the survey becomes
/// `termine` with `submitted_at` now, `surveyed_on`, and its surveyor if it
/// had none; `releve.termine` is queued with `occurredAt` = `submitted_at`;
/// one audit entry `soumission` records it.
pub fn submit(
    tx: &Tx,
    agency_id: &AgencyId,
    survey_id: &SurveyId,
    account: &AccountRow,
    input: &SubmitInput,
    actor: &Actor,
) -> AppResult<Submitted> {
    submit_at(tx, agency_id, survey_id, account, input, actor, tx.now())
}

/// [`submit`] at a given instant.
pub fn submit_at(
    tx: &Tx,
    agency_id: &AgencyId,
    survey_id: &SurveyId,
    account: &AccountRow,
    input: &SubmitInput,
    actor: &Actor,
    now: DateTime<Utc>,
) -> AppResult<Submitted> {
    principal::check(account, Capability::SubmitSurvey)?;
    let survey = survey_store::get(tx, agency_id, survey_id)?
        .ok_or_else(|| AppError::not_found(NOT_FOUND))?;
    let from = survey.status.ok_or_else(|| {
        AppError::Internal(anyhow::anyhow!(
            "statut inconnu en base pour le relevé {survey_id}"
        ))
    })?;
    let change =
        domain::submit(from).map_err(|refusal| AppError::unprocessable(refusal.message()))?;
    let requested_on = requested_on(&survey.created_at);
    let surveyed_on = check_surveyed_on(
        input.surveyed_on.as_deref(),
        clock::paris_local(now).date(),
        requested_on,
    )?;
    let catalog = technical_fields::all(tx)?;
    let given = match &input.values {
        Some(values) => technical_data::parse_survey_values(&catalog, values)?,
        None => Vec::new(),
    };

    // Everything is checked: write.
    for (field, value) in &given {
        match value {
            Change::Set(value) => {
                survey_store::set_value(tx, survey_id, &field.code, &value.to_string())?
            }
            Change::Erase => survey_store::delete_value(tx, survey_id, &field.code)?,
        }
    }
    let submitted_at = clock::format_timestamp(now);
    let surveyed_on_text = day::iso(surveyed_on);
    let applied = survey_store::mark_submitted(
        tx,
        &Submission {
            id: survey_id,
            from: change.from.as_str(),
            to: change.to.as_str(),
            surveyed_on: &surveyed_on_text,
            submitted_at: &submitted_at,
            surveyor_account_id: &account.id,
        },
    )?;
    if !applied {
        return Err(anyhow::anyhow!("statut du relevé {survey_id} changé entre-temps").into());
    }

    let before = equipment_store::values(tx, &survey.equipment_id)?;
    let copied = if change.submits {
        equipment_store::record_survey_values(tx, &survey.equipment_id, survey_id, &submitted_at)?
    } else {
        0
    };
    let recorded = survey_store::values(tx, survey_id)?;
    let mut equipment_changes = Map::new();
    for (code, text) in &recorded {
        let old = before
            .iter()
            .find(|(c, _)| c == code)
            .map(|(_, t)| json_of(t));
        let new = json_of(text);
        if old.as_ref() != Some(&new) {
            equipment_changes.insert(code.clone(), json!({ "before": old, "after": new }));
        }
    }
    if !equipment_changes.is_empty() {
        equipment_store::touch(tx, &survey.equipment_id)?;
    }

    let event_id = if change.emits_finished_event {
        outbox::record_event_at(
            tx,
            agency_id,
            domain::FINISHED_EVENT,
            survey_id.as_str(),
            &survey.equipment_id,
            change.to.as_str(),
            now,
        )?
    } else {
        None
    };

    let sent: Map<String, Value> = given
        .iter()
        .map(|(field, value)| {
            let value = match value {
                Change::Set(value) => value.clone(),
                Change::Erase => Value::Null,
            };
            (field.code.clone(), value)
        })
        .collect();
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor,
            action: "soumission",
            object_type: "survey",
            object_id: Some(survey_id.as_str()),
            detail: Some(json!({
                "number": survey.number,
                "from": change.from.as_str(),
                "to": change.to.as_str(),
                "account": account.id,
                "surveyedOn": surveyed_on_text,
                "values": sent,
                "equipment": survey.equipment_id,
                "copiedToEquipment": copied,
                "equipmentChanges": equipment_changes,
                "event": event_id,
            })),
        },
    )?;
    Ok(Submitted {
        id: survey_id.to_owned().into_string(),
        status: change.to,
        event_id,
    })
}

/// The most photos a survey holds.
pub const MAX_PHOTOS: i64 = 500;

/// What the technician saves before submitting: data entered so far and
/// the photos taken.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SaveInput {
    /// Keyed by catalog code, as for a submission; `null` removes one.
    pub values: Option<Map<String, Value>>,
    /// How many photos the survey holds (0 to [`MAX_PHOTOS`]).
    pub photo_count: Option<i64>,
}

/// The survey of the principal's agency and the transition `action` makes
/// of its status (404, 422 in French otherwise).
fn load_for(
    tx: &Tx,
    p: &Principal,
    id: &SurveyId,
    action: domain::SurveyAction,
) -> AppResult<(SurveyRow, domain::SurveyTransition)> {
    let survey =
        survey_store::get(tx, p.agency_id()?, id)?.ok_or_else(|| AppError::not_found(NOT_FOUND))?;
    let from = survey.status.ok_or_else(|| {
        AppError::Internal(anyhow::anyhow!(
            "statut inconnu en base pour le relevé {id}"
        ))
    })?;
    let change = domain::transition(from, action)
        .map_err(|refusal| AppError::unprocessable(refusal.message()))?;
    Ok((survey, change))
}

/// Moves the survey through `change` (its surveyor set if it had none),
/// unless its status changed meanwhile.
fn apply(
    tx: &Tx,
    id: &SurveyId,
    change: domain::SurveyTransition,
    surveyor: Option<&crate::domain::id::AccountId>,
) -> AppResult<()> {
    if survey_store::mark_status(tx, id, change.from.as_str(), change.to.as_str(), surveyor)? {
        Ok(())
    } else {
        Err(anyhow::anyhow!("statut du relevé {id} changé entre-temps").into())
    }
}

/// The technician saves what he entered on a survey of the principal's
/// agency without submitting it: the data are recorded on the survey only
/// (the equipment's stay as they are until the submission), the photos
/// counted, the survey `en_cours` with him as its surveyor if it had none.
/// Accounts that perform surveys, and administrators. One audit entry
/// `enregistrement`.
pub fn save_in(tx: &Tx, p: &Principal, id: &SurveyId, input: &SaveInput) -> AppResult<()> {
    let account = p.account()?;
    principal::check(account, Capability::SubmitSurvey)?;
    let (survey, change) = load_for(tx, p, id, domain::SurveyAction::Save)?;
    if let Some(count) = input.photo_count
        && !(0..=MAX_PHOTOS).contains(&count)
    {
        return Err(AppError::unprocessable(format!(
            "Le champ « photoCount » va de 0 à {MAX_PHOTOS} (reçu : {count})."
        )));
    }
    let catalog = technical_fields::all(tx)?;
    let given = match &input.values {
        Some(values) => technical_data::parse_survey_values(&catalog, values)?,
        None => Vec::new(),
    };
    for (field, value) in &given {
        match value {
            Change::Set(value) => survey_store::set_value(tx, id, &field.code, &value.to_string())?,
            Change::Erase => survey_store::delete_value(tx, id, &field.code)?,
        }
    }
    if let Some(count) = input.photo_count {
        survey_store::set_photo_count(tx, id, count)?;
    }
    apply(tx, id, change, Some(&account.id))?;
    record(
        tx,
        p,
        id,
        "enregistrement",
        json!({
            "number": survey.number, "from": change.from.as_str(), "to": change.to.as_str(),
            "values": given.len(), "photoCount": input.photo_count,
        }),
    )
}

/// A survey of the principal's agency is no longer wanted: `annule`, final
/// (its data never reach the equipment). `reason`, when given, says why.
/// One audit entry `annulation`.
pub fn cancel_in(tx: &Tx, p: &Principal, id: &SurveyId, reason: Option<&str>) -> AppResult<()> {
    p.require(Capability::Change)?;
    let reason =
        crate::domain::text::field("reason", reason, 300).map_err(AppError::unprocessable)?;
    let (survey, change) = load_for(tx, p, id, domain::SurveyAction::Cancel)?;
    apply(tx, id, change, None)?;
    record(
        tx,
        p,
        id,
        "annulation",
        json!({
            "number": survey.number, "from": change.from.as_str(), "to": change.to.as_str(),
            "reason": reason,
        }),
    )
}

/// The day a survey of the principal's agency is wanted by (none to clear
/// it); refused once it is submitted or cancelled. One audit entry
/// `echeance`.
pub fn set_due_on_in(
    tx: &Tx,
    p: &Principal,
    id: &SurveyId,
    due_on: Option<NaiveDate>,
) -> AppResult<()> {
    p.require(Capability::Change)?;
    let survey =
        survey_store::get(tx, p.agency_id()?, id)?.ok_or_else(|| AppError::not_found(NOT_FOUND))?;
    if matches!(
        survey.status,
        Some(SurveyStatus::Termine | SurveyStatus::Annule)
    ) {
        return Err(AppError::unprocessable(
            "L'échéance d'un relevé terminé ou annulé ne se modifie plus.",
        ));
    }
    let due_text = due_on.map(day::iso);
    survey_store::set_due_on(tx, id, due_text.as_deref())?;
    record(
        tx,
        p,
        id,
        "echeance",
        json!({ "number": survey.number, "dueOn": due_text }),
    )
}

fn record(tx: &Tx, p: &Principal, id: &SurveyId, action: &str, detail: Value) -> AppResult<()> {
    p.record(tx, "survey", id.as_str(), action, detail)
}

// -- Operations for a principal ---------------------------------------------

/// One page of the principal's agency's surveys whose number holds `search`
/// (trimmed; 400 beyond [`MAX_SEARCH_CHARS`](crate::services::search::MAX_SEARCH_CHARS) characters), and their total.
pub async fn list_page(
    store: &Store,
    p: &Principal,
    search: Option<&str>,
    limit: u32,
    offset: u64,
) -> AppResult<(i64, Vec<SurveyListRow>)> {
    let search = search_term(search)?;
    let agency_id = p.agency_id()?.to_owned();
    Ok(store
        .read(move |conn| survey_store::list(conn, &agency_id, search.as_deref(), limit, offset))
        .await?)
}

/// A survey of the principal's agency and its deals (404 otherwise).
pub async fn read(
    store: &Store,
    p: &Principal,
    id: &SurveyId,
) -> AppResult<(SurveyRow, Vec<DealRow>)> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), id.to_owned());
    store
        .read(move |conn| -> AppResult<_> {
            let Some(survey) = survey_store::get(conn, &agency_id, &id)? else {
                return Ok(None);
            };
            let deals = survey_store::deals_of(conn, &survey.id)?;
            Ok(Some((survey, deals)))
        })
        .await?
        .ok_or_else(|| AppError::not_found(NOT_FOUND))
}

/// What a survey collected, read in one transaction.
#[derive(Debug, Clone)]
pub struct SurveyDataRead {
    pub survey: SurveyRow,
    pub deals: Vec<DealRow>,
    /// The catalog of technical fields.
    pub catalog: Vec<CatalogField>,
    /// The survey's values, by field id.
    pub values: Vec<(String, String)>,
}

/// The data a survey of the principal's agency collected (404 otherwise).
pub async fn data(store: &Store, p: &Principal, id: &SurveyId) -> AppResult<SurveyDataRead> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), id.to_owned());
    store
        .read(move |conn| -> AppResult<_> {
            let Some(survey) = survey_store::get(conn, &agency_id, &id)? else {
                return Ok(None);
            };
            Ok(Some(SurveyDataRead {
                deals: survey_store::deals_of(conn, &survey.id)?,
                catalog: technical_fields::all(conn)?,
                values: survey_store::values(conn, &survey.id)?,
                survey,
            }))
        })
        .await?
        .ok_or_else(|| AppError::not_found(NOT_FOUND))
}

/// The principal submits a survey of its agency (see [`submit`]).
pub async fn submit_for(
    store: &Store,
    p: &Principal,
    id: &SurveyId,
    input: SubmitInput,
) -> AppResult<Submitted> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), id.to_owned());
    let (account, actor) = (p.account()?.clone(), p.actor.clone());
    store
        .write(move |tx| submit(tx, &agency_id, &id, &account, &input, &actor))
        .await
}

/// The principal saves what was entered on a survey (see [`save_in`]).
pub async fn save_for(
    store: &Store,
    p: &Principal,
    id: &SurveyId,
    input: SaveInput,
) -> AppResult<()> {
    p.agency_id()?;
    let (p, id) = (p.clone(), id.to_owned());
    store.write(move |tx| save_in(tx, &p, &id, &input)).await
}

/// The principal cancels a survey (see [`cancel_in`]).
pub async fn cancel_for(
    store: &Store,
    p: &Principal,
    id: &SurveyId,
    reason: Option<String>,
) -> AppResult<()> {
    p.agency_id()?;
    let (p, id) = (p.clone(), id.to_owned());
    store
        .write(move |tx| cancel_in(tx, &p, &id, reason.as_deref()))
        .await
}

/// The principal sets the day a survey is wanted by (see [`set_due_on_in`]).
pub async fn set_due_on_for(
    store: &Store,
    p: &Principal,
    id: &SurveyId,
    due_on: Option<NaiveDate>,
) -> AppResult<()> {
    p.agency_id()?;
    let (p, id) = (p.clone(), id.to_owned());
    store
        .write(move |tx| set_due_on_in(tx, &p, &id, due_on))
        .await
}

/// What the survey list of the web application adds to each row: status,
/// equipment, surveyor and days, for the surveys `ids` of the principal's
/// agency.
pub async fn summaries(
    store: &Store,
    p: &Principal,
    ids: Vec<String>,
) -> AppResult<Vec<SurveySummaryRow>> {
    let agency_id = p.agency_id()?.to_owned();
    Ok(store
        .read(move |conn| survey_store::summaries(conn, &agency_id, &ids))
        .await?)
}

/// A survey of the principal's agency as its submission form needs it: its
/// summary, the catalog of technical fields and its values (404 otherwise).
pub async fn form(
    store: &Store,
    p: &Principal,
    id: &SurveyId,
) -> AppResult<(SurveySummaryRow, Vec<CatalogField>, Vec<(String, String)>)> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), id.to_owned());
    store
        .read(move |conn| -> AppResult<_> {
            let Some(summary) =
                survey_store::summaries(conn, &agency_id, &[id.into_string()])?.pop()
            else {
                return Ok(None);
            };
            let catalog = technical_fields::all(conn)?;
            let values = survey_store::values(conn, &summary.id)?;
            Ok(Some((summary, catalog, values)))
        })
        .await?
        .ok_or_else(|| AppError::not_found(NOT_FOUND))
}

/// One page of what a survey of the principal's agency found, newest first
/// (404 for a survey outside the agency), and their total.
pub async fn discrepancies(
    store: &Store,
    p: &Principal,
    id: &SurveyId,
    limit: u32,
    offset: u64,
) -> AppResult<(i64, Vec<DiscrepancyRow>)> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), id.to_owned());
    store
        .read(move |conn| -> AppResult<_> {
            if survey_store::get(conn, &agency_id, &id)?.is_none() {
                return Ok(None);
            }
            Ok(Some(crate::store::discrepancies::of_survey(
                conn, &agency_id, &id, limit, offset,
            )?))
        })
        .await?
        .ok_or_else(|| AppError::not_found(NOT_FOUND))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    fn check(raw: Option<&str>) -> Result<String, (u16, String)> {
        check_surveyed_on(raw, day("2026-11-21"), Some(day("2026-11-02")))
            .map(|d| d.to_string())
            .map_err(|e| (e.status().as_u16(), e.public_message()))
    }

    #[test]
    fn the_survey_day_is_today_by_default_never_in_the_future_nor_before_the_request() {
        assert_eq!(check(None), Ok("2026-11-21".to_owned()));
        assert_eq!(check(Some("2026-11-21")), Ok("2026-11-21".to_owned()));
        assert_eq!(check(Some("2026-11-02")), Ok("2026-11-02".to_owned()));
        assert_eq!(
            check(Some("2026-11-22")),
            Err((
                422,
                "Le champ « surveyedOn » ne peut pas être dans le futur (aujourd'hui : 21/11/2026)."
                    .to_owned()
            ))
        );
        assert_eq!(
            check(Some("2026-11-01")),
            Err((
                422,
                "Le champ « surveyedOn » ne peut pas précéder la demande du relevé, faite le 02/11/2026."
                    .to_owned()
            ))
        );
        assert_eq!(
            check(Some("21/11/2026")),
            Err((
                422,
                "Le champ « surveyedOn » doit être une date AAAA-MM-JJ, par exemple 2026-03-09 (reçu : « 21/11/2026 »)."
                    .to_owned()
            ))
        );
        assert_eq!(check(Some("2026-02-30")).unwrap_err().0, 422);
        assert_eq!(check(Some("2026-11-2")).unwrap_err().0, 422);
        assert_eq!(check(Some(" 2026-11-20")).unwrap_err().0, 422);
        // Without a known request day, only the future is refused.
        assert!(check_surveyed_on(Some("1990-01-01"), day("2026-11-21"), None).is_ok());
    }
}
