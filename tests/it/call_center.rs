//! The call-center API (`/api/partners`): POST /calls and GET
//! /calls/{reference} over HTTP against the real router, with call-center
//! keys made by the CLI and equipment added by the operation.

use crate::common;

use std::num::NonZeroU32;

use chrono::{Duration, Utc};
use common::world::World;
use common::*;
use liftdesk::auth::rate_limit::RateLimit;
use liftdesk::clock;
use serde_json::{Value, json};

const UNAUTHORIZED: &str =
    "Authentification requise : clé de centre d'appels manquante, inconnue ou révoquée.";

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

struct Key {
    id: String,
    key: String,
}

fn call_center_key(server: &TestServer, agency: &str, center: &str) -> Key {
    let out = server.cli_json(&[
        "call-center-key",
        "create",
        "--agency",
        agency,
        "--name",
        center,
    ]);
    Key {
        id: str_of(&out, "id").to_owned(),
        key: str_of(&out, "key").to_owned(),
    }
}

async fn post_call(server: &TestServer, key: &str, body: &Value) -> (u16, Value) {
    let response = server
        .client
        .post(server.url("/api/partners/calls"))
        .header("Authorization", format!("Bearer {key}"))
        .json(body)
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn post_raw(server: &TestServer, key: &str, body: &str) -> (u16, Value) {
    let response = server
        .client
        .post(server.url("/api/partners/calls"))
        .header("Authorization", format!("Bearer {key}"))
        .header("Content-Type", "application/json")
        .body(body.to_owned())
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn track(server: &TestServer, key: &str, reference: &str) -> (u16, Value) {
    let response = server
        .client
        .get(server.url(&format!("/api/partners/calls/{reference}")))
        .header("Authorization", format!("Bearer {key}"))
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

fn body(reference: &str, number: &str) -> Value {
    json!({
        "reference": reference,
        "equipement": number,
        "type": "panne",
        "description": "Ascenseur bloqué au 3e étage.",
    })
}

fn calls_count(server: &TestServer) -> i64 {
    open_db(server.data_dir.path())
        .query_row("SELECT count(*) FROM calls", [], |r| r.get(0))
        .expect("count")
}

struct Fixture {
    server: TestServer,
    org: Org,
    key: Key,
    equipment: String,
}

async fn fixture() -> Fixture {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    let key = call_center_key(&server, &org.agency_id, "Astreinte Plus");
    let equipment = World::in_agency(&server, &org.agency_id)
        .lift("ASC 0042", None)
        .await;
    Fixture {
        server,
        org,
        key,
        equipment,
    }
}

#[tokio::test]
async fn opening_a_call_answers_201_then_200_with_the_same_call() {
    let Fixture {
        server,
        org,
        key,
        equipment,
    } = fixture().await;
    let (status, opened) = post_call(
        &server,
        &key.key,
        &json!({
            "reference": "CC-2026-000123",
            "equipement": "asc0042",
            "type": "personne_bloquee",
            "description": "  Une personne bloquée entre deux étages.  ",
            "appelant": "Mme Leroy, gardienne",
            "recuLe": "2020-01-02T08:30:00+01:00",
        }),
    )
    .await;
    // recuLe in the fixed past is out of the 24 h window: 422 first.
    assert_eq!(status, 422, "{opened}");
    assert!(str_of(&opened, "error").contains("« recuLe »"), "{opened}");

    let received = Utc::now() - Duration::minutes(7);
    let sent = json!({
        "reference": "CC-2026-000123",
        "equipement": "asc0042",
        "type": "personne_bloquee",
        "description": "  Une personne bloquée entre deux étages.  ",
        "appelant": "Mme Leroy, gardienne",
        "recuLe": received.with_timezone(&chrono::FixedOffset::east_opt(3600).expect("offset")).to_rfc3339(),
    });
    let (status, opened) = post_call(&server, &key.key, &sent).await;
    assert_eq!(status, 201, "{opened}");
    assert_eq!(keys_of(&opened), ["id", "libelle", "reference", "statut"]);
    let call_id = str_of(&opened, "id").to_owned();
    assert_eq!(
        opened,
        json!({ "id": call_id, "reference": "CC-2026-000123", "statut": "ouverte", "libelle": "Ouverte" })
    );

    // Stored: agency of the key, center, key, equipment matched by its number.
    let db = open_db(server.data_dir.path());
    let stored: (String, String, String, String, String, String, Option<String>, String) = db
        .query_row(
            "SELECT c.agency_id, cc.name, c.credential_id, c.equipment_id, c.type, c.description, c.caller, c.received_at
             FROM calls c JOIN call_centers cc ON cc.id = c.call_center_id WHERE c.id = ?1",
            [&call_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?)),
        )
        .expect("stored call");
    assert_eq!(stored.0, org.agency_id);
    assert_eq!(stored.1, "Astreinte Plus");
    assert_eq!(stored.2, key.id);
    assert_eq!(stored.3, equipment);
    assert_eq!(stored.4, "personne_bloquee");
    assert_eq!(stored.5, "Une personne bloquée entre deux étages.");
    assert_eq!(stored.6.as_deref(), Some("Mme Leroy, gardienne"));
    let stored_at = clock::parse_timestamp(&stored.7).expect("received_at");
    assert!((stored_at - received).num_milliseconds().abs() < 1000);
    assert!(stored.7.ends_with('Z'));
    let audit: (String, String) = db
        .query_row(
            "SELECT actor_kind, actor_id FROM audit_log WHERE object_id = ?1 AND action = 'ouverture'",
            [&call_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("audit");
    assert_eq!(audit, ("call_center_key".to_owned(), key.id.clone()));

    // The same reference again, even with another body: 200, same call.
    let (status, again) = post_call(&server, &key.key, &sent).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again, opened);
    let (status, again) = post_call(&server, &key.key, &body("CC-2026-000123", "ASC 0042")).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again, opened);
    assert_eq!(calls_count(&server), 1);

    // The agency reads it flagged as an emergency.
    let (status, read) = server
        .get_with(
            &format!("/api/v2/calls/{call_id}"),
            Some(&org.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(read["urgence"], json!(true));
    assert_eq!(read["center"]["name"], json!("Astreinte Plus"));

    // Tracking.
    let (status, tracked) = track(&server, &key.key, "CC-2026-000123").await;
    assert_eq!(status, 200, "{tracked}");
    assert_eq!(
        tracked,
        json!({
            "id": call_id, "reference": "CC-2026-000123", "statut": "ouverte",
            "libelle": "Ouverte", "arriveLe": null, "resoluLe": null,
        })
    );
    server.stop().await;
}

#[tokio::test]
async fn received_at_defaults_to_reception() {
    let Fixture { server, key, .. } = fixture().await;
    let before = Utc::now();
    let (status, opened) = post_call(&server, &key.key, &body("R-1", "ASC 0042")).await;
    assert_eq!(status, 201, "{opened}");
    let received: String = open_db(server.data_dir.path())
        .query_row(
            "SELECT received_at FROM calls WHERE id = ?1",
            [str_of(&opened, "id")],
            |r| r.get(0),
        )
        .expect("received_at");
    let at = clock::parse_timestamp(&received).expect("timestamp");
    assert!(at >= before - Duration::seconds(1) && at <= Utc::now());
    server.stop().await;
}

#[tokio::test]
async fn every_body_rule_at_under_and_over_its_bound() {
    let Fixture { server, key, .. } = fixture().await;
    let now = Utc::now();
    let mut n = 0;
    let mut reference = || {
        n += 1;
        format!("B-{n}")
    };
    // (change to the body, expected status, field named in the reason)
    let cases: Vec<(Value, u16, &str)> = vec![
        (json!({ "reference": "R".repeat(120) }), 201, ""),
        (json!({ "reference": "é".repeat(120) }), 201, ""),
        (json!({ "reference": "R".repeat(121) }), 422, "reference"),
        (json!({ "reference": "é".repeat(121) }), 422, "reference"),
        (json!({ "reference": "" }), 422, "reference"),
        (json!({ "reference": "   " }), 422, "reference"),
        (json!({ "appelant": "a".repeat(120) }), 201, ""),
        (json!({ "appelant": "à".repeat(120) }), 201, ""),
        (json!({ "appelant": "a".repeat(121) }), 422, "appelant"),
        (json!({ "appelant": null }), 201, ""),
        (json!({ "description": "ab" }), 422, "description"),
        (json!({ "description": "abc" }), 201, ""),
        (json!({ "description": "ééé" }), 201, ""),
        (json!({ "description": "x".repeat(1000) }), 201, ""),
        (json!({ "description": "ê".repeat(1000) }), 201, ""),
        (
            json!({ "description": "x".repeat(1001) }),
            422,
            "description",
        ),
        (json!({ "description": "   " }), 422, "description"),
        (
            json!({ "recuLe": (now - Duration::hours(23) - Duration::minutes(59)).to_rfc3339() }),
            201,
            "",
        ),
        (
            json!({ "recuLe": (now - Duration::hours(24) - Duration::minutes(1)).to_rfc3339() }),
            422,
            "recuLe",
        ),
        (
            json!({ "recuLe": (now + Duration::minutes(10)).to_rfc3339() }),
            422,
            "recuLe",
        ),
        (
            json!({ "recuLe": (now + Duration::hours(2)).to_rfc3339() }),
            422,
            "recuLe",
        ),
        (
            json!({ "recuLe": (now + Duration::minutes(1)).to_rfc3339() }),
            201,
            "",
        ),
        (json!({ "recuLe": "hier soir" }), 422, "recuLe"),
        (
            json!({ "recuLe": now.format("%Y-%m-%dT%H:%M:%S").to_string() }),
            422,
            "recuLe",
        ),
        (json!({ "recuLe": 1_700_000_000 }), 422, "recuLe"),
        (json!({ "type": "incendie" }), 422, "type"),
        (json!({ "type": "PANNE" }), 422, "type"),
        (json!({ "type": "bruit" }), 201, ""),
        (json!({ "type": "vandalisme" }), 201, ""),
        (json!({ "equipement": "ASC 9999" }), 422, "equipement"),
        (json!({ "equipement": "" }), 422, "equipement"),
        (json!({ "equipement": 42 }), 422, "equipement"),
        (json!({ "equipement": " a s c 0 0 4 2 " }), 201, ""),
        (json!({ "equipement": "ASC0042" }), 201, ""),
        (json!({ "equipement": "asc 0042" }), 201, ""),
        (json!({ "champ": "inconnu" }), 422, "champ"),
    ];
    for (change, expected, field) in cases {
        let mut sent = body(&reference(), "ASC 0042");
        for (name, value) in change.as_object().expect("object") {
            sent[name] = value.clone();
        }
        let (status, answer) = post_call(&server, &key.key, &sent).await;
        assert_eq!(status, expected, "{change} → {answer}");
        if expected == 422 {
            assert_eq!(keys_of(&answer), ["error"]);
            assert!(
                str_of(&answer, "error").contains(&format!("« {field} »")),
                "{change} → {answer}"
            );
        }
    }
    // Every required field, missing.
    for field in ["reference", "equipement", "type", "description"] {
        let mut sent = body(&reference(), "ASC 0042");
        sent.as_object_mut().expect("object").remove(field);
        let (status, answer) = post_call(&server, &key.key, &sent).await;
        assert_eq!(status, 422, "{field}");
        assert_eq!(
            answer,
            json!({ "error": format!("Le champ « {field} » est obligatoire.") })
        );
    }
    let before = calls_count(&server);
    // Malformed JSON or not an object: 400.
    for raw in [
        "{\"reference\": ",
        "[1, 2]",
        "\"texte\"",
        "42",
        "null",
        "{} x",
    ] {
        let (status, answer) = post_raw(&server, &key.key, raw).await;
        assert_eq!(status, 400, "{raw} → {answer}");
        assert_eq!(keys_of(&answer), ["error"]);
    }
    assert_eq!(calls_count(&server), before, "no call opened by a refusal");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twenty_concurrent_posts_of_one_reference_open_one_call() {
    let Fixture { server, key, .. } = fixture().await;
    let start = std::sync::Arc::new(tokio::sync::Barrier::new(20));
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let start = start.clone();
        let client = crate::common::http_client();
        let url = server.url("/api/partners/calls");
        let key = key.key.clone();
        tasks.push(tokio::spawn(async move {
            start.wait().await;
            let response = client
                .post(url)
                .header("Authorization", format!("Bearer {key}"))
                .json(&body("CC-RACE-1", "ASC 0042"))
                .send()
                .await
                .expect("request");
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.expect("json"))
        }));
    }
    let mut answers = Vec::new();
    for task in tasks {
        answers.push(task.await.expect("task"));
    }
    let created = answers.iter().filter(|(s, _)| *s == 201).count();
    let replayed = answers.iter().filter(|(s, _)| *s == 200).count();
    assert_eq!((created, replayed), (1, 19), "{answers:?}");
    let first = &answers[0].1;
    assert!(answers.iter().all(|(_, body)| body == first), "{answers:?}");
    assert_eq!(calls_count(&server), 1);
    let audits: i64 = open_db(server.data_dir.path())
        .query_row(
            "SELECT count(*) FROM audit_log WHERE action = 'ouverture' AND object_type = 'call'",
            [],
            |r| r.get(0),
        )
        .expect("audit");
    assert_eq!(audits, 1);
    server.stop().await;
}

/// Calls of several agencies and centers arriving at once (on PostgreSQL,
/// opened together in one transaction: `store::intake`): each new
/// reference opens one call with its one journal entry, written byte for
/// byte as serde_json writes it on both engines; a repeated one answers
/// the same call; an unknown lift is refused alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn calls_arriving_together_are_each_opened_once_with_their_journal_entry() {
    let Fixture {
        server, org, key, ..
    } = fixture().await;
    let north = call_center_key(&server, &org.agency_id, "Centre Nord");
    let other = init_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    World::in_agency(&server, &other.agency_id)
        .lift("ASC 0042", None)
        .await;
    let south = call_center_key(&server, &other.agency_id, "Centre Sud");
    // (key, reference, equipment number)
    let mut sends: Vec<(String, String, &str)> = Vec::new();
    for n in 0..8 {
        for center in [&key, &north, &south] {
            sends.push((center.key.clone(), format!("G-{n}"), "ASC 0042"));
        }
    }
    for n in 0..4 {
        sends.push((key.key.clone(), format!("G-{n}"), "ASC 0042"));
    }
    sends.push((south.key.clone(), "G-X".to_owned(), "ASC 9999"));
    let start = std::sync::Arc::new(tokio::sync::Barrier::new(sends.len()));
    let mut tasks = Vec::new();
    for (key, reference, number) in sends.clone() {
        let start = start.clone();
        let client = crate::common::http_client();
        let url = server.url("/api/partners/calls");
        tasks.push(tokio::spawn(async move {
            start.wait().await;
            let response = client
                .post(url)
                .header("Authorization", format!("Bearer {key}"))
                .json(&body(&reference, number))
                .send()
                .await
                .expect("request");
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.expect("json"))
        }));
    }
    let mut answers = std::collections::BTreeMap::<(String, String), Vec<(u16, Value)>>::new();
    for ((key, reference, _), task) in sends.iter().zip(tasks) {
        let answer = task.await.expect("task");
        answers
            .entry((key.clone(), reference.clone()))
            .or_default()
            .push(answer);
    }
    let unknown = &answers[&(south.key.clone(), "G-X".to_owned())];
    assert_eq!(
        unknown,
        &[(
            422,
            json!({"error": "Le champ « equipement » ne correspond à aucun appareil du parc de l'agence : « ASC 9999 »."})
        )]
    );
    for ((center, reference), replies) in &answers {
        if reference == "G-X" {
            continue;
        }
        let mut statuses: Vec<u16> = replies.iter().map(|(status, _)| *status).collect();
        statuses.sort_unstable();
        let repeated =
            center == &key.key && ["G-0", "G-1", "G-2", "G-3"].contains(&reference.as_str());
        let expected: &[u16] = if repeated { &[200, 201] } else { &[201] };
        assert_eq!(statuses, expected, "{reference}: {replies:?}");
        assert!(
            replies.iter().all(|(_, body)| body == &replies[0].1
                && body["reference"] == json!(reference)
                && body["statut"] == json!("ouverte")),
            "{replies:?}"
        );
    }
    assert_eq!(calls_count(&server), 24);
    // One opening per call, in the call's agency, at its creation, its
    // detail as serde_json writes it.
    let db = open_db(server.data_dir.path());
    let mut statement = db
        .prepare(
            "SELECT c.reference, c.call_center_id, c.equipment_id, l.detail,
                    l.agency_id = c.agency_id AND l.at = c.created_at
                    AND l.actor_kind = 'call_center_key' AND l.actor_id = c.credential_id
             FROM audit_log l JOIN calls c ON c.id = l.object_id
             WHERE l.action = 'ouverture' AND l.object_type = 'call'",
        )
        .expect("prepare");
    let entries: Vec<(String, String, String, String, bool)> = statement
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(entries.len(), 24, "{entries:?}");
    for (reference, center, equipment, detail, same) in &entries {
        assert_eq!(
            detail,
            &format!(
                "{{\"callCenter\":\"{center}\",\"equipment\":\"{equipment}\",\"reference\":\"{reference}\",\"type\":\"panne\",\"urgence\":false}}"
            )
        );
        assert!(same, "{reference}: agency, time and key of the entry");
    }
    server.stop().await;
}

#[tokio::test]
async fn centers_see_only_their_own_references() {
    let Fixture {
        server, org, key, ..
    } = fixture().await;
    let other_center = call_center_key(&server, &org.agency_id, "Télésecours Île-de-France");
    let (status, mine) = post_call(&server, &key.key, &body("REF-1", "ASC 0042")).await;
    assert_eq!(status, 201);
    // Same reference from another center: another call.
    let (status, theirs) = post_call(&server, &other_center.key, &body("REF-1", "ASC 0042")).await;
    assert_eq!(status, 201, "{theirs}");
    assert_ne!(mine["id"], theirs["id"]);
    assert_eq!(calls_count(&server), 2);

    let (status, only_theirs) =
        post_call(&server, &other_center.key, &body("REF-2", "ASC 0042")).await;
    assert_eq!(status, 201);
    let (status, answer) = track(&server, &key.key, "REF-2").await;
    assert_eq!(status, 404, "another center's reference");
    let (unknown_status, unknown) = track(&server, &key.key, "REF-404").await;
    assert_eq!(unknown_status, 404);
    assert_eq!(answer, unknown, "exactly like an unknown reference");
    assert_eq!(keys_of(&answer), ["error"]);
    assert!(!answer.to_string().contains(str_of(&only_theirs, "id")));
    let (status, tracked) = track(&server, &key.key, "REF-1").await;
    assert_eq!(status, 200);
    assert_eq!(tracked["id"], mine["id"]);

    // A center of another organization does not know our equipment.
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let foreign = call_center_key(&server, &other.agency_id, "Astreinte Plus");
    let (status, answer) = post_call(&server, &foreign.key, &body("REF-1", "ASC 0042")).await;
    assert_eq!(status, 422, "{answer}");
    assert!(str_of(&answer, "error").contains("« equipement »"));
    let (status, _) = track(&server, &foreign.key, "REF-1").await;
    assert_eq!(status, 404);

    // References with characters that need encoding in a path.
    let (status, _) = post_call(&server, &key.key, &body("CC/2026 n°7", "ASC 0042")).await;
    assert_eq!(status, 201);
    let (status, tracked) = track(&server, &key.key, "CC%2F2026%20n%C2%B07").await;
    assert_eq!(status, 200, "{tracked}");
    assert_eq!(tracked["reference"], json!("CC/2026 n°7"));
    server.stop().await;
}

/// A key that opened a call is kept by the server as a hint for its next
/// calls, confirmed in each call's transaction: revoked meanwhile (here by
/// the CLI, another process), every next call is refused with 401 before
/// anything else, whatever its body, and opens nothing.
#[tokio::test]
async fn a_key_revoked_after_its_first_call_is_refused_before_any_other_answer() {
    let Fixture { server, org, .. } = fixture().await;
    let unauthorized = json!({ "error": UNAUTHORIZED });
    let keys: Vec<Key> = (0..5)
        .map(|n| call_center_key(&server, &org.agency_id, &format!("Centre {n}")))
        .collect();
    for (n, key) in keys.iter().enumerate() {
        let (status, answer) =
            post_call(&server, &key.key, &body(&format!("K{n}-1"), "ASC 0042")).await;
        assert_eq!(status, 201, "{answer}");
        // The use is recorded once (the first call of the minute).
        let (status, _) = post_call(&server, &key.key, &body(&format!("K{n}-1"), "ASC 0042")).await;
        assert_eq!(status, 200);
    }
    for key in &keys {
        server.cli_json(&["token", "revoke", "--id", &key.id]);
    }
    let mut wrong_type = body("K2-2", "ASC 0042");
    wrong_type["type"] = json!("inconnu");
    let asked = [
        post_raw(&server, &keys[0].key, "[").await,
        post_call(&server, &keys[1].key, &body("K1-2", "ASC 9999")).await,
        post_call(&server, &keys[2].key, &wrong_type).await,
        post_call(&server, &keys[3].key, &body("K3-1", "ASC 0042")).await,
        post_call(&server, &keys[4].key, &body("K4-2", "ASC 0042")).await,
    ];
    for (n, answer) in asked.iter().enumerate() {
        assert_eq!((answer.0, &answer.1), (401, &unauthorized), "clé {n}");
    }
    // Forgotten since: refused at the door, and still nothing opened.
    for key in &keys {
        let (status, answer) = post_call(&server, &key.key, &body("K9-9", "ASC 0042")).await;
        assert_eq!((status, &answer), (401, &unauthorized));
    }
    assert_eq!(calls_count(&server), 5);
    // The journal names each opening once; the revoked keys' refusals
    // wrote nothing, their last use included.
    let (openings, used_since): (i64, i64) = open_db(server.data_dir.path())
        .query_row(
            "SELECT (SELECT count(*) FROM audit_log WHERE action = 'ouverture' AND object_type = 'call'),
                    (SELECT count(*) FROM credentials WHERE kind = 'call_center_key'
                       AND revoked_at IS NOT NULL AND last_used_at > revoked_at)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("journal");
    assert_eq!((openings, used_since), (5, 0));
    server.stop().await;
}

#[tokio::test]
async fn wrong_or_revoked_keys_get_401_and_revoked_calls_keep_their_key() {
    let Fixture {
        server, org, key, ..
    } = fixture().await;
    let (status, opened) = post_call(&server, &key.key, &body("REF-1", "ASC 0042")).await;
    assert_eq!(status, 201);
    let call_id = str_of(&opened, "id").to_owned();
    let unauthorized = json!({ "error": UNAUTHORIZED });
    for wrong in [
        format!("svc_{}", "x".repeat(32)),
        org.admin_token.clone(),
        "svc_court".to_owned(),
        String::new(),
    ] {
        let (status, answer) = post_call(&server, &wrong, &body("REF-9", "ASC 0042")).await;
        assert_eq!((status, &answer), (401, &unauthorized), "{wrong}");
        let (status, answer) = track(&server, &wrong, "REF-1").await;
        assert_eq!((status, &answer), (401, &unauthorized), "{wrong}");
    }
    // Without any header, and a body that would be refused: still 401 first.
    let response = server
        .client
        .get(server.url("/api/partners/calls/REF-1"))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 401);
    let (status, _) = post_raw(&server, "svc_inconnue", "[").await;
    assert_eq!(status, 401);

    server.cli_json(&["token", "revoke", "--id", &key.id]);
    let (status, answer) = post_call(&server, &key.key, &body("REF-2", "ASC 0042")).await;
    assert_eq!((status, &answer), (401, &unauthorized));
    let (status, answer) = track(&server, &key.key, "REF-1").await;
    assert_eq!((status, &answer), (401, &unauthorized));
    assert_eq!(calls_count(&server), 1);
    // The call still names the revoked key and its center.
    let (credential, revoked): (String, Option<String>) = open_db(server.data_dir.path())
        .query_row(
            "SELECT c.credential_id, k.revoked_at FROM calls c JOIN credentials k ON k.id = c.credential_id WHERE c.id = ?1",
            [&call_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("call");
    assert_eq!(credential, key.id);
    assert!(revoked.is_some());
    let (status, read) = server
        .get_with(
            &format!("/api/v2/calls/{call_id}"),
            Some(&org.admin_token),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(read["center"]["name"], json!("Astreinte Plus"));
    server.stop().await;
}

#[tokio::test]
async fn past_the_per_key_limit_429_with_retry_after() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Durand", "admin@durand.fr");
    let key = str_of(
        &cli_json(
            dir.path(),
            &[
                "call-center-key",
                "create",
                "--agency",
                &org.agency_id,
                "--name",
                "Astreinte Plus",
            ],
        ),
        "key",
    )
    .to_owned();
    let limit = RateLimit {
        per_minute: NonZeroU32::new(2).expect("2"),
        burst: NonZeroU32::new(2).expect("2"),
    };
    let server = TestServer::start_with(dir, limit).await;
    for _ in 0..2 {
        let (status, _) = track(&server, &key, "REF-1").await;
        assert_eq!(status, 404);
    }
    let response = server
        .client
        .get(server.url("/api/partners/calls/REF-1"))
        .header("Authorization", format!("Bearer {key}"))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 429);
    let retry: u64 = response
        .headers()
        .get("retry-after")
        .expect("Retry-After")
        .to_str()
        .expect("text")
        .parse()
        .expect("seconds");
    assert!(retry >= 1);
    server.stop().await;
}
