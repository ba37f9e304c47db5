import { recordRequests } from './test-requests';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_JOURNAL_FILTERS,
  HISTORY_PAGE,
  actorParts,
  actorText,
  detailLines,
  formatJournalTime,
  getHistory,
  getJournal,
  journalQuery,
  lineText,
  moreLabel,
  objectLink,
  objectText,
  splitDetail,
  valueText,
  type JournalActor,
  type JournalEntryWire,
} from './journal';

const actor = (overrides: Partial<JournalActor> = {}): JournalActor => ({
  kind: 'account',
  kindLabel: 'Personnel',
  id: 'acc-1',
  name: 'Claire Durand',
  owner: null,
  ...overrides,
});

const entry = (overrides: Partial<JournalEntryWire> = {}): JournalEntryWire => ({
  seq: 812,
  at: '2026-11-28T17:02:11.000Z',
  actor: actor(),
  action: 'equipement.creation',
  actionLabel: 'Création',
  objectType: 'equipment',
  objectTypeLabel: 'Équipement',
  objectId: 'eq 1',
  objectLabel: 'ASC-1',
  detail: null,
  ...overrides,
});

describe('journal : la requête', () => {
  it('sans filtre, rien', () => {
    expect(journalQuery(EMPTY_JOURNAL_FILTERS)).toBe('');
    expect(journalQuery({})).toBe('');
  });

  it('les filtres non vides, rognés, puis before et limit', () => {
    expect(
      journalQuery(
        { objectType: 'client', objectId: ' CLI-000123 ', accountId: '', from: '2026-11-01', to: '2026-11-28' },
        811,
        20,
      ),
    ).toBe('objectType=client&objectId=CLI-000123&from=2026-11-01&to=2026-11-28&before=811&limit=20');
    expect(journalQuery({ ...EMPTY_JOURNAL_FILTERS, accountId: 'acc-1', to: '   ' })).toBe('accountId=acc-1');
  });

  it('before vaut 0 est envoyé ; null ne l’est pas', () => {
    expect(journalQuery({}, 0)).toBe('before=0');
    expect(journalQuery({}, null, 50)).toBe('limit=50');
  });

  it('les caractères spéciaux sont encodés', () => {
    expect(journalQuery({ objectType: 'equipment', objectId: 'a&b=c' })).toBe('objectType=equipment&objectId=a%26b%3Dc');
  });
});

describe('journal : la date et heure de Paris', () => {
  it('en hiver (UTC+1) et en été (UTC+2)', () => {
    expect(formatJournalTime('2026-11-28T17:02:11.000Z')).toBe('28/11/2026 18:02:11');
    expect(formatJournalTime('2026-07-14T22:30:00.000Z')).toBe('15/07/2026 00:30:00');
  });

  it('une date illisible reste telle quelle', () => {
    expect(formatJournalTime('hier')).toBe('hier');
  });
});

describe("journal : l'auteur", () => {
  it('le personnel : son nom seul', () => {
    expect(actorParts(actor())).toEqual({ name: 'Claire Durand', kind: null, owner: null });
    expect(actorText(actor())).toBe('Claire Durand');
  });

  it('un jeton d’API : son nom, son genre et son titulaire', () => {
    const token = actor({ kind: 'api_token', kindLabel: "Jeton d'API", name: 'Export compta', owner: 'Marc Petit' });
    expect(actorParts(token)).toEqual({ name: 'Export compta', kind: "Jeton d'API", owner: 'Marc Petit' });
    expect(actorText(token)).toBe("Export compta · Jeton d'API (Marc Petit)");
  });

  it("une clé de centre d'appels et son centre", () => {
    const key = actor({ kind: 'call_center_key', kindLabel: "Centre d'appels", name: 'Clé nuit', owner: 'Télé-Secours' });
    expect(actorText(key)).toBe("Clé nuit · Centre d'appels (Télé-Secours)");
  });

  it('sans nom : Liftdesk, la ligne de commande, un compte disparu', () => {
    expect(actorText(actor({ kind: 'system', kindLabel: 'Liftdesk', id: null, name: null }))).toBe('Liftdesk');
    expect(actorText(actor({ kind: 'cli', kindLabel: 'Ligne de commande', id: null, name: null }))).toBe(
      'Ligne de commande',
    );
    expect(actorText(actor({ name: null }))).toBe('Compte inconnu');
    expect(actorText(actor({ name: '  ', owner: ' ' }))).toBe('Compte inconnu');
  });
});

