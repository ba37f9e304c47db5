// Test de bout en bout des écrans de la facturation électronique (Factur-X), contre un serveur
// Liftdesk réel lancé sur la démonstration (voir login.test.mjs pour les variables), en
// administrateur :
// (a) « Nouveau client » : catégorie « Organisme public » (le code service Chorus Pro n'apparaît
//     qu'alors, l'aide du SIRET le demande), SIREN, SIRET, code service et n° de TVA ; le champ
//     « Adresse de facturation électronique » vide montre le défaut SIREN_SIRET_CODE ; la fiche
//     créée dit que ses factures passent par Chorus Pro (la phrase du serveur) et montre l'adresse
//     effective SIREN_SIRET_CODE (par défaut) ; « compta@x.fr » comme adresse est refusée par le
//     serveur (422) : sa phrase s'affiche, le champ signalé, rien n'est enregistré ;
// (b) « Nouvelle facture » pour ce client, une ligne à 0 % : le choix « Motif d'exonération »
//     n'apparaît qu'à 0 %, il est effacé quand le taux quitte 0 % ; le brouillon part sans motif
//     (`vatExemption: null`), n'a pas de lien Factur-X (le XML d'un brouillon : 409) ; « Émettre »
//     est refusé par le serveur (422) avec sa phrase qui nomme la ligne 1, aucun numéro n'est
//     pris ; « Autoliquidation » choisie en modifiant le brouillon, la pièce s'émet et dit son
//     circuit (Chorus Pro), le n° de TVA et l'adresse électronique de l'acheteur ;
// (c) sur la facture émise, « Factur-X (XML) » télécharge un fichier qui contient
//     `<rsm:CrossIndustryInvoice`, le numéro de la facture, le motif VATEX de l'autoliquidation et
//     l'adresse électronique Chorus Pro du client ; la page dit que son PDF est un PDF Factur-X ;
// (d) « Agence › Identité », dans une agence créée pour le test (les identités des agences de la
//     démo sont comparées entières par agency.test.mjs et agency-address.test.mjs) : le n° de TVA
//     est exigé pour émettre (bandeau), le champ « Adresse de facturation électronique » montre le
//     SIREN en exemple, une adresse qui ne commence pas par le SIREN est refusée par le serveur sous
//     le champ, une bonne est enregistrée et relue après rechargement.
// Captures facturx-… dans $LIFTDESK_ARTIFACTS/ui/ (et le XML téléchargé dans …/ui/facturx/).
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/einvoicing.test.mjs'
//
// Le test crée son client, sa facture et son agence (archivée à la fin, au besoin par l'API).

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import { artifactsDir, describeOnServer, expectText, leaveTestAgency, plain, STEP_TIMEOUT, TIMEOUT } from './harness.mjs';

const EUROS = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
/** Un montant tel que l'écran l'affiche, espaces normalisés (comme `plain`). */
const euros = (value) => plain(EUROS.format(value));
const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** L'organisme public du test : SIREN, SIRET (clés de Luhn justes), n° de TVA, code service. */
const PUBLIC_BODY = {
  siren: '552100554',
  siret: '55210055400013',
  vatNumber: 'FR96552100554',
  serviceCode: 'SERV-E2E',
};
/** L'adresse par défaut d'un organisme public, comme l'annuaire l'écrit : SIREN_SIRET_CODE. */
const PUBLIC_ADDRESS = `${PUBLIC_BODY.siren}_${PUBLIC_BODY.siret}_${PUBLIC_BODY.serviceCode}`;
/** L'agence du test : son SIRET (SIREN 404833048) et son adresse de facturation électronique. */
const TEST_AGENCY = { siret: '40483304800022', siren: '404833048', address: '404833048_FACTURES' };

