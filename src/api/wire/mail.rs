//! Documents sent by e-mail and the outgoing server, on the wire: the
//! bodies and answers shared by the REST API v2 (`POST /quotes/{id}/send`,
//! `POST /invoices/{id}/send`, `…/mails`, `POST /visits/{id}/send-report`)
//! and the web application (the send dialog, the settings screen).

use rmcp::schemars;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::api::wire::{Created, RecordKind};
use crate::domain::id::{InvoiceId, QuoteId, VisitId};
use crate::error::AppResult;
use crate::principal::Principal;
use crate::services::mailing::{
    self as service, MailObject, SendInput, SendOptions, SettingsInput, SettingsView,
};
use crate::state::AppState;
use crate::store::mail::MailRow;

/// Statut d'un message.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)] // Only its schema is used: rows carry the stored code.
pub enum MailStatusWire {
    /// Écrit, pas encore parti (ou en attente du réseau, ou d'un serveur d'envoi réglé).
    EnAttente,
    /// Accepté par le serveur d'envoi.
    Envoye,
    /// Le dernier essai a échoué ; un nouvel essai est prévu (`nextAttemptAt`).
    Echec,
    /// Refusé pour de bon, ou essais épuisés : rien n'est plus tenté sans nouvelle demande.
    Abandonne,
}

/// Un destinataire.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct MailRecipientWire {
    pub name: String,
    pub email: String,
    /// Le contact du client, s'il a été choisi parmi eux.
    pub contact_id: Option<String>,
}

/// Un message envoyé (ou à envoyer) avec son document en pièce jointe.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct MailWire {
    pub id: String,
    /// `quote`, `invoice` ou `visit`.
    pub object_type: String,
    pub object_id: String,
    /// `en_attente`, `envoye`, `echec` ou `abandonne`.
    #[schema(value_type = MailStatusWire)]
    pub status: String,
    /// Le statut en français.
    pub status_label: String,
    /// L'expéditeur : le nom et l'adresse de l'agence.
    pub sender_name: String,
    pub sender_email: String,
    pub recipients: Vec<MailRecipientWire>,
    pub subject: String,
    /// Le nom du PDF joint.
    pub attachment_name: String,
    /// Sa taille, en octets.
    pub attachment_bytes: i64,
    /// Essais faits.
    pub attempts: i64,
    /// Prochain essai (UTC), pour un message en échec.
    pub next_attempt_at: Option<String>,
    /// La raison du dernier échec, ou de l'attente, en français.
    pub last_error: Option<String>,
    /// Qui l'a envoyé.
    pub created_by: Option<String>,
    pub created_at: String,
    /// Quand le serveur d'envoi l'a accepté.
    pub sent_at: Option<String>,
}

impl From<MailRow> for MailWire {
    fn from(row: MailRow) -> Self {
        Self {
            id: row.id,
            object_type: row.object_type,
            object_id: row.object_id,
            status: row.status.as_str().to_owned(),
            status_label: row.status.label().to_owned(),
            sender_name: row.sender_name,
            sender_email: row.sender_email,
            recipients: row
                .recipients
                .into_iter()
                .map(|r| MailRecipientWire {
                    name: r.name,
                    email: r.email,
                    contact_id: r.contact_id,
                })
                .collect(),
            subject: row.subject,
            attachment_name: row.attachment_name,
            attachment_bytes: row.attachment_bytes,
            attempts: row.attempts,
            next_attempt_at: row.next_attempt_at,
            last_error: row.last_error,
            created_by: row.created_by_name,
            created_at: row.created_at,
            sent_at: row.sent_at,
        }
    }
}

