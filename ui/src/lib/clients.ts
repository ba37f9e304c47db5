/**
 * Écran Clients : types des réponses de `/app/api/clients…` et
 * `/app/api/contacts…`, paramètres de la liste, mise en forme (SIREN, SIRET,
 * adresse) et le formulaire « Nouveau contact » écrit depuis le descripteur
 * `GET /contacts/creation` : valeurs de départ, contrôles côté client (les
 * règles et les phrases du serveur, `services::contacts::check_value`) et
 * corps envoyé ; et les appels à l'API des clients et des contacts.
 */
import { api } from './api';
import type { ClientDetail, ClientListEntry, ClientView, CreationDescriptor, DescriptorField, Page } from './generated/contract';

// La fiche d'un client et le descripteur du formulaire viennent du serveur :
// `generated/contract.ts` est généré depuis le code Rust.
export type {
  ClientDetail,
  ClientView,
  ContactView,
  CreationDescriptor,
  DescriptorField,
} from './generated/contract';

/**
 * Une ligne de `GET /clients` (`ClientListEntry` côté serveur).
 */
export type ClientEntry = ClientListEntry;

export type ClientPage = Page<ClientEntry>;

/** Les actions de la fiche que l'écran propose (`actions` de `ClientDetail`). */
export type ClientAction = 'contact' | 'archive' | 'restore';

// -- La liste ------------------------------------------------------------------

export type ArchiveFilter = 'active' | 'archived' | 'all';

export const ARCHIVE_FILTERS: { code: ArchiveFilter; label: string }[] = [
  { code: 'active', label: 'Actifs' },
  { code: 'archived', label: 'Archivés' },
  { code: 'all', label: 'Tous' },
];

export interface ClientFilters {
  q: string;
  archived: ArchiveFilter;
}

/** Par défaut : les clients actifs, ceux que l'on facture et que l'on contacte. */
export const EMPTY_CLIENT_FILTERS: ClientFilters = { q: '', archived: 'active' };

/** Longueur maximale de la recherche (`GET /clients`, `q`). */
export const MAX_SEARCH_CHARS = 100;

const chars = (text: string): number => [...text].length;

/** Même règle que le serveur : la recherche, rognée, tient en 100 caractères. */
export function validateClientSearch(q: string): string | undefined {
  return chars(q.trim()) > MAX_SEARCH_CHARS
    ? `Le paramètre « q » ne doit pas dépasser ${MAX_SEARCH_CHARS} caractères.`
    : undefined;
}

/** Les paramètres de `GET /app/api/clients`. */
export function clientQuery(filters: ClientFilters, page: number, limit = 25): string {
  const params = new URLSearchParams();
  const q = filters.q.trim();
  if (q) params.set('q', q);
  params.set('archived', filters.archived);
  params.set('limit', String(limit));
  params.set('page', String(page));
  return params.toString();
}

// -- Mise en forme ---------------------------------------------------------------

/** `732829320` → `732 829 320` ; une autre valeur reste telle quelle. */
export function formatSiren(siren: string | null | undefined): string {
  if (!siren) return '—';
  return /^\d{9}$/.test(siren) ? siren.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3') : siren;
}

/** `73282932000074` → `732 829 320 00074` (SIREN puis NIC) ; une autre valeur reste telle quelle. */
export function formatSiret(siret: string | null | undefined): string {
  if (!siret) return '—';
  return /^\d{14}$/.test(siret) ? `${formatSiren(siret.slice(0, 9))} ${siret.slice(9)}` : siret;
}

/** L'adresse et son complément, sur une ligne. */
export function addressLine(client: Pick<ClientView, 'address' | 'addressComplement'>): string {
  const parts = [client.address, client.addressComplement].filter((p): p is string => !!p && p.trim() !== '');
  return parts.length ? parts.join(' — ') : '—';
}

// -- Le formulaire « Nouveau contact » -------------------------------------------

/** Les types de champ du descripteur (`type` de `DescriptorField`). */
export type FieldType = 'text' | 'number' | 'choice' | 'multi' | 'email' | 'date';

/** Ce qui est tapé : un texte par champ, une liste pour un champ `multi`. */
export type ContactForm = Record<string, string | string[]>;
export type ContactErrors = Record<string, string>;

/** Longueur maximale d'un texte (`services::contacts::MAX_TEXT_CHARS`), en caractères tels qu'envoyés. */
export const MAX_TEXT_CHARS = 500;

/** Un formulaire vide : chaque champ du descripteur, vide. */
export function emptyContactForm(descriptor: CreationDescriptor): ContactForm {
  const form: ContactForm = {};
  for (const field of descriptor.fields) form[field.id] = field.type === 'multi' ? [] : '';
  return form;
}

/** Même règle que `accounts::is_email` côté serveur. */
export function isEmail(value: string): boolean {
  if (new TextEncoder().encode(value).length > 254 || /\s/.test(value)) return false;
  const at = value.indexOf('@');
  if (at < 0) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  return local !== '' && domain.includes('.') && !domain.startsWith('.') && !domain.endsWith('.');
}

