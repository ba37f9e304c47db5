// Test de bout en bout de l'envoi des documents par e-mail, contre un serveur Liftdesk réel
// lancé sur la démo et un vrai serveur SMTP local (tests/smtp/sink.py, aiosmtpd) :
//
//   bash scripts/with-demo-server.sh bash -c 'cd ui && node --test e2e/mail.test.mjs'
//
// LIFTDESK_URL, LIFTDESK_CREDENTIALS (voir login.test.mjs) ; LIFTDESK_PY_VENV : l'environnement
// Python du récepteur (défaut ~/.cache/liftdesk/venv) ; LIFTDESK_ARTIFACTS : dossier des captures
// (écrites dans <dossier>/ui/) ; LIFTDESK_CHROMIUM : navigateur (défaut /usr/bin/chromium).
//
// L'administratrice de la démo règle le serveur d'envoi dans « Paramètres › E-mail (serveur
// d'envoi) » (127.0.0.1, le port du récepteur, « Aucun chiffrement », identifiant et mot de passe
// exigés par le récepteur) : un mauvais mot de passe fait échouer « Tester » avec la raison du
// serveur, le bon fait arriver le message d'essai. L'agence a une adresse (Agence › Identité,
// remplie si besoin), un contact du client a la sienne (fiche du client, si besoin). Un devis créé
// pour le test part par « Envoyer au client » → la fenêtre d'envoi (contact coché, objet modifié)
// → « Envoyer » : « Envoyé » affiché, statut « Envoyé », message reçu avec le PDF joint ; la facture
// issue du devis, émise, part de même (statut « Envoyée »). Un serveur qui répond 451 au premier
// message : la relance est « en échec », signalée sur la facture, « Réessayer » la fait partir.
// Enfin le rapport d'une visite faite part de la fiche de l'équipement ; un administrateur d'une
// autre organisation (session relue sans `installationAdmin`) n'a, dans « Paramètres », que la
// section « E-mail (serveur d'envoi) ». Le serveur de démo est
// partagé par les tests : le test crée ses devis et factures, et lit les adresses au moment de
// l'envoi (d'autres tests peuvent changer la démo).

import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { describeOnServer, expectText } from './harness.mjs';
import { startSink } from './smtp.mjs';

const STEP_TIMEOUT = 90_000;

const T = {
  menu: 'Menu principal',
  settings: 'Paramètres',
  mailSection: "E-mail (serveur d'envoi)",
  host: "Serveur d'envoi",
  port: "Port du serveur d'envoi",
  security: 'Sécurité',
  noEncryption: 'Aucun chiffrement',
  username: 'Identifiant',
  password: 'Mot de passe',
  save: "Enregistrer le serveur d'envoi",
  saved: "Serveur d'envoi enregistré.",
  passwordKept: 'Mot de passe enregistré : laissez vide pour le garder.',
  test: 'Tester',
  testSent: (to) => `Message d'essai envoyé à ${to}.`,
  send: 'Envoyer au client',
  remind: 'Relancer le client',
  sendButton: 'Envoyer',
  close: 'Fermer',
  retry: 'Réessayer',
  mailsHeading: 'E-mails',
};

