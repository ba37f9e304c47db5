// Test de bout en bout des « filets de sécurité » et des raccourcis entre
// fiches, contre un serveur Liftdesk réel lancé sur la démonstration :
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/safety-nets.test.mjs'
//
// Planning : glisser une visite sur un samedi demande confirmation (« Annuler »
// ne touche à rien, aucune requête) ; confirmé, elle est déplacée et
// « Annuler le déplacement » la remet où elle était ; un jour après son
// échéance demande aussi confirmation ; le message du déplacement disparaît
// quand la semaine affichée change ; une visite non affectée donnée à un
// technicien redevient non affectée par « Annuler le déplacement » ; au clavier
// (« Déplacer » du détail), mêmes règles. Fiche équipement : « Nouvel appel » crée un appel pour cet équipement
// et ouvre l'appel ; « Nouveau devis » ouvre la création avec l'équipement
// choisi, puis le devis créé. Fiche client : ses équipements, devis et factures,
// chacun en lien.
//
// Le planning touché est celui de la semaine d'après la prochaine (la
// prochaine est celle de planning.test.mjs) ; chaque visite déplacée est remise
// à sa place. Captures « filets-… » dans $LIFTDESK_ARTIFACTS/ui/.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { addDays, describeOnServer, dragAndDrop, TIMEOUT } from './harness.mjs';

const STEP_TIMEOUT = 90_000;
const UNASSIGNED = 'non-affecte';
const MOVE_PATH = /^\/app\/api\/visits\/[^/]+\/move$/;

