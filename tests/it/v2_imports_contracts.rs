//! REST API v2 imports of maintenance contracts (target `contracts`): a
//! spreadsheet of contracts checked and imported through `POST
//! /imports/{fileId}/check` and `/import`, each row a draft created by the
//! REST API's own step (read back through `GET /contracts/{id}`); every
//! refused row with its exact French reason (the API's sentences, the
//! column named), the lifts checked across the file and against the other
//! contracts, and nothing imported while one row is refused.
//! The clock is set: contract numbers and dates are exact.

use crate::common;

use std::sync::Arc;

use base64::Engine as _;
use chrono::NaiveDate;
use common::world::{World as Fixtures, morning};
use common::*;
use liftdesk::services::equipment::NewEquipment;
use liftdesk::store::equipment::IdentityRow;
use reqwest::Method;
use serde_json::{Value, json};

struct World {
    server: TestServer,
    org: Org,
    member_token: String,
}

async fn lift_of(server: &TestServer, agency: &str, number: &str, client: &str) -> String {
    Fixtures::in_agency(server, agency)
        .equipment_with(NewEquipment {
            identity: IdentityRow {
                number: Some(number.to_owned()),
                equipment_type: Some("ascenseur".to_owned()),
                ..IdentityRow::default()
            },
            building_id: None,
            client_ref: Some(client.to_owned()),
        })
        .await
}

/// One agency: the clients `CLI-1` (« Résidence Les Tilleuls ») and `CLI-2`
/// (« SCI du Parc »), the lifts `ASC-001` to `ASC-006` of `CLI-1` and
/// `ASC-900` of `CLI-2`; a member with a token; the clock on 10/01/2027.
async fn world() -> World {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    let here = Fixtures::in_agency(&server, &org.agency_id);
    here.client_named("CLI-1", "Résidence Les Tilleuls").await;
    here.client_named("CLI-2", "SCI du Parc").await;
    for number in [
        "ASC-001", "ASC-002", "ASC-003", "ASC-004", "ASC-005", "ASC-006",
    ] {
        lift_of(&server, &org.agency_id, number, "CLI-1").await;
    }
    lift_of(&server, &org.agency_id, "ASC-900", "CLI-2").await;
    member(&server, &org.agency_id, "membre@durand.fr", &[]);
    let token = server.cli_json(&[
        "token",
        "create",
        "--email",
        "membre@durand.fr",
        "--name",
        "t",
    ]);
    let at = morning(NaiveDate::from_ymd_opt(2027, 1, 10).expect("day"));
    server.store.set_clock(Arc::new(move || at));
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

    async fn upload(&self, csv: &str) -> String {
        let content = base64::engine::general_purpose::STANDARD.encode(csv.as_bytes());
        let (status, file) = self
            .call(
                Method::POST,
                "/imports/files",
                Some(json!({"name": "contrats.csv", "content": content})),
            )
            .await;
        assert_eq!(status, 201, "{file}");
        str_of(&file, "fileId").to_owned()
    }

    async fn pass(&self, file_id: &str, step: &str) -> (u16, Value) {
        self.call(
            Method::POST,
            &format!("/imports/{file_id}/{step}"),
            Some(json!({"target": "contracts"})),
        )
        .await
    }

    /// How many contracts the agency has (`GET /contracts`).
    async fn contracts(&self) -> i64 {
        let (status, page) = self.call(Method::GET, "/contracts", None).await;
        assert_eq!(status, 200, "{page}");
        page["total"].as_i64().expect("total")
    }

    async fn read(&self, id: &str) -> Value {
        let (status, contract) = self
            .call(Method::GET, &format!("/contracts/{id}"), None)
            .await;
        assert_eq!(status, 200, "{contract}");
        contract
    }
}

/// Three contracts, every way a spreadsheet writes its cells: a client by
/// `client_id` or by name, lifts in one cell (`;` or `,`, any case), dates
/// `JJ/MM/AAAA` or `AAAA-MM-JJ`, decimal commas, `€` and `%`, `oui`/`non`,
/// the codes' French names; empty cells take the API's defaults.
const GOOD: &str = "Client;Appareils;Type;Date de début;Durée (mois);Reconduction tacite;Préavis (mois);Prix annuel HT;Fréquence de facturation;Terme de facturation;TVA;Indice;Valeur de base de l'indice;Mois de la valeur de base;Intervalle des visites (jours);Astreinte;Délai d'arrivée hors heures ouvrées (minutes);Pénalité;Notes\n\
CLI-1;\"ASC-001; ASC-002\";Complet;01/02/2027;24;oui;2;1 250,50 €;Annuelle;À échoir;20 %;bt48;128,5;12/2026;35;oui;480;50;Accès par le parking\n\
Résidence Les Tilleuls;asc-003;normal;2027-03-01;;non;;900;;;5,5;;;;;;;;\n\
SCI du Parc;ASC-900;Étendu;15/01/2027;12;;;2000;Mensuelle;Échu;10;;;;;;;;\n";

