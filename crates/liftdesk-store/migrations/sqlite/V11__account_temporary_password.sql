-- A password an administrator gave (a new colleague's, or a reset): shown
-- once, it lets its holder sign in only to choose their own. Cleared when
-- the account sets its password.
ALTER TABLE accounts ADD COLUMN must_change_password INTEGER NOT NULL DEFAULT 0
    CHECK (must_change_password IN (0, 1));
