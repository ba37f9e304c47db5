/**
 * Écran « Journal » (administrateurs) et historique d'une fiche (tout le
 * personnel) : qui a changé quoi et quand, lu dans `GET /app/api/journal`
 * (du plus récent au plus ancien, page après page par `before`). Les
 * paramètres de la requête, l'heure de Paris, l'auteur, l'objet (et le lien
 * vers sa page quand l'application en a une) et le détail enregistré rendus
 * lisibles, et l'appel à l'API. Dans le détail, un enregistrement nommé par
 * son identifiant se lit par son nom (les `references` de la réponse, avec
 * le lien vers sa page) ; un identifiant que la réponse ne nomme pas est
 * celui d'un enregistrement supprimé. Tout ce qui se lit est en mots
 * français : jours et heures à la française (heure de Paris), listes
 * séparées par des virgules (même écrites en JSON par le serveur), codes par
 * leur nom, nombres décimaux avec une virgule.
 */
import { FIELD_LABELS as IDENTITY_FIELD_LABELS } from './agency';
import { api } from './api';
import { formatEuros } from './billing';
import { formatDay, formatParisDateTime } from './format';
import type { JournalActor, JournalAnswer, JournalEntryWire, JournalReference } from './generated/contract';
import { TARGET_LABELS } from './imports';
import { valueLabel } from './labels';
import { PAYMENT_METHODS } from './generated/contract';

// Les réponses viennent du serveur : `generated/contract.ts` est généré depuis le code Rust.
export type {
  JournalActor,
  JournalAnswer,
  JournalEntryWire,
  JournalReference,
  ObjectTypeChoice,
} from './generated/contract';

export const JOURNAL_PATH = '/app/api/journal';

/**
 * Les enregistrements nommés du détail (`references` de chaque page : genre,
 * nom en clair, page dans l'application calculée par le serveur), par
 * identifiant. Un enregistrement supprimé n'y figure pas.
 */
export type JournalReferences = Readonly<Record<string, JournalReference>>;

/** Entrées d'une page de l'écran « Journal » (celles du serveur par défaut). */
export const JOURNAL_PAGE = 50;
/** Entrées d'une page de l'historique d'une fiche. */
export const HISTORY_PAGE = 20;

/** Les filtres de l'écran ; une valeur vide n'est pas envoyée. */
export interface JournalFilters {
  /** Code d'un type d'objet (`equipment`, `client`…), vide pour « Tous ». */
  objectType: string;
  /** L'objet (avec `objectType`) ; pour un client, son identifiant `CLI-…`. */
  objectId: string;
  /** Le compte du personnel qui a agi, vide pour « Tout le monde ». */
  accountId: string;
  /** Jours de Paris `AAAA-MM-JJ`, tous deux inclus. */
  from: string;
  to: string;
}

export const EMPTY_JOURNAL_FILTERS: JournalFilters = {
  objectType: '',
  objectId: '',
  accountId: '',
  from: '',
  to: '',
};

/**
 * Les paramètres de `GET /journal` : les filtres non vides (rognés), `before`
 * pour continuer après la dernière entrée lue, `limit` s'il est donné.
 */
export function journalQuery(filters: Partial<JournalFilters>, before: number | null = null, limit?: number): string {
  const params = new URLSearchParams();
  for (const key of ['objectType', 'objectId', 'accountId', 'from', 'to'] as const) {
    const value = filters[key]?.trim();
    if (value) params.set(key, value);
  }
  if (before !== null) params.set('before', String(before));
  if (limit !== undefined) params.set('limit', String(limit));
  return params.toString();
}

/** `GET /journal` : une page d'entrées, la suite (`next`) et les types d'objets du filtre. */
export function getJournal(
  filters: Partial<JournalFilters>,
  before: number | null = null,
  limit?: number,
  signal?: AbortSignal,
): Promise<JournalAnswer> {
  const query = journalQuery(filters, before, limit);
  return api.get<JournalAnswer>(query ? `${JOURNAL_PATH}?${query}` : JOURNAL_PATH, { signal });
}

