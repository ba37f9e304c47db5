//! The single-use equipment sheet: `/generate_token` makes a signed address
//! valid 5 minutes (`{base_url}/fiche/{token}`), `GET /fiche/{token}` opens
//! it once. Opening marks the token used in the same transaction that reads
//! the sheet, so two openings cannot both succeed. The sheet itself is a
//! `SheetDocument` (`document`), written as that HTML page (`html`) or, for
//! the MCP resource `liftdesk://equipements/{id}/fiche`, as Markdown
//! (`markdown`).

use crate::domain::id::{AgencyId, CredentialId, EquipmentId};
use chrono::{DateTime, Duration, Utc};
use serde_json::{Value, json};

use crate::auth::sheet_token::{self, SheetSecret};
use crate::clock;
use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::services::{technical_data, workflow};
use crate::store::Conn;
use crate::store::Store;
use crate::store::Tx;
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::equipment as equipment_store;
use crate::store::sheets;
use crate::store::technical_fields;

/// How long a sheet address is valid.
pub const VALIDITY_MINUTES: i64 = 5;

/// `/generate_token`: the sheet address of the agency's equipment.
#[allow(clippy::too_many_arguments)]
pub fn generate(
    tx: &Tx,
    secret: &SheetSecret,
    base_url: &str,
    agency_id: &AgencyId,
    equipment_number: &str,
    credential_id: &CredentialId,
    now: DateTime<Utc>,
    actor: &Actor,
) -> AppResult<String> {
    let number = workflow::required_text("equipment_number", equipment_number)?;
    let equipment = equipment_store::find_by_number(tx, agency_id, &number)?
        .ok_or_else(|| AppError::not_found(workflow::EQUIPMENT_NOT_FOUND))?;
    let id = crate::store::new_id();
    let expires = now + Duration::minutes(VALIDITY_MINUTES);
    sheets::insert(
        tx,
        &id,
        agency_id,
        &equipment.id,
        credential_id,
        &clock::format_timestamp(now),
        &clock::format_timestamp(expires),
    )?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id.as_str()),
            actor,
            action: "sheet_token.create",
            object_type: "equipment",
            object_id: Some(equipment.id.as_str()),
            detail: Some(json!({ "sheet_token": id })),
        },
    )?;
    let token = sheet_token::sign(secret, &id, agency_id, &equipment.id);
    Ok(format!("{}/fiche/{token}", base_url.trim_end_matches('/')))
}

/// Opens a sheet: its HTML when the token is genuine, unused and not
/// expired (it is then used); None otherwise, whatever the reason.
pub fn open(
    tx: &Tx,
    secret: &SheetSecret,
    token: &str,
    now: DateTime<Utc>,
) -> AppResult<Option<String>> {
    let Some(sheet_id) = sheet_token::sheet_id_of(token) else {
        return Ok(None);
    };
    let Some(row) = sheets::get(tx, sheet_id)? else {
        return Ok(None);
    };
    if !sheet_token::verify(secret, token, &row.id, &row.agency_id, &row.equipment_id) {
        return Ok(None);
    }
    let expired = clock::parse_timestamp(&row.expires_at).is_none_or(|at| now >= at);
    if expired || row.used_at.is_some() {
        return Ok(None);
    }
    if !sheets::mark_used(tx, &row.id, &clock::format_timestamp(now))? {
        return Ok(None);
    }
    let html = render(tx, &row.agency_id, &row.equipment_id)?;
    Ok(html)
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

/// A value as the sheet shows it: trimmed, or « — » when there is none.
fn shown(value: Option<&str>) -> String {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        Some(text) => text.to_owned(),
        None => "—".to_owned(),
    }
}

fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Bool(true) => "oui".to_owned(),
        Value::Bool(false) => "non".to_owned(),
        Value::Number(n) => n.to_string().replace('.', ","),
        Value::Array(items) => items.iter().map(value_text).collect::<Vec<_>>().join(", "),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// French name of a technical-data component (`None`: the equipment itself).
