import { describe, expect, it } from 'vitest';
import { recordRequests } from './test-requests';
import {
  ACCESS_VALUES,
  accessBody,
  accessFieldNamedBy,
  accessIsEmpty,
  accessSummary,
  buildingAddressLines,
  buildingChoiceLine,
  buildingEquipmentQuery,
  buildingChoiceText,
  buildingFieldNamedBy,
  buildingTitle,
  checkAccess,
  checkBuilding,
  createBuilding,
  emptyAccessForm,
  emptyBuildingForm,
  formOfAccess,
  getBuilding,
  listBuildingEquipment,
  newBuildingBody,
  searchBuildings,
  setBuildingAccess,
  showsDigicode,
  showsKeyBox,
  textReason,
  toggleInstruction,
  type BuildingForm,
  type BuildingView,
} from './buildings';

const view: BuildingView = {
  id: 'b1',
  name: 'Résidence Les Tilleuls',
  address: '3 rue Émile Zola',
  addressComplement: null,
  postalCode: '92300',
  city: 'Levallois-Perret',
  client: { id: 'CLI-7', name: 'Syndic Martin' },
  access: { instructions: ['Digicode'], other: null, digicode: 'A1234', keyBox: null },
  equipmentCount: 2,
};

function typed(partial: Partial<BuildingForm> = {}): BuildingForm {
  return {
    ...emptyBuildingForm(),
    name: ' Résidence Test ',
    address: ' 12 rue des Lilas ',
    postalCode: '75011',
    city: 'Paris',
    ...partial,
  };
}

describe('lignes des immeubles', () => {
  it('montre « adresse, CP ville — client » dans la liste, le nom et l’adresse une fois choisi', () => {
    expect(buildingChoiceLine(view)).toBe('3 rue Émile Zola, 92300 Levallois-Perret — Syndic Martin');
    expect(buildingChoiceLine({ ...view, client: null, addressComplement: 'Bâtiment B', city: null })).toBe(
      '3 rue Émile Zola, Bâtiment B, 92300',
    );
    expect(buildingChoiceText(view)).toBe('Résidence Les Tilleuls — 3 rue Émile Zola, 92300 Levallois-Perret');
    expect(buildingChoiceText({ ...view, name: null })).toBe('3 rue Émile Zola, 92300 Levallois-Perret');
  });

  it('titre la fiche par le nom, sinon par la voie', () => {
    expect(buildingTitle(view)).toBe('Immeuble Résidence Les Tilleuls');
    expect(buildingTitle({ ...view, name: null })).toBe('Immeuble 3 rue Émile Zola');
    expect(buildingTitle({ ...view, name: '  ' })).toBe('Immeuble 3 rue Émile Zola');
  });

  it('découpe l’adresse en lignes, sans les parties absentes', () => {
    expect(buildingAddressLines(view)).toEqual(['3 rue Émile Zola', '92300 Levallois-Perret']);
    expect(buildingAddressLines({ ...view, addressComplement: 'Bâtiment B', postalCode: null })).toEqual([
      '3 rue Émile Zola',
      'Bâtiment B',
      'Levallois-Perret',
    ]);
    expect(buildingAddressLines({ ...view, postalCode: null, city: null })).toEqual(['3 rue Émile Zola']);
  });

  it('résume les consignes d’accès', () => {
    expect(accessSummary(view.access)).toBe('Digicode');
    expect(accessSummary({ ...view.access, instructions: ['Digicode', 'Vigik'] })).toBe('Digicode, Vigik');
    expect(accessSummary({ ...view.access, instructions: [] })).toBe('Non renseignées');
  });
});

