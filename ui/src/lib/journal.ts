/**
 * Écran « Journal » (administrateurs) et historique d'une fiche (tout le
 * personnel) : qui a changé quoi et quand, lu dans `GET /app/api/journal`
 * (du plus récent au plus ancien, page après page par `before`). Les
 * paramètres de la requête, l'heure de Paris, l'auteur, l'objet (et le lien
 * vers sa page quand l'application en a une) et le détail enregistré rendus
 * lisibles, et l'appel à l'API.
 */
import { api } from './api';
import type { JournalActor, JournalAnswer, JournalEntryWire } from './generated/contract';

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
  totalInclCents: 'Total TTC (centimes)',
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
};

/**
 * Champs techniques que le journal garde (identifiants internes, renvois
 * entre enregistrements) mais que l'écran ne montre pas : l'objet de
 * l'entrée les nomme déjà.
 */
export const HIDDEN_FIELDS = new Set(['mail', 'callCenterId', 'external_opportunity_id', 'sheet_token']);

const fieldLabel = (key: string): string => FIELD_LABELS[key] ?? key;

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
 * Le détail d'une entrée en lignes lisibles : un `{before, after}` en
 * « avant → après » ; `changes: {champ: {before, after}}` une ligne par
 * champ ; le reste en « clé : valeur ». Rien pour un détail absent.
 */
export function detailLines(detail: unknown): DetailLine[] {
  if (detail === null || detail === undefined) return [];
  if (!isRecord(detail)) return [{ label: '', text: valueText(detail) }];
  const lines: DetailLine[] = [];
  if (isChange(detail)) lines.push({ label: '', text: changeText(detail) });
  for (const [key, value] of Object.entries(detail)) {
    if (isChange(detail) && (key === 'before' || key === 'after')) continue;
    if (key === 'changes' && isRecord(value)) {
      for (const [field, change] of Object.entries(value)) {
        lines.push({ label: fieldLabel(field), text: valueText(change) });
      }
      continue;
    }
    if (HIDDEN_FIELDS.has(key)) continue;
    lines.push({ label: fieldLabel(key), text: valueText(value) });
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
