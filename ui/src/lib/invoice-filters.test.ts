// Les filtres de la liste des factures : lus dans l'adresse, réécrits dans
// l'adresse et passés tels quels à l'export (échues seulement comprises).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { invoiceFilterValues, invoiceListAddress, listInvoices, readInvoiceFilters } from './billing';
import { exportQuery } from './exports';

const none = { client: '', status: '', since: '', until: '', overdue: false };

describe('filtres de la liste des factures', () => {
  it("lit le lien « factures échues » du tableau de bord", () => {
    expect(readInvoiceFilters('?overdue=1')).toEqual({ filters: { ...none, overdue: true }, page: 1 });
    expect(readInvoiceFilters('?overdue=0').filters.overdue).toBe(false);
    expect(readInvoiceFilters('').filters).toEqual(none);
  });

  it("lit le client, les dates valides et la page ; ignore le reste", () => {
    expect(readInvoiceFilters('?client=CLI-000012&since=2026-01-01&until=demain&page=3&x=1')).toEqual({
      filters: { ...none, client: 'CLI-000012', since: '2026-01-01' },
      page: 3,
    });
    expect(readInvoiceFilters('?page=-2').page).toBe(1);
    expect(readInvoiceFilters('?page=abc').page).toBe(1);
  });

  it("réécrit l'adresse, page 1 et filtres vides omis", () => {
    expect(invoiceListAddress(none, 1)).toBe('/factures');
    expect(invoiceListAddress({ ...none, client: 'CLI-000012', overdue: true }, 1)).toBe(
      '/factures?client=CLI-000012&overdue=1',
    );
    expect(invoiceListAddress({ ...none, status: 'emise' }, 2)).toBe('/factures?status=emise&page=2');
  });

  it("donne à l'export le filtre « échues seulement »", () => {
    expect(exportQuery(invoiceFilterValues({ ...none, client: ' CLI-000012 ', overdue: true }))).toBe(
      'client=CLI-000012&overdue=1',
    );
    expect(exportQuery(invoiceFilterValues(none))).toBe('');
  });

  it("une adresse relue donne les mêmes filtres", () => {
    const filters = { client: 'CLI-000012', status: 'envoyee', since: '2026-01-01', until: '2026-06-30', overdue: true };
    const address = invoiceListAddress(filters, 4);
    expect(readInvoiceFilters(address.slice(address.indexOf('?')))).toEqual({ filters, page: 4 });
  });
});

describe('GET /invoices', () => {
  let seen: string[] = [];
  beforeEach(() => {
    seen = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        seen.push(String(input));
        return new Response('{}', { status: 200 });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it("filtre par l'identifiant du client choisi et les échues", async () => {
    await listInvoices({ ...none, client: 'CLI-000012', overdue: true }, 1, 50);
    expect(seen).toEqual(['/app/api/invoices?limit=50&page=1&overdue=1&client=CLI-000012']);
  });
});
