//! REST API v2 imports: `POST /imports/files` (real xlsx and CSV files
//! written here), `GET /imports/{fileId}`, `POST /imports/{fileId}/check`
//! and `POST /imports/{fileId}/import`, through the real router; and a
//! `kill -9` of the real binary in the middle of an import.

use crate::common;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, ChildStdout, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use common::*;
use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};
use serde_json::{Value, json};

// -- Helpers -------------------------------------------------------------------

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn cp1252(text: &str) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(text);
    assert!(!unmappable, "{text} is not Windows-1252");
    bytes.into_owned()
}

fn keys(value: &Value) -> BTreeSet<String> {
    value
        .as_object()
        .unwrap_or_else(|| panic!("object expected: {value}"))
        .keys()
        .cloned()
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

struct World {
    server: TestServer,
    org: Org,
    other: Org,
    member_token: String,
}

async fn world() -> World {
    let server = TestServer::start().await;
    let dir = server.data_dir.path().to_owned();
    let org = init_org(&dir, "Durand", "claire@durand.fr");
    let other = init_org(&dir, "Martin", "paul@martin.fr");
    cli_json(
        &dir,
        &[
            "user",
            "create",
            "--email",
            "membre@durand.fr",
            "--name",
            "Membre",
            "--password",
            "motdepasse1",
            "--agency",
            &org.agency_id,
        ],
    );
    let member = cli_json(
        &dir,
        &[
            "token",
            "create",
            "--email",
            "membre@durand.fr",
            "--name",
            "t",
        ],
    );
    World {
        server,
        org,
        other,
        member_token: str_of(&member, "token").to_owned(),
    }
}

impl World {
    fn dir(&self) -> &Path {
        self.server.data_dir.path()
    }

    async fn send(&self, path: &str, token: &str, body: &Value) -> (u16, Value) {
        let response = self
            .server
            .client
            .post(self.server.url(path))
            .bearer_auth(token)
            .json(body)
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    async fn upload_as(&self, token: &str, name: &str, bytes: &[u8]) -> (u16, Value) {
        self.send(
            "/api/v2/imports/files",
            token,
            &json!({"name": name, "content": b64(bytes)}),
        )
        .await
    }

    async fn upload(&self, name: &str, bytes: &[u8]) -> (u16, Value) {
        self.upload_as(&self.org.admin_token, name, bytes).await
    }

    /// Uploads a file that must be accepted: its fileId.
    async fn uploaded(&self, name: &str, bytes: &[u8]) -> String {
        let (status, body) = self.upload(name, bytes).await;
        assert_eq!(status, 201, "{body}");
        str_of(&body, "fileId").to_owned()
    }

    async fn check(&self, file_id: &str, body: &Value) -> (u16, Value) {
        self.send(
            &format!("/api/v2/imports/{file_id}/check"),
            &self.org.admin_token,
            body,
        )
        .await
    }

    async fn import(&self, file_id: &str, body: &Value) -> (u16, Value) {
        self.send(
            &format!("/api/v2/imports/{file_id}/import"),
            &self.org.admin_token,
            body,
        )
        .await
    }

    async fn view(&self, file_id: &str, token: &str) -> (u16, Value) {
        self.server
            .get_with(&format!("/api/v2/imports/{file_id}"), Some(token), None)
            .await
    }

    fn count(&self, sql: &str) -> i64 {
        open_db(self.dir())
            .query_row(sql, [], |r| r.get(0))
            .expect("count")
    }

    /// The cells stored for a file: the table as read.
    fn stored_cells(&self, file_id: &str) -> Vec<(u64, Vec<String>)> {
        let content: Vec<u8> = open_db(self.dir())
            .query_row(
                "SELECT content FROM import_files WHERE id = ?1",
                [file_id],
                |r| r.get(0),
            )
            .expect("file");
        let table: Value = serde_json::from_slice(&content).expect("json");
        table["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|row| {
                (
                    row["n"].as_u64().expect("n"),
                    row["c"]
                        .as_array()
                        .expect("c")
                        .iter()
                        .map(|c| c.as_str().expect("text").to_owned())
                        .collect(),
                )
            })
            .collect()
    }
}

/// A workbook: a first sheet from `rows` (strings), plus a second sheet
/// that must be ignored.
fn xlsx(rows: &[&[&str]]) -> Vec<u8> {
    let mut workbook = Workbook::new();
    let sheet = workbook.add_worksheet();
    for (r, row) in rows.iter().enumerate() {
        for (c, text) in row.iter().enumerate() {
            if !text.is_empty() {
                sheet.write_string(r as u32, c as u16, *text).expect("cell");
            }
        }
    }
    workbook
        .add_worksheet()
        .write_string(0, 0, "Autre feuille")
        .expect("cell");
    workbook.save_to_buffer().expect("xlsx")
}

/// Client rows of a CSV: (client_id, name, SIRET), valid SIRETs.
const SIRETS: [&str; 7] = [
    "73282932000074",
    "55208131766522",
    "35600000000048",
    "44306184100047",
    "54205118000066",
    "38012986600048",
    "40483304800022",
];

fn clients_csv(bad_siret_on_row_7: bool) -> Vec<u8> {
    let mut csv = String::from("Code client;Raison sociale;SIRET;E-mail\n");
    for (i, siret) in SIRETS.iter().enumerate() {
        // Header = row 1: the i-th data row is row i + 2.
        let siret = if bad_siret_on_row_7 && i + 2 == 7 {
            "40483304800023"
        } else {
            siret
        };
        csv.push_str(&format!(
            "CLI-{:03};Syndic n°{};{siret};contact{}@syndic.fr\n",
            i + 1,
            i + 1,
            i + 1
        ));
    }
    csv.into_bytes()
}

// -- Upload --------------------------------------------------------------------

#[tokio::test]
async fn an_xlsx_is_read_on_its_first_sheet_as_a_spreadsheet_shows_it() {
    let w = world().await;
    let mut workbook = Workbook::new();
    let sheet = workbook.add_worksheet();
    let headers = [
        "N° appareil",
        "Adresse",
        "Charge utile (kg)",
        "Vitesse",
        "Mise en service",
        "Barrière",
        "Vide",
    ];
    for (c, h) in headers.iter().enumerate() {
        sheet.write_string(0, c as u16, *h).expect("header");
    }
    let day = Format::new().set_num_format("dd/mm/yyyy");
    sheet.write_string(1, 0, "A-001").expect("cell");
    sheet.write_string(1, 1, "3 rue de la Paix").expect("cell");
    sheet.write_number(1, 2, 630.0).expect("cell");
    sheet.write_number(1, 3, 1.6).expect("cell");
    sheet
        .write_datetime_with_format(
            1,
            4,
            ExcelDateTime::from_ymd(2026, 3, 15).expect("date"),
            &day,
        )
        .expect("cell");
    sheet.write_boolean(1, 5, true).expect("cell");
    // Row 3 left blank; row 4 holds the second equipment.
    sheet.write_string(3, 0, "A-002").expect("cell");
    sheet.write_number(3, 2, 0.1 + 0.2).expect("cell");
    sheet.write_number(3, 3, 73282932000074.0).expect("cell");
    workbook
        .add_worksheet()
        .write_string(0, 0, "Ignorée")
        .expect("cell");
    let bytes = workbook.save_to_buffer().expect("xlsx");

    let (status, body) = w.upload("Parc 2026.XLSX", &bytes).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(keys(&body), set(&["fileId", "name", "columns", "rows"]));
    assert_eq!(body["name"], "Parc 2026.XLSX");
    assert_eq!(body["columns"], json!(headers));
    assert_eq!(body["rows"], 2);
    let file_id = str_of(&body, "fileId");
    assert_eq!(
        w.stored_cells(file_id),
        [
            (
                2,
                vec![
                    "A-001".to_owned(),
                    "3 rue de la Paix".to_owned(),
                    "630".to_owned(),
                    "1.6".to_owned(),
                    "2026-03-15".to_owned(),
                    "VRAI".to_owned(),
                    String::new(),
                ]
            ),
            (
                4,
                vec![
                    "A-002".to_owned(),
                    String::new(),
                    "0.3".to_owned(),
                    "73282932000074".to_owned(),
                    String::new(),
                    String::new(),
                    String::new(),
                ]
            ),
        ]
    );
    // Stored in the agency, by the caller, for 24 hours.
    let (agency, created_by, created_at, expires_at): (String, String, String, String) = open_db(
        w.dir(),
    )
    .query_row(
        "SELECT agency_id, created_by, created_at, expires_at FROM import_files WHERE id = ?1",
        [file_id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )
    .expect("row");
    assert_eq!(agency, w.org.agency_id);
    assert_eq!(created_by, w.org.admin_id);
    let hours = chrono::DateTime::parse_from_rfc3339(&expires_at).expect("expiry")
        - chrono::DateTime::parse_from_rfc3339(&created_at).expect("creation");
    assert_eq!(hours.num_hours(), 24);
    // Nothing is imported at this step.
    assert_eq!(w.count("SELECT COUNT(*) FROM equipment"), 0);
}

#[tokio::test]
async fn csv_files_are_read_in_utf8_with_or_without_bom_and_windows_1252_with_either_delimiter() {
    let w = world().await;
    let expected_columns = json!(["Nom de l'immeuble", "Adresse", "Ville"]);
    let expected_rows = vec![
        (
            2u64,
            vec![
                "Résidence Les Tilleuls".to_owned(),
                "3 rue de l'Église\nBâtiment B".to_owned(),
                "Besançon".to_owned(),
            ],
        ),
        (
            3,
            vec![
                "Œuvre « Cœur »".to_owned(),
                "12, avenue Foch".to_owned(),
                "Nîmes".to_owned(),
            ],
        ),
    ];
    let semicolons = "Nom de l'immeuble;Adresse;Ville\r\nRésidence Les Tilleuls;\"3 rue de l'Église\r\nBâtiment B\";Besançon\r\nŒuvre « Cœur »;\"12, avenue Foch\";Nîmes\r\n";
    let commas = "Nom de l'immeuble,Adresse,Ville\nRésidence Les Tilleuls,\"3 rue de l'Église\nBâtiment B\",Besançon\nŒuvre « Cœur »,\"12, avenue Foch\",Nîmes\n";
    let mut with_bom = b"\xEF\xBB\xBF".to_vec();
    with_bom.extend_from_slice(commas.as_bytes());
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("utf8-pv.csv", semicolons.as_bytes().to_vec()),
        ("utf8-virgules.csv", commas.as_bytes().to_vec()),
        ("bom-virgules.csv", with_bom),
        ("cp1252-pv.csv", cp1252(semicolons)),
        ("cp1252-virgules.CSV", cp1252(commas)),
    ];
    for (name, bytes) in files {
        let (status, body) = w.upload(name, &bytes).await;
        assert_eq!(status, 201, "{name}: {body}");
        assert_eq!(body["columns"], expected_columns, "{name}");
        assert_eq!(body["rows"], 2, "{name}");
        let mut rows = w.stored_cells(str_of(&body, "fileId"));
        for (_, cells) in &mut rows {
            // A CRLF file keeps CRLF inside its quoted fields.
            for cell in cells.iter_mut() {
                *cell = cell.replace("\r\n", "\n");
            }
        }
        assert_eq!(rows, expected_rows, "{name}");
    }
}

#[tokio::test]
async fn every_refusal_of_an_upload_has_its_status_and_french_reason() {
    let w = world().await;
    let cases: Vec<(&str, Value, u16, &str)> = vec![
        (
            "extension",
            json!({"name": "parc.pdf", "content": b64(b"A;B\n1;2\n")}),
            422,
            "Le fichier « parc.pdf » n'est pas accepté : seuls les fichiers .csv et .xlsx peuvent être importés.",
        ),
        (
            "old excel",
            json!({"name": "parc.xls", "content": b64(b"A;B\n1;2\n")}),
            422,
            "Le fichier « parc.xls » n'est pas accepté : seuls les fichiers .csv et .xlsx peuvent être importés.",
        ),
        (
            "not base64",
            json!({"name": "parc.csv", "content": "ceci n'est pas du base64 !"}),
            422,
            "Le champ « content » n'est pas du base64 valide : envoyez le contenu du fichier encodé en base64 (alphabet standard).",
        ),
        (
            "empty",
            json!({"name": "parc.csv", "content": ""}),
            422,
            "Le fichier est vide.",
        ),
        (
            "not a workbook",
            json!({"name": "parc.xlsx", "content": b64(b"A;B\n1;2\n")}),
            422,
            "Le fichier « parc.xlsx » n'est pas un classeur Excel (.xlsx) lisible.",
        ),
        (
            "empty sheet",
            json!({"name": "vide.xlsx", "content": b64(&xlsx(&[]))}),
            422,
            "Le fichier ne contient aucune ligne : il faut une ligne d'en-tête (les noms des colonnes) puis une ligne par élément à importer.",
        ),
        (
            "header only (xlsx)",
            json!({"name": "entete.xlsx", "content": b64(&xlsx(&[&["Numéro", "Adresse"]]))}),
            422,
            "Le fichier ne contient que sa ligne d'en-tête (ligne 1) : aucune ligne de données à importer.",
        ),
        (
            "header only (csv)",
            json!({"name": "entete.csv", "content": b64(b"\n\nNum\xc3\xa9ro;Adresse\n;\n")}),
            422,
            "Le fichier ne contient que sa ligne d'en-tête (ligne 3) : aucune ligne de données à importer.",
        ),
        (
            "unclosed quote",
            json!({"name": "parc.csv", "content": b64(b"A;B\n1;\"2\n3;4\n")}),
            422,
            "Le fichier « parc.csv » n'a pas pu être lu : un guillemet (\") ouvre une valeur qui n'est jamais refermée.",
        ),
        (
            "binary",
            json!({"name": "parc.csv", "content": b64(&[0u8, 159, 146, 150, 0, 1])}),
            422,
            "Le fichier « parc.csv » n'est pas un fichier texte CSV (il contient des données binaires).",
        ),
        (
            "duplicate columns",
            json!({"name": "parc.csv", "content": b64("Numéro;Adresse;NUMERO\n1;2;3\n".as_bytes())}),
            422,
            "Les colonnes A (« Numéro ») et C (« NUMERO ») portent le même nom : chaque colonne doit avoir un nom distinct.",
        ),
        (
            "unnamed column with data",
            json!({"name": "parc.xlsx", "content": b64(&xlsx(&[&["Numéro", "", "Ville"], &["A1", "x", "Lyon"]]))}),
            422,
            "La colonne B n'a pas de nom dans la ligne d'en-tête (ligne 1) alors qu'elle contient des valeurs : nommez-la ou supprimez-la.",
        ),
        (
            "value beyond the header",
            json!({"name": "parc.csv", "content": b64(b"A;B\n1;2\n3;4;5\n")}),
            422,
            "Ligne 3, colonne C : une valeur se trouve hors des colonnes nommées par l'en-tête (ligne 1). Nommez cette colonne ou supprimez la valeur.",
        ),
        (
            "missing content",
            json!({"name": "parc.csv"}),
            422,
            "Le champ « content » est obligatoire.",
        ),
        (
            "unknown field",
            json!({"name": "parc.csv", "content": b64(b"A\n1\n"), "type": "csv"}),
            422,
            "Le champ « type » n'est pas reconnu.",
        ),
    ];
    for (what, body, status, message) in cases {
        let (got, answer) = w
            .send("/api/v2/imports/files", &w.org.admin_token, &body)
            .await;
        assert_eq!(
            (got, answer.clone()),
            (status, json!({"error": message})),
            "{what}"
        );
    }
    // Not JSON: 400.
    let response = w
        .server
        .client
        .post(w.server.url("/api/v2/imports/files"))
        .bearer_auth(&w.org.admin_token)
        .body("name=parc.csv")
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 400);
    // No token: 401.
    let response = w
        .server
        .client
        .post(w.server.url("/api/v2/imports/files"))
        .json(&json!({"name": "a.csv", "content": b64(b"A\n1\n")}))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 401);
    assert_eq!(w.count("SELECT COUNT(*) FROM import_files"), 0);
}

