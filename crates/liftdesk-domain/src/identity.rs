//! The agency's identity as a seller: what French law asks a quote, an
//! invoice or a credit note to say of the company that issues it (Code de
//! commerce L441-9 and R123-237, CGI 242 nonies A, loi 96-603 art. 22 for
//! the professional insurance of building trades). The checks of each field
//! (SIRET with its Luhn key, the intra-community VAT number against the
//! SIREN's key, IBAN by ISO 13616's modulo 97, BIC by ISO 9362's shape),
//! their French refusals naming the field, what an invoice needs before it
//! can be issued, and how the identifiers are printed.

use crate::address;
use crate::money::Cents;
use crate::siren;
use crate::text;

/// Longest street line of an address (head office, agency).
pub const MAX_ADDRESS_CHARS: usize = 300;
/// Longest address complement (building, CS…).
pub const MAX_COMPLEMENT_CHARS: usize = 120;
/// Longest city of an address.
pub const MAX_CITY_CHARS: usize = 100;
/// Longest legal name.
pub const MAX_LEGAL_NAME_CHARS: usize = 120;
/// Longest legal form (« SAS », « SARL à associé unique »…).
pub const MAX_LEGAL_FORM_CHARS: usize = 60;
/// Longest city of the trade register (« Lyon », « Aix-en-Provence »).
pub const MAX_RCS_CITY_CHARS: usize = 60;
/// Longest insurer (name and address).
pub const MAX_INSURER_CHARS: usize = 200;
/// Longest policy number.
pub const MAX_POLICY_CHARS: usize = 60;
/// Longest geographical coverage of the policy.
pub const MAX_INSURANCE_AREA_CHARS: usize = 120;
/// Longest series of invoice numbers (« PO » in `FA-PO-2026-000001`).
pub const MAX_SERIES_CHARS: usize = 6;
/// Largest share capital: 10 billion euros.
pub const MAX_SHARE_CAPITAL: Cents = Cents::new(1_000_000_000_000);

/// The seller's identity, checked and normalized: identifiers without
/// spaces (`73282932000074`, `FR44732829320`, `FR7630006000011234567890189`),
/// free text trimmed, blanks as `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SellerIdentity {
    /// Raison sociale; the organization's name when absent.
    pub legal_name: Option<String>,
    pub legal_form: Option<String>,
    pub share_capital: Option<Cents>,
    /// City of the Registre du commerce et des sociétés.
    pub rcs_city: Option<String>,
    pub siret: Option<String>,
    pub vat_number: Option<String>,
    /// Siège social, when it is not the agency's address: its street line,
    /// complement, postal code and city.
    pub head_office_address: Option<String>,
    pub head_office_complement: Option<String>,
    pub head_office_postal_code: Option<String>,
    pub head_office_city: Option<String>,
    /// The agency's postal address (the establishment of the SIRET): its
    /// street line, complement, postal code (five digits) and city.
    pub address: Option<String>,
    pub address_complement: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub iban: Option<String>,
    pub bic: Option<String>,
    /// Insurer of the professional liability: name and address.
    pub insurer: Option<String>,
    pub insurance_policy: Option<String>,
    /// Geographical coverage of the policy (« France métropolitaine »).
    pub insurance_area: Option<String>,
    /// Option pour le paiement de la TVA d'après les débits.
    pub vat_on_debits: bool,
    /// The agency's own series of invoice and credit-note numbers (« PO »:
    /// `FA-PO-2026-000001`), so that two agencies of one organization never
    /// give the same number: unique in the organization, and fixed once a
    /// document is numbered in it.
    pub invoice_series: Option<String>,
    /// The agency's electronic invoicing address in the French directory
    /// (`732829320`, `732829320_LYON`): beginning with its SIREN; the SIREN
    /// itself when none is recorded ([`SellerIdentity::electronic_address`]).
    pub electronic_address: Option<String>,
}

/// An address as printed, line by line: the street, the complement, then
/// « 69003 Lyon »; nothing when every part is absent.
fn printed_lines(
    street: Option<&str>,
    complement: Option<&str>,
    postal_code: Option<&str>,
    city: Option<&str>,
) -> Vec<String> {
    let town = address::one_line(None, None, postal_code, city);
    [
        street.map(str::to_owned),
        complement.map(str::to_owned),
        town,
    ]
    .into_iter()
    .flatten()
    .collect()
}

