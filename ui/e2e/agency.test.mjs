// Test de bout en bout de l'écran « Agence », rubrique « Identité », contre un serveur Liftdesk
// réel lancé sur la démo :
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/agency.test.mjs'
//
// LIFTDESK_URL, LIFTDESK_CREDENTIALS (voir keys.test.mjs) ; LIFTDESK_ARTIFACTS : dossier des
// captures (écrites dans <dossier>/ui/) ; LIFTDESK_CHROMIUM : navigateur (défaut /usr/bin/chromium).
//
// La démo donne à chaque agence une identité complète (SIRET, adresse, SAS, capital, RCS, TVA,
// IBAN, BIC, assureur, série de numérotation des factures : « PO » pour « Agence Paris Ouest »,
// « PE » pour « Agence Paris Est ») et aucun logo. Le test change le téléphone de l'agence active
// de l'administrateur et lui met puis retire un logo ; à la fin, il remet l'identité lue au départ
// (et retire le logo s'il en reste un), pour les autres tests du même serveur.
//
// La série « PO » est montrée avec son aide ; tapée en minuscules, une série s'écrit en
// majuscules ; « p o! » est refusée avant l'envoi avec la phrase du serveur (qui refuse la même) ;
// « PE » (celle de l'autre agence) puis « PX » (libre) sont refusées par le serveur sous le champ,
// qui reçoit le focus : des factures sont numérotées dans « PO », elle ne change plus (le serveur
// le vérifie avant de chercher une autre agence de la même série : le refus de « PE » comme série
// d'une autre agence se voit dans une agence sans pièce numérotée, agencies.test.mjs). Rien
// n'est enregistré : « PO » relue après rechargement.

import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import { describeOnServer, UI_DIR } from './harness.mjs';

const LOGO_FILE = path.resolve(UI_DIR, '../icons/64x64.png');
const STEP_TIMEOUT = 90_000;

const T = {
  menu: 'Menu principal',
  agencyMenu: 'Agence',
  title: 'Agence',
  section: 'Identité',
  siret: 'SIRET',
  siren: 'SIREN',
  phone: 'Téléphone',
  legalForm: 'Forme juridique',
  save: 'Enregistrer',
  saved: 'Identité enregistrée.',
  badSiret: "Le SIRET n'est pas valide (clé de contrôle incorrecte).",
  cannotIssue: 'Les factures et avoirs ne peuvent pas être émis',
  chooseLogo: 'Choisir un logo…',
  removeLogo: 'Retirer le logo',
  logoAlt: "Logo de l'agence",
  logoSaved: 'Logo enregistré.',
  logoRemoved: 'Logo retiré.',
  readOnly: "Seul un administrateur de l'agence modifie son identité et son logo.",
  series: 'Série de numérotation des factures',
  seriesHelp:
    '1 à 6 lettres ou chiffres, par exemple PO : les factures sont numérotées FA-PO-2026-000001. Elle ne change plus une fois une pièce numérotée.',
  badSeries: (series) =>
    `La série de numérotation compte de 1 à 6 lettres sans accent ou chiffres, par exemple « PO » : « ${series} » n'en est pas une.`,
  /** La raison du serveur, après « Champ « invoiceSeries » : » ; sous le champ, en phrase (« Des… »). */
  fixedSeries: (series) =>
    `des factures ou avoirs sont déjà numérotés dans la série « ${series} » : elle ne change plus (les numéros se suivent dans leur série).`,
};

/** La série de l'agence de l'administrateur (« Agence Paris Ouest ») et celle de l'autre agence de la démo. */
const DEMO_SERIES = { own: 'PO', other: 'PE', free: 'PX' };

const IDENTITY_PATH = '/app/api/agency/identity';
const LOGO_PATH = '/app/api/agency/identity/logo';

