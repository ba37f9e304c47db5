//! The quotes and invoices screens' API (`/app/api/quotes…`,
//! `/app/api/invoices…`): the REST API v2's rules with the staff session as
//! the caller. Quote list and life, the quote turned into its invoice (once),
//! draft editing then the document frozen after the issue, gapless numbers,
//! payment, partial credit note, list filters and totals, another agency's
//! documents 404, members' rights.

use crate::common;

use chrono::Datelike;
use common::app::StaffClient;
use common::world::World as Fixtures;
use common::*;
use liftdesk::services::clients::ClientInput;
use liftdesk::services::equipment::NewEquipment;
use liftdesk::store::equipment::IdentityRow;
use serde_json::{Value, json};

const PASSWORD: &str = "motdepasse-solide";
const CLIENT: &str = "CLI-000042";
const OTHER_CLIENT: &str = "CLI-000043";

fn year() -> i32 {
    liftdesk::clock::paris_today().year()
}

struct World {
    server: TestServer,
    admin: StaffClient,
    member: StaffClient,
    outsider: StaffClient,
    /// Equipment "ASC 7" of the client CLI-000042.
    equipment: String,
    /// Equipment "ASC 8", without client.
    orphan: String,
    /// The admin's API token (REST API v2).
    token: String,
}

async fn world() -> World {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "claire@durand.fr");
    let other = init_org(server.data_dir.path(), "Martin", "paul@martin.fr");
    server.cli_json(&[
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
    ]);
    let mut clients = Vec::new();
    for (agency, client_ref, name) in [
        (&org.agency_id, CLIENT, "Syndic Dupont"),
        (&org.agency_id, OTHER_CLIENT, "Résidence des Lilas"),
        (&other.agency_id, "CLI-000050", "Client de Martin"),
    ] {
        let id = Fixtures::in_agency(&server, agency)
            .client(ClientInput {
                client_id: Some(client_ref.to_owned()),
                nom: Some(name.to_owned()),
                adresse: Some(Some("12 rue de la Paix, 75002 Paris".to_owned())),
                siren: Some(Some("732829320".to_owned())),
                supprime: Some(false),
                ..ClientInput::default()
            })
            .await;
        clients.push(id);
    }
    let ours = Fixtures::in_agency(&server, &org.agency_id);
    let mut ids = Vec::new();
    for (number, client) in [("ASC 7", Some(CLIENT)), ("ASC 8", None)] {
        let id = ours
            .equipment_with(NewEquipment {
                identity: IdentityRow {
                    number: Some(number.to_owned()),
                    ..IdentityRow::default()
                },
                building_id: None,
                client_ref: client.map(str::to_owned),
            })
            .await;
        ids.push(id);
    }
    let [equipment, orphan] = <[String; 2]>::try_from(ids).expect("two equipment");
    let admin = StaffClient::sign_in(&server, "claire@durand.fr", PASSWORD).await;
    let member = StaffClient::sign_in(&server, "membre@durand.fr", "motdepasse1").await;
    let outsider = StaffClient::sign_in(&server, "paul@martin.fr", PASSWORD).await;
    World {
        server,
        admin,
        member,
        outsider,
        equipment,
        orphan,
        token: org.admin_token,
    }
}

fn rows() -> Value {
    json!([
        { "label": "Remplacement du contacteur", "quantity": 2, "unitPrice": 120.5 },
        { "label": "Main-d'œuvre", "quantity": 1.5, "unitPrice": 65, "vatRate": 10 }
    ])
}

