// Test de bout en bout de la fiche d'un immeuble (`/immeubles/<id>`), contre un serveur Liftdesk
// réel lancé sur la démonstration (voir login.test.mjs pour les variables) : en administrateur,
// sur le tableau des appels, l'immeuble d'une carte est un lien vers sa fiche ; la fiche s'ouvre
// titrée « Immeuble <nom> » (onglet compris), montre l'adresse en un bloc, le client en lien vers
// sa fiche, les consignes d'accès (« Modifier l'accès » ouvre la fenêtre avec les consignes
// enregistrées) et la liste de ses équipements au parc — autant que
// `GET /app/api/equipment?building=<id>&archived=active` en compte, les mêmes numéros ; le
// numéro d'un équipement ouvre sa fiche, dont l'immeuble ramène à la fiche de l'immeuble. Depuis
// une facture faite d'un devis, l'immeuble de « Appareil concerné » ouvre de même la fiche de son
// immeuble. Un immeuble inconnu : « Immeuble introuvable ».
// Captures immeuble-… dans $LIFTDESK_ARTIFACTS/ui/.
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/building-page.test.mjs'
//
// Le test ne change rien à la démo : il lit les appels, les factures et les immeubles.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describeOnServer, plain, STEP_TIMEOUT } from './harness.mjs';

