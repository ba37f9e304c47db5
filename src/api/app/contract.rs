//! The web application's contract in TypeScript, generated from Rust:
//! `ui/src/lib/generated/contract.ts`. It holds the read models the
//! `/app/api` handlers answer with (derived with ts-rs, with the types they
//! use), the closed sets of codes with their French labels (`wire_enum!`),
//! and the limits the screens check before sending (the domain's constants).
//!
//! The file is committed, so that the UI builds without Rust; the test below
//! fails when it is stale. `LIFTDESK_WRITE_CONTRACT=1 cargo test --lib
//! contract` writes it again. A new read model is added to `typescript()`.

use std::any::TypeId;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use serde::Serialize;
use ts_rs::{Config, TS, TypeVisitor};

use crate::domain::WireCode;
use crate::domain::call::{CallStatus, CallType};
use crate::domain::client::{BillingCategory, ClientStatus};
use crate::domain::contract::{
    self, BillingFrequency, BillingState, BillingTiming, ContractAction, ContractStatus,
    ContractType, PriceBasis,
};
use crate::domain::einvoice::VatExemption;
use crate::domain::event::DeliveryStatus;
use crate::domain::invoice::{InvoiceAction, InvoiceNature, InvoiceStatus, PaymentMethod};
use crate::domain::lines;
use crate::domain::quote::{QuoteAction, QuoteOrigin, QuoteStatus};
use crate::domain::survey::SurveyStatus;
use crate::domain::visit::VisitStatus;

/// Where the generated file lives, from the crate's root.
pub const PATH: &str = "ui/src/lib/generated/contract.ts";

