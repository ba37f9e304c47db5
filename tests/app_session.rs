//! The web application's session beyond sign-in: the agency switcher.

mod common;

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
