import { describe, expect, it } from 'vitest';
import { recordRequests } from './test-requests';
import type { BuildingView } from './buildings';
import {
  EMPTY_FILTERS,
  PARK_STATES,
  archiveEquipment,
  archivedNote,
  buildingLine,
  byYear,
  checkMove,
  checkNewEquipment,
  createEquipment,
  emptyEquipmentForm,
  equipmentChoice,
  equipmentFieldNamedBy,
  intervalReason,
  isArchivedEntry,
  KNOWLEDGE_RANGES,
  knowledgeChip,
  listEquipment,
  parkAddress,
  readParkFilters,
  moveEquipment,
  newEquipmentBody,
  formatMinutes,
  formatRate,
  formatValue,
  identityForm,
  identityPatch,
  inputOf,
  parkQuery,
  parseInput,
  restoreEquipment,
  technicalPatch,
  validateIdentity,
  validateSearch,
  type Identity,
  type LogbookEntry,
  type NewEquipmentForm,
  type ParkEntry,
  type TechnicalField,
} from './equipment';

const identity: Identity = {
  id: 'e1',
  number: 'ASC 1',
  serialNumber: null,
  type: 'ascenseur',
  subtype: null,
  location: 'Hall A',
  maintenanceContract: 'parc',
  contractNumber: null,
  externalId: null,
  link: '/equipements/e1',
  url: 'http://127.0.0.1:8080/equipements/e1',
};

function field(partial: Partial<TechnicalField>): TechnicalField {
  return {
    code: 'vitesse',
    label: 'Vitesse nominale',
    unit: 'm/s',
    valueType: 'number',
    choices: [],
    value: null,
    surveyedAt: null,
    surveyNumber: null,
    counts: true,
    ...partial,
  };
}

