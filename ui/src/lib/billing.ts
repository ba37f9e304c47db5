/**
 * Devis, factures et avoirs : types des réponses de `/app/api/quotes…` et
 * `/app/api/invoices…`, saisie et contrôle des lignes (mêmes règles et mêmes
 * messages que le serveur), calcul des totaux (même arithmétique : centimes
 * entiers, ligne arrondie au centime, TVA calculée une fois par taux sur la
 * base de ce taux, arrondis « au plus loin de zéro »), formats français, et
 * la validité d'un devis (date, expiration), le contrôle d'une nouvelle
 * facture sans devis et de ses appareils, les filtres de la liste des
 * factures (adresse, export, étiquettes des chiffres du tableau de bord), la
 * facturation électronique (motif d'exonération d'une ligne à 0 %, effacé
 * quand le taux quitte 0 ; le circuit d'une facture : facture électronique,
 * Chorus Pro ou e-reporting ; le fichier Factur-X d'une pièce émise), et
 * les appels à l'API des devis et des factures.
 */

// ---------------------------------------------------------------------------
// Réponses de l'API
// ---------------------------------------------------------------------------

import { api } from './api';
import { formatDay } from './format';
import type {
  Created,
  EquipmentChoice,
  InvoiceDetail,
  InvoiceEquipmentView,
  InvoiceLineView,
  InvoiceNature,
  InvoiceStatus,
  InvoiceRowView,
  LinkedDocument,
  Page,
  QuoteDetail,
  QuoteListEntry,
  QuoteView,
  VatExemption,
  VatView,
} from './generated/contract';
import {
  MAX_LABEL_CHARS,
  MAX_LINES,
  MAX_QUANTITY_MILLI,
  MAX_UNIT_PRICE_CENTS,
  VAT_RATES_BP,
  INVOICE_STATUSES,
  CREDIT_NOTE_STATUSES,
  VAT_EXEMPTIONS,
} from './generated/contract';

// Les réponses, les statuts et leurs libellés, et les bornes des lignes
// viennent du serveur : `generated/contract.ts` est généré depuis le code Rust.
export type {
  Created,
  InvoiceDetail,
  InvoiceNature,
  InvoiceStatus,
  InvoiceView,
  Page,
  QuoteDetail,
  QuoteListEntry,
  QuoteStatus,
  QuoteView,
  VatExemption,
} from './generated/contract';
export {
  INVOICE_STATUSES,
  MAX_LABEL_CHARS,
  MAX_LINES,
  MAX_QUANTITY_MILLI,
  MAX_UNIT_PRICE_CENTS,
  QUOTE_ORIGINS,
  QUOTE_STATUSES,
  VAT_RATES_BP,
  VAT_EXEMPTIONS,
} from './generated/contract';

/** Les actions d'un devis, dont `renew` (renouveler la validité d'un devis expiré). */
export type QuoteAction = QuoteDetail['actions'][number];
/** La validité d'un devis : son dernier jour (AAAA-MM-JJ) et son dépassement (brouillon ou envoyé seulement). */
export type QuoteValidity = Pick<QuoteView, 'validUntil' | 'expired'>;
/** Un appareil concerné par une facture : numéro, immeuble (nom, identifiant) et adresse. */
export type InvoiceEquipment = InvoiceEquipmentView;
export type InvoiceAction = InvoiceDetail['actions'][number];
export type DocRef = LinkedDocument;
export type VatLine = VatView;
/** Une ligne chiffrée : ligne de devis ou de facture (même forme). */
export type AmountLine = InvoiceLineView;
export type InvoiceRow = InvoiceRowView;

// ---------------------------------------------------------------------------
// Libellés
// ---------------------------------------------------------------------------

/** Le statut accordé à la nature : un avoir est « Émis », « Envoyé », « Soldé ». */
export function invoiceStatusLabel(nature: InvoiceNature, status: InvoiceStatus): string {
  const labels = nature === 'avoir' ? CREDIT_NOTE_STATUSES : INVOICE_STATUSES;
  return labels.find((s) => s.code === status)?.label ?? status;
}

/** Classe de badge : succès pour un devis accepté ou une pièce réglée, alerte pour un refus. */
export function statusTone(status: string): '' | 'success' | 'danger' {
  if (status === 'accepte' || status === 'payee') return 'success';
  if (status === 'refuse') return 'danger';
  return '';
}

// ---------------------------------------------------------------------------
// Montants
// ---------------------------------------------------------------------------

