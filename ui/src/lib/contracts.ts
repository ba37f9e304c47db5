/**
 * Les contrats d'entretien à l'écran (`/contrats`) : leur formulaire (ce qui
 * est saisi, contrôlé avant l'envoi, puis le corps de `POST`/`PUT
 * /app/api/contracts`), les libellés des délais et des périodes, la fenêtre
 * d'une facturation (trimestre, mois, année) et l'émission des brouillons
 * d'une facturation par lots, avec sa progression. Les appels à l'API des
 * écrans des contrats sont ici ; leurs types viennent du contrat généré.
 */
import { api } from './api';
import { parseDecimal } from './billing';
import { minutesLabel } from './calls';
import type {
  BillingFrequency,
  BillingPreview,
  BillingState,
  BillingTiming,
  ContractListEntry,
  ContractType,
  ContractView,
  DraftsView,
  IndexValueView,
  IssueBatchView,
  PriceBasis,
  RefusedView,
  ResponseReportOut,
} from './generated/contract';

export {
  BILLING_FREQUENCIES,
  BILLING_STATES,
  BILLING_TIMINGS,
  CONTRACT_ACTIONS,
  CONTRACT_STATUSES,
  CONTRACT_TYPES,
  MAX_VISIT_INTERVAL_DAYS,
  MIN_DURATION_MONTHS,
  PRICE_BASES,
} from './generated/contract';
export type {
  BillingEntryView,
  BillingPreview,
  BillingState,
  ContractListEntry,
  ContractView,
  IndexValueView,
  IssueBatchView,
  RefusedView,
  ResponseReportOut,
} from './generated/contract';

// ---------------------------------------------------------------------------
// Le formulaire
// ---------------------------------------------------------------------------

/** Un appareil choisi pour le contrat (ce que la liste du formulaire montre). */
export interface ContractLiftChoice {
  id: string;
  number: string | null;
  building: string | null;
  address: string | null;
}

/** Le formulaire tel que saisi : des textes, lus à l'envoi. */
export interface ContractDraft {
  client: { id: string; name: string } | null;
  lifts: ContractLiftChoice[];
  type: ContractType;
  startOn: string;
  durationMonths: string;
  tacitRenewal: boolean;
  renewalMonths: string;
  noticeMonths: string;
  priceBasis: PriceBasis;
  annualPrice: string;
  billingFrequency: BillingFrequency;
  billingTiming: BillingTiming;
  vatRate: string;
  priceIndex: string;
  baseIndexValue: string;
  baseIndexMonth: string;
  visitIntervalDays: string;
  arrivalMinutes: string;
  arrivalOutOfHoursMinutes: string;
  trappedPersonMinutes: string;
  returnToServiceMinutes: string;
  weekendCoverage: boolean;
  onCallCoverage: boolean;
  penaltyPerLateHour: string;
  notes: string;
}

/** Le corps de `POST /contracts` et `PUT /contracts/{id}` (`ContractBody`). */
export interface ContractBody {
  clientId: string;
  liftIds: string[];
  type: ContractType;
  startOn: string;
  durationMonths: number;
  tacitRenewal: boolean;
  renewalMonths: number;
  noticeMonths: number;
  priceBasis: PriceBasis;
  annualPrice: number;
  billingFrequency: BillingFrequency;
  billingTiming: BillingTiming;
  vatRate: number;
  priceIndex: string | null;
  baseIndexValue: number | null;
  baseIndexMonth: string | null;
  visitIntervalDays: number;
  arrivalMinutes: number;
  arrivalOutOfHoursMinutes: number | null;
  trappedPersonMinutes: number;
  returnToServiceMinutes: number;
  weekendCoverage: boolean;
  onCallCoverage: boolean;
  penaltyPerLateHour: number;
  notes: string | null;
}

/** Les champs du formulaire qu'un contrôle peut refuser. */
export type ContractField =
  | 'client'
  | 'lifts'
  | 'startOn'
  | 'durationMonths'
  | 'renewalMonths'
  | 'noticeMonths'
  | 'annualPrice'
  | 'priceIndex'
  | 'baseIndexValue'
  | 'baseIndexMonth'
  | 'visitIntervalDays'
  | 'arrivalMinutes'
  | 'arrivalOutOfHoursMinutes'
  | 'trappedPersonMinutes'
  | 'returnToServiceMinutes'
  | 'penaltyPerLateHour'
  | 'notes';

