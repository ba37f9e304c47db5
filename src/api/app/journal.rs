//! `/app/api/journal`: the « Journal » screen (administrators) and each
//! record's history (every staff member, for the agency's records), through
//! `services::journal`: who changed what and when, newest first, filtered
//! by object, person and period, continued page after page.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::api::extract::ApiQuery;
use crate::auth::staff_session::StaffSession;
use crate::error::{ApiError, AppResult};
use crate::services::journal::{
    self as service, JournalQuery, OBJECT_TYPES, Reference, action_label, actor_kind_label,
    object_type_label,
};
use crate::state::AppState;
use crate::store::audit::JournalRow;

pub fn router() -> Router<AppState> {
    Router::new().route("/journal", get(page))
}

/// Qui a agi.
#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JournalActor {
    /// `account`, `api_token`, `call_center_key`, `partner_key`, `cli`, `system`.
    kind: String,
    kind_label: String,
    /// Le compte du personnel, le jeton ou la clé.
    id: Option<String>,
    /// Le nom de la personne, du jeton ou de la clé.
    name: Option<String>,
    /// Le titulaire d'un jeton d'API ; le centre d'une clé de centre d'appels.
    owner: Option<String>,
}

/// Une entrée du journal.
#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JournalEntryWire {
    seq: i64,
    /// Date et heure (UTC).
    at: String,
    actor: JournalActor,
    /// Ce qui a été fait (`creation`, `modification`, `emission`…).
    action: String,
    /// Le même en clair (« Création », « Changement de client »…).
    action_label: String,
    object_type: String,
    object_type_label: String,
    object_id: Option<String>,
    /// L'objet en clair quand le journal le connaît (numéro, nom…).
    object_label: Option<String>,
    /// Le détail enregistré (avant/après, champs…).
    #[ts(type = "unknown")]
    detail: Value,
}

impl From<JournalRow> for JournalEntryWire {
    fn from(row: JournalRow) -> Self {
        Self {
            seq: row.seq,
            at: row.at,
            actor: JournalActor {
                kind_label: actor_kind_label(&row.actor_kind).to_owned(),
                kind: row.actor_kind,
                id: row.actor_id,
                name: row.actor_name,
                owner: row.actor_owner,
            },
            action_label: action_label(&row.action),
            action: row.action,
            object_type_label: object_type_label(&row.object_type).to_owned(),
            object_type: row.object_type,
            object_id: row.object_id,
            object_label: row.object_label,
            detail: row
                .detail
                .and_then(|d| serde_json::from_str(&d).ok())
                .unwrap_or(Value::Null),
        }
    }
}

/// Un type d'objet du filtre.
#[derive(Serialize, TS, Debug)]
pub(crate) struct ObjectTypeChoice {
    code: String,
    label: String,
}

/// Un enregistrement qu'un détail nomme par son identifiant (le technicien
/// d'une visite, le client d'un équipement…), en clair.
#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JournalReference {
    /// L'identifiant tel que le détail l'enregistre.
    id: String,
    /// `equipment`, `client`, `building`, `technician`, `quote`, `invoice`,
    /// `call`, `survey`, `account` ou `agency`.
    object_type: String,
    /// Son nom : numéro, nom, adresse…
    label: String,
    /// Sa page dans l'application, quand elle en a une.
    path: Option<String>,
}

impl From<Reference> for JournalReference {
    fn from(reference: Reference) -> Self {
        let page = |base: &str, key: &str| Some(super::page_path(base, key));
        let path = match reference.object_type {
            "equipment" => page("/equipements", &reference.id),
            "client" => reference
                .record
                .client_ref
                .as_deref()
                .and_then(|r| page("/clients", r)),
            "building" => page("/immeubles", &reference.id),
            "quote" => page("/devis", &reference.id),
            "invoice" => page("/factures", &reference.id),
            "call" => page("/appels", &reference.id),
            "survey" => page("/releves", &reference.id),
            _ => None,
        };
        Self {
            object_type: reference.object_type.to_owned(),
            label: reference.record.label,
            id: reference.id,
            path,
        }
    }
}

#[derive(Serialize, TS, Debug)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JournalAnswer {
    entries: Vec<JournalEntryWire>,
    /// Les enregistrements que les détails de la page nomment par leur identifiant.
    references: Vec<JournalReference>,
    /// À passer en `before` pour la page suivante ; absent à la fin.
    next: Option<i64>,
    object_types: Vec<ObjectTypeChoice>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PageParams {
    object_type: Option<String>,
    object_id: Option<String>,
    account_id: Option<String>,
    from: Option<String>,
    to: Option<String>,
    before: Option<String>,
    limit: Option<String>,
}

fn number(field: &str, value: Option<String>) -> AppResult<Option<i64>> {
    value
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
        .map(|v| {
            v.parse::<i64>().map_err(|_| {
                ApiError::unprocessable(format!(
                    "Le champ « {field} » doit être un nombre entier : « {v} »."
                ))
            })
        })
        .transpose()
}

async fn page(
    State(state): State<AppState>,
    session: StaffSession,
    ApiQuery(params): ApiQuery<PageParams>,
) -> AppResult<Json<JournalAnswer>> {
    session.require_agency()?;
    let limit = number("limit", params.limit)?.map(|n| u32::try_from(n).unwrap_or(u32::MAX));
    let query = JournalQuery {
        object_type: params.object_type,
        object_id: params.object_id,
        account_id: params.account_id,
        from: params.from,
        to: params.to,
        before: number("before", params.before)?,
        limit,
    };
    let page = service::page(&state.store, &session.principal(), query).await?;
    Ok(Json(JournalAnswer {
        entries: page.entries.into_iter().map(Into::into).collect(),
        references: page.references.into_iter().map(Into::into).collect(),
        next: page.next,
        object_types: OBJECT_TYPES
            .iter()
            .map(|(code, label)| ObjectTypeChoice {
                code: (*code).to_owned(),
                label: (*label).to_owned(),
            })
            .collect(),
    }))
}
