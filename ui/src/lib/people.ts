/**
 * Écran « Agence », rubrique « Personnes » : les comptes du personnel tels que
 * leurs administrateurs les gèrent (`/app/api/people…`, réservé aux
 * administrateurs). Types de l'API, rôles et libellés, ce que la ligne d'une
 * personne propose, le formulaire ↔ corps de `POST` et `PATCH`, les
 * vérifications côté client avec les règles et les messages du serveur
 * (`services/people.rs`, `services/accounts.rs`, `domain/text.rs`), le champ
 * que nomme un refus du serveur, et les appels à l'API.
 */
import { api } from './api';
import { isEmail } from './agency';
import type { PeopleAnswer, PersonWire, PersonWithPassword } from './generated/contract';

// Les réponses viennent du serveur : `generated/contract.ts` est généré depuis le code Rust.
export type { PeopleAnswer, PersonWire, PersonWithPassword } from './generated/contract';

export const PEOPLE_PATH = '/app/api/people';

// -- Appels à l'API ---------------------------------------------------------------

/** Le corps de `POST /people` : un nouveau compte. */
export interface NewPersonBody {
  name: string;
  email: string;
  position: string | null;
  role: PersonRole;
  agencyIds: string[];
  performsSurveys: boolean;
  technician: boolean;
}

/** Le corps de `PATCH /people/{id}` : seuls les champs donnés changent ; `position` vide l'efface. */
export interface PersonEditBody {
  name?: string;
  position?: string;
  role?: PersonRole;
  agencyIds?: string[];
  performsSurveys?: boolean;
}

const personPath = (id: string, action?: string) =>
  `${PEOPLE_PATH}/${encodeURIComponent(id)}${action ? `/${action}` : ''}`;

/** `GET /people` : les personnes, les agences que l'administrateur peut donner, son propre compte. */
export function listPeople(): Promise<PeopleAnswer> {
  return api.get<PeopleAnswer>(PEOPLE_PATH);
}

/** `POST /people` (201) : le compte créé et son mot de passe provisoire, montré une fois. */
export function createPerson(body: NewPersonBody): Promise<PersonWithPassword> {
  return api.post<PersonWithPassword>(PEOPLE_PATH, body);
}

/** `PATCH /people/{id}` : la personne relue. */
export function editPerson(id: string, body: PersonEditBody): Promise<PersonWire> {
  return api.patch<PersonWire>(personPath(id), body);
}

/** `POST /people/{id}/deactivate` : ses sessions et jetons d'API prennent fin ; son historique reste. */
export function deactivatePerson(id: string): Promise<PersonWire> {
  return api.post<PersonWire>(personPath(id, 'deactivate'));
}

/** `POST /people/{id}/reactivate` : il se connecte de nouveau avec son mot de passe. */
export function reactivatePerson(id: string): Promise<PersonWire> {
  return api.post<PersonWire>(personPath(id, 'reactivate'));
}

/** `POST /people/{id}/password-reset` : un nouveau mot de passe provisoire, montré une fois. */
export function resetPassword(id: string): Promise<PersonWithPassword> {
  return api.post<PersonWithPassword>(personPath(id, 'password-reset'));
}

// -- Rôles ------------------------------------------------------------------------

/** Les rôles qu'un administrateur donne (celui de l'opérateur du service ne se donne pas ici). */
export const ROLES = ['org_admin', 'agency_admin', 'member'] as const;
export type PersonRole = (typeof ROLES)[number];

/** Libellés des rôles, ceux du serveur (`role_label`). */
export const ROLE_LABELS: Record<PersonRole, string> = {
  org_admin: "Administrateur de l'organisation",
  agency_admin: "Administrateur d'agence",
  member: 'Membre',
};

export function isPersonRole(code: string): code is PersonRole {
  return (ROLES as readonly string[]).includes(code);
}

/**
 * Les rôles proposés dans le formulaire : « Administrateur de l'organisation »
 * seulement si l'administrateur peut en nommer (`canNameOrgAdmins`) — ou si la
 * personne l'est déjà (son rôle reste affiché).
 */
export function roleChoices(canNameOrgAdmins: boolean, current?: string): PersonRole[] {
  return ROLES.filter((role) => role !== 'org_admin' || canNameOrgAdmins || current === 'org_admin');
}

// -- Une personne dans la liste ---------------------------------------------------

/** Le nom affiché d'une personne (son adresse e-mail si elle n'a pas de nom). */
export function displayName(person: Pick<PersonWire, 'name' | 'email'>): string {
  const name = person.name?.trim();
  return name ? name : person.email;
}

export interface PersonStatus {
  label: 'Actif' | 'Désactivé' | 'Mot de passe provisoire';
  tone: 'success' | 'danger' | 'neutral';
}