const EUROS = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
const NUMBER = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 3 });
const PERCENT = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 2 });

/** `1234.5` → `1 234,50 €` ; `null` → `—`. */
export function formatEuros(euros: number | null | undefined): string {
  return euros === null || euros === undefined ? '—' : EUROS.format(euros);
}

export function formatCents(cents: number): string {
  return EUROS.format(cents / 100);
}

export function formatQuantity(quantity: number): string {
  return NUMBER.format(quantity);
}

export function formatRate(rate: number): string {
  return `${PERCENT.format(rate)} %`;
}


/**
 * Lit un nombre décimal saisi (`12,5`, `1 250.00`) en entier à `decimals`
 * décimales, sans passer par un flottant. `null` si ce n'est pas un nombre ;
 * `'trop'` s'il a plus de décimales que permis.
 */
export function parseDecimal(text: string, decimals: number): number | null | 'trop' {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(compact);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return null;
  const [, sign, whole, fraction = ''] = match;
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > decimals) return 'trop';
  const scaled = Number(whole || '0') * 10 ** decimals + Number(trimmed.padEnd(decimals, '0') || '0');
  if (!Number.isSafeInteger(scaled)) return null;
  return sign === '-' && scaled !== 0 ? -scaled : scaled;
}

/** Une ligne telle que saisie dans le formulaire. */
export interface LineDraft {
  label: string;
  quantity: string;
  unitPrice: string;
  /** Pour cent, en texte (`20`, `5.5`). */
  vatRate: string;
  /**
   * Le motif d'exonération d'une ligne à 0 % (`''` : pas encore choisi) ;
   * exigé par le serveur pour émettre, ignoré à un autre taux.
   */
  vatExemption?: VatExemption | '';
}

export interface LineErrors {
  label?: string;
  quantity?: string;
  unitPrice?: string;
}

/** Une ligne contrôlée, en entiers. */
export interface CheckedLine {
  label: string;
  quantityMilli: number;
  unitPriceCents: number;
  vatRateBp: number;
  /** Le motif d'exonération, pour une ligne à 0 % qui en a un. */
  vatExemption?: VatExemption;
}

/** `12.5` → `12,5`, comme le serveur cite une valeur reçue. */
function quoted(text: string): string {
  return text.trim().replace('.', ',');
}

/** Contrôle une ligne comme le serveur (`services::invoices::check_line`), mêmes phrases. */
export function checkLine(line: LineDraft): { line?: CheckedLine; errors: LineErrors } {
  const errors: LineErrors = {};
  const label = line.label.trim();
  if (label === '') errors.label = 'le libellé est obligatoire.';
  else if ([...line.label].length > MAX_LABEL_CHARS) {
    errors.label = `le libellé ne doit pas dépasser ${MAX_LABEL_CHARS} caractères.`;
  }

  let quantityMilli = 0;
  if (line.quantity.trim() === '') errors.quantity = 'la quantité est obligatoire.';
  else {
    const parsed = parseDecimal(line.quantity, 3);
    if (parsed === null) errors.quantity = `la quantité doit être un nombre (reçu : « ${line.quantity.trim()} »).`;
    else if (parsed === 'trop') {
      errors.quantity = `la quantité doit avoir au plus trois décimales (reçu : ${quoted(line.quantity)}).`;
    } else if (parsed <= 0) {
      errors.quantity = `la quantité doit être supérieure à zéro (reçu : ${quoted(line.quantity)}).`;
    } else if (parsed > MAX_QUANTITY_MILLI) {
      errors.quantity = `la quantité ne doit pas dépasser ${MAX_QUANTITY_MILLI / 1000} (reçu : ${quoted(line.quantity)}).`;
    } else quantityMilli = parsed;
  }

  let unitPriceCents = 0;
  if (line.unitPrice.trim() === '') errors.unitPrice = 'le prix unitaire HT est obligatoire.';
  else {
    const parsed = parseDecimal(line.unitPrice, 2);
    if (parsed === null) {
      errors.unitPrice = `le prix unitaire HT doit être un nombre (reçu : « ${line.unitPrice.trim()} »).`;
    } else if (parsed === 'trop') {
      errors.unitPrice = `le prix unitaire HT doit être un montant en euros avec au plus deux décimales (reçu : ${quoted(line.unitPrice)}).`;
    } else if (parsed < 0) {
      errors.unitPrice = `le prix unitaire HT ne peut pas être négatif (reçu : ${quoted(line.unitPrice)}).`;
    } else if (parsed > MAX_UNIT_PRICE_CENTS) {
      errors.unitPrice = `le prix unitaire HT ne doit pas dépasser ${formatCents(MAX_UNIT_PRICE_CENTS)} HT (reçu : ${quoted(line.unitPrice)}).`;
    } else unitPriceCents = parsed;
  }

  const rate = parseDecimal(line.vatRate, 2);
  const vatRateBp = typeof rate === 'number' && (VAT_RATES_BP as readonly number[]).includes(rate) ? rate : 2000;

  if (errors.label || errors.quantity || errors.unitPrice) return { errors };
  const checked: CheckedLine = { label, quantityMilli, unitPriceCents, vatRateBp };
  const exemption = vatRateBp === 0 ? line.vatExemption : undefined;
  if (exemption) checked.vatExemption = exemption;
  return { line: checked, errors };
}

