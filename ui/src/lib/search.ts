/**
 * Champ « Rechercher » de l'en-tête (`/` ou Ctrl+K) : ce qui ne dépend ni du
 * temps ni de la page — la requête de `GET /app/api/search`, les résultats mis
 * à plat pour le clavier (flèches haut et bas d'un groupe à l'autre), le
 * déplacement de la surbrillance, la reconnaissance des raccourcis et les
 * messages sous le champ — et l'appel à l'API.
 */
import { api } from './api';
import type { SearchAnswer, SearchGroup, SearchHit } from './generated/contract';

// Les réponses viennent du serveur : `generated/contract.ts` est généré depuis le code Rust.
export type { SearchAnswer, SearchGroup, SearchHit } from './generated/contract';

export const SEARCH_PATH = '/app/api/search';

/** En dessous, le serveur ne cherche pas (`{groups: []}`) : le champ n'appelle pas. */
export const SEARCH_MIN_CHARS = 2;

/** Délai après la dernière frappe avant d'interroger le serveur. */
export const SEARCH_DEBOUNCE_MS = 200;

export const SEARCH_LABEL = 'Rechercher';
export const SEARCH_PLACEHOLDER = 'Rechercher (/) : équipement, client, facture, devis, appel';
export const SEARCH_HINT = `Saisissez au moins ${SEARCH_MIN_CHARS} caractères.`;

/** Le texte envoyé : celui du champ sans les espaces autour. */
export function searchText(raw: string): string {
  return raw.trim();
}

/** Assez de caractères pour interroger le serveur. */
export function isSearchable(raw: string): boolean {
  return [...searchText(raw)].length >= SEARCH_MIN_CHARS;
}

/** Les paramètres de `GET /search` : `q=<texte rogné>`. */
export function searchQuery(raw: string): string {
  return new URLSearchParams({ q: searchText(raw) }).toString();
}

/** `GET /search?q=` : les résultats groupés par genre (seulement les genres qui ont trouvé). */
export function searchAll(raw: string, signal?: AbortSignal): Promise<SearchAnswer> {
  return api.get<SearchAnswer>(`${SEARCH_PATH}?${searchQuery(raw)}`, { signal });
}

/** Un résultat de la liste mise à plat : sa place (toutes catégories confondues) et son groupe. */
export interface FlatHit {
  index: number;
  kind: string;
  groupLabel: string;
  hit: SearchHit;
}

/** Un groupe tel qu'affiché : son intitulé et ses résultats numérotés. */
export interface IndexedGroup {
  kind: string;
  label: string;
  hits: FlatHit[];
}

/** Les groupes, leurs résultats numérotés de 0 dans l'ordre de l'affichage (tous groupes confondus). */
export function indexGroups(groups: readonly SearchGroup[]): IndexedGroup[] {
  let index = 0;
  return groups
    .filter((group) => group.hits.length > 0)
    .map((group) => ({
      kind: group.kind,
      label: group.label,
      hits: group.hits.map((hit) => ({ index: index++, kind: group.kind, groupLabel: group.label, hit })),
    }));
}

/** Les résultats dans l'ordre de l'affichage, numérotés de 0 pour les flèches. */
export function flattenGroups(groups: readonly SearchGroup[]): FlatHit[] {
  return indexGroups(groups).flatMap((group) => group.hits);
}

/**
 * La surbrillance après une flèche (`delta` +1 en bas, -1 en haut) parmi
 * `count` résultats ; -1 : aucune. Sans surbrillance, ↓ va au premier, ↑ au
 * dernier ; après le dernier on revient au premier, avant le premier au dernier.
 */
export function moveIndex(current: number, delta: number, count: number): number {
  if (count <= 0) return -1;
  if (current < 0 || current >= count) return delta >= 0 ? 0 : count - 1;
  return (((current + delta) % count) + count) % count;
}

/** Le résultat qu'ouvre Entrée : celui en surbrillance, sinon le premier. */
export function hitToOpen(flat: readonly FlatHit[], active: number): FlatHit | null {
  return flat[active] ?? flat[0] ?? null;
}

/** Ce que l'on lit d'une cible d'évènement clavier (un élément, ou autre chose). */
export interface TargetLike {
  tagName?: string;
  isContentEditable?: boolean;
}

/** Ce que l'on lit d'un évènement clavier. */
export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  isComposing?: boolean;
  defaultPrevented?: boolean;
  target?: unknown;
}

const EDITABLE_TAGS = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** La frappe va dans un champ (input, textarea, select, contenu éditable). */
export function isEditableTarget(target: unknown): boolean {
  if (!target || typeof target !== 'object') return false;
  const element = target as TargetLike;
  if (element.isContentEditable === true) return true;
  return typeof element.tagName === 'string' && EDITABLE_TAGS.has(element.tagName.toUpperCase());
}

/**
 * La touche demande le champ de recherche : Ctrl+K ou Cmd+K de partout, `/`
 * (sans Ctrl, Cmd ni Alt ; Maj permise, `/` en demande une sur un clavier
 * AZERTY) hors d'un champ de saisie.
 */
export function isSearchShortcut(event: KeyLike): boolean {
  if (event.defaultPrevented || event.isComposing) return false;
  if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') return true;
  if (event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey) {
    return !isEditableTarget(event.target);
  }
  return false;
}

export function noResultsMessage(raw: string): string {
  return `Aucun résultat pour « ${searchText(raw)} ».`;
}

/** Ce que l'on sait de la recherche en cours pour en dire l'état. */
export interface SearchState {
  /** Le texte du champ. */
  text: string;
  /** Le texte dont la réponse est là (`null` : aucune). */
  answeredFor: string | null;
  groups: readonly SearchGroup[];
  /** Le message d'erreur du serveur pour le dernier texte envoyé. */
  error: string | null;
}

/**
 * Le message sous le champ : rien pour un champ vide ; l'indication tant qu'il
 * y a moins de 2 caractères ; l'erreur du serveur ; « Aucun résultat… » quand
 * la réponse du texte affiché est vide ; rien sinon (les résultats, ou la
 * réponse attendue).
 */
export function searchMessage(state: SearchState): string {
  const text = searchText(state.text);
  if (text === '') return '';
  if (!isSearchable(text)) return SEARCH_HINT;
  if (state.error) return state.error;
  if (state.answeredFor === text && flattenGroups(state.groups).length === 0) return noResultsMessage(text);
  return '';
}

/** Pour les lecteurs d'écran : combien de résultats sont proposés. */
export function resultsCountText(count: number): string {
  if (count === 0) return '';
  return count === 1 ? '1 résultat.' : `${count} résultats.`;
}
