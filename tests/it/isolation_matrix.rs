//! The isolation matrix (issue 12): every operation of every API family,
//! tried by every kind of wrong caller, gets the documented refusal, reveals
//! nothing and changes nothing in the store. `docs/isolation.md` says the
//! same for readers of the docs.
//!
//! One server over the demo (agencies A « Paris Ouest » and B « Paris Est »,
//! `liftdesk demo`), a second organization made with `liftdesk init`, and
//! keys and tokens made (and revoked) with the CLI. The objects attacked
//! belong to agency A (to B for the partner workflow API, whose rightful key
//! acts in B). Where the operations come from, so that a new one without an
//! entry fails the test (and an entry without an operation too):
//!
//! - REST v2 (`/api/v2`): the served OpenAPI document;
//! - call-center API (`/api/partners`), partner workflow API (`/api/1.1/wf`)
//!   and web application API (`/app/api`): the `.route(…)` calls of their
//!   source files (`src/api/{partners,wf,app}/*.rs`); the families nested in
//!   `src/api/mod.rs` and the routes outside them (the OpenAPI document and
//!   its page, `/fiche/{token}`, the JSON 404s) are listed too;
//! - MCP (`/api/mcp`): `tools/list`, plus the transport (initialize,
//!   tools/list, resources/templates/list, prompts/list) and the equipment
//!   sheet resource.
//!
//! The wrong callers and what they get (— : not a caller of that family):
//!
//! | caller | REST v2, MCP | call-center | workflow | web app |
//! | --- | --- | --- | --- | --- |
//! | no credential | 401 | 401 | 401 | 401 |
//! | unknown token / key / session cookie | 401 | 401 | 401 | 401 |
//! | revoked token / key, signed-out session | 401 | 401 | 401 | 401 |
//! | call-center key | 401 | — | 401 | — |
//! | API token | — | 401 | 401 | 401 (as bearer) |
//! | partner key | 401 | 401 | — | — |
//! | staff session cookie | 401 | 401 | — | — |
//! | a change without the CSRF token | — | — | — | 403 |
//! | another organization | 404 / hidden | 404 / 422 | 403 | 404 / hidden |
//! | another agency of the organization | 404 / hidden | 404 / 422 | 404 / [] | 404 / hidden (not tried on the organization's people) |
//! | another call center of agency A | — | 404 | — | — |
//! | the member (A only) asking for B | 403 | — | — | 403 (agency switch) |
//! | the member where an administrator is needed | 403 | — | — | 403 |
//! | another organization on the installation's settings | — | — | — | 403 |
//! | a partner key not attributed to the agency | — | — | 403 | — |
//! | the service operator changing anything | 403 (REST v2) | — | — | — |
//!
//! "404 / hidden": an operation naming an object of A answers exactly what
//! it answers for an id of the same form that names nothing (same status —
//! 404, or 422 where a body names it, as documented — and the same body once
//! the ids are swapped back), with the `error` key alone and none of the
//! object's stored texts; a list answers 200 without any of A's objects
//! (nor, to another organization, A's agency names, ids or staff). 401 and
//! 403 carry the documented French message, byte for byte; the workflow
//! API keeps its `{"status": "error", "message"}` envelope; an MCP tool's
//! refusal is its tool error (`{"error", "status"}`).
//!
//! Not tried by another organization or agency: operations that act in the
//! caller's own scope without naming an object of A (subscribing a webhook,
//! uploading a file, creating a key or a token, swapping rota weeks, the
//! workflow API's creations…), where they are legitimate callers. The
//! installation's settings (`/settings*`, `/diagnostics`) belong to the
//! organization that set the installation up (the demo's here): another
//! organization's administrator gets 403, and `settings.json` is compared
//! before and after the matrix (see docs/isolation.md).
//! The sign-in and the first-run setup are public: they are checked for
//! their documented answer on an installed server.
//!
//! Nothing changed: SQLite's `data_version` is read after each operation,
//! and when the server committed anything, a digest of every table (the
//! credentials' and sessions' usage stamps excepted) is compared with the
//! one taken before the matrix; the whole matrix is compared at the end.
//! Finally the rightful caller runs every operation once: no 401, 403, 404
//! or 405, so the refusals above come from the caller, not from the path or
//! the body (and the digest sees that run's changes).
//!
//! The service operator's account reads every client agency and changes
//! nothing: every REST v2 operation that is not a read gets, with its token
//! in agency A, 403 with the operator's refusal (the administrators' one
//! where an administrator is needed), and the store does not change; the
//! dry run of an import (`/check`) is a read.
//!
//! To add an operation: an entry in its family's list (`v2_ops`, `app_ops`,
//! `call_center_ops`, `workflow_ops`, `mcp_ops`) naming the objects it acts
//! on (`on`, or `naming` with the documented status when a body names
//! them), whether it lists (`list`), and the member's 403 (`admin`).

use crate::common;

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use base64::Engine as _;
use common::*;
use liftdesk::auth::rate_limit::RateLimit;
use liftdesk::auth::staff_session::csrf_token_for;
use liftdesk::store::sql::Value as StoredValue;
use serde_json::{Value, json};

const TOKEN_401: &str = "Authentification requise : jeton d'API manquant, inconnu ou révoqué.";
const CENTER_401: &str =
    "Authentification requise : clé de centre d'appels manquante, inconnue ou révoquée.";
const PARTNER_401: &str = "Clé d'API partenaire manquante, inconnue ou révoquée.";
const PARTNER_403: &str = "Cette agence n'est pas attribuée à cette clé partenaire.";
const SESSION_401: &str = "Session absente ou expirée : reconnectez-vous.";
const CSRF_403: &str = "Jeton anti-CSRF manquant ou invalide : rechargez la page.";
const SCOPE_403: &str = "Cette agence est hors du périmètre de ce compte.";
const OPERATOR_403: &str = OPERATOR_CHANGES_NOTHING;
/// What the operator may do besides reading: check a file (a dry run).
const OPERATOR_MAY: &[&str] = &["POST /imports/{fileId}/check"];
/// The MCP tools that change something: refused to the operator as their
/// REST operations are (the read tools answer it).
const MCP_WRITE_TOOLS: &[&str] = &[
    "commencer_visite",
    "replanifier_visite",
    "terminer_visite",
    "annuler_debut_visite",
    "affecter_appel",
    "statut_appel",
    "creer_facture",
    "emettre_facture",
    "envoyer_facture",
    "enregistrer_reglement",
    "creer_avoir",
    "creer_devis",
    "envoyer_devis",
    "accepter_devis",
    "refuser_devis",
    "renouveler_devis",
    "creer_contact",
    "creer_immeuble",
    "modifier_identite_equipement",
    "soumettre_releve",
    "signaler_ecart",
    "creer_contrat",
    "activer_contrat",
    "resilier_contrat",
    "enregistrer_indice",
    "facturer_contrats",
    "emettre_factures_contrats",
];
const SWITCH_403: &str = "Cette agence n'est pas dans le périmètre de votre compte.";
/// A surveyor of both demo agencies (the workflow API's mobile account).
const SURVEYOR: &str = "releveur@ascenseurs-durand.fr";
const SETTINGS: &str = "Le réglage de l'installation";

// -- The world ------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Family {
    V2,
    CallCenter,
    Workflow,
    Mcp,
    App,
}

/// How a request authenticates.
#[derive(Clone, Debug)]
enum Auth {
    None,
    Bearer(String, Option<String>),
    ApiKey(String),
    Session {
        cookie: String,
        csrf: Option<String>,
    },
}

fn bearer(token: &str) -> Auth {
    Auth::Bearer(token.to_owned(), None)
}

fn bearer_in(token: &str, agency: &str) -> Auth {
    Auth::Bearer(token.to_owned(), Some(agency.to_owned()))
}

/// A signed-in staff member: the cookie's value and the CSRF token.
#[derive(Clone)]
struct Session {
    cookie: String,
    csrf: String,
}

impl Session {
    fn auth(&self) -> Auth {
        Auth::Session {
            cookie: self.cookie.clone(),
            csrf: Some(self.csrf.clone()),
        }
    }

    fn without_csrf(&self) -> Auth {
        Auth::Session {
            cookie: self.cookie.clone(),
            csrf: None,
        }
    }
}

/// An object of the attacked agency, and an id of the same form that names
/// nothing (the refusal must be the same for both).
#[derive(Clone, Debug)]
struct Target {
    real: String,
    ghost: String,
    /// The object's stored texts, none of which may leak into a refusal.
    secrets: Vec<String>,
}

struct World {
    server: TestServer,
    dir: PathBuf,
    a: String,
    b: String,
    admin_token: String,
    member_token: String,
    revoked_token: String,
    operator_token: String,
    outsider: Org,
    center_key: String,
    second_center_key: String,
    center_key_b: String,
    outsider_center_key: String,
    revoked_center_key: String,
    partner_key: String,
    partner_key_a_only: String,
    outsider_partner_key: String,
    revoked_partner_key: String,
    admin: Session,
    admin_in_b: Session,
    member: Session,
    outsider_admin: Session,
    signed_out: Session,
    ids: Ids,
    /// The SMTP receiver the agency's outgoing server points at: it refuses
    /// every message, so a message is abandoned at once and nothing is
    /// retried in the background while the matrix compares the store.
    _smtp: common::smtp::SmtpSink,
}

/// The objects the matrix aims at.
struct Ids {
    /// A done visit of A (its report) and a message of A (its report sent).
    done_visit: Target,
    mail: Target,
    /// The contact of the done visit's client the report went to.
    report_contact: Target,
    /// An export of A's clients, started by the admin (in memory).
    export: Target,
    equipment: Target,
    equipment_number: Target,
    survey: Target,
    open_survey: Target,
    visit: Target,
    running_visit: Target,
    draft_quote: Target,
    sent_quote: Target,
    other_sent_quote: Target,
    accepted_quote: Target,
    draft_invoice: Target,
    issued_invoice: Target,
    sent_invoice: Target,
    call: Target,
    call_reference: Target,
    client: Target,
    /// A contact of a client of A.
    contact: Target,
    /// A building of A.
    building: Target,
    technician: Target,
    absence: Target,
    webhook: Target,
    import_file: Target,
    app_webhook: Target,
    app_import_file: Target,
    member_token_id: Target,
    center_key_id: Target,
    partner_key_id: Target,
    /// Of agency B, for the partner workflow API.
    b_equipment_number: Target,
    b_client: Target,
    /// A's survey's equipment (for discrepancies).
    survey_equipment: Target,
    /// An account of A the people operations act on (not the member's:
    /// the control run deactivates it).
    person: Target,
    /// Agency A, named in a new account's `agencyIds`.
    agency_a: Target,
    /// That account's technician record (the control run takes him off the
    /// roster and puts him back).
    person_technician: Target,
    /// Two drafts of contracts (one edited and activated, one deleted by
    /// the control run), one in force (terminated by it), and the client
    /// and lift of the first draft.
    draft_contract: Target,
    other_draft_contract: Target,
    /// A third draft, deleted by the web application's control run.
    app_draft_contract: Target,
    active_contract: Target,
    draft_contract_client: String,
    draft_contract_lift: String,
    monday: String,
}

fn one(dir: &Path, sql: &str, params: &[&str]) -> String {
    open_db(dir)
        .query_row(
            sql,
            liftdesk::store::sql::params_from_iter(params.iter()),
            |r| r.get(0),
        )
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// Every text of the rows `sql` selects (at least 6 characters), but the id.
fn texts(dir: &Path, sql: &str, params: &[&str], id: &str) -> Vec<String> {
    let conn = open_db(dir);
    let mut stmt = conn.prepare(sql).expect("prepare");
    let rows = stmt
        .query_map(
            liftdesk::store::sql::params_from_iter(params.iter()),
            |row| {
                let mut out = Vec::new();
                for i in 0..row.column_count() {
                    if let StoredValue::Text(t) = row.get::<StoredValue>(i)? {
                        out.push(t);
                    }
                }
                Ok(out)
            },
        )
        .expect("query")
        .collect::<Result<Vec<_>, _>>()
        .expect("rows");
    rows.into_iter()
        .flatten()
        .filter(|t| t.chars().count() >= 6 && t != id)
        .collect()
}

fn ghost_uuid(n: u32) -> String {
    format!("01900000-0000-7000-8000-{n:012}")
}

/// A row of `table` by `id`, with its texts as secrets.
fn target(dir: &Path, table: &str, id: String, n: u32) -> Target {
    let secrets = texts(
        dir,
        &format!("SELECT * FROM \"{table}\" WHERE id = ?1"),
        &[&id],
        &id,
    );
    Target {
        real: id,
        ghost: ghost_uuid(n),
        secrets,
    }
}

fn plain(real: String, ghost: &str) -> Target {
    Target {
        real,
        ghost: ghost.to_owned(),
        secrets: Vec::new(),
    }
}

/// Signs in; the cookie's value comes from `Set-Cookie`.
async fn sign_in(server: &TestServer, email: &str, password: &str) -> Session {
    let response = server
        .client
        .post(server.url("/app/api/session"))
        .json(&json!({ "email": email, "password": password }))
        .send()
        .await
        .expect("sign-in");
    assert_eq!(response.status().as_u16(), 200, "sign-in of {email}");
    let cookie = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.strip_prefix("liftdesk_session="))
        .and_then(|v| v.split(';').next())
        .expect("session cookie")
        .to_owned();
    let body: Value = response.json().await.expect("session json");
    Session {
        cookie,
        csrf: str_of(&body, "csrfToken").to_owned(),
    }
}

