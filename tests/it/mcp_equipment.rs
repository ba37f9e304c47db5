//! MCP tools of equipment, technical data, surveys and discrepancies, the
//! equipment sheet resource and the prompts — through a real MCP client
//! session (rmcp's Streamable HTTP client) on the demo data, each answer
//! compared with the REST API v2's for the same input.

use crate::common;

use std::path::Path;

use common::mcp::*;
use common::*;
use rmcp::ServiceError;
use rmcp::model::{ErrorCode, GetPromptRequestParams, ReadResourceRequestParams, ResourceContents};
use serde_json::{Value, json};

/// The demo (two agencies of one organization) and another organization.
struct Scene {
    server: TestServer,
    token: String,
    member_token: String,
    agency: String,
    second_agency: String,
    outsider_token: String,
}

impl Scene {
    fn dir(&self) -> &Path {
        self.server.data_dir.path()
    }

    fn one(&self, sql: &str) -> String {
        open_db(self.dir())
            .query_row(sql, [&self.agency], |r| r.get(0))
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
    }

    fn count(&self, sql: &str) -> i64 {
        open_db(self.dir())
            .query_row(sql, [], |r| r.get(0))
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
    }

    async fn rest(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        rest_as(&self.server, &self.token, method, path, body).await
    }
}

async fn scene() -> Scene {
    let dir = tempfile::tempdir().expect("dir");
    let creds = cli_json(dir.path(), &["demo", "--size", "small", "--seed", "7"]);
    let outsider = init_org(dir.path(), "Concurrent", "admin@concurrent.fr");
    let server = TestServer::start_in(dir).await;
    Scene {
        server,
        token: str_of(&creds["admin"], "apiToken").to_owned(),
        member_token: str_of(&creds["member"], "apiToken").to_owned(),
        agency: str_of(&creds["agencies"][0], "id").to_owned(),
        second_agency: str_of(&creds["agencies"][1], "id").to_owned(),
        outsider_token: outsider.admin_token,
    }
}

async fn rest_as(
    server: &TestServer,
    token: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
    let mut request = server
        .client
        .request(method, server.url(&format!("/api/v2{path}")))
        .bearer_auth(token);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.expect("JSON"))
}

/// A tool's successful answer.
async fn ok(client: &Client, tool: &str, arguments: Value) -> Value {
    let (error, value) = json_of(&call(client, tool, arguments.clone()).await);
    assert!(!error, "{tool} {arguments}: {value}");
    value
}

/// A tool's refusal: (status, French reason), with nothing else in it.
async fn refused(client: &Client, tool: &str, arguments: Value) -> (u64, String) {
    let (error, value) = json_of(&call(client, tool, arguments.clone()).await);
    assert!(error, "{tool} {arguments} should be refused: {value}");
    let mut keys: Vec<&str> = value
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(keys, ["error", "status"], "{value}");
    (
        value["status"].as_u64().expect("status"),
        value["error"].as_str().expect("error").to_owned(),
    )
}

/// The REST refusal as a tool refusal: (status, reason).
fn as_refusal((status, body): (u16, Value)) -> (u64, String) {
    (
        u64::from(status),
        body["error"].as_str().expect("REST error").to_owned(),
    )
}

