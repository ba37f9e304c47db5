/**
 * Menu principal (`components/AppNav.svelte`) : la largeur sous laquelle il
 * est replié en rail, et le choix « replié » des écrans larges, gardé dans le
 * navigateur (`localStorage`). Sous cette largeur le menu est toujours replié
 * et s'ouvre par-dessus le contenu : rien n'y est gardé.
 */

/** Sous 1280 px (80rem) le menu est replié : le contenu garde la place. */
export const NARROW_MENU_QUERY = '(max-width: 79.99rem)';

/** Clé du choix des écrans larges : `replie` ou absente (déplié). */
export const MENU_STORAGE_KEY = 'liftdesk.menu';

/** Le stockage du navigateur, s'il est permis (un mode privé peut le refuser). */
export function browserStorage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

/** L'écran est-il sous la largeur du menu replié ? */
export function narrowScreen(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(NARROW_MENU_QUERY).matches
    : false;
}

/** Le choix gardé pour les écrans larges : replié ou non (déplié par défaut). */
export function readMenuFolded(storage: Pick<Storage, 'getItem'> | null): boolean {
  try {
    return storage?.getItem(MENU_STORAGE_KEY) === 'replie';
  } catch {
    return false;
  }
}

/** Garde le choix (sans stockage, ou s'il refuse : il vaut pour la page seulement). */
export function saveMenuFolded(storage: Pick<Storage, 'setItem' | 'removeItem'> | null, folded: boolean): void {
  try {
    if (folded) storage?.setItem(MENU_STORAGE_KEY, 'replie');
    else storage?.removeItem(MENU_STORAGE_KEY);
  } catch {
    // Stockage plein ou interdit : le choix n'est pas gardé.
  }
}