async fn world() -> World {
    let temp = tempfile::tempdir().expect("dir");
    let dir = temp.path().to_owned();
    let creds = cli_json(&dir, &["demo", "--seed", "11"]);
    let a = creds["agencies"][0]["id"].as_str().expect("a").to_owned();
    let b = creds["agencies"][1]["id"].as_str().expect("b").to_owned();
    let admin_email = str_of(&creds["admin"], "email").to_owned();
    let outsider = init_org(&dir, "Concurrent", "admin@concurrent.fr");
    cli_json(
        &dir,
        &[
            "user",
            "create",
            "--email",
            SURVEYOR,
            "--name",
            "Paul Releveur",
            "--password",
            "motdepasse-solide",
            "--agency",
            &a,
            "--agency",
            &b,
            "--performs-surveys",
        ],
    );

    let revoked = cli_json(
        &dir,
        &[
            "token",
            "create",
            "--email",
            &admin_email,
            "--name",
            "ancien",
        ],
    );
    cli_json(&dir, &["token", "revoke", "--id", str_of(&revoked, "id")]);
    // The service operator's account and its token: it reads every client
    // agency and changes none.
    common::create_operator(&dir, "ops@service.fr", "motdepasse-solide");
    let operator_token = str_of(
        &cli_json(
            &dir,
            &[
                "token",
                "create",
                "--email",
                "ops@service.fr",
                "--name",
                "matrice",
            ],
        ),
        "token",
    )
    .to_owned();
    let center = |agency: &str, name: &str| {
        cli_json(
            &dir,
            &[
                "call-center-key",
                "create",
                "--agency",
                agency,
                "--name",
                name,
            ],
        )
    };
    let center_key_b = center(&b, "Centre de l'Est");
    let outsider_center = center(&outsider.agency_id, "Centre concurrent");
    let revoked_center = center(&a, "Centre résilié");
    cli_json(
        &dir,
        &["token", "revoke", "--id", str_of(&revoked_center, "id")],
    );
    let partner = |agency: &str, name: &str| {
        cli_json(
            &dir,
            &["partner-key", "create", "--name", name, "--agency", agency],
        )
    };
    let partner_a_only = partner(&a, "GMAO de l'Ouest");
    let outsider_partner = partner(&outsider.agency_id, "GMAO concurrente");
    let revoked_partner = partner(&a, "GMAO résiliée");
    cli_json(
        &dir,
        &["token", "revoke", "--id", str_of(&revoked_partner, "id")],
    );

    // A ceiling no matrix reaches: 429 is not what is tested here.
    let limit = RateLimit::parse("1000000/100000").expect("limit");
    let server = TestServer::start_with(temp, limit).await;
    let admin_password = str_of(&creds["admin"], "password").to_owned();
    let admin = sign_in(&server, &admin_email, &admin_password).await;
    let admin_in_b = sign_in(&server, &admin_email, &admin_password).await;
    let switched = send(
        &server,
        "PUT",
        "/app/api/session/agency",
        &admin_in_b.auth(),
        Some(&json!({ "agencyId": b })),
    )
    .await;
    assert_eq!(switched.0, 200, "switch to B: {}", switched.1);
    let member = sign_in(
        &server,
        str_of(&creds["member"], "email"),
        str_of(&creds["member"], "password"),
    )
    .await;
    let outsider_admin = sign_in(&server, "admin@concurrent.fr", "motdepasse-solide").await;
    let signed_out = sign_in(&server, &admin_email, &admin_password).await;
    let out = send(
        &server,
        "DELETE",
        "/app/api/session",
        &signed_out.auth(),
        None,
    )
    .await;
    assert_eq!(out.0, 204, "sign-out");

    let admin_token = str_of(&creds["admin"], "apiToken").to_owned();
    // Objects of A made through the API, one for each family's control run:
    // webhook subscriptions and import files.
    let mut made = Vec::new();
    for _ in 0..2 {
        let (status, hook) = send(
            &server,
            "POST",
            "/api/v2/webhooks",
            &bearer_in(&admin_token, &a),
            Some(&json!({ "url": "https://127.0.0.1:9/liftdesk", "events": ["appel.clos"] })),
        )
        .await;
        assert_eq!(status, 201, "webhook: {hook}");
        let csv = "Nom;Email\nSyndic Témoin;temoin@example.fr\n";
        let (status, file) = send(
            &server,
            "POST",
            "/api/v2/imports/files",
            &bearer_in(&admin_token, &a),
            Some(&json!({
                "name": "clients.csv",
                "content": base64::engine::general_purpose::STANDARD.encode(csv),
            })),
        )
        .await;
        assert_eq!(status, 201, "import file: {file}");
        made.push((
            str_of(&hook, "id").to_owned(),
            str_of(&file, "fileId").to_owned(),
        ));
    }
    // Client references repeat across the demo's agencies: one only B has.
    let (status, answer) = send(
        &server,
        "POST",
        "/api/1.1/wf/update_client",
        &Auth::ApiKey(str_of(&creds, "partnerKey").to_owned()),
        Some(&json!({ "agency_id": b, "client_id": "CLI-EST-0001", "nom": "Syndic de l'Est", "email": "syndic@est.example" })),
    )
    .await;
    assert_eq!(status, 200, "client of B: {answer}");
    // A visit in progress whatever the day: the demo starts some of
    // today's first visits, and none on a weekend.
    let planned = one(
        &dir,
        "SELECT id FROM visits WHERE agency_id = ?1 AND status = 'planifiee' ORDER BY id DESC LIMIT 1",
        &[&a],
    );
    let (status, started) = send(
        &server,
        "POST",
        &format!("/api/v2/visits/{planned}/start"),
        &bearer_in(&admin_token, &a),
        None,
    )
    .await;
    assert_eq!(status, 201, "visit started: {started}");
    // A message of A: a done visit's report sent to its client's contact
    // through a receiver that refuses it (abandoned at once).
    let smtp = common::smtp::SmtpSink::start(&["--reject"]);
    let (status, settings) = send(
        &server,
        "PUT",
        "/app/api/mail-settings",
        &admin.auth(),
        Some(&json!({ "host": "127.0.0.1", "port": smtp.port, "security": "aucune" })),
    )
    .await;
    assert_eq!(status, 200, "mail settings: {settings}");
    let (done_visit, contact) = {
        let conn = open_db(&dir);
        conn.query_row(
            "SELECT v.id, c.id FROM visits v JOIN equipment e ON e.id = v.equipment_id
               JOIN contacts c ON c.client_id = e.client_id
              WHERE v.agency_id = ?1 AND v.status = 'faite' AND c.email IS NOT NULL
              ORDER BY v.id, c.id LIMIT 1",
            [&a],
            |r| Ok((r.get::<String>(0)?, r.get::<String>(1)?)),
        )
        .expect("a done visit of a client with a contact")
    };
    let (status, mail) = send(
        &server,
        "POST",
        &format!("/app/api/visits/{done_visit}/send-report"),
        &admin.auth(),
        Some(&json!({ "contactIds": [contact] })),
    )
    .await;
    assert_eq!(status, 201, "report sent: {mail}");
    assert_eq!(mail["status"], "abandonne", "{mail}");
    // An export of A's, held in memory for the admin.
    let (status, export) = send(
        &server,
        "POST",
        "/app/api/exports",
        &admin.auth(),
        Some(&json!({ "list": "clients", "format": "csv" })),
    )
    .await;
    assert_eq!(status, 202, "export: {export}");
    let mut ids = ids(
        &dir,
        &a,
        &b,
        &made,
        (done_visit, str_of(&mail, "id").to_owned(), contact),
    );
    ids.export = plain(str_of(&export, "id").to_owned(), &ghost_uuid(32));
    World {
        dir,
        a,
        b,
        admin_token,
        member_token: str_of(&creds["member"], "apiToken").to_owned(),
        revoked_token: str_of(&revoked, "token").to_owned(),
        operator_token,
        outsider,
        center_key: creds["callCenterKeys"][0].as_str().expect("key").to_owned(),
        second_center_key: creds["callCenterKeys"][1].as_str().expect("key").to_owned(),
        center_key_b: str_of(&center_key_b, "key").to_owned(),
        outsider_center_key: str_of(&outsider_center, "key").to_owned(),
        revoked_center_key: str_of(&revoked_center, "key").to_owned(),
        partner_key: str_of(&creds, "partnerKey").to_owned(),
        partner_key_a_only: str_of(&partner_a_only, "key").to_owned(),
        outsider_partner_key: str_of(&outsider_partner, "key").to_owned(),
        revoked_partner_key: str_of(&revoked_partner, "key").to_owned(),
        admin,
        admin_in_b,
        member,
        outsider_admin,
        signed_out,
        ids,
        server,
        _smtp: smtp,
    }
}

fn ids(
    dir: &Path,
    a: &str,
    b: &str,
    made: &[(String, String)],
    (done_visit, mail, report_contact): (String, String, String),
) -> Ids {
    let person = str_of(
        &cli_json(
            dir,
            &[
                "user",
                "create",
                "--email",
                "cible@ascenseurs-durand.fr",
                "--name",
                "Cible Personne",
                "--password",
                "motdepasse-solide",
                "--agency",
                a,
                "--technician",
            ],
        ),
        "id",
    )
    .to_owned();
    let person_technician: String = open_db(dir)
        .query_row(
            "SELECT id FROM technicians WHERE account_id = ?1",
            [&person],
            |r| r.get(0),
        )
        .expect("technicien de la cible");
    let pick = |sql: &str| one(dir, sql, &[a]);
    let survey = pick(
        "SELECT id FROM surveys WHERE agency_id = ?1 AND status = 'termine' ORDER BY id LIMIT 1",
    );
    let survey_equipment = one(
        dir,
        "SELECT equipment_id FROM surveys WHERE id = ?1",
        &[&survey],
    );
    let equipment = pick(
        "SELECT id FROM equipment WHERE agency_id = ?1 AND number IS NOT NULL AND client_id IS NOT NULL ORDER BY id LIMIT 1",
    );
    let number = one(
        dir,
        "SELECT number FROM equipment WHERE id = ?1",
        &[&equipment],
    );
    // A reference only one call has, opened by the demo's first center;
    // an open call first, so that the rightful control can act on it.
    let call = pick(
        "SELECT c.id FROM calls c JOIN credentials k ON k.id = c.credential_id
         WHERE c.agency_id = ?1 AND k.name = 'Astreinte Plus'
         AND (SELECT COUNT(*) FROM calls o WHERE o.reference = c.reference) = 1
         ORDER BY c.status <> 'ouverte', c.id LIMIT 1",
    );
    let reference = one(dir, "SELECT reference FROM calls WHERE id = ?1", &[&call]);
    // Client references repeat across agencies: one that only A has.
    let client_sql = "SELECT client_ref FROM clients c WHERE agency_id = ?1 AND supprime = 0
         AND NOT EXISTS (SELECT 1 FROM clients o WHERE o.client_ref = c.client_ref AND o.agency_id <> c.agency_id)
         ORDER BY client_ref LIMIT 1";
    let client = pick(client_sql);
    let building = pick("SELECT id FROM buildings WHERE agency_id = ?1 ORDER BY id LIMIT 1");
    // A contact of a client of A (the control run edits, then removes it).
    let contact = pick(
        "SELECT t.id FROM contacts t JOIN clients c ON c.id = t.client_id
         WHERE c.agency_id = ?1 AND c.supprime = 0 ORDER BY t.id LIMIT 1",
    );
    let technician = pick(
        "SELECT t.id FROM technicians t WHERE t.agency_id = ?1 AND t.active = 1
         AND EXISTS (SELECT 1 FROM technician_absences a WHERE a.technician_id = t.id) ORDER BY t.id LIMIT 1",
    );
    let absence = one(
        dir,
        "SELECT id FROM technician_absences WHERE technician_id = ?1 ORDER BY id LIMIT 1",
        &[&technician],
    );
    let b_number = one(
        dir,
        "SELECT number FROM equipment WHERE agency_id = ?1 AND number IS NOT NULL ORDER BY id LIMIT 1",
        &[b],
    );
    let key_of = |kind: &str, name: &str| {
        one(
            dir,
            "SELECT id FROM credentials WHERE kind = ?1 AND name = ?2 ORDER BY created_at LIMIT 1",
            &[kind, name],
        )
    };
    let member_token_id = one(
        dir,
        "SELECT k.id FROM credentials k JOIN accounts m ON m.id = k.account_id WHERE m.role = 'member' AND k.kind = 'api_token'",
        &[],
    );
    let client_secrets = texts(
        dir,
        "SELECT * FROM clients WHERE client_ref = ?1 AND agency_id = ?2",
        &[&client, a],
        &client,
    );
    let monday = {
        let today = chrono::Utc::now().date_naive();
        let days = chrono::Datelike::weekday(&today).num_days_from_monday();
        (today + chrono::Duration::days(i64::from(7 * 3) - i64::from(days)))
            .format("%Y-%m-%d")
            .to_string()
    };
    let status_pick = |table: &str, status: &str, n: u32| {
        one(
            dir,
            &format!(
                "SELECT id FROM {table} WHERE agency_id = ?1 AND status = ?2 ORDER BY id LIMIT 1 OFFSET {n}"
            ),
            &[a, status],
        )
    };
    let invoice_pick = |status: &str| {
        one(
            dir,
            "SELECT id FROM invoices WHERE agency_id = ?1 AND nature = 'facture' AND status = ?2 ORDER BY id LIMIT 1",
            &[a, status],
        )
    };
    Ids {
        done_visit: target(dir, "visits", done_visit, 29),
        mail: target(dir, "mails", mail, 30),
        report_contact: target(dir, "contacts", report_contact, 31),
        export: plain(String::new(), &ghost_uuid(32)),
        equipment: target(dir, "equipment", equipment, 1),
        equipment_number: Target {
            secrets: Vec::new(),
            real: number,
            ghost: "ZZ-FANTOME-1".to_owned(),
        },
        survey: target(dir, "surveys", survey, 2),
        open_survey: target(dir, "surveys", status_pick("surveys", "a_realiser", 0), 3),
        visit: target(dir, "visits", status_pick("visits", "planifiee", 0), 4),
        running_visit: target(dir, "visits", status_pick("visits", "en_cours", 0), 5),
        draft_quote: target(dir, "quotes", status_pick("quotes", "brouillon", 0), 6),
        sent_quote: target(dir, "quotes", status_pick("quotes", "envoye", 0), 7),
        other_sent_quote: target(dir, "quotes", status_pick("quotes", "envoye", 1), 8),
        accepted_quote: target(dir, "quotes", status_pick("quotes", "accepte", 0), 9),
        draft_invoice: target(dir, "invoices", invoice_pick("brouillon"), 10),
        issued_invoice: target(dir, "invoices", invoice_pick("emise"), 11),
        sent_invoice: target(dir, "invoices", invoice_pick("envoyee"), 12),
        call: target(dir, "calls", call, 13),
        call_reference: plain(reference, "CC-FANTOME"),
        client: Target {
            real: client,
            ghost: "CLI-FANTOME".to_owned(),
            secrets: client_secrets,
        },
        contact: target(dir, "contacts", contact, 27),
        building: target(dir, "buildings", building, 28),
        technician: target(dir, "technicians", technician, 14),
        absence: target(dir, "technician_absences", absence, 15),
        webhook: target(dir, "webhook_subscriptions", made[0].0.clone(), 16),
        import_file: target(dir, "import_files", made[0].1.clone(), 17),
        app_webhook: target(dir, "webhook_subscriptions", made[1].0.clone(), 21),
        app_import_file: target(dir, "import_files", made[1].1.clone(), 22),
        member_token_id: plain(member_token_id, &ghost_uuid(18)),
        center_key_id: plain(key_of("call_center_key", "Astreinte Plus"), &ghost_uuid(19)),
        partner_key_id: plain(key_of("partner_key", "GMAO de l'Ouest"), &ghost_uuid(20)),
        b_equipment_number: plain(b_number, "ZZ-FANTOME-1"),
        b_client: Target {
            real: "CLI-EST-0001".to_owned(),
            ghost: "CLI-FANTOME".to_owned(),
            secrets: texts(
                dir,
                "SELECT * FROM clients WHERE client_ref = 'CLI-EST-0001'",
                &[],
                "CLI-EST-0001",
            ),
        },
        survey_equipment: target(dir, "equipment", survey_equipment, 23),
        person: target(dir, "accounts", person, 24),
        agency_a: target(dir, "agencies", a.to_owned(), 25),
        person_technician: target(dir, "technicians", person_technician, 26),
        draft_contract_client: one(
            dir,
            "SELECT c.client_ref FROM contracts k JOIN clients c ON c.id = k.client_id WHERE k.id = ?1",
            &[&status_pick("contracts", "brouillon", 0)],
        ),
        draft_contract_lift: one(
            dir,
            "SELECT equipment_id FROM contract_equipment WHERE contract_id = ?1",
            &[&status_pick("contracts", "brouillon", 0)],
        ),
        draft_contract: target(
            dir,
            "contracts",
            status_pick("contracts", "brouillon", 0),
            33,
        ),
        other_draft_contract: target(
            dir,
            "contracts",
            status_pick("contracts", "brouillon", 1),
            34,
        ),
        app_draft_contract: target(
            dir,
            "contracts",
            status_pick("contracts", "brouillon", 2),
            36,
        ),
        active_contract: target(dir, "contracts", status_pick("contracts", "actif", 0), 35),
        monday,
    }
}

