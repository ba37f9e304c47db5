import { describe, expect, it } from 'vitest';
import { recordRequests } from './test-requests';
import type { Session } from './api';
import { canOpenSettings, isOrganizationAdmin } from './roles';
import {
  canRetry,
  checkMailSettings,
  checkMessage,
  checkSubject,
  defaultPort,
  failedMail,
  formatAttemptTime,
  formatMailTime,
  formOfMailSettings,
  getMailSettings,
  getSendOptions,
  initialChoice,
  listMails,
  mailSettingsBody,
  mailStatusLine,
  mailTone,
  markSent,
  needsPolling,
  recipientsText,
  retryMail,
  saveMailSettings,
  sendBlocker,
  sendBody,
  sendDocument,
  sendVisitReport,
  testMailSettings,
  visitReportUrl,
  type MailSettingsForm,
  type MailWire,
  type SendOptionsWire,
} from './mail';

function mail(overrides: Partial<MailWire> = {}): MailWire {
  return {
    id: 'm-1',
    objectType: 'invoice',
    objectId: 'inv-1',
    status: 'envoye',
    statusLabel: 'Envoyé',
    senderName: 'Ascenseurs Durand',
    senderEmail: 'agence@durand.fr',
    recipients: [{ name: 'Jeanne Martin', email: 'j@x.fr', contactId: 'c-1' }],
    subject: 'Facture FA-PO-2026-000012 — Ascenseurs Durand',
    attachmentName: 'FA-PO-2026-000012.pdf',
    attachmentBytes: 32_000,
    attempts: 1,
    nextAttemptAt: null,
    lastError: null,
    createdBy: 'Claire Durand',
    createdAt: '2026-11-28T13:04:58.000Z',
    sentAt: '2026-11-28T13:05:02.000Z',
    ...overrides,
  };
}

const options: SendOptionsWire = {
  contacts: [
    { id: 'c-0', name: 'Gardien', email: null, role: 'Gardien' },
    { id: 'c-1', name: 'Jeanne Martin', email: 'j@x.fr', role: 'Syndic' },
    { id: 'c-2', name: 'Paul Petit', email: 'p@x.fr', role: null },
  ],
  senderName: 'Ascenseurs Durand',
  senderEmail: 'agence@durand.fr',
  serverConfigured: true,
  subject: 'Facture FA-PO-2026-000012 — Ascenseurs Durand',
  message: 'Bonjour,\n\nVeuillez trouver ci-joint notre facture.\n\nCordialement,\nAscenseurs Durand',
  attachmentName: 'FA-PO-2026-000012.pdf',
};

