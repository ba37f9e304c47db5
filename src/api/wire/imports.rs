//! The JSON of `imports` shared by the REST API v2 (`api::v2::imports`, which keeps
//! only its handlers and their OpenAPI description), the MCP tools and the
//! web application: the bodies they accept, the records they answer with,
//! and the calls of the operations for a `Principal`, mapped to that JSON.

use std::collections::BTreeMap;
use ts_rs::TS;

use axum::extract::{FromRequest, Request};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::json::json_body_with_limit;
use crate::domain::id::ImportId;
use crate::error::{ApiError, AppResult};
use crate::principal::Principal;
use crate::services::imports::fields::{Field, Target};
use crate::services::imports::file::MAX_FILE_BYTES;
use crate::services::imports::progress::{RunKind, RunSnapshot, RunStatus};
use crate::services::imports::run::{Action, RowReport};
use crate::services::imports::{self as imports_service};
use crate::state::AppState;
use crate::store::imports::ImportFileRow;

/// Largest body of `POST /imports/files`: a file of `MAX_FILE_BYTES` in
/// base64 (4/3 of it), with room for line breaks in the base64 and the JSON
/// around it.
pub const UPLOAD_BODY_MAX_BYTES: usize = MAX_FILE_BYTES / 2 * 3;

pub(crate) fn file_too_large() -> ApiError {
    ApiError::payload_too_large(format!(
        "Le fichier dépasse la taille maximale acceptée ({} Mio).",
        MAX_FILE_BYTES / (1024 * 1024)
    ))
}

/// Envoi d'un fichier à importer.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UploadBody {
    /// Nom du fichier, avec son extension `.csv` ou `.xlsx` (majuscules ou minuscules).
    #[schema(max_length = 255, example = "parc.xlsx")]
    pub name: String,
    /// Contenu du fichier encodé en base64 (alphabet standard, remplissage `=` facultatif, retours à la ligne ignorés) ; au plus 32 Mio une fois décodé.
    #[schema(content_encoding = "base64")]
    pub content: String,
}

/// The upload body, read with the route's own limit and 413 reason.
pub struct UploadJson(pub UploadBody);

impl FromRequest<AppState> for UploadJson {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        json_body_with_limit(req, state, file_too_large)
            .await
            .map(UploadJson)
    }
}

/// Le fichier reçu, tel qu'il a été lu. Rien n'est encore importé.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct UploadedFile {
    /// Identifiant du fichier, pour la vérification et l'import.
    pub file_id: String,
    /// Nom du fichier, tel qu'envoyé.
    pub name: String,
    /// La ligne d'en-tête lue : le nom de chaque colonne.
    pub columns: Vec<String>,
    /// Nombre de lignes de données (lignes vides non comptées).
    pub rows: i64,
}

/// Reads and stores an uploaded file in the acting agency.
pub async fn file_upload(
    state: &AppState,
    caller: &Principal,
    body: UploadBody,
) -> AppResult<UploadedFile> {
    let row = imports_service::upload(&state.store, caller, body.name, body.content).await?;
    Ok(UploadedFile {
        file_id: row.id.into_string(),
        name: row.name,
        columns: row.columns,
        rows: row.row_count,
    })
}

/// `en_cours`, `terminee` ou `echouee`.
#[derive(Debug, Clone, Copy, Serialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum RunStatusCode {
    EnCours,
    Terminee,
    Echouee,
}

impl From<RunStatus> for RunStatusCode {
    fn from(status: RunStatus) -> Self {
        match status {
            RunStatus::Running => Self::EnCours,
            RunStatus::Done => Self::Terminee,
            RunStatus::Failed => Self::Echouee,
        }
    }
}

/// Où en est une vérification ou un import (suivi en mémoire : un
/// redémarrage du serveur l'oublie).
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunView {
    /// Cible : `equipment`, `clients`, `contacts`, `contracts` ou `price_indexes`.
    pub target: String,
    /// `en_cours` ; `terminee` (vérification répondue, import enregistré) ; `echouee` (arrêt sur une erreur : un import n'a alors rien enregistré).
    pub status: RunStatusCode,
    /// Lignes traitées jusqu'ici.
    pub rows_processed: u64,
    /// Lignes de données du fichier.
    pub rows_total: u64,
    /// Lignes traitées qui créent.
    pub created: u64,
    /// Lignes traitées qui mettent à jour.
    pub updated: u64,
    /// Lignes traitées refusées.
    pub refused: u64,
    /// Début (UTC).
    pub started_at: String,
    /// Fin (UTC), ou `null` tant qu'elle est en cours.
    #[schema(required = true)]
    pub finished_at: Option<String>,
}

impl From<RunSnapshot> for RunView {
    fn from(run: RunSnapshot) -> Self {
        Self {
            target: run.target.to_owned(),
            status: run.status.into(),
            rows_processed: run.rows_processed,
            rows_total: run.rows_total,
            created: run.created,
            updated: run.updated,
            refused: run.refused,
            started_at: run.started_at,
            finished_at: run.finished_at,
        }
    }
}

