// End-to-end checks of the desktop shell: tauri-driver starts the real
// binary under WebKitWebDriver; the tests drive the window like a user and
// check the database once the app has quit.
//
// Run through tests/desktop/run.sh (it builds the app, installs tauri-driver
// and starts Xvfb). Linux only: tauri-driver drives WebKitGTK there.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const TARGET_DIR = process.env.CARGO_TARGET_DIR ? resolve(REPO, process.env.CARGO_TARGET_DIR) : join(REPO, 'target');
const APP = process.env.LIFTDESK_DESKTOP_BIN ? resolve(process.env.LIFTDESK_DESKTOP_BIN) : join(TARGET_DIR, 'debug', 'liftdesk-desktop');
const ARTIFACTS = join(resolve(REPO, process.env.LIFTDESK_ARTIFACTS ?? 'test-artifacts'), 'desktop');
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
const TEST_TIMEOUT_MS = 180_000;
const SKIP = process.platform !== 'linux' && 'tauri-driver ne pilote WebKitGTK que sous Linux';

// -- helpers -----------------------------------------------------------------

function findTauriDriver() {
  if (process.env.TAURI_DRIVER) return process.env.TAURI_DRIVER;
  const dirs = [join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'bin'), ...(process.env.PATH ?? '').split(delimiter)];
  for (const dir of dirs) {
    const candidate = join(dir, 'tauri-driver');
    if (dir && existsSync(candidate)) return candidate;
  }
  throw new Error('tauri-driver introuvable : lancez tests/desktop/run.sh (il l’installe) ou `cargo install tauri-driver --locked`.');
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** Polls `probe` until it returns a truthy value; no fixed sleeps. */
async function waitFor(what, probe, { timeoutMs = 60_000, intervalMs = 200 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`délai dépassé (${timeoutMs} ms) en attendant : ${what}${lastError ? ` (dernière erreur : ${lastError.message})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Minimal W3C WebDriver client over fetch. */
function webdriver(base) {
  async function call(method, path, body) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${path} : réponse non JSON (${res.status}) : ${text.slice(0, 200)}`);
    }
    if (!res.ok || json?.value?.error) {
      throw new Error(`${method} ${path} : ${res.status} ${json?.value?.error} : ${json?.value?.message}`);
    }
    return json.value;
  }
  return {
    status: () => call('GET', '/status'),
    newSession: (capabilities) => call('POST', '/session', { capabilities }),
    session(id) {
      const s = `/session/${id}`;
      return {
        url: () => call('GET', `${s}/url`),
        title: () => call('GET', `${s}/title`),
        findAll: (xpath) => call('POST', `${s}/elements`, { using: 'xpath', value: xpath }),
        find: async (xpath) => (await call('POST', `${s}/element`, { using: 'xpath', value: xpath }))[ELEMENT],
        attribute: (el, name) => call('GET', `${s}/element/${el}/attribute/${name}`),
        text: (el) => call('GET', `${s}/element/${el}/text`),
        type: (el, text) => call('POST', `${s}/element/${el}/value`, { text }),
        clear: (el) => call('POST', `${s}/element/${el}/clear`, {}),
        click: (el) => call('POST', `${s}/element/${el}/click`, {}),
        execute: (script, args = []) => call('POST', `${s}/execute/sync`, { script, args }),
        executeAsync: (script, args = []) => call('POST', `${s}/execute/async`, { script, args }),
        screenshot: () => call('GET', `${s}/screenshot`),
        delete: () => call('DELETE', s),
      };
    },
  };
}

/** Pids of the desktop binaries started with this data directory (from /proc), zombies left out. */
function appPids(dataDir) {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')[0] !== APP) continue;
      if (!readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`LIFTDESK_DATA_DIR=${dataDir}`)) continue;
      if (isRunning(Number(entry))) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** Pid of the desktop binary started with this data directory. */
function appPid(dataDir) {
  return appPids(dataDir)[0];
}

/**
 * A call center reports a trapped person to the server at `base` with
 * `key`, on the first equipment of the demo in `dataDir` it accepts.
 */
async function reportTrappedPerson(base, key, dataDir, reference) {
  const numbers = execFileSync('sqlite3', [join(dataDir, 'liftdesk.db'), 'SELECT number FROM equipment WHERE number IS NOT NULL ORDER BY number LIMIT 50;'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  for (const number of numbers) {
    const res = await fetch(`${base}/api/partners/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reference, equipement: number, type: 'personne_bloquee', description: 'Personne bloquée entre deux étages.' }),
    });
    if (res.ok) return res.json();
  }
  assert.fail('aucun équipement de la démo accepté par le centre d’appels');
}

/** True when nothing listens on 127.0.0.1:port. */
function portIsFree(port) {
  return new Promise((resolveFree) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolveFree(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolveFree(true)));
  });
}

/** What the session bus carries to the notification service (the desktop's notifications). */
const busMonitor = (() => {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) return undefined;
  try {
    execFileSync('sh', ['-c', 'command -v dbus-monitor'], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  const monitor = { text: '' };
  const child = spawn('dbus-monitor', ['--session', "interface='org.freedesktop.Notifications'"], { stdio: ['ignore', 'pipe', 'ignore'] });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => (monitor.text += chunk));
  child.on('error', () => {});
  child.unref();
  child.stdout.unref?.();
  monitor.stop = () => child.kill('SIGTERM');
  return monitor;
})();

