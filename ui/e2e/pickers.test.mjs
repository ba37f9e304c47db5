// Test de bout en bout des sélecteurs partagés (ticket 22, point 6), contre un serveur Liftdesk
// réel lancé sur la démonstration (voir login.test.mjs pour les variables), en administrateur :
// - liste des factures : le filtre « Client » trouve un client par une partie de son NOM (et non
//   plus par son identifiant) ; choisi, la liste ne montre que ses pièces, autant que
//   GET /app/api/invoices?client=ID ; l'adresse garde le client et un rechargement le relit (son
//   nom revient dans le champ) ;
// - « Échues seulement » : seules les pièces dont l'échéance est passée et qui ne sont pas
//   soldées, autant que GET /app/api/invoices?overdue=1 ; l'adresse porte overdue=1 ; l'export
//   de la liste part avec ce filtre et compte les mêmes pièces ;
// - « Nouvel appel » (tableau des appels) : l'appareil se trouve par le nom de son immeuble ;
//   l'appel créé nomme cet appareil ;
// - « Nouveau devis » : le même appareil se trouve par les mots de son adresse ; le devis créé
//   porte cet appareil ;
// - « Nouvelle visite » (planning) : le même sélecteur (Flèche bas mène aux choix, « Retirer »
//   efface le choix).
// Captures pickers-… dans $LIFTDESK_ARTIFACTS/ui/.
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/pickers.test.mjs'
//
// Le test crée un appel et un devis ; d'autres fichiers peuvent changer la démo.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describeOnServer, plain, STEP_TIMEOUT } from './harness.mjs';

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Le jour à Paris, `AAAA-MM-JJ` (celui du serveur pour les échéances). */
const parisToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
/** `31/12/2026` → `2026-12-31`. */
const isoOf = (frenchDay) => {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(plain(frenchDay));
  return match ? `${match[3]}-${match[2]}-${match[1]}` : null;
};
const num = (text) => Number(plain(text).replace(/\D/g, ''));

