// Généré depuis le code Rust (src/api/app/contract.rs) : ne pas modifier à la main.
// LIFTDESK_WRITE_CONTRACT=1 cargo test --lib contract le régénère.

// Devis, factures et avoirs

export type QuoteStatus = 'brouillon' | 'envoye' | 'accepte' | 'refuse';

export const QUOTE_STATUSES: readonly { code: QuoteStatus; label: string }[] = [
  { code: 'brouillon', label: "Brouillon" },
  { code: 'envoye', label: "Envoyé" },
  { code: 'accepte', label: "Accepté" },
  { code: 'refuse', label: "Refusé" },
];

export type QuoteOrigin = 'reserve' | 'panne' | 'technicien' | 'client';

export const QUOTE_ORIGINS: readonly { code: QuoteOrigin; label: string }[] = [
  { code: 'reserve', label: "Réserve de contrôle technique" },
  { code: 'panne', label: "Panne" },
  { code: 'technicien', label: "Demande du technicien" },
  { code: 'client', label: "Demande du client" },
];

export type QuoteActionCode = 'send' | 'accept' | 'refuse';

export const QUOTE_ACTIONS: readonly { code: QuoteActionCode; label: string }[] = [
  { code: 'send', label: "Envoyer" },
  { code: 'accept', label: "Accepter" },
  { code: 'refuse', label: "Refuser" },
];

export type InvoiceStatus = 'brouillon' | 'emise' | 'envoyee' | 'payee';

export const INVOICE_STATUSES: readonly { code: InvoiceStatus; label: string }[] = [
  { code: 'brouillon', label: "Brouillon" },
  { code: 'emise', label: "Émise" },
  { code: 'envoyee', label: "Envoyée" },
  { code: 'payee', label: "Payée" },
];

/** Les statuts d'un avoir, accordés au masculin. */
export const CREDIT_NOTE_STATUSES: readonly { code: InvoiceStatus; label: string }[] = [
  { code: 'brouillon', label: "Brouillon" },
  { code: 'emise', label: "Émis" },
  { code: 'envoyee', label: "Envoyé" },
  { code: 'payee', label: "Soldé" },
];

export type InvoiceNature = 'facture' | 'avoir';

export const INVOICE_NATURES: readonly { code: InvoiceNature; label: string }[] = [
  { code: 'facture', label: "Facture" },
  { code: 'avoir', label: "Avoir" },
];

export type InvoiceActionCode = 'issue' | 'send' | 'record_payment';

export const INVOICE_ACTIONS: readonly { code: InvoiceActionCode; label: string }[] = [
  { code: 'issue', label: "Émettre" },
  { code: 'send', label: "Envoyer" },
  { code: 'record_payment', label: "Enregistrer le règlement" },
];

/** Taux de TVA permis, en points de base (20 %, 10 %, 5,5 %, 2,1 %, 0 %). */
export const VAT_RATES_BP = [2000,1000,550,210,0] as const;

/** Taux appliqué quand une ligne n'en donne pas. */
export const DEFAULT_VAT_RATE_BP = 2000 as const;

/** Lignes d'un devis ou d'une facture, au plus. */
export const MAX_LINES = 200 as const;

/** Caractères d'un libellé de ligne, au plus. */
export const MAX_LABEL_CHARS = 300 as const;

/** Quantité d'une ligne, en millièmes, au plus. */
export const MAX_QUANTITY_MILLI = 100000000 as const;

/** Prix unitaire HT d'une ligne, en centimes, au plus. */
export const MAX_UNIT_PRICE_CENTS = 100000000 as const;

/**
 * The answer of every creation (201): `ok` is always true; a refusal is an
 * error status with its French reason, never `ok: false`.
 */
export type Created = { id: string, 
/**
 * Always true.
 */
ok: boolean, link: string, url: string, };

/**
 * A paged list: `total` rows match across all pages.
 */
export type Page<T> = { total: number, page: number, limit: number, results: Array<T>, };

/**
 * Une ligne de la liste des devis.
 */
