//! The response-time commitments of the maintenance contracts, measured:
//! each breakdown call on a lift a contract covered the day it was received
//! has its deadlines from that contract (arrival on site, back in service;
//! a trapped person first: `domain::contract::call_deadlines`), its delays,
//! and the penalty the contract would owe; the report per contract and
//! period lists them with their totals. Read from what is stored (the call's
//! times and the contract's terms, which a contract in force never changes),
//! whatever door took the call.

use std::collections::HashMap;

use chrono::{DateTime, Duration, NaiveDate, Utc};

use crate::domain::call::CallType;
use crate::domain::contract::{self, CallDeadlines, ResponseTerms};
use crate::domain::day;
use crate::domain::id::{AgencyId, CallId, ContractId};
use crate::domain::money::Cents;
use crate::domain::time;
use crate::error::{AppError, AppResult};
use crate::principal::Principal;
use crate::store::contracts::{self as store, ContractCallRow, ContractFields, ContractRow};
use crate::store::{Conn, Store};

/// Days a report covers at most (a year and a day).
pub const MAX_REPORT_DAYS: i64 = 366;

/// What a contract commits to after a call, from its fields.
pub fn response_terms(f: &ContractFields) -> ResponseTerms {
    let minutes = |m: i64| u32::try_from(m).unwrap_or(0);
    ResponseTerms {
        arrival_minutes: minutes(f.arrival_minutes),
        out_of_hours_minutes: f.arrival_out_of_hours_minutes.map(minutes),
        trapped_minutes: minutes(f.trapped_minutes),
        restore_minutes: minutes(f.restore_minutes),
        weekend: f.weekend_coverage,
        on_call: f.on_call_coverage,
    }
}

/// A call's commitments under the contract that covered its lift.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallCommitment {
    pub contract_id: ContractId,
    pub contract_number: String,
    pub deadlines: CallDeadlines,
    /// The technician arrived / the lift back in service.
    pub arrived: bool,
    pub restored: bool,
    /// Minutes past each deadline (0 in time), counted to now while not done.
    pub arrival_late: i64,
    pub restore_late: i64,
    /// What the contract would owe for them (its penalty per hour begun).
    pub penalty: Cents,
}

impl CallCommitment {
    /// A deadline is missed (or, not done, already past).
    pub fn late(&self) -> bool {
        self.arrival_late > 0 || self.restore_late > 0
    }
}

/// The commitments of a call under `row`: received at `received`, the
/// technician arrived at `arrived`, back in service at `restored`.
pub fn commitment_of(
    row: &ContractRow,
    call_type: CallType,
    received: DateTime<Utc>,
    (arrived, restored): (Option<DateTime<Utc>>, Option<DateTime<Utc>>),
    now: DateTime<Utc>,
) -> CallCommitment {
    let deadlines = contract::call_deadlines(
        &response_terms(&row.fields),
        call_type == CallType::PersonneBloquee,
        received,
    );
    // A call resolved with no one on site (a false alarm, a fix by phone)
    // owes no arrival after its resolution.
    let arrival_late = contract::minutes_late(deadlines.arrival, arrived.or(restored), now);
    let restore_late = contract::minutes_late(deadlines.restore, restored, now);
    let per_hour = Cents::new(row.fields.penalty_per_hour_cents);
    CallCommitment {
        contract_id: row.id.clone(),
        contract_number: row.number.clone(),
        deadlines,
        arrived: arrived.is_some(),
        restored: restored.is_some(),
        arrival_late,
        restore_late,
        penalty: contract::late_penalty(per_hour, arrival_late)
            + contract::late_penalty(per_hour, restore_late),
    }
}

/// The commitment of `call` under `contract`, when the contract covered
/// the call's day (arrival measured at `arrived_at`, return to service at
/// the closing report's time, else at the resolution).
fn covered_call(
    contract: &ContractRow,
    call: &ContractCallRow,
    now: DateTime<Utc>,
) -> Option<CallCommitment> {
    let received = time::parse_timestamp(&call.received_at)?;
    if !covered(contract, time::paris_local(received).date()) {
        return None;
    }
    let at = |text: &Option<String>| text.as_deref().and_then(time::parse_timestamp);
    let restored = at(&call.back_in_service_at).or(at(&call.resolved_at));
    Some(commitment_of(
        contract,
        call.call_type,
        received,
        (at(&call.arrived_at), restored),
        now,
    ))
}

