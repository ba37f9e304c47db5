// Test de bout en bout « le premier jour d'une agence », depuis une installation VIDE : un second
// serveur Liftdesk est lancé ici sur un dossier de données vide (comme setup.test.mjs), avec un
// vrai serveur SMTP local (tests/smtp/sink.py), et tout se fait par l'interface, dans une même
// session du navigateur (un second contexte pour la collègue) :
//
//   npm --prefix ui run build && (cd ui && LIFTDESK_BIN=<binaire> node --test e2e/first-day.test.mjs)
//
// 1. « Installation de Liftdesk » : organisation, agence, administrateur → connecté.
// 2. Agence › Identité : l'identité légale complète (SAS, capital, RCS, SIRET, TVA, adresses,
//    téléphone, e-mail, IBAN/BIC, assureur, police) et la série de numérotation des factures
//    (« gre », mise en majuscules à la saisie : l'organisation aura deux agences, chacune émet dans
//    sa série) enregistrée et relue.
// 3. Agence › Agences : une seconde agence.
// 4. Agence › Personnes : une collègue (membre), son mot de passe provisoire montré une fois ; elle
//    se connecte (second contexte), choisit le sien, arrive à l'accueil.
// 5. Techniciens : deux techniciens.
// 6. Clients : un client saisi à la main (SIREN, adresse, catégorie de facturation) et un contact
//    avec une adresse e-mail.
// 7. Équipements › « Nouvel équipement » : un immeuble (digicode) et un ascenseur pour ce client.
// 8. Planning : une visite de l'ascenseur pour un des techniciens.
// 9. Paramètres › « E-mail (serveur d'envoi) » : le récepteur SMTP local, sans chiffrement.
// 10. Devis sur l'ascenseur, « Envoyer au client » → le contact → « Envoyer » : « Envoyé », reçu
//     avec le PDF joint, de l'adresse de l'agence, au contact.
// 11. Le devis accepté, facturé, la facture émise (la première de la série : FA-GRE-<année>-000001)
//     puis envoyée de même ; le PDF reçu lu par pdftotext : SIRET, n° de TVA, RCS, capital, assureur.
// 12. Factures › « Exporter » : Excel (relu par openpyxl) et CSV (BOM, « ; »).
// 13. La recherche de l'en-tête (`/`) trouve l'ascenseur par son numéro et ouvre sa fiche.
// 14. « Journal » : les changements de la journée y sont (la création de la seconde agence, à son
//     propre journal, vue en la choisissant dans le sélecteur d'agence).
// 15. Les libellés du journal sont en français : pas de code d'action ni de nom de champ de l'API
//     rendu tel quel (« Envoi par e-mail », pas « Envoi email » ; « Création » pour un technicien).
//
// LIFTDESK_BIN : le binaire (défaut ../target/debug/liftdesk, ou $CARGO_TARGET_DIR/debug/liftdesk) ;
// LIFTDESK_PY_VENV : l'environnement Python du récepteur SMTP et d'openpyxl (défaut
// ~/.cache/liftdesk/venv) ; LIFTDESK_ARTIFACTS : dossier des captures (écrites dans
// <dossier>/ui/) ; LIFTDESK_CHROMIUM : navigateur. LIFTDESK_URL est ignorée : ce test a son propre
// serveur.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe } from 'node:test';
import { artifactsDir, BrowserSession, emptyDatabaseEnv, expectText, PYTHON, UI_DIR } from './harness.mjs';
import { startSink } from './smtp.mjs';

const STEP_TIMEOUT = 90_000;
const EUROS = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
const euros = (value) => EUROS.format(value);

const T = {
  menu: 'Menu principal',
  signOut: 'Se déconnecter',
  welcome: (name) => `Bienvenue, ${name}`,
  agencyTabs: "Rubriques de l'agence",
  exportButton: 'Exporter',
  csv: 'CSV (Excel, séparateur ;)',
  xlsx: 'Excel (.xlsx)',
  mailSection: "E-mail (serveur d'envoi)",
};

/** Les données de la journée. */
const ORG = 'Ascenseurs Bertin';
const AGENCY = 'Agence de Grenoble';
const SECOND_AGENCY = 'Agence de Chambéry';
const ADMIN = { name: 'Hélène Bertin', email: 'helene@ascenseurs-bertin.fr', password: 'premier-jour-2026' };
const COLLEAGUE = { name: 'Lucas Morel', email: 'lucas@ascenseurs-bertin.fr', chosen: 'lucas-choisit-2026' };
const IDENTITY = {
  legalName: 'Ascenseurs Bertin SAS',
  legalForm: 'SAS',
  shareCapital: '50000',
  rcsCity: 'Grenoble',
  siret: '73282932000074',
  siren: '732829320',
  // Clé de TVA française : (12 + 3 × (SIREN mod 97)) mod 97.
  vatNumber: `FR${String((12 + 3 * (732829320 % 97)) % 97).padStart(2, '0')}732829320`,
  // Les adresses en parties : rue, code postal, ville (groupes « Adresse de l'agence », « Siège social… »).
  headOffice: { street: '8 place Victor Hugo', postalCode: '38000', city: 'Grenoble' },
  address: { street: '12 avenue Alsace-Lorraine', postalCode: '38000', city: 'Grenoble' },
  phone: '04 76 12 34 56',
  email: 'contact@ascenseurs-bertin.fr',
  iban: 'FR76 3000 6000 0112 3456 7890 189',
  bic: 'BNPAFRPP',
  insurer: 'Mutuelle Alpine d’Assurances, 3 rue Lesdiguières, 38000 Grenoble',
  insurancePolicy: 'RC-2026-445566',
  // La série de numérotation, tapée en minuscules : l'écran et le serveur l'écrivent en majuscules.
  invoiceSeries: { typed: 'gre', saved: 'GRE' },
};
const TECHNICIANS = [
  { name: 'Karim Benali', phone: '06 12 34 56 78', sectors: 'Grenoble, 38000' },
  { name: 'Julie Faure', phone: '06 98 76 54 32', sectors: 'Échirolles, 38130' },
];
const CLIENT = {
  name: 'Résidence Les Érables',
  siren: '552081317',
  address: '45 rue des Alliés',
  postalCode: '38100',
  city: 'Grenoble',
  billingCategory: 'Entreprise assujettie à la TVA',
};
const CONTACT = { name: 'Martine Roux', email: 'martine.roux@les-erables.fr' };
const BUILDING = { name: 'Les Érables — Bâtiment A', address: '45 rue des Alliés', postalCode: '38100', city: 'Grenoble', digicode: '2580A' };
const LIFT = { number: 'ASC-GRE-0001', location: 'Hall A' };