describeOnServer(
  'agence : identité',
  { timeout: 10 * STEP_TIMEOUT, stepTimeout: STEP_TIMEOUT, shots: 'agence', accounts: ['admin', 'member'] },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse, signIn, signOut, callApi } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    /** L'identité lue au départ (`IdentityAnswer`), remise à la fin. */
    let original = null;
    /** Les `PUT` de l'identité envoyés par l'écran. */
    const puts = [];

    const menu = () => page.getByRole('navigation', { name: T.menu });
    const field = (label) => page.getByLabel(label, { exact: true });

    /** L'écran est chargé : le titre, la rubrique et le formulaire (rendu avec la réponse). */
    async function screenLoaded() {
      await page.getByRole('heading', { level: 1, name: T.title, exact: true }).waitFor();
      await page.getByRole('heading', { level: 2, name: T.section, exact: true }).waitFor();
      await field(T.siret).waitFor();
    }

    /** L'identité enregistrée, relue par l'API. */
    async function stored() {
      const read = await callApi('GET', IDENTITY_PATH);
      assert.equal(read.status, 200, JSON.stringify(read.body));
      return read.body.identity;
    }

    /** Attend que le champ reçoive le focus (l'écran le donne au champ refusé). */
    async function focused(locator) {
      const handle = await locator.elementHandle();
      await page.waitForFunction((el) => el === document.activeElement, handle);
    }

    /** Les textes qui décrivent un champ (`aria-describedby` : son aide, son refus). */
    async function descriptions(locator) {
      const ids = (await locator.getAttribute('aria-describedby')) ?? '';
      return page.evaluate(
        (list) => list.split(' ').map((id) => document.getElementById(id)?.textContent?.trim() ?? ''),
        ids,
      );
    }

    before(() => {
      ({ page, creds } = ui);
      page.on('request', (request) => {
        if (request.method() === 'PUT' && new URL(request.url()).pathname === IDENTITY_PATH) puts.push(request);
      });
    });

    after(async () => {
      // L'identité du départ, sans logo, pour les autres tests du même serveur : une nouvelle
      // connexion de l'administrateur (la session du test peut être celle du membre).
      if (page && original) {
        await page
          .evaluate(
            async ({ admin, identity, hadLogo }) => {
              const response = await fetch('/app/api/session', {
                method: 'POST',
                headers: { 'Content-Type': 'application/json' },
                body: JSON.stringify({ email: admin.email, password: admin.password }),
              });
              const session = await response.json();
              const headers = { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken };
              await fetch('/app/api/agency/identity', { method: 'PUT', headers, body: JSON.stringify(identity) });
              const now = await (await fetch('/app/api/agency/identity')).json();
              if (now.logo && !hadLogo) await fetch('/app/api/agency/identity/logo', { method: 'DELETE', headers });
            },
            { admin: creds.admin, identity: original.identity, hadLogo: original.logo !== null },
          )
          .catch(() => {});
      }
    });

    let siret;

    step("l'administrateur ouvre « Agence » : l'identité de la démo, complète", async () => {
      await signIn(creds.admin);
      const read = apiResponse(IDENTITY_PATH, 'GET');
      await menu().getByRole('link', { name: T.agencyMenu, exact: true }).click();
      assert.equal((await read).status(), 200);
      await screenLoaded();
      assert.equal(new URL(page.url()).pathname, '/agence');
      original = (await callApi('GET', IDENTITY_PATH)).body;
      assert.equal(original.canEdit, true);
      assert.equal(original.logo, null, 'la démo n’a pas de logo');

      siret = await field(T.siret).inputValue();
      assert.match(siret, /^\d{14}$/);
      assert.equal(siret, original.identity.siret);
      const siren = await field(T.siren).inputValue();
      assert.equal(siren.replace(/\s/g, ''), siret.slice(0, 9));
      assert.equal(await field(T.legalForm).inputValue(), 'SAS');
      assert.equal(await page.getByText(T.cannotIssue, { exact: false }).count(), 0);
      await page.locator('main').getByText(original.agencyName, { exact: true }).first().waitFor();
      await shot('agence-01-identite');
    });

    step('un SIRET faux est refusé en français, comme par le serveur', async () => {
      const last = Number(siret.at(-1));
      const bad = `${siret.slice(0, 13)}${(last + 1) % 10}`;
      const input = field(T.siret);
      await input.fill(bad);
      await page.getByRole('button', { name: T.save, exact: true }).click();
      await page.getByText(T.badSiret, { exact: true }).waitFor();
      assert.equal(await input.getAttribute('aria-invalid'), 'true');
      assert.equal(await page.getByText(T.saved, { exact: true }).count(), 0);
      await shot('agence-02-siret-refuse');

      // Le serveur refuse le même SIRET avec la même raison, en nommant le champ.
      const refused = await callApi('PUT', IDENTITY_PATH, { ...original.identity, siret: bad });
      assert.equal(refused.status, 422);
      assert.equal(refused.body.error, `Champ « siret » : ${T.badSiret}`);
    });

    const newPhone = '04 72 10 20 30';

    step('le SIRET remis et le téléphone changé : « Identité enregistrée. », relu après rechargement', async () => {
      await field(T.siret).fill(siret);
      await page.getByText(T.badSiret, { exact: true }).waitFor({ state: 'detached' });
      assert.notEqual(original.identity.phone, newPhone);
      await field(T.phone).fill(newPhone);
      const saved = apiResponse(IDENTITY_PATH, 'PUT');
      await page.getByRole('button', { name: T.save, exact: true }).click();
      assert.equal((await saved).status(), 200);
      await page.getByRole('status').filter({ hasText: T.saved }).waitFor();
      await shot('agence-03-enregistree');

      await page.reload();
      await screenLoaded();
      assert.equal(await field(T.phone).inputValue(), newPhone);
      assert.equal(await field(T.siret).inputValue(), siret);
    });

    step('la série « PO » est montrée ; « p o! » est refusée avant l’envoi, comme par le serveur', async () => {
      const series = field(T.series);
      assert.equal(original.identity.invoiceSeries, DEMO_SERIES.own);
      assert.equal(await series.inputValue(), DEMO_SERIES.own);
      assert.ok((await descriptions(series)).includes(T.seriesHelp), 'l’aide de la série décrit le champ');

      puts.length = 0;
      await series.fill('p o!');
      // Mise en majuscules à la saisie : le champ montre ce que le serveur garderait.
      assert.equal(await series.inputValue(), 'P O!');
      await page.getByRole('button', { name: T.save, exact: true }).click();
      await page.getByText(T.badSeries('P O!'), { exact: true }).waitFor();
      assert.equal(await series.getAttribute('aria-invalid'), 'true');
      await focused(series);
      assert.ok((await descriptions(series)).includes(T.badSeries('P O!')));
      assert.equal(puts.length, 0, "l'écran n'a rien envoyé");
      await shot('agence-04-serie-mal-formee');

      // Le serveur refuse la même série avec la même phrase, en nommant le champ.
      const refused = await callApi('PUT', IDENTITY_PATH, { ...original.identity, invoiceSeries: 'p o!' });
      assert.equal(refused.status, 422);
      assert.equal(refused.body.error, `Champ « invoiceSeries » : ${T.badSeries('P O!')}`);
      assert.equal((await stored()).invoiceSeries, DEMO_SERIES.own);
    });

    step('« PE » (l’autre agence) puis « PX » : refusées sous le champ, la série « PO » ne change plus', async () => {
      const series = field(T.series);
      const refusal = T.fixedSeries(DEMO_SERIES.own);
      const shown = refusal.charAt(0).toUpperCase() + refusal.slice(1);
      for (const typed of [DEMO_SERIES.other.toLowerCase(), DEMO_SERIES.free]) {
        const wanted = typed.toUpperCase();
        await series.fill(typed);
        assert.equal(await series.inputValue(), wanted);
        // Le refus précédent disparaît à la saisie.
        assert.equal(await series.getAttribute('aria-invalid'), null);
        puts.length = 0;
        const answered = apiResponse(IDENTITY_PATH, 'PUT');
        await page.getByRole('button', { name: T.save, exact: true }).click();
        const res = await answered;
        assert.equal(res.status(), 422);
        assert.deepEqual(await res.json(), { error: `Champ « invoiceSeries » : ${refusal}` });
        // Envoyée en majuscules.
        assert.equal(puts.at(-1)?.postDataJSON()?.invoiceSeries, wanted);
        await page.getByText(shown, { exact: true }).waitFor();
        assert.equal(await series.getAttribute('aria-invalid'), 'true');
        await focused(series);
        assert.ok((await descriptions(series)).includes(shown), `aria-describedby : ${await descriptions(series)}`);
        // Sous le champ, pas dans l'alerte du formulaire ; rien d'enregistré.
        assert.equal(await page.getByRole('alert').filter({ hasText: refusal }).count(), 0);
        assert.equal(await page.getByText(T.saved, { exact: true }).count(), 0);
        assert.equal((await stored()).invoiceSeries, DEMO_SERIES.own);
        await shot(`agence-05-serie-${wanted.toLowerCase()}-refusee`);
      }

      // Rien n'est enregistré : « PO » relue après rechargement, sans refus.
      await page.reload();
      await screenLoaded();
      assert.equal(await series.inputValue(), DEMO_SERIES.own);
      assert.equal(await series.getAttribute('aria-invalid'), null);
      assert.deepEqual(await stored(), { ...original.identity, phone: newPhone });
    });

    step('un logo choisi est enregistré et montré, puis retiré', async () => {
      const uploaded = apiResponse(LOGO_PATH, 'PUT');
      await page.getByLabel(T.chooseLogo, { exact: true }).setInputFiles(LOGO_FILE);
      assert.equal((await uploaded).status(), 200);
      await page.getByText(T.logoSaved, { exact: true }).waitFor();
      const preview = page.getByRole('img', { name: T.logoAlt, exact: true });
      await preview.waitFor();
      const width = await preview.evaluate(async (img) => {
        await img.decode();
        return img.naturalWidth;
      });
      assert.equal(width, 64);
      const served = await page.evaluate(
        async (url) => (await (await fetch(url)).arrayBuffer()).byteLength,
        LOGO_PATH,
      );
      assert.equal(served, statSync(LOGO_FILE).size);
      await shot('agence-06-logo');

      const removed = apiResponse(LOGO_PATH, 'DELETE');
      await page.getByRole('button', { name: T.removeLogo, exact: true }).click();
      assert.equal((await removed).status(), 200);
      await page.getByText(T.logoRemoved, { exact: true }).waitFor();
      await preview.waitFor({ state: 'detached' });
      assert.equal(await page.getByRole('button', { name: T.removeLogo, exact: true }).count(), 0);
      assert.equal((await callApi('GET', IDENTITY_PATH)).body.logo, null);
      assert.deepEqual(pageErrors, []);
    });

    step("un membre n'a pas « Agence » au menu, et lit l'identité sans la modifier", async () => {
      await signOut();
      await signIn(creds.member);
      const links = (await menu().getByRole('link').allTextContents()).map((s) => s.trim());
      assert.ok(!links.includes(T.agencyMenu), `menu du membre : ${links.join(', ')}`);

      await page.goto(new URL('/agence', baseUrl).href);
      await screenLoaded();
      await page.getByText(T.readOnly, { exact: true }).waitFor();
      assert.equal(await field(T.siret).isDisabled(), true);
      assert.equal(await field(T.phone).isDisabled(), true);
      assert.equal(await field(T.series).isDisabled(), true);
      assert.equal(await field(T.series).inputValue(), DEMO_SERIES.own);
      assert.equal(await page.getByRole('button', { name: T.save, exact: true }).count(), 0);
      assert.equal(await page.getByLabel(T.chooseLogo, { exact: true }).count(), 0);
      await shot('agence-07-membre');

      // Le serveur refuse aussi : 403 avec sa raison en français.
      const refused = await callApi('PUT', IDENTITY_PATH, original.identity);
      assert.equal(refused.status, 403);
      assert.match(refused.body.error, /réservé à un administrateur/);
      assert.deepEqual(pageErrors, []);
    });
  },
);