/** Contrôle toutes les lignes ; `document` nomme la pièce (« Le devis », « La facture »). */
export function checkLines(
  lines: LineDraft[],
  document: string,
): { lines?: CheckedLine[]; errors: LineErrors[]; summary?: string } {
  if (lines.length === 0) return { errors: [], summary: `${document} doit comporter au moins une ligne.` };
  if (lines.length > MAX_LINES) {
    return {
      errors: [],
      summary: `${document} ne peut pas comporter plus de ${MAX_LINES} lignes (reçu : ${lines.length}).`,
    };
  }
  const results = lines.map(checkLine);
  const errors = results.map((r) => r.errors);
  const first = errors.findIndex((e) => e.label || e.quantity || e.unitPrice);
  if (first >= 0) {
    const e = errors[first] ?? {};
    return { errors, summary: `Ligne ${first + 1} : ${e.label ?? e.quantity ?? e.unitPrice}` };
  }
  return { lines: results.map((r) => r.line as CheckedLine), errors };
}

/** Division entière arrondie au plus loin de zéro (comme le serveur). */
function divideRounding(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const rounded = (n * 2n + d) / (d * 2n);
  return negative ? -rounded : rounded;
}

/** Total HT d'une ligne, en centimes : quantité × prix unitaire, arrondi au centime. */
export function lineTotalCents(quantityMilli: number, unitPriceCents: number): number {
  return Number(divideRounding(BigInt(quantityMilli) * BigInt(unitPriceCents), 1000n));
}

export interface Totals {
  exclTaxCents: number;
  vatByRate: { rateBp: number; baseCents: number; vatCents: number }[];
  inclTaxCents: number;
}

/** Totaux HT, TVA par taux (taux croissants) et TTC, en centimes. */
export function totals(lines: CheckedLine[]): Totals {
  const bases = new Map<number, number>();
  for (const line of lines) {
    bases.set(line.vatRateBp, (bases.get(line.vatRateBp) ?? 0) + lineTotalCents(line.quantityMilli, line.unitPriceCents));
  }
  const vatByRate = [...bases.entries()]
    .sort(([a], [b]) => a - b)
    .map(([rateBp, baseCents]) => ({
      rateBp,
      baseCents,
      vatCents: Number(divideRounding(BigInt(baseCents) * BigInt(rateBp), 10_000n)),
    }));
  const exclTaxCents = vatByRate.reduce((sum, r) => sum + r.baseCents, 0);
  const inclTaxCents = exclTaxCents + vatByRate.reduce((sum, r) => sum + r.vatCents, 0);
  return { exclTaxCents, vatByRate, inclTaxCents };
}

/** Une ligne au format de l'API ; `vatExemption` pour une ligne à 0 % seulement. */
export interface LineBody {
  label: string;
  quantity: number;
  unitPrice: number;
  vatRate: number;
  vatExemption?: VatExemption | null;
}

/**
 * Les lignes saisies, contrôlées, au format de l'API (`label`, `quantity`,
 * `unitPrice`, `vatRate`, et pour une ligne à 0 % son `vatExemption`, `null`
 * tant qu'il n'est pas choisi : le brouillon s'enregistre, l'émission le
 * demande).
 */
export function linesBody(lines: CheckedLine[]): LineBody[] {
  return lines.map((l) => {
    const body: LineBody = {
      label: l.label,
      quantity: l.quantityMilli / 1000,
      unitPrice: l.unitPriceCents / 100,
      vatRate: l.vatRateBp / 100,
    };
    if (l.vatRateBp === 0) body.vatExemption = l.vatExemption ?? null;
    return body;
  });
}

