//! The structured invoice of an issued invoice or credit note: UN/CEFACT
//! Cross Industry Invoice (D16B), Factur-X profile EN 16931, with the
//! French rules of the reform (BR-FR): the document embedded in its
//! Factur-X PDF as `factur-x.xml` and served alone
//! (`/invoices/{id}/facturx.xml`).
//!
//! A pure function of the printed document ([`InvoiceDocument`]): the
//! amounts are the stored ones to the cent (lines, VAT per rate, totals:
//! the same `Totals` the page prints), one VAT breakdown per category and
//! rate. The business rules (exemption categories and codes, the buyer's
//! treatment, electronic addresses, the billing mode, the notes' sentences)
//! are `domain::einvoice`'s; this file only writes them where the standard
//! puts them, in the order its schema wants. A draft has no number: it has
//! no structured invoice (an error).

use anyhow::{Result, bail};
use chrono::NaiveDate;
use quick_xml::escape::escape;

use super::{DocumentLine, InvoiceDocument, InvoiceKind, Place};
use crate::domain::address;
use crate::domain::einvoice::{
    self, ADDRESS_SCHEME, BILLING_MODE, DISCOUNT_MENTION, PENALTIES_MENTION, SIREN_SCHEME,
    UNSTATED_EXEMPTION,
};
use crate::domain::invoice::vat_on;
use crate::domain::money::Cents;

/// The name of the structured invoice inside a Factur-X PDF.
pub const FACTURX_FILE_NAME: &str = "factur-x.xml";

/// The EN 16931 profile's guideline identifier (BT-24).
const GUIDELINE: &str = "urn:cen.eu:en16931:2017";

/// The structured invoice (CII XML) of an issued invoice or credit note.
pub fn cii_xml(document: &InvoiceDocument) -> Result<String> {
    let Some(number) = document.number.as_deref() else {
        bail!("un brouillon n'a pas de facture électronique (pas de numéro)");
    };
    let Some(issued_on) = document.issued_on else {
        bail!("pièce {number} sans date d'émission");
    };
    let mut x = Xml::default();
    x.out
        .push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x.open_with(
        "rsm:CrossIndustryInvoice",
        &[
            (
                "xmlns:rsm",
                "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
            ),
            (
                "xmlns:qdt",
                "urn:un:unece:uncefact:data:standard:QualifiedDataType:100",
            ),
            (
                "xmlns:ram",
                "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
            ),
            (
                "xmlns:udt",
                "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
            ),
        ],
    );

    x.open("rsm:ExchangedDocumentContext");
    x.open("ram:BusinessProcessSpecifiedDocumentContextParameter");
    x.leaf("ram:ID", BILLING_MODE);
    x.close("ram:BusinessProcessSpecifiedDocumentContextParameter");
    x.open("ram:GuidelineSpecifiedDocumentContextParameter");
    x.leaf("ram:ID", GUIDELINE);
    x.close("ram:GuidelineSpecifiedDocumentContextParameter");
    x.close("rsm:ExchangedDocumentContext");

    x.open("rsm:ExchangedDocument");
    x.leaf("ram:ID", number);
    x.leaf(
        "ram:TypeCode",
        match document.kind {
            InvoiceKind::Facture => "380",
            InvoiceKind::Avoir => "381",
        },
    );
    x.open("ram:IssueDateTime");
    x.date("udt:DateTimeString", issued_on);
    x.close("ram:IssueDateTime");
    for (subject, content) in [
        (
            "PMT",
            einvoice::recovery_mention(document.professional_buyer()),
        ),
        ("PMD", PENALTIES_MENTION),
        ("AAB", DISCOUNT_MENTION),
        ("BAR", document.treatment.bar()),
    ] {
        x.open("ram:IncludedNote");
        x.leaf("ram:Content", content);
        x.leaf("ram:SubjectCode", subject);
        x.close("ram:IncludedNote");
    }
    x.close("rsm:ExchangedDocument");

    x.open("rsm:SupplyChainTradeTransaction");
    for (index, line) in document.lines.iter().enumerate() {
        line_item(&mut x, index + 1, line);
    }
    agreement(&mut x, document)?;
    x.open("ram:ApplicableHeaderTradeDelivery");
    if let Some(place) = &document.place {
        ship_to(&mut x, place);
    }
    x.close("ram:ApplicableHeaderTradeDelivery");
    settlement(&mut x, document, number)?;
    x.close("rsm:SupplyChainTradeTransaction");
    x.close("rsm:CrossIndustryInvoice");
    Ok(x.out)
}

