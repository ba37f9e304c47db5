/**
 * Appels de panne : types des réponses de `/app/api/calls…`, libellés, validation
 * du formulaire « Nouvel appel » (les règles du serveur, celles de l'API des
 * centres d'appels), lecture des événements du flux en direct, et les appels
 * à l'API des appels ; le chrono et l'ordre des cartes, les alertes « personne
 * bloquée » à prendre en compte, et le rapport de clôture.
 */
import { api } from './api';
import {
  CALL_STATUSES,
  type AlertOut,
  CALL_TYPES as CALL_TYPE_CHOICES,
  type Board,
  type BoardCard,
  type CallDetail,
  type CommitmentOut,
  type CallStatus,
  type CallType,
  type Column,
  type EquipmentChoice,
  type EquipmentChoices,
  type NewCall,
  type Page,
  type ReportOut,
  type TechnicianChoice,
  type TimelineEntry,
} from './generated/contract';

// Les réponses, les statuts et les types d'appel avec leurs libellés viennent
// du serveur : `generated/contract.ts` est généré depuis le code Rust.
export type {
  Board,
  BoardCard,
  CallDetail,
  CommitmentOut,
  CallEquipment,
  CallListEntry,
  CallRead,
  CallStatus,
  CallType,
  EquipmentChoice,
  EquipmentChoices,
  NamedRef,
  NewCall,
  TechnicianChoice,
  TimelineEntry,
} from './generated/contract';
export type BoardColumn = Column;
export type ColumnPage = Page<BoardCard>;

/** Les statuts, dans l'ordre de la vie d'un appel. */
export const STATUSES: readonly CallStatus[] = CALL_STATUSES.map((s) => s.code);

/** Les types d'appel, dans l'ordre du serveur. */
export const CALL_TYPES: readonly CallType[] = CALL_TYPE_CHOICES.map((t) => t.code);

/** Libellés des types, comme le serveur les nomme. */
export const TYPE_LABELS = Object.fromEntries(CALL_TYPE_CHOICES.map((t) => [t.code, t.label])) as Record<
  CallType,
  string
>;

/** Titres des colonnes du tableau. */
export const STATUS_LABELS = Object.fromEntries(CALL_STATUSES.map((s) => [s.code, s.label])) as Record<
  CallStatus,
  string
>;

/** Un événement `appel` du flux `GET /app/api/calls/events`. */
export interface CallEvent {
  /** `prise_en_compte` : l'alerte d'une personne bloquée a été prise en compte sur un poste. */
  change: 'ouvert' | 'affecte' | 'statut' | 'prise_en_compte';
  id: string;
  reference: string;
  statut: CallStatus;
  type: CallType;
  urgence: boolean;
}

// -- Appels à l'API -------------------------------------------------------------

/** `GET /calls/board` : les colonnes du tableau, chacune à sa première page. */
export function getCallBoard(): Promise<Board> {
  return api.get<Board>('/app/api/calls/board');
}

/** `GET /calls?statut=…` : une autre page d'une colonne du tableau. */
export function listCallColumn(statut: CallStatus, page: number, limit: number): Promise<ColumnPage> {
  return api.get<ColumnPage>(`/app/api/calls?statut=${statut}&page=${page}&limit=${limit}`);
}

/** `GET /calls/{id}` : l'appel, son historique, les techniciens et les statuts possibles. */
export function getCall(id: string): Promise<CallDetail> {
  return api.get<CallDetail>(`/app/api/calls/${encodeURIComponent(id)}`);
}

/** `POST /calls/{id}/assign` : affecte un technicien (son nom, pour l'historique). */
export function assignCall(id: string, technicianId: string, technician: string | undefined): Promise<void> {
  return api.post<void>(`/app/api/calls/${encodeURIComponent(id)}/assign`, { technicianId, technician });
}

/**
 * `POST /calls/{id}/status` : fait passer l'appel au statut `statut` ; clore
 * (`resolue`) demande le rapport (`reportBody`).
 */
export function setCallStatus(id: string, statut: CallStatus, report?: ReturnType<typeof reportBody>): Promise<void> {
  return api.post<void>(`/app/api/calls/${encodeURIComponent(id)}/status`, report ? { statut, report } : { statut });
}

/**
 * `GET /calls/equipment?q=` : les appareils du parc qui répondent au texte
 * (numéro, immeuble, adresse) ; les sélecteurs passent par `pickers.ts`.
 */
export function searchCallEquipment(q: string): Promise<EquipmentChoices> {
  return api.get<EquipmentChoices>(`/app/api/calls/equipment?q=${encodeURIComponent(q)}`);
}

