//! The Equipment screen's API (`/app/api/equipment…`): the park (search,
//! filters, paging), an equipment's page (identity and technical data
//! corrections under the REST rules, knowledge rate and missing fields,
//! downtime and repeat breakdowns with the repair quote), the maintenance
//! logbook, agency isolation and a member's rights.

use crate::common;

use chrono::{Duration, Utc};
use common::app::StaffClient;
use common::world::{World as Fixtures, morning};
use common::*;
use liftdesk::services::calls::CenterCallInput;
use liftdesk::services::equipment::NewEquipment;
use liftdesk::store::equipment::IdentityRow;
use serde_json::{Value, json};

const PASSWORD: &str = "motdepasse-solide";

struct Spec<'a> {
    number: &'a str,
    kind: Option<&'a str>,
    contract: Option<&'a str>,
    client: Option<&'a str>,
    building: Option<(&'a str, &'a str, &'a str, &'a str)>,
}

async fn equipment(fixtures: &Fixtures, spec: Spec<'_>) -> String {
    let building = match spec.building {
        Some((name, address, postal, city)) => Some(
            fixtures
                .building(Some(name), address, Some(postal), Some(city))
                .await,
        ),
        None => None,
    };
    fixtures
        .equipment_with(NewEquipment {
            identity: IdentityRow {
                number: Some(spec.number.to_owned()),
                equipment_type: spec.kind.map(str::to_owned),
                maintenance_contract: spec.contract.map(str::to_owned),
                ..IdentityRow::default()
            },
            building_id: building,
            client_ref: spec.client.map(str::to_owned),
        })
        .await
}

struct Call<'a> {
    reference: &'a str,
    kind: &'a str,
    description: &'a str,
    received: chrono::DateTime<Utc>,
    stopped: Option<chrono::DateTime<Utc>>,
    resolved: Option<chrono::DateTime<Utc>>,
    technician: Option<&'a str>,
}

/// A call the center (`key`) sent about the equipment numbered
/// `equipment` at `received`: the technician, if any, assigned a minute
/// later; when it was left stopped, the technician on site a minute before
/// `stopped`; resolved at `resolved`.
async fn call(fixtures: &Fixtures, key: &str, equipment: &str, c: Call<'_>) -> String {
    let call = fixtures
        .call_at(
            key,
            CenterCallInput {
                reference: c.reference.to_owned(),
                equipment: equipment.to_owned(),
                call_type: c.kind.to_owned(),
                description: c.description.to_owned(),
                caller: Some("Gardienne".to_owned()),
                received_at: None,
            },
            c.received,
        )
        .await;
    if let Some(technician) = c.technician {
        fixtures
            .assign_call_at(&call, technician, c.received + Duration::minutes(1))
            .await;
    }
    if let Some(stopped) = c.stopped {
        fixtures
            .move_call_at(&call, "sur_place", stopped - Duration::minutes(1))
            .await;
        fixtures.move_call_at(&call, "a_l_arret", stopped).await;
    }
    if let Some(resolved) = c.resolved {
        fixtures.move_call_at(&call, "resolue", resolved).await;
    }
    call
}

/// A visit of the equipment planned `days` ago (ahead when negative), by
/// the technician; when done, started that morning and completed 45
/// minutes later, signed by M. Gardien with the observations.
async fn visit(
    fixtures: &Fixtures,
    equipment: &str,
    technician: &str,
    days: i64,
    done: Option<&str>,
) -> String {
    let day = (Utc::now() - Duration::days(days)).date_naive();
    match done {
        None => fixtures.visit(equipment, Some(technician), day).await,
        Some(observations) => {
            let arrived = morning(day) + Duration::hours(1);
            fixtures
                .done_visit(
                    equipment,
                    Some(technician),
                    day,
                    (arrived, arrived + Duration::minutes(45)),
                    "M. Gardien",
                    Some(observations),
                )
                .await
        }
    }
}

fn member(server: &TestServer, agency: &str, email: &str) {
    server.cli_json(&[
        "user",
        "create",
        "--email",
        email,
        "--name",
        "Marc Membre",
        "--password",
        PASSWORD,
        "--agency",
        agency,
    ]);
}

fn numbers(page: &Value) -> Vec<&str> {
    page["results"]
        .as_array()
        .unwrap_or_else(|| panic!("results missing in {page}"))
        .iter()
        .map(|r| r["number"].as_str().unwrap_or("-"))
        .collect()
}

