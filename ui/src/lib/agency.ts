/**
 * Écran « Agence », rubrique « Identité » : l'identité de l'agence comme
 * vendeur, imprimée sur ses devis, factures et avoirs, et son logo. Types de
 * l'API (`/app/api/agency/identity…`), formulaire ↔ corps de `PUT`,
 * vérifications côté client avec les règles et les messages du serveur
 * (`liftdesk-domain/src/identity.rs`, `siren.rs`, `text.rs`, `address.rs`),
 * lecture des refus du serveur qui nomment un champ, et les appels à l'API.
 * Les deux adresses (l'agence, le siège social) sont en parties, comme celles
 * des clients : rue, complément, code postal et ville. La série de
 * numérotation des factures (« PO » : `FA-PO-2026-000001`) est propre à
 * l'agence dans l'organisation, et figée dès qu'une pièce y est numérotée
 * (ces deux refus viennent du serveur seul). L'adresse de facturation
 * électronique de l'agence commence par son SIREN (vide : le SIREN) ; elle
 * est contrôlée par le serveur, dont le refus s'affiche sous le champ. Le
 * n° de TVA intracommunautaire est exigé pour émettre toute pièce.
 */
import { phoneReason } from './validation';
import { api } from './api';
import type { IdentityAnswer, IdentityWire } from './generated/contract';
import { toBase64 } from './imports';

// Les réponses viennent du serveur : `generated/contract.ts` est généré depuis le code Rust.
export type { IdentityAnswer, IdentityFieldWire, IdentityWire, LogoWire } from './generated/contract';

export const IDENTITY_PATH = '/app/api/agency/identity';
export const LOGO_PATH = '/app/api/agency/identity/logo';

// -- Appels à l'API ---------------------------------------------------------------

/** `GET /agency/identity` : l'identité de l'agence active, ce qui manque, et si la session peut la modifier. */
export function getIdentity(): Promise<IdentityAnswer> {
  return api.get<IdentityAnswer>(IDENTITY_PATH);
}

/** `PUT /agency/identity` : remplace toute l'identité (un champ vide l'efface) ; la vue relue. */
export function saveIdentity(identity: IdentityWire): Promise<IdentityAnswer> {
  return api.put<IdentityAnswer>(IDENTITY_PATH, identity);
}

/** `PUT /agency/identity/logo` : le logo (PNG ou JPEG), son contenu en base64. */
export function uploadLogo(content: string): Promise<IdentityAnswer> {
  return api.put<IdentityAnswer>(LOGO_PATH, { content });
}

/** `PUT /agency/identity/logo` avec le fichier choisi. */
export async function uploadLogoFile(file: Blob): Promise<IdentityAnswer> {
  return uploadLogo(toBase64(new Uint8Array(await file.arrayBuffer())));
}

/** `DELETE /agency/identity/logo` : retire le logo. */
export function removeLogo(): Promise<IdentityAnswer> {
  return api.delete<IdentityAnswer>(LOGO_PATH);
}

/** L'adresse de l'image du logo, changée à chaque version de l'identité (le navigateur ne garde pas l'ancien). */
export function logoUrl(updatedAt: string | null, revision = 0): string {
  const version = `${updatedAt ?? ''}-${revision}`;
  return `${LOGO_PATH}?v=${encodeURIComponent(version)}`;
}

/** Le logo accepté par le serveur : 1 Mio au plus (`LOGO_MAX_BYTES`). */
export const LOGO_MAX_BYTES = 1024 * 1024;

/** La raison d'un refus du logo avant l'envoi (mêmes messages que le serveur), ou `null`. */
export function logoProblem(file: { type: string; size: number }): string | null {
  if (file.size === 0) return 'Le logo est vide : choisissez une image PNG ou JPEG.';
  if (file.type !== '' && file.type !== 'image/png' && file.type !== 'image/jpeg') {
    return 'Le logo doit être une image PNG ou JPEG.';
  }
  if (file.size > LOGO_MAX_BYTES) {
    return `Le logo dépasse la taille maximale acceptée (${LOGO_MAX_BYTES / 1024} Kio) : enregistrez-le plus petit (PNG ou JPEG).`;
  }
  return null;
}

