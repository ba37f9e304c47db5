/**
 * Écran Clients : types des réponses de `/app/api/clients…` et
 * `/app/api/contacts…`, paramètres de la liste, mise en forme (SIREN, SIRET,
 * adresse en parties : voie, complément, code postal et ville), le formulaire « Nouveau contact » écrit depuis le descripteur
 * `GET /contacts/creation` : valeurs de départ, contrôles côté client (les
 * règles et les phrases du serveur, `services::contacts::check_value`) et
 * corps envoyé ; les formulaires « Nouveau client » / « Modifier » d'un client
 * et « Modifier » d'un contact (contrôles, corps avec seulement ce qui a
 * changé, champ nommé par un refus du serveur), avec la facturation
 * électronique du client (n° de TVA, adresse de facturation électronique et
 * son défaut tiré du SIREN, code service Chorus Pro d'un organisme public) ;
 * et les appels à l'API des clients et des contacts.
 */
import { api } from './api';
import { checkSiren, checkSiret, checkVatNumber } from './agency';
import {
  BILLING_CATEGORIES,
  CLIENT_STATUSES,
  type BillingCategory,
  type ClientBody,
  type ClientDetail,
  type ClientListEntry,
  type ClientStatus,
  type ClientView,
  type ContactEditBody,
  type ContactView,
  type CreationDescriptor,
  type DescriptorField,
  type Page,
} from './generated/contract';

// La fiche d'un client et le descripteur du formulaire viennent du serveur :
// `generated/contract.ts` est généré depuis le code Rust.
export type {
  BillingCategory,
  ClientBody,
  ClientDetail,
  ClientStatus,
  ClientView,
  ContactEditBody,
  ContactView,
  CreationDescriptor,
  DescriptorField,
} from './generated/contract';
export { BILLING_CATEGORIES, CLIENT_STATUSES };

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

/** Une partie d'adresse renseignée, rognée ; `null` sinon. */
const filled = (value: string | null | undefined): string | null => {
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
};

/** Une ligne du bloc d'adresse : la voie, le complément, ou « 75002 Paris ». */
export interface AddressPart {
  part: 'street' | 'complement' | 'town';
  text: string;
}

/**
 * L'adresse d'un client en bloc, à la française : la voie, le complément,
 * puis « code postal ville » ; seulement les lignes renseignées (aucune :
 * adresse non renseignée).
 */
export function addressParts(
  client: Pick<ClientView, 'address' | 'addressComplement' | 'postalCode' | 'city'>,
): AddressPart[] {
  const town = [filled(client.postalCode), filled(client.city)].filter(Boolean).join(' ');
  const parts: AddressPart[] = [];
  const street = filled(client.address);
  const complement = filled(client.addressComplement);
  if (street) parts.push({ part: 'street', text: street });
  if (complement) parts.push({ part: 'complement', text: complement });
  if (town) parts.push({ part: 'town', text: town });
  return parts;
}

/** L'adresse entière sur une ligne (`fullAddress` du serveur), ou « — ». */
export function addressLine(client: Pick<ClientView, 'fullAddress'>): string {
  return filled(client.fullAddress) ?? '—';
}

/** Un code postal tel que tapé (« 75 002 ») : sans ses espaces. */
export function compactPostalCode(value: string): string {
  return value.replace(/\s/gu, '');
}

/** Cinq chiffres, espaces comprises (« 75 002 ») : la règle du serveur. */
export const POSTAL_CODE_PATTERN = '\\s*(?:[0-9]\\s*){5}';

/**
 * Le champ « Code postal » tel qu'il garde la saisie : cinq caractères au plus
 * hors espaces (« 75 002 » tient, un sixième chiffre ne se tape pas, un
 * « 75002 Paris » collé garde « 75002 »).
 */
