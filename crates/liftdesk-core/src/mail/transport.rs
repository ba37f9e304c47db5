//! One message handed to the outgoing server (SMTP) by lettre: the message
//! built from its parts (text, PDF attached), the connection made as the
//! settings say (STARTTLS, TLS, none; login if a user is set), and every
//! failure told in French, permanent (the server refused for good: 5xx) or
//! transient (no connection, timeout, 4xx: tried again later).

use std::time::Duration;

use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{Address, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::domain::mail::SmtpSecurity;

/// How long one exchange with the server may take.
const TIMEOUT: Duration = Duration::from_secs(20);

/// Where and how to connect, the password in clear (never logged).
#[derive(Clone, PartialEq, Eq)]
pub struct Server {
    pub host: String,
    pub port: u16,
    pub security: SmtpSecurity,
    pub username: Option<String>,
    pub password: Option<String>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("username", &self.username)
            .finish_non_exhaustive()
    }
}

/// What to send.
#[derive(Debug, Clone)]
pub struct Outgoing<'a> {
    pub from_name: &'a str,
    pub from_email: &'a str,
    /// `(name, email)`.
    pub to: Vec<(&'a str, &'a str)>,
    pub subject: &'a str,
    pub body: &'a str,
    /// `(file name, PDF bytes)`.
    pub attachment: Option<(&'a str, &'a [u8])>,
}

/// Why a send failed, in French.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendError {
    pub reason: String,
    /// The server refused for good (5xx), or the message itself is wrong:
    /// trying again as it is would not help.
    pub permanent: bool,
}

impl SendError {
    fn permanent(reason: String) -> Self {
        Self {
            reason,
            permanent: true,
        }
    }
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

fn mailbox(name: &str, email: &str) -> Result<Mailbox, SendError> {
    let address: Address = email
        .parse()
        .map_err(|_| SendError::permanent(format!("Adresse e-mail « {email} » invalide.")))?;
    let name = name.trim();
    Ok(Mailbox::new(
        (!name.is_empty()).then(|| name.to_owned()),
        address,
    ))
}

/// The message as it is sent: `multipart/mixed` (the text, then the PDF)
/// with an attachment, a plain UTF-8 text otherwise.
pub fn build(outgoing: &Outgoing<'_>) -> Result<Message, SendError> {
    let from = mailbox(outgoing.from_name, outgoing.from_email)?;
    // The id names the sender's domain, never this machine's name.
    let message_id = format!("<{}@{}>", uuid::Uuid::now_v7(), from.email.domain());
    let mut builder = Message::builder()
        .from(from.clone())
        .reply_to(from)
        .subject(outgoing.subject)
        .date_now()
        .message_id(Some(message_id));
    for (name, email) in &outgoing.to {
        builder = builder.to(mailbox(name, email)?);
    }
    let text = SinglePart::plain(outgoing.body.to_owned());
    let built = match outgoing.attachment {
        Some((file_name, bytes)) => {
            let pdf = ContentType::parse("application/pdf").map_err(|err| {
                SendError::permanent(format!("Type de pièce jointe illisible : {err}"))
            })?;
            builder.multipart(
                MultiPart::mixed()
                    .singlepart(text)
                    .singlepart(Attachment::new(file_name.to_owned()).body(bytes.to_vec(), pdf)),
            )
        }
        None => builder.singlepart(text),
    };
    built.map_err(|err| SendError::permanent(format!("Message impossible à composer : {err}")))
}

fn transport(server: &Server) -> Result<AsyncSmtpTransport<Tokio1Executor>, SendError> {
    let tls = || {
        TlsParameters::new(server.host.clone()).map_err(|err| {
            SendError::permanent(format!(
                "Paramètres TLS impossibles pour « {} » : {err}",
                server.host
            ))
        })
    };
    let builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(server.host.as_str())
        .port(server.port)
        .timeout(Some(TIMEOUT));
    let builder = match server.security {
        SmtpSecurity::Starttls => builder.tls(Tls::Required(tls()?)),
        SmtpSecurity::Tls => builder.tls(Tls::Wrapper(tls()?)),
        SmtpSecurity::Aucune => builder.tls(Tls::None),
    };
    let builder = match &server.username {
        Some(user) => builder.credentials(Credentials::new(
            user.clone(),
            server.password.clone().unwrap_or_default(),
        )),
        None => builder,
    };
    Ok(builder.build())
}

/// Hands the message to the server; Ok once the server accepted it.
pub async fn send(server: &Server, outgoing: &Outgoing<'_>) -> Result<(), SendError> {
    crate::webhooks::sender::install_tls_provider();
    let message = build(outgoing)?;
    let transport = transport(server)?;
    match tokio::time::timeout(TIMEOUT * 3, transport.send(message)).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(err)) => Err(explain(server, &err)),
        Err(_) => Err(SendError {
            reason: format!(
                "Le serveur d'envoi {}:{} ne répond pas (délai dépassé).",
                server.host, server.port
            ),
            permanent: false,
        }),
    }
}

