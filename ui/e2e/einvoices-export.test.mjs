// Test de bout en bout de l'export des factures électroniques (zip) de la liste des factures,
// contre un serveur Liftdesk réel lancé sur la démonstration (voir login.test.mjs pour les
// variables), en administrateur :
// (a) « Factures et avoirs » : le menu « Exporter » ne propose toujours que le CSV et l'Excel (pas
//     de zip) ; « Factures électroniques (zip) » ouvre sa fenêtre : la phrase d'aide, la période
//     d'émission (par défaut le mois civil précédent), aucun choix de format ;
// (b) une période à l'envers est refusée en français sous les champs, rien n'est lancé ; le
//     serveur refuse lui aussi cette période (422, en français) ;
// (c) la période du 1er du mois précédent à hier (les pièces de la démo du mois en cours et du
//     précédent, sans celles qu'un autre test émet aujourd'hui sur le serveur partagé) : l'export
//     part (`{list: "facturx", format: "zip", query: "from=…&to=…"}`), la barre atteint
//     « N / N documents » (N : les pièces émises dans la période selon `GET /invoices` ; les
//     relectures de l'export comptent jusqu'à N sans jamais le dépasser),
//     « Export prêt : factures-electroniques-<du>-au-<au>.zip » ; le zip téléchargé
//     (`application/zip`), relu en node (répertoire central, entrées décompressées), contient pour
//     chacune des N pièces `<numéro>.pdf` (un PDF qui joint `factur-x.xml`) et `xml/<numéro>.xml`
//     (une facture structurée CII qui porte son numéro) et rien d'autre, dont des factures `FA-…` ;
// (d) un long export (réponses simulées) montre « Export en cours : 3 / 12 documents (25 %) »,
//     la fenêtre ne se ferme pas pendant qu'il tourne, puis son échec s'affiche.
// Captures factures-electroniques-… dans $LIFTDESK_ARTIFACTS/ui/ (le zip dans …/ui/factures-electroniques/).
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/einvoices-export.test.mjs'
//
// Le test ne modifie pas la démo.

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { before } from 'node:test';
import { addDays, artifactsDir, describeOnServer, expectText, plain, STEP_TIMEOUT, TIMEOUT } from './harness.mjs';

const EXPORTS_PATH = '/app/api/exports';

const T = {
  menu: 'Menu principal',
  action: 'Factures électroniques (zip)',
  dialog: 'Factures électroniques',
  export: 'Exporter',
  hint:
    'Chaque facture et avoir émis dans la période : son PDF Factur-X (la facture structurée est jointe au PDF) ' +
    "et son XML, dans une archive zip, à déposer sur la plateforme agréée de l'agence.",
  reversed: 'La période est vide : la date de début est postérieure à la date de fin.',
};

/**
 * Les entrées d'un zip, lues par son répertoire central : { name, data } (données décompressées :
 * stockées ou « deflate »).
 */
