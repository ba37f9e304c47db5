/**
 * Webhooks de l'agence active : les appels à `/app/api/webhooks…` (état de
 * l'envoi, événements, abonnements, livraisons, test et révocation). Les
 * formes des réponses (générées depuis le code Rust) et la validation sont
 * dans `keys.ts`.
 */
import { api } from './api';
import { relativeTime } from './format';
import { deliveryStatus } from './keys';
import type {
  Delivery,
  Paged,
  Subscribed,
  Subscription,
  SyncStatus,
  TestSent,
  WebhookEventChoice,
  WebhookRevoked,
} from './keys';

const BASE = '/app/api/webhooks';

/** `GET /webhooks/status` : en ligne, livraisons en attente, prochain essai. */
export function getSyncStatus(): Promise<SyncStatus> {
  return api.get<SyncStatus>(`${BASE}/status`);
}

/** `GET /webhooks/events` : les événements auxquels s'abonner. */
export function listWebhookEvents(): Promise<WebhookEventChoice[]> {
  return api.get<WebhookEventChoice[]>(`${BASE}/events`);
}

/** `GET /webhooks` : les abonnements de l'agence. */
export function listSubscriptions(): Promise<Subscription[]> {
  return api.get<Subscription[]>(BASE);
}

/** `GET /webhooks/{id}/deliveries` : une page des dernières livraisons d'un abonnement. */
export function listDeliveries(id: string, page: number, limit: number): Promise<Paged<Delivery>> {
  return api.get<Paged<Delivery>>(`${BASE}/${encodeURIComponent(id)}/deliveries?limit=${limit}&page=${page}`);
}

/** `POST /webhooks` : l'abonnement créé et son secret (montré une seule fois). */
export function createSubscription(url: string, events: string[]): Promise<Subscribed> {
  return api.post<Subscribed>(BASE, { url, events });
}

/** `POST /webhooks/{id}/test` : envoie un événement de test, et sa livraison. */
export function testSubscription(id: string): Promise<TestSent> {
  return api.post<TestSent>(`${BASE}/${encodeURIComponent(id)}/test`);
}

/** `POST /webhooks/{id}/revoke` : révoque l'abonnement ; les livraisons en attente abandonnées. */
export function revokeSubscription(id: string): Promise<WebhookRevoked> {
  return api.post<WebhookRevoked>(`${BASE}/${encodeURIComponent(id)}/revoke`);
}

// ---- L'état affiché : une seule formulation, cohérente avec la sonde ----

/**
 * Pourquoi une livraison attend le réseau, d'après la raison que l'envoi a
 * notée sans compter d'essai : `offline` (« Hors ligne : … », la sonde disait
 * hors ligne), `name` (le nom du destinataire ne se résout pas, « … (DNS) :
 * envoi en attente du réseau. »), sinon `null`. Le serveur ne le dit que dans
 * ce texte (`lastError`) : voir docs/ui.md, « Webhooks ».
 */
export type NetworkWait = 'offline' | 'name' | null;

export function networkWait(delivery: Pick<Delivery, 'status' | 'lastError'>): NetworkWait {
  if (delivery.status !== 'en_attente' && delivery.status !== 'echec') return null;
  const text = delivery.lastError ?? '';
  if (/^Hors ligne\b/.test(text)) return 'offline';
  if (/\(DNS\)/.test(text) && /attente du (retour du )?réseau/.test(text)) return 'name';
  return null;
}

/** Livraison encore à faire (en attente ou nouvel essai prévu). */
function waiting(status: string): boolean {
  return status === 'en_attente' || status === 'echec';
}

/**
 * Le prochain essai, à jour par rapport à `now` : « dans 3 min », « Maintenant »
 * (dû : l'envoi le reprend au prochain tour ; « (prévu il y a 5 min) » s'il est
 * dû depuis plus d'une minute), « Au retour du réseau » hors ligne, « — » s'il
 * n'y a rien à envoyer.
 */
export function nextAttemptText(at: string | null, online: boolean, now: number): string {
  if (!at) return '—';
  if (!online) return 'Au retour du réseau';
  const due = new Date(at).getTime();
  if (Number.isNaN(due)) return at;
  if (due > now + 1000) return relativeTime(at, now);
  return now - due > 60_000 ? `Maintenant (prévu ${relativeTime(at, now)})` : 'Maintenant';
}

export interface DeliveryView {
  label: string;
  tone: 'success' | 'danger' | 'neutral';
  /** La raison affichée (« — » sans erreur). */
  error: string;
  /** Le prochain essai (`nextAttemptText`). */
  next: string;
}

const NAME_WAIT_TEXT = "Nom du destinataire introuvable (DNS) : vérifiez l'adresse ; nouvel essai automatique.";
const BACK_ONLINE_TEXT = 'Le réseau était coupé au dernier essai : nouvel essai automatique.';

/**
 * Une livraison telle que l'écran la montre, accordée à l'état du réseau
 * (`online`, la sonde) : jamais « en attente du réseau » quand la sonde dit
 * « En ligne » (un nom introuvable est alors un souci du destinataire), et
 * « En attente du réseau » (prochain essai « Au retour du réseau ») hors ligne.
 */
export function deliveryView(
  delivery: Pick<Delivery, 'status' | 'lastError' | 'nextAttemptAt'>,
  online: boolean,
  now: number,
): DeliveryView {
  const base = deliveryStatus(delivery.status);
  const pending = waiting(delivery.status);
  const next = pending ? nextAttemptText(delivery.nextAttemptAt, online, now) : '—';
  const held = networkWait(delivery);
  if (held && !online) {
    return { label: 'En attente du réseau', tone: 'neutral', error: delivery.lastError ?? '—', next };
  }
  if (held === 'name') return { label: 'En attente', tone: 'neutral', error: NAME_WAIT_TEXT, next };
  if (held === 'offline') return { label: 'En attente', tone: 'neutral', error: BACK_ONLINE_TEXT, next };
  return { label: base.label, tone: base.tone, error: delivery.lastError ?? '—', next };
}

/** L'état du réseau : « En ligne », ou « Hors ligne » (les livraisons attendent son retour). */
export function networkText(online: boolean): { label: string; tone: 'success' | 'danger'; detail: string } {
  return online
    ? { label: 'En ligne', tone: 'success', detail: '' }
    : { label: 'Hors ligne', tone: 'danger', detail: 'Les livraisons attendent le retour du réseau.' };
}