describeOnServer(
  'sélecteurs : client par son nom, factures échues, appareil par immeuble ou adresse',
  { timeout: 10 * STEP_TIMEOUT, shots: 'pickers', viewport: { width: 1440, height: 900 } },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, appApi, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    /** Un appareil numéroté dont l'immeuble a un nom, trouvé par ce nom et par les mots de son adresse. */
    let lift;
    let byBuilding;
    let byAddress;

    async function apiGet(apiPath) {
      const answer = await appApi('GET', apiPath);
      assert.equal(answer.status, 200, `${apiPath} : ${JSON.stringify(answer.body)}`);
      return answer.body;
    }

    /** Les lignes de la liste des factures : numéro, client (lien), acheteur, échéance, statut. */
    async function invoiceRows() {
      return page.locator('[data-testid="invoice-list"] tbody tr').evaluateAll((rows) =>
        rows.map((row) => {
          const cells = [...row.querySelectorAll('td')].map((td) => (td.textContent ?? '').replace(/\s+/g, ' ').trim());
          return {
            number: cells[0],
            clientHref: row.querySelectorAll('td')[2]?.querySelector('a')?.getAttribute('href') ?? null,
            buyer: cells[3],
            dueOn: cells[5],
            status: cells[7],
          };
        }),
      );
    }

    /** Attend que le nombre de pièces affiché soit `total`. */
    async function waitForCount(total) {
      await page.waitForFunction(
        (n) => document.querySelector('[data-testid="invoice-count"] strong')?.textContent?.replace(/\D/g, '') === String(n),
        total,
      );
    }

    /** Le choix de l'appareil `lift` dans la liste d'un sélecteur (son numéro en titre). */
    function liftChoice(scope, label) {
      return scope
        .getByRole('list', { name: `${label} : choix` })
        .getByRole('button')
        .filter({ has: page.locator('strong', { hasText: new RegExp(`^${escape(lift.number)}$`) }) });
    }

    before(() => ({ page, creds } = ui));

    step('connexion', async () => {
      await signIn(creds.admin);
    });

    step('factures : le client se choisit par une partie de son nom, la liste ne montre que ses pièces', async () => {
      // Un client facturé dont le nom a un mot d'au moins 5 lettres, et une partie de ce mot.
      const listed = await apiGet('/invoices?limit=200');
      const clientIds = [...new Set(listed.results.map((r) => r.client).filter(Boolean))];
      let client;
      let part;
      for (const id of clientIds) {
        const { client: view } = await apiGet(`/clients/${encodeURIComponent(id)}`);
        if (view.archived) continue;
        const word = view.name.split(/[\s'’-]+/).find((w) => /^\p{L}{5,}$/u.test(w));
        if (!word) continue;
        // Le milieu du mot : une partie du nom, ni l'identifiant ni un mot entier.
        const candidate = word.slice(1, 5);
        const found = await apiGet(`/clients?q=${encodeURIComponent(candidate)}&archived=active&limit=8`);
        if (found.results.some((c) => c.id === id)) {
          client = view;
          part = candidate;
          break;
        }
      }
      assert.ok(client, 'un client facturé de la démo, trouvé par une partie de son nom');
      assert.ok(!client.id.toLowerCase().includes(part.toLowerCase()), 'la partie tapée est celle du nom');
      const expected = await apiGet(`/invoices?client=${encodeURIComponent(client.id)}&limit=1`);
      assert.ok(expected.total > 0);
      const everything = await apiGet('/invoices?limit=1');
      assert.ok(expected.total < everything.total, 'le filtre doit réduire la liste');

      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Factures', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Factures et avoirs' }).waitFor();
      await waitForCount(everything.total);

      const field = page.getByLabel('Client', { exact: true });
      await field.pressSequentially(part, { delay: 20 });
      const choices = page.getByRole('list', { name: 'Client : choix' });
      await choices.waitFor();
      // Chaque choix : le nom, puis « identifiant · adresse ».
      const choice = choices.getByRole('button').filter({ has: page.locator('strong', { hasText: new RegExp(`^${escape(client.name)}$`) }) });
      assert.equal(await choice.count(), 1, `« ${client.name} » proposé une fois pour « ${part} »`);
      assert.ok(plain(await choice.locator('span').textContent()).startsWith(client.id), 'l’identifiant en seconde ligne');
      await shot('pickers-01-factures-client-propose');
      await choice.click();

      await page.waitForURL((url) => url.pathname === '/factures' && url.searchParams.get('client') === client.id);
      await waitForCount(expected.total);
      assert.equal(await field.inputValue(), client.name);
      await page.getByText(`Choisi : ${client.name}`, { exact: true }).waitFor();
      const rows = await invoiceRows();
      assert.equal(rows.length, Math.min(expected.total, 50));
      for (const row of rows) {
        assert.equal(row.clientHref, `/clients/${encodeURIComponent(client.id)}`, `pièce ${row.number} d'un autre client`);
      }
      await shot('pickers-02-factures-du-client');

      // Rechargée, la liste garde le client : son nom revient dans le champ.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Factures et avoirs' }).waitFor();
      await waitForCount(expected.total);
      await page.getByText(`Choisi : ${client.name}`, { exact: true }).waitFor();
      assert.equal(await page.getByLabel('Client', { exact: true }).inputValue(), client.name);

      // « Retirer » : toutes les pièces reviennent, l'adresse ne porte plus de client.
      await page.getByRole('button', { name: 'Retirer : Client', exact: true }).click();
      await waitForCount(everything.total);
      assert.equal(new URL(page.url()).searchParams.get('client'), null);
      assert.equal(await page.getByLabel('Client', { exact: true }).inputValue(), '');
    });

    step('« Échues seulement » : les pièces échues non soldées, overdue=1 dans l’adresse et dans l’export', async () => {
      const overdue = await apiGet('/invoices?overdue=1&limit=200');
      const everything = await apiGet('/invoices?limit=1');
      assert.ok(overdue.total > 0, 'la démo a des factures échues');
      assert.ok(overdue.total < everything.total, 'le filtre doit réduire la liste');
      const today = parisToday();

      await page.getByLabel('Échues seulement', { exact: true }).check();
      await page.waitForURL((url) => url.pathname === '/factures' && url.searchParams.get('overdue') === '1');
      await waitForCount(overdue.total);
      const rows = await invoiceRows();
      assert.equal(rows.length, Math.min(overdue.total, 50));
      for (const row of rows) {
        const due = isoOf(row.dueOn);
        assert.ok(due && due < today, `pièce ${row.number} : échéance ${row.dueOn} pas dépassée`);
        assert.ok(!['Payée', 'Soldé', 'Brouillon'].includes(row.status), `pièce ${row.number} : ${row.status}`);
      }
      for (const row of overdue.results) assert.ok(row.dueOn < today && row.status !== 'payee', JSON.stringify(row));
      await shot('pickers-03-factures-echues');

      // L'adresse telle que le tableau de bord l'ouvre : la case reste cochée.
      await page.goto(new URL('/factures?overdue=1', baseUrl).href);
      await waitForCount(overdue.total);
      assert.equal(await page.getByLabel('Échues seulement', { exact: true }).isChecked(), true);

      // L'export de la liste part avec le filtre et compte les mêmes pièces.
      const toolbar = page.locator('.toolbar');
      const exporter = toolbar.getByRole('button', { name: 'Exporter', exact: true });
      assert.ok(await exporter.isEnabled(), 'export permis pour les échues');
      await exporter.click();
      const started = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/exports' && r.request().method() === 'POST',
      );
      await toolbar.getByRole('group', { name: "Format de l'export" }).getByRole('button', { name: /^CSV/ }).click();
      const response = await started;
      assert.equal(response.status(), 202, await response.text());
      const body = JSON.parse(response.request().postData() ?? '{}');
      assert.equal(body.list, 'invoices');
      assert.equal(new URLSearchParams(body.query).get('overdue'), '1', `query : ${body.query}`);
      const job = await response.json();
      await toolbar.locator('[data-testid="export-progress"]:is([data-phase="pret"], [data-phase="echec"], [data-phase="erreur"])').waitFor();
      const done = await apiGet(`/exports/${encodeURIComponent(job.id)}`);
      assert.equal(done.status, 'pret');
      assert.equal(done.total, overdue.total, 'l’export compte les pièces échues');

      // Décochée : toute la liste revient, l'adresse n'a plus le filtre.
      await page.getByLabel('Échues seulement', { exact: true }).uncheck();
      await waitForCount(everything.total);
      assert.equal(new URL(page.url()).searchParams.get('overdue'), null);
    });

    step('un appareil de la démo, trouvé par le nom de son immeuble et par les mots de son adresse', async () => {
      const park = await apiGet('/calls/equipment?q=');
      for (const candidate of park.results) {
        if (!candidate.number || !candidate.building || !candidate.address) continue;
        const street = candidate.address.split(',')[0] ?? '';
        const words = street.split(/\s+/).filter((w) => /\p{L}{3,}/u.test(w));
        if (words.length === 0) continue;
        const buildingQuery = candidate.building;
        const addressQuery = words.join(' ');
        // Aucun des deux textes ne commence un numéro d'appareil : la recherche passe par l'immeuble et l'adresse.
        if (candidate.number.toLowerCase().startsWith(buildingQuery.replace(/\s/g, '').toLowerCase().slice(0, 3))) continue;
        const a = await apiGet(`/calls/equipment?q=${encodeURIComponent(buildingQuery)}`);
        const b = await apiGet(`/calls/equipment?q=${encodeURIComponent(addressQuery)}`);
        if (a.results.some((e) => e.id === candidate.id) && b.results.some((e) => e.id === candidate.id)) {
          lift = candidate;
          byBuilding = buildingQuery;
          byAddress = addressQuery;
          break;
        }
      }
      assert.ok(lift, 'un appareil numéroté avec immeuble et adresse dans la démo');
      assert.ok(!byBuilding.includes(lift.number) && !byAddress.includes(lift.number));
    });

    step('« Nouvel appel » : l’appareil trouvé par le nom de son immeuble, l’appel créé le nomme', async () => {
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Appels de panne', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Appels de panne', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Nouvel appel', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Nouvel appel' });
      await dialog.waitFor();
      const field = dialog.getByLabel('Appareil', { exact: true });
      await field.pressSequentially(byBuilding, { delay: 15 });
      const choice = liftChoice(dialog, 'Appareil');
      await choice.waitFor();
      assert.equal(plain(await choice.locator('span').textContent()), plain(`${lift.building} · ${lift.address}`));
      await shot('pickers-04-nouvel-appel-par-immeuble');
      await choice.click();
      assert.equal(await field.inputValue(), lift.number);
      await dialog.getByText(`Choisi : ${lift.number}`, { exact: true }).waitFor();
      await dialog.getByLabel("Type d'appel").selectOption('panne');
      await dialog.getByLabel("Description (ce que l'appelant signale)").fill('Appareil trouvé par le nom de son immeuble.');
      const created = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/calls' && r.request().method() === 'POST',
      );
      await dialog.getByRole('button', { name: "Enregistrer l'appel" }).click();
      const res = await created;
      assert.equal(res.status(), 201, await res.text());
      assert.equal(JSON.parse(res.request().postData() ?? '{}').equipmentId, lift.id);
      const { id } = await res.json();
      await page.waitForURL((url) => url.pathname === `/appels/${id}`);
      await page.getByRole('heading', { level: 1, name: /^Appel / }).waitFor();
      await page.locator('main').getByText(lift.number, { exact: false }).first().waitFor();
      const detail = await apiGet(`/calls/${encodeURIComponent(id)}`);
      assert.equal(detail.call.equipment.id, lift.id);
      await shot('pickers-05-appel-cree');
    });

    step('« Nouveau devis » : le même appareil trouvé par les mots de son adresse', async () => {
      await page.goto(new URL('/devis/nouveau', baseUrl).href);
      await page.getByRole('heading', { level: 1, name: 'Nouveau devis' }).waitFor();
      const field = page.getByLabel('Équipement', { exact: true });
      await field.pressSequentially(byAddress, { delay: 15 });
      const choice = liftChoice(page, 'Équipement');
      await choice.waitFor();
      assert.equal(plain(await choice.locator('span').textContent()), plain(`${lift.building} · ${lift.address}`));
      await shot('pickers-06-nouveau-devis-par-adresse');
      await choice.click();
      assert.equal(await field.inputValue(), lift.number);
      await page.getByText(`Choisi : ${lift.number}`, { exact: true }).waitFor();
      await page.getByLabel('Objet', { exact: true }).fill('Devis d’un appareil trouvé par son adresse');
      await page.getByLabel('Libellé de la ligne 1').fill('Remplacement du bouton palier');
      await page.getByLabel('Quantité de la ligne 1').fill('1');
      await page.getByLabel('Prix unitaire HT de la ligne 1').fill('85');
      const created = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/quotes' && r.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Créer le devis' }).click();
      const res = await created;
      assert.equal(res.status(), 201, await res.text());
      const { id } = await res.json();
      await page.waitForURL((url) => url.pathname === `/devis/${id}`);
      const quote = await apiGet(`/quotes/${encodeURIComponent(id)}`);
      assert.equal(quote.quote.equipment?.id, lift.id, JSON.stringify(quote.quote.equipment));
    });

    step('« Nouvelle visite » : le même sélecteur, Flèche bas vers les choix, « Retirer »', async () => {
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Planning', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Planning', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Nouvelle visite', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Nouvelle visite' });
      await dialog.waitFor();
      const field = dialog.getByLabel('Équipement', { exact: true });
      await field.pressSequentially(byBuilding, { delay: 15 });
      const choice = liftChoice(dialog, 'Équipement');
      await choice.waitFor();
      // Flèche bas : le focus passe du champ au premier choix.
      await field.press('ArrowDown');
      const focusedInList = await dialog
        .getByRole('list', { name: 'Équipement : choix' })
        .evaluate((list) => list.contains(document.activeElement) && document.activeElement?.tagName === 'BUTTON');
      assert.ok(focusedInList, 'Flèche bas mène aux choix');
      await choice.focus();
      await page.keyboard.press('Enter');
      assert.equal(await field.inputValue(), lift.number);
      await dialog.getByText(`Choisi : ${lift.number}`, { exact: true }).waitFor();
      await dialog.getByText(`${lift.building} · ${lift.address}`, { exact: true }).waitFor();
      await shot('pickers-07-nouvelle-visite');
      await dialog.getByRole('button', { name: 'Retirer : Équipement', exact: true }).click();
      assert.equal(await field.inputValue(), '');
      assert.equal(await dialog.getByText(/^Choisi : /).count(), 0);
      await dialog.getByRole('button', { name: 'Planifier', exact: true }).click();
      await dialog.getByText("Choisissez l'équipement à visiter.", { exact: true }).waitFor();
      await dialog.getByRole('button', { name: 'Annuler', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      assert.deepEqual(pageErrors, []);
    });
  },
);
