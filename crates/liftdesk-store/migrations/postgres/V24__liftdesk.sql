-- The whole PostgreSQL schema of Liftdesk at version 24: the same tables,
-- columns, constraints, indexes and counters as the SQLite schema that
-- `migrations/sqlite/V1…V24` build (tests/it/schemas.rs compares them).
-- Every later version is written in both trees, under the same number.
--
-- How SQLite's types and rules are written here:
-- - INTEGER is BIGINT (SQLite's integers are 64-bit), REAL is DOUBLE
--   PRECISION, BLOB is BYTEA; booleans stay integers 0/1, days and instants
--   text, as the store reads and writes them on both engines;
-- - every text column is COLLATE "C": compared and ordered byte by byte as
--   SQLite's BINARY does, whatever the database's own locale; SQLite's
--   NOCASE is `liftdesk_nocase` (case ignored, accents not);
-- - an index orders NULL as SQLite does (first going up, last going down),
--   as the store's rewritten ORDER BY asks (src/dialect.rs);
-- - the functions and operator below are SQLite's that the store's SQL and
--   these checks use, with SQLite's meaning: `fold` (the French folding of
--   liftdesk_domain::text::fold), `#~#` (GLOB), `json_valid`, `json_type`,
--   `julianday`, `liftdesk_json_each` (json_each of an array);
-- - triggers are PL/pgSQL functions doing what SQLite's trigger bodies do.

CREATE COLLATION IF NOT EXISTS liftdesk_nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);

