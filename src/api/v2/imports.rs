//! Imports of spreadsheets: `POST /api/v2/imports/files` (upload, with its
//! own body limit), `GET /api/v2/imports/{fileId}` (the file, the targets
//! with their fields and suggested mappings, where its check and import
//! stand), `POST /api/v2/imports/{fileId}/check` and
//! `POST /api/v2/imports/{fileId}/import`.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{DefaultBodyLimit, FromRequest, Request, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::extract::ApiPath;
use crate::api::json::{ApiJson, json_body_with_limit};
use crate::auth::api_token::ApiCaller;
use crate::error::{ApiError, AppError, AppResult, ErrorBody};
use crate::services::imports::fields::{Field, Target};
use crate::services::imports::file::MAX_FILE_BYTES;
use crate::services::imports::progress::{RunKind, RunSnapshot, RunStatus};
use crate::services::imports::run::{Action, RowReport};
use crate::services::imports::{self as imports_service, FILE_NOT_FOUND};
use crate::state::AppState;
use crate::store::imports::{self as store, ImportFileRow};

/// Largest body of `POST /imports/files`: a file of `MAX_FILE_BYTES` in
/// base64 (4/3 of it), with room for line breaks in the base64 and the JSON
/// around it.
pub const UPLOAD_BODY_MAX_BYTES: usize = MAX_FILE_BYTES / 2 * 3;

pub fn router() -> OpenApiRouter<AppState> {
    let upload = OpenApiRouter::new()
        .routes(routes!(upload_file))
        .layer(DefaultBodyLimit::max(UPLOAD_BODY_MAX_BYTES));
    OpenApiRouter::new()
        .merge(upload)
        .routes(routes!(import_file))
        .routes(routes!(check_import))
        .routes(routes!(run_import))
}

fn file_too_large() -> ApiError {
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
#[derive(Debug, Serialize, ToSchema)]
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

/// Envoyer un fichier à importer.
///
/// Un fichier `.csv` ou `.xlsx` d'au plus 32 Mio (une fois décodé), en
/// base64. Un classeur xlsx est lu sur sa première feuille ; un CSV en UTF-8
/// (avec ou sans BOM), UTF-16 avec BOM ou Windows-1252, séparé par `;`, `,`
/// ou une tabulation (reconnu sur la ligne d'en-tête), valeurs entre
/// guillemets pouvant contenir des retours à la ligne. La première ligne non
/// vide est l'en-tête ; au plus 100 000 lignes de données et 200 colonnes.
/// Les cellules sont lues comme un tableur les montre : nombres sans `.0`
/// final (séparateur décimal : le point), dates `AAAA-MM-JJ`.
///
/// Rien n'est importé à cette étape : le fichier est gardé 24 heures pour
/// la vérification (`POST /imports/{fileId}/check`) et l'import
/// (`POST /imports/{fileId}/import`), puis supprimé.
#[utoipa::path(
    post,
    path = "/imports/files",
    tag = "Imports",
    request_body(content = UploadBody, description = "Le fichier, en base64"),
    responses(
        (status = 201, description = "Fichier lu et gardé 24 heures", body = UploadedFile,
            links(
                ("lireFichier" = (
                    operation_id = "import_file",
                    parameters(("fileId" = "$response.body#/fileId")),
                    description = "Le fichier, ses cibles et la correspondance proposée"
                )),
                ("verifierFichier" = (
                    operation_id = "check_import",
                    parameters(("fileId" = "$response.body#/fileId")),
                    description = "Vérifier l'import du fichier"
                ))
            )
        ),
        (status = 413, description = "Fichier de plus de 32 Mio, ou classeur .xlsx de plus de 256 Mio une fois décompressé", body = ErrorBody),
        (status = 422, description = "Extension autre que .csv ou .xlsx, contenu qui n'est pas du base64, fichier illisible, feuille vide (sans en-tête ou sans ligne de données), colonne sans nom ou en double, plus de 100 000 lignes ou de 200 colonnes", body = ErrorBody),
    )
)]
async fn upload_file(
    State(state): State<AppState>,
    caller: ApiCaller,
    UploadJson(body): UploadJson,
) -> AppResult<(StatusCode, Json<UploadedFile>)> {
    Ok((
        StatusCode::CREATED,
        Json(file_upload(&state, &caller, body).await?),
    ))
}

