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
 * Administrateur de l'organisation (`org_admin`) : règle le serveur d'envoi
 * des e-mails de l'organisation (section « E-mail » des paramètres).
 */
export function isOrganizationAdmin(session: Session): boolean {
  return session.account.role === 'org_admin';
}

/**
 * L'écran « Paramètres » : les paramètres de l'installation pour ses
 * administrateurs, la section « E-mail » pour ceux de l'organisation.
 */
export function canOpenSettings(session: Session): boolean {
  return isInstallationAdmin(session) || isOrganizationAdmin(session);
}

/**
 * Le compte peut modifier les fiches de l'agence (clients, contacts…) : tout
 * le personnel sauf l'opérateur du service, qui consulte sans rien changer
 * (le serveur le refuse de toute façon).
 */
export function canChange(session: Session): boolean {
  return session.account.role !== 'operator';
}
