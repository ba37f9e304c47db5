import { recordRequests } from './test-requests';
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_PARTS,
  FIELD_LABELS,
  FIELD_ORDER,
  checkBic,
  checkIban,
  checkIdentity,
  checkSeries,
  checkSiret,
  checkVatNumber,
  compact,
  formOf,
  formatCapital,
  getIdentity,
  groupByFour,
  groupSiren,
  isEmail,
  issueBlockedMessage,
  logoProblem,
  logoUrl,
  missingMentionsMessage,
  oneLine,
  parseCapital,
  postalCodeReason,
  refusalOf,
  removeLogo,
  saveIdentity,
  seriesOf,
  sirenOf,
  uploadLogo,
  uploadLogoFile,
  vatKey,
  wireOf,
  type IdentityForm,
  type IdentityWire,
} from './agency';

/** L'identité complète des tests du serveur (`identity.rs`), telle que saisie. */
const typed = (): IdentityForm => ({
  legalName: '  Ascenseurs Durand  ',
  legalForm: 'SAS',
  shareCapital: '50 000',
  rcsCity: 'Lyon',
  siret: '732 829 320 00074',
  vatNumber: 'fr 44 732 829 320',
  headOfficeAddress: ' 3 quai Saint-Antoine ',
  headOfficeComplement: '',
  headOfficePostalCode: '69 002',
  headOfficeCity: 'Lyon',
  // Toute l'adresse dans la rue, code postal et ville vides : le serveur la découpe.
  address: '12 rue de la Part-Dieu, 69003 Lyon',
  addressComplement: 'Tour Part-Dieu, 20e étage',
  postalCode: '',
  city: '',
  phone: '+33 4 72 00 00 00',
  email: 'Contact@Ascenseurs-Durand.fr',
  iban: 'fr76 3000 6000 0112 3456 7890 189',
  bic: 'bnpafrpp',
  insurer: 'SMABTP, 8 rue Louis-Armand, 75015 Paris',
  insurancePolicy: '123456/RC',
  insuranceArea: 'France métropolitaine',
  invoiceSeries: ' po ',
  electronicAddress: ' 732829320_LYON ',
  vatOnDebits: true,
});

const recorded = (): IdentityWire => ({
  legalName: 'Ascenseurs Durand',
  legalForm: 'SAS',
  shareCapital: 150000,
  rcsCity: 'Paris',
  siret: '73282932000074',
  vatNumber: 'FR44732829320',
  headOfficeAddress: null,
  headOfficeComplement: null,
  headOfficePostalCode: null,
  headOfficeCity: null,
  address: '12 rue de la Part-Dieu',
  addressComplement: 'Bâtiment B',
  postalCode: '69003',
  city: 'Lyon',
  phone: '01 45 67 80 00',
  email: 'agence1@ascenseurs-durand.fr',
  iban: 'FR7630006000011234567890189',
  bic: 'AGRIFRPP',
  insurer: null,
  insurancePolicy: null,
  insuranceArea: null,
  invoiceSeries: 'PO',
  electronicAddress: '732829320_PARIS',
  vatOnDebits: false,
});

