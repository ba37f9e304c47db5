//! The rules of French electronic invoicing (EN 16931 and the reform's
//! BR-FR rules) that are business decisions rather than XML: why a 0 % line
//! charges no VAT ([`VatExemption`], its EN 16931 category and VATEX code),
//! how a buyer is treated (e-invoicing between companies, Chorus Pro for a
//! public body, e-reporting for a buyer without SIREN or not subject to VAT:
//! [`Treatment`]), the electronic invoicing addresses of the French
//! directory (`SIREN`, `SIREN_SIRET`, `SIREN_SIRET_CODE-SERVICE`: their
//! defaults and their check), the billing mode (BT-23), and the three
//! mentions every invoice carries as notes (PMT, PMD, AAB), printed on the
//! PDF page from the same sentences.

use crate::client::BillingCategory;

/// Longest electronic invoicing address (BR-FR-25).
pub const MAX_ELECTRONIC_ADDRESS_CHARS: usize = 125;
/// Longest Chorus Pro service code.
pub const MAX_SERVICE_CODE_CHARS: usize = 100;
/// The scheme of the French directory's addresses (ISO 6523 ICD 0225).
pub const ADDRESS_SCHEME: &str = "0225";
/// The scheme of a SIREN as legal registration (ISO 6523 ICD 0002).
pub const SIREN_SCHEME: &str = "0002";
/// The billing mode of a lift agency's documents (BT-23): « S1 », an
/// invoice of services (maintenance, repairs) deposited on issue.
pub const BILLING_MODE: &str = "S1";

wire_enum! {
    /// Why a line at 0 % charges no VAT: printed on the document, and in
    /// the electronic invoice as the line's VAT category with its
    /// exemption reason (code and text).
    pub enum VatExemption {
        /// Works subcontracted by a building company: the buyer pays the
        /// VAT (CGI article 283-2 nonies).
        Autoliquidation => "autoliquidation", "Autoliquidation (article 283-2 nonies du CGI)";
        /// A seller under the VAT threshold (CGI article 293 B).
        Franchise => "franchise", "TVA non applicable (article 293 B du CGI)";
    }
}

impl VatExemption {
    /// The EN 16931 VAT category code (BT-151, BT-118): `AE` reverse
    /// charge, `E` exempt.
    pub fn category(self) -> &'static str {
        match self {
            Self::Autoliquidation => "AE",
            Self::Franchise => "E",
        }
    }

    /// The VATEX code of the exemption reason (BT-121).
    pub fn vatex(self) -> &'static str {
        match self {
            Self::Autoliquidation => "VATEX-FR-AE",
            Self::Franchise => "VATEX-FR-FRANCHISE",
        }
    }

    /// The mention the document prints and the electronic invoice carries
    /// as the exemption reason's text (BT-120).
    pub fn mention(self) -> &'static str {
        match self {
            Self::Autoliquidation => {
                "Autoliquidation : TVA due par le preneur (article 283-2 nonies du CGI)"
            }
            Self::Franchise => "TVA non applicable, article 293 B du CGI",
        }
    }
}

/// The first line (numbered from 1) in reverse charge on a document whose
/// buyer has neither SIREN nor VAT number: reverse charge is between
/// companies, and the electronic invoice names the buyer's identifier
/// (EN 16931 BR-AE-02). None when the document may be issued.
pub fn unidentified_reverse_charge(
    exemptions: impl IntoIterator<Item = Option<VatExemption>>,
    buyer_identified: bool,
) -> Option<usize> {
    if buyer_identified {
        return None;
    }
    exemptions
        .into_iter()
        .position(|e| e == Some(VatExemption::Autoliquidation))
        .map(|index| index + 1)
}

/// The exemption text of a 0 % line issued before the reason was asked
/// (documents issued earlier): category `E`, a text and no code.
pub const UNSTATED_EXEMPTION: &str = "Exonération de TVA (motif non précisé sur la pièce)";

/// How the buyer's documents travel once the reform applies: the note
/// `BAR` of the electronic invoice and what the invoice screen says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Treatment {
    /// Between companies subject to VAT: an electronic invoice through the
    /// agency's platform (PDP) to the buyer's.
    B2b,
    /// A public body: an electronic invoice through Chorus Pro.
    Public,
    /// A buyer without SIREN or not subject to VAT (a private person, a
    /// co-ownership): the invoice is given as before (PDF, paper) and the
    /// agency's platform reports its data to the tax administration
    /// (e-reporting).
    EReporting,
}