describeOnServer(
  'documents envoyés par e-mail',
  {
    timeout: 12 * STEP_TIMEOUT,
    stepTimeout: STEP_TIMEOUT,
    shots: 'email',
    viewport: { width: 1440, height: 900 },
    context: { timezoneId: 'Europe/Paris' },
  },
  (ui) => {
    const { baseUrl, pageErrors, step, shot, apiResponse, appApi, signIn } = ui;
    const unique = Date.now().toString(36);
    const smtpUser = `agence-${unique}`;
    const smtpPassword = `secret-${unique}`;

    /** @type {import('playwright-core').Page} */
    let page;
    let creds;
    let sink;
    let flakySink;
    /** Le client des documents du test, un contact avec une adresse, l'équipement. */
    let target;
    let quoteId;
    let quoteNumber;
    let invoiceId;
    let invoiceNumber;

    /** Le message reçu porte le PDF du document, et rien d'autre. */
    function assertPdfAttachment(message, fileName) {
      assert.equal(message.attachments.length, 1, JSON.stringify(message.attachments));
      const [attachment] = message.attachments;
      assert.equal(attachment.contentType, 'application/pdf');
      assert.ok(attachment.head.startsWith('%PDF'), attachment.head);
      assert.ok(attachment.size > 1000, `PDF de ${attachment.size} octets`);
      if (fileName) assert.equal(attachment.filename, fileName);
    }

    /**
     * La fenêtre d'envoi ouverte : l'expéditeur, la pièce jointe, le contact coché ; « Envoyer »
     * impossible sans destinataire ; l'objet complété ; envoyé. Rend la réponse du serveur.
     */
    async function sendFromDialog(dialog, { options, contact, attachment, subjectSuffix, sendPath }) {
      await dialog.getByTestId('mail-from').waitFor();
      await expectText(dialog.getByTestId('mail-from'), `De : ${options.senderName} <${options.senderEmail}>`);
      await expectText(dialog.getByTestId('mail-attachment'), attachment);
      const first = options.contacts.find((c) => c.email);
      const box = dialog.getByRole('checkbox', { name: `${first.name} <${first.email}>`, exact: false });
      assert.equal(await box.isChecked(), true, 'le premier contact avec une adresse est coché');
      for (const without of options.contacts.filter((c) => !c.email)) {
        const disabled = dialog.getByRole('checkbox', { name: `${without.name} — pas d'adresse e-mail`, exact: false });
        assert.equal(await disabled.isDisabled(), true);
      }
      // Personne : « Envoyer » est impossible.
      for (const c of options.contacts.filter((c) => c.email)) {
        await dialog.getByRole('checkbox', { name: `${c.name} <${c.email}>`, exact: false }).setChecked(false);
      }
      assert.equal(await dialog.getByRole('button', { name: T.sendButton, exact: true }).isDisabled(), true);
      await dialog.getByRole('checkbox', { name: `${contact.name} <${contact.email}>`, exact: false }).check();
      const subject = dialog.getByLabel('Objet', { exact: true });
      assert.equal(await subject.inputValue(), options.subject);
      await subject.fill(`${options.subject}${subjectSuffix}`);
      assert.equal(await dialog.getByLabel('Message', { exact: true }).inputValue(), options.message);
      await shot(`email-fenetre-${attachment.replace(/\.pdf$/, '')}`);
      const answered = apiResponse(sendPath, 'POST', { timeout: 30_000 });
      await dialog.getByRole('button', { name: T.sendButton, exact: true }).click();
      const response = await answered;
      assert.equal(response.status(), 201);
      return response.json();
    }

    before(async () => {
      ({ page, creds } = ui);
      sink = await startSink(['--user', smtpUser, '--password', smtpPassword]);
    });

    after(async () => {
      sink?.stop();
      flakySink?.stop();
    });

    step("connexion de l'administratrice", async () => {
      await signIn(creds.admin);
    });

    step("Paramètres › E-mail : le serveur d'envoi réglé, essayé (refusé, puis reçu)", async () => {
      await page.getByRole('navigation', { name: T.menu }).getByRole('link', { name: T.settings, exact: true }).click();
      await page.getByRole('heading', { level: 2, name: T.mailSection, exact: true }).waitFor();
      const section = page.getByRole('region', { name: T.mailSection });
      await section.getByLabel(T.host, { exact: true }).fill('127.0.0.1');
      await section.getByLabel(T.security, { exact: true }).selectOption({ label: T.noEncryption });
      // Le port vide est celui de la sécurité choisie.
      assert.equal(await section.getByLabel(T.port, { exact: true }).getAttribute('placeholder'), '25');
      await section.getByLabel(T.port, { exact: true }).fill(String(sink.port));
      await section.getByLabel(T.username, { exact: true }).fill(smtpUser);
      await section.getByLabel(T.password, { exact: true }).fill('pas-le-bon');
      await section.getByRole('button', { name: T.save, exact: true }).click();
      await section.getByText(T.saved, { exact: true }).waitFor();
      await section.getByText(T.passwordKept, { exact: true }).waitFor();
      assert.equal(await section.getByLabel(T.password, { exact: true }).inputValue(), '');

      // Le récepteur refuse ce mot de passe : la raison du serveur est affichée.
      await section.getByRole('button', { name: T.test, exact: true }).click();
      const refusal = section.getByRole('alert');
      await refusal.waitFor();
      assert.match((await refusal.textContent()) ?? '', /^L'essai a échoué : /);
      await shot('email-reglages-essai-refuse');
      assert.equal(sink.messages().length, 0);

      await section.getByLabel(T.password, { exact: true }).fill(smtpPassword);
      await section.getByRole('button', { name: T.save, exact: true }).click();
      await section.getByText(T.saved, { exact: true }).waitFor();
      await section.getByRole('button', { name: T.test, exact: true }).click();
      await section.getByText(T.testSent(creds.admin.email), { exact: true }).waitFor();
      const essai = await sink.waitFor((m) => m.rcptTos.includes(creds.admin.email), "le message d'essai");
      assert.equal(essai.login, smtpUser);
      assert.equal(essai.subject, "Liftdesk : message d'essai");
      await shot('email-reglages');

      // Relus : le mot de passe n'est jamais renvoyé, il est gardé.
      await page.reload();
      const again = page.getByRole('region', { name: T.mailSection });
      await again.getByText(T.passwordKept, { exact: true }).waitFor();
      assert.equal(await again.getByLabel(T.host, { exact: true }).inputValue(), '127.0.0.1');
      assert.equal(await again.getByLabel(T.port, { exact: true }).inputValue(), String(sink.port));
      assert.equal(await again.getByLabel(T.security, { exact: true }).inputValue(), 'aucune');
      assert.equal(await again.getByLabel(T.username, { exact: true }).inputValue(), smtpUser);
      assert.equal(await again.getByLabel(T.password, { exact: true }).inputValue(), '');
    });

    step("l'agence a une adresse e-mail (Agence › Identité)", async () => {
      const identity = await appApi('GET', '/agency/identity');
      assert.equal(identity.status, 200, JSON.stringify(identity.body));
      if (identity.body.identity.email) return;
      await page.goto(new URL('/agence/identite', baseUrl).href);
      await page.getByLabel('E-mail', { exact: true }).fill(`agence-${unique}@exemple.fr`);
      await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
      await page.getByText('Identité enregistrée.', { exact: true }).first().waitFor();
    });

    step("un client dont un contact a une adresse (sa fiche complétée si besoin)", async () => {
      // Les équipements des devis de la démo : le premier dont le client a un contact avec une adresse,
      // sinon le premier dont le client a un contact, qui reçoit une adresse sur la fiche du client.
      const quotes = await appApi('GET', '/quotes?limit=50');
      assert.equal(quotes.status, 200, JSON.stringify(quotes.body));
      let withoutAddress = null;
      const seen = new Set();
      for (const quote of quotes.body.results) {
        if (seen.has(quote.equipment.id)) continue;
        seen.add(quote.equipment.id);
        const options = await appApi('GET', `/quotes/${quote.id}/send-options`);
        if (options.status !== 200) continue;
        const contact = options.body.contacts.find((c) => c.email);
        if (contact) {
          target = { equipmentId: quote.equipment.id, contact };
          break;
        }
        if (!withoutAddress && options.body.contacts.length > 0) {
          withoutAddress = { equipmentId: quote.equipment.id, contact: options.body.contacts[0] };
        }
      }
      if (!target) {
        assert.ok(withoutAddress, 'un équipement de la démo dont le client a un contact');
        const equipment = await appApi('GET', `/equipment/${withoutAddress.equipmentId}`);
        const clientId = equipment.body.client?.id;
        assert.ok(clientId, "le client de l'équipement");
        const email = `contact-${unique}@exemple.fr`;
        await page.goto(new URL(`/clients/${encodeURIComponent(clientId)}`, baseUrl).href);
        await page.getByRole('button', { name: `Modifier le contact « ${withoutAddress.contact.name} »` }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel('E-mail', { exact: true }).fill(email);
        await dialog.getByRole('button', { name: 'Enregistrer', exact: true }).click();
        await dialog.waitFor({ state: 'hidden' });
        target = { equipmentId: withoutAddress.equipmentId, contact: { ...withoutAddress.contact, email } };
      }
    });

    step('un devis du test part par e-mail depuis « Envoyer au client »', async () => {
      const created = await appApi('POST', '/quotes', {
        equipmentId: target.equipmentId,
        origin: 'panne',
        object: `Envoi par e-mail ${unique}`,
        rows: [{ label: 'Remplacement du contacteur', quantity: 1, unitPrice: 240, vatRate: 20 }],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      quoteId = created.body.id;
      const options = await appApi('GET', `/quotes/${quoteId}/send-options`);
      assert.equal(options.status, 200, JSON.stringify(options.body));
      assert.equal(options.body.serverConfigured, true);
      assert.ok(options.body.senderEmail, "l'adresse de l'agence");

      await page.goto(new URL(`/devis/${quoteId}`, baseUrl).href);
      const heading = page.getByRole('heading', { level: 1, name: /^Devis DV-/ });
      await heading.waitFor();
      quoteNumber = ((await heading.textContent()) ?? '').replace('Devis', '').trim();
      await page.getByRole('button', { name: T.send, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Envoyer : Devis ${quoteNumber}` });
      const answer = await sendFromDialog(dialog, {
        options: options.body,
        contact: target.contact,
        attachment: `${quoteNumber}.pdf`,
        subjectSuffix: ` (${unique})`,
        sendPath: `/app/api/quotes/${quoteId}/send`,
      });
      assert.equal(answer.mail?.status, 'envoye', JSON.stringify(answer));
      await dialog.getByTestId('mail-outcome').getByText(/^Envoyé le \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2} à /).waitFor();
      assert.ok(((await dialog.getByTestId('mail-outcome').textContent()) ?? '').includes(`<${target.contact.email}>`));
      await shot('email-devis-envoye');
      await dialog.getByRole('button', { name: T.close, exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      await expectText(page.getByTestId('statut'), 'Envoyé');
      const panel = page.getByTestId('mails-panel');
      await panel.getByRole('heading', { name: T.mailsHeading }).waitFor();
      await panel.getByTestId('mail-status').first().getByText(/^Envoyé le /).waitFor();

      const message = await sink.waitFor(
        (m) => m.rcptTos.includes(target.contact.email) && m.subject.includes(quoteNumber),
        `le devis ${quoteNumber}`,
      );
      assert.equal(message.subject, `${options.body.subject} (${unique})`);
      assert.equal(message.login, smtpUser);
      assert.ok(message.from.includes(`<${answer.mail.senderEmail}>`), message.from);
      assert.equal(message.mailFrom, answer.mail.senderEmail);
      assertPdfAttachment(message, `${quoteNumber}.pdf`);
    });

    step('la facture issue du devis, émise, part par e-mail ; statut « Envoyée »', async () => {
      assert.equal((await appApi('POST', `/quotes/${quoteId}/accept`)).status, 201);
      const invoiced = await appApi('POST', `/quotes/${quoteId}/invoice`, {});
      assert.equal(invoiced.status, 201, JSON.stringify(invoiced.body));
      invoiceId = invoiced.body.id;
      const issued = await appApi('POST', `/invoices/${invoiceId}/issue`);
      assert.equal(issued.status, 201, JSON.stringify(issued.body));
      const options = await appApi('GET', `/invoices/${invoiceId}/send-options`);
      assert.equal(options.status, 200, JSON.stringify(options.body));

      await page.goto(new URL(`/factures/${invoiceId}`, baseUrl).href);
      await expectText(page.getByTestId('statut'), 'Émise');
      invoiceNumber = ((await page.getByTestId('numero').textContent()) ?? '').trim();
      // Dans la série de l'agence de l'administrateur (« Agence Paris Ouest » : PO).
      assert.match(invoiceNumber, /^FA-PO-\d{4}-\d{6}$/);
      await page.getByRole('button', { name: T.send, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Envoyer : Facture ${invoiceNumber}` });
      const answer = await sendFromDialog(dialog, {
        options: options.body,
        contact: target.contact,
        attachment: `${invoiceNumber}.pdf`,
        subjectSuffix: '',
        sendPath: `/app/api/invoices/${invoiceId}/send`,
      });
      assert.equal(answer.mail?.status, 'envoye', JSON.stringify(answer));
      await dialog.getByTestId('mail-outcome').getByText(/^Envoyé le /).waitFor();
      await dialog.getByRole('button', { name: T.close, exact: true }).click();
      await expectText(page.getByTestId('statut'), 'Envoyée');
      await page.getByTestId('mails-panel').getByText(/^Envoyé le /).first().waitFor();
      await shot('email-facture-envoyee');

      const message = await sink.waitFor(
        (m) => m.rcptTos.includes(target.contact.email) && m.subject.includes(invoiceNumber),
        `la facture ${invoiceNumber}`,
      );
      assert.equal(message.subject, options.body.subject);
      assert.ok(message.from.includes(`<${options.body.senderEmail}>`), message.from);
      assert.equal(message.mailFrom, options.body.senderEmail);
      assertPdfAttachment(message, `${invoiceNumber}.pdf`);
    });

    step('une relance refusée une fois (451) : signalée sur la facture, « Réessayer » la fait partir', async () => {
      // Un second récepteur, qui répond « essayez plus tard » au premier message.
      flakySink = await startSink(['--fail-first', '1']);
      const saved = await appApi('PUT', '/mail-settings', { host: '127.0.0.1', port: flakySink.port, security: 'aucune' });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));

      await page.reload();
      await expectText(page.getByTestId('statut'), 'Envoyée');
      await page.getByRole('button', { name: T.remind, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Relancer : Facture ${invoiceNumber}` });
      await dialog.getByTestId('mail-from').waitFor();
      const answered = page.waitForResponse(
        (r) => new URL(r.url()).pathname === `/app/api/invoices/${invoiceId}/send` && r.request().method() === 'POST',
        { timeout: 30_000 },
      );
      await dialog.getByRole('button', { name: T.sendButton, exact: true }).click();
      const answer = await (await answered).json();
      assert.equal(answer.mail?.status, 'echec', JSON.stringify(answer));
      await dialog.getByTestId('mail-outcome').getByText(/^Échec : .* — nouvel essai (à|le) /).waitFor();
      await dialog.getByRole('button', { name: T.close, exact: true }).click();
      // Signalé sur la facture : l'étiquette et la phrase d'alerte, et la ligne du panneau.
      await page.getByTestId('mail-failed').waitFor();
      await page.getByTestId('mail-warning').waitFor();
      const failed = page.getByTestId('mails-panel').locator('[data-status="echec"]');
      await failed.waitFor();
      await shot('email-facture-echec');

      await failed.getByRole('button', { name: T.retry, exact: true }).click();
      await page.getByTestId('mails-panel').locator('[data-status="echec"]').waitFor({ state: 'detached' });
      await page.getByTestId('mail-failed').waitFor({ state: 'detached' });
      const message = await flakySink.waitFor(
        (m) => m.rcptTos.includes(target.contact.email) && m.subject.includes(invoiceNumber),
        'la relance après « Réessayer »',
      );
      assertPdfAttachment(message, `${invoiceNumber}.pdf`);
      await shot('email-facture-reessaye');

      // Les réglages du test reviennent au premier récepteur.
      const back = await appApi('PUT', '/mail-settings', {
        host: '127.0.0.1',
        port: sink.port,
        security: 'aucune',
        username: smtpUser,
        // Enregistré sans identifiant, le serveur a oublié le mot de passe : il est redonné.
        password: smtpPassword,
      });
      assert.equal(back.status, 200, JSON.stringify(back.body));
      assert.equal(back.body.passwordSet, true);
    });

    step("le rapport d'une visite faite part de la fiche de l'équipement", async () => {
      // Les visites faites de la semaine, ou de la précédente (un lundi matin).
      const week = await appApi('GET', '/planning');
      assert.equal(week.status, 200, JSON.stringify(week.body));
      const lastWeek = new Date(`${week.body.today}T12:00:00Z`);
      lastWeek.setUTCDate(lastWeek.getUTCDate() - 7);
      const before = await appApi('GET', `/planning?day=${lastWeek.toISOString().slice(0, 10)}`);
      assert.equal(before.status, 200, JSON.stringify(before.body));
      let visit = null;
      let options = null;
      for (const entry of [...week.body.entries, ...before.body.entries].filter((e) => e.status === 'faite')) {
        const answer = await appApi('GET', `/visits/${entry.id}/send-options`);
        if (answer.status === 200 && answer.body.contacts.some((c) => c.email)) {
          visit = entry;
          options = answer.body;
          break;
        }
      }
      assert.ok(visit, 'une visite faite, dont le client a un contact avec une adresse');

      await page.goto(new URL(`/equipements/${visit.equipmentId}`, baseUrl).href);
      const visits = page.getByRole('region', { name: /^Visites/ });
      // Le rapport PDF de la visite, servi en application/pdf.
      const pdfLink = `a[href="/app/api/visits/${visit.id}/report.pdf"]`;
      const pdf = visits.locator(pdfLink);
      await pdf.waitFor();
      const fetched = await page.evaluate(async (href) => {
        const response = await fetch(href);
        const bytes = new Uint8Array(await response.arrayBuffer());
        return { status: response.status, type: response.headers.get('content-type'), head: String.fromCharCode(...bytes.slice(0, 5)) };
      }, await pdf.getAttribute('href'));
      assert.deepEqual(fetched, { status: 200, type: 'application/pdf', head: '%PDF-' });

      const row = visits.getByRole('row').filter({ has: page.locator(pdfLink) });
      await row.getByRole('button', { name: /^Envoyer le rapport du / }).click();
      const dialog = page.getByRole('dialog', { name: /^Envoyer le rapport de la visite du / });
      await dialog.getByTestId('mail-from').waitFor();
      await expectText(dialog.getByTestId('mail-attachment'), options.attachmentName);
      // Un rapport n'est jamais « envoyé sans e-mail ».
      assert.equal(await dialog.getByRole('button', { name: 'Marquer comme envoyé sans e-mail' }).count(), 0);
      const contact = options.contacts.find((c) => c.email);
      const answered = page.waitForResponse(
        (r) => new URL(r.url()).pathname === `/app/api/visits/${visit.id}/send-report` && r.request().method() === 'POST',
        { timeout: 30_000 },
      );
      await dialog.getByRole('button', { name: T.sendButton, exact: true }).click();
      const answer = await answered;
      assert.equal(answer.status(), 201);
      assert.equal((await answer.json()).status, 'envoye');
      await dialog.getByTestId('mail-outcome').getByText(/^Envoyé le /).waitFor();
      await shot('email-rapport-visite');
      await dialog.getByRole('button', { name: T.close, exact: true }).click();

      const message = await sink.waitFor(
        (m) => m.rcptTos.includes(contact.email) && m.attachments.some((a) => a.filename === options.attachmentName),
        'le rapport de visite',
      );
      assert.equal(message.subject, options.subject);
      assertPdfAttachment(message, options.attachmentName);
    });

    step("un administrateur d'une autre organisation n'a que la section E-mail des paramètres", async () => {
      // Les administrateurs de l'organisation qui a installé Liftdesk sont aussi ceux de
      // l'installation : la session est relue comme celle d'une autre organisation.
      await page.route('**/app/api/session', async (route) => {
        if (route.request().method() !== 'GET') return route.continue();
        const response = await route.fetch();
        const session = await response.json();
        await route.fulfill({ response, json: { ...session, installationAdmin: false } });
      });
      try {
        await page.goto(new URL('/parametres', baseUrl).href);
        await page.getByRole('heading', { level: 2, name: T.mailSection, exact: true }).waitFor();
        await page.getByRole('region', { name: T.mailSection }).getByText(T.passwordKept, { exact: true }).waitFor();
        for (const installationOnly of ['Intégrations', 'Réglages', 'Sauvegardes']) {
          assert.equal(await page.getByRole('heading', { level: 2, name: installationOnly, exact: true }).count(), 0);
        }
        const links = await page.getByRole('navigation', { name: T.menu }).getByRole('link').allTextContents();
        assert.ok(links.map((s) => s.trim()).includes(T.settings));
        await shot('email-reglages-organisation');
      } finally {
        await page.unroute('**/app/api/session');
      }
      assert.deepEqual(pageErrors, []);
    });
  },
);