export function limitPostalCode(value: string): string {
  let kept = 0;
  let end = 0;
  for (const char of value) {
    if (!/\s/u.test(char)) {
      if (kept === 5) break;
      kept += 1;
    }
    end += char.length;
  }
  return value.slice(0, end);
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

// -- Le formulaire d'un client (« Nouveau client », « Modifier ») -----------------

/** Les catégories d'un client (`services::clients::CATEGORIES`, champ « type » de l'API partenaire). */
export const CLIENT_CATEGORIES = ['Propriétaire/exploitant', 'Gestionnaire'] as const;

/** Ce qui est saisi : des textes, le statut, les catégories cochées, la catégorie de facturation (`''` : non renseignée). */
export interface ClientForm {
  /** L'identifiant client (partenaire) : saisi à la création seulement, facultatif. */
  id: string;
  name: string;
  status: ClientStatus;
  categories: string[];
  billingCategory: BillingCategory | '';
  email: string;
  phone: string;
  /** La voie : numéro et nom de la rue. */
  address: string;
  addressComplement: string;
  /** Cinq chiffres, espaces permises à la saisie. */
  postalCode: string;
  city: string;
  siren: string;
  siret: string;
  /** N° de TVA intracommunautaire (FR, clé, SIREN), espaces permises. */
  vatNumber: string;
  /** Adresse de facturation électronique ; vide : le défaut tiré du SIREN (`defaultElectronicAddress`). */
  electronicAddress: string;
  /** Code service Chorus Pro : saisi (et envoyé) pour un organisme public seulement. */
  serviceCode: string;
}

export type ClientField = keyof ClientForm;
export type ClientErrors = Partial<Record<ClientField, string>>;

/** Dans l'ordre du formulaire (la première erreur reçoit le focus). */
export const CLIENT_FIELD_ORDER: ClientField[] = [
  'name',
  'status',
  'categories',
  'billingCategory',
  'email',
  'phone',
  'address',
  'addressComplement',
  'postalCode',
  'city',
  'siren',
  'siret',
  'vatNumber',
  'electronicAddress',
  'serviceCode',
  'id',
];

/** Les libellés du formulaire, qui nomment les champs dans les refus côté client. */
export const CLIENT_FIELD_LABELS: Record<ClientField, string> = {
  id: 'Identifiant client',
  name: 'Nom',
  status: 'Statut',
  categories: 'Catégories',
  billingCategory: 'Catégorie de facturation',
  email: 'E-mail',
  phone: 'Téléphone',
  address: 'Adresse (numéro et voie)',
  addressComplement: "Complément d'adresse",
  postalCode: 'Code postal',
  city: 'Ville',
  siren: 'SIREN',
  siret: 'SIRET',
  vatNumber: 'N° de TVA intracommunautaire',
  electronicAddress: 'Adresse de facturation électronique',
  serviceCode: 'Code service (Chorus Pro)',
};

/** Un nouveau client : statut « Client », rien d'autre. */
export function emptyClientForm(): ClientForm {
  return {
    id: '',
    name: '',
    status: 'Client',
    categories: [],
    billingCategory: '',
    email: '',
    phone: '',
    address: '',
    addressComplement: '',
    postalCode: '',
    city: '',
    siren: '',
    siret: '',
    vatNumber: '',
    electronicAddress: '',
    serviceCode: '',
  };
}

/** Le formulaire « Modifier » d'un client : ses valeurs, un champ vide pour ce qui n'est pas renseigné. */
export function formOfClient(client: ClientView): ClientForm {
  return {
    id: client.id,
    name: client.name,
    status: client.status,
    categories: [...client.categories],
    billingCategory: client.billingCategory ?? '',
    email: client.email ?? '',
    phone: client.phone ?? '',
    address: client.address ?? '',
    addressComplement: client.addressComplement ?? '',
    postalCode: client.postalCode ?? '',
    city: client.city ?? '',
    siren: client.siren ?? '',
    siret: client.siret ?? '',
    vatNumber: client.vatNumber ?? '',
    electronicAddress: client.electronicAddress ?? '',
    serviceCode: client.serviceCode ?? '',
  };
}

/** Un SIREN ou un SIRET tel que tapé (« 732 829 320 ») : sans ses espaces. */
export function compactNumber(value: string): string {
  return value.replace(/\s/gu, '');
}

// -- Facturation électronique ------------------------------------------------------

/** Un organisme public : ses factures passent par Chorus Pro (SIRET, code service). */
export const PUBLIC_BODY: BillingCategory = 'organisme_public';

/**
 * L'adresse de facturation électronique par défaut, comme l'annuaire l'écrit
 * (`einvoice::default_address` du serveur) : le SIREN ; pour un organisme
 * public avec SIRET, `SIREN_SIRET`, et avec un code service
 * `SIREN_SIRET_CODE`. `null` sans SIREN (ses factures vont en e-reporting).
 */
export function defaultElectronicAddress(
  category: BillingCategory | '' | null,
  siren: string | null,
  siret: string | null,
  serviceCode: string | null,
): string | null {
  if (!siren) return null;
  if (category !== PUBLIC_BODY || !siret) return siren;
  return serviceCode ? `${siren}_${siret}_${serviceCode}` : `${siren}_${siret}`;
}

/** Le défaut de l'adresse de facturation électronique d'après ce qui est saisi (le champ vide l'indique). */
export function formDefaultAddress(form: ClientForm): string | null {
  const siren = compactNumber(form.siren);
  const siret = compactNumber(form.siret);
  return defaultElectronicAddress(
    form.billingCategory,
    /^\d{9}$/u.test(siren) ? siren : null,
    /^\d{14}$/u.test(siret) ? siret : null,
    form.billingCategory === PUBLIC_BODY ? form.serviceCode.trim() || null : null,
  );
}

/**
 * L'adresse de facturation électronique de la fiche : celle enregistrée, ou
 * le défaut (`default: true`) ; `null` sans l'une ni l'autre (client sans SIREN).
 */
export function electronicAddressShown(
  client: Pick<ClientView, 'electronicAddress' | 'effectiveElectronicAddress'>,
): { address: string; default: boolean } | null {
  if (client.electronicAddress) return { address: client.electronicAddress, default: false };
  if (client.effectiveElectronicAddress) return { address: client.effectiveElectronicAddress, default: true };
  return null;
}

/** « Copropriété non assujettie à la TVA », ou « Non renseignée ». */
export function billingCategoryLabel(client: Pick<ClientView, 'billingCategory' | 'billingCategoryLabel'>): string {
  if (client.billingCategoryLabel) return client.billingCategoryLabel;
  const known = BILLING_CATEGORIES.find((c) => c.code === client.billingCategory);
  return known?.label ?? 'Non renseignée';
}

const tooLong = (label: string, value: string): string | undefined =>
  chars(value) > MAX_TEXT_CHARS ? `Le champ « ${label} » dépasse ${MAX_TEXT_CHARS} caractères.` : undefined;

/**
 * Les refus du formulaire d'un client, champ par champ, avec les règles du
 * serveur (`services::clients::update_client`) : nom obligatoire, SIREN et
 * SIRET avec leurs clés de Luhn, le SIRET commençant par le SIREN, la forme
 * de l'adresse e-mail, un code postal français de cinq chiffres (espaces
 * permises), 500 caractères au plus. `creating` : l'identifiant
 * client se saisit (il ne se change plus ensuite). Un objet vide : le
 * formulaire peut partir.
 */
export function checkClient(form: ClientForm, creating: boolean): ClientErrors {
  const errors: ClientErrors = {};
  const put = (field: ClientField, reason: string | undefined) => {
    if (reason && !errors[field]) errors[field] = reason;
  };
  const texts: ClientField[] = ['name', 'email', 'phone', 'address', 'addressComplement', 'postalCode', 'city'];
  if (creating) texts.push('id');
  for (const field of texts) put(field, tooLong(CLIENT_FIELD_LABELS[field], (form[field] as string).trim()));
  if (form.name.trim() === '') put('name', `Le champ « ${CLIENT_FIELD_LABELS.name} » est obligatoire.`);
  if (!(CLIENT_STATUSES as readonly { code: string }[]).some((s) => s.code === form.status)) {
    put('status', `La valeur « ${form.status} » du champ « Statut » n'est pas autorisée.`);
  }
  const wrong = form.categories.find((c) => !(CLIENT_CATEGORIES as readonly string[]).includes(c));
  if (wrong !== undefined) put('categories', `La valeur « ${wrong} » du champ « Catégories » n'est pas autorisée.`);
  const email = form.email.trim();
  if (email !== '' && !isEmail(email)) {
    put('email', `Le champ « ${CLIENT_FIELD_LABELS.email} » n'est pas une adresse e-mail valide : « ${email} ».`);
  }
  const postalCode = form.postalCode.trim();
  if (postalCode !== '' && !/^[0-9]{5}$/u.test(compactPostalCode(postalCode))) {
    put(
      'postalCode',
      `Le champ « ${CLIENT_FIELD_LABELS.postalCode} » doit être un code postal français de cinq chiffres : « ${postalCode} » n'en est pas un.`,
    );
  }
  const siren = compactNumber(form.siren);
  const siret = compactNumber(form.siret);
  if (siren !== '') put('siren', checkSiren(siren));
  if (siret !== '') put('siret', checkSiret(siret));
  if (siren !== '' && siret !== '' && !errors.siren && !errors.siret && !siret.startsWith(siren)) {
    put('siret', `Le SIRET doit commencer par le SIREN du client (${formatSiren(siren)}).`);
  }
  // Le n° de TVA (`services::clients::einvoicing_data`) : sa forme et sa clé, puis celui du SIREN du client.
  // L'adresse de facturation électronique et le code service sont contrôlés par le serveur seul (sa phrase s'affiche).
  const vat = compactNumber(form.vatNumber).toUpperCase();
  if (vat !== '') {
    const reason = checkVatNumber(vat, null);
    if (reason) put('vatNumber', `Numéro de TVA du client : ${reason}`);
    else if (siren !== '' && !errors.siren && !vat.endsWith(siren)) {
      put('vatNumber', `Le numéro de TVA ${vat} n'est pas celui du SIREN du client (${siren}).`);
    }
  }
  return errors;
}

/** Un texte facultatif rogné ; vide → `null`. */
const optional = (value: string): string | null => {
  const text = value.trim();
  return text === '' ? null : text;
};

/** Les champs de texte facultatifs envoyés tels quels (`optionalTexts`). */
type OptionalText =
  | 'email'
  | 'phone'
  | 'address'
  | 'addressComplement'
  | 'postalCode'
  | 'city'
  | 'siren'
  | 'siret'
  | 'vatNumber'
  | 'electronicAddress';

/**
 * Les champs de texte facultatifs, tels qu'envoyés (SIREN, SIRET, n° de TVA
 * et code postal sans espaces, le n° de TVA en majuscules). Le code service
 * part à part (`serviceCodeSent`).
 */
function optionalTexts(form: ClientForm): Record<OptionalText, string | null> {
  return {
    email: optional(form.email),
    phone: optional(form.phone),
    address: optional(form.address),
    addressComplement: optional(form.addressComplement),
    postalCode: optional(compactPostalCode(form.postalCode)),
    city: optional(form.city),
    siren: optional(compactNumber(form.siren)),
    siret: optional(compactNumber(form.siret)),
    vatNumber: optional(compactNumber(form.vatNumber).toUpperCase()),
    electronicAddress: optional(form.electronicAddress),
  };
}

/**
 * Le code service tel qu'envoyé : rogné (vide → `null`) pour un organisme
 * public ; `undefined` pour une autre catégorie (le champ n'est pas montré,
 * rien n'est envoyé).
 */
function serviceCodeSent(form: ClientForm): string | null | undefined {
  return form.billingCategory === PUBLIC_BODY ? optional(form.serviceCode) : undefined;
}

/**
 * La voie, le code postal et la ville partent ensemble (`null` pour une
 * partie vide) : le serveur ne découpe une adresse que si la voie arrive
 * seule, et ce qui est saisi dans les champs est ce qui est enregistré.
 */
const POSTAL_PARTS = ['address', 'postalCode', 'city'] as const;

/** Les catégories cochées, dans l'ordre de la liste, sans doublon. */
const orderedCategories = (categories: readonly string[]): string[] => [
  ...CLIENT_CATEGORIES.filter((c) => categories.includes(c)),
  ...categories.filter((c) => !(CLIENT_CATEGORIES as readonly string[]).includes(c)),
];

/**
 * Le corps de `POST /clients` : le nom, le statut, les catégories, et les
 * champs remplis seulement (l'identifiant client absent : le serveur attribue
 * le suivant, « CLI-000123 ») ; une adresse saisie part avec son code postal
 * et sa ville, même vides.
 */
export function newClientBody(form: ClientForm): ClientBody {
  const body: ClientBody = {
    name: form.name.trim(),
    status: form.status,
    categories: orderedCategories(form.categories),
  };
  const id = form.id.trim();
  if (id !== '') body.id = id;
  const texts = optionalTexts(form);
  const withAddress = POSTAL_PARTS.some((key) => texts[key] !== null);
  for (const key of Object.keys(texts) as (keyof typeof texts)[]) {
    const value = texts[key];
    if (value !== null) body[key] = value;
    else if (withAddress && (key === 'postalCode' || key === 'city')) body[key] = null;
  }
  if (form.billingCategory !== '') body.billingCategory = form.billingCategory;
  const serviceCode = serviceCodeSent(form);
  if (serviceCode) body.serviceCode = serviceCode;
  return body;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v) => b.includes(v)) && b.every((v) => a.includes(v));

