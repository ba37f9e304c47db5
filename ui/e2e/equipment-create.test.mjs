// Test de bout en bout : un immeuble et un ascenseur créés depuis l'écran
// Équipements, l'accès à l'immeuble modifié, l'ascenseur rattaché à un autre
// client, archivé puis remis dans le parc, contre un serveur Liftdesk réel
// (démo).
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/equipment-create.test.mjs'
//
// L'administrateur de la démo ouvre « Nouvel équipement », puis « Nouvel
// immeuble… » : les refus côté client s'affichent sans rien envoyer ;
// « Résidence Test <unique> » est créé pour un client de la démo avec
// « Digicode » (4521B) et « Vigik », et se trouve choisi. Il crée l'ascenseur
// « ASC-T<unique> » (sous contrat, visites tous les 30 jours après un refus à
// 60), arrive sur sa fiche, y voit l'accès à l'immeuble et le digicode,
// ajoute « Coffre à clé » (« Loge du gardien »), puis rattache l'ascenseur à
// un autre client. Il l'archive (fenêtre de confirmation) : la fiche montre le
// bandeau « Équipement archivé le … » et ne propose plus « Changer de client »
// ni « Modifier l'accès » ; le parc ne le montre plus « Au parc », mais avec
// « État : Archivés » (marqué « Archivé ») ; « Remettre dans le parc » l'y
// ramène. Un second équipement au même numéro, dans l'immeuble
// retrouvé par son nom, est refusé par le serveur dans la fenêtre, le numéro
// signalé. Les noms et numéros sont propres à chaque passage et rien
// d'existant n'est modifié : le serveur de démo est partagé par tous les
// fichiers de test. Captures dans $LIFTDESK_ARTIFACTS/ui/.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describeOnServer, STEP_TIMEOUT, TIMEOUT } from './harness.mjs';

