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

export type QuoteActionCode = 'send' | 'accept' | 'refuse' | 'renew';

export const QUOTE_ACTIONS: readonly { code: QuoteActionCode; label: string }[] = [
  { code: 'send', label: "Envoyer" },
  { code: 'accept', label: "Accepter" },
  { code: 'refuse', label: "Refuser" },
  { code: 'renew', label: "Renouveler" },
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
  { code: 'record_payment', label: "Enregistrer un règlement" },
];

export type PaymentMethod = 'virement' | 'cheque' | 'prelevement' | 'especes' | 'carte';

export const PAYMENT_METHODS: readonly { code: PaymentMethod; label: string }[] = [
  { code: 'virement', label: "Virement" },
  { code: 'cheque', label: "Chèque" },
  { code: 'prelevement', label: "Prélèvement" },
  { code: 'especes', label: "Espèces" },
  { code: 'carte', label: "Carte bancaire" },
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
 * L'équipement du devis.
 */
export type QuoteEquipment = { id: string, 
/**
 * Numéro de l'équipement.
 */
number: string | null, link: string, url: string, };

/**
 * Une pièce liée à un devis : la facture qui en est issue.
 */
export type QuoteInvoiceRef = { id: string, 
/**
 * Numéro ; null tant que la facture est un brouillon.
 */
number: string | null, link: string, url: string, };

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
 * Dernier jour de validité (AAAA-MM-JJ) : 30 jours après la création ou
 * le dernier renouvellement. Passé ce jour, le devis doit être renouvelé
 * (`POST /quotes/{id}/renew`) avant d'être accepté.
 */
validUntil: string | null, 
/**
 * Vrai quand le devis attend encore sa réponse (brouillon ou envoyé) et
 * que son dernier jour de validité est passé (jour de Paris).
 */
expired: boolean, 
/**
 * La facture issue du devis ; null tant qu'il n'est pas facturé.
 */
invoice: QuoteInvoiceRef | null, link: string, url: string, };

/**
 * Une ligne de la liste des factures (exactement les champs de la spécification).
 */
export type InvoiceRowView = { id: string, 
/**
 * Numéro (`FA-2026-000042`, `AV-2026-000007`, ou dans la série de l'agence `FA-PO-2026-000042`) ; null tant que la pièce est un brouillon.
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
 * `send`, `accept` (while valid), `refuse`, `renew` (once expired),
 * and `invoice` for an accepted quote not invoiced yet.
 */
actions: Array<QuoteActionCode | 'invoice'>, };

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
 * Motif d'exonération d'une ligne à 0 % (`autoliquidation`,
 * `franchise`) ; absent sinon.
 */
vatExemption?: VatExemption, 
/**
 * Total HT de la ligne, en euros (quantité × prix unitaire, arrondi au centime).
 */
totalExclTax: number, };

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
refusedAt: string | null, 
/**
 * Dernier jour de validité (AAAA-MM-JJ) : 30 jours après la création ou
 * le dernier renouvellement. Passé ce jour, le devis doit être renouvelé
 * (`POST /quotes/{id}/renew`) avant d'être accepté.
 */
validUntil: string | null, 
/**
 * Vrai quand le devis attend encore sa réponse (brouillon ou envoyé) et
 * que son dernier jour de validité est passé (jour de Paris).
 */
expired: boolean, link: string, url: string, };

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
 * Un appareil concerné par une facture.
 */
export type InvoiceEquipmentView = { 
/**
 * Identifiant de l'équipement.
 */
id: string, 
/**
 * Numéro dans le parc.
 */
number: string | null, 
/**
 * Identifiant de l'immeuble.
 */
buildingId: string | null, 
/**
 * Nom de l'immeuble.
 */
building: string | null, 
/**
 * Adresse de l'immeuble sur une ligne.
 */
address: string | null, link: string, url: string, };

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
 * Motif d'exonération d'une ligne à 0 % (`autoliquidation`,
 * `franchise`) ; absent sinon ou s'il n'est pas encore donné.
 */
vatExemption?: VatExemption, 
/**
 * Total HT de la ligne, en euros.
 */
totalExclTax: number, };

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
 * N° de TVA intracommunautaire de l'acheteur (figé à l'émission).
 */
buyerVatNumber: string | null, 
/**
 * Adresse de facturation électronique de l'acheteur que porte la
 * facture électronique (figée à l'émission ; null pour un brouillon).
 */
buyerElectronicAddress: string | null, 
/**
 * Traitement de la pièce dans la réforme (figé à l'émission ; null pour
 * un brouillon) : `facturation_electronique` (entreprise assujettie),
 * `chorus_pro` (organisme public) ou `e_reporting` (client sans SIREN
 * ou non assujetti) ; et la phrase qui l'explique.
 */
einvoicing: "facturation_electronique" | "chorus_pro" | "e_reporting" | null, einvoicingExplanation: string | null, 
/**
 * La pièce a sa facture électronique : émise sous l'identité de
 * l'agence (avec son SIRET), son PDF est un Factur-X et
 * `…/facturx.xml` répond. Faux pour un brouillon et pour une pièce
 * émise avant que l'agence ait renseigné son identité.
 */
facturx: boolean, 
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
quote: LinkedDocument | null, 
/**
 * Pour une facture : total TTC de ses avoirs émis (0 pour un avoir).
 */
creditedTotal: number, 
/**
 * Total des règlements reçus (des remboursements, pour un avoir).
 */
paidTotal: number, 
/**
 * Reste à payer : total TTC − avoirs émis − règlements (pour un avoir,
 * reste à rembourser) ; négatif pour un trop-perçu ; null pour un brouillon.
 */
balance: number | null, 
/**
 * Règlements reçus, dans l'ordre où ils ont été faits.
 */
payments: Array<PaymentView>, 
/**
 * Les appareils concernés, avec leur immeuble (imprimés sur la pièce) :
 * celui du devis facturé, ceux choisis pour une facture écrite
 * directement, ceux de la facture créditée pour un avoir.
 */
equipment: Array<InvoiceEquipmentView>, link: string, url: string, };

/**
 * Une pièce liée : identifiant et numéro.
 */
export type LinkedDocument = { id: string, 
/**
 * Numéro ; null pour un brouillon.
 */
number: string | null, link: string, url: string, };

/**
 * Un règlement reçu (un remboursement, pour un avoir).
 */
export type PaymentView = { id: string, 
/**
 * Jour du règlement (AAAA-MM-JJ).
 */
paidOn: string, 
/**
 * Montant, en euros.
 */
amount: number, 
/**
 * Mode de règlement ; null quand il n'a pas été donné.
 */
method: PaymentMethod | null, 
/**
 * Mode en toutes lettres (« Virement », « Chèque »…) ; null sans mode.
 */
methodLabel: string | null, 
/**
 * Référence donnée au règlement.
 */
reference: string | null, };

// Contrats d'entretien

export type ContractStatus = 'brouillon' | 'actif' | 'resilie' | 'echu';

export const CONTRACT_STATUSES: readonly { code: ContractStatus; label: string }[] = [
  { code: 'brouillon', label: "Brouillon" },
  { code: 'actif', label: "Actif" },
  { code: 'resilie', label: "Résilié" },
  { code: 'echu', label: "Échu" },
];

export type ContractType = 'minimal' | 'normal' | 'etendu' | 'complet';

export const CONTRACT_TYPES: readonly { code: ContractType; label: string }[] = [
  { code: 'minimal', label: "Minimal" },
  { code: 'normal', label: "Normal" },
  { code: 'etendu', label: "Étendu" },
  { code: 'complet', label: "Complet" },
];

export type PriceBasis = 'par_appareil' | 'global';

export const PRICE_BASES: readonly { code: PriceBasis; label: string }[] = [
  { code: 'par_appareil', label: "Par appareil" },
  { code: 'global', label: "Global" },
];

export type BillingFrequency = 'mensuelle' | 'trimestrielle' | 'semestrielle' | 'annuelle';

export const BILLING_FREQUENCIES: readonly { code: BillingFrequency; label: string }[] = [
  { code: 'mensuelle', label: "Mensuelle" },
  { code: 'trimestrielle', label: "Trimestrielle" },
  { code: 'semestrielle', label: "Semestrielle" },
  { code: 'annuelle', label: "Annuelle" },
];

export type BillingTiming = 'terme_a_echoir' | 'terme_echu';

export const BILLING_TIMINGS: readonly { code: BillingTiming; label: string }[] = [
  { code: 'terme_a_echoir', label: "Terme à échoir" },
  { code: 'terme_echu', label: "Terme échu" },
];

export type ContractAction = 'activate' | 'terminate' | 'expire';

export const CONTRACT_ACTIONS: readonly { code: ContractAction; label: string }[] = [
  { code: 'activate', label: "Activer" },
  { code: 'terminate', label: "Résilier" },
  { code: 'expire', label: "Constater l'échéance" },
];

export type BillingState = 'a_creer' | 'deja_facture' | 'indice_manquant' | 'terme_non_echu' | 'client_archive';

export const BILLING_STATES: readonly { code: BillingState; label: string }[] = [
  { code: 'a_creer', label: "À facturer" },
  { code: 'deja_facture', label: "Déjà facturé" },
  { code: 'indice_manquant', label: "Indice manquant" },
  { code: 'terme_non_echu', label: "Terme non échu" },
  { code: 'client_archive', label: "Client archivé" },
];

/** Jours entre deux visites d'un contrat, au plus (six semaines). */
export const MAX_VISIT_INTERVAL_DAYS = 42 as const;

/** Durée de la première période d'un contrat, en mois, au moins (un an). */
export const MIN_DURATION_MONTHS = 12 as const;

/**
 * Une ligne de la liste des contrats.
 */
export type ContractListEntry = { id: string, number: string, status: ContractStatus, statusLabel: string, type: ContractType, typeLabel: string, client: ContractClient, 
/**
 * Nombre d'appareils couverts.
 */
lifts: number, startOn: string, currentTerm: ContractTerm, noticeDeadline: string | null, lastDay: string | null, covering: boolean, 
/**
 * Prix annuel HT du contrat entier, en euros, avant révision.
 */
annualTotal: number, billingFrequency: BillingFrequency, link: string, url: string, };

/**
 * Le client d'un contrat.
 */
export type ContractClient = { 
/**
 * `client_id` du client.
 */
id: string, name: string, link: string, url: string, };

/**
 * La période en cours d'un contrat.
 */
export type ContractTerm = { startOn: string, endsOn: string, };

/**
 * Un contrat d'entretien, tel que `GET /contracts/{id}` le lit.
 */
