// Les codes de l'API rendus en français (`labels.ts`) et leur usage : valeurs
// techniques de la fiche, détail du journal et de l'historique d'une fiche.
import { describe, expect, it } from 'vitest';
import { formatValue, parseInput, technicalLabels } from './equipment';
import { detailLines, fieldValueText, lineText } from './journal';
import { choiceLabel, CONTRACTS, EQUIPMENT_TYPES, equipmentTypeLabel, valueLabel } from './labels';

/** Un code de l'API : snake_case, camelCase ou nom d'événement. */
const CODE = /\b[a-z]+(?:_[a-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z]*\b|\b[a-z]+\.[a-z_]+\b/;

describe('les codes rendus en français', () => {
  it('nomme chaque type d’équipement et chaque contrat sans code', () => {
    for (const { code, label } of [...EQUIPMENT_TYPES, ...CONTRACTS]) {
      expect(label).not.toMatch(CODE);
      expect(label).not.toBe(code);
    }
    expect(equipmentTypeLabel('monte_charge')).toBe('Monte-charge');
    expect(equipmentTypeLabel('inconnu')).toBe('inconnu');
  });

  it('écrit « Électrique » avec son accent, la valeur envoyée restant « Electrique »', () => {
    expect(choiceLabel('Electrique')).toBe('Électrique');
    expect(choiceLabel('Hydraulique')).toBe('Hydraulique');
    expect(choiceLabel('constructor')).toBe('constructor');
    expect(parseInput({ label: "Type d'entraînement", valueType: 'choice', choices: ['Electrique', 'Hydraulique'] }, 'Electrique')).toEqual({
      value: 'Electrique',
    });
    expect(parseInput({ label: "Type d'entraînement", valueType: 'choice', choices: ['Electrique', 'Hydraulique'] }, 'Diesel')).toEqual({
      error: "La valeur « Diesel » du champ « Type d'entraînement » n'est pas autorisée : valeurs possibles : « Électrique », « Hydraulique ».",
    });
  });

  it('montre une valeur technique telle qu’elle se lit', () => {
    expect(formatValue({ value: 'Electrique', unit: null })).toBe('Électrique');
    expect(formatValue({ value: ['Electrique', 'Autre'], unit: null })).toBe('Électrique, Autre');
    expect(formatValue({ value: 630, unit: 'kg' })).toBe('630 kg');
  });

  it('nomme une valeur codée selon le champ et le genre d’objet', () => {
    expect(valueLabel('type', 'monte_charge', 'equipment')).toBe('Monte-charge');
    expect(valueLabel('type', 'personne_bloquee', 'call')).toBe('Personne bloquée');
    // Le « type » d'un client (ses catégories) est un texte libre.
    expect(valueLabel('type', 'monte_charge', 'client')).toBe('monte_charge');
    expect(valueLabel('to', 'resolue', 'call')).toBe('Résolue');
    expect(valueLabel('from', 'a_realiser', 'survey')).toBe('À réaliser');
    expect(valueLabel('to', 'accepte', 'quote')).toBe('Accepté');
    expect(valueLabel('to', 'faite', 'visit')).toBe('Faite');
    expect(valueLabel('maintenanceContract', 'hors_parc')).toBe('Hors parc');
    expect(valueLabel('nature', 'avoir', 'invoice')).toBe('Avoir');
    expect(valueLabel('origin', 'reserve', 'quote')).toBe('Réserve de contrôle technique');
    expect(valueLabel('role', 'member', 'account')).toBe('Membre');
    expect(valueLabel('via', 'open_app', 'survey')).not.toMatch(CODE);
    expect(valueLabel('marque', 'Kone', 'equipment')).toBe('Kone');
    expect(valueLabel('type_entrainement', 'Electrique', 'equipment')).toBe('Électrique');
  });
});

describe('le détail du journal en français', () => {
  const catalog = technicalLabels([
    {
      fields: [
        { code: 'charge_utile', label: 'Charge utile' },
        { code: 'type_entrainement', label: "Type d'entraînement" },
      ],
    },
  ] as Parameters<typeof technicalLabels>[0]);

  it('nomme les données du catalogue de la fiche et leurs valeurs', () => {
    expect(catalog).toEqual({ charge_utile: 'Charge utile', type_entrainement: "Type d'entraînement" });
    const lines = detailLines(
      {
        changes: {
          charge_utile: { before: 630, after: 800 },
          type_entrainement: { before: 'Electrique', after: 'Hydraulique' },
        },
      },
      { objectType: 'equipment', fieldLabels: catalog },
    ).map(lineText);
    expect(lines).toEqual(['Charge utile : 630 → 800', "Type d'entraînement : Électrique → Hydraulique"]);
  });

  it("nomme le type et le contrat d'un équipement corrigé", () => {
    const lines = detailLines(
      {
        changes: {
          type: { before: 'monte_charge', after: 'ascenseur' },
          maintenanceContract: { before: 'hors_parc', after: 'parc' },
          serialNumber: { before: 'SN-1', after: 'SN-2' },
        },
      },
      { objectType: 'equipment' },
    ).map(lineText);
    expect(lines).toEqual(['Type : Monte-charge → Ascenseur', 'Contrat : Hors parc → Sous contrat (parc)', 'N° de série : SN-1 → SN-2']);
  });

  it('nomme les statuts selon le genre de l’objet', () => {
    expect(detailLines({ from: 'a_realiser', to: 'en_cours' }, { objectType: 'survey' }).map(lineText)).toEqual([
      'De : À réaliser',
      'À : En cours',
    ]);
    expect(fieldValueText('to', { before: 'sur_place', after: 'resolue' }, { objectType: 'call' })).toBe(
      'Technicien sur place → Résolue',
    );
  });

  it("nomme les champs changés par un import, cache le fichier et saute une création (tous les champs)", () => {
    const update = detailLines(
      { changes: ['serialNumber', 'charge_utile'], fileId: '0193-f', row: 7 },
      { objectType: 'equipment', fieldLabels: catalog },
    ).map(lineText);
    expect(update).toEqual(['Champs changés : N° de série, Charge utile', 'Ligne du fichier : 7']);
    expect(detailLines({ changes: [], fileId: 'f', row: 2 }, { objectType: 'equipment' }).map(lineText)).toEqual([
      'Ligne du fichier : 2',
    ]);
  });

  it("détaille ce qu'un relevé change sur l'équipement, champ par champ", () => {
    const lines = detailLines(
      {
        copiedToEquipment: 2,
        equipmentChanges: { charge_utile: { before: null, after: 630 }, type_entrainement: { before: null, after: 'Electrique' } },
      },
      { objectType: 'survey', fieldLabels: catalog },
    ).map(lineText);
    expect(lines).toEqual([
      "Données reportées sur l'équipement : 2",
      "Changé sur l'équipement · Charge utile : — → 630",
      "Changé sur l'équipement · Type d'entraînement : — → Électrique",
    ]);
    for (const line of lines) expect(line).not.toMatch(CODE);
  });

  it("nomme les clés d'une affaire et de l'identité de l'agence", () => {
    const lines = detailLines({ created_equipment: ['ASC-1'], legalName: { before: 'A', after: 'B' } }).map(lineText);
    expect(lines).toEqual(['Équipements créés : ASC-1', 'Raison sociale : A → B']);
  });
});
