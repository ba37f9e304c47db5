// Test de bout en bout : le journal nomme les enregistrements et les données techniques, jamais
// par leur identifiant ni leur code, et montre jours et heures à la française (issue 22, point 7),
// contre un serveur Liftdesk réel lancé sur la démo :
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/journal-names.test.mjs'
//
// LIFTDESK_URL, LIFTDESK_CREDENTIALS (voir keys.test.mjs) ; LIFTDESK_ARTIFACTS : dossier des
// captures (écrites dans <dossier>/ui/, journal-noms-…) ; LIFTDESK_CHROMIUM : navigateur (défaut
// /usr/bin/chromium).
//
// L'administratrice de la démo change la charge utile d'un ascenseur (par l'API de l'interface,
// `PATCH /app/api/equipment/{id}/technical`), puis ouvre « Journal » : aucune cellule du tableau
// (lignes dépliables comprises) ne montre d'identifiant interne (UUID), de jour `AAAA-MM-JJ` ni
// d'horodatage ISO, ni de JSON (`[`, `{`), sur les premières pages de « Tous » puis de chaque type
// d'objet du filtre (Visite, Immeuble, Appel, Devis, Relevé, Compte…), alors que les réponses du
// serveur en contiennent (le test le vérifie) ; un enregistrement que la réponse nomme n'est pas
// dit « (enregistrement supprimé) ». Une visite planifiée nomme son technicien (le nom de
// `GET /app/api/technicians`) ; une visite close montre ses jours (« 09/11/2026 ») et ses heures
// d'arrivée et de départ à l'heure de Paris (« 09/11/2026 13:13 ») ; le client d'un immeuble est
// un lien qui ouvre la fiche du client ; les consignes d'accès d'un immeuble se lisent « Digicode,
// Vigik » ; l'immeuble de la colonne « Objet » est un lien qui ouvre sa fiche ; le changement de
// la charge utile se lit « Charge utile : avant → après » (le nom du catalogue
// `GET /app/api/technical-fields`), jamais `charge_utile`. Le serveur de démo est partagé par les
// tests : d'autres entrées peuvent s'intercaler.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describeOnServer, plain, STEP_TIMEOUT, TIMEOUT } from './harness.mjs';

const JOURNAL_PATH = '/app/api/journal';
/** Le début d'un identifiant interne, où qu'il soit dans le texte. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-/i;
/** Un jour ISO `AAAA-MM-JJ` (seul ou au début d'un horodatage), où qu'il soit dans le texte. */
const ISO_DAY = /\d{4}-\d{2}-\d{2}/;
/** Du JSON montré tel quel : crochets ou accolades. */
const JSON_MARK = /[[\]{}]/;
/** Jour et heure de Paris tels que l'écran les montre (`09/11/2026 13:13`). */
const PARIS_TIME = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
/** `2026-11-09` → `09/11/2026`. */
const frenchDay = (day) => day.split('-').reverse().join('/');
/** Les clés du détail que l'écran ne montre pas (`HIDDEN_FIELDS` de lib/journal.ts, celles à identifiant). */
const HIDDEN_ID_KEYS = new Set(['version', 'absence', 'callCenter', 'callCenterId']);
/** Pages lues par filtre ; « Tous » en lit une de plus. */
const PAGES_PER_TYPE = 2;
const PAGES_ALL = 3;

const T = {
  menu: 'Menu principal',
  journal: 'Journal',
  type: "Type d'objet",
  search: 'Rechercher',
  older: 'Entrées plus anciennes',
  deleted: '(enregistrement supprimé)',
};

/** Les identifiants (UUID) d'un détail, hors des clés que l'écran cache : `[clé, identifiant]`. */
function detailIds(value, key = '', out = []) {
  if (HIDDEN_ID_KEYS.has(key)) return out;
  if (typeof value === 'string') {
    if (UUID.test(value)) out.push([key, value.trim()]);
  } else if (Array.isArray(value)) {
    for (const item of value) detailIds(item, key, out);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) detailIds(v, k === 'before' || k === 'after' ? key : k, out);
  }
  return out;
}

/**
 * Les valeurs brutes d'un détail que l'écran doit mettre en mots : jours et horodatages ISO, listes
 * ou objets écrits en JSON dans une chaîne (`"[\"Digicode\"]"`) : `[clé, valeur]`.
 */
