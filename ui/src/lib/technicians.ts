/**
 * Écran Techniciens : types de l'API, dates du planning d'astreinte (heure de
 * Paris, quel que soit le fuseau du poste) et validation des formulaires, avec
 * les messages du serveur, les fiches des techniciens (ajout, modification,
 * retrait du planning) et les appels à l'API des techniciens.
 */
import { phoneReason } from './validation';
import { api } from './api';
import { formatParisDateTime } from './format';
import type {
  AbsenceView,
  AbsencesAnswer,
  RotaAnswer,
  ShiftView,
  TechnicianRecords,
  TechnicianRecordWire,
  TechnicianView,
  TechniciansAnswer,
  WeekView,
} from './generated/contract';

// Les réponses viennent du serveur : `generated/contract.ts` est généré depuis le code Rust.
export type {
  AbsencesAnswer,
  ReplacedAnswer,
  RotaAnswer,
  TechnicianRecords,
  TechniciansAnswer,
} from './generated/contract';
/** Ligne de `GET /app/api/technicians` (celle de `GET /api/v2/technicians`). */
export type Technician = TechnicianView;
export type Shift = ShiftView;
export type RotaWeek = WeekView;
export type Absence = AbsenceView;
/** Fiche d'un technicien (`GET /app/api/technicians/records`), active ou retirée du planning. */
export type TechnicianRecord = TechnicianRecordWire;

// -- Appels à l'API -------------------------------------------------------------------

/** `GET /technicians` : l'équipe de l'agence, et si le compte peut la modifier. */
export function listTechnicians(): Promise<TechniciansAnswer> {
  return api.get<TechniciansAnswer>('/app/api/technicians');
}

/** `GET /technicians/rota` : `weeks` semaines du planning d'astreinte, depuis le lundi `from` (sinon la semaine en cours). */
export function getRota(weeks: number, from: string | null): Promise<RotaAnswer> {
  const query = new URLSearchParams({ weeks: String(weeks) });
  if (from) query.set('from', from);
  return api.get<RotaAnswer>(`/app/api/technicians/rota?${query}`);
}

/** `PUT /technicians/rota/{monday}` : confie la semaine à un technicien. */
export function setRotaWeek(monday: string, technicianId: string): Promise<void> {
  return api.put<void>(`/app/api/technicians/rota/${monday}`, { technicianId });
}

/** `POST /technicians/rota/swap` : échange deux semaines. */
export function swapRotaWeeks(first: string, second: string): Promise<void> {
  return api.post<void>('/app/api/technicians/rota/swap', { first, second });
}

/** `POST /technicians/rota/replace` : un remplaçant sur une plage (heures de Paris `AAAA-MM-JJTHH:MM`). */
export function replaceOnCall(technicianId: string, from: string, to: string): Promise<void> {
  return api.post<void>('/app/api/technicians/rota/replace', { technicianId, from, to });
}

const absencesPath = (technicianId: string) => `/app/api/technicians/${encodeURIComponent(technicianId)}/absences`;

/** `GET /technicians/{id}/absences` : les absences en cours, à venir et des trois derniers mois. */
export function listAbsences(technicianId: string): Promise<AbsencesAnswer> {
  return api.get<AbsencesAnswer>(absencesPath(technicianId));
}

/** `POST /technicians/{id}/absences` : une absence (jours inclus) et son motif. */
export function addAbsence(
  technicianId: string,
  absence: { startsOn: string; endsOn: string; reason: string },
): Promise<AbsenceView> {
  return api.post<AbsenceView>(absencesPath(technicianId), absence);
}

/** `DELETE /technicians/{id}/absences/{absenceId}`. */
export function deleteAbsence(technicianId: string, absenceId: string): Promise<void> {
  return api.delete(`${absencesPath(technicianId)}/${encodeURIComponent(absenceId)}`);
}

export const TECHNICIANS_PATH = '/app/api/technicians';

/** Le corps de `POST /technicians` : un nouveau technicien (sans capacité : 6 visites par jour). */
export interface NewTechnicianBody {
  name: string;
  phone?: string;
  sectors: string[];
  dailyCapacity?: number;
}

/**
 * Le corps de `PATCH /technicians/{id}` : seuls les champs donnés changent ;
 * `phone` vide l'efface, `sectors` remplace tous ses secteurs.
 */
export interface TechnicianEditBody {
  name?: string;
  phone?: string;
  sectors?: string[];
  dailyCapacity?: number;
  restHours?: number;
}

const technicianPath = (id: string, action?: string) =>
  `${TECHNICIANS_PATH}/${encodeURIComponent(id)}${action ? `/${action}` : ''}`;

