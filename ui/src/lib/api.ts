/**
 * Client HTTP de l'API du back-office (`/app/api/...`).
 *
 * - Toutes les requêtes partent avec `credentials: 'same-origin'` : le cookie de
 *   session (HttpOnly, SameSite=Strict) est géré par le navigateur.
 * - Les appels mutants (POST, PUT, PATCH, DELETE) envoient automatiquement
 *   l'en-tête `X-CSRF-Token` avec le jeton reçu à la connexion ou lors de la
 *   lecture de la session. Seule la connexion (`POST /app/api/session`) en est
 *   dispensée, puisque le jeton n'existe pas encore.
 * - Les réponses d'erreur `{"error": "..."}` deviennent une `ApiError` portant le
 *   message français du serveur et le code HTTP.
 */

import type { AccountSummary, AgencyRef, DemoInstalled, SessionView, SetupStatus } from './generated/contract';

// La session (`GET`, `POST /app/api/session`, `PUT /app/api/session/agency`,
// `POST /app/api/setup`) vient du serveur : `generated/contract.ts` est généré
// depuis le code Rust. `installationAdmin` : administrateur de l'installation
// (écran « Paramètres »), administrateur de l'organisation qui a installé Liftdesk.
export type Agency = AgencyRef;
export type Account = AccountSummary;
export type Session = SessionView;

export const SESSION_PATH = '/app/api/session';
export const CSRF_HEADER = 'X-CSRF-Token';

/** Messages de repli, quand la réponse ne contient pas de champ `error` lisible. */
export const FALLBACK_MESSAGES = {
  network: 'Impossible de joindre le serveur. Vérifiez votre connexion puis réessayez.',
  unauthorized: 'Votre session a expiré. Reconnectez-vous.',
  forbidden: "Vous n'avez pas les droits nécessaires pour cette action.",
  notFound: "L'élément demandé est introuvable.",
  tooManyRequests: 'Trop de tentatives. Patientez quelques instants avant de réessayer.',
  server: 'Le serveur a rencontré une erreur. Réessayez plus tard.',
  invalidResponse: 'Réponse inattendue du serveur.',
} as const;

/** Erreur d'un appel à l'API : `status` vaut 0 quand le serveur n'a pas pu être joint. */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

export function fallbackMessage(status: number): string {
  if (status === 0) return FALLBACK_MESSAGES.network;
  if (status === 401) return FALLBACK_MESSAGES.unauthorized;
  if (status === 403) return FALLBACK_MESSAGES.forbidden;
  if (status === 404) return FALLBACK_MESSAGES.notFound;
  if (status === 429) return FALLBACK_MESSAGES.tooManyRequests;
  if (status >= 500) return FALLBACK_MESSAGES.server;
  return `La requête a échoué (code ${status}).`;
}

/** Transforme une réponse non-2xx en `ApiError`, en reprenant `{"error": "..."}` s'il est présent. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  let message: string | null = null;
  try {
    const text = await response.text();
    if (text) {
      const body: unknown = JSON.parse(text);
      if (body && typeof body === 'object' && 'error' in body) {
        const error = (body as { error: unknown }).error;
        if (typeof error === 'string' && error.trim() !== '') message = error;
      }
    }
  } catch {
    // Corps absent ou non JSON : on garde le message de repli.
  }
  return new ApiError(response.status, message ?? fallbackMessage(response.status));
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const MUTATING: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface RequestOptions {
  /** Corps envoyé en JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** N'envoie pas `X-CSRF-Token` (réservé à la connexion). */
  withoutCsrf?: boolean;
  /**
   * Prévenir `onUnauthorized` si la réponse est un 401 (défaut : oui). Désactivé
   * pour la lecture de la session et la connexion, où le 401 est une réponse normale.
   */
  notifyUnauthorized?: boolean;
}

export class ApiClient {
  #fetch: typeof fetch;
  #csrfToken: string | null = null;
  /** Appelé quand un appel authentifié reçoit un 401 (session expirée). */
  onUnauthorized: ((error: ApiError) => void) | null = null;

