// Test de bout en bout de l'écran « Agence », rubrique « Personnes », et du changement de mot de
// passe imposé à un compte au mot de passe provisoire, contre un serveur Liftdesk réel lancé sur
// la démo :
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/people.test.mjs'
//
// LIFTDESK_URL, LIFTDESK_CREDENTIALS (voir keys.test.mjs ; l'administratrice de la démo est
// claire.durand@ascenseurs-durand.fr, administratrice de l'organisation) ; LIFTDESK_ARTIFACTS :
// dossier des captures (écrites dans <dossier>/ui/) ; LIFTDESK_CHROMIUM : navigateur (défaut
// /usr/bin/chromium).
//
// Le test ajoute « Paul Colin » (une adresse e-mail propre à chaque passage), membre de l'agence
// active de l'administratrice ; Paul choisit son mot de passe à sa première connexion ; puis
// l'administratrice change sa fonction, réinitialise son mot de passe, le désactive et le
// réactive. Il ne touche à aucun compte de la démo : le compte de Paul reste (actif, au mot de
// passe provisoire), sans agence ni rôle partagés avec les autres tests.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describeOnServer } from './harness.mjs';

const STEP_TIMEOUT = 90_000;

const T = {
  menu: 'Menu principal',
  agencyMenu: 'Agence',
  tabs: "Rubriques de l'agence",
  section: 'Personnes',
  add: 'Ajouter une personne',
  create: 'Créer le compte',
  save: 'Enregistrer',
  closeSecret: "J'ai copié, fermer",
  once: 'Copiez-le maintenant : il ne sera plus affiché.',
  secretLabel: 'Mot de passe provisoire',
  handOver: (name) =>
    `Transmettez ce mot de passe provisoire à ${name} : il ne sera plus affiché. À sa première connexion, il choisira le sien.`,
  nameRequired: 'Le nom est obligatoire.',
  badEmail: (email) => `L'adresse e-mail « ${email} » n'est pas valide.`,
  emailTaken: (email) => `L'adresse e-mail « ${email} » est déjà utilisée par un autre compte.`,
  member: 'Membre',
  orgAdmin: "Administrateur de l'organisation",
  active: 'Actif',
  inactive: 'Désactivé',
  temporary: 'Mot de passe provisoire',
  surveys: 'Relevés',
  forcedBanner: 'Votre mot de passe est provisoire : choisissez le vôtre pour continuer.',
  mustChange:
    "Choisissez d'abord votre propre mot de passe (écran « Mon compte ») : celui que vous avez reçu est provisoire.",
  current: 'Mot de passe actuel',
  next: 'Nouveau mot de passe (8 caractères au moins)',
  confirm: 'Nouveau mot de passe, une seconde fois',
  choose: 'Choisir ce mot de passe',
  welcome: (name) => `Bienvenue, ${name}`,
  wrongCredentials: 'Adresse e-mail ou mot de passe incorrect.',
  signIn: 'Se connecter',
};

/**
 * Une phrase d'un texte de l'écran, où qu'elle soit coupée : le texte d'un composant garde ses
 * retours à la ligne, que les expressions régulières de Playwright ne normalisent pas.
 */
const phrase = (text) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));

/** Un mot de passe provisoire : 16 lettres et chiffres en quatre groupes. */
const TEMPORARY = /^[A-Za-z0-9]{4}(-[A-Za-z0-9]{4}){3}$/;

const PEOPLE_PATH = '/app/api/people';

