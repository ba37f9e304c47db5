// Test de bout en bout du champ « Rechercher » de l'en-tête, contre un serveur Liftdesk réel lancé
// sur la démo :
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/search.test.mjs'
//
// LIFTDESK_URL, LIFTDESK_CREDENTIALS (voir login.test.mjs ; l'administratrice de la démo est
// claire.durand@ascenseurs-durand.fr) ; LIFTDESK_ARTIFACTS : dossier des captures (écrites dans
// <dossier>/ui/) ; LIFTDESK_CHROMIUM : navigateur (défaut /usr/bin/chromium).
//
// L'administratrice, sur l'accueil, presse `/` : le champ a le focus. Le début du numéro d'un
// équipement de la démo (lu dans le parc avec la session de la page) le montre sous
// « Équipements » ; ↓ puis Entrée ouvre sa fiche, le champ se vide et se ferme. Ctrl+K y ramène ;
// un morceau du nom d'un client le montre sous « Clients » ; « FA- » montre « Factures et
// avoirs », un clic ouvre la facture. Puis : l'indication sous 2 caractères, « Aucun résultat »,
// l'erreur du serveur au-delà de 100 caractères, une réponse dépassée jamais affichée, Échap qui
// vide et ferme puis quitte le champ. Le test ne modifie rien.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describeOnServer, STEP_TIMEOUT, TIMEOUT } from './harness.mjs';

/** Le numéro d'une facture de l'agence de l'administratrice, dans sa série (« PO »). */
const INVOICE_NUMBER = /^FA-PO-\d{4}-\d{6}$/;

const T = {
  welcome: (name) => `Bienvenue, ${name}`,
  field: 'Rechercher',
  placeholder: 'Rechercher (/) : équipement, client, facture, devis, appel',
  results: 'Résultats de la recherche',
  equipment: 'Équipements',
  clients: 'Clients',
  invoices: 'Factures et avoirs',
  equipmentTitle: (number) => `Équipement ${number}`,
  hint: 'Saisissez au moins 2 caractères.',
  none: (q) => `Aucun résultat pour « ${q} ».`,
  tooLong: 'Le paramètre « q » ne doit pas dépasser 100 caractères.',
};

const SEARCH_PATH = '/app/api/search';

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Une option dont le titre (en tête de son nom accessible) est `title`. */
const titled = (title) => new RegExp(`^${escapeRegExp(title)}(\\s|$)`);

