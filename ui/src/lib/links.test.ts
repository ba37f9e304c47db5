// Adresses des fiches pointées par les liens des listes.
import { describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  (globalThis as Record<string, unknown>).window ??= {
    location: { pathname: '/' },
    addEventListener: () => {},
  };
});

const { buildingLink, clientPath, equipmentPath } = await import('./links');

describe('liens vers les fiches', () => {
  it('un équipement par son identifiant', () => {
    expect(equipmentPath('01a2-x')).toBe('/equipements/01a2-x');
    expect(equipmentPath('a/b')).toBe('/equipements/a%2Fb');
  });

  it('un client par son identifiant CLI-…', () => {
    expect(clientPath('CLI-000117')).toBe('/clients/CLI-000117');
    expect(clientPath(' CLI 7 ')).toBe('/clients/CLI%207');
  });

  it('un immeuble par son identifiant', () => {
    expect(buildingLink('01a2-b')).toBe('/immeubles/01a2-b');
    expect(buildingLink('a/b c')).toBe('/immeubles/a%2Fb%20c');
  });
});