async fn new_quote(client: &StaffClient, equipment: &str) -> String {
    let (status, body) = client
        .post(
            "/quotes",
            json!({ "equipmentId": equipment, "origin": "panne", "object": "Remise en état du contacteur", "rows": rows() }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["ok"], json!(true));
    str_of(&body, "id").to_owned()
}

fn accepted_events(w: &World, quote: &str) -> i64 {
    open_db(w.server.data_dir.path())
        .query_row(
            "SELECT COUNT(*) FROM outbox_events WHERE event = 'devis.accepte' AND object_id = ?1",
            [quote],
            |r| r.get(0),
        )
        .expect("count")
}

#[tokio::test]
async fn quotes_are_listed_created_and_moved_as_the_state_machine_allows() {
    let w = world().await;
    let first = new_quote(&w.admin, &w.equipment).await;
    let second = new_quote(&w.member, &w.orphan).await;

    // Detail: totals excl./incl. tax, the actions of a draft.
    let (status, detail) = w.admin.get(&format!("/quotes/{first}")).await;
    assert_eq!(status, 200, "{detail}");
    assert_eq!(
        detail["quote"]["number"],
        json!(format!("DV-{}-00001", year()))
    );
    assert_eq!(detail["quote"]["status"], json!("brouillon"));
    // 2 × 120.50 + 1.5 × 65 = 241 + 97.50 = 338.50 HT; TVA 48.20 + 9.75.
    assert_eq!(detail["quote"]["totalExclTax"], json!(338.5));
    assert_eq!(detail["quote"]["totalInclTax"], json!(396.45));
    assert_eq!(detail["actions"], json!(["send", "accept", "refuse"]));
    assert_eq!(detail["invoice"], Value::Null);

    // List: newest first, totals, filters on status and equipment number.
    let (status, page) = w.admin.get("/quotes").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["total"], json!(2));
    assert_eq!(page["limit"], json!(50));
    let ids: Vec<&str> = page["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, [second.as_str(), first.as_str()]);
    let row = &page["results"][1];
    assert_eq!(row["equipment"]["number"], json!("ASC 7"));
    assert_eq!(row["statusLabel"], json!("Brouillon"));
    assert_eq!(row["totalInclTax"], json!(396.45));
    assert_eq!(row["invoice"], Value::Null);
    let (_, page) = w.admin.get("/quotes?equipment=asc%208").await;
    assert_eq!(page["total"], json!(1));
    assert_eq!(page["results"][0]["id"], json!(second));
    let (status, bad) = w.admin.get("/quotes?status=signe").await;
    assert_eq!(status, 422);
    assert_eq!(
        bad["error"],
        json!(
            "Statut de devis inconnu : « signe ». Valeurs possibles : brouillon, envoye, accepte, refuse."
        )
    );

    // Send, then refuse the second; the first is accepted below.
    assert_eq!(
        w.member
            .post(&format!("/quotes/{second}/send"), json!({}))
            .await
            .0,
        201
    );
    let (_, detail) = w.admin.get(&format!("/quotes/{second}")).await;
    assert_eq!(detail["quote"]["status"], json!("envoye"));
    assert_eq!(detail["actions"], json!(["send", "accept", "refuse"]));
    assert_eq!(
        w.member
            .post(&format!("/quotes/{second}/refuse"), json!({}))
            .await
            .0,
        201
    );
    let (_, detail) = w.admin.get(&format!("/quotes/{second}")).await;
    assert_eq!(detail["quote"]["status"], json!("refuse"));
    assert_eq!(detail["actions"], json!([]));
    let (status, refused) = w
        .admin
        .post(&format!("/quotes/{second}/accept"), json!({}))
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        refused["error"],
        json!(
            "Action refusée : impossible d'accepter ce devis au statut « Refusé » : un devis refusé est définitif ; si le client revient sur sa décision, établissez un nouveau devis."
        )
    );
    let (_, page) = w.admin.get("/quotes?status=refuse").await;
    assert_eq!(page["total"], json!(1));
    assert_eq!(accepted_events(&w, &second), 0);

    // Accepted: devis.accepte queued once, even when accepted twice.
    assert_eq!(
        w.admin
            .post(&format!("/quotes/{first}/send"), json!({}))
            .await
            .0,
        201
    );
    assert_eq!(
        w.admin
            .post(&format!("/quotes/{first}/accept"), json!({}))
            .await
            .0,
        201
    );
    assert_eq!(
        w.admin
            .post(&format!("/quotes/{first}/accept"), json!({}))
            .await
            .0,
        422
    );
    assert_eq!(accepted_events(&w, &first), 1);
    let (_, detail) = w.admin.get(&format!("/quotes/{first}")).await;
    assert_eq!(detail["quote"]["status"], json!("accepte"));
    assert_eq!(detail["actions"], json!(["invoice"]));

    // Creation refusals are the REST API's.
    let (status, body) = w
        .admin
        .post(
            "/quotes",
            json!({ "equipmentId": w.equipment, "origin": "panne", "object": "Objet", "rows": [{ "label": "x", "quantity": 0, "unitPrice": 1 }] }),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        json!("Ligne 1 : la quantité doit être supérieure à zéro (reçu : 0).")
    );

    // Another agency: 404 for the quote, nothing in its list.
    assert_eq!(w.outsider.get(&format!("/quotes/{first}")).await.0, 404);
    assert_eq!(
        w.outsider
            .post(&format!("/quotes/{second}/send"), json!({}))
            .await
            .0,
        404
    );
    assert_eq!(
        w.outsider
            .post(&format!("/quotes/{first}/invoice"), json!({}))
            .await
            .0,
        404
    );
    assert_eq!(w.outsider.get("/quotes").await.1["total"], json!(0));
    w.server.stop().await;
}

