//! The store's own error type: what a storage operation can fail with, told
//! apart by kind (a constraint refused the write, the database is busy or
//! damaged, a value could not be encoded…) and never by HTTP status. The
//! front doors map it to a status at the edge (`crate::error`), and an
//! operation that expects a conflict turns it into its own refusal with
//! [`StoreError::on_constraint`].

use rusqlite::ErrorCode;

/// The store's result.
pub type StoreResult<T> = Result<T, StoreError>;

/// The names of the constraints an operation may meet and refuse in its own
/// words: `table.column` (as SQLite names a unique constraint), whichever
/// engine reports them.
pub mod constraint {
    /// One account per e-mail address (any case).
    pub const ACCOUNT_EMAIL: &str = "accounts.email";
    /// One agency per V1 identifier.
    pub const AGENCY_V1_ID: &str = "agencies.v1_id";
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(
        "La base de données {path} a été créée par une version plus récente de Liftdesk (schéma {database}, cette version connaît jusqu'au schéma {known}). Elle n'a pas été modifiée : installez une version à jour de Liftdesk."
    )]
    NewerSchema {
        path: String,
        database: i64,
        known: i64,
    },
    #[error("Impossible d'ouvrir la base de données {path} : {source}")]
    Open {
        path: String,
        #[source]
        source: EngineError,
    },
    #[error("La mise à jour du schéma de la base de données a échoué : {0}")]
    Migration(String),
    /// A uniqueness constraint refused the write: `constraint` names it
    /// (see [`constraint`]); nothing of the transaction was kept.
    #[error("La donnée entre en conflit avec une donnée déjà enregistrée ({constraint}).")]
    Conflict { constraint: String },
    /// The row a statement expected is not there (a read of exactly one row).
    #[error("La donnée attendue est introuvable dans la base de données.")]
    NotFound,
    /// Another process held the database longer than the busy timeout.
    #[error("La base de données est occupée par un autre programme : {0}")]
    Busy(#[source] EngineError),
    /// The file is not a database, or a damaged one.
    #[error("La base de données est endommagée : {0}")]
    Corrupt(#[source] EngineError),
    /// A value could not be written or read in its stored form.
    #[error("Une valeur n'a pas pu être enregistrée ou relue : {0}")]
    Encoding(String),
    /// Any other failure of the engine (a bug, a full disk…).
    #[error("Erreur de la base de données : {0}")]
    Engine(#[source] EngineError),
    #[error("Une tâche de la base de données s'est interrompue : {0}")]
    Join(String),
    /// A file of the data directory or of a backup could not be read,
    /// written or locked; the French message names the file and what to do.
    #[error("{0}")]
    File(String),
    /// An input/output failure on a file of the data directory or a backup.
    #[error("Erreur d'accès à un fichier : {0}")]
    Io(#[from] std::io::Error),
}

/// The database engine's own report of a failure, kept as the cause of a
/// `StoreError` (logged, never shown to a user): the store's callers see
/// its text, never the engine's type.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct EngineError(Box<dyn std::error::Error + Send + Sync>);

impl EngineError {
    pub(crate) fn new(err: impl std::error::Error + Send + Sync + 'static) -> Self {
        EngineError(Box::new(err))
    }
}

impl From<rusqlite::Error> for EngineError {
    fn from(err: rusqlite::Error) -> Self {
        EngineError(Box::new(err))
    }
}

impl StoreError {
    /// The database at `path` could not be opened.
    pub(crate) fn open(path: &std::path::Path, source: rusqlite::Error) -> Self {
        Self::Open {
            path: path.display().to_string(),
            source: source.into(),
        }
    }

    /// `refusal(self)` when this is a conflict on `name`, `self` otherwise:
    /// an operation says in its own words which constraint it expects.
    pub fn on_constraint<E: From<StoreError>>(self, name: &str, refusal: impl FnOnce() -> E) -> E {
        match &self {
            Self::Conflict { constraint } if constraint == name => refusal(),
            _ => E::from(self),
        }
    }

    /// An encoding failure (serialising a stored JSON value, a number out of
    /// its stored range).
    pub fn encoding(cause: impl std::fmt::Display) -> Self {
        Self::Encoding(cause.to_string())
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(err: rusqlite::Error) -> Self {
        let rusqlite::Error::SqliteFailure(failure, message) = &err else {
            return match err {
                rusqlite::Error::QueryReturnedNoRows => Self::NotFound,
                rusqlite::Error::ToSqlConversionFailure(cause)
                | rusqlite::Error::FromSqlConversionFailure(_, _, cause) => {
                    Self::Encoding(cause.to_string())
                }
                rusqlite::Error::IntegralValueOutOfRange(column, value) => {
                    Self::Encoding(format!("colonne {column} : {value} hors limites"))
                }
                other => Self::Engine(other.into()),
            };
        };
        match failure.code {
            ErrorCode::ConstraintViolation
                if matches!(
                    failure.extended_code,
                    rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                        | rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                ) =>
            {
                Self::Conflict {
                    constraint: constraint_name(message.as_deref()),
                }
            }
            ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked => Self::Busy(err.into()),
            ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase => Self::Corrupt(err.into()),
            _ => Self::Engine(err.into()),
        }
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(err: serde_json::Error) -> Self {
        Self::encoding(err)
    }
}

/// The constraint SQLite names in "UNIQUE constraint failed: accounts.email"
/// (columns joined by ", " for a constraint over several).
fn constraint_name(message: Option<&str>) -> String {
    message
        .and_then(|m| m.split_once("constraint failed: "))
        .map(|(_, name)| name.trim().to_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failing(sql: &str) -> StoreError {
        let conn = match rusqlite::Connection::open_in_memory() {
            Ok(conn) => conn,
            Err(err) => return StoreError::from(err),
        };
        let setup = conn.execute_batch(
            "CREATE TABLE accounts (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE COLLATE NOCASE,
                                    agency TEXT, ref TEXT, UNIQUE (agency, ref));
             INSERT INTO accounts (id, email, agency, ref) VALUES (1, 'a@b.fr', 'x', 'r');",
        );
        match setup.and_then(|_| conn.execute_batch(sql)) {
            Ok(()) => StoreError::Migration("aucune erreur".into()),
            Err(err) => StoreError::from(err),
        }
    }

    #[test]
    fn a_unique_constraint_is_a_conflict_naming_it() {
        let err = failing("INSERT INTO accounts (id, email) VALUES (2, 'A@B.FR')");
        assert!(
            matches!(&err, StoreError::Conflict { constraint } if constraint == constraint::ACCOUNT_EMAIL),
            "{err:?}"
        );
        let err =
            failing("INSERT INTO accounts (id, email, agency, ref) VALUES (2, 'c@d.fr', 'x', 'r')");
        assert!(
            matches!(&err, StoreError::Conflict { constraint } if constraint == "accounts.agency, accounts.ref"),
            "{err:?}"
        );
        let err = failing("INSERT INTO accounts (id, email) VALUES (1, 'e@f.fr')");
        assert!(
            matches!(&err, StoreError::Conflict { constraint } if constraint == "accounts.id"),
            "{err:?}"
        );
    }

    #[test]
    fn other_failures_are_told_apart() {
        let err = failing("INSERT INTO accounts (id, email) VALUES (2, NULL)");
        assert!(matches!(err, StoreError::Engine(_)), "{err:?}");
        let err = failing("SELECT nothing FROM nowhere");
        assert!(matches!(err, StoreError::Engine(_)), "{err:?}");
        assert!(matches!(
            StoreError::from(rusqlite::Error::QueryReturnedNoRows),
            StoreError::NotFound
        ));
    }

    #[test]
    fn on_constraint_turns_only_the_named_conflict_into_the_refusal() {
        #[derive(Debug, PartialEq)]
        enum Refusal {
            Taken,
            Other(String),
        }
        impl From<StoreError> for Refusal {
            fn from(err: StoreError) -> Self {
                Refusal::Other(err.to_string())
            }
        }
        let conflict = || StoreError::Conflict {
            constraint: constraint::ACCOUNT_EMAIL.into(),
        };
        assert_eq!(
            conflict().on_constraint(constraint::ACCOUNT_EMAIL, || Refusal::Taken),
            Refusal::Taken
        );
        assert!(matches!(
            conflict().on_constraint(constraint::AGENCY_V1_ID, || Refusal::Taken),
            Refusal::Other(_)
        ));
    }
}
