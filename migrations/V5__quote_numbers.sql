-- Quote numbers (`DV-2026-00012`): one series per agency and year of
-- creation, given when the quote is created. `last_seq` is the last number
-- given; the first quote of a year in an agency starts after the highest
-- number of that year already present (quotes imported or seeded without a
-- counter row), and the next ones take last_seq + 1 in the same transaction.
CREATE TABLE quote_counters (
    agency_id  TEXT NOT NULL REFERENCES agencies(id),
    year       INTEGER NOT NULL,
    last_seq   INTEGER NOT NULL CHECK (last_seq >= 0),
    PRIMARY KEY (agency_id, year)
) WITHOUT ROWID;

-- A quote number is given once per agency.
CREATE UNIQUE INDEX quotes_number_per_agency ON quotes(agency_id, number) WHERE number IS NOT NULL;
