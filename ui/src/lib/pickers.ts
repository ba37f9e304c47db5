/**
 * Les recherches des deux sélecteurs partagés : `EquipmentPicker` (un
 * appareil du parc, par numéro, immeuble ou adresse : `GET /calls/equipment`,
 * la même recherche pour « Nouvel appel », « Nouveau devis » et « Nouvelle
 * visite ») et `ClientPicker` (un client actif, par nom, identifiant ou
 * adresse : `GET /clients?archived=active&limit=8`) ; ce qu'un choix affiche
 * (titre et seconde ligne), et la relecture d'un client choisi gardé dans
 * l'adresse d'un écran (`GET /clients/{id}`).
 */
import { api } from './api';
import type { ClientDetail, ClientView, EquipmentChoice, EquipmentChoices } from './generated/contract';

export type { EquipmentChoice } from './generated/contract';

/** La réponse d'une recherche, telle que `SearchPicker` la prend. */
export interface PickerAnswer<T> {
  items: T[];
  total?: number;
}

// -- Appareils ---------------------------------------------------------------------

/** Le titre d'un appareil dans la liste et dans « Choisi : » : son numéro, sinon « Sans numéro ». */
export function equipmentTitle(choice: Pick<EquipmentChoice, 'number'>): string {
  return choice.number?.trim() || 'Sans numéro';
}

/** La seconde ligne d'un appareil : « immeuble · adresse » (ce qui est connu). */
export function equipmentDetail(choice: Pick<EquipmentChoice, 'building' | 'address'>): string {
  return [choice.building, choice.address]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' · ');
}

/**
 * Ce que le champ montre une fois l'appareil choisi : le numéro, ou pour un
 * appareil sans numéro son immeuble ou son adresse (jamais un identifiant).
 */
export function equipmentText(choice: EquipmentChoice): string {
  return choice.number?.trim() || choice.building?.trim() || choice.address?.trim() || 'Sans numéro';
}

/** `GET /calls/equipment?q=` : les appareils (non archivés) qui répondent au texte, 10 au plus. */
export async function searchEquipmentChoices(q: string): Promise<PickerAnswer<EquipmentChoice>> {
  const answer = await api.get<EquipmentChoices>(`/app/api/calls/equipment?q=${encodeURIComponent(q)}`);
  return { items: answer.results ?? [], total: answer.total };
}

// -- Clients -----------------------------------------------------------------------

/**
 * Un client choisi : une fiche (`ClientView`) ou une ligne de `GET /clients`
 * (`ClientListEntry`). `id` est l'identifiant du client (« CLI-… »), celui que
 * prennent les factures (`clientId`, `GET /invoices?client=`) ; `fullAddress`,
 * son adresse sur une ligne, est donnée par l'une et l'autre, mais manque à
 * un choix refait d'après un brouillon ou une adresse d'écran (le nom seul).
 */
export type ClientChoice = Pick<ClientView, 'id' | 'name'> & Partial<Pick<ClientView, 'fullAddress'>>;

/** Nombre de clients proposés par une recherche. */
export const CLIENT_CHOICES = 8;

/** Les paramètres de la recherche d'un client : les clients actifs, 8 au plus. */
export function clientSearchQuery(q: string): string {
  const params = new URLSearchParams({ q: q.trim(), archived: 'active', limit: String(CLIENT_CHOICES) });
  return params.toString();
}

/** La seconde ligne d'un client : « CLI-000012 · 12 rue des Lilas, 75011 Paris ». */
export function clientDetail(client: ClientChoice): string {
  return [client.id, client.fullAddress?.trim()].filter(Boolean).join(' · ');
}

/** `GET /clients?q=…&archived=active&limit=8` : les clients actifs qui répondent au texte. */
export async function searchClientChoices(q: string): Promise<PickerAnswer<ClientChoice>> {
  const answer = await api.get<{ total: number; results: ClientChoice[] }>(`/app/api/clients?${clientSearchQuery(q)}`);
  return { items: answer.results ?? [], total: answer.total };
}

/** `GET /clients/{id}` : le client d'un identifiant (un filtre relu dans l'adresse). */
export async function getClientChoice(id: string): Promise<ClientView> {
  const detail = await api.get<ClientDetail>(`/app/api/clients/${encodeURIComponent(id)}`);
  return detail.client;
}
