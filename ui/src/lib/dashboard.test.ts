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
