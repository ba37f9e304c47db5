// Test de bout en bout « les pannes contre la montre » (issue 22, point 5), contre un serveur
// Liftdesk réel lancé sur la démo : le temps écoulé sur les cartes, l'ordre d'une colonne
// (personne bloquée, puis la plus ancienne), le nombre d'appels urgents dans le titre de
// l'onglet (tableau et autres écrans), la notification du bureau, le bandeau gardé après un
// rechargement jusqu'à « J'ai pris en compte » (qui le retire aussi des autres postes, sans
// rechargement), et le rapport de clôture (appel et carnet).
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/calls-clock.test.mjs'
//
// LIFTDESK_CREDENTIALS, LIFTDESK_ARTIFACTS, LIFTDESK_CHROMIUM : comme e2e/calls.test.mjs.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describeOnServer, STEP_TIMEOUT } from './harness.mjs';

describeOnServer(
  'les pannes contre la montre',
  {
    timeout: 12 * STEP_TIMEOUT,
    shots: 'chrono',
    viewport: { width: 1440, height: 900 },
    launchArgs: ['--autoplay-policy=no-user-gesture-required'],
    context: {
      timezoneId: 'Europe/Paris',
      permissions: ['notifications'],
      // Les notifications affichées sont notées (le vrai bureau n'existe pas en headless).
      prepare: (context) =>
        context.addInitScript(() => {
          window.__notifications = [];
          class RecordedNotification {
            static permission = 'granted';
            static requestPermission() {
              return Promise.resolve('granted');
            }
            constructor(title, options = {}) {
              window.__notifications.push({ title, body: options.body, tag: options.tag });
            }
            close() {}
          }
          window.Notification = RecordedNotification;
        }),
    },
  },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, appApi, signIn, http } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    let agencyId;
    let equipment;
    let urgentBefore = 0;
    const stamp = Date.now();
    const old = { reference: `CHRONO-VIEUX-${stamp}`, id: '' };
    const recent = { reference: `CHRONO-RECENT-${stamp}`, id: '' };
    const trapped = { reference: `CHRONO-BLOQUE-${stamp}`, id: '' };
    const TRAPPED_WORDS = 'Une dame bloquée au 2e, elle entend un clac.';

    async function callCenter(call, type, minutesAgo) {
      const body = { reference: call.reference, equipement: equipment.number, type, description: `${type} : ${call.reference}` };
      if (type === 'personne_bloquee') body.description = TRAPPED_WORDS;
      if (minutesAgo) body.recuLe = new Date(Date.now() - minutesAgo * 60_000).toISOString();
      const answer = await http('POST', '/api/partners/calls', { token: creds.callCenterKeys[0], body });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      call.id = answer.body.id;
    }

    /** Les références des cartes d'une colonne, dans l'ordre affiché. */
    const columnRefs = (statut) =>
      page.locator(`section[data-statut="${statut}"] .call-card .reference`).allTextContents();

    const notifications = () => page.evaluate(() => window.__notifications ?? []);

    before(() => {
      ({ page, creds } = ui);
      assert.ok(Array.isArray(creds.callCenterKeys) && creds.callCenterKeys.length > 0, 'callCenterKeys manquant');
      agencyId = creds.agencies[0].id;
    });

    step('connexion, deux appels ordinaires reçus il y a 2 h 05 et 20 min', async () => {
      const session = await signIn(creds.admin);
      if (session.agency?.id !== agencyId) {
        const switched = await appApi('PUT', '/session/agency', { agencyId });
        assert.equal(switched.status, 200);
        await page.reload();
      }
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      const found = await page.evaluate(async () => (await fetch('/app/api/calls/equipment?q=')).json());
      equipment = found.results.find((e) => e.number);
      assert.ok(equipment, 'aucun appareil numéroté dans le parc de la démo');
      const board = await page.evaluate(async () => (await fetch('/app/api/calls/board')).json());
      urgentBefore = board.columns
        .flatMap((c) => c.results)
        .filter((c) => c.urgence && c.statut !== 'resolue').length;

      await callCenter(old, 'panne', 125);
      await callCenter(recent, 'bruit', 20);
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Appels de panne' }).click();
      await page.getByRole('heading', { level: 1, name: 'Appels de panne', exact: true }).waitFor();
      const column = page.locator('section[data-statut="ouverte"]');
      const oldCard = column.locator('.call-card').filter({ hasText: old.reference });
      await oldCard.waitFor();
      // Le temps écoulé, et l'heure exacte dans <time datetime> et son title.
      const elapsed = oldCard.locator('time');
      assert.match((await elapsed.textContent()) ?? '', /il y a 2 h 0[56]/);
      assert.ok(Date.parse((await elapsed.getAttribute('datetime')) ?? '') > 0, 'datetime illisible');
      assert.match((await elapsed.getAttribute('title')) ?? '', /^Reçu le \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
      assert.match(
        (await column.locator('.call-card').filter({ hasText: recent.reference }).locator('time').textContent()) ?? '',
        /il y a 2[01] min/,
      );
      // La plus ancienne d'abord.
      const refs = await columnRefs('ouverte');
      assert.ok(refs.indexOf(old.reference) < refs.indexOf(recent.reference), refs.join(', '));
      await shot('chrono-01-temps-ecoule');
    });

    step('une personne bloquée : en tête de colonne, « (n) » dans le titre, une notification', async () => {
      assert.deepEqual(await notifications(), []);
      // Pas de demande de permission au chargement : le bouton est là, permission déjà accordée ici.
      await callCenter(trapped, 'personne_bloquee');
      const column = page.locator('section[data-statut="ouverte"]');
      await column.locator('.call-card').filter({ hasText: trapped.reference }).waitFor();
      const refs = await columnRefs('ouverte');
      const firstOrdinary = Math.min(refs.indexOf(old.reference), refs.indexOf(recent.reference));
      assert.ok(refs.indexOf(trapped.reference) < firstOrdinary, refs.join(', '));
      // Les personnes bloquées (démo comprise) d'abord, puis les autres du plus ancien au plus récent.
      const cards = await column.locator('.call-card').evaluateAll((els) =>
        els.map((el) => ({ urgent: el.classList.contains('urgent'), at: el.querySelector('time')?.getAttribute('datetime') })),
      );
      const firstCalm = cards.findIndex((c) => !c.urgent);
      if (firstCalm >= 0) assert.ok(cards.slice(firstCalm).every((c) => !c.urgent), JSON.stringify(cards));
      const calm = cards.filter((c) => !c.urgent).map((c) => Date.parse(c.at));
      assert.deepEqual(calm, [...calm].sort((a, b) => a - b));

      const prefix = `(${urgentBefore + 1}) `;
      await page.waitForFunction((p) => document.title.startsWith(p), prefix);
      if (urgentBefore === 0) assert.equal(await page.title(), '(1) Appels de panne — Liftdesk');
      await page.waitForFunction((ref) => (window.__notifications ?? []).some((n) => n.title.includes(ref)), trapped.reference);
      const shown = (await notifications()).filter((n) => n.title.includes(trapped.reference));
      assert.equal(shown.length, 1, JSON.stringify(shown));
      assert.equal(shown[0].title, `Personne bloquée : appel ${trapped.reference}`);
      await shot('chrono-02-personne-bloquee-en-tete');

      // Ailleurs aussi, le titre porte le nombre.
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Planning', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Planning', exact: true }).waitFor();
      await page.waitForFunction((p) => document.title.startsWith(`${p}Planning`), prefix);
    });

    step('« Activer les notifications » : ne demande rien au chargement, demande sur un clic', async () => {
      const other = await page.context().newPage();
      await other.addInitScript(() => {
        window.__asked = 0;
        class AskingNotification {
          static permission = 'default';
          static requestPermission() {
            window.__asked += 1;
            AskingNotification.permission = 'granted';
            return Promise.resolve('granted');
          }
          constructor() {}
          close() {}
        }
        window.Notification = AskingNotification;
      });
      await other.goto(new URL('/appels', baseUrl).href);
      await other.getByRole('heading', { level: 1, name: 'Appels de panne', exact: true }).waitFor();
      const button = other.getByRole('button', { name: 'Activer les notifications' });
      await button.waitFor();
      assert.equal(await other.evaluate(() => window.__asked), 0);
      await button.click();
      await button.waitFor({ state: 'detached' });
      assert.equal(await other.evaluate(() => window.__asked), 1);
      await other.close();
    });

    step('le bandeau survit au rechargement et ne part qu’avec « J’ai pris en compte »', async () => {
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Planning', exact: true }).waitFor();
      const alert = page.getByRole('alert').filter({ hasText: trapped.reference });
      await alert.waitFor();
      assert.equal(await alert.getByRole('button', { name: /^Fermer/ }).count(), 0, 'un simple « Fermer » reste');
      await page.goto(new URL('/appels', baseUrl).href);
      const onBoard = page.getByRole('alert').filter({ hasText: trapped.reference });
      await onBoard.waitFor();
      await shot('chrono-03-bandeau-apres-rechargement');
      // Un autre poste montre le même bandeau ; la prise en compte ici l'en retire aussitôt,
      // sans rechargement (le flux en direct la transmet).
      const elsewhere = await page.context().newPage();
      await elsewhere.goto(new URL('/planning', baseUrl).href);
      const elsewhereAlert = elsewhere.getByRole('alert').filter({ hasText: trapped.reference });
      await elsewhereAlert.waitFor();
      await onBoard.getByRole('button', { name: `J'ai pris en compte l'appel ${trapped.reference}` }).click();
      await onBoard.waitFor({ state: 'detached' });
      await elsewhereAlert.waitFor({ state: 'detached', timeout: 10_000 });
      await elsewhere.close();
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Appels de panne', exact: true }).waitFor();
      await page.locator('section[data-statut="ouverte"] .call-card').filter({ hasText: trapped.reference }).waitFor();
      assert.equal(await page.getByRole('alert').filter({ hasText: trapped.reference }).count(), 0);
      const detail = await page.evaluate(async (id) => (await fetch(`/app/api/calls/${id}`)).json(), trapped.id);
      assert.equal(typeof detail.acknowledgedAt, 'string');
    });

    step('clore demande le rapport ; l’appel et le carnet le montrent', async () => {
      await page.goto(new URL(`/appels/${trapped.id}`, baseUrl).href);
      await page.getByRole('heading', { level: 1, name: `Appel ${trapped.reference}`, exact: true }).waitFor();
      await page.getByRole('button', { name: 'Résolu (remis en service)', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: "Clore l'appel ?" });
      await dialog.waitFor();
      const when = dialog.getByLabel('Remise en service');
      assert.equal(await when.getAttribute('type'), 'datetime-local');
      assert.match(await when.inputValue(), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
      assert.equal(await when.getAttribute('max'), await when.inputValue());
      const confirm = dialog.getByRole('button', { name: "Confirmer : l'appareil est remis en service" });
      await confirm.click();
      await dialog.getByText("Pour clore l'appel, indiquez la cause de la panne.", { exact: true }).waitFor();
      await dialog.getByText("Pour clore l'appel, indiquez les travaux effectués.", { exact: true }).waitFor();
      await shot('chrono-04-rapport-refuse');
      // Le serveur refuse aussi (l'aide du navigateur contournée) : son message dans la fenêtre.
      const refused = await page.evaluate(async (id) => {
        const session = await (await fetch('/app/api/session')).json();
        const answer = await fetch(`/app/api/calls/${id}/status`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken },
          body: JSON.stringify({ statut: 'resolue', report: { cause: ' ', work: 'Rien' } }),
        });
        return { status: answer.status, body: await answer.json() };
      }, trapped.id);
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.match(JSON.stringify(refused.body), /indiquez la cause de la panne/);

      await dialog.getByLabel('Cause de la panne').fill('Contact de porte palière encrassé');
      await dialog.getByLabel('Travaux effectués').fill('Nettoyage du contact, essais en charge');
      await dialog.getByLabel('Pièces remplacées').fill('Galet de porte');
      await confirm.click();
      await page.getByTestId('statut').filter({ hasText: 'Résolue' }).waitFor();
      const report = page.getByRole('region', { name: 'Rapport de clôture' });
      await report.waitFor();
      const text = (await report.textContent()) ?? '';
      for (const expected of ['Contact de porte palière encrassé', 'Nettoyage du contact, essais en charge', 'Galet de porte']) {
        assert.ok(text.includes(expected), text);
      }
      await shot('chrono-05-appel-clos');

      await page.goto(new URL(`/equipements/${equipment.id}/carnet`, baseUrl).href);
      const row = page.locator('tr.panne').filter({ hasText: trapped.reference });
      await row.waitFor();
      const rowText = (await row.textContent()) ?? '';
      assert.match(rowText, /Cause : Contact de porte palière encrassé/);
      assert.match(rowText, /Travaux : Nettoyage du contact, essais en charge/);
      assert.match(rowText, /Pièces remplacées : Galet de porte/);
      assert.match(rowText, /Remise en service le \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
      assert.ok(!rowText.includes(TRAPPED_WORDS), "les mots de l'appelant restent dans le carnet");
      await shot('chrono-06-carnet');
      assert.deepEqual(pageErrors, []);
    });
  },
);
