//! The data directory the SQLite store lives in: where its database file
//! is, the directory made private to the user, and the lock a running
//! server holds on it.

use crate::error::{StoreError, StoreResult};
use std::path::{Path, PathBuf};

/// Name of the database file inside the data directory.
pub const DATABASE_FILE: &str = "liftdesk.db";

/// Written by `serve --demo` when it seeds an empty data directory.
pub const DEMO_CREDENTIALS_FILE: &str = "demo-credentials.json";

pub fn database_path(data_dir: &Path) -> PathBuf {
    data_dir.join(DATABASE_FILE)
}

/// Creates the data directory (owner-only on Unix: it holds the database).
pub fn ensure_data_dir(data_dir: &Path) -> StoreResult<()> {
    std::fs::create_dir_all(data_dir).map_err(|err| {
        StoreError::File(format!(
            "Impossible de créer le dossier de données {} : {err}",
            data_dir.display()
        ))
    })?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(data_dir, std::fs::Permissions::from_mode(0o700));
    }
    Ok(())
}

/// Name of the lock file held by a running server in its data directory.
pub const LOCK_FILE: &str = "liftdesk.lock";

/// The data directory's lock, held while a server (`liftdesk serve` or the
/// desktop application) uses it; released when dropped (or when the process
/// ends, whatever the way).
#[derive(Debug)]
pub struct DataDirLock {
    _file: std::fs::File,
    path: PathBuf,
}

impl DataDirLock {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Takes the data directory's lock (`liftdesk.lock`), or says in French
/// that another Liftdesk is using the directory.
pub fn lock_data_dir(data_dir: &Path) -> StoreResult<DataDirLock> {
    ensure_data_dir(data_dir)?;
    let path = data_dir.join(LOCK_FILE);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|err| {
            StoreError::File(format!(
                "Impossible d'ouvrir le verrou {} : {err}",
                path.display()
            ))
        })?;
    match file.try_lock() {
        Ok(()) => Ok(DataDirLock { _file: file, path }),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::File(format!(
            "Le dossier de données {} est utilisé par un Liftdesk en cours d'exécution (serveur ou application) : arrêtez-le d'abord.",
            data_dir.display()
        ))),
        Err(std::fs::TryLockError::Error(err)) => Err(StoreError::File(format!(
            "Impossible de verrouiller le dossier de données {} : {err}",
            data_dir.display()
        ))),
    }
}

/// Whether a running Liftdesk holds the data directory's lock now.
pub fn data_dir_in_use(data_dir: &Path) -> bool {
    let path = data_dir.join(LOCK_FILE);
    let Ok(file) = std::fs::OpenOptions::new().write(true).open(&path) else {
        return false;
    };
    matches!(file.try_lock(), Err(std::fs::TryLockError::WouldBlock))
}
