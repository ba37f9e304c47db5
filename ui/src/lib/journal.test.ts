import { recordRequests } from './test-requests';
import { describe, expect, it } from 'vitest';
import { formatEuros } from './billing';
import {
  DELETED_RECORD,
  EMPTY_JOURNAL_FILTERS,
  HIDDEN_FIELDS,
  HISTORY_PAGE,
  actionText,
  actorParts,
  actorText,
  dateText,
  detailLines,
  embeddedJson,
  formatJournalTime,
  getHistory,
  getJournal,
  journalQuery,
  lineText,
  looksLikeId,
  mergeReferences,
  moreLabel,
  numberText,
  objectLink,
  objectName,
  objectText,
  splitDetail,
  valueText,
  type JournalActor,
  type JournalEntryWire,
  type JournalReference,
  type JournalReferences,
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

/** Le catalogue technique de l'agence (extrait) : `charge_utile` seul. */
const catalogue = { charge_utile: 'Charge utile' };

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
    expect(objectLink(entry({ objectType: 'building', objectId: 'b 1' }))).toBe('/immeubles/b%201');
    expect(objectLink(entry({ objectType: 'webhook_subscription', objectId: 'w1' }))).toBe('/webhooks/w1');
  });

  it('un contact : la fiche de son client ; un écart : la fiche de son relevé', () => {
    const contact = entry({ objectType: 'contact', objectTypeLabel: 'Contact', objectId: 'ct-1' });
    expect(objectLink({ ...contact, detail: { client: CLIENT, client_id: 'CLI-000042', nom: 'Mme Lambert' } })).toBe(
      '/clients/CLI-000042',
    );
    expect(objectLink({ ...contact, detail: { nom: 'Mme Lambert' } })).toBeNull();
    const discrepancy = entry({ objectType: 'discrepancy', objectTypeLabel: 'Écart de relevé', objectId: 'd1', objectLabel: null });
    expect(objectLink({ ...discrepancy, detail: { survey: SURVEY, finding: 'Galets usés' } })).toBe(`/releves/${SURVEY}`);
    expect(objectLink({ ...discrepancy, detail: { survey: 'REL-2026-00028' } })).toBeNull();
    expect(objectLink({ ...discrepancy, detail: null })).toBeNull();
  });

  it('un client par son identifiant CLI-… que le détail enregistre, sinon pas de lien', () => {
    const client = entry({ objectType: 'client', objectTypeLabel: 'Client', objectId: 'internal-7' });
    expect(objectLink({ ...client, detail: { client_id: 'CLI-000123', contacts: 0 } })).toBe('/clients/CLI-000123');
    expect(objectLink({ ...client, detail: null })).toBeNull();
    expect(objectLink({ ...client, detail: { client_id: '' } })).toBeNull();
    expect(objectLink({ ...client, detail: ['CLI-000123'] })).toBeNull();
  });

  it('sans page (visite, technicien, compte, agence, clé, import, affaire) ou sans identifiant : pas de lien', () => {
    for (const objectType of [
      'visit',
      'technician',
      'account',
      'agency',
      'api_token',
      'call_center_key',
      'partner_key',
      'import_file',
      'deal',
      'session',
      'organization',
    ]) {
      expect(objectLink(entry({ objectType, objectId: 'x1' })), objectType).toBeNull();
    }
    expect(objectLink(entry({ objectId: null }))).toBeNull();
    expect(objectLink(entry({ objectType: 'building', objectId: null }))).toBeNull();
  });

  it('en clair : le type et le nom, sinon le numéro du détail (un relevé)', () => {
    expect(objectText(entry())).toBe('Équipement ASC-1');
    expect(objectText(entry({ objectLabel: null }))).toBe('Équipement');
    const survey = entry({ objectType: 'survey', objectTypeLabel: 'Relevé', objectLabel: null });
    expect(objectName({ ...survey, detail: { dueOn: '2026-12-27', number: 'REL-2026-00029' } })).toBe('REL-2026-00029');
    expect(objectText({ ...survey, detail: { dueOn: '2026-12-27', number: 'REL-2026-00029' } })).toBe('Relevé REL-2026-00029');
    expect(objectName({ ...survey, detail: { surveyor: TECH, via: 'open_app' } })).toBeNull();
    // Le nom du journal passe avant le numéro du détail.
    expect(objectName(entry({ detail: { number: 'autre' } }))).toBe('ASC-1');
    // Un écart de relevé : le relevé où il a été constaté, d'après les `references`.
    const discrepancy = entry({ objectType: 'discrepancy', objectTypeLabel: 'Écart de relevé', objectLabel: null, detail: { survey: SURVEY } });
    const surveys = mergeReferences({}, { references: [{ id: SURVEY, objectType: 'survey', label: 'REL-2026-00028', path: `/releves/${SURVEY}` }] });
    expect(objectText(discrepancy, surveys)).toBe('Écart de relevé REL-2026-00028');
    expect(objectName(discrepancy)).toBeNull();
  });
});

