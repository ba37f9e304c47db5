-- An equipment the agency no longer looks after (sold, replaced, contract
-- ended), archived from its page: it leaves the park list, the maintenance
-- plan and the park's knowledge rate, takes no new call or visit, and keeps
-- its history. NULL while it is in the park.
ALTER TABLE equipment ADD COLUMN archived_at TEXT;