describe('park query', () => {
  it('omits empty filters and trims the search', () => {
    expect(parkQuery(EMPTY_FILTERS, 1)).toBe('archived=active&page=1&limit=50');
    expect(parkQuery({ ...EMPTY_FILTERS, q: '  tilleuls ', type: 'ascenseur', knowledge: 'bon' }, 3)).toBe(
      'q=tilleuls&type=ascenseur&knowledge=bon&archived=active&page=3&limit=50',
    );
    expect(parkQuery({ ...EMPTY_FILTERS, client: 'CLI-1', contract: 'aucun' }, 1, 20)).toBe(
      'client=CLI-1&contract=aucun&archived=active&page=1&limit=20',
    );
  });

  it("sends the « État » filter: the park by default, the archived ones or all", () => {
    expect(EMPTY_FILTERS.archived).toBe('active');
    expect(PARK_STATES).toEqual([
      { code: 'active', label: 'Au parc' },
      { code: 'archived', label: 'Archivés' },
      { code: 'all', label: 'Tous' },
    ]);
    expect(parkQuery({ ...EMPTY_FILTERS, archived: 'archived' }, 1)).toBe('archived=archived&page=1&limit=50');
    expect(parkQuery({ ...EMPTY_FILTERS, q: 'ASC', archived: 'all' }, 2)).toBe('q=ASC&archived=all&page=2&limit=50');
  });

  it('lit la tranche de connaissance du tableau de bord dans l’adresse, et l’envoie', () => {
    for (const { code } of KNOWLEDGE_RANGES) {
      const { filters } = readParkFilters(`?knowledge=${code}`);
      expect(filters).toEqual({ ...EMPTY_FILTERS, knowledge: code });
      expect(parkQuery(filters, 1)).toBe(`knowledge=${code}&archived=active&page=1&limit=50`);
    }
    expect(readParkFilters('?knowledge=moyen').filters.knowledge).toBe('moyen');
    expect(readParkFilters('?knowledge=tout').filters.knowledge).toBe('');
  });

  it('montre une tranche du tableau de bord en étiquette, pas celles du menu', () => {
    expect(knowledgeChip('25_49')).toBe('Taux de connaissance : 25 à 49 %');
    expect(knowledgeChip('0_24')).toBe('Taux de connaissance : moins de 25 %');
    expect(knowledgeChip('100')).toBe('Taux de connaissance : 100 %');
    expect(knowledgeChip('faible')).toBeNull();
    expect(knowledgeChip('')).toBeNull();
  });

  it('lit les autres filtres de l’adresse, ignore les codes inconnus', () => {
    expect(readParkFilters('?q=%20tilleuls%20&type=ascenseur&contract=aucun&archived=all&page=3')).toEqual({
      filters: { ...EMPTY_FILTERS, q: 'tilleuls', type: 'ascenseur', contract: 'aucun', archived: 'all' },
      page: 3,
    });
    expect(readParkFilters('?type=fusee&contract=x&archived=jamais&page=-1')).toEqual({ filters: EMPTY_FILTERS, page: 1 });
  });

  it("réécrit l'adresse du parc : vides, « Au parc » et page 1 omis, client jamais", () => {
    expect(parkAddress(EMPTY_FILTERS, 1)).toBe('/equipements');
    expect(parkAddress({ ...EMPTY_FILTERS, knowledge: '25_49', client: 'CLI-1' }, 2)).toBe(
      '/equipements?knowledge=25_49&page=2',
    );
    const filters = { ...EMPTY_FILTERS, q: 'ASC', type: 'ascenseur', contract: 'aucun', knowledge: '100', archived: 'archived' as const };
    const address = parkAddress(filters, 4);
    expect(readParkFilters(address.slice(address.indexOf('?')))).toEqual({ filters, page: 4 });
  });

  it('marks a row archived when the server says so', () => {
    const entry: ParkEntry = {
      id: 'e1',
      number: 'ASC 1',
      type: 'ascenseur',
      typeLabel: 'Ascenseur',
      location: null,
      maintenanceContract: 'parc',
      building: null,
      client: null,
      knowledgeRate: 50,
      knowledgeBand: 'moyen',
      archivedAt: null,
    };
    expect(isArchivedEntry(entry)).toBe(false);
    expect(isArchivedEntry({ ...entry, archivedAt: '2026-11-28T17:00:00Z' })).toBe(true);
  });

  it('refuses a search longer than the server accepts', () => {
    expect(validateSearch('a'.repeat(100))).toBeUndefined();
    expect(validateSearch('a'.repeat(101))).toBe('La recherche ne doit pas dépasser 100 caractères.');
  });

  it('writes a building on one line', () => {
    expect(
      buildingLine({
        id: 'b',
        name: 'Les Tilleuls',
        address: '3 rue Émile Zola',
        addressComplement: null,
        postalCode: '92300',
        city: 'Levallois-Perret',
      }),
    ).toBe('Les Tilleuls, 3 rue Émile Zola, 92300 Levallois-Perret');
    expect(buildingLine(null)).toBe('Aucun immeuble');
  });
});

describe('identity', () => {
  it('sends only the changed fields, an emptied one as ""', () => {
    const form = identityForm(identity);
    expect(form.serialNumber).toBe('');
    form.serialNumber = ' SN-1 ';
    form.location = '';
    expect(identityPatch(identity, form)).toEqual({ serialNumber: 'SN-1', location: '' });
    expect(identityPatch(identity, identityForm(identity))).toEqual({});
  });

  it('validates like the server', () => {
    const form = identityForm(identity);
    form.number = 'x'.repeat(61);
    form.location = 'Hall\u0007';
    form.type = 'fusée';
    expect(validateIdentity(form)).toEqual({
      number: 'Le champ « Numéro » ne doit pas dépasser 60 caractères.',
      location: 'Le champ « Emplacement » ne doit pas contenir de caractère de contrôle.',
      type: "La valeur « fusée » du champ « Type » n'est pas autorisée.",
    });
    form.number = 'x'.repeat(60);
    form.location = '';
    form.type = '';
    expect(validateIdentity(form)).toEqual({});
  });
});

