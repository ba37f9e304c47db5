// Test de bout en bout de l'écran Techniciens, contre un serveur Liftdesk réel (démo).
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/technicians.test.mjs'
//
// L'administrateur de la démo ouvre « Techniciens », ajoute une absence à un
// technicien (dates lointaines, tirées au hasard : d'autres fichiers de test
// partagent le serveur) et la voit listée, puis change le technicien
// d'astreinte d'une semaine future (au-delà du planning de la démo) et le voit
// après rechargement. Il ajoute ensuite un technicien « Hugo Lefèvre » (nom
// unique à chaque passage), modifie son téléphone, le retire du planning, l'y
// remet, puis le retire de nouveau : l'équipe de la démo reste celle que les
// autres fichiers de test connaissent. Un membre voit tout sans rien pouvoir
// modifier. Captures dans $LIFTDESK_ARTIFACTS/ui/.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { addDays, describeOnServer, STEP_TIMEOUT, TIMEOUT } from './harness.mjs';

const frenchDay = (day) => day.split('-').reverse().join('/');

describeOnServer(
  'écran Techniciens',
  { timeout: 10 * STEP_TIMEOUT, shots: 'techniciens' },
  (ui) => {
    const { pageErrors, step, shot, apiResponse, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;

    const teamTable = () => page.getByRole('table', { name: 'Équipe', exact: true });
    const retiredTable = () => page.getByRole('table', { name: 'Techniciens retirés du planning', exact: true });
    /** La ligne du technicien dans un tableau, par son nom (en-tête de ligne). */
    const rowNamed = (table, name) =>
      table.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
    const rotaTable = () => page.getByRole('table', { name: "Planning d'astreinte", exact: true });

    async function openTechnicians() {
      const rota = page.waitForResponse((r) => new URL(r.url()).pathname === '/app/api/technicians/rota', {
        timeout: TIMEOUT,
      });
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Techniciens' }).click();
      await page.getByRole('heading', { level: 1, name: 'Techniciens', exact: true }).waitFor();
      await teamTable().waitFor();
      assert.equal((await rota).status(), 200);
      await rotaTable().waitFor();
    }

    /** Avance le planning de `pages` fois 8 semaines et attend la lecture. */
    async function forward(pages) {
      for (let i = 0; i < pages; i += 1) {
        const read = apiResponse('/app/api/technicians/rota', 'GET');
        await page.getByRole('button', { name: '8 semaines suivantes →', exact: true }).click();
        assert.equal((await read).status(), 200);
      }
      await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    }

    before(() => ({ page, creds } = ui));

    step("connexion de l'administrateur et ouverture de l'écran", async () => {
      await signIn(creds.admin);
      await openTechnicians();
      assert.equal(new URL(page.url()).pathname, '/techniciens');
      const rows = teamTable().locator('tbody tr');
      assert.ok((await rows.count()) >= 2, 'la démo a des techniciens');
      // Le planning montre 8 semaines, la semaine en cours marquée.
      assert.equal(await rotaTable().locator('tbody tr').count(), 8);
      await rotaTable().getByText('En cours', { exact: true }).waitFor();
      await shot('techniciens-01-liste');
    });

    let technicianName;
    const stamp = Date.now().toString(36);
    const reason = `Formation e2e ${stamp}`;
    // Entre 1 et 3 ans d'ici : loin du planning d'astreinte de la démo et des autres tests.
    const startsOn = addDays(new Date().toISOString().slice(0, 10), 400 + Math.floor(Math.random() * 700));
    const endsOn = addDays(startsOn, 2);

    step('ajout d’une absence à un technicien, visible dans sa liste', async () => {
      const firstRow = teamTable().locator('tbody tr').first();
      technicianName = ((await firstRow.locator('th').textContent()) ?? '').trim();
      assert.ok(technicianName);
      await teamTable()
        .getByRole('button', { name: `Absences de ${technicianName}`, exact: true })
        .click();
      const dialog = page.getByRole('dialog', { name: `Absences de ${technicianName}` });
      await dialog.waitFor();

      // Validation sur le poste, comme le serveur, sans perdre la saisie.
      await dialog.getByLabel('Premier jour', { exact: true }).fill(endsOn);
      await dialog.getByLabel('Dernier jour (inclus)', { exact: true }).fill(startsOn);
      await dialog.getByRole('button', { name: 'Ajouter', exact: true }).click();
      await dialog.getByText("La fin de l'absence ne peut pas précéder son début.", { exact: true }).waitFor();
      await dialog.getByText("Indiquez le motif de l'absence.", { exact: true }).waitFor();
      assert.equal(await dialog.getByLabel('Premier jour', { exact: true }).inputValue(), endsOn);
      await shot('techniciens-02-absence-validation');

      await dialog.getByLabel('Premier jour', { exact: true }).fill(startsOn);
      await dialog.getByLabel('Dernier jour (inclus)', { exact: true }).fill(endsOn);
      await dialog.getByLabel('Motif', { exact: true }).fill(reason);
      const posted = page.waitForResponse(
        (r) => /\/app\/api\/technicians\/[^/]+\/absences$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST',
        { timeout: TIMEOUT },
      );
      await dialog.getByRole('button', { name: 'Ajouter', exact: true }).click();
      const res = await posted;
      const body = await res.json();
      assert.equal(res.status(), 201, JSON.stringify(body));
      const row = dialog.getByRole('row').filter({ hasText: reason });
      await row.waitFor();
      assert.match((await row.textContent()) ?? '', new RegExp(`${frenchDay(startsOn)}.*${frenchDay(endsOn)}`));
      await page.getByText(`Absence ajoutée : du ${frenchDay(startsOn)} au ${frenchDay(endsOn)}.`).first().waitFor();

      // Le même jour une seconde fois : refusé sur le poste avec le message du serveur.
      await dialog.getByLabel('Premier jour', { exact: true }).fill(endsOn);
      await dialog.getByLabel('Dernier jour (inclus)', { exact: true }).fill(endsOn);
      await dialog.getByLabel('Motif', { exact: true }).fill('RTT');
      await dialog.getByRole('button', { name: 'Ajouter', exact: true }).click();
      await dialog
        .getByText(`${technicianName} est déjà absent du ${frenchDay(startsOn)} au ${frenchDay(endsOn)} (${reason}) : cette absence chevauche la nouvelle.`)
        .waitFor();
      await shot('techniciens-03-absence-ajoutee');

      // Relue après fermeture et réouverture : elle vient du serveur.
      await dialog.getByRole('button', { name: 'Fermer', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      await teamTable().getByRole('button', { name: `Absences de ${technicianName}`, exact: true }).click();
      await dialog.getByRole('row').filter({ hasText: reason }).waitFor();
    });

    step('suppression de l’absence après confirmation', async () => {
      const dialog = page.getByRole('dialog', { name: `Absences de ${technicianName}` });
      await dialog
        .getByRole('button', { name: `Supprimer l'absence du ${frenchDay(startsOn)} au ${frenchDay(endsOn)}`, exact: true })
        .click();
      const confirm = dialog.getByRole('button', { name: 'Confirmer la suppression', exact: true });
      await confirm.waitFor();
      await shot('techniciens-04-absence-confirmation');
      const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE', { timeout: TIMEOUT });
      await confirm.click();
      assert.equal((await deleted).status(), 204);
      await dialog.getByRole('row').filter({ hasText: reason }).waitFor({ state: 'detached' });
      await dialog.getByRole('button', { name: 'Fermer', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
    });

    step("changement du technicien d'astreinte d'une semaine future", async () => {
      // 16 à 23 semaines d'ici : au-delà du planning généré par la démo.
      await forward(2);
      const rows = rotaTable().locator('tbody tr');
      const row = rows.nth(2 + Math.floor(Math.random() * 5));
      const label = ((await row.locator('th').textContent()) ?? '').replace(/\s+/g, ' ').trim();
      const before = ((await row.locator('td').nth(1).textContent()) ?? '').trim();
      await row.getByRole('button', { name: `Changer le technicien de la semaine ${label}`, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: "Changer le technicien d'astreinte" });
      await dialog.waitFor();
      const select = dialog.getByLabel("Technicien d'astreinte", { exact: true });

      // Sans choix : refusé sur le poste.
      await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      await dialog.getByText('Choisissez un technicien.', { exact: true }).waitFor();

      const options = await select.locator('option').evaluateAll((els) =>
        els.map((el) => ({ value: el.getAttribute('value'), text: (el.textContent ?? '').trim() })),
      );
      const choice = options.find((o) => o.value && !o.text.includes('absent') && !before.startsWith(o.text));
      assert.ok(choice, `un technicien autre que « ${before} »`);
      await select.selectOption(choice.value);
      await shot('techniciens-05-astreinte-dialogue');
      const saved = page.waitForResponse(
        (r) => new URL(r.url()).pathname.startsWith('/app/api/technicians/rota/') && r.request().method() === 'PUT',
        { timeout: TIMEOUT },
      );
      await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      const res = await saved;
      assert.equal(res.status(), 200, JSON.stringify(await res.json()));
      await dialog.waitFor({ state: 'hidden' });
      const holder = row.locator('td').nth(1).locator('strong');
      await page.waitForFunction(
        ([el, name]) => el?.textContent?.trim() === name,
        [await holder.elementHandle(), choice.text],
      );
      await page.getByText(`${choice.text} est d'astreinte la semaine ${label.replace(/\s*En cours$/, '')}.`).first().waitFor();
      await shot('techniciens-06-astreinte-changee');

      // Gardé par le serveur : après rechargement, la même semaine montre le même technicien.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Techniciens', exact: true }).waitFor();
      await rotaTable().waitFor();
      await forward(2);
      const again = rotaTable().getByRole('row').filter({ has: page.getByRole('rowheader', { name: label, exact: true }) });
      assert.equal(((await again.locator('td').nth(1).locator('strong').textContent()) ?? '').trim(), choice.text);
      await shot('techniciens-07-apres-rechargement');
      changed = { label, name: choice.text, options };
    });

    /** @type {{label: string, name: string, options: {value: string | null, text: string}[]} | undefined} */
    let changed;

    step('échange de deux semaines futures', async () => {
      assert.ok(changed, 'la semaine changée à l’étape précédente');
      const rowOf = (label) =>
        rotaTable().getByRole('row').filter({ has: page.getByRole('rowheader', { name: label, exact: true }) });
      const labels = (await rotaTable().locator('tbody tr th').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
      const otherLabel = labels.find((l, i) => i >= 2 && l !== changed.label);
      assert.ok(otherLabel);
      const other = changed.options.find((o) => o.value && !o.text.includes('absent') && o.text !== changed.name);
      assert.ok(other);

      // La seconde semaine est d'abord confiée à un autre technicien.
      await rowOf(otherLabel).getByRole('button', { name: `Changer le technicien de la semaine ${otherLabel}`, exact: true }).click();
      let dialog = page.getByRole('dialog', { name: "Changer le technicien d'astreinte" });
      await dialog.getByLabel("Technicien d'astreinte", { exact: true }).selectOption(other.value);
      await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      await rowOf(otherLabel).locator('td strong').filter({ hasText: other.text }).waitFor();

      await rowOf(changed.label).getByRole('button', { name: `Échanger la semaine ${changed.label}`, exact: true }).click();
      dialog = page.getByRole('dialog', { name: 'Échanger deux semaines' });
      await dialog.waitFor();
      await dialog.getByLabel('Échanger avec la semaine', { exact: true }).selectOption({ label: `${otherLabel} — ${other.text}` });
      await shot('techniciens-09-echange-dialogue');
      const swapped = apiResponse('/app/api/technicians/rota/swap', 'POST');
      await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      const res = await swapped;
      assert.equal(res.status(), 200, JSON.stringify(await res.json()));
      await dialog.waitFor({ state: 'hidden' });
      await rowOf(changed.label).locator('td strong').filter({ hasText: other.text }).waitFor();
      await rowOf(otherLabel).locator('td strong').filter({ hasText: changed.name }).waitFor();
      await shot('techniciens-10-echange-fait');
    });

    const hugo = {
      name: `Hugo Lefèvre ${stamp}`,
      phone: '06 11 22 33 44',
      newPhone: '07 55 66 77 88',
    };

    step('ajout d’un technicien, visible dans l’équipe', async () => {
      await page.getByRole('button', { name: 'Ajouter un technicien', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Ajouter un technicien' });
      await dialog.waitFor();
      assert.equal(await dialog.getByLabel('Capacité journalière (visites par jour)', { exact: true }).inputValue(), '6');
      // Pas de repos à la création : le serveur donne 11 h.
      assert.equal(await dialog.getByLabel('Repos après astreinte (heures)', { exact: true }).count(), 0);

      // Vérifié sur le poste avec les messages du serveur, sans rien envoyer ni perdre la saisie.
      let posted = 0;
      const countPosts = (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === '/app/api/technicians') posted += 1;
      };
      page.on('request', countPosts);
      await dialog.getByLabel('Téléphone', { exact: true }).fill('12');
      await dialog.getByLabel('Capacité journalière (visites par jour)', { exact: true }).fill('21');
      await dialog.getByRole('button', { name: 'Ajouter', exact: true }).click();
      await dialog.getByText('Le champ « Nom » est obligatoire.', { exact: true }).waitFor();
      await dialog
        .getByText(
          "Le champ « Téléphone » doit être un numéro de téléphone (chiffres, espaces, points, tirets, « + » en tête) : « 12 » n'en est pas un.",
          { exact: true },
        )
        .waitFor();
      await dialog
        .getByText('Le champ « Capacité journalière » doit être compris entre 1 et 20 visites par jour.', { exact: true })
        .waitFor();
      // Le premier champ refusé reçoit le focus.
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'technician-name');
      assert.equal(await dialog.getByLabel('Téléphone', { exact: true }).inputValue(), '12');
      await shot('techniciens-11-ajout-validation');
      page.off('request', countPosts);
      assert.equal(posted, 0, 'rien n’est envoyé');

      await dialog.getByLabel('Nom', { exact: true }).fill(hugo.name);
      await dialog.getByLabel('Téléphone', { exact: true }).fill(hugo.phone);
      await dialog.getByLabel('Secteurs', { exact: true }).fill('Levallois-Perret, 92300, levallois-perret');
      await dialog.getByLabel('Capacité journalière (visites par jour)', { exact: true }).fill('5');
      const created = apiResponse('/app/api/technicians', 'POST');
      await dialog.getByRole('button', { name: 'Ajouter', exact: true }).click();
      const res = await created;
      const body = await res.json();
      assert.equal(res.status(), 201, JSON.stringify(body));
      assert.deepEqual(res.request().postDataJSON(), {
        name: hugo.name,
        phone: hugo.phone,
        sectors: ['Levallois-Perret', '92300'],
        dailyCapacity: 5,
      });
      assert.equal(body.name, hugo.name);
      assert.equal(body.active, true);
      assert.equal(body.restHours, 11);
      hugo.id = body.id;
      await dialog.waitFor({ state: 'hidden' });

      // L'écran relit l'équipe : il y est, avec ses secteurs.
      const row = rowNamed(teamTable(), hugo.name);
      await row.waitFor();
      assert.match((await row.textContent()) ?? '', /Levallois-Perret, 92300/);
      await page.getByText(`${hugo.name} est ajouté à l'équipe.`, { exact: true }).waitFor();
      await shot('techniciens-12-technicien-ajoute');
    });

    step('modification de son téléphone : seul ce qui change part', async () => {
      assert.ok(hugo.id, 'le technicien ajouté à l’étape précédente');
      await rowNamed(teamTable(), hugo.name).getByRole('button', { name: `Modifier « ${hugo.name} »`, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Modifier la fiche de ${hugo.name}` });
      await dialog.waitFor();
      assert.equal(await dialog.getByLabel('Nom', { exact: true }).inputValue(), hugo.name);
      assert.equal(await dialog.getByLabel('Téléphone', { exact: true }).inputValue(), hugo.phone);
      assert.equal(await dialog.getByLabel('Capacité journalière (visites par jour)', { exact: true }).inputValue(), '5');
      assert.equal(await dialog.getByLabel('Repos après astreinte (heures)', { exact: true }).inputValue(), '11');

      await dialog.getByLabel('Téléphone', { exact: true }).fill(hugo.newPhone);
      await shot('techniciens-13-modification');
      const edited = apiResponse(`/app/api/technicians/${hugo.id}`, 'PATCH');
      await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      const res = await edited;
      const body = await res.json();
      assert.equal(res.status(), 200, JSON.stringify(body));
      assert.deepEqual(res.request().postDataJSON(), { phone: hugo.newPhone });
      assert.equal(body.phone, hugo.newPhone);
      await dialog.waitFor({ state: 'hidden' });
      await page.getByText(`Fiche de ${hugo.name} enregistrée.`, { exact: true }).waitFor();

      // Relu du serveur : la fiche rouverte montre le nouveau numéro.
      await rowNamed(teamTable(), hugo.name).getByRole('button', { name: `Modifier « ${hugo.name} »`, exact: true }).click();
      await dialog.waitFor();
      assert.equal(await dialog.getByLabel('Téléphone', { exact: true }).inputValue(), hugo.newPhone);
      await dialog.getByRole('button', { name: 'Annuler', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
    });

    /** Retire Hugo du planning après confirmation ; il passe dans « Techniciens retirés du planning ». */
    async function takeOff() {
      await rowNamed(teamTable(), hugo.name)
        .getByRole('button', { name: `Retirer du planning « ${hugo.name} »`, exact: true })
        .click();
      const dialog = page.getByRole('dialog', { name: `Retirer ${hugo.name} du planning ?` });
      await dialog.waitFor();
      await dialog.getByText(/Ses visites déjà planifiées restent au planning, à son nom : déplacez-les/).waitFor();
      const done = apiResponse(`/app/api/technicians/${hugo.id}/deactivate`, 'POST');
      await dialog.getByRole('button', { name: 'Retirer du planning', exact: true }).click();
      const res = await done;
      assert.equal(res.status(), 200, JSON.stringify(await res.json()));
      await dialog.waitFor({ state: 'hidden' });
      await rowNamed(retiredTable(), hugo.name).waitFor();
      await rowNamed(teamTable(), hugo.name).waitFor({ state: 'detached' });
    }

    step('retrait du planning après confirmation, puis retour au planning', async () => {
      assert.ok(hugo.id, 'le technicien ajouté plus haut');
      // Annuler ne change rien.
      await rowNamed(teamTable(), hugo.name)
        .getByRole('button', { name: `Retirer du planning « ${hugo.name} »`, exact: true })
        .click();
      const dialog = page.getByRole('dialog', { name: `Retirer ${hugo.name} du planning ?` });
      await dialog.waitFor();
      await shot('techniciens-14-retrait-confirmation');
      await dialog.getByRole('button', { name: 'Annuler', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      await rowNamed(teamTable(), hugo.name).waitFor();

      await takeOff();
      await page
        .getByText(`${hugo.name} est retiré du planning : ses visites planifiées restent à son nom, à déplacer.`, {
          exact: true,
        })
        .waitFor();
      assert.match((await rowNamed(retiredTable(), hugo.name).textContent()) ?? '', new RegExp(hugo.newPhone));
      await shot('techniciens-15-retire');

      const back = apiResponse(`/app/api/technicians/${hugo.id}/reactivate`, 'POST');
      await rowNamed(retiredTable(), hugo.name)
        .getByRole('button', { name: `Remettre au planning « ${hugo.name} »`, exact: true })
        .click();
      const res = await back;
      assert.equal(res.status(), 200, JSON.stringify(await res.json()));
      await rowNamed(teamTable(), hugo.name).waitFor();
      await rowNamed(retiredTable(), hugo.name).waitFor({ state: 'detached' });
      await page.getByText(`${hugo.name} est remis au planning.`, { exact: true }).waitFor();
      await shot('techniciens-16-remis');

      // Retiré de nouveau : l'équipe de la démo reste celle que les autres tests connaissent.
      await takeOff();
    });

    step('un membre voit le planning, les absences et les techniciens retirés sans pouvoir les modifier', async () => {
      assert.ok(creds?.member?.email && creds.member.password, 'LIFTDESK_CREDENTIALS : member requis');
      const signOut = apiResponse('/app/api/session', 'DELETE');
      await page.getByRole('button', { name: 'Se déconnecter', exact: true }).click();
      await signOut;
      await page.getByLabel('Adresse e-mail', { exact: true }).fill(creds.member.email);
      await page.getByLabel('Mot de passe', { exact: true }).fill(creds.member.password);
      const signIn = apiResponse('/app/api/session', 'POST');
      await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
      assert.equal((await signIn).status(), 200);
      await openTechnicians();
      await page
        .getByText("Seul un administrateur de l'agence modifie le planning d'astreinte et les absences.", { exact: true })
        .waitFor();
      assert.equal(await rotaTable().getByRole('button').count(), 0, 'aucune action sur le planning');
      assert.equal(await page.getByRole('button', { name: 'Ajouter un technicien' }).count(), 0);
      assert.equal(await teamTable().getByRole('button', { name: /^(Modifier|Retirer du planning)/ }).count(), 0);
      // Le technicien retiré plus haut est listé, sans « Remettre au planning ».
      if (hugo.id) await rowNamed(retiredTable(), hugo.name).waitFor();
      assert.equal(await page.getByRole('button', { name: /^Remettre au planning/ }).count(), 0);
      const first = ((await teamTable().locator('tbody tr').first().locator('th').textContent()) ?? '').trim();
      await teamTable().getByRole('button', { name: `Absences de ${first}`, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Absences de ${first}` });
      await dialog.getByText("Seul un administrateur de l'agence modifie les absences.", { exact: true }).waitFor();
      assert.equal(await dialog.getByRole('button', { name: 'Ajouter' }).count(), 0);
      assert.equal(await dialog.getByRole('button', { name: /^Supprimer/ }).count(), 0);
      await shot('techniciens-08-membre');
      await dialog.getByRole('button', { name: 'Fermer', exact: true }).click();
      assert.deepEqual(pageErrors, []);
    });
  },
);