describe("journal : l'action", () => {
  it('le nom du serveur', () => {
    expect(actionText(entry())).toBe('Création');
    expect(actionText(entry({ action: 'import', actionLabel: 'Import' }))).toBe('Import');
  });

  it('sans nom du serveur : le code', () => {
    expect(actionText(entry({ action: 'absence.creation', actionLabel: "Création d'une absence" }))).toBe("Création d'une absence");
    expect(actionText(entry({ action: 'autre.chose', actionLabel: '' }))).toBe('autre.chose');
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
      { label: 'vitesse_nominale', text: '1 → 1,6' },
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
        invoiceSeries: { before: null, after: 'PO' },
      },
    };
    // `version` (la version de l'identité, un identifiant) ne se montre pas.
    expect(detailLines(detail, { objectType: 'agency' })).toEqual([
      { label: "Changé · Adresse de l'agence", text: '25 avenue de la Grande Armée, 75017 Paris → 25 avenue de la Grande Armée' },
      { label: "Changé · Complément d'adresse de l'agence", text: '— → Bâtiment B' },
      { label: "Changé · Code postal de l'agence", text: '— → 75017' },
      { label: "Changé · Ville de l'agence", text: '— → Paris' },
      { label: "Changé · Complément d'adresse du siège", text: '— → CS 10001' },
      { label: 'Changé · Code postal du siège', text: '75017 → 69003' },
      { label: 'Changé · Ville du siège', text: 'Paris → Lyon' },
      { label: 'Changé · Série de numérotation des factures', text: '— → PO' },
    ]);
    // Les mêmes noms ailleurs restent ceux d'un client ou d'un immeuble.
    expect(detailLines({ changes: { city: { before: null, after: 'Lyon' } } }, { objectType: 'client' })).toEqual([
      { label: 'Ville', text: '— → Lyon' },
    ]);
    // Les autres entrées d'une agence (création, archivage) gardent leurs noms.
    expect(detailLines({ name: 'Agence Lyon' }, { objectType: 'agency' })).toEqual([{ label: 'Nom', text: 'Agence Lyon' }]);
  });

  it('sinon clé : valeur (oui/non, listes, objets imbriqués champ par champ)', () => {
    expect(
      detailLines({ number: 'ASC-1', digicode: true, keyBox: false, mail: 'id', tags: ['a', 'b'], empty: [], extra: { x: 1 } }),
    ).toEqual([
      { label: 'Numéro', text: 'ASC-1' },
      { label: 'Digicode', text: 'oui' },
      { label: 'Coffre à clé', text: 'non' },
      { label: 'tags', text: 'a, b' },
      { label: 'empty', text: '—' },
      { label: 'extra', text: 'x : 1' },
    ]);
    expect(detailLines({ values: { charge_utile: 630, marque: 'Orona', armoire_variateur: true } }, { catalogue })).toEqual([
      { label: 'Valeurs', text: 'Charge utile : 630 ; marque : Orona ; armoire_variateur : oui' },
    ]);
    expect(detailLines({ values: {} })).toEqual([{ label: 'Valeurs', text: '—' }]);
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

// Identifiants de la démo (UUID v7) : un technicien, un client, un équipement, deux agences…
const TECH = '01a225d5-aa44-756d-b240-18ef9adbd1ad';
const TECH_2 = '01a225d5-aa44-756d-b240-18ef9adbd1ae';
const CLIENT = '01a225d5-aa9f-7031-8ef5-c997d8cffadb';
const EQUIP = '01a225d5-aa9f-7031-8ef5-c99ccc0eec4e';
const AGENCY_1 = '01a225d5-aa41-712b-b7d5-7932183b87f8';
const AGENCY_2 = '01a225d5-aa42-7261-9c89-65266e5e9ecf';
const GONE = '01a225d5-ffff-7000-8000-000000000000';
const SURVEY = '01a225ea-d309-774c-b1de-560f3ca00d18';

const reference = (id: string, objectType: string, label: string, path: string | null): JournalReference => ({
  id,
  objectType,
  label,
  path,
});

const references: JournalReferences = mergeReferences(
  {},
  {
    references: [
      reference(TECH, 'technician', 'Karim Benali', `/techniciens/${TECH}`),
      reference(TECH_2, 'technician', 'Lucie Morel', `/techniciens/${TECH_2}`),
      reference(CLIENT, 'client', 'Syndic Lumière', '/clients/CLI-000042'),
      reference(EQUIP, 'equipment', 'ASC-0042', `/equipements/${EQUIP}`),
      reference(AGENCY_1, 'agency', 'Agence Paris', null),
      reference(AGENCY_2, 'agency', 'Agence Lyon', null),
    ],
  },
);

describe('journal : les enregistrements nommés par leur identifiant', () => {
  it("l'allure d'un identifiant", () => {
    expect(looksLikeId(TECH)).toBe(true);
    expect(looksLikeId(TECH.toUpperCase())).toBe(true);
    expect(looksLikeId('CLI-000042')).toBe(false);
    expect(looksLikeId('DV-2026-00037')).toBe(false);
    expect(looksLikeId(`${TECH}x`)).toBe(false);
    expect(looksLikeId(42)).toBe(false);
  });

  it('une visite planifiée : le technicien et l’équipement par leur nom, liens vers leur page', () => {
    const lines = detailLines(
      { deadline: '2026-12-09', equipmentId: EQUIP, plannedFor: '2026-12-03', technicianId: TECH },
      { objectType: 'visit', references },
    );
    expect(lines.map(lineText)).toEqual([
      'Échéance du plan : 09/12/2026',
      'Équipement : ASC-0042',
      'Prévue le : 03/12/2026',
      'Technicien : Karim Benali',
    ]);
    expect(lines[1]!.parts).toEqual([{ text: 'ASC-0042', path: `/equipements/${EQUIP}` }]);
    expect(lines[3]!.parts).toEqual([{ text: 'Karim Benali', path: `/techniciens/${TECH}` }]);
    // Sans lien, pas de morceaux : le texte suffit.
    expect(lines[0]!.parts).toBeUndefined();
    expect(lines.map(lineText).join(' ')).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it("le client d'un immeuble : son nom, le lien vers sa page CLI-…", () => {
    const [, client] = detailLines({ address: '35 rue Chaptal', clientId: CLIENT }, { objectType: 'building', references });
    expect(client).toEqual({
      label: 'Client',
      text: 'Syndic Lumière',
      parts: [{ text: 'Syndic Lumière', path: '/clients/CLI-000042' }],
    });
  });

  it('de part et d’autre d’un « avant → après », et dans un changement champ par champ', () => {
    expect(detailLines({ technician: { before: TECH, after: TECH_2 } }, { objectType: 'call', references })).toEqual([
      {
        label: 'Technicien',
        text: 'Karim Benali → Lucie Morel',
        parts: [
          { text: 'Karim Benali', path: `/techniciens/${TECH}` },
          { text: ' → ' },
          { text: 'Lucie Morel', path: `/techniciens/${TECH_2}` },
        ],
      },
    ]);
    expect(detailLines({ before: null, after: CLIENT }, { references })).toEqual([
      {
        label: '',
        text: '— → Syndic Lumière',
        parts: [{ text: '— → ' }, { text: 'Syndic Lumière', path: '/clients/CLI-000042' }],
      },
    ]);
    expect(detailLines({ changes: { clientId: { before: GONE, after: CLIENT } } }, { references }).map(lineText)).toEqual([
      `Client : ${DELETED_RECORD} → Syndic Lumière`,
    ]);
  });

  it('dans une liste : chaque enregistrement par son nom, sans page pour une agence', () => {
    const [line] = detailLines({ agencies: [AGENCY_1, AGENCY_2, GONE] }, { objectType: 'account', references });
    expect(line).toEqual({ label: 'Agences', text: `Agence Paris, Agence Lyon, ${DELETED_RECORD}` });
  });

  it('un identifiant que la réponse ne nomme pas : un enregistrement supprimé, jamais l’identifiant', () => {
    expect(detailLines({ technicianId: GONE }, { references }).map(lineText)).toEqual([`Technicien : ${DELETED_RECORD}`]);
    // Sans `references` du tout (un serveur plus ancien) : de même.
    expect(detailLines({ equipment: EQUIP, surveys: [GONE] }).map(lineText)).toEqual([
      `Équipement : ${DELETED_RECORD}`,
      `Relevés : ${DELETED_RECORD}`,
    ]);
    expect(valueText(GONE)).toBe(DELETED_RECORD);
  });

  it("`version`, `absence` et le centre d'appels (l'auteur de l'entrée) ne se montrent pas", () => {
    expect(HIDDEN_FIELDS.has('version')).toBe(true);
    expect(HIDDEN_FIELDS.has('absence')).toBe(true);
    expect(
      detailLines({ absence: GONE, endsOn: '2026-09-20', reason: 'Formation', startsOn: '2026-09-18' }).map(lineText),
    ).toEqual(['Au : 20/09/2026', 'Motif : Formation', 'Du : 18/09/2026']);
    expect(
      detailLines({ callCenter: GONE, equipment: EQUIP, reference: 'CC-1', type: 'panne' }, { objectType: 'call', references }).map(
        lineText,
      ),
    ).toEqual(['Équipement : ASC-0042', 'Référence : CC-1', 'Type : Panne']);
  });

  it('les pages suivantes ajoutent leurs enregistrements à ceux déjà lus', () => {
    const first = mergeReferences({}, { references: [reference(TECH, 'technician', 'Karim Benali', null)] });
    const both = mergeReferences(first, { references: [reference(CLIENT, 'client', 'Syndic Lumière', '/clients/CLI-1')] });
    expect(Object.keys(both).sort()).toEqual([CLIENT, TECH].sort());
    expect(first).not.toHaveProperty(CLIENT);
    // Une réponse sans `references` (serveur plus ancien) ne retire rien.
    expect(mergeReferences(both, {})).toEqual(both);
  });
});

describe('journal : les noms du catalogue technique', () => {
  const change = { changes: { charge_utile: { before: 630, after: 1000 }, vitesse: { before: 1, after: 1.6 } } };

  it("après ceux du journal, avant la clé : `charge_utile` → « Charge utile »", () => {
    expect(detailLines(change, { objectType: 'equipment', catalogue }).map(lineText)).toEqual([
      'Charge utile : 630 → 1000',
      'vitesse : 1 → 1,6',
    ]);
    // Sans catalogue, la clé.
    expect(detailLines(change).map(lineText)[0]).toBe('charge_utile : 630 → 1000');
  });

  it('les noms de la fiche passent avant ; ceux du journal aussi', () => {
    expect(
      detailLines(change, { catalogue, fieldLabels: { charge_utile: 'Charge utile (fiche)' } }).map(lineText)[0],
    ).toBe('Charge utile (fiche) : 630 → 1000');
    // Un code du catalogue qui serait aussi un champ du journal garde le nom du journal.
    expect(detailLines({ status: 'ouvert' }, { catalogue: { status: 'État du catalogue' } }).map(lineText)).toEqual([
      'Statut : ouvert',
    ]);
    // Ceux du type d'objet (l'identité de l'agence) aussi.
    expect(
      detailLines({ changed: { city: { before: null, after: 'Paris' } } }, { objectType: 'agency', catalogue: { city: 'Ville (catalogue)' } }).map(
        lineText,
      ),
    ).toEqual(["Changé · Ville de l'agence : — → Paris"]);
  });

  it("ce qu'un relevé reporte sur l'équipement, et la liste des champs d'un import", () => {
    expect(
      detailLines({ equipmentChanges: { charge_utile: { before: null, after: 630 } } }, { objectType: 'survey', catalogue }).map(
        lineText,
      ),
    ).toEqual(["Changé sur l'équipement · Charge utile : — → 630"]);
    expect(detailLines({ changes: ['charge_utile', 'number'] }, { catalogue }).map(lineText)).toEqual([
      'Champs changés : Charge utile, Numéro',
    ]);
  });
});

/** Le texte d'un détail, une ligne « champ : valeur » par ligne. */
const shown = (detail: unknown, context: Parameters<typeof detailLines>[1] = {}) => detailLines(detail, context).map(lineText);

describe('journal : jours, heures, listes, nombres et codes en mots', () => {
  it("la forme d'une date : un jour à la française, un horodatage à l'heure de Paris", () => {
    expect(dateText('2026-12-12')).toBe('12/12/2026');
    // Hiver (UTC+1) et été (UTC+2), millisecondes ou non, fuseau donné autrement que par Z.
    expect(dateText('2026-11-09T12:13:42.860Z')).toBe('09/11/2026 13:13');
    expect(dateText('2026-07-01T06:00:00Z')).toBe('01/07/2026 08:00');
    expect(dateText('2026-12-31T23:30Z')).toBe('01/01/2027 00:30');
    expect(dateText('2026-11-09T13:13:00+01:00')).toBe('09/11/2026 13:13');
    // Ce qui n'en a pas exactement la forme reste tel quel (`null`).
    for (const value of [
      'bientôt',
      '2026-02-31',
      '2026-13-01',
      '2026-11-9',
      '12/12/2026',
      '2026-11-09 12:13',
      '2026-11-09T12:13:42',
      '2026-11-09T25:00:00Z',
      'DV-2026-00012',
      'le 2026-11-09',
    ]) {
      expect(dateText(value), value).toBeNull();
    }
  });

  it('une visite close : ses jours et ses heures, jamais au format ISO', () => {
    const lines = shown(
      {
        arrivedAt: '2026-11-09T12:13:42.860Z',
        doneOn: '2026-11-09',
        from: 'planifiee',
        leftAt: '2026-11-09T12:48:42.860Z',
        signedBy: 'Mme Lambert (gestionnaire)',
        to: 'faite',
      },
      { objectType: 'visit' },
    );
    expect(lines).toEqual([
      'Arrivée : 09/11/2026 13:13',
      'Faite le : 09/11/2026',
      'De : Planifiée',
      'Départ : 09/11/2026 13:48',
      'Signé par : Mme Lambert (gestionnaire)',
      'À : Faite',
    ]);
    // Le début d'un plan d'entretien : ses jours avant → après, dans les mêmes champs `from`/`to`.
    expect(shown({ from: '2026-01-05', to: '2026-02-02' }, { objectType: 'visit' })).toEqual(['De : 05/01/2026', 'À : 02/02/2026']);
    expect(shown({ day: { before: '2026-12-03', after: '2026-12-04' } }, { objectType: 'visit' })).toEqual([
      'Jour : 03/12/2026 → 04/12/2026',
    ]);
  });

  it('les jours des relevés, factures et astreintes ; une liste de jours', () => {
    expect(shown({ dueOn: '2026-12-27', number: 'REL-2026-00029' }, { objectType: 'survey' })).toEqual([
      'Échéance : 27/12/2026',
      'Numéro : REL-2026-00029',
    ]);
    expect(shown({ issuedOn: '2026-11-02', paidOn: '2026-11-29' }, { objectType: 'invoice' })).toEqual([
      'Émise le : 02/11/2026',
      'Réglée le : 29/11/2026',
    ]);
    expect(shown({ endsAt: '2027-01-18T07:00:00.000Z', startsAt: '2027-01-11T07:00:00.000Z' }, { objectType: 'technician' })).toEqual([
      'Fin : 18/01/2027 08:00',
      'Début : 11/01/2027 08:00',
    ]);
    expect(shown({ weeks: ['2026-11-09', '2026-11-16'] }, { objectType: 'technician' })).toEqual([
      'Semaines : 09/11/2026, 16/11/2026',
    ]);
  });

  it("une liste écrite en JSON (les consignes d'accès d'un immeuble) : « Digicode, Vigik »", () => {
    const access = { accessInstructions: '["Digicode","Vigik"]', accessOther: null, digicode: true, keyBox: false };
    expect(shown(access, { objectType: 'building' })).toEqual([
      "Consignes d'accès : Digicode, Vigik",
      'Autre accès : —',
      'Digicode : oui',
      'Coffre à clé : non',
    ]);
    expect(shown({ accessInstructions: '["Sans"]' })).toEqual(["Consignes d'accès : Sans"]);
    expect(shown({ accessInstructions: '[]' })).toEqual(["Consignes d'accès : —"]);
    expect(shown({ accessInstructions: { before: '["Digicode"]', after: '["Coffre à clé","Autre"]' } })).toEqual([
      "Consignes d'accès : Digicode → Coffre à clé, Autre",
    ]);
    // Chaque élément nommé comme le reste : codes, enregistrements, jours.
    expect(shown({ type: '["monte_charge","ascenseur"]' }, { objectType: 'equipment' })).toEqual(['Type : Monte-charge, Ascenseur']);
    expect(shown({ surveys: `["${GONE}"]` }, { references })).toEqual([`Relevés : ${DELETED_RECORD}`]);
    expect(shown({ weeks: '["2026-11-09"]' })).toEqual(['Semaines : 09/11/2026']);
    // Un objet écrit en JSON : « champ : valeur ».
    expect(shown({ values: '{"charge_utile":630,"vitesse":1.6}' }, { catalogue })).toEqual([
      'Valeurs : Charge utile : 630 ; vitesse : 1,6',
    ]);
  });

  it("ce qui n'est pas du JSON reste tel quel", () => {
    expect(embeddedJson('[Digicode')).toBeUndefined();
    expect(embeddedJson('[note du technicien]')).toBeUndefined();
    expect(embeddedJson('"texte"')).toBeUndefined();
    expect(embeddedJson('42')).toBeUndefined();
    expect(embeddedJson(' ["a"] ')).toEqual(['a']);
    expect(shown({ reason: '[note du technicien]' })).toEqual(['Motif : [note du technicien]']);
  });

  it('les nombres décimaux avec une virgule, les entiers sans séparateur (années, codes)', () => {
    expect(numberText(32.81)).toBe('32,81');
    expect(numberText(1979)).toBe('1979');
    expect(numberText(-0.5)).toBe('-0,5');
    expect(shown({ changes: { course: { before: null, after: 32.81 }, annee: { before: 1979, after: 1980 } } })).toEqual([
      'course : — → 32,81',
      'annee : 1979 → 1980',
    ]);
  });

  it('les montants en euros, aussi de part et d’autre d’un « avant → après »', () => {
    expect(shown({ amountCents: 570020, balanceCents: 0 })).toEqual([
      `Montant : ${formatEuros(5700.2)}`,
      `Reste à payer : ${formatEuros(0)}`,
    ]);
    expect(shown({ changes: { totalInclCents: { before: 44110, after: 50000 } } })).toEqual([
      `Total TTC : ${formatEuros(441.1)} → ${formatEuros(500)}`,
    ]);
    // Le capital social de l'agence, en euros.
    expect(shown({ changed: { shareCapital: { before: null, after: 150000 } } }, { objectType: 'agency' })).toEqual([
      `Changé · Capital social : — → ${formatEuros(150000)}`,
    ]);
  });

  it('les codes propres au journal : mode de règlement, composant, données importées', () => {
    expect(shown({ method: 'virement' })).toEqual(['Mode de règlement : Virement']);
    expect(shown({ method: { before: 'cheque', after: 'carte' } })).toEqual(['Mode de règlement : Chèque → Carte bancaire']);
    const discrepancy = { component: 'car_door', finding: 'Galets usés' };
    expect(shown(discrepancy, { objectType: 'discrepancy' })).toEqual(['Composant : Porte de cabine', 'Constat : Galets usés']);
    expect(shown({ component: 'machine' }, { objectType: 'discrepancy' })).toEqual(['Composant : Machinerie']);
    // Sans composant : l'appareil entier ; un composant inconnu du journal, en mots.
    expect(shown({ component: null }, { objectType: 'discrepancy' })).toEqual(['Composant : Appareil']);
    expect(shown({ component: 'porte_secours' }, { objectType: 'discrepancy' })).toEqual(['Composant : porte secours']);
    expect(shown({ target: 'clients', created: 3, updated: 1, refused: 0 }, { objectType: 'import_file' })).toEqual([
      'Données importées : Clients',
      'Créés : 3',
      'Mis à jour : 1',
      'Refusés : 0',
    ]);
  });

  it("une facture : son client CLI-… en lien vers sa fiche, le nombre de ses équipements", () => {
    const lines = detailLines(
      { client: 'CLI-000134', equipment: 0, lines: 3, nature: 'facture', quote: null, totalInclCents: 81565 },
      { objectType: 'invoice', references },
    );
    expect(lines.map(lineText)).toEqual([
      'Client : CLI-000134',
      'Équipements : 0',
      'Lignes : 3',
      'Nature : Facture',
      'Devis : —',
      `Total TTC : ${formatEuros(815.65)}`,
    ]);
    expect(lines[0]!.parts).toEqual([{ text: 'CLI-000134', path: '/clients/CLI-000134' }]);
  });

  it("un contact nomme son client une fois ; les secteurs d'un technicien ; le compte rendu d'un appel", () => {
    expect(shown({ client: CLIENT, client_id: 'CLI-000042', nom: 'Mme Lambert', fonction: 'Gardienne' }, { objectType: 'contact', references })).toEqual([
      'Client : Syndic Lumière',
      'Nom : Mme Lambert',
      'Fonction : Gardienne',
    ]);
    expect(shown({ name: 'Hélène Rousseau', sectors: 'Paris 15e,Paris 16e' }, { objectType: 'technician' })).toEqual([
      'Nom : Hélène Rousseau',
      'Secteurs : Paris 15e, Paris 16e',
    ]);
    const report = { cause: 'Contact de porte', work: 'Remplacé', parts: null, backInServiceAt: '2026-11-09T15:30:00Z' };
    expect(shown({ from: 'sur_place', to: 'resolue', report }, { objectType: 'call' })).toEqual([
      'De : Technicien sur place',
      'À : Résolue',
      'Compte rendu : Cause de la panne : Contact de porte ; Travaux effectués : Remplacé ; Pièces remplacées : — ; Remise en service : 09/11/2026 16:30',
    ]);
    // L'envoi d'un webhook rejoué : son identifiant n'a ni nom ni page.
    expect(shown({ delivery: GONE })).toEqual([]);
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
