/**
 * Appels de panne : types des réponses de `/app/api/calls…`, libellés, validation
 * du formulaire « Nouvel appel » (les règles du serveur, celles de l'API des
 * centres d'appels), lecture des événements du flux en direct, et les appels
 * à l'API des appels.
 */
import { api } from './api';

export const STATUSES = ['ouverte', 'en_route', 'sur_place', 'a_l_arret', 'resolue'] as const;
export type CallStatus = (typeof STATUSES)[number];

export const CALL_TYPES = ['personne_bloquee', 'panne', 'vandalisme', 'bruit'] as const;
export type CallType = (typeof CALL_TYPES)[number];

/** Libellés des types, comme le serveur les nomme. */
export const TYPE_LABELS: Record<CallType, string> = {
  personne_bloquee: 'Personne bloquée',
  panne: 'Panne',
  vandalisme: 'Vandalisme',
  bruit: 'Bruit anormal',
};

/** Titres des colonnes du tableau. */
export const STATUS_LABELS: Record<CallStatus, string> = {
  ouverte: 'Ouverte',
  en_route: 'Technicien en route',
  sur_place: 'Technicien sur place',
  a_l_arret: "Appareil à l'arrêt",
  resolue: 'Résolue',
};

export interface NamedRef {
  id: string;
  name: string;
}

export interface CallEquipment {
  id: string;
  number: string | null;
  link: string;
  url: string;
}

/** Une ligne d'une colonne du tableau. */
export interface CallListEntry {
  id: string;
  reference: string;
  statut: CallStatus;
  libelle: string;
  type: CallType;
  urgence: boolean;
  recuLe: string;
  appelant: string | null;
  equipment: CallEquipment;
  building: string | null;
  address: string | null;
  technician: NamedRef | null;
  link: string;
  url: string;
}

export interface BoardColumn {
  statut: CallStatus;
  libelle: string;
  total: number;
  page: number;
  limit: number;
  results: CallListEntry[];
}

export interface Board {
  resolvedSinceHours: number;
  columns: BoardColumn[];
}

export interface ColumnPage {
  total: number;
  page: number;
  limit: number;
  results: CallListEntry[];
}

export interface CallRead {
  id: string;
  reference: string;
  statut: CallStatus;
  libelle: string;
  arriveLe: string | null;
  resoluLe: string | null;
  recuLe: string;
  type: CallType;
  urgence: boolean;
  description: string;
  appelant: string | null;
  equipment: CallEquipment;
  technician: NamedRef | null;
  center: NamedRef | null;
  link: string;
  url: string;
}

export interface TimelineEntry {
  at: string;
  step: 'recu' | 'affecte' | CallStatus;
  label: string;
  technician: string | null;
  by: { kind: 'centre' | 'personnel' | 'jeton' | 'partenaire' | 'cli' | 'systeme'; name: string } | null;
}

export interface TechnicianChoice {
  id: string;
  name: string;
  sectors: string | null;
  onCall: boolean;
  openCalls: number;
  suggested: boolean;
}

export interface CallDetail {
  call: CallRead;
  typeLabel: string;
  building: string | null;
  address: string | null;
  timeline: TimelineEntry[];
  nextStatuses: { statut: CallStatus; libelle: string }[];
  technicians: {
    choices: TechnicianChoice[];
    unavailable: { id: string; name: string; reason: string }[];
  };
}

export interface EquipmentChoice {
  id: string;
  number: string | null;
  building: string | null;
  address: string | null;
}

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
export function searchCallEquipment(q: string): Promise<{ total: number; results: EquipmentChoice[] }> {
  return api.get<{ total: number; results: EquipmentChoice[] }>(`/app/api/calls/equipment?q=${encodeURIComponent(q)}`);
}

/** `POST /calls` : un appel pris à l'agence (corps de `newCallBody`). */
export function createCall(body: Record<string, string>): Promise<{ id: string }> {
  return api.post<{ id: string }>('/app/api/calls', body);
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
