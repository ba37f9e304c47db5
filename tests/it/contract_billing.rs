//! « Facturer les contrats » end to end over HTTP (`/contract-billing/*`):
//! a quarter of 500 contracts previewed, drafted in one run (exactly 500
//! invoices, their amounts — prorated first and last periods, prices
//! revised on an anniversary with their formula — checked against a hand
//! computation for a sample), drafted again (nothing created), then issued
//! in batches until none is left; the contracts a run leaves out (a draft,
//! one billed in arrears whose quarter has not ended, one whose revision
//! lacks its index value, one starting after the quarter) and the refusals.

use crate::common;

use chrono::NaiveDate;
use common::world::{World as Fixtures, morning};
use common::*;
use liftdesk::domain::contract::ContractAction;
use liftdesk::services::contracts::{self, ContractInput, IndexValueInput, TerminationInput};
use liftdesk::services::equipment::{self, NewEquipment};
use liftdesk::store::equipment::IdentityRow;
use reqwest::Method;
use serde_json::{Value, json};
use std::sync::Arc;

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").expect("day")
}

/// One kind of contract of the world: how many, and its input.
struct Kind {
    count: usize,
    lifts: usize,
    input: ContractInput,
    /// Put in force (else left a draft), then terminated with this notice
    /// and last day.
    active: bool,
    terminated: Option<(&'static str, &'static str)>,
}

fn input(start: &str, frequency: &str, annual: f64) -> ContractInput {
    ContractInput {
        client_id: "CLI-1".to_owned(),
        contract_type: "complet".to_owned(),
        start_on: start.to_owned(),
        annual_price: annual,
        billing_frequency: Some(frequency.to_owned()),
        ..ContractInput::default()
    }
}

/// The 500 contracts billed in the first quarter of 2028, and four the run
/// leaves out, written in one transaction on 05/01/2028.
fn kinds() -> Vec<Kind> {
    let kind = |count, lifts, input| Kind {
        count,
        lifts,
        input,
        active: true,
        terminated: None,
    };
    vec![
        // A: a whole quarter of 1 200,00 € a year → 300,00 € HT.
        kind(200, 1, input("2027-01-01", "trimestrielle", 1200.0)),
        // B: started on 15/02/2028: 46 days of the quarter's 91.
        kind(100, 1, input("2028-02-15", "trimestrielle", 1820.0)),
        // C: revised on its anniversary (15/02/2028) by the BT48.
        kind(
            100,
            1,
            ContractInput {
                price_index: Some("BT48".to_owned()),
                base_index_value: Some(128.5),
                base_index_month: Some("2026-12".to_owned()),
                ..input("2027-02-15", "trimestrielle", 1200.0)
            },
        ),
        // D: billed each year, terminated to end on 30/06/2028: 182 days
        // of 2028's 366.
        Kind {
            terminated: Some(("2027-12-20", "2028-06-30")),
            ..kind(50, 1, input("2026-07-01", "annuelle", 2400.0))
        },
        // E: each half-year, 2 lifts at 900,00 € each, 10 % VAT.
        kind(
            50,
            2,
            ContractInput {
                vat_rate: Some(10.0),
                ..input("2025-01-01", "semestrielle", 900.0)
            },
        ),
        // Left out: a draft; billed in arrears (its quarter not ended); a
        // revision whose index (ICHT-IME) has no value; starting in April.
        Kind {
            active: false,
            ..kind(1, 1, input("2027-01-01", "trimestrielle", 1000.0))
        },
        kind(
            1,
            1,
            ContractInput {
                billing_timing: Some("terme_echu".to_owned()),
                ..input("2027-01-01", "trimestrielle", 1000.0)
            },
        ),
        kind(
            1,
            1,
            ContractInput {
                price_index: Some("ICHT-IME".to_owned()),
                base_index_value: Some(118.0),
                base_index_month: Some("2026-11".to_owned()),
                ..input("2027-01-01", "trimestrielle", 1000.0)
            },
        ),
        kind(1, 1, input("2028-04-01", "trimestrielle", 1000.0)),
    ]
}

