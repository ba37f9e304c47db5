/**
 * Exports des listes en CSV ou en Excel (`/app/api/exports…`), et celui des
 * factures électroniques en zip : les listes exportables et leurs formats, la
 * chaîne de requête des filtres d'un écran (sans page ni taille de page), le
 * texte (en lignes, ou en documents pour les factures électroniques) et le
 * pourcentage de la barre de progression, la période par défaut de l'export
 * comptable et de celui des factures électroniques, les appels à
 * l'API, et le déroulé d'un export : lancé, suivi jusqu'à « prêt » ou
 * « échec », puis téléchargé.
 */
import { api, ApiError } from './api';
import type { ExportBody, ExportJob } from './generated/contract';

// Le corps et la réponse viennent du serveur : `generated/contract.ts` est
// généré depuis le code Rust.
export type { ExportBody, ExportJob } from './generated/contract';

/** Les listes exportables (`ExportBody.list`). */
export type ExportList =
  | 'equipment'
  | 'clients'
  | 'calls'
  | 'quotes'
  | 'invoices'
  | 'technicians'
  | 'visits'
  | 'accounting'
  // Les factures et avoirs émis dans une période : PDF Factur-X et XML, en zip.
  | 'facturx';

/**
 * `ExportBody.format`. `zip` ne sert qu'à l'export des factures électroniques
 * (`facturx`) : il n'est pas proposé dans les menus « Exporter » (`EXPORT_FORMATS`).
 */
export type ExportFormat = 'csv' | 'xlsx' | 'zip';

/** `ExportJob.status`. */
export type ExportStatus = 'en_cours' | 'pret' | 'echec';

/** Les formats proposés, dans l'ordre du menu « Exporter ». */
export const EXPORT_FORMATS: readonly { code: ExportFormat; label: string }[] = [
  { code: 'csv', label: 'CSV (Excel, séparateur ;)' },
  { code: 'xlsx', label: 'Excel (.xlsx)' },
];

/** Un export en cours est relu à ce rythme. */
export const EXPORT_POLL_MS = 400;

/** Coupures réseau tolérées d'affilée pendant le suivi, avant d'abandonner. */
export const EXPORT_NETWORK_RETRIES = 3;

export const EXPORTS_PATH = '/app/api/exports';

// -- Filtres ------------------------------------------------------------------------

/** Les paramètres de pagination, que l'export ignore : jamais envoyés. */
const PAGING = new Set(['page', 'limit']);

export type ExportFilters = Record<string, string | number | boolean | null | undefined>;

/**
 * La chaîne de requête d'un export (sans `?`) : les filtres de la liste tels
 * que l'écran les envoie, valeurs rognées, les vides omis, sans `page` ni
 * `limit`. Accepte un objet de filtres ou la chaîne de requête de la liste
 * (`parkQuery(…)`, avec ou sans `?`).
 */
export function exportQuery(filters: ExportFilters | string | URLSearchParams): string {
  const entries: [string, string][] =
    typeof filters === 'string' || filters instanceof URLSearchParams
      ? [...new URLSearchParams(filters).entries()]
      : Object.entries(filters).map(([key, value]) => [key, value === null || value === undefined ? '' : String(value)]);
  const params = new URLSearchParams();
  for (const [key, value] of entries) {
    const text = value.trim();
    if (text !== '' && !PAGING.has(key)) params.set(key, text);
  }
  return params.toString();
}

// -- Progression --------------------------------------------------------------------

const NUMBERS = new Intl.NumberFormat('fr-FR');

/** Ce que compte un export : des lignes, ou des documents (factures et avoirs) pour les factures électroniques. */
export type ExportUnit = 'ligne' | 'document';

/** L'unité de la progression d'un export de `list` (`done` et `total` du serveur). */
export function exportUnit(list: string | undefined): ExportUnit {
  return list === 'facturx' ? 'document' : 'ligne';
}

/**
 * `1 200 / 5 000 lignes`, ou `3 / 12 documents` pour l'export des factures
 * électroniques (espaces fines insécables, comme les autres nombres de
 * l'application). L'unité suit `job.list` (des lignes sans liste).
 */
export function progressText(
  job: Pick<ExportJob, 'done' | 'total'> & { list?: string },
  unit: ExportUnit = exportUnit(job.list),
): string {
  const done = Math.max(0, Math.min(job.done, job.total));
  return `${NUMBERS.format(done)} / ${NUMBERS.format(job.total)} ${unit}${job.total > 1 ? 's' : ''}`;
}

/** L'avancement en pour cent (entier de 0 à 100) ; un export prêt est à 100, un total nul aussi. */
export function progressPercent(job: Pick<ExportJob, 'done' | 'total' | 'status'>): number {
  if (job.status === 'pret' || job.total <= 0) return 100;
  return Math.max(0, Math.min(100, Math.floor((job.done / job.total) * 100)));
}

/**
 * La ligne d'état d'un export : « Export en cours : 1 200 / 5 000 lignes »
 * (« 3 / 12 documents » pour les factures électroniques),
 * « Export prêt : parc-2026-11-28.csv », « Échec de l'export : <raison> ».
 */
