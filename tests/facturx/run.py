"""Every Factur-X document of the running server through the third-party checks.

Owned by tests/facturx/ (the Factur-X verifier, with check.py and run.sh).
Run through scripts/with-demo-server.sh (LIFTDESK_URL, LIFTDESK_CREDENTIALS),
with the demo admin's API token on the REST API v2:

  a. every issued invoice and credit note of every agency the token sees: its
     PDF through check.check_pdf (PDF/A-3, Factur-X XMP, associated file,
     output intent, fonts, then XSD + EN 16931 + BR-FR), its facturx.xml equal
     byte for byte to the XML inside the PDF, and the XML saying what the API
     says (number, type code 380/381, credited invoice, totals to the cent);
  b. a matrix of documents made here through REST v2 and issued: one rate,
     several rates with a 0 % line (autoliquidation, franchise), decimal
     quantities, 60 lines (several pages), from an accepted quote, a full and
     a partial credit note, a paid invoice, a buyer without SIREN (and reverse
     charge to such a buyer: refused at issue, or valid); a draft's
     PDF carries no XML and its facturx.xml answers 409; a 0 % line without
     its exemption is refused at issue (422);
  c. the checks can fail: a valid XML of (a) with its total with VAT plus
     1.00 gives BR-CO-15, without its PMT note gives BR-FR-05.

One line per document (number, fatal findings, warnings), then a summary;
the full findings also go to $LIFTDESK_ARTIFACTS/facturx-report.txt when
that folder is set. Exits non-zero on any failure.
"""

import collections
import concurrent.futures
import io
import json
import os
import re
import sys
import time
import urllib.error
import urllib.request
from decimal import Decimal
from pathlib import Path

import pikepdf
from lxml import etree

# check.py is imported from its folder, without leaving a __pycache__ in the tree.
sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
import check  # noqa: E402

URL = os.environ["LIFTDESK_URL"].rstrip("/")
CREDENTIALS = json.load(open(os.environ["LIFTDESK_CREDENTIALS"]))
TOKEN = CREDENTIALS["admin"]["apiToken"]
RAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
RSM = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
XNS = {"ram": RAM, "rsm": RSM}
# Fetching runs ahead of the checks (the server renders while Saxon runs).
FETCHERS = 3

started = time.monotonic()
failures = []  # (document, finding)
report_lines = []
warning_ids = collections.Counter()
warning_texts = {}
checked = collections.Counter()


def say(line=""):
    print(line, flush=True)
    report_lines.append(line)


def fail(document, finding):
    failures.append((document, finding))
    report_lines.append(f"  ÉCHEC {document} : {finding}")


class ApiError(Exception):
    def __init__(self, method, path, status, body):
        super().__init__(f"{method} {path} : HTTP {status} : {body[:500]!r}")
        self.status = status
        self.body = body