impl Treatment {
    /// The buyer's treatment: a public body goes through Chorus Pro; a
    /// co-ownership not subject to VAT, or a buyer without SIREN, through
    /// e-reporting; any other buyer with a SIREN (a company, or a client
    /// whose category is not said yet) by e-invoicing.
    pub fn of(category: Option<BillingCategory>, siren: Option<&str>) -> Self {
        match (category, siren) {
            (_, None) => Self::EReporting,
            (Some(BillingCategory::OrganismePublic), Some(_)) => Self::Public,
            (Some(BillingCategory::Copropriete), Some(_)) => Self::EReporting,
            (Some(BillingCategory::Entreprise) | None, Some(_)) => Self::B2b,
        }
    }

    /// The value of the `BAR` note (BR-FR-20).
    pub fn bar(self) -> &'static str {
        match self {
            Self::B2b | Self::Public => "B2B",
            Self::EReporting => "B2C",
        }
    }

    /// The wire code the screens read.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::B2b => "facturation_electronique",
            Self::Public => "chorus_pro",
            Self::EReporting => "e_reporting",
        }
    }

    /// What the invoice screen says of it.
    pub fn explanation(self) -> &'static str {
        match self {
            Self::B2b => {
                "Facture électronique : à transmettre par la plateforme agréée de l'agence à celle du client (adresse électronique du client)."
            }
            Self::Public => {
                "Organisme public : la facture électronique est transmise par Chorus Pro (SIRET et code service du client)."
            }
            Self::EReporting => {
                "Client sans SIREN ou non assujetti à la TVA : la facture lui est remise comme aujourd'hui, et ses données sont transmises à l'administration par la plateforme de l'agence (e-reporting)."
            }
        }
    }
}

/// The electronic invoicing address a buyer is reached at by default, as
/// the French directory writes it: its SIREN; for a public body with a
/// SIRET, `SIREN_SIRET`, and with a service code `SIREN_SIRET_CODE`. None
/// without a SIREN.
pub fn default_address(
    category: Option<BillingCategory>,
    siren: Option<&str>,
    siret: Option<&str>,
    service_code: Option<&str>,
) -> Option<String> {
    let siren = siren?;
    if category != Some(BillingCategory::OrganismePublic) {
        return Some(siren.to_owned());
    }
    match (siret, service_code) {
        (Some(siret), Some(code)) => Some(format!("{siren}_{siret}_{code}")),
        (Some(siret), None) => Some(format!("{siren}_{siret}")),
        _ => Some(siren.to_owned()),
    }
}

/// The address a document of a buyer without SIREN carries (BT-49 is
/// required by BR-FR-12): the agency's own address suffixed with the
/// client's reference (`SIREN_CLI-0042`), the directory's `SIREN_SUFFIXE`
/// form in the seller's own name; such a document is not routed to the
/// buyer but reported (e-reporting).
pub fn reporting_address(seller_siren: &str, client_ref: &str) -> String {
    let suffix: String = client_ref
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let address = format!("{seller_siren}_{suffix}");
    address.chars().take(MAX_ELECTRONIC_ADDRESS_CHARS).collect()
}

/// Checks an electronic invoicing address as typed (BR-FR-23, BR-FR-25):
/// letters, digits, `-`, `_` and `.`, at most 125 characters, beginning
/// with the party's SIREN when it has one (BR-FR-21). Returns it trimmed.
pub fn check_address(address: &str, siren: Option<&str>) -> Result<String, String> {
    let address = address.trim();
    if address.is_empty() {
        return Err("L'adresse de facturation électronique est vide.".to_owned());
    }
    if address.chars().count() > MAX_ELECTRONIC_ADDRESS_CHARS {
        return Err(format!(
            "L'adresse de facturation électronique ne doit pas dépasser {MAX_ELECTRONIC_ADDRESS_CHARS} caractères."
        ));
    }
    if let Some(bad) = address
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
    {
        return Err(format!(
            "L'adresse de facturation électronique « {address} » contient « {bad} » : seuls les lettres sans accent, les chiffres et les signes - _ . sont permis (par exemple 732829320 ou 732829320_FACTURES)."
        ));
    }
    if let Some(siren) = siren
        && !address.starts_with(siren)
    {
        return Err(format!(
            "L'adresse de facturation électronique « {address} » doit commencer par le SIREN {siren} (annuaire de la facturation électronique)."
        ));
    }
    Ok(address.to_owned())
}

