//! REST API v2 imports of price indexes' values (target `price_indexes`): a
//! CSV or xlsx of values (BT48, ICHT-IME…) checked and imported through
//! `POST /imports/{fileId}/check` and `/import`, each row recorded by the
//! step of `POST /price-indexes` (its rules, its sentences, its journal)
//! and read back through `GET /price-indexes`; a month already recorded
//! corrected and reported as an update; every refused row with its exact
//! French reason, and nothing imported while one row is refused.

use crate::common;

use base64::Engine as _;
use common::*;
use reqwest::Method;
use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};
use serde_json::{Value, json};

struct World {
    server: TestServer,
    org: Org,
    member_token: String,
}

/// One agency, its administrator and a member with a token.
async fn world() -> World {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    member(&server, &org.agency_id, "membre@durand.fr", &[]);
    let token = server.cli_json(&[
        "token",
        "create",
        "--email",
        "membre@durand.fr",
        "--name",
        "t",
    ]);
    World {
        member_token: str_of(&token, "token").to_owned(),
        server,
        org,
    }
}

impl World {
    async fn call(&self, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
        self.server
            .v2(method, path, &self.org.admin_token, body)
            .await
    }

    async fn upload_bytes(&self, name: &str, bytes: &[u8]) -> String {
        let content = base64::engine::general_purpose::STANDARD.encode(bytes);
        let (status, file) = self
            .call(
                Method::POST,
                "/imports/files",
                Some(json!({"name": name, "content": content})),
            )
            .await;
        assert_eq!(status, 201, "{file}");
        str_of(&file, "fileId").to_owned()
    }

    async fn upload(&self, csv: &str) -> String {
        self.upload_bytes("indices.csv", csv.as_bytes()).await
    }

    async fn pass(&self, file_id: &str, step: &str) -> (u16, Value) {
        self.call(
            Method::POST,
            &format!("/imports/{file_id}/{step}"),
            Some(json!({"target": "price_indexes"})),
        )
        .await
    }

    /// The agency's values (`GET /price-indexes`): (index, month, value).
    async fn values(&self) -> Vec<(String, String, f64)> {
        let (status, values) = self.call(Method::GET, "/price-indexes", None).await;
        assert_eq!(status, 200, "{values}");
        values
            .as_array()
            .expect("values")
            .iter()
            .map(|v| {
                (
                    str_of(v, "index").to_owned(),
                    str_of(v, "month").to_owned(),
                    v["value"].as_f64().expect("value"),
                )
            })
            .collect()
    }

    async fn record(&self, index: &str, month: &str, value: f64) {
        let (status, answer) = self
            .call(
                Method::POST,
                "/price-indexes",
                Some(json!({"index": index, "month": month, "value": value})),
            )
            .await;
        assert_eq!(status, 201, "{answer}");
    }
}

fn value(index: &str, month: &str, value: f64) -> (String, String, f64) {
    (index.to_owned(), month.to_owned(), value)
}

/// Each row's (number, action, id, changes, reasons).
fn rows(report: &Value) -> Vec<(u64, String, Value, Value, Value)> {
    report["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| {
            (
                row["row"].as_u64().expect("row"),
                str_of(row, "action").to_owned(),
                row["id"].clone(),
                row["changes"].clone(),
                row["reasons"].clone(),
            )
        })
        .collect()
}

/// Three values as an INSEE table or a French spreadsheet writes them: a
/// month in words, abbreviated or `MM/AAAA`, a decimal comma, a code in
/// lower case.
const GOOD: &str = "Indice;Mois;Valeur;Source\n\
BT48;janvier 2026;128,5;INSEE\n\
icht-ime;02/2026;118.25;INSEE\n\
BT48;févr. 2026;129,1234;\n";

