//! The settings screen's API (`/app/api/settings…`, `/app/api/diagnostics`):
//! the organization administrators of the organization that installed
//! Liftdesk only (not another organization's, docs/isolation.md); the address for integrations, the saved settings,
//! the backup folder checked, "back up now", the backups, restore through
//! the host (409 without one), the diagnostics without secrets; and the
//! notices published to the shell.

use crate::common;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use common::app::StaffClient;
use common::world::World;
use common::*;
use liftdesk::auth::rate_limit::RateLimit;
use liftdesk::notices::Notice;
use liftdesk::state::ServerControl;
use serde_json::json;

const PASSWORD: &str = "motdepasse-solide";

#[derive(Default)]
struct FakeHost {
    restores: Mutex<Vec<PathBuf>>,
    restarts: Mutex<u32>,
    connections: Mutex<Vec<String>>,
}

impl ServerControl for FakeHost {
    fn restore_and_restart(&self, from: PathBuf) -> Result<(), String> {
        self.restores.lock().expect("lock").push(from);
        Ok(())
    }
    fn restart(&self) -> Result<(), String> {
        *self.restarts.lock().expect("lock") += 1;
        Ok(())
    }
    fn connect_to_agency_server(&self, url: String) -> Result<(), String> {
        self.connections.lock().expect("lock").push(url);
        Ok(())
    }
}

async fn admin_and_member(server: &TestServer) -> (StaffClient, StaffClient, Org) {
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    server.cli_json(&[
        "user",
        "create",
        "--email",
        "membre@durand.fr",
        "--name",
        "Sophie",
        "--password",
        PASSWORD,
        "--agency",
        &org.agency_id,
    ]);
    let admin = StaffClient::sign_in(server, "admin@durand.fr", PASSWORD).await;
    let member = StaffClient::sign_in(server, "membre@durand.fr", PASSWORD).await;
    (admin, member, org)
}