/** `GET /technicians/records` : les fiches de tous les techniciens de l'agence (actifs d'abord), et si le compte peut les modifier. */
export function listTechnicianRecords(): Promise<TechnicianRecords> {
  return api.get<TechnicianRecords>(`${TECHNICIANS_PATH}/records`);
}

/** `POST /technicians` (201) : la fiche créée ; il est aussitôt au planning. */
export function createTechnician(body: NewTechnicianBody): Promise<TechnicianRecord> {
  return api.post<TechnicianRecord>(TECHNICIANS_PATH, body);
}

/** `PATCH /technicians/{id}` : la fiche relue. */
export function editTechnician(id: string, body: TechnicianEditBody): Promise<TechnicianRecord> {
  return api.patch<TechnicianRecord>(technicianPath(id), body);
}

/**
 * `POST /technicians/{id}/deactivate` : « Retirer du planning » (l'équipe, les
 * propositions du planning, l'astreinte) ; refusé (422) tant qu'il a une
 * astreinte à venir. Ses visites planifiées restent à son nom.
 */
export function deactivateTechnician(id: string): Promise<TechnicianRecord> {
  return api.post<TechnicianRecord>(technicianPath(id, 'deactivate'));
}

/** `POST /technicians/{id}/reactivate` : « Remettre au planning ». */
export function reactivateTechnician(id: string): Promise<TechnicianRecord> {
  return api.post<TechnicianRecord>(technicianPath(id, 'reactivate'));
}

/** Action sur une semaine du planning : la confier, l'échanger, remplacer sur une plage. */
export type RotaMode = 'set' | 'swap' | 'replace';

/** Semaines affichées par le planning d'astreinte. */
export const ROTA_WEEKS = 8;
export const MAX_REASON_CHARS = 200;
export const MAX_ABSENCE_DAYS = 366;
/** Motifs proposés (le champ reste libre). */
export const ABSENCE_REASONS = [
  'Congés payés',
  'RTT',
  'Arrêt maladie',
  'Formation',
  'Récupération',
] as const;

export const MESSAGES = {
  startInvalid: 'Date de début invalide : attendu AAAA-MM-JJ.',
  endInvalid: 'Date de fin invalide : attendu AAAA-MM-JJ.',
  endBeforeStart: "La fin de l'absence ne peut pas précéder son début.",
  tooLong: `Une absence dure au plus ${MAX_ABSENCE_DAYS} jours : saisissez-la en plusieurs fois.`,
  reasonRequired: "Indiquez le motif de l'absence.",
  reasonTooLong: `Le motif ne peut pas dépasser ${MAX_REASON_CHARS} caractères.`,
  technicianRequired: 'Choisissez un technicien.',
  sameTechnician: "Ce technicien est déjà d'astreinte toute cette semaine.",
  weekRequired: 'Choisissez la semaine à échanger.',
  replaceFromInvalid: 'Début invalide : attendu AAAA-MM-JJTHH:MM (heure de Paris).',
  replaceToInvalid: 'Fin invalide : attendu AAAA-MM-JJTHH:MM (heure de Paris).',
  replaceOrder: "La fin de l'astreinte doit suivre son début.",
} as const;

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2})?$/;

/** Un jour `AAAA-MM-JJ` valide (le 31/02 ne l'est pas) → nombre de jours depuis 1970, sinon `null`. */
export function dayNumber(text: string): number | null {
  const m = DAY_RE.exec(text.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const date = new Date(ms);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return Math.round(ms / 86_400_000);
}

/** Jour `AAAA-MM-JJ` décalé de `days` jours. */
export function addDays(day: string, days: number): string {
  const n = dayNumber(day);
  if (n === null) return day;
  return new Date((n + days) * 86_400_000).toISOString().slice(0, 10);
}

/** Le lundi de la semaine (lundi → dimanche) du jour. */
export function mondayOf(day: string): string {
  const n = dayNumber(day);
  if (n === null) return day;
  // 1970-01-01 était un jeudi (indice 3 si lundi = 0).
  const weekday = (((n + 3) % 7) + 7) % 7;
  return addDays(day, -weekday);
}

/** Numéro de semaine ISO 8601 d'un jour. */
export function isoWeek(day: string): number {
  const n = dayNumber(day);
  if (n === null) return 0;
  const weekday = (((n + 3) % 7) + 7) % 7;
  const thursday = n - weekday + 3;
  const year = new Date(thursday * 86_400_000).getUTCFullYear();
  const firstJan = Math.round(Date.UTC(year, 0, 1) / 86_400_000);
  return Math.floor((thursday - firstJan) / 7) + 1;
}

const PARIS_SHORT = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  weekday: 'short',
  day: '2-digit',
  month: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});