/** L'historique d'une fiche (`objectType` + `objectId`), lisible par tout le personnel. */
export function getHistory(
  objectType: string,
  objectId: string,
  before: number | null = null,
  limit = HISTORY_PAGE,
  signal?: AbortSignal,
): Promise<JournalAnswer> {
  return getJournal({ objectType, objectId }, before, limit, signal);
}

/**
 * Les enregistrements nommés connus, enrichis de ceux d'une nouvelle page
 * (« Entrées plus anciennes » garde ceux des pages déjà lues).
 */
export function mergeReferences(
  known: JournalReferences,
  page: { references?: readonly JournalReference[] | null },
): JournalReferences {
  const merged: Record<string, JournalReference> = { ...known };
  for (const reference of page.references ?? []) {
    if (reference && typeof reference.id === 'string') merged[reference.id] = reference;
  }
  return merged;
}

// -- Date et heure ----------------------------------------------------------------

const PARIS_TIME = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** Horodatage UTC → `28/11/2026 18:02:11`, heure de Paris ; illisible, tel quel. */
export function formatJournalTime(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : PARIS_TIME.format(date);
}

// -- Auteur -----------------------------------------------------------------------

/** Qui a agi, en trois morceaux : son nom, son genre s'il n'est pas du personnel, le titulaire. */
export interface ActorParts {
  name: string;
  /** « Jeton d'API », « Centre d'appels »… ; absent pour le personnel. */
  kind: string | null;
  /** Le titulaire d'un jeton, le centre d'une clé. */
  owner: string | null;
}

export function actorParts(actor: JournalActor): ActorParts {
  const staff = actor.kind === 'account';
  const name = actor.name?.trim() || (staff ? 'Compte inconnu' : actor.kindLabel);
  const kind = staff || name === actor.kindLabel ? null : actor.kindLabel;
  return { name, kind, owner: actor.owner?.trim() || null };
}

/** Qui a agi, sur une ligne : « Clé nuit · Centre d'appels (Télé-Secours) ». */
export function actorText(actor: JournalActor): string {
  const { name, kind, owner } = actorParts(actor);
  return `${name}${kind ? ` · ${kind}` : ''}${owner ? ` (${owner})` : ''}`;
}

// -- Action -----------------------------------------------------------------------

/** Ce qui a été fait, en clair : le nom que le serveur donne à l'action (`services::journal::action_label`, seul lieu de ces noms). */
export function actionText(entry: Pick<JournalEntryWire, 'action' | 'actionLabel'>): string {
  return entry.actionLabel?.trim() || entry.action;
}

// -- Objet ------------------------------------------------------------------------

/** Les pages de l'application qui s'ouvrent par l'identifiant que le journal donne. */
const PAGES_BY_ID: Record<string, string> = {
  equipment: '/equipements',
  building: '/immeubles',
  call: '/appels',
  survey: '/releves',
  quote: '/devis',
  invoice: '/factures',
  webhook_subscription: '/webhooks',
};

