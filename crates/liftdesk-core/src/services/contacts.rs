//! Contacts of a client: the ONE definition of what a contact holds
//! (`FIELDS`, read by `GET /api/v2/contacts/creation` to describe the form
//! and by `check_champs` to validate it, so the two cannot drift), the rules
//! of each field type with French reasons naming the field by its label, and
//! the creation in the caller's transaction with its audit entry.
//!
//! Plain functions, usable by any entry point: the REST API v2
//! (`POST /contacts`), the MCP tool `creer_contact`, and the file imports
//! (a row of cells → `check_champs` or `contact_fields` → `add_to_client`).

use crate::domain::id::{AgencyId, ClientId, ContactId};
use serde_json::{Map, Value, json};

use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::services::workflow::check_allowed;
use crate::store::Conn;
use crate::store::Store;
use crate::store::Tx;
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::clients::{self as client_store, ClientRow};
use crate::store::contacts::{self as store, ContactRow};
use crate::text::fold;

/// Singular type of the object created (`type` of the descriptor).
pub const OBJECT_TYPE: &str = "contact";

/// What a contact is attached to (`parentId` at creation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParentSpec {
    /// Name of the parent field, as shown to people.
    pub label: &'static str,
    /// Type of the parent object.
    pub object: &'static str,
}

/// A contact belongs to a client of the agency; without one it is refused.
pub const PARENT: ParentSpec = ParentSpec {
    label: "Client",
    object: "client",
};

/// The types a field of a creation descriptor can have (the spec's list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    /// A JSON string, trimmed; blank is no value.
    Text,
    /// A JSON number.
    Number,
    /// A JSON string, one of the field's `values` exactly (once trimmed).
    Choice,
    /// A JSON array of strings, each one of the field's `values`.
    Multi,
    /// A JSON string that is an e-mail address (`accounts::is_email`).
    Email,
    /// A JSON string, a calendar day `YYYY-MM-DD`.
    Date,
}

impl FieldType {
    pub const ALL: [FieldType; 6] = [
        FieldType::Text,
        FieldType::Number,
        FieldType::Choice,
        FieldType::Multi,
        FieldType::Email,
        FieldType::Date,
    ];

    /// The code on the wire (`type` of a descriptor field).
    pub fn code(self) -> &'static str {
        match self {
            FieldType::Text => "text",
            FieldType::Number => "number",
            FieldType::Choice => "choice",
            FieldType::Multi => "multi",
            FieldType::Email => "email",
            FieldType::Date => "date",
        }
    }

    /// What a value of this type is, in French, for a type refusal.
    fn expected(self) -> &'static str {
        match self {
            FieldType::Text => "un texte",
            FieldType::Number => "un nombre",
            FieldType::Choice => "un texte parmi les valeurs proposées",
            FieldType::Multi => "une liste de textes parmi les valeurs proposées",
            FieldType::Email => "une adresse e-mail (texte)",
            FieldType::Date => "une date AAAA-MM-JJ (texte)",
        }
    }

    /// Whether the field carries a list of allowed values.
    pub fn has_values(self) -> bool {
        matches!(self, FieldType::Choice | FieldType::Multi)
    }
}

/// One fillable field of a creation form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldSpec {
    /// Key in `champs` (the partner workflow API's name of the datum).
    pub id: &'static str,
    /// Name shown to people, and in every refusal about the field.
    pub label: &'static str,
    /// Without it the creation is refused (422).
    pub required: bool,
    pub kind: FieldType,
    /// Allowed values of a `choice` or `multi` field; empty otherwise.
    pub values: &'static [&'static str],
}

