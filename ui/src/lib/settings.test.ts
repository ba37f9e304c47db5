import { describe, expect, it } from 'vitest';
import {
  checkRestorePath,
  formatBackupDate,
  formatBytes,
  integrationUrl,
  validateAgencyServer,
  validateBackupDir,
  validatePort,
  validateSetup,
} from './settings';

describe('paramètres', () => {
  it('valide le port', () => {
    expect(validatePort('8080')).toBeUndefined();
    expect(validatePort(' 9090 ')).toBeUndefined();
    expect(validatePort('80')).toContain('entre 1024 et 65535');
    expect(validatePort('70000')).toContain('entre 1024 et 65535');
    expect(validatePort('abc')).toContain('nombre');
  });

  it('demande un chemin complet pour le dossier de sauvegarde', () => {
    expect(validateBackupDir('')).toBeUndefined();
    expect(validateBackupDir('/home/agence/Sauvegardes')).toBeUndefined();
    expect(validateBackupDir('D:\\Sauvegardes')).toBeUndefined();
    expect(validateBackupDir('Sauvegardes')).toContain("n'est pas un chemin complet");
  });

  it('met en forme tailles et dates', () => {
    expect(formatBytes(512)).toBe('512 octets');
    expect(formatBytes(1536)).toBe('1,5 Ko');
    expect(formatBackupDate('2026-11-25T09:30:12')).toBe('25/11/2026 à 09:30');
    expect(formatBackupDate(null)).toBe('—');
  });

  it("donne l'adresse des intégrations au port enregistré", () => {
    expect(integrationUrl('http://127.0.0.1:8080', 9090)).toBe('http://127.0.0.1:9090');
    expect(integrationUrl('pas une adresse', 9090)).toBe('pas une adresse');
  });

  it("valide le formulaire d'installation", () => {
    const good = {
      organization: 'Ascenseurs Durand',
      agency: 'Lyon',
      adminName: 'Claire',
      email: 'claire@durand.fr',
      password: 'motdepasse',
      confirm: 'motdepasse',
    };
    expect(validateSetup(good)).toEqual({});
    expect(validateSetup({ ...good, organization: ' ' }).organization).toContain('obligatoire');
    expect(validateSetup({ ...good, email: 'claire' }).email).toContain("n'est pas valide");
    expect(validateSetup({ ...good, password: 'court', confirm: 'court' }).password).toContain('8 caractères');
    expect(validateSetup({ ...good, confirm: 'autre' }).confirm).toContain('identiques');
  });
});

describe('checkRestorePath', () => {
  it('accepte un chemin complet, Unix ou Windows', () => {
    expect(checkRestorePath('/media/cle/liftdesk-20261124-180000.sqlite3')).toBeNull();
    expect(checkRestorePath('  D:\\Sauvegardes\\liftdesk.sqlite3 ')).toBeNull();
    expect(checkRestorePath('\\\\serveur\\partage\\liftdesk.sqlite3')).toBeNull();
  });

  it('refuse un chemin vide ou relatif avec la phrase du serveur', () => {
    for (const path of ['', '   ', 'liftdesk.sqlite3', './sauvegardes/x.sqlite3']) {
      expect(checkRestorePath(path)).toBe('Indiquez le chemin complet du fichier de sauvegarde.');
    }
  });
});

describe('validateAgencyServer', () => {
  it('demande une adresse entière, le serveur vérifie le reste', () => {
    expect(validateAgencyServer(' https://liftdesk.agence.fr ')).toBeNull();
    expect(validateAgencyServer('http://127.0.0.1:8443')).toBeNull();
    expect(validateAgencyServer('  ')).toContain("Indiquez l'adresse du serveur de l'agence");
    expect(validateAgencyServer('liftdesk.agence.fr')).toContain('en commençant par https://');
  });
});
