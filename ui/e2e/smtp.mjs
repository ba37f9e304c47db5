// Le récepteur SMTP local des tests de bout en bout qui envoient des e-mails (mail.test.mjs,
// first-day.test.mjs) : il possède le lancement de tests/smtp/sink.py (aiosmtpd, dans le Python de
// LIFTDESK_PY_VENV) sur un port libre, la lecture des messages qu'il a reçus (`<n>.json`, dans
// l'ordre d'arrivée, et le `.eml` brut de chacun), l'attente d'un message attendu et l'arrêt du
// récepteur avec son dossier.
//
// Ce fichier n'est pas un test : `npm run e2e` (`node --test e2e/`) ne lance que les *.test.mjs.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PYTHON, TIMEOUT, UI_DIR } from './harness.mjs';

const SINK = path.resolve(UI_DIR, '..', 'tests/smtp/sink.py');

/**
 * Le récepteur SMTP local, lancé avec les options `extra` de sink.py (`--user U --password P`,
 * `--fail-first N`…) : son port, le dossier où il écrit chaque message reçu (`<n>.json`, `<n>.eml`).
 */
export async function startSink(extra = []) {
  const out = mkdtempSync(path.join(os.tmpdir(), 'liftdesk-e2e-smtp-'));
  const child = spawn(PYTHON, [SINK, '--out', out, ...extra], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const port = await new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`Le récepteur SMTP n'a pas donné son port : ${stderr}`)), TIMEOUT);
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      const match = /PORT (\d+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Le récepteur SMTP s'est arrêté (code ${code}) : ${stderr}`));
    });
  });
  const files = () =>
    readdirSync(out)
      .filter((name) => /^\d+\.json$/.test(name))
      .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
  return {
    port,
    out,
    /** Les messages reçus, dans l'ordre d'arrivée ; `file` : le nom de leur `.json`. */
    messages() {
      return files().map((name) => ({ ...JSON.parse(readFileSync(path.join(out, name), 'utf8')), file: name }));
    },
    /** Attend un message reçu qui répond à `predicate` ; `what` le nomme si aucun ne vient. */
    async waitFor(predicate, what) {
      const deadline = Date.now() + TIMEOUT;
      for (;;) {
        const found = this.messages().find(predicate);
        if (found) return found;
        if (Date.now() > deadline) {
          assert.fail(`${what} : aucun message reçu ne convient. Reçus : ${JSON.stringify(this.messages(), null, 1)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    /** Le fichier `.eml` brut d'un message reçu. */
    emlOf(message) {
      return path.join(out, message.file.replace(/\.json$/, '.eml'));
    },
    /** Arrête le récepteur (il s'arrête quand son entrée standard se ferme) et efface son dossier. */
    stop() {
      child.stdin.end();
      setTimeout(() => child.kill('SIGTERM'), 2_000).unref();
      rmSync(out, { recursive: true, force: true });
    },
  };
}