/** Le statut d'un compte : désactivé, sinon en attente de son propre mot de passe, sinon actif. */
export function statusOf(person: Pick<PersonWire, 'active' | 'mustChangePassword'>): PersonStatus {
  if (!person.active) return { label: 'Désactivé', tone: 'danger' };
  if (person.mustChangePassword) return { label: 'Mot de passe provisoire', tone: 'neutral' };
  return { label: 'Actif', tone: 'success' };
}

/** Les agences d'une personne : « Toutes les agences » pour un administrateur de l'organisation. */
export function agenciesText(person: Pick<PersonWire, 'role' | 'agencies'>): string {
  if (person.role === 'org_admin') return 'Toutes les agences';
  if (person.agencies.length === 0) return '—';
  return person.agencies.map((a) => a.name).join(', ');
}

/** Ce que la ligne d'une personne propose à l'administrateur. */
export interface PersonActions {
  /** « Modifier » (nom, fonction, agences, relevés ; le rôle selon `changeRole`). */
  edit: boolean;
  /** Le rôle se change (jamais le sien). */
  changeRole: boolean;
  deactivate: boolean;
  reactivate: boolean;
  resetPassword: boolean;
}

/**
 * Les actions de la ligne, comme le serveur les permet (chaque personne listée
 * travaille dans l'une des agences de l'administrateur, qui la gère depuis
 * n'importe laquelle) : un administrateur d'agence ne gère pas un
 * administrateur de l'organisation ; personne ne change son propre rôle, ne
 * se désactive ni ne réinitialise son propre mot de passe (« Mon compte ») ;
 * un compte désactivé se réactive avant d'avoir un nouveau mot de passe.
 */
export function actionsFor(person: PersonWire, answer: Pick<PeopleAnswer, 'canNameOrgAdmins' | 'me'>): PersonActions {
  if (person.role === 'org_admin' && !answer.canNameOrgAdmins) {
    return { edit: false, changeRole: false, deactivate: false, reactivate: false, resetPassword: false };
  }
  const mine = person.id === answer.me;
  return {
    edit: true,
    changeRole: !mine,
    deactivate: !mine && person.active,
    reactivate: !mine && !person.active,
    resetPassword: !mine && person.active,
  };
}

/** Le texte sous le mot de passe provisoire montré une fois. */
export function temporaryPasswordMessage(person: Pick<PersonWire, 'name' | 'email'>): string {
  return `Transmettez ce mot de passe provisoire à ${displayName(person)} : il ne sera plus affiché. À sa première connexion, il choisira le sien.`;
}

// -- Formulaire -------------------------------------------------------------------

/** Le formulaire tel que saisi. */
export interface PersonForm {
  name: string;
  email: string;
  position: string;
  role: PersonRole;
  /** Les agences cochées. */
  agencyIds: string[];
  performsSurveys: boolean;
  /** À la création seulement : une fiche technicien dans sa première agence. */
  technician: boolean;
}

export type PersonField = 'name' | 'email' | 'position' | 'role' | 'agencyIds';

export type PersonErrors = Partial<Record<PersonField, string>>;

/** Dans l'ordre du formulaire (la première erreur reçoit le focus). */
export const PERSON_FIELD_ORDER: PersonField[] = ['name', 'email', 'position', 'role', 'agencyIds'];

/** Longueurs maximales du serveur, en caractères. */
export const MAX_NAME_CHARS = 200;
export const MAX_POSITION_CHARS = 100;

/** Un nouveau compte : membre, de l'agence active si l'administrateur peut la donner. */
export function emptyPersonForm(agencies: PeopleAnswer['agencies'], activeAgencyId: string | null): PersonForm {
  const preset = agencies.find((a) => a.id === activeAgencyId) ?? (agencies.length === 1 ? agencies[0] : undefined);
  return {
    name: '',
    email: '',
    position: '',
    role: 'member',
    agencyIds: preset ? [preset.id] : [],
    performsSurveys: false,
    technician: false,
  };
}

/** Le formulaire de modification d'une personne. */
export function formOfPerson(person: PersonWire): PersonForm {
  return {
    name: person.name ?? '',
    email: person.email,
    position: person.position ?? '',
    role: isPersonRole(person.role) ? person.role : 'member',
    agencyIds: person.role === 'org_admin' ? [] : person.agencies.map((a) => a.id),
    performsSurveys: person.performsSurveys,
    technician: person.technician,
  };
}

/** Les agences cochées dans l'ordre des agences proposées (la première devient son agence par défaut). */
export function orderedAgencyIds(form: Pick<PersonForm, 'agencyIds'>, agencies: PeopleAnswer['agencies']): string[] {
  const known = agencies.filter((a) => form.agencyIds.includes(a.id)).map((a) => a.id);
  const others = form.agencyIds.filter((id) => !agencies.some((a) => a.id === id));
  return [...new Set([...known, ...others])];
}

