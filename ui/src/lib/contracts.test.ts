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
  const batch = (issued: number, remaining: number, refused: string[] = []): IssueBatchView => ({
    issued: Array.from({ length: issued }, (_, i) => ({ id: `i${remaining}-${i}`, number: 'FA', link: '', url: '' })),
    refused: refused.map((id) => ({ id, error: 'Identité incomplète', link: '', url: '' })),
    remaining,
  });

  it('appelle lot après lot jusqu’au bout et rend compte de chaque pas', async () => {
    const answers = [batch(50, 70, ['r1']), batch(50, 20, ['r1']), batch(19, 1, ['r1'])];
    const steps: number[] = [];
    const last = await issueAll(
      { from: '2027-01-01', to: '2027-03-31' },
      (p) => steps.push(p.issued),
      async (body) => {
        expect(body).toEqual({ from: '2027-01-01', to: '2027-03-31', limit: 50 });
        const next = answers.shift();
        if (!next) throw new Error('un appel de trop');
        return next;
      },
    );
    expect(steps).toEqual([50, 100, 119]);
    expect(last.issued).toBe(119);
    expect(last.refused.map((r) => r.id)).toEqual(['r1']);
    expect(last.remaining).toBe(1);
    expect(progressRatio(last)).toBe(1);
  });

  it('s’arrête quand un lot n’émet plus rien', async () => {
    let calls = 0;
    const last = await issueAll(
      { from: '2027-01-01', to: '2027-03-31' },
      () => {},
      async () => {
        calls += 1;
        return batch(0, 3, ['a', 'b', 'c']);
      },
    );
    expect(calls).toBe(1);
    expect(last.refused).toHaveLength(3);
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
