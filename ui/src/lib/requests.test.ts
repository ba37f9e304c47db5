// Les fonctions d'appel des modules : chaque requête part avec la méthode,
// l'adresse (encodage, paramètres) et le corps que les écrans envoyaient.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changePassword } from './account';
import {
  changeQuoteStatus,
  createCreditNote,
  getInvoice,
  invoiceQuote,
  issueInvoice,
  listInvoices,
  listQuotes,
  updateInvoiceDraft,
} from './billing';
import { assignCall, listCallColumn, searchCallEquipment } from './calls';
import { listClients, setClientArchived } from './clients';
import { getDashboard } from './dashboard';
import { createRepairQuote, getLogbook, searchEquipmentClients, updateIdentity } from './equipment';
import { checkImport, getImportFile, uploadImportFile } from './imports';
import { createKey, listKeys, revokeKey } from './keys';
import { recordPayment } from './payments';
import { cancelVisitStart, getWeek, moveVisit, searchPlanningEquipment, setVisitInterval, startVisit } from './planning';
import { createBackup, getDiagnostics, restoreBackup } from './settings';
import { listDiscrepancies, listSurveys, submitSurvey } from './surveys';
import { deleteAbsence, getRota, setRotaWeek } from './technicians';
import { listDeliveries, testSubscription } from './webhooks';

type Seen = { method: string; url: string; body: string | undefined; signal: AbortSignal | undefined };

let seen: Seen[] = [];