/// The roles a contact can have at a client, from the point of view of a
/// lift-maintenance agency: who lets the technician in (`Gardien`,
/// `Référent sur site`), who decides and pays (`Gestionnaire`, `Syndic`,
/// `Conseil syndical`, `Propriétaire`, `Direction`, `Comptabilité`), who
/// follows the work (`Services techniques`), and `Autre`.
///
/// The partner workflow API keeps `fonction` as free text (the partner's
/// software sends its own words, stored as they are): this list constrains
/// creation through this form only, and every value of it is also a valid
/// `fonction` of the partner API.
pub const FONCTIONS: [&str; 10] = [
    "Gardien",
    "Référent sur site",
    "Gestionnaire",
    "Syndic",
    "Conseil syndical",
    "Propriétaire",
    "Direction",
    "Services techniques",
    "Comptabilité",
    "Autre",
];

/// A contact's fillable fields, in the order of the form. The ids are the
/// partner workflow API's contact fields (`nom`, `email`, `telephone`,
/// `fonction`), so a contact reads back the same through `/get_client`.
pub const FIELDS: [FieldSpec; 4] = [
    FieldSpec {
        id: "nom",
        label: "Nom",
        required: true,
        kind: FieldType::Text,
        values: &[],
    },
    FieldSpec {
        id: "email",
        label: "E-mail",
        required: false,
        kind: FieldType::Email,
        values: &[],
    },
    FieldSpec {
        id: "telephone",
        label: "Téléphone",
        required: false,
        kind: FieldType::Text,
        values: &[],
    },
    FieldSpec {
        id: "fonction",
        label: "Fonction",
        required: false,
        kind: FieldType::Choice,
        values: &FONCTIONS,
    },
];

/// Longest text of any field, in characters as sent (the limit of the
/// partner workflow API's client texts).
pub const MAX_TEXT_CHARS: usize = 500;

/// The field of `FIELDS` with that id.
pub fn field(id: &str) -> Option<&'static FieldSpec> {
    FIELDS.iter().find(|f| f.id == id)
}

/// A value that passed its field's rules.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldValue {
    /// `text`, `choice`, `email` (trimmed), `date` (`YYYY-MM-DD`).
    Text(String),
    Number(f64),
    /// `multi`: the chosen values, each once, in the order sent.
    List(Vec<String>),
}

fn type_error(field: &FieldSpec) -> AppError {
    AppError::unprocessable(format!(
        "Le champ « {} » n'a pas le type attendu : {}.",
        field.label,
        field.kind.expected()
    ))
}

/// A JSON string of at most `MAX_TEXT_CHARS` characters, trimmed; `None`
/// when blank.
fn text_of(field: &FieldSpec, value: &Value) -> AppResult<Option<String>> {
    let Value::String(text) = value else {
        return Err(type_error(field));
    };
    if text.chars().count() > MAX_TEXT_CHARS {
        return Err(AppError::unprocessable(format!(
            "Le champ « {} » dépasse {MAX_TEXT_CHARS} caractères.",
            field.label
        )));
    }
    let trimmed = text.trim();
    Ok((!trimmed.is_empty()).then(|| trimmed.to_owned()))
}

