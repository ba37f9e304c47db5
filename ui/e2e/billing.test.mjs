// Test de bout en bout des devis et des factures, contre un serveur Liftdesk réel
// lancé sur la démonstration (voir login.test.mjs pour les variables) : en
// administrateur, un devis de deux lignes sur un équipement (totaux vérifiés),
// envoyé, accepté (l'événement devis.accepte est mis en file pour un abonnement
// webhook créé par l'API REST), facturé ; le brouillon modifié, émis (numéro
// attribué et affiché), réglé, puis crédité de moitié. Les PDF du devis, de la
// facture et de l'avoir sont ouverts (« Voir le PDF ») et téléchargés
// (« Télécharger »), et leur texte lu par pdftotext (poppler-utils).
// Captures de chaque écran, PDF gardés dans $LIFTDESK_ARTIFACTS/ui/pdf/.
//
// Le test crée ses propres objets ; d'autres fichiers peuvent changer la démo :
// seules des lignes en plus sont tolérées.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import { artifactsDir, describeOnServer, expectText, TIMEOUT } from './harness.mjs';

const STEP_TIMEOUT = 90_000;
const EUROS = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
const euros = (value) => EUROS.format(value);

describeOnServer(
  'devis et factures',
  { timeout: 12 * STEP_TIMEOUT, stepTimeout: STEP_TIMEOUT, shots: 'facturation', viewport: { width: 1440, height: 900 } },
  (ui) => {
    const { pageErrors, step, shot, signIn, http } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    let agencyId;
    let webhookId;
    let quoteId;
    let quoteNumber;
    let invoiceId;
    let invoiceNumber;

    /** L'API REST v2 avec le jeton de l'administrateur, dans l'agence de la session. */
    const rest = (method, apiPath, body) =>
      http(method, `/api/v2${apiPath}`, { token: creds.admin.apiToken, agency: agencyId, body });

    /**
     * Le PDF du document affiché : « Voir le PDF » l'ouvre dans un onglet
     * (servi en application/pdf), « Télécharger » l'enregistre sous le nom
     * proposé ; son texte est lu par `pdftotext -layout`, chaque ligne aux
     * espaces normalisés (les espaces insécables du français comptent comme
     * des espaces).
     */
    async function pdfOfPage(expectedName) {
      // The tab may show the PDF or hand it to the downloads (headless): the
      // answer it got is what is checked.
      const [viewed, popup] = await Promise.all([
        page.context().waitForEvent('response', {
          predicate: (r) => /^\/app\/api\/(invoices|quotes)\/[^/]+\/pdf$/.test(new URL(r.url()).pathname),
          timeout: TIMEOUT,
        }),
        page.waitForEvent('popup'),
        page.getByRole('link', { name: 'Voir le PDF' }).click(),
      ]);
      assert.equal(viewed.status(), 200);
      assert.equal(viewed.headers()['content-type'], 'application/pdf');
      await popup.close();

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Télécharger' }).click(),
      ]);
      assert.equal(download.suggestedFilename(), expectedName);
      const file = path.join(artifactsDir, 'pdf', expectedName);
      mkdirSync(path.dirname(file), { recursive: true });
      await download.saveAs(file);
      assert.equal(readFileSync(file).subarray(0, 5).toString('latin1'), '%PDF-');
      const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
      return text
        .replace(/[\u202f\u00a0]/g, ' ')
        .split('\n')
        .map((line) => line.split(/\s+/).filter(Boolean).join(' '));
    }

    /** Chaque morceau attendu se trouve sur une ligne du texte du PDF. */
    function assertPdfHas(lines, expected) {
      for (const piece of expected) {
        assert.ok(
          lines.some((line) => line.includes(piece)),
          `« ${piece} » absent du PDF :\n${lines.join('\n')}`,
        );
      }
    }

    before(() => {
      ({ page, creds } = ui);
      assert.ok(creds.admin.apiToken, 'LIFTDESK_CREDENTIALS : admin incomplet');
    });

    step("connexion de l'administrateur et abonnement webhook à devis.accepte", async () => {
      const session = await signIn(creds.admin);
      agencyId = session.agency?.id;
      assert.ok(agencyId, 'agence active attendue');
      const created = await rest('POST', '/webhooks', {
        url: 'https://facturation.example.invalid/liftdesk',
        events: ['devis.accepte'],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      webhookId = created.body.id;
    });

    step('liste des devis, puis nouveau devis de deux lignes sur un équipement', async () => {
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Devis', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Devis', exact: true }).waitFor();
      await page.locator('[data-testid="quote-list"]').waitFor();
      await shot('devis-liste');

      await page.getByRole('link', { name: 'Nouveau devis' }).click();
      await page.getByRole('heading', { level: 1, name: 'Nouveau devis' }).waitFor();
      // Client-side check first: nothing chosen, empty line.
      await page.getByRole('button', { name: 'Créer le devis' }).click();
      await page.getByText("Choisissez l'équipement du devis.").first().waitFor();

      const search = page.waitForResponse((r) => new URL(r.url()).pathname === '/app/api/calls/equipment');
      await page.getByLabel('Équipement', { exact: true }).pressSequentially('ASC', { delay: 20 });
      const found = await (await search).json();
      assert.ok(found.results.length > 0, "la démo doit avoir des équipements");
      await page.getByRole('list', { name: 'Équipement : choix' }).getByRole('button').first().click();
      await page.getByText(/^Choisi : /).waitFor();

      await page.getByLabel('Origine').selectOption('panne');
      await page.getByLabel('Objet', { exact: true }).fill('Remplacement du contacteur de manœuvre');
      await page.getByLabel('Libellé de la ligne 1').fill('Remplacement du contacteur');
      await page.getByLabel('Quantité de la ligne 1').fill('2');
      await page.getByLabel('Prix unitaire HT de la ligne 1').fill('120,505');
      await page.getByRole('button', { name: 'Ajouter une ligne' }).click();
      await page.getByLabel('Libellé de la ligne 2').fill("Main-d'œuvre");
      await page.getByLabel('Quantité de la ligne 2').fill('3');
      await page.getByLabel('Prix unitaire HT de la ligne 2').fill('65');
      await page.getByLabel('Taux de TVA de la ligne 2').selectOption('10');
      // Three decimals: refused on the client with the server's sentence.
      await page.getByRole('button', { name: 'Créer le devis' }).click();
      await page
        .getByText('le prix unitaire HT doit être un montant en euros avec au plus deux décimales (reçu : 120,505).', { exact: true })
        .waitFor();
      await page.getByLabel('Prix unitaire HT de la ligne 1').fill('120,50');
      // 2 × 120,50 + 3 × 65 = 436 HT ; TVA 48,20 + 19,50 → 503,70 TTC.
      await expectText(page.locator('[data-testid="total-ht"]'), euros(436));
      await expectText(page.locator('[data-testid="total-ttc"]'), euros(503.7));
      await shot('devis-nouveau');
      const created = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/quotes' && r.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Créer le devis' }).click();
      const answer = await created;
      assert.equal(answer.status(), 201);
      quoteId = (await answer.json()).id;
      await page.waitForURL(`**/devis/${quoteId}`);
      await expectText(page.locator('[data-testid="statut"]'), 'Brouillon');
      await expectText(page.locator('[data-testid="total-ht"]'), euros(436));
      await expectText(page.locator('[data-testid="total-ttc"]'), euros(503.7));
      quoteNumber = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').replace('Devis', '').trim();
      assert.match(quoteNumber, /^DV-\d{4}-\d{5}$/);
      // Draft: no invoicing offered yet.
      assert.equal(await page.getByRole('button', { name: 'Facturer ce devis' }).count(), 0);
    });

    step('envoi puis acceptation : devis.accepte mis en file pour l’abonnement', async () => {
      // « Envoyer au client » ouvre la fenêtre d'envoi par e-mail ; ici, envoyé par un autre moyen
      // (l'envoi par e-mail a son propre test, mail.test.mjs).
      await page.getByRole('button', { name: 'Envoyer au client' }).click();
      const sendDialog = page.getByRole('dialog', { name: /^Envoyer : Devis / });
      await sendDialog.getByRole('button', { name: 'Marquer comme envoyé sans e-mail' }).click();
      await sendDialog.waitFor({ state: 'hidden' });
      await expectText(page.locator('[data-testid="statut"]'), 'Envoyé');
      await page.getByRole('button', { name: "Enregistrer l'acceptation" }).click();
      await page.getByRole('button', { name: "Confirmer l'acceptation" }).click();
      await expectText(page.locator('[data-testid="statut"]'), 'Accepté');
      await page.getByText('Devis accepté : les abonnés aux notifications sont prévenus.').waitFor();
      // Final: neither send nor refuse offered any more.
      assert.equal(await page.getByRole('button', { name: 'Enregistrer le refus' }).count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Relancer le client' }).count(), 0);
      await shot('devis-accepte');

      const deadline = Date.now() + TIMEOUT;
      let ours = [];
      while (Date.now() < deadline) {
        const deliveries = await rest('GET', `/webhooks/${webhookId}/deliveries?limit=50`);
        assert.equal(deliveries.status, 200, JSON.stringify(deliveries.body));
        ours = deliveries.body.results.filter((d) => d.objectId === quoteId);
        if (ours.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      assert.equal(ours.length, 1, 'une livraison devis.accepte pour ce devis');
      assert.equal(ours[0].event, 'devis.accepte');
    });

    step('le PDF du devis : ouvert, téléchargé, son texte lu', async () => {
      const lines = await pdfOfPage(`${quoteNumber}.pdf`);
      assertPdfHas(lines, [
        'Devis',
        `N° ${quoteNumber}`,
        'Objet : Remplacement du contacteur de manœuvre',
        'Désignation',
        'Remplacement du contacteur 2 120,50 € 20 % 241,00 €',
        "Main-d'œuvre 3 65,00 € 10 % 195,00 €",
        'Total HT 436,00 €',
        'TVA 10 % sur 195,00 € 19,50 €',
        'TVA 20 % sur 241,00 € 48,20 €',
        'Total TTC 503,70 €',
      ]);
    });

    step('le devis devient une facture en brouillon, modifiée', async () => {
      await page.getByRole('button', { name: 'Facturer ce devis' }).click();
      const dialog = page.getByRole('dialog', { name: 'Facturer ce devis' });
      await dialog.waitFor();
      await shot('devis-facturer');
      await dialog.getByRole('button', { name: 'Créer la facture' }).click();
      // An equipment without client: the client is named (a client of the agency's invoices).
      const alert = dialog.getByRole('alert');
      const navigated = page
        .waitForURL('**/factures/**', { timeout: TIMEOUT })
        .then(() => 'ok')
        .catch(() => 'délai');
      const refused = alert
        .waitFor({ timeout: TIMEOUT })
        .then(() => 'refus')
        .catch(() => 'délai');
      if ((await Promise.race([navigated, refused])) === 'refus') {
        const invoices = await rest('GET', '/invoices?status=payee&limit=1');
        const client = invoices.body.results[0]?.client;
        assert.ok(client, 'un client facturé dans la démo');
        // The client is chosen in the list (ClientPicker): its identifier finds it too.
        await dialog.getByLabel('Client facturé (facultatif)', { exact: true }).pressSequentially(client, { delay: 10 });
        await dialog.getByRole('list', { name: 'Client facturé (facultatif) : choix' }).getByRole('button').first().click();
        await dialog.getByText(/^Choisi : /).waitFor();
        await dialog.getByRole('button', { name: 'Créer la facture' }).click();
        await page.waitForURL('**/factures/**');
      }
      invoiceId = new URL(page.url()).pathname.split('/').pop();
      await expectText(page.locator('[data-testid="statut"]'), 'Brouillon');
      await expectText(page.locator('[data-testid="numero"]'), 'Attribué à l’émission');
      await expectText(page.locator('[data-testid="total-ttc"]'), euros(503.7));
      await page.getByRole('link', { name: quoteNumber }).waitFor();
      await shot('facture-brouillon');

      await page.getByRole('button', { name: 'Modifier le brouillon' }).click();
      await page.getByLabel('Quantité de la ligne 2').fill('4');
      await page.getByRole('button', { name: 'Ajouter une ligne' }).click();
      await page.getByLabel('Libellé de la ligne 3').fill('Déplacement');
      await page.getByLabel('Quantité de la ligne 3').fill('0');
      await page.getByLabel('Prix unitaire HT de la ligne 3').fill('40');
      await page.getByRole('button', { name: 'Enregistrer le brouillon' }).click();
      await page.getByText('Ligne 3 : la quantité doit être supérieure à zéro (reçu : 0).', { exact: true }).waitFor();
      await page.getByLabel('Quantité de la ligne 3').fill('2');
      // 241 + 260 + 80 = 581 HT ; TVA 20 % sur 321 = 64,20, 10 % sur 260 = 26 → 671,20 TTC.
      await expectText(page.locator('[data-testid="total-ttc"]'), euros(671.2));
      await shot('facture-modification');
      await page.getByRole('button', { name: 'Enregistrer le brouillon' }).click();
      await page.getByText('Brouillon enregistré.').waitFor();
      await expectText(page.locator('[data-testid="total-ht"]'), euros(581));
      await expectText(page.locator('[data-testid="total-ttc"]'), euros(671.2));
    });

    step('émission après confirmation : numéro attribué, brouillon figé', async () => {
      await page.getByRole('button', { name: 'Émettre', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Émettre la facture ?' });
      await dialog.getByText('Le numéro sera attribué et la facture ne pourra plus être modifiée').first().waitFor();
      await shot('facture-confirmation-emission');
      await dialog.getByRole('button', { name: 'Émettre la facture' }).click();
      await expectText(page.locator('[data-testid="statut"]'), 'Émise');
      invoiceNumber = ((await page.locator('[data-testid="numero"]').textContent()) ?? '').trim();
      // Dans la série de l'agence de l'administrateur (« Agence Paris Ouest » : PO).
      assert.match(invoiceNumber, /^FA-PO-\d{4}-\d{6}$/);
      await page.getByRole('heading', { level: 1, name: `Facture ${invoiceNumber}` }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Modifier le brouillon' }).count(), 0);
      // The server refuses the edit too, with its French reason.
      const refused = await page.evaluate(async (id) => {
        const session = await (await fetch('/app/api/session')).json();
        const response = await fetch(`/app/api/invoices/${id}`, {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken },
          body: JSON.stringify({ lines: [{ label: 'x', quantity: 1, unitPrice: 1 }] }),
        });
        return { status: response.status, body: await response.json() };
      }, invoiceId);
      assert.equal(refused.status, 409);
      assert.match(refused.body.error, /^Modification refusée : impossible de modifier cette facture au statut « Émise »/);
      await shot('facture-emise');
    });

    step('le PDF de la facture émise : mentions légales, TVA par taux, totaux', async () => {
      const lines = await pdfOfPage(`${invoiceNumber}.pdf`);
      assertPdfHas(lines, [
        'Facture',
        `N° ${invoiceNumber}`,
        "Date d'émission :",
        "Date d'échéance :",
        'SIRET :',
        'SIREN :',
        'CLIENT',
        'Remplacement du contacteur 2 120,50 € 20 % 241,00 €',
        "Main-d'œuvre 4 65,00 € 10 % 260,00 €",
        'Déplacement 2 40,00 € 20 % 80,00 €',
        'Total HT 581,00 €',
        'TVA 10 % sur 260,00 € 26,00 €',
        'TVA 20 % sur 321,00 € 64,20 €',
        'Total TTC 671,20 €',
        'Conditions de paiement',
        "Pénalités de retard : trois fois le taux d'intérêt légal.",
        'Indemnité forfaitaire pour frais de recouvrement : 40 €',
      ]);
      assert.ok(!lines.some((line) => line.includes('Brouillon')), 'une facture émise n’est plus un brouillon');
    });

    step('règlement enregistré', async () => {
      await page.getByRole('button', { name: 'Enregistrer un règlement' }).click();
      const dialog = page.getByRole('dialog', { name: 'Enregistrer un règlement' });
      await dialog.getByLabel('Date du règlement').waitFor();
      // Nothing credited nor paid yet: the whole total is due (partial payments: payments.test.mjs).
      assert.equal(await dialog.getByLabel('Montant du règlement (€)').inputValue(), '671,20');
      await dialog.getByRole('button', { name: 'Enregistrer le règlement', exact: true }).click();
      await expectText(page.locator('[data-testid="statut"]'), 'Payée');
      await expectText(page.locator('[data-testid="reste"]'), `${euros(671.2)} TTC`);
      const lines = await pdfOfPage(`${invoiceNumber}.pdf`);
      assertPdfHas(lines, ['Acquittée le']);
    });

    step('avoir de la moitié de la facture', async () => {
      await page.getByRole('button', { name: 'Établir un avoir' }).click();
      const dialog = page.getByRole('dialog', { name: 'Établir un avoir' });
      await dialog.waitFor();
      for (const [index, quantity] of [
        [0, '1'],
        [1, '2'],
        [2, '1'],
      ]) {
        await dialog.locator(`#credit-check-${index}`).check();
        await dialog.getByLabel(`Quantité à créditer, ligne ${index + 1}`).fill(quantity);
      }
      // 120,50 + 130 + 40 = 290,50 HT ; TVA 32,10 + 13 → 335,60 TTC, la moitié de 671,20.
      await expectText(dialog.locator('[data-testid="credit-preview"]'), `Avoir : ${euros(335.6)} TTC`);
      await shot('facture-avoir');
      await dialog.getByRole('button', { name: "Établir l'avoir" }).click();
      const creditHeading = page.getByRole('heading', { level: 1, name: /^Avoir AV-PO-\d{4}-\d{6}$/ });
      await creditHeading.waitFor();
      await expectText(page.locator('[data-testid="total-ttc"]'), euros(335.6));
      const creditNumber = ((await creditHeading.textContent()) ?? '').replace('Avoir', '').trim();
      const lines = await pdfOfPage(`${creditNumber}.pdf`);
      assertPdfHas(lines, [
        'Avoir',
        `N° ${creditNumber}`,
        `Avoir sur la facture n° ${invoiceNumber}`,
        'Total TTC 335,60 €',
        `Montant à déduire de la facture n° ${invoiceNumber}, ou à rembourser si elle est déjà réglée.`,
      ]);
      assert.ok(!lines.some((line) => line.includes('Pénalités de retard')));
      await page.getByRole('link', { name: invoiceNumber }).click();
      await page.getByRole('heading', { level: 1, name: `Facture ${invoiceNumber}` }).waitFor();
      await expectText(page.locator('[data-testid="reste"]'), `${euros(335.6)} TTC`);
      // Paid in full, then credited by half: the half is an overpayment.
      await expectText(page.locator('[data-testid="solde-reste"]'), euros(335.6));
      await page.getByRole('region', { name: 'Règlements', exact: true }).getByText('Trop-perçu', { exact: true }).waitFor();
      await shot('facture-creditee');
    });

    step('liste des factures filtrée, filtres gardés dans l’adresse', async () => {
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Factures', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Factures et avoirs' }).waitFor();
      await page.getByLabel('Statut').selectOption('payee');
      // The filtered answer, not the first load's, which may still be on its way.
      const listed = page.waitForResponse((r) => {
        const url = new URL(r.url());
        return url.pathname === '/app/api/invoices' && url.searchParams.get('status') === 'payee';
      });
      await page.getByRole('button', { name: 'Filtrer' }).click();
      const body = await (await listed).json();
      assert.ok(body.total >= 1);
      assert.ok(body.results.every((r) => r.status === 'payee'));
      assert.equal(new URL(page.url()).search, '?status=payee');
      await page.locator('[data-testid="invoice-count"]').waitFor();
      await shot('factures-liste');
      // Reloaded with the filter kept.
      const again = page.waitForResponse((r) => new URL(r.url()).pathname === '/app/api/invoices');
      await page.reload();
      assert.equal(new URL((await again).url()).searchParams.get('status'), 'payee');
      assert.equal(await page.getByLabel('Statut').inputValue(), 'payee');
      assert.deepEqual(pageErrors, []);
    });

    after(async () => {
      if (webhookId) await rest('POST', `/webhooks/${webhookId}/revoke`).catch(() => {});
    });
  },
);
