/**
 * Écran Équipements : types des réponses de `/app/api/equipment…`, validation
 * côté client (mêmes règles que le serveur : `POST /equipment`,
 * `PATCH /equipment/{id}/identity` et `PATCH /equipment/{id}`), mise en forme
 * des valeurs et des durées, les filtres du parc dans l'adresse (dont les
 * tranches de connaissance du tableau de bord), et les appels à l'API du parc.
 */
import { api } from './api';
import { formatDay } from './format';
import { choiceLabel, CONTRACTS, EQUIPMENT_TYPES } from './labels';
import type {
  BuildingView,
  CallView,
  ClientRef,
  ClientsAnswer,
  ComponentView,
  CreatedEquipment,
  EquipmentChoice,
  EquipmentFieldView,
  EquipmentPage,
  EquipmentQuoteView,
  ExternalBuilding,
  IdentityView,
  JsonValue,
  KnowledgeView,
  Logbook,
  LogbookEntry,
  MoveBody,
  NewEquipmentBody,
  ParkEntry,
  ParkPage,
  RepairQuote,
  SurveyView,
  VisitView,
} from './generated/contract';

// Les réponses viennent du serveur : `generated/contract.ts` est généré depuis le code Rust.
export type {
  ClientRef,
  ClientsAnswer,
  CreatedEquipment,
  EquipmentPage,
  JsonValue,
  Listed,
  Logbook,
  LogbookEntry,
  MissingField,
  MoveBody,
  NewEquipmentBody,
  ParkEntry,
  ParkPage,
  RepairQuote,
} from './generated/contract';
export type Building = ExternalBuilding;
export type Identity = IdentityView;
export type TechnicalField = EquipmentFieldView;
export type Component = ComponentView;
export type Knowledge = KnowledgeView;
export type VisitItem = VisitView;
export type CallItem = CallView;
export type SurveyItem = SurveyView;
export type QuoteItem = EquipmentQuoteView;

/** Tranches du taux de connaissance (filtre `knowledge` du parc, `knowledgeBand` des réponses). */
export type KnowledgeBand = 'faible' | 'moyen' | 'bon';

/** Types de valeur d'une donnée technique (`valueType` des réponses) que la saisie connaît. */
export type ValueType = 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'multi';
/** Une valeur de donnée telle que la saisie l'envoie. */
export type DatumValue = string | number | boolean | string[] | null;

// Types d'équipement et contrats : leurs codes et leurs noms sont dans `labels.ts`, avec les autres codes lus.
export { CONTRACTS, EQUIPMENT_TYPES } from './labels';

export const BANDS: { code: KnowledgeBand; label: string }[] = [
  { code: 'faible', label: 'Faible (moins de 40 %)' },
  { code: 'moyen', label: 'Moyen (40 à 70 %)' },
  { code: 'bon', label: 'Bon (70 % et plus)' },
];

export function contractLabel(code: string | null): string {
  if (!code) return 'Non renseigné';
  return CONTRACTS.find((c) => c.code === code)?.label ?? code;
}

const BAND_NAMES: Record<string, string> = { faible: 'Faible', moyen: 'Moyen', bon: 'Bon' };

/** Nom court d'une tranche (`knowledgeBand`, `knowledge.band`). */
export function bandLabel(band: string): string {
  return BAND_NAMES[band] ?? band;
}

/**
 * Filtre « État » du parc (`archived` de `GET /equipment`) : `active`, le parc
 * (par défaut, sans les équipements archivés), `archived` ou `all`.
 */
export type ParkState = 'active' | 'archived' | 'all';

export const PARK_STATES: { code: ParkState; label: string }[] = [
  { code: 'active', label: 'Au parc' },
  { code: 'archived', label: 'Archivés' },
  { code: 'all', label: 'Tous' },
];

export interface ParkFilters {
  q: string;
  type: string;
  client: string;
  contract: string;
  knowledge: string;
  archived: ParkState;
}

export const EMPTY_FILTERS: ParkFilters = { q: '', type: '', client: '', contract: '', knowledge: '', archived: 'active' };

