//! `liftdesk serve` on a network, on the real binary: plain HTTP refused on
//! an address other computers reach; HTTPS by itself with a certificate
//! (a self-signed one made here, trusted by the test's client), its session
//! cookie `Secure`; behind a TLS proxy, `X-Forwarded-For` believed from the
//! proxy only (the first-run setup, reserved to this computer, refused to a
//! client the proxy forwards) and the cookie `Secure`.

use crate::common;

use common::served::{Served, refused};
use common::*;
use serde_json::{Value, json};

const SETUP_REFUSED: &str =
    "L'installation de Liftdesk se fait depuis l'ordinateur où il est installé.";

fn setup_body() -> Value {
    json!({
        "organization": "Ascenseurs Durand",
        "agency": "Lyon",
        "adminName": "Claire",
        "email": "claire@durand.fr",
        "password": "motdepasse-solide",
    })
}

async fn set_up(served: &Served, forwarded_for: Option<&str>) -> (u16, Value, String) {
    let mut request = http_client()
        .post(served.url("/app/api/setup"))
        .json(&setup_body());
    if let Some(client) = forwarded_for {
        request = request.header("X-Forwarded-For", client);
    }
    let response = request.send().await.expect("setup");
    let status = response.status().as_u16();
    let cookie = set_cookie(&response);
    (status, response.json().await.unwrap_or(Value::Null), cookie)
}

/// The answer's `Set-Cookie`, empty if none.
fn set_cookie(response: &reqwest::Response) -> String {
    response
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn plain_http_is_refused_on_an_address_other_computers_reach() {
    let dir = tempfile::tempdir().expect("temp dir");
    let said = refused(dir.path(), &["--bind", "0.0.0.0:0"]);
    assert!(
        said.contains("Liftdesk ne sert en HTTP simple que cet ordinateur (127.0.0.1) : pour écouter sur 0.0.0.0:")
            && said.contains("donnez-lui un certificat (--tls-cert et --tls-key) ou indiquez le proxy TLS placé devant lui (--behind-proxy ADRESSE_IP ; docs/deployment.md)."),
        "{said}"
    );
    // A half-given certificate: refused by the command line itself.
    let out = cli_command(dir.path())
        .args(["serve", "--bind", "127.0.0.1:0", "--tls-cert", "cert.pem"])
        .output()
        .expect("serve");
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
    assert!(stderr_of(&out).contains("--tls-key"), "{}", stderr_of(&out));
}

#[tokio::test(flavor = "multi_thread")]
async fn with_a_certificate_the_server_speaks_https_and_its_cookie_is_secure() {
    let dir = tempfile::tempdir().expect("temp dir");
    let org = init_org(dir.path(), "Durand", "claire@durand.fr");
    let certified =
        rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
            .expect("certificate");
    let files = tempfile::tempdir().expect("temp dir");
    let (cert, key) = (files.path().join("cert.pem"), files.path().join("key.pem"));
    let cert_pem = certified.cert.pem();
    std::fs::write(&cert, &cert_pem).expect("cert");
    std::fs::write(&key, certified.signing_key.serialize_pem()).expect("key");

    // Unreadable files: refused before anything is served.
    let (swapped_cert, swapped_key) = (key.to_str().expect("path"), cert.to_str().expect("path"));
    let said = refused(
        dir.path(),
        &[
            "--bind",
            "127.0.0.1:0",
            "--tls-cert",
            swapped_cert,
            "--tls-key",
            swapped_key,
        ],
    );
    assert!(said.contains("Certificat TLS"), "{said}");

    let served = Served::start(
        dir.path(),
        dir.path().join("serve.log"),
        &[
            "--tls-cert",
            cert.to_str().expect("path"),
            "--tls-key",
            key.to_str().expect("path"),
        ],
    );
    assert!(
        served.base_url.starts_with("https://127.0.0.1:"),
        "{}",
        served.base_url
    );
    let client = http_client_builder()
        .add_root_certificate(reqwest::Certificate::from_pem(cert_pem.as_bytes()).expect("pem"))
        .build()
        .expect("client");
    let me = client
        .get(served.url("/api/v2/me"))
        .bearer_auth(&org.admin_token)
        .send()
        .await
        .expect("https");
    assert_eq!(me.status().as_u16(), 200);
    let signed_in = client
        .post(served.url("/app/api/session"))
        .json(&json!({ "email": "claire@durand.fr", "password": "motdepasse-solide" }))
        .send()
        .await
        .expect("sign-in");
    assert_eq!(signed_in.status().as_u16(), 200);
    let cookie = set_cookie(&signed_in);
    assert!(
        cookie.starts_with("liftdesk_session=")
            && cookie.ends_with("; HttpOnly; SameSite=Strict; Path=/; Secure"),
        "{cookie}"
    );
    // The same port in plain HTTP: no answer.
    let plain = http_client()
        .get(served.url("/api/v2/me").replacen("https://", "http://", 1))
        .bearer_auth(&org.admin_token)
        .send()
        .await;
    assert!(
        plain.map(|r| r.status().as_u16() != 200).unwrap_or(true),
        "plain HTTP answered on the HTTPS port"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn behind_a_proxy_forwarded_for_is_believed_from_the_proxy_only() {
    // Behind a proxy at 127.0.0.1 (the test itself): a client it forwards
    // from another computer does not run the first-run setup…
    let dir = tempfile::tempdir().expect("temp dir");
    let served = Served::start(
        dir.path(),
        dir.path().join("serve.log"),
        &["--behind-proxy", "127.0.0.1"],
    );
    let (status, body, _) = set_up(&served, Some("203.0.113.7")).await;
    assert_eq!((status, body), (403, json!({ "error": SETUP_REFUSED })));
    // … a request of this computer does, and its cookie is `Secure`.
    let (status, body, cookie) = set_up(&served, None).await;
    assert_eq!(status, 200, "{body}");
    assert!(cookie.ends_with("; Secure"), "{cookie}");
    drop(served);

    // Without --behind-proxy, the header is anybody's: not believed.
    let dir = tempfile::tempdir().expect("temp dir");
    let served = Served::start(dir.path(), dir.path().join("serve.log"), &[]);
    let (status, body, cookie) = set_up(&served, Some("203.0.113.7")).await;
    assert_eq!(status, 200, "{body}");
    assert!(!cookie.contains("Secure"), "{cookie}");
}
