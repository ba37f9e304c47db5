//! The installation's settings, in the data directory's `settings.json`:
//! the port, whether the API is open to the agency's network, the backup
//! folder and the daily backup. A missing file is the defaults.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub const SETTINGS_FILE: &str = "settings.json";
pub const DEFAULT_PORT: u16 = 8080;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Settings {
    /// The embedded server's port (8080 by default).
    pub port: u16,
    /// Listen on every interface (the agency's network) instead of loopback.
    pub lan: bool,
    /// Where the daily backups go; none: no daily backup.
    pub backup_dir: Option<PathBuf>,
    pub daily_backup: bool,
    /// The desktop app shows this agency server (`https://host[:port]`,
    /// checked by `agency_server::parse`) instead of its embedded one;
    /// none: « Cet ordinateur ».
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agency_server: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            port: DEFAULT_PORT,
            lan: false,
            backup_dir: None,
            daily_backup: true,
            agency_server: None,
        }
    }
}

impl Settings {
    /// The address to listen on: loopback, or every interface with `lan`.
    pub fn bind_addr(&self) -> SocketAddr {
        let ip = if self.lan {
            Ipv4Addr::UNSPECIFIED
        } else {
            Ipv4Addr::LOCALHOST
        };
        SocketAddr::from((ip, self.port))
    }

    /// The folder of the daily backups, when they are on.
    pub fn daily_backup_dir(&self) -> Option<&Path> {
        if self.daily_backup {
            self.backup_dir.as_deref()
        } else {
            None
        }
    }
}

/// The addresses colleagues' browsers and the agency's other computers reach
/// this one at when the API is open to the agency's network:
/// `http://IP:PORT` for each IPv4 address of an interface that is up,
/// loopback and link-local (169.254.x.x, no DHCP answer) left out. Empty when
/// the interfaces cannot be read (the settings screen then says so).
pub fn network_urls(port: u16) -> Vec<String> {
    let interfaces = match if_addrs::get_if_addrs() {
        Ok(interfaces) => interfaces,
        Err(err) => {
            tracing::warn!(erreur = %err, "interfaces réseau illisibles");
            return Vec::new();
        }
    };
    let mut urls: Vec<String> = interfaces
        .iter()
        .filter(|interface| interface.is_oper_up() || cfg!(windows))
        .filter_map(|interface| match interface.ip() {
            std::net::IpAddr::V4(ip) if !ip.is_loopback() && !ip.is_link_local() => {
                Some(format!("http://{ip}:{port}"))
            }
            _ => None,
        })
        .collect();
    urls.sort();
    urls.dedup();
    urls
}

pub fn settings_path(data_dir: &Path) -> PathBuf {
    data_dir.join(SETTINGS_FILE)
}

/// The settings of `data_dir`; the defaults when there is no file yet.
pub fn load(data_dir: &Path) -> anyhow::Result<Settings> {
    let path = settings_path(data_dir);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Settings::default()),
        Err(err) => anyhow::bail!("Impossible de lire les réglages {} : {err}", path.display()),
    };
    serde_json::from_str(&text).map_err(|err| {
        anyhow::anyhow!(
            "Les réglages {} sont illisibles ({err}) : corrigez ou supprimez ce fichier.",
            path.display()
        )
    })
}

/// Writes the settings (temporary file, then rename).
pub fn save(data_dir: &Path, settings: &Settings) -> anyhow::Result<()> {
    crate::config::ensure_data_dir(data_dir)?;
    let path = settings_path(data_dir);
    let tmp = data_dir.join(format!(".{SETTINGS_FILE}.tmp"));
    let text = serde_json::to_string_pretty(settings)?;
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, &path))
        .map_err(|err| {
            anyhow::anyhow!(
                "Impossible d'enregistrer les réglages {} : {err}",
                path.display()
            )
        })
}

/// Checks a backup folder typed by the user: an absolute path to an
/// existing folder where files can be written. The French reason otherwise.
pub fn check_backup_dir(raw: &str) -> Result<PathBuf, String> {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return Err("Indiquez le chemin complet du dossier de sauvegarde.".into());
    }
    let path = PathBuf::from(trimmed);
    if !path.is_absolute() {
        return Err(format!(
            "« {trimmed} » n'est pas un chemin complet : indiquez le dossier depuis la racine (par exemple /home/agence/Sauvegardes ou D:\\Sauvegardes)."
        ));
    }
    if !path.is_dir() {
        return Err(format!("Le dossier « {trimmed} » n'existe pas."));
    }
    let probe = path.join(format!(".liftdesk-essai-{}", std::process::id()));
    match std::fs::write(&probe, b"essai") {
        Ok(()) => {
            let _ = std::fs::remove_file(&probe);
            Ok(path)
        }
        Err(err) => Err(format!(
            "Liftdesk ne peut pas écrire dans le dossier « {trimmed} » : {err}."
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(load(dir.path()).unwrap(), Settings::default());
        assert_eq!(
            Settings::default().bind_addr().to_string(),
            "127.0.0.1:8080"
        );
        let changed = Settings {
            port: 9090,
            lan: true,
            backup_dir: Some(dir.path().to_owned()),
            daily_backup: false,
            agency_server: Some("https://liftdesk.agence.fr".into()),
        };
        save(dir.path(), &changed).unwrap();
        assert_eq!(load(dir.path()).unwrap(), changed);
        assert_eq!(changed.bind_addr().to_string(), "0.0.0.0:9090");
        assert!(changed.daily_backup_dir().is_none());
        let text = std::fs::read_to_string(settings_path(dir.path())).unwrap();
        assert!(text.contains("\"backupDir\""), "{text}");
        assert!(text.contains("\"agencyServer\""), "{text}");
    }

    #[test]
    fn backup_dir_is_checked() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_backup_dir(dir.path().to_str().unwrap()).is_ok());
        assert!(
            check_backup_dir("relatif/dossier")
                .unwrap_err()
                .contains("chemin complet")
        );
        let missing = dir.path().join("absent");
        assert!(
            check_backup_dir(missing.to_str().unwrap())
                .unwrap_err()
                .contains("n'existe pas")
        );
    }
}
