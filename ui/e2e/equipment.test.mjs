// Test de bout en bout de l'écran Équipements, contre un serveur Liftdesk réel (démo).
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/equipment.test.mjs'
//
// L'administrateur de la démo ouvre « Équipements », filtre le parc (taux de
// connaissance faible), cherche un équipement par son numéro, ouvre sa fiche,
// corrige son numéro de série, relève une donnée technique numérique jamais
// relevée et voit le taux de connaissance monter, puis ouvre le carnet
// d'entretien et sa vue d'impression. À la fin, la donnée et le numéro de série
// sont remis comme avant (d'autres fichiers de test partagent le serveur).
// Captures dans $LIFTDESK_ARTIFACTS/ui/.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describeOnServer, STEP_TIMEOUT, TIMEOUT } from './harness.mjs';

describeOnServer(
  'écran Équipements',
  { timeout: 12 * STEP_TIMEOUT, shots: 'equipements' },
  (ui) => {
    const { pageErrors, step, shot, apiResponse, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;

    const parkResponse = () => apiResponse('/app/api/equipment', 'GET');
    const parkTable = () => page.getByRole('table', { name: 'Équipements du parc', exact: true });
    const rate = async () => ((await page.getByTestId('knowledge-rate').textContent()) ?? '').trim();
    const rateNumber = (text) => Number(text.replace(/\s|%/g, '').replace(',', '.'));

    before(() => ({ page, creds } = ui));

    let equipmentPath;
    let number;
    let serialBefore;
    let code;
    let rateBefore;
    const stamp = `SN-E2E-${Date.now().toString(36)}`;

    step("connexion, ouverture du parc et filtre par taux de connaissance", async () => {
      await signIn(creds.admin);
      const list = parkResponse();
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Équipements' }).click();
      await page.getByRole('heading', { level: 1, name: 'Équipements', exact: true }).waitFor();
      const answer = await (await list).json();
      assert.ok(answer.total > 0, 'la démo a un parc');
      await parkTable().waitFor();
      assert.equal(new URL(page.url()).pathname, '/equipements');
      await shot('equipements-01-parc');

      const filtered = parkResponse();
      await page.getByLabel('Taux de connaissance', { exact: true }).selectOption('faible');
      const low = await (await filtered).json();
      assert.ok(low.total > 0, 'la démo a des équipements peu connus');
      assert.ok(low.total <= answer.total);
      assert.ok(low.results.every((e) => e.knowledgeRate < 40));
      const chosen = low.results.find((e) => e.number);
      assert.ok(chosen, 'un équipement numéroté');
      number = chosen.number;
    });

    step('recherche par numéro et ouverture de la fiche', async () => {
      const searched = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/equipment' && new URL(r.url()).searchParams.get('q') === number,
        { timeout: TIMEOUT },
      );
      await page.getByLabel('Numéro, immeuble ou adresse', { exact: true }).fill(number);
      const found = await (await searched).json();
      assert.ok(found.results.some((e) => e.number === number));
      await parkTable().getByRole('link', { name: number, exact: true }).waitFor();
      await shot('equipements-02-recherche');
      await parkTable().getByRole('link', { name: number, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: `Équipement ${number}`, exact: true }).waitFor();
      equipmentPath = new URL(page.url()).pathname;
      assert.match(equipmentPath, /^\/equipements\/[^/]+$/);
      await page.getByRole('heading', { level: 2, name: 'Taux de connaissance' }).waitFor();
      await page.getByText("Pour l'élever, relever :").waitFor();
      await shot('equipements-03-fiche');
    });

    step("correction de l'identité (refus côté client, puis enregistrement)", async () => {
      serialBefore = ((await page.locator('dd[data-field="serialNumber"]').textContent()) ?? '').trim();
      await page.getByRole('button', { name: "Corriger l'identité", exact: true }).click();
      const dialog = page.getByRole('dialog', { name: "Corriger l'identité" });
      await dialog.getByLabel('Numéro', { exact: true }).fill('x'.repeat(61));
      await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      await dialog.getByText('Le champ « Numéro » ne doit pas dépasser 60 caractères.', { exact: true }).waitFor();
      await shot('equipements-04-identite-refus');
      await dialog.getByLabel('Numéro', { exact: true }).fill(number);
      await dialog.getByLabel('Numéro de série', { exact: true }).fill(stamp);
      const saved = apiResponse(`/app/api/equipment/${equipmentPath.split('/')[2]}/identity`, 'PATCH');
      await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      assert.equal((await saved).status(), 200);
      await dialog.waitFor({ state: 'hidden' });
      await page.locator('dd[data-field="serialNumber"]', { hasText: stamp }).waitFor();
    });

    step("relevé d'une donnée technique : le taux de connaissance monte", async () => {
      rateBefore = await rate();
      const row = page.locator('tr[data-type="number"]', { has: page.locator('td', { hasText: /^—$/ }) }).first();
      code = await row.getAttribute('data-code');
      const component = await row.getAttribute('data-component');
      assert.ok(code && component, 'une donnée numérique jamais relevée');
      const label = ((await page.locator(`#component-${component}`).textContent()) ?? '').trim();
      await page.getByRole('button', { name: `Modifier : ${label}`, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Données techniques : ${label}` });
      const input = dialog.locator(`#tech-${code}`);
      await input.fill('-3');
      await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      await dialog.getByText(/doit être un nombre positif ou nul\.$/).waitFor();
      await input.fill('12,5');
      const saved = apiResponse(`/app/api/equipment/${equipmentPath.split('/')[2]}/technical`, 'PATCH');
      await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      assert.equal((await saved).status(), 200);
      await dialog.waitFor({ state: 'hidden' });
      await page.locator(`tr[data-code="${code}"] td`).first().filter({ hasText: /^12,5/ }).waitFor();
      const after = await rate();
      assert.ok(rateNumber(after) > rateNumber(rateBefore), `${rateBefore} → ${after}`);
      await page.locator('.notice', { hasText: `Taux de connaissance : ${after}.` }).waitFor();
      await shot('equipements-05-donnee-relevee');
    });

    step("carnet d'entretien et vue d'impression", async () => {
      const read = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/logbook'), { timeout: TIMEOUT });
      await page.getByRole('link', { name: "Carnet d'entretien", exact: true }).click();
      assert.equal((await read).status(), 200);
      await page.getByRole('heading', { level: 1, name: `Carnet d'entretien — ${number}`, exact: true }).waitFor();
      assert.equal(new URL(page.url()).pathname, `${equipmentPath}/carnet`);
      await shot('equipements-06-carnet');
      await page.evaluate(() => {
        window.__printed = 0;
        window.print = () => {
          window.__printed += 1;
        };
      });
      await page.getByRole('button', { name: 'Imprimer', exact: true }).click();
      assert.equal(await page.evaluate(() => window.__printed), 1);
      await page.emulateMedia({ media: 'print' });
      assert.equal(await page.getByRole('navigation', { name: 'Menu principal' }).isVisible(), false);
      assert.equal(await page.locator('.app-header').isVisible(), false);
      assert.equal(await page.getByRole('button', { name: 'Imprimer' }).isVisible(), false);
      await shot('equipements-07-carnet-impression');
      await page.emulateMedia({ media: 'screen' });
      assert.equal(await page.getByRole('navigation', { name: 'Menu principal' }).isVisible(), true);
    });

    step('remise en état (donnée effacée, numéro de série rétabli)', async () => {
      await page.getByRole('link', { name: "← Fiche de l'équipement" }).click();
      await page.getByRole('heading', { level: 1, name: `Équipement ${number}`, exact: true }).waitFor();
      const row = page.locator(`tr[data-code="${code}"]`);
      const component = await row.getAttribute('data-component');
      const label = ((await page.locator(`#component-${component}`).textContent()) ?? '').trim();
      await page.getByRole('button', { name: `Modifier : ${label}`, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Données techniques : ${label}` });
      await dialog.locator(`#tech-${code}`).fill('');
      await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(await rate(), rateBefore);
      await page.getByRole('button', { name: "Corriger l'identité", exact: true }).click();
      const identity = page.getByRole('dialog', { name: "Corriger l'identité" });
      await identity.getByLabel('Numéro de série', { exact: true }).fill(serialBefore === '—' ? '' : serialBefore);
      await identity.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      await identity.waitFor({ state: 'hidden' });
      await page.locator('dd[data-field="serialNumber"]', { hasText: serialBefore }).waitFor();
      assert.deepEqual(pageErrors, []);
    });
  },
);