export type ContractView = { id: string, 
/**
 * Numéro `CT-AAAA-NNNNN`, donné à la création.
 */
number: string, status: ContractStatus, statusLabel: string, type: ContractType, typeLabel: string, 
/**
 * Ce que le type couvre, tel qu'imprimé sur le contrat.
 */
typeCoverage: string, client: ContractClient, 
/**
 * Les appareils couverts, dans leur ordre.
 */
lifts: Array<ContractLift>, startOn: string, durationMonths: number, tacitRenewal: boolean, renewalMonths: number, noticeMonths: number, 
/**
 * Dernier jour de la première période.
 */
firstTermEndsOn: string, 
/**
 * La période en cours (la première, avant le début).
 */
currentTerm: ContractTerm, 
/**
 * Dernier jour pour donner un préavis qui mette fin au contrat à la fin
 * de la période en cours ; null sans reconduction tacite ou une fois
 * le contrat terminé.
 */
noticeDeadline: string | null, 
/**
 * Dernier jour couvert, s'il est connu (résiliation, ou fin d'un
 * contrat sans reconduction) ; null pour un contrat reconduit
 * tacitement.
 */
lastDay: string | null, 
/**
 * Vrai quand le contrat couvre ses appareils aujourd'hui.
 */
covering: boolean, priceBasis: PriceBasis, priceBasisLabel: string, 
/**
 * Prix annuel HT en euros, d'un appareil ou du tout (selon `priceBasis`).
 */
annualPrice: number, 
/**
 * Prix annuel HT du contrat entier, en euros, avant révision.
 */
annualTotal: number, billingFrequency: BillingFrequency, billingFrequencyLabel: string, billingTiming: BillingTiming, billingTimingLabel: string, 
/**
 * Taux de TVA, en pour cent.
 */
vatRate: number, priceIndex: string | null, baseIndexValue: number | null, 
/**
 * Le mois de I0 (`AAAA-MM`).
 */
baseIndexMonth: string | null, visitIntervalDays: number, 
/**
 * Les obligations périodiques, outre les visites.
 */
duties: Array<ContractDuty>, arrivalMinutes: number, arrivalOutOfHoursMinutes: number | null, trappedPersonMinutes: number, returnToServiceMinutes: number, weekendCoverage: boolean, onCallCoverage: boolean, 
/**
 * Pénalité par heure de retard commencée, en euros.
 */
penaltyPerLateHour: number, notes: string | null, 
/**
 * Mise en vigueur (UTC, ISO 8601).
 */
activatedAt: string | null, 
/**
 * Jour du préavis d'une résiliation.
 */
noticeOn: string | null, 
/**
 * Dernier jour d'un contrat résilié ou échu.
 */
endsOn: string | null, terminationReason: string | null, 
/**
 * Résiliation ou constat d'échéance (UTC, ISO 8601).
 */
endedAt: string | null, createdAt: string, updatedAt: string, 
/**
 * Les actions que le statut et les dates permettent aujourd'hui.
 */
actions: ContractAction[], link: string, url: string, };

/**
 * Une obligation périodique du contrat, outre les visites.
 */
export type ContractDuty = { 
/**
 * `cables`, `parachute` ou `nettoyage`.
 */
code: string, label: string, 
/**
 * Mois entre deux.
 */
months: number, };

/**
 * Un appareil couvert.
 */
export type ContractLift = { id: string, number: string | null, 
/**
 * Emplacement de l'appareil.
 */
location: string | null, 
/**
 * Nom de son immeuble.
 */
building: string | null, 
/**
 * Vrai pour un appareil archivé depuis.
 */
archived: boolean, link: string, url: string, };

/**
 * Une valeur d'indice enregistrée.
 */
export type IndexValueView = { index: string, 
/**
 * `AAAA-MM`.
 */
month: string, value: number, 
/**
 * Saisie ou dernière correction (UTC, ISO 8601).
 */
recordedAt: string, };

/**
 * Les délais d'un contrat sur une période : les appels sur ses appareils
 * pendant qu'il les couvrait, leurs délais et les pénalités dues.
 */
export type ResponseReportOut = { contractId: string, number: string, from: string, to: string, calls: Array<ReportedCallOut>, 
/**
 * Appels dont un délai est dépassé.
 */
late: number, 
/**
 * Appels pour personne bloquée.
 */
trapped: number, 
/**
 * Total des pénalités, en euros HT.
 */
penalties: number, };

/**
 * Les engagements d'un appel au titre du contrat qui couvrait l'appareil.
 */
export type CommitmentOut = { contractId: string, contractNumber: string, 
/**
 * Arrivée sur place au plus tard (ISO 8601, UTC).
 */
arrivalDueAt: string, 
/**
 * Remise en service au plus tard (ISO 8601, UTC).
 */
restoreDueAt: string, arrived: boolean, restored: boolean, 
/**
 * Minutes de retard à l'arrivée (0 : à temps ; comptées jusqu'à maintenant tant que le technicien n'est pas arrivé).
 */
arrivalLateMinutes: number, 
/**
 * Minutes de retard à la remise en service (de même).
 */
restoreLateMinutes: number, 
/**
 * Un délai est dépassé.
 */
late: boolean, 
/**
 * Pénalité que le contrat prévoit pour ces retards, en euros HT (par heure de retard commencée).
 */
penalty: number, };

/**
 * Un appel du rapport.
 */
export type ReportedCallOut = { id: string, reference: string, 
/**
 * `personne_bloquee`, `panne`, `vandalisme` ou `bruit`.
 */
type: string, status: string, equipmentId: string, number: string | null, receivedAt: string, arrivedAt: string | null, 
/**
 * Remise en service (heure du rapport de clôture, sinon de la résolution).
 */
restoredAt: string | null, 
/**
 * Cause inscrite au rapport de clôture.
 */
cause: string | null, commitment: CommitmentOut, };

/**
 * L'aperçu d'une facturation : ses comptes et une page de ses lignes.
 */
export type BillingPreview = { from: string, to: string, 
/**
 * Le jour de l'aperçu (Paris) : une période à terme échu n'est à
 * facturer qu'une fois finie.
 */
today: string, summary: BillingSummary, 
/**
 * Lignes répondant au filtre `state`.
 */
total: number, page: number, limit: number, results: Array<BillingEntryView>, };

/**
 * La facture qui facture déjà la période.
 */
export type BilledInvoiceView = { id: string, 
/**
 * Null pour un brouillon.
 */
number: string | null, status: string, link: string, url: string, };

/**
 * Une période d'un contrat dans une facturation.
 */
export type BillingEntryView = { contract: BillingRef, type: string, typeLabel: string, client: BillingRef, clientName: string, periodStart: string, periodEnd: string, 
/**
 * Le jour d'où la période est facturée (son premier jour, ou le début
 * du contrat).
 */
billedFrom: string, 
/**
 * Appareils facturés (1 pour un prix global).
 */
units: number, perLift: boolean, state: BillingState, stateLabel: string, 
/**
 * Pourquoi la période n'est pas facturée (indice manquant, terme non
 * échu, client archivé).
 */
reason: string | null, 
/**
 * Les parts de la période à un même prix (deux quand un anniversaire
 * révise le prix en son milieu) ; vide quand un indice manque.
 */
segments: Array<SegmentView>, lines: Array<BillingLineView>, totalExclTax: number, totalInclTax: number, invoice: BilledInvoiceView | null, };

/**
 * Une ligne de la facture à créer.
 */
export type BillingLineView = { label: string, quantity: number, unitPrice: number, vatRate: number, totalExclTax: number, };

/**
 * Une référence à un contrat ou une facture.
 */
export type BillingRef = { id: string, number: string | null, link: string, url: string, };

/**
 * Les comptes d'une facturation, sur toutes ses lignes.
 */
export type BillingSummary = { 
/**
 * Contrats ayant au moins une période dans la facturation.
 */
contracts: number, 
/**
 * Périodes (une ligne chacune).
 */
entries: number, toCreate: number, alreadyInvoiced: number, 
/**
 * Parmi les périodes déjà facturées, les brouillons restant à émettre.
 */
drafts: number, missingIndex: number, notYetDue: number, clientArchived: number, 
/**
 * Total HT des factures à créer, en euros.
 */
totalExclTax: number, 
/**
 * Total TTC des factures à créer, en euros.
 */
totalInclTax: number, };

/**
 * La révision d'un prix : P = P0 × (I / I0).
 */
export type RevisionView = { 
/**
 * L'anniversaire du contrat où le prix est révisé.
 */
anniversary: string, index: string, 
/**
 * Le mois de la valeur I (la dernière connue à l'anniversaire), AAAA-MM.
 */
month: string, 
/**
 * I.
 */
value: number, 
/**
 * I0.
 */
baseValue: number, 
/**
 * P0 : le prix annuel HT du contrat, en euros.
 */
basePrice: number, 
/**
 * P : le prix annuel HT révisé, en euros (au centime).
 */
price: number, 
/**
 * La formule telle qu'imprimée sur la facture.
 */
formula: string, };

/**
 * Une part d'une période à un même prix.
 */
export type SegmentView = { from: string, to: string, days: number, 
/**
 * Jours de la période entière.
 */
periodDays: number, 
/**
 * Le prix annuel HT en vigueur (d'un appareil ou du tout), en euros.
 */
annualPrice: number, 
/**
 * Montant HT de la part pour un appareil (ou le tout) : prix annuel ×
 * mois de la période / 12 × jours / jours de la période, au centime.
 */
amount: number, 
/**
 * Vrai pour une première ou une dernière période incomplète.
 */
prorated: boolean, revision: RevisionView | null, };

/**
 * Ce que la création des brouillons a fait.
 */
export type DraftsView = { 
/**
 * Factures créées (en brouillon) : les lignes `a_creer` de l'aperçu ;
 * 0 quand tout est déjà facturé.
 */
created: number, 
/**
 * Les comptes de la facturation avant la création.
 */
summary: BillingSummary, };

/**
 * Ce qu'un lot d'émissions a fait.
 */
export type IssueBatchView = { issued: Array<IssuedView>, refused: Array<RefusedView>, 
/**
 * Brouillons de la facturation restant à émettre (les refusés compris).
 */
remaining: number, 
/**
 * Où le lot suivant reprend (à renvoyer dans `after`) ; null quand
 * tous les brouillons de la facturation ont été vus.
 */
next: string | null, };

/**
 * Une facture émise par le lot.
 */
export type IssuedView = { id: string, number: string, link: string, url: string, };

/**
 * Un brouillon que le lot n'a pas pu émettre.
 */
export type RefusedView = { id: string, 
/**
 * La raison, en français.
 */
error: string, link: string, url: string, };

// Appels de panne

export type CallStatus = 'ouverte' | 'en_route' | 'sur_place' | 'a_l_arret' | 'resolue';

export const CALL_STATUSES: readonly { code: CallStatus; label: string }[] = [
  { code: 'ouverte', label: "Ouverte" },
  { code: 'en_route', label: "Technicien en route" },
  { code: 'sur_place', label: "Technicien sur place" },
  { code: 'a_l_arret', label: "Appareil à l'arrêt" },
  { code: 'resolue', label: "Résolue" },
];

export type CallType = 'personne_bloquee' | 'panne' | 'vandalisme' | 'bruit';

export const CALL_TYPES: readonly { code: CallType; label: string }[] = [
  { code: 'personne_bloquee', label: "Personne bloquée" },
  { code: 'panne', label: "Panne" },
  { code: 'vandalisme', label: "Vandalisme" },
  { code: 'bruit', label: "Bruit anormal" },
];

export type Board = { 
/**
 * Resolved calls shown: those resolved in the last this many hours.
 */
resolvedSinceHours: number, columns: Array<Column>, };

/**
 * A call of the board: the list's entry, and the commitments of the
 * contract that covered its lift (none without contract).
 */
export type BoardCard = { 
/**
 * Deadlines, time late and penalty (`services::contract_response`).
 */
commitment: CommitmentOut | null, 
/**
 * Identifiant de l'appel (à lire avec `GET /calls/{id}`).
 */
id: string, 
/**
 * Référence donnée par le centre d'appels (ou par l'agence).
 */
reference: string, 
/**
 * Statut de l'appel.
 */
statut: CallStatus, 
/**
 * Le statut en clair.
 */
libelle: string, 
/**
 * Ce que l'appelant a signalé.
 */
type: CallType, 
/**
 * Urgence : une personne est bloquée (`personne_bloquee`).
 */
urgence: boolean, 
/**
 * Heure de l'appel au centre, UTC ISO 8601.
 */
recuLe: string, 
/**
 * Qui a appelé ; null si non renseigné.
 */
appelant: string | null, 
/**
 * L'équipement en panne.
 */
equipment: CallEquipment, 
/**
 * Nom de l'immeuble de l'équipement ; null s'il n'en a pas.
 */
building: string | null, 
/**
 * Identifiant de l'immeuble de l'équipement ; null s'il n'en a pas.
 */
buildingId: string | null, 
/**
 * Adresse de l'immeuble (rue, puis code postal et ville) ; null sans immeuble.
 */
address: string | null, 
/**
 * Technicien affecté ; null tant que personne n'est affecté.
 */
technician: NamedRef | null, 
/**
 * Chemin de l'appel dans le service.
 */
link: string, 
/**
 * Adresse complète de l'appel, à ouvrir dans un navigateur.
 */
url: string, };