impl SellerIdentity {
    /// The SIREN: the first nine digits of the SIRET.
    pub fn siren(&self) -> Option<&str> {
        self.siret.as_deref().and_then(|s| s.get(..9))
    }

    /// The electronic invoicing address the agency's documents give: the
    /// one recorded, else its SIREN.
    pub fn electronic_address(&self) -> Option<String> {
        self.electronic_address
            .clone()
            .or_else(|| self.siren().map(str::to_owned))
    }

    /// The agency's address as printed, line by line.
    pub fn address_lines(&self) -> Vec<String> {
        printed_lines(
            self.address.as_deref(),
            self.address_complement.as_deref(),
            self.postal_code.as_deref(),
            self.city.as_deref(),
        )
    }

    /// The head office's address as printed, line by line (nothing when
    /// none is recorded).
    pub fn head_office_lines(&self) -> Vec<String> {
        printed_lines(
            self.head_office_address.as_deref(),
            self.head_office_complement.as_deref(),
            self.head_office_postal_code.as_deref(),
            self.head_office_city.as_deref(),
        )
    }

    /// What an invoice or a credit note cannot be issued without: the
    /// seller's SIRET and address, street, postal code and city (Code de
    /// commerce R123-237, L441-9; an electronic invoice carries them apart),
    /// and its VAT number, which every electronic invoice names, whether its
    /// lines charge VAT, are exempt or reverse-charged (EN 16931 BR-S-02,
    /// BR-E-02, BR-AE-02).
    pub fn missing_to_issue(&self) -> Vec<IdentityField> {
        [
            (IdentityField::Siret, self.siret.is_none()),
            (IdentityField::Address, self.address.is_none()),
            (IdentityField::PostalCode, self.postal_code.is_none()),
            (IdentityField::City, self.city.is_none()),
            (IdentityField::VatNumber, self.vat_number.is_none()),
        ]
        .into_iter()
        .filter_map(|(field, missing)| missing.then_some(field))
        .collect()
    }

    /// The other mentions a company's invoices should carry and that are
    /// not filled in: shown on the identity screen, never blocking (a sole
    /// trader has no capital nor RCS).
    pub fn missing_mentions(&self) -> Vec<IdentityField> {
        [
            (IdentityField::LegalForm, self.legal_form.is_none()),
            (IdentityField::ShareCapital, self.share_capital.is_none()),
            (IdentityField::RcsCity, self.rcs_city.is_none()),
            (IdentityField::Insurer, self.insurer.is_none()),
            (
                IdentityField::InsurancePolicy,
                self.insurance_policy.is_none(),
            ),
        ]
        .into_iter()
        .filter_map(|(field, missing)| missing.then_some(field))
        .collect()
    }
}

wire_enum! {
    /// A field of the identity, by its wire name, with its French label.
    pub enum IdentityField {
        LegalName => "legalName", "Raison sociale";
        LegalForm => "legalForm", "Forme juridique";
        ShareCapital => "shareCapital", "Capital social";
        RcsCity => "rcsCity", "Ville du RCS";
        Siret => "siret", "SIRET";
        VatNumber => "vatNumber", "N° de TVA intracommunautaire";
        HeadOfficeAddress => "headOfficeAddress", "Adresse du siège social";
        HeadOfficeComplement => "headOfficeComplement", "Complément d'adresse du siège";
        HeadOfficePostalCode => "headOfficePostalCode", "Code postal du siège";
        HeadOfficeCity => "headOfficeCity", "Ville du siège";
        Address => "address", "Adresse de l'agence";
        AddressComplement => "addressComplement", "Complément d'adresse de l'agence";
        PostalCode => "postalCode", "Code postal de l'agence";
        City => "city", "Ville de l'agence";
        Phone => "phone", "Téléphone";
        Email => "email", "E-mail";
        Iban => "iban", "IBAN";
        Bic => "bic", "BIC";
        Insurer => "insurer", "Assureur";
        InsurancePolicy => "insurancePolicy", "N° de police d'assurance";
        InsuranceArea => "insuranceArea", "Couverture géographique";
        InvoiceSeries => "invoiceSeries", "Série de numérotation des factures";
        ElectronicAddress => "electronicAddress", "Adresse de facturation électronique";
    }
}

