//! Clients of the partner workflow API (`/update_client`, `/get_client`):
//! validation with French messages (SIREN and SIRET with their Luhn keys,
//! statut and categories from their lists, a `nom` per contact), the write
//! in the caller's transaction with its audit entry.

use crate::domain::id::{AgencyId, ClientId, ContactId};
use serde_json::{Value, json};

use crate::domain::address;
use crate::domain::client::{BillingCategory, ClientStatus};
use crate::domain::einvoice;
use crate::domain::identity;
use crate::domain::siren;
use crate::error::{AppError, AppResult};
use crate::principal::Principal;
use crate::principal::{self, Capability};
use crate::services::search::search_term;
use crate::services::workflow::{check_allowed, not_allowed, required_text};
use crate::store::Conn;
use crate::store::Store;
use crate::store::Tx;
use crate::store::accounts::AccountRow;
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::clients::{self as store, ClientRow};
use crate::store::contacts::{self as contact_store, ContactRow};
use crate::text::fold;

pub const CATEGORIES: [&str; 2] = ["Propriétaire/exploitant", "Gestionnaire"];
const MAX_TEXT_CHARS: usize = 500;

/// A text that may be left as it is (`None`), erased (`Some(None)`: null or
/// blank) or set.
pub type Edit = Option<Option<String>>;

