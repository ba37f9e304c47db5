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

  constructor() {
    window.addEventListener('popstate', () => {
      this.path = normalizePath(window.location.pathname);
    });
  }

  navigate(to: string, { replace = false }: { replace?: boolean } = {}): void {
    const path = normalizePath(to);
    if (path === this.path && !replace) return;
    if (replace) window.history.replaceState(null, '', path);
    else window.history.pushState(null, '', path);
    this.path = path;
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
    this.navigate(url.pathname);
  };
}

export const router = new Router();
