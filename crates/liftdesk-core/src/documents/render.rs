//! Layout and drawing of the documents on A4 pages with krilla.
//!
//! The layout runs first and produces, page by page, a list of drawing
//! operations; the pages are drawn afterwards, once their count is known
//! (« Page 1/2 »). Widths are measured with the shaper krilla uses itself
//! (rustybuzz), so right-aligned amounts line up.

use anyhow::{Context, anyhow};
use krilla::Document;
use krilla::color::luma;
use krilla::geom::{PathBuilder, Point, Rect};
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla::paint::Fill;
use krilla::surface::Surface;
use krilla::text::{Font, TextDirection};

use super::pdfa::{self, Attachment};
use super::{
    AnnualReportDocument, ContractDocument, DocumentLine, InvoiceDocument, InvoiceKind,
    LOGO_MAX_BYTES, LOGO_MAX_PIXELS, LOGO_MIN_PIXELS, Logo, LogoFormat, Party, QuoteDocument,
    Seller, VisitReportDocument, amount, company_id, day, quantity, rate,
};
use crate::domain::einvoice;
use crate::domain::identity::{self as identity, SellerIdentity};
use crate::domain::invoice::Totals;
use crate::domain::money::Cents;
use krilla::geom::{Size, Transform};
use krilla::image::Image;

static REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

// A4 in points.
const PAGE_WIDTH: f32 = 595.28;
const PAGE_HEIGHT: f32 = 841.89;
const LEFT: f32 = 48.0;
const RIGHT: f32 = PAGE_WIDTH - 48.0;
const TOP: f32 = 56.0;
/// Nothing but the footer below this line.
const BOTTOM: f32 = PAGE_HEIGHT - 64.0;
const FOOTER: f32 = PAGE_HEIGHT - 30.0;
/// The right-hand column of the header (document title, dates, buyer).
const RIGHT_COLUMN: f32 = 320.0;

// The lines' table: the label's column, then right edges of the numbers.
const LABEL_WIDTH: f32 = 220.0;
const QUANTITY_RIGHT: f32 = 322.0;
const UNIT_PRICE_RIGHT: f32 = 405.0;
const RATE_RIGHT: f32 = 455.0;
const TOTAL_RIGHT: f32 = RIGHT - 4.0;

const BODY: f32 = 9.0;
const SMALL: f32 = 7.5;
const LINE: f32 = 12.0;
const GRAY_TEXT: u8 = 90;
const GRAY_FILL: u8 = 235;
const GRAY_RULE: u8 = 190;

/// The lifts an invoice's header names one by one; the others are counted.
const MAX_EQUIPMENT_PRINTED: usize = 8;

/// An invoice or credit note as a PDF.
pub fn invoice_pdf(document: &InvoiceDocument) -> anyhow::Result<Vec<u8>> {
    let metrics = Metrics::new()?;
    let logo = logo_image(document.seller.logo.as_ref())?;
    let mut layout = Layout::new(&metrics, logo.as_ref());
    let nature = match document.kind {
        InvoiceKind::Facture => "Facture",
        InvoiceKind::Avoir => "Avoir",
    };
    let mut references = Vec::new();
    match &document.number {
        Some(number) => references.push(Styled::bold(format!("N° {number}"))),
        None => references.push(Styled::bold(draft_notice(document.kind).to_owned())),
    }
    match document.issued_on {
        Some(issued) => {
            references.push(Styled::plain(format!("Date d'émission : {}", day(issued))))
        }
        None => references.push(Styled::plain(format!(
            "Créé le {} (non émis)",
            day(document.created_on)
        ))),
    }
    if document.kind == InvoiceKind::Facture
        && let Some(due) = document.due_on
    {
        references.push(Styled::plain(format!("Date d'échéance : {}", day(due))));
    }
    let mut context = Vec::new();
    if let Some(credited) = &document.credited_number {
        context.push(format!("Avoir sur la facture n° {credited}"));
    }
    if let Some(quote) = &document.quote_number {
        context.push(format!("Selon notre devis n° {quote}"));
    }
    match document.equipment.as_slice() {
        [] => {}
        [one] => context.push(format!("Appareil concerné : {one}")),
        several => {
            // The header is not paginated: past a few lifts, the rest are counted.
            context.push(format!("Appareils concernés ({}) :", several.len()));
            context.extend(
                several
                    .iter()
                    .take(MAX_EQUIPMENT_PRINTED)
                    .map(|e| format!("– {e}")),
            );
            if several.len() > MAX_EQUIPMENT_PRINTED {
                context.push(format!(
                    "– et {} autres appareils",
                    several.len() - MAX_EQUIPMENT_PRINTED
                ));
            }
        }
    }
    let running_title = match &document.number {
        Some(number) => format!("{nature} {number}"),
        None => format!("{nature} (brouillon)"),
    };
    layout.header(
        &document.seller,
        nature,
        &references,
        Some(&document.buyer),
        &context,
    );
    layout.lines_table(&document.lines, &running_title);
    layout.totals(&document.totals);
    if let Some(paid) = document.paid_on {
        layout.paragraph(&[Styled::bold(format!("Acquittée le {}", day(paid)))]);
    }
    match document.kind {
        InvoiceKind::Facture => {
            let mut terms = vec![Styled::bold("Conditions de paiement".to_owned())];
            terms.push(Styled::plain(document.payment_terms()));
            terms.push(Styled::plain(einvoice::DISCOUNT_MENTION.to_owned()));
            terms.push(Styled::plain(einvoice::PENALTIES_MENTION.to_owned()));
            if document.professional_buyer() {
                terms.push(Styled::plain(einvoice::recovery_mention(true).to_owned()));
            }
            if let Some(bank) = bank_line(&document.seller.identity) {
                terms.push(Styled::plain(bank));
            }
            if document.seller.identity.vat_on_debits {
                terms.push(Styled::plain(
                    "Option pour le paiement de la TVA d'après les débits.".to_owned(),
                ));
            }
            layout.paragraph(&terms);
        }
        InvoiceKind::Avoir => {
            let credited = document
                .credited_number
                .as_deref()
                .map(|n| format!("de la facture n° {n}"))
                .unwrap_or_else(|| "de la facture créditée".to_owned());
            layout.paragraph(&[Styled::plain(format!(
                "Montant à déduire {credited}, ou à rembourser si elle est déjà réglée."
            ))]);
        }
    }
    // The reform's mentions: the nature of the operations, and why each
    // 0 % line charges no VAT.
    let mut mentions = vec![Styled::plain(einvoice::OPERATION_MENTION.to_owned())];
    let mut exemptions: Vec<&str> = Vec::new();
    for line in document.lines.iter().filter(|l| l.vat_rate_bp == 0) {
        let mention = line
            .vat_exemption
            .map_or(einvoice::UNSTATED_EXEMPTION, |e| e.mention());
        if !exemptions.contains(&mention) {
            exemptions.push(mention);
        }
    }
    mentions.extend(
        exemptions
            .into_iter()
            .map(|m| Styled::plain(format!("{m}."))),
    );
    layout.paragraph(&mentions);
    if let Some(insurance) = insurance_line(&document.seller.identity) {
        layout.paragraph(&[Styled::plain(insurance)]);
    }
    let footer_note = document.is_draft().then_some(draft_notice(document.kind));
    // An issued document is a Factur-X file: its structured invoice inside.
    let attachment = match document.issued_on.filter(|_| document.has_facturx()) {
        Some(issued_on) => Some(Attachment {
            xml: super::cii_xml(document)?,
            issued_on,
        }),
        None => None,
    };
    layout.finish_with(
        &metrics,
        &document.seller,
        logo,
        footer_note,
        &running_title,
        attachment.as_ref(),
    )
}