export type ContractErrors = Partial<Record<ContractField, string>>;

/** Taux de TVA d'un contrat, en pour cent (le taux nul n'en est pas un). */
export const CONTRACT_VAT_RATES = ['20', '10', '5.5', '2.1'] as const;

/** Valeur d'un indice, strictement en dessous (le serveur la refuse au-delà). */
export const MAX_INDEX_VALUE = 1_000_000;

/** Appareils d'un contrat, au plus. */
export const MAX_CONTRACT_LIFTS = 1000;

/** Un formulaire neuf : les valeurs par défaut du serveur, à partir du jour `today` (AAAA-MM-JJ). */
export function emptyContract(today: string): ContractDraft {
  return {
    client: null,
    lifts: [],
    type: 'normal',
    startOn: today,
    durationMonths: '12',
    tacitRenewal: true,
    renewalMonths: '12',
    noticeMonths: '3',
    priceBasis: 'par_appareil',
    annualPrice: '',
    billingFrequency: 'trimestrielle',
    billingTiming: 'terme_a_echoir',
    vatRate: '20',
    priceIndex: '',
    baseIndexValue: '',
    baseIndexMonth: '',
    visitIntervalDays: '42',
    arrivalMinutes: '240',
    arrivalOutOfHoursMinutes: '',
    trappedPersonMinutes: '60',
    returnToServiceMinutes: '2880',
    weekendCoverage: false,
    onCallCoverage: false,
    penaltyPerLateHour: '0',
    notes: '',
  };
}

/** Un nombre décimal en texte de formulaire, virgule française (`1250.5` → `1250,5`). */
function decimalText(value: number | null): string {
  return value === null ? '' : String(value).replace('.', ',');
}

/** Le formulaire d'un brouillon relu (`GET /contracts/{id}`), pour le modifier. */
export function draftOf(contract: ContractView): ContractDraft {
  return {
    client: { id: contract.client.id, name: contract.client.name },
    lifts: contract.lifts.map((lift) => ({
      id: lift.id,
      number: lift.number,
      building: lift.building,
      address: lift.location,
    })),
    type: contract.type,
    startOn: contract.startOn,
    durationMonths: String(contract.durationMonths),
    tacitRenewal: contract.tacitRenewal,
    renewalMonths: String(contract.renewalMonths),
    noticeMonths: String(contract.noticeMonths),
    priceBasis: contract.priceBasis,
    annualPrice: decimalText(contract.annualPrice),
    billingFrequency: contract.billingFrequency,
    billingTiming: contract.billingTiming,
    vatRate: String(contract.vatRate),
    priceIndex: contract.priceIndex ?? '',
    baseIndexValue: decimalText(contract.baseIndexValue),
    baseIndexMonth: contract.baseIndexMonth ?? '',
    visitIntervalDays: String(contract.visitIntervalDays),
    arrivalMinutes: String(contract.arrivalMinutes),
    arrivalOutOfHoursMinutes: contract.arrivalOutOfHoursMinutes === null ? '' : String(contract.arrivalOutOfHoursMinutes),
    trappedPersonMinutes: String(contract.trappedPersonMinutes),
    returnToServiceMinutes: String(contract.returnToServiceMinutes),
    weekendCoverage: contract.weekendCoverage,
    onCallCoverage: contract.onCallCoverage,
    penaltyPerLateHour: decimalText(contract.penaltyPerLateHour),
    notes: contract.notes ?? '',
  };
}

/** Un entier saisi entre `min` et `max`, ou le message qui le refuse. */
function wholeNumber(text: string, min: number, max: number, what: string): number | string {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '');
  if (!/^\d+$/.test(compact)) return `${what} : un nombre entier est attendu.`;
  const value = Number(compact);
  if (value < min || value > max) return `${what} : de ${min} à ${max}.`;
  return value;
}

