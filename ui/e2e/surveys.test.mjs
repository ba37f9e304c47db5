// Test de bout en bout de l'écran Relevés, contre un serveur Liftdesk réel (démo).
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/surveys.test.mjs'
//
// L'administrateur de la démo s'abonne à `releve.termine` (webhook créé par
// l'API REST), ouvre « Relevés », cherche un relevé terminé et voit ses
// données par composant (celles de GET /surveys/{id}/data), sans soumission
// proposée ; puis cherche un relevé à réaliser, l'ouvre, signale un écart
// (refus côté client d'abord) et soumet le relevé : un premier essai refusé
// côté client (rien n'est envoyé), puis la confirmation ; le relevé est
// terminé, ses données s'affichent par composant et `releve.termine` est mis
// en file pour l'abonnement.
//
// Le serveur de démo est partagé avec les autres fichiers de test : le relevé
// choisi porte sur un ascenseur dont le taux de connaissance n'est pas
// « faible » (le test Équipements prend un équipement peu connu), et seul ce
// fichier soumet des relevés.
// Captures dans $LIFTDESK_ARTIFACTS/ui/.

import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { describeOnServer, STEP_TIMEOUT, TIMEOUT } from './harness.mjs';

describeOnServer(
  'écran Relevés',
  { timeout: 10 * STEP_TIMEOUT, shots: 'releves', viewport: { width: 1440, height: 900 } },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse, signIn, http } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    let agencyId;
    let webhookId;
    /** Le relevé choisi : ligne de la liste de l'écran. */
    let chosen;
    /** Un relevé terminé avec des données sur plusieurs composants. */
    let finished;
    const stamp = Date.now().toString(36);
    // Une charge qu'aucun relevé de la démo n'a (elle finit en 7) : la donnée change forcément.
    const load = 407 + 10 * (Date.now() % 50);
    const finding = `Galets de porte cabine usés, bruit à l'ouverture (essai ${stamp})`;

    /** L'API REST v2 avec le jeton de l'administrateur, dans l'agence de la session. */
    const rest = (method, apiPath, body) =>
      http(method, `/api/v2${apiPath}`, { token: creds.admin.apiToken, agency: agencyId, body });

    /** L'API de l'application avec le cookie de la session du navigateur (lectures). */
    async function app(apiPath) {
      const response = await page.request.get(new URL(`/app/api${apiPath}`, baseUrl).href);
      assert.equal(response.status(), 200, apiPath);
      return response.json();
    }

    const surveysTable = () => page.getByRole('table', { name: "Relevés de l'agence", exact: true });

    /** Cherche un relevé par son numéro : la liste n'a plus que lui. */
    async function search(survey) {
      const searched = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/surveys' && new URL(r.url()).searchParams.get('q') === survey.number,
        { timeout: TIMEOUT },
      );
      await page.getByLabel('Numéro du relevé', { exact: true }).fill(survey.number);
      const found = await (await searched).json();
      assert.deepEqual(
        found.results.map((s) => s.id),
        [survey.id],
      );
      await surveysTable().getByRole('link', { name: survey.number, exact: true }).waitFor();
      assert.equal(await surveysTable().locator('tbody tr').count(), 1);
      assert.equal(new URL(page.url()).searchParams.get('q'), survey.number);
    }

    /** Ouvre le relevé trouvé ; ses données affichées sont celles de l'API REST. */
    async function open(survey) {
      const data = apiResponse(`/app/api/surveys/${survey.id}/data`, 'GET');
      await surveysTable().getByRole('link', { name: survey.number, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: `Relevé ${survey.number}`, exact: true }).waitFor();
      assert.equal(new URL(page.url()).pathname, `/releves/${survey.id}`);
      const shown = await (await data).json();
      const expected = await rest('GET', `/surveys/${survey.id}/data`);
      assert.equal(expected.status, 200);
      assert.deepEqual(shown, expected.body);
      await checkData(shown);
      return shown;
    }

    /** Chaque composant a son tableau, chaque donnée sa ligne avec son libellé et son unité. */
    async function checkData(data) {
      const section = page.getByRole('region', { name: 'Données relevées' });
      const keys = Object.keys(data.components);
      if (keys.length === 0) await section.getByText("Aucune donnée n'a encore été relevée.").waitFor();
      for (const key of keys) {
        const table = section.locator(`table[aria-labelledby="data-${key}"]`);
        await table.waitFor();
        assert.equal(await table.locator('tbody tr').count(), data.components[key].length, key);
        for (const datum of data.components[key]) {
          const header = `${datum.libelle}${datum.unite ? ` (${datum.unite})` : ''}`;
          await table.locator(`tr[data-code="${datum.code}"] th`, { hasText: header }).waitFor();
        }
      }
    }

    before(() => {
      ({ page, creds } = ui);
      assert.ok(creds.admin.apiToken, 'LIFTDESK_CREDENTIALS : admin incomplet');
    });

    after(async () => {
      if (webhookId) await rest('POST', `/webhooks/${webhookId}/revoke`).catch(() => {});
    });

    step("connexion, abonnement à releve.termine et choix d'un relevé à réaliser", async () => {
      const session = await signIn(creds.admin);
      agencyId = session.agency?.id;
      assert.ok(agencyId, 'agence active attendue');

      const created = await rest('POST', '/webhooks', {
        url: 'https://releves.example.invalid/liftdesk',
        events: ['releve.termine'],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      webhookId = created.body.id;

      // Un relevé ouvert d'un ascenseur numéroté, dont le taux n'est pas « faible ».
      const all = await app('/surveys?limit=200');
      assert.ok(all.total > 0, 'la démo a des relevés');
      const open = all.results.filter(
        (s) => ['a_realiser', 'en_cours'].includes(s.status) && s.number && s.equipment?.typeLabel === 'Ascenseur',
      );
      for (const candidate of open.reverse()) {
        const equipment = await app(`/equipment/${encodeURIComponent(candidate.equipment.id)}`);
        if (equipment.knowledge.band !== 'faible') {
          chosen = candidate;
          break;
        }
      }
      assert.ok(chosen, 'un relevé ouvert sur un ascenseur assez connu');
      // Un relevé terminé dont les données couvrent plusieurs composants (lecture seule).
      for (const candidate of all.results.filter((s) => s.status === 'termine' && s.number)) {
        const data = await rest('GET', `/surveys/${candidate.id}/data`);
        if (Object.keys(data.body.components).length >= 3) {
          finished = candidate;
          break;
        }
      }
      assert.ok(finished, 'un relevé terminé avec des données');
    });

    step('liste des relevés, recherche et données par composant d\'un relevé terminé', async () => {
      const list = apiResponse('/app/api/surveys', 'GET');
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Relevés', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Relevés', exact: true }).waitFor();
      const first = await (await list).json();
      assert.equal(new URL(page.url()).pathname, '/releves');
      assert.equal(first.page, 1);
      await surveysTable().locator('tbody tr').first().waitFor();
      assert.equal(await surveysTable().locator('tbody tr').count(), first.results.length);
      await page.getByRole('navigation', { name: 'Pages des relevés' }).waitFor();
      await shot('releves-01-liste');

      await search(finished);
      await open(finished);
      // Terminé : la soumission n'est plus proposée, la raison du serveur est dite.
      await page
        .getByTestId('submission-refusal')
        .filter({ hasText: "Le relevé est déjà terminé : il a déjà été soumis, ses données sont celles de l'équipement." })
        .waitFor();
      assert.equal(await page.getByRole('button', { name: 'Saisir et soumettre le relevé' }).count(), 0);
      await shot('releves-02-donnees-par-composant');
    });

    step('recherche du relevé à réaliser et ouverture', async () => {
      await page.getByRole('link', { name: '← Relevés', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Relevés', exact: true }).waitFor();
      await search(chosen);
      await shot('releves-03-recherche');
      await open(chosen);
      const identity = page.getByRole('region', { name: 'Identité' });
      const equipmentLink = identity.getByRole('link', { name: chosen.equipment.number, exact: true });
      assert.equal(await equipmentLink.getAttribute('href'), `/equipements/${chosen.equipment.id}`);
      await identity.getByText(chosen.statusLabel, { exact: true }).waitFor();
      await shot('releves-04-releve');
    });

    step('signaler un écart (refus côté client, puis enregistrement)', async () => {
      await page.getByRole('button', { name: 'Signaler un écart', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Signaler un écart' });
      await dialog.getByLabel('Constat', { exact: true }).fill(' ab ');
      await dialog.getByRole('button', { name: "Enregistrer l'écart", exact: true }).click();
      await dialog
        .getByText("Le constat doit contenir au moins 3 caractères : décrivez l'écart constaté.", { exact: true })
        .waitFor();
      await dialog.getByLabel('Composant concerné', { exact: true }).selectOption({ label: 'Porte de cabine' });
      await dialog.getByLabel('Constat', { exact: true }).fill(finding);
      await shot('releves-05-ecart-saisie');
      const created = apiResponse('/app/api/discrepancies', 'POST');
      await dialog.getByRole('button', { name: "Enregistrer l'écart", exact: true }).click();
      const answer = await created;
      assert.equal(answer.status(), 201);
      const body = answer.request().postDataJSON();
      assert.deepEqual(body, {
        equipmentId: chosen.equipment.id,
        surveyId: chosen.id,
        component: 'car_door',
        finding,
      });
      await dialog.waitFor({ state: 'hidden' });
      const rows = page.getByRole('table', { name: /^Écarts constatés/ });
      await rows.locator('tr', { hasText: finding }).getByText('Porte de cabine', { exact: true }).waitFor();
      await page.locator('.notice', { hasText: 'Écart enregistré.' }).waitFor();
      await shot('releves-06-ecart');
    });

    step('soumission : un refus côté client, puis la confirmation, releve.termine en file', async () => {
      const submitPath = `/app/api/surveys/${chosen.id}/submit`;
      let posts = 0;
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === submitPath) posts += 1;
      });
      await page.getByRole('button', { name: 'Saisir et soumettre le relevé', exact: true }).click();
      const form = page.getByRole('region', { name: 'Soumettre le relevé' });
      await form.waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'submit-surveyed-on', 'le focus va au formulaire');
      await form.getByLabel('Charge utile (kg)', { exact: true }).fill('-5');
      await form.getByRole('button', { name: 'Soumettre le relevé…', exact: true }).click();
      await form.getByText('Le champ « Charge utile » doit être un nombre positif ou nul.', { exact: true }).waitFor();
      await form.getByText("Un champ est à corriger : rien n'a été envoyé.", { exact: true }).waitFor();
      assert.equal(
        await page.evaluate(() => document.activeElement?.id),
        'submit-charge_utile',
        'le focus va au champ à corriger',
      );
      assert.equal(posts, 0, 'rien envoyé au serveur');
      await shot('releves-07-soumission-refus');

      await form.getByLabel('Charge utile (kg)', { exact: true }).fill(String(load));
      await form.getByLabel('Type de porte cabine', { exact: true }).selectOption('Automatique centrale');
      await form.getByRole('button', { name: 'Soumettre le relevé…', exact: true }).click();
      const confirm = page.getByRole('dialog', { name: `Soumettre le relevé ${chosen.number} ?` });
      await confirm.waitFor();
      await shot('releves-08-confirmation');
      const submitted = apiResponse(submitPath, 'POST');
      await confirm.getByRole('button', { name: 'Confirmer la soumission', exact: true }).click();
      const answer = await submitted;
      assert.equal(answer.status(), 200);
      assert.deepEqual(answer.request().postDataJSON(), {
        values: { charge_utile: load, porte_cabine_type: 'Automatique centrale' },
      });
      assert.equal((await answer.json()).status, 'termine');
      await page.locator('[data-testid="statut"]', { hasText: 'Terminé' }).waitFor();
      await page.locator('.notice', { hasText: 'Relevé soumis' }).waitFor();
      await page
        .getByTestId('submission-refusal')
        .filter({ hasText: "Le relevé est déjà terminé : il a déjà été soumis, ses données sont celles de l'équipement." })
        .waitFor();
      assert.equal(await page.getByRole('button', { name: 'Saisir et soumettre le relevé' }).count(), 0);
      const data = page.getByRole('region', { name: 'Données relevées' });
      await data.locator('tr[data-code="charge_utile"] td', { hasText: `${load} kg` }).waitFor();
      await data.getByRole('table', { name: 'Porte de cabine' }).getByText('Automatique centrale', { exact: true }).waitFor();
      await checkData((await rest('GET', `/surveys/${chosen.id}/data`)).body);
      await shot('releves-09-soumis');

      const deadline = Date.now() + TIMEOUT;
      let ours = [];
      while (Date.now() < deadline) {
        const deliveries = await rest('GET', `/webhooks/${webhookId}/deliveries?limit=50`);
        assert.equal(deliveries.status, 200, JSON.stringify(deliveries.body));
        ours = deliveries.body.results.filter((d) => d.objectId === chosen.id);
        if (ours.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      assert.equal(ours.length, 1, 'une livraison releve.termine pour ce relevé');
      assert.equal(ours[0].event, 'releve.termine');
      assert.deepEqual(pageErrors, []);
    });
  },
);
