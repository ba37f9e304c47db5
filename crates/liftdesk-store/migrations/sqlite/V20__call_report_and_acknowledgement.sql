-- A breakdown call's closing report, written when staff close it from the
-- screens (the call centers' and partners' APIs close without one), and the
-- acknowledgement of a trapped-person alert: the alert stays on every
-- signed-in screen, across reloads, until someone takes it into account.
ALTER TABLE calls ADD COLUMN report_cause TEXT;
ALTER TABLE calls ADD COLUMN report_work TEXT;
ALTER TABLE calls ADD COLUMN report_parts TEXT;
-- UTC timestamp: the lift was back in service.
ALTER TABLE calls ADD COLUMN back_in_service_at TEXT;
ALTER TABLE calls ADD COLUMN acknowledged_at TEXT;
ALTER TABLE calls ADD COLUMN acknowledged_by TEXT REFERENCES accounts(id);
-- No index of its own: the alerts are read among the calls not resolved
-- (`calls_by_status`), while every call taken would pay for one more index.
