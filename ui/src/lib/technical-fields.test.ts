import { recordRequests } from './test-requests';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TECHNICAL_FIELDS_PATH, catalogueLabels, listTechnicalFields, loadCatalogueLabels } from './technical-fields';

const field = (code: string, label: string) => ({
  code,
  label,
  unit: null,
  valueType: 'number',
  choices: [],
  component: null,
});

describe('catalogue technique : les noms par code', () => {
  it('chaque code par son nom', () => {
    expect(catalogueLabels([field('charge_utile', 'Charge utile'), field('vitesse', ' Vitesse ')])).toEqual({
      charge_utile: 'Charge utile',
      vitesse: 'Vitesse',
    });
  });

  it('un nom vide ne remplace pas celui du journal', () => {
    expect(catalogueLabels([field('x', '  '), field('', 'Sans code')])).toEqual({});
  });
});

describe('catalogue technique : la requête', () => {
  const seen = recordRequests();

  it('GET /app/api/technical-fields, sans paramètre', async () => {
    await listTechnicalFields();
    expect(seen.map((s) => [s.method, s.url])).toEqual([['GET', '/app/api/technical-fields']]);
    expect(TECHNICAL_FIELDS_PATH).toBe('/app/api/technical-fields');
  });
});

describe('catalogue technique : lu pour le journal', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const answering = (status: number, body: unknown) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(body), { status })),
    );

  it('les noms du catalogue', async () => {
    answering(200, { results: [field('charge_utile', 'Charge utile')] });
    expect(await loadCatalogueLabels()).toEqual({ charge_utile: 'Charge utile' });
  });

  it('illisible (refus, réseau) : aucun nom, sans erreur', async () => {
    answering(403, { error: 'Refusé.' });
    expect(await loadCatalogueLabels()).toEqual({});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('réseau');
      }),
    );
    expect(await loadCatalogueLabels()).toEqual({});
  });
});