/// Checks a Chorus Pro service code as typed: letters, digits, `-`, `_` and
/// `.`, at most 100 characters. Returns it trimmed.
pub fn check_service_code(code: &str) -> Result<String, String> {
    let code = code.trim();
    if code.is_empty() {
        return Err("Le code service Chorus Pro est vide.".to_owned());
    }
    if code.chars().count() > MAX_SERVICE_CODE_CHARS
        || !code
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(format!(
            "Le code service Chorus Pro « {code} » n'est pas valable : {MAX_SERVICE_CODE_CHARS} caractères au plus, lettres sans accent, chiffres et signes - _ . seulement."
        ));
    }
    Ok(code.to_owned())
}

/// The note on the recovery indemnity (`PMT`, Code de commerce L441-10):
/// 40 € owed by a professional buyer paying late.
pub fn recovery_mention(professional_buyer: bool) -> &'static str {
    if professional_buyer {
        "Indemnité forfaitaire pour frais de recouvrement : 40\u{a0}€"
    } else {
        "Indemnité forfaitaire pour frais de recouvrement : sans objet (client non professionnel)."
    }
}

/// The note on late-payment penalties (`PMD`, Code de commerce L441-10).
pub const PENALTIES_MENTION: &str = "Pénalités de retard : trois fois le taux d'intérêt légal.";

/// The note on the discount for early payment (`AAB`).
pub const DISCOUNT_MENTION: &str = "Pas d'escompte pour paiement anticipé.";

/// The nature of the operations invoiced, a mention of the reform
/// (« catégorie de l'opération »): services.
pub const OPERATION_MENTION: &str = "Catégorie de l'opération : prestation de services (maintenance et réparation d'appareils élévateurs).";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exemption_codes_are_of_the_vatex_list() {
        assert_eq!(VatExemption::CODES, ["autoliquidation", "franchise"]);
        for exemption in VatExemption::ALL {
            assert!(exemption.vatex().starts_with("VATEX-FR-"));
            assert!(["AE", "E"].contains(&exemption.category()));
        }
    }

    #[test]
    fn reverse_charge_needs_an_identified_buyer() {
        let lines = [
            None,
            Some(VatExemption::Franchise),
            Some(VatExemption::Autoliquidation),
        ];
        assert_eq!(unidentified_reverse_charge(lines, false), Some(3));
        assert_eq!(unidentified_reverse_charge(lines, true), None);
        assert_eq!(
            unidentified_reverse_charge([None, Some(VatExemption::Franchise)], false),
            None
        );
    }

    #[test]
    fn treatments() {
        use BillingCategory::*;
        let siren = Some("732829320");
        assert_eq!(Treatment::of(None, siren), Treatment::B2b);
        assert_eq!(Treatment::of(Some(Entreprise), siren), Treatment::B2b);
        assert_eq!(
            Treatment::of(Some(OrganismePublic), siren),
            Treatment::Public
        );
        assert_eq!(
            Treatment::of(Some(Copropriete), siren),
            Treatment::EReporting
        );
        assert_eq!(Treatment::of(Some(Entreprise), None), Treatment::EReporting);
        assert_eq!(Treatment::of(None, None).bar(), "B2C");
        assert_eq!(Treatment::Public.bar(), "B2B");
    }

    #[test]
    fn default_addresses() {
        use BillingCategory::*;
        let (siren, siret) = (Some("732829320"), Some("73282932000074"));
        assert_eq!(default_address(None, None, siret, None), None);
        assert_eq!(
            default_address(Some(Entreprise), siren, siret, Some("X")).as_deref(),
            Some("732829320")
        );
        assert_eq!(
            default_address(Some(OrganismePublic), siren, siret, Some("SERV-01")).as_deref(),
            Some("732829320_73282932000074_SERV-01")
        );
        assert_eq!(
            default_address(Some(OrganismePublic), siren, siret, None).as_deref(),
            Some("732829320_73282932000074")
        );
        assert_eq!(
            reporting_address("732829320", "CLI 42/é"),
            "732829320_CLI-42--"
        );
    }

    #[test]
    fn addresses_are_checked() {
        assert_eq!(
            check_address(" 732829320_FACT ", Some("732829320")),
            Ok("732829320_FACT".to_owned())
        );
        assert!(
            check_address("compta@exemple.fr", None)
                .unwrap_err()
                .contains("« @ »")
        );
        assert!(
            check_address("552100554", Some("732829320"))
                .unwrap_err()
                .contains("commencer par le SIREN 732829320")
        );
        assert!(check_address(&"1".repeat(126), None).is_err());
        assert!(check_service_code("SERVICE_01").is_ok());
        assert!(check_service_code("serv ice").is_err());
    }
}
