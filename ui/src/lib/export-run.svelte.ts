/**
 * L'état d'un export affiché à l'écran (menu « Exporter », export comptable,
 * factures électroniques) : le dernier état lu du serveur, le refus ou
 * l'erreur en français, et l'adresse du fichier prêt (le lien « Télécharger »
 * si le navigateur a bloqué le téléchargement automatique). Un export à la
 * fois par menu ; un nouvel export remplace l'affichage du précédent une fois
 * celui-ci terminé.
 */
import { errorMessage } from './task.svelte';
import { exportFileUrl, runExport, type ExportFormat, type ExportJob, type ExportList } from './exports';

export class ExportRun {
  /** Le dernier état lu (`null` avant le premier export). */
  job = $state<ExportJob | null>(null);
  /** Le refus du lancement ou l'erreur du suivi, en français. */
  error = $state<string | null>(null);
  /** Un export est lancé et pas encore terminé. */
  running = $state(false);
  #controller: AbortController | null = null;

  /** L'adresse du fichier prêt, ou `null`. */
  get fileUrl(): string | null {
    return this.job?.status === 'pret' ? exportFileUrl(this.job.id) : null;
  }

  /** Lance l'export de `list` avec ses filtres `query` ; ne fait rien si un export de ce menu tourne déjà. */
  async start(list: ExportList, format: ExportFormat, query = ''): Promise<void> {
    if (this.running) return;
    const controller = new AbortController();
    this.#controller = controller;
    this.running = true;
    this.error = null;
    this.job = null;
    try {
      await runExport(
        { list, format, ...(query ? { query } : {}) },
        { signal: controller.signal, onProgress: (job) => (this.job = job) },
      );
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') return;
      this.error = errorMessage(cause, "L'export n'a pas pu être suivi : réessayez.");
    } finally {
      if (this.#controller === controller) {
        this.running = false;
        this.#controller = null;
      }
    }
  }

  /** Efface l'état affiché (export terminé). */
  clear(): void {
    if (this.running) return;
    this.job = null;
    this.error = null;
  }

  /** L'écran est quitté : le suivi s'arrête (l'export se termine sur le serveur, sans téléchargement). */
  stop(): void {
    this.#controller?.abort();
    this.#controller = null;
    this.running = false;
  }
}
