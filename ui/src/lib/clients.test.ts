import { describe, expect, it } from 'vitest';
import { recordRequests } from './test-requests';
import { canChange } from './roles';
import type { Session } from './api';
import {
  EMPTY_CLIENT_FILTERS,
  addressLine,
  addressParts,
  billingCategoryLabel,
  checkClient,
  checkContactEdit,
  checkContactField,
  clientEditBody,
  clientFieldNamedBy,
  clientQuery,
  compactNumber,
  compactPostalCode,
  contactBody,
  contactEditBody,
  contactFieldNamedBy,
  createClient,
  defaultElectronicAddress,
  electronicAddressShown,
  formDefaultAddress,
  deleteContact,
  editClient,
  editContact,
  emptyClientForm,
  emptyContactForm,
  fieldNamedBy,
  formOfClient,
  formOfContact,
  formatSiren,
  formatSiret,
  isDay,
  isEmail,
  newClientBody,
  parseNumber,
  limitPostalCode,
  POSTAL_CODE_PATTERN,
  validateClientSearch,
  validateContact,
  type ClientForm,
  type ClientView,
  type ContactView,
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

  it("montre l'adresse en bloc : la voie, le complément, « code postal ville »", () => {
    expect(
      addressParts({ address: '12 rue de la Paix', addressComplement: 'Bâtiment B', postalCode: '75002', city: 'Paris' }),
    ).toEqual([
      { part: 'street', text: '12 rue de la Paix' },
      { part: 'complement', text: 'Bâtiment B' },
      { part: 'town', text: '75002 Paris' },
    ]);
    expect(addressParts({ address: '3 rue Émile Zola', addressComplement: ' ', postalCode: null, city: 'Lyon' })).toEqual([
      { part: 'street', text: '3 rue Émile Zola' },
      { part: 'town', text: 'Lyon' },
    ]);
    expect(addressParts({ address: null, addressComplement: null, postalCode: null, city: null })).toEqual([]);
  });

  it("met l'adresse entière sur une ligne, celle du serveur", () => {
    expect(addressLine({ fullAddress: '12 rue de la Paix, Bâtiment B, 75002 Paris' })).toBe(
      '12 rue de la Paix, Bâtiment B, 75002 Paris',
    );
    expect(addressLine({ fullAddress: null })).toBe('—');
  });

  it('lit un code postal tapé avec des espaces, cinq chiffres au plus', () => {
    expect(compactPostalCode(' 75 002 ')).toBe('75002');
    expect(limitPostalCode('690031')).toBe('69003');
    expect(limitPostalCode('69 007')).toBe('69 007');
    expect(limitPostalCode('75002 Paris')).toBe('75002 ');
    expect(limitPostalCode('7500')).toBe('7500');
    const pattern = new RegExp(`^(?:${POSTAL_CODE_PATTERN})$`, 'v');
    expect(['75002', '75 002', ' 69003 '].every((v) => pattern.test(v))).toBe(true);
    expect(['7500', '750021', '75O02'].some((v) => pattern.test(v))).toBe(false);
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

/** Un client tel que `GET /clients/{id}` le donne. */
const client: ClientView = {
  id: 'CLI-1',
  name: 'Copropriété Les Tilleuls',
  status: 'Client',
  categories: ['Gestionnaire'],
  email: 'syndic@tilleuls.fr',
  phone: '01 47 58 12 34',
  address: '14 rue Anatole France',
  addressComplement: null,
  postalCode: '92300',
  city: 'Levallois-Perret',
  fullAddress: '14 rue Anatole France, 92300 Levallois-Perret',
  siren: '732829320',
  siret: '73282932000074',
  billingCategory: 'copropriete',
  billingCategoryLabel: 'Copropriété non assujettie à la TVA',
  vatNumber: null,
  electronicAddress: null,
  effectiveElectronicAddress: '732829320',
  serviceCode: null,
  einvoicing: 'e_reporting',
  einvoicingExplanation:
    "Client sans SIREN ou non assujetti à la TVA : la facture lui est remise comme aujourd'hui, et ses données sont transmises à l'administration par la plateforme de l'agence (e-reporting).",
  archived: false,
  url: 'http://localhost/clients/CLI-1',
};

const typedClient = (partial: Partial<ClientForm> = {}): ClientForm => ({
  ...emptyClientForm(),
  name: 'Copropriété Test',
  ...partial,
});

describe('formulaire « Nouveau client »', () => {
  it('part vide, au statut « Client »', () => {
    expect(emptyClientForm()).toEqual({
      id: '',
      name: '',
      status: 'Client',
      categories: [],
      billingCategory: '',
      email: '',
      phone: '',
      address: '',
      addressComplement: '',
      postalCode: '',
      city: '',
      siren: '',
      siret: '',
      vatNumber: '',
      electronicAddress: '',
      serviceCode: '',
    });
  });

  it('exige le nom et vérifie SIREN, SIRET et e-mail comme le serveur', () => {
    expect(checkClient(typedClient(), true)).toEqual({});
    expect(checkClient(typedClient({ name: '  ' }), true)).toEqual({ name: 'Le champ « Nom » est obligatoire.' });
    expect(checkClient(typedClient({ siren: '73282932', siret: '7328293200007' }), true)).toEqual({
      siren: 'Le SIREN doit comporter exactement 9 chiffres.',
      siret: 'Le SIRET doit comporter exactement 14 chiffres.',
    });
    expect(checkClient(typedClient({ siren: '732829321', siret: '73282932000075' }), true)).toEqual({
      siren: "Le SIREN n'est pas valide (clé de contrôle incorrecte).",
      siret: "Le SIRET n'est pas valide (clé de contrôle incorrecte).",
    });
    // Un SIRET valable d'une autre société.
    expect(checkClient(typedClient({ siren: '552100554', siret: '73282932000074' }), true)).toEqual({
      siret: 'Le SIRET doit commencer par le SIREN du client (552 100 554).',
    });
    expect(checkClient(typedClient({ email: 'syndic' }), true)).toEqual({
      email: "Le champ « E-mail » n'est pas une adresse e-mail valide : « syndic ».",
    });
    expect(checkClient(typedClient({ id: 'x'.repeat(501), address: 'é'.repeat(501) }), true)).toEqual({
      id: 'Le champ « Identifiant client » dépasse 500 caractères.',
      address: 'Le champ « Adresse (numéro et voie) » dépasse 500 caractères.',
    });
    // L'identifiant ne se vérifie pas en modification : il ne part pas.
    expect(checkClient(typedClient({ id: 'x'.repeat(501) }), false)).toEqual({});
  });

  it('refuse un code postal qui n\'est pas de cinq chiffres, avec la phrase du serveur', () => {
    expect(checkClient(typedClient({ postalCode: '7500' }), true)).toEqual({
      postalCode: "Le champ « Code postal » doit être un code postal français de cinq chiffres : « 7500 » n'en est pas un.",
    });
    expect(checkClient(typedClient({ postalCode: '75OO2' }), true).postalCode).toMatch(/« 75OO2 » n'en est pas un/);
    expect(checkClient(typedClient({ postalCode: ' 75 002 ', city: 'Paris' }), true)).toEqual({});
    expect(checkClient(typedClient({ city: 'é'.repeat(501) }), true)).toEqual({
      city: 'Le champ « Ville » dépasse 500 caractères.',
    });
  });

  it('envoie la voie avec son code postal et sa ville, même vides : rien à découper', () => {
    expect(newClientBody(typedClient({ address: '12 rue de la Paix', postalCode: '75 002', city: ' Paris ' }))).toEqual({
      name: 'Copropriété Test',
      status: 'Client',
      categories: [],
      address: '12 rue de la Paix',
      postalCode: '75002',
      city: 'Paris',
    });
    expect(newClientBody(typedClient({ address: '12 rue de la Paix, 75002 Paris' }))).toEqual({
      name: 'Copropriété Test',
      status: 'Client',
      categories: [],
      address: '12 rue de la Paix, 75002 Paris',
      postalCode: null,
      city: null,
    });
    expect(newClientBody(typedClient({ city: 'Lyon' }))).toEqual({
      name: 'Copropriété Test',
      status: 'Client',
      categories: [],
      postalCode: null,
      city: 'Lyon',
    });
  });

  it('lit un SIREN et un SIRET tapés avec des espaces', () => {
    expect(compactNumber(' 732 829 320 ')).toBe('732829320');
    expect(checkClient(typedClient({ siren: '732 829 320', siret: '732 829 320 00074' }), true)).toEqual({});
  });

  it('envoie le nom, le statut, les catégories et les champs remplis seulement', () => {
    expect(newClientBody(typedClient({ name: ' Copropriété Test ' }))).toEqual({
      name: 'Copropriété Test',
      status: 'Client',
      categories: [],
    });
    expect(
      newClientBody(
        typedClient({
          id: ' COPRO-42 ',
          status: 'Prospect',
          categories: ['Gestionnaire', 'Propriétaire/exploitant'],
          billingCategory: 'copropriete',
          email: ' syndic@test.fr ',
          phone: '01 02 03 04 05',
          address: '3 rue Émile Zola',
          addressComplement: '  ',
          siren: '732 829 320',
          siret: '73282932000074',
        }),
      ),
    ).toEqual({
      id: 'COPRO-42',
      name: 'Copropriété Test',
      status: 'Prospect',
      categories: ['Propriétaire/exploitant', 'Gestionnaire'],
      billingCategory: 'copropriete',
      email: 'syndic@test.fr',
      phone: '01 02 03 04 05',
      address: '3 rue Émile Zola',
      postalCode: null,
      city: null,
      siren: '732829320',
      siret: '73282932000074',
    });
  });
});

describe('formulaire « Modifier » d\'un client', () => {
  it('part des valeurs du client', () => {
    expect(formOfClient(client)).toEqual({
      id: 'CLI-1',
      name: 'Copropriété Les Tilleuls',
      status: 'Client',
      categories: ['Gestionnaire'],
      billingCategory: 'copropriete',
      email: 'syndic@tilleuls.fr',
      phone: '01 47 58 12 34',
      address: '14 rue Anatole France',
      addressComplement: '',
      postalCode: '92300',
      city: 'Levallois-Perret',
      siren: '732829320',
      siret: '73282932000074',
      vatNumber: '',
      electronicAddress: '',
      serviceCode: '',
    });
  });

  it("n'envoie rien quand rien n'a changé", () => {
    expect(clientEditBody(client, formOfClient(client))).toEqual({});
    // Des espaces autour, un SIREN groupé, des catégories dans un autre ordre : rien n'a changé.
    const same = { ...formOfClient(client), name: ' Copropriété Les Tilleuls ', siren: '732 829 320' };
    expect(clientEditBody(client, same)).toEqual({});
    const both = { ...client, categories: ['Gestionnaire', 'Propriétaire/exploitant'] };
    expect(
      clientEditBody(both, { ...formOfClient(both), categories: ['Propriétaire/exploitant', 'Gestionnaire'] }),
    ).toEqual({});
  });

  it("envoie ce qui a changé, null pour un champ vidé, jamais l'identifiant", () => {
    expect(clientEditBody(client, { ...formOfClient(client), phone: ' 01 99 88 77 66 ' })).toEqual({
      phone: '01 99 88 77 66',
    });
    expect(
      clientEditBody(client, {
        ...formOfClient(client),
        id: 'AUTRE',
        name: 'Copropriété Les Érables',
        status: 'Prospect',
        categories: [],
        email: '',
        siren: '',
        siret: '',
        addressComplement: 'Bâtiment B',
        billingCategory: '',
      }),
    ).toEqual({
      name: 'Copropriété Les Érables',
      status: 'Prospect',
      categories: [],
      email: null,
      siren: null,
      siret: null,
      addressComplement: 'Bâtiment B',
      billingCategory: null,
    });
    // Le code postal seul changé (tapé avec une espace) : la voie et la ville partent avec lui.
    expect(clientEditBody(client, { ...formOfClient(client), postalCode: '92 200' })).toEqual({
      address: '14 rue Anatole France',
      postalCode: '92200',
      city: 'Levallois-Perret',
    });
    // La voie changée : le code postal et la ville partent tels quels, le serveur ne découpe rien.
    expect(clientEditBody(client, { ...formOfClient(client), address: '16 rue Anatole France' })).toEqual({
      address: '16 rue Anatole France',
      postalCode: '92300',
      city: 'Levallois-Perret',
    });
    // La ville vidée : effacée.
    expect(clientEditBody(client, { ...formOfClient(client), city: ' ' })).toEqual({
      address: '14 rue Anatole France',
      postalCode: '92300',
      city: null,
    });
    const uncategorized = { ...client, billingCategory: null, billingCategoryLabel: null };
    expect(clientEditBody(uncategorized, { ...formOfClient(uncategorized), billingCategory: 'entreprise' })).toEqual({
      billingCategory: 'entreprise',
    });
  });

  it('montre la catégorie de facturation, ou « Non renseignée »', () => {
    expect(billingCategoryLabel(client)).toBe('Copropriété non assujettie à la TVA');
    expect(billingCategoryLabel({ billingCategory: 'organisme_public', billingCategoryLabel: null })).toBe(
      'Organisme public',
    );
    expect(billingCategoryLabel({ billingCategory: null, billingCategoryLabel: null })).toBe('Non renseignée');
  });

  it('retrouve le champ nommé par un refus du serveur', () => {
    const cases: [string, string | null][] = [
      ['Champ « siren » : Le SIREN doit comporter exactement 9 chiffres.', 'siren'],
      ["Champ « siret » : Le SIRET n'est pas valide (clé de contrôle incorrecte).", 'siret'],
      ['Le champ « siret » doit commencer par le SIREN du client (champ « siren »).', 'siret'],
      ["Le champ « email » n'est pas une adresse e-mail valide.", 'email'],
      ['Le champ « nom » est obligatoire.', 'name'],
      ['Le champ « telephone » dépasse 500 caractères.', 'phone'],
      ['Le champ « adresse » dépasse 500 caractères.', 'address'],
      ['Le champ « complement_adresse » dépasse 500 caractères.', 'addressComplement'],
      [
        "Le champ « Code postal » doit être un code postal français de cinq chiffres : « 7500 » n'en est pas un.",
        'postalCode',
      ],
      ['Le champ « code_postal » dépasse 500 caractères.', 'postalCode'],
      ['Le champ « ville » dépasse 500 caractères.', 'city'],
      ['Le champ « client_id » dépasse 500 caractères.', 'id'],
      [
        "La valeur « Locataire » du champ « type » n'est pas autorisée : valeurs possibles : « Propriétaire/exploitant », « Gestionnaire ».",
        'categories',
      ],
      ["La valeur « Ancien » du champ « statut » n'est pas autorisée : valeurs possibles : « Prospect », « Client ».", 'status'],
      ['Catégorie de facturation inconnue : « x ». Valeurs possibles : entreprise (Entreprise assujettie à la TVA).', 'billingCategory'],
      [
        "Un client de l'agence s'appelle déjà « Copropriété Les Tilleuls » : choisissez un autre nom ou ouvrez sa fiche.",
        'name',
      ],
      ["L'identifiant client « CLI-1 » est déjà celui d'un autre client de l'agence.", 'id'],
      [
        "Numéro de TVA du client : Le numéro de TVA intracommunautaire français s'écrit FR, une clé de 2 chiffres et le SIREN (9 chiffres), par exemple FR44732829320.",
        'vatNumber',
      ],
      ["Le numéro de TVA FR83404833048 n'est pas celui du SIREN du client (732829320).", 'vatNumber'],
      ['Le champ « numero_tva » dépasse 500 caractères.', 'vatNumber'],
      [
        "L'adresse de facturation électronique « compta@x.fr » contient « @ » : seuls les lettres sans accent, les chiffres et les signes - _ . sont permis (par exemple 732829320 ou 732829320_FACTURES).",
        'electronicAddress',
      ],
      ['Le champ « adresse_facturation_electronique » dépasse 500 caractères.', 'electronicAddress'],
      [
        "Le code service Chorus Pro « A B » n'est pas valable : 100 caractères au plus, lettres sans accent, chiffres et signes - _ . seulement.",
        'serviceCode',
      ],
      ['Le client « Copropriété Les Tilleuls » est archivé : restaurez-le avant de le modifier.', null],
      ["Vous n'avez pas les droits nécessaires pour cette action.", null],
    ];
    for (const [message, field] of cases) expect(clientFieldNamedBy(message), message).toBe(field);
  });
});

const contact: ContactView = {
  id: 'ct-1',
  name: 'Anne Martin',
  email: 'anne@tilleuls.fr',
  phone: null,
  role: 'Syndic',
};

describe('formulaire « Modifier » d\'un contact', () => {
  it('part des valeurs du contact et vérifie nom et e-mail', () => {
    const form = formOfContact(contact);
    expect(form).toEqual({ name: 'Anne Martin', email: 'anne@tilleuls.fr', phone: '', role: 'Syndic' });
    expect(checkContactEdit(form)).toEqual({});
    expect(checkContactEdit({ ...form, name: ' ', email: 'anne', role: 'x'.repeat(501) })).toEqual({
      name: 'Le champ « Nom » est obligatoire.',
      email: "Le champ « E-mail » n'est pas une adresse e-mail valide : « anne ».",
      role: 'Le champ « Fonction » dépasse 500 caractères.',
    });
  });

  it("envoie ce qui a changé, null pour un champ vidé", () => {
    expect(contactEditBody(contact, formOfContact(contact))).toEqual({});
    expect(contactEditBody(contact, { ...formOfContact(contact), role: ' Gardien ' })).toEqual({ role: 'Gardien' });
    expect(
      contactEditBody(contact, { name: 'Anne Durand', email: '', phone: '06 12 34 56 78', role: 'Syndic' }),
    ).toEqual({ name: 'Anne Durand', email: null, phone: '06 12 34 56 78' });
  });

  it('retrouve le champ nommé par un refus du serveur', () => {
    expect(
      contactFieldNamedBy('Le client « Copropriété Les Tilleuls » a déjà un contact nommé « Paul Gardien » (champ « nom »).'),
    ).toBe('name');
    expect(contactFieldNamedBy("Le champ « email » n'est pas une adresse e-mail valide.")).toBe('email');
    expect(contactFieldNamedBy('Le champ « telephone » dépasse 500 caractères.')).toBe('phone');
    expect(contactFieldNamedBy('Le champ « fonction » dépasse 500 caractères.')).toBe('role');
    expect(
      contactFieldNamedBy('Le client « X » est archivé : restaurez-le avant de modifier ses contacts.'),
    ).toBeNull();
  });
});

describe('qui crée et modifie les clients', () => {
  const session = (role: string) => ({ account: { role } }) as unknown as Session;

  it("tout le personnel, sauf l'opérateur du service", () => {
    for (const role of ['org_admin', 'agency_admin', 'member']) expect(canChange(session(role)), role).toBe(true);
    expect(canChange(session('operator'))).toBe(false);
  });
});

describe("appels à l'API des clients et des contacts", () => {
  const seen = recordRequests();

  it('crée, modifie un client, modifie et supprime un contact', async () => {
    await createClient(newClientBody(typedClient({ billingCategory: 'copropriete' })));
    await editClient('CLI 1/2', { phone: null });
    await editContact('ct-1', { role: 'Gardien' });
    await deleteContact('ct 1');
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['POST', '/app/api/clients'],
      ['PATCH', '/app/api/clients/CLI%201%2F2'],
      ['PATCH', '/app/api/contacts/ct-1'],
      ['DELETE', '/app/api/contacts/ct%201'],
    ]);
    expect(JSON.parse(seen[0]!.body!)).toEqual({
      name: 'Copropriété Test',
      status: 'Client',
      categories: [],
      billingCategory: 'copropriete',
    });
    expect(JSON.parse(seen[1]!.body!)).toEqual({ phone: null });
    expect(JSON.parse(seen[2]!.body!)).toEqual({ role: 'Gardien' });
    expect(seen[3]!.body).toBeUndefined();
  });
});

describe('facturation électronique du client', () => {
  const publicBody = (partial: Partial<ClientForm> = {}): ClientForm =>
    typedClient({ billingCategory: 'organisme_public', siren: '732 829 320', siret: '73282932000074', ...partial });

  it("donne l'adresse par défaut comme l'annuaire : le SIREN, ou SIREN_SIRET_CODE pour un organisme public", () => {
    expect(defaultElectronicAddress('entreprise', '732829320', '73282932000074', 'FACT')).toBe('732829320');
    expect(defaultElectronicAddress('', '732829320', null, null)).toBe('732829320');
    expect(defaultElectronicAddress('organisme_public', '732829320', '73282932000074', 'FACT')).toBe(
      '732829320_73282932000074_FACT',
    );
    expect(defaultElectronicAddress('organisme_public', '732829320', '73282932000074', null)).toBe(
      '732829320_73282932000074',
    );
    expect(defaultElectronicAddress('organisme_public', '732829320', null, 'FACT')).toBe('732829320');
    expect(defaultElectronicAddress('copropriete', null, null, null)).toBeNull();
  });

  it('le défaut suit la saisie : SIREN et SIRET valables, code service pour un organisme public seulement', () => {
    expect(formDefaultAddress(publicBody({ serviceCode: ' SERV-01 ' }))).toBe('732829320_73282932000074_SERV-01');
    expect(formDefaultAddress(publicBody({ billingCategory: 'entreprise', serviceCode: 'SERV-01' }))).toBe('732829320');
    expect(formDefaultAddress(publicBody({ siret: '7328293200' }))).toBe('732829320');
    expect(formDefaultAddress(typedClient({ siren: '7328' }))).toBeNull();
  });

  it("montre l'adresse enregistrée, sinon le défaut, sinon rien", () => {
    expect(electronicAddressShown(client)).toEqual({ address: '732829320', default: true });
    expect(
      electronicAddressShown({ electronicAddress: '732829320_FACTURES', effectiveElectronicAddress: '732829320_FACTURES' }),
    ).toEqual({ address: '732829320_FACTURES', default: false });
    expect(electronicAddressShown({ electronicAddress: null, effectiveElectronicAddress: null })).toBeNull();
  });

  it('vérifie le n° de TVA comme le serveur : sa forme, sa clé, le SIREN du client', () => {
    expect(checkClient(publicBody({ vatNumber: 'fr 44 732 829 320' }), true)).toEqual({});
    expect(checkClient(publicBody({ vatNumber: 'FR4473282932' }), true)).toEqual({
      vatNumber:
        "Numéro de TVA du client : Le numéro de TVA intracommunautaire français s'écrit FR, une clé de 2 chiffres et le SIREN (9 chiffres), par exemple FR44732829320.",
    });
    expect(checkClient(publicBody({ vatNumber: 'FR45732829320' }), true).vatNumber).toBe(
      'Numéro de TVA du client : La clé « 45 » ne correspond pas au SIREN 732 829 320 : le numéro de TVA est FR44732829320.',
    );
    expect(checkClient(publicBody({ vatNumber: 'FR83404833048' }), true)).toEqual({
      vatNumber: "Le numéro de TVA FR83404833048 n'est pas celui du SIREN du client (732829320).",
    });
    // Sans SIREN, un n° de TVA bien formé passe (le serveur fait de même).
    expect(checkClient(typedClient({ vatNumber: 'FR83404833048' }), true)).toEqual({});
    // L'adresse et le code service sont contrôlés par le serveur seul.
    expect(checkClient(publicBody({ electronicAddress: 'compta@x.fr', serviceCode: 'A B' }), true)).toEqual({});
  });

  it('envoie le n° de TVA compacté, l’adresse, et le code service pour un organisme public seulement', () => {
    expect(
      newClientBody(publicBody({ vatNumber: 'fr 44 732 829 320', electronicAddress: ' 732829320_FACT ', serviceCode: ' S1 ' })),
    ).toEqual({
      name: 'Copropriété Test',
      status: 'Client',
      categories: [],
      siren: '732829320',
      siret: '73282932000074',
      billingCategory: 'organisme_public',
      vatNumber: 'FR44732829320',
      electronicAddress: '732829320_FACT',
      serviceCode: 'S1',
    });
    expect(newClientBody(publicBody({ billingCategory: 'entreprise', serviceCode: 'S1' })).serviceCode).toBeUndefined();
  });

  it('en modification : ce qui change part, un champ vidé part à null, le code service seulement pour un organisme public', () => {
    const recorded: ClientView = {
      ...client,
      billingCategory: 'organisme_public',
      billingCategoryLabel: 'Organisme public',
      vatNumber: 'FR44732829320',
      electronicAddress: '732829320_FACT',
      serviceCode: 'S1',
    };
    expect(clientEditBody(recorded, formOfClient(recorded))).toEqual({});
    expect(
      clientEditBody(recorded, { ...formOfClient(recorded), vatNumber: '', electronicAddress: ' ', serviceCode: 'S2' }),
    ).toEqual({ vatNumber: null, electronicAddress: null, serviceCode: 'S2' });
    expect(clientEditBody(recorded, { ...formOfClient(recorded), serviceCode: '' })).toEqual({ serviceCode: null });
    // Devenu entreprise : la catégorie part, le code service (plus montré) ne part pas.
    expect(clientEditBody(recorded, { ...formOfClient(recorded), billingCategory: 'entreprise', serviceCode: '' })).toEqual({
      billingCategory: 'entreprise',
    });
  });
});