/** Écrit la première pièce jointe PDF d'un `.eml` (analysé par le module `email` de Python). */
function extractPdf(eml, target) {
  const script = `
import email, sys
from email import policy
with open(sys.argv[1], 'rb') as f:
    msg = email.message_from_binary_file(f, policy=policy.default)
pdfs = [p for p in msg.iter_attachments() if p.get_content_type() == 'application/pdf']
assert len(pdfs) == 1, f'{len(pdfs)} PDF joints'
with open(sys.argv[2], 'wb') as out:
    out.write(pdfs[0].get_payload(decode=True))
`;
  execFileSync(PYTHON, ['-c', script, eml, target]);
}

/** Le texte d'un PDF (pdftotext -layout), chaque ligne aux espaces normalisés. */
function pdfLines(file) {
  const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  return text
    .replace(/[\u202f\u00a0]/g, ' ')
    .split('\n')
    .map((line) => line.split(/\s+/).filter(Boolean).join(' '));
}

/** Lit un classeur avec openpyxl : chaque ligne de la première feuille (dates en texte ISO). */
function readWorkbook(file) {
  const script = `
import json, sys, datetime, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
def cell(v):
    if isinstance(v, (datetime.datetime, datetime.date)):
        return {"date": v.isoformat()}
    return v
print(json.dumps({"sheets": wb.sheetnames, "rows": [[cell(c) for c in row] for row in wb.worksheets[0].iter_rows(values_only=True)]}, ensure_ascii=False))
`;
  return JSON.parse(execFileSync(PYTHON, ['-c', script, file], { encoding: 'utf8' }));
}

