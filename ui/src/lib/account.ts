/**
 * Mon compte : les appels à `/app/api/account…`. La validation du changement
 * de mot de passe est dans `keys.ts`.
 */
import { api } from './api';

/**
 * `POST /account/password` : change le mot de passe ; le serveur révoque tous
 * les jetons d'API du compte et dit combien.
 */
export function changePassword(currentPassword: string, newPassword: string): Promise<{ revokedTokens: number }> {
  return api.post<{ revokedTokens: number }>('/app/api/account/password', { currentPassword, newPassword });
}
