/**
 * Écran Techniciens : types de l'API, dates du planning d'astreinte (heure de
 * Paris, quel que soit le fuseau du poste) et validation des formulaires, avec
 * les messages du serveur, et les appels à l'API des techniciens.
 */
import { api } from './api';
import type {
  AbsenceView,
  AbsencesAnswer,
  RotaAnswer,
  ShiftView,
  TechnicianView,
  TechniciansAnswer,
  WeekView,
} from './generated/contract';

// Les réponses viennent du serveur : `generated/contract.ts` est généré depuis le code Rust.
export type { AbsencesAnswer, ReplacedAnswer, RotaAnswer, TechniciansAnswer } from './generated/contract';
/** Ligne de `GET /app/api/technicians` (celle de `GET /api/v2/technicians`). */
export type Technician = TechnicianView;
export type Shift = ShiftView;
export type RotaWeek = WeekView;
export type Absence = AbsenceView;

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

const PARIS_DAY_TIME = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
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

/** Horodatage ISO → `23/11/2026 08:00`, heure de Paris ; `null` → `—`. */
export function formatParis(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : PARIS_DAY_TIME.format(date).replace(',', '');
}

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
