/**
 * Alerte sonore du tableau des appels : trois bips courts (WebAudio), sans fichier
 * son. Les navigateurs n'autorisent le son qu'après une action de l'utilisateur :
 * `unlockAudio()` est appelé au premier clic ou à la première touche sur l'écran.
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