/// The whole file.
pub fn typescript() -> String {
    let mut file = Contract::new();

    file.section("Devis, factures et avoirs");
    file.codes::<QuoteStatus>("QuoteStatus", "QUOTE_STATUSES");
    file.codes::<QuoteOrigin>("QuoteOrigin", "QUOTE_ORIGINS");
    file.codes::<QuoteAction>("QuoteActionCode", "QUOTE_ACTIONS");
    file.codes::<InvoiceStatus>("InvoiceStatus", "INVOICE_STATUSES");
    file.labels(
        "Les statuts d'un avoir, accordés au masculin.",
        "CREDIT_NOTE_STATUSES",
        "InvoiceStatus",
        InvoiceStatus::ALL
            .iter()
            .map(|s| (s.as_str(), s.label_for(InvoiceNature::Avoir))),
    );
    file.codes::<InvoiceNature>("InvoiceNature", "INVOICE_NATURES");
    file.codes::<InvoiceAction>("InvoiceActionCode", "INVOICE_ACTIONS");
    file.codes::<PaymentMethod>("PaymentMethod", "PAYMENT_METHODS");
    file.constant(
        "Taux de TVA permis, en points de base (20 %, 10 %, 5,5 %, 2,1 %, 0 %).",
        "VAT_RATES_BP",
        &lines::VAT_RATES_BP,
    );
    file.constant(
        "Taux appliqué quand une ligne n'en donne pas.",
        "DEFAULT_VAT_RATE_BP",
        &lines::DEFAULT_VAT_RATE_BP,
    );
    file.constant(
        "Lignes d'un devis ou d'une facture, au plus.",
        "MAX_LINES",
        &lines::MAX_LINES,
    );
    file.constant(
        "Caractères d'un libellé de ligne, au plus.",
        "MAX_LABEL_CHARS",
        &lines::MAX_LABEL_CHARS,
    );
    file.constant(
        "Quantité d'une ligne, en millièmes, au plus.",
        "MAX_QUANTITY_MILLI",
        &lines::MAX_QUANTITY_MILLI,
    );
    file.constant(
        "Prix unitaire HT d'une ligne, en centimes, au plus.",
        "MAX_UNIT_PRICE_CENTS",
        &lines::MAX_UNIT_PRICE_CENTS,
    );
    file.ty::<crate::api::wire::Created>();
    file.ty::<crate::api::wire::Page<crate::api::wire::quotes::QuoteListEntry>>();
    file.ty::<crate::api::wire::invoices::InvoiceRowView>();
    file.ty::<super::quotes::QuoteDetail>();
    file.ty::<super::invoices::InvoiceDetail>();

    file.section("Contrats d'entretien");
    file.codes::<ContractStatus>("ContractStatus", "CONTRACT_STATUSES");
    file.codes::<ContractType>("ContractType", "CONTRACT_TYPES");
    file.codes::<PriceBasis>("PriceBasis", "PRICE_BASES");
    file.codes::<BillingFrequency>("BillingFrequency", "BILLING_FREQUENCIES");
    file.codes::<BillingTiming>("BillingTiming", "BILLING_TIMINGS");
    file.codes::<ContractAction>("ContractAction", "CONTRACT_ACTIONS");
    file.codes::<BillingState>("BillingState", "BILLING_STATES");
    file.constant(
        "Jours entre deux visites d'un contrat, au plus (six semaines).",
        "MAX_VISIT_INTERVAL_DAYS",
        &contract::MAX_VISIT_INTERVAL_DAYS,
    );
    file.constant(
        "Durée de la première période d'un contrat, en mois, au moins (un an).",
        "MIN_DURATION_MONTHS",
        &contract::MIN_DURATION_MONTHS,
    );
    file.ty::<crate::api::wire::Page<crate::api::wire::contracts::ContractListEntry>>();
    file.ty::<crate::api::wire::contracts::ContractView>();
    file.ty::<crate::api::wire::contracts::IndexValueView>();
    file.ty::<crate::api::wire::contracts::ResponseReportOut>();
    file.ty::<crate::api::wire::contract_billing::BillingPreview>();
    file.ty::<crate::api::wire::contract_billing::DraftsView>();
    file.ty::<crate::api::wire::contract_billing::IssueBatchView>();

    file.section("Appels de panne");
    file.codes::<CallStatus>("CallStatus", "CALL_STATUSES");
    file.codes::<CallType>("CallType", "CALL_TYPES");
    file.ty::<super::calls::Board>();
    file.ty::<super::calls::CallDetail>();
    file.ty::<super::calls::AppStatusBody>();
    file.ty::<super::calls::AlertOut>();
    file.ty::<super::calls::EquipmentChoices>();
    file.ty::<super::calls::NewCall>();
    file.ty::<crate::api::wire::Page<crate::api::wire::calls::CallListEntry>>();

    file.section("Tableau de bord");
    file.ty::<crate::services::dashboard::DashboardOut>();

    file.section("Planning et visites");
    file.codes::<VisitStatus>("VisitStatus", "VISIT_STATUSES");
    file.ty::<super::planning::WeekOut>();
    file.ty::<super::planning::VisitOut>();
    file.ty::<super::planning::Saved>();
    file.ty::<super::planning::EquipmentPlanOut>();
    file.ty::<super::planning::ProposalOut>();
    file.ty::<super::planning::PendingVisits>();
    file.ty::<crate::api::wire::Page<crate::api::wire::equipment::EquipmentListEntry>>();

    file.section("Techniciens et astreinte");
    file.ty::<super::technicians::TechniciansAnswer>();
    file.ty::<super::technicians::WeekView>();
    file.ty::<super::technicians::RotaAnswer>();
    file.ty::<super::technicians::ReplacedAnswer>();
    file.ty::<super::technicians::AbsencesAnswer>();
    file.ty::<super::technicians::AbsenceView>();

    file.section("Clients et contacts");
    file.codes::<ClientStatus>("ClientStatus", "CLIENT_STATUSES");
    file.codes::<BillingCategory>("BillingCategory", "BILLING_CATEGORIES");
    file.codes::<VatExemption>("VatExemption", "VAT_EXEMPTIONS");
    file.ty::<crate::api::wire::Page<crate::api::wire::clients::ClientListEntry>>();
    file.ty::<super::clients::ClientDetail>();
    file.ty::<crate::api::wire::contacts::CreationDescriptor>();

    file.section("Équipements");
    file.ty::<super::equipment::ParkPage>();
    file.ty::<super::equipment::EquipmentPage>();
    file.ty::<super::equipment::Logbook>();
    file.ty::<super::equipment::ClientsAnswer>();
    file.ty::<super::equipment::RepairQuote>();

    file.section("Relevés et écarts");
    file.codes::<SurveyStatus>("SurveyStatus", "SURVEY_STATUSES");
    file.ty::<super::surveys::Paged<super::surveys::ListRow>>();
    file.ty::<super::surveys::SurveyDetail>();
    file.ty::<super::surveys::Paged<super::surveys::DiscrepancyView>>();
    file.ty::<crate::api::wire::surveys::SurveyData>();
    file.ty::<crate::api::wire::surveys::SurveySubmitted>();

    file.section("Imports");
    file.ty::<crate::api::wire::imports::UploadedFile>();
    file.ty::<crate::api::wire::imports::ImportFileView>();
    file.ty::<crate::api::wire::imports::ImportReport>();

    file.section("Clés d'accès");
    file.ty::<crate::api::wire::Page<super::keys::KeyView>>();
    file.ty::<super::keys::KeyCreated>();
    file.ty::<super::keys::TokenCreated>();
    file.ty::<super::keys::Revoked>();
    file.ty::<super::keys::PartnerKeyRevoked>();

    file.section("Webhooks");
    file.codes::<DeliveryStatus>("DeliveryStatus", "DELIVERY_STATUSES");
    file.ty::<crate::api::wire::webhooks::SyncStatusWire>();
    file.ty::<super::webhooks::EventChoice>();
    file.ty::<crate::api::wire::webhooks::SubscriptionWire>();
    file.ty::<crate::api::wire::Page<crate::api::wire::webhooks::DeliveryWire>>();
    file.ty::<crate::api::wire::webhooks::Subscribed>();
    file.ty::<crate::api::wire::webhooks::TestSent>();
    file.ty::<crate::api::wire::mail::MailWire>();
    file.ty::<crate::api::wire::mail::MailRecipientWire>();
    file.ty::<crate::api::wire::mail::SendBody>();
    file.ty::<crate::api::wire::mail::SentDocument>();
    file.ty::<crate::api::wire::mail::ContactChoiceWire>();
    file.ty::<crate::api::wire::mail::SendOptionsWire>();
    file.ty::<crate::api::wire::mail::MailSettingsWire>();
    file.ty::<crate::api::wire::mail::MailSettingsBody>();
    file.ty::<crate::api::wire::mail::MailTestBody>();
    file.ty::<crate::api::wire::mail::MailTestSent>();
    file.ty::<super::exports::ExportBody>();
    file.ty::<super::exports::ExportJob>();
    file.ty::<crate::api::wire::webhooks::Revoked>();

    file.section("Session, compte, installation et réglages");
    file.ty::<super::session::SessionView>();
    file.ty::<super::account::PasswordChanged>();
    file.ty::<super::setup::SetupStatus>();
    file.ty::<super::desktop::AgencyServerAccepted>();
    file.ty::<super::setup::DemoInstalled>();
    file.ty::<super::settings::SettingsView>();
    file.ty::<super::settings::BackupView>();
    file.ty::<super::settings::RestoreAccepted>();

    file.section("Agence : identité et personnes");
    file.ty::<crate::api::wire::identity::IdentityAnswer>();
    file.ty::<crate::api::wire::people::PeopleAnswer>();
    file.ty::<crate::api::wire::people::PersonWithPassword>();
    file.ty::<crate::api::wire::agencies::AgenciesAnswer>();
    file.ty::<super::clients::ClientBody>();
    file.ty::<crate::api::wire::buildings::BuildingsAnswer>();
    file.ty::<super::journal::JournalAnswer>();
    file.ty::<super::technical_fields::TechnicalFieldsAnswer>();
    file.ty::<super::search::SearchAnswer>();
    file.ty::<crate::api::wire::buildings::NewBuildingBody>();
    file.ty::<super::equipment::NewEquipmentBody>();
    file.ty::<super::equipment::CreatedEquipment>();
    file.ty::<super::equipment::MoveBody>();
    file.ty::<super::clients::ContactEditBody>();
    file.ty::<crate::api::wire::agencies::ArchiveAnswer>();
    file.ty::<crate::api::wire::agencies::NewAgencyBody>();
    file.ty::<crate::api::wire::agencies::RenameBody>();
    file.ty::<crate::api::wire::technicians::TechnicianRecords>();

    file.finish()
}

