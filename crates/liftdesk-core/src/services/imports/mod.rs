//! Imports of spreadsheets (`/api/v2/imports`): an agency uploads a CSV or
//! xlsx file (`file` reads it into a table, stored in `import_files` for
//! `FILE_LIFETIME_HOURS`), then checks it against a target (equipment,
//! clients, contacts, contracts, price indexes' values) with a mapping of
//! its columns, then imports it.

pub mod fields;
pub mod file;
pub mod progress;
pub mod run;

use crate::domain::id::{AccountId, AgencyId, ImportId};
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::clock;
use crate::error::{AppError, AppResult};
use crate::principal::{Capability, Principal};
use crate::store::Conn;
use crate::store::Store;
use crate::store::audit::{self, Actor, AuditEntry};
use crate::store::imports::{self as store, ImportFileRow};
use crate::store::technical_fields;
use fields::{Field, Target};
use file::{Table, TableRow};
use progress::{ImportRuns, RunGuard, RunKind, RunStatus};
use run::{Plan, RowReport};

use crate::store::Tx;

/// How long an uploaded file is kept: 24 hours after its upload, then it
/// answers 404 and is deleted.
pub const FILE_LIFETIME_HOURS: i64 = 24;

pub const FILE_NOT_FOUND: &str = "Fichier d'import introuvable (inconnu dans cette agence, ou expiré : un fichier est gardé 24 heures après son envoi).";

/// What `import_files.content` holds: the table as read (the header is the
/// `columns` column).
#[derive(Debug, Serialize, Deserialize)]
struct StoredTable {
    letters: Vec<String>,
    rows: Vec<TableRow>,
}

/// Reads an upload into its table: the name's extension first (422), then
/// the base64 content (422, or 413 past `file::MAX_FILE_BYTES`), then the
/// file itself (422). CPU work: run it on a blocking thread.
pub fn read_upload(name: &str, content: &str) -> AppResult<(String, Table)> {
    let kind = file::kind_of(name)?;
    let bytes = file::decode_content(content)?;
    let name = name.trim().to_owned();
    let table = file::read(kind, &name, &bytes)?;
    Ok((name, table))
}

/// The bytes stored for a table.
pub fn encode_table(table: &Table) -> AppResult<Vec<u8>> {
    serde_json::to_vec(&StoredTable {
        letters: table.letters.clone(),
        rows: table.rows.clone(),
    })
    .map_err(|err| AppError::Internal(anyhow::Error::new(err).context("fichier d'import")))
}

/// The table of a stored file.
pub fn decode_table(file: &ImportFileRow, content: &[u8]) -> AppResult<Table> {
    let stored: StoredTable = serde_json::from_slice(content)
        .map_err(|err| AppError::Internal(anyhow::Error::new(err).context("fichier d'import")))?;
    Ok(Table {
        columns: file.columns.clone(),
        letters: stored.letters,
        rows: stored.rows,
    })
}

/// Who uploads a file, where, when.
#[derive(Debug, Clone)]
pub struct Uploader {
    pub agency_id: String,
    pub account_id: Option<AccountId>,
    pub actor: Actor,
    pub now: DateTime<Utc>,
}

/// Stores a file read from an upload for the agency, expiring
/// `FILE_LIFETIME_HOURS` after `now`, with its audit entry.
pub fn store_upload(
    tx: &Tx,
    uploader: &Uploader,
    name: String,
    table: &Table,
    content: &[u8],
) -> AppResult<ImportFileRow> {
    let Uploader {
        agency_id,
        account_id,
        actor,
        now,
    } = uploader;
    let agency_id = agency_id.as_str();
    let now = *now;
    let row = ImportFileRow {
        id: ImportId::new(crate::store::new_id()),
        agency_id: agency_id.to_owned(),
        name,
        columns: table.columns.clone(),
        row_count: i64::try_from(table.rows.len()).unwrap_or(i64::MAX),
        created_by: account_id.clone(),
        created_at: clock::format_timestamp(now),
        expires_at: clock::format_timestamp(now + Duration::hours(FILE_LIFETIME_HOURS)),
    };
    store::insert(tx, &row, content)?;
    audit::record(
        tx,
        AuditEntry {
            agency_id: Some(agency_id),
            actor,
            action: "envoi_fichier_import",
            object_type: "import_file",
            object_id: Some(row.id.as_str()),
            detail: Some(json!({
                "name": row.name,
                "columns": row.columns.len(),
                "rows": row.row_count,
                "bytes": content.len(),
            })),
        },
    )?;
    Ok(row)
}

