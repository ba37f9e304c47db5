//! The agency's server a desktop app connects to instead of its own
//! embedded one (« Serveur de l'agence » in the settings): the address as
//! typed checked and normalised, the probe that says whether a Liftdesk
//! server answers there, and the choice itself ([`choose`]: checked,
//! probed, saved, handed to the host), which the settings and first-run
//! screens' endpoints call. The desktop shell probes the server it shows
//! with the same client (its unreachable page, its tray).

use std::time::Duration;

use url::Url;

use crate::error::{ApiError, AppError, AppResult};
use crate::settings;
use crate::state::AppState;

/// How long a probe waits for the server.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// The address typed, as the window will open it: `https://host[:port]`
/// (or `http://` on this computer only: a session cookie must not cross
/// the network in clear), with no path, query or credentials. The French
/// reason otherwise.
pub fn parse(raw: &str) -> Result<Url, String> {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return Err(
            "Indiquez l'adresse du serveur de l'agence (par exemple https://liftdesk.agence.fr)."
                .into(),
        );
    }
    let url = Url::parse(trimmed).map_err(|_| {
        format!("« {trimmed} » n'est pas une adresse : écrivez-la en entier, par exemple https://liftdesk.agence.fr.")
    })?;
    let Some(host) = url.host() else {
        return Err(format!(
            "« {trimmed} » n'est pas une adresse de serveur : écrivez-la en entier, par exemple https://liftdesk.agence.fr."
        ));
    };
    let loopback = match host {
        url::Host::Domain(name) => name.eq_ignore_ascii_case("localhost"),
        url::Host::Ipv4(ip) => ip.is_loopback(),
        url::Host::Ipv6(ip) => ip.is_loopback(),
    };
    match url.scheme() {
        "https" => {}
        "http" if loopback => {}
        "http" => {
            return Err(format!(
                "Le serveur de l'agence se joint en HTTPS (« https://… ») : en « http:// », les mots de passe passeraient en clair sur le réseau. Adresse reçue : « {trimmed} »."
            ));
        }
        _ => {
            return Err(format!(
                "« {trimmed} » n'est pas une adresse web : elle commence par https://."
            ));
        }
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("L'adresse du serveur ne contient pas d'identifiants : vous vous connecterez dans la fenêtre.".into());
    }
    if url.path() != "/" || url.query().is_some() || url.fragment().is_some() {
        return Err(format!(
            "Indiquez l'adresse du serveur seule, sans chemin (par exemple {}://{}).",
            url.scheme(),
            origin_host(&url)
        ));
    }
    Ok(url)
}

/// `host[:port]` of an address.
fn origin_host(url: &Url) -> String {
    match (url.host_str(), url.port()) {
        (Some(host), Some(port)) => format!("{host}:{port}"),
        (Some(host), None) => host.to_owned(),
        _ => String::new(),
    }
}

/// The address as shown and saved: `https://host[:port]`, no trailing slash.
pub fn display(url: &Url) -> String {
    url.as_str().trim_end_matches('/').to_owned()
}

/// The HTTP client of the probes and the desktop's notices: rustls, short
/// timeouts, no redirect followed.
pub fn client() -> anyhow::Result<reqwest::Client> {
    liftdesk_core::webhooks::sender::outgoing_client(
        PROBE_TIMEOUT,
        concat!("Liftdesk-Bureau/", env!("CARGO_PKG_VERSION")),
    )
}

/// Whether a Liftdesk server answers at `url`: its public setup status
/// (`GET /app/api/setup`, `{"needed": …}`). The French reason otherwise.
pub async fn probe(client: &reqwest::Client, url: &Url) -> Result<(), String> {
    let shown = display(url);
    let target = url
        .join("app/api/setup")
        .map_err(|err| format!("Adresse invalide : {err}"))?;
    let answer = client
        .get(target)
        .send()
        .await
        .map_err(|err| format!("Le serveur {shown} ne répond pas ({}).", reason(&err)))?;
    let status = answer.status();
    let body: Option<serde_json::Value> = answer.json().await.ok();
    let is_liftdesk = status.is_success()
        && body
            .as_ref()
            .and_then(|b| b.get("needed"))
            .is_some_and(serde_json::Value::is_boolean);
    if !is_liftdesk {
        return Err(format!(
            "{shown} répond, mais ce n'est pas un serveur Liftdesk (réponse {status})."
        ));
    }
    if body
        .and_then(|b| b.get("needed").and_then(serde_json::Value::as_bool))
        .unwrap_or(false)
    {
        return Err(format!(
            "Le serveur {shown} n'est pas encore installé : terminez son installation sur le serveur lui-même, puis connectez ce poste."
        ));
    }
    Ok(())
}