/// The file being written: each declaration once, in the order first met.
struct Contract {
    cfg: Config,
    seen: HashSet<TypeId>,
    visited: HashSet<TypeId>,
    out: String,
    /// Declarations met while visiting a read model, by TypeScript name.
    pending: BTreeMap<String, String>,
    /// Inside a read model's dependencies.
    visiting: bool,
}

impl Contract {
    fn new() -> Self {
        let mut out = String::new();
        out.push_str(
            "// Généré depuis le code Rust (src/api/app/contract.rs) : ne pas modifier à la main.\n\
             // LIFTDESK_WRITE_CONTRACT=1 cargo test --lib contract le régénère.\n",
        );
        Self {
            // Every number of the API is a JSON number, never a bigint.
            cfg: Config::new().with_large_int("number"),
            seen: HashSet::new(),
            visited: HashSet::new(),
            out,
            pending: BTreeMap::new(),
            visiting: false,
        }
    }

    fn section(&mut self, title: &str) {
        let _ = write!(self.out, "\n// {title}\n");
    }

    /// A closed set: its type (the union of its codes) and the list of its
    /// codes with their French labels, in declaration order.
    fn codes<E: WireCode>(&mut self, type_name: &str, list_name: &str) {
        let union: Vec<String> = E::all()
            .iter()
            .map(|value| format!("'{}'", value.code()))
            .collect();
        let _ = writeln!(
            self.out,
            "\nexport type {type_name} = {};",
            union.join(" | ")
        );
        let labels = E::all().iter().map(|v| (v.code(), v.french()));
        self.labels("", list_name, type_name, labels);
    }