/** `POST /calls` : un appel pris à l'agence (corps de `newCallBody`). */
export function createCall(body: Record<string, string>): Promise<NewCall> {
  return api.post<NewCall>('/app/api/calls', body);
}

/** Lit les données d'un événement `appel` ; `null` si elles ne sont pas reconnues. */
export function parseCallEvent(data: string): CallEvent | null {
  try {
    const value: unknown = JSON.parse(data);
    if (!value || typeof value !== 'object') return null;
    const event = value as Record<string, unknown>;
    if (typeof event.id !== 'string' || typeof event.reference !== 'string') return null;
    if (!['ouvert', 'affecte', 'statut', 'prise_en_compte'].includes(event.change as string)) return null;
    if (!STATUSES.includes(event.statut as CallStatus)) return null;
    if (!CALL_TYPES.includes(event.type as CallType)) return null;
    return {
      change: event.change as CallEvent['change'],
      id: event.id,
      reference: event.reference,
      statut: event.statut as CallStatus,
      type: event.type as CallType,
      urgence: event.urgence === true,
    };
  } catch {
    return null;
  }
}

/** Un appel qui doit déclencher l'alerte : une personne bloquée vient d'être signalée. */
export function raisesAlert(event: CallEvent): boolean {
  return event.change === 'ouvert' && event.urgence;
}

// -- Nouvel appel -------------------------------------------------------------

/** Bornes du serveur (API des centres d'appels, mêmes règles pour un appel pris à l'agence). */
export const LIMITS = {
  descriptionMin: 3,
  descriptionMax: 1000,
  callerMax: 120,
} as const;

export interface NewCallInput {
  /** L'appareil choisi dans la liste (`EquipmentPicker`), ou `null`. */
  equipment: Pick<EquipmentChoice, 'id'> | null;
  type: string;
  description: string;
  appelant: string;
}

export interface NewCallErrors {
  equipment?: string;
  type?: string;
  description?: string;
  appelant?: string;
}

/** Nombre de caractères comme le serveur les compte (points de code, pas unités UTF-16). */
export function charCount(text: string): number {
  return Array.from(text).length;
}

export const NEW_CALL_MESSAGES = {
  equipmentRequired: "Choisissez l'appareil dans la liste.",
  typeRequired: "Choisissez le type d'appel.",
  description: (count: number) =>
    `La description doit compter de ${LIMITS.descriptionMin} à ${LIMITS.descriptionMax} caractères (actuellement : ${count}).`,
  caller: (count: number) => `L'appelant doit compter au plus ${LIMITS.callerMax} caractères (actuellement : ${count}).`,
} as const;

/** Les règles du serveur : appareil choisi, type connu, description de 3 à 1000 caractères, appelant ≤ 120. */
export function validateNewCall(input: NewCallInput): NewCallErrors {
  const errors: NewCallErrors = {};
  if (!input.equipment?.id) errors.equipment = NEW_CALL_MESSAGES.equipmentRequired;
  if (!CALL_TYPES.includes(input.type as CallType)) errors.type = NEW_CALL_MESSAGES.typeRequired;
  const description = charCount(input.description);
  if (
    input.description.trim() === '' ||
    description < LIMITS.descriptionMin ||
    description > LIMITS.descriptionMax
  ) {
    errors.description = NEW_CALL_MESSAGES.description(description);
  }
  const caller = charCount(input.appelant);
  if (caller > LIMITS.callerMax) errors.appelant = NEW_CALL_MESSAGES.caller(caller);
  return errors;
}

/**
 * Le corps de `POST /app/api/calls` : l'identifiant de l'appareil choisi
 * (`equipmentId`, qui vaut aussi pour un appareil sans numéro) ; l'appelant
 * vide n'est pas envoyé.
 */
export function newCallBody(input: NewCallInput): Record<string, string> {
  const body: Record<string, string> = {
    equipmentId: input.equipment?.id ?? '',
    type: input.type,
    description: input.description,
  };
  if (input.appelant.trim() !== '') body.appelant = input.appelant;
  return body;
}

// -- Affichage ------------------------------------------------------------------

/** « par Claire Durand », « par Astreinte Plus (centre d'appels) »… ; auteur inconnu des appels anciens. */
export function describeActor(by: TimelineEntry['by']): string {
  if (!by) return 'auteur non enregistré';
  switch (by.kind) {
    case 'centre':
      return `par ${by.name} (centre d'appels)`;
    case 'partenaire':
      return `par ${by.name} (partenaire)`;
    default:
      return `par ${by.name}`;
  }
}