/// Un fichier envoyé, et où en sont sa vérification et son import.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportFileView {
    /// Identifiant du fichier.
    pub file_id: String,
    /// Nom du fichier, tel qu'envoyé.
    pub name: String,
    /// La ligne d'en-tête lue.
    pub columns: Vec<String>,
    /// Nombre de lignes de données.
    pub rows: i64,
    /// Envoi (UTC).
    pub created_at: String,
    /// Expiration (UTC) : 24 heures après l'envoi ; le fichier est ensuite supprimé.
    pub expires_at: String,
    /// La vérification en cours ou la dernière, ou `null`.
    #[schema(required = true)]
    pub verification: Option<RunView>,
    /// L'import en cours ou le dernier, ou `null`.
    #[schema(required = true)]
    pub import: Option<RunView>,
    /// Les cibles possibles (`equipment`, `clients`, `contacts`, `contracts`, `price_indexes`), chacune avec ses champs et la correspondance que proposent les en-têtes du fichier.
    pub targets: Vec<TargetView>,
}

/// Un champ d'une cible, auquel une colonne peut être associée.
#[derive(Debug, Serialize, ToSchema, TS)]
#[ts(rename = "ImportFieldView")]
pub struct FieldView {
    /// Clé du champ dans `mapping`.
    pub id: String,
    /// Nom du champ, en français.
    pub label: String,
}

impl From<&Field> for FieldView {
    fn from(field: &Field) -> Self {
        Self {
            id: field.id.clone(),
            label: field.label.clone(),
        }
    }
}

/// Une cible d'import, ses champs et la correspondance proposée pour ce fichier.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct TargetView {
    /// `equipment`, `clients`, `contacts`, `contracts` ou `price_indexes`.
    pub target: TargetCode,
    /// Les champs de la cible.
    pub fields: Vec<FieldView>,
    /// Colonne du fichier → champ, d'après les en-têtes (accents, casse et ponctuation ignorés) ; les colonnes sans correspondance n'y figurent pas.
    pub suggested_mapping: BTreeMap<String, String>,
}

/// The agency's file (404 when unknown there or expired).
pub async fn find_file(
    state: &AppState,
    caller: &Principal,
    file_id: ImportId,
) -> AppResult<ImportFileRow> {
    Ok(imports_service::find_file(&state.store, caller, &file_id).await?)
}

/// `GET /imports/{fileId}`.
pub async fn import_file_view(
    state: &AppState,
    caller: &Principal,
    file_id: ImportId,
) -> AppResult<ImportFileView> {
    let (file, suggestions) =
        imports_service::file_with_suggestions(&state.store, caller, &file_id).await?;
    let targets = suggestions
        .into_iter()
        .map(|(target, fields, suggested)| TargetView {
            target: target.into(),
            suggested_mapping: mapping_view(&file.columns, &fields, &suggested),
            fields: fields.iter().map(FieldView::from).collect(),
        })
        .collect();
    let run = |kind| state.imports.get(&file.id, kind).map(RunView::from);
    Ok(ImportFileView {
        targets,
        verification: run(RunKind::Verification),
        import: run(RunKind::Import),
        file_id: file.id.into_string(),
        name: file.name,
        columns: file.columns,
        rows: file.row_count,
        created_at: file.created_at,
        expires_at: file.expires_at,
    })
}

/// Column → field id, for the mapped columns.
pub(crate) fn mapping_view(
    columns: &[String],
    fields: &[Field],
    mapping: &[Option<usize>],
) -> BTreeMap<String, String> {
    columns
        .iter()
        .zip(mapping)
        .filter_map(|(column, field)| Some((column.clone(), fields.get((*field)?)?.id.clone())))
        .collect()
}

/// `equipment` (le parc : équipements et leurs immeubles), `clients`,
/// `contacts` (des clients de l'agence), `contracts` (contrats
/// d'entretien, créés en brouillon ; tous ou aucun) ou `price_indexes`
/// (valeurs mensuelles des indices de révision : BT48, ICHT-IME… ; toutes
/// ou aucune).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum TargetCode {
    Equipment,
    Clients,
    Contacts,
    Contracts,
    PriceIndexes,
}

impl From<TargetCode> for Target {
    fn from(code: TargetCode) -> Self {
        match code {
            TargetCode::Equipment => Target::Equipment,
            TargetCode::Clients => Target::Clients,
            TargetCode::Contacts => Target::Contacts,
            TargetCode::Contracts => Target::Contracts,
            TargetCode::PriceIndexes => Target::PriceIndexes,
        }
    }
}

impl From<Target> for TargetCode {
    fn from(target: Target) -> Self {
        match target {
            Target::Equipment => TargetCode::Equipment,
            Target::Clients => TargetCode::Clients,
            Target::Contacts => TargetCode::Contacts,
            Target::Contracts => TargetCode::Contracts,
            Target::PriceIndexes => TargetCode::PriceIndexes,
        }
    }
}