// -- Champs ---------------------------------------------------------------------

/** Les champs texte de l'identité, par leur nom dans `identity` (celui des refus du serveur). */
export type IdentityField = Exclude<keyof IdentityWire, 'vatOnDebits'>;

/** Libellés des champs, ceux du serveur (`IdentityField::label`). */
export const FIELD_LABELS: Record<IdentityField, string> = {
  legalName: 'Raison sociale',
  legalForm: 'Forme juridique',
  shareCapital: 'Capital social',
  rcsCity: 'Ville du RCS',
  siret: 'SIRET',
  vatNumber: 'N° de TVA intracommunautaire',
  headOfficeAddress: 'Adresse du siège social',
  headOfficeComplement: "Complément d'adresse du siège",
  headOfficePostalCode: 'Code postal du siège',
  headOfficeCity: 'Ville du siège',
  address: "Adresse de l'agence",
  addressComplement: "Complément d'adresse de l'agence",
  postalCode: "Code postal de l'agence",
  city: "Ville de l'agence",
  phone: 'Téléphone',
  email: 'E-mail',
  iban: 'IBAN',
  bic: 'BIC',
  insurer: 'Assureur',
  insurancePolicy: "N° de police d'assurance",
  insuranceArea: 'Couverture géographique',
  invoiceSeries: 'Série de numérotation des factures',
  electronicAddress: 'Adresse de facturation électronique',
};

/** Dans l'ordre du formulaire (la première erreur reçoit le focus). */
export const FIELD_ORDER: IdentityField[] = [
  'legalName',
  'legalForm',
  'shareCapital',
  'rcsCity',
  'siret',
  'vatNumber',
  'invoiceSeries',
  'electronicAddress',
  'address',
  'addressComplement',
  'postalCode',
  'city',
  'headOfficeAddress',
  'headOfficeComplement',
  'headOfficePostalCode',
  'headOfficeCity',
  'phone',
  'email',
  'iban',
  'bic',
  'insurer',
  'insurancePolicy',
  'insuranceArea',
];

/** Formes juridiques proposées (la saisie reste libre). */
export const LEGAL_FORMS = ['SAS', 'SASU', 'SARL', 'EURL', 'SA', 'SNC', 'SCOP', 'EI'] as const;

/** Longueurs maximales du serveur (`MAX_…_CHARS`), en caractères. */
export const MAX_CHARS = {
  legalName: 120,
  legalForm: 60,
  rcsCity: 60,
  /** La rue d'une adresse (agence ou siège). */
  address: 300,
  /** Le complément d'une adresse (bâtiment, CS…). */
  complement: 120,
  /** La ville d'une adresse. */
  city: 100,
  phone: 30,
  email: 254,
  insurer: 200,
  insurancePolicy: 60,
  insuranceArea: 120,
} as const;

/** Longueur maximale de la série de numérotation (« PO » dans `FA-PO-2026-000001`), `MAX_SERIES_CHARS`. */
export const MAX_SERIES_CHARS = 6;

/** Capital social maximal : 10 milliards d'euros. */
export const MAX_SHARE_CAPITAL = 10_000_000_000;

export function isIdentityField(name: string): name is IdentityField {
  return Object.hasOwn(FIELD_LABELS, name);
}

// -- Formulaire -------------------------------------------------------------------

/** Le formulaire tel que saisi : des textes (le capital aussi), la case à cocher. */
export type IdentityForm = Record<IdentityField, string> & { vatOnDebits: boolean };

export type IdentityErrors = Partial<Record<IdentityField, string>>;

const WHOLE_EUROS = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });
const EUROS_AND_CENTS = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `150000` → `150 000` ; `1500.5` → `1 500,50` (espaces fines insécables, comme `Intl`). */
export function formatCapital(euros: number | null): string {
  if (euros === null) return '';
  return (Number.isInteger(euros) ? WHOLE_EUROS : EUROS_AND_CENTS).format(euros);
}

