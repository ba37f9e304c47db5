/**
 * Écran « Journal » (administrateurs) et historique d'une fiche (tout le
 * personnel) : qui a changé quoi et quand, lu dans `GET /app/api/journal`
 * (du plus récent au plus ancien, page après page par `before`). Les
 * paramètres de la requête, l'heure de Paris, l'auteur, l'objet (et le lien
 * vers sa page quand l'application en a une) et le détail enregistré rendus
 * lisibles, et l'appel à l'API.
 */
import { FIELD_LABELS as IDENTITY_FIELD_LABELS } from './agency';
import { api } from './api';
import { formatEuros } from './billing';
import { formatDay } from './format';
import type { JournalActor, JournalAnswer, JournalEntryWire } from './generated/contract';
import { valueLabel } from './labels';
import { PAYMENT_METHODS } from './generated/contract';

// Les réponses viennent du serveur : `generated/contract.ts` est généré depuis le code Rust.
export type { JournalActor, JournalAnswer, JournalEntryWire, ObjectTypeChoice } from './generated/contract';

export const JOURNAL_PATH = '/app/api/journal';

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

// -- Objet ------------------------------------------------------------------------

/** Les pages de l'application qui s'ouvrent par l'identifiant que le journal donne. */
const PAGES_BY_ID: Record<string, string> = {
  equipment: '/equipements',
  call: '/appels',
  survey: '/releves',
  quote: '/devis',
  invoice: '/factures',
};

/**
 * La page de l'objet d'une entrée, quand l'application en a une. Un client
 * s'ouvre par son identifiant `CLI-…` (le journal le nomme par son
 * identifiant interne) : celui que son détail enregistre (`client_id`).
 */
export function objectLink(entry: Pick<JournalEntryWire, 'objectType' | 'objectId' | 'detail'>): string | null {
  if (entry.objectType === 'client') {
    const detail = entry.detail;
    const ref = detail && typeof detail === 'object' ? (detail as Record<string, unknown>).client_id : null;
    return typeof ref === 'string' && ref.trim() ? `/clients/${encodeURIComponent(ref.trim())}` : null;
  }
  const base = PAGES_BY_ID[entry.objectType];
  return base && entry.objectId ? `${base}/${encodeURIComponent(entry.objectId)}` : null;
}

/** L'objet en clair : « Équipement ASC-1 », ou son seul type quand le journal ne le nomme pas. */
export function objectText(entry: Pick<JournalEntryWire, 'objectTypeLabel' | 'objectLabel'>): string {
  const label = entry.objectLabel?.trim();
  return label ? `${entry.objectTypeLabel} ${label}` : entry.objectTypeLabel;
}

// -- Détail -----------------------------------------------------------------------

/** Une ligne du détail : le champ (vide pour un simple « avant → après ») et sa valeur. */
export interface DetailLine {
  label: string;
  text: string;
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
};

/** Champs du détail qui sont des jours `AAAA-MM-JJ`, montrés à la française (`12/12/2026`). */
export const DAY_FIELDS = new Set(['validUntil', 'validUntilBefore']);

/**
 * Champs techniques que le journal garde (identifiants internes, renvois
 * entre enregistrements) mais que l'écran ne montre pas : l'objet de
 * l'entrée les nomme déjà.
 */
export const HIDDEN_FIELDS = new Set(['mail', 'callCenterId', 'external_opportunity_id', 'sheet_token', 'fileId']);

/**
 * Ce qu'une fiche sait de plus pour lire le détail de ses entrées : le genre
 * de l'objet (les statuts d'un appel ne sont pas ceux d'un devis) et des noms
 * de champs propres à la fiche (le catalogue technique d'un équipement :
 * `charge_utile` → « Charge utile »).
 */
export interface DetailContext {
  objectType?: string;
  fieldLabels?: Readonly<Record<string, string>>;
}

/** Le nom français d'un champ : celui de la fiche, sinon celui du type d'objet, sinon celui du journal, sinon la clé. */
function fieldLabel(key: string, context: DetailContext = {}): string {
  const own = context.fieldLabels;
  if (own && Object.hasOwn(own, key)) return own[key] as string;
  const ofType = context.objectType && Object.hasOwn(OBJECT_FIELD_LABELS, context.objectType) ? OBJECT_FIELD_LABELS[context.objectType] : undefined;
  if (ofType && Object.hasOwn(ofType, key)) return ofType[key] as string;
  return Object.hasOwn(FIELD_LABELS, key) ? (FIELD_LABELS[key] as string) : key;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Un `{before, after}` (d'autres clés éventuelles à côté). */
function isChange(value: unknown): value is { before: unknown; after: unknown } {
  return isRecord(value) && 'before' in value && 'after' in value;
}

/** Une valeur du détail en clair : vide → « — », oui/non, listes séparées par des virgules. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'oui' : 'non';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.length ? value.map(valueText).join(', ') : '—';
  if (isChange(value)) return changeText(value);
  return JSON.stringify(value);
}

function changeText(change: { before: unknown; after: unknown }): string {
  return `${valueText(change.before)} → ${valueText(change.after)}`;
}

/**
 * La valeur d'un champ du détail en clair, ses codes par leur nom (`labels.ts`) :
 * « monte_charge » → « Monte-charge » pour le type d'un équipement,
 * « a_realiser » → « À réaliser » pour le statut d'un relevé, « Electrique » →
 * « Électrique » ; dans les listes et de part et d'autre d'un « avant → après ».
 */
export function fieldValueText(field: string, value: unknown, context: DetailContext = {}): string {
  const named = (v: unknown): unknown => {
    if (typeof v === 'string') return valueLabel(field, v, context.objectType);
    if (Array.isArray(v)) return v.map(named);
    if (isChange(v)) return { ...v, before: named(v.before), after: named(v.after) };
    return v;
  };
  return valueText(named(value));
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
  if (!isRecord(detail)) return [{ label: '', text: fieldValueText('', detail, context) }];
  const lines: DetailLine[] = [];
  if (isChange(detail)) lines.push({ label: '', text: fieldValueText('', detail, context) });
  for (const [key, value] of Object.entries(detail)) {
    if (isChange(detail) && (key === 'before' || key === 'after')) continue;
    if ((key === 'changes' && isRecord(value)) || isChangeMap(value)) {
      const prefix = key === 'changes' ? '' : `${fieldLabel(key, context)} · `;
      for (const [field, change] of Object.entries(value as Record<string, unknown>)) {
        lines.push({ label: `${prefix}${fieldLabel(field, context)}`, text: fieldValueText(field, change, context) });
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
    const text =
      key.endsWith('Cents') && typeof value === 'number'
        ? formatEuros(value / 100)
        : DAY_FIELDS.has(key) && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
          ? formatDay(value)
        : key === 'method' && typeof value === 'string'
          ? (PAYMENT_METHODS.find((m) => m.code === value)?.label ?? value)
          : fieldValueText(key, value, context);
    lines.push({ label: fieldLabel(key, context), text });
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