/// What a draft prints instead of a number (and in every page's footer).
fn draft_notice(kind: InvoiceKind) -> &'static str {
    match kind {
        InvoiceKind::Facture => "Brouillon — sans valeur de facture",
        InvoiceKind::Avoir => "Brouillon — sans valeur d'avoir",
    }
}

/// A quote as a PDF.
pub fn quote_pdf(document: &QuoteDocument) -> anyhow::Result<Vec<u8>> {
    let metrics = Metrics::new()?;
    let logo = logo_image(document.seller.logo.as_ref())?;
    let mut layout = Layout::new(&metrics, logo.as_ref());
    let mut references = Vec::new();
    if let Some(number) = &document.number {
        references.push(Styled::bold(format!("N° {number}")));
    }
    references.push(Styled::plain(format!(
        "Date : {}",
        day(document.created_on)
    )));
    if let Some(last) = document.valid_until {
        references.push(Styled::plain(format!(
            "Devis valable jusqu'au {}",
            day(last)
        )));
    }
    let mut context = vec![format!("Objet : {}", document.object)];
    if let Some(equipment) = &document.equipment_number {
        context.push(format!("Appareil : {equipment}"));
    }
    let running_title = match &document.number {
        Some(number) => format!("Devis {number}"),
        None => "Devis".to_owned(),
    };
    layout.header(
        &document.seller,
        "Devis",
        &references,
        document.buyer.as_ref(),
        &context,
    );
    layout.lines_table(&document.lines, &running_title);
    layout.totals(&document.totals);
    layout.paragraph(&[
        Styled::plain("Montants en euros ; TVA au taux indiqué sur chaque ligne.".to_owned()),
        Styled::bold("Bon pour accord (date, signature et cachet du client) :".to_owned()),
    ]);
    if let Some(insurance) = insurance_line(&document.seller.identity) {
        layout.paragraph(&[Styled::plain(insurance)]);
    }
    layout.signature_box();
    layout.finish(&metrics, &document.seller, logo, None, &running_title)
}

/// A maintenance contract as a PDF: the parties, the lifts, every clause
/// ([`super::contract_clauses`]) and the two parties' signature boxes.
pub fn contract_pdf(document: &ContractDocument) -> anyhow::Result<Vec<u8>> {
    let metrics = Metrics::new()?;
    let logo = logo_image(document.seller.logo.as_ref())?;
    let mut layout = Layout::new(&metrics, logo.as_ref());
    let title = if document.draft {
        "Projet de contrat"
    } else {
        "Contrat d'entretien"
    };
    let references = vec![
        Styled::bold(format!("N° {}", document.number)),
        Styled::plain(format!("Établi le {}", day(document.created_on))),
    ];
    let mut context: Vec<String> = Vec::new();
    let shown = document.lifts.len().min(MAX_EQUIPMENT_PRINTED);
    match document.lifts.as_slice() {
        [] => {}
        [one] => context.push(format!("Appareil : {one}")),
        many => {
            context.push(format!("Appareils ({}) :", many.len()));
            context.extend(many[..shown].iter().map(|l| format!("— {l}")));
            if many.len() > shown {
                context.push(format!("… et {} autres appareils", many.len() - shown));
            }
        }
    }
    let running_title = format!("{title} {}", document.number);
    layout.header(
        &document.seller,
        title,
        &references,
        Some(&document.buyer),
        &context,
    );
    for (heading, paragraphs) in super::contract_clauses(document) {
        let mut lines = vec![Styled::bold(heading)];
        lines.extend(paragraphs.into_iter().map(Styled::plain));
        layout.paragraph(&lines);
    }
    if let Some(insurance) = insurance_line(&document.seller.identity) {
        layout.paragraph(&[Styled::plain(insurance)]);
    }
    layout.paragraph(&[Styled::bold(
        "Pour le prestataire, puis pour le client (date, signature et cachet, précédés de la mention « Lu et approuvé ») :".to_owned(),
    )]);
    layout.signature_box();
    layout.signature_box();
    layout.finish(&metrics, &document.seller, logo, None, &running_title)
}