/// The identity as typed (the screen's body, the command line's fields):
/// every text as given (blank erases), the capital in euros as the JSON
/// number. `check` makes it a [`SellerIdentity`].
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IdentityInput {
    pub legal_name: Option<String>,
    pub legal_form: Option<String>,
    pub share_capital: Option<f64>,
    pub rcs_city: Option<String>,
    pub siret: Option<String>,
    pub vat_number: Option<String>,
    pub head_office_address: Option<String>,
    pub head_office_complement: Option<String>,
    pub head_office_postal_code: Option<String>,
    pub head_office_city: Option<String>,
    pub address: Option<String>,
    pub address_complement: Option<String>,
    pub postal_code: Option<String>,
    pub city: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub iban: Option<String>,
    pub bic: Option<String>,
    pub insurer: Option<String>,
    pub insurance_policy: Option<String>,
    pub insurance_area: Option<String>,
    #[serde(default)]
    pub vat_on_debits: bool,
    pub invoice_series: Option<String>,
    #[serde(default)]
    pub electronic_address: Option<String>,
}

impl IdentityInput {
    /// The input a recorded identity would be typed as.
    pub fn of(identity: &SellerIdentity) -> Self {
        let i = identity.clone();
        Self {
            legal_name: i.legal_name,
            legal_form: i.legal_form,
            share_capital: i.share_capital.map(Cents::euros),
            rcs_city: i.rcs_city,
            siret: i.siret,
            vat_number: i.vat_number,
            head_office_address: i.head_office_address,
            head_office_complement: i.head_office_complement,
            head_office_postal_code: i.head_office_postal_code,
            head_office_city: i.head_office_city,
            address: i.address,
            address_complement: i.address_complement,
            postal_code: i.postal_code,
            city: i.city,
            phone: i.phone,
            email: i.email,
            iban: i.iban,
            bic: i.bic,
            insurer: i.insurer,
            insurance_policy: i.insurance_policy,
            insurance_area: i.insurance_area,
            vat_on_debits: i.vat_on_debits,
            invoice_series: i.invoice_series,
            electronic_address: i.electronic_address,
        }
    }

    /// Replaces one field by `text` as typed (empty erases); the capital is
    /// read in euros, French or not (`50 000,50`, `50000.5`).
    pub fn set(&mut self, field: IdentityField, text: String) -> Result<(), String> {
        use IdentityField as F;
        let slot = match field {
            F::ShareCapital => {
                let typed: String = text
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .map(|c| if c == ',' { '.' } else { c })
                    .collect();
                self.share_capital = if typed.is_empty() {
                    None
                } else {
                    Some(typed.parse::<f64>().map_err(|_| {
                        refusal(
                            field,
                            &format!("« {text} » n'est pas un montant en euros (par exemple 50000 ou 50 000,50)."),
                        )
                    })?)
                };
                return Ok(());
            }
            F::LegalName => &mut self.legal_name,
            F::LegalForm => &mut self.legal_form,
            F::RcsCity => &mut self.rcs_city,
            F::Siret => &mut self.siret,
            F::VatNumber => &mut self.vat_number,
            F::HeadOfficeAddress => &mut self.head_office_address,
            F::HeadOfficeComplement => &mut self.head_office_complement,
            F::HeadOfficePostalCode => &mut self.head_office_postal_code,
            F::HeadOfficeCity => &mut self.head_office_city,
            F::Address => &mut self.address,
            F::AddressComplement => &mut self.address_complement,
            F::PostalCode => &mut self.postal_code,
            F::City => &mut self.city,
            F::Phone => &mut self.phone,
            F::Email => &mut self.email,
            F::Iban => &mut self.iban,
            F::Bic => &mut self.bic,
            F::Insurer => &mut self.insurer,
            F::InsurancePolicy => &mut self.insurance_policy,
            F::InsuranceArea => &mut self.insurance_area,
            F::InvoiceSeries => &mut self.invoice_series,
            F::ElectronicAddress => &mut self.electronic_address,
        };
        *slot = Some(text);
        Ok(())
    }
}

