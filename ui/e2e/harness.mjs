// Le harnais commun des tests de bout en bout (e2e/*.test.mjs, node:test + playwright-core) : ce
// que chaque fichier répétait, en un seul endroit. Il possède :
// - le test « configuration du test de bout en bout », qui échoue quand LIFTDESK_URL ou
//   LIFTDESK_CREDENTIALS manque (un test qui pilote un vrai serveur ne se saute pas) ;
// - la lecture du fichier des comptes de la démonstration (LIFTDESK_CREDENTIALS) ;
// - le lancement du chromium de Debian (LIFTDESK_CHROMIUM, défaut /usr/bin/chromium) et le
//   contexte du navigateur (français, taille de la fenêtre, options d'un test : téléchargements,
//   fuseau horaire, permissions, script injecté…), les erreurs de la page relevées ;
// - les étapes (`step`, capture « echec-… » quand l'une échoue) et les captures d'écran, écrites
//   dans $LIFTDESK_ARTIFACTS/ui/ (défaut test-artifacts/ui/) ;
// - l'attente d'une réponse de l'API, la connexion par le formulaire (administrateur, membre ou
//   tout autre compte), la déconnexion, les appels de l'API de l'interface avec la session du
//   navigateur (cookie et jeton CSRF) et ceux de l'API hors navigateur ;
// - les textes aux espaces normalisés (`plain`, `expectText`), les jours `AAAA-MM-JJ` décalés
//   (`addDays`) ;
// - l'interpréteur Python des outils des tests (`PYTHON` : récepteur SMTP, openpyxl…).
//
// Ce fichier n'est pas un test : `npm run e2e` (`node --test e2e/`) ne lance que les *.test.mjs.
// Un fichier de test décrit sa suite par `describeOnServer(titre, options, (ui) => { … })` ; les
// tests qui lancent leur propre serveur (installation, premier jour) créent une `BrowserSession`.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

/** Le dossier de l'interface (ui/). */
export const UI_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** L'attente par défaut d'une action de la page ou d'une réponse. */
export const TIMEOUT = 15_000;
/** La durée par défaut d'une étape. */
export const STEP_TIMEOUT = 60_000;
/** Le dossier des captures (et des fichiers que les tests gardent). */
export const artifactsDir = process.env.LIFTDESK_ARTIFACTS
  ? path.resolve(process.env.LIFTDESK_ARTIFACTS, 'ui')
  : path.resolve(UI_DIR, '../test-artifacts/ui');

/** Le Python de l'environnement des tests (LIFTDESK_PY_VENV, défaut ~/.cache/liftdesk/venv). */
export const PYTHON = path.join(
  process.env.LIFTDESK_PY_VENV || path.join(os.homedir(), '.cache/liftdesk/venv'),
  'bin',
  'python',
);

/** Espaces (insécables compris) réduits à une espace simple, bouts retirés. */
export const plain = (text) => (text ?? '').replace(/[\s\u202f\u00a0]+/g, ' ').trim();