// ---------------------------------------------------------------------------
// Facturation électronique : motif d'exonération d'une ligne à 0 %
// ---------------------------------------------------------------------------

/** Le taux saisi est-il 0 % ? Alors la ligne demande son motif d'exonération. */
export function asksExemption(line: Pick<LineDraft, 'vatRate'>): boolean {
  return parseDecimal(line.vatRate, 2) === 0;
}

/**
 * La ligne au taux `vatRate` : son motif d'exonération reste tant que le
 * taux est 0 %, il est effacé dès que le taux le quitte (un motif ne se
 * donne qu'à une ligne à 0 %, le serveur refuse l'inverse).
 */
export function withVatRate(line: LineDraft, vatRate: string): LineDraft {
  const next: LineDraft = { ...line, vatRate };
  next.vatExemption = asksExemption(next) ? (line.vatExemption ?? '') : '';
  return next;
}

/** « Autoliquidation (article 283-2 nonies du CGI) » ; `null` sans motif (ou pour un code inconnu). */
export function exemptionLabel(code: string | null | undefined): string | null {
  return VAT_EXEMPTIONS.find((e) => e.code === code)?.label ?? null;
}

// ---------------------------------------------------------------------------
// Facturation électronique : le circuit d'une facture, le fichier Factur-X
// ---------------------------------------------------------------------------

/** Comment circulent les factures d'un acheteur (les codes du serveur, ceux du client). */
export type EInvoicing = NonNullable<InvoiceDetail['invoice']['einvoicing']>;

/**
 * Le circuit de la pièce et sa phrase (`einvoicing`, `einvoicingExplanation`,
 * figés à l'émission) ; `null` quand le serveur n'en dit rien (un brouillon).
 */
export function invoiceEInvoicing(detail: InvoiceDetail): { code: EInvoicing | null; explanation: string } | null {
  const { einvoicing, einvoicingExplanation } = detail.invoice;
  return einvoicingExplanation ? { code: einvoicing ?? null, explanation: einvoicingExplanation } : null;
}

/** L'adresse du XML Factur-X d'une pièce émise (un brouillon n'en a pas : 409). */
export function facturxPath(id: string): string {
  return `/app/api/invoices/${encodeURIComponent(id)}/facturx.xml`;
}

/** Une ligne lue (devis ou facture) remise en saisie. */
export function draftOf(line: AmountLine): LineDraft {
  const decimal = (value: number) => String(value).replace('.', ',');
  return {
    label: line.label,
    quantity: decimal(line.quantity),
    unitPrice: decimal(line.unitPrice),
    vatRate: String(line.vatRate),
    vatExemption: line.vatRate === 0 ? (line.vatExemption ?? '') : '',
  };
}

export function emptyLine(): LineDraft {
  return { label: '', quantity: '1', unitPrice: '', vatRate: '20', vatExemption: '' };
}

/**
 * Les lignes d'un avoir partiel : pour chaque ligne de la facture cochée,
 * la quantité à créditer (au plus celle facturée) au même prix et au même taux.
 */
export function creditLines(
  invoiceLines: AmountLine[],
  chosen: { index: number; quantity: string }[],
): { lines?: CheckedLine[]; error?: string } {
  if (chosen.length === 0) return { error: "Choisissez au moins une ligne à créditer." };
  const lines: CheckedLine[] = [];
  for (const { index, quantity } of chosen) {
    const source = invoiceLines[index];
    if (!source) continue;
    const parsed = parseDecimal(quantity, 3);
    const billed = Math.round(source.quantity * 1000);
    if (parsed === null || parsed === 'trop' || parsed <= 0) {
      return {
        error: `Ligne ${index + 1} : la quantité à créditer doit être supérieure à zéro, avec au plus trois décimales (reçu : ${quoted(quantity) || '—'}).`,
      };
    }
    if (parsed > billed) {
      return {
        error: `Ligne ${index + 1} : la quantité à créditer ne peut pas dépasser la quantité facturée (${formatQuantity(source.quantity)}).`,
      };
    }
    const credited: CheckedLine = {
      label: `Avoir : ${source.label}`.slice(0, MAX_LABEL_CHARS),
      quantityMilli: parsed,
      unitPriceCents: Math.round(source.unitPrice * 100),
      vatRateBp: Math.round(source.vatRate * 100),
    };
    // Une ligne à 0 % est créditée avec le motif de la ligne facturée.
    if (credited.vatRateBp === 0 && source.vatExemption) credited.vatExemption = source.vatExemption;
    lines.push(credited);
  }
  return { lines };
}

