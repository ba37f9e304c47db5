//! The agency's people and their week.

use axum::http::request::Parts;
use rmcp::handler::server::tool::Extension;
use rmcp::{tool, tool_router};

use super::caller_of;
use crate::api::mcp::result::{ToolAnswer, answer};
use crate::api::mcp::server::LiftdeskMcp;
use crate::api::v2::technicians;

#[tool_router(router = planning_tools, vis = "pub(in crate::api::mcp)")]
impl LiftdeskMcp {
    /// Les techniciens de l'agence : secteurs, téléphone, astreinte en cours, absences et repos
    /// de sécurité, appels ouverts. Pour trouver un technicien par son nom (« Karim ») avant de
    /// regarder son planning ou de lui affecter un appel.
    #[tool(name = "techniciens", annotations(read_only_hint = true))]
    async fn technicians(&self, Extension(parts): Extension<Parts>) -> ToolAnswer {
        answer(
            async {
                let caller = caller_of(&parts)?;
                technicians::technician_list(&self.state, &caller).await
            }
            .await,
        )
    }
}
