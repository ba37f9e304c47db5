import { recordRequests } from './test-requests';
import { describe, expect, it, vi } from 'vitest';
import {
  ROLE_LABELS,
  actionsFor,
  agenciesText,
  checkAgencies,
  checkEmail,
  checkName,
  checkPerson,
  checkPosition,
  createPerson,
  deactivatePerson,
  displayName,
  editBody,
  editPerson,
  emptyPersonForm,
  fieldNamedBy,
  formOfPerson,
  listPeople,
  newPersonBody,
  orderedAgencyIds,
  reactivatePerson,
  resetPassword,
  roleChoices,
  statusOf,
  temporaryPasswordMessage,
  type PersonForm,
  type PersonWire,
} from './people';

const PARIS_OUEST = { id: 'ag-1', name: 'Agence Paris Ouest' };
const PARIS_EST = { id: 'ag-2', name: 'Agence Paris Est' };
const AGENCIES = [PARIS_OUEST, PARIS_EST];

const person = (overrides: Partial<PersonWire> = {}): PersonWire => ({
  id: 'acc-sophie',
  name: 'Sophie Martin',
  email: 'sophie.martin@ascenseurs-durand.fr',
  position: 'Assistante technique',
  role: 'member',
  roleLabel: 'Membre',
  active: true,
  performsSurveys: false,
  technician: false,
  mustChangePassword: false,
  agencies: [PARIS_OUEST],
  ...overrides,
});

const claire = person({
  id: 'acc-claire',
  name: 'Claire Durand',
  email: 'claire.durand@ascenseurs-durand.fr',
  position: null,
  role: 'org_admin',
  roleLabel: "Administrateur de l'organisation",
  agencies: AGENCIES,
});

const typed = (overrides: Partial<PersonForm> = {}): PersonForm => ({
  name: '  Paul Colin ',
  email: ' Paul.Colin@Ascenseurs-Durand.fr ',
  position: ' Technicien ',
  role: 'member',
  agencyIds: ['ag-1'],
  performsSurveys: false,
  technician: true,
  ...overrides,
});

describe('personnes : vérifications du serveur, mêmes messages', () => {
  it('accepte un nouveau compte complet saisi avec espaces et majuscules', () => {
    expect(checkPerson(typed(), true)).toEqual({});
  });

  it('exige le nom, 200 caractères au plus (en points de code)', () => {
    expect(checkName('   ')).toBe('Le nom est obligatoire.');
    expect(checkName('x'.repeat(201))).toBe('Le nom ne doit pas dépasser 200 caractères.');
    expect(checkName(`  ${'x'.repeat(200)}  `)).toBeUndefined();
    expect(checkName('🛗'.repeat(200))).toBeUndefined();
  });

  it("vérifie la forme de l'adresse e-mail comme le serveur", () => {
    expect(checkEmail('')).toBe("L'adresse e-mail est obligatoire.");
    expect(checkEmail(' paul.colin ')).toBe("L'adresse e-mail « paul.colin » n'est pas valide.");
    expect(checkEmail('paul@colin')).toBe("L'adresse e-mail « paul@colin » n'est pas valide.");
    expect(checkEmail('@ascenseurs-durand.fr')).toBe("L'adresse e-mail « @ascenseurs-durand.fr » n'est pas valide.");
    expect(checkEmail('paul colin@x.fr')).toBe("L'adresse e-mail « paul colin@x.fr » n'est pas valide.");
    expect(checkEmail(' Paul.Colin@Ascenseurs-Durand.FR ')).toBeUndefined();
  });

  it('borne la fonction, facultative, nommée par son libellé', () => {
    expect(checkPosition('   ')).toBeUndefined();
    expect(checkPosition('x'.repeat(100))).toBeUndefined();
    expect(checkPosition('x'.repeat(101))).toBe('Le champ « Fonction » ne doit pas dépasser 100 caractères.');
    expect(checkPosition('Chef\u0007')).toBe('Le champ « Fonction » ne doit pas contenir de caractère de contrôle.');
  });

  it("exige une agence, sauf pour un administrateur de l'organisation", () => {
    expect(checkAgencies({ role: 'member', agencyIds: [] })).toBe(
      'Indiquez au moins une agence où travaille ce compte.',
    );
    expect(checkAgencies({ role: 'agency_admin', agencyIds: [] })).toBeDefined();
    expect(checkAgencies({ role: 'org_admin', agencyIds: [] })).toBeUndefined();
    expect(checkAgencies({ role: 'member', agencyIds: ['ag-2'] })).toBeUndefined();
  });

  it("ne vérifie pas l'adresse e-mail d'un compte modifié (elle ne se change pas)", () => {
    const form = typed({ name: '', email: 'illisible', position: 'x'.repeat(101), agencyIds: [] });
    expect(checkPerson(form, false)).toEqual({
      name: 'Le nom est obligatoire.',
      position: 'Le champ « Fonction » ne doit pas dépasser 100 caractères.',
      agencyIds: 'Indiquez au moins une agence où travaille ce compte.',
    });
    expect(checkPerson(form, true).email).toBe("L'adresse e-mail « illisible » n'est pas valide.");
  });
});