describe('identité : vérifications du serveur, mêmes messages', () => {
  it('accepte une identité complète saisie avec espaces et minuscules', () => {
    expect(checkIdentity(typed())).toEqual({});
  });

  it('accepte une identité vide (tout est facultatif à l’enregistrement)', () => {
    const empty = {
      ...(Object.fromEntries(Object.keys(recorded()).map((k) => [k, null])) as unknown as IdentityWire),
      vatOnDebits: false,
    };
    expect(checkIdentity(formOf(empty))).toEqual({});
  });

  it('nomme chaque champ refusé, avec la raison du serveur', () => {
    const cases: [Partial<IdentityForm>, string, string][] = [
      [{ siret: '73282932000075' }, 'siret', "Le SIRET n'est pas valide (clé de contrôle incorrecte)."],
      [{ siret: '7328293200007' }, 'siret', 'Le SIRET doit comporter exactement 14 chiffres.'],
      [{ siret: '732 829 320 0007A' }, 'siret', 'Le SIRET doit comporter exactement 14 chiffres.'],
      [
        { vatNumber: 'FR45732829320' },
        'vatNumber',
        'La clé « 45 » ne correspond pas au SIREN 732 829 320 : le numéro de TVA est FR44732829320.',
      ],
      [
        { vatNumber: 'FR83404833048' },
        'vatNumber',
        "Le numéro de TVA est celui du SIREN 404 833 048, pas celui du SIRET de l'agence (732 829 320).",
      ],
      [
        { vatNumber: 'DE123456789' },
        'vatNumber',
        "Le numéro de TVA intracommunautaire français s'écrit FR, une clé de 2 chiffres et le SIREN (9 chiffres), par exemple FR44732829320.",
      ],
      [
        { iban: 'FR7630006000011234567890188' },
        'iban',
        "L'IBAN « FR76 3000 6000 0112 3456 7890 188 » n'est pas valide (clé de contrôle incorrecte) : vérifiez-le sur votre RIB.",
      ],
      [
        { iban: 'FR76300060000112345678901' },
        'iban',
        "L'IBAN « FR76 3000 6000 0112 3456 7890 1 » n'a pas la longueur d'un IBAN FR.",
      ],
      [
        { iban: '7630006000' },
        'iban',
        "L'IBAN commence par le code du pays (2 lettres) et 2 chiffres de contrôle, suivis du numéro de compte (lettres et chiffres), par exemple FR76 3000 6000 0112 3456 7890 189.",
      ],
      [
        { bic: 'BNP1FRPP' },
        'bic',
        'Le BIC « BNP1FRPP » n\'est pas valide : 8 ou 11 caractères, 4 lettres de la banque, 2 du pays, puis 2 (ou 5) lettres ou chiffres, par exemple BNPAFRPPXXX.',
      ],
      [
        { shareCapital: '-1' },
        'shareCapital',
        "Le capital social est un montant en euros, positif, au centime près (10 milliards d'euros au plus).",
      ],
      [
        { shareCapital: '10,001' },
        'shareCapital',
        "Le capital social est un montant en euros, positif, au centime près (10 milliards d'euros au plus).",
      ],
      [
        { shareCapital: 'beaucoup' },
        'shareCapital',
        "Le capital social est un montant en euros, positif, au centime près (10 milliards d'euros au plus).",
      ],
      [
        { shareCapital: '10 000 000 001' },
        'shareCapital',
        "Le capital social est un montant en euros, positif, au centime près (10 milliards d'euros au plus).",
      ],
      [
        { phone: '04 72 AB' },
        'phone',
        "Le champ « Téléphone » doit être un numéro de téléphone (chiffres, espaces, points, tirets, « + » en tête) : « 04 72 AB » n'en est pas un.",
      ],
      [
        { phone: '04 7+2 00 00' },
        'phone',
        "Le champ « Téléphone » doit être un numéro de téléphone (chiffres, espaces, points, tirets, « + » en tête) : « 04 7+2 00 00 » n'en est pas un.",
      ],
      [{ email: ' Contact@ ' }, 'email', "L'adresse e-mail « contact@ » n'est pas valide."],
      [
        { legalForm: 'S\u0007AS' },
        'legalForm',
        'Le champ « Forme juridique » ne doit pas contenir de caractère de contrôle.',
      ],
      [{ address: 'x'.repeat(301) }, 'address', "Le champ « Adresse de l'agence » ne doit pas dépasser 300 caractères."],
      // Une rue écrite avant sur deux lignes : jointe par « , » comme par le serveur (302 caractères).
      [
        { headOfficeAddress: `${'x'.repeat(200)}\n${'y'.repeat(100)}` },
        'headOfficeAddress',
        'Le champ « Adresse du siège social » ne doit pas dépasser 300 caractères.',
      ],
      [
        { addressComplement: 'x'.repeat(121) },
        'addressComplement',
        "Le champ « Complément d'adresse de l'agence » ne doit pas dépasser 120 caractères.",
      ],
      [
        { headOfficeComplement: 'CS\u000712' },
        'headOfficeComplement',
        "Le champ « Complément d'adresse du siège » ne doit pas contenir de caractère de contrôle.",
      ],
      [
        { postalCode: '6900', city: 'Lyon' },
        'postalCode',
        "Le champ « Code postal de l'agence » doit être un code postal français de cinq chiffres : « 6900 » n'en est pas un.",
      ],
      [
        { postalCode: ' 69 0031 ' },
        'postalCode',
        "Le champ « Code postal de l'agence » doit être un code postal français de cinq chiffres : « 69 0031 » n'en est pas un.",
      ],
      [
        { headOfficePostalCode: '2A004' },
        'headOfficePostalCode',
        "Le champ « Code postal du siège » doit être un code postal français de cinq chiffres : « 2A004 » n'en est pas un.",
      ],
      [{ city: 'x'.repeat(101) }, 'city', "Le champ « Ville de l'agence » ne doit pas dépasser 100 caractères."],
      [{ headOfficeCity: 'x'.repeat(101) }, 'headOfficeCity', 'Le champ « Ville du siège » ne doit pas dépasser 100 caractères.'],
      [{ legalName: 'x'.repeat(121) }, 'legalName', 'Le champ « Raison sociale » ne doit pas dépasser 120 caractères.'],
      [{ rcsCity: 'x'.repeat(61) }, 'rcsCity', 'Le champ « Ville du RCS » ne doit pas dépasser 60 caractères.'],
      [{ insurer: 'x'.repeat(201) }, 'insurer', 'Le champ « Assureur » ne doit pas dépasser 200 caractères.'],
      [
        { insurancePolicy: 'x'.repeat(61) },
        'insurancePolicy',
        "Le champ « N° de police d'assurance » ne doit pas dépasser 60 caractères.",
      ],
      [
        { invoiceSeries: 'P O!' },
        'invoiceSeries',
        "La série de numérotation compte de 1 à 6 lettres sans accent ou chiffres, par exemple « PO » : « P O! » n'en est pas une.",
      ],
      // Rognée et mise en majuscules avant la vérification, comme par le serveur (7 caractères).
      [
        { invoiceSeries: ' paris75 ' },
        'invoiceSeries',
        "La série de numérotation compte de 1 à 6 lettres sans accent ou chiffres, par exemple « PO » : « PARIS75 » n'en est pas une.",
      ],
      [
        { insuranceArea: 'x'.repeat(121) },
        'insuranceArea',
        'Le champ « Couverture géographique » ne doit pas dépasser 120 caractères.',
      ],
    ];
    for (const [change, field, message] of cases) {
      expect(checkIdentity({ ...typed(), ...change }), JSON.stringify(change)).toEqual({ [field]: message });
    }
  });

  it('compte en caractères, pas en octets ; une rue de 300 caractères une fois ses lignes jointes passe', () => {
    expect(checkIdentity({ ...typed(), legalName: 'é'.repeat(120) })).toEqual({});
    expect(checkIdentity({ ...typed(), address: `${'x'.repeat(150)}\n\n  ${'y'.repeat(148)}  ` })).toEqual({});
    expect(checkIdentity({ ...typed(), city: 'é'.repeat(100), addressComplement: 'é'.repeat(120) })).toEqual({});
  });

  it('code postal : cinq chiffres, espaces acceptées, vide accepté', () => {
    expect(postalCodeReason('Code postal du siège', '69003')).toBeUndefined();
    expect(postalCodeReason('Code postal du siège', ' 69 003 ')).toBeUndefined();
    expect(postalCodeReason('Code postal du siège', '   ')).toBeUndefined();
    expect(postalCodeReason('Code postal du siège', '7501')).toBe(
      "Le champ « Code postal du siège » doit être un code postal français de cinq chiffres : « 7501 » n'en est pas un.",
    );
    expect(postalCodeReason('Code postal du siège', '750011')).toContain('« 750011 »');
    // Des chiffres d'une autre écriture ne sont pas des chiffres pour le serveur.
    expect(postalCodeReason('Code postal du siège', '٧٥٠٠١')).toContain("n'en est pas un");
  });

  it('les deux adresses en parties, dans l’ordre du formulaire', () => {
    expect(ADDRESS_PARTS.agency).toEqual({
      street: 'address',
      complement: 'addressComplement',
      postalCode: 'postalCode',
      city: 'city',
    });
    expect(ADDRESS_PARTS.headOffice).toEqual({
      street: 'headOfficeAddress',
      complement: 'headOfficeComplement',
      postalCode: 'headOfficePostalCode',
      city: 'headOfficeCity',
    });
    expect(FIELD_ORDER.slice(FIELD_ORDER.indexOf('address'), FIELD_ORDER.indexOf('phone'))).toEqual([
      ...Object.values(ADDRESS_PARTS.agency),
      ...Object.values(ADDRESS_PARTS.headOffice),
    ]);
    // Chaque champ de l'identité a son libellé et sa place.
    expect([...FIELD_ORDER].sort()).toEqual(Object.keys(FIELD_LABELS).sort());
    // Le premier refus (celui qui reçoit le focus) : le code postal de l'agence avant celui du siège.
    const errors = checkIdentity({ ...typed(), postalCode: '1', headOfficePostalCode: '2' });
    expect(FIELD_ORDER.find((field) => errors[field])).toBe('postalCode');
  });

  it('ne vérifie le n° de TVA contre le SIRET que si le SIRET est valable', () => {
    expect(checkIdentity({ ...typed(), siret: '73282932000075', vatNumber: 'FR83404833048' })).toEqual({
      siret: "Le SIRET n'est pas valide (clé de contrôle incorrecte).",
    });
    expect(checkIdentity({ ...typed(), siret: '', vatNumber: 'FR83404833048' })).toEqual({});
  });

  it('SIRET : Luhn, La Poste à part', () => {
    expect(checkSiret('73282932000074')).toBeUndefined();
    expect(checkSiret('35600000000048')).toBeUndefined();
    // La Poste : somme des chiffres multiple de 5.
    expect(checkSiret('35600000012341')).toBeUndefined();
    expect(checkSiret('35600000012342')).toBe("Le SIRET n'est pas valide (clé de contrôle incorrecte).");
    expect(sirenOf('732 829 320 00074')).toBe('732829320');
    expect(sirenOf('732 829 320 00075')).toBeNull();
    expect(sirenOf('')).toBeNull();
  });

  it('TVA, IBAN, BIC : les exemples du serveur', () => {
    expect(vatKey('732829320')).toBe(44);
    expect(vatKey('404833048')).toBe(83);
    expect(checkVatNumber('FR83404833048', null)).toBeUndefined();
    expect(checkVatNumber('FR44732829321', null)).toBe(
      "Le SIREN « 732829321 » du numéro de TVA n'est pas valide (clé de contrôle incorrecte).",
    );
    expect(checkIban('GB82WEST12345698765432')).toBeUndefined();
    expect(checkIban('BE68539007547034')).toBeUndefined();
    expect(checkIban('FR7630006000011234567890189')).toBeUndefined();
    // Une clé hors de 02 à 98 (ISO 13616) est refusée d'emblée.
    expect(checkIban('FR0130006000011234567890189')).toBe(
      "L'IBAN « FR01 3000 6000 0112 3456 7890 189 » n'est pas valide (clé de contrôle incorrecte) : vérifiez-le sur votre RIB.",
    );
    expect(checkBic('DEUTDEFF500')).toBeUndefined();
    expect(checkBic('AGRIFRPP')).toBeUndefined();
    expect(checkBic('AGRIFRPPX')).toContain("n'est pas valide");
  });

  it('série de numérotation : 1 à 6 lettres sans accent ou chiffres, en majuscules', () => {
    expect(checkSeries('PO')).toBeUndefined();
    expect(checkSeries('A')).toBeUndefined();
    expect(checkSeries('PARIS7')).toBeUndefined();
    expect(checkSeries('2026')).toBeUndefined();
    expect(checkSeries('PARIS75')).toContain('« PARIS75 »');
    expect(checkSeries('PO-1')).toContain('« PO-1 »');
    expect(checkSeries('ÉST')).toContain('« ÉST »');
    // Une minuscule n'arrive pas ici : `seriesOf` met la saisie en majuscules.
    expect(checkSeries('po')).toContain('« po »');
    expect(seriesOf(' po ')).toBe('PO');
    expect(seriesOf('pe7')).toBe('PE7');
    expect(seriesOf('   ')).toBeNull();
    // Les minuscules, les espaces autour : acceptées (le serveur fait de même) ; vide : rien à redire.
    expect(checkIdentity({ ...typed(), invoiceSeries: ' px ' })).toEqual({});
    expect(checkIdentity({ ...typed(), invoiceSeries: '  ' })).toEqual({});
  });

  it('e-mail : la règle du serveur', () => {
    expect(isEmail('contact@ascenseurs-durand.fr')).toBe(true);
    expect(isEmail('contact@localhost')).toBe(false);
    expect(isEmail('@durand.fr')).toBe(false);
    expect(isEmail('contact@.durand.fr')).toBe(false);
    expect(isEmail('contact@durand.fr.')).toBe(false);
    expect(isEmail('con tact@durand.fr')).toBe(false);
  });

  it('met en forme comme le serveur', () => {
    expect(groupSiren('732829320')).toBe('732 829 320');
    expect(groupByFour('FR7630006000011234567890189')).toBe('FR76 3000 6000 0112 3456 7890 189');
    expect(compact(' 732.829-320 00074 ')).toBe('73282932000074');
    expect(compact('  ')).toBeNull();
  });
});

