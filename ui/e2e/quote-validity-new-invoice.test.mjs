// Test de bout en bout de la validité des devis et de la facture sans devis (ticket 22,
// point 6), contre un serveur Liftdesk réel lancé sur la démonstration (voir
// login.test.mjs pour les variables), en administrateur :
// - un devis envoyé de la démo dont la validité est passée : la liste des devis le dit
//   « Expiré » ; sa page montre le badge « Expiré », la phrase qui demande de le renouveler,
//   pas de « Enregistrer l'acceptation » ; l'acceptation envoyée quand même (fetch) est
//   refusée (422) avec la phrase du serveur ; « Renouveler la validité » affiche la nouvelle
//   date (aujourd'hui à Paris + 30 jours), l'acceptation revient et aboutit ;
// - « Facturer ce devis » : le client facturé se choisit dans la liste des clients (plus
//   d'identifiant à taper) ; la facture nomme l'appareil du devis ;
// - « Nouvelle facture » (bouton de la liste des factures) : rien de choisi, la phrase du
//   client manquant ; le client choisi en tapant une partie de son nom, un appareil en tapant
//   une partie du nom de son immeuble, une ligne ; un refus du serveur (client inconnu)
//   montre sa phrase et garde la saisie ; « Créer le brouillon » ouvre la facture,
//   qui montre le client, le numéro de l'appareil (lien vers sa fiche) et son immeuble ; le
//   PDF du brouillon répond 200 et nomme l'appareil ; le brouillon modifié sans appareil
//   n'en montre plus.
// Captures validite-… et nouvelle-facture-… dans $LIFTDESK_ARTIFACTS/ui/.
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/quote-validity-new-invoice.test.mjs'
//
// Le test change un devis de la démo (renouvelé, accepté, facturé) et crée ses factures ;
// d'autres fichiers peuvent changer la démo.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before } from 'node:test';
import { addDays, artifactsDir, describeOnServer, expectText, plain, STEP_TIMEOUT } from './harness.mjs';

const EUROS = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
/** Un montant tel que l'écran l'affiche, espaces normalisés. */
const euros = (value) => plain(EUROS.format(value));
/** `2026-12-12` → `12/12/2026`. */
const french = (day) => day.split('-').reverse().join('/');
/** Le texte pris tel quel dans une expression régulière. */
const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Aujourd'hui à Paris (AAAA-MM-JJ), le jour que le serveur prend pour la validité. */
function parisToday() {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Paris',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
}