struct World {
    server: TestServer,
    org: Org,
    /// The contracts' ids, by kind.
    ids: Vec<Vec<String>>,
}

async fn world() -> World {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    let here = Fixtures::in_agency(&server, &org.agency_id);
    here.client_named("CLI-1", "Résidence Les Tilleuls").await;
    let at = morning(day("2028-01-05"));
    server.store.set_clock(Arc::new(move || at));
    let p = here.principal.clone();
    let ids = server
        .store
        .write(move |tx| {
            contracts::record_index_value_in(
                tx,
                &p,
                &IndexValueInput {
                    index: "BT48".to_owned(),
                    month: "2027-12".to_owned(),
                    value: 134.2,
                },
            )?;
            let mut lift = 0;
            let mut ids = Vec::new();
            for kind in kinds() {
                let mut of_kind = Vec::new();
                for _ in 0..kind.count {
                    let mut lift_ids = Vec::new();
                    for _ in 0..kind.lifts {
                        lift += 1;
                        let row = equipment::create_in(
                            tx,
                            &p,
                            &NewEquipment {
                                identity: IdentityRow {
                                    number: Some(format!("ASC-{lift:04}")),
                                    ..IdentityRow::default()
                                },
                                building_id: None,
                                client_ref: Some("CLI-1".to_owned()),
                            },
                        )?;
                        lift_ids.push(row.id.into_string());
                    }
                    let input = ContractInput {
                        lift_ids,
                        ..kind.input.clone()
                    };
                    let id = contracts::create_in(tx, &p, &input)?;
                    if kind.active {
                        contracts::act_in(tx, &p, &id, ContractAction::Activate, None)?;
                    }
                    if let Some((notice_on, ends_on)) = kind.terminated {
                        let termination = TerminationInput {
                            notice_on: Some(notice_on.to_owned()),
                            ends_on: Some(ends_on.to_owned()),
                            reason: "Vente de l'immeuble".to_owned(),
                        };
                        contracts::act_in(
                            tx,
                            &p,
                            &id,
                            ContractAction::Terminate,
                            Some(&termination),
                        )?;
                    }
                    of_kind.push(id.into_string());
                }
                ids.push(of_kind);
            }
            Ok::<_, liftdesk::error::AppError>(ids)
        })
        .await
        .expect("contracts");
    World { server, org, ids }
}

impl World {
    async fn call(&self, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
        self.server
            .v2(method, path, &self.org.admin_token, body)
            .await
    }

    /// Every entry of the preview, page by page.
    async fn entries(&self, query: &str) -> (Value, Vec<Value>) {
        let mut entries = Vec::new();
        let mut first = Value::Null;
        for page in 1.. {
            let (status, preview) = self
                .call(
                    Method::GET,
                    &format!("/contract-billing/preview?{query}&limit=200&page={page}"),
                    None,
                )
                .await;
            assert_eq!(status, 200, "{preview}");
            let results = preview["results"].as_array().expect("results").clone();
            if first.is_null() {
                first = preview.clone();
            }
            if results.is_empty() {
                break;
            }
            entries.extend(results);
        }
        (first, entries)
    }

