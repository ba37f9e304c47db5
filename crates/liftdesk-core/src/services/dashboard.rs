//! The home screen's figures for the principal's agency (`GET
//! /app/api/dashboard`), in one read model — open calls by status, this week's visits (planned, done)
//! and the overdue ones, invoices issued and paid per month over twelve
//! months, the unpaid amount by age, the equipment by knowledge rate, and
//! the « À traiter » panel (trapped-person calls not resolved, calls left
//! unassigned, late visits, quotes waiting for an answer, invoices past
//! due), and the maintenance contracts coming to their term within 90 days.
//! Every figure is one aggregate query of `store::dashboard`, but the
//! renewals: the contracts in force read once, their terms computed by the
//! domain (`domain::contract::Terms::term_on`).

use chrono::{Datelike, Duration, NaiveDate};
use serde::Serialize;
use ts_rs::TS;

use crate::clock;
use crate::domain::call::CallStatus;
use crate::domain::day;
use crate::domain::knowledge;
use crate::error::AppResult;
use crate::principal::Principal;
use crate::store::Store;
use crate::store::dashboard::{self as store, MonthFigure, UNPAID_BUCKETS};

/// Months shown by the invoice chart, the current one included.
pub const MONTHS: u32 = 12;

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct StatusCount {
    statut: &'static str,
    libelle: &'static str,
    count: i64,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct CallsOut {
    /// Open calls (not resolved).
    total: i64,
    /// Every status but `resolue`, in the order of the call's life.
    by_status: Vec<StatusCount>,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct VisitsOut {
    week_start: String,
    week_end: String,
    /// Visits planned this week (every status).
    planned: i64,
    /// Of them, done.
    done: i64,
    /// Of them, not done yet.
    remaining: i64,
    /// Visits not done whose day or limit date has passed (any week).
    overdue: i64,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct MonthOut {
    /// `YYYY-MM`.
    month: String,
    /// « nov. 2026 ».
    label: String,
    issued: i64,
    issued_cents: i64,
    paid: i64,
    paid_cents: i64,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct BucketOut {
    bucket: &'static str,
    label: &'static str,
    count: i64,
    amount_cents: i64,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct UnpaidOut {
    total_cents: i64,
    count: i64,
    buckets: Vec<BucketOut>,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct BandOut {
    band: &'static str,
    label: &'static str,
    count: i64,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct KnowledgeOut {
    total: i64,
    bands: Vec<BandOut>,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DashboardOut {
    /// Today in Paris, `YYYY-MM-DD`.
    today: String,
    calls: CallsOut,
    visits: VisitsOut,
    invoices: Vec<MonthOut>,
    unpaid: UnpaidOut,
    knowledge: KnowledgeOut,
    /// « À traiter »: what needs someone now.
    todo: TodoOut,
    /// Maintenance contracts in force whose term ends within
    /// [`RENEWAL_DAYS`] days.
    renewals: RenewalsOut,
}

/// Days ahead the dashboard shows the contracts coming to their term.
pub const RENEWAL_DAYS: i64 = 90;

/// A contract in force coming to the end of its term.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct RenewalOut {
    id: String,
    number: String,
    client_name: String,
    /// `YYYY-MM-DD`: the last day of its current term.
    term_end: String,
    /// Renewed at that day unless a notice ends it; otherwise it ends then.
    tacit_renewal: bool,
    /// `YYYY-MM-DD`: the last day a notice ends it at that term (tacit
    /// renewal only).
    notice_deadline: Option<String>,
    lifts: i64,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct RenewalsOut {
    within_days: i64,
    count: usize,
    /// The first few, the nearest term first.
    items: Vec<RenewalOut>,
}

/// The agency's contracts in force whose current term ends from `today` to
/// [`RENEWAL_DAYS`] days later, nearest first (`items`: the first
/// [`TODO_ITEMS`]).
fn renewals(
    conn: &crate::store::Conn,
    agency_id: &crate::domain::id::AgencyId,
    today: NaiveDate,
) -> AppResult<RenewalsOut> {
    use crate::domain::contract::ContractStatus;
    use crate::services::contracts::terms_of;
    let horizon = today + Duration::days(RENEWAL_DAYS);
    let mut due: Vec<RenewalOut> =
        crate::store::contracts::billable(conn, agency_id, &day::iso(today))?
            .into_iter()
            .filter(|row| row.status == ContractStatus::Actif)
            .filter_map(|row| {
                let terms = terms_of(&row.fields);
                let (_, end) = terms.term_on(today);
                (end >= today && end <= horizon).then(|| RenewalOut {
                    id: row.id.to_string(),
                    number: row.number.clone(),
                    client_name: row.client_name.clone(),
                    term_end: day::iso(end),
                    tacit_renewal: terms.tacit_renewal,
                    notice_deadline: terms
                        .tacit_renewal
                        .then(|| day::iso(terms.notice_deadline(end))),
                    lifts: row.lifts,
                })
            })
            .collect();
    due.sort_by(|a, b| (&a.term_end, &a.number).cmp(&(&b.term_end, &b.number)));
    let count = due.len();
    due.truncate(TODO_ITEMS as usize);
    Ok(RenewalsOut {
        within_days: RENEWAL_DAYS,
        count,
        items: due,
    })
}

/// Minutes after which an open call without a technician is to be dealt with.
pub const UNASSIGNED_AFTER_MINUTES: i64 = 15;
/// Days after which a sent quote with no answer is to be followed up.
pub const QUOTE_WAITING_DAYS: i64 = 30;
/// Items named per kind in the panel (the counts are whole).
const TODO_ITEMS: u32 = 5;

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct TodoCallOut {
    id: String,
    reference: String,
    #[ts(type = "CallType")]
    call_type: String,
    #[ts(type = "CallStatus")]
    status: String,
    status_label: &'static str,
    /// UTC timestamp.
    received_at: String,
    equipment_id: String,
    number: Option<String>,
    assigned: bool,
}

#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct TodoQuoteOut {
    id: String,
    number: Option<String>,
    object: String,
    /// UTC timestamp.
    sent_at: String,
    equipment_id: String,
    equipment_number: Option<String>,
}

/// The « À traiter » panel: each list holds the oldest few, each count all.
#[derive(Debug, Serialize, TS)]
#[serde(rename_all = "camelCase")]
struct TodoOut {
    /// Trapped-person calls not resolved.
    trapped_count: i64,
    trapped: Vec<TodoCallOut>,
    /// Open calls without a technician for more than
    /// [`UNASSIGNED_AFTER_MINUTES`] minutes.
    unassigned_count: i64,
    unassigned: Vec<TodoCallOut>,
    unassigned_after_minutes: i64,
    /// Visits not done past their planned day or deadline (the figure of
    /// `visits.overdue`).
    late_visits: i64,
    /// Quotes sent more than [`QUOTE_WAITING_DAYS`] days ago with no answer.
    waiting_quotes_count: i64,
    waiting_quotes: Vec<TodoQuoteOut>,
    quote_waiting_days: i64,
    /// Invoices past their due day and not settled, and what they still owe.
    overdue_invoices: i64,
    overdue_cents: i64,
}

fn todo_call(call: store::TodoCall) -> TodoCallOut {
    TodoCallOut {
        status_label: CallStatus::parse(&call.status).map_or("", CallStatus::label),
        id: call.id,
        reference: call.reference,
        call_type: call.call_type,
        status: call.status,
        received_at: call.received_at,
        equipment_id: call.equipment_id,
        number: call.number,
        assigned: call.assigned,
    }
}

const MONTH_NAMES: [&str; 12] = [
    "janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.",
    "déc.",
];

fn unpaid_label(bucket: &str) -> &'static str {
    match bucket {
        "a_echoir" => "Non échues",
        "0_30" => "0 à 30 jours",
        "31_60" => "31 à 60 jours",
        "61_90" => "61 à 90 jours",
        _ => "Plus de 90 jours",
    }
}

/// The first day of the month `back` months before `day`'s.
fn month_start(day: NaiveDate, back: u32) -> NaiveDate {
    let index = day.year() * 12 + i32::try_from(day.month0()).unwrap_or(0)
        - i32::try_from(back).unwrap_or(0);
    let year = index.div_euclid(12);
    let month0 = u32::try_from(index.rem_euclid(12)).unwrap_or(0);
    NaiveDate::from_ymd_opt(year, month0 + 1, 1).unwrap_or(day)
}

fn find(figures: &[MonthFigure], month: &str) -> (i64, i64) {
    figures
        .iter()
        .find(|f| f.month == month)
        .map_or((0, 0), |f| (f.count, f.cents))
}

/// The figures of the principal's agency today, read in one transaction.
pub async fn figures(store: &Store, p: &Principal) -> AppResult<DashboardOut> {
    let agency_id = p.agency_id()?.to_owned();
    let now = store.now();
    let today = clock::paris_local(now).date();
    store
        .read(move |conn| -> AppResult<DashboardOut> {
            let today_text = day::iso(today);
            // Calls.
            let counts = store::open_calls_by_status(conn, &agency_id)?;
            let by_status: Vec<StatusCount> = CallStatus::ALL
                .iter()
                .filter(|status| status.as_str() != "resolue")
                .map(|status| StatusCount {
                    statut: status.as_str(),
                    libelle: status.label(),
                    count: counts
                        .iter()
                        .find(|(code, _)| code == status.as_str())
                        .map_or(0, |(_, n)| *n),
                })
                .collect();
            let calls = CallsOut {
                total: by_status.iter().map(|s| s.count).sum(),
                by_status,
            };
            // Visits.
            let (monday, sunday) = day::iso_week(today);
            let (planned, done) =
                store::week_visits(conn, &agency_id, &day::iso(monday), &day::iso(sunday))?;
            let visits = VisitsOut {
                week_start: day::iso(monday),
                week_end: day::iso(sunday),
                planned,
                done,
                remaining: planned - done,
                overdue: store::overdue_visits(conn, &agency_id, &today_text)?,
            };
            // Invoices per month.
            let first = month_start(today, MONTHS - 1);
            let last = month_start(today, 0)
                .checked_add_months(chrono::Months::new(1))
                .and_then(|d| d.pred_opt())
                .unwrap_or(today);
            let (from, to) = (day::iso(first), day::iso(last));
            let issued = store::invoices_issued_by_month(conn, &agency_id, &from, &to)?;
            let paid = store::invoices_paid_by_month(conn, &agency_id, &from, &to)?;
            let invoices = (0..MONTHS)
                .rev()
                .map(|back| {
                    let start = month_start(today, back);
                    let month = start.format("%Y-%m").to_string();
                    let (issued, issued_cents) = find(&issued, &month);
                    let (paid, paid_cents) = find(&paid, &month);
                    MonthOut {
                        label: format!("{} {}", MONTH_NAMES[start.month0() as usize], start.year()),
                        month,
                        issued,
                        issued_cents,
                        paid,
                        paid_cents,
                    }
                })
                .collect();
            // Unpaid by age.
            let rows = store::unpaid_by_age(conn, &agency_id, &today_text)?;
            let buckets: Vec<BucketOut> = UNPAID_BUCKETS
                .iter()
                .map(|&bucket| {
                    let (count, amount_cents) = rows
                        .iter()
                        .find(|row| row.0 == bucket)
                        .map_or((0, 0), |row| (row.1, row.2));
                    BucketOut {
                        bucket,
                        label: unpaid_label(bucket),
                        count,
                        amount_cents,
                    }
                })
                .collect();
            let unpaid = UnpaidOut {
                total_cents: buckets.iter().map(|b| b.amount_cents).sum(),
                count: buckets.iter().map(|b| b.count).sum(),
                buckets,
            };
            // Knowledge rate.
            let mut bands = [0_i64; 5];
            for (_, surveyed, n, catalog) in store::equipment_by_surveyed(conn, &agency_id)? {
                let rate = knowledge::knowledge_rate(
                    usize::try_from(surveyed).unwrap_or(0),
                    usize::try_from(catalog).unwrap_or(0),
                );
                bands[knowledge::band(rate)] += n;
            }
            let knowledge = KnowledgeOut {
                total: bands.iter().sum(),
                bands: knowledge::BANDS
                    .iter()
                    .zip(bands)
                    .map(|(&(band, label), count)| BandOut { band, label, count })
                    .collect(),
            };
            // « À traiter ».
            let now_text = clock::format_timestamp(now);
            let (trapped_count, trapped) =
                store::trapped_calls(conn, &agency_id, &now_text, TODO_ITEMS)?;
            let (unassigned_count, unassigned) = store::unassigned_calls(
                conn,
                &agency_id,
                &clock::format_timestamp(now - Duration::minutes(UNASSIGNED_AFTER_MINUTES)),
                TODO_ITEMS,
            )?;
            let (waiting_quotes_count, waiting_quotes) = store::waiting_quotes(
                conn,
                &agency_id,
                &clock::format_timestamp(now - Duration::days(QUOTE_WAITING_DAYS)),
                TODO_ITEMS,
            )?;
            let past_due = unpaid.buckets.iter().filter(|b| b.bucket != "a_echoir");
            let todo = TodoOut {
                trapped_count,
                trapped: trapped.into_iter().map(todo_call).collect(),
                unassigned_count,
                unassigned: unassigned.into_iter().map(todo_call).collect(),
                unassigned_after_minutes: UNASSIGNED_AFTER_MINUTES,
                late_visits: visits.overdue,
                waiting_quotes_count,
                waiting_quotes: waiting_quotes
                    .into_iter()
                    .map(|q| TodoQuoteOut {
                        id: q.id,
                        number: q.number,
                        object: q.object,
                        sent_at: q.sent_at,
                        equipment_id: q.equipment_id,
                        equipment_number: q.equipment_number,
                    })
                    .collect(),
                quote_waiting_days: QUOTE_WAITING_DAYS,
                overdue_invoices: past_due.clone().map(|b| b.count).sum(),
                overdue_cents: past_due.map(|b| b.amount_cents).sum(),
            };
            let renewals = renewals(conn, &agency_id, today)?;
            Ok(DashboardOut {
                renewals,
                today: today_text,
                calls,
                visits,
                invoices,
                unpaid,
                knowledge,
                todo,
            })
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn month_start_goes_back_across_years() {
        let day = NaiveDate::from_ymd_opt(2026, 3, 15).unwrap();
        assert_eq!(
            month_start(day, 0),
            NaiveDate::from_ymd_opt(2026, 3, 1).unwrap()
        );
        assert_eq!(
            month_start(day, 2),
            NaiveDate::from_ymd_opt(2026, 1, 1).unwrap()
        );
        assert_eq!(
            month_start(day, 3),
            NaiveDate::from_ymd_opt(2025, 12, 1).unwrap()
        );
        assert_eq!(
            month_start(day, 11),
            NaiveDate::from_ymd_opt(2025, 4, 1).unwrap()
        );
    }
}