export type QuoteListEntry = { id: string, number: string | null, status: QuoteStatus, statusLabel: string, origin: QuoteOrigin, originLabel: string, object: string, equipment: QuoteEquipment, 
/**
 * Total HT, en euros.
 */
totalExclTax: number, 
/**
 * Total TTC, en euros.
 */
totalInclTax: number, createdAt: string, 
/**
 * La facture issue du devis ; null tant qu'il n'est pas facturé.
 */
invoice: QuoteInvoiceRef | null, link: string, url: string, };

/**
 * Une pièce liée à un devis : la facture qui en est issue.
 */
export type QuoteInvoiceRef = { id: string, 
/**
 * Numéro ; null tant que la facture est un brouillon.
 */
number: string | null, link: string, url: string, };

/**
 * L'équipement du devis.
 */
export type QuoteEquipment = { id: string, 
/**
 * Numéro de l'équipement.
 */
number: string | null, link: string, url: string, };

/**
 * Une ligne de la liste des factures (exactement les champs de la spécification).
 */
export type InvoiceRowView = { id: string, 
/**
 * Numéro (`FA-2026-000042`, `AV-2026-000007`) ; null tant que la pièce est un brouillon.
 */
number: string | null, 
/**
 * `facture` ou `avoir`.
 */
nature: InvoiceNature, 
/**
 * Statut.
 */
status: InvoiceStatus, 
/**
 * Client facturé : son identifiant `client_id` (API partenaire).
 */
client: string | null, 
/**
 * Nom de l'acheteur tel qu'il figure sur la facture.
 */
buyer: string | null, 
/**
 * Date d'émission (AAAA-MM-JJ).
 */
issuedOn: string | null, 
/**
 * Date d'échéance (AAAA-MM-JJ).
 */
dueOn: string | null, 
/**
 * Date de règlement (AAAA-MM-JJ).
 */
paidOn: string | null, 
/**
 * Total HT, en euros.
 */
totalExclTax: number | null, 
/**
 * Total TTC, en euros.
 */
totalInclTax: number | null, link: string, url: string, };

/**
 * A quote, the invoice made from it, and the actions its status allows.
 */
export type QuoteDetail = { quote: QuoteView, invoice: QuoteInvoiceRef | null, 
/**
 * `send`, `accept`, `refuse` (the state machine), and `invoice` for an
 * accepted quote not invoiced yet.
 */
actions: Array<QuoteActionCode | 'invoice'>, };

/**
 * Un devis, tel que `GET /quotes/{id}` le lit.
 */
export type QuoteView = { 
/**
 * Identifiant du devis.
 */
id: string, 
/**
 * Numéro du devis (`DV-2026-00012`), donné à la création.
 */
number: string | null, 
/**
 * Statut.
 */
status: QuoteStatus, 
/**
 * Statut en toutes lettres.
 */
statusLabel: string, 
/**
 * Origine.
 */
origin: QuoteOrigin, 
/**
 * Origine en toutes lettres.
 */
originLabel: string, 
/**
 * Objet du devis.
 */
object: string, 
/**
 * Équipement concerné.
 */
equipment: QuoteEquipment, 
/**
 * Lignes, dans leur ordre.
 */
rows: Array<QuoteRowView>, 
/**
 * Total HT, en euros.
 */
totalExclTax: number, 
/**
 * TVA par taux, par taux croissant.
 */
vatByRate: Array<VatView>, 
/**
 * Total TTC, en euros.
 */
totalInclTax: number, 
/**
 * Création (UTC, ISO 8601).
 */
createdAt: string, 
/**
 * Premier envoi au client (UTC, ISO 8601) ; null tant qu'il n'est pas envoyé.
 */
sentAt: string | null, 
/**
 * Acceptation (UTC, ISO 8601) ; null sauf au statut `accepte`.
 */
acceptedAt: string | null, 
/**
 * Refus (UTC, ISO 8601) ; null sauf au statut `refuse`.
 */
refusedAt: string | null, link: string, url: string, };

/**
 * TVA d'un taux : base HT et montant de TVA, en euros.
 */