-- liftdesk_domain::text::fold: lower case (every letter, as Rust's
-- to_lowercase), accents off, œ and æ spelled out.
CREATE FUNCTION fold(t TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN replace(replace(translate(lower(t COLLATE "und-x-icu"),
    'àáâãäåçèéêëìíîïñòóôõöùúûüýÿ', 'aaaaaaceeeeiiiinooooouuuuyy'), 'œ', 'oe'), 'æ', 'ae') COLLATE "C";

CREATE FUNCTION fold(n BIGINT) RETURNS TEXT
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN n::text COLLATE "C";

-- SQLite's GLOB: `*`, `?`, `[…]` (with `^` for "not"), case sensitive,
-- the whole text.
CREATE FUNCTION liftdesk_glob(t TEXT, pattern TEXT) RETURNS BOOLEAN
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    re TEXT := '^';
    i INT := 1;
    c TEXT;
    in_class BOOLEAN := false;
BEGIN
    WHILE i <= length(pattern) LOOP
        c := substr(pattern, i, 1);
        IF in_class THEN
            IF c = ']' THEN
                in_class := false;
                re := re || ']';
            ELSIF c = '\' THEN
                re := re || '\\';
            ELSE
                re := re || c;
            END IF;
        ELSIF c = '*' THEN
            re := re || '.*';
        ELSIF c = '?' THEN
            re := re || '.';
        ELSIF c = '[' THEN
            in_class := true;
            re := re || '[';
            IF substr(pattern, i + 1, 1) = '^' THEN
                re := re || '^';
                i := i + 1;
            END IF;
        ELSE
            re := re || regexp_replace(c, '([.^$+(){}|\\\[\]])', '\\\1', 'g');
        END IF;
        i := i + 1;
    END LOOP;
    RETURN t ~ (re || '$');
END;
$$;

CREATE FUNCTION liftdesk_not_glob(t TEXT, pattern TEXT) RETURNS BOOLEAN
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN NOT liftdesk_glob(t, pattern);

CREATE OPERATOR #~# (LEFTARG = TEXT, RIGHTARG = TEXT, FUNCTION = liftdesk_glob);
CREATE OPERATOR !#~# (LEFTARG = TEXT, RIGHTARG = TEXT, FUNCTION = liftdesk_not_glob);

CREATE FUNCTION json_valid(t TEXT) RETURNS BOOLEAN
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    IF t IS NULL THEN
        RETURN NULL;
    END IF;
    PERFORM t::jsonb;
    RETURN true;
EXCEPTION WHEN others THEN
    RETURN false;
END;
$$;

CREATE FUNCTION json_type(t TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN jsonb_typeof(t::jsonb);

-- SUM of a comparison: SQLite's comparisons are the integers 0 and 1 (and
-- its SUM skips NULL, and is NULL over no value).
CREATE FUNCTION liftdesk_add_boolean(total BIGINT, value BOOLEAN) RETURNS BIGINT
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN value IS NULL THEN total ELSE COALESCE(total, 0) + value::int END;

CREATE AGGREGATE sum(BOOLEAN) (SFUNC = liftdesk_add_boolean, STYPE = BIGINT);

-- SQLite's julianday of a day or an instant (read in UTC).
CREATE FUNCTION julianday(t TEXT) RETURNS DOUBLE PRECISION
LANGUAGE sql STABLE STRICT PARALLEL SAFE
RETURN extract(epoch FROM (t::timestamptz)) / 86400.0 + 2440587.5;

-- The values of a JSON array, as SQLite's json_each(array) gives them in
-- its `value` column.
CREATE FUNCTION liftdesk_json_each(t TEXT) RETURNS TABLE (value TEXT)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT jsonb_array_elements_text(t::jsonb) $$;

CREATE TABLE organizations (
    id          TEXT COLLATE "C" PRIMARY KEY,
    name        TEXT COLLATE "C" NOT NULL,
    kind        TEXT COLLATE "C" NOT NULL DEFAULT 'client' CHECK (kind IN ('client', 'operator')),
    created_at  TEXT COLLATE "C" NOT NULL
);

CREATE TABLE technical_fields (
    code        TEXT COLLATE "C" PRIMARY KEY,
    label       TEXT COLLATE "C" NOT NULL,
    unit        TEXT COLLATE "C",
    
    component   TEXT COLLATE "C",
    value_type  TEXT COLLATE "C" NOT NULL CHECK (value_type IN ('text', 'number', 'integer', 'boolean', 'choice', 'multi')),
    
    choices     TEXT COLLATE "C" CHECK (choices IS NULL OR (json_valid(choices) AND json_type(choices) = 'array')),
    
    synonyms    TEXT COLLATE "C" NOT NULL DEFAULT '',
    v1_table    TEXT COLLATE "C" NOT NULL,
    v1_field    TEXT COLLATE "C" NOT NULL,
    
    partner_key TEXT COLLATE "C" UNIQUE,
    
    applies_to  TEXT COLLATE "C",
    position    BIGINT NOT NULL
);

CREATE TABLE invoice_day_counts (
    agency_id   TEXT COLLATE "C" NOT NULL,
    status      TEXT COLLATE "C" NOT NULL,
    created_on  TEXT COLLATE "C" NOT NULL,
    n           BIGINT NOT NULL CHECK (n >= 0),
    PRIMARY KEY (agency_id, status, created_on)
);

CREATE TABLE invoice_client_day_counts (
    agency_id   TEXT COLLATE "C" NOT NULL,
    client_id   TEXT COLLATE "C" NOT NULL,
    status      TEXT COLLATE "C" NOT NULL,
    created_on  TEXT COLLATE "C" NOT NULL,
    n           BIGINT NOT NULL CHECK (n >= 0),
    PRIMARY KEY (agency_id, client_id, status, created_on)
);

CREATE TABLE installation (
    
    id               BIGINT PRIMARY KEY CHECK (id = 1),
    organization_id  TEXT COLLATE "C" NOT NULL REFERENCES organizations(id)
);

CREATE TABLE invoice_status_counts (
    agency_id  TEXT COLLATE "C" NOT NULL,
    status     TEXT COLLATE "C" NOT NULL,
    n          BIGINT NOT NULL CHECK (n >= 0),
    PRIMARY KEY (agency_id, status)
);

CREATE TABLE invoice_client_status_counts (
    agency_id  TEXT COLLATE "C" NOT NULL,
    client_id  TEXT COLLATE "C" NOT NULL,
    status     TEXT COLLATE "C" NOT NULL,
    n          BIGINT NOT NULL CHECK (n >= 0),
    PRIMARY KEY (agency_id, client_id, status)
);

CREATE TABLE "audit_log" (
    seq          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    at           TEXT COLLATE "C" NOT NULL,
    agency_id    TEXT COLLATE "C",
    actor_kind   TEXT COLLATE "C" NOT NULL CHECK (actor_kind IN ('account', 'api_token', 'call_center_key', 'partner_key', 'cli', 'system')),
    actor_id     TEXT COLLATE "C",
    action       TEXT COLLATE "C" NOT NULL,
    object_type  TEXT COLLATE "C" NOT NULL,
    object_id    TEXT COLLATE "C",
    detail       TEXT COLLATE "C" CHECK (detail IS NULL OR json_valid(detail))
);

CREATE TABLE agencies (
    id               TEXT COLLATE "C" PRIMARY KEY,
    organization_id  TEXT COLLATE "C" NOT NULL REFERENCES organizations(id),
    name             TEXT COLLATE "C" NOT NULL,
    
    v1_id            TEXT COLLATE "C" UNIQUE,
    
    created_at       TEXT COLLATE "C" NOT NULL
, identity_id TEXT COLLATE "C", archived_at TEXT COLLATE "C");

CREATE TABLE accounts (
    id                TEXT COLLATE "C" PRIMARY KEY,
    organization_id   TEXT COLLATE "C" NOT NULL REFERENCES organizations(id),
    name              TEXT COLLATE "C",
    email             TEXT COLLATE liftdesk_nocase NOT NULL UNIQUE,
    position          TEXT COLLATE "C",
    active            BIGINT NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    performs_surveys  BIGINT NOT NULL DEFAULT 0 CHECK (performs_surveys IN (0, 1)),
    password_hash     TEXT COLLATE "C" NOT NULL,
    default_agency_id TEXT COLLATE "C" REFERENCES agencies(id),
    
    
    role              TEXT COLLATE "C" NOT NULL CHECK (role IN ('org_admin', 'agency_admin', 'member', 'operator')),
    password_changed_at TEXT COLLATE "C" NOT NULL,
    created_at        TEXT COLLATE "C" NOT NULL
, must_change_password BIGINT NOT NULL DEFAULT 0
    CHECK (must_change_password IN (0, 1)));

CREATE TABLE account_agencies (
    account_id  TEXT COLLATE "C" NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    agency_id   TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    PRIMARY KEY (account_id, agency_id)
);

CREATE TABLE technicians (
    id               TEXT COLLATE "C" PRIMARY KEY,
    agency_id        TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    account_id       TEXT COLLATE "C" UNIQUE REFERENCES accounts(id),
    name             TEXT COLLATE "C" NOT NULL,
    
    sectors          TEXT COLLATE "C",
    phone            TEXT COLLATE "C",
    
    rest_hours       BIGINT NOT NULL DEFAULT 11 CHECK (rest_hours >= 0),
    
    daily_capacity   BIGINT NOT NULL DEFAULT 6 CHECK (daily_capacity > 0),
    active           BIGINT NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at       TEXT COLLATE "C" NOT NULL
);

CREATE TABLE technician_on_call (
    id             TEXT COLLATE "C" PRIMARY KEY,
    technician_id  TEXT COLLATE "C" NOT NULL REFERENCES technicians(id) ON DELETE CASCADE,
    starts_at      TEXT COLLATE "C" NOT NULL,
    ends_at        TEXT COLLATE "C" NOT NULL,
    CHECK (ends_at > starts_at)
);

CREATE TABLE technician_absences (
    id             TEXT COLLATE "C" PRIMARY KEY,
    technician_id  TEXT COLLATE "C" NOT NULL REFERENCES technicians(id) ON DELETE CASCADE,
    starts_on      TEXT COLLATE "C" NOT NULL,
    ends_on        TEXT COLLATE "C" NOT NULL,
    reason         TEXT COLLATE "C",
    CHECK (ends_on >= starts_on)
);

CREATE TABLE clients (
    id                  TEXT COLLATE "C" PRIMARY KEY,
    agency_id           TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    
    client_ref          TEXT COLLATE "C" NOT NULL,
    nom                 TEXT COLLATE "C" NOT NULL,
    statut              TEXT COLLATE "C" NOT NULL DEFAULT 'Client' CHECK (statut IN ('Prospect', 'Client')),
    
    types               TEXT COLLATE "C" NOT NULL DEFAULT '[]' CHECK (json_valid(types) AND json_type(types) = 'array'),
    email               TEXT COLLATE "C",
    telephone           TEXT COLLATE "C",
    adresse             TEXT COLLATE "C",
    complement_adresse  TEXT COLLATE "C",
    siren               TEXT COLLATE "C" CHECK (siren IS NULL OR (length(siren) = 9 AND siren !#~# '*[^0-9]*')),
    siret               TEXT COLLATE "C" CHECK (siret IS NULL OR (length(siret) = 14 AND siret !#~# '*[^0-9]*')),
    supprime            BIGINT NOT NULL DEFAULT 0 CHECK (supprime IN (0, 1)),
    created_at          TEXT COLLATE "C" NOT NULL,
    updated_at          TEXT COLLATE "C" NOT NULL, billing_category TEXT COLLATE "C"
    CHECK (billing_category IS NULL OR billing_category IN ('entreprise', 'copropriete', 'organisme_public')), code_postal TEXT COLLATE "C"
    CHECK (code_postal IS NULL OR (length(code_postal) = 5 AND code_postal !#~# '*[^0-9]*')), ville TEXT COLLATE "C", numero_tva TEXT COLLATE "C", adresse_facturation_electronique TEXT COLLATE "C"
    CHECK (adresse_facturation_electronique IS NULL
           OR (length(adresse_facturation_electronique) BETWEEN 1 AND 125
               AND adresse_facturation_electronique !#~# '*[^A-Za-z0-9._-]*')), code_service TEXT COLLATE "C",
    UNIQUE (agency_id, client_ref)
);

CREATE TABLE contacts (
    id          TEXT COLLATE "C" PRIMARY KEY,
    client_id   TEXT COLLATE "C" NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
    nom         TEXT COLLATE "C" NOT NULL,
    email       TEXT COLLATE "C",
    telephone   TEXT COLLATE "C",
    fonction    TEXT COLLATE "C",
    created_at  TEXT COLLATE "C" NOT NULL,
    updated_at  TEXT COLLATE "C" NOT NULL
);

CREATE TABLE buildings (
    id                    TEXT COLLATE "C" PRIMARY KEY,
    agency_id             TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    client_id             TEXT COLLATE "C" REFERENCES clients(id),
    name                  TEXT COLLATE "C",
    address               TEXT COLLATE "C" NOT NULL,
    address_complement    TEXT COLLATE "C",
    postal_code           TEXT COLLATE "C",
    city                  TEXT COLLATE "C",
    
    access_instructions   TEXT COLLATE "C" NOT NULL DEFAULT '[]' CHECK (json_valid(access_instructions) AND json_type(access_instructions) = 'array'),
    access_other          TEXT COLLATE "C",
    digicode              TEXT COLLATE "C",
    key_box               TEXT COLLATE "C",
    created_at            TEXT COLLATE "C" NOT NULL,
    updated_at            TEXT COLLATE "C" NOT NULL
);

CREATE TABLE equipment (
    id                    TEXT COLLATE "C" PRIMARY KEY,
    agency_id             TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    building_id           TEXT COLLATE "C" REFERENCES buildings(id),
    client_id             TEXT COLLATE "C" REFERENCES clients(id),
    number                TEXT COLLATE "C",
    
    number_key            TEXT COLLATE "C" GENERATED ALWAYS AS (lower(replace(replace(number, ' ', ''), chr(9), ''))) STORED,
    serial_number         TEXT COLLATE "C",
    type                  TEXT COLLATE "C",
    subtype               TEXT COLLATE "C",
    location              TEXT COLLATE "C",
    maintenance_contract  TEXT COLLATE "C" CHECK (maintenance_contract IS NULL OR maintenance_contract IN ('parc', 'hors_parc')),
    contract_number       TEXT COLLATE "C",
    external_id           TEXT COLLATE "C",
    
    visit_interval_days   BIGINT NOT NULL DEFAULT 42 CHECK (visit_interval_days > 0),
    plan_start_on         TEXT COLLATE "C",
    created_at            TEXT COLLATE "C" NOT NULL,
    updated_at            TEXT COLLATE "C" NOT NULL
, surveyed_fields BIGINT NOT NULL DEFAULT 0, archived_at TEXT COLLATE "C");

CREATE TABLE deals (
    id                       TEXT COLLATE "C" PRIMARY KEY,
    agency_id                TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    type_affaire             TEXT COLLATE "C" CHECK (type_affaire IS NULL OR type_affaire IN (
        'Contrat', 'Réparation', 'Modernisation pour devis', 'Remplacement complet pour devis',
        'Modernisation pour commande', 'Remplacement complet pour commande')),
    
    types_etat_des_lieux     TEXT COLLATE "C" NOT NULL DEFAULT '[]' CHECK (json_valid(types_etat_des_lieux) AND json_type(types_etat_des_lieux) = 'array'),
    category                 TEXT COLLATE "C" NOT NULL DEFAULT 'Ouverte' CHECK (category IN (
        'Ouverte', 'En attente', 'En retard', 'Gagnée', 'Perdue', 'Annulée', 'Fermée')),
    external_opportunity_id  TEXT COLLATE "C",
    requester_email          TEXT COLLATE "C",
    surveyor_account_id      TEXT COLLATE "C" REFERENCES accounts(id),
    client_id                TEXT COLLATE "C" REFERENCES clients(id),
    created_at               TEXT COLLATE "C" NOT NULL,
    updated_at               TEXT COLLATE "C" NOT NULL
);

CREATE TABLE surveys (
    id                   TEXT COLLATE "C" PRIMARY KEY,
    agency_id            TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    equipment_id         TEXT COLLATE "C" NOT NULL REFERENCES equipment(id),
    number               TEXT COLLATE "C",
    status               TEXT COLLATE "C" NOT NULL DEFAULT 'a_realiser' CHECK (status IN ('a_realiser', 'en_cours', 'termine', 'annule')),
    reason               TEXT COLLATE "C",
    surveyor_account_id  TEXT COLLATE "C" REFERENCES accounts(id),
    due_on               TEXT COLLATE "C",
    surveyed_on          TEXT COLLATE "C",
    photo_count          BIGINT NOT NULL DEFAULT 0 CHECK (photo_count >= 0),
    submitted_at         TEXT COLLATE "C",
    created_at           TEXT COLLATE "C" NOT NULL,
    updated_at           TEXT COLLATE "C" NOT NULL
);

CREATE TABLE equipment_values (
    equipment_id  TEXT COLLATE "C" NOT NULL REFERENCES equipment(id) ON DELETE CASCADE,
    field_code    TEXT COLLATE "C" NOT NULL REFERENCES technical_fields(code),
    
    value         TEXT COLLATE "C" NOT NULL CHECK (json_valid(value)),
    
    survey_id     TEXT COLLATE "C" REFERENCES surveys(id) ON DELETE SET NULL,
    surveyed_at   TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (equipment_id, field_code)
);

CREATE TABLE survey_deals (
    survey_id  TEXT COLLATE "C" NOT NULL REFERENCES surveys(id) ON DELETE CASCADE,
    deal_id    TEXT COLLATE "C" NOT NULL REFERENCES deals(id),
    PRIMARY KEY (survey_id, deal_id)
);

CREATE TABLE survey_values (
    survey_id   TEXT COLLATE "C" NOT NULL REFERENCES surveys(id) ON DELETE CASCADE,
    field_code  TEXT COLLATE "C" NOT NULL REFERENCES technical_fields(code),
    value       TEXT COLLATE "C" NOT NULL CHECK (json_valid(value)),
    PRIMARY KEY (survey_id, field_code)
);

CREATE TABLE discrepancies (
    id            TEXT COLLATE "C" PRIMARY KEY,
    agency_id     TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    equipment_id  TEXT COLLATE "C" NOT NULL REFERENCES equipment(id),
    survey_id     TEXT COLLATE "C" NOT NULL REFERENCES surveys(id),
    component     TEXT COLLATE "C",
    finding       TEXT COLLATE "C" NOT NULL,
    created_by    TEXT COLLATE "C" REFERENCES accounts(id),
    created_at    TEXT COLLATE "C" NOT NULL
);

CREATE TABLE visits (
    id             TEXT COLLATE "C" PRIMARY KEY,
    agency_id      TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    equipment_id   TEXT COLLATE "C" NOT NULL REFERENCES equipment(id),
    technician_id  TEXT COLLATE "C" REFERENCES technicians(id),
    planned_for    TEXT COLLATE "C" NOT NULL,
    
    deadline       TEXT COLLATE "C",
    status         TEXT COLLATE "C" NOT NULL DEFAULT 'planifiee' CHECK (status IN ('planifiee', 'en_cours', 'faite')),
    arrived_at     TEXT COLLATE "C",
    left_at        TEXT COLLATE "C",
    done_on        TEXT COLLATE "C",
    signed_by      TEXT COLLATE "C",
    observations   TEXT COLLATE "C",
    created_at     TEXT COLLATE "C" NOT NULL,
    updated_at     TEXT COLLATE "C" NOT NULL
);

CREATE TABLE call_centers (
    id          TEXT COLLATE "C" PRIMARY KEY,
    agency_id   TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    name        TEXT COLLATE "C" NOT NULL,
    created_at  TEXT COLLATE "C" NOT NULL,
    UNIQUE (agency_id, name)
);

CREATE TABLE credentials (
    id              TEXT COLLATE "C" PRIMARY KEY,
    kind            TEXT COLLATE "C" NOT NULL CHECK (kind IN ('api_token', 'call_center_key', 'partner_key')),
    name            TEXT COLLATE "C" NOT NULL,
    fingerprint     TEXT COLLATE "C" NOT NULL UNIQUE,
    
    account_id      TEXT COLLATE "C" REFERENCES accounts(id),
    
    agency_id       TEXT COLLATE "C" REFERENCES agencies(id),
    call_center_id  TEXT COLLATE "C" REFERENCES call_centers(id),
    created_by      TEXT COLLATE "C" REFERENCES accounts(id),
    created_at      TEXT COLLATE "C" NOT NULL,
    last_used_at    TEXT COLLATE "C",
    revoked_at      TEXT COLLATE "C",
    CHECK (kind <> 'api_token' OR account_id IS NOT NULL),
    CHECK (kind <> 'call_center_key' OR (agency_id IS NOT NULL AND call_center_id IS NOT NULL))
);

CREATE TABLE partner_key_agencies (
    credential_id  TEXT COLLATE "C" NOT NULL REFERENCES credentials(id),
    agency_id      TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    PRIMARY KEY (credential_id, agency_id)
);

CREATE TABLE calls (
    id               TEXT COLLATE "C" PRIMARY KEY,
    agency_id        TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    
    call_center_id   TEXT COLLATE "C" REFERENCES call_centers(id),
    
    credential_id    TEXT COLLATE "C" REFERENCES credentials(id),
    reference        TEXT COLLATE "C" NOT NULL,
    equipment_id     TEXT COLLATE "C" NOT NULL REFERENCES equipment(id),
    type             TEXT COLLATE "C" NOT NULL CHECK (type IN ('personne_bloquee', 'panne', 'vandalisme', 'bruit')),
    description      TEXT COLLATE "C" NOT NULL,
    caller           TEXT COLLATE "C",
    received_at      TEXT COLLATE "C" NOT NULL,
    status           TEXT COLLATE "C" NOT NULL DEFAULT 'ouverte' CHECK (status IN ('ouverte', 'en_route', 'sur_place', 'a_l_arret', 'resolue')),
    technician_id    TEXT COLLATE "C" REFERENCES technicians(id),
    assigned_at      TEXT COLLATE "C",
    en_route_at      TEXT COLLATE "C",
    arrived_at       TEXT COLLATE "C",
    stopped_at       TEXT COLLATE "C",
    resolved_at      TEXT COLLATE "C",
    created_by       TEXT COLLATE "C" REFERENCES accounts(id),
    created_at       TEXT COLLATE "C" NOT NULL,
    updated_at       TEXT COLLATE "C" NOT NULL
, report_cause TEXT COLLATE "C", report_work TEXT COLLATE "C", report_parts TEXT COLLATE "C", back_in_service_at TEXT COLLATE "C", acknowledged_at TEXT COLLATE "C", acknowledged_by TEXT COLLATE "C" REFERENCES accounts(id));

CREATE TABLE quotes (
    id             TEXT COLLATE "C" PRIMARY KEY,
    agency_id      TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    equipment_id   TEXT COLLATE "C" NOT NULL REFERENCES equipment(id),
    number         TEXT COLLATE "C",
    origin         TEXT COLLATE "C" NOT NULL CHECK (origin IN ('reserve', 'panne', 'technicien', 'client')),
    object         TEXT COLLATE "C" NOT NULL,
    status         TEXT COLLATE "C" NOT NULL DEFAULT 'brouillon' CHECK (status IN ('brouillon', 'envoye', 'accepte', 'refuse')),
    created_by     TEXT COLLATE "C" REFERENCES accounts(id),
    sent_at        TEXT COLLATE "C",
    accepted_at    TEXT COLLATE "C",
    refused_at     TEXT COLLATE "C",
    created_at     TEXT COLLATE "C" NOT NULL,
    updated_at     TEXT COLLATE "C" NOT NULL
, valid_until TEXT COLLATE "C");

CREATE TABLE quote_rows (
    id                TEXT COLLATE "C" PRIMARY KEY,
    quote_id          TEXT COLLATE "C" NOT NULL REFERENCES quotes(id) ON DELETE CASCADE,
    position          BIGINT NOT NULL,
    label             TEXT COLLATE "C" NOT NULL,
    quantity_milli    BIGINT NOT NULL CHECK (quantity_milli >= 0),
    unit_price_cents  BIGINT NOT NULL CHECK (unit_price_cents >= 0),
    vat_rate_bp       BIGINT NOT NULL DEFAULT 2000 CHECK (vat_rate_bp >= 0), vat_exemption TEXT COLLATE "C"
    CHECK (vat_exemption IS NULL OR (vat_rate_bp = 0 AND vat_exemption IN ('autoliquidation', 'franchise'))),
    UNIQUE (quote_id, position)
);

CREATE TABLE invoice_counters (
    agency_id  TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    nature     TEXT COLLATE "C" NOT NULL CHECK (nature IN ('facture', 'avoir')),
    year       BIGINT NOT NULL,
    last_seq   BIGINT NOT NULL,
    PRIMARY KEY (agency_id, nature, year)
);

CREATE TABLE import_files (
    id          TEXT COLLATE "C" PRIMARY KEY,
    agency_id   TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    name        TEXT COLLATE "C" NOT NULL,
    content     BYTEA NOT NULL,
    columns     TEXT COLLATE "C" NOT NULL,
    row_count   BIGINT NOT NULL,
    created_by  TEXT COLLATE "C" REFERENCES accounts(id),
    created_at  TEXT COLLATE "C" NOT NULL,
    expires_at  TEXT COLLATE "C" NOT NULL
);

CREATE TABLE webhook_subscriptions (
    id          TEXT COLLATE "C" PRIMARY KEY,
    agency_id   TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    url         TEXT COLLATE "C" NOT NULL,
    
    events      TEXT COLLATE "C" NOT NULL CHECK (json_valid(events) AND json_type(events) = 'array'),
    
    secret_enc  BYTEA NOT NULL,
    created_by  TEXT COLLATE "C" REFERENCES accounts(id),
    created_at  TEXT COLLATE "C" NOT NULL,
    revoked_at  TEXT COLLATE "C"
);

CREATE TABLE outbox_events (
    id            TEXT COLLATE "C" PRIMARY KEY,
    agency_id     TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    event         TEXT COLLATE "C" NOT NULL,
    object_id     TEXT COLLATE "C" NOT NULL,
    equipment_id  TEXT COLLATE "C",
    status        TEXT COLLATE "C",
    occurred_at   TEXT COLLATE "C" NOT NULL,
    
    body          TEXT COLLATE "C" NOT NULL
);

CREATE TABLE webhook_deliveries (
    id               TEXT COLLATE "C" PRIMARY KEY,
    event_id         TEXT COLLATE "C" NOT NULL REFERENCES outbox_events(id),
    subscription_id  TEXT COLLATE "C" NOT NULL REFERENCES webhook_subscriptions(id),
    status           TEXT COLLATE "C" NOT NULL DEFAULT 'en_attente' CHECK (status IN ('en_attente', 'livree', 'echec', 'abandonnee')),
    attempts         BIGINT NOT NULL DEFAULT 0,
    next_attempt_at  TEXT COLLATE "C",
    last_http_status BIGINT,
    last_error       TEXT COLLATE "C",
    created_at       TEXT COLLATE "C" NOT NULL,
    updated_at       TEXT COLLATE "C" NOT NULL,
    delivered_at     TEXT COLLATE "C"
);

CREATE TABLE sessions (
    id                TEXT COLLATE "C" PRIMARY KEY,
    account_id        TEXT COLLATE "C" NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    fingerprint       TEXT COLLATE "C" NOT NULL UNIQUE,
    agency_id         TEXT COLLATE "C" REFERENCES agencies(id),
    created_at        TEXT COLLATE "C" NOT NULL,
    last_seen_at      TEXT COLLATE "C" NOT NULL,
    expires_at        TEXT COLLATE "C" NOT NULL,
    revoked_at        TEXT COLLATE "C"
);

CREATE TABLE sheet_tokens (
    id            TEXT COLLATE "C" PRIMARY KEY,
    agency_id     TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    equipment_id  TEXT COLLATE "C" NOT NULL REFERENCES equipment(id),
    credential_id TEXT COLLATE "C" REFERENCES credentials(id),
    created_at    TEXT COLLATE "C" NOT NULL,
    expires_at    TEXT COLLATE "C" NOT NULL,
    used_at       TEXT COLLATE "C"
);

CREATE TABLE agency_logos (
    id          TEXT COLLATE "C" PRIMARY KEY,
    agency_id   TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    media_type  TEXT COLLATE "C" NOT NULL CHECK (media_type IN ('image/png', 'image/jpeg')),
    bytes       BYTEA NOT NULL,
    width       BIGINT NOT NULL CHECK (width > 0),
    height      BIGINT NOT NULL CHECK (height > 0),
    created_at  TEXT COLLATE "C" NOT NULL
);

CREATE TABLE agency_identities (
    id                   TEXT COLLATE "C" PRIMARY KEY,
    agency_id            TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    legal_name           TEXT COLLATE "C",
    legal_form           TEXT COLLATE "C",
    share_capital_cents  BIGINT CHECK (share_capital_cents IS NULL OR share_capital_cents >= 0),
    rcs_city             TEXT COLLATE "C",
    siret                TEXT COLLATE "C",
    vat_number           TEXT COLLATE "C",
    head_office_address  TEXT COLLATE "C",
    address              TEXT COLLATE "C",
    phone                TEXT COLLATE "C",
    email                TEXT COLLATE "C",
    iban                 TEXT COLLATE "C",
    bic                  TEXT COLLATE "C",
    insurer              TEXT COLLATE "C",
    insurance_policy     TEXT COLLATE "C",
    insurance_area       TEXT COLLATE "C",
    vat_on_debits        BIGINT NOT NULL DEFAULT 0 CHECK (vat_on_debits IN (0, 1)),
    logo_id              TEXT COLLATE "C" REFERENCES agency_logos(id),
    created_at           TEXT COLLATE "C" NOT NULL
, address_complement TEXT COLLATE "C", postal_code TEXT COLLATE "C"
    CHECK (postal_code IS NULL OR (length(postal_code) = 5 AND postal_code !#~# '*[^0-9]*')), city TEXT COLLATE "C", head_office_complement TEXT COLLATE "C", head_office_postal_code TEXT COLLATE "C"
    CHECK (head_office_postal_code IS NULL
           OR (length(head_office_postal_code) = 5 AND head_office_postal_code !#~# '*[^0-9]*')), head_office_city TEXT COLLATE "C", invoice_series TEXT COLLATE "C"
    CHECK (invoice_series IS NULL OR (length(invoice_series) BETWEEN 1 AND 6
           AND invoice_series !#~# '*[^A-Z0-9]*')), electronic_address TEXT COLLATE "C"
    CHECK (electronic_address IS NULL
           OR (length(electronic_address) BETWEEN 1 AND 125
               AND electronic_address !#~# '*[^A-Za-z0-9._-]*')));

CREATE TABLE mail_settings (
    organization_id  TEXT COLLATE "C" PRIMARY KEY REFERENCES organizations(id),
    host             TEXT COLLATE "C" NOT NULL,
    port             BIGINT NOT NULL CHECK (port BETWEEN 1 AND 65535),
    security         TEXT COLLATE "C" NOT NULL CHECK (security IN ('starttls', 'tls', 'aucune')),
    username         TEXT COLLATE "C",
    password_enc     BYTEA,
    updated_at       TEXT COLLATE "C" NOT NULL,
    updated_by       TEXT COLLATE "C" REFERENCES accounts(id)
);

CREATE TABLE mails (
    id               TEXT COLLATE "C" PRIMARY KEY,
    agency_id        TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    object_type      TEXT COLLATE "C" NOT NULL CHECK (object_type IN ('quote', 'invoice', 'visit')),
    object_id        TEXT COLLATE "C" NOT NULL,
    sender_name      TEXT COLLATE "C" NOT NULL,
    sender_email     TEXT COLLATE "C" NOT NULL,
    
    recipients       TEXT COLLATE "C" NOT NULL,
    subject          TEXT COLLATE "C" NOT NULL,
    body             TEXT COLLATE "C" NOT NULL,
    attachment_name  TEXT COLLATE "C" NOT NULL,
    attachment       BYTEA NOT NULL,
    status           TEXT COLLATE "C" NOT NULL DEFAULT 'en_attente' CHECK (status IN ('en_attente', 'envoye', 'echec', 'abandonne')),
    attempts         BIGINT NOT NULL DEFAULT 0,
    next_attempt_at  TEXT COLLATE "C",
    last_error       TEXT COLLATE "C",
    created_by       TEXT COLLATE "C" REFERENCES accounts(id),
    created_at       TEXT COLLATE "C" NOT NULL,
    updated_at       TEXT COLLATE "C" NOT NULL,
    sent_at          TEXT COLLATE "C"
);

CREATE TABLE "invoices" (
    id                  TEXT COLLATE "C" PRIMARY KEY,
    agency_id           TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    client_id           TEXT COLLATE "C" REFERENCES clients(id),
    nature              TEXT COLLATE "C" NOT NULL CHECK (nature IN ('facture', 'avoir')),
    status              TEXT COLLATE "C" NOT NULL DEFAULT 'brouillon' CHECK (status IN ('brouillon', 'emise', 'envoyee', 'payee')),
    
    number              TEXT COLLATE "C",
    number_year         BIGINT,
    number_seq          BIGINT,
    
    credited_invoice_id TEXT COLLATE "C" REFERENCES invoices(id),
    quote_id            TEXT COLLATE "C" REFERENCES quotes(id),
    buyer_name          TEXT COLLATE "C",
    buyer_address       TEXT COLLATE "C",
    buyer_siren         TEXT COLLATE "C",
    issued_on           TEXT COLLATE "C",
    due_on              TEXT COLLATE "C",
    paid_on             TEXT COLLATE "C",
    total_excl_cents    BIGINT NOT NULL DEFAULT 0,
    total_incl_cents    BIGINT NOT NULL DEFAULT 0,
    created_on          TEXT COLLATE "C" NOT NULL,
    created_at          TEXT COLLATE "C" NOT NULL,
    updated_at          TEXT COLLATE "C" NOT NULL,
    seller_identity_id  TEXT COLLATE "C" REFERENCES agency_identities(id),
    
    number_series       TEXT COLLATE "C", buyer_category TEXT COLLATE "C"
    CHECK (buyer_category IS NULL OR buyer_category IN ('entreprise', 'copropriete', 'organisme_public')), buyer_vat_number TEXT COLLATE "C", buyer_siret TEXT COLLATE "C", buyer_service_code TEXT COLLATE "C", buyer_electronic_address TEXT COLLATE "C",
    CHECK ((status = 'brouillon') = (number IS NULL)),
    
    CHECK (number IS NULL OR number = (CASE nature WHEN 'facture' THEN 'FA' ELSE 'AV' END)
                                      || '-' || coalesce(number_series || '-', '')
                                      || number_year || '-' || lpad(number_seq::text, greatest(6, length(number_seq::text)), '0')),
    CHECK (nature = 'avoir' OR credited_invoice_id IS NULL),
    UNIQUE (agency_id, nature, number_year, number_seq)
);

CREATE TABLE invoice_lines (
    id                TEXT COLLATE "C" PRIMARY KEY,
    invoice_id        TEXT COLLATE "C" NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
    position          BIGINT NOT NULL,
    label             TEXT COLLATE "C" NOT NULL,
    quantity_milli    BIGINT NOT NULL CHECK (quantity_milli >= 0),
    unit_price_cents  BIGINT NOT NULL,
    vat_rate_bp       BIGINT NOT NULL DEFAULT 2000 CHECK (vat_rate_bp >= 0), vat_exemption TEXT COLLATE "C"
    CHECK (vat_exemption IS NULL OR (vat_rate_bp = 0 AND vat_exemption IN ('autoliquidation', 'franchise'))),
    UNIQUE (invoice_id, position)
);

CREATE TABLE invoice_payments (
    id            TEXT COLLATE "C" PRIMARY KEY,
    agency_id     TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    invoice_id    TEXT COLLATE "C" NOT NULL REFERENCES invoices(id),
    paid_on       TEXT COLLATE "C" NOT NULL,
    amount_cents  BIGINT NOT NULL CHECK (amount_cents > 0),
    
    method        TEXT COLLATE "C" CHECK (method IN ('virement', 'cheque', 'prelevement', 'especes', 'carte')),
    reference     TEXT COLLATE "C",
    created_by    TEXT COLLATE "C",
    created_at    TEXT COLLATE "C" NOT NULL
);

CREATE TABLE invoice_equipment (
    invoice_id   TEXT COLLATE "C" NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
    equipment_id TEXT COLLATE "C" NOT NULL REFERENCES equipment(id),
    position     BIGINT NOT NULL,
    PRIMARY KEY (invoice_id, equipment_id)
);

ALTER TABLE agencies ADD FOREIGN KEY (identity_id) REFERENCES agency_identities(id);

CREATE UNIQUE INDEX organizations_one_operator ON organizations (kind NULLS FIRST) WHERE kind = 'operator';

CREATE INDEX agencies_by_organization ON agencies (organization_id NULLS FIRST);

CREATE INDEX account_agencies_by_agency ON account_agencies (agency_id NULLS FIRST);

CREATE INDEX technicians_by_agency ON technicians (agency_id NULLS FIRST);

CREATE INDEX technician_on_call_by_technician ON technician_on_call (technician_id NULLS FIRST, ends_at NULLS FIRST);

CREATE INDEX technician_absences_by_technician ON technician_absences (technician_id NULLS FIRST, ends_on NULLS FIRST);

CREATE INDEX clients_by_name ON clients (agency_id NULLS FIRST, nom COLLATE liftdesk_nocase NULLS FIRST);

CREATE INDEX clients_by_siren ON clients (agency_id NULLS FIRST, siren NULLS FIRST);

CREATE INDEX contacts_by_client ON contacts (client_id NULLS FIRST);

CREATE INDEX buildings_by_agency ON buildings (agency_id NULLS FIRST);

CREATE UNIQUE INDEX equipment_number_per_agency ON equipment (agency_id NULLS FIRST, number_key NULLS FIRST) WHERE number_key IS NOT NULL;

CREATE INDEX equipment_by_external_id ON equipment (agency_id NULLS FIRST, external_id NULLS FIRST) WHERE external_id IS NOT NULL;

CREATE INDEX equipment_by_building ON equipment (building_id NULLS FIRST);

CREATE INDEX equipment_by_client ON equipment (client_id NULLS FIRST);

CREATE UNIQUE INDEX deals_by_external_id ON deals (agency_id NULLS FIRST, external_opportunity_id NULLS FIRST) WHERE external_opportunity_id IS NOT NULL;

CREATE INDEX deals_by_created ON deals (agency_id NULLS FIRST, created_at NULLS FIRST);

CREATE INDEX surveys_by_agency ON surveys (agency_id NULLS FIRST, created_at NULLS FIRST, id NULLS FIRST);

CREATE INDEX surveys_by_number ON surveys (agency_id NULLS FIRST, number NULLS FIRST);

CREATE INDEX surveys_by_equipment ON surveys (equipment_id NULLS FIRST);

CREATE INDEX discrepancies_by_survey ON discrepancies (survey_id NULLS FIRST);

CREATE INDEX visits_by_day ON visits (agency_id NULLS FIRST, planned_for NULLS FIRST);

CREATE INDEX visits_by_done_day ON visits (agency_id NULLS FIRST, done_on NULLS FIRST) WHERE done_on IS NOT NULL;

CREATE INDEX visits_by_equipment ON visits (equipment_id NULLS FIRST, status NULLS FIRST);

CREATE INDEX visits_by_technician ON visits (technician_id NULLS FIRST, planned_for NULLS FIRST);

CREATE INDEX credentials_by_account ON credentials (account_id NULLS FIRST);

CREATE INDEX credentials_by_agency ON credentials (agency_id NULLS FIRST);

CREATE UNIQUE INDEX calls_reference_per_center ON calls (call_center_id NULLS FIRST, reference NULLS FIRST) WHERE call_center_id IS NOT NULL;

CREATE INDEX calls_by_status ON calls (agency_id NULLS FIRST, status NULLS FIRST, received_at NULLS FIRST);

CREATE INDEX calls_by_technician ON calls (technician_id NULLS FIRST, status NULLS FIRST);

CREATE INDEX calls_by_equipment ON calls (equipment_id NULLS FIRST, received_at NULLS FIRST);

CREATE INDEX quotes_by_agency ON quotes (agency_id NULLS FIRST, created_at NULLS FIRST);

CREATE INDEX quotes_by_equipment ON quotes (equipment_id NULLS FIRST);

CREATE INDEX import_files_by_expiry ON import_files (expires_at NULLS FIRST);

CREATE INDEX webhook_subscriptions_by_agency ON webhook_subscriptions (agency_id NULLS FIRST);

CREATE INDEX outbox_events_by_object ON outbox_events (object_id NULLS FIRST);

CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status NULLS FIRST, next_attempt_at NULLS FIRST);

CREATE INDEX webhook_deliveries_by_subscription ON webhook_deliveries (subscription_id NULLS FIRST, created_at NULLS FIRST);

CREATE INDEX sessions_by_account ON sessions (account_id NULLS FIRST);

CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (subscription_id NULLS FIRST, created_at NULLS FIRST)
    WHERE status IN ('en_attente', 'echec');

CREATE INDEX quotes_by_status ON quotes (agency_id NULLS FIRST, status NULLS FIRST, created_at NULLS FIRST);

CREATE INDEX visits_not_done ON visits (agency_id NULLS FIRST, planned_for NULLS FIRST, deadline NULLS FIRST, status NULLS FIRST)
    WHERE status <> 'faite';

CREATE INDEX equipment_by_surveyed ON equipment (agency_id NULLS FIRST, type NULLS FIRST, surveyed_fields NULLS FIRST);

CREATE INDEX audit_log_by_object ON audit_log (object_type NULLS FIRST, object_id NULLS FIRST);

CREATE INDEX audit_log_by_agency ON audit_log (agency_id NULLS FIRST, at NULLS FIRST);

CREATE INDEX agency_logos_by_agency ON agency_logos (agency_id NULLS FIRST);

CREATE INDEX agency_identities_by_agency ON agency_identities (agency_id NULLS FIRST, created_at NULLS FIRST);

CREATE INDEX quotes_by_number ON quotes (agency_id NULLS FIRST, number NULLS FIRST) WHERE number IS NOT NULL;

CREATE INDEX calls_agency_reference ON calls (agency_id NULLS FIRST, reference NULLS FIRST) WHERE call_center_id IS NULL;

CREATE INDEX mails_by_object ON mails (agency_id NULLS FIRST, object_type NULLS FIRST, object_id NULLS FIRST, created_at NULLS FIRST);

CREATE INDEX mails_due ON mails (next_attempt_at NULLS FIRST) WHERE status IN ('en_attente', 'echec');

CREATE INDEX invoice_payments_by_invoice ON invoice_payments (invoice_id NULLS FIRST, paid_on NULLS FIRST, created_at NULLS FIRST);

CREATE INDEX invoice_payments_by_day ON invoice_payments (agency_id NULLS FIRST, paid_on NULLS FIRST, amount_cents NULLS FIRST);

CREATE UNIQUE INDEX invoices_number_per_agency ON invoices (agency_id NULLS FIRST, number NULLS FIRST) WHERE number IS NOT NULL;

CREATE INDEX invoices_by_created ON invoices (agency_id NULLS FIRST, created_on NULLS FIRST, id NULLS FIRST);

CREATE INDEX invoices_by_status ON invoices (agency_id NULLS FIRST, status NULLS FIRST, created_on NULLS FIRST, id NULLS FIRST);

CREATE INDEX invoices_by_client ON invoices (agency_id NULLS FIRST, client_id NULLS FIRST, created_on NULLS FIRST, id NULLS FIRST);

CREATE INDEX invoices_credit_notes ON invoices (credited_invoice_id NULLS FIRST) WHERE credited_invoice_id IS NOT NULL;

CREATE INDEX invoices_by_quote ON invoices (quote_id NULLS FIRST) WHERE quote_id IS NOT NULL;

CREATE INDEX invoices_issued_by_day ON invoices (agency_id NULLS FIRST, nature NULLS FIRST, issued_on NULLS FIRST, total_incl_cents NULLS FIRST)
    WHERE issued_on IS NOT NULL;

CREATE INDEX invoices_paid_by_day ON invoices (agency_id NULLS FIRST, nature NULLS FIRST, paid_on NULLS FIRST, total_incl_cents NULLS FIRST)
    WHERE paid_on IS NOT NULL;

CREATE INDEX invoices_unpaid_by_due ON invoices (agency_id NULLS FIRST, nature NULLS FIRST, status NULLS FIRST, due_on NULLS FIRST, total_incl_cents NULLS FIRST)
    WHERE status IN ('emise', 'envoyee');

CREATE INDEX invoices_credits_by_agency ON invoices (agency_id NULLS FIRST, nature NULLS FIRST, status NULLS FIRST, credited_invoice_id NULLS FIRST, total_incl_cents NULLS FIRST)
    WHERE credited_invoice_id IS NOT NULL;

-- The technical catalogue (SQLite's V2, with its later changes).
INSERT INTO technical_fields (code, label, unit, component, value_type, choices, synonyms, v1_table, v1_field, partner_key, applies_to, position) VALUES
    ('charge_utile', 'Charge utile', 'kg', NULL, 'number', NULL, 'charge nominale poids capacité load', 'appareil', 'charge_nominale', 'charge_utile', 'ascenseur,monte_charge,monte_voiture,elevateur', 10),
    ('course', 'Course', 'm', NULL, 'number', NULL, 'course hauteur déplacement travel', 'appareil', 'course', 'course', 'ascenseur,monte_charge,monte_voiture,elevateur', 20),
    ('vitesse', 'Vitesse nominale', 'm/s', NULL, 'number', NULL, 'vitesse cabine speed', 'appareil', 'vitesse_nominale', 'vitesse', 'ascenseur,monte_charge,monte_voiture,elevateur', 30),
    ('nombre_niveaux', 'Nombre de niveaux desservis', NULL, NULL, 'integer', NULL, 'niveaux étages arrêts paliers desservis', 'appareil', 'nb_niveaux', 'nombre_niveaux', 'ascenseur,monte_charge,monte_voiture,elevateur', 40),
    ('nombre_faces_de_service', 'Nombre de faces de service', NULL, NULL, 'integer', NULL, 'faces accès service', 'appareil', 'nb_faces_service', 'nombre_faces_de_service', 'ascenseur,monte_charge,monte_voiture,elevateur', 50),
    ('nombre_personnes', 'Nombre de personnes', NULL, NULL, 'integer', NULL, 'personnes capacité passagers', 'appareil', 'nb_personnes', 'nombre_personnes', 'ascenseur', 60),
    ('marque', 'Marque', NULL, NULL, 'text', NULL, 'marque fabricant constructeur', 'appareil', 'marque', 'marque', NULL, 70),
    ('modele', 'Modèle', NULL, NULL, 'text', NULL, 'modèle gamme', 'appareil', 'modele', 'modele', NULL, 80),
    ('type_entrainement', 'Type d''entraînement', NULL, NULL, 'choice', '["Electrique","Hydraulique"]', 'entraînement traction électrique hydraulique', 'appareil', 'type_entrainement', 'type_entrainement', 'ascenseur,monte_charge,monte_voiture,elevateur', 90),
    ('implantation_machinerie', 'Implantation de la machinerie', NULL, NULL, 'choice', '["Haute","Basse","Latérale","Sans (MRL)"]', 'machinerie local machine mrl implantation', 'appareil', 'implantation_machinerie', 'implantation_machinerie', 'ascenseur,monte_charge,monte_voiture,elevateur', 100),
    ('annee_mise_en_service', 'Année de mise en service', NULL, NULL, 'integer', NULL, 'année installation mise en service âge', 'appareil', 'annee_mes', NULL, NULL, 110),
    ('dimensions_cabine_largeur', 'Largeur de cabine', 'mm', NULL, 'number', NULL, 'cabine largeur', 'cabine', 'largeur', NULL, 'ascenseur,monte_charge,monte_voiture', 120),
    ('dimensions_cabine_profondeur', 'Profondeur de cabine', 'mm', NULL, 'number', NULL, 'cabine profondeur', 'cabine', 'profondeur', NULL, 'ascenseur,monte_charge,monte_voiture', 130),
    ('gaine_profondeur_cuvette', 'Profondeur de cuvette', 'mm', 'shaft', 'number', NULL, 'cuvette fosse profondeur gaine', 'gaine', 'prof_cuvette', NULL, 'ascenseur,monte_charge,monte_voiture', 200),
    ('gaine_largeur_cuvette', 'Largeur de gaine en cuvette', 'mm', 'shaft', 'number', NULL, 'gaine largeur cuvette fosse dimension', 'gaine', 'larg_cuvette', NULL, 'ascenseur,monte_charge,monte_voiture', 210),
    ('gaine_largeur_toit_cabine', 'Largeur de gaine au toit de cabine', 'mm', 'shaft', 'number', NULL, 'gaine largeur toit cabine dimension', 'gaine', 'larg_toit_cabine', NULL, 'ascenseur,monte_charge,monte_voiture', 220),
    ('gaine_largeur_paliers', 'Largeur de gaine aux paliers', 'mm', 'shaft', 'number', NULL, 'gaine largeur paliers niveaux dimension', 'gaine', 'larg_paliers', NULL, 'ascenseur,monte_charge,monte_voiture', 230),
    ('gaine_reserve_tete', 'Réserve en tête (hauteur libre au-dessus du toit de cabine)', 'mm', 'shaft', 'number', NULL, 'réserve tête hauteur libre toit cabine dernier niveau', 'gaine', 'reserve_tete', NULL, 'ascenseur,monte_charge,monte_voiture', 240),
    ('porte_cabine_type', 'Type de porte cabine', NULL, 'car_door', 'choice', '["Automatique centrale","Automatique latérale","Battante","Pliante","Sans porte"]', 'porte cabine type ouverture', 'porte_cabine', 'type', NULL, 'ascenseur,monte_charge,monte_voiture', 300),
    ('porte_cabine_passage', 'Passage libre de porte cabine', 'mm', 'car_door', 'number', NULL, 'porte cabine passage largeur ouverture', 'porte_cabine', 'passage_libre', NULL, 'ascenseur,monte_charge,monte_voiture', 310),
    ('porte_cabine_operateur', 'Opérateur de porte', NULL, 'car_door', 'text', NULL, 'opérateur porte moteur', 'porte_cabine', 'operateur', NULL, 'ascenseur,monte_charge,monte_voiture', 320),
    ('porte_cabine_cellule', 'Barrière immatérielle', NULL, 'car_door', 'boolean', NULL, 'cellule barrière immatérielle rideau détection', 'porte_cabine', 'barriere', NULL, 'ascenseur,monte_charge,monte_voiture', 330),
    ('portes_palieres_type', 'Type de portes palières', NULL, 'landing_door', 'choice', '["Automatiques","Battantes","Semi-automatiques"]', 'portes palières paliers type', 'porte_paliere', 'type', NULL, 'ascenseur,monte_charge,monte_voiture,elevateur', 350),
    ('machine_type', 'Type de machine', NULL, 'machine', 'choice', '["Treuil à vis sans fin","Gearless","Centrale hydraulique","Tambour"]', 'machine moteur treuil gearless centrale', 'machine', 'type', NULL, 'ascenseur,monte_charge,monte_voiture,elevateur', 400),
    ('machine_marque', 'Marque de la machine', NULL, 'machine', 'text', NULL, 'machine moteur marque fabricant', 'machine', 'marque', NULL, NULL, 410),
    ('machine_puissance', 'Puissance moteur', 'kW', 'machine', 'number', NULL, 'puissance moteur kw machine', 'machine', 'puissance', NULL, NULL, 420),
    ('machine_nombre_cables', 'Nombre de câbles de traction', NULL, 'machine', 'integer', NULL, 'câbles traction suspension nombre', 'machine', 'nb_cables', NULL, 'ascenseur,monte_charge,monte_voiture', 430),
    ('machine_diametre_cables', 'Diamètre des câbles', 'mm', 'machine', 'number', NULL, 'câbles diamètre traction', 'machine', 'diametre_cables', NULL, 'ascenseur,monte_charge,monte_voiture', 440),
    ('machine_frein', 'Type de frein', NULL, 'machine', 'text', NULL, 'frein freinage machine', 'machine', 'frein', NULL, NULL, 450),
    ('armoire_marque', 'Marque de l''armoire de commande', NULL, 'controller', 'text', NULL, 'armoire commande manœuvre contrôleur marque', 'armoire', 'marque', NULL, NULL, 500),
    ('armoire_type_manoeuvre', 'Type de manœuvre', NULL, 'controller', 'choice', '["Blocage","Collective descente","Collective montée-descente","Duplex","Triplex"]', 'manœuvre collective duplex commande', 'armoire', 'type_manoeuvre', NULL, 'ascenseur,monte_charge,monte_voiture', 510),
    ('armoire_variateur', 'Variateur de fréquence', NULL, 'controller', 'boolean', NULL, 'variateur fréquence vvvf', 'armoire', 'variateur', NULL, NULL, 520),
    ('armoire_teleassistance', 'Téléalarme / téléassistance', NULL, 'controller', 'text', NULL, 'téléalarme téléassistance interphonie alarme', 'armoire', 'telealarme', NULL, 'ascenseur', 530),
    ('armoire_annee', 'Année de l''armoire', NULL, 'controller', 'integer', NULL, 'armoire année installation', 'armoire', 'annee', NULL, NULL, 540);

-- Counters kept by triggers, as SQLite's (V4, V6, V8): what each one does
-- is the SQLite trigger of the same name.

-- equipment_surveyed_*: the number of a lift's technical fields filled that
-- apply to its type.
CREATE FUNCTION liftdesk_surveyed_count(equipment_id TEXT) RETURNS BIGINT
LANGUAGE sql STABLE AS $$
    SELECT COUNT(*) FROM equipment_values v
      JOIN technical_fields f ON f.code = v.field_code
      JOIN equipment e ON e.id = v.equipment_id
     WHERE v.equipment_id = $1
       AND (f.applies_to IS NULL
            OR (',' || f.applies_to || ',') ILIKE ('%,' || COALESCE(e.type, '') || ',%'))
$$;

CREATE FUNCTION equipment_surveyed_values() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE equipment SET surveyed_fields = surveyed_fields + 1
         WHERE id = NEW.equipment_id
           AND EXISTS (SELECT 1 FROM technical_fields f WHERE f.code = NEW.field_code
                        AND (f.applies_to IS NULL
                             OR (',' || f.applies_to || ',') ILIKE ('%,' || COALESCE(equipment.type, '') || ',%')));
        RETURN NEW;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE equipment SET surveyed_fields = surveyed_fields - 1
         WHERE id = OLD.equipment_id
           AND EXISTS (SELECT 1 FROM technical_fields f WHERE f.code = OLD.field_code
                        AND (f.applies_to IS NULL
                             OR (',' || f.applies_to || ',') ILIKE ('%,' || COALESCE(equipment.type, '') || ',%')));
        RETURN OLD;
    ELSE
        UPDATE equipment SET surveyed_fields = liftdesk_surveyed_count(equipment.id)
         WHERE id IN (OLD.equipment_id, NEW.equipment_id);
        RETURN NEW;
    END IF;
END;
$$;

CREATE TRIGGER equipment_surveyed_insert AFTER INSERT ON equipment_values
    FOR EACH ROW EXECUTE FUNCTION equipment_surveyed_values();
CREATE TRIGGER equipment_surveyed_delete AFTER DELETE ON equipment_values
    FOR EACH ROW EXECUTE FUNCTION equipment_surveyed_values();
CREATE TRIGGER equipment_surveyed_move AFTER UPDATE OF equipment_id, field_code ON equipment_values
    FOR EACH ROW EXECUTE FUNCTION equipment_surveyed_values();

CREATE FUNCTION equipment_surveyed_type() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE equipment SET surveyed_fields = liftdesk_surveyed_count(NEW.id) WHERE id = NEW.id;
    RETURN NEW;
END;
$$;

CREATE TRIGGER equipment_surveyed_type AFTER UPDATE OF type ON equipment
    FOR EACH ROW WHEN (OLD.type IS DISTINCT FROM NEW.type)
    EXECUTE FUNCTION equipment_surveyed_type();

-- invoice_counts_* and invoice_status_counts_*: invoices per agency, status
-- and creation day (and per client), and per status (and per client).
CREATE FUNCTION invoice_counts_remove(o invoices) RETURNS void
LANGUAGE sql AS $$
    UPDATE invoice_day_counts SET n = n - 1
     WHERE agency_id = o.agency_id AND status = o.status AND created_on = o.created_on;
    UPDATE invoice_client_day_counts SET n = n - 1
     WHERE agency_id = o.agency_id AND client_id = o.client_id
       AND status = o.status AND created_on = o.created_on;
$$;

CREATE FUNCTION invoice_counts_add(v invoices) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO invoice_day_counts (agency_id, status, created_on, n)
        VALUES (v.agency_id, v.status, v.created_on, 1)
        ON CONFLICT (agency_id, status, created_on) DO UPDATE SET n = invoice_day_counts.n + 1;
    INSERT INTO invoice_client_day_counts (agency_id, client_id, status, created_on, n)
        SELECT v.agency_id, v.client_id, v.status, v.created_on, 1
         WHERE v.client_id IS NOT NULL
        ON CONFLICT (agency_id, client_id, status, created_on) DO UPDATE SET n = invoice_client_day_counts.n + 1;
$$;

CREATE FUNCTION invoice_status_counts_remove(o invoices) RETURNS void
LANGUAGE sql AS $$
    UPDATE invoice_status_counts SET n = n - 1
     WHERE agency_id = o.agency_id AND status = o.status;
    UPDATE invoice_client_status_counts SET n = n - 1
     WHERE agency_id = o.agency_id AND client_id = o.client_id AND status = o.status;
$$;

CREATE FUNCTION invoice_status_counts_add(v invoices) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO invoice_status_counts (agency_id, status, n)
        VALUES (v.agency_id, v.status, 1)
        ON CONFLICT (agency_id, status) DO UPDATE SET n = invoice_status_counts.n + 1;
    INSERT INTO invoice_client_status_counts (agency_id, client_id, status, n)
        SELECT v.agency_id, v.client_id, v.status, 1
         WHERE v.client_id IS NOT NULL
        ON CONFLICT (agency_id, client_id, status) DO UPDATE SET n = invoice_client_status_counts.n + 1;
$$;

CREATE FUNCTION invoice_counts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM invoice_counts_remove(OLD);
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        PERFORM invoice_counts_add(NEW);
    END IF;
    RETURN NULL;
END;
$$;

CREATE FUNCTION invoice_status_counts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM invoice_status_counts_remove(OLD);
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        PERFORM invoice_status_counts_add(NEW);
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER invoice_counts_insert AFTER INSERT ON invoices
    FOR EACH ROW EXECUTE FUNCTION invoice_counts();
CREATE TRIGGER invoice_counts_delete AFTER DELETE ON invoices
    FOR EACH ROW EXECUTE FUNCTION invoice_counts();
CREATE TRIGGER invoice_counts_update AFTER UPDATE OF agency_id, client_id, status, created_on ON invoices
    FOR EACH ROW WHEN (OLD.agency_id IS DISTINCT FROM NEW.agency_id OR OLD.client_id IS DISTINCT FROM NEW.client_id
                       OR OLD.status IS DISTINCT FROM NEW.status OR OLD.created_on IS DISTINCT FROM NEW.created_on)
    EXECUTE FUNCTION invoice_counts();

CREATE TRIGGER invoice_status_counts_insert AFTER INSERT ON invoices
    FOR EACH ROW EXECUTE FUNCTION invoice_status_counts();
CREATE TRIGGER invoice_status_counts_delete AFTER DELETE ON invoices
    FOR EACH ROW EXECUTE FUNCTION invoice_status_counts();
CREATE TRIGGER invoice_status_counts_update AFTER UPDATE OF agency_id, client_id, status ON invoices
    FOR EACH ROW WHEN (OLD.agency_id IS DISTINCT FROM NEW.agency_id OR OLD.client_id IS DISTINCT FROM NEW.client_id
                       OR OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION invoice_status_counts();
