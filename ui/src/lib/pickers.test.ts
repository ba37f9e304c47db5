// Les sélecteurs partagés : ce qu'un choix affiche, et les requêtes des recherches.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clientDetail,
  clientSearchQuery,
  equipmentDetail,
  equipmentText,
  equipmentTitle,
  getClientChoice,
  searchClientChoices,
  searchEquipmentChoices,
} from './pickers';

const lift = { id: 'eq-1', number: 'ASC-0042', building: 'Résidence Les Tilleuls', address: '3 rue des Tilleuls, 69003 Lyon' };

describe('un appareil dans la liste', () => {
  it('a pour titre son numéro, « Sans numéro » sinon', () => {
    expect(equipmentTitle(lift)).toBe('ASC-0042');
    expect(equipmentTitle({ number: null })).toBe('Sans numéro');
    expect(equipmentTitle({ number: '  ' })).toBe('Sans numéro');
  });

  it('a pour seconde ligne « immeuble · adresse », ce qui est connu', () => {
    expect(equipmentDetail(lift)).toBe('Résidence Les Tilleuls · 3 rue des Tilleuls, 69003 Lyon');
    expect(equipmentDetail({ building: null, address: '3 rue des Tilleuls' })).toBe('3 rue des Tilleuls');
    expect(equipmentDetail({ building: 'Les Tilleuls', address: null })).toBe('Les Tilleuls');
    expect(equipmentDetail({ building: null, address: null })).toBe('');
  });

  it("remplit le champ avec son numéro, ou son immeuble s'il n'en a pas (jamais son identifiant)", () => {
    expect(equipmentText(lift)).toBe('ASC-0042');
    expect(equipmentText({ ...lift, number: null })).toBe('Résidence Les Tilleuls');
    expect(equipmentText({ ...lift, number: null, building: null })).toBe('3 rue des Tilleuls, 69003 Lyon');
    expect(equipmentText({ id: 'eq-9', number: null, building: null, address: null })).toBe('Sans numéro');
  });
});

describe('un client dans la liste', () => {
  it('a pour seconde ligne « identifiant · adresse complète »', () => {
    expect(clientDetail({ id: 'CLI-000012', name: 'Chardon', fullAddress: '12 rue des Lilas, 75011 Paris' })).toBe(
      'CLI-000012 · 12 rue des Lilas, 75011 Paris',
    );
    expect(clientDetail({ id: 'CLI-000012', name: 'Chardon', fullAddress: null })).toBe('CLI-000012');
    expect(clientDetail({ id: 'CLI-000012', name: 'Chardon' })).toBe('CLI-000012');
  });

  it('est cherché parmi les clients actifs, 8 au plus, texte rogné', () => {
    expect(clientSearchQuery('  Chardon & fils ')).toBe('q=Chardon+%26+fils&archived=active&limit=8');
  });
});

describe('requêtes des recherches', () => {
  let seen: string[] = [];
  let answer: unknown = {};

  beforeEach(() => {
    seen = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        seen.push(String(input));
        return new Response(JSON.stringify(answer), { status: 200 });
      }),
    );
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('cherche les appareils par `GET /calls/equipment`, les choix et le total rendus', async () => {
    answer = { total: 12, results: [lift] };
    expect(await searchEquipmentChoices('Tilleuls 3')).toEqual({ items: [lift], total: 12 });
    expect(seen).toEqual(['/app/api/calls/equipment?q=Tilleuls%203']);
  });

  it('cherche les clients par `GET /clients`', async () => {
    const client = { id: 'CLI-000012', name: 'Chardon', fullAddress: null };
    answer = { total: 1, page: 1, limit: 8, results: [client] };
    expect(await searchClientChoices('chard')).toEqual({ items: [client], total: 1 });
    expect(seen).toEqual(['/app/api/clients?q=chard&archived=active&limit=8']);
  });

  it('relit un client de son identifiant (la fiche)', async () => {
    answer = { client: { id: 'CLI-000012', name: 'Chardon' }, contacts: [], actions: [] };
    expect(await getClientChoice('CLI-000012')).toEqual({ id: 'CLI-000012', name: 'Chardon' });
    expect(seen).toEqual(['/app/api/clients/CLI-000012']);
  });
});
