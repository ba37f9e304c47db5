-- Indexes of the dashboard (`GET /app/api/dashboard`): each of its figures
-- reads one slice of one covering index instead of a million invoice rows.

-- Invoices issued per month: nature, issue day and amount.
CREATE INDEX invoices_issued_by_day ON invoices(agency_id, nature, issued_on, total_incl_cents)
    WHERE issued_on IS NOT NULL;

-- Invoices paid per month.
CREATE INDEX invoices_paid_by_day ON invoices(agency_id, nature, paid_on, total_incl_cents)
    WHERE paid_on IS NOT NULL;

-- Unpaid invoices (issued or sent) by due day, with their amount.
CREATE INDEX invoices_unpaid_by_due ON invoices(agency_id, nature, status, due_on, total_incl_cents)
    WHERE status IN ('emise', 'envoyee');

-- Credit notes issued against an invoice, with their amount.
CREATE INDEX invoices_credits_by_agency ON invoices(agency_id, nature, status, credited_invoice_id, total_incl_cents)
    WHERE credited_invoice_id IS NOT NULL;

-- Visits not done yet: the overdue ones are found among them only.
CREATE INDEX visits_not_done ON visits(agency_id, planned_for, deadline, status)
    WHERE status <> 'faite';

-- How many catalog fields that apply to its type each equipment has surveyed:
-- the numerator of its knowledge rate, kept by triggers in the transaction of
-- every change to its data or its type, so that the dashboard bands fifty
-- thousand equipment from one index instead of a million data rows. A
-- migration that changes the catalog's `applies_to` must recompute it.
ALTER TABLE equipment ADD COLUMN surveyed_fields INTEGER NOT NULL DEFAULT 0;

UPDATE equipment SET surveyed_fields = (
    SELECT COUNT(*) FROM equipment_values v JOIN technical_fields f ON f.code = v.field_code
    WHERE v.equipment_id = equipment.id
      AND (f.applies_to IS NULL
           OR (',' || f.applies_to || ',') LIKE ('%,' || COALESCE(equipment.type, '') || ',%')));

CREATE INDEX equipment_by_surveyed ON equipment(agency_id, type, surveyed_fields);

CREATE TRIGGER equipment_surveyed_insert AFTER INSERT ON equipment_values
BEGIN
    UPDATE equipment SET surveyed_fields = surveyed_fields + 1
    WHERE id = NEW.equipment_id
      AND EXISTS (SELECT 1 FROM technical_fields f WHERE f.code = NEW.field_code
                  AND (f.applies_to IS NULL
                       OR (',' || f.applies_to || ',') LIKE ('%,' || COALESCE(equipment.type, '') || ',%')));
END;

CREATE TRIGGER equipment_surveyed_delete AFTER DELETE ON equipment_values
BEGIN
    UPDATE equipment SET surveyed_fields = surveyed_fields - 1
    WHERE id = OLD.equipment_id
      AND EXISTS (SELECT 1 FROM technical_fields f WHERE f.code = OLD.field_code
                  AND (f.applies_to IS NULL
                       OR (',' || f.applies_to || ',') LIKE ('%,' || COALESCE(equipment.type, '') || ',%')));
END;

CREATE TRIGGER equipment_surveyed_move AFTER UPDATE OF equipment_id, field_code ON equipment_values
BEGIN
    UPDATE equipment SET surveyed_fields = (
        SELECT COUNT(*) FROM equipment_values v JOIN technical_fields f ON f.code = v.field_code
        WHERE v.equipment_id = equipment.id
          AND (f.applies_to IS NULL
               OR (',' || f.applies_to || ',') LIKE ('%,' || COALESCE(equipment.type, '') || ',%')))
    WHERE id IN (OLD.equipment_id, NEW.equipment_id);
END;

CREATE TRIGGER equipment_surveyed_type AFTER UPDATE OF type ON equipment
WHEN OLD.type IS NOT NEW.type
BEGIN
    UPDATE equipment SET surveyed_fields = (
        SELECT COUNT(*) FROM equipment_values v JOIN technical_fields f ON f.code = v.field_code
        WHERE v.equipment_id = equipment.id
          AND (f.applies_to IS NULL
               OR (',' || f.applies_to || ',') LIKE ('%,' || COALESCE(equipment.type, '') || ',%')))
    WHERE id = NEW.id;
END;
