import { describe, expect, it } from 'vitest';
import {
  EMPTY_CLIENT_FILTERS,
  addressLine,
  checkContactField,
  clientQuery,
  contactBody,
  emptyContactForm,
  fieldNamedBy,
  formatSiren,
  formatSiret,
  isDay,
  isEmail,
  parseNumber,
  validateClientSearch,
  validateContact,
  type CreationDescriptor,
  type DescriptorField,
} from './clients';

/** Le descripteur tel que `GET /contacts/creation` le donne. */
const descriptor: CreationDescriptor = {
  type: 'contact',
  parent: { label: 'Client', object: 'client', required: true },
  fields: [
    { id: 'nom', label: 'Nom', required: true, type: 'text', values: null },
    { id: 'email', label: 'E-mail', required: false, type: 'email', values: null },
    { id: 'telephone', label: 'Téléphone', required: false, type: 'text', values: null },
    { id: 'fonction', label: 'Fonction', required: false, type: 'choice', values: ['Gardien', 'Syndic', 'Autre'] },
  ],
};

const field = (partial: Partial<DescriptorField>): DescriptorField => ({
  id: 'x',
  label: 'Champ',
  required: false,
  type: 'text',
  values: null,
  ...partial,
});

describe('liste des clients', () => {
  it('envoie la recherche rognée, le filtre et la page', () => {
    expect(clientQuery(EMPTY_CLIENT_FILTERS, 1)).toBe('archived=active&limit=25&page=1');
    expect(clientQuery({ q: '  syndic dupont ', archived: 'all' }, 3, 10)).toBe(
      'q=syndic+dupont&archived=all&limit=10&page=3',
    );
  });

  it('refuse une recherche trop longue, comme le serveur', () => {
    expect(validateClientSearch('x'.repeat(100))).toBeUndefined();
    expect(validateClientSearch(` ${'é'.repeat(100)} `)).toBeUndefined();
    expect(validateClientSearch('x'.repeat(101))).toBe('Le paramètre « q » ne doit pas dépasser 100 caractères.');
  });
});

describe('mise en forme', () => {
  it('groupe le SIREN par trois et le SIRET en SIREN puis NIC', () => {
    expect(formatSiren('732829320')).toBe('732 829 320');
    expect(formatSiret('73282932000074')).toBe('732 829 320 00074');
    expect(formatSiren(null)).toBe('—');
    expect(formatSiret('')).toBe('—');
    expect(formatSiren('12 34')).toBe('12 34');
  });

  it("met l'adresse et son complément sur une ligne", () => {
    expect(addressLine({ address: '3 rue Émile Zola', addressComplement: 'Bâtiment B' })).toBe(
      '3 rue Émile Zola — Bâtiment B',
    );
    expect(addressLine({ address: '3 rue Émile Zola', addressComplement: null })).toBe('3 rue Émile Zola');
    expect(addressLine({ address: null, addressComplement: ' ' })).toBe('—');
  });
});

describe('formulaire « Nouveau contact »', () => {
  it('part vide, champ par champ du descripteur', () => {
    const withMulti = { ...descriptor, fields: [...descriptor.fields, field({ id: 'm', type: 'multi', values: ['A'] })] };
    expect(emptyContactForm(withMulti)).toEqual({ nom: '', email: '', telephone: '', fonction: '', m: [] });
  });

  it('refuse avec les phrases du serveur, en nommant le champ par son libellé', () => {
    expect(validateContact(descriptor, { nom: '  ', email: 'anne', telephone: '', fonction: 'Concierge' })).toEqual({
      nom: 'Le champ « Nom » est obligatoire.',
      email: "Le champ « E-mail » n'est pas une adresse e-mail valide : « anne ».",
      fonction:
        "La valeur « Concierge » du champ « Fonction » n'est pas autorisée : valeurs possibles : « Gardien », « Syndic », « Autre ».",
    });
    expect(validateContact(descriptor, { nom: 'x'.repeat(501), email: '', telephone: '', fonction: '' })).toEqual({
      nom: 'Le champ « Nom » dépasse 500 caractères.',
    });
    expect(
      validateContact(descriptor, { nom: ' Anne Martin ', email: ' anne@dupont.fr ', telephone: '', fonction: 'Syndic' }),
    ).toEqual({});
  });

  it('connaît chaque type du descripteur', () => {
    const date = field({ label: 'Jour', type: 'date' });
    expect(checkContactField(date, '2026-02-28')).toBeUndefined();
    expect(checkContactField(date, '2026-02-30')).toBe(
      'Le champ « Jour » doit être une date AAAA-MM-JJ : « 2026-02-30 » n\'en est pas une.',
    );
    const number = field({ label: 'Nombre', type: 'number', required: true });
    expect(checkContactField(number, '12,5')).toBeUndefined();
    expect(checkContactField(number, 'douze')).toBe("Le champ « Nombre » n'a pas le type attendu : un nombre.");
    expect(checkContactField(number, '')).toBe('Le champ « Nombre » est obligatoire.');
    const multi = field({ label: 'Plusieurs', type: 'multi', values: ['Un', 'Deux'], required: true });
    expect(checkContactField(multi, ['Deux'])).toBeUndefined();
    expect(checkContactField(multi, [])).toBe('Le champ « Plusieurs » est obligatoire.');
    expect(checkContactField(multi, ['Trois'])).toBe(
      "La valeur « Trois » du champ « Plusieurs » n'est pas autorisée : valeurs possibles : « Un », « Deux ».",
    );
  });

  it("suit la règle d'adresse e-mail du serveur", () => {
    expect(isEmail('anne@dupont.fr')).toBe(true);
    expect(isEmail('a@b@c.fr')).toBe(true);
    for (const wrong of ['anne', 'a@b', '@dupont.fr', 'a b@c.fr', 'a@.fr', 'a@fr.']) {
      expect(isEmail(wrong), wrong).toBe(false);
    }
    expect(isEmail(`${'a'.repeat(250)}@b.fr`)).toBe(false);
  });

  it('lit les jours et les nombres', () => {
    expect(isDay('2024-02-29')).toBe(true);
    expect(isDay('2026-1-5')).toBe(false);
    expect(parseNumber(' 1 250,5 ')).toBe(1250.5);
    expect(parseNumber('1e3')).toBe(1000);
    expect(parseNumber('12a')).toBeNull();
  });

  it("n'envoie que les champs remplis, tels que tapés (le serveur rogne)", () => {
    expect(
      contactBody(descriptor, 'CLI-1', { nom: ' Anne Martin ', email: '', telephone: '06 12', fonction: 'Syndic' }),
    ).toEqual({ parentId: 'CLI-1', champs: { nom: ' Anne Martin ', telephone: '06 12', fonction: 'Syndic' } });
    const numbers = { ...descriptor, fields: [field({ id: 'n', type: 'number' }), field({ id: 'm', type: 'multi' })] };
    expect(contactBody(numbers, 'CLI-1', { n: '12,5', m: [] })).toEqual({ parentId: 'CLI-1', champs: { n: 12.5 } });
  });

  it('retrouve le champ nommé par un refus du serveur', () => {
    expect(
      fieldNamedBy(descriptor, 'Le client « Syndic Dupont » a déjà un contact nommé « Jean Gardien » (champ « Nom »).'),
    ).toBe('nom');
    expect(fieldNamedBy(descriptor, 'Le client « Syndic Dupont » est archivé : il ne reçoit plus de contacts.')).toBeNull();
  });
});