/** La durée d'une reconduction d'un contrat qui ne se reconduit pas (champ caché) : la saisie si elle vaut, sinon 12. */
function renewalKept(text: string): number {
  const read = wholeNumber(text, 1, 60, 'Reconduction');
  return typeof read === 'number' ? read : 12;
}

/** Un montant en euros (deux décimales au plus) entre 0 et `max`, ou le message qui le refuse. */
function euros(text: string, max: number, what: string): number | string {
  const cents = parseDecimal(text, 2);
  if (cents === 'trop') return `${what} : deux décimales au plus.`;
  if (cents === null) return `${what} : un montant en euros est attendu (par exemple 1 250,00).`;
  if (cents < 0) return `${what} : un montant positif ou nul est attendu.`;
  if (cents > max * 100) return `${what} : ${new Intl.NumberFormat('fr-FR').format(max)} € au plus.`;
  return cents / 100;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * Contrôle le formulaire avant l'envoi (les règles du serveur qu'il peut
 * connaître : champs obligatoires, bornes, indice complet, délai hors heures
 * avec l'astreinte ou le week-end) : le corps à envoyer, ou les messages par
 * champ. Le serveur contrôle le reste (client et appareils de l'agence, un
 * seul contrat actif par appareil) et répond par sa phrase.
 */
export function checkContract(draft: ContractDraft): { body?: ContractBody; errors: ContractErrors } {
  const errors: ContractErrors = {};
  if (!draft.client) errors.client = 'Choisissez le client du contrat dans la liste.';
  if (draft.lifts.length === 0) errors.lifts = 'Ajoutez au moins un appareil couvert.';
  else if (draft.lifts.length > MAX_CONTRACT_LIFTS)
    errors.lifts = `Un contrat couvre ${MAX_CONTRACT_LIFTS} appareils au plus.`;
  if (!DAY.test(draft.startOn)) errors.startOn = 'Donnez le premier jour du contrat.';

  const numbers: Record<string, number> = {};
  const whole = (field: ContractField, text: string, min: number, max: number, what: string) => {
    const read = wholeNumber(text, min, max, what);
    if (typeof read === 'string') errors[field] = read;
    else numbers[field] = read;
  };
  whole('durationMonths', draft.durationMonths, 12, 120, 'Durée');
  // Sans reconduction tacite, le champ est caché : sa valeur n'est pas contrôlée (12 envoyé s'il est vide).
  if (draft.tacitRenewal) whole('renewalMonths', draft.renewalMonths, 1, 60, 'Reconduction');
  whole('noticeMonths', draft.noticeMonths, 0, 12, 'Préavis');
  whole('visitIntervalDays', draft.visitIntervalDays, 7, 42, 'Intervalle entre deux visites');
  whole('arrivalMinutes', draft.arrivalMinutes, 5, 10080, "Délai d'arrivée");
  whole('trappedPersonMinutes', draft.trappedPersonMinutes, 5, 10080, 'Délai pour une personne bloquée');
  whole('returnToServiceMinutes', draft.returnToServiceMinutes, 5, 10080, 'Délai de remise en service');

  const outOfHoursAsked = draft.weekendCoverage || draft.onCallCoverage;
  let outOfHours: number | null = null;
  if (outOfHoursAsked) {
    const read = wholeNumber(draft.arrivalOutOfHoursMinutes, 5, 10080, "Délai d'arrivée hors heures ouvrées");
    if (typeof read === 'string') errors.arrivalOutOfHoursMinutes = read;
    else outOfHours = read;
  }
  const trapped = numbers.trappedPersonMinutes;
  const arrival = numbers.arrivalMinutes;
  if (trapped !== undefined && !errors.trappedPersonMinutes) {
    if (arrival !== undefined && trapped > arrival)
      errors.trappedPersonMinutes = "Délai pour une personne bloquée : au plus le délai d'arrivée aux heures ouvrées.";
    else if (outOfHours !== null && trapped > outOfHours)
      errors.trappedPersonMinutes = "Délai pour une personne bloquée : au plus le délai d'arrivée hors heures ouvrées.";
  }

  const price = euros(draft.annualPrice, 1_000_000, 'Prix annuel HT');
  if (typeof price === 'string') errors.annualPrice = price;
  const penalty = euros(draft.penaltyPerLateHour || '0', 10_000, 'Pénalité par heure de retard');
  if (typeof penalty === 'string') errors.penaltyPerLateHour = penalty;

  const index = draft.priceIndex.trim();
  let baseValue: number | null = null;
  if (index) {
    if (!/^[A-Za-z0-9._-]{1,30}$/.test(index))
      errors.priceIndex = "Code de l'indice : 1 à 30 lettres, chiffres, « - », « _ » ou « . » (BT48, ICHT-IME…).";
    const read = parseDecimal(draft.baseIndexValue, 4);
    if (read === 'trop') errors.baseIndexValue = 'Valeur de base : quatre décimales au plus.';
    else if (read === null || read <= 0) errors.baseIndexValue = "Donnez la valeur de base I0 de l'indice (positive).";
    else if (read >= MAX_INDEX_VALUE * 10_000)
      errors.baseIndexValue = `Valeur de base : moins de ${new Intl.NumberFormat('fr-FR').format(MAX_INDEX_VALUE)}.`;
    else baseValue = read / 10_000;
    if (!MONTH.test(draft.baseIndexMonth.trim())) errors.baseIndexMonth = 'Donnez le mois de la valeur de base (AAAA-MM).';
  } else if (draft.baseIndexValue.trim() || draft.baseIndexMonth.trim()) {
    errors.priceIndex = "Donnez l'indice dont I0 est la valeur (BT48, ICHT-IME…), ou videz la valeur de base et son mois.";
  }
  if ([...draft.notes.trim()].length > 2000) errors.notes = 'Notes : 2 000 caractères au plus.';

  if (Object.keys(errors).length > 0 || !draft.client) return { errors };
  const n = (field: ContractField) => numbers[field] ?? 0;
  return {
    errors,
    body: {
      clientId: draft.client.id,
      liftIds: draft.lifts.map((lift) => lift.id),
      type: draft.type,
      startOn: draft.startOn,
      durationMonths: n('durationMonths'),
      tacitRenewal: draft.tacitRenewal,
      renewalMonths: draft.tacitRenewal ? n('renewalMonths') : renewalKept(draft.renewalMonths),
      noticeMonths: n('noticeMonths'),
      priceBasis: draft.priceBasis,
      annualPrice: price as number,
      billingFrequency: draft.billingFrequency,
      billingTiming: draft.billingTiming,
      vatRate: Number(draft.vatRate),
      priceIndex: index ? index.toUpperCase() : null,
      baseIndexValue: index ? baseValue : null,
      baseIndexMonth: index ? draft.baseIndexMonth.trim() : null,
      visitIntervalDays: n('visitIntervalDays'),
      arrivalMinutes: n('arrivalMinutes'),
      arrivalOutOfHoursMinutes: outOfHoursAsked ? outOfHours : null,
      trappedPersonMinutes: n('trappedPersonMinutes'),
      returnToServiceMinutes: n('returnToServiceMinutes'),
      weekendCoverage: draft.weekendCoverage,
      onCallCoverage: draft.onCallCoverage,
      penaltyPerLateHour: penalty as number,
      notes: draft.notes.trim() ? draft.notes.trim() : null,
    },
  };
}

// ---------------------------------------------------------------------------
// Libellés
// ---------------------------------------------------------------------------

/** « 4 h 00 », « 2 j 00 h », « 45 min » : un délai du contrat. */
export function delayLabel(minutes: number | null): string {
  return minutes === null ? '—' : minutesLabel(minutes);
}

/** « 12 mois », « 1 mois ». */
export function monthsLabel(months: number): string {
  return `${months} mois`;
}

/** Le ton du badge d'un statut : actif en vert, résilié en rouge. */
export function contractTone(status: string): '' | 'success' | 'danger' {
  if (status === 'actif') return 'success';
  if (status === 'resilie') return 'danger';
  return '';
}

/** Le ton du badge d'une ligne de facturation. */
export function billingTone(state: BillingState): '' | 'success' | 'danger' {
  if (state === 'a_creer') return 'success';
  if (state === 'indice_manquant' || state === 'client_archive') return 'danger';
  return '';
}

// ---------------------------------------------------------------------------
// La fenêtre d'une facturation
// ---------------------------------------------------------------------------

export interface BillingWindow {
  from: string;
  to: string;
}

/** Les fenêtres proposées : le trimestre, le mois, l'année. */
export type WindowKind = 'trimestre' | 'mois' | 'annee';

const pad = (n: number) => String(n).padStart(2, '0');
const lastDayOf = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * La fenêtre `kind` qui contient le jour `day` (AAAA-MM-JJ), décalée de
 * `shift` fenêtres (1 : la suivante).
 */
export function billingWindow(day: string, kind: WindowKind, shift = 0): BillingWindow {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  const span = kind === 'mois' ? 1 : kind === 'trimestre' ? 3 : 12;
  const first = Math.floor((month - 1) / span) * span + shift * span;
  const fromYear = year + Math.floor(first / 12);
  const fromMonth = (((first % 12) + 12) % 12) + 1;
  const lastIndex = first + span - 1;
  const toYear = year + Math.floor(lastIndex / 12);
  const toMonth = (((lastIndex % 12) + 12) % 12) + 1;
  return {
    from: `${fromYear}-${pad(fromMonth)}-01`,
    to: `${toYear}-${pad(toMonth)}-${pad(lastDayOf(toYear, toMonth))}`,
  };
}

/** « 1er trimestre 2027 », « janvier 2027 », « année 2027 », sinon « du 01/01/2027 au 15/02/2027 ». */
export function windowLabel(window: BillingWindow): string {
  const part = (day: string, at: number) => Number(day.split('-')[at]);
  const [fy, fm, fd] = [part(window.from, 0), part(window.from, 1), part(window.from, 2)];
  const [ty, tm, td] = [part(window.to, 0), part(window.to, 1), part(window.to, 2)];
  const wholeMonths = fd === 1 && td === lastDayOf(ty, tm) && fy === ty;
  if (wholeMonths && fm === tm) {
    return new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(Date.UTC(fy, fm - 1, 1)),
    );
  }
  if (wholeMonths && tm - fm === 2 && (fm - 1) % 3 === 0) {
    const q = (fm - 1) / 3 + 1;
    return `${q === 1 ? '1er' : `${q}e`} trimestre ${fy}`;
  }
  if (wholeMonths && fm === 1 && tm === 12) return `année ${fy}`;
  const day = (y: number, m: number, d: number) => `${pad(d)}/${pad(m)}/${y}`;
  return `du ${day(fy, fm, fd)} au ${day(ty, tm, td)}`;
}