/** Une valeur texte du détail d'une entrée, rognée ; `null` sans elle. */
function detailString(entry: Pick<JournalEntryWire, 'detail'>, key: string): string | null {
  const detail = entry.detail;
  const value = isRecord(detail) ? detail[key] : null;
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/**
 * La page de l'objet d'une entrée, quand l'application en a une. Un client
 * s'ouvre par son identifiant `CLI-…` (le journal le nomme par son
 * identifiant interne) : celui que son détail enregistre (`client_id`) ; un
 * contact, par la fiche de son client (même `client_id`) ; un écart de
 * relevé, par la fiche du relevé où il a été constaté (`survey`). Visites,
 * techniciens, comptes, agences, clés, imports et affaires n'ont pas de page
 * à eux.
 */
export function objectLink(entry: Pick<JournalEntryWire, 'objectType' | 'objectId' | 'detail'>): string | null {
  if (entry.objectType === 'client' || entry.objectType === 'contact') {
    const ref = detailString(entry, 'client_id');
    return ref ? `/clients/${encodeURIComponent(ref)}` : null;
  }
  if (entry.objectType === 'discrepancy') {
    const survey = detailString(entry, 'survey');
    return survey && looksLikeId(survey) ? `${PAGES_BY_ID.survey}/${encodeURIComponent(survey)}` : null;
  }
  const base = PAGES_BY_ID[entry.objectType];
  return base && entry.objectId ? `${base}/${encodeURIComponent(entry.objectId)}` : null;
}

/**
 * Le nom de l'objet : celui que le journal donne, sinon le numéro que son
 * détail enregistre (un relevé : `REL-2026-00029`), sinon, pour un écart de
 * relevé, le nom du relevé où il a été constaté (`references`) ; `null` sans
 * rien de tout cela.
 */
export function objectName(
  entry: Pick<JournalEntryWire, 'objectType' | 'objectLabel' | 'detail'>,
  references: JournalReferences = {},
): string | null {
  const own = entry.objectLabel?.trim() || detailString(entry, 'number');
  if (own || entry.objectType !== 'discrepancy') return own;
  const survey = detailString(entry, 'survey');
  const found = survey && Object.hasOwn(references, survey) ? references[survey] : undefined;
  return found?.label?.trim() || null;
}

/** L'objet en clair : « Équipement ASC-1 », ou son seul type quand rien ne le nomme. */
export function objectText(
  entry: Pick<JournalEntryWire, 'objectType' | 'objectTypeLabel' | 'objectLabel' | 'detail'>,
  references: JournalReferences = {},
): string {
  const label = objectName(entry, references);
  return label ? `${entry.objectTypeLabel} ${label}` : entry.objectTypeLabel;
}

// -- Détail -----------------------------------------------------------------------

/** Un morceau de la valeur d'une ligne : du texte, ou le nom d'un enregistrement et sa page. */
export interface DetailPart {
  text: string;
  /** La page de l'enregistrement nommé, quand l'application en a une. */
  path?: string;
}

/**
 * Une ligne du détail : le champ (vide pour un simple « avant → après ») et sa
 * valeur en texte ; `parts` la même valeur en morceaux quand elle nomme un
 * enregistrement qui a une page (les liens à montrer).
 */
export interface DetailLine {
  label: string;
  text: string;
  parts?: DetailPart[];
}

/** Noms français des champs que le journal enregistre le plus souvent ; les autres gardent leur nom. */
export const FIELD_LABELS: Record<string, string> = {
  number: 'Numéro',
  serialNumber: 'N° de série',
  type: 'Type',
  subtype: 'Sous-type',
  location: 'Emplacement',
  maintenanceContract: 'Contrat',
  contractNumber: 'N° de contrat',
  externalId: 'Identifiant externe',
  name: 'Nom',
  address: 'Adresse',
  addressComplement: "Complément d'adresse",
  postalCode: 'Code postal',
  city: 'Ville',
  email: 'E-mail',
  phone: 'Téléphone',
  role: 'Rôle',
  status: 'Statut',
  reference: 'Référence',
  client: 'Client',
  client_id: 'Client',
  clientId: 'Client',
  buildingId: 'Immeuble',
  equipment: 'Équipement',
  contacts: 'Contacts',
  from: 'De',
  to: 'À',
  nom: 'Nom',
  adresse: 'Adresse',
  code_postal: 'Code postal',
  ville: 'Ville',
  complement_adresse: "Complément d'adresse",
  telephone: 'Téléphone',
  statut: 'Statut',
  position: 'Fonction',
  account: 'Compte',
  admin: 'Administrateur',
  agency: 'Agence',
  agencies: 'Agences',
  performsSurveys: 'Fait des relevés',
  technician: 'Technicien',
  technicianId: 'Technicien',
  previousTechnician: 'Technicien précédent',
  technicians: 'Techniciens',
  sectors: 'Secteurs',
  dailyCapacity: 'Visites par jour',
  restHours: 'Repos de sécurité (h)',
  accessInstructions: "Consignes d'accès",
  accessOther: 'Autre accès',
  digicode: 'Digicode',
  keyBox: 'Coffre à clé',
  equipmentId: 'Équipement',
  plannedFor: 'Prévue le',
  deadline: 'Échéance du plan',
  doneOn: 'Faite le',
  arrivedAt: 'Arrivée',
  leftAt: 'Départ',
  signedBy: 'Signé par',
  day: 'Jour',
  nature: 'Nature',
  origin: 'Origine',
  quote: 'Devis',
  quoteNumber: 'Devis',
  lines: 'Lignes',
  totalInclCents: 'Total TTC',
  amountCents: 'Montant',
  balanceCents: 'Reste à payer',
  method: 'Mode de règlement',
  settled: 'Soldée',
  creditNote: 'Avoir',
  issuedOn: 'Émise le',
  dueOn: 'Échéance',
  paidOn: 'Réglée le',
  creditedInvoice: 'Facture créditée',
  creditedNumber: 'Facture créditée',
  event: 'Événement',
  events: 'Événements',
  url: 'Adresse',
  subject: 'Objet',
  attachment: 'Pièce jointe',
  host: 'Serveur',
  port: 'Port',
  security: 'Sécurité',
  username: 'Identifiant',
  passwordChanged: 'Mot de passe changé',
  category: 'Catégorie',
  reason: 'Motif',
  version: 'Version',
  values: 'Valeurs',
  source: 'Source',
  via: 'Par',
  weeks: 'Semaines',
  startsAt: 'Début',
  endsAt: 'Fin',
  startsOn: 'Du',
  endsOn: 'Au',
  survey: 'Relevé',
  surveys: 'Relevés',
  surveyor: 'Releveur',
  component: 'Composant',
  width: 'Largeur',
  height: 'Hauteur',
  mediaType: 'Format',
  logo: 'Logo',
  revokedSessions: 'Sessions fermées',
  revokedTokens: 'Jetons révoqués',
  remainingAgencies: 'Agences restantes',
  callCenterKeysRevoked: "Clés de centre d'appels révoquées",
  partnerKeysWithdrawn: 'Clés partenaires retirées',
  webhookSubscriptionsRevoked: 'Abonnements webhook révoqués',
  plannedVisitsCalledOff: 'Visites prévues annulées',
  // Le compte rendu de dépannage d'un appel (comme à l'écran de l'appel).
  report: 'Compte rendu',
  cause: 'Cause de la panne',
  work: 'Travaux effectués',
  parts: 'Pièces remplacées',
  backInServiceAt: 'Remise en service',
  fonction: 'Fonction',
  // Un import : ce qui est importé et ce qu'il a fait ; les fichiers purgés.
  target: 'Données importées',
  created: 'Créés',
  updated: 'Mis à jour',
  refused: 'Refusés',
  deleted: 'Supprimés',
  abandonedDeliveries: 'Envois abandonnés',
  changed: 'Changé',
  clearedArrivedAt: 'Arrivée effacée',
  photoCount: 'Photos',
  // Import, relevés, affaires, appels, clés et identité de l'agence.
  row: 'Ligne du fichier',
  changes: 'Champs changés',
  rows: 'Lignes',
  columns: 'Colonnes',
  bytes: 'Taille (octets)',
  created_equipment: 'Équipements créés',
  copiedToEquipment: "Données reportées sur l'équipement",
  equipmentChanges: "Changé sur l'équipement",
  surveyedOn: 'Relevé le',
  finding: 'Constat',
  absence: 'Absence',
  urgence: 'Urgence',
  callCenter: "Centre d'appels",
  center: "Centre d'appels",
  partner: 'Partenaire',
  legalName: 'Raison sociale',
  legalForm: 'Forme juridique',
  shareCapital: 'Capital social',
  rcsCity: 'Ville du RCS',
  siret: 'SIRET',
  siren: 'SIREN',
  vatNumber: 'N° de TVA intracommunautaire',
  headOfficeAddress: 'Adresse du siège social',
  headOfficeComplement: "Complément d'adresse du siège",
  headOfficePostalCode: 'Code postal du siège',
  headOfficeCity: 'Ville du siège',
  iban: 'IBAN',
  bic: 'BIC',
  insurer: 'Assureur',
  insurancePolicy: "N° de police d'assurance",
  insuranceArea: 'Couverture géographique',
  // Renouvellement de la validité d'un devis (action `renouvellement`).
  validUntil: "Valable jusqu'au",
  validUntilBefore: "Valable jusqu'au (avant)",
};

/**
 * Noms propres aux entrées d'un type d'objet, avant `FIELD_LABELS` : les
 * changements de l'identité de l'agence (`identite`, objet `agency`) nomment
 * ses champs comme l'écran « Agence » et le serveur (`IdentityField::label`) :
 * `city` → « Ville de l'agence », pas « Ville » (celle d'un client).
 */
export const OBJECT_FIELD_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  agency: IDENTITY_FIELD_LABELS,
  // Une facture enregistre le nombre de ses équipements, pas l'un d'eux.
  invoice: { equipment: 'Équipements' },
};