/** True while the process exists and is not a zombie. */
function isRunning(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function xpathLiteral(text) {
  return text.includes("'") ? `"${text}"` : `'${text}'`;
}

/** Loads an image from 127.0.0.2 (refused fast when no CSP blocks it): the violated directive, if any. */
function blockedImageDirective(s) {
  return s.executeAsync(`const done = arguments[arguments.length - 1];
    document.addEventListener('securitypolicyviolation', (e) => done(e.violatedDirective), { once: true });
    const img = new Image();
    img.onerror = () => setTimeout(() => done('aucune violation'), 100);
    img.src = 'http://127.0.0.2:9/sonde.png';`);
}

function sha256(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function walSize(db) {
  return existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size : 0;
}

// -- one app per test: tauri-driver → WebKitWebDriver → liftdesk-desktop ------

const launched = new Set();

function kill(app, signal) {
  // tauri-driver, WebKitWebDriver, the app and WebKit's helper processes all
  // stay in the process group of the detached tauri-driver.
  try {
    process.kill(-app.driver.pid, signal);
  } catch {
    // Already gone.
  }
  if (app.pid && isRunning(app.pid)) {
    try {
      process.kill(app.pid, signal);
    } catch {
      // Already gone.
    }
  }
}

// Last resort when the runner ends early: tauri-driver runs in its own
// process group, so `timeout` or Ctrl+C on the runner would not reach it.
process.on('exit', () => {
  for (const app of launched) {
    kill(app, 'SIGKILL');
    if (!process.env.LIFTDESK_KEEP_DATA && !app.keepData) rmSync(app.dataDir, { recursive: true, force: true });
  }
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => process.exit(130));
}

/**
 * Starts tauri-driver for a fresh data directory, then a session on the app.
 * The app gets the demo and a free port unless `env` says otherwise (a value
 * of `undefined` removes the variable).
 */
async function launch(name, prepare = () => {}, env = {}, { dataDir: reused } = {}) {
  assert.ok(existsSync(APP), `binaire introuvable : ${APP} (cargo build -p liftdesk-desktop)`);
  mkdirSync(ARTIFACTS, { recursive: true });
  // `dataDir`: a relaunch on the data directory of an app that has quit.
  const dataDir = reused ?? mkdtempSync(join(tmpdir(), 'liftdesk-desktop-'));
  try {
    prepare(dataDir);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  const port = await freePort();
  let nativePort = await freePort();
  while (nativePort === port) nativePort = await freePort();

  const logPath = join(ARTIFACTS, `${name}.log`);
  const log = createWriteStream(logPath);
  // tauri:options has no environment field, but WebKitWebDriver launches the
  // app with the environment it inherited from tauri-driver: set it here.
  const appEnv = {
    ...process.env,
    LIFTDESK_DATA_DIR: dataDir,
    LIFTDESK_LOG: process.env.LIFTDESK_LOG ?? 'info',
    LIFTDESK_DEMO: '1',
    LIFTDESK_PORT: String(await freePort()),
    NO_COLOR: '1',
    RUST_LIB_BACKTRACE: '0',
    ...env,
  };
  for (const [key, value] of Object.entries(appEnv)) if (value === undefined) delete appEnv[key];
  const driver = spawn(findTauriDriver(), ['--port', String(port), '--native-port', String(nativePort)], {
    env: appEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  driver.stdout.pipe(log);
  driver.stderr.pipe(log);
  const app = { name, dataDir, env: appEnv, logPath, log, driver, pid: undefined, sessionId: undefined, s: undefined, keepData: false };
  app.exited = new Promise((r) => driver.once('exit', r));
  app.logText = () => readFileSync(logPath, 'utf8');
  launched.add(app);

  const wd = webdriver(`http://127.0.0.1:${port}`);
  await waitFor('tauri-driver prêt', async () => (await wd.status())?.ready !== false, { timeoutMs: 30_000 });
  const session = await wd.newSession({ alwaysMatch: { browserName: 'wry', 'tauri:options': { application: APP } } });
  app.sessionId = session.sessionId;
  app.s = wd.session(app.sessionId);
  app.pid = await waitFor('processus de l’application', () => appPid(dataDir), { timeoutMs: 10_000 });
  return app;
}

/**
 * Quits after the single-page app has navigated: WebKit ignores a page's
 * `window.close()` once the history holds more than one entry, so the app
 * gets SIGTERM, which takes the same exit as closing the window (the event
 * loop ends, the server stops, the WAL is checkpointed).
 */
async function quitApp(app) {
  process.kill(app.pid, 'SIGTERM');
  await waitFor('fin du processus de l’application', () => !isRunning(app.pid), { timeoutMs: 15_000 });
  await app.s.delete().catch(() => {});
  app.sessionId = undefined;
}

/** The page closes its window (as `window.close()` in the UI would); the app must then exit by itself. */
async function closeFromPage(app) {
  // Neither "Delete Session" nor "Close Window" would do: once the last window
  // is closed WebKitWebDriver SIGKILLs the app, racing its clean exit.
  await app.s.execute('setTimeout(() => window.close(), 0);');
  await waitFor('fin du processus de l’application', () => !isRunning(app.pid), { timeoutMs: 15_000 });
  // The app is gone: WebKitWebDriver then ends the session without error.
  await app.s.delete();
  app.sessionId = undefined;
}

async function screenshot(app, file) {
  const png = Buffer.from(await app.s.screenshot(), 'base64');
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'capture non PNG');
  writeFileSync(join(ARTIFACTS, file), png);
}

async function dispose(app) {
  if (app.sessionId) {
    // The test failed with the app still up: keep what the window showed.
    await screenshot(app, `${app.name}-echec.png`).catch(() => {});
    await app.s.delete().catch(() => {});
  }
  kill(app, 'SIGTERM');
  await Promise.race([app.exited, new Promise((r) => setTimeout(r, 5_000))]);
  kill(app, 'SIGKILL');
  app.log.end();
  if (!process.env.LIFTDESK_KEEP_DATA && !app.keepData) rmSync(app.dataDir, { recursive: true, force: true });
  launched.delete(app);
}

after(async () => {
  for (const app of launched) await dispose(app);
  if (busMonitor) {
    // What reached the notification service, for a look after the run.
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'notifications-dbus.txt'), busMonitor.text);
    busMonitor.stop();
  }
});

const LOGIN_SUBMIT = `//button[normalize-space()=${xpathLiteral('Se connecter')}]`;

async function waitForLoginForm(s) {
  await waitFor('formulaire de connexion', async () => (await s.findAll(LOGIN_SUBMIT)).length > 0);
}

/** Waits until the app's log (its stderr, through tauri-driver) contains `text`. */
function waitForLog(app, text, timeoutMs = 10_000) {
  return waitFor(`« ${text} » dans le journal`, () => app.logText().includes(text), { timeoutMs });
}

/** The app quit by itself, cleanly: WAL emptied, clean stop logged. */
async function assertCleanStop(app) {
  const db = join(app.dataDir, 'liftdesk.db');
  assert.equal(walSize(db), 0, 'le journal WAL n’a pas été vidé dans la base');
  await waitForLog(app, "Liftdesk s'est arrêté proprement", 5_000);
}

// -- tests -------------------------------------------------------------------

test('la fenêtre affiche l’interface, la connexion fonctionne et la base est propre à la sortie', { timeout: TEST_TIMEOUT_MS, skip: SKIP }, async (t) => {
  const app = await launch('connexion');
  t.after(() => dispose(app));
  const { s } = app;

  // The login form, as a user sees it.
  const emailLabel = `//label[normalize-space()=${xpathLiteral('Adresse e-mail')}]`;
  const submit = `//button[normalize-space()=${xpathLiteral('Se connecter')}]`;
  await waitFor('formulaire de connexion', async () => (await s.findAll(emailLabel)).length > 0 && (await s.findAll(submit)).length > 0);

  const url = await s.url();
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/, `URL inattendue : ${url}`);
  assert.match(app.logText(), new RegExp(`serveur embarqué url=${url.slice(0, -1).replace(/[.]/g, '\\.')}`), 'le port affiché n’est pas celui du serveur embarqué');
  // Each screen names itself in the title (« Connexion — Liftdesk » at sign-in).
  await waitFor('titre de l’écran de connexion', async () => (await s.title()) === 'Connexion — Liftdesk');
  // Tauri's CSP only covers bundled pages: this one relies on the server's own.
  assert.match(await blockedImageDirective(s), /^img-src/, 'la page servie n’a pas de CSP');

  // No capability grants the served page any Tauri command (it talks HTTP).
  const ipc = await s.executeAsync(`const done = arguments[arguments.length - 1];
    const internals = window.__TAURI_INTERNALS__;
    if (!internals) return done('absent');
    internals.invoke('plugin:app|version').then(() => done('autorisé'), (e) => done('refusé : ' + e));`);
  assert.ok(ipc === 'absent' || ipc.startsWith('refusé'), `commande Tauri accessible depuis la page : ${ipc}`);

  const credsPath = join(app.dataDir, 'demo-credentials.json');
  assert.ok(existsSync(credsPath), 'demo-credentials.json absent du dossier de données');
  const creds = JSON.parse(readFileSync(credsPath, 'utf8'));
  assert.ok(creds.admin?.email && creds.admin?.password, 'identifiants admin absents');

  async function fieldFor(label) {
    const id = await s.attribute(await s.find(`//label[normalize-space()=${xpathLiteral(label)}]`), 'for');
    return s.find(`//*[@id=${xpathLiteral(id)}]`);
  }
  await s.type(await fieldFor('Adresse e-mail'), creds.admin.email);
  await s.type(await fieldFor('Mot de passe'), creds.admin.password);
  await s.click(await s.find(submit));

  const welcome = `//h1[normalize-space()=${xpathLiteral('Bienvenue, Claire Durand')}]`;
  await waitFor('page d’accueil « Bienvenue, Claire Durand »', async () => (await s.findAll(welcome)).length > 0);
  await screenshot(app, 'accueil.png');

  // The tray's « Nouvel appel » runs this script in the window: calls screen, form open.
  await s.execute(readFileSync(join(REPO, 'src-tauri/src/new_call.js'), 'utf8'));
  const newCallDialog = `//dialog[@open]//*[normalize-space()=${xpathLiteral('Nouvel appel')}]`;
  await waitFor('formulaire « Nouvel appel » ouvert', async () => (await s.findAll(newCallDialog)).length > 0);
  assert.match(await s.url(), /\/appels$/);
  await screenshot(app, 'nouvel-appel.png');

  await closeFromPage(app);

  const db = join(app.dataDir, 'liftdesk.db');
  assert.ok(existsSync(db) && statSync(db).size > 0, 'liftdesk.db absent ou vide');
  assert.equal(walSize(db), 0, 'le journal WAL n’a pas été vidé dans la base');
  // The app's stderr reaches the log through tauri-driver's pipe: it may lag.
  await waitFor('« Liftdesk s’est arrêté proprement » dans le journal', () => {
    const log = app.logText();
    return log.includes('serveur arrêté proprement') && log.includes("Liftdesk s'est arrêté proprement");
  }, { timeoutMs: 5_000 });
});

test('une base créée par une version plus récente est refusée avec un message en français', { timeout: TEST_TIMEOUT_MS, skip: SKIP }, async (t) => {
  const db = (dir) => join(dir, 'liftdesk.db');
  let before;
  // A database whose schema history is ahead of every migration this build knows.
  const app = await launch('base-plus-recente', (dir) => {
    execFileSync('sqlite3', [db(dir), `CREATE TABLE refinery_schema_history(version int4 PRIMARY KEY, name VARCHAR(255), applied_on VARCHAR(255), checksum VARCHAR(255));
       INSERT INTO refinery_schema_history VALUES (9999, 'futur', '2030-01-01T00:00:00Z', '0');`]);
    before = sha256(db(dir));
  });
  t.after(() => dispose(app));
  const { s } = app;

  const heading = `//h2[normalize-space()=${xpathLiteral("Liftdesk n'a pas pu démarrer")}]`;
  await waitFor('fenêtre d’erreur', async () => (await s.findAll(heading)).length > 0);
  const message = await s.text(await s.find('//*[@id="erreur-message"]'));
  assert.match(message, /créée par une version plus récente de Liftdesk/);
  assert.match(message, /schéma 9999/);
  // This page is bundled, so tauri.conf.json's CSP applies (as a header).
  assert.match(await blockedImageDirective(s), /^img-src/, 'CSP non appliquée à la page embarquée');
  await screenshot(app, 'base-plus-recente.png');

  await closeFromPage(app);

  assert.equal(sha256(db(app.dataDir)), before, 'la base refusée a été modifiée');
  assert.equal(walSize(db(app.dataDir)), 0);
  assert.ok(!existsSync(join(app.dataDir, 'demo-credentials.json')), 'la démonstration a été installée malgré le refus');
  await waitFor('« s’est arrêté avec une erreur » dans le journal', () => {
    const log = app.logText();
    return log.includes('échec du démarrage') && log.includes("Liftdesk s'est arrêté avec une erreur");
  }, { timeoutMs: 5_000 });
});

test('port 8080 par défaut, un deuxième lancement ne démarre pas de second serveur, la zone de notification tient sous Xvfb', { timeout: TEST_TIMEOUT_MS, skip: SKIP || (!process.env.DBUS_SESSION_BUS_ADDRESS && 'pas de bus de session D-Bus (lancez tests/desktop/run.sh)') }, async (t) => {
  const defaultFree = await portIsFree(8080);
  const app = await launch('instance-unique', () => {}, { LIFTDESK_PORT: undefined });
  t.after(() => dispose(app));
  const { s } = app;
  await waitForLoginForm(s);

  const url = await s.url();
  if (defaultFree) {
    assert.equal(url, 'http://127.0.0.1:8080/', 'le port par défaut n’est pas 8080');
  } else {
    t.diagnostic('8080 déjà pris sur ce poste : seul le repli est vérifié ici');
    assert.match(app.logText(), /Le port 8080 est déjà utilisé/);
  }
  // The tray is built with the window and refreshed at once: the app is still up, and said nothing about it.
  await waitForLog(app, 'serveur embarqué');
  assert.ok(isRunning(app.pid), 'l’application s’est arrêtée après la zone de notification');
  assert.doesNotMatch(app.logText(), /panicked|zone de notification indisponible/);

  // A second launch on the same data directory, as a double click would.
  const second = spawn(APP, [], { env: app.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let secondOut = '';
  second.stdout.on('data', (chunk) => (secondOut += chunk));
  second.stderr.on('data', (chunk) => (secondOut += chunk));
  const code = await Promise.race([
    new Promise((r) => second.once('exit', (c) => r(c))),
    new Promise((r) => setTimeout(() => r('délai'), 20_000)),
  ]);
  if (code === 'délai') second.kill('SIGKILL');
  writeFileSync(join(ARTIFACTS, 'instance-unique-second.log'), secondOut);
  assert.equal(code, 0, `le deuxième lancement ne s’est pas arrêté proprement : ${secondOut}`);
  assert.doesNotMatch(secondOut, /serveur embarqué|dossier de données/, 'le deuxième lancement a démarré un serveur');
  await waitForLog(app, 'Liftdesk est déjà ouvert : fenêtre existante mise au premier plan');
  assert.deepEqual(appPids(app.dataDir), [app.pid], 'un seul processus Liftdesk attendu');
  assert.equal(await s.url(), url, 'la fenêtre existante a changé d’adresse');
  await screenshot(app, 'instance-unique.png');

  await closeFromPage(app);
  await assertCleanStop(app);
});

test('port occupé : repli sur un port libre, message en français ; un appel « personne bloquée » du centre d’appels est notifié', { timeout: TEST_TIMEOUT_MS, skip: SKIP }, async (t) => {
  const holder = createServer();
  await new Promise((r) => holder.listen(0, '127.0.0.1', r));
  t.after(() => holder.close());
  const busy = holder.address().port;

  const app = await launch('port-occupe', () => {}, { LIFTDESK_PORT: String(busy) });
  t.after(() => dispose(app));
  const { s } = app;
  await waitForLoginForm(s);

  const url = await s.url();
  const port = Number(new URL(url).port);
  assert.notEqual(port, busy, 'le port occupé a été utilisé');
  const base = `http://127.0.0.1:${port}`;
  // The core's fallback (server::bind_with_fallback) and its message.
  await waitForLog(app, `Le port ${busy} est déjà utilisé par un autre programme : Liftdesk écoute cette fois sur le port ${port}.`);
  assert.match(app.logText(), new RegExp(`Les intégrations configurées avec le port ${busy} ne le joindront pas`));
  if (busMonitor) {
    await waitFor('notification « port changé » sur le bus', () => busMonitor.text.includes('Liftdesk : port changé'), { timeoutMs: 5_000 });
  }

  // A call center reports a trapped person (demo key and equipment).
  const creds = JSON.parse(readFileSync(join(app.dataDir, 'demo-credentials.json'), 'utf8'));
  const key = creds.callCenterKeys?.[0];
  assert.ok(key, `clé de centre d’appels absente : ${Object.keys(creds)}`);
  const reference = `TEST-${Date.now()}`;
  await reportTrappedPerson(base, key, app.dataDir, reference);
  // The core's CallReceived notice, urgent, naming the equipment.
  // The shell's own line (the core logs the notice first): shown, urgent.
  const shown = new RegExp(`WARN liftdesk_desktop::notices: notification titre=Urgence : personne bloquée dans un ascenseur texte=Appel ${reference} reçu du centre d'appels : `);
  await waitFor('notification urgente dans le journal', () => shown.test(app.logText()), { timeoutMs: 10_000 });
  if (busMonitor) {
    await waitFor('notification urgente sur le bus', () => busMonitor.text.includes(`Appel ${reference} reçu du centre d'appels`), { timeoutMs: 5_000 });
  }
  await screenshot(app, 'port-occupe.png');

  await closeFromPage(app);
  await assertCleanStop(app);
});

test('sans bus D-Bus, le verrou du dossier de données refuse un second serveur', { timeout: TEST_TIMEOUT_MS, skip: SKIP }, async (t) => {
  // No session bus: the single-instance plugin cannot see the first app.
  const app = await launch('sans-dbus', () => {}, { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/liftdesk-bus' });
  t.after(() => dispose(app));
  await waitForLoginForm(app.s);
  const url = await app.s.url();

  const second = spawn(APP, [], { env: app.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  t.after(() => {
    try {
      process.kill(-second.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  });
  let secondOut = '';
  second.stdout.on('data', (chunk) => (secondOut += chunk));
  second.stderr.on('data', (chunk) => (secondOut += chunk));
  const exited = new Promise((r) => second.once('exit', (c) => r(c)));
  await waitFor('refus du deuxième lancement', () => secondOut.includes('est utilisé par un Liftdesk en cours d\'exécution (serveur ou application)'), { timeoutMs: 20_000 });
  // Its error window is up; the user closes it (SIGTERM takes the same exit).
  process.kill(second.pid, 'SIGTERM');
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('délai'), 10_000))]);
  writeFileSync(join(ARTIFACTS, 'sans-dbus-second.log'), secondOut);
  assert.equal(code, 1, `code de sortie du deuxième lancement : ${code}`);
  assert.doesNotMatch(secondOut, /serveur embarqué/, 'le deuxième lancement a démarré un serveur');
  assert.equal(await app.s.url(), url);
  assert.ok(isRunning(app.pid), 'la première application s’est arrêtée');

  await closeFromPage(app);
  await assertCleanStop(app);
});

// -- issue 11: a real installation, from the empty folder to the relaunch ----

/** The field a label names (`for`), as a user finds it. */
async function fieldFor(s, label) {
  const id = await s.attribute(await s.find(`//label[normalize-space()=${xpathLiteral(label)}]`), 'for');
  return s.find(`//*[@id=${xpathLiteral(id)}]`);
}

async function clickButton(s, name, scope = '') {
  await s.click(await s.find(`${scope}//button[normalize-space()=${xpathLiteral(name)}]`));
}

async function waitForText(s, what, text, timeoutMs = 30_000) {
  await waitFor(what, async () => (await s.findAll(`//*[contains(normalize-space(), ${xpathLiteral(text)})]`)).length > 0, { timeoutMs });
}

/** Through the main menu (the single-page app: no reload). */
async function openScreen(s, menu, heading) {
  await s.click(await s.find(`//nav[@aria-label='Menu principal']//a[normalize-space()=${xpathLiteral(menu)}]`));
  await waitFor(`écran « ${heading} »`, async () => (await s.findAll(`//h1[normalize-space()=${xpathLiteral(heading)}]`)).length > 0);
}

async function signIn(s, email, password) {
  await waitForLoginForm(s);
  await s.type(await fieldFor(s, 'Adresse e-mail'), email);
  await s.type(await fieldFor(s, 'Mot de passe'), password);
  await clickButton(s, 'Se connecter');
  await waitFor('connecté (« Se déconnecter »)', async () => (await s.findAll(`//button[normalize-space()='Se déconnecter']`)).length > 0);
}

/** The shown-once secret of the open dialog, then the dialog closed. */
async function readSecret(s) {
  const read = () => s.execute('const input = document.querySelector("dialog[open] input[data-secret]"); return input ? input.value : null;');
  const secret = await waitFor('secret affiché une fois', read, { timeoutMs: 15_000 });
  await clickButton(s, "J'ai copié, fermer", '//dialog[@open]');
  await waitFor('fenêtre du secret fermée', async () => !(await read()));
  return secret;
}

async function onBoard(s, reference) {
  return (await s.findAll(`//*[contains(@class, 'reference') and normalize-space()=${xpathLiteral(reference)}]`)).length > 0;
}

async function postCall(base, key, reference, equipment) {
  const res = await fetch(`${base}/api/partners/calls`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reference, equipement: equipment, type: 'panne', description: 'Ascenseur bloqué au 3e étage, portes fermées.' }),
  });
  const text = await res.text();
  assert.equal(res.status, 201, `appel du centre d’appels refusé : ${text}`);
  return JSON.parse(text);
}

test('première installation sur un dossier vide, clés, import, appel, sauvegarde, relance (et restauration)', { timeout: 2 * TEST_TIMEOUT_MS, skip: SKIP }, async (t) => {
  const backupDir = mkdtempSync(join(tmpdir(), 'liftdesk-sauvegardes-'));
  t.after(() => rmSync(backupDir, { recursive: true, force: true }));
  const admin = { name: 'Paul Martin', email: 'paul@ascenseurs-martin.fr', password: 'motdepasse-solide-2026' };

  // An empty app-data directory, no demo.
  const first = await launch('installation', () => {}, { LIFTDESK_DEMO: undefined });
  first.keepData = true;
  t.after(() => rmSync(first.dataDir, { recursive: true, force: true }));
  t.after(() => dispose(first));
  let s = first.s;

  await waitFor('écran « Installation de Liftdesk »', async () => (await s.findAll(`//h1[normalize-space()='Installation de Liftdesk']`)).length > 0);
  assert.equal((await s.findAll(LOGIN_SUBMIT)).length, 0, 'la connexion est proposée avant l’installation');
  assert.ok(!existsSync(join(first.dataDir, 'demo-credentials.json')), 'une démonstration a été installée sans LIFTDESK_DEMO');
  await screenshot(first, 'installation-01-ecran.png');

  await s.type(await fieldFor(s, "Nom de l'organisation (la société)"), 'Ascenseurs Martin');
  await s.type(await fieldFor(s, 'Première agence'), 'Agence de Lyon');
  await s.type(await fieldFor(s, "Nom de l'administrateur"), admin.name);
  await s.type(await fieldFor(s, 'Adresse e-mail'), admin.email);
  await s.type(await fieldFor(s, 'Mot de passe (8 caractères au moins)'), admin.password);
  await s.type(await fieldFor(s, 'Confirmez le mot de passe'), admin.password);
  await clickButton(s, 'Installer');
  await waitFor('administrateur connecté', async () => (await s.findAll(`//button[normalize-space()='Se déconnecter']`)).length > 0);
  await screenshot(first, 'installation-02-connecte.png');

  // Signed out, then in again with the password.
  await clickButton(s, 'Se déconnecter');
  await signIn(s, admin.email, admin.password);
  const base = new URL(await s.url()).origin;

  // « Clés et jetons »: an API token and a call-center key, each shown once.
  await openScreen(s, 'Clés et jetons', 'Clés et jetons');
  await s.type(await fieldFor(s, "Nom de l'outil qui recevra le jeton"), 'Import du parc');
  await clickButton(s, 'Créer le jeton');
  const token = await readSecret(s);
  assert.match(token, /^svc_/);
  await s.type(await fieldFor(s, "Nom du centre d'appels"), 'Centre Nuit Lyon');
  await clickButton(s, 'Créer la clé');
  const key = await readSecret(s);
  assert.ok(key && key !== token, 'clé de centre d’appels absente');
  await screenshot(first, 'installation-03-cles.png');

  // One equipment through the REST imports API with the token.
  const api = async (path, body) => {
    const res = await fetch(`${base}/api/v2${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    return { status: res.status, json };
  };
  const equipment = 'ASC-DESK-1';
  const csv = `N° appareil;Adresse\n${equipment};12 rue des Lilas, 69003 Lyon\n`;
  const uploaded = await api('/imports/files', { name: 'parc.csv', content: Buffer.from(csv, 'utf8').toString('base64') });
  assert.equal(uploaded.status, 201, JSON.stringify(uploaded.json));
  const body = { target: 'equipment', mapping: { 'N° appareil': 'number', Adresse: 'adresse' } };
  const checked = await api(`/imports/${uploaded.json.fileId}/check`, body);
  assert.equal(checked.status, 200, JSON.stringify(checked.json));
  assert.equal(checked.json.created, 1, JSON.stringify(checked.json));
  const imported = await api(`/imports/${uploaded.json.fileId}/import`, body);
  assert.equal(imported.status, 200, JSON.stringify(imported.json));
  assert.equal(imported.json.created, 1, JSON.stringify(imported.json));

  // A breakdown call from the call center, seen on the board without reload.
  await openScreen(s, 'Appels de panne', 'Appels de panne');
  await s.execute('window.__pasRecharge = true;');
  const reference = `CC-${Date.now()}`;
  await postCall(base, key, reference, equipment);
  await waitFor(`appel ${reference} sur le tableau`, () => onBoard(s, reference), { timeoutMs: 30_000 });
  assert.equal(await s.execute('return window.__pasRecharge === true;'), true, 'la page a été rechargée');
  await screenshot(first, 'installation-04-appel.png');

  // « Paramètres »: a backup folder, « Sauvegarder maintenant », the file in it.
  await openScreen(s, 'Paramètres', 'Paramètres');
  await s.type(await fieldFor(s, 'Dossier de sauvegarde'), backupDir);
  await clickButton(s, 'Enregistrer');
  await waitForText(s, 'réglages enregistrés', 'Paramètres enregistrés.');
  await clickButton(s, 'Sauvegarder maintenant');
  const backupName = await waitFor('fichier de sauvegarde dans le dossier', () => readdirSync(backupDir).find((f) => /^liftdesk-\d{8}-\d{6}\.sqlite3$/.test(f)), { timeoutMs: 20_000 });
  await waitForText(s, 'sauvegarde listée', backupName);
  await screenshot(first, 'installation-05-sauvegarde.png');

  // Quit: clean exit, WAL checkpointed.
  await quitApp(first);
  await assertCleanStop(first);
  const logs = readdirSync(join(first.dataDir, 'journaux'));
  assert.ok(logs.some((f) => /^liftdesk\..*log$/.test(f)), `pas de journal dans journaux/ : ${logs}`);
  await dispose(first);

  // Relaunch on the same app-data directory.
  const second = await launch('installation-relance', () => {}, { LIFTDESK_DEMO: undefined }, { dataDir: first.dataDir });
  second.keepData = true;
  t.after(() => dispose(second));
  s = second.s;
  await signIn(s, admin.email, admin.password);
  const base2 = new URL(await s.url()).origin;
  await openScreen(s, 'Appels de panne', 'Appels de panne');
  await waitFor(`appel ${reference} toujours sur le tableau`, () => onBoard(s, reference));
  await screenshot(second, 'relance-01-appel.png');
  await openScreen(s, 'Paramètres', 'Paramètres');
  await waitForText(s, 'sauvegarde toujours listée', backupName);
  await screenshot(second, 'relance-02-sauvegarde.png');

  // Restore: a call taken after the backup disappears once restored.
  const later = `CC-APRES-${Date.now()}`;
  await postCall(base2, key, later, equipment);
  await clickButton(s, 'Restaurer…');
  await waitForText(s, 'confirmation de la restauration', 'Liftdesk va redémarrer sur la sauvegarde');
  await clickButton(s, 'Restaurer', '//dialog[@open]');
  await waitForLog(second, 'sauvegarde restaurée', 30_000);
  await waitForLog(second, 'fenêtre rechargée', 30_000);
  assert.equal(new URL(await s.url()).origin, base2, 'la restauration a changé de port');
  assert.ok(readdirSync(second.dataDir).some((f) => f.startsWith('avant-restauration-')), 'la base d’avant n’a pas été mise de côté');
  // The session may predate the backup or not: sign in when asked.
  await waitFor('page rechargée', async () => (await s.findAll(LOGIN_SUBMIT)).length > 0 || (await s.findAll(`//button[normalize-space()='Se déconnecter']`)).length > 0);
  if ((await s.findAll(LOGIN_SUBMIT)).length > 0) await signIn(s, admin.email, admin.password);
  await openScreen(s, 'Appels de panne', 'Appels de panne');
  await waitFor(`appel ${reference} restauré`, () => onBoard(s, reference));
  assert.equal(await onBoard(s, later), false, `l’appel ${later}, postérieur à la sauvegarde, est encore là`);
  await screenshot(second, 'restauration-01-appels.png');

  await quitApp(second);
  await assertCleanStop(second);
});

test('un nouveau port enregistré dans les paramètres : « Redémarrer maintenant » et la fenêtre suit', { timeout: TEST_TIMEOUT_MS, skip: SKIP }, async (t) => {
  const before = await freePort();
  let after = await freePort();
  while (after === before) after = await freePort();
  // The port comes from settings.json when LIFTDESK_PORT is not set.
  const app = await launch('redemarrage', (dir) => writeFileSync(join(dir, 'settings.json'), JSON.stringify({ port: before })), { LIFTDESK_PORT: undefined });
  t.after(() => dispose(app));
  const { s } = app;
  await waitForLoginForm(s);
  assert.equal(new URL(await s.url()).port, String(before), 'le port de settings.json n’est pas utilisé');
  const creds = JSON.parse(readFileSync(join(app.dataDir, 'demo-credentials.json'), 'utf8'));
  await signIn(s, creds.admin.email, creds.admin.password);

  await openScreen(s, 'Paramètres', 'Paramètres');
  const port = await fieldFor(s, 'Port');
  await s.clear(port);
  await s.type(port, String(after));
  await clickButton(s, 'Enregistrer');
  await waitForText(s, 'réglages enregistrés', 'Paramètres enregistrés.');
  await clickButton(s, 'Redémarrer maintenant');
  await waitFor('fenêtre sur le nouveau port', async () => new URL(await s.url()).port === String(after), { timeoutMs: 20_000 });
  assert.equal(new URL(await s.url()).pathname, '/parametres');
  assert.ok(await portIsFree(before), 'l’ancien port est encore écouté');
  await waitFor('écran « Paramètres » rechargé', async () => (await s.findAll(`//h1[normalize-space()='Paramètres']`)).length > 0);
  await waitFor('plus de redémarrage demandé', async () => (await s.findAll(`//button[normalize-space()='Redémarrer maintenant']`)).length === 0);
  await screenshot(app, 'redemarrage-nouveau-port.png');

  await quitApp(app);
  await assertCleanStop(app);
});

// -- issue 24: the desktop as a client of the agency's server ----------------

const CLI = process.env.LIFTDESK_BIN ? resolve(process.env.LIFTDESK_BIN) : join(TARGET_DIR, 'debug', 'liftdesk');

/** A real `liftdesk serve` on the demo, on 127.0.0.1:port, in its own data directory. */
async function agencyServer(dir, port, logName) {
  const log = createWriteStream(join(ARTIFACTS, logName), { flags: 'a' });
  const child = spawn(CLI, ['--data-dir', dir, 'serve', '--bind', `127.0.0.1:${port}`], {
    env: { ...process.env, LIFTDESK_LOG: 'info', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise((r) => child.once('exit', r));
  await waitFor('serveur de l’agence prêt', async () => (await fetch(`http://127.0.0.1:${port}/app/api/setup`)).ok, { timeoutMs: 30_000 });
  return {
    async stop() {
      child.kill('SIGTERM');
      await exited;
      log.end();
    },
  };
}

test('connecté au serveur de l’agence : ses écrans, ses notifications, la page « injoignable » qui réessaie, retour à cet ordinateur en un clic', { timeout: 2 * TEST_TIMEOUT_MS, skip: SKIP }, async (t) => {
  assert.ok(existsSync(CLI), `binaire introuvable : ${CLI} (cargo build -p liftdesk)`);
  mkdirSync(ARTIFACTS, { recursive: true });
  const serverDir = mkdtempSync(join(tmpdir(), 'liftdesk-agence-'));
  t.after(() => rmSync(serverDir, { recursive: true, force: true }));
  const serverCreds = JSON.parse(execFileSync(CLI, ['--data-dir', serverDir, 'demo'], { encoding: 'utf8' }));
  const serverPort = await freePort();
  const serverBase = `http://127.0.0.1:${serverPort}`;
  let server = await agencyServer(serverDir, serverPort, 'serveur-agence-serveur.log');
  t.after(() => server?.stop());

  const app = await launch('serveur-agence');
  app.keepData = true;
  t.after(() => rmSync(app.dataDir, { recursive: true, force: true }));
  t.after(() => dispose(app));
  let { s } = app;
  await waitForLoginForm(s);
  const localBase = new URL(await s.url()).origin;
  const creds = JSON.parse(readFileSync(join(app.dataDir, 'demo-credentials.json'), 'utf8'));
  await signIn(s, creds.admin.email, creds.admin.password);

  // « Serveur de l'agence » in this computer's settings.
  await openScreen(s, 'Paramètres', 'Paramètres');
  await s.click(await s.find(`//label[normalize-space()=${xpathLiteral("Serveur de l'agence")}]/input`));
  const address = await fieldFor(s, "Adresse du serveur de l'agence");
  await s.type(address, 'http://192.168.1.20:8080');
  await clickButton(s, 'Se connecter au serveur de l’agence');
  await waitForText(s, 'refus en français', 'Le serveur de l\'agence se joint en HTTPS');
  await s.clear(address);
  await s.type(address, serverBase);
  await clickButton(s, 'Se connecter au serveur de l’agence');
  await waitFor('fenêtre sur le serveur de l’agence', async () => new URL(await s.url()).origin === serverBase, { timeoutMs: 30_000 });
  await waitForLog(app, 'serveur de l\'agence joint');
  assert.equal(JSON.parse(readFileSync(join(app.dataDir, 'settings.json'), 'utf8')).agencyServer, serverBase);
  assert.ok(await portIsFree(Number(new URL(localBase).port)), 'le serveur de cet ordinateur écoute encore');

  // Its own sign-in, its own data.
  await waitForLoginForm(s);
  await signIn(s, serverCreds.admin.email, serverCreds.admin.password);
  await screenshot(app, 'serveur-agence.png');
  // The server's pages reach none of the shell's commands (the bundled page's only).
  const remoteIpc = await s.executeAsync(`const done = arguments[arguments.length - 1];
    const internals = window.__TAURI_INTERNALS__;
    if (!internals) return done('absent');
    internals.invoke('revenir_a_cet_ordinateur').then(() => done('autorisé'), (e) => done('refusé : ' + e));`);
  assert.ok(remoteIpc === 'absent' || remoteIpc.startsWith('refusé'), `commande du bureau accessible depuis le serveur de l’agence : ${remoteIpc}`);

  // A trapped person reported to the agency's server: the desktop notifies it.
  const reference = `AGENCE-${Date.now()}`;
  // The watcher has read its starting cursor once signed in.
  await new Promise((r) => setTimeout(r, 4_000));
  await reportTrappedPerson(serverBase, serverCreds.callCenterKeys[0], serverDir, reference);
  const shown = new RegExp(`WARN liftdesk_desktop::notices: notification titre=Urgence : personne bloquée dans un ascenseur texte=Appel ${reference} reçu du centre d'appels : `);
  await waitFor('notification du serveur de l’agence dans le journal', () => shown.test(app.logText()), { timeoutMs: 15_000 });

  // Relaunched, the app goes straight to the agency's server (no embedded server).
  await quitApp(app);
  await assertCleanStop(app);
  const again = await launch('serveur-agence-relance', () => {}, {}, { dataDir: app.dataDir });
  again.keepData = true;
  t.after(() => dispose(again));
  s = again.s;
  await waitFor('fenêtre sur le serveur de l’agence au lancement', async () => new URL(await s.url()).origin === serverBase, { timeoutMs: 30_000 });
  await waitForLog(again, `serveur de l'agence serveur=${serverBase}`);
  assert.ok(!again.logText().includes('serveur embarqué'), 'un serveur embarqué a démarré');
  if ((await s.findAll(`//nav[@aria-label='Menu principal']`)).length === 0) {
    await signIn(s, serverCreds.admin.email, serverCreds.admin.password);
  }

  // The server stops: the window says so in French and keeps trying.
  const pageBefore = new URL(await s.url()).pathname;
  await server.stop();
  server = undefined;
  await waitFor('page « injoignable »', async () => (await s.title()) === 'Serveur injoignable — Liftdesk', { timeoutMs: 20_000 });
  await waitForText(s, 'message en français', "Le serveur de l'agence est injoignable");
  await waitForText(s, 'adresse du serveur', `Liftdesk n'arrive pas à joindre ${serverBase}.`);
  await waitForText(s, 'raison', 'Détail : connexion impossible.');
  await screenshot(again, 'serveur-agence-injoignable.png');
  await clickButton(s, 'Réessayer maintenant');
  await waitForText(s, 'nouvel essai', 'Nouvel essai en cours…');

  // Back up: the window returns to the page it was on, still signed in.
  server = await agencyServer(serverDir, serverPort, 'serveur-agence-serveur.log');
  await waitFor('retour sur le serveur de l’agence', async () => new URL(await s.url()).origin === serverBase, { timeoutMs: 20_000 });
  assert.equal(new URL(await s.url()).pathname, pageBefore);
  await waitFor('toujours connecté', async () => (await s.findAll(`//nav[@aria-label='Menu principal']`)).length > 0);

  // Down again: « Revenir à cet ordinateur », one click.
  await server.stop();
  server = undefined;
  await waitFor('page « injoignable »', async () => (await s.title()) === 'Serveur injoignable — Liftdesk', { timeoutMs: 20_000 });
  await clickButton(s, 'Revenir à cet ordinateur');
  // This launch's own port (LIFTDESK_PORT), now served by the embedded server.
  const againBase = `http://127.0.0.1:${again.env.LIFTDESK_PORT}`;
  await waitFor('fenêtre sur cet ordinateur', async () => new URL(await s.url()).origin === againBase, { timeoutMs: 30_000 });
  await waitForLog(again, 'retour à Liftdesk sur cet ordinateur');
  assert.equal(JSON.parse(readFileSync(join(app.dataDir, 'settings.json'), 'utf8')).agencyServer, undefined);
  await waitFor('écran de cet ordinateur', async () => (await s.findAll(`//nav[@aria-label='Menu principal']`)).length > 0 || (await s.findAll(LOGIN_SUBMIT)).length > 0);
  await screenshot(again, 'serveur-agence-retour.png');

  await quitApp(again);
  await assertCleanStop(again);
});
