import { describe, expect, it } from 'vitest';
import {
  MESSAGES,
  addDays,
  dayNumber,
  formatParis,
  isoWeek,
  mondayOf,
  overlapMessage,
  overlappingAbsence,
  toParisInput,
  validateAbsence,
  validateReplacement,
  weekLabel,
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
