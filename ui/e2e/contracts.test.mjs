// Test de bout en bout des contrats d'entretien, contre un serveur Liftdesk réel
// lancé sur la démonstration (voir login.test.mjs pour les variables) :
// un contrat créé par son formulaire pour deux appareils, activé ; ses obligations
// périodiques (câbles, parachute, nettoyage) sur les cartes du planning ; le
// trimestre facturé par « Facturer les contrats » (aperçu au prorata, brouillons,
// émission avec la barre de progression), et une seconde fois sans rien créer ;
// le rapport annuel du contrat en PDF.
//
// La facturation porte sur tous les contrats d'une agence : le test travaille
// dans une agence qu'il crée (identité de vendeur, client, deux appareils), pour
// ne facturer que son contrat et laisser la démo aux autres fichiers.
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/contracts.test.mjs'

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import { addDays, artifactsDir, describeOnServer, expectText, leaveTestAgency, plain, TIMEOUT } from './harness.mjs';

const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const parisToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
const dayCount = (from, to) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
const euros = (value) => new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(value).replace(/[\u202f\u00a0]/g, ' ');

/** Le trimestre civil du jour `day` : { from, to }. */
function quarterOf(day) {
  const year = Number(day.slice(0, 4));
  const first = Math.floor((Number(day.slice(5, 7)) - 1) / 3) * 3 + 1;
  const last = first + 2;
  const lastDay = new Date(Date.UTC(year, last, 0)).getUTCDate();
  const pad = (n) => String(n).padStart(2, '0');
  return { from: `${year}-${pad(first)}-01`, to: `${year}-${pad(last)}-${pad(lastDay)}` };
}