describe("journal : l'objet", () => {
  it('les pages ouvertes par identifiant', () => {
    expect(objectLink(entry())).toBe('/equipements/eq%201');
    expect(objectLink(entry({ objectType: 'call', objectId: 'c1' }))).toBe('/appels/c1');
    expect(objectLink(entry({ objectType: 'survey', objectId: 's1' }))).toBe('/releves/s1');
    expect(objectLink(entry({ objectType: 'quote', objectId: 'q1' }))).toBe('/devis/q1');
    expect(objectLink(entry({ objectType: 'invoice', objectId: 'i1' }))).toBe('/factures/i1');
  });

  it('un client par son identifiant CLI-… que le détail enregistre, sinon pas de lien', () => {
    const client = entry({ objectType: 'client', objectTypeLabel: 'Client', objectId: 'internal-7' });
    expect(objectLink({ ...client, detail: { client_id: 'CLI-000123', contacts: 0 } })).toBe('/clients/CLI-000123');
    expect(objectLink({ ...client, detail: null })).toBeNull();
    expect(objectLink({ ...client, detail: { client_id: '' } })).toBeNull();
    expect(objectLink({ ...client, detail: ['CLI-000123'] })).toBeNull();
  });

  it('sans page (visite, immeuble, compte…) ou sans identifiant : pas de lien', () => {
    expect(objectLink(entry({ objectType: 'visit', objectId: 'v1' }))).toBeNull();
    expect(objectLink(entry({ objectType: 'building', objectId: 'b1' }))).toBeNull();
    expect(objectLink(entry({ objectType: 'account', objectId: 'a1' }))).toBeNull();
    expect(objectLink(entry({ objectId: null }))).toBeNull();
  });

  it('en clair : le type et le nom', () => {
    expect(objectText(entry())).toBe('Équipement ASC-1');
    expect(objectText(entry({ objectLabel: null }))).toBe('Équipement');
  });
});

