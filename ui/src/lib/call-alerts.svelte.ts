/**
 * Les bandeaux « personne bloquée » (écran des appels et veille des autres
 * écrans) : relus au montage depuis `GET /app/api/calls/alerts` (ils survivent
 * à un rechargement), ajoutés à l'arrivée d'un appel par le flux, gardés
 * jusqu'à « J'ai pris en compte » (`POST /calls/{id}/acknowledge`), retirés
 * quand l'appel est résolu. Et le nombre d'appels urgents ouverts, préfixe du
 * titre de l'onglet.
 */
import { ApiError } from './api';
import {
  acknowledgeCall,
  getCallBoard,
  listCallAlerts,
  openUrgentCount,
  urgentTitlePrefix,
  type CallEvent,
} from './calls';
import { setTitlePrefix } from './title.svelte';

export type AlertSound = 'joue' | 'bloque' | 'en_cours' | 'aucun';

export interface UrgentAlert {
  id: string;
  reference: string;
  /** Réception de l'appel (ou arrivée par le flux, avant la relecture). */
  at: Date;
  sound: AlertSound;
  busy: boolean;
  error: string | null;
}

export class CallAlerts {
  list = $state<UrgentAlert[]>([]);
  #serial = 0;

  /** Relit les alertes du serveur ; un serveur sans cette adresse laisse la liste telle quelle. */
  async load(): Promise<void> {
    const mine = ++this.#serial;
    try {
      const rows = await listCallAlerts();
      if (mine !== this.#serial) return;
      this.list = rows.map((row) => {
        const known = this.list.find((a) => a.id === row.id);
        return known
          ? { ...known, at: new Date(row.receivedAt) }
          : { id: row.id, reference: row.reference, at: new Date(row.receivedAt), sound: 'aucun', busy: false, error: null };
      });
    } catch {
      // Relecture impossible : les bandeaux affichés restent.
    }
  }

  /** Un appel « personne bloquée » arrive par le flux : `true` s'il n'était pas déjà annoncé. */
  arrived(event: CallEvent): boolean {
    if (this.list.some((a) => a.id === event.id)) return false;
    this.#serial += 1; // une relecture en cours ne l'effacera pas
    this.list = [{ id: event.id, reference: event.reference, at: new Date(), sound: 'en_cours', busy: false, error: null }, ...this.list];
    return true;
  }

  /**
   * Un changement reçu du flux : un appel résolu, ou dont l'alerte a été prise
   * en compte sur un autre poste, n'a plus de bandeau.
   */
  changed(event: CallEvent): void {
    if (event.statut === 'resolue' || event.change === 'prise_en_compte') {
      this.list = this.list.filter((a) => a.id !== event.id);
    }
  }

  setSound(id: string, sound: AlertSound): void {
    this.list = this.list.map((a) => (a.id === id ? { ...a, sound } : a));
  }

  /** « J'ai pris en compte » : le bandeau part quand le serveur l'a noté. */
  async acknowledge(id: string): Promise<void> {
    this.list = this.list.map((a) => (a.id === id ? { ...a, busy: true, error: null } : a));
    try {
      await acknowledgeCall(id);
      this.list = this.list.filter((a) => a.id !== id);
    } catch (caught) {
      const message = caught instanceof ApiError ? caught.message : "La prise en compte n'a pas été enregistrée.";
      this.list = this.list.map((a) => (a.id === id ? { ...a, busy: false, error: message } : a));
    }
  }
}

/** Le titre de l'onglet : « (2) » pour deux appels « personne bloquée » non résolus. */
export function showUrgentCount(count: number): void {
  setTitlePrefix(urgentTitlePrefix(count));
}

/** Relit le tableau des appels pour le préfixe du titre (hors du tableau lui-même). */
export async function refreshUrgentCount(): Promise<void> {
  try {
    showUrgentCount(openUrgentCount(await getCallBoard()));
  } catch {
    // Le titre garde son préfixe.
  }
}
