/**
 * Mon compte : les appels à `/app/api/account…`. La validation du changement
 * de mot de passe est dans `keys.ts`.
 */
import { api } from './api';
import type { PasswordChanged } from './generated/contract';

export type { PasswordChanged } from './generated/contract';

/**
 * `POST /account/password` : change le mot de passe ; le serveur révoque tous
 * les jetons d'API du compte et dit combien.
 */
export function changePassword(currentPassword: string, newPassword: string): Promise<PasswordChanged> {
  return api.post<PasswordChanged>('/app/api/account/password', { currentPassword, newPassword });
}
