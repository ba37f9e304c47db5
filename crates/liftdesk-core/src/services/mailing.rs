//! Documents sent by e-mail, and the organization's outgoing server.
//!
//! « Envoyer » on a quote, an invoice or a credit note, in one transaction:
//! moves its status (the domain's `Send`, a reminder when it was sent
//! already), renders its PDF as it now stands, writes the message to the
//! outbox (`store::mail`) for the contacts chosen among its client's, and
//! audits it. A done visit's report is sent the same way (a visit has no
//! status to move). The mail task (`crate::mail::MailSync`) then tries the
//! message at once; a failure is retried on the webhooks' schedule and shown
//! on the document. Without contacts, « Envoyer » records a sending made by
//! other means (post, by hand): the status moves, no message is written.
//!
//! The outgoing server (host, port, security, login; the password sealed
//! with the data directory's key) is the organization's, set by its
//! administrators, who can send themselves a test message.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use crate::documents::{self, InvoiceDocument, InvoiceKind, QuoteDocument, VisitReportDocument};
use crate::domain::id::{AgencyId, ClientId, ContactId, InvoiceId, QuoteId, VisitId};
use crate::domain::mail::{
    self as rules, MailDocument, MailFacts, MailStatus, RECIPIENTS_MAX, SmtpSecurity,
};
use crate::domain::quote::QuoteAction;
use crate::error::{AppError, AppResult};
use crate::mail::MailSync;
use crate::mail::transport::{self, Outgoing};
use crate::principal::{Capability, Principal};
use crate::services::documents as docs;
use crate::services::{identity, invoices, quotes, visits};
use crate::store::audit::{self, AuditEntry};
use crate::store::mail::{self as store, MailRow, NewMail, Recipient, SettingsRow};
use crate::store::{Conn, Store, Tx, contacts, quotes as quote_store};

const SETTINGS_READ: Capability<'static> =
    Capability::AdministerOrganization("Consulter le serveur d'envoi des e-mails");
const SETTINGS_EDIT: Capability<'static> =
    Capability::AdministerOrganization("Régler le serveur d'envoi des e-mails");

/// How long « Envoyer » waits for the first attempt before answering (the
/// attempt goes on; the document shows its outcome).
const FIRST_ATTEMPT_WAIT: Duration = Duration::from_secs(15);

const NO_SERVER: &str = "Aucun serveur d'envoi n'est réglé : un administrateur de l'organisation le règle dans Paramètres › E-mail (serveur d'envoi).";
const NO_SENDER: &str = "L'adresse e-mail de l'agence n'est pas renseignée : complétez le champ « E-mail » dans Agence › Identité ; les documents partent de cette adresse.";
const NOT_FOUND_MAIL: &str = "Message introuvable.";

// -- The outgoing server ------------------------------------------------------

/// The outgoing server as the settings screen shows it (never the password).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsView {
    pub configured: bool,
    pub host: Option<String>,
    pub port: Option<u16>,
    pub security: SmtpSecurity,
    pub username: Option<String>,
    pub password_set: bool,
    pub updated_at: Option<String>,
}

impl SettingsView {
    fn of(row: Option<SettingsRow>) -> Self {
        match row {
            Some(row) => Self {
                configured: true,
                host: Some(row.host),
                port: Some(row.port),
                security: row.security,
                username: row.username,
                password_set: row.password_enc.is_some(),
                updated_at: Some(row.updated_at),
            },
            None => Self {
                configured: false,
                host: None,
                port: None,
                security: SmtpSecurity::Starttls,
                username: None,
                password_set: false,
                updated_at: None,
            },
        }
    }
}

/// What the settings screen sends.
#[derive(Debug, Clone, Default)]
pub struct SettingsInput {
    pub host: String,
    /// None: the security's usual port.
    pub port: Option<u32>,
    /// `starttls`, `tls` or `aucune`.
    pub security: String,
    pub username: Option<String>,
    /// None keeps the stored password; an empty one removes it.
    pub password: Option<String>,
}

