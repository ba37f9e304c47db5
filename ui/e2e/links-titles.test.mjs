// Test de bout en bout des liens vers les fiches, des titres d'onglet, du retour du focus
// à la fermeture d'une fenêtre et de l'état cohérent du panneau des webhooks, contre un
// serveur Liftdesk réel lancé sur la démo :
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/links-titles.test.mjs'
//
// - Titres : chaque écran met « <Écran> — Liftdesk » dans l'onglet, une fiche nomme son objet
//   (« Facture FA-… — Liftdesk », « Équipement ASC-… — Liftdesk », « Appel … — Liftdesk »).
// - Focus : fermer une fenêtre (Échap, « Annuler ») rend le focus au bouton qui l'a ouverte.
// - Liens : sur le tableau des appels, une facture et le planning, l'équipement et le client
//   sont des liens vers leur fiche (les identifiants lus dans les réponses de l'API).
// - Webhooks : un abonnement vers une adresse introuvable (DNS) ; le panneau ne dit jamais
//   « En ligne » à côté de « en attente du réseau », se relit seul en moins de 10 s, et le
//   prochain essai n'est pas une heure passée.
//
// LIFTDESK_URL, LIFTDESK_CREDENTIALS ; LIFTDESK_ARTIFACTS : dossier des captures
// (<dossier>/ui/liens-…png) ; LIFTDESK_CHROMIUM : navigateur (défaut /usr/bin/chromium).
// Le fichier crée un abonnement webhook et le révoque à la fin ; il ne change rien d'autre.

import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { describeOnServer, TIMEOUT } from './harness.mjs';

const STEP_TIMEOUT = 90_000;
const SUFFIX = ' — Liftdesk';

