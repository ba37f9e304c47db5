// Test de bout en bout : l'adresse d'un client en quatre parties (numéro et
// voie, complément, code postal, ville), contre un serveur Liftdesk réel (démo).
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/addresses.test.mjs'
//
// L'administrateur de la démo crée un client à la main sans identifiant : le
// code postal « 7500 » est refusé dans la fenêtre (phrase du serveur, rien
// n'est envoyé ni créé), « 69003 » passe ; le client reçoit un identifiant
// « CLI-… » et sa fiche montre l'adresse en parties (« 69003 Lyon »). Le code
// postal modifié (« 69 007 ») part avec la voie et la ville. Il importe
// ensuite un petit classeur de clients (Nom, Adresse, Code postal, Ville) :
// la ligne au code « 6900 » est refusée avec sa raison en français, les autres
// sont créées avec leur code postal, leur ville et un identifiant « CLI-… ».
// Une facture du client saisi à la main montre l'adresse entière de
// l'acheteur. Les noms sont propres à chaque passage : le serveur de démo est
// partagé par tous les fichiers de test. Captures « adresses-… » dans
// $LIFTDESK_ARTIFACTS/ui/.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describeOnServer, plain, STEP_TIMEOUT } from './harness.mjs';
import { xlsx } from './xlsx.mjs';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const CLIENT_REF = /^CLI-\d+$/;

