-- A quote is valid for a period (30 days by default, from its creation or
-- its last renewal): past it, the client's agreement is refused until the
-- quote is renewed. YYYY-MM-DD, the last valid day. The quotes already
-- written are given 30 days from their creation day (UTC day of
-- `created_at`, as it was stored).
ALTER TABLE quotes ADD COLUMN valid_until TEXT;
UPDATE quotes SET valid_until = date(substr(created_at, 1, 10), '+30 days');

-- The lifts an invoice or credit note is about, printed on it: the quote's
-- lift for an invoice made from a quote, the lifts chosen for an invoice
-- written directly, the credited invoice's for a credit note.
CREATE TABLE invoice_equipment (
    invoice_id   TEXT NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
    equipment_id TEXT NOT NULL REFERENCES equipment(id),
    position     INTEGER NOT NULL,
    PRIMARY KEY (invoice_id, equipment_id)
) WITHOUT ROWID;

INSERT INTO invoice_equipment (invoice_id, equipment_id, position)
SELECT i.id, q.equipment_id, 0
  FROM invoices i JOIN quotes q ON q.id = i.quote_id;

INSERT OR IGNORE INTO invoice_equipment (invoice_id, equipment_id, position)
SELECT a.id, ie.equipment_id, ie.position
  FROM invoices a JOIN invoice_equipment ie ON ie.invoice_id = a.credited_invoice_id
 WHERE a.nature = 'avoir';
