// Test de bout en bout des adresses de l'agence en parties (écran « Agence », rubrique
// « Identité »), contre un serveur Liftdesk réel lancé sur la démonstration (voir
// login.test.mjs pour les variables) : en administrateur, dans la seconde agence de la démo
// (« Agence Paris Est », choisie dans le sélecteur d'agence : agency.test.mjs change la
// première en même temps), l'adresse « 40 boulevard Voltaire, 75011 Paris » s'affiche en
// parties (rue, code postal, ville chacun dans son champ), le siège « 25 avenue de la Grande
// Armée, 75017 Paris » aussi ; un code postal « 7501 » est refusé avec la phrase du serveur,
// rien n'est envoyé ni enregistré (l'identité relue par l'API est inchangée) ; le refus du
// serveur lui-même (sa réponse 422, rejouée) s'affiche sous le code postal du siège, qui
// reçoit le focus ; l'adresse entière tapée sur une ligne dans la rue, code postal et ville
// vidés, est enregistrée découpée (relue après rechargement) ; les valeurs du départ sont
// remises à l'écran à la fin. Captures agence-adresse-… dans $LIFTDESK_ARTIFACTS/ui/.
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/agency-address.test.mjs'
//
// À la fin (même en échec), l'identité lue au départ est remise par l'API.

import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { describeOnServer, STEP_TIMEOUT, TIMEOUT } from './harness.mjs';

const IDENTITY_PATH = '/app/api/agency/identity';

const T = {
  menu: 'Menu principal',
  agencyMenu: 'Agence',
  switcher: 'Agence',
  title: 'Agence',
  section: 'Identité',
  agencyGroup: "Adresse de l'agence",
  headOfficeGroup: "Siège social (s'il n'est pas à l'adresse de l'agence)",
  street: 'Adresse (rue)',
  complement: 'Complément',
  postalCode: 'Code postal',
  city: 'Ville',
  save: 'Enregistrer',
  saved: 'Identité enregistrée.',
  badPostalCode: (label, code) =>
    `Le champ « ${label} » doit être un code postal français de cinq chiffres : « ${code} » n'en est pas un.`,
};

/** La seconde agence de la démo, son adresse et celle du siège (la première agence). */
const DEMO = {
  agency: 'Agence Paris Est',
  address: { street: '40 boulevard Voltaire', postalCode: '75011', city: 'Paris' },
  headOffice: { street: '25 avenue de la Grande Armée', postalCode: '75017', city: 'Paris' },
};
/** Une adresse tapée d'un bloc dans la rue, et ce que le serveur en garde. */
const WHOLE = {
  typed: '12 rue de la Part-Dieu, 69003 Lyon',
  street: '12 rue de la Part-Dieu',
  postalCode: '69003',
  city: 'Lyon',
};

