import { recordRequests } from './test-requests';
import { describe, expect, it, vi } from 'vitest';
import {
  MESSAGES,
  addDays,
  checkDailyCapacity,
  checkPhone,
  checkRestHours,
  checkSectors,
  checkTechnician,
  checkTechnicianName,
  createTechnician,
  dayNumber,
  deactivateTechnician,
  editBody,
  editTechnician,
  emptyTechnicianForm,
  formOfTechnician,
  formatParis,
  isoWeek,
  listTechnicianRecords,
  mondayOf,
  newTechnicianBody,
  overlapMessage,
  overlappingAbsence,
  parseSectors,
  reactivateTechnician,
  technicianRefusalOf,
  toParisInput,
  validateAbsence,
  validateReplacement,
  weekLabel,
  type TechnicianForm,
  type TechnicianRecord,
} from './technicians';

describe('jours et semaines', () => {
  it('lit un jour AAAA-MM-JJ et refuse un jour inexistant', () => {
    expect(dayNumber('1970-01-02')).toBe(1);
    expect(dayNumber('2026-02-31')).toBeNull();
    expect(dayNumber('23/11/2026')).toBeNull();
  });

  it('décale un jour, y compris en fin de mois et d’année', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    expect(addDays('2026-12-28', 7)).toBe('2027-01-04');
    expect(addDays('2026-03-02', -2)).toBe('2026-02-28');
  });

  it('trouve le lundi de la semaine', () => {
    expect(mondayOf('2026-11-21')).toBe('2026-11-16'); // samedi
    expect(mondayOf('2026-11-22')).toBe('2026-11-16'); // dimanche
    expect(mondayOf('2026-11-23')).toBe('2026-11-23'); // lundi
    expect(mondayOf('2027-01-01')).toBe('2026-12-28');
  });

  it('numérote les semaines selon ISO 8601', () => {
    expect(isoWeek('2026-11-23')).toBe(48);
    expect(isoWeek('2026-12-28')).toBe(53);
    expect(isoWeek('2027-01-04')).toBe(1);
    expect(weekLabel('2026-11-23')).toBe('S48 · 23/11/2026');
  });
});

describe('heure de Paris, quel que soit le fuseau du poste', () => {
  it('affiche 08:00 pour le début d’une semaine d’astreinte, hiver comme été', () => {
    expect(formatParis('2026-11-23T07:00:00.000Z')).toBe('23/11/2026 08:00');
    expect(formatParis('2026-06-01T06:00:00.000Z')).toBe('01/06/2026 08:00');
    expect(formatParis(null)).toBe('—');
  });

  it('prépare la valeur d’un champ datetime-local', () => {
    expect(toParisInput('2026-11-24T07:00:00.000Z')).toBe('2026-11-24T08:00');
    expect(toParisInput('2026-07-14T22:30:00.000Z')).toBe('2026-07-15T00:30');
    expect(toParisInput('n’importe quoi')).toBe('');
  });
});

describe('validation d’une absence, comme le serveur', () => {
  it('accepte une absence d’un jour', () => {
    expect(validateAbsence({ startsOn: '2026-12-01', endsOn: '2026-12-01', reason: 'RTT' })).toEqual({});
  });

  it('refuse une fin avant le début, un motif vide, une date illisible', () => {
    expect(validateAbsence({ startsOn: '2026-12-03', endsOn: '2026-12-01', reason: ' ' })).toEqual({
      endsOn: MESSAGES.endBeforeStart,
      reason: MESSAGES.reasonRequired,
    });
    expect(validateAbsence({ startsOn: '', endsOn: '2026-12-01', reason: 'RTT' })).toEqual({
      startsOn: MESSAGES.startInvalid,
    });
    expect(validateAbsence({ startsOn: '2026-01-01', endsOn: '2027-01-02', reason: 'RTT' })).toEqual({
      endsOn: MESSAGES.tooLong,
    });
    expect(validateAbsence({ startsOn: '2026-01-01', endsOn: '2027-01-01', reason: 'RTT' })).toEqual({});
    expect(
      validateAbsence({ startsOn: '2026-12-01', endsOn: '2026-12-01', reason: 'x'.repeat(201) }).reason,
    ).toBe(MESSAGES.reasonTooLong);
  });

  it('repère un chevauchement avec le message du serveur', () => {
    const existing = [{ id: 'a', startsOn: '2026-12-01', endsOn: '2026-12-05', reason: 'Congés payés' }];
    expect(overlappingAbsence(existing, '2026-12-06', '2026-12-08')).toBeUndefined();
    const other = overlappingAbsence(existing, '2026-12-05', '2026-12-08');
    expect(other?.id).toBe('a');
    expect(overlapMessage('Alice Martin', existing[0]!)).toBe(
      'Alice Martin est déjà absent du 01/12/2026 au 05/12/2026 (Congés payés) : cette absence chevauche la nouvelle.',
    );
  });
});