pub async fn settings(store: &Store, p: &Principal) -> AppResult<SettingsView> {
    p.require(SETTINGS_READ)?;
    let organization_id = p.agency()?.organization_id.clone();
    let row = store
        .read(move |conn| store::settings(conn, &organization_id))
        .await?;
    Ok(SettingsView::of(row))
}

pub async fn save_settings(
    store: &Store,
    mail: &MailSync,
    p: &Principal,
    input: SettingsInput,
) -> AppResult<SettingsView> {
    p.require(SETTINGS_EDIT)?;
    let agency = p.agency()?.clone();
    let host = rules::check_host(&input.host).map_err(|e| AppError::field("host", e))?;
    let security = SmtpSecurity::parse(input.security.trim()).ok_or_else(|| {
        AppError::field(
            "security",
            format!(
                "« {} » inconnu ; attendu : starttls, tls ou aucune.",
                input.security.trim()
            ),
        )
    })?;
    let port = match input.port {
        None => security.default_port(),
        Some(port) => u16::try_from(port)
            .ok()
            .filter(|p| *p > 0)
            .ok_or_else(|| AppError::field("port", "un nombre de 1 à 65535."))?,
    };
    let username = crate::domain::text::field("username", input.username.as_deref(), 254)
        .map_err(AppError::unprocessable)?;
    let new_password = match input.password {
        None => None,
        Some(password) if password.is_empty() => Some(None),
        Some(password) => {
            if password.chars().count() > 512 || password.chars().any(char::is_control) {
                return Err(AppError::field(
                    "password",
                    "512 caractères au plus, sans caractère de contrôle.",
                ));
            }
            Some(Some(
                mail.seal_password(&agency.organization_id, &password)?,
            ))
        }
    };
    let p = p.clone();
    store
        .write(move |tx| -> AppResult<SettingsView> {
            let organization_id = &agency.organization_id;
            let before = store::settings(tx, organization_id)?;
            let password_enc = match &new_password {
                Some(sealed) => sealed.clone(),
                None => before.as_ref().and_then(|b| b.password_enc.clone()),
            };
            if username.is_none() && password_enc.is_some() && new_password.is_some() {
                return Err(AppError::field(
                    "password",
                    "un mot de passe va avec un identifiant ; renseignez « username ».",
                ));
            }
            // Without a login, no password is kept.
            let password_enc = if username.is_none() {
                None
            } else {
                password_enc
            };
            let row = SettingsRow {
                host,
                port,
                security,
                username,
                password_enc,
                updated_at: tx.now_text(),
            };
            store::save_settings(tx, organization_id, &row, p.account.as_ref().map(|a| &a.id))?;
            audit::record(
                tx,
                AuditEntry {
                    agency_id: Some(agency.id.as_str()),
                    actor: &p.actor,
                    action: "reglages_email",
                    object_type: "organization",
                    object_id: Some(organization_id.as_str()),
                    detail: Some(json!({
                        "host": row.host,
                        "port": row.port,
                        "security": row.security.as_str(),
                        "username": row.username,
                        "passwordChanged": new_password.is_some(),
                    })),
                },
            )?;
            Ok(SettingsView::of(Some(row)))
        })
        .await
}