/// The VAT category of a line (BT-151): `S` at a positive rate, else its
/// exemption's (`E` for a line issued without one).
fn category(line: &DocumentLine) -> &'static str {
    if line.vat_rate_bp > 0 {
        "S"
    } else {
        line.vat_exemption.map_or("E", |e| e.category())
    }
}

fn line_item(x: &mut Xml, number: usize, line: &DocumentLine) {
    x.open("ram:IncludedSupplyChainTradeLineItem");
    x.open("ram:AssociatedDocumentLineDocument");
    x.leaf("ram:LineID", &number.to_string());
    x.close("ram:AssociatedDocumentLineDocument");
    x.open("ram:SpecifiedTradeProduct");
    x.leaf("ram:Name", &line.label);
    x.close("ram:SpecifiedTradeProduct");
    x.open("ram:SpecifiedLineTradeAgreement");
    x.open("ram:NetPriceProductTradePrice");
    x.leaf("ram:ChargeAmount", &amount(line.unit_price_cents));
    x.close("ram:NetPriceProductTradePrice");
    x.close("ram:SpecifiedLineTradeAgreement");
    x.open("ram:SpecifiedLineTradeDelivery");
    x.leaf_with(
        "ram:BilledQuantity",
        &[("unitCode", "C62")],
        &quantity(line.quantity_milli),
    );
    x.close("ram:SpecifiedLineTradeDelivery");
    x.open("ram:SpecifiedLineTradeSettlement");
    x.open("ram:ApplicableTradeTax");
    x.leaf("ram:TypeCode", "VAT");
    x.leaf("ram:CategoryCode", category(line));
    x.leaf("ram:RateApplicablePercent", &rate(line.vat_rate_bp));
    x.close("ram:ApplicableTradeTax");
    x.open("ram:SpecifiedTradeSettlementLineMonetarySummation");
    x.leaf("ram:LineTotalAmount", &amount(line.total_excl_cents()));
    x.close("ram:SpecifiedTradeSettlementLineMonetarySummation");
    x.close("ram:SpecifiedLineTradeSettlement");
    x.close("ram:IncludedSupplyChainTradeLineItem");
}

