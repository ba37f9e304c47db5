/**
 * Webhooks de l'agence active : les appels à `/app/api/webhooks…` (état de
 * l'envoi, événements, abonnements, livraisons, test et révocation). Les
 * formes des réponses (générées depuis le code Rust) et la validation sont
 * dans `keys.ts`.
 */
import { api } from './api';
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