/** Paramètres de `GET /app/api/equipment` : les filtres vides sont omis, l'état toujours envoyé. */
export function parkQuery(filters: ParkFilters, page: number, limit = 50): string {
  const params = new URLSearchParams();
  const q = filters.q.trim();
  if (q) params.set('q', q);
  if (filters.type) params.set('type', filters.type);
  if (filters.client) params.set('client', filters.client);
  if (filters.contract) params.set('contract', filters.contract);
  if (filters.knowledge) params.set('knowledge', filters.knowledge);
  params.set('archived', filters.archived);
  params.set('page', String(page));
  params.set('limit', String(limit));
  return params.toString();
}

/**
 * Les tranches du graphique « Équipements par taux de connaissance » du
 * tableau de bord (`knowledge.bands`), que le filtre `knowledge` du parc prend
 * aussi : `label` pour l'étiquette du filtre, `phrase` pour une phrase.
 */
export const KNOWLEDGE_RANGES = [
  { code: '0_24', label: 'moins de 25 %', phrase: 'inférieur à 25 %' },
  { code: '25_49', label: '25 à 49 %', phrase: 'de 25 à 49 %' },
  { code: '50_74', label: '50 à 74 %', phrase: 'de 50 à 74 %' },
  { code: '75_99', label: '75 à 99 %', phrase: 'de 75 à 99 %' },
  { code: '100', label: '100 %', phrase: 'de 100 %' },
] as const;

/** « de 25 à 49 % » pour une tranche du tableau de bord ; `null` pour un autre code. */
export function knowledgeBandWords(code: string): string | null {
  return KNOWLEDGE_RANGES.find((r) => r.code === code)?.phrase ?? null;
}

/**
 * L'étiquette du filtre de connaissance quand le menu ne le montre pas (une
 * tranche du tableau de bord) : « Taux de connaissance : 25 à 49 % » ; `null`
 * pour aucun filtre ou une tranche du menu (`BANDS`).
 */
export function knowledgeChip(code: string): string | null {
  const range = KNOWLEDGE_RANGES.find((r) => r.code === code);
  return range ? `Taux de connaissance : ${range.label}` : null;
}

/** Un code du filtre `knowledge` : une tranche du menu ou du tableau de bord. */
function knowledgeCode(code: string): string {
  return BANDS.some((b) => b.code === code) || KNOWLEDGE_RANGES.some((r) => r.code === code) ? code : '';
}

/**
 * Lit les filtres du parc dans l'adresse (`/equipements?knowledge=25_49`, le
 * lien d'une barre du tableau de bord) : un code inconnu est ignoré ; le
 * client n'y est pas (il se choisit par son nom).
 */
export function readParkFilters(search: string): { filters: ParkFilters; page: number } {
  const params = new URLSearchParams(search);
  const get = (key: string): string => params.get(key)?.trim() ?? '';
  const type = get('type');
  const contract = get('contract');
  const archived = get('archived');
  return {
    filters: {
      ...EMPTY_FILTERS,
      q: get('q'),
      type: EQUIPMENT_TYPES.some((t) => t.code === type) ? type : '',
      contract: contract === 'aucun' || CONTRACTS.some((c) => c.code === contract) ? contract : '',
      knowledge: knowledgeCode(get('knowledge')),
      archived: PARK_STATES.find((s) => s.code === archived)?.code ?? 'active',
    },
    page: Math.max(1, Math.floor(Number(get('page'))) || 1),
  };
}

/** L'adresse du parc avec ses filtres : `/equipements?knowledge=25_49&page=2` (vides, « Au parc » et page 1 omis). */
export function parkAddress(filters: ParkFilters, page: number): string {
  const params = new URLSearchParams();
  const q = filters.q.trim();
  if (q) params.set('q', q);
  if (filters.type) params.set('type', filters.type);
  if (filters.contract) params.set('contract', filters.contract);
  if (filters.knowledge) params.set('knowledge', filters.knowledge);
  if (filters.archived !== 'active') params.set('archived', filters.archived);
  if (page > 1) params.set('page', String(page));
  const text = params.toString();
  return text ? `/equipements?${text}` : '/equipements';
}

