import { describe, expect, it } from 'vitest';
import { recordRequests } from './test-requests';
import {
  billingPreview,
  billingWindow,
  checkContract,
  draftOf,
  emptyContract,
  issueAll,
  progressRatio,
  terminateContract,
  windowLabel,
  type ContractDraft,
  type ContractView,
  type IssueBatchView,
} from './contracts';

const filled = (over: Partial<ContractDraft> = {}): ContractDraft => ({
  ...emptyContract('2027-01-01'),
  client: { id: 'CLI-000001', name: 'Syndic Lumière' },
  lifts: [
    { id: 'e1', number: 'ASC-1', building: null, address: null },
    { id: 'e2', number: 'ASC-2', building: null, address: null },
  ],
  annualPrice: '1 250,50',
  ...over,
});

describe('formulaire du contrat', () => {
  it('rend le corps avec les valeurs par défaut du serveur', () => {
    const { body, errors } = checkContract(filled());
    expect(errors).toEqual({});
    expect(body).toEqual({
      clientId: 'CLI-000001',
      liftIds: ['e1', 'e2'],
      type: 'normal',
      startOn: '2027-01-01',
      durationMonths: 12,
      tacitRenewal: true,
      renewalMonths: 12,
      noticeMonths: 3,
      priceBasis: 'par_appareil',
      annualPrice: 1250.5,
      billingFrequency: 'trimestrielle',
      billingTiming: 'terme_a_echoir',
      vatRate: 20,
      priceIndex: null,
      baseIndexValue: null,
      baseIndexMonth: null,
      visitIntervalDays: 42,
      arrivalMinutes: 240,
      arrivalOutOfHoursMinutes: null,
      trappedPersonMinutes: 60,
      returnToServiceMinutes: 2880,
      weekendCoverage: false,
      onCallCoverage: false,
      penaltyPerLateHour: 0,
      notes: null,
    });
  });

  it('refuse champ par champ ce qui manque ou sort des bornes', () => {
    const { body, errors } = checkContract(
      filled({
        client: null,
        lifts: [],
        durationMonths: '6',
        visitIntervalDays: '60',
        annualPrice: '12,345',
        priceIndex: 'BT48',
        baseIndexValue: '',
        baseIndexMonth: '2026-13',
        onCallCoverage: true,
      }),
    );
    expect(body).toBeUndefined();
    expect(errors).toEqual({
      client: 'Choisissez le client du contrat dans la liste.',
      lifts: 'Ajoutez au moins un appareil couvert.',
      durationMonths: 'Durée : de 12 à 120.',
      visitIntervalDays: 'Intervalle entre deux visites : de 7 à 42.',
      annualPrice: 'Prix annuel HT : deux décimales au plus.',
      baseIndexValue: "Donnez la valeur de base I0 de l'indice (positive).",
      baseIndexMonth: 'Donnez le mois de la valeur de base (AAAA-MM).',
      arrivalOutOfHoursMinutes: "Délai d'arrivée hors heures ouvrées : un nombre entier est attendu.",
    });
  });

  it("envoie l'indice en majuscules avec I0 et son mois, et le délai hors heures avec l'astreinte", () => {
    const { body } = checkContract(
      filled({
        priceIndex: 'bt48',
        baseIndexValue: '128,4',
        baseIndexMonth: '2026-01',
        weekendCoverage: true,
        arrivalOutOfHoursMinutes: '120',
      }),
    );
    expect(body).toMatchObject({
      priceIndex: 'BT48',
      baseIndexValue: 128.4,
      baseIndexMonth: '2026-01',
      weekendCoverage: true,
      arrivalOutOfHoursMinutes: 120,
    });
  });

  it('relit un brouillon dans le formulaire sans rien perdre', () => {
    const { body } = checkContract(
      filled({ priceIndex: 'BT48', baseIndexValue: '128,4', baseIndexMonth: '2026-01', notes: 'Clés chez le gardien' }),
    );
    const view = {
      ...body,
      client: { id: 'CLI-000001', name: 'Syndic Lumière', link: '', url: '' },
      lifts: [
        { id: 'e1', number: 'ASC-1', location: null, building: null, archived: false, link: '', url: '' },
        { id: 'e2', number: 'ASC-2', location: null, building: null, archived: false, link: '', url: '' },
      ],
    } as unknown as ContractView;
    expect(checkContract(draftOf(view)).body).toEqual(body);
  });
});

describe('règles du formulaire que le serveur applique aussi', () => {
  it('refuse un délai pour personne bloquée plus long qu’un délai d’arrivée', () => {
    expect(checkContract(filled({ arrivalMinutes: '45' })).errors.trappedPersonMinutes).toBe(
      "Délai pour une personne bloquée : au plus le délai d'arrivée aux heures ouvrées.",
    );
    expect(
      checkContract(filled({ onCallCoverage: true, arrivalOutOfHoursMinutes: '30' })).errors.trappedPersonMinutes,
    ).toBe("Délai pour une personne bloquée : au plus le délai d'arrivée hors heures ouvrées.");
  });

  it('demande l’indice d’une valeur de base, et la borne', () => {
    expect(checkContract(filled({ baseIndexValue: '128,4' })).errors.priceIndex).toBe(
      "Donnez l'indice dont I0 est la valeur (BT48, ICHT-IME…), ou videz la valeur de base et son mois.",
    );
    expect(
      checkContract(filled({ priceIndex: 'BT48', baseIndexValue: '1000000', baseIndexMonth: '2026-01' })).errors
        .baseIndexValue,
    ).toBe('Valeur de base : moins de 1\u202f000\u202f000.');
  });

  it('ne contrôle pas la reconduction cachée d’un contrat sans reconduction tacite', () => {
    const { body, errors } = checkContract(filled({ tacitRenewal: false, renewalMonths: '' }));
    expect(errors).toEqual({});
    expect(body?.renewalMonths).toBe(12);
    expect(body?.tacitRenewal).toBe(false);
  });

  it('compte les notes en caractères, espaces de fin retirées', () => {
    expect(checkContract(filled({ notes: `${'é'.repeat(2000)}   ` })).errors.notes).toBeUndefined();
    expect(checkContract(filled({ notes: '🛗'.repeat(2000) })).errors.notes).toBeUndefined();
    expect(checkContract(filled({ notes: 'x'.repeat(2001) })).errors.notes).toBe('Notes : 2 000 caractères au plus.');
  });
});

