/**
 * Visites en retard et à échéance proche (`GET /app/api/visits/late`) : les
 * filtres de l'écran (technicien, secteur, client, horizon) lus et écrits dans
 * l'adresse (`/planning/retards?technician=…&days=30`), et la mise en forme du
 * retard (« 12 j », « dans 3 j »).
 */
import { api } from './api';
import type { PendingVisitOut, PendingVisits } from './generated/contract';

export type { PendingVisitOut, PendingVisits } from './generated/contract';

/** Le filtre « technicien » des visites sans technicien. */
export const UNASSIGNED_TECHNICIAN = 'unassigned';

/** Les horizons proposés pour « à échéance d'ici » (jours) ; 14 par défaut, comme le serveur. */
export const HORIZONS = [7, 14, 30] as const;
export const DEFAULT_HORIZON = 14;

export interface LateFilters {
  technician: string;
  sector: string;
  client: string;
  days: number;
}

/** Les filtres de l'adresse ; un horizon hors de la liste revient à 14 jours. */
export function readLateFilters(search: string): LateFilters {
  const params = new URLSearchParams(search);
  const days = Number(params.get('days'));
  return {
    technician: params.get('technician')?.trim() ?? '',
    sector: params.get('sector')?.trim() ?? '',
    client: params.get('client')?.trim() ?? '',
    days: (HORIZONS as readonly number[]).includes(days) ? days : DEFAULT_HORIZON,
  };
}

/** La chaîne de requête des filtres non vides (`?technician=…&days=30`), ou `''` ; 14 jours n'est pas écrit. */
export function lateQuery(filters: LateFilters): string {
  const params = new URLSearchParams();
  if (filters.technician) params.set('technician', filters.technician);
  if (filters.sector.trim()) params.set('sector', filters.sector.trim());
  if (filters.client.trim()) params.set('client', filters.client.trim());
  if (filters.days !== DEFAULT_HORIZON) params.set('days', String(filters.days));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Jours entre deux dates `AAAA-MM-JJ` (`to` − `from`). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Le retard d'une visite : « 12 j » en retard ; « dans 3 j » (« aujourd'hui ») pour l'échéance proche. */
export function lateness(visit: PendingVisitOut, today: string): string {
  if (visit.late) return `${visit.daysLate} j`;
  if (!visit.deadline) return '—';
  const left = daysBetween(today, visit.deadline);
  return left <= 0 ? "aujourd'hui" : `dans ${left} j`;
}

/** `GET /visits/late` : les visites en retard puis à échéance proche, filtrées. */
export function listLateVisits(filters: LateFilters, signal?: AbortSignal): Promise<PendingVisits> {
  const query = lateQuery(filters);
  const days = filters.days === DEFAULT_HORIZON ? `${query ? '&' : '?'}days=${DEFAULT_HORIZON}` : '';
  return api.get<PendingVisits>(`/app/api/visits/late${query}${days}`, { signal });
}