/** Attend que le texte d'un élément (espaces normalisés) soit exactement celui attendu. */
export async function expectText(locator, wanted, timeout = TIMEOUT) {
  const expected = plain(wanted);
  const deadline = Date.now() + timeout;
  let actual;
  for (;;) {
    actual = plain(await locator.textContent({ timeout }));
    if (actual === expected || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(actual, expected);
}

/** `AAAA-MM-JJ` + n jours (en UTC, sans fuseau). */
/**
 * The environment of a server a test starts itself on an empty data
 * directory: its SQLite file there, or, when the run is on PostgreSQL
 * (`LIFTDESK_DEMO_POSTGRES`, set by the test command), a new schema of that
 * database (the demo server's schema is not empty).
 * @param {string} name a word naming the test (in the schema's name)
 */
export function emptyDatabaseEnv(name) {
  const env = { ...process.env };
  delete env.LIFTDESK_DATABASE_URL;
  const base = process.env.LIFTDESK_DEMO_POSTGRES;
  if (!base) return env;
  const schema = `e2e_${name}_${process.pid}_${Date.now()}`;
  execFileSync('psql', [base, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', `CREATE SCHEMA ${schema}`]);
  env.LIFTDESK_DATABASE_URL = `${base}${base.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
  return env;
}

export function addDays(day, n) {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/**
 * Glisse `source` sur `target` à la souris, comme le ferait une personne : la cible d'abord
 * rendue visible, puis la source ; bouton enfoncé sur la source, deux passages sur la cible
 * (le premier déclenche le glisser, le second le `dragover` dont dépend le dépôt : c'est la
 * séquence que la documentation de Playwright donne pour un glisser-déposer HTML5 fiable),
 * bouton relâché sur la cible. `locator.dragTo` en un seul geste perdait parfois le dépôt.
 */
export async function dragAndDrop(page, source, target) {
  await target.scrollIntoViewIfNeeded();
  await source.scrollIntoViewIfNeeded();
  await source.hover();
  await page.mouse.down();
  await target.hover();
  await target.hover({ position: { x: 6, y: 6 } });
  await page.mouse.up();
}

/** Le chromium de Debian, sans fenêtre ; `extraArgs` s'ajoute aux options communes. */
export function launchBrowser(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.LIFTDESK_CHROMIUM || '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

/**
 * La prochaine réponse de `target` à `method` sur `pathname` (un chemin exact, ou une fonction
 * qui reçoit le chemin et dit s'il convient).
 */
export function waitForApi(target, pathname, method, timeout = TIMEOUT) {
  const matches = typeof pathname === 'function' ? pathname : (p) => p === pathname;
  return target.waitForResponse((r) => matches(new URL(r.url()).pathname) && r.request().method() === method, {
    timeout,
  });
}

/**
 * Les comptes de LIFTDESK_CREDENTIALS ; chacun de `accounts` (« admin », « member »…) doit avoir
 * son adresse et son mot de passe.
 */
export function readCredentials(accounts = ['admin']) {
  const file = path.resolve(process.env.LIFTDESK_CREDENTIALS);
  let creds;
  try {
    creds = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`LIFTDESK_CREDENTIALS : lecture de ${file} impossible (${error.message})`);
  }
  for (const who of accounts) {
    assert.ok(creds?.[who]?.email && creds[who].password, `LIFTDESK_CREDENTIALS : ${who}.email et ${who}.password requis`);
  }
  return creds;
}

/**
 * Un navigateur et sa page principale, avec ce qu'une étape utilise. Options :
 * - `baseUrl` : l'adresse du serveur (modifiable avant `open()` : les tests qui lancent leur serveur
 *   ne la connaissent qu'alors) ;
 * - `shots` : le préfixe des captures d'échec (`echec-<shots>-<étape>.png`) ;
 * - `stepTimeout` : la durée d'une étape (défaut STEP_TIMEOUT) ;
 * - `fullPage` : captures de toute la page (défaut) ou de la fenêtre seule ;
 * - `apiTimeout` : l'attente d'une réponse de l'API par `apiResponse` (défaut TIMEOUT) ;
 * - `viewport` (défaut 1280 × 900), `launchArgs`, et `context` : les options du contexte de
 *   Playwright (acceptDownloads, timezoneId…), plus `permissions` (accordées pour le serveur) et
 *   `prepare(context)`, appelée avant d'ouvrir la page (script injecté…).
 */
export class BrowserSession {
  /** @type {import('playwright-core').Browser | undefined} */
  browser;
  /** @type {import('playwright-core').Page} */
  page;
  /** Les erreurs JavaScript de toutes les pages ouvertes. */
  pageErrors = [];

  constructor({
    baseUrl,
    shots = '',
    stepTimeout = STEP_TIMEOUT,
    fullPage = true,
    apiTimeout = TIMEOUT,
    viewport,
    launchArgs = [],
    context = {},
  } = {}) {
    this.baseUrl = baseUrl;
    this.apiTimeout = apiTimeout;
    this.shots = shots;
    this.stepTimeout = stepTimeout;
    this.fullPage = fullPage;
    this.launchArgs = launchArgs;
    this.contextOptions = { viewport: viewport ?? { width: 1280, height: 900 }, ...context };
  }

  /** Le navigateur lancé, la page principale ouverte. */
  open = async () => {
    mkdirSync(artifactsDir, { recursive: true });
    this.browser = await launchBrowser(this.launchArgs);
    this.page = await this.newPage();
  };

  /** Le navigateur fermé, avec toutes ses pages. */
  close = async () => {
    await this.browser?.close();
  };

  /**
   * Une page dans un nouveau contexte (un autre navigateur : sa propre session), avec les options
   * de contexte de la session, ou `options` à leur place ; ses erreurs vont aussi dans `pageErrors`.
   */
  newPage = async (options = this.contextOptions) => {
    const { permissions, prepare, ...playwrightOptions } = options;
    const context = await this.browser.newContext({ locale: 'fr-FR', ...playwrightOptions });
    if (permissions) await context.grantPermissions(permissions, { origin: new URL(this.baseUrl).origin });
    if (prepare) await prepare(context);
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT);
    page.on('pageerror', (error) => this.pageErrors.push(error));
    return page;
  };

  /** Une capture `<name>.png` de `page` (défaut : la page principale). */
  shot = (name, { page = this.page, fullPage = this.fullPage } = {}) =>
    page.screenshot({ path: path.join(artifactsDir, `${name}.png`), fullPage });

  /** Une étape : un test nommé ; s'il échoue, la page est capturée avant que l'erreur remonte. */
  step = (name, fn, timeout = this.stepTimeout) => {
    it(name, { timeout }, async () => {
      try {
        await fn();
      } catch (error) {
        const prefix = this.shots ? `echec-${this.shots}-` : 'echec-';
        if (this.page) await this.shot(`${prefix}${name.replace(/[^\p{L}\p{N}]+/gu, '-')}`).catch(() => {});
        throw error;
      }
    });
  };

  /** La prochaine réponse de l'API (voir `waitForApi`), sur la page principale par défaut. */
  apiResponse = (pathname, method, { page = this.page, timeout = this.apiTimeout } = {}) =>
    waitForApi(page, pathname, method, timeout);

  /**
   * Connexion de `account` ({ email, password }) par le formulaire, ouvert à l'adresse `at` (défaut
   * l'accueil) : le corps de la réponse.
   */
  signIn = async (account, { page = this.page, at = '/' } = {}) => {
    await page.goto(new URL(at, this.baseUrl).href);
    await page.getByLabel('Adresse e-mail', { exact: true }).fill(account.email);
    await page.getByLabel('Mot de passe', { exact: true }).fill(account.password);
    const response = waitForApi(page, '/app/api/session', 'POST');
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    const res = await response;
    assert.equal(res.status(), 200, `connexion de ${account.email} refusée`);
    await page.getByRole('button', { name: 'Se déconnecter', exact: true }).waitFor();
    return res.json();
  };

  /** « Se déconnecter » : la session fermée, le formulaire de connexion revenu. */
  signOut = async (page = this.page) => {
    const response = waitForApi(page, '/app/api/session', 'DELETE');
    await page.getByRole('button', { name: 'Se déconnecter', exact: true }).click();
    assert.equal((await response).status(), 204);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).waitFor();
  };

  /**
   * Un appel de l'API depuis la page, avec le cookie et le jeton CSRF de la session :
   * { status, body } (le corps lu en JSON, ou son texte s'il n'en est pas).
   */
  callApi = (method, pathname, body, page = this.page) =>
    page.evaluate(
      async ({ method, pathname, body }) => {
        const session = await (await fetch('/app/api/session')).json();
        const response = await fetch(pathname, {
          method,
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        let parsed = null;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          parsed = text;
        }
        return { status: response.status, body: parsed };
      },
      { method, pathname, body },
    );

  /** `callApi` sur l'API de l'interface : `apiPath` est relatif à /app/api. */
  appApi = (method, apiPath, body, page = this.page) => this.callApi(method, `/app/api${apiPath}`, body, page);

  /**
   * Un appel HTTP hors navigateur (API v2, partenaires, centre d'appels) : { status, body }.
   * `token` : le jeton porteur ; `agency` : l'agence de service (X-Service-Agency).
   */
  http = async (method, urlPath, { token, agency, body } = {}) => {
    const headers = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (agency) headers['X-Service-Agency'] = agency;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(new URL(urlPath, this.baseUrl), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
}

/**
 * Une suite contre le serveur de LIFTDESK_URL (la démonstration de scripts/with-demo-server.sh).
 * Sans LIFTDESK_URL ou LIFTDESK_CREDENTIALS, un seul test échoue en le disant. Sinon `body(ui)`
 * décrit les étapes : `ui` est une `BrowserSession` (options ci-dessus) dont `ui.creds` (les
 * comptes, lus avant la première étape ; `accounts` : ceux qui doivent être complets, défaut
 * « admin ») et `ui.page` sont prêts dans les `before` du test et dans les étapes. Le navigateur
 * se ferme après les `after` du test (qui peuvent encore se servir de la page).
 * `timeout` : la durée de toute la suite.
 */
export function describeOnServer(title, { timeout, accounts = ['admin'], ...options }, body) {
  const missing = ['LIFTDESK_URL', 'LIFTDESK_CREDENTIALS'].filter((name) => !process.env[name]);
  if (missing.length > 0) {
    test('configuration du test de bout en bout', () => {
      assert.fail(
        `Variable(s) d'environnement manquante(s) : ${missing.join(', ')}. Ce test pilote un vrai serveur ` +
          'et ne peut pas être sauté : lancez-le par scripts/with-demo-server.sh.',
      );
    });
    return;
  }
  describe(title, { timeout }, () => {
    const ui = new BrowserSession({ baseUrl: new URL('/', process.env.LIFTDESK_URL).href, ...options });
    before(async () => {
      ui.creds = readCredentials(accounts);
      await ui.open();
    });
    body(ui);
    after(ui.close);
  });
}

/**
 * Filet d'un test qui a créé sa propre agence : la session remise dans
 * l'agence `home` (gardée pour la prochaine connexion du compte : les autres
 * fichiers s'y attendent), puis l'agence `agencyId` archivée si elle ne l'est
 * pas. Sans erreur : un `after` ne doit pas masquer l'échec du test.
 */
export async function leaveTestAgency(page, { agencyId, home }) {
  if (!page || !agencyId) return;
  await page
    .evaluate(
      async ({ agencyId, home }) => {
        const session = await (await fetch('/app/api/session')).json();
        const headers = { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken };
        if (home) {
          await fetch('/app/api/session/agency', { method: 'PUT', headers, body: JSON.stringify({ agencyId: home }) });
        }
        const answer = await (await fetch('/app/api/agencies')).json();
        const agency = (answer.agencies ?? []).find((a) => a.id === agencyId);
        if (agency && agency.archivedAt === null) {
          await fetch(`/app/api/agencies/${encodeURIComponent(agencyId)}/archive`, { method: 'POST', headers });
        }
      },
      { agencyId, home },
    )
    .catch(() => {});
}
