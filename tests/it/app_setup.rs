//! The first run (`/app/api/setup`): needed while no organization exists;
//! creates the organization, agency and administrator and signs in, or
//! installs the demo; refused (409) once set up.

use crate::common;

use common::*;
use serde_json::{Value, json};

fn client() -> reqwest::Client {
    crate::common::http_client_builder()
        .cookie_store(true)
        .build()
        .expect("client")
}

async fn get(client: &reqwest::Client, url: String) -> (u16, Value) {
    let response = client.get(url).send().await.expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn post(client: &reqwest::Client, url: String, body: Value) -> (u16, Value) {
    let response = client.post(url).json(&body).send().await.expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn the_first_run_creates_the_organization_and_signs_the_admin_in() {
    let server = TestServer::start().await;
    let http = client();
    let (status, body) = get(&http, server.url("/app/api/setup")).await;
    assert_eq!(status, 200);
    assert_eq!(body, json!({ "needed": true, "desktop": false }));

    // Same validation as `liftdesk init`, in French.
    let (status, body) = post(
        &http,
        server.url("/app/api/setup"),
        json!({ "organization": "Ascenseurs Durand", "agency": "Lyon", "adminName": "Claire", "email": "claire@durand.fr", "password": "court" }),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap_or("")
            .contains("mot de passe"),
        "{body}"
    );
    let (status, body) = post(
        &http,
        server.url("/app/api/setup"),
        json!({ "organization": "Ascenseurs Durand", "agency": "Lyon", "email": "pas-une-adresse", "password": "motdepasse-solide" }),
    )
    .await;
    assert!(status == 422 || status == 400, "{status} {body}");
    assert!(body["error"].is_string(), "{body}");

    let (status, session) = post(
        &http,
        server.url("/app/api/setup"),
        json!({ "organization": "Ascenseurs Durand", "agency": "Lyon", "adminName": "Claire", "email": "Claire@Durand.fr", "password": "motdepasse-solide" }),
    )
    .await;
    assert_eq!(status, 200, "{session}");
    assert_eq!(session["account"]["email"], "claire@durand.fr");
    assert_eq!(session["agency"]["name"], "Lyon");
    assert!(session["csrfToken"].is_string());
    // The organization that set the installation up administers it.
    assert_eq!(session["installationAdmin"], true);
    // Signed in by the cookie.
    let (status, me) = get(&http, server.url("/app/api/session")).await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["account"]["name"], "Claire");
    assert_eq!(me["installationAdmin"], true);

    // Done once: the screen goes, a second setup and the demo are refused.
    let (_, body) = get(&http, server.url("/app/api/setup")).await;
    assert_eq!(body, json!({ "needed": false, "desktop": false }));
    let (status, body) = post(
        &http,
        server.url("/app/api/setup"),
        json!({ "organization": "Autre", "agency": "Nice", "email": "x@autre.fr", "password": "motdepasse-solide" }),
    )
    .await;
    assert_eq!(status, 409);
    assert!(
        body["error"]
            .as_str()
            .unwrap_or("")
            .contains("déjà installé"),
        "{body}"
    );
    let (status, _) = post(&http, server.url("/app/api/setup/demo"), json!({})).await;
    assert_eq!(status, 409);
    let organizations: i64 = open_db(server.data_dir.path())
        .query_row("SELECT count(*) FROM organizations", [], |r| r.get(0))
        .expect("count");
    assert_eq!(organizations, 1);
}

#[tokio::test]
async fn the_setup_is_refused_for_a_page_naming_another_host() {
    // DNS rebinding: a page of another site reaching this server names its host.
    let server = TestServer::start().await;
    let response = client()
        .post(server.url("/app/api/setup/demo"))
        .header("Host", "exemple.invalid")
        .json(&json!({}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 403);
    let (_, body) = get(&client(), server.url("/app/api/setup")).await;
    assert_eq!(body, json!({ "needed": true, "desktop": false }));
}

#[tokio::test]
async fn the_first_run_can_install_the_demo_and_answers_its_sign_ins() {
    let server = TestServer::start().await;
    let http = client();
    let (status, body) = post(&http, server.url("/app/api/setup/demo"), json!({})).await;
    assert_eq!(status, 200, "{body}");
    let email = body["admin"]["email"].as_str().expect("email");
    let password = body["admin"]["password"].as_str().expect("password");
    assert!(body["member"]["email"].is_string());
    let (status, session) = post(
        &http,
        server.url("/app/api/session"),
        json!({ "email": email, "password": password }),
    )
    .await;
    assert_eq!(status, 200);
    // The demo's organization set the installation up: its administrator
    // administers it.
    assert_eq!(session["installationAdmin"], true);
    let (_, body) = get(&http, server.url("/app/api/setup")).await;
    assert_eq!(body, json!({ "needed": false, "desktop": false }));
}

#[tokio::test]
async fn the_setup_is_refused_unless_the_peer_is_this_computer() {
    // Served without the peer's address (as a host that does not use
    // `server::serve` would): the setup is refused, never open by default.
    let dir = tempfile::tempdir().expect("dir");
    let store = crate::common::open_store(dir.path());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = liftdesk::server::base_url_of(&listener).expect("address");
    let app = liftdesk::api::router(liftdesk::state::AppState::new(store, base.clone()));
    let task = tokio::spawn(async move { axum::serve(listener, app).await });
    let http = client();
    let (status, body) = post(&http, format!("{base}/app/api/setup/demo"), json!({})).await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap_or("")
            .contains("depuis l'ordinateur"),
        "{body}"
    );
    let (status, _) = post(
        &http,
        format!("{base}/app/api/setup"),
        json!({ "organization": "A", "agency": "B", "email": "a@b.fr", "password": "motdepasse-solide" }),
    )
    .await;
    assert_eq!(status, 403);
    assert!(!dir.path().join("demo-credentials.json").exists());
    task.abort();
}

#[tokio::test]
async fn the_service_operator_made_first_leaves_the_first_run_to_do() {
    // `liftdesk operator create` on an empty data directory makes the
    // operator's own organization: the installation is not set up yet.
    let dir = tempfile::tempdir().expect("dir");
    create_operator(dir.path(), "operateur@service.fr", "motdepasse-solide");
    let server = TestServer::start_in(dir).await;
    let http = client();
    let (status, body) = get(&http, server.url("/app/api/setup")).await;
    assert_eq!(status, 200);
    assert_eq!(body, json!({ "needed": true, "desktop": false }));
    let (status, session) = post(
        &http,
        server.url("/app/api/setup"),
        json!({ "organization": "Ascenseurs Durand", "agency": "Lyon", "email": "claire@durand.fr", "password": "motdepasse-solide" }),
    )
    .await;
    assert_eq!(status, 200, "{session}");
    assert_eq!(session["installationAdmin"], true);
    let (_, body) = get(&http, server.url("/app/api/setup")).await;
    assert_eq!(body, json!({ "needed": false, "desktop": false }));
    let kinds: Vec<String> = {
        let conn = open_db(server.data_dir.path());
        let mut stmt = conn
            .prepare("SELECT kind FROM organizations ORDER BY kind")
            .expect("prepare");
        stmt.query_map([], |r| r.get(0))
            .expect("rows")
            .collect::<Result<_, _>>()
            .expect("rows")
    };
    assert_eq!(kinds, ["client", "operator"]);
    // The operator keeps signing in as before.
    let (status, _) = post(
        &client(),
        server.url("/app/api/session"),
        json!({ "email": "operateur@service.fr", "password": "motdepasse-solide" }),
    )
    .await;
    assert_eq!(status, 200);
}

#[test]
fn serve_demo_installs_the_demo_beside_a_service_operator_made_first() {
    let dir = tempfile::tempdir().expect("dir");
    create_operator(dir.path(), "operateur@service.fr", "motdepasse-solide");
    let store = crate::common::open_store(dir.path());
    assert!(liftdesk::demo::is_empty(&store).expect("read"));
    assert!(liftdesk::demo::seed_if_empty(&store, dir.path()).expect("demo"));
    assert!(!liftdesk::demo::is_empty(&store).expect("read"));
    assert!(dir.path().join("demo-credentials.json").exists());
}
