// Test de bout en bout : clients et contacts saisis et modifiés à la main sur
// l'écran Clients, contre un serveur Liftdesk réel (démo).
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/clients-edit.test.mjs'
//
// Un membre de la démo (tout le personnel crée des clients) ouvre « Nouveau
// client » : un SIRET à la clé fausse est refusé dans la fenêtre sans rien
// envoyer, le nom d'un client existant est refusé par le serveur (le champ
// signalé), puis « Copropriété Test <unique> » est créé avec SIREN, SIRET et
// la catégorie de facturation « Copropriété non assujettie à la TVA » ; sa
// fiche s'ouvre et la montre. Il modifie son téléphone (seul ce champ part),
// ajoute un contact (fenêtre « Nouveau contact » existante), modifie la
// fonction du contact, puis le supprime après confirmation. Les noms sont
// propres à chaque passage : le serveur de démo est partagé par tous les
// fichiers de test. Captures dans $LIFTDESK_ARTIFACTS/ui/.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describeOnServer, STEP_TIMEOUT, TIMEOUT } from './harness.mjs';

describeOnServer(
  'écran Clients : saisie et modification à la main',
  { timeout: 10 * STEP_TIMEOUT, shots: 'clients-edit', accounts: ['member'] },
  (ui) => {
    const { pageErrors, step, shot, apiResponse, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;

    before(() => ({ page, creds } = ui));

    const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
    const clientName = `Copropriété Test ${stamp}`;
    const contactName = `Jeanne Essai ${stamp}`;
    let clientId;
    let takenName;

    const clientHeading = () => page.getByRole('heading', { level: 1, name: clientName });
    const contactsTable = () => page.getByRole('table', { name: 'Contacts du client', exact: true });
    const contactRow = () => contactsTable().getByRole('row').filter({ hasText: contactName });
    const fact = async (field) => ((await page.locator(`dd[data-field="${field}"]`).textContent()) ?? '').trim();

    step('connexion d\'un membre, liste des clients et « Nouveau client »', async () => {
      await signIn(creds.member);

      const list = apiResponse('/app/api/clients', 'GET');
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Clients', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Clients', exact: true }).waitFor();
      const answer = await (await list).json();
      assert.ok(answer.total > 0, 'la démo a des clients');
      takenName = answer.results[0].name;

      await page.getByRole('button', { name: 'Nouveau client', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Nouveau client' });
      await dialog.waitFor();
      for (const label of [
        'Nom',
        'Statut',
        'Catégorie de facturation',
        'E-mail',
        'Téléphone',
        'Adresse (numéro et voie)',
        "Complément d'adresse",
        'Code postal',
        'Ville',
        'SIREN',
        'SIRET',
        'Identifiant client',
      ]) {
        await dialog.getByLabel(label, { exact: true }).waitFor();
      }
      assert.equal(await dialog.getByLabel('Statut', { exact: true }).inputValue(), 'Client');
      assert.equal(await dialog.getByLabel('Catégorie de facturation', { exact: true }).inputValue(), '');
      await dialog.getByRole('checkbox', { name: 'Propriétaire/exploitant', exact: true }).waitFor();
      await dialog.getByRole('checkbox', { name: 'Gestionnaire', exact: true }).waitFor();
      await dialog
        .getByText('Facultatif : laissé vide, Liftdesk attribue le suivant (« CLI-000123 »).', { exact: true })
        .waitFor();
      await shot('clients-edit-01-nouveau-client');
    });

    step('un SIRET faux est refusé dans la fenêtre, un nom pris par le serveur', async () => {
      const dialog = page.getByRole('dialog', { name: 'Nouveau client' });
      let posts = 0;
      const countPosts = (request) => {
        if (new URL(request.url()).pathname === '/app/api/clients' && request.method() === 'POST') posts += 1;
      };
      page.on('request', countPosts);
      try {
        await dialog.getByLabel('Nom', { exact: true }).fill(clientName);
        await dialog.getByLabel('SIREN', { exact: true }).fill('732829320');
        await dialog.getByLabel('SIRET', { exact: true }).fill('73282932000075');
        await dialog.getByRole('button', { name: 'Créer le client', exact: true }).click();
        await dialog.getByText("Le SIRET n'est pas valide (clé de contrôle incorrecte).", { exact: true }).waitFor();
        const siret = dialog.getByLabel('SIRET', { exact: true });
        assert.equal(await siret.getAttribute('aria-invalid'), 'true');
        assert.equal(await siret.evaluate((el) => el === document.activeElement), true, 'le focus va au champ refusé');
        assert.equal(posts, 0, 'rien n\'est envoyé');
        await shot('clients-edit-02-siret-refuse');

        // Le nom d'un client existant : refusé par le serveur (409), le champ signalé, la saisie gardée.
        await siret.fill('73282932000074');
        await dialog.getByLabel('Nom', { exact: true }).fill(takenName);
        const refused = apiResponse('/app/api/clients', 'POST');
        await dialog.getByRole('button', { name: 'Créer le client', exact: true }).click();
        assert.equal((await refused).status(), 409);
        await dialog.getByRole('alert').filter({ hasText: /s'appelle déjà/ }).waitFor();
        assert.equal(await dialog.getByLabel('Nom', { exact: true }).getAttribute('aria-invalid'), 'true');
        assert.equal(await siret.getAttribute('aria-invalid'), null);
        assert.equal(await siret.inputValue(), '73282932000074');
        assert.equal(posts, 1);
        await shot('clients-edit-03-nom-pris');
      } finally {
        page.off('request', countPosts);
      }
    });

    step('création avec SIREN, SIRET et catégorie de facturation ; la fiche s\'ouvre', async () => {
      const dialog = page.getByRole('dialog', { name: 'Nouveau client' });
      await dialog.getByLabel('Nom', { exact: true }).fill(clientName);
      await dialog.getByLabel('Catégorie de facturation', { exact: true }).selectOption({
        label: 'Copropriété non assujettie à la TVA',
      });
      await dialog.getByRole('checkbox', { name: 'Gestionnaire', exact: true }).check();
      await dialog.getByLabel('E-mail', { exact: true }).fill('syndic@copro-test.fr');
      await dialog.getByLabel('Téléphone', { exact: true }).fill('01 47 58 12 34');
      await dialog.getByLabel('Adresse (numéro et voie)', { exact: true }).fill('14 rue Anatole France');
      await dialog.getByLabel('Code postal', { exact: true }).fill('92300');
      await dialog.getByLabel('Ville', { exact: true }).fill('Levallois-Perret');
      const created = apiResponse('/app/api/clients', 'POST');
      await dialog.getByRole('button', { name: 'Créer le client', exact: true }).click();
      const response = await created;
      assert.equal(response.status(), 201);
      const sent = response.request().postDataJSON();
      assert.deepEqual(sent, {
        name: clientName,
        status: 'Client',
        categories: ['Gestionnaire'],
        email: 'syndic@copro-test.fr',
        phone: '01 47 58 12 34',
        address: '14 rue Anatole France',
        postalCode: '92300',
        city: 'Levallois-Perret',
        siren: '732829320',
        siret: '73282932000074',
        billingCategory: 'copropriete',
      });
      const detail = await response.json();
      clientId = detail.client.id;
      assert.ok(clientId, 'Liftdesk attribue un identifiant client');
      assert.equal(detail.client.billingCategory, 'copropriete');

      await dialog.waitFor({ state: 'hidden' });
      await clientHeading().waitFor();
      assert.equal(new URL(page.url()).pathname, `/clients/${encodeURIComponent(clientId)}`);
      assert.equal(await fact('id'), clientId);
      assert.equal(await fact('siren'), '732 829 320');
      assert.equal(await fact('siret'), '732 829 320 00074');
      assert.equal(await fact('billingCategory'), 'Copropriété non assujettie à la TVA');
      await page.getByText('Catégorie de facturation', { exact: true }).waitFor();
      assert.equal(await contactsTable().count(), 0);
      await page.getByText('Aucun contact.', { exact: true }).waitFor();
      await shot('clients-edit-04-fiche-creee');
    });

    step('modification du téléphone : seul ce champ part', async () => {
      await page.getByRole('button', { name: 'Modifier', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Modifier le client « ${clientName} »` });
      await dialog.waitFor();
      const id = dialog.getByLabel('Identifiant client', { exact: true });
      assert.equal(await id.inputValue(), clientId);
      assert.equal(await id.getAttribute('readonly'), '');
      assert.equal(await dialog.getByLabel('Nom', { exact: true }).inputValue(), clientName);
      assert.equal(await dialog.getByLabel('SIRET', { exact: true }).inputValue(), '73282932000074');
      assert.equal(await dialog.getByLabel('Catégorie de facturation', { exact: true }).inputValue(), 'copropriete');
      assert.equal(await dialog.getByRole('checkbox', { name: 'Gestionnaire', exact: true }).isChecked(), true);
      await dialog.getByLabel('Téléphone', { exact: true }).fill('01 99 88 77 66');
      await shot('clients-edit-05-modifier-client');
      const saved = apiResponse(`/app/api/clients/${encodeURIComponent(clientId)}`, 'PATCH');
      await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      const response = await saved;
      assert.equal(response.status(), 200);
      assert.deepEqual(response.request().postDataJSON(), { phone: '01 99 88 77 66' });
      await dialog.waitFor({ state: 'hidden' });
      await page.locator('.notice', { hasText: 'Client modifié.' }).waitFor();
      await page.getByText('01 99 88 77 66', { exact: true }).waitFor();
      assert.equal(await fact('billingCategory'), 'Copropriété non assujettie à la TVA');
      assert.equal(
        await page.getByRole('button', { name: 'Modifier', exact: true }).evaluate((el) => el === document.activeElement),
        true,
        'le focus revient au bouton « Modifier »',
      );
      await shot('clients-edit-06-client-modifie');
    });

    step('un contact ajouté, sa fonction modifiée', async () => {
      await page.getByRole('button', { name: 'Nouveau contact', exact: true }).click();
      const creation = page.getByRole('dialog', { name: 'Nouveau contact' });
      await creation.getByLabel('Nom', { exact: true }).fill(contactName);
      await creation.getByLabel('E-mail', { exact: true }).fill('jeanne@copro-test.fr');
      await creation.getByLabel('Fonction', { exact: true }).selectOption('Gardien');
      const added = apiResponse('/app/api/contacts', 'POST');
      await creation.getByRole('button', { name: 'Créer le contact', exact: true }).click();
      assert.equal((await added).status(), 201);
      await creation.waitFor({ state: 'hidden' });
      await contactRow().getByRole('cell', { name: 'Gardien', exact: true }).waitFor();

      await contactRow().getByRole('button', { name: `Modifier le contact « ${contactName} »`, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Modifier le contact « ${contactName} »` });
      await dialog.waitFor();
      assert.equal(await dialog.getByLabel('Nom', { exact: true }).inputValue(), contactName);
      assert.equal(await dialog.getByLabel('E-mail', { exact: true }).inputValue(), 'jeanne@copro-test.fr');
      const role = dialog.getByLabel('Fonction', { exact: true });
      assert.equal(await role.inputValue(), 'Gardien');

      // Un e-mail mal formé : refusé dans la fenêtre.
      await dialog.getByLabel('E-mail', { exact: true }).fill('jeanne');
      await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      await dialog.getByText("Le champ « E-mail » n'est pas une adresse e-mail valide : « jeanne ».", { exact: true }).waitFor();
      assert.equal(await dialog.getByLabel('E-mail', { exact: true }).getAttribute('aria-invalid'), 'true');

      await dialog.getByLabel('E-mail', { exact: true }).fill('jeanne@copro-test.fr');
      await role.fill('Syndic');
      const saved = page.waitForResponse(
        (r) => new URL(r.url()).pathname.startsWith('/app/api/contacts/') && r.request().method() === 'PATCH',
        { timeout: TIMEOUT },
      );
      await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      const response = await saved;
      assert.equal(response.status(), 200);
      assert.deepEqual(response.request().postDataJSON(), { role: 'Syndic' });
      assert.equal((await response.json()).role, 'Syndic');
      await dialog.waitFor({ state: 'hidden' });
      await contactRow().getByRole('cell', { name: 'Syndic', exact: true }).waitFor();
      await page.locator('.notice', { hasText: `Contact « ${contactName} » modifié.` }).waitFor();
      await shot('clients-edit-07-contact-modifie');
    });

    step('le contact supprimé après confirmation', async () => {
      const removeButton = contactRow().getByRole('button', { name: `Supprimer le contact « ${contactName} »`, exact: true });
      await removeButton.click();
      const confirm = page.getByRole('dialog', { name: `Supprimer le contact « ${contactName} » ?` });
      await confirm.waitFor();
      // Annuler ne supprime rien.
      await confirm.getByRole('button', { name: 'Annuler', exact: true }).click();
      await confirm.waitFor({ state: 'hidden' });
      await contactRow().waitFor();

      await removeButton.click();
      await confirm.getByText(/L'historique des actions garde ce qu'il contenait/).waitFor();
      await shot('clients-edit-08-confirmation-suppression');
      const removed = page.waitForResponse(
        (r) => new URL(r.url()).pathname.startsWith('/app/api/contacts/') && r.request().method() === 'DELETE',
        { timeout: TIMEOUT },
      );
      await confirm.getByRole('button', { name: 'Supprimer', exact: true }).click();
      assert.equal((await removed).status(), 204);
      await confirm.waitFor({ state: 'hidden' });
      await page.locator('.notice', { hasText: `Contact « ${contactName} » supprimé.` }).waitFor();
      assert.equal(await contactRow().count(), 0);

      // Relue, la fiche n'a plus le contact et garde le téléphone modifié.
      const reread = apiResponse(`/app/api/clients/${encodeURIComponent(clientId)}`, 'GET');
      await page.reload();
      const detail = await (await reread).json();
      assert.deepEqual(detail.contacts, []);
      assert.equal(detail.client.phone, '01 99 88 77 66');
      await clientHeading().waitFor();
      await page.getByText('Aucun contact.', { exact: true }).waitFor();
      await shot('clients-edit-09-contact-supprime');
      assert.deepEqual(pageErrors, []);
    });
  },
);
