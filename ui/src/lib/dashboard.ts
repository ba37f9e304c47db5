/**
 * Tableau de bord (accueil) : la réponse de `GET /app/api/dashboard` et sa mise
 * en forme pour les graphiques (séries, libellés, montants) et pour les
 * tableaux lus par les lecteurs d'écran, et sa lecture (`getDashboard`).
 */
import { api } from './api';
import type { BandOut, BucketOut, DashboardOut, MonthOut } from './generated/contract';

// La réponse vient du serveur : `generated/contract.ts` est généré depuis le code Rust.
export type { StatusCount } from './generated/contract';
export type Dashboard = DashboardOut;
export type DashboardMonth = MonthOut;
export type UnpaidBucket = BucketOut;
export type KnowledgeBand = BandOut;

/** `GET /dashboard` : les chiffres du tableau de bord de l'agence active. */
export function getDashboard(): Promise<Dashboard> {
  return api.get<Dashboard>('/app/api/dashboard');
}

/** Une série d'un graphique : nom (légende) et valeurs, dans l'ordre des libellés. */
export interface Series {
  name: string;
  values: number[];
}

/** Un graphique en barres : libellés de l'axe, séries, et comment lire une valeur. */
export interface BarChartData {
  labels: string[];
  series: Series[];
  /** Valeur affichée (étiquette, tableau) : `1 234` ou `1 234,56 €`. */
  format: (value: number) => string;
}

const INTEGER = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });
const EUROS = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });

/** `1234` → `1 234` (espace fine insécable, comme le navigateur l'écrit). */
export function formatCount(value: number): string {
  return INTEGER.format(value);
}

/** Centimes → `1 234,56 €`. */
export function formatEuros(cents: number): string {
  return EUROS.format(cents / 100);
}

/** Appels ouverts par statut. */
export function callsChart(dashboard: Dashboard): BarChartData {
  return {
    labels: dashboard.calls.byStatus.map((s) => s.libelle),
    series: [{ name: 'Appels ouverts', values: dashboard.calls.byStatus.map((s) => s.count) }],
    format: formatCount,
  };
}

/** Visites de la semaine : faites, restant à faire ; et celles en retard (toutes semaines). */
export function visitsChart(dashboard: Dashboard): BarChartData {
  const v = dashboard.visits;
  return {
    labels: ['Faites', 'À faire', 'En retard'],
    series: [{ name: 'Visites', values: [v.done, v.remaining, v.overdue] }],
    format: formatCount,
  };
}

/** Factures émises et payées par mois (nombre), sur 12 mois. */
export function invoicesChart(dashboard: Dashboard): BarChartData {
  return {
    labels: dashboard.invoices.map((m) => m.label),
    series: [
      { name: 'Émises', values: dashboard.invoices.map((m) => m.issued) },
      { name: 'Payées', values: dashboard.invoices.map((m) => m.paid) },
    ],
    format: formatCount,
  };
}

/** Montant impayé (TTC) par ancienneté après l'échéance, en euros. */
export function unpaidChart(dashboard: Dashboard): BarChartData {
  return {
    labels: dashboard.unpaid.buckets.map((b) => b.label),
    series: [{ name: 'Montant impayé', values: dashboard.unpaid.buckets.map((b) => b.amountCents / 100) }],
    format: (euros) => EUROS.format(euros),
  };
}

/** Équipements par tranche de taux de connaissance. */
export function knowledgeChart(dashboard: Dashboard): BarChartData {
  return {
    labels: dashboard.knowledge.bands.map((b) => b.label),
    series: [{ name: 'Équipements', values: dashboard.knowledge.bands.map((b) => b.count) }],
    format: formatCount,
  };
}

/** Le tableau accessible d'un graphique : en-têtes (libellé puis séries) et lignes mises en forme. */
export function chartTable(chart: BarChartData): { headers: string[]; rows: string[][] } {
  return {
    headers: ['', ...chart.series.map((s) => s.name)],
    rows: chart.labels.map((label, i) => [label, ...chart.series.map((s) => chart.format(s.values[i] ?? 0))]),
  };
}

/** Une phrase qui résume un graphique pour les lecteurs d'écran : « Ouverte : 2, … ». */
export function chartSummary(chart: BarChartData): string {
  const series = chart.series[0];
  if (chart.series.length === 1 && series) {
    return chart.labels.map((label, i) => `${label} : ${chart.format(series.values[i] ?? 0)}`).join(', ') + '.';
  }
  return (
    chart.labels
      .map(
        (label, i) =>
          `${label} : ${chart.series.map((s) => `${s.name.toLowerCase()} ${chart.format(s.values[i] ?? 0)}`).join(', ')}`,
      )
      .join(' ; ') + '.'
  );
}

/** Le plus grand total des séries (0 si tout est vide) : un graphique vide le dit au lieu de dessiner rien. */
export function isEmpty(chart: BarChartData): boolean {
  return chart.series.every((s) => s.values.every((v) => v === 0));
}
