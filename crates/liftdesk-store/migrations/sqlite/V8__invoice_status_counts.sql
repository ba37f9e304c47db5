-- How many invoices and credit notes each agency holds per status, and the
-- same per client, kept by triggers in the transaction of every write to
-- `invoices` (as V4's day counters are): the invoice list's `total` without
-- a date filter reads one row per status instead of summing every day's
-- counter (four years of days for the busiest agency). V4's day counters
-- stay for `since`/`until` and for seeking far pages.
CREATE TABLE invoice_status_counts (
    agency_id  TEXT NOT NULL,
    status     TEXT NOT NULL,
    n          INTEGER NOT NULL CHECK (n >= 0),
    PRIMARY KEY (agency_id, status)
) WITHOUT ROWID;

CREATE TABLE invoice_client_status_counts (
    agency_id  TEXT NOT NULL,
    client_id  TEXT NOT NULL,
    status     TEXT NOT NULL,
    n          INTEGER NOT NULL CHECK (n >= 0),
    PRIMARY KEY (agency_id, client_id, status)
) WITHOUT ROWID;

INSERT INTO invoice_status_counts (agency_id, status, n)
    SELECT agency_id, status, SUM(n) FROM invoice_day_counts
    GROUP BY agency_id, status;

INSERT INTO invoice_client_status_counts (agency_id, client_id, status, n)
    SELECT agency_id, client_id, status, SUM(n) FROM invoice_client_day_counts
    GROUP BY agency_id, client_id, status;

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