// -- Requests -------------------------------------------------------------------

/// Adds the credential; a session sends its CSRF token on changes only, as
/// the UI does.
fn authorize(
    mut request: reqwest::RequestBuilder,
    auth: &Auth,
    changes: bool,
) -> reqwest::RequestBuilder {
    match auth {
        Auth::None => {}
        Auth::Bearer(token, agency) => {
            request = request.bearer_auth(token);
            if let Some(agency) = agency {
                request = request.header("X-Service-Agency", agency);
            }
        }
        Auth::ApiKey(key) => request = request.header("x-api-key", key),
        Auth::Session { cookie, csrf } => {
            request = request.header("Cookie", format!("liftdesk_session={cookie}"));
            if let Some(csrf) = csrf
                && changes
            {
                request = request.header("X-CSRF-Token", csrf);
            }
        }
    }
    request
}

async fn send(
    server: &TestServer,
    method: &str,
    path: &str,
    auth: &Auth,
    body: Option<&Value>,
) -> (u16, Value) {
    let method_value = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
    let request = server.client.request(method_value, server.url(path));
    let mut request = authorize(request, auth, method != "GET");
    if let Some(body) = body {
        request = request.json(body);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let bytes = response.bytes().await.expect("body");
    let body = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, body)
}

/// One MCP JSON-RPC request (the server is stateless: no initialize needed).
async fn mcp_rpc(server: &TestServer, auth: &Auth, method: &str, params: Value) -> (u16, Value) {
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    let request = server
        .client
        .post(server.url("/api/mcp"))
        .header("Accept", "application/json, text/event-stream")
        .json(&body);
    let request = authorize(request, auth, false);
    let response = request.send().await.expect("mcp request");
    let status = response.status().as_u16();
    let text = response.text().await.expect("mcp body");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// A tool call or resource read as a REST-like answer: the HTTP refusal
/// when the transport refused; else the tool's status (its error's
/// `status`, 200 for a result) and its JSON; a JSON-RPC error as its
/// message (resource not found: 404).
async fn mcp_send(
    server: &TestServer,
    method: &str,
    target: &str,
    auth: &Auth,
    arguments: Option<&Value>,
) -> (u16, Value) {
    let params = match method {
        "TOOL" => json!({ "name": target, "arguments": arguments.cloned().unwrap_or(json!({})) }),
        "RESOURCE" => json!({ "uri": target }),
        _ => arguments.cloned().unwrap_or(json!({})),
    };
    let rpc = match method {
        "TOOL" => "tools/call",
        "RESOURCE" => "resources/read",
        other => other,
    };
    let (status, answer) = mcp_rpc(server, auth, rpc, params).await;
    if status != 200 {
        return (status, answer);
    }
    if let Some(error) = answer.get("error") {
        let code = error["code"].as_i64().unwrap_or_default();
        let status = if code == -32002 { 404 } else { 500 };
        return (status, json!({ "error": error["message"] }));
    }
    let result = &answer["result"];
    if method != "TOOL" {
        return (200, result.clone());
    }
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    let value: Value = serde_json::from_str(text).unwrap_or(Value::String(text.to_owned()));
    if result["isError"] == json!(true) {
        let status = value["status"].as_u64().unwrap_or(500) as u16;
        // The tool error's body without its status: `{"error"}` as REST.
        (status, json!({ "error": value["error"] }))
    } else {
        (200, value)
    }
}

// -- The matrix -----------------------------------------------------------------

/// What another organization or agency gets on an operation.
#[derive(Clone, Debug)]
enum Scope {
    /// Names objects of the attacked agency: refused exactly as a ghost id.
    Object(Vec<Target>, u16),
    /// Reads the caller's own scope: 200 and nothing of A.
    List,
    /// Acts in the caller's own scope (or the installation) without naming
    /// an object of A: legitimate there, not tried by them.
    Own,
}

#[derive(Clone, Debug)]
struct Op {
    family: Family,
    /// The operation as listed by its family (`GET /quotes/{id}`, a tool name…).
    key: String,
    method: &'static str,
    path: String,
    body: Option<Value>,
    scope: Scope,
    /// The 403 message a member gets when an administrator is needed.
    admin: Option<String>,
    /// Exact answers for some callers, overriding the rules.
    exact: Vec<(Who, u16, Value)>,
    /// The rightful caller's control run: false when it cannot run here.
    control: bool,
    /// Needs no credential by design: only the callers of `exact` are tried.
    public: bool,
    /// Acts on the organization's people: the organization administrator
    /// acting in B manages them too, so another agency is not a wrong caller.
    organization_wide: bool,
}

impl Op {
    fn new(family: Family, key: &str, path: String) -> Op {
        let method = match key.split_whitespace().next() {
            Some("GET") => "GET",
            Some("POST") => "POST",
            Some("PUT") => "PUT",
            Some("PATCH") => "PATCH",
            Some("DELETE") => "DELETE",
            _ => "TOOL",
        };
        Op {
            family,
            key: key.to_owned(),
            method,
            path,
            body: None,
            scope: Scope::Own,
            admin: None,
            exact: Vec::new(),
            control: true,
            public: false,
            organization_wide: false,
        }
    }

    fn body(mut self, body: Value) -> Op {
        self.body = Some(body);
        self
    }

    fn on(mut self, targets: &[&Target]) -> Op {
        self.scope = Scope::Object(targets.iter().map(|t| (*t).clone()).collect(), 404);
        self
    }

    /// Names objects of A in its body, refused with `status` (as a ghost).
    fn naming(mut self, targets: &[&Target], status: u16) -> Op {
        self.scope = Scope::Object(targets.iter().map(|t| (*t).clone()).collect(), status);
        self
    }

    fn list(mut self) -> Op {
        self.scope = Scope::List;
        self
    }

    fn admin(mut self, message: &str) -> Op {
        self.admin = Some(message.to_owned());
        self
    }

    /// An operation on the installation itself: the member gets the
    /// administrators' 403, another organization's administrator the
    /// installation's (`what` is the message's subject).
    fn installation(self, what: &str) -> Op {
        self.admin(&format!("{what} est réservé à un administrateur de l'agence."))
            .exact(
                Who::OtherOrganization,
                403,
                json!({ "error": format!("{what} est réservé à un administrateur de l'organisation qui a installé Liftdesk.") }),
            )
    }

    fn exact(mut self, who: Who, status: u16, body: Value) -> Op {
        self.exact.push((who, status, body));
        self
    }

    fn organization_wide(mut self) -> Op {
        self.organization_wide = true;
        self
    }

    fn public(mut self) -> Op {
        self.public = true;
        self
    }

    fn no_control(mut self) -> Op {
        self.control = false;
        self
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Who {
    NoCredential,
    Unknown,
    Revoked,
    CallCenterKey,
    ApiToken,
    PartnerKey,
    SessionCookie,
    NoCsrf,
    OtherOrganization,
    OtherAgency,
    MemberAskingB,
    Member,
    KeyNotAttributed,
    OtherCenter,
    Operator,
}

fn v2_ops(w: &World) -> Vec<Op> {
    let i = &w.ids;
    let v2 = |key: &str, path: String| Op::new(Family::V2, key, format!("/api/v2{path}"));
    let eq = &i.equipment.real;
    let row = json!([{ "label": "Galets de porte", "quantity": 2, "unitPrice": 45.5 }]);
    vec![
        v2("GET /me", "/me".into()).list(),
        v2("GET /agencies", "/agencies".into()).list(),
        v2("GET /users", "/users".into()).list(),
        v2("GET /technicians", "/technicians".into()).list(),
        v2("GET /planning", "/planning".into()).list(),
        v2("GET /calls", "/calls?limit=200".into()).list(),
        // List filters naming an object of A.
        v2("GET /calls", format!("/calls?equipment={eq}")).naming(&[&i.equipment], 200),
        v2("GET /quotes", format!("/quotes?equipment={eq}")).naming(&[&i.equipment], 200),
        v2("GET /invoices", format!("/invoices?client={}", i.client.real)).naming(&[&i.client], 200),
        v2("GET /clients", "/clients?limit=200".into()).list(),
        v2("GET /equipment", "/equipment?limit=200".into()).list(),
        v2("GET /surveys", "/surveys?limit=200".into()).list(),
        v2("GET /invoices", "/invoices?limit=200".into()).list(),
        v2("GET /quotes", "/quotes?limit=200".into()).list(),
        v2("GET /webhooks", "/webhooks".into()).list(),
        v2("GET /webhooks/status", "/webhooks/status".into()).list(),
        v2("GET /contacts/creation", "/contacts/creation".into()).list(),
        v2("GET /external/equipment", "/external/equipment".into()).list(),
        // The agency named in the query: A by its id, B by its V1 identifier.
        v2("GET /external/equipment", format!("/external/equipment?agency={}", w.a))
            .exact(Who::OtherOrganization, 403, json!({ "error": SCOPE_403 })),
        v2("GET /external/equipment", "/external/equipment?agency=V1-PE-0042".into())
            .exact(Who::OtherOrganization, 403, json!({ "error": SCOPE_403 }))
            .exact(Who::Member, 403, json!({ "error": SCOPE_403 })),
        v2(
            "GET /external/equipment/data",
            format!("/external/equipment/data?agency={}&number={}", w.a, i.equipment_number.real),
        )
        .exact(Who::OtherOrganization, 403, json!({ "error": SCOPE_403 })),
        v2(
            "GET /external/equipment/data",
            format!("/external/equipment/data?number={}", i.equipment_number.real),
        )
        .on(&[&i.equipment_number]),
        v2(
            "GET /technical-fields",
            format!("/technical-fields?equipment={eq}&q=charge"),
        )
        .on(&[&i.equipment]),
        v2("GET /calls/{id}", format!("/calls/{}", i.call.real)).on(&[&i.call]),
        v2("POST /calls/{id}/assign", format!("/calls/{}/assign", i.call.real))
            .body(json!({ "technicianId": i.technician.real }))
            .on(&[&i.call]),
        v2("POST /calls/{id}/status", format!("/calls/{}/status", i.call.real))
            .body(json!({ "statut": "en_route" }))
            .on(&[&i.call]),
        v2(
            "POST /contacts",
            "/contacts".into(),
        )
        .body(json!({ "parentId": i.client.real, "champs": { "nom": "Jean Intrus" } }))
        .naming(&[&i.client], 422),
        v2("POST /discrepancies", "/discrepancies".into())
            .body(json!({ "equipmentId": i.survey_equipment.real, "surveyId": i.survey.real, "finding": "Constat d'essai sur la porte." }))
            .naming(&[&i.survey_equipment, &i.survey], 422),
        v2("PATCH /equipment/{id}", format!("/equipment/{eq}"))
            .body(json!({ "marque": "Piratée" }))
            .on(&[&i.equipment]),
        v2("PATCH /equipment/{id}/identity", format!("/equipment/{eq}/identity"))
            .body(json!({ "location": "Piratée" }))
            .on(&[&i.equipment]),
        v2("POST /imports/files", "/imports/files".into())
            .body(json!({ "name": "x.csv", "content": base64::engine::general_purpose::STANDARD.encode("Nom\nX\n") })),
        v2("GET /imports/{fileId}", format!("/imports/{}", i.import_file.real)).on(&[&i.import_file]),
        v2(
            "POST /imports/{fileId}/check",
            format!("/imports/{}/check", i.import_file.real),
        )
        .body(json!({ "target": "clients" }))
        .on(&[&i.import_file]),
        v2(
            "POST /imports/{fileId}/import",
            format!("/imports/{}/import", i.import_file.real),
        )
        .body(json!({ "target": "clients" }))
        .on(&[&i.import_file])
        .admin("Importer un fichier est réservé à un administrateur de l'agence."),
        v2("POST /invoices", "/invoices".into())
            .body(json!({ "clientId": i.client.real, "lines": [{ "label": "Dépannage", "quantity": 1, "unitPrice": 80 }] }))
            .naming(&[&i.client], 422),
        v2("GET /invoices/{id}", format!("/invoices/{}", i.draft_invoice.real)).on(&[&i.draft_invoice]),
        v2("PATCH /invoices/{id}", format!("/invoices/{}", i.draft_invoice.real))
            .body(json!({ "lines": [{ "label": "Pirate", "quantity": 1, "unitPrice": 1 }] }))
            .on(&[&i.draft_invoice]),
        v2("GET /invoices/{id}/pdf", format!("/invoices/{}/pdf", i.issued_invoice.real)).on(&[&i.issued_invoice]),
        v2("GET /invoices/{id}/facturx.xml", format!("/invoices/{}/facturx.xml", i.issued_invoice.real)).on(&[&i.issued_invoice]),
        v2("POST /invoices/{id}/issue", format!("/invoices/{}/issue", i.draft_invoice.real)).on(&[&i.draft_invoice]),
        v2("POST /invoices/{id}/send", format!("/invoices/{}/send", i.issued_invoice.real)).on(&[&i.issued_invoice]),
        v2("GET /invoices/{id}/mails", format!("/invoices/{}/mails", i.issued_invoice.real))
            .on(&[&i.issued_invoice]),
        v2("POST /invoices/{id}/payment", format!("/invoices/{}/payment", i.sent_invoice.real))
            .body(json!({}))
            .on(&[&i.sent_invoice]),
        v2(
            "POST /invoices/{id}/credit-notes",
            format!("/invoices/{}/credit-notes", i.sent_invoice.real),
        )
        .body(json!({}))
        .on(&[&i.sent_invoice])
        .admin("Seul un administrateur peut établir un avoir."),
        v2("POST /quotes", "/quotes".into())
            .body(json!({ "equipmentId": eq, "origin": "client", "object": "Essai", "rows": row }))
            .naming(&[&i.equipment], 422),
        v2("GET /quotes/{id}", format!("/quotes/{}", i.draft_quote.real)).on(&[&i.draft_quote]),
        v2("GET /quotes/{id}/pdf", format!("/quotes/{}/pdf", i.draft_quote.real)).on(&[&i.draft_quote]),
        v2("POST /quotes/{id}/send", format!("/quotes/{}/send", i.draft_quote.real)).on(&[&i.draft_quote]),
        v2("GET /quotes/{id}/mails", format!("/quotes/{}/mails", i.draft_quote.real)).on(&[&i.draft_quote]),
        v2("POST /quotes/{id}/accept", format!("/quotes/{}/accept", i.sent_quote.real)).on(&[&i.sent_quote]),
        v2("POST /quotes/{id}/refuse", format!("/quotes/{}/refuse", i.other_sent_quote.real))
            .on(&[&i.other_sent_quote]),
        v2("POST /quotes/{id}/renew", format!("/quotes/{}/renew", i.draft_quote.real)).on(&[&i.draft_quote]),
        v2("POST /quotes/{id}/invoice", format!("/quotes/{}/invoice", i.accepted_quote.real))
            .body(json!({}))
            .on(&[&i.accepted_quote]),
        // Maintenance contracts and price indexes.
        v2("GET /contracts", "/contracts?limit=200".into()).list(),
        v2("GET /contracts", format!("/contracts?equipmentId={eq}")).naming(&[&i.equipment], 200),
        v2("POST /contracts", "/contracts".into())
            .body(json!({ "clientId": i.client.real, "liftIds": [eq], "type": "normal", "startOn": "2027-01-01", "annualPrice": 900 }))
            .naming(&[&i.client], 422),
        v2("GET /contracts/{id}", format!("/contracts/{}", i.draft_contract.real)).on(&[&i.draft_contract]),
        v2("GET /contracts/{id}/pdf", format!("/contracts/{}/pdf", i.active_contract.real)).on(&[&i.active_contract]),
        v2(
            "GET /contracts/{id}/annual-report",
            format!("/contracts/{}/annual-report?year=2026", i.active_contract.real),
        )
        .on(&[&i.active_contract]),
        v2(
            "GET /contracts/{id}/response-times",
            format!("/contracts/{}/response-times?from=2026-01-01&to=2026-12-31", i.active_contract.real),
        )
        .on(&[&i.active_contract]),
        v2("PUT /contracts/{id}", format!("/contracts/{}", i.draft_contract.real))
            .body(json!({ "clientId": i.draft_contract_client, "liftIds": [i.draft_contract_lift], "type": "complet", "startOn": "2027-01-01", "annualPrice": 3200 }))
            .on(&[&i.draft_contract]),
        v2("POST /contracts/{id}/activate", format!("/contracts/{}/activate", i.draft_contract.real))
            .on(&[&i.draft_contract]),
        v2("DELETE /contracts/{id}", format!("/contracts/{}", i.other_draft_contract.real))
            .on(&[&i.other_draft_contract]),
        v2("POST /contracts/{id}/terminate", format!("/contracts/{}/terminate", i.active_contract.real))
            .body(json!({ "reason": "Vente de l'immeuble" }))
            .on(&[&i.active_contract]),
        v2("POST /contracts/{id}/expire", format!("/contracts/{}/expire", i.active_contract.real))
            .on(&[&i.active_contract]),
        v2("GET /contract-billing/preview", "/contract-billing/preview?from=2026-10-01&to=2026-12-31&limit=200".into()).list(),
        v2("POST /contract-billing/drafts", "/contract-billing/drafts".into())
            .body(json!({ "from": "2026-10-01", "to": "2026-12-31" })),
        v2("POST /contract-billing/issue", "/contract-billing/issue".into())
            .body(json!({ "from": "2026-10-01", "to": "2026-12-31", "limit": 5 })),
        v2("GET /price-indexes", "/price-indexes".into()).list(),
        v2("POST /price-indexes", "/price-indexes".into())
            .body(json!({ "index": "BT48", "month": "2015-01", "value": 103.2 })),
        v2("GET /surveys/{id}", format!("/surveys/{}", i.survey.real)).on(&[&i.survey]),
        v2("GET /surveys/{id}/data", format!("/surveys/{}/data", i.survey.real)).on(&[&i.survey]),
        v2("POST /surveys/{id}/submit", format!("/surveys/{}/submit", i.open_survey.real))
            .body(json!({ "values": { "marque": "Piratée" } }))
            .on(&[&i.open_survey])
            .admin("Soumettre un relevé est réservé aux comptes qui réalisent des relevés et aux administrateurs : ce compte ne réalise pas de relevés.")
            .exact(
                Who::Operator,
                403,
                json!({ "error": "Le compte de service de l'opérateur consulte les agences mais n'y soumet pas de relevé." }),
            ),
        v2("GET /visits/{id}", format!("/visits/{}", i.visit.real)).on(&[&i.visit]),
        // Buildings, technicians' records, people, identity, agencies: as
        // the web application's operations of the same names.
        v2("GET /buildings", "/buildings?q=".into()).list(),
        v2("POST /buildings", "/buildings".into())
            .body(json!({ "address": "2 rue de la Matrice", "postalCode": "75001", "city": "Paris" })),
        v2("GET /buildings/{id}", format!("/buildings/{}", i.building.real)).on(&[&i.building]),
        v2("PUT /buildings/{id}/access", format!("/buildings/{}/access", i.building.real))
            .body(json!({ "instructions": ["Digicode"], "digicode": "0000B" }))
            .on(&[&i.building]),
        v2("GET /technicians/records", "/technicians/records".into()).list(),
        v2("POST /technicians", "/technicians".into())
            .body(json!({ "name": "Technicien d'essai v2" }))
            .admin("Ajouter un technicien est réservé à un administrateur de l'agence."),
        v2("GET /technicians/{id}", format!("/technicians/{}", i.person_technician.real))
            .on(&[&i.person_technician]),
        v2("PATCH /technicians/{id}", format!("/technicians/{}", i.person_technician.real))
            .body(json!({ "phone": "06 00 00 00 01" }))
            .on(&[&i.person_technician])
            .admin("Modifier un technicien est réservé à un administrateur de l'agence."),
        v2("POST /technicians/{id}/deactivate", format!("/technicians/{}/deactivate", i.person_technician.real))
            .on(&[&i.person_technician])
            .admin("Désactiver un technicien est réservé à un administrateur de l'agence."),
        v2("POST /technicians/{id}/reactivate", format!("/technicians/{}/reactivate", i.person_technician.real))
            .on(&[&i.person_technician])
            .admin("Réactiver un technicien est réservé à un administrateur de l'agence."),
        v2("GET /people", "/people".into())
            .list()
            .organization_wide()
            .admin("Consulter les comptes du personnel est réservé à un administrateur de l'agence."),
        v2("POST /people", "/people".into())
            .body(json!({ "name": "Recrue v2", "email": "recrue-v2@ascenseurs-durand.fr", "role": "member", "agencyIds": [i.agency_a.real] }))
            .naming(&[&i.agency_a], 404)
            .organization_wide()
            .admin("Créer un compte est réservé à un administrateur de l'agence."),
        v2("PATCH /people/{id}", format!("/people/{}", i.person.real))
            .body(json!({ "position": "Piratée" }))
            .on(&[&i.person])
            .organization_wide()
            .admin("Modifier un compte est réservé à un administrateur de l'agence."),
        v2("POST /people/{id}/deactivate", format!("/people/{}/deactivate", i.person.real))
            .on(&[&i.person])
            .organization_wide()
            .admin("Désactiver un compte est réservé à un administrateur de l'agence."),
        v2("POST /people/{id}/reactivate", format!("/people/{}/reactivate", i.person.real))
            .on(&[&i.person])
            .organization_wide()
            .admin("Réactiver un compte est réservé à un administrateur de l'agence."),
        v2("POST /people/{id}/password-reset", format!("/people/{}/password-reset", i.person.real))
            .on(&[&i.person])
            .organization_wide()
            .admin("Réinitialiser un mot de passe est réservé à un administrateur de l'agence."),
        v2("GET /agency/identity", "/agency/identity".into()).list(),
        v2("PUT /agency/identity", "/agency/identity".into())
            .body(json!({ "siret": "73282932000074", "address": "1 rue d'Essai, 75001 Paris" }))
            .admin("Modifier l'identité de l'agence est réservé à un administrateur de l'agence."),
        v2("GET /agencies/managed", "/agencies/managed".into())
            .list()
            .organization_wide()
            .admin("Consulter les agences est réservé à un administrateur de l'agence."),
        v2("POST /agencies", "/agencies".into())
            .body(json!({ "name": "Agence d'essai v2" }))
            .admin("Créer une agence est réservé à un administrateur de l'organisation."),
        v2("PATCH /agencies/{id}", format!("/agencies/{}", i.agency_a.real))
            .body(json!({ "name": "Paris Ouest" }))
            .on(&[&i.agency_a])
            .organization_wide()
            .admin("Renommer l'agence est réservé à un administrateur de l'agence."),
        v2("POST /agencies/{id}/archive", format!("/agencies/{}/archive", i.agency_a.real))
            .on(&[&i.agency_a])
            .organization_wide()
            .no_control()
            .admin("Archiver ou réactiver une agence est réservé à un administrateur de l'organisation."),
        v2("POST /agencies/{id}/restore", format!("/agencies/{}/restore", i.agency_a.real))
            .on(&[&i.agency_a])
            .organization_wide()
            .admin("Archiver ou réactiver une agence est réservé à un administrateur de l'organisation."),
        v2("GET /visits/{id}/report", format!("/visits/{}/report", i.done_visit.real)).on(&[&i.done_visit]),
        v2("GET /visits/{id}/mails", format!("/visits/{}/mails", i.done_visit.real)).on(&[&i.done_visit]),
        v2("POST /visits/{id}/send-report", format!("/visits/{}/send-report", i.done_visit.real))
            .body(json!({ "contactIds": [i.report_contact.real] }))
            .on(&[&i.done_visit, &i.report_contact]),
        v2("POST /visits/{id}/start", format!("/visits/{}/start", i.visit.real))
            .body(json!({}))
            .on(&[&i.visit]),
        v2("POST /visits/{id}/reschedule", format!("/visits/{}/reschedule", i.visit.real))
            .body(json!({ "plannedFor": i.monday }))
            .on(&[&i.visit]),
        v2("POST /visits/{id}/complete", format!("/visits/{}/complete", i.running_visit.real))
            .body(json!({ "signedBy": "M. Intrus" }))
            .on(&[&i.running_visit]),
        v2(
            "POST /visits/{id}/cancel-start",
            format!("/visits/{}/cancel-start", i.running_visit.real),
        )
        .on(&[&i.running_visit]),
        v2("POST /webhooks", "/webhooks".into())
            .body(json!({ "url": "https://127.0.0.1:9/intrus", "events": ["appel.clos"] }))
            .admin("Créer un abonnement webhook est réservé à un administrateur de l'agence."),
        v2(
            "GET /webhooks/{id}/deliveries",
            format!("/webhooks/{}/deliveries", i.webhook.real),
        )
        .on(&[&i.webhook]),
        v2("POST /webhooks/{id}/test", format!("/webhooks/{}/test", i.webhook.real))
            .on(&[&i.webhook])
            .admin("Envoyer un test est réservé à un administrateur de l'agence."),
        // Last: the control revokes the subscription.
        v2("POST /webhooks/{id}/revoke", format!("/webhooks/{}/revoke", i.webhook.real))
            .on(&[&i.webhook])
            .admin("Révoquer un abonnement webhook est réservé à un administrateur de l'agence."),
    ]
}

fn app_ops(w: &World) -> Vec<Op> {
    let i = &w.ids;
    let app = |key: &str, path: String| Op::new(Family::App, key, format!("/app/api{path}"));
    let eq = &i.equipment.real;
    let tech = &i.technician.real;
    let row = json!([{ "label": "Galets de porte", "quantity": 2, "unitPrice": 45.5 }]);
    let rota = "Modifier les astreintes et les absences des techniciens est réservé à un administrateur de l'agence.";
    let identity = "Modifier l'identité de l'agence est réservé à un administrateur de l'agence.";
    let installed = json!({ "error": "Liftdesk est déjà installé : une organisation existe. Connectez-vous avec votre compte." });
    vec![
        // Public by design: the sign-in and the first-run setup.
        app("POST /session", "/session".into())
            .body(json!({ "email": "claire.durand@ascenseurs-durand.fr", "password": "mauvais-mot-de-passe" }))
            .exact(Who::NoCredential, 401, json!({ "error": "Adresse e-mail ou mot de passe incorrect." }))
            .public()
            .no_control(),
        app("GET /setup", "/setup".into())
            .exact(Who::NoCredential, 200, json!({ "needed": false, "desktop": false }))
            .public(),
        app("POST /setup", "/setup".into())
            .body(json!({ "organization": "Intrus", "agency": "Intrus", "email": "intrus@example.fr", "password": "motdepasse-solide" }))
            .exact(Who::NoCredential, 409, installed.clone())
            .public()
            .no_control(),
        app("POST /setup/demo", "/setup/demo".into())
            .exact(Who::NoCredential, 409, installed)
            .public()
            .no_control(),
        app("POST /setup/agency-server", "/setup/agency-server".into())
            .body(json!({ "url": "https://liftdesk.intrus.example" }))
            .exact(Who::NoCredential, 409, json!({ "error": "Liftdesk est déjà installé sur cet ordinateur : un administrateur choisit le serveur de l'agence dans les paramètres." }))
            .public()
            .no_control(),
        app("GET /session", "/session".into()).list(),
        app("PUT /session/agency", "/session/agency".into())
            .body(json!({ "agencyId": w.a }))
            .exact(Who::OtherOrganization, 403, json!({ "error": SWITCH_403 })),
        // The member (agency A only) asking to act in B.
        app("PUT /session/agency", "/session/agency".into())
            .body(json!({ "agencyId": w.b }))
            .exact(Who::OtherOrganization, 403, json!({ "error": SWITCH_403 }))
            .exact(Who::Member, 403, json!({ "error": SWITCH_403 }))
            .no_control(),
        app("DELETE /session", "/session".into()).no_control(),
        app("POST /account/password", "/account/password".into())
            .body(json!({ "currentPassword": "faux", "newPassword": "nouveau-secret-2026" }))
            .no_control(),
        app("GET /dashboard", "/dashboard".into()).list(),
        // Calls.
        app("GET /calls", "/calls?statut=ouverte&limit=50".into()).list(),
        app("GET /calls/board", "/calls/board".into()).list(),
        app("GET /calls/events", "/calls/events".into()).no_control(),
        app("GET /calls/equipment", format!("/calls/equipment?q={}", i.equipment_number.real)).list(),
        app("POST /calls", "/calls".into())
            .body(json!({ "equipement": i.equipment_number.real, "type": "panne", "description": "Appel d'essai" }))
            .naming(&[&i.equipment_number], 422),
        app("GET /calls/{id}", format!("/calls/{}", i.call.real)).on(&[&i.call]),
        app("POST /calls/{id}/assign", format!("/calls/{}/assign", i.call.real))
            .body(json!({ "technicianId": tech }))
            .on(&[&i.call]),
        app("POST /calls/{id}/status", format!("/calls/{}/status", i.call.real))
            .body(json!({ "statut": "en_route" }))
            .on(&[&i.call]),
        app("POST /calls/{id}/acknowledge", format!("/calls/{}/acknowledge", i.call.real))
            .on(&[&i.call]),
        app("GET /calls/alerts", "/calls/alerts".into()).list(),
        app("GET /calls/notices", "/calls/notices?after=0".into()).list(),
        // Equipment.
        app("GET /equipment", "/equipment?limit=200".into()).list(),
        app("GET /equipment/clients", "/equipment/clients?q=Syndic".into()).list(),
        app("GET /equipment/{id}", format!("/equipment/{eq}")).on(&[&i.equipment]),
        app("PATCH /equipment/{id}/identity", format!("/equipment/{eq}/identity"))
            .body(json!({ "location": "Piratée" }))
            .on(&[&i.equipment]),
        app("PATCH /equipment/{id}/technical", format!("/equipment/{eq}/technical"))
            .body(json!({ "marque": "Piratée" }))
            .on(&[&i.equipment]),
        app("POST /equipment/{id}/repair-quote", format!("/equipment/{eq}/repair-quote"))
            .on(&[&i.equipment]),
        app("GET /equipment/{id}/logbook", format!("/equipment/{eq}/logbook")).on(&[&i.equipment]),
        // The journal: the whole of it an administrator's; one record's
        // history (object type and id) every staff member's.
        app("GET /journal", "/journal?limit=200".into())
            .list()
            .admin("Consulter le journal de l'agence est réservé à un administrateur de l'agence."),
        // The technical-data catalogue: the same for every agency, naming none.
        app("GET /technical-fields", "/technical-fields".into()).list(),
        // The header search: the caller's own agency only.
        app("GET /search", "/search?q=as".into()).list(),
        // Buildings and new equipment.
        app("GET /buildings", "/buildings?q=".into()).list(),
        app("POST /buildings", "/buildings".into())
            .body(json!({ "address": "1 rue de la Matrice", "postalCode": "75001", "city": "Paris" })),
        app("GET /buildings/{id}", format!("/buildings/{}", i.building.real)).on(&[&i.building]),
        app("PUT /buildings/{id}/access", format!("/buildings/{}/access", i.building.real))
            .body(json!({ "instructions": ["Digicode"], "digicode": "0000A" }))
            .on(&[&i.building]),
        app("POST /equipment", "/equipment".into())
            .body(json!({ "number": "MATRICE-001", "type": "ascenseur" })),
        app("POST /equipment/{id}/client", format!("/equipment/{eq}/client"))
            .body(json!({ "clientId": i.client.real }))
            .on(&[&i.equipment]),
        // Not run by the rightful caller: the equipment the other operations
        // act on would leave the park.
        app("POST /equipment/{id}/archive", format!("/equipment/{eq}/archive"))
            .on(&[&i.equipment])
            .no_control()
            .admin("Archiver un équipement est réservé à un administrateur de l'agence."),
        app("POST /equipment/{id}/restore", format!("/equipment/{eq}/restore"))
            .on(&[&i.equipment])
            .admin("Remettre un équipement dans le parc est réservé à un administrateur de l'agence."),
        // Clients and contacts.
        app("GET /clients", "/clients?limit=200".into()).list(),
        app("GET /clients/{id}", format!("/clients/{}", i.client.real)).on(&[&i.client]),
        // Created by hand in the caller's own agency.
        app("POST /clients", "/clients".into()).body(json!({ "name": "Client d'essai de la matrice" })),
        app("PATCH /clients/{id}", format!("/clients/{}", i.client.real))
            .body(json!({ "phone": "01 40 00 00 00" }))
            .on(&[&i.client]),
        app("POST /clients/{id}/archive", format!("/clients/{}/archive", i.client.real))
            .on(&[&i.client])
            .admin("Archiver un client est réservé à un administrateur de l'agence."),
        app("POST /clients/{id}/restore", format!("/clients/{}/restore", i.client.real))
            .on(&[&i.client])
            .admin("Restaurer un client est réservé à un administrateur de l'agence."),
        app("GET /contacts/creation", "/contacts/creation".into()).list(),
        app("POST /contacts", "/contacts".into())
            .body(json!({ "parentId": i.client.real, "champs": { "nom": "Jean Intrus" } }))
            .naming(&[&i.client], 422),
        app("PATCH /contacts/{id}", format!("/contacts/{}", i.contact.real))
            .body(json!({ "role": "Fonction piratée" }))
            .on(&[&i.contact]),
        app("DELETE /contacts/{id}", format!("/contacts/{}", i.contact.real)).on(&[&i.contact]),
        // Surveys.
        app("GET /surveys", "/surveys?limit=200".into()).list(),
        app("GET /surveys/{id}", format!("/surveys/{}", i.survey.real)).on(&[&i.survey]),
        app("GET /surveys/{id}/data", format!("/surveys/{}/data", i.survey.real)).on(&[&i.survey]),
        app(
            "GET /surveys/{id}/discrepancies",
            format!("/surveys/{}/discrepancies", i.survey.real),
        )
        .on(&[&i.survey]),
        app("POST /surveys/{id}/submit", format!("/surveys/{}/submit", i.open_survey.real))
            .body(json!({ "values": { "marque": "Piratée" } }))
            .on(&[&i.open_survey])
            .admin("Soumettre un relevé est réservé aux comptes qui réalisent des relevés et aux administrateurs : ce compte ne réalise pas de relevés."),
        app("POST /discrepancies", "/discrepancies".into())
            .body(json!({ "equipmentId": i.survey_equipment.real, "surveyId": i.survey.real, "finding": "Constat d'essai sur la porte." }))
            .naming(&[&i.survey_equipment, &i.survey], 422),
        // Planning and visits.
        app("GET /planning", "/planning".into()).list(),
        app("GET /planning/proposal", "/planning/proposal".into()).list(),
        app("GET /visits/late", "/visits/late?days=90".into()).list(),
        app("POST /planning/proposal", "/planning/proposal".into())
            .body(json!({ "visits": [{ "equipmentId": eq, "technicianId": tech, "day": i.monday }] }))
            .naming(&[&i.equipment, &i.technician], 422),
        app("GET /planning/equipment", "/planning/equipment?limit=200".into()).list(),
        app("GET /planning/equipment/{id}", format!("/planning/equipment/{eq}")).on(&[&i.equipment]),
        app(
            "PUT /planning/equipment/{id}/interval",
            format!("/planning/equipment/{eq}/interval"),
        )
        .body(json!({ "days": 90 }))
        .on(&[&i.equipment])
        .admin("Modifier l'intervalle d'entretien d'un équipement est réservé à un administrateur de l'agence."),
        app("POST /visits", "/visits".into())
            .body(json!({ "equipmentId": eq, "plannedFor": i.monday }))
            .naming(&[&i.equipment], 422),
        app("GET /visits/{id}", format!("/visits/{}", i.visit.real)).on(&[&i.visit]),
        app("POST /visits/{id}/move", format!("/visits/{}/move", i.visit.real))
            .body(json!({ "plannedFor": i.monday }))
            .on(&[&i.visit]),
        app("POST /visits/{id}/start", format!("/visits/{}/start", i.visit.real))
            .body(json!({}))
            .on(&[&i.visit]),
        app("POST /visits/{id}/complete", format!("/visits/{}/complete", i.running_visit.real))
            .body(json!({ "signedBy": "M. Intrus" }))
            .on(&[&i.running_visit]),
        app(
            "POST /visits/{id}/cancel-start",
            format!("/visits/{}/cancel-start", i.running_visit.real),
        )
        .on(&[&i.running_visit]),
        // Technicians: the rota and the absences.
        app("GET /technicians", "/technicians".into()).list(),
        app("GET /technicians/rota", "/technicians/rota".into()).list(),
        app("PUT /technicians/rota/{monday}", format!("/technicians/rota/{}", i.monday))
            .body(json!({ "technicianId": tech }))
            .naming(&[&i.technician], 404)
            .admin(rota),
        app("POST /technicians/rota/swap", "/technicians/rota/swap".into())
            .body(json!({ "first": i.monday, "second": i.monday }))
            .admin(rota),
        app("POST /technicians/rota/replace", "/technicians/rota/replace".into())
            .body(json!({ "technicianId": tech, "from": format!("{}T09:00", i.monday), "to": format!("{}T18:00", i.monday) }))
            .naming(&[&i.technician], 404)
            .admin(rota),
        app("GET /technicians/records", "/technicians/records".into()).list(),
        app("POST /technicians", "/technicians".into())
            .body(json!({ "name": "Technicien d'essai" }))
            .admin("Ajouter un technicien est réservé à un administrateur de l'agence."),
        app("PATCH /technicians/{id}", format!("/technicians/{}", i.person_technician.real))
            .body(json!({ "phone": "06 00 00 00 00" }))
            .on(&[&i.person_technician])
            .admin("Modifier un technicien est réservé à un administrateur de l'agence."),
        app("POST /technicians/{id}/deactivate", format!("/technicians/{}/deactivate", i.person_technician.real))
            .on(&[&i.person_technician])
            .admin("Désactiver un technicien est réservé à un administrateur de l'agence."),
        app("POST /technicians/{id}/reactivate", format!("/technicians/{}/reactivate", i.person_technician.real))
            .on(&[&i.person_technician])
            .admin("Réactiver un technicien est réservé à un administrateur de l'agence."),
        app("GET /technicians/{id}/absences", format!("/technicians/{tech}/absences")).on(&[&i.technician]),
        app("POST /technicians/{id}/absences", format!("/technicians/{tech}/absences"))
            .body(json!({ "startsOn": i.monday, "endsOn": i.monday, "reason": "Formation" }))
            .on(&[&i.technician])
            .admin(rota),
        app(
            "DELETE /technicians/{id}/absences/{absence_id}",
            format!("/technicians/{tech}/absences/{}", i.absence.real),
        )
        .on(&[&i.technician, &i.absence])
        .admin(rota),
        // Quotes, invoices and their documents.
        app("GET /contracts", "/contracts?limit=200".into()).list(),
        app("POST /contracts", "/contracts".into())
            .body(json!({ "clientId": i.client.real, "liftIds": [eq], "type": "normal", "startOn": "2027-01-01", "annualPrice": 900 }))
            .naming(&[&i.client], 422),
        app("GET /contracts/{id}", format!("/contracts/{}", i.draft_contract.real)).on(&[&i.draft_contract]),
        app("PUT /contracts/{id}", format!("/contracts/{}", i.draft_contract.real))
            .body(json!({ "clientId": i.draft_contract_client, "liftIds": [i.draft_contract_lift], "type": "complet", "startOn": "2027-01-01", "annualPrice": 3200 }))
            .on(&[&i.draft_contract]),
        app("DELETE /contracts/{id}", format!("/contracts/{}", i.app_draft_contract.real))
            .on(&[&i.app_draft_contract]),
        app("GET /contracts/{id}/pdf", format!("/contracts/{}/pdf", i.active_contract.real)).on(&[&i.active_contract]),
        app(
            "GET /contracts/{id}/annual-report",
            format!("/contracts/{}/annual-report?year=2026", i.active_contract.real),
        )
        .on(&[&i.active_contract]),
        app(
            "GET /contracts/{id}/response-times",
            format!("/contracts/{}/response-times?from=2026-01-01&to=2026-12-31", i.active_contract.real),
        )
        .on(&[&i.active_contract]),
        app("POST /contracts/{id}/activate", format!("/contracts/{}/activate", i.draft_contract.real))
            .on(&[&i.draft_contract]),
        app("POST /contracts/{id}/terminate", format!("/contracts/{}/terminate", i.active_contract.real))
            .body(json!({ "reason": "Vente de l'immeuble" }))
            .on(&[&i.active_contract]),
        app("POST /contracts/{id}/expire", format!("/contracts/{}/expire", i.active_contract.real))
            .on(&[&i.active_contract]),
        app("GET /price-indexes", "/price-indexes".into()).list(),
        app("POST /price-indexes", "/price-indexes".into())
            .body(json!({ "index": "BT48", "month": "2015-03", "value": 103.6 })),
        app("GET /contract-billing/preview", "/contract-billing/preview?from=2026-10-01&to=2026-12-31&limit=200".into()).list(),
        app("POST /contract-billing/drafts", "/contract-billing/drafts".into())
            .body(json!({ "from": "2026-10-01", "to": "2026-12-31" })),
        app("POST /contract-billing/issue", "/contract-billing/issue".into())
            .body(json!({ "from": "2026-10-01", "to": "2026-12-31", "limit": 5 })),
        app("GET /quotes", "/quotes?limit=200".into()).list(),
        app("POST /quotes", "/quotes".into())
            .body(json!({ "equipmentId": eq, "origin": "client", "object": "Essai", "rows": row }))
            .naming(&[&i.equipment], 422),
        app("GET /quotes/{id}", format!("/quotes/{}", i.draft_quote.real)).on(&[&i.draft_quote]),
        app("GET /quotes/{id}/pdf", format!("/quotes/{}/pdf", i.draft_quote.real)).on(&[&i.draft_quote]),
        app("POST /quotes/{id}/send", format!("/quotes/{}/send", i.draft_quote.real)).on(&[&i.draft_quote]),
        app("POST /quotes/{id}/accept", format!("/quotes/{}/accept", i.sent_quote.real)).on(&[&i.sent_quote]),
        app("POST /quotes/{id}/refuse", format!("/quotes/{}/refuse", i.other_sent_quote.real))
            .on(&[&i.other_sent_quote]),
        app("POST /quotes/{id}/renew", format!("/quotes/{}/renew", i.draft_quote.real)).on(&[&i.draft_quote]),
        app("POST /quotes/{id}/invoice", format!("/quotes/{}/invoice", i.accepted_quote.real))
            .body(json!({}))
            .on(&[&i.accepted_quote]),
        app("GET /invoices", "/invoices?limit=200".into()).list(),
        app("POST /invoices", "/invoices".into())
            .body(json!({ "clientId": i.client.real, "lines": [{ "label": "Dépannage", "quantity": 1, "unitPrice": 80 }] }))
            .naming(&[&i.client], 422),
        app("GET /invoices/{id}", format!("/invoices/{}", i.draft_invoice.real)).on(&[&i.draft_invoice]),
        app("PATCH /invoices/{id}", format!("/invoices/{}", i.draft_invoice.real))
            .body(json!({ "lines": [{ "label": "Pirate", "quantity": 1, "unitPrice": 1 }] }))
            .on(&[&i.draft_invoice]),
        app("GET /invoices/{id}/pdf", format!("/invoices/{}/pdf", i.issued_invoice.real)).on(&[&i.issued_invoice]),
        app("GET /invoices/{id}/facturx.xml", format!("/invoices/{}/facturx.xml", i.issued_invoice.real)).on(&[&i.issued_invoice]),
        app("POST /invoices/{id}/issue", format!("/invoices/{}/issue", i.draft_invoice.real)).on(&[&i.draft_invoice]),
        app("POST /invoices/{id}/send", format!("/invoices/{}/send", i.issued_invoice.real)).on(&[&i.issued_invoice]),
        // Documents sent by e-mail, and the organization's outgoing server.
        app("GET /quotes/{id}/send-options", format!("/quotes/{}/send-options", i.draft_quote.real))
            .on(&[&i.draft_quote]),
        app("GET /invoices/{id}/send-options", format!("/invoices/{}/send-options", i.issued_invoice.real))
            .on(&[&i.issued_invoice]),
        app("GET /visits/{id}/send-options", format!("/visits/{}/send-options", i.done_visit.real))
            .on(&[&i.done_visit]),
        app("GET /quotes/{id}/mails", format!("/quotes/{}/mails", i.draft_quote.real)).on(&[&i.draft_quote]),
        app("GET /invoices/{id}/mails", format!("/invoices/{}/mails", i.issued_invoice.real))
            .on(&[&i.issued_invoice]),
        app("GET /visits/{id}/mails", format!("/visits/{}/mails", i.done_visit.real)).on(&[&i.done_visit]),
        app("GET /visits/{id}/report.pdf", format!("/visits/{}/report.pdf", i.done_visit.real))
            .on(&[&i.done_visit]),
        app("POST /visits/{id}/send-report", format!("/visits/{}/send-report", i.done_visit.real))
            .body(json!({ "contactIds": [i.report_contact.real] }))
            .on(&[&i.done_visit, &i.report_contact]),
        app("POST /mails/{id}/retry", format!("/mails/{}/retry", i.mail.real)).on(&[&i.mail]),
        // Exports: started in the caller's own scope; an export is its
        // starter's, in its agency.
        app("POST /exports", "/exports".into()).body(json!({ "list": "invoices", "format": "csv" })),
        app("GET /exports/{id}", format!("/exports/{}", i.export.real)).on(&[&i.export]),
        app("GET /exports/{id}/file", format!("/exports/{}/file", i.export.real)).on(&[&i.export]),
        app("GET /mail-settings", "/mail-settings".into())
            .list()
            .organization_wide()
            .admin("Consulter le serveur d'envoi des e-mails est réservé à un administrateur de l'organisation."),
        app("PUT /mail-settings", "/mail-settings".into())
            .body(json!({ "host": "127.0.0.1", "port": w._smtp.port, "security": "aucune" }))
            .admin("Régler le serveur d'envoi des e-mails est réservé à un administrateur de l'organisation."),
        app("POST /mail-settings/test", "/mail-settings/test".into())
            .body(json!({ "to": "essai@ascenseurs-durand.fr" }))
            .admin("Régler le serveur d'envoi des e-mails est réservé à un administrateur de l'organisation."),
        app("POST /invoices/{id}/payment", format!("/invoices/{}/payment", i.sent_invoice.real))
            .body(json!({}))
            .on(&[&i.sent_invoice]),
        app(
            "POST /invoices/{id}/credit-notes",
            format!("/invoices/{}/credit-notes", i.sent_invoice.real),
        )
        .body(json!({}))
        .on(&[&i.sent_invoice])
        .admin("Seul un administrateur peut établir un avoir."),
        // Imports.
        app("POST /imports/files", "/imports/files".into())
            .body(json!({ "name": "x.csv", "content": base64::engine::general_purpose::STANDARD.encode("Nom\nX\n") })),
        app("GET /imports/{file_id}", format!("/imports/{}", i.app_import_file.real)).on(&[&i.app_import_file]),
        app("POST /imports/{file_id}/check", format!("/imports/{}/check", i.app_import_file.real))
            .body(json!({ "target": "clients" }))
            .on(&[&i.app_import_file]),
        app("POST /imports/{file_id}/import", format!("/imports/{}/import", i.app_import_file.real))
            .body(json!({ "target": "clients" }))
            .on(&[&i.app_import_file])
            .admin("Importer un fichier est réservé à un administrateur de l'agence."),
        // Webhooks.
        app("GET /webhooks", "/webhooks".into()).list(),
        app("GET /webhooks/status", "/webhooks/status".into()).list(),
        app("GET /webhooks/events", "/webhooks/events".into()).list(),
        app("POST /webhooks", "/webhooks".into())
            .body(json!({ "url": "https://127.0.0.1:9/intrus", "events": ["appel.clos"] }))
            .admin("Créer un abonnement webhook est réservé à un administrateur de l'agence."),
        app("GET /webhooks/{id}/deliveries", format!("/webhooks/{}/deliveries", i.app_webhook.real))
            .on(&[&i.app_webhook]),
        app("POST /webhooks/{id}/test", format!("/webhooks/{}/test", i.app_webhook.real))
            .on(&[&i.app_webhook])
            .admin("Envoyer un test est réservé à un administrateur de l'agence."),
        app("POST /webhooks/{id}/revoke", format!("/webhooks/{}/revoke", i.app_webhook.real))
            .on(&[&i.app_webhook])
            .admin("Révoquer un abonnement webhook est réservé à un administrateur de l'agence."),
        // Keys and tokens.
        app("GET /keys/tokens", "/keys/tokens".into()).list(),
        app("POST /keys/tokens", "/keys/tokens".into()).body(json!({ "name": "Outil d'essai" })),
        // Only its owner (the member) may revoke it: everyone else gets 404.
        app("POST /keys/tokens/{id}/revoke", format!("/keys/tokens/{}/revoke", i.member_token_id.real))
            .on(&[&i.member_token_id])
            .no_control(),
        app("GET /keys/call-center-keys", "/keys/call-center-keys".into()).list(),
        app("POST /keys/call-center-keys", "/keys/call-center-keys".into())
            .body(json!({ "name": "Centre d'essai" }))
            .admin("Créer une clé de centre d'appels est réservé à un administrateur de l'agence."),
        app(
            "POST /keys/call-center-keys/{id}/revoke",
            format!("/keys/call-center-keys/{}/revoke", i.center_key_id.real),
        )
        .on(&[&i.center_key_id])
        .admin("Révoquer une clé de centre d'appels est réservé à un administrateur de l'agence."),
        app("GET /keys/partner-keys", "/keys/partner-keys".into()).list(),
        app("POST /keys/partner-keys", "/keys/partner-keys".into())
            .body(json!({ "name": "Partenaire d'essai" }))
            .admin("Créer une clé partenaire est réservé à un administrateur de l'agence."),
        app(
            "POST /keys/partner-keys/{id}/revoke",
            format!("/keys/partner-keys/{}/revoke", i.partner_key_id.real),
        )
        .on(&[&i.partner_key_id])
        .admin("Révoquer une clé partenaire est réservé à un administrateur de l'agence."),
        // The organization's people: its administrators manage them in
        // every agency (an agency administrator in its own).
        app("GET /people", "/people".into())
            .list()
            .organization_wide()
            .admin("Consulter les comptes du personnel est réservé à un administrateur de l'agence."),
        app("POST /people", "/people".into())
            .body(json!({ "name": "Nouvelle Recrue", "email": "recrue@ascenseurs-durand.fr", "role": "member", "agencyIds": [i.agency_a.real] }))
            .naming(&[&i.agency_a], 404)
            .organization_wide()
            .admin("Créer un compte est réservé à un administrateur de l'agence."),
        app("PATCH /people/{id}", format!("/people/{}", i.person.real))
            .body(json!({ "position": "Piratée" }))
            .on(&[&i.person])
            .organization_wide()
            .admin("Modifier un compte est réservé à un administrateur de l'agence."),
        app("POST /people/{id}/deactivate", format!("/people/{}/deactivate", i.person.real))
            .on(&[&i.person])
            .organization_wide()
            .admin("Désactiver un compte est réservé à un administrateur de l'agence."),
        app("POST /people/{id}/reactivate", format!("/people/{}/reactivate", i.person.real))
            .on(&[&i.person])
            .organization_wide()
            .admin("Réactiver un compte est réservé à un administrateur de l'agence."),
        app("POST /people/{id}/password-reset", format!("/people/{}/password-reset", i.person.real))
            .on(&[&i.person])
            .organization_wide()
            .admin("Réinitialiser un mot de passe est réservé à un administrateur de l'agence."),
        // The organization's agencies: its administrators manage them from
        // any agency (an agency administrator renames its own).
        app("GET /agencies", "/agencies".into())
            .list()
            .organization_wide()
            .admin("Consulter les agences est réservé à un administrateur de l'agence."),
        app("POST /agencies", "/agencies".into())
            .body(json!({ "name": "Agence d'essai" }))
            .admin("Créer une agence est réservé à un administrateur de l'organisation."),
        app("PATCH /agencies/{id}", format!("/agencies/{}", i.agency_a.real))
            .body(json!({ "name": "Paris Ouest" }))
            .on(&[&i.agency_a])
            .organization_wide()
            .admin("Renommer l'agence est réservé à un administrateur de l'agence."),
        // Not run by the rightful caller: it would take agency A out of
        // every scope (its refusals are tried all the same).
        app("POST /agencies/{id}/archive", format!("/agencies/{}/archive", i.agency_a.real))
            .on(&[&i.agency_a])
            .organization_wide()
            .no_control()
            .admin("Archiver ou réactiver une agence est réservé à un administrateur de l'organisation."),
        app("POST /agencies/{id}/restore", format!("/agencies/{}/restore", i.agency_a.real))
            .on(&[&i.agency_a])
            .organization_wide()
            .admin("Archiver ou réactiver une agence est réservé à un administrateur de l'organisation."),
        // The agency's identity: each agency reads and changes its own.
        app("GET /agency/identity", "/agency/identity".into()).list(),
        app("PUT /agency/identity", "/agency/identity".into())
            .body(json!({ "siret": "73282932000074", "address": "1 rue d'Essai, 75001 Paris" }))
            .admin(identity),
        app("PUT /agency/identity/logo", "/agency/identity/logo".into())
            .body(json!({ "content": base64::engine::general_purpose::STANDARD.encode(include_bytes!("../../icons/32x32.png")) }))
            .admin(identity),
        // Read after the control run set it (the demo has no logo).
        app("GET /agency/identity/logo", "/agency/identity/logo".into()),
        app("DELETE /agency/identity/logo", "/agency/identity/logo".into()).admin(identity),
        // The installation: the administrators of the organization that set
        // it up (the demo's), not another organization's.
        app("GET /settings", "/settings".into()).installation(SETTINGS),
        app("PUT /settings", "/settings".into())
            .body(json!({ "port": 9123, "lan": true, "backupDir": null, "dailyBackup": false }))
            .installation(SETTINGS),
        app("GET /settings/backups", "/settings/backups".into()).installation(SETTINGS),
        app("POST /settings/backups", "/settings/backups".into())
            .installation("Sauvegarder la base"),
        app("POST /settings/restore", "/settings/restore".into())
            .body(json!({ "path": "/nulle-part/liftdesk.sqlite3" }))
            .installation("Restaurer une sauvegarde"),
        app("POST /settings/restart", "/settings/restart".into())
            .installation("Le redémarrage")
            .no_control(),
        app("POST /desktop/agency-server", "/desktop/agency-server".into())
            .body(json!({ "url": "https://liftdesk.intrus.example" }))
            .installation("Le choix du serveur de l'agence")
            .no_control(),
        app("GET /diagnostics", "/diagnostics".into()).installation("Le diagnostic"),
    ]
}

fn call_center_ops(w: &World) -> Vec<Op> {
    let i = &w.ids;
    vec![
        Op::new(
            Family::CallCenter,
            "POST /calls",
            "/api/partners/calls".into(),
        )
        .body(json!({
            "reference": "ESSAI-ISOLATION-1",
            "equipement": i.equipment_number.real,
            "type": "panne",
            "description": "Appel d'essai de l'isolation",
        }))
        .naming(&[&i.equipment_number], 422),
        Op::new(
            Family::CallCenter,
            "GET /calls/{reference}",
            format!("/api/partners/calls/{}", i.call_reference.real),
        )
        .on(&[&i.call_reference]),
    ]
}

/// The workflow API acts in agency B here: the demo's key serves A and B,
/// the wrong keys are the one attributed to A only and another
/// organization's.
fn workflow_ops(w: &World) -> Vec<Op> {
    let i = &w.ids;
    let b = &w.b;
    let number = &i.b_equipment_number.real;
    let wf = |key: &str, body: Value| {
        Op::new(
            Family::Workflow,
            &format!("POST /{key}"),
            format!("/api/1.1/wf/{key}"),
        )
        .body(body)
    };
    vec![
        wf(
            "create_survey",
            json!({
                "agency_id": b,
                "type_affaire": "Contrat",
                "solliciteur_email": "gestion@gmao.example",
                "releveur_email": SURVEYOR,
                "equipments": [{ "equipment_number": "ISO-0001", "adresse": "1 rue de l'Essai, 75011 Paris" }],
            }),
        ),
        wf(
            "update_client",
            json!({ "agency_id": b, "nom": "Client d'essai de l'isolation" }),
        ),
        wf(
            "get_client",
            json!({ "agency_id": b, "client_id": i.b_client.real }),
        )
        .naming(&[&i.b_client], 200),
        wf(
            "update_equipment_data",
            json!({ "agency_id": b, "equipment_number": number, "marque": "Piratée" }),
        )
        .on(&[&i.b_equipment_number]),
        wf(
            "get_equipment_data",
            json!({ "agency_id": b, "equipment_number": number }),
        )
        .on(&[&i.b_equipment_number]),
        wf(
            "open_app",
            json!({ "agency_id": b, "equipment_number": number, "user_email": SURVEYOR }),
        )
        .on(&[&i.b_equipment_number]),
        wf("get_opportunities_stats", json!({ "agency_id": b })),
        wf(
            "generate_token",
            json!({ "agency_id": b, "equipment_number": number }),
        )
        .on(&[&i.b_equipment_number]),
    ]
}

fn mcp_ops(w: &World) -> Vec<Op> {
    let i = &w.ids;
    let tool = |name: &str, args: Value| {
        let mut op = Op::new(Family::Mcp, name, name.to_owned());
        op.body = Some(args);
        op
    };
    let rpc = |method: &'static str, params: Value| {
        let mut op = Op::new(Family::Mcp, method, method.to_owned());
        op.method = method;
        op.body = Some(params);
        op
    };
    let eq = &i.equipment.real;
    let row = json!([{ "label": "Galets de porte", "quantity": 2, "unitPrice": 45.5 }]);
    let id = |t: &Target| json!({ "id": t.real });
    let sheet = format!("liftdesk://equipements/{eq}/fiche");
    let mut sheet_op = Op::new(
        Family::Mcp,
        "resources/read liftdesk://equipements/{id}/fiche",
        sheet,
    );
    sheet_op.method = "RESOURCE";
    vec![
        // The transport: authenticated before anything.
        rpc(
            "initialize",
            json!({ "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "matrice", "version": "1" } }),
        ),
        rpc("tools/list", json!({})),
        rpc("resources/templates/list", json!({})),
        rpc("prompts/list", json!({})),
        sheet_op.on(&[&i.equipment]),
        // Every tool.
        tool("compte", json!({})).list(),
        tool("agences", json!({})).list(),
        tool("techniciens", json!({})).list(),
        tool("planning", json!({})).list(),
        tool("appels", json!({ "limit": 200 })).list(),
        tool("clients", json!({ "limit": 200 })).list(),
        tool("factures", json!({ "limit": 200 })).list(),
        tool("equipements", json!({ "limit": 200 })).list(),
        tool("releves", json!({ "limit": 200 })).list(),
        tool("descripteur_contact", json!({})).list(),
        tool("visite", id(&i.visit)).on(&[&i.visit]),
        tool("commencer_visite", id(&i.visit)).on(&[&i.visit]),
        tool("replanifier_visite", json!({ "id": i.visit.real, "plannedFor": i.monday })).on(&[&i.visit]),
        tool("terminer_visite", json!({ "id": i.running_visit.real, "signedBy": "M. Intrus" }))
            .on(&[&i.running_visit]),
        tool("annuler_debut_visite", id(&i.running_visit)).on(&[&i.running_visit]),
        tool("appel", id(&i.call)).on(&[&i.call]),
        tool("affecter_appel", json!({ "id": i.call.real, "technicianId": i.technician.real })).on(&[&i.call]),
        tool("statut_appel", json!({ "id": i.call.real, "statut": "en_route" })).on(&[&i.call]),
        tool("facture", id(&i.draft_invoice)).on(&[&i.draft_invoice]),
        tool("facture_electronique", id(&i.issued_invoice)).on(&[&i.issued_invoice]),
        tool(
            "creer_facture",
            json!({ "clientId": i.client.real, "lines": [{ "label": "Dépannage", "quantity": 1, "unitPrice": 80 }] }),
        )
        .naming(&[&i.client], 422),
        tool("emettre_facture", id(&i.draft_invoice)).on(&[&i.draft_invoice]),
        tool("envoyer_facture", id(&i.issued_invoice)).on(&[&i.issued_invoice]),
        tool("enregistrer_reglement", id(&i.sent_invoice)).on(&[&i.sent_invoice]),
        tool("creer_avoir", id(&i.sent_invoice))
            .on(&[&i.sent_invoice])
            .admin("Seul un administrateur peut établir un avoir."),
        tool("devis", id(&i.draft_quote)).on(&[&i.draft_quote]),
        tool(
            "creer_devis",
            json!({ "equipmentId": eq, "origin": "client", "object": "Essai", "rows": row }),
        )
        .naming(&[&i.equipment], 422),
        tool("envoyer_devis", id(&i.draft_quote)).on(&[&i.draft_quote]),
        tool("accepter_devis", id(&i.sent_quote)).on(&[&i.sent_quote]),
        tool("refuser_devis", id(&i.other_sent_quote)).on(&[&i.other_sent_quote]),
        tool("renouveler_devis", id(&i.draft_quote)).on(&[&i.draft_quote]),
        tool("creer_contact", json!({ "parentId": i.client.real, "champs": { "nom": "Jean Intrus" } }))
            .naming(&[&i.client], 422),
        tool("contrats", json!({})).list(),
        tool("contrat", id(&i.draft_contract)).on(&[&i.draft_contract]),
        tool(
            "delais_contrat",
            json!({ "id": i.active_contract.real, "from": "2026-01-01", "to": "2026-12-31" }),
        )
        .on(&[&i.active_contract]),
        tool(
            "creer_contrat",
            json!({ "clientId": i.client.real, "liftIds": [eq], "type": "normal", "startOn": "2027-01-01", "annualPrice": 900 }),
        )
        .naming(&[&i.client], 422),
        tool("activer_contrat", id(&i.draft_contract)).on(&[&i.draft_contract]),
        tool("resilier_contrat", json!({ "id": i.active_contract.real, "reason": "Vente de l'immeuble" }))
            .on(&[&i.active_contract]),
        tool("apercu_facturation_contrats", json!({ "from": "2026-10-01", "to": "2026-12-31", "limit": 200 })).list(),
        tool("facturer_contrats", json!({ "from": "2026-10-01", "to": "2026-12-31" })),
        tool("emettre_factures_contrats", json!({ "from": "2026-10-01", "to": "2026-12-31", "limit": 5 })),
        tool("indices", json!({})).list(),
        tool("enregistrer_indice", json!({ "index": "BT48", "month": "2015-02", "value": 103.4 })),
        tool("immeubles", json!({ "q": "" })).list(),
        tool("immeuble", id(&i.building)).on(&[&i.building]),
        tool("creer_immeuble", json!({ "address": "3 rue de la Matrice", "city": "Paris" })),
        tool("equipement", json!({ "number": i.equipment_number.real })).on(&[&i.equipment_number]),
        tool("equipement", json!({ "number": i.equipment_number.real, "agency": w.a }))
            .exact(Who::OtherOrganization, 403, json!({ "error": SCOPE_403 })),
        tool("champs_techniques", json!({ "equipment": eq, "q": "charge" })).on(&[&i.equipment]),
        tool("modifier_identite_equipement", json!({ "id": eq, "location": "Piratée" })).on(&[&i.equipment]),
        tool("releve", id(&i.survey)).on(&[&i.survey]),
        tool("donnees_releve", id(&i.survey)).on(&[&i.survey]),
        tool("soumettre_releve", json!({ "id": i.open_survey.real, "values": { "marque": "Piratée" } }))
            .on(&[&i.open_survey])
            .admin("Soumettre un relevé est réservé aux comptes qui réalisent des relevés et aux administrateurs : ce compte ne réalise pas de relevés.")
            .exact(
                Who::Operator,
                403,
                json!({ "error": "Le compte de service de l'opérateur consulte les agences mais n'y soumet pas de relevé." }),
            ),
        tool(
            "signaler_ecart",
            json!({ "equipmentId": i.survey_equipment.real, "surveyId": i.survey.real, "finding": "Constat d'essai sur la porte." }),
        )
        .naming(&[&i.survey_equipment, &i.survey], 422),
    ]
}

// -- Running it -----------------------------------------------------------------

#[derive(Debug)]
enum Expect {
    /// This status and exactly this body.
    Exact(u16, Value),
    /// This status, and the answer an id that names nothing gets.
    Ghost(u16),
    /// 200, and none of agency A's objects.
    Hides,
}

impl World {
    fn unknown_cookie() -> String {
        "X".repeat(43)
    }

    /// Every wrong caller of a family, with its credential.
    fn callers(&self, op: &Op) -> Vec<(Who, Auth)> {
        let unknown_session = Auth::Session {
            cookie: Self::unknown_cookie(),
            csrf: Some(csrf_token_for(&Self::unknown_cookie())),
        };
        match op.family {
            Family::V2 | Family::Mcp => vec![
                (Who::NoCredential, Auth::None),
                (
                    Who::Unknown,
                    bearer(&format!("svc_agent_{}", "A".repeat(32))),
                ),
                (Who::Revoked, bearer(&self.revoked_token)),
                (Who::CallCenterKey, bearer(&self.center_key)),
                (Who::PartnerKey, bearer(&self.partner_key)),
                (Who::SessionCookie, self.admin.auth()),
                (Who::OtherOrganization, bearer(&self.outsider.admin_token)),
                (Who::OtherAgency, bearer_in(&self.admin_token, &self.b)),
                (Who::MemberAskingB, bearer_in(&self.member_token, &self.b)),
                (Who::Member, bearer_in(&self.member_token, &self.a)),
                (Who::Operator, bearer_in(&self.operator_token, &self.a)),
            ],
            Family::CallCenter => vec![
                (Who::NoCredential, Auth::None),
                (Who::Unknown, bearer(&format!("svc_{}", "A".repeat(32)))),
                (Who::Revoked, bearer(&self.revoked_center_key)),
                (Who::ApiToken, bearer(&self.admin_token)),
                (Who::PartnerKey, bearer(&self.partner_key)),
                (Who::SessionCookie, self.admin.auth()),
                (Who::OtherOrganization, bearer(&self.outsider_center_key)),
                (Who::OtherAgency, bearer(&self.center_key_b)),
                (Who::OtherCenter, bearer(&self.second_center_key)),
            ],
            Family::Workflow => vec![
                (Who::NoCredential, Auth::None),
                (
                    Who::Unknown,
                    Auth::ApiKey(format!("svc_partner_{}", "A".repeat(32))),
                ),
                (Who::Revoked, Auth::ApiKey(self.revoked_partner_key.clone())),
                (Who::ApiToken, Auth::ApiKey(self.admin_token.clone())),
                (Who::CallCenterKey, Auth::ApiKey(self.center_key.clone())),
                (
                    Who::KeyNotAttributed,
                    Auth::ApiKey(self.partner_key_a_only.clone()),
                ),
                (
                    Who::OtherOrganization,
                    Auth::ApiKey(self.outsider_partner_key.clone()),
                ),
                (
                    Who::OtherAgency,
                    Auth::ApiKey(self.partner_key_a_only.clone()),
                ),
            ],
            Family::App => vec![
                (Who::NoCredential, Auth::None),
                (Who::Unknown, unknown_session),
                (Who::Revoked, self.signed_out.auth()),
                (Who::ApiToken, bearer(&self.admin_token)),
                (Who::NoCsrf, self.admin.without_csrf()),
                (Who::OtherOrganization, self.outsider_admin.auth()),
                (Who::OtherAgency, self.admin_in_b.auth()),
                (Who::Member, self.member.auth()),
            ],
        }
    }

    fn rightful(&self, family: Family) -> Auth {
        match family {
            Family::V2 | Family::Mcp => bearer_in(&self.admin_token, &self.a),
            Family::CallCenter => bearer(&self.center_key),
            Family::Workflow => Auth::ApiKey(self.partner_key.clone()),
            Family::App => self.admin.auth(),
        }
    }

    /// What must never show to a caller outside agency A.
    fn hidden(&self, who: Who) -> Vec<String> {
        let i = &self.ids;
        let mut hidden: Vec<String> = [
            &i.equipment,
            &i.equipment_number,
            &i.survey_equipment,
            &i.survey,
            &i.open_survey,
            &i.visit,
            &i.running_visit,
            &i.draft_quote,
            &i.sent_quote,
            &i.other_sent_quote,
            &i.accepted_quote,
            &i.draft_invoice,
            &i.issued_invoice,
            &i.sent_invoice,
            &i.call,
            &i.call_reference,
            &i.client,
            &i.technician,
            &i.absence,
            &i.webhook,
            &i.app_webhook,
            &i.import_file,
            &i.app_import_file,
            &i.center_key_id,
            &i.partner_key_id,
            &i.draft_contract,
            &i.other_draft_contract,
            &i.app_draft_contract,
            &i.active_contract,
        ]
        .iter()
        .map(|t| t.real.clone())
        .collect();
        if who == Who::OtherOrganization {
            hidden.extend([
                self.a.clone(),
                self.b.clone(),
                "claire.durand@ascenseurs-durand.fr".to_owned(),
                "Agence Paris Ouest".to_owned(),
                "Ascenseurs Durand".to_owned(),
            ]);
        }
        hidden
    }

    fn expect(&self, op: &Op, who: Who) -> Option<Expect> {
        if let Some((_, status, body)) = op.exact.iter().find(|(w, ..)| *w == who) {
            return Some(Expect::Exact(*status, body.clone()));
        }
        if op.public || (op.organization_wide && who == Who::OtherAgency) {
            return None;
        }
        let error = |message: &str| json!({ "error": message });
        let envelope = |message: &str| json!({ "status": "error", "message": message });
        match (op.family, who) {
            (
                Family::V2 | Family::Mcp,
                Who::NoCredential
                | Who::Unknown
                | Who::Revoked
                | Who::CallCenterKey
                | Who::PartnerKey
                | Who::SessionCookie,
            ) => Some(Expect::Exact(401, error(TOKEN_401))),
            (
                Family::CallCenter,
                Who::NoCredential
                | Who::Unknown
                | Who::Revoked
                | Who::ApiToken
                | Who::PartnerKey
                | Who::SessionCookie,
            ) => Some(Expect::Exact(401, error(CENTER_401))),
            (
                Family::Workflow,
                Who::NoCredential
                | Who::Unknown
                | Who::Revoked
                | Who::ApiToken
                | Who::CallCenterKey,
            ) => Some(Expect::Exact(401, envelope(PARTNER_401))),
            (Family::Workflow, Who::KeyNotAttributed | Who::OtherOrganization) => {
                Some(Expect::Exact(403, envelope(PARTNER_403)))
            }
            (Family::App, Who::NoCredential | Who::Unknown | Who::Revoked | Who::ApiToken) => {
                Some(Expect::Exact(401, error(SESSION_401)))
            }
            (Family::App, Who::NoCsrf) => {
                (op.method != "GET").then(|| Expect::Exact(403, error(CSRF_403)))
            }
            (Family::V2, Who::Operator) => (op.method != "GET"
                && !OPERATOR_MAY.contains(&op.key.as_str()))
            .then(|| Expect::Exact(403, error(op.admin.as_deref().unwrap_or(OPERATOR_403)))),
            (Family::Mcp, Who::Operator) => MCP_WRITE_TOOLS
                .contains(&op.key.as_str())
                .then(|| Expect::Exact(403, error(op.admin.as_deref().unwrap_or(OPERATOR_403)))),
            (_, Who::MemberAskingB) => Some(Expect::Exact(403, error(SCOPE_403))),
            (_, Who::Member) => op.admin.as_deref().map(|m| Expect::Exact(403, error(m))),
            (_, Who::OtherOrganization | Who::OtherAgency | Who::OtherCenter) => {
                if who == Who::OtherCenter && op.method != "GET" {
                    // Another center of the same agency opens its own calls.
                    return None;
                }
                match &op.scope {
                    Scope::Object(_, status) => Some(Expect::Ghost(*status)),
                    Scope::List => Some(Expect::Hides),
                    Scope::Own => None,
                }
            }
            _ => None,
        }
    }

    /// The body a caller sends: the workflow key attributed to A asks for A.
    fn body_for(&self, op: &Op, who: Who) -> Option<Value> {
        let body = op.body.clone()?;
        if op.family == Family::Workflow && who == Who::OtherAgency {
            let text = body.to_string().replace(&self.b, &self.a);
            return Some(serde_json::from_str(&text).expect("json"));
        }
        Some(body)
    }

    async fn call(&self, op: &Op, path: &str, auth: &Auth, body: Option<&Value>) -> (u16, Value) {
        match op.family {
            Family::Mcp => mcp_send(&self.server, op.method, path, auth, body).await,
            _ => send(&self.server, op.method, path, auth, body).await,
        }
    }
}

fn swap(text: &str, targets: &[Target], to_ghost: bool) -> String {
    targets.iter().fold(text.to_owned(), |text, t| {
        if to_ghost {
            text.replace(&t.real, &t.ghost)
        } else {
            text.replace(&t.ghost, &t.real)
        }
    })
}

fn swap_value(value: &Value, targets: &[Target], to_ghost: bool) -> Value {
    let text = swap(&value.to_string(), targets, to_ghost);
    serde_json::from_str(&text).unwrap_or(Value::String(text))
}

fn error_shape_ok(family: Family, body: &Value) -> bool {
    let keys: Vec<&str> = body
        .as_object()
        .map(|o| o.keys().map(String::as_str).collect())
        .unwrap_or_default();
    match family {
        Family::Workflow => keys == ["message", "status"] && body["status"] == json!("error"),
        _ => keys == ["error"] && body["error"].as_str().is_some_and(|e| !e.is_empty()),
    }
}

/// A digest of every table (the usage stamps of credentials and sessions
/// excepted: using them moves them).
fn digest(dir: &Path) -> BTreeMap<String, u64> {
    let conn = open_db(dir);
    let tables: Vec<String> = conn
        .tables()
        .into_iter()
        .filter(|table| table != "refinery_schema_history")
        .collect();
    let moving = [
        ("credentials", "last_used_at"),
        ("sessions", "last_seen_at"),
        ("sessions", "expires_at"),
    ];
    tables
        .into_iter()
        .map(|table| {
            let columns: Vec<String> = conn
                .columns(&table)
                .into_iter()
                .filter(|c| !moving.contains(&(table.as_str(), c.as_str())))
                .map(|c| format!("\"{c}\""))
                .collect();
            let list = columns.join(", ");
            let mut stmt = conn
                .prepare(&format!("SELECT {list} FROM \"{table}\" ORDER BY {list}"))
                .expect("select");
            let mut hasher = DefaultHasher::new();
            let rows = stmt
                .query_map([], |row| {
                    (0..row.column_count())
                        .map(|i| row.get::<StoredValue>(i))
                        .collect::<Result<Vec<_>, _>>()
                })
                .expect("rows");
            for row in rows {
                for value in row.expect("row") {
                    match value {
                        StoredValue::Null => 0u8.hash(&mut hasher),
                        StoredValue::Integer(n) => (1u8, n).hash(&mut hasher),
                        StoredValue::Real(x) => (2u8, x.to_bits()).hash(&mut hasher),
                        StoredValue::Text(t) => (3u8, t.into_bytes()).hash(&mut hasher),
                        StoredValue::Blob(t) => (3u8, t).hash(&mut hasher),
                    }
                }
            }
            (table, hasher.finish())
        })
        .collect()
}

fn changed_tables(before: &BTreeMap<String, u64>, after: &BTreeMap<String, u64>) -> Vec<String> {
    before
        .iter()
        .filter(|(table, hash)| after.get(*table) != Some(hash))
        .map(|(table, _)| table.clone())
        .collect()
}

/// Watches the store: its data version (`TestDb::data_version`) moves
/// when the server commits, and only then is the digest taken and compared with the state
/// the matrix must leave untouched (using a credential or a session commits
/// its usage stamp, which the digest leaves out).
struct Watch {
    conn: common::db::TestDb,
    version: i64,
    reference: BTreeMap<String, u64>,
}

impl Watch {
    fn new(dir: &Path) -> Watch {
        let conn = open_db(dir);
        let version = Self::version_of(&conn);
        Watch {
            conn,
            version,
            reference: digest(dir),
        }
    }

    fn version_of(conn: &common::db::TestDb) -> i64 {
        conn.data_version()
    }

    /// The tables changed since the last look, if any.
    fn changes(&mut self, dir: &Path) -> Vec<String> {
        let version = Self::version_of(&self.conn);
        if version == self.version {
            return Vec::new();
        }
        self.version = version;
        let now = digest(dir);
        let changed = changed_tables(&self.reference, &now);
        self.reference = now;
        changed
    }
}

/// Runs every wrong caller of `op`; failures are collected, not panicked.
async fn run_op(w: &World, op: &Op, watch: &mut Watch, failures: &mut Vec<String>) -> usize {
    let mut checks = 0;
    for (who, auth) in w.callers(op) {
        let Some(expect) = w.expect(op, who) else {
            continue;
        };
        checks += 1;
        let body = w.body_for(op, who);
        let (status, answer) = w.call(op, &op.path, &auth, body.as_ref()).await;
        let label = format!("{:?} {} by {who:?}", op.family, op.key);
        match expect {
            Expect::Exact(want, want_body) => {
                if status != want || answer != want_body {
                    failures.push(format!(
                        "{label}: expected {want} {want_body}, got {status} {answer}"
                    ));
                }
            }
            Expect::Ghost(want) => {
                let Scope::Object(targets, _) = &op.scope else {
                    unreachable!("ghosts are for objects");
                };
                let ghost_path = swap(&op.path, targets, true);
                let ghost_body = body.as_ref().map(|b| swap_value(b, targets, true));
                let (ghost_status, ghost_answer) =
                    w.call(op, &ghost_path, &auth, ghost_body.as_ref()).await;
                let unghosted = swap_value(&ghost_answer, targets, false);
                if status != want || ghost_status != want {
                    failures.push(format!(
                        "{label}: expected {want} like an unknown id, got {status} {answer} (unknown id: {ghost_status} {ghost_answer})"
                    ));
                } else if answer != unghosted {
                    failures.push(format!(
                        "{label}: answers differently from an unknown id: {answer} vs {ghost_answer}"
                    ));
                } else if want != 200 && !error_shape_ok(op.family, &answer) {
                    failures.push(format!("{label}: not an error body alone: {answer}"));
                }
                let text = answer.to_string();
                // What the unknown id's answer holds is the caller's own input.
                let ghost_text = unghosted.to_string();
                for secret in targets.iter().flat_map(|t| &t.secrets) {
                    let escaped = serde_json::to_string(secret).expect("json");
                    let escaped = escaped.trim_matches('"');
                    if text.contains(escaped) && !ghost_text.contains(escaped) {
                        failures.push(format!("{label}: reveals « {secret} »: {text}"));
                    }
                }
            }
            Expect::Hides => {
                if status != 200 {
                    failures.push(format!("{label}: expected 200, got {status} {answer}"));
                }
                let text = answer.to_string();
                for secret in w.hidden(who) {
                    if text.contains(&secret) {
                        failures.push(format!("{label}: shows « {secret} » of agency A"));
                    }
                }
            }
        }
    }
    let changed = watch.changes(&w.dir);
    if !changed.is_empty() {
        failures.push(format!(
            "{:?} {}: refused calls changed {changed:?}",
            op.family, op.key
        ));
    }
    checks
}

// -- Which operations exist ---------------------------------------------------------

/// `METHOD path` of every `.route("path", get(…).post(…))` of the Rust files
/// of `dir` (not its subfolders); `ANY` for `any(…)`.
fn routes_in_source(dir: &str) -> BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut routes = BTreeSet::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("source dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("source");
        let mut rest = text.as_str();
        while let Some(at) = rest.find(".route(") {
            let after = &rest[at + ".route(".len()..];
            let mut depth = 1;
            let mut end = after.len();
            for (i, c) in after.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            end = i;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let args = &after[..end];
            rest = &after[end..];
            // `.route(` without a path literal is not a router's (`self.route()`).
            let Some(path) = args
                .trim_start()
                .strip_prefix('"')
                .and_then(|a| a.split('"').next())
            else {
                continue;
            };
            for method in ["get", "post", "put", "patch", "delete", "any"] {
                let needle = format!("{method}(");
                let found = args.match_indices(&needle).any(|(i, _)| {
                    i == 0
                        || !args[..i]
                            .chars()
                            .next_back()
                            .is_some_and(|c| c.is_alphanumeric() || c == '_')
                });
                if found {
                    routes.insert(format!("{} {path}", method.to_uppercase()));
                }
            }
        }
    }
    routes
}

/// The prefixes `src/api/mod.rs` nests an API family under.
fn nests_in_api_router() -> BTreeSet<String> {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/api/mod.rs"))
            .expect("source");
    text.split(".nest(\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_owned)
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|i| (*i).to_owned()).collect()
}

fn keys_of(ops: &[Op], family: Family) -> BTreeSet<String> {
    ops.iter()
        .filter(|op| op.family == family)
        .map(|op| op.key.clone())
        .collect()
}

async fn openapi_operations(w: &World) -> BTreeSet<String> {
    let (status, doc) = send(&w.server, "GET", "/api/v2/openapi.json", &Auth::None, None).await;
    assert_eq!(status, 200, "the OpenAPI document is public");
    let mut operations = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in item.as_object().expect("item").keys() {
            if ["get", "post", "put", "patch", "delete"].contains(&method.as_str()) {
                operations.insert(format!("{} {path}", method.to_uppercase()));
            }
        }
    }
    operations
}

/// The tools `tools/list` gives.
async fn mcp_tools(w: &World) -> BTreeSet<String> {
    let (status, list) =
        mcp_rpc(&w.server, &w.rightful(Family::Mcp), "tools/list", json!({})).await;
    assert_eq!(status, 200, "tools/list: {list}");
    let tools = list["result"]["tools"].as_array().expect("tools");
    tools
        .iter()
        .map(|t| t["name"].as_str().expect("name").to_owned())
        .collect()
}

fn diff(label: &str, listed: &BTreeSet<String>, served: &BTreeSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    for missing in served.difference(listed) {
        out.push(format!("{label}: {missing} has no entry in the matrix"));
    }
    for extra in listed.difference(served) {
        out.push(format!(
            "{label}: the matrix lists {extra}, which is not served"
        ));
    }
    out
}

#[tokio::test]
async fn every_wrong_caller_of_every_operation_is_refused_reveals_nothing_and_changes_nothing() {
    let w = world().await;
    let mut ops = v2_ops(&w);
    ops.extend(mcp_ops(&w));
    ops.extend(workflow_ops(&w));
    ops.extend(call_center_ops(&w));
    ops.extend(app_ops(&w));

    // Every operation served has an entry, and every entry is served.
    let mut failures = Vec::new();
    failures.extend(diff(
        "REST v2",
        &keys_of(&ops, Family::V2),
        &openapi_operations(&w).await,
    ));
    let tools = mcp_tools(&w).await;
    let listed_tools: BTreeSet<String> = ops
        .iter()
        .filter(|op| op.family == Family::Mcp && op.method == "TOOL")
        .map(|op| op.key.clone())
        .collect();
    failures.extend(diff("MCP", &listed_tools, &tools));
    failures.extend(diff(
        "call-center API",
        &keys_of(&ops, Family::CallCenter),
        &routes_in_source("src/api/partners"),
    ));
    failures.extend(diff(
        "workflow API",
        &keys_of(&ops, Family::Workflow),
        &routes_in_source("src/api/wf"),
    ));
    failures.extend(diff(
        "web app API",
        &keys_of(&ops, Family::App),
        &routes_in_source("src/api/app"),
    ));
    // The families themselves, and the routes outside them (public by design:
    // the API description, the sheet link's single-use token, JSON 404s).
    failures.extend(diff(
        "API families",
        &set(&["/api/v2", "/api/partners", "/api/1.1/wf", "/app/api"]),
        &nests_in_api_router(),
    ));
    failures.extend(diff(
        "routes outside the families",
        &set(&[
            "GET /fiche/{token}",
            "ANY /api/{*rest}",
            "ANY /app/api/{*rest}",
        ]),
        &routes_in_source("src/api"),
    ));
    failures.extend(diff(
        "REST v2 routes outside the description",
        &set(&["GET /openapi.json", "GET /docs"]),
        &routes_in_source("src/api/v2"),
    ));
    for (path, status) in [
        ("/api/v2/docs", 200),
        (&format!("/fiche/{}", "A".repeat(64)) as &str, 410),
        ("/api/v2/inconnue", 404),
        ("/app/api/inconnue", 404),
    ] {
        let (got, body) = send(&w.server, "GET", path, &Auth::None, None).await;
        if got != status {
            failures.push(format!(
                "public GET {path}: expected {status}, got {got} {body}"
            ));
        }
    }

    let before = digest(&w.dir);
    // The installation's settings live beside the store.
    let settings_file = w.dir.join("settings.json");
    let settings_before = std::fs::read(&settings_file).ok();
    let mut watch = Watch::new(&w.dir);
    let mut checks = 0;
    for op in &ops {
        checks += run_op(&w, op, &mut watch, &mut failures).await;
    }
    let changed = changed_tables(&before, &digest(&w.dir));
    if !changed.is_empty() {
        failures.push(format!("the matrix changed {changed:?}"));
    }
    if std::fs::read(&settings_file).ok() != settings_before {
        failures.push("the matrix changed settings.json".to_owned());
    }
    assert!(
        failures.is_empty(),
        "{} of {checks} checks failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checks > 1500, "the matrix ran only {checks} checks");

    // Control: the rightful caller reaches every operation (no 401, 403,
    // 404 or 405), so the refusals above come from the caller, not the path.
    let order = [
        Family::V2,
        Family::Mcp,
        Family::Workflow,
        Family::CallCenter,
        Family::App,
    ];
    for family in order {
        for op in ops.iter().filter(|op| op.family == family && op.control) {
            let (status, answer) = w
                .call(op, &op.path, &w.rightful(family), op.body.as_ref())
                .await;
            if [401, 403, 404, 405].contains(&status) {
                failures.push(format!("control {family:?} {}: {status} {answer}", op.key));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The digest sees changes: the control run made some.
    assert_ne!(digest(&w.dir), before, "the control run changed nothing?");
    w.server.stop().await;
}