describe('fenêtre de facturation', () => {
  it('donne le trimestre, le suivant, le mois et l’année du jour', () => {
    expect(billingWindow('2027-02-14', 'trimestre')).toEqual({ from: '2027-01-01', to: '2027-03-31' });
    expect(billingWindow('2027-11-30', 'trimestre', 1)).toEqual({ from: '2028-01-01', to: '2028-03-31' });
    expect(billingWindow('2028-02-10', 'mois')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(billingWindow('2027-12-31', 'mois', 1)).toEqual({ from: '2028-01-01', to: '2028-01-31' });
    expect(billingWindow('2027-05-05', 'annee')).toEqual({ from: '2027-01-01', to: '2027-12-31' });
  });

  it('nomme la fenêtre en français', () => {
    expect(windowLabel({ from: '2027-01-01', to: '2027-03-31' })).toBe('1er trimestre 2027');
    expect(windowLabel({ from: '2027-10-01', to: '2027-12-31' })).toBe('4e trimestre 2027');
    expect(windowLabel({ from: '2027-02-01', to: '2027-02-28' })).toBe('février 2027');
    expect(windowLabel({ from: '2027-01-01', to: '2027-12-31' })).toBe('année 2027');
    expect(windowLabel({ from: '2027-01-15', to: '2027-02-15' })).toBe('du 15/01/2027 au 15/02/2027');
  });
});

describe('émission par lots', () => {
  const batch = (issued: number, remaining: number, next: string | null, refused: string[] = []): IssueBatchView => ({
    issued: Array.from({ length: issued }, (_, i) => ({ id: `i${remaining}-${i}`, number: 'FA', link: '', url: '' })),
    refused: refused.map((id) => ({ id, error: 'Ligne à 0 % sans motif', link: '', url: '' })),
    remaining,
    next,
  });

  it('reprend chaque lot où le précédent s’est arrêté, jusqu’au dernier brouillon', async () => {
    const answers = [
      batch(49, 71, 'CT-2027-00050/2027-01-01', ['r1']),
      batch(50, 21, 'CT-2027-00100/2027-01-01'),
      batch(20, 1, null),
    ];
    const sent: unknown[] = [];
    const steps: number[] = [];
    const last = await issueAll(
      { from: '2027-01-01', to: '2027-03-31' },
      (p) => steps.push(p.issued),
      async (body) => {
        sent.push(body);
        const next = answers.shift();
        if (!next) throw new Error('un appel de trop');
        return next;
      },
    );
    expect(sent).toEqual([
      { from: '2027-01-01', to: '2027-03-31', limit: 50 },
      { from: '2027-01-01', to: '2027-03-31', limit: 50, after: 'CT-2027-00050/2027-01-01' },
      { from: '2027-01-01', to: '2027-03-31', limit: 50, after: 'CT-2027-00100/2027-01-01' },
    ]);
    expect(steps).toEqual([49, 99, 119]);
    expect(last.issued).toBe(119);
    expect(last.refused.map((r) => r.id)).toEqual(['r1']);
    expect(last.remaining).toBe(1);
    expect(progressRatio(last)).toBe(1);
  });

  it('va au-delà d’un lot tout refusé : les brouillons d’après sont émis', async () => {
    const answers = [
      batch(0, 80, 'CT-2027-00050/2027-01-01', Array.from({ length: 50 }, (_, i) => `r${i}`)),
      batch(30, 50, null),
    ];
    const last = await issueAll(
      { from: '2027-01-01', to: '2027-03-31' },
      () => {},
      async () => {
        const next = answers.shift();
        if (!next) throw new Error('un appel de trop');
        return next;
      },
    );
    expect(last.issued).toBe(30);
    expect(last.refused).toHaveLength(50);
    expect(progressRatio(last)).toBe(1);
    expect(progressRatio({ issued: 10, refused: [], remaining: 30 })).toBe(0.25);
  });
});

describe('appels à l’API', () => {
  const seen = recordRequests();

  it('lit l’aperçu filtré et résilie avec motif et dates', async () => {
    await billingPreview({ from: '2027-01-01', to: '2027-03-31' }, 'a_creer', 2, 50);
    await terminateContract('c 1', { reason: 'Vente de l’immeuble', noticeOn: '2027-02-01' });
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /app/api/contract-billing/preview?from=2027-01-01&to=2027-03-31&page=2&limit=50&state=a_creer',
      'POST /app/api/contracts/c%201/terminate',
    ]);
    expect(JSON.parse(seen[1]?.body ?? 'null')).toEqual({ reason: 'Vente de l’immeuble', noticeOn: '2027-02-01' });
  });
});