beforeEach(() => {
  seen = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push({
        method: init?.method ?? 'GET',
        url: String(input),
        body: init?.body as string | undefined,
        signal: init?.signal ?? undefined,
      });
      return new Response('{}', { status: 200 });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** La seule requête envoyée par `call`. */
async function request(call: () => Promise<unknown>): Promise<Seen> {
  seen = [];
  await call();
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

describe('adresses et corps des requêtes', () => {
  it('encode les identifiants dans le chemin', async () => {
    expect(await request(() => getInvoice('a/b c'))).toMatchObject({
      method: 'GET',
      url: '/app/api/invoices/a%2Fb%20c',
    });
    expect(await request(() => getLogbook('é/1'))).toMatchObject({ url: '/app/api/equipment/%C3%A9%2F1/logbook' });
  });

  it('garde les paramètres des listes dans le même ordre', async () => {
    expect((await request(() => listQuotes({ status: 'envoye', equipment: ' ASC ' }, 2, 50))).url).toBe(
      '/app/api/quotes?limit=50&page=2&status=envoye&equipment=ASC',
    );
    expect((await request(() => listInvoices({ client: '', status: '', since: '2026-01-01', until: '' }, 1, 50))).url).toBe(
      '/app/api/invoices?limit=50&page=1&since=2026-01-01',
    );
    expect((await request(() => listClients({ q: 'Dupont', archived: 'active' }, 3))).url).toBe(
      '/app/api/clients?q=Dupont&archived=active&limit=25&page=3',
    );
    expect((await request(() => listSurveys('', 1))).url).toBe('/app/api/surveys?page=1&limit=50');
    expect((await request(() => getRota(8, '2026-11-23'))).url).toBe(
      '/app/api/technicians/rota?weeks=8&from=2026-11-23',
    );
    expect((await request(() => getRota(8, null))).url).toBe('/app/api/technicians/rota?weeks=8');
    expect((await request(() => listCallColumn('en_route', 2, 20))).url).toBe(
      '/app/api/calls?statut=en_route&page=2&limit=20',
    );
    expect((await request(() => listDiscrepancies('r 1', 2, 10))).url).toBe(
      '/app/api/surveys/r%201/discrepancies?page=2&limit=10',
    );
    expect((await request(() => listKeys('/app/api/keys/tokens', 20, 1))).url).toBe(
      '/app/api/keys/tokens?limit=20&page=1',
    );
    expect((await request(() => listDeliveries('w/1', 1, 20))).url).toBe(
      '/app/api/webhooks/w%2F1/deliveries?limit=20&page=1',
    );
  });

  it('encode les recherches', async () => {
    expect((await request(() => searchCallEquipment('ASC 12&x'))).url).toBe('/app/api/calls/equipment?q=ASC%2012%26x');
    expect((await request(() => searchEquipmentClients('Dupont & fils'))).url).toBe(
      '/app/api/equipment/clients?q=Dupont%20%26%20fils',
    );
  });

  it('passe le signal d’annulation', async () => {
    const controller = new AbortController();
    const week = await request(() => getWeek('2026-11-23', controller.signal));
    expect(week).toMatchObject({ url: '/app/api/planning?day=2026-11-23', signal: controller.signal });
    expect((await request(() => getWeek(null))).url).toBe('/app/api/planning');
    const search = await request(() => searchPlanningEquipment('Tilleuls 3', controller.signal));
    expect(search).toMatchObject({ url: '/app/api/planning/equipment?q=Tilleuls%203', signal: controller.signal });
  });

  it('envoie un corps vide `{}` ou pas de corps, comme avant', async () => {
    expect(await request(() => startVisit('v1'))).toMatchObject({
      method: 'POST',
      url: '/app/api/visits/v1/start',
      body: '{}',
    });
    expect(await request(() => cancelVisitStart('v1'))).toMatchObject({
      url: '/app/api/visits/v1/cancel-start',
      body: undefined,
    });
    expect(await request(() => issueInvoice('f1'))).toMatchObject({ url: '/app/api/invoices/f1/issue', body: undefined });
    expect(await request(() => changeQuoteStatus('d1', 'accept'))).toMatchObject({
      url: '/app/api/quotes/d1/accept',
      body: undefined,
    });
    expect(await request(() => testSubscription('w1'))).toMatchObject({ url: '/app/api/webhooks/w1/test', body: undefined });
    expect(await request(() => revokeKey('/app/api/keys/partner-keys', 'k 1'))).toMatchObject({
      url: '/app/api/keys/partner-keys/k%201/revoke',
      body: undefined,
    });
    expect(await request(() => createBackup())).toMatchObject({ url: '/app/api/settings/backups', body: '{}' });
    expect(await request(() => createRepairQuote('e1'))).toMatchObject({
      url: '/app/api/equipment/e1/repair-quote',
      body: '{}',
    });
    expect(await request(() => setClientArchived('c1', 'archive'))).toMatchObject({
      url: '/app/api/clients/c1/archive',
      body: '{}',
    });
  });

  it('garde les corps JSON à l’identique', async () => {
    expect((await request(() => changePassword('ancien', 'nouveau-mdp'))).body).toBe(
      '{"currentPassword":"ancien","newPassword":"nouveau-mdp"}',
    );
    expect((await request(() => invoiceQuote('d1', ''))).body).toBe('{}');
    expect((await request(() => invoiceQuote('d1', 'cl-1'))).body).toBe('{"clientId":"cl-1"}');
    expect(await request(() => recordPayment('f1', { paidOn: '2026-11-25' }))).toMatchObject({
      method: 'POST',
      url: '/app/api/invoices/f1/payment',
      body: '{"paidOn":"2026-11-25"}',
    });
    expect(
      (await request(() => recordPayment('f1', { amount: 200.5, paidOn: '2026-11-25', method: 'cheque', reference: 'CHQ 1' })))
        .body,
    ).toBe('{"amount":200.5,"paidOn":"2026-11-25","method":"cheque","reference":"CHQ 1"}');
    expect((await request(() => createCreditNote('f1', {}))).body).toBe('{}');
    expect(await request(() => updateInvoiceDraft('f1', { lines: [] }))).toMatchObject({
      method: 'PATCH',
      url: '/app/api/invoices/f1',
      body: '{"lines":[]}',
    });
    expect((await request(() => assignCall('a1', 't1', undefined))).body).toBe('{"technicianId":"t1"}');
    expect((await request(() => moveVisit('v1', { plannedFor: '2026-11-24', technicianId: 't1' }))).body).toBe(
      '{"plannedFor":"2026-11-24","technicianId":"t1"}',
    );
    expect(await request(() => setVisitInterval('e 1', 30))).toMatchObject({
      method: 'PUT',
      url: '/app/api/planning/equipment/e%201/interval',
      body: '{"days":30}',
    });
    expect(await request(() => setRotaWeek('2026-11-23', 't1'))).toMatchObject({
      method: 'PUT',
      url: '/app/api/technicians/rota/2026-11-23',
      body: '{"technicianId":"t1"}',
    });
    expect((await request(() => createKey('/app/api/keys/tokens', 'Outil'))).body).toBe('{"name":"Outil"}');
    expect((await request(() => restoreBackup('/media/cle/sauvegarde.sqlite3'))).body).toBe(
      '{"path":"/media/cle/sauvegarde.sqlite3"}',
    );
    expect(await request(() => submitSurvey('r1', { surveyedOn: '2026-11-20' }))).toMatchObject({
      url: '/app/api/surveys/r1/submit',
      body: '{"surveyedOn":"2026-11-20"}',
    });
    expect(await request(() => updateIdentity('e1', { number: 'ASC-2' }))).toMatchObject({
      method: 'PATCH',
      url: '/app/api/equipment/e1/identity',
      body: '{"number":"ASC-2"}',
    });
  });

  it('imports : envoi, lecture et vérification', async () => {
    expect(await request(() => uploadImportFile('parc.csv', 'YQ=='))).toMatchObject({
      url: '/app/api/imports/files',
      body: '{"name":"parc.csv","content":"YQ=="}',
    });
    expect((await request(() => getImportFile('f 1'))).url).toBe('/app/api/imports/f%201');
    expect(await request(() => checkImport('f1', 'clients', { Nom: 'name', Autre: null }))).toMatchObject({
      url: '/app/api/imports/f1/check',
      body: '{"target":"clients","mapping":{"Nom":"name","Autre":null}}',
    });
  });

  it('supprime une absence, lit le tableau de bord', async () => {
    expect(await request(() => deleteAbsence('t/1', 'a 1'))).toMatchObject({
      method: 'DELETE',
      url: '/app/api/technicians/t%2F1/absences/a%201',
    });
    expect((await request(() => getDashboard())).url).toBe('/app/api/dashboard');
  });

  it('lit le diagnostic en texte, et le refuse sur une erreur du serveur', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('Liftdesk 1.0', { status: 200 })));
    expect(await getDiagnostics()).toBe('Liftdesk 1.0');
    vi.stubGlobal('fetch', vi.fn(async () => new Response('', { status: 500 })));
    await expect(getDiagnostics()).rejects.toThrow('Le serveur a rencontré une erreur. Réessayez plus tard.');
  });
});