describeOnServer(
  "recherche de l'en-tête",
  { timeout: 12 * STEP_TIMEOUT, shots: 'recherche' },
  (ui) => {
    const { pageErrors, step, shot, apiResponse, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;

    /** La réponse de `GET /search` pour exactement `q`. */
    const searchResponse = (q) =>
      page.waitForResponse(
        (r) => {
          const url = new URL(r.url());
          return url.pathname === SEARCH_PATH && url.searchParams.get('q') === q;
        },
        { timeout: TIMEOUT },
      );

    /** Un appel de l'API depuis la page, avec le cookie de la session. */
    const getApi = (pathname) =>
      page.evaluate(async (pathname) => {
        const response = await fetch(pathname, { headers: { Accept: 'application/json' } });
        const text = await response.text();
        return { status: response.status, body: text ? JSON.parse(text) : null };
      }, pathname);

    const field = () => page.getByRole('banner').getByRole('combobox', { name: T.field, exact: true });
    const listbox = () => page.getByRole('listbox', { name: T.results, exact: true });
    const group = (label) => listbox().getByRole('group', { name: label, exact: true });
    const focused = () => field().evaluate((el) => el === document.activeElement);
    /** Le texte visible sous le champ (indication, « Aucun résultat », erreur). */
    const panelMessage = (text) => page.getByRole('banner').locator('.panel .message').filter({ hasText: text });

    /** L'option en surbrillance (`aria-activedescendant`) : son titre, ou `null`. */
    const activeTitle = () =>
      field().evaluate((el) => {
        const id = el.getAttribute('aria-activedescendant');
        if (!id) return null;
        const option = document.getElementById(id);
        if (!option || option.getAttribute('aria-selected') !== 'true') return 'option-non-sélectionnée';
        return option.querySelector('.title')?.textContent?.trim() ?? null;
      });

    async function expectClosed() {
      await page.waitForFunction(
        () => document.getElementById('header-search')?.getAttribute('aria-expanded') === 'false',
        null,
        { timeout: TIMEOUT },
      );
      assert.equal(await field().inputValue(), '');
      assert.equal(await field().getAttribute('aria-activedescendant'), null);
      assert.equal(await listbox().isVisible(), false);
    }

    before(() => ({ page, creds } = ui));

    step("`/` sur l'accueil : le champ a le focus, sans y taper la barre", async () => {
      const session = await signIn(creds.admin);
      await page.getByRole('heading', { level: 1, name: T.welcome(session.account.name), exact: true }).waitFor();

      await field().waitFor();
      assert.equal(await field().getAttribute('placeholder'), T.placeholder);
      assert.equal(await field().getAttribute('aria-expanded'), 'false');
      const controls = await field().getAttribute('aria-controls');
      assert.ok(controls, 'aria-controls attendu');
      assert.equal(await page.locator(`[id="${controls}"]`).getAttribute('role'), 'listbox');
      assert.equal(await focused(), false);

      // Le focus hors d'un champ de saisie (le titre de l'accueil, ou le document).
      await page.keyboard.press('/');
      assert.equal(await focused(), true, '`/` devait donner le focus au champ');
      assert.equal(await field().inputValue(), '', 'la barre ne doit pas être tapée dans le champ');
      await shot('recherche-01-focus');
    });

    step('sous 2 caractères : une indication, sans requête', async () => {
      let asked = false;
      const spy = (request) => {
        if (new URL(request.url()).pathname === SEARCH_PATH) asked = true;
      };
      page.on('request', spy);
      await page.keyboard.type('A');
      await panelMessage(T.hint).waitFor();
      assert.equal(await field().getAttribute('aria-expanded'), 'false');
      await page.waitForTimeout(500);
      page.off('request', spy);
      assert.equal(asked, false, 'aucune requête attendue sous 2 caractères');
      await field().fill('');
    });

    /** L'équipement cherché, lu dans le parc avec la session de la page. */
    let lift;

    step("le début d'un numéro d'équipement : « Équipements » ; ↓ puis Entrée ouvre sa fiche", async () => {
      const park = await getApi('/app/api/equipment?limit=1');
      assert.equal(park.status, 200);
      lift = park.body.results.find((e) => e.number);
      assert.ok(lift, 'un équipement numéroté est attendu dans la démo');
      const prefix = lift.number.length > 3 ? lift.number.slice(0, -1) : lift.number;

      const answered = searchResponse(prefix);
      await field().fill(prefix);
      const res = await answered;
      assert.equal(res.status(), 200);
      const answer = await res.json();
      const equipmentGroup = answer.groups.find((g) => g.kind === 'equipment');
      assert.ok(equipmentGroup, `« ${prefix} » devait trouver des équipements`);
      const position = equipmentGroup.hits.findIndex((h) => h.id === lift.id);
      assert.ok(position >= 0, `${lift.number} devait être parmi les équipements trouvés`);

      await group(T.equipment).getByRole('option', { name: titled(lift.number) }).waitFor();
      assert.equal(await field().getAttribute('aria-expanded'), 'true');
      assert.equal(await field().getAttribute('aria-activedescendant'), null);
      await shot('recherche-02-equipements');

      // ↓ : le premier résultat ; puis jusqu'à l'équipement (les équipements viennent en premier).
      await page.keyboard.press('ArrowDown');
      assert.equal(await activeTitle(), equipmentGroup.hits[0].title);
      for (let i = 0; i < position; i += 1) await page.keyboard.press('ArrowDown');
      assert.equal(await activeTitle(), lift.number);

      const opened = apiResponse(`/app/api/equipment/${lift.id}`, 'GET');
      await page.keyboard.press('Enter');
      assert.equal((await opened).status(), 200);
      await page.getByRole('heading', { level: 1, name: T.equipmentTitle(lift.number), exact: true }).waitFor();
      assert.equal(new URL(page.url()).pathname, `/equipements/${lift.id}`);
      await expectClosed();
      assert.equal(await focused(), false);
      await shot('recherche-03-fiche');
    });

    step('Ctrl+K : de nouveau le champ ; un morceau du nom d’un client : « Clients »', async () => {
      await page.keyboard.press('Control+k');
      assert.equal(await focused(), true, 'Ctrl+K devait donner le focus au champ');
      assert.equal(await field().inputValue(), '');

      const clients = await getApi('/app/api/clients?limit=1');
      assert.equal(clients.status, 200);
      const client = clients.body.results[0];
      assert.ok(client, 'un client est attendu dans la démo');
      // Le mot le plus long du nom qui le retrouve parmi les 5 premiers clients.
      const words = [...new Set(client.name.split(/\s+/).filter((w) => w.length >= 3))].sort((a, b) => b.length - a.length);
      let fragment = null;
      for (const word of words) {
        const found = await getApi(`${SEARCH_PATH}?q=${encodeURIComponent(word)}`);
        if (found.body.groups.some((g) => g.kind === 'clients' && g.hits.some((h) => h.link === `/clients/${client.id}`))) {
          fragment = word;
          break;
        }
      }
      assert.ok(fragment, `aucun mot de « ${client.name} » ne retrouve le client`);

      const answered = searchResponse(fragment);
      await field().fill(fragment);
      assert.equal((await answered).status(), 200);
      const option = group(T.clients).getByRole('option', { name: titled(client.name) });
      await option.waitFor();
      await option.getByText(client.id).waitFor();
      await shot('recherche-04-clients');
    });

    step('« FA- » : « Factures et avoirs » ; un clic ouvre la facture', async () => {
      const answered = searchResponse('FA-');
      await field().fill('FA-');
      const answer = await (await answered).json();
      const invoices = answer.groups.find((g) => g.kind === 'invoices');
      assert.ok(invoices && invoices.hits.length > 0, 'la démo a des factures');
      assert.deepEqual(
        answer.groups.map((g) => g.kind),
        ['invoices'],
      );
      const options = group(T.invoices).getByRole('option');
      await options.first().waitFor();
      assert.equal(await options.count(), invoices.hits.length);
      // Les numéros de l'agence de l'administratrice (« Agence Paris Ouest »), dans sa série PO.
      for (const title of await group(T.invoices).locator('.title').allTextContents()) {
        assert.match(title.trim(), INVOICE_NUMBER);
      }
      assert.equal(await group(T.equipment).count(), 0);
      await shot('recherche-05-factures');

      // Le clic garde le focus dans le champ jusqu'à l'ouverture de la page.
      const target = invoices.hits[1] ?? invoices.hits[0];
      await group(T.invoices).getByRole('option', { name: titled(target.title) }).click();
      await page.waitForURL((url) => url.pathname === target.link);
      await expectClosed();
      // La facture chargée, la page donne le focus à son titre : l'attendre,
      // sans quoi il reprendrait le focus que `/` donne ensuite au champ.
      await page.waitForFunction(() => document.activeElement?.id === 'invoice-title', null, {
        timeout: TIMEOUT,
      });
    });

    step('« Aucun résultat », et l’erreur du serveur au-delà de 100 caractères', async () => {
      await page.keyboard.press('/');
      assert.equal(await focused(), true);
      const nothing = 'zqxj-introuvable';
      const answered = searchResponse(nothing);
      await field().fill(nothing);
      assert.deepEqual((await (await answered).json()).groups, []);
      await panelMessage(T.none(nothing)).waitFor();
      assert.equal(await field().getAttribute('aria-expanded'), 'false');

      const long = 'x'.repeat(101);
      const refused = searchResponse(long);
      await field().fill(long);
      assert.equal((await refused).status(), 400);
      await panelMessage(T.tooLong).waitFor();
      await shot('recherche-06-erreur');
    });

    step('seule la réponse du dernier texte est affichée', async () => {
      // La réponse à « ASC » est retenue jusqu'après celle à « FA- » (et abandonnée par la page).
      let release;
      const held = new Promise((resolve) => (release = resolve));
      await page.route(
        (url) => url.pathname === SEARCH_PATH && url.searchParams.get('q') === 'ASC',
        async (route) => {
          await held;
          await route.continue().catch(() => {});
        },
      );
      const asked = page.waitForRequest((r) => new URL(r.url()).searchParams.get('q') === 'ASC');
      await field().fill('ASC');
      await asked;
      const answered = searchResponse('FA-');
      await field().fill('FA-');
      await answered;
      await group(T.invoices).waitFor();
      release();
      await page.waitForTimeout(700);
      assert.equal(await group(T.equipment).count(), 0, 'la réponse dépassée ne doit pas être affichée');
      await group(T.invoices).waitFor();
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    });

    step('Échap vide et ferme la liste ; un second Échap quitte le champ', async () => {
      assert.equal(await field().getAttribute('aria-expanded'), 'true');
      await page.keyboard.press('ArrowDown');
      assert.match((await activeTitle()) ?? '', INVOICE_NUMBER);
      await page.keyboard.press('Escape');
      await expectClosed();
      assert.equal(await focused(), true, 'le premier Échap garde le focus');
      await page.keyboard.press('Escape');
      assert.equal(await focused(), false, 'le second Échap quitte le champ');
      await shot('recherche-07-ferme');
    });

    step('aucune erreur JavaScript dans la page', () => {
      assert.deepEqual(pageErrors.map(String), []);
    });
  },
);