/** Les deux adresses de l'identité, chacune en parties : rue, complément, code postal, ville. */
export const ADDRESS_PARTS = {
  agency: { street: 'address', complement: 'addressComplement', postalCode: 'postalCode', city: 'city' },
  headOffice: {
    street: 'headOfficeAddress',
    complement: 'headOfficeComplement',
    postalCode: 'headOfficePostalCode',
    city: 'headOfficeCity',
  },
} as const satisfies Record<string, Record<'street' | 'complement' | 'postalCode' | 'city', IdentityField>>;

/**
 * Une rue sur une ligne, comme le serveur l'enregistre : les lignes d'une
 * adresse écrite avant (« 12 rue X\nBâtiment B ») rognées, les vides
 * retirées, jointes par « , » (un champ d'une ligne perdrait les sauts).
 */
export function oneLine(value: string): string {
  return value
    .split('\n')
    .map((line) => line.replace(/\r$/u, '').trim())
    .filter((line) => line !== '')
    .join(', ');
}

/** Le formulaire d'une identité enregistrée. */
export function formOf(identity: IdentityWire): IdentityForm {
  const text = (value: string | null) => value ?? '';
  return {
    legalName: text(identity.legalName),
    legalForm: text(identity.legalForm),
    shareCapital: formatCapital(identity.shareCapital),
    rcsCity: text(identity.rcsCity),
    siret: text(identity.siret),
    vatNumber: text(identity.vatNumber),
    headOfficeAddress: oneLine(text(identity.headOfficeAddress)),
    headOfficeComplement: text(identity.headOfficeComplement),
    headOfficePostalCode: text(identity.headOfficePostalCode),
    headOfficeCity: text(identity.headOfficeCity),
    address: oneLine(text(identity.address)),
    addressComplement: text(identity.addressComplement),
    postalCode: text(identity.postalCode),
    city: text(identity.city),
    phone: text(identity.phone),
    email: text(identity.email),
    iban: text(identity.iban),
    bic: text(identity.bic),
    insurer: text(identity.insurer),
    insurancePolicy: text(identity.insurancePolicy),
    insuranceArea: text(identity.insuranceArea),
    invoiceSeries: text(identity.invoiceSeries),
    electronicAddress: text(identity.electronicAddress),
    vatOnDebits: identity.vatOnDebits,
  };
}

/**
 * Le capital saisi en euros (`150 000`, `150000,50`, `1 500 €`) ; `null` s'il
 * est vide ; `NaN` s'il n'est pas un nombre (refusé par `checkIdentity`).
 */
export function parseCapital(raw: string): number | null {
  const text = raw.replace(/[\s€]/gu, '').replace(',', '.');
  if (text === '') return null;
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return Number.NaN;
  return Number(text);
}

/** La série saisie telle que le serveur l'enregistre : rognée, en majuscules ; vide → `null`. */
export function seriesOf(raw: string): string | null {
  const series = raw.trim().toUpperCase();
  return series === '' ? null : series;
}

/**
 * Le corps de `PUT /agency/identity` : chaque champ, vide → `null` (le serveur
 * rogne et vérifie). Les parties d'une adresse partent toutes : une rue seule
 * (code postal et ville vides) qui se lit « 12 rue de la Part-Dieu, 69003
 * Lyon » est découpée par le serveur.
 */
export function wireOf(form: IdentityForm): IdentityWire {
  const text = (value: string) => (value.trim() === '' ? null : value);
  const capital = parseCapital(form.shareCapital);
  return {
    legalName: text(form.legalName),
    legalForm: text(form.legalForm),
    shareCapital: capital === null || Number.isNaN(capital) ? null : capital,
    rcsCity: text(form.rcsCity),
    siret: text(form.siret),
    vatNumber: text(form.vatNumber),
    headOfficeAddress: text(form.headOfficeAddress),
    headOfficeComplement: text(form.headOfficeComplement),
    headOfficePostalCode: text(form.headOfficePostalCode),
    headOfficeCity: text(form.headOfficeCity),
    address: text(form.address),
    addressComplement: text(form.addressComplement),
    postalCode: text(form.postalCode),
    city: text(form.city),
    phone: text(form.phone),
    email: text(form.email),
    iban: text(form.iban),
    bic: text(form.bic),
    insurer: text(form.insurer),
    insurancePolicy: text(form.insurancePolicy),
    insuranceArea: text(form.insuranceArea),
    invoiceSeries: seriesOf(form.invoiceSeries),
    electronicAddress: text(form.electronicAddress),
    vatOnDebits: form.vatOnDebits,
  };
}