describe("consignes d'accès", () => {
  it('garde l’ordre des valeurs possibles quand on coche', () => {
    let instructions = toggleInstruction([], 'Vigik', true);
    instructions = toggleInstruction(instructions, 'Digicode', true);
    expect(instructions).toEqual(['Digicode', 'Vigik']);
    expect(toggleInstruction(instructions, 'Digicode', false)).toEqual(['Vigik']);
    expect(toggleInstruction(instructions, 'Vigik', true)).toEqual(['Digicode', 'Vigik']);
  });

  it('montre le digicode et le coffre avec leur consigne, ou tant qu’ils gardent une valeur', () => {
    const form = emptyAccessForm();
    expect(showsDigicode(form)).toBe(false);
    expect(showsKeyBox(form)).toBe(false);
    form.instructions = ['Digicode', 'Coffre à clé'];
    expect(showsDigicode(form)).toBe(true);
    expect(showsKeyBox(form)).toBe(true);
    const kept = { ...emptyAccessForm(), digicode: 'A1', keyBox: 'Loge' };
    expect(showsDigicode(kept)).toBe(true);
    expect(showsKeyBox(kept)).toBe(true);
  });

  it('vérifie comme le serveur : valeurs connues, précisions avec « Autre », textes bornés', () => {
    expect(checkAccess({ ...emptyAccessForm(), instructions: ['Digicode'], digicode: 'A1234' })).toEqual({});
    expect(checkAccess({ ...emptyAccessForm(), instructions: ['Autre'], other: '  ' })).toEqual({
      other: "Le champ « Précisions » est obligatoire quand « Autre » est choisi dans « Consignes d'accès ».",
    });
    expect(checkAccess({ ...emptyAccessForm(), instructions: ['Autre'], other: 'Badge au PC' })).toEqual({});
    expect(checkAccess({ ...emptyAccessForm(), instructions: ['Badge'] })).toEqual({
      instructions:
        "La valeur « Badge » du champ « Consignes d'accès » n'est pas autorisée : valeurs possibles : « Sans », « Digicode », « Coffre à clé », « Vigik », « Autre ».",
    });
    expect(checkAccess({ ...emptyAccessForm(), digicode: 'x'.repeat(201), keyBox: 'Loge\u0007' })).toEqual({
      digicode: 'Le champ « Code du digicode » ne doit pas dépasser 200 caractères.',
      keyBox: 'Le champ « Coffre à clé — emplacement » ne doit pas contenir de caractère de contrôle.',
    });
    expect(checkAccess({ ...emptyAccessForm(), digicode: 'é'.repeat(200) })).toEqual({});
  });

  it('envoie les textes rognés, vides à null, les consignes dans l’ordre', () => {
    const form = { instructions: ['Vigik', 'Digicode'], other: ' ', digicode: ' 4521B ', keyBox: '' };
    expect(accessBody(form)).toEqual({ instructions: ['Digicode', 'Vigik'], other: null, digicode: '4521B', keyBox: null });
    expect(formOfAccess(view.access)).toEqual({ instructions: ['Digicode'], other: '', digicode: 'A1234', keyBox: '' });
    expect(accessIsEmpty(emptyAccessForm())).toBe(true);
    expect(accessIsEmpty({ ...emptyAccessForm(), keyBox: 'Loge' })).toBe(false);
  });

  it('retrouve le champ que nomme un refus du serveur', () => {
    expect(
      accessFieldNamedBy("Le champ « accessOther » est obligatoire quand « Autre » est choisi dans « accessInstructions »."),
    ).toBe('other');
    expect(accessFieldNamedBy("La valeur « Badge » du champ « accessInstructions » n'est pas autorisée : …")).toBe(
      'instructions',
    );
    expect(accessFieldNamedBy('Le champ « keyBox » ne doit pas dépasser 200 caractères.')).toBe('keyBox');
    expect(accessFieldNamedBy('Le champ « digicode » ne doit pas contenir de caractère de contrôle.')).toBe('digicode');
    expect(accessFieldNamedBy('Immeuble introuvable.')).toBeNull();
  });
});

