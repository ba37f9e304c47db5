/**
 * Les adresses des fiches vers lesquelles pointent les liens des listes et des
 * fiches (un équipement, un client, un immeuble) : un seul endroit pour les écrire, avec
 * les identifiants que portent déjà les réponses de l'API.
 */
import { PATHS } from './router.svelte';

/** La fiche d'un équipement : `/equipements/<id>` (son identifiant interne). */
export function equipmentPath(id: string): string {
  return `${PATHS.equipment}/${encodeURIComponent(id)}`;
}

/** La fiche d'un client : `/clients/<CLI-…>` (son identifiant `client_id`, celui des factures et du parc). */
export function clientPath(clientId: string): string {
  return `${PATHS.clients}/${encodeURIComponent(clientId.trim())}`;
}

/** La fiche d'un immeuble : `/immeubles/<id>` (son identifiant interne, `buildingId` des réponses). */
export function buildingLink(id: string): string {
  return `${PATHS.buildings}/${encodeURIComponent(id)}`;
}