def api(method, path, agency, body=None, expect=(200, 201)):
    """(status, content type, bytes) of a REST v2 call; ApiError on any other status."""
    headers = {"Authorization": f"Bearer {TOKEN}", "X-Service-Agency": agency}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(f"{URL}/api/v2{path}", data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            status, content_type, payload = response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        status, content_type, payload = error.code, error.headers.get("Content-Type", ""), error.read()
    if status not in expect:
        raise ApiError(method, path, status, payload.decode("utf-8", "replace"))
    return status, content_type, payload


def api_json(method, path, agency, body=None, expect=(200, 201)):
    return json.loads(api(method, path, agency, body, expect)[2])


# --- What the XML must say, beyond the schematrons ---


def _amount(root, name):
    value = root.findtext(f".//ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:{name}", namespaces=XNS)
    return None if value is None else Decimal(value.strip())


def cents(value):
    return Decimal(str(value)).quantize(Decimal("0.01"))


def coherence(xml_bytes, invoice):
    """The XML against GET /invoices/{id}: number, type code, credited
    invoice, totals without and with VAT to the cent."""
    problems = []
    root = etree.fromstring(xml_bytes)
    number = root.findtext("rsm:ExchangedDocument/ram:ID", namespaces=XNS)
    if number != invoice["number"]:
        problems.append(f"BT-1 vaut {number!r} au lieu du numéro {invoice['number']!r}")
    type_code = root.findtext("rsm:ExchangedDocument/ram:TypeCode", namespaces=XNS)
    wanted = "381" if invoice["nature"] == "avoir" else "380"
    if type_code != wanted:
        problems.append(f"BT-3 vaut {type_code!r} au lieu de {wanted} ({invoice['nature']})")
    if invoice["nature"] == "avoir":
        credited = (invoice.get("creditedInvoice") or {}).get("number")
        referenced = root.findtext(".//ram:InvoiceReferencedDocument/ram:IssuerAssignedID", namespaces=XNS)
        if not credited or referenced != credited:
            problems.append(f"BT-25 vaut {referenced!r} au lieu de la facture créditée {credited!r}")
    for name, field in (("TaxBasisTotalAmount", "totalExclTax"), ("GrandTotalAmount", "totalInclTax")):
        found = _amount(root, name)
        stored = invoice.get(field)
        if stored is None or found is None or found != abs(cents(stored)):
            problems.append(f"{name} vaut {found} au lieu de {stored} ({field})")
    return problems


# --- One document: its PDF and its XML, fetched ahead, checked here ---


def fetch(agency, invoice_id):
    """What the checks need of one document (in a fetcher thread)."""
    invoice = api_json("GET", f"/invoices/{invoice_id}", agency)
    _, pdf_type, pdf = api("GET", f"/invoices/{invoice_id}/pdf", agency)
    _, xml_type, xml = api("GET", f"/invoices/{invoice_id}/facturx.xml", agency)
    return invoice, pdf_type, pdf, xml_type, xml


def check_document(label, fetched, min_pages=None):
    """Every check of one issued document; the XML its PDF carries (None if none)."""
    invoice, pdf_type, pdf, xml_type, xml = fetched
    document = f"{label} {invoice['number']}"
    findings = []
    if not pdf_type.startswith("application/pdf"):
        findings.append(f"PDF servi en {pdf_type!r}")
    if "xml" not in xml_type:
        findings.append(f"facturx.xml servi en {xml_type!r}")
    embedded, verdict = check.check_pdf(pdf)
    findings.extend(verdict)
    if embedded is not None and embedded != xml:
        findings.append("GET …/facturx.xml diffère, octet pour octet, du factur-x.xml du PDF")
    if embedded is not None:
        try:
            findings.extend(coherence(embedded, invoice))
        except (etree.XMLSyntaxError, ArithmeticError) as error:
            findings.append(f"XML illisible pour les contrôles de cohérence : {error}")
    if min_pages is not None:
        with pikepdf.open(io.BytesIO(pdf)) as opened:
            if len(opened.pages) < min_pages:
                findings.append(f"{len(opened.pages)} page(s), au moins {min_pages} attendues")
    for warning in verdict.warnings:
        ident = warning.split(" : ", 1)[0]
        warning_ids[ident] += 1
        warning_texts.setdefault(ident, warning)
    say(f"{document:<34} {len(findings):>3} fatale(s) {len(verdict.warnings):>3} avertissement(s)")
    for finding in findings:
        fail(document, finding)
    checked[label] += 1
    return embedded


# --- a. The demo's documents ---


def demo_documents(agencies, pool):
    """A few XMLs read, for the counter-checks."""
    samples = []
    for agency in agencies:
        ids = []
        page = 1
        while True:
            listing = api_json("GET", f"/invoices?limit=200&page={page}", agency["id"])
            ids += [row["id"] for row in listing["results"] if row.get("number")]
            if page * listing["limit"] >= listing["total"] or not listing["results"]:
                break
            page += 1
        say(f"== a. {agency['name']} : {len(ids)} pièces émises (factures et avoirs)")
        if not ids:
            fail(agency["name"], "aucune pièce émise dans la démonstration")
        futures = [pool.submit(fetch, agency["id"], invoice_id) for invoice_id in ids]
        for future in futures:
            try:
                fetched = future.result()
            except ApiError as error:
                say(f"démo : lecture impossible : {error}")
                fail(agency["name"], str(error))
                continue
            embedded = check_document("démo", fetched)
            if embedded is not None and len(samples) < 5:
                samples.append(embedded)
    return samples


# --- b. The matrix, made through REST v2 ---


def line(label, quantity, price, rate=20, exemption=None):
    row = {"label": label, "quantity": quantity, "unitPrice": price, "vatRate": rate}
    if exemption is not None:
        row["vatExemption"] = exemption
    return row


def matrix(agency, pool):
    say(f"== b. matrice de pièces créées par l'API REST v2 ({agency['name']})")
    clients = api_json("GET", "/clients?limit=200", agency["id"])["results"]
    usable = [c for c in clients if not c["archived"]]
    with_siren = next((c for c in usable if c.get("siren")), None)
    without_siren = next((c for c in usable if not c.get("siren")), None)
    if with_siren is None:
        fail("matrice", "aucun client avec SIREN dans l'agence")
        return
    if without_siren is None:
        # No such client in the demo: one is created (a co-ownership, no SIREN).
        created = api_json("POST", "/clients", agency["id"], {"name": "Syndicat des copropriétaires du 3 rue Factur-X"})
        without_siren = {"id": created["id"], "name": "créé"}
    equipment = api_json("GET", "/equipment?limit=1", agency["id"])["results"]

    def draft(lines, client=None, equipment_ids=None):
        body = {"clientId": (client or with_siren)["id"], "lines": lines}
        if equipment_ids:
            body["equipmentIds"] = equipment_ids
        return api_json("POST", "/invoices", agency["id"], body)["id"]

    def issue(invoice_id):
        api("POST", f"/invoices/{invoice_id}/issue", agency["id"])
        return invoice_id

    made = []  # (label, invoice id, min pages)

    def attempt(label, make, min_pages=None):
        try:
            made.append((label, make(), min_pages))
        except ApiError as error:
            fail(f"matrice « {label} »", str(error))

    attempt("un taux (20 %)", lambda: issue(draft(
        [line("Entretien trimestriel", 1, 250)], equipment_ids=[e["id"] for e in equipment[:1]])))
    attempt("plusieurs taux, 0 % autoliquidation", lambda: issue(draft([
        line("Remplacement des câbles de traction", 1, 1840.5, 20),
        line("Travaux d'accessibilité", 2, 615.25, 10),
        line("Équipement pour personnes handicapées", 1, 320, 5.5),
        line("Prestation au taux particulier", 3, 12.4, 2.1),
        line("Sous-traitance du BTP (autoliquidation)", 1, 980, 0, "autoliquidation"),
    ])))
    attempt("20 % et 0 % franchise", lambda: issue(draft([
        line("Dépannage", 1, 180, 20),
        line("Prestation en franchise en base", 1, 95, 0, "franchise"),
    ])))
    attempt("quantités décimales", lambda: issue(draft([
        line("Main-d'œuvre (heures)", 1.5, 87.33),
        line("Graisse spéciale (kg)", 0.125, 19.99, 10),
        line("Câble (m)", 2.333, 45.67),
    ])))
    attempt("60 lignes (plusieurs pages)", lambda: issue(draft(
        [line(f"Pièce détachée n° {n} — référence ASC-{1000 + n}", n % 7 + 1, 10 + n * 1.25, (20, 10, 5.5)[n % 3])
         for n in range(1, 61)])), min_pages=2)

    def from_quote():
        if not equipment:
            raise ApiError("GET", "/equipment", 200, "aucun équipement dans l'agence")
        quote = api_json("POST", "/quotes", agency["id"], {
            "equipmentId": equipment[0]["id"], "origin": "client",
            "object": "Remplacement de l'opérateur de porte cabine",
            "rows": [line("Opérateur de porte", 1, 2450), line("Main-d'œuvre (heures)", 6.5, 72, 10)],
        })["id"]
        api("POST", f"/quotes/{quote}/accept", agency["id"])
        invoice = api_json("POST", f"/quotes/{quote}/invoice", agency["id"], {"clientId": with_siren["id"]})["id"]
        return issue(invoice)

    attempt("depuis un devis accepté", from_quote)

    credited = []

    def full_credit():
        invoice = issue(draft([line("Visite de contrôle", 1, 420), line("Déplacement", 1, 55, 10)]))
        credited.append(invoice)
        return api_json("POST", f"/invoices/{invoice}/credit-notes", agency["id"], None)["id"]

    def partial_credit():
        invoice = issue(draft([line("Remplacement du contacteur", 2, 310), line("Main-d'œuvre", 3, 70, 10)]))
        credited.append(invoice)
        return api_json("POST", f"/invoices/{invoice}/credit-notes", agency["id"],
                        {"lines": [line("Geste commercial sur le contacteur", 1, 100)]})["id"]

    attempt("avoir total", full_credit)
    attempt("avoir partiel", partial_credit)

    def paid():
        invoice = issue(draft([line("Réparation de la serrure palière", 1, 365)]))
        api("POST", f"/invoices/{invoice}/payment", agency["id"], None)
        status = api_json("GET", f"/invoices/{invoice}", agency["id"])["status"]
        if status != "payee":
            raise ApiError("GET", f"/invoices/{invoice}", 200, f"statut {status} après règlement complet")
        return invoice

    attempt("facture payée", paid)
    attempt("acheteur sans SIREN", lambda: issue(draft([line("Entretien annuel", 1, 1200)], client=without_siren)))

    # Reverse charge needs a buyer identified (BR-AE-02): to a buyer without
    # SIREN, issuing is either refused (422) or gives a valid document.
    try:
        reverse = draft([line("Entretien", 1, 300), line("Sous-traitance (autoliquidation)", 1, 150, 0, "autoliquidation")],
                        client=without_siren)
        status, _, answer = api("POST", f"/invoices/{reverse}/issue", agency["id"], expect=(201, 422))
        if status == 201:
            made.append(("autoliquidation, acheteur sans SIREN", reverse, None))
        else:
            say(f"autoliquidation, acheteur sans SIREN : émission refusée (422) : {answer.decode()[:200]}")
            checked["refus autoliquidation sans SIREN"] += 1
    except ApiError as error:
        fail("matrice « autoliquidation, acheteur sans SIREN »", str(error))

    futures = [(label, pool.submit(fetch, agency["id"], invoice_id), min_pages) for label, invoice_id, min_pages in made]
    for invoice_id in credited:
        futures.append(("facture créditée", pool.submit(fetch, agency["id"], invoice_id), None))
    for label, future, min_pages in futures:
        try:
            check_document(f"matrice « {label} »", future.result(), min_pages=min_pages)
        except ApiError as error:
            fail(f"matrice « {label} »", str(error))

    # A draft: no number, no Factur-X.
    try:
        draft_id = draft([line("Brouillon jamais émis", 1, 10)])
        _, _, pdf = api("GET", f"/invoices/{draft_id}/pdf", agency["id"])
        check.assert_not_facturx(pdf)
        api("GET", f"/invoices/{draft_id}/facturx.xml", agency["id"], expect=(409,))
        say("brouillon : PDF sans XML Factur-X, facturx.xml refusé (409)")
        checked["brouillon"] += 1
    except (ApiError, AssertionError) as error:
        fail("brouillon", str(error))

    # A 0 % line without its exemption: refused (422), at creation or at issue.
    try:
        status, _, answer = api("POST", "/invoices", agency["id"],
                                {"clientId": with_siren["id"], "lines": [line("Ligne à 0 % sans motif", 1, 50, 0)]},
                                expect=(201, 422))
        if status == 201:
            issued, _, answer = api("POST", f"/invoices/{json.loads(answer)['id']}/issue", agency["id"], expect=(201, 422))
            if issued != 422:
                raise ApiError("POST", "/invoices/{id}/issue", issued, "émise au lieu d'être refusée (422)")
        when = "la création" if status == 422 else "l'émission"
        say(f"ligne à 0 % sans vatExemption : refusée (422, à {when})")
        checked["refus 0 %"] += 1
    except ApiError as error:
        fail("ligne à 0 % sans vatExemption", str(error))


# --- c. The checks can fail ---


def counter_checks(samples):
    say("== c. contre-épreuves (les contrôles doivent pouvoir échouer)")
    if not samples:
        fail("contre-épreuves", "aucun XML lu en (a) pour les faire")
        return
    # The reference: an XML of (a) that passes check_xml, else (already a
    # failure of (a)) the first one, to show what the checks still catch.
    valid_xml = next((xml for xml in samples if not check.check_xml(xml)), None)
    if valid_xml is None:
        valid_xml = samples[0]
        say("  (aucun XML sans constat en (a) : contre-épreuves sur un XML qui en a déjà)")
    baseline = [finding.split(" : ", 1)[0] for finding in check.check_xml(valid_xml)]

    root = etree.fromstring(valid_xml)
    total = root.find(".//ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:GrandTotalAmount", XNS)
    total.text = str(Decimal(total.text.strip()) + Decimal("1.00"))
    expect_finding("total TTC + 1,00", etree.tostring(root, xml_declaration=True, encoding="UTF-8"), "BR-CO-15", baseline)

    root = etree.fromstring(valid_xml)
    notes = [n for n in root.iterfind("rsm:ExchangedDocument/ram:IncludedNote", XNS)
             if n.findtext("ram:SubjectCode", namespaces=XNS) == "PMT"]
    for note in notes:
        note.getparent().remove(note)
    if not notes:
        fail("contre-épreuves", "le XML de référence n'a pas de note PMT à retirer")
    expect_finding("note PMT retirée", etree.tostring(root, xml_declaration=True, encoding="UTF-8"), "BR-FR-05", baseline)


def expect_finding(what, xml_bytes, wanted, baseline):
    """wanted (an id prefix) absent from the reference XML, found once corrupted."""
    verdict = check.check_xml(xml_bytes)
    ids = [finding.split(" : ", 1)[0] for finding in verdict]
    if any(i.startswith(wanted) for i in baseline):
        fail(f"contre-épreuve « {what} »", f"{wanted} déjà signalé sur le XML de référence")
    elif any(i.startswith(wanted) for i in ids):
        say(f"  ok : {what} : {wanted} signalé ({', '.join(ids)})")
        checked["contre-épreuve"] += 1
    else:
        fail(f"contre-épreuve « {what} »", f"{wanted} attendu, trouvé : {ids or 'rien'}")


def main():
    me = api_json("GET", "/me", CREDENTIALS["agencies"][0]["id"])
    agencies = sorted(me["agencies"], key=lambda a: a["name"])
    default = me["agency"]
    say(f"Factur-X : {len(agencies)} agence(s) vue(s) par le jeton de l'administrateur "
        f"({', '.join(a['name'] for a in agencies)})")
    with concurrent.futures.ThreadPoolExecutor(max_workers=FETCHERS) as pool:
        samples = demo_documents(agencies, pool)
        matrix(default, pool)
    counter_checks(samples)

    elapsed = time.monotonic() - started
    say("== résumé")
    for label, count in sorted(checked.items()):
        say(f"  {label} : {count}")
    if warning_ids:
        say(f"  avertissements (non bloquants), par identifiant : {sum(warning_ids.values())}")
        for ident, count in warning_ids.most_common():
            say(f"    {count:>4} × {warning_texts[ident][:220]}")
    if failures:
        # Grouped by what failed (ids and SVRL locations aside), with the
        # first documents where it did.
        groups = collections.OrderedDict()
        for document, finding in failures:
            key = re.sub(r"[0-9a-f]{8}-[0-9a-f-]{27}", "…", re.sub(r" \[/.*\]$", "", finding))
            groups.setdefault(key, []).append(document)
        say(f"  {len(failures)} échec(s) sur {len({d for d, _ in failures})} pièce(s) ou étape(s), par constat :")
        for key, documents in sorted(groups.items(), key=lambda item: -len(item[1])):
            more = f", … (+{len(documents) - 3})" if len(documents) > 3 else ""
            say(f"    {len(documents):>4} × {key[:400]}")
            say(f"           ({', '.join(documents[:3])}{more})")
    say(f"  durée : {elapsed:.1f} s")
    artifacts = os.environ.get("LIFTDESK_ARTIFACTS")
    if artifacts:
        Path(artifacts).mkdir(parents=True, exist_ok=True)
        (Path(artifacts) / "facturx-report.txt").write_text("\n".join(report_lines) + "\n", encoding="utf-8")
    if failures:
        print(f"ÉCHEC : Factur-X, {len(failures)} constat(s) bloquant(s) (détail ci-dessus"
              + (f" et dans {artifacts}/facturx-report.txt)" if artifacts else ")"), file=sys.stderr)
        sys.exit(1)
    say("Factur-X : tout est valide (XSD, schématrons EN 16931 et BR-FR, PDF/A-3).")


if __name__ == "__main__":
    main()