describe('ligne d’état d’un message (heure de Paris)', () => {
  const now = new Date('2026-11-28T13:06:00Z');

  it('donne la date, l’heure et les destinataires d’un message envoyé', () => {
    expect(formatMailTime('2026-11-28T13:05:02Z')).toBe('28/11/2026 à 14:05');
    // Heure d'été : UTC+2.
    expect(formatMailTime('2026-07-01T08:00:00Z')).toBe('01/07/2026 à 10:00');
    expect(formatMailTime(null)).toBe('—');
    expect(mailStatusLine(mail(), now)).toBe('Envoyé le 28/11/2026 à 14:05 à Jeanne Martin <j@x.fr>');
    expect(
      mailStatusLine(
        mail({
          recipients: [
            { name: 'Jeanne Martin', email: 'j@x.fr', contactId: 'c-1' },
            { name: '', email: 'compta@x.fr', contactId: null },
          ],
        }),
        now,
      ),
    ).toBe('Envoyé le 28/11/2026 à 14:05 à Jeanne Martin <j@x.fr>, compta@x.fr');
  });

  it('donne la raison et le prochain essai d’un échec', () => {
    const failed = mail({
      status: 'echec',
      statusLabel: 'Échec, nouvel essai prévu',
      sentAt: null,
      lastError: "Serveur d'envoi 127.0.0.1:2525 injoignable.",
      nextAttemptAt: '2026-11-28T13:10:00Z',
    });
    expect(mailStatusLine(failed, now)).toBe("Échec : Serveur d'envoi 127.0.0.1:2525 injoignable. — nouvel essai à 14:10");
    // Le lendemain (à Paris) : la date est donnée.
    expect(formatAttemptTime('2026-11-28T23:30:00Z', now)).toBe('le 29/11/2026 à 00:30');
    expect(mailStatusLine({ ...failed, lastError: null, nextAttemptAt: null }, now)).toBe('Échec');
  });

  it('dit l’attente et l’abandon', () => {
    expect(mailStatusLine(mail({ status: 'en_attente', sentAt: null }), now)).toBe("En attente d'envoi");
    expect(
      mailStatusLine(mail({ status: 'en_attente', sentAt: null, lastError: "Aucun serveur d'envoi n'est réglé." }), now),
    ).toBe("En attente d'envoi : Aucun serveur d'envoi n'est réglé.");
    expect(
      mailStatusLine(mail({ status: 'abandonne', sentAt: null, lastError: 'Adresse refusée (550).' }), now),
    ).toBe('Abandonné : Adresse refusée (550).');
    expect(mailStatusLine(mail({ status: 'autre', statusLabel: 'Autre' }), now)).toBe('Autre');
  });

  it('choisit le ton, « Réessayer » et la relecture', () => {
    expect(mailTone('envoye')).toBe('success');
    expect(mailTone('echec')).toBe('warning');
    expect(mailTone('abandonne')).toBe('danger');
    expect(mailTone('en_attente')).toBe('');
    expect(canRetry({ status: 'echec' })).toBe(true);
    expect(canRetry({ status: 'abandonne' })).toBe(true);
    expect(canRetry({ status: 'envoye' })).toBe(false);
    expect(canRetry({ status: 'en_attente' })).toBe(false);
    expect(needsPolling([{ status: 'envoye' }, { status: 'en_attente' }])).toBe(true);
    expect(needsPolling([{ status: 'echec' }])).toBe(true);
    expect(needsPolling([{ status: 'envoye' }, { status: 'abandonne' }])).toBe(false);
    expect(needsPolling([])).toBe(false);
  });

  it('montre l’échec du dernier message seulement', () => {
    const failed = mail({ id: 'm-2', status: 'echec' });
    expect(failedMail([failed, mail()])).toBe(failed);
    expect(failedMail([mail(), failed])).toBeNull();
    expect(failedMail([])).toBeNull();
  });

  it('écrit les destinataires', () => {
    expect(recipientsText([{ name: ' Jeanne ', email: 'j@x.fr' }, { name: '', email: 'b@x.fr' }])).toBe(
      'Jeanne <j@x.fr>, b@x.fr',
    );
  });
});

describe("la boîte d'envoi", () => {
  it('coche le premier contact qui a une adresse', () => {
    expect(initialChoice(options.contacts)).toEqual(['c-1']);
    expect(initialChoice([{ id: 'c-0', name: 'Gardien', email: null, role: null }])).toEqual([]);
    expect(initialChoice([])).toEqual([]);
  });

  it("refuse l'envoi sans adresse de l'agence ou sans serveur", () => {
    expect(sendBlocker(options)).toBeNull();
    expect(sendBlocker({ senderEmail: null, serverConfigured: true })).toMatch(/Agence › Identité/);
    expect(sendBlocker({ senderEmail: ' ', serverConfigured: true })).toMatch(/^L'adresse e-mail de l'agence/);
    expect(sendBlocker({ senderEmail: 'a@b.fr', serverConfigured: false })).toMatch(
      /^Aucun serveur d'envoi n'est réglé : un administrateur de l'organisation/,
    );
  });

  it("contrôle l'objet et le texte comme le serveur", () => {
    expect(checkSubject('Facture')).toBeNull();
    expect(checkSubject('  ')).toBe("L'objet du message est vide.");
    expect(checkSubject('a\nb')).toBe("L'objet du message tient sur une ligne.");
    expect(checkSubject('x'.repeat(201))).toBe("L'objet du message dépasse 200 caractères.");
    expect(checkSubject('é'.repeat(200))).toBeNull();
    expect(checkMessage('Bonjour,\n\n\tMerci.')).toBeNull();
    expect(checkMessage(' \n ')).toBe('Le texte du message est vide.');
    expect(checkMessage('a\u0007b')).toBe('Le texte du message contient un caractère de contrôle.');
    expect(checkMessage('x'.repeat(10_001))).toBe('Le texte du message dépasse 10000 caractères.');
  });

  it("n'envoie l'objet et le texte que s'ils ont changé", () => {
    expect(sendBody(options, ['c-2', 'c-1', 'c-0'], options.subject, options.message)).toEqual({
      contactIds: ['c-1', 'c-2'],
    });
    expect(sendBody(options, ['c-1'], ' Votre facture ', `${options.message}\n\nPS : merci.`)).toEqual({
      contactIds: ['c-1'],
      subject: 'Votre facture',
      message: `${options.message}\n\nPS : merci.`,
    });
    // Des fins de ligne Windows ou des blancs en fin de texte ne comptent pas comme un changement.
    expect(sendBody(options, ['c-1'], options.subject, `${options.message.replace(/\n/g, '\r\n')}\n`)).toEqual({
      contactIds: ['c-1'],
    });
  });
});

