import { recordRequests } from './test-requests';
import { describe, expect, it, vi } from 'vitest';
import {
  MISSING_LABELS,
  RESTORE_NOTE,
  actionsFor,
  archiveAgency,
  archivedMessage,
  checkAgencyName,
  createAgency,
  createdMessage,
  listAgencies,
  missingIdentityText,
  movedMessage,
  newAgencyBody,
  refusesName,
  renameAgency,
  renameBody,
  renamedMessage,
  restoreAgency,
  restoredMessage,
  statusOf,
  stoppedParts,
  type AgencyEntryWire,
} from './agencies';

const agency = (overrides: Partial<AgencyEntryWire> = {}): AgencyEntryWire => ({
  id: 'ag-1',
  name: 'Agence Paris Ouest',
  createdAt: '2026-01-05T10:00:00.000Z',
  archivedAt: null,
  missingToIssue: [],
  current: false,
  canRename: true,
  canArchive: true,
  ...overrides,
});

const NOTHING = { callCenterKeys: 0, partnerKeys: 0, webhookSubscriptions: 0 };

describe('agences : la liste', () => {
  it('le statut : en activité, ou archivée le jour dit', () => {
    expect(statusOf(agency())).toEqual({ label: 'En activité', tone: 'success' });
    expect(statusOf(agency({ archivedAt: '2026-11-28T12:00:00.000Z' }))).toEqual({
      label: 'Archivée le 28/11/2026',
      tone: 'neutral',
    });
  });

  it("ce qui manque à l'identité pour facturer, par libellé", () => {
    expect(missingIdentityText([])).toBeNull();
    expect(missingIdentityText(['siret', 'address'])).toBe('Identité incomplète : SIRET, adresse');
    expect(missingIdentityText(['address'])).toBe('Identité incomplète : adresse');
    // Un code que l'écran ne connaît pas encore reste lisible.
    expect(missingIdentityText(['iban'])).toBe('Identité incomplète : iban');
    // L'adresse en parties (rue, code postal, ville) : nommée une fois.
    expect(missingIdentityText(['siret', 'address', 'postalCode', 'city'])).toBe('Identité incomplète : SIRET, adresse');
    expect(missingIdentityText(['city'])).toBe('Identité incomplète : adresse');
    // Le n° de TVA, exigé pour émettre toute pièce : nommé en mots, jamais par son code.
    expect(missingIdentityText(['siret', 'address', 'postalCode', 'city', 'vatNumber', 'invoiceSeries'])).toBe(
      'Identité incomplète : SIRET, adresse, n° de TVA intracommunautaire, série de numérotation',
    );
    expect(missingIdentityText(['siret', 'address', 'postalCode', 'city', 'invoiceSeries'])).toBe(
      'Identité incomplète : SIRET, adresse, série de numérotation',
    );
    expect(MISSING_LABELS).toEqual({
      siret: 'SIRET',
      address: 'adresse',
      postalCode: 'adresse',
      city: 'adresse',
      vatNumber: 'n° de TVA intracommunautaire',
      invoiceSeries: 'série de numérotation',
    });
  });

  it('une agence en activité se renomme et s’archive', () => {
    expect(actionsFor(agency())).toEqual({ rename: true, archive: true, restore: false });
  });

  it('une agence archivée se réactive seulement', () => {
    const archived = agency({ archivedAt: '2026-11-28T12:00:00.000Z', canRename: false });
    expect(actionsFor(archived)).toEqual({ rename: false, archive: false, restore: true });
    // Même si le serveur disait le contraire, une agence archivée ne se renomme pas.
    expect(actionsFor({ ...archived, canRename: true }).rename).toBe(false);
  });

  it("un administrateur d'agence renomme, sans archiver ni réactiver", () => {
    expect(actionsFor(agency({ canArchive: false }))).toEqual({ rename: true, archive: false, restore: false });
    expect(
      actionsFor(agency({ canArchive: false, canRename: false, archivedAt: '2026-11-28T12:00:00.000Z' })),
    ).toEqual({ rename: false, archive: false, restore: false });
  });
});

describe('agences : le nom, vérifié comme le serveur', () => {
  it('obligatoire, 200 caractères au plus (en points de code), rogné', () => {
    expect(checkAgencyName('   ')).toBe("Le nom de l'agence est obligatoire.");
    expect(checkAgencyName('x'.repeat(201))).toBe("Le nom de l'agence ne doit pas dépasser 200 caractères.");
    expect(checkAgencyName(`  ${'x'.repeat(200)}  `)).toBeUndefined();
    expect(checkAgencyName('🛗'.repeat(200))).toBeUndefined();
    expect(checkAgencyName('Agence Lyon Centre')).toBeUndefined();
  });

  it('le corps de la création : le nom seul, rogné', () => {
    expect(newAgencyBody('  Agence Lyon Centre ')).toEqual({ name: 'Agence Lyon Centre' });
  });

  it('le renommage : rien à envoyer si le nom est le même', () => {
    expect(renameBody(agency(), ' Agence Paris Ouest ')).toBeNull();
    expect(renameBody(agency(), ' Agence Paris-Ouest ')).toEqual({ name: 'Agence Paris-Ouest' });
  });

  it('reconnaît les refus du serveur qui portent sur le nom', () => {
    expect(refusesName("Le nom de l'agence est obligatoire.")).toBe(true);
    expect(refusesName("Le nom de l'agence ne doit pas dépasser 200 caractères.")).toBe(true);
    expect(
      refusesName("Une agence de l'organisation s'appelle déjà « Agence Paris Est » : choisissez un autre nom."),
    ).toBe(true);
    expect(refusesName("L'agence « Agence Paris Est » est archivée : réactivez-la d'abord.")).toBe(false);
    expect(refusesName('Agence introuvable.')).toBe(false);
  });
});

