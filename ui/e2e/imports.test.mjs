// Test de bout en bout de l'assistant d'import, contre un serveur Liftdesk réel (démo).
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/imports.test.mjs'
//
// L'administrateur de la démo importe un parc de 500 équipements écrit ici
// (.xlsx, numéros propres à ce lancement : d'autres fichiers de test partagent
// le serveur) : le fichier est déposé (événement « drop »), la correspondance
// proposée est relue, la vérification signale la ligne fautive (type
// inconnu) et offre d'importer les autres, le fichier corrigé est renvoyé par le sélecteur de fichier, la
// vérification passe, l'import avance (barre de progression) et donne ses
// comptes. Un membre ne voit pas l'entrée « Imports ». Captures de chaque étape.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describeOnServer, plain } from './harness.mjs';
import { xlsx } from './xlsx.mjs';

const STEP_TIMEOUT = 90_000;
const ROWS = 500;
const BAD_ROW = 123; // numéro de ligne du tableur (l'en-tête est la ligne 1)
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const stamp = Date.now().toString(36).toUpperCase();

/** Le parc : 500 ascenseurs ; `bad` : la ligne `BAD_ROW` a un type inconnu. */
function park(bad) {
  const rows = [['N° appareil', 'Type', 'Adresse', 'Code postal', 'Ville']];
  for (let i = 0; i < ROWS; i += 1) {
    const row = i + 2;
    rows.push([
      `E2E-${stamp}-${String(i + 1).padStart(4, '0')}`,
      bad && row === BAD_ROW ? 'Fusée' : 'Ascenseur',
      `${(i % 40) + 1} rue des Essais`,
      '75011',
      'Paris',
    ]);
  }
  return xlsx(rows);
}

