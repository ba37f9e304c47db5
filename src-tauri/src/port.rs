//! The embedded server's port: stable (8080 by default) so that call
//! centers and partners can be configured once, with a fallback to any free
//! port when another program already holds it.

use std::net::{Ipv4Addr, SocketAddr, TcpListener};

/// The port integrations are configured with when nothing else is said.
pub const DEFAULT_PORT: u16 = 8080;

/// A bound loopback listener, and the port that was wanted if it was busy.
pub struct Bound {
    pub listener: TcpListener,
    pub port: u16,
    /// Set when the wanted port was taken and another one was chosen.
    pub busy: Option<u16>,
}

/// `$LIFTDESK_PORT` if set (0 = any free port), else [`DEFAULT_PORT`].
pub fn configured() -> anyhow::Result<u16> {
    parse(std::env::var("LIFTDESK_PORT").ok().as_deref())
}

fn parse(value: Option<&str>) -> anyhow::Result<u16> {
    match value.map(str::trim) {
        Some(value) if !value.is_empty() => value.parse().map_err(|_| {
            anyhow::anyhow!(
                "LIFTDESK_PORT invalide : « {value} » (attendu : un numéro de port entre 0 et 65535)."
            )
        }),
        _ => Ok(DEFAULT_PORT),
    }
}

/// Binds 127.0.0.1:`wanted`; if another program holds it, any free port.
pub fn bind(wanted: u16) -> anyhow::Result<Bound> {
    let (listener, busy) = match bind_loopback(wanted) {
        Ok(listener) => (listener, None),
        Err(err) if err.kind() == std::io::ErrorKind::AddrInUse && wanted != 0 => {
            let listener = bind_loopback(0).map_err(|err| {
                anyhow::anyhow!(
                    "Le port 127.0.0.1:{wanted} est déjà utilisé et aucun autre port n'est libre : {err}"
                )
            })?;
            (listener, Some(wanted))
        }
        Err(err) => {
            return Err(anyhow::anyhow!(
                "Impossible d'écouter sur 127.0.0.1:{wanted} : {err}"
            ));
        }
    };
    listener
        .set_nonblocking(true)
        .map_err(|err| anyhow::anyhow!("Impossible de configurer le port d'écoute : {err}"))?;
    let port = listener
        .local_addr()
        .map_err(|err| anyhow::anyhow!("Impossible de lire le port d'écoute : {err}"))?
        .port();
    Ok(Bound {
        listener,
        port,
        busy,
    })
}

fn bind_loopback(port: u16) -> std::io::Result<TcpListener> {
    TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
}

/// What the user (log and notification) is told when the port was busy.
pub fn fallback_message(busy: u16, base_url: &str) -> String {
    format!(
        "Le port {busy} est déjà utilisé par une autre application : Liftdesk écoute sur {base_url}. \
         Les intégrations (centres d'appels, partenaires, webhooks de test) doivent utiliser cette adresse \
         tant que le port {busy} n'est pas libéré."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_port_defaults_to_8080_and_zero_means_any() {
        assert_eq!(parse(None).unwrap(), 8080);
        assert_eq!(parse(Some(" ")).unwrap(), 8080);
        assert_eq!(parse(Some("0")).unwrap(), 0);
        assert_eq!(parse(Some(" 9123 ")).unwrap(), 9123);
        let err = parse(Some("huit")).unwrap_err().to_string();
        assert!(err.contains("LIFTDESK_PORT invalide"), "{err}");
    }

    #[test]
    fn a_busy_port_falls_back_to_a_free_one() {
        let holder = bind_loopback(0).unwrap();
        let taken = holder.local_addr().unwrap().port();
        let bound = bind(taken).unwrap();
        assert_eq!(bound.busy, Some(taken));
        assert_ne!(bound.port, taken);
        assert_eq!(bound.listener.local_addr().unwrap().port(), bound.port);
        assert!(bound.listener.local_addr().unwrap().ip().is_loopback());

        drop(holder);
        let free = bind(taken).unwrap();
        assert_eq!((free.port, free.busy), (taken, None));
    }

    #[test]
    fn the_fallback_message_names_the_address_to_use() {
        let text = fallback_message(8080, "http://127.0.0.1:41234");
        assert!(text.contains("port 8080 est déjà utilisé"), "{text}");
        assert!(text.contains("http://127.0.0.1:41234"), "{text}");
    }
}