// -- Vérifications (celles du serveur, mêmes messages) ----------------------------

/** Un identifiant tel que saisi, sans espaces, points ni tirets ; vide → `null`. */
export function compact(value: string): string | null {
  const compacted = value.replace(/[\s.-]/gu, '');
  return compacted === '' ? null : compacted;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;

function chars(text: string): number {
  return [...text].length;
}

/** Un texte libre : rogné ; trop long ou un caractère de contrôle → la raison (`text::field`). */
function freeText(field: IdentityField, value: string, max: number): string | undefined {
  const text = value.trim();
  if (text === '') return undefined;
  if (chars(text) > max) return `Le champ « ${field} » ne doit pas dépasser ${max} caractères.`;
  if (CONTROL.test(text)) return `Le champ « ${field} » ne doit pas contenir de caractère de contrôle.`;
  return undefined;
}

/**
 * Un code postal français (`address::check_postal_code`) : cinq chiffres, les
 * espaces acceptées (« 69 003 ») ; la phrase du serveur, le champ nommé par
 * son libellé. Vide : rien à redire.
 */
export function postalCodeReason(label: string, value: string): string | undefined {
  const code = value.trim();
  if (code === '' || /^[0-9]{5}$/u.test(code.replace(/\s/gu, ''))) return undefined;
  return `Le champ « ${label} » doit être un code postal français de cinq chiffres : « ${code} » n'en est pas un.`;
}

/** Les refus d'une adresse en parties : la rue (sur une ligne), le complément, le code postal, la ville. */
function addressReasons(
  parts: (typeof ADDRESS_PARTS)[keyof typeof ADDRESS_PARTS],
  form: IdentityForm,
  put: (field: IdentityField, reason: string | undefined) => void,
): void {
  put(parts.street, freeText(parts.street, oneLine(form[parts.street]), MAX_CHARS.address));
  put(parts.complement, freeText(parts.complement, form[parts.complement], MAX_CHARS.complement));
  put(parts.postalCode, postalCodeReason(FIELD_LABELS[parts.postalCode], form[parts.postalCode]));
  put(parts.city, freeText(parts.city, form[parts.city], MAX_CHARS.city));
}

function luhnSum(digits: string): number {
  let sum = 0;
  [...digits].reverse().forEach((c, position) => {
    const digit = c.charCodeAt(0) - 48;
    if (position % 2 === 1) {
      const doubled = digit * 2;
      sum += doubled > 9 ? doubled - 9 : doubled;
    } else {
      sum += digit;
    }
  });
  return sum;
}

const passesLuhn = (digits: string) => luhnSum(digits) % 10 === 0;

const LA_POSTE_SIREN = '356000000';
const LA_POSTE_HEAD_OFFICE_SIRET = '35600000000048';

/** Un SIREN : 9 chiffres, clé de Luhn. */
export function checkSiren(siren: string): string | undefined {
  if (!/^\d{9}$/.test(siren)) return 'Le SIREN doit comporter exactement 9 chiffres.';
  if (!passesLuhn(siren)) return "Le SIREN n'est pas valide (clé de contrôle incorrecte).";
  return undefined;
}

/** Un SIRET sans espaces : 14 chiffres, clé de Luhn (et celle du SIREN) ; La Poste à part. */
export function checkSiret(siret: string): string | undefined {
  if (!/^\d{14}$/.test(siret)) return 'Le SIRET doit comporter exactement 14 chiffres.';
  const valid =
    siret.startsWith(LA_POSTE_SIREN) && siret !== LA_POSTE_HEAD_OFFICE_SIRET
      ? [...siret].reduce((sum, c) => sum + Number(c), 0) % 5 === 0
      : passesLuhn(siret) && passesLuhn(siret.slice(0, 9));
  return valid ? undefined : "Le SIRET n'est pas valide (clé de contrôle incorrecte).";
}

/** Le SIREN du SIRET saisi (ses 9 premiers chiffres) quand il est valable, sinon `null`. */
export function sirenOf(siret: string): string | null {
  const compacted = compact(siret);
  if (compacted === null || checkSiret(compacted)) return null;
  return compacted.slice(0, 9);
}

/** La clé d'un numéro de TVA français pour un SIREN : (12 + 3 × (SIREN mod 97)) mod 97. */
export function vatKey(siren: string): number {
  const value = Number(siren);
  return (12 + 3 * (value % 97)) % 97;
}

/** `732829320` → `732 829 320`. */
export function groupSiren(siren: string): string {
  return /^\d{9}$/.test(siren) ? `${siren.slice(0, 3)} ${siren.slice(3, 6)} ${siren.slice(6)}` : siren;
}

/** `FR7630006000011234567890189` → `FR76 3000 6000 0112 3456 7890 189`. */
export function groupByFour(text: string): string {
  return (text.match(/.{1,4}/gsu) ?? []).join(' ');
}

/** Un numéro de TVA français sans espaces, en majuscules ; `ownSiren` : celui du SIRET de l'agence. */
export function checkVatNumber(vat: string, ownSiren: string | null): string | undefined {
  const shape =
    "Le numéro de TVA intracommunautaire français s'écrit FR, une clé de 2 chiffres et le SIREN (9 chiffres), par exemple FR44732829320.";
  if (!/^FR\d{11}$/.test(vat)) return shape;
  const key = vat.slice(2, 4);
  const siren = vat.slice(4);
  if (checkSiren(siren)) {
    return `Le SIREN « ${siren} » du numéro de TVA n'est pas valide (clé de contrôle incorrecte).`;
  }
  const expected = String(vatKey(siren)).padStart(2, '0');
  if (key !== expected) {
    return `La clé « ${key} » ne correspond pas au SIREN ${groupSiren(siren)} : le numéro de TVA est FR${expected}${siren}.`;
  }
  if (ownSiren !== null && ownSiren !== siren) {
    return `Le numéro de TVA est celui du SIREN ${groupSiren(siren)}, pas celui du SIRET de l'agence (${groupSiren(ownSiren)}).`;
  }
  return undefined;
}

/** Longueur de l'IBAN des pays les plus courants (SEPA) ; ailleurs de 15 à 34 caractères. */
const IBAN_LENGTHS: Record<string, number> = {
  FR: 27,
  MC: 27,
  BE: 16,
  LU: 20,
  DE: 22,
  CH: 21,
  IT: 27,
  ES: 24,
  PT: 25,
  NL: 18,
  AT: 20,
  IE: 22,
  GB: 22,
};

/** Un IBAN sans espaces, en majuscules (ISO 13616 : modulo 97). */
export function checkIban(iban: string): string | undefined {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]*$/.test(iban)) {
    return "L'IBAN commence par le code du pays (2 lettres) et 2 chiffres de contrôle, suivis du numéro de compte (lettres et chiffres), par exemple FR76 3000 6000 0112 3456 7890 189.";
  }
  // ISO 13616 : la clé va de 02 à 98.
  if (['00', '01', '99'].includes(iban.slice(2, 4))) {
    return `L'IBAN « ${groupByFour(iban)} » n'est pas valide (clé de contrôle incorrecte) : vérifiez-le sur votre RIB.`;
  }
  const country = iban.slice(0, 2);
  const length = IBAN_LENGTHS[country];
  const lengthOk = length !== undefined ? iban.length === length : iban.length >= 15 && iban.length <= 34;
  if (!lengthOk) return `L'IBAN « ${groupByFour(iban)} » n'a pas la longueur d'un IBAN ${country}.`;
  let remainder = 0;
  for (const c of iban.slice(4) + iban.slice(0, 4)) {
    const value = /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55;
    remainder = (remainder * (value >= 10 ? 100 : 10) + value) % 97;
  }
  if (remainder !== 1) {
    return `L'IBAN « ${groupByFour(iban)} » n'est pas valide (clé de contrôle incorrecte) : vérifiez-le sur votre RIB.`;
  }
  return undefined;
}