/// The yearly report of a maintenance contract as a PDF (see
/// [`super::annual_report_sections`]).
pub fn annual_report_pdf(document: &AnnualReportDocument) -> anyhow::Result<Vec<u8>> {
    let metrics = Metrics::new()?;
    let logo = logo_image(document.seller.logo.as_ref())?;
    let mut layout = Layout::new(&metrics, logo.as_ref());
    let title = "Rapport annuel";
    let references = vec![
        Styled::bold(format!("Contrat {}", document.number)),
        Styled::plain(format!("Année {}", document.year)),
    ];
    layout.header(
        &document.seller,
        title,
        &references,
        Some(&document.buyer),
        &[],
    );
    for (heading, paragraphs) in super::annual_report_sections(document) {
        let mut lines = vec![Styled::bold(heading)];
        lines.extend(paragraphs.into_iter().map(Styled::plain));
        layout.paragraph(&lines);
    }
    let running_title = format!("{title} {} {}", document.number, document.year);
    layout.finish(&metrics, &document.seller, logo, None, &running_title)
}

/// The report of a done maintenance visit as a PDF: the equipment and its
/// place, the day and times, the technician, who signed on site, and the
/// technician's observations.
pub fn visit_report_pdf(document: &VisitReportDocument) -> anyhow::Result<Vec<u8>> {
    let metrics = Metrics::new()?;
    let logo = logo_image(document.seller.logo.as_ref())?;
    let mut layout = Layout::new(&metrics, logo.as_ref());
    let done_on = day(document.done_on);
    let references = vec![
        Styled::bold(format!("Appareil {}", document.equipment_number)),
        Styled::plain(format!("Visite du {done_on}")),
    ];
    let mut context = Vec::new();
    match &document.equipment_type {
        Some(kind) => context.push(format!("Appareil : {} ({kind})", document.equipment_number)),
        None => context.push(format!("Appareil : {}", document.equipment_number)),
    }
    if let Some(place) = &document.place {
        context.push(format!("Lieu : {place}"));
    }
    let running_title = format!(
        "Rapport de visite {} du {done_on}",
        document.equipment_number
    );
    layout.header(
        &document.seller,
        "Rapport de visite",
        &references,
        document.buyer.as_ref(),
        &context,
    );
    let mut facts = vec![Styled::bold(
        "Visite d'entretien préventif de l'appareil".to_owned(),
    )];
    facts.push(Styled::plain(format!("Date : {done_on}")));
    match (&document.arrived_at, &document.left_at) {
        (Some(arrived), Some(left)) => facts.push(Styled::plain(format!(
            "Arrivée : {arrived} — départ : {left}"
        ))),
        (Some(arrived), None) => facts.push(Styled::plain(format!("Arrivée : {arrived}"))),
        (None, Some(left)) => facts.push(Styled::plain(format!("Départ : {left}"))),
        (None, None) => {}
    }
    if let Some(technician) = &document.technician {
        facts.push(Styled::plain(format!("Technicien : {technician}")));
    }
    if let Some(signed_by) = &document.signed_by {
        facts.push(Styled::plain(format!("Signé sur place par : {signed_by}")));
    }
    layout.paragraph(&facts);
    let mut observations = vec![Styled::bold("Observations".to_owned())];
    match document
        .observations
        .as_deref()
        .map(str::trim)
        .filter(|o| !o.is_empty())
    {
        Some(text) => observations.extend(text.lines().map(|l| Styled::plain(l.to_owned()))),
        None => observations.push(Styled::plain("Aucune observation.".to_owned())),
    }
    layout.paragraph(&observations);
    if let Some(insurance) = insurance_line(&document.seller.identity) {
        layout.paragraph(&[Styled::plain(insurance)]);
    }
    layout.finish(&metrics, &document.seller, logo, None, &running_title)
}

// ---------------------------------------------------------------------------
// Measurement
// ---------------------------------------------------------------------------

struct Metrics {
    regular: rustybuzz::Face<'static>,
    bold: rustybuzz::Face<'static>,
}

impl Metrics {
    fn new() -> anyhow::Result<Self> {
        Ok(Metrics {
            regular: rustybuzz::Face::from_slice(REGULAR, 0)
                .ok_or_else(|| anyhow!("police DejaVu Sans illisible"))?,
            bold: rustybuzz::Face::from_slice(BOLD, 0)
                .ok_or_else(|| anyhow!("police DejaVu Sans Bold illisible"))?,
        })
    }

    fn face(&self, bold: bool) -> &rustybuzz::Face<'static> {
        if bold { &self.bold } else { &self.regular }
    }

    /// Width of `text` set in `size` points.
    fn width(&self, text: &str, size: f32, bold: bool) -> f32 {
        if text.is_empty() {
            return 0.0;
        }
        let face = self.face(bold);
        let mut buffer = rustybuzz::UnicodeBuffer::new();
        buffer.push_str(text);
        buffer.guess_segment_properties();
        let shaped = rustybuzz::shape(face, &[], buffer);
        let advance: i64 = shaped
            .glyph_positions()
            .iter()
            .map(|p| i64::from(p.x_advance))
            .sum();
        advance as f32 * size / face.units_per_em() as f32
    }

    /// `text` broken into lines of at most `width` points, on spaces; a word
    /// wider than a line is cut.
    fn wrap(&self, text: &str, width: f32, size: f32, bold: bool) -> Vec<String> {
        let mut lines = Vec::new();
        for paragraph in text.lines() {
            let mut current = String::new();
            for word in paragraph.split_whitespace() {
                let candidate = if current.is_empty() {
                    word.to_owned()
                } else {
                    format!("{current} {word}")
                };
                if self.width(&candidate, size, bold) <= width {
                    current = candidate;
                    continue;
                }
                if !current.is_empty() {
                    lines.push(std::mem::take(&mut current));
                }
                // The word alone: cut it if it is still too wide.
                let mut piece = String::new();
                for c in word.chars() {
                    piece.push(c);
                    if self.width(&piece, size, bold) > width && piece.chars().count() > 1 {
                        piece.pop();
                        lines.push(std::mem::take(&mut piece));
                        piece.push(c);
                    }
                }
                current = piece;
            }
            if !current.is_empty() {
                lines.push(current);
            }
        }
        if lines.is_empty() {
            lines.push(String::new());
        }
        lines
    }
}

