//! Installing the demo organization: two agencies, an administrator, a
//! member, a surveyor, two call centers with keys, a partner key (through
//! the operations that make them), and a realistic French park planned by
//! `store::demo`: the small demo written through the operations
//! (`operations`: every record but the partner's deals without survey),
//! the large one by the storage interface's bulk path; all in one
//! transaction. The installation runs it itself (`liftdesk demo`,
//! `serve --demo`, the first-run screen's « Essayer avec la démonstration »)
//! before anyone has an account: it takes no principal; the audit names
//! the system. `seed_if_empty` installs it into an empty data directory and
//! writes its credentials beside the database, readable by the owner only
//! (the surveyor signs in with the README's password).

pub use crate::store::demo as data;

mod operations;

use crate::domain::id::{AgencyId, EquipmentId, OrganizationId};
use std::collections::HashMap;

use std::io::Write;
use std::path::Path;

use serde::Serialize;

use crate::auth::password;
use crate::domain::identity;
use crate::domain::money::Cents;
use crate::domain::siren;
use crate::error::{AppError, AppResult};
use crate::services::identity as identity_service;
use crate::services::{accounts, credentials};
use crate::store::accounts as account_store;
use crate::store::audit::Actor;
use crate::store::duties as duty_store;
use crate::store::{Store, Tx};

pub use data::{DemoCounts, DemoSize};