/// Seller and buyer (BG-4, BG-7), and the quote billed (BT-17).
fn agreement(x: &mut Xml, document: &InvoiceDocument) -> Result<()> {
    x.open("ram:ApplicableHeaderTradeAgreement");
    if let Some(code) = document
        .buyer_service_code
        .as_deref()
        .filter(|_| document.treatment == einvoice::Treatment::Public)
    {
        // Chorus Pro reads the public buyer's service from BT-10.
        x.leaf("ram:BuyerReference", code);
    }

    let identity = &document.seller.identity;
    let Some(seller_siren) = identity.siren() else {
        bail!("vendeur sans SIRET");
    };
    x.open("ram:SellerTradeParty");
    x.leaf("ram:Name", &document.seller.name);
    x.open("ram:SpecifiedLegalOrganization");
    x.leaf_with("ram:ID", &[("schemeID", SIREN_SCHEME)], seller_siren);
    x.close("ram:SpecifiedLegalOrganization");
    postal_address(
        x,
        [
            identity.address.as_deref(),
            identity.address_complement.as_deref(),
        ],
        identity.postal_code.as_deref(),
        identity.city.as_deref(),
    );
    if let Some(address) = identity.electronic_address() {
        x.open("ram:URIUniversalCommunication");
        x.leaf_with("ram:URIID", &[("schemeID", ADDRESS_SCHEME)], &address);
        x.close("ram:URIUniversalCommunication");
    }
    if let Some(vat) = identity.vat_number.as_deref() {
        x.open("ram:SpecifiedTaxRegistration");
        x.leaf_with("ram:ID", &[("schemeID", "VA")], vat);
        x.close("ram:SpecifiedTaxRegistration");
    }
    x.close("ram:SellerTradeParty");

    let buyer = &document.buyer;
    x.open("ram:BuyerTradeParty");
    x.leaf("ram:Name", &buyer.name);
    if let Some(siren) = buyer.effective_siren() {
        x.open("ram:SpecifiedLegalOrganization");
        x.leaf_with("ram:ID", &[("schemeID", SIREN_SCHEME)], &siren);
        x.close("ram:SpecifiedLegalOrganization");
    }
    match buyer.address.as_deref().map(address::split_line) {
        Some(Some(split)) => postal_address(
            x,
            [Some(split.street.as_str()), None],
            Some(&split.postal_code),
            Some(&split.city),
        ),
        Some(None) => postal_address(x, [buyer.address.as_deref(), None], None, None),
        None => postal_address(x, [None, None], None, None),
    }
    if let Some(address) = buyer.electronic_address.as_deref() {
        x.open("ram:URIUniversalCommunication");
        x.leaf_with("ram:URIID", &[("schemeID", ADDRESS_SCHEME)], address);
        x.close("ram:URIUniversalCommunication");
    }
    if let Some(vat) = buyer.vat_number.as_deref() {
        x.open("ram:SpecifiedTaxRegistration");
        x.leaf_with("ram:ID", &[("schemeID", "VA")], vat);
        x.close("ram:SpecifiedTaxRegistration");
    }
    x.close("ram:BuyerTradeParty");

    if let Some(quote) = document.quote_number.as_deref() {
        // The accepted quote the invoice bills (tender reference, BT-17).
        x.open("ram:AdditionalReferencedDocument");
        x.leaf("ram:IssuerAssignedID", quote);
        x.leaf("ram:TypeCode", "50");
        x.close("ram:AdditionalReferencedDocument");
    }
    x.close("ram:ApplicableHeaderTradeAgreement");
    Ok(())
}

/// The building where the work was done (BG-13, BG-15).
fn ship_to(x: &mut Xml, place: &Place) {
    x.open("ram:ShipToTradeParty");
    if let Some(name) = place.name.as_deref() {
        x.leaf("ram:Name", name);
    }
    postal_address(
        x,
        [place.street.as_deref(), None],
        place.postal_code.as_deref(),
        place.city.as_deref(),
    );
    x.close("ram:ShipToTradeParty");
}

/// A French postal address: lines, postal code, city, country `FR`.
fn postal_address(
    x: &mut Xml,
    lines: [Option<&str>; 2],
    postal_code: Option<&str>,
    city: Option<&str>,
) {
    x.open("ram:PostalTradeAddress");
    if let Some(code) = postal_code {
        x.leaf("ram:PostcodeCode", code);
    }
    let [one, two] = lines;
    if let Some(one) = one {
        x.leaf("ram:LineOne", one);
    }
    if let Some(two) = two {
        x.leaf("ram:LineTwo", two);
    }
    if let Some(city) = city {
        x.leaf("ram:CityName", city);
    }
    x.leaf("ram:CountryID", "FR");
    x.close("ram:PostalTradeAddress");
}

/// One VAT breakdown (BG-23): its category, rate, base and VAT.
struct Breakdown {
    category: &'static str,
    rate_bp: u32,
    exemption: Option<einvoice::VatExemption>,
    base: Cents,
}