/**
 * Le corps de `PATCH /clients/{id}` : seulement ce qui a changé (un objet
 * vide : rien à envoyer) ; un champ facultatif vidé part à `null` (effacé).
 * La voie, le code postal ou la ville changés : les trois partent ensemble.
 * Jamais l'identifiant client, qui ne se change pas.
 */
export function clientEditBody(client: ClientView, form: ClientForm): ClientBody {
  const body: ClientBody = {};
  const name = form.name.trim();
  if (name !== client.name.trim()) body.name = name;
  if (form.status !== client.status) body.status = form.status;
  if (!sameSet(form.categories, client.categories)) body.categories = orderedCategories(form.categories);
  const before = optionalTexts(formOfClient(client));
  const after = optionalTexts(form);
  for (const key of Object.keys(after) as (keyof typeof after)[]) {
    if (after[key] !== before[key]) body[key] = after[key];
  }
  if (POSTAL_PARTS.some((key) => after[key] !== before[key])) {
    for (const key of POSTAL_PARTS) body[key] = after[key];
  }
  const billing = form.billingCategory === '' ? null : form.billingCategory;
  if (billing !== client.billingCategory) body.billingCategory = billing;
  const serviceCode = serviceCodeSent(form);
  if (serviceCode !== undefined && serviceCode !== (client.serviceCode ?? null)) body.serviceCode = serviceCode;
  return body;
}