#[derive(Debug, Clone, Default)]
pub struct ContactInput {
    pub nom: Option<String>,
    pub email: Option<String>,
    pub telephone: Option<String>,
    pub fonction: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct ClientInput {
    pub client_id: Option<String>,
    pub nom: Option<String>,
    pub statut: Option<String>,
    pub types: Option<Vec<String>>,
    pub email: Edit,
    pub telephone: Edit,
    /// The street line; a one-line address given without `code_postal`
    /// and `ville` is split into them when it can be
    /// (`domain::address::split_line`).
    pub adresse: Edit,
    pub complement_adresse: Edit,
    /// Five digits.
    pub code_postal: Edit,
    pub ville: Edit,
    pub siren: Edit,
    pub siret: Edit,
    pub supprime: Option<bool>,
    pub contacts: Option<Vec<ContactInput>>,
    /// Set on the client's screen only (not a partner API field).
    pub billing_category: Option<Option<BillingCategory>>,
    /// The e-invoicing data, set on the client's screen only: the VAT
    /// number, the electronic invoicing address (the SIREN's default when
    /// blank) and a public body's Chorus Pro service code.
    pub vat_number: Edit,
    pub electronic_address: Edit,
    pub service_code: Edit,
}

/// The client status `text` names (`statut`), or the French refusal
/// listing the values.
fn status(text: &str) -> AppResult<ClientStatus> {
    ClientStatus::parse(text).ok_or_else(|| not_allowed("statut", text, ClientStatus::CODES))
}

fn non_blank(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

fn check_length(field: &str, value: &str) -> AppResult<()> {
    if value.chars().count() > MAX_TEXT_CHARS {
        return Err(AppError::unprocessable(format!(
            "Le champ « {field} » dépasse {MAX_TEXT_CHARS} caractères."
        )));
    }
    Ok(())
}

fn check_email(field: &str, value: &str) -> AppResult<()> {
    if !crate::services::accounts::is_email(value) {
        return Err(AppError::unprocessable(format!(
            "Le champ « {field} » n'est pas une adresse e-mail valide."
        )));
    }
    Ok(())
}

/// Applies an edit of an optional text (kept, erased when null or blank,
/// else bounded and validated by `check`): a client's fields and a contact's.
pub fn edit(
    field: &str,
    change: Edit,
    current: Option<String>,
    check: impl Fn(&str) -> AppResult<()>,
) -> AppResult<Option<String>> {
    match change {
        None => Ok(current),
        Some(value) => match non_blank(value) {
            None => Ok(None),
            Some(text) => {
                check_length(field, &text)?;
                check(&text)?;
                Ok(Some(text))
            }
        },
    }
}

fn no_check(_: &str) -> AppResult<()> {
    Ok(())
}

/// The e-invoicing fields as sent (each an [`Edit`]).
struct EInvoicingInput {
    vat_number: Edit,
    electronic_address: Edit,
    service_code: Edit,
}

/// The client's VAT number (spaces removed, its SIREN's), electronic
/// invoicing address (checked as the French directory writes it, beginning
/// with its SIREN) and Chorus Pro service code, after the edits.
fn einvoicing_data(
    input: &EInvoicingInput,
    before: &ClientRow,
    siren: Option<&str>,
) -> AppResult<(Option<String>, Option<String>, Option<String>)> {
    let vat_number = edit(
        "numero_tva",
        input
            .vat_number
            .clone()
            .map(|v| v.map(|t| siren::remove_spaces(&t).to_uppercase())),
        before.vat_number.clone(),
        |text| {
            identity::check_vat_number(text, None)
                .map_err(|e| AppError::unprocessable(format!("Numéro de TVA du client : {e}")))?;
            match siren {
                Some(siren) if !text.ends_with(siren) => Err(AppError::unprocessable(format!(
                    "Le numéro de TVA {text} n'est pas celui du SIREN du client ({siren})."
                ))),
                _ => Ok(()),
            }
        },
    )?;
    let electronic_address = edit(
        "adresse_facturation_electronique",
        input.electronic_address.clone(),
        before.electronic_address.clone(),
        |text| {
            einvoice::check_address(text, siren)
                .map(|_| ())
                .map_err(AppError::unprocessable)
        },
    )?;
    let service_code = edit(
        "code_service",
        input.service_code.clone(),
        before.service_code.clone(),
        |text| {
            einvoice::check_service_code(text)
                .map(|_| ())
                .map_err(AppError::unprocessable)
        },
    )?;
    Ok((vat_number, electronic_address, service_code))
}

fn id_error(field: &str, err: siren::IdError) -> AppError {
    AppError::field(field, err)
}

/// The address fields of a client change as received.
struct AddressInput {
    street: Edit,
    postal_code: Edit,
    city: Edit,
}

/// A client's street line, postal code and city after a change: each
/// field given replaces the stored one (blank or null erases it). A street
/// line given without postal code and city is the whole address (the
/// partner API's `adresse`, an import without those columns): split into
/// its parts when it reads as one (« 12 rue de la Paix, 75002 Paris »),
/// else kept whole as the street line, with no postal code nor city. The
/// postal code is five digits.
fn postal_address(
    input: &AddressInput,
    before: &ClientRow,
) -> AppResult<(Option<String>, Option<String>, Option<String>)> {
    let street = edit(
        "adresse",
        input.street.clone(),
        before.adresse.clone(),
        no_check,
    )?;
    let parts_given = input.postal_code.is_some() || input.city.is_some();
    if input.street.is_some() && !parts_given {
        return Ok(match street.as_deref().and_then(address::split_line) {
            Some(split) => (
                Some(split.street),
                Some(split.postal_code),
                Some(split.city),
            ),
            None => (street, None, None),
        });
    }
    let code_postal = edit(
        "code_postal",
        input.postal_code.clone(),
        before.code_postal.clone(),
        no_check,
    )?
    .map(|code| address::check_postal_code("Code postal", &code))
    .transpose()
    .map_err(AppError::unprocessable)?;
    let ville = edit("ville", input.city.clone(), before.ville.clone(), no_check)?;
    Ok((street, code_postal, ville))
}

/// How the client's invoices travel (e-invoicing, Chorus Pro or
/// e-reporting) and the electronic address they go to: the one recorded,
/// else the directory's default for its SIREN (none without one).
pub fn einvoicing_of(client: &ClientRow) -> (einvoice::Treatment, Option<String>) {
    let treatment = einvoice::Treatment::of(client.billing_category, client.siren.as_deref());
    let address = client.electronic_address.clone().or_else(|| {
        einvoice::default_address(
            client.billing_category,
            client.siren.as_deref(),
            client.siret.as_deref(),
            client.service_code.as_deref(),
        )
    });
    (treatment, address)
}

/// The client's address on one line (street, complement, postal code and
/// city), as the partner API reads it and invoices print it.
pub fn one_line_address(client: &ClientRow) -> Option<String> {
    address::one_line(
        client.adresse.as_deref(),
        client.complement_adresse.as_deref(),
        client.code_postal.as_deref(),
        client.ville.as_deref(),
    )
}

/// The partner API's `adresse`: the street line, postal code and city on
/// one line (« 12 rue de la Paix, 75002 Paris »), the complement being
/// `complement_adresse`.
pub fn partner_address(client: &ClientRow) -> Option<String> {
    address::one_line(
        client.adresse.as_deref(),
        None,
        client.code_postal.as_deref(),
        client.ville.as_deref(),
    )
}

/// `/update_client`: finds the client of the agency by `client_id`, else by
/// `nom` (accents and case ignored); creates it when there is none. Returns
/// the client's internal id.
pub fn update_client(
    tx: &Tx,
    agency_id: &AgencyId,
    input: ClientInput,
    actor: &Actor,
) -> AppResult<ClientId> {
    let input_address = AddressInput {
        street: input.adresse.clone(),
        postal_code: input.code_postal.clone(),
        city: input.ville.clone(),
    };
    let input_einvoicing = EInvoicingInput {
        vat_number: input.vat_number.clone(),
        electronic_address: input.electronic_address.clone(),
        service_code: input.service_code.clone(),
    };
    let client_ref = non_blank(input.client_id);
    let nom = non_blank(input.nom);
    if client_ref.is_none() && nom.is_none() {
        return Err(AppError::unprocessable(
            "Le champ « client_id » ou le champ « nom » est obligatoire.",
        ));
    }
    if let Some(nom) = &nom {
        check_length("nom", nom)?;
    }
    let existing = match &client_ref {
        Some(reference) => store::find_by_ref(tx, agency_id, reference)?,
        None => {
            let wanted = fold(nom.as_deref().unwrap_or_default());
            store::all(tx, agency_id)?
                .into_iter()
                .find(|c| fold(&c.nom) == wanted)
        }
    };
    let is_new = existing.is_none();
    // A new client named by nothing but its name takes the next `CLI-…`.
    let new_ref = match (&existing, &client_ref) {
        (None, None) => Some(store::next_reference(tx, agency_id)?),
        _ => None,
    };
    let before = existing.clone().unwrap_or_else(|| ClientRow {
        id: ClientId::new(crate::store::new_id()),
        client_ref: client_ref.clone().or(new_ref).unwrap_or_default(),
        nom: String::new(),
        statut: ClientStatus::default(),
        types: "[]".to_owned(),
        email: None,
        telephone: None,
        adresse: None,
        complement_adresse: None,
        code_postal: None,
        ville: None,
        siren: None,
        siret: None,
        supprime: false,
        billing_category: None,
        vat_number: None,
        electronic_address: None,
        service_code: None,
    });
    if is_new && nom.is_none() {
        return Err(AppError::unprocessable(
            "Aucun client ne porte ce « client_id » dans cette agence : le champ « nom » est obligatoire pour le créer.",
        ));
    }
    let statut = match non_blank(input.statut) {
        None => before.statut,
        Some(statut) => status(&statut)?,
    };
    let types = match input.types {
        None => before.types.clone(),
        Some(types) => {
            let mut kept: Vec<String> = Vec::new();
            for category in types {
                check_allowed("type", &category, &CATEGORIES)?;
                if !kept.contains(&category) {
                    kept.push(category);
                }
            }
            json!(kept).to_string()
        }
    };
    let siren_value = edit("siren", input.siren, before.siren.clone(), |text| {
        siren::validate_siren(text).map_err(|e| id_error("siren", e))
    })?;
    let siret_value = edit("siret", input.siret, before.siret.clone(), |text| {
        siren::validate_siret(text).map_err(|e| id_error("siret", e))
    })?;
    if let (Some(siren_text), Some(siret_text)) = (&siren_value, &siret_value)
        && !siren::siret_matches_siren(siret_text, siren_text)
    {
        return Err(AppError::unprocessable(
            "Le champ « siret » doit commencer par le SIREN du client (champ « siren »).",
        ));
    }
    let (street, code_postal, ville) = postal_address(&input_address, &before)?;
    let (vat_number, electronic_address, service_code) =
        einvoicing_data(&input_einvoicing, &before, siren_value.as_deref())?;
    let after = ClientRow {
        nom: nom.unwrap_or_else(|| before.nom.clone()),
        statut,
        types,
        email: edit("email", input.email, before.email.clone(), |t| {
            check_email("email", t)
        })?,
        telephone: edit(
            "telephone",
            input.telephone,
            before.telephone.clone(),
            no_check,
        )?,
        adresse: street,
        code_postal,
        ville,
        complement_adresse: edit(
            "complement_adresse",
            input.complement_adresse,
            before.complement_adresse.clone(),
            no_check,
        )?,
        siren: siren_value,
        siret: siret_value,
        supprime: input.supprime.unwrap_or(before.supprime),
        billing_category: input.billing_category.unwrap_or(before.billing_category),
        vat_number,
        electronic_address,
        service_code,
        ..before.clone()
    };
    // Contacts: matched by name (accents and case ignored), updated or added;
    // contacts not listed are kept.
    let mut contact_changes = Vec::new();
    if let Some(contacts) = input.contacts {
        let mut current = if is_new {
            Vec::new()
        } else {
            contact_store::for_client(tx, &after.id)?
        };
        let mut planned: Vec<(bool, ContactRow)> = Vec::new();
        for (index, contact) in contacts.into_iter().enumerate() {
            let field = |name: &str| format!("contact[{index}].{name}");
            let nom = required_text(&field("nom"), contact.nom.as_deref().unwrap_or_default())?;
            check_length(&field("nom"), &nom)?;
            let email = non_blank(contact.email);
            if let Some(email) = &email {
                check_email(&field("email"), email)?;
            }
            let telephone = non_blank(contact.telephone);
            let fonction = non_blank(contact.fonction);
            for (name, value) in [("telephone", &telephone), ("fonction", &fonction)] {
                if let Some(value) = value {
                    check_length(&field(name), value)?;
                }
            }
            let wanted = fold(&nom);
            match current.iter_mut().find(|c| fold(&c.nom) == wanted) {
                Some(row) => {
                    let updated = ContactRow {
                        nom,
                        email: email.or(row.email.clone()),
                        telephone: telephone.or(row.telephone.clone()),
                        fonction: fonction.or(row.fonction.clone()),
                        id: row.id.clone(),
                    };
                    if updated != *row {
                        *row = updated.clone();
                        planned.push((false, updated));
                    }
                }
                None => {
                    let row = ContactRow {
                        id: ContactId::new(crate::store::new_id()),
                        nom,
                        email,
                        telephone,
                        fonction,
                    };
                    current.push(row.clone());
                    planned.push((true, row));
                }
            }
        }
        contact_changes = planned;
    }
    if is_new {
        store::insert(tx, agency_id, &after)?;
    } else if after != before {
        store::update(tx, &after)?;
    }
    for (is_new_contact, contact) in &contact_changes {
        if *is_new_contact {
            contact_store::insert(tx, &after.id, contact)?;
        } else {
            contact_store::update(tx, contact)?;
        }
    }
    if is_new || after != before || !contact_changes.is_empty() {
        let action = if is_new {
            "client.create"
        } else if after.supprime != before.supprime {
            if after.supprime {
                "client.archive"
            } else {
                "client.restore"
            }
        } else {
            "client.update"
        };
        audit::record(
            tx,
            AuditEntry {
                agency_id: Some(agency_id.as_str()),
                actor,
                action,
                object_type: "client",
                object_id: Some(after.id.as_str()),
                detail: Some(json!({
                    "client_id": after.client_ref,
                    "contacts": contact_changes.len(),
                })),
            },
        )?;
    }
    Ok(after.id)
}

/// Message of a client that is not in the agency (another agency's answers
/// the same: its existence is not disclosed).
pub const NOT_FOUND: &str = "Client introuvable.";

/// A client of the agency, by its partner identifier, with its contacts
/// (oldest first); `None` when the agency has no such client.
pub fn client_with_contacts(
    conn: &Conn,
    agency_id: &AgencyId,
    client_ref: &str,
) -> AppResult<Option<(ClientRow, Vec<ContactRow>)>> {
    let Some(client) = store::find_by_ref(conn, agency_id, client_ref)? else {
        return Ok(None);
    };
    let contacts = contact_store::for_client(conn, &client.id)?;
    Ok(Some((client, contacts)))
}

/// The categories of a client (`types`, a JSON array text), empty when the
/// column does not hold a list of texts.
pub fn categories(client: &ClientRow) -> Vec<String> {
    serde_json::from_str(&client.types).unwrap_or_default()
}

/// Archiving and restoring a client change what the partner workflow API and
/// the imports may change; from the web application they are an
/// administrator's, as importing clients is.
pub fn require_archiver(account: &AccountRow, archived: bool) -> AppResult<()> {
    let what = if archived {
        "Archiver un client"
    } else {
        "Restaurer un client"
    };
    principal::check(account, Capability::Administer(what))
}

/// What the principal may do with a client now, as the screens offer it:
/// `contact` (an active client receives contacts), and for an
/// administrator `archive` (an active client) or `restore` (an archived
/// one).
pub fn actions(p: &Principal, client: &ClientRow) -> Vec<&'static str> {
    let mut actions = Vec::new();
    if !client.supprime && p.can(Capability::Change) {
        actions.push("contact");
    }
    let archiving = !client.supprime;
    if p.account()
        .is_ok_and(|account| require_archiver(account, archiving).is_ok())
    {
        actions.push(if archiving { "archive" } else { "restore" });
    }
    actions
}

/// Archives (`true`) or restores (`false`) a client of the agency: the
/// `supprime` of `/update_client`, through `update_client` itself (same
/// write, same audit `client.archive` / `client.restore`). Unknown in the
/// agency: 404. Already in that state: nothing written, no audit entry.
pub fn set_archived(
    tx: &Tx,
    agency_id: &AgencyId,
    client_ref: &str,
    archived: bool,
    actor: &Actor,
) -> AppResult<()> {
    if store::find_by_ref(tx, agency_id, client_ref)?.is_none() {
        return Err(AppError::not_found(NOT_FOUND));
    }
    let input = ClientInput {
        client_id: Some(client_ref.to_owned()),
        supprime: Some(archived),
        ..ClientInput::default()
    };
    update_client(tx, agency_id, input, actor).map(|_| ())
}

/// One non-blank value of a client's field (its partner API name: `statut`,
/// `type`, `siren`, `email`, `code_postal`…) checked by the rules
/// `update_client` applies; the refusal names the field `shown` (the import
/// names it by its French label, as the file's reader knows it).
pub fn check_client_value(field: &str, shown: &str, value: &str) -> AppResult<()> {
    match field {
        "statut" => ClientStatus::parse(value)
            .map(|_| ())
            .ok_or_else(|| not_allowed(shown, value, ClientStatus::CODES)),
        "type" => check_allowed(shown, value, &CATEGORIES),
        "siren" => {
            check_length(shown, value)?;
            siren::validate_siren(value).map_err(|e| id_error(shown, e))
        }
        "siret" => {
            check_length(shown, value)?;
            siren::validate_siret(value).map_err(|e| id_error(shown, e))
        }
        "email" => {
            check_length(shown, value)?;
            check_email(shown, value)
        }
        "code_postal" => address::check_postal_code("Code postal", value)
            .map(|_| ())
            .map_err(AppError::unprocessable),
        _ => check_length(shown, value),
    }
}

/// One non-blank value of a contact's field (`nom`, `email`, `telephone`,
/// `fonction`) checked by the rules `update_client` applies to a contact;
/// the refusal names the field `shown`.
pub fn check_contact_value(field: &str, shown: &str, value: &str) -> AppResult<()> {
    check_length(shown, value)?;
    match field {
        "email" => check_email(shown, value),
        _ => Ok(()),
    }
}

/// A client record as the workflow API answers it: every field of the
/// spec's client, null when unknown, archived ones with `supprime: true`.
pub fn client_record(conn: &Conn, client: &ClientRow) -> AppResult<Value> {
    let contacts: Vec<Value> = contact_store::for_client(conn, &client.id)?
        .into_iter()
        .map(|c| {
            json!({
                "nom": c.nom,
                "email": c.email,
                "telephone": c.telephone,
                "fonction": c.fonction,
            })
        })
        .collect();
    let types: Value = serde_json::from_str(&client.types).unwrap_or_else(|_| json!([]));
    Ok(json!({
        "client_id": client.client_ref,
        "nom": client.nom,
        "statut": client.statut,
        "type": types,
        "email": client.email,
        "telephone": client.telephone,
        "adresse": partner_address(client),
        "complement_adresse": client.complement_adresse,
        "siren": client.siren,
        "siret": client.siret,
        "supprime": client.supprime,
        "contact": contacts,
    }))
}

/// `/get_client`: by `client_id` (0 or 1 record), else every client whose
/// name contains `nom` (accents and case ignored), archived ones included.
pub fn find_clients(
    conn: &Conn,
    agency_id: &AgencyId,
    client_id: Option<String>,
    nom: Option<String>,
) -> AppResult<Vec<Value>> {
    let rows: Vec<ClientRow> = match (non_blank(client_id), non_blank(nom)) {
        (Some(reference), _) => store::find_by_ref(conn, agency_id, &reference)?
            .into_iter()
            .collect(),
        (None, Some(nom)) => {
            let wanted = fold(&nom);
            store::all(conn, agency_id)?
                .into_iter()
                .filter(|c| fold(&c.nom).contains(&wanted))
                .collect()
        }
        (None, None) => {
            return Err(AppError::unprocessable(
                "Le champ « client_id » ou le champ « nom » est obligatoire.",
            ));
        }
    };
    rows.iter().map(|c| client_record(conn, c)).collect()
}

/// One page of the principal's agency's clients holding every word of
/// `search` (400 beyond [`MAX_SEARCH_CHARS`](crate::services::search::MAX_SEARCH_CHARS)), archived or active only when
/// `archived` says so; and how many match across all pages.
pub async fn search_page(
    store_handle: &Store,
    p: &Principal,
    search: Option<&str>,
    archived: Option<bool>,
    limit: u32,
    offset: u64,
) -> AppResult<(i64, Vec<ClientRow>)> {
    let search = search_term(search)?.unwrap_or_default();
    let words: Vec<String> = search.split_whitespace().map(str::to_owned).collect();
    let agency_id = p.agency_id()?.to_owned();
    Ok(store_handle
        .read(move |conn| store::search(conn, &agency_id, &words, archived, limit, offset))
        .await?)
}

/// A client of the principal's agency with its contacts (404 otherwise).
pub async fn detail(
    store_handle: &Store,
    p: &Principal,
    client_ref: &str,
) -> AppResult<(ClientRow, Vec<ContactRow>)> {
    let (agency_id, client_ref) = (p.agency_id()?.to_owned(), client_ref.to_owned());
    store_handle
        .read(move |conn| client_with_contacts(conn, &agency_id, &client_ref))
        .await?
        .ok_or_else(|| AppError::not_found(NOT_FOUND))
}

/// Archives (`true`) or restores (`false`) a client of the principal's
/// agency (administrators only, see [`require_archiver`]).
pub async fn archive_for(
    store_handle: &Store,
    p: &Principal,
    client_ref: &str,
    archived: bool,
) -> AppResult<()> {
    p.require(Capability::Change)?;
    require_archiver(p.account()?, archived)?;
    let (agency_id, actor) = (p.agency_id()?.to_owned(), p.actor.clone());
    let client_ref = client_ref.to_owned();
    store_handle
        .write(move |tx| set_archived(tx, &agency_id, &client_ref, archived, &actor))
        .await
}

/// `/update_client` in the principal's agency; returns the client's id.
pub async fn update_client_for(
    store_handle: &Store,
    p: &Principal,
    input: ClientInput,
) -> AppResult<ClientId> {
    p.require(Capability::Change)?;
    p.agency_id()?;
    let p = p.clone();
    store_handle
        .write(move |tx| update_client_in(tx, &p, input))
        .await
}

/// [`update_client_for`]'s step in `tx`, at its time.
pub fn update_client_in(tx: &Tx, p: &Principal, input: ClientInput) -> AppResult<ClientId> {
    p.require(Capability::Change)?;
    update_client(tx, p.agency_id()?, input, &p.actor)
}

/// `/get_client` in the principal's agency.
pub async fn find_clients_for(
    store_handle: &Store,
    p: &Principal,
    client_id: Option<String>,
    nom: Option<String>,
) -> AppResult<Vec<Value>> {
    let agency_id = p.agency_id()?.to_owned();
    store_handle
        .read(move |conn| find_clients(conn, &agency_id, client_id, nom))
        .await
}

/// A client as the client's screen creates or changes it by hand: the
/// partner API's fields under the screen's names, and how it is invoiced.
/// Every field is optional in a change (absent: kept; null or blank:
/// erased); a new client needs its `name`.
#[derive(Debug, Clone, Default)]
pub struct ClientForm {
    /// The partner's identifier of a new client (`client_id`); the next
    /// `CLI-000123` of the agency when absent. Not changed afterwards.
    pub reference: Option<String>,
    pub name: Option<String>,
    /// `Prospect` or `Client`.
    pub status: Option<String>,
    /// `Propriétaire/exploitant`, `Gestionnaire`.
    pub categories: Option<Vec<String>>,
    pub email: Edit,
    pub phone: Edit,
    /// The street line.
    pub address: Edit,
    pub address_complement: Edit,
    /// Five digits.
    pub postal_code: Edit,
    pub city: Edit,
    pub siren: Edit,
    pub siret: Edit,
    /// `entreprise`, `copropriete`, `organisme_public`.
    pub billing_category: Edit,
    /// `FR44732829320`: the client's SIREN's.
    pub vat_number: Edit,
    /// The French directory's address (`732829320`, `732829320_FACTURES`).
    pub electronic_address: Edit,
    /// A public body's Chorus Pro service code.
    pub service_code: Edit,
}

/// The invoicing category `code` names, or the French refusal listing them.
pub fn billing_category(code: &str) -> AppResult<BillingCategory> {
    BillingCategory::parse(code).ok_or_else(|| {
        let values: Vec<String> = BillingCategory::CODES
            .iter()
            .filter_map(|c| BillingCategory::parse(c))
            .map(|c| format!("{} ({})", c.as_str(), c.label()))
            .collect();
        AppError::unprocessable(format!(
            "Catégorie de facturation inconnue : « {code} ». Valeurs possibles : {}.",
            values.join(", ")
        ))
    })
}

impl ClientForm {
    /// The form as `/update_client` takes it, for the client `client_ref`.
    fn input(self, client_ref: String) -> AppResult<ClientInput> {
        let billing_category = match self.billing_category {
            None => None,
            Some(value) => Some(
                non_blank(value)
                    .map(|code| billing_category(&code))
                    .transpose()?,
            ),
        };
        Ok(ClientInput {
            client_id: Some(client_ref),
            nom: self.name,
            statut: self.status,
            types: self.categories,
            email: self.email,
            telephone: self.phone,
            adresse: self.address,
            complement_adresse: self.address_complement,
            code_postal: self.postal_code,
            ville: self.city,
            siren: self.siren,
            siret: self.siret,
            supprime: None,
            contacts: None,
            billing_category,
            vat_number: self.vat_number,
            electronic_address: self.electronic_address,
            service_code: self.service_code,
        })
    }
}

/// 409 unless no other client of the agency has that name (accents and case
/// aside): the partner workflow API finds clients by name.
fn check_name_free(
    conn: &Conn,
    agency_id: &AgencyId,
    name: &str,
    except: Option<&ClientId>,
) -> AppResult<()> {
    let wanted = fold(name.trim());
    if let Some(other) = store::all(conn, agency_id)?
        .into_iter()
        .find(|c| Some(&c.id) != except && fold(c.nom.trim()) == wanted)
    {
        return Err(AppError::conflict(format!(
            "Un client de l'agence s'appelle déjà « {} » : choisissez un autre nom ou ouvrez sa fiche.",
            other.nom
        )));
    }
    Ok(())
}

/// A client created by hand in the principal's agency (anyone who changes
/// the agency's records); returns it. Its name and its partner identifier
/// must be free in the agency (409).
pub async fn create_by_hand(
    store_handle: &Store,
    p: &Principal,
    form: ClientForm,
) -> AppResult<ClientRow> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?.to_owned();
    if non_blank(form.name.clone()).is_none() {
        return Err(AppError::unprocessable("Le champ « nom » est obligatoire."));
    }
    let p = p.clone();
    store_handle
        .write(move |tx| {
            let reference = match non_blank(form.reference.clone()) {
                Some(reference) => {
                    check_length("client_id", &reference)?;
                    if store::find_by_ref(tx, &agency_id, &reference)?.is_some() {
                        return Err(AppError::conflict(format!(
                            "L'identifiant client « {reference} » est déjà celui d'un autre client de l'agence."
                        )));
                    }
                    reference
                }
                None => store::next_reference(tx, &agency_id)?,
            };
            check_name_free(tx, &agency_id, form.name.as_deref().unwrap_or_default(), None)?;
            let id = update_client(tx, &agency_id, form.input(reference)?, &p.actor)?;
            store::find(tx, &agency_id, &id)?.ok_or_else(|| AppError::not_found(NOT_FOUND))
        })
        .await
}

/// Changes a client of the principal's agency by hand (404 for another
/// agency's); an archived client is restored first (409). Only the given
/// fields change; a name another client has is refused (409).
pub async fn edit_by_hand(
    store_handle: &Store,
    p: &Principal,
    client_ref: &str,
    form: ClientForm,
) -> AppResult<ClientRow> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?.to_owned();
    let (p, client_ref) = (p.clone(), client_ref.to_owned());
    store_handle
        .write(move |tx| {
            let client = store::find_by_ref(tx, &agency_id, &client_ref)?
                .ok_or_else(|| AppError::not_found(NOT_FOUND))?;
            if client.supprime {
                return Err(AppError::conflict(format!(
                    "Le client « {} » est archivé : restaurez-le avant de le modifier.",
                    client.nom
                )));
            }
            if let Some(name) = &form.name {
                if name.trim().is_empty() {
                    return Err(AppError::unprocessable("Le champ « nom » est obligatoire."));
                }
                check_name_free(tx, &agency_id, name, Some(&client.id))?;
            }
            update_client(tx, &agency_id, form.input(client_ref)?, &p.actor)?;
            store::find(tx, &agency_id, &client.id)?.ok_or_else(|| AppError::not_found(NOT_FOUND))
        })
        .await
}