/** Libellé d'un technicien dans la liste de choix. */
export function technicianOption(choice: TechnicianChoice): string {
  const parts = [choice.name];
  if (choice.onCall) parts.push(choice.suggested ? "d'astreinte (suggéré)" : "d'astreinte");
  parts.push(choice.openCalls === 0 ? 'aucun appel en cours' : `${choice.openCalls} appel${choice.openCalls > 1 ? 's' : ''} en cours`);
  if (choice.sectors) parts.push(choice.sectors);
  return parts.join(' · ');
}

/** Le technicien proposé d'office : celui d'astreinte suggéré, sinon aucun. */
export function suggestedTechnician(choices: TechnicianChoice[]): string {
  return choices.find((c) => c.suggested)?.id ?? '';
}

/** Libellé du bouton qui fait passer l'appel à `statut`. */
export function statusAction(statut: CallStatus): string {
  switch (statut) {
    case 'ouverte':
      return 'Remettre en attente';
    case 'en_route':
      return 'Technicien en route';
    case 'sur_place':
      return 'Technicien sur place';
    case 'a_l_arret':
      return "Appareil laissé à l'arrêt";
    case 'resolue':
      return 'Résolu (remis en service)';
  }
}

// -- Chrono et urgence ----------------------------------------------------------

/**
 * Le temps écoulé depuis la réception, à la minute près : « à l'instant »,
 * « il y a 12 min », « il y a 2 h 05 », « il y a 1 j 03 h ». `now` en ms.
 */
export function elapsedLabel(receivedAt: string, now: number): string {
  const at = new Date(receivedAt).getTime();
  if (Number.isNaN(at)) return '';
  const minutes = Math.max(0, Math.floor((now - at) / 60_000));
  if (minutes < 1) return "à l'instant";
  if (minutes < 60) return `il y a ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `il y a ${hours} h ${String(minutes % 60).padStart(2, '0')}`;
  return `il y a ${Math.floor(hours / 24)} j ${String(hours % 24).padStart(2, '0')} h`;
}

/** « 25 min », « 1 h 05 », « 2 j 03 h » : une durée en minutes. */
export function minutesLabel(minutes: number): string {
  const m = Math.max(0, Math.floor(minutes));
  if (m < 60) return `${m} min`;
  const hours = Math.floor(m / 60);
  if (hours < 24) return `${hours} h ${String(m % 60).padStart(2, '0')}`;
  return `${Math.floor(hours / 24)} j ${String(hours % 24).padStart(2, '0')} h`;
}

/**
 * Ce que la carte d'un appel couvert par un contrat dit de ses délais : le
 * temps restant avant l'échéance en cours (arrivée, puis remise en service),
 * ou le retard ; une fois tout fait, tenus ou dépassés (et la pénalité).
 */
export function commitmentLabel(c: CommitmentOut, now: number): { text: string; late: boolean } {
  const euros = (value: number) =>
    new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(value);
  const step = (what: string, due: string) => {
    const left = (new Date(due).getTime() - now) / 60_000;
    return left >= 0
      ? { text: `${what} : reste ${minutesLabel(left)}`, late: false }
      : { text: `${what} : en retard de ${minutesLabel(-left)}`, late: true };
  };
  if (!c.arrived) return step('Arrivée', c.arrivalDueAt);
  if (!c.restored) {
    if (c.arrivalLateMinutes > 0) {
      const restore = step('Remise en service', c.restoreDueAt);
      return { text: `Arrivé avec ${minutesLabel(c.arrivalLateMinutes)} de retard · ${restore.text}`, late: true };
    }
    return step('Remise en service', c.restoreDueAt);
  }
  return c.late
    ? { text: `Délais dépassés · pénalité ${euros(c.penalty)}`, late: true }
    : { text: 'Délais tenus', late: false };
}

/**
 * L'heure d'un bandeau : « à 08:05 » le jour même (heure locale du poste),
 * « le 28/11/2026 à 23:30 » pour un appel d'un autre jour (relu après coup).
 */
export function receivedAtLabel(at: Date, now: Date, time: Intl.DateTimeFormat): string {
  const sameDay = at.toDateString() === now.toDateString();
  if (sameDay) return `à ${time.format(at)}`;
  const day = new Intl.DateTimeFormat('fr-FR', { day: '2-digit', month: '2-digit', year: 'numeric' }).format(at);
  return `le ${day} à ${time.format(at)}`;
}

/** Un appel « personne bloquée » pas encore résolu. */
export function isOpenUrgent(call: { urgence: boolean; statut: CallStatus }): boolean {
  return call.urgence && call.statut !== 'resolue';
}

/** Les cartes d'une colonne : personne bloquée d'abord, puis la plus ancienne d'abord. */
export function byUrgency<T extends { urgence: boolean; recuLe: string }>(calls: readonly T[]): T[] {
  return [...calls].sort((a, b) => {
    if (a.urgence !== b.urgence) return a.urgence ? -1 : 1;
    return new Date(a.recuLe).getTime() - new Date(b.recuLe).getTime();
  });
}

/**
 * Les appels « personne bloquée » non résolus du tableau (la première page de
 * chaque colonne : le serveur y range ces appels en tête).
 */
export function openUrgentCount(board: Board): number {
  return board.columns.reduce((sum, column) => sum + column.results.filter(isOpenUrgent).length, 0);
}

/** Le préfixe du titre de l'onglet : « (2) », vide sans appel urgent. */
export function urgentTitlePrefix(count: number): string {
  return count > 0 ? `(${count})` : '';
}

// -- Alertes « personne bloquée » non prises en compte ---------------------------

/** Une ligne de `GET /app/api/calls/alerts`. */
export type CallAlert = AlertOut;

/** `GET /calls/alerts` : les appels « personne bloquée » non résolus que personne n'a pris en compte. */
export function listCallAlerts(): Promise<CallAlert[]> {
  return api.get<CallAlert[]>('/app/api/calls/alerts');
}

/** `POST /calls/{id}/acknowledge` : « J'ai pris en compte » l'alerte (idempotent). */
export function acknowledgeCall(id: string): Promise<void> {
  return api.post<void>(`/app/api/calls/${encodeURIComponent(id)}/acknowledge`, {});
}

// -- Rapport de clôture ------------------------------------------------------------

/** Le rapport d'un appel résolu (`report` de `GET /calls/{id}` et du carnet d'entretien). */
export type CallReport = ReportOut;

export interface ReportInput {
  cause: string;
  work: string;
  parts: string;
  /** `YYYY-MM-DDTHH:MM`, heure de Paris (un champ `datetime-local`). */
  backInServiceAt: string;
}

export type ReportErrors = Partial<Record<keyof ReportInput, string>>;

export const REPORT_MESSAGES = {
  cause: "Pour clore l'appel, indiquez la cause de la panne.",
  work: "Pour clore l'appel, indiquez les travaux effectués.",
  backInServiceInvalid: 'Indiquez la date et l’heure de remise en service.',
  backInServiceBefore: (received: string) =>
    `La remise en service ne peut pas précéder la réception de l'appel (${received.replace('T', ' à ')}).`,
  backInServiceFuture: 'La remise en service ne peut pas être dans le futur.',
} as const;

