import { describe, expect, it } from 'vitest';
import {
  callsChart,
  chartSummary,
  chartTable,
  formatEuros,
  invoicesChart,
  isEmpty,
  knowledgeChart,
  unpaidChart,
  visitsChart,
  type Dashboard,
} from './dashboard';

const NBSP = /[\u202f\u00a0]/g;
const plain = (text: string) => text.replace(NBSP, ' ');

const dashboard: Dashboard = {
  today: '2026-11-21',
  calls: {
    total: 4,
    byStatus: [
      { statut: 'ouverte', libelle: 'Ouverte', count: 2 },
      { statut: 'en_route', libelle: 'Technicien en route', count: 1 },
      { statut: 'sur_place', libelle: 'Technicien sur place', count: 0 },
      { statut: 'a_l_arret', libelle: "Appareil à l'arrêt", count: 1 },
    ],
  },
  visits: { weekStart: '2026-11-16', weekEnd: '2026-11-22', planned: 3, done: 1, remaining: 2, overdue: 5 },
  invoices: [
    { month: '2026-10', label: 'oct. 2026', issued: 1200, issuedCents: 10, paid: 3, paidCents: 5 },
    { month: '2026-11', label: 'nov. 2026', issued: 2, issuedCents: 170000, paid: 1, paidCents: 50000 },
  ],
  unpaid: {
    totalCents: 223000,
    count: 2,
    buckets: [
      { bucket: 'a_echoir', label: 'Non échues', count: 1, amountCents: 120000 },
      { bucket: 'plus_90', label: 'Plus de 90 jours', count: 1, amountCents: 103050 },
    ],
  },
  knowledge: {
    total: 4,
    bands: [
      { band: '0_24', label: 'Moins de 25 %', count: 2 },
      { band: '100', label: '100 %', count: 2 },
    ],
  },
  todo: {
    trappedCount: 0,
    trapped: [],
    unassignedCount: 0,
    unassigned: [],
    unassignedAfterMinutes: 15,
    lateVisits: 5,
    waitingQuotesCount: 0,
    waitingQuotes: [],
    quoteWaitingDays: 30,
    overdueInvoices: 0,
    overdueCents: 0,
  },
  renewals: { withinDays: 90, count: 0, items: [] },
};

describe('mise en forme des graphiques du tableau de bord', () => {
  it('les appels ouverts suivent les statuts dans l’ordre de la réponse', () => {
    const chart = callsChart(dashboard);
    expect(chart.labels).toEqual(['Ouverte', 'Technicien en route', 'Technicien sur place', "Appareil à l'arrêt"]);
    expect(chart.series).toEqual([{ name: 'Appels ouverts', values: [2, 1, 0, 1] }]);
  });

  it('les visites : faites, à faire, en retard', () => {
    const chart = visitsChart(dashboard);
    expect(chart.labels).toEqual(['Faites', 'À faire', 'En retard']);
    expect(chart.series[0]?.values).toEqual([1, 2, 5]);
  });

  it('les factures : deux séries, émises puis payées, par mois', () => {
    const chart = invoicesChart(dashboard);
    expect(chart.labels).toEqual(['oct. 2026', 'nov. 2026']);
    expect(chart.series.map((s) => s.name)).toEqual(['Émises', 'Payées']);
    expect(chart.series[0]?.values).toEqual([1200, 2]);
    expect(chart.series[1]?.values).toEqual([3, 1]);
  });

  it('les impayés en euros, et leur tableau en euros français', () => {
    const chart = unpaidChart(dashboard);
    expect(chart.series[0]?.values).toEqual([1200, 1030.5]);
    expect(chartTable(chart).rows.map((r) => r.map(plain))).toEqual([
      ['Non échues', '1 200,00 €'],
      ['Plus de 90 jours', '1 030,50 €'],
    ]);
    expect(plain(formatEuros(5))).toBe('0,05 €');
  });

  it('le tableau accessible a une colonne par série', () => {
    const table = chartTable(invoicesChart(dashboard));
    expect(table.headers).toEqual(['', 'Émises', 'Payées']);
    expect(table.rows.map((r) => r.map(plain))).toEqual([
      ['oct. 2026', '1 200', '3'],
      ['nov. 2026', '2', '1'],
    ]);
  });

  it('le résumé lu par les lecteurs d’écran', () => {
    expect(chartSummary(knowledgeChart(dashboard))).toBe('Moins de 25 % : 2, 100 % : 2.');
    expect(plain(chartSummary(invoicesChart(dashboard)))).toBe(
      'oct. 2026 : émises 1 200, payées 3 ; nov. 2026 : émises 2, payées 1.',
    );
  });

  it('un graphique sans aucune valeur est vide', () => {
    expect(isEmpty(callsChart(dashboard))).toBe(false);
    const none = { ...dashboard, calls: { total: 0, byStatus: dashboard.calls.byStatus.map((s) => ({ ...s, count: 0 })) } };
    expect(isEmpty(callsChart(none))).toBe(true);
  });
});