describeOnServer(
  'agence : adresses en parties',
  { timeout: 10 * STEP_TIMEOUT, shots: 'agence-adresse' },
  (ui) => {
    const { pageErrors, step, shot, apiResponse, signIn, callApi } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    /** Les `PUT` de l'identité envoyés par l'écran. */
    const puts = [];
    /** La seconde agence de la démo (`{ id, name }`). */
    let agency;
    /** L'identité lue au départ (`IdentityAnswer`), remise à la fin. */
    let original = null;

    /** L'identité enregistrée, relue par l'API (`GET /app/api/agency/identity`). */
    async function stored() {
      const read = await callApi('GET', IDENTITY_PATH);
      assert.equal(read.status, 200, JSON.stringify(read.body));
      return read.body;
    }

    const group = (name) => page.getByRole('group', { name, exact: true });
    const agencyAddress = () => group(T.agencyGroup);
    const headOfficeAddress = () => group(T.headOfficeGroup);
    const input = (scope, label) => scope.getByLabel(label, { exact: true });

    /** Les quatre champs d'une adresse, tels qu'affichés. */
    async function shown(scope) {
      return {
        street: await input(scope, T.street).inputValue(),
        complement: await input(scope, T.complement).inputValue(),
        postalCode: await input(scope, T.postalCode).inputValue(),
        city: await input(scope, T.city).inputValue(),
      };
    }

    /** Attend que le champ reçoive le focus (l'écran le donne au premier champ refusé). */
    async function focused(locator) {
      const handle = await locator.elementHandle();
      await page.waitForFunction((el) => el === document.activeElement, handle, { timeout: TIMEOUT });
    }

    /** L'écran est chargé : le titre, la rubrique et les champs de l'adresse de l'agence. */
    async function screenLoaded() {
      await page.getByRole('heading', { level: 1, name: T.title, exact: true }).waitFor();
      await page.getByRole('heading', { level: 2, name: T.section, exact: true }).waitFor();
      await input(agencyAddress(), T.postalCode).waitFor();
    }

    async function save() {
      const saved = apiResponse(IDENTITY_PATH, 'PUT');
      await page.getByRole('button', { name: T.save, exact: true }).click();
      const res = await saved;
      const body = await res.json();
      assert.equal(res.status(), 200, JSON.stringify(body));
      await page.getByRole('status').filter({ hasText: T.saved }).waitFor();
      return body;
    }

    before(() => {
      ({ page, creds } = ui);
      agency = (creds.agencies ?? []).find((a) => a?.name === DEMO.agency);
      assert.ok(agency?.id, `LIFTDESK_CREDENTIALS : l'agence « ${DEMO.agency} » de la démo`);
      page.on('request', (request) => {
        if (request.method() === 'PUT' && new URL(request.url()).pathname === IDENTITY_PATH) puts.push(request);
      });
    });

    after(async () => {
      // Filet : l'identité du départ, dans la même agence, même si une étape a échoué.
      if (page && original) {
        await page
          .evaluate(
            async ({ agencyId, identity }) => {
              const session = await (await fetch('/app/api/session')).json();
              const headers = { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken };
              await fetch('/app/api/session/agency', { method: 'PUT', headers, body: JSON.stringify({ agencyId }) });
              await fetch('/app/api/agency/identity', { method: 'PUT', headers, body: JSON.stringify(identity) });
            },
            { agencyId: agency.id, identity: original.identity },
          )
          .catch(() => {});
      }
    });

    step("« Agence Paris Est » : son adresse et celle du siège, chacune en parties", async () => {
      await signIn(creds.admin);

      const switched = apiResponse('/app/api/session/agency', 'PUT');
      await page.getByRole('banner').getByLabel(T.switcher, { exact: true }).selectOption(agency.id);
      assert.equal((await switched).status(), 200);
      const read = apiResponse(IDENTITY_PATH, 'GET');
      await page.getByRole('navigation', { name: T.menu }).getByRole('link', { name: T.agencyMenu, exact: true }).click();
      assert.equal((await read).status(), 200);
      await screenLoaded();
      await page.getByTestId('agency-name').filter({ hasText: DEMO.agency }).waitFor();

      original = await stored();
      assert.equal(original.agencyName, DEMO.agency);
      assert.equal(original.canEdit, true);
      assert.deepEqual(original.missingToIssue, []);
      const { identity } = original;
      assert.deepEqual(
        [identity.address, identity.addressComplement, identity.postalCode, identity.city],
        [DEMO.address.street, null, DEMO.address.postalCode, DEMO.address.city],
      );

      // À l'écran : la rue seule dans la rue, le code postal et la ville dans leurs champs.
      assert.deepEqual(await shown(agencyAddress()), { ...DEMO.address, complement: '' });
      assert.deepEqual(await shown(headOfficeAddress()), { ...DEMO.headOffice, complement: '' });
      assert.equal(await input(agencyAddress(), T.postalCode).getAttribute('inputmode'), 'numeric');
      assert.equal(await page.getByTestId('missing-to-issue').count(), 0);
      await shot('agence-adresse-01-parties');
    });

    step('un code postal « 7501 » est refusé avec la phrase du serveur, rien n’est enregistré', async () => {
      const postalCode = input(agencyAddress(), T.postalCode);
      const refusal = T.badPostalCode("Code postal de l'agence", '7501');
      await postalCode.fill('7501');
      await page.getByRole('button', { name: T.save, exact: true }).click();
      await page.getByText(refusal, { exact: true }).waitFor();
      assert.equal(await postalCode.getAttribute('aria-invalid'), 'true');
      await focused(postalCode);
      // Le refus est décrit au champ (lecteurs d'écran).
      const describedBy = (await postalCode.getAttribute('aria-describedby')) ?? '';
      const described = await page.evaluate(
        (ids) => ids.split(' ').map((id) => document.getElementById(id)?.textContent?.trim()),
        describedBy,
      );
      assert.ok(described.includes(refusal), `aria-describedby : ${JSON.stringify(described)}`);
      assert.equal(await page.getByText(T.saved, { exact: true }).count(), 0);
      assert.equal(puts.length, 0, "l'écran n'a rien envoyé");
      assert.deepEqual((await stored()).identity, original.identity);
      await shot('agence-adresse-02-code-postal-refuse');

      // Le serveur refuse le même code avec la même phrase.
      const refused = await callApi('PUT', IDENTITY_PATH, { ...original.identity, postalCode: '7501' });
      assert.equal(refused.status, 422);
      assert.equal(refused.body.error, refusal);
      assert.deepEqual((await stored()).identity, original.identity);

      // Corrigé : le refus disparaît à la saisie.
      await postalCode.fill(DEMO.address.postalCode);
      await page.getByText(refusal, { exact: true }).waitFor({ state: 'detached' });
      assert.equal(await postalCode.getAttribute('aria-invalid'), null);
    });

    step('le refus du serveur qui nomme le code postal du siège s’affiche sous ce champ', async () => {
      // La vraie réponse du serveur pour un code postal du siège faux, rejouée à l'envoi du
      // formulaire (l'écran vérifie avant et n'envoie jamais un tel code).
      const refusal = T.badPostalCode('Code postal du siège', '6900');
      const refused = await callApi('PUT', IDENTITY_PATH, { ...original.identity, headOfficePostalCode: '6900' });
      assert.equal(refused.status, 422);
      assert.equal(refused.body.error, refusal);
      await page.route(`**${IDENTITY_PATH}`, (route) =>
        route.request().method() === 'PUT'
          ? route.fulfill({ status: refused.status, contentType: 'application/json', body: JSON.stringify(refused.body) })
          : route.fallback(),
      );
      try {
        const answered = apiResponse(IDENTITY_PATH, 'PUT');
        await page.getByRole('button', { name: T.save, exact: true }).click();
        assert.equal((await answered).status(), 422);
        const headOfficeCode = input(headOfficeAddress(), T.postalCode);
        await headOfficeAddress().getByText(refusal, { exact: true }).waitFor();
        assert.equal(await headOfficeCode.getAttribute('aria-invalid'), 'true');
        await focused(headOfficeCode);
        // Sous le champ, pas dans l'alerte du formulaire.
        assert.equal(await page.getByRole('alert').filter({ hasText: refusal }).count(), 0);
        await shot('agence-adresse-03-refus-du-serveur');
      } finally {
        await page.unroute(`**${IDENTITY_PATH}`);
      }
      puts.length = 0;
      assert.deepEqual((await stored()).identity, original.identity);
    });

    step('l’adresse tapée sur une ligne, code postal et ville vidés : enregistrée découpée', async () => {
      await input(agencyAddress(), T.street).fill(WHOLE.typed);
      await input(agencyAddress(), T.postalCode).fill('');
      await input(agencyAddress(), T.city).fill('');
      const answer = await save();
      const sent = puts.at(-1)?.postDataJSON();
      assert.deepEqual([sent?.address, sent?.postalCode, sent?.city], [WHOLE.typed, null, null]);
      assert.deepEqual(
        [answer.identity.address, answer.identity.postalCode, answer.identity.city],
        [WHOLE.street, WHOLE.postalCode, WHOLE.city],
      );
      assert.deepEqual(answer.missingToIssue, []);
      // L'écran montre aussitôt ce que le serveur a gardé.
      assert.deepEqual(await shown(agencyAddress()), {
        street: WHOLE.street,
        complement: '',
        postalCode: WHOLE.postalCode,
        city: WHOLE.city,
      });

      await page.reload();
      await screenLoaded();
      assert.deepEqual(await shown(agencyAddress()), {
        street: WHOLE.street,
        complement: '',
        postalCode: WHOLE.postalCode,
        city: WHOLE.city,
      });
      // Le siège n'a pas bougé, ni le reste de l'identité.
      assert.deepEqual(await shown(headOfficeAddress()), { ...DEMO.headOffice, complement: '' });
      const now = await stored();
      assert.deepEqual(now.identity, {
        ...original.identity,
        address: WHOLE.street,
        postalCode: WHOLE.postalCode,
        city: WHOLE.city,
      });
      await shot('agence-adresse-04-decoupee');
    });

    step("l'adresse du départ remise à l'écran", async () => {
      await input(agencyAddress(), T.street).fill(DEMO.address.street);
      await input(agencyAddress(), T.postalCode).fill(DEMO.address.postalCode);
      await input(agencyAddress(), T.city).fill(DEMO.address.city);
      await save();
      assert.deepEqual((await stored()).identity, original.identity);
      assert.deepEqual(await shown(agencyAddress()), { ...DEMO.address, complement: '' });
      assert.deepEqual(pageErrors, []);
    });
  },
);