  constructor(fetchImpl?: typeof fetch) {
    // Résolu à l'appel pour que `fetch` global reste remplaçable (tests).
    this.#fetch = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
  }

  get csrfToken(): string | null {
    return this.#csrfToken;
  }

  setCsrfToken(token: string | null): void {
    this.#csrfToken = token;
  }

  async request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    if (MUTATING.has(method) && !options.withoutCsrf && this.#csrfToken) {
      headers[CSRF_HEADER] = this.#csrfToken;
    }

    let response: Response;
    try {
      response = await this.#fetch(path, {
        method,
        headers,
        body,
        credentials: 'same-origin',
        signal: options.signal,
      });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      throw new ApiError(0, FALLBACK_MESSAGES.network);
    }

    if (!response.ok) {
      const error = await errorFromResponse(response);
      if (error.status === 401 && options.notifyUnauthorized !== false) {
        this.#csrfToken = null;
        this.onUnauthorized?.(error);
      }
      throw error;
    }

    if (response.status === 204) return undefined as T;
    const text = await response.text();
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ApiError(response.status, FALLBACK_MESSAGES.invalidResponse);
    }
  }

  get<T>(path: string, options?: RequestOptions): Promise<T> {
    return this.request<T>('GET', path, options);
  }

  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return this.request<T>('POST', path, { ...options, body });
  }

  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return this.request<T>('PUT', path, { ...options, body });
  }

  patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return this.request<T>('PATCH', path, { ...options, body });
  }

  delete<T = void>(path: string, options?: RequestOptions): Promise<T> {
    return this.request<T>('DELETE', path, options);
  }

  /** `GET /app/api/session` : la session courante, ou `null` si l'on n'est pas connecté (401). */
  async getSession(): Promise<Session | null> {
    try {
      const session = await this.get<Session>(SESSION_PATH, { notifyUnauthorized: false });
      this.#csrfToken = session.csrfToken;
      return session;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        this.#csrfToken = null;
        return null;
      }
      throw error;
    }
  }

  /** `POST /app/api/session` : connexion. Lève une `ApiError` (401, 400, 429…) en cas d'échec. */
  async signIn(email: string, password: string): Promise<Session> {
    const session = await this.post<Session>(
      SESSION_PATH,
      { email, password },
      { withoutCsrf: true, notifyUnauthorized: false },
    );
    this.#csrfToken = session.csrfToken;
    return session;
  }

  /** `GET /app/api/setup` : l'installation reste à faire (aucune organisation). */
  async setupNeeded(): Promise<boolean> {
    const status = await this.get<SetupStatus>('/app/api/setup', { notifyUnauthorized: false });
    return status.needed;
  }

  /** `POST /app/api/setup` : crée l'organisation, l'agence et l'administrateur, qui est connecté. */
  async setUp(body: {
    organization: string;
    agency: string;
    adminName: string;
    email: string;
    password: string;
  }): Promise<Session> {
    const session = await this.post<Session>('/app/api/setup', body, {
      withoutCsrf: true,
      notifyUnauthorized: false,
    });
    this.#csrfToken = session.csrfToken;
    return session;
  }

  /** `POST /app/api/setup/demo` : installe la démonstration ; ses identifiants de connexion. */
  async installDemo(): Promise<DemoInstalled> {
    return this.post('/app/api/setup/demo', {}, { withoutCsrf: true, notifyUnauthorized: false });
  }

  /** `PUT /app/api/session/agency` : l'agence où agit la session (403 hors du périmètre du compte). */
  async switchAgency(agencyId: string): Promise<Session> {
    const session = await this.put<Session>(`${SESSION_PATH}/agency`, { agencyId });
    this.#csrfToken = session.csrfToken;
    return session;
  }

  /** `DELETE /app/api/session` : déconnexion. Une session déjà expirée (401) compte comme déconnectée. */
  async signOut(): Promise<void> {
    try {
      await this.delete(SESSION_PATH, { notifyUnauthorized: false });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) throw error;
    }
    this.#csrfToken = null;
  }
}

/** Client partagé par toute l'application. */
export const api = new ApiClient();
