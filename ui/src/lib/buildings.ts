/**
 * Immeubles de l'agence (`/app/api/buildings…`) : recherche au fil de la
 * saisie, « Nouvel immeuble » (adresse, client, consignes d'accès),
 * modification des consignes d'accès d'un immeuble, et la fiche d'un
 * immeuble (`/immeubles/<id>` : son titre, son adresse par lignes, ses
 * équipements au parc, page par page). Vérifiés avant l'envoi
 * avec les règles du serveur (`domain::building::check` et `check_access`) ;
 * un refus du serveur nomme un champ par son nom d'API, que `buildingFieldNamedBy`
 * retrouve pour le signaler dans le formulaire.
 */
import { api } from './api';
import type {
  AccessWire,
  BuildingView,
  BuildingsAnswer,
  ClientRef,
  NewBuildingBody,
  ParkPage,
} from './generated/contract';

// Les réponses viennent du serveur : `generated/contract.ts` est généré depuis le code Rust.
export type { AccessWire, BuildingClient, BuildingView, BuildingsAnswer, NewBuildingBody } from './generated/contract';

/** Les consignes d'accès possibles (`domain::building::ACCESS_VALUES`, `accessValues` des réponses). */
export const ACCESS_VALUES = ['Sans', 'Digicode', 'Coffre à clé', 'Vigik', 'Autre'] as const;

/** Plus long nom, adresse, complément, ville, précisions, digicode ou emplacement du coffre. */
export const MAX_BUILDING_CHARS = 200;

// Caractères de contrôle refusés par le serveur (`char::is_control` : C0, DEL et C1).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Un texte saisi, la règle du serveur (`text::field`) : rogné, vide accepté
 * (sauf `required`), `max` caractères au plus, sans caractère de contrôle.
 * `undefined` s'il est valable, sinon la raison, le champ nommé `label`.
 */
export function textReason(label: string, value: string, options: { required?: boolean; max?: number } = {}): string | undefined {
  const text = value.trim();
  const max = options.max ?? MAX_BUILDING_CHARS;
  if (text === '') return options.required ? `Le champ « ${label} » est obligatoire.` : undefined;
  if ([...text].length > max) return `Le champ « ${label} » ne doit pas dépasser ${max} caractères.`;
  if (CONTROL.test(text)) return `Le champ « ${label} » ne doit pas contenir de caractère de contrôle.`;
  return undefined;
}

/** Un texte facultatif rogné ; vide → `null`. */
const optional = (value: string): string | null => {
  const text = value.trim();
  return text === '' ? null : text;
};

// -- Affichage ------------------------------------------------------------------------

/** « 3 rue Émile Zola, Bâtiment B, 92300 Levallois-Perret ». */
export function buildingPlace(building: Pick<BuildingView, 'address' | 'addressComplement' | 'postalCode' | 'city'>): string {
  const town = [building.postalCode, building.city].filter(Boolean).join(' ');
  return [building.address, building.addressComplement, town].filter(Boolean).join(', ');
}

/** Une ligne de la liste de choix : « adresse, CP ville — client ». */
export function buildingChoiceLine(building: BuildingView): string {
  const place = buildingPlace(building);
  return building.client ? `${place} — ${building.client.name}` : place;
}

/** Ce que montre le champ « Immeuble » une fois l'immeuble choisi : son nom s'il en a un, puis l'adresse. */
export function buildingChoiceText(building: BuildingView): string {
  return building.name ? `${building.name} — ${buildingPlace(building)}` : buildingPlace(building);
}

/** Le titre de la fiche : « Immeuble Résidence Les Tilleuls », sans nom « Immeuble 3 rue Émile Zola ». */
export function buildingTitle(building: Pick<BuildingView, 'name' | 'address'>): string {
  const name = building.name?.trim();
  return `Immeuble ${name || building.address}`;
}

/**
 * L'adresse de la fiche, une ligne par partie : la voie, le complément, puis
 * « CP ville » (les parties absentes omises).
 */
export function buildingAddressLines(
  building: Pick<BuildingView, 'address' | 'addressComplement' | 'postalCode' | 'city'>,
): string[] {
  const town = [building.postalCode, building.city].filter(Boolean).join(' ');
  return [building.address, building.addressComplement, town].filter((line): line is string => Boolean(line));
}