describe('technical data', () => {
  it('parses numbers with a French comma and refuses negatives', () => {
    expect(parseInput(field({}), '1,6')).toEqual({ value: 1.6 });
    expect(parseInput(field({}), '')).toEqual({ value: null });
    expect(parseInput(field({}), '-1')).toEqual({
      error: 'Le champ « Vitesse nominale » doit être un nombre positif ou nul.',
    });
    expect(parseInput(field({}), 'vite')).toHaveProperty('error');
  });

  it('parses integers, choices, booleans and texts', () => {
    const levels = field({ code: 'nombre_niveaux', label: 'Nombre de niveaux', valueType: 'integer', unit: null });
    expect(parseInput(levels, '7')).toEqual({ value: 7 });
    expect(parseInput(levels, '2,5')).toEqual({
      error: 'Le champ « Nombre de niveaux » doit être un nombre entier compris entre 0 et 1000000.',
    });
    expect(parseInput(levels, '1000001')).toHaveProperty('error');
    const door = field({ label: 'Type de porte', valueType: 'choice', choices: ['Battante', 'Pliante'], unit: null });
    expect(parseInput(door, 'Battante')).toEqual({ value: 'Battante' });
    expect(parseInput(door, 'Tournante')).toEqual({
      error: "La valeur « Tournante » du champ « Type de porte » n'est pas autorisée : valeurs possibles : « Battante », « Pliante ».",
    });
    const cell = field({ valueType: 'boolean', unit: null });
    expect(parseInput(cell, 'true')).toEqual({ value: true });
    expect(parseInput(cell, 'false')).toEqual({ value: false });
    const brand = field({ label: 'Marque', valueType: 'text', unit: null });
    expect(parseInput(brand, ' Otis ')).toEqual({ value: 'Otis' });
    expect(parseInput(brand, 'x'.repeat(501))).toEqual({
      error: 'Le champ « Marque » ne doit pas dépasser 500 caractères.',
    });
  });

  it('builds the patch of the changed data only, or the errors', () => {
    const speed = field({ value: 1.6 });
    const load = field({ code: 'charge_utile', label: 'Charge utile', unit: 'kg', value: null });
    const brand = field({ code: 'marque', label: 'Marque', valueType: 'text', unit: null, value: 'Otis' });
    const inputs = { vitesse: inputOf(speed), charge_utile: '630', marque: '' };
    expect(inputs.vitesse).toBe('1,6');
    expect(technicalPatch([speed, load, brand], inputs)).toEqual({
      body: { charge_utile: 630, marque: null },
      errors: {},
    });
    expect(technicalPatch([speed], { vitesse: '-2' }).errors).toEqual({
      vitesse: 'Le champ « Vitesse nominale » doit être un nombre positif ou nul.',
    });
  });

  it('formats values with their unit', () => {
    expect(formatValue({ value: 630, unit: 'kg' })).toBe('630 kg');
    expect(formatValue({ value: 1.6, unit: 'm/s' })).toBe('1,6 m/s');
    expect(formatValue({ value: true, unit: null })).toBe('oui');
    expect(formatValue({ value: 1270, unit: 'mm' })).toBe('1\u202f270 mm');
    expect(formatValue({ value: 2003, unit: null })).toBe('2003');
    expect(formatValue({ value: null, unit: 'kg' })).toBe('—');
    expect(formatRate(47.3)).toBe('47,3 %');
  });
});

describe('durations and logbook', () => {
  it('formats minutes', () => {
    expect(formatMinutes(0)).toBe('0 min');
    expect(formatMinutes(45)).toBe('45 min');
    expect(formatMinutes(540)).toBe('9 h');
    expect(formatMinutes(545)).toBe('9 h 05 min');
    expect(formatMinutes(1440 + 185)).toBe('1 j 3 h 05 min');
  });

  it('groups the logbook by year, oldest first', () => {
    const entry = (id: string, at: string): LogbookEntry => ({
      kind: 'visite',
      id,
      at,
      title: 'Visite',
      startedAt: null,
      endedAt: null,
      day: null,
      technicianName: null,
      work: null,
      outcome: '',
      reference: null,
      report: null,
    });
    const groups = byYear([entry('c', '2026-02-01T08:00:00.000Z'), entry('a', '2025-12-01'), entry('b', '2026-01-05T09:00:00.000Z')]);
    expect(groups.map((g) => [g.year, g.entries.map((e) => e.id)])).toEqual([
      ['2025', ['a']],
      ['2026', ['b', 'c']],
    ]);
  });
});

const building: BuildingView = {
  id: 'bat-1',
  name: 'Résidence Test',
  address: '12 rue des Lilas',
  addressComplement: null,
  postalCode: '75011',
  city: 'Paris',
  client: { id: 'CLI-7', name: 'Syndic Martin' },
  access: { instructions: ['Digicode'], other: null, digicode: '4521B', keyBox: null },
  equipmentCount: 0,
};

