//! Test harness: the real router on an ephemeral port over a temp SQLite
//! file, and the real `liftdesk` binary for CLI tests.
#![allow(dead_code)]

pub mod app;
pub mod db;
pub mod engine;
pub mod mcp;
pub mod served;
pub mod smtp;
pub mod world;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use liftdesk::auth::rate_limit::RateLimit;
use liftdesk::state::AppState;
use liftdesk::store::Store;
use serde_json::Value;
use tempfile::TempDir;
use tokio::sync::oneshot;

/// A `reqwest` client builder, TLS provider installed: reqwest is built
/// without one (the workspace's `Cargo.toml`), and the product installs
/// ring when it makes its own client; a test that makes one first does the
/// same.
pub fn http_client_builder() -> reqwest::ClientBuilder {
    liftdesk::webhooks::sender::install_tls_provider();
    reqwest::Client::builder()
}

/// [`http_client_builder`] with reqwest's defaults.
pub fn http_client() -> reqwest::Client {
    http_client_builder().build().expect("client HTTP")
}

pub struct TestServer {
    pub base_url: String,
    pub data_dir: TempDir,
    pub store: Store,
    pub client: reqwest::Client,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
}

impl TestServer {
    /// A server over an empty, migrated database.
    pub async fn start() -> TestServer {
        let data_dir = tempfile::tempdir().expect("temp dir");
        Self::start_in(data_dir).await
    }

    /// A server over an existing data directory (e.g. prepared by the CLI).
    pub async fn start_in(data_dir: TempDir) -> TestServer {
        Self::start_with(data_dir, RateLimit::default()).await
    }

    /// A server with its own rate-limit thresholds.
    pub async fn start_with(data_dir: TempDir, limit: RateLimit) -> TestServer {
        Self::start_adjusted(data_dir, limit, |state| state).await
    }

    /// A server whose state is adjusted before serving (e.g. its clock).
    pub async fn start_adjusted(
        data_dir: TempDir,
        limit: RateLimit,
        adjust: impl FnOnce(AppState) -> AppState,
    ) -> TestServer {
        let store = open_store(data_dir.path());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let base_url = liftdesk::server::base_url_of(&listener).expect("address");
        let state = adjust(AppState::with_rate_limit(
            store.clone(),
            base_url.clone(),
            limit,
        ));
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(liftdesk::server::serve(listener, state, async move {
            let _ = rx.await;
        }));
        TestServer {
            base_url,
            data_dir,
            store,
            client: crate::common::http_client_builder()
                .build()
                .expect("client"),
            shutdown: Some(tx),
            task: Some(task),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base_url, path)
    }

    pub fn cli(&self, args: &[&str]) -> Output {
        run_cli(self.data_dir.path(), args)
    }

    pub fn cli_json(&self, args: &[&str]) -> Value {
        cli_json(self.data_dir.path(), args)
    }

    /// GET with a bearer token and optional X-Service-Agency.
    pub async fn get_with(
        &self,
        path: &str,
        token: Option<&str>,
        agency: Option<&str>,
    ) -> (u16, Value) {
        let mut request = self.client.get(self.url(path));
        if let Some(token) = token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        if let Some(agency) = agency {
            request = request.header("X-Service-Agency", agency);
        }
        let response = request.send().await.expect("request");
        let status = response.status().as_u16();
        let body = response.json::<Value>().await.unwrap_or(Value::Null);
        (status, body)
    }

    /// A REST v2 request (`/api/v2` + `path`) with a bearer token and a body.
    pub async fn v2(
        &self,
        method: reqwest::Method,
        path: &str,
        token: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut request = self
            .client
            .request(method, self.url(&format!("/api/v2{path}")))
            .header("Authorization", format!("Bearer {token}"));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("request");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    /// Stops the server cleanly and starts it again over the same data
    /// directory (what runs at start runs again).
    pub async fn restart(self) -> TestServer {
        self.restart_adjusted(|state| state).await
    }

    /// [`TestServer::restart`], the new server's state adjusted before it
    /// serves (e.g. its clock, which what runs at start then reads).
    pub async fn restart_adjusted(
        mut self,
        adjust: impl FnOnce(AppState) -> AppState,
    ) -> TestServer {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.expect("join").expect("server ended cleanly");
        }
        let TestServer { data_dir, .. } = self;
        TestServer::start_adjusted(data_dir, RateLimit::default(), adjust).await
    }

    pub async fn stop(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.expect("join").expect("server ended cleanly");
        }
    }
}