    fn invoices_of(&self, contract: &str) -> Vec<(String, String, i64, i64)> {
        let db = open_db(self.server.data_dir.path());
        let mut stmt = db
            .prepare(
                "SELECT id, contract_billed_from, total_excl_cents, total_incl_cents FROM invoices
                 WHERE contract_id = ?1 ORDER BY contract_billed_from",
            )
            .expect("prepare");
        stmt.query_map([contract], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows")
    }

    /// The invoice counts the triggers and the runs keep equal a recount.
    async fn counts_are_exact(&self) {
        let wrong = self
            .server
            .store
            .read(liftdesk::store::counts::wrong)
            .await
            .expect("recount");
        assert_eq!(wrong, vec![]);
    }

    fn count(&self, sql: &str) -> i64 {
        open_db(self.server.data_dir.path())
            .query_row(sql, [], |r| r.get(0))
            .expect("count")
    }
}

const Q1: &str = "from=2028-01-01&to=2028-03-31";

#[tokio::test]
async fn a_quarter_of_500_contracts_is_previewed_drafted_once_and_issued_in_batches() {
    let w = world().await;

    // The preview: 500 to bill, the left-out ones said why.
    let (preview, entries) = w.entries(Q1).await;
    assert_eq!(preview["from"], "2028-01-01");
    assert_eq!(preview["to"], "2028-03-31");
    assert_eq!(preview["today"], "2028-01-05");
    let summary = &preview["summary"];
    assert_eq!(summary["toCreate"], 500, "{summary}");
    assert_eq!(summary["notYetDue"], 1);
    assert_eq!(summary["missingIndex"], 1);
    assert_eq!(summary["alreadyInvoiced"], 0);
    assert_eq!(summary["contracts"], 502);
    assert_eq!(summary["entries"], 502);
    assert_eq!(entries.len(), 502);
    // Hand computation, in cents HT for one lift:
    // A 1 200 × 3/12 = 300,00; B 1 820 × 3/12 × 46/91 = 230,00;
    // C 1 200 × 3/12 × 45/91 = 148,35 then 1 253,23 × 3/12 × 46/91 = 158,375… → 158,38
    //   (P = 1 200 × 134,2 / 128,5 = 1 253,2296… → 1 253,23);
    // D 2 400 × 12/12 × 182/366 = 1 193,442… → 1 193,44;
    // E 900 × 6/12 = 450,00 a lift, 2 lifts.
    let excl = 200 * 30_000 + 100 * 23_000 + 100 * (14_835 + 15_838) + 50 * 119_344 + 50 * 90_000;
    let incl = 200 * 36_000 + 100 * 27_600 + 100 * (36_808) + 50 * 143_213 + 50 * 99_000;
    assert_eq!(summary["totalExclTax"], json!(excl as f64 / 100.0));
    assert_eq!(summary["totalInclTax"], json!(incl as f64 / 100.0));

    let entry_of = |id: &str| {
        entries
            .iter()
            .find(|e| e["contract"]["id"] == id)
            .unwrap_or_else(|| panic!("{id} not previewed"))
            .clone()
    };
    let revised = entry_of(&w.ids[2][0]);
    assert_eq!(revised["state"], "a_creer");
    assert_eq!(revised["billedFrom"], "2028-01-01");
    assert_eq!(revised["segments"].as_array().map(Vec::len), Some(2));
    assert_eq!(revised["segments"][0]["amount"], 148.35);
    assert_eq!(revised["segments"][0]["days"], 45);
    assert_eq!(revised["segments"][0]["periodDays"], 91);
    assert_eq!(revised["segments"][1]["annualPrice"], 1253.23);
    assert_eq!(revised["segments"][1]["amount"], 158.38);
    assert_eq!(
        revised["segments"][1]["revision"],
        json!({
            "anniversary": "2028-02-15",
            "index": "BT48",
            "month": "2027-12",
            "value": 134.2,
            "baseValue": 128.5,
            "basePrice": 1200.0,
            "price": 1253.23,
            "formula": "P = P0 × (I / I0) = 1\u{202f}200,00\u{a0}€ × (134,2 / 128,5) = 1\u{202f}253,23\u{a0}€ (indice BT48 de 2027-12, révision du 15/02/2028)",
        })
    );
    assert_eq!(revised["totalExclTax"], 306.73);
    let first = entry_of(&w.ids[1][0]);
    assert_eq!(first["billedFrom"], "2028-02-15");
    assert_eq!(first["segments"][0]["prorated"], true);
    assert_eq!(
        first["lines"][0]["label"],
        "Contrat d'entretien CT-2028-00201 (Complet, prix par appareil) du 15/02/2028 au 31/03/2028 — prorata 46/91 jours"
    );
    let two_lifts = entry_of(&w.ids[4][0]);
    assert_eq!(two_lifts["units"], 2);
    assert_eq!(two_lifts["lines"][0]["quantity"], 2.0);
    assert_eq!(two_lifts["lines"][0]["unitPrice"], 450.0);
    assert_eq!(two_lifts["totalInclTax"], 990.0);
    let arrears = entry_of(&w.ids[6][0]);
    assert_eq!(arrears["state"], "terme_non_echu");
    assert_eq!(
        arrears["reason"],
        "Facturé à terme échu : la période se termine le 31/03/2028."
    );
    let missing = entry_of(&w.ids[7][0]);
    assert_eq!(missing["state"], "indice_manquant");
    assert_eq!(
        missing["reason"],
        "La révision du 01/01/2028 demande la valeur de l'indice ICHT-IME de 2027-11, pas encore saisie : saisissez-la (Contrats › Indices)."
    );
    assert!(missing["segments"].as_array().is_some_and(Vec::is_empty));
    assert!(
        !entries
            .iter()
            .any(|e| e["contract"]["id"] == w.ids[5][0] || e["contract"]["id"] == w.ids[8][0]),
        "a draft and a contract starting after the quarter are not billed"
    );
    let (_, only_missing) = w.entries(&format!("{Q1}&state=indice_manquant")).await;
    assert_eq!(only_missing.len(), 1);
    assert_eq!(
        w.count("SELECT COUNT(*) FROM invoices"),
        0,
        "a preview writes nothing"
    );

    // The drafts: exactly 500, in one run.
    let window = json!({"from": "2028-01-01", "to": "2028-03-31"});
    let (status, drafted) = w
        .call(
            Method::POST,
            "/contract-billing/drafts",
            Some(window.clone()),
        )
        .await;
    assert_eq!(status, 201, "{drafted}");
    assert_eq!(drafted["created"], 500);
    assert_eq!(drafted["summary"]["toCreate"], 500);
    assert_eq!(w.count("SELECT COUNT(*) FROM invoices"), 500);
    assert_eq!(
        w.count("SELECT COALESCE(SUM(total_excl_cents), 0) FROM invoices"),
        excl
    );
    assert_eq!(
        w.count("SELECT COALESCE(SUM(total_incl_cents), 0) FROM invoices"),
        incl
    );
    assert_eq!(
        w.invoices_of(&w.ids[2][0])
            .iter()
            .map(|(_, from, excl, incl)| (from.clone(), *excl, *incl))
            .collect::<Vec<_>>(),
        [("2028-01-01".to_owned(), 30_673, 36_808)]
    );
    assert_eq!(
        w.invoices_of(&w.ids[3][0])
            .iter()
            .map(|(_, from, excl, incl)| (from.clone(), *excl, *incl))
            .collect::<Vec<_>>(),
        [("2028-01-01".to_owned(), 119_344, 143_213)]
    );
    // An invoice as the API reads it: its client, its lines and lifts.
    let (invoice_id, ..) = w.invoices_of(&w.ids[2][0])[0].clone();
    let (status, invoice) = w
        .call(Method::GET, &format!("/invoices/{invoice_id}"), None)
        .await;
    assert_eq!(status, 200, "{invoice}");
    assert_eq!(invoice["status"], "brouillon");
    assert_eq!(invoice["client"], "CLI-1");
    assert_eq!(invoice["lines"].as_array().map(Vec::len), Some(2));
    assert!(
        invoice["lines"][1]["label"]
            .as_str()
            .is_some_and(|l| l.ends_with("— prix annuel révisé : P = P0 × (I / I0) = 1\u{202f}200,00\u{a0}€ × (134,2 / 128,5) = 1\u{202f}253,23\u{a0}€ (indice BT48 de 2027-12, révision du 15/02/2028)")),
        "{}",
        invoice["lines"][1]
    );
    let journal = audit_of(&w.server, "invoice", &invoice_id);
    assert_eq!(journal.len(), 1);
    assert_eq!(journal[0].1["contract"], "CT-2028-00301");
    assert_eq!(journal[0].1["billedFrom"], "2028-01-01");
    // Their counts were added once, grouped, and are exact: the invoice
    // list's totals read them.
    w.counts_are_exact().await;
    let (status, list) = w
        .call(Method::GET, "/invoices?status=brouillon&limit=1", None)
        .await;
    assert_eq!((status, list["total"].clone()), (200, json!(500)), "{list}");

    // Again: nothing created, all said already invoiced.
    let (status, again) = w
        .call(
            Method::POST,
            "/contract-billing/drafts",
            Some(window.clone()),
        )
        .await;
    assert_eq!(status, 201);
    assert_eq!(again["created"], 0);
    assert_eq!(again["summary"]["alreadyInvoiced"], 500);
    assert_eq!(again["summary"]["drafts"], 500, "all still drafts");
    assert_eq!(again["summary"]["toCreate"], 0);
    assert_eq!(w.count("SELECT COUNT(*) FROM invoices"), 500);
    let (_, later) = w.entries(Q1).await;
    let billed = later
        .iter()
        .find(|e| e["contract"]["id"] == w.ids[0][0])
        .expect("billed");
    assert_eq!(billed["state"], "deja_facture");
    assert_eq!(billed["invoice"]["status"], "brouillon");
    assert_eq!(billed["invoice"]["number"], Value::Null);

    // Issued in batches of 200, numbered in the contracts' order.
    let mut issued = Vec::new();
    let mut remaining = Vec::new();
    loop {
        let (status, batch) = w
            .call(
                Method::POST,
                "/contract-billing/issue",
                Some(json!({"from": "2028-01-01", "to": "2028-03-31", "limit": 200})),
            )
            .await;
        assert_eq!(status, 200, "{batch}");
        assert_eq!(batch["refused"], json!([]));
        let numbers: Vec<String> = batch["issued"]
            .as_array()
            .expect("issued")
            .iter()
            .map(|i| i["number"].as_str().expect("number").to_owned())
            .collect();
        remaining.push(batch["remaining"].as_i64().expect("remaining"));
        if numbers.is_empty() {
            break;
        }
        issued.extend(numbers);
    }
    assert_eq!(remaining, [300, 100, 0, 0]);
    assert_eq!(issued.len(), 500);
    let mut sorted = issued.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 500, "every number once");
    assert_eq!(issued, sorted, "numbered in the contracts' order");
    assert_eq!(
        w.count("SELECT COUNT(*) FROM invoices WHERE status = 'emise' AND number IS NOT NULL"),
        500
    );
    let (_, after) = w.entries(&format!("{Q1}&state=deja_facture")).await;
    assert!(after.iter().all(|e| e["invoice"]["status"] == "emise"));
    w.counts_are_exact().await;
    let (_, list) = w
        .call(Method::GET, "/invoices?status=emise&limit=1", None)
        .await;
    assert_eq!(list["total"], 500, "{list}");
    // The insert triggers are on again after the run: an invoice written
    // by hand is counted as it is written.
    let (status, by_hand) = w
        .call(
            Method::POST,
            "/invoices",
            Some(json!({"clientId": "CLI-1", "lines": [{"label": "Dépannage", "quantity": 1, "unitPrice": 90, "vatRate": 20}]})),
        )
        .await;
    assert_eq!(status, 201, "{by_hand}");
    w.counts_are_exact().await;
    let (_, list) = w
        .call(Method::GET, "/invoices?status=brouillon&limit=1", None)
        .await;
    assert_eq!(list["total"], 1, "{list}");
}