pub fn component_label(key: Option<&str>) -> String {
    match key {
        None => "Appareil".to_owned(),
        Some("car_door") => "Porte de cabine".to_owned(),
        Some("landing_door") => "Portes palières".to_owned(),
        Some("machine") => "Machinerie".to_owned(),
        Some("controller") => "Armoire de commande".to_owned(),
        Some("car") => "Cabine".to_owned(),
        Some("shaft") => "Gaine".to_owned(),
        Some(other) => other.replace('_', " "),
    }
}

/// The equipment types' names as staff say them.
pub fn equipment_type_label(code: &str) -> &str {
    match code {
        "ascenseur" => "Ascenseur",
        "monte_charge" => "Monte-charge",
        "monte_voiture" => "Monte-voiture",
        "elevateur" => "Élévateur",
        "porte_fermeture" => "Porte ou fermeture automatique",
        other => other,
    }
}

fn call_label(code: &str) -> &str {
    match code {
        "personne_bloquee" => "Personne bloquée",
        "panne" => "Panne",
        "vandalisme" => "Vandalisme",
        "bruit" => "Bruit",
        "ouverte" => "Ouvert",
        "en_route" => "Technicien en route",
        "sur_place" => "Technicien sur place",
        "a_l_arret" => "Appareil à l'arrêt",
        "resolue" => "Résolu",
        "planifiee" => "Planifiée",
        "en_cours" => "En cours",
        "faite" => "Faite",
        "a_realiser" => "À réaliser",
        "termine" => "Terminé",
        "annule" => "Annulé",
        other => other,
    }
}

/// A code of a stored row in plain words (nothing when absent).
fn label_of(code: Option<&str>) -> String {
    call_label(code.unwrap_or_default()).to_owned()
}

fn day(text: Option<&str>) -> String {
    match text.and_then(|t| crate::domain::day::read(t.get(..10)?)) {
        Some(date) => crate::domain::day::french(date),
        None => shown(text),
    }
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#111}\
h1{font-size:1.5rem}h2{font-size:1.15rem;border-bottom:1px solid #999;margin-top:1.5rem}\
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}\
th{width:40%;font-weight:600}.rate{font-size:1.25rem;font-weight:700}\
@media print{body{margin:0;max-width:none}h2{break-after:avoid}table{break-inside:avoid}}";

/// The complete sheet of an equipment, whatever its format: the public HTML
/// page (`GET /fiche/{token}`) and the MCP resource (Markdown) are both
/// written from it. Texts are plain (not escaped) and in French.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetDocument {
    /// The equipment number as shown (« — » without one).
    pub number: String,
    pub sections: Vec<SheetSection>,
}

/// A titled part of the sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetSection {
    pub title: &'static str,
    pub blocks: Vec<SheetBlock>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SheetBlock {
    /// Label and value rows.
    Fields(Vec<(String, String)>),
    /// The heading of one component's data.
    Heading(String),
    /// A sentence saying there is nothing to show.
    Note(&'static str),
    /// The knowledge rate, in percent.
    Rate(f64),
    /// Rows under column headings.
    Table {
        columns: &'static [&'static str],
        rows: Vec<Vec<String>>,
    },
}

/// A component key and its (label, shown value) rows.
type ComponentRows = (Option<String>, Vec<(String, String)>);

fn fields(rows: Vec<(&str, String)>) -> SheetBlock {
    SheetBlock::Fields(
        rows.into_iter()
            .map(|(label, value)| (label.to_owned(), value))
            .collect(),
    )
}

fn section(title: &'static str, blocks: Vec<SheetBlock>) -> SheetSection {
    SheetSection { title, blocks }
}

