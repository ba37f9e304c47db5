import { describe, expect, it } from 'vitest';
import {
  acceptedRows,
  duplicateFields,
  errorReportCsv,
  errorReportName,
  fileProblem,
  firstWritten,
  formatSize,
  importButtonLabel,
  initialMapping,
  mappingBody,
  MAX_FILE_BYTES,
  progressPercent,
  refusedNotice,
  resultCounts,
  rowErrors,
  TARGET_LABELS,
  toBase64,
  type ImportReport,
} from './imports';

const report = (rows: ImportReport['rows']): ImportReport => ({
  fileId: 'f',
  target: 'equipment',
  mapping: {},
  ignoredColumns: [],
  rowsTotal: rows.length,
  created: rows.filter((r) => r.action === 'creation').length,
  updated: rows.filter((r) => r.action === 'mise_a_jour').length,
  refused: rows.filter((r) => r.action === 'refus').length,
  rows,
});

describe('assistant d’import', () => {
  it('refuse avant l’envoi une extension ou une taille que le serveur refuserait', () => {
    expect(fileProblem('parc.xlsx', 10)).toBeNull();
    expect(fileProblem('PARC.CSV', 10)).toBeNull();
    expect(fileProblem('parc.pdf', 10)).toBe(
      "Le fichier « parc.pdf » n'est pas accepté : seuls les fichiers .csv et .xlsx peuvent être importés.",
    );
    expect(fileProblem('.xlsx', 10)).not.toBeNull();
    expect(fileProblem('parc.xlsx', MAX_FILE_BYTES)).toBeNull();
    expect(fileProblem('parc.xlsx', MAX_FILE_BYTES + 1)).toBe(
      'Le fichier dépasse la taille maximale acceptée (32 Mio).',
    );
    expect(fileProblem('parc.csv', 0)).toBe('Le fichier « parc.csv » est vide.');
  });

  it('encode en base64 comme btoa, y compris au-delà d’une tranche', () => {
    expect(toBase64(new TextEncoder().encode('N° appareil'))).toBe('TsKwIGFwcGFyZWls');
    const big = new Uint8Array(100_000).map((_, i) => i % 251);
    expect(atob(toBase64(big)).length).toBe(100_000);
    expect(formatSize(1536).replace(/\s/g, ' ')).toBe('1,5 Kio');
  });

  it('part de la correspondance proposée et envoie null pour une colonne ignorée', () => {
    const target = { target: 'equipment' as const, fields: [], suggestedMapping: { 'N° appareil': 'number' } };
    const mapping = initialMapping(['N° appareil', 'Remarque'], target);
    expect(mapping).toEqual({ 'N° appareil': 'number', Remarque: '' });
    expect(mappingBody(mapping)).toEqual({ 'N° appareil': 'number', Remarque: null });
    expect(duplicateFields({ A: 'number', B: 'number', C: '' })).toEqual(new Map([['number', ['A', 'B']]]));
  });

  it('lit la ligne, la colonne et le message de chaque raison de refus', () => {
    const errors = rowErrors(
      report([
        { row: 2, action: 'creation', id: null, changes: [], reasons: [] },
        {
          row: 7,
          action: 'refus',
          id: null,
          changes: [],
          reasons: [
            'Colonne « Type » (B) : La valeur « Fusée » du champ « type » n’est pas autorisée.',
            'Ni numéro ni identifiant externe.',
          ],
        },
      ]),
    );
    expect(errors).toEqual([
      { row: 7, column: 'Type', letter: 'B', message: 'La valeur « Fusée » du champ « type » n’est pas autorisée.' },
      { row: 7, column: '', letter: '', message: 'Ni numéro ni identifiant externe.' },
    ]);
  });

  it('compte les lignes inchangées à part des mises à jour', () => {
    const counts = resultCounts(
      report([
        { row: 2, action: 'creation', id: 'a', changes: [], reasons: [] },
        { row: 3, action: 'mise_a_jour', id: 'b', changes: ['type'], reasons: [] },
        { row: 4, action: 'mise_a_jour', id: 'c', changes: [], reasons: [] },
        { row: 5, action: 'refus', id: null, changes: [], reasons: ['x'] },
      ]),
    );
    expect(counts).toEqual({ created: 1, updated: 1, unchanged: 1, refused: 1 });
  });

  it('donne un pourcentage d’avancement borné', () => {
    expect(progressPercent(null)).toBe(0);
    expect(progressPercent({ rowsProcessed: 0, rowsTotal: 0 })).toBe(0);
    expect(progressPercent({ rowsProcessed: 250, rowsTotal: 500 })).toBe(50);
    expect(progressPercent({ rowsProcessed: 499, rowsTotal: 500 })).toBe(99);
    expect(progressPercent({ rowsProcessed: 600, rowsTotal: 500 })).toBe(100);
  });
});

