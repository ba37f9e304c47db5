-- Payments: an invoice is settled by one or more payments (partial
-- payments, a date, a method and a reference each), and a credit note by
-- its refunds. What is still due is the total including tax, less the
-- issued credit notes (for an invoice), less the payments; the document
-- moves to "payee" when that reaches zero.
CREATE TABLE invoice_payments (
    id            TEXT PRIMARY KEY,
    agency_id     TEXT NOT NULL REFERENCES agencies(id),
    invoice_id    TEXT NOT NULL REFERENCES invoices(id),
    paid_on       TEXT NOT NULL,
    amount_cents  INTEGER NOT NULL CHECK (amount_cents > 0),
    -- Null when not given (and for the payments carried over below).
    method        TEXT CHECK (method IN ('virement', 'cheque', 'prelevement', 'especes', 'carte')),
    reference     TEXT,
    created_by    TEXT,
    created_at    TEXT NOT NULL
);
CREATE INDEX invoice_payments_by_invoice ON invoice_payments(invoice_id, paid_on, created_at);
CREATE INDEX invoice_payments_by_day ON invoice_payments(agency_id, paid_on, amount_cents);

-- A document settled before this version was settled in full: its payment
-- is what was then due (the total less the issued credit notes, for an
-- invoice), on the day recorded.
INSERT INTO invoice_payments (id, agency_id, invoice_id, paid_on, amount_cents, created_at)
SELECT 'rgl-' || i.id, i.agency_id, i.id, i.paid_on,
       i.total_incl_cents - CASE i.nature WHEN 'facture' THEN COALESCE((
           SELECT SUM(a.total_incl_cents) FROM invoices a
           WHERE a.credited_invoice_id = i.id AND a.nature = 'avoir'
             AND a.status IN ('emise', 'envoyee', 'payee')), 0) ELSE 0 END,
       i.updated_at
FROM invoices i
WHERE i.status = 'payee' AND i.paid_on IS NOT NULL
  AND i.total_incl_cents - CASE i.nature WHEN 'facture' THEN COALESCE((
           SELECT SUM(a.total_incl_cents) FROM invoices a
           WHERE a.credited_invoice_id = i.id AND a.nature = 'avoir'
             AND a.status IN ('emise', 'envoyee', 'payee')), 0) ELSE 0 END > 0;

-- An invoice its credit notes cancel in full has nothing left to pay: it is
-- settled on the day of its last credit note.
UPDATE invoices
SET status = 'payee',
    paid_on = (SELECT MAX(a.issued_on) FROM invoices a
               WHERE a.credited_invoice_id = invoices.id AND a.nature = 'avoir'
                 AND a.status IN ('emise', 'envoyee', 'payee'))
WHERE nature = 'facture' AND status IN ('emise', 'envoyee')
  AND total_incl_cents <= (SELECT COALESCE(SUM(a.total_incl_cents), 0) FROM invoices a
                           WHERE a.credited_invoice_id = invoices.id AND a.nature = 'avoir'
                             AND a.status IN ('emise', 'envoyee', 'payee'))
  AND EXISTS (SELECT 1 FROM invoices a
              WHERE a.credited_invoice_id = invoices.id AND a.nature = 'avoir'
                AND a.status IN ('emise', 'envoyee', 'payee'));
