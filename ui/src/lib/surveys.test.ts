import { describe, expect, it } from 'vitest';
import {
  dataComponents,
  discrepancyBody,
  initialInputs,
  inputOf,
  statusTone,
  submissionBody,
  surveyQuery,
  validateDiscrepancy,
  validateSearch,
  validateSurveyedOn,
  type FormComponent,
  type SurveyData,
} from './surveys';

const components: FormComponent[] = [
  {
    component: 'equipment',
    label: 'Appareil',
    fields: [
      { code: 'charge_utile', label: 'Charge utile', unit: 'kg', valueType: 'number', choices: [], value: 630 },
      { code: 'nombre_niveaux', label: 'Nombre de niveaux desservis', unit: null, valueType: 'integer', choices: [], value: null },
      { code: 'marque', label: 'Marque', unit: null, valueType: 'text', choices: [], value: 'Otis' },
    ],
  },
  {
    component: 'car_door',
    label: 'Porte de cabine',
    fields: [
      {
        code: 'porte_cabine_type',
        label: 'Type de porte cabine',
        unit: null,
        valueType: 'choice',
        choices: ['Battante', 'Pliante'],
        value: null,
      },
      { code: 'porte_cabine_cellule', label: 'Barrière immatérielle', unit: null, valueType: 'boolean', choices: [], value: null },
    ],
  },
];

describe('liste', () => {
  it('omet une recherche vide et rogne la recherche', () => {
    expect(surveyQuery('  ', 1)).toBe('page=1&limit=50');
    expect(surveyQuery(' REL-2026 ', 3, 20)).toBe('q=REL-2026&page=3&limit=20');
  });

  it('refuse une recherche de plus de 100 caractères, comme le serveur', () => {
    expect(validateSearch('x'.repeat(100))).toBeUndefined();
    expect(validateSearch('x'.repeat(101))).toBe('La recherche ne doit pas dépasser 100 caractères.');
  });

  it('colore les statuts finaux', () => {
    expect(statusTone('termine')).toBe('success');
    expect(statusTone('annule')).toBe('danger');
    expect(statusTone('a_realiser')).toBe('');
  });
});

describe('données par composant', () => {
  it("garde l'ordre du serveur et nomme les composants", () => {
    const data = {
      components: {
        equipment: [{ code: 'charge_utile', libelle: 'Charge utile', valeur: 630, unite: 'kg', champV1: { table: 't', champ: 'c' } }],
        landing_door: [],
      },
    } as unknown as SurveyData;
    const grouped = dataComponents(data, [
      { component: 'equipment', label: 'Appareil' },
      { component: 'car_door', label: 'Porte de cabine' },
    ]);
    expect(grouped.map((g) => [g.component, g.label])).toEqual([
      ['equipment', 'Appareil'],
      ['landing_door', 'landing door'],
    ]);
  });
});

describe('écart', () => {
  const keys = ['car_door', 'machine'];

  it('exige un constat de 3 à 2000 caractères', () => {
    expect(validateDiscrepancy({ component: 'equipment', finding: 'Trappe absente' }, keys)).toEqual({});
    expect(validateDiscrepancy({ component: 'car_door', finding: '  ab  ' }, keys).finding).toBe(
      "Le constat doit contenir au moins 3 caractères : décrivez l'écart constaté.",
    );
    expect(validateDiscrepancy({ component: 'machine', finding: 'é'.repeat(2000) }, keys)).toEqual({});
    expect(validateDiscrepancy({ component: 'machine', finding: 'é'.repeat(2001) }, keys).finding).toBe(
      'Le constat ne doit pas dépasser 2000 caractères.',
    );
  });

  it('refuse un composant inconnu', () => {
    expect(validateDiscrepancy({ component: 'toit', finding: 'Trappe absente' }, keys).component).toBe(
      'Le composant « toit » n\'est pas reconnu.',
    );
  });

  it("envoie l'équipement entier sans composant, le constat rogné", () => {
    expect(discrepancyBody('e1', 's1', { component: 'equipment', finding: ' Trappe absente ' })).toEqual({
      equipmentId: 'e1',
      surveyId: 's1',
      component: null,
      finding: 'Trappe absente',
    });
    expect(discrepancyBody('e1', 's1', { component: 'car_door', finding: 'Galets usés' }).component).toBe('car_door');
  });
});

describe('soumission', () => {
  const today = '2026-11-21';
  const requestedOn = '2026-11-02';

  it('borne la date du relevé comme le serveur', () => {
    expect(validateSurveyedOn('', today, requestedOn)).toBeUndefined();
    expect(validateSurveyedOn('2026-11-21', today, requestedOn)).toBeUndefined();
    expect(validateSurveyedOn('2026-11-02', today, requestedOn)).toBeUndefined();
    expect(validateSurveyedOn('2026-11-22', today, requestedOn)).toBe(
      "La date du relevé ne peut pas être dans le futur (aujourd'hui : 21/11/2026).",
    );
    expect(validateSurveyedOn('2026-11-01', today, requestedOn)).toBe(
      'La date du relevé ne peut pas précéder la demande du relevé, faite le 02/11/2026.',
    );
    expect(validateSurveyedOn('21/11/2026', today, requestedOn)).toMatch(/AAAA-MM-JJ/);
    expect(validateSurveyedOn('2026-02-30', today, requestedOn)).toMatch(/n'est pas une date qui existe/);
    expect(validateSurveyedOn('1990-01-01', today, null)).toBeUndefined();
  });

  it('part de ce que le relevé a enregistré', () => {
    expect(inputOf(1.6)).toBe('1,6');
    expect(inputOf(true)).toBe('true');
    expect(inputOf(['a', 'b'])).toBe('a, b');
    expect(initialInputs(components)).toEqual({
      charge_utile: '630',
      nombre_niveaux: '',
      marque: 'Otis',
      porte_cabine_type: '',
      porte_cabine_cellule: '',
    });
  });

  it("n'envoie que les données changées, une donnée vidée à null", () => {
    const inputs = { ...initialInputs(components), nombre_niveaux: '7', marque: '', porte_cabine_cellule: 'true' };
    expect(submissionBody(components, inputs, '', today, requestedOn)).toEqual({
      body: { values: { nombre_niveaux: 7, marque: null, porte_cabine_cellule: true } },
      errors: {},
    });
    expect(submissionBody(components, initialInputs(components), '2026-11-20', today, requestedOn)).toEqual({
      body: { surveyedOn: '2026-11-20' },
      errors: {},
    });
  });

  it('refuse ce que le serveur refuserait, par champ', () => {
    const inputs = { ...initialInputs(components), charge_utile: '-5', nombre_niveaux: '2,5', porte_cabine_type: 'Coulissante' };
    const { errors } = submissionBody(components, inputs, '2026-12-01', today, requestedOn);
    expect(errors).toEqual({
      surveyedOn: "La date du relevé ne peut pas être dans le futur (aujourd'hui : 21/11/2026).",
      charge_utile: 'Le champ « Charge utile » doit être un nombre positif ou nul.',
      nombre_niveaux: 'Le champ « Nombre de niveaux desservis » doit être un nombre entier compris entre 0 et 1000000.',
      porte_cabine_type:
        'La valeur « Coulissante » du champ « Type de porte cabine » n\'est pas autorisée : valeurs possibles : « Battante », « Pliante ».',
    });
  });
});
