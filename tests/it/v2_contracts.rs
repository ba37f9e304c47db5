//! REST API v2: maintenance contracts (`/contracts`) and the values of the
//! price indexes (`/price-indexes`), end to end over HTTP: a contract's
//! whole life (draft, edit, activation, notice, expiry), every refusal with
//! its French text, one contract in force per lift, the lifts given the
//! contract's number and visit interval, the journal, the agency's scope.
//! The clock is set: the dates the terms give are exact.

use crate::common;

use chrono::NaiveDate;
use common::world::{World as Fixtures, morning};
use common::*;
use liftdesk::services::equipment::NewEquipment;
use liftdesk::store::equipment::IdentityRow;
use reqwest::Method;
use serde_json::{Value, json};
use std::sync::Arc;

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").expect("day")
}

struct World {
    server: TestServer,
    org: Org,
    other: Org,
    /// Lifts of the client `CLI-1` (« Résidence Les Tilleuls »).
    lifts: Vec<String>,
    /// A lift of the client `CLI-2`.
    other_client_lift: String,
    /// A lift of the other organization's agency.
    foreign_lift: String,
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

/// Two organizations; the clock on 10/01/2027 at 07:00 in Paris.
async fn world() -> World {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    let other = init_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    let here = Fixtures::in_agency(&server, &org.agency_id);
    here.client_named("CLI-1", "Résidence Les Tilleuls").await;
    here.client_named("CLI-2", "SCI du Parc").await;
    Fixtures::in_agency(&server, &other.agency_id)
        .client_named("CLI-1", "Ailleurs")
        .await;
    let mut lifts = Vec::new();
    for number in ["ASC-001", "ASC-002", "ASC-003"] {
        lifts.push(lift_of(&server, &org.agency_id, number, "CLI-1").await);
    }
    let other_client_lift = lift_of(&server, &org.agency_id, "ASC-900", "CLI-2").await;
    let foreign_lift = lift_of(&server, &other.agency_id, "ASC-001", "CLI-1").await;
    set_today(&server, "2027-01-10");
    World {
        server,
        org,
        other,
        lifts,
        other_client_lift,
        foreign_lift,
    }
}

fn set_today(server: &TestServer, today: &str) {
    let at = morning(day(today));
    server.store.set_clock(Arc::new(move || at));
}

impl World {
    async fn call(&self, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
        self.server
            .v2(method, path, &self.org.admin_token, body)
            .await
    }

    async fn create(&self, body: Value) -> String {
        let (status, created) = self.call(Method::POST, "/contracts", Some(body)).await;
        assert_eq!(status, 201, "{created}");
        created["id"].as_str().expect("id").to_owned()
    }

    async fn refused(&self, body: Value) -> (u16, String) {
        let (status, answer) = self.call(Method::POST, "/contracts", Some(body)).await;
        (
            status,
            answer["error"].as_str().unwrap_or_default().to_owned(),
        )
    }

    async fn read(&self, id: &str) -> Value {
        let (status, contract) = self
            .call(Method::GET, &format!("/contracts/{id}"), None)
            .await;
        assert_eq!(status, 200, "{contract}");
        contract
    }

    async fn act(&self, id: &str, action: &str, body: Option<Value>) -> (u16, Value) {
        self.call(Method::POST, &format!("/contracts/{id}/{action}"), body)
            .await
    }

