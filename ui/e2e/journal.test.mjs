// Test de bout en bout de l'écran « Journal » et de l'historique des fiches, contre un serveur
// Liftdesk réel lancé sur la démo :
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/journal.test.mjs'
//
// LIFTDESK_URL, LIFTDESK_CREDENTIALS (voir keys.test.mjs) ; LIFTDESK_ARTIFACTS : dossier des
// captures (écrites dans <dossier>/ui/) ; LIFTDESK_CHROMIUM : navigateur (défaut /usr/bin/chromium).
//
// L'administratrice de la démo ouvre « Journal » (au menu après « Agence ») : les entrées de
// l'agence, du plus récent au plus ancien, et « Entrées plus anciennes » qui ajoute la page
// suivante. Elle crée « Journal Test <unique> » (par l'API, avec le jeton CSRF de la session),
// filtre « Type d'objet : Client » puis sa propre personne et voit sa « Création » en tête ; une
// période inversée est refusée (message du serveur), une période sans entrée le dit. Le lien de
// l'objet ouvre la fiche du client, dont « Historique » (replié, lu à l'ouverture) montre la
// création ; la fiche d'un ascenseur de la démo aussi. Enfin un membre n'a pas « Journal » au menu,
// lit le refus du serveur s'il ouvre l'adresse, mais lit l'historique des fiches. Le serveur de
// démo est partagé par les tests : le client a un nom propre à chaque passage, et d'autres
// entrées peuvent s'intercaler.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describeOnServer, STEP_TIMEOUT, TIMEOUT } from './harness.mjs';

const JOURNAL_PATH = '/app/api/journal';

const T = {
  menu: 'Menu principal',
  journal: 'Journal',
  agency: 'Agence',
  type: "Type d'objet",
  person: 'Personne',
  from: 'Du',
  to: 'Au',
  search: 'Rechercher',
  reset: 'Effacer les filtres',
  older: 'Entrées plus anciennes',
  empty: 'Aucune entrée pour ces filtres.',
  history: 'Historique',
  creation: 'Création',
  inverted: 'La période est inversée : « from » doit précéder ou égaler « to ».',
  forbidden: "Consulter le journal de l'agence est réservé à un administrateur de l'agence.",
};