/** Une ligne du parc archivée (badge « Archivé »). */
export function isArchivedEntry(entry: ParkEntry): boolean {
  return entry.archivedAt !== null;
}

/** Le bandeau d'une fiche archivée : « Équipement archivé le 28/11/2026 : il ne fait plus partie du parc. » */
export function archivedNote(archivedAt: string): string {
  return `Équipement archivé le ${formatDay(archivedAt)} : il ne fait plus partie du parc.`;
}

export const MAX_SEARCH_CHARS = 100;

export function validateSearch(q: string): string | undefined {
  if (q.trim().length > MAX_SEARCH_CHARS) {
    return `La recherche ne doit pas dépasser ${MAX_SEARCH_CHARS} caractères.`;
  }
  return undefined;
}

/** « Résidence Les Tilleuls, 3 rue Émile Zola, 92300 Levallois-Perret ». */
export function buildingLine(building: Building | null): string {
  if (!building) return 'Aucun immeuble';
  const town = [building.postalCode, building.city].filter(Boolean).join(' ');
  return [building.name, building.address, building.addressComplement, town].filter(Boolean).join(', ');
}

/**
 * L'équipement d'une fiche sous la forme d'un choix des recherches de
 * « Nouvel appel » et « Nouveau devis » (numéro, immeuble, adresse).
 */
export function equipmentChoice(page: Pick<EquipmentPage, 'id' | 'identity' | 'building'>): EquipmentChoice {
  const building = page.building;
  const town = [building?.postalCode, building?.city].filter(Boolean).join(' ');
  return {
    id: page.id,
    number: page.identity.number,
    building: building?.name ?? null,
    address: [building?.address, town].filter(Boolean).join(', ') || null,
  };
}

// -- Identité -------------------------------------------------------------------

export type IdentityKey = Exclude<keyof Identity, 'id' | 'link' | 'url'>;

export const IDENTITY_FIELDS: { key: IdentityKey; label: string; max: number; choices?: string[] }[] = [
  { key: 'number', label: 'Numéro', max: 60 },
  { key: 'serialNumber', label: 'Numéro de série', max: 200 },
  { key: 'type', label: 'Type', max: 200, choices: EQUIPMENT_TYPES.map((t) => t.code) },
  { key: 'subtype', label: 'Sous-type', max: 200 },
  { key: 'location', label: 'Emplacement', max: 200 },
  { key: 'maintenanceContract', label: "Contrat d'entretien", max: 200, choices: CONTRACTS.map((c) => c.code) },
  { key: 'contractNumber', label: 'Numéro de contrat', max: 200 },
  { key: 'externalId', label: 'Identifiant chez le partenaire', max: 200 },
];

export type IdentityForm = Record<IdentityKey, string>;
export type IdentityErrors = Partial<Record<IdentityKey, string>>;

export function identityForm(identity: Identity): IdentityForm {
  const form = {} as IdentityForm;
  for (const field of IDENTITY_FIELDS) form[field.key] = identity[field.key] ?? '';
  return form;
}

// Caractères de contrôle refusés par le serveur (C0, DEL et C1).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Mêmes règles que le serveur : longueur (après rognage), pas de caractère de contrôle, code connu. */
export function validateIdentity(form: IdentityForm): IdentityErrors {
  const errors: IdentityErrors = {};
  for (const field of IDENTITY_FIELDS) {
    const value = form[field.key].trim();
    if (value === '') continue;
    if ([...value].length > field.max) {
      errors[field.key] = `Le champ « ${field.label} » ne doit pas dépasser ${field.max} caractères.`;
    } else if (CONTROL.test(value)) {
      errors[field.key] = `Le champ « ${field.label} » ne doit pas contenir de caractère de contrôle.`;
    } else if (field.choices && !field.choices.includes(value)) {
      errors[field.key] = `La valeur « ${value} » du champ « ${field.label} » n'est pas autorisée.`;
    }
  }
  return errors;
}