    fn equipment(&self, id: &str) -> (Option<String>, Option<String>, i64) {
        open_db(self.server.data_dir.path())
            .query_row(
                "SELECT contract_number, maintenance_contract, visit_interval_days FROM equipment WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .expect("equipment")
    }
}

fn body(lifts: &[&String], start: &str) -> Value {
    json!({
        "clientId": "CLI-1",
        "liftIds": lifts,
        "type": "complet",
        "startOn": start,
        "annualPrice": 1200,
        "priceIndex": "bt48",
        "baseIndexValue": 128.5,
        "baseIndexMonth": "2026-12",
        "visitIntervalDays": 35,
    })
}

fn with(mut base: Value, changes: Value) -> Value {
    for (key, value) in changes.as_object().expect("object") {
        if value.is_null() {
            base.as_object_mut().expect("object").remove(key);
        } else {
            base[key] = value.clone();
        }
    }
    base
}

#[tokio::test]
async fn a_contract_is_drafted_edited_activated_terminated_and_its_lifts_follow() {
    let w = world().await;
    let (a, b, c) = (&w.lifts[0], &w.lifts[1], &w.lifts[2]);

    // The draft, with the defaults.
    let id = w.create(body(&[a, b], "2027-01-01")).await;
    let draft = w.read(&id).await;
    assert_eq!(draft["number"], "CT-2027-00001");
    assert_eq!(draft["status"], "brouillon");
    assert_eq!(draft["statusLabel"], "Brouillon");
    assert_eq!(draft["type"], "complet");
    assert_eq!(draft["typeLabel"], "Complet");
    assert!(
        draft["typeCoverage"]
            .as_str()
            .is_some_and(|t| t.starts_with("Tous les dépannages"))
    );
    assert_eq!(draft["client"]["id"], "CLI-1");
    assert_eq!(draft["client"]["name"], "Résidence Les Tilleuls");
    assert_eq!(
        draft["lifts"]
            .as_array()
            .expect("lifts")
            .iter()
            .map(|l| l["number"].as_str().expect("number"))
            .collect::<Vec<_>>(),
        ["ASC-001", "ASC-002"]
    );
    assert_eq!(draft["startOn"], "2027-01-01");
    assert_eq!(draft["durationMonths"], 12);
    assert_eq!(draft["tacitRenewal"], true);
    assert_eq!(draft["renewalMonths"], 12);
    assert_eq!(draft["noticeMonths"], 3);
    assert_eq!(draft["firstTermEndsOn"], "2027-12-31");
    assert_eq!(
        draft["currentTerm"],
        json!({"startOn": "2027-01-01", "endsOn": "2027-12-31"})
    );
    assert_eq!(draft["noticeDeadline"], "2027-10-01");
    assert_eq!(draft["lastDay"], Value::Null);
    assert_eq!(draft["covering"], false);
    assert_eq!(draft["priceBasis"], "par_appareil");
    assert_eq!(draft["annualPrice"], 1200.0);
    assert_eq!(draft["annualTotal"], 2400.0);
    assert_eq!(draft["billingFrequency"], "trimestrielle");
    assert_eq!(draft["billingTiming"], "terme_a_echoir");
    assert_eq!(draft["billingTimingLabel"], "Terme à échoir");
    assert_eq!(draft["vatRate"], 20.0);
    assert_eq!(draft["priceIndex"], "BT48");
    assert_eq!(draft["baseIndexValue"], 128.5);
    assert_eq!(draft["baseIndexMonth"], "2026-12");
    assert_eq!(draft["visitIntervalDays"], 35);
    assert_eq!(
        draft["duties"],
        json!([
            {"code": "cables", "label": "Contrôle des câbles", "months": 6},
            {"code": "parachute", "label": "Essai du parachute", "months": 12},
            {"code": "nettoyage", "label": "Nettoyage de la cuvette, du toit de cabine et du local des machines", "months": 12},
        ])
    );
    assert_eq!(draft["arrivalMinutes"], 240);
    assert_eq!(draft["arrivalOutOfHoursMinutes"], Value::Null);
    assert_eq!(draft["trappedPersonMinutes"], 60);
    assert_eq!(draft["returnToServiceMinutes"], 2880);
    assert_eq!(draft["weekendCoverage"], false);
    assert_eq!(draft["penaltyPerLateHour"], 0.0);
    assert_eq!(draft["actions"], json!(["activate"]));
    assert_eq!(draft["link"], format!("/contrats/{id}"));

    // The draft is edited: every field given again.
    let (status, edited) = w
        .call(
            Method::PUT,
            &format!("/contracts/{id}"),
            Some(with(
                body(&[a, b, c], "2027-01-01"),
                json!({
                    "type": "etendu",
                    "priceBasis": "global",
                    "annualPrice": 3000.5,
                    "vatRate": 10,
                    "onCallCoverage": true,
                    "arrivalOutOfHoursMinutes": 480,
                    "penaltyPerLateHour": 50,
                    "notes": "  Accès par le parking  ",
                }),
            )),
        )
        .await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(edited["type"], "etendu");
    assert_eq!(edited["lifts"].as_array().map(Vec::len), Some(3));
    assert_eq!(edited["annualTotal"], 3000.5);
    assert_eq!(edited["vatRate"], 10.0);
    assert_eq!(edited["arrivalOutOfHoursMinutes"], 480);
    assert_eq!(edited["penaltyPerLateHour"], 50.0);
    assert_eq!(edited["notes"], "Accès par le parking");
    assert_eq!(w.equipment(a), (None, None, 42));

    // In force: the lifts get its number and its visit interval.
    let (status, activated) = w.act(&id, "activate", None).await;
    assert_eq!(status, 201, "{activated}");
    assert_eq!(activated["id"], id.as_str());
    let active = w.read(&id).await;
    assert_eq!(active["status"], "actif");
    assert_eq!(active["covering"], true);
    assert!(active["activatedAt"].is_string());
    assert_eq!(active["actions"], json!(["terminate"]));
    for lift in [a, b, c] {
        assert_eq!(
            w.equipment(lift),
            (Some("CT-2027-00001".into()), Some("parc".into()), 35)
        );
    }

    // What was signed stays as it was.
    let (status, refused) = w
        .call(
            Method::PUT,
            &format!("/contracts/{id}"),
            Some(body(&[a], "2027-01-01")),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        refused["error"],
        "Le contrat CT-2027-00001 est au statut « Actif » : seul un brouillon se modifie ; ce que le client a signé reste tel quel."
    );
    let (status, refused) = w
        .call(Method::DELETE, &format!("/contracts/{id}"), None)
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        refused["error"],
        "Le contrat CT-2027-00001 est au statut « Actif » : seul un brouillon se supprime ; un contrat signé se résilie."
    );
    let (status, refused) = w.act(&id, "activate", None).await;
    assert_eq!(status, 422);
    assert_eq!(
        refused["error"],
        "Action refusée : impossible d'activer ce contrat au statut « Actif » : il est déjà en vigueur."
    );
    let (status, refused) = w.act(&id, "expire", None).await;
    assert_eq!(status, 422);
    assert_eq!(
        refused["error"],
        "Ce contrat est reconduit tacitement : il ne prend fin que par une résiliation."
    );

