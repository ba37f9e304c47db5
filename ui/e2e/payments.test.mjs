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
import { before } from 'node:test';
import { describeOnServer, expectText, plain, STEP_TIMEOUT } from './harness.mjs';

const EUROS = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
/** Un montant tel que l'écran l'affiche, espaces normalisés (comme `plain`). */
const euros = (value) => plain(EUROS.format(value));

describeOnServer(
  'règlements d’une facture',
  { timeout: 10 * STEP_TIMEOUT, shots: 'reglements', viewport: { width: 1440, height: 900 } },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, appApi, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    let invoiceId;
    let invoiceNumber;
    let today;

    before(() => ({ page, creds } = ui));

    const payments = () => page.getByRole('region', { name: 'Règlements', exact: true });

    /** Les lignes de l'historique des règlements, cellules aux espaces normalisés. */
    async function history() {
      const rows = payments().getByRole('table', { name: 'Historique des règlements' }).locator('tbody tr');
      const out = [];
      for (const row of await rows.all()) out.push((await row.locator('td').allTextContents()).map(plain));
      return out;
    }

    step('connexion, facture de 539,55 € TTC créée puis émise', async () => {
      await signIn(creds.admin);

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
      invoiceNumber = plain(await page.locator('[data-testid="numero"]').textContent());
      // Dans la série de l'agence de l'administrateur (« Agence Paris Ouest » : PO).
      assert.match(invoiceNumber, /^FA-PO-\d{4}-\d{6}$/);
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
      await page.getByRole('heading', { level: 1, name: /^Avoir AV-PO-\d{4}-\d{6}$/ }).waitFor();
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
      const text = plain(await dialog.textContent());
      assert.ok(!text.includes('Reste à créditer'), `« Reste à créditer » dans la fenêtre : ${text}`);
      assert.ok(!text.includes('539,55'), `le total offert au lieu du reste : ${text}`);
      assert.equal(await dialog.getByLabel('Montant du règlement (€)').inputValue(), '502,15');
      assert.equal(await dialog.getByLabel('Date du règlement').inputValue(), today);
      assert.equal(await dialog.getByLabel('Date du règlement').getAttribute('max'), today);
      assert.equal(await dialog.getByLabel('Date du règlement').getAttribute('min'), today);
      assert.deepEqual((await dialog.getByLabel('Mode de règlement').locator('option').allTextContents()).map(plain), [
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
      await page.getByRole('list').getByRole('link', { name: /^AV-PO-\d{4}-\d{6}$/ }).click();
      await page.getByRole('heading', { level: 1, name: /^Avoir AV-PO-\d{4}-\d{6}$/ }).waitFor();
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
  },
);