/// One value checked against its field's type. `Ok(None)`: no value (null,
/// a blank text, an empty list); whether that is allowed is the caller's
/// (`check_against`) business.
pub fn check_value(field: &FieldSpec, value: &Value) -> AppResult<Option<FieldValue>> {
    if value.is_null() {
        return Ok(None);
    }
    match field.kind {
        FieldType::Text => Ok(text_of(field, value)?.map(FieldValue::Text)),
        FieldType::Number => match value {
            Value::Number(number) => number
                .as_f64()
                .map(|n| Some(FieldValue::Number(n)))
                .ok_or_else(|| type_error(field)),
            _ => Err(type_error(field)),
        },
        FieldType::Choice => match text_of(field, value)? {
            None => Ok(None),
            Some(choice) => {
                check_allowed(field.label, &choice, field.values)?;
                Ok(Some(FieldValue::Text(choice)))
            }
        },
        FieldType::Multi => {
            let Value::Array(items) = value else {
                return Err(type_error(field));
            };
            let mut chosen: Vec<String> = Vec::new();
            for item in items {
                let Value::String(choice) = item else {
                    return Err(type_error(field));
                };
                let choice = choice.trim();
                check_allowed(field.label, choice, field.values)?;
                if !chosen.iter().any(|c| c == choice) {
                    chosen.push(choice.to_owned());
                }
            }
            Ok((!chosen.is_empty()).then_some(FieldValue::List(chosen)))
        }
        FieldType::Email => match text_of(field, value)? {
            None => Ok(None),
            Some(email) if crate::services::accounts::is_email(&email) => {
                Ok(Some(FieldValue::Text(email)))
            }
            Some(email) => Err(AppError::unprocessable(format!(
                "Le champ « {} » n'est pas une adresse e-mail valide : « {email} ».",
                field.label
            ))),
        },
        FieldType::Date => match text_of(field, value)? {
            None => Ok(None),
            Some(day) if crate::domain::day::read(&day).is_some() => {
                Ok(Some(FieldValue::Text(day)))
            }
            Some(day) => Err(AppError::unprocessable(format!(
                "Le champ « {} » doit être une date AAAA-MM-JJ : « {day} » n'en est pas une.",
                field.label
            ))),
        },
    }
}

