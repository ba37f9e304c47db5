import { describe, expect, it } from 'vitest';
import { MENU_STORAGE_KEY, NARROW_MENU_QUERY, narrowScreen, readMenuFolded, saveMenuFolded } from './menu';

/** Un stockage en mémoire, comme `localStorage`. */
function memory(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

const refusing = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
  removeItem: () => {
    throw new Error('SecurityError');
  },
};

describe('menu principal', () => {
  it('se replie sous 1280 px (80rem)', () => {
    expect(NARROW_MENU_QUERY).toBe('(max-width: 79.99rem)');
  });

  it('est déplié par défaut sur un écran large', () => {
    expect(readMenuFolded(memory())).toBe(false);
    expect(readMenuFolded(null)).toBe(false);
  });

  it('garde le choix « replié », puis l’oublie une fois déplié', () => {
    const storage = memory();
    saveMenuFolded(storage, true);
    expect(storage.getItem(MENU_STORAGE_KEY)).toBe('replie');
    expect(readMenuFolded(storage)).toBe(true);
    saveMenuFolded(storage, false);
    expect(storage.getItem(MENU_STORAGE_KEY)).toBeNull();
    expect(readMenuFolded(storage)).toBe(false);
  });

  it('ignore une autre valeur et un stockage qui refuse', () => {
    const storage = memory();
    storage.setItem(MENU_STORAGE_KEY, 'oui');
    expect(readMenuFolded(storage)).toBe(false);
    expect(readMenuFolded(refusing)).toBe(false);
    expect(() => saveMenuFolded(refusing, true)).not.toThrow();
    expect(() => saveMenuFolded(null, true)).not.toThrow();
  });

  it('sans navigateur (matchMedia absent) : pas d’écran étroit', () => {
    expect(narrowScreen()).toBe(false);
  });
});
