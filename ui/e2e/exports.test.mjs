// Test de bout en bout des exports des listes (CSV et Excel, barre de progression), contre un
// serveur Liftdesk réel lancé sur la démo :
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/exports.test.mjs'
//
// LIFTDESK_URL, LIFTDESK_CREDENTIALS (voir login.test.mjs) ; LIFTDESK_PY_VENV : l'environnement
// Python où openpyxl relit les classeurs (défaut ~/.cache/liftdesk/venv) ; LIFTDESK_ARTIFACTS :
// dossier des captures et des fichiers téléchargés (écrits dans <dossier>/ui/) ; LIFTDESK_CHROMIUM :
// navigateur (défaut /usr/bin/chromium).
//
// L'administratrice de la démo filtre les factures par statut (« Payée »), puis « Exporter » →
// « Excel (.xlsx) » : l'export part avec les filtres de la liste (`status=payee`), « Export prêt :
// factures-AAAA-MM-JJ.xlsx » s'affiche avec un lien « Télécharger », le fichier est téléchargé ;
// openpyxl le relit : l'en-tête (« Numéro », « Nature », « Statut », « Client »…), autant de lignes
// que la liste en compte, les numéros des pièces filtrées, des montants numériques. La même liste
// en CSV : BOM UTF-8, `;`, même en-tête, montants à virgule, dates JJ/MM/AAAA. Le parc cherché
// (numéro d'un équipement) part en CSV avec `q` et l'état ; « Export comptable » (période par
// défaut : le mois précédent) sur les douze derniers mois donne un CSV dont l'en-tête commence par
// `Date;Numéro;Nature;Client;SIREN;HT`. Enfin les appels non résolus, les devis (Échap replie le
// menu), l'équipe et la semaine du planning s'exportent aussi (en-têtes vérifiés). Un long export
// (réponses simulées sur l'écran
// « Clients ») montre sa barre « Export en cours : 1 200 / 5 000 lignes (24 %) » puis son échec ;
// un refus du serveur au lancement s'affiche tel quel. Le serveur de démo est partagé par les tests :
// les totaux attendus sont ceux que la liste affiche au moment de l'export.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { before } from 'node:test';
import { artifactsDir, describeOnServer, plain, PYTHON, TIMEOUT } from './harness.mjs';

const STEP_TIMEOUT = 90_000;
const EXPORTS_PATH = '/app/api/exports';

const T = {
  menu: 'Menu principal',
  export: 'Exporter',
  csv: 'CSV (Excel, séparateur ;)',
  xlsx: 'Excel (.xlsx)',
  accounting: 'Export comptable',
  invoiceHeader: [
    'Numéro',
    'Nature',
    'Statut',
    'Client',
    'Identifiant client',
    'Émise le',
    'Échéance',
    'Réglée le',
    'Total HT',
    'Total TTC',
  ],
};

/** Lit un classeur avec openpyxl : ses feuilles, chaque ligne en JSON (dates en texte ISO). */
function readWorkbook(file) {
  const script = `
import json, sys, datetime, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
def cell(v):
    if isinstance(v, (datetime.datetime, datetime.date)):
        return {"date": v.isoformat()}
    return v
out = {"sheets": wb.sheetnames, "rows": [[cell(c) for c in row] for row in wb.worksheets[0].iter_rows(values_only=True)]}
print(json.dumps(out, ensure_ascii=False))
`;
  return JSON.parse(execFileSync(PYTHON, ['-c', script, file], { encoding: 'utf8' }));
}