/// Reads and stores an uploaded file in the acting agency.
pub async fn file_upload(
    state: &AppState,
    caller: &ApiCaller,
    body: UploadBody,
) -> AppResult<UploadedFile> {
    let uploader = imports_service::Uploader {
        agency_id: caller.require_agency()?.id.clone(),
        account_id: Some(caller.account.id.clone()),
        actor: caller.actor.clone(),
        now: state.now(),
    };
    // Decoding and reading are CPU work: off the async threads.
    let (name, table, content) = tokio::task::spawn_blocking(move || -> AppResult<_> {
        let (name, table) = imports_service::read_upload(&body.name, &body.content)?;
        let content = imports_service::encode_table(&table)?;
        Ok((name, table, content))
    })
    .await
    .map_err(|err| AppError::Internal(anyhow::anyhow!("lecture du fichier : {err}")))??;
    let row = state
        .store
        .write(move |tx| imports_service::store_upload(tx, &uploader, name, &table, &content))
        .await?;
    Ok(UploadedFile {
        file_id: row.id,
        name: row.name,
        columns: row.columns,
        rows: row.row_count,
    })
}

/// `en_cours`, `terminee` ou `echouee`.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
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
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunView {
    /// Cible : `equipment`, `clients` ou `contacts`.
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
#[derive(Debug, Serialize, ToSchema)]
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
    /// Les cibles possibles (`equipment`, `clients`, `contacts`), chacune avec ses champs et la correspondance que proposent les en-têtes du fichier.
    pub targets: Vec<TargetView>,
}

/// Un champ d'une cible, auquel une colonne peut être associée.
#[derive(Debug, Serialize, ToSchema)]
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
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TargetView {
    /// `equipment`, `clients` ou `contacts`.
    pub target: TargetCode,
    /// Les champs de la cible.
    pub fields: Vec<FieldView>,
    /// Colonne du fichier → champ, d'après les en-têtes (accents, casse et ponctuation ignorés) ; les colonnes sans correspondance n'y figurent pas.
    pub suggested_mapping: BTreeMap<String, String>,
}

/// Lire un fichier envoyé et suivre son import.
///
/// Le fichier (nom, colonnes, lignes, expiration) et, suivis pendant qu'ils
/// tournent, sa vérification et son import en cours ou derniers : lignes
/// traitées sur le total, comptes, statut. Un assistant d'import peut
/// l'interroger toutes les secondes pendant `POST /imports/{fileId}/import`
/// pour afficher une barre de progression. Un fichier expiré répond 404.
#[utoipa::path(
    get,
    path = "/imports/{fileId}",
    tag = "Imports",
    params(("fileId" = String, Path, description = "Identifiant du fichier (`fileId` de l'envoi)")),
    responses(
        (status = 200, description = "Le fichier et son suivi", body = ImportFileView),
        (status = 404, description = "Fichier inconnu dans l'agence, ou expiré", body = ErrorBody),
    )
)]
async fn import_file(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(file_id): ApiPath<String>,
) -> AppResult<Json<ImportFileView>> {
    Ok(Json(import_file_view(&state, &caller, file_id).await?))
}

/// The agency's file (404 when unknown there or expired).
pub async fn find_file(
    state: &AppState,
    caller: &ApiCaller,
    file_id: String,
) -> AppResult<ImportFileRow> {
    let agency_id = caller.require_agency()?.id.clone();
    let now = crate::clock::format_timestamp(state.now());
    state
        .store
        .read(move |conn| store::get(conn, &agency_id, &file_id, &now))
        .await?
        .ok_or_else(|| ApiError::not_found(FILE_NOT_FOUND))
}

/// `GET /imports/{fileId}`.
pub async fn import_file_view(
    state: &AppState,
    caller: &ApiCaller,
    file_id: String,
) -> AppResult<ImportFileView> {
    let file = find_file(state, caller, file_id).await?;
    let columns = file.columns.clone();
    let targets = state
        .store
        .read(move |conn| -> AppResult<Vec<TargetView>> {
            Target::ALL
                .into_iter()
                .map(|target| {
                    let (fields, suggested) = imports_service::suggestion(conn, target, &columns)?;
                    Ok(TargetView {
                        target: target.into(),
                        suggested_mapping: mapping_view(&columns, &fields, &suggested),
                        fields: fields.iter().map(FieldView::from).collect(),
                    })
                })
                .collect()
        })
        .await?;
    let run = |kind| state.imports.get(&file.id, kind).map(RunView::from);
    Ok(ImportFileView {
        targets,
        verification: run(RunKind::Verification),
        import: run(RunKind::Import),
        file_id: file.id,
        name: file.name,
        columns: file.columns,
        rows: file.row_count,
        created_at: file.created_at,
        expires_at: file.expires_at,
    })
}

