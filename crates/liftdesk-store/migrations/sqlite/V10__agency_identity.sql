-- The agency's identity as a seller, printed on its quotes, invoices and
-- credit notes. Each change is a new version: an issued invoice keeps the
-- version it was issued under (`invoices.seller_identity_id`), so reprinting
-- it later shows the seller as it was; `agencies.identity_id` is the
-- current version. The logo is a row of its own, shared by the versions
-- that keep it.
CREATE TABLE agency_logos (
    id          TEXT PRIMARY KEY,
    agency_id   TEXT NOT NULL REFERENCES agencies(id),
    media_type  TEXT NOT NULL CHECK (media_type IN ('image/png', 'image/jpeg')),
    bytes       BLOB NOT NULL,
    width       INTEGER NOT NULL CHECK (width > 0),
    height      INTEGER NOT NULL CHECK (height > 0),
    created_at  TEXT NOT NULL
);
CREATE INDEX agency_logos_by_agency ON agency_logos(agency_id);

CREATE TABLE agency_identities (
    id                   TEXT PRIMARY KEY,
    agency_id            TEXT NOT NULL REFERENCES agencies(id),
    legal_name           TEXT,
    legal_form           TEXT,
    share_capital_cents  INTEGER CHECK (share_capital_cents IS NULL OR share_capital_cents >= 0),
    rcs_city             TEXT,
    siret                TEXT,
    vat_number           TEXT,
    head_office_address  TEXT,
    address              TEXT,
    phone                TEXT,
    email                TEXT,
    iban                 TEXT,
    bic                  TEXT,
    insurer              TEXT,
    insurance_policy     TEXT,
    insurance_area       TEXT,
    vat_on_debits        INTEGER NOT NULL DEFAULT 0 CHECK (vat_on_debits IN (0, 1)),
    logo_id              TEXT REFERENCES agency_logos(id),
    created_at           TEXT NOT NULL
);
CREATE INDEX agency_identities_by_agency ON agency_identities(agency_id, created_at);

ALTER TABLE agencies ADD COLUMN identity_id TEXT REFERENCES agency_identities(id);
ALTER TABLE invoices ADD COLUMN seller_identity_id TEXT REFERENCES agency_identities(id);

-- The SIRET and address recorded before (the demo's, or an agency carried
-- over from version 1) become each agency's first version.
INSERT INTO agency_identities (id, agency_id, siret, address, created_at)
    SELECT 'identite-' || id, id, siret, address, created_at
    FROM agencies WHERE siret IS NOT NULL OR address IS NOT NULL;
UPDATE agencies SET identity_id = 'identite-' || id
    WHERE siret IS NOT NULL OR address IS NOT NULL;

ALTER TABLE agencies DROP COLUMN siret;
ALTER TABLE agencies DROP COLUMN address;
