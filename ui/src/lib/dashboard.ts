/**
 * Tableau de bord (accueil) : la réponse de `GET /app/api/dashboard` et sa mise
 * en forme pour les graphiques (séries, libellés, montants) et pour les
 * tableaux lus par les lecteurs d'écran, sa lecture (`getDashboard`), et
 * les liens de ses chiffres et de ses barres : la liste filtrée exactement
 * comme le chiffre est compté.
 */
import { api } from './api';
import { unpaidAgeLabel } from './billing';
import { knowledgeBandWords } from './equipment';
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

// ---------------------------------------------------------------------------
// Liens des chiffres et des barres : la liste filtrée derrière chacun
// ---------------------------------------------------------------------------

/** L'écran des visites en retard et à échéance proche. */
export const LATE_VISITS_PATH = '/planning/retards';

/** Où mène une barre : l'adresse de la liste filtrée et ce qu'elle montre (infobulle). */
export interface ChartLink {
  href: string;
  title: string;
}

/** Un lien par barre non vide : son texte (« Ouverte : 3 », « nov. 2026 — émises : 12 ») et où il mène. */
export interface BarLink extends ChartLink {
  text: string;
  label: number;
  series: number;
}

/** Les liens des barres d'un graphique (`linkOf` : `null` pour une barre sans liste derrière). */
export function barLinks(
  chart: BarChartData,
  linkOf: (label: number, series: number) => ChartLink | null,
): BarLink[] {
  const out: BarLink[] = [];
  chart.labels.forEach((label, i) => {
    chart.series.forEach((series, s) => {
      const link = linkOf(i, s);
      if (!link) return;
      const value = chart.format(series.values[i] ?? 0);
      const text = chart.series.length === 1 ? `${label} : ${value}` : `${label} — ${series.name.toLowerCase()} : ${value}`;
      out.push({ ...link, text, label: i, series: s });
    });
  });
  return out;
}

/** Les appels d'un statut, sur le tableau des appels. */
export function callsLink(statut: string, libelle: string): ChartLink {
  return { href: `/appels?statut=${encodeURIComponent(statut)}`, title: `Les appels au statut « ${libelle} »` };
}

/** Visites de la semaine : faites et à faire → le planning de la semaine ; en retard → l'écran des retards. */
export function visitsLink(dashboard: Dashboard, index: number): ChartLink {
  if (index === 2) return { href: LATE_VISITS_PATH, title: 'Les visites en retard, toutes semaines' };
  return { href: `/planning/${dashboard.visits.weekStart}`, title: 'Le planning de cette semaine' };
}

/** Le premier et le dernier jour d'un mois `AAAA-MM`. */
export function monthBounds(month: string): { since: string; until: string } {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, mon, 0)).getUTCDate();
  return { since: `${month}-01`, until: `${month}-${String(last).padStart(2, '0')}` };
}

/**
 * Les factures d'un mois, exactement celles que compte la barre : émises
 * (`issuedSince`, `issuedUntil` : jour d'émission, avoirs non compris), ou
 * ayant reçu un règlement dans le mois (`paidSince`, `paidUntil`).
 */
export function invoicesLink(month: MonthOut, paid: boolean): ChartLink {
  const { since, until } = monthBounds(month.month);
  return paid
    ? {
        href: `/factures?paidSince=${since}&paidUntil=${until}`,
        title: `Les factures ayant reçu un règlement en ${month.label}`,
      }
    : { href: `/factures?issuedSince=${since}&issuedUntil=${until}`, title: `Les factures émises en ${month.label}` };
}

/** Les factures impayées d'une tranche d'ancienneté (`unpaid`), « Non échues » comprise. */
export function unpaidLink(bucket: BucketOut): ChartLink {
  const age = unpaidAgeLabel(bucket.bucket) ?? bucket.label.toLowerCase();
  return {
    href: `/factures?unpaid=${encodeURIComponent(bucket.bucket)}`,
    title: `Les factures impayées ${age}`,
  };
}

/** Les équipements d'une tranche de taux de connaissance (le filtre `knowledge` du parc prend ses codes). */
export function knowledgeLink(band: BandOut): ChartLink {
  return {
    href: `/equipements?knowledge=${encodeURIComponent(band.band)}`,
    title: `Les équipements dont le taux de connaissance est ${knowledgeBandWords(band.band) ?? band.label}`,
  };
}

/** « il y a 12 min » depuis `at` (UTC), à la minute ; au-delà d'un jour, « il y a 3 j ». */
export function elapsed(at: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - new Date(at).getTime()) / 60_000));
  if (minutes < 1) return "à l'instant";
  if (minutes < 60) return `il y a ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `il y a ${hours} h ${String(minutes % 60).padStart(2, '0')}`;
  return `il y a ${Math.floor(hours / 24)} j`;
}