// ---------------------------------------------------------------------------
// Validité d'un devis
// ---------------------------------------------------------------------------

/** « Valable jusqu'au 12/12/2026 » ; sans date connue, « Validité non indiquée ». */
export function validityText(validUntil: string | null): string {
  return validUntil ? `Valable jusqu'au ${formatDay(validUntil)}` : 'Validité non indiquée';
}

/**
 * Ce que l'écran dit de la validité d'un devis : la date, et pour un devis
 * expiré (le serveur le dit : brouillon ou envoyé, dernier jour passé) la
 * phrase qui demande de le renouveler avant de l'accepter.
 */
export function quoteValidity(quote: QuoteValidity): { text: string; expired: boolean; warning: string | null } {
  const text = validityText(quote.validUntil);
  if (!quote.expired) return { text, expired: false, warning: null };
  return {
    text,
    expired: true,
    warning: `Ce devis n'est plus valable (il l'était jusqu'au ${formatDay(quote.validUntil)}) : renouvelez sa validité avant d'enregistrer son acceptation.`,
  };
}

// ---------------------------------------------------------------------------
// Nouvelle facture (sans devis) et appareils concernés
// ---------------------------------------------------------------------------

/** Au plus 50 appareils par facture (comme le serveur). */
export const MAX_INVOICE_EQUIPMENT = 50;

/** Un appareil choisi : celui du choix d'équipement (`/calls/equipment`) ou d'une facture. */
export type ChosenEquipment = Pick<EquipmentChoice, 'id' | 'number' | 'building' | 'address'>;

/** « Résidence Les Tilleuls · 12 rue des Lilas 69003 Lyon » (ce qui est connu). */
export function equipmentPlace(equipment: Pick<ChosenEquipment, 'building' | 'address'>): string {
  return [equipment.building, equipment.address].filter((part) => part && part.trim()).join(' · ');
}

/** La liste avec `choice` en plus, à la fin ; déjà choisi, la liste telle quelle. */
export function withEquipment<T extends { id: string }>(list: readonly T[], choice: T): T[] {
  return list.some((e) => e.id === choice.id) ? [...list] : [...list, choice];
}

/** La liste sans l'appareil `id`. */
export function withoutEquipment<T extends { id: string }>(list: readonly T[], id: string): T[] {
  return list.filter((e) => e.id !== id);
}

/** Les mêmes appareils, dans n'importe quel ordre. */
export function sameEquipment(a: readonly { id: string }[], b: readonly { id: string }[]): boolean {
  const ids = new Set(a.map((e) => e.id));
  return a.length === b.length && ids.size === b.length && b.every((e) => ids.has(e.id));
}

/** Le corps de `POST /invoices` pour une facture sans devis. */
export interface NewInvoiceBody {
  clientId: string;
  lines: LineBody[];
  equipmentIds: string[];
}

export interface NewInvoiceErrors {
  client?: string;
  equipment?: string;
}

/**
 * Contrôle la nouvelle facture avant l'envoi : le client (obligatoire), au
 * plus 50 appareils, les lignes (mêmes règles et phrases que le serveur).
 * `body` n'est rendu que si tout va ; `summary` dit la première chose à reprendre.
 */
export function checkNewInvoice(draft: {
  client: { id: string } | null;
  equipment: readonly { id: string }[];
  lines: LineDraft[];
}): { body?: NewInvoiceBody; errors: NewInvoiceErrors; lineErrors: LineErrors[]; summary?: string } {
  const errors: NewInvoiceErrors = {};
  const clientId = draft.client?.id.trim() ?? '';
  if (clientId === '') errors.client = 'Choisissez le client facturé.';
  if (draft.equipment.length > MAX_INVOICE_EQUIPMENT) {
    errors.equipment = `Une facture ne peut pas concerner plus de ${MAX_INVOICE_EQUIPMENT} appareils (reçu : ${draft.equipment.length}).`;
  }
  const checked = checkLines(draft.lines, 'La facture');
  const summary = errors.client ?? errors.equipment ?? checked.summary;
  if (summary || !checked.lines) return { errors, lineErrors: checked.errors, summary };
  return {
    body: { clientId, lines: linesBody(checked.lines), equipmentIds: draft.equipment.map((e) => e.id) },
    errors,
    lineErrors: checked.errors,
  };
}