describe('identité : formulaire et corps envoyé', () => {
  it('lit le capital en euros à la française', () => {
    expect(parseCapital('150 000')).toBe(150000);
    expect(parseCapital('150\u202f000,50 €')).toBe(150000.5);
    expect(parseCapital('')).toBeNull();
    expect(parseCapital('  ')).toBeNull();
    expect(parseCapital('abc')).toBeNaN();
    expect(parseCapital(formatCapital(1234567.5))).toBe(1234567.5);
    expect(formatCapital(null)).toBe('');
    expect(formatCapital(150000)).toBe('150\u202f000');
    expect(formatCapital(1500.5)).toBe('1\u202f500,50');
  });

  it('aller-retour : l’identité enregistrée, le formulaire, le corps du PUT', () => {
    const form = formOf(recorded());
    expect(form.headOfficeAddress).toBe('');
    expect(form.headOfficePostalCode).toBe('');
    expect([form.address, form.addressComplement, form.postalCode, form.city]).toEqual([
      '12 rue de la Part-Dieu',
      'Bâtiment B',
      '69003',
      'Lyon',
    ]);
    expect(form.vatOnDebits).toBe(false);
    expect(wireOf(form)).toEqual({ ...recorded(), vatOnDebits: false });
  });

  it('une rue écrite avant sur plusieurs lignes tient sur une ligne, comme le serveur la joint', () => {
    expect(oneLine('Lieu-dit Les Granges\r\n\n  Route de Vienne  ')).toBe('Lieu-dit Les Granges, Route de Vienne');
    expect(oneLine('  12 rue de la Paix ')).toBe('12 rue de la Paix');
    expect(oneLine('\n \n')).toBe('');
    expect(formOf({ ...recorded(), address: 'Lieu-dit Les Granges\nRoute de Vienne', postalCode: null }).address).toBe(
      'Lieu-dit Les Granges, Route de Vienne',
    );
  });

  it('envoie toutes les parties d’une adresse : la rue seule, code postal et ville vides, est découpée par le serveur', () => {
    const wire = wireOf(typed());
    expect([wire.address, wire.addressComplement, wire.postalCode, wire.city]).toEqual([
      '12 rue de la Part-Dieu, 69003 Lyon',
      'Tour Part-Dieu, 20e étage',
      null,
      null,
    ]);
    // Le code postal part tel que tapé : le serveur retire les espaces.
    expect([wire.headOfficeAddress, wire.headOfficeComplement, wire.headOfficePostalCode, wire.headOfficeCity]).toEqual([
      ' 3 quai Saint-Antoine ',
      null,
      '69 002',
      'Lyon',
    ]);
  });

  it('envoie chaque champ : vide → null, le capital en nombre', () => {
    const wire = wireOf({ ...typed(), legalName: '   ', shareCapital: '' });
    expect(wire.legalName).toBeNull();
    expect(wire.shareCapital).toBeNull();
    expect(wire.vatOnDebits).toBe(true);
    expect(wire.siret).toBe('732 829 320 00074');
    // La série part rognée, en majuscules ; vide → null.
    expect(wire.invoiceSeries).toBe('PO');
    // L'adresse de facturation électronique part telle que tapée (le serveur la rogne et la vérifie) ; vide → null.
    expect(wire.electronicAddress).toBe(' 732829320_LYON ');
    expect(wireOf({ ...typed(), electronicAddress: '  ' }).electronicAddress).toBeNull();
    expect(wireOf({ ...typed(), invoiceSeries: ' ' }).invoiceSeries).toBeNull();
    expect(Object.keys(wire).sort()).toEqual([...Object.keys(FIELD_LABELS), 'vatOnDebits'].sort());
    expect(wireOf(typed()).shareCapital).toBe(50000);
  });
});

