/**
 * Clés et jetons, webhooks, mot de passe : validation côté client (mêmes
 * règles et mêmes messages que le serveur), libellés, copie d'un secret, et
 * les appels à `/app/api/keys…` (ceux des webhooks sont dans `webhooks.ts`).
 */
import { api } from './api';
import {
  DELIVERY_STATUSES,
  type DeliveryStatus,
  type DeliveryWire,
  type EventChoice,
  type KeyCreated,
  type KeyRevoked,
  type KeyView,
  type Page,
  type PartnerKeyRevoked,
  type SubscriptionWire,
  type SyncStatusWire,
  type TokenCreated,
} from './generated/contract';

/** Longueur maximale d'un nom (outil, centre d'appels, partenaire), comme le serveur. */
export const MAX_NAME_CHARS = 200;
/** Longueur maximale d'une adresse de webhook, comme le serveur. */
export const MAX_URL_CHARS = 2000;
/** Longueur minimale d'un mot de passe, comme le serveur. */
export const MIN_PASSWORD_CHARS = 8;

/** Un événement auquel s'abonner, tel que le serveur le liste (`GET /app/api/webhooks/events`). */
export type WebhookEventChoice = EventChoice;

/** Ce que nomme chaque sorte de secret (sujet des messages du serveur). */
export const NAME_SUBJECTS = {
  token: "Le nom de l'outil",
  callCenter: "Le nom du centre d'appels",
  partner: 'Le nom du partenaire',
} as const;

export type SecretKind = keyof typeof NAME_SUBJECTS;

/** Nombre de caractères comme le serveur les compte (points de code, pas unités UTF-16). */
function charCount(text: string): number {
  return [...text].length;
}

/** Nom obligatoire, rogné, au plus 200 caractères : `undefined` si valable. */
export function validateName(kind: SecretKind, raw: string): string | undefined {
  const subject = NAME_SUBJECTS[kind];
  const name = raw.trim();
  if (name === '') return `${subject} est obligatoire.`;
  if (charCount(name) > MAX_NAME_CHARS) return `${subject} ne doit pas dépasser ${MAX_NAME_CHARS} caractères.`;
  return undefined;
}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Adresse d'un webhook : absolue, en https://, sans identifiants ni fragment.
 * Une adresse http:// locale est laissée au serveur, qui seul sait s'il l'accepte
 * (lancé avec --insecure-webhooks).
 */
export function validateWebhookUrl(raw: string): string | undefined {
  const text = raw.trim();
  if (text === '') return "Le champ « url » est obligatoire : l'adresse https qui reçoit les événements.";
  if (charCount(text) > MAX_URL_CHARS) return `L'adresse « url » dépasse ${MAX_URL_CHARS} caractères.`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `L'adresse « ${text} » n'est pas une adresse absolue (https://hôte/chemin).`;
  }
  if ((url.protocol === 'https:' || url.protocol === 'http:') && url.hostname === '') {
    return `L'adresse « ${text} » n'est pas une adresse absolue (https://hôte/chemin).`;
  }
  if (url.username !== '' || url.password !== '') {
    return "L'adresse ne doit pas contenir d'identifiants (utilisateur:mot de passe@) : la signature authentifie les envois.";
  }
  if (text.includes('#')) return "L'adresse ne doit pas contenir de fragment (#…).";
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return "L'adresse doit commencer par https:// : les événements ne sont envoyés qu'en HTTPS.";
}

/** Au moins un événement, parmi ceux que le serveur liste (`known`), comme le serveur le dit. */
export function validateEvents(
  events: readonly string[],
  known: readonly WebhookEventChoice[],
): string | undefined {
  if (events.length === 0) {
    return `Le champ « events » doit contenir au moins un événement parmi : ${known.map((e) => e.code).join(', ')}.`;
  }
  return undefined;
}

export interface PasswordInput {
  current: string;
  next: string;
  confirm: string;
}

export interface PasswordErrors {
  current?: string;
  next?: string;
  confirm?: string;
}

export const PASSWORD_MESSAGES = {
  currentRequired: 'Saisissez votre mot de passe actuel.',
  tooShort: `Le mot de passe doit comporter au moins ${MIN_PASSWORD_CHARS} caractères.`,
  mismatch: 'Les deux saisies du nouveau mot de passe diffèrent.',
} as const;

