import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiClient, ApiError, errorFromResponse, FALLBACK_MESSAGES, type Session } from './api';

const SESSION: Session = {
  account: { id: 'acc-1', name: 'Camille Martin', email: 'camille@agence.fr', role: 'admin', mustChangePassword: false },
  agency: { id: 'ag-1', name: 'Agence Lyon Nord' },
  agencies: [
    { id: 'ag-1', name: 'Agence Lyon Nord' },
    { id: 'ag-2', name: 'Agence Lyon Sud' },
  ],
  installationAdmin: true,
  csrfToken: 'jeton-csrf-123',
};

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

type FetchArgs = Parameters<typeof fetch>;

function mockFetch(...responses: Array<Response | Error>) {
  const fn = vi.fn<(...args: FetchArgs) => Promise<Response>>();
  for (const response of responses) {
    if (response instanceof Error) fn.mockRejectedValueOnce(response);
    else fn.mockResolvedValueOnce(response);
  }
  return fn;
}

function headersOf(fn: ReturnType<typeof mockFetch>, call: number): Headers {
  const init = fn.mock.calls[call]?.[1];
  return new Headers(init?.headers);
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error("l'appel aurait dû échouer");
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('analyse des erreurs', () => {
  it('reprend le message français et le code du serveur', async () => {
    const fetch = mockFetch(json(401, { error: 'Adresse e-mail ou mot de passe incorrect.' }));
    const api = new ApiClient(fetch);
    const error = await caught(api.signIn('camille@agence.fr', 'mauvais'));
    expect(error.status).toBe(401);
    expect(error.message).toBe('Adresse e-mail ou mot de passe incorrect.');
  });

  it('garde le message du serveur pour un 429', async () => {
    const api = new ApiClient(mockFetch(json(429, { error: 'Trop de tentatives, réessayez dans une minute.' })));
    const error = await caught(api.signIn('a@b.fr', 'x'));
    expect(error.status).toBe(429);
    expect(error.message).toBe('Trop de tentatives, réessayez dans une minute.');
  });

  it('utilise un message de repli si le corps n’est pas du JSON', async () => {
    const response = new Response('<html>Bad Gateway</html>', { status: 502 });
    const error = await errorFromResponse(response);
    expect(error.status).toBe(502);
    expect(error.message).toBe(FALLBACK_MESSAGES.server);
  });

  it('utilise un message de repli si `error` est absent ou vide', async () => {
    expect((await errorFromResponse(json(400, { message: 'x' }))).message).toBe(
      'La requête a échoué (code 400).',
    );
    expect((await errorFromResponse(json(403, { error: '' }))).message).toBe(FALLBACK_MESSAGES.forbidden);
    expect((await errorFromResponse(new Response(null, { status: 429 }))).message).toBe(
      FALLBACK_MESSAGES.tooManyRequests,
    );
  });

  it('transforme une panne réseau en ApiError de code 0', async () => {
    const api = new ApiClient(mockFetch(new TypeError('Failed to fetch')));
    const error = await caught(api.get('/app/api/quelque-chose'));
    expect(error.status).toBe(0);
    expect(error.message).toBe(FALLBACK_MESSAGES.network);
  });

  it('prévient onUnauthorized sur un 401 d’un appel authentifié, pas sur la connexion', async () => {
    const fetch = mockFetch(
      json(401, { error: 'Adresse e-mail ou mot de passe incorrect.' }),
      json(200, SESSION),
      json(401, { error: 'Session expirée.' }),
    );
    const api = new ApiClient(fetch);
    const onUnauthorized = vi.fn();
    api.onUnauthorized = onUnauthorized;

    await caught(api.signIn('camille@agence.fr', 'mauvais'));
    expect(onUnauthorized).not.toHaveBeenCalled();

    await api.signIn('camille@agence.fr', 'bon');
    expect(api.csrfToken).toBe('jeton-csrf-123');
    await caught(api.post('/app/api/appels', { objet: 'panne' }));
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(onUnauthorized.mock.calls[0]?.[0]).toMatchObject({ status: 401, message: 'Session expirée.' });
    expect(api.csrfToken).toBeNull();
  });
});

describe('jeton CSRF', () => {
  it('n’envoie pas de jeton à la connexion, puis l’envoie sur les appels mutants', async () => {
    const fetch = mockFetch(
      json(200, SESSION),
      json(200, { ok: true }),
      json(200, { ok: true }),
      json(200, { ok: true }),
      json(200, { ok: true }),
      new Response(null, { status: 204 }),
    );
    const api = new ApiClient(fetch);

    const session = await api.signIn('camille@agence.fr', 'secret');
    expect(session).toEqual(SESSION);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/app/api/session');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('same-origin');
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'camille@agence.fr', password: 'secret' });
    expect(headersOf(fetch, 0).get('Content-Type')).toBe('application/json');
    expect(headersOf(fetch, 0).has('X-CSRF-Token')).toBe(false);

    await api.get('/app/api/agences');
    expect(headersOf(fetch, 1).has('X-CSRF-Token')).toBe(false);
    expect(headersOf(fetch, 1).has('Content-Type')).toBe(false);

    await api.post('/app/api/appels', { objet: 'panne' });
    await api.put('/app/api/appels/1', { objet: 'panne' });
    await api.patch('/app/api/appels/1', { objet: 'panne' });
    await api.signOut();

    for (const call of [2, 3, 4, 5]) {
      expect(headersOf(fetch, call).get('X-CSRF-Token')).toBe('jeton-csrf-123');
      expect(fetch.mock.calls[call]?.[1]?.credentials).toBe('same-origin');
    }
    expect(fetch.mock.calls.map((c) => c[1]?.method)).toEqual(['POST', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    expect(fetch.mock.calls[5]?.[0]).toBe('/app/api/session');
    // Après la déconnexion, plus de jeton.
    expect(api.csrfToken).toBeNull();
  });

  it('reprend le jeton renvoyé par GET /app/api/session', async () => {
    const fetch = mockFetch(json(200, { ...SESSION, csrfToken: 'jeton-relu' }), new Response(null, { status: 204 }));
    const api = new ApiClient(fetch);
    const session = await api.getSession();
    expect(session?.account.name).toBe('Camille Martin');
    await api.delete('/app/api/session');
    expect(headersOf(fetch, 1).get('X-CSRF-Token')).toBe('jeton-relu');
  });

  it('GET /app/api/session en 401 donne null et oublie le jeton', async () => {
    const api = new ApiClient(mockFetch(json(401, { error: 'Vous n’êtes pas connecté.' })));
    api.setCsrfToken('ancien');
    expect(await api.getSession()).toBeNull();
    expect(api.csrfToken).toBeNull();
  });

  it('GET /app/api/session en 500 lève l’erreur', async () => {
    const api = new ApiClient(mockFetch(json(500, { error: 'Base de données indisponible.' })));
    const error = await caught(api.getSession());
    expect(error.status).toBe(500);
    expect(error.message).toBe('Base de données indisponible.');
  });

  it('la déconnexion d’une session déjà expirée (401) ne lève pas d’erreur', async () => {
    const api = new ApiClient(mockFetch(json(401, { error: 'Session expirée.' })));
    api.setCsrfToken('jeton');
    await expect(api.signOut()).resolves.toBeUndefined();
    expect(api.csrfToken).toBeNull();
  });

  it('utilise le fetch global par défaut', async () => {
    const fetch = mockFetch(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetch);
    const api = new ApiClient();
    api.setCsrfToken('jeton-global');
    await api.delete('/app/api/session');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(headersOf(fetch, 0).get('X-CSRF-Token')).toBe('jeton-global');
  });
});
