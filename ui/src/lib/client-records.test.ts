import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordRequests } from './test-requests';
import { listClientEquipment, listClientInvoices, listClientQuotes, quotesOf } from './client-records';
import type { QuoteListEntry } from './billing';

const quote = (id: string, equipmentId: string, createdAt: string): QuoteListEntry => ({
  id,
  number: `DV-${id}`,
  status: 'brouillon',
  statusLabel: 'Brouillon',
  origin: 'panne',
  originLabel: 'Panne',
  object: 'Objet',
  equipment: { id: equipmentId, number: `N-${equipmentId}`, link: '', url: '' },
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

  it('lit ses équipements (au parc et archivés) et ses factures par le filtre client', async () => {
    await listClientEquipment('CLI 1');
    await listClientInvoices('CLI 1');
    expect(seen.map((s) => s.url)).toEqual([
      '/app/api/equipment?client=CLI+1&archived=all&page=1&limit=50',
      '/app/api/invoices?limit=20&page=1&client=CLI+1',
    ]);
  });
});

describe('pièces du client : devis', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('garde les devis de ses équipements seulement, une fois chacun, les plus récents d’abord', () => {
    const mine = [{ id: 'e1' }, { id: 'e2' }];
    const answers = [
      [quote('q1', 'e1', '2026-11-01T10:00:00Z'), quote('q9', 'e10', '2026-11-20T10:00:00Z')],
      [quote('q2', 'e2', '2026-11-10T10:00:00Z'), quote('q1', 'e1', '2026-11-01T10:00:00Z')],
    ];
    expect(quotesOf(mine, answers).map((q) => q.id)).toEqual(['q2', 'q1']);
    expect(quotesOf([], answers)).toEqual([]);
  });

  it('lit les devis équipement par équipement, par numéro, sans ceux qui n’en ont pas', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = String(input);
        urls.push(url);
        const number = new URL(url, 'http://x').searchParams.get('equipment');
        const results = number === 'ASC-1' ? [quote('q1', 'e1', '2026-11-01T10:00:00Z'), quote('q3', 'e3', '2026-11-02T10:00:00Z')] : [];
        return new Response(JSON.stringify({ total: results.length, page: 1, limit: 200, results }), { status: 200 });
      }),
    );
    const quotes = await listClientQuotes([
      { id: 'e1', number: 'ASC-1' },
      { id: 'e2', number: null },
      { id: 'e4', number: 'ASC 4' },
    ]);
    expect(quotes.map((q) => q.id)).toEqual(['q1']);
    expect(urls).toEqual([
      '/app/api/quotes?limit=200&page=1&equipment=ASC-1',
      '/app/api/quotes?limit=200&page=1&equipment=ASC+4',
    ]);
  });
});