/// Sends a test message through the saved server to `to` (default: the
/// signed-in person's address); the server's refusal comes back as a 422
/// in French. Returns the address written to.
pub async fn test_settings(
    store: &Store,
    mail: &MailSync,
    p: &Principal,
    to: Option<String>,
) -> AppResult<String> {
    p.require(SETTINGS_EDIT)?;
    let agency = p.agency()?.clone();
    let to = match to.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        Some(to) => rules::check_address(to).map_err(|e| AppError::field("to", e))?,
        None => p
            .account
            .as_ref()
            .map(|a| a.email.clone())
            .ok_or_else(|| AppError::field("to", "l'adresse à laquelle écrire."))?,
    };
    let (organization_id, agency_id) = (agency.organization_id.clone(), agency.id.clone());
    let (row, seller) = store
        .read(move |conn| -> AppResult<_> {
            Ok((
                store::settings(conn, &organization_id)?,
                identity::seller_in(conn, &agency_id, None)?,
            ))
        })
        .await?;
    let row = row.ok_or_else(|| {
        AppError::unprocessable(
            "Aucun serveur d'envoi n'est réglé : enregistrez d'abord les réglages.",
        )
    })?;
    let server = mail
        .server_of(&agency.organization_id, &row)
        .map_err(AppError::unprocessable)?;
    let from = seller.identity.email.clone().unwrap_or_else(|| to.clone());
    let body = format!(
        "Bonjour,\n\nCe message d'essai confirme que Liftdesk envoie les e-mails de {} par le serveur {}:{} ({}).\n\nLiftdesk",
        seller.name,
        server.host,
        server.port,
        server.security.label()
    );
    let outgoing = Outgoing {
        from_name: &seller.name,
        from_email: &from,
        to: vec![("", to.as_str())],
        subject: "Liftdesk : message d'essai",
        body: &body,
        attachment: None,
    };
    transport::send(&server, &outgoing)
        .await
        .map_err(|err| AppError::unprocessable(format!("L'essai a échoué : {}", err.reason)))?;
    Ok(to)
}

// -- Sending a document -------------------------------------------------------

/// A document that can be sent by e-mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailObject {
    Quote(QuoteId),
    Invoice(InvoiceId),
    /// A done visit: its report.
    Visit(VisitId),
}

impl MailObject {
    pub fn object_type(&self) -> &'static str {
        match self {
            MailObject::Quote(_) => "quote",
            MailObject::Invoice(_) => "invoice",
            MailObject::Visit(_) => "visit",
        }
    }

    pub fn id(&self) -> &str {
        match self {
            MailObject::Quote(id) => id.as_str(),
            MailObject::Invoice(id) => id.as_str(),
            MailObject::Visit(id) => id.as_str(),
        }
    }
}

/// The document as it will be attached, and what its message says of it.
enum Printed {
    Quote(QuoteDocument),
    Invoice(InvoiceDocument),
    Visit(VisitReportDocument),
}

struct Prepared {
    printed: Printed,
    file_name: String,
    client_id: Option<ClientId>,
    kind: MailDocument,
    number: Option<String>,
    total_incl: Option<crate::domain::money::Cents>,
    due_on: Option<String>,
    visit_day: Option<String>,
}

impl Prepared {
    fn seller(&self) -> &documents::Seller {
        match &self.printed {
            Printed::Quote(d) => &d.seller,
            Printed::Invoice(d) => &d.seller,
            Printed::Visit(d) => &d.seller,
        }
    }

