// Test de bout en bout des appels de panne, contre un serveur Liftdesk réel lancé sur la démo :
// un appel « personne bloquée » envoyé à l'API des centres d'appels apparaît sur le tableau
// sans rechargement, avec l'alerte ; on l'ouvre, on l'affecte, on le résout, et l'événement
// `appel.clos` est en file pour l'abonnement webhook créé au départ.
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/calls.test.mjs'
//
// LIFTDESK_CREDENTIALS : {"admin": {"email","password","apiToken"}, "agencies": [{"id","name"}, …],
//                         "callCenterKeys": ["svc_…", …]} (les clés sont celles de la première agence).
// LIFTDESK_ARTIFACTS   : dossier des captures (défaut : ../test-artifacts), écrites dans <dossier>/ui/.
// LIFTDESK_CHROMIUM    : navigateur à piloter (défaut : /usr/bin/chromium).

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describeOnServer, STEP_TIMEOUT } from './harness.mjs';

const HOOK_URL = 'https://receveur.invalid/hook';

describeOnServer(
  'appels de panne en direct',
  {
    timeout: 10 * STEP_TIMEOUT,
    shots: 'appels',
    viewport: { width: 1440, height: 900 },
    // L'alerte sonore sans clic préalable (un poste d'accueil l'autorise une fois pour toutes).
    launchArgs: ['--autoplay-policy=no-user-gesture-required'],
  },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, appApi, signIn, http } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    let agencyId;
    let subscriptionId;
    let reference;
    let callId;
    let adminName;

    before(() => {
      ({ page, creds } = ui);
      assert.ok(creds.admin.apiToken, 'admin incomplet');
      assert.ok(Array.isArray(creds.callCenterKeys) && creds.callCenterKeys.length > 0, 'callCenterKeys manquant');
      assert.ok(creds.agencies?.[0]?.id, 'agencies manquant');
      agencyId = creds.agencies[0].id;
    });

    step("abonnement webhook à appel.clos (API REST, jeton de l'administrateur)", async () => {
      const { status, body } = await http('POST', '/api/v2/webhooks', {
        token: creds.admin.apiToken,
        agency: agencyId,
        body: { url: HOOK_URL, events: ['appel.clos'] },
      });
      assert.equal(status, 201, JSON.stringify(body));
      assert.equal(typeof body.id, 'string');
      assert.equal(typeof body.secret, 'string');
      subscriptionId = body.id;
    });

    step("connexion de l'administrateur et tableau des appels", async () => {
      const session = await signIn(creds.admin);
      adminName = session.account.name;
      if (session.agency?.id !== agencyId) {
        // Les clés de centre d'appels de la démo sont celles de la première agence.
        const switched = await appApi('PUT', '/session/agency', { agencyId });
        assert.equal(switched.status, 200);
        await page.reload();
      }
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Appels de panne' }).click();
      await page.getByRole('heading', { level: 1, name: 'Appels de panne', exact: true }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/appels');
      for (const title of ['Ouverte', 'Technicien en route', 'Technicien sur place', "Appareil à l'arrêt", 'Résolue']) {
        await page.getByRole('heading', { level: 2, name: new RegExp(`^${title} \\d+ appels?$`) }).waitFor();
      }
      await page.getByRole('status').filter({ hasText: 'En direct' }).waitFor();
      await shot('appels-01-tableau');
    });

    step('un appel « personne bloquée » du centre d’appels apparaît sans rechargement, avec l’alerte', async () => {
      // Un appareil du parc de l'agence, par la recherche de l'écran.
      const found = await page.evaluate(async () => (await fetch('/app/api/calls/equipment?q=')).json());
      const equipment = found.results.find((e) => e.number);
      assert.ok(equipment, 'aucun appareil numéroté dans le parc de la démo');

      await page.evaluate(() => {
        window.__pasDeRechargement = true;
      });
      reference = `E2E-${Date.now()}`;
      const { status, body } = await http('POST', '/api/partners/calls', {
        token: creds.callCenterKeys[0],
        body: {
          reference,
          equipement: equipment.number,
          type: 'personne_bloquee',
          description: 'Deux personnes bloquées entre le 3e et le 4e étage.',
          appelant: 'Gardien de la résidence',
        },
      });
      assert.equal(status, 201, JSON.stringify(body));
      assert.equal(body.statut, 'ouverte');
      callId = body.id;

      const alert = page.getByRole('alert').filter({ hasText: reference });
      await alert.waitFor();
      assert.match((await alert.textContent()) ?? '', /Personne bloquée : nouvel appel E2E-\d+ reçu à/);
      // Alerte sonore jouée (WebAudio) : l'attribut passe de « en_cours » à « joue ».
      await page.waitForFunction(
        (ref) => [...document.querySelectorAll('[role="alert"]')].some((el) => el.textContent.includes(ref) && el.dataset.son === 'joue'),
        reference,
      );
      const column = page.locator('section[data-statut="ouverte"]');
      const card = column.getByRole('link').filter({ hasText: reference });
      await card.waitFor();
      assert.match((await card.textContent()) ?? '', /Personne bloquée/);
      assert.match((await card.getAttribute('class')) ?? '', /urgent/);
      assert.equal(await page.evaluate(() => window.__pasDeRechargement), true, 'la page a été rechargée');
      await shot('appels-02-alerte');
    });

    step("ouvrir l'appel, l'affecter au technicien suggéré et le résoudre", async () => {
      await page.getByRole('link', { name: `Ouvrir l'appel ${reference}`, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: `Appel ${reference}`, exact: true }).waitFor();
      assert.equal(new URL(page.url()).pathname, `/appels/${callId}`);
      const timeline = page.getByRole('region', { name: 'Historique' });
      await timeline.getByText('Appel reçu', { exact: true }).waitFor();
      await timeline.getByText(/\(centre d'appels\)$/).waitFor();

      const select = page.getByLabel('Technicien', { exact: true });
      const options = await select.locator('option').evaluateAll((els) => els.map((o) => ({ value: o.value, text: o.textContent })));
      const real = options.filter((o) => o.value !== '');
      assert.ok(real.length > 0, 'aucun technicien proposé');
      // Le technicien d'astreinte, s'il y en a un, est proposé d'office et en premier.
      const suggested = real.find((o) => o.text.includes("d'astreinte (suggéré)"));
      if (suggested) {
        assert.equal(real[0].value, suggested.value);
        assert.equal(await select.inputValue(), suggested.value);
      } else {
        await select.selectOption(real[0].value);
      }
      await shot('appels-03-detail-ouvert');
      const name = (real.find((o) => o.value === (suggested ?? real[0]).value)?.text ?? '').split(' · ')[0];
      await page.getByRole('button', { name: 'Affecter', exact: true }).click();
      await page.getByText(`Appel affecté à ${name}.`, { exact: true }).waitFor();
      await timeline.getByText(`Affecté à ${name}`, { exact: true }).waitFor();
      await timeline.getByText(`par ${adminName}`, { exact: true }).first().waitFor();

      // Seuls les statuts permis sont proposés : depuis « Ouverte » avec un technicien.
      const buttons = page.getByRole('group', { name: 'Statut' }).getByRole('button');
      assert.deepEqual(
        (await buttons.allTextContents()).map((t) => t.trim()),
        ['Technicien en route', 'Technicien sur place', 'Résolu (remis en service)'],
      );
      await page.getByRole('button', { name: 'Technicien sur place', exact: true }).click();
      await page.getByText('Statut mis à jour.', { exact: true }).waitFor();
      await page.getByTestId('statut').filter({ hasText: 'Technicien sur place' }).waitFor();

      await page.getByRole('button', { name: 'Résolu (remis en service)', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: "Clore l'appel ?" });
      await dialog.waitFor();
      // Clore demande le rapport (voir aussi e2e/calls-clock.test.mjs).
      await dialog.getByLabel('Cause de la panne').fill('Porte de cabine hors de ses guides');
      await dialog.getByLabel('Travaux effectués').fill('Désincarcération, porte recalée et essais');
      await dialog.getByRole('button', { name: "Confirmer : l'appareil est remis en service" }).click();
      await page.getByTestId('statut').filter({ hasText: 'Résolue' }).waitFor();
      await timeline.getByText('Résolu : remis en service', { exact: true }).waitFor();
      assert.equal(await page.getByRole('group', { name: 'Statut' }).count(), 0);
      await page.getByText("L'appel est résolu : son statut ne change plus.", { exact: true }).waitFor();
      await shot('appels-04-detail-resolu');
    });

    step('appel.clos est en file pour l’abonnement', async () => {
      const { status, body } = await http('GET', `/api/v2/webhooks/${subscriptionId}/deliveries?limit=200`, {
        token: creds.admin.apiToken,
        agency: agencyId,
      });
      assert.equal(status, 200, JSON.stringify(body));
      const delivery = body.results.find((d) => d.event === 'appel.clos' && d.objectId === callId);
      assert.ok(delivery, `aucune livraison appel.clos pour ${callId} : ${JSON.stringify(body.results)}`);
      assert.ok(['en_attente', 'echec', 'livree'].includes(delivery.status), delivery.status);
      // Le centre d'appels voit l'appel résolu.
      const tracked = await http('GET', `/api/partners/calls/${encodeURIComponent(reference)}`, {
        token: creds.callCenterKeys[0],
      });
      assert.equal(tracked.status, 200);
      assert.equal(tracked.body.statut, 'resolue');
      assert.equal(typeof tracked.body.arriveLe, 'string');
      assert.equal(typeof tracked.body.resoluLe, 'string');
      assert.deepEqual(pageErrors, []);
    });

    step('« Nouvel appel » : validation côté client, raison du serveur, saisie gardée', async () => {
      await page.getByRole('link', { name: '← Tableau des appels' }).click();
      await page.getByRole('heading', { level: 1, name: 'Appels de panne', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Nouvel appel', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Nouvel appel' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: "Enregistrer l'appel" }).click();
      await dialog.getByText("Choisissez l'appareil dans la liste.", { exact: true }).waitFor();
      await dialog.getByText("Choisissez le type d'appel.", { exact: true }).waitFor();
      await dialog.getByText('La description doit compter de 3 à 1000 caractères (actuellement : 0).', { exact: true }).waitFor();

      // Un texte qui ne désigne aucun appareil ne choisit rien : la liste le dit, l'envoi est retenu.
      const equipment = dialog.getByLabel('Appareil', { exact: true });
      await equipment.pressSequentially('ZZZ-INCONNU-0', { delay: 10 });
      await dialog.getByText('Aucun appareil du parc ne correspond à « ZZZ-INCONNU-0 ».', { exact: true }).waitFor();
      await dialog.getByLabel("Type d'appel").selectOption('panne');
      await dialog.getByLabel("Description (ce que l'appelant signale)").fill('Porte palière bloquée ouverte.');
      await dialog.getByRole('button', { name: "Enregistrer l'appel" }).click();
      await dialog.getByText("Choisissez l'appareil dans la liste.", { exact: true }).waitFor();

      // L'appareil choisi dans la recherche.
      await equipment.fill('');
      await equipment.pressSequentially('ASC', { delay: 20 });
      const results = dialog.getByRole('list', { name: 'Appareil : choix' });
      await results.waitFor();
      const first = results.getByRole('button').first();
      const number = ((await first.locator('strong').textContent()) ?? '').trim();
      assert.ok(number.length > 0);
      await first.click();
      assert.equal(await equipment.inputValue(), number);
      await dialog.getByText(`Choisi : ${number}`, { exact: true }).waitFor();

      // La raison du serveur s'affiche et la saisie est gardée : l'appareil disparu entre-temps
      // (identifiant inconnu du serveur, substitué dans la requête envoyée).
      await page.route('**/app/api/calls', async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        const body = JSON.parse(route.request().postData() ?? '{}');
        assert.ok(body.equipmentId, `equipmentId attendu : ${route.request().postData()}`);
        await route.continue({ postData: JSON.stringify({ ...body, equipmentId: '00000000-0000-4000-8000-000000000000' }) });
      });
      const refused = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/calls' && r.request().method() === 'POST',
      );
      await dialog.getByRole('button', { name: "Enregistrer l'appel" }).click();
      const refusal = await refused;
      assert.ok(refusal.status() >= 400 && refusal.status() < 500, `refus attendu : ${refusal.status()}`);
      const reason = (await refusal.json()).error;
      assert.ok(reason, 'le serveur donne sa raison');
      await dialog.getByRole('alert').filter({ hasText: reason }).waitFor();
      assert.equal(await dialog.getByLabel("Description (ce que l'appelant signale)").inputValue(), 'Porte palière bloquée ouverte.');
      assert.equal(await equipment.inputValue(), number);
      await shot('appels-05-nouvel-appel-refuse');
      await page.unroute('**/app/api/calls');

      // L'appareil choisi : l'appel est créé et son détail s'ouvre.
      await dialog.getByLabel('Appelant (facultatif)').fill("Accueil de l'immeuble");
      await dialog.getByRole('button', { name: "Enregistrer l'appel" }).click();
      const heading = page.getByRole('heading', { level: 1, name: /^Appel AG-\d{4}-\d{5}$/ });
      await heading.waitFor();
      assert.match(new URL(page.url()).pathname, /^\/appels\/[0-9a-f-]{36}$/);
      await page.getByRole('region', { name: 'Historique' }).getByText(`par ${adminName}`, { exact: true }).waitFor();
      await page.getByText("Pris à l'agence", { exact: true }).waitFor();
      assert.deepEqual(pageErrors, []);
    });

    step('sur un autre écran, un appel « personne bloquée » s’annonce aussi', async () => {
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Planning', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Planning', exact: true }).waitFor();
      const found = await page.evaluate(async () => (await fetch('/app/api/calls/equipment?q=')).json());
      const ref = `E2E-AILLEURS-${Date.now()}`;
      const { status, body } = await http('POST', '/api/partners/calls', {
        token: creds.callCenterKeys[0],
        body: {
          reference: ref,
          equipement: found.results.find((e) => e.number).number,
          type: 'personne_bloquee',
          description: 'Une personne bloquée au rez-de-chaussée.',
        },
      });
      assert.equal(status, 201, JSON.stringify(body));
      const alert = page.getByRole('alert').filter({ hasText: ref });
      await alert.waitFor();
      assert.match((await alert.textContent()) ?? '', /Personne bloquée : appel E2E-AILLEURS-\d+ reçu à/);
      await shot('appels-06-alerte-sur-le-planning');
      await alert.getByRole('link', { name: `Ouvrir l'appel ${ref}` }).click();
      await page.waitForURL((url) => url.pathname === `/appels/${body.id}`);
      await page.getByRole('heading', { level: 1, name: new RegExp(`Appel ${ref}`) }).waitFor();
    });

    step('flux coupé : le tableau se relit toutes les 15 s', async () => {
      await page.route('**/app/api/calls/events', (route) => route.abort());
      await page.goto(new URL('/appels', baseUrl).href);
      await page.getByRole('heading', { level: 1, name: 'Appels de panne', exact: true }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Direct interrompu : actualisation toutes les 15 s' }).waitFor();
      const found = await page.evaluate(async () => (await fetch('/app/api/calls/equipment?q=')).json());
      const ref = `E2E-RELU-${Date.now()}`;
      const { status } = await http('POST', '/api/partners/calls', {
        token: creds.callCenterKeys[0],
        body: { reference: ref, equipement: found.results.find((e) => e.number).number, type: 'bruit', description: 'Grincement en montée.' },
      });
      assert.equal(status, 201);
      await page
        .locator('section[data-statut="ouverte"]')
        .getByRole('link')
        .filter({ hasText: ref })
        .waitFor({ timeout: 25_000 });
      await page.unroute('**/app/api/calls/events');
    });
  },
);
