import { describe, expect, it } from 'vitest';
import { recordRequests } from './test-requests';
import {
  checkLine,
  checkLines,
  checkNewInvoice,
  createInvoice,
  creditLines,
  equipmentPlace,
  quoteValidity,
  renewQuote,
  sameEquipment,
  validityText,
  withEquipment,
  withoutEquipment,
  formatEuros,
  invoiceStatusLabel,
  lineTotalCents,
  linesBody,
  parseDecimal,
  readQuery,
  totals,
  writeQuery,
  asksExemption,
  draftOf,
  emptyLine,
  exemptionLabel,
  facturxPath,
  invoiceEInvoicing,
  withVatRate,
  VAT_EXEMPTIONS,
  type AmountLine,
  type InvoiceDetail,
  type LineDraft,
} from './billing';

const line = (label: string, quantity: string, unitPrice: string, vatRate = '20'): LineDraft => ({
  label,
  quantity,
  unitPrice,
  vatRate,
});

describe('montants', () => {
  it('lit les décimales françaises sans flottant', () => {
    expect(parseDecimal('12,5', 2)).toBe(1250);
    expect(parseDecimal('1 250.00', 2)).toBe(125000);
    expect(parseDecimal('0,1', 2)).toBe(10);
    expect(parseDecimal('19.99', 2)).toBe(1999);
    expect(parseDecimal('12,345', 2)).toBe('trop');
    expect(parseDecimal('12,340', 2)).toBe(1234);
    expect(parseDecimal('1,5', 3)).toBe(1500);
    expect(parseDecimal('-2', 2)).toBe(-200);
    expect(parseDecimal('abc', 2)).toBeNull();
    expect(parseDecimal('', 2)).toBeNull();
    expect(parseDecimal(',', 2)).toBeNull();
  });

  it('formate en euros à la française', () => {
    expect(formatEuros(1234.5)).toBe('1\u202f234,50\u00a0€');
    expect(formatEuros(0)).toBe('0,00\u00a0€');
    expect(formatEuros(null)).toBe('—');
  });

  it('arrondit la ligne et la TVA comme le serveur', () => {
    // 1,5 h à 33,33 € = 49,995 € → 50,00 €.
    expect(lineTotalCents(1500, 3333)).toBe(5000);
    expect(lineTotalCents(499, 1)).toBe(0);
    expect(lineTotalCents(500, 1)).toBe(1);
    // Trois lignes de 0,05 € à 10 % : TVA calculée sur la base (1,5 → 2 centimes).
    const small = { label: 'x', quantityMilli: 1000, unitPriceCents: 5, vatRateBp: 1000 };
    expect(totals([small, small, small])).toEqual({
      exclTaxCents: 15,
      vatByRate: [{ rateBp: 1000, baseCents: 15, vatCents: 2 }],
      inclTaxCents: 17,
    });
  });

  it('donne les totaux HT, TVA par taux croissant et TTC du devis de la démonstration', () => {
    const checked = checkLines(
      [line('Remplacement du contacteur', '2', '120,50'), line("Main-d'œuvre", '1,5', '65', '10')],
      'Le devis',
    );
    expect(checked.summary).toBeUndefined();
    const t = totals(checked.lines ?? []);
    expect(t.exclTaxCents).toBe(33850);
    expect(t.vatByRate).toEqual([
      { rateBp: 1000, baseCents: 9750, vatCents: 975 },
      { rateBp: 2000, baseCents: 24100, vatCents: 4820 },
    ]);
    expect(t.inclTaxCents).toBe(39645);
    expect(linesBody(checked.lines ?? [])).toEqual([
      { label: 'Remplacement du contacteur', quantity: 2, unitPrice: 120.5, vatRate: 20 },
      { label: "Main-d'œuvre", quantity: 1.5, unitPrice: 65, vatRate: 10 },
    ]);
  });
});

