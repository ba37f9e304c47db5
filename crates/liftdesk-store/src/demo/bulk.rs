//! The demo's bulk writer: each seed as one row written by a prepared
//! statement, under the id the plan proposed, with no audit entry and no
//! check (the plan is coherent by construction). The large demo (millions
//! of rows) is written this way only; the small one through the operations
//! (`liftdesk-core`'s `services::demo`), but for the partner's deals
//! without survey, which no operation makes. The integration tests write
//! with it what an agency's history holds and no operation writes
//! (`tests/it/common/world/history.rs`).

use anyhow::Result;

use super::seeds::{
    AbsenceSeed, BuildingSeed, CallSeed, ClientSeed, ContactSeed, ContractSeed, DealSeed,
    DiscrepancySeed, EquipmentSeed, Id, IndexValueSeed, InvoiceSeed, OnCallSeed, QuoteSeed,
    SurveySeed, TechnicalValueSeed, TechnicianSeed, VisitSeed, Writer,
};
use super::{DemoAgency, day, ts};
use crate::Tx;
use crate::sql::params;
use liftdesk_domain::WireCode as _;

pub struct Bulk<'a, 'c> {
    tx: &'a Tx<'c>,
    agency_id: String,
}

impl<'a, 'c> Bulk<'a, 'c> {
    pub fn new(tx: &'a Tx<'c>) -> Self {
        Self {
            tx,
            agency_id: String::new(),
        }
    }
}

impl Writer for Bulk<'_, '_> {
    fn agency(&mut self, agency: &DemoAgency) -> Result<()> {
        self.agency_id.clone_from(&agency.id);
        Ok(())
    }

    fn technician(&mut self, seed: &TechnicianSeed) -> Result<Id> {
        self.tx
            .prepare_cached(
                "INSERT INTO technicians (id, agency_id, account_id, name, sectors, phone, rest_hours,
                                          daily_capacity, active, created_at)
                 VALUES (?1, ?2, NULL, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )?
            .execute(params![
                seed.id,
                self.agency_id,
                seed.name,
                seed.sectors,
                seed.phone,
                liftdesk_domain::technician::DEFAULT_REST_HOURS,
                seed.daily_capacity,
                seed.active,
                ts(seed.created),
            ])?;
        Ok(seed.id)
    }