describeOnServer(
  "assistant d'import",
  { timeout: 10 * STEP_TIMEOUT, stepTimeout: STEP_TIMEOUT, shots: 'imports', apiTimeout: 60_000 },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;

    before(() => ({ page, creds } = ui));

    step("étape 1 : l'administrateur ouvre « Imports » et dépose le fichier", async () => {
      await signIn(creds.admin);
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Imports', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Imports', exact: true }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/imports');
      await page.getByRole('heading', { level: 2, name: '1. Le fichier', exact: true }).waitFor();
      await shot('imports-01-fichier');

      // Un fichier refusé avant l'envoi : message du serveur, rien n'est envoyé.
      await page.locator('#import-file').setInputFiles({ name: 'parc.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF') });
      await page
        .getByRole('alert')
        .getByText("Le fichier « parc.pdf » n'est pas accepté : seuls les fichiers .csv et .xlsx peuvent être importés.", {
          exact: true,
        })
        .waitFor();

      // Le fichier fautif, déposé sur la zone.
      const bytes = park(true).toString('base64');
      const dataTransfer = await page.evaluateHandle(
        ({ content, type }) => {
          const binary = atob(content);
          const array = new Uint8Array(binary.length);
          for (let i = 0; i < binary.length; i += 1) array[i] = binary.charCodeAt(i);
          const transfer = new DataTransfer();
          transfer.items.add(new File([array], 'parc-e2e.xlsx', { type }));
          return transfer;
        },
        { content: bytes, type: XLSX_TYPE },
      );
      const uploaded = apiResponse((p) => p === '/app/api/imports/files', 'POST');
      await page.getByTestId('drop-zone').dispatchEvent('dragover', { dataTransfer });
      await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
      const response = await uploaded;
      assert.equal(response.status(), 201);
      const body = await response.json();
      assert.equal(body.rows, ROWS);
    });

    step('étape 2 : les colonnes lues et la correspondance proposée, modifiable', async () => {
      await page.getByRole('heading', { level: 2, name: '2. La correspondance des colonnes', exact: true }).waitFor();
      await page.getByText(`${ROWS} lignes de données, 5 colonnes`, { exact: false }).waitFor();
      assert.equal(await page.getByLabel('Ce que deviennent les lignes', { exact: true }).inputValue(), 'equipment');
      assert.equal(await page.getByLabel('N° appareil', { exact: true }).inputValue(), 'number');
      assert.equal(await page.getByLabel('Type', { exact: true }).inputValue(), 'type');
      // Une colonne ignorée puis remise : la correspondance se change colonne par colonne.
      const city = page.getByLabel('Ville', { exact: true });
      const cityField = await city.inputValue();
      await city.selectOption('');
      assert.equal(await city.inputValue(), '');
      if (cityField) await city.selectOption(cityField);
      await shot('imports-02-correspondance');
    });

    step('étape 3 : la vérification signale la ligne fautive, en français', async () => {
      const checked = apiResponse((p) => /^\/app\/api\/imports\/[^/]+\/check$/.test(p), 'POST');
      await page.getByRole('button', { name: 'Vérifier le fichier', exact: true }).click();
      assert.equal((await checked).status(), 200);
      await page.getByRole('heading', { level: 2, name: '3. La vérification', exact: true }).waitFor();
      const summary = plain(await page.locator('.summary').textContent());
      assert.ok(summary.startsWith(`${ROWS} lignes : ${ROWS - 1} à créer, 0 à mettre à jour, 1 refusée.`), summary);
      const errors = page.getByRole('table', { name: 'Erreurs ligne par ligne', exact: true });
      const cells = (await errors.locator('tbody tr').first().locator('td').allTextContents()).map(plain);
      assert.equal(await errors.locator('tbody tr').count(), 1);
      assert.equal(cells[0], String(BAD_ROW));
      assert.equal(cells[1], 'Type (B)');
      assert.equal(
        cells[2],
        "La valeur « Fusée » du champ « Type d'équipement » n'est pas autorisée : valeurs possibles : « Ascenseur », « Monte-charge », « Monte-voiture », « Élévateur », « Porte ou fermeture automatique ».",
      );
      // Le bouton dit ce qu'il ferait : importer les lignes acceptées (la refusée ne le serait pas).
      assert.ok(await page.getByRole('button', { name: `Importer les ${ROWS - 1} lignes acceptées`, exact: true }).isEnabled());
      assert.match(plain(await page.getByTestId('refused-notice').textContent()), /^La ligne refusée ne sera pas importée/);
      await shot('imports-03-verification-erreur');
    });

    step('le fichier corrigé, renvoyé et vérifié de nouveau, passe', async () => {
      const uploaded = apiResponse((p) => p === '/app/api/imports/files', 'POST');
      await page.locator('#import-again').setInputFiles({ name: 'parc-e2e-corrige.xlsx', mimeType: XLSX_TYPE, buffer: park(false) });
      assert.equal((await uploaded).status(), 201);
      await page.getByRole('heading', { level: 2, name: '2. La correspondance des colonnes', exact: true }).waitFor();
      await page.getByText('parc-e2e-corrige.xlsx', { exact: true }).waitFor();
      // La correspondance choisie est gardée pour les colonnes de même nom.
      assert.equal(await page.getByLabel('N° appareil', { exact: true }).inputValue(), 'number');
      const checked = apiResponse((p) => /^\/app\/api\/imports\/[^/]+\/check$/.test(p), 'POST');
      await page.getByRole('button', { name: 'Vérifier le fichier', exact: true }).click();
      assert.equal((await checked).status(), 200);
      await page.getByText('Aucune erreur : le fichier peut être importé.', { exact: true }).waitFor();
      const summary = plain(await page.locator('.summary').textContent());
      assert.ok(summary.startsWith(`${ROWS} lignes : ${ROWS} à créer, 0 à mettre à jour, 0 refusée.`), summary);
      await shot('imports-04-verification-ok');
    });

    step("étape 4 : l'import, sa barre de progression et son résultat", async () => {
      const imported = apiResponse((p) => /^\/app\/api\/imports\/[^/]+\/import$/.test(p), 'POST');
      await page.getByRole('button', { name: 'Importer', exact: true }).click();
      await page.getByRole('heading', { level: 2, name: '4. L’import', exact: true }).waitFor();
      const bar = page.getByRole('progressbar');
      await bar.waitFor();
      const response = await imported;
      assert.equal(response.status(), 200);
      const report = await response.json();
      assert.equal(report.created, ROWS);
      await page.getByRole('heading', { level: 3, name: 'Import terminé', exact: true }).waitFor();
      assert.equal(await bar.getAttribute('value'), '100');
      const count = async (key) => plain(await page.locator(`[data-count="${key}"]`).textContent());
      assert.equal(await count('created'), String(ROWS));
      assert.equal(await count('updated'), '0');
      assert.equal(await count('unchanged'), '0');
      assert.equal(await count('refused'), '0');
      await page.getByText(`${ROWS} / ${ROWS} lignes traitées`, { exact: true }).waitFor();
      await shot('imports-05-resultat');
      assert.deepEqual(pageErrors, []);
    });

    step("un membre n'a pas l'entrée « Imports »", async () => {
      if (!creds.member?.email) return;
      await page.getByRole('button', { name: 'Se déconnecter', exact: true }).click();
      await page.getByLabel('Adresse e-mail', { exact: true }).waitFor();
      await signIn(creds.member);
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Accueil' }).waitFor();
      assert.equal(
        await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Imports', exact: true }).count(),
        0,
      );
      await page.goto(new URL('/imports', baseUrl).href);
      await page.getByText('L’import de fichiers est réservé aux administrateurs de l’agence.', { exact: true }).waitFor();
    });
  },
);