/** Un BIC sans espaces, en majuscules (ISO 9362). */
export function checkBic(bic: string): string | undefined {
  if (/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic)) return undefined;
  return `Le BIC « ${bic} » n'est pas valide : 8 ou 11 caractères, 4 lettres de la banque, 2 du pays, puis 2 (ou 5) lettres ou chiffres, par exemple BNPAFRPPXXX.`;
}

/**
 * Une série de numérotation rognée, en majuscules (`identity::check`) : de 1 à
 * 6 lettres sans accent ou chiffres. Le serveur refuse aussi celle d'une autre
 * agence de l'organisation, et tout changement une fois une pièce numérotée.
 */
export function checkSeries(series: string): string | undefined {
  if ([...series].length <= MAX_SERIES_CHARS && /^[A-Z0-9]+$/u.test(series)) return undefined;
  return `La série de numérotation compte de 1 à ${MAX_SERIES_CHARS} lettres sans accent ou chiffres, par exemple « PO » : « ${series} » n'en est pas une.`;
}

/** Une adresse e-mail comme Liftdesk l'accepte (`text::is_email`). */
export function isEmail(email: string): boolean {
  if (new TextEncoder().encode(email).length > 254 || /\s/u.test(email)) return false;
  const at = email.indexOf('@');
  if (at < 0) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  return local !== '' && domain.includes('.') && !domain.startsWith('.') && !domain.endsWith('.');
}

