-- An agency an organization administrator archived: it leaves every scope
-- (sessions, API tokens, partner keys), its call-center keys and webhook
-- subscriptions are revoked, and its history stays. NULL while it works.
ALTER TABLE agencies ADD COLUMN archived_at TEXT;