#[tokio::test]
async fn a_file_past_32_mio_is_refused_with_413_and_larger_bodies_than_1_mio_pass() {
    let w = world().await;
    let too_large = json!({"error": "Le fichier dépasse la taille maximale acceptée (32 Mio)."});
    // 33 Mio of CSV: the body (44 Mio of base64) is within the route's limit,
    // the decoded file is not.
    let mut big = b"Numero;Commentaire\n".to_vec();
    let line = format!("A;{}\n", "x".repeat(1000));
    while big.len() < 33 * 1024 * 1024 {
        big.extend_from_slice(line.as_bytes());
    }
    assert_eq!(w.upload("gros.csv", &big).await, (413, too_large.clone()));
    // A body past the route's limit (48 Mio): 413, same JSON error.
    let body = format!(
        "{{\"name\": \"enorme.csv\", \"content\": \"{}\"}}",
        "A".repeat(49 * 1024 * 1024)
    );
    let response = w
        .server
        .client
        .post(w.server.url("/api/v2/imports/files"))
        .bearer_auth(&w.org.admin_token)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 413);
    assert_eq!(response.json::<Value>().await.expect("json"), too_large);
    // 3 Mio of file (4 Mio of base64, past the 1 Mio of other bodies): read.
    let mut medium = b"Numero;Commentaire\n".to_vec();
    let mut n = 0;
    while medium.len() < 3 * 1024 * 1024 {
        n += 1;
        medium.extend_from_slice(format!("A{n};{}\n", "y".repeat(200)).as_bytes());
    }
    let (status, answer) = w.upload("moyen.csv", &medium).await;
    assert_eq!(status, 201, "{answer}");
    assert_eq!(answer["rows"], n);
    // Other operations keep the 1 Mio limit.
    let (status, _) = w
        .check(
            str_of(&answer, "fileId"),
            &json!({"target": "equipment", "pad": "z".repeat(2 * 1024 * 1024)}),
        )
        .await;
    assert_eq!(status, 413);
}