/**
 * L'équipement concerné.
 */
export type CallEquipment = { 
/**
 * Identifiant de l'équipement.
 */
id: string, 
/**
 * Numéro de l'équipement.
 */
number: string | null, 
/**
 * Chemin de l'équipement dans le service.
 */
link: string, 
/**
 * Adresse complète de l'équipement.
 */
url: string, };

/**
 * One column of the board: one page of the calls of a status.
 */
export type Column = { statut: CallStatus, libelle: string, total: number, page: number, limit: number, results: Array<BoardCard>, };

/**
 * Un technicien ou un centre d'appels : identifiant et nom.
 */
export type NamedRef = { id: string, name: string, };

export type CallDetail = { call: CallRead, 
/**
 * The type in plain words (« Personne bloquée »).
 */
typeLabel: string, 
/**
 * The equipment's building: its id (its page), name, then address in
 * one line.
 */
buildingId: string | null, building: string | null, address: string | null, timeline: Array<TimelineEntry>, 
/**
 * The statuses the call may move to now (the state machine, and a
 * technician assigned where one is needed).
 */
nextStatuses: Array<NextStatus>, technicians: Technicians, 
/**
 * The closing report, once closed from the screens.
 */
report: ReportOut | null, 
/**
 * UTC timestamp: its trapped-person alert taken into account.
 */
acknowledgedAt: string | null, };

export type ActorView = { 
/**
 * `centre`, `personnel`, `jeton`, `partenaire`, `cli`, `systeme`.
 */
kind: string, name: string, };

/**
 * Un appel de panne, tel que l'agence le voit.
 */
export type CallRead = { 
/**
 * Identifiant de l'appel.
 */
id: string, 
/**
 * Référence donnée par le centre d'appels (ou par l'agence).
 */
reference: string, 
/**
 * Statut de l'appel.
 */
statut: CallStatus, 
/**
 * Le statut en clair.
 */
libelle: string, 
/**
 * Arrivée du technicien, UTC ISO 8601 ; null avant l'arrivée.
 */
arriveLe: string | null, 
/**
 * Remise en service, UTC ISO 8601 ; null tant que l'appel n'est pas résolu.
 */
resoluLe: string | null, 
/**
 * Heure de l'appel au centre, UTC ISO 8601.
 */
recuLe: string, 
/**
 * Ce que l'appelant a signalé.
 */
type: CallType, 
/**
 * Urgence : une personne est bloquée (`personne_bloquee`).
 */
urgence: boolean, 
/**
 * Ce que l'appelant a rapporté.
 */
description: string, 
/**
 * Qui a appelé ; null si non renseigné.
 */
appelant: string | null, 
/**
 * L'équipement en panne.
 */
equipment: CallEquipment, 
/**
 * Technicien affecté ; null tant que personne n'est affecté.
 */
technician: NamedRef | null, 
/**
 * Centre d'appels qui a transmis l'appel ; null pour un appel pris à l'agence.
 */
center: NamedRef | null, 
/**
 * Chemin de l'appel dans le service.
 */
link: string, 
/**
 * Adresse complète de l'appel, à ouvrir dans un navigateur.
 */
url: string, };

export type NextStatus = { statut: CallStatus, libelle: string, };

/**
 * A closing report as the screens read it.
 */
export type ReportOut = { cause: string, work: string, parts: string | null, 
/**
 * UTC timestamp.
 */
backInServiceAt: string | null, };

export type TechnicianChoice = { id: string, name: string, sectors: string | null, onCall: boolean, openCalls: number, 
/**
 * The one to choose first: on standby now (the first of them).
 */
suggested: boolean, };

export type Technicians = { 
/**
 * Who may take the call: on standby first, then by name.
 */
choices: Array<TechnicianChoice>, 
/**
 * Absent or resting: not offered, refused by the server.
 */
unavailable: Array<UnavailableTechnician>, };

export type TimelineEntry = { at: string, 
/**
 * `recu`, `affecte`, or the status reached (`ouverte`, `en_route`,
 * `sur_place`, `a_l_arret`, `resolue`).
 */
step: string, label: string, technician: string | null, by: ActorView | null, };

export type UnavailableTechnician = { id: string, name: string, reason: string, };

/**
 * A status change from the screen: closing (`resolue`) needs the report.
 */
export type AppStatusBody = { statut: string, report?: ReportBody, };

/**
 * A closing report as the screen sends it.
 */
export type ReportBody = { cause: string | null, work: string | null, parts: string | null, 
/**
 * `AAAA-MM-JJTHH:MM`, Paris time; now when absent.
 */
backInServiceAt: string | null, };

/**
 * A trapped-person alert still to take into account.
 */
export type AlertOut = { id: string, reference: string, equipmentId: string, number: string | null, 
/**
 * UTC timestamp.
 */
receivedAt: string, };

export type EquipmentChoices = { 
/**
 * Equipment matching, across the park.
 */
total: number, 
/**
 * The first ones, by number.
 */
results: Array<EquipmentChoice>, };

export type EquipmentChoice = { id: string, number: string | null, building: string | null, address: string | null, };

export type NewCall = { id: string, reference: string, statut: CallStatus, libelle: string, link: string, };

/**
 * Une ligne de la liste des appels : l'appel, son équipement, l'immeuble et le technicien.
 */
export type CallListEntry = { 
/**
 * Identifiant de l'appel (à lire avec `GET /calls/{id}`).
 */
id: string, 
/**
 * Référence donnée par le centre d'appels (ou par l'agence).
 */
reference: string, 
/**
 * Statut de l'appel.
 */
statut: CallStatus, 
/**
 * Le statut en clair.
 */
libelle: string, 
/**
 * Ce que l'appelant a signalé.
 */
type: CallType, 
/**
 * Urgence : une personne est bloquée (`personne_bloquee`).
 */
urgence: boolean, 
/**
 * Heure de l'appel au centre, UTC ISO 8601.
 */
recuLe: string, 
/**
 * Qui a appelé ; null si non renseigné.
 */
appelant: string | null, 
/**
 * L'équipement en panne.
 */
equipment: CallEquipment, 
/**
 * Nom de l'immeuble de l'équipement ; null s'il n'en a pas.
 */
building: string | null, 
/**
 * Identifiant de l'immeuble de l'équipement ; null s'il n'en a pas.
 */
buildingId: string | null, 
/**
 * Adresse de l'immeuble (rue, puis code postal et ville) ; null sans immeuble.
 */
address: string | null, 
/**
 * Technicien affecté ; null tant que personne n'est affecté.
 */
technician: NamedRef | null, 
/**
 * Chemin de l'appel dans le service.
 */
link: string, 
/**
 * Adresse complète de l'appel, à ouvrir dans un navigateur.
 */
url: string, };

// Tableau de bord

export type DashboardOut = { 
/**
 * Today in Paris, `YYYY-MM-DD`.
 */
today: string, calls: CallsOut, visits: VisitsOut, invoices: Array<MonthOut>, unpaid: UnpaidOut, knowledge: KnowledgeOut, 
/**
 * « À traiter »: what needs someone now.
 */
todo: TodoOut, 
/**
 * Maintenance contracts in force whose term ends within
 * [`RENEWAL_DAYS`] days.
 */
renewals: RenewalsOut, };

export type BandOut = { band: string, label: string, count: number, };

export type BucketOut = { bucket: string, label: string, count: number, amountCents: number, };

export type CallsOut = { 
/**
 * Open calls (not resolved).
 */
total: number, 
/**
 * Every status but `resolue`, in the order of the call's life.
 */
byStatus: Array<StatusCount>, };

export type KnowledgeOut = { total: number, bands: Array<BandOut>, };

export type MonthOut = { 
/**
 * `YYYY-MM`.
 */
month: string, 
/**
 * « nov. 2026 ».
 */
label: string, issued: number, issuedCents: number, paid: number, paidCents: number, };

/**
 * A contract in force coming to the end of its term.
 */
export type RenewalOut = { id: string, number: string, clientName: string, 
/**
 * `YYYY-MM-DD`: the last day of its current term.
 */
termEnd: string, 
/**
 * Renewed at that day unless a notice ends it; otherwise it ends then.
 */
tacitRenewal: boolean, 
/**
 * `YYYY-MM-DD`: the last day a notice ends it at that term (tacit
 * renewal only).
 */
noticeDeadline: string | null, lifts: number, };

export type RenewalsOut = { withinDays: number, count: number, 
/**
 * The first few, the nearest term first.
 */
items: Array<RenewalOut>, };

export type StatusCount = { statut: string, libelle: string, count: number, };

export type TodoCallOut = { id: string, reference: string, callType: CallType, status: CallStatus, statusLabel: string, 
/**
 * UTC timestamp.
 */
receivedAt: string, equipmentId: string, number: string | null, assigned: boolean, };

/**
 * The « À traiter » panel: each list holds the oldest few, each count all.
 */
export type TodoOut = { 
/**
 * Trapped-person calls not resolved.
 */
trappedCount: number, trapped: Array<TodoCallOut>, 
/**
 * Open calls without a technician for more than
 * [`UNASSIGNED_AFTER_MINUTES`] minutes.
 */
unassignedCount: number, unassigned: Array<TodoCallOut>, unassignedAfterMinutes: number, 
/**
 * Visits not done past their planned day or deadline (the figure of
 * `visits.overdue`).
 */
lateVisits: number, 
/**
 * Quotes sent more than [`QUOTE_WAITING_DAYS`] days ago with no answer.
 */
waitingQuotesCount: number, waitingQuotes: Array<TodoQuoteOut>, quoteWaitingDays: number, 
/**
 * Invoices past their due day and not settled, and what they still owe.
 */
overdueInvoices: number, overdueCents: number, };

export type TodoQuoteOut = { id: string, number: string | null, object: string, 
/**
 * UTC timestamp.
 */
sentAt: string, equipmentId: string, equipmentNumber: string | null, };

export type UnpaidOut = { totalCents: number, count: number, buckets: Array<BucketOut>, };

export type VisitsOut = { weekStart: string, weekEnd: string, 
/**
 * Visits planned this week (every status).
 */
planned: number, 
/**
 * Of them, done.
 */
done: number, 
/**
 * Of them, not done yet.
 */
remaining: number, 
/**
 * Visits not done whose day or limit date has passed (any week).
 */
overdue: number, };

// Planning et visites

export type VisitStatus = 'planifiee' | 'en_cours' | 'faite';

export const VISIT_STATUSES: readonly { code: VisitStatus; label: string }[] = [
  { code: 'planifiee', label: "Planifiée" },
  { code: 'en_cours', label: "En cours" },
  { code: 'faite', label: "Faite" },
];

export type WeekOut = { 
/**
 * Monday to Sunday, `YYYY-MM-DD`.
 */
days: Array<string>, today: string, technicians: Array<TechnicianOut>, entries: Array<WeekEntry>, };

/**
 * Une obligation périodique du contrat sur une visite : à faire (avec sa
 * date limite ; en retard si la visite est après), ou faite.
 */
export type DutyOut = { 
/**
 * `cables`, `parachute` ou `nettoyage`.
 */
code: string, label: string, 
/**
 * AAAA-MM-JJ ; null pour une obligation faite.
 */
deadline: string | null, overdue: boolean, done: boolean, };

export type TechnicianOut = { id: string, name: string, sectors: string | null, dailyCapacity: number, active: boolean, 
/**
 * Days of the week the technician is absent.
 */
absentDays: Array<string>, 
/**
 * Days of the week touched by a safety rest after standby duty.
 */
restDays: Array<string>, };