    fn signature(&self) -> Vec<String> {
        let id = &self.seller().identity;
        [
            id.phone.as_ref().map(|p| format!("Tél. {p}")),
            id.email.clone(),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    fn defaults(&self) -> (String, String) {
        let signature = self.signature();
        let facts = MailFacts {
            document: self.kind,
            number: self.number.as_deref(),
            seller: &self.seller().name,
            total_incl: self.total_incl,
            due_on: self.due_on.as_deref(),
            visit_day: self.visit_day.as_deref(),
            signature: &signature,
        };
        (rules::default_subject(&facts), rules::default_body(&facts))
    }

    fn render(&self) -> anyhow::Result<Vec<u8>> {
        match &self.printed {
            Printed::Quote(d) => documents::quote_pdf(d),
            Printed::Invoice(d) => documents::invoice_pdf(d),
            Printed::Visit(d) => documents::visit_report_pdf(d),
        }
    }
}

fn french_day(day: chrono::NaiveDate) -> String {
    day.format("%d/%m/%Y").to_string()
}

fn prepare(conn: &Conn, agency_id: &AgencyId, object: &MailObject) -> AppResult<Prepared> {
    match object {
        MailObject::Quote(id) => {
            let (document, file_name) = docs::quote_document(conn, agency_id, id)?;
            let row = quote_store::get(conn, agency_id, id)?;
            let client_id = match row {
                Some(row) => quote_store::equipment_client_id(conn, &row.equipment_id)?,
                None => None,
            };
            Ok(Prepared {
                kind: MailDocument::Devis,
                number: document.number.clone(),
                total_incl: Some(document.totals.incl_tax),
                due_on: None,
                visit_day: None,
                client_id,
                file_name,
                printed: Printed::Quote(document),
            })
        }
        MailObject::Invoice(id) => {
            let (document, file_name) = docs::invoice_document(conn, agency_id, id)?;
            let row = crate::store::invoices::get(conn, agency_id, id)?;
            Ok(Prepared {
                kind: match document.kind {
                    InvoiceKind::Facture => MailDocument::Facture,
                    InvoiceKind::Avoir => MailDocument::Avoir,
                },
                number: document.number.clone(),
                total_incl: Some(document.totals.incl_tax),
                due_on: document.due_on.map(french_day),
                visit_day: None,
                client_id: row.and_then(|r| r.client_id),
                file_name,
                printed: Printed::Invoice(document),
            })
        }
        MailObject::Visit(id) => {
            let (document, file_name) = docs::visit_report_document(conn, agency_id, id)?;
            let visit = visits::get(conn, agency_id, id)?;
            Ok(Prepared {
                kind: MailDocument::RapportVisite,
                number: Some(document.equipment_number.clone()),
                total_incl: None,
                due_on: None,
                visit_day: Some(french_day(document.done_on)),
                client_id: quote_store::equipment_client_id(conn, &visit.equipment_id)?,
                file_name,
                printed: Printed::Visit(document),
            })
        }
    }
}

/// A contact offered in the send dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactChoice {
    pub id: String,
    pub name: String,
    pub email: Option<String>,
    pub role: Option<String>,
}

/// What the send dialog starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendOptions {
    /// The document's client's contacts (those without an address cannot be
    /// chosen).
    pub contacts: Vec<ContactChoice>,
    pub sender_name: String,
    /// The agency's address, the message's sender; None: to fill first.
    pub sender_email: Option<String>,
    pub server_configured: bool,
    pub subject: String,
    pub message: String,
    pub attachment_name: String,
}

/// The dialog's starting point for `object` of the principal's agency.
pub async fn send_options(
    store: &Store,
    p: &Principal,
    object: MailObject,
) -> AppResult<SendOptions> {
    let agency = p.agency()?.clone();
    store
        .read(move |conn| -> AppResult<SendOptions> {
            let prepared = prepare(conn, &agency.id, &object)?;
            let contacts = match &prepared.client_id {
                Some(client_id) => contacts::for_client(conn, client_id)?
                    .into_iter()
                    .map(|c| ContactChoice {
                        id: c.id.into_string(),
                        name: c.nom,
                        email: c.email.filter(|e| !e.trim().is_empty()),
                        role: c.fonction,
                    })
                    .collect(),
                None => Vec::new(),
            };
            let (subject, message) = prepared.defaults();
            let seller = prepared.seller();
            Ok(SendOptions {
                contacts,
                sender_name: seller.name.clone(),
                sender_email: seller.identity.email.clone(),
                server_configured: store::settings(conn, &agency.organization_id)?.is_some(),
                subject,
                message,
                attachment_name: prepared.file_name.clone(),
            })
        })
        .await
}

/// What « Envoyer » was given.
#[derive(Debug, Clone, Default)]
pub struct SendInput {
    /// Contacts of the document's client; none: sent by other means.
    pub contact_ids: Vec<String>,
    /// None: the default subject.
    pub subject: Option<String>,
    /// None: the default text.
    pub message: Option<String>,
}

