/**
 * Routage minimal côté client : l'écran affiché dépend de `location.pathname`,
 * la navigation passe par `history.pushState`. Le serveur doit renvoyer
 * `index.html` pour tout chemin de l'interface (hors `/app/api/` et `/assets/`).
 */

/** Chemins connus de l'interface. Un écran reçoit aussi les sous-chemins du sien (`/appels/<id>`). */
export const PATHS = {
  home: '/',
  login: '/connexion',
  planning: '/planning',
  calls: '/appels',
  technicians: '/techniciens',
  equipment: '/equipements',
  clients: '/clients',
  /** Les contrats d'entretien, « Facturer les contrats » (`/contrats/facturation`) et les indices. */
  contracts: '/contrats',
  /** La fiche d'un immeuble (`/immeubles/<id>`) : pas de liste, les immeubles s'ouvrent depuis les fiches. */
  buildings: '/immeubles',
  surveys: '/releves',
  quotes: '/devis',
  invoices: '/factures',
  keys: '/cles',
  webhooks: '/webhooks',
  account: '/compte',
  imports: '/imports',
  agency: '/agence',
  journal: '/journal',
  settings: '/parametres',
} as const;

/** Le chemin de l'écran qui sert `path` : `/appels/123` → `/appels`. */
export function sectionOf(path: string): string {
  const first = normalizePath(path).split('/')[1] ?? '';
  return `/${first}`;
}

/** Ce qui suit le chemin de l'écran : `/appels/123` → `['123']`. */
export function subPath(path: string): string[] {
  return normalizePath(path).split('/').slice(2).filter(Boolean).map(decodeURIComponent);
}

/** Supprime la barre oblique finale (`/connexion/` → `/connexion`), sauf pour la racine. */
export function normalizePath(pathname: string): string {
  const path = pathname || '/';
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
}

class Router {
  path = $state(normalizePath(window.location.pathname));
  /** Les filtres de l'adresse (`?statut=ouverte`), posés par `navigate` ou par l'historique. */
  search = $state(window.location.search);

  constructor() {
    window.addEventListener('popstate', () => {
      this.path = normalizePath(window.location.pathname);
      this.search = window.location.search;
    });
  }

  /** `to` peut porter des filtres (`/factures?overdue=1`) : ils restent dans l'adresse, que l'écran lit. */
  navigate(to: string, { replace = false }: { replace?: boolean } = {}): void {
    const cut = to.indexOf('?');
    const path = normalizePath(cut < 0 ? to : to.slice(0, cut));
    const search = cut < 0 ? '' : to.slice(cut).replace(/^\?$/, '');
    if (path === this.path && search === window.location.search && !replace) return;
    if (replace) window.history.replaceState(null, '', path + search);
    else window.history.pushState(null, '', path + search);
    this.path = path;
    this.search = search;
  }

  /**
   * Gestionnaire de clic pour les liens internes (`<a href="/…" onclick={router.linkHandler}>`) :
   * navigation sans rechargement, sauf clic modifié (nouvel onglet…).
   */
  linkHandler = (event: MouseEvent): void => {
    const link = event.currentTarget;
    if (!(link instanceof HTMLAnchorElement)) return;
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (link.target && link.target !== '_self') return;
    const url = new URL(link.href);
    if (url.origin !== window.location.origin) return;
    event.preventDefault();
    this.navigate(url.pathname + url.search);
  };
}

export const router = new Router();
