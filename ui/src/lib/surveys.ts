/**
 * Écran Relevés : types des réponses de `/app/api/surveys…`, et validation
 * côté client avec les règles du serveur (`POST /surveys/{id}/submit` et
 * `POST /discrepancies`), pour ne rien envoyer que le serveur refuserait ;
 * et les appels à l'API des relevés et des écarts.
 */

import { api } from './api';
import { formatDay } from './format';
import { parseInput, validateSearch, type DatumValue } from './equipment';
import type { DiscrepancyView, FormComponent, JsonValue, ListRow, Paged, SurveyData as GeneratedSurveyData, SurveyDatum, SurveyDetail } from './generated/contract';

export { validateSearch };

// Les réponses viennent du serveur : `generated/contract.ts` est généré depuis le code Rust.
export type {
  EquipmentRef,
  FormComponent,
  FormField,
  Paged,
  SurveyDetail,
  SurveyRead,
} from './generated/contract';
export type SurveyRow = ListRow;
/** Une donnée de `GET /surveys/{id}/data`. */
export type Datum = SurveyDatum;

/**
 * La lecture REST `GET /surveys/{id}/data`.
 */
export type SurveyData = GeneratedSurveyData;

/**
 * Un écart constaté (`GET /surveys/{id}/discrepancies`, `DiscrepancyView` côté
 * serveur).
 */
export type Discrepancy = DiscrepancyView;

/** Paramètres de `GET /app/api/surveys` : une recherche vide est omise. */
export function surveyQuery(q: string, page: number, limit = 50): string {
  const params = new URLSearchParams();
  const text = q.trim();
  if (text) params.set('q', text);
  params.set('page', String(page));
  params.set('limit', String(limit));
  return params.toString();
}

/** Classe de l'étiquette d'un statut : terminé en vert, annulé en rouge. */
export function statusTone(status: string): 'success' | 'danger' | '' {
  if (status === 'termine') return 'success';
  if (status === 'annule') return 'danger';
  return '';
}

/** Les composants de la lecture des données, dans l'ordre du serveur, avec leur nom français. */
export function dataComponents(
  data: SurveyData,
  names: { component: string; label: string }[],
): { component: string; label: string; data: Datum[] }[] {
  return Object.entries(data.components).map(([component, items]) => ({
    component,
    label: names.find((n) => n.component === component)?.label ?? component.replace(/_/g, ' '),
    data: items,
  }));
}

// -- Écarts ------------------------------------------------------------------------

export const FINDING_MIN_CHARS = 3;
export const FINDING_MAX_CHARS = 2000;
/** La clé qui désigne l'équipement entier (le serveur n'enregistre alors aucun composant). */
export const WHOLE_EQUIPMENT = 'equipment';

export interface DiscrepancyForm {
  component: string;
  finding: string;
}

export type DiscrepancyErrors = Partial<Record<keyof DiscrepancyForm, string>>;

/** Mêmes règles que `POST /discrepancies` : 2000 caractères au plus tel qu'envoyé, 3 au moins une fois rogné. */
export function validateDiscrepancy(form: DiscrepancyForm, components: string[]): DiscrepancyErrors {
  const errors: DiscrepancyErrors = {};
  if ([...form.finding].length > FINDING_MAX_CHARS) {
    errors.finding = `Le constat ne doit pas dépasser ${FINDING_MAX_CHARS} caractères.`;
  } else if ([...form.finding.trim()].length < FINDING_MIN_CHARS) {
    errors.finding = `Le constat doit contenir au moins ${FINDING_MIN_CHARS} caractères : décrivez l'écart constaté.`;
  }
  if (form.component !== WHOLE_EQUIPMENT && !components.includes(form.component)) {
    errors.component = `Le composant « ${form.component} » n'est pas reconnu.`;
  }
  return errors;
}

/** Le corps de `POST /app/api/discrepancies` (celui de l'API REST). */
export function discrepancyBody(
  equipmentId: string,
  surveyId: string,
  form: DiscrepancyForm,
): { equipmentId: string; surveyId: string; component: string | null; finding: string } {
  return {
    equipmentId,
    surveyId,
    component: form.component === WHOLE_EQUIPMENT ? null : form.component,
    finding: form.finding.trim(),
  };
}

// -- Soumission --------------------------------------------------------------------

const DAY_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