function readZip(bytes) {
  // La fin du répertoire central : sa signature, cherchée depuis la fin (commentaire possible).
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i -= 1) {
    if (bytes.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  assert.ok(end >= 0, 'fin du répertoire central du zip introuvable');
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const entries = [];
  for (let n = 0; n < count; n += 1) {
    assert.equal(bytes.readUInt32LE(at), 0x02014b50, `entrée ${n} du répertoire central`);
    const method = bytes.readUInt16LE(at + 10);
    const compressed = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    assert.equal(bytes.readUInt32LE(local), 0x04034b50, `en-tête local de ${name}`);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const raw = bytes.subarray(start, start + compressed);
    assert.ok([0, 8].includes(method), `${name} : méthode de compression ${method}`);
    entries.push({ name, data: method === 8 ? inflateRawSync(raw) : raw });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

const pad = (n) => String(n).padStart(2, '0');
/** Le jour `AAAA-MM-JJ` de `date` à Paris (le fuseau de l'agence et du navigateur du test). */
const parisDay = (date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(date);

describeOnServer(
  'export des factures électroniques (zip)',
  {
    timeout: 8 * STEP_TIMEOUT,
    shots: 'factures-electroniques',
    context: { timezoneId: 'Europe/Paris', acceptDownloads: true },
  },
  (ui) => {
    const { pageErrors, step, shot, apiResponse, appApi, signIn } = ui;
    const downloadsDir = path.join(artifactsDir, 'factures-electroniques');
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    /** La période exportée et les numéros des pièces émises dans cette période (selon l'API). */
    const period = { from: '', to: '', numbers: new Set() };

    before(() => {
      ({ page, creds } = ui);
      mkdirSync(downloadsDir, { recursive: true });
    });

    const menu = () => page.getByRole('navigation', { name: T.menu });
    const dialog = () => page.getByRole('dialog', { name: T.dialog });
    const progress = () => dialog().locator('[data-testid="export-progress"]');
    const textOf = async (locator) => plain(await locator.textContent());

    /** Ouvre la fenêtre depuis la liste des factures. */
    async function openDialog() {
      await page.getByRole('button', { name: T.action, exact: true }).click();
      await dialog().waitFor();
    }

    step('le menu « Exporter » sans zip ; la fenêtre, sa phrase et sa période par défaut', async () => {
      await signIn(creds.admin);
      await menu().getByRole('link', { name: 'Factures', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Factures et avoirs' }).waitFor();
      await page.locator('[data-testid="invoice-count"]').waitFor();

      // « Exporter » : le CSV et l'Excel, comme avant ; le zip n'y est pas.
      const toolbar = page.locator('.toolbar');
      await toolbar.getByRole('button', { name: T.export, exact: true }).click();
      const formats = toolbar.getByRole('group', { name: "Format de l'export" }).getByRole('button');
      assert.deepEqual((await formats.allTextContents()).map(plain), ['CSV (Excel, séparateur ;)', 'Excel (.xlsx)']);
      await page.keyboard.press('Escape');

      await openDialog();
      await expectText(dialog().locator('.hint'), T.hint);
      const today = new Date();
      const first = new Date(today.getFullYear(), today.getMonth() - 1, 1);
      const last = new Date(today.getFullYear(), today.getMonth(), 0);
      assert.equal(await dialog().getByLabel('Du', { exact: true }).inputValue(), `${first.getFullYear()}-${pad(first.getMonth() + 1)}-01`);
      assert.equal(
        await dialog().getByLabel('Au', { exact: true }).inputValue(),
        `${last.getFullYear()}-${pad(last.getMonth() + 1)}-${pad(last.getDate())}`,
      );
      // Pas de choix de format : un zip, toujours.
      assert.equal(await dialog().getByRole('radio').count(), 0);
      assert.equal(await progress().count(), 0);
      await shot('factures-electroniques-01-fenetre', { fullPage: false });
    });

    step('une période à l’envers : refusée en français, rien n’est lancé ; le serveur la refuse aussi', async () => {
      const posts = [];
      const onRequest = (request) => {
        if (new URL(request.url()).pathname === EXPORTS_PATH && request.method() === 'POST') posts.push(request);
      };
      page.on('request', onRequest);
      try {
        await dialog().getByLabel('Du', { exact: true }).fill('2026-03-31');
        await dialog().getByLabel('Au', { exact: true }).fill('2026-03-01');
        await dialog().getByRole('button', { name: T.export, exact: true }).click();
        const error = dialog().locator('#einvoices-period-error');
        await expectText(error, T.reversed);
        assert.equal(await dialog().getByLabel('Au', { exact: true }).getAttribute('aria-invalid'), 'true');
        assert.equal(await dialog().getByLabel('Au', { exact: true }).evaluate((el) => el === document.activeElement), true);
        await shot('factures-electroniques-02-periode-a-l-envers', { fullPage: false });
        assert.equal(posts.length, 0, 'aucun export lancé');
      } finally {
        page.off('request', onRequest);
      }
      // L'écran refuse avant le serveur, qui refuse aussi cette période, en français.
      const refused = await appApi('POST', '/exports', { list: 'facturx', format: 'zip', query: 'from=2026-03-31&to=2026-03-01' });
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.match(refused.body.error, /^La période est inversée/);
    });

    step('du 1er du mois précédent à hier : « N / N documents », le zip des PDF et des XML', async () => {
      const today = parisDay(new Date());
      period.to = addDays(today, -1);
      const [y, m] = today.split('-').map(Number);
      period.from = `${m === 1 ? y - 1 : y}-${pad(m === 1 ? 12 : m - 1)}-01`;
      // Les pièces émises dans la période, selon la liste de l'API (toutes les pages).
      for (let p = 1; ; p += 1) {
        const answer = await appApi('GET', `/invoices?limit=200&page=${p}`);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        for (const row of answer.body.results) {
          if (row.number && row.issuedOn && row.issuedOn >= period.from && row.issuedOn <= period.to) {
            period.numbers.add(row.number);
          }
        }
        if (p * 200 >= answer.body.total) break;
      }
      const n = period.numbers.size;
      assert.ok(n >= 2, `la démo a des pièces émises du ${period.from} au ${period.to} (${n})`);
      assert.ok([...period.numbers].some((number) => number.startsWith('FA-')), 'des factures parmi elles');

      await dialog().getByLabel('Du', { exact: true }).fill(period.from);
      await dialog().getByLabel('Au', { exact: true }).fill(period.to);
      // Les relectures de l'export par l'écran.
      const reads = [];
      const onResponse = (response) => {
        const url = new URL(response.url());
        if (url.pathname.startsWith(`${EXPORTS_PATH}/`) && !url.pathname.endsWith('/file') && response.request().method() === 'GET') {
          reads.push(response.json().catch(() => null));
        }
      };
      page.on('response', onResponse);
      const started = apiResponse(EXPORTS_PATH, 'POST');
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 60_000 }),
        dialog().getByRole('button', { name: T.export, exact: true }).click(),
      ]);
      const res = await started;
      assert.equal(res.status(), 202, await res.text());
      assert.deepEqual(JSON.parse(res.request().postData() ?? '{}'), {
        list: 'facturx',
        format: 'zip',
        query: `from=${period.from}&to=${period.to}`,
      });
      const job = await res.json();
      assert.equal(job.format, 'zip');
      assert.equal(job.fileName, `factures-electroniques-${period.from}-au-${period.to}.zip`);
      // L'erreur de la période à l'envers a disparu.
      assert.equal(await dialog().locator('#einvoices-period-error').count(), 0);

      // La barre atteint son terme : « N / N documents ».
      await dialog().locator('[data-testid="export-progress"]:is([data-phase="pret"], [data-phase="echec"], [data-phase="erreur"])').waitFor({ timeout: 60_000 });
      assert.equal(await progress().getAttribute('data-phase'), 'pret', await textOf(progress()));
      assert.equal(await textOf(progress().locator('.line')), `Export prêt : ${job.fileName}`);
      await expectText(progress().locator('[data-testid="export-count"]'), `${n} / ${n} documents`);
      const bar = progress().locator('progress');
      assert.equal(await bar.getAttribute('value'), '1');
      assert.equal(plain(await bar.getAttribute('aria-valuetext')), `Terminé : ${n} / ${n} documents`);
      page.off('response', onResponse);
      const states = (await Promise.all(reads)).filter((body) => body?.id === job.id);
      assert.ok(states.length >= 1, 'l’export relu par l’écran');
      const dones = states.map((state) => state.done);
      assert.ok(states.every((state) => state.total === n && state.done <= n), JSON.stringify(states));
      assert.deepEqual(dones, [...dones].sort((a, b) => a - b), `des documents comptés jusqu'au terme : ${dones}`);
      assert.equal(states.at(-1).status, 'pret');
      assert.equal(dones.at(-1), n);
      const link = progress().getByRole('link', { name: /^Télécharger/ });
      assert.equal(await link.getAttribute('href'), `${EXPORTS_PATH}/${encodeURIComponent(job.id)}/file`);
      assert.equal(await link.getAttribute('download'), job.fileName);
      await shot('factures-electroniques-03-pret', { fullPage: false });
      const final = await appApi('GET', `/exports/${encodeURIComponent(job.id)}`);
      assert.equal(final.status, 200);
      assert.equal(final.body.status, 'pret');
      assert.equal(final.body.total, n, 'le serveur compte les mêmes pièces que la liste');
      assert.equal(final.body.done, n);

      // Le fichier : un zip, sous le nom de l'export.
      assert.equal(download.suggestedFilename(), job.fileName);
      const type = await page.evaluate(async (url) => (await fetch(url)).headers.get('content-type'), download.url());
      assert.match(type ?? '', /^application\/zip\b/);
      const file = path.join(downloadsDir, job.fileName);
      await download.saveAs(file);
      const entries = readZip(readFileSync(file));
      const names = entries.map((e) => e.name).sort();
      const expected = [...period.numbers].flatMap((number) => [`${number}.pdf`, `xml/${number}.xml`]).sort();
      assert.deepEqual(names, expected, 'un PDF et un XML par pièce émise dans la période, rien d’autre');
      assert.equal(names.filter((name) => /^FA-.+\.pdf$/.test(name)).length, [...period.numbers].filter((x) => x.startsWith('FA-')).length);
      assert.equal(names.filter((name) => /^xml\/FA-.+\.xml$/.test(name)).length, [...period.numbers].filter((x) => x.startsWith('FA-')).length);
      for (const { name, data } of entries) {
        if (name.endsWith('.pdf')) {
          assert.equal(data.subarray(0, 5).toString('latin1'), '%PDF-', `${name} : un PDF`);
          assert.ok(data.includes('factur-x.xml'), `${name} : la facture structurée jointe au PDF`);
        } else {
          const xml = data.toString('utf8');
          const number = name.slice('xml/'.length, -'.xml'.length);
          assert.ok(xml.includes('<rsm:CrossIndustryInvoice'), `${name} : une facture structurée CII`);
          assert.ok(xml.includes(`<ram:ID>${number}</ram:ID>`), `${name} : porte le numéro ${number}`);
        }
      }
      await dialog().getByRole('button', { name: 'Fermer', exact: true }).click();
      await dialog().waitFor({ state: 'hidden' });
    });

    step('un long export (réponses simulées) : « 3 / 12 documents », la fenêtre reste ouverte, puis l’échec', async () => {
      const fake = (over = {}) => ({
        id: 'faux-zip',
        list: 'facturx',
        format: 'zip',
        status: 'en_cours',
        done: 3,
        total: 12,
        fileName: 'factures-electroniques-2026-10-01-au-2026-10-31.zip',
        error: null,
        startedAt: new Date().toISOString(),
        ...over,
      });
      const json = (status, body) => ({ status, contentType: 'application/json', body: JSON.stringify(body) });
      let release;
      const held = new Promise((resolve) => (release = resolve));
      let reads = 0;
      await page.route('**/app/api/exports', (route) => route.fulfill(json(202, fake({ done: 0 }))));
      await page.route('**/app/api/exports/faux-zip', async (route) => {
        reads += 1;
        if (reads >= 2) await held;
        return route.fulfill(
          json(200, reads < 2 ? fake() : fake({ status: 'echec', error: "Le PDF de la facture FA-PO-2026-000001 n'a pas pu être écrit." })),
        );
      });
      try {
        await openDialog();
        await dialog().getByRole('button', { name: T.export, exact: true }).click();
        await page.waitForFunction(() => document.querySelector('dialog[open] [data-testid="export-progress"] progress')?.getAttribute('value') === '3', null, { timeout: TIMEOUT });
        const bar = dialog().getByRole('progressbar', { name: "Progression de l'export" });
        assert.equal(await bar.getAttribute('max'), '12');
        assert.equal(plain(await bar.getAttribute('aria-valuetext')), '3 / 12 documents (25 %)');
        assert.equal(await textOf(progress().locator('.line')), 'Export en cours : 3 / 12 documents (25 %)');
        // Pendant l'export, la fenêtre ne se ferme pas (Échap, « Fermer » inactif).
        assert.equal(await dialog().getByRole('button', { name: 'Fermer', exact: true }).isDisabled(), true);
        await page.keyboard.press('Escape');
        assert.equal(await dialog().isVisible(), true);
        await shot('factures-electroniques-04-en-cours', { fullPage: false });
        release();
        await progress().getByRole('alert').waitFor();
        assert.equal(
          await textOf(progress().getByRole('alert')),
          "Échec de l'export : Le PDF de la facture FA-PO-2026-000001 n'a pas pu être écrit.",
        );
        await dialog().getByRole('button', { name: 'Fermer', exact: true }).click();
        await dialog().waitFor({ state: 'hidden' });
      } finally {
        await page.unroute('**/app/api/exports');
        await page.unroute('**/app/api/exports/faux-zip');
      }
      assert.deepEqual(pageErrors, []);
    });
  },
);
