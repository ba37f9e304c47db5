/**
 * L'état « en cours / erreur » d'un appel à l'API, partagé par les écrans :
 * `busy` pendant l'appel (bouton désactivé, libellé « …ement… »), `error` le
 * message français à afficher (celui du serveur, `ApiError.message`, sinon un
 * message de repli), effacé au début de l'appel suivant.
 */
import { ApiError, FALLBACK_MESSAGES } from './api';

/** Le message d'une erreur qui n'est pas une `ApiError` : un texte fixe, ou calculé depuis l'erreur. */
export type Fallback = string | ((cause: unknown) => string);

/** Le message à montrer : celui du serveur pour une `ApiError`, sinon le repli. */
export function errorMessage(cause: unknown, fallback: Fallback = FALLBACK_MESSAGES.network): string {
  if (cause instanceof ApiError) return cause.message;
  return typeof fallback === 'function' ? fallback(cause) : fallback;
}

export class Task {
  /** Un appel est en cours. */
  busy = $state(false);
  /** Le message de l'échec du dernier appel, ou `null`. */
  error = $state<string | null>(null);
  readonly #fallback: Fallback;

  /** `fallback` : le message d'une erreur qui ne vient pas du serveur (réseau coupé par défaut). */
  constructor(fallback: Fallback = FALLBACK_MESSAGES.network) {
    this.#fallback = fallback;
  }

  /**
   * Lance `fn` : `busy` le temps de l'appel, l'erreur précédente effacée.
   * Renvoie son résultat, ou `undefined` s'il a échoué (le message est alors dans `error`).
   */
  async run<T>(fn: () => Promise<T>): Promise<T | undefined> {
    this.busy = true;
    this.error = null;
    try {
      return await fn();
    } catch (cause) {
      this.error = errorMessage(cause, this.#fallback);
      return undefined;
    } finally {
      this.busy = false;
    }
  }
}
