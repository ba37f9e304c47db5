// Test de bout en bout du planning hebdomadaire, contre un serveur Liftdesk réel
// lancé sur la démonstration (voir login.test.mjs pour les variables) :
// glisser une visite vers un autre jour, la retrouver après rechargement ;
// « Proposer la semaine prochaine », revoir, enregistrer, retrouver les visites.
//
// Les objets touchés sont choisis par le test lui-même (une visite planifiée de la
// semaine prochaine) ; d'autres fichiers peuvent changer la démo : seules des
// lignes en plus sont tolérées.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { addDays, describeOnServer, dragAndDrop, TIMEOUT } from './harness.mjs';

const STEP_TIMEOUT = 90_000;
const CELL_LIMIT = 3;

describeOnServer(
  'planning hebdomadaire',
  {
    timeout: 10 * STEP_TIMEOUT,
    stepTimeout: STEP_TIMEOUT,
    shots: 'planning',
    fullPage: false,
    viewport: { width: 1440, height: 900 },
  },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse, appApi, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;

    const planningResponse = () => apiResponse('/app/api/planning', 'GET');

    /** Ouvre la semaine de `monday` et attend la grille ; renvoie la réponse du serveur. */
    async function openWeek(monday) {
      const response = planningResponse();
      await page.goto(new URL(`/planning/${monday}`, baseUrl).href);
      const week = await (await response).json();
      await page.locator('table.planning-grid').waitFor();
      return week;
    }

    /** La carte de la visite dans la case (technicien, jour), en dépliant la case si besoin. */
    async function cardIn(technicianId, day, visitId) {
      const cell = page.locator(`td[data-technician="${technicianId}"][data-day="${day}"]`);
      const card = cell.locator(`[data-visit="${visitId}"]`);
      if ((await card.count()) === 0) {
        const more = cell.locator('button.more');
        if ((await more.count()) > 0) await more.click();
      }
      await card.waitFor();
      return card;
    }

    /** Un jour qui demande confirmation avant d'y mettre la visite : un week-end, ou après son échéance. */
    const risky = (entry, day) =>
      [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay()) || Boolean(entry.deadline && day > entry.deadline);

    /** Confirme le déplacement si l'écran le demande pour ce jour (voir safety-nets.test.mjs). */
    async function confirmIfAsked(entry, day) {
      if (!risky(entry, day)) return;
      const confirm = page.getByRole('dialog', { name: /^Déplacer la visite/ });
      await confirm.getByRole('button', { name: 'Déplacer quand même' }).click();
      await confirm.waitFor({ state: 'hidden' });
    }

    let nextMonday;
    let dragged;

    before(() => ({ page, creds } = ui));

    step("connexion de l'administrateur et ouverture du planning", async () => {
      await signIn(creds.admin);

      const response = planningResponse();
      await page.goto(new URL('/planning', baseUrl).href);
      const week = await (await response).json();
      await page.getByRole('heading', { level: 1, name: 'Planning' }).waitFor();
      await page.locator('table.planning-grid').waitFor();
      assert.equal(week.days.length, 7);
      nextMonday = addDays(week.days[0], 7);

      // Semaine suivante par le bouton : l'adresse porte la semaine.
      const next = planningResponse();
      await page.getByRole('button', { name: 'Semaine suivante →' }).click();
      await next;
      assert.equal(new URL(page.url()).pathname, `/planning/${nextMonday}`);
      await shot('planning-01-semaine');
    });

    step('glisser une visite vers un autre jour, la retrouver après rechargement', async () => {
      const week = await openWeek(nextMonday);
      const rowIds = new Set(week.technicians.map((t) => t.id));
      const countIn = (tech, day) => week.entries.filter((e) => e.technicianId === tech && e.day === day).length;
      // Une visite planifiée d'un technicien, et un autre jour de la semaine où il est
      // disponible avec une case peu remplie (la carte y restera visible).
      let target = null;
      for (const entry of week.entries) {
        if (entry.status !== 'planifiee' || !rowIds.has(entry.technicianId)) continue;
        const tech = week.technicians.find((t) => t.id === entry.technicianId);
        const day = week.days.find(
          (d) =>
            d !== entry.day &&
            !tech.absentDays.includes(d) &&
            !tech.restDays.includes(d) &&
            countIn(tech.id, d) < CELL_LIMIT,
        );
        if (day) {
          dragged = entry;
          target = day;
          break;
        }
      }
      assert.ok(dragged, 'aucune visite planifiée à déplacer la semaine prochaine dans la démo');

      const source = await cardIn(dragged.technicianId, dragged.day, dragged.id);
      const cell = page.locator(`td[data-technician="${dragged.technicianId}"][data-day="${target}"]`);
      await source.scrollIntoViewIfNeeded();
      const moved = page.waitForResponse(
        (r) => new URL(r.url()).pathname === `/app/api/visits/${dragged.id}/move`,
        { timeout: TIMEOUT },
      );
      const reloaded = planningResponse();
      await dragAndDrop(page, source, cell);
      await confirmIfAsked(dragged, target);
      const res = await moved;
      assert.equal(res.status(), 200, await res.text());
      await reloaded;
      await page.getByRole('status').filter({ hasText: 'déplacée' }).waitFor();

      // Persisté : après rechargement, la carte est dans la nouvelle case.
      const after = planningResponse();
      await page.reload();
      const weekAfter = await (await after).json();
      const entry = weekAfter.entries.find((e) => e.id === dragged.id);
      assert.equal(entry.day, target);
      assert.equal(entry.technicianId, dragged.technicianId);
      const card = await cardIn(dragged.technicianId, target, dragged.id);
      assert.equal(await card.isVisible(), true);
      dragged = { ...dragged, day: target };
      await shot('planning-02-apres-deplacement');
    });

    step('un déplacement refusé affiche la raison du serveur', async () => {
      // Une visite commencée entre-temps (par l'API, la page n'est pas rechargée) :
      // la carte est encore « Planifiée » à l'écran, le serveur refuse de la déplacer.
      const week = await openWeek(nextMonday);
      const rowIds = new Set(week.technicians.map((t) => t.id));
      const other = week.entries.find(
        (e) => e.status === 'planifiee' && e.id !== dragged.id && rowIds.has(e.technicianId),
      );
      assert.ok(other, 'une deuxième visite planifiée est nécessaire');
      const source = await cardIn(other.technicianId, other.day, other.id);
      const started = await appApi('POST', `/visits/${other.id}/start`, {});
      assert.equal(started.status, 200, JSON.stringify(started.body));
      const targetDay = week.days.find((d) => d !== other.day);
      const cell = page.locator(`td[data-technician="${other.technicianId}"][data-day="${targetDay}"]`);
      const refused = page.waitForResponse((r) => new URL(r.url()).pathname === `/app/api/visits/${other.id}/move`);
      await source.scrollIntoViewIfNeeded();
      await dragAndDrop(page, source, cell);
      await confirmIfAsked(other, targetDay);
      const res = await refused;
      assert.equal(res.status(), 422);
      const { error } = await res.json();
      assert.match(error, /^Action refusée : impossible de replanifier cette visite au statut « En cours »/);
      await page.getByRole('alert').filter({ hasText: error }).waitFor();
      await shot('planning-03-refus');
      // Rien n'a bougé ; la visite redevient planifiée pour la suite.
      const check = await appApi('GET', `/visits/${other.id}`);
      assert.equal(check.body.plannedFor, other.day);
      const undone = await appApi('POST', `/visits/${other.id}/cancel-start`);
      assert.equal(undone.status, 200);
    });

    step('le détail de la visite et le déplacement au clavier', async () => {
      const week = await openWeek(nextMonday);
      const card = await cardIn(dragged.technicianId, dragged.day, dragged.id);
      await card.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Déplacer' }).waitFor();
      await shot('planning-04-visite');
      await dialog.getByRole('button', { name: 'Déplacer' }).click();
      // Un jour passé est refusé dès le client, avec le message du serveur.
      await dialog.getByLabel('Nouveau jour').fill('2020-01-06');
      await dialog.getByRole('button', { name: 'Déplacer' }).click();
      await dialog.getByText('Une visite ne peut pas être replanifiée dans le passé.').waitFor();
      // Puis un vrai déplacement au clavier : au lendemain, même technicien.
      const tech = week.technicians.find((t) => t.id === dragged.technicianId);
      const nextDay = week.days.find(
        (d) =>
          d !== dragged.day &&
          !tech.absentDays.includes(d) &&
          week.entries.filter((e) => e.technicianId === tech.id && e.day === d).length < CELL_LIMIT,
      );
      assert.ok(nextDay, 'aucun autre jour libre pour le déplacement au clavier');
      await dialog.getByLabel('Nouveau jour').fill(nextDay);
      const moved = page.waitForResponse((r) => new URL(r.url()).pathname === `/app/api/visits/${dragged.id}/move`);
      await dialog.getByRole('button', { name: 'Déplacer' }).press('Enter');
      await confirmIfAsked(dragged, nextDay);
      const res = await moved;
      if (res.status() !== 200) {
        const { error } = await res.json();
        await dialog.getByRole('alert').filter({ hasText: error }).waitFor();
        assert.fail(`déplacement au clavier refusé : ${error}`);
      }
      await dialog.getByRole('button', { name: 'Fermer' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('status').filter({ hasText: 'déplacée' }).waitFor();
      await cardIn(dragged.technicianId, nextDay, dragged.id);
      dragged = { ...dragged, day: nextDay };
    });

    let proposedEquipment;

    step('proposer la semaine prochaine, revoir, enregistrer', async () => {
      // Un équipement à coup sûr dû la semaine prochaine : sa visite est clôturée
      // aujourd'hui et son intervalle passe à 7 jours (échéance : dans 7 jours).
      const week = await openWeek(nextMonday);
      const candidate = week.entries.find((e) => e.status === 'planifiee' && e.id !== dragged.id);
      assert.ok(candidate, 'aucune visite planifiée la semaine prochaine');
      const arrivedAt = new Date(Date.now() - 60 * 60 * 1000).toISOString();
      const closed = await appApi('POST', `/visits/${candidate.id}/complete`, {
        arrivedAt,
        signedBy: 'Test de bout en bout',
      });
      assert.equal(closed.status, 200, JSON.stringify(closed.body));
      const interval = await appApi('PUT', `/planning/equipment/${candidate.equipmentId}/interval`, { days: 7 });
      assert.equal(interval.status, 200, JSON.stringify(interval.body));
      proposedEquipment = candidate.equipmentId;

      await page.goto(new URL('/planning', baseUrl).href);
      await page.locator('table.planning-grid').waitFor();
      const proposalResponse = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/planning/proposal' && r.request().method() === 'GET',
        { timeout: 60_000 },
      );
      await page.getByRole('button', { name: 'Proposer la semaine prochaine' }).click();
      const proposal = await (await proposalResponse).json();
      assert.equal(proposal.days[0], nextMonday);
      await page.getByRole('heading', { level: 2, name: /^Proposition/ }).waitFor();
      const ours = proposal.visits.find((v) => v.equipmentId === proposedEquipment);
      assert.ok(
        ours,
        `l'équipement dû n'est pas proposé : ${JSON.stringify(proposal.unplaced.find((u) => u.equipmentId === proposedEquipment))}`,
      );
      assert.ok(ours.day >= nextMonday && ours.day <= addDays(nextMonday, 4), 'du lundi au vendredi');
      await shot('planning-05-proposition');

      // Revue : si la ligne est sur la première page, on la passe au vendredi.
      let expectedDay = ours.day;
      const row = page.locator(`tr[data-equipment="${proposedEquipment}"]`);
      if ((await row.count()) > 0) {
        const friday = addDays(nextMonday, 4);
        const tech = proposal.technicians.find((t) => t.id === ours.technicianId);
        if (!tech.absentDays.includes(friday) && !tech.restDays.includes(friday)) {
          await row.getByRole('combobox', { name: /^Jour pour/ }).selectOption(friday);
          expectedDay = friday;
        }
      }

      const saved = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/planning/proposal' && r.request().method() === 'POST',
        { timeout: 60_000 },
      );
      await page.getByRole('button', { name: /^Enregistrer \(/ }).click();
      const res = await saved;
      if (res.status() !== 201) {
        // Une ligne signalée par la revue (charge, absence) : le serveur refuse et l'écran le dit.
        const body = await res.json();
        await page.getByRole('alert').filter({ hasText: body.error }).waitFor();
        assert.fail(`enregistrement refusé : ${body.error}`);
      }
      const body = await res.json();
      assert.ok(body.created >= 1);

      // L'écran revient à la semaine prochaine, où la visite se trouve.
      await page.waitForURL(`**/planning/${nextMonday}`);
      await page.locator('table.planning-grid').waitFor();
      await page.getByRole('status').filter({ hasText: 'enregistrée' }).waitFor();
      const check = await appApi('GET', `/planning?day=${nextMonday}`);
      const entry = check.body.entries.find((e) => e.equipmentId === proposedEquipment && e.status === 'planifiee');
      assert.ok(entry, 'la visite enregistrée est au planning de la semaine prochaine');
      assert.equal(entry.day, expectedDay);
      assert.equal(entry.technicianId, ours.technicianId);
      await cardIn(entry.technicianId, entry.day, entry.id);
      await shot('planning-06-apres-enregistrement');

      // Plus due : la proposition suivante ne la reprend pas.
      const again = await appApi('GET', '/planning/proposal');
      assert.equal(again.status, 200);
      assert.equal(again.body.visits.some((v) => v.equipmentId === proposedEquipment), false);
    });

    step('aucune erreur JavaScript dans la page', () => {
      assert.deepEqual(pageErrors.map(String), []);
    });
  },
);
