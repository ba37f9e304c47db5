// Test de bout en bout des écrans « Clés et jetons », « Webhooks » et « Mon compte »,
// contre un serveur Liftdesk réel lancé sur la démo :
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/keys.test.mjs'
//
// LIFTDESK_URL, LIFTDESK_CREDENTIALS ({"admin": {"email","password","apiToken"}, "member": {…},
// "agencies": [{"id","name"}…], "callCenterKeys": […]}) ; LIFTDESK_ARTIFACTS : dossier des
// captures (écrites dans <dossier>/ui/) ; LIFTDESK_CHROMIUM : navigateur (défaut /usr/bin/chromium).
//
// Ce fichier crée ses propres jetons et abonnements (et les révoque), ne change aucun mot de
// passe et tolère les lignes laissées par d'autres tests.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before } from 'node:test';
import { describeOnServer, TIMEOUT } from './harness.mjs';

const STEP_TIMEOUT = 90_000;

const T = {
  keysMenu: 'Clés et jetons',
  webhooksMenu: 'Webhooks',
  accountMenu: 'Mon compte',
  once: 'Copiez-le maintenant : il ne sera plus affiché.',
  tokenName: "Nom de l'outil qui recevra le jeton",
  createToken: 'Créer le jeton',
  centerName: "Nom du centre d'appels",
  createKey: 'Créer la clé',
  closeSecret: "J'ai copié, fermer",
  memberRefused: "Créer une clé de centre d'appels est réservé à un administrateur de l'agence.",
  memberNotice: (agency) =>
    `Vous voyez les clés de « ${agency} », mais seul un administrateur de l'agence peut en créer ou en révoquer.`,
  passwordWarning: "Changer le mot de passe révoque tous les jetons d'API de votre compte.",
  mismatch: 'Les deux saisies du nouveau mot de passe diffèrent.',
  webhooksReadOnly:
    "Cet écran est réservé aux administrateurs de l'agence : vous pouvez consulter les abonnements et leurs livraisons, pas les modifier.",
};

