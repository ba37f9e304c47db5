import { describe, expect, it } from 'vitest';
import {
  CELL_LIMIT,
  UNASSIGNED,
  addDays,
  closeBody,
  dutiesLine,
  dayHeading,
  dayOff,
  gridRows,
  isDay,
  isWeekend,
  longDay,
  mondayOf,
  moveWarnings,
  pageOf,
  reviewRows,
  reviewWarnings,
  saveBody,
  shortDay,
  undoBody,
  undoRefusal,
  validateClose,
  validateCreate,
  validateInterval,
  validateMove,
  visibleEntries,
  visitBuilding,
  weekOf,
  weekTitle,
  type DoneMove,
  type PlanningEntry,
  type PlanningTechnician,
  type Proposal,
  type Week,
} from './planning';

/** L'élément `i`, qui doit exister. */
function at<T>(items: readonly T[], i: number): T {
  const item = items[i];
  if (item === undefined) throw new Error(`élément ${i} absent`);
  return item;
}

const tech = (id: string, name: string, extra: Partial<PlanningTechnician> = {}): PlanningTechnician => ({
  id,
  name,
  sectors: 'Paris 15e',
  dailyCapacity: 2,
  active: true,
  absentDays: [],
  restDays: [],
  ...extra,
});

const entry = (id: string, technicianId: string | null, day: string): PlanningEntry => ({
  id,
  technicianId,
  day,
  status: 'planifiee',
  equipmentId: `e-${id}`,
  number: `ASC-${id}`,
  buildingId: null,
  building: null,
  address: null,
  deadline: null,
  overdue: null,
  duties: [],
});

describe('jours', () => {
  it('reconnaît un jour du calendrier', () => {
    expect(isDay('2026-11-23')).toBe(true);
    expect(isDay('2026-02-30')).toBe(false);
    expect(isDay('23/11/2026')).toBe(false);
    expect(isDay('')).toBe(false);
  });

  it('calcule lundi et la semaine, à cheval sur deux mois et deux années', () => {
    expect(mondayOf('2026-11-21')).toBe('2026-11-16');
    expect(mondayOf('2026-11-23')).toBe('2026-11-23');
    expect(mondayOf('2027-01-03')).toBe('2026-12-28');
    expect(weekOf('2026-12-02')).toEqual([
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-05',
      '2026-12-06',
    ]);
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-29', 7)).toBe('2026-04-05');
  });

  it('écrit les titres en français', () => {
    expect(dayHeading('2026-11-23')).toBe('lundi 23/11');
    expect(shortDay('2027-01-03')).toBe('03/01');
    expect(weekTitle('2026-11-23')).toBe('Semaine du 23 au 29 novembre 2026');
    expect(weekTitle('2026-11-30')).toBe('Semaine du 30 novembre au 6 décembre 2026');
    expect(weekTitle('2026-12-28')).toBe('Semaine du 28 décembre 2026 au 3 janvier 2027');
  });
});

