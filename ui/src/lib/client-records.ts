/**
 * Ce que la fiche d'un client liste de ses pièces : ses équipements
 * (`GET /equipment?client=`), ses factures (`GET /invoices?client=`) et les
 * devis de ses équipements (`GET /quotes?client=`, une seule lecture, les
 * plus récents d'abord, équipements sans numéro ou au-delà de la page du
 * parc compris), avec l'adresse de la liste des devis filtrée par ce client.
 */
import { listInvoices, listQuotes, writeQuery, type InvoiceRow, type Page, type QuoteListEntry } from './billing';
import { EMPTY_FILTERS, listEquipment, type ParkPage } from './equipment';

/** Équipements montrés sur la fiche (une page du parc). */
export const CLIENT_EQUIPMENT_LIMIT = 50;
/** Factures montrées (les plus récentes). */
export const CLIENT_INVOICES_LIMIT = 20;
/** Devis montrés (les plus récents) ; au-delà, « Tous ses devis » ouvre la liste filtrée. */
export const CLIENT_QUOTES_LIMIT = 20;

/** Les équipements du client, au parc ou archivés, par numéro. */
export function listClientEquipment(clientId: string): Promise<ParkPage> {
  return listEquipment({ ...EMPTY_FILTERS, client: clientId, archived: 'all' }, 1);
}

/** Les factures et avoirs du client, les plus récents d'abord. */
export function listClientInvoices(clientId: string): Promise<Page<InvoiceRow>> {
  return listInvoices({ client: clientId, status: '', since: '', until: '' }, 1, CLIENT_INVOICES_LIMIT);
}

/** Les devis des équipements du client, les plus récents d'abord : la première page et leur nombre. */
export function listClientQuotes(clientId: string): Promise<Page<QuoteListEntry>> {
  return listQuotes({ status: '', equipment: '', client: clientId }, 1, CLIENT_QUOTES_LIMIT);
}

/** La liste des devis filtrée par ce client : `/devis?client=CLI-000012`. */
export function clientQuotesAddress(clientId: string): string {
  return `/devis${writeQuery({ client: clientId })}`;
}
