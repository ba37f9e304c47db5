//! The key files several servers of one database must share: the sheet
//! links' secret (a link signed by one server opens on the others) and the
//! webhook secrets' key (a secret sealed by one is read by the others).
//! Each server keeps them in its data directory; on a shared database
//! (PostgreSQL) the first server records their fingerprints, and a server
//! whose file differs, or that has none while the database knows one,
//! refuses to start and says which file to copy (`docs/deployment.md`).
//! On SQLite the data directory holds the database and its keys together:
//! nothing to compare.

use std::path::Path;

use crate::auth::{secret, sheet_token};
use crate::clock;
use crate::store::Store;
use crate::store::server_keys;
use crate::webhooks::secret_box;

/// The key files the servers of one database share, in the data directory.
pub const SHARED_KEY_FILES: [&str; 2] = [sheet_token::SECRET_FILE, secret_box::KEY_FILE];

/// Checks (and on the first server, records) the shared key files of the
/// store's data directory; a French refusal when they are not the other
/// servers' ones.
pub fn check(store: &Store) -> anyhow::Result<()> {
    if !store.shared() {
        return Ok(());
    }
    for name in SHARED_KEY_FILES {
        check_one(store, store.data_dir(), name)?;
    }
    Ok(())
}

fn check_one(store: &Store, data_dir: &Path, name: &str) -> anyhow::Result<()> {
    let path = data_dir.join(name);
    let recorded = store.read_blocking(|conn| server_keys::recorded(conn, name))?;
    if recorded.is_some() && !path.exists() {
        anyhow::bail!(
            "La base {} sert déjà d'autres serveurs Liftdesk, mais le dossier de données {} n'a pas leur clé {name} : copiez-la depuis le dossier de données d'un autre serveur avant de démarrer celui-ci (docs/deployment.md).",
            store.shown(),
            data_dir.display()
        );
    }
    let key = secret::load_or_create_key_file(&path)
        .map_err(|err| anyhow::anyhow!("Impossible de lire la clé {} : {err}", path.display()))?;
    let fingerprint = secret::fingerprint_bytes(&key);
    let now = clock::format_timestamp(store.now());
    let kept =
        store.write_blocking(|tx| server_keys::record_first(tx, name, &fingerprint, &now))?;
    if kept != fingerprint {
        anyhow::bail!(
            "La clé {} n'est pas celle des autres serveurs Liftdesk de la base {} : remplacez-la par celle du dossier de données d'un autre serveur (docs/deployment.md).",
            path.display(),
            store.shown()
        );
    }
    Ok(())
}