/** Les consignes d'accès lisibles : « Digicode, Vigik » ; aucune : « Non renseignées ». */
export function accessSummary(access: AccessWire): string {
  return access.instructions.length > 0 ? access.instructions.join(', ') : 'Non renseignées';
}

// -- Les consignes d'accès ------------------------------------------------------------

/** Ce qui est saisi : les consignes cochées et trois textes. */
export interface AccessForm {
  instructions: string[];
  /** Précisions (obligatoires avec « Autre »). */
  other: string;
  digicode: string;
  /** Où se trouve le coffre à clé. */
  keyBox: string;
}

export type AccessField = keyof AccessForm;
export type AccessErrors = Partial<Record<AccessField, string>>;

export const ACCESS_FIELD_ORDER: AccessField[] = ['instructions', 'digicode', 'keyBox', 'other'];

export const ACCESS_FIELD_LABELS: Record<AccessField, string> = {
  instructions: "Consignes d'accès",
  other: 'Précisions',
  digicode: 'Code du digicode',
  keyBox: 'Coffre à clé — emplacement',
};

export function emptyAccessForm(): AccessForm {
  return { instructions: [], other: '', digicode: '', keyBox: '' };
}

export function formOfAccess(access: AccessWire): AccessForm {
  return {
    instructions: [...access.instructions],
    other: access.other ?? '',
    digicode: access.digicode ?? '',
    keyBox: access.keyBox ?? '',
  };
}

/** Coche ou décoche une consigne ; l'ordre reste celui des valeurs possibles. */
export function toggleInstruction(
  instructions: readonly string[],
  value: string,
  checked: boolean,
  values: readonly string[] = ACCESS_VALUES,
): string[] {
  const next = new Set(instructions.filter((v) => v !== value));
  if (checked) next.add(value);
  return orderedInstructions([...next], values);
}

function orderedInstructions(instructions: readonly string[], values: readonly string[] = ACCESS_VALUES): string[] {
  const known = values.filter((v) => instructions.includes(v));
  const unknown = instructions.filter((v) => !values.includes(v));
  return [...known, ...unknown];
}

/**
 * Le champ « Digicode » se montre quand « Digicode » est coché, ou qu'il
 * garde un code (rien de ce qui est enregistré n'est effacé sans être vu) ;
 * de même l'emplacement du coffre avec « Coffre à clé ».
 */
export function showsDigicode(form: AccessForm): boolean {
  return form.instructions.includes('Digicode') || form.digicode.trim() !== '';
}

export function showsKeyBox(form: AccessForm): boolean {
  return form.instructions.includes('Coffre à clé') || form.keyBox.trim() !== '';
}

/**
 * Les refus du serveur (`set_building_access_in`, `check_access`) : chaque
 * texte de 200 caractères au plus, sans caractère de contrôle ; chaque
 * consigne parmi les valeurs possibles ; des précisions avec « Autre ».
 */
export function checkAccess(form: AccessForm, values: readonly string[] = ACCESS_VALUES): AccessErrors {
  const errors: AccessErrors = {};
  for (const field of ['other', 'digicode', 'keyBox'] as const) {
    const reason = textReason(ACCESS_FIELD_LABELS[field], form[field]);
    if (reason) errors[field] = reason;
  }
  const wrong = form.instructions.find((v) => !values.includes(v));
  if (wrong !== undefined) {
    errors.instructions = `La valeur « ${wrong} » du champ « ${ACCESS_FIELD_LABELS.instructions} » n'est pas autorisée : valeurs possibles : ${values
      .map((v) => `« ${v} »`)
      .join(', ')}.`;
  }
  if (!errors.other && form.instructions.includes('Autre') && form.other.trim() === '') {
    errors.other = `Le champ « ${ACCESS_FIELD_LABELS.other} » est obligatoire quand « Autre » est choisi dans « ${ACCESS_FIELD_LABELS.instructions} ».`;
  }
  return errors;
}