/// The sheet of an equipment of the agency; None when the equipment is not
/// in that agency.
pub fn document(
    conn: &Conn,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
) -> AppResult<Option<SheetDocument>> {
    let Some(equipment) = equipment_store::get(conn, agency_id, equipment_id)? else {
        return Ok(None);
    };
    let id = &equipment.identity;
    let number = shown(id.number.as_deref());
    let mut sections = vec![section(
        "Identité",
        vec![fields(vec![
            ("Numéro", number.clone()),
            ("Numéro de série", shown(id.serial_number.as_deref())),
            (
                "Type",
                shown(id.equipment_type.as_deref().map(equipment_type_label)),
            ),
            ("Sous-type", shown(id.subtype.as_deref())),
            ("Emplacement", shown(id.location.as_deref())),
        ])],
    )];
    let building = match &equipment.building {
        Some(building) => {
            let access = sheets::building_access(conn, equipment_id)?.unwrap_or_default();
            let cell = |i: usize| access.get(i).cloned().flatten();
            let instructions: Vec<String> = cell(0)
                .and_then(|text| serde_json::from_str(&text).ok())
                .unwrap_or_default();
            fields(vec![
                ("Nom", shown(building.name.as_deref())),
                ("Adresse", shown(Some(&building.address))),
                ("Complément", shown(building.address_complement.as_deref())),
                ("Code postal", shown(cell(4).as_deref())),
                ("Ville", shown(cell(5).as_deref())),
                ("Consignes d'accès", shown(Some(&instructions.join(", ")))),
                ("Autre consigne", shown(cell(1).as_deref())),
                ("Digicode", shown(cell(2).as_deref())),
                ("Coffre à clés", shown(cell(3).as_deref())),
            ])
        }
        None => SheetBlock::Note("Aucun immeuble rattaché."),
    };
    sections.push(section("Immeuble", vec![building]));
    let client = match sheets::client_of(conn, equipment_id)? {
        Some(client) => {
            let cell = |i: usize| client.get(i).cloned().flatten();
            fields(vec![
                ("Nom", shown(cell(0).as_deref())),
                ("Statut", shown(cell(4).as_deref())),
                ("Téléphone", shown(cell(1).as_deref())),
                ("E-mail", shown(cell(2).as_deref())),
                (
                    "Adresse",
                    shown(
                        crate::domain::address::one_line(
                            cell(3).as_deref(),
                            cell(5).as_deref(),
                            cell(6).as_deref(),
                            cell(7).as_deref(),
                        )
                        .as_deref(),
                    ),
                ),
            ])
        }
        None => SheetBlock::Note("Aucun client rattaché."),
    };
    sections.push(section("Client", vec![client]));
    sections.push(section(
        "Contrat",
        vec![fields(vec![
            (
                "Contrat d'entretien",
                shown(
                    id.maintenance_contract
                        .as_deref()
                        .and_then(technical_data::contract_label),
                ),
            ),
            ("Numéro de contrat", shown(id.contract_number.as_deref())),
        ])],
    ));
    // Technical data by component, in catalog order, with units.
    let catalog = technical_fields::all(conn)?;
    let stored = equipment_store::values(conn, equipment_id)?;
    let mut groups: Vec<ComponentRows> = Vec::new();
    for field in &catalog {
        let Some((_, text)) = stored.iter().find(|(code, _)| *code == field.code) else {
            continue;
        };
        let value: Value = serde_json::from_str(text).unwrap_or(Value::Null);
        let mut shown_value = value_text(&value);
        if let Some(unit) = &field.unit {
            shown_value.push_str(&format!(" {unit}"));
        }
        let row = (field.label.clone(), shown_value);
        match groups.iter_mut().find(|(key, _)| *key == field.component) {
            Some((_, rows)) => rows.push(row),
            None => groups.push((field.component.clone(), vec![row])),
        }
    }
    let mut technical = Vec::new();
    if groups.is_empty() {
        technical.push(SheetBlock::Note("Aucune donnée technique relevée."));
    }
    for (component, rows) in groups {
        technical.push(SheetBlock::Heading(component_label(component.as_deref())));
        technical.push(SheetBlock::Fields(rows));
    }
    sections.push(section("Données techniques", technical));
    let rate = equipment_store::knowledge_rate(conn, agency_id, equipment_id)?.unwrap_or(0.0);
    sections.push(section(
        "Taux de connaissance",
        vec![SheetBlock::Rate(rate)],
    ));
    let visits = sheets::last_visits(conn, equipment_id)?;
    sections.push(section(
        "Dernières visites",
        vec![if visits.is_empty() {
            SheetBlock::Note("Aucune visite.")
        } else {
            SheetBlock::Table {
                columns: &["Prévue le", "Statut", "Faite le", "Observations"],
                rows: visits
                    .iter()
                    .map(|v| {
                        vec![
                            day(v[0].as_deref()),
                            label_of(v[1].as_deref()),
                            day(v[2].as_deref()),
                            shown(v[3].as_deref()),
                        ]
                    })
                    .collect(),
            }
        }],
    ));
    let calls = sheets::open_calls(conn, equipment_id)?;
    sections.push(section(
        "Appels en cours",
        vec![if calls.is_empty() {
            SheetBlock::Note("Aucun appel en cours.")
        } else {
            SheetBlock::Table {
                columns: &["Reçu le", "Type", "Statut", "Description"],
                rows: calls
                    .iter()
                    .map(|c| {
                        vec![
                            day(c[0].as_deref()),
                            label_of(c[1].as_deref()),
                            label_of(c[2].as_deref()),
                            shown(c[3].as_deref()),
                        ]
                    })
                    .collect(),
            }
        }],
    ));
    let survey = match sheets::last_survey(conn, equipment_id)? {
        Some(s) => fields(vec![
            ("Numéro", shown(s[0].as_deref())),
            ("Statut", label_of(s[1].as_deref())),
            ("Relevé le", day(s[2].as_deref())),
            ("Créé le", day(s[3].as_deref())),
        ]),
        None => SheetBlock::Note("Aucun relevé."),
    };
    sections.push(section("Dernier relevé", vec![survey]));
    Ok(Some(SheetDocument { number, sections }))
}