/** Équipements par page sur la fiche d'un immeuble. */
const PAGE_SIZE = 50;
describeOnServer(
  "fiche d'un immeuble",
  { timeout: 10 * STEP_TIMEOUT, shots: 'immeuble', viewport: { width: 1440, height: 900 } },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, appApi, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    /** L'immeuble de la carte choisie sur le tableau : `GET /buildings/{id}`. */
    let building;
    /** Ses équipements au parc selon l'API (`GET /equipment?building=`). */
    let park;

    /** La fiche ouverte est celle de l'immeuble `wanted` : adresse, titre, titre de l'onglet. */
    async function expectBuildingPage(wanted) {
      await page.waitForURL((url) => url.pathname === `/immeubles/${wanted.id}`);
      const title = `Immeuble ${wanted.name || wanted.address}`;
      await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
      // Le préfixe « (2) » des appels urgents ouverts peut précéder le titre.
      await page.waitForFunction((expected) => document.title.replace(/^\(\d+\) /, '') === expected, `${title} — Liftdesk`);
    }

    /** Les numéros des équipements listés sur la fiche, une fois la liste lue. */
    async function listedNumbers() {
      const table = page.getByRole('table', { name: "Équipements de l'immeuble" });
      await table.waitFor();
      return (await table.locator('tbody tr td:first-child a').allTextContents()).map(plain);
    }

    before(() => ({ page, creds } = ui));

    step("sur le tableau des appels, l'immeuble d'une carte est un lien vers sa fiche", async () => {
      await signIn(creds.admin, { at: '/appels' });
      await page.getByRole('heading', { level: 1, name: 'Appels de panne' }).waitFor();

      // Une carte de la première page d'une colonne, dont l'immeuble a un nom.
      const board = await appApi('GET', '/calls/board');
      assert.equal(board.status, 200, JSON.stringify(board.body));
      const card = board.body.columns.flatMap((c) => c.results).find((c) => c.buildingId && c.building);
      assert.ok(card, 'un appel du tableau dont l’équipement est dans un immeuble nommé');
      const read = await appApi('GET', `/buildings/${card.buildingId}`);
      assert.equal(read.status, 200, JSON.stringify(read.body));
      building = read.body;
      assert.equal(building.name, card.building);

      const link = page.locator(`[data-call="${card.id}"]`).getByRole('link', { name: card.building, exact: true });
      assert.equal(await link.getAttribute('href'), `/immeubles/${card.buildingId}`);
      await shot('immeuble-01-tableau');
      await link.click();
      await expectBuildingPage(building);
    });

    step('la fiche : adresse, client en lien, consignes d’accès et la fenêtre pour les modifier', async () => {
      const town = [building.postalCode, building.city].filter(Boolean).join(' ');
      const lines = [building.address, building.addressComplement, town].filter(Boolean);
      const address = page.getByTestId('building-address');
      assert.deepEqual(
        (await address.innerText()).split('\n').map(plain).filter(Boolean),
        lines,
        'l’adresse, une partie par ligne',
      );
      if (building.client) {
        const client = page.locator('[data-field="client"]').getByRole('link', { name: building.client.name, exact: true });
        assert.equal(await client.getAttribute('href'), `/clients/${building.client.id}`);
      } else {
        assert.equal(plain(await page.locator('[data-field="client"]').textContent()), 'Aucun client');
      }
      const instructions = building.access.instructions.length ? building.access.instructions.join(', ') : 'Non renseignées';
      assert.equal(plain(await page.locator('[data-field="accessInstructions"]').textContent()), instructions);
      assert.equal(plain(await page.locator('[data-field="digicode"]').textContent()), building.access.digicode ?? '—');

      await page.getByRole('button', { name: "Modifier l'accès", exact: true }).click();
      const dialog = page.getByRole('dialog', { name: "Modifier l'accès à l'immeuble", exact: true });
      await dialog.waitFor();
      for (const value of ['Sans', 'Digicode', 'Coffre à clé', 'Vigik', 'Autre']) {
        const box = dialog.getByRole('checkbox', { name: value, exact: true });
        assert.equal(await box.isChecked(), building.access.instructions.includes(value), `« ${value} » coché comme enregistré`);
      }
      await shot('immeuble-02-acces');
      await dialog.getByRole('button', { name: 'Annuler', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
    });

    step('ses équipements : autant que l’API en compte, chacun en lien vers sa fiche', async () => {
      const answer = await appApi('GET', `/equipment?building=${building.id}&archived=active&page=1&limit=100`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      park = answer.body;
      assert.ok(park.total > 0, 'l’immeuble d’un appel a au moins un équipement');
      assert.ok(
        park.results.every((e) => e.building?.id === building.id),
        'l’API ne rend que les équipements de l’immeuble',
      );
      await page
        .getByRole('heading', { level: 2, name: `Équipements au parc (${park.total})`, exact: true })
        .waitFor();
      const numbers = await listedNumbers();
      // 50 par page : au-delà, la première page seulement (la démo n'a pas d'immeuble si grand).
      assert.equal(numbers.length, Math.min(park.total, PAGE_SIZE));
      if (park.total <= PAGE_SIZE) {
        assert.deepEqual([...numbers].sort(), park.results.map((e) => e.number ?? 'Sans numéro').sort());
      }
      await shot('immeuble-03-fiche');

      const lift = park.results[0];
      const table = page.getByRole('table', { name: "Équipements de l'immeuble" });
      await table.getByRole('link', { name: lift.number ?? 'Sans numéro', exact: true }).first().click();
      await page.waitForURL((url) => url.pathname === `/equipements/${lift.id}`);
      await page
        .getByRole('heading', { level: 1, name: `Équipement ${lift.number ?? 'sans numéro'}`, exact: true })
        .waitFor();
      await shot('immeuble-04-equipement');
    });

    step("la fiche de l'équipement ramène à celle de son immeuble", async () => {
      const back = page.locator('[data-field="building"]').getByRole('link', { name: building.name, exact: true });
      assert.equal(await back.getAttribute('href'), `/immeubles/${building.id}`);
      await back.click();
      await expectBuildingPage(building);
      assert.equal((await listedNumbers()).length, Math.min(park.total, PAGE_SIZE));
    });

    step("depuis une facture faite d'un devis, l'immeuble de l'appareil ouvre sa fiche", async () => {
      const listed = await appApi('GET', '/invoices?limit=100');
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      let invoice = null;
      for (const row of listed.body.results) {
        const read = await appApi('GET', `/invoices/${row.id}`);
        const found = read.body?.invoice;
        if (found?.quote && found.equipment[0]?.buildingId && found.equipment[0].building) {
          invoice = found;
          break;
        }
      }
      assert.ok(invoice, 'une facture de la démo faite d’un devis, dont l’appareil est dans un immeuble nommé');
      const item = invoice.equipment[0];

      await page.goto(new URL(`/factures/${invoice.id}`, baseUrl).href);
      const lifts = page.getByTestId('invoice-equipment');
      await lifts.waitFor();
      const link = lifts.getByRole('link', { name: item.building, exact: true }).first();
      assert.equal(await link.getAttribute('href'), `/immeubles/${item.buildingId}`);
      await shot('immeuble-05-facture');
      await link.click();

      const read = await appApi('GET', `/buildings/${item.buildingId}`);
      assert.equal(read.status, 200, JSON.stringify(read.body));
      await expectBuildingPage(read.body);
      const numbers = await listedNumbers();
      assert.ok(numbers.includes(item.number ?? 'Sans numéro'), `« ${item.number} » parmi ${numbers.join(', ')}`);
      await shot('immeuble-06-depuis-facture');
    });

    step('un immeuble inconnu : « Immeuble introuvable »', async () => {
      const unknown = '00000000-0000-0000-0000-000000000000';
      assert.equal((await appApi('GET', `/buildings/${unknown}`)).status, 404);
      await page.goto(new URL(`/immeubles/${unknown}`, baseUrl).href);
      await page.getByRole('heading', { level: 1, name: 'Immeuble introuvable', exact: true }).waitFor();
      await page.getByText("Cet immeuble n'existe pas dans l'agence active.", { exact: true }).waitFor();
      await page.waitForFunction(() => document.title.replace(/^\(\d+\) /, '') === 'Immeuble introuvable — Liftdesk');
      assert.equal(await page.getByRole('table', { name: "Équipements de l'immeuble" }).count(), 0);
      await shot('immeuble-07-introuvable');
      assert.deepEqual(
        pageErrors.map((e) => e.message),
        [],
        'aucune erreur JavaScript dans la page',
      );
    });
  },
);