describe('« Nouvel immeuble »', () => {
  it('mêmes règles que le serveur : adresse obligatoire, code postal de cinq chiffres, textes bornés', () => {
    expect(checkBuilding(typed())).toEqual({});
    expect(checkBuilding(typed({ address: '  ' }))).toEqual({ address: 'Le champ « Adresse » est obligatoire.' });
    for (const code of ['9230', '923000', '92 30', '2A004']) {
      expect(checkBuilding(typed({ postalCode: code })).postalCode).toBe(
        `Le champ « Code postal » doit être un code postal français de cinq chiffres : « ${code} » n'en est pas un.`,
      );
    }
    expect(checkBuilding(typed({ postalCode: ' 92300 ' }))).toEqual({});
    expect(checkBuilding(typed({ name: 'x'.repeat(201), city: 'Paris\u0000' }))).toEqual({
      name: 'Le champ « Nom » ne doit pas dépasser 200 caractères.',
      city: 'Le champ « Ville » ne doit pas contenir de caractère de contrôle.',
    });
    expect(
      checkBuilding(typed({ access: { ...emptyAccessForm(), instructions: ['Autre'] } })).other,
    ).toMatch(/^Le champ « Précisions » est obligatoire/);
  });

  it('textReason : obligatoire, longueur en caractères, contrôle', () => {
    expect(textReason('Nom', '')).toBeUndefined();
    expect(textReason('Nom', ' ', { required: true })).toBe('Le champ « Nom » est obligatoire.');
    expect(textReason('Nom', 'abcd', { max: 3 })).toBe('Le champ « Nom » ne doit pas dépasser 3 caractères.');
  });

  it('envoie les seuls champs saisis, le client par son identifiant, les consignes si elles sont saisies', () => {
    expect(newBuildingBody(typed())).toEqual({
      name: 'Résidence Test',
      address: '12 rue des Lilas',
      postalCode: '75011',
      city: 'Paris',
    });
    const form = typed({
      name: '',
      city: ' ',
      client: { id: 'CLI-7', name: 'Syndic Martin' },
      access: { instructions: ['Vigik', 'Digicode'], other: '', digicode: '4521B', keyBox: '' },
    });
    expect(newBuildingBody(form)).toEqual({
      address: '12 rue des Lilas',
      postalCode: '75011',
      clientId: 'CLI-7',
      access: { instructions: ['Digicode', 'Vigik'], other: null, digicode: '4521B', keyBox: null },
    });
  });

  it('part du client proposé', () => {
    expect(emptyBuildingForm({ id: 'CLI-1', name: 'A' }).client).toEqual({ id: 'CLI-1', name: 'A' });
    expect(emptyBuildingForm().access).toEqual(emptyAccessForm());
  });

  it('retrouve le champ que nomme un refus du serveur', () => {
    expect(buildingFieldNamedBy('Le champ « address » est obligatoire.')).toBe('address');
    expect(buildingFieldNamedBy('Le champ « postalCode » doit être un code postal français de cinq chiffres : « 9 » …')).toBe(
      'postalCode',
    );
    expect(buildingFieldNamedBy("Le champ « clientId » ne désigne aucun client de l'agence : « X ».")).toBe('client');
    expect(
      buildingFieldNamedBy("Le client « Syndic Martin » est archivé : on ne lui rattache plus d'immeuble ni d'équipement."),
    ).toBe('client');
    expect(
      buildingFieldNamedBy("Le champ « accessOther » est obligatoire quand « Autre » est choisi dans « accessInstructions »."),
    ).toBe('other');
    expect(buildingFieldNamedBy('Le champ « addressComplement » ne doit pas dépasser 200 caractères.')).toBe(
      'addressComplement',
    );
    expect(buildingFieldNamedBy("Vous n'avez pas les droits nécessaires pour cette action.")).toBeNull();
  });

  it('connaît les mêmes consignes que le serveur', () => {
    expect([...ACCESS_VALUES]).toEqual(['Sans', 'Digicode', 'Coffre à clé', 'Vigik', 'Autre']);
  });
});

describe("appels à l'API des immeubles", () => {
  const seen = recordRequests();

  it('cherche, lit, crée un immeuble et change ses consignes', async () => {
    await searchBuildings(' lilas paris ');
    await getBuilding('b 1/2');
    await createBuilding(newBuildingBody(typed({ client: { id: 'CLI-7', name: 'Syndic Martin' } })));
    await setBuildingAccess('b1', accessBody({ instructions: ['Coffre à clé'], other: '', digicode: '', keyBox: 'Loge' }));
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['GET', '/app/api/buildings?q=lilas%20paris'],
      ['GET', '/app/api/buildings/b%201%2F2'],
      ['POST', '/app/api/buildings'],
      ['PUT', '/app/api/buildings/b1/access'],
    ]);
    expect(seen[0]!.body).toBeUndefined();
    expect(JSON.parse(seen[2]!.body!)).toEqual({
      name: 'Résidence Test',
      address: '12 rue des Lilas',
      postalCode: '75011',
      city: 'Paris',
      clientId: 'CLI-7',
    });
    expect(JSON.parse(seen[3]!.body!)).toEqual({ instructions: ['Coffre à clé'], other: null, digicode: null, keyBox: 'Loge' });
  });

  it('lit les équipements au parc d’un immeuble, page par page', async () => {
    await listBuildingEquipment('b 1/2', 2);
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['GET', '/app/api/equipment?building=b+1%2F2&archived=active&page=2&limit=50'],
    ]);
    expect(buildingEquipmentQuery('b1', 0)).toBe('building=b1&archived=active&page=1&limit=50');
    expect(buildingEquipmentQuery('b1', 3, 10)).toBe('building=b1&archived=active&page=3&limit=10');
  });
});
