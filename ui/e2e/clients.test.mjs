// Test de bout en bout de l'écran Clients, contre un serveur Liftdesk réel (démo).
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/clients.test.mjs'
//
// Un client propre au test est d'abord créé par l'API partenaire
// (`/update_client`, avec SIREN, SIRET et un contact) : d'autres fichiers de
// test partagent le serveur et facturent des clients de la démo, qu'il ne faut
// pas archiver sous leurs pieds. L'administrateur de la démo ouvre « Clients »,
// cherche ce client, ouvre sa fiche, crée un contact (refus côté client, puis
// refus du serveur affiché, puis création), archive puis restaure le client
// avec confirmation. Un membre voit la fiche sans « Archiver ». Le client
// reste actif à la fin. Captures dans $LIFTDESK_ARTIFACTS/ui/.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describeOnServer, STEP_TIMEOUT, TIMEOUT } from './harness.mjs';

describeOnServer(
  'écran Clients',
  { timeout: 12 * STEP_TIMEOUT, shots: 'clients' },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;

    before(() => {
      ({ page, creds } = ui);
      assert.ok(creds.partnerKey, 'LIFTDESK_CREDENTIALS : partnerKey requis');
    });

    const stamp = Date.now().toString(36).toUpperCase();
    const clientId = `E2E-CLI-${stamp}`;
    const clientName = `Copropriété Essai ${stamp}`;
    let clientPath;

    const contactsTable = () => page.getByRole('table', { name: 'Contacts du client', exact: true });
    const clientHeading = () => page.getByRole('heading', { level: 1, name: clientName });

    step('connexion, client du test créé par l\'API partenaire, liste des clients', async () => {
      const session = await signIn(creds.admin);
      const agencyId = session.agency?.id;
      assert.ok(agencyId, "la session agit dans une agence");
      const created = await fetch(new URL('/api/1.1/wf/update_client', baseUrl), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'x-api-key': creds.partnerKey },
        body: JSON.stringify({
          agency_id: agencyId,
          client_id: clientId,
          nom: clientName,
          statut: 'Client',
          type: ['Gestionnaire'],
          email: 'syndic@essai-copro.fr',
          telephone: '01 47 58 12 34',
          adresse: '14 rue Anatole France, 92300 Levallois-Perret',
          complement_adresse: 'Bâtiment B, CS 40021',
          siren: '732829320',
          siret: '73282932000074',
          contact: [{ nom: 'Paul Gardien', fonction: 'Gardien', telephone: '06 11 22 33 44' }],
        }),
      });
      assert.equal(created.status, 200, await created.clone().text());
      assert.equal((await created.json()).status, 'success');

      const list = apiResponse('/app/api/clients', 'GET');
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Clients', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Clients', exact: true }).waitFor();
      const answer = await (await list).json();
      assert.ok(answer.total > 0, 'la démo a des clients');
      assert.ok(answer.results.every((c) => !c.archived), 'la liste montre les clients actifs par défaut');
      assert.equal(new URL(page.url()).pathname, '/clients');
      await page.getByRole('table', { name: "Clients de l'agence", exact: true }).waitFor();
      await page.getByRole('navigation', { name: 'Pages des clients' }).waitFor();
      await shot('clients-01-liste');
    });

    step('recherche du client et ouverture de sa fiche', async () => {
      const searched = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/clients' && new URL(r.url()).searchParams.get('q') === stamp,
        { timeout: TIMEOUT },
      );
      await page.getByLabel('Nom, e-mail, identifiant, SIREN ou SIRET', { exact: true }).fill(stamp);
      const found = await (await searched).json();
      assert.equal(found.total, 1);
      assert.equal(found.results[0].id, clientId);
      const link = page.getByRole('table', { name: "Clients de l'agence" }).getByRole('link', { name: clientName, exact: true });
      await link.waitFor();
      await page.getByRole('cell', { name: '732 829 320', exact: true }).waitFor();
      await shot('clients-02-recherche');
      await link.click();
      await clientHeading().waitFor();
      clientPath = new URL(page.url()).pathname;
      assert.equal(clientPath, `/clients/${clientId}`);
      assert.equal(((await page.locator('dd[data-field="siren"]').textContent()) ?? '').trim(), '732 829 320');
      assert.equal(((await page.locator('dd[data-field="siret"]').textContent()) ?? '').trim(), '732 829 320 00074');
      // L'adresse reçue d'un bloc par l'API partenaire, découpée par le serveur : montrée en parties.
      assert.deepEqual(
        (await page.locator('dd[data-field="address"] [data-part]').allTextContents()).map((t) => t.trim()),
        ['14 rue Anatole France', 'Bâtiment B, CS 40021', '92300 Levallois-Perret'],
      );
      await contactsTable().getByRole('cell', { name: 'Paul Gardien', exact: true }).waitFor();
      assert.equal(await page.getByTestId('archived-badge').count(), 0);
      await shot('clients-03-fiche');
    });

    step('nouveau contact : refus côté client, refus du serveur affiché, puis création', async () => {
      let posts = 0;
      const countPosts = (request) => {
        if (new URL(request.url()).pathname === '/app/api/contacts' && request.method() === 'POST') posts += 1;
      };
      page.on('request', countPosts);
      const descriptorRead = apiResponse('/app/api/contacts/creation', 'GET');
      await page.getByRole('button', { name: 'Nouveau contact', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Nouveau contact' });
      const descriptor = await (await descriptorRead).json();
      // Le formulaire est celui du descripteur : un champ par entrée, le choix avec ses valeurs.
      for (const field of descriptor.fields) await dialog.getByLabel(field.label, { exact: true }).waitFor();
      const fonction = descriptor.fields.find((f) => f.type === 'choice');
      assert.ok(fonction, 'un champ à choix');
      assert.equal(await dialog.getByLabel(fonction.label, { exact: true }).locator('option').count(), fonction.values.length + 1);

      // Refus côté client, avec la phrase du serveur ; rien n'est envoyé.
      await dialog.getByLabel('Nom', { exact: true }).fill('Anne Martin');
      await dialog.getByLabel('E-mail', { exact: true }).fill('anne');
      await dialog.getByRole('button', { name: 'Créer le contact', exact: true }).click();
      await dialog.getByText("Le champ « E-mail » n'est pas une adresse e-mail valide : « anne ».", { exact: true }).waitFor();
      assert.equal(await dialog.getByLabel('E-mail', { exact: true }).getAttribute('aria-invalid'), 'true');
      assert.equal(posts, 0);
      await shot('clients-04-contact-refus-client');

      // Refus du serveur (un contact de ce nom existe déjà) : la raison s'affiche, la saisie reste.
      await dialog.getByLabel('Nom', { exact: true }).fill('paul gardien');
      await dialog.getByLabel('E-mail', { exact: true }).fill('anne.martin@essai-copro.fr');
      await dialog.getByLabel('Fonction', { exact: true }).selectOption('Syndic');
      const refused = apiResponse('/app/api/contacts', 'POST');
      await dialog.getByRole('button', { name: 'Créer le contact', exact: true }).click();
      assert.equal((await refused).status(), 422);
      await dialog
        .getByRole('alert')
        .filter({ hasText: `Le client « ${clientName} » a déjà un contact nommé « Paul Gardien » (champ « Nom »).` })
        .waitFor();
      assert.equal(await dialog.getByLabel('Nom', { exact: true }).getAttribute('aria-invalid'), 'true');
      assert.equal(await dialog.getByLabel('E-mail', { exact: true }).inputValue(), 'anne.martin@essai-copro.fr');
      assert.equal(await dialog.getByLabel('Fonction', { exact: true }).inputValue(), 'Syndic');
      await shot('clients-05-contact-refus-serveur');

      // Création.
      await dialog.getByLabel('Nom', { exact: true }).fill('Anne Martin');
      await dialog.getByLabel('Téléphone', { exact: true }).fill('06 98 76 54 32');
      const saved = apiResponse('/app/api/contacts', 'POST');
      await dialog.getByRole('button', { name: 'Créer le contact', exact: true }).click();
      assert.equal((await saved).status(), 201);
      await dialog.waitFor({ state: 'hidden' });
      page.off('request', countPosts);
      const row = contactsTable().getByRole('row').filter({ hasText: 'Anne Martin' });
      await row.waitFor();
      await row.getByRole('cell', { name: 'Syndic', exact: true }).waitFor();
      await row.getByRole('cell', { name: 'anne.martin@essai-copro.fr', exact: true }).waitFor();
      await page.locator('.notice', { hasText: 'Contact « Anne Martin » ajouté.' }).waitFor();
      await shot('clients-06-contact-cree');
    });

    step('archivage puis restauration, chacun confirmé', async () => {
      // Échap annule et rend le focus au bouton.
      const archiveButton = page.getByRole('button', { name: 'Archiver', exact: true });
      await archiveButton.click();
      const confirm = page.getByRole('dialog', { name: 'Archiver le client' });
      await confirm.waitFor();
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'hidden' });
      assert.equal(await archiveButton.evaluate((el) => el === document.activeElement), true);

      await archiveButton.click();
      await confirm.getByText(/ne pourra plus être facturé/).waitFor();
      await shot('clients-07-confirmation-archivage');
      const archived = apiResponse(`/app/api/clients/${clientId}/archive`, 'POST');
      await confirm.getByRole('button', { name: 'Archiver', exact: true }).click();
      assert.equal((await archived).status(), 200);
      await confirm.waitFor({ state: 'hidden' });
      await page.getByTestId('archived-badge').waitFor();
      await page.locator('.notice', { hasText: 'Client archivé.' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Nouveau contact' }).count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Archiver', exact: true }).count(), 0);
      await shot('clients-08-archive');

      // Dans la liste : parmi les archivés, plus parmi les actifs.
      await page.getByRole('link', { name: '← Clients' }).click();
      await page.getByRole('heading', { level: 1, name: 'Clients', exact: true }).waitFor();
      const filtered = page.waitForResponse(
        (r) =>
          new URL(r.url()).pathname === '/app/api/clients' &&
          new URL(r.url()).searchParams.get('archived') === 'archived' &&
          new URL(r.url()).searchParams.get('q') === stamp,
        { timeout: TIMEOUT },
      );
      await page.getByLabel('État', { exact: true }).selectOption('archived');
      await page.getByLabel('Nom, e-mail, identifiant, SIREN ou SIRET', { exact: true }).fill(stamp);
      const archivedList = await (await filtered).json();
      assert.deepEqual(
        archivedList.results.map((c) => [c.id, c.archived]),
        [[clientId, true]],
      );
      const row = page.getByRole('table', { name: "Clients de l'agence" }).getByRole('row').filter({ hasText: clientName });
      await row.getByText('Archivé', { exact: true }).waitFor();
      await shot('clients-09-liste-archives');
      await row.getByRole('link', { name: clientName, exact: true }).click();
      await clientHeading().waitFor();

      await page.getByRole('button', { name: 'Restaurer', exact: true }).click();
      const restoreConfirm = page.getByRole('dialog', { name: 'Restaurer le client' });
      const restored = apiResponse(`/app/api/clients/${clientId}/restore`, 'POST');
      await restoreConfirm.getByRole('button', { name: 'Restaurer', exact: true }).click();
      assert.equal((await restored).status(), 200);
      await restoreConfirm.waitFor({ state: 'hidden' });
      await page.locator('.notice', { hasText: 'Client restauré.' }).waitFor();
      assert.equal(await page.getByTestId('archived-badge').count(), 0);
      await page.getByRole('button', { name: 'Nouveau contact', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Archiver', exact: true }).waitFor();
      await shot('clients-10-restaure');
    });

    step("un membre voit la fiche et peut ajouter un contact, sans « Archiver »", async () => {
      assert.ok(creds.member?.email, 'LIFTDESK_CREDENTIALS : member requis');
      const memberPage = await ui.newPage();
      try {
        await signIn(creds.member, { page: memberPage });
        await memberPage.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Clients', exact: true }).waitFor();
        await memberPage.goto(new URL(clientPath, baseUrl).href);
        await memberPage.getByRole('heading', { level: 1, name: clientName }).waitFor();
        await memberPage.getByRole('button', { name: 'Nouveau contact', exact: true }).waitFor();
        assert.equal(await memberPage.getByRole('button', { name: 'Archiver' }).count(), 0);
        assert.equal(await memberPage.getByRole('button', { name: 'Restaurer' }).count(), 0);
        await shot('clients-11-fiche-membre', { page: memberPage });
      } finally {
        await memberPage.context().close();
      }
      assert.deepEqual(pageErrors, []);
    });
  },
);
