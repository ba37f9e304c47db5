//! Fixtures: records an agency holds that no operation writes, its history
//! from before Liftdesk or from an import: a quote numbered without the
//! agency's counter, a stopped call whose technician was taken off, several
//! visits not done of one lift, invoices due on chosen days, surveys with
//! numbers given by hand or several open on one lift. They are written by
//! the store's bulk writer (`store::demo::Bulk`), the one the large demo
//! writes millions of records with: the tables' shape stays known by the
//! store alone, and they leave no audit entry.

use anyhow::Result;
use chrono::{DateTime, NaiveDate, Utc};
use liftdesk::domain::invoice::{self, InvoiceNature, InvoiceStatus};
use liftdesk::domain::survey::SurveyStatus;
use liftdesk::store::Tx;
use liftdesk::store::demo::seeds::{
    CallSeed, Id, InvoiceSeed, QuoteSeed, SurveySeed, VisitSeed, Writer,
};
use liftdesk::store::demo::{Bulk, DemoAgency};
use serde_json::Value;

use super::World;

fn id(text: &str) -> Id {
    Id::of_text(text).expect("identifiant")
}

fn new_id() -> Id {
    id(&uuid::Uuid::now_v7().to_string())
}

impl World {
    /// Runs `write` with the store's bulk writer set on this agency, in one
    /// transaction.
    async fn bulk<T: Send + 'static>(
        &self,
        write: impl FnOnce(&mut Bulk) -> Result<T> + Send + 'static,
    ) -> T {
        let agency = DemoAgency {
            id: self.agency_id().into_string(),
            name: String::new(),
            invoice_series: None,
        };
        self.store
            .write(move |tx: &Tx| -> Result<T> {
                let mut bulk = Bulk::new(tx);
                bulk.agency(&agency)?;
                write(&mut bulk)
            })
            .await
            .expect("historique")
    }

    /// A quote brought along numbered `number` (« DV-2026-00041 ») without
    /// the agency's counter having given it: a draft with no line, written
    /// at `created`. Returns its id.
    pub async fn imported_quote(
        &self,
        equipment_id: &str,
        number: &str,
        object: &str,
        created: DateTime<Utc>,
    ) -> String {
        let (equipment, number, object) = (id(equipment_id), number.to_owned(), object.to_owned());
        self.bulk(move |bulk| {
            bulk.quote(&QuoteSeed {
                id: new_id(),
                equipment,
                number: &number,
                origin: "client",
                object: &object,
                status: "brouillon",
                created_by: None,
                sent: None,
                accepted: None,
                refused: None,
                created,
                rows: &[],
            })
        })
        .await
        .as_str()
        .to_owned()
    }

    /// A call left stopped (`a_l_arret`) with no technician on it, received
    /// at `received` and recorded at the store's clock: « Appareil arrêté. »,
    /// no caller. The operations leave a
    /// call stopped only with its technician (`domain::call`), and none takes
    /// the technician off a call. Returns its id.
    pub async fn stopped_call_without_technician(
        &self,
        equipment_id: &str,
        reference: &str,
        kind: &str,
        received: DateTime<Utc>,
    ) -> String {
        let (call, created) = (new_id(), self.store.now());
        let (equipment, reference, kind) =
            (id(equipment_id), reference.to_owned(), kind.to_owned());
        self.bulk(move |bulk| {
            bulk.call(&CallSeed {
                id: call,
                equipment,
                call_center: None,
                credential: None,
                created_by: None,
                reference: &reference,
                status: "a_l_arret",
                kind: &kind,
                description: "Appareil arrêté.",
                caller: None,
                received,
                technician: None,
                assigned: None,
                en_route: None,
                arrived: None,
                stopped: None,
                resolved: None,
                created,
            })
        })
        .await;
        call.as_str().to_owned()
    }

    /// A visit not done (`planifiee`) of an equipment, with the technician
    /// and the deadline given, planned at the store's clock. The operations
    /// refuse a second visit not done of one equipment (« déplacez-la
    /// plutôt que d'en créer une autre »), which an agency's history may
    /// hold. Returns its id.
    pub async fn open_visit_from_history(
        &self,
        equipment_id: &str,
        technician_id: &str,
        planned_for: NaiveDate,
        deadline: NaiveDate,
    ) -> String {
        self.visit_from_history(PastVisit {
            equipment: equipment_id.to_owned(),
            technician: technician_id.to_owned(),
            planned_for,
            deadline,
            arrived: None,
            left: None,
        })
        .await
    }

    /// A visit of the agency's history, planned at the store's clock: one
    /// of several not done of an equipment, begun or done on a day of its
    /// own. Returns its id.
    pub async fn visit_from_history(&self, visit: PastVisit) -> String {
        let (id, created) = (new_id(), self.store.now());
        self.bulk(move |bulk| {
            bulk.visit(&VisitSeed {
                id,
                equipment: self::id(&visit.equipment),
                technician: self::id(&visit.technician),
                planned_for: visit.planned_for,
                deadline: visit.deadline,
                after: None,
                arrived: visit.arrived,
                left: visit.left,
                signed_by: visit.left.map(|_| "M. Martin"),
                observations: None,
                created,
            })
        })
        .await;
        id.as_str().to_owned()
    }

    /// An invoice or a credit note of the agency's history, with the days
    /// and the totals given and no line: issued, due and paid on days of
    /// its own (the operations date each step by the clock and take the due
    /// day from the payment terms). Numbered `FA-`/`AV-<year>-<seq>` when
    /// not a draft, without the agency's counter. Returns its id.
    pub async fn invoice_from_history(&self, invoice: PastInvoice) -> String {
        let (id, now) = (new_id(), self.store.now());
        self.bulk(move |bulk| {
            let number = invoice.number.map(|(year, seq)| {
                (
                    invoice::format_number(invoice.nature, None, year, seq),
                    year,
                    seq,
                )
            });
            let issued_at = invoice.issued_on.map(|_| now);
            bulk.invoice(&InvoiceSeed {
                id,
                client: self::id(&invoice.client),
                nature: invoice.nature,
                status: invoice.status,
                number: number
                    .as_ref()
                    .map(|(text, year, seq)| (text.as_str(), *year, *seq)),
                number_series: None,
                credited: invoice.credited.as_deref().map(self::id),
                quote: None,
                buyer_name: "Client",
                buyer_address: "1 rue de Paris, 75001 Paris",
                buyer_siren: None,
                issued_on: invoice.issued_on,
                issued_at,
                due_on: invoice.due_on,
                sent_at: (invoice.status == InvoiceStatus::Envoyee).then_some(now),
                paid: invoice.paid_on.map(|day| (day, now)),
                total_excl_cents: invoice.total_incl_cents * 5 / 6,
                total_incl_cents: invoice.total_incl_cents,
                created: now,
                lines: &[],
            })
        })
        .await;
        id.as_str().to_owned()
    }
}

