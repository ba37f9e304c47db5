-- Each agency's own series of invoice and credit-note numbers
-- (`FA-PO-2026-000001`): two agencies of one organization never give the
-- same number (French law wants a number unique for the seller). Set in the
-- agency's identity (each version keeps the one its documents were
-- numbered in), unique among the organization's agencies, fixed once a
-- document is numbered in it (both checked by `services::identity`).
ALTER TABLE agency_identities ADD COLUMN invoice_series TEXT
    CHECK (invoice_series IS NULL OR (length(invoice_series) BETWEEN 1 AND 6
           AND invoice_series NOT GLOB '*[^A-Z0-9]*'));

-- A number holds its series (`number_series`) between its nature's prefix
-- and its year; numbers already given have none and never change, and the
-- agency's next number continues its sequence (unique per agency, nature
-- and year, series or not). SQLite changes a CHECK only by rebuilding the
-- table (its procedure: new table, copy, drop, rename, indexes and
-- triggers again; the migration runs with the foreign keys off and checks
-- them after).
CREATE TABLE invoices_v23 (
    id                  TEXT PRIMARY KEY,
    agency_id           TEXT NOT NULL REFERENCES agencies(id),
    client_id           TEXT REFERENCES clients(id),
    nature              TEXT NOT NULL CHECK (nature IN ('facture', 'avoir')),
    status              TEXT NOT NULL DEFAULT 'brouillon' CHECK (status IN ('brouillon', 'emise', 'envoyee', 'payee')),
    -- Assigned at issue, never before: gapless per agency, year and nature.
    number              TEXT,
    number_year         INTEGER,
    number_seq          INTEGER,
    -- For a credit note: the invoice it cancels in whole or in part.
    credited_invoice_id TEXT REFERENCES invoices(id),
    quote_id            TEXT REFERENCES quotes(id),
    buyer_name          TEXT,
    buyer_address       TEXT,
    buyer_siren         TEXT,
    issued_on           TEXT,
    due_on              TEXT,
    paid_on             TEXT,
    total_excl_cents    INTEGER NOT NULL DEFAULT 0,
    total_incl_cents    INTEGER NOT NULL DEFAULT 0,
    created_on          TEXT NOT NULL,
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL,
    seller_identity_id  TEXT REFERENCES agency_identities(id),
    -- The agency's series the number was given in (none before V23).
    number_series       TEXT,
    CHECK ((status = 'brouillon') = (number IS NULL)),
    -- The number is exactly its nature's prefix, series, year and sequence.
    CHECK (number IS NULL OR number = (CASE nature WHEN 'facture' THEN 'FA' ELSE 'AV' END)
                                      || '-' || coalesce(number_series || '-', '')
                                      || number_year || '-' || printf('%06d', number_seq)),
    CHECK (nature = 'avoir' OR credited_invoice_id IS NULL),
    UNIQUE (agency_id, nature, number_year, number_seq)
);

INSERT INTO invoices_v23 (id, agency_id, client_id, nature, status, number, number_year,
        number_seq, credited_invoice_id, quote_id, buyer_name, buyer_address, buyer_siren,
        issued_on, due_on, paid_on, total_excl_cents, total_incl_cents, created_on, created_at,
        updated_at, seller_identity_id, number_series)
    SELECT id, agency_id, client_id, nature, status, number, number_year,
        number_seq, credited_invoice_id, quote_id, buyer_name, buyer_address, buyer_siren,
        issued_on, due_on, paid_on, total_excl_cents, total_incl_cents, created_on, created_at,
        updated_at, seller_identity_id, NULL
    FROM invoices;

DROP TABLE invoices;
ALTER TABLE invoices_v23 RENAME TO invoices;

CREATE UNIQUE INDEX invoices_number_per_agency ON invoices(agency_id, number) WHERE number IS NOT NULL;
CREATE INDEX invoices_by_created ON invoices(agency_id, created_on, id);
CREATE INDEX invoices_by_status ON invoices(agency_id, status, created_on, id);
CREATE INDEX invoices_by_client ON invoices(agency_id, client_id, created_on, id);
CREATE INDEX invoices_credit_notes ON invoices(credited_invoice_id) WHERE credited_invoice_id IS NOT NULL;
CREATE INDEX invoices_by_quote ON invoices(quote_id) WHERE quote_id IS NOT NULL;
CREATE INDEX invoices_issued_by_day ON invoices(agency_id, nature, issued_on, total_incl_cents)
    WHERE issued_on IS NOT NULL;
CREATE INDEX invoices_paid_by_day ON invoices(agency_id, nature, paid_on, total_incl_cents)
    WHERE paid_on IS NOT NULL;
CREATE INDEX invoices_unpaid_by_due ON invoices(agency_id, nature, status, due_on, total_incl_cents)
    WHERE status IN ('emise', 'envoyee');
