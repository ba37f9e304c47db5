//! No secret leaks: the real binary runs with every log level on
//! (`LIFTDESK_LOG=trace`, into stderr and the log folder), and every kind of
//! secret goes through it, right and wrong: API tokens (header, query
//! string, MCP), call-center keys, partner keys (`x-api-key`), staff
//! passwords (sign-in, change), the session cookie and its CSRF token,
//! webhook secrets (and a signed delivery), single-use sheet links, tokens
//! and keys created then revoked from the web application. Then no secret
//! is in stdout, stderr or a log file; no refusal echoes the secret it
//! refused; and no table, nor the database files' bytes, hold one in clear
//! (only SHA-256 fingerprints, argon2 for passwords, webhook secrets
//! encrypted).

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::*;
use liftdesk::auth::secret;
use serde_json::{Value, json};

struct Served {
    child: Child,
    base_url: String,
    stdout: Arc<Mutex<String>>,
    stderr: PathBuf,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `serve --demo` at every level: stdout drained into memory (the first
/// line is the base URL), stderr into a file.
fn serve(dir: &Path, logs: &Path) -> Served {
    let stderr = dir.join("stderr.txt");
    let mut child = crate::common::cli_command(dir)
        .args([
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--demo",
            "--insecure-webhooks",
        ])
        .args(["--connectivity-probe", "off", "--log-dir"])
        .arg(logs)
        .env("LIFTDESK_LOG", "trace")
        .env_remove("LIFTDESK_DATA_DIR")
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::from(
            std::fs::File::create(&stderr).expect("stderr file"),
        ))
        .spawn()
        .expect("start server");
    let mut reader = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    reader.read_line(&mut first).expect("first line");
    let stdout = Arc::new(Mutex::new(first.clone()));
    let sink = stdout.clone();
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = reader.read_to_string(&mut rest);
        sink.lock().expect("stdout").push_str(&rest);
    });
    Served {
        child,
        base_url: first.trim().to_owned(),
        stdout,
        stderr,
    }
}

/// Stops the server as systemd would (SIGTERM) and waits for it.
fn stop(served: &mut Served) {
    let pid = served.child.id().to_string();
    Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    let status = served.child.wait().expect("wait");
    assert!(status.success(), "clean stop: {status:?}");
}

/// A webhook receiver on loopback: answers 200 to every POST and keeps the
/// requests it got.
fn receiver() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}/crochet", listener.local_addr().expect("addr"));
    let got = Arc::new(Mutex::new(Vec::new()));
    let seen = got.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let mut request = Vec::new();
            let mut buf = [0u8; 4096];
            // Headers, then the body by its Content-Length.
            while let Ok(n) = stream.read(&mut buf) {
                if n == 0 {
                    break;
                }
                request.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&request).to_string();
                if let Some(end) = text.find("\r\n\r\n") {
                    let length = text[..end]
                        .lines()
                        .find_map(|l| {
                            let (name, value) = l.split_once(':')?;
                            name.eq_ignore_ascii_case("content-length")
                                .then(|| value.trim().parse::<usize>().ok())?
                        })
                        .unwrap_or(0);
                    if request.len() >= end + 4 + length {
                        break;
                    }
                }
            }
            seen.lock()
                .expect("requests")
                .push(String::from_utf8_lossy(&request).to_string());
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        }
    });
    (url, got)
}

/// Every answer read in the test: (what was sent, status, headers and body
/// as text), to look for echoed secrets.
#[derive(Default)]
struct Seen(Vec<(String, u16, String)>);

struct Http {
    client: reqwest::Client,
    base: String,
    seen: Mutex<Seen>,
}

impl Http {
    async fn send(
        &self,
        label: &str,
        request: reqwest::RequestBuilder,
    ) -> (u16, reqwest::header::HeaderMap, String) {
        let response = request
            .send()
            .await
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = response.text().await.expect("body");
        self.seen.lock().expect("seen").0.push((
            label.to_owned(),
            status,
            format!("{headers:?}\n{body}"),
        ));
        (status, headers, body)
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|_| panic!("JSON expected: {body}"))
}

/// A wrong secret of the right shape: its prefix and 32 random characters.
fn forged(prefix: &str) -> String {
    secret::generate(prefix).expect("random")
}

