import { describe, expect, it, vi } from 'vitest';
import {
  copyText,
  deliveryStatus,
  eventLabel,
  otherAgencies,
  PASSWORD_MESSAGES,
  validateEvents,
  validateName,
  validatePasswordChange,
  validateWebhookUrl,
} from './keys';

describe('validateName', () => {
  it('exige un nom, avec les messages du serveur', () => {
    expect(validateName('token', '   ')).toBe("Le nom de l'outil est obligatoire.");
    expect(validateName('callCenter', '')).toBe("Le nom du centre d'appels est obligatoire.");
    expect(validateName('partner', '')).toBe('Le nom du partenaire est obligatoire.');
  });

  it('compte au plus 200 caractères après rognage, en points de code', () => {
    expect(validateName('token', `  ${'x'.repeat(200)}  `)).toBeUndefined();
    expect(validateName('token', 'x'.repeat(201))).toBe("Le nom de l'outil ne doit pas dépasser 200 caractères.");
    // 200 émojis = 400 unités UTF-16, mais 200 caractères pour le serveur.
    expect(validateName('token', '🛗'.repeat(200))).toBeUndefined();
  });
});

describe('validateWebhookUrl', () => {
  it('accepte une adresse https', () => {
    expect(validateWebhookUrl(' https://hooks.example.org/liftdesk ')).toBeUndefined();
  });

  it("laisse au serveur une adresse http locale (--insecure-webhooks)", () => {
    expect(validateWebhookUrl('http://127.0.0.1:9000/h')).toBeUndefined();
    expect(validateWebhookUrl('http://localhost/h')).toBeUndefined();
  });

  it('refuse comme le serveur', () => {
    expect(validateWebhookUrl('')).toBe(
      "Le champ « url » est obligatoire : l'adresse https qui reçoit les événements.",
    );
    expect(validateWebhookUrl('hooks.example.org/x')).toBe(
      "L'adresse « hooks.example.org/x » n'est pas une adresse absolue (https://hôte/chemin).",
    );
    expect(validateWebhookUrl('http://hooks.example.org/')).toBe(
      "L'adresse doit commencer par https:// : les événements ne sont envoyés qu'en HTTPS.",
    );
    expect(validateWebhookUrl('ftp://x.org/')).toBe(
      "L'adresse doit commencer par https:// : les événements ne sont envoyés qu'en HTTPS.",
    );
    expect(validateWebhookUrl('https://u:p@x.org/')).toMatch(/identifiants/);
    expect(validateWebhookUrl('https://x.org/#f')).toBe("L'adresse ne doit pas contenir de fragment (#…).");
    expect(validateWebhookUrl(`https://x.org/${'a'.repeat(2000)}`)).toBe("L'adresse « url » dépasse 2000 caractères.");
  });
});

/** Les événements comme `GET /app/api/webhooks/events` les rend. */
const EVENTS = [
  { code: 'appel.clos', label: 'Appel de panne résolu' },
  { code: 'releve.termine', label: 'Relevé soumis par le technicien' },
  { code: 'devis.accepte', label: 'Devis accepté' },
];

describe('validateEvents', () => {
  it('exige au moins un événement', () => {
    expect(validateEvents([], EVENTS)).toBe(
      'Le champ « events » doit contenir au moins un événement parmi : appel.clos, releve.termine, devis.accepte.',
    );
    expect(validateEvents(['appel.clos'], EVENTS)).toBeUndefined();
  });
});

describe('validatePasswordChange', () => {
  it('exige le mot de passe actuel, 8 caractères et deux saisies identiques', () => {
    expect(validatePasswordChange({ current: '', next: 'court', confirm: '' })).toEqual({
      current: PASSWORD_MESSAGES.currentRequired,
      next: 'Le mot de passe doit comporter au moins 8 caractères.',
    });
    expect(validatePasswordChange({ current: 'ancien', next: 'nouveau-solide', confirm: 'nouveau-solid' })).toEqual({
      confirm: PASSWORD_MESSAGES.mismatch,
    });
    expect(validatePasswordChange({ current: 'ancien', next: 'nouveau-solide', confirm: 'nouveau-solide' })).toEqual({});
  });

  it('ne rogne pas les mots de passe', () => {
    expect(validatePasswordChange({ current: ' ', next: '       x', confirm: '       x' })).toEqual({});
  });
});

describe('libellés', () => {
  it('des statuts de livraison', () => {
    expect(deliveryStatus('livree')).toEqual({ label: 'Livrée', tone: 'success' });
    expect(deliveryStatus('echec').tone).toBe('danger');
    expect(deliveryStatus('en_attente')).toEqual({ label: 'En attente', tone: 'neutral' });
    expect(deliveryStatus('autre').label).toBe('autre');
  });

  it('des événements et des autres agences', () => {
    expect(eventLabel('ping', EVENTS)).toBe('Test (ping)');
    expect(eventLabel('appel.clos', EVENTS)).toBe('Appel de panne résolu');
    expect(otherAgencies(1)).toBe('1 autre agence');
    expect(otherAgencies(3)).toBe('3 autres agences');
  });
});

describe('copyText', () => {
  it('passe par le presse-papiers quand il existe', async () => {
    const writeText = vi.fn(async () => {});
    expect(await copyText('svc_agent_x', { writeText }, undefined)).toBe(true);
    expect(writeText).toHaveBeenCalledWith('svc_agent_x');
  });

  it('se rabat sur execCommand quand le presse-papiers refuse', async () => {
    const area = { value: '', style: {} as Record<string, string>, setAttribute: vi.fn(), select: vi.fn(), remove: vi.fn() };
    const doc = {
      createElement: vi.fn(() => area),
      body: { appendChild: vi.fn() },
      activeElement: null,
      execCommand: vi.fn(() => true),
    } as unknown as Document;
    const writeText = vi.fn(async () => {
      throw new Error('refusé');
    });
    expect(await copyText('secret', { writeText }, doc)).toBe(true);
    expect(area.value).toBe('secret');
    expect(area.select).toHaveBeenCalled();
    expect(area.remove).toHaveBeenCalled();
  });

  it('renvoie faux si rien ne marche', async () => {
    expect(await copyText('secret', undefined, undefined)).toBe(false);
  });
});
