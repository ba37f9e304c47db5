// Test de bout en bout : chaque barre du tableau de bord ouvre exactement la liste qu'elle
// compte (issue 22, point 3), contre un serveur Liftdesk réel (démo).
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/dashboard-links.test.mjs'
//
// L'administrateur de la démo ouvre l'accueil ; les chiffres attendus sont ceux de
// `GET /app/api/dashboard`. La barre « émises » du mois en cours ouvre
// `/factures?issuedSince=…&issuedUntil=…` : étiquette « Émises en <mois> », autant de pièces
// que `invoices[i].issued`, toutes des factures émises dans le mois, et l'export de la
// sélection porte le même filtre et le même nombre de lignes ; la barre « réglées » du mois
// ouvre `paidSince`/`paidUntil` (`invoices[i].paid`). Une tranche d'impayés échus non vide et
// « Non échues » ouvrent `unpaid=<tranche>` (`unpaid.buckets[j].count`), le filtre « Statut »
// s'y ajoute sans la perdre. La tranche de connaissance la plus garnie ouvre
// `/equipements?knowledge=<tranche>` (`knowledge.bands[k].count`, taux des lignes dans la
// tranche), et sa deuxième page garde la tranche. « Retirer » enlève chaque étiquette de
// l'adresse et la liste revient au total sans ce filtre. Le test échoue sur les liens
// d'avant (jour de création, `overdue=1`, liste entière, pas de lien de connaissance).
// Captures tableau-liens-… dans $LIFTDESK_ARTIFACTS/ui/.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describeOnServer, plain, STEP_TIMEOUT, TIMEOUT } from './harness.mjs';

const MONTHS = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
];

/** Ce que l'étiquette d'une tranche d'impayés dit après « Impayées, ». */
const UNPAID_WORDS = {
  a_echoir: 'non échues',
  '0_30': 'échues depuis 0 à 30 jours',
  '31_60': 'échues depuis 31 à 60 jours',
  '61_90': 'échues depuis 61 à 90 jours',
  plus_90: 'échues depuis plus de 90 jours',
};

/** Les bornes (en %) et l'étiquette d'une tranche de connaissance du tableau de bord. */
// Les taux s'affichent à une décimale : 49,96 % se lit « 50 % », d'où les bornes comprises.
const KNOWLEDGE = {
  '0_24': { low: 0, high: 25, words: 'moins de 25 %' },
  '25_49': { low: 25, high: 50, words: '25 à 49 %' },
  '50_74': { low: 50, high: 75, words: '50 à 74 %' },
  '75_99': { low: 75, high: 100, words: '75 à 99 %' },
  100: { low: 100, high: 100, words: '100 %' },
};

const num = (text) => Number(plain(text).replace(/\s/g, ''));

/** Le premier et le dernier jour d'un mois `AAAA-MM`. */
function monthBounds(month) {
  const [year, mon] = month.split('-').map(Number);
  const last = new Date(Date.UTC(year, mon, 0)).getUTCDate();
  return { since: `${month}-01`, until: `${month}-${String(last).padStart(2, '0')}` };
}

/** `2026-11` → « novembre 2026 ». */
function monthWords(month) {
  const [year, mon] = month.split('-').map(Number);
  return `${MONTHS[mon - 1]} ${year}`;
}

/** `21/11/2026` → `2026-11-21`. */
function isoOf(frenchDay) {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(plain(frenchDay));
  return match ? `${match[3]}-${match[2]}-${match[1]}` : null;
}