describe('contrôle des lignes (messages du serveur)', () => {
  it('refuse ce que le serveur refuse, avec ses phrases', () => {
    expect(checkLine(line('', '1', '1')).errors.label).toBe('le libellé est obligatoire.');
    expect(checkLine(line('  ', '1', '1')).errors.label).toBe('le libellé est obligatoire.');
    expect(checkLine(line('x'.repeat(301), '1', '1')).errors.label).toBe(
      'le libellé ne doit pas dépasser 300 caractères.',
    );
    expect(checkLine(line('B', '0', '1')).errors.quantity).toBe(
      'la quantité doit être supérieure à zéro (reçu : 0).',
    );
    expect(checkLine(line('B', '-1', '1')).errors.quantity).toBe(
      'la quantité doit être supérieure à zéro (reçu : -1).',
    );
    expect(checkLine(line('B', '1,2345', '1')).errors.quantity).toBe(
      'la quantité doit avoir au plus trois décimales (reçu : 1,2345).',
    );
    expect(checkLine(line('B', '', '1')).errors.quantity).toBe('la quantité est obligatoire.');
    expect(checkLine(line('B', '1', '')).errors.unitPrice).toBe('le prix unitaire HT est obligatoire.');
    expect(checkLine(line('B', '1', '-2,5')).errors.unitPrice).toBe(
      'le prix unitaire HT ne peut pas être négatif (reçu : -2,5).',
    );
    expect(checkLine(line('B', '1', '12.345')).errors.unitPrice).toBe(
      'le prix unitaire HT doit être un montant en euros avec au plus deux décimales (reçu : 12,345).',
    );
    expect(checkLine(line('B', '1', 'douze')).errors.unitPrice).toBe(
      'le prix unitaire HT doit être un nombre (reçu : « douze »).',
    );
    expect(checkLine(line('B', '100001', '1')).errors.quantity).toBe(
      'la quantité ne doit pas dépasser 100000 (reçu : 100001).',
    );
  });

  it('nomme la première ligne refusée, comme le serveur', () => {
    expect(checkLines([], 'Le devis').summary).toBe('Le devis doit comporter au moins une ligne.');
    const refused = checkLines([line('A', '1', '1'), line('B', '0', '1')], 'La facture');
    expect(refused.summary).toBe('Ligne 2 : la quantité doit être supérieure à zéro (reçu : 0).');
    expect(refused.lines).toBeUndefined();
    expect(refused.errors[0]).toEqual({});
  });
});

describe('avoir partiel', () => {
  const invoiceLines: AmountLine[] = [
    { label: 'Maintenance', quantity: 2, unitPrice: 450, vatRate: 20, totalExclTax: 900 },
    { label: 'Pièce', quantity: 1, unitPrice: 19.99, vatRate: 5.5, totalExclTax: 19.99 },
    { label: 'Travaux sous-traités', quantity: 1, unitPrice: 300, vatRate: 0, vatExemption: 'autoliquidation', totalExclTax: 300 },
  ];

  it('crédite les lignes choisies au même prix et au même taux', () => {
    expect(creditLines(invoiceLines, [{ index: 0, quantity: '1' }])).toEqual({
      lines: [{ label: 'Avoir : Maintenance', quantityMilli: 1000, unitPriceCents: 45000, vatRateBp: 2000 }],
    });
    expect(creditLines(invoiceLines, [{ index: 1, quantity: '1' }]).lines?.[0]?.unitPriceCents).toBe(1999);
  });

  it('crédite une ligne à 0 % avec le motif de la ligne facturée', () => {
    const credited = creditLines(invoiceLines, [{ index: 2, quantity: '1' }]).lines ?? [];
    expect(credited[0]?.vatExemption).toBe('autoliquidation');
    expect(linesBody(credited)).toEqual([
      { label: 'Avoir : Travaux sous-traités', quantity: 1, unitPrice: 300, vatRate: 0, vatExemption: 'autoliquidation' },
    ]);
  });

  it('refuse une quantité nulle ou au-delà de la quantité facturée', () => {
    expect(creditLines(invoiceLines, []).error).toBe('Choisissez au moins une ligne à créditer.');
    expect(creditLines(invoiceLines, [{ index: 0, quantity: '3' }]).error).toBe(
      'Ligne 1 : la quantité à créditer ne peut pas dépasser la quantité facturée (2).',
    );
    expect(creditLines(invoiceLines, [{ index: 1, quantity: '0' }]).error).toMatch(/^Ligne 2 : /);
  });
});

describe('libellés et adresse', () => {
  it('accorde le statut à la nature', () => {
    expect(invoiceStatusLabel('facture', 'emise')).toBe('Émise');
    expect(invoiceStatusLabel('avoir', 'emise')).toBe('Émis');
    expect(invoiceStatusLabel('avoir', 'payee')).toBe('Soldé');
  });

  it('garde les filtres dans la requête', () => {
    expect(writeQuery({ status: 'emise', client: '', page: '1' })).toBe('?status=emise');
    expect(writeQuery({ status: '', page: '3' })).toBe('?page=3');
    expect(writeQuery({})).toBe('');
    expect(readQuery('?status=emise&since=2026-11-01', ['status', 'since', 'client'] as const)).toEqual({
      status: 'emise',
      since: '2026-11-01',
      client: '',
    });
  });
});

