// Test de bout en bout de l'écran « Agence », rubrique « Agences », contre un serveur Liftdesk réel
// lancé sur la démo :
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/agencies.test.mjs'
//
// LIFTDESK_URL, LIFTDESK_CREDENTIALS (voir keys.test.mjs ; l'administratrice de la démo est
// claire.durand@ascenseurs-durand.fr, administratrice de l'organisation) ; LIFTDESK_ARTIFACTS :
// dossier des captures (écrites dans <dossier>/ui/) ; LIFTDESK_CHROMIUM : navigateur (défaut
// /usr/bin/chromium).
//
// L'administratrice crée « Agence de Test <suffixe> » (un nom propre à chaque passage : le serveur
// de démo est partagé par les tests), la renomme ; dans cette agence (choisie dans le sélecteur),
// rubrique « Identité », la série de numérotation « pe » (« PE », celle d'« Agence Paris Est ») est
// refusée par le serveur sous le champ, rien n'est enregistré (une agence sans pièce numérotée :
// agency.test.mjs voit l'autre refus, une série figée) ; de retour dans son agence, elle l'archive,
// la voit « Archivée », la réactive ;
// enfin un archivage fait entre-temps par ailleurs est refusé (409) dans la fenêtre de
// confirmation. Les agences de la démo ne sont jamais archivées (la seconde a des comptes qui ne
// travaillent que là). L'agence du test finit archivée (à la fin, au besoin par l'API) : elle
// sort du périmètre des comptes, les autres tests retrouvent les agences de la démo.

import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { describeOnServer } from './harness.mjs';

const STEP_TIMEOUT = 90_000;

const T = {
  menu: 'Menu principal',
  agencyMenu: 'Agence',
  title: 'Agence',
  tabs: "Rubriques de l'agence",
  section: 'Agences',
  identity: 'Identité',
  add: 'Nouvelle agence',
  nameLabel: "Nom de l'agence",
  create: "Créer l'agence",
  rename: 'Renommer',
  renameTitle: (name) => `Renommer l'agence « ${name} »`,
  archive: 'Archiver',
  archiveTitle: (name) => `Archiver l'agence « ${name} » ?`,
  restore: 'Réactiver',
  cancel: 'Annuler',
  current: '(agence active)',
  working: 'En activité',
  archivedOn: (day) => `Archivée le ${day}`,
  // Une agence neuve : ni SIRET, ni adresse, ni n° de TVA (exigé pour émettre toute pièce), ni série.
  incomplete: 'Identité incomplète : SIRET, adresse, n° de TVA intracommunautaire, série de numérotation',
  nameRequired: "Le nom de l'agence est obligatoire.",
  nameTaken: (name) => `Une agence de l'organisation s'appelle déjà « ${name} » : choisissez un autre nom.`,
  created: (name) =>
    `Agence « ${name} » créée. Choisissez-la dans le sélecteur d'agence puis renseignez son identité (SIRET, adresse, n° de TVA intracommunautaire) avant d'émettre des factures.`,
  renamed: (before, after) => `Agence « ${before} » renommée « ${after} ».`,
  archiveWarning:
    "L'agence sortira du périmètre de tous les comptes ; ses clés de centre d'appels et ses abonnements webhook seront révoqués, ses clés partenaires retirées. Son historique est conservé.",
  archived: (name) =>
    `Agence « ${name} » archivée. Elle n'avait ni clé de centre d'appels, ni clé partenaire, ni abonnement webhook actifs. Son historique est conservé.`,
  restored: (name) =>
    `Agence « ${name} » réactivée : elle revient dans le périmètre de ses comptes. Les clés de centre d'appels et les abonnements webhook révoqués à l'archivage restent révoqués, et les clés partenaires ne la servent plus : créez-en de nouveaux si besoin.`,
  alreadyArchived: (name) => `L'agence « ${name} » est déjà archivée.`,
  currentWarning: "C'est l'agence où vous agissez : vous passerez dans une autre de vos agences.",
  moved: (name) => `Vous agissez maintenant dans l'agence « ${name} ».`,
  switcher: 'Agence',
  series: 'Série de numérotation des factures',
  /** La raison du serveur, après « Champ « invoiceSeries » : » ; sous le champ, en phrase (« La… »). */
  seriesTaken: (series, agency) =>
    `la série « ${series} » est déjà celle de l'agence « ${agency} » : chaque agence de l'organisation numérote ses pièces dans sa propre série.`,
};