/// La cible et la correspondance des colonnes.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RunBody {
    /// Ce que deviennent les lignes : `equipment`, `clients`, `contacts`, `contracts` (un contrat d'entretien en brouillon par ligne) ou `price_indexes` (la valeur d'un indice pour un mois par ligne).
    pub target: TargetCode,
    /// Colonne du fichier (nom exact de l'en-tête) → champ de la cible (`id` des champs de `GET /imports/{fileId}`), ou `null` pour ignorer la colonne ; les colonnes absentes sont ignorées. Absent : la correspondance proposée d'après les en-têtes.
    #[serde(default)]
    #[schema(value_type = Option<BTreeMap<String, Option<String>>>)]
    pub mapping: Option<BTreeMap<String, Option<String>>>,
}

/// `creation`, `mise_a_jour` ou `refus`.
#[derive(Debug, Clone, Copy, Serialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum ActionCode {
    Creation,
    MiseAJour,
    Refus,
}

impl From<Action> for ActionCode {
    fn from(action: Action) -> Self {
        match action {
            Action::Create => Self::Creation,
            Action::Update => Self::MiseAJour,
            Action::Refuse => Self::Refus,
        }
    }
}

/// Ce que fait (vérification) ou a fait (import) une ligne du fichier.
#[derive(Debug, Serialize, ToSchema, TS)]
pub struct RowView {
    /// Numéro de la ligne dans le tableur (l'en-tête d'un fichier qui commence en haut est la ligne 1).
    pub row: u32,
    /// `creation`, `mise_a_jour` ou `refus`.
    pub action: ActionCode,
    /// L'objet créé ou mis à jour : identifiant de l'équipement, du contact ou du contrat, `client_id` du client, `INDICE/AAAA-MM` d'une valeur d'indice (`BT48/2026-01`). Vérification : celui de l'objet mis à jour, `null` pour une création (rien n'est créé) ; `null` pour un refus.
    #[schema(required = true)]
    pub id: Option<String>,
    /// Champs modifiés par une mise à jour (vide s'il n'y a rien à changer, et pour une création : tous les champs associés y sont écrits) ; `immeuble` quand l'équipement est rattaché à un immeuble ; `valeur` quand la valeur d'un indice est corrigée.
    pub changes: Vec<String>,
    /// Raisons du refus, en français, avec la colonne en cause (vide sinon).
    pub reasons: Vec<String>,
}

/// Le résultat d'une vérification ou d'un import, ligne par ligne.
#[derive(Debug, Serialize, ToSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    /// Identifiant du fichier.
    pub file_id: String,
    /// La cible.
    pub target: TargetCode,
    /// La correspondance appliquée : colonne → champ.
    pub mapping: BTreeMap<String, String>,
    /// Les colonnes ignorées (associées à aucun champ).
    pub ignored_columns: Vec<String>,
    /// Lignes de données du fichier.
    pub rows_total: u64,
    /// Lignes qui créent (vérification) ou ont créé (import).
    pub created: u64,
    /// Lignes qui mettent (ont mis) à jour.
    pub updated: u64,
    /// Lignes refusées : rien n'en est écrit.
    pub refused: u64,
    /// Chaque ligne de données, dans l'ordre du fichier.
    pub rows: Vec<RowView>,
}

/// A check or an import of the agency's file.
pub async fn import_pass(
    state: &AppState,
    caller: &Principal,
    file_id: ImportId,
    body: RunBody,
    kind: RunKind,
) -> AppResult<ImportReport> {
    let mapping = body
        .mapping
        .map(|pairs| pairs.into_iter().collect::<Vec<_>>());
    let (plan, reports) = imports_service::pass(
        &state.store,
        &state.imports,
        caller,
        &file_id,
        body.target.into(),
        mapping,
        kind,
    )
    .await?;
    Ok(report_view(&plan, reports, kind == RunKind::Import))
}

pub(crate) fn report_view(
    plan: &crate::services::imports::run::Plan,
    reports: Vec<RowReport>,
    committed: bool,
) -> ImportReport {
    let count = |action| {
        u64::try_from(reports.iter().filter(|r| r.action == action).count()).unwrap_or(u64::MAX)
    };
    ImportReport {
        file_id: plan.file_id.to_string(),
        target: plan.target.into(),
        mapping: mapping_view(&plan.table.columns, &plan.fields, &plan.mapping),
        ignored_columns: plan
            .table
            .columns
            .iter()
            .zip(&plan.mapping)
            .filter(|(_, field)| field.is_none())
            .map(|(column, _)| column.clone())
            .collect(),
        rows_total: u64::try_from(plan.table.rows.len()).unwrap_or(u64::MAX),
        created: count(Action::Create),
        updated: count(Action::Update),
        refused: count(Action::Refuse),
        rows: reports
            .into_iter()
            .map(|report| RowView {
                row: report.row,
                action: report.action.into(),
                id: match report.action {
                    Action::Create if !committed => None,
                    _ => report.id,
                },
                changes: report.changes,
                reasons: report.reasons,
            })
            .collect(),
    }
}
