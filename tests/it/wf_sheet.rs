//! Partner workflow API: `/generate_token` and the single-use equipment
//! sheet `GET /fiche/{token}` (one opening, 5 minutes on an injected clock,
//! headers, forged tokens, another equipment's token).

use crate::common;
use crate::wf;

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, Utc};
use common::world::World;
use common::*;
use liftdesk::auth::rate_limit::RateLimit;
use liftdesk::services::calls::CenterCallInput;
use serde_json::json;
use wf::*;

struct Sheet {
    s: Setup,
    now: Arc<Mutex<DateTime<Utc>>>,
}

/// The usual setup, on a server whose clock the test sets.
async fn sheet_setup() -> Sheet {
    let now = Arc::new(Mutex::new(Utc::now()));
    let clock = now.clone();
    let data_dir = tempfile::tempdir().expect("dir");
    let server = TestServer::start_adjusted(data_dir, RateLimit::default(), move |state| {
        state.with_clock(Arc::new(move || *clock.lock().expect("clock")))
    })
    .await;
    let a = init_org(server.data_dir.path(), "Alpha", "admin@alpha.fr");
    let b = init_org(server.data_dir.path(), "Beta", "admin@beta.fr");
    let key = server.cli_json(&[
        "partner-key",
        "create",
        "--name",
        "Partenaire",
        "--agency",
        &a.agency_id,
    ]);
    Sheet {
        s: Setup {
            agency: a.agency_id,
            other_agency: b.agency_id,
            key: str_of(&key, "key").to_owned(),
            server,
        },
        now,
    }
}

async fn token_url(s: &Setup, number: &str) -> String {
    let answer = success(
        post(
            &s.server,
            &s.key,
            "/generate_token",
            &json!({ "agency_id": s.agency, "equipment_number": number }),
        )
        .await,
    );
    let keys: Vec<&String> = answer.as_object().expect("object").keys().collect();
    assert_eq!(keys, ["url"]);
    answer["url"].as_str().expect("url").to_owned()
}

async fn open(s: &Setup, url: &str) -> (u16, reqwest::header::HeaderMap, String) {
    let response = s.server.client.get(url).send().await.expect("request");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.text().await.expect("text"))
}

fn assert_headers_no_type(headers: &reqwest::header::HeaderMap) {
    let csp = headers["content-security-policy"].to_str().expect("csp");
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert_eq!(headers["x-frame-options"], "DENY");
    assert_eq!(headers["cache-control"], "no-store");
    assert_eq!(headers["referrer-policy"], "no-referrer");
}

fn assert_headers(headers: &reqwest::header::HeaderMap) {
    let csp = headers["content-security-policy"].to_str().expect("csp");
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert!(csp.contains("default-src 'none'"), "{csp}");
    assert_eq!(headers["x-frame-options"], "DENY");
    assert_eq!(headers["cache-control"], "no-store");
    assert_eq!(headers["referrer-policy"], "no-referrer");
    assert!(
        headers["content-type"]
            .to_str()
            .expect("type")
            .starts_with("text/html")
    );
}

async fn fixture(s: &Setup) -> String {
    let equipment = lift(&s.server, &s.agency, "ASC-10").await;
    let world = World::in_agency(&s.server, &s.agency);
    world
        .technical_data(&equipment, json!({ "charge_utile": 630 }))
        .await;
    let center = world.call_center_key("Centre d'appels").await;
    world
        .call_from(
            &center,
            CenterCallInput {
                reference: "R-1".to_owned(),
                equipment: "ASC-10".to_owned(),
                call_type: "panne".to_owned(),
                description: "Cabine bloquée au 3e".to_owned(),
                ..CenterCallInput::default()
            },
        )
        .await;
    equipment
}