// ---------------------------------------------------------------------------
// Filtres dans l'adresse
// ---------------------------------------------------------------------------

/** Lit les filtres de l'adresse (`?status=…&page=…`) ; absent : chaîne vide. */
export function readQuery<K extends string>(search: string, keys: readonly K[]): Record<K, string> {
  const params = new URLSearchParams(search);
  const out = {} as Record<K, string>;
  for (const key of keys) out[key] = params.get(key)?.trim() ?? '';
  return out;
}

/** La chaîne de requête des filtres non vides (`?status=emise&page=2`), ou `''`. */
export function writeQuery(values: Record<string, string>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value.trim() !== '' && !(key === 'page' && value === '1')) params.set(key, value.trim());
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

// ---------------------------------------------------------------------------
// Appels à l'API
// ---------------------------------------------------------------------------

const quotePath = (id: string) => `/app/api/quotes/${encodeURIComponent(id)}`;
const invoicePath = (id: string) => `/app/api/invoices/${encodeURIComponent(id)}`;

/** `GET /quotes` : une page des devis, filtrés par statut, par numéro d'équipement et par client. */
export function listQuotes(
  filters: { status: string; equipment: string; client?: string },
  page: number,
  limit: number,
): Promise<Page<QuoteListEntry>> {
  const params = new URLSearchParams({ limit: String(limit), page: String(page) });
  if (filters.status) params.set('status', filters.status);
  if (filters.equipment.trim()) params.set('equipment', filters.equipment.trim());
  // Les devis des équipements d'un client (son identifiant `CLI-…`, comme `GET /invoices?client=`).
  if (filters.client?.trim()) params.set('client', filters.client.trim());
  return api.get<Page<QuoteListEntry>>(`/app/api/quotes?${params}`);
}

/** `GET /quotes/{id}`. */
export function getQuote(id: string): Promise<QuoteDetail> {
  return api.get<QuoteDetail>(quotePath(id));
}

/** `POST /quotes` : un nouveau devis (lignes au format de `linesBody`). */
export function createQuote(body: {
  equipmentId: string | undefined;
  origin: string;
  object: string;
  rows: ReturnType<typeof linesBody>;
}): Promise<Created> {
  return api.post<Created>('/app/api/quotes', body);
}

/** `POST /quotes/{id}/send|accept|refuse` : envoie le devis, ou enregistre son acceptation ou son refus. */
export function changeQuoteStatus(id: string, action: 'send' | 'accept' | 'refuse'): Promise<void> {
  return api.post<void>(`${quotePath(id)}/${action}`);
}

/** `POST /quotes/{id}/renew` : le devis expiré redevient valable 30 jours à partir d'aujourd'hui. */
export function renewQuote(id: string): Promise<Created> {
  return api.post<Created>(`${quotePath(id)}/renew`);
}

/** `POST /quotes/{id}/invoice` : la facture issue du devis (client facturé : celui du devis sans `clientId`). */
export function invoiceQuote(id: string, clientId: string): Promise<Created> {
  return api.post<Created>(`${quotePath(id)}/invoice`, clientId ? { clientId } : {});
}

/**
 * Les tranches d'ancienneté des impayés (`unpaid` de `GET /invoices`) : toutes
 * (`tout`, le total « impayés » du tableau de bord), puis celles du graphique
 * « Impayés par ancienneté », aujourd'hui à Paris, et ce qu'elles gardent
 * (factures émises ou envoyées, non soldées).
 */
export const UNPAID_AGES = [
  { code: 'tout', label: 'échues ou non' },
  { code: 'a_echoir', label: 'non échues' },
  { code: '0_30', label: 'échues depuis 0 à 30 jours' },
  { code: '31_60', label: 'échues depuis 31 à 60 jours' },
  { code: '61_90', label: 'échues depuis 61 à 90 jours' },
  { code: 'plus_90', label: 'échues depuis plus de 90 jours' },
] as const;

export type UnpaidAge = (typeof UNPAID_AGES)[number]['code'];

/** « non échues », « échues depuis 31 à 60 jours » ; `null` pour un code inconnu. */
export function unpaidAgeLabel(code: string): string | null {
  return UNPAID_AGES.find((a) => a.code === code)?.label ?? null;
}

/**
 * Les filtres de la liste des factures (`/factures?client=…&overdue=1`), ceux
 * de `GET /invoices` ; les cinq derniers sont ceux des chiffres du tableau de
 * bord, montrés en étiquettes au-dessus de la liste (`invoiceFilterChips`).
 */