#[tokio::test]
async fn a_file_of_three_values_is_checked_then_imported_and_read_back() {
    let w = world().await;
    let file_id = w.upload(GOOD).await;

    // The target, its fields and the mapping the headers suggest.
    let (status, view) = w
        .call(Method::GET, &format!("/imports/{file_id}"), None)
        .await;
    assert_eq!(status, 200, "{view}");
    let target = view["targets"]
        .as_array()
        .expect("targets")
        .iter()
        .find(|t| t["target"] == "price_indexes")
        .expect("price_indexes target")
        .clone();
    assert_eq!(
        target["fields"],
        json!([
            {"id": "indice", "label": "Indice (son code : BT48, ICHT-IME…)"},
            {"id": "mois", "label": "Mois (AAAA-MM, MM/AAAA ou janvier 2026)"},
            {"id": "valeur", "label": "Valeur (4 décimales au plus)"},
        ])
    );
    let mapping = json!({"Indice": "indice", "Mois": "mois", "Valeur": "valeur"});
    assert_eq!(target["suggestedMapping"], mapping);

    // The check writes nothing and says what the import would do.
    let (status, check) = w.pass(&file_id, "check").await;
    assert_eq!(status, 200, "{check}");
    assert_eq!(check["target"], "price_indexes");
    assert_eq!(check["mapping"], mapping);
    assert_eq!(check["ignoredColumns"], json!(["Source"]));
    assert_eq!(
        (&check["created"], &check["updated"], &check["refused"]),
        (&json!(3), &json!(0), &json!(0)),
        "{check}"
    );
    assert!(w.values().await.is_empty());

    // The import records the three values, in one go.
    let (status, report) = w.pass(&file_id, "import").await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(
        rows(&report),
        [
            (
                2,
                "creation".into(),
                json!("BT48/2026-01"),
                json!([]),
                json!([])
            ),
            (
                3,
                "creation".into(),
                json!("ICHT-IME/2026-02"),
                json!([]),
                json!([])
            ),
            (
                4,
                "creation".into(),
                json!("BT48/2026-02"),
                json!([]),
                json!([])
            ),
        ]
    );
    assert_eq!(
        w.values().await,
        [
            value("BT48", "2026-02", 129.1234),
            value("BT48", "2026-01", 128.5),
            value("ICHT-IME", "2026-02", 118.25),
        ]
    );

    // The journal: the API's entry for each value, and the import's.
    assert_eq!(
        audit_of(&w.server, "price_index", "BT48/2026-01"),
        [(
            "creation".to_owned(),
            json!({"index": "BT48", "month": "2026-01", "value": 128.5, "before": null})
        )]
    );
    let passes = audit_of(&w.server, "import_file", &file_id);
    let import = passes
        .iter()
        .find(|(action, _)| action == "import")
        .expect("import entry");
    assert_eq!(
        import.1,
        json!({"target": "price_indexes", "created": 3, "updated": 0, "refused": 0})
    );

    // The same file again: every value is there already, nothing changes.
    let (status, again) = w.pass(&file_id, "import").await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(
        (&again["created"], &again["updated"], &again["refused"]),
        (&json!(0), &json!(3), &json!(0)),
        "{again}"
    );
    for row in again["rows"].as_array().expect("rows") {
        assert_eq!(row["changes"], json!([]), "{row}");
    }
    assert_eq!(
        audit_of(&w.server, "price_index", "BT48/2026-01").len(),
        1,
        "an unchanged value writes no correction"
    );
}

#[tokio::test]
async fn a_month_already_recorded_is_corrected_and_reported_as_an_update() {
    let w = world().await;
    w.record("BT48", "2026-01", 128.0).await;
    w.record("BT48", "2026-02", 129.0).await;
    let file_id = w
        .upload(
            "Code;Période;Valeur de l'indice\n\
             BT48;2026-01;128,7\n\
             BT48;2026-02;129\n\
             BT48;2026-03;130\n",
        )
        .await;

    let (status, check) = w.pass(&file_id, "check").await;
    assert_eq!(status, 200, "{check}");
    assert_eq!(
        rows(&check),
        [
            (
                2,
                "mise_a_jour".into(),
                json!("BT48/2026-01"),
                json!(["valeur"]),
                json!([])
            ),
            (
                3,
                "mise_a_jour".into(),
                json!("BT48/2026-02"),
                json!([]),
                json!([])
            ),
            (4, "creation".into(), Value::Null, json!([]), json!([])),
        ]
    );
    assert_eq!(
        w.values().await,
        [
            value("BT48", "2026-02", 129.0),
            value("BT48", "2026-01", 128.0),
        ]
    );

    let (status, report) = w.pass(&file_id, "import").await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(
        (&report["created"], &report["updated"], &report["refused"]),
        (&json!(1), &json!(2), &json!(0)),
        "{report}"
    );
    assert_eq!(
        w.values().await,
        [
            value("BT48", "2026-03", 130.0),
            value("BT48", "2026-02", 129.0),
            value("BT48", "2026-01", 128.7),
        ]
    );
    // The correction is journaled as the API journals it.
    assert_eq!(
        audit_of(&w.server, "price_index", "BT48/2026-01"),
        [
            (
                "creation".to_owned(),
                json!({"index": "BT48", "month": "2026-01", "value": 128.0, "before": null})
            ),
            (
                "correction".to_owned(),
                json!({"index": "BT48", "month": "2026-01", "value": 128.7, "before": 128.0})
            ),
        ]
    );
    assert_eq!(
        audit_of(&w.server, "price_index", "BT48/2026-02").len(),
        1,
        "the same value is no correction"
    );
}

