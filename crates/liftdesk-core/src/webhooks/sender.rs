//! One send of one delivery: POST the stored body, signed now, to the
//! receiver; 2xx within 10 seconds is success, anything else a failure
//! described in French for the deliveries list.

use std::net::IpAddr;
use std::time::Duration;

use reqwest::Url;
use reqwest::header::{CONTENT_TYPE, HeaderValue, USER_AGENT};

use super::signing;

/// The receiver must answer within this time.
pub const RESPONSE_TIMEOUT: Duration = Duration::from_secs(10);
pub const SIGNATURE_HEADER: &str = "X-Service-Signature";
pub const DELIVERY_HEADER: &str = "X-Service-Livraison";

/// What one send gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendOutcome {
    /// 2xx: delivered.
    Delivered { http_status: u16 },
    /// The receiver answered, but not 2xx (3xx are not followed).
    Answered { http_status: u16 },
    /// No answer within 10 s.
    TimedOut,
    /// No connection (refused, reset, TLS…).
    Unreachable,
    /// The receiver's name did not resolve: the network (DNS) is down.
    NameNotResolved,
}

impl SendOutcome {
    /// The French line shown in the deliveries list (None on success).
    pub fn error_text(&self) -> Option<String> {
        match self {
            Self::Delivered { .. } => None,
            Self::Answered { http_status } if (300..400).contains(http_status) => Some(format!(
                "Le destinataire a répondu HTTP {http_status} : les redirections ne sont pas suivies."
            )),
            Self::Answered { http_status } => {
                Some(format!("Le destinataire a répondu HTTP {http_status}."))
            }
            Self::TimedOut => Some(format!(
                "Pas de réponse du destinataire en {} secondes.",
                RESPONSE_TIMEOUT.as_secs()
            )),
            Self::Unreachable => Some("Connexion au destinataire impossible.".to_owned()),
            Self::NameNotResolved => Some(
                "Nom du destinataire introuvable (DNS) : envoi en attente du réseau.".to_owned(),
            ),
        }
    }

    pub fn http_status(&self) -> Option<u16> {
        match self {
            Self::Delivered { http_status } | Self::Answered { http_status } => Some(*http_status),
            _ => None,
        }
    }

    /// Whether the receiver looks down as a whole (its other deliveries
    /// wait), rather than refusing this one delivery.
    pub fn receiver_down(&self) -> bool {
        match self {
            Self::Delivered { .. } => false,
            Self::Answered { http_status } => {
                *http_status >= 500 || *http_status == 408 || *http_status == 429
            }
            _ => true,
        }
    }
}

/// Makes ring the process's TLS crypto provider, which every
/// `reqwest::Client` needs (reqwest is built without one: see the workspace's
/// `Cargo.toml`). Idempotent: a provider already installed stays.
pub fn install_tls_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// The HTTP client of the deliveries: rustls, 10 s, no redirect followed.
pub fn client() -> anyhow::Result<reqwest::Client> {
    outgoing_client(
        RESPONSE_TIMEOUT,
        concat!("Liftdesk-Webhooks/", env!("CARGO_PKG_VERSION")),
    )
}

/// An HTTP client of Liftdesk's calls out (the deliveries, the desktop's
/// agency server): rustls, `timeout` to connect and to answer, no redirect
/// followed, named `user_agent`.
pub fn outgoing_client(
    timeout: std::time::Duration,
    user_agent: &'static str,
) -> anyhow::Result<reqwest::Client> {
    install_tls_provider();
    Ok(reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(user_agent)
        .build()?)
}

/// [`client`], or reqwest's defaults should it fail to build (logged).
pub fn client_or_default() -> reqwest::Client {
    client().unwrap_or_else(|err| {
        tracing::error!(error = %err, "client HTTP : réglages par défaut");
        install_tls_provider();
        reqwest::Client::new()
    })
}