// ---------------------------------------------------------------------------
// Émission par lots
// ---------------------------------------------------------------------------

/** Où en est l'émission des brouillons d'une facturation. */
export interface IssueProgress {
  issued: number;
  refused: RefusedView[];
  remaining: number;
}

/** Brouillons émis par appel : la barre avance à chaque lot. */
export const ISSUE_BATCH = 50;

/**
 * Émet les brouillons de la facturation `window` lot après lot
 * (`POST /contract-billing/issue`), chaque lot reprenant où le précédent
 * s'est arrêté (`after` : son `next`), en appelant `onprogress` après
 * chacun, jusqu'à ce que tous les brouillons aient été vus (`next` nul) :
 * un brouillon refusé reste brouillon, sa raison est dite une fois, et il
 * ne retient pas ceux d'après. Une erreur du serveur interrompt l'émission :
 * ce qui est émis l'est, la fois suivante reprend le reste.
 */
export async function issueAll(
  window: BillingWindow,
  onprogress: (progress: IssueProgress) => void,
  issue: (body: BillingWindow & { limit: number; after?: string }) => Promise<IssueBatchView> = issueBatch,
): Promise<IssueProgress> {
  const progress: IssueProgress = { issued: 0, refused: [], remaining: 0 };
  let after: string | null = null;
  for (;;) {
    const batch: IssueBatchView = await issue(after ? { ...window, limit: ISSUE_BATCH, after } : { ...window, limit: ISSUE_BATCH });
    progress.issued += batch.issued.length;
    progress.refused.push(...batch.refused);
    progress.remaining = batch.remaining;
    onprogress({ ...progress, refused: [...progress.refused] });
    if (batch.next === null) return progress;
    after = batch.next;
  }
}

