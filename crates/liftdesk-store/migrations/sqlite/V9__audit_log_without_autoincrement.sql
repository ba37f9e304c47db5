-- The audit log's `seq` without AUTOINCREMENT: every audited write (all of
-- them) also rewrote the `sqlite_sequence` row of `audit_log`, one page more
-- in the WAL and in each commit's flush (a call-center call wrote 10 pages,
-- 11 with it). Entries are never deleted, so SQLite's default rowid (one
-- more than the largest) gives the same increasing numbers; existing
-- entries keep theirs.
CREATE TABLE audit_log_v9 (
    seq          INTEGER PRIMARY KEY,
    at           TEXT NOT NULL,
    agency_id    TEXT,
    actor_kind   TEXT NOT NULL CHECK (actor_kind IN ('account', 'api_token', 'call_center_key', 'partner_key', 'cli', 'system')),
    actor_id     TEXT,
    action       TEXT NOT NULL,
    object_type  TEXT NOT NULL,
    object_id    TEXT,
    detail       TEXT CHECK (detail IS NULL OR json_valid(detail))
);

INSERT INTO audit_log_v9 (seq, at, agency_id, actor_kind, actor_id, action, object_type, object_id, detail)
    SELECT seq, at, agency_id, actor_kind, actor_id, action, object_type, object_id, detail
    FROM audit_log;

DROP TABLE audit_log;
ALTER TABLE audit_log_v9 RENAME TO audit_log;

CREATE INDEX audit_log_by_object ON audit_log(object_type, object_id);
CREATE INDEX audit_log_by_agency ON audit_log(agency_id, at);
