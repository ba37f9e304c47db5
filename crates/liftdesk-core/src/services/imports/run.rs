//! One pass over the rows of a file for a target: each row is validated by
//! the domain's own rules (identity of an equipment, technical catalog,
//! client fields of the partner API, SIREN/SIRET, e-mail; a contract by the
//! REST API's creation itself, an index value by the rules of
//! `POST /price-indexes`), matched with what the agency already has,
//! and written in its own savepoint of the caller's transaction; a refused
//! row is rolled back to its savepoint and reported with its reasons, in
//! French, naming the column. A contracts file is also checked across its
//! rows (a lift in one row only), an index values file too (an index's
//! month in one row only), and both are refused whole at the import while
//! one row is refused (`refused_import`).
//!
//! The check and the import run this same pass: the import commits the
//! transaction, the check rolls it back (`Store::rehearse_blocking`), so the
//! check answers exactly what the import would do.

use crate::domain::contract::{
    self as contract_rules, BillingFrequency, BillingTiming, ContractType, IndexValue, PriceBasis,
};
use crate::domain::id::{AgencyId, BuildingId, ClientId, ContactId, EquipmentId, ImportId};
use std::collections::HashMap;

use serde_json::{Value, json};

use super::fields::{CITY, Field, FieldKind, POSTAL_CODE, Target};
use super::file::Table;
use super::progress::{Run, Tally};
use crate::domain::client::ClientStatus;
use crate::domain::day::MONTH_NAMES;
use crate::domain::siren;
use crate::error::{AppError, AppResult};
use crate::principal::Principal;
use crate::services::clients::{self as client_service, CATEGORIES, ClientInput};
use crate::services::contracts::{
    self as contract_service, ContractInput, IndexValueInput, InputRefusal,
};
use crate::services::equipment::{
    self as equipment_service, EQUIPMENT_TYPES, IdentityField, MAINTENANCE_CONTRACTS,
};
use crate::services::technical_data::{
    self, ADDRESS, ADDRESS_COMPLEMENT, BUILDING_NAME, CONTRACT_VALUES, Change,
};
use crate::store::Conn;
use crate::store::Tx;
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::clients::{self as client_store, ClientRow};
use crate::store::contacts::{self as contact_store, ContactRow};
use crate::store::contracts as contract_store;
use crate::store::equipment::{self as equipment_store, BuildingRow, IdentityRow};
use crate::store::technical_fields::{CatalogField, ValueType};
use crate::text::fold;

/// What a row does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// `creation`
    Create,
    /// `mise_a_jour`
    Update,
    /// `refus`
    Refuse,
}

impl Action {
    pub fn code(self) -> &'static str {
        match self {
            Self::Create => "creation",
            Self::Update => "mise_a_jour",
            Self::Refuse => "refus",
        }
    }
}

/// What happened to one row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowReport {
    /// The row's number in the spreadsheet.
    pub row: u32,
    pub action: Action,
    /// The object created or updated: an equipment's or a contact's id, a
    /// client's `client_id`.
    pub id: Option<String>,
    /// Fields changed by an update (ids of the mapping's fields).
    pub changes: Vec<String>,
    /// Why the row is refused.
    pub reasons: Vec<String>,
}

/// A file, its target and its mapping: everything a pass needs.
#[derive(Debug, Clone)]
pub struct Plan {
    pub file_id: ImportId,
    pub agency_id: AgencyId,
    pub target: Target,
    pub fields: Vec<Field>,
    /// The field (index in `fields`) of each column, if any.
    pub mapping: Vec<Option<usize>>,
    pub table: Table,
}

/// Why a row stops: refused (its reasons), or an error that stops the
/// whole pass (the database).
enum RowError {
    Refused(Vec<String>),
    Fatal(AppError),
}

impl From<AppError> for RowError {
    fn from(err: AppError) -> Self {
        if matches!(err, AppError::Internal(_)) {
            Self::Fatal(err)
        } else {
            Self::Refused(vec![err.public_message()])
        }
    }
}

impl From<crate::store::StoreError> for RowError {
    fn from(err: crate::store::StoreError) -> Self {
        Self::Fatal(err.into())
    }
}

/// A non-blank cell of a row and where it is.
struct Cell<'a> {
    column: &'a str,
    letter: &'a str,
    text: &'a str,
    field: &'a Field,
}

impl Cell<'_> {
    fn reason(&self, message: &str) -> String {
        format!("Colonne « {} » ({}) : {message}", self.column, self.letter)
    }

    /// The field as the file's reader knows it (« Type d'équipement »,
    /// « Charge utile »), for the refusals: never its code.
    fn name(&self) -> &str {
        self.field.name()
    }

    /// `value` (the cell or one item of a list in it) is none of the
    /// field's values, written as people write them.
    fn not_allowed<T: AsRef<str>>(&self, value: &str, allowed: &[T]) -> String {
        self.reason(&crate::domain::text::not_allowed(
            self.name(),
            value.trim(),
            allowed,
        ))
    }
}

/// Collects the reasons of a row; an internal error stops at once.
#[derive(Default)]
struct Reasons(Vec<String>);

impl Reasons {
    fn column(&mut self, cell: &Cell<'_>, err: AppError) -> Result<(), RowError> {
        if matches!(err, AppError::Internal(_)) {
            return Err(RowError::Fatal(err));
        }
        self.0.push(cell.reason(&err.public_message()));
        Ok(())
    }

    fn done(self) -> Result<(), RowError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(RowError::Refused(self.0))
        }
    }
}

fn refuse<T>(message: impl Into<String>) -> Result<T, RowError> {
    Err(RowError::Refused(vec![message.into()]))
}

/// Runs the pass in `tx` for `p` (who imports, in the plan's agency):
/// every row in order, each in its savepoint, `progress` counting them.
/// Returns one report per row.
pub fn run(tx: &Tx, plan: &Plan, p: &Principal, progress: &Run) -> AppResult<Vec<RowReport>> {
    let actor = &p.actor;
    let mut pass = Pass {
        plan,
        actor,
        principal: p,
        clients: ClientDirectory::load(tx, &plan.agency_id)?,
        buildings: BuildingDirectory::load(tx, &plan.agency_id)?,
        contract_lifts: HashMap::new(),
        index_rows: HashMap::new(),
        stored_index_values: if plan.target == Target::PriceIndexes {
            contract_store::index_values(tx, &plan.agency_id, None)?
                .into_iter()
                .map(|v| {
                    (
                        (v.index_code, v.month),
                        IndexValue::from_ten_thousandths(v.value),
                    )
                })
                .collect()
        } else {
            HashMap::new()
        },
    };
    let mut reports = Vec::with_capacity(plan.table.rows.len());
    for row in &plan.table.rows {
        let cells: Vec<Cell<'_>> = plan
            .mapping
            .iter()
            .enumerate()
            .filter_map(|(col, field)| {
                let field = &plan.fields[(*field)?];
                let text = row.cells.get(col).map(|t| t.trim()).unwrap_or_default();
                (!text.is_empty()).then(|| Cell {
                    column: &plan.table.columns[col],
                    letter: &plan.table.letters[col],
                    text,
                    field,
                })
            })
            .collect();
        // A refused row leaves nothing behind: its writes are undone.
        let outcome = tx.savepoint(|tx| match plan.target {
            Target::Equipment => pass.equipment_row(tx, row.number, &cells),
            Target::Clients => pass.client_row(tx, &cells),
            Target::Contacts => pass.contact_row(tx, row.number, &cells),
            Target::Contracts => pass.contract_row(tx, row.number, &cells),
            Target::PriceIndexes => pass.index_value_row(tx, row.number, &cells),
        });
        let report = match outcome {
            Ok((action, id, changes)) => RowReport {
                row: row.number,
                action,
                id: Some(id),
                changes,
                reasons: Vec::new(),
            },
            Err(RowError::Refused(reasons)) => RowReport {
                row: row.number,
                action: Action::Refuse,
                id: None,
                changes: Vec::new(),
                reasons,
            },
            Err(RowError::Fatal(err)) => return Err(err),
        };
        progress.row_done(match report.action {
            Action::Create => Tally::Created,
            Action::Update => Tally::Updated,
            Action::Refuse => Tally::Refused,
        });
        reports.push(report);
    }
    let count = |action| reports.iter().filter(|r| r.action == action).count();
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(plan.agency_id.as_str()),
            actor,
            action: "import",
            object_type: "import_file",
            object_id: Some(plan.file_id.as_str()),
            detail: Some(json!({
                "target": plan.target.code(),
                "created": count(Action::Create),
                "updated": count(Action::Update),
                "refused": count(Action::Refuse),
            })),
        },
    )?;
    Ok(reports)
}

