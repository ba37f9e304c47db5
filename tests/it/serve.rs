//! `liftdesk serve`: the real binary, its first stdout line, the demo on an
//! empty data directory, and a clean stop on SIGTERM.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use serde_json::Value;

#[tokio::test]
async fn serve_with_demo_prints_its_url_serves_the_api_and_stops_cleanly() {
    let dir = tempfile::tempdir().expect("dir");
    let mut child = crate::common::cli_command(dir.path())
        .args(["serve", "--bind", "127.0.0.1:0", "--demo"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start server");
    let stdout = child.stdout.take().expect("stdout");
    let mut first_line = String::new();
    BufReader::new(stdout)
        .read_line(&mut first_line)
        .expect("first line");
    let base_url = first_line.trim().to_owned();
    assert!(base_url.starts_with("http://127.0.0.1:"), "{base_url}");
    let port: u16 = base_url
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .expect("port");
    assert_ne!(port, 0);

    // The demo credentials were written before the server started.
    let creds_path = dir.path().join("demo-credentials.json");
    let creds: Value =
        serde_json::from_slice(&std::fs::read(&creds_path).expect("credentials file"))
            .expect("json");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&creds_path)
            .expect("meta")
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o600, "credentials readable by the owner only");
    }
    let token = creds["admin"]["apiToken"].as_str().expect("admin token");
    let client = crate::common::http_client();
    let me: Value = client
        .get(format!("{base_url}/api/v2/me"))
        .bearer_auth(token)
        .send()
        .await
        .expect("request")
        .json()
        .await
        .expect("json");
    assert_eq!(me["email"], creds["admin"]["email"]);
    assert_eq!(me["agencies"].as_array().map(Vec::len), Some(2));

    // The UI is served at / once built (its build is a step of the test command).
    let page = client
        .get(format!("{base_url}/connexion"))
        .send()
        .await
        .expect("request");
    if std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("ui/dist/index.html")
        .exists()
    {
        assert_eq!(page.status().as_u16(), 200);
        assert!(
            page.headers()["content-type"]
                .to_str()
                .unwrap_or_default()
                .starts_with("text/html")
        );
        let csp = page.headers()["content-security-policy"]
            .to_str()
            .unwrap_or_default()
            .to_owned();
        assert!(csp.contains("default-src 'self'"), "{csp}");
        let html = page.text().await.expect("html");
        assert!(html.contains("lang=\"fr\""), "{html}");
    } else {
        assert_eq!(page.status().as_u16(), 503);
        assert!(
            page.text()
                .await
                .expect("text")
                .contains("L'interface web n'est pas construite")
        );
    }

    // SIGTERM: a clean stop, and the WAL folded back into the database.
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let started = Instant::now();
    let exit = loop {
        if let Some(exit) = child.try_wait().expect("wait") {
            break exit;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "server did not stop"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(exit.success(), "exit status {exit:?}");
    let wal = dir.path().join("liftdesk.db-wal");
    let wal_len = std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
    assert_eq!(wal_len, 0, "WAL checkpointed on shutdown");

    // A second start on the same directory does not seed the demo again.
    let again = run_cli(dir.path(), &["demo"]);
    assert!(!again.status.success());
    assert!(stderr_of(&again).contains("déjà installée"));
}

#[test]
fn serve_refuses_an_address_it_cannot_bind_in_french() {
    let dir = tempfile::tempdir().expect("dir");
    let out = run_cli(dir.path(), &["serve", "--bind", "not-an-address"]);
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("Impossible d'écouter sur not-an-address"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn serve_refuses_a_bad_webhook_setting_in_french() {
    let dir = tempfile::tempdir().expect("dir");
    let out = run_cli(
        dir.path(),
        &[
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--webhook-retry-schedule",
            "1m,deux",
        ],
    );
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("délai « deux » illisible"),
        "{}",
        stderr_of(&out)
    );
    let out = run_cli(
        dir.path(),
        &[
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--connectivity-probe",
            "ftp://x",
        ],
    );
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("sonde « ftp://x » illisible"),
        "{}",
        stderr_of(&out)
    );
}

#[tokio::test]
async fn insecure_webhooks_from_the_environment_are_accepted_and_warned_about() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Durand", "admin@durand.fr");
    let mut child = crate::common::cli_command(dir.path())
        .args(["serve", "--bind", "127.0.0.1:0"])
        .env("LIFTDESK_INSECURE_WEBHOOKS", "1")
        .env("LIFTDESK_WEBHOOK_RETRY_SCHEDULE", "1s,2s")
        .env("LIFTDESK_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start server");
    let mut first_line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first_line)
        .expect("first line");
    let base_url = first_line.trim().to_owned();
    let answer = crate::common::http_client()
        .post(format!("{base_url}/api/v2/webhooks"))
        .bearer_auth(&org.admin_token)
        .json(&serde_json::json!({ "url": "http://127.0.0.1:9/hook", "events": ["appel.clos"] }))
        .send()
        .await
        .expect("request");
    assert_eq!(answer.status().as_u16(), 201);
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    let out = child.wait_with_output().expect("wait");
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        log.contains(
            "--insecure-webhooks : des destinataires de webhooks en http:// local sont acceptés"
        ),
        "{log}"
    );
    assert!(log.contains("schedule=1s,2s"), "{log}");
}