    fn absence(&mut self, seed: &AbsenceSeed) -> Result<()> {
        self.tx
            .prepare_cached(
                "INSERT INTO technician_absences (id, technician_id, starts_on, ends_on, reason)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                seed.id,
                seed.technician,
                day(seed.from),
                day(seed.to),
                seed.reason
            ])?;
        Ok(())
    }

    fn on_call(&mut self, seed: &OnCallSeed) -> Result<()> {
        self.tx
            .prepare_cached(
                "INSERT INTO technician_on_call (id, technician_id, starts_at, ends_at)
                 VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![
                seed.id,
                seed.technician,
                ts(seed.starts),
                ts(seed.ends)
            ])?;
        Ok(())
    }

    fn client(&mut self, seed: &ClientSeed) -> Result<Id> {
        // Stored in parts, as the operations store them.
        let split = liftdesk_domain::address::split_line(seed.address);
        self.tx
            .prepare_cached(
                "INSERT INTO clients (id, agency_id, client_ref, nom, statut, types, email, telephone,
                                      adresse, complement_adresse, siren, siret, supprime, created_at,
                                      updated_at, code_postal, ville)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
            )?
            .execute(params![
                seed.id,
                self.agency_id,
                seed.client_ref,
                seed.name,
                if seed.prospect { "Prospect" } else { "Client" },
                seed.types,
                seed.email,
                seed.phone,
                split.as_ref().map_or(seed.address, |s| s.street.as_str()),
                seed.address_complement,
                seed.siren,
                seed.siret,
                seed.archived,
                ts(seed.created),
                ts(seed.updated),
                split.as_ref().map(|s| s.postal_code.as_str()),
                split.as_ref().map(|s| s.city.as_str()),
            ])?;
        Ok(seed.id)
    }

    fn contact(&mut self, seed: &ContactSeed) -> Result<()> {
        self.tx
            .prepare_cached(
                "INSERT INTO contacts (id, client_id, nom, email, telephone, fonction, created_at,
                                       updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![
                seed.id,
                seed.client,
                seed.name,
                seed.email,
                seed.phone,
                seed.role,
                ts(seed.created),
                ts(seed.created),
            ])?;
        Ok(())
    }

    fn building(&mut self, seed: &BuildingSeed) -> Result<Id> {
        self.tx
            .prepare_cached(
                "INSERT INTO buildings (id, agency_id, client_id, name, address, address_complement,
                                        postal_code, city, access_instructions, access_other,
                                        digicode, key_box, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            )?
            .execute(params![
                seed.id,
                self.agency_id,
                seed.client,
                seed.name,
                seed.address,
                seed.address_complement,
                seed.postal_code,
                seed.city,
                seed.access,
                seed.access_other,
                seed.digicode,
                seed.key_box,
                ts(seed.created),
                ts(seed.created),
            ])?;
        Ok(seed.id)
    }

    fn equipment(&mut self, seed: &EquipmentSeed) -> Result<Id> {
        self.tx
            .prepare_cached(
                "INSERT INTO equipment (id, agency_id, building_id, client_id, number, serial_number,
                                        type, subtype, location, maintenance_contract,
                                        contract_number, external_id, visit_interval_days,
                                        plan_start_on, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
            )?
            .execute(params![
                seed.id,
                self.agency_id,
                seed.building,
                seed.client,
                seed.number,
                seed.serial_number,
                seed.eq_type,
                seed.subtype,
                seed.location,
                seed.contract,
                seed.contract_number,
                seed.external_id,
                seed.visit_interval_days,
                seed.plan_start.map(day),
                ts(seed.created),
                ts(seed.updated),
            ])?;
        Ok(seed.id)
    }

    fn contract(&mut self, seed: &ContractSeed) -> Result<()> {
        let terms = seed.terms();
        let (status, ends_on) = match (&seed.activated, &seed.terminated) {
            (None, _) => ("brouillon", None),
            (Some(_), None) => ("actif", None),
            (Some(_), Some(t)) => ("resilie", Some(terms.end_after_notice(t.notice_on))),
        };
        let updated = seed
            .terminated
            .as_ref()
            .map(|t| t.at)
            .or(seed.activated)
            .unwrap_or(seed.created);
        self.tx
            .prepare_cached(
                "INSERT INTO contracts (id, agency_id, client_id, number, type, status, start_on,
                     duration_months, tacit_renewal, renewal_months, notice_months, price_basis,
                     annual_price_cents, billing_frequency, billing_timing, vat_rate_bp,
                     price_index, base_index_value, visit_interval_days, arrival_minutes,
                     arrival_out_of_hours_minutes, trapped_minutes, restore_minutes,
                     weekend_coverage, on_call_coverage, penalty_per_hour_cents, activated_at,
                     notice_on, ends_on, termination_reason, ended_at, created_at, updated_at,
                     base_index_month)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 'par_appareil', ?12, ?13,
                         ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?23, ?24, ?25, ?26,
                         ?27, ?28, ?29, ?30, ?31, ?32)",
            )?
            .execute(params![
                seed.id,
                self.agency_id,
                seed.client,
                seed.number,
                seed.contract_type.code(),
                status,
                day(seed.start_on),
                i64::from(terms.duration_months),
                seed.tacit_renewal,
                i64::from(terms.renewal_months),
                i64::from(terms.notice_months),
                seed.annual_price_cents,
                seed.frequency.code(),
                seed.timing.code(),
                i64::from(seed.vat_rate_bp),
                seed.index.map(|(code, _, _)| code),
                seed.index.map(|(_, base, _)| base),
                seed.visit_interval_days,
                i64::from(seed.arrival_minutes),
                seed.out_of_hours_minutes.map(i64::from),
                i64::from(seed.trapped_minutes),
                i64::from(seed.restore_minutes),
                seed.out_of_hours_minutes.is_some(),
                seed.penalty_per_hour_cents,
                seed.activated.map(ts),
                seed.terminated.as_ref().map(|t| day(t.notice_on)),
                ends_on.map(day),
                seed.terminated.as_ref().map(|t| t.reason),
                seed.terminated.as_ref().map(|t| ts(t.at)),
                ts(seed.created),
                ts(updated),
                seed.index
                    .map(|(_, _, month)| liftdesk_domain::contract::month_text(month)),
            ])?;
        self.tx
            .prepare_cached(
                "INSERT INTO contract_equipment (contract_id, equipment_id, position, in_force)
                 VALUES (?1, ?2, 0, ?3)",
            )?
            .execute(params![seed.id, seed.equipment, status == "actif"])?;
        Ok(())
    }

    fn index_value(&mut self, seed: &IndexValueSeed) -> Result<()> {
        self.tx
            .prepare_cached(
                "INSERT INTO price_index_values (agency_id, index_code, month, value, recorded_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                self.agency_id,
                seed.index,
                liftdesk_domain::contract::month_text(seed.month),
                seed.value,
                ts(seed.recorded),
            ])?;
        Ok(())
    }

    fn visit(&mut self, seed: &VisitSeed) -> Result<()> {
        let status = match (seed.arrived, seed.left) {
            (_, Some(_)) => "faite",
            (Some(_), None) => "en_cours",
            (None, None) => "planifiee",
        };
        let updated = seed.left.or(seed.arrived).unwrap_or(seed.created);
        self.tx
            .prepare_cached(
                "INSERT INTO visits (id, agency_id, equipment_id, technician_id, planned_for,
                                     deadline, status, arrived_at, left_at, done_on, signed_by,
                                     observations, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            )?
            .execute(params![
                seed.id,
                self.agency_id,
                seed.equipment,
                seed.technician,
                day(seed.planned_for),
                day(seed.deadline),
                status,
                seed.arrived.map(ts),
                seed.left.map(ts),
                seed.left.map(|_| day(seed.planned_for)),
                seed.signed_by,
                seed.observations,
                ts(seed.created),
                ts(updated),
            ])?;
        Ok(())
    }

    fn call(&mut self, seed: &CallSeed) -> Result<()> {
        let updated = [
            seed.assigned,
            seed.en_route,
            seed.arrived,
            seed.stopped,
            seed.resolved,
        ]
        .into_iter()
        .flatten()
        .max()
        .unwrap_or(seed.created);
        self.tx
            .prepare_cached(
                "INSERT INTO calls (id, agency_id, call_center_id, credential_id, reference,
                                    equipment_id, type, description, caller, received_at, status,
                                    technician_id, assigned_at, en_route_at, arrived_at,
                                    stopped_at, resolved_at, created_by, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
                         ?17, ?18, ?19, ?20)",
            )?
            .execute(params![
                seed.id,
                self.agency_id,
                seed.call_center,
                seed.credential,
                seed.reference,
                seed.equipment,
                seed.kind,
                seed.description,
                seed.caller,
                ts(seed.received),
                seed.status,
                seed.technician,
                seed.assigned.map(ts),
                seed.en_route.map(ts),
                seed.arrived.map(ts),
                seed.stopped.map(ts),
                seed.resolved.map(ts),
                seed.created_by,
                ts(seed.created),
                ts(updated),
            ])?;
        Ok(())
    }

    fn quote(&mut self, seed: &QuoteSeed) -> Result<Id> {
        let updated = seed
            .accepted
            .or(seed.refused)
            .or(seed.sent)
            .unwrap_or(seed.created);
        self.tx
            .prepare_cached(
                "INSERT INTO quotes (id, agency_id, equipment_id, number, origin, object, status,
                                     created_by, sent_at, accepted_at, refused_at, created_at,
                                     updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            )?
            .execute(params![
                seed.id,
                self.agency_id,
                seed.equipment,
                seed.number,
                seed.origin,
                seed.object,
                seed.status,
                seed.created_by,
                seed.sent.map(ts),
                seed.accepted.map(ts),
                seed.refused.map(ts),
                ts(seed.created),
                ts(updated),
            ])?;
        let mut insert_row = self.tx.prepare_cached(
            "INSERT INTO quote_rows (id, quote_id, position, label, quantity_milli,
                                     unit_price_cents, vat_rate_bp)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for (position, row) in seed.rows.iter().enumerate() {
            insert_row.execute(params![
                row.id,
                seed.id,
                position as i64 + 1,
                row.label,
                row.quantity_milli,
                row.unit_price_cents,
                row.vat_rate_bp,
            ])?;
        }
        Ok(seed.id)
    }

    fn invoice(&mut self, seed: &InvoiceSeed) -> Result<Id> {
        let updated = seed
            .paid
            .map(|(_, at)| at)
            .or(seed.sent_at)
            .or(seed.issued_at)
            .unwrap_or(seed.created);
        self.tx
            .prepare_cached(
                "INSERT INTO invoices (id, agency_id, client_id, nature, status, number, number_year,
                                       number_seq, credited_invoice_id, quote_id, buyer_name,
                                       buyer_address, buyer_siren, issued_on, due_on, paid_on,
                                       total_excl_cents, total_incl_cents, created_on, created_at,
                                       updated_at, number_series)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                         ?18, ?19, ?20, ?21, ?22)",
            )?
            .execute(params![
                seed.id,
                self.agency_id,
                seed.client,
                seed.nature.as_str(),
                seed.status.as_str(),
                seed.number.map(|(number, _, _)| number),
                seed.number.map(|(_, year, _)| year),
                seed.number.map(|(_, _, seq)| seq),
                seed.credited,
                seed.quote,
                seed.buyer_name,
                seed.buyer_address,
                seed.buyer_siren,
                seed.issued_on.map(day),
                seed.due_on.map(day),
                seed.paid.map(|(on, _)| day(on)),
                seed.total_excl_cents,
                seed.total_incl_cents,
                day(seed.created.date_naive()),
                ts(seed.created),
                ts(updated),
                seed.number.and(seed.number_series),
            ])?;
        let mut insert_line = self.tx.prepare_cached(
            "INSERT INTO invoice_lines (id, invoice_id, position, label, quantity_milli,
                                        unit_price_cents, vat_rate_bp)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for (position, line) in seed.lines.iter().enumerate() {
            insert_line.execute(params![
                line.id,
                seed.id,
                position as i64 + 1,
                line.label,
                line.quantity_milli,
                line.unit_price_cents,
                line.vat_rate_bp,
            ])?;
        }
        // A settled document received its total in one payment (a credit
        // note: one refund), by transfer, on its day.
        if let Some((on, at)) = seed.paid {
            self.tx
                .prepare_cached(
                    "INSERT INTO invoice_payments (id, agency_id, invoice_id, paid_on, amount_cents,
                                                   method, created_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, 'virement', ?6)",
                )?
                .execute(params![
                    format!("rgl-{}", seed.id.as_str()),
                    self.agency_id,
                    seed.id,
                    day(on),
                    seed.total_incl_cents,
                    ts(at),
                ])?;
        }
        Ok(seed.id)
    }

    fn invoice_series(&mut self, nature: &str, year: i32, last_seq: u32) -> Result<()> {
        self.tx
            .prepare_cached(
                "INSERT INTO invoice_counters (agency_id, nature, year, last_seq)
                 VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![self.agency_id, nature, year, last_seq])?;
        Ok(())
    }

    fn deal(&mut self, seed: &DealSeed) -> Result<Id> {
        self.tx
            .prepare_cached(
                "INSERT INTO deals (id, agency_id, type_affaire, types_etat_des_lieux, category,
                                    external_opportunity_id, requester_email, surveyor_account_id,
                                    client_id, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            )?
            .execute(params![
                seed.id,
                self.agency_id,
                seed.type_affaire,
                seed.types,
                seed.category,
                seed.external_opportunity,
                seed.requester_email,
                seed.surveyor,
                seed.client,
                ts(seed.created),
                ts(seed.updated),
            ])?;
        Ok(seed.id)
    }

    fn survey(&mut self, seed: &SurveySeed) -> Result<Id> {
        self.tx
            .prepare_cached(
                "INSERT INTO surveys (id, agency_id, equipment_id, number, status, reason,
                                      surveyor_account_id, due_on, surveyed_on, photo_count,
                                      submitted_at, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            )?
            .execute(params![
                seed.id,
                self.agency_id,
                seed.equipment,
                seed.number,
                seed.status.code(),
                seed.reason,
                seed.surveyor,
                seed.due_on.map(day),
                seed.surveyed_on.map(day),
                seed.photo_count,
                seed.submitted_at.map(ts),
                ts(seed.created),
                ts(seed.updated),
            ])?;
        Ok(seed.id)
    }

    fn survey_of_deal(&mut self, survey: Id, deal: Id) -> Result<()> {
        self.tx
            .prepare_cached("INSERT INTO survey_deals (survey_id, deal_id) VALUES (?1, ?2)")?
            .execute(params![survey, deal])?;
        Ok(())
    }

    fn technical_value(&mut self, seed: &TechnicalValueSeed) -> Result<()> {
        self.tx
            .prepare_cached(
                "INSERT INTO equipment_values (equipment_id, field_code, value, survey_id,
                                               surveyed_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                seed.equipment,
                seed.code,
                seed.value,
                seed.survey,
                ts(seed.surveyed)
            ])?;
        Ok(())
    }

    fn survey_value(&mut self, survey: Id, code: &str, value: &str) -> Result<()> {
        self.tx
            .prepare_cached(
                "INSERT INTO survey_values (survey_id, field_code, value) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![survey, code, value])?;
        Ok(())
    }

    fn discrepancy(&mut self, seed: &DiscrepancySeed) -> Result<()> {
        self.tx
            .prepare_cached(
                "INSERT INTO discrepancies (id, agency_id, equipment_id, survey_id, component,
                                            finding, created_by, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![
                seed.id,
                self.agency_id,
                seed.equipment,
                seed.survey,
                seed.component,
                seed.finding,
                seed.created_by,
                ts(seed.created),
            ])?;
        Ok(())
    }

    fn end_of_agency(&mut self) -> Result<()> {
        Ok(())
    }
}
