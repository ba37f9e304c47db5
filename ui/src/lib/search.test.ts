import { recordRequests } from './test-requests';
import { describe, expect, it } from 'vitest';
import {
  SEARCH_HINT,
  SEARCH_PATH,
  flattenGroups,
  hitToOpen,
  indexGroups,
  isEditableTarget,
  isSearchShortcut,
  isSearchable,
  moveIndex,
  noResultsMessage,
  resultsCountText,
  searchAll,
  searchMessage,
  searchQuery,
  type KeyLike,
  type SearchGroup,
} from './search';

const GROUPS: SearchGroup[] = [
  {
    kind: 'equipment',
    label: 'Équipements',
    hits: [
      { id: 'eq-1', title: 'ASC-0001', subtitle: 'Résidence des Tilleuls, 12 rue des Lilas', link: '/equipements/eq-1' },
      { id: 'eq-2', title: 'ASC-0002', subtitle: null, link: '/equipements/eq-2' },
    ],
  },
  { kind: 'clients', label: 'Clients', hits: [] },
  {
    kind: 'invoices',
    label: 'Factures et avoirs',
    hits: [{ id: 'inv-9', title: 'FA-PO-2026-000012', subtitle: 'Syndic Martin', link: '/factures/inv-9' }],
  },
];

describe('recherche : la requête', () => {
  it('le texte rogné, encodé', () => {
    expect(searchQuery('  FA-PO-2026 ')).toBe('q=FA-PO-2026');
    expect(searchQuery('rue de l’Église & fils')).toBe('q=rue+de+l%E2%80%99%C3%89glise+%26+fils');
    expect(searchQuery('')).toBe('q=');
  });

  it('au moins 2 caractères, espaces autour exclus', () => {
    expect(isSearchable('')).toBe(false);
    expect(isSearchable(' a ')).toBe(false);
    expect(isSearchable('é')).toBe(false);
    expect(isSearchable('12')).toBe(true);
    expect(isSearchable(' FA- ')).toBe(true);
  });

  describe("l'appel", () => {
    const seen = recordRequests();

    it('GET /search?q= avec le texte rogné, sans corps', async () => {
      await searchAll(' Tilleuls 12 ');
      expect(seen).toEqual([{ method: 'GET', url: `${SEARCH_PATH}?q=Tilleuls+12`, body: undefined }]);
    });
  });
});

describe('recherche : les résultats mis à plat', () => {
  it('numérotés dans l’ordre de l’affichage, les groupes vides omis', () => {
    const flat = flattenGroups(GROUPS);
    expect(flat.map((f) => [f.index, f.kind, f.groupLabel, f.hit.title])).toEqual([
      [0, 'equipment', 'Équipements', 'ASC-0001'],
      [1, 'equipment', 'Équipements', 'ASC-0002'],
      [2, 'invoices', 'Factures et avoirs', 'FA-PO-2026-000012'],
    ]);
    expect(flattenGroups([])).toEqual([]);
  });

  it('groupés, avec les mêmes numéros', () => {
    const sections = indexGroups(GROUPS);
    expect(sections.map((s) => [s.kind, s.label, s.hits.map((h) => h.index)])).toEqual([
      ['equipment', 'Équipements', [0, 1]],
      ['invoices', 'Factures et avoirs', [2]],
    ]);
  });

  it('Entrée : la surbrillance, sinon le premier, sinon rien', () => {
    const flat = flattenGroups(GROUPS);
    expect(hitToOpen(flat, 2)?.hit.link).toBe('/factures/inv-9');
    expect(hitToOpen(flat, -1)?.hit.link).toBe('/equipements/eq-1');
    expect(hitToOpen(flat, 7)?.hit.link).toBe('/equipements/eq-1');
    expect(hitToOpen([], -1)).toBeNull();
  });
});

describe('recherche : la surbrillance', () => {
  it('↓ depuis rien : le premier ; ↑ depuis rien : le dernier', () => {
    expect(moveIndex(-1, 1, 3)).toBe(0);
    expect(moveIndex(-1, -1, 3)).toBe(2);
  });

  it('pas à pas, en boucle aux deux bouts', () => {
    expect(moveIndex(0, 1, 3)).toBe(1);
    expect(moveIndex(1, 1, 3)).toBe(2);
    expect(moveIndex(2, 1, 3)).toBe(0);
    expect(moveIndex(0, -1, 3)).toBe(2);
    expect(moveIndex(2, -1, 3)).toBe(1);
    expect(moveIndex(0, 1, 1)).toBe(0);
  });

  it('sans résultat : aucune ; hors de la liste (réponse plus courte) : repart d’un bout', () => {
    expect(moveIndex(-1, 1, 0)).toBe(-1);
    expect(moveIndex(4, 1, 0)).toBe(-1);
    expect(moveIndex(5, 1, 3)).toBe(0);
    expect(moveIndex(5, -1, 3)).toBe(2);
  });
});

