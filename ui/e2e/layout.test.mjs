// Test de bout en bout de la mise en page à 1024 × 700, contre un serveur Liftdesk réel (démo) :
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/layout.test.mjs'
//
// L'administrateur de la démo se connecte dans une fenêtre de 1024 × 700 :
// le menu principal est replié en rail (bouton « Menu », aria-expanded) et
// s'ouvre par-dessus le contenu sans le décaler ; il se ferme par Échap (le
// focus revient au bouton), par un clic ailleurs ou en choisissant un écran.
// Ensuite chaque écran de l'application (le routeur : accueil, planning,
// appels, techniciens, équipements, clients, relevés, devis, factures, clés,
// webhooks, imports, agence et ses rubriques, journal, paramètres, mon compte)
// et des fiches (un appel, un équipement et son carnet, un client, un relevé,
// un devis, une facture émise et un brouillon, les livraisons d'un webhook) :
// la page ne défile pas horizontalement (scrollWidth ≤ innerWidth), le titre
// principal et les boutons d'action visibles (hors tableaux défilants) sont
// dans la fenêtre. Au-delà de 1280 px le menu est déplié, « Menu » le replie
// et ce choix est gardé au rechargement. Captures largeur-1024-<écran>.png
// dans $LIFTDESK_ARTIFACTS/ui/.

import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { describeOnServer, STEP_TIMEOUT, TIMEOUT } from './harness.mjs';

const WIDTH = 1024;
const HEIGHT = 700;
/** Largeur du rail replié, au plus. */
const RAIL_MAX = 80;
const HOOK_URL = 'https://receveur-des-evenements.invalid/liftdesk/crochets/appels-et-factures';

