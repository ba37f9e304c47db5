/** Formats français des dates et heures affichées. */

const DAY = new Intl.DateTimeFormat('fr-FR', { day: '2-digit', month: '2-digit', year: 'numeric' });
const DAY_TIME = new Intl.DateTimeFormat('fr-FR', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** `2026-11-21` ou un horodatage ISO → `21/11/2026` ; `null` → `—`. */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '—';
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00`) : new Date(value);
  return Number.isNaN(date.getTime()) ? value : DAY.format(date);
}

/** Horodatage ISO → `21/11/2026 14:05` (heure locale) ; `null` → `—`. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : DAY_TIME.format(date);
}

const PARIS_DAY_TIME = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/**
 * Horodatage ISO → `09/11/2026 13:13` à l'heure de Paris, quel que soit le
 * fuseau du navigateur (celle de l'agence) ; `null` → `—`, illisible : tel quel.
 */
export function formatParisDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  // Certaines versions d'ICU séparent le jour de l'heure par une virgule.
  return Number.isNaN(date.getTime()) ? value : PARIS_DAY_TIME.format(date).replace(',', '');
}

const PARIS_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/**
 * Le jour de `date` à Paris, `YYYY-MM-DD`, quel que soit le fuseau du
 * navigateur : celui du serveur (la date d'un règlement, bornée par
 * « aujourd'hui » à Paris), entre minuit à Paris et minuit UTC aussi.
 */
export function parisDay(date: Date): string {
  const parts = Object.fromEntries(PARIS_DAY.formatToParts(date).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** Le jour local au format `YYYY-MM-DD`. */
export function isoDay(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

/**
 * Un instant par rapport à `now` (ms) : « à l'instant », « il y a 12 s »,
 * « dans 3 min », « il y a 2 h » ; au-delà d'un jour, la date et l'heure
 * (`21/11/2026 14:05`). `null` → `—`.
 */
export function relativeTime(value: string | null | undefined, now: number): string {
  if (!value) return '—';
  const at = new Date(value).getTime();
  if (Number.isNaN(at)) return value;
  const seconds = Math.round((at - now) / 1000);
  const size = Math.abs(seconds);
  if (size < 5) return "à l'instant";
  let amount: string;
  if (size < 60) amount = `${size} s`;
  else if (size < 3600) amount = `${Math.round(size / 60)} min`;
  else if (size < 86_400) amount = `${Math.round(size / 3600)} h`;
  else return formatDateTime(value);
  return seconds < 0 ? `il y a ${amount}` : `dans ${amount}`;
}