function realDay(text: string): boolean {
  const [year = 0, month = 0, day = 0] = text.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Le jour du relevé, avec les règles du serveur : vide → aujourd'hui (rien
 * n'est envoyé) ; AAAA-MM-JJ d'un jour qui existe ; ni après `today` ni avant
 * `requestedOn` (jours de Paris donnés par le serveur).
 */
export function validateSurveyedOn(raw: string, today: string, requestedOn: string | null): string | undefined {
  const text = raw.trim();
  if (text === '') return undefined;
  if (!DAY_SHAPE.test(text)) return 'La date du relevé doit être une date AAAA-MM-JJ, par exemple 2026-03-09.';
  if (!realDay(text)) return `La date du relevé n'est pas une date qui existe : « ${text} ».`;
  if (text > today) return `La date du relevé ne peut pas être dans le futur (aujourd'hui : ${formatDay(today)}).`;
  if (requestedOn && text < requestedOn) {
    return `La date du relevé ne peut pas précéder la demande du relevé, faite le ${formatDay(requestedOn)}.`;
  }
  return undefined;
}

/** La saisie d'une donnée telle que le formulaire la garde (texte brut). */
export function inputOf(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'number') return String(value).replace('.', ',');
  return String(value);
}

export function initialInputs(components: FormComponent[]): Record<string, string> {
  return Object.fromEntries(components.flatMap((c) => c.fields.map((f) => [f.code, inputOf(f.value)])));
}

function sameValue(a: JsonValue, b: JsonValue): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

export interface SubmitBody {
  surveyedOn?: string;
  values?: Record<string, DatumValue>;
}

/**
 * Le corps de `POST /app/api/surveys/{id}/submit` : la date si elle est
 * saisie, et les seules données changées par rapport à ce que le relevé a déjà
 * enregistré (une donnée vidée est envoyée `null` : retirée du relevé) ; ou les
 * erreurs par champ (`surveyedOn` ou le code de la donnée), rien n'est envoyé.
 */
export function submissionBody(
  components: FormComponent[],
  inputs: Record<string, string>,
  surveyedOn: string,
  today: string,
  requestedOn: string | null,
): { body: SubmitBody; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const values: Record<string, DatumValue> = {};
  const dayError = validateSurveyedOn(surveyedOn, today, requestedOn);
  if (dayError) errors.surveyedOn = dayError;
  for (const field of components.flatMap((c) => c.fields)) {
    const parsed = parseInput(field, inputs[field.code] ?? '');
    if ('error' in parsed) errors[field.code] = parsed.error;
    else if (!sameValue(parsed.value, field.value)) values[field.code] = parsed.value;
  }
  const body: SubmitBody = {};
  if (surveyedOn.trim()) body.surveyedOn = surveyedOn.trim();
  if (Object.keys(values).length > 0) body.values = values;
  return { body, errors };
}

// -- Appels à l'API ------------------------------------------------------------------

const surveyPath = (id: string) => `/app/api/surveys/${encodeURIComponent(id)}`;

/** `GET /surveys` : une page de la liste (recherche de `surveyQuery`). */
export function listSurveys(q: string, page: number): Promise<Paged<SurveyRow>> {
  return api.get<Paged<SurveyRow>>(`/app/api/surveys?${surveyQuery(q, page)}`);
}

/** `GET /surveys/{id}` (vue de l'écran) : identité, composants et soumission possible. */
export function getSurvey(id: string): Promise<SurveyDetail> {
  return api.get<SurveyDetail>(surveyPath(id));
}

/** `GET /surveys/{id}/data` : les données relevées, par composant. */
export function getSurveyData(id: string): Promise<SurveyData> {
  return api.get<SurveyData>(`${surveyPath(id)}/data`);
}

/** `GET /surveys/{id}/discrepancies` : une page des écarts constatés. */
export function listDiscrepancies(id: string, page: number, limit: number): Promise<Paged<Discrepancy>> {
  return api.get<Paged<Discrepancy>>(`${surveyPath(id)}/discrepancies?page=${page}&limit=${limit}`);
}

/** `POST /surveys/{id}/submit` : soumet le relevé (corps de `submissionBody`) ; c'est définitif. */
export function submitSurvey(id: string, body: SubmitBody): Promise<void> {
  return api.post<void>(`${surveyPath(id)}/submit`, body);
}

/** `POST /discrepancies` : signale un écart (corps de `discrepancyBody`). */
export function reportDiscrepancy(body: ReturnType<typeof discrepancyBody>): Promise<void> {
  return api.post<void>('/app/api/discrepancies', body);
}
