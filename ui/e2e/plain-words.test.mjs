// Test de bout en bout « des mots, pas des codes », contre un serveur Liftdesk réel (démo).
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/plain-words.test.mjs'
//
// Ce que lit le personnel est en français : aucun code de l'API
// (`serialNumber`, `charge_utile`, `monte_charge`, `appel.clos`,
// `devis.accepte`, ni « Electrique » sans accent) dans le texte de l'import
// (correspondance, vérification avec des lignes refusées, résultat), de la
// fiche de l'équipement importé (données techniques, fenêtre de saisie,
// historique après une correction), des refus de l'import (le type et
// l'entraînement refusés se disent par leurs noms, valeurs possibles comprises),
// de la fenêtre « Clore l'appel ? » ni de
// celle de l'acceptation d'un devis. L'import dit ce que fait son bouton (les
// lignes acceptées s'importent, les refusées non), le rapport d'erreurs se
// télécharge (CSV, BOM, « ; », en-têtes français) et le résultat mène à ce
// qui a été créé. La valeur envoyée à l'API reste le code (`Electrique`).
// Captures `mots-…` dans $LIFTDESK_ARTIFACTS/ui/.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before } from 'node:test';
import { describeOnServer, plain } from './harness.mjs';
import { xlsx } from './xlsx.mjs';

const STEP_TIMEOUT = 90_000;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Les codes de l'API qu'aucun texte lu par le personnel ne doit montrer. */
const CODES = [
  'serialNumber',
  'charge_utile',
  'monte_charge',
  'porte_fermeture',
  'type_entrainement',
  'client_id',
  'externalId',
  'appel.clos',
  'devis.accepte',
  'releve.termine',
];

const stamp = Date.now().toString(36).toUpperCase();
const NUMBER = (i) => `MOTS-${stamp}-${i}`;
const UNKNOWN_CLIENT = `Client inconnu ${stamp}`;

/**
 * Le parc : la ligne 2 est bonne ; la 3 nomme un client inconnu, la 4 n'a pas
 * d'adresse, la 5 a un type et un entraînement qui n'existent pas.
 */
function park() {
  return xlsx([
    ['N° appareil', 'N° de série', 'Type', 'Charge utile (kg)', "Type d'entraînement", 'Client', 'Adresse', 'Ville'],
    [NUMBER(1), `SN-${stamp}-1`, 'Monte-charge', '630', 'Électrique', '', '1 rue des Mots', 'Paris'],
    [NUMBER(2), `SN-${stamp}-2`, 'Ascenseur', '630', 'Hydraulique', UNKNOWN_CLIENT, '2 rue des Mots', 'Paris'],
    [NUMBER(3), `SN-${stamp}-3`, 'Ascenseur', '', '', '', '', 'Paris'],
    [NUMBER(4), `SN-${stamp}-4`, 'Fusée', '630', 'Diesel', '', '5 rue des Mots', 'Paris'],
  ]);
}