fn keys_of(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap_or_else(|| panic!("object expected, got {value}"))
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

/// Every field of the page's technical data.
fn fields(page: &Value) -> Vec<&Value> {
    page["technical"]
        .as_array()
        .expect("technical")
        .iter()
        .flat_map(|c| c["fields"].as_array().expect("fields").iter())
        .collect()
}

fn field<'a>(page: &'a Value, code: &str) -> &'a Value {
    fields(page)
        .into_iter()
        .find(|f| f["code"] == code)
        .unwrap_or_else(|| panic!("field {code} missing in {page}"))
}

/// A value the catalog accepts for that field.
fn valid_value(field: &Value) -> Value {
    match field["valueType"].as_str().expect("valueType") {
        "text" => json!("Relevé test"),
        "number" => json!(12.5),
        "integer" => json!(3),
        "boolean" => json!(true),
        "choice" => field["choices"][0].clone(),
        "multi" => json!([field["choices"][0].clone()]),
        other => panic!("unknown value type {other}"),
    }
}

/// Fills the first `count` fields that count in the rate and are unknown.
async fn fill(staff: &StaffClient, equipment: &str, count: usize) -> Value {
    let (status, page) = staff.get(&format!("/equipment/{equipment}")).await;
    assert_eq!(status, 200, "{page}");
    let mut body = serde_json::Map::new();
    for f in fields(&page)
        .into_iter()
        .filter(|f| f["counts"] == true && f["value"].is_null())
        .take(count)
    {
        body.insert(f["code"].as_str().expect("code").to_owned(), valid_value(f));
    }
    let (status, page) = staff
        .patch(
            &format!("/equipment/{equipment}/technical"),
            Value::Object(body),
        )
        .await;
    assert_eq!(status, 200, "{page}");
    page
}

struct World {
    server: TestServer,
    org: Org,
    asc1: String,
    asc2: String,
    pf3: String,
    foreign: String,
}

async fn world() -> World {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let here = Fixtures::in_agency(&server, &org.agency_id);
    here.client_named("CLI-1", "Syndic Dupont").await;
    here.client_named("CLI-2", "Gestion Horizon").await;
    let asc1 = equipment(
        &here,
        Spec {
            number: "ASC 1",
            kind: Some("ascenseur"),
            contract: Some("parc"),
            client: Some("CLI-1"),
            building: Some((
                "Résidence Les Tilleuls",
                "3 rue Émile Zola",
                "92300",
                "Levallois-Perret",
            )),
        },
    )
    .await;
    let asc2 = equipment(
        &here,
        Spec {
            number: "ASC 2",
            kind: Some("monte_charge"),
            contract: Some("hors_parc"),
            client: Some("CLI-2"),
            building: Some(("Tour Horizon", "12 avenue Foch", "75016", "Paris")),
        },
    )
    .await;
    let pf3 = equipment(
        &here,
        Spec {
            number: "PF 3",
            kind: Some("porte_fermeture"),
            contract: None,
            client: None,
            building: None,
        },
    )
    .await;
    let foreign = equipment(
        &Fixtures::in_agency(&server, &other.agency_id),
        Spec {
            number: "ASC 1",
            kind: Some("ascenseur"),
            contract: Some("parc"),
            client: None,
            building: Some(("Ailleurs", "1 rue Ailleurs", "69001", "Lyon")),
        },
    )
    .await;
    World {
        server,
        org,
        asc1,
        asc2,
        pf3,
        foreign,
    }
}

impl World {
    async fn staff(&self) -> StaffClient {
        StaffClient::sign_in(&self.server, &self.org.admin_email, PASSWORD).await
    }
}

