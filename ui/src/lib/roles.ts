/** Rôles des comptes, tels que la session les donne (`account.role`). */
import type { Session } from './api';

/** Administrateur de l'agence ou de l'organisation : crée et révoque les clés, gère les webhooks. */
export function isAdmin(session: Session): boolean {
  return session.account.role === 'agency_admin' || session.account.role === 'org_admin';
}

/**
 * Administrateur de l'installation : administrateur de l'organisation qui a
 * installé Liftdesk, seul à ouvrir les paramètres, sauvegardes et restaurations
 * (l'installation contient les données de toutes ses organisations).
 */
export function isInstallationAdmin(session: Session): boolean {
  return session.installationAdmin === true;
}

/**
 * Le compte peut modifier les fiches de l'agence (clients, contacts…) : tout
 * le personnel sauf l'opérateur du service, qui consulte sans rien changer
 * (le serveur le refuse de toute façon).
 */
export function canChange(session: Session): boolean {
  return session.account.role !== 'operator';
}