// ---------------------------------------------------------------------------
// Layout
// ---------------------------------------------------------------------------

/// A line of text with its weight.
struct Styled {
    text: String,
    bold: bool,
}

impl Styled {
    fn plain(text: String) -> Self {
        Styled { text, bold: false }
    }
    fn bold(text: String) -> Self {
        Styled { text, bold: true }
    }
}

enum Op {
    Text {
        x: f32,
        y: f32,
        size: f32,
        bold: bool,
        gray: u8,
        text: String,
    },
    Rect {
        x: f32,
        y: f32,
        width: f32,
        height: f32,
        gray: u8,
    },
    /// The seller's logo, its top-left corner at `x`, `y`.
    Logo {
        x: f32,
        y: f32,
        width: f32,
        height: f32,
    },
}

struct Layout<'m> {
    metrics: &'m Metrics,
    /// The logo's printed size in points, when the seller has one.
    logo_size: Option<(f32, f32)>,
    pages: Vec<Vec<Op>>,
    /// Baseline of the next line on the current page.
    y: f32,
}

impl<'m> Layout<'m> {
    fn new(metrics: &'m Metrics, logo: Option<&Image>) -> Self {
        Layout {
            metrics,
            logo_size: logo.map(logo_size),
            pages: vec![Vec::new()],
            y: TOP,
        }
    }

    fn ops(&mut self) -> &mut Vec<Op> {
        if self.pages.is_empty() {
            self.pages.push(Vec::new());
        }
        let last = self.pages.len() - 1;
        &mut self.pages[last]
    }

    fn text(&mut self, x: f32, y: f32, size: f32, bold: bool, gray: u8, text: &str) {
        if text.is_empty() {
            return;
        }
        self.ops().push(Op::Text {
            x,
            y,
            size,
            bold,
            gray,
            text: text.to_owned(),
        });
    }

    fn text_right(&mut self, right: f32, y: f32, size: f32, bold: bool, text: &str) {
        let width = self.metrics.width(text, size, bold);
        self.text(right - width, y, size, bold, 0, text);
    }

    fn rect(&mut self, x: f32, y: f32, width: f32, height: f32, gray: u8) {
        self.ops().push(Op::Rect {
            x,
            y,
            width,
            height,
            gray,
        });
    }

    fn rule(&mut self, y: f32) {
        self.rect(LEFT, y, RIGHT - LEFT, 0.5, GRAY_RULE);
    }

    fn new_page(&mut self) {
        self.pages.push(Vec::new());
        self.y = TOP;
    }

    /// Starts a new page unless `height` points still fit on this one;
    /// true when a page was started.
    fn ensure(&mut self, height: f32) -> bool {
        if self.y + height > BOTTOM {
            self.new_page();
            true
        } else {
            false
        }
    }

    /// The seller at the left, the title, references and buyer at the
    /// right, then the context lines across the page.
    fn header(
        &mut self,
        seller: &Seller,
        title: &str,
        references: &[Styled],
        buyer: Option<&Party>,
        context: &[String],
    ) {
        let left_width = RIGHT_COLUMN - LEFT - 16.0;
        let right_width = RIGHT - RIGHT_COLUMN;
        // Seller: the logo above its name.
        let mut y = TOP;
        if let Some((width, height)) = self.logo_size {
            let top = TOP - 12.0;
            self.ops().push(Op::Logo {
                x: LEFT,
                y: top,
                width,
                height,
            });
            y = top + height + 16.0;
        }
        for line in self.metrics.wrap(&seller.name, left_width, 13.0, true) {
            self.text(LEFT, y, 13.0, true, 0, &line);
            y += 16.0;
        }
        let mut seller_lines: Vec<String> = Vec::new();
        for line in seller_lines_of(seller) {
            seller_lines.extend(self.metrics.wrap(&line, left_width, BODY, false));
        }
        for line in seller_lines {
            self.text(LEFT, y, BODY, false, 0, &line);
            y += LINE;
        }
        let left_end = y;

        // Title and references.
        let mut y = TOP + 4.0;
        self.text(RIGHT_COLUMN, y, 20.0, true, 0, title);
        y += 20.0;
        for reference in references {
            for line in self
                .metrics
                .wrap(&reference.text, right_width, 10.0, reference.bold)
            {
                self.text(RIGHT_COLUMN, y, 10.0, reference.bold, 0, &line);
                y += 13.0;
            }
        }
        // Buyer.
        if let Some(buyer) = buyer {
            y += 10.0;
            self.text(RIGHT_COLUMN, y, SMALL, true, GRAY_TEXT, "CLIENT");
            y += 13.0;
            for line in self.metrics.wrap(&buyer.name, right_width, 10.0, true) {
                self.text(RIGHT_COLUMN, y, 10.0, true, 0, &line);
                y += 13.0;
            }
            let mut buyer_lines = Vec::new();
            if let Some(address) = buyer.address.as_deref().filter(|a| !a.trim().is_empty()) {
                buyer_lines.extend(self.metrics.wrap(address, right_width, BODY, false));
            }
            if let Some(siren) = buyer.effective_siren() {
                buyer_lines.push(format!("SIREN : {}", company_id(&siren)));
            }
            if let Some(vat) = buyer.vat_number.as_deref() {
                buyer_lines.push(format!("N° TVA : {}", identity::group_vat_number(vat)));
            }
            for line in buyer_lines {
                self.text(RIGHT_COLUMN, y, BODY, false, 0, &line);
                y += LINE;
            }
        }
        self.y = left_end.max(y) + 14.0;
        for line in context {
            for piece in self.metrics.wrap(line, RIGHT - LEFT, 10.0, false) {
                self.text(LEFT, self.y, 10.0, false, 0, &piece);
                self.y += 13.0;
            }
        }
        self.y += 10.0;
    }

