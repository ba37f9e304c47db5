/**
 * Assistant d'import : les réponses de `/app/api/imports…` et la logique pure
 * de l'assistant (contrôle du fichier avant l'envoi, base64, correspondance
 * colonne → champ, erreurs par ligne et leur rapport CSV, ce que dit le
 * bouton d'import, comptes du résultat et ce qu'il a écrit, progression),
 * et les appels à l'API des imports.
 */
import { api } from './api';
import type {
  ImportFieldView,
  ImportFileView,
  ImportReport,
  RunView,
  TargetCode,
  TargetView,
  UploadedFile,
} from './generated/contract';

const BASE = '/app/api/imports';

/** Taille maximale d'un fichier, comme le serveur (32 Mio une fois décodé). */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;

// Les réponses et les codes des cibles viennent du serveur : `generated/contract.ts`
// est généré depuis le code Rust.
export type {
  ImportFileView,
  ImportReport,
  RowView,
  RunView,
  TargetCode,
  TargetView,
  UploadedFile,
} from './generated/contract';
export type FieldView = ImportFieldView;

export const TARGET_LABELS: Record<TargetCode, string> = {
  equipment: 'Équipements (parc et immeubles)',
  clients: 'Clients',
  contacts: 'Contacts des clients',
  contracts: "Contrats d'entretien (brouillons)",
  price_indexes: 'Valeurs des indices de révision (BT48, ICHT-IME…)',
};

/**
 * Les cibles importées tout ou rien : tant qu'une ligne est refusée, le
 * serveur n'importe rien (422) ; l'import écrit alors chaque ligne.
 */
export const ALL_OR_NOTHING: ReadonlySet<TargetCode> = new Set<TargetCode>(['contracts', 'price_indexes']);

/** Ce que dit la notice d'une cible tout ou rien dont une ligne est refusée. */
const ALL_OR_NOTHING_NOTICE: Partial<Record<TargetCode, string>> = {
  contracts:
    "Un import de contrats enregistre toutes ses lignes ou aucune : tant qu'une ligne est refusée, aucun contrat n'est importé.",
  price_indexes:
    "Un import de valeurs d'indices enregistre toutes ses lignes ou aucune : tant qu'une ligne est refusée, aucune valeur n'est importée.",
};

/** Les comptes d'une vérification, et sa cible quand elle est connue. */
type Counts = Pick<ImportReport, 'created' | 'updated'> & Partial<Pick<ImportReport, 'refused' | 'target'>>;

function allOrNothingRefused(report: Counts): boolean {
  return report.target !== undefined && ALL_OR_NOTHING.has(report.target) && (report.refused ?? 0) > 0;
}

// -- Appels à l'API -------------------------------------------------------------------

/** `POST /imports/files` : envoie le fichier (contenu en base64). */
export function uploadImportFile(name: string, content: string): Promise<UploadedFile> {
  return api.post<UploadedFile>(`${BASE}/files`, { name, content });
}

/** `GET /imports/{fileId}` : le fichier envoyé, ses cibles, sa vérification et son import. */
export function getImportFile(fileId: string): Promise<ImportFileView> {
  return api.get<ImportFileView>(`${BASE}/${encodeURIComponent(fileId)}`);
}

/** `POST /imports/{fileId}/check` : vérifie le fichier sans rien écrire. */
export function checkImport(
  fileId: string,
  target: TargetCode,
  mapping: Record<string, string | null>,
): Promise<ImportReport> {
  return api.post<ImportReport>(`${BASE}/${encodeURIComponent(fileId)}/check`, { target, mapping });
}

/** `POST /imports/{fileId}/import` : importe le fichier ; le compte rendu à la fin. */
export function importFile(
  fileId: string,
  target: TargetCode,
  mapping: Record<string, string | null>,
): Promise<ImportReport> {
  return api.post<ImportReport>(`${BASE}/${encodeURIComponent(fileId)}/import`, { target, mapping });
}

