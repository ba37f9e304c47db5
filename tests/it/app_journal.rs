//! The agency's journal (`GET /app/api/journal`, `services::journal`): who
//! changed what and when, newest first, the object in words, filtered by
//! object, person and period, paged by `before`; the whole journal an
//! administrator's, one record's history every staff member's; another
//! organization sees none of it; bad filters refused in French.

use crate::common;

use common::app::StaffClient;
use common::*;
use serde_json::{Value, json};

const PASSWORD: &str = "motdepasse-solide";

fn actions(page: &Value) -> Vec<(String, String)> {
    page["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| {
            (
                e["action"].as_str().expect("action").to_owned(),
                e["objectType"].as_str().expect("type").to_owned(),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_journal_lists_who_changed_what_filtered_and_paged() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Durand", "admin@durand.fr");
    init_org(server.data_dir.path(), "Autre", "admin@autre.fr");
    let member_id = member(&server, &org.agency_id, "membre@durand.fr", &[]);
    let admin = StaffClient::sign_in(&server, "admin@durand.fr", PASSWORD).await;
    let staff = StaffClient::sign_in(&server, "membre@durand.fr", PASSWORD).await;
    let other = StaffClient::sign_in(&server, "admin@autre.fr", PASSWORD).await;

    let (status, _) = admin
        .post(
            "/clients",
            json!({ "name": "Syndic Dupont", "id": "CLI-1" }),
        )
        .await;
    assert_eq!(status, 201);
    let (status, _) = staff
        .patch("/clients/CLI-1", json!({ "phone": "01 47 00 00 00" }))
        .await;
    assert_eq!(status, 200);
    let (status, lift) = admin
        .post(
            "/equipment",
            json!({ "number": "ASC-1", "type": "ascenseur" }),
        )
        .await;
    assert_eq!(status, 201);
    let lift_id = str_of(&lift, "id").to_owned();

    // Newest first, who and what in words.
    let (status, page) = admin.get("/journal").await;
    assert_eq!(status, 200, "{page}");
    let entries = page["entries"].as_array().expect("entries");
    assert_eq!(
        actions(&page)[..3],
        [
            ("equipement.creation".to_owned(), "equipment".to_owned()),
            ("client.update".to_owned(), "client".to_owned()),
            ("client.create".to_owned(), "client".to_owned()),
        ]
    );
    assert_eq!(
        entries[0]["actor"],
        json!({ "kind": "account", "kindLabel": "Personnel", "id": org.admin_id, "name": "Admin Durand", "owner": null })
    );
    assert_eq!(
        (
            &entries[0]["objectTypeLabel"],
            &entries[0]["objectLabel"],
            &entries[0]["objectId"]
        ),
        (&json!("Équipement"), &json!("ASC-1"), &json!(lift_id))
    );
    assert_eq!(entries[1]["objectLabel"], "Syndic Dupont");
    assert_eq!(entries[1]["actor"]["name"], "Marc Membre");
    assert!(entries[0]["seq"].as_i64() > entries[1]["seq"].as_i64());
    assert!(
        page["objectTypes"]
            .as_array()
            .expect("types")
            .contains(&json!({ "code": "equipment", "label": "Équipement" }))
    );

    // Filters: object, person, period.
    let (_, by_type) = admin.get("/journal?objectType=client").await;
    assert_eq!(
        actions(&by_type),
        [
            ("client.update".to_owned(), "client".to_owned()),
            ("client.create".to_owned(), "client".to_owned())
        ]
    );
    let (_, by_member) = admin.get(&format!("/journal?accountId={member_id}")).await;
    assert_eq!(
        actions(&by_member),
        [
            ("client.update".to_owned(), "client".to_owned()),
            ("connexion".to_owned(), "session".to_owned())
        ]
    );
    assert!(
        by_member["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .all(|e| e["actor"]["id"] == json!(member_id))
    );
    // The journal's periods are Paris days.
    let today = liftdesk::clock::paris_today();
    let (_, in_period) = admin
        .get(&format!(
            "/journal?from={today}&to={today}&objectType=equipment"
        ))
        .await;
    assert_eq!(actions(&in_period).len(), 1);
    let tomorrow = today + chrono::Duration::days(2);
    let (_, later) = admin.get(&format!("/journal?from={tomorrow}")).await;
    assert_eq!(later["entries"], json!([]));
    for (query, error) in [
        (
            format!("from={tomorrow}&to={today}"),
            "La période est inversée : « from » doit précéder ou égaler « to ».".to_owned(),
        ),
        (
            "from=28/11/2026".to_owned(),
            "Le champ « from » doit être une date AAAA-MM-JJ : « 28/11/2026 » n'en est pas une."
                .to_owned(),
        ),
        (
            "limit=0".to_owned(),
            "Le champ « limit » doit être compris entre 1 et 200.".to_owned(),
        ),
        (
            "before=x".to_owned(),
            "Le champ « before » doit être un nombre entier : « x ».".to_owned(),
        ),
        (
            "objectId=ASC-1".to_owned(),
            "Le champ « objectType » est obligatoire avec « objectId ».".to_owned(),
        ),
    ] {
        assert_eq!(
            admin.get(&format!("/journal?{query}")).await,
            (422, json!({ "error": error })),
            "{query}"
        );
    }

    // Paged: one entry, then the next from where it stopped.
    let (_, first) = admin.get("/journal?limit=1").await;
    assert_eq!(first["entries"].as_array().map(Vec::len), Some(1));
    let next = first["next"].as_i64().expect("next");
    let (_, second) = admin.get(&format!("/journal?limit=1&before={next}")).await;
    assert_eq!(second["entries"][0]["action"], "client.update");
    let (_, last) = admin
        .get(&format!("/journal?objectType=client&before={next}"))
        .await;
    assert_eq!(last["next"], Value::Null);

    // A member reads a record's history, not the whole journal.
    assert_eq!(
        staff.get("/journal").await,
        (
            403,
            json!({ "error": "Consulter le journal de l'agence est réservé à un administrateur de l'agence." })
        )
    );
    let (status, history) = staff.get("/journal?objectType=client&objectId=CLI-1").await;
    assert_eq!(status, 200, "{history}");
    assert_eq!(
        actions(&history),
        [
            ("client.update".to_owned(), "client".to_owned()),
            ("client.create".to_owned(), "client".to_owned())
        ]
    );
    let (status, history) = staff
        .get(&format!("/journal?objectType=equipment&objectId={lift_id}"))
        .await;
    assert_eq!((status, actions(&history).len()), (200, 1));
    let (status, _) = staff
        .get(&format!("/journal?objectType=account&objectId={member_id}"))
        .await;
    assert_eq!(status, 403);

    // Another organization: nothing of ours.
    let (status, theirs) = other
        .get(&format!("/journal?objectType=equipment&objectId={lift_id}"))
        .await;
    assert_eq!((status, &theirs["entries"]), (200, &json!([])));
    let (_, theirs) = other.get("/journal").await;
    assert!(!theirs.to_string().contains("Syndic Dupont"), "{theirs}");
}
