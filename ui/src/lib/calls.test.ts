import { describe, expect, it } from 'vitest';
import {
  charCount,
  describeActor,
  NEW_CALL_MESSAGES,
  newCallBody,
  parseCallEvent,
  raisesAlert,
  suggestedTechnician,
  technicianOption,
  validateNewCall,
} from './calls';

const valid = { equipement: 'ASC 7', type: 'panne', description: 'Cabine arrêtée', appelant: '' };

describe('validateNewCall', () => {
  it('accepte un appel complet', () => {
    expect(validateNewCall(valid)).toEqual({});
  });

  it("exige l'appareil, le type et la description", () => {
    expect(validateNewCall({ equipement: '  ', type: '', description: '', appelant: '' })).toEqual({
      equipement: NEW_CALL_MESSAGES.equipmentRequired,
      type: NEW_CALL_MESSAGES.typeRequired,
      description: 'La description doit compter de 3 à 1000 caractères (actuellement : 0).',
    });
  });

  it('refuse un type inconnu', () => {
    expect(validateNewCall({ ...valid, type: 'incendie' }).type).toBe("Choisissez le type d'appel.");
  });

  it('compte les caractères comme le serveur (bornes incluses)', () => {
    expect(validateNewCall({ ...valid, description: 'ab' }).description).toBe(
      'La description doit compter de 3 à 1000 caractères (actuellement : 2).',
    );
    expect(validateNewCall({ ...valid, description: 'abc' })).toEqual({});
    expect(validateNewCall({ ...valid, description: 'é'.repeat(1000) })).toEqual({});
    expect(validateNewCall({ ...valid, description: 'x'.repeat(1001) }).description).toContain('1001');
    // Des espaces seuls ne décrivent rien, même s'ils sont assez nombreux.
    expect(validateNewCall({ ...valid, description: '     ' }).description).toBeDefined();
    // Un emoji compte pour un caractère.
    expect(charCount('🚨ab')).toBe(3);
  });

  it("limite l'appelant à 120 caractères", () => {
    expect(validateNewCall({ ...valid, appelant: 'x'.repeat(120) })).toEqual({});
    expect(validateNewCall({ ...valid, appelant: 'x'.repeat(121) }).appelant).toBe(
      "L'appelant doit compter au plus 120 caractères (actuellement : 121).",
    );
  });
});

describe('newCallBody', () => {
  it("n'envoie pas un appelant vide", () => {
    expect(newCallBody({ ...valid, equipement: ' ASC 7 ' })).toEqual({
      equipement: 'ASC 7',
      type: 'panne',
      description: 'Cabine arrêtée',
    });
    expect(newCallBody({ ...valid, appelant: 'Gardien' }).appelant).toBe('Gardien');
  });
});

describe('parseCallEvent', () => {
  const event = {
    change: 'ouvert',
    id: 'c1',
    reference: 'CC-1',
    statut: 'ouverte',
    type: 'personne_bloquee',
    urgence: true,
  };

  it("lit un événement et dit s'il déclenche l'alerte", () => {
    const parsed = parseCallEvent(JSON.stringify(event));
    expect(parsed).toEqual(event);
    expect(raisesAlert(parsed!)).toBe(true);
    expect(raisesAlert({ ...parsed!, change: 'statut' })).toBe(false);
    expect(raisesAlert({ ...parsed!, urgence: false, type: 'panne' })).toBe(false);
  });

  it('ignore ce qui ne se lit pas', () => {
    expect(parseCallEvent('pas du json')).toBeNull();
    expect(parseCallEvent('{}')).toBeNull();
    expect(parseCallEvent(JSON.stringify({ ...event, statut: 'fermee' }))).toBeNull();
  });
});

describe('affichage', () => {
  it("nomme l'auteur d'une étape", () => {
    expect(describeActor(null)).toBe('auteur non enregistré');
    expect(describeActor({ kind: 'centre', name: 'Astreinte Plus' })).toBe("par Astreinte Plus (centre d'appels)");
    expect(describeActor({ kind: 'personnel', name: 'Claire Durand' })).toBe('par Claire Durand');
  });

  it("propose d'abord le technicien d'astreinte", () => {
    const choices = [
      { id: 'o', name: 'Olivier', sectors: 'Levallois', onCall: true, openCalls: 0, suggested: true },
      { id: 'a', name: 'Alice', sectors: null, onCall: false, openCalls: 2, suggested: false },
    ];
    expect(suggestedTechnician(choices)).toBe('o');
    expect(suggestedTechnician(choices.slice(1))).toBe('');
    expect(technicianOption(choices[0]!)).toBe("Olivier · d'astreinte (suggéré) · aucun appel en cours · Levallois");
    expect(technicianOption(choices[1]!)).toBe('Alice · 2 appels en cours');
  });
});