describe('validation d’un remplacement', () => {
  it('exige un technicien et une fin après le début', () => {
    expect(validateReplacement({ technicianId: '', from: '2026-11-24T08:00', to: '2026-11-24T08:00' })).toEqual({
      technicianId: MESSAGES.technicianRequired,
      to: MESSAGES.replaceOrder,
    });
    expect(validateReplacement({ technicianId: 't', from: 'demain', to: '2026-11-24T08:00' })).toEqual({
      from: MESSAGES.replaceFromInvalid,
    });
    expect(validateReplacement({ technicianId: 't', from: '2026-11-24T08:00', to: '2026-11-25T08:00' })).toEqual(
      {},
    );
  });
});

const remi = (overrides: Partial<TechnicianRecord> = {}): TechnicianRecord => ({
  id: 'tech-remi',
  name: 'Rémi Caron',
  phone: '06 12 34 56 78',
  sectors: ['levallois-perret', '92300'],
  dailyCapacity: 6,
  restHours: 11,
  active: true,
  accountId: null,
  ...overrides,
});

const typed = (overrides: Partial<TechnicianForm> = {}): TechnicianForm => ({
  name: ' Hugo Lefèvre ',
  phone: ' +33 6 98 76 54 32 ',
  sectors: 'Neuilly-sur-Seine, 92200 , neuilly-sur-seine,  ,Paris 17e',
  dailyCapacity: 8,
  restHours: null,
  ...overrides,
});

