//! Is the machine online? The sync task asks before sending, so that an
//! offline period spends no attempt.
//!
//! - `route` (default): the system has a route to the internet (a UDP socket
//!   "connected" to a public address: no packet is sent). Receivers on a
//!   loopback address are reachable whatever it says.
//! - `tcp://host:port`: a TCP connection opens within 3 s.
//! - `http://…` or `https://…`: the address answers (any HTTP status)
//!   within 5 s.
//! - `off`: always online.
//!
//! With an explicit probe (`tcp`, `http`), every receiver waits while it
//! fails, loopback ones included: the administrator chose what "online"
//! means.

use std::fmt;
use std::net::UdpSocket;
use std::time::Duration;

use reqwest::Url;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Probe {
    Route,
    Off,
    Tcp(String),
    Http(String),
}

const TCP_TIMEOUT: Duration = Duration::from_secs(3);
const HTTP_TIMEOUT: Duration = Duration::from_secs(5);

impl Probe {
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        match text {
            "route" => return Ok(Self::Route),
            "off" | "aucune" | "none" => return Ok(Self::Off),
            _ => {}
        }
        let refused = || {
            format!(
                "sonde « {text} » illisible : route, off, tcp://hôte:port ou une adresse http(s)://"
            )
        };
        let url = Url::parse(text).map_err(|_| refused())?;
        match url.scheme() {
            "tcp" => {
                let host = url.host_str().ok_or_else(refused)?;
                let port = url.port().ok_or_else(refused)?;
                Ok(Self::Tcp(format!("{host}:{port}")))
            }
            "http" | "https" if url.host_str().is_some() => Ok(Self::Http(url.to_string())),
            _ => Err(refused()),
        }
    }

    /// Whether a loopback receiver waits too while the probe fails.
    pub fn holds_loopback(&self) -> bool {
        matches!(self, Self::Tcp(_) | Self::Http(_))
    }

    pub async fn is_online(&self, client: &reqwest::Client) -> bool {
        match self {
            Self::Off => true,
            Self::Route => has_internet_route(),
            Self::Tcp(address) => matches!(
                tokio::time::timeout(TCP_TIMEOUT, tokio::net::TcpStream::connect(address)).await,
                Ok(Ok(_))
            ),
            Self::Http(url) => client.get(url).timeout(HTTP_TIMEOUT).send().await.is_ok(),
        }
    }
}

/// A route to a public IPv4 or IPv6 address exists ("connecting" a UDP
/// socket only asks the routing table).
fn has_internet_route() -> bool {
    let routed = |bind: &str, target: &str| {
        UdpSocket::bind(bind)
            .and_then(|socket| socket.connect(target))
            .is_ok()
    };
    routed("0.0.0.0:0", "1.1.1.1:53") || routed("[::]:0", "[2606:4700:4700::1111]:53")
}

impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Route => f.write_str("route"),
            Self::Off => f.write_str("off"),
            Self::Tcp(address) => write!(f, "tcp://{address}"),
            Self::Http(url) => f.write_str(url),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_probe_forms() {
        assert_eq!(Probe::parse("route"), Ok(Probe::Route));
        assert_eq!(Probe::parse("off"), Ok(Probe::Off));
        assert_eq!(
            Probe::parse("tcp://127.0.0.1:9"),
            Ok(Probe::Tcp("127.0.0.1:9".to_owned()))
        );
        assert_eq!(
            Probe::parse("https://example.org/ping"),
            Ok(Probe::Http("https://example.org/ping".to_owned()))
        );
        for bad in ["", "tcp://host", "ftp://x", "nimporte"] {
            assert!(Probe::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[tokio::test]
    async fn a_tcp_probe_follows_its_listener() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let address = listener.local_addr().expect("addr");
        let probe = Probe::Tcp(address.to_string());
        let client = crate::webhooks::sender::client().expect("client");
        assert!(probe.is_online(&client).await);
        drop(listener);
        assert!(!probe.is_online(&client).await);
    }
}
