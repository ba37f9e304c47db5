//! Documents sent by e-mail (`services::mailing`, `crate::mail`), against a
//! real local SMTP receiver (aiosmtpd, `common::smtp`): the organization's
//! outgoing server set and tested by its administrators only (password never
//! shown, stored sealed); a quote, an invoice and a done visit's report sent
//! to contacts of their client, PDF attached, from the agency's address,
//! their status moved and audited in the same transaction; every bad input
//! refused in French with nothing changed; a failure retried by the mail
//! task, a refusal abandoned then asked again; offline, a message waits
//! without spending attempts; another organization's documents not found.

use crate::common;

use common::app::StaffClient;
use common::smtp::SmtpSink;
use common::*;
use liftdesk::auth::rate_limit::RateLimit;
use liftdesk::webhooks::{Probe, RetrySchedule, WebhookSettings};
use serde_json::{Value, json};

const PASSWORD: &str = "motdepasse-solide";
const AGENCY_EMAIL: &str = "contact@durand-ascenseurs.fr";

struct World {
    server: TestServer,
    admin: StaffClient,
    member: StaffClient,
    outsider: StaffClient,
    /// Jeanne Martin, contact of CLI-1 with an address.
    jeanne: String,
    /// A contact of CLI-1 without an address.
    no_address: String,
    /// A contact of CLI-2.
    stranger: String,
    /// ASC-1, of CLI-1.
    lift: String,
}