/// The complete sheet page, with no external resource and no script.
fn render(
    conn: &Conn,
    agency_id: &AgencyId,
    equipment_id: &EquipmentId,
) -> AppResult<Option<String>> {
    Ok(document(conn, agency_id, equipment_id)?.map(|document| html(&document)))
}

/// The sheet as an HTML page, in French (section titles, notes and column
/// headings are constants of this file, written as they are).
pub fn html(document: &SheetDocument) -> String {
    let number = escape(&document.number);
    let mut body = format!("<h1>Fiche de l'équipement {number}</h1>");
    for section in &document.sections {
        body.push_str(&format!("<h2>{}</h2>", section.title));
        for block in &section.blocks {
            match block {
                SheetBlock::Fields(rows) => {
                    body.push_str("<table>");
                    for (label, value) in rows {
                        body.push_str(&format!(
                            "<tr><th>{}</th><td>{}</td></tr>",
                            escape(label),
                            escape(value)
                        ));
                    }
                    body.push_str("</table>");
                }
                SheetBlock::Heading(text) => body.push_str(&format!("<h3>{}</h3>", escape(text))),
                SheetBlock::Note(text) => body.push_str(&format!("<p>{text}</p>")),
                SheetBlock::Rate(rate) => {
                    body.push_str(&format!("<p class=\"rate\">{rate:.0} %</p>"));
                }
                SheetBlock::Table { columns, rows } => {
                    body.push_str("<table><tr>");
                    for column in *columns {
                        body.push_str(&format!("<th>{column}</th>"));
                    }
                    body.push_str("</tr>");
                    for row in rows {
                        body.push_str("<tr>");
                        for cell in row {
                            body.push_str(&format!("<td>{}</td>", escape(cell)));
                        }
                        body.push_str("</tr>");
                    }
                    body.push_str("</table>");
                }
            }
        }
    }
    page(&format!("Fiche équipement {number}"), &body)
}

/// A text inside a Markdown line or table cell: on one line, with the
/// characters Markdown would read as formatting escaped.
fn markdown_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\r' | '\n' => out.push(' '),
            '\\' | '`' | '*' | '_' | '|' | '<' | '>' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            other => out.push(other),
        }
    }
    out
}