describe('recherche : les raccourcis', () => {
  const key = (overrides: Partial<KeyLike> = {}): KeyLike => ({
    key: '/',
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    target: { tagName: 'BODY', isContentEditable: false },
    ...overrides,
  });
  const input = { tagName: 'INPUT', isContentEditable: false };

  it('`/` hors d’un champ de saisie', () => {
    expect(isSearchShortcut(key())).toBe(true);
    expect(isSearchShortcut(key({ target: { tagName: 'BUTTON' } }))).toBe(true);
    expect(isSearchShortcut(key({ target: { tagName: 'A' } }))).toBe(true);
    expect(isSearchShortcut(key({ target: null }))).toBe(true);
  });

  it('`/` tapé dans un champ reste un caractère', () => {
    expect(isSearchShortcut(key({ target: input }))).toBe(false);
    expect(isSearchShortcut(key({ target: { tagName: 'textarea' } }))).toBe(false);
    expect(isSearchShortcut(key({ target: { tagName: 'SELECT' } }))).toBe(false);
    expect(isSearchShortcut(key({ target: { tagName: 'DIV', isContentEditable: true } }))).toBe(false);
  });

  it('`/` avec Ctrl, Cmd ou Alt : autre chose', () => {
    expect(isSearchShortcut(key({ ctrlKey: true }))).toBe(false);
    expect(isSearchShortcut(key({ metaKey: true }))).toBe(false);
    expect(isSearchShortcut(key({ altKey: true }))).toBe(false);
  });

  it('Ctrl+K et Cmd+K de partout, même dans un champ, majuscule comprise', () => {
    expect(isSearchShortcut(key({ key: 'k', ctrlKey: true }))).toBe(true);
    expect(isSearchShortcut(key({ key: 'k', metaKey: true, target: input }))).toBe(true);
    expect(isSearchShortcut(key({ key: 'K', ctrlKey: true }))).toBe(true);
    expect(isSearchShortcut(key({ key: 'k' }))).toBe(false);
    expect(isSearchShortcut(key({ key: 'k', ctrlKey: true, altKey: true }))).toBe(false);
    expect(isSearchShortcut(key({ key: 'j', ctrlKey: true }))).toBe(false);
  });

  it('ni une touche déjà traitée, ni une composition en cours', () => {
    expect(isSearchShortcut(key({ defaultPrevented: true }))).toBe(false);
    expect(isSearchShortcut(key({ key: 'k', ctrlKey: true, isComposing: true }))).toBe(false);
  });

  it('les cibles de saisie', () => {
    expect(isEditableTarget(input)).toBe(true);
    expect(isEditableTarget({ tagName: 'BODY' })).toBe(false);
    expect(isEditableTarget(null)).toBe(false);
    expect(isEditableTarget('INPUT')).toBe(false);
  });
});

describe('recherche : le message sous le champ', () => {
  const state = { text: '', answeredFor: null, groups: [], error: null };

  it('champ vide : rien ; moins de 2 caractères : l’indication', () => {
    expect(searchMessage(state)).toBe('');
    expect(searchMessage({ ...state, text: '   ' })).toBe('');
    expect(searchMessage({ ...state, text: 'A' })).toBe(SEARCH_HINT);
    expect(SEARCH_HINT).toBe('Saisissez au moins 2 caractères.');
  });

  it('réponse vide pour le texte affiché : « Aucun résultat »', () => {
    expect(searchMessage({ ...state, text: ' zzz ', answeredFor: 'zzz' })).toBe('Aucun résultat pour « zzz ».');
    expect(noResultsMessage('FA-')).toBe('Aucun résultat pour « FA- ».');
    // Des genres sans résultat comptent pour rien.
    expect(searchMessage({ ...state, text: 'zzz', answeredFor: 'zzz', groups: [GROUPS[1]!] })).toBe(
      'Aucun résultat pour « zzz ».',
    );
  });

  it('réponse attendue (autre texte répondu) ou résultats : rien', () => {
    expect(searchMessage({ ...state, text: 'zzzz', answeredFor: 'zzz' })).toBe('');
    expect(searchMessage({ ...state, text: 'ASC', answeredFor: 'ASC', groups: GROUPS })).toBe('');
  });

  it("l'erreur du serveur", () => {
    const error = 'Le paramètre « q » ne doit pas dépasser 100 caractères.';
    expect(searchMessage({ ...state, text: 'x'.repeat(101), answeredFor: 'x'.repeat(101), error })).toBe(error);
  });

  it('le nombre de résultats, pour les lecteurs d’écran', () => {
    expect(resultsCountText(0)).toBe('');
    expect(resultsCountText(1)).toBe('1 résultat.');
    expect(resultsCountText(3)).toBe('3 résultats.');
  });
});
