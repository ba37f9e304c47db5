-- The organization that set the installation up: the first client
-- organization made in this database (first-run screen, `liftdesk init` on
-- an empty data directory, or the demo). Its organization administrators
-- alone administer the installation itself (settings, backups, restore,
-- restart, diagnostics), which holds every organization's data. Stored
-- rather than derived at each request, so that no later organization, clock
-- change or VACUUM can move it; a restore brings the backup's own.
CREATE TABLE installation (
    -- One row at most.
    id               INTEGER PRIMARY KEY CHECK (id = 1),
    organization_id  TEXT NOT NULL REFERENCES organizations(id)
);

-- A database made before this version: the oldest client organization
-- (by creation time, then id: ids are time-ordered UUIDs v7).
INSERT INTO installation (id, organization_id)
SELECT 1, id FROM organizations WHERE kind = 'client'
ORDER BY created_at, id LIMIT 1;