describe('fiche d’un technicien : vérifications du serveur, mêmes messages', () => {
  it('le nom : obligatoire, 100 caractères au plus, le champ nommé par son libellé', () => {
    expect(checkTechnicianName(' Hugo ')).toBeUndefined();
    expect(checkTechnicianName('  ')).toBe('Le champ « Nom » est obligatoire.');
    expect(checkTechnicianName('N'.repeat(101))).toBe('Le champ « Nom » ne doit pas dépasser 100 caractères.');
    expect(checkTechnicianName('Hugo\u0007')).toBe('Le champ « Nom » ne doit pas contenir de caractère de contrôle.');
  });

  it('le téléphone : facultatif, chiffres, espaces, points, tirets, « + » en tête, 4 à 15 chiffres', () => {
    for (const ok of ['', '  ', '+33 6 12 34 56 78', '06.12.34.56.78', '01-23-45-67-89', '3631']) {
      expect(checkPhone(ok), ok).toBeUndefined();
    }
    for (const bad of ['06 12 a4', '12', '0612+345678', '+33 6 12 34 56 78 90 12 34']) {
      expect(checkPhone(` ${bad} `), bad).toBe(
        `Le champ « Téléphone » doit être un numéro de téléphone (chiffres, espaces, points, tirets, « + » en tête) : « ${bad} » n'en est pas un.`,
      );
    }
    expect(checkPhone('0'.repeat(31))).toBe('Le champ « Téléphone » ne doit pas dépasser 30 caractères.');
  });

  it('les secteurs : séparés par des virgules, rognés, sans doublon ni vide, 20 au plus de 60 caractères', () => {
    expect(parseSectors('Neuilly-sur-Seine, 92200 , neuilly-sur-seine,  ,Paris  17e, paris 17E')).toEqual([
      'Neuilly-sur-Seine',
      '92200',
      'Paris  17e',
    ]);
    expect(parseSectors('  ')).toEqual([]);
    expect(checkSectors('A, B, a')).toBeUndefined();
    const many = Array.from({ length: 21 }, (_, i) => `Secteur ${i}`).join(',');
    expect(checkSectors(many)).toBe('Le champ « Secteurs » compte au plus 20 secteurs.');
    expect(checkSectors(`Paris, ${'x'.repeat(61)}`)).toBe('Le champ « Secteurs » ne doit pas dépasser 60 caractères.');
  });

  it('la capacité journalière (1 à 20) et le repos après astreinte (0 à 48 h), en nombres entiers', () => {
    expect(checkDailyCapacity(1)).toBeUndefined();
    expect(checkDailyCapacity(20)).toBeUndefined();
    for (const bad of [0, -1, 21, 2.5, null]) {
      expect(checkDailyCapacity(bad), String(bad)).toBe(
        'Le champ « Capacité journalière » doit être compris entre 1 et 20 visites par jour.',
      );
    }
    expect(checkRestHours(0)).toBeUndefined();
    expect(checkRestHours(48)).toBeUndefined();
    for (const bad of [-1, 49, 11.5, null]) {
      expect(checkRestHours(bad), String(bad)).toBe(
        'Le champ « Repos après astreinte » doit être compris entre 0 et 48 heures.',
      );
    }
  });

  it('un nouveau technicien : tous les champs, sans le repos', () => {
    expect(checkTechnician(typed())).toEqual({});
    expect(checkTechnician(typed({ name: '', phone: '12', dailyCapacity: null }))).toEqual({
      name: 'Le champ « Nom » est obligatoire.',
      phone:
        "Le champ « Téléphone » doit être un numéro de téléphone (chiffres, espaces, points, tirets, « + » en tête) : « 12 » n'en est pas un.",
      dailyCapacity: 'Le champ « Capacité journalière » doit être compris entre 1 et 20 visites par jour.',
    });
  });

  it('une modification : seuls les champs changés sont vérifiés, comme le serveur', () => {
    // Une fiche écrite avant les règles (nom trop long, téléphone libre) reste telle quelle.
    const old = remi({ name: 'N'.repeat(150), phone: 'poste 12' });
    expect(checkTechnician({ ...formOfTechnician(old), dailyCapacity: 8 }, old)).toEqual({});
    expect(checkTechnician({ ...formOfTechnician(old), phone: 'poste 13' }, old).phone).toMatch(
      /^Le champ « Téléphone » doit être un numéro/,
    );
    expect(checkTechnician({ ...formOfTechnician(remi()), restHours: 49, dailyCapacity: null }, remi())).toEqual({
      dailyCapacity: 'Le champ « Capacité journalière » doit être compris entre 1 et 20 visites par jour.',
      restHours: 'Le champ « Repos après astreinte » doit être compris entre 0 et 48 heures.',
    });
  });
});

