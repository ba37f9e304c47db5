import { describe, expect, it } from 'vitest';
import {
  byUrgency,
  charCount,
  commitmentLabel,
  minutesLabel,
  elapsedLabel,
  openUrgentCount,
  parisLocalInput,
  receivedAtLabel,
  REPORT_MESSAGES,
  reportBody,
  urgentTitlePrefix,
  validateReport,
  describeActor,
  NEW_CALL_MESSAGES,
  newCallBody,
  parseCallEvent,
  raisesAlert,
  suggestedTechnician,
  technicianOption,
  validateNewCall,
} from './calls';

const lift = { id: 'eq-7', number: 'ASC 7', building: 'Les Tilleuls', address: '3 rue des Tilleuls, 69003 Lyon' };
const valid = { equipment: lift, type: 'panne', description: 'Cabine arrêtée', appelant: '' };

describe('validateNewCall', () => {
  it('accepte un appel complet', () => {
    expect(validateNewCall(valid)).toEqual({});
  });

  it("exige l'appareil choisi dans la liste, le type et la description", () => {
    expect(validateNewCall({ equipment: null, type: '', description: '', appelant: '' })).toEqual({
      equipment: "Choisissez l'appareil dans la liste.",
      type: NEW_CALL_MESSAGES.typeRequired,
      description: 'La description doit compter de 3 à 1000 caractères (actuellement : 0).',
    });
  });

  it('refuse un type inconnu', () => {
    expect(validateNewCall({ ...valid, type: 'incendie' }).type).toBe("Choisissez le type d'appel.");
  });

  it('compte les caractères comme le serveur (bornes incluses)', () => {
    expect(validateNewCall({ ...valid, description: 'ab' }).description).toBe(
      'La description doit compter de 3 à 1000 caractères (actuellement : 2).',
    );
    expect(validateNewCall({ ...valid, description: 'abc' })).toEqual({});
    expect(validateNewCall({ ...valid, description: 'é'.repeat(1000) })).toEqual({});
    expect(validateNewCall({ ...valid, description: 'x'.repeat(1001) }).description).toContain('1001');
    // Des espaces seuls ne décrivent rien, même s'ils sont assez nombreux.
    expect(validateNewCall({ ...valid, description: '     ' }).description).toBeDefined();
    // Un emoji compte pour un caractère.
    expect(charCount('🚨ab')).toBe(3);
  });

  it("limite l'appelant à 120 caractères", () => {
    expect(validateNewCall({ ...valid, appelant: 'x'.repeat(120) })).toEqual({});
    expect(validateNewCall({ ...valid, appelant: 'x'.repeat(121) }).appelant).toBe(
      "L'appelant doit compter au plus 120 caractères (actuellement : 121).",
    );
  });
});

describe('newCallBody', () => {
  it("envoie l'identifiant de l'appareil choisi, même sans numéro", () => {
    expect(newCallBody({ ...valid, equipment: { id: 'eq-8' } }).equipmentId).toBe('eq-8');
    expect(newCallBody(valid)).not.toHaveProperty('equipement');
  });

  it("n'envoie pas un appelant vide", () => {
    expect(newCallBody(valid)).toEqual({
      equipmentId: 'eq-7',
      type: 'panne',
      description: 'Cabine arrêtée',
    });
    expect(newCallBody({ ...valid, appelant: 'Gardien' }).appelant).toBe('Gardien');
  });
});

describe('parseCallEvent', () => {
  const event = {
    change: 'ouvert',
    id: 'c1',
    reference: 'CC-1',
    statut: 'ouverte',
    type: 'personne_bloquee',
    urgence: true,
  };

  it("lit un événement et dit s'il déclenche l'alerte", () => {
    const parsed = parseCallEvent(JSON.stringify(event));
    expect(parsed).toEqual(event);
    expect(raisesAlert(parsed!)).toBe(true);
    expect(raisesAlert({ ...parsed!, change: 'statut' })).toBe(false);
    expect(raisesAlert({ ...parsed!, urgence: false, type: 'panne' })).toBe(false);
  });

  it("lit une prise en compte, qui ne déclenche pas d'alerte", () => {
    const taken = parseCallEvent(JSON.stringify({ ...event, change: 'prise_en_compte' }));
    expect(taken?.change).toBe('prise_en_compte');
    expect(raisesAlert(taken!)).toBe(false);
    expect(parseCallEvent(JSON.stringify({ ...event, change: 'inconnu' }))).toBeNull();
  });

  it('ignore ce qui ne se lit pas', () => {
    expect(parseCallEvent('pas du json')).toBeNull();
    expect(parseCallEvent('{}')).toBeNull();
    expect(parseCallEvent(JSON.stringify({ ...event, statut: 'fermee' }))).toBeNull();
  });
});

