import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordRequests } from './test-requests';
import {
  EXPORT_FORMATS,
  checkPeriod,
  downloadFile,
  exportFileUrl,
  exportQuery,
  exportStatusLine,
  exportUnit,
  pause,
  previousMonth,
  progressPercent,
  progressText,
  readExport,
  runExport,
  startExport,
  type ExportJob,
} from './exports';
import { clientQuery, EMPTY_CLIENT_FILTERS } from './clients';
import { EMPTY_FILTERS, parkQuery } from './equipment';

function job(overrides: Partial<ExportJob> = {}): ExportJob {
  return {
    id: 'exp-1',
    list: 'invoices',
    format: 'xlsx',
    status: 'en_cours',
    done: 0,
    total: 5000,
    fileName: 'factures-2026-11-28.xlsx',
    error: null,
    startedAt: '2026-11-28T20:50:00Z',
    ...overrides,
  };
}

describe('exports : la chaîne de requête des filtres', () => {
  it('garde les filtres non vides, rognés, sans page ni taille de page', () => {
    expect(exportQuery({ client: ' CLI-000042 ', status: 'emise', since: '', until: undefined, page: '3', limit: 50 })).toBe(
      'client=CLI-000042&status=emise',
    );
    expect(exportQuery({ status: null, equipment: '   ' })).toBe('');
    expect(exportQuery({ q: 'Rue de la Paix & fils' })).toBe('q=Rue+de+la+Paix+%26+fils');
  });

  it('reprend la chaîne de requête de la liste, page et taille de page retirées', () => {
    expect(exportQuery(parkQuery({ ...EMPTY_FILTERS, q: 'ASC 1', type: 'ascenseur' }, 4))).toBe(
      'q=ASC+1&type=ascenseur&archived=active',
    );
    expect(exportQuery(clientQuery({ ...EMPTY_CLIENT_FILTERS, archived: 'all' }, 2))).toBe('archived=all');
    expect(exportQuery('?status=ouverts&page=2&limit=20')).toBe('status=ouverts');
    expect(exportQuery(new URLSearchParams({ from: '2026-11-23', to: '2026-11-29' }))).toBe('from=2026-11-23&to=2026-11-29');
  });
});

describe('exports : la progression', () => {
  it('compte les lignes écrites sur le total, en français', () => {
    expect(progressText({ done: 1200, total: 5000 })).toBe('1\u202f200 / 5\u202f000 lignes');
    expect(progressText({ done: 0, total: 1 })).toBe('0 / 1 ligne');
    expect(progressText({ done: 0, total: 0 })).toBe('0 / 0 ligne');
    // Jamais plus que le total.
    expect(progressText({ done: 12, total: 10 })).toBe('10 / 10 lignes');
  });

  it('compte en documents l’export des factures électroniques, en lignes les autres', () => {
    expect(progressText(job({ list: 'facturx', format: 'zip', done: 3, total: 12 }))).toBe('3 / 12 documents');
    expect(progressText(job({ list: 'facturx', format: 'zip', done: 1, total: 1 }))).toBe('1 / 1 document');
    expect(progressText(job({ list: 'facturx', format: 'zip', done: 1500, total: 2400 }))).toBe('1\u202f500 / 2\u202f400 documents');
    expect(progressText(job({ list: 'facturx', format: 'zip', done: 14, total: 12 }))).toBe('12 / 12 documents');
    expect(progressText(job({ list: 'accounting', done: 3, total: 12 }))).toBe('3 / 12 lignes');
    expect(progressText(job({ done: 3, total: 12 }))).toBe('3 / 12 lignes');
    // L'unité peut être donnée : elle l'emporte sur la liste.
    expect(progressText({ done: 2, total: 5 }, 'document')).toBe('2 / 5 documents');
    expect(exportUnit('facturx')).toBe('document');
    expect(exportUnit('invoices')).toBe('ligne');
    expect(exportUnit(undefined)).toBe('ligne');
    const zip = job({
      list: 'facturx',
      format: 'zip',
      done: 3,
      total: 12,
      fileName: 'factures-electroniques-2026-10-01-au-2026-10-31.zip',
    });
    expect(exportStatusLine(zip)).toBe('Export en cours : 3 / 12 documents');
    expect(exportStatusLine({ ...zip, status: 'pret', done: 12 })).toBe(
      'Export prêt : factures-electroniques-2026-10-01-au-2026-10-31.zip',
    );
  });

  it('donne le pourcentage, 100 quand prêt ou sans ligne', () => {
    expect(progressPercent(job({ done: 1200 }))).toBe(24);
    expect(progressPercent(job({ done: 4999 }))).toBe(99);
    expect(progressPercent(job({ done: 0, total: 0 }))).toBe(100);
    expect(progressPercent(job({ status: 'pret', done: 10 }))).toBe(100);
  });

  it('écrit la ligne d’état de chaque statut', () => {
    expect(exportStatusLine(job({ done: 1200 }))).toBe('Export en cours : 1\u202f200 / 5\u202f000 lignes');
    expect(exportStatusLine(job({ status: 'pret', done: 5000 }))).toBe('Export prêt : factures-2026-11-28.xlsx');
    expect(exportStatusLine(job({ status: 'echec', error: 'Base indisponible.' }))).toBe(
      "Échec de l'export : Base indisponible.",
    );
    expect(exportStatusLine(job({ status: 'echec', error: null }))).toBe(
      "Échec de l'export : le fichier n'a pas pu être écrit.",
    );
  });

  it('propose le CSV pour Excel puis le classeur (jamais le zip des factures électroniques)', () => {
    expect(EXPORT_FORMATS.map((f) => f.code)).toEqual(['csv', 'xlsx']);
    expect(EXPORT_FORMATS.map((f) => f.label)).toEqual(['CSV (Excel, séparateur ;)', 'Excel (.xlsx)']);
  });
});