#[tokio::test]
async fn an_accepted_quote_becomes_one_invoice_whose_draft_is_edited_then_frozen() {
    let w = world().await;
    let quote = new_quote(&w.admin, &w.equipment).await;

    // Not accepted yet: refused.
    let (status, body) = w
        .admin
        .post(&format!("/quotes/{quote}/invoice"), json!({}))
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        json!(format!(
            "Seul un devis accepté peut être facturé : le devis DV-{}-00001 est au statut « Brouillon ».",
            year()
        ))
    );
    assert_eq!(
        w.admin
            .post(&format!("/quotes/{quote}/accept"), json!({}))
            .await
            .0,
        201
    );

    // Turned into its invoice, by a member: rows and buyer copied.
    let (status, created) = w
        .member
        .post(&format!("/quotes/{quote}/invoice"), json!({}))
        .await;
    assert_eq!(status, 201, "{created}");
    let invoice = str_of(&created, "id").to_owned();
    assert_eq!(created["link"], json!(format!("/factures/{invoice}")));
    let (status, detail) = w.admin.get(&format!("/invoices/{invoice}")).await;
    assert_eq!(status, 200, "{detail}");
    let doc = &detail["invoice"];
    assert_eq!(doc["status"], json!("brouillon"));
    assert_eq!(doc["number"], Value::Null);
    assert_eq!(doc["client"], json!(CLIENT));
    assert_eq!(doc["buyer"], json!("Syndic Dupont"));
    assert_eq!(doc["quote"]["id"], json!(quote));
    assert_eq!(doc["totalInclTax"], json!(396.45));
    assert_eq!(
        doc["lines"],
        json!([
            { "label": "Remplacement du contacteur", "quantity": 2.0, "unitPrice": 120.5, "vatRate": 20.0, "totalExclTax": 241.0 },
            { "label": "Main-d'œuvre", "quantity": 1.5, "unitPrice": 65.0, "vatRate": 10.0, "totalExclTax": 97.5 }
        ])
    );
    assert_eq!(detail["actions"], json!(["edit", "issue"]));
    assert_eq!(detail["remainingToCredit"], Value::Null);

    // Once only.
    let (status, body) = w
        .admin
        .post(&format!("/quotes/{quote}/invoice"), json!({}))
        .await;
    assert_eq!(status, 409);
    assert_eq!(
        body["error"],
        json!(format!(
            "Le devis DV-{}-00001 est déjà facturé (facture en brouillon) : un devis ne devient qu'une seule facture.",
            year()
        ))
    );
    // The same rule through `POST /invoices` (the REST API's): copying the
    // quote again is refused; an invoice with its own lines (a deposit) may
    // still name it.
    let (status, again) = w
        .admin
        .post("/invoices", json!({ "clientId": CLIENT, "quoteId": quote }))
        .await;
    assert_eq!(status, 409);
    assert_eq!(again, body);
    let (status, _) = w
        .admin
        .post(
            "/invoices",
            json!({ "clientId": CLIENT, "quoteId": quote, "lines": [{ "label": "Acompte", "quantity": 1, "unitPrice": 100 }] }),
        )
        .await;
    assert_eq!(status, 201);
    let (_, quote_detail) = w.admin.get(&format!("/quotes/{quote}")).await;
    assert_eq!(quote_detail["invoice"]["id"], json!(invoice));
    assert_eq!(quote_detail["actions"], json!([]));
    let (_, page) = w.admin.get("/quotes").await;
    assert_eq!(page["results"][0]["invoice"]["id"], json!(invoice));

    // A quote whose equipment has no client needs the client named.
    let orphan_quote = new_quote(&w.admin, &w.orphan).await;
    assert_eq!(
        w.admin
            .post(&format!("/quotes/{orphan_quote}/accept"), json!({}))
            .await
            .0,
        201
    );
    let (status, body) = w
        .admin
        .post(&format!("/quotes/{orphan_quote}/invoice"), json!({}))
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        json!(format!(
            "L'équipement du devis DV-{}-00002 n'est rattaché à aucun client : indiquez le client à facturer (« clientId »).",
            year()
        ))
    );
    let (status, _) = w
        .admin
        .post(
            &format!("/quotes/{orphan_quote}/invoice"),
            json!({ "clientId": OTHER_CLIENT }),
        )
        .await;
    assert_eq!(status, 201);

    // Draft editing: PATCH semantics.
    let (status, body) = w
        .member
        .patch(&format!("/invoices/{invoice}"), json!({}))
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        json!(
            "Rien à modifier : indiquez le client (« clientId »), les lignes (« lines ») ou les appareils (« equipmentIds »)."
        )
    );
    let (status, body) = w
        .member
        .patch(
            &format!("/invoices/{invoice}"),
            json!({ "lines": [{ "label": "Forfait", "quantity": 1, "unitPrice": 10.005 }] }),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        json!(
            "Ligne 1 : le prix unitaire HT doit être un montant en euros avec au plus deux décimales (reçu : 10,005)."
        )
    );
    let (status, body) = w
        .member
        .patch(
            &format!("/invoices/{invoice}"),
            json!({ "clientId": "CLI-INCONNU" }),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        json!("Client introuvable dans cette agence : « CLI-INCONNU ».")
    );
    let (status, body) = w
        .member
        .patch(
            &format!("/invoices/{invoice}"),
            json!({ "clientId": OTHER_CLIENT }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (_, detail) = w.admin.get(&format!("/invoices/{invoice}")).await;
    assert_eq!(detail["invoice"]["buyer"], json!("Résidence des Lilas"));
    assert_eq!(detail["invoice"]["client"], json!(OTHER_CLIENT));
    assert_eq!(
        detail["invoice"]["lines"].as_array().map(Vec::len),
        Some(2),
        "lines untouched"
    );
    let new_lines = json!([
        { "label": "Remplacement du contacteur", "quantity": 2, "unitPrice": 120.5 },
        { "label": "Main-d'œuvre", "quantity": 2, "unitPrice": 65, "vatRate": 10 },
        { "label": "Déplacement", "quantity": 1, "unitPrice": 40 }
    ]);
    let (status, _) = w
        .admin
        .patch(
            &format!("/invoices/{invoice}"),
            json!({ "lines": new_lines }),
        )
        .await;
    assert_eq!(status, 200);
    let (_, detail) = w.admin.get(&format!("/invoices/{invoice}")).await;
    let doc = &detail["invoice"];
    assert_eq!(
        doc["buyer"],
        json!("Résidence des Lilas"),
        "buyer untouched"
    );
    // 241 + 40 = 281 at 20 % (56.20), 130 at 10 % (13): 411 HT, 480.20 TTC.
    assert_eq!(doc["totalExclTax"], json!(411.0));
    assert_eq!(doc["totalInclTax"], json!(480.2));
    assert_eq!(doc["lines"].as_array().map(Vec::len), Some(3));

    // Issue: the number now; the document frozen from then on.
    assert_eq!(
        w.member
            .post(&format!("/invoices/{invoice}/issue"), json!({}))
            .await
            .0,
        201
    );
    let (_, detail) = w.admin.get(&format!("/invoices/{invoice}")).await;
    assert_eq!(
        detail["invoice"]["number"],
        json!(format!("FA-{}-000001", year()))
    );
    assert_eq!(detail["invoice"]["status"], json!("emise"));
    assert_eq!(
        detail["actions"],
        json!(["send", "record_payment", "credit_note"])
    );
    assert_eq!(detail["remainingToCredit"], json!(480.2));
    let frozen = "Modification refusée : impossible de modifier cette facture au statut « Émise » : une facture émise est figée : son numéro, ses lignes et ses montants ne changent plus ; corrigez-la par un avoir.";
    for change in [json!({ "lines": new_lines }), json!({ "clientId": CLIENT })] {
        let (status, body) = w.admin.patch(&format!("/invoices/{invoice}"), change).await;
        assert_eq!(status, 409);
        assert_eq!(body, json!({ "error": frozen }));
    }
    let (_, after) = w.admin.get(&format!("/invoices/{invoice}")).await;
    assert_eq!(after["invoice"]["totalInclTax"], json!(480.2));
    assert_eq!(after["invoice"]["buyer"], json!("Résidence des Lilas"));

    // Another agency: 404 everywhere, untouched.
    assert_eq!(w.outsider.get(&format!("/invoices/{invoice}")).await.0, 404);
    let (status, body) = w
        .outsider
        .patch(
            &format!("/invoices/{invoice}"),
            json!({ "clientId": "CLI-000050" }),
        )
        .await;
    assert_eq!(status, 404);
    assert_eq!(body["error"], json!("Facture introuvable."));
    for action in ["issue", "send", "payment", "credit-notes"] {
        assert_eq!(
            w.outsider
                .post(&format!("/invoices/{invoice}/{action}"), json!({}))
                .await
                .0,
            404,
            "{action}"
        );
    }
    w.server.stop().await;
}

async fn draft_invoice(client: &StaffClient, lines: Value) -> String {
    let (status, body) = client
        .post("/invoices", json!({ "clientId": CLIENT, "lines": lines }))
        .await;
    assert_eq!(status, 201, "{body}");
    str_of(&body, "id").to_owned()
}

#[tokio::test]
async fn issue_payment_credit_note_filters_and_rights() {
    let w = world().await;
    let lines = json!([
        { "label": "Maintenance du trimestre", "quantity": 1, "unitPrice": 450 },
        { "label": "Bouton palier", "quantity": 2, "unitPrice": 37.5, "vatRate": 10 }
    ]);
    // Three drafts; issued in another order than created: numbers follow the issue.
    let a = draft_invoice(&w.admin, lines.clone()).await;
    let b = draft_invoice(&w.member, lines.clone()).await;
    let c = draft_invoice(&w.admin, lines.clone()).await;
    for id in [&b, &a, &c] {
        assert_eq!(
            w.admin
                .post(&format!("/invoices/{id}/issue"), json!({}))
                .await
                .0,
            201
        );
    }
    let mut numbers = Vec::new();
    for id in [&b, &a, &c] {
        let (_, detail) = w.admin.get(&format!("/invoices/{id}")).await;
        numbers.push(
            detail["invoice"]["number"]
                .as_str()
                .expect("number")
                .to_owned(),
        );
    }
    let y = year();
    assert_eq!(
        numbers,
        [
            format!("FA-{y}-000001"),
            format!("FA-{y}-000002"),
            format!("FA-{y}-000003")
        ]
    );

    // Send, payment (member allowed, as on the REST API).
    assert_eq!(
        w.member
            .post(&format!("/invoices/{a}/send"), json!({}))
            .await
            .0,
        201
    );
    let today = liftdesk::clock::paris_today()
        .format("%Y-%m-%d")
        .to_string();
    let (status, _) = w
        .member
        .post(
            &format!("/invoices/{a}/payment"),
            json!({ "paidOn": today }),
        )
        .await;
    assert_eq!(status, 201);
    let (_, detail) = w.admin.get(&format!("/invoices/{a}")).await;
    assert_eq!(detail["invoice"]["status"], json!("payee"));
    assert_eq!(detail["invoice"]["paidOn"], json!(today));
    assert_eq!(detail["actions"], json!(["credit_note"]));
    let (status, body) = w
        .admin
        .post(&format!("/invoices/{a}/payment"), json!({}))
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        json!(
            "Action refusée : impossible d'enregistrer le règlement de cette facture au statut « Payée » : le règlement est déjà enregistré et la pièce est close."
        )
    );

    // Credit notes: members refused (and not offered), a partial one by the admin.
    let (_, member_view) = w.member.get(&format!("/invoices/{a}")).await;
    assert_eq!(member_view["actions"], json!([]));
    let half = json!({ "lines": [{ "label": "Geste commercial (moitié)", "quantity": 1, "unitPrice": 225 }] });
    let (status, body) = w
        .member
        .post(&format!("/invoices/{a}/credit-notes"), half.clone())
        .await;
    assert_eq!(status, 403);
    assert_eq!(
        body["error"],
        json!("Seul un administrateur peut établir un avoir.")
    );
    let (status, created) = w
        .admin
        .post(&format!("/invoices/{a}/credit-notes"), half)
        .await;
    assert_eq!(status, 201, "{created}");
    let credit = str_of(&created, "id").to_owned();
    let (_, note) = w.admin.get(&format!("/invoices/{credit}")).await;
    assert_eq!(note["invoice"]["nature"], json!("avoir"));
    assert_eq!(note["invoice"]["number"], json!(format!("AV-{y}-000001")));
    assert_eq!(note["invoice"]["totalInclTax"], json!(270.0));
    assert_eq!(note["invoice"]["creditedInvoice"]["id"], json!(a));
    assert_eq!(note["actions"], json!(["send", "record_payment"]));
    // 450 + 75 = 525 HT; TVA 90 + 7.50: 622.50 TTC, 270 credited.
    let (_, detail) = w.admin.get(&format!("/invoices/{a}")).await;
    assert_eq!(detail["remainingToCredit"], json!(352.5));
    assert_eq!(detail["invoice"]["creditNotes"][0]["id"], json!(credit));
    let (status, body) = w
        .admin
        .patch(
            &format!("/invoices/{credit}"),
            json!({ "clientId": CLIENT }),
        )
        .await;
    assert_eq!(status, 409);
    assert_eq!(
        body["error"],
        json!(
            "Modification refusée : impossible de modifier cet avoir au statut « Émis » : un avoir reprend les montants de la facture qu'il crédite et ne se modifie pas."
        )
    );
    let (status, body) = w
        .admin
        .post(
            &format!("/invoices/{a}/credit-notes"),
            json!({ "lines": [{ "label": "Trop", "quantity": 1, "unitPrice": 300 }] }),
        )
        .await;
    assert_eq!(status, 422);
    assert!(
        str_of(&body, "error").starts_with("Impossible d'établir un avoir de 360,00"),
        "{body}"
    );

    // A draft left: four invoices and one credit note in all.
    let _draft = draft_invoice(&w.admin, lines).await;
    let (status, page) = w.admin.get("/invoices").await;
    assert_eq!(status, 200);
    assert_eq!(page["total"], json!(5));
    let (_, page) = w.admin.get("/invoices?status=emise").await;
    assert_eq!(page["total"], json!(3), "b, c and the credit note");
    let (_, page) = w
        .admin
        .get(&format!("/invoices?status=payee&client={CLIENT}"))
        .await;
    assert_eq!(page["total"], json!(1));
    assert_eq!(page["results"][0]["id"], json!(a));
    let (_, page) = w
        .admin
        .get("/invoices?status=brouillon&limit=1&page=1")
        .await;
    assert_eq!(page["total"], json!(1));
    assert_eq!(page["results"][0]["number"], Value::Null);
    let (_, page) = w
        .admin
        .get(&format!(
            "/invoices?since={today}&until={today}&client=&status="
        ))
        .await;
    assert_eq!(page["total"], json!(5), "blank filters are no filters");
    let (_, page) = w.admin.get("/invoices?until=2000-01-01").await;
    assert_eq!(page["total"], json!(0));
    let (status, body) = w
        .admin
        .get("/invoices?since=2026-12-01&until=2026-11-01")
        .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["error"],
        json!(
            "La période est vide : « since » (2026-12-01) est postérieur à « until » (2026-11-01)."
        )
    );
    let (status, body) = w.admin.get("/invoices?status=impayee").await;
    assert_eq!(status, 422);
    assert!(str_of(&body, "error").starts_with("Statut de facture inconnu"));
    assert_eq!(w.outsider.get("/invoices").await.1["total"], json!(0));

    // Without a session: 401; without the CSRF token: 403.
    let response = w
        .server
        .client
        .get(w.server.url("/app/api/invoices"))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 401);
    let response = w
        .admin
        .http
        .patch(w.server.url(&format!("/app/api/invoices/{a}")))
        .json(&json!({ "clientId": CLIENT }))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 403);
    w.server.stop().await;
}