    fn table_head(&mut self) {
        let y = self.y;
        self.rect(LEFT, y - 11.0, RIGHT - LEFT, 16.0, GRAY_FILL);
        let size = 8.5;
        self.text(LEFT + 4.0, y, size, true, 0, "Désignation");
        self.text_right(QUANTITY_RIGHT, y, size, true, "Qté");
        self.text_right(UNIT_PRICE_RIGHT, y, size, true, "PU HT");
        self.text_right(RATE_RIGHT, y, size, true, "TVA");
        self.text_right(TOTAL_RIGHT, y, size, true, "Total HT");
        self.y += 18.0;
    }

    /// The lines, paginated: a row never splits; the table's head is
    /// repeated on each page, under the document's running title.
    fn lines_table(&mut self, lines: &[DocumentLine], running_title: &str) {
        self.ensure(60.0);
        self.table_head();
        for line in lines {
            let label = self.metrics.wrap(&line.label, LABEL_WIDTH, BODY, false);
            let height = label.len() as f32 * LINE + 5.0;
            if self.ensure(height) {
                self.text(
                    LEFT,
                    self.y,
                    BODY,
                    true,
                    GRAY_TEXT,
                    &format!("{running_title} (suite)"),
                );
                self.y += 22.0;
                self.table_head();
            }
            let y = self.y;
            self.text_right(
                QUANTITY_RIGHT,
                y,
                BODY,
                false,
                &quantity(line.quantity_milli),
            );
            self.text_right(
                UNIT_PRICE_RIGHT,
                y,
                BODY,
                false,
                &amount(line.unit_price_cents),
            );
            self.text_right(RATE_RIGHT, y, BODY, false, &rate(line.vat_rate_bp));
            self.text_right(
                TOTAL_RIGHT,
                y,
                BODY,
                false,
                &amount(line.total_excl_cents()),
            );
            for (index, piece) in label.iter().enumerate() {
                self.text(LEFT + 4.0, y + index as f32 * LINE, BODY, false, 0, piece);
            }
            self.y += height - LINE + 1.0;
            self.rule(self.y);
            self.y += LINE;
        }
        self.y += 6.0;
    }

    /// Total excl. tax, the VAT of each rate on its base, total incl. tax.
    fn totals(&mut self, totals: &Totals) {
        let rows = 2 + totals.vat_by_rate.len();
        self.ensure(rows as f32 * 15.0 + 10.0);
        let label_x = RIGHT_COLUMN;
        let mut y = self.y;
        self.text(label_x, y, 10.0, false, 0, "Total HT");
        self.text_right(TOTAL_RIGHT, y, 10.0, false, &totals.excl_tax.french());
        y += 15.0;
        for vat in &totals.vat_by_rate {
            let label = format!("TVA {} sur {}", rate(vat.rate_bp), vat.base.french());
            self.text(label_x, y, 10.0, false, 0, &label);
            self.text_right(TOTAL_RIGHT, y, 10.0, false, &vat.vat.french());
            y += 15.0;
        }
        self.rect(
            label_x,
            y - 11.5,
            TOTAL_RIGHT - label_x + 4.0,
            16.0,
            GRAY_FILL,
        );
        self.text(label_x + 2.0, y, 10.5, true, 0, "Total TTC");
        self.text_right(TOTAL_RIGHT, y, 10.5, true, &totals.incl_tax.french());
        self.y = y + 26.0;
    }

    /// Lines across the page, kept together on one page.
    fn paragraph(&mut self, lines: &[Styled]) {
        let width = RIGHT - LEFT;
        let wrapped: Vec<(Vec<String>, bool)> = lines
            .iter()
            .map(|l| (self.metrics.wrap(&l.text, width, BODY, l.bold), l.bold))
            .collect();
        let count: usize = wrapped.iter().map(|(w, _)| w.len()).sum();
        self.ensure(count as f32 * LINE + 8.0);
        for (pieces, bold) in wrapped {
            for piece in pieces {
                self.text(LEFT, self.y, BODY, bold, 0, &piece);
                self.y += LINE;
            }
        }
        self.y += 8.0;
    }

    fn signature_box(&mut self) {
        let height = 70.0;
        self.ensure(height + 8.0);
        let (x, y, width) = (RIGHT_COLUMN, self.y - 6.0, RIGHT - RIGHT_COLUMN);
        // Four thin borders.
        self.rect(x, y, width, 0.6, GRAY_RULE);
        self.rect(x, y + height, width, 0.6, GRAY_RULE);
        self.rect(x, y, 0.6, height, GRAY_RULE);
        self.rect(x + width - 0.6, y, 0.6, height, GRAY_RULE);
        self.y += height + 8.0;
    }