describe('affichage', () => {
  it("nomme l'auteur d'une étape", () => {
    expect(describeActor(null)).toBe('auteur non enregistré');
    expect(describeActor({ kind: 'centre', name: 'Astreinte Plus' })).toBe("par Astreinte Plus (centre d'appels)");
    expect(describeActor({ kind: 'personnel', name: 'Claire Durand' })).toBe('par Claire Durand');
  });

  it("propose d'abord le technicien d'astreinte", () => {
    const choices = [
      { id: 'o', name: 'Olivier', sectors: 'Levallois', onCall: true, openCalls: 0, suggested: true },
      { id: 'a', name: 'Alice', sectors: null, onCall: false, openCalls: 2, suggested: false },
    ];
    expect(suggestedTechnician(choices)).toBe('o');
    expect(suggestedTechnician(choices.slice(1))).toBe('');
    expect(technicianOption(choices[0]!)).toBe("Olivier · d'astreinte (suggéré) · aucun appel en cours · Levallois");
    expect(technicianOption(choices[1]!)).toBe('Alice · 2 appels en cours');
  });
});

describe('chrono et urgence', () => {
  const now = Date.parse('2026-11-29T10:00:00Z');
  const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString();

  it('dit le temps écoulé à la minute', () => {
    expect(elapsedLabel(ago(0.5), now)).toBe("à l'instant");
    expect(elapsedLabel(ago(12), now)).toBe('il y a 12 min');
    expect(elapsedLabel(ago(59.9), now)).toBe('il y a 59 min');
    expect(elapsedLabel(ago(125), now)).toBe('il y a 2 h 05');
    expect(elapsedLabel(ago(60 * 27 + 3), now)).toBe('il y a 1 j 03 h');
    // Une horloge du poste un peu en retard ne donne pas de temps négatif.
    expect(elapsedLabel(ago(-2), now)).toBe("à l'instant");
    expect(elapsedLabel('pas une date', now)).toBe('');
  });

  it("date l'heure d'un bandeau d'un autre jour", () => {
    const time = new Intl.DateTimeFormat('fr-FR', { hour: '2-digit', minute: '2-digit' });
    const today = new Date(2026, 10, 29, 10, 0);
    expect(receivedAtLabel(new Date(2026, 10, 29, 8, 5), today, time)).toBe('à 08:05');
    expect(receivedAtLabel(new Date(2026, 10, 28, 23, 30), today, time)).toBe('le 28/11/2026 à 23:30');
  });

  it('range la personne bloquée d’abord, puis le plus ancien', () => {
    const calls = [
      { id: 'recent', urgence: false, recuLe: ago(5) },
      { id: 'bloque-recent', urgence: true, recuLe: ago(2) },
      { id: 'ancien', urgence: false, recuLe: ago(90) },
      { id: 'bloque-ancien', urgence: true, recuLe: ago(30) },
    ];
    expect(byUrgency(calls).map((c) => c.id)).toEqual(['bloque-ancien', 'bloque-recent', 'ancien', 'recent']);
    expect(calls[0]!.id).toBe('recent');
  });

  it('compte les personnes bloquées non résolues pour le titre', () => {
    const row = (statut: string, urgence: boolean) => ({ statut, urgence }) as never;
    const board = {
      resolvedSinceHours: 24,
      columns: [
        { statut: 'ouverte', libelle: '', total: 2, page: 1, limit: 20, results: [row('ouverte', true), row('ouverte', false)] },
        { statut: 'sur_place', libelle: '', total: 1, page: 1, limit: 20, results: [row('sur_place', true)] },
        { statut: 'resolue', libelle: '', total: 1, page: 1, limit: 20, results: [row('resolue', true)] },
      ],
    } as never;
    expect(openUrgentCount(board)).toBe(2);
    expect(urgentTitlePrefix(2)).toBe('(2)');
    expect(urgentTitlePrefix(0)).toBe('');
  });
});