#[tokio::test]
async fn settings_are_for_admins_and_are_checked_and_saved() {
    let server = TestServer::start().await;
    let (admin, member, _) = admin_and_member(&server).await;
    for path in ["/settings", "/settings/backups", "/diagnostics"] {
        let (status, body) = member.get(path).await;
        assert_eq!(status, 403, "{path}: {body}");
        assert!(
            body["error"]
                .as_str()
                .unwrap_or("")
                .contains("administrateur"),
            "{body}"
        );
    }
    let (status, _) = member.post("/settings/backups", json!({})).await;
    assert_eq!(status, 403);

    let (status, view) = admin.get("/settings").await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["baseUrl"], json!(server.base_url));
    assert!(view["runningPort"].as_u64().unwrap_or(0) > 0);
    assert_eq!(
        view["settings"],
        json!({ "port": 8080, "lan": false, "backupDir": null, "dailyBackup": true })
    );
    assert_eq!(view["restartAvailable"], false);
    assert_eq!(view["backups"], json!([]));
    assert!(view["webhooks"]["online"].is_boolean(), "{view}");

    // No folder yet: "back up now" says to choose one.
    let (status, body) = admin.post("/settings/backups", json!({})).await;
    assert_eq!(status, 409);
    assert!(
        body["error"]
            .as_str()
            .unwrap_or("")
            .contains("dossier de sauvegarde"),
        "{body}"
    );

    // The folder is checked.
    let (status, body) = admin
        .put(
            "/settings",
            json!({ "port": 8080, "lan": false, "backupDir": "relatif", "dailyBackup": true }),
        )
        .await;
    assert_eq!(status, 422);
    assert!(
        body["error"]
            .as_str()
            .unwrap_or("")
            .contains("chemin complet"),
        "{body}"
    );
    let missing = server.data_dir.path().join("absent");
    let (status, body) = admin
        .put(
            "/settings",
            json!({ "port": 8080, "lan": false, "backupDir": missing, "dailyBackup": true }),
        )
        .await;
    assert_eq!(status, 422);
    assert!(
        body["error"]
            .as_str()
            .unwrap_or("")
            .contains("n'existe pas"),
        "{body}"
    );
    let (status, _) = admin
        .put(
            "/settings",
            json!({ "port": 80, "lan": false, "backupDir": null, "dailyBackup": true }),
        )
        .await;
    assert_eq!(status, 422);

    let folder = tempfile::tempdir().expect("folder");
    let (status, view) = admin
        .put(
            "/settings",
            json!({ "port": 9123, "lan": true, "backupDir": folder.path(), "dailyBackup": false }),
        )
        .await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["settings"]["port"], 9123);
    assert_eq!(view["settings"]["lan"], true);
    // Under `serve --bind` the port and network settings are not used.
    assert_eq!(view["restartNeeded"], false);
    assert_eq!(view["listensFromSettings"], false);
    assert_eq!(view["backupDir"], json!(folder.path()));
    let saved = liftdesk::settings::load(server.data_dir.path()).expect("saved");
    assert_eq!(saved.port, 9123);
    assert_eq!(saved.backup_dir.as_deref(), Some(folder.path()));

    // Back up now, then it is listed.
    let (status, written) = admin.post("/settings/backups", json!({})).await;
    assert_eq!(status, 201, "{written}");
    let name = written["name"].as_str().expect("name");
    assert!(
        name.starts_with("liftdesk-")
            && name.ends_with(if common::engine::on_postgres() {
                ".pgdump"
            } else {
                ".sqlite3"
            }),
        "{name}"
    );
    let (_, list) = admin.get("/settings/backups").await;
    assert_eq!(list.as_array().map(Vec::len), Some(1));
    assert_eq!(list[0]["name"], name);
    liftdesk::backup::check_backup(&folder.path().join(name)).expect("sound backup");

    // Restore needs the host: 409 pointing to the command line.
    let path = written["path"].as_str().expect("path").to_owned();
    let (status, body) = admin
        .post("/settings/restore", json!({ "path": path }))
        .await;
    assert_eq!(status, 409, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap_or("")
            .contains("liftdesk restore"),
        "{body}"
    );
    let (status, _) = admin.post("/settings/restart", json!({})).await;
    assert_eq!(status, 409);
}

#[tokio::test]
async fn restore_and_restart_go_through_the_host() {
    let (server, host) = desktop_server().await;
    let (admin, member, _) = admin_and_member(&server).await;
    let folder = tempfile::tempdir().expect("folder");
    let (status, _) = admin
        .put(
            "/settings",
            json!({ "port": 8080, "lan": false, "backupDir": folder.path(), "dailyBackup": true }),
        )
        .await;
    assert_eq!(status, 200);
    let (_, view) = admin.get("/settings").await;
    assert_eq!(view["restartAvailable"], true);
    assert_eq!(view["listensFromSettings"], true);
    assert_eq!(view["restartNeeded"], false);
    // Loopback only: no address to give the agency's other computers.
    assert_eq!(view["networkUrls"], json!([]));
    let (_, view) = admin
        .put(
            "/settings",
            json!({ "port": 9123, "lan": false, "backupDir": folder.path(), "dailyBackup": true }),
        )
        .await;
    assert_eq!(view["restartNeeded"], true);
    let (_, written) = admin.post("/settings/backups", json!({})).await;
    let path = written["path"].as_str().expect("path").to_owned();

    let (status, _) = member
        .post("/settings/restore", json!({ "path": path }))
        .await;
    assert_eq!(status, 403);
    let not_db = folder.path().join("notes.txt");
    std::fs::write(&not_db, "bonjour").expect("write");
    let (status, body) = admin
        .post("/settings/restore", json!({ "path": not_db }))
        .await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap_or("")
            .contains("n'est pas une base"),
        "{body}"
    );
    assert!(host.restores.lock().expect("lock").is_empty());

    let (status, body) = admin
        .post("/settings/restore", json!({ "path": path }))
        .await;
    assert_eq!(status, 202, "{body}");
    assert_eq!(
        *host.restores.lock().expect("lock"),
        vec![PathBuf::from(&path)]
    );
    let (status, _) = admin.post("/settings/restart", json!({})).await;
    assert_eq!(status, 202);
    assert_eq!(*host.restarts.lock().expect("lock"), 1);
}