describeOnServer(
  'écran Équipements : immeuble et équipement créés, accès, changement de client, archivage',
  { timeout: 12 * STEP_TIMEOUT, shots: 'equipements-creation', viewport: { width: 1280, height: 1000 } },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;

    before(() => ({ page, creds } = ui));

    const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
    const buildingName = `Résidence Test ${stamp}`;
    const number = `ASC-T${stamp}`;
    /** Deux clients de la démo : celui de l'immeuble, puis celui vers lequel l'ascenseur part. */
    let first;
    let second;
    let buildingId;
    let equipmentId;

    const equipmentDialog = () => page.getByRole('dialog', { name: 'Nouvel équipement', exact: true });
    const buildingDialog = () => page.getByRole('dialog', { name: 'Nouvel immeuble', exact: true });
    const fact = async (field) => ((await page.locator(`[data-field="${field}"]`).textContent()) ?? '').trim();

    /** Choisit `client` dans le champ « Client » (liste cherchée au fil de la saisie) de `scope`. */
    async function pickClient(scope, label, client) {
      const found = page.waitForResponse(
        (r) =>
          new URL(r.url()).pathname === '/app/api/equipment/clients' &&
          new URL(r.url()).searchParams.get('q') === client.name,
        { timeout: TIMEOUT },
      );
      await scope.getByLabel(label, { exact: true }).fill(client.name);
      assert.equal((await found).status(), 200);
      await scope.getByRole('list', { name: `${label} : choix` }).getByRole('button', { name: client.name, exact: true }).click();
      await scope.getByText(`Choisi : ${client.name}`, { exact: true }).waitFor();
    }

    step("connexion de l'administrateur et « Nouvel équipement » : les champs, un numéro manquant refusé", async () => {
      await signIn(creds.admin);

      // Deux clients actifs de la démo (un client archivé est refusé), aucun nom contenant
      // l'autre, hors des clients que d'autres fichiers de test créent en même temps.
      const clients = await page.request.get(new URL('/app/api/clients?archived=active&limit=50&page=1', baseUrl).href);
      assert.equal(clients.status(), 200);
      const results = (await clients.json()).results.filter((c) => !c.archived && !/ Test /u.test(c.name));
      first = results[0];
      second = results.find((c) => !c.name.includes(first?.name) && !first?.name.includes(c.name));
      assert.ok(first && second, 'la démo a au moins deux clients actifs');

      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Équipements' }).click();
      await page.getByRole('heading', { level: 1, name: 'Équipements', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Nouvel équipement', exact: true }).click();
      const dialog = equipmentDialog();
      await dialog.waitFor();
      for (const label of [
        'Numéro',
        'Type',
        'Sous-type',
        'Emplacement',
        "Contrat d'entretien",
        'Numéro de contrat',
        'Numéro de série',
        'Client',
        'Immeuble',
        'Intervalle de visites (jours)',
      ]) {
        await dialog.getByLabel(label, { exact: true }).waitFor();
      }
      await dialog.getByRole('button', { name: 'Nouvel immeuble…', exact: true }).waitFor();

      let posts = 0;
      const countPosts = (request) => {
        if (new URL(request.url()).pathname === '/app/api/equipment' && request.method() === 'POST') posts += 1;
      };
      page.on('request', countPosts);
      await dialog.getByRole('button', { name: "Créer l'équipement", exact: true }).click();
      await dialog.getByText('Le champ « Numéro » est obligatoire.', { exact: true }).waitFor();
      assert.equal(await dialog.getByLabel('Numéro', { exact: true }).getAttribute('aria-invalid'), 'true');
      page.off('request', countPosts);
      assert.equal(posts, 0, 'rien n’est envoyé');
      await shot('equipements-creation-01-nouvel-equipement');
    });

    step('« Nouvel immeuble… » : refus côté client, puis création avec digicode et Vigik', async () => {
      await equipmentDialog().getByRole('button', { name: 'Nouvel immeuble…', exact: true }).click();
      const dialog = buildingDialog();
      await dialog.waitFor();
      assert.equal(await dialog.getByLabel('Code du digicode', { exact: true }).count(), 0, 'digicode caché sans « Digicode »');

      let posts = 0;
      const countPosts = (request) => {
        if (new URL(request.url()).pathname === '/app/api/buildings' && request.method() === 'POST') posts += 1;
      };
      page.on('request', countPosts);
      await dialog.getByLabel('Code postal', { exact: true }).fill('750');
      await dialog.getByRole('checkbox', { name: 'Autre', exact: true }).check();
      await dialog.getByRole('button', { name: "Créer l'immeuble", exact: true }).click();
      await dialog.getByText('Le champ « Adresse » est obligatoire.', { exact: true }).waitFor();
      await dialog
        .getByText("Le champ « Code postal » doit être un code postal français de cinq chiffres : « 750 » n'en est pas un.", {
          exact: true,
        })
        .waitFor();
      await dialog
        .getByText("Le champ « Précisions » est obligatoire quand « Autre » est choisi dans « Consignes d'accès ».", { exact: true })
        .waitFor();
      assert.equal(await dialog.getByLabel('Adresse', { exact: true }).getAttribute('aria-invalid'), 'true');
      page.off('request', countPosts);
      assert.equal(posts, 0, 'rien n’est envoyé');
      await shot('equipements-creation-02-immeuble-refus');

      await dialog.getByRole('checkbox', { name: 'Autre', exact: true }).uncheck();
      await dialog.getByLabel('Nom', { exact: true }).fill(buildingName);
      await dialog.getByLabel('Adresse', { exact: true }).fill(`${stamp.length} rue de l'Essai`);
      await dialog.getByLabel('Code postal', { exact: true }).fill('75011');
      await dialog.getByLabel('Ville', { exact: true }).fill('Paris');
      await pickClient(dialog, 'Client', first);
      await dialog.getByRole('checkbox', { name: 'Digicode', exact: true }).check();
      await dialog.getByLabel('Code du digicode', { exact: true }).fill('4521B');
      await dialog.getByRole('checkbox', { name: 'Vigik', exact: true }).check();
      assert.equal(await dialog.getByLabel('Coffre à clé — emplacement', { exact: true }).count(), 0);
      await shot('equipements-creation-03-immeuble-saisi');

      const created = apiResponse('/app/api/buildings', 'POST');
      await dialog.getByRole('button', { name: "Créer l'immeuble", exact: true }).click();
      const response = await created;
      assert.equal(response.status(), 201);
      const building = await response.json();
      buildingId = building.id;
      assert.equal(building.name, buildingName);
      assert.equal(building.client?.id, first.id);
      assert.deepEqual(building.access, { instructions: ['Digicode', 'Vigik'], other: null, digicode: '4521B', keyBox: null });
      await dialog.waitFor({ state: 'hidden' });

      // L'immeuble créé est choisi ; son client devient celui de l'équipement.
      const outer = equipmentDialog();
      await outer.getByText(`Immeuble « ${buildingName} — `).waitFor();
      assert.match(await outer.getByLabel('Immeuble', { exact: true }).inputValue(), new RegExp(`^${buildingName} — `));
      await outer.getByText(`Choisi : ${first.name}`, { exact: true }).waitFor();
      assert.equal(await outer.getByLabel('Client', { exact: true }).inputValue(), first.name);
    });

    step("l'ascenseur : un intervalle trop long refusé, puis créé ; sa fiche montre l'accès à l'immeuble", async () => {
      const dialog = equipmentDialog();
      await dialog.getByLabel('Numéro', { exact: true }).fill(number);
      await dialog.getByLabel('Type', { exact: true }).selectOption('ascenseur');
      await dialog.getByLabel("Contrat d'entretien", { exact: true }).selectOption('parc');
      await dialog.getByLabel('Emplacement', { exact: true }).fill('Hall A');
      await dialog.getByLabel('Intervalle de visites (jours)', { exact: true }).fill('60');
      await dialog.getByRole('button', { name: "Créer l'équipement", exact: true }).click();
      await dialog
        .getByText('Un ascenseur doit être visité au moins toutes les six semaines : 42 jours au plus.', { exact: true })
        .waitFor();
      await dialog.getByLabel('Intervalle de visites (jours)', { exact: true }).fill('30');
      await shot('equipements-creation-04-ascenseur-saisi');

      const created = apiResponse('/app/api/equipment', 'POST');
      await dialog.getByRole('button', { name: "Créer l'équipement", exact: true }).click();
      const response = await created;
      assert.equal(response.status(), 201, await response.text());
      assert.deepEqual(response.request().postDataJSON(), {
        number,
        type: 'ascenseur',
        location: 'Hall A',
        maintenanceContract: 'parc',
        buildingId,
        clientId: first.id,
        visitIntervalDays: 30,
      });
      equipmentId = (await response.json()).id;

      await page.getByRole('heading', { level: 1, name: `Équipement ${number}`, exact: true }).waitFor();
      assert.equal(new URL(page.url()).pathname, `/equipements/${equipmentId}`);
      assert.equal(await fact('client'), first.name);
      await page.getByRole('heading', { level: 2, name: "Accès à l'immeuble", exact: true }).waitFor();
      await page.locator('dd[data-field="digicode"]', { hasText: '4521B' }).waitFor();
      assert.equal(await fact('accessInstructions'), 'Digicode, Vigik');
      assert.equal(await fact('keyBox'), '—');
      await shot('equipements-creation-05-fiche');
    });

    step("« Modifier l'accès » : « Coffre à clé », « Loge du gardien »", async () => {
      await page.getByRole('button', { name: "Modifier l'accès", exact: true }).click();
      const dialog = page.getByRole('dialog', { name: "Modifier l'accès à l'immeuble", exact: true });
      await dialog.waitFor();
      assert.equal(await dialog.getByRole('checkbox', { name: 'Digicode', exact: true }).isChecked(), true);
      assert.equal(await dialog.getByRole('checkbox', { name: 'Vigik', exact: true }).isChecked(), true);
      assert.equal(await dialog.getByLabel('Code du digicode', { exact: true }).inputValue(), '4521B');
      await dialog.getByRole('checkbox', { name: 'Coffre à clé', exact: true }).check();
      await dialog.getByLabel('Coffre à clé — emplacement', { exact: true }).fill('Loge du gardien');

      const saved = apiResponse(`/app/api/buildings/${buildingId}/access`, 'PUT');
      await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      const response = await saved;
      assert.equal(response.status(), 200, await response.text());
      assert.deepEqual(response.request().postDataJSON(), {
        instructions: ['Digicode', 'Coffre à clé', 'Vigik'],
        other: null,
        digicode: '4521B',
        keyBox: 'Loge du gardien',
      });
      await dialog.waitFor({ state: 'hidden' });
      await page.locator('dd[data-field="keyBox"]', { hasText: 'Loge du gardien' }).waitFor();
      assert.equal(await fact('accessInstructions'), 'Digicode, Coffre à clé, Vigik');
      assert.equal(await fact('digicode'), '4521B');
      await page.locator('.notice', { hasText: "Consignes d'accès enregistrées." }).waitFor();
      await shot('equipements-creation-06-acces-modifie');
    });

    step('« Changer de client » : un choix manquant refusé, puis rattaché à un autre client', async () => {
      await page.getByRole('button', { name: 'Changer de client', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Changer de client', exact: true });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Rattacher au client', exact: true }).click();
      await dialog.getByText('Choisissez le nouveau client dans la liste.', { exact: true }).waitFor();
      await pickClient(dialog, 'Nouveau client', second);

      const moved = apiResponse(`/app/api/equipment/${equipmentId}/client`, 'POST');
      await dialog.getByRole('button', { name: 'Rattacher au client', exact: true }).click();
      const response = await moved;
      assert.equal(response.status(), 200, await response.text());
      assert.deepEqual(response.request().postDataJSON(), { clientId: second.id });
      await dialog.waitFor({ state: 'hidden' });
      await page.locator('.notice', { hasText: `Équipement rattaché au client « ${second.name} ».` }).waitFor();
      assert.equal(await fact('client'), second.name);
      await shot('equipements-creation-07-client-change');
    });

    /** Cherche l'ascenseur dans le parc avec l'état `state` (« État ») ; la réponse du serveur. */
    async function searchPark(state) {
      const listed = page.waitForResponse(
        (r) => {
          const url = new URL(r.url());
          return (
            url.pathname === '/app/api/equipment' &&
            url.searchParams.get('q') === number &&
            url.searchParams.get('archived') === state
          );
        },
        { timeout: TIMEOUT },
      );
      const search = page.getByLabel('Numéro, immeuble ou adresse', { exact: true });
      if ((await search.inputValue()) !== number) await search.fill(number);
      else await page.getByLabel('État', { exact: true }).selectOption(state);
      const response = await listed;
      assert.equal(response.status(), 200, await response.text());
      await page.locator('table.park[aria-busy="false"]').waitFor();
      return response.json();
    }

    const parkRow = () => page.locator('table.park tbody tr', { has: page.getByRole('link', { name: number, exact: true }) });

    step("« Archiver l'équipement » : confirmation, bandeau, plus de changement de client ni d'accès", async () => {
      await page.getByRole('button', { name: "Archiver l'équipement", exact: true }).click();
      const dialog = page.getByRole('dialog', { name: "Archiver l'équipement", exact: true });
      await dialog.waitFor();
      await dialog
        .getByText(
          "Il sortira du parc, du plan d'entretien et du taux de connaissance du parc ; ses visites prévues non commencées seront annulées ; il ne recevra plus d'appel ni de visite. Son historique est conservé.",
          { exact: true },
        )
        .waitFor();
      await shot('equipements-creation-08-archiver-confirmation');

      const archived = apiResponse(`/app/api/equipment/${equipmentId}/archive`, 'POST');
      await dialog.getByRole('button', { name: 'Archiver', exact: true }).click();
      const response = await archived;
      assert.equal(response.status(), 200, await response.text());
      const { archivedAt } = await response.json();
      assert.ok(archivedAt, 'la fiche relue porte sa date d’archivage');
      await dialog.waitFor({ state: 'hidden' });

      const day = new Intl.DateTimeFormat('fr-FR', { day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date(archivedAt));
      await page.getByText(`Équipement archivé le ${day} : il ne fait plus partie du parc.`, { exact: true }).waitFor();
      await page.locator('.notice', { hasText: 'Équipement archivé.' }).waitFor();
      await page.getByRole('button', { name: 'Remettre dans le parc', exact: true }).waitFor();
      assert.equal(await page.getByRole('button', { name: "Archiver l'équipement", exact: true }).count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Changer de client', exact: true }).count(), 0);
      assert.equal(await page.getByRole('button', { name: "Modifier l'accès", exact: true }).count(), 0);
      // Tout reste lisible : le client, l'accès à l'immeuble.
      assert.equal(await fact('client'), second.name);
      assert.equal(await fact('digicode'), '4521B');
      await shot('equipements-creation-09-archive');
    });

    step('le parc : absent « Au parc », trouvé et marqué « Archivé » avec « État : Archivés »', async () => {
      await page.getByRole('link', { name: '← Parc', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Équipements', exact: true }).waitFor();
      assert.equal(await page.getByLabel('État', { exact: true }).inputValue(), 'active');

      const active = await searchPark('active');
      assert.equal(active.total, 0);
      await page.getByText('Aucun équipement ne correspond.', { exact: true }).waitFor();

      const archived = await searchPark('archived');
      assert.deepEqual(
        archived.results.map((e) => e.id),
        [equipmentId],
      );
      await parkRow().waitFor();
      assert.equal(await parkRow().locator('[data-testid="archived-badge"]').textContent(), 'Archivé');
      assert.equal(((await parkRow().locator('td').nth(3).textContent()) ?? '').trim(), second.name);
      await shot('equipements-creation-10-parc-archives');

      const all = await searchPark('all');
      assert.ok(all.results.some((e) => e.id === equipmentId), '« Tous » le montre aussi');
    });

    step('« Remettre dans le parc » : le bandeau disparaît, le parc le montre de nouveau', async () => {
      await parkRow().getByRole('link', { name: number, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: `Équipement ${number}`, exact: true }).waitFor();

      const restored = apiResponse(`/app/api/equipment/${equipmentId}/restore`, 'POST');
      await page.getByRole('button', { name: 'Remettre dans le parc', exact: true }).click();
      const response = await restored;
      assert.equal(response.status(), 200, await response.text());
      assert.equal((await response.json()).archivedAt, null);
      await page.locator('.notice', { hasText: 'Équipement remis dans le parc.' }).waitFor();
      assert.equal(await page.locator('[data-testid="archived-note"]').count(), 0);
      await page.getByRole('button', { name: "Archiver l'équipement", exact: true }).waitFor();
      await page.getByRole('button', { name: 'Changer de client', exact: true }).waitFor();
      await page.getByRole('button', { name: "Modifier l'accès", exact: true }).waitFor();
      await shot('equipements-creation-11-remis-au-parc');

      await page.getByRole('link', { name: '← Parc', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Équipements', exact: true }).waitFor();
      const active = await searchPark('active');
      assert.deepEqual(
        active.results.map((e) => e.id),
        [equipmentId],
      );
      await parkRow().waitFor();
      assert.equal(await parkRow().locator('[data-testid="archived-badge"]').count(), 0);
      await parkRow().getByRole('link', { name: number, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: `Équipement ${number}`, exact: true }).waitFor();
    });

    step('un second équipement au même numéro : refusé par le serveur dans la fenêtre, la saisie gardée', async () => {
      await page.getByRole('link', { name: '← Parc', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Équipements', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Nouvel équipement', exact: true }).click();
      const dialog = equipmentDialog();
      await dialog.waitFor();
      const same = number.toLowerCase();
      await dialog.getByLabel('Numéro', { exact: true }).fill(same);
      await dialog.getByLabel('Emplacement', { exact: true }).fill('Hall B');

      // L'immeuble créé se retrouve par son nom : « adresse, CP ville — client » ; son client est proposé.
      const searched = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/buildings' && new URL(r.url()).searchParams.get('q') === buildingName,
        { timeout: TIMEOUT },
      );
      await dialog.getByLabel('Immeuble', { exact: true }).fill(buildingName);
      const found = await (await searched).json();
      assert.deepEqual(found.accessValues, ['Sans', 'Digicode', 'Coffre à clé', 'Vigik', 'Autre']);
      assert.ok(found.results.some((b) => b.id === buildingId));
      const line = `${stamp.length} rue de l'Essai, 75011 Paris — ${first.name}`;
      await dialog.getByRole('list', { name: 'Immeuble : choix' }).getByRole('button', { name: line }).click();
      await dialog.getByText(`Choisi : ${line}`, { exact: true }).waitFor();
      assert.equal(await dialog.getByLabel('Client', { exact: true }).inputValue(), first.name);

      const refused = apiResponse('/app/api/equipment', 'POST');
      await dialog.getByRole('button', { name: "Créer l'équipement", exact: true }).click();
      const response = await refused;
      assert.ok([409, 422].includes(response.status()), `statut ${response.status()}`);
      const { error } = await response.json();
      await dialog.getByRole('alert').filter({ hasText: error }).waitFor();
      assert.match(error, /déjà utilisé/);
      assert.equal(await dialog.getByLabel('Numéro', { exact: true }).getAttribute('aria-invalid'), 'true');
      assert.equal(await dialog.getByLabel('Numéro', { exact: true }).inputValue(), same);
      assert.equal(await dialog.getByLabel('Emplacement', { exact: true }).inputValue(), 'Hall B');
      await shot('equipements-creation-12-numero-pris');
      await dialog.getByRole('button', { name: 'Annuler', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      assert.deepEqual(pageErrors, []);
    });
  },
);