/** Changement de mot de passe : les mots de passe ne sont jamais rognés. */
export function validatePasswordChange(input: PasswordInput): PasswordErrors {
  const errors: PasswordErrors = {};
  if (input.current === '') errors.current = PASSWORD_MESSAGES.currentRequired;
  if (charCount(input.next) < MIN_PASSWORD_CHARS) errors.next = PASSWORD_MESSAGES.tooShort;
  else if (input.confirm !== input.next) errors.confirm = PASSWORD_MESSAGES.mismatch;
  return errors;
}

/** Ton du badge de chaque statut de livraison (le libellé vient du serveur). */
const DELIVERY_TONES: Record<DeliveryStatus, 'success' | 'danger' | 'neutral'> = {
  en_attente: 'neutral',
  livree: 'success',
  echec: 'danger',
  abandonnee: 'danger',
};

/** Statuts d'une livraison de webhook : libellé et ton du badge. */
export function deliveryStatus(code: string): { label: string; tone: 'success' | 'danger' | 'neutral' } {
  const status = DELIVERY_STATUSES.find((s) => s.code === code);
  return status ? { label: status.label, tone: DELIVERY_TONES[status.code] } : { label: code, tone: 'neutral' };
}

/** Libellé d'un événement parmi ceux que le serveur liste (code affiché tel quel s'il est inconnu). */
export function eventLabel(code: string, known: readonly WebhookEventChoice[]): string {
  if (code === 'ping') return 'Test (ping)';
  return known.find((e) => e.code === code)?.label ?? code;
}

/** « 1 autre agence », « 2 autres agences ». */
export function otherAgencies(count: number): string {
  return count <= 1 ? `${count} autre agence` : `${count} autres agences`;
}

export interface Clipboardish {
  writeText(text: string): Promise<void>;
}

/**
 * Copie un texte : `navigator.clipboard` quand il est disponible (contexte
 * sécurisé), sinon une zone de texte temporaire et `document.execCommand('copy')`.
 * Renvoie `false` si aucune des deux n'a fonctionné.
 */
export async function copyText(
  text: string,
  clipboard: Clipboardish | undefined = globalThis.navigator?.clipboard,
  doc: Document | undefined = globalThis.document,
): Promise<boolean> {
  if (clipboard) {
    try {
      await clipboard.writeText(text);
      return true;
    } catch {
      // Refusé (permission, contexte non sécurisé) : on tente l'ancienne méthode.
    }
  }
  if (!doc) return false;
  const area = doc.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.top = '-1000px';
  area.style.opacity = '0';
  doc.body.appendChild(area);
  const previous = doc.activeElement;
  area.select();
  let copied = false;
  try {
    copied = doc.execCommand('copy');
  } catch {
    copied = false;
  } finally {
    area.remove();
    if (previous && typeof (previous as HTMLElement).focus === 'function') (previous as HTMLElement).focus();
  }
  return copied;
}

// ---- Formes des réponses de /app/api/keys et /app/api/webhooks ----
// Elles viennent du serveur : `generated/contract.ts` est généré depuis le code Rust.

export type {
  DeliveryStatus,
  KeyCreated,
  KeyRevoked,
  PartnerKeyRevoked,
  Subscribed,
  TestSent,
  TokenCreated,
  WebhookRevoked,
} from './generated/contract';
export type Delivery = DeliveryWire;
export type Subscription = SubscriptionWire;
export type SyncStatus = SyncStatusWire;
export type Paged<T> = Page<T>;

/**
 * Un jeton ou une clé en vigueur : jamais son secret, seulement le début de son
 * empreinte (`KeyView` côté serveur).
 */
export type KeyRow = KeyView;

// ---- Appels à /app/api/keys ----
// `endpoint` : `/app/api/keys/tokens`, `/app/api/keys/call-center-keys` ou `/app/api/keys/partner-keys`.

/** Une page des jetons ou clés en vigueur. */
export function listKeys(endpoint: string, limit: number, page: number): Promise<Paged<KeyRow>> {
  return api.get<Paged<KeyRow>>(`${endpoint}?limit=${limit}&page=${page}`);
}

/** Crée un jeton ou une clé ; le secret n'est dans la réponse que cette fois. */
export function createKey(endpoint: string, name: string): Promise<TokenCreated | KeyCreated> {
  return api.post<TokenCreated | KeyCreated>(endpoint, { name });
}

/** Révoque un jeton ou une clé ; une clé partenaire peut rester valable pour d'autres agences. */
export function revokeKey(endpoint: string, id: string): Promise<PartnerKeyRevoked | KeyRevoked> {
  return api.post<PartnerKeyRevoked | KeyRevoked>(`${endpoint}/${encodeURIComponent(id)}/revoke`);
}
