//! Logging: to stderr and, given a folder, to daily files
//! (`liftdesk.AAAA-MM-JJ.log`) keeping the newest 14. Nothing secret is
//! logged: request lines carry the method and path only (never the query
//! string nor a sheet link's token), and no handler logs a body or header.

use std::path::{Path, PathBuf};

use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::writer::MakeWriterExt;

/// Log files kept in the folder.
pub const KEEP_LOG_FILES: usize = 14;
pub const LOG_FILE_PREFIX: &str = "liftdesk";
pub const LOG_FILE_SUFFIX: &str = "log";
/// The default log folder inside the data directory.
pub const LOG_DIR: &str = "journaux";

pub fn default_log_dir(data_dir: &Path) -> PathBuf {
    data_dir.join(LOG_DIR)
}

/// Installs the global subscriber (once per process: later calls do
/// nothing). `LIFTDESK_LOG` overrides `default_filter` (`info,rmcp=warn`).
pub fn init(log_dir: Option<&Path>) -> anyhow::Result<()> {
    init_with_filter(log_dir, "info,rmcp=warn")
}

pub fn init_with_filter(log_dir: Option<&Path>, default_filter: &str) -> anyhow::Result<()> {
    let filter =
        EnvFilter::try_from_env("LIFTDESK_LOG").unwrap_or_else(|_| EnvFilter::new(default_filter));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    match log_dir {
        None => {
            let _ = tracing_subscriber::fmt()
                .with_env_filter(filter)
                .with_writer(std::io::stderr)
                .with_ansi(ansi)
                .try_init();
        }
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|err| {
                anyhow::anyhow!(
                    "Impossible de créer le dossier des journaux {} : {err}",
                    dir.display()
                )
            })?;
            let files = tracing_appender::rolling::Builder::new()
                .rotation(tracing_appender::rolling::Rotation::DAILY)
                .filename_prefix(LOG_FILE_PREFIX)
                .filename_suffix(LOG_FILE_SUFFIX)
                .max_log_files(KEEP_LOG_FILES)
                .build(dir)
                .map_err(|err| {
                    anyhow::anyhow!(
                        "Impossible d'écrire les journaux dans {} : {err}",
                        dir.display()
                    )
                })?;
            let _ = tracing_subscriber::fmt()
                .with_env_filter(filter)
                .with_writer(std::io::stderr.and(files))
                .with_ansi(false)
                .try_init();
        }
    }
    Ok(())
}

/// The last `count` lines of the newest log file of `dir` (for the
/// diagnostics report).
pub fn recent_lines(dir: &Path, count: usize) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let newest = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(LOG_FILE_PREFIX) && n.ends_with(LOG_FILE_SUFFIX))
        })
        .max();
    let Some(file) = newest else {
        return Vec::new();
    };
    let Ok(text) = std::fs::read_to_string(file) else {
        return Vec::new();
    };
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines[lines.len().saturating_sub(count)..].to_vec()
}
