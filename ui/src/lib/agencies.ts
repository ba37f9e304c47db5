/**
 * Écran « Agence », rubrique « Agences » : les agences de l'organisation telles
 * que leurs administrateurs les gèrent (`/app/api/agencies…`, réservé aux
 * administrateurs). Types de l'API, ce que la ligne d'une agence affiche
 * (statut, identité incomplète), le nom vérifié avec les règles et les
 * messages du serveur (`services/agencies.rs`), les messages après chaque
 * action, et les appels à l'API.
 */
import { api } from './api';
import { formatDay } from './format';
import type {
  AgenciesAnswer,
  AgencyEntryWire,
  ArchiveAnswer,
  NewAgencyBody,
  RenameBody,
  StoppedWire,
} from './generated/contract';

// Les réponses viennent du serveur : `generated/contract.ts` est généré depuis le code Rust.
export type {
  AgenciesAnswer,
  AgencyEntryWire,
  ArchiveAnswer,
  NewAgencyBody,
  RenameBody,
  StoppedWire,
} from './generated/contract';

export const AGENCIES_PATH = '/app/api/agencies';

// -- Appels à l'API ---------------------------------------------------------------

const agencyPath = (id: string, action?: string) =>
  `${AGENCIES_PATH}/${encodeURIComponent(id)}${action ? `/${action}` : ''}`;

/** `GET /agencies` : les agences (en activité d'abord), et si la session peut en créer. */
export function listAgencies(): Promise<AgenciesAnswer> {
  return api.get<AgenciesAnswer>(AGENCIES_PATH);
}

/** `POST /agencies` (201) : l'agence créée (administrateurs de l'organisation). */
export function createAgency(body: NewAgencyBody): Promise<AgencyEntryWire> {
  return api.post<AgencyEntryWire>(AGENCIES_PATH, body);
}

/** `PATCH /agencies/{id}` : l'agence renommée, relue. */
export function renameAgency(id: string, body: RenameBody): Promise<AgencyEntryWire> {
  return api.patch<AgencyEntryWire>(agencyPath(id), body);
}

/** `POST /agencies/{id}/archive` : l'agence archivée, et ce que l'archivage a arrêté. */
export function archiveAgency(id: string): Promise<ArchiveAnswer> {
  return api.post<ArchiveAnswer>(agencyPath(id, 'archive'));
}

/** `POST /agencies/{id}/restore` : l'agence réactivée (ses clés révoquées le restent). */
export function restoreAgency(id: string): Promise<AgencyEntryWire> {
  return api.post<AgencyEntryWire>(agencyPath(id, 'restore'));
}

// -- Une agence dans la liste -----------------------------------------------------

export interface AgencyStatus {
  label: string;
  tone: 'success' | 'neutral';
}

/** « En activité », ou « Archivée le 28/11/2026 ». */
export function statusOf(agency: Pick<AgencyEntryWire, 'archivedAt'>): AgencyStatus {
  if (agency.archivedAt === null) return { label: 'En activité', tone: 'success' };
  return { label: `Archivée le ${formatDay(agency.archivedAt)}`, tone: 'neutral' };
}

/**
 * Libellés de ce qui manque à l'identité pour émettre une facture
 * (`missingToIssue`) ; la rue, le code postal et la ville de l'agence sont
 * tous « adresse » (nommée une fois) ; le n° de TVA intracommunautaire,
 * exigé pour émettre toute pièce (facturation électronique) ; la série de
 * numérotation, exigée dès que l'organisation a plusieurs agences.
 */
export const MISSING_LABELS: Record<string, string> = {
  siret: 'SIRET',
  address: 'adresse',
  postalCode: 'adresse',
  city: 'adresse',
  vatNumber: 'n° de TVA intracommunautaire',
  invoiceSeries: 'série de numérotation',
};

/** `['siret', 'address', 'postalCode', 'city']` → « Identité incomplète : SIRET, adresse » ; `null` si rien ne manque. */
export function missingIdentityText(missing: readonly string[]): string | null {
  if (missing.length === 0) return null;
  const labels = [...new Set(missing.map((code) => MISSING_LABELS[code] ?? code))];
  return `Identité incomplète : ${labels.join(', ')}`;
}

/** Ce que la ligne d'une agence propose, comme le serveur le permet. */
export interface AgencyActions {
  rename: boolean;
  archive: boolean;
  restore: boolean;
}

/** « Renommer » (une agence en activité), « Archiver » ou « Réactiver » selon son état. */
export function actionsFor(agency: Pick<AgencyEntryWire, 'archivedAt' | 'canRename' | 'canArchive'>): AgencyActions {
  const archived = agency.archivedAt !== null;
  return {
    rename: agency.canRename && !archived,
    archive: agency.canArchive && !archived,
    restore: agency.canArchive && archived,
  };
}

