/**
 * Pour les tests unitaires des fonctions d'appel à l'API : `fetch` remplacé,
 * chaque requête notée (méthode, adresse, corps), toujours `200 {}`.
 * `recordRequests()` s'appelle dans un `describe` : il installe le relevé avant
 * chaque test et le retire après ; le tableau rendu est vidé à chaque test.
 */
import { afterEach, beforeEach, vi } from 'vitest';

export interface SeenRequest {
  method: string;
  url: string;
  body: string | undefined;
}

export function recordRequests(): SeenRequest[] {
  const seen: SeenRequest[] = [];
  beforeEach(() => {
    seen.length = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        seen.push({ method: init?.method ?? 'GET', url: String(input), body: init?.body as string | undefined });
        return new Response('{}', { status: 200 });
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });
  return seen;
}