#[tokio::test]
async fn the_park_is_searched_filtered_and_paged() {
    let w = world().await;
    let staff = w.staff().await;

    let (status, page) = staff.get("/equipment").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["total"], 3);
    assert_eq!(page["page"], 1);
    assert_eq!(page["limit"], 50);
    assert_eq!(numbers(&page), ["ASC 1", "ASC 2", "PF 3"]);
    let first = &page["results"][0];
    assert_eq!(
        keys_of(first),
        [
            "archivedAt",
            "building",
            "client",
            "id",
            "knowledgeBand",
            "knowledgeRate",
            "location",
            "maintenanceContract",
            "number",
            "type",
            "typeLabel"
        ]
    );
    assert_eq!(first["id"], w.asc1.as_str());
    assert_eq!(first["typeLabel"], "Ascenseur");
    assert_eq!(
        first["client"],
        json!({"id": "CLI-1", "name": "Syndic Dupont"})
    );
    assert_eq!(first["building"]["city"], "Levallois-Perret");
    assert_eq!(first["knowledgeRate"], 0.0);
    assert_eq!(first["knowledgeBand"], "faible");
    assert_eq!(page["results"][2]["client"], Value::Null);
    assert_eq!(page["results"][2]["building"], Value::Null);

    // Search: number, building, address, accents and case ignored, every word.
    for (q, expected) in [
        ("tilleuls", vec!["ASC 1"]),
        ("emile zola", vec!["ASC 1"]),
        ("FOCH paris", vec!["ASC 2"]),
        ("pf", vec!["PF 3"]),
        ("asc", vec!["ASC 1", "ASC 2"]),
        ("foch levallois", vec![]),
    ] {
        let (status, page) = staff
            .get(&format!("/equipment?q={}", q.replace(' ', "%20")))
            .await;
        assert_eq!(status, 200, "{page}");
        assert_eq!(numbers(&page), expected, "q={q}");
        assert_eq!(page["total"], expected.len(), "q={q}");
    }

    // Filters, alone and combined with the search.
    for (query, expected) in [
        ("type=monte_charge", vec!["ASC 2"]),
        ("contract=parc", vec!["ASC 1"]),
        ("contract=hors_parc", vec!["ASC 2"]),
        ("contract=aucun", vec!["PF 3"]),
        ("client=CLI-2", vec!["ASC 2"]),
        ("client=CLI-9", vec![]),
        ("q=asc&contract=parc", vec!["ASC 1"]),
        ("type=ascenseur&client=CLI-2", vec![]),
        ("knowledge=faible", vec!["ASC 1", "ASC 2", "PF 3"]),
        ("knowledge=bon", vec![]),
    ] {
        let (status, page) = staff.get(&format!("/equipment?{query}")).await;
        assert_eq!(status, 200, "{page}");
        assert_eq!(numbers(&page), expected, "{query}");
    }

    // Knowledge bands follow the data: PF 3 fully known, ASC 1 half known.
    let pf = fill(&staff, &w.pf3, 1000).await;
    assert_eq!(pf["knowledge"]["rate"], 100.0);
    let (_, asc) = staff.get(&format!("/equipment/{}", w.asc1)).await;
    let catalog = asc["knowledge"]["catalog"].as_u64().expect("catalog") as usize;
    let asc = fill(&staff, &w.asc1, catalog / 2).await;
    let rate = asc["knowledge"]["rate"].as_f64().expect("rate");
    assert!((40.0..70.0).contains(&rate), "rate {rate}");
    for (query, expected) in [
        ("knowledge=faible", vec!["ASC 2"]),
        ("knowledge=moyen", vec!["ASC 1"]),
        ("knowledge=bon", vec!["PF 3"]),
    ] {
        let (status, page) = staff.get(&format!("/equipment?{query}")).await;
        assert_eq!(status, 200, "{page}");
        assert_eq!(numbers(&page), expected, "{query}");
    }
    let (_, page) = staff.get("/equipment?q=pf").await;
    assert_eq!(page["results"][0]["knowledgeRate"], 100.0);
    assert_eq!(page["results"][0]["knowledgeBand"], "bon");

    // Paging.
    let (status, page) = staff.get("/equipment?limit=2&page=2").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["total"], 3);
    assert_eq!(numbers(&page), ["PF 3"]);
    let (_, page) = staff.get("/equipment?limit=2&page=5").await;
    assert_eq!(page["total"], 3);
    assert_eq!(numbers(&page), Vec::<&str>::new());

    // Refusals, in French.
    let (status, body) = staff.get("/equipment?type=fusee").await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        "Le filtre « type » doit valoir « ascenseur », « monte_charge », « monte_voiture », « elevateur », « porte_fermeture »."
    );
    let (status, body) = staff.get("/equipment?knowledge=excellent").await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        "Le filtre « knowledge » doit valoir « faible », « moyen », « bon », « 0_24 », « 25_49 », « 50_74 », « 75_99 », « 100 »."
    );
    let (status, body) = staff.get("/equipment?contract=oui").await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        "Le filtre « contract » doit valoir « parc », « hors_parc », « aucun »."
    );
    let (status, body) = staff
        .get(&format!("/equipment?q={}", "a".repeat(101)))
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        body["error"],
        "Le paramètre « q » ne doit pas dépasser 100 caractères."
    );
    let (status, _) = staff.get("/equipment?limit=0").await;
    assert_eq!(status, 422);

    // The client filter's choices.
    let (status, body) = staff.get("/equipment/clients?q=dupont").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({"results": [{"id": "CLI-1", "name": "Syndic Dupont"}]})
    );
}

