// Lectures des pièces d'un client sur sa fiche : une lecture par section, filtrée par client.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordRequests } from './test-requests';
import {
  CLIENT_QUOTES_LIMIT,
  clientQuotesAddress,
  listClientEquipment,
  listClientInvoices,
  listClientQuotes,
} from './client-records';
import { listQuotes, readQuery, type QuoteListEntry } from './billing';

const quote = (id: string, equipmentId: string, equipmentNumber: string | null, createdAt: string): QuoteListEntry => ({
  id,
  number: `DV-${id}`,
  status: 'brouillon',
  statusLabel: 'Brouillon',
  origin: 'panne',
  originLabel: 'Panne',
  object: 'Objet',
  equipment: { id: equipmentId, number: equipmentNumber, link: '', url: '' },
  totalExclTax: 100,
  totalInclTax: 120,
  createdAt,
  validUntil: '2026-12-31',
  expired: false,
  invoice: null,
  link: `/devis/${id}`,
  url: '',
});

describe('pièces du client : lectures', () => {
  const seen = recordRequests();

  it('lit ses équipements (au parc et archivés), ses devis et ses factures par le filtre client', async () => {
    await listClientEquipment('CLI 1');
    await listClientQuotes('CLI 1');
    await listClientInvoices('CLI 1');
    expect(seen.map((s) => s.url)).toEqual([
      '/app/api/equipment?client=CLI+1&archived=all&page=1&limit=50',
      `/app/api/quotes?limit=${CLIENT_QUOTES_LIMIT}&page=1&client=CLI+1`,
      '/app/api/invoices?limit=20&page=1&client=CLI+1',
    ]);
  });

  it('la liste des devis n’envoie le client que s’il est donné', async () => {
    await listQuotes({ status: 'accepte', equipment: ' ASC 4 ', client: ' ' }, 2, 50);
    await listQuotes({ status: '', equipment: '' }, 1, 50);
    await listQuotes({ status: '', equipment: '', client: ' CLI-000012 ' }, 1, 50);
    expect(seen.map((s) => s.url)).toEqual([
      '/app/api/quotes?limit=50&page=2&status=accepte&equipment=ASC+4',
      '/app/api/quotes?limit=50&page=1',
      '/app/api/quotes?limit=50&page=1&client=CLI-000012',
    ]);
  });
});

describe('pièces du client : devis', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('une seule lecture, rendue telle quelle : équipements sans numéro compris, le nombre total', async () => {
    const urls: string[] = [];
    const results = [
      quote('q2', 'e2', null, '2026-11-10T10:00:00Z'),
      quote('q1', 'e1', 'ASC-1', '2026-11-01T10:00:00Z'),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        urls.push(String(input));
        return new Response(JSON.stringify({ total: 37, page: 1, limit: CLIENT_QUOTES_LIMIT, results }), { status: 200 });
      }),
    );
    const page = await listClientQuotes('CLI-000012');
    expect(urls).toEqual([`/app/api/quotes?limit=${CLIENT_QUOTES_LIMIT}&page=1&client=CLI-000012`]);
    expect(page.total).toBe(37);
    // L'ordre du serveur (les plus récents d'abord), le devis d'un équipement sans numéro compris.
    expect(page.results.map((q) => q.id)).toEqual(['q2', 'q1']);
  });

  it('« Tous ses devis » ouvre la liste filtrée par le client, que la liste relit dans l’adresse', () => {
    expect(clientQuotesAddress('CLI-000012')).toBe('/devis?client=CLI-000012');
    expect(clientQuotesAddress('CLI 1/2')).toBe('/devis?client=CLI+1%2F2');
    const address = new URL(clientQuotesAddress('CLI 1/2'), 'http://x');
    expect(readQuery(address.search, ['client', 'status'] as const)).toEqual({ client: 'CLI 1/2', status: '' });
  });
});