/** `AAAA-MM-JJ` et un jour qui existe. */
export function isDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Un nombre tapé à la française (`12,5`) ou non ; `null` s'il n'en est pas un. */
export function parseNumber(text: string): number | null {
  const normalized = text.trim().replace(/\s/g, '').replace(',', '.');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(normalized)) return null;
  const value = Number(normalized);
  return Number.isFinite(value) ? value : null;
}

const quotedList = (values: readonly string[]): string => values.map((v) => `« ${v} »`).join(', ');

function notAllowed(field: DescriptorField, value: string): string {
  return `La valeur « ${value} » du champ « ${field.label} » n'est pas autorisée : valeurs possibles : ${quotedList(field.values ?? [])}.`;
}

/**
 * Le refus d'un champ, avec la phrase du serveur ; `undefined` s'il passe.
 * Un champ vide est « sans valeur » : refusé seulement s'il est obligatoire.
 */
export function checkContactField(field: DescriptorField, value: string | string[]): string | undefined {
  const required = `Le champ « ${field.label} » est obligatoire.`;
  if (field.type === 'multi') {
    const list = Array.isArray(value) ? value : [];
    const wrong = list.find((v) => !(field.values ?? []).includes(v.trim()));
    if (wrong !== undefined) return notAllowed(field, wrong.trim());
    return list.length === 0 && field.required ? required : undefined;
  }
  const raw = Array.isArray(value) ? value.join(' ') : value;
  if (chars(raw) > MAX_TEXT_CHARS && field.type !== 'number') {
    return `Le champ « ${field.label} » dépasse ${MAX_TEXT_CHARS} caractères.`;
  }
  const text = raw.trim();
  if (text === '') return field.required ? required : undefined;
  switch (field.type) {
    case 'email':
      return isEmail(text) ? undefined : `Le champ « ${field.label} » n'est pas une adresse e-mail valide : « ${text} ».`;
    case 'choice':
      return (field.values ?? []).includes(text) ? undefined : notAllowed(field, text);
    case 'date':
      return isDay(text)
        ? undefined
        : `Le champ « ${field.label} » doit être une date AAAA-MM-JJ : « ${text} » n'en est pas une.`;
    case 'number':
      return parseNumber(text) === null ? `Le champ « ${field.label} » n'a pas le type attendu : un nombre.` : undefined;
    default:
      return undefined;
  }
}

/** Les refus, par identifiant de champ ; un objet vide : le formulaire peut partir. */
export function validateContact(descriptor: CreationDescriptor, form: ContactForm): ContactErrors {
  const errors: ContactErrors = {};
  for (const field of descriptor.fields) {
    const message = checkContactField(field, form[field.id] ?? '');
    if (message) errors[field.id] = message;
  }
  return errors;
}

/** Le corps de `POST /contacts` : les champs remplis seulement, un nombre en nombre. */
export function contactBody(
  descriptor: CreationDescriptor,
  clientId: string,
  form: ContactForm,
): { parentId: string; champs: Record<string, string | number | string[]> } {
  const champs: Record<string, string | number | string[]> = {};
  for (const field of descriptor.fields) {
    const value = form[field.id];
    if (Array.isArray(value)) {
      if (value.length) champs[field.id] = value;
    } else if (value !== undefined && value.trim() !== '') {
      champs[field.id] = field.type === 'number' ? (parseNumber(value) ?? value) : value;
    }
  }
  return { parentId: clientId, champs };
}

/**
 * Le champ que nomme un refus du serveur (« Le champ « E-mail » … ») : pour le
 * signaler à côté de la saisie. `null` quand le refus n'en nomme aucun.
 */
export function fieldNamedBy(descriptor: CreationDescriptor, message: string): string | null {
  const field = descriptor.fields.find((f) => message.includes(`champ « ${f.label} »`));
  return field?.id ?? null;
}

// -- Appels à l'API ---------------------------------------------------------------

const clientPath = (id: string) => `/app/api/clients/${encodeURIComponent(id)}`;

/** `GET /clients` : une page de la liste, avec les filtres de `clientQuery`. */
export function listClients(filters: ClientFilters, page: number): Promise<ClientPage> {
  return api.get<ClientPage>(`/app/api/clients?${clientQuery(filters, page)}`);
}

/** `GET /clients/{id}` : la fiche, les contacts et ce que la session peut faire. */
export function getClient(id: string): Promise<ClientDetail> {
  return api.get<ClientDetail>(clientPath(id));
}

/** `POST /clients/{id}/archive|restore` : archive ou restaure le client ; la fiche relue. */
export function setClientArchived(id: string, action: 'archive' | 'restore'): Promise<ClientDetail> {
  return api.post<ClientDetail>(`${clientPath(id)}/${action}`, {});
}

/** `GET /contacts/creation` : le descripteur du formulaire « Nouveau contact ». */
export function getContactDescriptor(): Promise<CreationDescriptor> {
  return api.get<CreationDescriptor>('/app/api/contacts/creation');
}

/** `POST /contacts` : crée le contact (corps de `contactBody`). */
export function createContact(body: ReturnType<typeof contactBody>): Promise<void> {
  return api.post<void>('/app/api/contacts', body);
}