/// Deletes the files expired at `now` (one audit entry when there were any).
pub fn purge_expired(tx: &Tx, now: DateTime<Utc>) -> AppResult<usize> {
    let deleted = store::delete_expired(tx, &clock::format_timestamp(now))?;
    if deleted > 0 {
        audit::record(
            tx,
            AuditEntry {
                agency_id: None,
                actor: &Actor::System,
                action: "purge_fichiers_import",
                object_type: "import_file",
                object_id: None,
                detail: Some(json!({ "deleted": deleted })),
            },
        )?;
    }
    Ok(deleted)
}

/// The fields of a target and the mapping its headers suggest: (field
/// index of each column).
pub fn suggestion(
    conn: &Conn,
    target: Target,
    columns: &[String],
) -> AppResult<(Vec<Field>, Vec<Option<usize>>)> {
    let catalog = technical_fields::all(conn)?;
    let fields = fields::fields(target, &catalog);
    let suggested = fields::suggest(columns, &fields);
    Ok((fields, suggested))
}

/// A pass ready to run, with the mapping its headers suggest.
#[derive(Debug)]
pub struct Prepared {
    pub plan: Plan,
    pub suggested: Vec<Option<usize>>,
    pub expires_at: DateTime<Utc>,
}

/// Loads the agency's file (404 when unknown there or expired at `now`) and
/// checks the mapping sent for the target (422), or takes the suggested one
/// when none is sent.
pub fn prepare(
    conn: &Conn,
    agency_id: &AgencyId,
    file_id: &ImportId,
    now: DateTime<Utc>,
    target: Target,
    mapping: Option<Vec<(String, Option<String>)>>,
) -> AppResult<Prepared> {
    let now_text = clock::format_timestamp(now);
    let file = store::get(conn, agency_id, file_id, &now_text)?
        .ok_or_else(|| AppError::not_found(FILE_NOT_FOUND))?;
    let content = store::content(conn, agency_id, file_id, &now_text)?
        .ok_or_else(|| AppError::not_found(FILE_NOT_FOUND))?;
    let table = decode_table(&file, &content)?;
    let (fields, suggested) = suggestion(conn, target, &table.columns)?;
    let mapping = match mapping {
        Some(pairs) => fields::check_mapping(target, &table.columns, &fields, &pairs)?,
        None => {
            fields::check_required(target, &fields, &suggested).map_err(|err| {
                AppError::unprocessable(format!(
                    "{} Aucune correspondance n'a été envoyée et celle que proposent les en-têtes ne suffit pas : envoyez le champ « mapping » (colonne → champ).",
                    err.public_message()
                ))
            })?;
            suggested.clone()
        }
    };
    let expires_at = clock::parse_timestamp(&file.expires_at).unwrap_or(now);
    Ok(Prepared {
        plan: Plan {
            file_id: file.id,
            agency_id: agency_id.to_owned(),
            target,
            fields,
            mapping,
            table,
        },
        suggested,
        expires_at,
    })
}

/// Runs a prepared pass for `p` on the writer, on the calling (blocking)
/// thread: committed when `commit` (the import: all its accepted rows or,
/// on an error, none; for a target written all or nothing, none while a row
/// is refused: 422), else rolled back (the check). The run's status
/// follows.
pub fn execute(
    store: &Store,
    plan: &Plan,
    p: &Principal,
    guard: RunGuard,
    commit: bool,
) -> AppResult<Vec<RowReport>> {
    let work = |tx: &Tx| {
        let reports = run::run(tx, plan, p, guard.run())?;
        if commit
            && plan.target.all_or_nothing()
            && let Some(refusal) = run::refused_import(plan.target, &reports)
        {
            return Err(refusal);
        }
        Ok(reports)
    };
    let result = if commit {
        store.write_blocking(work)
    } else {
        store.rehearse_blocking(work)
    };
    match &result {
        Ok(_) => guard.done(RunStatus::Done),
        Err(err) => {
            if matches!(err, AppError::Internal(_)) {
                tracing::error!(error = %err, file = %plan.file_id, "import en échec");
            } else {
                tracing::info!(error = %err, file = %plan.file_id, "import refusé");
            }
            guard.done(RunStatus::Failed);
        }
    }
    result
}