#[tokio::test]
async fn identity_is_corrected_as_the_rest_api_does_and_erased_with_an_empty_value() {
    let w = world().await;
    let staff = w.staff().await;
    let path = format!("/equipment/{}/identity", w.asc1);

    let (status, page) = staff
        .patch(
            &path,
            json!({"number": " ASC 10 ", "serialNumber": "SN-4471", "location": "Hall B", "subtype": "Gearless", "contractNumber": "CT-2026-01"}),
        )
        .await;
    assert_eq!(status, 200, "{page}");
    let identity = &page["identity"];
    assert_eq!(identity["number"], "ASC 10");
    assert_eq!(identity["serialNumber"], "SN-4471");
    assert_eq!(identity["location"], "Hall B");
    assert_eq!(identity["subtype"], "Gearless");
    assert_eq!(identity["contractNumber"], "CT-2026-01");
    assert_eq!(identity["type"], "ascenseur");
    assert_eq!(page["typeLabel"], "Ascenseur");

    // Empty value and null erase; the other fields stay.
    let (status, page) = staff
        .patch(&path, json!({"location": "", "subtype": null}))
        .await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["identity"]["location"], Value::Null);
    assert_eq!(page["identity"]["subtype"], Value::Null);
    assert_eq!(page["identity"]["serialNumber"], "SN-4471");

    // Refusals, with the REST API's reasons.
    let (status, body) = staff.patch(&path, json!({"type": "fusée"})).await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        "La valeur « fusée » du champ « type » n'est pas autorisée : valeurs possibles : « ascenseur », « monte_charge », « monte_voiture », « elevateur », « porte_fermeture »."
    );
    let (status, body) = staff.patch(&path, json!({"number": "asc2"})).await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["error"].as_str().expect("error").contains("ASC 2"),
        "{body}"
    );
    let (status, body) = staff.patch(&path, json!({"couleur": "rouge"})).await;
    assert_eq!(status, 422, "{body}");
    let (status, body) = staff
        .patch(&path, json!({"location": "x".repeat(201)}))
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        "Le champ « location » ne doit pas dépasser 200 caractères."
    );
    // Nothing changed by the refusals.
    let (_, page) = staff.get(&format!("/equipment/{}", w.asc1)).await;
    assert_eq!(page["identity"]["number"], "ASC 10");
    assert_eq!(page["identity"]["type"], "ascenseur");

    // The audit log names the staff member.
    let (kind, actor): (String, String) = open_db(w.server.data_dir.path())
        .query_row(
            "SELECT actor_kind, actor_id FROM audit_log WHERE object_id = ?1 ORDER BY seq DESC LIMIT 1",
            [&w.asc1],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("audit");
    assert_eq!(
        (kind.as_str(), actor.as_str()),
        ("account", w.org.admin_id.as_str())
    );
}

