/**
 * Planning hebdomadaire : types des réponses de `/app/api/planning…` et
 * `/app/api/visits…`, calcul des jours, regroupement des visites par
 * technicien et par jour, validations des formulaires (mêmes règles et,
 * autant que possible, mêmes messages que le serveur), et les appels à l'API
 * du planning et des visites.
 */
import { api } from './api';
import { VISIT_STATUSES } from './generated/contract';
import type { EquipmentListEntry, EquipmentPlanOut, Page, ProposalLineOut, ProposalOut, VisitStatus, Saved, TechnicianOut, VisitOut, WeekEntry, WeekOut } from './generated/contract';

// Les réponses viennent du serveur : `generated/contract.ts` est généré depuis le code Rust.
export type { Saved } from './generated/contract';
export type PlanningTechnician = TechnicianOut;
/** Une visite de la semaine (`GET /planning`), avec son immeuble (`buildingId`, sa fiche). */
export type PlanningEntry = WeekEntry;
export type Week = WeekOut;
/** Le détail d'une visite (`GET /visits/{id}`), avec son immeuble (`buildingId`). */
export type VisitDetail = VisitOut;
export type EquipmentPlan = EquipmentPlanOut;

export type { VisitStatus } from './generated/contract';

/** Les libellés des statuts d'une visite, par code (la liste générée depuis le serveur). */
export const STATUS_LABELS = Object.fromEntries(VISIT_STATUSES.map((s) => [s.code, s.label])) as Record<
  VisitStatus,
  string
>;

/** Libellé du statut d'une visite (`status` des réponses) ; rien pour un statut absent ou inconnu. */
export function visitStatusLabel(status: string | null): string {
  return STATUS_LABELS[status as VisitStatus] ?? '';
}

/**
 * Une ligne de la proposition (`GET /planning/proposal`).
 */
export type ProposalLine = ProposalLineOut;

/** La proposition de la semaine prochaine (`ProposalOut`, avec les lignes ci-dessus). */
export type Proposal = ProposalOut;

/** Un équipement trouvé par la recherche de « Nouvelle visite » (`GET /planning/equipment`). */
export type EquipmentHit = EquipmentListEntry;

/** Une ligne de la proposition en cours de revue. */
export interface ReviewRow {
  line: ProposalLine;
  kept: boolean;
  technicianId: string;
  day: string;
}

// -- Jours ----------------------------------------------------------------------

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Un jour `AAAA-MM-JJ` valide du calendrier. */
export function isDay(text: string): boolean {
  const match = DAY_RE.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

function toUtc(day: string): Date {
  const [y = 1970, m = 1, d = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d));
}

/** `day` + `n` jours. */
export function addDays(day: string, n: number): string {
  const date = toUtc(day);
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
}