/// The refusal of an import of a target written all or nothing
/// ([`Target::all_or_nothing`]) whose pass refused rows: nothing is written.
/// `None` when no row is refused.
pub fn refused_import(target: Target, reports: &[RowReport]) -> Option<AppError> {
    let refused: Vec<&RowReport> = reports
        .iter()
        .filter(|r| r.action == Action::Refuse)
        .collect();
    let first = refused.first()?;
    const SHOWN: usize = 10;
    let mut numbers: Vec<String> = refused
        .iter()
        .take(SHOWN)
        .map(|r| r.row.to_string())
        .collect();
    let rows = match numbers.len() {
        1 => format!("ligne {}", numbers[0]),
        _ if refused.len() > SHOWN => format!("lignes {}…", numbers.join(", ")),
        _ => {
            let last = numbers.pop().unwrap_or_default();
            format!("lignes {} et {last}", numbers.join(", "))
        }
    };
    let count = match refused.len() {
        1 => "1 ligne est refusée".to_owned(),
        n => format!("{n} lignes sont refusées"),
    };
    let what = match target {
        Target::Contracts => {
            "Aucun contrat n'a été importé : un import de contrats enregistre toutes ses lignes ou aucune"
        }
        Target::PriceIndexes => {
            "Aucune valeur d'indice n'a été importée : un import de valeurs d'indices enregistre toutes ses lignes ou aucune"
        }
        _ => "Rien n'a été importé : cet import enregistre toutes ses lignes ou aucune",
    };
    Some(AppError::unprocessable(format!(
        "{what}, et {count} ({rows}). Ligne {} : {} Corrigez le fichier, envoyez-le de nouveau et vérifiez-le : la vérification donne la raison de chaque ligne refusée.",
        first.row,
        first.reasons.join(" ")
    )))
}

type RowOutcome = Result<(Action, String, Vec<String>), RowError>;

struct Pass<'p> {
    plan: &'p Plan,
    actor: &'p Actor,
    /// Who imports: a contract is created by the API's own step, for them.
    principal: &'p Principal,
    clients: ClientDirectory,
    buildings: BuildingDirectory,
    /// The lifts the rows of a contracts file name so far, and the first
    /// row naming each.
    contract_lifts: HashMap<EquipmentId, u32>,
    /// The (index, month) the rows of an index values file give so far,
    /// and the first row giving each.
    index_rows: HashMap<(String, String), u32>,
    /// The agency's index values, by (index, month), as stored when the
    /// pass began (an index values file only).
    stored_index_values: HashMap<(String, String), IndexValue>,
}