/** Le corps de `POST /people` (le serveur rogne et vérifie ; un administrateur de l'organisation n'a pas d'agences). */
export function newPersonBody(form: PersonForm, agencies: PeopleAnswer['agencies']): NewPersonBody {
  const position = form.position.trim();
  return {
    name: form.name.trim(),
    email: form.email.trim(),
    position: position === '' ? null : position,
    role: form.role,
    agencyIds: form.role === 'org_admin' ? [] : orderedAgencyIds(form, agencies),
    performsSurveys: form.performsSurveys,
    technician: form.technician,
  };
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/**
 * Le corps de `PATCH /people/{id}` : seulement ce qui a changé (un objet vide :
 * rien à envoyer). Le rôle n'est jamais envoyé pour son propre compte
 * (`changeRole` faux) ; les agences ne le sont pas pour un administrateur de
 * l'organisation, qui travaille dans toutes.
 */
export function editBody(
  person: PersonWire,
  form: PersonForm,
  agencies: PeopleAnswer['agencies'],
  changeRole: boolean,
): PersonEditBody {
  const before = formOfPerson(person);
  const body: PersonEditBody = {};
  const name = form.name.trim();
  if (name !== before.name.trim()) body.name = name;
  const position = form.position.trim();
  if (position !== before.position.trim()) body.position = position;
  const role = changeRole ? form.role : before.role;
  if (role !== before.role) body.role = role;
  if (role !== 'org_admin') {
    const ids = orderedAgencyIds(form, agencies);
    if (!sameSet(ids, before.agencyIds) || before.role === 'org_admin') body.agencyIds = ids;
  }
  if (form.performsSurveys !== before.performsSurveys) body.performsSurveys = form.performsSurveys;
  return body;
}

// -- Vérifications (celles du serveur, mêmes messages) ----------------------------

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;

const chars = (text: string) => [...text].length;

/** Le nom : obligatoire, 200 caractères au plus (`required_name`). */
export function checkName(raw: string): string | undefined {
  const name = raw.trim();
  if (name === '') return 'Le nom est obligatoire.';
  if (chars(name) > MAX_NAME_CHARS) return `Le nom ne doit pas dépasser ${MAX_NAME_CHARS} caractères.`;
  return undefined;
}

/** L'adresse e-mail d'un nouveau compte (`normalize_email`). */
export function checkEmail(raw: string): string | undefined {
  const email = raw.trim();
  if (email === '') return "L'adresse e-mail est obligatoire.";
  if (!isEmail(email.toLowerCase())) return `L'adresse e-mail « ${email} » n'est pas valide.`;
  return undefined;
}

/** La fonction, facultative (`text::field`, le champ nommé par son libellé). */
export function checkPosition(raw: string): string | undefined {
  const position = raw.trim();
  if (position === '') return undefined;
  if (chars(position) > MAX_POSITION_CHARS) {
    return `Le champ « Fonction » ne doit pas dépasser ${MAX_POSITION_CHARS} caractères.`;
  }
  if (CONTROL.test(position)) return 'Le champ « Fonction » ne doit pas contenir de caractère de contrôle.';
  return undefined;
}

/** Au moins une agence, sauf pour un administrateur de l'organisation (`check_standing`). */
export function checkAgencies(form: Pick<PersonForm, 'role' | 'agencyIds'>): string | undefined {
  if (form.role === 'org_admin' || form.agencyIds.length > 0) return undefined;
  return 'Indiquez au moins une agence où travaille ce compte.';
}

/**
 * Les refus du formulaire, champ par champ. `creating` : l'adresse e-mail est
 * saisie (elle ne se change pas ensuite). Un objet vide : le formulaire peut partir.
 */
export function checkPerson(form: PersonForm, creating: boolean): PersonErrors {
  const errors: PersonErrors = {};
  const put = (field: PersonField, reason: string | undefined) => {
    if (reason) errors[field] = reason;
  };
  put('name', checkName(form.name));
  if (creating) put('email', checkEmail(form.email));
  put('position', checkPosition(form.position));
  put('agencyIds', checkAgencies(form));
  return errors;
}

/**
 * Le champ que nomme un refus du serveur, pour le signaler (la phrase reste
 * dans l'alerte, telle que le serveur l'a écrite) ; `null` sinon.
 */
export function fieldNamedBy(message: string): PersonField | null {
  if (/^Le nom /u.test(message)) return 'name';
  if (/^L'adresse e-mail /u.test(message)) return 'email';
  if (/« position »/u.test(message)) return 'position';
  if (/^Rôle inconnu|nomme un administrateur de l'organisation|changer (votre propre|son) rôle/u.test(message)) {
    return 'role';
  }
  if (/^Indiquez au moins une agence|^Agence introuvable/u.test(message)) return 'agencyIds';
  return null;
}
