// Les filtres de la liste des factures : lus dans l'adresse, réécrits dans
// l'adresse et passés tels quels à l'export (échues seulement comprises), et
// ceux des chiffres du tableau de bord (émises, réglées, impayées d'une
// tranche) montrés en étiquettes que « Retirer » enlève.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  invoiceFilterChips,
  invoiceFilterValues,
  invoiceListAddress,
  listInvoices,
  NO_INVOICE_FILTERS,
  periodWords,
  readInvoiceFilters,
  UNPAID_AGES,
  wholeMonth,
  withoutChip,
} from './billing';
import { exportQuery } from './exports';

const none = NO_INVOICE_FILTERS;

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
    const filters = {
      client: 'CLI-000012',
      status: 'envoyee',
      since: '2026-01-01',
      until: '2026-06-30',
      overdue: true,
      issuedSince: '2026-02-01',
      issuedUntil: '2026-02-28',
      paidSince: '2026-03-01',
      paidUntil: '2026-03-31',
      unpaid: '31_60' as const,
    };
    const address = invoiceListAddress(filters, 4);
    expect(readInvoiceFilters(address.slice(address.indexOf('?')))).toEqual({ filters, page: 4 });
  });
});

describe('filtres des chiffres du tableau de bord', () => {
  it('lit les périodes d’émission et de règlement, et la tranche des impayés', () => {
    expect(readInvoiceFilters('?issuedSince=2026-11-01&issuedUntil=2026-11-30').filters).toEqual({
      ...none,
      issuedSince: '2026-11-01',
      issuedUntil: '2026-11-30',
    });
    expect(readInvoiceFilters('?paidSince=2026-11-01&paidUntil=2026-11-30&page=2')).toEqual({
      filters: { ...none, paidSince: '2026-11-01', paidUntil: '2026-11-30' },
      page: 2,
    });
    for (const { code } of UNPAID_AGES) expect(readInvoiceFilters(`?unpaid=${code}`).filters.unpaid).toBe(code);
  });

  it('ignore une date mal formée et une tranche inconnue', () => {
    expect(readInvoiceFilters('?issuedSince=novembre&paidUntil=2026-13&unpaid=45_jours').filters).toEqual(none);
    // « tout » : le total des impayés du tableau de bord, échus ou non.
    expect(readInvoiceFilters('?unpaid=tout').filters.unpaid).toBe('tout');
  });

  it("les garde dans l'adresse avec les autres filtres, et la page", () => {
    expect(invoiceListAddress({ ...none, issuedSince: '2026-11-01', issuedUntil: '2026-11-30' }, 1)).toBe(
      '/factures?issuedSince=2026-11-01&issuedUntil=2026-11-30',
    );
    expect(invoiceListAddress({ ...none, status: 'emise', unpaid: 'a_echoir' }, 3)).toBe(
      '/factures?status=emise&unpaid=a_echoir&page=3',
    );
  });

  it("les passe à l'export", () => {
    expect(exportQuery(invoiceFilterValues({ ...none, paidSince: '2026-11-01', paidUntil: '2026-11-30', unpaid: '0_30' }))).toBe(
      'paidSince=2026-11-01&paidUntil=2026-11-30&unpaid=0_30',
    );
  });

  it('reconnaît un mois entier, février bissextile compris', () => {
    expect(wholeMonth('2026-11-01', '2026-11-30')).toBe('2026-11');
    expect(wholeMonth('2024-02-01', '2024-02-29')).toBe('2024-02');
    expect(wholeMonth('2026-02-01', '2026-02-28')).toBe('2026-02');
    expect(wholeMonth('2026-11-01', '2026-11-29')).toBeNull();
    expect(wholeMonth('2026-11-02', '2026-11-30')).toBeNull();
    expect(wholeMonth('2026-10-01', '2026-11-30')).toBeNull();
    expect(wholeMonth('2026-11-01', '')).toBeNull();
  });

  it('dit la période en mots', () => {
    expect(periodWords('2026-11-01', '2026-11-30')).toBe('en novembre 2026');
    expect(periodWords('2026-11-01', '2026-11-15')).toBe('du 01/11/2026 au 15/11/2026');
    expect(periodWords('2026-11-03', '2026-11-03')).toBe('le 03/11/2026');
    expect(periodWords('2026-11-01', '')).toBe('à partir du 01/11/2026');
    expect(periodWords('', '2026-11-30')).toBe('jusqu’au 30/11/2026');
    expect(periodWords('', '')).toBe('');
  });

  it('une étiquette par filtre, en clair', () => {
    expect(invoiceFilterChips(none)).toEqual([]);
    expect(invoiceFilterChips({ ...none, status: 'emise', overdue: true, since: '2026-01-01' })).toEqual([]);
    const chips = invoiceFilterChips({
      ...none,
      issuedSince: '2026-11-01',
      issuedUntil: '2026-11-30',
      paidSince: '2026-10-05',
      paidUntil: '2026-10-20',
      unpaid: '31_60',
    });
    expect(chips.map((c) => [c.key, c.text])).toEqual([
      ['issued', 'Émises en novembre 2026'],
      ['paid', 'Réglées du 05/10/2026 au 20/10/2026'],
      ['unpaid', 'Impayées, échues depuis 31 à 60 jours'],
    ]);
    expect(chips[1]?.title).toBe('Les factures ayant reçu un règlement du 05/10/2026 au 20/10/2026');
    expect(invoiceFilterChips({ ...none, unpaid: 'a_echoir' }).map((c) => c.text)).toEqual(['Impayées, non échues']);
    expect(invoiceFilterChips({ ...none, unpaid: 'plus_90' }).map((c) => c.text)).toEqual([
      'Impayées, échues depuis plus de 90 jours',
    ]);
    expect(invoiceFilterChips({ ...none, issuedSince: '2026-11-01', issuedUntil: '2026-11-15' }).map((c) => c.text)).toEqual([
      'Émises du 01/11/2026 au 15/11/2026',
    ]);
  });

  it('« Retirer » enlève le seul filtre de l’étiquette, les autres restent', () => {
    const all = {
      ...none,
      status: 'emise',
      issuedSince: '2026-11-01',
      issuedUntil: '2026-11-30',
      paidSince: '2026-11-01',
      paidUntil: '2026-11-30',
      unpaid: '0_30' as const,
    };
    expect(withoutChip(all, 'issued')).toEqual({ ...all, issuedSince: '', issuedUntil: '' });
    expect(withoutChip(all, 'paid')).toEqual({ ...all, paidSince: '', paidUntil: '' });
    expect(withoutChip(all, 'unpaid')).toEqual({ ...all, unpaid: '' });
    expect(invoiceListAddress(withoutChip({ ...none, status: 'emise', unpaid: '0_30' }, 'unpaid'), 1)).toBe(
      '/factures?status=emise',
    );
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

  it('envoie les filtres des chiffres du tableau de bord', async () => {
    await listInvoices({ ...none, issuedSince: '2026-11-01', issuedUntil: '2026-11-30' }, 1, 50);
    await listInvoices({ ...none, paidSince: '2026-11-01', paidUntil: '2026-11-30', status: 'payee' }, 2, 50);
    await listInvoices({ ...none, unpaid: 'a_echoir' }, 1, 50);
    expect(seen).toEqual([
      '/app/api/invoices?limit=50&page=1&issuedSince=2026-11-01&issuedUntil=2026-11-30',
      '/app/api/invoices?limit=50&page=2&status=payee&paidSince=2026-11-01&paidUntil=2026-11-30',
      '/app/api/invoices?limit=50&page=1&unpaid=a_echoir',
    ]);
  });
});