/// Why a request failed, in French, without the library's chain of causes.
pub fn reason(err: &reqwest::Error) -> String {
    if err.is_timeout() {
        format!("pas de réponse en {} s", PROBE_TIMEOUT.as_secs())
    } else if err.is_connect() {
        "connexion impossible".to_owned()
    } else {
        "échange interrompu".to_owned()
    }
}

/// « Serveur de l'agence » chosen on the settings or first-run screen:
/// the address checked ([`parse`], not this computer's own Liftdesk), a
/// Liftdesk server set up must answer there ([`probe`]), it is saved as the
/// settings' `agencyServer`, then handed to the host, which stops the
/// embedded server and shows that one. The address as saved; a French
/// refusal otherwise (409 without a host that can: `liftdesk serve`).
pub async fn choose(state: &AppState, raw: &str) -> AppResult<String> {
    let Some(control) = state.control.clone() else {
        return Err(ApiError::conflict(
            "Seule l'application de bureau se connecte au serveur de l'agence : ouvrez plutôt son adresse dans un navigateur.",
        ));
    };
    let url = parse(raw).map_err(ApiError::unprocessable)?;
    let shown = display(&url);
    if is_this_computer(&url, &state.base_url) {
        return Err(ApiError::unprocessable(format!(
            "{shown} est l'adresse de Liftdesk sur cet ordinateur : indiquez celle du serveur de l'agence."
        )));
    }
    let client = client().map_err(AppError::Internal)?;
    probe(&client, &url)
        .await
        .map_err(ApiError::unprocessable)?;

    let previous = save_agency_server(state, Some(shown.clone())).await?;
    tracing::info!(serveur = %shown, "serveur de l'agence choisi");
    if let Err(reason) = control.connect_to_agency_server(shown.clone()) {
        // Not taken (a restart under way): the next start must not connect.
        save_agency_server(state, previous).await?;
        return Err(AppError::Conflict(format!(
            "La connexion au serveur de l'agence a échoué : {reason}"
        ))
        .into());
    }
    Ok(shown)
}

/// Saves the settings' `agencyServer`; the value it replaces.
async fn save_agency_server(state: &AppState, value: Option<String>) -> AppResult<Option<String>> {
    let data_dir = state.data_dir();
    tokio::task::spawn_blocking(move || {
        let mut current = settings::load(&data_dir)?;
        let previous = std::mem::replace(&mut current.agency_server, value);
        settings::save(&data_dir, &current)?;
        anyhow::Ok(previous)
    })
    .await
    .map_err(|err| AppError::Internal(anyhow::anyhow!(err.to_string())))?
    .map_err(|err| AppError::Internal(err).into())
}

/// Whether `url` is this computer's own Liftdesk: its address, or any
/// loopback name on its port (`localhost`, `[::1]`).
fn is_this_computer(url: &Url, base_url: &str) -> bool {
    let Ok(own) = Url::parse(base_url) else {
        return false;
    };
    if own.origin() == url.origin() {
        return true;
    }
    let loopback = match url.host() {
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    loopback && url.port_or_known_default() == own.port_or_known_default()
}

#[cfg(test)]
mod tests {
    use super::{display, is_this_computer, parse};

    #[test]
    fn an_address_is_https_or_this_computer_with_no_path() {
        let url = parse(" https://liftdesk.agence.fr ").unwrap();
        assert_eq!(display(&url), "https://liftdesk.agence.fr");
        assert_eq!(
            display(&parse("http://127.0.0.1:8443/").unwrap()),
            "http://127.0.0.1:8443"
        );
        assert!(parse("http://localhost:9000").is_ok());
        let clear = parse("http://192.168.1.20:8080").unwrap_err();
        assert!(clear.contains("HTTPS"), "{clear}");
        assert!(parse("").unwrap_err().contains("Indiquez l'adresse"));
        assert!(
            parse("liftdesk.agence.fr")
                .unwrap_err()
                .contains("n'est pas une adresse")
        );
        assert!(
            parse("ftp://agence.fr")
                .unwrap_err()
                .contains("adresse web")
        );
        assert!(
            parse("https://a:b@agence.fr")
                .unwrap_err()
                .contains("identifiants")
        );
        let path = parse("https://agence.fr/app").unwrap_err();
        assert!(
            path.contains("sans chemin (par exemple https://agence.fr)"),
            "{path}"
        );
    }

    #[test]
    fn this_computer_is_its_address_or_any_loopback_name_on_its_port() {
        let base = "http://127.0.0.1:8080";
        let this = |raw: &str| is_this_computer(&url::Url::parse(raw).unwrap(), base);
        assert!(this("http://127.0.0.1:8080"));
        assert!(this("http://localhost:8080"));
        assert!(this("http://[::1]:8080"));
        assert!(!this("http://127.0.0.1:9090"));
        assert!(!this("https://liftdesk.agence.fr"));
    }
}
