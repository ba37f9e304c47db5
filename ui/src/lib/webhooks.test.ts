// Panneau des webhooks : une formulation cohérente entre le réseau (sonde) et les livraisons,
// des temps relatifs à jour.
import { describe, expect, it } from 'vitest';
import { relativeTime } from './format';
import { deliveryView, networkText, networkWait, nextAttemptText } from './webhooks';

const NOW = Date.parse('2026-11-28T23:00:00Z');
const at = (seconds: number) => new Date(NOW + seconds * 1000).toISOString();
const DNS = 'Nom du destinataire introuvable (DNS) : envoi en attente du réseau.';
const OFFLINE = 'Hors ligne : envoi en attente du retour du réseau.';

describe('relativeTime', () => {
  it('passé et futur, en secondes, minutes, heures', () => {
    expect(relativeTime(at(0), NOW)).toBe("à l'instant");
    expect(relativeTime(at(-12), NOW)).toBe('il y a 12 s');
    expect(relativeTime(at(180), NOW)).toBe('dans 3 min');
    expect(relativeTime(at(-7200), NOW)).toBe('il y a 2 h');
    expect(relativeTime(null, NOW)).toBe('—');
  });

  it('au-delà d’un jour, la date et l’heure', () => {
    expect(relativeTime(at(-3 * 86_400), NOW)).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  });
});

describe('networkWait', () => {
  it('lit la raison notée sans essai compté', () => {
    expect(networkWait({ status: 'en_attente', lastError: DNS })).toBe('name');
    expect(networkWait({ status: 'echec', lastError: OFFLINE })).toBe('offline');
    expect(networkWait({ status: 'echec', lastError: 'Le destinataire a répondu HTTP 500.' })).toBeNull();
    expect(networkWait({ status: 'abandonnee', lastError: DNS })).toBeNull();
    expect(networkWait({ status: 'en_attente', lastError: null })).toBeNull();
  });
});

describe('nextAttemptText', () => {
  it('à venir : relatif ; dû : « Maintenant » ; hors ligne : au retour du réseau', () => {
    expect(nextAttemptText(at(240), true, NOW)).toBe('dans 4 min');
    expect(nextAttemptText(at(-20), true, NOW)).toBe('Maintenant');
    expect(nextAttemptText(at(-300), true, NOW)).toBe('Maintenant (prévu il y a 5 min)');
    expect(nextAttemptText(at(240), false, NOW)).toBe('Au retour du réseau');
    expect(nextAttemptText(null, true, NOW)).toBe('—');
  });

  it('le même instant se relit autrement quand l’heure avance', () => {
    expect(nextAttemptText(at(90), true, NOW)).toBe('dans 2 min');
    expect(nextAttemptText(at(90), true, NOW + 60_000)).toBe('dans 30 s');
    expect(nextAttemptText(at(90), true, NOW + 95_000)).toBe('Maintenant');
  });
});

describe('deliveryView', () => {
  it('en ligne, jamais « en attente du réseau »', () => {
    for (const lastError of [DNS, OFFLINE]) {
      const view = deliveryView({ status: 'en_attente', lastError, nextAttemptAt: at(-120) }, true, NOW);
      expect(`${view.label} ${view.error} ${view.next}`).not.toMatch(/attente du (retour du )?réseau|Hors ligne/);
      expect(view.label).toBe('En attente');
      expect(view.next).toBe('Maintenant (prévu il y a 2 min)');
    }
    expect(deliveryView({ status: 'en_attente', lastError: DNS, nextAttemptAt: null }, true, NOW).error).toBe(
      "Nom du destinataire introuvable (DNS) : vérifiez l'adresse ; nouvel essai automatique.",
    );
  });

  it('hors ligne : « En attente du réseau », prochain essai au retour du réseau', () => {
    const view = deliveryView({ status: 'echec', lastError: OFFLINE, nextAttemptAt: at(60) }, false, NOW);
    expect(view).toEqual({ label: 'En attente du réseau', tone: 'neutral', error: OFFLINE, next: 'Au retour du réseau' });
  });

  it('les autres états gardent leur libellé et leur raison', () => {
    expect(deliveryView({ status: 'livree', lastError: null, nextAttemptAt: null }, true, NOW)).toEqual({
      label: 'Livrée',
      tone: 'success',
      error: '—',
      next: '—',
    });
    const failed = deliveryView(
      { status: 'echec', lastError: 'Le destinataire a répondu HTTP 500.', nextAttemptAt: at(300) },
      true,
      NOW,
    );
    expect(failed).toEqual({
      label: 'Échec, nouvel essai prévu',
      tone: 'danger',
      error: 'Le destinataire a répondu HTTP 500.',
      next: 'dans 5 min',
    });
    expect(deliveryView({ status: 'abandonnee', lastError: 'x', nextAttemptAt: null }, false, NOW).next).toBe('—');
  });
});

describe('networkText', () => {
  it('en ligne ou hors ligne, avec ce que cela veut dire', () => {
    expect(networkText(true)).toEqual({ label: 'En ligne', tone: 'success', detail: '' });
    expect(networkText(false).detail).toBe('Les livraisons attendent le retour du réseau.');
  });
});