#[tokio::test]
async fn the_sheet_opens_once_complete_with_its_headers() {
    let Sheet { s, .. } = sheet_setup().await;
    fixture(&s).await;
    let url = token_url(&s, "ASC-10").await;
    // A HEAD (link checkers) neither consumes the link nor tells anything.
    let head = s.server.client.head(&url).send().await.expect("head");
    assert_eq!(head.status().as_u16(), 405);
    assert_headers_no_type(head.headers());
    assert!(
        url.starts_with(&format!("{}/fiche/", s.server.base_url)),
        "{url}"
    );
    let (status, headers, html) = open(&s, &url).await;
    assert_eq!(status, 200, "{html}");
    assert_headers(&headers);
    for expected in [
        "Fiche de l'équipement ASC-10",
        "Identité",
        "Immeuble",
        "Client",
        "Contrat",
        "Données techniques",
        "Charge utile",
        "630 kg",
        "Taux de connaissance",
        "Dernières visites",
        "Appels en cours",
        "Cabine bloquée au 3e",
        "Dernier relevé",
        "Parc",
    ] {
        assert!(html.contains(expected), "{expected} absent");
    }
    assert!(!html.contains("<script"), "no script");
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no external resource"
    );
    // A second opening: expired, nothing revealed.
    let (status, headers, html) = open(&s, &url).await;
    assert_eq!(status, 410);
    assert_headers(&headers);
    assert!(html.contains("Lien expiré"));
    assert!(!html.contains("ASC-10"));
    let used: Option<String> = open_db(s.server.data_dir.path())
        .query_row("SELECT used_at FROM sheet_tokens", [], |r| r.get(0))
        .expect("token row");
    assert!(used.is_some());
}

#[tokio::test]
async fn the_link_expires_after_five_minutes_on_the_injected_clock() {
    let Sheet { s, now } = sheet_setup().await;
    fixture(&s).await;
    let start = *now.lock().expect("clock");
    let late = token_url(&s, "ASC-10").await;
    let in_time = token_url(&s, "ASC-10").await;
    *now.lock().expect("clock") = start + Duration::minutes(4) + Duration::seconds(59);
    let (status, _, _) = open(&s, &in_time).await;
    assert_eq!(status, 200);
    *now.lock().expect("clock") = start + Duration::minutes(5);
    let (status, headers, html) = open(&s, &late).await;
    assert_eq!(status, 410);
    assert_headers(&headers);
    assert!(html.contains("Lien expiré") && !html.contains("ASC-10"));
}

#[tokio::test]
async fn forged_and_other_equipment_tokens_are_expired_links() {
    let Sheet { s, .. } = sheet_setup().await;
    fixture(&s).await;
    lift(&s.server, &s.agency, "ASC-11").await;
    let url = token_url(&s, "ASC-10").await;
    let other = token_url(&s, "ASC-11").await;
    let token = url.rsplit('/').next().expect("token").to_owned();
    let other_token = other.rsplit('/').next().expect("token").to_owned();
    let (id, tag) = token.split_once('.').expect("shape");
    let (other_id, _) = other_token.split_once('.').expect("shape");
    let mut flipped = tag.to_owned();
    let last = if flipped.ends_with('0') { "1" } else { "0" };
    flipped.replace_range(63..64, last);
    for forged in [
        format!("{id}.{flipped}"),
        // ASC-10's signature on ASC-11's sheet.
        format!("{other_id}.{tag}"),
        format!("{id}.{}", "0".repeat(64)),
        id.to_owned(),
        "n-importe-quoi".to_owned(),
    ] {
        let (status, headers, html) =
            open(&s, &format!("{}/fiche/{forged}", s.server.base_url)).await;
        assert_eq!(status, 410, "{forged}");
        assert_headers(&headers);
        assert!(
            html.contains("Lien expiré") && !html.contains("ASC-1"),
            "{forged}"
        );
    }
    // The forged attempts used nothing: the genuine links still open once.
    assert_eq!(open(&s, &url).await.0, 200);
    assert_eq!(open(&s, &other).await.0, 200);
}

#[tokio::test]
async fn generate_token_refusals() {
    let Sheet { s, .. } = sheet_setup().await;
    lift(&s.server, &s.other_agency, "B-1").await;
    let before = snapshot(&s.server);
    error(
        post(
            &s.server,
            &s.key,
            "/generate_token",
            &json!({ "agency_id": s.other_agency, "equipment_number": "B-1" }),
        )
        .await,
        403,
    );
    error(
        post(
            &s.server,
            &s.key,
            "/generate_token",
            &json!({ "agency_id": s.agency, "equipment_number": "B-1" }),
        )
        .await,
        404,
    );
    let message = error(
        post(
            &s.server,
            &s.key,
            "/generate_token",
            &json!({ "agency_id": s.agency }),
        )
        .await,
        422,
    );
    assert!(message.contains("equipment_number"), "{message}");
    error(
        post_raw(&s.server, None, "/generate_token", "{}").await,
        401,
    );
    assert_eq!(before, snapshot(&s.server));
    // The secret file exists with mode 0600.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(s.server.data_dir.path().join("sheet-secret.key"))
            .expect("secret")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