/// `champs` checked against a table of fields: a key that is not a field's
/// id is refused (naming the key and listing the fields), each field's value
/// by its type, and a required field without a value is refused (naming its
/// label). The values kept, in the table's order.
pub fn check_against(
    table: &'static [FieldSpec],
    champs: &Map<String, Value>,
) -> AppResult<Vec<(&'static FieldSpec, FieldValue)>> {
    if let Some(unknown) = champs.keys().find(|k| !table.iter().any(|f| f.id == *k)) {
        return Err(AppError::unprocessable(format!(
            "Le champ « {unknown} » n'est pas reconnu : champs possibles : {}.",
            table
                .iter()
                .map(|f| format!("« {} » ({})", f.id, f.label))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let mut kept = Vec::new();
    for field in table {
        let value = match champs.get(field.id) {
            Some(value) => check_value(field, value)?,
            None => None,
        };
        match value {
            Some(value) => kept.push((field, value)),
            None if field.required => {
                return Err(AppError::unprocessable(format!(
                    "Le champ « {} » est obligatoire.",
                    field.label
                )));
            }
            None => {}
        }
    }
    Ok(kept)
}

/// `champs` checked against the contact's `FIELDS`.
pub fn check_champs(
    champs: &Map<String, Value>,
) -> AppResult<Vec<(&'static FieldSpec, FieldValue)>> {
    check_against(&FIELDS, champs)
}

/// A contact's checked values, ready to be stored.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ContactFields {
    pub nom: String,
    pub email: Option<String>,
    pub telephone: Option<String>,
    pub fonction: Option<String>,
}

/// `champs` checked (`check_champs`) and put in a contact's columns.
pub fn contact_fields(champs: &Map<String, Value>) -> AppResult<ContactFields> {
    let mut fields = ContactFields::default();
    for (field, value) in check_champs(champs)? {
        let FieldValue::Text(text) = value else {
            return Err(AppError::Internal(anyhow::anyhow!(
                "champ de contact « {} » sans colonne texte",
                field.id
            )));
        };
        match field.id {
            "nom" => fields.nom = text,
            "email" => fields.email = Some(text),
            "telephone" => fields.telephone = Some(text),
            "fonction" => fields.fonction = Some(text),
            other => {
                return Err(AppError::Internal(anyhow::anyhow!(
                    "champ de contact « {other} » sans colonne"
                )));
            }
        }
    }
    Ok(fields)
}

/// `parentId` as sent: present, a non-blank string (the client's
/// `client_id`); trimmed.
pub fn parent_ref(parent: Option<&Value>) -> AppResult<String> {
    match parent {
        None | Some(Value::Null) => Err(missing_parent()),
        Some(Value::String(text)) if text.trim().is_empty() => Err(missing_parent()),
        Some(Value::String(text)) => Ok(text.trim().to_owned()),
        Some(_) => Err(AppError::unprocessable(format!(
            "Le champ « {} » (parentId) n'a pas le type attendu : l'identifiant `client_id` du client (texte).",
            PARENT.label
        ))),
    }
}

fn missing_parent() -> AppError {
    AppError::unprocessable(format!(
        "Le champ « {} » (parentId) est obligatoire : l'identifiant `client_id` du client de l'agence auquel rattacher le contact.",
        PARENT.label
    ))
}

/// The client's contact with that name (accents, case and surrounding
/// spaces ignored), the way the partner workflow API matches contacts.
pub fn find_by_name(conn: &Conn, client_id: &ClientId, nom: &str) -> AppResult<Option<ContactRow>> {
    let wanted = fold(nom.trim());
    Ok(store::for_client(conn, client_id)?
        .into_iter()
        .find(|c| fold(c.nom.trim()) == wanted))
}

/// Adds a contact to a client already found in the agency: refused when the
/// client is archived or already has a contact of that name (the partner
/// workflow API matches contacts by name, so a second one would be
/// ambiguous). One audit entry. Returns the contact's id.
pub fn add_to_client(
    tx: &Tx,
    agency_id: &AgencyId,
    client: &ClientRow,
    fields: ContactFields,
    actor: &Actor,
) -> AppResult<ContactId> {
    if client.supprime {
        return Err(AppError::unprocessable(format!(
            "Le client « {} » est archivé : il ne reçoit plus de contacts.",
            client.nom
        )));
    }
    if let Some(existing) = find_by_name(tx, &client.id, &fields.nom)? {
        return Err(AppError::unprocessable(format!(
            "Le client « {} » a déjà un contact nommé « {} » (champ « {} »).",
            client.nom,
            existing.nom,
            field("nom").map_or("nom", |f| f.label)
        )));
    }
    let row = ContactRow {
        id: ContactId::new(crate::store::new_id()),
        nom: fields.nom,
        email: fields.email,
        telephone: fields.telephone,
        fonction: fields.fonction,
    };
    store::insert(tx, &client.id, &row)?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor,
            action: "creation",
            object_type: OBJECT_TYPE,
            object_id: Some(row.id.as_str()),
            detail: Some(json!({
                "client": client.id,
                "client_id": client.client_ref,
                "nom": row.nom,
                "email": row.email,
                "telephone": row.telephone,
                "fonction": row.fonction,
            })),
        },
    )?;
    Ok(row.id)
}

/// Creates a contact from a creation form: `parentId` (a client of the
/// agency, by its `client_id`) and `champs`. Every refusal is 422 with its
/// French reason, including a client unknown in the agency (a reference in
/// the input, as `POST /invoices` refuses its `clientId`). Returns the
/// contact's id.
pub fn create(
    tx: &Tx,
    agency_id: &AgencyId,
    parent: Option<&Value>,
    champs: &Map<String, Value>,
    actor: &Actor,
) -> AppResult<ContactId> {
    let client_ref = parent_ref(parent)?;
    let fields = contact_fields(champs)?;
    let client = client_store::find_by_ref(tx, agency_id, &client_ref)?.ok_or_else(|| {
        AppError::unprocessable(format!(
            "{} introuvable dans cette agence : « {client_ref} ».",
            PARENT.label
        ))
    })?;
    add_to_client(tx, agency_id, &client, fields, actor)
}

/// Creates a contact in the principal's agency, under the client
/// `parent` (its `champs` as sent); returns its id.
pub async fn create_for(
    store: &Store,
    p: &Principal,
    parent: Option<Value>,
    champs: Map<String, Value>,
) -> AppResult<ContactId> {
    p.require(Capability::Change)?;
    let (agency_id, actor) = (p.agency_id()?.to_owned(), p.actor.clone());
    store
        .write(move |tx| create(tx, &agency_id, parent.as_ref(), &champs, &actor))
        .await
}

/// What changes in a contact edited on the client's screen: only the given
/// fields; `email`, `telephone`, `fonction` null or blank erase.
#[derive(Debug, Clone, Default)]
pub struct ContactEdit {
    pub nom: Option<String>,
    pub email: Option<Option<String>>,
    pub telephone: Option<Option<String>>,
    pub fonction: Option<Option<String>>,
}

fn contact_not_found() -> AppError {
    AppError::not_found("Contact introuvable.")
}

/// The contact `id` of a client of the agency, with its client: 404 for
/// another agency's; a contact of an archived client is not changed (409).
fn changeable(tx: &Tx, agency_id: &AgencyId, id: &ContactId) -> AppResult<(ClientRow, ContactRow)> {
    let (client_id, contact) =
        store::get_in_agency(tx, agency_id, id)?.ok_or_else(contact_not_found)?;
    let client = client_store::find(tx, agency_id, &client_id)?.ok_or_else(contact_not_found)?;
    if client.supprime {
        return Err(AppError::conflict(format!(
            "Le client « {} » est archivé : restaurez-le avant de modifier ses contacts.",
            client.nom
        )));
    }
    Ok((client, contact))
}

/// An optional text of a contact: kept, erased or set, checked as the
/// partner API checks it ([`crate::services::clients::edit`]).
fn edited(
    field: &str,
    change: Option<Option<String>>,
    current: Option<String>,
) -> AppResult<Option<String>> {
    crate::services::clients::edit(field, change, current, |text| {
        crate::services::clients::check_contact_value(field, field, text)
    })
}

/// Changes a contact of a client of the principal's agency; returns it as
/// recorded. Its name stays required and unique among the client's
/// contacts (the partner workflow API finds contacts by name). One audit
/// entry `modification` with what changed, none when nothing did.
pub async fn edit_for(
    store_handle: &Store,
    p: &Principal,
    id: ContactId,
    change: ContactEdit,
) -> AppResult<ContactRow> {
    p.require(Capability::Change)?;
    let (agency_id, actor) = (p.agency_id()?.to_owned(), p.actor.clone());
    store_handle
        .write(move |tx| {
            let (client, before) = changeable(tx, &agency_id, &id)?;
            let nom = match change.nom {
                None => before.nom.clone(),
                Some(nom) => {
                    let nom = nom.trim().to_owned();
                    if nom.is_empty() {
                        return Err(AppError::unprocessable("Le champ « nom » est obligatoire."));
                    }
                    crate::services::clients::check_contact_value("nom", "nom", &nom)?;
                    if let Some(other) =
                        find_by_name(tx, &client.id, &nom)?.filter(|other| other.id != before.id)
                    {
                        return Err(AppError::unprocessable(format!(
                            "Le client « {} » a déjà un contact nommé « {} » (champ « nom »).",
                            client.nom, other.nom
                        )));
                    }
                    nom
                }
            };
            let after = ContactRow {
                id: before.id.clone(),
                nom,
                email: edited("email", change.email, before.email.clone())?,
                telephone: edited("telephone", change.telephone, before.telephone.clone())?,
                fonction: edited("fonction", change.fonction, before.fonction.clone())?,
            };
            if after != before {
                store::update(tx, &after)?;
                let mut changes = Map::new();
                for (field, old, new) in [
                    ("nom", Some(&before.nom), Some(&after.nom)),
                    ("email", before.email.as_ref(), after.email.as_ref()),
                    (
                        "telephone",
                        before.telephone.as_ref(),
                        after.telephone.as_ref(),
                    ),
                    (
                        "fonction",
                        before.fonction.as_ref(),
                        after.fonction.as_ref(),
                    ),
                ] {
                    if old != new {
                        changes.insert(field.to_owned(), json!({ "before": old, "after": new }));
                    }
                }
                audit::record(
                    tx,
                    AuditEntry {
                        agency_id: Some(agency_id.as_str()),
                        actor: &actor,
                        action: "modification",
                        object_type: OBJECT_TYPE,
                        object_id: Some(after.id.as_str()),
                        detail: Some(json!({ "client_id": client.client_ref, "changes": changes })),
                    },
                )?;
            }
            Ok(after)
        })
        .await
}

/// Removes a contact of a client of the principal's agency; the audit entry
/// `suppression` keeps what it held.
pub async fn remove_for(store_handle: &Store, p: &Principal, id: ContactId) -> AppResult<()> {
    p.require(Capability::Change)?;
    let (agency_id, actor) = (p.agency_id()?.to_owned(), p.actor.clone());
    store_handle
        .write(move |tx| {
            let (client, contact) = changeable(tx, &agency_id, &id)?;
            store::delete(tx, &contact.id)?;
            audit::record(
                tx,
                AuditEntry {
                    agency_id: Some(agency_id.as_str()),
                    actor: &actor,
                    action: "suppression",
                    object_type: OBJECT_TYPE,
                    object_id: Some(contact.id.as_str()),
                    detail: Some(json!({
                        "client_id": client.client_ref,
                        "nom": contact.nom,
                        "email": contact.email,
                        "telephone": contact.telephone,
                        "fonction": contact.fonction,
                    })),
                },
            )?;
            Ok(())
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(outcome: AppResult<impl std::fmt::Debug>) -> (u16, String) {
        match outcome {
            Ok(value) => panic!("refusal expected, got {value:?}"),
            Err(err) => (err.status().as_u16(), err.public_message()),
        }
    }

    fn one(id: &str, value: Value) -> Map<String, Value> {
        let mut champs = Map::new();
        champs.insert(id.to_owned(), value);
        champs
    }

    /// The required fields with a valid value each, plus `extra`.
    fn with_required(table: &[FieldSpec], extra: Map<String, Value>) -> Map<String, Value> {
        let mut champs = Map::new();
        for field in table.iter().filter(|f| f.required) {
            champs.insert(field.id.to_owned(), valid_sample(field).0);
        }
        champs.extend(extra);
        champs
    }

    /// A value that a field of that type accepts, and what it keeps.
    fn valid_sample(field: &FieldSpec) -> (Value, FieldValue) {
        match field.kind {
            FieldType::Text => (
                json!("  Jeanne Martin "),
                FieldValue::Text("Jeanne Martin".into()),
            ),
            FieldType::Number => (json!(12.5), FieldValue::Number(12.5)),
            FieldType::Choice => (
                json!(field.values[1]),
                FieldValue::Text(field.values[1].into()),
            ),
            FieldType::Multi => (
                json!([field.values[1], field.values[0], field.values[1]]),
                FieldValue::List(vec![field.values[1].into(), field.values[0].into()]),
            ),
            FieldType::Email => (
                json!(" jeanne@etoile.fr "),
                FieldValue::Text("jeanne@etoile.fr".into()),
            ),
            FieldType::Date => (json!("2026-11-21"), FieldValue::Text("2026-11-21".into())),
        }
    }

    /// Values of the right JSON type that the type's own rule refuses.
    fn invalid_values(field: &FieldSpec) -> Vec<Value> {
        let long = json!("x".repeat(MAX_TEXT_CHARS + 1));
        match field.kind {
            FieldType::Text => vec![long],
            FieldType::Number => vec![],
            FieldType::Choice => vec![
                json!("Inconnue"),
                json!(field.values[0].to_lowercase()),
                long,
            ],
            FieldType::Multi => vec![json!(["Inconnue"]), json!([field.values[0], "Inconnue"])],
            FieldType::Email => vec![
                json!("pas-une-adresse"),
                json!("a b@c.fr"),
                json!("a@b"),
                long,
            ],
            FieldType::Date => vec![
                json!("21/11/2026"),
                json!("2026-02-30"),
                json!("2026-1-5"),
                long,
            ],
        }
    }

    /// JSON values of another type than the field's.
    fn wrong_types(field: &FieldSpec) -> Vec<Value> {
        let mut values = vec![json!(true), json!({"a": 1})];
        match field.kind {
            FieldType::Number => values.extend([json!("12"), json!(["12"])]),
            FieldType::Multi => values.extend([json!(field.values[0]), json!(3), json!([3])]),
            _ => values.extend([
                json!(3),
                json!(1.5),
                json!([field.values.first().unwrap_or(&"x")]),
            ]),
        }
        values
    }

    /// Every field of `table` validated by its declared type, the required
    /// ones refused when absent, blank or null, and nothing else accepted.
    fn assert_table_is_validated_by_its_types(table: &'static [FieldSpec]) {
        for field in table {
            let (value, kept) = valid_sample(field);
            let checked = check_against(table, &with_required(table, one(field.id, value)))
                .unwrap_or_else(|e| panic!("{}: {}", field.id, e.public_message()));
            let got = checked
                .iter()
                .find(|(f, _)| f.id == field.id)
                .map(|(_, v)| v);
            assert_eq!(got, Some(&kept), "{}", field.id);
            for value in invalid_values(field).into_iter().chain(wrong_types(field)) {
                let (status, message) = refusal(check_against(
                    table,
                    &with_required(table, one(field.id, value.clone())),
                ));
                assert_eq!(status, 422, "{} {value}", field.id);
                assert!(
                    message.contains(&format!("« {} »", field.label)),
                    "{} {value}: {message}",
                    field.id
                );
            }
            let mut without = with_required(table, Map::new());
            without.remove(field.id);
            let blank = match field.kind {
                FieldType::Number => None,
                FieldType::Multi => Some(json!([])),
                _ => Some(json!("   ")),
            };
            for absent in [None, Some(Value::Null), blank] {
                let mut champs = without.clone();
                if let Some(value) = absent.clone() {
                    champs.insert(field.id.to_owned(), value);
                }
                if field.required {
                    assert_eq!(
                        refusal(check_against(table, &champs)),
                        (
                            422,
                            format!("Le champ « {} » est obligatoire.", field.label)
                        ),
                        "{absent:?}"
                    );
                } else {
                    let checked = check_against(table, &champs).expect("optional");
                    assert!(!checked.iter().any(|(f, _)| f.id == field.id), "{absent:?}");
                }
            }
        }
        for unknown in ["poste", "Nom", "", "parentId", "nom "] {
            if table.iter().any(|f| f.id == unknown) {
                continue;
            }
            let (status, message) = refusal(check_against(
                table,
                &with_required(table, one(unknown, json!("x"))),
            ));
            assert_eq!(status, 422);
            assert!(
                message.starts_with(&format!("Le champ « {unknown} » n'est pas reconnu")),
                "{message}"
            );
        }
    }

    #[test]
    fn every_contact_field_is_validated_by_its_declared_type_and_only_declared_fields_pass() {
        assert_table_is_validated_by_its_types(&FIELDS);
    }

    /// The validator knows every type of the spec, not only those the
    /// contact uses today: a table with one field of each.
    #[test]
    fn every_field_type_of_the_spec_has_its_rule() {
        static EVERY_TYPE: [FieldSpec; 6] = [
            FieldSpec {
                id: "t",
                label: "Texte",
                required: true,
                kind: FieldType::Text,
                values: &[],
            },
            FieldSpec {
                id: "n",
                label: "Nombre",
                required: false,
                kind: FieldType::Number,
                values: &[],
            },
            FieldSpec {
                id: "c",
                label: "Choix",
                required: false,
                kind: FieldType::Choice,
                values: &["Un", "Deux"],
            },
            FieldSpec {
                id: "m",
                label: "Plusieurs",
                required: true,
                kind: FieldType::Multi,
                values: &["Un", "Deux"],
            },
            FieldSpec {
                id: "e",
                label: "Courriel",
                required: false,
                kind: FieldType::Email,
                values: &[],
            },
            FieldSpec {
                id: "d",
                label: "Jour",
                required: false,
                kind: FieldType::Date,
                values: &[],
            },
        ];
        let kinds: Vec<FieldType> = EVERY_TYPE.iter().map(|f| f.kind).collect();
        assert_eq!(kinds, FieldType::ALL);
        assert_table_is_validated_by_its_types(&EVERY_TYPE);
    }

    #[test]
    fn the_contact_table_is_well_formed() {
        let mut ids: Vec<&str> = FIELDS.iter().map(|f| f.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), FIELDS.len(), "ids are unique");
        for field in &FIELDS {
            assert_eq!(
                field.kind.has_values(),
                !field.values.is_empty(),
                "{}",
                field.id
            );
            assert!(!field.label.is_empty());
        }
        // The required field is the partner workflow API's required one.
        let required: Vec<&str> = FIELDS.iter().filter(|f| f.required).map(|f| f.id).collect();
        assert_eq!(required, ["nom"]);
    }

    #[test]
    fn every_contact_field_lands_in_a_column() {
        let mut champs = Map::new();
        for field in &FIELDS {
            champs.insert(field.id.to_owned(), valid_sample(field).0);
        }
        let fields = contact_fields(&champs).expect("all fields");
        assert_eq!(
            fields,
            ContactFields {
                nom: "Jeanne Martin".into(),
                email: Some("jeanne@etoile.fr".into()),
                telephone: Some("Jeanne Martin".into()),
                fonction: Some(FONCTIONS[1].into()),
            }
        );
    }

    #[test]
    fn refusals_name_the_field_by_its_label() {
        let nom = || ("nom".to_owned(), json!("Jeanne Martin"));
        let champs = |pairs: Vec<(String, Value)>| pairs.into_iter().collect::<Map<_, _>>();
        assert_eq!(
            refusal(contact_fields(&Map::new())),
            (422, "Le champ « Nom » est obligatoire.".into())
        );
        assert_eq!(
            refusal(contact_fields(&champs(vec![
                nom(),
                ("email".into(), json!("jeanne"))
            ]))),
            (
                422,
                "Le champ « E-mail » n'est pas une adresse e-mail valide : « jeanne ».".into()
            )
        );
        assert_eq!(
            refusal(contact_fields(&champs(vec![nom(), ("fonction".into(), json!("Concierge"))]))),
            (
                422,
                "La valeur « Concierge » du champ « Fonction » n'est pas autorisée : valeurs possibles : « Gardien », « Référent sur site », « Gestionnaire », « Syndic », « Conseil syndical », « Propriétaire », « Direction », « Services techniques », « Comptabilité », « Autre ».".into()
            )
        );
        assert_eq!(
            refusal(contact_fields(&champs(vec![
                nom(),
                ("telephone".into(), json!(612345678))
            ]))),
            (
                422,
                "Le champ « Téléphone » n'a pas le type attendu : un texte.".into()
            )
        );
        assert_eq!(
            refusal(contact_fields(&champs(vec![nom(), ("poste".into(), json!("x"))]))),
            (
                422,
                "Le champ « poste » n'est pas reconnu : champs possibles : « nom » (Nom), « email » (E-mail), « telephone » (Téléphone), « fonction » (Fonction).".into()
            )
        );
    }

    #[test]
    fn the_parent_is_required_and_a_text() {
        let missing = "Le champ « Client » (parentId) est obligatoire : l'identifiant `client_id` du client de l'agence auquel rattacher le contact.";
        for parent in [None, Some(Value::Null), Some(json!("  "))] {
            assert_eq!(refusal(parent_ref(parent.as_ref())), (422, missing.into()));
        }
        assert_eq!(refusal(parent_ref(Some(&json!(42)))).0, 422);
        assert_eq!(
            parent_ref(Some(&json!(" CLI-1 "))).ok(),
            Some("CLI-1".to_owned())
        );
    }
}
