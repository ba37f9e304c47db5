/**
 * Le titre de l'onglet : « <Écran> — Liftdesk », précédé d'un préfixe
 * facultatif (« (2) » : les appels urgents en attente). L'écran par défaut
 * vient de la section de l'adresse (`sectionTitle`) ; une fiche nomme son
 * objet par `useScreenTitle` (« Facture FA-PO-2026-000012 »). `App.svelte` est le
 * seul endroit qui écrit `document.title` (`pageTitle.text`).
 */
import { untrack } from 'svelte';
import { PATHS, sectionOf } from './router.svelte';

export const APP_NAME = 'Liftdesk';

/** Le titre d'un écran par défaut, d'après la section de son adresse (le libellé de son titre de niveau 1). */
const SECTION_TITLES: Record<string, string> = {
  [PATHS.home]: 'Accueil',
  [PATHS.login]: 'Connexion',
  [PATHS.planning]: 'Planning',
  [PATHS.calls]: 'Appels de panne',
  [PATHS.technicians]: 'Techniciens',
  [PATHS.equipment]: 'Équipements',
  [PATHS.clients]: 'Clients',
  [PATHS.contracts]: "Contrats d'entretien",
  [PATHS.buildings]: 'Immeubles',
  [PATHS.surveys]: 'Relevés',
  [PATHS.quotes]: 'Devis',
  [PATHS.invoices]: 'Factures et avoirs',
  [PATHS.keys]: 'Clés et jetons',
  [PATHS.webhooks]: 'Webhooks',
  [PATHS.account]: 'Mon compte',
  [PATHS.imports]: 'Imports',
  [PATHS.agency]: 'Agence',
  [PATHS.journal]: 'Journal',
  [PATHS.settings]: 'Paramètres',
};

/** « Factures et avoirs » pour `/factures/…` ; « Page introuvable » pour une adresse inconnue. */
export function sectionTitle(path: string): string {
  return SECTION_TITLES[sectionOf(path)] ?? 'Page introuvable';
}

/** « (2) Facture FA-PO-2026-000012 — Liftdesk » ; sans écran, « Liftdesk ». */
export function composeTitle(screen: string | null | undefined, prefix = ''): string {
  const name = screen?.replace(/\s+/g, ' ').trim();
  const base = name ? `${name} — ${APP_NAME}` : APP_NAME;
  const lead = prefix.trim();
  return lead ? `${lead} ${base}` : base;
}

let serial = 0;

class PageTitle {
  /** L'écran d'après l'adresse ou l'état de l'application (connexion, installation…). */
  section = $state<string | null>(null);
  /** Préfixe posé par un autre composant (« (2) ») ; vide par défaut. */
  prefix = $state('');
  /** Les titres posés par les fiches montées ; la dernière posée l'emporte. */
  overrides = $state<{ id: number; text: string }[]>([]);

  /** Le nom de l'écran affiché. */
  get screen(): string | null {
    return this.overrides.at(-1)?.text ?? this.section;
  }

  /** Le texte complet de l'onglet. */
  get text(): string {
    return composeTitle(this.screen, this.prefix);
  }
}

export const pageTitle = new PageTitle();

/** Pose le préfixe du titre (« (2) ») ; une chaîne vide l'enlève. */
export function setTitlePrefix(prefix: string): void {
  pageTitle.prefix = prefix;
}

/**
 * À appeler à l'initialisation d'un composant : tant qu'il est monté, l'onglet
 * porte `screen()` (relu quand ce qu'il lit change ; `null` ou vide : le titre
 * de la section). Démonté, le titre précédent revient.
 */
export function useScreenTitle(screen: () => string | null | undefined): void {
  const id = ++serial;
  $effect(() => {
    const text = screen()?.trim();
    // Seul `screen()` est suivi : la liste des titres est réécrite sans en dépendre.
    if (text) untrack(() => (pageTitle.overrides = [...pageTitle.overrides.filter((o) => o.id !== id), { id, text }]));
    return () => {
      pageTitle.overrides = pageTitle.overrides.filter((o) => o.id !== id);
    };
  });
}