const PARIS_PARTS = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** Un instant en heure de Paris, au format d'un champ `datetime-local` (`2026-11-29T08:05`). */
export function parisLocalInput(date: Date): string {
  const parts = Object.fromEntries(PARIS_PARTS.formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** Les règles du serveur : cause et travaux obligatoires, remise en service entre la réception et maintenant. */
export function validateReport(input: ReportInput, receivedAt: string, now: Date): ReportErrors {
  const errors: ReportErrors = {};
  if (input.cause.trim() === '') errors.cause = REPORT_MESSAGES.cause;
  if (input.work.trim() === '') errors.work = REPORT_MESSAGES.work;
  const at = input.backInServiceAt;
  if (at !== '') {
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(at)) errors.backInServiceAt = REPORT_MESSAGES.backInServiceInvalid;
    else {
      // Même format, même fuseau : l'ordre des chaînes est celui des instants (à la minute).
      const received = parisLocalInput(new Date(receivedAt));
      if (at < received) errors.backInServiceAt = REPORT_MESSAGES.backInServiceBefore(received);
      else if (at > parisLocalInput(now)) errors.backInServiceAt = REPORT_MESSAGES.backInServiceFuture;
    }
  }
  return errors;
}

/** Le `report` de `POST /calls/{id}/status` : pièces vides et heure vide (maintenant) non envoyées. */
export function reportBody(input: ReportInput): { cause: string; work: string; parts?: string; backInServiceAt?: string } {
  const body: { cause: string; work: string; parts?: string; backInServiceAt?: string } = {
    cause: input.cause.trim(),
    work: input.work.trim(),
  };
  if (input.parts.trim() !== '') body.parts = input.parts.trim();
  if (input.backInServiceAt !== '') body.backInServiceAt = input.backInServiceAt;
  return body;
}
