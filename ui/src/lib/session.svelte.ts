/** État de session de l'application, partagé par tous les écrans. */
import { api, type ApiError, type Session } from './api';

export type SessionState =
  | { status: 'loading' }
  | { status: 'unavailable'; message: string }
  | { status: 'signedOut'; notice?: string }
  | { status: 'setup' }
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
      if (session) this.state = { status: 'signedIn', session };
      // Première ouverture (aucune organisation) : l'installation remplace la connexion.
      else this.state = (await api.setupNeeded()) ? { status: 'setup' } : { status: 'signedOut' };
    } catch (error) {
      this.state = {
        status: 'unavailable',
        message: error instanceof Error ? error.message : String(error),
      };
    }
  }

  /**
   * Relit la session sans quitter l'écran (contrairement à `load`, pas d'état
   * « chargement ») : après la création, le renommage, l'archivage ou la
   * réactivation d'une agence, le sélecteur d'agence de l'en-tête suit. Si
   * l'agence active a été archivée, le serveur en a choisi une autre : l'écran
   * est alors rechargé (App.svelte). Les erreurs remontent à l'appelant.
   */
  async refresh(): Promise<Session | null> {
    const session = await api.getSession();
    this.state = session ? { status: 'signedIn', session } : { status: 'signedOut' };
    return session;
  }

  /** Connexion ; les erreurs (`ApiError`) remontent à l'écran de connexion qui les affiche. */
  async signIn(email: string, password: string): Promise<Session> {
    const session = await api.signIn(email, password);
    this.state = { status: 'signedIn', session };
    return session;
  }

  /** Installation : l'administrateur créé est connecté. */
  async setUp(body: Parameters<typeof api.setUp>[0]): Promise<Session> {
    const session = await api.setUp(body);
    this.state = { status: 'signedIn', session };
    return session;
  }

  /** Installation de la démonstration, puis connexion de son administratrice. */
  async installDemo(): Promise<Session> {
    const demo = await api.installDemo();
    return this.signIn(demo.admin.email, demo.admin.password);
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