describeOnServer(
  'mise en page à 1024 × 700',
  { timeout: 40 * STEP_TIMEOUT, shots: 'largeur-1024', fullPage: false, viewport: { width: WIDTH, height: HEIGHT } },
  (ui) => {
    const { pageErrors, step, shot, signIn } = ui;
    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    let agencyId;
    let subscriptionId = null;

    /** Appel HTTP hors navigateur (l'API REST, jeton de l'administrateur). */
    const http = (method, urlPath, body) =>
      ui.http(method, urlPath, { token: creds.admin.apiToken, agency: agencyId, body });

    const nav = () => page.getByRole('navigation', { name: 'Menu principal' });
    const toggle = () => nav().getByRole('button', { name: 'Menu', exact: true });

    /** Ouvre le menu s'il est replié (sans bouton : le menu est toujours déplié), puis choisit l'écran. */
    async function openScreen(label) {
      const button = toggle();
      if ((await button.count()) > 0 && (await button.getAttribute('aria-expanded')) !== 'true') await button.click();
      await nav().getByRole('link', { name: label, exact: true }).click();
    }

    /** Attend la fin des chargements visibles de l'écran. */
    async function settled(ready) {
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      if (ready) await page.locator(ready).first().waitFor();
      await page.waitForFunction(
        () =>
          ![...document.querySelectorAll('main .loading, main [aria-busy="true"]')].some(
            (el) => el.getBoundingClientRect().width > 0,
          ),
        null,
        { timeout: TIMEOUT },
      );
      // Les polices, graphiques et tableaux prennent leur taille définitive.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    }

    /**
     * Pas de défilement horizontal de la page ; titre principal et boutons d'action
     * (hors conteneurs qui défilent eux-mêmes, tableaux larges) dans la fenêtre.
     */
    async function assertFits(screen) {
      const layout = await page.evaluate(() => {
        const inner = window.innerWidth;
        const inside = (box) => box.left >= -0.5 && box.right <= inner + 0.5;
        const describe = (el) => {
          const box = el.getBoundingClientRect();
          const name = (el.getAttribute('aria-label') || el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 50);
          return `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} [${Math.round(box.left)} → ${Math.round(box.right)}] « ${name} »`;
        };
        /** Dans un conteneur qui défile horizontalement (tableau large) : atteignable sans faire défiler la page. */
        const inScroller = (el) => {
          for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
            const overflow = getComputedStyle(p).overflowX;
            if ((overflow === 'auto' || overflow === 'scroll') && p.scrollWidth > p.clientWidth) return true;
          }
          return false;
        };
        const visible = (el) => {
          const box = el.getBoundingClientRect();
          return box.width > 0 && box.height > 0 && !el.closest('dialog:not([open])') && getComputedStyle(el).visibility !== 'hidden';
        };
        // Ce qui dépasse à droite, au plus haut niveau (son parent ne dépasse pas).
        const overflowing = [];
        for (const el of document.querySelectorAll('body *')) {
          const box = el.getBoundingClientRect();
          if (box.width === 0 || box.right <= inner + 0.5) continue;
          const parent = el.parentElement?.getBoundingClientRect();
          if (parent && parent.right <= inner + 0.5) overflowing.push(describe(el));
        }
        const heading = document.querySelector('main h1');
        const actions = [
          ...document.querySelectorAll('header button, main button, main a.button, main label.button, main [role="button"]'),
        ]
          .filter((el) => visible(el) && !inScroller(el));
        return {
          inner,
          scrollWidth: document.documentElement.scrollWidth,
          overflowing: overflowing.slice(0, 10),
          heading: heading ? { text: heading.textContent.trim(), inside: inside(heading.getBoundingClientRect()) } : null,
          actions: actions.length,
          outside: actions.filter((el) => !inside(el.getBoundingClientRect())).map(describe),
        };
      });
      assert.equal(layout.inner, WIDTH);
      assert.ok(
        layout.scrollWidth <= layout.inner,
        `${screen} : la page défile horizontalement (${layout.scrollWidth} px pour ${layout.inner}) ; dépassent :\n  ${layout.overflowing.join('\n  ')}`,
      );
      assert.ok(layout.heading, `${screen} : pas de titre principal`);
      assert.ok(layout.heading.inside, `${screen} : le titre « ${layout.heading.text} » sort de la fenêtre`);
      assert.deepEqual(layout.outside, [], `${screen} : boutons d'action hors de la fenêtre`);
      await shot(`largeur-1024-${screen}`);
      return layout;
    }

    /** Ouvre la première fiche de la liste affichée. */
    async function openFirst(selector) {
      const link = page.locator(selector).first();
      await link.waitFor();
      const href = await link.getAttribute('href');
      await link.click();
      await page.waitForURL((url) => url.pathname === href);
      return href;
    }

    before(() => {
      ({ page, creds } = ui);
      assert.ok(creds.admin.apiToken, 'LIFTDESK_CREDENTIALS : admin incomplet');
      agencyId = creds.agencies?.[0]?.id;
      assert.ok(agencyId, 'LIFTDESK_CREDENTIALS : agencies manquant');
    });

    after(async () => {
      if (subscriptionId) await http('DELETE', `/api/v2/webhooks/${subscriptionId}`).catch(() => {});
    });

    step('connexion de l’administrateur à 1024 × 700', async () => {
      // Un abonnement à l'adresse longue : les livraisons d'un webhook ont une fiche.
      const created = await http('POST', '/api/v2/webhooks', { url: HOOK_URL, events: ['appel.clos'] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      subscriptionId = created.body.id;

      const session = await signIn(creds.admin);
      if (session.agency?.id !== agencyId) {
        // L'abonnement créé ci-dessus est dans la première agence.
        await page.getByLabel('Agence', { exact: true }).selectOption(agencyId);
      }
      await page.getByRole('heading', { level: 1, name: /^Bienvenue/ }).waitFor();
    });

    step('le menu est replié en rail ; « Menu » l’ouvre par-dessus le contenu et le referme', async () => {
      const button = toggle();
      assert.equal(await button.count(), 1, 'pas de bouton « Menu » dans le menu principal');
      assert.equal(await button.getAttribute('aria-expanded'), 'false');
      const list = await button.getAttribute('aria-controls');
      assert.ok(list, 'le bouton « Menu » ne désigne pas la liste qu’il ouvre (aria-controls)');
      const links = nav().getByRole('link');
      assert.equal(await nav().getByRole('link', { name: 'Accueil', exact: true }).isVisible(), false, 'menu replié : liens visibles');
      const navBox = await nav().boundingBox();
      assert.ok(navBox.width <= RAIL_MAX, `menu replié large de ${navBox.width} px (au plus ${RAIL_MAX})`);
      const main = page.locator('main#contenu');
      const before = await main.boundingBox();
      assert.ok(before.x <= RAIL_MAX, `le contenu commence à ${before.x} px`);
      assert.ok(before.width >= WIDTH - RAIL_MAX, `le contenu n'a que ${before.width} px`);
      await shot('largeur-1024-menu-replie');

      // À la souris : le menu s'ouvre par-dessus, le contenu ne bouge pas.
      await button.click();
      assert.equal(await button.getAttribute('aria-expanded'), 'true');
      await nav().getByRole('link', { name: 'Factures', exact: true }).waitFor();
      assert.ok((await links.count()) >= 10);
      for (const link of await links.all()) {
        const box = await link.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= WIDTH, `lien du menu hors de la fenêtre : ${await link.textContent()}`);
      }
      assert.deepEqual(await main.boundingBox(), before, 'ouvrir le menu décale le contenu');
      await shot('largeur-1024-menu-ouvert');

      // Échap le referme et rend le focus au bouton.
      await nav().getByRole('link', { name: 'Accueil', exact: true }).focus();
      await page.keyboard.press('Escape');
      assert.equal(await button.getAttribute('aria-expanded'), 'false');
      assert.equal(await nav().getByRole('link', { name: 'Accueil', exact: true }).isVisible(), false);
      assert.equal(await button.evaluate((el) => el === document.activeElement), true, 'le focus ne revient pas au bouton');

      // Au clavier : Entrée ouvre, Tab mène au premier écran, Échap referme.
      await page.keyboard.press('Enter');
      assert.equal(await button.getAttribute('aria-expanded'), 'true');
      await page.keyboard.press('Tab');
      assert.equal(
        await page.evaluate(() => document.activeElement?.textContent?.trim()),
        'Accueil',
        'Tab ne mène pas au premier lien du menu',
      );
      await page.keyboard.press('Escape');
      assert.equal(await button.getAttribute('aria-expanded'), 'false');

      // Un clic ailleurs le referme.
      await button.click();
      assert.equal(await button.getAttribute('aria-expanded'), 'true');
      await page.getByRole('heading', { level: 1 }).click();
      assert.equal(await button.getAttribute('aria-expanded'), 'false');

      // Choisir un écran le referme.
      await button.click();
      await nav().getByRole('link', { name: 'Factures', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Factures et avoirs', exact: true }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/factures');
      assert.equal(await button.getAttribute('aria-expanded'), 'false');
      assert.equal(await nav().getByRole('link', { name: 'Factures', exact: true }).isVisible(), false);
    });

    step('au-delà de 1280 px : menu déplié, « Menu » le replie, choix gardé au rechargement', async () => {
      await page.setViewportSize({ width: 1366, height: HEIGHT });
      try {
        await wide();
      } finally {
        await page.setViewportSize({ width: WIDTH, height: HEIGHT });
      }
      await page.waitForFunction(
        () => document.querySelector('nav[aria-label="Menu principal"] button')?.getAttribute('aria-expanded') === 'false',
      );
    });

    async function wide() {
      const button = toggle();
      await nav().getByRole('link', { name: 'Accueil', exact: true }).waitFor();
      assert.equal(await button.getAttribute('aria-expanded'), 'true');
      const open = await page.locator('main#contenu').boundingBox();
      await button.click();
      assert.equal(await button.getAttribute('aria-expanded'), 'false');
      assert.equal(await nav().getByRole('link', { name: 'Accueil', exact: true }).isVisible(), false);
      const folded = await page.locator('main#contenu').boundingBox();
      assert.ok(folded.width > open.width + 100, 'replié, le menu laisse sa place au contenu');
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Factures et avoirs', exact: true }).waitFor();
      assert.equal(await toggle().getAttribute('aria-expanded'), 'false', 'le choix « replié » est oublié au rechargement');
      await toggle().click();
      assert.equal(await toggle().getAttribute('aria-expanded'), 'true');
      await page.reload();
      await nav().getByRole('link', { name: 'Accueil', exact: true }).waitFor();
      assert.equal(await toggle().getAttribute('aria-expanded'), 'true');
    }

    // Les écrans du routeur (App.svelte), par le menu, et leurs fiches.
    step('accueil', async () => {
      await openScreen('Accueil');
      await settled('[data-chart] canvas');
      await assertFits('accueil');
    });

    step('planning', async () => {
      await openScreen('Planning');
      await settled('main table');
      await assertFits('planning');
    });

    step('appels de panne, puis un appel', async () => {
      await openScreen('Appels de panne');
      await page.getByRole('heading', { level: 1, name: 'Appels de panne', exact: true }).waitFor();
      await settled('section[data-statut="resolue"]');
      const layout = await assertFits('appels');
      assert.ok(layout.actions >= 2, 'Exporter et « Nouvel appel » attendus');
      // Les cinq colonnes tiennent dans la largeur : aucune n'est rognée.
      const columns = await page.locator('section[data-statut]').evaluateAll((els) =>
        els.map((el) => Math.round(el.getBoundingClientRect().right)),
      );
      assert.equal(columns.length, 5);
      for (const right of columns) assert.ok(right <= WIDTH, `une colonne du tableau des appels finit à ${right} px`);
      // Et chaque carte tient dans sa colonne (« ⚠ Personne bloquée » compris).
      const spilling = await page.locator('section[data-statut] ol > li').evaluateAll((cards) =>
        cards
          .filter((card) => card.getBoundingClientRect().right > card.closest('section').getBoundingClientRect().right + 0.5)
          .map((card) => card.textContent.replace(/\s+/g, ' ').trim().slice(0, 40)),
      );
      assert.deepEqual(spilling, [], 'des cartes débordent de leur colonne');

      await openFirst('main section[data-statut] a[href^="/appels/"]');
      await page.getByRole('heading', { level: 1, name: /^Appel / }).waitFor();
      await settled();
      await assertFits('appel');
    });

    step('techniciens', async () => {
      await openScreen('Techniciens');
      await settled('main table');
      await assertFits('techniciens');
    });

    step('équipements, un équipement et son carnet', async () => {
      await openScreen('Équipements');
      await settled('main table');
      await assertFits('equipements');
      await openFirst('main table a[href^="/equipements/"]');
      await page.getByRole('heading', { level: 1, name: /^Équipement/ }).waitFor();
      await settled();
      await assertFits('equipement');
      await openFirst('main a[href$="/carnet"]');
      await settled();
      await assertFits('equipement-carnet');
    });

    step('clients et un client', async () => {
      await openScreen('Clients');
      await settled('main table');
      await assertFits('clients');
      await openFirst('main table a[href^="/clients/"]');
      await settled('main h1#client-title');
      await assertFits('client');
    });

    step('relevés et un relevé', async () => {
      await openScreen('Relevés');
      await settled('main table');
      await assertFits('releves');
      await openFirst('main table a[href^="/releves/"]');
      await settled();
      await assertFits('releve');
    });

    step('devis, un devis et un nouveau devis', async () => {
      await openScreen('Devis');
      await settled('[data-testid="quote-list"]');
      await assertFits('devis');
      await openFirst('[data-testid="quote-list"] a[href^="/devis/"]');
      await page.getByRole('heading', { level: 1, name: /^Devis / }).waitFor();
      await settled();
      await assertFits('devis-fiche');
      await openScreen('Devis');
      await settled('[data-testid="quote-list"]');
      await page.getByRole('link', { name: 'Nouveau devis', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Nouveau devis', exact: true }).waitFor();
      await settled();
      await assertFits('devis-nouveau');
    });

    step('factures, une facture émise et un brouillon', async () => {
      await openScreen('Factures');
      await settled('[data-testid="invoice-list"]');
      const layout = await assertFits('factures');
      assert.ok(layout.actions >= 2, 'Export comptable et Exporter attendus');
      // La liste tient dans la largeur, sans défiler dans son cadre : le total TTC est visible.
      const fit = await page.getByTestId('invoice-list').evaluate((table) => ({
        right: table.getBoundingClientRect().right,
        frame: table.parentElement.getBoundingClientRect().right,
        scroll: table.parentElement.scrollWidth - table.parentElement.clientWidth,
      }));
      assert.ok(fit.right <= Math.min(fit.frame, WIDTH) + 0.5 && fit.scroll <= 0, `la liste des factures déborde : ${JSON.stringify(fit)}`);
      await openFirst('[data-testid="invoice-list"] a[href^="/factures/"]:text-matches("^(FA|AV)-")');
      await settled();
      await assertFits('facture');
      await openScreen('Factures');
      await settled('[data-testid="invoice-list"]');
      await openFirst('[data-testid="invoice-list"] a[href^="/factures/"]:text-is("Brouillon")');
      await settled();
      await assertFits('facture-brouillon');
    });

    step('clés et jetons', async () => {
      await openScreen('Clés et jetons');
      await settled('main table');
      await assertFits('cles');
    });

    step('webhooks et les livraisons d’un abonnement', async () => {
      await openScreen('Webhooks');
      await settled('main table');
      await assertFits('webhooks');
      await openFirst(`main a[href="/webhooks/${subscriptionId}"]`);
      await settled();
      await assertFits('webhooks-livraisons');
    });

    step('imports', async () => {
      await openScreen('Imports');
      await settled();
      await assertFits('imports');
    });

    step('agence : identité, personnes, agences', async () => {
      await openScreen('Agence');
      await settled();
      await assertFits('agence');
      const tabs = page.getByRole('navigation', { name: "Rubriques de l'agence" });
      await tabs.getByRole('link', { name: 'Personnes', exact: true }).click();
      await page.getByRole('heading', { level: 2, name: 'Personnes', exact: true }).waitFor();
      await settled('main table');
      await assertFits('agence-personnes');
      await tabs.getByRole('link', { name: 'Agences', exact: true }).click();
      await page.getByRole('heading', { level: 2, name: 'Agences', exact: true }).waitFor();
      await settled('main table');
      await assertFits('agence-agences');
    });

    step('journal', async () => {
      await openScreen('Journal');
      await settled('main table');
      await assertFits('journal');
    });

    step('paramètres', async () => {
      await openScreen('Paramètres');
      await settled();
      await assertFits('parametres');
    });

    step('mon compte', async () => {
      await openScreen('Mon compte');
      await settled();
      await assertFits('compte');
      assert.deepEqual(pageErrors, []);
    });
  },
);