describe('grille', () => {
  const days = weekOf('2026-11-23');
  const week: Week = {
    days,
    today: '2026-11-21',
    technicians: [tech('a', 'Alice'), tech('b', 'Bruno', { sectors: 'Issy-les-Moulineaux' })],
    entries: [entry('1', 'a', at(days, 0)), entry('2', null, at(days, 1)), entry('3', 'a', at(days, 0)), entry('4', 'x', at(days, 2))],
  };

  it('range les visites par technicien et par jour, non affectées en dernier', () => {
    const rows = gridRows(week);
    expect(rows.map((r) => r.key)).toEqual(['a', 'b', 'x', UNASSIGNED]);
    expect(at(rows, 0).cells[at(days, 0)]?.map((e) => e.id)).toEqual(['1', '3']);
    expect(at(rows, 0).total).toBe(2);
    expect(at(rows, 1).total).toBe(0);
    expect(at(rows, 2).name).toBe('Technicien inconnu');
    expect(at(rows, 3).name).toBe('Non affectées');
    expect(at(rows, 3).cells[at(days, 1)]?.map((e) => e.id)).toEqual(['2']);
  });

  it('sans visite non affectée, pas de ligne « Non affectées »', () => {
    const rows = gridRows({ ...week, entries: [entry('1', 'a', at(days, 0))] });
    expect(rows.map((r) => r.key)).toEqual(['a', 'b']);
  });

  it('filtre par nom ou secteur, sans accents ni casse', () => {
    expect(gridRows(week, 'issy').map((r) => r.key)).toEqual(['b', UNASSIGNED]);
    expect(gridRows(week, 'ALICE').map((r) => r.key)).toEqual(['a', UNASSIGNED]);
  });

  it('borne les cartes d’une case repliée', () => {
    const many = Array.from({ length: 10 }, (_, i) => entry(String(i), 'a', at(days, 0)));
    expect(visibleEntries(many, false)).toHaveLength(CELL_LIMIT);
    expect(visibleEntries(many, true)).toHaveLength(10);
  });

  it('l’immeuble d’une visite : son nom en lien vers sa fiche, puis son adresse', () => {
    const place = { buildingId: 'b-1', building: 'Résidence Les Tilleuls', address: '12 rue des Lilas, 75015 Paris' };
    expect(visitBuilding(place)).toEqual({ name: 'Résidence Les Tilleuls', buildingId: 'b-1', address: '12 rue des Lilas, 75015 Paris' });
    // Sans nom, l'adresse tient lieu de nom (une fois, pas en double).
    expect(visitBuilding({ ...place, building: ' ' })).toEqual({ name: '12 rue des Lilas, 75015 Paris', buildingId: 'b-1', address: null });
    // Sans identifiant (réponse d'avant `buildingId`, ou pas d'immeuble) : du texte seul.
    expect(visitBuilding({ ...place, buildingId: null })?.buildingId).toBeNull();
    expect(visitBuilding({ buildingId: 'b-1', building: null, address: null })).toBeNull();
    expect(visitBuilding({ ...entry('1', 'a', at(days, 0)), buildingId: 'b-2', building: 'Tour Nord' })).toEqual({
      name: 'Tour Nord',
      buildingId: 'b-2',
      address: null,
    });
  });

  it('indique absence et repos', () => {
    const t = tech('a', 'Alice', { absentDays: [at(days, 1)], restDays: [at(days, 0)] });
    expect(dayOff(t, at(days, 0))).toBe('Repos de sécurité');
    expect(dayOff(t, at(days, 1))).toBe('Absent');
    expect(dayOff(t, at(days, 2))).toBeNull();
    expect(dayOff(null, at(days, 2))).toBeNull();
  });
});