/// Checks and normalizes the identity; the first field refused, with its
/// French reason naming the field (« Champ « siret » : … »).
pub fn check(input: &IdentityInput) -> Result<SellerIdentity, String> {
    use IdentityField as F;
    let free = |field: IdentityField, value: Option<&str>, max: usize| {
        text::field(field.as_str(), value, max)
    };
    let siret = compact(input.siret.as_deref())
        .map(|siret| {
            siren::validate_siret(&siret)
                .map(|()| siret)
                .map_err(|err| refusal(F::Siret, &err.to_string()))
        })
        .transpose()?;
    let vat_number = compact(input.vat_number.as_deref())
        .map(|vat| {
            let vat = vat.to_uppercase();
            check_vat_number(&vat, siret.as_deref().and_then(|s| s.get(..9)))
                .map(|()| vat)
                .map_err(|reason| refusal(F::VatNumber, &reason))
        })
        .transpose()?;
    let iban = compact(input.iban.as_deref())
        .map(|iban| {
            let iban = iban.to_uppercase();
            check_iban(&iban)
                .map(|()| iban)
                .map_err(|reason| refusal(F::Iban, &reason))
        })
        .transpose()?;
    let bic = compact(input.bic.as_deref())
        .map(|bic| {
            let bic = bic.to_uppercase();
            check_bic(&bic)
                .map(|()| bic)
                .map_err(|reason| refusal(F::Bic, &reason))
        })
        .transpose()?;
    let share_capital = input
        .share_capital
        .map(|euros| {
            Cents::from_euros(euros)
                .filter(|c| *c >= Cents::ZERO && *c <= MAX_SHARE_CAPITAL)
                .ok_or_else(|| {
                    refusal(
                        F::ShareCapital,
                        "Le capital social est un montant en euros, positif, au centime près (10 milliards d'euros au plus).",
                    )
                })
        })
        .transpose()?;
    let invoice_series = input
        .invoice_series
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|series| {
            let series = series.to_uppercase();
            let shaped = (1..=MAX_SERIES_CHARS).contains(&series.chars().count())
                && series.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
            if shaped {
                Ok(series)
            } else {
                Err(refusal(
                    F::InvoiceSeries,
                    &format!(
                        "La série de numérotation compte de 1 à {MAX_SERIES_CHARS} lettres sans accent ou chiffres, par exemple « PO » : « {series} » n'en est pas une."
                    ),
                ))
            }
        })
        .transpose()?;
    let electronic_address = input
        .electronic_address
        .as_deref()
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(|address| {
            crate::einvoice::check_address(address, siret.as_deref().and_then(|s| s.get(..9)))
                .map_err(|reason| refusal(F::ElectronicAddress, &reason))
        })
        .transpose()?;
    let phone = text::phone(F::Phone.as_str(), input.phone.as_deref())?;
    let email = free(F::Email, input.email.as_deref(), 254)?.map(|e| e.to_lowercase());
    if let Some(email) = &email
        && !text::is_email(email)
    {
        return Err(refusal(
            F::Email,
            &format!("L'adresse e-mail « {email} » n'est pas valide."),
        ));
    }
    let [
        head_office_address,
        head_office_complement,
        head_office_postal_code,
        head_office_city,
    ] = postal_address(
        [
            F::HeadOfficeAddress,
            F::HeadOfficeComplement,
            F::HeadOfficePostalCode,
            F::HeadOfficeCity,
        ],
        [
            input.head_office_address.as_deref(),
            input.head_office_complement.as_deref(),
            input.head_office_postal_code.as_deref(),
            input.head_office_city.as_deref(),
        ],
    )?;
    let [address, address_complement, postal_code, city] = postal_address(
        [F::Address, F::AddressComplement, F::PostalCode, F::City],
        [
            input.address.as_deref(),
            input.address_complement.as_deref(),
            input.postal_code.as_deref(),
            input.city.as_deref(),
        ],
    )?;
    Ok(SellerIdentity {
        legal_name: free(
            F::LegalName,
            input.legal_name.as_deref(),
            MAX_LEGAL_NAME_CHARS,
        )?,
        legal_form: free(
            F::LegalForm,
            input.legal_form.as_deref(),
            MAX_LEGAL_FORM_CHARS,
        )?,
        share_capital,
        rcs_city: free(F::RcsCity, input.rcs_city.as_deref(), MAX_RCS_CITY_CHARS)?,
        siret,
        vat_number,
        head_office_address,
        head_office_complement,
        head_office_postal_code,
        head_office_city,
        address,
        address_complement,
        postal_code,
        city,
        phone,
        email,
        iban,
        bic,
        insurer: free(F::Insurer, input.insurer.as_deref(), MAX_INSURER_CHARS)?,
        insurance_policy: free(
            F::InsurancePolicy,
            input.insurance_policy.as_deref(),
            MAX_POLICY_CHARS,
        )?,
        insurance_area: free(
            F::InsuranceArea,
            input.insurance_area.as_deref(),
            MAX_INSURANCE_AREA_CHARS,
        )?,
        vat_on_debits: input.vat_on_debits,
        invoice_series,
        electronic_address,
    })
}