/**
 * La part faite, de 0 à 1 : les brouillons vus (émis ou refusés) sur le
 * tout ; les refusés comptent dans `remaining` (ils restent brouillons).
 */
export function progressRatio(progress: IssueProgress): number {
  const done = progress.issued + progress.refused.length;
  const all = done + Math.max(0, progress.remaining - progress.refused.length);
  return all === 0 ? 1 : done / all;
}

// ---------------------------------------------------------------------------
// Appels à l'API
// ---------------------------------------------------------------------------

const BASE = '/app/api/contracts';
export const contractApiPath = (id: string) => `${BASE}/${encodeURIComponent(id)}`;
/** L'adresse d'un contrat à l'écran. */
export const contractPath = (id: string) => `/contrats/${encodeURIComponent(id)}`;

export interface ContractFilters {
  status: string;
  q: string;
  clientId?: string;
  /** Les contrats qui couvrent (ou ont couvert) un appareil. */
  equipmentId?: string;
}

/** `GET /contracts` : une page des contrats, du plus récent au plus ancien. */
export function listContracts(
  filters: ContractFilters,
  page: number,
  limit: number,
): Promise<{ total: number; page: number; limit: number; results: ContractListEntry[] }> {
  const params = new URLSearchParams({ page: String(page), limit: String(limit) });
  if (filters.status) params.set('status', filters.status);
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (filters.clientId) params.set('clientId', filters.clientId);
  if (filters.equipmentId) params.set('equipmentId', filters.equipmentId);
  return api.get(`${BASE}?${params}`);
}