    /// Draws every page with its footer: the seller's identity, the draft
    /// notice if any, and « Page i/n ».
    fn finish(
        self,
        metrics: &Metrics,
        seller: &Seller,
        logo: Option<Image>,
        draft_note: Option<&str>,
        title: &str,
    ) -> anyhow::Result<Vec<u8>> {
        self.finish_with(metrics, seller, logo, draft_note, title, None)
    }

    /// [`Layout::finish`], and with an attachment a Factur-X PDF/A-3 file
    /// carrying it (`pdfa`).
    fn finish_with(
        self,
        metrics: &Metrics,
        seller: &Seller,
        logo: Option<Image>,
        draft_note: Option<&str>,
        title: &str,
        attachment: Option<&Attachment>,
    ) -> anyhow::Result<Vec<u8>> {
        let regular = Font::new(REGULAR.into(), 0).context("police DejaVu Sans")?;
        let bold = Font::new(BOLD.into(), 0).context("police DejaVu Sans Bold")?;
        let mut metadata = Metadata::new()
            .title(title.to_owned())
            .language("fr".to_owned())
            .creator("Liftdesk".to_owned());
        let mut document = match attachment {
            Some(attachment) => {
                let mut document = pdfa::document()?;
                metadata = metadata.creation_date(pdfa::date(attachment.issued_on)?);
                pdfa::embed(&mut document, attachment)?;
                document
            }
            None => Document::new(),
        };
        document.set_metadata(metadata);
        let identity = footer_line(metrics, seller);
        let count = self.pages.len();
        for (index, ops) in self.pages.into_iter().enumerate() {
            let settings = PageSettings::from_wh(PAGE_WIDTH, PAGE_HEIGHT)
                .ok_or_else(|| anyhow!("format de page invalide"))?;
            let mut page = document.start_page_with(settings);
            let mut surface = page.surface();
            for op in &ops {
                draw(&mut surface, op, &regular, &bold, logo.as_ref());
            }
            let mut footer = vec![Op::Rect {
                x: LEFT,
                y: FOOTER - 12.0,
                width: RIGHT - LEFT,
                height: 0.5,
                gray: GRAY_RULE,
            }];
            footer.push(Op::Text {
                x: LEFT,
                y: FOOTER,
                size: SMALL,
                bold: false,
                gray: GRAY_TEXT,
                text: identity.clone(),
            });
            if let Some(note) = draft_note {
                let width = metrics.width(note, SMALL, true);
                footer.push(Op::Text {
                    x: (PAGE_WIDTH - width) / 2.0,
                    y: FOOTER + 11.0,
                    size: SMALL,
                    bold: true,
                    gray: 0,
                    text: note.to_owned(),
                });
            }
            let number = format!("Page {}/{}", index + 1, count);
            footer.push(Op::Text {
                x: RIGHT - metrics.width(&number, SMALL, false),
                y: FOOTER,
                size: SMALL,
                bold: false,
                gray: GRAY_TEXT,
                text: number,
            });
            for op in &footer {
                draw(&mut surface, op, &regular, &bold, None);
            }
            surface.finish();
            page.finish();
        }
        let pdf = document
            .finish()
            .map_err(|e| anyhow!("PDF non produit : {e:?}"))?;
        match attachment {
            Some(_) => pdfa::with_facturx_metadata(pdf),
            None => Ok(pdf),
        }
    }
}