describe('exports : les périodes', () => {
  it('le mois civil précédent', () => {
    expect(previousMonth(new Date(2026, 10, 28))).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(previousMonth(new Date(2026, 0, 5))).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(previousMonth(new Date(2024, 2, 31))).toEqual({ from: '2024-02-01', to: '2024-02-29' });
  });

  it('contrôle la période comme le serveur', () => {
    expect(checkPeriod('2026-10-01', '2026-10-31')).toBeNull();
    expect(checkPeriod('', '2026-10-31')).toBe('Indiquez la date de début de la période.');
    expect(checkPeriod('2026-10-01', '')).toBe('Indiquez la date de fin de la période.');
    expect(checkPeriod('2026-11-01', '2026-10-31')).toMatch(/^La période est vide/);
    expect(checkPeriod('2026-01-01', '2026-12-31')).toBeNull();
    // 366 jours bornes comprises au plus (le serveur refuse `to - from >= 366`).
    expect(checkPeriod('2025-01-01', '2026-01-01')).toBeNull();
    expect(checkPeriod('2024-01-01', '2025-01-01')).toBe('La période dépasse 366 jours : exportez-la en plusieurs fois.');
  });
});

describe('exports : les requêtes', () => {
  const seen = recordRequests();

  it('lance, relit, et donne l’adresse du fichier', async () => {
    await startExport({ list: 'invoices', format: 'csv', query: 'status=emise' });
    await startExport({ list: 'technicians', format: 'xlsx' });
    await startExport({ list: 'facturx', format: 'zip', query: exportQuery({ from: '2026-10-01', to: '2026-10-31' }) });
    await readExport('exp 1');
    expect(seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', '/app/api/exports', '{"list":"invoices","format":"csv","query":"status=emise"}'],
      ['POST', '/app/api/exports', '{"list":"technicians","format":"xlsx"}'],
      ['POST', '/app/api/exports', '{"list":"facturx","format":"zip","query":"from=2026-10-01&to=2026-10-31"}'],
      ['GET', '/app/api/exports/exp%201', undefined],
    ]);
    expect(exportFileUrl('exp 1')).toBe('/app/api/exports/exp%201/file');
  });
});

