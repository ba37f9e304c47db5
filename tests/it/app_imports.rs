//! The web application's imports wizard API (`/app/api/imports…`): the REST
//! API v2's shared functions with the staff session as caller — upload, the
//! file with its targets and suggested mapping, the check with per-row French
//! reasons, the import (administrators only, the REST's French 403), the
//! progress kept on the file, the CSRF token and the body limit.

use crate::common;

use base64::Engine as _;
use common::app::StaffClient;
use common::*;
use rust_xlsxwriter::Workbook;
use serde_json::{Value, json};

const CSRF_REFUSED: &str = "Jeton anti-CSRF manquant ou invalide : rechargez la page.";

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A park of `rows` lifts; row `bad` (spreadsheet row number) has an unknown type.
fn park(rows: usize, bad: Option<u32>) -> Vec<u8> {
    let mut workbook = Workbook::new();
    let sheet = workbook.add_worksheet();
    for (c, title) in ["N° appareil", "Type", "Adresse", "CP", "Ville", "Remarque"]
        .iter()
        .enumerate()
    {
        sheet.write_string(0, c as u16, *title).expect("header");
    }
    for i in 0..rows {
        let r = i as u32 + 1;
        let kind = if bad == Some(r + 1) {
            "Fusée"
        } else {
            "Ascenseur"
        };
        let cells = [
            format!("APP-{:04}", i + 1),
            kind.to_owned(),
            format!("{} rue de la Paix", i + 1),
            "75002".to_owned(),
            "Paris".to_owned(),
            String::new(),
        ];
        for (c, text) in cells.iter().enumerate() {
            if !text.is_empty() {
                sheet.write_string(r, c as u16, text).expect("cell");
            }
        }
    }
    workbook.save_to_buffer().expect("xlsx")
}

async fn upload(client: &StaffClient, name: &str, bytes: &[u8]) -> (u16, Value) {
    client
        .post(
            "/imports/files",
            json!({"name": name, "content": b64(bytes)}),
        )
        .await
}

#[tokio::test]
async fn an_administrator_uploads_checks_fixes_and_imports_through_the_session() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    init_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    let admin = StaffClient::sign_in(&server, "claire@durand.fr", "motdepasse-solide").await;

    let (status, file) = upload(&admin, "parc.xlsx", &park(20, Some(7))).await;
    assert_eq!(status, 201, "{file}");
    assert_eq!(file["name"], json!("parc.xlsx"));
    assert_eq!(file["rows"], json!(20));
    assert_eq!(
        file["columns"],
        json!(["N° appareil", "Type", "Adresse", "CP", "Ville", "Remarque"])
    );
    let file_id = file["fileId"].as_str().expect("fileId").to_owned();

    // The file, its targets and the suggested mapping.
    let (status, view) = admin.get(&format!("/imports/{file_id}")).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["verification"], Value::Null);
    assert_eq!(view["import"], Value::Null);
    let targets: Vec<&str> = view["targets"]
        .as_array()
        .expect("targets")
        .iter()
        .map(|t| t["target"].as_str().expect("target"))
        .collect();
    assert_eq!(
        targets,
        [
            "equipment",
            "clients",
            "contacts",
            "contracts",
            "price_indexes"
        ]
    );
    assert_eq!(
        view["targets"][0]["suggestedMapping"]["N° appareil"],
        json!("number")
    );
    assert_eq!(
        view["targets"][0]["suggestedMapping"]["Type"],
        json!("type")
    );

    // The check names the bad row and its column, in French; nothing written.
    let mapping = view["targets"][0]["suggestedMapping"].clone();
    let (status, report) = admin
        .post(
            &format!("/imports/{file_id}/check"),
            json!({"target": "equipment", "mapping": mapping}),
        )
        .await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(
        (&report["created"], &report["updated"], &report["refused"]),
        (&json!(19), &json!(0), &json!(1))
    );
    let refused: Vec<&Value> = report["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| r["action"] == json!("refus"))
        .collect();
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0]["row"], json!(7));
    let reason = refused[0]["reasons"][0].as_str().expect("reason");
    // The reason speaks the file's words: labels, never codes.
    assert_eq!(
        reason,
        "Colonne « Type » (B) : La valeur « Fusée » du champ « Type d'équipement » n'est pas autorisée : valeurs possibles : « Ascenseur », « Monte-charge », « Monte-voiture », « Élévateur », « Porte ou fermeture automatique »."
    );
    let (_, view) = admin.get(&format!("/imports/{file_id}")).await;
    assert_eq!(view["verification"]["status"], json!("terminee"));
    assert_eq!(view["verification"]["rowsProcessed"], json!(20));
    let db = open_db(server.data_dir.path());
    let count = |sql: &str| -> i64 { db.query_row(sql, [], |r| r.get(0)).expect("count") };
    assert_eq!(count("SELECT COUNT(*) FROM equipment"), 0);

    // The fixed file: checked clean, then imported; the progress is kept.
    let (status, fixed) = upload(&admin, "parc-corrige.xlsx", &park(20, None)).await;
    assert_eq!(status, 201, "{fixed}");
    let fixed_id = fixed["fileId"].as_str().expect("fileId").to_owned();
    let (status, report) = admin
        .post(
            &format!("/imports/{fixed_id}/check"),
            json!({"target": "equipment"}),
        )
        .await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["refused"], json!(0));
    let (status, report) = admin
        .post(
            &format!("/imports/{fixed_id}/import"),
            json!({"target": "equipment", "mapping": {"N° appareil": "number", "Type": "type", "Remarque": null}}),
        )
        .await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(
        (&report["created"], &report["updated"], &report["refused"]),
        (&json!(20), &json!(0), &json!(0))
    );
    assert_eq!(
        report["ignoredColumns"],
        json!(["Adresse", "CP", "Ville", "Remarque"])
    );
    let (_, view) = admin.get(&format!("/imports/{fixed_id}")).await;
    assert_eq!(view["import"]["status"], json!("terminee"));
    assert_eq!(view["import"]["rowsProcessed"], json!(20));
    assert_eq!(view["import"]["created"], json!(20));
    assert_eq!(
        count(&format!(
            "SELECT COUNT(*) FROM equipment WHERE agency_id = '{}'",
            org.agency_id
        )),
        20
    );
    // Imported again: updated, not duplicated ("unchanged" rows: no change).
    let (status, again) = admin
        .post(
            &format!("/imports/{fixed_id}/import"),
            json!({"target": "equipment", "mapping": {"N° appareil": "number", "Type": "type"}}),
        )
        .await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(
        (&again["created"], &again["updated"]),
        (&json!(0), &json!(20))
    );
    assert!(
        again["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .all(|r| r["changes"] == json!([]))
    );
    assert_eq!(count("SELECT COUNT(*) FROM equipment"), 20);

    // Another agency does not see the file.
    let martin = StaffClient::sign_in(&server, "paul@martin.fr", "motdepasse-solide").await;
    let (status, body) = martin.get(&format!("/imports/{fixed_id}")).await;
    assert_eq!(status, 404, "{body}");
}