fn query(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

const MY_TOOLS: [&str; 9] = [
    "equipements",
    "equipement",
    "champs_techniques",
    "modifier_identite_equipement",
    "releves",
    "releve",
    "donnees_releve",
    "soumettre_releve",
    "signaler_ecart",
];

#[tokio::test]
async fn the_tools_are_listed_with_object_schemas_and_french_descriptions() {
    let s = scene().await;
    let client = connect(&s.server, &s.token, None).await;
    let tools = client.list_all_tools().await.expect("tools");
    for name in MY_TOOLS {
        let tool = tools
            .iter()
            .find(|t| t.name == name)
            .unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(
            tool.input_schema.get("type"),
            Some(&json!("object")),
            "{name}"
        );
        let description = tool.description.as_deref().unwrap_or_default();
        assert!(description.len() > 100, "{name}: {description}");
    }
    let schema = |name: &str| -> Value {
        let tool = tools.iter().find(|t| t.name == name).expect("tool");
        Value::Object(tool.input_schema.as_ref().clone())
    };
    let properties = |name: &str| -> Vec<String> {
        let mut keys: Vec<String> = schema(name)["properties"]
            .as_object()
            .expect("properties")
            .keys()
            .cloned()
            .collect();
        keys.sort_unstable();
        keys
    };
    // The REST names (camelCase), path parameters as `id`.
    assert_eq!(
        properties("signaler_ecart"),
        ["component", "equipmentId", "finding", "surveyId"]
    );
    assert_eq!(
        properties("soumettre_releve"),
        ["id", "surveyedOn", "values"]
    );
    assert_eq!(
        properties("modifier_identite_equipement"),
        [
            "contractNumber",
            "externalId",
            "id",
            "location",
            "maintenanceContract",
            "number",
            "serialNumber",
            "subtype",
            "type"
        ]
    );
    assert_eq!(properties("champs_techniques"), ["equipment", "q"]);
    assert_eq!(properties("equipement"), ["agency", "externalId", "number"]);
    assert_eq!(properties("equipements"), ["limit", "page", "q"]);
    assert_eq!(properties("releves"), ["limit", "page", "q"]);
    let required = |name: &str| schema(name)["required"].clone();
    assert_eq!(
        required("signaler_ecart"),
        json!(["equipmentId", "surveyId", "finding"])
    );
    assert_eq!(required("champs_techniques"), json!(["equipment", "q"]));
    assert_eq!(required("releve"), json!(["id"]));
    // The discrepancy's description says which code names which part.
    let description = tools
        .iter()
        .find(|t| t.name == "signaler_ecart")
        .and_then(|t| t.description.clone())
        .unwrap_or_default();
    for said in [
        "porte de cabine\n= `car_door`",
        "portes palières = `landing_door`",
        "`machine`",
        "`controller`",
        "`shaft`",
    ] {
        let flat = description.replace('\n', " ");
        assert!(
            flat.contains(&said.replace('\n', " ")),
            "{said} absent: {description}"
        );
    }
    // Reads are marked read-only; writes are not.
    for (name, read_only) in [
        ("equipement", true),
        ("releves", true),
        ("signaler_ecart", false),
        ("soumettre_releve", false),
        ("modifier_identite_equipement", false),
    ] {
        let tool = tools.iter().find(|t| t.name == name).expect("tool");
        let hint = tool.annotations.as_ref().and_then(|a| a.read_only_hint);
        assert_eq!(hint.unwrap_or(false), read_only, "{name}");
    }
    client.cancel().await.expect("close");
    s.server.stop().await;
}

#[tokio::test]
async fn equipment_tools_answer_as_the_rest_api() {
    let s = scene().await;
    let client = connect(&s.server, &s.token, None).await;

    // « L'ascenseur de la Résidence Les Tilleuls » : found by its building.
    let found = ok(&client, "equipements", json!({ "q": "résidence tilleuls" })).await;
    let (status, rest) = s
        .rest(
            "GET",
            &format!("/equipment?q={}", query("résidence tilleuls")),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(found, rest);
    let total = found["total"].as_i64().expect("total");
    assert_eq!(
        total,
        s.count(&format!(
            "SELECT COUNT(*) FROM equipment e JOIN buildings b ON b.id = e.building_id
             WHERE e.agency_id = '{}' AND b.name LIKE '%Tilleuls%'",
            s.agency
        ))
    );
    assert!(total > 0);
    for row in found["results"].as_array().expect("results") {
        let name = row["building"]["name"].as_str().expect("building name");
        assert!(name.contains("Tilleuls"), "{name}");
    }
    let page = ok(&client, "equipements", json!({ "limit": 2, "page": 3 })).await;
    let (_, rest) = s.rest("GET", "/equipment?limit=2&page=3", None).await;
    assert_eq!(page, rest);
    assert_eq!(page["results"].as_array().map(Vec::len), Some(2));
    assert_eq!(
        refused(&client, "equipements", json!({ "limit": 500 })).await,
        as_refusal(s.rest("GET", "/equipment?limit=500", None).await)
    );

    // « Quelle est la charge utile de l'équipement ASC-… ? »
    let (id, number): (String, String) = open_db(s.dir())
        .query_row(
            "SELECT e.id, e.number FROM equipment e
             JOIN equipment_values v ON v.equipment_id = e.id AND v.field_code = 'charge_utile'
             WHERE e.agency_id = ?1 ORDER BY e.number LIMIT 1",
            [&s.agency],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("equipment with a rated load");
    let load: f64 = open_db(s.dir())
        .query_row(
            "SELECT value FROM equipment_values WHERE equipment_id = ?1 AND field_code = 'charge_utile'",
            [&id],
            |r| r.get::<String>(0),
        )
        .expect("load")
        .parse()
        .expect("number");
    // Spaces and case are ignored in a number.
    let spaced = number.to_lowercase().replace('-', " - ");
    let data = ok(&client, "equipement", json!({ "number": spaced })).await;
    let (status, rest) = s
        .rest(
            "GET",
            &format!("/external/equipment/data?number={}", query(&spaced)),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(data, rest);
    assert_eq!(data["id"], json!(id));
    assert_eq!(data["data"]["charge_utile"].as_f64(), Some(load));
    assert_eq!(
        refused(&client, "equipement", json!({ "number": "INCONNU-1" })).await,
        (
            404,
            "Aucun équipement de l'agence ne correspond.".to_owned()
        )
    );

    // The same datum with its name and unit.
    let fields = ok(
        &client,
        "champs_techniques",
        json!({ "equipment": id, "q": "charge" }),
    )
    .await;
    let (_, rest) = s
        .rest(
            "GET",
            &format!("/technical-fields?equipment={id}&q=charge"),
            None,
        )
        .await;
    assert_eq!(fields, rest);
    let mut entry = fields
        .as_array()
        .expect("array")
        .iter()
        .find(|f| f["code"] == "charge_utile")
        .expect("charge_utile")
        .clone();
    assert_eq!(entry["value"].as_f64(), Some(load));
    entry["value"] = json!(load);
    assert_eq!(
        entry,
        json!({"code": "charge_utile", "field": "Charge utile", "component": null, "value": load, "unit": "kg"})
    );
    assert_eq!(
        refused(
            &client,
            "champs_techniques",
            json!({ "equipment": id, "q": "  " })
        )
        .await,
        as_refusal(
            s.rest(
                "GET",
                &format!("/technical-fields?equipment={id}&q=%20%20"),
                None
            )
            .await
        )
    );

    // Identity correction: the answer is REST's, the change is written and audited.
    let before_audit = s.count("SELECT COUNT(*) FROM audit_log");
    let corrected = ok(
        &client,
        "modifier_identite_equipement",
        json!({ "id": id, "location": "Hall B, à gauche", "contractNumber": "" }),
    )
    .await;
    let (status, rest) = s
        .rest(
            "PATCH",
            &format!("/equipment/{id}/identity"),
            Some(json!({ "location": "Hall B, à gauche", "contractNumber": "" })),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        corrected, rest,
        "the same answer (REST changed nothing more)"
    );
    assert_eq!(corrected["location"], "Hall B, à gauche");
    assert_eq!(corrected["contractNumber"], Value::Null);
    assert_eq!(s.count("SELECT COUNT(*) FROM audit_log"), before_audit + 1);
    let (kind, action): (String, String) = open_db(s.dir())
        .query_row(
            "SELECT actor_kind, action FROM audit_log WHERE object_id = ?1 ORDER BY seq DESC LIMIT 1",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("audit");
    assert_eq!(
        (kind.as_str(), action.as_str()),
        ("api_token", "correction_identite")
    );

    // Refusals: the REST reason, nothing written.
    for body in [
        json!({ "type": "fusée" }),
        json!({ "couleur": "rouge" }),
        json!({ "number": 12 }),
    ] {
        let mut arguments = body.clone();
        arguments["id"] = json!(id);
        let refusal = refused(&client, "modifier_identite_equipement", arguments).await;
        assert_eq!(refusal.0, 422, "{refusal:?}");
        assert_eq!(
            refusal,
            as_refusal(
                s.rest("PATCH", &format!("/equipment/{id}/identity"), Some(body))
                    .await
            )
        );
    }
    assert_eq!(
        refused(
            &client,
            "modifier_identite_equipement",
            json!({ "id": "inconnu", "location": "x" })
        )
        .await
        .0,
        404
    );
    assert_eq!(s.count("SELECT COUNT(*) FROM audit_log"), before_audit + 1);
    client.cancel().await.expect("close");
    s.server.stop().await;
}

#[tokio::test]
async fn survey_tools_answer_as_the_rest_api_and_note_discrepancies() {
    let s = scene().await;
    let client = connect(&s.server, &s.token, None).await;

    let list = ok(&client, "releves", json!({})).await;
    let (_, rest) = s.rest("GET", "/surveys", None).await;
    assert_eq!(list, rest);
    let list = ok(
        &client,
        "releves",
        json!({ "q": "2026-0000", "limit": 3, "page": 2 }),
    )
    .await;
    let (_, rest) = s
        .rest("GET", "/surveys?q=2026-0000&limit=3&page=2", None)
        .await;
    assert_eq!(list, rest);
    assert_eq!(list["results"].as_array().map(Vec::len), Some(3));
    assert_eq!(
        refused(&client, "releves", json!({ "page": 0 })).await,
        as_refusal(s.rest("GET", "/surveys?page=0", None).await)
    );

    let survey = s.one(
        "SELECT id FROM surveys WHERE agency_id = ?1 AND status = 'termine' ORDER BY number LIMIT 1",
    );
    let read = ok(&client, "releve", json!({ "id": survey })).await;
    let (_, rest) = s.rest("GET", &format!("/surveys/{survey}"), None).await;
    assert_eq!(read, rest);
    assert_eq!(read["fields"]["status"], "Terminé");
    let data = ok(&client, "donnees_releve", json!({ "id": survey })).await;
    let (_, rest) = s
        .rest("GET", &format!("/surveys/{survey}/data"), None)
        .await;
    assert_eq!(data, rest);
    assert_eq!(
        refused(&client, "releve", json!({ "id": "inconnu" })).await,
        (404, "Relevé introuvable.".to_owned())
    );
    assert_eq!(
        refused(&client, "donnees_releve", json!({ "id": "inconnu" })).await,
        (404, "Relevé introuvable.".to_owned())
    );

    // « Note un écart sur la porte cabine de ce relevé. »
    let equipment = data["equipment"]["id"]
        .as_str()
        .expect("equipment")
        .to_owned();
    let before = s.count("SELECT COUNT(*) FROM discrepancies");
    let created = ok(
        &client,
        "signaler_ecart",
        json!({
            "equipmentId": equipment,
            "surveyId": survey,
            "component": "car_door",
            "finding": "  Le galet de la porte cabine est usé.  "
        }),
    )
    .await;
    let discrepancy = created["id"].as_str().expect("id").to_owned();
    assert_eq!(
        created,
        json!({
            "id": discrepancy,
            "ok": true,
            "link": format!("/ecarts/{discrepancy}"),
            "url": s.server.url(&format!("/ecarts/{discrepancy}")),
        })
    );
    let row: (String, String, Option<String>, String, String) = open_db(s.dir())
        .query_row(
            "SELECT d.equipment_id, d.survey_id, d.component, d.finding, a.actor_kind
             FROM discrepancies d JOIN audit_log a ON a.object_id = d.id WHERE d.id = ?1",
            [&discrepancy],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .expect("discrepancy");
    assert_eq!(
        row,
        (
            equipment.clone(),
            survey.clone(),
            Some("car_door".to_owned()),
            "Le galet de la porte cabine est usé.".to_owned(),
            "api_token".to_owned()
        )
    );
    assert_eq!(s.count("SELECT COUNT(*) FROM discrepancies"), before + 1);

    // Refused: the REST status and French reason; nothing written.
    let other_survey = s.one(&format!(
        "SELECT id FROM surveys WHERE agency_id = ?1 AND equipment_id <> '{equipment}' LIMIT 1"
    ));
    let audit = s.count("SELECT COUNT(*) FROM audit_log");
    for body in [
        json!({ "equipmentId": equipment, "surveyId": other_survey, "finding": "Porte cabine bruyante." }),
        json!({ "equipmentId": equipment, "surveyId": survey, "component": "porte", "finding": "Porte bruyante." }),
        json!({ "equipmentId": equipment, "surveyId": survey, "finding": " a " }),
        json!({ "equipmentId": equipment, "surveyId": survey }),
        json!({ "equipmentId": equipment, "surveyId": survey, "finding": "Usé.", "gravite": "haute" }),
        json!({ "equipmentId": "inconnu", "surveyId": survey, "finding": "Porte bruyante." }),
    ] {
        let refusal = refused(&client, "signaler_ecart", body.clone()).await;
        assert_eq!(refusal.0, 422, "{refusal:?}");
        assert_eq!(
            refusal,
            as_refusal(s.rest("POST", "/discrepancies", Some(body)).await)
        );
    }
    let other_number = s.one(&format!(
        "SELECT number FROM surveys WHERE id = '{other_survey}' AND agency_id = ?1"
    ));
    assert_eq!(
        refused(
            &client,
            "signaler_ecart",
            json!({ "equipmentId": equipment, "surveyId": other_survey, "finding": "Porte cabine bruyante." })
        )
        .await,
        (
            422,
            format!(
                "Le relevé « {other_number} » n'est pas un relevé de cet équipement : indiquez un relevé de l'équipement."
            )
        )
    );
    assert_eq!(s.count("SELECT COUNT(*) FROM discrepancies"), before + 1);
    assert_eq!(s.count("SELECT COUNT(*) FROM audit_log"), audit);

    // Submission: refused to an account that does not survey, then done.
    let to_do = s.one(
        "SELECT id FROM surveys WHERE agency_id = ?1 AND status = 'a_realiser' ORDER BY number LIMIT 1",
    );
    let member = connect(&s.server, &s.member_token, None).await;
    let refusal = refused(&member, "soumettre_releve", json!({ "id": to_do })).await;
    assert_eq!(refusal.0, 403);
    assert_eq!(
        refusal,
        as_refusal(
            rest_as(
                &s.server,
                &s.member_token,
                "POST",
                &format!("/surveys/{to_do}/submit"),
                Some(json!({}))
            )
            .await
        )
    );
    member.cancel().await.expect("close");
    let refusal = refused(
        &client,
        "soumettre_releve",
        json!({ "id": to_do, "values": { "charge_utile": "lourd" } }),
    )
    .await;
    assert_eq!(refusal.0, 422);
    let submitted = ok(
        &client,
        "soumettre_releve",
        json!({ "id": to_do, "values": { "charge_utile": 630, "porte_cabine_type": "Automatique centrale" } }),
    )
    .await;
    assert_eq!(
        submitted,
        json!({
            "id": to_do,
            "ok": true,
            "status": "termine",
            "link": format!("/releves/{to_do}"),
            "url": s.server.url(&format!("/releves/{to_do}")),
        })
    );
    let (_, rest) = s.rest("GET", &format!("/surveys/{to_do}"), None).await;
    assert_eq!(rest["fields"]["status"], "Terminé");
    let (_, rest) = s.rest("GET", &format!("/surveys/{to_do}/data"), None).await;
    let surveyed: Vec<&Value> = rest["components"]
        .as_object()
        .expect("components")
        .values()
        .flat_map(|data| data.as_array().expect("data"))
        .filter(|d| d["code"] == "charge_utile")
        .collect();
    assert_eq!(surveyed.len(), 1);
    assert_eq!(surveyed[0]["valeur"], json!(630));
    // A second submission is refused as REST refuses it.
    let again = refused(&client, "soumettre_releve", json!({ "id": to_do })).await;
    assert_eq!(again.0, 422);
    assert_eq!(
        again,
        as_refusal(
            s.rest("POST", &format!("/surveys/{to_do}/submit"), Some(json!({})))
                .await
        )
    );
    client.cancel().await.expect("close");
    s.server.stop().await;
}

#[tokio::test]
async fn another_organization_or_agency_sees_nothing_and_changes_nothing() {
    let s = scene().await;
    let equipment = s.one("SELECT id FROM equipment WHERE agency_id = ?1 AND number IS NOT NULL ORDER BY number LIMIT 1");
    let number = s.one(&format!(
        "SELECT number FROM equipment WHERE id = '{equipment}' AND agency_id = ?1"
    ));
    let survey = s.one(
        "SELECT id FROM surveys WHERE agency_id = ?1 AND status = 'a_realiser' ORDER BY number LIMIT 1",
    );
    let survey_equipment = s.one(&format!(
        "SELECT equipment_id FROM surveys WHERE id = '{survey}' AND agency_id = ?1"
    ));
    let writes = || {
        (
            s.count("SELECT COUNT(*) FROM audit_log"),
            s.count("SELECT COUNT(*) FROM discrepancies"),
            s.count("SELECT COUNT(*) FROM surveys WHERE status = 'termine'"),
        )
    };
    let before = writes();
    let outsider = connect(&s.server, &s.outsider_token, None).await;
    let second = connect(&s.server, &s.token, Some(&s.second_agency)).await;
    for client in [&outsider, &second] {
        let found = ok(client, "equipements", json!({ "q": number })).await;
        assert_eq!(found["total"], 0, "{found}");
        assert_eq!(
            refused(client, "equipement", json!({ "number": number })).await,
            (
                404,
                "Aucun équipement de l'agence ne correspond.".to_owned()
            )
        );
        assert_eq!(
            refused(
                client,
                "champs_techniques",
                json!({ "equipment": equipment, "q": "charge" })
            )
            .await,
            (404, "Équipement introuvable.".to_owned())
        );
        assert_eq!(
            refused(
                client,
                "modifier_identite_equipement",
                json!({ "id": equipment, "location": "Ailleurs" })
            )
            .await
            .0,
            404
        );
        let surveys = ok(client, "releves", json!({ "q": "REL" })).await;
        let listed: Vec<&Value> = surveys["results"]
            .as_array()
            .expect("results")
            .iter()
            .collect();
        assert!(listed.iter().all(|r| r["id"] != json!(survey)));
        for tool in ["releve", "donnees_releve", "soumettre_releve"] {
            assert_eq!(
                refused(client, tool, json!({ "id": survey })).await,
                (404, "Relevé introuvable.".to_owned()),
                "{tool}"
            );
        }
        let (status, reason) = refused(
            client,
            "signaler_ecart",
            json!({ "equipmentId": survey_equipment, "surveyId": survey, "finding": "Porte cabine bruyante." }),
        )
        .await;
        assert_eq!(status, 422);
        assert!(reason.contains("introuvable dans cette agence"), "{reason}");
    }
    let (_, rest) = rest_as(&s.server, &s.outsider_token, "GET", "/surveys", None).await;
    assert_eq!(ok(&outsider, "releves", json!({})).await, rest);
    assert_eq!(writes(), before);
    outsider.cancel().await.expect("close");
    second.cancel().await.expect("close");
    s.server.stop().await;
}

fn sheet_uri(id: &str) -> String {
    format!("liftdesk://equipements/{id}/fiche")
}

async fn read_sheet(client: &Client, uri: &str) -> Result<(String, Option<String>), ServiceError> {
    let result = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await?;
    assert_eq!(result.contents.len(), 1);
    match &result.contents[0] {
        ResourceContents::TextResourceContents {
            uri: read,
            mime_type,
            text,
            ..
        } => {
            assert_eq!(read, uri);
            Ok((text.clone(), mime_type.clone()))
        }
        other => panic!("text expected: {other:?}"),
    }
}

fn not_found(outcome: Result<(String, Option<String>), ServiceError>) -> String {
    match outcome {
        Err(ServiceError::McpError(error)) => {
            assert!(
                error.code == ErrorCode::RESOURCE_NOT_FOUND
                    || error.code == ErrorCode::INVALID_PARAMS,
                "{error:?}"
            );
            error.message.to_string()
        }
        other => panic!("resource not found expected: {other:?}"),
    }
}

#[tokio::test]
async fn the_equipment_sheet_is_a_resource_of_the_agency_only() {
    let s = scene().await;
    let client = connect(&s.server, &s.token, None).await;
    let info = client.peer_info().expect("server info");
    assert!(info.capabilities.resources.is_some());
    assert!(info.capabilities.prompts.is_some());
    let templates = client
        .list_all_resource_templates()
        .await
        .expect("templates");
    assert_eq!(templates.len(), 1);
    assert_eq!(
        templates[0].uri_template,
        "liftdesk://equipements/{id}/fiche"
    );
    assert_eq!(templates[0].mime_type.as_deref(), Some("text/markdown"));

    // An equipment with technical data, a building, a client and visits.
    let id = s.one(
        "SELECT e.id FROM equipment e
         WHERE e.agency_id = ?1 AND e.client_id IS NOT NULL
           AND EXISTS (SELECT 1 FROM buildings b WHERE b.id = e.building_id AND b.name IS NOT NULL)
           AND EXISTS (SELECT 1 FROM equipment_values v WHERE v.equipment_id = e.id AND v.field_code = 'charge_utile')
           AND EXISTS (SELECT 1 FROM equipment_values v WHERE v.equipment_id = e.id AND v.field_code = 'porte_cabine_type')
           AND EXISTS (SELECT 1 FROM visits v WHERE v.equipment_id = e.id)
         ORDER BY e.number LIMIT 1",
    );
    let (number, load, door, building, client_name): (String, String, String, String, String) =
        open_db(s.dir())
            .query_row(
                "SELECT e.number,
                        (SELECT value FROM equipment_values WHERE equipment_id = e.id AND field_code = 'charge_utile'),
                        (SELECT value FROM equipment_values WHERE equipment_id = e.id AND field_code = 'porte_cabine_type'),
                        b.name, c.nom
                 FROM equipment e JOIN buildings b ON b.id = e.building_id JOIN clients c ON c.id = e.client_id
                 WHERE e.id = ?1",
                [&id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )
            .expect("equipment");
    let door: String = serde_json::from_str(&door).expect("text value");
    let (text, mime) = read_sheet(&client, &sheet_uri(&id)).await.expect("sheet");
    assert_eq!(mime.as_deref(), Some("text/markdown"));
    assert!(
        text.starts_with(&format!(
            "# Fiche de l'équipement {}\n",
            number.replace('_', "\\_")
        )),
        "{text}"
    );
    for expected in [
        "\n## Identité\n",
        &format!("- **Numéro** : {number}\n"),
        "\n## Immeuble\n",
        &format!("- **Nom** : {building}\n"),
        "\n## Client\n",
        &format!("- **Nom** : {client_name}\n"),
        "\n## Contrat\n",
        "\n## Données techniques\n",
        "\n### Appareil\n",
        &format!("- **Charge utile** : {} kg\n", load.replace('.', ",")),
        "\n### Porte de cabine\n",
        &format!("- **Type de porte cabine** : {door}\n"),
        "\n## Taux de connaissance\n",
        " %\n",
        "\n## Dernières visites\n\n| Prévue le | Statut | Faite le | Observations |\n| --- | --- | --- | --- |\n",
        "\n## Appels en cours\n",
        "\n## Dernier relevé\n",
    ] {
        assert!(text.contains(expected), "{expected:?} absent:\n{text}");
    }
    assert!(!text.contains('<'), "no HTML: {text}");
    // The knowledge rate is the one of the REST API.
    let (_, data) = s
        .rest(
            "GET",
            &format!("/external/equipment/data?number={}", query(&number)),
            None,
        )
        .await;
    let rate = data["knowledgeRate"].as_f64().expect("rate");
    assert!(
        text.contains(&format!("\n## Taux de connaissance\n\n{rate:.0} %\n")),
        "{text}"
    );

    // Another organization, another agency of the same organization, an
    // unknown id, another address: not found, nothing revealed.
    let outsider = connect(&s.server, &s.outsider_token, None).await;
    let second = connect(&s.server, &s.token, Some(&s.second_agency)).await;
    for other in [&outsider, &second] {
        assert_eq!(
            not_found(read_sheet(other, &sheet_uri(&id)).await),
            "Équipement introuvable."
        );
    }
    assert_eq!(
        not_found(read_sheet(&client, &sheet_uri("inconnu")).await),
        "Équipement introuvable."
    );
    let message = not_found(read_sheet(&client, "liftdesk://releves/x").await);
    assert!(
        message.contains("liftdesk://equipements/{id}/fiche"),
        "{message}"
    );
    outsider.cancel().await.expect("close");
    second.cancel().await.expect("close");
    client.cancel().await.expect("close");
    s.server.stop().await;
}

#[tokio::test]
async fn the_prompts_are_listed_and_rendered_in_french() {
    let s = scene().await;
    let client = connect(&s.server, &s.token, None).await;
    let prompts = client.list_all_prompts().await.expect("prompts");
    let mut names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        ["preparer_semaine_technicien", "rediger_devis_reparation"]
    );
    let arguments = |name: &str| -> Vec<(String, bool)> {
        let prompt = prompts.iter().find(|p| p.name == name).expect("prompt");
        assert!(prompt.description.as_deref().is_some_and(|d| !d.is_empty()));
        prompt
            .arguments
            .as_ref()
            .expect("arguments")
            .iter()
            .map(|a| {
                assert!(
                    a.description.as_deref().is_some_and(|d| !d.is_empty()),
                    "{a:?}"
                );
                (a.name.clone(), a.required == Some(true))
            })
            .collect::<std::collections::BTreeMap<_, _>>()
            .into_iter()
            .collect()
    };
    assert_eq!(
        arguments("preparer_semaine_technicien"),
        [("jour".to_owned(), false), ("technicien".to_owned(), true)]
    );
    assert_eq!(
        arguments("rediger_devis_reparation"),
        [
            ("equipement".to_owned(), true),
            ("origine".to_owned(), false),
            ("travaux".to_owned(), true)
        ]
    );

    let text_of = |result: &rmcp::model::GetPromptResult| -> String {
        assert_eq!(result.messages.len(), 1);
        assert_eq!(result.messages[0].role, rmcp::model::Role::User);
        result.messages[0]
            .content
            .as_text()
            .map(|t| t.text.clone())
            .expect("text")
    };
    let week = client
        .get_prompt(
            GetPromptRequestParams::new("preparer_semaine_technicien").with_arguments(
                json!({ "technicien": "Karim", "jour": "2026-03-09" })
                    .as_object()
                    .cloned()
                    .expect("object"),
            ),
        )
        .await
        .expect("prompt");
    let text = text_of(&week);
    for expected in [
        "« Karim »",
        "2026-03-09",
        "`techniciens`",
        "liftdesk://equipements/{id}/fiche",
        "Ne modifie rien",
    ] {
        assert!(text.contains(expected), "{expected} absent: {text}");
    }
    let quote = client
        .get_prompt(
            GetPromptRequestParams::new("rediger_devis_reparation").with_arguments(
                json!({ "equipement": "ASC-10012", "travaux": "remplacement des galets de porte cabine" })
                    .as_object()
                    .cloned()
                    .expect("object"),
            ),
        )
        .await
        .expect("prompt");
    let text = text_of(&quote);
    for expected in [
        "« ASC-10012 »",
        "remplacement des galets de porte cabine",
        "`equipements`",
        "`champs_techniques`",
        "brouillon",
        "`panne`",
    ] {
        assert!(text.contains(expected), "{expected} absent: {text}");
    }
    // A required argument missing: the request is refused.
    let missing = client
        .get_prompt(GetPromptRequestParams::new("rediger_devis_reparation"))
        .await;
    assert!(
        matches!(missing, Err(ServiceError::McpError(_))),
        "{missing:?}"
    );
    client.cancel().await.expect("close");
    s.server.stop().await;
}