// -- Operations for a principal ---------------------------------------------

/// Reads an uploaded file (off the async threads) and keeps it in the
/// principal's agency for 24 hours; nothing is imported yet.
pub async fn upload(
    store: &Store,
    p: &Principal,
    name: String,
    content: String,
) -> AppResult<ImportFileRow> {
    p.require(Capability::Change)?;
    let uploader = Uploader {
        agency_id: p.agency_id()?.to_owned().into_string(),
        account_id: p.account.as_ref().map(|a| a.id.clone()),
        actor: p.actor.clone(),
        now: store.now(),
    };
    let (name, table, content) = tokio::task::spawn_blocking(move || -> AppResult<_> {
        let (name, table) = read_upload(&name, &content)?;
        let content = encode_table(&table)?;
        Ok((name, table, content))
    })
    .await
    .map_err(|err| AppError::Internal(anyhow::anyhow!("lecture du fichier : {err}")))??;
    store
        .write(move |tx| store_upload(tx, &uploader, name, &table, &content))
        .await
}

/// A file of the principal's agency (404 when unknown there or expired).
pub async fn find_file(
    store: &Store,
    p: &Principal,
    file_id: &ImportId,
) -> AppResult<ImportFileRow> {
    let (agency_id, file_id) = (p.agency_id()?.to_owned(), file_id.to_owned());
    let now = clock::format_timestamp(store.now());
    store
        .read(move |conn| store::get(conn, &agency_id, &file_id, &now))
        .await?
        .ok_or_else(|| AppError::not_found(FILE_NOT_FOUND))
}

/// A file of the principal's agency and, for each target, its fields and
/// the mapping the file's headers suggest.
pub async fn file_with_suggestions(
    store: &Store,
    p: &Principal,
    file_id: &ImportId,
) -> AppResult<(ImportFileRow, Vec<(Target, Vec<Field>, Vec<Option<usize>>)>)> {
    let file = find_file(store, p, file_id).await?;
    let columns = file.columns.clone();
    let targets = store
        .read(move |conn| -> AppResult<Vec<_>> {
            Target::ALL
                .into_iter()
                .map(|target| {
                    let (fields, suggested) = suggestion(conn, target, &columns)?;
                    Ok((target, fields, suggested))
                })
                .collect()
        })
        .await?;
    Ok((file, targets))
}

/// A check (`RunKind::Verification`, rolled back) or an import (committed;
/// administrators only) of a file of the principal's agency, recorded in
/// `runs` while it goes. Contracts and index values are written by the REST
/// API's steps ([`Target::writes_through_api`]), so checking or importing
/// them also asks what those steps ask (`Capability::Change`). Runs on its
/// own blocking task: should the caller go away, the pass still ends and
/// its status is still recorded.
pub async fn pass(
    store: &Store,
    runs: &ImportRuns,
    p: &Principal,
    file_id: &ImportId,
    target: Target,
    mapping: Option<Vec<(String, Option<String>)>>,
    kind: RunKind,
) -> AppResult<(Plan, Vec<RowReport>)> {
    let agency_id = p.agency_id()?.to_owned();
    if kind == RunKind::Import {
        p.require(Capability::Administer("Importer un fichier"))?;
    }
    if target.writes_through_api() {
        p.require(Capability::Change)?;
    }
    let now = store.now();
    let file_id = file_id.to_owned();
    let prepared = store
        .read(move |conn| prepare(conn, &agency_id, &file_id, now, target, mapping))
        .await?;
    let plan = prepared.plan;
    let rows_total = u64::try_from(plan.table.rows.len()).unwrap_or(u64::MAX);
    let guard = runs.start(
        &plan.file_id,
        kind,
        target.code(),
        rows_total,
        prepared.expires_at,
    )?;
    let (p, store) = (p.clone(), store.clone());
    let commit = kind == RunKind::Import;
    let (plan, reports) = tokio::task::spawn_blocking(move || {
        let reports = execute(&store, &plan, &p, guard, commit);
        (plan, reports)
    })
    .await
    .map_err(|err| AppError::Internal(anyhow::anyhow!("import interrompu : {err}")))?;
    Ok((plan, reports?))
}

/// Deletes the uploaded files expired now (the server's minute task);
/// answers how many.
pub async fn purge(store: &Store) -> AppResult<usize> {
    let now = store.now();
    store.write(move |tx| purge_expired(tx, now)).await
}