async fn rest(w: &World, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
    let mut request = w
        .server
        .client
        .request(method, w.server.url(&format!("/api/v2{path}")))
        .header("Authorization", format!("Bearer {}", w.token));
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn the_rest_api_has_the_same_list_invoice_of_a_quote_and_draft_editing() {
    use reqwest::Method;
    let w = world().await;
    let quote = new_quote(&w.admin, &w.equipment).await;
    let (status, page) = rest(&w, Method::GET, "/quotes?status=brouillon", None).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["total"], json!(1));
    assert_eq!(page["results"][0]["id"], json!(quote));
    assert_eq!(page["results"][0]["totalInclTax"], json!(396.45));
    assert_eq!(rest(&w, Method::GET, "/quotes?status=x", None).await.0, 422);
    assert_eq!(
        rest(&w, Method::POST, &format!("/quotes/{quote}/accept"), None)
            .await
            .0,
        201
    );
    let (status, created) = rest(&w, Method::POST, &format!("/quotes/{quote}/invoice"), None).await;
    assert_eq!(status, 201, "{created}");
    let invoice = str_of(&created, "id").to_owned();
    assert_eq!(
        rest(
            &w,
            Method::POST,
            &format!("/quotes/{quote}/invoice"),
            Some(json!({}))
        )
        .await
        .0,
        409
    );
    let (status, _) = rest(
        &w,
        Method::PATCH,
        &format!("/invoices/{invoice}"),
        Some(json!({ "clientId": OTHER_CLIENT })),
    )
    .await;
    assert_eq!(status, 200);
    let (_, read) = rest(&w, Method::GET, &format!("/invoices/{invoice}"), None).await;
    assert_eq!(read["buyer"], json!("Résidence des Lilas"));
    assert_eq!(
        rest(
            &w,
            Method::POST,
            &format!("/invoices/{invoice}/issue"),
            None
        )
        .await
        .0,
        201
    );
    let (status, body) = rest(
        &w,
        Method::PATCH,
        &format!("/invoices/{invoice}"),
        Some(json!({ "clientId": CLIENT })),
    )
    .await;
    assert_eq!(status, 409);
    assert!(str_of(&body, "error").starts_with("Modification refusée"));
    w.server.stop().await;
}