describe('validations', () => {
  it('déplacement et création', () => {
    expect(validateMove('2026-11-20', '2026-11-21')).toEqual({
      day: 'Une visite ne peut pas être replanifiée dans le passé.',
    });
    expect(validateMove('2026-11-21', '2026-11-21')).toEqual({});
    expect(validateMove('', '2026-11-21').day).toBe('Choisissez un jour valide (JJ/MM/AAAA).');
    expect(validateCreate({ equipmentId: '', day: '2026-11-19' }, '2026-11-21')).toEqual({
      equipment: "Choisissez l'équipement à visiter.",
      day: 'Une visite ne peut pas être planifiée dans le passé.',
    });
    expect(validateCreate({ equipmentId: 'e', day: '2026-11-23' }, '2026-11-21')).toEqual({});
  });

  it('clôture d’une visite commencée ou non', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    const empty = { arrivedAt: '', leftAt: '', signedBy: ' ', observations: '' };
    expect(validateClose(empty, false, null, now)).toEqual({
      arrivedAt: "L'heure d'arrivée est obligatoire pour une visite qui n'a pas été commencée.",
      signedBy: 'Indiquez qui a signé le bon de visite.',
    });
    expect(validateClose({ ...empty, signedBy: 'Mme Martin' }, true, '2026-11-21T08:00:00Z', now)).toEqual({});
    expect(
      validateClose(
        { ...empty, signedBy: 'Mme Martin', leftAt: '2026-11-21T07:00:00Z' },
        true,
        '2026-11-21T08:00:00Z',
        now,
      ),
    ).toEqual({ leftAt: "L'heure de départ ne peut pas précéder l'heure d'arrivée." });
    expect(
      validateClose(
        { ...empty, signedBy: 'x', arrivedAt: '2026-11-21T12:00:00Z', observations: 'o'.repeat(4001) },
        false,
        null,
        now,
      ),
    ).toEqual({
      arrivedAt: "L'heure d'arrivée ne peut pas être dans le futur.",
      observations: 'Les observations ne doivent pas dépasser 4000 caractères.',
    });
    expect(validateClose({ ...empty, signedBy: 'é'.repeat(201) }, true, null, now).signedBy).toBe(
      'Le nom du signataire ne doit pas dépasser 200 caractères.',
    );
  });

  it('corps de clôture', () => {
    expect(closeBody({ arrivedAt: '', leftAt: '', signedBy: ' M. X ', observations: '  ' }, true)).toEqual({
      signedBy: 'M. X',
    });
    expect(
      closeBody({ arrivedAt: '2026-11-21T08:00:00Z', leftAt: '2026-11-21T09:00:00Z', signedBy: 'M', observations: 'RAS' }, false),
    ).toEqual({
      signedBy: 'M',
      arrivedAt: '2026-11-21T08:00:00.000Z',
      leftAt: '2026-11-21T09:00:00.000Z',
      observations: 'RAS',
    });
  });

  it('corps de clôture avec les obligations cochées', () => {
    expect(
      closeBody({ arrivedAt: '', leftAt: '', signedBy: 'M', observations: '', duties: ['cables', 'nettoyage'] }, true),
    ).toEqual({ signedBy: 'M', duties: ['cables', 'nettoyage'] });
    expect(closeBody({ arrivedAt: '', leftAt: '', signedBy: 'M', observations: '', duties: [] }, true)).toEqual({
      signedBy: 'M',
    });
  });

  it('la ligne des obligations d’une carte', () => {
    expect(
      dutiesLine([
        { code: 'cables', overdue: true, done: false },
        { code: 'parachute', overdue: false, done: false },
      ]),
    ).toBe('Câbles (en retard), Parachute');
    expect(dutiesLine([{ code: 'nettoyage', overdue: false, done: true }])).toBe('Nettoyage ✓');
  });

  it('intervalle d’entretien', () => {
    const range = "L'intervalle entre deux visites doit être un nombre de jours entre 1 et 365.";
    expect(validateInterval('0', 'ascenseur')).toEqual({ days: range });
    expect(validateInterval('12.5', null)).toEqual({ days: range });
    expect(validateInterval('366', 'porte_fermeture')).toEqual({ days: range });
    expect(validateInterval('43', 'ascenseur')).toEqual({
      days: 'Un ascenseur doit être visité au moins toutes les six semaines : 42 jours au plus.',
    });
    expect(validateInterval('180', 'porte_fermeture')).toEqual({});
    expect(validateInterval(' 28 ', 'ascenseur')).toEqual({});
  });
});