/** Le mot le plus long d'un nom (au moins 4 lettres), pour le chercher par une partie. */
function longestWord(name) {
  const words = (name ?? '').split(/[\s,'’()-]+/).filter((w) => w.length >= 4);
  return words.sort((a, b) => b.length - a.length)[0] ?? null;
}

describeOnServer(
  'validité des devis et nouvelle facture',
  { timeout: 10 * STEP_TIMEOUT, shots: 'validite', viewport: { width: 1440, height: 900 } },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, appApi, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    /** Le devis envoyé et expiré de la démo. */
    let quote;
    /** Le client choisi (par son nom) et l'appareil choisi (par son immeuble). */
    let client;
    let clientPart;
    let lift;
    let liftPart;
    let invoiceId;

    /** Tape `text` dans le sélecteur `label` (de `scope`) et choisit la réponse dont le titre commence par `title`. */
    async function pick(scope, label, text, title) {
      const field = scope.getByLabel(label, { exact: true });
      await field.fill('');
      await field.pressSequentially(text, { delay: 10 });
      await scope
        .getByRole('list', { name: `${label} : choix` })
        .getByRole('button', { name: new RegExp(`^${literal(title)}(\\s|$)`) })
        .first()
        .click();
    }

    before(() => ({ page, creds } = ui));

    step('connexion ; un devis envoyé et expiré de la démo, « Expiré » dans la liste', async () => {
      await signIn(creds.admin);

      const sent = await appApi('GET', '/quotes?status=envoye&limit=100');
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      quote = sent.body.results.find((q) => q.expired === true);
      assert.ok(quote, 'la démo doit avoir un devis envoyé dont la validité est passée');
      assert.ok(quote.validUntil < parisToday(), `${quote.validUntil} : pas encore passé`);
      const valid = sent.body.results.find((q) => q.expired === false);

      await page.goto(new URL('/devis?status=envoye', baseUrl).href);
      const row = page.locator(`tr[data-quote="${quote.id}"]`);
      await row.waitFor();
      const cell = row.locator('[data-testid="validite"]');
      await cell.getByText('Expiré', { exact: true }).waitFor();
      await expectText(cell, `Expiré ${french(quote.validUntil)}`);
      if (valid) {
        // A quote still valid shows its date alone.
        await expectText(page.locator(`tr[data-quote="${valid.id}"] [data-testid="validite"]`), french(valid.validUntil));
      }
      await shot('validite-liste');
    });

    step('la page du devis expiré : « Expiré », la phrase, pas d’acceptation ; le serveur la refuse', async () => {
      await page.locator(`tr[data-quote="${quote.id}"]`).getByRole('link', { name: quote.number }).click();
      await page.getByRole('heading', { level: 1, name: `Devis ${quote.number}` }).waitFor();
      await expectText(page.getByTestId('expire'), 'Expiré');
      await expectText(page.getByTestId('validite'), `Valable jusqu'au ${french(quote.validUntil)} (expiré)`);
      await expectText(
        page.getByTestId('validity-warning'),
        `Ce devis n'est plus valable (il l'était jusqu'au ${french(quote.validUntil)}) : renouvelez sa validité avant d'enregistrer son acceptation.`,
      );
      await page.getByRole('button', { name: 'Renouveler la validité' }).waitFor();
      assert.equal(await page.getByRole('button', { name: "Enregistrer l'acceptation" }).count(), 0);
      await shot('validite-expire');

      const refused = await appApi('POST', `/quotes/${quote.id}/accept`);
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.equal(
        refused.body.error,
        `Ce devis n'est plus valable depuis le ${french(quote.validUntil)} : renouvelez-le avant de l'accepter.`,
      );
      const still = await appApi('GET', `/quotes/${quote.id}`);
      assert.equal(still.body.quote.status, 'envoye');
    });

    step('« Renouveler la validité » : aujourd’hui + 30 jours, puis l’acceptation aboutit', async () => {
      const renewed = addDays(parisToday(), 30);
      const answer = page.waitForResponse(
        (r) => new URL(r.url()).pathname === `/app/api/quotes/${quote.id}/renew` && r.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Renouveler la validité' }).click();
      assert.equal((await answer).status(), 201);
      await expectText(page.getByTestId('validite'), `Valable jusqu'au ${french(renewed)}`);
      await page.getByText(`Validité renouvelée : Valable jusqu'au ${french(renewed)}.`, { exact: true }).waitFor();
      assert.equal(await page.getByTestId('expire').count(), 0);
      assert.equal(await page.getByTestId('validity-warning').count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Renouveler la validité' }).count(), 0);
      await shot('validite-renouvele');
      // The journal names the renewal; its detail holds both days (labelled by lib/journal.ts).
      const journal = await appApi('GET', `/journal?objectType=quote&objectId=${encodeURIComponent(quote.id)}&limit=5`);
      assert.equal(journal.status, 200, JSON.stringify(journal.body));
      const entry = journal.body.entries.find((e) => e.action === 'renouvellement');
      assert.ok(entry, JSON.stringify(journal.body.entries));
      assert.equal(entry.actionLabel, 'Renouvellement');
      assert.equal(entry.detail.validUntilBefore, quote.validUntil);
      assert.equal(entry.detail.validUntil, renewed);

      await page.getByRole('button', { name: "Enregistrer l'acceptation" }).click();
      await page.getByRole('button', { name: "Confirmer l'acceptation" }).click();
      await expectText(page.getByTestId('statut'), 'Accepté');
      await shot('validite-accepte');
      const read = await appApi('GET', `/quotes/${quote.id}`);
      assert.equal(read.body.quote.validUntil, renewed);
      assert.equal(read.body.quote.status, 'accepte');
    });

    step('« Facturer ce devis » : le client choisi par son nom ; la facture nomme l’appareil du devis', async () => {
      // A client of the agency, found by the longest word of its name (the same search as the screen's).
      const clients = await appApi('GET', '/clients?archived=active&limit=50');
      assert.equal(clients.status, 200, JSON.stringify(clients.body));
      const named = clients.body.results.find((c) => longestWord(c.name));
      assert.ok(named, 'la démo doit avoir un client actif nommé');
      clientPart = longestWord(named.name).slice(0, 6);
      const found = await appApi('GET', `/clients?q=${encodeURIComponent(clientPart)}&archived=active&limit=8`);
      client = found.body.results[0];
      assert.ok(client, `« ${clientPart} » doit trouver un client`);

      await page.getByRole('button', { name: 'Facturer ce devis' }).click();
      const dialog = page.getByRole('dialog', { name: 'Facturer ce devis' });
      await dialog.getByText('Sans choix, la facture va au client de l', { exact: false }).waitFor();
      // No identifier to type any more: the client is chosen in the list.
      assert.equal(await dialog.getByLabel(/identifiant/).count(), 0);
      await pick(dialog, 'Client facturé (facultatif)', clientPart, client.name);
      await dialog.getByText(`Choisi : ${client.name}`, { exact: true }).waitFor();
      await shot('validite-facturer');
      await dialog.getByRole('button', { name: 'Créer la facture' }).click();
      await page.waitForURL('**/factures/**');
      await expectText(page.getByTestId('statut'), 'Brouillon');
      await expectText(page.getByTestId('acheteur'), client.name);
      const lifts = page.getByTestId('invoice-equipment');
      await lifts.getByRole('heading', { name: 'Appareil concerné' }).waitFor();
      await lifts.getByRole('link', { name: quote.equipment.number ?? 'Sans numéro', exact: true }).waitFor();
    });

    step('« Nouvelle facture » : rien de choisi, le client est demandé', async () => {
      await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Factures' }).click();
      await page.getByRole('heading', { level: 1, name: 'Factures et avoirs' }).waitFor();
      await page.getByRole('link', { name: 'Nouvelle facture' }).click();
      await page.waitForURL('**/factures/nouvelle');
      await page.getByRole('heading', { level: 1, name: 'Nouvelle facture' }).waitFor();
      // « (1) » devant quand un appel urgent attend : seul l'écran compte ici.
      assert.match(await page.title(), /^(\(\d+\) )?Nouvelle facture — Liftdesk$/);
      await page.getByTestId('invoice-equipment-none').waitFor();
      await page.getByRole('button', { name: 'Créer le brouillon' }).click();
      await page.getByRole('alert').getByText('Choisissez le client facturé.', { exact: true }).waitFor();
      assert.equal(await page.getByLabel('Client facturé', { exact: true }).getAttribute('aria-invalid'), 'true');
      assert.ok(new URL(page.url()).pathname.endsWith('/factures/nouvelle'), 'rien n’est créé');
      await shot('nouvelle-facture-vide');
    });

    step('client par son nom, appareil par son immeuble, une ligne : le brouillon créé les nomme', async () => {
      // A lift with a number and a building, found by a word of the building's name.
      const listed = await appApi('GET', '/equipment?limit=100');
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      let candidate = null;
      for (const row of listed.body.results) {
        const word = longestWord(typeof row.building === 'string' ? row.building : row.building?.name);
        if (!word) continue;
        const search = await appApi('GET', `/calls/equipment?q=${encodeURIComponent(word)}`);
        const hit = search.body.results.find((e) => e.number && e.building?.includes(word));
        if (hit) {
          candidate = { word, hit };
          break;
        }
      }
      assert.ok(candidate, 'la démo doit avoir un appareil numéroté dans un immeuble nommé');
      liftPart = candidate.word;
      lift = candidate.hit;
      assert.ok(lift.building.includes(liftPart), `« ${liftPart} » est une partie de « ${lift.building} »`);

      await pick(page, 'Client facturé', clientPart, client.name);
      await page.getByText(`Choisi : ${client.name}`, { exact: true }).waitFor();
      await pick(page, 'Ajouter un appareil', liftPart, lift.number);
      const chosen = page.getByRole('list', { name: 'Appareils concernés choisis' });
      await chosen.getByText(lift.number, { exact: true }).waitFor();
      await chosen.getByText(lift.building, { exact: false }).waitFor();
      // The field is empty again for the next lift; choosing the same one twice lists it once.
      assert.equal(await page.getByLabel('Ajouter un appareil', { exact: true }).inputValue(), '');
      await pick(page, 'Ajouter un appareil', liftPart, lift.number);
      assert.equal(await chosen.getByRole('listitem').count(), 1);

      await page.getByLabel('Libellé de la ligne 1').fill('Dépannage hors contrat');
      await page.getByLabel('Quantité de la ligne 1').fill('1,5');
      await page.getByLabel('Prix unitaire HT de la ligne 1').fill('80');
      // 1,5 × 80 = 120 HT ; TVA 20 % 24 → 144 TTC.
      await expectText(page.getByTestId('total-ht'), euros(120));
      await expectText(page.getByTestId('total-ttc'), euros(144));
      await shot('nouvelle-facture-saisie');

      // A refusal of the server (here an unknown client, the request changed on its way):
      // its own sentence shows, nothing is lost of what was typed.
      const unknown = 'route vers un client inconnu';
      await page.route('**/app/api/invoices', async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        const body = JSON.parse(route.request().postData() ?? '{}');
        return route.continue({ postData: JSON.stringify({ ...body, clientId: 'CLI-999999' }) });
      });
      const refusedAnswer = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/invoices' && r.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Créer le brouillon' }).click();
      const refused = await refusedAnswer;
      assert.equal(refused.status(), 422, unknown);
      const sentence = (await refused.json()).error;
      assert.ok(sentence, 'le serveur donne sa phrase');
      await page.getByRole('alert').getByText(sentence, { exact: true }).waitFor();
      await page.unroute('**/app/api/invoices');
      assert.ok(new URL(page.url()).pathname.endsWith('/factures/nouvelle'), 'rien n’est créé');
      await page.getByText(`Choisi : ${client.name}`, { exact: true }).waitFor();
      await chosen.getByText(lift.number, { exact: true }).waitFor();
      assert.equal(await page.getByLabel('Libellé de la ligne 1').inputValue(), 'Dépannage hors contrat');
      assert.equal(await page.getByLabel('Quantité de la ligne 1').inputValue(), '1,5');
      await shot('nouvelle-facture-refus');

      const created = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/app/api/invoices' && r.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Créer le brouillon' }).click();
      const answer = await created;
      assert.equal(answer.status(), 201);
      assert.deepEqual(JSON.parse(answer.request().postData() ?? '{}'), {
        clientId: client.id,
        lines: [{ label: 'Dépannage hors contrat', quantity: 1.5, unitPrice: 80, vatRate: 20 }],
        equipmentIds: [lift.id],
      });
      invoiceId = (await answer.json()).id;
      await page.waitForURL(`**/factures/${invoiceId}`);
      await expectText(page.getByTestId('statut'), 'Brouillon');
      await expectText(page.getByTestId('acheteur'), client.name);
      await expectText(page.getByTestId('total-ttc'), euros(144));
      const lifts = page.getByTestId('invoice-equipment');
      const link = lifts.getByRole('link', { name: lift.number, exact: true });
      assert.equal(await link.getAttribute('href'), `/equipements/${encodeURIComponent(lift.id)}`);
      await lifts.getByText(lift.building, { exact: true }).waitFor();
      await shot('nouvelle-facture-brouillon');

      // The draft's PDF: 200, a PDF, naming the lift.
      const pdf = await page.evaluate(async (id) => {
        const response = await fetch(`/app/api/invoices/${id}/pdf`);
        const bytes = new Uint8Array(await response.arrayBuffer());
        let binary = '';
        for (const b of bytes) binary += String.fromCharCode(b);
        return { status: response.status, type: response.headers.get('content-type'), base64: btoa(binary) };
      }, invoiceId);
      assert.equal(pdf.status, 200);
      assert.equal(pdf.type, 'application/pdf');
      const file = path.join(artifactsDir, 'pdf', 'nouvelle-facture-brouillon.pdf');
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, Buffer.from(pdf.base64, 'base64'));
      const text = plain(execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }));
      assert.ok(text.includes(lift.number), `« ${lift.number} » absent du PDF :\n${text}`);
    });

    step('le brouillon modifié sans appareil : la section disparaît', async () => {
      await page.getByRole('button', { name: 'Modifier le brouillon' }).click();
      await shot('nouvelle-facture-modification');
      assert.equal(await page.getByLabel('Client facturé', { exact: true }).inputValue(), client.name);
      const chosen = page.getByRole('list', { name: 'Appareils concernés choisis' });
      await chosen.getByRole('button', { name: `Retirer l'appareil ${lift.number}` }).click();
      await page.getByTestId('invoice-equipment-none').waitFor();
      const saved = page.waitForResponse(
        (r) => new URL(r.url()).pathname === `/app/api/invoices/${invoiceId}` && r.request().method() === 'PATCH',
      );
      await page.getByRole('button', { name: 'Enregistrer le brouillon' }).click();
      const answer = await saved;
      assert.ok(answer.ok(), `PATCH : ${answer.status()}`);
      assert.deepEqual(JSON.parse(answer.request().postData() ?? '{}').equipmentIds, []);
      await page.getByText('Brouillon enregistré.').waitFor();
      await page.getByTestId('invoice-equipment').waitFor({ state: 'detached' });
      const read = await appApi('GET', `/invoices/${invoiceId}`);
      assert.deepEqual(read.body.invoice.equipment, []);
      assert.deepEqual(pageErrors, []);
    });
  },
);
