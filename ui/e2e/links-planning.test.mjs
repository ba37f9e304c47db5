// Test de bout en bout des liens du planning et des devis d'un client (issue 22, point 9), contre
// un serveur Liftdesk réel lancé sur la démonstration (voir login.test.mjs pour les variables) :
// en administrateur,
// - planning : une visite de la semaine dont l'immeuble est connu (`buildingId` de la semaine et de
//   `GET /visits/{id}`) ; sa carte reste glissable, sans lien dedans ; dans le détail de la visite,
//   l'immeuble est un lien vers `/immeubles/<id>`, qui ouvre la fiche titrée « Immeuble <nom> »
//   (onglet compris) ;
// - fiche d'un client (de préférence un client dont un devis porte sur un équipement sans numéro
//   ou au-delà des 50 premiers, que l'ancienne fiche ne lisait pas ; la démo n'en a pas : sinon
//   celui qui a le plus de devis) : la fiche lit ses devis en UNE requête
//   `GET /app/api/quotes?client=<CLI-…>` (aucune autre lecture des devis, relevé par
//   page.on('request')) ; le nombre affiché est celui des devis des équipements du client comptés
//   dans la liste complète des devis, les lignes sont celles de l'API, dans son ordre (le devis
//   « oublié » autrefois compris, s'il existe), sans l'ancien avertissement « liste partielle » ;
// - la liste des devis filtrée par ce client (« Tous ses devis », ou son adresse `/devis?client=`
//   quand tous ses devis tiennent sur la fiche) : l'étiquette « Client : <nom> », le même nombre et
//   les mêmes devis ; « Retirer » rend toute la liste.
// Captures liens-planning-… dans $LIFTDESK_ARTIFACTS/ui/.
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/links-planning.test.mjs'
//
// Le test ne change rien à la démo : il lit le planning, les devis, les équipements et les clients.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { addDays, describeOnServer, plain, STEP_TIMEOUT } from './harness.mjs';

/** Devis montrés sur la fiche d'un client (les plus récents). */
const CLIENT_QUOTES = 20;
/** Devis par page de la liste des devis. */
const LIST_PAGE = 50;
const numbers = new Intl.NumberFormat('fr-FR');
/** La ligne du nombre de la liste des devis : « 5 devis » (et non « 15 devis »), lue ou en actualisation. */
const count = (total) => new RegExp(`^${numbers.format(total)} devis(?: · actualisation…)?$`);