#[tokio::test]
async fn technical_data_are_edited_with_units_refused_like_rest_and_raise_the_knowledge_rate() {
    let w = world().await;
    let staff = w.staff().await;
    let (status, page) = staff.get(&format!("/equipment/{}", w.asc1)).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(
        keys_of(&page),
        [
            "archivedAt",
            "building",
            "calls",
            "client",
            "downtime",
            "id",
            "identity",
            "knowledge",
            "quotes",
            "repeatBreakdowns",
            "surveys",
            "technical",
            "typeLabel",
            "visits"
        ]
    );
    // Grouped by component, the equipment itself first, with units.
    let components: Vec<&str> = page["technical"]
        .as_array()
        .expect("technical")
        .iter()
        .map(|c| c["label"].as_str().expect("label"))
        .collect();
    assert_eq!(components[0], "Appareil");
    assert!(components.contains(&"Porte de cabine"), "{components:?}");
    assert_eq!(field(&page, "charge_utile")["unit"], "kg");
    assert_eq!(field(&page, "vitesse")["unit"], "m/s");
    assert_eq!(field(&page, "porte_cabine_passage")["unit"], "mm");
    assert_eq!(field(&page, "charge_utile")["value"], Value::Null);
    let knowledge = &page["knowledge"];
    assert_eq!(knowledge["rate"], 0.0);
    assert_eq!(knowledge["known"], 0);
    let catalog = knowledge["catalog"].as_u64().expect("catalog");
    assert!(catalog > 10, "{knowledge}");
    let missing = knowledge["missing"].as_array().expect("missing");
    assert_eq!(missing.len() as u64, catalog);
    assert_eq!(missing[0]["code"], "charge_utile");
    assert_eq!(missing[0]["label"], "Charge utile");
    assert_eq!(missing[0]["unit"], "kg");
    assert_eq!(missing[0]["componentLabel"], "Appareil");
    let weight = knowledge["fieldWeight"].as_f64().expect("weight");
    assert_eq!(missing[0]["gain"].as_f64(), Some(weight));
    assert!((weight - 100.0 / catalog as f64).abs() < 0.06, "{weight}");
    // Fields of other types are not offered (no pit on a gate, no persons on a goods lift).
    let (_, gate) = staff.get(&format!("/equipment/{}", w.pf3)).await;
    assert!(
        fields(&gate)
            .iter()
            .all(|f| f["code"] != "gaine_profondeur_cuvette")
    );

    let path = format!("/equipment/{}/technical", w.asc1);
    // Partner names and catalog codes, numbers, a choice, a boolean, building details.
    let (status, page) = staff
        .patch(
            &path,
            json!({
                "charge_utile": 630,
                "vitesse": 1.6,
                "porte_cabine_type": "Battante",
                "porte_cabine_cellule": true,
                "nom_immeuble": "Les Tilleuls B",
            }),
        )
        .await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(field(&page, "charge_utile")["value"], 630);
    assert_eq!(field(&page, "vitesse")["value"], 1.6);
    assert_eq!(field(&page, "porte_cabine_type")["value"], "Battante");
    assert_eq!(field(&page, "porte_cabine_cellule")["value"], true);
    assert!(field(&page, "vitesse")["surveyedAt"].is_string());
    assert_eq!(page["building"]["name"], "Les Tilleuls B");
    assert_eq!(page["knowledge"]["known"], 4);
    let rate = page["knowledge"]["rate"].as_f64().expect("rate");
    assert!(rate > 0.0, "{rate}");
    let missing_codes: Vec<&str> = page["knowledge"]["missing"]
        .as_array()
        .expect("missing")
        .iter()
        .map(|m| m["code"].as_str().expect("code"))
        .collect();
    assert_eq!(missing_codes.len() as u64, catalog - 4);
    assert!(!missing_codes.contains(&"vitesse"));
    assert!(missing_codes.contains(&"course"));

    // The list shows the new rate.
    let (_, list) = staff.get("/equipment?q=asc%201").await;
    assert_eq!(list["results"][0]["knowledgeRate"].as_f64(), Some(rate));

    // Refusals, with the REST reasons, and nothing written.
    for (body, reason) in [
        (
            json!({"vitesse": -1}),
            "Le champ « vitesse » doit être un nombre positif ou nul.",
        ),
        (
            json!({"porte_cabine_type": "Tournante"}),
            "La valeur « Tournante » du champ « porte_cabine_type » n'est pas autorisée : valeurs possibles : « Automatique centrale », « Automatique latérale », « Battante », « Pliante », « Sans porte ».",
        ),
        (
            json!({"nombre_niveaux": 2.5}),
            "Le champ « nombre_niveaux » doit être un nombre entier compris entre 0 et 1000000.",
        ),
        (
            json!({"taux_connaissance": 80}),
            "Le champ « taux_connaissance » est en lecture seule : il est calculé à partir des données relevées.",
        ),
        (
            json!({"adresse": ""}),
            "Le champ « adresse » ne peut pas être effacé : un immeuble a toujours une adresse.",
        ),
    ] {
        let (status, answer) = staff.patch(&path, body.clone()).await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(answer["error"], reason, "{body}");
    }
    let (status, answer) = staff.patch(&path, json!({"couleur": "rouge"})).await;
    assert_eq!(status, 422);
    assert!(
        answer["error"]
            .as_str()
            .expect("error")
            .starts_with("Le champ « couleur » n'est pas reconnu"),
        "{answer}"
    );
    let (_, page) = staff.get(&format!("/equipment/{}", w.asc1)).await;
    assert_eq!(field(&page, "vitesse")["value"], 1.6);
    assert_eq!(page["knowledge"]["rate"].as_f64(), Some(rate));

    // null erases: the datum is missing again and the rate falls.
    let (status, page) = staff.patch(&path, json!({"vitesse": null})).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(field(&page, "vitesse")["value"], Value::Null);
    assert_eq!(page["knowledge"]["known"], 3);
    assert!(page["knowledge"]["rate"].as_f64().expect("rate") < rate);
}