pub fn run_cli(data_dir: &Path, args: &[&str]) -> Output {
    cli_command(data_dir)
        .args(args)
        .output()
        .expect("run liftdesk")
}

/// The `liftdesk` binary on `data_dir` and its database (on PostgreSQL,
/// the directory's schema, through `LIFTDESK_DATABASE_URL`).
pub fn cli_command(data_dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_liftdesk"));
    command
        .arg("--data-dir")
        .arg(data_dir)
        .env_remove("LIFTDESK_DATA_DIR");
    match engine::database_url(data_dir) {
        Some(url) => command.env("LIFTDESK_DATABASE_URL", url),
        None => command.env_remove("LIFTDESK_DATABASE_URL"),
    };
    command
}

/// The store of `data_dir`'s database on the run's engine (made and
/// migrated if new).
pub fn open_store(data_dir: &Path) -> Store {
    liftdesk::server::open_database(&engine::database(data_dir)).expect("open store")
}

/// Runs a CLI command that must succeed and print one JSON object.
pub fn cli_json(data_dir: &Path, args: &[&str]) -> Value {
    let out = run_cli(data_dir, args);
    assert!(
        out.status.success(),
        "liftdesk {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(
        stdout.lines().count(),
        1,
        "one JSON line expected, got {stdout:?}"
    );
    serde_json::from_str(stdout.trim()).expect("JSON on stdout")
}

pub fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn str_of<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} missing in {value}"))
}

/// An organization with its admin and an API token for the admin.
pub struct Org {
    pub organization_id: String,
    pub agency_id: String,
    pub admin_id: String,
    pub admin_email: String,
    pub admin_token: String,
}

/// The SIRET and address `init_org` gives every test organization's first
/// agency: what it needs to issue invoices.
pub const TEST_SIRET: &str = "73282932000074";
pub const TEST_ADDRESS: &str = "1 place Bellecour, 69002 Lyon";
/// The VAT number of `TEST_SIRET`'s company (key 44, SIREN 732829320).
pub const TEST_VAT_NUMBER: &str = "FR44732829320";

/// `liftdesk init`: an organization whose first agency has filled in its
/// SIRET, address and VAT number (`TEST_SIRET`, `TEST_ADDRESS`,
/// `TEST_VAT_NUMBER`), so it can issue.
pub fn init_org(data_dir: &Path, name: &str, email: &str) -> Org {
    init_org_with(
        data_dir,
        name,
        email,
        &[
            "--siret",
            TEST_SIRET,
            "--address",
            TEST_ADDRESS,
            "--vat-number",
            TEST_VAT_NUMBER,
        ],
    )
}

/// `liftdesk init` of an organization whose agency has no identity yet (as
/// the first-run setup leaves it).
pub fn init_bare_org(data_dir: &Path, name: &str, email: &str) -> Org {
    init_org_with(data_dir, name, email, &[])
}

fn init_org_with(data_dir: &Path, name: &str, email: &str, identity: &[&str]) -> Org {
    let agency = format!("{name} Centre");
    let admin_name = format!("Admin {name}");
    let mut args = vec![
        "init",
        "--organization",
        name,
        "--agency",
        &agency,
        "--admin-email",
        email,
        "--admin-password",
        "motdepasse-solide",
        "--admin-name",
        &admin_name,
    ];
    args.extend_from_slice(identity);
    let out = cli_json(data_dir, &args);
    let token = cli_json(
        data_dir,
        &["token", "create", "--email", email, "--name", "tests"],
    );
    Org {
        organization_id: str_of(&out, "organizationId").to_owned(),
        agency_id: str_of(&out, "agencyId").to_owned(),
        admin_id: str_of(&out, "accountId").to_owned(),
        admin_email: email.to_owned(),
        admin_token: str_of(&token, "token").to_owned(),
    }
}

/// `liftdesk agency create`: a new agency `name` of the organization; its id.
pub fn new_agency(server: &TestServer, org: &Org, name: &str) -> String {
    str_of(
        &server.cli_json(&[
            "agency",
            "create",
            "--organization",
            &org.organization_id,
            "--name",
            name,
        ]),
        "id",
    )
    .to_owned()
}