    // One contract in force per lift.
    let second = w.create(body(&[c], "2027-06-01")).await;
    let (status, refused) = w.act(&second, "activate", None).await;
    assert_eq!(status, 409);
    assert_eq!(
        refused["error"],
        "L'appareil ASC-003 est déjà couvert par le contrat actif CT-2027-00001 : un appareil est sous un seul contrat en vigueur (s'il a pris fin, constatez son échéance ou résiliez-le d'abord)."
    );

    // The notice: a reason is required, the notice is not in the future.
    let (status, refused) = w
        .act(&id, "terminate", Some(json!({"reason": "   "})))
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        refused["error"],
        "Le motif de la résiliation (« reason ») est obligatoire."
    );
    let (status, refused) = w
        .act(
            &id,
            "terminate",
            Some(json!({"reason": "Vente de l'immeuble", "noticeOn": "2027-01-11"})),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        refused["error"],
        "Le préavis (« noticeOn ») ne peut être daté du futur (aujourd'hui : 10/01/2027)."
    );
    // Given on 02/10/2027, past the deadline (01/10): the next term's end.
    set_today(&w.server, "2027-10-02");
    let (status, refused) = w
        .act(
            &id,
            "terminate",
            Some(json!({"reason": "Vente de l'immeuble", "endsOn": "2029-01-01"})),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        refused["error"],
        "Un préavis donné le 02/10/2027 met fin au contrat le 31/12/2028 au plus tard (« endsOn » reçu : 01/01/2029)."
    );
    let (status, _) = w
        .act(
            &id,
            "terminate",
            Some(json!({"reason": "  Vente de l'immeuble "})),
        )
        .await;
    assert_eq!(status, 201);
    let ended = w.read(&id).await;
    assert_eq!(ended["status"], "resilie");
    assert_eq!(ended["noticeOn"], "2027-10-02");
    assert_eq!(ended["endsOn"], "2028-12-31");
    assert_eq!(ended["lastDay"], "2028-12-31");
    assert_eq!(ended["terminationReason"], "Vente de l'immeuble");
    assert_eq!(ended["noticeDeadline"], Value::Null);
    assert_eq!(ended["covering"], true, "covered up to its last day");
    assert_eq!(ended["actions"], json!([]));
    let (status, refused) = w
        .act(&id, "terminate", Some(json!({"reason": "Encore"})))
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        refused["error"],
        "Action refusée : impossible de résilier ce contrat au statut « Résilié » : un contrat résilié est définitif ; si le client revient, établissez un nouveau contrat."
    );

    // Terminated, it still covers its lifts up to its last day.
    let (status, refused) = w.act(&second, "activate", None).await;
    assert_eq!(status, 409);
    assert_eq!(
        refused["error"],
        "L'appareil ASC-003 reste couvert par le contrat CT-2027-00001 jusqu'au 31/12/2028 inclus : ce contrat ne peut commencer avant le lendemain."
    );
    let (status, _) = w
        .call(
            Method::PUT,
            &format!("/contracts/{second}"),
            Some(body(&[c], "2029-01-01")),
        )
        .await;
    assert_eq!(status, 200);
    let (status, _) = w.act(&second, "activate", None).await;
    assert_eq!(status, 201);
    assert_eq!(w.equipment(c).0.as_deref(), Some("CT-2027-00002"));

    // Past its last day, the terminated contract's other lifts leave the
    // park (the server's minute task); the one under the new contract stays.
    assert_eq!(
        liftdesk::services::contracts::release_ended(&w.server.store)
            .await
            .expect("release"),
        0,
        "not before its last day"
    );
    set_today(&w.server, "2029-01-01");
    assert_eq!(
        liftdesk::services::contracts::release_ended(&w.server.store)
            .await
            .expect("release"),
        2
    );
    assert_eq!(w.equipment(a).1.as_deref(), Some("hors_parc"));
    assert_eq!(w.equipment(b).1.as_deref(), Some("hors_parc"));
    assert_eq!(
        w.equipment(c),
        (Some("CT-2027-00002".into()), Some("parc".into()), 35)
    );
    assert_eq!(
        liftdesk::services::contracts::release_ended(&w.server.store)
            .await
            .expect("release"),
        0,
        "once"
    );

    // The journal of the first contract.
    let journal = audit_of(&w.server, "contract", &id);
    assert_eq!(
        journal.iter().map(|(a, _)| a.as_str()).collect::<Vec<_>>(),
        [
            "creation",
            "modification",
            "activation",
            "resiliation",
            "fin_couverture"
        ]
    );
    assert_eq!(
        journal[0].1,
        json!({"number": "CT-2027-00001", "client": "CLI-1", "type": "complet", "lifts": 2, "annualPriceCents": 120000})
    );
    assert_eq!(
        journal[3].1,
        json!({"number": "CT-2027-00001", "noticeOn": "2027-10-02", "endsOn": "2028-12-31", "reason": "Vente de l'immeuble"})
    );
}