/// L'envoi d'un document. Sans `contactIds` (ou corps absent), l'envoi est
/// fait par un autre moyen (courrier, remise en main propre) : seul le
/// statut change, aucun message n'est écrit.
#[derive(Debug, Default, Deserialize, ToSchema, TS, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SendBody {
    /// Les contacts du client du document à qui l'envoyer (20 au plus),
    /// chacun avec une adresse e-mail.
    #[serde(default)]
    pub contact_ids: Vec<String>,
    /// L'objet du message (200 caractères au plus) ; par défaut « Facture
    /// F-2026-000012 — <agence> ».
    #[ts(optional)]
    pub subject: Option<String>,
    /// Le texte du message (10 000 caractères au plus) ; par défaut un texte
    /// en français signé par l'agence.
    #[ts(optional)]
    pub message: Option<String>,
}

impl From<SendBody> for SendInput {
    fn from(body: SendBody) -> Self {
        Self {
            contact_ids: body.contact_ids,
            subject: body.subject,
            message: body.message,
        }
    }
}

/// Le document envoyé : sa fiche, et le message s'il part par e-mail.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct SentDocument {
    pub id: String,
    /// Toujours `true`.
    pub ok: bool,
    pub link: String,
    pub url: String,
    /// Le message écrit, après son premier essai (null sans destinataire).
    pub mail: Option<MailWire>,
}

impl SentDocument {
    fn of(created: Created, mail: Option<MailRow>) -> Self {
        Self {
            id: created.id,
            ok: created.ok,
            link: created.link,
            url: created.url,
            mail: mail.map(MailWire::from),
        }
    }
}

/// `POST /quotes/{id}/send`.
pub async fn quote_send(
    state: &AppState,
    p: &Principal,
    id: &str,
    body: Option<SendBody>,
) -> AppResult<SentDocument> {
    let object = MailObject::Quote(QuoteId::new(id));
    let mail = service::send(
        &state.store,
        &state.mail,
        p,
        object,
        body.unwrap_or_default().into(),
    )
    .await?;
    let created = Created::new(RecordKind::Quote, &state.base_url, id);
    Ok(SentDocument::of(created, mail))
}

/// `POST /invoices/{id}/send`.
pub async fn invoice_send(
    state: &AppState,
    p: &Principal,
    id: &InvoiceId,
    body: Option<SendBody>,
) -> AppResult<SentDocument> {
    let object = MailObject::Invoice(id.clone());
    let mail = service::send(
        &state.store,
        &state.mail,
        p,
        object,
        body.unwrap_or_default().into(),
    )
    .await?;
    let created = Created::new(RecordKind::Invoice, &state.base_url, id.as_str());
    Ok(SentDocument::of(created, mail))
}

/// `POST /visits/{id}/send-report`: the report of a done visit.
pub async fn visit_report_send(
    state: &AppState,
    p: &Principal,
    id: &VisitId,
    body: SendBody,
) -> AppResult<MailWire> {
    let object = MailObject::Visit(id.clone());
    let mail = service::send(&state.store, &state.mail, p, object, body.into()).await?;
    mail.map(MailWire::from).ok_or_else(|| {
        crate::error::AppError::Internal(anyhow::anyhow!("rapport envoyé sans message")).into()
    })
}

/// `GET /…/{id}/mails`.
pub async fn mails(
    state: &AppState,
    p: &Principal,
    object: MailObject,
) -> AppResult<Vec<MailWire>> {
    let rows = service::mails_of(&state.store, p, object).await?;
    Ok(rows.into_iter().map(MailWire::from).collect())
}

/// `POST /mails/{id}/retry`.
pub async fn retry(state: &AppState, p: &Principal, id: &str) -> AppResult<MailWire> {
    Ok(MailWire::from(
        service::retry(&state.store, &state.mail, p, id).await?,
    ))
}

/// Un contact proposé dans la boîte d'envoi.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ContactChoiceWire {
    pub id: String,
    pub name: String,
    /// Sans adresse, il ne peut être choisi.
    pub email: Option<String>,
    pub role: Option<String>,
}

/// Ce que la boîte d'envoi propose.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct SendOptionsWire {
    pub contacts: Vec<ContactChoiceWire>,
    pub sender_name: String,
    /// L'adresse de l'agence ; null : à renseigner dans Agence › Identité.
    pub sender_email: Option<String>,
    /// Un serveur d'envoi est réglé.
    pub server_configured: bool,
    pub subject: String,
    pub message: String,
    pub attachment_name: String,
}