describeOnServer(
  'journal et historique des fiches',
  {
    timeout: 12 * STEP_TIMEOUT,
    shots: 'journal',
    accounts: ['admin', 'member'],
    context: { timezoneId: 'Europe/Paris' },
  },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse, signIn, signOut, callApi } = ui;
    const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
    const clientName = `Journal Test ${stamp}`;

    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    /** L'administratrice (nom lu à la connexion) et le client du test (identifiant `CLI-…`). */
    let adminName = '';
    let clientRef = '';
    /** Un ascenseur de la démo : le chemin de sa fiche. */
    let equipmentPath = '';

    /** Une lecture du journal dont les paramètres comprennent `params` (les autres absents si `only`). */
    const journalRead = (params = {}, { only = false } = {}) =>
      page.waitForResponse(
        (r) => {
          const url = new URL(r.url());
          if (url.pathname !== JOURNAL_PATH || r.request().method() !== 'GET') return false;
          const wanted = Object.entries(params);
          if (only && [...url.searchParams.keys()].length !== wanted.length) return false;
          return wanted.every(([key, value]) => url.searchParams.get(key) === String(value));
        },
        { timeout: TIMEOUT },
      );

    const menu = () => page.getByRole('navigation', { name: T.menu });
    const menuNames = async () => (await menu().getByRole('link').allTextContents()).map((s) => s.trim());
    const journalTable = () => page.getByRole('table', { name: "Journal de l'agence", exact: true });
    const rows = (table) => table.locator('tbody tr');
    const historySummary = () => page.locator('details.history > summary', { hasText: T.history });
    const historyTable = () => page.getByRole('table', { name: T.history, exact: true });

    before(() => ({ page, creds } = ui));

    step("l'administratrice ouvre « Journal » : les entrées de l'agence, du plus récent au plus ancien", async () => {
      const session = await signIn(creds.admin);
      adminName = session.account.name;
      assert.ok(adminName, "l'administratrice a un nom");
      const names = await menuNames();
      assert.ok(names.includes(T.journal), `« Journal » au menu : ${names.join(', ')}`);
      assert.equal(names.indexOf(T.journal), names.indexOf(T.agency) + 1, '« Journal » vient après « Agence »');

      const read = journalRead({}, { only: true });
      await menu().getByRole('link', { name: T.journal, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: T.journal, exact: true }).waitFor();
      const res = await read;
      assert.equal(res.status(), 200);
      const answer = await res.json();
      assert.equal(new URL(page.url()).pathname, '/journal');
      assert.ok(answer.entries.length > 0, 'la démo a un journal');
      assert.ok(answer.next !== null, 'plus de 50 entrées : une page suivante');
      const seqs = answer.entries.map((e) => e.seq);
      assert.deepEqual(seqs, [...seqs].sort((a, b) => b - a), 'du plus récent au plus ancien');

      await journalTable().waitFor();
      assert.equal(await rows(journalTable()).count(), answer.entries.length);
      const headers = (await journalTable().locator('thead th').allTextContents()).map((s) => s.trim());
      assert.deepEqual(headers, ['Date et heure', 'Qui', 'Action', 'Objet', 'Détail']);
      // La première ligne : l'heure de Paris, l'action en clair.
      const first = rows(journalTable()).first();
      assert.match(((await first.locator('td').first().textContent()) ?? '').trim(), /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
      assert.equal(((await first.locator('td').nth(2).textContent()) ?? '').trim(), answer.entries[0].actionLabel);

      // Les filtres : les types d'objets du serveur, les personnes de l'agence.
      const types = (await page.getByLabel(T.type, { exact: true }).locator('option').allTextContents()).map((s) => s.trim());
      assert.deepEqual(types, ['Tous', ...answer.objectTypes.map((t) => t.label)]);
      const people = (await page.getByLabel(T.person, { exact: true }).locator('option').allTextContents()).map((s) =>
        s.trim(),
      );
      assert.equal(people[0], 'Tout le monde');
      assert.ok(people.includes(adminName), `« ${adminName} » parmi les personnes`);
      await page.getByLabel(T.from, { exact: true }).waitFor();
      await page.getByLabel(T.to, { exact: true }).waitFor();
      await shot('journal-01-liste');
    });

    step('« Entrées plus anciennes » ajoute la page suivante', async () => {
      const before = await rows(journalTable()).count();
      const firstSeq = await rows(journalTable()).first().getAttribute('data-seq');
      const read = page.waitForResponse(
        (r) => new URL(r.url()).pathname === JOURNAL_PATH && new URL(r.url()).searchParams.has('before'),
        { timeout: TIMEOUT },
      );
      await page.getByRole('button', { name: T.older, exact: true }).click();
      const res = await read;
      assert.equal(res.status(), 200);
      const answer = await res.json();
      assert.ok(answer.entries.length > 0);
      await rows(journalTable()).nth(before + answer.entries.length - 1).waitFor();
      assert.equal(await rows(journalTable()).count(), before + answer.entries.length);
      assert.equal(await rows(journalTable()).first().getAttribute('data-seq'), firstSeq, 'la suite est ajoutée après');
      const lastShownBefore = Number(await rows(journalTable()).nth(before - 1).getAttribute('data-seq'));
      assert.ok(answer.entries.every((e) => e.seq < lastShownBefore), 'des entrées plus anciennes');
    });

    step('un client créé : sa « Création » en tête du filtre « Client », puis de la personne', async () => {
      const created = await callApi('POST', '/app/api/clients', { name: clientName });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      clientRef = created.body.client.id;
      assert.match(clientRef, /^CLI-/);

      await page.getByLabel(T.type, { exact: true }).selectOption({ label: 'Client' });
      const read = journalRead({ objectType: 'client' }, { only: true });
      await page.getByRole('button', { name: T.search, exact: true }).click();
      const answer = await (await read).json();
      assert.ok(answer.entries.every((e) => e.objectType === 'client'));
      const index = answer.entries.findIndex((e) => e.objectLabel === clientName);
      // Seul, le test la voit en tête ; d'autres tests créent parfois un client en même temps.
      assert.ok(index >= 0 && index < 5, `la création du client en tête (rang ${index})`);
      assert.equal(answer.entries[index].actionLabel, T.creation);
      assert.equal(answer.entries[index].actor.name, adminName);

      await journalTable().waitFor();
      const types = await rows(journalTable()).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-type')));
      assert.ok(types.length > 0 && types.every((t) => t === 'client'));
      const row = rows(journalTable()).nth(index);
      const cells = (await row.locator('td').allTextContents()).map((s) => s.replace(/\s+/g, ' ').trim());
      assert.equal(cells[1], adminName, 'qui : le nom seul pour le personnel');
      assert.equal(cells[2], T.creation);
      assert.equal(cells[3], `Client ${clientName}`);
      const detail = (await row.locator('td').nth(4).locator('div').allTextContents()).map((s) => s.trim());
      assert.deepEqual(detail, [`Client : ${clientRef}`, 'Contacts : 0']);
      const link = row.getByRole('link', { name: clientName, exact: true });
      assert.equal(await link.getAttribute('href'), `/clients/${encodeURIComponent(clientRef)}`);
      await shot('journal-02-filtre-client');

      // Ce que l'administratrice a fait, parmi les clients.
      const admin = await page
        .getByLabel(T.person, { exact: true })
        .locator('option', { hasText: adminName })
        .first()
        .getAttribute('value');
      await page.getByLabel(T.person, { exact: true }).selectOption(admin);
      const mine = journalRead({ objectType: 'client', accountId: admin }, { only: true });
      await page.getByRole('button', { name: T.search, exact: true }).click();
      const own = await (await mine).json();
      assert.ok(own.entries.length > 0);
      assert.ok(own.entries.every((e) => e.actor.kind === 'account' && e.actor.id === admin));
      assert.equal(own.entries[0].objectLabel, clientName, 'sa dernière action sur un client : la création');
      await rows(journalTable()).first().getByRole('link', { name: clientName, exact: true }).waitFor();
      await shot('journal-03-filtre-personne');
    });

    step('une période inversée est refusée ; une période sans entrée le dit', async () => {
      await page.getByLabel(T.from, { exact: true }).fill('2026-11-28');
      await page.getByLabel(T.to, { exact: true }).fill('2026-11-01');
      const refused = journalRead({ from: '2026-11-28', to: '2026-11-01' });
      await page.getByRole('button', { name: T.search, exact: true }).click();
      assert.equal((await refused).status(), 422);
      await page.getByRole('alert').filter({ hasText: T.inverted }).waitFor();
      assert.equal(await journalTable().count(), 0);
      await shot('journal-04-periode-inversee');

      await page.getByLabel(T.from, { exact: true }).fill('2001-01-01');
      await page.getByLabel(T.to, { exact: true }).fill('2001-01-31');
      const empty = journalRead({ from: '2001-01-01', to: '2001-01-31' });
      await page.getByRole('button', { name: T.search, exact: true }).click();
      const answer = await (await empty).json();
      assert.deepEqual(answer.entries, []);
      assert.equal(answer.next, null);
      await page.getByText(T.empty, { exact: true }).waitFor();
      // Dans l'écran : les bandeaux « personne bloquée » non pris en compte restent au-dessus.
      assert.equal(await page.locator('#contenu').getByRole('alert').count(), 0);
      assert.equal(await page.getByRole('button', { name: T.older, exact: true }).count(), 0);

      // « Effacer les filtres » : tout le journal de nouveau.
      const all = journalRead({}, { only: true });
      await page.getByRole('button', { name: T.reset, exact: true }).click();
      assert.equal((await all).status(), 200);
      await journalTable().waitFor();
      assert.equal(await page.getByLabel(T.type, { exact: true }).inputValue(), '');
      assert.equal(await page.getByLabel(T.from, { exact: true }).inputValue(), '');
    });

    step("le lien de l'objet ouvre la fiche du client ; son « Historique » montre la création", async () => {
      await page.getByLabel(T.type, { exact: true }).selectOption({ label: 'Client' });
      const read = journalRead({ objectType: 'client' }, { only: true });
      await page.getByRole('button', { name: T.search, exact: true }).click();
      await read;
      const detail = apiResponse(`/app/api/clients/${encodeURIComponent(clientRef)}`, 'GET');
      await journalTable().getByRole('link', { name: clientName, exact: true }).first().click();
      assert.equal((await detail).status(), 200);
      await page.getByRole('heading', { level: 1, name: clientName }).waitFor();
      assert.equal(new URL(page.url()).pathname, `/clients/${encodeURIComponent(clientRef)}`);

      // Replié : rien n'est lu avant l'ouverture.
      await historySummary().waitFor();
      assert.equal(await historyTable().count(), 0);
      const history = journalRead({ objectType: 'client', objectId: clientRef, limit: 20 }, { only: true });
      await historySummary().click();
      const res = await history;
      assert.equal(res.status(), 200);
      const answer = await res.json();
      assert.equal(answer.entries.length, 1);
      assert.equal(answer.entries[0].actionLabel, T.creation);
      await historyTable().waitFor();
      const headers = (await historyTable().locator('thead th').allTextContents()).map((s) => s.trim());
      assert.deepEqual(headers, ['Date et heure', 'Qui', 'Action', 'Détail']);
      const cells = (await rows(historyTable()).first().locator('td').allTextContents()).map((s) =>
        s.replace(/\s+/g, ' ').trim(),
      );
      assert.equal(cells[1], adminName);
      assert.equal(cells[2], T.creation);
      await shot('journal-05-historique-client');
    });

    step("la fiche d'un ascenseur de la démo : son « Historique »", async () => {
      const park = apiResponse('/app/api/equipment', 'GET');
      await menu().getByRole('link', { name: 'Équipements', exact: true }).click();
      const list = await (await park).json();
      const lift = list.results.find((e) => e.number);
      assert.ok(lift, 'un ascenseur numéroté dans la démo');
      await page.getByRole('link', { name: lift.number, exact: true }).first().click();
      await page.getByRole('heading', { level: 1, name: `Équipement ${lift.number}`, exact: true }).waitFor();
      equipmentPath = new URL(page.url()).pathname;
      assert.equal(equipmentPath, `/equipements/${encodeURIComponent(lift.id)}`);

      await historySummary().scrollIntoViewIfNeeded();
      const history = journalRead({ objectType: 'equipment', objectId: lift.id, limit: 20 }, { only: true });
      await historySummary().click();
      const res = await history;
      assert.equal(res.status(), 200);
      const answer = await res.json();
      assert.ok(answer.entries.length > 0, "l'ascenseur a un historique");
      assert.ok(answer.entries.every((e) => e.objectType === 'equipment' && e.objectId === lift.id));
      // Créé par la démo comme à l'écran : sa création y figure (ou une page plus loin).
      assert.ok(
        answer.entries.some((e) => e.action === 'equipement.creation') || answer.next !== null,
        'la création de l’ascenseur',
      );
      await historyTable().waitFor();
      assert.equal(await rows(historyTable()).count(), answer.entries.length);
      await shot('journal-06-historique-ascenseur');
    });

    step("un membre : pas de « Journal » au menu, le refus du serveur à l'adresse, l'historique des fiches", async () => {
      await signOut();
      await signIn(creds.member);
      const names = await menuNames();
      assert.ok(names.length > 0);
      assert.ok(!names.includes(T.journal), `pas de « Journal » au menu : ${names.join(', ')}`);

      const refused = journalRead({}, { only: true });
      await page.goto(new URL('/journal', baseUrl).href);
      assert.equal((await refused).status(), 403);
      await page.getByRole('alert').filter({ hasText: T.forbidden }).waitFor();
      await shot('journal-07-membre-refus');

      // L'historique d'une fiche est à tout le personnel.
      await page.goto(new URL(`/clients/${encodeURIComponent(clientRef)}`, baseUrl).href);
      await page.getByRole('heading', { level: 1, name: clientName }).waitFor();
      const history = journalRead({ objectType: 'client', objectId: clientRef }, {});
      await historySummary().click();
      assert.equal((await history).status(), 200);
      await historyTable().waitFor();
      await rows(historyTable()).first().getByRole('cell', { name: T.creation, exact: true }).waitFor();
      await shot('journal-08-membre-historique');
      assert.deepEqual(pageErrors, []);
    });
  },
);