// -- The file, its expiry, its agency ----------------------------------------------

#[tokio::test]
async fn the_file_view_gives_targets_fields_suggestions_and_expires() {
    let w = world().await;
    let file_id = w
        .uploaded(
            "parc.csv",
            "N° appareil;Type;Adresse;CP;Ville;Charge utile (kg);Remarque\nA1;Ascenseur;3 rue X;69003;Lyon;630;RAS\n".as_bytes(),
        )
        .await;
    let (status, view) = w.view(&file_id, &w.member_token).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(
        keys(&view),
        set(&[
            "fileId",
            "name",
            "columns",
            "rows",
            "createdAt",
            "expiresAt",
            "verification",
            "import",
            "targets"
        ])
    );
    assert_eq!(view["fileId"], file_id.as_str());
    assert_eq!(view["rows"], 1);
    assert_eq!(view["verification"], Value::Null);
    assert_eq!(view["import"], Value::Null);
    let targets = view["targets"].as_array().expect("targets");
    let names: Vec<&str> = targets
        .iter()
        .map(|t| t["target"].as_str().expect("t"))
        .collect();
    assert_eq!(
        names,
        [
            "equipment",
            "clients",
            "contacts",
            "contracts",
            "price_indexes"
        ]
    );
    assert_eq!(
        keys(&targets[0]),
        set(&["target", "fields", "suggestedMapping"])
    );
    assert_eq!(
        targets[0]["suggestedMapping"],
        json!({
            "N° appareil": "number",
            "Type": "type",
            "Adresse": "adresse",
            "CP": "code_postal",
            "Ville": "ville",
            "Charge utile (kg)": "charge_utile",
        })
    );
    let fields = targets[0]["fields"].as_array().expect("fields");
    assert_eq!(keys(&fields[0]), set(&["id", "label"]));
    assert_eq!(
        fields[0],
        json!({"id": "number", "label": "Numéro de l'équipement"})
    );
    assert!(fields.iter().any(|f| f["id"] == "vitesse"));
    assert_eq!(
        targets[1]["suggestedMapping"],
        json!({"Adresse": "adresse", "CP": "code_postal", "Type": "type", "Ville": "ville"})
    );

    // Another organization: 404, for every operation.
    let not_found = json!({"error": "Fichier d'import introuvable (inconnu dans cette agence, ou expiré : un fichier est gardé 24 heures après son envoi)."});
    assert_eq!(
        w.view(&file_id, &w.other.admin_token).await,
        (404, not_found.clone())
    );
    for step in ["check", "import"] {
        let answer = w
            .send(
                &format!("/api/v2/imports/{file_id}/{step}"),
                &w.other.admin_token,
                &json!({"target": "equipment"}),
            )
            .await;
        assert_eq!(answer, (404, not_found.clone()), "{step}");
    }
    // Another agency of the same organization: 404 too.
    let second = cli_json(
        w.dir(),
        &[
            "agency",
            "create",
            "--organization",
            &w.org.organization_id,
            "--name",
            "Durand Sud",
        ],
    );
    let (status, answer) = w
        .server
        .get_with(
            &format!("/api/v2/imports/{file_id}"),
            Some(&w.org.admin_token),
            Some(str_of(&second, "id")),
        )
        .await;
    assert_eq!((status, answer), (404, not_found.clone()));
    assert_eq!(w.count("SELECT COUNT(*) FROM equipment"), 0);
    assert_eq!(w.view("pas-un-id", &w.org.admin_token).await.0, 404);

    // Expired: 404 at once, deleted by the purge (at start, then every minute).
    let expired = chrono::Utc::now()
        + chrono::Duration::hours(liftdesk::services::imports::FILE_LIFETIME_HOURS + 1);
    w.server
        .store
        .set_clock(std::sync::Arc::new(move || expired));
    assert_eq!(
        w.view(&file_id, &w.org.admin_token).await,
        (404, not_found.clone())
    );
    assert_eq!(
        w.check(&file_id, &json!({"target": "equipment"})).await,
        (404, not_found)
    );
    let World { server, .. } = w;
    let restarted = server
        .restart_adjusted(|state| state.with_clock(std::sync::Arc::new(move || expired)))
        .await;
    let started = Instant::now();
    loop {
        let left: i64 = open_db(restarted.data_dir.path())
            .query_row("SELECT COUNT(*) FROM import_files", [], |r| r.get(0))
            .expect("count");
        if left == 0 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "expired file not purged"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    restarted.stop().await;
}

// -- Check and import: clients ----------------------------------------------------

#[tokio::test]
async fn a_check_reports_a_bad_siret_on_row_7_naming_its_column_and_writes_nothing() {
    let w = world().await;
    let file_id = w.uploaded("clients.csv", &clients_csv(true)).await;
    let audit_before = w.count("SELECT COUNT(*) FROM audit_log");
    let (status, report) = w.check(&file_id, &json!({"target": "clients"})).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(
        keys(&report),
        set(&[
            "fileId",
            "target",
            "mapping",
            "ignoredColumns",
            "rowsTotal",
            "created",
            "updated",
            "refused",
            "rows"
        ])
    );
    assert_eq!(report["target"], "clients");
    assert_eq!(
        report["mapping"],
        json!({"Code client": "client_id", "Raison sociale": "nom", "SIRET": "siret", "E-mail": "email"})
    );
    assert_eq!(report["ignoredColumns"], json!([]));
    assert_eq!(
        (
            &report["rowsTotal"],
            &report["created"],
            &report["updated"],
            &report["refused"]
        ),
        (&json!(7), &json!(6), &json!(0), &json!(1))
    );
    let rows = report["rows"].as_array().expect("rows");
    let numbers: Vec<u64> = rows
        .iter()
        .map(|r| r["row"].as_u64().expect("row"))
        .collect();
    assert_eq!(numbers, [2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(
        rows[5],
        json!({
            "row": 7,
            "action": "refus",
            "id": null,
            "changes": [],
            "reasons": ["Colonne « SIRET » (C) : Champ « SIRET » : Le SIRET n'est pas valide (clé de contrôle incorrecte)."]
        })
    );
    assert_eq!(
        rows[0],
        json!({"row": 2, "action": "creation", "id": null, "changes": [], "reasons": []})
    );
    // Nothing written: no client, no audit entry.
    assert_eq!(w.count("SELECT COUNT(*) FROM clients"), 0);
    assert_eq!(w.count("SELECT COUNT(*) FROM audit_log"), audit_before);
    // The check is followed like an import.
    let (_, view) = w.view(&file_id, &w.org.admin_token).await;
    let run = &view["verification"];
    assert_eq!(
        keys(run),
        set(&[
            "target",
            "status",
            "rowsProcessed",
            "rowsTotal",
            "created",
            "updated",
            "refused",
            "startedAt",
            "finishedAt"
        ])
    );
    assert_eq!(run["status"], "terminee");
    assert_eq!(
        (&run["rowsProcessed"], &run["rowsTotal"]),
        (&json!(7), &json!(7))
    );
    assert_eq!(view["import"], Value::Null);

    // The import writes the six good rows, in one go, with their ids.
    let (status, imported) = w.import(&file_id, &json!({"target": "clients"})).await;
    assert_eq!(status, 200, "{imported}");
    assert_eq!(
        (
            &imported["created"],
            &imported["updated"],
            &imported["refused"]
        ),
        (&json!(6), &json!(0), &json!(1))
    );
    assert_eq!(imported["rows"][0]["id"], "CLI-001");
    assert_eq!(imported["rows"][5]["action"], "refus");
    assert_eq!(
        w.count(&format!(
            "SELECT COUNT(*) FROM clients WHERE agency_id = '{}'",
            w.org.agency_id
        )),
        6
    );
    let (name, siret, email): (String, String, String) = open_db(w.dir())
        .query_row(
            "SELECT nom, siret, email FROM clients WHERE client_ref = 'CLI-002'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .expect("client");
    assert_eq!(
        (name.as_str(), siret.as_str(), email.as_str()),
        ("Syndic n°2", SIRETS[1], "contact2@syndic.fr")
    );
    let (_, view) = w.view(&file_id, &w.org.admin_token).await;
    assert_eq!(view["import"]["status"], "terminee");
    assert_eq!(view["import"]["created"], 6);

    // The corrected file, uploaded again: the six are updated (nothing to
    // change), the seventh created; no duplicate.
    let fixed = w.uploaded("clients.csv", &clients_csv(false)).await;
    let (_, again) = w.import(&fixed, &json!({"target": "clients"})).await;
    assert_eq!(
        (&again["created"], &again["updated"], &again["refused"]),
        (&json!(1), &json!(6), &json!(0))
    );
    assert_eq!(again["rows"][0]["changes"], json!([]));
    assert_eq!(again["rows"][5]["action"], "creation");
    assert_eq!(w.count("SELECT COUNT(*) FROM clients"), 7);

    // Matched by SIRET when the file has no client_id, fields changed listed.
    let by_siret = w
        .uploaded(
            "maj.csv",
            format!(
                "SIRET;Téléphone;Statut\n{} ;01 02 03 04 05;prospect\n",
                SIRETS[2]
            )
            .as_bytes(),
        )
        .await;
    let (status, updated) = w.import(&by_siret, &json!({"target": "clients"})).await;
    assert_eq!(status, 200, "{updated}");
    assert_eq!(
        updated["rows"][0],
        json!({"row": 2, "action": "mise_a_jour", "id": "CLI-003", "changes": ["statut", "telephone"], "reasons": []})
    );
    assert_eq!(w.count("SELECT COUNT(*) FROM clients"), 7);
}

#[tokio::test]
async fn mappings_sent_are_checked_and_rights_are_enforced() {
    let w = world().await;
    let file_id = w
        .uploaded("parc.csv", "Ref;Adresse;Note\nA1;3 rue X;ok\n".as_bytes())
        .await;
    let refusals: Vec<(Value, &str)> = vec![
        (
            json!({"target": "equipment"}),
            "Aucune colonne n'est associée au numéro de l'équipement ni à son identifiant externe : il en faut au moins une pour retrouver ou créer les équipements. Aucune correspondance n'a été envoyée et celle que proposent les en-têtes ne suffit pas : envoyez le champ « mapping » (colonne → champ).",
        ),
        (
            json!({"target": "equipment", "mapping": {"Numéro": "number"}}),
            "La colonne « Numéro » du champ « mapping » n'existe pas dans le fichier : colonnes lues : « Ref », « Adresse », « Note ».",
        ),
        (
            json!({"target": "clients", "mapping": {"Ref": "numero"}}),
            "Le champ « numero » (colonne « Ref ») n'existe pas pour la cible « clients » : champs possibles : « client_id », « nom », « statut », « type », « email », « telephone », « adresse », « complement_adresse », « code_postal », « ville », « siren », « siret ».",
        ),
        (
            json!({"target": "equipment", "mapping": {"Ref": "number", "Note": "number"}}),
            "Le champ « Numéro de l'équipement » est associé à deux colonnes (« Note » et « Ref ») : une seule colonne par champ.",
        ),
        (
            json!({"target": "parc"}),
            "La valeur du champ « target » ne fait pas partie des valeurs autorisées.",
        ),
        (
            json!({"mapping": {}}),
            "Le champ « target » est obligatoire.",
        ),
    ];
    for (body, message) in refusals {
        assert_eq!(
            w.check(&file_id, &body).await,
            (422, json!({"error": message})),
            "{body}"
        );
    }
    // A mapping sent is used as it is: unlisted and null columns are ignored.
    let (status, report) = w
        .check(
            &file_id,
            &json!({"target": "equipment", "mapping": {"Ref": "number", "Note": null}}),
        )
        .await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["mapping"], json!({"Ref": "number"}));
    assert_eq!(report["ignoredColumns"], json!(["Adresse", "Note"]));

    // A member checks, but importing is an administrator's.
    let mapping = json!({"target": "equipment", "mapping": {"Ref": "number"}});
    let (status, _) = w
        .send(
            &format!("/api/v2/imports/{file_id}/check"),
            &w.member_token,
            &mapping,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        w.send(
            &format!("/api/v2/imports/{file_id}/import"),
            &w.member_token,
            &mapping
        )
        .await,
        (
            403,
            json!({"error": "Importer un fichier est réservé à un administrateur de l'agence."})
        )
    );
    assert_eq!(w.count("SELECT COUNT(*) FROM equipment"), 0);
}

// -- Equipment -------------------------------------------------------------------

#[tokio::test]
async fn equipment_rows_use_the_identity_and_catalog_rules_and_share_buildings() {
    let w = world().await;
    // A client to attach equipment to, by its name.
    let clients = w
        .uploaded(
            "clients.csv",
            "Code client;Raison sociale\nCLI-1;Syndic de l'Étoile\n".as_bytes(),
        )
        .await;
    assert_eq!(
        w.import(&clients, &json!({"target": "clients"})).await.0,
        200
    );
    let park = xlsx(&[
        &[
            "N° appareil",
            "Type",
            "Client",
            "Adresse",
            "CP",
            "Ville",
            "Charge utile (kg)",
            "Type d'entraînement",
            "Barrière immatérielle",
            "Commentaire",
        ],
        &[
            "ASC-001",
            "Ascenseur",
            "syndic de l'etoile",
            "3 rue de la Paix",
            "75002",
            "Paris",
            "630",
            "électrique",
            "oui",
            "RAS",
        ],
        &[
            "ASC-002",
            "Monte-charge",
            "CLI-1",
            "3, rue de la paix",
            "75002",
            "PARIS",
            "1 000",
            "Hydraulique",
            "non",
            "",
        ],
        &[
            "ASC-003",
            "Fusée",
            "Inconnu SA",
            "8 rue Haute",
            "",
            "",
            "six",
            "Diesel",
            "peut-être",
            "",
        ],
        &["", "Ascenseur", "", "", "", "", "", "", "", ""],
    ]);
    let file_id = w.uploaded("parc.xlsx", &park).await;
    let (status, report) = w.import(&file_id, &json!({"target": "equipment"})).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["ignoredColumns"], json!(["Commentaire"]));
    assert_eq!(
        (&report["created"], &report["updated"], &report["refused"]),
        (&json!(2), &json!(0), &json!(2))
    );
    assert_eq!(
        report["rows"][2]["reasons"],
        json!([
            "Colonne « Type » (B) : La valeur « Fusée » du champ « Type d'équipement » n'est pas autorisée : valeurs possibles : « Ascenseur », « Monte-charge », « Monte-voiture », « Élévateur », « Porte ou fermeture automatique ».",
            "Colonne « Client » (C) : aucun client de l'agence n'a l'identifiant ou le nom « Inconnu SA » : importez d'abord les clients.",
            "Colonne « Charge utile (kg) » (G) : Le champ « Charge utile » doit être un nombre positif ou nul.",
            "Colonne « Type d'entraînement » (H) : La valeur « Diesel » du champ « Type d'entraînement » n'est pas autorisée : valeurs possibles : « Électrique », « Hydraulique ».",
            "Colonne « Barrière immatérielle » (I) : Le champ « Barrière immatérielle » doit être vrai ou faux (true ou false).",
        ])
    );
    assert_eq!(
        report["rows"][3]["reasons"],
        json!([
            "Ni numéro d'équipement ni identifiant externe : cette ligne ne désigne aucun équipement."
        ])
    );
    let db = open_db(w.dir());
    let (kind, client, load, drive): (String, String, String, String) = db
        .query_row(
            "SELECT e.type, c.client_ref,
                (SELECT value FROM equipment_values WHERE equipment_id = e.id AND field_code = 'charge_utile'),
                (SELECT value FROM equipment_values WHERE equipment_id = e.id AND field_code = 'type_entrainement')
             FROM equipment e JOIN clients c ON c.id = e.client_id WHERE e.number = 'ASC-001'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .expect("equipment");
    assert_eq!(
        (
            kind.as_str(),
            client.as_str(),
            load.as_str(),
            drive.as_str()
        ),
        ("ascenseur", "CLI-1", "630", "\"Electrique\"")
    );
    // Same address written two ways: one building.
    assert_eq!(w.count("SELECT COUNT(*) FROM buildings"), 1);
    assert_eq!(
        w.count("SELECT COUNT(DISTINCT building_id) FROM equipment WHERE building_id IS NOT NULL"),
        1
    );

    // Found again by number, spaces and case ignored; only what differs changes.
    let update = w
        .uploaded(
            "maj.csv",
            "Numéro;Charge utile;Emplacement\nasc -001;630;Escalier B\nASC-002;1250;\n".as_bytes(),
        )
        .await;
    let (_, report) = w.import(&update, &json!({"target": "equipment"})).await;
    assert_eq!(report["rows"][0]["action"], "mise_a_jour");
    assert_eq!(report["rows"][0]["changes"], json!(["location"]));
    assert_eq!(report["rows"][1]["changes"], json!(["charge_utile"]));
    assert_eq!(w.count("SELECT COUNT(*) FROM equipment"), 2);
    // Found by its external identifier when the number is new: renumbered.
    let external = w
        .uploaded(
            "ext.csv",
            "Id externe;N° appareil\nX-9;ASC-002\n".as_bytes(),
        )
        .await;
    let (_, report) = w.import(&external, &json!({"target": "equipment"})).await;
    assert_eq!(report["rows"][0]["changes"], json!(["externalId"]));
    let renumber = w
        .uploaded(
            "renum.csv",
            "Id externe;N° appareil\nX-9;ASC-202\nX-10;ASC-001\n".as_bytes(),
        )
        .await;
    let (_, report) = w.import(&renumber, &json!({"target": "equipment"})).await;
    assert_eq!(report["rows"][0]["changes"], json!(["number"]));
    assert_eq!(report["rows"][1]["changes"], json!(["externalId"]));
    assert_eq!(
        w.count("SELECT COUNT(*) FROM equipment WHERE number = 'ASC-202' AND external_id = 'X-9'"),
        1
    );
}

// -- Contacts --------------------------------------------------------------------

#[tokio::test]
async fn contacts_are_attached_to_their_client_and_found_again_by_name_or_email() {
    let w = world().await;
    let clients = w
        .uploaded(
            "clients.csv",
            "Code client;Raison sociale\nCLI-1;Syndic de l'Étoile\nCLI-2;Foncière Dupont\n"
                .as_bytes(),
        )
        .await;
    assert_eq!(
        w.import(&clients, &json!({"target": "clients"})).await.0,
        200
    );
    let file_id = w
        .uploaded(
            "contacts.csv",
            "Client;Prénom;Nom;E-mail;Mobile;Fonction\n\
             CLI-1;Jeanne;Martin;jeanne@etoile.fr;06 01 02 03 04;Gardienne\n\
             Foncière Dupont;Paul;Durand;paul@dupont;;\n\
             Inconnu;Luc;Petit;;;\n\
             CLI-2;;;;;\n"
                .as_bytes(),
        )
        .await;
    let (status, report) = w.import(&file_id, &json!({"target": "contacts"})).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(
        report["mapping"],
        json!({"Client": "client", "Prénom": "prenom", "Nom": "nom", "E-mail": "email", "Mobile": "telephone", "Fonction": "fonction"})
    );
    assert_eq!(
        (&report["created"], &report["refused"]),
        (&json!(1), &json!(3))
    );
    assert_eq!(
        report["rows"][1]["reasons"],
        json!([
            "Colonne « E-mail » (D) : Le champ « E-mail » n'est pas une adresse e-mail valide."
        ])
    );
    assert_eq!(
        report["rows"][2]["reasons"],
        json!([
            "Colonne « Client » (A) : aucun client de l'agence n'a l'identifiant ou le nom « Inconnu » : importez d'abord les clients."
        ])
    );
    assert_eq!(
        report["rows"][3]["reasons"],
        json!(["Colonne « Nom » vide : le nom du contact est obligatoire."])
    );
    let contact_id = str_of(&report["rows"][0], "id").to_owned();
    let (nom, phone, role, client): (String, String, String, String) = open_db(w.dir())
        .query_row(
            "SELECT k.nom, k.telephone, k.fonction, c.client_ref FROM contacts k JOIN clients c ON c.id = k.client_id WHERE k.id = ?1",
            [&contact_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .expect("contact");
    assert_eq!(
        (nom.as_str(), phone.as_str(), role.as_str(), client.as_str()),
        ("Jeanne Martin", "06 01 02 03 04", "Gardienne", "CLI-1")
    );
    // Found again by name (accents and case ignored), then by e-mail.
    let again = w
        .uploaded(
            "contacts2.csv",
            "Client;Nom;E-mail;Téléphone\nCLI-1;JEANNE MARTIN;;01 99 99 99 99\nCLI-1;J. Martin;jeanne@etoile.fr;\n".as_bytes(),
        )
        .await;
    let (_, report) = w.import(&again, &json!({"target": "contacts"})).await;
    assert_eq!(
        report["rows"],
        json!([
            {"row": 2, "action": "mise_a_jour", "id": contact_id, "changes": ["nom", "telephone"], "reasons": []},
            {"row": 3, "action": "mise_a_jour", "id": contact_id, "changes": ["nom"], "reasons": []},
        ])
    );
    assert_eq!(w.count("SELECT COUNT(*) FROM contacts"), 1);
}

// -- A park of 50 000 equipment --------------------------------------------------------

const PARK_ROWS: usize = 50_000;

/// A park CSV: two equipment per building, a few technical data.
fn park_csv(rows: usize) -> Vec<u8> {
    let mut csv = String::from(
        "N° appareil;Type;Adresse;Code postal;Ville;Charge utile (kg);Vitesse (m/s);Marque;Nombre de niveaux desservis\n",
    );
    for i in 0..rows {
        csv.push_str(&format!(
            "ASC-{i:06};ascenseur;{} rue des Lilas;69{:03};Lyon;{};1,{};Otis;{}\n",
            i / 2 + 1,
            (i / 2) % 1000,
            400 + (i % 5) * 100,
            i % 10,
            3 + i % 12
        ));
    }
    csv.into_bytes()
}

#[tokio::test]
async fn a_park_of_50_000_equipment_is_imported_in_one_go_and_again_without_duplicates() {
    let w = world().await;
    let file_id = w.uploaded("parc.csv", &park_csv(PARK_ROWS)).await;
    let body = json!({"target": "equipment"});
    // The import, followed while it runs.
    let url = w.server.url(&format!("/api/v2/imports/{file_id}/import"));
    let client = w.server.client.clone();
    let token = w.org.admin_token.clone();
    let running = tokio::spawn(async move {
        let response = client
            .post(url)
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        (status, response.json::<Value>().await.expect("json"))
    });
    let mut seen_running = false;
    while !running.is_finished() {
        let (status, view) = w.view(&file_id, &w.org.admin_token).await;
        assert_eq!(status, 200);
        if view["import"]["status"] == "en_cours" {
            let processed = view["import"]["rowsProcessed"].as_u64().expect("processed");
            assert!(processed <= PARK_ROWS as u64);
            assert_eq!(view["import"]["rowsTotal"], PARK_ROWS);
            seen_running = true;
            // A second run of the same file waits for this one.
            let (status, _) = w.check(&file_id, &json!({"target": "equipment"})).await;
            assert!(status == 409 || status == 200, "{status}");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let (status, report) = running.await.expect("join");
    assert_eq!(status, 200, "{report}");
    assert!(seen_running, "the import was never seen running");
    assert_eq!(
        (&report["created"], &report["updated"], &report["refused"]),
        (&json!(PARK_ROWS), &json!(0), &json!(0))
    );
    assert_eq!(report["rows"].as_array().map(Vec::len), Some(PARK_ROWS));
    assert_eq!(w.count("SELECT COUNT(*) FROM equipment"), PARK_ROWS as i64);
    assert_eq!(
        w.count("SELECT COUNT(*) FROM buildings"),
        (PARK_ROWS / 2) as i64
    );
    assert_eq!(
        w.count("SELECT COUNT(*) FROM equipment_values"),
        (PARK_ROWS * 4) as i64
    );
    let (_, view) = w.view(&file_id, &w.org.admin_token).await;
    assert_eq!(view["import"]["status"], "terminee");
    assert_eq!(view["import"]["rowsProcessed"], PARK_ROWS);

    // The same file again: every row an update with nothing to change.
    let (status, again) = w.import(&file_id, &json!({"target": "equipment"})).await;
    assert_eq!(status, 200);
    assert_eq!(
        (&again["created"], &again["updated"], &again["refused"]),
        (&json!(0), &json!(PARK_ROWS), &json!(0))
    );
    assert!(
        again["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .all(|r| r["action"] == "mise_a_jour" && r["changes"] == json!([])),
        "second run: all mise_a_jour, nothing changed"
    );
    assert_eq!(w.count("SELECT COUNT(*) FROM equipment"), PARK_ROWS as i64);
    assert_eq!(
        w.count("SELECT COUNT(*) FROM buildings"),
        (PARK_ROWS / 2) as i64
    );
    assert_eq!(
        w.count("SELECT COUNT(*) FROM equipment_values"),
        (PARK_ROWS * 4) as i64
    );
}

// -- kill -9 in the middle of an import -----------------------------------------------

/// The real `liftdesk serve`, killed on drop if still running.
struct Binary {
    child: Child,
    base_url: String,
    _stdout: BufReader<ChildStdout>,
}

impl Binary {
    fn start(data_dir: &Path) -> Binary {
        let mut child = crate::common::cli_command(data_dir)
            .args([
                "serve",
                "--bind",
                "127.0.0.1:0",
                "--connectivity-probe",
                "off",
            ])
            .env_remove("LIFTDESK_DATA_DIR")
            .env_remove("LIFTDESK_RATE_LIMIT")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start liftdesk serve");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut first_line = String::new();
        stdout.read_line(&mut first_line).expect("first line");
        let base_url = first_line.trim().to_owned();
        assert!(base_url.starts_with("http://127.0.0.1:"), "{base_url:?}");
        Binary {
            child,
            base_url,
            _stdout: stdout,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }

    /// SIGKILL, as `kill -9`: no shutdown code runs.
    fn kill_9(mut self) {
        self.child.kill().expect("kill -9");
        let status = self.child.wait().expect("wait");
        assert_eq!(status.signal(), Some(9), "killed by SIGKILL: {status:?}");
    }
}

impl Drop for Binary {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The park of the kill test, and the rows an import has processed when the
/// server is killed: on SQLite, enough for its uncommitted pages to have
/// spilled to the WAL file; PostgreSQL keeps them in its own transaction
/// whatever their number (and writes a row in 2.5 ms where SQLite takes
/// 0.6, each statement a round trip), so a smaller park proves as much.
fn kill_park() -> (usize, u64) {
    if crate::common::engine::on_postgres() {
        (10_000, 4_000)
    } else {
        (PARK_ROWS, 20_000)
    }
}

#[tokio::test]
async fn a_kill_9_in_the_middle_of_an_import_leaves_none_of_its_rows() {
    let (park_rows, kill_after_rows) = kill_park();
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Durand", "claire@durand.fr");
    let client = crate::common::http_client();
    let server = Binary::start(dir.path());
    let response = client
        .post(server.url("/api/v2/imports/files"))
        .bearer_auth(&org.admin_token)
        .json(&json!({"name": "parc.csv", "content": b64(&park_csv(park_rows))}))
        .send()
        .await
        .expect("upload");
    assert_eq!(response.status().as_u16(), 201);
    let file_id = str_of(&response.json::<Value>().await.expect("json"), "fileId").to_owned();

    let import = tokio::spawn({
        let client = client.clone();
        let url = server.url(&format!("/api/v2/imports/{file_id}/import"));
        let token = org.admin_token.clone();
        async move {
            client
                .post(url)
                .bearer_auth(token)
                .json(&json!({"target": "equipment"}))
                .send()
                .await
        }
    });
    // Wait until the import has written a good part of its rows in its
    // transaction (by then SQLite has spilled uncommitted pages to its WAL
    // file), then kill.
    let started = Instant::now();
    let processed = loop {
        let view: Value = client
            .get(server.url(&format!("/api/v2/imports/{file_id}")))
            .bearer_auth(&org.admin_token)
            .send()
            .await
            .expect("progress")
            .json()
            .await
            .expect("json");
        let processed = view["import"]["rowsProcessed"].as_u64().unwrap_or(0);
        if processed >= kill_after_rows {
            assert_eq!(view["import"]["status"], "en_cours", "{view}");
            break processed;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "import never started"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    server.kill_9();
    assert!(processed < park_rows as u64);
    let cut = import.await.expect("join");
    assert!(cut.is_err(), "the import's connection was cut: {cut:?}");

    // Restarted: either none or all of the import's rows, never part of them.
    let restarted = Binary::start(dir.path());
    let db = open_db(dir.path());
    let count = |sql: &str| -> i64 { db.query_row(sql, [], |r| r.get(0)).expect("count") };
    let equipment = count("SELECT COUNT(*) FROM equipment");
    let buildings = count("SELECT COUNT(*) FROM buildings");
    let values = count("SELECT COUNT(*) FROM equipment_values");
    let audited = count("SELECT COUNT(*) FROM audit_log WHERE action LIKE 'import.%'");
    let all = park_rows as i64;
    assert!(
        (equipment, buildings, values, audited) == (0, 0, 0, 0)
            || (equipment, buildings, values, audited) == (all, all / 2, all * 4, all),
        "half-written import: {equipment} equipment, {buildings} buildings, {values} values, {audited} audit entries"
    );
    eprintln!(
        "killed after {processed} rows of {park_rows}: {equipment} equipment in the database after the restart"
    );
    // The server works and the file is still there, with no run known.
    let view: Value = client
        .get(restarted.url(&format!("/api/v2/imports/{file_id}")))
        .bearer_auth(&org.admin_token)
        .send()
        .await
        .expect("view")
        .json()
        .await
        .expect("json");
    assert_eq!(view["rows"], park_rows);
    assert_eq!(view["import"], Value::Null);
    // And the import can be run again, to the end.
    let response = client
        .post(restarted.url(&format!("/api/v2/imports/{file_id}/import")))
        .bearer_auth(&org.admin_token)
        .json(&json!({"target": "equipment"}))
        .send()
        .await
        .expect("import");
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(count("SELECT COUNT(*) FROM equipment"), all);
}