impl From<SendOptions> for SendOptionsWire {
    fn from(o: SendOptions) -> Self {
        Self {
            contacts: o
                .contacts
                .into_iter()
                .map(|c| ContactChoiceWire {
                    id: c.id,
                    name: c.name,
                    email: c.email,
                    role: c.role,
                })
                .collect(),
            sender_name: o.sender_name,
            sender_email: o.sender_email,
            server_configured: o.server_configured,
            subject: o.subject,
            message: o.message,
            attachment_name: o.attachment_name,
        }
    }
}

/// `GET /…/{id}/send-options`.
pub async fn send_options(
    state: &AppState,
    p: &Principal,
    object: MailObject,
) -> AppResult<SendOptionsWire> {
    Ok(SendOptionsWire::from(
        service::send_options(&state.store, p, object).await?,
    ))
}

/// Le serveur d'envoi de l'organisation (jamais son mot de passe).
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct MailSettingsWire {
    pub configured: bool,
    pub host: Option<String>,
    pub port: Option<u16>,
    /// `starttls`, `tls` ou `aucune`.
    pub security: String,
    pub security_label: String,
    pub username: Option<String>,
    /// Un mot de passe est enregistré (chiffré).
    pub password_set: bool,
    pub updated_at: Option<String>,
}

impl From<SettingsView> for MailSettingsWire {
    fn from(v: SettingsView) -> Self {
        Self {
            configured: v.configured,
            host: v.host,
            port: v.port,
            security: v.security.as_str().to_owned(),
            security_label: v.security.label().to_owned(),
            username: v.username,
            password_set: v.password_set,
            updated_at: v.updated_at,
        }
    }
}

/// Les réglages du serveur d'envoi.
#[derive(Debug, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MailSettingsBody {
    /// Le serveur (smtp.exemple.fr).
    pub host: String,
    /// Par défaut celui de la sécurité choisie (587, 465 ou 25).
    #[ts(optional)]
    pub port: Option<u32>,
    /// `starttls`, `tls` ou `aucune`.
    pub security: String,
    #[ts(optional)]
    pub username: Option<String>,
    /// Absent : le mot de passe enregistré est gardé ; vide : il est effacé.
    /// Sans `username` (pas d'identification), aucun mot de passe n'est
    /// gardé.
    #[ts(optional)]
    pub password: Option<String>,
}

impl From<MailSettingsBody> for SettingsInput {
    fn from(b: MailSettingsBody) -> Self {
        Self {
            host: b.host,
            port: b.port,
            security: b.security,
            username: b.username,
            password: b.password,
        }
    }
}

/// Le message d'essai.
#[derive(Debug, Default, Deserialize, ToSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MailTestBody {
    /// Par défaut l'adresse de la personne connectée.
    #[ts(optional)]
    pub to: Option<String>,
}

/// L'essai a réussi.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct MailTestSent {
    pub ok: bool,
    /// L'adresse à laquelle le message d'essai est parti.
    pub sent_to: String,
}

pub async fn settings_read(state: &AppState, p: &Principal) -> AppResult<MailSettingsWire> {
    Ok(MailSettingsWire::from(
        service::settings(&state.store, p).await?,
    ))
}

pub async fn settings_save(
    state: &AppState,
    p: &Principal,
    body: MailSettingsBody,
) -> AppResult<MailSettingsWire> {
    Ok(MailSettingsWire::from(
        service::save_settings(&state.store, &state.mail, p, body.into()).await?,
    ))
}

pub async fn settings_test(
    state: &AppState,
    p: &Principal,
    body: Option<MailTestBody>,
) -> AppResult<MailTestSent> {
    let to = body.and_then(|b| b.to);
    let sent_to = service::test_settings(&state.store, &state.mail, p, to).await?;
    Ok(MailTestSent { ok: true, sent_to })
}