/** Les noms des champs dans les refus du serveur (ceux de l'API partenaire) → les champs du formulaire. */
const CLIENT_WIRE_FIELDS: Record<string, ClientField> = {
  nom: 'name',
  name: 'name',
  statut: 'status',
  status: 'status',
  type: 'categories',
  categories: 'categories',
  email: 'email',
  telephone: 'phone',
  phone: 'phone',
  adresse: 'address',
  address: 'address',
  complement_adresse: 'addressComplement',
  addressComplement: 'addressComplement',
  code_postal: 'postalCode',
  postalCode: 'postalCode',
  'Code postal': 'postalCode',
  ville: 'city',
  city: 'city',
  Ville: 'city',
  siren: 'siren',
  siret: 'siret',
  numero_tva: 'vatNumber',
  vatNumber: 'vatNumber',
  adresse_facturation_electronique: 'electronicAddress',
  electronicAddress: 'electronicAddress',
  code_service: 'serviceCode',
  serviceCode: 'serviceCode',
  client_id: 'id',
  id: 'id',
};

/**
 * Le champ du formulaire que nomme un refus du serveur (« Champ « siret » : … »,
 * « Le champ « email » … », nom ou identifiant déjà pris), pour le signaler ;
 * la phrase reste dans l'alerte, telle que le serveur l'a écrite. `null` sinon.
 */