describe('proposition', () => {
  const days = weekOf('2026-11-30');
  const proposal: Proposal = {
    days,
    technicians: [tech('a', 'Alice', { absentDays: [at(days, 2)], restDays: [at(days, 3)] })],
    unplaced: [],
    existingLoads: {},
    visits: ['1', '2', '3'].map((n) => ({
      equipmentId: `e${n}`,
      number: `P-${n}`,
      building: null,
      address: null,
      deadline: at(days, 4),
      technicianId: 'a',
      day: at(days, 0),
      duties: [],
      overdue: false,
    })),
  };

  it('enregistre les lignes gardées avec les choix de la revue', () => {
    const rows = reviewRows(proposal);
    at(rows, 1).kept = false;
    at(rows, 2).day = at(days, 1);
    expect(saveBody(rows)).toEqual({
      visits: [
        { equipmentId: 'e1', technicianId: 'a', day: at(days, 0) },
        { equipmentId: 'e3', technicianId: 'a', day: at(days, 1) },
      ],
    });
  });

  it('avertit d’une charge dépassée, d’une absence, d’un repos', () => {
    const rows = reviewRows(proposal);
    let warnings = reviewWarnings(rows, proposal.technicians);
    expect([...warnings.values()]).toEqual(['Alice dépasse sa charge journalière (2 visites).']);
    expect(warnings.get(at(rows, 2))).toBeDefined();
    at(rows, 2).kept = false;
    expect(reviewWarnings(rows, proposal.technicians).size).toBe(0);
    at(rows, 0).day = at(days, 2);
    at(rows, 1).day = at(days, 3);
    warnings = reviewWarnings(rows, proposal.technicians);
    expect(warnings.get(at(rows, 0))).toBe('Alice est absent ce jour-là.');
    expect(warnings.get(at(rows, 1))).toBe('Alice est en repos de sécurité ce jour-là.');
    expect(reviewWarnings(rows, proposal.technicians, { [`a|${at(days, 4)}`]: 2 }).size).toBe(2);
  });

  it('pagine en mémoire', () => {
    const items = Array.from({ length: 120 }, (_, i) => i);
    expect(pageOf(items, 1, 50)).toHaveLength(50);
    expect(pageOf(items, 3, 50)).toEqual(items.slice(100));
    expect(pageOf(items, 0, 50)[0]).toBe(0);
  });
});

describe('filets du déplacement', () => {
  it('nomme le jour en toutes lettres et reconnaît le week-end', () => {
    expect(longDay('2026-12-05')).toBe('samedi 5 décembre');
    expect(isWeekend('2026-12-05')).toBe(true);
    expect(isWeekend('2026-12-06')).toBe(true);
    expect(isWeekend('2026-12-04')).toBe(false);
    expect(isWeekend('2026-11-30')).toBe(false);
  });

  it('demande confirmation pour un week-end ou un jour après l’échéance, et dit pourquoi', () => {
    expect(moveWarnings('2026-12-03', '2026-12-03')).toEqual([]);
    expect(moveWarnings('2026-12-03', null)).toEqual([]);
    expect(moveWarnings('2026-12-05', null)).toEqual(['samedi 5 décembre est un week-end']);
    expect(moveWarnings('2026-12-04', '2026-11-30')).toEqual([
      "vendredi 4 décembre est après l'échéance du 30/11/2026",
    ]);
    expect(moveWarnings('2026-12-06', '2026-11-30')).toEqual([
      'dimanche 6 décembre est un week-end',
      "dimanche 6 décembre est après l'échéance du 30/11/2026",
    ]);
  });

  const move = (from: DoneMove['from'], to: DoneMove['to']): DoneMove => ({ visitId: 'v1', label: 'ASC-1', from, to });

  it('défait un déplacement par le même appel, vers le jour et le technicien d’avant', () => {
    const done = move({ day: '2026-12-01', technicianId: 't1' }, { day: '2026-12-05', technicianId: 't2' });
    expect(undoRefusal(done, '2026-11-29')).toBeNull();
    expect(undoBody(done)).toEqual({ plannedFor: '2026-12-01', technicianId: 't1' });
    // Non affectée et restée non affectée : seul le jour revient.
    const unassigned = move({ day: '2026-12-01', technicianId: null }, { day: '2026-12-02', technicianId: null });
    expect(undoRefusal(unassigned, '2026-11-29')).toBeNull();
    expect(undoBody(unassigned)).toEqual({ plannedFor: '2026-12-01' });
  });

  it('rend non affectée une visite qui l’était', () => {
    const assigned = move({ day: '2026-12-01', technicianId: null }, { day: '2026-12-01', technicianId: 't1' });
    expect(undoRefusal(assigned, '2026-11-29')).toBeNull();
    expect(undoBody(assigned)).toEqual({ plannedFor: '2026-12-01', unassign: true });
  });

  it('ne propose pas de défaire ce que le serveur refuserait', () => {
    expect(undoRefusal(move({ day: '2026-11-27', technicianId: 't1' }, { day: '2026-12-01', technicianId: 't1' }), '2026-11-29')).toBe(
      "son jour d'origine, le 27/11/2026, est passé",
    );
  });
});
