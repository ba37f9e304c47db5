-- How many invoices and credit notes each agency holds per status and
-- creation day, and the same per client. Triggers keep them in the
-- transaction of every write to `invoices`, so they are exact at every
-- moment: the invoice list reads its `total` from them (a sum over days
-- instead of counting up to a million rows) and seeks a far page by walking
-- the days from the newest (see store::invoices::list).
CREATE TABLE invoice_day_counts (
    agency_id   TEXT NOT NULL,
    status      TEXT NOT NULL,
    created_on  TEXT NOT NULL,
    n           INTEGER NOT NULL CHECK (n >= 0),
    PRIMARY KEY (agency_id, status, created_on)
) WITHOUT ROWID;

CREATE TABLE invoice_client_day_counts (
    agency_id   TEXT NOT NULL,
    client_id   TEXT NOT NULL,
    status      TEXT NOT NULL,
    created_on  TEXT NOT NULL,
    n           INTEGER NOT NULL CHECK (n >= 0),
    PRIMARY KEY (agency_id, client_id, status, created_on)
) WITHOUT ROWID;

INSERT INTO invoice_day_counts (agency_id, status, created_on, n)
    SELECT agency_id, status, created_on, COUNT(*) FROM invoices
    GROUP BY agency_id, status, created_on;

INSERT INTO invoice_client_day_counts (agency_id, client_id, status, created_on, n)
    SELECT agency_id, client_id, status, created_on, COUNT(*) FROM invoices
    WHERE client_id IS NOT NULL
    GROUP BY agency_id, client_id, status, created_on;

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