/// Column → field id, for the mapped columns.
fn mapping_view(
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

/// `equipment` (le parc : équipements et leurs immeubles), `clients` ou
/// `contacts` (des clients de l'agence).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TargetCode {
    Equipment,
    Clients,
    Contacts,
}

impl From<TargetCode> for Target {
    fn from(code: TargetCode) -> Self {
        match code {
            TargetCode::Equipment => Target::Equipment,
            TargetCode::Clients => Target::Clients,
            TargetCode::Contacts => Target::Contacts,
        }
    }
}

impl From<Target> for TargetCode {
    fn from(target: Target) -> Self {
        match target {
            Target::Equipment => TargetCode::Equipment,
            Target::Clients => TargetCode::Clients,
            Target::Contacts => TargetCode::Contacts,
        }
    }
}

/// La cible et la correspondance des colonnes.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RunBody {
    /// Ce que deviennent les lignes : `equipment`, `clients` ou `contacts`.
    pub target: TargetCode,
    /// Colonne du fichier (nom exact de l'en-tête) → champ de la cible (`id` des champs de `GET /imports/{fileId}`), ou `null` pour ignorer la colonne ; les colonnes absentes sont ignorées. Absent : la correspondance proposée d'après les en-têtes.
    #[serde(default)]
    #[schema(value_type = Option<BTreeMap<String, Option<String>>>)]
    pub mapping: Option<BTreeMap<String, Option<String>>>,
}

/// `creation`, `mise_a_jour` ou `refus`.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
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
#[derive(Debug, Serialize, ToSchema)]
pub struct RowView {
    /// Numéro de la ligne dans le tableur (l'en-tête d'un fichier qui commence en haut est la ligne 1).
    pub row: u32,
    /// `creation`, `mise_a_jour` ou `refus`.
    pub action: ActionCode,
    /// L'objet créé ou mis à jour : identifiant de l'équipement ou du contact, `client_id` du client. Vérification : celui de l'objet mis à jour, `null` pour une création (rien n'est créé) ; `null` pour un refus.
    #[schema(required = true)]
    pub id: Option<String>,
    /// Champs modifiés par une mise à jour (vide s'il n'y a rien à changer, et pour une création : tous les champs associés y sont écrits) ; `immeuble` quand l'équipement est rattaché à un immeuble.
    pub changes: Vec<String>,
    /// Raisons du refus, en français, avec la colonne en cause (vide sinon).
    pub reasons: Vec<String>,
}

/// Le résultat d'une vérification ou d'un import, ligne par ligne.
#[derive(Debug, Serialize, ToSchema)]
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

/// Vérifier un fichier avant de l'importer.
///
/// Joue l'import entier dans une transaction annulée à la fin : rien n'est
/// écrit, et la réponse dit exactement ce que ferait l'import, ligne par
/// ligne (création, mise à jour avec les champs changés, ou refus avec ses
/// raisons en français, colonne nommée). Les règles sont celles du service :
/// identité d'équipement (`PATCH /equipment/{id}/identity`), données
/// techniques du catalogue (`PATCH /equipment/{id}`), clients et contacts de
/// l'API partenaire (`/update_client` : SIREN, SIRET, e-mail, statut,
/// catégories). Une cellule vide ne change rien.
///
/// Correspondance : équipements retrouvés par numéro (espaces et casse
/// ignorés), sinon par `externalId` ; clients par `client_id`, sinon SIRET,
/// sinon SIREN, sinon nom ; contacts par client puis nom, sinon e-mail.
///
/// Pendant la vérification, les autres écritures de l'agence attendent
/// qu'elle se termine ; son avancement se suit avec `GET /imports/{fileId}`.
#[utoipa::path(
    post,
    path = "/imports/{fileId}/check",
    tag = "Imports",
    params(("fileId" = String, Path, description = "Identifiant du fichier (`fileId` de l'envoi)")),
    request_body(content = RunBody, description = "La cible et la correspondance des colonnes"),
    responses(
        (status = 200, description = "Ce que ferait l'import, ligne par ligne", body = ImportReport),
        (status = 404, description = "Fichier inconnu dans l'agence, ou expiré", body = ErrorBody),
        (status = 409, description = "Une vérification ou un import de ce fichier est déjà en cours", body = ErrorBody),
        (status = 413, description = "Corps de requête trop volumineux", body = ErrorBody),
        (status = 422, description = "Cible inconnue ; correspondance qui nomme une colonne absente du fichier ou un champ inconnu, donne un champ à deux colonnes, ou n'associe pas les champs nécessaires à la cible", body = ErrorBody),
    )
)]
async fn check_import(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(file_id): ApiPath<String>,
    ApiJson(body): ApiJson<RunBody>,
) -> AppResult<Json<ImportReport>> {
    Ok(Json(
        import_pass(&state, &caller, file_id, body, RunKind::Verification).await?,
    ))
}