#[tokio::test]
async fn a_contract_without_renewal_expires_once_its_term_has_passed() {
    let w = world().await;
    let id = w
        .create(with(
            body(&[&w.lifts[0]], "2027-01-01"),
            json!({"tacitRenewal": false, "durationMonths": 24, "priceIndex": null, "baseIndexValue": null, "baseIndexMonth": null}),
        ))
        .await;
    let (status, refused) = w.act(&id, "expire", None).await;
    assert_eq!(status, 422);
    assert_eq!(
        refused["error"],
        "Action refusée : impossible de constater l'échéance de ce contrat au statut « Brouillon » : un contrat en brouillon n'est pas en vigueur ; supprimez-le s'il n'a pas été signé."
    );
    assert_eq!(w.act(&id, "activate", None).await.0, 201);
    let active = w.read(&id).await;
    assert_eq!(active["lastDay"], "2028-12-31");
    assert_eq!(active["noticeDeadline"], Value::Null);
    assert_eq!(active["priceIndex"], Value::Null);
    set_today(&w.server, "2028-12-31");
    let (status, refused) = w.act(&id, "expire", None).await;
    assert_eq!(status, 422);
    assert_eq!(
        refused["error"],
        "Ce contrat court jusqu'au 31/12/2028 inclus : son échéance ne peut être constatée qu'après."
    );
    set_today(&w.server, "2029-01-01");
    assert_eq!(
        w.read(&id).await["actions"],
        json!(["expire"]),
        "past its term, it is expired, not terminated"
    );
    let (status, _) = w.act(&id, "expire", None).await;
    assert_eq!(status, 201);
    let ended = w.read(&id).await;
    assert_eq!(ended["status"], "echu");
    assert_eq!(ended["statusLabel"], "Échu");
    assert_eq!(ended["endsOn"], "2028-12-31");
    assert_eq!(ended["covering"], false);
    assert_eq!(
        audit_of(&w.server, "contract", &id)
            .iter()
            .map(|(a, _)| a.as_str())
            .collect::<Vec<_>>(),
        ["creation", "activation", "echeance", "fin_couverture"]
    );
    // Ended, its lift left the park at once (its last number kept)…
    assert_eq!(
        w.equipment(&w.lifts[0]),
        (Some("CT-2027-00001".into()), Some("hors_parc".into()), 35)
    );
    assert_eq!(
        audit_of(&w.server, "contract", &id)
            .last()
            .map(|(a, d)| (a.clone(), d["lifts"].clone())),
        Some(("fin_couverture".to_owned(), json!([w.lifts[0]])))
    );
    // … and is free for a new contract from the next day.
    let next = w.create(body(&[&w.lifts[0]], "2029-01-01")).await;
    assert_eq!(w.act(&next, "activate", None).await.0, 201);
    assert_eq!(
        w.equipment(&w.lifts[0]),
        (Some("CT-2029-00001".into()), Some("parc".into()), 35)
    );
}

