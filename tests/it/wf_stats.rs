//! Partner workflow API: `/get_opportunities_stats`.

use crate::common;
use crate::wf;

use common::world::World;
use serde_json::json;
use wf::*;

/// A deal of the agency asked for at `created_at` through `/create_survey`
/// (by type of deal, else by inventory type), still `Ouverte`.
async fn deal(s: &Setup, agency: &str, created_at: &str, type_affaire: Option<&str>) {
    let world = World::in_agency(&s.server, agency);
    let surveyor = format!("releveur-{}@alpha.fr", id());
    world.staff_account(&surveyor, true).await;
    let inventory: &[&str] = match type_affaire {
        Some(_) => &[],
        None => &["Base parc"],
    };
    let at = liftdesk::clock::parse_timestamp(created_at).expect("instant");
    world
        .at(at, || {
            world.requested_survey("ASC-1", &surveyor, type_affaire, inventory)
        })
        .await;
}

/// A deal of the agency asked for at `created_at`, then moved to
/// `category` at the same instant.
async fn deal_in_category(
    s: &Setup,
    agency: &str,
    created_at: &str,
    type_affaire: Option<&str>,
    category: &str,
) {
    let world = World::in_agency(&s.server, agency);
    let surveyor = format!("releveur-{}@alpha.fr", id());
    world.staff_account(&surveyor, true).await;
    let at = liftdesk::clock::parse_timestamp(created_at).expect("instant");
    world
        .at(at, || async {
            let (deal, _) = world
                .requested_survey("ASC-1", &surveyor, type_affaire, &[])
                .await;
            world.deal_category(&deal, category).await;
        })
        .await;
}

#[tokio::test]
async fn counts_the_deals_of_that_one_agency_by_dates_type_and_category() {
    let s = setup().await;
    deal(&s, &s.agency, "2026-03-01T08:00:00.000Z", Some("Contrat")).await;
    deal_in_category(
        &s,
        &s.agency,
        "2026-03-15T23:59:00.000Z",
        Some("Réparation"),
        "Gagnée",
    )
    .await;
    deal(&s, &s.agency, "2026-04-02T10:00:00.000Z", None).await;
    deal(
        &s,
        &s.other_agency,
        "2026-03-10T10:00:00.000Z",
        Some("Contrat"),
    )
    .await;
    let count = |body: serde_json::Value| {
        let s = &s;
        async move {
            let mut body = body;
            body["agency_id"] = json!(s.agency);
            success(post(&s.server, &s.key, "/get_opportunities_stats", &body).await)
        }
    };
    assert_eq!(count(json!({})).await, json!({ "opportunities_count": 3 }));
    assert_eq!(
        count(json!({ "from": "2026-03-01", "to": "2026-03-15" })).await,
        json!({ "opportunities_count": 2 })
    );
    assert_eq!(
        count(json!({ "from": "2026-03-02" })).await,
        json!({ "opportunities_count": 2 })
    );
    assert_eq!(
        count(json!({ "to": "2026-03-01" })).await,
        json!({ "opportunities_count": 1 })
    );
    assert_eq!(
        count(json!({ "opportunity_type": "Contrat" })).await,
        json!({ "opportunities_count": 1 })
    );
    assert_eq!(
        count(json!({ "opportunity_category": "Ouverte" })).await,
        json!({ "opportunities_count": 2 })
    );
    assert_eq!(
        count(json!({ "opportunity_type": "Réparation", "opportunity_category": "Ouverte" })).await,
        json!({ "opportunities_count": 0 })
    );
    for value in [
        "Contrat",
        "Réparation",
        "Modernisation pour devis",
        "Remplacement complet pour devis",
        "Modernisation pour commande",
        "Remplacement complet pour commande",
    ] {
        count(json!({ "opportunity_type": value })).await;
    }
    for value in [
        "Ouverte",
        "En attente",
        "En retard",
        "Gagnée",
        "Perdue",
        "Annulée",
        "Fermée",
    ] {
        count(json!({ "opportunity_category": value })).await;
    }
}

#[tokio::test]
async fn refuses_bad_dates_and_values_outside_the_lists() {
    let s = setup().await;
    for (body, field) in [
        (json!({ "from": "01/03/2026" }), "from"),
        (json!({ "to": "2026-02-30" }), "to"),
        (json!({ "from": "2026-03-02", "to": "2026-03-01" }), "from"),
        (json!({ "opportunity_type": "Vente" }), "opportunity_type"),
        (
            json!({ "opportunity_category": "ouverte" }),
            "opportunity_category",
        ),
        (json!({ "from": 2026 }), "from"),
    ] {
        let mut body = body;
        body["agency_id"] = json!(s.agency);
        let message = error(
            post(&s.server, &s.key, "/get_opportunities_stats", &body).await,
            422,
        );
        assert!(message.contains(field), "{body}: {message}");
    }
    let message = error(
        post(&s.server, &s.key, "/get_opportunities_stats", &json!({})).await,
        422,
    );
    assert!(message.contains("agency_id"), "{message}");
}