/** Le lundi de la semaine ISO de `day`. */
export function mondayOf(day: string): string {
  const weekday = (toUtc(day).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** Les sept jours (lundi → dimanche) de la semaine de `day`. */
export function weekOf(day: string): string[] {
  const monday = mondayOf(day);
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

const WEEKDAY = new Intl.DateTimeFormat('fr-FR', { weekday: 'long', timeZone: 'UTC' });
const SHORT = new Intl.DateTimeFormat('fr-FR', { day: '2-digit', month: '2-digit', timeZone: 'UTC' });
const LONG = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** `23/11`. */
export function shortDay(day: string): string {
  return SHORT.format(toUtc(day));
}

/** `lundi 23/11`. */
export function dayHeading(day: string): string {
  return `${WEEKDAY.format(toUtc(day))} ${SHORT.format(toUtc(day))}`;
}

const LONG_DAY = new Intl.DateTimeFormat('fr-FR', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });

/** `samedi 5 décembre`. */
export function longDay(day: string): string {
  return LONG_DAY.format(toUtc(day));
}

/** Samedi ou dimanche. */
export function isWeekend(day: string): boolean {
  const weekday = toUtc(day).getUTCDay();
  return weekday === 0 || weekday === 6;
}

/** `2026-11-30` → `30/11/2026` (sans passer par l'heure locale). */
function numericDay(day: string): string {
  return day.split('-').reverse().join('/');
}

/**
 * Ce qui doit être confirmé avant de mettre une visite au jour `day` : un
 * samedi ou un dimanche (« samedi 5 décembre est un week-end »), un jour après
 * l'échéance de son plan d'entretien (« samedi 5 décembre est après
 * l'échéance du 30/11/2026 »). Vide : rien à confirmer.
 */
export function moveWarnings(day: string, deadline: string | null | undefined): string[] {
  const warnings: string[] = [];
  if (isWeekend(day)) warnings.push(`${longDay(day)} est un week-end`);
  if (deadline && day > deadline) warnings.push(`${longDay(day)} est après l'échéance du ${numericDay(deadline)}`);
  return warnings;
}

/** Où est une visite : son jour et son technicien (`null` : non affectée). */
export interface VisitPlace {
  day: string;
  technicianId: string | null;
}

/** Un déplacement fait, que « Annuler le déplacement » défait. */
export interface DoneMove {
  visitId: string;
  label: string;
  from: VisitPlace;
  to: VisitPlace;
}

/**
 * Pourquoi un déplacement ne peut pas être défait par `POST /visits/{id}/move`,
 * ou `null` s'il le peut : un jour d'origine passé (refusé par le serveur).
 * Une visite qui était non affectée le redevient (`unassign`).
 */
export function undoRefusal(move: DoneMove, today: string): string | null {
  if (move.from.day < today) return `son jour d'origine, le ${numericDay(move.from.day)}, est passé`;
  return null;
}

/** Le corps de `POST /visits/{id}/move`. */
export interface MoveBody {
  plannedFor: string;
  technicianId?: string;
  /** La visite n'a plus de technicien : elle redevient non affectée. */
  unassign?: boolean;
}

/** Corps de `POST /visits/{id}/move` qui remet la visite à sa place d'avant (sans technicien s'il n'y en avait pas). */
export function undoBody(move: DoneMove): MoveBody {
  const body: MoveBody = { plannedFor: move.from.day };
  if (move.from.technicianId) body.technicianId = move.from.technicianId;
  else if (move.to.technicianId !== null) body.unassign = true;
  return body;
}

/** `Semaine du 23 au 29 novembre 2026` (ou `du 30 novembre au 6 décembre 2026`). */
export function weekTitle(monday: string): string {
  const sunday = addDays(monday, 6);
  const start = toUtc(monday);
  const end = toUtc(sunday);
  if (start.getUTCMonth() === end.getUTCMonth() && start.getUTCFullYear() === end.getUTCFullYear()) {
    return `Semaine du ${start.getUTCDate()} au ${LONG.format(end)}`;
  }
  const startText =
    start.getUTCFullYear() === end.getUTCFullYear()
      ? new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(start)
      : LONG.format(start);
  return `Semaine du ${startText} au ${LONG.format(end)}`;
}

// -- Grille -----------------------------------------------------------------------

export const UNASSIGNED = 'non-affecte';

export interface GridRow {
  /** Identifiant du technicien, ou `UNASSIGNED`. */
  key: string;
  technician: PlanningTechnician | null;
  name: string;
  /** Visites par jour (`AAAA-MM-JJ`). */
  cells: Record<string, PlanningEntry[]>;
  total: number;
}

/**
 * Les lignes de la grille : un technicien par ligne (dans l'ordre donné par le
 * serveur), plus une ligne « Non affectées » s'il existe des visites sans
 * technicien. `filter` garde les techniciens dont le nom ou les secteurs le
 * contiennent (casse et accents ignorés).
 */
export function gridRows(week: Week, filter = ''): GridRow[] {
  const wanted = fold(filter.trim());
  const byKey = new Map<string, GridRow>();
  const rows: GridRow[] = [];
  const emptyCells = () => Object.fromEntries(week.days.map((d) => [d, [] as PlanningEntry[]]));
  for (const technician of week.technicians) {
    const row: GridRow = { key: technician.id, technician, name: technician.name, cells: emptyCells(), total: 0 };
    byKey.set(technician.id, row);
    rows.push(row);
  }
  let unassigned: GridRow | null = null;
  for (const entry of week.entries) {
    let row = entry.technicianId ? byKey.get(entry.technicianId) : undefined;
    if (!row && !entry.technicianId) {
      unassigned ??= { key: UNASSIGNED, technician: null, name: 'Non affectées', cells: emptyCells(), total: 0 };
      row = unassigned;
    }
    if (!row) {
      row = { key: entry.technicianId ?? UNASSIGNED, technician: null, name: 'Technicien inconnu', cells: emptyCells(), total: 0 };
      byKey.set(row.key, row);
      rows.push(row);
    }
    (row.cells[entry.day ?? ''] ??= []).push(entry);
    row.total += 1;
  }
  if (unassigned) rows.push(unassigned);
  if (!wanted) return rows;
  return rows.filter(
    (row) => row.key === UNASSIGNED || fold(`${row.name} ${row.technician?.sectors ?? ''}`).includes(wanted),
  );
}

/** Minuscules sans accents. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** L'immeuble d'une visite tel que le montre son détail : le lien vers sa fiche et l'adresse qui le suit. */
export interface VisitBuilding {
  /** Le texte du lien (ou du texte seul, sans fiche) : le nom de l'immeuble, sinon son adresse. */
  name: string;
  /** L'identifiant de l'immeuble (`buildingLink`) ; `null` : pas de fiche à ouvrir, du texte seul. */
  buildingId: string | null;
  /** L'adresse montrée après le nom ; `null` quand elle sert déjà de nom, ou manque. */
  address: string | null;
}

/** L'immeuble d'une visite (semaine ou détail) ; `null` si la réponse n'en dit rien. */
export function visitBuilding(visit: {
  buildingId: string | null;
  building: string | null;
  address: string | null;
}): VisitBuilding | null {
  const building = visit.building?.trim() || null;
  const address = visit.address?.trim() || null;
  const name = building ?? address;
  if (!name) return null;
  return { name, buildingId: visit.buildingId || null, address: building ? address : null };
}

/** Cartes montrées d'office dans une case ; le reste se déplie. */
export const CELL_LIMIT = 3;

/** Les visites montrées d'une case : toutes si dépliée, sinon les `CELL_LIMIT` premières. */
export function visibleEntries(entries: PlanningEntry[], expanded: boolean): PlanningEntry[] {
  return expanded ? entries : entries.slice(0, CELL_LIMIT);
}

/** Pourquoi un technicien ne travaille pas ce jour-là (`null` s'il est disponible). */
export function dayOff(technician: PlanningTechnician | null, day: string): string | null {
  if (!technician) return null;
  if (technician.absentDays.includes(day)) return 'Absent';
  if (technician.restDays.includes(day)) return 'Repos de sécurité';
  return null;
}

// -- Validations --------------------------------------------------------------------

export type Errors = Record<string, string>;

/** Déplacement : un jour valide, pas dans le passé. */
export function validateMove(day: string, today: string): Errors {
  if (!isDay(day)) return { day: 'Choisissez un jour valide (JJ/MM/AAAA).' };
  if (day < today) return { day: 'Une visite ne peut pas être replanifiée dans le passé.' };
  return {};
}

/** Création : un équipement choisi, un jour valide, pas dans le passé. */
export function validateCreate(input: { equipmentId: string; day: string }, today: string): Errors {
  const errors: Errors = {};
  if (!input.equipmentId) errors.equipment = "Choisissez l'équipement à visiter.";
  if (!isDay(input.day)) errors.day = 'Choisissez un jour valide (JJ/MM/AAAA).';
  else if (input.day < today) errors.day = 'Une visite ne peut pas être planifiée dans le passé.';
  return errors;
}

export const MAX_SIGNED_BY = 200;
export const MAX_OBSERVATIONS = 4000;
/** Tolérance du serveur pour une heure « dans le futur » (horloge d'un téléphone). */
const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;

export interface CloseInput {
  /** Valeur d'un `<input type="datetime-local">` (heure locale), vide si non saisie. */
  arrivedAt: string;
  leftAt: string;
  signedBy: string;
  observations: string;
  /** Les obligations périodiques cochées (`cables`, `parachute`, `nettoyage`). */
  duties?: string[];
}

/** Les obligations périodiques d'un contrat d'entretien, dans l'ordre du serveur. */
export const DUTIES = [
  { code: 'cables', label: 'Contrôle des câbles', short: 'Câbles' },
  { code: 'parachute', label: 'Essai du parachute', short: 'Parachute' },
  { code: 'nettoyage', label: 'Nettoyage de la cuvette, du toit de cabine et du local des machines', short: 'Nettoyage' },
] as const;

/** « Câbles », « Parachute », « Nettoyage » : le nom court d'une obligation (son code sinon). */
export function dutyShort(code: string): string {
  return DUTIES.find((d) => d.code === code)?.short ?? code;
}

/**
 * La ligne d'une carte du planning : les obligations à faire à la visite
 * (« Câbles, Parachute (en retard) ») ou faites (« Câbles ✓ »).
 */
export function dutiesLine(duties: readonly { code: string; overdue: boolean; done: boolean }[]): string {
  return duties
    .map((d) => `${dutyShort(d.code)}${d.done ? ' ✓' : d.overdue ? ' (en retard)' : ''}`)
    .join(', ');
}

/**
 * Clôture. `started` : la visite a commencé (l'arrivée est déjà enregistrée,
 * `startedAt` en ISO). Sinon l'arrivée est obligatoire.
 */
export function validateClose(
  input: CloseInput,
  started: boolean,
  startedAt: string | null,
  now: Date,
): Errors {
  const errors: Errors = {};
  const limit = now.getTime() + FUTURE_TOLERANCE_MS;
  let arrival: number | null = started && startedAt ? new Date(startedAt).getTime() : null;
  if (!started) {
    if (!input.arrivedAt) errors.arrivedAt = "L'heure d'arrivée est obligatoire pour une visite qui n'a pas été commencée.";
    else {
      arrival = new Date(input.arrivedAt).getTime();
      if (Number.isNaN(arrival)) errors.arrivedAt = "Saisissez une heure d'arrivée valide.";
      else if (arrival > limit) errors.arrivedAt = "L'heure d'arrivée ne peut pas être dans le futur.";
    }
  }
  const departure = input.leftAt ? new Date(input.leftAt).getTime() : now.getTime();
  if (Number.isNaN(departure)) errors.leftAt = 'Saisissez une heure de départ valide.';
  else if (departure > limit) errors.leftAt = "L'heure de départ ne peut pas être dans le futur.";
  else if (arrival !== null && !errors.arrivedAt && departure < arrival) {
    errors.leftAt = "L'heure de départ ne peut pas précéder l'heure d'arrivée.";
  }
  const signedBy = input.signedBy.trim();
  if (!signedBy) errors.signedBy = 'Indiquez qui a signé le bon de visite.';
  else if ([...signedBy].length > MAX_SIGNED_BY) {
    errors.signedBy = `Le nom du signataire ne doit pas dépasser ${MAX_SIGNED_BY} caractères.`;
  }
  if ([...input.observations.trim()].length > MAX_OBSERVATIONS) {
    errors.observations = `Les observations ne doivent pas dépasser ${MAX_OBSERVATIONS} caractères.`;
  }
  return errors;
}

/** Corps de `POST /visits/{id}/complete` à partir du formulaire. */
export function closeBody(input: CloseInput, started: boolean): Record<string, string | string[]> {
  const body: Record<string, string | string[]> = { signedBy: input.signedBy.trim() };
  if (input.duties && input.duties.length > 0) body.duties = [...input.duties];
  if (!started && input.arrivedAt) body.arrivedAt = new Date(input.arrivedAt).toISOString();
  if (input.leftAt) body.leftAt = new Date(input.leftAt).toISOString();
  const observations = input.observations.trim();
  if (observations) body.observations = observations;
  return body;
}

export const MAX_INTERVAL_DAYS = 365;
export const LIFT_MAX_INTERVAL_DAYS = 42;

/** Intervalle d'entretien : un entier de 1 à 365 jours, 42 au plus pour un ascenseur. */
export function validateInterval(text: string, type: string | null): Errors {
  const value = text.trim();
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_INTERVAL_DAYS) {
    return { days: `L'intervalle entre deux visites doit être un nombre de jours entre 1 et ${MAX_INTERVAL_DAYS}.` };
  }
  if (type === 'ascenseur' && Number(value) > LIFT_MAX_INTERVAL_DAYS) {
    return {
      days: `Un ascenseur doit être visité au moins toutes les six semaines : ${LIFT_MAX_INTERVAL_DAYS} jours au plus.`,
    };
  }
  return {};
}

// -- Proposition ----------------------------------------------------------------------

export function reviewRows(proposal: Proposal): ReviewRow[] {
  return proposal.visits.map((line) => ({
    line,
    kept: true,
    technicianId: line.technicianId ?? '',
    day: line.day ?? '',
  }));
}

/** Une ligne enregistrée : `visitId`, la visite en retard que la ligne déplace (au lieu d'en créer une). */
export interface SavedLine {
  equipmentId: string;
  technicianId: string;
  day: string;
  visitId?: string;
}

/** Corps de `POST /planning/proposal` : les lignes gardées ; une visite en retard garde son identifiant. */
export function saveBody(rows: ReviewRow[]): { visits: SavedLine[] } {
  return {
    visits: rows
      .filter((row) => row.kept)
      .map((row) => ({
        equipmentId: row.line.equipmentId,
        technicianId: row.technicianId,
        day: row.day,
        ...(row.line.lateVisit ? { visitId: row.line.lateVisit.id } : {}),
      })),
  };
}

/**
 * Avertissements de revue, par ligne gardée : jour d'absence ou de repos du
 * technicien choisi, charge journalière dépassée (avec les visites déjà au
 * planning, `existing`, par « technicien|jour »). Le serveur refusera ces lignes.
 */
export function reviewWarnings(
  rows: ReviewRow[],
  technicians: PlanningTechnician[],
  existing: Record<string, number> = {},
): Map<ReviewRow, string> {
  const byId = new Map(technicians.map((t) => [t.id, t]));
  const load = new Map<string, number>(Object.entries(existing));
  const warnings = new Map<ReviewRow, string>();
  for (const row of rows) {
    if (!row.kept) continue;
    const technician = byId.get(row.technicianId);
    if (!technician) {
      warnings.set(row, 'Choisissez un technicien.');
      continue;
    }
    const off = dayOff(technician, row.day);
    if (off === 'Absent') {
      warnings.set(row, `${technician.name} est absent ce jour-là.`);
      continue;
    }
    if (off) {
      warnings.set(row, `${technician.name} est en repos de sécurité ce jour-là.`);
      continue;
    }
    const key = `${row.technicianId}|${row.day}`;
    const count = (load.get(key) ?? 0) + 1;
    load.set(key, count);
    if (count > technician.dailyCapacity) {
      warnings.set(row, `${technician.name} dépasse sa charge journalière (${technician.dailyCapacity} visites).`);
    }
  }
  return warnings;
}

/** Une page d'une liste tenue en mémoire (pages à partir de 1). */
export function pageOf<T>(items: T[], page: number, limit: number): T[] {
  const start = (Math.max(1, page) - 1) * limit;
  return items.slice(start, start + limit);
}

// -- Appels à l'API -------------------------------------------------------------------

/** `GET /planning` : la semaine du jour `day` (celle d'aujourd'hui sans jour). */
export function getWeek(day: string | null, signal?: AbortSignal): Promise<Week> {
  const query = day ? `?day=${day}` : '';
  return api.get<Week>(`/app/api/planning${query}`, { signal });
}

/** `GET /planning/proposal` : la proposition de la semaine prochaine. */
export function getProposal(): Promise<Proposal> {
  return api.get<Proposal>('/app/api/planning/proposal');
}

/** `POST /planning/proposal` : crée les visites gardées, en une fois. */
export function saveProposal(body: ReturnType<typeof saveBody>): Promise<Saved> {
  return api.post<Saved>('/app/api/planning/proposal', body);
}

/** `GET /planning/equipment?q=` : les équipements qui répondent à la recherche. */
export function searchPlanningEquipment(
  q: string,
  signal?: AbortSignal,
): Promise<Page<EquipmentHit>> {
  return api.get<Page<EquipmentHit>>(`/app/api/planning/equipment?q=${encodeURIComponent(q)}`, {
    signal,
  });
}

/** `GET /planning/equipment/{id}` : le plan d'entretien d'un équipement. */
export function getEquipmentPlan(equipmentId: string): Promise<EquipmentPlan> {
  return api.get<EquipmentPlan>(`/app/api/planning/equipment/${encodeURIComponent(equipmentId)}`);
}

/** `PUT /planning/equipment/{id}/interval` : l'intervalle d'entretien, en jours. */
export function setVisitInterval(equipmentId: string, days: number): Promise<void> {
  return api.put<void>(`/app/api/planning/equipment/${encodeURIComponent(equipmentId)}/interval`, { days });
}

/** `POST /visits` : une nouvelle visite (technicien `null` : non affectée). */
export function createVisit(body: {
  equipmentId: string;
  technicianId: string | null;
  plannedFor: string;
}): Promise<VisitDetail> {
  return api.post<VisitDetail>('/app/api/visits', body);
}

/** `GET /visits/{id}` : le détail d'une visite. */
export function getVisit(id: string): Promise<VisitDetail> {
  return api.get<VisitDetail>(`/app/api/visits/${encodeURIComponent(id)}`);
}

const visitPath = (id: string, action: string) => `/app/api/visits/${encodeURIComponent(id)}/${action}`;

/** `POST /visits/{id}/start` : la visite commence (arrivée maintenant). */
export function startVisit(id: string): Promise<void> {
  return api.post<void>(visitPath(id, 'start'), {});
}

/** `POST /visits/{id}/cancel-start` : annule le début de la visite. */
export function cancelVisitStart(id: string): Promise<void> {
  return api.post<void>(visitPath(id, 'cancel-start'));
}

/** `POST /visits/{id}/move` : nouveau jour et, s'il est donné, nouveau technicien. */
export function moveVisit(id: string, body: MoveBody): Promise<void> {
  return api.post<void>(visitPath(id, 'move'), body);
}

/** `POST /visits/{id}/complete` : clôture (corps de `closeBody`). */
export function completeVisit(id: string, body: Record<string, string | string[]>): Promise<void> {
  return api.post<void>(visitPath(id, 'complete'), body);
}