/**
 * Les composants du catalogue technique (`component` d'un écart de relevé),
 * nommés comme la fiche d'un équipement (`sheet::component_label` du serveur) ;
 * un écart sans composant porte sur l'appareil entier.
 */
export const COMPONENT_LABELS: Readonly<Record<string, string>> = {
  equipment: 'Appareil',
  car: 'Cabine',
  car_door: 'Porte de cabine',
  landing_door: 'Portes palières',
  machine: 'Machinerie',
  controller: 'Armoire de commande',
  shaft: 'Gaine',
};

/** Les codes propres au journal, par champ (les autres sont dans `labels.ts`). */
const JOURNAL_CODES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  component: COMPONENT_LABELS,
  target: TARGET_LABELS,
  method: Object.fromEntries(PAYMENT_METHODS.map((m) => [m.code, m.label])),
};

/** Champs montants en euros (les `…Cents` sont en centimes). */
const EURO_FIELDS = new Set(['shareCapital']);

/** Champs qui donnent un client par son identifiant `CLI-…`, lien vers sa fiche. */
const CLIENT_REF_FIELDS = new Set(['client', 'client_id', 'clientId']);
const CLIENT_REF = /^CLI-\d+$/;

/**
 * Champs techniques que le journal garde (identifiants internes, renvois
 * entre enregistrements) mais que l'écran ne montre pas : l'objet ou l'auteur
 * de l'entrée les nomme déjà (le centre d'appels qui ouvre un appel est
 * l'auteur), ou ils n'ont rien à dire à l'écran (`version` : la version de
 * l'identité de l'agence ; `absence` : l'identifiant d'une absence, dont les
 * dates et le motif suivent).
 */