describeOnServer(
  'agence : personnes, mot de passe provisoire',
  { timeout: 12 * STEP_TIMEOUT, stepTimeout: STEP_TIMEOUT, shots: 'personnes' },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse, signIn, signOut, callApi } = ui;
    const stamp = Date.now().toString(36);
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;

    const paul = {
      name: 'Paul Colin',
      email: `paul.colin.${stamp}@ascenseurs-durand.fr`,
      /** Le mot de passe provisoire en vigueur. */
      temporary: '',
      chosen: `paul-${stamp}-choisi`,
      position: 'Technicien de maintenance',
    };
    /** L'agence active de l'administratrice : celle de Paul. */
    let agency;

    const menu = () => page.getByRole('navigation', { name: T.menu });
    /** Les lignes de la liste des personnes ; celle d'une personne par son adresse e-mail (unique). */
    const peopleTable = () => page.locator('main table');
    const rowOf = (text) => peopleTable().locator('tbody tr').filter({ hasText: text });
    const paulRow = () => rowOf(paul.email);

    /** Agence › Personnes, par le menu puis l'onglet ; la liste lue. */
    async function openPeople() {
      await menu().getByRole('link', { name: T.agencyMenu, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Agence', exact: true }).waitFor();
      const read = apiResponse(PEOPLE_PATH, 'GET');
      await page
        .getByRole('navigation', { name: T.tabs })
        .getByRole('link', { name: T.section, exact: true })
        .click();
      assert.equal((await read).status(), 200);
      await page.getByRole('heading', { level: 2, name: T.section, exact: true }).waitFor();
      await peopleTable().waitFor();
      assert.equal(new URL(page.url()).pathname, '/agence/personnes');
    }

    /** Le mot de passe provisoire montré une fois : lu, puis la fenêtre fermée (il quitte la page). */
    async function readTemporaryPassword(answer) {
      const dialog = page.getByRole('dialog', { name: `Mot de passe provisoire de ${paul.name}` });
      await dialog.waitFor();
      await dialog.getByText(T.once, { exact: true }).waitFor();
      await dialog.getByText(T.handOver(paul.name), { exact: true }).waitFor();
      const shown = await dialog.getByLabel(T.secretLabel, { exact: true }).inputValue();
      assert.match(shown, TEMPORARY);
      assert.equal(shown, answer.temporaryPassword);
      return { dialog, shown };
    }

    async function closeSecret(dialog, secret) {
      await dialog.getByRole('button', { name: T.closeSecret, exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      assert.equal((await page.content()).includes(secret), false, 'le mot de passe provisoire reste dans la page');
    }

    /** Une connexion refusée ou acceptée dans un autre navigateur (la session de l'administratrice reste). */
    async function withOtherBrowser(fn) {
      const other = await ui.newPage();
      try {
        await fn(other);
      } finally {
        await other.context().close();
      }
    }

    before(() => {
      ({ page, creds } = ui);
      assert.ok(creds?.member?.email, 'LIFTDESK_CREDENTIALS : member.email requis');
      assert.ok(Array.isArray(creds.agencies) && creds.agencies[0]?.id, 'LIFTDESK_CREDENTIALS : agences manquantes');
    });

    step("l'administratrice ouvre Agence › Personnes : les comptes de la démo", async () => {
      const session = await signIn(creds.admin);
      assert.equal(session.account.role, 'org_admin');
      agency = session.agency;
      assert.equal(agency?.id, creds.agencies[0].id, "l'administratrice agit d'abord dans la première agence");
      await openPeople();

      for (const name of ['Claire Durand', 'Sophie Martin', 'Julien Roux']) {
        await rowOf(name).first().waitFor();
      }
      // Son propre compte : « Modifier » seul (ni désactivation ni réinitialisation).
      const claire = rowOf(creds.admin.email);
      await claire.getByText(T.orgAdmin, { exact: true }).waitFor();
      await claire.getByRole('button', { name: 'Modifier « Claire Durand »', exact: true }).waitFor();
      assert.equal(await claire.getByRole('button', { name: /^Désactiver/ }).count(), 0);
      assert.equal(await claire.getByRole('button', { name: /^Réinitialiser/ }).count(), 0);
      // Le releveur de la démo réalise des relevés ; la membre est active.
      await rowOf('Julien Roux').getByText(T.surveys, { exact: true }).waitFor();
      const sophie = rowOf(creds.member.email);
      await sophie.getByText(T.member, { exact: true }).waitFor();
      await sophie.getByText(T.active, { exact: true }).waitFor();
      await sophie.getByRole('button', { name: 'Désactiver « Sophie Martin »', exact: true }).waitFor();
      await shot('personnes-01-liste');
    });

    step("« Ajouter une personne » : vérifié avant l'envoi, le refus du serveur dans la fenêtre", async () => {
      await page.getByRole('button', { name: T.add, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: T.add });
      await dialog.waitFor();
      // Administratrice de l'organisation : elle peut en nommer d'autres.
      const roles = (await dialog.getByLabel('Rôle', { exact: true }).locator('option').allTextContents()).map((s) =>
        s.trim(),
      );
      assert.deepEqual(roles, [T.orgAdmin, "Administrateur d'agence", T.member]);
      assert.equal(await dialog.getByLabel('Rôle', { exact: true }).inputValue(), 'member');
      // L'agence active est cochée d'emblée.
      assert.equal(await dialog.getByLabel(agency.name, { exact: true }).isChecked(), true);

      await dialog.getByRole('button', { name: T.create, exact: true }).click();
      await dialog.getByText(T.nameRequired, { exact: true }).waitFor();
      assert.equal(await dialog.getByLabel('Nom', { exact: true }).getAttribute('aria-invalid'), 'true');

      await dialog.getByLabel('Nom', { exact: true }).fill(paul.name);
      await dialog.getByLabel('E-mail', { exact: true }).fill('paul.colin');
      await dialog.getByRole('button', { name: T.create, exact: true }).click();
      await dialog.getByText(T.badEmail('paul.colin'), { exact: true }).waitFor();

      // Une adresse déjà prise : 409, la raison du serveur telle quelle, la saisie gardée.
      await dialog.getByLabel('E-mail', { exact: true }).fill(creds.member.email);
      const refused = apiResponse(PEOPLE_PATH, 'POST');
      await dialog.getByRole('button', { name: T.create, exact: true }).click();
      assert.equal((await refused).status(), 409);
      await dialog.getByRole('alert').filter({ hasText: T.emailTaken(creds.member.email) }).waitFor();
      assert.equal(await dialog.getByLabel('Nom', { exact: true }).inputValue(), paul.name);
      await shot('personnes-02-adresse-prise');
    });

    step('Paul Colin est ajouté, membre de la première agence : son mot de passe provisoire montré une fois', async () => {
      const dialog = page.getByRole('dialog', { name: T.add });
      await dialog.getByLabel('E-mail', { exact: true }).fill(paul.email);
      await dialog.getByLabel('Rôle', { exact: true }).selectOption('member');
      for (const other of creds.agencies) {
        const box = dialog.getByLabel(other.name, { exact: true });
        if (other.id === agency.id) await box.check();
        else if ((await box.count()) > 0) await box.uncheck();
      }
      const created = apiResponse(PEOPLE_PATH, 'POST');
      await dialog.getByRole('button', { name: T.create, exact: true }).click();
      const res = await created;
      assert.equal(res.status(), 201);
      const answer = await res.json();
      assert.equal(answer.person.email, paul.email);
      assert.equal(answer.person.mustChangePassword, true);
      assert.deepEqual(
        answer.person.agencies.map((a) => a.id),
        [agency.id],
      );
      await dialog.waitFor({ state: 'hidden' });

      const { dialog: secret, shown } = await readTemporaryPassword(answer);
      paul.temporary = shown;
      await shot('personnes-03-mot-de-passe-provisoire');
      await closeSecret(secret, shown);

      const row = paulRow();
      await row.waitFor();
      await row.getByText(T.member, { exact: true }).waitFor();
      await row.getByText(agency.name, { exact: true }).waitFor();
      await row.getByText(T.temporary, { exact: true }).waitFor();
      assert.deepEqual(pageErrors, []);
    });

    step('Paul se connecte avec le mot de passe provisoire : il choisit le sien, puis arrive à l’accueil', async () => {
      await signOut();
      const refusals = [];
      const watch = (response) => {
        const pathname = new URL(response.url()).pathname;
        if (pathname.startsWith('/app/api/') && response.status() === 403) refusals.push(pathname);
      };
      page.on('response', watch);

      const session = await signIn({ email: paul.email, password: paul.temporary });
      assert.equal(session.account.mustChangePassword, true);
      await page.getByText(T.forcedBanner, { exact: true }).waitFor();
      await page.getByRole('heading', { level: 1, name: 'Mon compte', exact: true }).waitFor();
      // Rien d'autre que le changement de mot de passe : ni menu, ni autre écran.
      assert.equal(await menu().count(), 0);
      await shot('personnes-04-mot-de-passe-impose');

      // Le serveur refuse d'ailleurs le reste, avec sa raison.
      const elsewhere = '/app/api/agency/identity';
      const refused = await callApi('GET', elsewhere);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error, T.mustChange);

      await page.getByLabel(T.current, { exact: true }).fill(paul.temporary);
      await page.getByLabel(T.next, { exact: true }).fill(paul.chosen);
      await page.getByLabel(T.confirm, { exact: true }).fill(paul.chosen);
      const changed = apiResponse('/app/api/account/password', 'POST');
      const reread = apiResponse('/app/api/session', 'GET');
      await page.getByRole('button', { name: T.choose, exact: true }).click();
      assert.equal((await changed).status(), 200);
      const again = await reread;
      assert.equal(again.status(), 200);
      assert.equal((await again.json()).account.mustChangePassword, false);

      await page.getByRole('heading', { level: 1, name: T.welcome(paul.name), exact: true }).waitFor();
      await menu().getByRole('link', { name: 'Mon compte', exact: true }).waitFor();
      await shot('personnes-05-accueil-de-paul');
      page.off('response', watch);
      // L'écran imposé n'a appelé aucune API refusée (veille des appels, tableau de bord…) : seul
      // l'appel fait exprès ci-dessus l'a été.
      assert.deepEqual(
        refusals.filter((pathname) => pathname !== elsewhere),
        [],
      );
      assert.deepEqual(pageErrors, []);
    });

    step("l'administratrice change la fonction de Paul", async () => {
      await signOut();
      await signIn(creds.admin);
      await openPeople();
      const row = paulRow();
      await row.getByText(T.active, { exact: true }).waitFor();

      await row.getByRole('button', { name: `Modifier « ${paul.name} »`, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Modifier le compte de ${paul.name}` });
      await dialog.waitFor();
      // L'adresse ne se change pas ; pas de case « technicien » à la modification.
      const email = dialog.getByLabel('E-mail', { exact: true });
      assert.equal(await email.inputValue(), paul.email);
      assert.equal(await email.isEditable(), false);
      assert.equal(await dialog.getByLabel('Est aussi technicien', { exact: true }).count(), 0);

      await dialog.getByLabel('Fonction', { exact: true }).fill(paul.position);
      const saved = apiResponse(`${PEOPLE_PATH}/${(await row.getAttribute('data-id')) ?? ''}`, 'PATCH');
      await dialog.getByRole('button', { name: T.save, exact: true }).click();
      const res = await saved;
      assert.equal(res.status(), 200);
      assert.equal((await res.json()).position, paul.position);
      await dialog.waitFor({ state: 'hidden' });
      await row.getByText(paul.position, { exact: true }).waitFor();
      await shot('personnes-06-fonction');
    });

    step('réinitialisé après confirmation : un nouveau mot de passe provisoire, montré une fois', async () => {
      const row = paulRow();
      const id = await row.getAttribute('data-id');
      await row.getByRole('button', { name: `Réinitialiser le mot de passe de « ${paul.name} »`, exact: true }).click();
      const confirm = page.getByRole('dialog', { name: `Réinitialiser le mot de passe de ${paul.name} ?` });
      await confirm.waitFor();
      await confirm.getByText(phrase("Ses sessions ouvertes et ses jetons d'API prennent fin aussitôt.")).waitFor();
      const reset = apiResponse(`${PEOPLE_PATH}/${id}/password-reset`, 'POST');
      await confirm.getByRole('button', { name: 'Réinitialiser', exact: true }).click();
      const res = await reset;
      assert.equal(res.status(), 200);
      const answer = await res.json();
      await confirm.waitFor({ state: 'hidden' });

      const { dialog, shown } = await readTemporaryPassword(answer);
      assert.notEqual(shown, paul.temporary);
      paul.temporary = shown;
      await shot('personnes-07-reinitialise');
      await closeSecret(dialog, shown);
      await row.getByText(T.temporary, { exact: true }).waitFor();
    });

    step('désactivé après confirmation : Paul ne peut plus se connecter', async () => {
      const row = paulRow();
      const id = await row.getAttribute('data-id');
      await row.getByRole('button', { name: `Désactiver « ${paul.name} »`, exact: true }).click();
      const confirm = page.getByRole('dialog', { name: `Désactiver le compte de ${paul.name} ?` });
      await confirm.waitFor();
      await confirm
        .getByText(phrase("ne pourra plus se connecter : ses sessions ouvertes et ses jetons d'API prennent fin aussitôt."))
        .waitFor();
      await confirm.getByText(phrase('Son historique (interventions, relevés, journal des actions) est conservé.')).waitFor();
      await shot('personnes-08-confirmation-desactivation');
      const deactivated = apiResponse(`${PEOPLE_PATH}/${id}/deactivate`, 'POST');
      await confirm.getByRole('button', { name: 'Désactiver', exact: true }).click();
      const res = await deactivated;
      assert.equal(res.status(), 200);
      assert.equal((await res.json()).active, false);
      await confirm.waitFor({ state: 'hidden' });
      await row.getByText(T.inactive, { exact: true }).waitFor();
      await row.getByRole('button', { name: `Réactiver « ${paul.name} »`, exact: true }).waitFor();
      assert.equal(await row.getByRole('button', { name: /^Réinitialiser/ }).count(), 0);

      await withOtherBrowser(async (other) => {
        await other.goto(baseUrl);
        await other.getByLabel('Adresse e-mail', { exact: true }).fill(paul.email);
        await other.getByLabel('Mot de passe', { exact: true }).fill(paul.temporary);
        const refused = apiResponse('/app/api/session', 'POST', { page: other });
        await other.getByRole('button', { name: T.signIn, exact: true }).click();
        assert.equal((await refused).status(), 401);
        await other.getByText(T.wrongCredentials, { exact: true }).waitFor();
      });
    });

    step('réactivé : Paul se connecte de nouveau, et choisit encore son mot de passe', async () => {
      const row = paulRow();
      const id = await row.getAttribute('data-id');
      const reactivated = apiResponse(`${PEOPLE_PATH}/${id}/reactivate`, 'POST');
      await row.getByRole('button', { name: `Réactiver « ${paul.name} »`, exact: true }).click();
      const res = await reactivated;
      assert.equal(res.status(), 200);
      assert.equal((await res.json()).active, true);
      // Réactivé avec le mot de passe provisoire de la réinitialisation.
      await row.getByText(T.temporary, { exact: true }).waitFor();
      await row.getByRole('button', { name: `Désactiver « ${paul.name} »`, exact: true }).waitFor();
      await shot('personnes-09-reactive');

      await withOtherBrowser(async (other) => {
        await signIn({ email: paul.email, password: paul.temporary }, { page: other });
        await other.getByText(T.forcedBanner, { exact: true }).waitFor();
      });
      assert.deepEqual(pageErrors, []);
    });
  },
);
