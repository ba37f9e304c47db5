//! How the server is reached over a network: HTTPS by itself (`serve
//! --tls-cert --tls-key`, rustls) or behind a TLS proxy (`--behind-proxy`,
//! the proxies' addresses), and what follows from it: the refusal to speak
//! plain HTTP on an address other computers reach, the session cookie's
//! `Secure`, and the client's address read from `X-Forwarded-For` only
//! when the request came from one of the proxies named.

use std::net::{IpAddr, SocketAddr};
use std::path::Path;

use axum::http::HeaderMap;
use axum_server::tls_rustls::RustlsConfig;

/// The server's place on the network, as `serve` was told.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Network {
    /// Clients reach the server over HTTPS (its own, or the proxy's).
    pub https: bool,
    /// The TLS proxies in front of the server: their `X-Forwarded-For` is
    /// believed, nobody else's.
    pub proxies: Vec<IpAddr>,
}

/// `--behind-proxy`'s value: IP addresses separated by commas.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proxies(pub Vec<IpAddr>);

/// Parses `--behind-proxy` (`127.0.0.1`, `10.0.0.2,10.0.0.3`).
pub fn parse_proxies(text: &str) -> Result<Proxies, String> {
    let proxies = text
        .split(',')
        .map(str::trim)
        .map(|part| {
            part.parse::<IpAddr>().map_err(|_| {
                format!("« {part} » n'est pas une adresse IP (par exemple 127.0.0.1 ou 10.0.0.2)")
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Proxies(proxies))
}

/// Refuses plain HTTP on an address other computers reach: with neither
/// TLS nor a TLS proxy in front, passwords and keys would cross the
/// network in clear.
pub fn check_listening(addr: SocketAddr, network: &Network) -> anyhow::Result<()> {
    if addr.ip().is_loopback() || network.https {
        return Ok(());
    }
    anyhow::bail!(
        "Liftdesk ne sert en HTTP simple que cet ordinateur (127.0.0.1) : pour écouter sur {addr}, donnez-lui un certificat (--tls-cert et --tls-key) ou indiquez le proxy TLS placé devant lui (--behind-proxy ADRESSE_IP ; docs/deployment.md)."
    )
}

/// The certificate and key files (PEM) as rustls serves them.
pub async fn tls_config(cert: &Path, key: &Path) -> anyhow::Result<RustlsConfig> {
    crate::webhooks::sender::install_tls_provider();
    RustlsConfig::from_pem_file(cert, key).await.map_err(|err| {
        anyhow::anyhow!(
            "Certificat TLS {} ou clé {} illisible : {err}",
            cert.display(),
            key.display()
        )
    })
}

impl Network {
    /// The client's address: the peer's, or, when the peer is one of the
    /// proxies, the last address of `X-Forwarded-For` that is not a proxy.
    pub fn client(&self, peer: Option<SocketAddr>, headers: &HeaderMap) -> Option<IpAddr> {
        let peer = peer?.ip();
        if !self.proxies.contains(&peer) {
            return Some(peer);
        }
        let forwarded: Vec<IpAddr> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(|part| part.trim().parse::<IpAddr>().ok())
            .collect::<Option<Vec<_>>>()?;
        Some(
            forwarded
                .into_iter()
                .rev()
                .find(|ip| !self.proxies.contains(ip))
                .unwrap_or(peer),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(forwarded: &[&str]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for value in forwarded {
            map.append("x-forwarded-for", value.parse().expect("header"));
        }
        map
    }

    #[test]
    fn forwarded_for_is_believed_from_the_proxies_only() {
        let proxied = Network {
            https: true,
            proxies: vec!["10.0.0.2".parse().expect("ip")],
        };
        let from = |ip: &str| Some(SocketAddr::new(ip.parse().expect("ip"), 443));
        let far: IpAddr = "203.0.113.7".parse().expect("ip");
        assert_eq!(
            proxied.client(from("10.0.0.2"), &headers(&["203.0.113.7"])),
            Some(far)
        );
        assert_eq!(
            proxied.client(from("10.0.0.2"), &headers(&["127.0.0.1, 203.0.113.7"])),
            Some(far),
            "the proxy's own entry is the last one; what the client wrote before is not believed"
        );
        assert_eq!(
            proxied.client(from("10.0.0.9"), &headers(&["127.0.0.1"])),
            "10.0.0.9".parse().ok(),
            "not a proxy: its header is ignored"
        );
        assert_eq!(
            proxied.client(from("10.0.0.2"), &headers(&["pas une adresse"])),
            None,
            "an unreadable header: no client address"
        );
        assert_eq!(
            Network::default().client(from("127.0.0.1"), &headers(&["203.0.113.7"])),
            "127.0.0.1".parse().ok()
        );
    }

    #[test]
    fn plain_http_only_on_loopback() {
        let plain = Network::default();
        assert!(check_listening("127.0.0.1:8080".parse().expect("addr"), &plain).is_ok());
        assert!(check_listening("[::1]:8080".parse().expect("addr"), &plain).is_ok());
        let refused = check_listening("0.0.0.0:8080".parse().expect("addr"), &plain);
        assert!(
            refused
                .expect_err("refused")
                .to_string()
                .starts_with("Liftdesk ne sert en HTTP simple que cet ordinateur")
        );
        let proxied = Network {
            https: true,
            proxies: vec!["10.0.0.2".parse().expect("ip")],
        };
        assert!(check_listening("10.0.0.12:8080".parse().expect("addr"), &proxied).is_ok());
        assert_eq!(parse_proxies("127.0.0.1, ::1").map(|p| p.0.len()), Ok(2));
        assert!(parse_proxies("nginx").is_err());
    }
}