describe("le serveur d'envoi", () => {
  const form = (overrides: Partial<MailSettingsForm> = {}): MailSettingsForm => ({
    host: 'smtp.exemple.fr',
    port: '',
    security: 'starttls',
    username: 'agence',
    password: '',
    clearPassword: false,
    ...overrides,
  });

  it('donne le port habituel de chaque sécurité', () => {
    expect(defaultPort('starttls')).toBe(587);
    expect(defaultPort('tls')).toBe(465);
    expect(defaultPort('aucune')).toBe(25);
  });

  it('remplit le formulaire des réglages lus, sans le mot de passe', () => {
    expect(
      formOfMailSettings({
        configured: true,
        host: '127.0.0.1',
        port: 2525,
        security: 'aucune',
        securityLabel: 'Aucun chiffrement',
        username: 'agence',
        passwordSet: true,
        updatedAt: '2026-11-28T13:00:00Z',
      }),
    ).toEqual({ host: '127.0.0.1', port: '2525', security: 'aucune', username: 'agence', password: '', clearPassword: false });
    expect(
      formOfMailSettings({
        configured: true,
        host: 'smtp.exemple.fr',
        port: 465,
        security: 'tls',
        securityLabel: 'TLS',
        username: null,
        passwordSet: false,
        updatedAt: null,
      }).port,
    ).toBe('');
    expect(
      formOfMailSettings({
        configured: false,
        host: null,
        port: null,
        security: 'starttls',
        securityLabel: 'STARTTLS',
        username: null,
        passwordSet: false,
        updatedAt: null,
      }),
    ).toEqual({ host: '', port: '', security: 'starttls', username: '', password: '', clearPassword: false });
  });

  it('contrôle le serveur, le port et le mot de passe', () => {
    expect(checkMailSettings(form())).toEqual({});
    expect(checkMailSettings(form({ host: ' ' })).host).toMatch(/^Indiquez le serveur d'envoi/);
    expect(checkMailSettings(form({ host: 'smtp exemple' })).host).toBe(
      "Serveur d'envoi « smtp exemple » illisible : un nom (smtp.exemple.fr) ou une adresse IP.",
    );
    expect(checkMailSettings(form({ port: '0' })).port).toMatch(/^Le port est un nombre de 1 à 65535/);
    expect(checkMailSettings(form({ port: '70000' })).port).toBeDefined();
    expect(checkMailSettings(form({ port: 'abc' })).port).toBeDefined();
    expect(checkMailSettings(form({ port: '2525' }))).toEqual({});
    expect(checkMailSettings(form({ username: '', password: 'secret' })).password).toMatch(/identifiant/);
  });

  it('garde, remplace ou efface le mot de passe', () => {
    expect(mailSettingsBody(form())).toEqual({ host: 'smtp.exemple.fr', security: 'starttls', username: 'agence' });
    expect(mailSettingsBody(form({ port: ' 2525 ', password: 's3cret', security: 'aucune' }))).toEqual({
      host: 'smtp.exemple.fr',
      port: 2525,
      security: 'aucune',
      username: 'agence',
      password: 's3cret',
    });
    expect(mailSettingsBody(form({ password: 'ignoré', clearPassword: true })).password).toBe('');
    expect(mailSettingsBody(form({ username: ' ' }))).toEqual({ host: 'smtp.exemple.fr', security: 'starttls' });
  });
});

describe("appels à l'API des e-mails", () => {
  const seen = recordRequests();

  it('lit les propositions et les messages de chaque document', async () => {
    await getSendOptions('quote', 'q 1');
    await getSendOptions('invoice', 'inv/1');
    await getSendOptions('visit', 'v-1');
    await listMails('quote', 'q-1');
    await listMails('invoice', 'inv-1');
    await listMails('visit', 'v-1');
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['GET', '/app/api/quotes/q%201/send-options'],
      ['GET', '/app/api/invoices/inv%2F1/send-options'],
      ['GET', '/app/api/visits/v-1/send-options'],
      ['GET', '/app/api/quotes/q-1/mails'],
      ['GET', '/app/api/invoices/inv-1/mails'],
      ['GET', '/app/api/visits/v-1/mails'],
    ]);
    expect(visitReportUrl('v 1')).toBe('/app/api/visits/v%201/report.pdf');
  });

  it('envoie, marque envoyé sans e-mail, envoie un rapport, réessaie', async () => {
    await sendDocument('invoice', 'inv-1', { contactIds: ['c-1'], subject: 'Objet' });
    await sendDocument('quote', 'q-1', { contactIds: ['c-1'] });
    await markSent('quote', 'q-1');
    await markSent('invoice', 'inv-1');
    await sendVisitReport('v-1', { contactIds: ['c-1', 'c-2'] });
    await retryMail('m 1');
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['POST', '/app/api/invoices/inv-1/send'],
      ['POST', '/app/api/quotes/q-1/send'],
      ['POST', '/app/api/quotes/q-1/send'],
      ['POST', '/app/api/invoices/inv-1/send'],
      ['POST', '/app/api/visits/v-1/send-report'],
      ['POST', '/app/api/mails/m%201/retry'],
    ]);
    expect(JSON.parse(seen[0]!.body!)).toEqual({ contactIds: ['c-1'], subject: 'Objet' });
    expect(JSON.parse(seen[1]!.body!)).toEqual({ contactIds: ['c-1'] });
    // Sans corps : le statut seul change.
    expect(seen[2]!.body).toBeUndefined();
    expect(seen[3]!.body).toBeUndefined();
    expect(JSON.parse(seen[4]!.body!)).toEqual({ contactIds: ['c-1', 'c-2'] });
    expect(seen[5]!.body).toBeUndefined();
  });

  it('lit, enregistre et essaie le serveur d’envoi', async () => {
    await getMailSettings();
    await saveMailSettings({ host: '127.0.0.1', port: 2525, security: 'aucune' });
    await testMailSettings();
    await testMailSettings('  ');
    await testMailSettings(' moi@x.fr ');
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['GET', '/app/api/mail-settings'],
      ['PUT', '/app/api/mail-settings'],
      ['POST', '/app/api/mail-settings/test'],
      ['POST', '/app/api/mail-settings/test'],
      ['POST', '/app/api/mail-settings/test'],
    ]);
    expect(JSON.parse(seen[1]!.body!)).toEqual({ host: '127.0.0.1', port: 2525, security: 'aucune' });
    expect(JSON.parse(seen[2]!.body!)).toEqual({});
    expect(JSON.parse(seen[3]!.body!)).toEqual({});
    expect(JSON.parse(seen[4]!.body!)).toEqual({ to: 'moi@x.fr' });
  });
});

describe('qui règle le serveur d’envoi', () => {
  const session = (role: string, installationAdmin = false): Session =>
    ({
      account: { id: 'a', name: 'A', email: 'a@x.fr', role, mustChangePassword: false },
      agency: null,
      agencies: [],
      installationAdmin,
      csrfToken: 'jeton',
    }) as Session;

  it("ouvre « Paramètres » aux administrateurs de l'organisation et de l'installation", () => {
    expect(isOrganizationAdmin(session('org_admin'))).toBe(true);
    expect(isOrganizationAdmin(session('agency_admin'))).toBe(false);
    expect(canOpenSettings(session('org_admin'))).toBe(true);
    expect(canOpenSettings(session('org_admin', true))).toBe(true);
    expect(canOpenSettings(session('agency_admin'))).toBe(false);
    expect(canOpenSettings(session('member'))).toBe(false);
  });
});