#[tokio::test]
async fn an_xlsx_of_values_is_read_with_its_date_and_number_cells() {
    let w = world().await;
    let mut workbook = Workbook::new();
    let sheet = workbook.add_worksheet();
    for (c, header) in ["Indice", "Mois", "Valeur"].iter().enumerate() {
        sheet.write_string(0, c as u16, *header).expect("header");
    }
    // A month a spreadsheet took for a date (its first day), and one in words.
    let month = Format::new().set_num_format("mmm-yy");
    sheet.write_string(1, 0, "BT48").expect("cell");
    sheet
        .write_datetime_with_format(
            1,
            1,
            ExcelDateTime::from_ymd(2026, 3, 1).expect("date"),
            &month,
        )
        .expect("cell");
    sheet.write_number(1, 2, 130.2).expect("cell");
    sheet.write_string(2, 0, "ICHT-IME").expect("cell");
    sheet.write_string(2, 1, "déc. 2025").expect("cell");
    sheet.write_number(2, 2, 117.0).expect("cell");
    let bytes = workbook.save_to_buffer().expect("xlsx");
    let file_id = w.upload_bytes("indices.xlsx", &bytes).await;

    let (status, report) = w.pass(&file_id, "import").await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["created"], 2, "{report}");
    assert_eq!(
        w.values().await,
        [
            value("BT48", "2026-03", 130.2),
            value("ICHT-IME", "2025-12", 117.0),
        ]
    );
}

/// The reason of each refusal this import or the rules of
/// `POST /price-indexes` give, the column named.
const BAD_MONTH: &str = "Colonne « Mois » (B) : Le mois (« Mois ») s'écrit AAAA-MM, par exemple 2027-01 (reçu : « 2026-13 »).";
const NEGATIVE: &str = "Colonne « Valeur » (C) : La valeur de l'indice (« Valeur ») doit être un nombre positif d'au plus 4 décimales (reçu : -3.5).";
const UNKNOWN_FORMAT: &str = "Colonne « Mois » (B) : Le mois (« Mois ») s'écrit AAAA-MM, par exemple 2027-01 (reçu : « T1 2026 »).";
const TWICE: &str = "La valeur de l'indice BT48 pour le mois 2026-01 figure déjà ligne 2 de ce fichier : un indice a une seule valeur par mois.";

#[tokio::test]
async fn each_refused_row_has_its_french_reason_and_nothing_is_imported() {
    let w = world().await;
    let file_id = w
        .upload(
            "Indice;Mois;Valeur\n\
             BT48;2026-01;128,5\n\
             BT48;2026-13;129\n\
             BT48;2026-03;-3,5\n\
             BT48;T1 2026;130\n\
             bt48;janv. 2026;131\n\
             BT 48;2026-04;130\n\
             BT48;2026-05;cent\n\
             BT48;2026-06;130,12345\n\
             BT48;;\n",
        )
        .await;
    let (status, check) = w.pass(&file_id, "check").await;
    assert_eq!(status, 200, "{check}");
    assert_eq!(
        (&check["created"], &check["updated"], &check["refused"]),
        (&json!(1), &json!(0), &json!(8)),
        "{check}"
    );
    let reasons: Vec<(u64, Value)> = rows(&check)
        .into_iter()
        .map(|(row, _, _, _, reasons)| (row, reasons))
        .collect();
    assert_eq!(
        reasons,
        [
            (2, json!([])),
            (3, json!([BAD_MONTH])),
            (4, json!([NEGATIVE])),
            (5, json!([UNKNOWN_FORMAT])),
            (6, json!([TWICE])),
            (
                7,
                json!([
                    "Colonne « Indice » (A) : Code d'indice invalide : « BT 48 » (1 à 30 lettres, chiffres, « - », « _ » ou « . », comme « BT48 » ou « ICHT-IME »)."
                ])
            ),
            (
                8,
                json!([
                    "Colonne « Valeur » (C) : Le champ « Valeur » doit être un nombre, par exemple 128,5 (reçu : « cent »)."
                ])
            ),
            (
                9,
                json!([
                    "Colonne « Valeur » (C) : La valeur de l'indice (« Valeur ») doit être un nombre positif d'au plus 4 décimales (reçu : 130.12345)."
                ])
            ),
            (
                10,
                json!([
                    "Colonne « Mois » vide : le mois de la valeur est obligatoire.",
                    "Colonne « Valeur » vide : la valeur de l'indice est obligatoire.",
                ])
            ),
        ]
    );
    assert!(w.values().await.is_empty());

    // The import writes nothing while a row is refused, not even row 2.
    let (status, refused) = w.pass(&file_id, "import").await;
    assert_eq!(status, 422, "{refused}");
    assert_eq!(
        refused["error"],
        format!(
            "Aucune valeur d'indice n'a été importée : un import de valeurs d'indices enregistre toutes ses lignes ou aucune, et 8 lignes sont refusées (lignes 3, 4, 5, 6, 7, 8, 9 et 10). Ligne 3 : {BAD_MONTH} Corrigez le fichier, envoyez-le de nouveau et vérifiez-le : la vérification donne la raison de chaque ligne refusée."
        )
    );
    assert!(w.values().await.is_empty());
    assert!(audit_of(&w.server, "price_index", "BT48/2026-01").is_empty());
    let (_, view) = w
        .call(Method::GET, &format!("/imports/{file_id}"), None)
        .await;
    assert_eq!(view["import"]["target"], "price_indexes");
    assert_eq!(view["import"]["status"], "echouee");
    assert_eq!(view["import"]["refused"], 8);
}

