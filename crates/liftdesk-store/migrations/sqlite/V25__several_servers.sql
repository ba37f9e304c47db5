-- Several servers on one database.
--
-- A webhook delivery being sent is claimed by the server sending it, until
-- a lease ends: several servers never send the same delivery at once, and
-- one that died mid-send leaves it to the others once its lease has
-- passed; a subscription with a delivery claimed waits (one send at a time
-- per receiver, in order, whichever server sends). `claimed_by` is the
-- claiming server's id (`server-id` in its data directory), `claimed_until`
-- the lease's end (the stored timestamp format).
ALTER TABLE webhook_deliveries ADD COLUMN claimed_by TEXT;
ALTER TABLE webhook_deliveries ADD COLUMN claimed_until TEXT;

-- The claims running: few (a claim ends with its attempt's record).
CREATE INDEX webhook_deliveries_claimed ON webhook_deliveries (subscription_id)
    WHERE claimed_until IS NOT NULL;

-- The fingerprints (SHA-256, hex) of the key files every server of the
-- database must share (the sheet links' secret, the webhook secrets' key):
-- a server whose file differs, or lacks it, refuses to start instead of
-- signing what the others cannot read.
CREATE TABLE server_keys (
    name        TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    recorded_at TEXT NOT NULL
);

-- The same for the documents' e-mails: one server sends a message, another
-- takes it over once the claim of a server that died mid-send has passed.
ALTER TABLE mails ADD COLUMN claimed_by TEXT;
ALTER TABLE mails ADD COLUMN claimed_until TEXT;