#[tokio::test]
async fn downtime_and_repeat_breakdowns_come_from_the_calls_and_offer_a_repair_quote() {
    let w = world().await;
    let staff = w.staff().await;
    let fixtures = Fixtures::in_agency(&w.server, &w.org.agency_id);
    let key = fixtures.call_center_key("Centre d'appels").await;
    // The technician who leaves ASC 1 stopped after the vandalism (AP-4).
    let tech = fixtures.technician("Alice Martin", Some("Levallois")).await;
    let now = Utc::now();
    let day10 = now - Duration::days(10);
    // Two overlapping breakdowns: 0 h → 4 h and 2 h → 6 h, six hours in all.
    call(
        &fixtures,
        &key,
        "ASC 1",
        Call {
            reference: "AP-1",
            kind: "panne",
            description: "Cabine arrêtée au 2e.",
            received: day10,
            stopped: None,
            resolved: Some(day10 + Duration::hours(4)),
            technician: None,
        },
    )
    .await;
    call(
        &fixtures,
        &key,
        "ASC 1",
        Call {
            reference: "AP-2",
            kind: "personne_bloquee",
            description: "Une personne bloquée.",
            received: day10 + Duration::hours(2),
            stopped: None,
            resolved: Some(day10 + Duration::hours(6)),
            technician: None,
        },
    )
    .await;
    // A noise: the equipment still runs, no downtime (but a call of the window).
    call(
        &fixtures,
        &key,
        "ASC 1",
        Call {
            reference: "AP-3",
            kind: "bruit",
            description: "Bruit de frottement.",
            received: now - Duration::days(20),
            stopped: None,
            resolved: Some(now - Duration::days(19)),
            technician: None,
        },
    )
    .await;
    // Vandalism: 3 hours, of which 2 stopped.
    let day30 = now - Duration::days(30);
    call(
        &fixtures,
        &key,
        "ASC 1",
        Call {
            reference: "AP-4",
            kind: "vandalisme",
            description: "Boutons arrachés.",
            received: day30,
            stopped: Some(day30 + Duration::hours(1)),
            resolved: Some(day30 + Duration::hours(3)),
            technician: Some(&tech),
        },
    )
    .await;
    // More than 12 months ago: out of the period.
    call(
        &fixtures,
        &key,
        "ASC 1",
        Call {
            reference: "AP-5",
            kind: "panne",
            description: "Ancienne panne.",
            received: now - Duration::days(400),
            stopped: None,
            resolved: Some(now - Duration::days(399)),
            technician: None,
        },
    )
    .await;
    // ASC 2: two calls in 90 days, not repeated.
    for (i, days) in [5, 60].into_iter().enumerate() {
        call(
            &fixtures,
            &key,
            "ASC 2",
            Call {
                reference: &format!("AM-{i}"),
                kind: "panne",
                description: "Panne.",
                received: now - Duration::days(days),
                stopped: None,
                resolved: Some(now - Duration::days(days) + Duration::hours(1)),
                technician: None,
            },
        )
        .await;
    }

    let (status, page) = staff.get(&format!("/equipment/{}", w.asc1)).await;
    assert_eq!(status, 200, "{page}");
    let downtime = &page["downtime"];
    assert_eq!(downtime["totalMinutes"], 6 * 60 + 3 * 60, "{downtime}");
    assert_eq!(downtime["stoppedMinutes"], 120, "{downtime}");
    assert_eq!(downtime["calls"], 3, "{downtime}");
    let repeat = &page["repeatBreakdowns"];
    assert_eq!(repeat["flagged"], true, "{repeat}");
    assert_eq!(repeat["windowDays"], 90);
    assert_eq!(repeat["threshold"], 3);
    let refs: Vec<&str> = repeat["calls"]
        .as_array()
        .expect("calls")
        .iter()
        .map(|c| c["reference"].as_str().expect("reference"))
        .collect();
    assert_eq!(refs, ["AP-2", "AP-1", "AP-3", "AP-4"]);
    // The calls list: newest first, all of them counted.
    assert_eq!(page["calls"]["total"], 5);
    assert_eq!(page["calls"]["results"][0]["reference"], "AP-2");
    assert_eq!(page["calls"]["results"][0]["typeLabel"], "Personne bloquée");
    assert_eq!(page["calls"]["results"][0]["statusLabel"], "Résolue");

    let (_, other) = staff.get(&format!("/equipment/{}", w.asc2)).await;
    assert_eq!(other["repeatBreakdowns"]["flagged"], false);
    assert_eq!(other["downtime"]["totalMinutes"], 120);
    let (status, body) = staff
        .post(&format!("/equipment/{}/repair-quote", w.asc2), json!({}))
        .await;
    assert_eq!(status, 409);
    assert_eq!(
        body["error"],
        "Cet équipement n'a pas de pannes répétées : il faut au moins 3 appels reçus en 90 jours."
    );

    // One click: a draft quote through POST /quotes.
    let (status, created) = staff
        .post(&format!("/equipment/{}/repair-quote", w.asc1), json!({}))
        .await;
    assert_eq!(status, 201, "{created}");
    let quote = str_of(&created, "id").to_owned();
    assert_eq!(created["link"], format!("/devis/{quote}"));
    let (status, rest) = w
        .server
        .get_with(
            &format!("/api/v2/quotes/{quote}"),
            Some(&w.org.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 200, "{rest}");
    assert_eq!(rest["status"], "brouillon");
    assert_eq!(rest["origin"], "panne");
    assert_eq!(rest["object"], "Réparation suite à pannes répétées");
    assert_eq!(rest["rows"].as_array().expect("rows").len(), 1);
    assert_eq!(
        rest["rows"][0]["label"],
        "À compléter : réparation suite aux appels AP-2, AP-1, AP-3, AP-4"
    );
    assert_eq!(rest["equipment"]["id"], w.asc1.as_str());
    let (_, page) = staff.get(&format!("/equipment/{}", w.asc1)).await;
    assert_eq!(page["quotes"]["total"], 1);
    assert_eq!(page["quotes"]["results"][0]["id"], quote.as_str());
    assert_eq!(page["quotes"]["results"][0]["statusLabel"], "Brouillon");
    assert_eq!(
        page["quotes"]["results"][0]["link"],
        format!("/devis/{quote}")
    );
}

#[tokio::test]
async fn the_logbook_lists_visits_and_breakdowns_in_order_with_the_work_done() {
    let w = world().await;
    let staff = w.staff().await;
    let fixtures = Fixtures::in_agency(&w.server, &w.org.agency_id);
    let key = fixtures.call_center_key("Centre d'appels").await;
    let tech = fixtures.technician("Alice Martin", Some("Levallois")).await;
    let now = Utc::now();
    let old_visit = visit(
        &fixtures,
        &w.asc1,
        &tech,
        80,
        Some("Graissage des guides, contrôle du parachute."),
    )
    .await;
    let recent_visit = visit(
        &fixtures,
        &w.asc1,
        &tech,
        5,
        Some("Remplacement d'un galet de porte."),
    )
    .await;
    visit(&fixtures, &w.asc1, &tech, -7, None).await;
    call(
        &fixtures,
        &key,
        "ASC 1",
        Call {
            reference: "AP-9",
            kind: "panne",
            description: "Porte palière bloquée au RDC.",
            received: now - Duration::days(40),
            stopped: Some(now - Duration::days(40) + Duration::hours(1)),
            resolved: Some(now - Duration::days(39)),
            technician: Some(&tech),
        },
    )
    .await;
    // Another equipment's call stays out.
    call(
        &fixtures,
        &key,
        "ASC 2",
        Call {
            reference: "AM-1",
            kind: "panne",
            description: "Ailleurs.",
            received: now - Duration::days(30),
            stopped: None,
            resolved: None,
            technician: None,
        },
    )
    .await;

    let (status, book) = staff.get(&format!("/equipment/{}/logbook", w.asc1)).await;
    assert_eq!(status, 200, "{book}");
    assert_eq!(book["equipment"]["number"], "ASC 1");
    assert_eq!(
        book["equipment"]["building"]["name"],
        "Résidence Les Tilleuls"
    );
    assert_eq!(book["equipment"]["client"]["name"], "Syndic Dupont");
    assert_eq!(book["truncated"], false);
    let entries = book["entries"].as_array().expect("entries");
    let order: Vec<(&str, &str)> = entries
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().expect("kind"),
                e["id"].as_str().expect("id"),
            )
        })
        .collect();
    assert_eq!(order.len(), 3, "{book}");
    assert_eq!(order[0], ("visite", old_visit.as_str()));
    assert_eq!(order[1].0, "panne");
    assert_eq!(order[2], ("visite", recent_visit.as_str()));
    let first = &entries[0];
    assert_eq!(first["title"], "Visite d'entretien");
    assert_eq!(first["technicianName"], "Alice Martin");
    assert_eq!(
        first["work"],
        "Graissage des guides, contrôle du parachute."
    );
    assert_eq!(first["outcome"], "Visite faite, bon signé par M. Gardien");
    assert!(first["startedAt"].is_string() && first["endedAt"].is_string());
    let breakdown = &entries[1];
    assert_eq!(breakdown["title"], "Panne : Panne");
    assert_eq!(breakdown["reference"], "AP-9");
    assert_eq!(breakdown["work"], "Porte palière bloquée au RDC.");
    assert_eq!(breakdown["technicianName"], "Alice Martin");
    assert_eq!(
        breakdown["outcome"],
        "Résolue (appareil laissé à l'arrêt en attente de réparation)"
    );
    assert!(breakdown["endedAt"].is_string());

    // The page's visit list has the planned one too, newest first.
    let (_, page) = staff.get(&format!("/equipment/{}", w.asc1)).await;
    assert_eq!(page["visits"]["total"], 3);
    assert_eq!(page["visits"]["results"][0]["statusLabel"], "Planifiée");
    assert_eq!(
        page["visits"]["results"][1]["technicianName"],
        "Alice Martin"
    );
}