/** Un CSV `;` (champs entre guillemets possibles, `""` pour un guillemet), lignes CRLF. */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ';') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const fold = (text) =>
  String(text ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

describeOnServer(
  'exports des listes en CSV et en Excel',
  {
    timeout: 10 * STEP_TIMEOUT,
    stepTimeout: STEP_TIMEOUT,
    shots: 'exports',
    context: { timezoneId: 'Europe/Paris', acceptDownloads: true },
  },
  (ui) => {
    const { pageErrors, step, shot, apiResponse, signIn } = ui;
    const downloadsDir = path.join(artifactsDir, 'exports');
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    /** Le filtre des factures et ce que la liste en montre. */
    const invoices = { status: 'payee', total: 0, numbers: new Set(), statusLabel: '' };

    /** Une lecture de `pathname` dont les paramètres comprennent `params`. */
    const listRead = (pathname, params = {}) =>
      page.waitForResponse(
        (r) => {
          const url = new URL(r.url());
          if (url.pathname !== pathname || r.request().method() !== 'GET') return false;
          return Object.entries(params).every(([key, value]) => url.searchParams.get(key) === String(value));
        },
        { timeout: TIMEOUT },
      );

    const menu = () => page.getByRole('navigation', { name: T.menu });

    /** Un appel de l'API depuis la page, avec le cookie de la session. */
    const getJson = (pathname) =>
      page.evaluate(async (pathname) => {
        const response = await fetch(pathname);
        return { status: response.status, body: await response.json() };
      }, pathname);

    /** Le texte d'un élément, espaces normalisés (les espaces insécables du français aussi). */
    const textOf = async (locator) => plain(await locator.textContent());

    /**
     * « Exporter » → `format` (et l'étendue `scope` si le menu en propose) dans `within` : le corps
     * envoyé, le dernier état lu (« prêt »), la ligne d'état affichée et le fichier enregistré.
     */
    async function exportFrom(within, format, { scope } = {}) {
      const exporter = within.getByRole('button', { name: T.export, exact: true });
      await exporter.click();
      assert.equal(await exporter.getAttribute('aria-expanded'), 'true');
      const panel = within.getByRole('group', { name: "Format de l'export" });
      if (scope) await panel.getByRole('combobox').selectOption({ label: scope });
      const started = apiResponse(EXPORTS_PATH, 'POST');
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 30_000 }),
        panel.getByRole('button', { name: format === 'csv' ? T.csv : T.xlsx, exact: true }).click(),
      ]);
      const startResponse = await started;
      assert.equal(startResponse.status(), 202, await startResponse.text());
      const body = JSON.parse(startResponse.request().postData() ?? '{}');
      const job = await startResponse.json();
      assert.equal(job.format, format);
      assert.ok(['en_cours', 'pret'].includes(job.status), `statut au lancement : ${job.status}`);

      const progress = within.locator('[data-testid="export-progress"]');
      await within.locator('[data-testid="export-progress"]:is([data-phase="pret"], [data-phase="echec"], [data-phase="erreur"])').waitFor();
      assert.equal(await progress.getAttribute('data-phase'), 'pret', await textOf(progress));
      const line = await textOf(progress.locator('.line'));
      assert.equal(line, `Export prêt : ${job.fileName}`);
      // Le lien de secours pointe sur le fichier de l'export.
      const link = progress.getByRole('link', { name: /^Télécharger/ });
      assert.equal(await link.getAttribute('href'), `${EXPORTS_PATH}/${encodeURIComponent(job.id)}/file`);
      assert.equal(await link.getAttribute('download'), job.fileName);
      // La barre a atteint son terme.
      assert.equal(await progress.locator('progress').getAttribute('value'), '1');
      assert.equal(download.suggestedFilename(), job.fileName);
      const file = path.join(downloadsDir, job.fileName.replace(/(\.\w+)$/, `-${Date.now().toString(36)}$1`));
      await download.saveAs(file);
      const finalJob = await getJson(`${EXPORTS_PATH}/${encodeURIComponent(job.id)}`);
      assert.equal(finalJob.status, 200);
      assert.equal(finalJob.body.status, 'pret');
      assert.equal(finalJob.body.done, finalJob.body.total);
      return { body, job: finalJob.body, file, progress };
    }

    before(() => {
      ({ page, creds } = ui);
      mkdirSync(downloadsDir, { recursive: true });
    });

    step('les factures filtrées par statut, exportées en Excel et relues par openpyxl', async () => {
      await signIn(creds.admin);
      await menu().getByRole('link', { name: 'Factures', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Factures et avoirs' }).waitFor();
      await page.getByLabel('Statut', { exact: true }).selectOption(invoices.status);
      invoices.statusLabel = ((await page.getByLabel('Statut', { exact: true }).locator('option:checked').textContent()) ?? '').trim();
      const listed = listRead('/app/api/invoices', { status: invoices.status });
      await page.getByRole('button', { name: 'Filtrer', exact: true }).click();
      const first = await (await listed).json();
      invoices.total = first.total;
      assert.ok(invoices.total >= 1, 'la démo a des factures payées');
      await page.waitForFunction(
        (total) => document.querySelector('[data-testid="invoice-count"] strong')?.textContent?.replace(/\D/g, '') === String(total),
        invoices.total,
      );
      // Les numéros de toute la sélection (toutes les pages de la liste).
      for (let p = 1; (p - 1) * 200 < invoices.total; p += 1) {
        const answer = await getJson(`/app/api/invoices?status=${invoices.status}&limit=200&page=${p}`);
        assert.equal(answer.status, 200);
        for (const row of answer.body.results) invoices.numbers.add(row.number ?? '');
      }

      const { body, job, file } = await exportFrom(page.locator('.toolbar'), 'xlsx');
      assert.deepEqual(body, { list: 'invoices', format: 'xlsx', query: `status=${invoices.status}` });
      assert.match(job.fileName, /^factures-\d{4}-\d{2}-\d{2}\.xlsx$/);
      assert.equal(job.total, invoices.total);
      await shot('exports-01-factures-xlsx');

      const workbook = readWorkbook(file);
      const [header, ...rows] = workbook.rows;
      assert.deepEqual(header, T.invoiceHeader);
      assert.equal(rows.length, invoices.total, 'autant de lignes que la liste en compte');
      const col = (name) => header.indexOf(name);
      assert.deepEqual(new Set(rows.map((r) => r[col('Numéro')] ?? '')), invoices.numbers, 'les pièces de la sélection');
      for (const row of rows) {
        assert.ok(['Facture', 'Avoir'].includes(row[col('Nature')]), `nature : ${row[col('Nature')]}`);
        if (row[col('Nature')] === 'Facture') assert.equal(row[col('Statut')], invoices.statusLabel);
        assert.equal(typeof row[col('Total HT')], 'number', `Total HT numérique : ${JSON.stringify(row)}`);
        assert.equal(typeof row[col('Total TTC')], 'number', `Total TTC numérique : ${JSON.stringify(row)}`);
        assert.ok(row[col('Total TTC')] >= row[col('Total HT')] - 1e-9 || row[col('Nature')] === 'Avoir');
        assert.ok(row[col('Émise le')] && typeof row[col('Émise le')] === 'object', 'date d’émission : une vraie date');
        assert.equal(typeof row[col('Client')], 'string');
      }
    });

    step('la même liste en CSV : BOM, « ; », virgule décimale, dates JJ/MM/AAAA ; deux exports de suite', async () => {
      const { body, job, file } = await exportFrom(page.locator('.toolbar'), 'csv');
      assert.deepEqual(body, { list: 'invoices', format: 'csv', query: `status=${invoices.status}` });
      assert.match(job.fileName, /^factures-\d{4}-\d{2}-\d{2}\.csv$/);
      const bytes = readFileSync(file);
      assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'BOM UTF-8');
      const text = bytes.subarray(3).toString('utf8');
      assert.ok(text.startsWith(`${T.invoiceHeader.join(';')}\r\n`), `en-tête : ${text.slice(0, 120)}`);
      const [header, ...rows] = parseCsv(text);
      assert.equal(rows.length, invoices.total);
      const col = (name) => header.indexOf(name);
      for (const row of rows) {
        assert.equal(row.length, header.length);
        assert.match(row[col('Total HT')], /^-?\d+,\d{2}$/);
        assert.match(row[col('Total TTC')], /^-?\d+,\d{2}$/);
        assert.match(row[col('Émise le')], /^\d{2}\/\d{2}\/\d{4}$/);
        if (row[col('Réglée le')]) assert.match(row[col('Réglée le')], /^\d{2}\/\d{2}\/\d{4}$/);
      }
      assert.deepEqual(new Set(rows.map((r) => r[col('Numéro')])), invoices.numbers);
      await shot('exports-02-factures-csv');
    });

    step('le parc cherché par numéro, exporté en CSV', async () => {
      await menu().getByRole('link', { name: 'Équipements', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Équipements' }).waitFor();
      const firstNumber = ((await page.locator('table.park tbody tr a.number').first().textContent()) ?? '').trim();
      assert.ok(firstNumber, 'un équipement au parc');
      const term = firstNumber;
      const listed = listRead('/app/api/equipment', { q: term });
      await page.getByLabel('Numéro, immeuble ou adresse', { exact: true }).fill(term);
      const answer = await (await listed).json();
      assert.ok(answer.total >= 1);
      // La liste affiche la recherche avant l'export.
      await page.locator('table.park tbody tr a.number', { hasText: firstNumber }).first().waitFor();
      await page.waitForFunction(() => document.querySelector('table.park')?.getAttribute('aria-busy') === 'false');

      const { body, file } = await exportFrom(page.locator('.toolbar'), 'csv');
      assert.deepEqual(body, { list: 'equipment', format: 'csv', query: `q=${encodeURIComponent(term).replace(/%20/g, '+')}&archived=active` });
      const text = readFileSync(file).subarray(3).toString('utf8');
      const [header, ...rows] = parseCsv(text);
      assert.deepEqual(header.slice(0, 4), ['Numéro', 'Type', 'Emplacement', 'Immeuble']);
      assert.equal(rows.length, answer.total, 'autant de lignes que la recherche en trouve');
      const searched = ['Numéro', 'Immeuble', 'Adresse', 'Code postal', 'Ville'].map((h) => header.indexOf(h));
      for (const row of rows) {
        const hay = fold(searched.map((i) => row[i]).join(' '));
        for (const word of fold(term).split(/\s+/)) assert.ok(hay.includes(word), `« ${word} » dans ${row.join(' | ')}`);
      }
      assert.ok(rows.some((r) => r[0] === firstNumber));
      await shot('exports-03-parc-csv');
    });

    step('« Export comptable » : période par défaut le mois précédent ; les douze derniers mois en CSV', async () => {
      await menu().getByRole('link', { name: 'Factures', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Factures et avoirs' }).waitFor();
      await page.getByRole('button', { name: T.accounting, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: T.accounting });
      await dialog.waitFor();
      const today = new Date();
      const pad = (n) => String(n).padStart(2, '0');
      const first = new Date(today.getFullYear(), today.getMonth() - 1, 1);
      const last = new Date(today.getFullYear(), today.getMonth(), 0);
      assert.equal(await dialog.getByLabel('Du', { exact: true }).inputValue(), `${first.getFullYear()}-${pad(first.getMonth() + 1)}-01`);
      assert.equal(
        await dialog.getByLabel('Au', { exact: true }).inputValue(),
        `${last.getFullYear()}-${pad(last.getMonth() + 1)}-${pad(last.getDate())}`,
      );

      const iso = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
      const to = iso(today);
      const from = iso(new Date(today.getFullYear() - 1, today.getMonth(), today.getDate() + 1));
      await dialog.getByLabel('Du', { exact: true }).fill(from);
      await dialog.getByLabel('Au', { exact: true }).fill(to);
      await dialog.getByLabel(T.csv, { exact: true }).check();
      const started = apiResponse(EXPORTS_PATH, 'POST');
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 30_000 }),
        dialog.getByRole('button', { name: 'Exporter', exact: true }).click(),
      ]);
      const res = await started;
      assert.equal(res.status(), 202, await res.text());
      assert.deepEqual(JSON.parse(res.request().postData() ?? '{}'), { list: 'accounting', format: 'csv', query: `from=${from}&to=${to}` });
      const job = await res.json();
      // Le nom porte la période : pas de date d'export en plus.
      assert.equal(job.fileName, `ventes-${from}-au-${to}.csv`);
      await dialog.locator('[data-testid="export-progress"][data-phase="pret"]').waitFor();
      assert.equal(await textOf(dialog.locator('[data-testid="export-progress"] .line')), `Export prêt : ${job.fileName}`);
      const file = path.join(downloadsDir, job.fileName);
      await download.saveAs(file);
      const bytes = readFileSync(file);
      assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'BOM UTF-8');
      const text = bytes.subarray(3).toString('utf8');
      assert.ok(text.startsWith('Date;Numéro;Nature;Client;SIREN;HT'), `en-tête : ${text.slice(0, 160)}`);
      const [header, ...rows] = parseCsv(text);
      assert.deepEqual(header.slice(-5), ['Total HT', 'TVA', 'Total TTC', 'Statut', 'Date de règlement']);
      assert.ok(rows.length >= 1, 'des pièces émises dans les douze derniers mois');
      for (const row of rows) {
        assert.match(row[0], /^\d{2}\/\d{2}\/\d{4}$/);
        assert.ok(['Facture', 'Avoir'].includes(row[2]), `nature : ${row[2]}`);
        assert.match(row[header.indexOf('Total TTC')], /^-?\d+,\d{2}$/);
        if (row[2] === 'Avoir') assert.ok(row[header.indexOf('Total TTC')].startsWith('-'), 'un avoir en négatif');
      }
      await shot('exports-04-export-comptable');
      await dialog.getByRole('button', { name: 'Fermer', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
    });

    step('la barre de progression d’un long export, puis son échec ; le refus du serveur (réponses simulées)', async () => {
      await menu().getByRole('link', { name: 'Clients', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Clients' }).waitFor();
      await page.locator('table.clients[aria-busy="false"]').waitFor();
      const fake = (over = {}) => ({
        id: 'faux-export',
        list: 'clients',
        format: 'csv',
        status: 'en_cours',
        done: 0,
        total: 5000,
        fileName: 'clients-2026-11-28.csv',
        error: null,
        startedAt: new Date().toISOString(),
        ...over,
      });
      const json = (status, body) => ({ status, contentType: 'application/json', body: JSON.stringify(body) });
      const posted = [];
      let reads = 0;
      let release;
      const held = new Promise((resolve) => (release = resolve));
      await page.route('**/app/api/exports', (route) => {
        posted.push(route.request().postDataJSON());
        return route.fulfill(json(202, fake()));
      });
      await page.route('**/app/api/exports/faux-export', async (route) => {
        reads += 1;
        if (reads >= 3) await held;
        return route.fulfill(
          json(200, reads < 3 ? fake({ done: 1200 }) : fake({ status: 'echec', done: 1200, error: "Le serveur s'est arrêté pendant l'export." })),
        );
      });
      try {
        const toolbar = page.locator('.toolbar');
        await toolbar.getByRole('button', { name: T.export, exact: true }).click();
        await toolbar.getByRole('button', { name: T.csv, exact: true }).click();
        const bar = page.getByRole('progressbar', { name: "Progression de l'export" });
        await bar.waitFor();
        await page.waitForFunction(() => document.querySelector('[data-testid="export-progress"] progress')?.getAttribute('value') === '1200');
        assert.equal(await bar.getAttribute('max'), '5000');
        const progress = toolbar.locator('[data-testid="export-progress"]');
        assert.equal(await textOf(progress.locator('.line')), 'Export en cours : 1 200 / 5 000 lignes (24 %)');
        const busy = toolbar.getByRole('button', { name: 'Export en cours…', exact: true });
        assert.equal(await busy.getAttribute('aria-disabled'), 'true');
        // Le focus reste sur le bouton pendant l'export (clavier).
        assert.equal(await busy.evaluate((el) => el === document.activeElement), true);
        await shot('exports-05-progression');
        release();
        await progress.getByRole('alert').waitFor();
        assert.equal(await textOf(progress.getByRole('alert')), "Échec de l'export : Le serveur s'est arrêté pendant l'export.");
        assert.deepEqual(posted, [{ list: 'clients', format: 'csv', query: 'archived=active' }]);

        // Un refus au lancement (trois exports en cours) : la phrase du serveur.
        await page.unroute('**/app/api/exports');
        await page.route('**/app/api/exports', (route) =>
          route.fulfill(json(409, { error: "3 exports sont déjà en cours : attendez que l'un d'eux se termine." })),
        );
        await toolbar.getByRole('button', { name: T.export, exact: true }).click();
        await toolbar.getByRole('button', { name: T.xlsx, exact: true }).click();
        await page.waitForFunction(() => document.querySelector('[data-testid="export-progress"]')?.getAttribute('data-phase') === 'erreur');
        assert.equal(await textOf(progress.getByRole('alert')), "3 exports sont déjà en cours : attendez que l'un d'eux se termine.");
        await progress.getByRole('button', { name: 'Fermer', exact: true }).click();
        await progress.waitFor({ state: 'detached' });
      } finally {
        await page.unroute('**/app/api/exports');
        await page.unroute('**/app/api/exports/faux-export');
      }
    });

    step('appels non résolus, devis, équipe et semaine du planning', async () => {
      await menu().getByRole('link', { name: 'Appels de panne', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Appels de panne' }).waitFor();
      const calls = await exportFrom(page.locator('.toolbar'), 'csv', { scope: 'Appels non résolus' });
      assert.deepEqual(calls.body, { list: 'calls', format: 'csv', query: 'status=ouverts' });
      let [header, ...rows] = parseCsv(readFileSync(calls.file).subarray(3).toString('utf8'));
      assert.deepEqual(header.slice(0, 3), ['Référence', 'Reçu le', 'Statut']);
      assert.equal(rows.length, calls.job.total);
      assert.ok(rows.every((r) => r[2] !== 'Résolue'), 'aucun appel résolu');

      // Les devis : le menu se replie à Échap, le focus revient sur « Exporter ».
      await menu().getByRole('link', { name: 'Devis', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Devis' }).waitFor();
      const exporter = page.locator('.toolbar').getByRole('button', { name: T.export, exact: true });
      await exporter.click();
      await page.getByRole('button', { name: T.csv, exact: true }).waitFor();
      await page.keyboard.press('Escape');
      assert.equal(await exporter.getAttribute('aria-expanded'), 'false');
      assert.equal(await page.getByRole('button', { name: T.csv, exact: true }).count(), 0);
      assert.equal(await exporter.evaluate((el) => el === document.activeElement), true);
      const quotes = await exportFrom(page.locator('.toolbar'), 'csv');
      assert.deepEqual(quotes.body, { list: 'quotes', format: 'csv' });
      [header, ...rows] = parseCsv(readFileSync(quotes.file).subarray(3).toString('utf8'));
      assert.deepEqual(header.slice(0, 3), ['Numéro', 'Créé le', 'Statut']);
      assert.equal(rows.length, quotes.job.total);

      await menu().getByRole('link', { name: 'Techniciens', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Techniciens' }).waitFor();
      const team = await exportFrom(page.locator('.toolbar'), 'xlsx');
      assert.deepEqual(team.body, { list: 'technicians', format: 'xlsx' });
      const workbook = readWorkbook(team.file);
      assert.deepEqual(workbook.rows[0].slice(0, 2), ['Nom', 'Secteurs']);
      assert.equal(workbook.rows.length - 1, team.job.total);
      assert.ok(workbook.rows.slice(1).every((r) => typeof r[2] === 'number'), 'appels en cours : des nombres');

      await menu().getByRole('link', { name: 'Planning', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Planning' }).waitFor();
      await page.locator('.week-title').waitFor();
      const monday = await page.getByLabel('Aller au', { exact: true }).inputValue();
      const sunday = new Date(`${monday}T12:00:00Z`);
      sunday.setUTCDate(sunday.getUTCDate() + 6);
      const visits = await exportFrom(page.locator('.toolbar'), 'csv');
      assert.deepEqual(visits.body, {
        list: 'visits',
        format: 'csv',
        query: `from=${monday}&to=${sunday.toISOString().slice(0, 10)}`,
      });
      [header, ...rows] = parseCsv(readFileSync(visits.file).subarray(3).toString('utf8'));
      assert.deepEqual(header.slice(0, 3), ['Jour', 'Prévue le', 'Statut']);
      assert.equal(rows.length, visits.job.total);

      // Le filtre « Techniciens » qui n'en désigne qu'un : ses visites seulement.
      const name = ((await page.locator('.tech-name').first().textContent()) ?? '').trim();
      assert.ok(name, 'un technicien au planning');
      await page.getByLabel('Techniciens', { exact: true }).fill(name);
      await page.waitForFunction(() => document.querySelectorAll('.tech-name').length >= 1);
      const own = await exportFrom(page.locator('.toolbar'), 'csv');
      assert.match(own.body.query, new RegExp(`^from=${monday}&to=\\d{4}-\\d{2}-\\d{2}&technician=[^&]+$`));
      [header, ...rows] = parseCsv(readFileSync(own.file).subarray(3).toString('utf8'));
      assert.equal(rows.length, own.job.total);
      assert.ok(rows.every((r) => r[header.indexOf('Technicien')] === name), `les visites de ${name} seulement`);
      await shot('exports-06-planning');
      assert.deepEqual(pageErrors, []);
    });
  },
);