describe('rapport de clôture', () => {
  const now = new Date('2026-11-29T10:00:00Z'); // 11:00 à Paris
  const received = '2026-11-29T08:30:00Z'; // 09:30 à Paris
  const filled = { cause: 'Contact encrassé', work: 'Nettoyage', parts: '', backInServiceAt: '2026-11-29T10:45' };

  it("donne l'heure de Paris d'un champ datetime-local", () => {
    expect(parisLocalInput(now)).toBe('2026-11-29T11:00');
    expect(parisLocalInput(new Date('2026-07-01T22:05:00Z'))).toBe('2026-07-02T00:05');
  });

  it('exige la cause et les travaux', () => {
    expect(validateReport(filled, received, now)).toEqual({});
    expect(validateReport({ ...filled, cause: '  ', work: '' }, received, now)).toEqual({
      cause: REPORT_MESSAGES.cause,
      work: REPORT_MESSAGES.work,
    });
  });

  it('borne la remise en service entre la réception et maintenant', () => {
    expect(validateReport({ ...filled, backInServiceAt: '' }, received, now)).toEqual({});
    expect(validateReport({ ...filled, backInServiceAt: '2026-11-29T09:30' }, received, now)).toEqual({});
    expect(validateReport({ ...filled, backInServiceAt: '2026-11-29T11:00' }, received, now)).toEqual({});
    expect(validateReport({ ...filled, backInServiceAt: '2026-11-29T09:29' }, received, now).backInServiceAt).toBe(
      "La remise en service ne peut pas précéder la réception de l'appel (2026-11-29 à 09:30).",
    );
    expect(validateReport({ ...filled, backInServiceAt: '2026-11-29T11:01' }, received, now).backInServiceAt).toBe(
      REPORT_MESSAGES.backInServiceFuture,
    );
  });

  it("n'envoie ni pièces vides ni heure vide", () => {
    expect(reportBody({ ...filled, backInServiceAt: '', cause: ' Contact encrassé ' })).toEqual({
      cause: 'Contact encrassé',
      work: 'Nettoyage',
    });
    expect(reportBody({ ...filled, parts: 'Galet' })).toEqual({
      cause: 'Contact encrassé',
      work: 'Nettoyage',
      parts: 'Galet',
      backInServiceAt: '2026-11-29T10:45',
    });
  });
});

describe('commitmentLabel', () => {
  const base = {
    contractId: 'k',
    contractNumber: 'CT-2028-00001',
    arrivalDueAt: '2028-03-07T08:45:00.000Z',
    restoreDueAt: '2028-03-08T08:00:00.000Z',
    arrived: false,
    restored: false,
    arrivalLateMinutes: 0,
    restoreLateMinutes: 0,
    late: false,
    penalty: 0,
  };
  const at = (iso: string) => new Date(iso).getTime();

  it('counts the time left before the arrival, then the delay', () => {
    expect(commitmentLabel(base, at('2028-03-07T08:30:00Z'))).toEqual({ text: 'Arrivée : reste 15 min', late: false });
    expect(commitmentLabel(base, at('2028-03-07T09:10:00Z'))).toEqual({
      text: 'Arrivée : en retard de 25 min',
      late: true,
    });
  });

  it('then the return to service, and the outcome once done', () => {
    const arrived = { ...base, arrived: true, arrivalLateMinutes: 35, late: true, penalty: 50 };
    expect(commitmentLabel(arrived, at('2028-03-07T10:00:00Z')).text).toBe(
      'Arrivé avec 35 min de retard · Remise en service : reste 22 h 00',
    );
    expect(commitmentLabel({ ...arrived, restored: true }, at('2028-03-07T10:00:00Z'))).toEqual({
      text: 'Délais dépassés · pénalité 50,00\u00a0€',
      late: true,
    });
    expect(commitmentLabel({ ...base, arrived: true, restored: true }, 0)).toEqual({ text: 'Délais tenus', late: false });
  });

  it('writes durations in minutes, hours and days', () => {
    expect([minutesLabel(5), minutesLabel(65), minutesLabel(60 * 26 + 3)]).toEqual(['5 min', '1 h 05', '1 j 02 h']);
  });
});