/** Le capital : un montant en euros, positif, au centime près, 10 milliards au plus. */
export function checkCapital(raw: string): string | undefined {
  const euros = parseCapital(raw);
  if (euros === null) return undefined;
  // Comme le serveur : le nombre tel que JSON l'écrit, deux décimales au plus (12,345 est une erreur de saisie).
  const written = String(Math.abs(euros));
  const exact = Number.isFinite(euros) && !/e/i.test(written) && (written.split('.')[1] ?? '').length <= 2;
  if (exact && euros >= 0 && euros <= MAX_SHARE_CAPITAL) return undefined;
  return "Le capital social est un montant en euros, positif, au centime près (10 milliards d'euros au plus).";
}

/**
 * Les refus du formulaire, champ par champ, avec les règles et les messages du
 * serveur (`identity::check`), tels que `refusalOf` les affiche : la raison,
 * sans le préfixe « Champ « x » : ». Un objet vide : le formulaire peut partir.
 */
export function checkIdentity(form: IdentityForm): IdentityErrors {
  const raw: Partial<Record<IdentityField, string>> = {};
  const put = (field: IdentityField, reason: string | undefined) => {
    if (reason) raw[field] = reason;
  };

  const siret = compact(form.siret);
  if (siret !== null) put('siret', checkSiret(siret));
  const vat = compact(form.vatNumber)?.toUpperCase() ?? null;
  if (vat !== null) put('vatNumber', checkVatNumber(vat, siret !== null && !raw.siret ? siret.slice(0, 9) : null));
  const iban = compact(form.iban)?.toUpperCase() ?? null;
  if (iban !== null) put('iban', checkIban(iban));
  const bic = compact(form.bic)?.toUpperCase() ?? null;
  if (bic !== null) put('bic', checkBic(bic));
  put('shareCapital', checkCapital(form.shareCapital));
  const series = seriesOf(form.invoiceSeries);
  if (series !== null) put('invoiceSeries', checkSeries(series));

  const phone = form.phone.trim();
  const badPhone = phone ? phoneReason('phone', phone) : undefined;
  put('phone', freeText('phone', form.phone, MAX_CHARS.phone) ?? (badPhone && displayReason('phone', badPhone)));
  const email = form.email.trim().toLowerCase();
  put(
    'email',
    freeText('email', form.email, MAX_CHARS.email) ??
      (email && !isEmail(email) ? `L'adresse e-mail « ${email} » n'est pas valide.` : undefined),
  );

  put('legalName', freeText('legalName', form.legalName, MAX_CHARS.legalName));
  put('legalForm', freeText('legalForm', form.legalForm, MAX_CHARS.legalForm));
  put('rcsCity', freeText('rcsCity', form.rcsCity, MAX_CHARS.rcsCity));
  addressReasons(ADDRESS_PARTS.headOffice, form, put);
  addressReasons(ADDRESS_PARTS.agency, form, put);
  put('insurer', freeText('insurer', form.insurer, MAX_CHARS.insurer));
  put('insurancePolicy', freeText('insurancePolicy', form.insurancePolicy, MAX_CHARS.insurancePolicy));
  put('insuranceArea', freeText('insuranceArea', form.insuranceArea, MAX_CHARS.insuranceArea));

  const errors: IdentityErrors = {};
  for (const field of FIELD_ORDER) {
    const reason = raw[field];
    if (reason) errors[field] = displayReason(field, reason);
  }
  return errors;
}