/// Sends `body` to `url`, signed at `timestamp` with `secret`.
pub async fn send(
    client: &reqwest::Client,
    url: &str,
    delivery_id: &str,
    secret: &str,
    timestamp: i64,
    body: &str,
) -> SendOutcome {
    let signature = signing::signature_header(secret, timestamp, body.as_bytes());
    let request = client
        .post(url)
        .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
        .header(SIGNATURE_HEADER, signature)
        .header(DELIVERY_HEADER, delivery_id)
        .header(
            USER_AGENT,
            HeaderValue::from_static(concat!("Liftdesk-Webhooks/", env!("CARGO_PKG_VERSION"))),
        )
        .body(body.to_owned());
    match request.send().await {
        Ok(response) => {
            let http_status = response.status().as_u16();
            if response.status().is_success() {
                SendOutcome::Delivered { http_status }
            } else {
                SendOutcome::Answered { http_status }
            }
        }
        Err(err) if err.is_timeout() => SendOutcome::TimedOut,
        Err(_) if !name_resolves(url).await => SendOutcome::NameNotResolved,
        Err(_) => SendOutcome::Unreachable,
    }
}

/// Whether the host of `url` resolves (asked after a failed connection, to
/// tell "the receiver is down" from "the network is down").
async fn name_resolves(url: &str) -> bool {
    let Ok(url) = Url::parse(url) else {
        return false;
    };
    let (Some(host), Some(port)) = (url.host_str(), url.port_or_known_default()) else {
        return false;
    };
    if host.parse::<IpAddr>().is_ok() || host.starts_with('[') {
        return true;
    }
    match tokio::time::timeout(
        Duration::from_secs(5),
        tokio::net::lookup_host((host.to_owned(), port)),
    )
    .await
    {
        Ok(Ok(mut addresses)) => addresses.next().is_some(),
        _ => false,
    }
}

/// Whether the URL names this machine (`localhost`, 127.0.0.0/8, `::1`).
pub fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(name)) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            name == "localhost" || name.ends_with(".localhost")
        }
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// reqwest has no TLS provider of its own: the deliveries' client makes
    /// ring the process's, and an HTTPS request then reaches the network
    /// layer (refused by a closed local port, not by a missing provider).
    #[tokio::test]
    async fn the_client_brings_its_tls_provider() {
        let client = client().expect("client");
        let provider = rustls::crypto::CryptoProvider::get_default().expect("provider");
        assert!(
            provider
                .cipher_suites
                .iter()
                .any(|suite| suite.suite() == rustls::CipherSuite::TLS13_AES_128_GCM_SHA256)
        );
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        drop(listener);
        let err = client
            .get(format!("https://127.0.0.1:{port}/"))
            .send()
            .await
            .expect_err("nothing listens");
        assert!(err.is_connect(), "{err:?}");
    }

    #[test]
    fn loopback_addresses() {
        for yes in [
            "http://127.0.0.1:9/x",
            "http://127.8.9.10/",
            "http://[::1]:80/",
            "http://localhost:3000/",
            "http://LOCALHOST./",
        ] {
            assert!(is_loopback(&Url::parse(yes).expect("url")), "{yes}");
        }
        for no in [
            "http://10.0.0.1/",
            "https://example.org/",
            "http://localhost.example.org/",
        ] {
            assert!(!is_loopback(&Url::parse(no).expect("url")), "{no}");
        }
    }

    #[test]
    fn failures_read_in_french() {
        assert_eq!(
            SendOutcome::Delivered { http_status: 204 }.error_text(),
            None
        );
        assert_eq!(
            SendOutcome::Answered { http_status: 302 }
                .error_text()
                .as_deref(),
            Some("Le destinataire a répondu HTTP 302 : les redirections ne sont pas suivies.")
        );
        assert!(SendOutcome::Answered { http_status: 503 }.receiver_down());
        assert!(!SendOutcome::Answered { http_status: 400 }.receiver_down());
        assert!(SendOutcome::Unreachable.receiver_down());
    }
}
