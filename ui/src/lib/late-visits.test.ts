import { describe, expect, it } from 'vitest';
import { lateness, lateQuery, readLateFilters } from './late-visits';
import type { PendingVisitOut } from './generated/contract';

const visit = (over: Partial<PendingVisitOut>): PendingVisitOut => ({
  id: 'v',
  status: 'planifiee',
  statusLabel: 'Planifiée',
  plannedFor: '2026-11-19',
  deadline: '2026-11-20',
  late: true,
  daysLate: 10,
  plannedAfterDeadline: false,
  equipment: { id: 'e', name: 'ASC-1' },
  building: null,
  address: null,
  client: null,
  technician: null,
  ...over,
});

describe('visites en retard', () => {
  it('les filtres de l’adresse, et retour', () => {
    const filters = readLateFilters('?technician=unassigned&sector=Paris%2015e&days=30');
    expect(filters).toEqual({ technician: 'unassigned', sector: 'Paris 15e', client: '', days: 30 });
    expect(lateQuery(filters)).toBe('?technician=unassigned&sector=Paris+15e&days=30');
    expect(readLateFilters('?days=99').days).toBe(14);
    expect(lateQuery(readLateFilters(''))).toBe('');
  });

  it('le retard en jours, ou les jours avant l’échéance', () => {
    expect(lateness(visit({}), '2026-11-29')).toBe('10 j');
    expect(lateness(visit({ late: false, daysLate: 0, deadline: '2026-12-02' }), '2026-11-29')).toBe('dans 3 j');
    expect(lateness(visit({ late: false, daysLate: 0, deadline: '2026-11-29' }), '2026-11-29')).toBe("aujourd'hui");
  });
});
