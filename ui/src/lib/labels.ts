/**
 * Les codes de l'API rendus en français, en un seul endroit : les valeurs
 * codées que l'écran montre (type d'équipement, contrat, statuts, natures,
 * origines, rôles…) et les valeurs de choix du catalogue technique dont
 * l'écriture lue diffère de la valeur envoyée (`Electrique` → « Électrique »).
 * L'API garde ses codes : seul ce qui se lit change, la valeur envoyée reste
 * le code. Les noms des champs du journal sont dans `journal.ts`
 * (`FIELD_LABELS`), ceux de l'import viennent du serveur (`fields[].label`).
 */
import {
  CALL_STATUSES,
  CALL_TYPES,
  INVOICE_NATURES,
  INVOICE_STATUSES,
  QUOTE_ORIGINS,
  QUOTE_STATUSES,
  SURVEY_STATUSES,
  VISIT_STATUSES,
} from './generated/contract';
import { ROLE_LABELS } from './people';

/** Un code et son nom. */
export interface Coded {
  code: string;
  label: string;
}

/** Types d'équipement (codes du serveur) et leur nom. */
export const EQUIPMENT_TYPES: Coded[] = [
  { code: 'ascenseur', label: 'Ascenseur' },
  { code: 'monte_charge', label: 'Monte-charge' },
  { code: 'monte_voiture', label: 'Monte-voiture' },
  { code: 'elevateur', label: 'Élévateur' },
  { code: 'porte_fermeture', label: 'Porte ou fermeture automatique' },
];

/** Contrats d'entretien (codes du serveur) et leur nom. */
export const CONTRACTS: Coded[] = [
  { code: 'parc', label: 'Sous contrat (parc)' },
  { code: 'hors_parc', label: 'Hors parc' },
];

/**
 * Les valeurs de choix du catalogue technique écrites autrement à l'écran :
 * la valeur envoyée à l'API → ce qui se lit. Les autres se lisent telles quelles.
 */
export const CHOICE_LABELS: Readonly<Record<string, string>> = {
  Electrique: 'Électrique',
};

/** Une valeur de choix du catalogue telle qu'elle se lit : `Electrique` → « Électrique ». */
export function choiceLabel(value: string): string {
  return Object.hasOwn(CHOICE_LABELS, value) ? (CHOICE_LABELS[value] as string) : value;
}

/** Le nom d'un type d'équipement ; un code inconnu reste tel quel. */
export function equipmentTypeLabel(code: string): string {
  return EQUIPMENT_TYPES.find((t) => t.code === code)?.label ?? code;
}

/** D'où un relevé a été ouvert (`via` du journal). */
const VIA: Coded[] = [{ code: 'open_app', label: "Application mobile d'un partenaire" }];

/** Les statuts de chaque genre d'objet (`objectType` du journal). */
const STATUSES_BY_OBJECT: Readonly<Record<string, readonly Coded[]>> = {
  call: CALL_STATUSES,
  survey: SURVEY_STATUSES,
  quote: QUOTE_STATUSES,
  invoice: INVOICE_STATUSES,
  visit: VISIT_STATUSES,
};

/** Les champs dont la valeur est un statut de l'objet. */
const STATUS_FIELDS = new Set(['from', 'to', 'status', 'statut']);

/** Les codes d'un champ qui ne dépendent pas du genre d'objet. */
const VALUES_BY_FIELD: Readonly<Record<string, readonly Coded[]>> = {
  maintenanceContract: CONTRACTS,
  nature: INVOICE_NATURES,
  origin: QUOTE_ORIGINS,
  role: Object.entries(ROLE_LABELS).map(([code, label]) => ({ code, label })),
  via: VIA,
};

/** La table des codes d'un champ pour un genre d'objet, s'il en a une. */
function codesOf(field: string, objectType: string): readonly Coded[] | undefined {
  if (STATUS_FIELDS.has(field)) return STATUSES_BY_OBJECT[objectType];
  if (field === 'type') {
    if (objectType === 'call') return CALL_TYPES;
    if (objectType === 'equipment') return EQUIPMENT_TYPES;
    return undefined;
  }
  return VALUES_BY_FIELD[field];
}

/**
 * Une valeur d'un champ telle qu'elle se lit : le nom de son code quand le
 * champ en a (« monte_charge » → « Monte-charge » pour le type d'un
 * équipement, « a_realiser » → « À réaliser » pour le statut d'un relevé),
 * sinon la valeur de choix (« Électrique »), sinon la valeur elle-même.
 */
export function valueLabel(field: string, value: string, objectType = ''): string {
  const found = codesOf(field, objectType)?.find((c) => c.code === value);
  return found ? found.label : choiceLabel(value);
}