/// The sheet as a Markdown document, in French: what the MCP resource
/// `liftdesk://equipements/{id}/fiche` answers.
pub fn markdown(document: &SheetDocument) -> String {
    let mut out = format!(
        "# Fiche de l'équipement {}\n",
        markdown_text(&document.number)
    );
    for section in &document.sections {
        out.push_str(&format!("\n## {}\n", section.title));
        for block in &section.blocks {
            match block {
                SheetBlock::Fields(rows) => {
                    out.push('\n');
                    for (label, value) in rows {
                        out.push_str(&format!(
                            "- **{}** : {}\n",
                            markdown_text(label),
                            markdown_text(value)
                        ));
                    }
                }
                SheetBlock::Heading(text) => {
                    out.push_str(&format!("\n### {}\n", markdown_text(text)));
                }
                SheetBlock::Note(text) => out.push_str(&format!("\n{text}\n")),
                SheetBlock::Rate(rate) => out.push_str(&format!("\n{rate:.0} %\n")),
                SheetBlock::Table { columns, rows } => {
                    out.push_str(&format!("\n| {} |\n", columns.join(" | ")));
                    out.push_str(&format!("|{}\n", " --- |".repeat(columns.len())));
                    for row in rows {
                        let cells: Vec<String> = row.iter().map(|c| markdown_text(c)).collect();
                        out.push_str(&format!("| {} |\n", cells.join(" | ")));
                    }
                }
            }
        }
    }
    out
}

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html><html lang=\"fr\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<meta name=\"referrer\" content=\"no-referrer\"><title>{title}</title><style>{STYLE}</style></head>\
<body>{body}</body></html>"
    )
}

/// The page of a link that cannot be opened (expired, used, forged):
/// reveals nothing of the equipment.
pub fn expired_page() -> String {
    page(
        "Lien expiré",
        "<h1>Lien expiré</h1><p>Ce lien vers la fiche de l'équipement a expiré ou a déjà été utilisé. \
Demandez un nouveau lien depuis l'application de votre partenaire.</p>",
    )
}

/// The sheet of an equipment of the principal's agency, in Markdown (404
/// outside the agency).
pub async fn markdown_for(
    store: &Store,
    p: &Principal,
    equipment_id: &EquipmentId,
) -> AppResult<String> {
    let (agency_id, id) = (p.agency_id()?.to_owned(), equipment_id.to_owned());
    store
        .read(move |conn| document(conn, &agency_id, &id))
        .await?
        .map(|document| markdown(&document))
        .ok_or_else(|| AppError::not_found("Équipement introuvable."))
}

/// `/generate_token`: a sheet link for an equipment of the principal's
/// agency (a partner key), valid for its time; returns the link.
pub async fn generate_for(
    store: &Store,
    p: &Principal,
    secret: &SheetSecret,
    base_url: &str,
    equipment_number: &str,
) -> AppResult<String> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?.to_owned();
    let credential_id = match &p.actor {
        Actor::PartnerKey(id) => id.clone(),
        _ => {
            return Err(AppError::forbidden(
                "Seule une clé partenaire génère un lien de fiche.",
            ));
        }
    };
    let (actor, now) = (p.actor.clone(), store.now());
    let (secret, base_url, number) = (*secret, base_url.to_owned(), equipment_number.to_owned());
    store
        .write(move |tx| {
            generate(
                tx,
                &secret,
                &base_url,
                &agency_id,
                &number,
                &credential_id,
                now,
                &actor,
            )
        })
        .await
}

/// The page of a sheet link (`None` when unknown, expired or revoked); its
/// opening is recorded.
pub async fn open_link(
    store: &Store,
    secret: &SheetSecret,
    token: &str,
) -> AppResult<Option<String>> {
    let (secret, token, now) = (*secret, token.to_owned(), store.now());
    store.write(move |tx| open(tx, &secret, &token, now)).await
}
