// Test de bout en bout du tableau de bord (accueil), contre un serveur Liftdesk réel (démo).
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/dashboard.test.mjs'
//
// L'administrateur de la démo se connecte : l'accueil garde son titre et son
// agence active, et montre cinq graphiques dessinés (canevas non vide, légende
// en bas, étiquettes de valeurs), chacun avec son tableau de données
// accessible dont les chiffres sont ceux de `GET /app/api/dashboard`.
// Captures à l'écran et en média « print » dans $LIFTDESK_ARTIFACTS/ui/.

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const UI_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TIMEOUT = 15_000;
const STEP_TIMEOUT = 60_000;

const CHARTS = [
  { id: 'chart-calls', title: 'Appels ouverts par statut', rows: 4, series: ['Appels ouverts'] },
  { id: 'chart-visits', title: 'Visites de la semaine', rows: 3, series: ['Visites'] },
  { id: 'chart-invoices', title: 'Factures émises et payées par mois', rows: 12, series: ['Émises', 'Payées'] },
  { id: 'chart-unpaid', title: 'Impayés par ancienneté', rows: 5, series: ['Montant impayé'] },
  { id: 'chart-knowledge', title: 'Équipements par taux de connaissance', rows: 5, series: ['Équipements'] },
];

const plain = (text) => (text ?? '').replace(/[\s\u202f\u00a0]+/g, ' ').trim();