function rawValues(value, key = '', out = []) {
  if (HIDDEN_ID_KEYS.has(key)) return out;
  if (typeof value === 'string') {
    const text = value.trim();
    if (/^\d{4}-\d{2}-\d{2}(T|$)/.test(text) || /^[[{]/.test(text)) out.push([key, text]);
  } else if (Array.isArray(value)) {
    for (const item of value) rawValues(item, key, out);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) rawValues(v, k === 'before' || k === 'after' ? key : k, out);
  }
  return out;
}

describeOnServer(
  'le journal nomme les enregistrements et les données techniques',
  {
    timeout: 14 * STEP_TIMEOUT,
    shots: 'journal-noms',
    viewport: { width: 1440, height: 900 },
    context: { timezoneId: 'Europe/Paris' },
  },
  (ui) => {
    const { pageErrors, step, shot, apiResponse, appApi, signIn } = ui;
    let creds;
    /** @type {import('playwright-core').Page} */
    let page;
    /** L'ascenseur changé, sa charge utile avant et après. */
    let lift;
    let loadBefore = null;
    let loadAfter;
    /** Le nom de `charge_utile` au catalogue de l'agence. */
    let loadLabel = '';
    /** Les réponses du journal lues par l'écran, par type d'objet (`''` : « Tous »). */
    const answers = new Map();

    const menu = () => page.getByRole('navigation', { name: T.menu });
    const table = () => page.getByRole('table', { name: "Journal de l'agence", exact: true });
    const rows = () => table().locator('tbody tr');
    const rowOf = (seq) => table().locator(`tbody tr[data-seq="${seq}"]`);
    /** Les lignes du détail d'une ligne du tableau, espaces normalisés (dépliées comprises). */
    const detailTexts = async (seq) =>
      (await rowOf(seq).locator('td.detail div').allTextContents()).map(plain);

    /** Une lecture du journal par l'écran, filtrée sur `objectType` (vide : aucun filtre). */
    const journalRead = (objectType, { more = false } = {}) =>
      page.waitForResponse(
        (r) => {
          const url = new URL(r.url());
          if (url.pathname !== JOURNAL_PATH || r.request().method() !== 'GET') return false;
          if ((url.searchParams.get('objectType') ?? '') !== objectType) return false;
          return url.searchParams.has('before') === more;
        },
        { timeout: TIMEOUT },
      );

    /** Attend que le tableau montre `count` lignes, la première étant `firstSeq`. */
    async function shown(count, firstSeq) {
      await page.waitForFunction(
        ({ count, firstSeq }) => {
          const trs = document.querySelectorAll('table.journal tbody tr');
          return trs.length === count && trs[0]?.getAttribute('data-seq') === String(firstSeq);
        },
        { count, firstSeq },
        { timeout: TIMEOUT },
      );
    }

    /**
     * Filtre le tableau sur un type d'objet (son libellé, « Tous » sans filtre) et lit `pages`
     * pages ; rend les réponses du serveur. Le tableau montre alors toutes leurs entrées.
     */
    async function showType(code, label, pages) {
      await page.getByLabel(T.type, { exact: true }).selectOption({ label });
      const first = journalRead(code);
      await page.getByRole('button', { name: T.search, exact: true }).click();
      const res = await first;
      assert.equal(res.status(), 200, `journal « ${label} »`);
      const read = [await res.json()];
      let total = read[0].entries.length;
      if (total > 0) await shown(total, read[0].entries[0].seq);
      while (read.length < pages && read[read.length - 1].next !== null) {
        const more = journalRead(code, { more: true });
        await page.getByRole('button', { name: T.older, exact: true }).click();
        const answer = await (await more).json();
        read.push(answer);
        total += answer.entries.length;
        await shown(total, read[0].entries[0].seq);
      }
      answers.set(code, read);
      return read;
    }

    /**
     * Le tableau en mots : aucune cellule (lignes dépliables comprises) ne montre d'identifiant,
     * de jour ou d'horodatage ISO, ni de JSON ; et une ligne dont tous les identifiants sont nommés
     * par la réponse ne dit pas « enregistrement supprimé ». Rend le nombre d'identifiants et de
     * valeurs brutes (jours, JSON) que les réponses contenaient : le texte montré en aurait, sans
     * la correction.
     */
    async function assertReadable(read, label) {
      if (read.every((answer) => answer.entries.length === 0)) {
        await page.getByText('Aucune entrée pour ces filtres.', { exact: true }).waitFor();
        return { ids: 0, raw: 0 };
      }
      // `textContent` : le contenu des `<details>` repliés compte aussi.
      const cells = (await table().locator('tbody td').allTextContents()).map(plain);
      for (const [what, pattern] of [
        ['un identifiant', UUID],
        ['un jour ISO', ISO_DAY],
        ['du JSON', JSON_MARK],
      ]) {
        const leak = cells.find((cell) => pattern.test(cell));
        assert.equal(leak, undefined, `${what} montré dans le journal « ${label} » : ${leak}`);
      }
      let ids = 0;
      let raw = 0;
      for (const answer of read) {
        const known = new Set(answer.references.map((r) => r.id));
        for (const entry of answer.entries) {
          raw += rawValues(entry.detail).length;
          const found = detailIds(entry.detail);
          ids += found.length;
          if (found.length === 0 || !found.every(([, id]) => known.has(id))) continue;
          const rowText = plain(await rowOf(entry.seq).innerText());
          assert.ok(!rowText.includes(T.deleted), `« ${T.deleted} » pour un enregistrement nommé (${label}) : ${rowText}`);
        }
      }
      return { ids, raw };
    }

    before(() => ({ page, creds } = ui));

    step("connexion ; la charge utile d'un ascenseur changée par l'API de l'interface", async () => {
      await signIn(creds.admin);

      const catalogue = await appApi('GET', '/technical-fields');
      assert.equal(catalogue.status, 200, JSON.stringify(catalogue.body));
      loadLabel = catalogue.body.results.find((f) => f.code === 'charge_utile')?.label ?? '';
      assert.equal(loadLabel, 'Charge utile', 'le nom de `charge_utile` au catalogue');

      const park = await appApi('GET', '/equipment?limit=50');
      assert.equal(park.status, 200, JSON.stringify(park.body));
      lift = park.body.results.find((e) => e.number && e.type === 'ascenseur') ?? park.body.results.find((e) => e.number);
      assert.ok(lift, 'un ascenseur numéroté dans la démo');
      const fiche = await appApi('GET', `/equipment/${encodeURIComponent(lift.id)}`);
      assert.equal(fiche.status, 200, JSON.stringify(fiche.body));
      const datum = fiche.body.technical.flatMap((c) => c.fields).find((f) => f.code === 'charge_utile');
      loadBefore = typeof datum?.value === 'number' ? datum.value : null;
      // Une valeur propre au passage (le serveur n'écrit rien si elle ne change pas).
      loadAfter = 400 + (Date.now() % 500);
      if (loadAfter === loadBefore) loadAfter += 1;
      const changed = await appApi('PATCH', `/equipment/${encodeURIComponent(lift.id)}/technical`, {
        charge_utile: loadAfter,
      });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
    });

    step('« Tous » : ni identifiant, ni jour ISO, ni JSON sur les premières pages', async () => {
      const catalogueRead = apiResponse('/app/api/technical-fields', 'GET');
      await menu().getByRole('link', { name: T.journal, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: T.journal, exact: true }).waitFor();
      await table().waitFor();
      const read = await showType('', 'Tous', PAGES_ALL);
      const { ids } = await assertReadable(read, 'Tous');
      assert.ok(ids > 0, 'les premières pages de la démo nomment des enregistrements par identifiant');
      await shot('journal-noms-01-tous');
      assert.equal((await catalogueRead).status(), 200, "l'écran lit le catalogue technique");
    });

    step("chaque type d'objet : ni identifiant, ni jour ISO, ni JSON, et les réponses en contenaient", async () => {
      const options = await page
        .getByLabel(T.type, { exact: true })
        .locator('option')
        .evaluateAll((os) => os.map((o) => ({ code: o.value, label: o.textContent.trim() })));
      const types = options.filter((o) => o.code);
      for (const wanted of ['visit', 'building', 'call', 'quote', 'invoice', 'survey', 'account']) {
        assert.ok(
          types.some((t) => t.code === wanted),
          `« ${wanted} » au filtre : ${types.map((t) => t.code).join(', ')}`,
        );
      }
      const withIds = [];
      const withRaw = [];
      for (const type of types) {
        const read = await showType(type.code, type.label, PAGES_PER_TYPE);
        const { ids, raw } = await assertReadable(read, type.label);
        if (ids > 0) withIds.push(type.code);
        if (raw > 0) withRaw.push(type.code);
      }
      for (const wanted of ['visit', 'building', 'call', 'quote', 'survey']) {
        assert.ok(withIds.includes(wanted), `les entrées « ${wanted} » de la démo nomment des enregistrements : ${withIds.join(', ')}`);
      }
      // Jours et horodatages (visites, relevés, factures, astreintes), consignes d'accès en JSON.
      for (const wanted of ['visit', 'building', 'survey', 'invoice', 'technician']) {
        assert.ok(withRaw.includes(wanted), `les entrées « ${wanted} » de la démo ont des jours ou du JSON : ${withRaw.join(', ')}`);
      }
    }, 4 * STEP_TIMEOUT);

    step('une visite planifiée nomme son technicien', async () => {
      const read = await showType('visit', 'Visite', 1);
      const entry = read[0].entries.find((e) => e.detail && typeof e.detail.technicianId === 'string');
      assert.ok(entry, 'une visite planifiée pour un technicien, en tête du journal des visites');
      const team = await appApi('GET', '/technicians');
      assert.equal(team.status, 200);
      const technician = team.body.technicians.find((t) => t.id === entry.detail.technicianId);
      assert.ok(technician, `le technicien ${entry.detail.technicianId} dans l'équipe`);
      const lines = await detailTexts(entry.seq);
      assert.ok(lines.includes(`Technicien : ${technician.name}`), `« Technicien : ${technician.name} » dans ${JSON.stringify(lines)}`);
      // L'équipement de la visite aussi, lien vers sa fiche.
      const equipment = read[0].references.find((r) => r.id === entry.detail.equipmentId);
      assert.ok(equipment?.path, "l'équipement de la visite a une page");
      const link = rowOf(entry.seq).getByRole('link', { name: equipment.label, exact: true });
      assert.equal(await link.getAttribute('href'), equipment.path);
      assert.ok(lines.includes(`Équipement : ${equipment.label}`), JSON.stringify(lines));
      // Le technicien peut être dans la partie dépliable : dépliée, il se lit à l'écran.
      const more = rowOf(entry.seq).locator('td.detail details > summary');
      if (await more.count()) await more.click();
      await rowOf(entry.seq)
        .locator('td.detail div')
        .filter({ hasText: `Technicien : ${technician.name}` })
        .last()
        .waitFor();
      await rowOf(entry.seq).scrollIntoViewIfNeeded();
      await shot('journal-noms-02-visite', { fullPage: false });
    });

    step("une visite close : ses jours et ses heures d'arrivée et de départ à la française", async () => {
      const read = await showType('visit', 'Visite', PAGES_PER_TYPE);
      const entry = read
        .flatMap((answer) => answer.entries)
        .find((e) => e.detail && typeof e.detail.arrivedAt === 'string' && typeof e.detail.doneOn === 'string');
      assert.ok(entry, 'une visite close dans les premières pages du journal des visites');
      const { arrivedAt, leftAt, doneOn } = entry.detail;
      const lines = await detailTexts(entry.seq);
      const expected = [
        `Arrivée : ${plain(PARIS_TIME.format(new Date(arrivedAt)))}`,
        `Faite le : ${frenchDay(doneOn)}`,
        `Départ : ${plain(PARIS_TIME.format(new Date(leftAt)))}`,
      ];
      for (const line of expected) assert.ok(lines.includes(line), `« ${line} » dans ${JSON.stringify(lines)}`);
      // Une visite planifiée : son jour et l'échéance de son plan, à la française.
      const planned = read
        .flatMap((answer) => answer.entries)
        .find((e) => e.detail && typeof e.detail.plannedFor === 'string' && typeof e.detail.deadline === 'string');
      assert.ok(planned, 'une visite planifiée dans les premières pages du journal des visites');
      const plannedLines = await detailTexts(planned.seq);
      for (const line of [`Prévue le : ${frenchDay(planned.detail.plannedFor)}`, `Échéance du plan : ${frenchDay(planned.detail.deadline)}`]) {
        assert.ok(plannedLines.includes(line), `« ${line} » dans ${JSON.stringify(plannedLines)}`);
      }
      const more = rowOf(entry.seq).locator('td.detail details > summary');
      if (await more.count()) await more.click();
      await rowOf(entry.seq).locator('td.detail div').filter({ hasText: expected[0] }).last().waitFor();
      await rowOf(entry.seq).scrollIntoViewIfNeeded();
      await shot('journal-noms-06-visite-close', { fullPage: false });
    });

    step("le client d'un immeuble : son nom, un lien qui ouvre sa fiche", async () => {
      const read = await showType('building', 'Immeuble', 1);
      const entry = read[0].entries.find((e) => e.detail && typeof e.detail.clientId === 'string');
      assert.ok(entry, 'un immeuble rattaché à un client, en tête du journal des immeubles');
      const client = read[0].references.find((r) => r.id === entry.detail.clientId);
      assert.ok(client, 'le client nommé par la réponse');
      assert.equal(client.objectType, 'client');
      assert.match(client.path ?? '', /^\/clients\/CLI-/);
      const lines = await detailTexts(entry.seq);
      assert.ok(lines.includes(`Client : ${client.label}`), `« Client : ${client.label} » dans ${JSON.stringify(lines)}`);
      // Le détail d'un immeuble est long : le client est dans la partie dépliable.
      const more = rowOf(entry.seq).locator('td.detail details > summary');
      if (await more.count()) await more.click();
      const link = rowOf(entry.seq).locator('td.detail').getByRole('link', { name: client.label, exact: true });
      assert.equal(await link.getAttribute('href'), client.path);
      await rowOf(entry.seq).scrollIntoViewIfNeeded();
      await shot('journal-noms-03-immeuble', { fullPage: false });

      const opened = apiResponse(`/app/api${client.path}`, 'GET');
      await link.click();
      assert.equal((await opened).status(), 200);
      await page.getByRole('heading', { level: 1, name: client.label, exact: true }).waitFor();
      assert.equal(new URL(page.url()).pathname, client.path);
      await shot('journal-noms-04-fiche-client');
    });

    step("un immeuble : ses consignes d'accès en mots, la colonne « Objet » ouvre sa fiche", async () => {
      await menu().getByRole('link', { name: T.journal, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: T.journal, exact: true }).waitFor();
      await table().waitFor();
      const read = await showType('building', 'Immeuble', 1);
      // Les consignes d'accès, que le serveur enregistre en JSON (`"[\"Digicode\"]"`) : « Digicode, Vigik ».
      const access = read[0].entries.find((e) => typeof e.detail?.accessInstructions === 'string');
      assert.ok(access, "des consignes d'accès en tête du journal des immeubles");
      const instructions = JSON.parse(access.detail.accessInstructions);
      assert.ok(Array.isArray(instructions) && instructions.length > 0, access.detail.accessInstructions);
      const lines = await detailTexts(access.seq);
      const line = `Consignes d'accès : ${instructions.join(', ')}`;
      assert.ok(lines.includes(line), `« ${line} » dans ${JSON.stringify(lines)}`);

      // L'immeuble de la colonne « Objet » : un lien vers sa fiche, qui s'ouvre.
      const entry = read[0].entries.find((e) => e.objectId && e.objectLabel);
      assert.ok(entry, 'un immeuble nommé en tête du journal des immeubles');
      const object = rowOf(entry.seq).locator('td').nth(3);
      const link = object.getByRole('link', { name: entry.objectLabel, exact: true });
      const href = `/immeubles/${encodeURIComponent(entry.objectId)}`;
      assert.equal(await link.getAttribute('href'), href);
      await rowOf(entry.seq).scrollIntoViewIfNeeded();
      await shot('journal-noms-07-immeuble-objet', { fullPage: false });
      const opened = apiResponse(`/app/api/buildings/${encodeURIComponent(entry.objectId)}`, 'GET');
      await link.click();
      assert.equal((await opened).status(), 200);
      await page.getByRole('heading', { level: 1, name: `Immeuble ${entry.objectLabel}`, exact: true }).waitFor();
      assert.equal(new URL(page.url()).pathname, href);
      await shot('journal-noms-08-fiche-immeuble');
    });

    step('la charge utile changée se lit « Charge utile », pas `charge_utile`', async () => {
      await menu().getByRole('link', { name: T.journal, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: T.journal, exact: true }).waitFor();
      await table().waitFor();
      const read = await showType('equipment', 'Équipement', 1);
      const entry = read[0].entries.find(
        (e) => e.objectId === lift.id && e.detail?.changes?.charge_utile?.after === loadAfter,
      );
      assert.ok(entry, "le changement de la charge utile en tête du journal des équipements");
      // Le nom du catalogue, qui n'est pas dans les noms propres au journal : l'écran l'a lu.
      await page.waitForFunction(
        ({ seq, label }) =>
          [...document.querySelectorAll(`tr[data-seq="${seq}"] td.detail div`)].some((d) =>
            d.textContent.trim().startsWith(`${label} :`),
          ),
        { seq: entry.seq, label: loadLabel },
        { timeout: TIMEOUT },
      );
      const lines = await detailTexts(entry.seq);
      assert.ok(
        lines.includes(`${loadLabel} : ${loadBefore ?? '—'} → ${loadAfter}`),
        `« ${loadLabel} : ${loadBefore ?? '—'} → ${loadAfter} » dans ${JSON.stringify(lines)}`,
      );
      const text = await table().innerText();
      assert.ok(!text.includes('charge_utile'), 'le code `charge_utile` montré dans le journal');
      await assertReadable(read, 'Équipement');
      await rowOf(entry.seq).scrollIntoViewIfNeeded();
      await shot('journal-noms-05-charge-utile', { fullPage: false });
      assert.deepEqual(pageErrors, []);
    });
  },
);