#[tokio::test]
async fn a_window_is_checked_and_the_agency_keeps_its_billing() {
    let w = world().await;
    for (query, message) in [
        (
            "from=2028-01-01",
            "Le champ « to » est obligatoire : le dernier jour à facturer (AAAA-MM-JJ).",
        ),
        (
            "from=2028-03-31&to=2028-01-01",
            "La période à facturer finit (« to », 01/01/2028) avant de commencer (« from », 31/03/2028).",
        ),
        (
            "from=2028-01-01&to=2029-01-02",
            "La période à facturer compte au plus 366 jours (reçu : du 01/01/2028 au 02/01/2029).",
        ),
        (
            "from=2028-01-01&to=2028-03-31&state=paye",
            "Valeur inconnue pour « state » : « paye ». Valeurs possibles : a_creer, deja_facture, indice_manquant, terme_non_echu, client_archive.",
        ),
    ] {
        let (status, answer) = w
            .call(
                Method::GET,
                &format!("/contract-billing/preview?{query}"),
                None,
            )
            .await;
        assert_eq!(
            (status, answer["error"].as_str()),
            (422, Some(message)),
            "{query}"
        );
    }
    let (status, answer) = w
        .call(
            Method::POST,
            "/contract-billing/issue",
            Some(json!({"from": "2028-01-01", "to": "2028-03-31", "limit": 0})),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        answer["error"],
        "Le champ « limit » doit être compris entre 1 et 200 (reçu : 0)."
    );

    // Another organization bills nothing of this one.
    let other = init_org(w.server.data_dir.path(), "Martin", "paul@martin.fr");
    let (status, preview) = w
        .server
        .v2(
            Method::GET,
            &format!("/contract-billing/preview?{Q1}"),
            &other.admin_token,
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(preview["summary"]["entries"], 0);
    let (status, drafted) = w
        .server
        .v2(
            Method::POST,
            "/contract-billing/drafts",
            &other.admin_token,
            Some(json!({"from": "2028-01-01", "to": "2028-03-31"})),
        )
        .await;
    assert_eq!((status, drafted["created"].clone()), (201, json!(0)));
    assert_eq!(w.count("SELECT COUNT(*) FROM invoices"), 0);

    // The missing value entered, the contract is billed at its revised price.
    let (status, _) = w
        .call(
            Method::POST,
            "/price-indexes",
            Some(json!({"index": "ICHT-IME", "month": "2027-11", "value": 123.9})),
        )
        .await;
    assert_eq!(status, 201);
    let (_, entries) = w.entries(&format!("{Q1}&state=indice_manquant")).await;
    assert!(entries.is_empty());
    let (_, revised) = w.entries(Q1).await;
    let now_billed = revised
        .iter()
        .find(|e| e["contract"]["id"] == w.ids[7][0])
        .expect("entry");
    assert_eq!(now_billed["state"], "a_creer");
    // 1 000 × 123,9 / 118 = 1 050,00 €; a quarter: 262,50 €.
    assert_eq!(now_billed["segments"][0]["annualPrice"], 1050.0);
    assert_eq!(now_billed["totalExclTax"], 262.5);
}

/// The drafts use the preview's plan only while nothing was written since:
/// an index value entered between the preview and the drafts (the one the
/// ICHT-IME contract's revision lacked) is billed by the drafts, at the
/// revised price, as a plan made then would bill it.
#[tokio::test]
async fn a_value_entered_after_the_preview_is_billed_by_the_drafts() {
    let w = world().await;
    let kind = kinds()
        .iter()
        .position(|k| k.input.price_index.as_deref() == Some("ICHT-IME"))
        .expect("the ICHT-IME kind");
    let revised = w.ids[kind][0].clone();

    let (preview, entries) = w.entries(Q1).await;
    assert_eq!(preview["summary"]["toCreate"], 500);
    let before = entries
        .iter()
        .find(|e| e["contract"]["id"] == revised.as_str())
        .expect("previewed");
    assert_eq!(before["state"], "indice_manquant", "{before}");

    let (status, value) = w
        .call(
            Method::POST,
            "/price-indexes",
            Some(json!({ "index": "ICHT-IME", "month": "2027-11", "value": 123.9 })),
        )
        .await;
    assert_eq!(status, 201, "{value}");

    let (status, drafted) = w
        .call(
            Method::POST,
            "/contract-billing/drafts",
            Some(json!({ "from": "2028-01-01", "to": "2028-03-31" })),
        )
        .await;
    assert_eq!(status, 201, "{drafted}");
    assert_eq!(drafted["created"], 501, "{drafted}");
    assert_eq!(drafted["summary"]["missingIndex"], 0, "{drafted}");
    // 1 000 € a year revised on 01/01/2028: P = 1 000 × 123,9 / 118 =
    // 1 050,00 (1 050,0000…), a quarter of it 262,50 HT, 315,00 TTC.
    assert_eq!(
        w.invoices_of(&revised),
        vec![(
            w.invoices_of(&revised)[0].0.clone(),
            "2028-01-01".to_owned(),
            26_250,
            31_500,
        )]
    );

    // And the preview now says it: nothing left to create.
    let (preview, _) = w.entries(Q1).await;
    assert_eq!(preview["summary"]["toCreate"], 0, "{}", preview["summary"]);
    assert_eq!(
        preview["summary"]["alreadyInvoiced"], 501,
        "{}",
        preview["summary"]
    );
    w.counts_are_exact().await;
}

/// Drafts refused at their issue never hold back the ones after them: with
/// the 60 first drafts (by contract number) refused, batches of 50 that
/// each send back the `next` of the one before issue the 440 others, say
/// each refused draft once, and end with `next` null; a cursor that is not
/// one is refused.
#[tokio::test]
async fn refused_drafts_do_not_hold_back_the_next_ones_in_the_issue_batches() {
    let w = world().await;
    let window = json!({ "from": "2028-01-01", "to": "2028-03-31" });
    let (status, drafted) = w
        .call(
            Method::POST,
            "/contract-billing/drafts",
            Some(window.clone()),
        )
        .await;
    assert_eq!(
        (status, drafted["created"].clone()),
        (201, json!(500)),
        "{drafted}"
    );
    // A line at 0 % without its reason: the issue refuses the document.
    let changed = w
        .server
        .store
        .inspect_execute(
            "UPDATE invoice_lines SET vat_rate_bp = 0 WHERE invoice_id IN (
                 SELECT i.id FROM invoices i JOIN contracts k ON k.id = i.contract_id
                  WHERE i.status = 'brouillon'
                  ORDER BY k.number, i.contract_billed_from LIMIT 60)",
            [],
        )
        .expect("lines at 0 %");
    assert!(changed >= 60, "{changed}");

    let (status, refused) = w
        .call(
            Method::POST,
            "/contract-billing/issue",
            Some(json!({ "from": "2028-01-01", "to": "2028-03-31", "after": "pas-un-curseur" })),
        )
        .await;
    assert_eq!(
        (status, refused),
        (
            422,
            json!({ "error": "Le champ « after » doit être le « next » d'un lot précédent, par exemple « CT-2027-00012/2027-01-01 » (reçu : « pas-un-curseur »)." })
        )
    );

    let mut after = Value::Null;
    let mut issued = Vec::new();
    let mut refused = Vec::new();
    let mut batches = 0;
    loop {
        batches += 1;
        assert!(batches <= 20, "the batches never end");
        let mut body = json!({ "from": "2028-01-01", "to": "2028-03-31", "limit": 50 });
        if !after.is_null() {
            body["after"] = after.clone();
        }
        let (status, batch) = w
            .call(Method::POST, "/contract-billing/issue", Some(body))
            .await;
        assert_eq!(status, 200, "{batch}");
        for invoice in batch["issued"].as_array().expect("issued") {
            issued.push(invoice["id"].as_str().expect("id").to_owned());
        }
        for draft in batch["refused"].as_array().expect("refused") {
            let error = draft["error"].as_str().expect("error");
            assert!(
                error.starts_with("Cette facture ne peut pas être émise : la ligne 1 est à 0 % de TVA sans motif d'exonération."),
                "{error}"
            );
            refused.push(draft["id"].as_str().expect("id").to_owned());
        }
        after = batch["next"].clone();
        if after.is_null() {
            assert_eq!(batch["remaining"], 60, "{batch}");
            break;
        }
        assert!(
            after.as_str().is_some_and(|c| c.starts_with("CT-")),
            "{after}"
        );
    }
    assert_eq!(issued.len(), 440);
    assert_eq!(refused.len(), 60, "each refused draft said once");
    let (preview, _) = w.entries(Q1).await;
    assert_eq!(
        preview["summary"]["alreadyInvoiced"], 500,
        "{}",
        preview["summary"]
    );
    assert_eq!(preview["summary"]["drafts"], 60, "the refused ones");
    let mut once = refused.clone();
    once.sort();
    once.dedup();
    assert_eq!(once.len(), 60);
    assert_eq!(
        w.count(
            "SELECT COUNT(*) FROM invoices WHERE status = 'brouillon' AND contract_id IS NOT NULL"
        ),
        60
    );
    w.counts_are_exact().await;
}