describe('liens des chiffres du tableau de bord', () => {
  it('un mois de factures : émises ou réglées du premier au dernier jour du mois', async () => {
    const { invoicesLink, monthBounds } = await import('./dashboard');
    expect(monthBounds('2026-02')).toEqual({ since: '2026-02-01', until: '2026-02-28' });
    expect(monthBounds('2024-02').until).toBe('2024-02-29');
    const month = { month: '2026-11', label: 'nov. 2026', issued: 3, issuedCents: 0, paid: 1, paidCents: 0 };
    expect(invoicesLink(month, false)).toEqual({
      href: '/factures?issuedSince=2026-11-01&issuedUntil=2026-11-30',
      title: 'Les factures émises en nov. 2026',
    });
    expect(invoicesLink(month, true)).toEqual({
      href: '/factures?paidSince=2026-11-01&paidUntil=2026-11-30',
      title: 'Les factures ayant reçu un règlement en nov. 2026',
    });
  });

  it('le lien d’un mois, relu par la liste, donne son étiquette', async () => {
    const { invoicesLink } = await import('./dashboard');
    const { invoiceFilterChips, readInvoiceFilters } = await import('./billing');
    const month = { month: '2024-02', label: 'févr. 2024', issued: 3, issuedCents: 0, paid: 1, paidCents: 0 };
    const chipsOf = (href: string) =>
      invoiceFilterChips(readInvoiceFilters(href.slice(href.indexOf('?'))).filters).map((c) => c.text);
    expect(chipsOf(invoicesLink(month, false).href)).toEqual(['Émises en février 2024']);
    expect(chipsOf(invoicesLink(month, true).href)).toEqual(['Réglées en février 2024']);
  });

  it('chaque tranche des impayés mène aux impayées de cette tranche, « Non échues » comprise', async () => {
    const { unpaidLink } = await import('./dashboard');
    const { invoiceFilterChips, readInvoiceFilters } = await import('./billing');
    const cases: [string, string, string, string][] = [
      ['a_echoir', 'Non échues', 'Les factures impayées non échues', 'Impayées, non échues'],
      ['0_30', '0 à 30 jours', 'Les factures impayées échues depuis 0 à 30 jours', 'Impayées, échues depuis 0 à 30 jours'],
      ['31_60', '31 à 60 jours', 'Les factures impayées échues depuis 31 à 60 jours', 'Impayées, échues depuis 31 à 60 jours'],
      ['61_90', '61 à 90 jours', 'Les factures impayées échues depuis 61 à 90 jours', 'Impayées, échues depuis 61 à 90 jours'],
      ['plus_90', 'Plus de 90 jours', 'Les factures impayées échues depuis plus de 90 jours', 'Impayées, échues depuis plus de 90 jours'],
    ];
    for (const [bucket, label, title, chip] of cases) {
      const link = unpaidLink({ bucket, label, count: 1, amountCents: 1 });
      expect(link).toEqual({ href: `/factures?unpaid=${bucket}`, title });
      const read = readInvoiceFilters(link.href.slice(link.href.indexOf('?'))).filters;
      expect(invoiceFilterChips(read).map((c) => c.text)).toEqual([chip]);
    }
  });

  it('chaque tranche de connaissance mène au parc filtré sur elle', async () => {
    const { knowledgeLink } = await import('./dashboard');
    expect(knowledgeLink({ band: '25_49', label: '25 à 49 %', count: 3 })).toEqual({
      href: '/equipements?knowledge=25_49',
      title: 'Les équipements dont le taux de connaissance est de 25 à 49 %',
    });
    expect(knowledgeLink({ band: '0_24', label: 'Moins de 25 %', count: 3 }).title).toBe(
      'Les équipements dont le taux de connaissance est inférieur à 25 %',
    );
    expect(knowledgeLink({ band: '100', label: '100 %', count: 3 }).href).toBe('/equipements?knowledge=100');
  });

  it('les liens des barres de connaissance, un par tranche, au texte de la barre', async () => {
    const { barLinks, knowledgeLink } = await import('./dashboard');
    const links = barLinks(knowledgeChart(dashboard), (i) => {
      const b = dashboard.knowledge.bands[i];
      return b ? knowledgeLink(b) : null;
    });
    expect(links.map((l) => [l.text, l.href])).toEqual([
      ['Moins de 25 % : 2', '/equipements?knowledge=0_24'],
      ['100 % : 2', '/equipements?knowledge=100'],
    ]);
  });

  it('un lien par barre, nommé par son libellé et sa valeur', async () => {
    const { barLinks } = await import('./dashboard');
    const chart = {
      labels: ['Ouverte', 'En route'],
      series: [{ name: 'Appels ouverts', values: [3, 0] }],
      format: String,
    };
    const links = barLinks(chart, (i) => (i === 0 ? { href: '/appels?statut=ouverte', title: 't' } : null));
    expect(links).toEqual([{ href: '/appels?statut=ouverte', title: 't', text: 'Ouverte : 3', label: 0, series: 0 }]);
  });

  it('le temps écoulé, à la minute', async () => {
    const { elapsed } = await import('./dashboard');
    const now = Date.parse('2026-11-29T10:00:00Z');
    expect(elapsed('2026-11-29T09:48:00Z', now)).toBe('il y a 12 min');
    expect(elapsed('2026-11-29T07:55:00Z', now)).toBe('il y a 2 h 05');
    expect(elapsed('2026-11-26T10:00:00Z', now)).toBe('il y a 3 j');
  });
});
