//! A client's standing with the agency: the closed list the partner API's
//! `statut` takes (`/update_client`), the file imports read and the screens
//! show; and how it is invoiced ([`BillingCategory`]).

wire_enum! {
    /// Where a client stands.
    pub enum ClientStatus {
        /// Not yet under contract: quotes, no invoice expected.
        Prospect => "Prospect", "Prospect";
        /// Under contract with the agency.
        Client => "Client", "Client";
    }
}

wire_enum! {
    /// How the client is invoiced: what the invoice must carry and where it
    /// goes (a public body's through Chorus Pro).
    pub enum BillingCategory {
        /// A company subject to VAT: its VAT number on the invoice.
        Entreprise => "entreprise", "Entreprise assujettie à la TVA";
        /// A co-ownership (syndicat de copropriétaires), not subject to VAT.
        Copropriete => "copropriete", "Copropriété non assujettie à la TVA";
        /// A public body (collectivité, bailleur social public, hôpital…).
        OrganismePublic => "organisme_public", "Organisme public";
    }
}

/// A client made without a `statut` is one.
impl Default for ClientStatus {
    fn default() -> Self {
        ClientStatus::Client
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_codes_are_the_partner_api_values() {
        assert_eq!(ClientStatus::CODES, ["Prospect", "Client"]);
        assert_eq!(ClientStatus::parse("Client"), Some(ClientStatus::Client));
        assert_eq!(ClientStatus::parse("client"), None);
        assert_eq!(ClientStatus::default(), ClientStatus::Client);
    }
}