fn refusal(field: IdentityField, reason: &str) -> String {
    format!("Champ « {} » : {reason}", field.as_str())
}

/// An identifier as typed, spaces, dots and dashes removed; blank → `None`.
fn compact(value: Option<&str>) -> Option<String> {
    let compacted: String = value?
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '.' | '-'))
        .collect();
    (!compacted.is_empty()).then_some(compacted)
}

/// An address in its parts (street, complement, postal code, city) as
/// typed, checked: the street on one line (lines typed are joined with
/// « , »), a French postal code of five digits, blanks as `None`. A street
/// given alone that reads « 12 rue de la Part-Dieu, 69003 Lyon » is split
/// into its parts (`address::split_line`), as clients' addresses are.
fn postal_address(
    fields: [IdentityField; 4],
    values: [Option<&str>; 4],
) -> Result<[Option<String>; 4], String> {
    let [street_field, complement_field, code_field, city_field] = fields;
    let [street, complement, postal_code, city] = values;
    let street = match street {
        Some(text) => {
            let joined = text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join(", ");
            text::field(street_field.as_str(), Some(&joined), MAX_ADDRESS_CHARS)?
        }
        None => None,
    };
    let complement = text::field(complement_field.as_str(), complement, MAX_COMPLEMENT_CHARS)?;
    let postal_code = postal_code
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(|c| address::check_postal_code(code_field.label(), c))
        .transpose()?;
    let city = text::field(city_field.as_str(), city, MAX_CITY_CHARS)?;
    if postal_code.is_none()
        && city.is_none()
        && let Some(split) = street.as_deref().and_then(address::split_line)
    {
        return Ok([
            Some(split.street),
            complement,
            Some(split.postal_code),
            Some(split.city),
        ]);
    }
    Ok([street, complement, postal_code, city])
}

/// A French intra-community VAT number: `FR`, a two-digit key, the SIREN;
/// the key is (12 + 3 × (SIREN mod 97)) mod 97. When the SIRET is known, the
/// number must be its company's.
pub fn check_vat_number(vat: &str, siren_of_siret: Option<&str>) -> Result<(), String> {
    let shape = "Le numéro de TVA intracommunautaire français s'écrit FR, une clé de 2 chiffres et le SIREN (9 chiffres), par exemple FR44732829320.";
    let Some(rest) = vat.strip_prefix("FR") else {
        return Err(shape.to_owned());
    };
    if rest.len() != 11 || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return Err(shape.to_owned());
    }
    let (key, siren) = rest.split_at(2);
    if siren::validate_siren(siren).is_err() {
        return Err(format!(
            "Le SIREN « {siren} » du numéro de TVA n'est pas valide (clé de contrôle incorrecte)."
        ));
    }
    let expected = vat_key(siren);
    if key != format!("{expected:02}") {
        return Err(format!(
            "La clé « {key} » ne correspond pas au SIREN {} : le numéro de TVA est FR{expected:02}{siren}.",
            group_siren(siren)
        ));
    }
    if let Some(own) = siren_of_siret
        && own != siren
    {
        return Err(format!(
            "Le numéro de TVA est celui du SIREN {}, pas celui du SIRET de l'agence ({}).",
            group_siren(siren),
            group_siren(own)
        ));
    }
    Ok(())
}

/// The key of a French VAT number for a 9-digit SIREN.
pub fn vat_key(siren: &str) -> u64 {
    let value: u64 = siren.parse().unwrap_or(0);
    (12 + 3 * (value % 97)) % 97
}

/// The IBAN lengths of the countries whose accounts a French agency meets
/// most (SEPA); any other country: 15 to 34 characters.
const IBAN_LENGTHS: &[(&str, usize)] = &[
    ("FR", 27),
    ("MC", 27),
    ("BE", 16),
    ("LU", 20),
    ("DE", 22),
    ("CH", 21),
    ("IT", 27),
    ("ES", 24),
    ("PT", 25),
    ("NL", 18),
    ("AT", 20),
    ("IE", 22),
    ("GB", 22),
];