#[tokio::test]
async fn the_diagnostics_are_french_text_without_secrets() {
    let server = TestServer::start().await;
    let (admin, _, org) = admin_and_member(&server).await;
    let response = admin
        .http
        .get(server.url("/app/api/diagnostics"))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 200);
    assert!(
        response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .starts_with("text/plain")
    );
    let text = response.text().await.expect("text");
    assert!(text.contains("Diagnostic Liftdesk"), "{text}");
    assert!(text.contains("Version : "), "{text}");
    assert!(text.contains("schéma"), "{text}");
    assert!(text.contains("organisations : 1"), "{text}");
    assert!(
        text.contains("Sauvegardes : aucun dossier choisi"),
        "{text}"
    );
    for secret in [org.admin_token.as_str(), PASSWORD, admin.csrf.as_str()] {
        assert!(!text.contains(secret), "secret in the diagnostics");
    }
}

#[tokio::test]
async fn a_call_from_a_call_center_is_announced_to_the_shell() {
    let receiver = Arc::new(Mutex::new(None));
    let slot = receiver.clone();
    let server = TestServer::start_adjusted(
        tempfile::tempdir().expect("dir"),
        RateLimit::default(),
        move |state| {
            *slot.lock().expect("lock") = Some(state.notices.subscribe());
            state
        },
    )
    .await;
    let mut notices = receiver.lock().expect("lock").take().expect("receiver");
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let key = server.cli_json(&[
        "call-center-key",
        "create",
        "--agency",
        &org.agency_id,
        "--name",
        "Astreinte",
    ]);
    let key = str_of(&key, "key").to_owned();
    let ours = World::in_agency(&server, &org.agency_id);
    let building = ours
        .building(
            Some("Résidence Les Tilleuls"),
            "12 rue des Lilas",
            None,
            Some("Lyon"),
        )
        .await;
    ours.lift("ASC-42", Some(&building)).await;
    let post = |reference: &'static str, call_type: &'static str| {
        server
            .client
            .post(server.url("/api/partners/calls"))
            .bearer_auth(&key)
            .json(&json!({ "reference": reference, "equipement": "ASC-42", "type": call_type, "description": "Ascenseur à l'arrêt." }))
            .send()
    };
    let response = post("AST-1", "personne_bloquee").await.expect("call");
    assert_eq!(response.status().as_u16(), 201);
    let notice = notices.try_recv().expect("notice published");
    match &notice {
        Notice::CallReceived {
            reference,
            urgent,
            equipment,
            agency_id,
            ..
        } => {
            assert_eq!(reference, "AST-1");
            assert_eq!(
                equipment,
                "ASC-42 — Résidence Les Tilleuls, 12 rue des Lilas, Lyon"
            );
            assert_eq!(agency_id, &org.agency_id);
            assert!(urgent);
        }
        other => panic!("{other:?}"),
    }
    assert!(notice.urgent());
    assert!(
        notice.title().contains("personne bloquée"),
        "{}",
        notice.title()
    );
    assert!(notice.body().contains("AST-1"));
    // The same reference again opens nothing new: no notice.
    let again = post("AST-1", "personne_bloquee").await.expect("call");
    assert_eq!(again.status().as_u16(), 200);
    assert!(notices.try_recv().is_err());
    let response = post("AST-2", "panne").await.expect("call");
    assert_eq!(response.status().as_u16(), 201);
    let notice = notices.try_recv().expect("notice");
    assert!(!notice.urgent());
    assert_eq!(notice.title(), "Nouvel appel de panne");
}

