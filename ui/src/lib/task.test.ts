import { describe, expect, it } from 'vitest';
import { ApiError, FALLBACK_MESSAGES } from './api';
import { errorMessage, Task } from './task.svelte';

/** Une promesse que le test résout ou rejette quand il le veut. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((ok, ko) => {
    resolve = ok;
    reject = ko;
  });
  return { promise, resolve, reject };
}

describe('état d’un appel (Task)', () => {
  it('est occupé pendant l’appel, libre après, et renvoie le résultat', async () => {
    const task = new Task();
    const call = deferred<number>();
    expect(task.busy).toBe(false);
    const running = task.run(() => call.promise);
    expect(task.busy).toBe(true);
    call.resolve(42);
    expect(await running).toBe(42);
    expect(task.busy).toBe(false);
    expect(task.error).toBeNull();
  });

  it('garde le message français d’une ApiError, puis l’efface au nouvel appel', async () => {
    const task = new Task();
    const failed = await task.run(() => Promise.reject(new ApiError(409, 'Ce devis a déjà été envoyé.')));
    expect(failed).toBeUndefined();
    expect(task.error).toBe('Ce devis a déjà été envoyé.');
    expect(task.busy).toBe(false);

    const call = deferred<string>();
    const running = task.run(() => call.promise);
    expect(task.error).toBeNull();
    expect(task.busy).toBe(true);
    call.resolve('ok');
    expect(await running).toBe('ok');
    expect(task.error).toBeNull();
  });

  it('libère aussi après un échec survenu pendant l’appel', async () => {
    const task = new Task();
    const call = deferred<void>();
    const running = task.run(() => call.promise);
    expect(task.busy).toBe(true);
    call.reject(new ApiError(500, FALLBACK_MESSAGES.server));
    await running;
    expect(task.busy).toBe(false);
    expect(task.error).toBe(FALLBACK_MESSAGES.server);
  });

  it('prend le message de repli pour une erreur qui ne vient pas du serveur', async () => {
    const network = new Task();
    await network.run(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(network.error).toBe(FALLBACK_MESSAGES.network);

    const fixed = new Task("L'action a échoué.");
    await fixed.run(() => Promise.reject(new Error('boum')));
    expect(fixed.error).toBe("L'action a échoué.");

    const computed = new Task(String);
    await computed.run(() => Promise.reject(new Error('boum')));
    expect(computed.error).toBe('Error: boum');
  });

  it('errorMessage lit une ApiError comme les écrans', () => {
    expect(errorMessage(new ApiError(404, "L'élément demandé est introuvable."))).toBe(
      "L'élément demandé est introuvable.",
    );
    expect(errorMessage('x')).toBe(FALLBACK_MESSAGES.network);
    expect(errorMessage('x', 'Repli.')).toBe('Repli.');
  });
});
