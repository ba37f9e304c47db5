//! What makes an issued invoice's PDF a Factur-X file: a PDF/A-3b document
//! (krilla validates it while writing: fonts embedded, sRGB output intent,
//! XMP metadata) carrying the structured invoice as the associated file
//! `factur-x.xml` (`AFRelationship` `Alternative`: the XML is the invoice
//! the page shows), and the Factur-X extension schema in its XMP metadata
//! (`fx:DocumentType`, `DocumentFileName`, `Version`, `ConformanceLevel`),
//! which platforms read to find the XML.
//!
//! krilla writes its own XMP packet and offers no way to extend it: the
//! finished PDF gets an incremental update (lopdf) replacing its metadata
//! stream by the same packet with the Factur-X descriptions added; the
//! bytes krilla wrote are kept as they are.

use anyhow::{Context, Result, anyhow, bail};
use chrono::{Datelike, NaiveDate};
use krilla::Document;
use krilla::SerializeSettings;
use krilla::configure::{Archival, ConfigurationBuilder};
use krilla::embed::{AssociationKind, EmbeddedFile, MimeType};
use krilla::metadata::DateTime;
use lopdf::IncrementalDocument;

use super::FACTURX_FILE_NAME;

/// The structured invoice a Factur-X PDF carries.
pub struct Attachment {
    pub xml: String,
    /// The document's issue day: its creation date and the file's.
    pub issued_on: NaiveDate,
}

/// The Factur-X XMP namespace (Factur-X 1.0 to 1.09).
const FX_NAMESPACE: &str = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#";

/// A krilla document in PDF/A-3b.
pub fn document() -> Result<Document> {
    let configuration = ConfigurationBuilder::new()
        .with_archival_validator(Archival::A3_B)
        .finish()
        .map_err(|e| anyhow!("configuration PDF/A-3 refusée : {e:?}"))?;
    Ok(Document::new_with(SerializeSettings {
        configuration,
        ..SerializeSettings::default()
    }))
}

/// The day as krilla dates metadata and files.
pub fn date(day: NaiveDate) -> Result<DateTime> {
    let year = u16::try_from(day.year()).context("année hors limites")?;
    let (month, day_of_month) = (
        u8::try_from(day.month()).context("mois")?,
        u8::try_from(day.day()).context("jour")?,
    );
    Ok(DateTime::new(year)
        .month(month)
        .day(day_of_month)
        .hour(0)
        .minute(0)
        .second(0)
        .utc_offset_hour(0)
        .utc_offset_minute(0))
}

/// Embeds the structured invoice as the document's associated file.
pub fn embed(document: &mut Document, attachment: &Attachment) -> Result<()> {
    let file = EmbeddedFile {
        path: FACTURX_FILE_NAME.to_owned(),
        mime_type: Some(MimeType::new("text/xml").context("type MIME")?),
        description: Some("Factur-X : facture structurée (CII, EN 16931)".to_owned()),
        association_kind: AssociationKind::Alternative,
        data: attachment.xml.clone().into_bytes().into(),
        modification_date: Some(date(attachment.issued_on)?),
        compress: Some(true),
        location: None,
    };
    document
        .embed_file(file)
        .ok_or_else(|| anyhow!("le fichier {FACTURX_FILE_NAME} est déjà joint"))
}

/// The PDF/A extension schema declaring the Factur-X `fx` properties: one
/// item of the packet's `pdfaExtension:schemas` bag.
fn facturx_schema() -> String {
    let property = |name: &str, description: &str| {
        format!(
            "<rdf:li rdf:parseType=\"Resource\">\
<pdfaProperty:name>{name}</pdfaProperty:name>\
<pdfaProperty:valueType>Text</pdfaProperty:valueType>\
<pdfaProperty:category>external</pdfaProperty:category>\
<pdfaProperty:description>{description}</pdfaProperty:description>\
</rdf:li>"
        )
    };
    format!(
        "<rdf:li rdf:parseType=\"Resource\">\
<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>\
<pdfaSchema:namespaceURI>{FX_NAMESPACE}</pdfaSchema:namespaceURI>\
<pdfaSchema:prefix>fx</pdfaSchema:prefix>\
<pdfaSchema:property><rdf:Seq>{}{}{}{}</rdf:Seq></pdfaSchema:property>\
</rdf:li>",
        property("DocumentFileName", "The name of the embedded XML document"),
        property(
            "DocumentType",
            "The type of the hybrid document in capital letters, e.g. INVOICE or ORDER"
        ),
        property(
            "Version",
            "The actual version of the standard applying to the embedded XML document"
        ),
        property(
            "ConformanceLevel",
            "The conformance level of the embedded XML document"
        ),
    )
}