impl Pass<'_> {
    fn audit_row(
        &self,
        tx: &Tx,
        object_type: &str,
        object_id: &str,
        row: u32,
        action: Action,
        changes: &[String],
    ) -> AppResult<()> {
        Ok(audit::record(
            tx,
            AuditEntry {
                agency_id: Some(self.plan.agency_id.as_str()),
                actor: self.actor,
                action: match action {
                    Action::Create => "import.creation",
                    _ => "import.mise_a_jour",
                },
                object_type,
                object_id: Some(object_id),
                detail: Some(json!({
                    "fileId": self.plan.file_id,
                    "row": row,
                    "changes": changes,
                })),
            },
        )?)
    }

    // -- Equipment -------------------------------------------------------------

    fn equipment_row(&mut self, tx: &Tx, row: u32, cells: &[Cell<'_>]) -> RowOutcome {
        let agency_id = &self.plan.agency_id;
        let mut reasons = Reasons::default();
        let mut identity: Vec<(IdentityField, String)> = Vec::new();
        let mut client: Option<ClientId> = None;
        let mut building: Vec<(&'static str, String)> = Vec::new();
        let mut data: Vec<(&CatalogField, Value)> = Vec::new();
        for cell in cells {
            match &cell.field.kind {
                FieldKind::Identity(field) => {
                    let text = match identity_text(*field, cell.text) {
                        Ok(text) => text,
                        Err(labels) => {
                            reasons.0.push(cell.not_allowed(cell.text, &labels));
                            continue;
                        }
                    };
                    match equipment_service::identity_value_named(*field, cell.name(), &Some(text))
                    {
                        Ok(Some(value)) => identity.push((*field, value)),
                        Ok(None) => {}
                        Err(err) => reasons.column(cell, err)?,
                    }
                }
                FieldKind::EquipmentClient => match self.clients.resolve(cell.text) {
                    Ok(found) => client = Some(found.id.clone()),
                    Err(message) => reasons.0.push(cell.reason(&message)),
                },
                FieldKind::Building(name) => {
                    match technical_data::text_change(
                        cell.name(),
                        &Value::String(cell.text.to_owned()),
                    ) {
                        Ok(Change::Set(text)) => building.push((name, text)),
                        Ok(Change::Erase) => {}
                        Err(err) => reasons.column(cell, err)?,
                    }
                }
                FieldKind::Technical(datum) => {
                    let value = match cell_value(datum, cell.text) {
                        Ok(value) => value,
                        Err(wrong) => {
                            let shown: Vec<&str> = datum
                                .choices
                                .iter()
                                .map(|c| technical_data::choice_label(c))
                                .collect();
                            reasons.0.push(cell.not_allowed(&wrong, &shown));
                            continue;
                        }
                    };
                    match technical_data::validate_value(datum, cell.name(), &value) {
                        Ok(Change::Set(value)) => data.push((datum, value)),
                        Ok(Change::Erase) => {}
                        Err(err) => reasons.column(cell, err)?,
                    }
                }
                _ => {}
            }
        }
        reasons.done()?;
        let given = |field: IdentityField| {
            identity
                .iter()
                .find(|(f, _)| *f == field)
                .map(|(_, v)| v.as_str())
        };
        let number = given(IdentityField::Number);
        let external_id = given(IdentityField::ExternalId);
        if number.is_none() && external_id.is_none() {
            return refuse(
                "Ni numéro d'équipement ni identifiant externe : cette ligne ne désigne aucun équipement.",
            );
        }
        let mut existing = match number {
            Some(number) => equipment_store::find_by_number(tx, agency_id, number)?,
            None => None,
        };
        if existing.is_none()
            && let Some(external_id) = external_id
        {
            existing = equipment_store::find_by_external_id(tx, agency_id, external_id)?;
        }
        let equipment_id = existing.as_ref().map_or_else(
            || EquipmentId::new(crate::store::new_id()),
            |e| e.id.clone(),
        );
        let before: IdentityRow = existing
            .as_ref()
            .map(|e| e.identity.clone())
            .unwrap_or_default();
        let mut after = before.clone();
        for (field, value) in &identity {
            // The same number written otherwise (spaces, case) is the same.
            if *field == IdentityField::Number
                && before.number.as_deref().map(number_key) == Some(number_key(value))
            {
                continue;
            }
            *field.of_mut(&mut after) = Some(value.clone());
        }
        if existing.is_some()
            && after.number != before.number
            && let Some(number) = after.number.as_deref()
        {
            equipment_service::check_number_free(tx, agency_id, number, &equipment_id)?;
        }
        let mut changes: Vec<String> = IdentityField::ALL
            .into_iter()
            .filter(|f| f.of(&before) != f.of(&after))
            .map(|f| f.wire_name().to_owned())
            .collect();
        let client_before = existing.as_ref().and_then(|e| e.client_id.clone());
        let client_after = client.clone().or_else(|| client_before.clone());
        if client_after != client_before {
            changes.push("client".to_owned());
        }

        // The building: the equipment's own, else the agency's building at
        // that address (postal code and city), else a new one.
        let mut building_plan: Option<(BuildingRow, BuildingWrite, bool)> = None;
        if !building.is_empty() {
            let detail = |name: &str| {
                building
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.clone())
            };
            let (base, how) = match existing.as_ref().and_then(|e| e.building.clone()) {
                Some(own) => (own, BuildingWrite::Update),
                None => {
                    let Some(address) = detail(ADDRESS) else {
                        return refuse(
                            "Cet équipement n'est rattaché à aucun immeuble : indiquez aussi l'adresse de son immeuble pour l'y rattacher.",
                        );
                    };
                    let key = place_key(
                        &address,
                        detail(POSTAL_CODE).as_deref(),
                        detail(CITY).as_deref(),
                    );
                    match self.buildings.find(&key) {
                        Some(found) => (found.clone(), BuildingWrite::Attach),
                        None => (
                            BuildingRow {
                                id: BuildingId::new(crate::store::new_id()),
                                name: None,
                                address: String::new(),
                                address_complement: None,
                                postal_code: None,
                                city: None,
                            },
                            BuildingWrite::Create,
                        ),
                    }
                }
            };
            let mut next = base.clone();
            for (name, value) in &building {
                let value = value.clone();
                match *name {
                    ADDRESS => next.address = value,
                    ADDRESS_COMPLEMENT => next.address_complement = Some(value),
                    BUILDING_NAME => next.name = Some(value),
                    POSTAL_CODE => next.postal_code = Some(value),
                    CITY => next.city = Some(value),
                    _ => {}
                }
            }
            if how != BuildingWrite::Update {
                changes.push("immeuble".to_owned());
            }
            if how != BuildingWrite::Create {
                let pairs = [
                    (ADDRESS, Some(&base.address), Some(&next.address)),
                    (
                        ADDRESS_COMPLEMENT,
                        base.address_complement.as_ref(),
                        next.address_complement.as_ref(),
                    ),
                    (BUILDING_NAME, base.name.as_ref(), next.name.as_ref()),
                    (
                        POSTAL_CODE,
                        base.postal_code.as_ref(),
                        next.postal_code.as_ref(),
                    ),
                    (CITY, base.city.as_ref(), next.city.as_ref()),
                ];
                changes.extend(
                    pairs
                        .into_iter()
                        .filter(|(_, old, new)| old != new)
                        .map(|(name, _, _)| name.to_owned()),
                );
            }
            let changed = next != base;
            building_plan = Some((next, how, changed));
        }

        let stored = match &existing {
            Some(e) => equipment_store::values(tx, &e.id)?,
            None => Vec::new(),
        };
        let mut data_changes: Vec<(&CatalogField, Value)> = Vec::new();
        for (datum, value) in data {
            let current = stored
                .iter()
                .find(|(code, _)| *code == datum.code)
                .and_then(|(_, text)| serde_json::from_str::<Value>(text).ok());
            if current.as_ref() != Some(&value) {
                changes.push(datum.code.clone());
                data_changes.push((datum, value));
            }
        }

        // Writes.
        let action = if existing.is_some() {
            Action::Update
        } else {
            Action::Create
        };
        let mut building_id = existing.as_ref().and_then(|e| e.building_id.clone());
        if let Some((next, how, changed)) = &building_plan {
            match how {
                BuildingWrite::Create => {
                    equipment_store::insert_building(tx, agency_id, client_after.as_ref(), next)?;
                }
                BuildingWrite::Attach | BuildingWrite::Update if *changed => {
                    equipment_store::update_building(tx, next)?;
                }
                _ => {}
            }
            if *how == BuildingWrite::Create || *changed {
                self.buildings.add(next.clone());
            }
            building_id = Some(next.id.clone());
        }
        match &existing {
            None => equipment_store::insert(
                tx,
                agency_id,
                &equipment_id,
                &after,
                building_id.as_ref(),
                client_after.as_ref(),
            )?,
            Some(e) => {
                if after != before {
                    equipment_store::update_identity(tx, &equipment_id, &after)?;
                }
                if building_id != e.building_id
                    && let Some(building_id) = &building_id
                {
                    equipment_store::set_building(tx, &equipment_id, building_id)?;
                }
                if client_after != client_before
                    && let Some(client_id) = &client_after
                {
                    equipment_store::set_client(tx, &equipment_id, client_id)?;
                }
            }
        }
        for (datum, value) in &data_changes {
            equipment_store::set_value(tx, &equipment_id, &datum.code, &value.to_string())?;
        }
        if action == Action::Create {
            changes.clear();
        }
        if action == Action::Create || !changes.is_empty() {
            self.audit_row(
                tx,
                "equipment",
                equipment_id.as_str(),
                row,
                action,
                &changes,
            )?;
        }
        Ok((action, equipment_id.into_string(), changes))
    }

    // -- Clients ---------------------------------------------------------------

    fn client_row(&mut self, tx: &Tx, cells: &[Cell<'_>]) -> RowOutcome {
        let agency_id = &self.plan.agency_id;
        let mut reasons = Reasons::default();
        let mut input = ClientInput::default();
        for cell in cells {
            let FieldKind::Client(name) = &cell.field.kind else {
                continue;
            };
            match *name {
                "type" => {
                    let mut kept = Vec::new();
                    for part in split_list(cell.text) {
                        let part = canonical(&part, &CATEGORIES);
                        match client_service::check_client_value("type", cell.name(), &part) {
                            Ok(()) => kept.push(part),
                            Err(err) => reasons.column(cell, err)?,
                        }
                    }
                    if !kept.is_empty() {
                        input.types = Some(kept);
                    }
                }
                name => {
                    let value = match name {
                        "statut" => canonical(cell.text, ClientStatus::CODES),
                        "siren" | "siret" => siren::remove_spaces(cell.text),
                        _ => cell.text.to_owned(),
                    };
                    if let Err(err) = client_service::check_client_value(name, cell.name(), &value)
                    {
                        reasons.column(cell, err)?;
                        continue;
                    }
                    match name {
                        "client_id" => input.client_id = Some(value),
                        "nom" => input.nom = Some(value),
                        "statut" => input.statut = Some(value),
                        "email" => input.email = Some(Some(value)),
                        "telephone" => input.telephone = Some(Some(value)),
                        "adresse" => input.adresse = Some(Some(value)),
                        "code_postal" => input.code_postal = Some(Some(value)),
                        "ville" => input.ville = Some(Some(value)),
                        "complement_adresse" => input.complement_adresse = Some(Some(value)),
                        "siren" => input.siren = Some(Some(value)),
                        "siret" => input.siret = Some(Some(value)),
                        _ => {}
                    }
                }
            }
        }
        reasons.done()?;
        let siret = input.siret.clone().flatten();
        let siren = input.siren.clone().flatten();
        let before = self.clients.find_client(
            input.client_id.as_deref(),
            siret.as_deref(),
            siren.as_deref(),
            input.nom.as_deref(),
        )?;
        if before.is_none() && input.client_id.is_none() && input.nom.is_none() {
            return refuse(
                "Aucun client de l'agence ne correspond à cette ligne (par identifiant, SIRET, SIREN ou nom) : son nom (ou raison sociale) est obligatoire pour le créer.",
            );
        }
        let client_ref = match (&before, &input.client_id) {
            (Some(found), _) => found.client_ref.clone(),
            (None, Some(given)) => given.clone(),
            (None, None) => client_store::next_reference(tx, agency_id)?,
        };
        input.client_id = Some(client_ref.clone());
        client_service::update_client(tx, agency_id, input, self.actor)?;
        let after = client_store::find_by_ref(tx, agency_id, &client_ref)?.ok_or_else(|| {
            RowError::Fatal(AppError::Internal(anyhow::anyhow!(
                "client importé introuvable après écriture"
            )))
        })?;
        let (action, changes) = match &before {
            None => (Action::Create, Vec::new()),
            Some(before) => (Action::Update, client_changes(before, &after)),
        };
        self.clients.put(after);
        Ok((action, client_ref, changes))
    }

    // -- Contacts --------------------------------------------------------------

    fn contact_row(&mut self, tx: &Tx, row: u32, cells: &[Cell<'_>]) -> RowOutcome {
        let mut reasons = Reasons::default();
        let mut client: Option<ClientRow> = None;
        let mut first_name: Option<String> = None;
        let mut given: HashMap<&'static str, String> = HashMap::new();
        for cell in cells {
            match &cell.field.kind {
                FieldKind::ContactClient => match self.clients.resolve(cell.text) {
                    Ok(found) => client = Some(found.clone()),
                    Err(message) => reasons.0.push(cell.reason(&message)),
                },
                FieldKind::ContactFirstName => first_name = Some(cell.text.to_owned()),
                FieldKind::Contact(name) => {
                    match client_service::check_contact_value(name, cell.name(), cell.text) {
                        Ok(()) => {
                            given.insert(name, cell.text.to_owned());
                        }
                        Err(err) => reasons.column(cell, err)?,
                    }
                }
                _ => {}
            }
        }
        let client_column = self.column_of("client");
        let name_column = self.column_of("nom");
        if client.is_none() && !cells.iter().any(|c| c.field.id == "client") {
            reasons.0.push(format!(
                "Colonne « {client_column} » vide : un contact est rattaché à un client de l'agence (son identifiant ou son nom)."
            ));
        }
        let nom = match (first_name, given.remove("nom")) {
            (_, None) => {
                reasons.0.push(format!(
                    "Colonne « {name_column} » vide : le nom du contact est obligatoire."
                ));
                None
            }
            (Some(first), Some(last)) => Some(format!("{first} {last}")),
            (None, Some(last)) => Some(last),
        };
        reasons.done()?;
        let (Some(client), Some(nom)) = (client, nom) else {
            return refuse("Le client et le nom du contact sont obligatoires.");
        };
        client_service::check_contact_value("nom", "Nom", &nom)?;
        let email = given.remove("email");
        let contacts = contact_store::for_client(tx, &client.id)?;
        let wanted = fold(&nom);
        let matched = contacts
            .iter()
            .find(|c| fold(&c.nom) == wanted)
            .or_else(|| {
                email.as_ref().and_then(|email| {
                    contacts.iter().find(|c| {
                        c.email
                            .as_deref()
                            .is_some_and(|e| e.eq_ignore_ascii_case(email))
                    })
                })
            });
        let telephone = given.remove("telephone");
        let fonction = given.remove("fonction");
        match matched {
            None => {
                let contact = ContactRow {
                    id: ContactId::new(crate::store::new_id()),
                    nom,
                    email,
                    telephone,
                    fonction,
                };
                contact_store::insert(tx, &client.id, &contact)?;
                self.audit_row(tx, "contact", contact.id.as_str(), row, Action::Create, &[])?;
                Ok((Action::Create, contact.id.into_string(), Vec::new()))
            }
            Some(current) => {
                let next = ContactRow {
                    id: current.id.clone(),
                    nom,
                    email: email.or_else(|| current.email.clone()),
                    telephone: telephone.or_else(|| current.telephone.clone()),
                    fonction: fonction.or_else(|| current.fonction.clone()),
                };
                let mut changes = Vec::new();
                for (name, old, new) in [
                    ("nom", Some(&current.nom), Some(&next.nom)),
                    ("email", current.email.as_ref(), next.email.as_ref()),
                    (
                        "telephone",
                        current.telephone.as_ref(),
                        next.telephone.as_ref(),
                    ),
                    (
                        "fonction",
                        current.fonction.as_ref(),
                        next.fonction.as_ref(),
                    ),
                ] {
                    if old != new {
                        changes.push(name.to_owned());
                    }
                }
                if !changes.is_empty() {
                    contact_store::update(tx, &next)?;
                    self.audit_row(
                        tx,
                        "contact",
                        next.id.as_str(),
                        row,
                        Action::Update,
                        &changes,
                    )?;
                }
                Ok((Action::Update, next.id.into_string(), changes))
            }
        }
    }

    // -- Contracts -------------------------------------------------------------

    /// A contract, created as a draft by the REST API's own step
    /// (`contracts::import_in`): the cells give its body, read as a French
    /// spreadsheet writes them; the client and the lifts are found in the
    /// agency (by `client_id` or name, by number); a lift named by an
    /// earlier row of the file is refused, as one under another contract
    /// that has not ended, or in another draft.
    fn contract_row(&mut self, tx: &Tx, row: u32, cells: &[Cell<'_>]) -> RowOutcome {
        let agency_id = &self.plan.agency_id;
        let mut reasons = Reasons::default();
        let mut input = ContractInput::default();
        let mut given: Vec<&'static str> = Vec::new();
        let mut lifts: Vec<EquipmentId> = Vec::new();
        for cell in cells {
            let FieldKind::Contract(field) = &cell.field.kind else {
                continue;
            };
            given.push(field);
            match *field {
                "clientId" => match self.clients.resolve(cell.text) {
                    Ok(found) => input.client_id = found.client_ref.clone(),
                    Err(message) => reasons.0.push(cell.reason(&message)),
                },
                "liftIds" => {
                    for number in split_list(cell.text) {
                        let Some(lift) = equipment_store::find_by_number(tx, agency_id, &number)?
                        else {
                            reasons.0.push(cell.reason(&format!(
                                "aucun appareil de l'agence n'a le numéro « {number} » : importez d'abord le parc."
                            )));
                            continue;
                        };
                        if lifts.contains(&lift.id) {
                            reasons.0.push(cell.reason(&format!(
                                "L'appareil « {number} » figure deux fois dans « {} ».",
                                cell.name()
                            )));
                            continue;
                        }
                        if let Some(earlier) = self.contract_lifts.get(&lift.id) {
                            reasons.0.push(cell.reason(&format!(
                                "l'appareil « {number} » figure déjà ligne {earlier} de ce fichier : un appareil est sous un seul contrat."
                            )));
                        } else {
                            self.contract_lifts.insert(lift.id.clone(), row);
                        }
                        lifts.push(lift.id);
                    }
                }
                field => {
                    if let Err(message) = contract_value(&mut input, field, cell.name(), cell.text)
                    {
                        reasons.0.push(cell.reason(&message));
                    }
                }
            }
        }
        for (id, what) in [
            (
                "clientId",
                "un contrat est celui d'un client de l'agence (son identifiant ou son nom)",
            ),
            (
                "liftIds",
                "un contrat couvre au moins un appareil (leurs numéros, séparés par ; ou ,)",
            ),
            ("type", "le type du contrat est obligatoire"),
            ("startOn", "la date de début du contrat est obligatoire"),
            ("annualPrice", "le prix annuel du contrat est obligatoire"),
        ] {
            if !given.contains(&id) {
                reasons.0.push(format!(
                    "Colonne « {} » vide : {what}.",
                    self.contract_column(id)
                        .map_or_else(|| id.to_owned(), |col| self.plan.table.columns[col].clone())
                ));
            }
        }
        reasons.done()?;
        input.lift_ids = lifts.into_iter().map(EquipmentId::into_string).collect();
        let names = |field: &'static str| self.contract_field_name(field);
        match contract_service::import_in(tx, self.principal, &input, &names) {
            Ok(id) => Ok((Action::Create, id.into_string(), Vec::new())),
            Err(refusal) => Err(self.contract_refusal(refusal)),
        }
    }

    /// The column a contract's field (its `ContractBody` name) is mapped to.
    fn contract_column(&self, field: &str) -> Option<usize> {
        self.plan.mapping.iter().position(|f| {
            f.is_some_and(
                |i| matches!(self.plan.fields[i].kind, FieldKind::Contract(name) if name == field),
            )
        })
    }

    /// A contract's field as this import names it (« Durée »).
    fn contract_field_name(&self, field: &'static str) -> String {
        self.plan
            .fields
            .iter()
            .find(|f| matches!(f.kind, FieldKind::Contract(name) if name == field))
            .map_or_else(|| field.to_owned(), |f| f.name().to_owned())
    }

    /// A refusal of the contracts' rules as a row's reason, naming the
    /// column of the field it is about.
    fn contract_refusal(&self, refusal: InputRefusal) -> RowError {
        let column = refusal.field.and_then(|f| self.contract_column(f));
        self.refusal_in(column, refusal)
    }

    /// A refusal of an operation's rules as a row's reason, naming `column`
    /// (the one of the field it is about) when there is one.
    fn refusal_in(&self, column: Option<usize>, refusal: InputRefusal) -> RowError {
        if matches!(refusal.error, AppError::Internal(_)) {
            return RowError::Fatal(refusal.error);
        }
        let message = refusal.error.public_message();
        RowError::Refused(vec![match column {
            Some(col) => format!(
                "Colonne « {} » ({}) : {message}",
                self.plan.table.columns[col], self.plan.table.letters[col]
            ),
            None => message,
        }])
    }

    // -- Price indexes' values -----------------------------------------------

    /// An index's value for a month, recorded by the step of
    /// `POST /price-indexes` (`contracts::write_index_value_in`) after its
    /// rules (`contracts::check_index_value`), the fields named as this
    /// import names them: a month already recorded is corrected (an
    /// update, journal `correction`), unless the file gives the value
    /// stored (an update that changes nothing, and writes nothing). An
    /// index's month given by an earlier row of the file is refused.
    fn index_value_row(&mut self, tx: &Tx, row: u32, cells: &[Cell<'_>]) -> RowOutcome {
        let mut reasons = Reasons::default();
        let mut input = IndexValueInput::default();
        let mut given: Vec<&'static str> = Vec::new();
        for cell in cells {
            let FieldKind::IndexValue(field) = &cell.field.kind else {
                continue;
            };
            given.push(field);
            match *field {
                "index" => input.index = cell.text.to_owned(),
                "month" => input.month = iso_month(cell.text),
                "value" => match parse_number(cell.text).and_then(|n| n.as_f64()) {
                    Some(value) => input.value = value,
                    None => reasons.0.push(cell.reason(&format!(
                        "Le champ « {} » doit être un nombre, par exemple 128,5 (reçu : « {} »).",
                        cell.name(),
                        cell.text
                    ))),
                },
                _ => {}
            }
        }
        for (field, what) in [
            (
                "index",
                "le code de l'indice est obligatoire (BT48, ICHT-IME…)",
            ),
            ("month", "le mois de la valeur est obligatoire"),
            ("value", "la valeur de l'indice est obligatoire"),
        ] {
            if !given.contains(&field) {
                reasons.0.push(format!(
                    "Colonne « {} » vide : {what}.",
                    self.index_column(field).map_or_else(
                        || self.index_field_name(field),
                        |col| self.plan.table.columns[col].clone()
                    )
                ));
            }
        }
        // The month of an index in one row only, whatever else the rows say.
        if let (Ok(index), Some(month)) = (
            contract_rules::check_index_code(&input.index),
            contract_rules::parse_month(input.month.trim()),
        ) {
            let month = contract_rules::month_text(month);
            let key = (index, month);
            match self.index_rows.get(&key) {
                Some(earlier) => reasons.0.push(format!(
                    "La valeur de l'indice {} pour le mois {} figure déjà ligne {earlier} de ce fichier : un indice a une seule valeur par mois.",
                    key.0, key.1
                )),
                None => {
                    self.index_rows.insert(key, row);
                }
            }
        }
        reasons.done()?;
        let names = |field: &'static str| self.index_field_name(field);
        let checked = contract_service::check_index_value(&input, &names).map_err(|refusal| {
            let column = refusal.field.and_then(|f| self.index_column(f));
            self.refusal_in(column, refusal)
        })?;
        let key = (checked.index().to_owned(), checked.month().to_owned());
        let id = format!("{}/{}", key.0, key.1);
        let stored = self.stored_index_values.get(&key).copied();
        if stored == Some(checked.value()) {
            return Ok((Action::Update, id, Vec::new()));
        }
        let recorded = contract_service::write_index_value_in(tx, self.principal, &checked)?;
        self.stored_index_values.insert(key, checked.value());
        Ok(match recorded.before {
            Some(_) => (Action::Update, id, vec!["valeur".to_owned()]),
            None => (Action::Create, id, Vec::new()),
        })
    }

    /// The column an index value's field (`index`, `month`, `value`) is
    /// mapped to.
    fn index_column(&self, field: &str) -> Option<usize> {
        self.plan.mapping.iter().position(|f| {
            f.is_some_and(
                |i| matches!(self.plan.fields[i].kind, FieldKind::IndexValue(name) if name == field),
            )
        })
    }

    /// An index value's field as this import names it (« Mois »).
    fn index_field_name(&self, field: &'static str) -> String {
        self.plan
            .fields
            .iter()
            .find(|f| matches!(f.kind, FieldKind::IndexValue(name) if name == field))
            .map_or_else(|| field.to_owned(), |f| f.name().to_owned())
    }

    /// The column mapped to a field, for messages about an empty cell.
    fn column_of(&self, field_id: &str) -> String {
        self.plan
            .mapping
            .iter()
            .position(|f| f.is_some_and(|i| self.plan.fields[i].id == field_id))
            .map(|col| self.plan.table.columns[col].clone())
            .unwrap_or_else(|| field_id.to_owned())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BuildingWrite {
    /// A new building.
    Create,
    /// The agency's building at that address, for an equipment that had none.
    Attach,
    /// The equipment's own building.
    Update,
}

/// The client fields an update changed.
fn client_changes(before: &ClientRow, after: &ClientRow) -> Vec<String> {
    let (status_before, status_after) = (before.statut.as_str(), after.statut.as_str());
    let pairs = [
        ("nom", Some(before.nom.as_str()), Some(after.nom.as_str())),
        ("statut", Some(status_before), Some(status_after)),
        (
            "type",
            Some(before.types.as_str()),
            Some(after.types.as_str()),
        ),
        ("email", before.email.as_deref(), after.email.as_deref()),
        (
            "telephone",
            before.telephone.as_deref(),
            after.telephone.as_deref(),
        ),
        (
            "adresse",
            before.adresse.as_deref(),
            after.adresse.as_deref(),
        ),
        (
            "complement_adresse",
            before.complement_adresse.as_deref(),
            after.complement_adresse.as_deref(),
        ),
        (
            "code_postal",
            before.code_postal.as_deref(),
            after.code_postal.as_deref(),
        ),
        ("ville", before.ville.as_deref(), after.ville.as_deref()),
        ("siren", before.siren.as_deref(), after.siren.as_deref()),
        ("siret", before.siret.as_deref(), after.siret.as_deref()),
    ];
    pairs
        .into_iter()
        .filter(|(_, old, new)| old != new)
        .map(|(name, _, _)| name.to_owned())
        .collect()
}

// -- Reading cells -----------------------------------------------------------------

/// The value among `allowed` that a text spells, accents and case ignored;
/// else the text as it is (the rule then refuses it, listing the values).
fn canonical(text: &str, allowed: &[&str]) -> String {
    let wanted = fold(text.trim());
    allowed
        .iter()
        .find(|a| fold(a) == wanted)
        .map_or_else(|| text.trim().to_owned(), |a| (*a).to_owned())
}

/// A code (`monte_charge`, `hors_parc`) as people write it: `Monte-charge`,
/// `Hors parc`.
fn code_of(text: &str, codes: &[&str]) -> Option<String> {
    let wanted: String = fold(text.trim())
        .chars()
        .map(|c| if c == ' ' || c == '-' { '_' } else { c })
        .collect();
    codes
        .iter()
        .find(|c| **c == wanted)
        .map(|c| (*c).to_owned())
}

/// An identity cell as the identity rules expect it: the type and the
/// contract as their codes, read from their code or their French name
/// (« Monte-charge », « Hors parc »); otherwise the French names the field
/// accepts (the reason to give).
fn identity_text(field: IdentityField, text: &str) -> Result<String, Vec<&'static str>> {
    let named = |pairs: &[(&'static str, &'static str)]| {
        pairs
            .iter()
            .find(|(label, _)| fold(label) == fold(text.trim()))
            .map(|(_, code)| (*code).to_owned())
    };
    match field {
        IdentityField::Type => {
            let labelled: Vec<(&'static str, &'static str)> = EQUIPMENT_TYPES
                .iter()
                .map(|code| (crate::services::sheet::equipment_type_label(code), *code))
                .collect();
            code_of(text, &EQUIPMENT_TYPES)
                .or_else(|| named(&labelled))
                .ok_or_else(|| labelled.iter().map(|(label, _)| *label).collect())
        }
        IdentityField::MaintenanceContract => code_of(text, &MAINTENANCE_CONTRACTS)
            .or_else(|| named(&CONTRACT_VALUES))
            .ok_or_else(|| CONTRACT_VALUES.iter().map(|(label, _)| *label).collect()),
        _ => Ok(text.to_owned()),
    }
}

/// A code of `T` as people write it: the code (`par_appareil`), its French
/// name (« Par appareil », « Terme à échoir »), or that name without
/// « Terme » (« À échoir », « Échu »); accents, case, `-` and `_` aside.
fn wire_code<T: crate::domain::WireCode>(text: &str) -> Option<&'static str> {
    let plain = |text: &str| {
        fold(text)
            .chars()
            .map(|c| if c == '_' || c == '-' { ' ' } else { c })
            .collect::<String>()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let wanted = plain(text);
    T::all()
        .iter()
        .find(|value| {
            let label = plain(value.french());
            plain(value.code()) == wanted
                || label == wanted
                || label.strip_prefix("terme ") == Some(wanted.as_str())
        })
        .map(|value| value.code())
}

/// A day as the API takes it (`AAAA-MM-JJ`) from a French spreadsheet's
/// `JJ/MM/AAAA` (or `J/M/AAAA`); any other text as it is (the API's rule
/// judges it).
fn iso_day(text: &str) -> String {
    let text = text.trim();
    let digits = |part: &str, max: usize| {
        !part.is_empty() && part.len() <= max && part.chars().all(|c| c.is_ascii_digit())
    };
    if let [d, m, y] = text.split('/').collect::<Vec<_>>().as_slice()
        && digits(d, 2)
        && digits(m, 2)
        && digits(y, 4)
        && y.len() == 4
    {
        return format!("{y}-{m:0>2}-{d:0>2}");
    }
    text.to_owned()
}

/// A month as the API takes it (`AAAA-MM`) from `MM/AAAA`, from its French
/// name and year as INSEE's tables write it (« janvier 2026 », « janv.
/// 2026 », « Févr 2026 »: the name or its first letters, accents and case
/// aside), or from the first day of the month (`AAAA-MM-01`, `01/MM/AAAA`:
/// what a spreadsheet makes of a month it took for a date); any other text
/// as it is (the API's rule judges it).
fn iso_month(text: &str) -> String {
    let text = text.trim();
    let digits = |part: &str| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit());
    let month =
        |m: &str| digits(m) && m.len() <= 2 && (1..=12).contains(&m.parse::<u32>().unwrap_or(0));
    let year = |y: &str| digits(y) && y.len() == 4;
    match text.split('/').collect::<Vec<_>>().as_slice() {
        [m, y] if month(m) && year(y) => return format!("{y}-{m:0>2}"),
        [d, m, y] if digits(d) && d.parse::<u32>() == Ok(1) && month(m) && year(y) => {
            return format!("{y}-{m:0>2}");
        }
        _ => {}
    }
    if let [y, m, d] = text.split('-').collect::<Vec<_>>().as_slice()
        && year(y)
        && m.len() == 2
        && month(m)
        && d.len() == 2
        && *d == "01"
    {
        return format!("{y}-{m}");
    }
    let words: Vec<String> = fold(text)
        .split(|c: char| c.is_whitespace() || c == '.' || c == '-')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect();
    if let [name, y] = words.as_slice()
        && year(y)
        && name.chars().count() >= 3
        && name.chars().all(char::is_alphabetic)
    {
        let named: Vec<usize> = MONTH_NAMES
            .iter()
            .enumerate()
            .filter(|(_, full)| fold(full).starts_with(name.as_str()))
            .map(|(i, _)| i)
            .collect();
        if let [i] = named.as_slice() {
            return format!("{y}-{:02}", i + 1);
        }
    }
    text.to_owned()
}

/// A cell of a contracts file into the contract's body (`field` is its
/// `ContractBody` name, `name` the field's French name): numbers with a
/// decimal comma, amounts with `€`, rates with `%`, `oui`/`non`, days
/// `JJ/MM/AAAA`, codes by their French names. A number or a yes/no the
/// cell does not hold is refused here (the reason); every other value goes
/// to the API's rules as written.
fn contract_value(
    input: &mut ContractInput,
    field: &str,
    name: &str,
    text: &str,
) -> Result<(), String> {
    let refuse =
        |expected: &str| format!("Le champ « {name} » doit être {expected} (reçu : « {text} »).");
    let number = |text: &str, expected: &str| -> Result<f64, String> {
        parse_number(text)
            .and_then(|n| n.as_f64())
            .ok_or_else(|| refuse(expected))
    };
    let whole = |unit: &str| -> Result<Option<i64>, String> {
        let expected = format!("un nombre entier de {unit}");
        parse_number(text)
            .and_then(|n| n.as_i64())
            .map(Some)
            .ok_or_else(|| refuse(&expected))
    };
    let yes_no = || -> Result<Option<bool>, String> {
        parse_bool(text)
            .map(Some)
            .ok_or_else(|| refuse("oui ou non"))
    };
    let amount = || {
        let bare: String = text
            .replace('€', "")
            .trim()
            .trim_end_matches("euros")
            .trim_end_matches("EUR")
            .to_owned();
        number(&bare, "un montant en euros, par exemple 1 250,50")
    };
    let code =
        |found: Option<&'static str>| Some(found.map_or_else(|| text.to_owned(), str::to_owned));
    match field {
        "type" => {
            input.contract_type =
                wire_code::<ContractType>(text).map_or_else(|| text.to_owned(), str::to_owned);
        }
        "startOn" => input.start_on = iso_day(text),
        "durationMonths" => input.duration_months = whole("mois")?,
        "renewalMonths" => input.renewal_months = whole("mois")?,
        "noticeMonths" => input.notice_months = whole("mois")?,
        "visitIntervalDays" => input.visit_interval_days = whole("jours")?,
        "arrivalMinutes" => input.arrival_minutes = whole("minutes")?,
        "arrivalOutOfHoursMinutes" => input.arrival_out_of_hours_minutes = whole("minutes")?,
        "trappedPersonMinutes" => input.trapped_person_minutes = whole("minutes")?,
        "returnToServiceMinutes" => input.return_to_service_minutes = whole("minutes")?,
        "tacitRenewal" => input.tacit_renewal = yes_no()?,
        "weekendCoverage" => input.weekend_coverage = yes_no()?,
        "onCallCoverage" => input.on_call_coverage = yes_no()?,
        "priceBasis" => input.price_basis = code(wire_code::<PriceBasis>(text)),
        "billingFrequency" => input.billing_frequency = code(wire_code::<BillingFrequency>(text)),
        "billingTiming" => input.billing_timing = code(wire_code::<BillingTiming>(text)),
        "annualPrice" => input.annual_price = amount()?,
        "penaltyPerLateHour" => input.penalty_per_late_hour = Some(amount()?),
        "vatRate" => {
            input.vat_rate = Some(number(
                text.trim().trim_end_matches('%'),
                "un taux en pour cent, par exemple 20 ou 5,5",
            )?);
        }
        "priceIndex" => input.price_index = Some(text.to_owned()),
        "baseIndexValue" => {
            input.base_index_value = Some(number(text, "un nombre, par exemple 128,5")?);
        }
        "baseIndexMonth" => input.base_index_month = Some(iso_month(text)),
        "notes" => input.notes = Some(text.to_owned()),
        _ => {}
    }
    Ok(())
}

/// The items of a list written in one cell (`;`, `,` or line breaks).
fn split_list(text: &str) -> Vec<String> {
    text.split([';', ',', '\n'])
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A number as written in a French spreadsheet: `1,6`, `1.6`, `1 250`.
fn parse_number(text: &str) -> Option<Value> {
    let compact: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '\u{202f}')
        .map(|c| if c == ',' { '.' } else { c })
        .collect();
    let number: f64 = compact.parse().ok()?;
    if !number.is_finite() {
        return None;
    }
    if number.fract() == 0.0 && number.abs() < 9.0e15 {
        return Some(json!(number as i64));
    }
    serde_json::Number::from_f64(number).map(Value::Number)
}

/// `oui`/`non`, `vrai`/`faux`, `x`, `1`/`0`…
fn parse_bool(text: &str) -> Option<bool> {
    match fold(text.trim()).as_str() {
        "oui" | "o" | "vrai" | "true" | "yes" | "x" | "1" => Some(true),
        "non" | "n" | "faux" | "false" | "no" | "0" => Some(false),
        _ => None,
    }
}

/// A cell as the catalogue's rules expect the datum: a number or a yes/no
/// as a spreadsheet writes it, a choice (or each item of a list) as the
/// catalogue spells it, accents and case aside. A choice none of the
/// catalogue's is the error (the wrong value, for the reason); anything else
/// the rules judge.
fn cell_value(datum: &CatalogField, text: &str) -> Result<Value, String> {
    let choices: Vec<&str> = datum.choices.iter().map(String::as_str).collect();
    let choice = |item: &str| {
        let found = canonical(item, &choices);
        if choices.contains(&found.as_str()) {
            Ok(Value::String(found))
        } else {
            Err(item.trim().to_owned())
        }
    };
    Ok(match datum.value_type {
        ValueType::Number | ValueType::Integer => {
            parse_number(text).unwrap_or_else(|| Value::String(text.to_owned()))
        }
        ValueType::Boolean => {
            parse_bool(text).map_or_else(|| Value::String(text.to_owned()), Value::Bool)
        }
        ValueType::Choice => choice(text)?,
        ValueType::Multi => Value::Array(
            split_list(text)
                .iter()
                .map(|item| choice(item))
                .collect::<Result<_, _>>()?,
        ),
        ValueType::Text => Value::String(text.to_owned()),
    })
}

/// An equipment number as the agency's numbers are compared (the
/// `number_key` column: spaces and tabs removed, ASCII lower-cased).
fn number_key(number: &str) -> String {
    number
        .chars()
        .filter(|c| *c != ' ' && *c != '\t')
        .collect::<String>()
        .to_ascii_lowercase()
}

/// An address as compared to find a building: accents, case and
/// punctuation ignored.
fn place_key(address: &str, postal_code: Option<&str>, city: Option<&str>) -> String {
    let plain = |text: &str| {
        fold(text)
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { ' ' })
            .collect::<String>()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "{}|{}|{}",
        plain(address),
        plain(postal_code.unwrap_or_default()),
        plain(city.unwrap_or_default())
    )
}

// -- What the agency has -------------------------------------------------------------

/// The agency's buildings by address.
struct BuildingDirectory {
    by_place: HashMap<String, BuildingRow>,
    /// The address each building is found at.
    place_of: HashMap<BuildingId, String>,
}

impl BuildingDirectory {
    fn load(conn: &Conn, agency_id: &AgencyId) -> AppResult<Self> {
        let mut directory = Self {
            by_place: HashMap::new(),
            place_of: HashMap::new(),
        };
        for building in equipment_store::buildings_of_agency(conn, agency_id)? {
            let key = place_key(
                &building.address,
                building.postal_code.as_deref(),
                building.city.as_deref(),
            );
            // The oldest building at an address is the one found.
            if !directory.by_place.contains_key(&key) {
                directory.place_of.insert(building.id.clone(), key.clone());
                directory.by_place.insert(key, building);
            }
        }
        Ok(directory)
    }

    fn find(&self, key: &str) -> Option<&BuildingRow> {
        self.by_place.get(key)
    }

    /// A building created or changed: found at its (new) address from now.
    fn add(&mut self, building: BuildingRow) {
        let key = place_key(
            &building.address,
            building.postal_code.as_deref(),
            building.city.as_deref(),
        );
        if let Some(old) = self.place_of.remove(&building.id) {
            self.by_place.remove(&old);
        }
        self.place_of.insert(building.id.clone(), key.clone());
        self.by_place.insert(key, building);
    }
}

/// The agency's clients, found by `client_id`, SIRET, SIREN or name.
struct ClientDirectory {
    by_id: HashMap<ClientId, ClientRow>,
    /// Client ids, oldest first, under each key.
    by_ref: HashMap<String, ClientId>,
    by_siret: HashMap<String, Vec<ClientId>>,
    by_siren: HashMap<String, Vec<ClientId>>,
    by_name: HashMap<String, Vec<ClientId>>,
}

impl ClientDirectory {
    fn load(conn: &Conn, agency_id: &AgencyId) -> AppResult<Self> {
        let mut directory = Self {
            by_id: HashMap::new(),
            by_ref: HashMap::new(),
            by_siret: HashMap::new(),
            by_siren: HashMap::new(),
            by_name: HashMap::new(),
        };
        for client in client_store::all(conn, agency_id)? {
            directory.put(client);
        }
        Ok(directory)
    }

    /// Adds or replaces a client (its keys follow its new values).
    fn put(&mut self, client: ClientRow) {
        if let Some(old) = self.by_id.remove(&client.id) {
            self.by_ref.remove(&old.client_ref);
            for (map, key) in [
                (&mut self.by_siret, old.siret.clone()),
                (&mut self.by_siren, old.siren.clone()),
                (&mut self.by_name, Some(fold(&old.nom))),
            ] {
                if let Some(key) = key
                    && let Some(ids) = map.get_mut(&key)
                {
                    ids.retain(|id| *id != old.id);
                }
            }
        }
        self.by_ref
            .insert(client.client_ref.clone(), client.id.clone());
        for (map, key) in [
            (&mut self.by_siret, client.siret.clone()),
            (&mut self.by_siren, client.siren.clone()),
            (&mut self.by_name, Some(fold(&client.nom))),
        ] {
            if let Some(key) = key {
                map.entry(key).or_default().push(client.id.clone());
            }
        }
        self.by_id.insert(client.id.clone(), client);
    }

    fn rows<'a>(&'a self, ids: Option<&'a Vec<ClientId>>) -> impl Iterator<Item = &'a ClientRow> {
        ids.into_iter()
            .flatten()
            .filter_map(|id| self.by_id.get(id))
    }

    /// The client a cell names: its `client_id`, else its name (accents and
    /// case ignored; it must be the only one with that name).
    fn resolve(&self, text: &str) -> Result<&ClientRow, String> {
        if let Some(client) = self.by_ref.get(text).and_then(|id| self.by_id.get(id)) {
            return Ok(client);
        }
        let named: Vec<&ClientRow> = self.rows(self.by_name.get(&fold(text))).collect();
        match named.as_slice() {
            [one] => Ok(one),
            [] => Err(format!(
                "aucun client de l'agence n'a l'identifiant ou le nom « {text} » : importez d'abord les clients."
            )),
            _ => Err(format!(
                "plusieurs clients de l'agence s'appellent « {text} » : indiquez plutôt son identifiant (CLI-…)."
            )),
        }
    }

    /// The client a row of a clients file designates: by `client_id`, else
    /// by SIRET, else by SIREN (when the row has no SIRET), else by name; a
    /// client whose SIRET or SIREN differs from the row's is never taken by
    /// SIREN or name. Several clients with the row's SIREN: refused.
    fn find_client(
        &self,
        client_ref: Option<&str>,
        siret: Option<&str>,
        siren: Option<&str>,
        nom: Option<&str>,
    ) -> Result<Option<ClientRow>, RowError> {
        if let Some(found) = client_ref
            .and_then(|r| self.by_ref.get(r))
            .and_then(|id| self.by_id.get(id))
        {
            return Ok(Some(found.clone()));
        }
        let compatible = |c: &&ClientRow| {
            let differs = |mine: Option<&str>, theirs: Option<&String>| matches!((mine, theirs), (Some(a), Some(b)) if a != b);
            !differs(siret, c.siret.as_ref()) && !differs(siren, c.siren.as_ref())
        };
        if let Some(siret) = siret
            && let Some(found) = self.rows(self.by_siret.get(siret)).next()
        {
            return Ok(Some(found.clone()));
        }
        if siret.is_none()
            && let Some(siren) = siren
        {
            let same: Vec<&ClientRow> = self
                .rows(self.by_siren.get(siren))
                .filter(compatible)
                .collect();
            match same.as_slice() {
                [] => {}
                [one] => return Ok(Some((*one).clone())),
                _ => {
                    return refuse(format!(
                        "Plusieurs clients de l'agence ont le SIREN « {siren} » : ajoutez une colonne d'identifiant du client ou de SIRET pour désigner le bon."
                    ));
                }
            }
        }
        if let Some(nom) = nom
            && let Some(found) = self.rows(self.by_name.get(&fold(nom))).find(compatible)
        {
            return Ok(Some(found.clone()));
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_read_as_people_write_them() {
        assert_eq!(parse_number("1,6"), Some(json!(1.6)));
        assert_eq!(parse_number(" 1 250 "), Some(json!(1250)));
        assert_eq!(parse_number("630"), Some(json!(630)));
        assert_eq!(parse_number("six"), None);
        assert_eq!(parse_bool("Oui"), Some(true));
        assert_eq!(parse_bool("FAUX"), Some(false));
        assert_eq!(parse_bool("peut-être"), None);
        assert_eq!(
            canonical(" électrique ", &["Electrique", "Hydraulique"]),
            "Electrique"
        );
        assert_eq!(canonical("Diesel", &["Electrique"]), "Diesel");
        for (text, code) in [
            ("Monte-charge", "monte_charge"),
            ("monte_charge", "monte_charge"),
            ("élévateur", "elevateur"),
            ("Porte ou fermeture automatique", "porte_fermeture"),
        ] {
            assert_eq!(
                identity_text(IdentityField::Type, text),
                Ok(code.to_owned()),
                "{text}"
            );
        }
        assert_eq!(
            identity_text(IdentityField::Type, "Fusée"),
            Err(vec![
                "Ascenseur",
                "Monte-charge",
                "Monte-voiture",
                "Élévateur",
                "Porte ou fermeture automatique"
            ])
        );
        assert_eq!(
            identity_text(IdentityField::MaintenanceContract, "Hors parc"),
            Ok("hors_parc".to_owned())
        );
        assert_eq!(
            identity_text(IdentityField::MaintenanceContract, "Sous contrat"),
            Err(vec!["Parc", "Hors parc"])
        );
        assert_eq!(
            identity_text(IdentityField::Location, "Aile B"),
            Ok("Aile B".to_owned())
        );
        let drive = CatalogField {
            code: "type_entrainement".into(),
            label: "Type d'entraînement".into(),
            unit: None,
            component: None,
            value_type: ValueType::Multi,
            choices: vec!["Electrique".into(), "Hydraulique".into()],
            synonyms: String::new(),
            v1_table: String::new(),
            v1_field: String::new(),
            partner_key: None,
            applies_to: None,
            position: 0,
        };
        assert_eq!(
            cell_value(&drive, "électrique; HYDRAULIQUE"),
            Ok(json!(["Electrique", "Hydraulique"]))
        );
        assert_eq!(
            cell_value(&drive, "Electrique; Vapeur"),
            Err("Vapeur".to_owned())
        );
        assert_eq!(split_list("A; B,\nC"), ["A", "B", "C"]);
        assert_eq!(iso_day("01/03/2027"), "2027-03-01");
        assert_eq!(iso_day(" 1/3/2027 "), "2027-03-01");
        assert_eq!(iso_day("2027-03-01"), "2027-03-01");
        assert_eq!(iso_day("1/3/27"), "1/3/27");
        assert_eq!(iso_month("12/2026"), "2026-12");
        assert_eq!(iso_month("2026-12"), "2026-12");
        for (text, month) in [
            ("1/2027", "2027-01"),
            ("janvier 2026", "2026-01"),
            ("Janv. 2026", "2026-01"),
            ("févr. 2026", "2026-02"),
            ("FEVRIER 2026", "2026-02"),
            ("mars 2026", "2026-03"),
            ("avr. 2026", "2026-04"),
            ("mai 2026", "2026-05"),
            ("juin 2026", "2026-06"),
            ("juil. 2026", "2026-07"),
            ("août 2026", "2026-08"),
            ("aout 2026", "2026-08"),
            ("sept. 2026", "2026-09"),
            ("oct 2026", "2026-10"),
            ("nov.\u{a0}2026", "2026-11"),
            ("déc. 2026", "2026-12"),
            ("décembre-2026", "2026-12"),
            ("2026-03-01", "2026-03"),
            ("01/03/2026", "2026-03"),
        ] {
            assert_eq!(iso_month(text), month, "{text}");
        }
        // Not a month this reading knows: the API's rule judges it as written.
        for text in [
            "13/2026",
            "2026-13",
            "ju 2026",
            "jui 2026",
            "janvier 26",
            "T1 2026",
            "2026-03-15",
            "15/03/2026",
            "brumaire 2026",
        ] {
            assert_eq!(iso_month(text), text, "{text}");
        }
        assert_eq!(
            place_key("3, rue de l'Église", Some("69003"), Some("LYON")),
            place_key("3 rue de l eglise", Some(" 69003"), Some("Lyon"))
        );
    }

    #[test]
    fn contract_cells_are_read_as_french_spreadsheets_write_them() {
        for (text, code) in [
            ("Étendu", Some("etendu")),
            ("etendu", Some("etendu")),
            ("COMPLET", Some("complet")),
            ("Super", None),
        ] {
            assert_eq!(wire_code::<ContractType>(text), code, "{text}");
        }
        for (text, code) in [
            ("Terme à échoir", Some("terme_a_echoir")),
            ("À échoir", Some("terme_a_echoir")),
            ("échu", Some("terme_echu")),
            ("terme_echu", Some("terme_echu")),
        ] {
            assert_eq!(wire_code::<BillingTiming>(text), code, "{text}");
        }
        assert_eq!(
            wire_code::<PriceBasis>("Par appareil"),
            Some("par_appareil")
        );
        let mut input = ContractInput::default();
        for (field, text) in [
            ("type", "Normal"),
            ("startOn", "15/01/2027"),
            ("durationMonths", "24"),
            ("tacitRenewal", "non"),
            ("annualPrice", "1 250,50 €"),
            ("vatRate", "5,5 %"),
            ("billingFrequency", "Annuelle"),
            ("baseIndexValue", "128,5"),
            ("baseIndexMonth", "12/2026"),
            ("priceBasis", "au forfait"),
        ] {
            assert_eq!(contract_value(&mut input, field, "Champ", text), Ok(()));
        }
        assert_eq!(input.contract_type, "normal");
        assert_eq!(input.start_on, "2027-01-15");
        assert_eq!(input.duration_months, Some(24));
        assert_eq!(input.tacit_renewal, Some(false));
        assert_eq!(input.annual_price, 1250.5);
        assert_eq!(input.vat_rate, Some(5.5));
        assert_eq!(input.billing_frequency.as_deref(), Some("annuelle"));
        assert_eq!(input.base_index_value, Some(128.5));
        assert_eq!(input.base_index_month.as_deref(), Some("2026-12"));
        // Not a code: the API's rule names the codes.
        assert_eq!(input.price_basis.as_deref(), Some("au forfait"));
        assert_eq!(
            contract_value(&mut input, "durationMonths", "Durée", "12,5"),
            Err(
                "Le champ « Durée » doit être un nombre entier de mois (reçu : « 12,5 »)."
                    .to_owned()
            )
        );
        assert_eq!(
            contract_value(
                &mut input,
                "weekendCoverage",
                "Week-ends couverts",
                "parfois"
            ),
            Err(
                "Le champ « Week-ends couverts » doit être oui ou non (reçu : « parfois »)."
                    .to_owned()
            )
        );
        assert_eq!(
            contract_value(&mut input, "annualPrice", "Prix annuel HT", "gratuit"),
            Err("Le champ « Prix annuel HT » doit être un montant en euros, par exemple 1 250,50 (reçu : « gratuit »).".to_owned())
        );
    }
}