/// Payment, VAT per category and rate, terms, totals and the credited
/// invoice (BG-16, BG-23, BT-20, BG-22, BG-3).
fn settlement(x: &mut Xml, document: &InvoiceDocument, number: &str) -> Result<()> {
    x.open("ram:ApplicableHeaderTradeSettlement");
    x.leaf("ram:PaymentReference", number);
    x.leaf("ram:InvoiceCurrencyCode", "EUR");
    let identity = &document.seller.identity;
    if let (InvoiceKind::Facture, Some(iban)) = (document.kind, identity.iban.as_deref()) {
        // SEPA credit transfer to the agency's account.
        x.open("ram:SpecifiedTradeSettlementPaymentMeans");
        x.leaf("ram:TypeCode", "58");
        x.open("ram:PayeePartyCreditorFinancialAccount");
        x.leaf("ram:IBANID", iban);
        x.close("ram:PayeePartyCreditorFinancialAccount");
        x.close("ram:SpecifiedTradeSettlementPaymentMeans");
    }

    // One breakdown per category and rate, in the order of the lines.
    let mut breakdowns: Vec<Breakdown> = Vec::new();
    for line in &document.lines {
        let category = category(line);
        let base = Cents::new(line.total_excl_cents());
        match breakdowns
            .iter_mut()
            .find(|b| b.category == category && b.rate_bp == line.vat_rate_bp)
        {
            Some(found) => found.base += base,
            None => breakdowns.push(Breakdown {
                category,
                rate_bp: line.vat_rate_bp,
                exemption: line.vat_exemption,
                base,
            }),
        }
    }
    breakdowns.sort_by_key(|b| (std::cmp::Reverse(b.rate_bp), b.category));
    let mut vat_total = Cents::ZERO;
    for breakdown in &breakdowns {
        // The VAT of a rate is the printed one (`Totals`): on the rate's base.
        let vat = if breakdown.rate_bp > 0 {
            document
                .totals
                .vat_by_rate
                .iter()
                .find(|v| v.rate_bp == breakdown.rate_bp)
                .map_or_else(|| vat_on(breakdown.base, breakdown.rate_bp), |v| v.vat)
        } else {
            Cents::ZERO
        };
        vat_total += vat;
        x.open("ram:ApplicableTradeTax");
        x.leaf("ram:CalculatedAmount", &amount(vat.get()));
        x.leaf("ram:TypeCode", "VAT");
        if breakdown.category != "S" {
            x.leaf(
                "ram:ExemptionReason",
                breakdown
                    .exemption
                    .map_or(UNSTATED_EXEMPTION, |e| e.mention()),
            );
        }
        x.leaf("ram:BasisAmount", &amount(breakdown.base.get()));
        x.leaf("ram:CategoryCode", breakdown.category);
        if let Some(exemption) = breakdown.exemption.filter(|_| breakdown.category != "S") {
            x.leaf("ram:ExemptionReasonCode", exemption.vatex());
        }
        if breakdown.category == "S" {
            // VAT on services is due when paid, or on issue under the
            // option for the debits (BT-8).
            x.leaf(
                "ram:DueDateTypeCode",
                if identity.vat_on_debits { "5" } else { "72" },
            );
        }
        x.leaf("ram:RateApplicablePercent", &rate(breakdown.rate_bp));
        x.close("ram:ApplicableTradeTax");
    }

    x.open("ram:SpecifiedTradePaymentTerms");
    x.leaf("ram:Description", &document.payment_terms());
    if let (InvoiceKind::Facture, Some(due)) = (document.kind, document.due_on) {
        x.open("ram:DueDateDateTime");
        x.date("udt:DateTimeString", due);
        x.close("ram:DueDateDateTime");
    }
    x.close("ram:SpecifiedTradePaymentTerms");

    let totals = &document.totals;
    if vat_total != totals.incl_tax - totals.excl_tax {
        bail!(
            "pièce {number} : TVA par taux ({vat_total}) différente du total ({})",
            totals.incl_tax - totals.excl_tax
        );
    }
    x.open("ram:SpecifiedTradeSettlementHeaderMonetarySummation");
    x.leaf("ram:LineTotalAmount", &amount(totals.excl_tax.get()));
    x.leaf("ram:TaxBasisTotalAmount", &amount(totals.excl_tax.get()));
    x.leaf_with(
        "ram:TaxTotalAmount",
        &[("currencyID", "EUR")],
        &amount(vat_total.get()),
    );
    x.leaf("ram:GrandTotalAmount", &amount(totals.incl_tax.get()));
    x.leaf("ram:DuePayableAmount", &amount(totals.incl_tax.get()));
    x.close("ram:SpecifiedTradeSettlementHeaderMonetarySummation");

    if let Some(credited) = document.credited_number.as_deref() {
        x.open("ram:InvoiceReferencedDocument");
        x.leaf("ram:IssuerAssignedID", credited);
        if let Some(day) = document.credited_issued_on {
            x.open("ram:FormattedIssueDateTime");
            x.date("qdt:DateTimeString", day);
            x.close("ram:FormattedIssueDateTime");
        }
        x.close("ram:InvoiceReferencedDocument");
    }
    x.close("ram:ApplicableHeaderTradeSettlement");
    Ok(())
}

