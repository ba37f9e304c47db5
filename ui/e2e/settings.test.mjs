// Test de bout en bout de l'écran « Paramètres », contre un serveur Liftdesk réel lancé sur la démo :
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/settings.test.mjs'
//
// LIFTDESK_URL, LIFTDESK_CREDENTIALS (voir keys.test.mjs) ; LIFTDESK_ARTIFACTS : dossier des
// captures (écrites dans <dossier>/ui/) ; LIFTDESK_CHROMIUM : navigateur (défaut /usr/bin/chromium).
//
// Le serveur et ce test tournent sur la même machine : le dossier de sauvegarde est un dossier
// temporaire créé ici. Le test remet les réglages par défaut (sans dossier) à la fin.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { describeOnServer } from './harness.mjs';

const STEP_TIMEOUT = 90_000;

describeOnServer(
  'paramètres',
  {
    timeout: 10 * STEP_TIMEOUT,
    stepTimeout: STEP_TIMEOUT,
    shots: 'parametres',
    context: { permissions: ['clipboard-read', 'clipboard-write'] },
  },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse, signIn } = ui;
    const backupDir = mkdtempSync(path.join(os.tmpdir(), 'liftdesk-e2e-sauvegardes-'));
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;

    before(() => ({ page, creds } = ui));

    after(async () => {
      // Réglages par défaut, pour les autres tests du même serveur.
      if (page) {
        await page
          .evaluate(async () => {
            const session = await (await fetch('/app/api/session')).json();
            await fetch('/app/api/settings', {
              method: 'PUT',
              headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken },
              body: JSON.stringify({ port: 8080, lan: false, backupDir: null, dailyBackup: true }),
            });
          })
          .catch(() => {});
      }
      rmSync(backupDir, { recursive: true, force: true });
    });

    step("l'administrateur voit l'adresse des intégrations et les réglages", async () => {
      await signIn(creds.admin);
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Paramètres', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Paramètres', exact: true }).waitFor();
      const shown = await page.locator('[data-base-url]').textContent();
      assert.equal(shown, new URL(process.env.LIFTDESK_URL).origin);
      assert.equal(await page.getByLabel('Port', { exact: true }).inputValue(), '8080');
      await page.getByText('Aucune sauvegarde : choisissez un dossier.', { exact: true }).waitFor();
      await shot('parametres-01-ecran');
    });

    step("ouvrir au réseau demande confirmation ; le dossier est vérifié", async () => {
      await page.getByLabel("Ouvrir l'API au réseau de l'agence").click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText("Tout ordinateur du réseau de l'agence", { exact: false }).waitFor();
      await shot('parametres-02-avertissement-reseau');
      await dialog.getByRole('button', { name: 'Annuler', exact: true }).click();
      assert.equal(await page.getByLabel("Ouvrir l'API au réseau de l'agence").isChecked(), false);

      await page.getByLabel('Dossier de sauvegarde', { exact: true }).fill('Sauvegardes');
      await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      await page.getByText("« Sauvegardes » n'est pas un chemin complet", { exact: false }).waitFor();
      await page.getByLabel('Dossier de sauvegarde', { exact: true }).fill(path.join(backupDir, 'absent'));
      const refused = apiResponse('/app/api/settings', 'PUT');
      await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      assert.equal((await refused).status(), 422);
      await page.getByRole('alert').getByText("n'existe pas", { exact: false }).waitFor();

      await page.getByLabel('Dossier de sauvegarde', { exact: true }).fill(backupDir);
      const saved = apiResponse('/app/api/settings', 'PUT');
      await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      assert.equal((await saved).status(), 200);
      await page.getByText('Paramètres enregistrés.', { exact: true }).first().waitFor();
    });

    step('« Sauvegarder maintenant » écrit une sauvegarde listée ; la restauration se confirme', async () => {
      const written = apiResponse('/app/api/settings/backups', 'POST');
      await page.getByRole('button', { name: 'Sauvegarder maintenant', exact: true }).click();
      assert.equal((await written).status(), 201);
      const files = readdirSync(backupDir).filter((n) => /^liftdesk-\d{8}-\d{6}\.(sqlite3|pgdump)$/.test(n));
      assert.equal(files.length, 1, `fichiers : ${readdirSync(backupDir).join(', ')}`);
      await page.getByRole('cell', { name: files[0], exact: true }).waitFor();
      await shot('parametres-03-sauvegarde');

      // Sans hôte capable de redémarrer (serveur en ligne de commande) : la raison s'affiche.
      await page.getByRole('button', { name: 'Restaurer…', exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Liftdesk va redémarrer sur la sauvegarde', { exact: false }).waitFor();
      const refused = apiResponse('/app/api/settings/restore', 'POST');
      await dialog.getByRole('button', { name: 'Restaurer', exact: true }).click();
      assert.equal((await refused).status(), 409);
      await dialog.getByText('liftdesk restore', { exact: false }).waitFor();
      await shot('parametres-04-restauration-refusee');
      await dialog.getByRole('button', { name: 'Annuler', exact: true }).click();
    });

    step('« Restaurer depuis un fichier » : chemin vérifié, fichier non Liftdesk refusé par le serveur', async () => {
      const field = page.getByLabel('Restaurer depuis un fichier (chemin complet)');
      await field.fill('sauvegarde.sqlite3');
      await page.getByRole('button', { name: 'Restaurer ce fichier…', exact: true }).click();
      await page.getByText('Indiquez le chemin complet du fichier de sauvegarde.', { exact: true }).waitFor();
      assert.equal(await page.getByRole('dialog').count(), 0);

      const notADatabase = path.join(backupDir, 'notes.txt');
      writeFileSync(notADatabase, 'pas une base');
      await field.fill(notADatabase);
      await page.getByRole('button', { name: 'Restaurer ce fichier…', exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('« notes.txt »', { exact: false }).waitFor();
      const refused = apiResponse('/app/api/settings/restore', 'POST');
      await dialog.getByRole('button', { name: 'Restaurer', exact: true }).click();
      assert.equal((await refused).status(), 422);
      await dialog.getByText("n'est pas une base", { exact: false }).waitFor();
      await shot('parametres-05-restauration-fichier-refusee');
      await dialog.getByRole('button', { name: 'Annuler', exact: true }).click();
      // Typed text is kept after the refusal.
      assert.equal(await field.inputValue(), notADatabase);
    });

    step('« Copier le diagnostic » copie un rapport sans secret', async () => {
      await page.getByRole('button', { name: 'Copier le diagnostic', exact: true }).click();
      await page.getByText('Diagnostic copié', { exact: false }).waitFor();
      const text = await page.evaluate(() => navigator.clipboard.readText());
      assert.match(text, /^Diagnostic Liftdesk/);
      assert.ok(text.includes('Sauvegardes dans'), text);
      for (const secret of [creds.admin.password, creds.admin.apiToken, ...creds.callCenterKeys]) {
        assert.ok(!text.includes(secret), 'secret dans le diagnostic');
      }
      assert.deepEqual(pageErrors, []);
    });

    step("un membre n'a pas l'écran", async () => {
      await page.getByRole('button', { name: 'Se déconnecter', exact: true }).click();
      await page.getByRole('button', { name: 'Se connecter', exact: true }).waitFor();
      await signIn(creds.member);
      const links = await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link').allTextContents();
      assert.ok(!links.map((s) => s.trim()).includes('Paramètres'));
      await page.goto(new URL('/parametres', baseUrl).href);
      await page.getByText("Les paramètres de l'installation sont réservés aux administrateurs de l'organisation qui a installé Liftdesk.", { exact: true }).waitFor();
      // Pour l'étape de nettoyage : l'administrateur se reconnecte, une fois
      // la déconnexion faite (une navigation aussitôt après le clic pouvait
      // l'interrompre).
      await page.getByRole('button', { name: 'Se déconnecter', exact: true }).click();
      await page.getByRole('button', { name: 'Se connecter', exact: true }).waitFor();
      await signIn(creds.admin);
    });
  },
);