export interface InvoiceFilters {
  /** L'identifiant du client (`ClientView.id`), choisi par son nom dans la liste. */
  client: string;
  status: string;
  since: string;
  until: string;
  /** Échues seulement : émises ou envoyées, non soldées, échéance passée. */
  overdue: boolean;
  /** Factures (sans les avoirs) émises du… au… (`AAAA-MM-JJ`, bornes comprises). */
  issuedSince: string;
  issuedUntil: string;
  /** Factures ayant reçu un règlement du… au…. */
  paidSince: string;
  paidUntil: string;
  /** Factures impayées d'une tranche d'ancienneté (`UNPAID_AGES`), ou `''`. */
  unpaid: UnpaidAge | '';
}

/** Aucun filtre : toute la liste. */
export const NO_INVOICE_FILTERS: InvoiceFilters = {
  client: '',
  status: '',
  since: '',
  until: '',
  overdue: false,
  issuedSince: '',
  issuedUntil: '',
  paidSince: '',
  paidUntil: '',
  unpaid: '',
};

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const validDay = (text: string): string => (ISO_DAY.test(text) ? text : '');

/** Lit les filtres et la page de la liste dans l'adresse ; une date ou une tranche mal formée est ignorée. */
export function readInvoiceFilters(search: string): { filters: InvoiceFilters; page: number } {
  const q = readQuery(search, [
    'client',
    'status',
    'since',
    'until',
    'overdue',
    'issuedSince',
    'issuedUntil',
    'paidSince',
    'paidUntil',
    'unpaid',
    'page',
  ] as const);
  const unpaid = UNPAID_AGES.find((a) => a.code === q.unpaid)?.code ?? '';
  return {
    filters: {
      client: q.client,
      status: q.status,
      since: validDay(q.since),
      until: validDay(q.until),
      overdue: q.overdue === '1' || q.overdue === 'true',
      issuedSince: validDay(q.issuedSince),
      issuedUntil: validDay(q.issuedUntil),
      paidSince: validDay(q.paidSince),
      paidUntil: validDay(q.paidUntil),
      unpaid,
    },
    page: Math.max(1, Math.floor(Number(q.page)) || 1),
  };
}

/** Les filtres tels que l'adresse et l'export les portent (`overdue=1`, vides omis ensuite). */
export function invoiceFilterValues(filters: InvoiceFilters): Record<string, string> {
  return {
    client: filters.client.trim(),
    status: filters.status,
    since: filters.since,
    until: filters.until,
    overdue: filters.overdue ? '1' : '',
    issuedSince: filters.issuedSince,
    issuedUntil: filters.issuedUntil,
    paidSince: filters.paidSince,
    paidUntil: filters.paidUntil,
    unpaid: filters.unpaid,
  };
}

/** L'adresse de la liste avec ses filtres : `/factures?client=CLI-000012&overdue=1&page=2`. */
export function invoiceListAddress(filters: InvoiceFilters, page: number): string {
  return `/factures${writeQuery({ ...invoiceFilterValues(filters), page: String(page) })}`;
}

const MONTH = new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** Le mois `AAAA-MM` si `since` et `until` en sont le premier et le dernier jour, sinon `null`. */
export function wholeMonth(since: string, until: string): string | null {
  if (!ISO_DAY.test(since) || !ISO_DAY.test(until)) return null;
  const month = since.slice(0, 7);
  if (since !== `${month}-01` || until.slice(0, 7) !== month) return null;
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, mon, 0)).getUTCDate();
  return until === `${month}-${String(last).padStart(2, '0')}` ? month : null;
}

/** `2026-11` → « novembre 2026 ». */
export function monthName(month: string): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return MONTH.format(new Date(Date.UTC(year, mon - 1, 1)));
}

/**
 * Une période en mots : « en novembre 2026 » (un mois entier), « le
 * 03/11/2026 », « du 01/11/2026 au 15/11/2026 », « à partir du 01/11/2026 »,
 * « jusqu'au 30/11/2026 » ; `''` sans borne.
 */
export function periodWords(since: string, until: string): string {
  const month = wholeMonth(since, until);
  if (month) return `en ${monthName(month)}`;
  if (since && until) return since === until ? `le ${formatDay(since)}` : `du ${formatDay(since)} au ${formatDay(until)}`;
  if (since) return `à partir du ${formatDay(since)}`;
  if (until) return `jusqu’au ${formatDay(until)}`;
  return '';
}