describe('validité d\'un devis', () => {
  it('donne la date à la française', () => {
    expect(validityText('2026-12-12')).toBe("Valable jusqu'au 12/12/2026");
    expect(validityText(null)).toBe('Validité non indiquée');
    expect(quoteValidity({ validUntil: '2026-12-12', expired: false })).toEqual({
      text: "Valable jusqu'au 12/12/2026",
      expired: false,
      warning: null,
    });
  });

  it('demande de renouveler un devis expiré avant de l\'accepter', () => {
    const expired = quoteValidity({ validUntil: '2026-03-01', expired: true });
    expect(expired.expired).toBe(true);
    expect(expired.text).toBe("Valable jusqu'au 01/03/2026");
    expect(expired.warning).toBe(
      "Ce devis n'est plus valable (il l'était jusqu'au 01/03/2026) : renouvelez sa validité avant d'enregistrer son acceptation.",
    );
  });
});

describe('nouvelle facture et appareils concernés', () => {
  const lift = (id: string, building: string | null = null, address: string | null = null) => ({
    id,
    number: `ASC-${id}`,
    building,
    address,
  });

  it('ajoute un appareil une seule fois, le retire, compare les listes', () => {
    const one = withEquipment([], lift('1'));
    const two = withEquipment(one, lift('2'));
    expect(two.map((e) => e.id)).toEqual(['1', '2']);
    expect(withEquipment(two, lift('1')).map((e) => e.id)).toEqual(['1', '2']);
    expect(withoutEquipment(two, '1').map((e) => e.id)).toEqual(['2']);
    expect(sameEquipment(two, [lift('2'), lift('1')])).toBe(true);
    expect(sameEquipment(two, one)).toBe(false);
    expect(sameEquipment([lift('1'), lift('1')], [lift('1'), lift('2')])).toBe(false);
  });

  it("nomme l'immeuble et l'adresse connus", () => {
    expect(equipmentPlace(lift('1', 'Résidence Les Tilleuls', '12 rue des Lilas 69003 Lyon'))).toBe(
      'Résidence Les Tilleuls · 12 rue des Lilas 69003 Lyon',
    );
    expect(equipmentPlace(lift('1', null, '12 rue des Lilas'))).toBe('12 rue des Lilas');
    expect(equipmentPlace(lift('1', ' ', null))).toBe('');
  });

  it('exige le client, puis des lignes justes', () => {
    const noClient = checkNewInvoice({ client: null, equipment: [], lines: [line('Visite', '1', '80')] });
    expect(noClient.body).toBeUndefined();
    expect(noClient.errors.client).toBe('Choisissez le client facturé.');
    expect(noClient.summary).toBe('Choisissez le client facturé.');

    const badLine = checkNewInvoice({ client: { id: 'CLI-000012' }, equipment: [], lines: [line('', '1', '80')] });
    expect(badLine.body).toBeUndefined();
    expect(badLine.lineErrors[0]?.label).toBe('le libellé est obligatoire.');
    expect(badLine.summary).toBe('Ligne 1 : le libellé est obligatoire.');

    expect(checkNewInvoice({ client: { id: 'CLI-000012' }, equipment: [], lines: [] }).summary).toBe(
      'La facture doit comporter au moins une ligne.',
    );
  });

  it('refuse plus de 50 appareils', () => {
    const many = Array.from({ length: 51 }, (_, i) => lift(String(i)));
    const checked = checkNewInvoice({ client: { id: 'CLI-1' }, equipment: many, lines: [line('Visite', '1', '80')] });
    expect(checked.body).toBeUndefined();
    expect(checked.errors.equipment).toBe('Une facture ne peut pas concerner plus de 50 appareils (reçu : 51).');
  });

  it('rend le corps de POST /invoices', () => {
    const checked = checkNewInvoice({
      client: { id: ' CLI-000012 ' },
      equipment: [lift('e1'), lift('e2')],
      lines: [line('Dépannage', '1,5', '65', '10')],
    });
    expect(checked.summary).toBeUndefined();
    expect(checked.body).toEqual({
      clientId: 'CLI-000012',
      lines: [{ label: 'Dépannage', quantity: 1.5, unitPrice: 65, vatRate: 10 }],
      equipmentIds: ['e1', 'e2'],
    });
  });
});