#[tokio::test]
async fn another_agencys_equipment_is_not_found_and_a_member_corrects_as_over_rest() {
    let w = world().await;
    let staff = w.staff().await;
    let foreign = &w.foreign;
    for path in [
        format!("/equipment/{foreign}"),
        format!("/equipment/{foreign}/logbook"),
    ] {
        let (status, body) = staff.get(&path).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(body["error"], "Équipement introuvable.");
    }
    let (status, body) = staff
        .patch(
            &format!("/equipment/{foreign}/identity"),
            json!({"location": "x"}),
        )
        .await;
    assert_eq!(status, 404);
    assert_eq!(body["error"], "Équipement introuvable.");
    let (status, body) = staff
        .patch(
            &format!("/equipment/{foreign}/technical"),
            json!({"vitesse": 1}),
        )
        .await;
    assert_eq!(status, 404);
    assert_eq!(body["error"], "Équipement introuvable.");
    let (status, body) = staff
        .post(&format!("/equipment/{foreign}/repair-quote"), json!({}))
        .await;
    assert_eq!(status, 404);
    assert_eq!(body["error"], "Équipement introuvable.");
    let (_, list) = staff.get("/equipment?q=ailleurs").await;
    assert_eq!(list["total"], 0);

    // Signed out: 401.
    let anonymous = w
        .server
        .client
        .get(w.server.url("/app/api/equipment"))
        .send()
        .await
        .expect("request");
    assert_eq!(anonymous.status().as_u16(), 401);

    // A member reads and corrects, as the REST API lets him.
    member(&w.server, &w.org.agency_id, "marc@durand.fr");
    let marc = StaffClient::sign_in(&w.server, "marc@durand.fr", PASSWORD).await;
    let (status, list) = marc.get("/equipment").await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["total"], 3);
    let (status, page) = marc
        .patch(
            &format!("/equipment/{}/identity", w.asc2),
            json!({"location": "Quai de livraison"}),
        )
        .await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["identity"]["location"], "Quai de livraison");
    let (status, page) = marc
        .patch(
            &format!("/equipment/{}/technical", w.asc2),
            json!({"charge_utile": 1500}),
        )
        .await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(field(&page, "charge_utile")["value"], 1500);
    let (status, _) = marc.get(&format!("/equipment/{}/logbook", w.asc2)).await;
    assert_eq!(status, 200);
}
