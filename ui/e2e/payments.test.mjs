// Test de bout en bout des règlements d'une facture, contre un serveur Liftdesk réel lancé
// sur la démonstration (voir login.test.mjs pour les variables) : en administrateur, une
// facture de 539,55 € TTC (créée par l'API de l'interface avec la session, émise à l'écran),
// un avoir partiel de 37,40 € établi à l'écran ; « Enregistrer un règlement » propose le reste
// à payer (502,15 €) et non le total ; un montant au-delà est refusé avec la phrase du serveur,
// rien n'est enregistré ; un règlement partiel par chèque avec sa référence laisse la facture
// « Émise », l'historique le montre et le reste à payer baisse ; le solde la rend « Payée »
// (reste 0,00 €, l'action disparaît). L'avoir se rembourse de même (« Soldé »).
// Captures reglements-… dans $LIFTDESK_ARTIFACTS/ui/.
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/payments.test.mjs'
//
// Le test crée ses propres pièces ; d'autres fichiers peuvent changer la démo.

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const UI_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TIMEOUT = 15_000;
const STEP_TIMEOUT = 60_000;
const EUROS = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
/** Un montant tel que l'écran l'affiche, espaces normalisés (comme `clean`). */
const euros = (value) => clean(EUROS.format(value));
/** Espaces (insécables compris) réduits à une espace simple. */
const clean = (text) => (text ?? '').replace(/[\s\u00a0\u202f]+/g, ' ').trim();

const missing = ['LIFTDESK_URL', 'LIFTDESK_CREDENTIALS'].filter((name) => !process.env[name]);