/// The lines under the seller's name: legal form and capital, agency,
/// address, head office, SIRET, RCS (else SIREN), VAT number, phone and
/// e-mail.
fn seller_lines_of(seller: &Seller) -> Vec<String> {
    let id = &seller.identity;
    let mut lines = Vec::new();
    match (&id.legal_form, id.share_capital) {
        (Some(form), Some(capital)) => {
            lines.push(format!("{form} au capital de {}", capital_text(capital)))
        }
        (Some(form), None) => lines.push(form.clone()),
        (None, Some(capital)) => lines.push(format!("Capital de {}", capital_text(capital))),
        (None, None) => {}
    }
    if let Some(subtitle) = &seller.subtitle {
        lines.push(subtitle.clone());
    }
    let address = id.address_lines();
    lines.extend(address.iter().cloned());
    let head_office = id.head_office_lines();
    if !head_office.is_empty() && head_office != address {
        lines.push(format!("Siège social : {}", head_office.join(", ")));
    }
    lines.push(match &id.siret {
        Some(siret) => format!("SIRET : {}", company_id(siret)),
        None => "SIRET : non renseigné".to_owned(),
    });
    match (&id.rcs_city, id.siren()) {
        (Some(city), Some(siren)) => {
            lines.push(format!("RCS {city} {}", identity::group_siren(siren)))
        }
        (_, Some(siren)) => lines.push(format!("SIREN : {}", identity::group_siren(siren))),
        _ => {}
    }
    if let Some(vat) = &id.vat_number {
        lines.push(format!(
            "TVA intracommunautaire : {}",
            identity::group_vat_number(vat)
        ));
    }
    let contact: Vec<String> = [
        id.phone.as_ref().map(|p| format!("Tél. {p}")),
        id.email.clone(),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !contact.is_empty() {
        lines.push(contact.join(" — "));
    }
    lines
}

/// A share capital as printed: `50 000 €`, cents only when there are some.
fn capital_text(capital: Cents) -> String {
    let french = capital.french();
    if capital.get() % 100 == 0 {
        french.replace(",00", "")
    } else {
        french
    }
}

/// « Règlement par virement : IBAN …, BIC … ».
fn bank_line(id: &SellerIdentity) -> Option<String> {
    let iban = id.iban.as_deref()?;
    let mut line = format!(
        "Règlement par virement : IBAN {}",
        identity::group_by_four(iban)
    );
    if let Some(bic) = &id.bic {
        line.push_str(&format!(", BIC {bic}"));
    }
    line.push('.');
    Some(line)
}

/// The professional insurance the building trades must mention (loi 96-603
/// art. 22): insurer, policy and coverage.
fn insurance_line(id: &SellerIdentity) -> Option<String> {
    let insurer = id.insurer.as_deref()?;
    let mut line = format!("Assurance professionnelle : {insurer}");
    if let Some(policy) = &id.insurance_policy {
        line.push_str(&format!(", police n° {policy}"));
    }
    if let Some(area) = &id.insurance_area {
        line.push_str(&format!(", couverture géographique : {area}"));
    }
    line.push('.');
    Some(line)
}

/// Every page's footer: the seller's name, SIRET and VAT number, as far as
/// they fit on one line.
fn footer_line(metrics: &Metrics, seller: &Seller) -> String {
    let id = &seller.identity;
    let mut line = seller.name.clone();
    let parts = [
        id.legal_form.clone(),
        id.siret
            .as_ref()
            .map(|s| format!("SIRET {}", company_id(s))),
        id.vat_number
            .as_ref()
            .map(|v| format!("TVA {}", identity::group_vat_number(v))),
    ];
    for part in parts.into_iter().flatten() {
        let longer = format!("{line} — {part}");
        if metrics.width(&longer, SMALL, false) > RIGHT - LEFT - 60.0 {
            break;
        }
        line = longer;
    }
    line
}

/// The logo's printed size: at most 140 × 48 points, proportions kept.
fn logo_size(image: &Image) -> (f32, f32) {
    let (width, height) = image.size();
    let (width, height) = (width.max(1) as f32, height.max(1) as f32);
    let scale = (140.0 / width).min(48.0 / height);
    (width * scale, height * scale)
}

fn logo_image(logo: Option<&Logo>) -> anyhow::Result<Option<Image>> {
    let Some(logo) = logo else {
        return Ok(None);
    };
    let data = logo.bytes.clone().into();
    // Not interpolated: PDF/A (the Factur-X invoices) forbids it.
    let image = match logo.format {
        LogoFormat::Png => Image::from_png(data, false),
        LogoFormat::Jpeg => Image::from_jpeg(data, false),
    }
    .map_err(|e| anyhow!("logo illisible : {e}"))?;
    Ok(Some(image))
}

/// Checks an uploaded logo: PNG or JPEG (by its bytes), 1 Mio at most,
/// 16 to 4,000 pixels a side, and drawable (decoded into a PDF page, as the
/// documents will). Returns its format and size in pixels, or the French
/// reason.
pub fn check_logo(bytes: &[u8]) -> Result<(LogoFormat, (u32, u32)), String> {
    if bytes.len() > LOGO_MAX_BYTES {
        return Err(format!(
            "Le logo pèse {} Ko : 1 024 Ko au plus.",
            bytes.len().div_ceil(1024)
        ));
    }
    let format = LogoFormat::sniff(bytes)
        .ok_or_else(|| "Le logo doit être une image PNG ou JPEG.".to_owned())?;
    let unreadable = || {
        "Le fichier du logo est illisible ou endommagé : enregistrez-le de nouveau en PNG ou en JPEG.".to_owned()
    };
    let logo = Logo {
        format,
        bytes: bytes.to_vec(),
    };
    let image = logo_image(Some(&logo))
        .map_err(|_| unreadable())?
        .ok_or_else(unreadable)?;
    let (width, height) = image.size();
    if width.max(height) > LOGO_MAX_PIXELS || width.min(height) < LOGO_MIN_PIXELS {
        return Err(format!(
            "Le logo mesure {width} × {height} pixels : de {LOGO_MIN_PIXELS} à {LOGO_MAX_PIXELS} pixels de côté."
        ));
    }
    let mut document = Document::new();
    let settings = PageSettings::from_wh(200.0, 100.0).ok_or_else(unreadable)?;
    let mut page = document.start_page_with(settings);
    let mut surface = page.surface();
    let (w, h) = logo_size(&image);
    draw(
        &mut surface,
        &Op::Logo {
            x: 0.0,
            y: 0.0,
            width: w,
            height: h,
        },
        &Font::new(REGULAR.into(), 0).ok_or_else(unreadable)?,
        &Font::new(BOLD.into(), 0).ok_or_else(unreadable)?,
        Some(&image),
    );
    surface.finish();
    page.finish();
    document.finish().map_err(|_| unreadable())?;
    Ok((format, (width, height)))
}

fn gray_fill(gray: u8) -> Fill {
    Fill {
        paint: luma::Color::new(gray).into(),
        ..Fill::default()
    }
}

fn draw(surface: &mut Surface<'_>, op: &Op, regular: &Font, bold: &Font, logo: Option<&Image>) {
    match op {
        Op::Logo {
            x,
            y,
            width,
            height,
        } => {
            let (Some(image), Some(size)) = (logo, Size::from_wh(*width, *height)) else {
                return;
            };
            surface.push_transform(&Transform::from_translate(*x, *y));
            surface.draw_image(image.clone(), size);
            surface.pop();
        }
        Op::Text {
            x,
            y,
            size,
            bold: is_bold,
            gray,
            text,
        } => {
            surface.set_fill(Some(gray_fill(*gray)));
            let font = if *is_bold { bold } else { regular };
            surface.draw_text(
                Point::from_xy(*x, *y),
                font.clone(),
                *size,
                text,
                false,
                TextDirection::Auto,
            );
        }
        Op::Rect {
            x,
            y,
            width,
            height,
            gray,
        } => {
            let Some(rect) = Rect::from_xywh(*x, *y, *width, *height) else {
                return;
            };
            let mut builder = PathBuilder::new();
            builder.push_rect(rect);
            if let Some(path) = builder.finish() {
                surface.set_fill(Some(gray_fill(*gray)));
                surface.set_stroke(None);
                surface.draw_path(&path);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::{Place, Seller};
    use crate::domain::einvoice::{Treatment, VatExemption};
    use crate::domain::invoice::{LineAmounts, totals};
    use chrono::NaiveDate;

    /// An issued invoice of a complete seller, with or without a logo.
    pub(crate) fn issued_invoice(logo: Option<Logo>) -> InvoiceDocument {
        let lines = vec![
            DocumentLine {
                label: "Maintenance".into(),
                quantity_milli: 1500,
                unit_price_cents: 6500,
                vat_rate_bp: 2000,
                vat_exemption: None,
            },
            DocumentLine {
                label: "Sous-traitance".into(),
                quantity_milli: 1000,
                unit_price_cents: 10_000,
                vat_rate_bp: 0,
                vat_exemption: Some(VatExemption::Autoliquidation),
            },
        ];
        let amounts: Vec<LineAmounts> = lines
            .iter()
            .map(|l| LineAmounts {
                quantity_milli: l.quantity_milli,
                unit_price: Cents::new(l.unit_price_cents),
                vat_rate_bp: l.vat_rate_bp,
            })
            .collect();
        let day = NaiveDate::from_ymd_opt(2026, 11, 20).expect("day");
        InvoiceDocument {
            kind: InvoiceKind::Facture,
            number: Some("FA-PO-2026-000001".into()),
            credited_number: None,
            credited_issued_on: None,
            quote_number: None,
            equipment: vec![],
            created_on: day,
            issued_on: Some(day),
            due_on: Some(day + chrono::Duration::days(30)),
            paid_on: None,
            payment_term_days: 30,
            seller: Seller {
                name: "Ascenseurs Durand".into(),
                subtitle: None,
                identity: SellerIdentity {
                    siret: Some("55210055400013".into()),
                    vat_number: Some("FR96552100554".into()),
                    address: Some("12 rue de la Part-Dieu".into()),
                    postal_code: Some("69003".into()),
                    city: Some("Lyon".into()),
                    iban: Some("FR7630006000011234567890189".into()),
                    ..SellerIdentity::default()
                },
                logo,
            },
            buyer: Party {
                name: "Syndic Dupont".into(),
                address: Some("1 place du Marché, 75002 Paris".into()),
                siren: Some("732829320".into()),
                electronic_address: Some("732829320".into()),
                ..Party::default()
            },
            totals: totals(&amounts),
            lines,
            treatment: Treatment::B2b,
            buyer_service_code: None,
            place: Some(Place {
                name: Some("Résidence Les Tilleuls".into()),
                street: Some("12 rue des Lilas".into()),
                postal_code: Some("75011".into()),
                city: Some("Paris".into()),
            }),
        }
    }

    /// An issued invoice is a PDF/A-3 carrying its structured invoice;
    /// a draft is a plain PDF.
    #[test]
    fn an_issued_invoice_is_a_facturx_pdf() {
        let logo = Logo {
            format: LogoFormat::Jpeg,
            bytes: include_bytes!("../../../../tests/it/fixtures/logo-16.jpg").to_vec(),
        };
        for logo in [None, Some(logo)] {
            let document = issued_invoice(logo);
            let pdf = invoice_pdf(&document).expect("pdf");
            let text = String::from_utf8_lossy(&pdf);
            assert!(text.contains("factur-x.xml"), "no attachment");
            assert!(text.contains("<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>"));
            assert!(text.contains("<pdfaid:part>3</pdfaid:part>"));
            let mut draft = document.clone();
            draft.number = None;
            draft.issued_on = None;
            let pdf = invoice_pdf(&draft).expect("draft pdf");
            assert!(!String::from_utf8_lossy(&pdf).contains("factur-x.xml"));
            // Issued before the agency recorded its SIRET: a plain PDF.
            let mut legacy = document.clone();
            legacy.seller.identity.siret = None;
            assert!(!legacy.has_facturx());
            let pdf = invoice_pdf(&legacy).expect("legacy pdf");
            assert!(!String::from_utf8_lossy(&pdf).contains("factur-x.xml"));
        }
    }

    /// Every character the documents print has a glyph in the embedded
    /// fonts (no blank boxes): accents, the euro sign, the no-break spaces.
    #[test]
    fn fonts_cover_the_french_text() {
        let metrics = Metrics::new().expect("fonts");
        let sample = "Facture Avoir Devis Émise échéance Pénalités d'intérêt légal « » — € \
                      1\u{202f}234,56\u{a0}€ ÀÂÄÇÉÈÊËÎÏÔÖÙÛÜŸàâäçéèêëîïôöùûüÿœŒæÆ’ N° Qté";
        for face in [&metrics.regular, &metrics.bold] {
            for c in sample.chars() {
                assert!(face.glyph_index(c).is_some(), "no glyph for {c:?}");
            }
        }
    }

    #[test]
    fn wrapping_keeps_every_word_within_the_width() {
        let metrics = Metrics::new().expect("fonts");
        let text = "Remplacement du câble de traction et de la poulie de renvoi, \
                    réglage des freins et essais à vide et en charge";
        let lines = metrics.wrap(text, 120.0, BODY, false);
        assert!(lines.len() > 2, "{lines:?}");
        for line in &lines {
            assert!(metrics.width(line, BODY, false) <= 120.0, "{line}");
        }
        assert_eq!(
            lines.join(" "),
            text.split_whitespace().collect::<Vec<_>>().join(" ")
        );
        let long = "x".repeat(200);
        let cut = metrics.wrap(&long, 50.0, BODY, false);
        assert!(cut.len() > 1);
        assert_eq!(cut.concat(), long);
    }
}