/// Sends `object`: moves its status and, with contacts, writes the message
/// and tries it at once. Returns the message (None without contacts).
pub async fn send(
    store: &Store,
    mail: &Arc<MailSync>,
    p: &Principal,
    object: MailObject,
    input: SendInput,
) -> AppResult<Option<MailRow>> {
    p.require(Capability::Change)?;
    let agency = p.agency()?.clone();
    if input.contact_ids.is_empty() {
        return match object {
            MailObject::Quote(id) => {
                quotes::act(store, p, &id, QuoteAction::Send).await?;
                Ok(None)
            }
            MailObject::Invoice(id) => {
                invoices::send(store, p, &id).await?;
                Ok(None)
            }
            MailObject::Visit(_) => Err(AppError::field(
                "contactIds",
                "choisissez au moins un destinataire du rapport.",
            )),
        };
    }
    if input.contact_ids.len() > RECIPIENTS_MAX {
        return Err(AppError::field(
            "contactIds",
            format!("{RECIPIENTS_MAX} destinataires au plus."),
        ));
    }
    let subject = input
        .subject
        .as_deref()
        .map(rules::check_subject)
        .transpose()
        .map_err(|e| AppError::field("subject", e))?;
    let message = input
        .message
        .as_deref()
        .map(rules::check_body)
        .transpose()
        .map_err(|e| AppError::field("message", e))?;
    let agency_id = agency.id.clone();
    let p = p.clone();
    let mail_id = crate::store::new_id();
    let id = mail_id.clone();
    store
        .write(move |tx| -> AppResult<()> {
            // The status first: the document is printed as it now stands.
            match &object {
                MailObject::Quote(id) => quotes::act_in(tx, &p, id, QuoteAction::Send)?,
                MailObject::Invoice(id) => invoices::send_in(tx, &p, id)?,
                // A visit has no status to move; one not done has no
                // report (refused by `prepare`).
                MailObject::Visit(_) => {}
            }
            let prepared = prepare(tx, &agency.id, &object)?;
            let recipients = recipients_of(
                tx,
                &agency.id,
                prepared.client_id.as_ref(),
                &input.contact_ids,
            )?;
            let seller = prepared.seller();
            let sender_email = seller
                .identity
                .email
                .clone()
                .filter(|e| !e.trim().is_empty())
                .ok_or_else(|| AppError::unprocessable(NO_SENDER))?;
            if store::settings(tx, &agency.organization_id)?.is_none() {
                return Err(AppError::unprocessable(NO_SERVER));
            }
            let (default_subject, default_body) = prepared.defaults();
            let subject = subject.unwrap_or(default_subject);
            let body = message.unwrap_or(default_body);
            let attachment = prepared.render()?;
            let now = tx.now_text();
            store::insert(
                tx,
                &NewMail {
                    id: &id,
                    agency_id: &agency.id,
                    object_type: object.object_type(),
                    object_id: object.id(),
                    sender_name: &seller.name,
                    sender_email: &sender_email,
                    recipients: &recipients,
                    subject: &subject,
                    body: &body,
                    attachment_name: &prepared.file_name,
                    attachment: &attachment,
                    created_by: p.account.as_ref().map(|a| &a.id),
                    now: &now,
                },
            )?;
            audit::record(
                tx,
                AuditEntry {
                    agency_id: Some(agency.id.as_str()),
                    actor: &p.actor,
                    action: "envoi_email",
                    object_type: object.object_type(),
                    object_id: Some(object.id()),
                    detail: Some(json!({
                        "mail": id,
                        "to": recipients.iter().map(|r| r.email.as_str()).collect::<Vec<_>>(),
                        "subject": subject,
                        "attachment": prepared.file_name,
                    })),
                },
            )?;
            Ok(())
        })
        .await?;
    first_attempt(mail, &mail_id).await;
    let row = store
        .read(move |conn| store::get(conn, &agency_id, &mail_id))
        .await?
        .ok_or_else(|| AppError::Internal(anyhow::anyhow!("message écrit introuvable")))?;
    Ok(Some(row))
}

