import { describe, expect, it } from 'vitest';
import { parisDay } from './format';

describe('parisDay', () => {
  it('donne le jour à Paris, pas celui du fuseau du navigateur', () => {
    // 23 h 30 UTC le 29 novembre : déjà le 30 à Paris (UTC+1).
    expect(parisDay(new Date('2026-11-29T23:30:00Z'))).toBe('2026-11-30');
    expect(parisDay(new Date('2026-11-29T22:30:00Z'))).toBe('2026-11-29');
    // L'heure d'été : UTC+2.
    expect(parisDay(new Date('2026-07-14T22:30:00Z'))).toBe('2026-07-15');
  });
});