describeOnServer(
  'liens du planning et devis d’un client',
  { timeout: 10 * STEP_TIMEOUT, shots: 'liens-planning', viewport: { width: 1440, height: 900 } },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, appApi, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    /** Le client choisi : `{ id, name }`. */
    let client;
    /**
     * Un devis du client que l'ancienne fiche (lecture équipement par équipement) ne trouvait pas :
     * sur un équipement sans numéro ou au-delà des 50 premiers ; `null` si la démo n'en a pas.
     */
    let hiddenQuoteId = null;
    /** `GET /quotes?client=` : ses devis selon le serveur (les 100 plus récents et leur nombre). */
    let clientQuotes;

    /** Une lecture qui doit réussir : sa réponse. */
    async function read(apiPath) {
      const answer = await appApi('GET', apiPath);
      assert.equal(answer.status, 200, `${apiPath} : ${JSON.stringify(answer.body)}`);
      return answer.body;
    }

    /** Toutes les lignes d'une liste paginée de l'API (100 par page). */
    async function readAll(apiPath) {
      const out = [];
      const glue = apiPath.includes('?') ? '&' : '?';
      for (let p = 1; ; p += 1) {
        const answer = await read(`${apiPath}${glue}limit=100&page=${p}`);
        out.push(...answer.results);
        if (answer.results.length === 0 || out.length >= answer.total) return out;
      }
    }

    /** La fiche ouverte est celle de l'immeuble `wanted` : adresse, titre, titre de l'onglet. */
    async function expectBuildingPage(wanted) {
      await page.waitForURL((url) => url.pathname === `/immeubles/${wanted.id}`);
      const title = `Immeuble ${wanted.name || wanted.address}`;
      await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
      // Le préfixe « (2) » des appels urgents ouverts peut précéder le titre.
      await page.waitForFunction((expected) => document.title.replace(/^\(\d+\) /, '') === expected, `${title} — Liftdesk`);
    }

    /** Les devis (identifiants, dans l'ordre) d'un tableau, une fois ses lignes affichées. */
    async function listedQuotes(table) {
      await table.waitFor();
      return table.locator('tbody tr[data-quote]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-quote')));
    }

    before(() => ({ page, creds } = ui));

    step("planning : dans le détail d'une visite, l'immeuble est un lien vers sa fiche", async () => {
      await signIn(creds.admin, { at: '/planning' });
      await page.getByRole('heading', { level: 1, name: 'Planning' }).waitFor();

      // Une visite d'un technicien, montrée d'office dans sa case (pas au-delà des trois premières),
      // dont l'immeuble a un nom : cette semaine ou l'une des trois suivantes.
      const first = await read('/planning');
      let week = null;
      let entry = null;
      for (let i = 0; i < 4 && !entry; i += 1) {
        week = i === 0 ? first : await read(`/planning?day=${addDays(first.days[0], 7 * i)}`);
        for (const e of week.entries) {
          assert.ok('buildingId' in e, 'chaque visite de la semaine donne `buildingId`');
        }
        const rows = new Set(week.technicians.map((t) => t.id));
        entry = week.entries.find((e) => {
          if (!e.buildingId || !e.building || !rows.has(e.technicianId)) return false;
          const sameCell = week.entries.filter((o) => o.technicianId === e.technicianId && o.day === e.day);
          return sameCell.indexOf(e) < 3;
        });
      }
      assert.ok(entry, 'une visite des quatre prochaines semaines dans un immeuble nommé');
      const visit = await read(`/visits/${entry.id}`);
      assert.equal(visit.buildingId, entry.buildingId, 'le détail de la visite donne le même immeuble');
      const building = await read(`/buildings/${entry.buildingId}`);
      assert.equal(building.name, entry.building);

      await page.goto(new URL(`/planning/${week.days[0]}`, baseUrl).href);
      const card = page.locator(`td[data-technician="${entry.technicianId}"][data-day="${entry.day}"] [data-visit="${entry.id}"]`);
      await card.waitFor();
      // La carte garde son glisser-déposer et son ouverture au clic : aucun lien dedans.
      assert.equal(await card.getAttribute('draggable'), String(entry.status === 'planifiee'));
      assert.equal(await card.locator('a').count(), 0, 'pas de lien dans une carte glissable');
      assert.ok(plain(await card.textContent()).includes(entry.building), 'la carte nomme l’immeuble');
      await card.click();

      const dialog = page.getByRole('dialog', { name: `Visite ${entry.number ?? 'sans numéro'}`, exact: true });
      await dialog.waitFor();
      const link = dialog.locator('[data-field="building"]').getByRole('link', { name: building.name, exact: true });
      assert.equal(await link.getAttribute('href'), `/immeubles/${building.id}`);
      await shot('liens-planning-01-visite', { fullPage: false });
      await link.click();
      await expectBuildingPage(building);
      await dialog.waitFor({ state: 'detached' });
      await shot('liens-planning-02-immeuble');
    });

    step('fiche client : le client choisi et ses devis selon le serveur', async () => {
      // Le client de chaque équipement des devis de l'agence.
      const quotes = await readAll('/quotes');
      const clientOf = new Map();
      for (const id of new Set(quotes.map((q) => q.equipment.id))) {
        clientOf.set(id, (await read(`/equipment/${id}`)).client?.id ?? null);
      }
      const counts = new Map();
      for (const q of quotes) {
        const owner = clientOf.get(q.equipment.id);
        if (owner) counts.set(owner, (counts.get(owner) ?? 0) + 1);
      }
      assert.ok(counts.size > 0, 'la démo a des devis sur des équipements de clients');
      // De préférence un client dont un devis porte sur un équipement que l'ancienne fiche ne
      // lisait pas (sans numéro, ou au-delà de la première page de ses équipements) ; sinon
      // celui qui a le plus de devis.
      const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
      let chosen = ranked[0];
      for (const id of ranked) {
        const firstPage = await read(`/equipment?client=${encodeURIComponent(id)}&archived=all&page=1&limit=50`);
        const shown = new Set(firstPage.results.filter((e) => e.number).map((e) => e.id));
        const missed = quotes.find((q) => clientOf.get(q.equipment.id) === id && !shown.has(q.equipment.id));
        if (missed) {
          chosen = id;
          hiddenQuoteId = missed.id;
          break;
        }
      }
      const detail = await read(`/clients/${encodeURIComponent(chosen)}`);
      client = { id: detail.client.id, name: detail.client.name };

      // Le filtre du serveur : les devis des équipements du client (au parc ou archivés), pas d'autres,
      // autant que la liste complète en compte sur ses équipements.
      const owned = new Set((await readAll(`/equipment?client=${encodeURIComponent(client.id)}&archived=all`)).map((e) => e.id));
      clientQuotes = await read(`/quotes?client=${encodeURIComponent(client.id)}&limit=100`);
      const expected = quotes.filter((q) => owned.has(q.equipment.id)).map((q) => q.id);
      assert.ok(expected.length > 0, 'le client choisi a des devis');
      assert.equal(clientQuotes.total, expected.length, 'autant de devis que la liste complète en compte sur ses équipements');
      assert.deepEqual(clientQuotes.results.map((q) => q.id), expected.slice(0, 100), 'les mêmes devis, les plus récents d’abord');
    });

    step('fiche client : ses devis en une seule lecture, filtrée par le client', async () => {
      const requests = [];
      const record = (request) => {
        const url = new URL(request.url());
        if (url.pathname === '/app/api/quotes') requests.push(url);
      };
      page.on('request', record);
      await page.goto(new URL(`/clients/${encodeURIComponent(client.id)}`, baseUrl).href);
      const section = page.getByRole('region', { name: /^Devis/ });
      await page
        .getByRole('heading', { level: 2, name: `Devis (${numbers.format(clientQuotes.total)})`, exact: true })
        .waitFor();
      const table = section.getByRole('table', { name: 'Devis des équipements du client' });
      const listed = await listedQuotes(table);
      // Les équipements et les factures sont lus aussi : attendre qu'ils le soient, puis compter.
      await page.getByRole('heading', { level: 2, name: /^Équipements\s\(/ }).waitFor();
      await page.getByRole('heading', { level: 2, name: /^Factures\s\(/ }).waitFor();
      page.off('request', record);

      assert.equal(requests.length, 1, `une seule lecture des devis : ${requests.map(String).join(', ')}`);
      assert.equal(requests[0].searchParams.get('client'), client.id, 'filtrée par le client');
      assert.equal(requests[0].searchParams.get('equipment'), null, 'et non équipement par équipement');

      assert.deepEqual(listed, clientQuotes.results.slice(0, CLIENT_QUOTES).map((q) => q.id), 'les plus récents, dans l’ordre de l’API');
      if (hiddenQuoteId && clientQuotes.results.slice(0, CLIENT_QUOTES).some((q) => q.id === hiddenQuoteId)) {
        assert.ok(listed.includes(hiddenQuoteId), 'le devis d’un équipement sans numéro ou au-delà de la page est listé');
      }
      assert.equal(
        await page.getByText('Devis des équipements numérotés listés ci-dessus seulement.').count(),
        0,
        'plus d’avertissement « liste partielle »',
      );
      await shot('liens-planning-03-client-devis');
    });

    step('la liste des devis filtrée par le client, puis le filtre retiré', async () => {
      const address = `/devis?client=${encodeURIComponent(client.id)}`;
      const all = page.getByRole('link', { name: 'Tous ses devis', exact: true });
      if (clientQuotes.total > CLIENT_QUOTES) {
        await all.click();
      } else {
        // Tous ses devis tiennent sur la fiche : pas de lien, la liste filtrée s'ouvre par son adresse.
        assert.equal(await all.count(), 0, '« Tous ses devis » seulement s’il en reste');
        await page.goto(new URL(address, baseUrl).href);
      }
      await page.waitForURL((url) => url.pathname === '/devis' && url.searchParams.get('client') === client.id);
      await page.getByRole('heading', { level: 1, name: 'Devis', exact: true }).waitFor();
      const chip = page.getByTestId('filter-chips').locator('[data-chip="client"]');
      await page.waitForFunction(
        (expected) => document.querySelector('[data-chip="client"] .chip-text')?.textContent?.trim() === expected,
        `Client : ${client.name}`,
      );
      await page.locator('.status-line p', { hasText: count(clientQuotes.total) }).waitFor();
      const table = page.getByTestId('quote-list');
      assert.deepEqual(await listedQuotes(table), clientQuotes.results.slice(0, LIST_PAGE).map((q) => q.id));
      await shot('liens-planning-04-devis-du-client');

      const everything = await read('/quotes?limit=1');
      await chip.getByRole('button', { name: `Retirer le filtre « Client : ${client.name} »`, exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/devis' && !url.searchParams.has('client'));
      await page.locator('.status-line p', { hasText: count(everything.total) }).waitFor();
      assert.equal(await page.getByTestId('filter-chips').count(), 0, 'l’étiquette est partie');
      await shot('liens-planning-05-devis-tous');
      assert.deepEqual(
        pageErrors.map((e) => e.message),
        [],
        'aucune erreur JavaScript dans la page',
      );
    });
  },
);