describeOnServer(
  'clés et jetons, webhooks, mon compte',
  {
    timeout: 20 * STEP_TIMEOUT,
    stepTimeout: STEP_TIMEOUT,
    shots: 'cles',
    accounts: ['admin', 'member'],
    context: { permissions: ['clipboard-read', 'clipboard-write'] },
  },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse, signIn, signOut } = ui;
    const stamp = Date.now().toString(36);
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;

    const fingerprintPrefix = (secret) => createHash('sha256').update(secret).digest('hex').slice(0, 8);

    /** `GET /api/v2/me` avec un jeton d'API, hors du navigateur. */
    async function me(token) {
      const response = await fetch(new URL('/api/v2/me', baseUrl), { headers: { Authorization: `Bearer ${token}` } });
      return { status: response.status, body: await response.json().catch(() => null) };
    }

    async function openScreen(menuLabel, headingName) {
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: menuLabel, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: headingName, exact: true }).waitFor();
    }

    const secretDialog = () => page.getByRole('dialog');
    const sectionOf = (title) => page.getByRole('region', { name: title });

    before(() => {
      ({ page, creds } = ui);
      for (const who of ['admin', 'member']) {
        assert.ok(creds?.[who]?.email && creds[who].password && creds[who].apiToken, `${who} incomplet`);
      }
      assert.ok(Array.isArray(creds.agencies) && creds.agencies[0]?.name, 'agences manquantes');
    });

    const toolName = `Outil e2e ${stamp}`;
    let token = '';

    step("l'administrateur crée un jeton, le lit une fois et le copie", async () => {
      await signIn(creds.admin);
      await openScreen(T.keysMenu, 'Clés et jetons');
      await sectionOf("Mes jetons d'API").waitFor();
      // Administrateur : la création des clés de l'agence est proposée.
      await page.getByLabel(T.centerName, { exact: true }).waitFor();
      await shot('cles-01-ecran-admin');

      // Validation côté client, comme le serveur.
      await page.getByRole('button', { name: T.createToken, exact: true }).click();
      await page.getByText("Le nom de l'outil est obligatoire.", { exact: true }).waitFor();

      await page.getByLabel(T.tokenName, { exact: true }).fill(toolName);
      const response = apiResponse('/app/api/keys/tokens', 'POST');
      await page.getByRole('button', { name: T.createToken, exact: true }).click();
      const res = await response;
      assert.equal(res.status(), 201);
      const created = await res.json();

      const dialog = secretDialog();
      await dialog.waitFor();
      await dialog.getByText(T.once, { exact: true }).waitFor();
      token = await dialog.locator('input[data-secret]').inputValue();
      assert.match(token, /^svc_agent_[A-Za-z0-9]{32}$/);
      assert.equal(token, created.token);
      await shot('cles-02-jeton-montre-une-fois');

      await dialog.getByRole('button', { name: 'Copier', exact: true }).click();
      await dialog.getByText('Copié dans le presse-papiers.', { exact: true }).waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), token);

      await dialog.getByRole('button', { name: T.closeSecret, exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });

      // Listé par son empreinte, jamais par son secret.
      const row = sectionOf("Mes jetons d'API").getByRole('row').filter({ hasText: toolName });
      await row.waitFor();
      assert.match((await row.textContent()) ?? '', new RegExp(`${fingerprintPrefix(token)}…`));
      assert.equal((await page.content()).includes(token), false, 'le jeton reste dans la page');
    });

    step('le jeton ouvre /api/v2/me', async () => {
      const answer = await me(token);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.email.toLowerCase(), creds.admin.email.toLowerCase());
    });

    step("révoqué depuis l'écran, il reçoit 401", async () => {
      const tokens = sectionOf("Mes jetons d'API");
      await tokens.getByRole('button', { name: `Révoquer « ${toolName} »`, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Révoquer le jeton « ${toolName} » ?` });
      await dialog.waitFor();
      await shot('cles-03-confirmation-revocation');
      const revoke = page.waitForResponse(
        (r) => /\/app\/api\/keys\/tokens\/[^/]+\/revoke$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST',
        { timeout: TIMEOUT },
      );
      await dialog.getByRole('button', { name: 'Révoquer', exact: true }).click();
      assert.equal((await revoke).status(), 200);
      await dialog.waitFor({ state: 'hidden' });
      await tokens.getByRole('row').filter({ hasText: toolName }).waitFor({ state: 'detached' });
      await page.getByText(`Jeton « ${toolName} » révoqué.`, { exact: true }).first().waitFor();

      const answer = await me(token);
      assert.equal(answer.status, 401);
      // Le jeton de démonstration de l'administrateur, lui, reste valable.
      assert.equal((await me(creds.admin.apiToken)).status, 200);
    });

    const hookUrl = `https://hooks.example.invalid/liftdesk-e2e-${stamp}`;

    step('webhooks : abonnement, secret montré une fois, test et livraison listée', async () => {
      await openScreen(T.webhooksMenu, 'Webhooks');
      await page.getByRole('region', { name: "État de l'envoi" }).getByText('Livraisons en attente', { exact: true }).waitFor();

      // Validation côté client : https exigé.
      await page.getByLabel('Adresse https qui reçoit les événements', { exact: true }).fill('http://hooks.example.org/x');
      await page.getByRole('button', { name: "S'abonner", exact: true }).click();
      await page
        .getByText("L'adresse doit commencer par https:// : les événements ne sont envoyés qu'en HTTPS.", { exact: true })
        .waitFor();

      await page.getByLabel('Adresse https qui reçoit les événements', { exact: true }).fill(hookUrl);
      const response = apiResponse('/app/api/webhooks', 'POST');
      await page.getByRole('button', { name: "S'abonner", exact: true }).click();
      const res = await response;
      assert.equal(res.status(), 201);
      const created = await res.json();
      const dialog = secretDialog();
      await dialog.getByText(T.once, { exact: true }).waitFor();
      const secret = await dialog.locator('input[data-secret]').inputValue();
      assert.match(secret, /^whsec_/);
      assert.equal(secret, created.secret);
      await shot('cles-04-webhook-secret');
      await dialog.getByRole('button', { name: T.closeSecret, exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      assert.equal((await page.content()).includes(secret), false, 'le secret reste dans la page');

      const row = page.getByRole('row').filter({ hasText: hookUrl });
      await row.waitFor();
      // L'envoi peut attendre le réseau (sonde) jusqu'à une quinzaine de secondes.
      const test = apiResponse(`/app/api/webhooks/${created.id}/test`, 'POST', { timeout: 60_000 });
      await row.getByRole('button', { name: `Envoyer un test à ${hookUrl}`, exact: true }).click();
      const sent = await test;
      assert.equal(sent.status(), 201);
      const delivery = (await sent.json()).delivery;
      assert.equal(delivery.event, 'ping');

      const deliveries = page.getByRole('region', { name: /^Dernières livraisons/ });
      const deliveryRow = deliveries.locator(`tr[data-id="${delivery.id}"]`);
      await deliveryRow.waitFor({ timeout: 30_000 });
      assert.match((await deliveryRow.textContent()) ?? '', /ping/);
      assert.equal(new URL(page.url()).pathname, `/webhooks/${created.id}`);
      await shot('cles-05-webhook-livraisons');

      // Révoqué (après confirmation) : l'abonnement quitte la liste.
      await row.getByRole('button', { name: `Révoquer l'abonnement de ${hookUrl}`, exact: true }).click();
      const confirm = page.getByRole('dialog', { name: 'Révoquer cet abonnement ?' });
      await confirm.waitFor();
      const revoke = apiResponse(`/app/api/webhooks/${created.id}/revoke`, 'POST');
      await confirm.getByRole('button', { name: 'Révoquer', exact: true }).click();
      assert.equal((await revoke).status(), 200);
      await row.waitFor({ state: 'detached' });
    });

    step('mon compte : avertissement, confirmation puis annulation', async () => {
      let passwordPosts = 0;
      const count = (request) => {
        if (new URL(request.url()).pathname === '/app/api/account/password') passwordPosts += 1;
      };
      page.on('request', count);
      await openScreen(T.accountMenu, 'Mon compte');
      await page.getByText(T.passwordWarning, { exact: true }).waitFor();

      await page.getByLabel('Mot de passe actuel', { exact: true }).fill(creds.admin.password);
      await page.getByLabel('Nouveau mot de passe (8 caractères au moins)', { exact: true }).fill('nouveau-e2e-2026');
      await page.getByLabel('Nouveau mot de passe, une seconde fois', { exact: true }).fill('autre-e2e-2026');
      await page.getByRole('button', { name: 'Changer le mot de passe…', exact: true }).click();
      await page.getByText(T.mismatch, { exact: true }).waitFor();

      await page.getByLabel('Nouveau mot de passe, une seconde fois', { exact: true }).fill('nouveau-e2e-2026');
      await page.getByRole('button', { name: 'Changer le mot de passe…', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Changer le mot de passe ?' });
      await dialog.waitFor();
      await dialog.getByText(/Tous les jetons d'API de votre compte seront révoqués/).waitFor();
      await shot('cles-06-mon-compte-confirmation');
      await dialog.getByRole('button', { name: 'Annuler', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      page.off('request', count);

      assert.equal(passwordPosts, 0, 'le mot de passe a été envoyé malgré l’annulation');
      // Rien n'a changé : le jeton de démonstration marche encore, la saisie est gardée.
      assert.equal((await me(creds.admin.apiToken)).status, 200);
      assert.equal(await page.getByLabel('Mot de passe actuel', { exact: true }).inputValue(), creds.admin.password);
      await shot('cles-07-mon-compte');
      await signOut();
    });

    step("le membre voit les clés de l'agence sans pouvoir en créer", async () => {
      const session = await signIn(creds.member);
      const agency = creds.agencies[0].name;
      assert.equal(session.agency?.name, agency);
      const nav = page.getByRole('navigation', { name: 'Menu principal' });
      assert.equal(await nav.getByRole('link', { name: T.webhooksMenu, exact: true }).count(), 0);

      await openScreen(T.keysMenu, 'Clés et jetons');
      await page.getByText(T.memberNotice(agency), { exact: true }).waitFor();
      const centers = sectionOf(`Clés des centres d'appels — ${agency}`);
      await centers.waitFor();
      // Les deux clés de la démo (au moins) sont listées.
      await centers.locator('tbody tr[data-id]').nth(1).waitFor();
      assert.equal(await page.getByLabel(T.centerName, { exact: true }).count(), 0);
      assert.equal(await centers.getByRole('button').count(), 0, 'aucune action proposée au membre');
      assert.equal(await page.getByRole('button', { name: T.createKey, exact: true }).count(), 0);
      // Ses propres jetons, il les gère.
      await page.getByLabel(T.tokenName, { exact: true }).waitFor();
      await shot('cles-08-ecran-membre');

      // Le serveur refuse de toute façon : POST direct avec la session du membre.
      const refused = await page.evaluate(async () => {
        const session = await (await fetch('/app/api/session')).json();
        const response = await fetch('/app/api/keys/call-center-keys', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken },
          body: JSON.stringify({ name: 'Centre du membre' }),
        });
        return { status: response.status, body: await response.json() };
      });
      assert.deepEqual(refused, { status: 403, body: { error: T.memberRefused } });

      // Par un lien direct, l'écran des webhooks est en lecture seule.
      await page.goto(new URL('/webhooks', baseUrl).href);
      await page.getByRole('heading', { level: 1, name: 'Webhooks', exact: true }).waitFor();
      await page.getByText(T.webhooksReadOnly, { exact: true }).waitFor();
      assert.equal(await page.getByRole('button', { name: "S'abonner", exact: true }).count(), 0);
      await shot('cles-09-webhooks-membre');
      await signOut();
    });

    step('aucune erreur JavaScript dans la page', () => {
      assert.deepEqual(pageErrors.map(String), []);
    });
  },
);
