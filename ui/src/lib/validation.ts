/** Validation côté client du formulaire de connexion (messages en français). */

export interface LoginInput {
  email: string;
  password: string;
}

export interface LoginErrors {
  email?: string;
  password?: string;
}

export const LOGIN_MESSAGES = {
  emailRequired: 'Saisissez votre adresse e-mail.',
  emailInvalid: 'Saisissez une adresse e-mail valide, par exemple nom@exemple.fr.',
  passwordRequired: 'Saisissez votre mot de passe.',
} as const;

/**
 * Forme minimale d'une adresse : une partie locale, une arobase, un domaine, sans espace.
 * Volontairement permissive (`admin@localhost` passe) : c'est le serveur qui fait foi.
 */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

export function validateEmail(email: string): string | undefined {
  const value = email.trim();
  if (value === '') return LOGIN_MESSAGES.emailRequired;
  if (!EMAIL_SHAPE.test(value)) return LOGIN_MESSAGES.emailInvalid;
  return undefined;
}

export function validatePassword(password: string): string | undefined {
  // Le mot de passe n'est jamais rogné : seul un champ vide est refusé.
  if (password === '') return LOGIN_MESSAGES.passwordRequired;
  return undefined;
}

/** Renvoie les erreurs par champ ; un objet vide signifie que le formulaire peut être envoyé. */
export function validateLogin(input: LoginInput): LoginErrors {
  const errors: LoginErrors = {};
  const email = validateEmail(input.email);
  if (email) errors.email = email;
  const password = validatePassword(input.password);
  if (password) errors.password = password;
  return errors;
}

export function hasErrors(errors: LoginErrors): boolean {
  return Object.values(errors).some(Boolean);
}

/**
 * Un numéro de téléphone rogné, la règle du serveur (`text::phone`) : chiffres
 * (4 à 15), espaces, points, tirets, un « + » en tête. `undefined` s'il est
 * valable, sinon la raison du serveur, le champ nommé `name`.
 */
export function phoneReason(name: string, phone: string): string | undefined {
  const digits = [...phone].filter((c) => c >= '0' && c <= '9').length;
  const shaped = [...phone].every((c, i) => /[0-9 .-]/u.test(c) || (c === '+' && i === 0));
  if (shaped && digits >= 4 && digits <= 15) return undefined;
  return `Le champ « ${name} » doit être un numéro de téléphone (chiffres, espaces, points, tirets, « + » en tête) : « ${phone} » n'en est pas un.`;
}