/// What went wrong, in French: the server's code and own words when it
/// answered (« 550 5.7.1 … »), else the network's failure.
fn detail(err: &lettre::transport::smtp::Error) -> String {
    use std::error::Error as _;
    use std::io::ErrorKind;
    if let Some(code) = err.status() {
        let words = err.source().map(|s| s.to_string()).unwrap_or_default();
        return format!("{code} {}", words.trim()).trim().to_owned();
    }
    let mut source = err.source();
    while let Some(cause) = source {
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            return match io.kind() {
                ErrorKind::ConnectionRefused => "connexion refusée".to_owned(),
                ErrorKind::ConnectionReset
                | ErrorKind::ConnectionAborted
                | ErrorKind::BrokenPipe => "connexion interrompue par le serveur".to_owned(),
                ErrorKind::TimedOut => "délai dépassé".to_owned(),
                ErrorKind::NotFound
                | ErrorKind::AddrNotAvailable
                | ErrorKind::HostUnreachable
                | ErrorKind::NetworkUnreachable => "serveur ou réseau introuvable".to_owned(),
                ErrorKind::UnexpectedEof => "le serveur a fermé la connexion".to_owned(),
                _ => format!("erreur réseau ({io})"),
            };
        }
        source = cause.source();
    }
    match err.source() {
        Some(cause) => cause.to_string(),
        None => err.to_string(),
    }
}

/// The failure in French, with the server's own words when it answered.
fn explain(server: &Server, err: &lettre::transport::smtp::Error) -> SendError {
    let place = format!("{}:{}", server.host, server.port);
    let detail = detail(err);
    if err.is_permanent() {
        let auth = err.status().is_some_and(|code| {
            let code = code.to_string();
            code.starts_with("535") || code.starts_with("530")
        });
        let reason = if auth {
            format!("Identifiant ou mot de passe refusé par le serveur d'envoi {place} ({detail}).")
        } else {
            format!("Refusé par le serveur d'envoi {place} : {detail}.")
        };
        return SendError::permanent(reason);
    }
    let reason = if err.is_transient() {
        format!("Le serveur d'envoi {place} demande de réessayer plus tard : {detail}.")
    } else if err.is_timeout() {
        format!("Le serveur d'envoi {place} ne répond pas (délai dépassé).")
    } else if err.is_tls() {
        format!("Connexion chiffrée impossible avec le serveur d'envoi {place} : {detail}.")
    } else {
        format!("Serveur d'envoi {place} injoignable : {detail}.")
    };
    SendError {
        reason,
        permanent: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_is_a_mixed_message_with_its_pdf() {
        let message = build(&Outgoing {
            from_name: "Ascenseurs Durand",
            from_email: "contact@durand.fr",
            to: vec![("Syndic Martin", "compta@martin.fr")],
            subject: "Facture F-2026-000001 — Ascenseurs Durand",
            body: "Bonjour,\n\nVeuillez trouver ci-joint notre facture.",
            attachment: Some(("F-2026-000001.pdf", b"%PDF-1.7 test")),
        })
        .expect("message");
        let text = String::from_utf8(message.formatted()).expect("utf-8");
        assert!(text.contains("Content-Type: multipart/mixed"), "{text}");
        assert!(text.contains("filename=\"F-2026-000001.pdf\""), "{text}");
        assert!(text.contains("Content-Type: application/pdf"), "{text}");
        assert!(
            text.contains("To: \"Syndic Martin\" <compta@martin.fr>"),
            "{text}"
        );
        assert!(text.contains("Reply-To:"), "{text}");
        assert!(text.contains("Date: "), "{text}");
        assert!(text.contains("@durand.fr>"), "{text}");
    }

    #[test]
    fn a_wrong_address_is_refused_for_good() {
        let err = build(&Outgoing {
            from_name: "A",
            from_email: "pas-une-adresse",
            to: vec![("B", "b@b.fr")],
            subject: "s",
            body: "b",
            attachment: None,
        })
        .expect_err("refused");
        assert!(err.permanent);
        assert_eq!(err.reason, "Adresse e-mail « pas-une-adresse » invalide.");
    }

    #[test]
    fn the_password_is_never_in_the_debug_output() {
        let server = Server {
            host: "smtp.exemple.fr".into(),
            port: 587,
            security: SmtpSecurity::Starttls,
            username: Some("agence".into()),
            password: Some("s3cr3t".into()),
        };
        assert!(!format!("{server:?}").contains("s3cr3t"));
    }
}