/** Le lundi de la semaine du jour `day`. */
function mondayOf(day) {
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** `day` plus `months` mois (le dernier jour du mois quand il manque), comme le serveur. */
function addMonths(day, months) {
  const [y, m, d] = day.split('-').map(Number);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const pad = (n) => String(n).padStart(2, '0');
  return `${year}-${pad(month)}-${pad(Math.min(d, last))}`;
}

const IDENTITY = {
  legalName: 'Ascenseurs Contrats E2E',
  legalForm: 'SAS',
  shareCapital: 50000,
  rcsCity: 'Lyon',
  siret: '552 100 554 00013',
  vatNumber: 'FR 96 552 100 554',
  headOfficeAddress: '3 quai Saint-Antoine\n69002 Lyon',
  address: '12 rue de la Part-Dieu, 69003 Lyon',
  phone: '04 72 00 00 00',
  email: 'contrats@example.fr',
  iban: 'FR76 3000 6000 0112 3456 7890 189',
  bic: 'BNPAFRPP',
  insurer: 'SMABTP, 8 rue Louis-Armand, 75015 Paris',
  insurancePolicy: '123456/RC',
  insuranceArea: 'France métropolitaine',
  vatOnDebits: true,
};

describeOnServer(
  "contrats d'entretien : formulaire, obligations au planning, facturation du trimestre, rapport annuel",
  { timeout: 8 * 90_000, stepTimeout: 90_000, shots: 'contrats', viewport: { width: 1440, height: 900 } },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse, appApi, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    const stamp = Date.now().toString(36).toUpperCase();
    const clientName = `Copropriété Les Tilleuls ${stamp}`;
    const numbers = [`CT-${stamp}-A`, `CT-${stamp}-B`];
    const lifts = [];
    const today = parisToday();
    const quarter = quarterOf(today);
    // Le contrat commence au 16e jour du trimestre : sa première période est au prorata.
    const startOn = addDays(quarter.from, 15);
    let contractId;
    let contractNumber;
    let agencyId = null;
    let homeAgencyId = null;

    /** Choisit dans un sélecteur (`SearchPicker`) la réponse qui commence par `title`. */
    async function pick(label, text, title) {
      const field = page.getByLabel(label, { exact: true });
      await field.fill('');
      await field.pressSequentially(text, { delay: 10 });
      await page
        .getByRole('list', { name: `${label} : choix` })
        .getByRole('button', { name: new RegExp(`^${literal(title)}(\\s|$)`) })
        .first()
        .click();
    }

    before(() => ({ page, creds } = ui));

    // L'agence du test archivée, la session remise dans l'agence du départ.
    after(() => leaveTestAgency(page, { agencyId, home: homeAgencyId }));

    step("une agence à soi : identité de vendeur, un client et deux appareils", async () => {
      const session = await signIn(creds.admin);
      homeAgencyId = session.agency?.id ?? null;
      const agency = await appApi('POST', '/agencies', { name: `Agence contrats ${stamp}` });
      assert.ok(agency.status === 200 || agency.status === 201, JSON.stringify(agency.body));
      agencyId = agency.body.id ?? agency.body.agency?.id;
      const switched = await appApi('PUT', '/session/agency', { agencyId });
      assert.equal(switched.status, 200, JSON.stringify(switched.body));
      // Une série de numérotation à elle : l'organisation a plusieurs agences.
      const series = `K${stamp.slice(-5)}`.replace(/[^A-Z0-9]/g, '');
      const identity = await appApi('PUT', '/agency/identity', { ...IDENTITY, invoiceSeries: series });
      assert.equal(identity.status, 200, JSON.stringify(identity.body));
      const client = await appApi('POST', '/clients', { name: clientName });
      assert.equal(client.status, 201, JSON.stringify(client.body));
      for (const number of numbers) {
        const lift = await appApi('POST', '/equipment', {
          number,
          type: 'ascenseur',
          location: `Cage ${number.slice(-1)}`,
          clientId: client.body.client.id,
        });
        assert.equal(lift.status, 201, JSON.stringify(lift.body));
        lifts.push(lift.body.id);
      }
    });

    step('« Nouveau contrat » : formulaire contrôlé, créé en brouillon, puis activé', async () => {
      await page.goto(new URL('/contrats', baseUrl).href);
      await page.getByRole('heading', { level: 1, name: "Contrats d'entretien" }).waitFor();
      await page.getByText('Aucun contrat ne correspond à ces filtres.').waitFor();
      await page.getByRole('link', { name: 'Nouveau contrat' }).click();
      await page.getByRole('heading', { level: 1, name: 'Nouveau contrat' }).waitFor();

      // Rien de choisi : le formulaire le dit sous chaque champ, rien n'est envoyé.
      let posts = 0;
      const count = (request) => {
        if (new URL(request.url()).pathname === '/app/api/contracts' && request.method() === 'POST') posts += 1;
      };
      page.on('request', count);
      await page.getByRole('button', { name: 'Créer le contrat' }).click();
      await expectText(page.locator('#contract-client-error'), 'Choisissez le client du contrat dans la liste.');
      await expectText(page.locator('#contract-lifts-error'), 'Ajoutez au moins un appareil couvert.');
      await expectText(page.locator('#contract-annualPrice-error'), 'Prix annuel HT : un montant en euros est attendu (par exemple 1 250,00).');
      page.off('request', count);
      assert.equal(posts, 0);

      await pick('Client', clientName.slice(0, 30), clientName);
      await pick('Ajouter un appareil', numbers[0], numbers[0]);
      await pick('Ajouter un appareil', numbers[1], numbers[1]);
      const chosen = page.getByTestId('contract-lifts-chosen');
      await expectText(chosen.locator('li').nth(0).locator('strong'), numbers[0]);
      await expectText(chosen.locator('li').nth(1).locator('strong'), numbers[1]);
      await page.getByLabel('Type de contrat').selectOption('complet');
      await page.getByLabel('Premier jour', { exact: true }).fill(startOn);
      await page.getByLabel("Prix annuel HT d'un appareil").fill('1 200');
      await page.getByLabel("Nuits couvertes par l'astreinte").check();
      await page.getByLabel("Délai d'arrivée hors heures ouvrées").fill('240');
      await shot('contrats-01-formulaire');

      const created = apiResponse('/app/api/contracts', 'POST');
      await page.getByRole('button', { name: 'Créer le contrat' }).click();
      const answer = await created;
      assert.equal(answer.status(), 201, await answer.text());
      const sent = answer.request().postDataJSON();
      assert.deepEqual(sent.liftIds, lifts);
      assert.equal(sent.type, 'complet');
      assert.equal(sent.startOn, startOn);
      assert.equal(sent.annualPrice, 1200);
      assert.equal(sent.onCallCoverage, true);
      assert.equal(sent.arrivalOutOfHoursMinutes, 240);
      contractId = (await answer.json()).id;

      await page.waitForURL(`**/contrats/${contractId}`);
      const title = page.getByRole('heading', { level: 1, name: /^Contrat CT-/ });
      await title.waitFor();
      contractNumber = plain(await title.textContent()).replace('Contrat ', '');
      await expectText(page.getByTestId('statut'), 'Brouillon');
      const liftRows = page.getByTestId('contract-lifts').locator('tbody tr');
      assert.equal(await liftRows.count(), 2);
      const duties = plain(await page.getByTestId('contract-duties').textContent());
      assert.match(duties, /tous les 42 jours/);
      assert.match(duties, /tous les 6 mois/);
      assert.match(duties, /chaque année/);

      await page.getByRole('button', { name: 'Activer le contrat' }).click();
      const dialog = page.getByRole('dialog', { name: 'Activer le contrat ?' });
      const activated = apiResponse(`/app/api/contracts/${contractId}/activate`, 'POST');
      await dialog.getByRole('button', { name: 'Activer', exact: true }).click();
      assert.equal((await activated).status(), 201);
      await expectText(page.getByTestId('statut'), 'Actif');
      assert.equal(await page.getByRole('link', { name: 'Modifier' }).count(), 0, 'un contrat actif ne se modifie plus');
      await shot('contrats-02-actif');

      // La liste le montre, actif, avec ses deux appareils.
      await page.goto(new URL('/contrats', baseUrl).href);
      const row = page.locator(`tr[data-contract="${contractNumber}"]`);
      await row.waitFor();
      assert.match(plain(await row.textContent()), new RegExp(`${literal(clientName)}.*Complet.*2.*Actif`));

      // La fiche du client le montre ; celle d'un appareil mène à ses contrats.
      await row.getByRole('link', { name: clientName }).click();
      await page.getByRole('heading', { level: 2, name: /^Contrats d'entretien/ }).waitFor();
      await page.locator(`tr[data-contract="${contractNumber}"]`).waitFor();
      await page.goto(new URL(`/equipements/${lifts[1]}`, baseUrl).href);
      await page.getByTestId('equipment-contracts').click();
      await page.waitForURL(`**/contrats?equipment=${lifts[1]}`);
      await page.locator(`tr[data-contract="${contractNumber}"]`).waitFor();
      await expectText(page.getByText(/^\d+ contrats?$/), '1 contrat');
    });

    step('les obligations du contrat sur les cartes du planning, avec leur échéance', async () => {
      // Jamais faites, elles comptent du début du plan de l'appareil, que l'activation a
      // posé au premier jour du contrat. Une visite six jours avant l'échéance des câbles
      // (six mois) les porte ; parachute et nettoyage (un an) pas encore.
      const planStart = startOn;
      const cables = addMonths(planStart, 6);
      const day = addDays(cables, -6);
      const visits = [];
      for (const equipmentId of lifts) {
        const created = await appApi('POST', '/visits', { equipmentId, plannedFor: day });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        assert.deepEqual(
          created.body.duties.map((d) => [d.code, d.deadline, d.overdue]),
          [['cables', cables, false]],
          JSON.stringify(created.body.duties),
        );
        visits.push(created.body.id);
      }
      const week = apiResponse('/app/api/planning', 'GET');
      await page.goto(new URL(`/planning/${mondayOf(day)}`, baseUrl).href);
      await week;
      await page.locator('table.planning-grid').waitFor();
      for (const id of visits) {
        const card = page.locator(`[data-visit="${id}"]`);
        await card.waitFor();
        await expectText(card.locator('[data-duties]'), 'Câbles');
      }
      await shot('contrats-03-planning');

      // Déplacée à l'anniversaire du plan, la visite du premier appareil porte aussi le
      // parachute et le nettoyage, et les câbles, jamais faits, en retard.
      const yearly = addMonths(planStart, 12);
      const late = await appApi('POST', `/visits/${visits[0]}/move`, { plannedFor: yearly });
      assert.equal(late.status, 200, JSON.stringify(late.body));
      assert.deepEqual(
        late.body.duties.map((d) => [d.code, d.deadline, d.overdue]),
        [
          ['cables', cables, true],
          ['parachute', yearly, false],
          ['nettoyage', yearly, false],
        ],
      );
      await page.goto(new URL(`/planning/${mondayOf(yearly)}`, baseUrl).href);
      const card = page.locator(`[data-visit="${visits[0]}"]`);
      await card.waitFor();
      const line = card.locator('[data-duties]');
      await expectText(line, 'Câbles (en retard), Parachute, Nettoyage');
      assert.match((await line.getAttribute('class')) ?? '', /\blate\b/);
    });

    step('« Facturer les contrats » : aperçu au prorata, brouillons, émission avec la barre de progression', async () => {
      const read = apiResponse('/app/api/contract-billing/preview', 'GET');
      await page.goto(new URL('/contrats/facturation', baseUrl).href);
      const preview = await (await read).json();
      assert.equal(preview.from, quarter.from);
      assert.equal(preview.to, quarter.to);
      assert.equal(preview.summary.toCreate, 1, JSON.stringify(preview.summary));
      const [entry] = preview.results;
      assert.equal(entry.contract.number, contractNumber);
      assert.equal(entry.units, 2);
      assert.equal(entry.billedFrom, startOn);

      // Le calcul à la main : 1 200 € par an et par appareil, un trimestre (3/12), au
      // prorata des jours couverts, au centime par appareil ; puis deux appareils.
      const days = dayCount(startOn, quarter.to);
      const periodDays = dayCount(quarter.from, quarter.to);
      const perLift = Math.round((120_000 * 3) / 12 * days / periodDays) / 100;
      const total = Math.round(perLift * 2 * 100) / 100;
      assert.deepEqual(
        entry.segments.map((s) => [s.days, s.periodDays, s.amount, s.prorated]),
        [[days, periodDays, perLift, true]],
      );
      assert.equal(entry.totalExclTax, total);

      const summary = page.getByTestId('billing-summary');
      await expectText(summary.getByTestId('to-create'), '1');
      const row = page.locator(`tr[data-contract="${contractNumber}"]`);
      const text = plain(await row.textContent());
      assert.ok(text.includes(`prorata ${days}/${periodDays} j`), text);
      assert.ok(text.includes(euros(total)), `${euros(total)} absent de : ${text}`);
      assert.ok(text.includes('À facturer'), text);
      await shot('contrats-04-apercu');

      const drafts = apiResponse('/app/api/contract-billing/drafts', 'POST');
      await page.getByRole('button', { name: 'Créer les brouillons (1)' }).click();
      const made = await drafts;
      assert.equal(made.status(), 201);
      assert.equal((await made.json()).created, 1);
      await expectText(page.getByTestId('billing-done'), '1 facture créée en brouillon.');
      await expectText(summary.getByTestId('already-invoiced'), '1');
      await expectText(summary.getByTestId('drafts'), '1');
      assert.equal(await page.getByRole('button', { name: 'Créer les brouillons (0)' }).isDisabled(), true);

      await page.getByRole('button', { name: 'Émettre les factures (1)' }).click();
      const confirm = page.getByRole('dialog', { name: 'Émettre les factures ?' });
      const issued = apiResponse('/app/api/contract-billing/issue', 'POST');
      await confirm.getByRole('button', { name: 'Émettre', exact: true }).click();
      const batch = await (await issued).json();
      assert.equal(batch.issued.length, 1, JSON.stringify(batch));
      assert.equal(batch.remaining, 0);
      const bar = page.getByTestId('issue-progress');
      await expectText(bar.locator('.line'), '1 émise (100 %)');
      assert.equal(await bar.locator('progress').getAttribute('value'), '1');
      await expectText(page.getByTestId('billing-done'), '1 facture émise.');
      await expectText(row.locator('td').last(), `Déjà facturé ${batch.issued[0].number}`);
      await expectText(summary.getByTestId('drafts'), '0');
      assert.equal(await page.getByRole('button', { name: 'Émettre les factures (0)' }).isDisabled(), true);
      await shot('contrats-05-emises');

      // Une seconde fois : rien à créer (une période n'est jamais facturée deux fois).
      const again = await appApi('POST', '/contract-billing/drafts', quarter);
      assert.equal(again.status, 201);
      assert.equal(again.body.created, 0);

      // La facture émise : ses lignes nomment le contrat et la période.
      const invoice = await appApi('GET', `/invoices/${batch.issued[0].id}`);
      assert.equal(invoice.status, 200);
      assert.equal(invoice.body.invoice.totalExclTax, total);
      assert.ok(JSON.stringify(invoice.body).includes(contractNumber), 'le numéro du contrat absent de la facture');
    });

    step('le rapport annuel du contrat, en PDF', async () => {
      await page.goto(new URL(`/contrats/${contractId}`, baseUrl).href);
      await page.getByRole('heading', { level: 1, name: `Contrat ${contractNumber}` }).waitFor();
      await page.getByTestId('response-summary').waitFor();
      assert.match(plain(await page.getByTestId('response-summary').textContent()), /^0 appel du/);
      const year = today.slice(0, 4);
      await page.getByLabel('Année', { exact: true }).selectOption(year);
      const link = page.getByTestId('annual-report');
      const href = await link.getAttribute('href');
      assert.equal(href, `/app/api/contracts/${contractId}/annual-report?year=${year}`);
      const [viewed, popup] = await Promise.all([
        page.context().waitForEvent('response', {
          predicate: (r) => new URL(r.url()).pathname === `/app/api/contracts/${contractId}/annual-report`,
          timeout: TIMEOUT,
        }),
        page.waitForEvent('popup'),
        link.click(),
      ]);
      assert.equal(viewed.status(), 200);
      assert.equal(viewed.headers()['content-type'], 'application/pdf');
      await popup.close();
      const pdf = await page.request.get(new URL(href, baseUrl).href);
      const bytes = await pdf.body();
      assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
      const file = path.join(artifactsDir, 'pdf', `rapport-annuel-${contractNumber}.pdf`);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, bytes);
      const text = plain(execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }));
      for (const piece of ['Rapport annuel', contractNumber, year, numbers[0], numbers[1], clientName]) {
        assert.ok(text.includes(piece), `« ${piece} » absent du rapport annuel :\n${text}`);
      }
      await shot('contrats-06-rapport');
      assert.deepEqual(pageErrors, []);
    });
  },
);