describeOnServer(
  "l'adresse d'un client en parties : saisie, import, facture",
  { timeout: 10 * STEP_TIMEOUT, shots: 'adresses', apiTimeout: 30_000 },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;

    before(() => ({ page, creds } = ui));

    const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
    const handName = `Copropriété Adresse ${stamp}`;
    const imported = {
      first: { name: `Résidence Import A ${stamp}`, street: '12 rue de la République', code: '69002', city: 'Lyon' },
      refused: { name: `Résidence Import B ${stamp}`, street: '3 place Bellecour', code: '6900', city: 'Lyon' },
      last: { name: `Résidence Import C ${stamp}`, street: '40 avenue Jean Jaurès', code: '69 007', city: 'Lyon' },
    };
    let handId;
    const importedIds = [];

    /** Les lignes du bloc « Adresse » de la fiche, dans l'ordre. */
    const addressLines = async () =>
      (await page.locator('dd[data-field="address"] [data-part]').allTextContents()).map(plain);
    const fact = async (field) => plain(await page.locator(`dd[data-field="${field}"]`).textContent());
    /** Les identifiants des clients qui portent exactement ce nom (la recherche, elle, trouve aussi les voisins). */
    const clientsNamed = (name) =>
      page.evaluate(async (wanted) => {
        const answer = await (await fetch(`/app/api/clients?q=${encodeURIComponent(wanted)}&archived=all`)).json();
        return answer.results.filter((c) => c.name === wanted).map((c) => c.id);
      }, name);

    step("a. « Nouveau client » sans identifiant : « 7500 » refusé, « 69003 » accepté, « CLI-… » attribué", async () => {
      await signIn(creds.admin);

      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Clients', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Clients', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Nouveau client', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Nouveau client' });
      await dialog.waitFor();

      // Le bloc d'adresse : voie, complément, puis code postal et ville côte à côte.
      const street = dialog.getByLabel('Adresse (numéro et voie)', { exact: true });
      const complement = dialog.getByLabel("Complément d'adresse", { exact: true });
      const code = dialog.getByLabel('Code postal', { exact: true });
      const city = dialog.getByLabel('Ville', { exact: true });
      assert.equal(await code.getAttribute('inputmode'), 'numeric');
      const [codeBox, cityBox] = [await code.boundingBox(), await city.boundingBox()];
      assert.ok(codeBox && cityBox && Math.abs(codeBox.y - cityBox.y) < 2 && codeBox.x < cityBox.x, 'code postal puis ville, sur une ligne');
      assert.ok(codeBox.width < cityBox.width, 'le code postal est plus étroit que la ville');

      let posts = 0;
      const countPosts = (request) => {
        if (new URL(request.url()).pathname === '/app/api/clients' && request.method() === 'POST') posts += 1;
      };
      page.on('request', countPosts);
      try {
        await dialog.getByLabel('Nom', { exact: true }).fill(handName);
        await street.fill('25 rue Servient');
        await complement.fill('Bâtiment C');
        await code.fill('7500');
        await city.fill('Lyon');
        await dialog.getByRole('button', { name: 'Créer le client', exact: true }).click();
        await dialog
          .getByText("Le champ « Code postal » doit être un code postal français de cinq chiffres : « 7500 » n'en est pas un.", {
            exact: true,
          })
          .waitFor();
        assert.equal(await code.getAttribute('aria-invalid'), 'true');
        assert.equal(await code.evaluate((el) => el === document.activeElement), true, 'le focus va au code postal');
        assert.equal(posts, 0, "rien n'est envoyé");
        await shot('adresses-01-code-postal-refuse');
      } finally {
        page.off('request', countPosts);
      }
      // Rien n'a été créé.
      assert.deepEqual(await clientsNamed(handName), []);

      // Six chiffres ne se tapent pas ; cinq passent.
      await code.fill('');
      await code.pressSequentially('690031');
      assert.equal(await code.inputValue(), '69003');
      const created = apiResponse('/app/api/clients', 'POST');
      await dialog.getByRole('button', { name: 'Créer le client', exact: true }).click();
      const response = await created;
      const detail = await response.json();
      assert.equal(response.status(), 201, JSON.stringify(detail));
      assert.deepEqual(response.request().postDataJSON(), {
        name: handName,
        status: 'Client',
        categories: [],
        address: '25 rue Servient',
        addressComplement: 'Bâtiment C',
        postalCode: '69003',
        city: 'Lyon',
      });
      handId = detail.client.id;
      assert.match(handId, CLIENT_REF, `un identifiant CLI-…, pas « ${handId} »`);
      assert.equal(detail.client.postalCode, '69003');
      assert.equal(detail.client.city, 'Lyon');

      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('heading', { level: 1, name: handName }).waitFor();
      assert.equal(new URL(page.url()).pathname, `/clients/${encodeURIComponent(handId)}`);
      assert.equal(await fact('id'), handId);
      assert.deepEqual(await addressLines(), ['25 rue Servient', 'Bâtiment C', '69003 Lyon']);
      await shot('adresses-02-fiche-creee');
    });

    step('le code postal modifié (« 69 007 ») part avec la voie et la ville', async () => {
      await page.getByRole('button', { name: 'Modifier', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Modifier le client « ${handName} »` });
      await dialog.waitFor();
      assert.equal(await dialog.getByLabel('Adresse (numéro et voie)', { exact: true }).inputValue(), '25 rue Servient');
      const code = dialog.getByLabel('Code postal', { exact: true });
      assert.equal(await code.inputValue(), '69003');
      assert.equal(await dialog.getByLabel('Ville', { exact: true }).inputValue(), 'Lyon');
      await code.fill('69 007');
      const saved = apiResponse(`/app/api/clients/${encodeURIComponent(handId)}`, 'PATCH');
      await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      const response = await saved;
      assert.equal(response.status(), 200);
      assert.deepEqual(response.request().postDataJSON(), { address: '25 rue Servient', postalCode: '69007', city: 'Lyon' });
      await dialog.waitFor({ state: 'hidden' });
      await page.locator('.notice', { hasText: 'Client modifié.' }).waitFor();
      assert.deepEqual(await addressLines(), ['25 rue Servient', 'Bâtiment C', '69007 Lyon']);
      await shot('adresses-03-code-postal-modifie');
    });

    step('b. import de clients : la ligne au code « 6900 » refusée, les autres créées avec code postal et ville', async () => {
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Imports', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Imports', exact: true }).waitFor();
      const rows = [['Nom', 'Adresse', 'Code postal', 'Ville']];
      for (const c of [imported.first, imported.refused, imported.last]) rows.push([c.name, c.street, c.code, c.city]);
      const uploaded = apiResponse('/app/api/imports/files', 'POST');
      await page.locator('#import-file').setInputFiles({ name: 'clients-adresses.xlsx', mimeType: XLSX_TYPE, buffer: xlsx(rows) });
      assert.equal((await uploaded).status(), 201);
      await page.getByRole('heading', { level: 2, name: '2. La correspondance des colonnes', exact: true }).waitFor();
      await page.getByLabel('Ce que deviennent les lignes', { exact: true }).selectOption('clients');
      // Code postal et ville proposés d'après les en-têtes.
      assert.equal(await page.getByLabel('Code postal', { exact: true }).inputValue(), 'code_postal');
      assert.equal(await page.getByLabel('Ville', { exact: true }).inputValue(), 'ville');
      await shot('adresses-04-import-correspondance');

      const checked = apiResponse((p) => /^\/app\/api\/imports\/[^/]+\/check$/.test(p), 'POST');
      await page.getByRole('button', { name: 'Vérifier le fichier', exact: true }).click();
      assert.equal((await checked).status(), 200);
      await page.getByRole('heading', { level: 2, name: '3. La vérification', exact: true }).waitFor();
      const summary = plain(await page.locator('.summary').textContent());
      assert.ok(summary.startsWith('3 lignes : 2 à créer, 0 à mettre à jour, 1 refusée.'), summary);
      const errors = page.getByRole('table', { name: 'Erreurs ligne par ligne', exact: true });
      assert.equal(await errors.locator('tbody tr').count(), 1);
      const cells = (await errors.locator('tbody tr').first().locator('td').allTextContents()).map(plain);
      assert.equal(cells[0], '3', cells.join(' | '));
      // La raison, en français ; la colonne n'est nommée que si le serveur la donne (« Colonne « … » (C) : »).
      assert.ok(cells[1] === '—' || cells[1].startsWith('Code postal'), cells.join(' | '));
      assert.match(
        cells[2],
        /« Code postal » doit être un code postal français de cinq chiffres : « 6900 » n'en est pas un\.$/,
        cells.join(' | '),
      );
      await shot('adresses-05-import-verification');

      const done = apiResponse((p) => /^\/app\/api\/imports\/[^/]+\/import$/.test(p), 'POST');
      await page.getByRole('button', { name: 'Importer les 2 lignes acceptées', exact: true }).click();
      const report = await (await done).json();
      assert.equal(report.created, 2);
      await page.getByRole('heading', { level: 3, name: 'Import terminé', exact: true }).waitFor();
      for (const row of report.rows.filter((r) => r.action === 'creation')) importedIds.push(row.id);
      assert.equal(importedIds.length, 2);
      for (const id of importedIds) assert.match(id, CLIENT_REF, `un identifiant CLI-…, pas « ${id} »`);
      await shot('adresses-06-import-termine');

      // Chaque client importé : son identifiant, sa voie, « code postal ville ».
      const expected = [
        [imported.first, ['12 rue de la République', '69002 Lyon']],
        [imported.last, ['40 avenue Jean Jaurès', '69007 Lyon']],
      ];
      for (const [i, [client, lines]] of expected.entries()) {
        const loaded = apiResponse(`/app/api/clients/${encodeURIComponent(importedIds[i])}`, 'GET');
        await page.goto(new URL(`/clients/${encodeURIComponent(importedIds[i])}`, baseUrl).href);
        assert.equal((await loaded).status(), 200);
        await page.getByRole('heading', { level: 1, name: client.name }).waitFor();
        assert.equal(await fact('id'), importedIds[i]);
        assert.deepEqual(await addressLines(), lines);
      }
      await shot('adresses-07-client-importe');
      // La ligne refusée n'a rien créé.
      assert.deepEqual(await clientsNamed(imported.refused.name), []);
    });

    step("c. la facture du client montre l'adresse entière de l'acheteur", async () => {
      const invoice = await page.evaluate(async (clientId) => {
        const session = await (await fetch('/app/api/session')).json();
        const response = await fetch('/app/api/invoices', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken },
          body: JSON.stringify({ clientId, lines: [{ label: 'Visite de maintenance', quantity: 1, unitPrice: 120 }] }),
        });
        return { status: response.status, body: await response.json() };
      }, handId);
      assert.equal(invoice.status, 201, JSON.stringify(invoice.body));
      const loaded = apiResponse(`/app/api/invoices/${invoice.body.id}`, 'GET');
      await page.goto(new URL(`/factures/${encodeURIComponent(invoice.body.id)}`, baseUrl).href);
      assert.equal((await loaded).status(), 200);
      await page.getByTestId('acheteur').getByText(handName, { exact: true }).waitFor();
      const address = page.locator('dl dt', { hasText: /^Adresse$/ }).locator('xpath=following-sibling::dd[1]');
      assert.equal(plain(await address.textContent()), '25 rue Servient, Bâtiment C, 69007 Lyon');
      await shot('adresses-08-facture-acheteur');
      assert.deepEqual(pageErrors, []);
    });
  },
);
