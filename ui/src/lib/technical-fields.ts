/**
 * Le catalogue des données techniques de l'agence (`GET /app/api/technical-fields`,
 * tout le personnel) : chaque donnée par son code, son nom, son unité, son
 * genre de valeur, ses choix et son composant. Le journal s'en sert pour
 * nommer les données changées (`charge_utile` → « Charge utile ») ; la
 * fiche d'un équipement a déjà les siennes (`technicalLabels` dans
 * `equipment.ts`).
 */
import { api } from './api';
import type { TechnicalField, TechnicalFieldsAnswer } from './generated/contract';

// La réponse vient du serveur : `generated/contract.ts` est généré depuis le code Rust.
// (`TechnicalField` d'`equipment.ts` est autre chose : une donnée d'une fiche, avec sa valeur.)
export type { TechnicalFieldsAnswer } from './generated/contract';
/** Une donnée du catalogue : code, nom, unité, genre de valeur, choix, composant. */
export type CatalogueField = TechnicalField;

export const TECHNICAL_FIELDS_PATH = '/app/api/technical-fields';

/** `GET /technical-fields` : tout le catalogue de l'agence. */
export function listTechnicalFields(signal?: AbortSignal): Promise<TechnicalFieldsAnswer> {
  return api.get<TechnicalFieldsAnswer>(TECHNICAL_FIELDS_PATH, { signal });
}

/**
 * Les noms du catalogue par code (`charge_utile` → « Charge utile ») ; un
 * code sans nom (vide) n'y figure pas, pour que le journal garde le sien.
 */
export function catalogueLabels(fields: readonly Pick<CatalogueField, 'code' | 'label'>[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const field of fields) {
    const label = field.label?.trim();
    if (field.code && label) labels[field.code] = label;
  }
  return labels;
}

/**
 * Les noms du catalogue, lus une fois ; un catalogue illisible (réseau,
 * refus) donne des noms vides : le journal garde alors ses propres noms.
 */
export async function loadCatalogueLabels(signal?: AbortSignal): Promise<Record<string, string>> {
  try {
    return catalogueLabels((await listTechnicalFields(signal)).results ?? []);
  } catch {
    return {};
  }
}
