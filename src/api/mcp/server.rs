//! The MCP server handler: its identity, its instructions for the model,
//! the union of the tool groups (one file per group under `tools/`), the
//! resources (the equipment sheet) and the prompts.

use axum::http::request::Parts;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    Implementation, ListResourceTemplatesResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, prompt_handler, tool_handler};

use super::tools::equipment;
use crate::state::AppState;

/// One per HTTP request (the transport is stateless); cheap to make, since
/// the tool set is built once and cloned.
#[derive(Clone)]
pub struct LiftdeskMcp {
    pub(super) state: AppState,
    tool_router: ToolRouter<Self>,
}

const INSTRUCTIONS: &str = "Liftdesk est le back-office d'une agence de maintenance d'ascenseurs. \
Les outils agissent au nom du compte du jeton, avec ses droits, dans l'agence de l'en-tête \
X-Service-Agency (sinon l'agence par défaut du compte) : ce qui n'est pas de cette agence est \
introuvable. Les réponses ont les formes de l'API REST v2 (dates AAAA-MM-JJ, montants en euros). \
Un refus est une erreur d'outil {\"error\": raison en français, \"status\": code HTTP}. \
La fiche complète d'un équipement se lit en Markdown comme ressource \
liftdesk://equipements/{id}/fiche.";

impl LiftdeskMcp {
    pub fn new(state: AppState, tool_router: ToolRouter<Self>) -> Self {
        Self { state, tool_router }
    }

    /// Every tool group.
    pub fn tool_set() -> ToolRouter<Self> {
        Self::account_tools()
            + Self::planning_tools()
            + Self::calls_tools()
            + Self::equipment_tools()
            + Self::survey_tools()
            + Self::billing_tools()
            + Self::contract_tools()
            + Self::contacts_tools()
            + Self::buildings_tools()
    }
}

#[tool_handler(router = self.tool_router)]
#[prompt_handler(router = Self::prompt_set())]
impl ServerHandler for LiftdeskMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
        .with_server_info(
            Implementation::new("liftdesk", env!("CARGO_PKG_VERSION")).with_title("Liftdesk"),
        )
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(
            equipment::resource_templates(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let parts = context.extensions.get::<Parts>();
        self.read_sheet(&request.uri, parts).await.map(Into::into)
    }
}