describe('identité : refus du serveur', () => {
  it('trouve le champ nommé et garde la raison', () => {
    expect(refusalOf('Champ « siret » : Le SIRET doit comporter exactement 14 chiffres.')).toEqual({
      field: 'siret',
      message: 'Le SIRET doit comporter exactement 14 chiffres.',
    });
    expect(refusalOf('Le champ « legalForm » ne doit pas dépasser 60 caractères.')).toEqual({
      field: 'legalForm',
      message: 'Le champ « Forme juridique » ne doit pas dépasser 60 caractères.',
    });
    expect(refusalOf("Le champ « insuranceArea » ne doit pas contenir de caractère de contrôle.")).toEqual({
      field: 'insuranceArea',
      message: 'Le champ « Couverture géographique » ne doit pas contenir de caractère de contrôle.',
    });
  });

  it('les parties des adresses : par leur nom, ou le code postal par son libellé', () => {
    expect(refusalOf("Le champ « addressComplement » ne doit pas dépasser 120 caractères.")).toEqual({
      field: 'addressComplement',
      message: "Le champ « Complément d'adresse de l'agence » ne doit pas dépasser 120 caractères.",
    });
    expect(refusalOf('Le champ « headOfficeCity » ne doit pas dépasser 100 caractères.')).toEqual({
      field: 'headOfficeCity',
      message: 'Le champ « Ville du siège » ne doit pas dépasser 100 caractères.',
    });
    const agency =
      "Le champ « Code postal de l'agence » doit être un code postal français de cinq chiffres : « 6900 » n'en est pas un.";
    expect(refusalOf(agency)).toEqual({ field: 'postalCode', message: agency });
    const headOffice =
      "Le champ « Code postal du siège » doit être un code postal français de cinq chiffres : « 6900 » n'en est pas un.";
    expect(refusalOf(headOffice)).toEqual({ field: 'headOfficePostalCode', message: headOffice });
    expect(refusalOf('Le champ « Code postal » doit être un code postal français de cinq chiffres.')).toBeNull();
  });

  it('l’adresse de facturation électronique : le refus du serveur sous son champ', () => {
    const reason =
      "L'adresse de facturation électronique « 404833048 » doit commencer par le SIREN 732829320 (annuaire de la facturation électronique).";
    expect(refusalOf(`Champ « electronicAddress » : ${reason}`)).toEqual({ field: 'electronicAddress', message: reason });
    expect(FIELD_LABELS.electronicAddress).toBe('Adresse de facturation électronique');
  });

  it('la série : forme, celle d’une autre agence, figée une fois une pièce numérotée', () => {
    const malformed =
      "La série de numérotation compte de 1 à 6 lettres sans accent ou chiffres, par exemple « PO » : « P O! » n'en est pas une.";
    expect(refusalOf(`Champ « invoiceSeries » : ${malformed}`)).toEqual({ field: 'invoiceSeries', message: malformed });
    // Ces deux raisons suivent « : » sans majuscule ; sous le champ, elles sont des phrases.
    const taken =
      "série « PE » est déjà celle de l'agence « Agence Paris Est » : chaque agence de l'organisation numérote ses pièces dans sa propre série.";
    expect(refusalOf(`Champ « invoiceSeries » : la ${taken}`)).toEqual({ field: 'invoiceSeries', message: `La ${taken}` });
    const fixed =
      'factures ou avoirs sont déjà numérotés dans la série « PO » : elle ne change plus (les numéros se suivent dans leur série).';
    expect(refusalOf(`Champ « invoiceSeries » : des ${fixed}`)).toEqual({ field: 'invoiceSeries', message: `Des ${fixed}` });
    expect(FIELD_LABELS.invoiceSeries).toBe('Série de numérotation des factures');
    // Sous le n° de TVA, dans l'ordre du formulaire.
    expect(FIELD_ORDER.indexOf('invoiceSeries')).toBe(FIELD_ORDER.indexOf('vatNumber') + 1);
  });

  it('ne nomme rien pour les autres refus', () => {
    expect(refusalOf("Modifier l'identité de l'agence est réservé à un administrateur de l'agence.")).toBeNull();
    expect(refusalOf('Champ « inconnu » : raison.')).toBeNull();
    expect(refusalOf('Le champ « vatOnDebits » est obligatoire.')).toBeNull();
  });

  it('annonce ce qui manque pour émettre et les mentions conseillées', () => {
    expect(issueBlockedMessage(['SIRET', "Adresse de l'agence"])).toBe(
      "Les factures et avoirs ne peuvent pas être émis tant que les champs « SIRET » et « Adresse de l'agence » ne sont pas renseignés.",
    );
    expect(issueBlockedMessage(['SIRET'])).toBe(
      "Les factures et avoirs ne peuvent pas être émis tant que le champ « SIRET » n'est pas renseigné.",
    );
    expect(
      missingMentionsMessage([
        { field: 'legalForm', label: 'Forme juridique' },
        { field: 'shareCapital', label: 'Capital social' },
      ]),
    ).toBe('Mentions conseillées non renseignées : Forme juridique, Capital social.');
    // Le n° de TVA est exigé pour émettre toute pièce (bandeau `missingToIssue`) : plus de note « seules les pièces sans TVA ».
    expect(issueBlockedMessage(['N° de TVA intracommunautaire'])).toBe(
      "Les factures et avoirs ne peuvent pas être émis tant que le champ « N° de TVA intracommunautaire » n'est pas renseigné.",
    );
    expect(missingMentionsMessage([{ field: 'insurer', label: 'Assureur' }])).toBe(
      'Mentions conseillées non renseignées : Assureur.',
    );
    expect(missingMentionsMessage([{ field: 'vatNumber', label: 'N° de TVA intracommunautaire' }])).not.toMatch(
      /sans TVA/u,
    );
  });
});