export const HIDDEN_FIELDS = new Set([
  'mail',
  'callCenterId',
  'callCenter',
  'external_opportunity_id',
  'sheet_token',
  'fileId',
  'version',
  'absence',
  // L'envoi d'un webhook rejoué : son identifiant, sans page ni nom.
  'delivery',
]);

/** Ce qui se lit à la place de l'identifiant d'un enregistrement que la réponse ne nomme pas. */
export const DELETED_RECORD = '(enregistrement supprimé)';

/** Un identifiant interne (UUID) : `01a225d5-aa9f-7031-8ef5-c997d8cffadb`. */
const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Une valeur qui a l'allure d'un identifiant interne (jamais montré tel quel). */
export function looksLikeId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value.trim());
}

/** Un jour `AAAA-MM-JJ`. */
const DAY_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
/** Un horodatage ISO complet, fuseau compris : `2026-11-09T12:13:42.860Z`, `…T13:13+01:00`. */
const TIMESTAMP_PATTERN =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/** Le jour existe au calendrier (pas de 31 février). */
function realDay(year: string, month: string, day: string): boolean {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
}

/**
 * Une date du détail à la française, d'après sa seule forme : un jour
 * `2026-12-12` → `12/12/2026`, un horodatage `2026-11-09T12:13:42.860Z` →
 * `09/11/2026 13:13` (heure de Paris) ; toute autre valeur : `null`.
 */
export function dateText(value: string): string | null {
  const text = value.trim();
  const day = DAY_PATTERN.exec(text);
  if (day) return realDay(day[1]!, day[2]!, day[3]!) ? formatDay(text) : null;
  const at = TIMESTAMP_PATTERN.exec(text);
  if (at && realDay(at[1]!, at[2]!, at[3]!)) {
    const shown = formatParisDateTime(text);
    return shown === text ? null : shown;
  }
  return null;
}