function newForm(partial: Partial<NewEquipmentForm> = {}): NewEquipmentForm {
  return { ...emptyEquipmentForm(), number: ' ASC-T1 ', type: 'ascenseur', maintenanceContract: 'parc', ...partial };
}

describe('nouvel équipement', () => {
  it('exige le numéro et vérifie l’identité comme une correction', () => {
    expect(checkNewEquipment(newForm(), false)).toEqual({});
    expect(checkNewEquipment(newForm({ number: '  ' }), false)).toEqual({ number: 'Le champ « Numéro » est obligatoire.' });
    expect(checkNewEquipment(newForm({ number: 'x'.repeat(61), subtype: 'a\u0001', type: 'fusée' }), false)).toEqual({
      number: 'Le champ « Numéro » ne doit pas dépasser 60 caractères.',
      subtype: 'Le champ « Sous-type » ne doit pas contenir de caractère de contrôle.',
      type: "La valeur « fusée » du champ « Type » n'est pas autorisée.",
    });
  });

  it("vérifie l'intervalle d'un administrateur : 1 à 365 jours, 42 au plus pour un ascenseur", () => {
    expect(intervalReason('', 'ascenseur')).toBeUndefined();
    expect(intervalReason(' 30 ', 'ascenseur')).toBeUndefined();
    expect(intervalReason('42', 'ascenseur')).toBeUndefined();
    expect(intervalReason('43', 'ascenseur')).toBe(
      'Un ascenseur doit être visité au moins toutes les six semaines : 42 jours au plus.',
    );
    expect(intervalReason('90', 'monte_charge')).toBeUndefined();
    for (const wrong of ['0', '366', '2,5', '-1', 'trente']) {
      expect(intervalReason(wrong, '')).toBe("L'intervalle entre deux visites doit être un nombre de jours entre 1 et 365.");
    }
    expect(checkNewEquipment(newForm({ visitIntervalDays: '60' }), true)).toEqual({
      visitIntervalDays: 'Un ascenseur doit être visité au moins toutes les six semaines : 42 jours au plus.',
    });
    // Un membre ne voit pas le champ : il n'est ni vérifié ni envoyé.
    expect(checkNewEquipment(newForm({ visitIntervalDays: '60' }), false)).toEqual({});
  });

  it('envoie les seuls champs saisis, l’immeuble et le client par leur identifiant', () => {
    expect(newEquipmentBody(newForm(), true)).toEqual({ number: 'ASC-T1', type: 'ascenseur', maintenanceContract: 'parc' });
    const form = newForm({
      subtype: ' électrique ',
      location: 'Hall A',
      contractNumber: 'C-12',
      serialNumber: 'SN 9',
      building,
      client: { id: 'CLI-7', name: 'Syndic Martin' },
      visitIntervalDays: ' 30 ',
    });
    expect(newEquipmentBody(form, true)).toEqual({
      number: 'ASC-T1',
      serialNumber: 'SN 9',
      type: 'ascenseur',
      subtype: 'électrique',
      location: 'Hall A',
      maintenanceContract: 'parc',
      contractNumber: 'C-12',
      buildingId: 'bat-1',
      clientId: 'CLI-7',
      visitIntervalDays: 30,
    });
    expect(newEquipmentBody(form, false)).not.toHaveProperty('visitIntervalDays');
  });

  it('retrouve le champ que nomme un refus du serveur', () => {
    expect(
      equipmentFieldNamedBy(
        "Le numéro « ASC 1 » est déjà utilisé par un autre équipement de l'agence (« ASC1 ») : les espaces et la casse ne distinguent pas deux numéros.",
      ),
    ).toBe('number');
    expect(equipmentFieldNamedBy('Le champ « number » est obligatoire.')).toBe('number');
    expect(equipmentFieldNamedBy("La valeur « fusée » du champ « type » n'est pas autorisée : valeurs possibles : …")).toBe(
      'type',
    );
    expect(equipmentFieldNamedBy("Le champ « buildingId » ne désigne aucun immeuble de l'agence : « x ».")).toBe('building');
    expect(equipmentFieldNamedBy("Le champ « clientId » ne désigne aucun client de l'agence : « X ».")).toBe('client');
    expect(
      equipmentFieldNamedBy("Le client « A » est archivé : on ne lui rattache plus d'immeuble ni d'équipement."),
    ).toBe('client');
    expect(
      equipmentFieldNamedBy(
        "Modifier l'intervalle d'entretien d'un équipement est réservé à un administrateur de l'agence.",
      ),
    ).toBe('visitIntervalDays');
    expect(equipmentFieldNamedBy('Un ascenseur doit être visité au moins toutes les six semaines : 42 jours au plus.')).toBe(
      'visitIntervalDays',
    );
    expect(equipmentFieldNamedBy('Le serveur a rencontré une erreur. Réessayez plus tard.')).toBeNull();
  });

  it('« Changer de client » demande un autre client choisi dans la liste', () => {
    const current = { id: 'CLI-1', name: 'Copropriété A' };
    expect(checkMove(current, null)).toBe('Choisissez le nouveau client dans la liste.');
    expect(checkMove(current, { ...current })).toBe("L'équipement est déjà rattaché au client « Copropriété A ».");
    expect(checkMove(current, { id: 'CLI-2', name: 'B' })).toBeUndefined();
    expect(checkMove(null, { id: 'CLI-2', name: 'B' })).toBeUndefined();
  });
});