#[tokio::test]
async fn every_refused_field_is_named_in_french_and_nothing_is_written() {
    let w = world().await;
    let a = &w.lifts[0];
    let base = body(&[a], "2027-01-01");
    let cases: Vec<(Value, u16, String)> = vec![
        (
            with(base.clone(), json!({"type": "premium"})),
            422,
            "Type de contrat inconnu : « premium ». Valeurs possibles : minimal, normal, etendu, complet.".into(),
        ),
        (
            with(base.clone(), json!({"startOn": "2027-02-30"})),
            422,
            "Le champ « startOn » n'est pas une date qui existe : « 2027-02-30 ».".into(),
        ),
        (
            with(base.clone(), json!({"durationMonths": 6})),
            422,
            "Le champ « durationMonths » doit être compris entre 12 et 120 mois (la loi demande un contrat d'un an au moins) (reçu : 6).".into(),
        ),
        (
            with(base.clone(), json!({"visitIntervalDays": 60})),
            422,
            "Le champ « visitIntervalDays » doit être compris entre 7 et 42 jours (la loi demande une visite toutes les six semaines au moins) (reçu : 60).".into(),
        ),
        (
            with(base.clone(), json!({"annualPrice": 10.001})),
            422,
            "Le champ « annualPrice » doit être un montant en euros, positif, d'au plus deux décimales et d'au plus 1\u{202f}000\u{202f}000,00\u{a0}€ (reçu : 10.001).".into(),
        ),
        (
            with(base.clone(), json!({"vatRate": 19.6})),
            422,
            "Taux de TVA refusé pour « vatRate » : 19.6. Un contrat d'entretien se facture à 20, 10, 5,5 ou 2,1 %.".into(),
        ),
        (
            with(base.clone(), json!({"vatRate": 0})),
            422,
            "Taux de TVA refusé pour « vatRate » : 0. Un contrat d'entretien se facture à 20, 10, 5,5 ou 2,1 %.".into(),
        ),
        (
            with(base.clone(), json!({"baseIndexValue": null})),
            422,
            "La révision par l'indice BT48 demande sa valeur de base I0 (« baseIndexValue »).".into(),
        ),
        (
            with(base.clone(), json!({"baseIndexMonth": null})),
            422,
            "La révision par l'indice BT48 demande le mois de sa valeur de base I0 (« baseIndexMonth », AAAA-MM) : chaque révision lit la valeur du même mois, les années suivantes.".into(),
        ),
        (
            with(base.clone(), json!({"baseIndexMonth": "2026-13"})),
            422,
            "Le mois de la valeur de base (« baseIndexMonth ») s'écrit AAAA-MM, par exemple 2026-12 (reçu : « 2026-13 »).".into(),
        ),
        (
            with(base.clone(), json!({"priceIndex": "BT 48"})),
            422,
            "Code d'indice invalide : « BT 48 » (1 à 30 lettres, chiffres, « - », « _ » ou « . », comme « BT48 » ou « ICHT-IME »).".into(),
        ),
        (
            with(base.clone(), json!({"trappedPersonMinutes": 300})),
            422,
            "Une personne bloquée passe avant tout : son délai (« trappedPersonMinutes », 300 minutes) ne peut dépasser celui d'une arrivée sur panne.".into(),
        ),
        (
            with(base.clone(), json!({"weekendCoverage": true})),
            422,
            "Un contrat couvrant les nuits (astreinte) ou le week-end précise le délai d'arrivée hors heures ouvrées (« arrivalOutOfHoursMinutes »).".into(),
        ),
        (
            with(base.clone(), json!({"arrivalOutOfHoursMinutes": 120})),
            422,
            "Sans astreinte ni week-end couverts (« onCallCoverage », « weekendCoverage »), le contrat ne prend aucun engagement hors heures ouvrées : retirez « arrivalOutOfHoursMinutes ».".into(),
        ),
        (
            with(base.clone(), json!({"liftIds": []})),
            422,
            "Un contrat couvre au moins un appareil : « liftIds » ne peut être vide.".into(),
        ),
        (
            with(base.clone(), json!({"liftIds": [a, a]})),
            422,
            format!("L'appareil « {a} » figure deux fois dans « liftIds »."),
        ),
        (
            with(base.clone(), json!({"clientId": "CLI-404"})),
            422,
            "Client introuvable dans cette agence : « CLI-404 ».".into(),
        ),
        (
            with(base.clone(), json!({"liftIds": [w.foreign_lift]})),
            422,
            format!("Appareil introuvable dans cette agence : « {} ».", w.foreign_lift),
        ),
        (
            with(base.clone(), json!({"liftIds": [w.other_client_lift]})),
            422,
            "L'appareil ASC-900 appartient à un autre client que « Résidence Les Tilleuls » : un contrat ne couvre que les appareils de son client.".into(),
        ),
    ];
    for (body, status, message) in cases {
        assert_eq!(w.refused(body.clone()).await, (status, message), "{body}");
    }
    let (status, answer) = w
        .call(
            Method::POST,
            "/contracts",
            Some(with(base.clone(), json!({"colour": "bleu"}))),
        )
        .await;
    assert_eq!(status, 422, "{answer}");
    let (status, page) = w.call(Method::GET, "/contracts", None).await;
    assert_eq!(status, 200);
    assert_eq!(page["total"], 0, "nothing written");
    let journal: i64 = open_db(w.server.data_dir.path())
        .query_row(
            "SELECT COUNT(*) FROM audit_log WHERE object_type = 'contract'",
            [],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(journal, 0);
}

#[tokio::test]
async fn contracts_are_listed_filtered_and_kept_within_the_agency() {
    let w = world().await;
    let first = w.create(body(&[&w.lifts[0]], "2027-01-01")).await;
    let second = w.create(body(&[&w.lifts[1]], "2027-03-01")).await;
    assert_eq!(w.act(&second, "activate", None).await.0, 201);

    let (status, page) = w.call(Method::GET, "/contracts", None).await;
    assert_eq!(status, 200);
    assert_eq!(page["total"], 2);
    let numbers: Vec<&str> = page["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|c| c["number"].as_str().expect("number"))
        .collect();
    assert_eq!(numbers, ["CT-2027-00002", "CT-2027-00001"]);
    let entry = &page["results"][0];
    assert_eq!(entry["status"], "actif");
    assert_eq!(entry["lifts"], 1);
    assert_eq!(entry["annualTotal"], 1200.0);
    assert_eq!(
        entry["currentTerm"],
        json!({"startOn": "2027-03-01", "endsOn": "2028-02-29"})
    );
    assert_eq!(entry["noticeDeadline"], "2027-12-01");

    for (query, expected) in [
        ("?status=brouillon", vec!["CT-2027-00001"]),
        ("?status=actif", vec!["CT-2027-00002"]),
        ("?clientId=CLI-2", vec![]),
        ("?q=tilleuls", vec!["CT-2027-00002", "CT-2027-00001"]),
        ("?q=00001", vec!["CT-2027-00001"]),
        (
            &format!("?equipmentId={}", w.lifts[1]),
            vec!["CT-2027-00002"],
        ),
        ("?limit=1&page=2", vec!["CT-2027-00001"]),
    ] {
        let (status, page) = w
            .call(Method::GET, &format!("/contracts{query}"), None)
            .await;
        assert_eq!(status, 200, "{query}");
        let numbers: Vec<&str> = page["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|c| c["number"].as_str().expect("number"))
            .collect();
        assert_eq!(numbers, expected, "{query}");
    }
    let (status, refused) = w
        .call(Method::GET, "/contracts?status=suspendu", None)
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        refused["error"],
        "Valeur inconnue pour « status » : « suspendu ». Valeurs possibles : brouillon, actif, resilie, echu."
    );

    // Another agency sees none of it.
    let theirs = &w.other.admin_token;
    let (status, page) = w.server.v2(Method::GET, "/contracts", theirs, None).await;
    assert_eq!((status, page["total"].clone()), (200, json!(0)));
    for (method, path) in [
        (Method::GET, format!("/contracts/{first}")),
        (Method::POST, format!("/contracts/{first}/activate")),
        (Method::POST, format!("/contracts/{second}/expire")),
        (Method::DELETE, format!("/contracts/{first}")),
    ] {
        let (status, answer) = w.server.v2(method, &path, theirs, None).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(answer["error"], "Contrat introuvable dans cette agence.");
    }
    let (status, answer) = w
        .server
        .v2(
            Method::POST,
            "/contracts",
            theirs,
            Some(json!({"clientId": "CLI-1", "liftIds": [w.lifts[2]], "type": "normal", "startOn": "2027-01-01", "annualPrice": 900})),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        answer["error"],
        format!(
            "Appareil introuvable dans cette agence : « {} ».",
            w.lifts[2]
        )
    );

    // A draft is deleted, with its journal entry.
    let (status, _) = w
        .call(Method::DELETE, &format!("/contracts/{first}"), None)
        .await;
    assert_eq!(status, 204);
    let (status, _) = w
        .call(Method::GET, &format!("/contracts/{first}"), None)
        .await;
    assert_eq!(status, 404);
    assert_eq!(
        audit_of(&w.server, "contract", &first)
            .iter()
            .map(|(a, _)| a.as_str())
            .collect::<Vec<_>>(),
        ["creation", "suppression"]
    );
}

#[tokio::test]
async fn index_values_are_recorded_corrected_and_listed() {
    let w = world().await;
    let (status, recorded) = w
        .call(
            Method::POST,
            "/price-indexes",
            Some(json!({"index": " bt48 ", "month": "2027-01", "value": 132.4})),
        )
        .await;
    assert_eq!(status, 201, "{recorded}");
    assert_eq!(recorded["index"], "BT48");
    assert_eq!(recorded["month"], "2027-01");
    assert_eq!(recorded["value"], 132.4);
    for (index, month, value) in [
        ("BT48", "2026-12", 131.9),
        ("ICHT-IME", "2027-01", 118.25),
        ("BT48", "2027-01", 132.6),
    ] {
        let (status, _) = w
            .call(
                Method::POST,
                "/price-indexes",
                Some(json!({"index": index, "month": month, "value": value})),
            )
            .await;
        assert_eq!(status, 201);
    }
    let (status, values) = w.call(Method::GET, "/price-indexes", None).await;
    assert_eq!(status, 200);
    let values: Vec<(String, String, f64)> = values
        .as_array()
        .expect("values")
        .iter()
        .map(|v| {
            (
                v["index"].as_str().expect("index").to_owned(),
                v["month"].as_str().expect("month").to_owned(),
                v["value"].as_f64().expect("value"),
            )
        })
        .collect();
    assert_eq!(
        values,
        [
            ("BT48".into(), "2027-01".into(), 132.6),
            ("BT48".into(), "2026-12".into(), 131.9),
            ("ICHT-IME".into(), "2027-01".into(), 118.25),
        ]
    );
    let (_, only) = w
        .call(Method::GET, "/price-indexes?index=icht-ime", None)
        .await;
    assert_eq!(only.as_array().map(Vec::len), Some(1));
    let journal = audit_of(&w.server, "price_index", "BT48/2027-01");
    assert_eq!(
        journal,
        [
            (
                "creation".to_owned(),
                json!({"index": "BT48", "month": "2027-01", "value": 132.4, "before": null})
            ),
            (
                "correction".to_owned(),
                json!({"index": "BT48", "month": "2027-01", "value": 132.6, "before": 132.4})
            ),
        ]
    );
    for (body, message) in [
        (
            json!({"index": "BT48", "month": "2027-13", "value": 100}),
            "Le mois (« month ») s'écrit AAAA-MM, par exemple 2027-01 (reçu : « 2027-13 »).",
        ),
        (
            json!({"index": "BT48", "month": "2027-01", "value": 100.12345}),
            "La valeur de l'indice (« value ») doit être un nombre positif d'au plus 4 décimales (reçu : 100.12345).",
        ),
        (
            json!({"index": "BT/48", "month": "2027-01", "value": 100}),
            "Code d'indice invalide : « BT/48 » (1 à 30 lettres, chiffres, « - », « _ » ou « . », comme « BT48 » ou « ICHT-IME »).",
        ),
    ] {
        let (status, answer) = w.call(Method::POST, "/price-indexes", Some(body)).await;
        assert_eq!((status, answer["error"].as_str()), (422, Some(message)));
    }
}

#[tokio::test]
async fn an_assistant_drafts_activates_lists_and_terminates_a_contract_through_mcp() {
    use common::mcp::{call, connect, json_of};
    let w = world().await;
    let client = connect(&w.server, &w.org.admin_token, None).await;
    let tools = client.list_all_tools().await.expect("tools");
    for name in [
        "contrats",
        "contrat",
        "creer_contrat",
        "activer_contrat",
        "resilier_contrat",
        "indices",
        "enregistrer_indice",
    ] {
        let tool = tools
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(tool.input_schema.get("type"), Some(&json!("object")));
        assert!(tool.description.as_deref().unwrap_or_default().len() > 80);
    }
    let (error, created) = json_of(
        &call(
            &client,
            "creer_contrat",
            json!({"clientId": "CLI-1", "liftIds": [w.lifts[0]], "type": "normal", "startOn": "2027-01-01", "annualPrice": 1500}),
        )
        .await,
    );
    assert!(!error, "{created}");
    let id = created["id"].as_str().expect("id").to_owned();
    let (error, _) = json_of(&call(&client, "activer_contrat", json!({"id": id})).await);
    assert!(!error);
    let (_, page) = json_of(&call(&client, "contrats", json!({"status": "actif"})).await);
    assert_eq!(page["total"], 1);
    assert_eq!(page["results"][0]["number"], "CT-2027-00001");
    assert_eq!(page["results"][0]["annualTotal"], 1500.0);
    // The REST API's refusal, as a tool error.
    let (error, refused) = json_of(
        &call(
            &client,
            "resilier_contrat",
            json!({"id": id, "reason": "Vente", "noticeOn": "2030-01-01"}),
        )
        .await,
    );
    assert!(error);
    assert_eq!(
        refused,
        json!({"status": 422, "error": "Le préavis (« noticeOn ») ne peut être daté du futur (aujourd'hui : 10/01/2027)."})
    );
    let (error, _) = json_of(
        &call(
            &client,
            "resilier_contrat",
            json!({"id": id, "reason": "Vente de l'immeuble"}),
        )
        .await,
    );
    assert!(!error);
    let (_, contract) = json_of(&call(&client, "contrat", json!({"id": id})).await);
    assert_eq!(contract["status"], "resilie");
    assert_eq!(contract["endsOn"], "2027-12-31");
    let (error, value) = json_of(
        &call(
            &client,
            "enregistrer_indice",
            json!({"index": "BT48", "month": "2026-10", "value": 131.2}),
        )
        .await,
    );
    assert!(!error, "{value}");
    let (_, values) = json_of(&call(&client, "indices", json!({"index": "BT48"})).await);
    assert_eq!(values[0]["value"], 131.2);
    // Another organization's assistant does not see it.
    let theirs = connect(&w.server, &w.other.admin_token, None).await;
    let (error, refused) = json_of(&call(&theirs, "contrat", json!({"id": id})).await);
    assert!(error);
    assert_eq!(
        refused,
        json!({"status": 404, "error": "Contrat introuvable dans cette agence."})
    );
}

#[tokio::test]
async fn a_contract_prints_its_parties_lifts_and_clauses_as_a_pdf() {
    let w = world().await;
    let id = w
        .create(with(
            body(&[&w.lifts[0], &w.lifts[1]], "2027-01-01"),
            json!({"onCallCoverage": true, "arrivalOutOfHoursMinutes": 90, "penaltyPerLateHour": 50, "notes": "Clés au gardien"}),
        ))
        .await;
    let fetch = |token: String, id: String| {
        let w = &w;
        async move {
            w.server
                .client
                .get(w.server.url(&format!("/api/v2/contracts/{id}/pdf")))
                .header("Authorization", format!("Bearer {token}"))
                .send()
                .await
                .expect("request")
        }
    };
    let response = fetch(w.org.admin_token.clone(), id.clone()).await;
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(
        response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("application/pdf")
    );
    assert_eq!(
        response
            .headers()
            .get("content-disposition")
            .and_then(|v| v.to_str().ok()),
        Some("inline; filename=\"CT-2027-00001.pdf\"")
    );
    let bytes = response.bytes().await.expect("pdf");
    let text = pdftotext(&bytes).replace(['\u{202f}', '\u{a0}'], " ");
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for expected in [
        "Projet de contrat",
        "N° CT-2027-00001",
        "Résidence Les Tilleuls",
        "ASC-001",
        "ASC-002",
        "Article 2 — Prestations d'entretien obligatoires",
        "Une visite d'entretien tous les 35 jours au plus (six semaines au plus, article R134-2)",
        "Un examen semestriel du bon état des câbles et un essai annuel du parachute",
        "Article 4 — Délais d'intervention",
        "arrivée en 1 heure au plus",
        "nuits, par l'astreinte) : arrivée en 1 h 30 au plus",
        "une pénalité de 50,00 € HT par heure de retard commencée",
        "Le contrat prend effet le 01/01/2027 pour une première période de 12 mois, jusqu'au 31/12/2027 inclus",
        "au moins 3 mois avant l'échéance",
        "article L215-1 du Code de la consommation",
        "1 200,00 € HT par appareil, soit 2 400,00 € HT pour l'ensemble des appareils",
        "P = P0 × (I / I0)",
        "I0 = 128,5 la valeur de l'indice BT48 publiée par l'INSEE pour le mois de décembre 2026, et I la valeur du même indice pour le même mois de l'année de la révision",
        "Article 9 — Conditions particulières",
        "Clés au gardien",
    ] {
        assert!(
            flat.contains(expected),
            "« {expected} » missing from:\n{flat}"
        );
    }
    // In force, it is the contract, no more its project.
    assert_eq!(w.act(&id, "activate", None).await.0, 201);
    let bytes = fetch(w.org.admin_token.clone(), id.clone())
        .await
        .bytes()
        .await
        .expect("pdf");
    let text = pdftotext(&bytes);
    assert!(!text.contains("Projet de contrat"));
    assert!(text.contains("Contrat d'entretien"));
    // Another organization: 404.
    let response = fetch(w.other.admin_token.clone(), id.clone()).await;
    assert_eq!(response.status().as_u16(), 404);
}