describe('fiche d’un technicien : formulaire et corps envoyés', () => {
  it('un nouveau technicien part de 6 visites par jour', () => {
    expect(emptyTechnicianForm()).toEqual({ name: '', phone: '', sectors: '', dailyCapacity: 6, restHours: null });
  });

  it('le corps de la création : rogné, secteurs en liste, sans téléphone vide', () => {
    expect(newTechnicianBody(typed())).toEqual({
      name: 'Hugo Lefèvre',
      phone: '+33 6 98 76 54 32',
      sectors: ['Neuilly-sur-Seine', '92200', 'Paris 17e'],
      dailyCapacity: 8,
    });
    expect(newTechnicianBody(typed({ phone: '  ', sectors: '' }))).toEqual({
      name: 'Hugo Lefèvre',
      sectors: [],
      dailyCapacity: 8,
    });
  });

  it('le formulaire d’une fiche enregistrée', () => {
    expect(formOfTechnician(remi({ phone: null }))).toEqual({
      name: 'Rémi Caron',
      phone: '',
      sectors: 'levallois-perret, 92300',
      dailyCapacity: 6,
      restHours: 11,
    });
  });

  it('la modification : seulement ce qui a changé', () => {
    const before = remi();
    expect(editBody(before, formOfTechnician(before))).toEqual({});
    // Mêmes secteurs à la casse et aux espaces près, même nom rogné : rien ne part.
    expect(
      editBody(before, { ...formOfTechnician(before), name: ' Rémi Caron ', sectors: 'Levallois-Perret ,92300,' }),
    ).toEqual({});
    expect(editBody(before, { ...formOfTechnician(before), phone: ' 07 00 00 00 01 ' })).toEqual({
      phone: '07 00 00 00 01',
    });
    // Un téléphone vidé part vide : le serveur l'efface.
    expect(editBody(before, { ...formOfTechnician(before), phone: ' ' })).toEqual({ phone: '' });
    expect(
      editBody(before, {
        ...formOfTechnician(before),
        name: 'Rémi Caron-Petit',
        sectors: '92300, Levallois-Perret',
        dailyCapacity: 8,
        restHours: 12,
      }),
    ).toEqual({ name: 'Rémi Caron-Petit', sectors: ['92300', 'Levallois-Perret'], dailyCapacity: 8, restHours: 12 });
    // Tous les secteurs retirés : une liste vide.
    expect(editBody(before, { ...formOfTechnician(before), sectors: ' , ' })).toEqual({ sectors: [] });
  });
});

describe('fiche d’un technicien : refus du serveur', () => {
  it('nomme le champ refusé, par son libellé', () => {
    expect(technicianRefusalOf('Le champ « phone » doit être un numéro de téléphone (…) : « 12 » n’en est pas un.')).toEqual({
      field: 'phone',
      message: 'Le champ « Téléphone » doit être un numéro de téléphone (…) : « 12 » n’en est pas un.',
    });
    expect(technicianRefusalOf('Le champ « restHours » doit être compris entre 0 et 48 heures.')).toEqual({
      field: 'restHours',
      message: 'Le champ « Repos après astreinte » doit être compris entre 0 et 48 heures.',
    });
    expect(technicianRefusalOf('Le champ « agencyId » est inconnu.')).toBeNull();
    expect(
      technicianRefusalOf(
        "Rémi Caron est d'astreinte du 23/11/2026 08:00 au 30/11/2026 08:00 : confiez d'abord cette astreinte à un autre technicien.",
      ),
    ).toBeNull();
  });
});

describe('fiche d’un technicien : appels à l’API', () => {
  const seen = recordRequests();

  it('lit, ajoute, modifie, retire et remet au planning', async () => {
    await listTechnicianRecords();
    await createTechnician(newTechnicianBody(typed()));
    await editTechnician('tech 1', { phone: '' });
    await deactivateTechnician('tech-1');
    await reactivateTechnician('tech-1');
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['GET', '/app/api/technicians/records'],
      ['POST', '/app/api/technicians'],
      ['PATCH', '/app/api/technicians/tech%201'],
      ['POST', '/app/api/technicians/tech-1/deactivate'],
      ['POST', '/app/api/technicians/tech-1/reactivate'],
    ]);
    expect(JSON.parse(seen[1]!.body!)).toEqual({
      name: 'Hugo Lefèvre',
      phone: '+33 6 98 76 54 32',
      sectors: ['Neuilly-sur-Seine', '92200', 'Paris 17e'],
      dailyCapacity: 8,
    });
    expect(JSON.parse(seen[2]!.body!)).toEqual({ phone: '' });
    expect(seen[3]!.body).toBeUndefined();
  });

  it('un refus du serveur arrive tel quel', async () => {
    const refusal =
      "Rémi Caron est d'astreinte du 23/11/2026 08:00 au 30/11/2026 08:00 : confiez d'abord cette astreinte à un autre technicien.";
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ error: refusal }), { status: 422 })));
    await expect(deactivateTechnician('tech-remi')).rejects.toMatchObject({ status: 422, message: refusal });
  });
});
