import { describe, expect, it } from 'vitest';
import { hasErrors, LOGIN_MESSAGES, validateEmail, validateLogin, validatePassword } from './validation';

describe('validateLogin', () => {
  it('exige une adresse e-mail et un mot de passe', () => {
    expect(validateLogin({ email: '', password: '' })).toEqual({
      email: 'Saisissez votre adresse e-mail.',
      password: 'Saisissez votre mot de passe.',
    });
  });

  it("considère une adresse faite d'espaces comme vide", () => {
    expect(validateLogin({ email: '   ', password: 'secret' })).toEqual({
      email: LOGIN_MESSAGES.emailRequired,
    });
  });

  it('signale seulement le mot de passe manquant', () => {
    expect(validateLogin({ email: 'chef@agence.fr', password: '' })).toEqual({
      password: LOGIN_MESSAGES.passwordRequired,
    });
  });

  it('accepte un formulaire complet, espaces autour de l’adresse compris', () => {
    const errors = validateLogin({ email: '  chef@agence.fr ', password: 'secret' });
    expect(errors).toEqual({});
    expect(hasErrors(errors)).toBe(false);
  });

  it('ne modifie pas les valeurs saisies', () => {
    const input = { email: ' chef@agence.fr', password: ' mot de passe ' };
    validateLogin(input);
    expect(input).toEqual({ email: ' chef@agence.fr', password: ' mot de passe ' });
  });
});

describe('validateEmail', () => {
  it.each(['chef', 'chef@', '@agence.fr', 'chef @agence.fr', 'chef@agence@fr'])(
    'refuse « %s »',
    (email) => {
      expect(validateEmail(email)).toBe(
        'Saisissez une adresse e-mail valide, par exemple nom@exemple.fr.',
      );
    },
  );

  it.each(['chef@agence.fr', 'admin@localhost', 'prénom.nom+test@sous.domaine.fr'])(
    'accepte « %s »',
    (email) => {
      expect(validateEmail(email)).toBeUndefined();
    },
  );
});

describe('validatePassword', () => {
  it('accepte un mot de passe fait d’espaces (il n’est jamais rogné)', () => {
    expect(validatePassword('   ')).toBeUndefined();
  });

  it('refuse un mot de passe vide', () => {
    expect(validatePassword('')).toBe('Saisissez votre mot de passe.');
  });
});

describe('hasErrors', () => {
  it('détecte une erreur présente', () => {
    expect(hasErrors({ email: LOGIN_MESSAGES.emailRequired })).toBe(true);
    expect(hasErrors({ email: undefined })).toBe(false);
  });
});
