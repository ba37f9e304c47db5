/**
 * Règlements d'une facture (remboursements d'un avoir) : les mots selon la
 * nature de la pièce, la lecture du montant saisi à la française
 * (« 200,50 », « 1 250 € »), le corps de `POST /invoices/{id}/payment`
 * (seulement ce qui est renseigné), le récapitulatif des montants (total,
 * avoirs, règlements, reste à payer ou trop-perçu), et l'appel à l'API.
 */
import { api } from './api';
import { formatEuros, parseDecimal } from './billing';
import type { InvoiceNature, InvoiceView, PaymentMethod, PaymentView } from './generated/contract';
import { PAYMENT_METHODS } from './generated/contract';

// Les modes de règlement et leurs libellés viennent du serveur (`generated/contract.ts`).
export type { PaymentMethod, PaymentView } from './generated/contract';
export { PAYMENT_METHODS } from './generated/contract';

/** Longueur permise de la référence d'un règlement (comme le serveur). */
export const MAX_REFERENCE_CHARS = 100;

/** Les mots d'un règlement : payé par le client pour une facture, remboursé au client pour un avoir. */
export interface PaymentWords {
  /** Titre de la fenêtre et libellé du bouton qui l'ouvre. */
  action: string;
  /** Titre de la section de la pièce. */
  section: string;
  /** Ce qui reste dû (« Reste à payer », « Reste à rembourser »). */
  due: string;
  /** Les sommes déjà reçues ou rendues. */
  received: string;
  /** « règlement » ou « remboursement », pour les libellés des champs. */
  noun: string;
  /** Le tableau vide. */
  empty: string;
}

export function paymentWords(nature: InvoiceNature): PaymentWords {
  return nature === 'avoir'
    ? {
        action: 'Enregistrer un remboursement',
        section: 'Remboursements',
        due: 'Reste à rembourser',
        received: 'Remboursements effectués',
        noun: 'remboursement',
        empty: 'Aucun remboursement enregistré.',
      }
    : {
        action: 'Enregistrer un règlement',
        section: 'Règlements',
        due: 'Reste à payer',
        received: 'Règlements reçus',
        noun: 'règlement',
        empty: 'Aucun règlement enregistré.',
      };
}

/** Euros (nombre de l'API) → centimes entiers. */
export function toCents(euros: number): number {
  return Math.round(euros * 100);
}

/** Un montant en euros mis dans un champ de saisie : `502.15` → `502,15` (sans séparateur de milliers). */
export function amountInput(euros: number): string {
  return (toCents(euros) / 100).toFixed(2).replace('.', ',');
}

/**
 * Lit un montant saisi en euros : virgule ou point décimal, espaces et
 * « € » tolérés (`200,50`, `1 250 €`, `99.9`) → centimes. Un message en
 * français s'il est vide, illisible, nul ou négatif, ou a plus de deux
 * décimales.
 */
export function parseAmount(text: string, noun = 'règlement'): { cents: number } | { error: string } {
  const trimmed = text.replace(/€/g, '').trim();
  if (trimmed === '') return { error: `Indiquez le montant du ${noun}.` };
  const parsed = parseDecimal(trimmed, 2);
  if (parsed === null) return { error: `Le montant doit être un nombre en euros (reçu : « ${text.trim()} »).` };
  if (parsed === 'trop') return { error: `Le montant doit avoir au plus deux décimales (reçu : ${text.trim()}).` };
  if (parsed <= 0) return { error: `Le montant doit être supérieur à zéro (reçu : ${text.trim()}).` };
  return { cents: parsed };
}

/** Ce que la fenêtre de règlement a saisi, en texte. */
export interface PaymentDraft {
  amount: string;
  paidOn: string;
  /** Code du mode, ou `''` : non précisé. */
  method: string;
  reference: string;
}

/** Corps de `POST /invoices/{id}/payment` : chaque champ seulement s'il est renseigné. */
export interface PaymentRequest {
  paidOn?: string;
  /** En euros. */
  amount?: number;
  method?: PaymentMethod;
  reference?: string;
}

/**
 * Contrôle la saisie et donne le corps de la requête, ou le premier message
 * d'erreur ; `noun` nomme la somme dans les messages (« règlement »,
 * « remboursement »). Le montant et la date sont demandés ; le mode et la
 * référence ne partent que s'ils sont donnés.
 */
export function paymentRequest(draft: PaymentDraft, noun = 'règlement'): { body: PaymentRequest } | { error: string } {
  const amount = parseAmount(draft.amount, noun);
  if ('error' in amount) return amount;
  const body: PaymentRequest = { amount: amount.cents / 100 };
  const paidOn = draft.paidOn.trim();
  if (paidOn === '') return { error: `Indiquez la date du ${noun}.` };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(paidOn)) return { error: `La date du ${noun} doit être un jour (JJ/MM/AAAA).` };
  body.paidOn = paidOn;
  if (draft.method !== '') {
    const method = PAYMENT_METHODS.find((m) => m.code === draft.method);
    if (!method) return { error: `Mode inconnu : « ${draft.method} ».` };
    body.method = method.code;
  }
  const reference = draft.reference.trim();
  if ([...reference].length > MAX_REFERENCE_CHARS) {
    return { error: `La référence ne doit pas dépasser ${MAX_REFERENCE_CHARS} caractères.` };
  }
  if (reference !== '') body.reference = reference;
  return { body };
}

/** Le mode d'un règlement lu, en toutes lettres, ou `—`. */
export function methodText(payment: PaymentView): string {
  if (payment.methodLabel) return payment.methodLabel;
  return PAYMENT_METHODS.find((m) => m.code === payment.method)?.label ?? '—';
}

/** Une ligne du récapitulatif des montants. */
export interface SummaryRow {
  key: 'total' | 'avoirs' | 'regles' | 'reste';
  label: string;
  text: string;
  /** La ligne du solde, mise en avant. */
  strong?: boolean;
}

/**
 * Le récapitulatif d'une pièce émise : Total TTC, Avoirs émis (facture
 * seulement), Règlements reçus (ou Remboursements effectués), puis le solde :
 * « Reste à payer » (ou « Reste à rembourser »), « Trop-perçu » (ou « Trop
 * remboursé ») quand il est négatif. `null` pour un brouillon (pas de solde).
 */
export function balanceSummary(invoice: InvoiceView): SummaryRow[] | null {
  if (invoice.balance === null) return null;
  const words = paymentWords(invoice.nature);
  const rows: SummaryRow[] = [{ key: 'total', label: 'Total TTC', text: formatEuros(invoice.totalInclTax) }];
  if (invoice.nature !== 'avoir') {
    rows.push({ key: 'avoirs', label: 'Avoirs émis', text: formatEuros(invoice.creditedTotal) });
  }
  rows.push({ key: 'regles', label: words.received, text: formatEuros(invoice.paidTotal) });
  const cents = toCents(invoice.balance);
  if (cents < 0) {
    rows.push({
      key: 'reste',
      label: invoice.nature === 'avoir' ? 'Trop remboursé' : 'Trop-perçu',
      text: formatEuros(-cents / 100),
      strong: true,
    });
  } else {
    rows.push({ key: 'reste', label: words.due, text: formatEuros(cents / 100), strong: true });
  }
  return rows;
}

/** `POST /invoices/{id}/payment` : enregistre un règlement (un remboursement, pour un avoir). */
export function recordPayment(id: string, body: PaymentRequest): Promise<void> {
  return api.post<void>(`/app/api/invoices/${encodeURIComponent(id)}/payment`, body);
}
