// Test de bout en bout : le tableau de bord mène aux listes (issue 22, points 3 et 4),
// contre un serveur Liftdesk réel (démo).
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/dashboard-todo.test.mjs'
//
// Le panneau « À traiter » montre les chiffres de `GET /app/api/dashboard` (`todo`) ;
// le chiffre des factures échues ouvre la liste filtrée `overdue=1` (même nombre) ;
// une barre « appels par statut » ouvre les appels de ce statut ; « en retard »
// ouvre l'écran « Visites en retard » (autant de visites en retard que
// `visits.overdue`), que le filtre technicien restreint comme l'API ; la
// proposition de la semaine prochaine prend d'abord les visites en retard,
// marquées, et l'enregistrer les déplace (même visite, pas de doublon).
// Captures `a-traiter-…` et `retards-…` dans $LIFTDESK_ARTIFACTS/ui/.

import assert from 'node:assert/strict';
import { before } from 'node:test';
import { describeOnServer, plain, STEP_TIMEOUT } from './harness.mjs';

const num = (text) => Number(plain(text).replace(/\s/g, ''));

/** Le lundi de la semaine ISO d'un jour `AAAA-MM-JJ`. */
function mondayOf(day) {
  const date = new Date(`${day}T12:00:00Z`);
  const shift = (date.getUTCDay() + 6) % 7;
  date.setUTCDate(date.getUTCDate() - shift);
  return date.toISOString().slice(0, 10);
}

