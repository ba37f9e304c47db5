// Test de bout en bout de la connexion, contre un serveur Liftdesk réel déjà lancé.
//
//   LIFTDESK_URL=http://127.0.0.1:PORT \
//   LIFTDESK_CREDENTIALS=/chemin/credentials.json \
//   npm run e2e
//
// LIFTDESK_CREDENTIALS : {"admin": {"email","password"}, "member": {"email","password"},
//                         "agencies": [{"id","name"}, ...]}  (l'admin travaille dans toutes
//                         les agences listées, le membre seulement dans la première).
// LIFTDESK_ARTIFACTS   : dossier des captures (défaut : ../test-artifacts), écrites dans <dossier>/ui/.
// LIFTDESK_CHROMIUM    : navigateur à piloter (défaut : /usr/bin/chromium).

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describeOnServer, expectText, STEP_TIMEOUT } from './harness.mjs';

// Textes exacts de l'interface.
const T = {
  title: 'Liftdesk',
  subtitle: "Back-office de maintenance d'ascenseurs",
  emailLabel: 'Adresse e-mail',
  passwordLabel: 'Mot de passe',
  submit: 'Se connecter',
  submitting: 'Connexion…',
  emailRequired: 'Saisissez votre adresse e-mail.',
  passwordRequired: 'Saisissez votre mot de passe.',
  wrongCredentials: 'Adresse e-mail ou mot de passe incorrect.',
  signOut: 'Se déconnecter',
  welcome: (name) => `Bienvenue, ${name}`,
  activeAgency: (name) => `Agence active : ${name}`,
  noActiveAgency: 'Aucune agence active.',
  agencies: 'Vos agences',
  agencySwitcher: 'Agence',
  menu: 'Menu principal',
  adminMenu: ['Accueil', 'Planning', 'Appels de panne', 'Techniciens', 'Équipements', 'Clients', 'Contrats', 'Relevés', 'Devis', 'Factures', 'Clés et jetons', 'Webhooks', 'Imports', 'Agence', 'Journal', 'Paramètres', 'Mon compte'],
  memberMenu: ['Accueil', 'Planning', 'Appels de panne', 'Techniciens', 'Équipements', 'Clients', 'Contrats', 'Relevés', 'Devis', 'Factures', 'Clés et jetons', 'Mon compte'],
};