/** Le corps du `PATCH` : les seuls champs changés ; un champ vidé est envoyé `""` (effacé). */
export function identityPatch(identity: Identity, form: IdentityForm): Partial<Record<IdentityKey, string>> {
  const patch: Partial<Record<IdentityKey, string>> = {};
  for (const field of IDENTITY_FIELDS) {
    const before = identity[field.key] ?? '';
    const after = form[field.key].trim();
    if (after !== before) patch[field.key] = after;
  }
  return patch;
}

// -- Nouvel équipement ---------------------------------------------------------------

/** Plus long intervalle entre deux visites, et pour un ascenseur (`services::planning`). */
export const MAX_INTERVAL_DAYS = 365;
export const LIFT_MAX_INTERVAL_DAYS = 42;

/** Ce qui est saisi : l'identité (textes et codes), le client et l'immeuble choisis, l'intervalle. */
export interface NewEquipmentForm {
  number: string;
  type: string;
  subtype: string;
  location: string;
  maintenanceContract: string;
  contractNumber: string;
  serialNumber: string;
  client: ClientRef | null;
  building: BuildingView | null;
  /** Jours entre deux visites (administrateurs seulement) ; vide : l'intervalle par défaut. */
  visitIntervalDays: string;
}

export type NewEquipmentField = keyof NewEquipmentForm;
export type NewEquipmentErrors = Partial<Record<NewEquipmentField, string>>;

/** Dans l'ordre du formulaire (la première erreur reçoit le focus). */
export const NEW_EQUIPMENT_FIELD_ORDER: NewEquipmentField[] = [
  'number',
  'type',
  'subtype',
  'location',
  'maintenanceContract',
  'contractNumber',
  'serialNumber',
  'client',
  'building',
  'visitIntervalDays',
];

export const NEW_EQUIPMENT_FIELD_LABELS: Record<NewEquipmentField, string> = {
  ...(Object.fromEntries(IDENTITY_FIELDS.map((f) => [f.key, f.label])) as Record<IdentityKey, string>),
  client: 'Client',
  building: 'Immeuble',
  visitIntervalDays: 'Intervalle de visites (jours)',
};

export function emptyEquipmentForm(): NewEquipmentForm {
  return {
    number: '',
    type: '',
    subtype: '',
    location: '',
    maintenanceContract: '',
    contractNumber: '',
    serialNumber: '',
    client: null,
    building: null,
    visitIntervalDays: '',
  };
}

/**
 * L'intervalle saisi, la règle du serveur (`planning::set_interval_in`) :
 * un nombre entier de jours de 1 à 365, 42 au plus pour un ascenseur.
 * `undefined` s'il est valable (ou vide), sinon la raison du serveur.
 */
export function intervalReason(raw: string, type: string): string | undefined {
  const text = raw.trim();
  if (text === '') return undefined;
  const days = /^[0-9]+$/u.test(text) ? Number(text) : NaN;
  if (!(days >= 1 && days <= MAX_INTERVAL_DAYS)) {
    return `L'intervalle entre deux visites doit être un nombre de jours entre 1 et ${MAX_INTERVAL_DAYS}.`;
  }
  if (type === 'ascenseur' && days > LIFT_MAX_INTERVAL_DAYS) {
    return `Un ascenseur doit être visité au moins toutes les six semaines : ${LIFT_MAX_INTERVAL_DAYS} jours au plus.`;
  }
  return undefined;
}

/**
 * Les refus du serveur (`POST /equipment`) : le numéro obligatoire, chaque
 * champ d'identité comme une correction le vérifie ; l'intervalle pour un
 * administrateur (`admin` faux : le champ n'est ni montré ni vérifié).
 */