describeOnServer(
  'tableau de bord : à traiter et visites en retard',
  { timeout: 12 * STEP_TIMEOUT, shots: 'a-traiter' },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    let figures;

    const apiGet = (url) =>
      page.evaluate(async (u) => {
        const r = await fetch(u);
        if (!r.ok) throw new Error(`${u} : ${r.status}`);
        return r.json();
      }, url);

    async function home() {
      const dashboard = page.waitForResponse((r) => new URL(r.url()).pathname === '/app/api/dashboard');
      await page.goto(baseUrl);
      figures = await (await dashboard).json();
      await page.getByRole('region', { name: 'À traiter', exact: true }).waitFor();
    }

    before(() => ({ page, creds } = ui));

    step('connexion : « À traiter » montre les chiffres de l’API', async () => {
      const dashboard = page.waitForResponse((r) => new URL(r.url()).pathname === '/app/api/dashboard');
      await signIn(creds.admin);
      figures = await (await dashboard).json();
      const panel = page.getByRole('region', { name: 'À traiter', exact: true });
      await panel.waitFor();
      const todo = figures.todo;
      const expected = {
        trapped: todo.trappedCount,
        unassigned: todo.unassignedCount,
        'late-visits': todo.lateVisits,
        'waiting-quotes': todo.waitingQuotesCount,
        'overdue-invoices': todo.overdueInvoices,
      };
      for (const [kind, count] of Object.entries(expected)) {
        const figure = panel.locator(`[data-todo="${kind}"] [data-count]`);
        assert.equal(num(await figure.textContent()), count, `À traiter : ${kind}`);
      }
      assert.ok(todo.trappedCount > 0, 'la démo a un appel « personne bloquée » non résolu');
      // Les appels « personne bloquée » : liens vers l'appel, avec le temps écoulé.
      const first = todo.trapped[0];
      const trappedLink = panel.getByRole('link', { name: new RegExp(first.reference) });
      assert.equal(await trappedLink.getAttribute('href'), `/appels/${first.id}`);
      assert.match(plain(await panel.locator('[data-todo="trapped"]').textContent()), /il y a \d+/);
      // Les devis en attente mènent au devis.
      if (todo.waitingQuotes[0]) {
        const quote = todo.waitingQuotes[0];
        const link = panel.getByRole('link', { name: new RegExp(quote.number) });
        assert.equal(await link.getAttribute('href'), `/devis/${quote.id}`);
      }
      await shot('a-traiter-01-tableau-de-bord');
    });

    step('le chiffre des factures échues ouvre la liste filtrée, même nombre', async () => {
      const link = page.locator('[data-todo="overdue-invoices"]').getByRole('link', { name: /factures échues/i }).first();
      await link.click();
      await page.waitForURL((url) => url.pathname === '/factures' && url.searchParams.get('overdue') === '1');
      await page.getByRole('heading', { level: 1, name: 'Factures et avoirs' }).waitFor();
      assert.equal(await page.getByLabel('Échues seulement', { exact: true }).isChecked(), true);
      const api = await apiGet('/app/api/invoices?overdue=1&limit=1');
      assert.equal(api.total, figures.todo.overdueInvoices);
      const count = page.getByTestId('invoice-count');
      await count.waitFor();
      assert.equal(num(await count.locator('strong').textContent()), api.total);
      assert.match(plain(await count.textContent()), /pièces? dans la sélection/);
      await page.waitForFunction((n) => document.querySelectorAll('table tbody tr').length === Math.min(n, 50), api.total);
      await shot('a-traiter-02-factures-echues');
    });

    step('une barre « appels par statut » ouvre les appels de ce statut', async () => {
      await home();
      const status = figures.calls.byStatus.find((s) => s.count > 0);
      const link = page
        .locator('[data-chart="chart-calls"]')
        .getByRole('link', { name: new RegExp(`^${status.libelle.replace(/[()]/g, '.')} : ${status.count}`) });
      await link.click();
      await page.waitForURL((url) => url.pathname === '/appels' && url.searchParams.get('statut') === status.statut);
      await page.locator(`[data-statut="${status.statut}"]`).waitFor();
      assert.equal(await page.locator('section.column[data-statut]').count(), 1, 'une seule colonne affichée');
      assert.equal(await page.getByLabel('Statut', { exact: true }).inputValue(), status.statut);
    });

    let lateApi;
    step('« en retard » ouvre les visites en retard, autant que le tableau de bord', async () => {
      await home();
      await page.getByRole('link', { name: /visites en retard/ }).first().click();
      await page.waitForURL((url) => url.pathname === '/planning/retards');
      await page.getByRole('heading', { level: 1, name: 'Visites en retard' }).waitFor();
      lateApi = await apiGet('/app/api/visits/late');
      assert.equal(lateApi.late, figures.visits.overdue);
      const summary = page.locator('[data-late-count]');
      await summary.waitFor();
      assert.equal(num(await summary.textContent()), figures.visits.overdue);
      const rows = page.locator('table.late-table tbody tr');
      assert.equal(await rows.count(), lateApi.visits.length);
      assert.match(await page.title(), /^(\(\d+\) )?Visites en retard — Liftdesk$/);
      await shot('retards-01-liste');
    });

    step('le filtre technicien restreint la liste comme l’API', async () => {
      const technician = lateApi.visits.find((v) => v.technician)?.technician;
      assert.ok(technician, 'une visite en retard avec technicien');
      await page.getByLabel('Technicien', { exact: true }).selectOption(technician.id);
      await page.waitForURL((url) => url.searchParams.get('technician') === technician.id);
      const api = await apiGet(`/app/api/visits/late?technician=${technician.id}`);
      assert.ok(api.visits.length < lateApi.visits.length);
      await page.waitForFunction((n) => document.querySelectorAll('table.late-table tbody tr').length === n, api.visits.length);
      const names = (await page.locator('table.late-table tbody td[data-col="technician"]').allTextContents()).map(plain);
      assert.ok(names.every((n) => n === technician.name), names.join(', '));
      // « Non affecté » existe dans la liste des techniciens.
      assert.equal(await page.getByLabel('Technicien', { exact: true }).locator('option[value="unassigned"]').count(), 1);
      await shot('retards-02-filtre-technicien');
    });

    // Sur la démo, les visites en retard peuvent toutes être déjà prévues la semaine prochaine
    // (rien à proposer) : « Replanifier » en repousse une au-delà, comme l'a vu l'utilisateur
    // (« le planning les étale sur plusieurs semaines »).
    let pushed;
    step('« Replanifier » déplace une visite en retard par le dialogue du planning', async () => {
      await page.getByLabel('Technicien', { exact: true }).selectOption('');
      await page.waitForFunction((n) => document.querySelectorAll('table.late-table tbody tr').length === n, lateApi.visits.length);
      pushed = lateApi.visits.find((v) => v.late && v.status === 'planifiee' && v.technician);
      assert.ok(pushed, 'une visite en retard planifiée');
      // Le mercredi de la semaine d'après la prochaine.
      const nextMonday = mondayOf(lateApi.today);
      const later = new Date(`${nextMonday}T12:00:00Z`);
      later.setUTCDate(later.getUTCDate() + 7 + 9);
      const day = later.toISOString().slice(0, 10);
      const row = page.locator(`tr[data-visit="${pushed.id}"]`);
      await row.getByRole('button', { name: /^Replanifier/ }).click();
      const dialog = page.getByRole('dialog').first();
      await dialog.getByLabel('Nouveau jour', { exact: true }).fill(day);
      const moved = page.waitForResponse((r) => new URL(r.url()).pathname === `/app/api/visits/${pushed.id}/move`);
      await dialog.getByRole('button', { name: 'Déplacer', exact: true }).click();
      await page.getByRole('button', { name: 'Déplacer quand même' }).click();
      assert.equal((await moved).status(), 200);
      const visit = await apiGet(`/app/api/visits/${pushed.id}`);
      assert.equal(visit.plannedFor, day);
      await page.waitForFunction(
        ([id, text]) => document.querySelector(`tr[data-visit="${id}"]`)?.textContent.includes(text),
        [pushed.id, `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`],
      );
    });

    step('la proposition prend d’abord les visites en retard, et les déplace', async () => {
      await page.goto(new URL('/planning', baseUrl).href);
      await page.getByRole('link', { name: 'Visites en retard' }).first().waitFor();
      const proposalResponse = page.waitForResponse((r) => new URL(r.url()).pathname === '/app/api/planning/proposal');
      await page.getByRole('button', { name: 'Proposer la semaine prochaine' }).click();
      const proposal = await (await proposalResponse).json();
      await page.getByRole('heading', { level: 2, name: /^Proposition/ }).waitFor();
      assert.equal(await page.getByText('Aucune visite à proposer').count(), 0);
      const late = proposal.visits.filter((v) => v.lateVisit);
      assert.ok(late.length > 0, 'la démo a des visites en retard à proposer');
      assert.ok(late.some((v) => v.lateVisit.id === pushed.id), 'la visite repoussée revient dans la proposition');
      assert.ok(proposal.visits[0].lateVisit, 'la première ligne est une visite en retard');
      const firstRow = page.locator('table.proposal-table tbody tr').first();
      const [y, m, d] = proposal.visits[0].lateVisit.plannedFor.split('-');
      assert.match(plain(await firstRow.textContent()), new RegExp(`En retard — prévue le ${d}/${m}`));
      await shot('retards-03-proposition');

      // Avant : les visites de l'équipement sur la semaine où elle est prévue et sur la semaine proposée.
      const target = late[0];
      const weeks = [...new Set([mondayOf(target.lateVisit.plannedFor), proposal.days[0]])];
      const countVisits = async () => {
        let n = 0;
        for (const w of weeks) {
          const week = await apiGet(`/app/api/planning?day=${w}`);
          n += week.entries.filter((e) => e.equipmentId === target.equipmentId).length;
        }
        return n;
      };
      const before = await countVisits();
      const saved = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/planning/proposal' && r.request().method() === 'POST',
      );
      await page.getByRole('button', { name: /^Enregistrer/ }).click();
      const response = await saved;
      assert.equal(response.status(), 201, await response.text());
      const body = JSON.parse(response.request().postData());
      const line = body.visits.find((v) => v.equipmentId === target.equipmentId);
      assert.equal(line.visitId, target.lateVisit.id);
      const visit = await apiGet(`/app/api/visits/${target.lateVisit.id}`);
      assert.notEqual(visit.plannedFor, target.lateVisit.plannedFor);
      assert.ok(proposal.days.includes(visit.plannedFor), `déplacée dans la semaine proposée : ${visit.plannedFor}`);
      assert.equal(await countVisits(), before, 'aucune visite en double');
      assert.deepEqual(pageErrors, []);
    });
  },
);