/// The `fx` properties' values.
fn facturx_values() -> String {
    format!(
        "<rdf:Description rdf:about=\"\" xmlns:fx=\"{FX_NAMESPACE}\">\
<fx:DocumentType>INVOICE</fx:DocumentType>\
<fx:DocumentFileName>{FACTURX_FILE_NAME}</fx:DocumentFileName>\
<fx:Version>1.0</fx:Version>\
<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>\
</rdf:Description>"
    )
}

/// The XMP packet with the Factur-X schema and values: the schema goes in
/// the packet's one `pdfaExtension:schemas` bag (a property is given once
/// per resource: a second bag would make the packet invalid XMP), or in a
/// new one when the packet has none; the values in a description of their
/// own, before `</rdf:RDF>`.
fn extended_packet(packet: &str) -> Result<String> {
    const BAG: &str = "<pdfaExtension:schemas><rdf:Bag>";
    let Some(end) = packet.rfind("</rdf:RDF>") else {
        bail!("métadonnées XMP sans rdf:RDF");
    };
    let with_schema = match packet.find(BAG) {
        Some(at) => {
            let at = at + BAG.len();
            format!("{}{}{}", &packet[..at], facturx_schema(), &packet[at..end])
        }
        None => format!(
            "{}<rdf:Description rdf:about=\"\" \
xmlns:pdfaExtension=\"http://www.aiim.org/pdfa/ns/extension/\" \
xmlns:pdfaSchema=\"http://www.aiim.org/pdfa/ns/schema#\" \
xmlns:pdfaProperty=\"http://www.aiim.org/pdfa/ns/property#\">\
{BAG}{}</rdf:Bag></pdfaExtension:schemas></rdf:Description>",
            &packet[..end],
            facturx_schema()
        ),
    };
    Ok(format!(
        "{with_schema}{}{}",
        facturx_values(),
        &packet[end..]
    ))
}

/// The PDF krilla wrote, with the Factur-X descriptions added to its XMP
/// metadata by an incremental update.
pub fn with_facturx_metadata(pdf: Vec<u8>) -> Result<Vec<u8>> {
    let written =
        lopdf::Document::load_mem(&pdf).map_err(|e| anyhow!("PDF produit illisible : {e}"))?;
    let mut update = IncrementalDocument::create_from(pdf, written);
    let metadata_id = update
        .get_prev_documents()
        .catalog()
        .and_then(|catalog| catalog.get(b"Metadata"))
        .and_then(|object| object.as_reference())
        .map_err(|e| anyhow!("PDF sans métadonnées XMP : {e}"))?;
    let packet = update
        .get_prev_documents()
        .get_object(metadata_id)
        .and_then(|object| object.as_stream())
        .map_err(|e| anyhow!("métadonnées XMP illisibles : {e}"))?
        .content
        .clone();
    let packet = String::from_utf8(packet).map_err(|_| anyhow!("métadonnées XMP hors UTF-8"))?;
    let extended = extended_packet(&packet)?;
    update
        .opt_clone_object_to_new_document(metadata_id)
        .map_err(|e| anyhow!("métadonnées XMP : {e}"))?;
    update
        .new_document
        .get_object_mut(metadata_id)
        .and_then(|object| object.as_stream_mut())
        .map_err(|e| anyhow!("métadonnées XMP : {e}"))?
        .set_content(extended.into_bytes());
    let mut out = Vec::with_capacity(update.get_prev_documents_bytes().len() + 4096);
    update
        .save_to(&mut out)
        .map_err(|e| anyhow!("mise à jour du PDF : {e}"))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Factur-X schema joins the packet's one bag of extension
    /// schemas (never a second one), or makes it when there is none.
    #[test]
    fn the_facturx_schema_joins_the_one_bag_of_schemas() {
        let krilla = "<x:xmpmeta><rdf:RDF><rdf:Description rdf:about=\"\">\
<pdfaExtension:schemas><rdf:Bag><rdf:li>xmpMM</rdf:li></rdf:Bag></pdfaExtension:schemas>\
</rdf:Description></rdf:RDF></x:xmpmeta>";
        let packet = extended_packet(krilla).expect("packet");
        assert_eq!(packet.matches("<pdfaExtension:schemas>").count(), 1);
        assert!(packet.contains(
            "<rdf:Bag><rdf:li rdf:parseType=\"Resource\"><pdfaSchema:schema>Factur-X PDFA Extension Schema"
        ));
        assert!(packet.contains("<rdf:li>xmpMM</rdf:li></rdf:Bag>"));
        assert!(packet.ends_with("<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel></rdf:Description></rdf:RDF></x:xmpmeta>"));
        let bare = "<x:xmpmeta><rdf:RDF><rdf:Description rdf:about=\"\"/></rdf:RDF></x:xmpmeta>";
        let packet = extended_packet(bare).expect("packet");
        assert_eq!(packet.matches("<pdfaExtension:schemas>").count(), 1);
        assert!(packet.contains("<fx:DocumentType>INVOICE</fx:DocumentType>"));
        assert!(extended_packet("<x:xmpmeta/>").is_err());
    }
}