export function checkNewEquipment(form: NewEquipmentForm, admin: boolean): NewEquipmentErrors {
  const errors: NewEquipmentErrors = {
    ...validateIdentity({
      number: form.number,
      serialNumber: form.serialNumber,
      type: form.type,
      subtype: form.subtype,
      location: form.location,
      maintenanceContract: form.maintenanceContract,
      contractNumber: form.contractNumber,
      externalId: '',
    }),
  };
  if (!errors.number && form.number.trim() === '') {
    errors.number = `Le champ « ${NEW_EQUIPMENT_FIELD_LABELS.number} » est obligatoire.`;
  }
  if (admin) {
    const reason = intervalReason(form.visitIntervalDays, form.type.trim());
    if (reason) errors.visitIntervalDays = reason;
  }
  return errors;
}

/** Le corps de `POST /equipment` : les textes rognés, les vides omis ; l'intervalle d'un administrateur s'il est saisi. */
export function newEquipmentBody(form: NewEquipmentForm, admin: boolean): NewEquipmentBody {
  const body: NewEquipmentBody = { number: form.number.trim() };
  for (const key of ['serialNumber', 'type', 'subtype', 'location', 'maintenanceContract', 'contractNumber'] as const) {
    const value = form[key].trim();
    if (value !== '') body[key] = value;
  }
  if (form.building) body.buildingId = form.building.id;
  if (form.client) body.clientId = form.client.id;
  const days = form.visitIntervalDays.trim();
  if (admin && days !== '') body.visitIntervalDays = Number(days);
  return body;
}

const EQUIPMENT_WIRE_FIELDS: Record<string, NewEquipmentField> = {
  number: 'number',
  serialNumber: 'serialNumber',
  type: 'type',
  subtype: 'subtype',
  location: 'location',
  maintenanceContract: 'maintenanceContract',
  contractNumber: 'contractNumber',
  buildingId: 'building',
  clientId: 'client',
  visitIntervalDays: 'visitIntervalDays',
};

/**
 * Le champ qu'un refus de `POST /equipment` nomme : le numéro déjà pris,
 * l'intervalle (hors limites, ou réservé aux administrateurs), un client
 * archivé, ou `« champ »` par son nom d'API ; sinon `null`.
 */
export function equipmentFieldNamedBy(message: string): NewEquipmentField | null {
  if (/^Le numéro « /u.test(message)) return 'number';
  if (/^L'intervalle entre deux visites|^Un ascenseur doit être visité|intervalle d'entretien/u.test(message)) {
    return 'visitIntervalDays';
  }
  if (/^Le client « .+ » est archivé/u.test(message)) return 'client';
  const named = /champ « ([^»]+?) »/u.exec(message);
  return named ? (EQUIPMENT_WIRE_FIELDS[named[1] ?? ''] ?? null) : null;
}

/** « Changer de client » : un client choisi dans la liste, autre que l'actuel. */
export function checkMove(current: ClientRef | null, chosen: ClientRef | null): string | undefined {
  if (!chosen) return 'Choisissez le nouveau client dans la liste.';
  if (current && current.id === chosen.id) return `L'équipement est déjà rattaché au client « ${chosen.name} ».`;
  return undefined;
}

// -- Données techniques -----------------------------------------------------------

export const MAX_TEXT_CHARS = 500;
export const MAX_INTEGER = 1_000_000;

/** La saisie d'une donnée telle que le formulaire la garde (texte brut). */
export function inputOf(field: TechnicalField): string {
  const value = field.value;
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'number') return String(value).replace('.', ',');
  return String(value);
}

export type Parsed = { value: DatumValue } | { error: string };

/**
 * Une saisie vers la valeur envoyée, avec les règles du serveur : vide → `null`
 * (efface) ; nombre positif ou nul (virgule acceptée) ; entier de 0 à 1 000 000 ;
 * texte de 500 caractères au plus ; choix parmi les valeurs autorisées ; oui/non.
 */