CREATE INDEX invoices_credits_by_agency ON invoices(agency_id, nature, status, credited_invoice_id, total_incl_cents)
    WHERE credited_invoice_id IS NOT NULL;

-- The counts the lists read (V4, V8), kept by the same triggers.
CREATE TRIGGER invoice_counts_insert AFTER INSERT ON invoices
BEGIN
    INSERT INTO invoice_day_counts (agency_id, status, created_on, n)
        VALUES (NEW.agency_id, NEW.status, NEW.created_on, 1)
        ON CONFLICT (agency_id, status, created_on) DO UPDATE SET n = n + 1;
    INSERT INTO invoice_client_day_counts (agency_id, client_id, status, created_on, n)
        SELECT NEW.agency_id, NEW.client_id, NEW.status, NEW.created_on, 1
        WHERE NEW.client_id IS NOT NULL
        ON CONFLICT (agency_id, client_id, status, created_on) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER invoice_counts_delete AFTER DELETE ON invoices
BEGIN
    UPDATE invoice_day_counts SET n = n - 1
        WHERE agency_id = OLD.agency_id AND status = OLD.status AND created_on = OLD.created_on;
    UPDATE invoice_client_day_counts SET n = n - 1
        WHERE agency_id = OLD.agency_id AND client_id = OLD.client_id
          AND status = OLD.status AND created_on = OLD.created_on;
END;

CREATE TRIGGER invoice_counts_update
AFTER UPDATE OF agency_id, client_id, status, created_on ON invoices
WHEN OLD.agency_id IS NOT NEW.agency_id OR OLD.client_id IS NOT NEW.client_id
  OR OLD.status IS NOT NEW.status OR OLD.created_on IS NOT NEW.created_on
BEGIN
    UPDATE invoice_day_counts SET n = n - 1
        WHERE agency_id = OLD.agency_id AND status = OLD.status AND created_on = OLD.created_on;
    UPDATE invoice_client_day_counts SET n = n - 1
        WHERE agency_id = OLD.agency_id AND client_id = OLD.client_id
          AND status = OLD.status AND created_on = OLD.created_on;
    INSERT INTO invoice_day_counts (agency_id, status, created_on, n)
        VALUES (NEW.agency_id, NEW.status, NEW.created_on, 1)
        ON CONFLICT (agency_id, status, created_on) DO UPDATE SET n = n + 1;
    INSERT INTO invoice_client_day_counts (agency_id, client_id, status, created_on, n)
        SELECT NEW.agency_id, NEW.client_id, NEW.status, NEW.created_on, 1
        WHERE NEW.client_id IS NOT NULL
        ON CONFLICT (agency_id, client_id, status, created_on) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER invoice_status_counts_insert AFTER INSERT ON invoices
BEGIN
    INSERT INTO invoice_status_counts (agency_id, status, n)
        VALUES (NEW.agency_id, NEW.status, 1)
        ON CONFLICT (agency_id, status) DO UPDATE SET n = n + 1;
    INSERT INTO invoice_client_status_counts (agency_id, client_id, status, n)
        SELECT NEW.agency_id, NEW.client_id, NEW.status, 1
        WHERE NEW.client_id IS NOT NULL
        ON CONFLICT (agency_id, client_id, status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER invoice_status_counts_delete AFTER DELETE ON invoices
BEGIN
    UPDATE invoice_status_counts SET n = n - 1
        WHERE agency_id = OLD.agency_id AND status = OLD.status;
    UPDATE invoice_client_status_counts SET n = n - 1
        WHERE agency_id = OLD.agency_id AND client_id = OLD.client_id AND status = OLD.status;
END;

CREATE TRIGGER invoice_status_counts_update
AFTER UPDATE OF agency_id, client_id, status ON invoices
WHEN OLD.agency_id IS NOT NEW.agency_id OR OLD.client_id IS NOT NEW.client_id
  OR OLD.status IS NOT NEW.status
BEGIN
    UPDATE invoice_status_counts SET n = n - 1
        WHERE agency_id = OLD.agency_id AND status = OLD.status;
    UPDATE invoice_client_status_counts SET n = n - 1
        WHERE agency_id = OLD.agency_id AND client_id = OLD.client_id AND status = OLD.status;
    INSERT INTO invoice_status_counts (agency_id, status, n)
        VALUES (NEW.agency_id, NEW.status, 1)
        ON CONFLICT (agency_id, status) DO UPDATE SET n = n + 1;
    INSERT INTO invoice_client_status_counts (agency_id, client_id, status, n)
        SELECT NEW.agency_id, NEW.client_id, NEW.status, 1
        WHERE NEW.client_id IS NOT NULL
        ON CONFLICT (agency_id, client_id, status) DO UPDATE SET n = n + 1;
END;