export function clientFieldNamedBy(message: string): ClientField | null {
  if (/s'appelle déjà « /u.test(message)) return 'name';
  if (/^L'identifiant client /u.test(message)) return 'id';
  if (/^Catégorie de facturation /u.test(message)) return 'billingCategory';
  if (/^Numéro de TVA du client /u.test(message) || /^Le numéro de TVA .* du SIREN du client/u.test(message)) {
    return 'vatNumber';
  }
  if (/^L'adresse de facturation électronique /u.test(message)) return 'electronicAddress';
  if (/^Le code service Chorus Pro /u.test(message)) return 'serviceCode';
  const named = /champ « ([^»]+?) »/iu.exec(message);
  return named ? (CLIENT_WIRE_FIELDS[named[1] ?? ''] ?? null) : null;
}

// -- Le formulaire « Modifier » d'un contact ---------------------------------------

export interface ContactEditForm {
  name: string;
  email: string;
  phone: string;
  /** La fonction. */
  role: string;
}

export type ContactEditField = keyof ContactEditForm;
export type ContactEditErrors = Partial<Record<ContactEditField, string>>;

export const CONTACT_FIELD_ORDER: ContactEditField[] = ['name', 'email', 'phone', 'role'];

export const CONTACT_FIELD_LABELS: Record<ContactEditField, string> = {
  name: 'Nom',
  email: 'E-mail',
  phone: 'Téléphone',
  role: 'Fonction',
};

export function formOfContact(contact: ContactView): ContactEditForm {
  return {
    name: contact.name,
    email: contact.email ?? '',
    phone: contact.phone ?? '',
    role: contact.role ?? '',
  };
}

/** Les refus du formulaire d'un contact (`services::contacts::edit_for`) : nom obligatoire, e-mail, 500 caractères. */
export function checkContactEdit(form: ContactEditForm): ContactEditErrors {
  const errors: ContactEditErrors = {};
  for (const field of CONTACT_FIELD_ORDER) {
    const reason = tooLong(CONTACT_FIELD_LABELS[field], form[field].trim());
    if (reason) errors[field] = reason;
  }
  if (form.name.trim() === '') errors.name = `Le champ « ${CONTACT_FIELD_LABELS.name} » est obligatoire.`;
  const email = form.email.trim();
  if (!errors.email && email !== '' && !isEmail(email)) {
    errors.email = `Le champ « ${CONTACT_FIELD_LABELS.email} » n'est pas une adresse e-mail valide : « ${email} ».`;
  }
  return errors;
}

/** Le corps de `PATCH /contacts/{id}` : seulement ce qui a changé ; un champ facultatif vidé part à `null`. */
export function contactEditBody(contact: ContactView, form: ContactEditForm): ContactEditBody {
  const body: ContactEditBody = {};
  const name = form.name.trim();
  if (name !== contact.name.trim()) body.name = name;
  for (const key of ['email', 'phone', 'role'] as const) {
    const value = optional(form[key]);
    if (value !== (contact[key] ?? null)) body[key] = value;
  }
  return body;
}

const CONTACT_WIRE_FIELDS: Record<string, ContactEditField> = {
  nom: 'name',
  name: 'name',
  email: 'email',
  telephone: 'phone',
  phone: 'phone',
  fonction: 'role',
  role: 'role',
};

/** Le champ du formulaire d'un contact que nomme un refus du serveur ; `null` sinon. */
export function contactFieldNamedBy(message: string): ContactEditField | null {
  const named = /champ « ([^»]+?) »/iu.exec(message);
  return named ? (CONTACT_WIRE_FIELDS[named[1] ?? ''] ?? null) : null;
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

/** `POST /clients` (201) : le client créé, sa fiche. */
export function createClient(body: ClientBody): Promise<ClientDetail> {
  return api.post<ClientDetail>('/app/api/clients', body);
}

/** `PATCH /clients/{id}` : le client modifié (corps de `clientEditBody`), sa fiche relue. */
export function editClient(id: string, body: ClientBody): Promise<ClientDetail> {
  return api.patch<ClientDetail>(clientPath(id), body);
}

const contactPath = (id: string) => `/app/api/contacts/${encodeURIComponent(id)}`;

/** `PATCH /contacts/{id}` : le contact modifié (corps de `contactEditBody`), relu. */
export function editContact(id: string, body: ContactEditBody): Promise<ContactView> {
  return api.patch<ContactView>(contactPath(id), body);
}

/** `DELETE /contacts/{id}` (204) : le contact retiré ; l'historique garde ce qu'il contenait. */
export function deleteContact(id: string): Promise<void> {
  return api.delete(contactPath(id));
}
