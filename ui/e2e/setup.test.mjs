// Test de bout en bout de l'écran « Installation de Liftdesk », contre un second serveur Liftdesk
// lancé ici sur un dossier de données vide (pas de démonstration) :
//
//   cargo build --bin liftdesk && (cd ui && node --test e2e/setup.test.mjs)
//
// LIFTDESK_BIN : le binaire (défaut ../target/debug/liftdesk, ou $CARGO_TARGET_DIR/debug/liftdesk) ;
// LIFTDESK_ARTIFACTS : dossier des captures (écrites dans <dossier>/ui/) ; LIFTDESK_CHROMIUM : navigateur.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe } from 'node:test';
import { BrowserSession, emptyDatabaseEnv, UI_DIR } from './harness.mjs';

const STEP_TIMEOUT = 90_000;

describe('installation', { timeout: 6 * STEP_TIMEOUT }, () => {
  const bin =
    process.env.LIFTDESK_BIN ||
    path.resolve(process.env.CARGO_TARGET_DIR || path.resolve(UI_DIR, '../target'), 'debug/liftdesk');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'liftdesk-e2e-installation-'));
  let server;
  const ui = new BrowserSession({ shots: 'installation', stepTimeout: STEP_TIMEOUT });
  const { pageErrors, step, shot } = ui;
  /** @type {import('playwright-core').Page} */
  let page;

  before(async () => {
    server = spawn(bin, ['--data-dir', dataDir, 'serve', '--bind', '127.0.0.1:0'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: emptyDatabaseEnv('installation'),
    });
    ui.baseUrl = await new Promise((resolve, reject) => {
      const lines = createInterface({ input: server.stdout });
      lines.once('line', (line) => resolve(line.trim()));
      server.once('exit', (code) => reject(new Error(`le serveur s'est arrêté (code ${code})`)));
    });
    await ui.open();
    page = ui.page;
  });

  after(async () => {
    await ui.close();
    server?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  step("un dossier vide montre l'installation, pas la connexion", async () => {
    await page.goto(ui.baseUrl);
    await page.getByRole('heading', { level: 1, name: 'Installation de Liftdesk', exact: true }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Se connecter', exact: true }).count(), 0);
    await shot('installation-01-ecran');
  });

  step('les champs sont vérifiés, puis l’administrateur créé est connecté', async () => {
    await page.getByRole('button', { name: 'Installer', exact: true }).click();
    await page.getByText("Le nom de l'organisation est obligatoire.", { exact: true }).waitFor();
    await page.getByLabel("Nom de l'organisation (la société)").fill('Ascenseurs Martin');
    await page.getByLabel('Première agence').fill('Agence de Lyon');
    await page.getByLabel("Nom de l'administrateur").fill('Paul Martin');
    await page.getByLabel('Adresse e-mail').fill('paul@martin.fr');
    await page.getByLabel('Mot de passe (8 caractères au moins)').fill('motdepasse-solide');
    await page.getByLabel('Confirmez le mot de passe').fill('motdepasse-autre');
    await page.getByRole('button', { name: 'Installer', exact: true }).click();
    await page.getByText('Les deux mots de passe ne sont pas identiques.', { exact: true }).waitFor();
    await page.getByLabel('Confirmez le mot de passe').fill('motdepasse-solide');
    const response = page.waitForResponse((r) => new URL(r.url()).pathname === '/app/api/setup' && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Installer', exact: true }).click();
    assert.equal((await response).status(), 200);
    await page.getByRole('button', { name: 'Se déconnecter', exact: true }).waitFor();
    await page.getByText('Paul Martin', { exact: true }).first().waitFor();
    await shot('installation-02-connecte');
  });

  step('une fois installé, la connexion revient', async () => {
    await page.getByRole('button', { name: 'Se déconnecter', exact: true }).click();
    await page.getByRole('button', { name: 'Se connecter', exact: true }).waitFor();
    assert.equal(await page.getByText('Installation de Liftdesk', { exact: true }).count(), 0);
    assert.deepEqual(pageErrors, []);
  });
});