/**
 * An entry of the week: the REST API's planning entry, and the building
 * the screen links to (the spec's entry has no such field).
 */
export type WeekEntry = { 
/**
 * The equipment's building (its page `/immeubles/<id>`).
 */
buildingId: string | null, 
/**
 * The periodic duties of its contract due at the visit, or done at it.
 */
duties: Array<DutyOut>, 
/**
 * Identifiant de la visite.
 */
id: string, 
/**
 * Technicien affecté.
 */
technicianId: string | null, 
/**
 * AAAA-MM-JJ : le jour prévu ; pour une visite faite, le jour où elle a été faite.
 */
day: string | null, 
/**
 * `planifiee`, `en_cours` ou `faite`.
 */
status: VisitStatus | null, 
/**
 * Équipement visité.
 */
equipmentId: string | null, 
/**
 * Numéro de l'équipement.
 */
number: string | null, 
/**
 * Nom de l'immeuble.
 */
building: string | null, 
/**
 * Adresse de l'immeuble (rue, puis code postal et ville).
 */
address: string | null, 
/**
 * AAAA-MM-JJ : date limite du plan de maintenance.
 */
deadline: string | null, 
/**
 * Le jour de la visite (`day`) est après sa date limite ; null sans date limite.
 */
overdue: boolean | null, };

export type VisitOut = { id: string, status: VisitStatus, plannedFor: string, deadline: string | null, overdue: boolean | null, technicianId: string | null, equipmentId: string, number: string | null, 
/**
 * The equipment's building (its page `/immeubles/<id>`).
 */
buildingId: string | null, building: string | null, address: string | null, 
/**
 * UTC timestamps (ISO 8601).
 */
arrivedAt: string | null, leftAt: string | null, doneOn: string | null, signedBy: string | null, observations: string | null, 
/**
 * The periodic duties of its contract due at the visit (to tick when
 * closing it), or done at it.
 */
duties: Array<DutyOut>, };

export type Saved = { created: number, ids: Array<string>, };

export type EquipmentPlanOut = { id: string, number: string | null, type: string | null, maintenanceContract: string | null, 
/**
 * The equipment is in the maintenance plan (`parc` contract).
 */
inPlan: boolean, visitIntervalDays: number, planStartOn: string, lastDoneOn: string | null, 
/**
 * Last done visit (or plan start) plus the interval; null outside the plan.
 */
deadline: string | null, 
/**
 * Day of the visit not done yet, if any.
 */
openVisitOn: string | null, };

export type ProposalOut = { days: Array<string>, visits: Array<ProposalLineOut>, unplaced: Array<ProposalLineOut>, technicians: Array<TechnicianOut>, 
/**
 * Visits already planned that week, by `"<technicianId>|<AAAA-MM-JJ>"`.
 */
existingLoads: { [key in string]: number }, };

/**
 * A late visit the proposal moves.
 */
export type LateVisitOut = { id: string, 
/**
 * Its current day (`AAAA-MM-JJ`).
 */
plannedFor: string, };

export type ProposalLineOut = { equipmentId: string, number: string | null, building: string | null, address: string | null, deadline: string, technicianId?: string, day?: string, overdue?: boolean, reason?: string, 
/**
 * The equipment's late visit that this line moves into the week (to
 * send back as `visitId` when saving), with its current day; absent
 * for a new visit.
 */
lateVisit?: LateVisitOut, 
/**
 * The periodic duties of its contract the visit carries.
 */
duties: Array<DutyOut>, };

/**
 * The late and due-soon visits, and how many of each.
 */
export type PendingVisits = { today: string, 
/**
 * Due within this many days.
 */
days: number, late: number, dueSoon: number, visits: Array<PendingVisitOut>, };

/**
 * A record named in a row: its id (an equipment's, a building's, a client's
 * `CLI-…`, a technician's) and its name.
 */
export type Named = { id: string, name: string | null, };

export type PendingVisitOut = { id: string, status: VisitStatus, statusLabel: string, plannedFor: string, deadline: string | null, 
/**
 * Planned on a past day and not done, or past its deadline.
 */
late: boolean, 
/**
 * Days since the deadline or the planned day (the earlier), when late.
 */
daysLate: number, plannedAfterDeadline: boolean, 
/**
 * The equipment: its id and number.
 */
equipment: Named, building: Named | null, 
/**
 * The building's address on one line.
 */
address: string | null, client: Named | null, technician: Named | null, };

/**
 * Une ligne de la liste des équipements.
 */
export type EquipmentListEntry = { 
/**
 * Identifiant de l'équipement.
 */
id: string, 
/**
 * Numéro de l'équipement.
 */
number: string | null, 
/**
 * Type (`ascenseur`, `monte_charge`, `monte_voiture`, `elevateur`, `porte_fermeture`).
 */
type: string | null, 
/**
 * Emplacement dans l'immeuble.
 */
location: string | null, 
/**
 * `parc` (sous contrat) ou `hors_parc`.
 */
maintenanceContract: string | null, 
/**
 * L'immeuble, ou `null` si l'équipement n'est rattaché à aucun.
 */
building: ExternalBuilding | null, 
/**
 * Chemin de la fiche de l'équipement dans le service.
 */
link: string, 
/**
 * Adresse complète de la fiche de l'équipement.
 */
url: string, };

/**
 * L'immeuble où se trouve l'équipement.
 */
export type ExternalBuilding = { 
/**
 * Identifiant de l'immeuble.
 */
id: string, 
/**
 * Nom de l'immeuble.
 */
name: string | null, 
/**
 * Adresse (voie).
 */
address: string, 
/**
 * Complément d'adresse (bâtiment, escalier).
 */
addressComplement: string | null, 
/**
 * Code postal.
 */
postalCode: string | null, 
/**
 * Commune.
 */
city: string | null, };

// Techniciens et astreinte

export type TechniciansAnswer = { technicians: Array<TechnicianView>, 
/**
 * The session may change the rota and the absences.
 */
canEdit: boolean, };

/**
 * Un technicien de l'agence.
 */
export type TechnicianView = { 
/**
 * Identifiant du technicien.
 */
id: string, 
/**
 * Nom.
 */
name: string | null, 
/**
 * Secteurs, séparés par des virgules.
 */
sectors: string | null, 
/**
 * Appels en cours affectés au technicien (statuts `ouverte`, `en_route`, `sur_place`, `a_l_arret`).
 */
openCalls: number, 
/**
 * D'astreinte en ce moment.
 */
onCall: boolean, 
/**
 * Dernier jour (AAAA-MM-JJ) de l'absence en cours ; null s'il n'est pas absent aujourd'hui.
 */
absentUntil: string | null, 
/**
 * Fin du repos de sécurité après une astreinte (horodatage UTC ISO 8601, par exemple `2026-03-09T19:00:00.000Z`) ; null hors repos.
 */
offUntil: string | null, };

export type WeekView = { monday: string, startsAt: string, endsAt: string, technicianId: string | null, technicianName: string | null, complete: boolean, 
/**
 * The week has begun (it can no longer be swapped).
 */
started: boolean, 
/**
 * The week is over (it can no longer be changed).
 */
past: boolean, shifts: Array<ShiftView>, };

export type ShiftView = { technicianId: string, technicianName: string, startsAt: string, endsAt: string, };

export type RotaAnswer = { 
/**
 * The Monday of the current rota week.
 */
currentWeek: string, weeks: Array<WeekView>, };

export type ReplacedAnswer = { technicianId: string, startsAt: string, endsAt: string, };

export type AbsencesAnswer = { 
/**
 * Absences not over, and those of the last three months, by start.
 */
absences: Array<AbsenceView>, };

export type AbsenceView = { id: string, startsOn: string, endsOn: string, reason: string | null, };

// Clients et contacts

export type ClientStatus = 'Prospect' | 'Client';

export const CLIENT_STATUSES: readonly { code: ClientStatus; label: string }[] = [
  { code: 'Prospect', label: "Prospect" },
  { code: 'Client', label: "Client" },
];

export type BillingCategory = 'entreprise' | 'copropriete' | 'organisme_public';

export const BILLING_CATEGORIES: readonly { code: BillingCategory; label: string }[] = [
  { code: 'entreprise', label: "Entreprise assujettie à la TVA" },
  { code: 'copropriete', label: "Copropriété non assujettie à la TVA" },
  { code: 'organisme_public', label: "Organisme public" },
];

export type VatExemption = 'autoliquidation' | 'franchise';

export const VAT_EXEMPTIONS: readonly { code: VatExemption; label: string }[] = [
  { code: 'autoliquidation', label: "Autoliquidation (article 283-2 nonies du CGI)" },
  { code: 'franchise', label: "TVA non applicable (article 293 B du CGI)" },
];

/**
 * Une ligne de la liste des clients.
 */
export type ClientListEntry = { 
/**
 * Identifiant du client : son `client_id` de l'API partenaire, celui que
 * portent les factures (`client`) et que prennent `GET /invoices?client=`,
 * `POST /invoices` (`clientId`) et `POST /contacts` (`parentId`).
 */
id: string, 
/**
 * Nom de la société ou du client.
 */
name: string, 
/**
 * `Prospect` ou `Client`.
 */
status: ClientStatus, 
/**
 * SIREN (9 chiffres).
 */
siren: string | null, 
/**
 * E-mail principal.
 */
email: string | null, 
/**
 * Téléphone du standard.
 */
phone: string | null, 
/**
 * Adresse postale sur une ligne (rue, complément, code postal et ville),
 * telle que les factures l'impriment.
 */
fullAddress: string | null, 
/**
 * Client archivé : il reste listé (ses factures aussi) mais ne peut plus
 * être facturé.
 */
archived: boolean, link: string, url: string, };

/**
 * A client, its contacts, and what the session may do with it.
 */
export type ClientDetail = { client: ClientView, contacts: Array<ContactView>, 
/**
 * `contact` (an active client receives contacts), and for an
 * administrator `archive` (active client) or `restore` (archived one).
 */
actions: Array<string>, };

export type ClientView = { 
/**
 * The partner identifier: the `id` of the list, the `parentId` of a contact.
 */
id: string, name: string, 
/**
 * `Prospect` or `Client`.
 */
status: ClientStatus, 
/**
 * `Propriétaire/exploitant`, `Gestionnaire`.
 */
categories: Array<string>, email: string | null, phone: string | null, 
/**
 * The street line.
 */
address: string | null, addressComplement: string | null, 
/**
 * Five digits.
 */
postalCode: string | null, city: string | null, 
/**
 * The whole address on one line, as invoices print it.
 */
fullAddress: string | null, siren: string | null, siret: string | null, 
/**
 * How it is invoiced: `entreprise` (assujettie à la TVA),
 * `copropriete` (non assujettie), `organisme_public`; null until chosen.
 */
billingCategory: BillingCategory | null, billingCategoryLabel: string | null, 
/**
 * Intra-community VAT number.
 */
vatNumber: string | null, 
/**
 * The electronic invoicing address recorded (null: the default).
 */
electronicAddress: string | null, 
/**
 * The address its electronic invoices are made out to: the one
 * recorded, else the SIREN's default (`SIREN`, or for a public body
 * `SIREN_SIRET_CODE`); null without SIREN.
 */
effectiveElectronicAddress: string | null, 
/**
 * A public body's Chorus Pro service code.
 */
serviceCode: string | null, 
/**
 * How its invoices travel: `facturation_electronique`, `chorus_pro`
 * or `e_reporting`, and the sentence the screen shows.
 */
einvoicing: "facturation_electronique" | "chorus_pro" | "e_reporting", einvoicingExplanation: string, archived: boolean, 
/**
 * The full address of the client's page in the web application (the
 * `url` of the REST list's row).
 */
url: string, };

export type ContactView = { id: string, name: string, email: string | null, phone: string | null, 
/**
 * `fonction`.
 */
role: string | null, };