pub const ORGANIZATION_NAME: &str = "Ascenseurs Durand & Fils";
pub const AGENCY_NAMES: [&str; 2] = ["Agence Paris Ouest", "Agence Paris Est"];
/// Their series of invoice numbers (`FA-PO-2026-000001`).
pub const AGENCY_SERIES: [&str; 2] = ["PO", "PE"];
/// The agencies' addresses, printed on their documents.
pub const AGENCY_ADDRESSES: [&str; 2] = [
    "25 avenue de la Grande Armée, 75017 Paris",
    "40 boulevard Voltaire, 75011 Paris",
];
pub const ADMIN_EMAIL: &str = "claire.durand@ascenseurs-durand.fr";
pub const ADMIN_NAME: &str = "Claire Durand";
/// Demo passwords are documented in the README: the demo is for trying Liftdesk.
pub const ADMIN_PASSWORD: &str = "demo-admin-2026";
pub const MEMBER_EMAIL: &str = "sophie.martin@ascenseurs-durand.fr";
pub const MEMBER_NAME: &str = "Sophie Martin";
pub const MEMBER_PASSWORD: &str = "demo-membre-2026";
/// The agencies' surveyor (mobile account that performs surveys).
pub const SURVEYOR_EMAIL: &str = "julien.roux@ascenseurs-durand.fr";
pub const SURVEYOR_NAME: &str = "Julien Roux";
pub const SURVEYOR_PASSWORD: &str = "demo-releveur-2026";
pub const CALL_CENTERS: [&str; 2] = ["Astreinte Plus", "Télésecours Île-de-France"];
pub const PARTNER_NAME: &str = "GMAO Partenaire";

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DemoCredentials {
    pub organization_id: OrganizationId,
    pub agencies: Vec<DemoAgencyRef>,
    pub admin: DemoLogin,
    pub member: DemoLogin,
    pub call_center_keys: Vec<String>,
    pub partner_key: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct DemoAgencyRef {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DemoLogin {
    pub email: String,
    pub password: String,
    pub api_token: String,
}

/// True when no client organization exists yet (the service operator's
/// own may).
pub fn is_empty(store: &Store) -> AppResult<bool> {
    store.read_blocking(|conn| -> AppResult<bool> {
        Ok(!crate::store::agencies::any_client_organization(conn)?)
    })
}

/// How the park is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Writing {
    /// The small demo through the operations, the large one in bulk.
    BySize,
    /// Every size in bulk: every row, ids included, the same from one run
    /// to the next for the same seed and "now".
    Bulk,
}

/// Installs the demo organization and returns its credentials.
pub fn install(
    store: &Store,
    size: DemoSize,
    seed: u64,
    now: chrono::DateTime<chrono::Utc>,
) -> AppResult<DemoCredentials> {
    install_writing(store, size, seed, now, Writing::BySize)
}

/// [`install`] with the park written in bulk whatever its size: a fixture
/// that must be the same on every run (the instruction-count gate's).
pub fn install_reproducible(
    store: &Store,
    size: DemoSize,
    seed: u64,
    now: chrono::DateTime<chrono::Utc>,
) -> AppResult<DemoCredentials> {
    install_writing(store, size, seed, now, Writing::Bulk)
}

fn install_writing(
    store: &Store,
    size: DemoSize,
    seed: u64,
    now: chrono::DateTime<chrono::Utc>,
    writing: Writing,
) -> AppResult<DemoCredentials> {
    // Hash outside the write transaction: hashing is deliberately slow.
    let admin_hash = password::hash(ADMIN_PASSWORD)?;
    let member_hash = password::hash(MEMBER_PASSWORD)?;
    let surveyor_hash = password::hash(SURVEYOR_PASSWORD)?;
    let actor = Actor::System;
    store.write_blocking(|tx| {
        if account_store::email_in_use(tx, ADMIN_EMAIL)? {
            return Err(AppError::conflict(
                "La démonstration est déjà installée dans ce dossier de données.",
            ));
        }
        let init = accounts::init_organization(
            tx,
            &accounts::InitInput {
                organization: ORGANIZATION_NAME,
                agency: AGENCY_NAMES[0],
                admin_email: ADMIN_EMAIL,
                admin_name: Some(ADMIN_NAME),
                admin_password_hash: &admin_hash,
            },
            &actor,
        )?;
        let second_agency = crate::services::agencies::create_in(
            tx,
            &init.organization_id,
            AGENCY_NAMES[1],
            Some("V1-PE-0042"),
            &actor,
        )?;
        let second_agency = second_agency.to_string();
        let agency_ids = vec![init.agency_id.clone(), second_agency.clone()];
        let member_id = accounts::create_user(
            tx,
            &accounts::NewUserInput {
                email: MEMBER_EMAIL,
                name: MEMBER_NAME,
                password_hash: &member_hash,
                agency_ids: &agency_ids[..1],
                admin: false,
                performs_surveys: false,
                technician: false,
            },
            &actor,
        )?;
        // Signs in with the README's password; no API token of its own.
        accounts::create_user(
            tx,
            &accounts::NewUserInput {
                email: SURVEYOR_EMAIL,
                name: SURVEYOR_NAME,
                password_hash: &surveyor_hash,
                agency_ids: &agency_ids,
                admin: false,
                performs_surveys: true,
                technician: false,
            },
            &actor,
        )?;
        let admin_token =
            credentials::create_api_token(tx, &init.account_id, "Démonstration", &actor)?;
        let member_token = credentials::create_api_token(tx, &member_id, "Démonstration", &actor)?;
        let mut call_center_keys = Vec::new();
        for center in CALL_CENTERS {
            call_center_keys.push(
                credentials::create_call_center_key(
                    tx,
                    &AgencyId::new(init.agency_id.as_str()),
                    center,
                    &actor,
                )?
                .secret,
            );
        }
        let partner = credentials::create_partner_key(tx, PARTNER_NAME, &agency_ids, &actor)?;

        // The seller printed on the PDF documents: one company (SIREN), one
        // establishment (SIRET) per agency, with every mention filled in.
        let siren = siren::luhn_complete("81234567");
        let vat = format!("FR{:02}{siren}", identity::vat_key(&siren));
        // « 25 avenue …, 75017 Paris » in its parts: street, postal code, city.
        let parts = |text: &str| {
            let split = crate::domain::address::split_line(text)
                .ok_or_else(|| anyhow::anyhow!("adresse de démonstration indécoupable : {text}"))?;
            Ok::<_, anyhow::Error>((
                Some(split.street),
                Some(split.postal_code),
                Some(split.city),
            ))
        };
        let (head_office_address, head_office_postal_code, head_office_city) =
            parts(AGENCY_ADDRESSES[0])?;
        for (index, (agency_id, address)) in agency_ids.iter().zip(AGENCY_ADDRESSES).enumerate() {
            let siret = siren::luhn_complete(&format!("{siren}{:04}", index + 1));
            let (street, postal_code, city) = parts(address)?;
            let seller = identity::SellerIdentity {
                legal_name: Some(ORGANIZATION_NAME.to_owned()),
                legal_form: Some("SAS".to_owned()),
                share_capital: Some(Cents::new(15_000_000)),
                rcs_city: Some("Paris".to_owned()),
                siret: Some(siret),
                vat_number: Some(vat.clone()),
                head_office_address: head_office_address.clone(),
                head_office_complement: None,
                head_office_postal_code: head_office_postal_code.clone(),
                head_office_city: head_office_city.clone(),
                address: street,
                address_complement: None,
                postal_code,
                city,
                phone: Some(format!("01 45 67 8{index} 00")),
                email: Some(format!("agence{}@ascenseurs-durand.fr", index + 1)),
                iban: Some("FR7630006000011234567890189".to_owned()),
                bic: Some("AGRIFRPP".to_owned()),
                insurer: Some("SMABTP, 8 rue Louis-Armand, 75015 Paris".to_owned()),
                insurance_policy: Some("RC-2026-481516".to_owned()),
                insurance_area: Some("France métropolitaine".to_owned()),
                vat_on_debits: false,
                invoice_series: Some(AGENCY_SERIES[index].to_owned()),
                electronic_address: None,
            };
            identity_service::record_in(tx, &AgencyId::new(agency_id.as_str()), &seller, &actor)?;
        }
        let agencies: Vec<data::DemoAgency> = agency_ids
            .iter()
            .zip(AGENCY_NAMES.into_iter().zip(AGENCY_SERIES))
            .map(|(id, (name, series))| data::DemoAgency {
                id: id.clone(),
                name: name.to_owned(),
                invoice_series: Some(series.to_owned()),
            })
            .collect();
        let scope = data::DemoScope {
            organization_id: &init.organization_id,
            agencies: &agencies,
            now,
        };
        match (size, writing) {
            // A small agency's history, written as its staff would have.
            (DemoSize::Small, Writing::BySize) => data::seed_domain_data_with(
                tx,
                &mut operations::Operations::new(tx, init.account_id.clone(), partner.id.clone()),
                &scope,
                size,
                seed,
            )?,
            // Millions of rows, or a fixture: the storage interface's bulk path.
            (DemoSize::Large, _) | (_, Writing::Bulk) => {
                data::seed_domain_data(tx, &scope, size, seed)?
            }
        };
        for agency in &agency_ids {
            duties_history(tx, &AgencyId::new(agency.as_str()))?;
        }
        Ok(DemoCredentials {
            organization_id: init.organization_id,
            agencies: agencies
                .iter()
                .map(|a| DemoAgencyRef {
                    id: a.id.clone(),
                    name: a.name.clone(),
                })
                .collect(),
            admin: DemoLogin {
                email: ADMIN_EMAIL.to_owned(),
                password: ADMIN_PASSWORD.to_owned(),
                api_token: admin_token.secret,
            },
            member: DemoLogin {
                email: MEMBER_EMAIL.to_owned(),
                password: MEMBER_PASSWORD.to_owned(),
                api_token: member_token.secret,
            },

            call_center_keys,
            partner_key: partner.secret,
        })
    })
}

/// `serve --demo`: an empty data directory gets the demo first, and its
/// credentials are written to DIR/demo-credentials.json (owner-only).
pub fn seed_if_empty(store: &Store, data_dir: &Path) -> anyhow::Result<bool> {
    Ok(seed_if_empty_credentials(store, data_dir)?.is_some())
}

/// `seed_if_empty`, answering the credentials of the demo it installed.
pub fn seed_if_empty_credentials(
    store: &Store,
    data_dir: &Path,
) -> anyhow::Result<Option<DemoCredentials>> {
    if !is_empty(store)? {
        return Ok(None);
    }
    let creds = install(store, DemoSize::Small, 1, store.now())?;
    let path = data_dir.join(crate::store::data_dir::DEMO_CREDENTIALS_FILE);
    write_private_file(&path, &serde_json::to_vec_pretty(&creds)?)?;
    tracing::info!(path = %path.display(), "démonstration installée ; identifiants écrits");
    Ok(Some(creds))
}

fn write_private_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options
        .open(path)
        .map_err(|err| anyhow::anyhow!("Impossible d'écrire {} : {err}", path.display()))?;
    file.write_all(bytes)?;
    file.sync_all()?;
    Ok(())
}

/// The periodic duties done at the demo's past visits of the lifts under
/// a contract in force, as the planning would have carried them: at each
/// visit, in order, those due before the next one (`visits::duties_due`),
/// each then counted from that visit.
fn duties_history(tx: &Tx, agency_id: &AgencyId) -> AppResult<()> {
    let lifts = duty_store::lifts_in_force(tx, agency_id)?;
    let mut current: HashMap<EquipmentId, duty_store::DutyLift> = HashMap::new();
    let mut history = Vec::new();
    for (visit, lift_id, on) in duty_store::done_visits_in_force(tx, agency_id)? {
        let (Some(base), Some(day)) = (lifts.get(&lift_id), crate::domain::day::read(&on)) else {
            continue;
        };
        let lift = current
            .entry(lift_id.clone())
            .or_insert_with(|| base.clone());
        for mark in crate::services::visits::duties_due(lift, day) {
            lift.last_done.retain(|(duty, _)| *duty != mark.duty);
            lift.last_done.push((mark.duty, on.clone()));
            history.push((visit.clone(), lift_id.clone(), on.clone(), mark.duty));
        }
    }
    Ok(duty_store::record_history(tx, &history)?)
}