describeOnServer(
  'liens, titres d’onglet, focus et webhooks',
  { timeout: 12 * STEP_TIMEOUT, stepTimeout: STEP_TIMEOUT, shots: 'liens', viewport: { width: 1440, height: 900 } },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse } = ui;
    const stamp = Date.now().toString(36);
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    let subscriptionId = null;

    const menu = () => page.getByRole('navigation', { name: 'Menu principal' });
    const pathname = () => new URL(page.url()).pathname;

    /**
     * Attend que l'onglet porte `title` (le titre se pose après le chargement de la fiche) ;
     * le préfixe des appels urgents ouverts (« (2) », e2e/calls-clock.test.mjs) n'est pas comparé.
     */
    async function expectTitle(title) {
      const bare = (text) => text.replace(/^\(\d+\) /, '');
      try {
        await page.waitForFunction((t) => document.title.replace(/^\(\d+\) /, '') === t, title, { timeout: TIMEOUT });
      } catch {
        assert.equal(bare(await page.title()), title, "titre de l'onglet");
      }
    }

    /** Ouvre un écran par le menu et attend son titre de niveau 1. */
    async function openScreen(label, heading) {
      await menu().getByRole('link', { name: label, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
    }

    /** L'élément qui a le focus, décrit par son texte et son attribut `aria-label`. */
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        return el ? { tag: el.tagName, text: (el.textContent ?? '').trim().slice(0, 80), label: el.getAttribute('aria-label') } : null;
      });

    /** Vrai si le focus est sur l'élément désigné par `locator`. */
    const hasFocus = (locator) => locator.evaluate((el) => el === document.activeElement);

    before(() => ({ page, creds } = ui));

    after(async () => {
      if (subscriptionId && page) {
        await page
          .evaluate(async (id) => {
            const session = await (await fetch('/app/api/session')).json();
            await fetch(`/app/api/webhooks/${id}/revoke`, { method: 'POST', headers: { 'X-CSRF-Token': session.csrfToken } });
          }, subscriptionId)
          .catch(() => {});
      }
    });

    step("titres d'onglet : connexion, accueil et écrans du menu", async () => {
      await page.goto(baseUrl);
      await page.getByRole('button', { name: 'Se connecter', exact: true }).waitFor();
      const loginTitle = await page
        .waitForFunction((t) => document.title === t, `Connexion${SUFFIX}`, { timeout: 2_000 })
        .then(() => `Connexion${SUFFIX}`)
        .catch(() => page.title());
      await page.getByLabel('Adresse e-mail', { exact: true }).fill(creds.admin.email);
      await page.getByLabel('Mot de passe', { exact: true }).fill(creds.admin.password);
      await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
      await page.getByRole('button', { name: 'Se déconnecter', exact: true }).waitFor();
      assert.equal(loginTitle, `Connexion${SUFFIX}`, "titre de l'onglet de la connexion");
      await expectTitle(`Accueil${SUFFIX}`);

      for (const [label, heading, title] of [
        ['Appels de panne', 'Appels de panne', 'Appels de panne'],
        ['Techniciens', 'Techniciens', 'Techniciens'],
        ['Équipements', 'Équipements', 'Équipements'],
        ['Clients', 'Clients', 'Clients'],
        ['Contrats', "Contrats d'entretien", "Contrats d'entretien"],
        ['Devis', 'Devis', 'Devis'],
        ['Factures', 'Factures et avoirs', 'Factures et avoirs'],
        ['Webhooks', 'Webhooks', 'Webhooks'],
        ['Journal', 'Journal', 'Journal'],
        ['Mon compte', 'Mon compte', 'Mon compte'],
      ]) {
        await openScreen(label, heading);
        await expectTitle(`${title}${SUFFIX}`);
      }
      // Une adresse inconnue a son propre titre.
      await page.goto(new URL('/nulle-part', baseUrl).href);
      await page.getByRole('heading', { level: 1, name: 'Page introuvable', exact: true }).waitFor();
      await expectTitle(`Page introuvable${SUFFIX}`);
      await shot('liens-01-titre');
    });

    step('le focus revient au bouton qui a ouvert la fenêtre (Échap, « Annuler »)', async () => {
      await page.goto(new URL('/', baseUrl).href);
      await openScreen('Techniciens', 'Techniciens');
      const absences = page.getByRole('button', { name: /^Absences de / }).first();
      await absences.waitFor();
      const absencesName = await absences.getAttribute('aria-label');

      // Échap ferme la fenêtre des absences : le focus revient au bouton « Absences ».
      await absences.click();
      const dialog = page.getByRole('dialog', { name: absencesName, exact: true });
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      assert.ok(await hasFocus(absences), `focus après Échap : ${JSON.stringify(await focused())}`);

      // « Annuler » ferme « Ajouter un technicien » : le focus revient au bouton.
      const add = page.getByRole('button', { name: 'Ajouter un technicien', exact: true });
      await add.click();
      const editor = page.getByRole('dialog', { name: 'Ajouter un technicien', exact: true });
      await editor.waitFor();
      await shot('liens-02-fenetre');
      await editor.getByRole('button', { name: 'Annuler', exact: true }).click();
      await editor.waitFor({ state: 'hidden' });
      assert.ok(await hasFocus(add), `focus après « Annuler » : ${JSON.stringify(await focused())}`);

      // Au clavier : Entrée ouvre, Échap ferme, le focus est de nouveau sur le bouton.
      await add.focus();
      await page.keyboard.press('Enter');
      await editor.waitFor();
      await page.keyboard.press('Escape');
      await editor.waitFor({ state: 'hidden' });
      assert.ok(await hasFocus(add), `focus après Entrée puis Échap : ${JSON.stringify(await focused())}`);

      // Une confirmation (« Retirer du planning ») : « Annuler » rend le focus aussi.
      const remove = page.getByRole('button', { name: /^Retirer du planning/ }).first();
      await remove.click();
      const confirm = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Annuler', exact: true }) });
      await confirm.waitFor();
      await confirm.getByRole('button', { name: 'Annuler', exact: true }).click();
      await confirm.waitFor({ state: 'hidden' });
      assert.ok(await hasFocus(remove), `focus après la confirmation annulée : ${JSON.stringify(await focused())}`);
    });

    step("tableau des appels : l'équipement est un lien vers sa fiche ; titres de l'appel et de l'équipement", async () => {
      const boardResponse = apiResponse('/app/api/calls/board', 'GET');
      await openScreen('Appels de panne', 'Appels de panne');
      const board = await (await boardResponse).json();
      const call = board.columns.flatMap((c) => c.results).find((r) => r.equipment?.id && r.equipment.number);
      assert.ok(call, 'aucun appel de la démo avec un équipement numéroté');
      const href = `/equipements/${call.equipment.id}`;

      const card = page.locator(`[data-call="${call.id}"]`);
      const lift = card.getByRole('link', { name: call.equipment.number, exact: true });
      await lift.waitFor();
      assert.equal(await lift.getAttribute('href'), href);
      await shot('liens-03-appels');

      // La carte mène toujours à l'appel, le numéro à l'équipement.
      await card.getByRole('link').filter({ hasText: call.reference }).click();
      await page.getByRole('heading', { level: 1, name: `Appel ${call.reference}`, exact: true }).waitFor();
      await expectTitle(`Appel ${call.reference}${SUFFIX}`);
      const detailLift = page.getByRole('region', { name: 'Informations' }).getByRole('link', { name: call.equipment.number, exact: true });
      assert.equal(await detailLift.getAttribute('href'), href);

      await page.goBack();
      await lift.click();
      await page.getByRole('heading', { level: 1, name: `Équipement ${call.equipment.number}`, exact: true }).waitFor();
      assert.equal(pathname(), href);
      await expectTitle(`Équipement ${call.equipment.number}${SUFFIX}`);
    });

    step('une facture : le client est un lien vers sa fiche ; titre « Facture FA-… »', async () => {
      const listResponse = apiResponse('/app/api/invoices', 'GET');
      await openScreen('Factures', 'Factures et avoirs');
      const list = await (await listResponse).json();
      const row = list.results.find((r) => r.number && r.nature === 'facture' && r.client && r.buyer);
      assert.ok(row, 'aucune facture émise avec un client dans la première page de la démo');
      // Le numéro dans la série de l'agence de l'administratrice (« Agence Paris Ouest » : PO).
      assert.match(row.number, /^FA-PO-\d{4}-\d{6}$/);
      const clientHref = `/clients/${encodeURIComponent(row.client)}`;

      const line = page.locator(`tr[data-invoice="${row.id}"]`);
      const buyer = line.getByRole('link', { name: row.buyer, exact: true });
      assert.equal(await buyer.getAttribute('href'), clientHref);

      await line.getByRole('link', { name: row.number, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: `Facture ${row.number}`, exact: true }).waitFor();
      await expectTitle(`Facture ${row.number}${SUFFIX}`);
      // L'acheteur de la fiche (un immeuble de ses appareils peut porter le même nom, en lien vers sa fiche).
      const client = page.getByTestId('acheteur').getByRole('link', { name: row.buyer, exact: true });
      assert.equal(await client.getAttribute('href'), clientHref);
      await shot('liens-04-facture');
      await client.click();
      await page.waitForURL((url) => url.pathname === clientHref);
      await page.locator('#client-title').filter({ hasNotText: 'introuvable' }).waitFor();
    });

    step("le planning : la visite ouverte mène à la fiche de l'équipement", async () => {
      const weekResponse = apiResponse('/app/api/planning', 'GET');
      await openScreen('Planning', 'Planning');
      await expectTitle(`Planning${SUFFIX}`);
      const week = await (await weekResponse).json();
      const entry = week.entries.find((e) => e.equipmentId && e.number && e.technicianId && e.day);
      assert.ok(entry, 'aucune visite numérotée cette semaine dans la démo');
      const cell = page.locator(`td[data-technician="${entry.technicianId}"][data-day="${entry.day}"]`);
      const card = cell.locator(`[data-visit="${entry.id}"]`);
      if ((await card.count()) === 0) await cell.locator('button.more').click();
      await card.click();
      const dialog = page.getByRole('dialog', { name: `Visite ${entry.number}`, exact: true });
      await dialog.waitFor();
      const lift = dialog.getByRole('link', { name: entry.number, exact: true });
      assert.equal(await lift.getAttribute('href'), `/equipements/${entry.equipmentId}`);
      await shot('liens-05-planning');
      await lift.click();
      await page.getByRole('heading', { level: 1, name: `Équipement ${entry.number}`, exact: true }).waitFor();
      assert.equal(pathname(), `/equipements/${entry.equipmentId}`);
      await expectTitle(`Équipement ${entry.number}${SUFFIX}`);
      assert.equal(await page.getByRole('dialog').count(), 0, 'la fenêtre de la visite reste ouverte');
    });

    step('webhooks : « En ligne » jamais à côté de « en attente du réseau », panneau relu seul', async () => {
      await openScreen('Webhooks', 'Webhooks');
      const hookUrl = `https://liens-${stamp}.example.invalid/liftdesk`;
      await page.getByLabel('Adresse https qui reçoit les événements', { exact: true }).fill(hookUrl);
      const created = apiResponse('/app/api/webhooks', 'POST');
      await page.getByRole('button', { name: "S'abonner", exact: true }).click();
      const res = await created;
      assert.equal(res.status(), 201);
      subscriptionId = (await res.json()).id;
      await page.getByRole('button', { name: "J'ai copié, fermer", exact: true }).click();

      const row = page.getByRole('row').filter({ hasText: hookUrl });
      const sent = apiResponse(`/app/api/webhooks/${subscriptionId}/test`, 'POST', { timeout: 60_000 });
      await row.getByRole('button', { name: `Envoyer un test à ${hookUrl}`, exact: true }).click();
      assert.equal((await sent).status(), 201);
      const deliveries = page.getByRole('region', { name: /^Dernières livraisons/ });
      await deliveries.locator('tbody tr[data-id]').first().waitFor({ timeout: 30_000 });

      // Le panneau se relit seul : une nouvelle lecture de l'état en moins de 10 s.
      const status = await (await apiResponse('/app/api/webhooks/status', 'GET', { timeout: 10_000 })).json();
      await page.waitForTimeout(300);
      const sync = page.getByRole('region', { name: "État de l'envoi" });
      const syncText = (await sync.textContent()) ?? '';
      const deliveriesText = (await deliveries.textContent()) ?? '';
      const shown = `${syncText}\n${deliveriesText}`;
      const online = /En ligne/.test(syncText);
      assert.equal(online, status.online, `état du réseau affiché : ${syncText}`);
      if (online) {
        assert.doesNotMatch(shown, /attente du (retour du )?réseau|Hors ligne/i, 'En ligne à côté d’une attente du réseau');
      } else {
        assert.doesNotMatch(syncText, /En ligne/);
      }

      // Le prochain essai n'est jamais une heure passée : un temps relatif, « maintenant » ou le réseau.
      const next = sync.locator('[data-next-attempt]');
      await next.waitFor();
      const nextText = ((await next.textContent()) ?? '').trim();
      assert.match(nextText, /^(—|maintenant|dans |au retour du réseau)/i, `prochain essai : ${nextText}`);
      const rowNext = ((await deliveries.locator('tbody tr[data-id] [data-next-attempt]').first().textContent()) ?? '').trim();
      assert.match(rowNext, /^(—|maintenant|dans |au retour du réseau)/i, `prochain essai de la livraison : ${rowNext}`);

      // Les temps relatifs avancent sans recharger la page (« il y a … »).
      const checked = sync.locator('[data-checked-at]');
      const before = ((await checked.textContent()) ?? '').trim();
      assert.match(before, /^(il y a|à l'instant|—)/, `dernière vérification : ${before}`);
      await shot('liens-06-webhooks');
    });

    step('aucune erreur JavaScript', () => {
      assert.deepEqual(pageErrors.map(String), []);
    });
  },
);
