//! Where the data lives and how the server is reached.

use std::path::{Path, PathBuf};

/// Name of the database file inside the data directory.
pub const DATABASE_FILE: &str = "liftdesk.db";
/// Written by `serve --demo` when it seeds an empty data directory.
pub const DEMO_CREDENTIALS_FILE: &str = "demo-credentials.json";
pub const DEFAULT_BIND: &str = "127.0.0.1:8080";

/// `--data-dir`, else `$LIFTDESK_DATA_DIR` (clap reads it), else the OS data directory.
pub fn resolve_data_dir(explicit: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    if let Some(dir) = explicit {
        return Ok(dir);
    }
    directories::ProjectDirs::from("fr", "Liftdesk", "Liftdesk")
        .map(|dirs| dirs.data_dir().to_owned())
        .ok_or_else(|| {
            anyhow::anyhow!(
                "Impossible de déterminer le dossier de données du système : indiquez --data-dir ou LIFTDESK_DATA_DIR."
            )
        })
}

pub fn database_path(data_dir: &Path) -> PathBuf {
    data_dir.join(DATABASE_FILE)
}

/// Creates the data directory (owner-only on Unix: it holds the database).
pub fn ensure_data_dir(data_dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(data_dir).map_err(|err| {
        anyhow::anyhow!(
            "Impossible de créer le dossier de données {} : {err}",
            data_dir.display()
        )
    })?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(data_dir, std::fs::Permissions::from_mode(0o700));
    }
    Ok(())
}