describeOnServer(
  'des mots, pas des codes',
  {
    timeout: 10 * STEP_TIMEOUT,
    stepTimeout: STEP_TIMEOUT,
    shots: 'mots',
    apiTimeout: 60_000,
    context: { acceptDownloads: true },
  },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    /** Le compte rendu de la vérification et l'équipement créé par l'import. */
    let check;
    let createdId = '';

    /** Le texte de la page (ou d'une partie) tel qu'il se lit, avec celui des listes de choix. */
    async function readable(locator = page.locator('body')) {
      return locator.evaluate(
        (root) =>
          `${root.innerText}\n${[...root.querySelectorAll('option')].map((o) => o.textContent).join('\n')}`,
      );
    }

    /** Aucun code de l'API dans `text` ; « Electrique » seulement avec son accent. */
    function assertNoCodes(text, where) {
      for (const code of CODES) assert.ok(!text.includes(code), `${where} : « ${code} » est affiché\n${text}`);
      assert.ok(!/Electrique/.test(text), `${where} : « Electrique » est affiché sans accent\n${text}`);
    }

    before(() => ({ page, creds } = ui));

    step("l'import : les champs par leur nom français", async () => {
      await signIn(creds.admin);
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Imports', exact: true }).click();
      await page.getByRole('heading', { level: 2, name: '1. Le fichier', exact: true }).waitFor();

      const uploaded = apiResponse((p) => p === '/app/api/imports/files', 'POST');
      await page.locator('#import-file').setInputFiles({ name: 'parc-mots.xlsx', mimeType: XLSX_TYPE, buffer: park() });
      assert.equal((await uploaded).status(), 201);
      await page.getByRole('heading', { level: 2, name: '2. La correspondance des colonnes', exact: true }).waitFor();

      // La valeur choisie reste le champ de l'API ; ce qui se lit est son nom.
      const serial = page.getByLabel('N° de série', { exact: true });
      assert.equal(await serial.inputValue(), 'serialNumber');
      assert.equal(plain(await serial.locator('option:checked').textContent()), 'Numéro de série');
      assert.equal(await page.getByLabel('Charge utile (kg)', { exact: true }).inputValue(), 'charge_utile');
      assert.equal(
        plain(await page.getByLabel('Charge utile (kg)', { exact: true }).locator('option:checked').textContent()),
        'Charge utile',
      );
      assertNoCodes(await readable(), 'correspondance');
      await shot('mots-01-correspondance');
    });

    step('la vérification : lignes refusées, bouton qui dit ce qu’il fait, rapport CSV', async () => {
      const checked = apiResponse((p) => /^\/app\/api\/imports\/[^/]+\/check$/.test(p), 'POST');
      await page.getByRole('button', { name: 'Vérifier le fichier', exact: true }).click();
      const response = await checked;
      assert.equal(response.status(), 200);
      check = await response.json();
      assert.deepEqual(
        check.rows.map((r) => r.action),
        ['creation', 'refus', 'refus', 'refus'],
      );
      await page.getByRole('heading', { level: 2, name: '3. La vérification', exact: true }).waitFor();
      const summary = plain(await page.locator('.summary').textContent());
      assert.ok(summary.startsWith('4 lignes : 1 à créer, 0 à mettre à jour, 3 refusées.'), summary);

      // Le message et le bouton disent la même chose : les lignes acceptées s'importent, les refusées non.
      const notice = plain(await page.getByTestId('refused-notice').textContent());
      assert.match(notice, /Les 3 lignes refusées ne seront pas importées/);
      const importButton = page.getByRole('button', { name: 'Importer la ligne acceptée', exact: true });
      assert.ok(await importButton.isEnabled(), 'le bouton d’import des lignes acceptées doit être actif');
      assert.equal(await page.getByRole('button', { name: 'Importer', exact: true }).count(), 0);
      assertNoCodes(await readable(), 'vérification');

      // Le rapport d'erreurs : CSV avec BOM, séparateur « ; », en-têtes français, une ligne par erreur.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Télécharger le rapport d’erreurs (CSV)', exact: true }).click(),
      ]);
      assert.equal(download.suggestedFilename(), 'erreurs-parc-mots.csv');
      const bytes = readFileSync(await download.path());
      assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'le fichier commence par le BOM UTF-8');
      const lines = bytes.subarray(3).toString('utf8').split('\r\n');
      assert.equal(lines[0], 'Ligne;Colonne;Valeur;Erreur');
      const [clientReason] = check.rows[1].reasons;
      const [addressReason] = check.rows[2].reasons;
      const prefix = 'Colonne « Client » (F) : ';
      assert.ok(clientReason.startsWith(prefix), clientReason);
      const cell = (text) => (/[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
      assert.equal(lines[1], `3;Client (F);;${cell(clientReason.slice(prefix.length))}`);
      assert.equal(lines[2], `4;;;${cell(addressReason)}`);
      // Les valeurs refusées se disent par les noms que le personnel lit, jamais par les codes de l'API.
      assert.deepEqual(check.rows[3].reasons, [
        "Colonne « Type » (C) : La valeur « Fusée » du champ « Type d'équipement » n'est pas autorisée : valeurs possibles : « Ascenseur », « Monte-charge », « Monte-voiture », « Élévateur », « Porte ou fermeture automatique ».",
        "Colonne « Type d'entraînement » (E) : La valeur « Diesel » du champ « Type d'entraînement » n'est pas autorisée : valeurs possibles : « Électrique », « Hydraulique ».",
      ]);
      assert.equal(
        lines[3],
        `5;Type (C);;${cell("La valeur « Fusée » du champ « Type d'équipement » n'est pas autorisée : valeurs possibles : « Ascenseur », « Monte-charge », « Monte-voiture », « Élévateur », « Porte ou fermeture automatique ».")}`,
      );
      assert.ok(lines[4].startsWith("5;Type d'entraînement (E);;"), lines[4]);
      assert.equal(lines.length, 6);
      assert.equal(lines[5], '');
      await shot('mots-02-verification');
    });

    step("l'import des lignes acceptées, et le lien vers ce qu'il a créé", async () => {
      const imported = apiResponse((p) => /^\/app\/api\/imports\/[^/]+\/import$/.test(p), 'POST');
      await page.getByRole('button', { name: 'Importer la ligne acceptée', exact: true }).click();
      const response = await imported;
      assert.equal(response.status(), 200);
      const report = await response.json();
      assert.equal(report.created, 1);
      assert.equal(report.refused, 3);
      createdId = report.rows.find((r) => r.action === 'creation')?.id ?? '';
      assert.ok(createdId, 'la ligne créée a son identifiant');
      await page.getByRole('heading', { level: 3, name: 'Import terminé', exact: true }).waitFor();
      assert.equal(plain(await page.locator('[data-count="created"]').textContent()), '1');
      assert.equal(plain(await page.locator('[data-count="refused"]').textContent()), '3');
      const link = page.getByRole('link', { name: "Ouvrir l'équipement créé", exact: true });
      assert.equal(await link.getAttribute('href'), `/equipements/${createdId}`);
      assert.equal(await page.getByRole('link', { name: 'Voir le parc', exact: true }).getAttribute('href'), '/equipements');
      // Les lignes refusées restent à corriger : le rapport se télécharge encore.
      await page.getByRole('button', { name: 'Télécharger le rapport d’erreurs (CSV)', exact: true }).waitFor();
      assertNoCodes(await readable(), 'résultat');
      await shot('mots-03-resultat');
      await link.click();
      await page.waitForURL(`**/equipements/${createdId}`);
    });

    step("la fiche de l'équipement : valeurs, saisie et historique en français", async () => {
      await page.getByRole('heading', { level: 1, name: `Équipement ${NUMBER(1)}`, exact: true }).waitFor();
      const drive = page.locator('tr[data-code="type_entrainement"]');
      assert.equal(plain(await drive.locator('td').first().textContent()), 'Électrique');
      assertNoCodes(await readable(), 'fiche');

      // La saisie montre « Électrique » et envoie toujours le code `Electrique` (ici, « Hydraulique » choisi).
      const component = await drive.getAttribute('data-component');
      const componentLabel = plain(await page.locator(`#component-${component}`).textContent());
      await page.getByRole('button', { name: `Modifier : ${componentLabel}`, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Données techniques : ${componentLabel}` });
      await dialog.waitFor();
      const select = dialog.getByLabel("Type d'entraînement", { exact: true });
      assert.equal(await select.inputValue(), 'Electrique');
      assert.equal(plain(await select.locator('option:checked').textContent()), 'Électrique');
      assertNoCodes(await readable(dialog), 'saisie des données techniques');
      await select.selectOption('Hydraulique');
      await dialog.getByLabel('Charge utile (kg)', { exact: true }).fill('800');
      const patched = page.waitForRequest(
        (r) => new URL(r.url()).pathname === `/app/api/equipment/${createdId}/technical` && r.method() === 'PATCH',
      );
      await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      assert.deepEqual(JSON.parse((await patched).postData() ?? '{}'), { type_entrainement: 'Hydraulique', charge_utile: 800 });
      await dialog.waitFor({ state: 'hidden' });

      // L'identité : « Monte-charge » devient « Ascenseur ».
      await page.getByRole('button', { name: "Corriger l'identité", exact: true }).click();
      const identity = page.getByRole('dialog', { name: "Corriger l'identité" });
      await identity.getByLabel('Type', { exact: true }).selectOption('ascenseur');
      await identity.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      await identity.waitFor({ state: 'hidden' });

      // L'historique, tout déplié : les champs et les valeurs par leur nom.
      const history = page.locator('details.history');
      const read = page.waitForResponse((r) => new URL(r.url()).pathname === '/app/api/journal');
      await history.locator('summary').first().click();
      await read;
      await history.locator('tr[data-seq]').first().waitFor();
      for (const more of await history.locator('td.detail details').all()) await more.evaluate((d) => (d.open = true));
      const text = plain(await history.innerText());
      assert.ok(text.includes("Type d'entraînement : Électrique → Hydraulique"), text);
      assert.ok(text.includes('Charge utile : 630 → 800'), text);
      assert.ok(text.includes('Type : Monte-charge → Ascenseur'), text);
      assertNoCodes(await readable(), 'historique de la fiche');
      await shot('mots-04-fiche');
    });

    step("la fenêtre « Clore l'appel ? » dit ce qui se passe, sans nom d'événement", async () => {
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Appels de panne' }).click();
      await page.getByRole('heading', { level: 1, name: 'Appels de panne', exact: true }).waitFor();
      const card = page.locator('section[data-statut="sur_place"] a').first();
      await card.waitFor();
      await card.click();
      await page.getByRole('button', { name: 'Résolu (remis en service)', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: "Clore l'appel ?" });
      await dialog.waitFor();
      const text = plain(await dialog.innerText());
      assert.ok(text.includes('les abonnés aux notifications seront prévenus de la clôture'), text);
      assertNoCodes(await readable(dialog), 'fenêtre de clôture');
      await shot('mots-05-cloture-appel');
      await dialog.getByRole('button', { name: 'Annuler', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
    });

    step("la fenêtre d'acceptation d'un devis dit ce qui se passe, sans nom d'événement", async () => {
      const sent = await page.evaluate(async () => (await fetch('/app/api/quotes?status=envoye&limit=1&page=1')).json());
      const quote = sent.results?.[0];
      assert.ok(quote, 'la démo doit avoir un devis envoyé');
      await page.goto(new URL(`/devis/${quote.id}`, baseUrl).href);
      await page.getByRole('button', { name: "Enregistrer l'acceptation", exact: true }).click();
      const dialog = page.getByRole('dialog', { name: "Enregistrer l'acceptation ?" });
      await dialog.waitFor();
      const text = plain(await dialog.innerText());
      assert.ok(text.includes("les abonnés aux notifications seront prévenus de l'acceptation"), text);
      assertNoCodes(await readable(dialog), "fenêtre d'acceptation");
      await shot('mots-06-acceptation-devis');
      await dialog.getByRole('button', { name: 'Annuler', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      assert.deepEqual(pageErrors, []);
    });
  },
);