export function parseInput(field: Pick<TechnicalField, 'label' | 'valueType' | 'choices'>, raw: string): Parsed {
  const text = raw.trim();
  const name = field.label;
  if (text === '') return { value: null };
  switch (field.valueType) {
    case 'number': {
      const number = Number(text.replace(/\s/g, '').replace(',', '.'));
      if (!Number.isFinite(number) || number < 0) {
        return { error: `Le champ « ${name} » doit être un nombre positif ou nul.` };
      }
      return { value: number };
    }
    case 'integer': {
      const number = Number(text.replace(/\s/g, '').replace(',', '.'));
      if (!Number.isInteger(number) || number < 0 || number > MAX_INTEGER) {
        return { error: `Le champ « ${name} » doit être un nombre entier compris entre 0 et ${MAX_INTEGER}.` };
      }
      return { value: number };
    }
    case 'boolean':
      if (text === 'true') return { value: true };
      if (text === 'false') return { value: false };
      return { error: `Le champ « ${name} » doit être vrai ou faux (true ou false).` };
    case 'choice':
      if (!field.choices.includes(text)) {
        return {
          error: `La valeur « ${choiceLabel(text)} » du champ « ${name} » n'est pas autorisée : valeurs possibles : ${field.choices
            .map((c) => `« ${choiceLabel(c)} »`)
            .join(', ')}.`,
        };
      }
      return { value: text };
    case 'multi': {
      const items = [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))];
      const wrong = items.find((item) => !field.choices.includes(item));
      if (wrong !== undefined) {
        return { error: `La valeur « ${wrong} » du champ « ${name} » n'est pas autorisée.` };
      }
      return { value: items.length ? items : null };
    }
    default:
      if ([...text].length > MAX_TEXT_CHARS) {
        return { error: `Le champ « ${name} » ne doit pas dépasser ${MAX_TEXT_CHARS} caractères.` };
      }
      return { value: text };
  }
}

function sameValue(a: JsonValue, b: JsonValue): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * Le corps du `PATCH …/technical` pour les saisies d'un composant : les seules
 * données changées, par code ; ou les erreurs par code (rien n'est envoyé).
 */
export function technicalPatch(
  fields: TechnicalField[],
  inputs: Record<string, string>,
): { body: Record<string, DatumValue>; errors: Record<string, string> } {
  const body: Record<string, DatumValue> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const raw = inputs[field.code] ?? '';
    const parsed = parseInput(field, raw);
    if ('error' in parsed) errors[field.code] = parsed.error;
    else if (!sameValue(parsed.value, field.value)) body[field.code] = parsed.value;
  }
  return { body, errors };
}

/** Les noms des données du catalogue technique d'une fiche, par code (`charge_utile` → « Charge utile »). */
export function technicalLabels(components: Pick<Component, 'fields'>[]): Record<string, string> {
  return Object.fromEntries(components.flatMap((c) => c.fields.map((f) => [f.code, f.label])));
}

const NUMBER = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 3 });
// Sans unité, un nombre est une année ou un compte : `2003`, pas `2 003`.
const PLAIN_NUMBER = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 3, useGrouping: false });

/**
 * `1 270 mm`, `1,6 m/s`, `2003` (sans unité, sans séparateur), `oui`, un choix
 * tel qu'il se lit (`Electrique` → `Électrique`) ; jamais relevée : `—`.
 */
export function formatValue(field: Pick<TechnicalField, 'value' | 'unit'>): string {
  const value = field.value;
  if (value === null || value === undefined) return '—';
  let text: string;
  if (typeof value === 'boolean') text = value ? 'oui' : 'non';
  else if (typeof value === 'number') text = (field.unit ? NUMBER : PLAIN_NUMBER).format(value);
  else if (Array.isArray(value)) text = value.map((item) => choiceLabel(String(item))).join(', ');
  else text = choiceLabel(String(value));
  return field.unit && typeof value === 'number' ? `${text} ${field.unit}` : text;
}

/** Pourcentage à une décimale : `47,3 %`. */
export function formatRate(rate: number): string {
  return `${new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 }).format(rate)} %`;
}

/** Durée en minutes → `2 j 3 h 05 min`, `9 h`, `45 min`, `0 min`. */
export function formatMinutes(minutes: number): string {
  const total = Math.max(0, Math.round(minutes));
  const days = Math.floor(total / 1440);
  const hours = Math.floor((total % 1440) / 60);
  const rest = total % 60;
  const parts: string[] = [];
  if (days) parts.push(`${days} j`);
  if (hours) parts.push(`${hours} h`);
  if (rest || parts.length === 0) parts.push(`${parts.length ? String(rest).padStart(2, '0') : rest} min`);
  return parts.join(' ');
}