describe('ce que dit le bouton d’import et le rapport d’erreurs', () => {
  const row = (n: number, action: ImportReport['rows'][number]['action'], extra: Partial<ImportReport['rows'][number]> = {}) => ({
    row: n,
    action,
    id: null,
    changes: [],
    reasons: [],
    ...extra,
  });

  it('importe les lignes acceptées et dit que les refusées ne le seront pas', () => {
    const some = report([row(2, 'creation'), row(3, 'mise_a_jour', { id: 'e1' }), row(4, 'refus', { reasons: ['x'] })]);
    expect(acceptedRows(some)).toBe(2);
    expect(importButtonLabel(some)).toBe('Importer les 2 lignes acceptées');
    expect(refusedNotice(some)).toMatch(/^La ligne refusée ne sera pas importée : l'import n'écrit que les lignes acceptées\./);

    const one = report([row(2, 'creation'), row(3, 'refus'), row(4, 'refus')]);
    expect(importButtonLabel(one)).toBe('Importer la ligne acceptée');
    expect(refusedNotice(one)).toMatch(/^Les 2 lignes refusées ne seront pas importées/);

    const clean = report([row(2, 'creation')]);
    expect(importButtonLabel(clean)).toBe('Importer');
    expect(refusedNotice(clean)).toBeNull();

    // Tout refusé : rien à importer, le bouton reste « Importer » (inactif) et le message le dit.
    const none = report([row(2, 'refus'), row(3, 'refus')]);
    expect(acceptedRows(none)).toBe(0);
    expect(importButtonLabel(none)).toBe('Importer');
    expect(refusedNotice(none)).toMatch(/^Aucune ligne ne peut être importée/);
  });

  it('n’importe rien des contrats tant qu’une ligne est refusée (tout ou rien)', () => {
    const contracts = (rows: ImportReport['rows']): ImportReport => ({ ...report(rows), target: 'contracts' });
    const refused = contracts([row(2, 'creation'), row(3, 'creation'), row(4, 'refus', { reasons: ['x'] })]);
    expect(acceptedRows(refused)).toBe(0);
    expect(importButtonLabel(refused)).toBe('Importer');
    expect(refusedNotice(refused)).toMatch(/^Un import de contrats enregistre toutes ses lignes ou aucune : tant qu'une ligne est refusée, aucun contrat n'est importé\./);

    const clean = contracts([row(2, 'creation'), row(3, 'creation')]);
    expect(acceptedRows(clean)).toBe(2);
    expect(importButtonLabel(clean)).toBe('Importer');
    expect(refusedNotice(clean)).toBeNull();
  });

  it('n’importe rien des valeurs d’indices tant qu’une ligne est refusée (tout ou rien)', () => {
    const indexes = (rows: ImportReport['rows']): ImportReport => ({ ...report(rows), target: 'price_indexes' });
    const refused = indexes([row(2, 'creation'), row(3, 'mise_a_jour', { id: 'BT48/2026-01', changes: ['valeur'] }), row(4, 'refus', { reasons: ['x'] })]);
    expect(acceptedRows(refused)).toBe(0);
    expect(importButtonLabel(refused)).toBe('Importer');
    expect(refusedNotice(refused)).toMatch(
      /^Un import de valeurs d'indices enregistre toutes ses lignes ou aucune : tant qu'une ligne est refusée, aucune valeur n'est importée\. Pour les importer, corrigez le fichier/,
    );

    const clean = indexes([row(2, 'creation'), row(3, 'mise_a_jour', { id: 'BT48/2026-01', changes: ['valeur'] }), row(4, 'mise_a_jour', { id: 'BT48/2026-02' })]);
    expect(acceptedRows(clean)).toBe(3);
    expect(importButtonLabel(clean)).toBe('Importer');
    expect(refusedNotice(clean)).toBeNull();
    expect(resultCounts(clean)).toEqual({ created: 1, updated: 1, unchanged: 1, refused: 0 });
    expect(TARGET_LABELS.price_indexes).toBe('Valeurs des indices de révision (BT48, ICHT-IME…)');
  });

  it('écrit le rapport CSV : BOM, « ; », CRLF, en-têtes français, cellules protégées', () => {
    const csv = errorReportCsv([
      { row: 3, column: 'Client', letter: 'F', message: "aucun client n'a le nom « A; B » : importez d'abord les clients." },
      { row: 4, column: '', letter: '', message: 'Cet équipement n\'est rattaché à aucun immeuble.' },
      { row: 5, column: '=Colonne', letter: 'A', message: 'Il a dit "non".' },
    ]);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'Ligne;Colonne;Valeur;Erreur',
      `3;Client (F);;"aucun client n'a le nom « A; B » : importez d'abord les clients."`,
      "4;;;Cet équipement n'est rattaché à aucun immeuble.",
      `5;'=Colonne (A);;"Il a dit ""non""."`,
      '',
    ]);
    expect(errorReportCsv([])).toBe('\uFEFFLigne;Colonne;Valeur;Erreur\r\n');
  });

  it('nomme le rapport d’après le fichier', () => {
    expect(errorReportName('parc-mots.xlsx')).toBe('erreurs-parc-mots.csv');
    expect(errorReportName('Clients.CSV')).toBe('erreurs-Clients.csv');
    expect(errorReportName('.csv')).toBe('erreurs-import.csv');
  });

  it('mène à la première fiche créée, sinon à la première mise à jour', () => {
    expect(firstWritten(report([row(2, 'refus'), row(3, 'creation', { id: 'e2' }), row(4, 'creation', { id: 'e3' })]))).toEqual({
      id: 'e2',
      created: true,
    });
    expect(firstWritten(report([row(2, 'mise_a_jour', { id: 'e1' }), row(3, 'refus')]))).toEqual({ id: 'e1', created: false });
    expect(firstWritten(report([row(2, 'refus')]))).toBeNull();
  });
});