#[tokio::test]
async fn a_member_checks_but_is_refused_the_import_and_csrf_and_formats_are_enforced() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    server.cli_json(&[
        "user",
        "create",
        "--email",
        "membre@durand.fr",
        "--name",
        "Membre",
        "--password",
        "motdepasse-solide",
        "--agency",
        &org.agency_id,
    ]);
    let member = StaffClient::sign_in(&server, "membre@durand.fr", "motdepasse-solide").await;
    let (status, file) = upload(&member, "parc.xlsx", &park(3, None)).await;
    assert_eq!(status, 201, "{file}");
    let file_id = file["fileId"].as_str().expect("fileId").to_owned();
    let body = json!({"target": "equipment"});
    let (status, report) = member
        .post(&format!("/imports/{file_id}/check"), body.clone())
        .await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(
        member
            .post(&format!("/imports/{file_id}/import"), body.clone())
            .await,
        (
            403,
            json!({"error": "Importer un fichier est réservé à un administrateur de l'agence."})
        )
    );
    let db = open_db(server.data_dir.path());
    let equipment: i64 = db
        .query_row("SELECT COUNT(*) FROM equipment", [], |r| r.get(0))
        .expect("count");
    assert_eq!(equipment, 0);

    // Without the CSRF token: refused, upload and import alike.
    for (path, payload) in [
        (
            "/app/api/imports/files".to_owned(),
            json!({"name": "parc.xlsx", "content": b64(&park(3, None))}),
        ),
        (format!("/app/api/imports/{file_id}/import"), body.clone()),
    ] {
        let response = member
            .http
            .post(server.url(&path))
            .json(&payload)
            .send()
            .await
            .expect("request");
        assert_eq!(response.status().as_u16(), 403, "{path}");
        let refusal: Value = response.json().await.expect("json");
        assert_eq!(refusal, json!({"error": CSRF_REFUSED}));
    }

    // The REST's refusals, in French.
    assert_eq!(upload(&member, "parc.pdf", b"%PDF").await.0, 422);
    let (status, body) = member.get("/imports/inconnu").await;
    assert_eq!(status, 404, "{body}");
    assert!(
        body["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{body}"
    );

    // The upload route takes bodies past the 1 Mio of other routes.
    let mut csv = String::from("N° appareil;Type\n");
    while csv.len() < 1_500_000 {
        csv.push_str(&format!("APP-{};Ascenseur\n", csv.len()));
    }
    let (status, big) = upload(&member, "gros.csv", csv.as_bytes()).await;
    assert_eq!(status, 201, "{big}");
}
