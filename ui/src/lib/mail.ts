/**
 * Documents envoyés par e-mail et serveur d'envoi de l'organisation : types
 * des réponses (`…/send-options`, `…/send`, `…/mails`, `/mails/{id}/retry`,
 * `/visits/{id}/send-report`, `/mail-settings…`), la ligne d'état française
 * d'un message (heures de Paris), le choix des destinataires et le contrôle
 * de l'objet et du texte (mêmes règles et mêmes phrases que le serveur), le
 * port habituel de chaque sécurité, et les appels à l'API.
 */
import { api } from './api';
import type {
  ContactChoiceWire,
  MailRecipientWire,
  MailSettingsBody,
  MailSettingsWire,
  MailTestSent,
  MailWire,
  SendBody,
  SendOptionsWire,
  SentDocument,
} from './generated/contract';

// Les réponses et les corps viennent du serveur : `generated/contract.ts` est
// généré depuis le code Rust.
export type {
  ContactChoiceWire,
  MailRecipientWire,
  MailSettingsBody,
  MailSettingsWire,
  MailTestSent,
  MailWire,
  SendBody,
  SendOptionsWire,
  SentDocument,
} from './generated/contract';

/** Ce qui part par e-mail : un devis, une facture (ou un avoir), le rapport d'une visite faite. */
export type MailKind = 'quote' | 'invoice' | 'visit';

/** Statuts d'un message (`MailWire.status`). */
export type MailStatus = 'en_attente' | 'envoye' | 'echec' | 'abandonne';

/** Sécurité du serveur d'envoi (`MailSettingsBody.security`). */
export type MailSecurity = 'starttls' | 'tls' | 'aucune';

/** Les choix de sécurité, dans l'ordre du formulaire, avec leur port habituel. */
export const MAIL_SECURITIES: readonly { code: MailSecurity; label: string; port: number }[] = [
  { code: 'starttls', label: 'STARTTLS', port: 587 },
  { code: 'tls', label: 'TLS implicite', port: 465 },
  { code: 'aucune', label: 'Aucun chiffrement', port: 25 },
];

/** Mêmes bornes que le serveur (`domain::mail`). */
export const SUBJECT_MAX = 200;
export const MESSAGE_MAX = 10_000;
export const RECIPIENTS_MAX = 20;

/** Les messages en attente ou en échec sont relus à ce rythme tant que le panneau est affiché. */
export const MAIL_POLL_MS = 4_000;

// -- Dates, heure de Paris --------------------------------------------------------

const PARIS_DAY = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
const PARIS_TIME = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  hour: '2-digit',
  minute: '2-digit',
});