/// The chosen contacts: each of the document's client, with an address;
/// the same one twice counts once.
fn recipients_of(
    tx: &Tx,
    agency_id: &AgencyId,
    client_id: Option<&ClientId>,
    contact_ids: &[String],
) -> AppResult<Vec<Recipient>> {
    let Some(client_id) = client_id else {
        return Err(AppError::field(
            "contactIds",
            "ce document n'a pas de client : aucun contact à qui l'envoyer.",
        ));
    };
    let mut recipients: Vec<Recipient> = Vec::new();
    for contact_id in contact_ids {
        let found = contacts::get_in_agency(tx, agency_id, &ContactId::new(contact_id.as_str()))?
            .filter(|(owner, _)| owner == client_id);
        let Some((_, contact)) = found else {
            return Err(AppError::field(
                "contactIds",
                format!("« {contact_id} » n'est pas un contact du client de ce document."),
            ));
        };
        let email = contact
            .email
            .as_deref()
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .ok_or_else(|| {
                AppError::field(
                    "contactIds",
                    format!(
                        "{} n'a pas d'adresse e-mail ; complétez sa fiche sur la page du client.",
                        contact.nom
                    ),
                )
            })?
            .to_owned();
        if recipients
            .iter()
            .any(|r| r.email.eq_ignore_ascii_case(&email))
        {
            continue;
        }
        recipients.push(Recipient {
            name: contact.nom,
            email,
            contact_id: Some(contact.id.into_string()),
        });
    }
    Ok(recipients)
}

/// Tries the message now, in a task of its own, and waits for it a
/// moment: the answer then says whether it left; a slow server's attempt
/// goes on after it.
async fn first_attempt(mail: &Arc<MailSync>, id: &str) {
    let (sync, key) = (mail.clone(), id.to_owned());
    let attempt = tokio::spawn(async move { sync.attempt(&key).await });
    match tokio::time::timeout(FIRST_ATTEMPT_WAIT, attempt).await {
        Ok(Ok(Err(err))) => tracing::error!(error = ?err, "premier essai d'envoi en échec"),
        Ok(Err(err)) => tracing::error!(error = %err, "premier essai d'envoi interrompu"),
        Ok(Ok(Ok(_))) | Err(_) => {}
    }
}

/// The messages of `object` of the principal's agency, newest first; 404
/// when the document is not the agency's.
pub async fn mails_of(store: &Store, p: &Principal, object: MailObject) -> AppResult<Vec<MailRow>> {
    let agency_id = p.agency_id()?.clone();
    store
        .read(move |conn| -> AppResult<Vec<MailRow>> {
            match &object {
                MailObject::Quote(id) => {
                    quotes::get_in(conn, &agency_id, id)?;
                }
                MailObject::Invoice(id) => {
                    invoices::get_in(conn, &agency_id, id)?;
                }
                MailObject::Visit(id) => {
                    visits::get(conn, &agency_id, id)?;
                }
            }
            Ok(store::of_object(
                conn,
                &agency_id,
                object.object_type(),
                object.id(),
            )?)
        })
        .await
}

/// Asks again for a message that failed or was abandoned, and tries it at
/// once.
pub async fn retry(
    store: &Store,
    mail: &Arc<MailSync>,
    p: &Principal,
    id: &str,
) -> AppResult<MailRow> {
    p.require(Capability::Change)?;
    let agency_id = p.agency_id()?.clone();
    let (key, p2, agency) = (id.to_owned(), p.clone(), agency_id.clone());
    store
        .write(move |tx| -> AppResult<()> {
            let row = store::get(tx, &agency, &key)?
                .ok_or_else(|| AppError::not_found(NOT_FOUND_MAIL))?;
            if row.status == MailStatus::Envoye {
                return Err(AppError::conflict("Ce message est déjà envoyé."));
            }
            if !store::requeue(tx, &agency, &key, &tx.now_text())? {
                return Err(AppError::conflict(
                    "Ce message attend déjà son envoi : il part dès que possible.",
                ));
            }
            audit::record(
                tx,
                AuditEntry {
                    agency_id: Some(agency.as_str()),
                    actor: &p2.actor,
                    action: "renvoi_email",
                    object_type: &row.object_type,
                    object_id: Some(&row.object_id),
                    detail: Some(json!({ "mail": key })),
                },
            )?;
            Ok(())
        })
        .await?;
    first_attempt(mail, id).await;
    let key = id.to_owned();
    store
        .read(move |conn| store::get(conn, &agency_id, &key))
        .await?
        .ok_or_else(|| AppError::not_found(NOT_FOUND_MAIL))
}