/// ISO 13616: two letters of the country, two check digits, the account;
/// the whole, its first four characters moved to the end and letters read
/// as 10…35, is 1 modulo 97.
pub fn check_iban(iban: &str) -> Result<(), String> {
    let bytes = iban.as_bytes();
    let shape = bytes.len() >= 4
        && bytes[..2].iter().all(u8::is_ascii_uppercase)
        && bytes[2..4].iter().all(u8::is_ascii_digit)
        && bytes.iter().all(u8::is_ascii_alphanumeric);
    if !shape {
        return Err("L'IBAN commence par le code du pays (2 lettres) et 2 chiffres de contrôle, suivis du numéro de compte (lettres et chiffres), par exemple FR76 3000 6000 0112 3456 7890 189.".to_owned());
    }
    // ISO 13616: the check digits run from 02 to 98.
    if matches!(&iban[2..4], "00" | "01" | "99") {
        return Err(format!(
            "L'IBAN « {} » n'est pas valide (clé de contrôle incorrecte) : vérifiez-le sur votre RIB.",
            group_by_four(iban)
        ));
    }
    let country = &iban[..2];
    let length_ok = match IBAN_LENGTHS.iter().find(|(c, _)| *c == country) {
        Some((_, length)) => iban.len() == *length,
        None => (15..=34).contains(&iban.len()),
    };
    if !length_ok {
        return Err(format!(
            "L'IBAN « {} » n'a pas la longueur d'un IBAN {country}.",
            group_by_four(iban)
        ));
    }
    let rearranged = iban[4..].bytes().chain(iban[..4].bytes());
    let mut remainder: u32 = 0;
    for byte in rearranged {
        let value = if byte.is_ascii_digit() {
            u32::from(byte - b'0')
        } else {
            u32::from(byte - b'A') + 10
        };
        remainder = if value >= 10 {
            (remainder * 100 + value) % 97
        } else {
            (remainder * 10 + value) % 97
        };
    }
    if remainder != 1 {
        return Err(format!(
            "L'IBAN « {} » n'est pas valide (clé de contrôle incorrecte) : vérifiez-le sur votre RIB.",
            group_by_four(iban)
        ));
    }
    Ok(())
}

/// ISO 9362: 4 letters of the bank, 2 of the country, 2 letters or digits
/// of the place, and optionally 3 of the branch.
pub fn check_bic(bic: &str) -> Result<(), String> {
    let bytes = bic.as_bytes();
    let ok = matches!(bytes.len(), 8 | 11)
        && bytes[..6].iter().all(u8::is_ascii_uppercase)
        && bytes[6..].iter().all(u8::is_ascii_alphanumeric);
    if ok {
        Ok(())
    } else {
        Err(format!(
            "Le BIC « {bic} » n'est pas valide : 8 ou 11 caractères, 4 lettres de la banque, 2 du pays, puis 2 (ou 5) lettres ou chiffres, par exemple BNPAFRPPXXX."
        ))
    }
}

/// `732 829 320`.
pub fn group_siren(siren: &str) -> String {
    match (siren.get(..3), siren.get(3..6), siren.get(6..)) {
        (Some(a), Some(b), Some(c)) if siren.len() == 9 => format!("{a} {b} {c}"),
        _ => siren.to_owned(),
    }
}

/// `FR 44 732 829 320`.
pub fn group_vat_number(vat: &str) -> String {
    match (vat.get(..2), vat.get(2..4), vat.get(4..)) {
        (Some(country), Some(key), Some(siren)) if vat.len() == 13 => {
            format!("{country} {key} {}", group_siren(siren))
        }
        _ => vat.to_owned(),
    }
}

