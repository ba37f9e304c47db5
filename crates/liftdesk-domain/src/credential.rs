//! The kinds of credential that open the APIs besides a staff session: what
//! each one is stored as and called in French. Which door each kind opens,
//! and what it may do there, is the application layer's `Principal`.

wire_enum! {
    /// What a stored credential is.
    pub enum CredentialKind {
        /// An account's personal token: REST API v2 and MCP, with the
        /// account's role.
        ApiToken => "api_token", "Jeton d'API";
        /// A call center's key: the call-center API, in one agency.
        CallCenterKey => "call_center_key", "Clé de centre d'appels";
        /// A partner's key: the partner workflow API, in one agency.
        PartnerKey => "partner_key", "Clé partenaire";
    }
}