export type VatView = { 
/**
 * Taux, en pour cent.
 */
rate: number, 
/**
 * Base HT des lignes à ce taux.
 */
base: number, 
/**
 * TVA à ce taux (calculée une fois sur la base, arrondie au centime).
 */
vat: number, };

/**
 * Une ligne de devis.
 */
export type QuoteRowView = { 
/**
 * Libellé.
 */
label: string, 
/**
 * Quantité (jusqu'à trois décimales).
 */
quantity: number, 
/**
 * Prix unitaire HT, en euros.
 */
unitPrice: number, 
/**
 * Taux de TVA, en pour cent (20, 10, 5.5, 2.1 ou 0).
 */
vatRate: number, 
/**
 * Total HT de la ligne, en euros (quantité × prix unitaire, arrondi au centime).
 */
totalExclTax: number, };

/**
 * A document, the actions its nature, status and the account's role allow,
 * and what remains to credit.
 */
export type InvoiceDetail = { invoice: InvoiceView, 
/**
 * `edit`, `issue`, `send`, `record_payment`, `credit_note`.
 */
actions: Array<'edit' | InvoiceActionCode | 'credit_note'>, 
/**
 * For an issued invoice: its total incl. tax less its issued credit
 * notes, in euros; null otherwise.
 */
remainingToCredit: number | null, };

/**
 * Une facture ou un avoir, tel que `GET /invoices/{id}` le lit : les champs
 * de la ligne de liste, puis le détail.
 */
export type InvoiceView = { id: string, 
/**
 * Numéro ; null tant que la pièce est un brouillon.
 */
number: string | null, nature: InvoiceNature, 
/**
 * Nature en toutes lettres.
 */
natureLabel: string, status: InvoiceStatus, 
/**
 * Statut en toutes lettres, accordé à la nature (« Émise », « Émis »…).
 */
statusLabel: string, 
/**
 * Client facturé : son identifiant `client_id` (API partenaire).
 */
client: string | null, 
/**
 * Nom de l'acheteur tel qu'il figure sur la pièce (figé à l'émission).
 */
buyer: string | null, 
/**
 * Adresse de l'acheteur (figée à l'émission).
 */
buyerAddress: string | null, 
/**
 * SIREN de l'acheteur (figé à l'émission).
 */
buyerSiren: string | null, 
/**
 * Jour de création (AAAA-MM-JJ), sur lequel filtrent `since` et `until`.
 */
createdOn: string, issuedOn: string | null, dueOn: string | null, paidOn: string | null, 
/**
 * Lignes, dans leur ordre.
 */
lines: Array<InvoiceLineView>, 
/**
 * TVA par taux, par taux croissant.
 */
vatByRate: Array<VatView>, totalExclTax: number | null, totalInclTax: number | null, 
/**
 * Pour un avoir : la facture qu'il crédite ; null pour une facture.
 */
creditedInvoice: LinkedDocument | null, 
/**
 * Pour une facture : ses avoirs (brouillons compris) ; vide pour un avoir.
 */
creditNotes: Array<CreditNoteRef>, 
/**
 * Le devis facturé, s'il y en a un.
 */
quote: LinkedDocument | null, link: string, url: string, };

/**
 * Une ligne de facture ou d'avoir.
 */
export type InvoiceLineView = { label: string, 
/**
 * Quantité (jusqu'à trois décimales).
 */
quantity: number, 
/**
 * Prix unitaire HT, en euros.
 */
unitPrice: number, 
/**
 * Taux de TVA, en pour cent.
 */
vatRate: number, 
/**
 * Total HT de la ligne, en euros.
 */
totalExclTax: number, };

/**
 * Un avoir établi sur une facture.
 */
export type CreditNoteRef = { id: string, 
/**
 * Numéro (`AV-…`) ; null pour un brouillon.
 */
number: string | null, status: InvoiceStatus, 
/**
 * Total TTC de l'avoir, en euros.
 */
totalInclTax: number, link: string, url: string, };

/**
 * Une pièce liée : identifiant et numéro.
 */
export type LinkedDocument = { id: string, 
/**
 * Numéro ; null pour un brouillon.
 */
number: string | null, link: string, url: string, };