/// `FR76 3000 6000 0112 3456 7890 189`.
pub fn group_by_four(text: &str) -> String {
    text.as_bytes()
        .chunks(4)
        .map(|chunk| String::from_utf8_lossy(chunk).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> IdentityInput {
        IdentityInput {
            legal_name: Some("  Ascenseurs Durand  ".to_owned()),
            legal_form: Some("SAS".to_owned()),
            share_capital: Some(50_000.0),
            rcs_city: Some("Lyon".to_owned()),
            siret: Some("732 829 320 00074".to_owned()),
            vat_number: Some("fr 44 732 829 320".to_owned()),
            head_office_address: Some("3 quai Saint-Antoine\r\n\n 69002 Lyon ".to_owned()),
            address: Some("12 rue de la Part-Dieu, 69003 Lyon".to_owned()),
            phone: Some("+33 4 72 00 00 00".to_owned()),
            email: Some("Contact@Ascenseurs-Durand.fr".to_owned()),
            iban: Some("fr76 3000 6000 0112 3456 7890 189".to_owned()),
            bic: Some("bnpafrpp".to_owned()),
            insurer: Some("SMABTP, 8 rue Louis-Armand, 75015 Paris".to_owned()),
            insurance_policy: Some("123456/RC".to_owned()),
            insurance_area: Some("France métropolitaine".to_owned()),
            vat_on_debits: true,
            ..IdentityInput::default()
        }
    }

    #[test]
    fn a_full_identity_is_normalized() {
        let identity = check(&input()).expect("identité valable");
        assert_eq!(identity.legal_name.as_deref(), Some("Ascenseurs Durand"));
        assert_eq!(identity.siret.as_deref(), Some("73282932000074"));
        assert_eq!(identity.siren(), Some("732829320"));
        assert_eq!(identity.vat_number.as_deref(), Some("FR44732829320"));
        assert_eq!(
            identity.iban.as_deref(),
            Some("FR7630006000011234567890189")
        );
        assert_eq!(identity.bic.as_deref(), Some("BNPAFRPP"));
        assert_eq!(identity.share_capital, Some(Cents::new(5_000_000)));
        // Addresses typed whole, on one or several lines, are split.
        assert_eq!(
            identity.head_office_lines(),
            ["3 quai Saint-Antoine", "69002 Lyon"]
        );
        assert_eq!(
            (
                identity.address.as_deref(),
                identity.postal_code.as_deref(),
                identity.city.as_deref()
            ),
            (Some("12 rue de la Part-Dieu"), Some("69003"), Some("Lyon"))
        );
        assert_eq!(
            identity.email.as_deref(),
            Some("contact@ascenseurs-durand.fr")
        );
        assert!(identity.missing_to_issue().is_empty());
        assert!(identity.missing_mentions().is_empty());
    }

    #[test]
    fn an_empty_identity_cannot_issue() {
        let identity = check(&IdentityInput::default()).expect("vide mais valable");
        assert_eq!(
            identity.missing_to_issue(),
            vec![
                IdentityField::Siret,
                IdentityField::Address,
                IdentityField::PostalCode,
                IdentityField::City,
                IdentityField::VatNumber,
            ]
        );
        assert_eq!(identity.missing_mentions().len(), 5);
    }

    #[test]
    fn each_bad_field_is_named() {
        let cases: Vec<(IdentityInput, &str)> = vec![
            (
                IdentityInput {
                    siret: Some("73282932000075".to_owned()),
                    ..input()
                },
                "Champ « siret » : Le SIRET n'est pas valide (clé de contrôle incorrecte).",
            ),
            (
                IdentityInput {
                    siret: Some("7328293200007".to_owned()),
                    ..input()
                },
                "Champ « siret » : Le SIRET doit comporter exactement 14 chiffres.",
            ),
            (
                IdentityInput {
                    vat_number: Some("FR45732829320".to_owned()),
                    ..input()
                },
                "Champ « vatNumber » : La clé « 45 » ne correspond pas au SIREN 732 829 320 : le numéro de TVA est FR44732829320.",
            ),
            (
                IdentityInput {
                    vat_number: Some("FR83404833048".to_owned()),
                    ..input()
                },
                "Champ « vatNumber » : Le numéro de TVA est celui du SIREN 404 833 048, pas celui du SIRET de l'agence (732 829 320).",
            ),
            (
                IdentityInput {
                    vat_number: Some("DE123456789".to_owned()),
                    ..input()
                },
                "Champ « vatNumber » : Le numéro de TVA intracommunautaire français s'écrit FR, une clé de 2 chiffres et le SIREN (9 chiffres), par exemple FR44732829320.",
            ),
            (
                IdentityInput {
                    iban: Some("FR7630006000011234567890188".to_owned()),
                    ..input()
                },
                "Champ « iban » : L'IBAN « FR76 3000 6000 0112 3456 7890 188 » n'est pas valide (clé de contrôle incorrecte) : vérifiez-le sur votre RIB.",
            ),
            (
                IdentityInput {
                    iban: Some("FR76300060000112345678901".to_owned()),
                    ..input()
                },
                "Champ « iban » : L'IBAN « FR76 3000 6000 0112 3456 7890 1 » n'a pas la longueur d'un IBAN FR.",
            ),
            (
                IdentityInput {
                    bic: Some("BNP1FRPP".to_owned()),
                    ..input()
                },
                "Champ « bic » : Le BIC « BNP1FRPP » n'est pas valide : 8 ou 11 caractères, 4 lettres de la banque, 2 du pays, puis 2 (ou 5) lettres ou chiffres, par exemple BNPAFRPPXXX.",
            ),
            (
                IdentityInput {
                    share_capital: Some(-1.0),
                    ..input()
                },
                "Champ « shareCapital » : Le capital social est un montant en euros, positif, au centime près (10 milliards d'euros au plus).",
            ),
            (
                IdentityInput {
                    share_capital: Some(10.001),
                    ..input()
                },
                "Champ « shareCapital » : Le capital social est un montant en euros, positif, au centime près (10 milliards d'euros au plus).",
            ),
            (
                IdentityInput {
                    phone: Some("04 72 AB".to_owned()),
                    ..input()
                },
                "Le champ « phone » doit être un numéro de téléphone (chiffres, espaces, points, tirets, « + » en tête) : « 04 72 AB » n'en est pas un.",
            ),
            (
                IdentityInput {
                    email: Some("contact@".to_owned()),
                    ..input()
                },
                "Champ « email » : L'adresse e-mail « contact@ » n'est pas valide.",
            ),
            (
                IdentityInput {
                    legal_form: Some("S\u{7}AS".to_owned()),
                    ..input()
                },
                "Le champ « legalForm » ne doit pas contenir de caractère de contrôle.",
            ),
        ];
        for (case, expected) in cases {
            assert_eq!(check(&case).expect_err(expected), expected);
        }
        let long = "x".repeat(MAX_ADDRESS_CHARS + 1);
        let case = IdentityInput {
            address: Some(long),
            ..input()
        };
        assert_eq!(
            check(&case).expect_err("trop long"),
            "Le champ « address » ne doit pas dépasser 300 caractères."
        );
    }

    #[test]
    fn an_address_is_kept_in_its_parts_and_its_postal_code_checked() {
        let parts = IdentityInput {
            address: Some("Tour Part-Dieu".to_owned()),
            address_complement: Some(" Bâtiment B ".to_owned()),
            postal_code: Some("69 003".to_owned()),
            city: Some("Lyon".to_owned()),
            ..input()
        };
        let identity = check(&parts).expect("adresse en parties");
        assert_eq!(
            identity.address_lines(),
            ["Tour Part-Dieu", "Bâtiment B", "69003 Lyon"]
        );
        // A street that does not split stays whole: the postal code and
        // the city are then missing to issue.
        let whole = IdentityInput {
            address: Some("Lieu-dit Les Granges".to_owned()),
            ..IdentityInput::default()
        };
        let identity = check(&whole).expect("rue seule");
        assert_eq!(identity.address.as_deref(), Some("Lieu-dit Les Granges"));
        assert_eq!(
            identity.missing_to_issue(),
            vec![
                IdentityField::Siret,
                IdentityField::PostalCode,
                IdentityField::City,
                IdentityField::VatNumber,
            ]
        );
        let bad = IdentityInput {
            postal_code: Some("6900".to_owned()),
            ..parts
        };
        assert_eq!(
            check(&bad).expect_err("code postal"),
            "Le champ « Code postal de l'agence » doit être un code postal français de cinq chiffres : « 6900 » n'en est pas un."
        );
    }

    #[test]
    fn vat_keys_of_known_companies() {
        assert_eq!(vat_key("732829320"), 44);
        assert_eq!(vat_key("404833048"), 83);
        assert!(check_vat_number("FR83404833048", None).is_ok());
        assert!(check_iban("GB82WEST12345698765432").is_ok());
        assert!(check_iban("BE68539007547034").is_ok());
        assert!(check_bic("DEUTDEFF500").is_ok());
        // Check digits outside ISO 13616's 02–98 are refused outright.
        assert!(check_iban("FR0130006000011234567890189").is_err());
    }

    #[test]
    fn identifiers_print_grouped() {
        assert_eq!(group_vat_number("FR44732829320"), "FR 44 732 829 320");
        assert_eq!(
            group_by_four("FR7630006000011234567890189"),
            "FR76 3000 6000 0112 3456 7890 189"
        );
        assert_eq!(group_siren("732829320"), "732 829 320");
    }
}