/** La raison d'un refus du fichier avant l'envoi (mêmes messages que le serveur), ou `null`. */
export function fileProblem(name: string, size: number): string | null {
  const lower = name.trim().toLowerCase();
  const accepted = (lower.endsWith('.csv') && lower.length > 4) || (lower.endsWith('.xlsx') && lower.length > 5);
  if (!accepted) {
    return `Le fichier « ${name} » n'est pas accepté : seuls les fichiers .csv et .xlsx peuvent être importés.`;
  }
  if (size > MAX_FILE_BYTES) {
    return `Le fichier dépasse la taille maximale acceptée (${MAX_FILE_BYTES / (1024 * 1024)} Mio).`;
  }
  if (size === 0) return `Le fichier « ${name} » est vide.`;
  return null;
}

/** Octets → base64 (par tranches, pour ne pas dépasser la pile sur un gros fichier). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

/** `1536` → `1,5 Kio` ; `2 097 152` → `2 Mio`. */
export function formatSize(bytes: number): string {
  const number = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });
  if (bytes < 1024) return `${bytes} o`;
  if (bytes < 1024 * 1024) return `${number.format(bytes / 1024)} Kio`;
  return `${number.format(bytes / (1024 * 1024))} Mio`;
}

/** La correspondance de départ d'une cible : chaque colonne → champ proposé, ou `''` (ignorée). */
export function initialMapping(columns: string[], target: TargetView | undefined): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const column of columns) mapping[column] = target?.suggestedMapping[column] ?? '';
  return mapping;
}

/** Le corps envoyé : chaque colonne → champ, `null` pour une colonne ignorée. */
export function mappingBody(mapping: Record<string, string>): Record<string, string | null> {
  return Object.fromEntries(Object.entries(mapping).map(([column, field]) => [column, field || null]));
}

/** Les champs donnés à plusieurs colonnes (le serveur le refuserait) : champ → colonnes. */
export function duplicateFields(mapping: Record<string, string>): Map<string, string[]> {
  const byField = new Map<string, string[]>();
  for (const [column, field] of Object.entries(mapping)) {
    if (!field) continue;
    byField.set(field, [...(byField.get(field) ?? []), column]);
  }
  return new Map([...byField].filter(([, columns]) => columns.length > 1));
}

/** Une erreur d'une ligne : numéro de ligne du tableur, colonne (et sa lettre), message. */
export interface RowError {
  row: number;
  column: string;
  letter: string;
  message: string;
}

const COLUMN_REASON = /^Colonne « (.+?) » \(([A-Z]+)\) : (.*)$/s;

/** Les erreurs des lignes refusées, une par raison, dans l'ordre du fichier. */
export function rowErrors(report: ImportReport): RowError[] {
  const errors: RowError[] = [];
  for (const row of report.rows) {
    if (row.action !== 'refus') continue;
    for (const reason of row.reasons) {
      const match = COLUMN_REASON.exec(reason);
      errors.push(
        match
          ? { row: row.row, column: match[1] ?? '', letter: match[2] ?? '', message: match[3] ?? '' }
          : { row: row.row, column: '', letter: '', message: reason },
      );
    }
  }
  return errors;
}

/**
 * Lignes que l'import écrirait : celles qui créent ou mettent à jour (les
 * refusées ne sont pas importées) ; aucune pour une cible tout ou rien dont
 * une ligne est refusée.
 */
export function acceptedRows(report: Counts): number {
  if (allOrNothingRefused(report)) return 0;
  return report.created + report.updated;
}

/**
 * Le libellé du bouton d'import, qui dit ce qu'il fait : « Importer » quand
 * rien n'est refusé, sinon « Importer la ligne acceptée » / « Importer les
 * N lignes acceptées » (le serveur écrit les lignes acceptées et n'écrit
 * rien des refusées).
 */
export function importButtonLabel(report: Counts & Pick<ImportReport, 'refused'>): string {
  const accepted = acceptedRows(report);
  if (report.refused === 0 || accepted === 0) return 'Importer';
  return accepted === 1 ? 'Importer la ligne acceptée' : `Importer les ${accepted} lignes acceptées`;
}