function dateOf(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Horodatage UTC → `28/11/2026 à 14:05`, heure de Paris ; absent → `—`, illisible → tel quel. */
export function formatMailTime(value: string | null | undefined): string {
  const date = dateOf(value);
  if (!date) return value || '—';
  return `${PARIS_DAY.format(date)} à ${PARIS_TIME.format(date)}`;
}

/** Quand a lieu un essai prévu : `à 14:10` le jour même (à Paris), sinon `le 29/11/2026 à 14:10`. */
export function formatAttemptTime(value: string, now: Date = new Date()): string {
  const date = dateOf(value);
  if (!date) return value;
  if (PARIS_DAY.format(date) === PARIS_DAY.format(now)) return `à ${PARIS_TIME.format(date)}`;
  return `le ${PARIS_DAY.format(date)} à ${PARIS_TIME.format(date)}`;
}

// -- Lignes d'état ----------------------------------------------------------------

/** Un destinataire : `Jeanne Martin <j@x.fr>`, ou l'adresse seule sans nom. */
export function recipientText(recipient: Pick<MailRecipientWire, 'name' | 'email'>): string {
  const name = recipient.name.trim();
  return name ? `${name} <${recipient.email}>` : recipient.email;
}

/** Les destinataires, séparés par des virgules. */
export function recipientsText(recipients: Pick<MailRecipientWire, 'name' | 'email'>[]): string {
  return recipients.map(recipientText).join(', ');
}

/**
 * La ligne d'état d'un message, en français :
 * « Envoyé le 28/11/2026 à 14:05 à Jeanne Martin <j@x.fr> »,
 * « Échec : <raison> — nouvel essai à 14:10 », « En attente d'envoi »,
 * « Abandonné : <raison> ».
 */
export function mailStatusLine(mail: MailWire, now: Date = new Date()): string {
  const reason = mail.lastError?.trim() || null;
  switch (mail.status) {
    case 'envoye':
      return `Envoyé le ${formatMailTime(mail.sentAt ?? mail.createdAt)} à ${recipientsText(mail.recipients)}`;
    case 'echec': {
      const next = mail.nextAttemptAt ? ` — nouvel essai ${formatAttemptTime(mail.nextAttemptAt, now)}` : '';
      return `Échec${reason ? ` : ${reason}` : ''}${next}`;
    }
    case 'en_attente':
      return `En attente d'envoi${reason ? ` : ${reason}` : ''}`;
    case 'abandonne':
      return `Abandonné${reason ? ` : ${reason}` : ''}`;
    default:
      return mail.statusLabel || mail.status;
  }
}

/** Le ton de l'étiquette : succès envoyé, alerte en échec ou abandonné. */
export function mailTone(status: string): '' | 'success' | 'warning' | 'danger' {
  if (status === 'envoye') return 'success';
  if (status === 'echec') return 'warning';
  if (status === 'abandonne') return 'danger';
  return '';
}

/** « Réessayer » : un message en échec ou abandonné. */
export function canRetry(mail: Pick<MailWire, 'status'>): boolean {
  return mail.status === 'echec' || mail.status === 'abandonne';
}

/** Le panneau relit les messages tant que l'un d'eux attend ou a échoué (un nouvel essai viendra). */
export function needsPolling(mails: Pick<MailWire, 'status'>[]): boolean {
  return mails.some((m) => m.status === 'en_attente' || m.status === 'echec');
}

/** Le dernier message (le plus récent d'abord), s'il n'est pas parti : l'échec à montrer sur le document. */
export function failedMail(mails: MailWire[]): MailWire | null {
  const latest = mails[0];
  return latest && canRetry(latest) ? latest : null;
}

// -- La boîte d'envoi -------------------------------------------------------------

/** Les contacts cochés d'abord : le premier qui a une adresse. */
export function initialChoice(contacts: ContactChoiceWire[]): string[] {
  const first = contacts.find((c) => c.email);
  return first ? [first.id] : [];
}

/** Ce qui empêche l'envoi par e-mail quel que soit le choix des destinataires (phrase à afficher), ou null. */
export function sendBlocker(options: Pick<SendOptionsWire, 'senderEmail' | 'serverConfigured'>): string | null {
  if (!options.senderEmail?.trim()) {
    return "L'adresse e-mail de l'agence n'est pas renseignée : complétez le champ « E-mail » dans Agence › Identité ; les documents partent de cette adresse.";
  }
  if (!options.serverConfigured) {
    return "Aucun serveur d'envoi n'est réglé : un administrateur de l'organisation le règle dans Paramètres › E-mail (serveur d'envoi).";
  }
  return null;
}

/** L'objet saisi, contrôlé comme le serveur (`check_subject`) ; null s'il convient. */
export function checkSubject(subject: string): string | null {
  const text = subject.trim();
  if (text === '') return "L'objet du message est vide.";
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text)) return "L'objet du message tient sur une ligne.";
  if ([...text].length > SUBJECT_MAX) return `L'objet du message dépasse ${SUBJECT_MAX} caractères.`;
  return null;
}

/** Le texte saisi, contrôlé comme le serveur (`check_body`) ; null s'il convient. */
export function checkMessage(message: string): string | null {
  const text = message.replace(/\r\n/g, '\n').trimEnd();
  if (text.trim() === '') return 'Le texte du message est vide.';
  if (/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text)) {
    return 'Le texte du message contient un caractère de contrôle.';
  }
  if ([...text].length > MESSAGE_MAX) return `Le texte du message dépasse ${MESSAGE_MAX} caractères.`;
  return null;
}

/**
 * Le corps de l'envoi : les contacts choisis (dans l'ordre de la liste), et
 * l'objet et le texte seulement s'ils diffèrent de ceux proposés (sinon le
 * serveur met les siens, identiques).
 */
export function sendBody(
  options: Pick<SendOptionsWire, 'contacts' | 'subject' | 'message'>,
  chosen: readonly string[],
  subject: string,
  message: string,
): SendBody {
  const body: SendBody = {
    contactIds: options.contacts.filter((c) => c.email && chosen.includes(c.id)).map((c) => c.id),
  };
  if (subject.trim() !== options.subject.trim()) body.subject = subject.trim();
  if (message.replace(/\r\n/g, '\n').trimEnd() !== options.message.trimEnd()) body.message = message;
  return body;
}

// -- Le serveur d'envoi -----------------------------------------------------------

/** Le port habituel d'une sécurité (587, 465 ou 25). */
export function defaultPort(security: string): number {
  return MAIL_SECURITIES.find((s) => s.code === security)?.port ?? 587;
}

export interface MailSettingsForm {
  host: string;
  /** Vide : le port habituel de la sécurité. */
  port: string;
  security: MailSecurity;
  username: string;
  /** Vide : le mot de passe enregistré est gardé. */
  password: string;
  /** « Effacer le mot de passe » coché. */
  clearPassword: boolean;
}

export type MailSettingsErrors = Partial<Record<'host' | 'port' | 'password', string>>;

/** Le formulaire rempli des réglages lus (mot de passe jamais relu). */
export function formOfMailSettings(settings: MailSettingsWire): MailSettingsForm {
  const security = MAIL_SECURITIES.some((s) => s.code === settings.security)
    ? (settings.security as MailSecurity)
    : 'starttls';
  return {
    host: settings.host ?? '',
    port: settings.port === null || settings.port === defaultPort(security) ? '' : String(settings.port),
    security,
    username: settings.username ?? '',
    password: '',
    clearPassword: false,
  };
}