export function exportStatusLine(job: ExportJob): string {
  switch (job.status) {
    case 'en_cours':
      return `Export en cours : ${progressText(job)}`;
    case 'pret':
      return `Export prêt : ${job.fileName}`;
    case 'echec':
      return `Échec de l'export : ${job.error?.trim() || "le fichier n'a pas pu être écrit."}`;
    default:
      return `Export : ${job.status}`;
  }
}

// -- Périodes -----------------------------------------------------------------------

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Le mois civil précédent (`from` le 1er, `to` le dernier jour), jour local de
 * `today` : la période par défaut de l'export comptable et de celui des
 * factures électroniques.
 */
export function previousMonth(today: Date = new Date()): { from: string; to: string } {
  const first = new Date(today.getFullYear(), today.getMonth() - 1, 1);
  const last = new Date(today.getFullYear(), today.getMonth(), 0);
  return {
    from: `${first.getFullYear()}-${pad(first.getMonth() + 1)}-01`,
    to: `${last.getFullYear()}-${pad(last.getMonth() + 1)}-${pad(last.getDate())}`,
  };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/**
 * La plus longue période d'un export de visites, de l'export comptable ou de
 * celui des factures électroniques (jours, bornes comprises).
 */
export const MAX_PERIOD_DAYS = 366;

/** Contrôle d'une période `from`–`to` comme le serveur : la phrase à afficher, ou null. */
export function checkPeriod(from: string, to: string): string | null {
  if (!DAY.test(from)) return 'Indiquez la date de début de la période.';
  if (!DAY.test(to)) return 'Indiquez la date de fin de la période.';
  if (from > to) return 'La période est vide : la date de début est postérieure à la date de fin.';
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
  if (days >= MAX_PERIOD_DAYS) return `La période dépasse ${MAX_PERIOD_DAYS} jours : exportez-la en plusieurs fois.`;
  return null;
}

// -- Appels à l'API -----------------------------------------------------------------

const exportPath = (id: string) => `${EXPORTS_PATH}/${encodeURIComponent(id)}`;

/** `POST /exports` (202) : l'export lancé ; 422/400 si un filtre est refusé, 409 si trois exports tournent déjà. */
export function startExport(body: ExportBody): Promise<ExportJob> {
  return api.post<ExportJob>(EXPORTS_PATH, body);
}

/** `GET /exports/{id}` : où en est l'export. */
export function readExport(id: string, signal?: AbortSignal): Promise<ExportJob> {
  return api.get<ExportJob>(exportPath(id), { signal });
}

/** L'adresse du fichier d'un export prêt (`GET /exports/{id}/file`, téléchargé avec le cookie de session). */
export function exportFileUrl(id: string): string {
  return `${exportPath(id)}/file`;
}

/** Télécharge `url` sous `fileName` par un lien `<a download>` caché, cliqué puis retiré. */
export function downloadFile(url: string, fileName: string, doc: Document = document): void {
  const link = doc.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  doc.body.append(link);
  link.click();
  link.remove();
}

// -- Déroulé d'un export ------------------------------------------------------------

/** Attend `ms` millisecondes ; rejette (`AbortError`) si `signal` est interrompu. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('Export interrompu', 'AbortError'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort(): void {
      clearTimeout(timer);
      reject(new DOMException('Export interrompu', 'AbortError'));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface RunOptions {
  /** Interrompt le suivi (l'écran est quitté) : la promesse rejette avec une `AbortError`. */
  signal?: AbortSignal;
  /** Intervalle de relecture (défaut `EXPORT_POLL_MS`). */
  pollMs?: number;
  /** Appelé avec chaque état lu : au lancement, puis à chaque relecture. */
  onProgress?: (job: ExportJob) => void;
  /** Appelé une fois, quand l'export est prêt (défaut : `downloadFile`). */
  download?: (url: string, fileName: string) => void;
  /** L'attente entre deux relectures (remplacée dans les tests). */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Lance l'export, le relit jusqu'à « prêt » ou « échec » en rapportant sa
 * progression, puis déclenche le téléchargement s'il est prêt. Rend le
 * dernier état lu (un échec se lit dans `status` et `error`) ; lève l'`ApiError`
 * d'un refus au lancement (filtre refusé, trois exports déjà en cours) ou
 * d'une relecture impossible.
 */
export async function runExport(body: ExportBody, options: RunOptions = {}): Promise<ExportJob> {
  const { signal, onProgress, pollMs = EXPORT_POLL_MS, download = downloadFile, wait = pause } = options;
  let job = await startExport(body);
  onProgress?.(job);
  let failures = 0;
  while (job.status === 'en_cours') {
    await wait(pollMs, signal);
    try {
      job = await readExport(job.id, signal);
      failures = 0;
    } catch (error) {
      // Une coupure réseau passagère ne perd pas l'export : il est relu au tour suivant.
      if (error instanceof ApiError && error.status === 0 && failures < EXPORT_NETWORK_RETRIES) {
        failures += 1;
        continue;
      }
      throw error;
    }
    onProgress?.(job);
  }
  if (job.status === 'pret') download(exportFileUrl(job.id), job.fileName);
  return job;
}
