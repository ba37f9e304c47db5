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
import path from 'node:path';
import { before } from 'node:test';
import { artifactsDir, describeOnServer, plain, STEP_TIMEOUT, TIMEOUT } from './harness.mjs';

const CHARTS = [
  { id: 'chart-calls', title: 'Appels ouverts par statut', rows: 4, series: ['Appels ouverts'] },
  { id: 'chart-visits', title: 'Visites de la semaine', rows: 3, series: ['Visites'] },
  { id: 'chart-invoices', title: 'Factures émises et payées par mois', rows: 12, series: ['Émises', 'Payées'] },
  { id: 'chart-unpaid', title: 'Impayés par ancienneté', rows: 5, series: ['Montant impayé'] },
  { id: 'chart-knowledge', title: 'Équipements par taux de connaissance', rows: 5, series: ['Équipements'] },
];

describeOnServer(
  'tableau de bord',
  { timeout: 10 * STEP_TIMEOUT, shots: 'tableau-de-bord' },
  (ui) => {
    const { pageErrors, step, shot, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;

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

    before(() => ({ page, creds } = ui));

    let figures;

    step('connexion : l’accueil garde son titre et montre le tableau de bord', async () => {
      const dashboard = page.waitForResponse((r) => new URL(r.url()).pathname === '/app/api/dashboard', {
        timeout: TIMEOUT,
      });
      await signIn(creds.admin);
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
  },
);
