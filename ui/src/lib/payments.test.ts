// Règlements : lecture du montant saisi à la française, corps de la requête
// (seulement ce qui est renseigné), récapitulatif des montants et mots selon
// la nature de la pièce.
import { describe, expect, it } from 'vitest';
import type { InvoiceView } from './generated/contract';
import { amountInput, balanceSummary, methodText, parseAmount, paymentRequest, paymentWords } from './payments';

describe('montant saisi', () => {
  it('lit la virgule, le point, les espaces et le symbole euro, en centimes', () => {
    expect(parseAmount('200,50')).toEqual({ cents: 20050 });
    expect(parseAmount('200.5')).toEqual({ cents: 20050 });
    expect(parseAmount(' 1 250 ')).toEqual({ cents: 125000 });
    expect(parseAmount('1\u202f250,00\u00a0€')).toEqual({ cents: 125000 });
    expect(parseAmount('502,15 €')).toEqual({ cents: 50215 });
    expect(parseAmount('0,01')).toEqual({ cents: 1 });
    expect(parseAmount('12,340')).toEqual({ cents: 1234 });
  });

  it('refuse le vide, le texte, le zéro, le négatif et le tiers de centime, en français', () => {
    expect(parseAmount('')).toEqual({ error: 'Indiquez le montant du règlement.' });
    expect(parseAmount('  ', 'remboursement')).toEqual({ error: 'Indiquez le montant du remboursement.' });
    expect(parseAmount('deux cents')).toEqual({ error: 'Le montant doit être un nombre en euros (reçu : « deux cents »).' });
    expect(parseAmount('1,2,3')).toHaveProperty('error');
    expect(parseAmount('0')).toEqual({ error: 'Le montant doit être supérieur à zéro (reçu : 0).' });
    expect(parseAmount('-5')).toEqual({ error: 'Le montant doit être supérieur à zéro (reçu : -5).' });
    expect(parseAmount('10,005')).toEqual({ error: 'Le montant doit avoir au plus deux décimales (reçu : 10,005).' });
  });

  it('remet un montant en saisie avec la virgule, au centime', () => {
    expect(amountInput(502.15)).toBe('502,15');
    expect(amountInput(1250)).toBe('1250,00');
    expect(amountInput(0.1 + 0.2)).toBe('0,30');
    expect(parseAmount(amountInput(502.15))).toEqual({ cents: 50215 });
  });
});

describe('corps du règlement', () => {
  const draft = { amount: '200,50', paidOn: '2026-11-20', method: '', reference: '' };

  it("n'envoie que ce qui est renseigné", () => {
    expect(paymentRequest(draft)).toEqual({ body: { amount: 200.5, paidOn: '2026-11-20' } });
    expect(paymentRequest({ ...draft, method: 'cheque', reference: '  CHQ 0012345 ' })).toEqual({
      body: { amount: 200.5, paidOn: '2026-11-20', method: 'cheque', reference: 'CHQ 0012345' },
    });
    expect(paymentRequest({ ...draft, reference: '   ' })).toEqual({ body: { amount: 200.5, paidOn: '2026-11-20' } });
  });

  it('demande le montant et la date, refuse un mode inconnu et une référence trop longue', () => {
    expect(paymentRequest({ ...draft, amount: '' })).toEqual({ error: 'Indiquez le montant du règlement.' });
    expect(paymentRequest({ ...draft, paidOn: '' }, 'remboursement')).toEqual({
      error: 'Indiquez la date du remboursement.',
    });
    expect(paymentRequest({ ...draft, paidOn: '20/11/2026' })).toEqual({
      error: 'La date du règlement doit être un jour (JJ/MM/AAAA).',
    });
    expect(paymentRequest({ ...draft, method: 'bitcoin' })).toEqual({ error: 'Mode inconnu : « bitcoin ».' });
    expect(paymentRequest({ ...draft, reference: 'x'.repeat(100) })).toHaveProperty('body');
    expect(paymentRequest({ ...draft, reference: 'x'.repeat(101) })).toEqual({
      error: 'La référence ne doit pas dépasser 100 caractères.',
    });
  });
});

describe('récapitulatif', () => {
  const invoice = (over: Partial<InvoiceView>): InvoiceView =>
    ({
      nature: 'facture',
      totalInclTax: 539.55,
      creditedTotal: 37.4,
      paidTotal: 0,
      balance: 502.15,
      payments: [],
      ...over,
    }) as InvoiceView;
  const text = (rows: ReturnType<typeof balanceSummary>) => rows?.map((r) => `${r.label} ${r.text.replace(/\s/g, ' ')}`);

  it("facture : total, avoirs, règlements, reste à payer (total − avoirs − règlements)", () => {
    expect(text(balanceSummary(invoice({})))).toEqual([
      'Total TTC 539,55 €',
      'Avoirs émis 37,40 €',
      'Règlements reçus 0,00 €',
      'Reste à payer 502,15 €',
    ]);
    expect(balanceSummary(invoice({}))?.at(-1)).toMatchObject({ key: 'reste', strong: true });
  });

  it('un solde négatif est un trop-perçu, en positif', () => {
    expect(text(balanceSummary(invoice({ paidTotal: 539.55, balance: -37.4 })))?.at(-1)).toBe('Trop-perçu 37,40 €');
  });

  it('avoir : remboursements, reste à rembourser ; brouillon : pas de solde', () => {
    expect(text(balanceSummary(invoice({ nature: 'avoir', totalInclTax: 37.4, creditedTotal: 0, balance: 37.4 })))).toEqual([
      'Total TTC 37,40 €',
      'Remboursements effectués 0,00 €',
      'Reste à rembourser 37,40 €',
    ]);
    expect(balanceSummary(invoice({ balance: null }))).toBeNull();
  });

  it('les mots et les modes', () => {
    expect(paymentWords('facture').action).toBe('Enregistrer un règlement');
    expect(paymentWords('avoir').action).toBe('Enregistrer un remboursement');
    expect(paymentWords('avoir').due).toBe('Reste à rembourser');
    const payment = { id: 'p', paidOn: '2026-11-20', amount: 1, reference: null };
    expect(methodText({ ...payment, method: 'cheque', methodLabel: 'Chèque' })).toBe('Chèque');
    expect(methodText({ ...payment, method: 'carte', methodLabel: null })).toBe('Carte bancaire');
    expect(methodText({ ...payment, method: null, methodLabel: null })).toBe('—');
  });
});