/**
 * Le descripteur de création d'un contact : exactement ces trois champs.
 */
export type CreationDescriptor = { 
/**
 * Type de l'objet créé, au singulier.
 */
type: string, 
/**
 * L'objet auquel rattacher le contact (`parentId` à la création).
 */
parent: DescriptorParent | null, 
/**
 * Les champs à remplir, dans l'ordre du formulaire.
 */
fields: Array<DescriptorField>, };

/**
 * Un champ à remplir.
 */
export type DescriptorField = { 
/**
 * Clé à envoyer dans `champs`.
 */
id: string, 
/**
 * Nom du champ, en français ; les refus nomment le champ ainsi.
 */
label: string, 
/**
 * Sans ce champ, la création est refusée (422).
 */
required: boolean, type: string, 
/**
 * Valeurs autorisées d'un champ `choice` ou `multi`, sinon null.
 */
values: Array<string> | null, };

/**
 * L'objet auquel rattacher le contact (`parentId` à la création).
 */
export type DescriptorParent = { 
/**
 * Nom du champ parent.
 */
label: string, 
/**
 * Type de l'objet parent.
 */
object: string, 
/**
 * Toujours vrai : sans parent, la création est refusée.
 */
required: boolean, };

// Équipements

export type ParkPage = { total: number, page: number, limit: number, results: Array<ParkEntry>, };

export type ClientRef = { id: string, name: string, };

export type ParkEntry = { id: string, number: string | null, type: string | null, typeLabel: string | null, location: string | null, maintenanceContract: string | null, building: ExternalBuilding | null, client: ClientRef | null, knowledgeRate: number, knowledgeBand: string, 
/**
 * Date et heure (UTC) de son archivage ; absente tant qu'il est au parc.
 */
archivedAt: string | null, };

export type EquipmentPage = { id: string, 
/**
 * Date et heure (UTC) de son archivage ; absente tant qu'il est au parc.
 */
archivedAt: string | null, identity: IdentityView, typeLabel: string | null, building: ExternalBuilding | null, client: ClientRef | null, technical: Array<ComponentView>, knowledge: KnowledgeView, downtime: DowntimeView, repeatBreakdowns: RepeatView, visits: Listed<VisitView>, calls: Listed<CallView>, surveys: Listed<SurveyView>, quotes: Listed<EquipmentQuoteView>, };

export type CallView = { id: string, reference: string, type: CallType, typeLabel: string, status: CallStatus, statusLabel: string, description: string, caller: string | null, receivedAt: string, arrivedAt: string | null, stoppedAt: string | null, resolvedAt: string | null, technicianName: string | null, 
/**
 * The call on the calls screen.
 */
link: string, };

export type ComponentView = { 
/**
 * `equipment` for the equipment itself, else the component key.
 */
component: string, label: string, fields: Array<EquipmentFieldView>, };

export type DowntimeView = { from: string, to: string, 
/**
 * Minutes unavailable: from each call's reception to its resolution
 * (or now), noise calls left out, overlaps counted once.
 */
totalMinutes: number, 
/**
 * Part of it with the equipment left stopped (`a_l_arret` → resolution).
 */
stoppedMinutes: number, 
/**
 * Calls that counted.
 */
calls: number, };

export type EquipmentFieldView = { code: string, label: string, unit: string | null, valueType: string, choices: Array<string>, 
/**
 * None when never surveyed.
 */
value: JsonValue | null, surveyedAt: string | null, surveyNumber: string | null, 
/**
 * The field counts in the knowledge rate of this type of equipment.
 */
counts: boolean, };

export type EquipmentQuoteView = { id: string, number: string | null, origin: QuoteOrigin, originLabel: string, object: string, status: QuoteStatus, statusLabel: string, createdAt: string, 
/**
 * The quote on the quotes screen.
 */
link: string, };

/**
 * L'identité d'un équipement après correction ; un champ sans valeur vaut `null`.
 */
export type IdentityView = { 
/**
 * Identifiant de l'équipement.
 */
id: string, 
/**
 * Numéro de l'équipement.
 */
number: string | null, 
/**
 * Numéro de série.
 */
serialNumber: string | null, 
/**
 * Type (`ascenseur`, `monte_charge`, `monte_voiture`, `elevateur`, `porte_fermeture`).
 */
type: string | null, 
/**
 * Sous-type.
 */
subtype: string | null, 
/**
 * Emplacement dans l'immeuble.
 */
location: string | null, 
/**
 * `parc` ou `hors_parc`.
 */
maintenanceContract: string | null, 
/**
 * Numéro du contrat d'entretien.
 */
contractNumber: string | null, 
/**
 * Identifiant dans le logiciel de maintenance du partenaire.
 */
externalId: string | null, 
/**
 * Chemin de la fiche de l'équipement dans le service.
 */
link: string, 
/**
 * Adresse complète de la fiche de l'équipement.
 */
url: string, };

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null;

export type KnowledgeView = { rate: number, band: string, 
/**
 * Fields of the catalog that count for this type.
 */
catalog: number, 
/**
 * Of them, how many are known.
 */
known: number, 
/**
 * What each field weighs, in percentage points.
 */
fieldWeight: number, 
/**
 * The fields not known yet, heaviest first (every field weighs the
 * same today), then in catalog order.
 */
missing: Array<MissingField>, };

export type Listed<T> = { total: number, results: Array<T>, };

export type MissingField = { code: string, label: string, componentLabel: string, unit: string | null, 
/**
 * Percentage points the field adds to the rate once surveyed.
 */
gain: number, };

export type RecentCall = { id: string, reference: string, receivedAt: string, typeLabel: string, };

export type RepeatView = { 
/**
 * Three calls or more in the last 90 days.
 */
flagged: boolean, windowDays: number, threshold: number, 
/**
 * The calls received in the window, newest first.
 */
calls: Array<RecentCall>, };

export type SurveyView = { id: string, number: string | null, status: SurveyStatus, statusLabel: string, dueOn: string | null, surveyedOn: string | null, createdAt: string, };

export type VisitView = { id: string, plannedFor: string, status: VisitStatus, statusLabel: string, arrivedAt: string | null, leftAt: string | null, doneOn: string | null, signedBy: string | null, observations: string | null, technicianName: string | null, };

export type Logbook = { equipment: LogbookEquipment, generatedAt: string, entries: Array<LogbookEntry>, 
/**
 * More than the bound: only the latest visits or calls are listed.
 */
truncated: boolean, };

export type LogbookEntry = { 
/**
 * `visite` or `panne`.
 */
kind: string, id: string, 
/**
 * Sort key: arrival (visit) or reception (call), UTC; a day for a visit
 * done without recorded times.
 */
at: string, title: string, 
/**
 * For a visit: arrival and departure; for a call: reception and resolution.
 */
startedAt: string | null, endedAt: string | null, 
/**
 * The day of a visit (`YYYY-MM-DD`).
 */
day: string | null, technicianName: string | null, 
/**
 * Observations of the visit; for a call, its closing report (cause,
 * work done, parts replaced) when there is one, else the caller's words.
 */
work: string | null, 
/**
 * What came of it: the visit's signature, or the call's status and stops.
 */
outcome: string, reference: string | null, 
/**
 * A call's closing report, as written at its closing.
 */
report: ReportOut | null, };

export type LogbookEquipment = { id: string, number: string | null, typeLabel: string | null, serialNumber: string | null, location: string | null, building: ExternalBuilding | null, client: ClientRef | null, };

export type ClientsAnswer = { results: Array<ClientRef>, };

export type RepairQuote = { id: string, 
/**
 * The draft on the quotes screen.
 */
link: string, };

// Relevés et écarts

export type SurveyStatus = 'a_realiser' | 'en_cours' | 'termine' | 'annule';

export const SURVEY_STATUSES: readonly { code: SurveyStatus; label: string }[] = [
  { code: 'a_realiser', label: "À réaliser" },
  { code: 'en_cours', label: "En cours" },
  { code: 'termine', label: "Terminé" },
  { code: 'annule', label: "Annulé" },
];

export type Paged<T> = { total: number, page: number, limit: number, results: Array<T>, };

/**
 * The surveyed equipment, with its page on the equipment screen.
 */
export type EquipmentRef = { id: string, number: string | null, typeLabel: string | null, 
/**
 * `/equipements/<id>`.
 */
link: string, };

/**
 * A row of the list: the REST row (`id`, `number`, `link`, `url`) and what
 * the screen shows besides.
 */
export type ListRow = { id: string, number: string | null, link: string, url: string, status: SurveyStatus, statusLabel: string, equipment: EquipmentRef | null, surveyorName: string | null, dueOn: string | null, surveyedOn: string | null, createdAt: string | null, };

export type SurveyDetail = { 
/**
 * The REST read (`GET /surveys/{id}`), as is.
 */
survey: SurveyRead, 
/**
 * The status code (`a_realiser`, `en_cours`, `termine`, `annule`).
 */
status: SurveyStatus, equipment: EquipmentRef, surveyorName: string | null, createdAt: string, submittedAt: string | null, 
/**
 * Every component's French name, in catalog order.
 */
components: Array<ComponentName>, submission: SubmissionView, };

/**
 * A component of the catalog and its French name.
 */
export type ComponentName = { 
/**
 * `equipment` for the equipment itself, else the key (`car_door`…), as
 * in the `components` of the data.
 */
component: string, label: string, };

export type FormComponent = { component: string, label: string, fields: Array<FormField>, };

/**
 * A datum the submission form offers.
 */
export type FormField = { code: string, label: string, unit: string | null, valueType: string, choices: Array<string>, 
/**
 * What the survey recorded so far; None when nothing.
 */
value: JsonValue | null, };

/**
 * What the submission form needs, and whether the server would accept it.
 */
export type SubmissionView = { 
/**
 * This account may submit this survey now.
 */
allowed: boolean, 
/**
 * Otherwise the server's French reason.
 */
refusal: string | null, 
/**
 * Today in Paris, `YYYY-MM-DD`: `surveyedOn` may not be later.
 */
today: string, 
/**
 * The Paris day the survey was asked for: `surveyedOn` may not be earlier.
 */
requestedOn: string | null, 
/**
 * The data of the catalog that apply to the equipment's type, plus any
 * other the survey recorded, by component in catalog order.
 */
components: Array<FormComponent>, };

/**
 * Les champs d'un relevé, tels qu'ils se lisent : toujours présents, texte ou `null`.
 */
export type SurveyFields = { 
/**
 * Numéro.
 */
number: string | null, 
/**
 * Statut en clair : « À réaliser », « En cours », « Terminé » ou « Annulé ».
 */
status: string | null, 
/**
 * Type : la nature des affaires qui ont demandé le relevé (type d'affaire, ou « État des lieux : … »).
 */
type: string | null, 
/**
 * Relevé le, JJ/MM/AAAA.
 */
surveyedOn: string | null, 
/**
 * À réaliser avant le, JJ/MM/AAAA.
 */
dueOn: string | null, 
/**
 * Nombre de données relevées, en texte.
 */
fieldCount: string | null, 
/**
 * Nombre de photos prises, en texte.
 */
photoCount: string | null, };

/**
 * Un relevé : son type (`releve`), son identifiant, son lien et ses champs.
 */
export type SurveyRead = { 
/**
 * Type de l'objet, au singulier : toujours `releve`.
 */
type: string, 
/**
 * Identifiant du relevé.
 */
id: string, 
/**
 * Chemin du relevé dans le service.
 */
link: string, 
/**
 * Adresse complète du relevé.
 */
url: string, 
/**
 * Les champs du relevé.
 */
fields: SurveyFields, };

export type DiscrepancyView = { id: string, 
/**
 * `equipment` for the whole equipment, else the component key.
 */
component: string, componentLabel: string, finding: string, author: string | null, createdAt: string, };