/// Every text or blob cell of every table that holds `needle`, as
/// `table.column`.
fn cells_holding(conn: &common::db::TestDb, needle: &str) -> Vec<String> {
    let tables = conn.tables();
    let mut found = Vec::new();
    for table in tables {
        for column in conn.columns(&table) {
            // Bytes compared as bytes, anything else as its text.
            let holds = if !conn.on_postgres() {
                format!("instr(CAST(\"{column}\" AS BLOB), CAST(?1 AS BLOB)) > 0")
            } else if conn.column_type(&table, &column) == "bytea" {
                format!("position(convert_to(?1, 'UTF8') IN \"{column}\") > 0")
            } else {
                format!("strpos(CAST(\"{column}\" AS TEXT) COLLATE \"C\", ?1) > 0")
            };
            let count: i64 = conn
                .query_row(
                    &format!("SELECT count(*) FROM \"{table}\" WHERE {holds}"),
                    [needle],
                    |r| r.get(0),
                )
                .expect("scan");
            if count > 0 {
                found.push(format!("{table}.{column}"));
            }
        }
    }
    found
}

fn contains_bytes(haystack: &[u8], needle: &str) -> bool {
    let needle = needle.as_bytes();
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_secret_reaches_the_logs_the_answers_or_the_database_in_clear() {
    let dir = tempfile::tempdir().expect("dir");
    let logs = dir.path().join("journaux");
    let mut served = serve(dir.path(), &logs);
    let creds: Value = serde_json::from_slice(
        &std::fs::read(dir.path().join("demo-credentials.json")).expect("creds"),
    )
    .expect("json");
    let text = |v: &Value| v.as_str().expect("text").to_owned();
    let api_token = text(&creds["admin"]["apiToken"]);
    let member_token = text(&creds["member"]["apiToken"]);
    let call_key = text(&creds["callCenterKeys"][0]);
    let partner_key = text(&creds["partnerKey"]);
    let email = text(&creds["admin"]["email"]);
    let password = text(&creds["admin"]["password"]);
    let agency = text(&creds["agencies"][0]["id"]);
    let number: String = open_db(dir.path())
        .query_row(
            "SELECT number FROM equipment WHERE agency_id = ?1 AND number IS NOT NULL LIMIT 1",
            [&agency],
            |r| r.get(0),
        )
        .expect("an equipment");

    let http = Http {
        client: crate::common::http_client_builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client"),
        base: served.base_url.clone(),
        seen: Mutex::new(Seen::default()),
    };
    // Secrets sent and refused: none may come back in the refusal.
    let mut wrong: Vec<String> = Vec::new();

    // -- API token: header, query string, MCP; wrong and unknown ones.
    let (status, _, _) = http
        .send(
            "me",
            http.client
                .get(http.url(&format!("/api/v2/me?token={api_token}")))
                .bearer_auth(&api_token),
        )
        .await;
    assert_eq!(status, 200);
    let (status, _, _) = http
        .send(
            "mcp",
            http.client
                .post(http.url("/api/mcp"))
                .bearer_auth(&member_token)
                .header("Accept", "application/json, text/event-stream")
                .json(
                    &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                    "protocolVersion": "2025-03-26", "capabilities": {},
                    "clientInfo": {"name": "secrets", "version": "1"}}}),
                ),
        )
        .await;
    assert_eq!(status, 200);
    for bad in [
        forged("svc_agent_"),
        format!("{api_token}x"),
        "pas-un-jeton".to_owned(),
    ] {
        let (status, _, _) = http
            .send(
                "wrong token",
                http.client.get(http.url("/api/v2/me")).bearer_auth(&bad),
            )
            .await;
        assert_eq!(status, 401, "{bad}");
        let (status, _, _) = http
            .send(
                "wrong mcp token",
                http.client
                    .post(http.url("/api/mcp"))
                    .bearer_auth(&bad)
                    .header("Accept", "application/json, text/event-stream")
                    .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})),
            )
            .await;
        assert_eq!(status, 401, "{bad}");
        wrong.push(bad);
    }

    // -- Call-center key, right and wrong.
    let (status, _, body) = http
        .send(
            "call",
            http.client
                .post(http.url(&format!("/api/partners/calls?key={call_key}")))
                .bearer_auth(&call_key)
                .json(&json!({"reference": "SAV-SECRET-1", "equipement": number, "type": "panne", "description": "Ascenseur à l'arrêt."})),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, _, _) = http
        .send(
            "track",
            http.client
                .get(http.url("/api/partners/calls/SAV-SECRET-1"))
                .bearer_auth(&call_key),
        )
        .await;
    assert_eq!(status, 200);
    let bad = forged("svc_");
    let (status, _, _) = http
        .send(
            "wrong call key",
            http.client
                .post(http.url("/api/partners/calls"))
                .bearer_auth(&bad)
                .json(&json!({"reference": "SAV-SECRET-2", "equipement": number, "type": "panne", "description": "Panne."})),
        )
        .await;
    assert_eq!(status, 401);
    wrong.push(bad);

    // -- Partner key and the sheet link it makes.
    let (status, _, body) = http
        .send(
            "partner",
            http.client
                .post(http.url("/api/1.1/wf/generate_token"))
                .header("x-api-key", &partner_key)
                .json(&json!({"agency_id": agency, "equipment_number": number})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let sheet_url = json(&body)["response"]["url"]
        .as_str()
        .expect("url")
        .to_owned();
    let sheet_token = sheet_url.rsplit('/').next().expect("token").to_owned();
    let (sheet_id, sheet_tag) = sheet_token.split_once('.').expect("id.tag");
    assert_eq!(sheet_tag.len(), 64);
    let (status, _, _) = http.send("sheet", http.client.get(&sheet_url)).await;
    assert_eq!(status, 200);
    let (status, _, _) = http.send("sheet again", http.client.get(&sheet_url)).await;
    assert_eq!(status, 410, "single use");
    let forged_sheet = format!("{sheet_id}.{}", "ab".repeat(32));
    let (status, _, _) = http
        .send(
            "forged sheet",
            http.client.get(http.url(&format!("/fiche/{forged_sheet}"))),
        )
        .await;
    assert_eq!(status, 410);
    wrong.push(forged_sheet.clone());
    // Links that are not even tokens get the same French page.
    for odd in ["%FF%FE", "sans-point", "x.y"] {
        let (status, headers, page) = http
            .send(
                "odd sheet",
                http.client.get(http.url(&format!("/fiche/{odd}"))),
            )
            .await;
        assert_eq!(status, 410, "{odd}: {page}");
        assert_eq!(headers["content-type"], "text/html; charset=utf-8", "{odd}");
        assert!(page.contains("expiré"), "{odd}: {page}");
    }
    let bad = forged("svc_partner_");
    let (status, _, _) = http
        .send(
            "wrong partner key",
            http.client
                .post(http.url("/api/1.1/wf/get_client"))
                .header("x-api-key", &bad)
                .json(&json!({"agency_id": agency, "nom": "Syndic"})),
        )
        .await;
    assert_eq!(status, 401);
    wrong.push(bad);

    // -- Staff: a wrong password, then the right one; the session's cookie
    // and CSRF token; a forged cookie and a wrong CSRF token.
    let staff = crate::common::http_client_builder()
        .cookie_store(true)
        .build()
        .expect("client");
    let wrong_password = "motdepasse-faux-1234".to_owned();
    let (status, _, _) = http
        .send(
            "wrong password",
            staff
                .post(http.url("/app/api/session"))
                .json(&json!({"email": email, "password": wrong_password})),
        )
        .await;
    assert_eq!(status, 401);
    wrong.push(wrong_password);
    let (status, headers, body) = http
        .send(
            "sign in",
            staff
                .post(http.url("/app/api/session"))
                .json(&json!({"email": email, "password": password})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let csrf = json(&body)["csrfToken"].as_str().expect("csrf").to_owned();
    let cookie = headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.strip_prefix("liftdesk_session="))
        .and_then(|v| v.split(';').next())
        .expect("session cookie")
        .to_owned();
    assert_eq!(cookie.len(), 43);
    let forged_cookie = secret::random_alphanumeric(43).expect("random");
    let (status, _, _) = http
        .send(
            "forged cookie",
            http.client
                .get(http.url("/app/api/session"))
                .header("Cookie", format!("liftdesk_session={forged_cookie}")),
        )
        .await;
    assert_eq!(status, 401);
    wrong.push(forged_cookie);
    let wrong_csrf = "0".repeat(64);
    let (status, _, _) = http
        .send(
            "wrong csrf",
            staff
                .post(http.url("/app/api/keys/tokens"))
                .header("X-CSRF-Token", &wrong_csrf)
                .json(&json!({"name": "Outil"})),
        )
        .await;
    assert_eq!(status, 403);
    wrong.push(wrong_csrf);

    // -- Tokens and keys made in the web application, then revoked and
    // tried: 401, the body not echoing them.
    let mut created = Vec::new();
    for (path, field) in [("/keys/tokens", "token"), ("/keys/call-center-keys", "key")] {
        let (status, _, body) = http
            .send(
                "create key",
                staff
                    .post(http.url(&format!("/app/api{path}")))
                    .header("X-CSRF-Token", &csrf)
                    .json(&json!({"name": "Outil de test"})),
            )
            .await;
        assert_eq!(status, 201, "{path}: {body}");
        let answer = json(&body);
        let id = answer["id"].as_str().expect("id").to_owned();
        let issued = answer[field].as_str().expect("secret").to_owned();
        let (status, _, body) = http
            .send(
                "revoke key",
                staff
                    .post(http.url(&format!("/app/api{path}/{id}/revoke")))
                    .header("X-CSRF-Token", &csrf),
            )
            .await;
        assert_eq!(status, 200, "{path}: {body}");
        created.push(issued);
    }
    let (status, _, _) = http
        .send(
            "revoked token",
            http.client
                .get(http.url("/api/v2/me"))
                .bearer_auth(&created[0]),
        )
        .await;
    assert_eq!(status, 401);
    let (status, _, _) = http
        .send(
            "revoked call key",
            http.client
                .get(http.url("/api/partners/calls/SAV-SECRET-1"))
                .bearer_auth(&created[1]),
        )
        .await;
    assert_eq!(status, 401);
    wrong.extend(created.iter().cloned());

    // -- A webhook: its secret, and a signed delivery to a local receiver.
    let (hook_url, received) = receiver();
    let (status, _, body) = http
        .send(
            "webhook",
            staff
                .post(http.url("/app/api/webhooks"))
                .header("X-CSRF-Token", &csrf)
                .json(&json!({"url": hook_url, "events": ["appel.clos"]})),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let hook = json(&body);
    let hook_secret = hook["secret"].as_str().expect("secret").to_owned();
    let hook_id = hook["id"].as_str().expect("id").to_owned();
    let (status, _, body) = http
        .send(
            "webhook test",
            staff
                .post(http.url(&format!("/app/api/webhooks/{hook_id}/test")))
                .header("X-CSRF-Token", &csrf),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let deadline = Instant::now() + Duration::from_secs(20);
    while received.lock().expect("requests").is_empty() {
        assert!(Instant::now() < deadline, "the ping was delivered");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let delivery = received.lock().expect("requests")[0].clone();
    assert!(
        delivery.to_lowercase().contains("x-service-signature: t="),
        "{delivery}"
    );
    assert!(!delivery.contains(&hook_secret), "the secret is not sent");

    // -- The password changed (the current one wrong, then right), and a
    // sign-in with the new one.
    let new_password = "un-nouveau-mot-de-passe-solide".to_owned();
    let (status, _, _) = http
        .send(
            "wrong current password",
            staff
                .post(http.url("/app/api/account/password"))
                .header("X-CSRF-Token", &csrf)
                .json(&json!({"currentPassword": "pas-le-bon-mot-de-passe", "newPassword": new_password})),
        )
        .await;
    assert_eq!(status, 422);
    wrong.push("pas-le-bon-mot-de-passe".to_owned());
    let (status, _, body) = http
        .send(
            "password",
            staff
                .post(http.url("/app/api/account/password"))
                .header("X-CSRF-Token", &csrf)
                .json(&json!({"currentPassword": password, "newPassword": new_password})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, _, _) = http
        .send(
            "sign in again",
            http.client
                .post(http.url("/app/api/session"))
                .json(&json!({"email": email, "password": new_password})),
        )
        .await;
    assert_eq!(status, 200);
    // The admin's tokens went with the old password.
    let (status, _, _) = http
        .send(
            "token after password change",
            http.client
                .get(http.url("/api/v2/me"))
                .bearer_auth(&api_token),
        )
        .await;
    assert_eq!(status, 401);
    stop(&mut served);

    // -- Every secret of the run, right and wrong.
    let mut secrets: Vec<(&str, String)> = vec![
        ("API token", api_token.clone()),
        ("member API token", member_token),
        ("call-center key", call_key),
        ("partner key", partner_key),
        ("password", password),
        ("new password", new_password),
        ("session cookie", cookie),
        ("CSRF token", csrf),
        ("webhook secret", hook_secret),
        ("sheet link", sheet_token.clone()),
        ("sheet link's MAC", sheet_tag.to_owned()),
        ("API token made in the app", created[0].clone()),
        ("call-center key made in the app", created[1].clone()),
    ];
    secrets.extend(wrong.iter().map(|w| ("wrong secret", w.clone())));
    // Long enough that finding one is no accident.
    for (what, secret) in &secrets {
        assert!(secret.len() >= 12, "{what}: {secret}");
    }

    // -- The logs: stdout, stderr and the log files, at every level.
    let mut logged = served.stdout.lock().expect("stdout").clone();
    logged.push_str(&std::fs::read_to_string(&served.stderr).expect("stderr"));
    let mut files = 0;
    for entry in std::fs::read_dir(&logs).expect("log dir").flatten() {
        logged.push_str(&std::fs::read_to_string(entry.path()).expect("log file"));
        files += 1;
    }
    assert!(files >= 1, "a log file is written");
    for level in ["TRACE", "DEBUG", " INFO"] {
        assert!(
            logged.lines().any(|l| l.contains(level)),
            "{level} lines are written"
        );
    }
    assert!(logged.contains("/app/api/session"), "requests are logged");
    assert!(
        logged.contains("/fiche/…"),
        "a sheet's path is logged without its token"
    );
    for (what, secret) in &secrets {
        assert!(
            !logged.contains(secret.as_str()),
            "{what} in the logs: {secret}"
        );
    }

    // -- The answers: only the one that issues a secret carries it.
    let issuing = ["sign in", "partner", "create key", "webhook"];
    let seen = http.seen.lock().expect("seen");
    for (label, status, answer) in &seen.0 {
        if issuing.contains(&label.as_str()) {
            continue;
        }
        for (what, secret) in &secrets {
            assert!(
                !answer.contains(secret.as_str()),
                "{what} echoed by « {label} » ({status}): {answer}"
            );
        }
    }

    // -- The database: no cell holds a secret; nor do the files' bytes
    // (free pages, the WAL, backups). The demo's own credentials file holds
    // them by design (the demo's first sign-in), and is left out.
    let conn = open_db(dir.path());
    for (what, secret) in &secrets {
        assert_eq!(
            cells_holding(&conn, secret),
            Vec::<String>::new(),
            "{what} in clear"
        );
    }
    let hashes: Vec<String> = conn
        .prepare("SELECT password_hash FROM accounts WHERE password_hash IS NOT NULL")
        .expect("prepare")
        .query_map([], |r| r.get(0))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("hashes");
    assert!(!hashes.is_empty());
    assert!(
        hashes.iter().all(|h| h.starts_with("$argon2")),
        "{hashes:?}"
    );
    // What is stored instead: the fingerprint of each key and token.
    for (what, secret) in secrets.iter().take(4) {
        assert_eq!(
            cells_holding(&conn, &secret::fingerprint(secret)),
            ["credentials.fingerprint"],
            "{what}'s fingerprint"
        );
    }
    drop(conn);
    let mut stack = vec![dir.path().to_owned()];
    let mut scanned = 0;
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).expect("dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name == "demo-credentials.json" || name == "stderr.txt" {
                continue;
            }
            let bytes = std::fs::read(&path).expect("file");
            scanned += 1;
            for (what, secret) in &secrets {
                assert!(
                    !contains_bytes(&bytes, secret),
                    "{what} in clear in {}",
                    path.display()
                );
            }
        }
    }
    assert!(scanned >= 3, "the database, its key files and the logs");
}