describe('appels : renouvellement et nouvelle facture', () => {
  const seen = recordRequests();

  it('renouvelle par POST /quotes/{id}/renew et crée par POST /invoices', async () => {
    await renewQuote('q 1');
    await createInvoice({ clientId: 'CLI-1', lines: [], equipmentIds: ['e1'] });
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /app/api/quotes/q%201/renew', 'POST /app/api/invoices']);
    expect(JSON.parse(seen[1]?.body ?? 'null')).toEqual({ clientId: 'CLI-1', lines: [], equipmentIds: ['e1'] });
  });
});

describe("motif d'exonération d'une ligne à 0 %", () => {
  const zero = (vatExemption: LineDraft['vatExemption'] = ''): LineDraft => ({
    ...line('Travaux sous-traités', '1', '300', '0'),
    vatExemption,
  });

  it('ne le demande qu’à une ligne à 0 %', () => {
    expect(asksExemption(zero())).toBe(true);
    expect(asksExemption(line('Visite', '1', '80', '20'))).toBe(false);
    expect(asksExemption(line('Visite', '1', '80', '5.5'))).toBe(false);
    expect(emptyLine().vatExemption).toBe('');
  });

  it('l’efface quand le taux quitte 0 %, le garde tant qu’il reste à 0 %', () => {
    expect(withVatRate(zero('autoliquidation'), '20')).toEqual({ ...zero(''), vatRate: '20' });
    expect(withVatRate(zero('franchise'), '0').vatExemption).toBe('franchise');
    // Revenue à 0 %, la ligne redemande son motif : l'ancien ne revient pas.
    expect(withVatRate(withVatRate(zero('franchise'), '10'), '0').vatExemption).toBe('');
    expect(withVatRate(line('Visite', '1', '80', '20'), '0').vatExemption).toBe('');
    // La ligne d'origine n'est pas modifiée.
    const before = zero('autoliquidation');
    withVatRate(before, '20');
    expect(before.vatExemption).toBe('autoliquidation');
  });

  it("l'envoie pour une ligne à 0 % (null tant qu'il n'est pas choisi), jamais à un autre taux", () => {
    const checked = checkLines(
      [zero('autoliquidation'), zero(''), { ...line('Visite', '1', '80', '20'), vatExemption: 'franchise' }],
      'La facture',
    );
    expect(linesBody(checked.lines ?? [])).toEqual([
      { label: 'Travaux sous-traités', quantity: 1, unitPrice: 300, vatRate: 0, vatExemption: 'autoliquidation' },
      { label: 'Travaux sous-traités', quantity: 1, unitPrice: 300, vatRate: 0, vatExemption: null },
      { label: 'Visite', quantity: 1, unitPrice: 80, vatRate: 20 },
    ]);
  });

  it('relit le motif d’une ligne enregistrée', () => {
    const stored: AmountLine = {
      label: 'Travaux',
      quantity: 1,
      unitPrice: 300,
      vatRate: 0,
      vatExemption: 'franchise',
      totalExclTax: 300,
    };
    expect(draftOf(stored)).toEqual({ label: 'Travaux', quantity: '1', unitPrice: '300', vatRate: '0', vatExemption: 'franchise' });
    expect(draftOf({ ...stored, vatRate: 20, vatExemption: undefined }).vatExemption).toBe('');
  });

  it('nomme les motifs du contrat', () => {
    expect(VAT_EXEMPTIONS.map((e) => e.code)).toEqual(['autoliquidation', 'franchise']);
    expect(exemptionLabel('autoliquidation')).toBe('Autoliquidation (article 283-2 nonies du CGI)');
    expect(exemptionLabel('franchise')).toBe('TVA non applicable (article 293 B du CGI)');
    expect(exemptionLabel(null)).toBeNull();
    expect(exemptionLabel(undefined)).toBeNull();
    expect(exemptionLabel('inconnu')).toBeNull();
  });
});

describe('facturation électronique d’une facture', () => {
  const detail = (extra: Record<string, unknown>): InvoiceDetail =>
    ({ invoice: { id: 'f1', ...extra }, actions: [], remainingToCredit: null }) as unknown as InvoiceDetail;

  it('lit le circuit de la pièce émise ; un brouillon n’en a pas', () => {
    expect(
      invoiceEInvoicing(detail({ einvoicing: 'chorus_pro', einvoicingExplanation: 'Organisme public : Chorus Pro.' })),
    ).toEqual({ code: 'chorus_pro', explanation: 'Organisme public : Chorus Pro.' });
    expect(invoiceEInvoicing(detail({ einvoicing: null, einvoicingExplanation: null }))).toBeNull();
  });

  it('donne l’adresse du XML Factur-X', () => {
    expect(facturxPath('01a 2')).toBe('/app/api/invoices/01a%202/facturx.xml');
  });
});