/** Les entrées du carnet regroupées par année, dans l'ordre chronologique. */
export function byYear(entries: LogbookEntry[]): { year: string; entries: LogbookEntry[] }[] {
  const groups: { year: string; entries: LogbookEntry[] }[] = [];
  for (const entry of [...entries].sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id))) {
    const year = entry.at.slice(0, 4);
    const last = groups[groups.length - 1];
    if (last && last.year === year) last.entries.push(entry);
    else groups.push({ year, entries: [entry] });
  }
  return groups;
}

// -- Appels à l'API -------------------------------------------------------------------

const equipmentPath = (id: string) => `/app/api/equipment/${encodeURIComponent(id)}`;

/** `GET /equipment` : une page du parc, avec les filtres de `parkQuery`. */
export function listEquipment(filters: ParkFilters, page: number): Promise<ParkPage> {
  return api.get<ParkPage>(`/app/api/equipment?${parkQuery(filters, page)}`);
}

/** `GET /equipment/clients?q=` : les clients proposés au filtre « Client ». */
export function searchEquipmentClients(q: string): Promise<ClientsAnswer> {
  return api.get<ClientsAnswer>(`/app/api/equipment/clients?q=${encodeURIComponent(q)}`);
}

/** `GET /equipment/{id}` : la fiche de l'équipement. */
export function getEquipment(id: string): Promise<EquipmentPage> {
  return api.get<EquipmentPage>(equipmentPath(id));
}

/** `GET /equipment/{id}/logbook` : le carnet d'entretien. */
export function getLogbook(id: string): Promise<Logbook> {
  return api.get<Logbook>(`${equipmentPath(id)}/logbook`);
}

/** `PATCH /equipment/{id}/identity` : les champs d'identité changés ; la fiche relue. */
export function updateIdentity(id: string, patch: ReturnType<typeof identityPatch>): Promise<EquipmentPage> {
  return api.patch<EquipmentPage>(`${equipmentPath(id)}/identity`, patch);
}

/** `PATCH /equipment/{id}/technical` : les données techniques changées ; la fiche relue. */
export function updateTechnical(id: string, body: Record<string, DatumValue>): Promise<EquipmentPage> {
  return api.patch<EquipmentPage>(`${equipmentPath(id)}/technical`, body);
}

/** `POST /equipment/{id}/repair-quote` : un devis de réparation pour les pannes répétées. */
export function createRepairQuote(id: string): Promise<RepairQuote> {
  return api.post<RepairQuote>(`${equipmentPath(id)}/repair-quote`, {});
}

/** `POST /equipment` : un nouvel équipement ; son identifiant (sa fiche est `/equipements/<id>`). */
export function createEquipment(body: NewEquipmentBody): Promise<CreatedEquipment> {
  return api.post<CreatedEquipment>('/app/api/equipment', body);
}

/** `POST /equipment/{id}/client` : l'équipement rattaché à un autre client ; la fiche relue. */
export function moveEquipment(id: string, clientId: string): Promise<EquipmentPage> {
  const body: MoveBody = { clientId };
  return api.post<EquipmentPage>(`${equipmentPath(id)}/client`, body);
}

/**
 * `POST /equipment/{id}/archive` : l'équipement sort du parc (administrateurs) ;
 * ses visites prévues non commencées sont annulées ; la fiche relue.
 */
export function archiveEquipment(id: string): Promise<EquipmentPage> {
  return api.post<EquipmentPage>(`${equipmentPath(id)}/archive`, {});
}

/** `POST /equipment/{id}/restore` : l'équipement archivé remis dans le parc (administrateurs) ; la fiche relue. */
export function restoreEquipment(id: string): Promise<EquipmentPage> {
  return api.post<EquipmentPage>(`${equipmentPath(id)}/restore`, {});
}