/** Ce que deviennent les lignes refusées, dit comme le bouton le fait ; `null` sans ligne refusée. */
export function refusedNotice(report: Counts & Pick<ImportReport, 'refused'>): string | null {
  const { refused } = report;
  if (refused === 0) return null;
  const fix =
    "corrigez le fichier (le rapport d'erreurs dit quoi corriger) et envoyez-le de nouveau, ou changez la correspondance, puis vérifiez encore";
  if (allOrNothingRefused(report)) {
    const all =
      (report.target && ALL_OR_NOTHING_NOTICE[report.target]) ??
      "Cet import enregistre toutes ses lignes ou aucune : tant qu'une ligne est refusée, rien n'est importé.";
    return `${all} Pour les importer, ${fix}.`;
  }
  if (acceptedRows(report) === 0) {
    return `Aucune ligne ne peut être importée : ${fix}.`;
  }
  const lines = refused === 1 ? 'La ligne refusée ne sera pas importée' : `Les ${refused} lignes refusées ne seront pas importées`;
  return (
    `${lines} : l'import n'écrit que les lignes acceptées. Pour ${refused === 1 ? "l'importer" : 'les importer'} aussi, ${fix} ; ` +
    'importer de nouveau le fichier met à jour ce qui a déjà été importé, sans doublon.'
  );
}

// -- Rapport d'erreurs -------------------------------------------------------------

/**
 * Une cellule CSV : un texte qui commencerait une formule (`=`, `+`, `-`, `@`)
 * précédé d'une apostrophe, pour que le tableur l'affiche sans l'exécuter ;
 * entre guillemets (doublés) s'il contient `;`, `"` ou un saut de ligne.
 */
function csvCell(text: string): string {
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[;"\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * Le rapport d'erreurs de la vérification (ou de l'import), pour un tableur
 * français : BOM UTF-8, séparateur `;`, fins de ligne CRLF, en-têtes
 * « Ligne ; Colonne ; Valeur ; Erreur », une ligne par erreur. La colonne est
 * « Type (B) » ; la valeur de la cellule reste vide : le compte rendu du
 * serveur ne la donne pas à part (elle figure dans certains messages).
 */
export function errorReportCsv(errors: RowError[]): string {
  const lines = [['Ligne', 'Colonne', 'Valeur', 'Erreur']];
  for (const error of errors) {
    lines.push([String(error.row), error.column ? `${error.column} (${error.letter})` : '', '', error.message]);
  }
  return `\uFEFF${lines.map((cells) => cells.map(csvCell).join(';')).join('\r\n')}\r\n`;
}

/** Le nom du rapport : `parc.xlsx` → `erreurs-parc.csv`. */
export function errorReportName(fileName: string): string {
  const base = fileName.replace(/\.(csv|xlsx)$/i, '').trim() || 'import';
  return `erreurs-${base}.csv`;
}

// -- Ce que l'import a écrit ---------------------------------------------------------

/**
 * La première ligne écrite par l'import, pour y mener : la première créée,
 * sinon la première mise à jour ; `null` si rien n'a été écrit. `id` : celui
 * de l'équipement, du contact ou du contrat, le `client_id` d'un client,
 * `BT48/2026-01` d'une valeur d'indice.
 */
export function firstWritten(report: ImportReport): { id: string; created: boolean } | null {
  const created = report.rows.find((row) => row.action === 'creation' && row.id);
  if (created?.id) return { id: created.id, created: true };
  const updated = report.rows.find((row) => row.action === 'mise_a_jour' && row.id);
  return updated?.id ? { id: updated.id, created: false } : null;
}

/** Les comptes du résultat : créées, mises à jour (avec un changement), inchangées, refusées. */
export function resultCounts(report: ImportReport): {
  created: number;
  updated: number;
  unchanged: number;
  refused: number;
} {
  let updated = 0;
  let unchanged = 0;
  for (const row of report.rows) {
    if (row.action !== 'mise_a_jour') continue;
    if (row.changes.length > 0) updated += 1;
    else unchanged += 1;
  }
  return { created: report.created, updated, unchanged, refused: report.refused };
}

/** Pourcentage entier d'avancement (0 à 100). */
export function progressPercent(run: Pick<RunView, 'rowsProcessed' | 'rowsTotal'> | null): number {
  if (!run || run.rowsTotal <= 0) return 0;
  return Math.min(100, Math.floor((run.rowsProcessed * 100) / run.rowsTotal));
}