#[tokio::test]
async fn a_failed_backup_is_refused_in_french_and_announced() {
    let receiver = Arc::new(Mutex::new(None));
    let slot = receiver.clone();
    let server = TestServer::start_adjusted(
        tempfile::tempdir().expect("dir"),
        RateLimit::default(),
        move |state| {
            *slot.lock().expect("lock") = Some(state.notices.subscribe());
            state
        },
    )
    .await;
    let mut notices = receiver.lock().expect("lock").take().expect("receiver");
    let (admin, _, _) = admin_and_member(&server).await;
    let parent = tempfile::tempdir().expect("parent");
    let folder = parent.path().join("sauvegardes");
    std::fs::create_dir(&folder).expect("folder");
    let (status, _) = admin
        .put(
            "/settings",
            json!({ "port": 8080, "lan": false, "backupDir": folder, "dailyBackup": true }),
        )
        .await;
    assert_eq!(status, 200);
    // The folder became a file (a removed drive, a mistake…).
    std::fs::remove_dir(&folder).expect("remove");
    std::fs::write(&folder, "pas un dossier").expect("file");
    let (status, body) = admin.post("/settings/backups", json!({})).await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap_or("")
            .contains("dossier de sauvegarde"),
        "{body}"
    );
    match notices.try_recv().expect("notice") {
        Notice::BackupFailed { reason } => assert!(reason.contains("dossier de sauvegarde")),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn open_to_the_agency_network_the_screen_lists_this_computers_addresses() {
    let lan = liftdesk::settings::Settings {
        lan: true,
        ..liftdesk::settings::Settings::default()
    };
    let server = TestServer::start_adjusted(
        tempfile::tempdir().expect("dir"),
        RateLimit::default(),
        move |state| state.with_listen_settings(lan),
    )
    .await;
    let (admin, _, _) = admin_and_member(&server).await;
    let (status, view) = admin.get("/settings").await;
    assert_eq!(status, 200, "{view}");
    let port = view["runningPort"].as_u64().expect("running port");
    let urls = view["networkUrls"].as_array().expect("networkUrls");
    // What the machine's interfaces are is not the test's to know; what each
    // listed address is, is.
    for url in urls {
        let url = url.as_str().expect("text");
        let rest = url.strip_prefix("http://").expect("http://");
        let (ip, listed_port) = rest.rsplit_once(':').expect("ip:port");
        let ip: std::net::Ipv4Addr = ip.parse().expect("IPv4");
        assert!(!ip.is_loopback() && !ip.is_link_local(), "{url}");
        assert_eq!(listed_port, port.to_string(), "{url}");
    }
    assert_eq!(
        urls.len(),
        liftdesk::settings::network_urls(u16::try_from(port).expect("port")).len()
    );
    let text = admin
        .http
        .get(server.url("/app/api/diagnostics"))
        .send()
        .await
        .expect("request")
        .text()
        .await
        .expect("text");
    assert!(
        text.contains("Adresses sur le réseau de l'agence"),
        "{text}"
    );
}

/// What the settings routes can change: `settings.json`, the backup folder's
/// files, and what was handed to the host.
fn installation_state(
    server: &TestServer,
    folder: &std::path::Path,
    host: &FakeHost,
) -> (Option<Vec<u8>>, Vec<String>, Vec<PathBuf>, u32) {
    let saved = std::fs::read(server.data_dir.path().join("settings.json")).ok();
    let mut files: Vec<String> = std::fs::read_dir(folder)
        .expect("folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    (
        saved,
        files,
        host.restores.lock().expect("lock").clone(),
        *host.restarts.lock().expect("lock"),
    )
}

/// Every settings route with a body that would change something: the
/// message's subject for each, as in `src/api/app/settings.rs`.
fn installation_routes(
    backup: &str,
    other_folder: &std::path::Path,
) -> Vec<(
    &'static str,
    &'static str,
    Option<serde_json::Value>,
    &'static str,
)> {
    let setting = "Le réglage de l'installation";
    vec![
        ("GET", "/settings", None, setting),
        (
            "PUT",
            "/settings",
            Some(
                json!({ "port": 9555, "lan": true, "backupDir": other_folder, "dailyBackup": false }),
            ),
            setting,
        ),
        ("GET", "/settings/backups", None, setting),
        (
            "POST",
            "/settings/backups",
            Some(json!({})),
            "Sauvegarder la base",
        ),
        (
            "POST",
            "/settings/restore",
            Some(json!({ "path": backup })),
            "Restaurer une sauvegarde",
        ),
        (
            "POST",
            "/settings/restart",
            Some(json!({})),
            "Le redémarrage",
        ),
        ("GET", "/diagnostics", None, "Le diagnostic"),
    ]
}

#[tokio::test]
async fn only_the_administrators_of_the_organization_that_installed_it_administer_the_installation()
{
    let (server, host) = desktop_server().await;
    // Durand sets the installation up; Concurrent is made afterwards in it,
    // and so is the service operator's account.
    let (admin, member, durand) = admin_and_member(&server).await;
    let concurrent = init_org(server.data_dir.path(), "Concurrent", "admin@concurrent.fr");
    server.cli_json(&[
        "user",
        "create",
        "--email",
        "chef@durand.fr",
        "--name",
        "Chef d'agence",
        "--password",
        PASSWORD,
        "--agency",
        &durand.agency_id,
        "--admin",
    ]);
    create_operator(server.data_dir.path(), "operateur@service.fr", PASSWORD);
    let outsider = StaffClient::sign_in(&server, "admin@concurrent.fr", PASSWORD).await;
    let agency_admin = StaffClient::sign_in(&server, "chef@durand.fr", PASSWORD).await;
    let operator = StaffClient::sign_in(&server, "operateur@service.fr", PASSWORD).await;
    assert_eq!(outsider.session["account"]["role"], "org_admin");
    assert_eq!(
        outsider.session["agencies"],
        json!([{ "id": concurrent.agency_id, "name": "Concurrent Centre" }])
    );

    // The session says who may open the settings screen, at sign-in and after.
    for (client, expected) in [
        (&admin, true),
        (&member, false),
        (&outsider, false),
        (&agency_admin, false),
        (&operator, false),
    ] {
        let email = client.session["account"]["email"].clone();
        assert_eq!(
            client.session["installationAdmin"],
            json!(expected),
            "sign-in of {email}"
        );
        let (status, again) = client.get("/session").await;
        assert_eq!(status, 200);
        assert_eq!(again["installationAdmin"], json!(expected), "{email}");
    }
    let (status, switched) = outsider
        .put(
            "/session/agency",
            json!({ "agencyId": concurrent.agency_id }),
        )
        .await;
    assert_eq!(status, 200, "{switched}");
    assert_eq!(switched["installationAdmin"], false);

    // The installation's administrator chooses a folder and backs up.
    let folder = tempfile::tempdir().expect("folder");
    let other_folder = tempfile::tempdir().expect("other folder");
    let (status, _) = admin
        .put(
            "/settings",
            json!({ "port": 8080, "lan": false, "backupDir": folder.path(), "dailyBackup": true }),
        )
        .await;
    assert_eq!(status, 200);
    let (status, written) = admin.post("/settings/backups", json!({})).await;
    assert_eq!(status, 201, "{written}");
    let backup = written["path"].as_str().expect("path").to_owned();
    let routes = installation_routes(&backup, other_folder.path());

    let before = installation_state(&server, folder.path(), &host);
    for (client, who) in [
        (&outsider, "another organization's administrator"),
        (
            &agency_admin,
            "an agency administrator of the installation's organization",
        ),
        (&operator, "the service operator"),
    ] {
        for (method, path, body, what) in &routes {
            let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
            let (status, answer) = client.send(method.clone(), path, body.clone()).await;
            assert_eq!(status, 403, "{method} {path} by {who}: {answer}");
            assert_eq!(
                answer,
                json!({ "error": format!("{what} est réservé à un administrateur de l'organisation qui a installé Liftdesk.") }),
                "{method} {path} by {who}"
            );
        }
    }
    for (method, path, body, what) in &routes {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let (status, answer) = member.send(method.clone(), path, body.clone()).await;
        assert_eq!(status, 403, "{method} {path} by the member: {answer}");
        assert_eq!(
            answer,
            json!({ "error": format!("{what} est réservé à un administrateur de l'agence.") }),
            "{method} {path} by the member"
        );
    }
    assert_eq!(
        installation_state(&server, folder.path(), &host),
        before,
        "a refused call changed the installation"
    );
    assert_eq!(
        std::fs::read_dir(other_folder.path())
            .expect("folder")
            .count(),
        0
    );

    // The installation's administrator still runs every one of them.
    let mut statuses = Vec::new();
    for (method, path, body, _) in &routes {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let (status, answer) = admin.send(method.clone(), path, body.clone()).await;
        if *path == "/diagnostics" {
            let text = answer.as_str().unwrap_or("");
            // The whole installation's: Durand, Concurrent, the operator's.
            assert!(text.contains("organisations : 3"), "{text}");
        }
        statuses.push((path.to_owned(), status));
    }
    assert_eq!(
        statuses,
        [
            ("/settings", 200),
            ("/settings", 200),
            ("/settings/backups", 200),
            ("/settings/backups", 201),
            ("/settings/restore", 202),
            ("/settings/restart", 202),
            ("/diagnostics", 200),
        ]
    );
    let saved = liftdesk::settings::load(server.data_dir.path()).expect("saved");
    assert_eq!(saved.port, 9555);
    assert_eq!(saved.backup_dir.as_deref(), Some(other_folder.path()));
    assert_eq!(
        *host.restores.lock().expect("lock"),
        vec![PathBuf::from(&backup)]
    );
    assert_eq!(*host.restarts.lock().expect("lock"), 1);
}

/// A server the desktop host can hand over to the agency's server.
async fn desktop_server() -> (TestServer, Arc<FakeHost>) {
    let host = Arc::new(FakeHost::default());
    let for_state = host.clone();
    let server = TestServer::start_adjusted(
        tempfile::tempdir().expect("dir"),
        RateLimit::default(),
        move |state| {
            state
                .with_control(for_state)
                .with_listen_settings(liftdesk::settings::Settings::default())
        },
    )
    .await;
    (server, host)
}

async fn post_anonymous(
    server: &TestServer,
    path: &str,
    body: serde_json::Value,
) -> (u16, serde_json::Value) {
    let answer = server
        .client
        .post(server.url(path))
        .json(&body)
        .send()
        .await
        .expect("request");
    let status = answer.status().as_u16();
    (status, answer.json().await.unwrap_or_default())
}

/// « Serveur de l'agence »: an installation administrator of the desktop
/// app gives the address; it is checked (HTTPS unless on this computer, no
/// path, not this computer's own Liftdesk), a Liftdesk server set up must
/// answer there, then it is saved and the host shows it. `liftdesk serve`
/// (no host) answers 409; a member 403. On a desktop not set up yet, the
/// setup screen's twin does the same from this computer, and only then.
#[tokio::test]
async fn the_desktop_connects_to_a_checked_agency_server() {
    let agency_server = TestServer::start().await;
    init_org(agency_server.data_dir.path(), "Agence", "admin@agence.fr");
    let not_set_up = TestServer::start().await;

    let plain = TestServer::start().await;
    let (plain_admin, _, _) = admin_and_member(&plain).await;
    let (status, body) = plain_admin
        .post(
            "/desktop/agency-server",
            json!({ "url": agency_server.base_url }),
        )
        .await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(
        body["error"],
        "Seule l'application de bureau se connecte au serveur de l'agence : ouvrez plutôt son adresse dans un navigateur."
    );

    let (server, host) = desktop_server().await;
    let (admin, member, _) = admin_and_member(&server).await;
    let (status, _) = member
        .post(
            "/desktop/agency-server",
            json!({ "url": agency_server.base_url }),
        )
        .await;
    assert_eq!(status, 403);
    let refused = [
        (
            json!({ "url": "http://192.168.1.20:8080" }),
            "Le serveur de l'agence se joint en HTTPS (« https://… ») : en « http:// », les mots de passe passeraient en clair sur le réseau. Adresse reçue : « http://192.168.1.20:8080 ».".to_owned(),
        ),
        (
            json!({ "url": format!("{}/app", agency_server.base_url) }),
            format!(
                "Indiquez l'adresse du serveur seule, sans chemin (par exemple {}).",
                agency_server.base_url
            ),
        ),
        (
            json!({ "url": server.base_url }),
            format!(
                "{} est l'adresse de Liftdesk sur cet ordinateur : indiquez celle du serveur de l'agence.",
                server.base_url
            ),
        ),
        (
            json!({ "url": "http://127.0.0.1:9" }),
            "Le serveur http://127.0.0.1:9 ne répond pas (connexion impossible).".to_owned(),
        ),
        (
            json!({ "url": not_set_up.base_url }),
            format!(
                "Le serveur {} n'est pas encore installé : terminez son installation sur le serveur lui-même, puis connectez ce poste.",
                not_set_up.base_url
            ),
        ),
    ];
    for (body, message) in refused {
        let (status, answer) = admin.post("/desktop/agency-server", body.clone()).await;
        assert_eq!(status, 422, "{body} {answer}");
        assert_eq!(answer["error"], message, "{body}");
    }
    let (status, _) = admin
        .post("/desktop/agency-server", json!({ "adresse": "x" }))
        .await;
    assert_eq!(status, 422);
    assert!(host.connections.lock().expect("lock").is_empty());
    let saved = liftdesk::settings::load(server.data_dir.path()).expect("settings");
    assert_eq!(saved.agency_server, None);

    let (status, accepted) = admin
        .post(
            "/desktop/agency-server",
            json!({ "url": format!(" {}/ ", agency_server.base_url) }),
        )
        .await;
    assert_eq!(status, 202, "{accepted}");
    assert_eq!(accepted, json!({ "url": agency_server.base_url }));
    assert_eq!(
        *host.connections.lock().expect("lock"),
        vec![agency_server.base_url.clone()]
    );
    let saved = liftdesk::settings::load(server.data_dir.path()).expect("settings");
    assert_eq!(
        saved.agency_server.as_deref(),
        Some(agency_server.base_url.as_str())
    );
    // The settings screen's own form keeps it.
    let (status, _) = admin
        .put(
            "/settings",
            json!({ "port": 8080, "lan": false, "backupDir": null, "dailyBackup": false }),
        )
        .await;
    assert_eq!(status, 200);
    let saved = liftdesk::settings::load(server.data_dir.path()).expect("settings");
    assert_eq!(
        saved.agency_server.as_deref(),
        Some(agency_server.base_url.as_str())
    );

    // A desktop not set up: the setup screen offers it, from this computer.
    let (fresh, fresh_host) = desktop_server().await;
    let status = fresh
        .client
        .get(fresh.url("/app/api/setup"))
        .send()
        .await
        .expect("request");
    assert_eq!(
        status.json::<serde_json::Value>().await.expect("json"),
        json!({ "needed": true, "desktop": true })
    );
    let (status, answer) = post_anonymous(
        &fresh,
        "/app/api/setup/agency-server",
        json!({ "url": "https://" }),
    )
    .await;
    assert_eq!(status, 422, "{answer}");
    let (status, answer) = post_anonymous(
        &fresh,
        "/app/api/setup/agency-server",
        json!({ "url": agency_server.base_url }),
    )
    .await;
    assert_eq!(status, 202, "{answer}");
    assert_eq!(
        *fresh_host.connections.lock().expect("lock"),
        vec![agency_server.base_url.clone()]
    );
    // Once set up, only the settings screen does it.
    let (status, answer) = post_anonymous(
        &server,
        "/app/api/setup/agency-server",
        json!({ "url": agency_server.base_url }),
    )
    .await;
    assert_eq!(status, 409, "{answer}");
    assert_eq!(
        answer["error"],
        "Liftdesk est déjà installé sur cet ordinateur : un administrateur choisit le serveur de l'agence dans les paramètres."
    );
}