/** Une étiquette de filtre au-dessus de la liste : ce qu'elle garde, en clair, et ce que « Retirer » enlève. */
export interface InvoiceChip {
  key: 'issued' | 'paid' | 'unpaid';
  /** « Émises en novembre 2026 », « Impayées, échues depuis 31 à 60 jours ». */
  text: string;
  /** Ce que le filtre compte exactement (infobulle). */
  title: string;
}

/** Les étiquettes des filtres du tableau de bord (émises, réglées, impayées), dans cet ordre. */
export function invoiceFilterChips(filters: InvoiceFilters): InvoiceChip[] {
  const chips: InvoiceChip[] = [];
  const issued = periodWords(filters.issuedSince, filters.issuedUntil);
  if (issued) {
    chips.push({ key: 'issued', text: `Émises ${issued}`, title: `Les factures (avoirs non compris) émises ${issued}` });
  }
  const paid = periodWords(filters.paidSince, filters.paidUntil);
  if (paid) {
    chips.push({ key: 'paid', text: `Réglées ${paid}`, title: `Les factures ayant reçu un règlement ${paid}` });
  }
  const age = filters.unpaid ? unpaidAgeLabel(filters.unpaid) : null;
  if (age) {
    chips.push({
      key: 'unpaid',
      text: `Impayées, ${age}`,
      title: `Les factures émises ou envoyées, non soldées, ${age} (aujourd’hui)`,
    });
  }
  return chips;
}

/** Les filtres sans celui d'une étiquette (« Retirer »). */
export function withoutChip(filters: InvoiceFilters, key: InvoiceChip['key']): InvoiceFilters {
  switch (key) {
    case 'issued':
      return { ...filters, issuedSince: '', issuedUntil: '' };
    case 'paid':
      return { ...filters, paidSince: '', paidUntil: '' };
    case 'unpaid':
      return { ...filters, unpaid: '' };
  }
}

/** `GET /invoices` : une page des factures et avoirs, avec les filtres de la liste (les absents : aucun). */
export function listInvoices(
  filters: Pick<InvoiceFilters, 'client' | 'status' | 'since' | 'until'> & Partial<InvoiceFilters>,
  page: number,
  limit: number,
): Promise<Page<InvoiceRow>> {
  const params = new URLSearchParams({ limit: String(limit), page: String(page) });
  if (filters.overdue) params.set('overdue', '1');
  if (filters.client.trim()) params.set('client', filters.client.trim());
  if (filters.status) params.set('status', filters.status);
  if (filters.since) params.set('since', filters.since);
  if (filters.until) params.set('until', filters.until);
  if (filters.issuedSince) params.set('issuedSince', filters.issuedSince);
  if (filters.issuedUntil) params.set('issuedUntil', filters.issuedUntil);
  if (filters.paidSince) params.set('paidSince', filters.paidSince);
  if (filters.paidUntil) params.set('paidUntil', filters.paidUntil);
  if (filters.unpaid) params.set('unpaid', filters.unpaid);
  return api.get<Page<InvoiceRow>>(`/app/api/invoices?${params}`);
}

/** `POST /invoices` : une facture en brouillon sans devis (corps de `checkNewInvoice`). */
export function createInvoice(body: NewInvoiceBody): Promise<Created> {
  return api.post<Created>('/app/api/invoices', body);
}

/** `GET /invoices/{id}`. */
export function getInvoice(id: string): Promise<InvoiceDetail> {
  return api.get<InvoiceDetail>(invoicePath(id));
}

/** `PATCH /invoices/{id}` : enregistre le brouillon (lignes, et client ou appareils s'ils changent). */
export function updateInvoiceDraft(id: string, body: Record<string, unknown>): Promise<void> {
  return api.patch<void>(invoicePath(id), body);
}

/** `POST /invoices/{id}/issue` : émet la facture (numéro attribué, pièce figée). */
export function issueInvoice(id: string): Promise<void> {
  return api.post<void>(`${invoicePath(id)}/issue`);
}

/** `POST /invoices/{id}/send` : envoie la pièce au client (ou la relance). */
export function sendInvoice(id: string): Promise<void> {
  return api.post<void>(`${invoicePath(id)}/send`);
}

/** `POST /invoices/{id}/credit-notes` : établit et émet un avoir (total : `{}` ; partiel : `{ lines }`). */
export function createCreditNote(id: string, body: unknown): Promise<Created> {
  return api.post<Created>(`${invoicePath(id)}/credit-notes`, body);
}
