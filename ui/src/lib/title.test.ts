// Titre de l'onglet : composition « <Écran> — Liftdesk » avec un préfixe, et titres par section.
import { describe, expect, it, vi } from 'vitest';

// Le routeur lit `window` à son chargement : une adresse suffit ici (environnement node).
vi.hoisted(() => {
  (globalThis as Record<string, unknown>).window ??= {
    location: { pathname: '/' },
    addEventListener: () => {},
  };
});

const { APP_NAME, composeTitle, pageTitle, sectionTitle, setTitlePrefix } = await import('./title.svelte');

describe('composeTitle', () => {
  it('met le nom de l’application après l’écran', () => {
    expect(composeTitle('Factures et avoirs')).toBe('Factures et avoirs — Liftdesk');
    expect(composeTitle('Facture FA-PO-2026-000012')).toBe('Facture FA-PO-2026-000012 — Liftdesk');
  });

  it('sans écran, le nom seul', () => {
    expect(composeTitle(null)).toBe(APP_NAME);
    expect(composeTitle('   ')).toBe('Liftdesk');
  });

  it('compose avec un préfixe (appels urgents), espaces en trop retirés', () => {
    expect(composeTitle('Planning', '(2)')).toBe('(2) Planning — Liftdesk');
    expect(composeTitle(null, '(1)')).toBe('(1) Liftdesk');
    expect(composeTitle('  Équipement   ASC-1 ', '  ')).toBe('Équipement ASC-1 — Liftdesk');
  });
});

describe('sectionTitle', () => {
  it('nomme chaque écran par son chemin, sous-chemins compris', () => {
    expect(sectionTitle('/')).toBe('Accueil');
    expect(sectionTitle('/factures')).toBe('Factures et avoirs');
    expect(sectionTitle('/factures/abc')).toBe('Factures et avoirs');
    expect(sectionTitle('/appels/1/')).toBe('Appels de panne');
    expect(sectionTitle('/equipements/1/carnet')).toBe('Équipements');
    expect(sectionTitle('/connexion')).toBe('Connexion');
    expect(sectionTitle('/parametres')).toBe('Paramètres');
  });

  it('une adresse inconnue : « Page introuvable »', () => {
    expect(sectionTitle('/nulle-part')).toBe('Page introuvable');
  });
});

describe('pageTitle', () => {
  it('la fiche l’emporte sur la section, le préfixe se compose', () => {
    pageTitle.section = 'Factures et avoirs';
    expect(pageTitle.text).toBe('Factures et avoirs — Liftdesk');
    pageTitle.overrides = [{ id: -1, text: 'Facture FA-PO-2026-000012' }];
    expect(pageTitle.text).toBe('Facture FA-PO-2026-000012 — Liftdesk');
    setTitlePrefix('(2)');
    expect(pageTitle.text).toBe('(2) Facture FA-PO-2026-000012 — Liftdesk');
    pageTitle.overrides = [];
    setTitlePrefix('');
    expect(pageTitle.text).toBe('Factures et avoirs — Liftdesk');
  });
});