describeOnServer(
  'tableau de bord : chaque barre ouvre la liste qu’elle compte',
  { timeout: 12 * STEP_TIMEOUT, shots: 'tableau-liens', context: { acceptDownloads: true } },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    /** La réponse de `GET /app/api/dashboard` à l'ouverture de l'accueil. */
    let figures;

    const apiGet = (url) =>
      page.evaluate(async (u) => {
        const r = await fetch(u);
        if (!r.ok) throw new Error(`${u} : ${r.status} ${await r.text()}`);
        return r.json();
      }, url);

    /** L'accueil, ses chiffres relus. */
    async function home() {
      const dashboard = page.waitForResponse((r) => new URL(r.url()).pathname === '/app/api/dashboard');
      await page.goto(baseUrl);
      figures = await (await dashboard).json();
      await page.locator('[data-chart="chart-invoices"] .bar-links a').first().waitFor();
    }

    /** Le lien d'une barre d'un graphique, par le début de son texte (« nov. 2026 — émises : »). */
    function barLink(chart, startsWith) {
      return page
        .locator(`[data-chart="${chart}"] .bar-links a`)
        .filter({ hasText: new RegExp(`^${startsWith.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });
    }

    /** Clique le lien d'une barre (il y en a un seul), attend l'adresse voulue. */
    async function follow(link, pathname, params) {
      assert.equal(await link.count(), 1, 'un seul lien pour cette barre');
      await link.click();
      await page.waitForURL((url) => {
        if (url.pathname !== pathname) return false;
        return Object.entries(params).every(([key, value]) => url.searchParams.get(key) === value);
      });
    }

    const chips = () => page.getByRole('list', { name: 'Filtres du tableau de bord' }).getByRole('listitem');

    /** Le texte des étiquettes (sans le bouton « Retirer »). */
    async function chipTexts() {
      const out = [];
      for (const chip of await chips().all()) out.push(plain(await chip.locator('.chip-text').textContent()));
      return out;
    }

    /** Attend que la liste des factures affiche `total` pièces (le nombre au-dessus du tableau). */
    async function invoiceCount(total) {
      const count = page.getByTestId('invoice-count');
      await page.waitForFunction(
        (n) => {
          const strong = document.querySelector('[data-testid="invoice-count"] strong');
          const text = document.querySelector('[data-testid="invoice-count"]')?.textContent ?? '';
          return strong && Number(strong.textContent.replace(/\D/g, '')) === n && !text.includes('actualisation');
        },
        total,
        { timeout: TIMEOUT },
      ).catch(() => {});
      assert.equal(num(await count.locator('strong').textContent()), total);
    }

    /** Les lignes affichées de la liste des factures : nature et jour d'émission. */
    async function invoiceRows() {
      const rows = page.getByTestId('invoice-list').locator('tbody tr');
      const out = [];
      for (const row of await rows.all()) {
        const cells = (await row.locator('td').allTextContents()).map(plain);
        out.push({ nature: cells[1], issuedOn: isoOf(cells[4]), status: cells[7] });
      }
      return out;
    }

    /** Le total que montre la pagination du parc (« 1–50 sur 83 · page 1 / 2 »). */
    async function parkTotal(expected) {
      const pager = page.getByRole('navigation', { name: 'Pages du parc' });
      await page
        .waitForFunction(
          (n) => {
            const nav = document.querySelector('nav[aria-label="Pages du parc"]');
            const m = /sur\s*([\d\s\u202f\u00a0]+)/.exec(nav?.textContent ?? '');
            return m && Number(m[1].replace(/\D/g, '')) === n && !document.querySelector('table.park[aria-busy="true"]');
          },
          expected,
          { timeout: TIMEOUT },
        )
        .catch(() => {});
      const match = /sur ([\d ]+)/.exec(plain(await pager.textContent()));
      assert.ok(match, 'la pagination dit le total');
      return num(match[1]);
    }

    before(() => ({ page, creds } = ui));

    step('connexion : le tableau de bord et ses liens de barres', async () => {
      const dashboard = page.waitForResponse((r) => new URL(r.url()).pathname === '/app/api/dashboard');
      await signIn(creds.admin);
      figures = await (await dashboard).json();
      await page.locator('[data-chart="chart-invoices"] .bar-links a').first().waitFor();
      // Le graphique des taux de connaissance a lui aussi ses liens, un par tranche.
      const knowledgeLinks = page.locator('[data-chart="chart-knowledge"] .bar-links a');
      assert.equal(await knowledgeLinks.count(), figures.knowledge.bands.length);
      await shot('tableau-liens-00-accueil');
    });

    step('« émises » du mois en cours : les factures émises ce mois-là, autant que la barre, export compris', async () => {
      const month = figures.invoices.find((m) => m.month === figures.today.slice(0, 7));
      assert.ok(month, `le mois en cours (${figures.today}) est dans le graphique`);
      assert.ok(month.issued > 0, 'la démo a des factures émises ce mois-ci');
      const { since, until } = monthBounds(month.month);
      const link = barLink('chart-invoices', `${month.label} — émises :`);
      assert.equal(await link.getAttribute('title'), `Les factures émises en ${month.label}`);
      await follow(link, '/factures', { issuedSince: since, issuedUntil: until });
      await page.getByRole('heading', { level: 1, name: 'Factures et avoirs' }).waitFor();
      assert.deepEqual(await chipTexts(), [`Émises en ${monthWords(month.month)}`]);
      await invoiceCount(month.issued);
      const api = await apiGet(`/app/api/invoices?issuedSince=${since}&issuedUntil=${until}&limit=1`);
      assert.equal(api.total, month.issued);
      // Les lignes : des factures (pas d'avoir), émises dans le mois.
      const rows = await invoiceRows();
      assert.equal(rows.length, Math.min(month.issued, 50));
      for (const row of rows) {
        assert.equal(row.nature, 'Facture');
        assert.ok(row.issuedOn >= since && row.issuedOn <= until, `émise le ${row.issuedOn}`);
      }
      await shot('tableau-liens-01-emises');

      // L'export de la sélection porte le même filtre et autant de lignes.
      await page.getByRole('button', { name: 'Exporter', exact: true }).click();
      const panel = page.getByRole('group', { name: "Format de l'export" });
      const started = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/exports' && r.request().method() === 'POST',
      );
      await panel.getByRole('button', { name: /^CSV/ }).click();
      const response = await started;
      assert.equal(response.status(), 202, await response.text());
      const body = JSON.parse(response.request().postData() ?? '{}');
      assert.equal(body.list, 'invoices');
      const query = new URLSearchParams(body.query ?? '');
      assert.equal(query.get('issuedSince'), since);
      assert.equal(query.get('issuedUntil'), until);
      const job = await response.json();
      await page.locator('[data-testid="export-progress"][data-phase="pret"]').waitFor({ timeout: 30_000 });
      const done = await apiGet(`/app/api/exports/${encodeURIComponent(job.id)}`);
      assert.equal(done.total, month.issued, 'lignes de l’export');
    });

    step('« Retirer » enlève la période de l’adresse : toute la liste revient', async () => {
      const chip = chips().first();
      await chip.getByRole('button', { name: /^Retirer/ }).click();
      await page.waitForURL((url) => url.pathname === '/factures' && !url.search.includes('issued'));
      assert.equal(await chips().count(), 0);
      const all = await apiGet('/app/api/invoices?limit=1');
      await invoiceCount(all.total);
      await shot('tableau-liens-02-retiree');
    });

    step('« réglées » du mois en cours : les factures ayant reçu un règlement ce mois-là', async () => {
      await home();
      const month = figures.invoices.find((m) => m.month === figures.today.slice(0, 7));
      assert.ok(month.paid > 0, 'la démo a des règlements ce mois-ci');
      const { since, until } = monthBounds(month.month);
      const link = barLink('chart-invoices', `${month.label} — payées :`);
      assert.equal(await link.getAttribute('title'), `Les factures ayant reçu un règlement en ${month.label}`);
      await follow(link, '/factures', { paidSince: since, paidUntil: until });
      assert.deepEqual(await chipTexts(), [`Réglées en ${monthWords(month.month)}`]);
      await invoiceCount(month.paid);
      for (const row of await invoiceRows()) assert.equal(row.nature, 'Facture');
      await shot('tableau-liens-03-reglees');
    });

    step('une tranche d’impayés échus : autant de factures que la barre, le statut s’y ajoute', async () => {
      await home();
      const bucket = figures.unpaid.buckets.find((b) => b.bucket !== 'a_echoir' && b.count > 0);
      assert.ok(bucket, 'la démo a des impayés échus');
      const link = barLink('chart-unpaid', `${bucket.label} :`);
      assert.equal(await link.getAttribute('title'), `Les factures impayées ${UNPAID_WORDS[bucket.bucket]}`);
      await follow(link, '/factures', { unpaid: bucket.bucket });
      assert.deepEqual(await chipTexts(), [`Impayées, ${UNPAID_WORDS[bucket.bucket]}`]);
      await invoiceCount(bucket.count);
      const rows = await invoiceRows();
      assert.equal(rows.length, Math.min(bucket.count, 50));
      for (const row of rows) assert.ok(['Émise', 'Envoyée'].includes(row.status), `statut ${row.status}`);
      await shot(`tableau-liens-04-impayees-${bucket.bucket}`);

      // Le filtre « Statut » s'ajoute à la tranche, qui reste dans l'adresse.
      const status = rows[0].status === 'Envoyée' ? 'envoyee' : 'emise';
      await page.getByLabel('Statut', { exact: true }).selectOption(status);
      await page.getByRole('button', { name: 'Filtrer', exact: true }).click();
      await page.waitForURL(
        (url) => url.searchParams.get('unpaid') === bucket.bucket && url.searchParams.get('status') === status,
      );
      const both = await apiGet(`/app/api/invoices?unpaid=${bucket.bucket}&status=${status}&limit=1`);
      assert.ok(both.total > 0 && both.total <= bucket.count);
      await invoiceCount(both.total);
      assert.deepEqual(await chipTexts(), [`Impayées, ${UNPAID_WORDS[bucket.bucket]}`]);

      // « Retirer » : la tranche part, le statut reste.
      await chips().first().getByRole('button', { name: /^Retirer/ }).click();
      await page.waitForURL((url) => !url.searchParams.has('unpaid') && url.searchParams.get('status') === status);
      const onlyStatus = await apiGet(`/app/api/invoices?status=${status}&limit=1`);
      await invoiceCount(onlyStatus.total);
      assert.equal(await chips().count(), 0);
    });

    step('« Non échues » : les impayées non échues, autant que la barre', async () => {
      await home();
      const bucket = figures.unpaid.buckets.find((b) => b.bucket === 'a_echoir');
      assert.ok(bucket && bucket.count > 0, 'la démo a des factures non échues');
      const link = barLink('chart-unpaid', `${bucket.label} :`);
      assert.equal(await link.getAttribute('title'), 'Les factures impayées non échues');
      await follow(link, '/factures', { unpaid: 'a_echoir' });
      assert.deepEqual(await chipTexts(), ['Impayées, non échues']);
      await invoiceCount(bucket.count);
      for (const row of await invoiceRows()) assert.ok(['Émise', 'Envoyée'].includes(row.status), `statut ${row.status}`);
      await shot('tableau-liens-05-non-echues');
    });

    step('une tranche de connaissance : le parc filtré sur elle, autant d’équipements que la barre', async () => {
      await home();
      // La tranche la plus garnie : plus de 50 équipements, elle a une deuxième page.
      const band = [...figures.knowledge.bands].sort((a, b) => b.count - a.count)[0];
      assert.ok(band && band.count > 0, 'la démo a des équipements');
      const range = KNOWLEDGE[band.band];
      const link = barLink('chart-knowledge', `${band.label} :`);
      await follow(link, '/equipements', { knowledge: band.band });
      await page.getByRole('heading', { level: 1, name: 'Équipements' }).waitFor();
      assert.deepEqual(await chipTexts(), [`Taux de connaissance : ${range.words}`]);
      assert.equal(await parkTotal(band.count), band.count);
      // Les taux des lignes affichées sont dans la tranche.
      const rates = (await page.locator('table.park tbody tr td.num').allTextContents()).map((t) =>
        Number(/([\d,]+)\s*%/.exec(plain(t))[1].replace(',', '.')),
      );
      assert.equal(rates.length, Math.min(band.count, 50));
      for (const rate of rates) assert.ok(rate >= range.low && rate <= range.high, `taux ${rate} %`);
      await shot('tableau-liens-06-connaissance');

      // La page suivante garde la tranche dans l'adresse et dans la requête.
      if (band.count > 50) {
        const next = page.waitForResponse(
          (r) => new URL(r.url()).pathname === '/app/api/equipment' && new URL(r.url()).searchParams.get('page') === '2',
        );
        await page.getByRole('navigation', { name: 'Pages du parc' }).getByRole('button', { name: 'Suivante' }).click();
        assert.equal(new URL((await next).url()).searchParams.get('knowledge'), band.band);
        await page.waitForURL((url) => url.searchParams.get('knowledge') === band.band && url.searchParams.get('page') === '2');
        await page.waitForFunction(
          (n) => document.querySelectorAll('table.park tbody tr').length === n,
          Math.min(band.count - 50, 50),
        );
        assert.deepEqual(await chipTexts(), [`Taux de connaissance : ${range.words}`]);
      }

      await chips().first().getByRole('button', { name: /^Retirer/ }).click();
      await page.waitForURL((url) => url.pathname === '/equipements' && !url.searchParams.has('knowledge'));
      assert.equal(await chips().count(), 0);
      const park = await apiGet('/app/api/equipment?archived=active&limit=1');
      assert.equal(await parkTotal(park.total), park.total);
      await shot('tableau-liens-07-parc-sans-filtre');
      assert.deepEqual(pageErrors, []);
    });
  },
);
