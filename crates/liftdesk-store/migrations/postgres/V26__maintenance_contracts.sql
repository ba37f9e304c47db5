-- Maintenance contracts (issue 25): one per client and set of lifts, its
-- terms, its price and how it is billed and revised, its response-time
-- commitments. The rules are `liftdesk_domain::contract`.
CREATE TABLE contracts (
    id                      TEXT COLLATE "C" PRIMARY KEY,
    agency_id               TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    client_id               TEXT COLLATE "C" NOT NULL REFERENCES clients(id),
    number                  TEXT COLLATE "C" NOT NULL,
    type                    TEXT COLLATE "C" NOT NULL CHECK (type IN ('minimal', 'normal', 'etendu', 'complet')),
    status                  TEXT COLLATE "C" NOT NULL DEFAULT 'brouillon' CHECK (status IN ('brouillon', 'actif', 'resilie', 'echu')),
    start_on                TEXT COLLATE "C" NOT NULL,
    duration_months         BIGINT NOT NULL CHECK (duration_months BETWEEN 12 AND 120),
    tacit_renewal           BIGINT NOT NULL CHECK (tacit_renewal IN (0, 1)),
    renewal_months          BIGINT NOT NULL CHECK (renewal_months BETWEEN 1 AND 60),
    notice_months           BIGINT NOT NULL CHECK (notice_months BETWEEN 0 AND 12),
    price_basis             TEXT COLLATE "C" NOT NULL CHECK (price_basis IN ('par_appareil', 'global')),
    -- The annual price excluding tax of one lift, or of the whole.
    annual_price_cents      BIGINT NOT NULL CHECK (annual_price_cents >= 0),
    billing_frequency       TEXT COLLATE "C" NOT NULL CHECK (billing_frequency IN ('mensuelle', 'trimestrielle', 'semestrielle', 'annuelle')),
    billing_timing          TEXT COLLATE "C" NOT NULL CHECK (billing_timing IN ('terme_a_echoir', 'terme_echu')),
    vat_rate_bp             BIGINT NOT NULL CHECK (vat_rate_bp IN (2000, 1000, 550, 210, 0)),
    -- The revision's index (`BT48`) and its base value I0 in
    -- ten-thousandths; both or neither.
    price_index             TEXT COLLATE "C",
    base_index_value        BIGINT CHECK (base_index_value > 0),
    visit_interval_days     BIGINT NOT NULL CHECK (visit_interval_days BETWEEN 7 AND 42),
    -- Response times in minutes: arrival in working hours, out of them
    -- (NULL: no commitment out of hours), for a trapped person, and the
    -- return to service.
    arrival_minutes         BIGINT NOT NULL,
    arrival_out_of_hours_minutes BIGINT,
    trapped_minutes         BIGINT NOT NULL,
    restore_minutes         BIGINT NOT NULL,
    weekend_coverage        BIGINT NOT NULL CHECK (weekend_coverage IN (0, 1)),
    on_call_coverage        BIGINT NOT NULL CHECK (on_call_coverage IN (0, 1)),
    -- What the agency owes per hour late (started), in cents.
    penalty_per_hour_cents  BIGINT NOT NULL DEFAULT 0 CHECK (penalty_per_hour_cents >= 0),
    notes                   TEXT COLLATE "C",
    activated_at            TEXT COLLATE "C",
    notice_on               TEXT COLLATE "C",
    ends_on                 TEXT COLLATE "C",
    termination_reason      TEXT COLLATE "C",
    ended_at                TEXT COLLATE "C",
    created_at              TEXT COLLATE "C" NOT NULL,
    updated_at              TEXT COLLATE "C" NOT NULL,
    CHECK ((price_index IS NULL) = (base_index_value IS NULL)),
    UNIQUE (agency_id, number)
);

CREATE INDEX contracts_agency_status ON contracts (agency_id, status);
CREATE INDEX contracts_client ON contracts (client_id);

-- The lifts a contract covers. `in_force` is 1 while the contract is
-- active: a lift is under one contract in force at most.
CREATE TABLE contract_equipment (
    contract_id   TEXT COLLATE "C" NOT NULL REFERENCES contracts(id) ON DELETE CASCADE,
    equipment_id  TEXT COLLATE "C" NOT NULL REFERENCES equipment(id),
    position      BIGINT NOT NULL,
    in_force      BIGINT NOT NULL DEFAULT 0 CHECK (in_force IN (0, 1)),
    PRIMARY KEY (contract_id, equipment_id)
);

CREATE UNIQUE INDEX contract_equipment_in_force ON contract_equipment (equipment_id) WHERE in_force = 1;
CREATE INDEX contract_equipment_equipment ON contract_equipment (equipment_id);

-- The values of the price indexes, entered by the agency's staff or
-- imported (no network needed): one per index and month, in
-- ten-thousandths.
CREATE TABLE price_index_values (
    agency_id    TEXT COLLATE "C" NOT NULL REFERENCES agencies(id),
    index_code   TEXT COLLATE "C" NOT NULL,
    month        TEXT COLLATE "C" NOT NULL,
    value        BIGINT NOT NULL CHECK (value > 0),
    recorded_at  TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (agency_id, index_code, month)
);
