//! Where the data lives and how the server is reached. The data directory
//! itself (database file, lock) is the store's: `liftdesk_store::data_dir`,
//! re-exported here.

use std::path::PathBuf;

pub use liftdesk_store::data_dir::*;

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
