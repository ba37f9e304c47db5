-- Liftdesk schema: the whole domain of the interface specification.
-- Conventions: ids are UUID text (v7), timestamps are UTC ISO 8601 text
-- ("2026-11-21T07:23:00.000Z"), days are "YYYY-MM-DD", money is integer
-- cents, quantities are integer thousandths, VAT rates basis points.

-- Client organizations (the agencies' companies) and the service operator.
CREATE TABLE organizations (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL DEFAULT 'client' CHECK (kind IN ('client', 'operator')),
    created_at  TEXT NOT NULL
);
-- At most one service-operator organization.
CREATE UNIQUE INDEX organizations_one_operator ON organizations(kind) WHERE kind = 'operator';

CREATE TABLE agencies (
    id               TEXT PRIMARY KEY,
    organization_id  TEXT NOT NULL REFERENCES organizations(id),
    name             TEXT NOT NULL,
    -- Identifier of an agency carried over from version 1.
    v1_id            TEXT UNIQUE,
    -- Legal identity printed on invoices.
    siret            TEXT,
    address          TEXT,
    created_at       TEXT NOT NULL
);
CREATE INDEX agencies_by_organization ON agencies(organization_id);

CREATE TABLE accounts (
    id                TEXT PRIMARY KEY,
    organization_id   TEXT NOT NULL REFERENCES organizations(id),
    name              TEXT,
    email             TEXT NOT NULL UNIQUE COLLATE NOCASE,
    position          TEXT,
    active            INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    performs_surveys  INTEGER NOT NULL DEFAULT 0 CHECK (performs_surveys IN (0, 1)),
    password_hash     TEXT NOT NULL,
    default_agency_id TEXT REFERENCES agencies(id),
    -- org_admin works in every agency of its organization, present and future;
    -- operator is the service operator's service account.
    role              TEXT NOT NULL CHECK (role IN ('org_admin', 'agency_admin', 'member', 'operator')),
    password_changed_at TEXT NOT NULL,
    created_at        TEXT NOT NULL
);

-- Agencies an agency admin or a member works in (org admins need no rows).
CREATE TABLE account_agencies (
    account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    agency_id   TEXT NOT NULL REFERENCES agencies(id),
    PRIMARY KEY (account_id, agency_id)
) WITHOUT ROWID;
CREATE INDEX account_agencies_by_agency ON account_agencies(agency_id);

CREATE TABLE technicians (
    id               TEXT PRIMARY KEY,
    agency_id        TEXT NOT NULL REFERENCES agencies(id),
    account_id       TEXT UNIQUE REFERENCES accounts(id),
    name             TEXT NOT NULL,
    -- Comma-separated sectors, as GET /technicians exposes them.
    sectors          TEXT,
    phone            TEXT,
    -- Safety rest after a standby period (French law: 11 consecutive hours).
    rest_hours       INTEGER NOT NULL DEFAULT 11 CHECK (rest_hours >= 0),
    -- Daily visit load used when the planning is proposed.
    daily_capacity   INTEGER NOT NULL DEFAULT 6 CHECK (daily_capacity > 0),
    active           INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at       TEXT NOT NULL
);
CREATE INDEX technicians_by_agency ON technicians(agency_id);

-- Standby duty ("astreinte") periods.
CREATE TABLE technician_on_call (
    id             TEXT PRIMARY KEY,
    technician_id  TEXT NOT NULL REFERENCES technicians(id) ON DELETE CASCADE,
    starts_at      TEXT NOT NULL,
    ends_at        TEXT NOT NULL,
    CHECK (ends_at > starts_at)
);
CREATE INDEX technician_on_call_by_technician ON technician_on_call(technician_id, ends_at);

CREATE TABLE technician_absences (
    id             TEXT PRIMARY KEY,
    technician_id  TEXT NOT NULL REFERENCES technicians(id) ON DELETE CASCADE,
    starts_on      TEXT NOT NULL,
    ends_on        TEXT NOT NULL,
    reason         TEXT,
    CHECK (ends_on >= starts_on)
);
CREATE INDEX technician_absences_by_technician ON technician_absences(technician_id, ends_on);

-- Clients of an agency (partner workflow API's client record).
CREATE TABLE clients (
    id                  TEXT PRIMARY KEY,
    agency_id           TEXT NOT NULL REFERENCES agencies(id),
    -- The partner's unique client identifier (`client_id` on the wire).
    client_ref          TEXT NOT NULL,
    nom                 TEXT NOT NULL,
    statut              TEXT NOT NULL DEFAULT 'Client' CHECK (statut IN ('Prospect', 'Client')),
    -- JSON array of categories: "Propriétaire/exploitant", "Gestionnaire".
    types               TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(types) AND json_type(types) = 'array'),
    email               TEXT,
    telephone           TEXT,
    adresse             TEXT,
    complement_adresse  TEXT,
    siren               TEXT CHECK (siren IS NULL OR (length(siren) = 9 AND siren NOT GLOB '*[^0-9]*')),
    siret               TEXT CHECK (siret IS NULL OR (length(siret) = 14 AND siret NOT GLOB '*[^0-9]*')),
    supprime            INTEGER NOT NULL DEFAULT 0 CHECK (supprime IN (0, 1)),
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL,
    UNIQUE (agency_id, client_ref)
);
CREATE INDEX clients_by_name ON clients(agency_id, nom COLLATE NOCASE);
CREATE INDEX clients_by_siren ON clients(agency_id, siren);

CREATE TABLE contacts (
    id          TEXT PRIMARY KEY,
    client_id   TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
    nom         TEXT NOT NULL,
    email       TEXT,
    telephone   TEXT,
    fonction    TEXT,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX contacts_by_client ON contacts(client_id);

CREATE TABLE buildings (
    id                    TEXT PRIMARY KEY,
    agency_id             TEXT NOT NULL REFERENCES agencies(id),
    client_id             TEXT REFERENCES clients(id),
    name                  TEXT,
    address               TEXT NOT NULL,
    address_complement    TEXT,
    postal_code           TEXT,
    city                  TEXT,
    -- JSON array among "Sans", "Digicode", "Coffre à clé", "Vigik", "Autre".
    access_instructions   TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(access_instructions) AND json_type(access_instructions) = 'array'),
    access_other          TEXT,
    digicode              TEXT,
    key_box               TEXT,
    created_at            TEXT NOT NULL,
    updated_at            TEXT NOT NULL
);
CREATE INDEX buildings_by_agency ON buildings(agency_id);

CREATE TABLE equipment (
    id                    TEXT PRIMARY KEY,
    agency_id             TEXT NOT NULL REFERENCES agencies(id),
    building_id           TEXT REFERENCES buildings(id),
    client_id             TEXT REFERENCES clients(id),
    number                TEXT,
    -- Number with spaces removed and lower-cased: the call-center API matches on it.
    number_key            TEXT GENERATED ALWAYS AS (lower(replace(replace(number, ' ', ''), char(9), ''))) STORED,
    serial_number         TEXT,
    type                  TEXT,
    subtype               TEXT,
    location              TEXT,
    maintenance_contract  TEXT CHECK (maintenance_contract IS NULL OR maintenance_contract IN ('parc', 'hors_parc')),
    contract_number       TEXT,
    external_id           TEXT,
    -- Maintenance plan: days between two visits (French rule: at most six weeks).
    visit_interval_days   INTEGER NOT NULL DEFAULT 42 CHECK (visit_interval_days > 0),
    plan_start_on         TEXT,
    created_at            TEXT NOT NULL,
    updated_at            TEXT NOT NULL
);
CREATE UNIQUE INDEX equipment_number_per_agency ON equipment(agency_id, number_key) WHERE number_key IS NOT NULL;
CREATE INDEX equipment_by_external_id ON equipment(agency_id, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX equipment_by_building ON equipment(building_id);
CREATE INDEX equipment_by_client ON equipment(client_id);

-- Catalog of technical data (filled by V2).
CREATE TABLE technical_fields (
    code        TEXT PRIMARY KEY,
    label       TEXT NOT NULL,
    unit        TEXT,
    -- NULL for the equipment itself, else a component key (car_door, machine, ...).
    component   TEXT,
    value_type  TEXT NOT NULL CHECK (value_type IN ('text', 'number', 'integer', 'boolean', 'choice', 'multi')),
    -- JSON array of allowed values for choice/multi.
    choices     TEXT CHECK (choices IS NULL OR (json_valid(choices) AND json_type(choices) = 'array')),
    -- Space-separated search words ("charge" finds the rated load).
    synonyms    TEXT NOT NULL DEFAULT '',
    v1_table    TEXT NOT NULL,
    v1_field    TEXT NOT NULL,
    -- Name of the field in the partner workflow API, when it has one.
    partner_key TEXT UNIQUE,
    -- Comma-separated equipment types the field applies to; NULL = every type.
    applies_to  TEXT,
    position    INTEGER NOT NULL
);

-- Current surveyed value of each technical datum of an equipment.
CREATE TABLE equipment_values (
    equipment_id  TEXT NOT NULL REFERENCES equipment(id) ON DELETE CASCADE,
    field_code    TEXT NOT NULL REFERENCES technical_fields(code),
    -- JSON value (string, number, boolean or array).
    value         TEXT NOT NULL CHECK (json_valid(value)),
    -- The survey that recorded it; kept as NULL if that survey is ever removed.
    survey_id     TEXT REFERENCES surveys(id) ON DELETE SET NULL,
    surveyed_at   TEXT NOT NULL,
    PRIMARY KEY (equipment_id, field_code)
) WITHOUT ROWID;

-- Deals ("affaires") opened by the partner workflow API.
CREATE TABLE deals (
    id                       TEXT PRIMARY KEY,
    agency_id                TEXT NOT NULL REFERENCES agencies(id),
    type_affaire             TEXT CHECK (type_affaire IS NULL OR type_affaire IN (
        'Contrat', 'Réparation', 'Modernisation pour devis', 'Remplacement complet pour devis',
        'Modernisation pour commande', 'Remplacement complet pour commande')),
    -- JSON array among "Prise en mains", "Essais", "Base parc".
    types_etat_des_lieux     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(types_etat_des_lieux) AND json_type(types_etat_des_lieux) = 'array'),
    category                 TEXT NOT NULL DEFAULT 'Ouverte' CHECK (category IN (
        'Ouverte', 'En attente', 'En retard', 'Gagnée', 'Perdue', 'Annulée', 'Fermée')),
    external_opportunity_id  TEXT,
    requester_email          TEXT,
    surveyor_account_id      TEXT REFERENCES accounts(id),
    client_id                TEXT REFERENCES clients(id),
    created_at               TEXT NOT NULL,
    updated_at               TEXT NOT NULL
);
CREATE UNIQUE INDEX deals_by_external_id ON deals(agency_id, external_opportunity_id) WHERE external_opportunity_id IS NOT NULL;
CREATE INDEX deals_by_created ON deals(agency_id, created_at);

CREATE TABLE surveys (
    id                   TEXT PRIMARY KEY,
    agency_id            TEXT NOT NULL REFERENCES agencies(id),
    equipment_id         TEXT NOT NULL REFERENCES equipment(id),
    number               TEXT,
    status               TEXT NOT NULL DEFAULT 'a_realiser' CHECK (status IN ('a_realiser', 'en_cours', 'termine', 'annule')),
    reason               TEXT,
    surveyor_account_id  TEXT REFERENCES accounts(id),
    due_on               TEXT,
    surveyed_on          TEXT,
    photo_count          INTEGER NOT NULL DEFAULT 0 CHECK (photo_count >= 0),
    submitted_at         TEXT,
    created_at           TEXT NOT NULL,
    updated_at           TEXT NOT NULL
);
CREATE INDEX surveys_by_agency ON surveys(agency_id, created_at, id);
CREATE INDEX surveys_by_number ON surveys(agency_id, number);
CREATE INDEX surveys_by_equipment ON surveys(equipment_id);

CREATE TABLE survey_deals (
    survey_id  TEXT NOT NULL REFERENCES surveys(id) ON DELETE CASCADE,
    deal_id    TEXT NOT NULL REFERENCES deals(id),
    PRIMARY KEY (survey_id, deal_id)
) WITHOUT ROWID;

-- Data collected by a survey, copied to equipment_values on submission.
CREATE TABLE survey_values (
    survey_id   TEXT NOT NULL REFERENCES surveys(id) ON DELETE CASCADE,
    field_code  TEXT NOT NULL REFERENCES technical_fields(code),
    value       TEXT NOT NULL CHECK (json_valid(value)),
    PRIMARY KEY (survey_id, field_code)
) WITHOUT ROWID;

CREATE TABLE discrepancies (
    id            TEXT PRIMARY KEY,
    agency_id     TEXT NOT NULL REFERENCES agencies(id),
    equipment_id  TEXT NOT NULL REFERENCES equipment(id),
    survey_id     TEXT NOT NULL REFERENCES surveys(id),
    component     TEXT,
    finding       TEXT NOT NULL,
    created_by    TEXT REFERENCES accounts(id),
    created_at    TEXT NOT NULL
);
CREATE INDEX discrepancies_by_survey ON discrepancies(survey_id);

CREATE TABLE visits (
    id             TEXT PRIMARY KEY,
    agency_id      TEXT NOT NULL REFERENCES agencies(id),
    equipment_id   TEXT NOT NULL REFERENCES equipment(id),
    technician_id  TEXT REFERENCES technicians(id),
    planned_for    TEXT NOT NULL,
    -- Limit date from the maintenance plan when the visit was planned.
    deadline       TEXT,
    status         TEXT NOT NULL DEFAULT 'planifiee' CHECK (status IN ('planifiee', 'en_cours', 'faite')),
    arrived_at     TEXT,
    left_at        TEXT,
    done_on        TEXT,
    signed_by      TEXT,
    observations   TEXT,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);
CREATE INDEX visits_by_day ON visits(agency_id, planned_for);
CREATE INDEX visits_by_done_day ON visits(agency_id, done_on) WHERE done_on IS NOT NULL;
CREATE INDEX visits_by_equipment ON visits(equipment_id, status);
CREATE INDEX visits_by_technician ON visits(technician_id, planned_for);

CREATE TABLE call_centers (
    id          TEXT PRIMARY KEY,
    agency_id   TEXT NOT NULL REFERENCES agencies(id),
    name        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    UNIQUE (agency_id, name)
);

-- Credentials: only SHA-256 fingerprints of the secrets are kept.
CREATE TABLE credentials (
    id              TEXT PRIMARY KEY,
    kind            TEXT NOT NULL CHECK (kind IN ('api_token', 'call_center_key', 'partner_key')),
    name            TEXT NOT NULL,
    fingerprint     TEXT NOT NULL UNIQUE,
    -- Owner of an API token.
    account_id      TEXT REFERENCES accounts(id),
    -- Agency and center of a call-center key.
    agency_id       TEXT REFERENCES agencies(id),
    call_center_id  TEXT REFERENCES call_centers(id),
    created_by      TEXT REFERENCES accounts(id),
    created_at      TEXT NOT NULL,
    last_used_at    TEXT,
    revoked_at      TEXT,
    CHECK (kind <> 'api_token' OR account_id IS NOT NULL),
    CHECK (kind <> 'call_center_key' OR (agency_id IS NOT NULL AND call_center_id IS NOT NULL))
);
CREATE INDEX credentials_by_account ON credentials(account_id);
CREATE INDEX credentials_by_agency ON credentials(agency_id);

-- Agencies attributed to a partner key.
CREATE TABLE partner_key_agencies (
    credential_id  TEXT NOT NULL REFERENCES credentials(id),
    agency_id      TEXT NOT NULL REFERENCES agencies(id),
    PRIMARY KEY (credential_id, agency_id)
) WITHOUT ROWID;

CREATE TABLE calls (
    id               TEXT PRIMARY KEY,
    agency_id        TEXT NOT NULL REFERENCES agencies(id),
    -- NULL for a call taken by hand at the agency.
    call_center_id   TEXT REFERENCES call_centers(id),
    -- Key that opened the call; kept after the key is revoked.
    credential_id    TEXT REFERENCES credentials(id),
    reference        TEXT NOT NULL,
    equipment_id     TEXT NOT NULL REFERENCES equipment(id),
    type             TEXT NOT NULL CHECK (type IN ('personne_bloquee', 'panne', 'vandalisme', 'bruit')),
    description      TEXT NOT NULL,
    caller           TEXT,
    received_at      TEXT NOT NULL,
    status           TEXT NOT NULL DEFAULT 'ouverte' CHECK (status IN ('ouverte', 'en_route', 'sur_place', 'a_l_arret', 'resolue')),
    technician_id    TEXT REFERENCES technicians(id),
    assigned_at      TEXT,
    en_route_at      TEXT,
    arrived_at       TEXT,
    stopped_at       TEXT,
    resolved_at      TEXT,
    created_by       TEXT REFERENCES accounts(id),
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);
-- A center's reference opens one call only, even under concurrent requests.
CREATE UNIQUE INDEX calls_reference_per_center ON calls(call_center_id, reference) WHERE call_center_id IS NOT NULL;
CREATE INDEX calls_by_status ON calls(agency_id, status, received_at);
CREATE INDEX calls_by_technician ON calls(technician_id, status);
CREATE INDEX calls_by_equipment ON calls(equipment_id, received_at);

CREATE TABLE quotes (
    id             TEXT PRIMARY KEY,
    agency_id      TEXT NOT NULL REFERENCES agencies(id),
    equipment_id   TEXT NOT NULL REFERENCES equipment(id),
    number         TEXT,
    origin         TEXT NOT NULL CHECK (origin IN ('reserve', 'panne', 'technicien', 'client')),
    object         TEXT NOT NULL,
    status         TEXT NOT NULL DEFAULT 'brouillon' CHECK (status IN ('brouillon', 'envoye', 'accepte', 'refuse')),
    created_by     TEXT REFERENCES accounts(id),
    sent_at        TEXT,
    accepted_at    TEXT,
    refused_at     TEXT,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);
CREATE INDEX quotes_by_agency ON quotes(agency_id, created_at);
CREATE INDEX quotes_by_equipment ON quotes(equipment_id);

CREATE TABLE quote_rows (
    id                TEXT PRIMARY KEY,
    quote_id          TEXT NOT NULL REFERENCES quotes(id) ON DELETE CASCADE,
    position          INTEGER NOT NULL,
    label             TEXT NOT NULL,
    quantity_milli    INTEGER NOT NULL CHECK (quantity_milli >= 0),
    unit_price_cents  INTEGER NOT NULL CHECK (unit_price_cents >= 0),
    vat_rate_bp       INTEGER NOT NULL DEFAULT 2000 CHECK (vat_rate_bp >= 0),
    UNIQUE (quote_id, position)
);

CREATE TABLE invoices (
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
    CHECK ((status = 'brouillon') = (number IS NULL)),
    -- The number is exactly its nature's prefix, year and sequence.
    CHECK (number IS NULL OR number = (CASE nature WHEN 'facture' THEN 'FA' ELSE 'AV' END)
                                      || '-' || number_year || '-' || printf('%06d', number_seq)),
    CHECK (nature = 'avoir' OR credited_invoice_id IS NULL),
    UNIQUE (agency_id, nature, number_year, number_seq)
);
CREATE UNIQUE INDEX invoices_number_per_agency ON invoices(agency_id, number) WHERE number IS NOT NULL;
CREATE INDEX invoices_by_created ON invoices(agency_id, created_on, id);
CREATE INDEX invoices_by_status ON invoices(agency_id, status, created_on, id);
CREATE INDEX invoices_by_client ON invoices(agency_id, client_id, created_on, id);
CREATE INDEX invoices_credit_notes ON invoices(credited_invoice_id) WHERE credited_invoice_id IS NOT NULL;

-- Credit notes carry positive amounts: their nature says they are owed back.
-- A negative unit price is a discount line.
CREATE TABLE invoice_lines (
    id                TEXT PRIMARY KEY,
    invoice_id        TEXT NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
    position          INTEGER NOT NULL,
    label             TEXT NOT NULL,
    quantity_milli    INTEGER NOT NULL CHECK (quantity_milli >= 0),
    unit_price_cents  INTEGER NOT NULL,
    vat_rate_bp       INTEGER NOT NULL DEFAULT 2000 CHECK (vat_rate_bp >= 0),
    UNIQUE (invoice_id, position)
);

-- Last number given per agency, year and nature: issuing takes the next one
-- in the same transaction, so the sequence has no gap.
CREATE TABLE invoice_counters (
    agency_id  TEXT NOT NULL REFERENCES agencies(id),
    nature     TEXT NOT NULL CHECK (nature IN ('facture', 'avoir')),
    year       INTEGER NOT NULL,
    last_seq   INTEGER NOT NULL,
    PRIMARY KEY (agency_id, nature, year)
) WITHOUT ROWID;

-- Uploaded spreadsheets waiting for verification and import.
CREATE TABLE import_files (
    id          TEXT PRIMARY KEY,
    agency_id   TEXT NOT NULL REFERENCES agencies(id),
    name        TEXT NOT NULL,
    content     BLOB NOT NULL,
    columns     TEXT NOT NULL,
    row_count   INTEGER NOT NULL,
    created_by  TEXT REFERENCES accounts(id),
    created_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL
);
CREATE INDEX import_files_by_expiry ON import_files(expires_at);

CREATE TABLE webhook_subscriptions (
    id          TEXT PRIMARY KEY,
    agency_id   TEXT NOT NULL REFERENCES agencies(id),
    url         TEXT NOT NULL,
    -- JSON array of event names.
    events      TEXT NOT NULL CHECK (json_valid(events) AND json_type(events) = 'array'),
    -- Signing secret, encrypted with the data directory's key.
    secret_enc  BLOB NOT NULL,
    created_by  TEXT REFERENCES accounts(id),
    created_at  TEXT NOT NULL,
    revoked_at  TEXT
);
CREATE INDEX webhook_subscriptions_by_agency ON webhook_subscriptions(agency_id);

-- The outbox: an event is written in the same transaction as its change.
CREATE TABLE outbox_events (
    id            TEXT PRIMARY KEY,
    agency_id     TEXT NOT NULL REFERENCES agencies(id),
    event         TEXT NOT NULL,
    object_id     TEXT NOT NULL,
    equipment_id  TEXT,
    status        TEXT,
    occurred_at   TEXT NOT NULL,
    -- Exact bytes sent to every subscriber, fixed at commit time.
    body          TEXT NOT NULL
);
CREATE INDEX outbox_events_by_object ON outbox_events(object_id);

CREATE TABLE webhook_deliveries (
    id               TEXT PRIMARY KEY,
    event_id         TEXT NOT NULL REFERENCES outbox_events(id),
    subscription_id  TEXT NOT NULL REFERENCES webhook_subscriptions(id),
    status           TEXT NOT NULL DEFAULT 'en_attente' CHECK (status IN ('en_attente', 'livree', 'echec', 'abandonnee')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  TEXT,
    last_http_status INTEGER,
    last_error       TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    delivered_at     TEXT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
CREATE INDEX webhook_deliveries_by_subscription ON webhook_deliveries(subscription_id, created_at);

-- Staff web-UI sessions (the cookie's secret kept as a fingerprint; the CSRF
-- token is derived from that secret, so nothing more is stored).
CREATE TABLE sessions (
    id                TEXT PRIMARY KEY,
    account_id        TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    fingerprint       TEXT NOT NULL UNIQUE,
    agency_id         TEXT REFERENCES agencies(id),
    created_at        TEXT NOT NULL,
    last_seen_at      TEXT NOT NULL,
    expires_at        TEXT NOT NULL,
    revoked_at        TEXT
);
CREATE INDEX sessions_by_account ON sessions(account_id);

-- Single-use equipment-sheet tokens (/generate_token).
CREATE TABLE sheet_tokens (
    id            TEXT PRIMARY KEY,
    agency_id     TEXT NOT NULL REFERENCES agencies(id),
    equipment_id  TEXT NOT NULL REFERENCES equipment(id),
    credential_id TEXT REFERENCES credentials(id),
    created_at    TEXT NOT NULL,
    expires_at    TEXT NOT NULL,
    used_at       TEXT
);

-- Who changed what.
CREATE TABLE audit_log (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    at           TEXT NOT NULL,
    agency_id    TEXT,
    actor_kind   TEXT NOT NULL CHECK (actor_kind IN ('account', 'api_token', 'call_center_key', 'partner_key', 'cli', 'system')),
    actor_id     TEXT,
    action       TEXT NOT NULL,
    object_type  TEXT NOT NULL,
    object_id    TEXT,
    detail       TEXT CHECK (detail IS NULL OR json_valid(detail))
);
CREATE INDEX audit_log_by_object ON audit_log(object_type, object_id);
CREATE INDEX audit_log_by_agency ON audit_log(agency_id, at);
