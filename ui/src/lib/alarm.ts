/**
 * Alerte sonore du tableau des appels : trois bips courts (WebAudio), sans fichier
 * son. Les navigateurs n'autorisent le son qu'après une action de l'utilisateur :
 * `unlockAudio()` est appelé au premier clic ou à la première touche sur l'écran.
 * Et la notification du bureau (API `Notification`) d'un appel « personne
 * bloquée », quand le navigateur l'a permise ; la permission n'est demandée que
 * sur un clic (« Activer les notifications »), jamais au chargement.
 */

let context: AudioContext | null = null;

function audioContext(): AudioContext | null {
  if (context) return context;
  const Ctor = globalThis.AudioContext ?? (globalThis as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctor) return null;
  try {
    context = new Ctor();
  } catch {
    context = null;
  }
  return context;
}

/** À appeler sur une action de l'utilisateur : le son sera permis ensuite. */
export function unlockAudio(): void {
  const ctx = audioContext();
  if (ctx && ctx.state === 'suspended') void ctx.resume().catch(() => {});
}

/** Joue l'alerte ; `false` si le navigateur ne l'a pas permis (l'alerte visible reste). */
export async function playAlarm(): Promise<boolean> {
  const ctx = audioContext();
  if (!ctx) return false;
  try {
    if (ctx.state === 'suspended') {
      // Sans action préalable de l'utilisateur, `resume()` peut ne jamais aboutir.
      await Promise.race([ctx.resume(), new Promise((resolve) => setTimeout(resolve, 300))]);
    }
    if (ctx.state !== 'running') return false;
    const start = ctx.currentTime + 0.02;
    for (let i = 0; i < 3; i += 1) {
      const at = start + i * 0.3;
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.type = 'square';
      oscillator.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.25, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.2);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.22);
    }
    return true;
  } catch {
    return false;
  }
}

// -- Notifications du bureau ----------------------------------------------------

export type NotificationState = NotificationPermission | 'unsupported';

/** La permission actuelle des notifications (`unsupported` sans l'API). */
export function notificationState(): NotificationState {
  return typeof globalThis.Notification === 'function' ? globalThis.Notification.permission : 'unsupported';
}

/** À appeler sur un clic : demande la permission au navigateur ; rend la réponse. */
export async function requestNotifications(): Promise<NotificationState> {
  if (typeof globalThis.Notification !== 'function') return 'unsupported';
  try {
    return await globalThis.Notification.requestPermission();
  } catch {
    return notificationState();
  }
}

/**
 * Notification du bureau d'un appel « personne bloquée » (une seule par appel :
 * `tag`) ; un clic ramène sur l'onglet et ouvre l'appel (`open`). `false` si
 * les notifications ne sont pas permises.
 */
export function notifyUrgentCall(call: { id: string; reference: string }, open: () => void): boolean {
  if (notificationState() !== 'granted') return false;
  try {
    const notification = new Notification(`Personne bloquée : appel ${call.reference}`, {
      body: "Un appel « personne bloquée » vient d'arriver. Cliquez pour l'ouvrir.",
      tag: `appel-${call.id}`,
      requireInteraction: true,
    });
    notification.onclick = () => {
      window.focus();
      open();
      notification.close();
    };
    return true;
  } catch {
    return false;
  }
}