if (!process.env.LIFTDESK_URL || !process.env.LIFTDESK_CREDENTIALS) {
  test('configuration du test de bout en bout', () => {
    assert.fail(
      'Variables LIFTDESK_URL et LIFTDESK_CREDENTIALS requises : lancez ce test par scripts/with-demo-server.sh.',
    );
  });
} else {
  describe('tableau de bord', { timeout: 10 * STEP_TIMEOUT }, () => {
    const baseUrl = new URL('/', process.env.LIFTDESK_URL).href;
    const artifactsDir = process.env.LIFTDESK_ARTIFACTS
      ? path.resolve(process.env.LIFTDESK_ARTIFACTS, 'ui')
      : path.resolve(UI_DIR, '../test-artifacts/ui');

    let creds;
    /** @type {import('playwright-core').Browser} */
    let browser;
    /** @type {import('playwright-core').Page} */
    let page;
    const pageErrors = [];

    const shot = (name) => page.screenshot({ path: path.join(artifactsDir, `${name}.png`), fullPage: true });

    function step(name, fn) {
      it(name, { timeout: STEP_TIMEOUT }, async () => {
        try {
          await fn();
        } catch (error) {
          if (page) await shot(`echec-tableau-de-bord-${name.replace(/[^\p{L}\p{N}]+/gu, '-')}`).catch(() => {});
          throw error;
        }
      });
    }

    /** Pixels dessinés (non blancs, non transparents) du canevas d'un graphique : total et bande du bas (légende). */
    const drawn = (id) =>
      page.locator(`[data-chart="${id}"] canvas`).evaluate((canvas) => {
        const ctx = canvas.getContext('2d');
        const { width, height } = canvas;
        const data = ctx.getImageData(0, 0, width, height).data;
        let total = 0;
        let bottom = 0;
        const legendFrom = Math.floor(height * 0.82);
        for (let i = 0; i < data.length; i += 4) {
          const ink = data[i + 3] > 0 && (data[i] < 235 || data[i + 1] < 235 || data[i + 2] < 235);
          if (!ink) continue;
          total += 1;
          if (Math.floor(i / 4 / width) >= legendFrom) bottom += 1;
        }
        return { width, height, total, bottom };
      });

    before(async () => {
      creds = JSON.parse(readFileSync(path.resolve(process.env.LIFTDESK_CREDENTIALS), 'utf8'));
      assert.ok(creds?.admin?.email && creds.admin.password, 'LIFTDESK_CREDENTIALS : admin.email et admin.password requis');
      mkdirSync(artifactsDir, { recursive: true });
      browser = await chromium.launch({
        executablePath: process.env.LIFTDESK_CHROMIUM || '/usr/bin/chromium',
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      const context = await browser.newContext({ locale: 'fr-FR', viewport: { width: 1280, height: 900 } });
      page = await context.newPage();
      page.setDefaultTimeout(TIMEOUT);
      page.on('pageerror', (error) => pageErrors.push(error));
    });

    after(async () => {
      await browser?.close();
    });

    let figures;

    step('connexion : l’accueil garde son titre et montre le tableau de bord', async () => {
      await page.goto(baseUrl);
      await page.getByLabel('Adresse e-mail', { exact: true }).fill(creds.admin.email);
      await page.getByLabel('Mot de passe', { exact: true }).fill(creds.admin.password);
      const dashboard = page.waitForResponse((r) => new URL(r.url()).pathname === '/app/api/dashboard', {
        timeout: TIMEOUT,
      });
      await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
      const response = await dashboard;
      assert.equal(response.status(), 200);
      figures = await response.json();
      const session = await page.evaluate(() => fetch('/app/api/session').then((r) => r.json()));
      await page
        .getByRole('heading', { level: 1, name: `Bienvenue, ${session.account.name}`, exact: true })
        .waitFor();
      await page.getByText(`Agence active : ${session.agency.name}`, { exact: true }).waitFor();
      await page.getByRole('heading', { level: 2, name: /^Tableau de bord/ }).waitFor();
      await page.getByRole('list', { name: 'Chiffres clés', exact: true }).waitFor();
      await page.getByRole('list', { name: 'Vos agences', exact: true }).waitFor();
    });

    step('cinq graphiques dessinés, avec légende et tableau de données', async () => {
      for (const chart of CHARTS) {
        const figure = page.locator(`[data-chart="${chart.id}"]`);
        await figure.getByRole('heading', { level: 2, name: chart.title, exact: true }).waitFor();
        const canvas = figure.locator('canvas');
        await canvas.waitFor();
        const image = figure.getByRole('img');
        const label = await image.getAttribute('aria-label');
        assert.ok(label?.startsWith(`${chart.title} : `), `résumé accessible de ${chart.id} : ${label}`);
        // Dessiné : de l'encre sur le canevas, et une légende en bas.
        await page.waitForFunction(
          (id) => {
            const c = document.querySelector(`[data-chart="${id}"] canvas`);
            return c && c.width > 100 && c.height > 100;
          },
          chart.id,
        );
        const ink = await drawn(chart.id);
        assert.ok(ink.total > 500, `${chart.id} dessiné : ${JSON.stringify(ink)}`);
        assert.ok(ink.bottom > 20, `${chart.id} a sa légende en bas : ${JSON.stringify(ink)}`);
        // Le tableau accessible : une ligne par libellé, une colonne par série.
        const table = figure.getByRole('table', { name: chart.title, exact: true });
        assert.equal(await table.locator('tbody tr').count(), chart.rows, chart.id);
        const headers = (await table.locator('thead th').allTextContents()).map(plain);
        assert.deepEqual(headers.slice(1), chart.series, chart.id);
      }
    });

    step('les chiffres des tableaux sont ceux de l’API', async () => {
      const calls = page.getByRole('table', { name: 'Appels ouverts par statut', exact: true });
      const callRows = await calls.locator('tbody tr').evaluateAll((rows) =>
        rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent.trim())),
      );
      assert.deepEqual(
        callRows.map(([label, count]) => [label, Number(plain(count).replace(/\s/g, ''))]),
        figures.calls.byStatus.map((s) => [s.libelle, s.count]),
      );
      const invoices = page.getByRole('table', { name: 'Factures émises et payées par mois', exact: true });
      const monthLabels = (await invoices.locator('tbody th').allTextContents()).map(plain);
      assert.deepEqual(
        monthLabels,
        figures.invoices.map((m) => m.label),
      );
      const visits = page.getByRole('table', { name: 'Visites de la semaine', exact: true });
      const visitCounts = (await visits.locator('tbody td').allTextContents()).map((t) => Number(plain(t).replace(/\s/g, '')));
      assert.deepEqual(visitCounts, [figures.visits.done, figures.visits.remaining, figures.visits.overdue]);
      await shot('tableau-de-bord-01-ecran');
    });

    step('à l’impression : sans menu, graphiques redessinés et tableaux visibles', async () => {
      await page.emulateMedia({ media: 'print' });
      await page.waitForFunction(() => getComputedStyle(document.querySelector('.app-nav')).display === 'none');
      const table = page.locator('[data-chart="chart-unpaid"] table');
      await page.waitForFunction(
        () => getComputedStyle(document.querySelector('[data-chart="chart-unpaid"] table')).position === 'static',
      );
      assert.ok(await table.isVisible());
      // Laisse au graphique le temps de suivre la nouvelle largeur.
      await page.waitForTimeout(300);
      for (const chart of CHARTS) {
        const ink = await drawn(chart.id);
        assert.ok(ink.total > 500, `${chart.id} dessiné à l’impression : ${JSON.stringify(ink)}`);
      }
      await shot('tableau-de-bord-02-impression');
      await page.pdf({ path: path.join(artifactsDir, 'tableau-de-bord-impression.pdf'), format: 'A4' });
      await page.emulateMedia({ media: 'screen' });
      assert.deepEqual(pageErrors, []);
    });
  });
}