describe('identité : logo', () => {
  it('refuse avant l’envoi ce que le serveur refuserait', () => {
    expect(logoProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(logoProblem({ type: 'image/jpeg', size: 1024 * 1024 })).toBeNull();
    expect(logoProblem({ type: 'image/gif', size: 1000 })).toBe('Le logo doit être une image PNG ou JPEG.');
    expect(logoProblem({ type: 'image/png', size: 0 })).toBe('Le logo est vide : choisissez une image PNG ou JPEG.');
    expect(logoProblem({ type: 'image/png', size: 1024 * 1024 + 1 })).toBe(
      'Le logo dépasse la taille maximale acceptée (1024 Kio) : enregistrez-le plus petit (PNG ou JPEG).',
    );
  });

  it("change d'adresse à chaque version", () => {
    expect(logoUrl('2026-11-25T09:30:00.123Z')).toBe('/app/api/agency/identity/logo?v=2026-11-25T09%3A30%3A00.123Z-0');
    expect(logoUrl('2026-11-25T09:30:00.123Z', 2)).not.toBe(logoUrl('2026-11-25T09:30:00.123Z', 1));
    expect(logoUrl(null)).toBe('/app/api/agency/identity/logo?v=-0');
  });
});

describe('identité : appels à l’API', () => {
  const seen = recordRequests();

  it('lit, enregistre, envoie et retire le logo', async () => {
    await getIdentity();
    await saveIdentity(recorded());
    await uploadLogo('iVBORw0KGgo=');
    await uploadLogoFile(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])]));
    await removeLogo();
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['GET', '/app/api/agency/identity'],
      ['PUT', '/app/api/agency/identity'],
      ['PUT', '/app/api/agency/identity/logo'],
      ['PUT', '/app/api/agency/identity/logo'],
      ['DELETE', '/app/api/agency/identity/logo'],
    ]);
    expect(JSON.parse(seen[1]!.body!)).toEqual(recorded());
    expect(JSON.parse(seen[2]!.body!)).toEqual({ content: 'iVBORw0KGgo=' });
    expect(JSON.parse(seen[3]!.body!)).toEqual({ content: 'iVBORw==' });
    expect(seen[4]!.body).toBeUndefined();
  });
});