/// An amount in euros with two decimals and a point: `1234.50`, `-0.05`.
fn amount(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let magnitude = cents.unsigned_abs();
    format!("{sign}{}.{:02}", magnitude / 100, magnitude % 100)
}

/// A quantity with up to three decimals: `2`, `1.5`, `0.125`.
fn quantity(milli: i64) -> String {
    let sign = if milli < 0 { "-" } else { "" };
    let magnitude = milli.unsigned_abs();
    let (whole, fraction) = (magnitude / 1000, magnitude % 1000);
    if fraction == 0 {
        format!("{sign}{whole}")
    } else {
        let decimals = format!("{fraction:03}");
        format!("{sign}{whole}.{}", decimals.trim_end_matches('0'))
    }
}

/// A VAT rate in percent as the French rules list them: `20`, `5.5`,
/// `2.1`, `0`.
fn rate(rate_bp: u32) -> String {
    let (whole, fraction) = (rate_bp / 100, rate_bp % 100);
    match fraction {
        0 => whole.to_string(),
        f if f % 10 == 0 => format!("{whole}.{}", f / 10),
        f => format!("{whole}.{f:02}"),
    }
}

/// A small writer of indented XML; text and attributes escaped by
/// quick-xml.
#[derive(Default)]
struct Xml {
    out: String,
    depth: usize,
}

impl Xml {
    fn indent(&mut self) {
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
    }

    fn start(&mut self, tag: &str, attributes: &[(&str, &str)]) {
        self.indent();
        self.out.push('<');
        self.out.push_str(tag);
        for (name, value) in attributes {
            self.out.push(' ');
            self.out.push_str(name);
            self.out.push_str("=\"");
            self.out.push_str(&escape(*value));
            self.out.push('"');
        }
        self.out.push('>');
    }

    fn open(&mut self, tag: &str) {
        self.open_with(tag, &[]);
    }

    fn open_with(&mut self, tag: &str, attributes: &[(&str, &str)]) {
        self.start(tag, attributes);
        self.out.push('\n');
        self.depth += 1;
    }

    fn close(&mut self, tag: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.indent();
        self.out.push_str("</");
        self.out.push_str(tag);
        self.out.push_str(">\n");
    }

    fn leaf(&mut self, tag: &str, text: &str) {
        self.leaf_with(tag, &[], text);
    }

    fn leaf_with(&mut self, tag: &str, attributes: &[(&str, &str)], text: &str) {
        self.start(tag, attributes);
        self.out.push_str(&escape(text));
        self.out.push_str("</");
        self.out.push_str(tag);
        self.out.push_str(">\n");
    }

    /// A day as `YYYYMMDD` (format 102).
    fn date(&mut self, tag: &str, day: NaiveDate) {
        self.leaf_with(tag, &[("format", "102")], &day.format("%Y%m%d").to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_the_standard_reads_them() {
        assert_eq!(amount(123_450), "1234.50");
        assert_eq!(amount(-5), "-0.05");
        assert_eq!(amount(0), "0.00");
        assert_eq!(quantity(1500), "1.5");
        assert_eq!(quantity(125), "0.125");
        assert_eq!(quantity(2000), "2");
        assert_eq!(rate(2000), "20");
        assert_eq!(rate(550), "5.5");
        assert_eq!(rate(210), "2.1");
        assert_eq!(rate(0), "0");
    }
}