if (missing.length > 0) {
  test('configuration du test de bout en bout', () => {
    assert.fail(`Variable(s) d'environnement manquante(s) : ${missing.join(', ')}. Ce test pilote un vrai serveur.`);
  });
} else {
  describe('règlements d’une facture', { timeout: 10 * STEP_TIMEOUT }, () => {
    const baseUrl = new URL('/', process.env.LIFTDESK_URL).href;
    const artifactsDir = process.env.LIFTDESK_ARTIFACTS
      ? path.resolve(process.env.LIFTDESK_ARTIFACTS, 'ui')
      : path.resolve(UI_DIR, '../test-artifacts/ui');

    let creds;
    /** @type {import('playwright-core').Browser} */
    let browser;
    /** @type {import('playwright-core').Page} */
    let page;
    const pageErrors = [];
    let invoiceId;
    let invoiceNumber;
    let today;

    const shot = (name) => page.screenshot({ path: path.join(artifactsDir, `${name}.png`), fullPage: true });

    function step(name, fn) {
      it(name, { timeout: STEP_TIMEOUT }, async () => {
        try {
          await fn();
        } catch (error) {
          if (page) await shot(`echec-reglements-${name.replace(/[^\p{L}\p{N}]+/gu, '-')}`).catch(() => {});
          throw error;
        }
      });
    }

    /** L'API de l'interface, avec la session du navigateur (jeton CSRF compris). */
    function appApi(method, apiPath, body) {
      return page.evaluate(
        async ({ method, apiPath, body }) => {
          const session = await (await fetch('/app/api/session')).json();
          const response = await fetch(`/app/api${apiPath}`, {
            method,
            headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          const text = await response.text();
          return { status: response.status, body: text ? JSON.parse(text) : null };
        },
        { method, apiPath, body },
      );
    }

    /** Attend qu'un texte (espaces normalisés) soit exactement celui attendu. */
    async function expectText(locator, wanted) {
      const expected = clean(wanted);
      const deadline = Date.now() + TIMEOUT;
      let actual;
      for (;;) {
        actual = clean(await locator.textContent({ timeout: TIMEOUT }));
        if (actual === expected || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(actual, expected);
    }

    const payments = () => page.getByRole('region', { name: 'Règlements', exact: true });

    /** Les lignes de l'historique des règlements, cellules aux espaces normalisés. */
    async function history() {
      const rows = payments().getByRole('table', { name: 'Historique des règlements' }).locator('tbody tr');
      const out = [];
      for (const row of await rows.all()) out.push((await row.locator('td').allTextContents()).map(clean));
      return out;
    }

    before(async () => {
      creds = JSON.parse(readFileSync(process.env.LIFTDESK_CREDENTIALS, 'utf8'));
      assert.ok(creds?.admin?.email && creds.admin.password, 'LIFTDESK_CREDENTIALS : admin incomplet');
      mkdirSync(artifactsDir, { recursive: true });
      browser = await chromium.launch({
        executablePath: process.env.LIFTDESK_CHROMIUM || '/usr/bin/chromium',
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      const context = await browser.newContext({ locale: 'fr-FR', viewport: { width: 1440, height: 900 } });
      page = await context.newPage();
      page.setDefaultTimeout(TIMEOUT);
      page.on('pageerror', (error) => pageErrors.push(error));
    });

    after(async () => {
      await browser?.close();
    });

    step('connexion, facture de 539,55 € TTC créée puis émise', async () => {
      await page.goto(baseUrl);
      await page.getByLabel('Adresse e-mail', { exact: true }).fill(creds.admin.email);
      await page.getByLabel('Mot de passe', { exact: true }).fill(creds.admin.password);
      await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
      await page.getByRole('button', { name: 'Se déconnecter' }).waitFor();

      const listed = await appApi('GET', '/invoices?limit=20');
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      const client = listed.body.results.find((r) => r.client)?.client;
      assert.ok(client, 'un client facturé dans la démo');
      // 456,50 + 2 × 17,00 = 490,50 HT ; TVA 10 % 49,05 → 539,55 TTC.
      const created = await appApi('POST', '/invoices', {
        clientId: client,
        lines: [
          { label: 'Remplacement de la carte de manœuvre', quantity: 1, unitPrice: 456.5, vatRate: 10 },
          { label: 'Déplacement', quantity: 2, unitPrice: 17, vatRate: 10 },
        ],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      invoiceId = created.body.id;

      await page.goto(new URL(`/factures/${invoiceId}`, baseUrl).href);
      await expectText(page.locator('[data-testid="statut"]'), 'Brouillon');
      await expectText(page.locator('[data-testid="total-ttc"]'), euros(539.55));
      // A draft has no balance: no payments section yet.
      assert.equal(await payments().count(), 0);
      await page.getByRole('button', { name: 'Émettre', exact: true }).click();
      await page.getByRole('dialog', { name: 'Émettre la facture ?' }).getByRole('button', { name: 'Émettre la facture' }).click();
      await expectText(page.locator('[data-testid="statut"]'), 'Émise');
      invoiceNumber = clean(await page.locator('[data-testid="numero"]').textContent());
      assert.match(invoiceNumber, /^FA-\d{4}-\d{6}$/);
      today = (await appApi('GET', `/invoices/${invoiceId}`)).body.invoice.issuedOn;
      await expectText(payments().locator('[data-testid="solde-reste"]'), euros(539.55));
      await payments().getByText('Aucun règlement enregistré.', { exact: true }).waitFor();
    });

    step('avoir partiel de 37,40 € : le reste à payer devient 502,15 €', async () => {
      await page.getByRole('button', { name: 'Établir un avoir' }).click();
      const dialog = page.getByRole('dialog', { name: 'Établir un avoir' });
      await dialog.locator('#credit-check-1').check();
      await dialog.getByLabel('Quantité à créditer, ligne 2').fill('2');
      await expectText(dialog.locator('[data-testid="credit-preview"]'), `Avoir : ${euros(37.4)} TTC`);
      await dialog.getByRole('button', { name: "Établir l'avoir" }).click();
      await page.getByRole('heading', { level: 1, name: /^Avoir AV-\d{4}-\d{6}$/ }).waitFor();
      await page.getByRole('link', { name: invoiceNumber }).click();
      await page.getByRole('heading', { level: 1, name: `Facture ${invoiceNumber}` }).waitFor();
      // The credit note leaves something due: still « Émise ».
      await expectText(page.locator('[data-testid="statut"]'), 'Émise');
      await expectText(payments().locator('[data-testid="solde-total"]'), euros(539.55));
      await expectText(payments().locator('[data-testid="solde-avoirs"]'), euros(37.4));
      await expectText(payments().locator('[data-testid="solde-regles"]'), euros(0));
      await expectText(payments().locator('[data-testid="solde-reste"]'), euros(502.15));
      await payments().getByText('Reste à payer', { exact: true }).waitFor();
    });

    step('la fenêtre propose le reste à payer ; un montant au-delà est refusé, rien n’est enregistré', async () => {
      await page.getByRole('button', { name: 'Enregistrer un règlement' }).click();
      const dialog = page.getByRole('dialog', { name: 'Enregistrer un règlement' });
      await dialog.waitFor();
      await expectText(dialog.locator('[data-testid="payment-due"]'), `Reste à payer : ${euros(502.15)}`);
      const text = clean(await dialog.textContent());
      assert.ok(!text.includes('Reste à créditer'), `« Reste à créditer » dans la fenêtre : ${text}`);
      assert.ok(!text.includes('539,55'), `le total offert au lieu du reste : ${text}`);
      assert.equal(await dialog.getByLabel('Montant du règlement (€)').inputValue(), '502,15');
      assert.equal(await dialog.getByLabel('Date du règlement').inputValue(), today);
      assert.equal(await dialog.getByLabel('Date du règlement').getAttribute('max'), today);
      assert.equal(await dialog.getByLabel('Date du règlement').getAttribute('min'), today);
      assert.deepEqual((await dialog.getByLabel('Mode de règlement').locator('option').allTextContents()).map(clean), [
        '—',
        'Virement',
        'Chèque',
        'Prélèvement',
        'Espèces',
        'Carte bancaire',
      ]);
      await shot('reglements-fenetre');

      await dialog.getByLabel('Montant du règlement (€)').fill('622,50');
      await dialog.getByRole('button', { name: 'Enregistrer le règlement' }).click();
      await expectText(
        dialog.getByRole('alert'),
        `Le règlement de ${euros(622.5)} dépasse le reste à payer de la facture : ${euros(502.15)}.`,
      );
      assert.ok(await dialog.isVisible(), 'la fenêtre reste ouverte');
      await shot('reglements-refus');
      const after = (await appApi('GET', `/invoices/${invoiceId}`)).body.invoice;
      assert.equal(after.payments.length, 0);
      assert.equal(after.balance, 502.15);
      // Client-side check too: not a number.
      await dialog.getByLabel('Montant du règlement (€)').fill('deux cents');
      await dialog.getByRole('button', { name: 'Enregistrer le règlement' }).click();
      await expectText(dialog.getByRole('alert'), 'Le montant doit être un nombre en euros (reçu : « deux cents »).');
    });

    step('règlement partiel par chèque : statut inchangé, historique, reste à payer mis à jour', async () => {
      const dialog = page.getByRole('dialog', { name: 'Enregistrer un règlement' });
      await dialog.getByLabel('Montant du règlement (€)').fill('200,50');
      await dialog.getByLabel('Mode de règlement').selectOption({ label: 'Chèque' });
      await dialog.getByLabel('Référence').fill('CHQ 0012345');
      const posted = page.waitForRequest(
        (r) => new URL(r.url()).pathname === `/app/api/invoices/${invoiceId}/payment` && r.method() === 'POST',
      );
      await dialog.getByRole('button', { name: 'Enregistrer le règlement' }).click();
      assert.deepEqual(JSON.parse((await posted).postData() ?? '{}'), {
        amount: 200.5,
        paidOn: today,
        method: 'cheque',
        reference: 'CHQ 0012345',
      });
      await dialog.waitFor({ state: 'hidden' });
      await expectText(payments().locator('[data-testid="solde-reste"]'), euros(301.65));
      await expectText(page.locator('[data-testid="statut"]'), 'Émise');
      await expectText(payments().locator('[data-testid="solde-regles"]'), euros(200.5));
      const [y, m, d] = today.split('-');
      assert.deepEqual(await history(), [[`${d}/${m}/${y}`, euros(200.5), 'Chèque', 'CHQ 0012345']]);
      await page.getByRole('button', { name: 'Enregistrer un règlement' }).waitFor();
      await shot('reglements-partiel');
    });

    step('le solde par virement : « Payée », reste 0,00 €, action retirée', async () => {
      await page.getByRole('button', { name: 'Enregistrer un règlement' }).click();
      const dialog = page.getByRole('dialog', { name: 'Enregistrer un règlement' });
      await expectText(dialog.locator('[data-testid="payment-due"]'), `Reste à payer : ${euros(301.65)}`);
      assert.equal(await dialog.getByLabel('Montant du règlement (€)').inputValue(), '301,65');
      await dialog.getByLabel('Mode de règlement').selectOption({ label: 'Virement' });
      const posted = page.waitForRequest(
        (r) => new URL(r.url()).pathname === `/app/api/invoices/${invoiceId}/payment` && r.method() === 'POST',
      );
      await dialog.getByRole('button', { name: 'Enregistrer le règlement' }).click();
      // Only what is set: no reference.
      assert.deepEqual(JSON.parse((await posted).postData() ?? '{}'), { amount: 301.65, paidOn: today, method: 'virement' });
      await dialog.waitFor({ state: 'hidden' });
      await expectText(page.locator('[data-testid="statut"]'), 'Payée');
      await expectText(payments().locator('[data-testid="solde-reste"]'), euros(0));
      await payments().getByText('Reste à payer', { exact: true }).waitFor();
      await expectText(payments().locator('[data-testid="solde-regles"]'), euros(502.15));
      assert.equal(await page.getByRole('button', { name: 'Enregistrer un règlement' }).count(), 0);
      const [y, m, d] = today.split('-');
      assert.deepEqual(await history(), [
        [`${d}/${m}/${y}`, euros(200.5), 'Chèque', 'CHQ 0012345'],
        [`${d}/${m}/${y}`, euros(301.65), 'Virement', '—'],
      ]);
      await shot('reglements-solde');
    });

    step('l’avoir se rembourse : « Reste à rembourser », puis « Soldé »', async () => {
      await page.getByRole('list').getByRole('link', { name: /^AV-\d{4}-\d{6}$/ }).click();
      await page.getByRole('heading', { level: 1, name: /^Avoir AV-/ }).waitFor();
      const refunds = page.getByRole('region', { name: 'Remboursements', exact: true });
      await expectText(refunds.locator('[data-testid="solde-reste"]'), euros(37.4));
      await refunds.getByText('Reste à rembourser', { exact: true }).waitFor();
      await refunds.getByText('Aucun remboursement enregistré.', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Enregistrer un remboursement' }).click();
      const dialog = page.getByRole('dialog', { name: 'Enregistrer un remboursement' });
      await expectText(dialog.locator('[data-testid="payment-due"]'), `Reste à rembourser : ${euros(37.4)}`);
      assert.equal(await dialog.getByLabel('Montant du remboursement (€)').inputValue(), '37,40');
      await dialog.getByRole('button', { name: 'Enregistrer le remboursement' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await expectText(page.locator('[data-testid="statut"]'), 'Soldé');
      await expectText(refunds.locator('[data-testid="solde-reste"]'), euros(0));
      assert.equal(await page.getByRole('button', { name: 'Enregistrer un remboursement' }).count(), 0);
      await shot('reglements-avoir');
      assert.deepEqual(pageErrors, []);
    });
  });
}