/**
 * Les données d'un relevé.
 */
export type SurveyData = { 
/**
 * Identifiant du relevé.
 */
id: string, 
/**
 * Numéro du relevé.
 */
number: string | null, 
/**
 * L'équipement relevé.
 */
equipment: RecordRef, 
/**
 * Agence du relevé : son identifiant (UUID).
 */
agency: string, 
/**
 * Motif du relevé, tel qu'il se lit.
 */
reason: string | null, 
/**
 * Statut en clair : « À réaliser », « En cours », « Terminé » ou « Annulé ».
 */
status: string | null, 
/**
 * Relevé le, AAAA-MM-JJ.
 */
surveyedOn: string | null, 
/**
 * Chemin du relevé dans le service.
 */
link: string, 
/**
 * Adresse complète du relevé.
 */
url: string, 
/**
 * Les affaires qui ont demandé le relevé.
 */
deals: Array<SurveyDeal>, 
/**
 * Données relevées par ce relevé, groupées par composant : `equipment` pour l'équipement lui-même, puis `shaft`, `car_door`, `landing_door`, `machine`, `controller`… Une donnée jamais relevée est absente, un composant sans donnée aussi.
 */
components: { [key in string]: Array<SurveyDatum> }, };

/**
 * Noms V1 d'une donnée.
 */
export type ChampV1 = { 
/**
 * Table V1.
 */
table: string, 
/**
 * Champ V1.
 */
champ: string, };

/**
 * `{"id", "link", "url"}` of a referenced record.
 */
export type RecordRef = { id: string, link: string, url: string, };

/**
 * Une donnée relevée.
 */
export type SurveyDatum = { 
/**
 * Code de la donnée dans le catalogue.
 */
code: string, 
/**
 * Libellé de la donnée.
 */
libelle: string, 
/**
 * Valeur relevée (texte, nombre, booléen ou liste).
 */
valeur: JsonValue, 
/**
 * Unité, `null` s'il n'y en a pas.
 */
unite: string | null, 
/**
 * Noms V1 de la donnée.
 */
champV1: ChampV1, };

/**
 * Une affaire qui a demandé le relevé.
 */
export type SurveyDeal = { 
/**
 * Identifiant de l'affaire.
 */
id: string, 
/**
 * Nature de l'affaire (son type d'affaire, par exemple `Modernisation pour devis`), `null` pour un état des lieux.
 */
nature: string | null, 
/**
 * Nature en clair (type d'affaire, ou « État des lieux : … »), `null` si inconnue.
 */
natureLabel: string | null, 
/**
 * Chemin de l'affaire dans le service.
 */
link: string, 
/**
 * Adresse complète de l'affaire.
 */
url: string, };

/**
 * Réponse à la soumission d'un relevé.
 */
export type SurveySubmitted = { 
/**
 * Identifiant du relevé.
 */
id: string, 
/**
 * Toujours vrai : un refus est un statut d'erreur.
 */
ok: boolean, 
/**
 * Statut du relevé après la soumission : `termine`.
 */
status: SurveyStatus, 
/**
 * Chemin du relevé dans le service.
 */
link: string, 
/**
 * Adresse complète du relevé.
 */
url: string, };

// Imports

/**
 * Le fichier reçu, tel qu'il a été lu. Rien n'est encore importé.
 */
export type UploadedFile = { 
/**
 * Identifiant du fichier, pour la vérification et l'import.
 */
fileId: string, 
/**
 * Nom du fichier, tel qu'envoyé.
 */
name: string, 
/**
 * La ligne d'en-tête lue : le nom de chaque colonne.
 */
columns: Array<string>, 
/**
 * Nombre de lignes de données (lignes vides non comptées).
 */
rows: number, };

/**
 * Un fichier envoyé, et où en sont sa vérification et son import.
 */
export type ImportFileView = { 
/**
 * Identifiant du fichier.
 */
fileId: string, 
/**
 * Nom du fichier, tel qu'envoyé.
 */
name: string, 
/**
 * La ligne d'en-tête lue.
 */
columns: Array<string>, 
/**
 * Nombre de lignes de données.
 */
rows: number, 
/**
 * Envoi (UTC).
 */
createdAt: string, 
/**
 * Expiration (UTC) : 24 heures après l'envoi ; le fichier est ensuite supprimé.
 */
expiresAt: string, 
/**
 * La vérification en cours ou la dernière, ou `null`.
 */
verification: RunView | null, 
/**
 * L'import en cours ou le dernier, ou `null`.
 */
import: RunView | null, 
/**
 * Les cibles possibles (`equipment`, `clients`, `contacts`, `contracts`, `price_indexes`), chacune avec ses champs et la correspondance que proposent les en-têtes du fichier.
 */
targets: Array<TargetView>, };

/**
 * Un champ d'une cible, auquel une colonne peut être associée.
 */
export type ImportFieldView = { 
/**
 * Clé du champ dans `mapping`.
 */
id: string, 
/**
 * Nom du champ, en français.
 */
label: string, };

/**
 * `en_cours`, `terminee` ou `echouee`.
 */
export type RunStatusCode = "en_cours" | "terminee" | "echouee";

/**
 * Où en est une vérification ou un import (suivi en mémoire : un
 * redémarrage du serveur l'oublie).
 */
export type RunView = { 
/**
 * Cible : `equipment`, `clients`, `contacts`, `contracts` ou `price_indexes`.
 */
target: string, 
/**
 * `en_cours` ; `terminee` (vérification répondue, import enregistré) ; `echouee` (arrêt sur une erreur : un import n'a alors rien enregistré).
 */
status: RunStatusCode, 
/**
 * Lignes traitées jusqu'ici.
 */
rowsProcessed: number, 
/**
 * Lignes de données du fichier.
 */
rowsTotal: number, 
/**
 * Lignes traitées qui créent.
 */
created: number, 
/**
 * Lignes traitées qui mettent à jour.
 */
updated: number, 
/**
 * Lignes traitées refusées.
 */
refused: number, 
/**
 * Début (UTC).
 */
startedAt: string, 
/**
 * Fin (UTC), ou `null` tant qu'elle est en cours.
 */
finishedAt: string | null, };

/**
 * `equipment` (le parc : équipements et leurs immeubles), `clients`,
 * `contacts` (des clients de l'agence), `contracts` (contrats
 * d'entretien, créés en brouillon ; tous ou aucun) ou `price_indexes`
 * (valeurs mensuelles des indices de révision : BT48, ICHT-IME… ; toutes
 * ou aucune).
 */
export type TargetCode = "equipment" | "clients" | "contacts" | "contracts" | "price_indexes";

/**
 * Une cible d'import, ses champs et la correspondance proposée pour ce fichier.
 */
export type TargetView = { 
/**
 * `equipment`, `clients`, `contacts`, `contracts` ou `price_indexes`.
 */
target: TargetCode, 
/**
 * Les champs de la cible.
 */
fields: Array<ImportFieldView>, 
/**
 * Colonne du fichier → champ, d'après les en-têtes (accents, casse et ponctuation ignorés) ; les colonnes sans correspondance n'y figurent pas.
 */
suggestedMapping: { [key in string]: string }, };

/**
 * Le résultat d'une vérification ou d'un import, ligne par ligne.
 */
export type ImportReport = { 
/**
 * Identifiant du fichier.
 */
fileId: string, 
/**
 * La cible.
 */
target: TargetCode, 
/**
 * La correspondance appliquée : colonne → champ.
 */
mapping: { [key in string]: string }, 
/**
 * Les colonnes ignorées (associées à aucun champ).
 */
ignoredColumns: Array<string>, 
/**
 * Lignes de données du fichier.
 */
rowsTotal: number, 
/**
 * Lignes qui créent (vérification) ou ont créé (import).
 */
created: number, 
/**
 * Lignes qui mettent (ont mis) à jour.
 */
updated: number, 
/**
 * Lignes refusées : rien n'en est écrit.
 */
refused: number, 
/**
 * Chaque ligne de données, dans l'ordre du fichier.
 */
rows: Array<RowView>, };

/**
 * `creation`, `mise_a_jour` ou `refus`.
 */
export type ActionCode = "creation" | "mise_a_jour" | "refus";

/**
 * Ce que fait (vérification) ou a fait (import) une ligne du fichier.
 */
export type RowView = { 
/**
 * Numéro de la ligne dans le tableur (l'en-tête d'un fichier qui commence en haut est la ligne 1).
 */
row: number, 
/**
 * `creation`, `mise_a_jour` ou `refus`.
 */
action: ActionCode, 
/**
 * L'objet créé ou mis à jour : identifiant de l'équipement, du contact ou du contrat, `client_id` du client, `INDICE/AAAA-MM` d'une valeur d'indice (`BT48/2026-01`). Vérification : celui de l'objet mis à jour, `null` pour une création (rien n'est créé) ; `null` pour un refus.
 */
id: string | null, 
/**
 * Champs modifiés par une mise à jour (vide s'il n'y a rien à changer, et pour une création : tous les champs associés y sont écrits) ; `immeuble` quand l'équipement est rattaché à un immeuble ; `valeur` quand la valeur d'un indice est corrigée.
 */
changes: Array<string>, 
/**
 * Raisons du refus, en français, avec la colonne en cause (vide sinon).
 */
reasons: Array<string>, };

// Clés d'accès

/**
 * A live token or key as listed: never its secret.
 */
export type KeyView = { id: string, 
/**
 * The tool (API token), the call center, or the partner.
 */
name: string, createdAt: string, lastUsedAt: string | null, 
/**
 * The first 8 hex characters of the secret's SHA-256 fingerprint.
 */
fingerprintPrefix: string, 
/**
 * Partner keys only: other agencies the key also serves.
 */
otherAgencies?: number, };

/**
 * A key just created: the only answer that carries its secret.
 */
export type KeyCreated = { id: string, name: string, fingerprintPrefix: string, key: string, ok: boolean, };

/**
 * The token just created: the only answer that carries its secret.
 */
export type TokenCreated = { id: string, name: string, fingerprintPrefix: string, token: string, ok: boolean, };

export type KeyRevoked = { id: string, ok: boolean, };

export type PartnerKeyRevoked = { id: string, ok: boolean, 
/**
 * True when the key itself is revoked (no agency remained).
 */
revoked: boolean, 
/**
 * Agencies the key still serves.
 */
remainingAgencies: number, };

// Webhooks

export type DeliveryStatus = 'en_attente' | 'livree' | 'echec' | 'abandonnee';

export const DELIVERY_STATUSES: readonly { code: DeliveryStatus; label: string }[] = [
  { code: 'en_attente', label: "En attente" },
  { code: 'livree', label: "Livrée" },
  { code: 'echec', label: "Échec, nouvel essai prévu" },
  { code: 'abandonnee', label: "Abandonnée" },
];

/**
 * L'état de l'envoi des webhooks.
 */
export type SyncStatusWire = { 
/**
 * Le poste est-il en ligne (d'après la sonde de connectivité) ?
 */
online: boolean, 
/**
 * Dernière vérification (UTC), null si pas encore faite.
 */
checkedAt: string | null, 
/**
 * Livraisons de l'agence en attente d'envoi ou de nouvel essai.
 */
pending: number, 
/**
 * Prochain essai prévu pour l'agence (UTC), null s'il n'y a rien en attente.
 */
nextAttemptAt: string | null, };

/**
 * An event to subscribe to, as the screen offers it.
 */
export type EventChoice = { code: string, label: string, };

/**
 * Un abonnement actif (son secret n'est jamais relu).
 */
export type SubscriptionWire = { id: string, url: string, events: Array<string>, 
/**
 * Création, horodatage UTC ISO 8601.
 */
createdAt: string, };

/**
 * Une livraison : un événement pour un abonnement.
 */