    /// A list of codes with their labels.
    fn labels<'a>(
        &mut self,
        doc: &str,
        list_name: &str,
        type_name: &str,
        labels: impl Iterator<Item = (&'a str, &'a str)>,
    ) {
        self.out.push('\n');
        if !doc.is_empty() {
            let _ = writeln!(self.out, "/** {doc} */");
        }
        let _ = writeln!(
            self.out,
            "export const {list_name}: readonly {{ code: {type_name}; label: string }}[] = ["
        );
        for (code, label) in labels {
            let _ = writeln!(
                self.out,
                "  {{ code: '{code}', label: {} }},",
                quoted(label)
            );
        }
        self.out.push_str("];\n");
    }

    fn constant<T: Serialize + ?Sized>(&mut self, doc: &str, name: &str, value: &T) {
        let json = serde_json::to_string(value).unwrap_or_default();
        let _ = write!(
            self.out,
            "\n/** {doc} */\nexport const {name} = {json} as const;\n"
        );
    }

    /// A read model, then every type it uses not declared yet, by name (the
    /// order ts-rs visits them in is not stable from one build to the next).
    fn ty<T: TS + ?Sized + 'static>(&mut self) {
        self.visit::<T>();
        for declaration in std::mem::take(&mut self.pending).into_values() {
            self.out.push_str(&declaration);
        }
    }

    fn finish(self) -> String {
        self.out
    }
}

impl TypeVisitor for Contract {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        // Built-in types (strings, numbers, arrays…) have no declaration.
        if <T as TS>::output_path().is_none() {
            return;
        }
        // Each concrete type once (`Page<A>` and `Page<B>` each bring their
        // rows), each declaration once (`Page<T>`).
        if !self.visited.insert(TypeId::of::<T>()) {
            return;
        }
        if !self.seen.insert(TypeId::of::<<T as TS>::WithoutGenerics>()) {
            <T as TS>::visit_dependencies(self);
            return;
        }
        let mut declaration = String::from("\n");
        if let Some(docs) = <T as TS>::docs() {
            declaration.push_str(&docs);
        }
        declaration.push_str("export ");
        declaration.push_str(&<<T as TS>::WithoutGenerics as TS>::decl(&self.cfg));
        declaration.push('\n');
        let name = <T as TS>::ident(&self.cfg);
        if !self.visiting {
            // The read model itself, in the order `typescript()` lists it.
            self.out.push_str(&declaration);
        } else {
            self.pending.insert(name, declaration);
        }
        let visiting = std::mem::replace(&mut self.visiting, true);
        <T as TS>::visit_dependencies(self);
        self.visiting = visiting;
    }
}

/// A TypeScript string literal.
fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed file is what the Rust types give today: a read model
    /// changed without regenerating it fails here (and the UI's type check
    /// then holds the screens to the new shape).
    #[test]
    fn the_ui_contract_is_generated_from_the_read_models() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(PATH);
        let generated = typescript();
        if std::env::var_os("LIFTDESK_WRITE_CONTRACT").is_some() {
            std::fs::write(&path, &generated).expect("write the contract");
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == generated,
            "{PATH} n'est pas à jour : LIFTDESK_WRITE_CONTRACT=1 cargo test --lib contract"
        );
    }
}
