/**
 * Appels de panne : types des réponses de `/app/api/calls…`, libellés, validation
 * du formulaire « Nouvel appel » (les règles du serveur, celles de l'API des
 * centres d'appels), lecture des événements du flux en direct, et les appels
 * à l'API des appels.
 */
import { api } from './api';
import {
  CALL_STATUSES,
  CALL_TYPES as CALL_TYPE_CHOICES,
  type Board,
  type CallDetail,
  type CallListEntry,
  type CallStatus,
  type CallType,
  type Column,
  type EquipmentChoices,
  type NewCall,
  type Page,
  type TechnicianChoice,
  type TimelineEntry,
} from './generated/contract';

// Les réponses, les statuts et les types d'appel avec leurs libellés viennent
// du serveur : `generated/contract.ts` est généré depuis le code Rust.
export type {
  Board,
  CallDetail,
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
export type ColumnPage = Page<CallListEntry>;

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
  change: 'ouvert' | 'affecte' | 'statut';
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

/** `POST /calls/{id}/status` : fait passer l'appel au statut `statut`. */
export function setCallStatus(id: string, statut: CallStatus): Promise<void> {
  return api.post<void>(`/app/api/calls/${encodeURIComponent(id)}/status`, { statut });
}

/** `GET /calls/equipment?q=` : les appareils du parc qui répondent au numéro saisi. */
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
    if (!['ouvert', 'affecte', 'statut'].includes(event.change as string)) return null;
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
  equipement: string;
  type: string;
  description: string;
  appelant: string;
}

export interface NewCallErrors {
  equipement?: string;
  type?: string;
  description?: string;
  appelant?: string;
}

/** Nombre de caractères comme le serveur les compte (points de code, pas unités UTF-16). */
export function charCount(text: string): number {
  return Array.from(text).length;
}

export const NEW_CALL_MESSAGES = {
  equipmentRequired: "Saisissez le numéro de l'appareil dans le parc de l'agence.",
  typeRequired: "Choisissez le type d'appel.",
  description: (count: number) =>
    `La description doit compter de ${LIMITS.descriptionMin} à ${LIMITS.descriptionMax} caractères (actuellement : ${count}).`,
  caller: (count: number) => `L'appelant doit compter au plus ${LIMITS.callerMax} caractères (actuellement : ${count}).`,
} as const;

/** Les règles du serveur : appareil obligatoire, type connu, description de 3 à 1000 caractères, appelant ≤ 120. */
export function validateNewCall(input: NewCallInput): NewCallErrors {
  const errors: NewCallErrors = {};
  if (input.equipement.trim() === '') errors.equipement = NEW_CALL_MESSAGES.equipmentRequired;
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

/** Le corps de `POST /app/api/calls` : l'appelant vide n'est pas envoyé. */
export function newCallBody(input: NewCallInput): Record<string, string> {
  const body: Record<string, string> = {
    equipement: input.equipement.trim(),
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