/** Le corps de `PUT /buildings/{id}/access` (et `access` d'un nouvel immeuble) : les textes rognés, vides → `null`. */
export function accessBody(form: AccessForm, values: readonly string[] = ACCESS_VALUES): AccessWire {
  return {
    instructions: orderedInstructions(form.instructions, values),
    other: optional(form.other),
    digicode: optional(form.digicode),
    keyBox: optional(form.keyBox),
  };
}

/** Rien de saisi : un nouvel immeuble part sans `access`. */
export function accessIsEmpty(form: AccessForm): boolean {
  return form.instructions.length === 0 && [form.other, form.digicode, form.keyBox].every((t) => t.trim() === '');
}

const ACCESS_WIRE_FIELDS: Record<string, AccessField> = {
  accessInstructions: 'instructions',
  instructions: 'instructions',
  accessOther: 'other',
  other: 'other',
  digicode: 'digicode',
  keyBox: 'keyBox',
};

/** Le champ des consignes qu'un refus du serveur nomme (`« accessOther »`…), ou `null`. */
export function accessFieldNamedBy(message: string): AccessField | null {
  const named = /champ « ([^»]+?) »/u.exec(message);
  if (!named) return null;
  const name = named[1] ?? '';
  return ACCESS_WIRE_FIELDS[name] ?? labelled(ACCESS_FIELD_LABELS, name);
}

/** Le champ dont le libellé du formulaire est `label` (les refus côté client nomment les libellés). */
function labelled<F extends string>(labels: Record<F, string>, label: string): F | null {
  const found = (Object.keys(labels) as F[]).find((field) => labels[field] === label);
  return found ?? null;
}

// -- « Nouvel immeuble » ----------------------------------------------------------

export interface BuildingForm {
  name: string;
  address: string;
  addressComplement: string;
  postalCode: string;
  city: string;
  /** Le client choisi dans la liste (identifiant partenaire), ou aucun. */
  client: ClientRef | null;
  access: AccessForm;
}

export type BuildingField = 'name' | 'address' | 'addressComplement' | 'postalCode' | 'city' | 'client' | AccessField;
export type BuildingErrors = Partial<Record<BuildingField, string>>;

/** Dans l'ordre du formulaire (la première erreur reçoit le focus). */
export const BUILDING_FIELD_ORDER: BuildingField[] = [
  'name',
  'address',
  'addressComplement',
  'postalCode',
  'city',
  'client',
  ...ACCESS_FIELD_ORDER,
];

export const BUILDING_FIELD_LABELS: Record<BuildingField, string> = {
  name: 'Nom',
  address: 'Adresse',
  addressComplement: 'Complément',
  postalCode: 'Code postal',
  city: 'Ville',
  client: 'Client',
  ...ACCESS_FIELD_LABELS,
};

export function emptyBuildingForm(client: ClientRef | null = null): BuildingForm {
  return {
    name: '',
    address: '',
    addressComplement: '',
    postalCode: '',
    city: '',
    client,
    access: emptyAccessForm(),
  };
}

/**
 * Les refus du serveur (`domain::building::check`, puis `check_access`) :
 * une adresse ; un code postal français de cinq chiffres s'il est donné ;
 * chaque texte de 200 caractères au plus, sans caractère de contrôle.
 */
export function checkBuilding(form: BuildingForm, values: readonly string[] = ACCESS_VALUES): BuildingErrors {
  const errors: BuildingErrors = {};
  const put = (field: BuildingField, reason: string | undefined) => {
    if (reason && !errors[field]) errors[field] = reason;
  };
  put('name', textReason(BUILDING_FIELD_LABELS.name, form.name));
  put('address', textReason(BUILDING_FIELD_LABELS.address, form.address, { required: true }));
  put('addressComplement', textReason(BUILDING_FIELD_LABELS.addressComplement, form.addressComplement));
  const code = form.postalCode.trim();
  put('postalCode', textReason(BUILDING_FIELD_LABELS.postalCode, code));
  if (code !== '' && !/^[0-9]{5}$/u.test(code)) {
    put(
      'postalCode',
      `Le champ « ${BUILDING_FIELD_LABELS.postalCode} » doit être un code postal français de cinq chiffres : « ${code} » n'en est pas un.`,
    );
  }
  put('city', textReason(BUILDING_FIELD_LABELS.city, form.city));
  const access = checkAccess(form.access, values);
  for (const field of ACCESS_FIELD_ORDER) put(field, access[field]);
  return errors;
}