export type DeliveryWire = { 
/**
 * Identifiant de la livraison : l'en-tête `X-Service-Livraison`, le même à chaque essai.
 */
id: string, 
/**
 * `appel.clos`, `releve.termine`, `devis.accepte` ou `ping`.
 */
event: string, 
/**
 * L'objet concerné (appel, relevé, devis ; l'abonnement pour `ping`).
 */
objectId: string, 
/**
 * `en_attente` (jamais essayée), `livree`, `echec` (nouvel essai prévu) ou `abandonnee`.
 */
status: DeliveryStatus, 
/**
 * Essais faits.
 */
attempts: number, 
/**
 * Statut HTTP de la dernière réponse du destinataire.
 */
lastHttpStatus: number | null, 
/**
 * La dernière erreur, en français.
 */
lastError: string | null, 
/**
 * Prochain essai (UTC), null si livrée ou abandonnée.
 */
nextAttemptAt: string | null, 
/**
 * L'instant de l'événement (`occurredAt` du corps envoyé).
 */
occurredAt: string, createdAt: string, updatedAt: string, deliveredAt: string | null, };

/**
 * L'abonnement créé et son secret de signature, montré cette fois seulement.
 */
export type Subscribed = { id: string, 
/**
 * Secret de signature (`whsec_` + 32 caractères) : il ne sera plus jamais affiché.
 */
secret: string, 
/**
 * Toujours `true`.
 */
ok: boolean, };

/**
 * L'envoi de test et son résultat.
 */
export type TestSent = { 
/**
 * Toujours `true` : le `ping` est en file ; son résultat est dans `delivery`.
 */
ok: boolean, delivery: DeliveryWire, };

/**
 * Un message envoyé (ou à envoyer) avec son document en pièce jointe.
 */
export type MailWire = { id: string, 
/**
 * `quote`, `invoice` ou `visit`.
 */
objectType: string, objectId: string, 
/**
 * `en_attente`, `envoye`, `echec` ou `abandonne`.
 */
status: string, 
/**
 * Le statut en français.
 */
statusLabel: string, 
/**
 * L'expéditeur : le nom et l'adresse de l'agence.
 */
senderName: string, senderEmail: string, recipients: Array<MailRecipientWire>, subject: string, 
/**
 * Le nom du PDF joint.
 */
attachmentName: string, 
/**
 * Sa taille, en octets.
 */
attachmentBytes: number, 
/**
 * Essais faits.
 */
attempts: number, 
/**
 * Prochain essai (UTC), pour un message en échec.
 */
nextAttemptAt: string | null, 
/**
 * La raison du dernier échec, ou de l'attente, en français.
 */
lastError: string | null, 
/**
 * Qui l'a envoyé.
 */
createdBy: string | null, createdAt: string, 
/**
 * Quand le serveur d'envoi l'a accepté.
 */
sentAt: string | null, };

/**
 * Un destinataire.
 */
export type MailRecipientWire = { name: string, email: string, 
/**
 * Le contact du client, s'il a été choisi parmi eux.
 */
contactId: string | null, };

/**
 * L'envoi d'un document. Sans `contactIds` (ou corps absent), l'envoi est
 * fait par un autre moyen (courrier, remise en main propre) : seul le
 * statut change, aucun message n'est écrit.
 */
export type SendBody = { 
/**
 * Les contacts du client du document à qui l'envoyer (20 au plus),
 * chacun avec une adresse e-mail.
 */
contactIds: Array<string>, 
/**
 * L'objet du message (200 caractères au plus) ; par défaut « Facture
 * F-2026-000012 — <agence> ».
 */
subject?: string, 
/**
 * Le texte du message (10 000 caractères au plus) ; par défaut un texte
 * en français signé par l'agence.
 */
message?: string, };

/**
 * Le document envoyé : sa fiche, et le message s'il part par e-mail.
 */
export type SentDocument = { id: string, 
/**
 * Toujours `true`.
 */
ok: boolean, link: string, url: string, 
/**
 * Le message écrit, après son premier essai (null sans destinataire).
 */
mail: MailWire | null, };

/**
 * Un contact proposé dans la boîte d'envoi.
 */
export type ContactChoiceWire = { id: string, name: string, 
/**
 * Sans adresse, il ne peut être choisi.
 */
email: string | null, role: string | null, };

/**
 * Ce que la boîte d'envoi propose.
 */
export type SendOptionsWire = { contacts: Array<ContactChoiceWire>, senderName: string, 
/**
 * L'adresse de l'agence ; null : à renseigner dans Agence › Identité.
 */
senderEmail: string | null, 
/**
 * Un serveur d'envoi est réglé.
 */
serverConfigured: boolean, subject: string, message: string, attachmentName: string, };

/**
 * Le serveur d'envoi de l'organisation (jamais son mot de passe).
 */
export type MailSettingsWire = { configured: boolean, host: string | null, port: number | null, 
/**
 * `starttls`, `tls` ou `aucune`.
 */
security: string, securityLabel: string, username: string | null, 
/**
 * Un mot de passe est enregistré (chiffré).
 */
passwordSet: boolean, updatedAt: string | null, };

/**
 * Les réglages du serveur d'envoi.
 */
export type MailSettingsBody = { 
/**
 * Le serveur (smtp.exemple.fr).
 */
host: string, 
/**
 * Par défaut celui de la sécurité choisie (587, 465 ou 25).
 */
port?: number, 
/**
 * `starttls`, `tls` ou `aucune`.
 */
security: string, username?: string, 
/**
 * Absent : le mot de passe enregistré est gardé ; vide : il est effacé.
 * Sans `username` (pas d'identification), aucun mot de passe n'est
 * gardé.
 */
password?: string, };

/**
 * Le message d'essai.
 */
export type MailTestBody = { 
/**
 * Par défaut l'adresse de la personne connectée.
 */
to?: string, };

/**
 * L'essai a réussi.
 */
export type MailTestSent = { ok: boolean, 
/**
 * L'adresse à laquelle le message d'essai est parti.
 */
sentTo: string, };

/**
 * Ce qu'il faut exporter.
 */
export type ExportBody = { 
/**
 * `equipment`, `clients`, `calls`, `quotes`, `invoices`, `technicians`,
 * `visits`, `accounting` ou `facturx` (factures électroniques, en zip).
 */
list: string, 
/**
 * `csv` ou `xlsx` ; `zip` pour `facturx`.
 */
format: string, 
/**
 * La chaîne de requête de la liste, ses filtres (sans `?`).
 */
query?: string, };

/**
 * Où en est un export.
 */
export type ExportJob = { id: string, list: string, format: string, 
/**
 * `en_cours`, `pret` ou `echec`.
 */
status: string, 
/**
 * Lignes écrites (documents faits, pour `facturx`).
 */
done: number, 
/**
 * Lignes à écrire (documents à faire, pour `facturx`).
 */
total: number, fileName: string, 
/**
 * La raison d'un échec, en français.
 */
error: string | null, startedAt: string, };

/**
 * L'abonnement révoqué.
 */
export type WebhookRevoked = { id: string, 
/**
 * Toujours `true`.
 */
ok: boolean, 
/**
 * Livraisons en attente abandonnées par la révocation.
 */
abandoned: number, };

// Session, compte, installation et réglages

export type SessionView = { account: AccountSummary, agency: AgencyRef | null, agencies: Array<AgencyRef>, 
/**
 * The account administers the installation (the settings screen):
 * `services::accounts::is_installation_admin`.
 */
installationAdmin: boolean, csrfToken: string, };

export type AccountSummary = { id: string, name: string | null, email: string, role: string, 
/**
 * Signed in with a password an administrator gave: the session opens
 * nothing but « Mon compte » until the account chooses its own.
 */
mustChangePassword: boolean, };

/**
 * Une agence : identifiant et nom.
 */
export type AgencyRef = { id: string, name: string, };

export type PasswordChanged = { revokedTokens: number, };

export type SetupStatus = { 
/**
 * No organization yet: the setup screen replaces the sign-in.
 */
needed: boolean, 
/**
 * The desktop app: the setup screen also offers to connect this
 * computer to the agency's server instead (`/setup/agency-server`).
 */
desktop: boolean, };

export type AgencyServerAccepted = { 
/**
 * The address saved, as the window opens it.
 */
url: string, };

export type DemoInstalled = { admin: DemoSignIn, member: DemoSignIn, };

export type DemoSignIn = { email: string, password: string, };

export type SettingsView = { 
/**
 * The address to give to integrations (API, webhooks' partners…).
 */
baseUrl: string, 
/**
 * The port the server listens on now.
 */
runningPort: number | null, 
/**
 * When the running server is open to the agency's network: the
 * addresses the other computers of the agency use (`http://IP:PORT`).
 */
networkUrls: Array<string>, 
/**
 * The saved settings (the port and network ones apply at the next start).
 */
settings: SettingsWire, 
/**
 * Where backups go now (`serve --backup-dir`, else the settings' folder).
 */
backupDir: string | null, 
/**
 * Set by `serve --backup-dir`: the folder cannot be changed here.
 */
backupDirFixed: boolean, 
/**
 * The host can restart the server (desktop application): restore and
 * the port change apply at once.
 */
restartAvailable: boolean, 
/**
 * The port or network setting saved differs from the one the server
 * was started with.
 */
restartNeeded: boolean, 
/**
 * The server was bound from the settings (desktop application); false
 * under `liftdesk serve --bind`, where the port and network settings
 * are not used.
 */
listensFromSettings: boolean, backups: Array<BackupView>, webhooks: SyncStatusWire | null, };

export type BackupView = { name: string, path: string, bytes: number, 
/**
 * Local date and time, `AAAA-MM-JJTHH:MM:SS`.
 */
takenAt: string | null, };

export type SettingsWire = { port: number, lan: boolean, backupDir: string | null, dailyBackup: boolean, };

export type RestoreAccepted = { schemaVersion: number, };

// Agence : identité et personnes

export type IdentityAnswer = { agencyId: string, agencyName: string, organizationName: string, identity: IdentityWire, 
/**
 * Les 9 premiers chiffres du SIRET.
 */
siren: string | null, 
/**
 * Date et heure (UTC) de la dernière modification.
 */
updatedAt: string | null, logo: LogoWire | null, 
/**
 * Ce sans quoi une facture ou un avoir ne peut pas être émis.
 */
missingToIssue: Array<IdentityFieldWire>, 
/**
 * Les autres mentions des factures non renseignées.
 */
missingMentions: Array<IdentityFieldWire>, 
/**
 * La session peut modifier l'identité.
 */
canEdit: boolean, };

/**
 * Un champ de l'identité : son nom dans `identity` et son libellé.
 */
export type IdentityFieldWire = { field: string, label: string, };

/**
 * L'identité de l'agence telle que ses documents l'impriment : le corps de
 * `PUT /agency/identity` et le champ `identity` de la réponse. At run time
 * both are the domain's `IdentityInput`; this type only declares it to the
 * web application and the OpenAPI description (a unit test holds the two to the same fields).
 */
export type IdentityWire = { legalName: string | null, legalForm: string | null, 
/**
 * En euros.
 */
shareCapital: number | null, rcsCity: string | null, siret: string | null, vatNumber: string | null, 
/**
 * Siège social (s'il n'est pas à l'adresse de l'agence) : rue,
 * complément, code postal (5 chiffres) et ville.
 */
headOfficeAddress: string | null, headOfficeComplement: string | null, headOfficePostalCode: string | null, headOfficeCity: string | null, 
/**
 * Adresse de l'agence (l'établissement du SIRET) : rue, complément,
 * code postal (5 chiffres) et ville. Une adresse donnée sur une ligne
 * (« 12 rue de la Part-Dieu, 69003 Lyon ») sans code postal ni ville est
 * découpée.
 */
address: string | null, addressComplement: string | null, postalCode: string | null, city: string | null, phone: string | null, email: string | null, iban: string | null, bic: string | null, insurer: string | null, insurancePolicy: string | null, insuranceArea: string | null, vatOnDebits: boolean, 
/**
 * Série de numérotation des factures et avoirs de l'agence (1 à 6
 * lettres ou chiffres, « PO » : `FA-PO-2026-000001`), propre à l'agence
 * dans l'organisation, exigée pour émettre quand l'organisation a
 * plusieurs agences ; figée dès qu'une pièce y est numérotée.
 */
invoiceSeries: string | null, 
/**
 * Adresse de facturation électronique de l'agence dans l'annuaire
 * (`732829320`, `732829320_LYON` : commence par son SIREN ; lettres,
 * chiffres, `-`, `_`, `.`, 125 caractères au plus). Sans elle, ses
 * factures électroniques portent son SIREN.
 */
electronicAddress: string | null, };