/// Importer un fichier.
///
/// La même passe que la vérification, enregistrée en UNE transaction :
/// toutes les lignes acceptées sont écrites, ou aucune (une erreur, un arrêt
/// du serveur au milieu ne laissent rien à moitié écrit) ; les lignes
/// refusées sont rapportées avec leurs raisons. Importer de nouveau le même
/// fichier met à jour au lieu de dupliquer. Réservé à un administrateur de
/// l'agence. L'avancement (lignes traitées sur le total) se suit pendant
/// l'import avec `GET /imports/{fileId}` ; les autres écritures de l'agence
/// attendent qu'il se termine.
#[utoipa::path(
    post,
    path = "/imports/{fileId}/import",
    tag = "Imports",
    params(("fileId" = String, Path, description = "Identifiant du fichier (`fileId` de l'envoi)")),
    request_body(content = RunBody, description = "La cible et la correspondance des colonnes"),
    responses(
        (status = 200, description = "Import enregistré : comptes et identifiants, ligne par ligne", body = ImportReport),
        (status = 403, description = "Réservé à un administrateur de l'agence (ou agence hors du périmètre)", body = ErrorBody),
        (status = 404, description = "Fichier inconnu dans l'agence, ou expiré", body = ErrorBody),
        (status = 409, description = "Une vérification ou un import de ce fichier est déjà en cours", body = ErrorBody),
        (status = 413, description = "Corps de requête trop volumineux", body = ErrorBody),
        (status = 422, description = "Cible inconnue ; correspondance qui nomme une colonne absente du fichier ou un champ inconnu, donne un champ à deux colonnes, ou n'associe pas les champs nécessaires à la cible", body = ErrorBody),
    )
)]
async fn run_import(
    State(state): State<AppState>,
    caller: ApiCaller,
    ApiPath(file_id): ApiPath<String>,
    ApiJson(body): ApiJson<RunBody>,
) -> AppResult<Json<ImportReport>> {
    Ok(Json(
        import_pass(&state, &caller, file_id, body, RunKind::Import).await?,
    ))
}

/// A check or an import of the agency's file.
pub async fn import_pass(
    state: &AppState,
    caller: &ApiCaller,
    file_id: String,
    body: RunBody,
    kind: RunKind,
) -> AppResult<ImportReport> {
    let agency_id = caller.require_agency()?.id.clone();
    if kind == RunKind::Import {
        crate::services::webhooks::require_admin(&caller.account, "Importer un fichier")?;
    }
    let target: Target = body.target.into();
    let mapping = body
        .mapping
        .map(|pairs| pairs.into_iter().collect::<Vec<_>>());
    let now = state.now();
    let prepared = state
        .store
        .read(move |conn| {
            imports_service::prepare(conn, &agency_id, &file_id, now, target, mapping)
        })
        .await?;
    let plan = prepared.plan;
    let rows_total = u64::try_from(plan.table.rows.len()).unwrap_or(u64::MAX);
    let guard = state.imports.start(
        &plan.file_id,
        kind,
        target.code(),
        rows_total,
        prepared.expires_at,
    )?;
    let actor = caller.actor.clone();
    let store = state.store.clone();
    // On its own blocking task: should the caller go away, the pass still
    // ends (committed or rolled back) and its status is still recorded.
    let commit = kind == RunKind::Import;
    let (plan, reports) = tokio::task::spawn_blocking(move || {
        let reports = imports_service::execute(&store, &plan, &actor, guard, commit);
        (plan, reports)
    })
    .await
    .map_err(|err| AppError::Internal(anyhow::anyhow!("import interrompu : {err}")))?;
    let reports = reports?;
    Ok(report_view(&plan, reports, commit))
}

fn report_view(
    plan: &crate::services::imports::run::Plan,
    reports: Vec<RowReport>,
    committed: bool,
) -> ImportReport {
    let count = |action| {
        u64::try_from(reports.iter().filter(|r| r.action == action).count()).unwrap_or(u64::MAX)
    };
    ImportReport {
        file_id: plan.file_id.clone(),
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