describe('exports : le déroulé', () => {
  let answers: { status: number; body: unknown }[];
  let urls: string[];

  beforeEach(() => {
    answers = [];
    urls = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        urls.push(String(input));
        const next = answers.shift();
        if (!next) throw new TypeError('réseau coupé');
        return new Response(JSON.stringify(next.body), { status: next.status });
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const instant = async () => {};

  it('suit l’export jusqu’à « prêt », rapporte chaque état et télécharge une fois', async () => {
    answers = [
      { status: 202, body: job({ done: 0 }) },
      { status: 200, body: job({ done: 1200 }) },
      { status: 200, body: job({ done: 4000 }) },
      { status: 200, body: job({ status: 'pret', done: 5000 }) },
    ];
    const seen: number[] = [];
    const download = vi.fn();
    const waits: number[] = [];
    const last = await runExport(
      { list: 'invoices', format: 'xlsx', query: 'status=emise' },
      {
        onProgress: (j) => seen.push(j.done),
        download,
        wait: async (ms) => {
          waits.push(ms);
        },
      },
    );
    expect(last.status).toBe('pret');
    expect(seen).toEqual([0, 1200, 4000, 5000]);
    expect(waits).toEqual([400, 400, 400]);
    expect(download).toHaveBeenCalledOnce();
    expect(download).toHaveBeenCalledWith('/app/api/exports/exp-1/file', 'factures-2026-11-28.xlsx');
    expect(urls).toEqual(['/app/api/exports', '/app/api/exports/exp-1', '/app/api/exports/exp-1', '/app/api/exports/exp-1']);
  });

  it('un export déjà prêt au lancement est téléchargé sans relecture', async () => {
    answers = [{ status: 202, body: job({ status: 'pret', done: 3, total: 3 }) }];
    const download = vi.fn();
    await runExport({ list: 'technicians', format: 'csv' }, { download, wait: instant });
    expect(download).toHaveBeenCalledOnce();
    expect(urls).toHaveLength(1);
  });

  it('un échec est rendu, sans téléchargement', async () => {
    answers = [
      { status: 202, body: job() },
      { status: 200, body: job({ status: 'echec', done: 200, error: 'Base indisponible.' }) },
    ];
    const download = vi.fn();
    const last = await runExport({ list: 'invoices', format: 'csv' }, { download, wait: instant });
    expect(last.status).toBe('echec');
    expect(last.error).toBe('Base indisponible.');
    expect(download).not.toHaveBeenCalled();
  });

  it('un refus au lancement lève l’erreur française du serveur', async () => {
    answers = [{ status: 409, body: { error: "3 exports sont déjà en cours : attendez que l'un d'eux se termine." } }];
    const download = vi.fn();
    await expect(runExport({ list: 'clients', format: 'csv' }, { download, wait: instant })).rejects.toMatchObject({
      status: 409,
      message: "3 exports sont déjà en cours : attendez que l'un d'eux se termine.",
    });
    expect(download).not.toHaveBeenCalled();
  });

  it('une coupure réseau passagère pendant le suivi ne perd pas l’export', async () => {
    const answersWithGap = [
      { status: 202, body: job() },
      null,
      { status: 200, body: job({ status: 'pret', done: 5000 }) },
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        const next = answersWithGap.shift();
        if (!next) throw new TypeError('réseau coupé');
        return new Response(JSON.stringify(next.body), { status: next.status });
      }),
    );
    const download = vi.fn();
    const last = await runExport({ list: 'equipment', format: 'csv' }, { download, wait: instant });
    expect(last.status).toBe('pret');
    expect(download).toHaveBeenCalledOnce();
  });

  it('s’arrête quand l’écran est quitté', async () => {
    answers = [{ status: 202, body: job() }];
    const controller = new AbortController();
    const download = vi.fn();
    const running = runExport({ list: 'invoices', format: 'csv' }, { download, signal: controller.signal, pollMs: 10_000 });
    await vi.waitFor(() => expect(urls).toHaveLength(1));
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(download).not.toHaveBeenCalled();
  });

  it('pause attend, ou rejette si elle est interrompue', async () => {
    await expect(pause(1)).resolves.toBeUndefined();
    const controller = new AbortController();
    controller.abort();
    await expect(pause(1, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('exports : le téléchargement', () => {
  it('clique un lien <a download> caché puis le retire', () => {
    const clicked: { href: string; download: string; hidden: boolean }[] = [];
    const link = {
      href: '',
      download: '',
      hidden: false,
      click() {
        clicked.push({ href: this.href, download: this.download, hidden: this.hidden });
      },
      remove: vi.fn(),
    };
    const doc = { createElement: vi.fn(() => link), body: { append: vi.fn() } } as unknown as Document;
    downloadFile('/app/api/exports/exp-1/file', 'parc-2026-11-28.csv', doc);
    expect(clicked).toEqual([{ href: '/app/api/exports/exp-1/file', download: 'parc-2026-11-28.csv', hidden: true }]);
    expect(link.remove).toHaveBeenCalledOnce();
  });
});