export type LogoWire = { mediaType: string, width: number, height: number, };

export type PeopleAnswer = { people: Array<PersonWire>, 
/**
 * Les agences que l'administrateur peut donner.
 */
agencies: Array<AgencyRef>, 
/**
 * L'administrateur peut nommer des administrateurs de l'organisation.
 */
canNameOrgAdmins: boolean, 
/**
 * Le compte de la session (pas de rôle ni de mot de passe à changer ici).
 */
me: string, };

/**
 * Une personne de l'organisation.
 */
export type PersonWire = { id: string, name: string | null, email: string, position: string | null, 
/**
 * `org_admin`, `agency_admin` ou `member`.
 */
role: string, roleLabel: string, active: boolean, performsSurveys: boolean, 
/**
 * A aussi une fiche technicien.
 */
technician: boolean, 
/**
 * N'a pas encore choisi son mot de passe (provisoire).
 */
mustChangePassword: boolean, 
/**
 * Les agences où elle travaille, parmi celles de l'administrateur.
 */
agencies: Array<AgencyRef>, };

/**
 * Le compte, et le mot de passe provisoire à transmettre, montré une fois.
 */
export type PersonWithPassword = { person: PersonWire, temporaryPassword: string, };

export type AgenciesAnswer = { 
/**
 * Les agences en activité d'abord, puis les archivées.
 */
agencies: Array<AgencyEntryWire>, 
/**
 * La session peut créer une agence.
 */
canCreate: boolean, };

/**
 * Une agence de l'organisation.
 */
export type AgencyEntryWire = { id: string, name: string, 
/**
 * Date et heure (UTC) de sa création.
 */
createdAt: string, 
/**
 * Date et heure (UTC) de son archivage ; absente tant qu'elle travaille.
 */
archivedAt: string | null, 
/**
 * Ce qui manque à son identité pour émettre une facture (`siret`, `address`).
 */
missingToIssue: Array<string>, 
/**
 * C'est l'agence où la session agit.
 */
current: boolean, 
/**
 * La session peut la renommer.
 */
canRename: boolean, 
/**
 * La session peut l'archiver ou la réactiver.
 */
canArchive: boolean, };

/**
 * Un client saisi ou modifié à la main : absent, un champ est gardé ; `null`
 * ou vide, il est effacé. `id` (l'identifiant partenaire) seulement à la
 * création ; `name` obligatoire à la création.
 */
export type ClientBody = { id?: string, name?: string, status?: ClientStatus, categories?: Array<string>, email?: string | null, phone?: string | null, address?: string | null, addressComplement?: string | null, 
/**
 * Five digits.
 */
postalCode?: string | null, city?: string | null, siren?: string | null, siret?: string | null, billingCategory?: BillingCategory | null, 
/**
 * Intra-community VAT number (`FR44732829320`), its SIREN's.
 */
vatNumber?: string | null, 
/**
 * Electronic invoicing address (the French directory's); blank: the
 * SIREN's default.
 */
electronicAddress?: string | null, 
/**
 * A public body's Chorus Pro service code.
 */
serviceCode?: string | null, };

export type BuildingsAnswer = { 
/**
 * Combien d'immeubles correspondent en tout.
 */
total: number, 
/**
 * Les 50 premiers, par adresse.
 */
results: Array<BuildingView>, 
/**
 * Les consignes d'accès possibles.
 */
accessValues: Array<string>, };

/**
 * Comment entrer dans l'immeuble.
 */
export type AccessWire = { 
/**
 * Parmi « Sans », « Digicode », « Coffre à clé », « Vigik », « Autre ».
 */
instructions: Array<string>, 
/**
 * Précisions, obligatoires avec « Autre ».
 */
other: string | null, digicode: string | null, 
/**
 * Où se trouve le coffre à clé.
 */
keyBox: string | null, };

/**
 * Le client d'un immeuble : son identifiant partenaire et son nom.
 */
export type BuildingClient = { id: string, name: string, };

/**
 * Un immeuble de l'agence.
 */
export type BuildingView = { id: string, name: string | null, address: string, addressComplement: string | null, postalCode: string | null, city: string | null, client: BuildingClient | null, access: AccessWire, 
/**
 * Nombre d'équipements de l'immeuble.
 */
equipmentCount: number, };

export type JournalAnswer = { entries: Array<JournalEntryWire>, 
/**
 * Les enregistrements que les détails de la page nomment par leur identifiant.
 */
references: Array<JournalReference>, 
/**
 * À passer en `before` pour la page suivante ; absent à la fin.
 */
next: number | null, objectTypes: Array<ObjectTypeChoice>, };

/**
 * Qui a agi.
 */
export type JournalActor = { 
/**
 * `account`, `api_token`, `call_center_key`, `partner_key`, `cli`, `system`.
 */
kind: string, kindLabel: string, 
/**
 * Le compte du personnel, le jeton ou la clé.
 */
id: string | null, 
/**
 * Le nom de la personne, du jeton ou de la clé.
 */
name: string | null, 
/**
 * Le titulaire d'un jeton d'API ; le centre d'une clé de centre d'appels.
 */
owner: string | null, };

/**
 * Une entrée du journal.
 */
export type JournalEntryWire = { seq: number, 
/**
 * Date et heure (UTC).
 */
at: string, actor: JournalActor, 
/**
 * Ce qui a été fait (`creation`, `modification`, `emission`…).
 */
action: string, 
/**
 * Le même en clair (« Création », « Changement de client »…).
 */
actionLabel: string, objectType: string, objectTypeLabel: string, objectId: string | null, 
/**
 * L'objet en clair quand le journal le connaît (numéro, nom…).
 */
objectLabel: string | null, 
/**
 * Le détail enregistré (avant/après, champs…).
 */
detail: unknown, };

/**
 * Un enregistrement qu'un détail nomme par son identifiant (le technicien
 * d'une visite, le client d'un équipement…), en clair.
 */
export type JournalReference = { 
/**
 * L'identifiant tel que le détail l'enregistre.
 */
id: string, 
/**
 * `equipment`, `client`, `building`, `technician`, `quote`, `invoice`,
 * `call`, `survey`, `account` ou `agency`.
 */
objectType: string, 
/**
 * Son nom : numéro, nom, adresse…
 */
label: string, 
/**
 * Sa page dans l'application, quand elle en a une.
 */
path: string | null, };

/**
 * Un type d'objet du filtre.
 */
export type ObjectTypeChoice = { code: string, label: string, };

export type TechnicalFieldsAnswer = { results: Array<TechnicalField>, };

/**
 * Une donnée technique du catalogue.
 */
export type TechnicalField = { 
/**
 * Code de la donnée (`charge_utile`).
 */
code: string, 
/**
 * Son nom (« Charge utile »).
 */
label: string, unit: string | null, 
/**
 * `text`, `number`, `integer`, `boolean`, `choice` ou `multi`.
 */
valueType: string, 
/**
 * Les valeurs possibles d'un choix.
 */
choices: Array<string>, 
/**
 * Le composant décrit (`car_door`, `machine`…), absent pour l'appareil.
 */
component: string | null, };

export type SearchAnswer = { 
/**
 * Les genres qui ont des résultats, dans cet ordre : équipements,
 * clients, factures et avoirs, devis, appels.
 */
groups: Array<SearchGroup>, };

/**
 * Les résultats d'un genre.
 */
export type SearchGroup = { 
/**
 * `equipment`, `clients`, `invoices`, `quotes`, `calls`.
 */
kind: string, label: string, hits: Array<SearchHit>, };

/**
 * Un résultat : ce qu'il est, en clair, et l'adresse de sa page.
 */
export type SearchHit = { id: string, 
/**
 * Le numéro, le nom ou la référence.
 */
title: string, 
/**
 * L'adresse, le client, l'objet…
 */
subtitle: string | null, 
/**
 * La page dans l'application (`/equipements/<id>`…).
 */
link: string, };

/**
 * Un nouvel immeuble, son client (identifiant partenaire) et ses consignes
 * d'accès s'ils sont connus.
 */
export type NewBuildingBody = { name?: string, address: string | null, addressComplement?: string, postalCode?: string, city?: string, clientId?: string, access?: AccessWire, };

/**
 * `PATCH /equipment/{id}/identity` of the REST API, answered with the page.
 * Un nouvel équipement : son identité (les noms de `PATCH
 * /equipment/{id}/identity`, `number` obligatoire), son immeuble et son
 * client (identifiant partenaire), et l'intervalle de ses visites.
 */
export type NewEquipmentBody = { number: string | null, serialNumber?: string, 
/**
 * `ascenseur`, `monte_charge`, `monte_voiture`, `elevateur`, `porte_fermeture`.
 */
type?: string, subtype?: string, location?: string, 
/**
 * `parc` (sous contrat) ou `hors_parc`.
 */
maintenanceContract?: string, contractNumber?: string, buildingId?: string, clientId?: string, 
/**
 * Jours entre deux visites d'entretien (42 par défaut).
 */
visitIntervalDays?: number, };

/**
 * L'équipement créé : son identifiant (sa page est `/equipements/<id>`).
 */
export type CreatedEquipment = { id: string, };

/**
 * Le nouveau client de l'équipement (identifiant partenaire).
 */
export type MoveBody = { clientId: string, };

/**
 * Ce qui change d'un contact : absent, gardé ; `email`, `phone`, `role`
 * `null` ou vides, effacés.
 */
export type ContactEditBody = { name?: string, email?: string | null, phone?: string | null, 
/**
 * La fonction.
 */
role?: string | null, };

export type ArchiveAnswer = { agency: AgencyEntryWire, stopped: StoppedWire, };

/**
 * Ce que l'archivage a arrêté.
 */
export type StoppedWire = { 
/**
 * Clés de centre d'appels révoquées.
 */
callCenterKeys: number, 
/**
 * Clés partenaires retirées de l'agence (révoquées si elles ne servaient qu'elle).
 */
partnerKeys: number, 
/**
 * Abonnements webhook révoqués (leurs envois en attente abandonnés).
 */
webhookSubscriptions: number, };

/**
 * Une nouvelle agence, et son identité si elle est déjà connue.
 */
export type NewAgencyBody = { name: string, identity?: IdentityWire, };

/**
 * Le nouveau nom de l'agence.
 */
export type RenameBody = { name: string, };

export type TechnicianRecords = { technicians: Array<TechnicianRecordWire>, 
/**
 * La session peut ajouter, modifier et retirer des techniciens.
 */
canEdit: boolean, };

/**
 * La fiche d'un technicien, telle que l'écran la modifie.
 */
export type TechnicianRecordWire = { id: string, name: string, phone: string | null, sectors: Array<string>, 
/**
 * Visites par jour au plus (propositions du planning).
 */
dailyCapacity: number, 
/**
 * Repos de sécurité après une astreinte, en heures.
 */
restHours: number, 
/**
 * Au planning, aux propositions et aux astreintes.
 */
active: boolean, 
/**
 * Le compte du personnel qu'il est, s'il en a un.
 */
accountId: string | null, };