/**
 * Une liste ou un objet que le serveur a écrit en JSON dans une chaîne (les
 * consignes d'accès d'un immeuble : `"[\"Digicode\",\"Vigik\"]"`) : sa
 * valeur ; toute autre chaîne : `undefined`.
 */
export function embeddedJson(value: string): unknown[] | Record<string, unknown> | undefined {
  const text = value.trim();
  if (!/^\[[\s\S]*\]$|^\{[\s\S]*\}$/.test(text)) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) || isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Un nombre à la française : `32.81` → `32,81` ; sans séparateur de milliers (années, codes postaux). */
export function numberText(value: number): string {
  return Number.isInteger(value) ? String(value) : String(value).replace('.', ',');
}

/**
 * Ce qu'une fiche sait de plus pour lire le détail de ses entrées : le genre
 * de l'objet (les statuts d'un appel ne sont pas ceux d'un devis) et des noms
 * de champs propres à la fiche (le catalogue technique d'un équipement :
 * `charge_utile` → « Charge utile »).
 */
export interface DetailContext {
  objectType?: string;
  fieldLabels?: Readonly<Record<string, string>>;
  /** Les enregistrements nommés de la réponse, par identifiant (`references`). */
  references?: JournalReferences;
  /**
   * Les noms du catalogue technique de l'agence (`technical-fields`), après
   * ceux du type d'objet et du journal : `charge_utile` → « Charge utile ».
   */
  catalogue?: Readonly<Record<string, string>>;
}

/**
 * Le nom français d'un champ : celui de la fiche, sinon celui du type
 * d'objet, sinon celui du journal, sinon celui du catalogue technique, sinon
 * la clé.
 */
