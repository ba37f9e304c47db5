/**
 * Ce que la fiche d'un client liste de ses pièces : ses équipements
 * (`GET /equipment?client=`), ses factures (`GET /invoices?client=`) et les
 * devis de ses équipements. `GET /quotes` ne se filtre pas par client (son
 * filtre `equipment` est un fragment du numéro) : les devis sont lus
 * équipement par équipement, puis gardés s'ils portent bien sur l'un d'eux.
 */
import { listInvoices, listQuotes, type InvoiceRow, type Page, type QuoteListEntry } from './billing';
import { EMPTY_FILTERS, listEquipment, type ParkEntry, type ParkPage } from './equipment';

/** Équipements montrés sur la fiche (une page du parc). */
export const CLIENT_EQUIPMENT_LIMIT = 50;
/** Factures montrées (les plus récentes). */
export const CLIENT_INVOICES_LIMIT = 20;
/** Devis lus par équipement (les plus récents). */
const QUOTES_PER_EQUIPMENT = 200;
/** Lectures des devis en même temps. */
const QUOTE_READS_AT_ONCE = 4;

/** Les équipements du client, au parc ou archivés, par numéro. */
export function listClientEquipment(clientId: string): Promise<ParkPage> {
  return listEquipment({ ...EMPTY_FILTERS, client: clientId, archived: 'all' }, 1);
}

/** Les factures et avoirs du client, les plus récents d'abord. */
export function listClientInvoices(clientId: string): Promise<Page<InvoiceRow>> {
  return listInvoices({ client: clientId, status: '', since: '', until: '' }, 1, CLIENT_INVOICES_LIMIT);
}

/**
 * Les devis de ces équipements, une fois chacun, les plus récents d'abord :
 * ceux des réponses dont l'équipement est l'un d'eux (le filtre du serveur
 * prend aussi « ASC-10 » dans « ASC-100 »).
 */
export function quotesOf(equipment: Pick<ParkEntry, 'id'>[], answers: QuoteListEntry[][]): QuoteListEntry[] {
  const ids = new Set(equipment.map((e) => e.id));
  const byId = new Map<string, QuoteListEntry>();
  for (const answer of answers) {
    for (const quote of answer) if (ids.has(quote.equipment.id)) byId.set(quote.id, quote);
  }
  return [...byId.values()].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}

/** Les devis des équipements numérotés de la liste (ceux sans numéro ne se cherchent pas). */
export async function listClientQuotes(equipment: Pick<ParkEntry, 'id' | 'number'>[]): Promise<QuoteListEntry[]> {
  const numbered = equipment.filter((e): e is Pick<ParkEntry, 'id'> & { number: string } => Boolean(e.number));
  const answers: QuoteListEntry[][] = [];
  for (let i = 0; i < numbered.length; i += QUOTE_READS_AT_ONCE) {
    const batch = numbered.slice(i, i + QUOTE_READS_AT_ONCE);
    const pages = await Promise.all(
      batch.map((e) => listQuotes({ status: '', equipment: e.number }, 1, QUOTES_PER_EQUIPMENT)),
    );
    answers.push(...pages.map((p) => p.results));
  }
  return quotesOf(numbered, answers);
}
