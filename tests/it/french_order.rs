//! Names are listed in French order: accents and case do not push « Éric »
//! after « Zoé ».

use crate::common;

use common::world::World;
use common::*;

#[tokio::test]
async fn technicians_are_listed_in_french_order() {
    let dir = tempfile::tempdir().expect("dir");
    let org = init_org(dir.path(), "Org", "admin@org.fr");
    let server = TestServer::start_in(dir).await;
    let world = World::in_agency(&server, &org.agency_id);
    for name in [
        "Zoé Martin",
        "Éric Petit",
        "Céline Roux",
        "Christophe Blanc",
        "denis Leroy",
    ] {
        world.technician(name, None).await;
    }
    let (status, body) = server
        .get_with("/api/v2/technicians", Some(&org.admin_token), None)
        .await;
    assert_eq!(status, 200, "{body}");
    let names: Vec<&str> = body
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "Céline Roux",
            "Christophe Blanc",
            "denis Leroy",
            "Éric Petit",
            "Zoé Martin"
        ]
    );
    server.stop().await;
}
