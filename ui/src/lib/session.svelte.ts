/** État de session de l'application, partagé par tous les écrans. */
import { api, type ApiError, type Session } from './api';

export type SessionState =
  | { status: 'loading' }
  | { status: 'unavailable'; message: string }
  | { status: 'signedOut'; notice?: string }
  | { status: 'signedIn'; session: Session };

class SessionStore {
  state = $state<SessionState>({ status: 'loading' });

  constructor() {
    // Un appel authentifié qui reçoit un 401 ramène à l'écran de connexion.
    api.onUnauthorized = (error: ApiError) => {
      this.state = { status: 'signedOut', notice: error.message };
    };
  }

  get session(): Session | null {
    return this.state.status === 'signedIn' ? this.state.session : null;
  }

  /** Lit la session courante (`GET /app/api/session`) au chargement de l'application. */
  async load(): Promise<void> {
    this.state = { status: 'loading' };
    try {
      const session = await api.getSession();
      this.state = session ? { status: 'signedIn', session } : { status: 'signedOut' };
    } catch (error) {
      this.state = {
        status: 'unavailable',
        message: error instanceof Error ? error.message : String(error),
      };
    }
  }

  /** Connexion ; les erreurs (`ApiError`) remontent à l'écran de connexion qui les affiche. */
  async signIn(email: string, password: string): Promise<Session> {
    const session = await api.signIn(email, password);
    this.state = { status: 'signedIn', session };
    return session;
  }

  /** Sélecteur d'agence : tous les écrans agissent ensuite dans l'agence choisie. */
  async switchAgency(agencyId: string): Promise<Session> {
    const session = await api.switchAgency(agencyId);
    this.state = { status: 'signedIn', session };
    return session;
  }

  async signOut(): Promise<void> {
    await api.signOut();
    this.state = { status: 'signedOut' };
  }
}

export const sessionStore = new SessionStore();