describe('journal : le détail', () => {
  it('absent : rien', () => {
    expect(detailLines(null)).toEqual([]);
    expect(detailLines(undefined)).toEqual([]);
  });

  it('avant → après', () => {
    expect(detailLines({ before: 'CLI-000001', after: 'CLI-000002' })).toEqual([
      { label: '', text: 'CLI-000001 → CLI-000002' },
    ]);
    expect(detailLines({ before: null, after: 'Agence Lyon' })).toEqual([{ label: '', text: '— → Agence Lyon' }]);
  });

  it('changes : une ligne par champ, nommé en français quand il est connu', () => {
    expect(
      detailLines({
        changes: {
          location: { before: null, after: 'Gaine B' },
          serialNumber: { before: 'SN-1', after: 'SN-2' },
          vitesse_nominale: { before: 1, after: 1.6 },
        },
      }),
    ).toEqual([
      { label: 'Emplacement', text: '— → Gaine B' },
      { label: 'N° de série', text: 'SN-1 → SN-2' },
      { label: 'vitesse_nominale', text: '1 → 1.6' },
    ]);
  });

  it("l'identité de l'agence : ses champs nommés comme à l'écran « Agence », adresses en parties", () => {
    const detail = {
      version: 3,
      changed: {
        address: { before: '25 avenue de la Grande Armée, 75017 Paris', after: '25 avenue de la Grande Armée' },
        addressComplement: { before: null, after: 'Bâtiment B' },
        postalCode: { before: null, after: '75017' },
        city: { before: null, after: 'Paris' },
        headOfficeComplement: { before: null, after: 'CS 10001' },
        headOfficePostalCode: { before: '75017', after: '69003' },
        headOfficeCity: { before: 'Paris', after: 'Lyon' },
      },
    };
    expect(detailLines(detail, { objectType: 'agency' })).toEqual([
      { label: 'Version', text: '3' },
      { label: "Changé · Adresse de l'agence", text: '25 avenue de la Grande Armée, 75017 Paris → 25 avenue de la Grande Armée' },
      { label: "Changé · Complément d'adresse de l'agence", text: '— → Bâtiment B' },
      { label: "Changé · Code postal de l'agence", text: '— → 75017' },
      { label: "Changé · Ville de l'agence", text: '— → Paris' },
      { label: "Changé · Complément d'adresse du siège", text: '— → CS 10001' },
      { label: 'Changé · Code postal du siège', text: '75017 → 69003' },
      { label: 'Changé · Ville du siège', text: 'Paris → Lyon' },
    ]);
    // Les mêmes noms ailleurs restent ceux d'un client ou d'un immeuble.
    expect(detailLines({ changes: { city: { before: null, after: 'Lyon' } } }, { objectType: 'client' })).toEqual([
      { label: 'Ville', text: '— → Lyon' },
    ]);
    // Les autres entrées d'une agence (création, archivage) gardent leurs noms.
    expect(detailLines({ name: 'Agence Lyon' }, { objectType: 'agency' })).toEqual([{ label: 'Nom', text: 'Agence Lyon' }]);
  });

  it('sinon clé : valeur (oui/non, listes, objets imbriqués)', () => {
    expect(
      detailLines({ number: 'ASC-1', digicode: true, keyBox: false, mail: 'id', tags: ['a', 'b'], empty: [], extra: { x: 1 } }),
    ).toEqual([
      { label: 'Numéro', text: 'ASC-1' },
      { label: 'Digicode', text: 'oui' },
      { label: 'Coffre à clé', text: 'non' },
      { label: 'tags', text: 'a, b' },
      { label: 'empty', text: '—' },
      { label: 'extra', text: '{"x":1}' },
    ]);
  });

  it('un avant/après imbriqué se lit aussi avec une flèche', () => {
    expect(detailLines({ status: { before: 'ouvert', after: 'clos' } })).toEqual([
      { label: 'Statut', text: 'ouvert → clos' },
    ]);
  });

  it('le renouvellement d\'un devis : les deux dates à la française', () => {
    expect(detailLines({ number: 'DV-2026-00012', validUntilBefore: '2026-10-01', validUntil: '2026-12-12' })).toEqual([
      { label: 'Numéro', text: 'DV-2026-00012' },
      { label: "Valable jusqu'au (avant)", text: '01/10/2026' },
      { label: "Valable jusqu'au", text: '12/12/2026' },
    ]);
    // Une valeur qui n'est pas un jour reste telle quelle.
    expect(detailLines({ validUntil: 'bientôt' })).toEqual([{ label: "Valable jusqu'au", text: 'bientôt' }]);
  });

  it('une valeur seule, hors objet', () => {
    expect(detailLines('texte')).toEqual([{ label: '', text: 'texte' }]);
    expect(detailLines(42)).toEqual([{ label: '', text: '42' }]);
    expect(valueText('')).toBe('—');
  });

  it('sur une ligne de texte', () => {
    expect(lineText({ label: 'Emplacement', text: '— → Gaine B' })).toBe('Emplacement : — → Gaine B');
    expect(lineText({ label: '', text: 'A → B' })).toBe('A → B');
  });

  it('court : tout montré ; long : le début montré, le reste dépliable', () => {
    const three = [1, 2, 3].map((n) => ({ label: `c${n}`, text: 'v' }));
    expect(splitDetail(three)).toEqual({ shown: three, more: [] });
    const five = [1, 2, 3, 4, 5].map((n) => ({ label: `c${n}`, text: 'v' }));
    const split = splitDetail(five);
    expect(split.shown).toEqual(five.slice(0, 2));
    expect(split.more).toEqual(five.slice(2));
    expect(moreLabel(split.shown, split.more)).toBe('3 lignes de plus');
  });

  it('une valeur trop longue se déplie, même seule', () => {
    const long = [{ label: 'observations', text: 'x'.repeat(200) }];
    expect(splitDetail(long)).toEqual({ shown: [], more: long });
    expect(moreLabel([], long)).toBe('Voir le détail');
    const after = [{ label: 'a', text: 'court' }, long[0]!];
    expect(splitDetail(after)).toEqual({ shown: [after[0]], more: [after[1]] });
    expect(moreLabel([after[0]!], [after[1]!])).toBe('1 ligne de plus');
  });
});

describe('journal : les requêtes', () => {
  const seen = recordRequests();

  it('le journal, filtré et continué', async () => {
    await getJournal({});
    await getJournal({ ...EMPTY_JOURNAL_FILTERS, objectType: 'client', accountId: 'acc 1' }, 811);
    await getJournal({ from: '2026-11-01', to: '2026-11-28' }, null, 50);
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['GET', '/app/api/journal'],
      ['GET', '/app/api/journal?objectType=client&accountId=acc+1&before=811'],
      ['GET', '/app/api/journal?from=2026-11-01&to=2026-11-28&limit=50'],
    ]);
    expect(seen.every((s) => s.body === undefined)).toBe(true);
  });

  it("l'historique d'une fiche : 20 entrées, puis la suite", async () => {
    expect(HISTORY_PAGE).toBe(20);
    await getHistory('client', 'CLI-000123');
    await getHistory('equipment', 'eq-1', 700);
    expect(seen.map((s) => s.url)).toEqual([
      '/app/api/journal?objectType=client&objectId=CLI-000123&limit=20',
      '/app/api/journal?objectType=equipment&objectId=eq-1&before=700&limit=20',
    ]);
  });
});