const PARIS_PARTS = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** Horodatage ISO → `23/11/2026 08:00`, heure de Paris ; `null` → `—` (`format.ts`). */
export const formatParis = formatParisDateTime;

/** Horodatage ISO → `lun. 23/11 08:00`, heure de Paris. */
export function formatParisShort(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : PARIS_SHORT.format(date).replace(',', '');
}

/** Horodatage (ISO ou `Date`) → `AAAA-MM-JJTHH:MM` à l'heure de Paris, pour un champ `datetime-local`. */
export function toParisInput(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '';
  const parts = Object.fromEntries(PARIS_PARTS.formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** `AAAA-MM-JJ` → `23/11/2026`. */
export function frenchDay(day: string): string {
  const m = DAY_RE.exec(day);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : day;
}

export interface AbsenceInput {
  startsOn: string;
  endsOn: string;
  reason: string;
}

export interface AbsenceErrors {
  startsOn?: string;
  endsOn?: string;
  reason?: string;
}

/** Les règles du serveur pour une absence (jours inclus). Objet vide : envoyable. */
export function validateAbsence(input: AbsenceInput): AbsenceErrors {
  const errors: AbsenceErrors = {};
  const starts = dayNumber(input.startsOn);
  const ends = dayNumber(input.endsOn);
  if (starts === null) errors.startsOn = MESSAGES.startInvalid;
  if (ends === null) errors.endsOn = MESSAGES.endInvalid;
  if (starts !== null && ends !== null) {
    if (ends < starts) errors.endsOn = MESSAGES.endBeforeStart;
    else if (ends - starts + 1 > MAX_ABSENCE_DAYS) errors.endsOn = MESSAGES.tooLong;
  }
  const reason = input.reason.trim();
  if (reason === '') errors.reason = MESSAGES.reasonRequired;
  else if ([...reason].length > MAX_REASON_CHARS) errors.reason = MESSAGES.reasonTooLong;
  return errors;
}

/** L'absence déjà saisie qui partage un jour avec la nouvelle, s'il y en a une. */
export function overlappingAbsence(absences: Absence[], startsOn: string, endsOn: string): Absence | undefined {
  return absences.find((a) => a.startsOn <= endsOn && startsOn <= a.endsOn);
}

/** Message du serveur (409) pour un chevauchement d'absences. */
export function overlapMessage(name: string, other: Absence): string {
  const reason = other.reason ? ` (${other.reason})` : '';
  return `${name} est déjà absent du ${frenchDay(other.startsOn)} au ${frenchDay(other.endsOn)}${reason} : cette absence chevauche la nouvelle.`;
}

export interface ReplacementInput {
  technicianId: string;
  from: string;
  to: string;
}

export interface ReplacementErrors {
  technicianId?: string;
  from?: string;
  to?: string;
}

/** Remplacement sur une plage (heures de Paris `AAAA-MM-JJTHH:MM`). */
export function validateReplacement(input: ReplacementInput): ReplacementErrors {
  const errors: ReplacementErrors = {};
  if (!input.technicianId) errors.technicianId = MESSAGES.technicianRequired;
  const from = LOCAL_RE.test(input.from.trim()) ? input.from.trim().slice(0, 16) : null;
  const to = LOCAL_RE.test(input.to.trim()) ? input.to.trim().slice(0, 16) : null;
  if (from === null) errors.from = MESSAGES.replaceFromInvalid;
  if (to === null) errors.to = MESSAGES.replaceToInvalid;
  // Même format, même fuseau : l'ordre des textes est celui des instants.
  if (from !== null && to !== null && to <= from) errors.to = MESSAGES.replaceOrder;
  return errors;
}

/** Libellé d'une semaine d'astreinte : `S48 · 23/11/2026`. */
export function weekLabel(monday: string): string {
  return `S${isoWeek(monday)} · ${frenchDay(monday)}`;
}

/** Les relais d'une semaine autres que celui du titulaire, pour les signaler. */
export function otherShifts(week: RotaWeek): Shift[] {
  return week.complete ? [] : week.shifts;
}

// -- Fiche d'un technicien ----------------------------------------------------------

/** Longueurs et bornes du serveur (`domain::technician`). */
export const MAX_TECHNICIAN_NAME_CHARS = 100;
export const MAX_PHONE_CHARS = 30;
export const MAX_SECTOR_CHARS = 60;
export const MAX_SECTORS = 20;
export const MAX_DAILY_CAPACITY = 20;
/** La capacité d'un nouveau technicien quand rien n'est dit (celle du serveur). */
export const DEFAULT_DAILY_CAPACITY = 6;
export const MAX_REST_HOURS = 48;

export type TechnicianField = 'name' | 'phone' | 'sectors' | 'dailyCapacity' | 'restHours';

/** Dans l'ordre du formulaire (la première erreur reçoit le focus). */
export const TECHNICIAN_FIELD_ORDER: TechnicianField[] = ['name', 'phone', 'sectors', 'dailyCapacity', 'restHours'];

/** Le libellé de chaque champ, qui remplace son nom technique dans les messages du serveur. */
export const TECHNICIAN_FIELD_LABELS: Record<TechnicianField, string> = {
  name: 'Nom',
  phone: 'Téléphone',
  sectors: 'Secteurs',
  dailyCapacity: 'Capacité journalière',
  restHours: 'Repos après astreinte',
};

/** Le formulaire tel que saisi : les secteurs en un texte séparé par des virgules, les nombres d'un champ `number`. */
export interface TechnicianForm {
  name: string;
  phone: string;
  sectors: string;
  dailyCapacity: number | null;
  /** À la modification seulement (un nouveau technicien a le repos du serveur, 11 h). */
  restHours: number | null;
}

export type TechnicianErrors = Partial<Record<TechnicianField, string>>;

/** Un nouveau technicien : 6 visites par jour, comme le serveur. */
export function emptyTechnicianForm(): TechnicianForm {
  return { name: '', phone: '', sectors: '', dailyCapacity: DEFAULT_DAILY_CAPACITY, restHours: null };
}

/** Le formulaire de modification d'une fiche. */
export function formOfTechnician(record: TechnicianRecord): TechnicianForm {
  return {
    name: record.name,
    phone: record.phone ?? '',
    sectors: record.sectors.join(', '),
    dailyCapacity: record.dailyCapacity,
    restHours: record.restHours,
  };
}

/** Un secteur comparé comme le serveur le fait (`planning::normalize_sector`) : espaces réduits, minuscules. */
export function normalizeSector(text: string): string {
  return text.trim().split(/\s+/u).filter(Boolean).join(' ').toLowerCase();
}

/** Les secteurs saisis (« Levallois, Neuilly ») : rognés, les vides et les doublons (casse ignorée) retirés. */
export function parseSectors(text: string): string[] {
  const sectors: string[] = [];
  const seen = new Set<string>();
  for (const part of text.split(',')) {
    const sector = part.trim();
    const key = normalizeSector(sector);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    sectors.push(sector);
  }
  return sectors;
}

const CONTROL_CHAR = /[\u0000-\u001f\u007f-\u009f]/u;
const charCount = (text: string) => [...text].length;

/** Un texte libre (`text::field`) : trop long ou un caractère de contrôle → la raison, le champ nommé par son nom technique. */
function freeTextReason(field: TechnicianField, text: string, max: number): string | undefined {
  if (charCount(text) > max) return `Le champ « ${field} » ne doit pas dépasser ${max} caractères.`;
  if (CONTROL_CHAR.test(text)) return `Le champ « ${field} » ne doit pas contenir de caractère de contrôle.`;
  return undefined;
}

/** La raison affichée : le nom technique du champ remplacé par son libellé. */
function displayReason(field: TechnicianField, reason: string): string {
  return reason.replace(`« ${field} »`, `« ${TECHNICIAN_FIELD_LABELS[field]} »`);
}

/** Le nom : obligatoire, 100 caractères au plus. */
export function checkTechnicianName(raw: string): string | undefined {
  const name = raw.trim();
  const reason = name === '' ? 'Le champ « name » est obligatoire.' : freeTextReason('name', name, MAX_TECHNICIAN_NAME_CHARS);
  return reason && displayReason('name', reason);
}

/** Le téléphone, facultatif : chiffres (4 à 15), espaces, points, tirets, un « + » en tête. */
export function checkPhone(raw: string): string | undefined {
  const phone = raw.trim();
  if (phone === '') return undefined;
  const reason = freeTextReason('phone', phone, MAX_PHONE_CHARS) ?? phoneReason('phone', phone);
  return reason && displayReason('phone', reason);
}

/** Les secteurs : 20 au plus, chacun de 60 caractères au plus (la virgule les sépare). */
export function checkSectors(raw: string): string | undefined {
  const sectors = parseSectors(raw);
  let reason: string | undefined;
  if (sectors.length > MAX_SECTORS) reason = `Le champ « sectors » compte au plus ${MAX_SECTORS} secteurs.`;
  for (const sector of sectors) {
    reason ??= freeTextReason('sectors', sector, MAX_SECTOR_CHARS);
  }
  return reason && displayReason('sectors', reason);
}

const isInteger = (value: number | null): value is number => value !== null && Number.isInteger(value);

/** La capacité journalière : de 1 à 20 visites par jour. */
export function checkDailyCapacity(value: number | null): string | undefined {
  if (isInteger(value) && value >= 1 && value <= MAX_DAILY_CAPACITY) return undefined;
  return displayReason(
    'dailyCapacity',
    `Le champ « dailyCapacity » doit être compris entre 1 et ${MAX_DAILY_CAPACITY} visites par jour.`,
  );
}

/** Le repos de sécurité après une astreinte : de 0 à 48 heures. */
export function checkRestHours(value: number | null): string | undefined {
  if (isInteger(value) && value >= 0 && value <= MAX_REST_HOURS) return undefined;
  return displayReason('restHours', `Le champ « restHours » doit être compris entre 0 et ${MAX_REST_HOURS} heures.`);
}

/**
 * Les refus du formulaire, champ par champ, avec les règles et les messages du
 * serveur (le nom technique du champ remplacé par son libellé). `before` : à la
 * modification, seuls les champs changés sont vérifiés, comme le serveur le fait
 * (une fiche écrite avant ces règles reste telle quelle). Un objet vide : le
 * formulaire peut partir.
 */
export function checkTechnician(form: TechnicianForm, before: TechnicianRecord | null = null): TechnicianErrors {
  const changed = before ? editBody(before, form) : null;
  const checks = (field: TechnicianField) => changed === null || field in changed || form[field] === null;
  const errors: TechnicianErrors = {};
  const put = (field: TechnicianField, reason: string | undefined) => {
    if (reason && checks(field)) errors[field] = reason;
  };
  put('name', checkTechnicianName(form.name));
  put('phone', checkPhone(form.phone));
  put('sectors', checkSectors(form.sectors));
  put('dailyCapacity', checkDailyCapacity(form.dailyCapacity));
  if (before) put('restHours', checkRestHours(form.restHours));
  return errors;
}

/** Le corps de `POST /technicians` : rogné, sans téléphone s'il est vide. */
export function newTechnicianBody(form: TechnicianForm): NewTechnicianBody {
  const body: NewTechnicianBody = { name: form.name.trim(), sectors: parseSectors(form.sectors) };
  const phone = form.phone.trim();
  if (phone !== '') body.phone = phone;
  if (form.dailyCapacity !== null) body.dailyCapacity = form.dailyCapacity;
  return body;
}

const sameSectors = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((sector, i) => normalizeSector(sector) === normalizeSector(b[i] ?? ''));

/**
 * Le corps de `PATCH /technicians/{id}` : seulement ce qui a changé (un objet
 * vide : rien à envoyer). Un téléphone vidé part vide (le serveur l'efface) ;
 * des secteurs qui ne diffèrent que par la casse ou les espaces ne partent pas.
 */
export function editBody(before: TechnicianRecord, form: TechnicianForm): TechnicianEditBody {
  const body: TechnicianEditBody = {};
  const name = form.name.trim();
  if (name !== before.name.trim()) body.name = name;
  const phone = form.phone.trim();
  if (phone !== (before.phone ?? '').trim()) body.phone = phone;
  const sectors = parseSectors(form.sectors);
  if (!sameSectors(sectors, before.sectors)) body.sectors = sectors;
  if (form.dailyCapacity !== null && form.dailyCapacity !== before.dailyCapacity) {
    body.dailyCapacity = form.dailyCapacity;
  }
  if (form.restHours !== null && form.restHours !== before.restHours) body.restHours = form.restHours;
  return body;
}

/** Un refus du serveur qui nomme un champ : le champ, et la raison à afficher à côté. */
export interface TechnicianRefusal {
  field: TechnicianField;
  message: string;
}

/**
 * Le champ que nomme un refus du serveur (422 « Le champ « phone » … ») : le
 * champ et le message, le nom technique remplacé par le libellé ; `null` sinon
 * (la phrase s'affiche alors telle quelle).
 */
export function technicianRefusalOf(message: string): TechnicianRefusal | null {
  const named = /^Le champ « ([A-Za-z]+) » /u.exec(message);
  const field = named?.[1] ?? '';
  if (!Object.hasOwn(TECHNICIAN_FIELD_LABELS, field)) return null;
  const known = field as TechnicianField;
  return { field: known, message: displayReason(known, message) };
}
