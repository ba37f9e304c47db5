//! The account of the token and the agencies it can read.

use axum::http::request::Parts;
use rmcp::handler::server::tool::Extension;
use rmcp::{tool, tool_router};

use super::caller_of;
use crate::api::mcp::result::{ToolAnswer, answer};
use crate::api::mcp::server::LiftdeskMcp;
use crate::api::wire::{agencies, me};

#[tool_router(router = account_tools, vis = "pub(in crate::api::mcp)")]
impl LiftdeskMcp {
    /// Le compte qui possède le jeton : nom, e-mail, agence où agissent les outils et agences
    /// où le compte travaille. À appeler d'abord pour savoir qui l'on est et dans quelle agence.
    #[tool(name = "compte", annotations(read_only_hint = true))]
    async fn account(&self, Extension(parts): Extension<Parts>) -> ToolAnswer {
        answer(caller_of(&parts).and_then(|caller| me::account_view(&caller)))
    }

    /// Les agences lisibles par le compte, avec leur organisation et leur identifiant V1.
    /// Un identifiant d'agence se donne ensuite dans l'en-tête X-Service-Agency.
    #[tool(name = "agences", annotations(read_only_hint = true))]
    async fn agencies(&self, Extension(parts): Extension<Parts>) -> ToolAnswer {
        answer(caller_of(&parts).and_then(|caller| agencies::agency_list(&caller)))
    }
}
