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

/// Name of the file holding the server's id (`server_id`).
pub const SERVER_ID_FILE: &str = "server-id";

/// The id of the server using this data directory, made at its first use
/// and kept: what the server claims in a database shared with others
/// (webhook deliveries being sent) is marked with it, and a server that
/// restarts after a crash recognises, and releases, its own claims. The
/// directory's lock (`lock_data_dir`) makes it one process's at a time.
pub fn server_id(data_dir: &Path) -> StoreResult<String> {
    let path = data_dir.join(SERVER_ID_FILE);
    let unreadable = |err: std::io::Error| {
        StoreError::File(format!(
            "Impossible de lire l'identifiant du serveur {} : {err}",
            path.display()
        ))
    };
    match std::fs::read_to_string(&path) {
        Ok(text) if uuid::Uuid::parse_str(text.trim()).is_ok() => {
            return Ok(text.trim().to_owned());
        }
        Ok(_) => {
            return Err(StoreError::File(format!(
                "L'identifiant du serveur {} est illisible : supprimez ce fichier, il sera refait.",
                path.display()
            )));
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => return Err(unreadable(err)),
    }
    ensure_data_dir(data_dir)?;
    let id = crate::new_id();
    let partial = data_dir.join(format!("{SERVER_ID_FILE}.partial"));
    std::fs::write(&partial, format!("{id}\n")).map_err(unreadable)?;
    std::fs::rename(&partial, &path).map_err(unreadable)?;
    Ok(id)
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
