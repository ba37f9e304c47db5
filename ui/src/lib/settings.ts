/**
 * Paramètres de l'installation et première installation : types de l'API
 * (`/app/api/settings…`, `/app/api/setup`), validation côté client (mêmes
 * règles et mêmes messages que le serveur), mises en forme, et les appels
 * à l'API de l'écran « Paramètres ».
 */
import { api, FALLBACK_MESSAGES } from './api';
import type { BackupView, SettingsView, SettingsWire, SyncStatusWire } from './generated/contract';

// Les réponses viennent du serveur : `generated/contract.ts` est généré depuis
// le code Rust. `SavedSettings` est aussi le corps de `PUT /settings`.
export type { SettingsView } from './generated/contract';
export type SavedSettings = SettingsWire;
export type BackupEntry = BackupView;
export type WebhookSyncState = SyncStatusWire;

export const SETTINGS_PATH = '/app/api/settings';
export const BACKUPS_PATH = '/app/api/settings/backups';
export const RESTORE_PATH = '/app/api/settings/restore';
export const RESTART_PATH = '/app/api/settings/restart';
export const DIAGNOSTICS_PATH = '/app/api/diagnostics';
export const SETUP_PATH = '/app/api/setup';
export const SETUP_DEMO_PATH = '/app/api/setup/demo';
export const AGENCY_SERVER_PATH = '/app/api/desktop/agency-server';
export const SETUP_AGENCY_SERVER_PATH = '/app/api/setup/agency-server';

// -- Appels à l'API ---------------------------------------------------------------

/** `GET /settings` : les réglages, l'adresse à donner aux intégrations, les sauvegardes. */
export function getSettings(): Promise<SettingsView> {
  return api.get<SettingsView>(SETTINGS_PATH);
}

/** `PUT /settings` : enregistre les réglages ; la vue relue. */
export function saveSettings(settings: SavedSettings): Promise<SettingsView> {
  return api.put<SettingsView>(SETTINGS_PATH, settings);
}

/** `POST /settings/backups` : une sauvegarde tout de suite. */
export function createBackup(): Promise<BackupEntry> {
  return api.post<BackupEntry>(BACKUPS_PATH, {});
}

/** `POST /settings/restore` : redémarre sur la sauvegarde `path` (chemin complet). */
export function restoreBackup(path: string): Promise<void> {
  return api.post<void>(RESTORE_PATH, { path });
}

/** `POST /settings/restart` : redémarre avec les réglages enregistrés. */
export function restartServer(): Promise<void> {
  return api.post<void>(RESTART_PATH, {});
}

/** `GET /diagnostics` : le texte du diagnostic à copier pour le support. */
export async function getDiagnostics(): Promise<string> {
  const response = await fetch(DIAGNOSTICS_PATH, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(FALLBACK_MESSAGES.server);
  return response.text();
}

export const MIN_PORT = 1024;
export const MAX_PORT = 65535;

/** Port saisi : un entier de 1024 à 65535 ; `undefined` si valable. */
export function validatePort(raw: string): string | undefined {
  const text = raw.trim();
  if (!/^\d+$/.test(text)) return 'Le port est un nombre (8080 par défaut).';
  const port = Number(text);
  if (port < MIN_PORT || port > MAX_PORT) {
    return `Choisissez un port entre ${MIN_PORT} et ${MAX_PORT} (8080 par défaut).`;
  }
  return undefined;
}

/** Dossier de sauvegarde saisi : vide (aucun) ou un chemin complet. */
export function validateBackupDir(raw: string): string | undefined {
  const text = raw.trim();
  if (text === '') return undefined;
  const absolute = text.startsWith('/') || /^[A-Za-z]:[\\/]/.test(text) || text.startsWith('\\\\');
  if (!absolute) {
    return `« ${text} » n'est pas un chemin complet : indiquez le dossier depuis la racine (par exemple /home/agence/Sauvegardes ou D:\\Sauvegardes).`;
  }
  return undefined;
}

/** Taille lisible en français : `1,5 Mo`. */
export function formatBytes(bytes: number): string {
  const units = ['octets', 'Ko', 'Mo', 'Go'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 ? String(value) : value.toLocaleString('fr-FR', { maximumFractionDigits: 1 });
  return `${shown} ${units[unit]}`;
}

/** `2026-11-25T09:30:00` → `25/11/2026 à 09:30`. */
export function formatBackupDate(takenAt: string | null): string {
  if (!takenAt) return '—';
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(takenAt);
  if (!match) return takenAt;
  const [, year, month, day, hour, minute] = match;
  return `${day}/${month}/${year} à ${hour}:${minute}`;
}

/** L'adresse à donner aux intégrations avec le port enregistré (après redémarrage). */
export function integrationUrl(baseUrl: string, port: number): string {
  try {
    const url = new URL(baseUrl);
    url.port = String(port);
    return url.origin;
  } catch {
    return baseUrl;
  }
}

export interface SetupForm {
  organization: string;
  agency: string;
  adminName: string;
  email: string;
  password: string;
  confirm: string;
}

export type SetupErrors = Partial<Record<keyof SetupForm, string>>;

/** Le formulaire d'installation : champs obligatoires, mot de passe d'au moins 8 caractères, confirmé. */
export function validateSetup(form: SetupForm): SetupErrors {
  const errors: SetupErrors = {};
  if (form.organization.trim() === '') errors.organization = "Le nom de l'organisation est obligatoire.";
  if (form.agency.trim() === '') errors.agency = "Le nom de l'agence est obligatoire.";
  const email = form.email.trim();
  if (email === '') errors.email = "L'adresse e-mail est obligatoire.";
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) errors.email = "L'adresse e-mail n'est pas valide.";
  if ([...form.password].length < 8) errors.password = 'Le mot de passe doit comporter au moins 8 caractères.';
  else if (form.password !== form.confirm) errors.confirm = 'Les deux mots de passe ne sont pas identiques.';
  return errors;
}

/**
 * Le fichier d'une restauration « depuis un fichier » : un chemin complet
 * (`/…` ou `C:\…`), comme le serveur l'exige ; null s'il convient. Le
 * serveur vérifie ensuite que c'est bien une base Liftdesk intacte.
 */
export function checkRestorePath(path: string): string | null {
  // The server's sentence (POST /app/api/settings/restore), for an empty or relative path alike.
  return /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(path.trim())
    ? null
    : 'Indiquez le chemin complet du fichier de sauvegarde.';
}

/**
 * L'adresse du serveur de l'agence telle que tapée : vide ou sans « https:// »
 * refusée tout de suite (le serveur vérifie le reste et qu'un Liftdesk y répond).
 */
export function validateAgencyServer(raw: string): string | null {
  const value = raw.trim();
  if (!value) return "Indiquez l'adresse du serveur de l'agence (par exemple https://liftdesk.agence.fr).";
  if (!/^https?:\/\//i.test(value)) {
    return "Écrivez l'adresse en entier, en commençant par https:// (par exemple https://liftdesk.agence.fr).";
  }
  return null;
}