/** `samedi 12 décembre`. */
function longDay(day) {
  return new Intl.DateTimeFormat('fr-FR', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/** `03/12/2026`. */
const frDay = (day) => day.split('-').reverse().join('/');

const isWeekend = (day) => [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());

describeOnServer(
  'filets de sécurité et raccourcis entre fiches',
  {
    timeout: 12 * STEP_TIMEOUT,
    stepTimeout: STEP_TIMEOUT,
    shots: 'filets',
    fullPage: false,
    viewport: { width: 1440, height: 900 },
  },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse, appApi, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    /** Les requêtes de déplacement envoyées par la page. */
    const moveRequests = [];
    /** Les lectures de la semaine par la page. */
    let weekReads = 0;

    const planningResponse = () => apiResponse('/app/api/planning', 'GET');

    const moveResponse = (visitId) =>
      page.waitForResponse((r) => new URL(r.url()).pathname === `/app/api/visits/${visitId}/move`, { timeout: TIMEOUT });

    /** Ouvre la semaine de `monday` et attend la grille ; renvoie la semaine selon le serveur. */
    async function openWeek(monday) {
      await page.goto(new URL(`/planning/${monday}`, baseUrl).href);
      await page.locator('table.planning-grid').waitFor();
      const week = await appApi('GET', `/planning?day=${monday}`);
      assert.equal(week.status, 200);
      return week.body;
    }

    const cell = (technicianId, day) => page.locator(`td[data-technician="${technicianId}"][data-day="${day}"]`);

    /** La carte de la visite dans la case (technicien, jour), en dépliant la case si besoin. */
    async function cardIn(technicianId, day, visitId) {
      const box = cell(technicianId, day);
      const card = box.locator(`[data-visit="${visitId}"]`);
      if ((await card.count()) === 0) {
        const more = box.locator('button.more');
        if ((await more.count()) > 0) await more.click();
      }
      await card.waitFor();
      return card;
    }

    /** Où est la visite selon le serveur. */
    async function whereIs(visitId) {
      const visit = await appApi('GET', `/visits/${visitId}`);
      assert.equal(visit.status, 200, JSON.stringify(visit.body));
      return { day: visit.body.plannedFor, technicianId: visit.body.technicianId };
    }

    const available = (tech, day) => !tech.absentDays.includes(day) && !tech.restDays.includes(day);

    let monday;
    let week;

    before(() => {
      ({ page, creds } = ui);
      page.on('request', (request) => {
        const { pathname } = new URL(request.url());
        if (MOVE_PATH.test(pathname)) moveRequests.push(request.url());
        if (pathname === '/app/api/planning') weekReads += 1;
      });
    });

    step("connexion de l'administrateur", async () => {
      await signIn(creds.admin);
      const current = await appApi('GET', '/planning');
      assert.equal(current.status, 200);
      monday = addDays(current.body.days[0], 14);
    });

    /** Une visite planifiée d'un technicien, un jour ouvré, dont le samedi de la semaine est libre pour lui. */
    let weekendVisit;

    step('glisser une visite sur un samedi : confirmation, « Annuler » ne change rien', async () => {
      week = await openWeek(monday);
      // Une fois affichée, la semaine n'est plus relue d'elle-même.
      const reads = weekReads;
      await page.waitForTimeout(1000);
      assert.equal(weekReads, reads, 'la semaine affichée est relue sans raison');
      const saturday = addDays(monday, 5);
      const techs = new Map(week.technicians.map((t) => [t.id, t]));
      weekendVisit = week.entries.find(
        (e) =>
          e.status === 'planifiee' &&
          techs.has(e.technicianId) &&
          !isWeekend(e.day) &&
          available(techs.get(e.technicianId), saturday),
      );
      assert.ok(weekendVisit, 'aucune visite planifiée à glisser sur un samedi dans la démo');
      const source = await cardIn(weekendVisit.technicianId, weekendVisit.day, weekendVisit.id);
      await source.scrollIntoViewIfNeeded();
      const before = moveRequests.length;
      await dragAndDrop(page, source, cell(weekendVisit.technicianId, saturday));

      const dialog = page.getByRole('dialog', { name: /^Déplacer la visite/ });
      await dialog.waitFor();
      await dialog.getByText(`${longDay(saturday)} est un week-end`).waitFor();
      await shot('filets-01-confirmation-week-end');
      await dialog.getByRole('button', { name: 'Annuler', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });

      // Aucune requête, la visite est toujours dans sa case (écran et serveur).
      assert.equal(moveRequests.length, before, 'aucun déplacement ne doit partir après « Annuler »');
      await cardIn(weekendVisit.technicianId, weekendVisit.day, weekendVisit.id);
      assert.deepEqual(await whereIs(weekendVisit.id), { day: weekendVisit.day, technicianId: weekendVisit.technicianId });
      assert.equal(await page.getByRole('button', { name: 'Annuler le déplacement' }).count(), 0);
    });

    step('confirmé : déplacée ; « Annuler le déplacement » la remet où elle était', async () => {
      const saturday = addDays(monday, 5);
      const source = await cardIn(weekendVisit.technicianId, weekendVisit.day, weekendVisit.id);
      await source.scrollIntoViewIfNeeded();
      await dragAndDrop(page, source, cell(weekendVisit.technicianId, saturday));
      const dialog = page.getByRole('dialog', { name: /^Déplacer la visite/ });
      await dialog.waitFor();
      const moved = moveResponse(weekendVisit.id);
      await dialog.getByRole('button', { name: 'Déplacer quand même' }).click();
      const res = await moved;
      assert.equal(res.status(), 200, await res.text());
      await page.getByRole('status').filter({ hasText: 'déplacée' }).waitFor();
      await cardIn(weekendVisit.technicianId, saturday, weekendVisit.id);
      assert.deepEqual(await whereIs(weekendVisit.id), { day: saturday, technicianId: weekendVisit.technicianId });

      const undo = page.getByRole('button', { name: 'Annuler le déplacement' });
      await undo.waitFor();
      await shot('filets-02-annuler-le-deplacement');
      const back = moveResponse(weekendVisit.id);
      await undo.click();
      const undone = await back;
      assert.equal(undone.status(), 200, await undone.text());
      assert.deepEqual(JSON.parse(undone.request().postData() ?? '{}'), {
        plannedFor: weekendVisit.day,
        technicianId: weekendVisit.technicianId,
      });
      await page.getByRole('status').filter({ hasText: 'Déplacement annulé' }).waitFor();
      await cardIn(weekendVisit.technicianId, weekendVisit.day, weekendVisit.id);
      assert.deepEqual(await whereIs(weekendVisit.id), { day: weekendVisit.day, technicianId: weekendVisit.technicianId });
      await undo.waitFor({ state: 'detached' });
    });

    step("un jour après l'échéance demande aussi confirmation", async () => {
      week = await openWeek(monday);
      const techs = new Map(week.technicians.map((t) => [t.id, t]));
      let visit = null;
      let target = null;
      for (const e of week.entries) {
        if (e.status !== 'planifiee' || !techs.has(e.technicianId) || !e.deadline) continue;
        const day = week.days.find(
          (d) => d !== e.day && !isWeekend(d) && d > e.deadline && d >= week.today && available(techs.get(e.technicianId), d),
        );
        if (day) {
          visit = e;
          target = day;
          break;
        }
      }
      assert.ok(visit, "aucune visite à glisser après son échéance dans la démo");
      const source = await cardIn(visit.technicianId, visit.day, visit.id);
      await source.scrollIntoViewIfNeeded();
      const before = moveRequests.length;
      await dragAndDrop(page, source, cell(visit.technicianId, target));
      const dialog = page.getByRole('dialog', { name: /^Déplacer la visite/ });
      await dialog.waitFor();
      await dialog.getByText(`après l'échéance du ${frDay(visit.deadline)}`).waitFor();
      assert.equal(await dialog.getByText('est un week-end').count(), 0, 'un jour ouvré : pas de mention du week-end');
      await shot('filets-03-confirmation-echeance');
      await dialog.getByRole('button', { name: 'Annuler', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(moveRequests.length, before);
      assert.deepEqual(await whereIs(visit.id), { day: visit.day, technicianId: visit.technicianId });
    });

    step('un déplacement sans risque part sans question ; son message disparaît au changement de semaine', async () => {
      week = await openWeek(monday);
      const techs = new Map(week.technicians.map((t) => [t.id, t]));
      let visit = null;
      let target = null;
      for (const e of week.entries) {
        if (e.status !== 'planifiee' || !techs.has(e.technicianId)) continue;
        const day = week.days.find(
          (d) =>
            d !== e.day &&
            !isWeekend(d) &&
            (!e.deadline || d <= e.deadline) &&
            d >= week.today &&
            available(techs.get(e.technicianId), d),
        );
        if (day) {
          visit = e;
          target = day;
          break;
        }
      }
      assert.ok(visit, 'aucune visite à déplacer sans risque dans la démo');
      const source = await cardIn(visit.technicianId, visit.day, visit.id);
      await source.scrollIntoViewIfNeeded();
      const moved = moveResponse(visit.id);
      await dragAndDrop(page, source, cell(visit.technicianId, target));
      const res = await moved;
      assert.equal(res.status(), 200, await res.text());
      assert.equal(await page.getByRole('dialog').count(), 0, 'pas de confirmation pour un jour ouvré avant l’échéance');
      const status = page.getByRole('status').filter({ hasText: 'déplacée' });
      await status.waitFor();
      const undo = page.getByRole('button', { name: 'Annuler le déplacement' });
      await undo.waitFor();

      // La semaine suivante : le message et son « Annuler le déplacement » disparaissent.
      const next = planningResponse();
      await page.getByRole('button', { name: 'Semaine suivante →' }).click();
      await next;
      await page.waitForURL(`**/planning/${addDays(monday, 7)}`);
      await undo.waitFor({ state: 'detached' });
      assert.equal(await page.getByRole('status').filter({ hasText: 'déplacée' }).count(), 0);
      // Revenir ne le fait pas réapparaître.
      const previous = planningResponse();
      await page.getByRole('button', { name: '← Semaine précédente' }).click();
      await previous;
      assert.equal(await undo.count(), 0);
      await shot('filets-04-message-disparu');

      // Remise en place pour la suite.
      const restored = await appApi('POST', `/visits/${visit.id}/move`, { plannedFor: visit.day, technicianId: visit.technicianId });
      assert.equal(restored.status, 200, JSON.stringify(restored.body));
    });

    step('une visite non affectée donnée à un technicien : « Annuler le déplacement » la rend non affectée', async () => {
      week = await openWeek(monday);
      const techs = new Map(week.technicians.map((t) => [t.id, t]));
      // Une visite planifiée un jour ouvré, avant son échéance, dont le technicien est là :
      // rendue non affectée par l'API pour l'essai, puis remise à la fin.
      const visit = week.entries.find(
        (e) =>
          e.status === 'planifiee' &&
          techs.has(e.technicianId) &&
          !isWeekend(e.day) &&
          e.day >= week.today &&
          (!e.deadline || e.day <= e.deadline) &&
          available(techs.get(e.technicianId), e.day),
      );
      assert.ok(visit, 'aucune visite planifiée à essayer dans la démo');
      const setUp = await appApi('POST', `/visits/${visit.id}/move`, { plannedFor: visit.day, unassign: true });
      assert.equal(setUp.status, 200, JSON.stringify(setUp.body));
      try {
        week = await openWeek(monday);
        const card = await cardIn(UNASSIGNED, visit.day, visit.id);
        await card.focus();
        await page.keyboard.press('Enter');
        const visitDialog = page.getByRole('dialog', { name: /^Visite/ });
        await visitDialog.getByRole('button', { name: 'Déplacer' }).click();
        await visitDialog.getByLabel('Technicien').selectOption(visit.technicianId);
        const moved = moveResponse(visit.id);
        await visitDialog.getByRole('button', { name: 'Déplacer' }).click();
        const res = await moved;
        assert.equal(res.status(), 200, await res.text());
        await visitDialog.getByRole('button', { name: 'Fermer' }).click();
        await visitDialog.waitFor({ state: 'hidden' });
        assert.deepEqual(await whereIs(visit.id), { day: visit.day, technicianId: visit.technicianId });
        const undo = page.getByRole('button', { name: 'Annuler le déplacement' });
        const undone = moveResponse(visit.id);
        await undo.click();
        const back = await undone;
        assert.equal(back.status(), 200, await back.text());
        assert.deepEqual(JSON.parse(back.request().postData() ?? '{}'), { plannedFor: visit.day, unassign: true });
        await page.getByRole('status').filter({ hasText: 'Déplacement annulé' }).waitFor();
        await cardIn(UNASSIGNED, visit.day, visit.id);
        assert.deepEqual(await whereIs(visit.id), { day: visit.day, technicianId: null });
        await shot('filets-05-remise-non-affectee');
      } finally {
        // Remise en place pour la suite.
        const restored = await appApi('POST', `/visits/${visit.id}/move`, { plannedFor: visit.day, technicianId: visit.technicianId });
        assert.equal(restored.status, 200, JSON.stringify(restored.body));
      }
    });

    step('au clavier : « Déplacer » vers un dimanche demande confirmation, et s’annule pareil', async () => {
      week = await openWeek(monday);
      const sunday = addDays(monday, 6);
      const card = await cardIn(weekendVisit.technicianId, weekendVisit.day, weekendVisit.id);
      await card.focus();
      await page.keyboard.press('Enter');
      const visitDialog = page.getByRole('dialog', { name: /^Visite/ });
      await visitDialog.getByRole('button', { name: 'Déplacer' }).click();
      await visitDialog.getByLabel('Nouveau jour').fill(sunday);
      const before = moveRequests.length;
      await visitDialog.getByRole('button', { name: 'Déplacer' }).press('Enter');
      const confirm = page.getByRole('dialog', { name: /^Déplacer la visite/ });
      await confirm.waitFor();
      await confirm.getByText(`${longDay(sunday)} est un week-end`).waitFor();
      await shot('filets-05-clavier-confirmation');
      await confirm.getByRole('button', { name: 'Annuler', exact: true }).click();
      await confirm.waitFor({ state: 'hidden' });
      assert.equal(moveRequests.length, before);
      assert.deepEqual(await whereIs(weekendVisit.id), { day: weekendVisit.day, technicianId: weekendVisit.technicianId });

      // Confirmé cette fois : déplacée, puis remise en place par « Annuler le déplacement ».
      await visitDialog.getByRole('button', { name: 'Déplacer' }).press('Enter');
      await confirm.waitFor();
      const moved = moveResponse(weekendVisit.id);
      await confirm.getByRole('button', { name: 'Déplacer quand même' }).press('Enter');
      const res = await moved;
      assert.equal(res.status(), 200, await res.text());
      await visitDialog.getByRole('button', { name: 'Fermer' }).click();
      await visitDialog.waitFor({ state: 'hidden' });
      assert.deepEqual(await whereIs(weekendVisit.id), { day: sunday, technicianId: weekendVisit.technicianId });
      const undo = page.getByRole('button', { name: 'Annuler le déplacement' });
      const back = moveResponse(weekendVisit.id);
      await undo.focus();
      await page.keyboard.press('Enter');
      assert.equal((await back).status(), 200);
      await page.getByRole('status').filter({ hasText: 'Déplacement annulé' }).waitFor();
      assert.deepEqual(await whereIs(weekendVisit.id), { day: weekendVisit.day, technicianId: weekendVisit.technicianId });
    });

    /** Un client de la démo qui a des factures et un équipement numéroté au parc, et cet équipement. */
    let client;
    let lift;

    step('fiche équipement : « Nouvel appel » crée un appel pour cet équipement', async () => {
      const invoices = await appApi('GET', '/invoices?limit=200');
      assert.equal(invoices.status, 200);
      const clients = [...new Set(invoices.body.results.map((r) => r.client).filter(Boolean))];
      for (const id of clients) {
        const park = await appApi('GET', `/equipment?client=${encodeURIComponent(id)}&archived=active&limit=50`);
        const numbered = park.body.results.find((e) => e.number);
        if (numbered) {
          client = id;
          lift = numbered;
          break;
        }
      }
      assert.ok(lift, 'aucun client facturé avec un équipement numéroté dans la démo');

      await page.goto(new URL(`/equipements/${lift.id}`, baseUrl).href);
      await page.getByRole('heading', { level: 1, name: `Équipement ${lift.number}` }).waitFor();
      await shot('filets-06-fiche-equipement');
      await page.getByRole('button', { name: 'Nouvel appel', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Nouvel appel' });
      await dialog.waitFor();
      // L'appareil de la fiche est déjà choisi.
      assert.equal(await dialog.getByLabel('Appareil', { exact: true }).inputValue(), lift.number);
      await dialog.getByText(`Choisi : ${lift.number}`, { exact: true }).waitFor();
      await dialog.getByLabel("Type d'appel").selectOption('panne');
      await dialog.getByLabel("Description (ce que l'appelant signale)").fill('Appel pris depuis la fiche de l’équipement.');
      await shot('filets-07-nouvel-appel');
      const created = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/calls' && r.request().method() === 'POST',
      );
      await dialog.getByRole('button', { name: "Enregistrer l'appel" }).click();
      const res = await created;
      assert.equal(res.status(), 201, await res.text());
      const { id } = await res.json();
      await page.waitForURL(`**/appels/${id}`);
      const detail = await appApi('GET', `/calls/${id}`);
      assert.equal(detail.status, 200);
      assert.equal(detail.body.call.equipment.id, lift.id);
    });

    let quoteId;

    step('fiche équipement : « Nouveau devis » avec cet équipement choisi, puis le devis créé', async () => {
      await page.goto(new URL(`/equipements/${lift.id}`, baseUrl).href);
      await page.getByRole('heading', { level: 1, name: `Équipement ${lift.number}` }).waitFor();
      await page.getByRole('link', { name: 'Nouveau devis', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Nouveau devis' }).waitFor();
      await page.getByText(`Choisi : ${lift.number}`, { exact: true }).waitFor();
      assert.equal(await page.getByLabel('Équipement', { exact: true }).inputValue(), lift.number);
      await shot('filets-08-nouveau-devis');
      await page.getByLabel('Objet', { exact: true }).fill('Devis ouvert depuis la fiche de l’équipement');
      await page.getByLabel('Libellé de la ligne 1').fill('Remplacement du bouton palier');
      await page.getByLabel('Quantité de la ligne 1').fill('1');
      await page.getByLabel('Prix unitaire HT de la ligne 1').fill('85');
      const created = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/quotes' && r.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Créer le devis' }).click();
      const res = await created;
      assert.equal(res.status(), 201, await res.text());
      quoteId = (await res.json()).id;
      await page.waitForURL(`**/devis/${quoteId}`);
      const quotes = await appApi('GET', `/quotes?equipment=${encodeURIComponent(lift.number)}&limit=200`);
      const ours = quotes.body.results.find((q) => q.id === quoteId);
      assert.ok(ours, 'le devis créé est dans la liste');
      assert.equal(ours.equipment.id, lift.id);
    });

    step('fiche client : ses équipements, devis et factures, en liens', async () => {
      const park = await appApi('GET', `/equipment?client=${encodeURIComponent(client)}&archived=all&limit=50`);
      const invoices = await appApi('GET', `/invoices?client=${encodeURIComponent(client)}&limit=20`);
      const quote = await appApi('GET', `/quotes/${quoteId}`);
      assert.equal(quote.status, 200);

      await page.goto(new URL(`/clients/${client}`, baseUrl).href);
      await page.getByRole('heading', { level: 1 }).waitFor();

      const lifts = page.getByRole('region', { name: /^Équipements/ });
      await lifts.waitFor();
      for (const e of park.body.results.filter((r) => r.number)) {
        const link = lifts.getByRole('link', { name: e.number, exact: true });
        assert.equal(await link.getAttribute('href'), `/equipements/${e.id}`);
      }

      const quotes = page.getByRole('region', { name: /^Devis/ });
      const quoteLink = quotes.locator(`a[href="/devis/${quoteId}"]`);
      await quoteLink.waitFor();
      const number = quote.body.quote.number ?? 'Brouillon';
      assert.equal((await quoteLink.textContent())?.trim(), number);
      await quotes
        .getByRole('row')
        .filter({ has: page.locator(`a[href="/devis/${quoteId}"]`) })
        .getByText('Brouillon', { exact: true })
        .waitFor();

      const bills = page.getByRole('region', { name: /^Factures/ });
      assert.ok(invoices.body.results.length > 0);
      for (const row of invoices.body.results) {
        const link = bills.locator(`a[href="/factures/${row.id}"]`);
        await link.waitFor();
        assert.equal((await link.textContent())?.trim(), row.number ?? 'Brouillon');
      }
      await bills.getByText(`(${invoices.body.total})`).waitFor();
      await shot('filets-09-fiche-client', { fullPage: true });

      // Les liens mènent aux fiches.
      await lifts.getByRole('link', { name: lift.number, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: `Équipement ${lift.number}` }).waitFor();
    });

    step('aucune erreur JavaScript dans la page', () => {
      assert.deepEqual(pageErrors.map(String), []);
    });
  },
);