describe('personnes : formulaire et corps envoyés', () => {
  it("un nouveau compte : membre de l'agence active", () => {
    expect(emptyPersonForm(AGENCIES, 'ag-2')).toEqual({
      name: '',
      email: '',
      position: '',
      role: 'member',
      agencyIds: ['ag-2'],
      performsSurveys: false,
      technician: false,
    });
    // Une seule agence à donner : cochée d'emblée ; sinon aucune.
    expect(emptyPersonForm([PARIS_EST], 'ag-9').agencyIds).toEqual(['ag-2']);
    expect(emptyPersonForm(AGENCIES, null).agencyIds).toEqual([]);
  });

  it('le corps de la création : rogné, fonction vide → null, agences dans leur ordre', () => {
    expect(newPersonBody(typed({ agencyIds: ['ag-2', 'ag-1'] }), AGENCIES)).toEqual({
      name: 'Paul Colin',
      email: 'Paul.Colin@Ascenseurs-Durand.fr',
      position: 'Technicien',
      role: 'member',
      agencyIds: ['ag-1', 'ag-2'],
      performsSurveys: false,
      technician: true,
    });
    expect(newPersonBody(typed({ position: '  ' }), AGENCIES).position).toBeNull();
    // Un administrateur de l'organisation travaille dans toutes : aucune agence envoyée.
    expect(newPersonBody(typed({ role: 'org_admin' }), AGENCIES).agencyIds).toEqual([]);
  });

  it('garde les agences inconnues de la liste après les autres, sans doublon', () => {
    expect(orderedAgencyIds({ agencyIds: ['ag-x', 'ag-2', 'ag-2'] }, AGENCIES)).toEqual(['ag-2', 'ag-x']);
  });

  it("le formulaire d'une personne enregistrée", () => {
    expect(formOfPerson(person())).toEqual({
      name: 'Sophie Martin',
      email: 'sophie.martin@ascenseurs-durand.fr',
      position: 'Assistante technique',
      role: 'member',
      agencyIds: ['ag-1'],
      performsSurveys: false,
      technician: false,
    });
    expect(formOfPerson(person({ name: null, position: null })).name).toBe('');
    expect(formOfPerson(claire).agencyIds).toEqual([]);
  });

  it('la modification : seulement ce qui a changé', () => {
    const sophie = person();
    expect(editBody(sophie, formOfPerson(sophie), AGENCIES, true)).toEqual({});
    expect(editBody(sophie, { ...formOfPerson(sophie), name: ' Sophie Martin ' }, AGENCIES, true)).toEqual({});
    expect(editBody(sophie, { ...formOfPerson(sophie), position: 'Responsable technique' }, AGENCIES, true)).toEqual({
      position: 'Responsable technique',
    });
    // Une fonction vidée est envoyée vide : le serveur l'efface.
    expect(editBody(sophie, { ...formOfPerson(sophie), position: '  ' }, AGENCIES, true)).toEqual({ position: '' });
    expect(
      editBody(
        sophie,
        { ...formOfPerson(sophie), role: 'agency_admin', agencyIds: ['ag-2', 'ag-1'], performsSurveys: true },
        AGENCIES,
        true,
      ),
    ).toEqual({ role: 'agency_admin', agencyIds: ['ag-1', 'ag-2'], performsSurveys: true });
  });

  it('le rôle de son propre compte ne part jamais', () => {
    const sophie = person();
    expect(editBody(sophie, { ...formOfPerson(sophie), role: 'agency_admin' }, AGENCIES, false)).toEqual({});
  });

  it("un administrateur de l'organisation : sans agences, ou avec celles de son nouveau rôle", () => {
    expect(editBody(person(), { ...formOfPerson(person()), role: 'org_admin' }, AGENCIES, true)).toEqual({
      role: 'org_admin',
    });
    expect(editBody(claire, { ...formOfPerson(claire), name: 'Claire Durand-Roux' }, AGENCIES, true)).toEqual({
      name: 'Claire Durand-Roux',
    });
    expect(editBody(claire, { ...formOfPerson(claire), role: 'member', agencyIds: ['ag-2'] }, AGENCIES, true)).toEqual({
      role: 'member',
      agencyIds: ['ag-2'],
    });
  });
});

