//! The web application's session beyond sign-in: the agency switcher.

use crate::common;

use common::app::StaffClient;
use common::*;
use serde_json::json;

#[tokio::test]
async fn the_agency_switcher_moves_the_session_and_refuses_an_agency_outside_the_scope() {
    let server = TestServer::start().await;
    let org = init_org(server.data_dir.path(), "Org", "admin@org.fr");
    let second = server.cli_json(&[
        "agency",
        "create",
        "--organization",
        &org.organization_id,
        "--name",
        "Org Sud",
    ]);
    let second_id = str_of(&second, "id").to_owned();
    let other = init_org(server.data_dir.path(), "Autre", "admin@autre.fr");

    let staff = StaffClient::sign_in(&server, "admin@org.fr", "motdepasse-solide").await;
    assert_eq!(staff.session["agency"]["id"], json!(org.agency_id));
    assert_eq!(staff.session["agencies"].as_array().map(Vec::len), Some(2));

    let (status, body) = staff
        .put("/session/agency", json!({ "agencyId": second_id }))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["agency"],
        json!({ "id": second_id, "name": "Org Sud" })
    );
    // Kept by the session: a later read acts in the chosen agency.
    let (status, body) = staff.get("/session").await;
    assert_eq!(status, 200);
    assert_eq!(body["agency"]["id"], json!(second_id));

    let (status, body) = staff
        .put("/session/agency", json!({ "agencyId": other.agency_id }))
        .await;
    assert_eq!(status, 403);
    assert_eq!(
        body,
        json!({ "error": "Cette agence n'est pas dans le périmètre de votre compte." })
    );
    let (_, body) = staff.get("/session").await;
    assert_eq!(body["agency"]["id"], json!(second_id));

    // A change without the CSRF token is refused before anything moves.
    let response = staff
        .http
        .put(server.url("/app/api/session/agency"))
        .json(&json!({ "agencyId": org.agency_id }))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 403);
    let (_, body) = staff.get("/session").await;
    assert_eq!(body["agency"]["id"], json!(second_id));

    let (status, body) = staff.put("/session/agency", json!({})).await;
    assert_eq!(
        (status, body),
        (
            422,
            json!({ "error": "Le champ « agencyId » est obligatoire." })
        )
    );
}

#[tokio::test]
async fn an_idle_session_expires_and_an_active_one_is_extended() {
    let server = TestServer::start().await;
    init_org(server.data_dir.path(), "Org", "admin@org.fr");
    let staff = StaffClient::sign_in(&server, "admin@org.fr", "motdepasse-solide").await;
    let db = open_db(server.data_dir.path());
    let expires_at = |db: &common::db::TestDb| -> String {
        db.query_row("SELECT expires_at FROM sessions", [], |r| r.get(0))
            .expect("session row")
    };
    // Eight hours of idleness from the sign-in.
    let first = expires_at(&db);
    let at = chrono::DateTime::parse_from_rfc3339(&first).expect("timestamp");
    let in_hours = (at.with_timezone(&chrono::Utc) - chrono::Utc::now()).num_minutes();
    assert!((8 * 60 - 2..=8 * 60).contains(&in_hours), "{first}");

    // Seen more than a minute ago: the next request moves the expiry on.
    let later = chrono::Utc::now() + chrono::Duration::minutes(2);
    server.store.set_clock(std::sync::Arc::new(move || later));
    let (status, _) = staff.get("/session").await;
    assert_eq!(status, 200);
    let seen: String = db
        .query_row("SELECT last_seen_at FROM sessions", [], |r| r.get(0))
        .expect("row");
    assert_ne!(seen, "2026-01-01T00:00:00.000Z");

    // The desktop's background read of the notices is no activity: it
    // leaves the expiry where it was.
    let extended = expires_at(&db);
    let polled = later + chrono::Duration::minutes(5);
    server.store.set_clock(std::sync::Arc::new(move || polled));
    let (status, _) = staff.get("/calls/notices").await;
    assert_eq!(status, 200);
    assert_eq!(
        expires_at(&db),
        extended,
        "a background read extended the session"
    );

    // Past its expiry, the session no longer opens anything.
    let idle = later + chrono::Duration::hours(8) + chrono::Duration::minutes(1);
    server.store.set_clock(std::sync::Arc::new(move || idle));
    let (status, body) = staff.get("/session").await;
    assert_eq!(
        (status, body),
        (
            401,
            json!({ "error": "Session absente ou expirée : reconnectez-vous." })
        )
    );
}