/// The audit entries of one object (`object_type`, `object_id`), oldest
/// first: each action and its detail (`Value::Null` when none).
pub fn audit_of(server: &TestServer, object_type: &str, object_id: &str) -> Vec<(String, Value)> {
    let conn = open_db(server.data_dir.path());
    let mut stmt = conn
        .prepare(
            "SELECT action, detail FROM audit_log WHERE object_type = ?1 AND object_id = ?2 ORDER BY seq",
        )
        .expect("prepare");
    stmt.query_map([object_type, object_id], |r| {
        let detail: Option<String> = r.get(1)?;
        Ok((
            r.get(0)?,
            detail
                .map(|d| serde_json::from_str(&d).expect("json"))
                .unwrap_or(Value::Null),
        ))
    })
    .expect("query")
    .collect::<Result<_, _>>()
    .expect("rows")
}

/// `liftdesk user create`: « Marc Membre » in `agency`, password
/// `motdepasse-solide`, with the command's `extra` flags (`--admin`,
/// `--agency ID`, `--technician`…). Its id.
pub fn member(server: &TestServer, agency: &str, email: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "user",
        "create",
        "--email",
        email,
        "--name",
        "Marc Membre",
        "--password",
        "motdepasse-solide",
        "--agency",
        agency,
    ];
    args.extend_from_slice(extra);
    str_of(&server.cli_json(&args), "id").to_owned()
}

/// `liftdesk operator create`: the service operator's account (and, first
/// time, its own organization), « Opérateur » with this e-mail and password.
pub fn create_operator(data_dir: &Path, email: &str, password: &str) -> Value {
    cli_json(
        data_dir,
        &[
            "operator",
            "create",
            "--email",
            email,
            "--name",
            "Opérateur",
            "--password",
            password,
        ],
    )
}

/// The service operator's account (created here) checks the import file
/// `file_id` of `agency` against `target` with a token of its own: the
/// answer's status and body. Checking runs the target's writes for a
/// target that creates (contracts, index values): the operator, who
/// changes nothing, is refused.
pub async fn operator_checks_import(
    server: &TestServer,
    agency: &str,
    file_id: &str,
    target: &str,
) -> (u16, Value) {
    create_operator(
        server.data_dir.path(),
        "ops@service.fr",
        "motdepasse-solide",
    );
    let operator = server.cli_json(&[
        "token",
        "create",
        "--email",
        "ops@service.fr",
        "--name",
        "ops",
    ]);
    let answer = server
        .client
        .post(server.url(&format!("/api/v2/imports/{file_id}/check")))
        .bearer_auth(str_of(&operator, "token"))
        .header("X-Service-Agency", agency)
        .json(&serde_json::json!({ "target": target }))
        .send()
        .await
        .expect("request");
    let status = answer.status().as_u16();
    (status, answer.json::<Value>().await.expect("json"))
}

/// What the service operator is told when it would change an agency.
pub const OPERATOR_CHANGES_NOTHING: &str =
    "Le compte de service de l'opérateur consulte les agences mais n'y modifie rien.";

pub fn db_path(data_dir: &Path) -> PathBuf {
    data_dir.join("liftdesk.db")
}

/// A direct look at the test's database, on the run's engine.
pub fn open_db(data_dir: &Path) -> db::TestDb {
    db::TestDb::open(data_dir)
}

/// The SQLite file itself, for the tests of that engine's own behaviour
/// (crash safety, migrations of an older file, backups).
pub fn sqlite_file(data_dir: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(db_path(data_dir)).expect("open database")
}

/// The text of a PDF as `pdftotext -layout` extracts it (poppler-utils),
/// no-break spaces as plain spaces.
pub fn pdftotext(bytes: &[u8]) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("document.pdf");
    std::fs::write(&path, bytes).expect("write pdf");
    let out = Command::new("pdftotext")
        .arg("-layout")
        .arg("-enc")
        .arg("UTF-8")
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils, scripts/setup.sh) must be installed");
    assert!(
        out.status.success(),
        "pdftotext: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .replace(['\u{202f}', '\u{a0}'], " ")
}

/// The images of a PDF as `pdfimages -list` lists them: (width, height).
pub fn pdf_images(bytes: &[u8]) -> Vec<(u32, u32)> {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("document.pdf");
    std::fs::write(&path, bytes).expect("write pdf");
    let out = Command::new("pdfimages")
        .arg("-list")
        .arg(&path)
        .output()
        .expect("pdfimages (poppler-utils) must be installed");
    assert!(
        out.status.success(),
        "pdfimages: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .skip(2)
        .filter_map(|line| {
            let columns: Vec<&str> = line.split_whitespace().collect();
            // page num type width height …; an image's soft mask is listed too.
            (columns.get(2) == Some(&"image"))
                .then(|| Some((columns.get(3)?.parse().ok()?, columns.get(4)?.parse().ok()?)))
                .flatten()
        })
        .collect()
}