describe("le premier jour d'une agence, depuis une installation vide", { timeout: 20 * STEP_TIMEOUT }, () => {
  const bin =
    process.env.LIFTDESK_BIN ||
    path.resolve(process.env.CARGO_TARGET_DIR || path.resolve(UI_DIR, '../target'), 'debug/liftdesk');
  const filesDir = path.join(artifactsDir, 'premier-jour');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'liftdesk-e2e-premier-jour-'));
  let server;
  let baseUrl;
  const ui = new BrowserSession({
    shots: 'premier-jour',
    stepTimeout: STEP_TIMEOUT,
    viewport: { width: 1440, height: 900 },
    context: { timezoneId: 'Europe/Paris', acceptDownloads: true },
  });
  const { pageErrors, step, shot, apiResponse, signIn, signOut } = ui;
  /** @type {import('playwright-core').Page} */
  let page;
  let sink;

  /** Ce que la journée crée, lu dans les réponses du serveur. */
  const made = {
    secondAgencyId: '',
    colleagueTemporary: '',
    technicianIds: [],
    clientId: '',
    buildingId: '',
    equipmentId: '',
    visitId: '',
    quoteId: '',
    quoteNumber: '',
    invoiceId: '',
    invoiceNumber: '',
    invoiceTotals: { ht: 0, ttc: 0 },
  };

  const menu = (target = page) => target.getByRole('navigation', { name: T.menu });
  const field = (label, scope = page) => scope.getByLabel(label, { exact: true });
  /** Les deux adresses de l'identité, chacune dans son groupe (rue, complément, code postal, ville). */
  const agencyAddress = () => page.getByRole('group', { name: "Adresse de l'agence", exact: true });
  const headOfficeAddress = () =>
    page.getByRole('group', { name: "Siège social (s'il n'est pas à l'adresse de l'agence)", exact: true });

  /** Un GET de l'API de l'application depuis la page (cookie de session). */
  const getApi = (pathname) =>
    page.evaluate(async (p) => {
      const response = await fetch(p);
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    }, pathname);

  async function openAgencyTab(tab) {
    await menu().getByRole('link', { name: 'Agence', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Agence', exact: true }).waitFor();
    await page.getByRole('navigation', { name: T.agencyTabs }).getByRole('link', { name: tab, exact: true }).click();
    await page.getByRole('heading', { level: 2, name: tab, exact: true }).waitFor();
  }

  /**
   * « Envoyer au client » → la fenêtre d'envoi : le contact coché, « Envoyer », « Envoyé » affiché.
   * Rend la réponse du serveur.
   */
  async function sendByMail(dialogName, sendPath) {
    await page.getByRole('button', { name: 'Envoyer au client', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: dialogName });
    await dialog.waitFor();
    await dialog.getByTestId('mail-from').waitFor();
    // L'expéditeur : la raison sociale et l'adresse e-mail de l'agence (Agence › Identité).
    await expectText(dialog.getByTestId('mail-from'), `De : ${IDENTITY.legalName} <${IDENTITY.email}>`);
    const box = dialog.getByRole('checkbox', { name: `${CONTACT.name} <${CONTACT.email}>`, exact: false });
    await box.check();
    assert.equal(await box.isChecked(), true);
    await shot(`premier-jour-envoi-${dialogName.replace(/[^\p{L}\p{N}]+/gu, '-')}`);
    const answered = apiResponse(sendPath, 'POST', { timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Envoyer', exact: true }).click();
    const response = await answered;
    const answer = await response.json();
    assert.equal(response.status(), 201, JSON.stringify(answer));
    assert.equal(answer.mail?.status, 'envoye', JSON.stringify(answer));
    await dialog.getByTestId('mail-outcome').getByText(/^Envoyé le /).waitFor();
    assert.ok(((await dialog.getByTestId('mail-outcome').textContent()) ?? '').includes(`<${CONTACT.email}>`));
    await dialog.getByRole('button', { name: 'Fermer', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    return answer;
  }

  /** Le message reçu : au contact, de l'adresse de l'agence, un seul PDF joint. */
  async function receivedWithPdf(number) {
    const message = await sink.waitFor(
      (m) => m.rcptTos.includes(CONTACT.email) && m.subject.includes(number),
      `le message de ${number}`,
    );
    assert.ok(message.to.includes(CONTACT.email), `à : ${message.to}`);
    assert.ok(message.from.includes(`<${IDENTITY.email}>`), `de : ${message.from}`);
    assert.equal(message.attachments.length, 1, JSON.stringify(message.attachments));
    const [attachment] = message.attachments;
    assert.equal(attachment.contentType, 'application/pdf');
    assert.ok(attachment.head.startsWith('%PDF'), attachment.head);
    assert.equal(attachment.filename, `${number}.pdf`);
    return message;
  }

  /** « Exporter » → `format` dans la barre de la liste : le fichier téléchargé. */
  async function exportList(format) {
    const toolbar = page.locator('.toolbar').filter({ has: page.getByRole('button', { name: T.exportButton, exact: true }) });
    const exporter = toolbar.getByRole('button', { name: T.exportButton, exact: true });
    await exporter.click();
    const panel = toolbar.getByRole('group', { name: "Format de l'export" });
    await panel.waitFor();
    const started = apiResponse('/app/api/exports', 'POST');
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      panel.getByRole('button', { name: format === 'csv' ? T.csv : T.xlsx, exact: true }).click(),
    ]);
    const start = await started;
    assert.equal(start.status(), 202, await start.text());
    const job = await start.json();
    const progress = toolbar.locator('[data-testid="export-progress"]');
    await toolbar.locator('[data-testid="export-progress"]:is([data-phase="pret"], [data-phase="echec"], [data-phase="erreur"])').waitFor();
    await expectText(progress.locator('.line'), `Export prêt : ${job.fileName}`);
    assert.equal(await progress.locator('progress').getAttribute('value'), '1');
    assert.equal(download.suggestedFilename(), job.fileName);
    const file = path.join(filesDir, job.fileName);
    await download.saveAs(file);
    return { job, file, body: JSON.parse(start.request().postData() ?? '{}') };
  }

  before(async () => {
    mkdirSync(filesDir, { recursive: true });
    server = spawn(bin, ['--data-dir', dataDir, 'serve', '--bind', '127.0.0.1:0'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: emptyDatabaseEnv('premier_jour'),
    });
    baseUrl = await new Promise((resolve, reject) => {
      const lines = createInterface({ input: server.stdout });
      lines.once('line', (line) => resolve(line.trim()));
      server.once('exit', (code) => reject(new Error(`le serveur s'est arrêté (code ${code})`)));
    });
    sink = await startSink();
    ui.baseUrl = baseUrl;
    await ui.open();
    page = ui.page;
  });

  after(async () => {
    await ui.close();
    sink?.stop();
    server?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  // -- 1. Installation ----------------------------------------------------------------------------

  step('1. « Installation de Liftdesk » : l’administratrice créée est connectée', async () => {
    await page.goto(baseUrl);
    await page.getByRole('heading', { level: 1, name: 'Installation de Liftdesk', exact: true }).waitFor();
    await field("Nom de l'organisation (la société)").fill(ORG);
    await field('Première agence').fill(AGENCY);
    await field("Nom de l'administrateur").fill(ADMIN.name);
    await field('Adresse e-mail').fill(ADMIN.email);
    await field('Mot de passe (8 caractères au moins)').fill(ADMIN.password);
    await field('Confirmez le mot de passe').fill(ADMIN.password);
    const response = apiResponse('/app/api/setup', 'POST');
    await page.getByRole('button', { name: 'Installer', exact: true }).click();
    assert.equal((await response).status(), 200);
    await page.getByRole('button', { name: T.signOut, exact: true }).waitFor();
    await page.getByRole('heading', { level: 1, name: T.welcome(ADMIN.name), exact: true }).waitFor();
    await shot('premier-jour-01-installe');
  });

  // -- 2. Identité --------------------------------------------------------------------------------

  step('2. Agence › Identité : l’identité légale complète, enregistrée et relue', async () => {
    const read = apiResponse('/app/api/agency/identity', 'GET');
    await openAgencyTab('Identité');
    assert.equal((await read).status(), 200);
    await field('SIRET').waitFor();
    // Installation neuve : le bandeau dit ce qui manque pour émettre.
    await page.getByTestId('missing-to-issue').waitFor();

    await field('Raison sociale').fill(IDENTITY.legalName);
    await field('Forme juridique').fill(IDENTITY.legalForm);
    await field('Capital social (en euros)').fill(IDENTITY.shareCapital);
    await field('Ville du RCS').fill(IDENTITY.rcsCity);
    await field('SIRET').fill(IDENTITY.siret);
    await field('N° de TVA intracommunautaire').fill(IDENTITY.vatNumber);
    for (const [group, parts] of [
      [agencyAddress(), IDENTITY.address],
      [headOfficeAddress(), IDENTITY.headOffice],
    ]) {
      await field('Adresse (rue)', group).fill(parts.street);
      await field('Code postal', group).fill(parts.postalCode);
      await field('Ville', group).fill(parts.city);
    }
    await field('Téléphone').fill(IDENTITY.phone);
    await field('E-mail').fill(IDENTITY.email);
    await field('IBAN').fill(IDENTITY.iban);
    await field('BIC').fill(IDENTITY.bic);
    await field('Assureur').fill(IDENTITY.insurer);
    await field("N° de police d'assurance").fill(IDENTITY.insurancePolicy);
    await field('Série de numérotation des factures').fill(IDENTITY.invoiceSeries.typed);
    assert.equal(await field('Série de numérotation des factures').inputValue(), IDENTITY.invoiceSeries.saved);
    assert.equal((await field('SIREN').inputValue()).replace(/\s/g, ''), IDENTITY.siren);

    const saved = apiResponse('/app/api/agency/identity', 'PUT');
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    const res = await saved;
    const answer = await res.json();
    assert.equal(res.status(), 200, JSON.stringify(answer));
    assert.deepEqual(answer.missingToIssue, []);
    assert.equal(answer.identity.siret, IDENTITY.siret);
    assert.equal(answer.identity.vatNumber, IDENTITY.vatNumber);
    assert.equal(answer.identity.shareCapital, Number(IDENTITY.shareCapital));
    assert.equal(answer.identity.invoiceSeries, IDENTITY.invoiceSeries.saved);
    assert.deepEqual(
      [answer.identity.address, answer.identity.postalCode, answer.identity.city],
      [IDENTITY.address.street, IDENTITY.address.postalCode, IDENTITY.address.city],
    );
    assert.deepEqual(
      [answer.identity.headOfficeAddress, answer.identity.headOfficePostalCode, answer.identity.headOfficeCity],
      [IDENTITY.headOffice.street, IDENTITY.headOffice.postalCode, IDENTITY.headOffice.city],
    );
    await page.getByRole('status').filter({ hasText: 'Identité enregistrée.' }).waitFor();
    assert.equal(await page.getByTestId('missing-to-issue').count(), 0);
    await shot('premier-jour-02-identite');

    // Relue après rechargement.
    await page.reload();
    await field('SIRET').waitFor();
    assert.equal(await field('SIRET').inputValue(), IDENTITY.siret);
    assert.equal(await field('Raison sociale').inputValue(), IDENTITY.legalName);
    assert.equal(await field('Forme juridique').inputValue(), 'SAS');
    assert.equal((await field('Capital social (en euros)').inputValue()).replace(/[\s\u202f\u00a0]/g, ''), '50000');
    assert.equal(await field('Ville du RCS').inputValue(), IDENTITY.rcsCity);
    assert.equal(await field('N° de TVA intracommunautaire').inputValue(), IDENTITY.vatNumber);
    assert.equal(await field('E-mail').inputValue(), IDENTITY.email);
    assert.equal((await field('IBAN').inputValue()).replace(/\s/g, ''), IDENTITY.iban.replace(/\s/g, ''));
    assert.equal(await field('BIC').inputValue(), IDENTITY.bic);
    assert.equal(await field('Assureur').inputValue(), IDENTITY.insurer);
    assert.equal(await field("N° de police d'assurance").inputValue(), IDENTITY.insurancePolicy);
    assert.equal(await field('Série de numérotation des factures').inputValue(), IDENTITY.invoiceSeries.saved);
    assert.equal(await field('Adresse (rue)', agencyAddress()).inputValue(), IDENTITY.address.street);
    assert.equal(await field('Code postal', agencyAddress()).inputValue(), IDENTITY.address.postalCode);
    assert.equal(await field('Ville', agencyAddress()).inputValue(), IDENTITY.address.city);
    assert.equal(await field('Ville', headOfficeAddress()).inputValue(), IDENTITY.headOffice.city);
    assert.equal(await page.getByTestId('missing-to-issue').count(), 0);
  });

  // -- 3. Seconde agence --------------------------------------------------------------------------

  step('3. Agence › Agences : une seconde agence', async () => {
    await page.getByRole('navigation', { name: T.agencyTabs }).getByRole('link', { name: 'Agences', exact: true }).click();
    await page.getByRole('heading', { level: 2, name: 'Agences', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Nouvelle agence', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Nouvelle agence' });
    await field("Nom de l'agence", dialog).fill(SECOND_AGENCY);
    const created = apiResponse('/app/api/agencies', 'POST');
    await dialog.getByRole('button', { name: "Créer l'agence", exact: true }).click();
    const res = await created;
    assert.equal(res.status(), 201);
    made.secondAgencyId = (await res.json()).id;
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('main p.notice').filter({ hasText: `Agence « ${SECOND_AGENCY} » créée.` }).waitFor();
    await page.locator(`main table tbody tr[data-id="${made.secondAgencyId}"]`).waitFor();
    await page.waitForFunction(
      (name) => [...document.querySelectorAll('header select option')].some((o) => o.textContent?.trim() === name),
      SECOND_AGENCY,
    );
    await shot('premier-jour-03-agences');
  });

  // -- 4. Une collègue ----------------------------------------------------------------------------

  step('4. Agence › Personnes : une collègue, son mot de passe provisoire ; elle choisit le sien', async () => {
    await page.getByRole('navigation', { name: T.agencyTabs }).getByRole('link', { name: 'Personnes', exact: true }).click();
    await page.getByRole('heading', { level: 2, name: 'Personnes', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Ajouter une personne', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Ajouter une personne' });
    await field('Nom', dialog).fill(COLLEAGUE.name);
    await field('E-mail', dialog).fill(COLLEAGUE.email);
    await field('Rôle', dialog).selectOption('member');
    const agencyBox = field(AGENCY, dialog);
    if ((await agencyBox.count()) > 0) await agencyBox.check();
    const created = apiResponse('/app/api/people', 'POST');
    await dialog.getByRole('button', { name: 'Créer le compte', exact: true }).click();
    const res = await created;
    const answer = await res.json();
    assert.equal(res.status(), 201, JSON.stringify(answer));
    assert.equal(answer.person.mustChangePassword, true);
    await dialog.waitFor({ state: 'hidden' });

    const secret = page.getByRole('dialog', { name: `Mot de passe provisoire de ${COLLEAGUE.name}` });
    await secret.getByText('Copiez-le maintenant : il ne sera plus affiché.', { exact: true }).waitFor();
    made.colleagueTemporary = await field('Mot de passe provisoire', secret).inputValue();
    assert.match(made.colleagueTemporary, /^[A-Za-z0-9]{4}(-[A-Za-z0-9]{4}){3}$/);
    assert.equal(made.colleagueTemporary, answer.temporaryPassword);
    await shot('premier-jour-04-mot-de-passe-provisoire');
    await secret.getByRole('button', { name: "J'ai copié, fermer", exact: true }).click();
    await secret.waitFor({ state: 'hidden' });
    assert.equal((await page.content()).includes(made.colleagueTemporary), false);
    await page.locator('main table tbody tr').filter({ hasText: COLLEAGUE.email }).waitFor();

    // La collègue, dans un autre navigateur : le mot de passe provisoire, puis le sien.
    const other = await ui.newPage({ timezoneId: 'Europe/Paris', viewport: { width: 1280, height: 900 } });
    try {
      const session = await signIn({ email: COLLEAGUE.email, password: made.colleagueTemporary }, { page: other });
      assert.equal(session.account.mustChangePassword, true);
      await other.getByText('Votre mot de passe est provisoire : choisissez le vôtre pour continuer.', { exact: true }).waitFor();
      await field('Mot de passe actuel', other).fill(made.colleagueTemporary);
      await field('Nouveau mot de passe (8 caractères au moins)', other).fill(COLLEAGUE.chosen);
      await field('Nouveau mot de passe, une seconde fois', other).fill(COLLEAGUE.chosen);
      const changed = apiResponse('/app/api/account/password', 'POST', { page: other });
      await other.getByRole('button', { name: 'Choisir ce mot de passe', exact: true }).click();
      assert.equal((await changed).status(), 200);
      await other.getByRole('heading', { level: 1, name: T.welcome(COLLEAGUE.name), exact: true }).waitFor();
      // Membre : pas d'« Agence » ni de « Journal » au menu.
      const links = (await menu(other).getByRole('link').allTextContents()).map((s) => s.trim());
      assert.ok(!links.includes('Journal'), `menu de la collègue : ${links.join(', ')}`);
      await shot('premier-jour-04-collegue-connectee', { page: other });

      // Déconnectée, elle revient avec son propre mot de passe.
      await signOut(other);
      const again = await signIn({ email: COLLEAGUE.email, password: COLLEAGUE.chosen }, { page: other });
      assert.equal(again.account.mustChangePassword, false);
      await other.getByRole('heading', { level: 1, name: T.welcome(COLLEAGUE.name), exact: true }).waitFor();
    } finally {
      await other.context().close();
    }
    // L'administratrice se déconnecte puis revient : la collègue est active, son mot de passe choisi.
    await signOut();
    const session = await signIn(ADMIN);
    assert.equal(session.account.role, 'org_admin');
    await openAgencyTab('Personnes');
    const row = page.locator('main table tbody tr').filter({ hasText: COLLEAGUE.email });
    await row.getByText('Actif', { exact: true }).waitFor();
    assert.equal(await row.getByText('Mot de passe provisoire', { exact: true }).count(), 0);
  });

  // -- 5. Techniciens -----------------------------------------------------------------------------

  step('5. Techniciens : deux techniciens ajoutés à l’équipe', async () => {
    await menu().getByRole('link', { name: 'Techniciens', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Techniciens', exact: true }).waitFor();
    for (const technician of TECHNICIANS) {
      await page.getByRole('button', { name: 'Ajouter un technicien', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Ajouter un technicien' });
      await field('Nom', dialog).fill(technician.name);
      await field('Téléphone', dialog).fill(technician.phone);
      await field('Secteurs', dialog).fill(technician.sectors);
      const created = apiResponse('/app/api/technicians', 'POST');
      await dialog.getByRole('button', { name: 'Ajouter', exact: true }).click();
      const res = await created;
      const body = await res.json();
      assert.equal(res.status(), 201, JSON.stringify(body));
      made.technicianIds.push(body.id);
      await dialog.waitFor({ state: 'hidden' });
      await page.getByText(`${technician.name} est ajouté à l'équipe.`, { exact: true }).waitFor();
    }
    const team = page.getByRole('table', { name: 'Équipe', exact: true });
    for (const technician of TECHNICIANS) {
      await team.getByRole('rowheader', { name: technician.name, exact: true }).waitFor();
    }
    await shot('premier-jour-05-techniciens');
  });

  // -- 6. Client et contact -----------------------------------------------------------------------

  step('6. Clients : un client saisi à la main, un contact avec une adresse e-mail', async () => {
    await menu().getByRole('link', { name: 'Clients', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Clients', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Nouveau client', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Nouveau client' });
    await field('Nom', dialog).fill(CLIENT.name);
    await field('Catégorie de facturation', dialog).selectOption({ label: CLIENT.billingCategory });
    await field('Adresse (numéro et voie)', dialog).fill(CLIENT.address);
    await field('Code postal', dialog).fill(CLIENT.postalCode);
    await field('Ville', dialog).fill(CLIENT.city);
    await field('SIREN', dialog).fill(CLIENT.siren);
    const created = apiResponse('/app/api/clients', 'POST');
    await dialog.getByRole('button', { name: 'Créer le client', exact: true }).click();
    const res = await created;
    const detail = await res.json();
    assert.equal(res.status(), 201, JSON.stringify(detail));
    made.clientId = detail.client.id;
    assert.equal(detail.client.billingCategory, 'entreprise');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { level: 1, name: CLIENT.name }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/clients/${encodeURIComponent(made.clientId)}`);
    assert.equal(((await page.locator('[data-field="siren"]').textContent()) ?? '').trim(), '552 081 317');

    await page.getByRole('button', { name: 'Nouveau contact', exact: true }).click();
    const contact = page.getByRole('dialog', { name: 'Nouveau contact' });
    await field('Nom', contact).fill(CONTACT.name);
    await field('E-mail', contact).fill(CONTACT.email);
    const added = apiResponse('/app/api/contacts', 'POST');
    await contact.getByRole('button', { name: 'Créer le contact', exact: true }).click();
    const addedRes = await added;
    assert.equal(addedRes.status(), 201, await addedRes.text());
    await contact.waitFor({ state: 'hidden' });
    await page.getByText(CONTACT.email).first().waitFor();
    await shot('premier-jour-06-client');
  });

  // -- 7. Immeuble et ascenseur -------------------------------------------------------------------

  step('7. Équipements › « Nouvel équipement » : un immeuble avec digicode et son ascenseur', async () => {
    await menu().getByRole('link', { name: 'Équipements', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Équipements' }).waitFor();
    await page.getByRole('button', { name: 'Nouvel équipement', exact: true }).click();
    const outer = page.getByRole('dialog', { name: 'Nouvel équipement', exact: true });
    await outer.getByRole('button', { name: 'Nouvel immeuble…', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Nouvel immeuble', exact: true });
    await field('Nom', dialog).fill(BUILDING.name);
    await field('Adresse', dialog).fill(BUILDING.address);
    await field('Code postal', dialog).fill(BUILDING.postalCode);
    await field('Ville', dialog).fill(BUILDING.city);
    const found = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/app/api/equipment/clients' && new URL(r.url()).searchParams.get('q') === CLIENT.name,
    );
    await field('Client', dialog).fill(CLIENT.name);
    assert.equal((await found).status(), 200);
    await dialog.getByRole('list', { name: 'Client : choix' }).getByRole('button', { name: CLIENT.name, exact: true }).click();
    await dialog.getByText(`Choisi : ${CLIENT.name}`, { exact: true }).waitFor();
    await dialog.getByRole('checkbox', { name: 'Digicode', exact: true }).check();
    await field('Code du digicode', dialog).fill(BUILDING.digicode);
    const createdBuilding = apiResponse('/app/api/buildings', 'POST');
    await dialog.getByRole('button', { name: "Créer l'immeuble", exact: true }).click();
    const buildingRes = await createdBuilding;
    const building = await buildingRes.json();
    assert.equal(buildingRes.status(), 201, JSON.stringify(building));
    made.buildingId = building.id;
    assert.equal(building.client?.id, made.clientId);
    assert.equal(building.access.digicode, BUILDING.digicode);
    await dialog.waitFor({ state: 'hidden' });
    await outer.getByText(`Choisi : ${CLIENT.name}`, { exact: true }).waitFor();

    await field('Numéro', outer).fill(LIFT.number);
    await field('Type', outer).selectOption('ascenseur');
    await field("Contrat d'entretien", outer).selectOption('parc');
    await field('Emplacement', outer).fill(LIFT.location);
    await field('Intervalle de visites (jours)', outer).fill('30');
    const created = apiResponse('/app/api/equipment', 'POST');
    await outer.getByRole('button', { name: "Créer l'équipement", exact: true }).click();
    const res = await created;
    const body = await res.json();
    assert.equal(res.status(), 201, JSON.stringify(body));
    made.equipmentId = body.id;
    await page.getByRole('heading', { level: 1, name: `Équipement ${LIFT.number}`, exact: true }).waitFor();
    assert.equal(((await page.locator('[data-field="client"]').textContent()) ?? '').trim(), CLIENT.name);
    await page.locator('dd[data-field="digicode"]', { hasText: BUILDING.digicode }).waitFor();
    await shot('premier-jour-07-ascenseur');
  });

  // -- 8. Planning --------------------------------------------------------------------------------

  step('8. Planning : une visite de l’ascenseur pour un technicien', async () => {
    await menu().getByRole('link', { name: 'Planning', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Planning', exact: true }).waitFor();
    await page.locator('table.planning-grid').waitFor();
    await page.getByRole('button', { name: 'Nouvelle visite', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Nouvelle visite' });
    await field('Équipement', dialog).pressSequentially(LIFT.number, { delay: 10 });
    await dialog.getByRole('list', { name: 'Équipement : choix' }).getByRole('button', { name: new RegExp(`^${LIFT.number}`) }).first().click();
    await dialog.getByText(`Choisi : ${LIFT.number}`, { exact: true }).waitFor();
    const [technician] = TECHNICIANS;
    await field('Technicien', dialog).selectOption({ label: technician.name });
    // Le lundi qui suit (le jour proposé peut tomber un week-end) : la grille passe à sa semaine.
    const today = await field('Jour', dialog).getAttribute('min');
    assert.match(today ?? '', /^\d{4}-\d{2}-\d{2}$/);
    const monday = new Date(`${today}T00:00:00Z`);
    monday.setUTCDate(monday.getUTCDate() + ((8 - monday.getUTCDay()) % 7 || 7));
    const day = monday.toISOString().slice(0, 10);
    await field('Jour', dialog).fill(day);
    const created = apiResponse('/app/api/visits', 'POST');
    await dialog.getByRole('button', { name: 'Planifier', exact: true }).click();
    const res = await created;
    const visit = await res.json();
    assert.equal(res.status(), 201, JSON.stringify(visit));
    made.visitId = visit.id;
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(visit.plannedFor, day);
    const [y, m, d] = day.split('-');
    await page.getByRole('status').filter({ hasText: `Visite ${LIFT.number} planifiée le ${d}/${m}/${y}.` }).waitFor();
    // La carte de la visite, dans la ligne du technicien, le jour choisi.
    await page
      .locator(`td.cell[data-technician="${made.technicianIds[0]}"][data-day="${visit.plannedFor}"] button.visit-card`)
      .filter({ hasText: LIFT.number })
      .waitFor();
    await shot('premier-jour-08-planning');
  });

  // -- 9. Serveur d'envoi -------------------------------------------------------------------------

  step("9. Paramètres › E-mail : le serveur d'envoi local, sans chiffrement", async () => {
    await menu().getByRole('link', { name: 'Paramètres', exact: true }).click();
    await page.getByRole('heading', { level: 2, name: T.mailSection, exact: true }).waitFor();
    const section = page.getByRole('region', { name: T.mailSection });
    await field("Serveur d'envoi", section).fill('127.0.0.1');
    await field('Sécurité', section).selectOption({ label: 'Aucun chiffrement' });
    await field("Port du serveur d'envoi", section).fill(String(sink.port));
    const saved = apiResponse('/app/api/mail-settings', 'PUT');
    await section.getByRole('button', { name: "Enregistrer le serveur d'envoi", exact: true }).click();
    assert.equal((await saved).status(), 200);
    await section.getByText("Serveur d'envoi enregistré.", { exact: true }).waitFor();
    await shot('premier-jour-09-serveur-envoi');
  });

  // -- 10. Devis envoyé ---------------------------------------------------------------------------

  step('10. Un devis sur l’ascenseur, envoyé au contact par e-mail avec son PDF', async () => {
    await menu().getByRole('link', { name: 'Devis', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Devis', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Nouveau devis' }).click();
    await page.getByRole('heading', { level: 1, name: 'Nouveau devis' }).waitFor();
    await field('Équipement').pressSequentially(LIFT.number, { delay: 10 });
    await page.getByRole('list', { name: 'Équipement : choix' }).getByRole('button', { name: new RegExp(LIFT.number) }).first().click();
    await page.getByText(`Choisi : ${LIFT.number}`, { exact: true }).waitFor();
    await field('Objet').fill('Remplacement des câbles de traction');
    await page.getByLabel('Libellé de la ligne 1').fill('Jeu de câbles de traction');
    await page.getByLabel('Quantité de la ligne 1').fill('1');
    await page.getByLabel('Prix unitaire HT de la ligne 1').fill('1800');
    await page.getByRole('button', { name: 'Ajouter une ligne' }).click();
    await page.getByLabel('Libellé de la ligne 2').fill("Main-d'œuvre");
    await page.getByLabel('Quantité de la ligne 2').fill('6');
    await page.getByLabel('Prix unitaire HT de la ligne 2').fill('70');
    // 1 800 + 420 = 2 220 HT ; TVA 20 % 444 → 2 664 TTC.
    await expectText(page.locator('[data-testid="total-ht"]'), euros(2220));
    await expectText(page.locator('[data-testid="total-ttc"]'), euros(2664));
    const created = apiResponse('/app/api/quotes', 'POST');
    await page.getByRole('button', { name: 'Créer le devis' }).click();
    const res = await created;
    assert.equal(res.status(), 201, await res.text());
    made.quoteId = (await res.json()).id;
    await page.waitForURL(`**/devis/${made.quoteId}`);
    await expectText(page.locator('[data-testid="statut"]'), 'Brouillon');
    made.quoteNumber = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').replace('Devis', '').trim();
    assert.match(made.quoteNumber, /^DV-\d{4}-\d{5}$/);

    await sendByMail(`Envoyer : Devis ${made.quoteNumber}`, `/app/api/quotes/${made.quoteId}/send`);
    await expectText(page.getByTestId('statut'), 'Envoyé');
    await page.getByTestId('mails-panel').getByTestId('mail-status').first().getByText(/^Envoyé le /).waitFor();
    await shot('premier-jour-10-devis-envoye');
    await receivedWithPdf(made.quoteNumber);
  });

  // -- 11. Facture émise, envoyée, son PDF lu ---------------------------------------------------

  step('11. Le devis accepté devient une facture, émise et envoyée ; son PDF porte les mentions légales', async () => {
    await page.getByRole('button', { name: "Enregistrer l'acceptation" }).click();
    await page.getByRole('button', { name: "Confirmer l'acceptation" }).click();
    await expectText(page.locator('[data-testid="statut"]'), 'Accepté');
    await page.getByRole('button', { name: 'Facturer ce devis' }).click();
    const dialog = page.getByRole('dialog', { name: 'Facturer ce devis' });
    await dialog.getByRole('button', { name: 'Créer la facture' }).click();
    await page.waitForURL('**/factures/**');
    made.invoiceId = new URL(page.url()).pathname.split('/').pop();
    await expectText(page.locator('[data-testid="statut"]'), 'Brouillon');
    await expectText(page.locator('[data-testid="total-ttc"]'), euros(2664));

    await page.getByRole('button', { name: 'Émettre', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Émettre la facture ?' });
    await confirm.getByRole('button', { name: 'Émettre la facture' }).click();
    await expectText(page.locator('[data-testid="statut"]'), 'Émise');
    made.invoiceNumber = ((await page.locator('[data-testid="numero"]').textContent()) ?? '').trim();
    // La première facture de l'installation, dans la série de l'agence (l'organisation a deux agences).
    assert.match(made.invoiceNumber, new RegExp(`^FA-${IDENTITY.invoiceSeries.saved}-\\d{4}-000001$`));
    made.invoiceTotals = { ht: 2220, ttc: 2664 };

    await sendByMail(`Envoyer : Facture ${made.invoiceNumber}`, `/app/api/invoices/${made.invoiceId}/send`);
    await expectText(page.getByTestId('statut'), 'Envoyée');
    await page.getByTestId('mails-panel').getByText(/^Envoyé le /).first().waitFor();
    await shot('premier-jour-11-facture-envoyee');

    const message = await receivedWithPdf(made.invoiceNumber);
    const pdf = path.join(filesDir, `${made.invoiceNumber}-recu.pdf`);
    extractPdf(sink.emlOf(message), pdf);
    assert.equal(readFileSync(pdf).subarray(0, 5).toString('latin1'), '%PDF-');
    const lines = pdfLines(pdf);
    writeFileSync(path.join(filesDir, `${made.invoiceNumber}-recu.txt`), lines.join('\n'));
    const text = lines.join('\n');
    const has = (piece, what) => assert.ok(text.includes(piece), `${what} (« ${piece} ») absent du PDF :\n${text}`);
    has(`N° ${made.invoiceNumber}`, 'le numéro');
    // Le SIRET tel que le PDF l'imprime : « 732 829 320 00074 ».
    has('SIRET : 732 829 320 00074', 'le SIRET');
    // Le n° de TVA tel que le PDF l'imprime : « FR 44 732 829 320 ».
    const vatPrinted = `${IDENTITY.vatNumber.slice(0, 2)} ${IDENTITY.vatNumber.slice(2, 4)} 732 829 320`;
    has(`TVA intracommunautaire : ${vatPrinted}`, 'le n° de TVA');
    has(`RCS ${IDENTITY.rcsCity} 732 829 320`, 'le RCS');
    has('SAS au capital de 50 000 €', 'la forme et le capital social');
    has('IBAN FR76 3000 6000 0112 3456 7890 189, BIC BNPAFRPP', "l'IBAN et le BIC");
    has(`Assurance professionnelle : ${IDENTITY.insurer}`, "l'assureur");
    has(IDENTITY.insurancePolicy, 'la police d’assurance');
    has('Total TTC 2 664,00 €', 'le total TTC');
    has(CLIENT.name, 'le client');
  });

  // -- 12. Exports --------------------------------------------------------------------------------

  step('12. Factures › « Exporter » : Excel relu par openpyxl, CSV avec BOM et « ; »', async () => {
    await menu().getByRole('link', { name: 'Factures', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Factures et avoirs' }).waitFor();
    await page.getByRole('link', { name: made.invoiceNumber }).first().waitFor();

    const xlsx = await exportList('xlsx');
    assert.equal(xlsx.body.list, 'invoices');
    assert.equal(xlsx.body.format, 'xlsx');
    assert.match(xlsx.job.fileName, /\.xlsx$/);
    const workbook = readWorkbook(xlsx.file);
    const [header, ...rows] = workbook.rows;
    const col = (name) => header.indexOf(name);
    for (const name of ['Numéro', 'Client', 'Total HT', 'Total TTC']) assert.ok(col(name) >= 0, `colonne « ${name} » : ${header}`);
    const row = rows.find((r) => r[col('Numéro')] === made.invoiceNumber);
    assert.ok(row, `${made.invoiceNumber} dans le classeur : ${JSON.stringify(rows)}`);
    assert.equal(row[col('Client')], CLIENT.name);
    assert.equal(row[col('Total HT')], made.invoiceTotals.ht);
    assert.equal(row[col('Total TTC')], made.invoiceTotals.ttc);
    await shot('premier-jour-12-export-xlsx');

    const csv = await exportList('csv');
    assert.equal(csv.body.format, 'csv');
    const bytes = readFileSync(csv.file);
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'BOM UTF-8');
    const text = bytes.subarray(3).toString('utf8');
    const [head, ...body] = text.split('\r\n').filter(Boolean);
    assert.ok(head.startsWith('Numéro;'), `en-tête : ${head}`);
    const line = body.find((l) => l.startsWith(`${made.invoiceNumber};`));
    assert.ok(line, `${made.invoiceNumber} dans le CSV :\n${text}`);
    assert.ok(line.includes(';2220,00;') && line.includes('2664,00'), `montants : ${line}`);
  });

  // -- 13. Recherche ------------------------------------------------------------------------------

  step('13. La recherche de l’en-tête (`/`) trouve l’ascenseur et ouvre sa fiche', async () => {
    await page.getByRole('heading', { level: 1 }).first().click();
    await page.keyboard.press('/');
    const search = page.getByRole('banner').getByRole('combobox', { name: 'Rechercher', exact: true });
    assert.equal(await search.evaluate((el) => el === document.activeElement), true, '`/` donne le focus au champ');
    const answered = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/app/api/search' && new URL(r.url()).searchParams.get('q') === LIFT.number,
    );
    await search.fill(LIFT.number);
    assert.equal((await answered).status(), 200);
    const option = page
      .getByRole('listbox', { name: 'Résultats de la recherche', exact: true })
      .getByRole('group', { name: 'Équipements', exact: true })
      .getByRole('option', { name: new RegExp(`^${LIFT.number}(\\s|$)`) });
    await option.click();
    await page.getByRole('heading', { level: 1, name: `Équipement ${LIFT.number}`, exact: true }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/equipements/${made.equipmentId}`);
    await shot('premier-jour-13-recherche');
  });

  // -- 14. Journal --------------------------------------------------------------------------------

  /** Les entrées du journal de l'agence active (toutes les pages), lues par l'écran puis l'API. */
  let journal = [];
  const summaryOf = (entries) => entries.map((e) => `${e.objectType} | ${e.actionLabel} | ${e.objectLabel ?? ''}`).join('\n');

  /** « Journal » ouvert par le menu : la première page lue par l'écran, les suivantes par l'API. */
  async function openJournal() {
    const read = page.waitForResponse((r) => new URL(r.url()).pathname === '/app/api/journal' && r.request().method() === 'GET');
    await menu().getByRole('link', { name: 'Journal', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Journal', exact: true }).waitFor();
    const res = await read;
    assert.equal(res.status(), 200);
    const answer = await res.json();
    const entries = [...answer.entries];
    for (let next = answer.next; next !== null && next !== undefined; ) {
      const more = await getApi(`/app/api/journal?before=${encodeURIComponent(next)}`);
      assert.equal(more.status, 200, JSON.stringify(more.body));
      entries.push(...more.body.entries);
      next = more.body.next;
    }
    await page.getByRole('table', { name: "Journal de l'agence", exact: true }).waitFor();
    return { firstPage: answer.entries, entries };
  }

  step('14. « Journal » : les changements de la journée', async () => {
    const { firstPage, entries } = await openJournal();
    journal = entries;
    writeFileSync(path.join(filesDir, 'journal.txt'), summaryOf(entries));
    const table = page.getByRole('table', { name: "Journal de l'agence", exact: true });
    const expectEntry = async (what, predicate) => {
      const entry = entries.find(predicate);
      assert.ok(entry, `${what} absent du journal :\n${summaryOf(entries)}`);
      // Montrée dans le tableau (première page) : son action et son objet.
      if (firstPage.includes(entry)) {
        let row = table.locator('tbody tr').filter({ hasText: entry.actionLabel });
        if (entry.objectLabel) row = row.filter({ hasText: entry.objectLabel });
        await row.first().waitFor();
      }
      return entry;
    };
    await expectEntry("l'identité de l'agence modifiée", (e) => e.objectType === 'agency' && e.actionLabel === 'Identité modifiée' && e.objectLabel === AGENCY);
    await expectEntry('le compte de la collègue créé', (e) => e.objectType === 'account' && e.actionLabel === 'Création' && e.objectLabel === COLLEAGUE.name);
    for (const technician of TECHNICIANS) {
      await expectEntry(`le technicien ${technician.name} ajouté`, (e) => e.objectType === 'technician' && e.objectLabel === technician.name);
    }
    await expectEntry('le client créé', (e) => e.objectType === 'client' && e.actionLabel === 'Création' && e.objectLabel === CLIENT.name);
    await expectEntry('le contact créé', (e) => e.objectType === 'contact' && e.actionLabel === 'Création' && e.objectLabel === CONTACT.name);
    await expectEntry("l'immeuble créé", (e) => e.objectType === 'building' && e.actionLabel === 'Création' && e.objectLabel === BUILDING.name);
    await expectEntry("l'ascenseur créé", (e) => e.objectType === 'equipment' && e.actionLabel === 'Création' && e.objectLabel === LIFT.number);
    await expectEntry('la visite planifiée', (e) => e.objectType === 'visit' && e.actionLabel === 'Planification');
    await expectEntry('le devis créé', (e) => e.objectType === 'quote' && e.actionLabel === 'Création' && e.objectLabel === made.quoteNumber);
    await expectEntry('le devis accepté', (e) => e.objectType === 'quote' && e.actionLabel === 'Acceptation' && e.objectLabel === made.quoteNumber);
    await expectEntry('la facture émise', (e) => e.objectType === 'invoice' && e.actionLabel === 'Émission' && e.objectLabel === made.invoiceNumber);
    await expectEntry('le devis envoyé par e-mail', (e) => e.objectType === 'quote' && /^Envoi .*e-?mail/i.test(e.actionLabel) && e.objectLabel === made.quoteNumber);
    await expectEntry('la facture envoyée par e-mail', (e) => e.objectType === 'invoice' && /^Envoi .*e-?mail/i.test(e.actionLabel) && e.objectLabel === made.invoiceNumber);
    await shot('premier-jour-14-journal');

    // La seconde agence : sa création est à son propre journal (choisie dans le sélecteur).
    const switcher = page.getByRole('banner').getByLabel('Agence', { exact: true });
    let switched = apiResponse('/app/api/session/agency', 'PUT');
    let reread = page.waitForResponse((r) => new URL(r.url()).pathname === '/app/api/journal' && r.request().method() === 'GET');
    await switcher.selectOption(made.secondAgencyId);
    assert.equal((await switched).status(), 200);
    const other = await (await reread).json();
    assert.ok(
      other.entries.some((e) => e.objectType === 'agency' && e.actionLabel === 'Création' && e.objectLabel === SECOND_AGENCY),
      `la création de « ${SECOND_AGENCY} » absente de son journal :\n${summaryOf(other.entries)}`,
    );
    await page
      .getByRole('table', { name: "Journal de l'agence", exact: true })
      .locator('tbody tr')
      .filter({ hasText: 'Création' })
      .filter({ hasText: SECOND_AGENCY })
      .first()
      .waitFor();
    await shot('premier-jour-14-journal-seconde-agence');
    switched = apiResponse('/app/api/session/agency', 'PUT');
    reread = page.waitForResponse((r) => new URL(r.url()).pathname === '/app/api/journal' && r.request().method() === 'GET');
    await switcher.selectOption({ label: AGENCY });
    assert.equal((await switched).status(), 200);
    assert.equal((await reread).status(), 200);
    assert.deepEqual(pageErrors, []);
  });

  // -- 15. Libellés du journal ---------------------------------------------------------------------

  step('15. le journal parle français : ni code d’action ni nom de champ de l’API', async () => {
    assert.ok(journal.length > 0, 'le journal lu à l’étape 14');
    // Une raison par entrée : le libellé attendu s'il est connu, sinon ce qui trahit un code brut.
    const problems = [];
    for (const e of journal) {
      const label = e.actionLabel;
      const where = `${e.objectType} « ${e.objectLabel ?? ''} » : « ${label} »`;
      if (e.objectType === 'technician' && /creation|création/i.test(label)) {
        // Les créations s'appellent « Création », quel que soit l'objet.
        if (label !== 'Création') problems.push(`${where} au lieu de « Création »`);
      } else if (['quote', 'invoice'].includes(e.objectType) && /^Envoi .*mail/i.test(label)) {
        if (label !== 'Envoi par e-mail') problems.push(`${where} au lieu de « Envoi par e-mail »`);
      } else if (/\bemail\b/i.test(label)) {
        // « e-mail », avec son trait d'union, comme partout à l'écran.
        problems.push(`${where} : « email » sans trait d'union`);
      } else if (/\b(creation|reglages?|acces|emission|parametres)\b/i.test(label)) {
        problems.push(`${where} : accents manquants (un code d'action rendu tel quel)`);
      }
    }
    // Le détail montré (lignes « clé : valeur ») : des clés en français, pas les noms des champs
    // de l'API (« dailyCapacity », « passwordChanged », « attachment »…).
    const table = page.getByRole('table', { name: "Journal de l'agence", exact: true });
    await table.locator('tbody tr').filter({ hasText: 'Identité modifiée' }).first().waitFor();
    const ENGLISH = new Set(['attachment', 'mail', 'lines', 'event', 'host', 'port', 'security', 'deadline', 'agency', 'agencies', 'admin']);
    const shown = await table.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({
        action: tr.querySelectorAll('td')[2]?.textContent?.trim() ?? '',
        object: tr.querySelectorAll('td')[3]?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
        lines: [...(tr.querySelectorAll('td')[4]?.querySelectorAll('div') ?? [])].map((d) => d.textContent?.trim() ?? ''),
      })),
    );
    for (const row of shown) {
      const keys = row.lines.map((line) => line.split(' : ')[0]).filter((key) => /^[a-z]+([A-Z][a-z]*)+$/.test(key) || ENGLISH.has(key));
      if (keys.length > 0) problems.push(`détail de « ${row.action} » (${row.object}) : ${keys.map((k) => `« ${k} »`).join(', ')}`);
    }
    assert.deepEqual(problems, [], `libellés du journal à revoir :\n${problems.join('\n')}\n\nJournal :\n${summaryOf(journal)}`);
  });
});