const T = {
  category: 'Catégorie de facturation',
  publicBody: 'Organisme public',
  vatNumber: 'N° de TVA intracommunautaire',
  electronicAddress: 'Adresse de facturation électronique',
  serviceCode: 'Code service (Chorus Pro)',
  addressHint: "Par défaut : le SIREN du client, comme l'annuaire de la facturation électronique",
  siretHint: 'le SIRET est nécessaire (Chorus Pro)',
  exemption: (line) => `Motif d'exonération de la ligne ${line}`,
  rate: (line) => `Taux de TVA de la ligne ${line}`,
  autoliquidation: 'Autoliquidation (article 283-2 nonies du CGI)',
  facturx: 'Factur-X (XML)',
  facturxNote: 'PDF Factur-X : la facture structurée est jointe au PDF.',
  agencyHint: "commence par le SIREN de l'agence ; vide : le SIREN",
};

describeOnServer(
  'facturation électronique : client, lignes à 0 %, Factur-X, identité',
  {
    timeout: 10 * STEP_TIMEOUT,
    shots: 'facturx',
    viewport: { width: 1440, height: 900 },
    context: { acceptDownloads: true },
  },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, appApi, apiResponse, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
    const clientName = `Mairie de Test Factur-X ${stamp}`;
    const agencyName = `Agence Factur-X ${stamp}`;
    let clientId;
    let invoiceId;
    let invoiceNumber;
    /** L'agence où l'administrateur agit au départ (remise à la fin). */
    let homeAgency;
    /** L'agence créée pour l'étape (d). */
    let testAgencyId = null;

    const fact = (field) => page.locator(`[data-field="${field}"]`);

    /** Tape `text` dans le sélecteur `label` et choisit la réponse dont le titre commence par `title`. */
    async function pick(label, text, title) {
      const field = page.getByLabel(label, { exact: true });
      await field.fill('');
      await field.pressSequentially(text, { delay: 10 });
      await page
        .getByRole('list', { name: `${label} : choix` })
        .getByRole('button', { name: new RegExp(`^${literal(title)}(\\s|$)`) })
        .first()
        .click();
    }

    /** Attend que le champ reçoive le focus. */
    async function focused(locator) {
      const handle = await locator.elementHandle();
      await page.waitForFunction((el) => el === document.activeElement, handle, { timeout: TIMEOUT });
    }

    before(() => ({ page, creds } = ui));

    // Filet : l'agence du test archivée, la session remise dans l'agence du départ.
    after(() => leaveTestAgency(page, { agencyId: testAgencyId, home: homeAgency?.id ?? null }));

    // -- (a) La fiche client ----------------------------------------------------------------------

    step('(a) « Nouveau client » organisme public : code service, SIRET demandé, adresse par défaut SIREN_SIRET_CODE', async () => {
      const session = await signIn(creds.admin);
      homeAgency = session.agency;
      assert.ok(homeAgency, "l'administrateur agit dans une agence");

      await page.goto(new URL('/clients', baseUrl).href);
      await page.getByRole('heading', { level: 1, name: 'Clients', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Nouveau client', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Nouveau client' });
      await dialog.waitFor();
      await dialog.getByLabel(T.vatNumber, { exact: true }).waitFor();
      const address = dialog.getByLabel(T.electronicAddress, { exact: true });
      await address.waitFor();
      // Pas encore un organisme public : pas de code service.
      assert.equal(await dialog.getByLabel(T.serviceCode, { exact: true }).count(), 0);
      await dialog.getByText(T.addressHint, { exact: false }).waitFor();

      await dialog.getByLabel('Nom', { exact: true }).fill(clientName);
      await dialog.getByLabel(T.category, { exact: true }).selectOption({ label: T.publicBody });
      await dialog.getByLabel('SIREN', { exact: true }).fill('552 100 554');
      assert.equal(await address.getAttribute('placeholder'), PUBLIC_BODY.siren);
      await dialog.getByLabel('SIRET', { exact: true }).fill(PUBLIC_BODY.siret);
      await dialog.getByText(T.siretHint, { exact: false }).waitFor();
      assert.equal(await address.getAttribute('placeholder'), `${PUBLIC_BODY.siren}_${PUBLIC_BODY.siret}`);
      await dialog.getByLabel(T.serviceCode, { exact: true }).fill(PUBLIC_BODY.serviceCode);
      assert.equal(await address.getAttribute('placeholder'), PUBLIC_ADDRESS);
      await dialog.getByLabel(T.vatNumber, { exact: true }).fill('fr 96 552 100 554');
      await shot('facturx-01-nouveau-client');

      const created = apiResponse('/app/api/clients', 'POST');
      await dialog.getByRole('button', { name: 'Créer le client', exact: true }).click();
      const response = await created;
      const detail = await response.json();
      assert.equal(response.status(), 201, JSON.stringify(detail));
      assert.deepEqual(response.request().postDataJSON(), {
        name: clientName,
        status: 'Client',
        categories: [],
        siren: PUBLIC_BODY.siren,
        siret: PUBLIC_BODY.siret,
        billingCategory: 'organisme_public',
        vatNumber: PUBLIC_BODY.vatNumber,
        serviceCode: PUBLIC_BODY.serviceCode,
      });
      clientId = detail.client.id;
      assert.equal(detail.client.einvoicing, 'chorus_pro');
      assert.equal(detail.client.electronicAddress, null);
      assert.equal(detail.client.effectiveElectronicAddress, PUBLIC_ADDRESS);
      assert.match(detail.client.einvoicingExplanation, /Chorus Pro/);

      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('heading', { level: 1, name: clientName }).waitFor();
      await expectText(fact('einvoicing'), detail.client.einvoicingExplanation);
      assert.equal(await fact('einvoicing').getAttribute('data-code'), 'chorus_pro');
      await expectText(fact('effectiveElectronicAddress'), PUBLIC_ADDRESS);
      assert.match(plain(await fact('electronicAddress').textContent()), /\(par défaut/);
      await expectText(fact('serviceCode'), PUBLIC_BODY.serviceCode);
      await expectText(fact('vatNumber'), PUBLIC_BODY.vatNumber);
      await shot('facturx-02-fiche-chorus-pro');
    });

    step('(a) une adresse « compta@x.fr » : le refus du serveur, le champ signalé, rien d’enregistré', async () => {
      await page.getByRole('button', { name: 'Modifier', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Modifier le client « ${clientName} »` });
      await dialog.waitFor();
      const address = dialog.getByLabel(T.electronicAddress, { exact: true });
      assert.equal(await address.inputValue(), '');
      assert.equal(await address.getAttribute('placeholder'), PUBLIC_ADDRESS);
      assert.equal(await dialog.getByLabel(T.serviceCode, { exact: true }).inputValue(), PUBLIC_BODY.serviceCode);
      await address.fill('compta@x.fr');

      const saved = apiResponse(`/app/api/clients/${encodeURIComponent(clientId)}`, 'PATCH');
      await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      const response = await saved;
      assert.equal(response.status(), 422, 'le serveur refuse (rien n’est vérifié avant l’envoi)');
      assert.deepEqual(response.request().postDataJSON(), { electronicAddress: 'compta@x.fr' });
      const sentence = (await response.json()).error;
      assert.match(sentence, /adresse de facturation électronique « compta@x\.fr »/);
      await expectText(dialog.getByRole('alert'), sentence);
      assert.equal(await address.getAttribute('aria-invalid'), 'true');
      await focused(address);
      assert.equal(await address.inputValue(), 'compta@x.fr', 'la saisie est gardée');
      await shot('facturx-03-adresse-refusee');

      await dialog.getByRole('button', { name: 'Annuler', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      const read = await appApi('GET', `/clients/${encodeURIComponent(clientId)}`);
      assert.equal(read.body.client.electronicAddress, null);
      assert.equal(read.body.client.effectiveElectronicAddress, PUBLIC_ADDRESS);
    });

    // -- (b) Une ligne à 0 % -----------------------------------------------------------------------

    step('(b) « Nouvelle facture », ligne à 0 % : le motif demandé à 0 % seulement, effacé quand le taux change', async () => {
      await page.goto(new URL('/factures/nouvelle', baseUrl).href);
      await page.getByRole('heading', { level: 1, name: 'Nouvelle facture' }).waitFor();
      await pick('Client facturé', stamp, clientName);
      await page.getByText(`Choisi : ${clientName}`, { exact: true }).waitFor();

      await page.getByLabel('Libellé de la ligne 1').fill('Travaux sous-traités');
      await page.getByLabel('Quantité de la ligne 1').fill('1');
      await page.getByLabel('Prix unitaire HT de la ligne 1').fill('300');
      const exemption = page.getByLabel(T.exemption(1), { exact: true });
      assert.equal(await exemption.count(), 0, 'pas de motif à 20 %');

      await page.getByLabel(T.rate(1)).selectOption({ label: '0 %' });
      await exemption.waitFor();
      assert.equal(await exemption.inputValue(), '');
      assert.deepEqual((await exemption.locator('option').allTextContents()).map(plain), [
        '— À choisir —',
        T.autoliquidation,
        'TVA non applicable (article 293 B du CGI)',
      ]);
      // Un motif choisi, puis le taux change : le motif s'en va ; revenu à 0 %, il est à choisir.
      await exemption.selectOption({ label: T.autoliquidation });
      await page.getByLabel(T.rate(1)).selectOption({ label: '20 %' });
      await exemption.waitFor({ state: 'detached' });
      await page.getByLabel(T.rate(1)).selectOption({ label: '0 %' });
      await exemption.waitFor();
      assert.equal(await exemption.inputValue(), '', 'le motif a été effacé avec le 0 %');
      await expectText(page.getByTestId('total-ht'), euros(300));
      await expectText(page.getByTestId('total-ttc'), euros(300));
      await shot('facturx-04-ligne-0');

      const created = apiResponse('/app/api/invoices', 'POST');
      await page.getByRole('button', { name: 'Créer le brouillon' }).click();
      const answer = await created;
      assert.equal(answer.status(), 201);
      assert.deepEqual(answer.request().postDataJSON(), {
        clientId,
        lines: [{ label: 'Travaux sous-traités', quantity: 1, unitPrice: 300, vatRate: 0, vatExemption: null }],
        equipmentIds: [],
      });
      invoiceId = (await answer.json()).id;
      await page.waitForURL(`**/factures/${invoiceId}`);
      await expectText(page.getByTestId('statut'), 'Brouillon');
      await page.getByTestId('exemption-missing').waitFor();
      // Le circuit de la pièce est figé à l'émission : rien sur un brouillon.
      assert.equal(await page.getByTestId('einvoicing').count(), 0);
      // Un brouillon n'a pas de facture structurée : pas de lien, et le serveur répond 409.
      assert.equal(await page.getByRole('link', { name: T.facturx }).count(), 0);
      assert.equal(await page.getByTestId('facturx-note').count(), 0);
      const draftXml = await page.evaluate(async (id) => (await fetch(`/app/api/invoices/${id}/facturx.xml`)).status, invoiceId);
      assert.equal(draftXml, 409);
    });

    step('(b) « Émettre » sans motif : la phrase du serveur nomme la ligne 1, aucun numéro n’est pris', async () => {
      await page.getByRole('button', { name: 'Émettre', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Émettre la facture ?' });
      const issued = apiResponse(`/app/api/invoices/${invoiceId}/issue`, 'POST');
      await dialog.getByRole('button', { name: 'Émettre la facture' }).click();
      const response = await issued;
      assert.equal(response.status(), 422);
      const sentence = (await response.json()).error;
      assert.match(sentence, /la ligne 1 est à 0 % de TVA sans motif d'exonération/);
      await expectText(dialog.getByRole('alert'), sentence);
      await shot('facturx-05-emission-refusee');
      const read = await appApi('GET', `/invoices/${invoiceId}`);
      assert.equal(read.body.invoice.number, null);
      assert.equal(read.body.invoice.status, 'brouillon');
      await dialog.getByRole('button', { name: 'Annuler' }).click();
      await dialog.waitFor({ state: 'hidden' });
    });

    step('(b) « Autoliquidation » choisie en modifiant le brouillon : la facture s’émet', async () => {
      await page.getByRole('button', { name: 'Modifier le brouillon' }).click();
      const exemption = page.getByLabel(T.exemption(1), { exact: true });
      assert.equal(await exemption.inputValue(), '');
      await exemption.selectOption({ label: T.autoliquidation });
      const saved = apiResponse(`/app/api/invoices/${invoiceId}`, 'PATCH');
      await page.getByRole('button', { name: 'Enregistrer le brouillon' }).click();
      const response = await saved;
      assert.ok(response.ok(), `PATCH : ${response.status()}`);
      assert.deepEqual(response.request().postDataJSON().lines, [
        { label: 'Travaux sous-traités', quantity: 1, unitPrice: 300, vatRate: 0, vatExemption: 'autoliquidation' },
      ]);
      await page.getByText('Brouillon enregistré.').waitFor();
      await expectText(page.getByTestId('exemption'), T.autoliquidation);
      assert.equal(await page.getByTestId('exemption-missing').count(), 0);

      await page.getByRole('button', { name: 'Émettre', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Émettre la facture ?' });
      const issued = apiResponse(`/app/api/invoices/${invoiceId}/issue`, 'POST');
      await dialog.getByRole('button', { name: 'Émettre la facture' }).click();
      const answer = await issued;
      assert.ok(answer.ok(), `émission : ${answer.status()} ${await answer.text()}`);
      await expectText(page.getByTestId('statut'), 'Émise');
      invoiceNumber = plain(await page.getByTestId('numero').textContent());
      assert.match(invoiceNumber, /^FA-[A-Z0-9]+-\d{4}-\d{6}$/);
      // Le motif reste sous la ligne de la pièce émise.
      await expectText(page.getByTestId('exemption'), T.autoliquidation);
      // La pièce émise dit son circuit (Chorus Pro, la phrase du serveur) et l'adresse qu'elle porte.
      const issuedView = (await appApi('GET', `/invoices/${invoiceId}`)).body.invoice;
      assert.equal(issuedView.einvoicing, 'chorus_pro');
      assert.match(issuedView.einvoicingExplanation, /Chorus Pro/);
      await expectText(page.getByTestId('einvoicing'), issuedView.einvoicingExplanation);
      await expectText(page.getByTestId('buyer-electronic-address'), PUBLIC_ADDRESS);
      await expectText(page.getByTestId('buyer-vat'), PUBLIC_BODY.vatNumber);
      await shot('facturx-06-emise');
    });

    // -- (c) Le fichier Factur-X ---------------------------------------------------------------------

    step('(c) « Factur-X (XML) » télécharge la facture structurée : CII, numéro, motif, adresse Chorus Pro', async () => {
      await page.getByRole('heading', { level: 1, name: `Facture ${invoiceNumber}` }).waitFor();
      await expectText(page.getByTestId('facturx-note'), `${T.facturxNote} Le lien « Factur-X (XML) » la donne seule, pour la plateforme de facturation électronique de l'agence.`);
      const link = page.getByRole('link', { name: T.facturx, exact: true });
      assert.equal(await link.getAttribute('href'), `/app/api/invoices/${encodeURIComponent(invoiceId)}/facturx.xml`);
      const downloading = page.waitForEvent('download');
      await link.click();
      const download = await downloading;
      assert.equal(download.suggestedFilename(), `${invoiceNumber}.xml`);
      assert.equal(await download.failure(), null);
      const file = path.join(artifactsDir, 'facturx', `${invoiceNumber}.xml`);
      mkdirSync(path.dirname(file), { recursive: true });
      await download.saveAs(file);
      const xml = readFileSync(file, 'utf8');
      assert.ok(xml.includes('<rsm:CrossIndustryInvoice'), `pas de CrossIndustryInvoice :\n${xml.slice(0, 500)}`);
      assert.ok(xml.includes(invoiceNumber), `le numéro ${invoiceNumber} absent du XML`);
      assert.ok(xml.includes('VATEX-FR-AE'), 'le motif de l’autoliquidation (VATEX-FR-AE) absent du XML');
      assert.ok(xml.includes(PUBLIC_ADDRESS), `l'adresse ${PUBLIC_ADDRESS} du client absente du XML`);
      await shot('facturx-07-lien-xml');
    });

    // -- (d) L'identité de l'agence -------------------------------------------------------------------

    step('(d) Agence › Identité : l’adresse de facturation électronique, refusée puis enregistrée et relue', async () => {
      const created = await appApi('POST', '/agencies', { name: agencyName });
      assert.ok(created.status === 200 || created.status === 201, JSON.stringify(created.body));
      testAgencyId = created.body.id ?? created.body.agency?.id;
      assert.ok(testAgencyId, JSON.stringify(created.body));
      const switched = await appApi('PUT', '/session/agency', { agencyId: testAgencyId });
      assert.equal(switched.status, 200, JSON.stringify(switched.body));

      const read = apiResponse('/app/api/agency/identity', 'GET');
      await page.goto(new URL('/agence', baseUrl).href);
      const answer = await (await read).json();
      assert.equal(answer.agencyName, agencyName);
      await page.getByRole('heading', { level: 2, name: 'Identité', exact: true }).waitFor();
      // Une identité vide : le n° de TVA fait partie de ce qui manque pour émettre (toute pièce).
      assert.ok(answer.missingToIssue.some((m) => m.field === 'vatNumber'), JSON.stringify(answer.missingToIssue));
      assert.ok(!answer.missingMentions.some((m) => m.field === 'vatNumber'), JSON.stringify(answer.missingMentions));
      const banner = plain(await page.getByTestId('missing-to-issue').textContent());
      assert.ok(banner.includes(`« ${T.vatNumber} »`), banner);
      assert.ok(!plain(await page.locator('main').textContent()).includes('seules les pièces sans TVA'));

      const field = page.getByLabel(T.electronicAddress, { exact: true });
      await page.getByText(T.agencyHint, { exact: false }).waitFor();
      assert.equal(await field.inputValue(), '');
      await page.getByLabel('SIRET', { exact: true }).fill(TEST_AGENCY.siret);
      assert.equal(await field.getAttribute('placeholder'), TEST_AGENCY.siren, 'le SIREN en exemple');

      // Une adresse qui ne commence pas par le SIREN : refusée par le serveur, sous le champ.
      await field.fill('FACTURES');
      const refusedPut = apiResponse('/app/api/agency/identity', 'PUT');
      await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      const refused = await refusedPut;
      assert.equal(refused.status(), 422);
      const sentence = (await refused.json()).error;
      assert.match(sentence, /^Champ « electronicAddress » : /);
      const reason = sentence.replace(/^Champ « electronicAddress » : /, '');
      assert.match(reason, new RegExp(`commencer par le SIREN ${TEST_AGENCY.siren}`));
      await expectText(page.locator('#identity-electronicAddress-error'), reason.charAt(0).toUpperCase() + reason.slice(1));
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      await focused(field);
      await shot('facturx-08-identite-refus');

      await field.fill(TEST_AGENCY.address);
      const savedPut = apiResponse('/app/api/agency/identity', 'PUT');
      await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      const saved = await savedPut;
      const body = await saved.json();
      assert.equal(saved.status(), 200, JSON.stringify(body));
      assert.equal(saved.request().postDataJSON().electronicAddress, TEST_AGENCY.address);
      assert.equal(body.identity.electronicAddress, TEST_AGENCY.address);
      await page.getByRole('status').filter({ hasText: 'Identité enregistrée.' }).waitFor();
      // Le n° de TVA manque toujours : le bandeau le dit encore.
      assert.ok(plain(await page.getByTestId('missing-to-issue').textContent()).includes(`« ${T.vatNumber} »`));

      await page.reload();
      await field.waitFor();
      await page.waitForFunction(
        (value) => document.getElementById('identity-electronicAddress')?.value === value,
        TEST_AGENCY.address,
        { timeout: TIMEOUT },
      );
      assert.equal(await field.inputValue(), TEST_AGENCY.address);
      await shot('facturx-09-identite-enregistree');
      assert.deepEqual(pageErrors, []);
    });
  },
);