export function getContract(id: string): Promise<ContractView> {
  return api.get(contractApiPath(id));
}

export function createContract(body: ContractBody): Promise<{ id: string }> {
  return api.post(BASE, body);
}

export function replaceContract(id: string, body: ContractBody): Promise<ContractView> {
  return api.put(contractApiPath(id), body);
}

export function deleteContract(id: string): Promise<void> {
  return api.delete(contractApiPath(id));
}

export function activateContract(id: string): Promise<unknown> {
  return api.post(`${contractApiPath(id)}/activate`, {});
}

export function expireContract(id: string): Promise<unknown> {
  return api.post(`${contractApiPath(id)}/expire`, {});
}

export function terminateContract(
  id: string,
  body: { reason: string; noticeOn?: string; endsOn?: string },
): Promise<unknown> {
  return api.post(`${contractApiPath(id)}/terminate`, body);
}

/** `GET /contracts/{id}/response-times?from&to` : les délais tenus sur la période. */
export function responseReport(id: string, window: BillingWindow): Promise<ResponseReportOut> {
  const params = new URLSearchParams({ from: window.from, to: window.to });
  return api.get(`${contractApiPath(id)}/response-times?${params}`);
}

/** L'adresse du rapport annuel (PDF) d'une année. */
export function annualReportPath(id: string, year: number): string {
  return `${contractApiPath(id)}/annual-report?year=${year}`;
}

export function listIndexValues(index?: string): Promise<IndexValueView[]> {
  const query = index ? `?index=${encodeURIComponent(index)}` : '';
  return api.get(`/app/api/price-indexes${query}`);
}

export function recordIndexValue(body: { index: string; month: string; value: number }): Promise<IndexValueView> {
  return api.post('/app/api/price-indexes', body);
}

/** `GET /contract-billing/preview` : les comptes et une page des lignes (filtrées par état). */
export function billingPreview(
  window: BillingWindow,
  state: string,
  page: number,
  limit: number,
): Promise<BillingPreview> {
  const params = new URLSearchParams({ from: window.from, to: window.to, page: String(page), limit: String(limit) });
  if (state) params.set('state', state);
  return api.get(`/app/api/contract-billing/preview?${params}`);
}

export function createDrafts(window: BillingWindow): Promise<DraftsView> {
  return api.post('/app/api/contract-billing/drafts', window);
}

export function issueBatch(body: BillingWindow & { limit: number; after?: string }): Promise<IssueBatchView> {
  return api.post('/app/api/contract-billing/issue', body);
}