function fieldLabel(key: string, context: DetailContext = {}): string {
  const own = context.fieldLabels;
  if (own && Object.hasOwn(own, key)) return own[key] as string;
  const ofType = context.objectType && Object.hasOwn(OBJECT_FIELD_LABELS, context.objectType) ? OBJECT_FIELD_LABELS[context.objectType] : undefined;
  if (ofType && Object.hasOwn(ofType, key)) return ofType[key] as string;
  if (Object.hasOwn(FIELD_LABELS, key)) return FIELD_LABELS[key] as string;
  const catalogue = context.catalogue;
  return catalogue && Object.hasOwn(catalogue, key) ? (catalogue[key] as string) : key;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Un `{before, after}` (d'autres clés éventuelles à côté). */
function isChange(value: unknown): value is { before: unknown; after: unknown } {
  return isRecord(value) && 'before' in value && 'after' in value;
}

/** Une valeur du détail en clair : vide → « — », oui/non, dates à la française, listes séparées par des virgules. */
export function valueText(value: unknown): string {
  return partsText(valueParts('', value, {}, false));
}

/** Les morceaux d'une valeur mis bout à bout. */
function partsText(parts: readonly DetailPart[]): string {
  return parts.map((part) => part.text).join('');
}

/** Des morceaux de texte voisins fondus en un seul (les liens restent à part). */
function joinParts(parts: readonly DetailPart[]): DetailPart[] {
  const out: DetailPart[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (last && !last.path && !part.path) last.text += part.text;
    else if (part.text !== '' || part.path) out.push({ ...part });
  }
  return out;
}

/** Des suites de morceaux séparées par `separator`. */
function joined(groups: readonly DetailPart[][], separator: string): DetailPart[] {
  return groups.flatMap((group, i) => (i === 0 ? group : [{ text: separator }, ...group]));
}

/**
 * L'enregistrement qu'un identifiant nomme : son nom (et sa page) d'après les
 * `references` de la réponse, sinon « (enregistrement supprimé) » — jamais
 * l'identifiant lui-même.
 */
function referenceParts(id: string, context: DetailContext): DetailPart[] {
  const found = context.references && Object.hasOwn(context.references, id.trim()) ? context.references[id.trim()] : undefined;
  if (!found) return [{ text: DELETED_RECORD }];
  const label = found.label?.trim() || DELETED_RECORD;
  return [found.path ? { text: label, path: found.path } : { text: label }];
}

/**
 * Ce qu'un champ dit de sa valeur, avant sa forme : montants en euros
 * (`…Cents` en centimes, le capital social), un client `CLI-…` en lien vers
 * sa fiche, les secteurs d'un technicien séparés par une virgule et une
 * espace, les codes propres au journal (`JOURNAL_CODES`), l'appareil entier
 * pour un écart sans composant ; `null` : rien de propre au champ.
 */
function fieldParts(field: string, value: unknown, context: DetailContext): DetailPart[] | null {
  if (typeof value === 'number') {
    if (field.endsWith('Cents')) return [{ text: formatEuros(value / 100) }];
    if (EURO_FIELDS.has(field)) return [{ text: formatEuros(value) }];
    return null;
  }
  if (typeof value === 'string') {
    const text = value.trim();
    if (CLIENT_REF_FIELDS.has(field) && CLIENT_REF.test(text)) return [{ text, path: `/clients/${encodeURIComponent(text)}` }];
    if (field === 'sectors' && text.includes(',')) {
      return [{ text: text.split(',').map((s) => s.trim()).filter(Boolean).join(', ') }];
    }
    const codes = Object.hasOwn(JOURNAL_CODES, field) ? JOURNAL_CODES[field] : undefined;
    if (codes && Object.hasOwn(codes, text)) return [{ text: codes[text] as string }];
    if (field === 'component' && /^[a-z]+(_[a-z]+)+$/.test(text)) return [{ text: text.replace(/_/g, ' ') }];
    return null;
  }
  if (field === 'component' && value === null && context.objectType === 'discrepancy') {
    return [{ text: COMPONENT_LABELS.equipment as string }];
  }
  return null;
}

/**
 * Une valeur en morceaux : vide → « — », oui/non, nombres à la française, un
 * identifiant par le nom de l'enregistrement, ce que le champ dit de sa
 * valeur (`fieldParts`), jours et horodatages à la française (`dateText`),
 * une liste ou un objet écrit en JSON comme s'il ne l'était pas, un code par
 * son nom (`named`), listes séparées par des virgules, « avant → après », un
 * objet imbriqué en « champ : valeur » séparés par des points-virgules (ses
 * champs nommés comme les autres).
 */
function valueParts(field: string, value: unknown, context: DetailContext, named = true): DetailPart[] {
  const own = fieldParts(field, value, context);
  if (own) return own;
  if (value === null || value === undefined || value === '') return [{ text: '—' }];
  if (typeof value === 'boolean') return [{ text: value ? 'oui' : 'non' }];
  if (typeof value === 'number') return [{ text: numberText(value) }];
  if (typeof value === 'string') {
    if (looksLikeId(value)) return referenceParts(value, context);
    const date = dateText(value);
    if (date !== null) return [{ text: date }];
    const json = embeddedJson(value);
    if (json !== undefined) return valueParts(field, json, context, named);
    return [{ text: named ? valueLabel(field, value, context.objectType) : value }];
  }
  if (Array.isArray(value)) {
    return value.length ? joined(value.map((v) => valueParts(field, v, context, named)), ', ') : [{ text: '—' }];
  }
  if (isChange(value)) {
    return [
      ...valueParts(field, value.before, context, named),
      { text: ' → ' },
      ...valueParts(field, value.after, context, named),
    ];
  }
  if (isRecord(value)) {
    const entries = Object.entries(value).filter(([key]) => !HIDDEN_FIELDS.has(key));
    if (entries.length === 0) return [{ text: '—' }];
    return joined(
      entries.map(([key, v]) => [{ text: `${fieldLabel(key, context)} : ` }, ...valueParts(key, v, context, named)]),
      ' ; ',
    );
  }
  return [{ text: String(value) }];
}

/**
 * La valeur d'un champ du détail en clair, ses codes par leur nom (`labels.ts`) :
 * « monte_charge » → « Monte-charge » pour le type d'un équipement,
 * « a_realiser » → « À réaliser » pour le statut d'un relevé, « Electrique » →
 * « Électrique » ; un identifiant par le nom de l'enregistrement
 * (`context.references`) ; dans les listes et de part et d'autre d'un
 * « avant → après ».
 */
export function fieldValueText(field: string, value: unknown, context: DetailContext = {}): string {
  return partsText(valueParts(field, value, context));
}

/**
 * Une ligne du détail : son texte, et ses morceaux quand elle a un lien vers
 * la page d'un enregistrement.
 */
function detailLine(label: string, parts: DetailPart[]): DetailLine {
  const merged = joinParts(parts);
  const line: DetailLine = { label, text: partsText(merged) };
  if (merged.some((part) => part.path)) line.parts = merged;
  return line;
}

/** Un `{champ: {before, after}}` : les changements d'un enregistrement, champ par champ. */
function isChangeMap(value: unknown): value is Record<string, { before: unknown; after: unknown }> {
  return isRecord(value) && Object.keys(value).length > 0 && Object.values(value).every(isChange);
}

/**
 * Le détail d'une entrée en lignes lisibles : un `{before, after}` en
 * « avant → après » ; `changes: {champ: {before, after}}` (et tout autre
 * `{champ: {before, after}}`, comme ce qu'un relevé change sur l'équipement)
 * une ligne par champ ; `changes: [champ…]` (un import) les noms des champs ;
 * le reste en « clé : valeur ». Champs et valeurs codées par leur nom
 * français (`context`). Rien pour un détail absent.
 */
export function detailLines(detail: unknown, context: DetailContext = {}): DetailLine[] {
  if (detail === null || detail === undefined) return [];
  if (!isRecord(detail)) return [detailLine('', valueParts('', detail, context))];
  const lines: DetailLine[] = [];
  if (isChange(detail)) lines.push(detailLine('', valueParts('', detail, context)));
  for (const [key, value] of Object.entries(detail)) {
    if (isChange(detail) && (key === 'before' || key === 'after')) continue;
    if ((key === 'changes' && isRecord(value)) || isChangeMap(value)) {
      const prefix = key === 'changes' ? '' : `${fieldLabel(key, context)} · `;
      for (const [field, change] of Object.entries(value as Record<string, unknown>)) {
        if (HIDDEN_FIELDS.has(field)) continue;
        lines.push(detailLine(`${prefix}${fieldLabel(field, context)}`, valueParts(field, change, context)));
      }
      continue;
    }
    if (key === 'changes' && Array.isArray(value)) {
      // Une création par import écrit tous les champs associés : sa liste est vide.
      if (value.length === 0) continue;
      const names = value.map((field) => (typeof field === 'string' ? fieldLabel(field, context) : field));
      lines.push({ label: fieldLabel(key, context), text: valueText(names) });
      continue;
    }
    if (HIDDEN_FIELDS.has(key)) continue;
    // Un contact nomme son client deux fois : par son identifiant (`client`, son nom) et par `CLI-…`.
    if (key === 'client_id' && looksLikeId((detail as Record<string, unknown>).client)) continue;
    lines.push(detailLine(fieldLabel(key, context), valueParts(key, value, context)));
  }
  return lines;
}

/** Une ligne du détail sur une seule ligne de texte : « Emplacement : — → Gaine B ». */
export function lineText(line: DetailLine): string {
  return line.label ? `${line.label} : ${line.text}` : line.text;
}

/** Lignes montrées d'emblée ; au-delà (ou une valeur plus longue), le reste se déplie. */
export const SHORT_LINES = 3;
export const SHORT_CHARS = 120;

/** Ce qui se montre d'emblée et ce qui se déplie (« Tout le détail »). */
export function splitDetail(lines: DetailLine[]): { shown: DetailLine[]; more: DetailLine[] } {
  const fits = (line: DetailLine) => lineText(line).length <= SHORT_CHARS;
  if (lines.length <= SHORT_LINES && lines.every(fits)) return { shown: lines, more: [] };
  const shown: DetailLine[] = [];
  for (const line of lines) {
    if (shown.length >= SHORT_LINES - 1 || !fits(line)) break;
    shown.push(line);
  }
  return { shown, more: lines.slice(shown.length) };
}

/** Le libellé qui déplie le reste du détail. */
export function moreLabel(shown: DetailLine[], more: DetailLine[]): string {
  if (shown.length === 0) return 'Voir le détail';
  return more.length === 1 ? '1 ligne de plus' : `${more.length} lignes de plus`;
}