describeOnServer(
  'connexion au back-office',
  { timeout: 10 * STEP_TIMEOUT, accounts: ['admin', 'member'], viewport: { width: 1280, height: 800 } },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    /** @type {{admin: {email: string, password: string}, member: {email: string, password: string}, agencies: {id: string, name: string}[]}} */
    let creds;

    const sessionResponse = (method) => apiResponse('/app/api/session', method);

    const loginHeading = () => page.getByRole('heading', { level: 1, name: T.title, exact: true });
    const submitButton = () => page.getByRole('button', { name: T.submit, exact: true });
    const emailField = () => page.getByLabel(T.emailLabel, { exact: true });
    const passwordField = () => page.getByLabel(T.passwordLabel, { exact: true });
    const alert = () => page.getByRole('alert');

    async function expectLoginPage() {
      await loginHeading().waitFor();
      await page.getByText(T.subtitle, { exact: true }).waitFor();
      await emailField().waitFor();
      await passwordField().waitFor();
      await submitButton().waitFor();
      assert.equal(await page.getByRole('button', { name: T.signOut }).count(), 0);
    }

    /** Se connecte et renvoie le corps de la réponse de connexion. */
    async function signIn(account) {
      await emailField().fill(account.email);
      await passwordField().fill(account.password);
      const response = sessionResponse('POST');
      await submitButton().click();
      const res = await response;
      const body = await res.json();
      assert.equal(res.status(), 200, `connexion de ${account.email} refusée : ${JSON.stringify(body)}`);
      assert.equal(body.account.email.toLowerCase(), account.email.toLowerCase());
      assert.equal(typeof body.account.name, 'string');
      return body;
    }

    /** Vérifie l'accueil : nom, e-mail, agence active et liste exacte des agences. */
    async function expectHome(session, expectedAgencyNames) {
      const { name, email } = session.account;
      await page.getByRole('heading', { level: 1, name: T.welcome(name), exact: true }).waitFor();
      const header = page.getByRole('banner');
      await header.getByText(T.title, { exact: true }).waitFor();
      await header.getByText(name, { exact: true }).waitFor();
      await header.getByText(email, { exact: true }).waitFor();
      await header.getByRole('button', { name: T.signOut, exact: true }).waitFor();

      if (session.agency) {
        assert.ok(expectedAgencyNames.includes(session.agency.name), 'agence active hors de la liste attendue');
        await page.getByText(T.activeAgency(session.agency.name), { exact: true }).waitFor();
      } else {
        await page.getByText(T.noActiveAgency, { exact: true }).waitFor();
      }

      const list = page.getByRole('list', { name: T.agencies, exact: true });
      await list.waitFor();
      const items = (await list.getByRole('listitem').allTextContents()).map((s) => s.trim());
      assert.deepEqual([...items].sort(), [...expectedAgencyNames].sort());
      assert.equal(await page.getByRole('button', { name: T.submit }).count(), 0);
    }

    before(() => {
      ({ page, creds } = ui);
      assert.ok(
        Array.isArray(creds.agencies) && creds.agencies.length >= 2 && creds.agencies.every((a) => a?.name),
        'LIFTDESK_CREDENTIALS : "agencies" doit lister au moins deux agences {id, name}',
      );
    });

    step("page de connexion à l'ouverture", async () => {
      const res = await page.goto(baseUrl);
      assert.equal(res?.status(), 200);
      await expectLoginPage();
      // Chaque écran nomme son onglet (« <Écran> — Liftdesk ») : la connexion aussi.
      assert.equal(await page.title(), `Connexion — ${T.title}`);
      assert.equal(await page.getAttribute('html', 'lang'), 'fr');
      assert.equal(await emailField().inputValue(), '');
      await shot('01-connexion');
    });

    step('validation en français sans perdre la saisie', async () => {
      await submitButton().click();
      await page.getByText(T.emailRequired, { exact: true }).waitFor();
      await page.getByText(T.passwordRequired, { exact: true }).waitFor();
      assert.equal(await emailField().getAttribute('aria-invalid'), 'true');
      await shot('02-validation');

      // Adresse saisie, mot de passe vide : seule l'erreur du mot de passe reste, l'adresse est gardée.
      await emailField().fill(creds.admin.email);
      await submitButton().click();
      await page.getByText(T.passwordRequired, { exact: true }).waitFor();
      assert.equal(await page.getByText(T.emailRequired, { exact: true }).count(), 0);
      assert.equal(await emailField().inputValue(), creds.admin.email);
    });

    step("mauvais mot de passe : message du serveur, adresse conservée", async () => {
      await emailField().fill(creds.admin.email);
      await passwordField().fill(`mauvais-${Date.now()}`);

      // La requête est retenue le temps de vérifier l'état « en cours » du bouton.
      let release;
      const held = new Promise((resolve) => (release = resolve));
      await page.route('**/app/api/session', async (route) => {
        if (route.request().method() === 'POST') await held;
        await route.fallback();
      });
      const response = sessionResponse('POST');
      await submitButton().click();
      const busy = page.getByRole('button', { name: T.submitting, exact: true });
      await busy.waitFor();
      assert.equal(await busy.isDisabled(), true);
      release();
      const res = await response;
      await page.unroute('**/app/api/session');

      assert.equal(res.status(), 401);
      const body = await res.json();
      assert.equal(body.error, T.wrongCredentials);
      await expectText(alert(), body.error);
      assert.equal(await emailField().inputValue(), creds.admin.email);
      assert.equal(await submitButton().isEnabled(), true);
      await shot('03-erreur-identifiants');
    });

    /** @type {any} */
    let adminSession;

    step("connexion de l'administrateur", async () => {
      adminSession = await signIn(creds.admin);
      await expectHome(
        adminSession,
        creds.agencies.map((a) => a.name),
      );
      assert.equal(new URL(page.url()).pathname, '/');
      await shot('04-accueil-admin');
    });

    step('toujours connecté après rechargement', async () => {
      const response = sessionResponse('GET');
      await page.reload();
      assert.equal((await response).status(), 200);
      await expectHome(
        adminSession,
        creds.agencies.map((a) => a.name),
      );
      await shot('05-accueil-apres-rechargement');
    });

    const menuItems = async () =>
      (await page.getByRole('navigation', { name: T.menu, exact: true }).getByRole('link').allTextContents()).map((s) =>
        s.trim(),
      );

    step("menu de l'administrateur", async () => {
      assert.deepEqual(await menuItems(), T.adminMenu);
    });

    step("changement d'agence, gardé après rechargement", async () => {
      const switcher = page.getByRole('banner').getByLabel(T.agencySwitcher, { exact: true });
      const start = adminSession.agency.id;
      const other = creds.agencies.find((a) => a.id !== start);
      assert.ok(other, 'une seconde agence est attendue dans la démo');
      assert.equal(await switcher.inputValue(), start);

      const response = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/session/agency' && r.request().method() === 'PUT',
      );
      await switcher.selectOption(other.id);
      const res = await response;
      assert.equal(res.status(), 200, await res.text());
      assert.ok(res.request().headers()['x-csrf-token'], 'X-CSRF-Token absent du changement d’agence');
      await page.getByText(T.activeAgency(other.name), { exact: true }).waitFor();
      await shot('05b-agence-changee');

      await page.reload();
      await page.getByText(T.activeAgency(other.name), { exact: true }).waitFor();
      assert.equal(await switcher.inputValue(), other.id);

      // Retour à l'agence de départ, pour les autres tests qui partagent ce serveur.
      await switcher.selectOption(start);
      const back = creds.agencies.find((a) => a.id === start);
      await page.getByText(T.activeAgency(back.name), { exact: true }).waitFor();
    });

    step('déconnexion', async () => {
      const response = sessionResponse('DELETE');
      await page.getByRole('button', { name: T.signOut, exact: true }).click();
      const res = await response;
      if (res.status() !== 204) assert.fail(`déconnexion refusée (${res.status()}) : ${await res.text()}`);
      assert.ok(res.request().headers()['x-csrf-token'], 'X-CSRF-Token absent de la déconnexion');
      await expectLoginPage();
      await shot('06-deconnexion');

      // La session est bien close côté serveur : un rechargement reste sur la connexion.
      const check = sessionResponse('GET');
      await page.reload();
      assert.equal((await check).status(), 401);
      await expectLoginPage();
    });

    step('connexion du membre : seulement la première agence', async () => {
      const session = await signIn(creds.member);
      const first = creds.agencies[0].name;
      await expectHome(session, [first]);
      // Une seule agence : pas de sélecteur, les écrans d'administration ne sont pas proposés.
      assert.equal(await page.getByRole('banner').getByLabel(T.agencySwitcher, { exact: true }).count(), 0);
      assert.deepEqual(await menuItems(), T.memberMenu);
      await shot('07-accueil-membre');
    });

    step('aucune erreur JavaScript dans la page', () => {
      assert.deepEqual(pageErrors.map(String), []);
    });
  },
);