describe('personnes : la liste', () => {
  it('le nom affiché, à défaut l’adresse e-mail', () => {
    expect(displayName(person())).toBe('Sophie Martin');
    expect(displayName(person({ name: null }))).toBe('sophie.martin@ascenseurs-durand.fr');
    expect(displayName(person({ name: '  ' }))).toBe('sophie.martin@ascenseurs-durand.fr');
  });

  it('le statut : désactivé, sinon mot de passe provisoire, sinon actif', () => {
    expect(statusOf(person())).toEqual({ label: 'Actif', tone: 'success' });
    expect(statusOf(person({ mustChangePassword: true }))).toEqual({ label: 'Mot de passe provisoire', tone: 'neutral' });
    expect(statusOf(person({ active: false, mustChangePassword: true }))).toEqual({ label: 'Désactivé', tone: 'danger' });
  });

  it('les agences', () => {
    expect(agenciesText(person({ agencies: AGENCIES }))).toBe('Agence Paris Ouest, Agence Paris Est');
    expect(agenciesText(person({ agencies: [] }))).toBe('—');
    expect(agenciesText(claire)).toBe('Toutes les agences');
  });

  it('les rôles proposés', () => {
    expect(roleChoices(true)).toEqual(['org_admin', 'agency_admin', 'member']);
    expect(roleChoices(false)).toEqual(['agency_admin', 'member']);
    expect(roleChoices(false, 'org_admin')).toEqual(['org_admin', 'agency_admin', 'member']);
    expect(ROLE_LABELS.org_admin).toBe("Administrateur de l'organisation");
    expect(ROLE_LABELS.agency_admin).toBe("Administrateur d'agence");
    expect(ROLE_LABELS.member).toBe('Membre');
  });

  it('le mot de passe provisoire à transmettre', () => {
    expect(temporaryPasswordMessage(person({ name: 'Paul Colin' }))).toBe(
      'Transmettez ce mot de passe provisoire à Paul Colin : il ne sera plus affiché. À sa première connexion, il choisira le sien.',
    );
  });
});