async fn world() -> World {
    let data_dir = tempfile::tempdir().expect("temp dir");
    let server = TestServer::start_adjusted(data_dir, RateLimit::default(), |state| {
        state.with_webhook_settings(WebhookSettings {
            insecure_loopback: true,
            retry_schedule: RetrySchedule::parse("1s,1s").expect("schedule"),
            probe: Probe::Off,
            ..WebhookSettings::default()
        })
    })
    .await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    init_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    member(&server, &org.agency_id, "membre@durand.fr", &[]);
    let admin = StaffClient::sign_in(&server, "claire@durand.fr", PASSWORD).await;
    let member = StaffClient::sign_in(&server, "membre@durand.fr", PASSWORD).await;
    let outsider = StaffClient::sign_in(&server, "paul@martin.fr", PASSWORD).await;
    let (status, body) = admin
        .put(
            "/agency/identity",
            json!({
                "legalName": "Durand Ascenseurs", "siret": TEST_SIRET, "address": TEST_ADDRESS,
                "vatNumber": TEST_VAT_NUMBER, "phone": "04 72 00 00 00", "email": AGENCY_EMAIL
            }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    for (id, name) in [("CLI-1", "Syndic Dupont"), ("CLI-2", "Résidence des Lilas")] {
        let (status, body) = admin
            .post(
                "/clients",
                json!({ "id": id, "name": name, "address": "12 rue de la Paix, 75002 Paris" }),
            )
            .await;
        assert_eq!(status, 201, "{body}");
    }
    let mut contacts = Vec::new();
    for (client, champs) in [
        (
            "CLI-1",
            json!({ "nom": "Jeanne Martin", "email": "jeanne@dupont.fr", "fonction": "Gestionnaire" }),
        ),
        ("CLI-1", json!({ "nom": "Paul Sans Adresse" })),
        (
            "CLI-2",
            json!({ "nom": "Luc Lilas", "email": "luc@lilas.fr" }),
        ),
    ] {
        let (status, body) = admin
            .post("/contacts", json!({ "parentId": client, "champs": champs }))
            .await;
        assert_eq!(status, 201, "{body}");
        contacts.push(str_of(&body, "id").to_owned());
    }
    let (status, lift) = admin
        .post(
            "/equipment",
            json!({ "number": "ASC-1", "type": "ascenseur", "clientId": "CLI-1" }),
        )
        .await;
    assert_eq!(status, 201, "{lift}");
    let [jeanne, no_address, stranger] = <[String; 3]>::try_from(contacts).expect("three");
    World {
        server,
        admin,
        member,
        outsider,
        jeanne,
        no_address,
        stranger,
        lift: str_of(&lift, "id").to_owned(),
    }
}

async fn configure(admin: &StaffClient, sink: &SmtpSink) {
    let (status, body) = admin
        .put(
            "/mail-settings",
            json!({ "host": "127.0.0.1", "port": sink.port, "security": "aucune", "username": "agence", "password": "s3cret-smtp" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
}

async fn new_quote(client: &StaffClient, lift: &str) -> String {
    let (status, body) = client
        .post(
            "/quotes",
            json!({ "equipmentId": lift, "origin": "panne", "object": "Remplacement du contacteur",
                    "rows": [{ "label": "Contacteur", "quantity": 1, "unitPrice": 240 }] }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    str_of(&body, "id").to_owned()
}

async fn issued_invoice(client: &StaffClient) -> (String, String) {
    let (status, body) = client
        .post(
            "/invoices",
            json!({ "clientId": "CLI-1", "lines": [{ "label": "Maintenance du trimestre", "quantity": 1, "unitPrice": 450 }] }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let id = str_of(&body, "id").to_owned();
    let (status, body) = client
        .post(&format!("/invoices/{id}/issue"), json!({}))
        .await;
    assert_eq!(status, 201, "{body}");
    let (_, invoice) = client.get(&format!("/invoices/{id}")).await;
    let number = invoice["invoice"]["number"]
        .as_str()
        .or_else(|| invoice["number"].as_str())
        .unwrap_or_else(|| panic!("numéro : {invoice}"))
        .to_owned();
    (id, number)
}

fn mails_count(server: &TestServer) -> i64 {
    open_db(server.data_dir.path())
        .query_row("SELECT COUNT(*) FROM mails", [], |r| r.get(0))
        .expect("count")
}

#[tokio::test]
async fn documents_leave_by_email_with_their_pdf_to_the_chosen_contacts() {
    let w = world().await;
    let sink = SmtpSink::start(&["--user", "agence", "--password", "s3cret-smtp"]);

    // The outgoing server: organization administrators only.
    let forbidden = json!({ "error": "Consulter le serveur d'envoi des e-mails est réservé à un administrateur de l'organisation." });
    assert_eq!(w.member.get("/mail-settings").await, (403, forbidden));
    let (status, _) = w
        .member
        .put(
            "/mail-settings",
            json!({ "host": "smtp.x.fr", "security": "tls" }),
        )
        .await;
    assert_eq!(status, 403);
    let (status, unset) = w.admin.get("/mail-settings").await;
    assert_eq!(status, 200);
    assert_eq!(unset["configured"], false);

    // Sending without a server is refused, and nothing moves.
    let quote = new_quote(&w.admin, &w.lift).await;
    let (status, body) = w
        .admin
        .post(
            &format!("/quotes/{quote}/send"),
            json!({ "contactIds": [w.jeanne] }),
        )
        .await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Aucun serveur d'envoi n'est réglé : un administrateur de l'organisation le règle dans Paramètres › E-mail (serveur d'envoi)." })
        )
    );
    assert_eq!(
        w.admin.get(&format!("/quotes/{quote}")).await.1["quote"]["status"],
        "brouillon"
    );

    // Bad settings, each refused in French naming its field.
    for (body, error) in [
        (
            json!({ "host": "smtp exemple", "security": "tls" }),
            "Champ « host » : Serveur d'envoi « smtp exemple » illisible : un nom (smtp.exemple.fr) ou une adresse IP.",
        ),
        (
            json!({ "host": "smtp.exemple.fr", "security": "ssl" }),
            "Champ « security » : « ssl » inconnu ; attendu : starttls, tls ou aucune.",
        ),
        (
            json!({ "host": "smtp.exemple.fr", "security": "tls", "port": 70000 }),
            "Champ « port » : un nombre de 1 à 65535.",
        ),
        (
            json!({ "host": "smtp.exemple.fr", "security": "tls", "password": "x" }),
            "Champ « password » : un mot de passe va avec un identifiant ; renseignez « username ».",
        ),
    ] {
        assert_eq!(
            w.admin.put("/mail-settings", body.clone()).await,
            (422, json!({ "error": error })),
            "{body}"
        );
    }
    configure(&w.admin, &sink).await;
    let (_, saved) = w.admin.get("/mail-settings").await;
    assert_eq!(
        saved,
        json!({
            "configured": true, "host": "127.0.0.1", "port": sink.port, "security": "aucune",
            "securityLabel": "Aucun chiffrement (relais du réseau local)", "username": "agence",
            "passwordSet": true, "updatedAt": saved["updatedAt"]
        })
    );
    // Sealed at rest.
    let sealed: Vec<u8> = open_db(w.server.data_dir.path())
        .query_row("SELECT password_enc FROM mail_settings", [], |r| r.get(0))
        .expect("sealed");
    assert!(!sealed.windows(11).any(|w| w == b"s3cret-smtp"));
    // Another organization has its own (none).
    assert_eq!(
        w.outsider.get("/mail-settings").await.1["configured"],
        false
    );

    // « Tester » writes to the administrator through the saved server.
    let (status, body) = w.admin.post("/mail-settings/test", json!({})).await;
    assert_eq!(
        (status, body),
        (200, json!({ "ok": true, "sentTo": "claire@durand.fr" }))
    );
    let test = &sink.wait_for(1).await[0];
    assert_eq!(test["subject"], "Liftdesk : message d'essai");
    assert_eq!(test["rcptTos"], json!(["claire@durand.fr"]));
    assert_eq!(test["login"], "agence");
    assert_eq!(test["mailFrom"], AGENCY_EMAIL);

    // The dialog's starting point.
    let (status, options) = w.member.get(&format!("/quotes/{quote}/send-options")).await;
    assert_eq!(status, 200, "{options}");
    assert_eq!(
        options["contacts"],
        json!([
            { "id": w.jeanne, "name": "Jeanne Martin", "email": "jeanne@dupont.fr", "role": "Gestionnaire" },
            { "id": w.no_address, "name": "Paul Sans Adresse", "email": null, "role": null }
        ])
    );
    assert_eq!(options["senderEmail"], AGENCY_EMAIL);
    assert_eq!(options["serverConfigured"], true);
    let quote_number = w.admin.get(&format!("/quotes/{quote}")).await.1["quote"]["number"]
        .as_str()
        .expect("number")
        .to_owned();
    assert_eq!(
        options["subject"],
        format!("Devis {quote_number} — Durand Ascenseurs")
    );
    assert_eq!(options["attachmentName"], format!("{quote_number}.pdf"));
    assert!(
        options["message"]
            .as_str()
            .expect("message")
            .contains(&format!(
                "Veuillez trouver ci-joint notre devis n° {quote_number}, d'un montant de 288,00"
            ))
    );

    // Bad recipients: refused, nothing written, the status unchanged.
    for (body, error) in [
        (
            json!({ "contactIds": [w.stranger] }),
            format!("Champ « contactIds » : « {} » n'est pas un contact du client de ce document.", w.stranger),
        ),
        (
            json!({ "contactIds": [w.no_address] }),
            "Champ « contactIds » : Paul Sans Adresse n'a pas d'adresse e-mail ; complétez sa fiche sur la page du client.".to_owned(),
        ),
        (
            json!({ "contactIds": [w.jeanne], "subject": "Devis\nBcc: x@y.fr" }),
            "Champ « subject » : L'objet du message tient sur une ligne.".to_owned(),
        ),
        (
            json!({ "contactIds": [w.jeanne], "message": " " }),
            "Champ « message » : Le texte du message est vide.".to_owned(),
        ),
    ] {
        assert_eq!(
            w.member.post(&format!("/quotes/{quote}/send"), body.clone()).await,
            (422, json!({ "error": error })),
            "{body}"
        );
    }
    assert_eq!(mails_count(&w.server), 0);
    assert_eq!(
        w.admin.get(&format!("/quotes/{quote}")).await.1["quote"]["status"],
        "brouillon"
    );

    // The quote leaves, by a member, to Jeanne, its PDF attached.
    let (status, sent) = w
        .member
        .post(
            &format!("/quotes/{quote}/send"),
            json!({ "contactIds": [w.jeanne, w.jeanne] }),
        )
        .await;
    assert_eq!(status, 201, "{sent}");
    assert_eq!(sent["id"], json!(quote));
    let mail = &sent["mail"];
    assert_eq!(mail["status"], "envoye", "{mail}");
    assert_eq!(mail["statusLabel"], "Envoyé");
    assert_eq!(
        mail["recipients"],
        json!([{ "name": "Jeanne Martin", "email": "jeanne@dupont.fr", "contactId": w.jeanne }])
    );
    assert_eq!(mail["attempts"], 1);
    assert_eq!(mail["createdBy"], "Marc Membre");
    let (_, read) = w.admin.get(&format!("/quotes/{quote}")).await;
    assert_eq!(read["quote"]["status"], "envoye");

    let received = sink.wait_for(2).await;
    let message = &received[1];
    assert_eq!(message["rcptTos"], json!(["jeanne@dupont.fr"]));
    assert_eq!(
        message["from"],
        format!("Durand Ascenseurs <{AGENCY_EMAIL}>")
    );
    assert_eq!(
        message["replyTo"],
        format!("Durand Ascenseurs <{AGENCY_EMAIL}>")
    );
    assert_eq!(message["to"], "Jeanne Martin <jeanne@dupont.fr>");
    assert_eq!(message["contentType"], "multipart/mixed");
    assert!(message["messageId"].is_string() && message["date"].is_string());
    assert_eq!(message["subject"], mail["subject"]);
    let text = message["text"].as_str().expect("text");
    assert!(text.starts_with("Bonjour,"), "{text}");
    assert!(
        text.contains("Veuillez trouver ci-joint notre devis"),
        "{text}"
    );
    assert!(
        text.contains("Durand Ascenseurs\r\nTél. 04 72 00 00 00"),
        "{text}"
    );
    let attachments = message["attachments"].as_array().expect("attachments");
    assert_eq!(attachments.len(), 1);
    assert_eq!(attachments[0]["contentType"], "application/pdf");
    assert_eq!(attachments[0]["filename"], mail["attachmentName"]);
    assert_eq!(attachments[0]["size"], mail["attachmentBytes"]);
    assert!(
        attachments[0]["head"]
            .as_str()
            .expect("head")
            .starts_with("%PDF-")
    );
    assert_eq!(
        message["subject"],
        format!("Devis {quote_number} — Durand Ascenseurs")
    );
    let (status, mails) = w.member.get(&format!("/quotes/{quote}/mails")).await;
    assert_eq!(status, 200);
    assert_eq!(mails.as_array().expect("mails").len(), 1);
    assert_eq!(mails[0]["id"], mail["id"]);
    assert_eq!(
        audit_of(&w.server, "quote", &quote)
            .iter()
            .map(|(action, _)| action.as_str())
            .collect::<Vec<_>>()[1..],
        ["envoi", "envoi_email"]
    );

    // An invoice, issued then sent, the subject and text naming it; the PDF
    // read back from the message carries the seller's SIRET.
    let (invoice, number) = issued_invoice(&w.admin).await;
    let (status, sent) = w
        .admin
        .post(
            &format!("/invoices/{invoice}/send"),
            json!({ "contactIds": [w.jeanne], "message": "Bonjour,\nVoici la facture.\nCordialement" }),
        )
        .await;
    assert_eq!(status, 201, "{sent}");
    assert_eq!(sent["mail"]["status"], "envoye");
    assert_eq!(
        sent["mail"]["subject"],
        format!("Facture {number} — Durand Ascenseurs")
    );
    assert_eq!(sent["mail"]["attachmentName"], format!("{number}.pdf"));
    let received = sink.wait_for(3).await;
    assert_eq!(
        received[2]["text"],
        "Bonjour,\r\nVoici la facture.\r\nCordialement"
    );
    let raw = sink.raw(3);
    let pdf = pdf_of_message(&raw);
    let printed = pdftotext(&pdf);
    assert!(printed.contains(&number), "{printed}");
    assert!(printed.contains("732 829 320 00074"), "{printed}");
    let (_, read) = w.admin.get(&format!("/invoices/{invoice}")).await;
    assert_eq!(read["invoice"]["status"], "envoyee", "{read}");

    // A planned visit has no report; a done one is sent. Visits are planned
    // on Paris days.
    let today = liftdesk::clock::paris_today();
    let (status, visit) = w
        .admin
        .post(
            "/visits",
            json!({ "equipmentId": w.lift, "plannedFor": today.to_string() }),
        )
        .await;
    assert_eq!(status, 201, "{visit}");
    let visit = str_of(&visit, "id").to_owned();
    let (status, body) = w
        .admin
        .post(
            &format!("/visits/{visit}/send-report"),
            json!({ "contactIds": [w.jeanne] }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        body["error"],
        "Cette visite n'a pas encore de rapport : elle est « Planifiée » ; le rapport existe une fois la visite faite."
    );
    let arrived = (chrono::Utc::now() - chrono::Duration::hours(1)).to_rfc3339();
    let (status, body) = w
        .admin
        .post(
            &format!("/visits/{visit}/complete"),
            json!({ "arrivedAt": arrived, "signedBy": "M. Gardien", "observations": "Câbles contrôlés.\nRAS." }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        w.admin
            .post(
                &format!("/visits/{visit}/send-report"),
                json!({ "contactIds": [] })
            )
            .await,
        (
            422,
            json!({ "error": "Champ « contactIds » : choisissez au moins un destinataire du rapport." })
        )
    );
    let (status, report) = w
        .member
        .post(
            &format!("/visits/{visit}/send-report"),
            json!({ "contactIds": [w.jeanne] }),
        )
        .await;
    assert_eq!(status, 201, "{report}");
    assert_eq!(report["status"], "envoye");
    assert_eq!(
        report["subject"],
        "Rapport de visite — appareil ASC-1 — Durand Ascenseurs"
    );
    let received = sink.wait_for(4).await;
    assert!(
        received[3]["attachments"][0]["filename"]
            .as_str()
            .expect("name")
            .starts_with("rapport-ASC-1-")
    );
    let printed = pdftotext(&pdf_of_message(&sink.raw(4)));
    for expected in [
        "Rapport de visite",
        "ASC-1",
        "M. Gardien",
        "Câbles contrôlés.",
        "RAS.",
    ] {
        assert!(printed.contains(expected), "{expected} : {printed}");
    }
    assert_eq!(
        audit_of(&w.server, "visit", &visit)
            .last()
            .map(|(a, _)| a.as_str()),
        Some("envoi_email")
    );

    // Sent by other means: the status only, no message.
    let other_quote = new_quote(&w.admin, &w.lift).await;
    let before = mails_count(&w.server);
    let (status, sent) = w
        .admin
        .post(&format!("/quotes/{other_quote}/send"), json!({}))
        .await;
    assert_eq!(status, 201, "{sent}");
    assert_eq!(sent["mail"], Value::Null);
    assert_eq!(mails_count(&w.server), before);

    // Another organization: not found.
    let not_found = w
        .outsider
        .post(
            &format!("/quotes/{quote}/send"),
            json!({ "contactIds": [w.jeanne] }),
        )
        .await;
    assert_eq!(not_found.0, 404, "{}", not_found.1);
    for path in [
        format!("/quotes/{quote}/mails"),
        format!("/invoices/{invoice}/send-options"),
        format!("/visits/{visit}/mails"),
        format!("/visits/{visit}/report.pdf"),
    ] {
        assert_eq!(w.outsider.get(&path).await.0, 404, "{path}");
    }
    let mail_id = str_of(mail, "id");
    assert_eq!(
        w.outsider
            .post(&format!("/mails/{mail_id}/retry"), json!({}))
            .await
            .0,
        404
    );
    assert_eq!(sink.messages().len(), 4);
    w.server.stop().await;
}

/// The first PDF attached to a raw message (base64, as lettre encodes it).
fn pdf_of_message(raw: &[u8]) -> Vec<u8> {
    use base64::Engine;
    let text = String::from_utf8_lossy(raw);
    let start = text
        .find("Content-Type: application/pdf")
        .expect("PDF part");
    let part = &text[start..];
    let body_start = part.find("\r\n\r\n").expect("part body") + 4;
    let body = &part[body_start..];
    let end = body.find("\r\n--").unwrap_or(body.len());
    let encoded: String = body[..end].split_whitespace().collect();
    base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .expect("base64")
}

#[tokio::test]
async fn a_failed_send_is_retried_and_a_refused_one_can_be_asked_again() {
    let w = world().await;
    // The server asks to try again later, once: the task tries again.
    let busy = SmtpSink::start(&["--fail-first", "1"]);
    let (status, body) = w
        .admin
        .put(
            "/mail-settings",
            json!({ "host": "127.0.0.1", "port": busy.port, "security": "aucune" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (invoice, _) = issued_invoice(&w.admin).await;
    let (status, sent) = w
        .admin
        .post(
            &format!("/invoices/{invoice}/send"),
            json!({ "contactIds": [w.jeanne] }),
        )
        .await;
    assert_eq!(status, 201, "{sent}");
    let mail = &sent["mail"];
    assert_eq!(mail["status"], "echec", "{mail}");
    assert_eq!(mail["statusLabel"], "Échec, nouvel essai prévu");
    assert!(mail["nextAttemptAt"].is_string());
    assert_eq!(
        mail["lastError"],
        format!(
            "Le serveur d'envoi 127.0.0.1:{} demande de réessayer plus tard : 451 4.3.0 Essayez plus tard.",
            busy.port
        )
    );
    // The invoice is sent (the message is on its way) and shows it.
    assert_eq!(
        w.admin.get(&format!("/invoices/{invoice}")).await.1["invoice"]["status"],
        "envoyee"
    );
    busy.wait_for(1).await;
    let mail_id = str_of(mail, "id").to_owned();
    let path = format!("/invoices/{invoice}/mails");
    let mut delivered = Value::Null;
    for _ in 0..100 {
        let (_, mails) = w.admin.get(&path).await;
        if mails[0]["status"] == "envoye" {
            delivered = mails[0].clone();
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(delivered["id"], json!(mail_id), "{delivered}");
    assert_eq!(delivered["attempts"], 2);
    assert_eq!(delivered["lastError"], Value::Null);
    assert!(delivered["sentAt"].is_string());
    assert_eq!(
        w.admin
            .post(&format!("/mails/{mail_id}/retry"), json!({}))
            .await,
        (409, json!({ "error": "Ce message est déjà envoyé." }))
    );

    // A refusal for good: abandoned at once, then asked again once the
    // server accepts.
    let refusing = SmtpSink::start(&["--reject"]);
    let (status, _) = w
        .admin
        .put(
            "/mail-settings",
            json!({ "host": "127.0.0.1", "port": refusing.port, "security": "aucune" }),
        )
        .await;
    assert_eq!(status, 200);
    let (status, sent) = w
        .admin
        .post(
            &format!("/invoices/{invoice}/send"),
            json!({ "contactIds": [w.jeanne] }),
        )
        .await;
    assert_eq!(status, 201, "{sent}");
    let refused = &sent["mail"];
    assert_eq!(refused["status"], "abandonne", "{refused}");
    assert_eq!(
        refused["lastError"],
        format!(
            "Refusé par le serveur d'envoi 127.0.0.1:{} : 550 5.7.1 Message refusé par le destinataire de test.",
            refusing.port
        )
    );
    assert_eq!(refused["nextAttemptAt"], Value::Null);
    // A reminder is audited as such.
    assert!(
        audit_of(&w.server, "invoice", &invoice)
            .iter()
            .any(|(action, _)| action == "relance")
    );
    let good = SmtpSink::start(&[]);
    let (status, _) = w
        .admin
        .put(
            "/mail-settings",
            json!({ "host": "127.0.0.1", "port": good.port, "security": "aucune" }),
        )
        .await;
    assert_eq!(status, 200);
    let refused_id = str_of(refused, "id");
    let (status, again) = w
        .member
        .post(&format!("/mails/{refused_id}/retry"), json!({}))
        .await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["status"], "envoye", "{again}");
    assert_eq!(
        good.wait_for(1).await[0]["rcptTos"],
        json!(["jeanne@dupont.fr"])
    );

    // No server listening: a transient failure, said in French.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr").port()
    };
    let (status, _) = w
        .admin
        .put(
            "/mail-settings",
            json!({ "host": "127.0.0.1", "port": closed, "security": "aucune" }),
        )
        .await;
    assert_eq!(status, 200);
    let (status, body) = w
        .admin
        .post("/mail-settings/test", json!({ "to": "x@y.fr" }))
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        body["error"],
        format!(
            "L'essai a échoué : Serveur d'envoi 127.0.0.1:{closed} injoignable : connexion refusée."
        )
    );
    assert_eq!(
        w.admin
            .post("/mail-settings/test", json!({ "to": "pas-une-adresse" }))
            .await,
        (
            422,
            json!({ "error": "Champ « to » : Adresse e-mail « pas-une-adresse » invalide." })
        )
    );
    w.server.stop().await;
}

#[tokio::test]
async fn offline_a_message_waits_without_spending_attempts() {
    let data_dir = tempfile::tempdir().expect("temp dir");
    // A probe that always fails: the machine is offline.
    let server = TestServer::start_adjusted(data_dir, RateLimit::default(), |state| {
        state.with_webhook_settings(WebhookSettings {
            insecure_loopback: true,
            retry_schedule: RetrySchedule::parse("1s").expect("schedule"),
            probe: Probe::parse("tcp://127.0.0.1:9").expect("probe"),
            ..WebhookSettings::default()
        })
    })
    .await;
    init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    let admin = StaffClient::sign_in(&server, "claire@durand.fr", PASSWORD).await;
    let (status, _) = admin
        .put(
            "/agency/identity",
            json!({ "siret": TEST_SIRET, "address": TEST_ADDRESS, "vatNumber": TEST_VAT_NUMBER, "email": AGENCY_EMAIL }),
        )
        .await;
    assert_eq!(status, 200);
    let (status, _) = admin
        .put(
            "/mail-settings",
            json!({ "host": "smtp.exemple.fr", "security": "starttls" }),
        )
        .await;
    assert_eq!(status, 200);
    let (status, _) = admin
        .post(
            "/clients",
            json!({ "id": "CLI-1", "name": "Syndic Dupont" }),
        )
        .await;
    assert_eq!(status, 201);
    let (status, contact) = admin
        .post(
            "/contacts",
            json!({ "parentId": "CLI-1", "champs": { "nom": "Jeanne Martin", "email": "jeanne@dupont.fr" } }),
        )
        .await;
    assert_eq!(status, 201, "{contact}");
    let (invoice, _) = issued_invoice(&admin).await;
    let (status, sent) = admin
        .post(
            &format!("/invoices/{invoice}/send"),
            json!({ "contactIds": [str_of(&contact, "id")] }),
        )
        .await;
    assert_eq!(status, 201, "{sent}");
    let mail = &sent["mail"];
    assert_eq!(mail["status"], "en_attente", "{mail}");
    assert_eq!(mail["attempts"], 0);
    assert_eq!(
        mail["lastError"],
        "Hors ligne : envoi en attente du retour du réseau."
    );
    // Looked at again by the task, it spends nothing and writes nothing.
    let stamp = |server: &TestServer| -> (String, i64) {
        open_db(server.data_dir.path())
            .query_row("SELECT updated_at, attempts FROM mails", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .expect("mail")
    };
    let before = stamp(&server);
    tokio::time::sleep(std::time::Duration::from_secs(6)).await;
    assert_eq!(stamp(&server), before);
    assert_eq!(before.1, 0);
    server.stop().await;
}