/** Le corps de `POST /buildings` : les textes rognés, les vides omis ; `access` seulement si quelque chose est saisi. */
export function newBuildingBody(form: BuildingForm, values: readonly string[] = ACCESS_VALUES): NewBuildingBody {
  const body: NewBuildingBody = { address: form.address.trim() };
  const texts = {
    name: optional(form.name),
    addressComplement: optional(form.addressComplement),
    postalCode: optional(form.postalCode),
    city: optional(form.city),
  };
  for (const key of Object.keys(texts) as (keyof typeof texts)[]) {
    const value = texts[key];
    if (value !== null) body[key] = value;
  }
  if (form.client) body.clientId = form.client.id;
  if (!accessIsEmpty(form.access)) body.access = accessBody(form.access, values);
  return body;
}

const BUILDING_WIRE_FIELDS: Record<string, BuildingField> = {
  name: 'name',
  address: 'address',
  addressComplement: 'addressComplement',
  postalCode: 'postalCode',
  city: 'city',
  clientId: 'client',
};

/**
 * Le champ qu'un refus du serveur nomme : `« postalCode »`, `« clientId »`
 * (client inconnu), un client archivé, les consignes d'accès ; sinon `null`.
 */
export function buildingFieldNamedBy(message: string): BuildingField | null {
  if (/^Le client « .+ » est archivé/u.test(message)) return 'client';
  const access = accessFieldNamedBy(message);
  if (access) return access;
  const named = /champ « ([^»]+?) »/u.exec(message);
  if (!named) return null;
  const name = named[1] ?? '';
  return BUILDING_WIRE_FIELDS[name] ?? labelled(BUILDING_FIELD_LABELS, name);
}

// -- Appels à l'API -------------------------------------------------------------------

const buildingPath = (id: string) => `/app/api/buildings/${encodeURIComponent(id)}`;

/** `GET /buildings?q=` : les immeubles dont le nom, l'adresse ou le client contient chaque mot (50 au plus). */
export function searchBuildings(q: string): Promise<BuildingsAnswer> {
  return api.get<BuildingsAnswer>(`/app/api/buildings?q=${encodeURIComponent(q.trim())}`);
}

/** `GET /buildings/{id}` : l'immeuble, son client et ses consignes d'accès. */
export function getBuilding(id: string): Promise<BuildingView> {
  return api.get<BuildingView>(buildingPath(id));
}

/** `POST /buildings` : un nouvel immeuble ; l'immeuble créé. */
export function createBuilding(body: NewBuildingBody): Promise<BuildingView> {
  return api.post<BuildingView>('/app/api/buildings', body);
}

/** `PUT /buildings/{id}/access` : les consignes d'accès remplacées ; l'immeuble relu. */
export function setBuildingAccess(id: string, body: AccessWire): Promise<BuildingView> {
  return api.put<BuildingView>(`${buildingPath(id)}/access`, body);
}

// -- Les équipements d'un immeuble ---------------------------------------------------

/** Équipements par page sur la fiche d'un immeuble. */
export const BUILDING_EQUIPMENT_LIMIT = 50;

/** Paramètres de `GET /equipment` pour un immeuble : ses équipements au parc (sans les archivés), une page. */
export function buildingEquipmentQuery(buildingId: string, page: number, limit = BUILDING_EQUIPMENT_LIMIT): string {
  const params = new URLSearchParams({
    building: buildingId,
    archived: 'active',
    page: String(Math.max(1, Math.floor(page) || 1)),
    limit: String(limit),
  });
  return params.toString();
}

/** `GET /equipment?building=` : une page des équipements au parc de l'immeuble, par numéro. */
export function listBuildingEquipment(buildingId: string, page: number): Promise<ParkPage> {
  return api.get<ParkPage>(`/app/api/equipment?${buildingEquipmentQuery(buildingId, page)}`);
}