#[tokio::test]
async fn one_bad_row_keeps_the_good_ones_out_with_its_exact_reason() {
    let w = world().await;
    // A value recorded beforehand, that a refused file must not correct.
    w.record("BT48", "2026-01", 127.0).await;
    for (bad_row, reason) in [
        ("BT48;2026-13;129", BAD_MONTH),
        ("BT48;2026-03;-3,5", NEGATIVE),
        ("BT48;T1 2026;130", UNKNOWN_FORMAT),
        ("BT48;janvier 2026;131", TWICE),
    ] {
        let file_id = w
            .upload(&format!(
                "Indice;Mois;Valeur\nBT48;2026-01;128,5\n{bad_row}\nICHT-IME;2026-01;118\n"
            ))
            .await;
        let (status, refused) = w.pass(&file_id, "import").await;
        assert_eq!(status, 422, "{bad_row}: {refused}");
        assert_eq!(
            refused["error"],
            format!(
                "Aucune valeur d'indice n'a été importée : un import de valeurs d'indices enregistre toutes ses lignes ou aucune, et 1 ligne est refusée (ligne 3). Ligne 3 : {reason} Corrigez le fichier, envoyez-le de nouveau et vérifiez-le : la vérification donne la raison de chaque ligne refusée."
            ),
            "{bad_row}"
        );
        assert_eq!(
            w.values().await,
            [value("BT48", "2026-01", 127.0)],
            "{bad_row}: nothing written"
        );
    }
    assert_eq!(
        audit_of(&w.server, "price_index", "BT48/2026-01").len(),
        1,
        "no correction journaled"
    );
}

#[tokio::test]
async fn importing_values_asks_an_administrator_and_the_right_to_change() {
    let w = world().await;
    let file_id = w.upload(GOOD).await;

    // A member checks (recording a value is theirs), but imports nothing.
    let (status, answer) = w
        .server
        .v2(
            Method::POST,
            &format!("/imports/{file_id}/check"),
            &w.member_token,
            Some(json!({"target": "price_indexes"})),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["created"], 3, "{answer}");
    let (status, answer) = w
        .server
        .v2(
            Method::POST,
            &format!("/imports/{file_id}/import"),
            &w.member_token,
            Some(json!({"target": "price_indexes"})),
        )
        .await;
    assert_eq!(status, 403, "{answer}");
    assert_eq!(
        answer["error"],
        "Importer un fichier est réservé à un administrateur de l'agence."
    );
    assert!(w.values().await.is_empty());

    // The service operator's account may not record values: not even the
    // check, which runs the recording.
    let (status, answer) =
        operator_checks_import(&w.server, &w.org.agency_id, &file_id, "price_indexes").await;
    assert_eq!(
        (status, answer),
        (403, json!({"error": OPERATOR_CHANGES_NOTHING}))
    );

    // A mapping without the three fields.
    let (status, answer) = w
        .call(
            Method::POST,
            &format!("/imports/{file_id}/check"),
            Some(json!({"target": "price_indexes", "mapping": {"Indice": "indice", "Mois": "mois", "Valeur": null}})),
        )
        .await;
    assert_eq!(status, 422, "{answer}");
    assert_eq!(
        answer["error"],
        "Aucune colonne n'est associée au champ « Valeur » : chaque valeur importée nomme son indice, son mois et sa valeur."
    );
    assert!(w.values().await.is_empty());
}