describe('agences : messages', () => {
  it('après la création : la choisir, puis renseigner son identité', () => {
    expect(createdMessage({ name: 'Agence Lyon Centre' })).toBe(
      "Agence « Agence Lyon Centre » créée. Choisissez-la dans le sélecteur d'agence puis renseignez son identité (SIRET, adresse, n° de TVA intracommunautaire) avant d'émettre des factures.",
    );
  });

  it('après le renommage', () => {
    expect(renamedMessage('Agence Paris Ouest', { name: 'Agence Paris-Ouest' })).toBe(
      'Agence « Agence Paris Ouest » renommée « Agence Paris-Ouest ».',
    );
  });

  it("ce que l'archivage a arrêté, compté et accordé", () => {
    expect(stoppedParts({ callCenterKeys: 1, partnerKeys: 2, webhookSubscriptions: 0 })).toEqual([
      "1 clé de centre d'appels révoquée",
      '2 clés partenaires retirées',
      'aucun abonnement webhook révoqué',
    ]);
    expect(stoppedParts({ callCenterKeys: 0, partnerKeys: 1, webhookSubscriptions: 3 })).toEqual([
      "aucune clé de centre d'appels révoquée",
      '1 clé partenaire retirée',
      '3 abonnements webhook révoqués',
    ]);
    const stopped = { callCenterKeys: 2, partnerKeys: 0, webhookSubscriptions: 1 };
    expect(archivedMessage({ name: 'Agence Lyon Centre' }, stopped)).toBe(
      "Agence « Agence Lyon Centre » archivée : 2 clés de centre d'appels révoquées, aucune clé partenaire retirée et 1 abonnement webhook révoqué. Son historique est conservé.",
    );
  });

  it("l'archivage d'une agence sans clé ni abonnement", () => {
    expect(archivedMessage({ name: 'Agence Lyon Centre' }, NOTHING)).toBe(
      "Agence « Agence Lyon Centre » archivée. Elle n'avait ni clé de centre d'appels, ni clé partenaire, ni abonnement webhook actifs. Son historique est conservé.",
    );
  });

  it("l'agence active archivée : celle où la session agit désormais", () => {
    expect(movedMessage('Agence Paris Est')).toBe("Vous agissez maintenant dans l'agence « Agence Paris Est ».");
  });

  it('la réactivation ne rend pas les clés révoquées', () => {
    expect(restoredMessage({ name: 'Agence Lyon Centre' })).toBe(
      `Agence « Agence Lyon Centre » réactivée : elle revient dans le périmètre de ses comptes. ${RESTORE_NOTE}`,
    );
    expect(RESTORE_NOTE).toMatch(/restent révoqués/);
  });
});

describe('agences : appels à l’API', () => {
  const seen = recordRequests();

  it('lit, crée, renomme, archive et réactive', async () => {
    await listAgencies();
    await createAgency(newAgencyBody(' Agence Lyon Centre '));
    await renameAgency('ag 1', { name: 'Agence Lyon Part-Dieu' });
    await archiveAgency('ag/1');
    await restoreAgency('ag-1');
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['GET', '/app/api/agencies'],
      ['POST', '/app/api/agencies'],
      ['PATCH', '/app/api/agencies/ag%201'],
      ['POST', '/app/api/agencies/ag%2F1/archive'],
      ['POST', '/app/api/agencies/ag-1/restore'],
    ]);
    expect(JSON.parse(seen[1]!.body!)).toEqual({ name: 'Agence Lyon Centre' });
    expect(JSON.parse(seen[2]!.body!)).toEqual({ name: 'Agence Lyon Part-Dieu' });
    expect(seen[3]!.body).toBeUndefined();
    expect(seen[4]!.body).toBeUndefined();
  });

  it('un refus du serveur arrive tel quel', async () => {
    const refusal =
      "Ces comptes ne travaillent que dans l'agence « Agence Paris Est » : Marc Petit. Donnez-leur une autre agence ou désactivez-les avant de l'archiver.";
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ error: refusal }), { status: 422 })));
    await expect(archiveAgency('ag-2')).rejects.toMatchObject({ status: 422, message: refusal });
  });
});