/// Whether `row` covered its lifts on `day` (whatever it became since).
fn covered(row: &ContractRow, day: NaiveDate) -> bool {
    contract::covered_on(
        row.status,
        &crate::services::contracts::terms_of(&row.fields),
        row.ends_on.as_deref().and_then(day::read),
        day,
    )
}

/// The period of a report, as received.
#[derive(Debug, Clone, Default)]
pub struct ReportInput {
    pub from: String,
    pub to: String,
}

/// A call of a report.
#[derive(Debug, Clone)]
pub struct ReportedCall {
    pub call: ContractCallRow,
    pub commitment: CallCommitment,
}

/// The calls of a contract over a period, with their delays and penalties.
#[derive(Debug, Clone)]
pub struct ResponseReport {
    pub contract: ContractRow,
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub calls: Vec<ReportedCall>,
    /// Calls with a deadline missed (or past while not done).
    pub late: usize,
    pub trapped: usize,
    pub penalties: Cents,
}

fn check_period(input: &ReportInput) -> AppResult<(NaiveDate, NaiveDate)> {
    let read = |field: &str, raw: &str| {
        day::parse(raw.trim()).map_err(|_| {
            AppError::unprocessable(format!(
                "Le paramètre « {field} » doit être un jour AAAA-MM-JJ (reçu : « {raw} »)."
            ))
        })
    };
    let from = read("from", &input.from)?;
    let to = read("to", &input.to)?;
    if to < from {
        return Err(AppError::unprocessable(
            "La période du rapport finit avant de commencer : « to » doit suivre « from ».",
        ));
    }
    if (to - from).num_days() >= MAX_REPORT_DAYS {
        return Err(AppError::unprocessable(format!(
            "La période du rapport ne doit pas dépasser {MAX_REPORT_DAYS} jours."
        )));
    }
    Ok((from, to))
}

/// The report of the contract `id` of the agency for the calls received
/// from `from` to `to` (Paris days, inclusive) on its lifts, while it
/// covered them.
pub fn report_in(
    conn: &Conn,
    agency_id: &AgencyId,
    id: &ContractId,
    (from, to): (NaiveDate, NaiveDate),
    now: DateTime<Utc>,
) -> AppResult<ResponseReport> {
    let contract = store::get(conn, agency_id, id)?
        .ok_or_else(|| AppError::not_found("Contrat introuvable dans cette agence."))?;
    let instant = |day: NaiveDate| {
        crate::clock::format_timestamp(time::paris_to_utc(day.and_time(chrono::NaiveTime::MIN)))
    };
    let until = to + Duration::days(1);
    let mut calls = Vec::new();
    for call in store::calls_of(conn, agency_id, id, &instant(from), &instant(until))? {
        if let Some(commitment) = covered_call(&contract, &call, now) {
            calls.push(ReportedCall { call, commitment });
        }
    }
    Ok(ResponseReport {
        late: calls.iter().filter(|c| c.commitment.late()).count(),
        trapped: calls
            .iter()
            .filter(|c| c.call.call_type == CallType::PersonneBloquee)
            .count(),
        penalties: calls
            .iter()
            .fold(Cents::ZERO, |sum, c| sum + c.commitment.penalty),
        contract,
        from,
        to,
        calls,
    })
}

/// [`report_in`] for the acting agency.
pub async fn report(
    store: &Store,
    p: &Principal,
    id: &ContractId,
    input: ReportInput,
) -> AppResult<ResponseReport> {
    let agency_id = p.agency_id()?.to_owned();
    let period = check_period(&input)?;
    let id = id.clone();
    let now = store.now();
    store
        .read(move |conn| report_in(conn, &agency_id, &id, period, now))
        .await
}

/// The commitments of the agency's calls `ids` (those on a lift a contract
/// covered the day they were received): the board's time left and late
/// marks, read in one query. An id of no call of the agency is passed over.
pub async fn of_calls(
    store: &Store,
    p: &Principal,
    ids: Vec<CallId>,
) -> AppResult<HashMap<CallId, CallCommitment>> {
    let agency_id = p.agency_id()?.to_owned();
    let now = store.now();
    store
        .read(move |conn| {
            let mut found = HashMap::new();
            // A call's contracts come together, the most recent start first:
            // the first that covered the call's day is the one.
            for (call, contract) in store::calls_with_contracts(conn, &agency_id, &ids)? {
                if found.contains_key(&call.id) {
                    continue;
                }
                if let Some(commitment) = covered_call(&contract, &call, now) {
                    found.insert(call.id, commitment);
                }
            }
            Ok(found)
        })
        .await
}