describe("appels à l'API : création et changement de client", () => {
  const seen = recordRequests();

  it('crée un équipement et le rattache à un autre client', async () => {
    await createEquipment(newEquipmentBody(newForm({ building }), false));
    await moveEquipment('eq 1/2', 'CLI-9');
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['POST', '/app/api/equipment'],
      ['POST', '/app/api/equipment/eq%201%2F2/client'],
    ]);
    expect(JSON.parse(seen[0]!.body!)).toEqual({
      number: 'ASC-T1',
      type: 'ascenseur',
      maintenanceContract: 'parc',
      buildingId: 'bat-1',
    });
    expect(JSON.parse(seen[1]!.body!)).toEqual({ clientId: 'CLI-9' });
  });
});

describe('archivage', () => {
  it('dit sur la fiche depuis quand l’équipement est archivé', () => {
    expect(archivedNote('2026-11-28T10:15:00Z')).toBe('Équipement archivé le 28/11/2026 : il ne fait plus partie du parc.');
    expect(archivedNote('2026-03-05')).toBe('Équipement archivé le 05/03/2026 : il ne fait plus partie du parc.');
  });
});

describe("appels à l'API : archivage, remise dans le parc et filtre « État »", () => {
  const seen = recordRequests();

  it('archive et remet dans le parc par POST, sans corps utile', async () => {
    await archiveEquipment('eq 1/2');
    await restoreEquipment('eq 1/2');
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['POST', '/app/api/equipment/eq%201%2F2/archive'],
      ['POST', '/app/api/equipment/eq%201%2F2/restore'],
    ]);
    expect(seen.map((s) => JSON.parse(s.body ?? '{}'))).toEqual([{}, {}]);
  });

  it('lit le parc avec l’état choisi', async () => {
    await listEquipment(EMPTY_FILTERS, 1);
    await listEquipment({ ...EMPTY_FILTERS, archived: 'archived', q: 'ASC-T1' }, 2);
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['GET', '/app/api/equipment?archived=active&page=1&limit=50'],
      ['GET', '/app/api/equipment?q=ASC-T1&archived=archived&page=2&limit=50'],
    ]);
  });
});

describe('équipement choisi depuis sa fiche', () => {
  it('donne le numéro, l’immeuble et l’adresse des recherches de « Nouvel appel » et « Nouveau devis »', () => {
    const building = {
      id: 'b1',
      name: 'Résidence Les Tilleuls',
      address: '3 rue Émile Zola',
      addressComplement: null,
      postalCode: '92300',
      city: 'Levallois-Perret',
    };
    expect(equipmentChoice({ id: 'e1', identity: { ...identity, number: 'ASC 1' }, building })).toEqual({
      id: 'e1',
      number: 'ASC 1',
      building: 'Résidence Les Tilleuls',
      address: '3 rue Émile Zola, 92300 Levallois-Perret',
    });
    expect(equipmentChoice({ id: 'e2', identity: { ...identity, number: null }, building: null })).toEqual({
      id: 'e2',
      number: null,
      building: null,
      address: null,
    });
  });
});