describe('personnes : ce que chaque ligne propose', () => {
  const orgAdmin = { canNameOrgAdmins: true, me: 'acc-claire' };
  const agencyAdmin = { canNameOrgAdmins: false, me: 'acc-marc' };

  it('tout, sur le compte actif d’un autre', () => {
    expect(actionsFor(person(), orgAdmin)).toEqual({
      edit: true,
      changeRole: true,
      deactivate: true,
      reactivate: false,
      resetPassword: true,
    });
  });

  it('un compte désactivé se réactive, sans nouveau mot de passe', () => {
    expect(actionsFor(person({ active: false }), orgAdmin)).toMatchObject({
      edit: true,
      deactivate: false,
      reactivate: true,
      resetPassword: false,
    });
  });

  it('son propre compte : « Modifier » seul, sans le rôle', () => {
    expect(actionsFor(claire, orgAdmin)).toEqual({
      edit: true,
      changeRole: false,
      deactivate: false,
      reactivate: false,
      resetPassword: false,
    });
  });

  it("un administrateur d'agence ne gère pas un administrateur de l'organisation", () => {
    expect(Object.values(actionsFor(claire, agencyAdmin)).some(Boolean)).toBe(false);
    expect(actionsFor(person(), agencyAdmin).deactivate).toBe(true);
  });

  it("un administrateur de l'organisation gère un autre administrateur de l'organisation", () => {
    expect(actionsFor(claire, { canNameOrgAdmins: true, me: 'acc-autre' })).toMatchObject({
      changeRole: true,
      deactivate: true,
      resetPassword: true,
    });
  });
});

describe('personnes : refus du serveur', () => {
  it('nomme le champ refusé, la phrase restant celle du serveur', () => {
    expect(fieldNamedBy('Le nom est obligatoire.')).toBe('name');
    expect(fieldNamedBy("L'adresse e-mail « paul@x.fr » est déjà utilisée par un autre compte.")).toBe('email');
    expect(fieldNamedBy("L'adresse e-mail « paul » n'est pas valide.")).toBe('email');
    expect(fieldNamedBy('Le champ « position » ne doit pas dépasser 100 caractères.')).toBe('position');
    expect(
      fieldNamedBy("Seul un administrateur de l'organisation nomme un administrateur de l'organisation."),
    ).toBe('role');
    expect(
      fieldNamedBy(
        "C'est le dernier administrateur de l'organisation : nommez-en un autre avant de changer son rôle.",
      ),
    ).toBe('role');
    expect(fieldNamedBy('Indiquez au moins une agence où travaille ce compte (champ « agencyIds »).')).toBe(
      'agencyIds',
    );
    expect(fieldNamedBy('Agence introuvable : ag-9.')).toBe('agencyIds');
    expect(fieldNamedBy('Compte introuvable.')).toBeNull();
  });
});

describe('personnes : appels à l’API', () => {
  const seen = recordRequests();

  it('lit, crée, modifie, désactive, réactive et réinitialise', async () => {
    await listPeople();
    await createPerson(newPersonBody(typed(), AGENCIES));
    await editPerson('acc 1', { position: 'Chef' });
    await deactivatePerson('acc-1');
    await reactivatePerson('acc-1');
    await resetPassword('acc-1');
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['GET', '/app/api/people'],
      ['POST', '/app/api/people'],
      ['PATCH', '/app/api/people/acc%201'],
      ['POST', '/app/api/people/acc-1/deactivate'],
      ['POST', '/app/api/people/acc-1/reactivate'],
      ['POST', '/app/api/people/acc-1/password-reset'],
    ]);
    expect(JSON.parse(seen[1]!.body!)).toEqual({
      name: 'Paul Colin',
      email: 'Paul.Colin@Ascenseurs-Durand.fr',
      position: 'Technicien',
      role: 'member',
      agencyIds: ['ag-1'],
      performsSurveys: false,
      technician: true,
    });
    expect(JSON.parse(seen[2]!.body!)).toEqual({ position: 'Chef' });
    expect(seen[3]!.body).toBeUndefined();
  });

  it('un refus du serveur arrive tel quel', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: "L'adresse e-mail « paul@x.fr » est déjà utilisée par un autre compte." }), {
            status: 409,
          }),
      ),
    );
    await expect(createPerson(newPersonBody(typed(), AGENCIES))).rejects.toMatchObject({
      status: 409,
      message: "L'adresse e-mail « paul@x.fr » est déjà utilisée par un autre compte.",
    });
  });
});