// -- Refus du serveur -------------------------------------------------------------

/** Un refus qui nomme un champ : le champ, et la raison à afficher à côté. */
export interface FieldRefusal {
  field: IdentityField;
  message: string;
}

/** La raison affichée à côté du champ : le nom technique du champ remplacé par son libellé. */
function displayReason(field: IdentityField, reason: string): string {
  return reason.replace(`« ${field} »`, `« ${FIELD_LABELS[field]} »`);
}

/** Le champ d'un nom du serveur : son nom technique (`legalForm`) ou son libellé (« Code postal de l'agence »). */
function fieldNamed(name: string): IdentityField | null {
  if (isIdentityField(name)) return name;
  return FIELD_ORDER.find((field) => FIELD_LABELS[field] === name) ?? null;
}

/** La raison écrite sous le champ commence par une majuscule (« des factures… » → « Des factures… »). */
function sentence(reason: string): string {
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

/**
 * Le champ que nomme un refus du serveur (422) : « Champ « siret » : raison »
 * → `{ field: 'siret', message: 'Raison' }` (en phrase : la série déjà prise
 * ou figée, « la série « PE » est déjà celle de… », commence sans majuscule
 * après « : ») ; « Le champ « legalForm » ne doit
 * pas dépasser 60 caractères. » → le message, avec le libellé du champ ; « Le
 * champ « Code postal de l'agence » doit être… » (le serveur nomme le code
 * postal par son libellé) → `postalCode`, le message tel quel.
 * `null` si le message ne nomme aucun champ de l'identité.
 */
export function refusalOf(message: string): FieldRefusal | null {
  const prefixed = /^Champ « ([A-Za-z]+) » : ([\s\S]+)$/u.exec(message);
  if (prefixed) {
    const [, field = '', reason = ''] = prefixed;
    return isIdentityField(field) ? { field, message: sentence(reason) } : null;
  }
  const named = /^Le champ « ([^«»]+?) » /u.exec(message);
  if (named) {
    const field = fieldNamed(named[1] ?? '');
    return field ? { field, message: displayReason(field, message) } : null;
  }
  return null;
}

/** `['SIRET', "Adresse de l'agence"]` → `« SIRET » et « Adresse de l'agence »`. */
export function quotedList(labels: string[]): string {
  const quoted = labels.map((label) => `« ${label} »`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} et ${quoted[quoted.length - 1]}`;
}

/** Le bandeau quand l'identité ne permet pas d'émettre : ce qui manque, par libellé. */
export function issueBlockedMessage(labels: string[]): string {
  return labels.length > 1
    ? `Les factures et avoirs ne peuvent pas être émis tant que les champs ${quotedList(labels)} ne sont pas renseignés.`
    : `Les factures et avoirs ne peuvent pas être émis tant que le champ ${quotedList(labels)} n'est pas renseigné.`;
}

/**
 * La note des mentions conseillées qui manquent (elles n'empêchent pas
 * d'émettre). Le numéro de TVA intracommunautaire n'en est plus : toute
 * facture électronique le porte, le serveur n'émet aucune pièce sans lui
 * (`missingToIssue`, le bandeau de `issueBlockedMessage`).
 */
export function missingMentionsMessage(missing: { field: string; label: string }[]): string {
  return `Mentions conseillées non renseignées : ${missing.map((m) => m.label).join(', ')}.`;
}