/** La série de numérotation de la seconde agence de la démo. */
const DEMO_SERIES = { agency: 'Agence Paris Est', series: 'PE' };

/**
 * Une phrase d'un texte de l'écran, où qu'elle soit coupée : le texte d'un composant garde ses
 * retours à la ligne, que les expressions régulières de Playwright ne normalisent pas.
 */
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const phrase = (text) => new RegExp(escapeRegExp(text).replace(/ /g, '\\s+'));

/**
 * Le nom d'une agence en tête de sa ligne : suivi, le cas échéant, de « (agence active) » et de
 * l'avertissement d'identité incomplète, qui font partie de l'en-tête de ligne.
 */
const headedBy = (name) => new RegExp(`^${escapeRegExp(name)}(\\s|$)`);

/** Le jour d'un horodatage, comme l'écran l'affiche (même fuseau que le navigateur). */
const DAY = new Intl.DateTimeFormat('fr-FR', { day: '2-digit', month: '2-digit', year: 'numeric' });

const AGENCIES_PATH = '/app/api/agencies';

describeOnServer(
  'agence : agences de l’organisation',
  { timeout: 10 * STEP_TIMEOUT, stepTimeout: STEP_TIMEOUT, shots: 'agences', accounts: ['admin', 'member'] },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse, signIn, signOut, callApi } = ui;
    const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;

    /** L'agence du test : son identifiant une fois créée, son nom du moment. */
    const testAgency = { id: '', name: `Agence de Test ${stamp}` };
    const renamedTo = `Agence de Test ${stamp} renommée`;

    const menu = () => page.getByRole('navigation', { name: T.menu });
    const tabs = () => page.getByRole('navigation', { name: T.tabs });
    const table = () => page.locator('main table');
    const rowOf = (name) =>
      table()
        .locator('tbody tr')
        .filter({ has: page.getByRole('rowheader', { name: headedBy(name) }) });
    const testRow = () => table().locator(`tbody tr[data-id="${testAgency.id}"]`);
    /** Le message de la dernière action (visible ; son double pour les lecteurs d'écran est caché). */
    const notice = () => page.locator('main p.notice');
    /** Les agences du sélecteur de l'en-tête. */
    const switcherNames = async () =>
      (await page.getByRole('banner').getByLabel(T.switcher, { exact: true }).locator('option').allTextContents()).map(
        (s) => s.trim(),
      );

    /** Attend la session relue après une action (le sélecteur de l'en-tête suit). */
    const sessionReread = () => apiResponse('/app/api/session', 'GET');

    before(() => {
      ({ page, creds } = ui);
      assert.ok(
        Array.isArray(creds.agencies) && creds.agencies.length >= 2 && creds.agencies.every((a) => a?.id && a.name),
        'LIFTDESK_CREDENTIALS : deux agences attendues',
      );
    });

    after(async () => {
      // L'agence du test ne reste pas en activité (un échec en chemin) : archivée par l'API, avec
      // une nouvelle connexion de l'administratrice (la session de la page peut être celle du membre).
      if (page && creds) {
        await page
          .evaluate(
            async ({ admin, prefix }) => {
              const response = await fetch('/app/api/session', {
                method: 'POST',
                headers: { 'Content-Type': 'application/json' },
                body: JSON.stringify({ email: admin.email, password: admin.password }),
              });
              const session = await response.json();
              const headers = { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken };
              const answer = await (await fetch('/app/api/agencies')).json();
              for (const agency of answer.agencies ?? []) {
                if (agency.name.startsWith(prefix) && agency.archivedAt === null) {
                  await fetch(`/app/api/agencies/${encodeURIComponent(agency.id)}/archive`, { method: 'POST', headers });
                }
              }
            },
            { admin: creds.admin, prefix: testAgency.name },
          )
          .catch(() => {});
      }
    });

    /** L'agence active de l'administratrice (lue à la connexion). */
    let active;

    step("l'administratrice ouvre Agence › Agences : les agences de la démo", async () => {
      const session = await signIn(creds.admin);
      assert.equal(session.account.role, 'org_admin');
      active = session.agency;
      assert.ok(active, "l'administratrice agit dans une agence");

      await menu().getByRole('link', { name: T.agencyMenu, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: T.title, exact: true }).waitFor();
      const read = apiResponse(AGENCIES_PATH, 'GET');
      await tabs().getByRole('link', { name: T.section, exact: true }).click();
      const res = await read;
      assert.equal(res.status(), 200);
      const answer = await res.json();
      assert.equal(answer.canCreate, true);
      await page.getByRole('heading', { level: 2, name: T.section, exact: true }).waitFor();
      await table().waitFor();
      assert.equal(new URL(page.url()).pathname, '/agence/agences');

      for (const agency of creds.agencies) {
        const row = rowOf(agency.name);
        await row.getByText(T.working, { exact: true }).waitFor();
        await row.getByRole('button', { name: `${T.rename} « ${agency.name} »`, exact: true }).waitFor();
        await row.getByRole('button', { name: `${T.archive} « ${agency.name} »`, exact: true }).waitFor();
        // L'identité de la démo est complète : pas d'avertissement.
        assert.equal(await row.getByText(T.incomplete, { exact: true }).count(), 0);
        assert.equal(await row.getByText(T.current, { exact: true }).count(), agency.id === active.id ? 1 : 0);
      }
      await page.getByRole('button', { name: T.add, exact: true }).waitFor();
      await shot('agences-01-liste');
    });

    step('« Nouvelle agence » : le nom vérifié avant l’envoi, un nom déjà pris refusé dans la fenêtre', async () => {
      await page.getByRole('button', { name: T.add, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: T.add });
      await dialog.waitFor();
      const input = dialog.getByLabel(T.nameLabel, { exact: true });
      assert.equal(await input.inputValue(), '');

      await dialog.getByRole('button', { name: T.create, exact: true }).click();
      await dialog.getByText(T.nameRequired, { exact: true }).waitFor();
      assert.equal(await input.getAttribute('aria-invalid'), 'true');

      // Le nom d'une agence de la démo : 409, la raison du serveur telle quelle, la saisie gardée.
      const taken = creds.agencies[1].name;
      await input.fill(taken);
      const refused = apiResponse(AGENCIES_PATH, 'POST');
      await dialog.getByRole('button', { name: T.create, exact: true }).click();
      assert.equal((await refused).status(), 409);
      await dialog.getByRole('alert').filter({ hasText: T.nameTaken(taken) }).waitFor();
      assert.equal(await input.inputValue(), taken);
      assert.equal(await input.getAttribute('aria-invalid'), 'true');
      await shot('agences-02-nom-pris');
    });

    step('l’agence du test est créée : identité incomplète, proposée dans le sélecteur d’agence', async () => {
      const dialog = page.getByRole('dialog', { name: T.add });
      await dialog.getByLabel(T.nameLabel, { exact: true }).fill(`  ${testAgency.name} `);
      const created = apiResponse(AGENCIES_PATH, 'POST');
      const reread = sessionReread();
      await dialog.getByRole('button', { name: T.create, exact: true }).click();
      const res = await created;
      assert.equal(res.status(), 201);
      const agency = await res.json();
      assert.equal(agency.name, testAgency.name);
      assert.equal(agency.archivedAt, null);
      assert.equal(agency.current, false);
      // L'adresse en parties : la rue, le code postal et la ville manquent chacun (l'écran dit « adresse ») ;
      // l'organisation a plusieurs agences : la série de numérotation manque aussi.
      // Le n° de TVA intracommunautaire est exigé pour émettre toute pièce (facturation électronique).
      assert.deepEqual(agency.missingToIssue, ['siret', 'address', 'postalCode', 'city', 'vatNumber', 'invoiceSeries']);
      testAgency.id = agency.id;
      await dialog.waitFor({ state: 'hidden' });

      await notice().filter({ hasText: T.created(testAgency.name) }).waitFor();
      assert.equal((await reread).status(), 200);
      const row = testRow();
      await row.getByRole('rowheader', { name: headedBy(testAgency.name) }).waitFor();
      await row.getByText(T.working, { exact: true }).waitFor();
      await row.getByText(T.incomplete, { exact: true }).waitFor();
      assert.equal(await row.getByText(T.current, { exact: true }).count(), 0);
      await page.waitForFunction(
        (name) => [...document.querySelectorAll('header select option')].some((o) => o.textContent?.trim() === name),
        testAgency.name,
      );
      assert.ok((await switcherNames()).includes(testAgency.name));
      await shot('agences-03-creee');
      assert.deepEqual(pageErrors, []);
    });

    step('« Renommer » : le nouveau nom, dans la liste et le sélecteur d’agence', async () => {
      const before = testAgency.name;
      await testRow().getByRole('button', { name: `${T.rename} « ${before} »`, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: T.renameTitle(before) });
      await dialog.waitFor();
      const input = dialog.getByLabel(T.nameLabel, { exact: true });
      assert.equal(await input.inputValue(), before);
      await input.fill(renamedTo);
      const renamed = apiResponse(`${AGENCIES_PATH}/${testAgency.id}`, 'PATCH');
      const reread = sessionReread();
      await dialog.getByRole('button', { name: T.rename, exact: true }).click();
      const res = await renamed;
      assert.equal(res.status(), 200);
      assert.equal((await res.json()).name, renamedTo);
      testAgency.name = renamedTo;
      await dialog.waitFor({ state: 'hidden' });

      await notice().filter({ hasText: T.renamed(before, renamedTo) }).waitFor();
      assert.equal((await reread).status(), 200);
      await testRow().getByRole('rowheader', { name: headedBy(renamedTo) }).waitFor();
      await page.waitForFunction(
        (name) => [...document.querySelectorAll('header select option')].some((o) => o.textContent?.trim() === name),
        renamedTo,
      );
      const names = await switcherNames();
      assert.ok(names.includes(renamedTo));
      assert.ok(!names.includes(before));
      await shot('agences-04-renommee');
    });

    step('dans l’agence du test, la série « PE » d’« Agence Paris Est » est refusée sous le champ', async () => {
      assert.ok(
        creds.agencies.some((a) => a.name === DEMO_SERIES.agency),
        `LIFTDESK_CREDENTIALS : l'agence « ${DEMO_SERIES.agency} » de la démo`,
      );
      const switcher = page.getByRole('banner').getByLabel(T.switcher, { exact: true });
      let switched = apiResponse('/app/api/session/agency', 'PUT');
      await switcher.selectOption(testAgency.id);
      assert.equal((await switched).status(), 200);
      await testRow().getByText(T.current, { exact: true }).waitFor();
      const read = apiResponse('/app/api/agency/identity', 'GET');
      await tabs().getByRole('link', { name: T.identity, exact: true }).click();
      const identity = await (await read).json();
      assert.equal(identity.agencyName, testAgency.name);
      assert.equal(identity.identity.invoiceSeries, null);
      await page.getByTestId('agency-name').filter({ hasText: testAgency.name }).waitFor();

      const series = page.getByLabel(T.series, { exact: true });
      assert.equal(await series.inputValue(), '');
      await series.fill(DEMO_SERIES.series.toLowerCase());
      assert.equal(await series.inputValue(), DEMO_SERIES.series);
      const refusal = T.seriesTaken(DEMO_SERIES.series, DEMO_SERIES.agency);
      const answered = apiResponse('/app/api/agency/identity', 'PUT');
      await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      const res = await answered;
      assert.equal(res.status(), 422);
      assert.deepEqual(await res.json(), { error: `Champ « invoiceSeries » : ${refusal}` });
      const shown = refusal.charAt(0).toUpperCase() + refusal.slice(1);
      await page.getByText(shown, { exact: true }).waitFor();
      assert.equal(await series.getAttribute('aria-invalid'), 'true');
      // Le champ refusé reçoit le focus ; le refus est sous lui, pas dans l'alerte du formulaire.
      const handle = await series.elementHandle();
      await page.waitForFunction((el) => el === document.activeElement, handle);
      assert.equal(await page.getByRole('alert').filter({ hasText: refusal }).count(), 0);
      const now = await callApi('GET', '/app/api/agency/identity');
      assert.equal(now.status, 200);
      assert.equal(now.body.agencyName, testAgency.name);
      assert.equal(now.body.identity.invoiceSeries, null, 'rien n’est enregistré');
      await shot('agences-04b-serie-prise');

      // De retour dans l'agence de départ, rubrique « Agences ».
      switched = apiResponse('/app/api/session/agency', 'PUT');
      await switcher.selectOption(active.id);
      assert.equal((await switched).status(), 200);
      await page.getByTestId('agency-name').filter({ hasText: active.name }).waitFor();
      const list = apiResponse(AGENCIES_PATH, 'GET');
      await tabs().getByRole('link', { name: T.section, exact: true }).click();
      assert.equal((await list).status(), 200);
      await rowOf(active.name).getByText(T.current, { exact: true }).waitFor();
      assert.deepEqual(pageErrors, []);
    });

    step('« Archiver » après confirmation : « Archivée le … », retirée du sélecteur d’agence', async () => {
      const name = testAgency.name;
      await testRow().getByRole('button', { name: `${T.archive} « ${name} »`, exact: true }).click();
      const confirm = page.getByRole('dialog', { name: T.archiveTitle(name) });
      await confirm.waitFor();
      await confirm.getByText(phrase(T.archiveWarning)).waitFor();
      await shot('agences-05-confirmation');

      const archived = apiResponse(`${AGENCIES_PATH}/${testAgency.id}/archive`, 'POST');
      const reread = sessionReread();
      await confirm.getByRole('button', { name: T.archive, exact: true }).click();
      const res = await archived;
      assert.equal(res.status(), 200);
      const answer = await res.json();
      assert.deepEqual(answer.stopped, { callCenterKeys: 0, partnerKeys: 0, webhookSubscriptions: 0 });
      assert.ok(answer.agency.archivedAt);
      await confirm.waitFor({ state: 'hidden' });

      await notice().filter({ hasText: T.archived(name) }).waitFor();
      assert.equal((await reread).status(), 200);
      const row = testRow();
      await row.getByText(T.archivedOn(DAY.format(new Date(answer.agency.archivedAt))), { exact: true }).waitFor();
      await row.getByRole('button', { name: `${T.restore} « ${name} »`, exact: true }).waitFor();
      assert.equal(await row.getByRole('button', { name: new RegExp(`^${T.rename}`) }).count(), 0);
      assert.equal(await row.getByRole('button', { name: new RegExp(`^${T.archive}`) }).count(), 0);
      await page.waitForFunction(
        (name) => ![...document.querySelectorAll('header select option')].some((o) => o.textContent?.trim() === name),
        name,
      );
      // Les agences de la démo restent en activité.
      for (const agency of creds.agencies) {
        assert.ok((await switcherNames()).includes(agency.name), `${agency.name} absente du sélecteur`);
      }
      await shot('agences-06-archivee');
      assert.deepEqual(pageErrors, []);
    });

    step('« Réactiver » : de nouveau en activité et dans le sélecteur d’agence', async () => {
      const name = testAgency.name;
      const restored = apiResponse(`${AGENCIES_PATH}/${testAgency.id}/restore`, 'POST');
      const reread = sessionReread();
      await testRow().getByRole('button', { name: `${T.restore} « ${name} »`, exact: true }).click();
      const res = await restored;
      assert.equal(res.status(), 200);
      assert.equal((await res.json()).archivedAt, null);
      await notice().filter({ hasText: T.restored(name) }).waitFor();
      assert.equal((await reread).status(), 200);

      const row = testRow();
      await row.getByText(T.working, { exact: true }).waitFor();
      await row.getByRole('button', { name: `${T.archive} « ${name} »`, exact: true }).waitFor();
      await row.getByRole('button', { name: `${T.rename} « ${name} »`, exact: true }).waitFor();
      await page.waitForFunction(
        (name) => [...document.querySelectorAll('header select option')].some((o) => o.textContent?.trim() === name),
        name,
      );
      await shot('agences-07-reactivee');
    });

    step("l'agence active archivée : la session passe dans une autre agence, le message le dit", async () => {
      const name = testAgency.name;
      const switcher = page.getByRole('banner').getByLabel(T.switcher, { exact: true });
      // Choisie dans le sélecteur : l'écran est rechargé dans la nouvelle agence, même rubrique.
      const switched = apiResponse('/app/api/session/agency', 'PUT');
      const read = apiResponse(AGENCIES_PATH, 'GET');
      await switcher.selectOption(testAgency.id);
      assert.equal((await switched).status(), 200);
      assert.equal((await read).status(), 200);
      assert.equal(new URL(page.url()).pathname, '/agence/agences');
      await testRow().getByText(T.current, { exact: true }).waitFor();

      await testRow().getByRole('button', { name: `${T.archive} « ${name} »`, exact: true }).click();
      const confirm = page.getByRole('dialog', { name: T.archiveTitle(name) });
      await confirm.waitFor();
      await confirm.getByText(phrase(T.currentWarning)).waitFor();
      const archived = apiResponse(`${AGENCIES_PATH}/${testAgency.id}/archive`, 'POST');
      const reread = sessionReread();
      await confirm.getByRole('button', { name: T.archive, exact: true }).click();
      const res = await archived;
      assert.equal(res.status(), 200);
      assert.equal((await res.json()).agency.current, true);
      const session = await (await reread).json();
      const moved = session.agency;
      assert.ok(moved && moved.id !== testAgency.id, 'la session agit encore dans l’agence archivée');
      assert.ok(!session.agencies.some((a) => a.id === testAgency.id));

      // L'écran rechargé dans l'autre agence reprend le message de l'archivage.
      await notice().filter({ hasText: `${T.archived(name)} ${T.moved(moved.name)}` }).waitFor();
      await page.waitForFunction((id) => document.querySelector('header select')?.value === id, moved.id);
      const row = testRow();
      await row.getByRole('button', { name: `${T.restore} « ${name} »`, exact: true }).waitFor();
      assert.equal(await row.getByText(T.current, { exact: true }).count(), 0);
      await rowOf(moved.name).getByText(T.current, { exact: true }).waitFor();
      await shot('agences-08-active-archivee');
      assert.deepEqual(pageErrors, []);
    });

    step('réactivée puis archivée par ailleurs : le refus du serveur dans la fenêtre de confirmation', async () => {
      const name = testAgency.name;
      const restored = apiResponse(`${AGENCIES_PATH}/${testAgency.id}/restore`, 'POST');
      await testRow().getByRole('button', { name: `${T.restore} « ${name} »`, exact: true }).click();
      assert.equal((await restored).status(), 200);
      await notice().filter({ hasText: T.restored(name) }).waitFor();
      await testRow().getByText(T.working, { exact: true }).waitFor();

      await testRow().getByRole('button', { name: `${T.archive} « ${name} »`, exact: true }).click();
      const confirm = page.getByRole('dialog', { name: T.archiveTitle(name) });
      await confirm.waitFor();
      // Archivée entre-temps par ailleurs (un autre administrateur) : 409.
      const elsewhere = await callApi('POST', `${AGENCIES_PATH}/${testAgency.id}/archive`);
      assert.equal(elsewhere.status, 200);

      const refused = apiResponse(`${AGENCIES_PATH}/${testAgency.id}/archive`, 'POST');
      await confirm.getByRole('button', { name: T.archive, exact: true }).click();
      assert.equal((await refused).status(), 409);
      await confirm.getByRole('alert').filter({ hasText: T.alreadyArchived(name) }).waitFor();
      await shot('agences-09-refus');
      await confirm.getByRole('button', { name: T.cancel, exact: true }).click();
      await confirm.waitFor({ state: 'hidden' });

      // Relue, la liste la montre archivée.
      const read = apiResponse(AGENCIES_PATH, 'GET');
      await page.reload();
      assert.equal((await read).status(), 200);
      await testRow().getByRole('button', { name: `${T.restore} « ${name} »`, exact: true }).waitFor();
      assert.deepEqual(pageErrors, []);
    });

    step("un membre n'a pas l'onglet « Agences », et le serveur lui refuse la liste", async () => {
      await signOut();
      await signIn(creds.member);
      await page.goto(new URL('/agence/agences', baseUrl).href);
      await page.getByRole('heading', { level: 2, name: T.identity, exact: true }).waitFor();
      const labels = (await tabs().getByRole('link').allTextContents()).map((s) => s.trim());
      assert.deepEqual(labels, [T.identity]);
      const refused = await callApi('GET', AGENCIES_PATH);
      assert.equal(refused.status, 403);
      assert.match(refused.body.error, /réservé à un administrateur/);
      await shot('agences-10-membre');
      assert.deepEqual(pageErrors, []);
    });
  },
);