/// A visit as the agency's history holds it (see
/// [`World::visit_from_history`]): planned, begun (`arrived`) or done
/// (`left`).
pub struct PastVisit {
    pub equipment: String,
    pub technician: String,
    pub planned_for: NaiveDate,
    pub deadline: NaiveDate,
    pub arrived: Option<DateTime<Utc>>,
    pub left: Option<DateTime<Utc>>,
}

/// An invoice or a credit note as the agency's history holds it (see
/// [`World::invoice_from_history`]).
pub struct PastInvoice {
    pub client: String,
    pub nature: InvoiceNature,
    pub status: InvoiceStatus,
    /// Year and rank of its number, unless a draft.
    pub number: Option<(i32, u32)>,
    /// The invoice a credit note credits.
    pub credited: Option<String>,
    pub issued_on: Option<NaiveDate>,
    pub due_on: Option<NaiveDate>,
    pub paid_on: Option<NaiveDate>,
    /// Including tax (VAT 20 %: a sixth of it).
    pub total_incl_cents: i64,
}

/// A survey as the agency's history holds it (see
/// [`World::survey_from_history`]).
pub struct PastSurvey {
    pub equipment: String,
    pub number: Option<String>,
    pub status: SurveyStatus,
    pub reason: Option<String>,
    pub surveyor: Option<String>,
    pub due_on: Option<NaiveDate>,
    pub surveyed_on: Option<NaiveDate>,
    pub photo_count: i64,
    /// When it was asked for (and last changed).
    pub created: DateTime<Utc>,
    /// Data entered on it, by catalog code.
    pub values: Vec<(String, Value)>,
}

impl World {
    /// A survey in a state the operations do not leave it in: one of
    /// several open surveys of an equipment, without number or with a
    /// number of its own, data or photos recorded while still `a_realiser`,
    /// a survey day before its submission… Returns its id.
    pub async fn survey_from_history(&self, survey: PastSurvey) -> String {
        let id = new_id();
        self.bulk(move |bulk| {
            bulk.survey(&SurveySeed {
                id,
                equipment: self::id(&survey.equipment),
                number: survey.number.as_deref(),
                status: survey.status,
                reason: survey.reason.as_deref(),
                cancel_reason: None,
                surveyor: survey.surveyor.as_deref(),
                due_on: survey.due_on,
                surveyed_on: survey.surveyed_on,
                photo_count: survey.photo_count,
                submitted_at: None,
                created: survey.created,
                updated: survey.created,
            })?;
            for (code, value) in &survey.values {
                bulk.survey_value(id, code, &value.to_string())?;
            }
            Ok(())
        })
        .await;
        id.as_str().to_owned()
    }
}
