// Notifications du bureau (`alarm.ts`) : rien sans permission, une notification par appel, jamais de demande d'office.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notificationState, notifyUrgentCall, requestNotifications } from './alarm';

function stubNotification(permission: NotificationPermission) {
  const shown: { title: string; options: NotificationOptions }[] = [];
  const requestPermission = vi.fn(async () => 'granted' as NotificationPermission);
  class Stub {
    static permission = permission;
    static requestPermission = requestPermission;
    onclick: (() => void) | null = null;
    constructor(title: string, options: NotificationOptions) {
      shown.push({ title, options });
    }
    close() {}
  }
  vi.stubGlobal('Notification', Stub);
  return { shown, requestPermission };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('notifications du bureau', () => {
  it("sans l'API : non prises en charge, rien d'affiché", async () => {
    vi.stubGlobal('Notification', undefined);
    expect(notificationState()).toBe('unsupported');
    expect(await requestNotifications()).toBe('unsupported');
    expect(notifyUrgentCall({ id: 'a', reference: 'R1' }, () => {})).toBe(false);
  });

  it("n'affiche rien tant que la permission n'est pas donnée, et ne la demande pas", () => {
    const { shown, requestPermission } = stubNotification('default');
    expect(notifyUrgentCall({ id: 'a', reference: 'R1' }, () => {})).toBe(false);
    expect(shown).toEqual([]);
    expect(requestPermission).not.toHaveBeenCalled();
  });

  it("permise : une notification nommée par l'appel, marquée pour ne pas se répéter", () => {
    const { shown } = stubNotification('granted');
    expect(notifyUrgentCall({ id: 'a', reference: 'R1' }, () => {})).toBe(true);
    expect(shown).toHaveLength(1);
    expect(shown[0]!.title).toBe('Personne bloquée : appel R1');
    expect(shown[0]!.options.tag).toBe('appel-a');
  });

  it('la demande passe par le navigateur', async () => {
    const { requestPermission } = stubNotification('default');
    expect(await requestNotifications()).toBe('granted');
    expect(requestPermission).toHaveBeenCalledTimes(1);
  });
});
