//! Buildings: "which buildings do we have rue de la Paix?", "add the
//! building 12 rue des Lilas for client X, digicode 4521B".
//!
//! The tools call what `GET /buildings`, `GET /buildings/{id}` and
//! `POST /buildings` call (`api::wire::buildings`); `creer_immeuble` takes
//! the REST body.

use axum::http::request::Parts;
use rmcp::handler::server::tool::Extension;
use rmcp::model::JsonObject;
use rmcp::schemars::{self, JsonSchema};
use rmcp::{tool, tool_router};
use serde::Deserialize;

use super::{args, caller_of};
use crate::api::mcp::result::{ToolAnswer, answer};
use crate::api::mcp::server::LiftdeskMcp;
use crate::api::wire::buildings::{self, NewBuildingBody};
use crate::domain::id::BuildingId;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SearchArg {
    /// Mots cherchés dans le nom, l'adresse, la ville ou le client de l'immeuble
    /// (accents et casse ignorés) ; absent : tous les immeubles.
    #[schemars(length(max = 100))]
    q: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct BuildingArg {
    /// Identifiant (UUID) de l'immeuble : l'`id` d'une ligne de `immeubles`.
    #[schemars(length(min = 1))]
    id: String,
}

#[tool_router(router = buildings_tools, vis = "pub(in crate::api::mcp)")]
impl LiftdeskMcp {
    /// Les immeubles de l'agence qui correspondent à `q` (nom, adresse, ville, client), 50 au
    /// plus par adresse : `{total, results: [{id, name, address, postalCode, city, client,
    /// access, equipmentCount}], accessValues}`. `access` dit comment entrer (digicode, coffre à
    /// clé, Vigik).
    #[tool(
        name = "immeubles",
        input_schema = args::schema::<SearchArg>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn search_buildings(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let SearchArg { q } = args::parse(arguments)?;
                buildings::building_search(&self.state, &caller, q.as_deref()).await
            }
            .await,
        )
    }

    /// Un immeuble de l'agence : son adresse, son client, ses consignes d'accès et son nombre
    /// d'équipements.
    #[tool(
        name = "immeuble",
        input_schema = args::schema::<BuildingArg>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn read_building(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let BuildingArg { id } = args::parse(arguments)?;
                buildings::building_read(&self.state, &caller, BuildingId::new(id)).await
            }
            .await,
        )
    }

    /// Crée un immeuble de l'agence. `address` (rue) est obligatoire ; `name`, `postalCode`,
    /// `city`, `addressComplement` ; `clientId` : l'identifiant du client (l'`id` d'une ligne
    /// de `clients`) ; `access` : `{instructions: [« Sans », « Digicode », « Coffre à clé »,
    /// « Vigik », « Autre »], digicode, keyBox, other}`. Réponse : l'immeuble créé. Refus 422
    /// avec la raison en français nommant le champ.
    #[tool(
        name = "creer_immeuble",
        input_schema = args::schema::<NewBuildingBody>(),
        annotations(read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn create_building(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let body: NewBuildingBody = args::parse(arguments)?;
                buildings::building_create(&self.state, &caller, body).await
            }
            .await,
        )
    }
}
