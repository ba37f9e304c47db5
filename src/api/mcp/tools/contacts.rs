//! Contacts of clients: "add Mme Martin, the caretaker, to client X".
//!
//! Both tools call what `GET /contacts/creation` and `POST /contacts` call
//! (`api::wire::contacts`); the arguments of `creer_contact` are the REST body,
//! read by the REST body reader, and its schema is written from the same
//! field table (`services::contacts::FIELDS`) as the descriptor and the
//! validation.

use axum::http::request::Parts;
use rmcp::handler::server::tool::Extension;
use rmcp::model::JsonObject;
use rmcp::{tool, tool_router};

use super::{args, caller_of};
use crate::api::mcp::result::{ToolAnswer, answer};
use crate::api::mcp::server::LiftdeskMcp;
use crate::api::wire::contacts::{self, ContactBody};

#[tool_router(router = contacts_tools, vis = "pub(in crate::api::mcp)")]
impl LiftdeskMcp {
    /// Le formulaire de création d'un contact : `{type, parent, fields}`. `parent` dit à quoi
    /// rattacher le contact (un client, obligatoire : `parentId` de `creer_contact`) ; chaque
    /// champ de `fields` a son `id` (la clé à donner dans `champs`), son libellé en français,
    /// `required`, son `type` (`text`, `email`, `choice`…) et, pour un choix, les `values`
    /// autorisées (par ex. les fonctions possibles : « Gardien », « Référent sur site »…). À
    /// lire avant `creer_contact` quand on ne sait pas quels champs remplir ni quelles valeurs
    /// choisir.
    #[tool(
        name = "descripteur_contact",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn contact_descriptor(&self, Extension(parts): Extension<Parts>) -> ToolAnswer {
        answer(caller_of(&parts).map(|_| contacts::contact_descriptor()))
    }

    /// Ajoute un contact (une personne : gardien, gestionnaire, référent sur site…) à un client
    /// de l'agence. `parentId` : l'identifiant du client, l'`id` d'une ligne de l'outil
    /// `clients` (par ex. « CLI-000105 »). `champs` : `nom` (obligatoire, nom complet),
    /// `email`, `telephone` (ligne directe ou mobile), `fonction` (exactement une des valeurs
    /// du schéma ou de `descripteur_contact` : « Gardien », « Référent sur site »,
    /// « Gestionnaire », « Syndic », « Conseil syndical », « Propriétaire », « Direction »,
    /// « Services techniques », « Comptabilité », « Autre » ; une gardienne est « Gardien »).
    /// Réponse `{id, ok, link, url}` du contact créé. Refus 422, rien n'est créé, avec la
    /// raison en français nommant le champ : client absent, inconnu dans l'agence ou archivé,
    /// nom manquant, e-mail invalide, fonction hors de la liste, champ inconnu, ou un contact
    /// du même nom déjà présent sur ce client.
    #[tool(
        name = "creer_contact",
        input_schema = args::schema::<ContactBody>(),
        annotations(read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn create_contact(
        &self,
        arguments: JsonObject,
        Extension(parts): Extension<Parts>,
    ) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                let body: ContactBody = args::parse(arguments)?;
                contacts::contact_creation(&self.state, &caller, body).await
            }
            .await,
        )
    }
}