/** Contrôle du formulaire (serveur, port de 1 à 65535, mot de passe avec un identifiant). */
export function checkMailSettings(form: MailSettingsForm): MailSettingsErrors {
  const errors: MailSettingsErrors = {};
  const host = form.host.trim().replace(/\.+$/, '');
  if (host === '') errors.host = "Indiquez le serveur d'envoi (smtp.exemple.fr ou une adresse IP).";
  else if (host.length > 253 || !/^[A-Za-z0-9.:[\]-]+$/.test(host)) {
    errors.host = `Serveur d'envoi « ${host} » illisible : un nom (smtp.exemple.fr) ou une adresse IP.`;
  }
  const port = form.port.trim();
  if (port !== '' && (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535)) {
    errors.port = 'Le port est un nombre de 1 à 65535 (vide : le port habituel de la sécurité choisie).';
  }
  if (form.password !== '' && form.username.trim() === '') {
    errors.password = 'Un mot de passe va avec un identifiant : renseignez l’identifiant.';
  } else if (form.password.length > 512) {
    errors.password = 'Le mot de passe ne doit pas dépasser 512 caractères.';
  }
  return errors;
}

/** Le corps de `PUT /mail-settings` : mot de passe absent (gardé), saisi, ou vide (effacé). */
export function mailSettingsBody(form: MailSettingsForm): MailSettingsBody {
  const body: MailSettingsBody = { host: form.host.trim(), security: form.security };
  if (form.port.trim() !== '') body.port = Number(form.port.trim());
  if (form.username.trim() !== '') body.username = form.username.trim();
  if (form.clearPassword) body.password = '';
  else if (form.password !== '') body.password = form.password;
  return body;
}

// -- Appels à l'API ---------------------------------------------------------------

const ROOTS: Record<MailKind, string> = {
  quote: '/app/api/quotes',
  invoice: '/app/api/invoices',
  visit: '/app/api/visits',
};

const documentPath = (kind: MailKind, id: string) => `${ROOTS[kind]}/${encodeURIComponent(id)}`;

export const MAIL_SETTINGS_PATH = '/app/api/mail-settings';

/** `GET /quotes|invoices|visits/{id}/send-options` : contacts, expéditeur, objet et texte proposés. */
export function getSendOptions(kind: MailKind, id: string, signal?: AbortSignal): Promise<SendOptionsWire> {
  return api.get<SendOptionsWire>(`${documentPath(kind, id)}/send-options`, { signal });
}

/** `POST /quotes|invoices/{id}/send` : le statut change et le message part aux contacts choisis. */
export function sendDocument(kind: 'quote' | 'invoice', id: string, body: SendBody): Promise<SentDocument> {
  return api.post<SentDocument>(`${documentPath(kind, id)}/send`, body);
}

/** `POST /quotes|invoices/{id}/send` sans corps : envoyé par un autre moyen (courrier, en main propre). */
export function markSent(kind: 'quote' | 'invoice', id: string): Promise<SentDocument> {
  return api.post<SentDocument>(`${documentPath(kind, id)}/send`);
}

/** `POST /visits/{id}/send-report` : le rapport d'une visite faite, aux contacts choisis. */
export function sendVisitReport(id: string, body: SendBody): Promise<MailWire> {
  return api.post<MailWire>(`${documentPath('visit', id)}/send-report`, body);
}

/** L'adresse du rapport PDF d'une visite faite. */
export function visitReportUrl(id: string): string {
  return `${documentPath('visit', id)}/report.pdf`;
}

/** `GET /quotes|invoices|visits/{id}/mails` : les messages du document, le plus récent d'abord. */
export function listMails(kind: MailKind, id: string, signal?: AbortSignal): Promise<MailWire[]> {
  return api.get<MailWire[]>(`${documentPath(kind, id)}/mails`, { signal });
}

/** `POST /mails/{id}/retry` : redemande un message en échec ou abandonné, essayé aussitôt. */
export function retryMail(id: string): Promise<MailWire> {
  return api.post<MailWire>(`/app/api/mails/${encodeURIComponent(id)}/retry`);
}

/** `GET /mail-settings` : le serveur d'envoi de l'organisation (administrateurs de l'organisation). */
export function getMailSettings(): Promise<MailSettingsWire> {
  return api.get<MailSettingsWire>(MAIL_SETTINGS_PATH);
}

/** `PUT /mail-settings` : enregistre le serveur d'envoi ; les réglages relus. */
export function saveMailSettings(body: MailSettingsBody): Promise<MailSettingsWire> {
  return api.put<MailSettingsWire>(MAIL_SETTINGS_PATH, body);
}

/** `POST /mail-settings/test` : un message d'essai, à `to` ou à l'adresse de la personne connectée. */
export function testMailSettings(to?: string): Promise<MailTestSent> {
  const address = to?.trim();
  return api.post<MailTestSent>(`${MAIL_SETTINGS_PATH}/test`, address ? { to: address } : {});
}