// -- Le nom (les règles et les messages du serveur) -------------------------------

/** Longueur maximale du nom d'une agence, en caractères (`MAX_NAME_CHARS`). */
export const MAX_AGENCY_NAME_CHARS = 200;

/** Le nom : obligatoire, 200 caractères au plus (`checked_name`). */
export function checkAgencyName(raw: string): string | undefined {
  const name = raw.trim();
  if (name === '') return "Le nom de l'agence est obligatoire.";
  if ([...name].length > MAX_AGENCY_NAME_CHARS) {
    return `Le nom de l'agence ne doit pas dépasser ${MAX_AGENCY_NAME_CHARS} caractères.`;
  }
  return undefined;
}

/** Le corps de `POST /agencies` : le nom seul (l'identité se renseigne ensuite, rubrique « Identité »). */
export function newAgencyBody(name: string): NewAgencyBody {
  return { name: name.trim() };
}

/** Le corps de `PATCH /agencies/{id}`, ou `null` si le nom n'a pas changé (rien à envoyer). */
export function renameBody(agency: Pick<AgencyEntryWire, 'name'>, name: string): RenameBody | null {
  const trimmed = name.trim();
  return trimmed === agency.name ? null : { name: trimmed };
}

/** Un refus du serveur qui porte sur le nom (vide, trop long, déjà pris) : le champ est signalé. */
export function refusesName(message: string): boolean {
  return /^Le nom de l'agence |s'appelle déjà « /u.test(message);
}

// -- Messages ---------------------------------------------------------------------

/** Après la création : où la trouver, et ce qu'il reste à faire avant de facturer. */
export function createdMessage(agency: Pick<AgencyEntryWire, 'name'>): string {
  return `Agence « ${agency.name} » créée. Choisissez-la dans le sélecteur d'agence puis renseignez son identité (SIRET, adresse, n° de TVA intracommunautaire) avant d'émettre des factures.`;
}

export function renamedMessage(before: string, after: Pick<AgencyEntryWire, 'name'>): string {
  return `Agence « ${before} » renommée « ${after.name} ».`;
}

const count = (n: number, one: string, many: string, none: string) =>
  n === 0 ? none : `${n} ${n > 1 ? many : one}`;

/** Ce que l'archivage a arrêté, compté : « 2 clés de centre d'appels révoquées »… */
export function stoppedParts(stopped: StoppedWire): string[] {
  return [
    count(
      stopped.callCenterKeys,
      "clé de centre d'appels révoquée",
      "clés de centre d'appels révoquées",
      "aucune clé de centre d'appels révoquée",
    ),
    count(
      stopped.partnerKeys,
      'clé partenaire retirée',
      'clés partenaires retirées',
      'aucune clé partenaire retirée',
    ),
    count(
      stopped.webhookSubscriptions,
      'abonnement webhook révoqué',
      'abonnements webhook révoqués',
      'aucun abonnement webhook révoqué',
    ),
  ];
}

/** `['a', 'b', 'c']` → « a, b et c ». */
function sentenceList(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} et ${parts[parts.length - 1]}`;
}

/** Après l'archivage : ce qui a été arrêté. */
export function archivedMessage(agency: Pick<AgencyEntryWire, 'name'>, stopped: StoppedWire): string {
  const none = stopped.callCenterKeys === 0 && stopped.partnerKeys === 0 && stopped.webhookSubscriptions === 0;
  if (none) {
    return `Agence « ${agency.name} » archivée. Elle n'avait ni clé de centre d'appels, ni clé partenaire, ni abonnement webhook actifs. Son historique est conservé.`;
  }
  const parts = sentenceList(stoppedParts(stopped));
  return `Agence « ${agency.name} » archivée : ${parts}. Son historique est conservé.`;
}

/** Quand l'agence archivée était l'agence active : celle où la session agit désormais. */
export function movedMessage(agencyName: string): string {
  return `Vous agissez maintenant dans l'agence « ${agencyName} ».`;
}

/** Ce qu'une réactivation ne rend pas. */
export const RESTORE_NOTE =
  "Les clés de centre d'appels et les abonnements webhook révoqués à l'archivage restent révoqués, et les clés partenaires ne la servent plus : créez-en de nouveaux si besoin.";

export function restoredMessage(agency: Pick<AgencyEntryWire, 'name'>): string {
  return `Agence « ${agency.name} » réactivée : elle revient dans le périmètre de ses comptes. ${RESTORE_NOTE}`;
}

/** Le sélecteur d'agence de l'en-tête n'a pas pu être relu (l'action, elle, a réussi). */
export const SESSION_NOT_REFRESHED =
  "Le sélecteur d'agence sera mis à jour au prochain chargement de la page.";