#[tokio::test]
async fn a_contracts_file_is_checked_then_imported_as_drafts_and_refused_the_second_time() {
    let w = world().await;
    let file_id = w.upload(GOOD).await;

    // The target and its fields are offered with the others.
    let (status, view) = w
        .call(Method::GET, &format!("/imports/{file_id}"), None)
        .await;
    assert_eq!(status, 200, "{view}");
    let target = view["targets"]
        .as_array()
        .expect("targets")
        .iter()
        .find(|t| t["target"] == "contracts")
        .expect("contracts target")
        .clone();
    assert_eq!(
        target["fields"][1],
        json!({"id": "appareils", "label": "Appareils (leurs numéros, séparés par ; ou ,)"})
    );
    let mapping = json!({
        "Client": "client",
        "Appareils": "appareils",
        "Type": "type",
        "Date de début": "date_debut",
        "Durée (mois)": "duree_mois",
        "Reconduction tacite": "reconduction_tacite",
        "Préavis (mois)": "preavis_mois",
        "Prix annuel HT": "prix_annuel",
        "Fréquence de facturation": "frequence_facturation",
        "Terme de facturation": "terme_facturation",
        "TVA": "taux_tva",
        "Indice": "indice",
        "Valeur de base de l'indice": "valeur_base_indice",
        "Mois de la valeur de base": "mois_base_indice",
        "Intervalle des visites (jours)": "intervalle_visites_jours",
        "Astreinte": "astreinte",
        "Délai d'arrivée hors heures ouvrées (minutes)": "delai_arrivee_hors_heures_minutes",
        "Pénalité": "penalite_heure_retard",
        "Notes": "notes",
    });
    assert_eq!(target["suggestedMapping"], mapping);

    // The check writes nothing and says what the import would do.
    let (status, check) = w.pass(&file_id, "check").await;
    assert_eq!(status, 200, "{check}");
    assert_eq!(check["target"], "contracts");
    assert_eq!(check["mapping"], mapping);
    assert_eq!(
        (&check["created"], &check["updated"], &check["refused"]),
        (&json!(3), &json!(0), &json!(0)),
        "{check}"
    );
    for row in check["rows"].as_array().expect("rows") {
        assert_eq!(row["action"], "creation");
        assert_eq!(row["id"], Value::Null);
    }
    assert_eq!(w.contracts().await, 0);

    // The import: three drafts, in one go.
    let (status, report) = w.pass(&file_id, "import").await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["created"], 3, "{report}");
    assert_eq!(w.contracts().await, 3);
    let ids: Vec<String> = report["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| str_of(row, "id").to_owned())
        .collect();

    let first = w.read(&ids[0]).await;
    let lifts = |contract: &Value| -> Vec<String> {
        contract["lifts"]
            .as_array()
            .expect("lifts")
            .iter()
            .map(|l| str_of(l, "number").to_owned())
            .collect()
    };
    assert_eq!(first["number"], "CT-2027-00001");
    assert_eq!(first["status"], "brouillon");
    assert_eq!(first["client"]["id"], "CLI-1");
    assert_eq!(lifts(&first), ["ASC-001", "ASC-002"]);
    assert_eq!(first["type"], "complet");
    assert_eq!(first["startOn"], "2027-02-01");
    assert_eq!(first["durationMonths"], 24);
    assert_eq!(first["tacitRenewal"], true);
    assert_eq!(first["renewalMonths"], 12);
    assert_eq!(first["noticeMonths"], 2);
    assert_eq!(first["priceBasis"], "par_appareil");
    assert_eq!(first["annualPrice"], 1250.5);
    assert_eq!(first["annualTotal"], 2501.0);
    assert_eq!(first["billingFrequency"], "annuelle");
    assert_eq!(first["billingTiming"], "terme_a_echoir");
    assert_eq!(first["vatRate"], 20.0);
    assert_eq!(first["priceIndex"], "BT48");
    assert_eq!(first["baseIndexValue"], 128.5);
    assert_eq!(first["baseIndexMonth"], "2026-12");
    assert_eq!(first["visitIntervalDays"], 35);
    assert_eq!(first["onCallCoverage"], true);
    assert_eq!(first["weekendCoverage"], false);
    assert_eq!(first["arrivalMinutes"], 240);
    assert_eq!(first["arrivalOutOfHoursMinutes"], 480);
    assert_eq!(first["trappedPersonMinutes"], 60);
    assert_eq!(first["returnToServiceMinutes"], 2880);
    assert_eq!(first["penaltyPerLateHour"], 50.0);
    assert_eq!(first["notes"], "Accès par le parking");
    assert_eq!(first["actions"], json!(["activate"]));

    let second = w.read(&ids[1]).await;
    assert_eq!(second["number"], "CT-2027-00002");
    assert_eq!(second["status"], "brouillon");
    assert_eq!(second["client"]["id"], "CLI-1");
    assert_eq!(lifts(&second), ["ASC-003"]);
    assert_eq!(second["type"], "normal");
    assert_eq!(second["startOn"], "2027-03-01");
    assert_eq!(second["durationMonths"], 12);
    assert_eq!(second["tacitRenewal"], false);
    assert_eq!(second["noticeMonths"], 3);
    assert_eq!(second["annualPrice"], 900.0);
    assert_eq!(second["billingFrequency"], "trimestrielle");
    assert_eq!(second["billingTiming"], "terme_a_echoir");
    assert_eq!(second["vatRate"], 5.5);
    assert_eq!(second["priceIndex"], Value::Null);
    assert_eq!(second["visitIntervalDays"], 42);
    assert_eq!(second["onCallCoverage"], false);
    assert_eq!(second["arrivalOutOfHoursMinutes"], Value::Null);
    assert_eq!(second["penaltyPerLateHour"], 0.0);
    assert_eq!(second["notes"], Value::Null);

    let third = w.read(&ids[2]).await;
    assert_eq!(third["number"], "CT-2027-00003");
    assert_eq!(third["client"]["id"], "CLI-2");
    assert_eq!(lifts(&third), ["ASC-900"]);
    assert_eq!(third["type"], "etendu");
    assert_eq!(third["startOn"], "2027-01-15");
    assert_eq!(third["annualPrice"], 2000.0);
    assert_eq!(third["billingFrequency"], "mensuelle");
    assert_eq!(third["billingTiming"], "terme_echu");
    assert_eq!(third["vatRate"], 10.0);

    // The journal: the API's creation entry, and the import's.
    let journal = audit_of(&w.server, "contract", &ids[0]);
    assert_eq!(journal.len(), 1, "{journal:?}");
    assert_eq!(journal[0].0, "creation");
    assert_eq!(journal[0].1["number"], "CT-2027-00001");
    assert_eq!(journal[0].1["lifts"], 2);
    let passes = audit_of(&w.server, "import_file", &file_id);
    let import = passes
        .iter()
        .find(|(action, _)| action == "import")
        .expect("import entry");
    assert_eq!(
        import.1,
        json!({"target": "contracts", "created": 3, "updated": 0, "refused": 0})
    );

    // The same file again: its lifts are in the drafts just imported.
    let (status, again) = w.pass(&file_id, "check").await;
    assert_eq!(status, 200, "{again}");
    let reasons: Vec<Value> = again["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| row["reasons"].clone())
        .collect();
    assert_eq!(
        reasons,
        [
            json!([
                "Colonne « Appareils » (B) : L'appareil ASC-001 figure déjà dans le contrat CT-2027-00001, un brouillon : un appareil est sous un seul contrat (modifiez, activez ou supprimez ce brouillon plutôt que d'en créer un autre)."
            ]),
            json!([
                "Colonne « Appareils » (B) : L'appareil ASC-003 figure déjà dans le contrat CT-2027-00002, un brouillon : un appareil est sous un seul contrat (modifiez, activez ou supprimez ce brouillon plutôt que d'en créer un autre)."
            ]),
            json!([
                "Colonne « Appareils » (B) : L'appareil ASC-900 figure déjà dans le contrat CT-2027-00003, un brouillon : un appareil est sous un seul contrat (modifiez, activez ou supprimez ce brouillon plutôt que d'en créer un autre)."
            ]),
        ]
    );
    let (status, refused) = w.pass(&file_id, "import").await;
    assert_eq!(status, 422, "{refused}");
    assert_eq!(
        refused["error"],
        "Aucun contrat n'a été importé : un import de contrats enregistre toutes ses lignes ou aucune, et 3 lignes sont refusées (lignes 2, 3 et 4). Ligne 2 : Colonne « Appareils » (B) : L'appareil ASC-001 figure déjà dans le contrat CT-2027-00001, un brouillon : un appareil est sous un seul contrat (modifiez, activez ou supprimez ce brouillon plutôt que d'en créer un autre). Corrigez le fichier, envoyez-le de nouveau et vérifiez-le : la vérification donne la raison de chaque ligne refusée."
    );
    assert_eq!(w.contracts().await, 3);

    // Activation stays its own step; once in force, the API's own sentence.
    let (status, activated) = w
        .call(
            Method::POST,
            &format!("/contracts/{}/activate", ids[0]),
            None,
        )
        .await;
    assert_eq!(status, 201, "{activated}");
    let (status, again) = w.pass(&file_id, "check").await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(
        again["rows"][0]["reasons"],
        json!([
            "Colonne « Appareils » (B) : L'appareil ASC-001 est déjà couvert par le contrat actif CT-2027-00001 : un appareil est sous un seul contrat en vigueur (s'il a pris fin, constatez son échéance ou résiliez-le d'abord)."
        ])
    );
}

#[tokio::test]
async fn each_refused_row_has_its_french_reason_and_nothing_is_imported() {
    let w = world().await;
    // ASC-004 is under a contract in force.
    let (status, created) = w
        .call(
            Method::POST,
            "/contracts",
            Some(json!({
                "clientId": "CLI-1",
                "liftIds": [lift_id(&w, "ASC-004")],
                "type": "normal",
                "startOn": "2027-01-01",
                "annualPrice": 1000,
            })),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let active = str_of(&created, "id").to_owned();
    let (status, answer) = w
        .call(Method::POST, &format!("/contracts/{active}/activate"), None)
        .await;
    assert_eq!(status, 201, "{answer}");
    let before = w.contracts().await;
    assert_eq!(before, 1);

    let file_id = w
        .upload(
            "Client;Appareils;Type;Date de début;Prix annuel;Durée (mois);Week-end\n\
             CLI-1;ASC-001;normal;01/02/2027;1000;;\n\
             CLI-1;ASC-404;normal;01/02/2027;1000;;\n\
             CLI-1;ASC-002;Premium;01/02/2027;1000;;\n\
             CLI-1;ASC-001;normal;01/02/2027;1000;;\n\
             CLI-1;ASC-004;normal;01/02/2027;1000;;\n\
             CLI-1;ASC-003;normal;01/02/2027;1000;6;\n\
             Inconnu;ASC-005;normal;01/02/2027;mille;;peut-être\n\
             CLI-1;;;;;;\n\
             CLI-1;ASC-900;normal;01/02/2027;1000;;\n\
             CLI-1;ASC-006;normal;01/02/2027;1000;;oui\n",
        )
        .await;
    let (status, check) = w.pass(&file_id, "check").await;
    assert_eq!(status, 200, "{check}");
    assert_eq!(
        (&check["created"], &check["refused"]),
        (&json!(1), &json!(9)),
        "{check}"
    );
    let rows: Vec<(Value, Value)> = check["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| (row["row"].clone(), row["reasons"].clone()))
        .collect();
    let expected: Vec<(Value, Value)> = vec![
        (json!(2), json!([])),
        (
            json!(3),
            json!([
                "Colonne « Appareils » (B) : aucun appareil de l'agence n'a le numéro « ASC-404 » : importez d'abord le parc."
            ]),
        ),
        (
            json!(4),
            json!([
                "Colonne « Type » (C) : Type de contrat inconnu : « Premium ». Valeurs possibles : minimal, normal, etendu, complet."
            ]),
        ),
        (
            json!(5),
            json!([
                "Colonne « Appareils » (B) : l'appareil « ASC-001 » figure déjà ligne 2 de ce fichier : un appareil est sous un seul contrat."
            ]),
        ),
        (
            json!(6),
            json!([
                "Colonne « Appareils » (B) : L'appareil ASC-004 est déjà couvert par le contrat actif CT-2027-00001 : un appareil est sous un seul contrat en vigueur (s'il a pris fin, constatez son échéance ou résiliez-le d'abord)."
            ]),
        ),
        (
            json!(7),
            json!([
                "Colonne « Durée (mois) » (F) : Le champ « Durée » doit être compris entre 12 et 120 mois (la loi demande un contrat d'un an au moins) (reçu : 6)."
            ]),
        ),
        (
            json!(8),
            json!([
                "Colonne « Client » (A) : aucun client de l'agence n'a l'identifiant ou le nom « Inconnu » : importez d'abord les clients.",
                "Colonne « Prix annuel » (E) : Le champ « Prix annuel HT » doit être un montant en euros, par exemple 1 250,50 (reçu : « mille »).",
                "Colonne « Week-end » (G) : Le champ « Week-ends couverts » doit être oui ou non (reçu : « peut-être »).",
            ]),
        ),
        (
            json!(9),
            json!([
                "Colonne « Appareils » vide : un contrat couvre au moins un appareil (leurs numéros, séparés par ; ou ,).",
                "Colonne « Type » vide : le type du contrat est obligatoire.",
                "Colonne « Date de début » vide : la date de début du contrat est obligatoire.",
                "Colonne « Prix annuel » vide : le prix annuel du contrat est obligatoire.",
            ]),
        ),
        (
            json!(10),
            json!([
                "Colonne « Appareils » (B) : L'appareil ASC-900 appartient à un autre client que « Résidence Les Tilleuls » : un contrat ne couvre que les appareils de son client."
            ]),
        ),
        (
            json!(11),
            json!([
                "Un contrat couvrant les nuits (astreinte) ou le week-end précise le délai d'arrivée hors heures ouvrées (« Délai d'arrivée hors heures ouvrées »)."
            ]),
        ),
    ];
    assert_eq!(rows, expected);
    assert_eq!(w.contracts().await, before);

    // The import writes nothing while a row is refused.
    let (status, refused) = w.pass(&file_id, "import").await;
    assert_eq!(status, 422, "{refused}");
    assert_eq!(
        refused["error"],
        "Aucun contrat n'a été importé : un import de contrats enregistre toutes ses lignes ou aucune, et 9 lignes sont refusées (lignes 3, 4, 5, 6, 7, 8, 9, 10 et 11). Ligne 3 : Colonne « Appareils » (B) : aucun appareil de l'agence n'a le numéro « ASC-404 » : importez d'abord le parc. Corrigez le fichier, envoyez-le de nouveau et vérifiez-le : la vérification donne la raison de chaque ligne refusée."
    );
    assert_eq!(w.contracts().await, before);
    let (_, view) = w
        .call(Method::GET, &format!("/imports/{file_id}"), None)
        .await;
    assert_eq!(view["import"]["target"], "contracts");
    assert_eq!(view["import"]["status"], "echouee");
    assert_eq!(view["import"]["refused"], 9);

    // A member checks (creating a contract is theirs), but imports nothing.
    let (status, answer) = w
        .server
        .v2(
            Method::POST,
            &format!("/imports/{file_id}/check"),
            &w.member_token,
            Some(json!({"target": "contracts"})),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let (status, answer) = w
        .server
        .v2(
            Method::POST,
            &format!("/imports/{file_id}/import"),
            &w.member_token,
            Some(json!({"target": "contracts"})),
        )
        .await;
    assert_eq!(status, 403, "{answer}");
    assert_eq!(w.contracts().await, before);

    // The service operator's account checks other files (a read), but the
    // check of contracts runs their creation, which it may not do.
    let (status, answer) =
        operator_checks_import(&w.server, &w.org.agency_id, &file_id, "contracts").await;
    assert_eq!(
        (status, answer),
        (403, json!({"error": OPERATOR_CHANGES_NOTHING}))
    );

    // A mapping without the fields a contract needs.
    let (status, answer) = w
        .call(
            Method::POST,
            &format!("/imports/{file_id}/check"),
            Some(json!({"target": "contracts", "mapping": {"Client": "client", "Appareils": "appareils", "Type": "type", "Date de début": "date_debut"}})),
        )
        .await;
    assert_eq!(status, 422, "{answer}");
    assert_eq!(
        answer["error"],
        "Aucune colonne n'est associée au champ « Prix annuel HT » : chaque contrat importé nomme son client, ses appareils, son type, sa date de début et son prix annuel."
    );
}

/// The id of a lift of the agency, by its number.
fn lift_id(w: &World, number: &str) -> String {
    open_db(w.server.data_dir.path())
        .query_row(
            "SELECT id FROM equipment WHERE number = ?1",
            [number],
            |r| r.get(0),
        )
        .expect("lift")
}
